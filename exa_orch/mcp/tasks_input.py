"""What a task waiting `input_required` needs from its owner, asked of an MCP client.

`TaskInputs` is the MCP Tasks bridge's (`exa_orch.mcp.tasks`) part that asks: the Exa API key (a
link to the key page, by URL-mode elicitation tied to the task on 2025-11-25, or as a 2026-07-28
`inputRequests` entry answered through `tasks/update`) and a path import's roots (the file read
inside the client's roots). One ask per task at a time; a connection that was asked and did not
answer is not asked again at its every poll. Every ask is best-effort: a failed one leaves the task
waiting for the next poll, never raises into the request that triggered it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from exa_orch.errors import OrchError
from exa_orch.mcp import tasks_wire as wire
from exa_orch.mcp.elicit import ask_api_key
from exa_orch.mcp.keypage import KeyLink, KeyPage
from exa_orch.mcp.peer import SessionPeer, root_path
from exa_orch.operations._roots import read_inside_roots
from exa_orch.operations.imports import MAX_IMPORT_BYTES
from exa_orch.runtime import Principal, TaskService, input_kind
from exa_orch.store import INPUT_REQUEST_META, TaskRecord, TaskStatus

log = logging.getLogger(__name__)

MAX_UNANSWERED = 10_000
KEY_REQUEST = "exaApiKey"  # the inputRequests key of a waiting task's key link (2026-07-28)
ROOTS_REQUEST = "roots"  # the inputRequests key of a waiting path import's roots/list


class TaskInputs:
    """Asks for what waiting tasks need, on behalf of one server's MCP Tasks bridge.

    `service` returns the runtime's TaskService (read at each use, as the bridge does)."""

    def __init__(self, server: Server[Any], service: Callable[[], TaskService]) -> None:
        self._server = server
        self._service = service
        # Asks for a waiting task's input in flight (one per task), and the key links that 2026
        # tasks/get answers carry as inputRequests (one per task while it waits).
        self._asking: dict[str, asyncio.Task[bool]] = {}
        self._links: dict[str, KeyLink] = {}
        self._unanswered: set[tuple[str, int]] = set()  # (task, connection) asked without an answer

    async def answer_update(self, record: TaskRecord, responses: Mapping[str, Any]) -> None:
        """SEP-2663 tasks/update's input responses for a waiting task."""
        roots = responses.get(ROOTS_REQUEST)
        if isinstance(roots, Mapping) and input_kind(record) == "root":
            # The client's roots, answered through the task: the file is read inside them.
            await self.read_for_task(record, GivenRoots(roots))
        # The key link's response: accepting says only that the person opens it (the key reaches
        # the server on the page, and resumes the task); declining closes it.
        response = responses.get(KEY_REQUEST)
        link = self._links.get(record.id)
        if (
            isinstance(response, Mapping)
            and link is not None
            and response.get("action") in ("decline", "cancel")
        ):
            page = self.key_page()
            if page is not None:
                page.close_link(link)
            self._links.pop(record.id, None)

    def key_page(self) -> KeyPage | None:
        """The server's key page (ExaOrchServer.key_page); None when nobody is asked for a key."""
        page = getattr(self._server, "key_page", None)
        return page if isinstance(page, KeyPage) else None

    def _server_dirs(self) -> Sequence[str] | None:
        """The folders a remote client's files are read in (ExaOrchServer.server_dirs); None on stdio."""
        dirs = getattr(self._server, "server_dirs", None)
        return tuple(dirs) if dirs is not None else None

    def start_ask(
        self, record: TaskRecord, peer: SessionPeer, *, unasked: bool = False
    ) -> asyncio.Task[bool] | None:
        """Ask `peer` for what the waiting task needs, once per task at a time (an ask in flight is
        returned instead); None when it can't be asked (the kind, no page, no URL-mode elicitation).
        `unasked` (an ask nobody requested: a status change, a poll): not when this connection was
        asked for this task already and did not give it, so a client that declined is not asked
        again at its every poll (a `tasks/result` asks again)."""
        running = self._asking.get(record.id)
        if running is not None and not running.done():
            return running
        kind = input_kind(record)
        if kind == "apiKey" and self.key_page() is not None and peer.url_elicitation:
            ask = self._ask_for_key(record, peer)
        elif kind == "root" and (peer.roots or self._server_dirs()):
            ask = self.read_for_task(record, peer)
        else:
            return None
        seen = (record.id, peer.connection_key)
        if unasked and seen in self._unanswered:
            ask.close()
            return None
        job = asyncio.get_running_loop().create_task(ask)
        self._asking[record.id] = job

        def done(finished: asyncio.Task[bool]) -> None:
            if self._asking.get(record.id) is finished:
                del self._asking[record.id]
            if finished.cancelled() or not finished.result():
                if len(self._unanswered) >= MAX_UNANSWERED:
                    self._unanswered.clear()  # a bound, not a record: forgetting re-asks once
                self._unanswered.add(seen)

        job.add_done_callback(done)
        return job

    async def _ask_for_key(self, record: TaskRecord, peer: SessionPeer) -> bool:
        """URL-mode elicitation of the owner's key for a waiting task; True once given (the task
        resumed). Never raises: a failed ask leaves the task waiting for the next poll."""
        owner = record.principal
        if owner is None:
            return False
        request = record.meta.get(INPUT_REQUEST_META) or {}
        refused = "refused" in str(request.get("message") or "")
        try:
            given = await ask_api_key(peer, self.key_page(), owner, refused=refused, task_id=record.id)
            if given:
                await self._service().resume_waiting(Principal(owner), "apiKey")
            return given
        except Exception:
            log.warning("asking for task %s's key failed", record.id, exc_info=True)
            return False

    async def read_for_task(self, record: TaskRecord, peer: Any) -> bool:
        """A path import waiting for its owner's roots: read the file inside `peer`'s roots (the
        checks of a plain call) and resume the task with its text in place of the path. True once
        resumed; False (the task still waiting) when the file can't be read there, logged."""
        request = record.meta.get(INPUT_REQUEST_META) or {}
        path = request.get("path")
        inner = record.args.get("args")
        if record.type != "operation" or not isinstance(path, str) or not isinstance(inner, dict):
            return False
        try:
            text = await read_inside_roots(peer, path, MAX_IMPORT_BYTES, server_dirs=self._server_dirs())
            args = {**record.args, "args": {**{k: v for k, v in inner.items() if k != "path"}, "csv": text}}
            return await self._service().resume_with_args(record, args) is not None
        except OrchError as exc:
            log.info("task %s: its file can't be read in its owner's roots: %s", record.id, exc.message)
            return False
        except Exception:
            log.warning("reading task %s's file failed", record.id, exc_info=True)
            return False

    async def wait_asking(
        self, ctx: ServerRequestContext[Any, Any], task_id: str, principal: Principal
    ) -> TaskRecord:
        """tasks/result's wait: until the task is terminal, asking this client (on this request's
        stream, tied to the task) whenever it waits for input; the waiting task when nobody could be
        asked or the person did not give it."""
        while True:
            # The spec says block until terminal; the client ends the wait by cancelling this request.
            record = await self._service().wait(task_id, principal=principal, until_input=True)
            if record.status is not TaskStatus.INPUT_REQUIRED:
                return record
            running = self._asking.get(record.id)
            if running is not None and not running.done() and await running:
                continue  # asked elsewhere (the session that made it) and given: wait on
            ask = self.start_ask(record, SessionPeer(ctx.session, ctx.request_id, related_task=record.id))
            if ask is not None and await ask:
                continue
            record = await self._service().get(task_id, principal=principal)
            if record.terminal or record.status is TaskStatus.INPUT_REQUIRED:
                return record
            # Not asked here, yet no longer waiting: another ask (the session that made it) gave
            # what it needed after `wait` read it. It runs again: wait on, never answer a running task.

    async def input_requests(self, ctx: ServerRequestContext[Any, Any], record: TaskRecord) -> dict[str, Any]:
        """SEP-2663 inputRequests of a waiting task, for a client that declares URL-mode
        elicitation: the key page's link for its owner (one live link per task)."""
        page = self.key_page()
        caps = ctx.session.client_capabilities
        if input_kind(record) == "root" and caps is not None and caps.roots is not None:
            return {ROOTS_REQUEST: {"method": "roots/list", "params": {"_meta": wire.related(record.id)}}}
        url_mode = bool(caps and caps.elicitation is not None and caps.elicitation.url is not None)
        if input_kind(record) != "apiKey" or page is None or record.principal is None or not url_mode:
            return {}
        link = self._links.get(record.id)
        if link is None or link.given.is_set() or link.expires <= time.monotonic():
            link = self._links[record.id] = await page.open_link(record.principal)
        params = {
            "mode": "url",
            "message": f"Your task {record.id} waits for an Exa API key: open this link (a page exa-orch "
            "serves on 127.0.0.1 of the machine it runs on) and paste your key there; it is not sent "
            "through this client and serves only your calls and tasks. The task resumes once it is given.",
            "url": link.url,
            "elicitationId": link.elicitation_id,
            "_meta": wire.related(record.id),
        }
        return {KEY_REQUEST: {"method": "elicitation/create", "params": params}}


class GivenRoots:
    """The roots a 2026-07-28 client answered a task's roots/list input request with, as the
    `roots` part of a ClientPeer (file:// URIs as local paths; others ignored)."""

    roots = True

    def __init__(self, result: Mapping[str, Any]) -> None:
        listed = result.get("roots")
        uris = [r.get("uri") for r in listed if isinstance(r, Mapping)] if isinstance(listed, list) else []
        self._paths = [p for p in (root_path(str(u)) for u in uris if u) if p is not None]

    async def list_roots(self) -> list[str]:
        return list(self._paths)
