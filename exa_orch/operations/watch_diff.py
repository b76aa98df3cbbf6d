"""What a watch compares from one run to the next: a task result's entities, and their diff.

Contract:
- `snapshot(result)` is `{entity key: {field: value}}`, JSON-able, from a finished task's result:
  a collection's `items` or a search's `results` (keyed by URL, else id or name), a structured
  answer (research.deep with an `outputSchema`: each list of objects becomes entities keyed by
  `<list>/<name|url|id>`, every other field one field of the entity `output`), else the whole
  answer as the one field `value` of the entity `result`. Nested objects become dotted fields
  (`enrichments.funding`); ids, scores and timestamps Exa makes up anew on each run are left out,
  so an unchanged world gives an equal snapshot.
- `diff(before, after)` is `{added: [keys], gone: [keys], changed: [{entity, fields: {field:
  {was, now}}}]}`, each sorted; `is_empty(diff)` says a run found nothing new.
"""

from __future__ import annotations

from typing import Any

Snapshot = dict[str, dict[str, Any]]

# Made up by Exa (or exa-orch) on every run, so never a change in the world.
VOLATILE = frozenset(
    {"id", "score", "createdAt", "updatedAt", "websetId", "sourceId", "itemId", "requestId", "runId",
     "costDollars", "searchTime", "resolvedSearchType", "taskId", "image", "favicon", "steps"}
)  # fmt: skip
_KEYS = ("url", "id", "name")
_SHOWN = 500  # characters of a changed string value kept in the diff


def _flat(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict) and value:
        for key in sorted(value):
            if key not in VOLATILE:
                _flat(value[key], f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix or "value"] = value


def _entity_key(entity: dict[str, Any], index: int) -> str:
    for source in (entity, entity.get("properties") or {}):
        if isinstance(source, dict):
            for key in _KEYS:
                if isinstance(source.get(key), str) and source[key]:
                    return str(source[key])
    return f"#{index}"


def _entities(rows: list[Any], prefix: str = "") -> Snapshot:
    out: Snapshot = {}
    for i, row in enumerate(rows):
        if isinstance(row, dict):
            fields: dict[str, Any] = {}
            _flat(row, "", fields)
            out[prefix + _entity_key(row, i)] = fields
    return out


def _structured(answer: dict[str, Any]) -> Snapshot:
    out: Snapshot = {}
    rest: dict[str, Any] = {}
    for key, value in answer.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            out.update(_entities(value, f"{key}/"))
        else:
            _flat(value, str(key), rest)
    if rest:
        out["output"] = rest
    return out


def snapshot(result: Any) -> Snapshot:
    """The entities of a finished task's `result` (module docstring)."""
    if isinstance(result, dict):
        for key in ("items", "results"):
            if isinstance(result.get(key), list):
                return _entities(result[key])
        answer = result.get("result", result.get("output"))
        if isinstance(answer, dict):
            return _structured(answer)
        if "result" in result:
            return {"result": {"value": answer}}
        return _structured(result)
    if isinstance(result, list):
        return _entities(result)
    return {"result": {"value": result}}


def _shown(value: Any) -> Any:
    return value[:_SHOWN] + "..." if isinstance(value, str) and len(value) > _SHOWN else value


def diff(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What changed from `before` to `after` (module docstring)."""
    changed: list[dict[str, Any]] = []
    for key in sorted(set(before) & set(after)):
        was, now = before[key], after[key]
        fields = {
            f: {"was": _shown(was.get(f)), "now": _shown(now.get(f))}
            for f in sorted(set(was) | set(now))
            if was.get(f) != now.get(f)
        }
        if fields:
            changed.append({"entity": key, "fields": fields})
    return {
        "added": sorted(set(after) - set(before)),
        "gone": sorted(set(before) - set(after)),
        "changed": changed,
    }


def is_empty(found: dict[str, Any]) -> bool:
    """True when the diff holds no addition, removal or change."""
    return not (found.get("added") or found.get("gone") or found.get("changed"))
