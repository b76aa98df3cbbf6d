"""Ids that would reach another endpoint are refused before anything is sent; the rest stay literal.

A black-box run found `items.delete {itemId: ".."}` sent as `DELETE /websets/v0/websets/W` (the
whole webset deleted): httpx resolves dot segments. Every operation that puts an id in a path is
probed here with a canary webset in place, which must survive all of it.
"""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.errors import InvalidParams, NotFoundError, OrchError

from .conftest import Ops

# (operation, args, id fields put in the path); "W" is replaced by the canary webset's id.
PATH_OPS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("websets.get", {"id": "W"}, ("id",)),
    ("websets.update", {"id": "W", "metadata": {"k": "v"}}, ("id",)),
    ("websets.delete", {"id": "W"}, ("id",)),
    ("websets.cancel", {"id": "W"}, ("id",)),
    ("websets.waitUntilIdle", {"id": "W", "timeout": 1}, ("id",)),
    ("items.get", {"websetId": "W", "itemId": "x"}, ("websetId", "itemId")),
    ("items.delete", {"websetId": "W", "itemId": "x"}, ("websetId", "itemId")),
    ("items.list", {"websetId": "W"}, ("websetId",)),
    ("items.getAll", {"websetId": "W"}, ("websetId",)),
    ("searches.get", {"websetId": "W", "searchId": "x"}, ("websetId", "searchId")),
    ("searches.cancel", {"websetId": "W", "searchId": "x"}, ("websetId", "searchId")),
    ("searches.create", {"websetId": "W", "query": "AI startups", "count": 1}, ("websetId",)),
    ("enrichments.get", {"websetId": "W", "enrichmentId": "x"}, ("websetId", "enrichmentId")),
    ("enrichments.cancel", {"websetId": "W", "enrichmentId": "x"}, ("websetId", "enrichmentId")),
    ("enrichments.delete", {"websetId": "W", "enrichmentId": "x"}, ("websetId", "enrichmentId")),
    ("enrichments.update", {"websetId": "W", "enrichmentId": "x", "description": "d"}, ("enrichmentId",)),
    ("enrichments.create", {"websetId": "W", "description": "founding year"}, ("websetId",)),
    ("monitors.get", {"id": "x"}, ("id",)),
    ("monitors.update", {"id": "x", "metadata": {"k": "v"}}, ("id",)),
    ("monitors.delete", {"id": "x"}, ("id",)),
    ("monitors.runs.list", {"monitorId": "x"}, ("monitorId",)),
    ("monitors.runs.get", {"monitorId": "x", "runId": "y"}, ("monitorId", "runId")),
    ("webhooks.get", {"id": "x"}, ("id",)),
    ("webhooks.update", {"id": "x", "metadata": {"k": "v"}}, ("id",)),
    ("webhooks.delete", {"id": "x"}, ("id",)),
    ("webhooks.list_attempts", {"id": "x"}, ("id",)),
    ("webhooks.getAllAttempts", {"id": "x"}, ("id",)),
    ("imports.get", {"id": "x"}, ("id",)),
    ("imports.update", {"id": "x", "metadata": {"k": "v"}}, ("id",)),
    ("imports.delete", {"id": "x"}, ("id",)),
    ("imports.waitUntilCompleted", {"id": "x", "timeout": 1}, ("id",)),
    ("events.get", {"id": "x"}, ("id",)),
    ("research.get", {"researchId": "x"}, ("researchId",)),
    ("research.cancel", {"researchId": "x"}, ("researchId",)),
    ("research.pollUntilFinished", {"researchId": "x", "timeout": 1}, ("researchId",)),
]

REFUSED = [
    ".",
    "..",
    "",
    " ",
    "a/b",
    "/".join(["..", "W"]),
    "..\\x",
    "W/items",
    "W\n2026 INFO forged",
    "a\x00b",
    "a\rb",
    "a\x7fb",
]  # control: log forging
LITERAL = ["%2e%2e", "%2E%2E", "a?x=1", "a#b", "%2F"]


async def canary(ops: Ops) -> str:
    ws = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 1}})
    return str(ws["id"])


def probe(args: dict[str, Any], webset_id: str, field: str, value: str) -> dict[str, Any]:
    out = {k: (webset_id if v == "W" else v) for k, v in args.items()}
    out[field] = value
    return out


async def test_ids_that_would_change_the_route_are_refused_unsent(ops: Ops) -> None:
    webset_id = await canary(ops)
    for name, args, fields in PATH_OPS:
        for field in fields:
            for value in REFUSED:
                before = ops.requests()
                with pytest.raises(InvalidParams) as caught:
                    await ops(name, probe(args, webset_id, field, value))
                assert field in caught.value.fields or field in caught.value.message, (name, field, value)
                assert ops.requests() == before, f"{name} {field}={value!r} reached Exa"
    got = await ops("websets.get", {"id": webset_id})
    assert got["id"] == webset_id and got.get("metadata") in (None, {})


async def test_a_webset_external_id_no_url_can_carry_is_refused_before_the_create(ops: Ops) -> None:
    # A webset made with externalId ".." could never be read, updated or found again by it (its
    # create-or-find lookup is GET /websets/{externalId}): refuse it rather than make it.
    for value in [".", "..", " ", "a/b", "../x", "..\\x"]:  # escape-probe: hostile ids, not paths
        before = ops.requests()
        with pytest.raises(InvalidParams) as caught:
            await ops("websets.create", {"search": {"query": "AI startups", "count": 1}, "externalId": value})
        assert caught.value.fields == ["externalId"], (value, caught.value.message)
        assert ops.requests() == before, f"externalId={value!r} reached Exa"
    for value in ["%2e%2e", "a?x=1", "a#b"]:  # these stay literal ids: made, and found by them
        made = await ops(
            "websets.create", {"search": {"query": "AI startups", "count": 1}, "externalId": value}
        )
        assert made["externalId"] == value
        assert (await ops("websets.get", {"id": value}))["id"] == made["id"]


async def test_other_ids_reach_their_own_endpoint_as_one_literal_segment(ops: Ops) -> None:
    webset_id = await canary(ops)
    for name, args, fields in PATH_OPS:
        for field in fields:
            if field == "websetId" and name.endswith(".create"):
                continue  # a create under a missing webset: Exa answers 404 all the same, checked below
            for value in LITERAL:
                ops.sim.reset()
                with pytest.raises(OrchError) as caught:
                    await ops(name, probe(args, webset_id, field, value))
                assert isinstance(caught.value, NotFoundError), (name, field, value, caught.value)
                paths = [e["path"] for e in ops.sim.log()]
                assert paths, f"{name} {field}={value!r} sent nothing"
                for path in paths:  # the server decoded the path once: the id is one whole segment
                    assert value in path.split("/"), (name, field, value, path)
    got = await ops("websets.get", {"id": webset_id})
    assert got["id"] == webset_id and got.get("metadata") in (None, {})
