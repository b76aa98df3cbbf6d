"""The resolver alone on a golden world's pages, in the item shape of each engine.

`exa-orch eval` runs convergent.search on the Websets engine through the simulator; this scores
`entities.resolve` on every page of a world as each engine hands items to it: a webset item
(the simulator's `properties`, with company industry and location, a person's employer) and an
Agent row as `rows.as_item` builds it (type, url, description, name and the identity fields the
row schema asks for, filled as the simulated agent fills them: `agent_properties`). Each beside the
registered-domain rule on the same items.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

Json = dict[str, Any]


def items_of(path: Path, kind: str, engine: str) -> tuple[list[Json], dict[str, str], dict[str, str]]:
    """(items of `kind` in `engine`'s shape, item id -> true entity id, entity id -> name)."""
    from exa_orch.sim.websets.judge import properties
    from exa_orch.sim.world import World

    world = World.from_file(path)
    pages = [e for e in world.entities if e.kind == kind]
    # Each engine's item shape: the simulator's webset properties, or an agent row's.
    shapes: dict[str, Callable[[Any, str], Json]] = {
        "websets": lambda e, description: properties(e, kind, description),
        "agent": lambda e, description: agent_properties(e, kind, description),
    }
    items: list[Json] = []
    for e in pages:
        description = str(e.attrs.get("description") or e.text)
        items.append({"id": e.id, "properties": shapes[engine](e, description)})
    truth = {e.id: str(e.attrs["entity"]) for e in pages}
    names = {str(e.attrs["entity"]): e.name for e in pages if "duplicate_of" not in e.attrs}
    return items, truth, names


def agent_properties(page: Any, kind: str, description: str) -> Json:
    """An Agent row's properties for a world `page`: the row a collection run asks for
    (`rows.rows_schema` for `kind`) with its name, url and `description`, its identity fields filled
    as the simulated agent fills them (`sim.synth.fill`, from the page's attributes), read and
    shaped as a collection reads it (`rows.from_agent`, `rows.as_item`)."""
    from exa_orch.sim.synth import fill
    from exa_orch.workflows import rows

    asked = rows.rows_schema([], [], 1, kind)["properties"]["rows"]["items"]["properties"]
    row = {n: fill(asked[n], n, [page], 0, 2) for n in rows.IDENTITY_FIELDS.get(kind, {})}
    row |= {"name": page.name, "url": page.url, "description": description}
    (got,) = rows.from_agent("page", {"rows": [row]}, [], 0, kind)
    properties: Json = rows.as_item(got)["properties"]
    return properties


def missed_pairs(
    items: list[Json], resolution: Any, truth: dict[str, str], names: dict[str, str]
) -> list[Json]:
    """Every same-entity pair the resolver left apart: the entity, the two pages (name and URL) and
    why they stayed apart (the evidence's own words): what a tuning run reads to see what to add."""
    from exa_orch.workflows.entities import compare, record

    where = resolution.group_of()
    kept = {frozenset(map(str, p["items"])): p["reason"] for p in resolution.apart}
    records = [record(i, item) for i, item in enumerate(items)]
    out: list[Json] = []
    for i, j in itertools.combinations(range(len(items)), 2):
        a, b = records[i], records[j]
        if truth[a.id] != truth[b.id] or where[i] == where[j]:
            continue
        pages = [f"{r.name} <{(items[r.index].get('properties') or {}).get('url')}>" for r in (a, b)]
        out.append(
            {
                "entity": names.get(truth[a.id], truth[a.id]),
                "pages": pages,
                "why": kept.get(frozenset((a.id, b.id))) or _why(compare(a, b)),
            }
        )
    return out


def score_shapes(path: Path, *, verbose: bool = False) -> Json:
    """{engine: {kind: scores of the resolver and of the registered-domain rule}} for one world;
    `verbose` adds `missed`, every same-entity pair left apart with why (missed_pairs)."""
    from exa_orch.evals.scoring import pair_scores, registered_domain_clusters
    from exa_orch.workflows.entities import resolve

    out: Json = {}
    for engine in ("websets", "agent"):
        for kind in ("company", "person"):
            items, truth, names = items_of(path, kind, engine)
            if not items:
                continue
            ids = [str(i["id"]) for i in items]
            resolution = resolve(items)
            clusters = [[ids[i] for i in g] for g in resolution.groups]
            rule = pair_scores(registered_domain_clusters(dict(zip(ids, items, strict=True))), truth, names)
            out.setdefault(engine, {})[kind] = {
                **pair_scores(clusters, truth, names),
                "registeredDomain": {k: rule[k] for k in ("precision", "recall", "f1")}
                | {"falseMerges": len(rule["falseMerges"])},
            }
            if verbose:
                out[engine][kind]["missed"] = missed_pairs(items, resolution, truth, names)
    return out


def _why(ev: Any) -> str:
    return "joins, but no blocking key made them a candidate pair" if ev.joins else str(ev.why_apart)
