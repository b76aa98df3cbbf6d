"""A world file for the citation check (issue 40): pages whose quotes are, or are not, on them.

`build(seed)` gives (world, truth): 190 company pages whose text says four facts, each page cited
with a quote (`quote`: what the webset's references quote); 170 quotes are on their page (150
verbatim, 20 near-verbatim: typography, case, a dropped word), 20 are seeded wrong (10 a sentence
of another page, 10 a paraphrase); and 10 copies of supported pages (the same article at another
URL, same text and quote). `truth` maps each URL to "supported" or "unsupported", with `copies`.
"""

from __future__ import annotations

import random
from typing import Any

QUERY = "companies in the citation world"
CRITERION = "Is a company"
_A = "Nova Quanta Lumen Vertex Helio Aether Cobalt Orbit Pixel Strata Kinet Ferro Zephyr Argo Solace".split()
_B = "Labs Works Systems Dynamics Bio Pay Grid Logic Robotics Health Secure Cloud Ware Metrics Forge".split()
_INDUSTRY = "fintech healthcare logistics robotics climate security retail insurance education media".split()
_CITY = "Berlin Paris Lisbon Oslo Austin Toronto Nairobi Seoul Madrid Dublin Warsaw Denver".split()
_ROUND = ["Seed", "Series A", "Series B", "Series C"]
_INVESTOR = "Accel Index Balderton Atomico Sequoia Lightspeed Northzone Creandum Kinnevik".split()
_PRODUCT = "payment rails|route planners|warehouse robots|carbon ledgers|threat scanners|claim engines".split(
    "|"
)
_CUSTOMER = "small shops|city hospitals|freight brokers|solar farms|regional banks|online schools".split("|")


def _page(r: random.Random, name: str) -> tuple[str, list[str]]:
    facts = [
        f"{name} is a {r.choice(_INDUSTRY)} company based in {r.choice(_CITY)}.",
        f"In {r.randint(2012, 2025)} it raised ${r.choice((3, 8, 15, 40, 120))}M in a {r.choice(_ROUND)} "
        f"round led by {r.choice(_INVESTOR)}.",
        f"Its {r.randint(5, 900)} employees build {r.choice(_PRODUCT)} for {r.choice(_CUSTOMER)}.",
        f"The founders met at university in {r.randint(1995, 2015)} and still run the company together.",
    ]
    return " ".join(facts), facts


def _near(r: random.Random, sentence: str, n: int) -> str:
    """The sentence as a citation may quote it: typography, case or one small word changed."""
    kind = n % 4
    if kind == 0:
        return sentence.lower()
    if kind == 1:
        return sentence.replace("'", "\u2019").rstrip(".") + "\u2026"
    if kind == 2:
        return sentence.replace(" a ", " ", 1).replace(" the ", " ", 1)
    return f"\u201c{sentence}\u201d"


def _paraphrase(r: random.Random, name: str) -> str:
    return (
        f"{name} secured roughly {r.choice(('ten', 'fifty', 'ninety'))} million dollars from "
        f"{r.choice(('angel backers', 'a sovereign fund', 'its own customers'))} to expand overseas."
    )


def build(seed: int = 40) -> tuple[dict[str, Any], dict[str, Any]]:
    """The world file and its truth (module docstring)."""
    r = random.Random(seed)
    names: list[str] = []
    while len(names) < 190:
        name = f"{r.choice(_A)}{r.choice('aeiou')}{r.choice('lnrstx')} {r.choice(_B)}"
        if name not in names:
            names.append(name)
    pages = [_page(r, name) for name in names]
    entities: list[dict[str, Any]] = []
    truth: dict[str, str] = {}
    copies: dict[str, str] = {}
    wrong = set(r.sample(range(190), 20))
    near = set(r.sample(sorted(set(range(190)) - wrong), 20))
    copied = r.sample(sorted(set(range(190)) - wrong), 10)
    for i, (name, (text, facts)) in enumerate(zip(names, pages, strict=True)):
        url = f"https://{name.lower().replace(' ', '')}.example.com/about"
        sentence = facts[r.randrange(4)]
        if i in wrong:
            other = pages[(i + 7) % 190][1][1 + r.randrange(2)]  # its funding or its staff
            quote = other if len(truth) % 2 and other not in text else _paraphrase(r, name)
        else:
            quote = _near(r, sentence, i) if i in near else sentence
        truth[url] = "unsupported" if i in wrong else "supported"
        page = {"url": url, "text": text, "quote": quote, "queries": [QUERY]}
        entities.append({"id": f"c{i:03d}", "name": name, "pages": [page]})
        if i in copied:
            copy = f"https://wire.example.net/syndicated/{i:03d}"
            copies[copy] = url
            truth[copy] = "supported"
            entities.append({"id": f"c{i:03d}-wire", "name": f"{name} (wire copy)",
                             "pages": [{**page, "url": copy}]})  # fmt: skip
    return {"name": "citations", "entities": entities}, {"truth": truth, "copies": copies}
