"""`dispatch(registry, name, args, ctx)`: the one entry every face (MCP tool, tasks, CLI) calls.

It validates args with the operation's pydantic model (safe or strict mode), answers `preview: true`
without calling Exa, runs the handler, and projects the result unless `raw: true`.
Only OrchError subclasses leave it.
"""

from __future__ import annotations

import asyncio
import difflib
import functools
import json
import logging
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from exa_orch.errors import GatewayError, InvalidParams, OrchError

from .context import OpContext
from .normalize import decode_json, fmt_path, normalize
from .preview import cost_preview
from .registry import Operation, Registry

logger = logging.getLogger(__name__)

Mode = Literal["safe", "strict"]
CONTROL_KEYS = ("mode", "preview", "raw")


@functools.lru_cache(maxsize=512)
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema(by_alias=True, mode="validation")


def _aliases(model: type[BaseModel]) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def _expected(schema: dict[str, Any], loc: tuple[Any, ...]) -> str:
    """A short description ("string", "integer", "one of 'a', 'b'", "object") of the schema at `loc`."""
    defs = schema.get("$defs", {})
    node: dict[str, Any] = schema
    for part in loc:
        while "$ref" in node:
            node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
    while "$ref" in node:
        node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
    if "enum" in node:
        return "one of " + ", ".join(repr(v) for v in node["enum"])
    if "const" in node:
        return repr(node["const"])
    kinds = [b.get("type") for b in node.get("anyOf", [node])]
    kinds = [k if isinstance(k, str) else "object" for k in kinds if k != "null"]
    return " or ".join(dict.fromkeys(kinds))


def _describe_error(err: Any, op: Operation, mode: Mode) -> tuple[str, str]:
    """(field path, what was wrong and what is expected) for one pydantic error."""
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    path = fmt_path(loc)
    kind = err["type"]
    got = err.get("input")
    if kind == "missing":
        expected = _expected(_schema(op.args_model), loc)
        return path, f"{path}: required field is missing" + (f" (expected {expected})" if expected else "")
    if kind == "extra_forbidden":
        parent = path.rsplit(".", 1)[-1]
        known = _aliases(op.args_model) if len(loc) == 1 else []
        close = difflib.get_close_matches(str(parent), known, n=1, cutoff=0.5)
        tip = f"; did you mean {close[0]!r}?" if close else ""
        allowed = f" (allowed: {', '.join(sorted(known))})" if known and not close else ""
        return path, f"{path}: unknown field{tip}{allowed}"
    if kind == "value_error":
        text = str(err["msg"]).removeprefix("Value error, ")
        # Our validators name their field themselves; don't say it twice.
        return path, text if (not loc or text.startswith(f"{path}:")) else f"{path}: {text}"
    msg = f"{path}: {err['msg'][0].lower()}{err['msg'][1:]}, got {json.dumps(got, default=str)[:120]}"
    if (
        mode == "strict"
        and isinstance(got, str)
        and kind
        in (
            "int_type",
            "float_type",
            "bool_type",
            "list_type",
            "dict_type",
            "model_type",
            "int_parsing",
            "float_parsing",
            "bool_parsing",
        )
    ):
        msg += " (strict mode takes JSON types as they are; safe mode would convert this)"
    return path, msg


def invalid_params(op: Operation, exc: ValidationError, mode: Mode) -> InvalidParams:
    """One InvalidParams naming every bad field and what was expected."""
    errors = exc.errors(include_url=False)
    described = [_describe_error(e, op, mode) for e in errors]
    fields = list(dict.fromkeys(p for p, _ in described))
    lines = "; ".join(m for _, m in described)
    hint = f"Call list_operations with {{operation: {op.name!r}}} to see its args schema."
    if op.hint:
        hint = f"{op.hint} {hint}"
    only_missing = all(e["type"] == "missing" and len(e["loc"]) == 1 for e in errors)
    return InvalidParams(
        f"invalid args for {op.name!r}: {lines}",
        hint=hint,
        fields=fields,
        missing=fields if only_missing else None,
    )


def _control(
    args: dict[str, Any], default_mode: Mode | None
) -> tuple[Mode, bool, bool, list[dict[str, Any]]]:
    mode = args.pop("mode", None)
    if mode is None:
        mode = default_mode or "safe"
    if mode not in ("safe", "strict"):
        raise InvalidParams(f"mode: must be 'safe' or 'strict', got {mode!r}", fields=["mode"])
    changes: list[dict[str, Any]] = []
    flags = []
    for key in ("preview", "raw"):
        value = args.pop(key, False)
        if isinstance(value, str) and mode == "safe" and value.strip().lower() in ("true", "false"):
            changes.append(
                {
                    "field": key,
                    "change": "boolean sent as a string",
                    "from": value,
                    "to": value.strip().lower() == "true",
                }
            )
            value = value.strip().lower() == "true"
        if not isinstance(value, bool) and value is not None:
            raise InvalidParams(f"{key}: must be true or false, got {value!r}", fields=[key])
        flags.append(bool(value))
    return mode, flags[0], flags[1], changes


def validate(op: Operation, args: Any, *, mode: Mode | None = None) -> tuple[BaseModel, dict[str, Any]]:
    """(args model, meta) where meta = {mode, preview, raw, normalized}. Raises InvalidParams."""
    changes: list[dict[str, Any]] = []
    if args is None:
        args = {}
    if isinstance(args, str) and (mode or "safe") == "safe":
        decoded = decode_json(args) if args.strip() else {}
        if isinstance(decoded, dict):
            changes.append(
                {
                    "field": "(args)",
                    "change": "JSON-encoded string decoded to an object",
                    "from": args,
                    "to": decoded,
                }
            )
            args = decoded
    if not isinstance(args, dict):
        raise InvalidParams(
            f"args of {op.name!r} must be an object, got {type(args).__name__}",
            hint='Send args as a JSON object, e.g. {"websetId": "ws_..."}.',
            fields=["(args)"],
        )
    data = dict(args)
    eff_mode, preview, raw, control_changes = _control(data, mode)
    changes.extend(control_changes)
    if eff_mode == "safe":
        data, fixed = normalize(data, _schema(op.args_model))
        changes.extend(fixed)
    try:
        model = op.args_model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise invalid_params(op, exc, eff_mode) from None
    return model, {"mode": eff_mode, "preview": preview, "raw": raw, "normalized": changes}


async def dispatch(
    registry: Registry, name: str, args: dict[str, Any] | None, ctx: OpContext, *, mode: Mode | None = None
) -> Any:
    """Validate, run and project one operation call. Raises OrchError subclasses only.

    `args` may carry the control keys `mode` ("safe"|"strict"), `preview` and `raw`; `mode` here is
    the caller's default when args don't say.
    """
    op = registry.get(name)
    model, meta = validate(op, args, mode=mode)
    if meta["preview"]:
        out: dict[str, Any] = {
            "operation": op.name,
            "preview": True,
            "mode": meta["mode"],
            "args": model.model_dump(by_alias=True, exclude_unset=True, mode="json"),
        }
        if op.plan is not None:
            out["request"] = op.plan(model)
        cost = cost_preview(registry, op, model, ctx, validate)
        if cost is not None:  # what it would cost at Exa, nothing spent (operations/preview.py)
            out["cost"] = cost
        out["normalized"] = meta["normalized"]
        return out
    try:
        result = await op.handler(model, ctx)
    except asyncio.CancelledError:
        raise
    except GatewayError as exc:
        if op.hint and exc.status in (400, 422) and op.hint not in (exc.hint or ""):
            exc.hint = f"{exc.hint} {op.hint}" if exc.hint else op.hint
        raise
    except OrchError:
        raise
    except Exception as exc:
        logger.exception("operation %s failed", op.name)
        raise OrchError(f"{op.name} failed unexpectedly: {type(exc).__name__}: {exc}") from exc
    if not meta["raw"] and op.project is not None:
        result = op.project(result, model)
    if meta["normalized"] and isinstance(result, dict):
        result = {**result, "normalized": meta["normalized"]}
    return result
