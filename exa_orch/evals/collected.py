"""The items a finished convergent.search collected, on either engine, read back through the operations.

The eval scores a result's entities against the truth by each item's URL, so it needs every item
the task resolved, grouped by the query that found it:
- Websets engine: each query's webset (`items.getAll`);
- Agent engine: each run's structured output (`research.get` with `full`), read into rows and items
  the way the workflow reads them (`rows.from_agent`, `rows.as_item`) and kept where the result
  names the row's id. A query's runs come one after another in `runIds` and `itemCounts` says how
  many rows each query kept, so the rows are handed out to queries in that order.
"""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def result_item_ids(result: Json) -> set[str]:
    """Every item id a convergent.search result places in an entity (intersection and unique)."""
    ids = {str(i) for e in result["intersection"] for i in e["entity"]["itemIds"]}
    ids.update(str(i) for u in result["unique"] for group in u.get("entityItemIds") or [] for i in group)
    return ids


async def collected(app: Any, result: Json, kind: str) -> tuple[dict[str, Json], list[list[str]]]:
    """(item id -> item, item ids per query) of a completed convergent.search `result`."""
    items: dict[str, Json] = {}
    per_query: list[list[str]] = []
    if result.get("engine") != "agent":
        for wid in result["websetIds"]:
            page = await app.run_operation("items.getAll", {"websetId": wid, "fields": ["all"]})
            per_query.append([str(i["id"]) for i in page["data"]])
            items.update({str(i["id"]): i for i in page["data"]})
        return items, per_query
    from exa_orch.workflows import rows

    kept = result_item_ids(result)
    counts = list(result["itemCounts"])
    per_query = [[] for _ in counts]
    q = 0
    for rid in result["runIds"]:
        run = await app.run_operation("research.get", {"researchId": rid, "full": True})
        structured = (run.get("output") or {}).get("structured")
        for row in rows.from_agent(rid, structured, [], 0, kind):
            if row.id not in kept:
                continue  # a row the collection dropped (a URL an earlier chunk returned)
            while q < len(counts) - 1 and len(per_query[q]) >= counts[q]:
                q += 1
            per_query[q].append(row.id)
            items[row.id] = rows.as_item(row)
    return items, per_query
