"""Elicitation and its fallback (seed 000 sections 5.5, 6.5, 11.1) for the MCP face.

- A call missing required args: a client that offers form elicitation is asked for them (the
  fields' own JSON Schema, when they are plain strings, numbers, booleans or enums); the call then
  runs once more with the answers. Otherwise, or when the user declines, the isError result keeps
  the INVALID_PARAMS body and adds the section 6.5 fields `error: "input_required"`, `instruction`
  and `retryWith` (the call to make, with placeholders where values are needed).
- A server started without EXA_API_KEY: a call that reaches Exa for a principal with no key of its
  own asks that principal for one by URL-mode elicitation (never by a form: the specification forbids
  secrets in forms), a one-time link to the key page (`keypage`) where the person pastes it; the key
  then serves that principal's calls and tasks alone (memory only, redacted from every log) and the
  call runs again. A task whose run needs the key waits input_required (mcp/tasks.py asks for it). A key Exa refuses (401) is forgotten and asked for again, up to KEY_ASKS times in
  one call (then KeysRefused). A client without URL-mode elicitation gets the CONFIG_ERROR result
  saying how to set the key.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, runtime_checkable

from exa_orch.errors import AuthenticationError, InvalidParams
from exa_orch.mcp.keypage import KeyPage
from exa_orch.operations import ClientPeer
from exa_orch.operations.context import PeerError

log = logging.getLogger(__name__)

PLACEHOLDER = "<your_value_here>"
KEY_ASKS = 3  # asks for a key in one call: the first, then after each key Exa refused
_FORM_TYPES = {"string", "number", "integer", "boolean"}


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


@runtime_checkable
class UrlPeer(Protocol):
    """A client that may be sent URL-mode elicitations (`peer.SessionPeer`)."""

    url_elicitation: bool

    async def elicit_url(self, message: str, url: str, elicitation_id: str) -> str: ...

    async def elicitation_complete(self, elicitation_id: str) -> None: ...


class KeysRefused(AuthenticationError):
    """Exa refused every key a principal gave in one call (KEY_ASKS of them)."""

    def __init__(self, principal: str, asks: int) -> None:
        super().__init__(
            f"Exa refused the API key {principal} gave, {asks} times in a row; this call stops here",
            hint="Check the key at https://dashboard.exa.ai/api-keys (copy it whole), then call again: "
            "you will be asked once more. Or the operator sets EXA_API_KEY in the server's environment.",
            status=401,
        )


async def ask_api_key(
    peer: ClientPeer | None,
    page: KeyPage | None,
    principal: str,
    *,
    refused: bool,
    task_id: str | None = None,
) -> bool:
    """Ask `principal` for their Exa API key by URL-mode elicitation (a one-time link to the key
    page); True once a key is held for them (given there, or meanwhile by another of their calls).
    `task_id`: the ask is for that task's input (the message names it).

    False when it can't be asked (no URL-mode elicitation, no page), the user declines or cancels,
    or the link expires unanswered: the caller then raises what it had."""
    if page is None or not isinstance(peer, UrlPeer) or not peer.url_elicitation:
        return False
    async with page.asking(principal):  # one link per principal at a time
        if page.has_key(principal):  # another call of theirs was answered while this one waited
            return True
        link = await page.open_link(principal)
        why = "Exa refused the key given before" if refused else "This server has no Exa API key for you"
        if task_id is not None:
            why = f"Your task {task_id} waits for an Exa API key: {why[0].lower()}{why[1:]}"
        message = (
            f"{why} ({principal}). Open this link (a page exa-orch serves on 127.0.0.1 of the machine "
            "it runs on) and paste your Exa API key there: it is not sent through this client, it "
            "serves only your calls and tasks, and it is kept in memory only."
        )
        if page.needs_proof(principal):
            message += (
                " The page also asks for your exa-orch token (the bearer token this client sends), "
                "so that no one else can answer the link."
            )
        try:
            action = await peer.elicit_url(message, link.url, link.elicitation_id)
            if action != "accept":
                log.info(
                    "the key link for %s was %s", principal, "declined" if action == "decline" else action
                )
                return page.has_key(principal)  # given on the page all the same
            if not await link.wait():
                log.info("the key link for %s expired unanswered", principal)
                return False
        except PeerError as failed:
            log.info("asking %s for the API key failed: %s", principal, failed)
            return False
        finally:
            page.close_link(link)
    await peer.elicitation_complete(link.elicitation_id)
    return True


async def ask_key_for_task(peer: ClientPeer | None, page: KeyPage | None, principal: str) -> None:
    """Before a task is made for `principal`: its run signs its calls with its owner's key, so ask
    for one now, while the owner's client is here. Unanswered, the task is made all the same, and
    its run waits input_required for the key (mcp/tasks.py asks again when the owner polls it)."""
    if page is not None and not page.has_key(principal):
        await ask_api_key(peer, page, principal, refused=False)
