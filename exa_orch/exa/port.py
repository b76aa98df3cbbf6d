"""`ExaPort`: Exa's websets and agent runs as typed async methods over exa-py's models.

A workflow reaches Exa only through this class (`ctx.deps.exa_port`); the operations (the agents'
JSON adapter) call the same create-or-find, polling and paging code at the wire level
(`wire.py`, `creates.py`, `polling.py`, `paging.py`). Every create here is safe to retry: a webset
is created with the caller's `external_id` and found again by it, any other object carries the
caller's `key` in `metadata[exaOrchKey]` and is found again by that mark (`creates.create_or_find`;
the key is looked up first, so a create retried after a crash gets the first object).

Websets are read as JSON through the governed httpx client and validated into exa-py's models
(`Webset`, `WebsetItem`, `WebsetSearch`, `WebsetEnrichment`); agent runs go through exa-py's own
client (`AgentRun`). exa-py is imported only when a method first needs it, off the event loop
(`gateway.client.exa_py_imported`): start-up never imports it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict

from exa_orch.errors import ApiError, Conflict, WebsetNotRunning
from exa_orch.gateway.client import call, exa_py_imported
from exa_orch.gateway.marks import CREATE_MARK

from . import creates, paging, wire
from .events import RunFeed, Sleep
from .models import Contents
from .polling import poll_until
from .statuses import WEBSET_ON_THEIR_WAY
from .wire import WEBSETS, segment

if TYPE_CHECKING:
    import httpx
    from exa_py import AsyncExa
    from exa_py.agent.async_client import AsyncAgentRunsClient
    from exa_py.agent.types import AgentRun, CreateAgentRunParams, ListAgentRunsResponse
    from exa_py.websets.types import (
        CreateEnrichmentParameters,
        CreateWebsetParameters,
        CreateWebsetSearchParameters,
        Import,
        Webset,
        WebsetEnrichment,
        WebsetItem,
        WebsetSearch,
    )

W = f"{WEBSETS}/websets"
ITEMS_PAGE = 100  # Exa's largest page of items


class ExaClients(Protocol):
    """What the port reaches Exa through: an `exa_orch.gateway.Gateway` (its governed exa-py
    client and raw httpx client), or a stand-in with the same two."""

    @property
    def exa(self) -> AsyncExa: ...

    @property
    def http(self) -> httpx.AsyncClient: ...


class ItemAsSent(BaseModel):
    """A webset item exactly as Exa sent it: its `id`, and every other field kept as is
    (`model_dump()` gives Exa's JSON back). exa-py's `WebsetItem` normalises what it reads (a URL
    gains a trailing slash, strings are stripped); a workflow that returns items to agents returns
    them as their `items.getAll` shows them, so it reads this."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)
    id: str


@dataclass(frozen=True)
class Idle:
    """How a wait for a webset ended: the webset as last read, whether the wait timed out before it
    was idle, seconds waited, and how many reads it took."""

    webset: Webset
    timed_out: bool
    waited: float
    polls: int


WebsetProgress = Callable[["Webset", int], Awaitable[None]]
"""async (webset as just read, reads so far) -> None: a wait's report after each read."""


def _wire(params: Any) -> dict[str, Any]:
    """An exa-py parameters model as the JSON body Exa takes (only the fields the caller set)."""
    body: dict[str, Any] = params.model_dump(by_alias=True, exclude_unset=True, mode="json")
    return body


def _marked(body: dict[str, Any], key: str) -> dict[str, Any]:
    return {**body, "metadata": {**(body.get("metadata") or {}), CREATE_MARK: key}}


class ExaPort:
    """Exa's objects for the workflows, typed (see the module doc). Built once per runtime by the
    composition root over its gateway (`runtime.deps.Deps.exa_port`)."""

    def __init__(self, clients: ExaClients) -> None:
        self._clients = clients

    @property
    def http(self) -> httpx.AsyncClient:
        """The governed httpx client on Exa's base URL (the wire level)."""
        return self._clients.http

    async def _json(
        self, method: str, path: str, body: Any = None, query: dict[str, Any] | None = None
    ) -> Any:
        await exa_py_imported()  # every caller validates the answer into an exa-py model next
        return await wire.request(self._clients.http, method, path, query=query, body=body)

    # --- websets ----------------------------------------------------------------------------

    async def create_webset(self, params: CreateWebsetParameters, *, external_id: str) -> Webset:
        """The webset `params` describes, made with `external_id` (which replaces the params' own);
        after a lost answer or on a retry it is found by that id, never made twice (a 409 for the
        id returns the webset that holds it)."""
        from exa_py.websets.types import Webset

        body = {**_wire(params), "externalId": external_id}

        async def send() -> Any:
            return await self._json("POST", W, body)

        async def find() -> Any:
            return await creates.find_webset(self._clients.http, external_id)

        try:
            found = await creates.create_or_find(send, find, what="create_webset")
        except Conflict:  # the id is taken: by this webset, made by an earlier (crashed) attempt
            found = await find()
            if found is None:
                raise
        return Webset.model_validate(found)

    async def find_webset(self, id_or_external_id: str) -> Webset | None:
        """The webset with that id or externalId, or None when Exa has none."""
        from exa_py.websets.types import Webset

        await exa_py_imported()
        found = await creates.find_webset(self._clients.http, id_or_external_id)
        return None if found is None else Webset.model_validate(found)

    async def get_webset(self, webset_id: str) -> Webset:
        """The webset (by id or externalId); NotFoundError when there is none."""
        from exa_py.websets.types import Webset

        return Webset.model_validate(await self._json("GET", f"{W}/{segment(webset_id)}"))

    async def cancel_webset(self, webset_id: str) -> Webset:
        """Cancel the webset's running searches and enrichments; the webset as Exa answers."""
        from exa_py.websets.types import Webset

        return Webset.model_validate(await self._json("POST", f"{W}/{segment(webset_id)}/cancel"))

    async def delete_webset(self, webset_id: str) -> Webset:
        """Delete the webset and its items; the deleted webset."""
        from exa_py.websets.types import Webset

        return Webset.model_validate(await self._json("DELETE", f"{W}/{segment(webset_id)}"))

    async def wait_idle(
        self,
        webset_id: str,
        *,
        within: float,
        interval: float = 2.0,
        progress: WebsetProgress | None = None,
    ) -> Idle:
        """Read the webset until it is idle or `within` seconds pass (`progress` after each read).
        A timeout is a result (`timed_out`); a webset that will not become idle by itself (paused)
        raises WebsetNotRunning at once."""

        async def fetch() -> Webset:
            return await self.get_webset(webset_id)

        async def report(webset: Webset, polls: int) -> None:
            if progress is not None:
                await progress(webset, polls)

        def settled(webset: Webset) -> bool:
            return str(webset.status) not in WEBSET_ON_THEIR_WAY or webset.status == "idle"

        polled = await poll_until(fetch, done=settled, report=report, within=within, interval=interval)
        webset = polled.last
        if str(webset.status) not in WEBSET_ON_THEIR_WAY:
            raise WebsetNotRunning(webset.id, str(webset.status))
        return Idle(webset, not polled.done, polled.waited, polled.polls)

    async def items(self, webset_id: str, *, max_items: int = 1000) -> AsyncIterator[WebsetItem]:
        """The webset's items, whole, newest pages first as Exa lists them, at most `max_items`."""
        from exa_py.websets.types import WebsetItem

        await exa_py_imported()
        listed = self._item_data(webset_id, max_items)
        try:
            async for item in listed:
                yield WebsetItem.model_validate(item)
        finally:
            await listed.aclose()

    async def items_as_sent(self, webset_id: str, *, max_items: int = 1000) -> AsyncIterator[ItemAsSent]:
        """`items`, each exactly as Exa sent it (`ItemAsSent`: what an agent's items.getAll shows)."""
        listed = self._item_data(webset_id, max_items)
        try:
            async for item in listed:
                yield ItemAsSent.model_validate(item)
        finally:
            await listed.aclose()

    async def _item_data(self, webset_id: str, max_items: int) -> AsyncGenerator[Any, None]:
        given = 0
        path = f"{W}/{segment(webset_id, 'websetId')}/items"

        def want() -> int:
            return max(1, min(ITEMS_PAGE, max_items - given))

        listed = paging.pages(self._clients.http, path, limit=want)
        try:
            async for page in listed:
                for item in page.data:
                    if given >= max_items:
                        return
                    given += 1
                    yield item
                if given >= max_items:
                    return
        finally:
            await listed.aclose()

    async def create_search(
        self, webset_id: str, params: CreateWebsetSearchParameters, *, key: str
    ) -> WebsetSearch:
        """A search on the webset, made once for `key` (its metadata mark; looked up first)."""
        from exa_py.websets.types import WebsetSearch

        made = await self._create_on_webset(webset_id, "searches", _wire(params), key)
        return WebsetSearch.model_validate(made)

    async def get_search(self, webset_id: str, search_id: str) -> WebsetSearch:
        from exa_py.websets.types import WebsetSearch

        path = f"{W}/{segment(webset_id, 'websetId')}/searches/{segment(search_id, 'searchId')}"
        return WebsetSearch.model_validate(await self._json("GET", path))

    async def cancel_search(self, webset_id: str, search_id: str) -> WebsetSearch:
        """Cancel a running search (Exa's `POST /v0/websets/{webset}/searches/{id}/cancel`): the items
        it found stay, it analyzes (and bills) no further candidate; the search as Exa answers."""
        from exa_py.websets.types import WebsetSearch

        path = f"{W}/{segment(webset_id, 'websetId')}/searches/{segment(search_id, 'searchId')}/cancel"
        return WebsetSearch.model_validate(await self._json("POST", path))

    async def create_enrichment(
        self, webset_id: str, params: CreateEnrichmentParameters, *, key: str
    ) -> WebsetEnrichment:
        """An enrichment of the webset, made once for `key` (its metadata mark; looked up first)."""
        from exa_py.websets.types import WebsetEnrichment

        made = await self._create_on_webset(webset_id, "enrichments", _wire(params), key)
        return WebsetEnrichment.model_validate(made)

    async def get_enrichment(self, webset_id: str, enrichment_id: str) -> WebsetEnrichment:
        from exa_py.websets.types import WebsetEnrichment

        path = f"{W}/{segment(webset_id, 'websetId')}/enrichments/{segment(enrichment_id, 'enrichmentId')}"
        return WebsetEnrichment.model_validate(await self._json("GET", path))

    async def _create_on_webset(self, webset_id: str, field: str, body: dict[str, Any], key: str) -> Any:
        path = f"{W}/{segment(webset_id, 'websetId')}/{field}"

        async def send() -> Any:
            return await self._json("POST", path, _marked(body, key))

        async def find() -> Any:
            return await creates.find_in_webset(self._clients.http, webset_id, field, key)

        return await creates.create_or_find(send, find, what=f"create {field}", find_first=True)

    # --- imports --------------------------------------------------------------------------------

    async def create_csv_import(
        self, text: str, *, entity: Mapping[str, Any], title: str, key: str
    ) -> Import:
        """A CSV import of `text` (a header row, then rows), made once for `key` (its metadata mark,
        looked up first: Exa's imports take no externalId), its CSV uploaded to the pre-signed URL
        the answer gives. A found import whose upload URL was lost is deleted and made again."""
        from exa_py.websets.types import Import

        rows = [line for line in text.splitlines()[1:] if line.strip()]
        body = {
            "format": "csv",
            "entity": dict(entity),
            "title": title,
            "size": len(text.encode()),
            "count": len(rows),
        }
        path = f"{WEBSETS}/imports"

        async def send() -> Any:
            return await self._json("POST", path, _marked(body, key))

        async def find() -> Any:
            found = await creates.find_in_list(self._clients.http, path, key)
            if found is not None and not found.get("uploadUrl"):
                await self._json("DELETE", f"{path}/{segment(found['id'])}")
                return None
            return found

        made = await creates.create_or_find(send, find, what="create import", find_first=True)
        url = made.get("uploadUrl")
        if not url:
            raise ApiError("Exa created the import but gave no uploadUrl to send the CSV to")
        await wire.upload_csv(self._clients.http, url, text)
        return Import.model_validate(made)

    async def wait_import(
        self, import_id: str, *, within: float, interval: float = 2.0
    ) -> tuple[Import, bool]:
        """Read the import until it is completed or failed, or `within` seconds pass: (the import,
        whether it got there)."""
        from exa_py.websets.types import Import

        async def fetch() -> Import:
            return Import.model_validate(await self._json("GET", f"{WEBSETS}/imports/{segment(import_id)}"))

        async def report(imp: Import, polls: int) -> None:
            return None

        polled = await poll_until(
            fetch, done=lambda imp: imp.status in ("completed", "failed"), report=report, within=within,
            interval=interval,
        )  # fmt: skip
        return polled.last, polled.done

    # --- search API -----------------------------------------------------------------------------

    async def get_contents(self, urls: list[str], *, max_characters: int) -> Contents:
        """The pages at `urls` as text (at most `max_characters` each): POST /contents, a read."""
        body = {"urls": urls, "text": {"maxCharacters": max_characters}}
        return Contents.model_validate(await wire.request(self._clients.http, "POST", "/contents", body=body))

    # --- agent runs -----------------------------------------------------------------------------

    async def _runs(self) -> AsyncAgentRunsClient:
        await exa_py_imported()
        return self._clients.exa.agent.runs

    async def create_run(
        self, params: CreateAgentRunParams, *, key: str, find_first: bool = True
    ) -> AgentRun:
        """An agent run made once for `key` (its `metadata[exaOrchKey]`; the Agent API has no
        externalId): with `find_first` (the caller chose the key) a run made with it is returned
        without creating; after a lost answer the run is found in the runs list."""
        runs = await self._runs()
        metadata = {**(params.metadata or {}), CREATE_MARK: key}

        async def send() -> AgentRun:
            return await call(runs.create(
                query=params.query,
                system_prompt=params.system_prompt,
                input=params.input,
                output_schema=params.output_schema,
                effort=params.effort,
                budget=params.budget,
                previous_run_id=params.previous_run_id,
                metadata=metadata,
                data_sources=params.data_sources,
                user_identifier=params.user_identifier,
            ))  # fmt: skip

        async def find() -> AgentRun | None:
            return await self.find_run(key)

        return await creates.create_or_find(send, find, what="create_run", find_first=find_first)

    async def find_run(self, key: str) -> AgentRun | None:
        """The run made with mark `key` among the newest pages of the runs list, or None."""
        runs = await self._runs()
        cursor: str | None = None
        for _ in range(creates.MAX_LIST_PAGES):
            listed = await call(runs.list(cursor=cursor, limit=100))
            for run in listed.data:
                if creates.marked(run.model_dump(by_alias=True, exclude_none=True, mode="json"), key):
                    return run
            cursor = listed.next_cursor if listed.has_more else None
            if not cursor:
                return None
        return None

    async def get_run(self, run_id: str) -> AgentRun:
        """The run as it stands (its output so far)."""
        # exa-py puts the run id into the path as is: escape it ("run/cancel" or "id?x" must not route).
        return await call((await self._runs()).get(segment(run_id, "researchId")))

    async def cancel_run(self, run_id: str) -> AgentRun:
        """Cancel the run; a run that has finished already is answered as it is (no error)."""
        return await call((await self._runs()).cancel(segment(run_id, "researchId")))

    async def stop_run(self, run_id: str) -> AgentRun:
        """Stop an ultra-effort run now, keeping what it found (Exa refuses any other effort: 400)."""
        return await call((await self._runs()).stop(segment(run_id, "researchId")))

    async def list_runs(
        self, *, cursor: str | None = None, limit: int | None = None
    ) -> ListAgentRunsResponse:
        """One page of runs, newest first."""
        return await call((await self._runs()).list(cursor=cursor, limit=limit))

    def follow_run(self, run_id: str, sleep: Sleep | None = None) -> RunFeed:
        """The run's own event stream (`events.RunFeed`); `sleep` waits between reopenings (a
        workflow passes its task's sleep, so a cancel interrupts it)."""
        return RunFeed(self._clients.http, run_id, sleep) if sleep else RunFeed(self._clients.http, run_id)


async def run_params(fields: Mapping[str, object]) -> CreateAgentRunParams:
    """exa-py's `CreateAgentRunParams` from the run request's camelCase fields (query, outputSchema,
    effort, budget, input, previousRunId, dataSources, systemPrompt, userIdentifier, metadata): how a
    workflow, which imports exa-py's models for type checking only, builds a run's parameters."""
    await exa_py_imported()
    from exa_py.agent.types import CreateAgentRunParams

    return CreateAgentRunParams.model_validate(dict(fields))


async def agent_run(data: object) -> AgentRun:
    """exa-py's `AgentRun` from its JSON (`model_dump(by_alias=True)`), as a checkpoint keeps it."""
    await exa_py_imported()
    from exa_py.agent.types import AgentRun

    return AgentRun.model_validate(data)


async def webset_params(fields: Mapping[str, object]) -> CreateWebsetParameters:
    """exa-py's `CreateWebsetParameters` from a webset create's camelCase JSON body."""
    await exa_py_imported()
    from exa_py.websets.types import CreateWebsetParameters

    return CreateWebsetParameters.model_validate(dict(fields))


async def enrichment_params(fields: Mapping[str, object]) -> CreateEnrichmentParameters:
    """exa-py's `CreateEnrichmentParameters` from an enrichment create's camelCase JSON body."""
    await exa_py_imported()
    from exa_py.websets.types import CreateEnrichmentParameters

    return CreateEnrichmentParameters.model_validate(dict(fields))


async def webset(data: object) -> Webset:
    """exa-py's `Webset` from its JSON, as a checkpoint keeps it."""
    await exa_py_imported()
    from exa_py.websets.types import Webset

    return Webset.model_validate(data)


async def webset_enrichment(data: object) -> WebsetEnrichment:
    """exa-py's `WebsetEnrichment` from its JSON, as a checkpoint keeps it."""
    await exa_py_imported()
    from exa_py.websets.types import WebsetEnrichment

    return WebsetEnrichment.model_validate(data)


async def webset_item(data: object) -> WebsetItem:
    """exa-py's `WebsetItem` from its JSON, as a checkpoint keeps it."""
    await exa_py_imported()
    from exa_py.websets.types import WebsetItem

    return WebsetItem.model_validate(data)
