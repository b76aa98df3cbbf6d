"""The calling MCP client's features beyond tools, for operations (seed 000 sections 5.4-5.6, 6.2).

`SessionPeer` implements `exa_orch.operations.ClientPeer` over one request's `ServerSession`:
sampling (`sampling/createMessage`, with a required tool when the client declares
`sampling.tools`), form elicitation (`elicitation/create`), URL-mode elicitation (`elicitation/create`
with `mode: "url"` and `notifications/elicitation/complete`, for secrets: see `keypage`) and roots
(`roots/list`, cached per connection until `notifications/roots/list_changed`). Flags come from the client's declared
capabilities, and are all False when the request has no back-channel (a 2026-07-28 single
exchange), so operations answer their fallback shape instead of waiting for nothing.

Every request to the client is bounded (`PEER_TIMEOUT_S`; elicitation waits for a person, so
longer): a client that never answers costs the call a timeout and a fallback, not a hang. A
failure raises `PeerError`, which operations turn into their fallback.

The requests go through `send_request` with the typed request models rather than the SDK's
`create_message`/`list_roots` helpers, which warn (deprecated for 2026-07-28) at every call.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast
from urllib.parse import unquote, urlparse

import anyio
import mcp_types as types
from mcp.shared.message import ServerMessageMetadata

from exa_orch.operations.context import PeerError

log = logging.getLogger(__name__)

PEER_TIMEOUT_S = 120.0  # a model's answer
ELICIT_TIMEOUT_S = 600.0  # a person filling a form
ROOTS_TIMEOUT_S = 10.0
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
ROOTS_STATE_KEY = "exa_orch.roots"  # Connection.state: the cached roots of one connection


class SessionPeer:
    """ClientPeer for one tools/call, from its request context."""

    def __init__(
        self,
        session: Any,
        request_id: Any,
        *,
        related_task: str | None = None,
        server_dirs: Sequence[str] | None = None,
    ) -> None:
        self._session = session
        self._request_id = request_id
        self.server_dirs = server_dirs  # None on stdio; on HTTP, EXA_ORCH_IMPORT_DIRS (ClientPeer)
        # Asking for a task's input: each elicitation carries the related-task `_meta` (seed 000
        # section 5.2.1), so the client ties it to the task, not to a call.
        self._params_meta: types.RequestParamsMeta | None = (
            cast(types.RequestParamsMeta, {RELATED_TASK_META: {"taskId": related_task}})
            if related_task
            else None
        )
        caps: types.ClientCapabilities | None = session.client_capabilities
        if request_id is None:
            # Not tied to a call (a task's input, asked after its call answered): the session's own
            # channel (stdio; the standalone stream on HTTP), when the connection has one.
            reachable = bool(getattr(getattr(session, "_connection", None), "has_standalone_channel", False))
        else:
            reachable = bool(getattr(session, "can_send_request", False))
        self.sampling = reachable and bool(caps and caps.sampling is not None)
        self.sampling_tools = self.sampling and bool(
            caps and caps.sampling and caps.sampling.tools is not None
        )
        elicitation = caps.elicitation if caps else None
        # Section 6.2: form when declared, or when the client declares elicitation with no mode.
        self.elicitation = (
            reachable
            and elicitation is not None
            and (elicitation.form is not None or elicitation.url is None)
        )
        # URL mode only when declared (an empty `elicitation: {}` means form only).
        self.url_elicitation = reachable and elicitation is not None and elicitation.url is not None
        self.roots = reachable and bool(caps and caps.roots is not None)

    @property
    def connection_key(self) -> int:
        """Which connection this client speaks on (the same for every request of one session)."""
        return id(getattr(self._session, "_connection", self._session))

    def for_task(self, task_id: str, *, in_call: bool) -> SessionPeer:
        """This client, asked for task `task_id`'s input: each request carries the related-task
        `_meta`; `in_call`: on this call's stream (the call waits for the answer), else on the
        session's own (the call answers first)."""
        return SessionPeer(
            self._session,
            self._request_id if in_call else None,
            related_task=task_id,
            server_dirs=self.server_dirs,
        )

    def _meta(self) -> ServerMessageMetadata:
        # Related to the tools/call: on streamable HTTP the request rides that POST's stream.
        return ServerMessageMetadata(related_request_id=self._request_id)

    async def _send(self, request: Any, result_type: Any, limit_s: float, what: str) -> Any:
        try:
            with anyio.fail_after(limit_s):
                return await self._session.send_request(request, result_type, metadata=self._meta())
        except TimeoutError:
            raise PeerError(f"the client did not answer {what} within {limit_s:.0f} s") from None
        except Exception as exc:  # the client's error, a bad result, no back-channel
            raise PeerError(f"the client's {what} failed: {exc}") from None

    async def sample(
        self, *, system: str, prompt: str, max_tokens: int, tool: dict[str, Any] | None = None
    ) -> Any:
        """The model's answer: the tool input (dict) when `tool` is used, else its text."""
        if not self.sampling:
            raise PeerError("the client does not offer sampling")
        use_tool = tool is not None and self.sampling_tools
        params = types.CreateMessageRequestParams(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(text=prompt))],
            system_prompt=system,
            max_tokens=max_tokens,
            tools=[
                types.Tool(
                    name=tool["name"], description=tool["description"], input_schema=tool["inputSchema"]
                )
            ]
            if use_tool and tool is not None
            else None,
            tool_choice=types.ToolChoice(mode="required") if use_tool else None,
        )
        result_type = types.CreateMessageResultWithTools if use_tool else types.CreateMessageResult
        result = await self._send(
            types.CreateMessageRequest(params=params), result_type, PEER_TIMEOUT_S, "sampling/createMessage"
        )
        blocks = result.content if isinstance(result.content, list) else [result.content]
        if use_tool:
            for block in blocks:
                if isinstance(block, types.ToolUseContent):
                    return dict(block.input)
        texts = [b.text for b in blocks if isinstance(b, types.TextContent)]
        if not texts:
            raise PeerError("the client's model answered with neither text nor the requested tool call")
        return "\n".join(texts)

    async def elicit(self, message: str, schema: dict[str, Any]) -> dict[str, Any] | None:
        """The user's form content, or None when they declined or cancelled."""
        if not self.elicitation:
            raise PeerError("the client does not offer form elicitation")
        params = types.ElicitRequestFormParams(
            message=message, requested_schema=schema, _meta=self._params_meta
        )
        result = await self._send(
            types.ElicitRequest(params=params), types.ElicitResult, ELICIT_TIMEOUT_S, "elicitation/create"
        )
        if result.action != "accept" or not isinstance(result.content, dict):
            return None
        return dict(result.content)

    async def elicit_url(self, message: str, url: str, elicitation_id: str) -> str:
        """Ask the user to open `url` (URL mode); their action: accept (consented to open it),
        decline or cancel. Accepting says nothing of what they did there."""
        if not self.url_elicitation:
            raise PeerError("the client does not offer URL-mode elicitation")
        params = types.ElicitRequestURLParams(
            message=message, url=url, elicitation_id=elicitation_id, _meta=self._params_meta
        )
        result = await self._send(
            types.ElicitRequest(params=params), types.ElicitResult, ELICIT_TIMEOUT_S, "elicitation/create"
        )
        return str(result.action)

    async def elicitation_complete(self, elicitation_id: str) -> None:
        """`notifications/elicitation/complete` for a URL-mode elicitation, to this client only (on
        the stream of the call that asked); a failure is only logged (delivery is not guaranteed)."""
        try:
            await self._session.send_notification(
                types.ElicitCompleteNotification(
                    params=types.ElicitCompleteNotificationParams(elicitation_id=elicitation_id)
                ),
                self._request_id,
            )
        except Exception:
            log.debug("notifications/elicitation/complete dropped", exc_info=True)

    async def list_roots(self) -> list[str]:
        """The client's roots as local paths, from this connection's cache or `roots/list`."""
        if not self.roots:
            raise PeerError("the client does not offer roots")
        state = _connection_state(self._session)
        cached = state.get(ROOTS_STATE_KEY) if state is not None else None
        if cached is not None:
            return list(cached)
        result = await self._send(
            types.ListRootsRequest(), types.ListRootsResult, ROOTS_TIMEOUT_S, "roots/list"
        )
        paths = [p for p in (root_path(str(r.uri)) for r in result.roots) if p is not None]
        if state is not None:
            state[ROOTS_STATE_KEY] = paths
        return paths


def root_path(uri: str) -> str | None:
    """A file:// root URI as a local path; None for any other scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return str(Path(unquote(parsed.path)))


def _connection_state(session: Any) -> dict[str, Any] | None:
    # ServerSession is per request; the roots belong to the connection behind it.
    connection = getattr(session, "_connection", None)
    state = getattr(connection, "state", None)
    return state if isinstance(state, dict) else None


def forget_roots(session: Any) -> None:
    """Drop a connection's cached roots (on notifications/roots/list_changed)."""
    state = _connection_state(session)
    if state is not None:
        state.pop(ROOTS_STATE_KEY, None)
