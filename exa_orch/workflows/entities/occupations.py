"""The occupation a Wikipedia edition writes in brackets after a person's name to tell namesakes
apart ("Ahmed Saad (singer)", "أحمد سعد (مطرب)", "Anitta (cantora)", "張丹 (花样滑冰运动员)"), read
in the languages of the editions the worlds meet, so that two editions' titles of one article
agree: the same name read alike and the same occupation (person_evidence `_one_article`). And the
careers a person's title names (`callings_apart`): a wrestler and a singer of one name are two
people (person_evidence `_namesakes`).

Sources: the disambiguation words of the English, Portuguese, Spanish, French, German, Italian,
Turkish, Arabic, Persian, Urdu, Korean, Japanese, Chinese, Russian, Greek, Hebrew, Bengali, Tamil,
Hindi, Thai and Burmese editions (their "(singer)", "(actor)", "(director)", "(boxer)" ... titles,
Wiktionary's translations).
"""

from __future__ import annotations

import re

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
    "director": "director|film director|diretor|diretora|directora|réalisateur|réalisatrice|regisseur|"
    "regisseurin|regista|yönetmen|مخرج|مخرجة|کارگردان|영화감독|映画監督|导演|導演|режиссёр|режиссер|"
    "σκηνοθέτης|במאי|পরিচালক|निर्देशक|ผู้กำกับ",
    "composer": "composer|compositor|compositora|compositeur|compositrice|komponist|komponistin|besteci|ملحن|"
    "آهنگساز|작곡가|作曲家|композитор|συνθέτης|מלחין|সুরকার|संगीतकार",
    "painter": "painter|pintor|pintora|peintre|maler|malerin|ressam|رسام|نقاش|화가|画家|畫家|художник|"
    "художница|ζωγράφος|צייר|ציירת",
    "architect": "architect|arquiteto|arquiteta|arquitecto|arquitecta|architecte|architekt|architektin|mimar|"
    "معماري|معمار|건축가|建築家|建筑师|建築師|архитектор|αρχιτέκτονας|אדריכל|אדריכלית",
    "journalist": "journalist|jornalista|periodista|journaliste|journalistin|gazeteci|صحفي|صحفية|"
    "روزنامه‌نگار|기자|ジャーナリスト|记者|記者|журналист|журналистка|δημοσιογράφος|עיתונאי|עיתונאית",
    "chef": "chef|cocinero|cocinera|cozinheiro|cozinheira|cuisinier|cuisinière|koch|köchin|aşçı|طاه|"
    "آشپز|요리사|料理人|厨师|廚師|повар|σεφ|שף",
    "boxer": "boxer|boxeador|boxeadora|boxeur|boxeuse|boksör|ملاكم|بوکسور|권투 선수|ボクサー|拳击运动员|"
    "拳擊運動員|боксёр|боксер|μποξέρ|מתאגרף|นักมวย",
    "wrestler": "wrestler|luchador|lutador|lutteur|ringer|güreşçi|مصارع|کشتی‌گیر|레슬링 선수|レスラー|"
    "プロレスラー|摔跤运动员|摔跤運動員|борец|παλαιστής|מתאבק",
    "tennis player": "tennis player|tenista|joueur de tennis|joueuse de tennis|tennisspieler|tennisspielerin|"
    "tenisçi|لاعب تنس|لاعبة تنس|테니스 선수|テニス選手|网球运动员|網球運動員|теннисист|теннисистка|"
    "τενίστας|τενίστρια|טניסאי|טניסאית",
    "golfer": "golfer|golfista|golfeur|golfeuse|golfspieler|golfspielerin|golfçü|골프 선수|ゴルファー|"
    "プロゴルファー|高尔夫球运动员|高爾夫球運動員|гольфист|гольфистка",
    "baseball player": "baseball player|beisbolista|jogador de beisebol|joueur de baseball|baseballspieler|"
    "야구 선수|野球選手|棒球运动员|棒球運動員|бейсболист",
    "basketball player": "basketball player|basquetebolista|baloncestista|basquetbolista|joueur de basket-ball|"
    "basketballspieler|basketballspielerin|basketbolcu|لاعب كرة سلة|농구 선수|バスケットボール選手|"
    "篮球运动员|籃球運動員|баскетболист|баскетболистка|μπασκετμπολίστας|כדורסלן",
    "ice hockey player": "ice hockey player|joueur de hockey sur glace|eishockeyspieler|아이스하키 선수|"
    "アイスホッケー選手|冰球运动员|冰球運動員|хоккеист",
    "cyclist": "cyclist|racing cyclist|ciclista|cycliste|radrennfahrer|radsportler|bisikletçi|دراج|"
    "사이클 선수|自転車競技選手|自行车运动员|自行車運動員|велогонщик|ποδηλάτης",
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


# The callings a person keeps for a career, a sport's or an art's: two of them named apart in two
# titles are two people of one name (Reza Yazdani, a freestyle wrestler and a singer). Not the
# callings one takes up beside another (a businessperson, a politician, a writer, a journalist, an
# entertainer, a gamer): a footballer turned politician is one person.
_CAREERS = frozenset(_WRITTEN) - {
    "businessperson",
    "politician",
    "writer",
    "journalist",
    "entertainer",
    "gamer",
}
_SAID = re.compile(
    r"(?<!\w)(" + "|".join(sorted((re.escape(w) for w in _OCCUPATION), key=len, reverse=True)) + r")(?!\w)"
)


def callings(title: str) -> frozenset[str]:
    """The careers (`_CAREERS`) a person's title names ("Freestyle wrestler (96 kg)" -> wrestler;
    "Singer and composer" -> singer, composer)."""
    said = {_OCCUPATION[m.group(1)] for m in _SAID.finditer(title.lower())}
    return frozenset(said & _CAREERS)


# The arts are one field a person moves within (a singer acts, a director composes, a painter
# designs buildings); each sport and the kitchen are fields of their own
_ARTS = frozenset({"singer", "actor", "musician", "composer", "director", "painter", "architect"})


def _field(calling: str) -> str:
    return "arts" if calling in _ARTS else calling


def callings_apart(a: str, b: str) -> tuple[str, str] | None:
    """Two titles naming careers of two fields, none shared (a wrestler and a singer, a boxer and a
    golfer): (one of each), or None."""
    ca, cb = callings(a), callings(b)
    fa, fb = {_field(c) for c in ca}, {_field(c) for c in cb}
    return (min(ca), min(cb)) if fa and fb and not fa & fb else None
