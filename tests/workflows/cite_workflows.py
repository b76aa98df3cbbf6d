"""Test workflows for the citation check: results that cite pages of the seeded world (seed 42).

- `test.cites` (wrapped by `citations.checking`, as the built-ins are): an item per URL of
  `urls`, each evaluation citing its page with `quote` (default: the page's first sentence); its
  budget, page cap and `verifyCitations` are the real ones.
- `test.cites.gated`: the same result checked by `citations.check` directly, then it waits until
  the file `gate` exists: a test stops the app there and restarts it.
"""

from __future__ import annotations

import os
from typing import Any

from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.sim.world import World
from exa_orch.workflows import citations, kit


class CiteArgs(kit.TaskArgs):
    urls: list[str]
    """the pages the result cites"""
    quote: str | None = None
    """what every citation quotes (default: its page's first sentence)"""
    gate: str | None = None
    """test.cites.gated: the file whose existence lets the task end"""


def first_sentence(url: str) -> str:
    """What the seeded world's page at `url` says first (or the URL itself for an unknown page)."""
    page = World.seeded(42).by_url(url)
    return page.text.split(". ")[0] + "." if page is not None else url


def cited(args: CiteArgs) -> dict[str, Any]:
    items = [
        {
            "id": f"item_{n}",
            "properties": {"type": "company", "url": url, "company": {"name": f"Company {n}"}},
            "evaluations": [
                {
                    "criterion": "Is cited",
                    "satisfied": "yes",
                    "references": [{"url": url, "snippet": args.quote or first_sentence(url)}],
                }
            ],
        }
        for n, url in enumerate(args.urls)
    ]
    return {"items": items}


async def cites(ctx: TaskContext, args: CiteArgs) -> dict[str, Any]:
    return cited(args)


async def cites_gated(ctx: TaskContext, args: CiteArgs) -> dict[str, Any]:
    result = cited(args)
    result["citationCheck"] = await citations.check(ctx, citations.collect(result), 100)
    while args.gate and not os.path.exists(args.gate):  # noqa: ASYNC240 (a test's gate, polled)
        await ctx.sleep(0.02)
    return result


def _estimate(args: Any) -> list[Any]:
    return []


WORKFLOWS = [
    citations.checking(WorkflowSpec("test.cites", CiteArgs, cites, estimate=_estimate)),
    WorkflowSpec("test.cites.gated", CiteArgs, cites_gated),
]
