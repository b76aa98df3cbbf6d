"""Safe-mode repair of the small mistakes agents make, guided by the args' JSON Schema.

Fixed (and reported, one entry per change):
- a number sent as a string ("25" where an integer is expected),
- "true"/"false" strings where a boolean is expected,
- a single value where a list is expected (wrapped in a list),
- a JSON-encoded string where an object or a list is expected (decoded).
Strict mode skips this pass and refuses such input instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic.alias_generators import to_camel

_INT = re.compile(r"^[+-]?\d+$")
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


_UNDECODABLE: Any = object()


def decode_json(text: str) -> Any:
    """`text` decoded, or `_UNDECODABLE` when it is not JSON that can be sent on: invalid, nested
    deeper than Python parses, or holding a lone surrogate escape ("\\ud800"), which Python's json
    accepts but no UTF-8 writer (httpx, the stdout stream) can encode."""
    try:
        value = json.loads(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return _UNDECODABLE
    return value


def _type_ok(value: Any, typ: str | None) -> bool:
    match typ:
        case "string":
            return isinstance(value, str)
        case "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "boolean":
            return isinstance(value, bool)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
        case "null":
            return value is None
    return True


def fmt_path(path: tuple[Any, ...]) -> str:
    """('search', 'criteria', 0) -> 'search.criteria[0]'."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(args)"


class Normalizer:
    """One pass over one call's args; `changes` lists what was repaired."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self._defs: dict[str, Any] = schema.get("$defs", {})
        self._root = schema
        self.changes: list[dict[str, Any]] = []

    def run(self, args: dict[str, Any]) -> dict[str, Any]:
        """The repaired args (a new dict; the input is not modified)."""
        out = self._walk(args, self._root, ())
        return out if isinstance(out, dict) else args

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self._defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return schema

    def _note(self, path: tuple[Any, ...], before: Any, after: Any, what: str) -> None:
        self.changes.append({"field": fmt_path(path), "change": what, "from": before, "to": after})

    def _walk(self, value: Any, schema: dict[str, Any], path: tuple[Any, ...]) -> Any:
        schema = self._resolve(schema)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            resolved = [self._resolve(b) for b in branches]
            # Already the right shape for some branch: descend into that one, convert nothing at this level.
            for branch in resolved:
                if "type" in branch and _type_ok(value, branch["type"]):
                    return self._walk(value, branch, path)
            for branch in resolved:
                if branch.get("type") in (None, "null"):
                    continue
                converted = self._convert(value, branch, path, dry=True)
                if converted is not _MISS:
                    return self._walk(self._convert(value, branch, path), branch, path)
            return value
        typ = schema.get("type")
        if typ and not _type_ok(value, typ):
            converted = self._convert(value, schema, path)
            if converted is _MISS:
                return value
            value = converted
        if isinstance(value, list) and "items" in schema:
            return [self._walk(v, schema["items"], (*path, i)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            props: dict[str, Any] = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            out = {}
            for key, item in value.items():
                sub = props.get(key) or props.get(to_camel(key)) if isinstance(key, str) else None
                if sub is None and isinstance(extra, dict):
                    sub = extra
                out[key] = self._walk(item, sub, (*path, key)) if sub else item
            return out
        return value

    def _convert(self, value: Any, schema: dict[str, Any], path: tuple[Any, ...], dry: bool = False) -> Any:
        """Value converted to schema's type, or _MISS. Records the change unless `dry`."""
        typ = schema.get("type")
        new: Any = _MISS
        what = ""
        if typ == "integer" and isinstance(value, str) and _INT.match(value.strip()):
            try:
                new, what = int(value.strip()), "number sent as a string"
            except ValueError:  # beyond Python's 4300-digit limit: left for validation to refuse
                pass
        elif typ == "number" and isinstance(value, str) and _NUM.match(value.strip()):
            num = float(value.strip())
            new, what = (
                (int(num) if num.is_integer() and _INT.match(value.strip()) else num),
                "number sent as a string",
            )
        elif typ == "boolean" and isinstance(value, str) and value.strip().lower() in ("true", "false"):
            new, what = value.strip().lower() == "true", "boolean sent as a string"
        elif typ in ("array", "object") and isinstance(value, str) and value.strip()[:1] in ("[", "{"):
            decoded = decode_json(value)
            if decoded is not _UNDECODABLE and _type_ok(decoded, typ):
                new, what = decoded, f"JSON-encoded string decoded to an {typ}"
        if new is _MISS and typ == "object" and isinstance(value, str):
            # ["is a startup"] where [{"description": ...}] is expected: the object has one required text field.
            required = schema.get("required") or []
            if len(required) == 1:
                field_schema = self._resolve(schema.get("properties", {}).get(required[0], {}))
                if field_schema.get("type") == "string" or all(
                    isinstance(e, str) for e in field_schema.get("enum", [0])
                ):
                    new, what = {required[0]: value}, f"string wrapped as {{{required[0]!r}: ...}}"
        if new is _MISS and typ == "array" and not isinstance(value, list) and value is not None:
            item_schema = self._resolve(schema.get("items", {}))
            if self._fits(value, item_schema):
                new, what = [value], "single value wrapped in a list"
        if new is not _MISS and not dry:
            self._note(path, value, new, what)
        return new

    def _fits(self, value: Any, schema: dict[str, Any]) -> bool:
        """Could `value` (possibly after a scalar repair) be one item of this schema?"""
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            return any(self._fits(value, self._resolve(b)) for b in branches)
        typ = schema.get("type")
        if typ is None or _type_ok(value, typ):
            return True
        return self._convert(value, schema, (), dry=True) is not _MISS


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISS: Any = _Missing()


def normalize(args: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(repaired args, changes) for args checked against `schema`."""
    norm = Normalizer(schema)
    out = norm.run(args)
    return out, norm.changes
