"""The candidate keys a profile page adds (clustering.py blocks on them): what profiles.py weighs a
profile page and a company's own site by, written as keys both records share: the profile's path
as a site's label, the initials of the page's full name, the company it says it is of, its name
less a first or last word.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exa_orch.workflows.entities.names import DESIGNATORS, STOP_WORDS, unelided
from exa_orch.workflows.entities.profiles import profile_slug

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record


def blocking_keys(r: Record) -> set[str]:
    """Candidate keys a profile page adds: its path as a label, the initials of its full name, the
    company it says it is of, its name less a first or last word, as a site's label."""
    if not (r.site and r.site.platform and not r.domain):  # a profile, or a news host's article
        return set()
    slug = profile_slug(r)  # a label, and a name: a ticker is one too
    own = {f"l:{slug}", f"n:{slug}"} if len(slug) >= 3 else set()
    for other in (r.publisher, r.titled):  # whose page it says it is; an article's subject
        if other:
            own.update({f"n:{other}", f"n:{other.replace(' ', '')}"})
    return own | _initials_keys(r) | _name_keys(r)


def _initials_keys(r: Record) -> set[str]:
    """The initials of the page's full name, from its first two words on, its small words and
    designators kept or not, an article elided into a word read without it ("banque
    dinvestissement du mali": bim), or with a legal form's or Group's initial after them (profiles._initials: "sig")."""
    own: set[str] = set()
    every = r.raw_name.split()
    kept = [w for w in every if w not in ("and", "of", "the", "de")]
    for named in (every, kept, [w for w in kept if w not in DESIGNATORS]):
        for read in (named, unelided([w for w in named if w not in STOP_WORDS])):
            own.update(f"n:{''.join(w[0] for w in read[:k])}" for k in range(2, len(read) + 1))
    if len(every) >= 2:
        own.update(f"n:{''.join(w[0] for w in every)}{x}" for x in "lcg")
    return own


def _name_keys(r: Record) -> set[str]:
    """A page's name, or its core, as a site's label ("3DS" / 3ds.com), initials with a legal form's ("GCPL"
    meets "GCP"), and less a first or last word ("Saudi Aramco"; profiles._leading)."""
    own: set[str] = set()
    if len(r.clean) >= 3:
        own.add(f"l:{r.clean.replace(' ', '')}")
        own.add(f"l:{r.core.replace(' ', '')}")  # "Spar Group Ltd" meets spar.co.za
        if " " not in r.clean and r.clean[-1] in "lc":
            own.add(f"n:{r.clean[:-1]}")
    core = r.core.split()
    if len(core) >= 2:
        own.update({f"n:{' '.join(core[1:])}", f"n:{' '.join(core[:-1])}"})
        own.update(f"n:{' '.join(core[:k])}" for k in range(1, len(core)) if len(core[0]) >= 3)
    return own
