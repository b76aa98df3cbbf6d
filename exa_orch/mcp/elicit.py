"""Elicitation and its fallback (seed 000 sections 5.5, 6.5, 11.1) for the MCP face.

- A call missing required args: a client that offers form elicitation is asked for them (the
  fields' own JSON Schema, when they are plain strings, numbers, booleans or enums); the call then
  runs once more with the answers. Otherwise, or when the user declines, the isError result keeps
  the INVALID_PARAMS body and adds the section 6.5 fields `error: "input_required"`, `instruction`
  and `retryWith` (the call to make, with placeholders where values are needed).
- A server started without EXA_API_KEY: the first call that reaches Exa asks for the key by a form;
  the key is given to the gateway (memory only, redacted from every log) and the call runs again.
  Without elicitation the CONFIG_ERROR result says how to set the key.
"""

from __future__ import annotations

import logging
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.operations import ClientPeer
from exa_orch.operations.context import PeerError

log = logging.getLogger(__name__)

PLACEHOLDER = "<your_value_here>"
_FORM_TYPES = {"string", "number", "integer", "boolean"}

API_KEY_FORM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "apiKey": {
            "type": "string",
            "title": "Exa API Key",
            "description": "Your Exa API key from dashboard.exa.ai (kept in this server's memory only)",
        }
    },
    "required": ["apiKey"],
}


def _form_field(schema: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The elicitation schema of one arg (a primitive, or an enum of strings); None if a form can't
    carry it (objects, arrays, unions)."""
    node = dict((schema.get("properties") or {}).get(name) or {})
    if not node:
        return None
    options = [n for n in node.get("anyOf", [node]) if n.get("type") != "null"]
    if len(options) != 1:
        return None
    node = {**node, **options[0]}
    kind = node.get("type")
    if "enum" in node and all(isinstance(v, str) for v in node["enum"]):
        kind = "string"
    if kind not in _FORM_TYPES:
        return None
    out: dict[str, Any] = {"type": kind, "title": name}
    for key in ("description", "enum", "minimum", "maximum", "minLength", "maxLength", "format"):
        if key in node:
            out[key] = node[key]
    return out


def missing_form(args_schema: dict[str, Any], missing: list[str]) -> dict[str, Any] | None:
    """A form asking for every missing arg, or None when one of them can't be asked by a form."""
    props: dict[str, Any] = {}
    for name in missing:
        field = _form_field(args_schema, name)
        if field is None:
            return None
        props[name] = field
    return {"type": "object", "properties": props, "required": list(missing)} if props else None


async def ask_missing(
    peer: ClientPeer | None, operation: str, args_schema: dict[str, Any], exc: InvalidParams
) -> dict[str, Any] | None:
    """The user's values for the args `exc` says are missing, or None (no form, declined, failed)."""
    if peer is None or not peer.elicitation or not exc.missing:
        return None
    form = missing_form(args_schema, exc.missing)
    if form is None:
        return None
    message = f"{operation} needs {', '.join(exc.missing)} to continue."
    try:
        answer = await peer.elicit(message, form)
    except PeerError as failed:
        log.info("elicitation for %s failed: %s", operation, failed)
        return None
    if not answer or any(name not in answer for name in exc.missing):
        return None
    return {name: answer[name] for name in exc.missing}


def input_required(
    body: dict[str, Any], exc: InvalidParams, *, operation: str, args_key: str, args: dict[str, Any]
) -> dict[str, Any]:
    """`body` (an INVALID_PARAMS error body) with the section 6.5 input_required fields added."""
    if not exc.missing:
        return body
    names = ", ".join(exc.missing)
    retry_args = {**args, **dict.fromkeys(exc.missing, PLACEHOLDER)}
    return {
        **body,
        "error": "input_required",
        "instruction": f"Please provide {names} in '{args_key}' and retry the operation.",
        "retryWith": {"operation": operation, args_key: retry_args},
    }


async def ask_api_key(peer: ClientPeer | None, gateway: Any) -> bool:
    """Ask the user for the Exa API key by a form and give it to the gateway; True when it was given."""
    if peer is None or not peer.elicitation or gateway is None:
        return False
    try:
        answer = await peer.elicit("exa-orch needs your Exa API key to call Exa.", API_KEY_FORM)
    except PeerError as failed:
        log.info("asking for the API key failed: %s", failed)
        return False
    key = str((answer or {}).get("apiKey") or "").strip()
    if not key:
        return False
    gateway.set_api_key(key)
    log.info("Exa API key received from the client (held in memory only)")
    return True
