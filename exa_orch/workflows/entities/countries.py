"""Where an organisation is: a location or a sentence read to one country, or to nothing.

`country_of("Stuttgart, Baden-Württemberg")` reads the parts from the last to the first and takes
the first one that names a country: a country's name or other spelling, its capital, or one of its
provinces or states (countryinfo's maintained data, offline). `stated_country(text)` reads a
demonym in what a text says the entity is ("Vale is a Brazilian mining company", "a Dutch
technology company") or a place it is "X-based" / "X-headquartered" in. A place no data names
("Stuttgart" alone, a district) is unknown: two records disagree on country only when both are
`known` and different; unknown is no evidence either way (evidence._differences).
A name several countries hold as a place (Georgia, Punjab) is unknown; a demonym several share
("Chinese": China, Hong Kong; "Congolese") reads as the most populous holder's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from exa_orch.workflows.entities.names import words

# Spellings a location or a sentence uses that the data does not carry as a country's (its
# altSpellings hold codes and official names, its demonyms one adjective per country).
_MORE = {"england": "GB", "scotland": "GB", "wales": "GB", "britain": "GB", "u s": "US", "korea": "KR",
         "korean": "KR", "saudi": "SA", "emirati": "AE", "czechia": "CZ", "hong kong": "HK",
         "northern ireland": "GB"}  # fmt: skip
_SUFFIXES = ("province", "prefecture", "state", "region", "oblast", "emirate", "county", "governorate")
_GERMAN = re.compile(r"(?<=[a-z])[aou]e")  # the data's "Baden-Wuerttemberg", folded "baden wurttemberg"
_ASIDE = re.compile(r"\s*\([^)]*\)")  # "Xizang (Tibet)", "Ash Sharqiyah (Eastern Province)"


def _key(text: str) -> str:
    return " ".join(words(text))


def _strs(value: object) -> list[str]:
    """The strings of a field the data writes as one string or a list of them."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _spellings(info: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    """A country's own names (name, native name, other spellings) and the places it holds (its
    capital, its provinces, a German umlaut written out or not), folded."""
    own = {
        _key(s) for s in [str(info["name"]), *_strs(info.get("nativeName")), *_strs(info.get("altSpellings"))]
    }
    held = {_key(_ASIDE.sub("", p)) for p in [*_strs(info.get("capital")), *_strs(info.get("provinces"))]}
    return own, held | {_GERMAN.sub(lambda m: m.group(0)[0], k) for k in held}


@lru_cache(maxsize=1)
def _data() -> tuple[dict[str, str], dict[str, str], dict[str, str], frozenset[str]]:
    """(place -> ISO alpha-2, demonym -> ISO alpha-2, ISO alpha-2 -> the country's name folded,
    every place of any country, one country's or several's: `is_place`)."""
    import countryinfo  # on first use: a cold start needs none of it

    places: dict[str, set[str]] = {}
    demonyms: dict[str, tuple[int, str]] = {}
    names: dict[str, str] = {}
    every: set[str] = set()
    for country in countryinfo.all_countries():
        info = country.info()
        own, held = _spellings(info)
        every |= own | held
        iso = str((info.get("ISO") or {}).get("alpha2") or "")
        if not iso or not info.get("name"):
            continue
        if iso not in names or info["name"] == info.get("nativeName"):  # United Kingdom, not Wales
            names[iso] = _key(info["name"])
        for key in own | held:
            places.setdefault(key, set()).add(iso)  # "Georgia": a country and a US state: unknown
        demonym, people = _key(info.get("demonym") or ""), int(info.get("population") or 0)
        if demonym and demonyms.get(demonym, (-1, ""))[0] < people:
            demonyms[demonym] = (people, iso)
    place = {k: next(iter(v)) for k, v in places.items() if k and len(v) == 1}
    demonym_of = {k: iso for k, (_, iso) in demonyms.items()}
    for k, iso in _MORE.items():
        place.setdefault(k, iso)
        demonym_of.setdefault(k, iso)
    return place, demonym_of, names, frozenset(k for k in every if k)


@lru_cache(maxsize=1)
def _own_names() -> dict[str, str]:
    """A country's own name or spelling -> its ISO alpha-2, where one country alone has it."""
    import countryinfo  # on first use, as `_data`

    owned: dict[str, set[str]] = {}
    for country in countryinfo.all_countries():
        info = country.info()
        iso = str((info.get("ISO") or {}).get("alpha2") or "")
        if iso and info.get("name"):
            for key in _spellings(info)[0]:
                owned.setdefault(key, set()).add(iso)
    return {k: next(iter(v)) for k, v in owned.items() if k and len(v) == 1}


def _place(part: str) -> str:
    """The ISO code a single place names ("Fujian Province" -> CN), or ""."""
    place = _data()[0]
    key = _key(part)
    if key in place:
        return place[key]
    head, _, last = key.rpartition(" ")
    return place.get(head, "") if last in _SUFFIXES else ""


# Provinces the data holds that are words of any name ("Central" is a region of Ghana, "Delta" a
# state of Nigeria): no place alone.
_REGION_WORDS = frozenset(
    "central centre center eastern western northern southern north south east west coast delta "
    "island islands gulf bay forest highland lakes capital interior upper lower grand".split()
)


def is_place(text: str) -> bool:
    """Whether `text` names a country, or a capital, state or province the data holds ("Maryland",
    "Baden-Württemberg"), whichever country holds it; four letters at least (a country's ISO code is
    no place in a name: "and", "com")."""
    key = _key(text)
    return len(key) >= 4 and key not in _REGION_WORDS and (bool(_place(text)) or key in _data()[3])


@lru_cache(maxsize=1)
def country_codes() -> frozenset[str]:
    """Every country's ISO 3166 alpha-2 code, lowercase ("de", "br"), and "uk" (the United Kingdom's
    own suffix and the code sites write for it)."""
    return frozenset(iso.lower() for iso in _data()[2]) | {"uk"}


def known(country: str) -> bool:
    """Whether `country` (a Record's) is a country the data names, not an unresolved place."""
    return country in _data()[2].values()


def country_named(word: str) -> str:
    """The country `word` is the name of, in English or its own language ("polska", "deutschland",
    "suomi"), folded; "" for anything else (a city, a province, a word)."""
    iso = _own_names().get(_key(word), "")
    return _data()[2].get(iso, "") if iso else ""


def country_of(location: str) -> str:
    """The country a location names, folded ("Sydney, NSW, Australia" -> "australia"; "Stuttgart,
        Baden-Württemberg" -> "germany"); a location no part of which names one keeps its last part
        folded ("stuttgart"), which `known` says is not a country ("" where that part is a country's
    name and another's state: "Atlanta, Georgia"). A clause the sentence goes on with is
        not a place ("Gothenburg, Sweden, owned by Geely" -> "sweden"); of two places, where the
    whole names no country, the first ("Monaco and Piraeus", "Hong Kong / mainland China",
    "Luxembourg; operations in Kazakhstan", "Hong Kong (incorporated in Bermuda)"), as a company's
    seat is written first."""
    found = _country_of(location)
    first = _PLACES_APART.split(location, maxsplit=1)[0]
    if known(found) or first == location or not first.strip():
        return found
    seat = _country_of(first)
    return seat if known(seat) else found


# What parts two places in a location (a country's name of two, "Trinidad and Tobago", is read whole
# first), or a place and an aside in brackets ("Hong Kong (incorporated in Bermuda)")
_PLACES_APART = re.compile(r"\s*;\s*|\s+/\s+|\s+and\s+|\s+&\s+|\s*[(（]")


def _country_of(location: str) -> str:
    """`country_of` a location of one place."""
    parts = [p for p in location.split(",") if p.strip()]
    if len(parts) == 1 and _key(parts[0]) in _own_names():
        # a location that is a country's name alone ("Luxembourg", "Georgia"): that country, though
        # another country has a province of the name (Belgium's Luxembourg, the US state)
        return _data()[2][_own_names()[_key(parts[0])]]
    capital = any(p.strip()[:1].isupper() for p in parts)  # a location written all in lowercase is kept
    while capital and len(parts) > 1 and not parts[-1].strip()[:1].isupper():
        parts.pop()  # ", owned by ...", ", part of ...": places are written with a capital
    last = _key(parts[-1]) if parts else ""
    if last in _own_names() and any(_key(p).startswith(last) for p in parts[:-1]):
        # a capital named after its country, then the country ("Luxembourg City, Luxembourg")
        return _data()[2][_own_names()[last]]
    for part in reversed(parts):
        iso = _place(part)
        if iso:
            return _data()[2][iso]
    return "" if known(last) else last  # "Atlanta, Georgia": a US state and a country, so unknown


# The script a country alone writes in, where its name is another country's place too (Georgia's
# Mkhedruli and Mtavruli: Georgia is also a US state)
_OWN_SCRIPT = {"GE": re.compile(r"[\u10a0-\u10ff\u1c90-\u1cbf]")}


def named_last(location: str) -> str:
    """The country whose own name a location's last part is ("Kvareli, Georgia" -> "georgia",
    though `country_of` reads no country there: Georgia is a US state too); "" otherwise."""
    iso = _last_iso(location)
    return _data()[2][iso] if iso else ""


def _last_iso(location: str) -> str:
    """The ISO alpha-2 code of the country whose own name a location's last part is, or ""."""
    parts = [p for p in location.split(",") if p.strip()]
    return _own_names().get(_key(parts[-1]), "") if parts else ""


def shared_name_country(location: str, suffix: str, texts: list[str]) -> str:
    """The country a location's last part names where another country holds that name as a place
    too ("Kvareli, Georgia": the country or the US state, so `country_of` says neither), when the
    record's site is under that country's suffix (cbw.ge, shilda.ge) or its text is written
    in the country's own script (`_OWN_SCRIPT`): that country's name; "" otherwise."""
    iso = _last_iso(location)
    script = _OWN_SCRIPT.get(iso)
    if not iso or known(country_of(location)):
        return ""
    if suffix.rsplit(".", 1)[-1] == ("uk" if iso == "GB" else iso.lower()) or (
        script and any(script.search(t) for t in texts)
    ):
        return _data()[2][iso]
    return ""


_PREDICATE = re.compile(r"\b(?:is|was|are)\s+(?:an?|the|one\s+of\s+the)\s+((?:[\w’'-]+\s+){0,4}[\w’'-]+)")
_BASED = re.compile(r"\b([A-Z][\w.’'-]*(?:\s+[A-Z][\w.’'-]*){0,2})-(?:based|headquartered)\b")
_POSSESSIVE = re.compile(
    r"(?:\b(?:is|was)|,)\s+(?:the\s+)?([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,2})['’]s\s"
)  # "is India's largest", or in apposition: "IndiGo, India's largest airline"
_COMPASS = frozenset({"latin", "central", "south", "north", "east", "west", "pan"})


def stated_country(text: str) -> str:
    """The country a sentence says an entity is of: a demonym in what it "is" ("is a Brazilian
    multinational", "a South Korean conglomerate"), an "X-based" place, or "is India's largest" (or
    ", India's largest" in apposition); ""
    when none."""
    _, demonym_of, names, _ = _data()
    for m in _PREDICATE.finditer(text):
        said = _key(m.group(1)).split()
        for i in range(len(said)):
            for width in (2, 1):
                iso = demonym_of.get(" ".join(said[i : i + width]))
                if iso and (width == 2 or i == 0 or said[i - 1] not in _COMPASS):
                    return names[iso]
    for m in (*_BASED.finditer(text), *_POSSESSIVE.finditer(text)):
        iso = _place(m.group(1))
        if iso:
            return names[iso]
    return ""


def of_country(word: str, country: str) -> bool:
    """`word` names `country`, in its own language too ("Castorama Polska"), or is its demonym
    ("saudi" of Saudi Arabia)."""
    said = stated_country(f"is a {word}") == country or country_named(word) == country
    return bool(country) and (said or word in country.split())
