"""A Wikipedia article's title read as the name of whom the page is (Record.titled, .article, .fuller).

The title is the name its edition writes ("Heidelberg_Materials" for a page the item names
HeidelbergCement), a namesake told apart by the words in brackets after it ("Li Na (singer)").
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from exa_orch.workflows.entities.names import clean_name, is_latin
from exa_orch.workflows.entities.people import person_key
from exa_orch.workflows.entities.scripts import is_cjk

_WIKI = re.compile(r"[/.]wikipedia\.org/wiki/([^/?#]+)", re.I)
# A wiki's article on any host, its title written as MediaWiki writes one ("Eduardo_Frei_Ruiz-Tagle")
_ANY_WIKI = re.compile(r"/wiki/([^/?#]+)/?$")


def _title(found: re.Match[str]) -> tuple[str, str, str]:
    """(the article's whole title, the title without the words in brackets after it, those words)."""
    whole = unquote(found.group(1)).replace("_", " ").strip()
    aside = re.search(r"\s*\(([^)]*)\)\s*$", whole)
    return (whole, whole[: aside.start()].strip(), aside.group(1).strip()) if aside else (whole, whole, "")


class Title(NamedTuple):
    """What a page's wiki article title says of whom the page is (Record.titled, .article, .fuller)."""

    titled: str = ""  # the title, cleaned (a person's as person_key keys a name)
    article: str = ""  # the title when it tells no namesakes apart ("Neymar"; not "Li Na (singer)")
    fuller: str = ""  # a person's name as the title writes it in full (`_fuller`)
    written: str = ""  # the title as written, without the words in brackets after it
    aside: str = ""  # the words in brackets after it ("singer" of "Li Na (singer)")


def title_of(kind: str | None, name: str, url: str, profile: bool, said: str = "") -> Title:
    """A Wikipedia article's title is the name of its subject as that edition writes it ("Grupo_Televisa";
    "(company)" dropped, not a Chinese name's own: 中國工商銀行(亞洲) of 工銀亞洲, `_named_aside`), for
    the page named `name` at `url` (a profile on a shared host: `profile`; `said`, a person's text,
    its words folded: `_initialled`)."""
    found = _WIKI.search(url) if profile else None  # as written: 刘强东, not folded
    fuller = _fuller(name, found or _ANY_WIKI.search(url)) if kind == "person" and name else ""
    if kind == "person" and name and not fuller and is_latin(name):
        fuller = _initialled(name, url, said)
    if not found or not name:
        return Title(fuller=fuller)
    whole, title, aside = _title(found)
    article = whole if whole == title else ""  # "Li Na (singer)": a namesake's, told apart
    if kind == "person":
        return Title(person_key(title), article, fuller, title, aside)
    # weighed as the page's name is (profiles.py), never as a name it states: a title names a namesake too
    return Title(clean_name(whole if _named_aside(name, whole, aside) else title), article, fuller, title)


def _named_aside(name: str, whole: str, aside: str) -> bool:
    """A Chinese name's bracket is its own ("中國工商銀行（亞洲）有限公司", the Asian unit): the
    article's words in brackets, in CJK characters, are part of the name when the page's name (not
    the whole title: "99 (empresa)") writes them too (工銀亞洲)."""
    return bool(aside) and is_cjk(aside) and aside in name and name != whole


def _fuller(name: str, found: re.Match[str] | None) -> str:
    """A wiki article's title that writes the page's name in full, every word of the name and more
    ("Eduardo Frei" at .../wiki/Eduardo_Frei_Ruiz-Tagle): the person the page is about
    (person_evidence weighs the name so too: Eduardo Frei Montalva is his father); "" otherwise."""
    if not found:
        return ""
    title = _title(found)[1]
    # a style, not more of the name: "Willem-Alexander of the Netherlands"
    if "," in title or " of " in title:
        return ""
    own, full = person_key(name).split(), person_key(title).split()
    return title if own and len(full) > len(own) and set(own) <= set(full) and full[0] == own[0] else ""


_LINKEDIN = re.compile(r"linkedin\.com/in/([^/?#]+)", re.I)


def _initialled(name: str, url: str, said: str) -> str:
    """The page's name with a middle initial more, as a LinkedIn profile's address writes it
    ("Nikolaus Schües" at linkedin.com/in/nikolaus-w-schues) or as the person's text opens
    ("nikolaus h schues ist ein hamburger reeder"): a father and a son of one name are told apart by
    it (person_evidence weighs the name so too); "" otherwise. A Latin name's only: a name in
    another script has no initials."""
    own = person_key(name).split()
    found = _LINKEDIN.search(url)
    slug = [w for w in unquote(found.group(1)).lower().split("-") if w.isalpha()] if found else []
    for words in (slug, said.split()[: len(own) + 2]):
        if len(own) < 2 or len(words) <= len(own) or words[0] != own[0]:
            continue
        lead = words[: words.index(own[-1]) + 1] if own[-1] in words else []
        extra = [w for w in lead if w not in own]
        if lead[-1:] == own[-1:] and set(own) <= set(lead) and extra and all(len(w) == 1 for w in extra):
            return " ".join(lead)
    return ""


def addressed(short: str, full: str, path: str) -> bool:
    """A page named by a family name alone (`short`: "Dupont") whose address writes a whole name
    that ends with it (`full`: "Antoine Dupont", at lequipe.fr/.../antoine-dupont-rugby-a-7): the
    page names that person in full, as a news site's slug does."""
    own, whole = person_key(short).split(), person_key(full).split()
    if len(own) != 1 or len(whole) < 2 or whole[-1] != own[0] or not is_latin(short):
        return False
    return f"-{'-'.join(whole)}-" in f"-{re.sub(r'[^a-z0-9]+', '-', path.lower())}-"
