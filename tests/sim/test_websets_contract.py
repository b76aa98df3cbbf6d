"""Contract: every one of the 38 Websets operations, driven through exa-py's AsyncExa against the
simulator, answers a body that validates against its response schema in exa-websets-spec.yaml."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import httpx

from exa_orch.sim.testing import SimHandle
from tests.sim.sdk import async_exa
from tests.specs import load_spec, validate_response, validate_schema
from tests.support import WAIT, until

if TYPE_CHECKING:
    from exa_py import AsyncExa

CSV = "name,url\nNova Logic,https://novalogic.com\nSomewhere Else,https://somewhere-else.example\n"

# The spec gives this operation's 200 no schema; exa-py reads it as a WebsetEnrichment.
NO_BODY_SCHEMA = {"websets-enrichments-update": "WebsetEnrichment"}


class Recorder:
    """Keeps every (method, path, status, json body) exa-py's client saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, int, Any]] = []

    async def __call__(self, response: httpx.Response) -> None:
        await response.aread()
        self.seen.append(
            (response.request.method, response.request.url.path, response.status_code, response.json())
        )


def recording_exa(sim: SimHandle) -> tuple[AsyncExa, Recorder]:
    exa = async_exa("test", sim.url)
    recorder = Recorder()
    exa._client = httpx.AsyncClient(  # exa-py builds its client lazily; this one also records
        base_url=exa.base_url, headers=exa.headers, timeout=WAIT, event_hooks={"response": [recorder]}
    )
    return exa, recorder


def spec_operations() -> dict[tuple[str, str], str]:
    """(METHOD, served path template) -> operationId for every Websets operation."""
    ops = {}
    for path, item in load_spec("websets")["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op:
                ops[(method.upper(), "/websets" + path)] = op["operationId"]
    return ops


def match(ops: dict[tuple[str, str], str], method: str, path: str) -> tuple[str, str]:
    """The (template, operationId) a served path belongs to; literal segments win over parameters."""
    candidates = []
    for (m, template), op_id in ops.items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if m == method and re.match(pattern, path):
            candidates.append((template.count("{"), template, op_id))
    assert candidates, f"no spec operation for {method} {path}"
    _, template, op_id = min(candidates)
    return template, op_id


async def test_every_websets_operation_answers_per_the_spec(sim: SimHandle) -> None:
    exa, recorder = recording_exa(sim)
    ws_api = exa.websets
    async with exa:
        preview = await ws_api.preview({"search": {"query": "AI startups in Europe", "count": 3}})
        assert preview.search.criteria
        webhook = await ws_api.webhooks.create({"events": ["webset.created", "webset.item.created"],
                                                "url": "https://example.com/hook"})  # fmt: skip
        assert webhook.secret
        webset = await ws_api.create({
            "search": {"query": "AI startups in Europe", "count": 5,
                       "criteria": [{"description": "Works in artificial intelligence"}]},
            "enrichments": [{"description": "Number of employees", "format": "number"}],
            "externalId": "contract-1", "metadata": {"k": "v"},
        })  # fmt: skip
        await ws_api.list(limit=5)
        await ws_api.update("contract-1", {"metadata": {"k": "w"}})

        async def idle() -> bool:
            return (await ws_api.get(webset.id)).status == "idle"

        await until(idle)
        got = await ws_api.get(webset.id, expand=["items"])
        assert len(got.items or []) == 5
        items = await ws_api.items.list(webset.id, limit=2)
        item = await ws_api.items.get(webset.id, items.data[0].id)
        search_id = got.searches[0].id
        await ws_api.searches.get(webset.id, search_id)
        search = await ws_api.searches.create(webset.id, {
            "query": "fintech companies in Europe", "count": 40, "behavior": "append", "recall": True,
            "exclude": [{"source": "webset", "id": webset.id}], "metadata": {"step": "2"},
        })  # fmt: skip
        await ws_api.searches.cancel(webset.id, search.id)
        enrichment = await ws_api.enrichments.create(webset.id, {"description": "Company size", "format": "options",
                                                                 "options": [{"label": "small"}, {"label": "large"}]})  # fmt: skip
        await ws_api.enrichments.get(webset.id, enrichment.id)
        await ws_api.enrichments.update(webset.id, enrichment.id, {"description": "Company size band"})
        await ws_api.enrichments.cancel(webset.id, enrichment.id)
        await ws_api.enrichments.delete(webset.id, enrichment.id)
        await ws_api.items.delete(webset.id, item.id)

        monitor = await ws_api.monitors.create({"websetId": webset.id, "cadence": {"cron": "0 9 * * *"},
                                                "behavior": {"type": "search", "config": {"count": 2}}})  # fmt: skip
        await ws_api.monitors.list(webset_id=webset.id)
        await ws_api.monitors.get(monitor.id)
        await ws_api.monitors.update(monitor.id, {"status": "disabled"})
        runs = await ws_api.monitors.runs.list(monitor.id)
        await ws_api.monitors.runs.get(monitor.id, runs.data[0].id)
        await ws_api.monitors.delete(monitor.id)

        imported = await ws_api.imports.create({"format": "csv", "entity": {"type": "company"}, "title": "leads"},
                                               csv_data=CSV)  # fmt: skip
        await ws_api.imports.list()
        await ws_api.imports.update(imported.id, {"title": "leads (checked)"})

        async def imported_done() -> bool:
            return (await ws_api.imports.get(imported.id)).status == "completed"

        await until(imported_done)
        await ws_api.imports.delete(imported.id)

        await ws_api.webhooks.list()
        await ws_api.webhooks.get(webhook.id)
        await ws_api.webhooks.update(webhook.id, {"events": ["webset.idle"]})
        attempts = await ws_api.webhooks.attempts.list(webhook.id)
        assert attempts.data
        await ws_api.webhooks.delete(webhook.id)

        events = await ws_api.events.list(limit=10)
        await ws_api.events.get(events.data[0].id)
        await ws_api.cancel(webset.id)
        await ws_api.delete(webset.id)

    ops = spec_operations()
    covered = set()
    for method, path, status, body in recorder.seen:
        assert status < 400, (method, path, status, body)
        template, op_id = match(ops, method, path)
        if op_id in NO_BODY_SCHEMA:
            validate_schema("websets", NO_BODY_SCHEMA[op_id], body)
        else:
            validate_response("websets", method, template, status, body)
        covered.add(op_id)
    assert len(ops) == 38
    assert covered == set(ops.values()), sorted(set(ops.values()) - covered)
