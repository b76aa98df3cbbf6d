"""Other names a page gives in its asides and in the words other languages use for "formerly".

records.py reads the English cues ("formerly X", "also known as X") and "Name (X)", with the
patterns of "X, now Y" and "Y, formerly X" kept here (`NOW`, `FORMERLY`: a legal form set off by
commas may stand between, "Vista Oil & Gas, S.A.B. de C.V., now Vista Energy"); this module
reads what those miss, each a name the page itself states (the resolver never guesses one):
- **an aside's labelled names**: an encyclopedia's lead gives the subject's names in other
  languages and its short name in parentheses, each after a label: "贝莱德（英语：BlackRock, Inc.）",
  "中央广播电视总台（英文名China Media Group，简称CMG）", "Chemins de fer fédéraux suisses (CFF ; en
  allemand SBB, en italien FFS)". An aside's first part is a name when it reads as one
  ("Shigeru Miyamoto (宮本 茂, born 1952)": not "born 1952"), and so is every labelled part
  ("로제(ROSÉ, 본명: 박채영, 영어: Roseanne Park)"); a legal form, a place or a CJK form may come
  between the name and its aside ("Contemporary Amperex Technology Co., Limited (CATL)");
- **a lead naming the record in its aside**: "中国人民保险集团股份有限公司（中国人保）" on a page
  under 中国人保, or labelled ("（簡稱中華車，英語：China Motor Corporation）" under 中華車): the
  name before the aside is the record's full name (the short name begins alike and its letters
  come in order), the aside's other names are the record's too;
- **a lead writing the record's name longer**, in Chinese or Japanese characters:
  "仁寶電腦工業股份有限公司（英語：Compal Electronics, Inc.）" on a page under 仁寶電腦 (a trade and a
  legal form after the name): its aside's names are the record's;
- **a name the text opens with**, on a page under the name it says that one is known by: "Tony
  Azevedo, the Long Beach native known as Mr. Water Polo" (`_lead_known_as`; "noto come",
  "conocido como", "bekannt als" ...);
- **a name the record goes by**: "Hon Hai Precision Industry Co., Ltd., trading as Foxconn",
  "Onika Tanya Maraj, known professionally as Nicki Minaj" on a page under the name after "as";
- **former names in Chinese, Japanese and Korean**: "（旧 株式会社日立物流）", "前稱EasyVan",
  "原名…", "(구 …)";
- **rename phrases** the English cues' capitalised names miss: a brand written in lower case
  ("formerly abrdn plc", "change its name to abrdn,"), "renamed Forvia", "will be called
  Kellanova", Portuguese, Spanish, French and German renames and "known as" ("passa a se chamar
  Azzas 2154", "pasó a llamarse", "conocido como BancoEstado", ", hoy Banco Itaú Chile",
  "umbenannt in"), and "a trading name of Phoenix Life Limited" (a trading name and the company
  that trades under it are one legal entity).
`written_forms` reads the legal forms a page writes after its own name ("NortonLifeLock Inc."),
which evidence.py weighs against a former name written with one.
Each name comes with the sentence offset it was read at, so the caller keeps the words as a reason.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache

from exa_orch.workflows.entities.countries import is_place
from exa_orch.workflows.entities.names import clean_name, legal_forms, words
from exa_orch.workflows.entities.script_forms import cjk_forms
from exa_orch.workflows.entities.scripts import is_cjk
from exa_orch.workflows.entities.terms import TERMS

# A label before a name in an aside: the language the name is in, or that it is a short name.
# Sources: the lead sentences of zh/ja/ko/ar/ru/fr/de/es/pt Wikipedia articles on companies.
_LABEL = re.compile(
    r"^(?:英[语語文](?:名(?:称|稱)?|简称|簡稱|縮寫|缩写)?|英|简称|簡稱|略称|略稱|通称|通稱|中文名?|"
    r"영어|영문(?:명)?|약칭|본명|本名|"
    r"بال(?:لغة\s+ال)?إنجليزية|"
    r"англ(?:\.|ийский|\b)|сокр(?:\.|ащённо)|"
    r"en\s+(?:anglais|allemand|italien|français|espagnol|néerlandais|portugais)|"
    r"(?:auf\s+)?englisch|in\s+english|em\s+inglês|en\s+inglés|"
    r"abbreviated(?:\s+as)?|short(?:\s+for|\s+name)?)\s*[:：]?\s*",
    re.I,
)
# Legal forms as a name is followed by them
_FORMS = (
    r"Co\.?|Company|Corp\.?|Corporation|Inc\.?|Incorporated|Ltd\.?|Limited|plc|PLC|AG|SA|S\.A\.B\.(?:\s+de\s+C\.V\.)?|"
    r"S\.A\.(?:\s+de\s+C\.V\.)?|SE|NV|N\.V\.|GmbH|AB|ASA|SpA|S\.p\.A\.|Bhd|Berhad|PCL|PJSC|Tbk|LLC|K\.K\.|Oyj|SAS"
)
# A legal form written between a name and its aside: "Contemporary Amperex Technology Co., Limited (CATL)"
_FORM = (
    rf"(?:,?\s+(?:{_FORMS})){{0,3}}"
    # "Sociedad Química y Minera de Chile (SQM)": one place after the name
    r"(?:\s+(?:de|of|do|da|du)\s+[A-Z][\w-]+)?"
    # in Chinese, Japanese or Korean: "東方海外貨櫃航運公司（OOCL）", "萬海航運股份有限公司（Wan Hai Lines）"
    r"(?:股份有限公司|有限公司|公司|株式会社|주식회사)?"
)
_GOES_BY = (
    r"(?:trading|doing\s+business|(?:(?:also|commonly|better|popularly|professionally)\s+)?known"
    r"(?:\s+(?:professionally|commonly|popularly|simply))?)\s+as\s+"
)
_ONLY_FORM = re.compile(rf"(?:{_FORMS})\.?")
_PARTS = re.compile(r"\s*[,;、，；]\s*")
_LATIN_NAME = re.compile(r"[A-Z][\w&.'\-]*(?:\s[A-Z][\w&.'\-]*){0,3}")
_CUE_WORD = re.compile(r"\s*(?:formerly|previously|now|also|a\.?k\.?a|born|née|nee)\b", re.I)

# "（旧 株式会社日立物流）", "前稱EasyVan", "原名...", "旧社名：...", "(구 LG화학)": a former name. A
# cue of two characters or more is read anywhere; 旧 and 舊 open a word as often ("旧正月") and
# 구 is a syllable of many names (구글): they are read after an opening bracket, 구 and the others
# elsewhere only before a space or a colon.
_CJK_FORMER = re.compile(
    r"(?:(?:旧社名|旧商号|旧称|舊稱|旧名|舊名|原名|前稱|前称|前身[为為是]|曾用名)\s*[:：]?"
    r"|(?<=[（(])[旧舊]\s*[:：]?|(?:^|(?<=[（(、，,；;\s]))(?:[旧舊]|구)(?:\s+|\s*[:：]))"
    r"\s*(?:は|、)?\s*(?:株式会社\s*)?([^\s，,、；;（）()」』。]{2,40})"
)
# A brand written in lower case after an explicit rename cue: one word, then a legal form or the
# end of the phrase ("formerly abrdn plc, ...", "change its name to abrdn, dropping ...").
_LOWER = (
    r"([a-z][A-Za-z0-9&]{1,20})(?=(?:\s+(?:plc|inc|ltd|limited|ag|sa|se|nv|llc|corp)\b\.?)?\s*(?:[,.;)]|$))"
)
_RENAME = (
    re.compile(r"\b[Ff]ormerly\s+(?:known\s+as\s+|called\s+|named\s+)?" + _LOWER),
    re.compile(r"\bchang(?:e|es|ed|ing)\s+its\s+(?:company\s+|corporate\s+|legal\s+)?name\s+(?:from|to)\s+" + _LOWER),
    re.compile(r"\b(?:rebranded|renamed)\s+(?:from|as|to)\s+" + _LOWER),
)  # fmt: skip
# A capital a name's word may open with, accented too (Össur, Škoda); cues.NAME reads people's by it
CAPITAL = "A-Z0-9À-ÖØ-ÞĀ-Ž"
# A company's name as prose writes it: up to seven capitalised words, which "and", "of", "&" or a
# Romance "de", "do", "da" may join ("Minnesota Mining and Manufacturing", "Banco do Brasil");
# records.py reads its English cues with it too.
_JOINERS = "and|of|&|de|do|da"


def _org_name(joiners: str) -> str:
    """The pattern of a company's name in prose whose words `joiners` may join."""
    return rf"([{CAPITAL}][\w&.'’\-]*(?:\s+(?:(?:{joiners})\s+)?[{CAPITAL}&][\w&.'’\-]*){{0,6}})"


ORG_NAME = _org_name(_JOINERS)
# A legal form set off by commas after a name ("Vista Oil & Gas, S.A.B. de C.V., now Vista Energy"):
# not a name of its own, and no end to the phrase.
FORM_BETWEEN_COMMAS = rf"(?:,\s+(?:{_FORMS})(?=,))?"
# "Kraft Foods, now Mondelez": whichever side is the record's name, the other is its other name.
NOW = re.compile(ORG_NAME + FORM_BETWEEN_COMMAS + r",?\s+\(?now\s+(?:known\s+as\s+|called\s+)?" + ORG_NAME)
# "Woodside Energy Group Ltd, formerly Woodside Petroleum Ltd, is ...": on a page under the former
# name (an encyclopedia's article kept under it), the name before is the record's current one.
FORMERLY = re.compile(
    ORG_NAME
    + FORM_BETWEEN_COMMAS
    + r",?\s+\(?(?:formerly|previously)\s+(?:known\s+as\s+|called\s+|named\s+)?"
    + ORG_NAME
)
# ORG_NAME with the words German, Dutch and French join a name's words by ("Bank für Kärnten und
# Steiermark"); not a Romance "y" or "et", which as often join two names in a list ("antes Fiat
# Auto Argentina y FCA Automobiles Argentina")
_JOINED_NAME = _org_name(_JOINERS + "|für|und|van|voor|des|du|la")
_OTHER_LANGUAGES = (
    # "a companhia resultante passa a se chamar Azzas 2154", "pasó a llamarse", "umbenannt in"
    re.compile(r"\b(?:passa|passou|passará|passam|passaram)\s+a\s+(?:se\s+)?chamar\s+" + ORG_NAME),
    re.compile(r"\b(?:pasa|pasó|pasará|pasan|pasaron)\s+a\s+(?:llamarse|denominarse)\s+" + ORG_NAME),
    re.compile(r"\bumbenannt\s+(?:in|zu)\s+" + ORG_NAME),
    re.compile(r"\brebaptisée?\s+" + ORG_NAME),
    # "change de dénomination sociale et devient TAQA Morocco", "diventa Stellantis"
    re.compile(r"\b(?:devient|deviendra|est\s+devenue?|diventa|è\s+diventata|ribattezzata)\s+" + ORG_NAME),
    # "Moeve, antes Cepsa, es ...", "(ex Plastic Omnium)": a former name in apposition, as French,
    # German, Dutch, the Nordic languages, Polish, Czech and Hungarian write "formerly" ("Orange,
    # anciennement France Télécom", "BKS Bank AG (früher Bank für Kärnten und Steiermark)", "Eviny,
    # tidligere BKK", "Rovese S.A. (dawniej Cersanit S.A.)"), its words joined as those languages
    # join them. Not Finnish "aiemmin": of a demerger's two companies, WithSecure (aiemmin F-Secure
    # Oyj) and the F-Secure that took the name, it merged the two.
    re.compile(
        r"(?:,|\()\s*(?:antes|antiguamente|antigamente|ex|anciennement|früher|ehemals|vormals|voorheen|vroeger|"
        r"tidligere|tidigare|dawniej|dříve|korábban)\s+(?:connue?s?\s+sous\s+le\s+nom\s+de\s+)?"
        + _JOINED_NAME
    ),
    # Turkish: "eski unvanı Mardin Çimento Sanayii ve Ticaret A.Ş.", "Eski adı Makina ve Kimya Endüstrisi"
    re.compile(r"\b[Ee]ski\s+(?:unvan[ıi]|ad[ıi](?:yla)?)\s+" + ORG_NAME),
    # "PayMaya is now Maya: ...": a name the sentence ends on or a time follows
    re.compile(r"\bis\s+now\s+" + ORG_NAME + r"(?=\s*[:,;.)]|\s+(?:in|after|following|since)\s)"),
    # "the company was known as Össur hf. until 2024": a name it had until a time
    re.compile(
        r"\b(?:was|were)\s+(?:formerly\s+|previously\s+)?(?:known\s+as|called|named)\s+"
        + ORG_NAME
        + r"(?=\s+until\b)"
    ),
    # "Faurecia ... renamed Forvia", "the company it keeps will be called Kellanova"
    re.compile(r"\b(?:renamed|rebranded)\s+" + ORG_NAME),
    re.compile(r"\b(?:will|would|to)\s+be\s+(?:called|named|renamed|rebranded\s+as)\s+" + ORG_NAME),
    # "Canadian Pacific Railway Limited became Canadian Pacific Kansas City Limited in 2023": a name
    # that became another at a time or on an event said after it ("became Europe's largest" is none)
    re.compile(r"\bbecame\s+" + ORG_NAME + r"(?=\s+(?:in|on|after|when|following)\s|\s*[,;.(]\s)"),
    # "El Banco del Estado de Chile, conocido como BancoEstado", "Itaú Corpbanca, hoy Banco Itaú Chile"
    re.compile(r"\b(?:(?:también|tambem|também|mais|más)\s+)?conhecid[ao]s?\s+como\s+" + ORG_NAME),
    re.compile(r"\b(?:(?:también|más)\s+)?conocid[ao]s?\s+como\s+" + ORG_NAME),
    re.compile(r"\b(?:connue?s?\s+sous\s+le\s+nom\s+de|(?:auch\s+)?bekannt\s+als)\s+" + ORG_NAME),
    re.compile(
        r"(?:,|\()\s*(?:hoy|hoje|heute|aujourd'hui|oggi)\s+(?:(?:llamad[ao]|chamad[ao]|appelée?)\s+)?"
        + ORG_NAME
    ),
    # "SunLife is a trading name of Phoenix Life Limited": one legal entity under two names
    re.compile(r"\b(?:a|the)\s+trading\s+name\s+of\s+(?:the\s+)?" + ORG_NAME),
)


def aside_names(aside: str) -> list[str]:
    """The names an aside after a name gives: every part after a label, else the first part if it
    reads as a name (no digit, no cue word: "(born 1952)", "(formerly X)" are read elsewhere)."""
    parts = [p for p in _PARTS.split(aside.strip()) if p]
    labelled = [rest for p in parts if (m := _LABEL.match(p)) and (rest := p[m.end() :].strip())]
    first = parts[0] if parts and not _LABEL.match(parts[0]) else ""
    # "（简称中国石油，PetroChina）": a name in Latin capitals after a labelled one in another script
    # is that short name's English form, the list of names going on
    # and so is one after the first part, a short name in that script ("（港機工程，HAECO）")
    labelled += [
        p
        for before, p in itertools.pairwise(parts)
        if (_LABEL.match(before) or before == first) and not before.isascii() and _LATIN_NAME.fullmatch(p)
    ]
    # "로제(ROSÉ, 본명: 박채영, 영어: Roseanne Park)": the first part and every labelled one; a
    # legal form the comma split off its name ("Yulon Motor Co., Ltd.") is none
    # a first part of 24 letters at most, or a longer one of capitalised words ("Ethiopian Electric
    # Utility" after a name in Ge'ez): not a clause
    shaped = len(first) <= 24 or bool(_LATIN_NAME.fullmatch(first))
    named = ([first] if _plain(first) and shaped else []) + [n for n in labelled if _plain(n)]
    return [n for n in named if _a_name(n)]


def _a_name(said: str) -> bool:
    """Not a legal form alone, nor a place alone, where a text writes where a company is after its
    name ("佐久間製菓(東京)", "Acme Ltd (Singapore)"): no other name of it."""
    if _ONLY_FORM.fullmatch(said):
        return False
    read = TERMS.get(said)
    if read and read[1]:
        return not all(is_place(r) for r in read[1])
    return not (words(said) and is_place(" ".join(words(said))))


def _plain(name: str) -> bool:
    return bool(name) and len(name) <= 60 and not _CUE_WORD.match(name) and not re.search(r"\d", name)


def _at(text: str, name: str) -> Iterator[int]:
    """Where `name` is written in `text`, each position just after it (one compiled pattern per
    shape, never one per name: the resolver reads thousands of names)."""
    at = text.find(name)
    if at < 0 and is_cjk(name) and " " not in name and 2 <= len(name) <= 12:
        # "荒木 飛呂彦（あらき ひろひこ）" on a page under 荒木飛呂彦: a space between family and given name
        yield from (m.end() for m in _spaced(name).finditer(text))
        return
    while name and at >= 0:
        yield at + len(name)
        at = text.find(name, at + 1)


@lru_cache(maxsize=4096)
def _spaced(name: str) -> re.Pattern[str]:
    """`name` (in characters) written with a space, or none, anywhere between its characters."""
    return re.compile("[ 　]?".join(map(re.escape, name)))


# What follows a name, matched where the name ends (`_at`): a legal form and an aside, a legal form.
_AFTER = re.compile(_FORM + r"\s*[(（]([^()（）]{1,80})[)）]")
_FORM_AFTER = re.compile(_FORM)
_GOES = re.compile(r"\s*(?:The\s+)?([A-Z][^;()]{1,80}?),?\s+" + _GOES_BY)
# A company's name in Latin letters: capitalised words and the small words between them.
_NAME_SHAPED = re.compile(
    r"[A-Z][\w&.'’\-]*(?:\s+(?:[A-Z][\w&.'’\-]*|of|and|&|de|du|des|la|le|der|y|e|do|da|di)){0,7}"
)
_LEAD = re.compile(r"\s*([^()（）,，。.;；:：]{2,60}?)\s*[(（]\s*([^()（）]{1,60}?)\s*[)）]")


def asides(text: str, name: str) -> Iterator[tuple[str, int]]:
    """(another name, where it was read) for `name` followed by an aside ("Name (X)"), and for a
    text that begins with another name and gives `name` in its aside ("中国人民保险集团股份有限公司
    （中国人保）" on a page under 中国人保)."""
    for end in _at(text, name):
        m = _AFTER.match(text, end)
        if m:
            for other in aside_names(m.group(1)):
                yield other, end - len(name)
    # "Hon Hai Precision Industry Co., Ltd., trading as Foxconn" on a page under Foxconn
    goes = _GOES.match(text)
    after = text[goes.end() : goes.end() + len(name) + 1] if goes else ""
    if goes and after.startswith(name) and not after[len(name) :].isalnum() and _plain(goes.group(1)):
        yield goes.group(1), 0
    yield from _lead_known_as(text, name)
    yield from _lead_names(text, name)


def _lead_names(text: str, name: str) -> Iterator[tuple[str, int]]:
    """A text that opens with another name and gives `name` in its aside, or that writes `name`
    longer: the lead and the aside's other names are the page's (`asides`)."""
    lead = _LEAD.match(text)
    full = lead.group(1) if lead else ""
    named = aside_names(lead.group(2)) if lead else []
    # "Les Chemins de fer fédéraux suisses (CFF ; en allemand SBB)" on a page under CFF, and
    # "中國鋼鐵股份有限公司（簡稱中鋼，英語：China Steel Corporation）" under 中鋼: the full name, and
    # the aside's other names; or a lead of capitalised words giving the page's name, in its own
    # language, aside ("Mobile World Investment Corporation (Thế Giới Di Động, MWG)")
    if name in named and ((_plain(full) and _shortens(name, full)) or _NAME_SHAPED.fullmatch(full)):
        yield full, 0
        yield from ((other, 0) for other in named if other != name)
    elif named and _extends(name, full):
        # "台達電子工業股份有限公司（英語：Delta Electronics, Inc.）" on a page under 台達電子: the
        # lead is the page's name with a trade and a legal form, its aside names the same company
        yield full, 0
        yield from ((other, 0) for other in named)


# A name a page goes by, after its cue in the languages pages are most often written in: "known
# as", "nicknamed", "noto come", "conocido como", "connu sous le nom de", "bekannt als".
_KNOWN_AS = (
    r"(?:(?:also|commonly|popularly|widely|better|professionally)\s+)?(?:known|nicknamed|dubbed)(?:\s+as)?|"
    r"not[oa]\s+come|conosciut[oa]\s+come|conocid[oa]\s+como|conhecid[oa]\s+como|"
    r"connue?\s+sous\s+le\s+nom\s+de|bekannt\s+als|alias|a\.k\.a\."
)
_KNOWN_AS_CUE = re.compile(rf"\b(?:{_KNOWN_AS})\s+", re.I)
# A text opening with a person's or company's name of two to four capitalised words, then a comma.
_OPENING_NAME = re.compile(r"\s*([A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){1,3}),")
# A handle written in lower case ("alias geohot", "known as antirez"): one word, no article.
HANDLE = r"(?!(?:the|a|an|one|his|her|its|their|being)\b)([a-z][a-z0-9_]{2,20})(?=[\s,.;)]|$)"


def _lead_known_as(text: str, name: str) -> Iterator[tuple[str, int]]:
    """The name a text opens with, on a page under the name the text says it is known by ("Tony
    Azevedo, the Long Beach native known as Mr. Water Polo" under Mr. Water Polo; "Michele Rech,
    il fumettista ... noto come Zerocalcare" under Zerocalcare): the one the page is about."""
    opening = _OPENING_NAME.match(text)
    if not opening or not name or name == opening.group(1):
        return
    # the cue once compiled, the page's name compared where each cue ends (no pattern per name)
    folded = name.casefold()
    for cue in _KNOWN_AS_CUE.finditer(text, opening.end()):
        after = text[cue.end() : cue.end() + len(name) + 1]
        if after[: len(name)].casefold() == folded and not re.match(r"[\w'’-]", after[len(name) :]):
            yield opening.group(1), 0
            return


# The city or province a Chinese company's registered name opens with ("深圳市大疆创新科技有限公司")
_CJK_PLACE = re.compile(r"^[\u4e00-\u9fff]{2,3}[省市]")


def _extends(name: str, full: str) -> bool:
    """`full`, a lead written in Chinese or Japanese characters, is `name` (so written, two
    characters or more) with more characters after it, none a Latin letter or a space: a longer
    form of the name, not a clause about it. The city its registered name opens with aside
    ("深圳市大疆创新科技有限公司" under 大疆创新), or the name's first two characters and the rest
    of its characters in order ("科兴控股生物技术有限公司" under 科兴生物)."""
    if len(name) < 2 or not is_cjk(name) or re.search(r"[A-Za-z\s]", full):
        return False
    for lead in (full, _CJK_PLACE.sub("", full)):
        if _CLAUSE.search(lead[len(name) :]):
            # "云南中烟工业有限责任公司是国家烟草专卖局（中国烟草总公司）": a clause, its aside another's
            continue
        if lead.startswith(name) and len(lead) > len(name):
            return True
        if len(name) >= 3 and lead[:2] == name[:2] and len(lead) > len(name) and _in_order(name, lead):
            return True
    return False


# The copula of a Chinese or Japanese sentence ("是", "为", "は"): a lead holding one after the name
# says what the name is, and its aside names that, not the page's company
_CLAUSE = re.compile(r"[是为為はが]")


def _in_order(short: str, full: str) -> bool:
    """`short`'s characters come in `full` in order."""
    rest = iter(full)
    return all(ch in rest for ch in short)


# An article a full name may open with ("Les Chemins de fer fédéraux suisses" shortens to CFF).
_ARTICLE = re.compile(r"^(?:the|les?|la|l'|el|los|las|die|der|das|il|lo|gli|os|as|o|a)\s+", re.I)


def _shortens(short: str, full: str) -> bool:
    """`short` is a short form of `full`: it begins with the same letter and its letters come in
    `full` in order ("东风集团" of "东风汽车集团有限公司", "KLM" of "Koninklijke Luchtvaart
    Maatschappij"), so a text's lead that is a clause ("它的母公司东风…") is no name of it."""
    s, f = short.replace(" ", "").casefold(), _ARTICLE.sub("", full.strip()).casefold()
    if not s or not f or s[0] != f[0] or _CUE_WORD.match(full):
        return False
    return _in_order(s, f)


# A part of the company the rename is said of, the clause's subject ("...; its electronic
# measurement business became Keysight in 2014"): another company's name, not the record's. Not a
# part named inside the clause ("the company it keeps after spinning off its cereal business will
# be called Kellanova": the company is the subject).
_A_PART = re.compile(
    r"(?:^|[,;.:]\s+|\b(?:and|while|whereas|but)\s+)(?:its|the|their)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:business|businesses|division|unit|arm|segment|operations|subsidiary)\s+"
    r"(?:(?:was|were|is|has\s+been|had\s+been|will\s+be)\s+)?$"
)


def former_names(text: str, *, company: bool) -> Iterator[tuple[str, int]]:
    """(a former or other name, where it was read): the cues of other languages and scripts and a
    lower-case brand after an English rename cue (module docstring); the last two for companies."""
    for m in _CJK_FORMER.finditer(text):
        yield m.group(1), m.start()
    if not company:
        return
    for cue in (*_RENAME, *_OTHER_LANGUAGES):
        for m in cue.finditer(text):
            if not _A_PART.search(text, 0, m.start()):
                yield m.group(1).strip().rstrip("."), m.start()


def written_forms(texts: list[str], name: str) -> frozenset[str]:
    """The legal forms `texts` write after `name` ("NortonLifeLock Inc. is ..." on a page under
    NortonLifeLock): what names the legal entity where the page's own name is its brand."""
    found: set[str] = set()
    for text in texts if name else ():
        for end in _at(text, name):
            m = _FORM_AFTER.match(text, end)
            if m and m.end() > end:
                written = name + m.group(0)
                # a form in characters is read as one (有限公司, cjk:limited): legal_forms would take
                # the whole name, which cleaning reads as one word, for its form
                found |= (
                    cjk_forms(written)
                    if is_cjk(name)
                    else legal_forms(" ".join(words(written)), clean_name(written))
                )
    return frozenset(found)
