"""The organisations a person's text says they founded or lead, read as evidence of who they are.

An Agent row of a person carries a name, a URL and a description only; where no "X is TITLE at Y"
gives an employer (records._role_at), the description often still says what the person founded or
runs: "co-founder and CEO of MercadoLibre", "founded Kotak Mahindra Bank", "Non-Executive Director
and founder, Kotak Mahindra Bank Ltd.", "CEO and founding partner of Atomico; he co-founded Skype".
Two records of one name that name one such organisation are one person's (person_evidence weighs
it as a shared employer). Never read as evidence against (a person founds and leads several) but
where a text says a relative founded it ("grandson of the founder of Harry's Bar", `founders`):
the founder's namesake heir is another person. Founders are read in Arabic too ("أسس", "مؤسس").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from exa_orch.workflows.entities.names import clean_name

# A founder's or leader's role, optionally "and" one or two more words ("co-founder and CEO",
# "CEO and founding partner"), then "of" / "at" / a comma, or a verb taking the name directly.
_ROLE = (
    r"(?:co-?founder|founder|chief\s+executive(?:\s+officer)?|ceo|chair(?:man|woman|person)?|president)"
    r"(?:\s+and\s+[\w-]+(?:\s+[\w-]+)?)?"
    r"(?:\s+of|\s+at|,)\s+(?:the\s+board\s+(?:of\s+directors\s+)?of\s+)?"
)
_VERB = r"(?:co-?founded|founded)\s+"
# An organisation's name: capitalised words, joined by "&", "of", "and", "de" (cues.ORG_NAME).
_ORG = r"((?:the\s+)?[A-Z0-9][\w&.'’\-]*(?:\s+(?:(?:and|of|&|de)\s+)?[A-Z0-9&][\w&.'’\-]*){0,5})"
_CUE = re.compile(rf"\b(?i:{_ROLE}|{_VERB}){_ORG}")


# A relative of the one a cue names: "grandson of the founder of Harry's Bar" says who founded it,
# not that the person did
_KIN_OF = re.compile(
    r"\b(?:son|daughter|grandson|granddaughter|grandchild|nephew|niece|widow|heir|brother|sister)"
    r"\s+of\s+(?:the\s+)?(?:late\s+)?$",
    re.IGNORECASE,
)
# A role the text denies: "not the founder of Gong Cha Korea" says whom the page is not
_DENIED = re.compile(r"\b(?:not|never|nor)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_FOUNDING = re.compile(r"(?i)co-?found|found")
# The same in Arabic: "أسس البنك العربي" (founded the Arab Bank), "مؤسس البنك" (the bank's
# founder), after a kin word for a relative's ("حفيد مؤسس البنك", the grandson of the bank's
# founder); the organisation's words up to a preposition or a year ("في القدس عام 1930")
_ARABIC_CUE = re.compile(
    r"(?<![\u0621-\u064a])(?:أسس|أسّس|مؤسس)\s+((?:(?!(?:في|من|عام|على|إلى|عن|مع|و)\s)[\u0621-\u064a]+\s*){1,3})"
)
_ARABIC_KIN = re.compile(r"(?:حفيد|حفيدة|ابن|ابنة|نجل|أرملة|شقيق|شقيقة)\s+$")


def undenied(texts: list[str]) -> list[str]:
    """`texts` without the roles they deny and the organisations those name ("not the founder of
    Gong Cha Korea"): a page that names an organisation only to say its subject is not its founder
    does not name it as the subject's."""
    out = []
    for text in texts:
        denied = [
            m.span() for m in _CUE.finditer(text) if _DENIED.search(text[max(0, m.start() - 40) : m.start()])
        ]
        for start, end in reversed(denied):
            text = text[:start] + text[end:]
        out.append(text)
    return out


def _cues(texts: list[str]) -> Iterator[tuple[str, str, bool]]:
    """Each organisation a cue names (cleaned), the cue, and whether a relative's ("grandson of the
    founder of") it is; a name of two joined by "and" ("Tune Group and AirAsia") gives each. A role
    the text denies ("not the founder of") names none."""
    for text in undenied(texts):
        for m in _CUE.finditer(text):
            written = m.group(1).rstrip(".")
            kin = bool(_KIN_OF.search(text[max(0, m.start() - 40) : m.start()]))
            for name in (written, *written.split(" and ")):
                cleaned = clean_name(name)
                if len(cleaned) >= 3:
                    yield cleaned, m.group(0), kin
        for m in _ARABIC_CUE.finditer(text):
            kin = bool(_ARABIC_KIN.search(text[max(0, m.start() - 12) : m.start()]))
            if len(cleaned := clean_name(m.group(1).strip())) >= 3:
                yield cleaned, "founded", kin


def organisations(texts: list[str]) -> frozenset[str]:
    """The cleaned names of the organisations `texts` say the person founded or leads."""
    return frozenset(org for org, _, kin in _cues(texts) if not kin)


def founders(texts: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The organisations `texts` say the person founded, and those whose founder they say is the
    person's relative ("grandson of the founder of Harry's Bar")."""
    founding = [(org, kin) for org, cue, kin in _cues(texts) if _FOUNDING.match(cue)]
    return frozenset(o for o, kin in founding if not kin), frozenset(o for o, kin in founding if kin)
