"""Agents read a task type's args from `list_operations {"taskType": "*"}`: every field there says
what it is, units included (a workflow's `timeout` is milliseconds, an operation's seconds) (issue 29)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exa_orch.app import open_app
from exa_orch.config import Settings


def undescribed(schema: dict[str, Any], defs: dict[str, Any], where: str, seen: set[str]) -> list[str]:
    """Every property under `schema` (following $refs once each) that has no description."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return undescribed(defs[name], defs, f"{where}<{name}>", seen)
    out: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            out += undescribed(sub, defs, where, seen)
    if isinstance(schema.get("items"), dict):
        out += undescribed(schema["items"], defs, f"{where}[]", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        out += undescribed(schema["additionalProperties"], defs, f"{where}{{}}", seen)
    for name, sub in (schema.get("properties") or {}).items():
        if not str(sub.get("description", "")).strip():
            out.append(f"{where}.{name}")
        out += undescribed(sub, defs, f"{where}.{name}", seen)
    return out


async def test_every_task_type_field_has_a_description(tmp_path: Path) -> None:
    settings = Settings(exa_url="http://127.0.0.1:9", simulator=True, db_path=tmp_path / "w.db")
    async with open_app(settings, tmp_path / "w.db") as app:
        listed = await app.run_operation("list_operations", {"taskType": "*"})
    missing: list[str] = []
    fields = 0
    for task_type in listed["taskTypes"]:
        schema = task_type["args"]
        missing += undescribed(schema, schema.get("$defs", {}), task_type["type"], set())
        fields += len(schema.get("properties") or {})
    assert fields > 40
    assert missing == [], f"{len(missing)} fields without a description: {missing}"


async def test_a_workflow_timeout_says_milliseconds_and_an_operation_timeout_seconds(tmp_path: Path) -> None:
    settings = Settings(exa_url="http://127.0.0.1:9", simulator=True, db_path=tmp_path / "w.db")
    async with open_app(settings, tmp_path / "w.db") as app:
        listed = await app.run_operation("list_operations", {"taskType": "*"})
        wait = await app.run_operation("list_operations", {"operation": "websets.waitUntilIdle"})
    timeouts = [t["args"]["properties"]["timeout"]["description"] for t in listed["taskTypes"]
                if "timeout" in t["args"].get("properties", {})]  # fmt: skip
    assert timeouts and all("millisecond" in d for d in timeouts), timeouts
    assert "second" in str(wait).lower()


async def test_an_engine_arg_says_its_default_is_the_servers_exa_orch_engine(tmp_path: Path) -> None:
    """The schema's `default: websets` is only the server's default default: an omitted engine is
    EXA_ORCH_ENGINE (stored by tasks.create), so an agent reading the schema must be told (audit)."""
    settings = Settings(exa_url="http://127.0.0.1:9", simulator=True, db_path=tmp_path / "w.db")
    async with open_app(settings, tmp_path / "w.db") as app:
        listed = await app.run_operation("list_operations", {"taskType": "*"})
    engines = {
        t["type"]: t["args"]["properties"]["engine"]["description"]
        for t in listed["taskTypes"]
        if "engine" in t["args"].get("properties", {})
    }
    assert len(engines) == 5, sorted(engines)
    assert all("EXA_ORCH_ENGINE" in d for d in engines.values()), engines
