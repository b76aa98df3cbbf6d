"""How operations create at Exa: `create_op` (one create through the port's `create_or_find`,
exa_orch/exa/creates.py, which holds the rule and the lookups), and `mark_create` (a create run as a
task gets the task's key)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.exa import creates
from exa_orch.exa.creates import create_or_find, mark_body
from exa_orch.gateway.marks import CREATE_MARK, new_key
from exa_orch.gateway.paths import route_safe

from ._http import Rest, request
from .context import OpContext
from .registry import CreateKey, Operation, Registry

Json = dict[str, Any]


async def find_in_list(ctx: OpContext, path: str, key: str, query: Json | None = None) -> Json | None:
    """The object of the list at `path` that carries mark `key` (`creates.find_in_list`)."""
    return await creates.find_in_list(ctx.http, path, key, query)


async def find_in_webset(ctx: OpContext, webset_id: str, field: str, key: str) -> Json | None:
    """The search or enrichment of a webset that carries mark `key` (`creates.find_in_webset`)."""
    return await creates.find_in_webset(ctx.http, webset_id, field, key)


async def find_webset(ctx: OpContext, external_id: str) -> Json | None:
    """The webset with id or externalId `external_id`, or None (`creates.find_webset`)."""
    return await creates.find_webset(ctx.http, external_id)


Locate = Callable[[OpContext, Any, str], Awaitable[Json | None]]
"""How an operation's object is found again: (ctx, the call's args, the create's key) -> it or None."""


def create_op(
    name: str,
    model: type[Any],
    path: str,
    summary: str,
    *,
    find: Locate,
    by_external_id: bool = False,
    **kw: Any,
) -> Any:
    """An Operation that POSTs one create (planned like `rest_op`) through `create_or_find`.

    Its key is the caller's `externalId` (`by_external_id`, webset creates) or `metadata[exaOrchKey]`,
    else a new one exa-orch adds to the body (and so to the answer).
    """
    rest = Rest("POST", path)

    async def handler(args: Any, ctx: OpContext) -> Json:
        plan = rest.plan(args)
        body: Json = dict(plan.get("body") or {})
        chosen = False  # a webset's own externalId is never looked up first: Exa answers 409 for it
        if by_external_id:
            key = body.get("externalId")
            if not isinstance(key, str) or not key:
                key = body["externalId"] = new_key()
            elif not route_safe(key):
                # The object is found again (and later read) by GET /websets/{externalId}; a key no
                # path can carry would make it unreachable by that key, and a lost answer a failure.
                raise InvalidParams(
                    f"externalId: {key[:40]!r} can't be used as an id ('.' and '..' and ids holding "
                    "'/' or '\\' can't be sent in a URL, so the webset could never be found by it)",
                    hint="Choose an externalId without '/' or '\\' that is not '.' or '..' "
                    "(e.g. 'my-project-2026-01'), or leave it out and use the one exa-orch makes.",
                    fields=["externalId"],
                )
        else:
            body, key, chosen = mark_body(body)

        async def send() -> Json:
            answer: Json = await request(ctx, "POST", plan["path"], query=plan.get("query"), body=body)
            return answer

        return await create_or_find(send, lambda: find(ctx, args, key), what=name, find_first=chosen)

    key_arg: CreateKey = "externalId" if by_external_id else "metadata"
    return Operation(name, model, handler, summary, plan=rest.plan, create_key=key_arg, **kw)


def declared_op(registry: Registry, name: str) -> Operation | None:
    """The registered operation `name`, or None when `registry` has none of that name (dispatch
    then answers UnknownOperation; nothing is keyed)."""
    return registry.get(name) if name in registry else None


def mark_create(op: Operation | None, call_args: dict[str, Any], key: str) -> str | None:
    """Give a create run as a task the task's own key (unless the caller gave one), where the
    operation declares its key goes (`Operation.create_key`), so a rerun after a crash finds the
    object instead of making a second (operations/_creates.py). The externalId the call carries
    when that is the key, else None."""
    if op is None or op.create_key is None:
        return None
    if op.create_key == "metadata":
        metadata = call_args.get("metadata")
        metadata = dict(metadata) if isinstance(metadata, dict) else {}
        metadata.setdefault(CREATE_MARK, key)
        call_args["metadata"] = metadata
        return None
    given = call_args.get("externalId", call_args.get("external_id"))
    if given is None:
        given = call_args["externalId"] = key
    return given if isinstance(given, str) and given else None
