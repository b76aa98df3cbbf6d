"""What a company's page says of itself beyond its names: whose blog, newsroom or app it is
(`publisher`), and what the company does (`topics`), both read by profiles.py."""

from __future__ import annotations

import re

from exa_orch.workflows.entities.countries import country_of, known, stated_country
from exa_orch.workflows.entities.names import clean_name, words

# What a company's page says of any company: not what it does. Longer than four letters (topics).
_GENERIC = frozenset(
    "company companies corporation group global largest leading world worlds multinational "
    "headquartered headquarters based founded known listed stock exchange public state owned "
    "subsidiary holding holdings international through including their which other under several "
    "countries offering offers provides providing operates operating operator services service "
    "products brands since about along across million billion employees formed merger combined "
    "biggest major firm business businesses diversified integrated engaged makes making "
    "after become became first majority government ministry".split()
)
# "the technology blog of Swiggy's engineering", "Engineering blog of Coupang", "Stories from the
# engineering teams of Mercado Libre", "the official app of X", "X's newsroom"
_PUBLISHER = re.compile(
    r"\b(?i:blog|newsroom|newsletter|publication|stories|magazine|app)\b[^.;]{0,60}?\bof\s+"
    r"(?:the\s+)?([A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})(?:['’]s\b|[\s,.;]|$)"
)


def publisher(texts: list[str]) -> str:
    """The company a page says it is the blog, newsroom or app of, cleaned; "" when none."""
    for text in texts:
        m = _PUBLISHER.search(text[:240])  # what the page says it is, in its first sentence
        if m:
            return clean_name(m.group(1))
    return ""


def topics(texts: list[str]) -> frozenset[str]:
    """Words of five letters or more a company's texts say it does ("mining", "semiconductor"):
    not generic words, not a place or a demonym (a country is compared as a country)."""
    found = {w for t in texts for w in words(t) if len(w) >= 5 and w.isalpha()} - _GENERIC
    return frozenset(w for w in found if not (known(country_of(w)) or stated_country(f"is a {w}")))
