"""What every Websets route shares: the store, JSON in and out, and body validation.

Contract: validators raise 400 `INVALID_REQUEST_BODY` with a message that names the field by its
JSON path (`search.criteria`, `options[3].label`) and says what is allowed, as Exa does.
`begin(request)` advances simulated time and returns (store, now); every handler calls it first.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from exa_orch.sim.faults import SimHTTPError, note_conflict, note_create, read_json
from exa_orch.sim.websets import engine
from exa_orch.sim.websets.store import ENTITY_TYPES, FORMATS, WebsetsStore


def store_of(request: Request) -> WebsetsStore:
    st: WebsetsStore = request.app.state.sim.extras["websets"]
    return st


def begin(request: Request) -> tuple[WebsetsStore, float]:
    """The store, advanced to now, and now (simulated seconds)."""
    st = store_of(request)
    return st, engine.advance(st)


async def body(request: Request) -> dict[str, Any]:
    return await read_json(request)


def json(content: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(content, status_code=status)


def bad(message: str) -> SimHTTPError:
    return SimHTTPError(400, message, "INVALID_REQUEST_BODY")


def created(request: Request, kind: str, obj: Any) -> None:
    """Record a successful create of `obj` (a record with id, external_id, metadata) for /_sim/stats
    and /_sim/log."""
    note_create(request, obj.external_id, kind=kind, obj_id=obj.id, metadata=getattr(obj, "metadata", None))


# Exa's spec takes `externalId` on webset creates only; the other creates carry `metadata`.
def refuse_external_id(body: dict[str, Any], kind: str) -> None:
    """400 for an `externalId` in a create body of `kind` (Exa's schema has no such field there)."""
    if "externalId" in body:
        raise bad(
            f"externalId is not a field of a {kind} create: Exa takes externalId on webset creates "
            "only; put your own key in metadata instead"
        )


def claim(request: Request, st: WebsetsStore, kind: str, raw: Any) -> str | None:
    """`st.claim_external_id` that also counts a 409 in /_sim/stats."""
    try:
        return st.claim_external_id(kind, raw)
    except SimHTTPError as exc:
        if exc.status == 409:
            note_conflict(request, str(raw))
        raise


# ---- field validators ----------------------------------------------------------------------------
def string(
    obj: dict[str, Any], key: str, path: str, *, lo: int = 1, hi: int = 5000, required: bool = True
) -> str | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise bad(f"{path} is required (a string of {lo} to {hi} characters)")
        return None
    if not isinstance(value, str) or not lo <= len(value) <= hi:
        raise bad(f"{path} must be a string of {lo} to {hi} characters")
    return value


def number(
    obj: dict[str, Any], key: str, path: str, *, lo: float = 1, hi: float | None = None, default: Any = None
) -> Any:
    value = obj.get(key, default)
    if value is None:
        raise bad(f"{path} is required (a number >= {lo})")
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or value < lo
        or (hi is not None and value > hi)
    ):
        raise bad(f"{path} must be a number >= {lo}" + (f" and <= {hi}" if hi is not None else ""))
    return int(value) if float(value).is_integer() else value


def boolean(obj: dict[str, Any], key: str, path: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise bad(f"{path} must be true or false")
    return value


def metadata(obj: dict[str, Any], path: str = "metadata") -> dict[str, str] | None:
    value = obj.get("metadata")
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(v, str) and len(v) <= 1000 for v in value.values()):
        raise bad(f"{path} must be an object of strings (at most 1000 characters each)")
    return dict(value)


def entity(obj: dict[str, Any], path: str) -> dict[str, Any] | None:
    value = obj.get("entity")
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("type") not in ENTITY_TYPES:
        raise bad(f"{path}.type must be one of {', '.join(ENTITY_TYPES)}")
    if value["type"] == "custom":
        string(value, "description", f"{path}.description", lo=2, hi=200)
        return {"type": "custom", "description": value["description"]}
    return {"type": value["type"]}


def criteria(obj: dict[str, Any], path: str, *, lo: int = 1) -> list[str] | None:
    value = obj.get("criteria")
    if value is None:
        return None
    if not isinstance(value, list) or not lo <= len(value) <= 5:
        raise bad(f"{path} must be a list of {lo} to 5 criteria; got {len(value) if isinstance(value, list) else value!r}"
                  " (Exa judges at most 5 criteria per search: merge or drop some)")  # fmt: skip
    out = []
    for n, c in enumerate(value):
        if not isinstance(c, dict):
            raise bad(f"{path}[{n}] must be an object with a description")
        out.append(str(string(c, "description", f"{path}[{n}].description", hi=1000)))
    return out


def sources(obj: dict[str, Any], key: str, path: str, *, relationship: bool = False) -> list[dict[str, Any]]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad(f"{path} must be a list of {{source, id}} objects")
    out = []
    for n, src in enumerate(value):
        if not isinstance(src, dict) or src.get("source") not in ("import", "webset"):
            raise bad(f"{path}[{n}].source must be 'import' or 'webset'")
        string(src, "id", f"{path}[{n}].id", hi=300)
        entry: dict[str, Any] = {"source": src["source"], "id": src["id"]}
        if relationship and src.get("relationship") is not None:
            rel = src["relationship"]
            if not isinstance(rel, dict):
                raise bad(f"{path}[{n}].relationship must be an object {{definition, limit}}")
            string(rel, "definition", f"{path}[{n}].relationship.definition")
            entry["relationship"] = {"definition": rel["definition"],
                                     "limit": number(rel, "limit", f"{path}[{n}].relationship.limit", hi=10)}  # fmt: skip
        out.append(entry)
    return out


def enrichment_fields(obj: dict[str, Any], path: str, *, partial: bool = False) -> dict[str, Any]:
    """Validated description/format/options/metadata of an enrichment create (or update if partial)."""
    out: dict[str, Any] = {}
    desc = string(obj, "description", f"{path}description", hi=5000, required=not partial)
    if desc is not None:
        out["description"] = desc
    fmt = obj.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise bad(f"{path}format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if fmt is not None or not partial:
        out["format"] = fmt or "text"
    options = obj.get("options")
    if options is not None:
        if not isinstance(options, list) or not 1 <= len(options) <= 150:
            raise bad(f"{path}options must be a list of 1 to 150 {{label}} objects; got "
                      f"{len(options) if isinstance(options, list) else options!r}")  # fmt: skip
        for n, opt in enumerate(options):
            if not isinstance(opt, dict) or not isinstance(opt.get("label"), str) or not opt["label"]:
                raise bad(f"{path}options[{n}].label must be a non-empty string")
        out["options"] = [{"label": o["label"]} for o in options]
    elif out.get("format") == "options" and not partial:
        raise bad(f"{path}options is required when format is 'options' (1 to 150 {{label}} objects)")
    meta = metadata(obj, f"{path}metadata")
    if meta is not None:
        out["metadata"] = meta
    if obj.get("title") is not None:
        out["title"] = str(obj["title"])
    return out
