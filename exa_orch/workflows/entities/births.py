"""When a person was born, as their page's own prose states it (or its name, with a life span: an
encyclopedia's heading "Giovanni Agnelli (1866-1945)"): the year.

Two pages of one name are often two people ("Harrison Ford (March 16, 1884 – December 2, 1957)"
and "Harrison Ford, born July 13, 1942"): two birth years stated are against a join, one year
stated alike on both is for it (person_evidence). Read from "born ... 1942", a life span of
twenty years or more (or open) in the first parentheses after the name "(1884 – 1957)", a year
alone there ("(1955)", "(b. 1955)"), the French, Spanish, Portuguese and German words for born
("né le", "nacido", "nascido", "geboren"), Indonesian, Scandinavian, Turkish, Polish, Czech,
Hungarian, Romanian and Russian ones ("lahir", "født", "född", "doğumlu" and Turkish Wikipedia's
"(d. 1958", "ur.", "nar.", "született", "născut", "род."), and a date in Chinese, Japanese or Korean
followed by a dash or the word for born ("1942年7月13日 -", "1942년 7월 13일 ~", "出生"), or a
year alone followed by that word ("1972年生于北京", "1972年生まれ", "1972년생", "1957年生，").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_YEAR = r"(1[89]\d\d|20[0-2]\d)"
_BORN = re.compile(
    r"(?:\b(?:[Bb]orn|née?|[Nn]acid[oa]|[Nn]ascid[oa]|[Gg]eboren|[Ll]ahir|[Ff]ødt|[Ff]ödd|[Dd]oğumlu|"
    r"[Uu]rodzon[ya]|[Nn]arozen[aá]?|[Ss]zületett|[Nn]ăscut[ăa]?)\b|(?<!\w)(?:ur\.|nar\.|род\.|родил(?:ся|ась)))"
    rf"[^.;(),]{{0,40}}?(?:,\s*)?\b{_YEAR}\b"
)
# Turkish Wikipedia's "(d. 1958, Malatya)": d. for doğum, born (in English prose, "d." is died), read
# only in a text with Turkish letters
_TURKISH_BORN = re.compile(rf"\(d\.\s*[^()]{{0,30}}?\b{_YEAR}\b")
_TURKISH = re.compile("[ğşıİ]")
# a life span in the first parentheses after the name, twenty years or more ("(2010–2015)" is a term
# of office), or open ("(1959 – )"), in Chinese and Japanese too ("（1951年－）", "（1950年－2018年10月
# 20日）": 年 is a word's letter, so no \b parts it from the year); the span's end is read after
_SPAN = re.compile(
    rf"^[^()（）]{{0,80}}[(（][^()（）]{{0,30}}?(?<!\d){_YEAR}(?!\d)[^()（）\d]{{0,12}}[–—\-－~〜]([^()（）]{{0,30}})[)）]"
)
_ALONE = re.compile(rf"(?<!\d){_YEAR}(?!\d)")
# the birth date alone in the parentheses after the name, as Spanish and Portuguese Wikipedia write
# a living person's, after the place too ("Gonzalo Pieres (1955) es un ...", "Gonzalo Pieres (h)
# (1982), conocido como", "(Madrid, 14 de mayo de 1944)"), or after "b." ("(b. 1955)")
_YEAR_ONLY = re.compile(
    r"^\s*(?:[A-ZÀ-ÖØ-Þ][^\s()]*\s+|(?:de|del|da|dos|van|von|la|y|di|bin|al)\s+){1,6}"  # the name alone
    rf"(?:\([^()\d]{{1,12}}\)\s*)?\(\s*(?:b\.\s*|[^()\d,]{{2,30}},\s*)?"
    rf"(?:\d{{1,2}}º?\s+de\s+\w+\s+de\s+)?{_YEAR}\s*\)"
    r"\s*(?:,|(?:es|is|was|fue|foi|é|est|ist|war|era)\b)"  # and the sentence goes on: "es un", ", conocido"
)
_CJK = re.compile(
    rf"{_YEAR}\s*[年년]\s*(?:\d{{1,2}}\s*[月월]\s*\d{{1,2}}\s*[日일]\s*(?:[-－–—~〜]|出生|生|생)"
    # the year alone, then the word for born: "1972年生于北京", "1972年生まれ", "1972년생", and 生 closing a
    # clause ("1957年生，代表作": born in 1957)
    r"|(?:出生|生[于於まれ]|생|生(?=[，,。；;、\s]|$)))"
)


def born(texts: Iterable[str]) -> str:
    """The year a person's texts say they were born ("1942"), or "" when none says it."""
    for text in texts:
        turkish: tuple[re.Pattern[str], ...] = (_TURKISH_BORN,) if _TURKISH.search(text) else ()
        for pattern in (_BORN, _SPAN, _CJK, _YEAR_ONLY, *turkish):
            m = pattern.search(text)
            end = _ALONE.search(m.group(2)) if m and pattern is _SPAN else None
            if m and (end is None or int(end.group(1)) - int(m.group(1)) >= 20):
                return m.group(1)
    return ""
