"""The academic field a person's page says they work in, and namesakes an encyclopedia tells apart.

Two people of one name at one university are common (two Richard Taylors at Stanford, a
mathematician and a physicist), and their pages share the name, the employer and the city: what
tells them apart is the field each page names. `fields(words)` reads the fields a page's words
name ("mathematician", "Professor of Mathematics" -> mathematics); two pages that each name a
field and share none are two people (a person's pages name their field alike: a physicist's
"Nobel Prize in Physics" and "physicist"). Only the words that name one field and nothing else
are read ("economy", "history", "law" say too much else).

`namesakes(a, b)`: one edition of Wikipedia titles one name's articles apart ("Margaret Hamilton
(actress)", "Margaret Hamilton (software engineer)", or the plain title for the best known): two
articles of one edition under one name and different titles are two people.
"""

from __future__ import annotations

import re

# A field and the words of five letters or more that name it (about.topics keeps those).
_FIELDS = {
    "mathematics": "mathematics mathematician mathematicians mathematical",
    "physics": "physics physicist physicists",
    "chemistry": "chemistry chemist chemists",
    "biology": "biology biologist biologists",
    "economics": "economics economist economists",
    "astronomy": "astronomy astronomer astronomers astrophysics astrophysicist",
    "philosophy": "philosophy philosopher philosophers",
    "linguistics": "linguistics linguist",
    "geology": "geology geologist",
    "sociology": "sociology sociologist",
    "psychology": "psychology psychologist",
    "neuroscience": "neuroscience neuroscientist",
}
_FIELD_OF = {w: field for field, said in _FIELDS.items() for w in said.split()}
# astrophysics names astronomy and physics both: a physicist's page may say either
_ALSO = {
    "astronomy": {"physics"},
    "physics": {"astronomy"},
    "biology": {"neuroscience"},
    "neuroscience": {"biology"},
}
_QUALIFIED = re.compile(r"/wiki/(.+?)(?:_\(([^)]*)\))?/?$", re.I)


def fields(said: frozenset[str] | set[str]) -> frozenset[str]:
    """The fields `said` (a page's words, folded) names."""
    return frozenset(_FIELD_OF[w] for w in said if w in _FIELD_OF)


def apart(fa: frozenset[str], fb: frozenset[str]) -> bool:
    """Two pages each name a field and no field of one is the other's, nor next to it."""
    if not (fa and fb) or fa & fb:
        return False
    near = {n for f in fa for n in _ALSO.get(f, ())}
    return not near & fb


def namesakes(host_a: str, path_a: str, host_b: str, path_b: str) -> str | None:
    """Two articles of one Wikipedia edition under one name but titled apart: the titles, else None."""
    if host_a != host_b or "wikipedia.org" not in host_a:
        return None
    ma, mb = _QUALIFIED.search(path_a), _QUALIFIED.search(path_b)
    if not (ma and mb) or ma.group(1) != mb.group(1) or (ma.group(2) or "") == (mb.group(2) or ""):
        return None
    return f"{ma.group(0).removeprefix('/wiki/')} / {mb.group(0).removeprefix('/wiki/')}"
