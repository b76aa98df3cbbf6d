"""People's names written in Chinese characters or Hangul, read as family name and given name.

`anyascii` transliterates a Han character by its Mandarin reading and a Hangul syllable by the
Revised Romanization, one syllable at a time ("张一鸣" -> Zhang Yi Ming, "손흥민" -> Son Heung
Min). A Chinese or Korean name is written family name first with no space, so the first syllable
(the first two for a compound surname) is the family name and the rest, run together, the given
name: 张一鸣 reads as family "zhang", given "yiming", which a page in Latin letters writes "Zhang
Yiming" or "Yiming Zhang". What this can't read honestly is left alone:
- a Japanese name in kanji (大谷翔平): anyascii gives its Mandarin reading (da guxiangping), which
  no Latin spelling of a Japanese name meets (Ohtani Shohei): japanese.py reads it with a
  dictionary of names instead (pykakasi, a general reader, is GPL-3, the project MIT);
- an English name beside a Chinese one (Robin Li / 李彦宏): not a transliteration, never guessed;
- a foreign name written in Chinese characters ("埃隆·马斯克", with a middle dot): no reading.
A name in Cyrillic, Greek, Armenian or Georgian letters is read by alphabets.py. Korean family names
have spellings the Revised Romanization does not give (이 is Lee, Yi or Rhee; 박 is Park):
`KOREAN_SURNAMES` lists the usual ones, read only from Hangul, never between two Latin spellings (a
Lee and a Yi in Latin letters are two names). Chinese family names, likewise, have the spellings of
Taiwan, Hong Kong and Southeast Asia (`CHINESE_SURNAMES`: 李 Lee, 陳 Chan or Tan), and a Chinese given
name its Wade-Giles spelling (`wade_giles`: 清德 Ching-te) and, in traditional characters, the
spellings Hong Kong writes it in (`cantonese`: 嘉誠 Ka-shing), read with cantonese-romanisation (the
Hong Kong Government's Cantonese romanisation, character by character).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, NamedTuple

_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = r"\uac00-\ud7a3"
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff]")
_SYLLABLES = re.compile(rf"^[{_HAN}{_HANGUL}\s]+$")
_HANGUL_ONLY = re.compile(rf"^[{_HANGUL}\s]+$")

# Two-syllable surnames: a three-syllable name starting with one is two + one. Sources: Wikipedia,
# "Chinese compound surname" (the common ones of the Hundred Family Surnames) and "Korean name"
# (Namgung, Hwangbo, Jegal, Seonu, Dokgo).
COMPOUND_SURNAMES = frozenset(
    "欧阳 歐陽 司马 司馬 诸葛 諸葛 上官 东方 東方 夏侯 皇甫 尉迟 尉遲 公孙 公孫 慕容 司徒 令狐 "
    "남궁 황보 제갈 선우 독고".split()
)

# Hangul surname -> its usual spellings in Latin letters. Source: Wikipedia, "List of Korean
# surnames" (the romanizations column: Revised, McCune-Reischauer and the common spellings people
# use, as the National Institute of Korean Language's 2009 survey of surname spellings found them).
KOREAN_SURNAMES: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for k, v in {
        "김": "kim gim", "이": "lee yi rhee i ri rhie", "박": "park pak bak", "최": "choi choe chey choy",
        "정": "jung jeong chung cheong", "강": "kang gang", "조": "cho jo joh", "윤": "yoon yun",
        "장": "jang chang", "임": "lim im rim yim", "한": "han", "오": "oh o", "서": "seo suh",
        "신": "shin sin", "권": "kwon gwon", "황": "hwang", "안": "ahn an", "송": "song",
        "류": "ryu yoo yu lyu", "유": "yoo yu ryu you", "홍": "hong", "전": "jeon jun chun chon", "고": "ko go koh",
        "문": "moon mun", "양": "yang", "손": "son sohn", "배": "bae pae", "백": "baek paik baik paek",
        "허": "heo huh hur", "노": "noh no roh", "구": "koo ku gu", "남": "nam", "심": "shim sim",
        "하": "ha", "곽": "kwak gwak", "성": "sung seong", "차": "cha", "주": "joo ju chu",
        "우": "woo u", "민": "min", "진": "jin chin", "지": "ji chi", "엄": "um eom", "채": "chae",
        "원": "won", "천": "chun cheon", "방": "bang pang", "공": "kong gong", "현": "hyun hyeon",
        "변": "byun byeon pyun", "염": "yeom yum", "추": "choo chu", "석": "seok suk", "선": "sun seon",
        "명": "myung myeong", "기": "ki gi", "반": "ban pan", "금": "keum geum", "경": "kyung gyeong",
    }.items()
}  # fmt: skip


def hard_c(text: str) -> str:
    """`text` with a hard c (not before e, i, y or h) written k, as another language or script
    spells its sound: "eric" / "erik", Cohen / כהן ("kohen")."""
    return re.sub(r"c(?![eiyh])", "k", text, flags=re.IGNORECASE)


# Characters read otherwise as a family name than anyascii reads them (its reading is the common
# word's: 曾 "ceng", the surname Zeng; 翟 "di", the surname Zhai). Source: Wikipedia (zh),
# "多音字姓氏" (family names with more than one reading), the common ones.
SURNAME_PINYIN: dict[str, str] = {
    k: v
    for chars, v in {
        "曾": "zeng", "单 單": "shan", "仇": "qiu", "解": "xie", "区 區": "ou", "查": "zha", "乐 樂": "yue",
        "翟": "zhai", "朴": "piao", "覃": "qin", "缪 繆": "miao", "盖 蓋": "ge", "员 員": "yun",
        "种 種": "chong", "召": "shao", "尉": "yu", "秘": "bi", "折": "she",
    }.items()
    for k in chars.split()
}  # fmt: skip

# Han family name -> the spellings Chinese outside the mainland write it in: Wade-Giles (Taiwan),
# Cantonese (Hong Kong), Hokkien and Teochew (Singapore, Malaysia). Source: Wikipedia, "List of
# common Chinese surnames" (its romanization columns), the common names and their usual spellings
# only. Read only from Han characters, never between two Latin spellings.
CHINESE_SURNAMES: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for chars, v in {
        "李": "lee lei li", "王": "wong ong wang", "张 張": "chang cheung teo chong", "刘 劉": "lau liu lao low",
        "陈 陳": "chen chan tan chin", "杨 楊": "yang yeung yeo yeoh young", "黄 黃": "huang wong ng ooi wee oei",
        "赵 趙": "chao chiu chew", "吴 吳": "wu ng goh woo", "周": "chou chow chew chau", "徐": "hsu tsui chui",
        "孙 孫": "sun suen", "马 馬": "ma mah", "朱": "chu chue choo", "胡": "hu wu woo oh aw", "郭": "kuo kwok kok kuok kwek quek",
        "何": "ho", "林": "lin lam lim", "罗 羅": "lo law lor", "高": "kao ko koh", "郑 鄭": "cheng cheang tay teh",
        "梁": "liang leung leong neo", "谢 謝": "hsieh tse chia cheah seah", "宋": "sung soong", "唐": "tang tong",
        "许 許": "hsu hui koh khoo", "邓 鄧": "teng tang", "冯 馮": "feng fung fong", "韩 韓": "han hon",
        "曹": "tsao cho chow", "曾": "tseng tsang chan", "彭": "peng pang phang", "萧 蕭": "hsiao siu siew",
        "蔡": "tsai choi chua", "潘": "pan poon phua", "田": "tien tin", "董": "tung", "袁": "yuan yuen",
        "于": "yu yue", "余": "yu yee", "叶 葉": "yeh yip yap", "蒋 蔣": "chiang cheung", "杜": "tu to",
        "苏 蘇": "su so soh", "魏": "wei ngai", "程": "cheng ching", "吕 呂": "lu lui lee", "丁": "ting ding",
        "沈": "shen shum sim", "任": "jen yam", "姚": "yao yiu", "卢 盧": "lu lo lou", "钟 鍾": "chung chong",
        "汪": "wang wong", "施": "shih shi sze see sy", "洪": "hung hong ang", "赖 賴": "lai", "江": "chiang kong kang",
        "郝": "hao", "邱": "chiu yau khoo", "廖": "liao liu", "侯": "hou hau", "邵": "shao shiu", "方": "fang fong",
        "石": "shih shek", "傅": "fu foo", "严 嚴": "yen yim", "钱 錢": "chien chin", "戴": "tai tay",
        "温 溫": "wen wan woon", "龚 龔": "kung", "薛": "hsueh sit", "孔": "kung hung kong",
        "郁": "yu yuk", "柯": "ko kor kua kwa", "连 連": "lien lin", "陆 陸": "lu luk loke", "欧阳 歐陽": "ouyang auyeung",
        "包": "pao pau", "荣 榮": "jung yung wing", "殷": "yin ing yan", "卓": "cho cheuk toh", "辜": "ku koo",
        "顾 顧": "ku koo", "关 關": "kuan kwan", "麦 麥": "mai mak", "莫": "mo mok", "霍": "huo fok", "邝 鄺": "kuang kwong",
        "甘": "kan kam", "岑": "tsen shum sham", "区 區": "ou au", "伍": "wu ng", "雷": "lei lui", "游": "yu yau iu",
        "简 簡": "chien kan",
    }.items()
    for k in chars.split()
}  # fmt: skip

# A pinyin syllable as Wade-Giles writes it (Taiwan's given names: 清德 qingde / Ching-te), apostrophes
# dropped: whole syllables first, then initials and finals. Source: Wikipedia, "Wade–Giles" (its
# comparison table with pinyin).
_WADE_WHOLE = {"zi": "tzu", "ci": "tzu", "si": "ssu", "zhi": "chih", "chi": "chih", "shi": "shih",
               "ri": "jih", "yi": "i", "you": "yu", "yan": "yen", "ye": "yeh", "yong": "yung",
               "er": "erh", "ge": "ko", "ke": "ko", "he": "ho", "guo": "kuo", "kuo": "kuo", "huo": "huo",
               "shuo": "shuo", "ruo": "jo", "zhuo": "cho", "chuo": "cho"}  # fmt: skip
_WADE_INITIALS = (("zh", "ch"), ("ch", "ch"), ("sh", "sh"), ("x", "hs"), ("q", "ch"), ("j", "ch"),
                  ("z", "ts"), ("c", "ts"), ("r", "j"), ("b", "p"), ("d", "t"), ("g", "k"))  # fmt: skip
_WADE_FINALS = (("iong", "iung"), ("ong", "ung"), ("ian", "ien"), ("ie", "ieh"), ("ui", "uei"), ("uo", "o"))


def wade_giles(syllable: str) -> str:
    """A pinyin syllable in Wade-Giles, apostrophes dropped ("qing" -> "ching", "xian" -> "hsien")."""
    if syllable in _WADE_WHOLE:
        return _WADE_WHOLE[syllable]
    head, rest = "", syllable
    for pinyin, wade in _WADE_INITIALS:
        if syllable.startswith(pinyin):
            head, rest = wade, syllable[len(pinyin) :]
            break
    for pinyin, wade in _WADE_FINALS:
        if rest.endswith(pinyin):
            rest = rest[: -len(pinyin)] + wade
            break
    return head + rest


class Syllabic(NamedTuple):
    """A Chinese or Korean name read syllable by syllable: family name, given name, spellings."""

    family: str  # "zhang", "son"
    given: str  # "yiming", "heungmin" ("" for a name of one syllable)
    spellings: frozenset[str]  # the family name's spellings in Latin letters, with `family`
    korean: bool  # written in Hangul
    wade: str = ""  # a Chinese given name in Wade-Giles ("chingte"), where it differs from `given`
    cantonese: tuple[str, ...] = ()  # its Hong Kong spellings ("kashing"), where they differ


# Revised Romanization writes a syllable's last consonant k, t, p (박 Bak, 혁 hyeok); anyascii's
# letter-for-letter g, d, b (Bag, hyeog): a name's syllables are romanized one by one, as final.
_FINAL = {"g": "k", "d": "t", "b": "p"}


def _romanize(ch: str) -> str:
    from anyascii import anyascii  # on first use: a cold start needs none of it

    latin = re.sub(r"[^a-z]", "", anyascii(ch).lower())
    if _HANGUL_ONLY.match(ch) and latin[-1:] in _FINAL and not latin.endswith("ng"):
        latin = latin[:-1] + _FINAL[latin[-1]]
    return latin


def name_parts(name: str) -> tuple[list[str], list[str]] | None:
    """A name of two to four Chinese characters or Hangul syllables cut into its family name's and
    its given name's (a compound family name, 欧阳 or 諸葛, and any four, two and two), or None."""
    text = name.strip()
    if not text or _KANA.search(text) or not _SYLLABLES.match(text):
        return None
    chars = [c for c in text if not c.isspace()]
    if len(chars) < 2 or len(chars) > 4:
        return None
    cut = 2 if "".join(chars[:2]) in COMPOUND_SURNAMES or len(chars) == 4 else 1
    return chars[:cut], chars[cut:]


@lru_cache(maxsize=65536)
def syllabic(name: str) -> Syllabic | None:
    """`name` read as a Chinese or Korean name (module docstring), or None: not in those scripts,
    a Japanese name (kana, or kanji with no Japanese reading here), or a foreign name's spelling."""
    parts = name_parts(name)
    if parts is None:
        return None
    family_chars, given_chars = parts
    korean = bool(_HANGUL_ONLY.match(name.strip()))
    family, spellings = _family(family_chars, korean)
    given = "".join(_romanize(c) for c in given_chars)
    wade = "" if korean else "".join(wade_giles(_romanize(c)) for c in given_chars)
    canto = tuple(c for c in cantonese(tuple(given_chars)) if c not in (given, wade)) if not korean else ()
    return Syllabic(family, given, spellings, korean, wade if wade != given else "", canto)


def _family(chars: list[str], korean: bool) -> tuple[str, frozenset[str]]:
    """A family name in characters or Hangul: its reading (as a surname: 曾 "zeng") and every
    spelling of it (`KOREAN_SURNAMES`; `CHINESE_SURNAMES` and Hong Kong's Cantonese)."""
    read = "".join(_romanize(c) for c in chars)
    family = read if korean else SURNAME_PINYIN.get("".join(chars), read)
    spellings = {family, read}
    if korean and len(chars) == 1:
        spellings |= KOREAN_SURNAMES.get(chars[0], frozenset())
    if not korean:
        spellings |= CHINESE_SURNAMES.get("".join(chars), frozenset())
        spellings |= set(cantonese(tuple(chars)))  # 霍 Fok, 鄭 Cheng: Hong Kong's spellings
    return family, frozenset(spellings)


# A given name is two characters at most here (`syllabic`), a character four spellings at most: all
# are kept (the table lists them alphabetically, not by use: 嘉 "ga gar ka", Li Ka-shing's Ka). The
# bound only keeps a longer input from multiplying.
_CANTONESE_READINGS = 64


@lru_cache(maxsize=1)
def _cantonese_table() -> Any:
    from cantoroman import Cantonese  # on first use: 1 MB of tables a cold start needs none of

    return Cantonese()


@lru_cache(maxsize=8192)
def _cantonese_syllable(ch: str) -> tuple[str, ...]:
    """A traditional character's spellings in the Hong Kong Government Cantonese Romanisation
    ("福" -> "fook", "fuk"); () for a character the table lacks (simplified ones, mostly)."""
    roman = _cantonese_table().getRoman(ch)
    said = [s for s in (roman[0] if roman else []) if s.isascii() and s.isalpha()]
    # names write an unaspirated b, d, g or j as p, t, k or ch (炳 bing: Kwok Ping-luen)
    return tuple(dict.fromkeys([*said, *(_UNVOICED[s[0]] + s[1:] for s in said if s[0] in _UNVOICED)]))


_UNVOICED = {"b": "p", "d": "t", "g": "k", "j": "ch"}


@lru_cache(maxsize=1)
def mandarin_syllables() -> frozenset[str]:
    """Every Mandarin syllable, as anyascii spells a Chinese character (about 400)."""
    from anyascii import anyascii  # on first use: a cold start needs none of it

    read = (anyascii(chr(c)).lower().strip() for c in range(0x4E00, 0x9FA6))
    return frozenset(r for r in read if r.isalpha())


@lru_cache(maxsize=65536)
def mandarin_halves(word: str) -> tuple[tuple[str, str], ...]:
    """Every way `word` parts into two Mandarin syllables ("yiming": ("yi", "ming")), none for a
    word that does not."""
    syllables = mandarin_syllables()
    return tuple(
        (word[:k], word[k:]) for k in range(1, len(word)) if word[:k] in syllables and word[k:] in syllables
    )


@lru_cache(maxsize=1)
def _spelled_syllables() -> frozenset[str]:
    """Every syllable a Chinese name is spelled with in Latin letters: Mandarin as pinyin and as
    Wade-Giles writes it, and Cantonese as Hong Kong's romanisation does (about 1,400)."""
    mandarin = mandarin_syllables()
    hong_kong = {r for r in _cantonese_table().romanToChar if r.isalpha()}
    return frozenset(mandarin | {wade_giles(m) for m in mandarin} | hong_kong)


def chinese_spelled(word: str) -> bool:
    """Whether a word in Latin letters reads as one to three syllables of a Chinese name, in pinyin,
    Wade-Giles or Cantonese ("kashing", "chingte", "kengyam"): a Chinese given name, perhaps of
    other characters, never an English one ("Forrest", "Eason")."""
    syllables = _spelled_syllables()

    def read(rest: str, left: int) -> bool:
        if not rest:
            return True
        return left > 0 and any(
            rest[:k] in syllables and read(rest[k:], left - 1) for k in range(1, len(rest) + 1)
        )

    return bool(word) and read(word, 3)


def cantonese(chars: tuple[str, ...]) -> tuple[str, ...]:
    """A name in traditional characters as Hong Kong spells it, every spelling the table gives
    ("嘉誠" -> "gashing", ..., "kashing"), at most `_CANTONESE_READINGS` of them; () when a
    character has no reading there."""
    readings = [""] if chars else []
    for ch in chars:
        spellings = _cantonese_syllable(ch)
        readings = [r + s for r in readings for s in spellings][:_CANTONESE_READINGS]
    return tuple(readings)


# A syllable's first sound as Mandarin, Cantonese and Hokkien spellings of one character share it:
# k, g and q (孔 kong, 强 qiang / keung), h, f and w (惠 hui / wai), the stops and sibilants.
_ONSETS = {**dict.fromkeys("kgcq", "k"), **dict.fromkeys("hfw", "h"), **dict.fromkeys("bp", "p"),
           **dict.fromkeys("dt", "t"), **dict.fromkeys("jzsx", "s"), **dict.fromkeys("ln", "l")}  # fmt: skip


def onset(syllable: str) -> str:
    """A Chinese syllable's first sound, as its spellings in several Chinese languages share it
    ("kong" and "qiang": k); "" for a vowel."""
    return _ONSETS.get(syllable[:1], syllable[:1] if syllable[:1] not in "aeiouy" else "")


def hong_kong_key(syllables: tuple[str, ...]) -> str:
    """Cantonese syllables run together, folded over Hong Kong's spellings of one sound: a last
    vowel with an h or without (Wah / wa), j or ch (政 jing, Ching), oo or u (龍 lung, Loong)."""
    joined = "".join(re.sub(r"(?<=[aeiou])h$", "", s) for s in syllables)
    return joined.replace("j", "ch").replace("oo", "u")


def han_chars(written: str) -> str:
    """The Chinese characters of `written`, in order, whatever else it writes (a bracket, a Latin
    word): what a reading of a name in characters reads."""
    return "".join(re.findall(rf"[{_HAN}]", written))


def hong_kong_reading(written: str) -> tuple[str, ...]:
    """The Cantonese readings, as Hong Kong spells them (`cantonese`), of the first two characters
    of a name in traditional characters: what a Hong Kong company's English name opens with
    (恒隆集團, "hanglung": Hang Lung Group); () for a name not so written."""
    chars = tuple(han_chars(written)[:2])
    return cantonese(chars) if len(chars) == 2 else ()


def taiwan_reading(written: str) -> str:
    """The Wade-Giles reading (`wade_giles`) of the first two characters of a name in Chinese
    characters: what a Taiwanese company's English name opens with (奇美實業, "chimei": Chi Mei
    Corporation; 味全, "weichuan": Wei Chuan Foods); "" for a name not so written."""
    from anyascii import anyascii  # on first use: a cold start needs none of it

    chars = han_chars(written)[:2]
    said = [anyascii(ch).lower().strip() for ch in chars]
    return "".join(wade_giles(s) for s in said) if len(said) == 2 and all(map(str.isalpha, said)) else ""


# Scripts that write few or no vowels, or vowels anyascii spells otherwise than a Latin page does:
# Arabic (and Persian, Urdu), Hebrew, the Brahmic scripts of South Asia (Devanagari to Sinhala), and
# those of Southeast Asia: Thai, Lao, Myanmar and Khmer.
# ناصف ساويرس reads "nsf swyrs", सचिन तेंदुलकर "scin temdulkr": the consonants agree, the vowels don't.
_CONSONANTAL = re.compile(
    r"[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]"
)
_DIGRAPHS = (("ch", "c"), ("sh", "s"), ("th", "t"), ("kh", "k"), ("gh", "g"), ("ph", "f"),
             ("dh", "d"), ("bh", "b"), ("jh", "j"), ("zh", "z"), ("ck", "k"), ("q", "k"),
             ("p", "b"), ("v", "f"), ("x", "ks"))  # fmt: skip


_CJK = re.compile(rf"[{_HAN}{_HANGUL}\u3040-\u30ff]")


def is_cjk(text: str) -> bool:
    """Whether `text` holds Chinese characters, kana or Hangul."""
    return bool(_CJK.search(text))


def read_apart(x: str, y: str) -> bool:
    """Two names written in two scripts other than Latin, no letter of one in the other's (Селин
    Дион, セリーヌ・ディオン, 席琳·狄翁): each is read against Latin letters, never against the
    other, so their disagreeing says nothing of two people or two companies."""
    sx, sy = _letter_scripts(x), _letter_scripts(y)
    return bool(sx and sy) and "LATIN" not in sx | sy and not sx & sy


@lru_cache(maxsize=65536)
def _letter_scripts(text: str) -> frozenset[str]:
    """The scripts `text`'s letters are written in, by their Unicode names' first word; cached: a
    merge asks it of every pair of two groups' people."""
    return frozenset(unicodedata.name(ch, "?").split()[0] for ch in text if ch.isalpha())


def consonantal(name: str) -> bool:
    """Whether `name` is written in a script `skeleton` compares (Arabic, Hebrew, Brahmic, Thai:
    Thai writes some vowels before their consonant, which the consonants alone do not mind)."""
    return bool(_CONSONANTAL.search(name))


def skeleton(word: str) -> str:
    """A folded word's consonants as both scripts write them: digraphs as one letter, vowels and
    the glides h, w, y dropped (but a first y or w, a consonant there: "yaghi" -> "yg"), a nasal
    before a consonant as n (Devanagari's anusvara), doubled letters once ("sachin" and "scin" ->
    "scn", "tendulkar" and "temdulkr" -> "tndlkr", "hassan" and "hsn" -> "sn"). Many names share
    one ("sn": Hassan, Hussein, Hosni): weigh it lightly."""
    w = word.lower()
    for two, one in _DIGRAPHS:
        w = w.replace(two, one)
    w = re.sub(r"(?<!^)[aeiouhwy]|^[aeiouh]", "", w)  # a word's first y or w is a consonant (Yaghi)
    # a letter written twice once before a nasal is read: "umm" is أم's "m", not "nm"
    w = re.sub(r"(.)\1+", r"\1", w)
    w = re.sub(r"m(?=[^aeiou])", "n", w)
    return re.sub(r"(.)\1+", r"\1", w)


# How a name's sounds are written across scripts, in order: a loanword in katakana, Hangul,
# Devanagari, Arabic or Cyrillic keeps its consonants and loses its spelling ("Astellas" /
# アステラス asuterasu, "Celltrion" / 셀트리온 selteulion, "Cipla" / सिप्ला sipl). Digraphs first,
# then the letters those scripts cannot tell apart: l and r (Japanese, Korean), b and v, p and f
# (Korean writes f as p), voiced and plain stops (Korean g/k, d/t, b/p), j, z, ch (ㅈ, ズ, ज़).
_SOUNDS = (
    ("tion", "shon"), ("dzh", "j"), ("tch", "j"), ("dg", "j"), ("sch", "s"), ("ch", "j"), ("sh", "s"), ("zh", "j"), ("ph", "p"), ("th", "t"),
    ("dh", "d"), ("kh", "k"), ("gh", "g"), ("bh", "b"), ("ck", "k"), ("qu", "k"), ("x", "ks"),
)  # fmt: skip
_MERGE = str.maketrans("lvfbdgqzc", "rbpptkkjk")


@lru_cache(maxsize=65536)
def sound_key(folded: str, *, read: bool = False) -> str:
    """A folded name's consonants as a name is heard in any script (`_SOUNDS`): vowels and the
    glides h, w, y dropped, "c" before e, i, y read as s, "dzh" (Cyrillic дж) as j, a nasal before
    a consonant as n, a letter written twice once ("astellas" and "asuterasu" -> "strs",
    "sovcomflot" and "sovkomflot" -> "sbknprt"). `read`: the name was read out of another script, where a bare
    "c" is anyascii's च, "ch" ("cilij" / "chillies"). Two names in one script are never compared
    by it: it is for a name read out of another script against one in Latin letters."""
    w = re.sub(r"[^a-z]", "", folded.lower())
    if read:
        w = re.sub(r"c(?!h)", "ch", w)
    for two, one in _SOUNDS:
        w = w.replace(two, one)
    w = re.sub(r"c(?=[eiy])", "s", w).translate(_MERGE)
    w = re.sub(r"m(?=[^aeioumnhwy])", "n", w)  # a glide is no consonant: ميديا "mydy" is "media"
    w = re.sub(r"[aeiouhwy]", "", w)
    return re.sub(r"(.)\1+", r"\1", w)


# How `latin_sound_keys` hears a Latin name in another script, each with the ones before it (an example beside)
_HEARD_AS = (
    (r"g(?=[eiy])", "j"),  # a soft g: Germain, جيرمان (jyrmn)
    # an r after a vowel, before a consonant, a last silent e or the end, a long vowel as kana and
    # Hangul write it: FamilyMart, ファミリーマート; Enerbility, 에너빌리티; Tullamore, タラモア
    (r"(?<=[aeiou])r(?![aiouy]|e[a-z])", ""),
    (r"(?<=[^aeiou])e(?=s?\b)", ""),  # a last silent e, as Hangul writes none: Games, 게임즈
    (r"(?<=[aeiourlnmgdb])s\b", "z"),  # a plural's s after a voiced sound, as Hangul: Tigers, 타이거즈
    (r"t[sz]", "ch"),  # as Hangul writes it, 츠 "cheu": Meritz, 메리츠; REITs, 리츠
    (r"eu", "ev"),  # as Cyrillic and Greek write it: EuroChem, ЕвроХим
    (r"ch", "k"),  # the х (kh) Cyrillic writes: Technika, Техника
    (r"v", "b"),  # the b Hangul and kana write for a v: Novaled, 노발레드; Evident, エビデント
    (r"w", "v"),  # as Cyrillic writes a German one: Wimm-Bill-Dann, Вимм-Билль-Данн
    (r"c(?![hkz])", "ts"),  # the Slavic languages' Latin c: Strumica, Струмица
    (r"(?<![cstpgkwrdz])h", "kh"),  # the kh Cyrillic writes: Eurohold, Еврохолд
)


@lru_cache(maxsize=65536)
def latin_sound_keys(latin: str) -> frozenset[str]:
    """The `sound_key`s a name in Latin letters may be heard by in another script: as written and
    as `_HEARD_AS` hears it, each change alone and with the others (Energy: 에너지, a soft g and a
    long vowel; Energy Materials: 에너지머티리얼즈, and a plural's z). Cached: every candidate pair
    read across two scripts asks it of the same names, and its ten patterns make up to 1,024
    spellings a name (a few: most patterns change nothing in it)."""
    heard = {latin}
    for pattern, by in _HEARD_AS:
        heard |= {re.sub(pattern, by, x) for x in heard}
    return frozenset(sound_key(x) for x in heard)


# Consonants one script's letter is read as where another's is (व v / b, ch / s / k, 陈 chen / Tan,
# a nasal's place), as `sound_key` writes them (heard_words._NEAR_GROUPS: the same for `skeleton`'s
# letters): one of them for the other is the same name heard twice
_NEAR = ("bp", "mn", "jkst")


def _near(x: str, y: str) -> bool:
    """Two sound keys one edit apart, adding or dropping a consonant or putting a near one for one
    (`_NEAR`; s, t, k for another opening a name only as a ch is read: சுகுணா is no Deccan)."""
    if len(x) != len(y):
        return True
    at, p, q = next((i, p, q) for i, (p, q) in enumerate(zip(x, y, strict=True)) if p != q)
    return any(p in near and q in near for near in (_NEAR if at or "j" in (p, q) else _NEAR[:2]))


def sounds_alike(read: str, latin: str) -> bool:
    """A name read out of another script (folded) and one in Latin letters sound alike: their
    `sound_key`s are equal, four consonants at least, or differ in one of six or more (a plural, a
    consonant a script adds: "productions" / プロダクション; a near one, `_near`); the Latin name heard each way
    `latin_sound_keys` hears it."""
    x = sound_key(read, read=True)
    for y in latin_sound_keys(latin):
        if len(x) < 4 or len(y) < 4:
            continue
        if x == y:
            return True
        from rapidfuzz.distance import Levenshtein  # on first use, as evidence.py does

        if min(len(x), len(y)) >= 6 and Levenshtein.distance(x, y, score_cutoff=1) <= 1 and _near(x, y):
            return True
    return False


def spelled_alike(a: str, b: str) -> bool:
    """Two Latin spellings of one family name, romanized two ways (Parvanov / Purvanov, Bayramov /
    Bairamov): they sound alike (`sounds_alike`, four consonants at least), and are not a Slavic
    family name's two genders (Petrov / Petrova, Novák / Nováková: two people)."""
    if a == b or not (a.isascii() and b.isascii()):
        return False
    for x, y in ((a, b), (b, a)):
        if y in (x + "a", x + "ova", x + "va") or (x.endswith("y") and y == x[:-1] + "aya"):
            return False
    return sounds_alike(a, b)
