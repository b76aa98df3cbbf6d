"""Operations declare what the rest of exa-orch needs to know about them: `read_only` (safe to send
again) and `create_key` / `found_with` (how a create's object is found again). Exa's errors are
typed from status and body by one function, whichever client sent the request."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from exa_orch.errors import Conflict, InvalidParams, NotFoundError
from exa_orch.gateway.limits import family_of
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.gateway.retry import shape_of
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.operations.registry import Operation
from exa_orch.operations.tasks import mark_create, parse_create
from exa_orch.sim.testing import SimHandle

from .conftest import Ops


async def test_list_operations_shows_each_operations_declarations() -> None:
    registry = default_registry()
    out = await dispatch(registry, "list_operations", {"schemas": True}, OpContext(gateway=None))
    by_name = {o["name"]: o for o in out["operations"]}
    assert by_name["websets.get"]["readOnly"] is True and by_name["websets.get"]["createKey"] is None
    assert by_name["websets.create"]["readOnly"] is False
    assert by_name["websets.create"]["createKey"] == "externalId"
    assert by_name["searches.create"]["createKey"] == "metadata"
    assert by_name["tasks.create"]["readOnly"] is False and by_name["tasks.cancel"]["readOnly"] is False
    one = await dispatch(
        registry, "list_operations", {"operation": "imports.create"}, OpContext(gateway=None)
    )
    assert one["createKey"] == "externalId" and one["readOnly"] is False
    creates = {name for name, d in by_name.items() if d["createKey"]}
    # tasks.create and watches.create make rows in exa-orch's own database, nothing at Exa.
    assert creates == {n for n in registry.names() if n.endswith(".create")} - {
        "tasks.create",
        "watches.create",
    }
    assert not creates & registry.read_only(), "a create is never safe to send blindly"
    assert {"tasks.result", "websets.getAll", "list_operations"} <= registry.read_only()
    assert not {"tasks.create", "websets.delete", "exa.search"} & registry.read_only()
    for op in registry:
        if op.found_with is not None:  # the get it names exists and is itself read-only
            assert op.found_with in registry.read_only()


async def test_read_only_operations_send_only_gets_to_exa(ops: Ops) -> None:
    webset = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 1}})
    before = len(ops.sim.log())
    reads: list[tuple[str, dict[str, Any]]] = [
        ("websets.get", {"id": webset["id"]}),
        ("websets.list", {}),
        ("websets.getAll", {"maxItems": 5}),
        ("items.list", {"websetId": webset["id"]}),
        ("searches.get", {"websetId": webset["id"], "searchId": webset["searches"][0]["id"]}),
        ("monitors.getAll", {}),
        ("events.list", {}),
    ]
    for name, args in reads:
        assert name in ops.registry.read_only()
        await ops(name, args)
    sent = ops.sim.log()[before:]
    assert len(sent) >= len(reads)
    assert {entry["method"] for entry in sent} == {"GET"}


class _Args(BaseModel):
    pass


async def _nothing(args: Any, ctx: OpContext) -> None:
    return None


@pytest.mark.parametrize(
    ("create_key", "given", "expected"),
    [
        ("metadata", {"metadata": {"a": 1}}, {"metadata": {"a": 1, CREATE_MARK: "task-key"}}),
        ("metadata", {"metadata": {CREATE_MARK: "mine"}}, {"metadata": {CREATE_MARK: "mine"}}),
        ("externalId", {}, {"externalId": "task-key"}),
        ("externalId", {"externalId": "mine"}, {"externalId": "mine"}),
        (None, {"x": 1}, {"x": 1}),
    ],
)
def test_a_create_run_as_a_task_carries_its_key_where_the_operation_declares(
    create_key: Any, given: dict[str, Any], expected: dict[str, Any]
) -> None:
    op = Operation("things.create", _Args, _nothing, "a test create", create_key=create_key)
    call_args = dict(given)
    external_id = mark_create(op, call_args, "task-key")
    assert call_args == expected
    assert external_id == (expected["externalId"] if create_key == "externalId" else None)


async def test_a_plain_clients_errors_are_typed_by_the_gateways_mapping(sim: SimHandle) -> None:
    """The operations' own HTTP path maps statuses with the gateway's function: a 409 is a Conflict
    (with the 'fetch it by its externalId' hint), never an ApiError; a 404 a NotFoundError."""
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test-key"}) as plain:
        ctx = OpContext(gateway=SimpleNamespace(http=plain))
        body = {"search": {"query": "AI startups in Europe", "count": 1}, "externalId": "plain-1"}
        await dispatch(default_registry(), "websets.create", body, ctx)
        with pytest.raises(Conflict) as conflict:
            await dispatch(default_registry(), "websets.create", body, ctx)
        assert conflict.value.status == 409 and "externalId" in (conflict.value.hint or "")
        with pytest.raises(NotFoundError) as missing:
            await dispatch(default_registry(), "websets.get", {"id": "ws_missing"}, ctx)
        assert missing.value.status == 404 and "externalId works" in (missing.value.hint or "")


def test_tasks_create_args_are_read_by_one_rule() -> None:
    """The MCP task path (mcp/tasks_calls.py) and the tasks.create operation share `parse_create`."""
    registry = default_registry()
    assert parse_create(registry, {"type": "qd.winnow", "ttl": 60_000, "topic": "x"}) == (
        "qd.winnow",
        {"topic": "x"},
        60_000,
        {},
    )
    assert parse_create(registry, {"type": "qd.winnow", "budgetUsd": 2.5, "topic": "x"})[1:] == (
        {"topic": "x"},
        None,
        {"budgetUsd": 2.5},
    )
    with pytest.raises(InvalidParams) as missing:
        parse_create(registry, {"topic": "x"})
    assert "type" in missing.value.fields
    with pytest.raises(InvalidParams) as short:
        parse_create(registry, {"type": "qd.winnow", "ttl": 10})
    assert "ttl" in short.value.fields


async def test_the_gateways_create_routes_are_exactly_the_declared_creates(ops: Ops) -> None:
    """gateway/retry._CREATE_PATH (which POSTs the transport never re-sends after an ambiguous
    failure) is a path rule the gateway keeps without importing operations: every POST a declared
    create sends matches it, and no other POST an operation sends does."""
    webset = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 1}})
    webset_id = webset["id"]
    search_id = webset["searches"][0]["id"]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("searches.create", {"websetId": webset_id, "query": "AI startups", "count": 1}),
        ("enrichments.create", {"websetId": webset_id, "description": "founding year"}),
        ("monitors.create", {"websetId": webset_id, "cadence": {"cron": "0 6 * * *"},
                             "behavior": {"type": "search", "config": {"count": 1}}}),
        ("webhooks.create", {"url": "https://example.com/hook", "events": ["webset.created"]}),
        ("imports.create", {"entity": {"type": "company"}, "size": 20, "count": 1}),
        ("research.create", {"instructions": "who makes RISC-V chips?"}),
        ("websets.preview", {"search": {"query": "AI startups"}}),
        ("websets.update", {"id": webset_id, "metadata": {"k": "v"}}),
        ("searches.cancel", {"websetId": webset_id, "searchId": search_id}),
        ("exa.search", {"query": "RISC-V chips", "numResults": 1}),
        ("exa.answer", {"query": "who makes RISC-V chips?"}),
    ]  # fmt: skip
    for name, args in calls:
        await ops(name, args)
    declared = {name for name, _ in calls if ops.registry.get(name).create_key} | {"websets.create"}
    local = {"tasks.create", "watches.create"}  # rows in exa-orch's database, nothing at Exa
    assert declared == {n for n in ops.registry.names() if n.endswith(".create")} - local
    posts = [e for e in ops.sim.log() if e["method"] == "POST"]
    assert sum(1 for e in posts if e.get("created")) == len(declared)
    for entry in posts:
        request = httpx.Request("POST", ops.sim.url + entry["path"], json={})
        shape = shape_of(request, entry["path"], family_of(entry["path"]))
        assert shape.is_create == bool(entry.get("created")), entry["path"]
