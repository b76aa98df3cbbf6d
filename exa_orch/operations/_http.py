"""Operations' calls to Exa with raw camelCase JSON: the port's wire level (`exa_orch.exa.wire`)
on the call's gateway, and `Rest` / `rest_op` (an Args model planned onto one Exa endpoint).

Websets and the search family go through `ctx.http` so args pass to Exa exactly as the caller
wrote them (exa-py's models would rename or drop fields); handlers only ever see GatewayError
subclasses (`wire.request`).
"""

from __future__ import annotations

from typing import Any

from exa_orch.exa import wire
from exa_orch.exa.wire import WEBSETS, invalid_url, raise_for_status, segment

from .context import OpContext
from .models import Args
from .registry import Operation

__all__ = ["WEBSETS", "Rest", "invalid_url", "raise_for_status", "request", "rest_op", "segment"]


async def request(
    ctx: OpContext,
    method: str,
    path: str,
    *,
    query: dict[str, Any] | None = None,
    body: Any = None,
) -> Any:
    """`wire.request` on the call's gateway (`ctx.http`): the decoded JSON answer."""
    return await wire.request(ctx.http, method, path, query=query, body=body)


class Rest:
    """How an Args model maps onto one Exa endpoint: `{field}` in `path` are path params (snake_case
    field names); the other set fields go to the query (GET/DELETE, or `query` names) or the body."""

    def __init__(
        self, method: str, path: str, *, query: tuple[str, ...] = (), body: bool | None = None
    ) -> None:
        self.method = method
        self.path = path
        self.query_fields = query
        self.has_body = method in ("POST", "PATCH", "PUT") if body is None else body

    def plan(self, args: Args) -> dict[str, Any]:
        """{method, path, query?, body?}: the request this call sends."""
        fields = type(args).model_fields
        names = [n for n in fields if "{" + n + "}" in self.path]
        path = self.path.format(**{n: segment(getattr(args, n), fields[n].alias or n) for n in names})
        rest = args.wire(exclude=set(names))
        aliases = {n: (f.alias or n) for n, f in type(args).model_fields.items()}
        q_aliases = {aliases.get(n, n) for n in self.query_fields}
        out: dict[str, Any] = {"method": self.method, "path": path}
        query = {k: v for k, v in rest.items() if k in q_aliases or not self.has_body}
        if query:
            out["query"] = query
        if self.has_body:
            out["body"] = {k: v for k, v in rest.items() if k not in query}
        return out

    async def send(self, args: Args, ctx: OpContext) -> Any:
        """Send the planned request; the decoded JSON answer."""
        plan = self.plan(args)
        return await request(
            ctx, plan["method"], plan["path"], query=plan.get("query"), body=plan.get("body")
        )


def rest_op(
    name: str,
    model: type[Args],
    method: str,
    path: str,
    summary: str,
    *,
    project: Any = None,
    query: tuple[str, ...] = (),
    hint: str | None = None,
    secret_result: bool = False,
) -> Operation:
    """An Operation whose handler is one Exa call planned by `Rest(method, path, query=...)`;
    read-only when that call is a GET."""
    rest = Rest(method, path, query=query)
    return Operation(
        name,
        model,
        rest.send,
        summary,
        project=project,
        plan=rest.plan,
        hint=hint,
        secret_result=secret_result,
        read_only=method.upper() == "GET",
    )
