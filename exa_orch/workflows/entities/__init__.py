"""Entity resolution: which Websets items (or Agent rows) are the same company, person, paper or page.

One package every workflow uses to match or deduplicate items (convergent.search's intersection,
qd.winnow across rounds, lifecycle.harvest, research.verifiedCollection, the archive). It replaced
seed 002's rule "URL exact match or name similarity > 0.85", which merged Klarna with Klara and
Merck & Co. with Merck KGaA: a character ratio says nothing about identity.

- `hosts`: the one table of hosts that serve many entities (a profile there is identity, the host never);
- `sites`: a URL through the Public Suffix List (bundled snapshot, no fetch): registered domain,
  canonical page, profile, locale;
- `names`, `people`, `given_match`, `given_names`, `scripts`: company names cleaned (legal forms of
  many jurisdictions by `cleanco`, transliteration by `anyascii`), people's names read in either
  order, with initials, middle and second family names, nicknames (the `nicknames` package, and
  other languages' short forms and romanizations it lacks, with sources), Chinese and Korean names
  read syllable by syllable (Hokkien as Southeast Asia spells it: `hokkien`), the Brahmic scripts
  of South Asia with their vowels (`brahmic`);
- `records`: what an item carries and what its text states (other names, sites, owners);
- `evidence`, `person_evidence`, `employers`: for and against per pair (`employers`: whether two
  employers a person's pages name are one organisation, or two held at once); a join needs enough for and nothing
  against;
- `families`: one company on several sites (label stems, an app's store pages, a page about it on
  another's site), each joined only with corroboration;
- `clustering`: candidate pairs, merges strongest first, complete linkage, the pairs kept apart.

`resolve(items)` groups items; `entity_key(item)` is one item's identity without the others.
"""

from __future__ import annotations

from typing import Any

from exa_orch.workflows.entities.clustering import Resolution, resolve, resolve_records
from exa_orch.workflows.entities.evidence import Evidence, compare, conflict
from exa_orch.workflows.entities.names import acronym, clean_name, core_name, fold, names_agree
from exa_orch.workflows.entities.people import person_key
from exa_orch.workflows.entities.records import Record, make, record
from exa_orch.workflows.entities.sites import Site, _extractor, canonical_url, site

__all__ = [
    "Evidence", "Record", "Resolution", "Site", "_extractor", "acronym", "canonical_url", "clean_name",
    "compare", "conflict", "core_name", "entity_key", "fold", "make", "names_agree", "person_key",
    "record", "resolve", "resolve_records", "site",
]  # fmt: skip

Json = dict[str, Any]


def entity_key(item: Json) -> str:
    """One item's identity without the others: a profile URL, else its registered domain and
    cleaned name, else its canonical URL, name or id. For sets of items use `resolve`."""
    r = record(0, item)
    if r.kind == "person":
        if r.profiles:
            return "profile:" + min(r.profiles)
        return f"person:{r.clean}@{r.employer}"
    if r.domain and r.clean and r.kind in (None, "company", "custom"):
        return f"site:{r.domain}"
    if r.site:
        return "url:" + r.site.canonical
    if r.clean:
        return "name:" + r.clean
    return "id:" + str(item.get("id"))
