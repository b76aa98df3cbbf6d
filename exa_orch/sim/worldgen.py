"""How a seeded world draws a company: several industries, a place (city, country, region),
funding rounds with their years and amounts, technologies, and a page that says all of it.

Contract: `company_profile(rng)` draws from `rng` only (one `random.Random(seed)` for the world), so
the same seed gives the same companies; `company_text(...)` is a pure function of the profile.
The mix is skewed like the startup web Exa indexes (half the companies work on AI in some way,
rounds crowd into recent years), so conjunctive queries of the kind Exa's docs show ("AI startups
in Europe that raised Series A funding in 2024") have answers on every seed.
"""

from __future__ import annotations

import random
from typing import Any

from exa_orch.sim.vocab import (
    FOCUS,
    INDUSTRIES,
    PRODUCTS,
    REGION_WEIGHTS,
    REGIONS,
    ROUND_AMOUNTS,
    ROUNDS,
    TECHNOLOGIES,
    WORLD_YEAR,
)

AI = "Artificial Intelligence"
_NAMES = tuple(INDUSTRIES)
# primary industry weights: AI, cloud infrastructure and developer tools lead, as on the startup web
_PRIMARY = tuple(
    7 if i == AI else 4 if i == "Cloud Infrastructure" else 3 if i == "Developer Tools" else 1 for i in _NAMES
)
# an AI company's second industry (what it applies AI to, or builds for AI)
_AI_SECOND = tuple(
    10 if i == "Cloud Infrastructure" else 5 if i == "Developer Tools" else 1 for i in _NAMES if i != AI
)
_BUILDS_FOR_AI = ("Cloud Infrastructure", "Developer Tools", "Semiconductors")
# an AI company's founding year: the wave of 2019-2023 (weights for 2016..2024)
_AI_FOUNDED = dict(zip(range(2016, 2025), (1, 2, 3, 5, 7, 8, 8, 6, 3), strict=True))
_AI_SECOND_NAMES = tuple(i for i in _NAMES if i != AI)


def _industries(r: random.Random) -> list[str]:
    primary = r.choices(_NAMES, weights=_PRIMARY)[0]
    out = [primary]
    if primary == AI:
        if r.random() < 0.7:
            out.append(r.choices(_AI_SECOND_NAMES, weights=_AI_SECOND)[0])
    elif r.random() < (0.8 if primary in _BUILDS_FOR_AI else 0.5):
        out.append(AI)  # AI infrastructure, developer tools for AI, "AI-powered" fintech ...
    if r.random() < 0.15:
        extra = r.choice(_NAMES)
        if extra not in out:
            out.append(extra)
    return out


def _rounds(r: random.Random, founded: int, heat: int) -> list[dict[str, Any]]:
    """Rounds from the founding year on, each 1-3 years after the last, until one isn't raised.
    `heat` (0 cold, 1 AI, 2 what AI is built on: infrastructure, tools, chips) makes rounds come
    faster and more often, as in the 2023-2025 AI funding wave."""
    rounds: list[dict[str, Any]] = []
    year = founded
    stage = 0 if r.random() < 0.4 else 1
    keep_going = (0.7, 0.86, 0.9)[heat]
    gaps = ((5, 4, 1), (6, 3, 1), (8, 2, 0))[heat]
    while stage < len(ROUNDS) and year <= WORLD_YEAR:
        name = ROUNDS[stage]
        low, high = ROUND_AMOUNTS[name]
        amount = round(r.uniform(low, high), -5)
        rounds.append({"round": name, "year": year, "month": r.randint(1, 12), "amount": int(amount)})
        if r.random() > keep_going:
            break
        stage += 1
        year += r.choices((1, 2, 3), weights=gaps)[0]
    return rounds


def company_profile(r: random.Random) -> dict[str, Any]:
    """A company's attributes but its name, id and contact details."""
    industries = _industries(r)
    ai = AI in industries
    region = r.choices(tuple(REGIONS), weights=REGION_WEIGHTS)[0]
    city, country = r.choice(REGIONS[region])
    founded = r.choices(range(2010, WORLD_YEAR), weights=[1 if y < 2017 else 3 if y < 2020 else 5 for y in range(2010, WORLD_YEAR)])[0]  # fmt: skip
    if ai:
        founded = r.choices(tuple(_AI_FOUNDED), weights=tuple(_AI_FOUNDED.values()))[0]
    heat = 2 if ai and any(i in _BUILDS_FOR_AI for i in industries) else int(ai)
    rounds = _rounds(r, founded, heat)
    stage = rounds[-1]["round"] if rounds else "Bootstrapped"
    employees = max(3, int(r.choice((5, 12, 25, 48, 90)) * (1 + 1.6 * len(rounds))))
    pool = [t for i in industries for t in TECHNOLOGIES[i]]
    technologies = list(dict.fromkeys(r.sample(pool, min(len(pool), r.randint(2, 4)))))
    return {
        "industry": industries[0],
        "industries": industries,
        "location": f"{city}, {country}",
        "city": city,
        "country": country,
        "region": region,
        "employees": employees,
        "founded": founded,
        "funding": sum(x["amount"] for x in rounds),
        "funding_stage": stage,
        "funding_rounds": rounds,
        "technologies": technologies,
    }


def focus(industries: list[str]) -> str:
    """What a company of `industries` builds, in its page's words."""
    if len(industries) > 1 and (industries[0], industries[1]) in FOCUS:
        return FOCUS[(industries[0], industries[1])]
    also = f", working with {industries[1].lower()} customers" if len(industries) > 1 else ""
    return f"{PRODUCTS[industries[0]]}{also}"


def _money(amount: int) -> str:
    return f"${amount / 1e6:.1f}M" if amount < 1e9 else f"${amount / 1e9:.2f}B"


def company_text(name: str, p: dict[str, Any]) -> str:
    """The company's page: every attribute the judge reads is said in it."""
    inds = p["industries"]
    kind = " and ".join(i.lower() for i in inds)
    rounds = p["funding_rounds"]
    funding = (
        "It has raised "
        + "; ".join(f"a {x['round']} round of {_money(x['amount'])} in {x['year']}" for x in rounds)
        + "."
        if rounds
        else "It is bootstrapped."
    )
    return (
        f"{name} is {'an' if kind[0] in 'aeiou' else 'a'} {kind} startup based in {p['city']}, "
        f"{p['country']} ({p['region']}), founded in {p['founded']}. It builds {focus(inds)}. "
        f"{funding} It employs about {p['employees']} people and builds with {', '.join(p['technologies'])}."
    )
