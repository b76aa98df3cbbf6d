"""Organisation names in Chinese characters, kana, Hangul or Arabic letters, translated word by word.

A company's name in its own script and its English name are often a translation, not a reading:
대한항공 is Korean Air, 中国银行 Bank of China, 京都大学 Kyoto University, 日本銀行 the Bank of
Japan. `translates(written, latin)` cuts `written` into the terms `TERMS` holds (longest first)
and the runs between them, and asks whether the words of the Latin name are those terms'
English words and those runs' readings, each used once, in any order:
- a term is one of its English words or phrases ("航空": air, airlines, airways, aviation), or
  its reading, which a Chinese company's English name may keep (东方电气 / Dongfang Electric);
- a run no term covers is its reading: Mandarin by anyascii ("恒瑞" hengrui), kana as romaji,
  Hangul by sound ("롯데" / Lotte: scripts.sound_key), a Japanese family name in kanji as the
  names dataset reads it ("武田" takeda: japanese.py), or the initials of its syllables ("京东"
  jing dong / JD, as Chinese companies abbreviate);
- "company" and "limited" may be left out on either side; a group or a holding company ("集团",
  "控股", "ホールディングス") never is: it is another entity than its company of one name;
- a word of trade ("薬品" pharmaceutical, "工業" industries) may be left out of a Latin name one
  of whose words, four letters or more, a run's reading gives ("Takeda" / 武田薬品工業, "Takeda
  Pharmaceutical"): the brand is there. Never beside a term alone (三菱電機 is not "Mitsubishi").
Everything else must be accounted for on both sides: "China Construction Bank" is not 中国银行.
A name in Arabic letters translates only when `_ARABIC` knows every word (مصر للطيران / EgyptAir).

`TERMS` is kept to words of place, trade and structure that organisations' names are made of:
each is the usual English rendering of the word in company and institution names (sources: the
CC-CEDICT and Wiktionary entries for each word, and the English names the organisations that
bear them publish). A proper name is never a term, but for the three old Japanese business
groups whose names lead many companies' (三菱 Mitsubishi, 三井 Mitsui, 住友 Sumitomo; Wikipedia,
"Keiretsu"), which no dataset here reads.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from exa_orch.workflows.entities.japanese import family_reading
from exa_orch.workflows.entities.names import CJK_FORMS, fold, is_latin, reading_agrees
from exa_orch.workflows.entities.scripts import sound_key

# A term: its kind ("filler": structure, may be left out; "trade": may be left out beside a
# brand; "word": must be matched) and its English words (a phrase is words joined by a space).
_FILLER = "filler"
_TRADE = "trade"
_WORD = "word"


def _terms(kind: str, table: dict[str, str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """`table` (terms written with spaces between spellings -> English renderings split by "|")."""
    return {
        term: (kind, tuple(english.split("|")))
        for spellings, english in table.items()
        for term in spellings.split()
    }


TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    **_terms(_FILLER, {"公司 会社 회사": "company", "有限 股份": "limited", "相互会社": "mutual|company"}),
    **_terms(
        _TRADE,
        {
            "航空 항공": "air|airlines|airways|aviation|air lines",
            "银行 銀行 은행": "bank|banking",
            "保险 保險 保険 보험": "insurance",
            "人寿 人壽 生命 생명": "life",
            "证券 證券 証券 증권": "securities",
            "电信 電信 전신": "telecom|telecommunications",
            "通信 통신": "telecom|communications|telecommunications",
            "电力 電力 전력": "electric|power|electric power",
            "电气 電氣 電気 전기": "electric",
            "电子 電子 전자": "electronics|electronic",
            "电机 電機": "electric|electrical machinery",
            "石油 석유": "petroleum|oil",
            "石化": "petrochemical",
            "化学 化學 화학": "chemical|chemicals",
            "钢铁 鋼鐵 鉄鋼 철강": "steel",
            "制铁 製鐵 製鉄 제철": "steel",
            "汽车 汽車 自動車 자동차": "motor|motors|automobile|auto",
            "重工 重工業 중공업": "heavy industries",
            "工业 工業 공업": "industries|industrial|industry",
            "建设 建設 건설": "construction",
            "物流 물류": "logistics",
            "急便 快递 快遞 택배": "express|courier|delivery",
            "航运 航運": "shipping|lines|shipping lines",
            "旅客": "passenger",
            "海运 海運 해운": "shipping",
            "运输 運輸 운수": "transport|transportation",
            "铁路 鐵路 鉄道 철도": "railway|railways|rail",
            "医药 醫藥 医薬 의약": "pharmaceutical|pharmaceuticals|medicine|pharma",
            "制药 製藥 製薬 薬品 제약": "pharmaceutical|pharmaceuticals|pharma",
            "生物 生物科技": "biologics|bio|biotech|biotechnology",
            "医疗 醫療 医療 의료": "medical|healthcare",
            "食品 식품": "foods|food",
            "饮料 飲料": "beverage|beverages",
            "啤酒 麦酒 맥주": "beer|brewery",
            "乳业 乳業": "dairy",
            "能源": "energy",
            "矿业 礦業 鉱業 광업": "mining",
            "地产 地產 不動産 부동산": "real estate|properties|property|land",
            "置地": "land",
            "百货 百貨": "department store|department stores",
            "电视 電視 電視台 电视台 テレビ": "television|tv",
            "放送 방송": "broadcasting|broadcast",
            "新闻 新聞 신문": "news|newspaper|shimbun",
            "出版": "publishing",
            "科技 技术 技術 기술": "technology|technologies|tech",
            "软件 軟體 軟件": "software",
            "网络 網絡 網路": "network|networks",
            "通讯 通訊": "communications",
            "半导体 半導體 半導体 반도체": "semiconductor|semiconductors",
            "电池 電池": "battery|batteries",
            "机场 機場 空港 공항": "airport",
            "造船 조선해양": "shipbuilding",
            "海洋 해양": "ocean|marine",
            "金融 금융": "financial|finance",
            "金控": "financial holding|financial holdings|financial",
            "投资 投資 투자": "investment|investments",
            "资产 資產 資産": "asset|assets",
            "管理": "management",
            "商业 商業": "commercial",
            "储蓄 儲蓄": "savings",
            "邮政 郵政": "post|postal",
            "旅行 여행": "travel",
            "酒店 饭店 飯店 호텔": "hotel|hotels",
            "零售": "retail",
            "电器 電器": "appliances|electric",
            "机械 機械 기계": "machinery",
            "精密": "precision",
            "水泥": "cement",
            "玻璃": "glass",
            "烟草 煙草 담배": "tobacco",
            "体育 體育": "sports",
            "交通": "transport|communications",
            "大学 大學 대학교 대학": "university",
            "研究所 研究院 연구소 연구원": "institute",
            "科学院 科學院": "academy of sciences",
            "医院 醫院 病院 병원": "hospital",
            "政府 정부": "government",
            "内阁 內閣 内閣 내각": "cabinet",
        },
    ),
    **_terms(
        _WORD,
        {
            # a group or a holding company is another entity than its company of the same name
            # (中国人寿保险(集团)公司 is not China Life Insurance Company Limited): never left out
            "集团 集團 グループ 그룹": "group",
            "控股 ホールディングス 홀딩스 지주": "holdings|holding",
            "中国 中國": "china|chinese|chugoku",
            "中华 中華": "china|chinese|chunghwa|zhonghua",
            "日本": "japan|japanese|nippon|nihon",
            "东日本 東日本": "east japan|eastern japan",
            "西日本": "west japan|western japan",
            "韩国 韓國 한국": "korea|korean",
            "大韩 大韓 대한": "korea|korean|daehan",
            "台湾 台灣": "taiwan",
            "香港": "hong kong",
            "新加坡": "singapore",
            "美国 美國": "america|american|us",
            "国际 國際 国際 국제": "international",
            "国家 國家": "national",
            "国民 國民 국민": "national|kookmin|kokumin",
            "人民": "peoples|people",
            "东方 東方": "eastern|orient|oriental",
            "南方": "southern|south",
            "北方": "northern|north",
            "第一": "first|daiichi|dai ichi",
            "工商": "industrial and commercial",
            "农业 農業": "agricultural|agriculture",
            "招商": "merchants",
            "开发 開發 发展 發展": "development",
            "北京": "beijing|peking",
            "上海": "shanghai",
            "广州 廣州": "guangzhou|canton",
            "台北": "taipei",
            "高雄": "kaohsiung",
            "东京 東京": "tokyo",
            "大阪": "osaka",
            "京都": "kyoto",
            "名古屋": "nagoya",
            "横浜 横滨": "yokohama",
            "神戸": "kobe",
            "九州": "kyushu",
            "北海道": "hokkaido",
            "関西": "kansai",
            "中部": "chubu",
            "東北": "tohoku",
            "三菱": "mitsubishi",
            "三井": "mitsui",
            "住友": "sumitomo",
        },
    ),
}
_LONGEST = max(len(t) for t in TERMS)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_STOP = frozenset({"of", "the", "and", "de"})
_DROPPED = frozenset("company co corporation corp limited ltd inc plc".split())


class Segment(NamedTuple):
    """A piece of a written name: a term (`kind` of TERMS, `english` its renderings) or a run no
    term covers (`kind` "run", `english` its readings)."""

    text: str
    kind: str
    english: tuple[str, ...]


def _readings(run: str) -> tuple[str, ...]:
    """Ways a run no term covers is written in Latin letters (module docstring)."""
    out = [fold(run).replace(" ", "")]
    syllables = [fold(ch).strip() for ch in run] if _HAN.search(run) else []
    if len(syllables) >= 2 and all(syllables):
        out.append("".join(s[0] for s in syllables))  # 京东: jing dong, "JD"
    family = family_reading(run)
    if family:
        out.append(family)
    return tuple(dict.fromkeys(r for r in out if r))


@lru_cache(maxsize=4096)
def segments(written: str) -> tuple[Segment, ...]:
    """`written` cut into TERMS (the longest at each place) and the runs between them; Latin
    letters inside ("三菱UFJ", "CJ제일제당") are a run of their own; spaces and dots part runs."""
    out: list[Segment] = []
    run = ""

    def close() -> None:
        nonlocal run
        if run.strip():
            out.append(Segment(run, "run", _readings(run)))
        run = ""

    i = 0
    while i < len(written):
        for n in range(min(_LONGEST, len(written) - i), 0, -1):
            term = TERMS.get(written[i : i + n])
            if term:
                close()
                # its reading too: a Chinese company may keep it (东方电气 / Dongfang Electric)
                said = (*term[1], fold(written[i : i + n]).replace(" ", ""))
                out.append(Segment(written[i : i + n], term[0], said))
                i += n
                break
        else:
            ch = written[i]
            if ch.isspace() or ch in "・·.,()（）":
                close()
            elif run and ch.isascii() != run[-1].isascii():
                close()
                run = ch
            else:
                run += ch
            i += 1
    close()
    return tuple(out)


def _content(latin: str) -> list[str]:
    return [w for w in latin.split() if w not in _STOP and w not in _DROPPED]


def _run_meets(readings: tuple[str, ...], word: str) -> bool:
    """A run's reading is the Latin word: spelled alike, or heard alike (three consonants at least:
    롯데 / lotte is not enough, 셀트리온 / celltrion is)."""
    if word in readings:
        return True
    heard = sound_key(word)
    return len(heard) >= 3 and any(sound_key(r, read=True) == heard for r in readings)


def _match(segs: tuple[Segment, ...], left: tuple[str, ...], branded: bool) -> bool:
    """Whether `segs` account for exactly the words `left` (module docstring), by backtracking."""
    if not segs:
        return not left
    seg, rest = segs[0], segs[1:]
    if seg.kind == "run":
        for k, w in enumerate(left):
            if _run_meets(seg.english, w) and _match(rest, left[:k] + left[k + 1 :], branded):
                return True
        # a reading the Latin name writes as two words (萬海 wanhai / Wan Hai)
        for k in range(len(left) - 1):
            if left[k] + left[k + 1] in seg.english and _match(rest, left[:k] + left[k + 2 :], branded):
                return True
        return False
    for phrase in seg.english:
        remaining = list(left)
        for w in _content(phrase):
            if w not in remaining:
                break
            remaining.remove(w)
        else:
            if _match(rest, tuple(remaining), branded):
                return True
    droppable = seg.kind == _FILLER or (seg.kind == _TRADE and branded)
    return droppable and _match(rest, left, branded)


# Words of Arabic organisation names (the article al- and the preposition li- kept on, as the names
# write them) -> their English renderings; a name in Arabic letters translates only when every
# word is one of these (its other words, read without vowels, are not compared). Sources: the
# Wiktionary entries for each word and the English names the organisations publish.
_ARABIC: dict[str, tuple[str, ...]] = {
    w: tuple(english.split("|"))
    for words_, english in {
        "مصر": "egypt|egyptian|misr",
        "قطر القطرية": "qatar|qatari",
        "المصرية المصري": "egypt|egyptian",
        "العمانية": "oman|omani",
        "الأردنية": "jordan|jordanian",
        "الملكية": "royal",
        "السعودية": "saudi|saudia",
        "العربية": "arab|arabian",
        "الإمارات": "emirates",
        "الكويت الكويتية": "kuwait|kuwaiti",
        "للطيران الطيران": "air|airlines|airways|aviation",
        "الخطوط_الجوية": "airlines|airways",  # "the air lines", two words read as one (`_arabic_words`)
        "الجوية": "air|airways",
        "للطاقة الطاقة": "energy",
        "للاتصالات الاتصالات": "telecom|telecommunications",
        "بنك البنك مصرف": "bank",
        "الوطني الوطنية": "national",
        "الأهلي": "national|ahli",
        "للبترول البترول": "petroleum",
        "شركة": "",
    }.items()
    for w in words_.split()
}
_ARABIC_LETTERS = re.compile(r"[\u0600-\u06ff]")


def _arabic_words(written: str) -> list[tuple[str, ...] | None]:
    """Each word's renderings (`_ARABIC`), None for a word it lacks."""
    return [_ARABIC.get(w) for w in written.replace("الخطوط الجوية", "الخطوط_الجوية").split()]


def _arabic(written: str, latin: str) -> str | None:
    """A name in Arabic letters whose every word `_ARABIC` renders, rendered as `latin` is written
    (its words in any order, or run together: مصر للطيران / EgyptAir, قطر للطاقة / QatarEnergy)."""
    said = _arabic_words(written)
    if len(said) < 2 or any(r is None for r in said):
        return None
    choices = [r for r in said if r and r != ("",)]
    target = sorted(_content(latin))
    for combo in itertools.islice(itertools.product(*choices), 256):
        words = [w for phrase in combo for w in _content(phrase)]
        if sorted(words) == target or "".join(words) == latin.replace(" ", ""):
            return f"{written} translates as {latin}"
    return None


@lru_cache(maxsize=65536)
def translates(written: str, latin: str) -> str | None:
    """How `written` (a name in Chinese characters, kana, Hangul or Arabic letters) translates to
    `latin` (a cleaned Latin name), or None (module docstring)."""
    if _ARABIC_LETTERS.search(written):
        return _arabic(written, latin)
    if not (_HAN.search(written) or _HANGUL.search(written)):
        return None
    segs = segments(written)
    words = tuple(_content(latin))
    if not words or not any(s.kind != _FILLER for s in segs):
        return None
    runs = [s for s in segs if s.kind == "run"]
    # the brand: a Latin word of four letters or more a run's reading gives ("takeda")
    branded = any(len(w) >= 4 and _run_meets(s.english, w) for s in runs for w in words)
    if not runs and len(words) < 2:
        return None  # one term alone ("中国" / "China") names no organisation
    if _match(segs, words, branded):
        return f"{written} translates as {latin}"
    return None


def keys(written: str) -> Iterator[str]:
    """Blocking keys of a name in another script: each way its words may be rendered (a term's
    English words, a run's readings; structure left out; trade left out beside a run), as the
    sorted words `latin_key` gives a Latin name, and run together; 64 at most."""
    if _ARABIC_LETTERS.search(written):
        yield from _arabic_keys(written)
        return
    segs = [s for s in segments(written) if s.kind != _FILLER]
    if not segs or not any(s.kind != "run" for s in segs):
        return
    choices = [list(s.english) + ([""] if s.kind == _TRADE else []) for s in segs]
    for combo in itertools.islice(itertools.product(*choices), 64):
        said = " ".join(c for c in combo if c)
        if said:
            yield "t:" + " ".join(sorted(_content(said)))


def _arabic_keys(written: str) -> Iterator[str]:
    """`keys` of a name in Arabic letters whose every word `_ARABIC` renders."""
    said = _arabic_words(written)
    if len(said) >= 2 and all(r is not None for r in said):
        for combo in itertools.islice(itertools.product(*[r for r in said if r and r != ("",)]), 64):
            words = [w for phrase in combo for w in _content(phrase)]
            yield "t:" + " ".join(sorted(words))
            yield "t:" + "".join(words)


def latin_keys(clean: str) -> set[str]:
    """A Latin name's blocking keys for `keys`: its words but structure and stop words, sorted, and
    one word as it is (EgyptAir)."""
    words = _content(clean)
    return {"t:" + " ".join(sorted(words)), *({"t:" + words[0]} if len(words) == 1 else set())}


_STRUCTURE = frozenset({"group", "holdings", "holding"})


def _other_structure(a_written: str, a_clean: str, b_written: str, b_clean: str) -> bool:
    """One name says it is a group or a holding company (サッポロホールディングス, "Sapporo Holdings")
    and the other, which does not, says something else in its place ("Sapporo Breweries",
    サッポロビール): a group and one of its companies, whatever their first words share."""
    for written, other_written, other_clean in (
        (a_written, b_written, b_clean),
        (b_written, a_written, a_clean),
    ):
        if written and other_written and not is_latin(written) and is_latin(other_written):
            if _group_apart(written, other_clean):
                return True
    return False


def _group_apart(written: str, latin: str) -> bool:
    """`_other_structure` for a name in another script and a cleaned Latin one."""
    theirs = set(latin.split()) & _STRUCTURE
    mine = any(set(t.english) & _STRUCTURE for t in segments(written) if t.kind == _WORD)
    said = [s for s in segments(written) if not (s.kind == _WORD and set(s.english) & _STRUCTURE)]
    rest = [w for w in _content(latin) if w not in _STRUCTURE]
    if len(_content(latin)) < 2 or bool(theirs) == mine:
        return False
    if mine:
        return True  # a group in characters, a company of more words in Latin letters
    # a name in characters whose sounds go on past the Latin name's (サッポロビール, sapporobiru)
    return len(said) == len(rest) == 1 and len(sound_key(said[0].english[0], read=True)) > len(
        sound_key(rest[0])
    )


def agrees(a_written: str, a_clean: str, b_written: str, b_clean: str) -> str | None:
    """How two organisation names agree when one is written in another script and the other in
    Latin letters: read (names.reading_agrees) or translated (`translates`), either way round."""
    read = reading_agrees(a_written, a_clean, b_written, b_clean)
    if read and not _other_structure(a_written, a_clean, b_written, b_clean):
        return read
    for written, other_written, other in ((a_written, b_written, b_clean), (b_written, a_written, a_clean)):
        if written and other_written and other and not is_latin(written) and is_latin(other_written):
            said = translates(CJK_FORMS.sub(" ", written).strip(), other)
            if said:
                return said
            heard = sound_key(fold(written), read=True)
            # a short name heard whole alike, three consonants (सिप्ला / Cipla, एयर इंडिया / Air India):
            # fewer than scripts.sounds_alike asks of a name it may read only the start of
            if len(heard) == 3 and heard == sound_key(other.replace(" ", "")):
                return f"{written} sounds as {other} does"
    return None


# A person's title in Chinese, Japanese or Korean -> the English titles it is rendered as: the
# titles one person holds in an organisation (a president, a chairman, a chief executive), not
# those many share (founder, director, professor). Sources: the CC-CEDICT and Wiktionary entries.
_TITLES: dict[str, frozenset[str]] = {
    term: frozenset(english.split("|"))
    for terms, english in {
        "总裁 總裁 社長 사장 总统 總統 대통령 校长 校長 총장": "president",
        "董事长 董事長 会長 會長 회장 理事长 理事長": "chairman|chairwoman|chair",
        "首席执行官 首席執行官 行政总裁 行政總裁 最高経営責任者 대표이사 CEO": "ceo|chief executive",
        "首相 总理 總理 国务院总理 國務院總理 국무총리": "prime minister|premier",
        "行长 行長 총재": "governor|president",
    }.items()
    for term in terms.split()
}
_ONE_HOLDS = frozenset("president chairman chairwoman chair ceo governor premier".split())


def titles_agree(written: str, latin: str) -> str | None:
    """A title in another script (`written`) that renders as one the Latin `latin` title holds, a
    title one person holds at a time ("总裁" / "President"): the rendering, or None."""
    said = {w for term, english in _TITLES.items() if term in written for w in english}
    folded = " " + " ".join(fold(latin).replace("-", " ").split()) + " "
    for title in sorted(said):
        if f" {title} " in folded and (title in _ONE_HOLDS or " " in title):
            return title
    return None


def place_in(written: str, city: str) -> bool:
    """Whether a location written in Chinese characters, kana or Hangul names the city `city`
    (folded, Latin) by a term of place: "京都府京都市" names Kyoto, "서울특별시" Seoul."""
    return any(
        term in written and city in english for term, (kind, english) in TERMS.items() if kind == _WORD
    )
