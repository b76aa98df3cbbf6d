"""The phrases a page states another fact about its subject with, read by records.py.

Each pattern captures a name (or a domain) the text gives: another name of the subject ("formerly
X", "also known as X", "alias geohot", and for companies the rename phrases of English, Spanish,
Portuguese, French, German and Italian), an owner ("a subsidiary of X", "part of X", "owned by X"),
a company it owns or spun off ("the parent of X", "demerged as X"), or another site of its own
("also at other.com"). A company's name in prose may hold "and", "of", "&" (`ORG_NAME`); a
person's is capitalised words (`NAME`). Patterns, and `cjk_children`, which splits the companies a
Korean, Chinese or Japanese text lists as subsidiaries: records.py keeps the words that said each.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities import asides

NAME = rf"([{asides.CAPITAL}][\w&.'’\-]*(?:\s+(?:&\s+)?[{asides.CAPITAL}&][\w&.'’\-]*){{0,5}})"
ALIAS_CUES = (
    re.compile(r"\b[Ff]ormerly(?:\s+(?:known\s+as|called|named))?\s+" + NAME),
    re.compile(r"\b[Pp]reviously\s+(?:known\s+as|called|named)\s+" + NAME),
    # "also known as", "commonly known as", "known simply as", and a bare "known as"
    re.compile(
        r"\b(?:(?:[Aa]lso|otherwise|commonly|popularly|widely|better|simply)\s+)?known\s+(?:simply\s+)?as\s+"
        + f"(?:the\\s+)?(?:{NAME}|{asides.HANDLE})"
    ),
    re.compile(
        r"\b(?:a\.?k\.?a\.?|alias|pseudonimo\s+di|seud[oó]nimo\s+de|pseudonyme\s+de)\s+(?:"
        + NAME
        + "|"
        + asides.HANDLE
        + ")"
    ),
    re.compile(r"\b(?:trading|doing\s+business)\s+as\s+" + NAME),
    re.compile(r"\b(?:rebranded|renamed)\s+(?:from|as|to)\s+" + NAME),
    re.compile(r"\bnow\s+(?:known\s+as|called|named)\s+" + NAME),
)
# A company taking another name: the name it had, the page's, may pass to another company with a
# business it sold ("PerkinElmer will change its name to Revvity after selling its analytical
# businesses ... under the PerkinElmer name").
RENAMING = re.compile(
    r"\b(?:chang(?:e|es|ed|ing)\s+its\s+(?:company\s+|corporate\s+|legal\s+)?name\s+to|name\s+change\s+to|"
    r"renam(?:e|es|ed|ing)\s+itself|(?:will|would|to)\s+be\s+(?:called|named|renamed))\b"
)
# A company that took a new name when it spun a part off: the former names its page states may
# have passed to that part ("BWX Technologies (formerly The Babcock & Wilcox Company) ... spun off
# its power generation business and took the BWXT name").
NAME_TAKEN = re.compile(
    r"\b(?:took|adopted)\s+the\s+(?:\S+\s+){1,3}name\b"
    # or one that sold or spun off a business then: the old name may have gone with it (Scientific
    # Games, whose lottery business kept the name when the company became Light & Wonder)
    r"|\b(?:sold|divested|spun\s+off|spun\s+out|carved\s+out)\s+its\s+(?:[\w&-]+\s+){0,4}?"
    r"(?:business|businesses|unit|division|arm|operations)\b"
)
# A company's name in prose may join capitalised words with "and", "of", "&" ("Minnesota Mining and
# Manufacturing Company", "Bank of America"): read so for companies (a person's cues keep NAME).
ORG_NAME = asides.ORG_NAME
ORG_ALIAS_CUES = (
    *(re.compile(c.pattern.replace(NAME, ORG_NAME)) for c in ALIAS_CUES),
    # "changed its company name to Freshworks", "Anthem Inc. completed its name change to Elevance Health"
    re.compile(
        r"\bchang(?:e|es|ed|ing)\s+its\s+(?:company\s+|corporate\s+|legal\s+)?name\s+(?:from|to)\s+"
        + ORG_NAME
    ),
    re.compile(r"\bname\s+change\s+(?:from|to)\s+" + ORG_NAME),
    # "Kellogg to rename itself Kellanova", "adopted the name Stellantis", "its new name, Viatris"
    re.compile(r"\brenam(?:e|es|ed|ing)\s+itself\s+(?:as\s+|to\s+)?" + ORG_NAME),
    re.compile(r"\b(?:adopt(?:s|ed|ing)?|tak(?:es|ing)|took)\s+the\s+name\s+" + ORG_NAME),
    re.compile(r"\bits\s+new\s+name,?\s+" + ORG_NAME),
    # the same in the languages company pages are most often written in (Spanish, Portuguese,
    # French, German, Italian): "anteriormente Hypermarcas",
    # "anciennement Lafarge", "ehemals Hoechst", "antes conocida como", "muda de nome para Grupo
    # Casas Bahia", "cambia su nombre a", "change de nom pour"
    re.compile(
        r"\b(?:anteriormente|antigamente|anciennement|ehemals|vormals|precedentemente)"
        r"(?:\s+(?:conocid[ao]|chamad[ao]|denominad[ao]|llamad[ao]|connue?|bekannt|not[ao])\s+(?:como|sous\s+le\s+nom\s+de|als|come))?\s+"
        + ORG_NAME
    ),
    re.compile(r"\bantes\s+(?:conocid[ao]|chamad[ao]|denominad[ao]|llamad[ao])\s+como\s+" + ORG_NAME),
    re.compile(r"\bantig[ao]\s+" + ORG_NAME),  # "A Via S.A., antiga Via Varejo, ..."
    # "a mudança de sua razão social para Grupo Casas Bahia", "el cambio de denominación social a"
    re.compile(
        r"\b(?:mudança|cambio)\s+de\s+(?:sua\s+|su\s+)?(?:razão\s+social|razón\s+social|nome|nombre|"
        r"denominação(?:\s+social)?|denominación(?:\s+social)?)\s+(?:para|a|por)\s+" + ORG_NAME
    ),
    re.compile(
        r"\b(?:mud(?:a|ou|am|aram)|cambi(?:a|ó|an|aron)|chang(?:e|ent|é|era))\s+(?:de|o|su|son)\s+"
        r"(?:nome|nombre|nom)\s+(?:para|a|por|pour|en)\s+" + ORG_NAME
    ),
)
# "Porsche SE is a holding company", "Inter&Co, Inc. is the holding company of Banco Inter"
HOLDING = re.compile(r"\b(?:is|as)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,3}?holding\s+company\b")
# A company's name in Cyrillic as prose writes it: up to five words, each opening with a capital
_CYRILLIC_NAME = r"([А-ЯЁІЇЄA-Z][\w&.\-]*(?:\s+[А-ЯЁІЇЄA-Z][\w&.\-]*){0,4})"
OWNER_CUES = (
    re.compile(r"\b(?:a|the)\s+(?:wholly[\s-]owned\s+)?(?:subsidiary|unit|division|affiliate)\s+of\s+(?:the\s+)?" + ORG_NAME),
    # "the steelmaking subsidiary established in March 2022 under POSCO Holdings"
    re.compile(r"\b(?:a|the)\s+(?:[\w-]+\s+)?subsidiary\s+(?:[\w-]+\s+){0,5}?(?:of|under)\s+(?:the\s+)?" + ORG_NAME),
    re.compile(r"(?:\b(?:is|are|as)|,)\s+(?:a\s+)?part\s+of\s+(?:the\s+)?" + ORG_NAME),
    re.compile(r"\b(?:is\s+)?a\s+(?:core\s+|founding\s+|leading\s+)?member\s+of\s+(?:the\s+)?" + ORG_NAME),
    re.compile(r"\b(?:owned|operated|controlled)\s+by\s+(?:the\s+)?" + ORG_NAME),
    # the same in Spanish, Portuguese, French, German and Italian: "Ferreyros, empresa de
    # Ferreycorp", "detenue par Bouygues", "eine Tochtergesellschaft der Siemens AG" (not French
    # "filiale": measured on worlds nobody here read, it cost more joins than it saved)
    re.compile(
        r"\b(?:filial|subsidiaria|subsidiária|empresa|Tochtergesellschaft|Tochterunternehmen|"
        r"controllata)\s+(?:de|do|da|del|du|des|von|der|di|della|dello)\s+(?:(?:la|el|o|a|le|groupe|grupo)\s+)?"
        + ORG_NAME
    ),
    re.compile(
        r"\b(?:controlad[ao]|detenue?|détenue?|propiedad|perteneciente|pertencente|appartenant)\s+"
        r"(?:por|pel[ao]|par|de|a|al|ao|à)\s+(?:(?:la|el|o|a|le|groupe|grupo)\s+)?" + ORG_NAME
    ),
    # in Russian and Ukrainian: "дочернее общество АЛРОСА", "дочірнє підприємство «Укрзалізниці»"
    re.compile(
        r"\b(?:дочерн(?:ее|яя|ей|его)|дочірн(?:є|я|ьої|ього))\s+"
        r"(?:общество|компания|предприятие|структура|банк|підприємство|компанія|товариство)\s+"
        r"(?:(?:компании|группы|банка|компанії|групи)\s+)?«?" + _CYRILLIC_NAME
    ),
)  # fmt: skip
# "the parent of Royal Mail and GLS", "owner of Nivea": the companies a record owns, each another
# entity (a parent and its subsidiary are two), read as against joining them whatever else it says.
CHILD_CUES = (
    re.compile(r"\b(?:the\s+)?(?:parent|holding)(?:\s+company)?\s+of\s+(?:the\s+)?" + ORG_NAME),
    re.compile(r"\b(?:the\s+)?owner\s+of\s+(?:the\s+)?" + ORG_NAME),
    # "operating in Kazakhstan through its subsidiary Zhaikmunai LLP"
    re.compile(r"\bits\s+(?:wholly[\s-]owned\s+)?(?:[\w-]+\s+)?subsidiary,?\s+" + ORG_NAME),
    # "its consumer business was demerged as F-Secure": a business it spun off under a name is
    # another company now, whichever name the record had before
    re.compile(r"\b(?:demerged|spun\s+(?:off|out)|carved\s+out|split\s+off)\s+(?:as|into)\s+" + ORG_NAME),
)
# The same in Korean, Chinese and Japanese, the companies listed before or after the word for a
# subsidiary: "크라운제과와 해태제과식품을 자회사로 둔 지주회사", "旗下子公司包括國泰人壽、國泰世華銀行",
# "富邦人壽、台北富邦銀行等子公司", "セブン‐イレブン・ジャパンなどを傘下に持つ"
CJK_CHILD_CUES = (
    re.compile(
        r"([가-힣A-Za-z0-9&·\s]{2,80}?)(?:을|를)\s*(?:자회사|계열사|종속회사)로\s*(?:두|둔|보유|거느)"
    ),
    re.compile(r"(?:旗下|子公司)(?:子公司)?(?:包括|包含|擁有|拥有|有)([^。；;：:，,]{2,80})"),
    re.compile(r"(?:擁有|拥有|持有)([^。；;：:，,]{2,80}?)等?子公司"),
    re.compile(
        r"([^。、「」（）()]{2,60}?)(?:など|等)?を(?:子会社|傘下)(?:に|として)(?:持つ|もつ|擁する|置く|収める)"
    ),
)
# What separates the companies such a cue lists: Chinese and Japanese enumeration marks, "及", "や",
# a comma; in Korean "및" and a space too (a Korean list's "와" and "과" end its words, and its
# names are written without spaces: `cjk_children`), never in the others ("Meiji Seika ファルマ")
_CJK_LIST = re.compile(r"[、，,;；]|及|や")
_KOREAN_LIST = re.compile(r"[、，,;；]|\s+및\s+|\s+")
# A Korean word's particle: "와" after a vowel, "과" after a consonant (크라운제과 ends in one
# such syllable and keeps it: 과 is a particle only after a syllable with a final consonant)
_HANGUL_PARTICLE = re.compile(r"(?:와|을|를|은|는|이|가|등)$")


def cjk_children(text: str) -> list[tuple[str, int]]:
    """The companies a Korean, Chinese or Japanese text says its subject holds as subsidiaries
    (`CJK_CHILD_CUES`), each with where the cue stands: another entity each, as CHILD_CUES reads."""
    out: list[tuple[str, int]] = []
    for cue in CJK_CHILD_CUES:
        listed = _KOREAN_LIST if cue is CJK_CHILD_CUES[0] else _CJK_LIST
        for m in cue.finditer(text):
            for part in listed.split(m.group(1)):
                part = _HANGUL_PARTICLE.sub("", part.strip().partition("等")[0])
                if part.endswith("과") and len(part) >= 2 and (ord(part[-2]) - 0xAC00) % 28:
                    part = part[:-1]
                if len(part) >= 2:
                    out.append((part, m.start()))
    return out


DOMAIN_CUE = re.compile(
    r"\b(?:also\s+(?:at|on|available\s+at|reachable\s+at|found\s+at)|formerly\s+(?:at|on)?|"
    r"previously\s+at|redirects\s+(?:from|to)|moved\s+(?:from|to))\s+"
    r"((?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[^\s,;)]*)?)",
    re.IGNORECASE,
)
