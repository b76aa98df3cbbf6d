"""MCP resources: each of the caller's tasks, its result and its exports, read from the database.

URIs (`resources/templates/list` gives them as templates):
- `exa-orch://tasks/{taskId}`: the task as tasks.get shows it (status, progress, args summary), JSON;
- `exa-orch://tasks/{taskId}/result`: a completed task's whole stored result, JSON;
- `exa-orch://tasks/{taskId}/export.{csv|jsonl|md}`: the export `tasks.export` links to
  (operations/export.py), built again from the database at each read, so any server on the
  database serves it.

Owner-checked as tasks are (TaskService.get with the request's principal): another principal's
task is neither listed nor read; reading it, or a task that does not exist, is the same -32002
"resource not found". `resources/list` pages the caller's tasks (LIST_PAGE tasks a page, their
resources, `nextCursor`), so an answer stays small.

`resources/subscribe` on a task's URI: each status or progress event of that task run in this
process (the runtime's TaskEvents) sends `notifications/resources/updated` for the subscribed URI
to the subscribing connection until it unsubscribes or closes. A task run by another server on the
same database sends nothing here (its events are that process's).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from exa_orch.app import App
from exa_orch.config import Settings
from exa_orch.errors import InvalidParams, TaskNotFound
from exa_orch.mcp.auth import request_principal
from exa_orch.mcp.hooked import HookedServer
from exa_orch.operations.export import URI_PREFIX, build_export, check_completed
from exa_orch.operations.export_formats import FORMATS
from exa_orch.operations.task_views import task_view
from exa_orch.runtime import Principal, TaskEvent, TaskService
from exa_orch.store import TaskRecord, TaskStatus
from exa_orch.store.reading import TASK_ID

log = logging.getLogger(__name__)

RESOURCE_NOT_FOUND = -32002  # the MCP specification's code for resources/read of an unknown URI
LIST_PAGE = 10  # tasks per resources/list page (up to 5 resources each)
SEND_TIMEOUT_S = 2.0  # a client that stops reading must not hold the runtime's event loop
JSON = "application/json"
PARTS = ("", "/result", *(f"/export.{fmt}" for fmt in FORMATS))

TEMPLATES = [
    types.ResourceTemplate(
        name="task",
        uri_template=URI_PREFIX + "{taskId}",
        description="one of your tasks: status, progress, args (tasks.get's view); subscribe for updates",
        mime_type=JSON,
    ),
    types.ResourceTemplate(
        name="task-result",
        uri_template=URI_PREFIX + "{taskId}/result",
        description="a completed task's whole stored result",
        mime_type=JSON,
    ),
    types.ResourceTemplate(
        name="task-export",
        uri_template=URI_PREFIX + "{taskId}/export.{format}",
        description="a completed task's result as csv, jsonl or md (one row per entity or claim, "
        "with sources), built from the database when read",
    ),
]


def parse_uri(uri: str) -> tuple[str, str]:
    """(task id, part: "" | "/result" | "/export.<fmt>") of one of our URIs; MCPError -32002 else."""
    if uri.startswith(URI_PREFIX):
        task_id, slash, rest = uri[len(URI_PREFIX) :].partition("/")
        part = slash + rest
        if TASK_ID.fullmatch(task_id) and part in PARTS:
            return task_id, part
    raise MCPError(
        code=RESOURCE_NOT_FOUND,
        message=f"resource not found: {uri[:200]!r} (exa-orch serves {URI_PREFIX}<taskId>, "
        "<...>/result and <...>/export.csv|jsonl|md; resources/templates/list gives them)",
    )


def not_found(uri: str) -> MCPError:
    return MCPError(
        code=RESOURCE_NOT_FOUND, message=f"resource not found: {uri[:200]!r}: no such task of yours"
    )


def task_resources(record: TaskRecord) -> list[types.Resource]:
    """The resources of one task: itself, and once completed its result and its exports."""
    title = f"{record.type} {record.id}"
    out = [
        types.Resource(
            name=record.id,
            title=f"task {title} ({record.status})",
            uri=URI_PREFIX + record.id,
            mime_type=JSON,
        )
    ]
    if record.status is TaskStatus.COMPLETED:
        out.append(
            types.Resource(
                name=f"{record.id}/result",
                title=f"result of {title}",
                uri=URI_PREFIX + record.id + "/result",
                mime_type=JSON,
            )
        )
        out += [
            types.Resource(
                name=f"{record.id}.{fmt}",
                title=f"{fmt} export of {title}",
                uri=f"{URI_PREFIX}{record.id}/export.{fmt}",
                mime_type=mime,
            )
            for fmt, mime in FORMATS.items()
        ]
    return out


async def read(service: TaskService, uri: str, principal: Principal) -> types.TextResourceContents:
    """The contents of `uri` for `principal` (MCPError -32002 for what they may not see)."""
    task_id, part = parse_uri(uri)
    try:
        record = await service.get(task_id, principal=principal)
    except TaskNotFound:  # another principal's task reads as no task at all
        raise not_found(uri) from None
    if part == "":
        text = json.dumps(task_view(record, args=True), ensure_ascii=False, default=str)
        return types.TextResourceContents(uri=uri, mime_type=JSON, text=text)
    try:
        if part == "/result":
            check_completed(record)  # as an export: a task not completed has no result to read
            text = json.dumps(record.result, ensure_ascii=False, default=str)
            return types.TextResourceContents(uri=uri, mime_type=JSON, text=text)
        built = await build_export(record, part.removeprefix("/export."))
    except InvalidParams as exc:
        raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
    return types.TextResourceContents(uri=uri, mime_type=built.mime_type, text=built.data.decode())


def export_link(result: dict[str, Any]) -> types.CallToolResult:
    """tasks.export's tool result: its JSON answer, then a `resource_link` to the export."""
    link = types.ResourceLink(
        name=str(result["name"]),
        uri=str(result["uri"]),
        mime_type=str(result["mimeType"]),
        size=int(result["size"]),
        description=f"{result['rows']} {result['rowKind']} rows of task {result['taskId']}",
    )
    text = types.TextContent(text=json.dumps(result, ensure_ascii=False))
    return types.CallToolResult(content=[text, link], structured_content=result)


class Subscriptions:
    """Which connection follows which task URI, and the listener that tells them of changes.

    Notifications are sent in the background, so a slow client never holds the runtime's event
    loop (the listener runs in its dispatch of task events); while one notification to a
    connection for a URI is on its way, further changes are folded into one more notification
    after it (each says only "read it again"), so the last state is always announced."""

    def __init__(self) -> None:
        self._by_task: dict[str, dict[int, tuple[Any, set[str]]]] = {}
        self._sending: dict[tuple[int, str], bool] = {}  # (connection, uri) -> changed since sent
        self._jobs: set[asyncio.Task[None]] = set()  # kept referenced until done

    def add(self, connection: Any, task_id: str, uri: str) -> None:
        key = id(connection)
        followers = self._by_task.setdefault(task_id, {})
        if key not in followers:
            followers[key] = (connection, set())
            connection.exit_stack.push_async_callback(self._closed, key)
        followers[key][1].add(uri)

    def remove(self, connection: Any, task_id: str, uri: str) -> None:
        entry = self._by_task.get(task_id, {}).get(id(connection))
        if entry is not None:
            entry[1].discard(uri)

    async def _closed(self, key: int) -> None:
        self.drop_connection(key)

    def drop_connection(self, key: int) -> None:
        for followers in self._by_task.values():
            followers.pop(key, None)

    async def on_event(self, event: TaskEvent) -> None:
        """TaskService listener: notifications/resources/updated to each subscriber of the task."""
        followers = self._by_task.get(event.task.id)
        for key, (connection, uris) in list((followers or {}).items()):
            for uri in sorted(uris):
                self._notify(key, connection, uri)
        if event.kind == "status" and event.task.terminal and followers is not None:
            self._by_task.pop(event.task.id, None)  # nothing changes after the end

    def _notify(self, key: int, connection: Any, uri: str) -> None:
        slot = (key, uri)
        if slot in self._sending:
            self._sending[slot] = True  # one more once the notification on its way is sent
            return
        self._sending[slot] = False
        job = asyncio.get_running_loop().create_task(self._send(slot, connection))
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    async def _send(self, slot: tuple[int, str], connection: Any) -> None:
        try:
            while True:
                with anyio.move_on_after(SEND_TIMEOUT_S):
                    await connection.send_resource_updated(slot[1])
                if not self._sending.get(slot):
                    return
                self._sending[slot] = False
        except Exception:  # a closed connection: forget it rather than fail anything else
            log.debug("resource update to a gone connection dropped", exc_info=True)
            self.drop_connection(slot[0])
        finally:
            self._sending.pop(slot, None)


def _connection(ctx: ServerRequestContext[Any]) -> Any:
    """The connection behind a request (ServerSession is a per-request proxy; a subscription
    belongs to the connection, as a logging level does in logbridge)."""
    return ctx.session._connection  # noqa: SLF001 (the SDK offers no public handle on it)


class ResourceHandlers:
    """The resources/* requests of one server, on one TaskService, for each request's principal."""

    def __init__(self, service: TaskService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.subs = Subscriptions()

    def who(self, ctx: ServerRequestContext[Any]) -> Principal:
        return request_principal(self.settings, ctx.request)

    async def list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        cursor = params.cursor if params is not None else None
        try:
            records, after = await self.service.list(cursor=cursor, limit=LIST_PAGE, principal=self.who(ctx))
        except InvalidParams as exc:  # a cursor this server did not make
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
        found = [r for record in records for r in task_resources(record)]
        return types.ListResourcesResult(resources=found, next_cursor=after)

    async def list_templates(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        return types.ReadResourceResult(contents=[await read(self.service, params.uri, self.who(ctx))])

    async def subscribe(
        self, ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        task_id, _ = parse_uri(params.uri)
        try:
            await self.service.get(task_id, principal=self.who(ctx))
        except TaskNotFound:
            raise not_found(params.uri) from None
        self.subs.add(_connection(ctx), task_id, params.uri)
        return types.EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        task_id, _ = parse_uri(params.uri)
        self.subs.remove(_connection(ctx), task_id, params.uri)
        return types.EmptyResult()


def install_resources(server: HookedServer, app: App) -> None:
    """Serve resources/list, templates/list, read, subscribe and unsubscribe on `server` from
    `app`'s TaskService (nothing without a task runtime); the subscriptions' listener lives as
    long as the runtime."""
    if app.tasks is None:
        return
    face = ResourceHandlers(app.tasks, app.settings)
    server.add_request_handler("resources/list", types.PaginatedRequestParams, face.list_resources)
    server.add_request_handler("resources/templates/list", types.PaginatedRequestParams, face.list_templates)
    server.add_request_handler("resources/read", types.ReadResourceRequestParams, face.read_resource)
    server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, face.subscribe)
    server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, face.unsubscribe)
    app.tasks.subscribe(face.subs.on_event)
