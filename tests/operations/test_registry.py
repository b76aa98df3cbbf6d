"""The default registry: coverage of the Websets spec, schemas, names, exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

import exa_orch.operations as operations
from exa_orch.errors import UnknownOperation
from exa_orch.operations import OpContext, default_registry, dispatch

SPEC = Path(__file__).resolve().parents[2] / "data-design" / "exa-websets-spec.yaml"

# Every operationId of exa-websets-spec.yaml and the operation that serves it.
OPERATION_IDS = {
    "websets-create": "websets.create",
    "websets-get": "websets.get",
    "websets-list": "websets.list",
    "websets-update": "websets.update",
    "websets-delete": "websets.delete",
    "websets-cancel": "websets.cancel",
    "websets-preview": "websets.preview",
    "websets-searches-create": "searches.create",
    "websets-searches-get": "searches.get",
    "websets-searches-cancel": "searches.cancel",
    "websets-items-list": "items.list",
    "websets-items-get": "items.get",
    "websets-items-delete": "items.delete",
    "websets-enrichments-create": "enrichments.create",
    "websets-enrichments-get": "enrichments.get",
    "websets-enrichments-cancel": "enrichments.cancel",
    "websets-enrichments-update": "enrichments.update",
    "websets-enrichments-delete": "enrichments.delete",
    "monitors-create": "monitors.create",
    "monitors-get": "monitors.get",
    "monitors-list": "monitors.list",
    "monitors-update": "monitors.update",
    "monitors-delete": "monitors.delete",
    "monitors-runs-list": "monitors.runs.list",
    "monitors-runs-get": "monitors.runs.get",
    "webhooks-create": "webhooks.create",
    "webhooks-get": "webhooks.get",
    "webhooks-list": "webhooks.list",
    "webhooks-update": "webhooks.update",
    "webhooks-delete": "webhooks.delete",
    "webhooks-attempts-list": "webhooks.list_attempts",
    "imports-create": "imports.create",
    "imports-get": "imports.get",
    "imports-list": "imports.list",
    "imports-update": "imports.update",
    "imports-delete": "imports.delete",
    "events-list": "events.list",
    "events-get": "events.get",
}
WEBSETS_DOMAINS = (
    "websets.",
    "searches.",
    "items.",
    "enrichments.",
    "monitors.",
    "webhooks.",
    "imports.",
    "events.",
)
HELPERS = {
    "websets.waitUntilIdle", "websets.getAll", "items.getAll", "monitors.getAll", "webhooks.getAll",
    "webhooks.getAllAttempts", "imports.getAll", "imports.waitUntilCompleted", "events.getAll",
    "enrichments.suggest",
}  # fmt: skip
OTHERS = {
    "exa.search", "exa.findSimilar", "exa.getContents", "exa.answer", "research.create", "research.get",
    "research.cancel", "research.stop", "research.find", "research.list", "research.pollUntilFinished", "papers.search",
    "list_operations", "criteria.suggest",
}  # fmt: skip
TASKS = {"tasks.create", "tasks.get", "tasks.result", "tasks.list", "tasks.cancel", "tasks.export"}
WATCHES = {
    "watches.create",
    "watches.list",
    "watches.get",
    "watches.pause",
    "watches.resume",
    "watches.delete",
}


def spec_operation_ids() -> set[str]:
    spec = yaml.safe_load(SPEC.read_text())
    return {
        op["operationId"]
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }


def test_every_spec_operation_has_an_operation_and_back() -> None:
    registry = default_registry()
    ids = spec_operation_ids()
    assert len(ids) == 38
    assert set(OPERATION_IDS) == ids, "the map names exactly the spec's operationIds"
    assert set(OPERATION_IDS.values()) <= set(registry.names())
    websets_ops = {n for n in registry.names() if n.startswith(WEBSETS_DOMAINS)} - HELPERS
    assert websets_ops == set(OPERATION_IDS.values()), "no Websets operation without an operationId"


def test_registry_holds_exactly_the_documented_operations() -> None:
    assert set(default_registry().names()) == set(OPERATION_IDS.values()) | HELPERS | OTHERS | TASKS | WATCHES


async def test_list_operations_gives_valid_json_schemas() -> None:
    registry = default_registry()
    out = await dispatch(registry, "list_operations", {"schemas": True}, OpContext(gateway=None))
    assert out["count"] == len(registry) == len(out["operations"])
    for op in out["operations"]:
        assert op["summary"] and isinstance(op["longRunning"], bool)
        Draft202012Validator.check_schema(op["argsSchema"])
    by_name = {o["name"]: o for o in out["operations"]}
    create = by_name["searches.create"]["argsSchema"]
    assert set(create["required"]) == {"websetId", "query", "count"}
    assert by_name["websets.waitUntilIdle"]["longRunning"] is True
    some = await dispatch(registry, "list_operations", {"prefix": "monitors.", "namesOnly": True},
                          OpContext(gateway=None))  # fmt: skip
    assert {o["name"] for o in some["operations"]} == {
        n for n in registry.names() if n.startswith("monitors.")
    }
    assert "argsSchema" not in some["operations"][0]


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [("websets.craete", "websets.create"), ("monitors.runs_list", "monitors.runs.list"),
     ("webhooks.listAttempts", "webhooks.list_attempts"), ("Websets.Get", "websets.get")],
)  # fmt: skip
async def test_unknown_operations_get_close_names(wrong: str, expected: str) -> None:
    with pytest.raises(UnknownOperation) as err:
        await dispatch(default_registry(), wrong, {}, OpContext(gateway=None))
    assert expected in err.value.suggestions
    assert expected in (err.value.hint or "")


def test_exports_are_sorted_and_complete() -> None:
    assert operations.__all__ == sorted(operations.__all__)
    for name in operations.__all__:
        assert hasattr(operations, name)
    public = {n for n in dir(operations) if not n.startswith("_") and n[0].isupper()}
    assert public <= set(operations.__all__) | {"annotations"}


async def test_list_operations_by_default_names_every_operation_by_domain_in_under_8kb() -> None:
    registry = default_registry()
    out = await dispatch(registry, "list_operations", {}, OpContext(gateway=None))
    assert len(json.dumps(out)) <= 8_000 and "argsSchema" not in json.dumps(out)
    listed = {f"{domain}.{verb}" if domain != "meta" else verb for domain, verbs in out["domains"].items()
              for verb in verbs}  # fmt: skip
    assert listed == set(registry.names()) and out["count"] == len(registry)
    assert out["domains"]["monitors.runs"]["list"] == registry.get("monitors.runs.list").summary
    assert "websets.waitUntilIdle" in out["longRunning"] and "websets.get" not in out["longRunning"]
    assert "operation" in out["how"] and "taskType" in out["how"]
    one = await dispatch(
        registry, "list_operations", {"operation": "searches.create"}, OpContext(gateway=None)
    )
    assert one["argsSchema"] == registry.get("searches.create").args_schema()
    # One operation's answer also names the keys of its default answer (the summary lists don't).
    assert (
        one["outputSchema"]["properties"]["query"] == {}
        and one["outputSchema"]["additionalProperties"] is False
    )
    with pytest.raises(UnknownOperation) as err:
        await dispatch(registry, "list_operations", {"operation": "searches.craete"}, OpContext(gateway=None))
    assert "searches.create" in err.value.suggestions
