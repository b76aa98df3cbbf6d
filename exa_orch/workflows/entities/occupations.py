"""The occupation a Wikipedia edition writes in brackets after a person's name to tell namesakes
apart ("Ahmed Saad (singer)", "أحمد سعد (مطرب)", "Anitta (cantora)", "張丹 (花样滑冰运动员)"), read
in the languages of the editions the worlds meet, so that two editions' titles of one article
agree: the same name read alike and the same occupation (person_evidence `_one_article`).

Sources: the disambiguation words of the English, Portuguese, Spanish, French, German, Turkish,
Arabic, Persian, Urdu, Korean, Japanese, Chinese, Russian, Greek, Hebrew, Bengali, Tamil, Hindi,
Thai and Burmese editions (their "(singer)", "(actor)" ... titles, Wiktionary's translations).
"""

from __future__ import annotations

# An occupation and the words editions write for it in a title's brackets.
_WRITTEN = {
    "singer": "singer|cantora|cantor|cantante|chanteuse|chanteur|sänger|sängerin|şarkıcı|مطرب|مطربة|مغني|"
    "مغنية|خواننده|گلوکار|가수|歌手|певец|певица|τραγουδιστής|τραγουδίστρια|זמר|זמרת|গায়ক|গায়িকা|"
    "பாடகர்|गायक|गायिका|นักร้อง",
    "actor": "actor|actress|ator|atriz|actriz|acteur|actrice|schauspieler|schauspielerin|oyuncu|ممثل|ممثلة|"
    "بازیگر|اداکار|اداکارہ|배우|俳優|女優|演员|演員|актёр|актер|актриса|ηθοποιός|שחקן|שחקנית|অভিনেতা|"
    "অভিনেত্রী|நடிகர்|நடிகை|अभिनेता|अभिनेत्री|นักแสดง",
    "musician": "musician|músico|musicien|musiker|موسيقي|موسیقیدان|সংগীতশিল্পী|音乐家|音樂家|музыкант|μουσικός",
    "entertainer": "entertainer",
    "footballer": "footballer|futebolista|futbolista|footballeur|fußballspieler|futbolcu|لاعب كرة قدم|فوتبالیست|"
    "축구 선수|サッカー選手|足球运动员|足球運動員|футболист|ποδοσφαιριστής|כדורגלן",
    "cricketer": "cricketer|کرکٹ کھلاڑی|ক্রিকেটার|கிரிக்கெட் வீரர்|क्रिकेटर",
    "businessperson": "businessman|businesswoman|businessperson|empresário|empresária|empresario|empresaria|"
    "unternehmer|unternehmerin|iş insanı|رجل أعمال|کارآفرین|사업가|実業家|企业家|企業家|бизнесмен|"
    "предприниматель|επιχειρηματίας|איש עסקים|စီးပွားရေးသမား",
    "politician": "politician|político|política|politiker|politikerin|politikacı|سياسي|سیاستمدار|정치인|政治家|"
    "политик|πολιτικός|פוליטיקאי",
    "figure skater": "figure skater|花样滑冰运动员|花樣滑冰運動員|フィギュアスケート選手|фигурист|фигуристка",
    "gamer": "gamer|pro gamer|프로게이머|プロゲーマー",
    "writer": "writer|escritor|escritora|écrivain|écrivaine|schriftsteller|schriftstellerin|yazar|كاتب|كاتبة|"
    "نویسنده|작가|作家|писатель|писательница|συγγραφέας|סופר|סופרת",
}
_OCCUPATION = {word: job for job, said in _WRITTEN.items() for word in said.split("|")}
# An entertainer is billed as a singer or an actor in another edition, a singer as a musician
_NEAR = {
    "entertainer": {"singer", "actor", "musician"},
    "singer": {"entertainer", "musician"},
    "actor": {"entertainer"},
    "musician": {"singer", "entertainer"},
}


def occupation(aside: str) -> str:
    """The occupation a title's words in brackets name ("مطرب" -> "singer"), or "" for anything
    else: a year ("1956년"), a birth ("cricketer, born 1955"), a place, a team."""
    return _OCCUPATION.get(aside.strip().lower(), "")


def one_occupation(a: str, b: str) -> bool:
    """Two titles' words in brackets name one occupation, or two an edition bills one person by."""
    ja, jb = occupation(a), occupation(b)
    return bool(ja and jb) and (ja == jb or jb in _NEAR.get(ja, set()))
