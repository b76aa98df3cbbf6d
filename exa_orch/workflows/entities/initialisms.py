"""A person's name written as the initials of a whole name ("MvG" / Michael van Gerwen, "AMLO" /
Andrés Manuel López Obrador, "RDJ" / Robert Downey Jr.): people.name_evidence weighs the pair by
`initials_of_whole`, person_keys blocks a name by its `initialisms`.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities.names import is_latin, words
from exa_orch.workflows.entities.titles import HONORIFICS, PARTICLES

_INITIALISM = re.compile(r"^[A-Za-z]{3,5}$")


def initials_of_whole(a: str, b: str) -> tuple[float, str] | None:
    """A name written as the initials of the other's whole name, three letters or more, particles
    and suffixes counted or not ("MvG" / Michael van Gerwen, "AMLO" / Andrés Manuel López Obrador,
    "RDJ" / Robert Downey Jr.): 4, 4.5 from four letters; never alone a join: an employer and a
    title both, or an identifier, must agree too."""
    for short, whole in ((a.strip(), b), (b.strip(), a)):
        letters = _initialism(short)
        if letters and is_latin(whole) and len(words(whole)) >= 2 and letters in initialisms(whole):
            return (4.5 if len(short) >= 4 else 4.0), f"{short} is the initials of {whole}"
    return None


def _initialism(text: str) -> str:
    """`text`'s letters, lower-cased, when it is written as initials (three to five letters, a
    capital among them: "MvG", "AMLO"); "" otherwise (a handle in lower case, "mvg")."""
    text = text.strip()
    return text.lower() if _INITIALISM.match(text) and text.lower() != text else ""


def initialisms(name: str) -> set[str]:
    """The initials of a whole name of three letters or more, particles and a "Jr." counted or not
    ("Michael van Gerwen": "mvg", "mg" is too short); for an initialism itself ("MvG"), its letters."""
    if _initialism(name):
        return {_initialism(name)}
    every = [w for w in words(name) if w not in HONORIFICS or w in {"jr", "sr"}]
    bare = [w for w in every if w not in PARTICLES and w not in HONORIFICS]
    return {i for ws in (every, bare) if len(bare) >= 2 and 3 <= len(i := "".join(w[0] for w in ws)) <= 5}
