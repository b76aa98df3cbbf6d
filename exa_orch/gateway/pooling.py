"""The pooling layer: the team's capacity at Exa (gateway/pool.py) around each call that uses it.

`Pooling` takes a slot of its kind's pool before an agent run's or a webset's create is sent
(waiting its turn, fairly across principals), binds the object the create made to that slot, and
tells the pool what each answer shows of such objects: the status a get, cancel or stop shows, a
delete, a 404 (gone). A create that made nothing (refused, or its answer lost) gives its slot
back. It sits outside the retries: one slot for all the attempts of a create.
"""

from __future__ import annotations

import json

import httpx

from exa_orch.errors import GatewayError
from exa_orch.gateway.calls import call_of
from exa_orch.gateway.context import current_request
from exa_orch.gateway.pool import RunPool, pooled


class Pooling(httpx.AsyncBaseTransport):
    """Slots of the team's capacity for creates, and what answers show of pooled objects."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self._inner = inner
        self.pools: dict[str, RunPool] = {}  # by kind ('agent', 'webset'): the Gateway's

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call = call_of(request)
        found = pooled(call.shape.method, call.shape.path) if call.to_exa and self.pools else None
        if found is None:
            return await self._inner.handle_async_request(request)
        kind, action, path_id = found
        pool = self.pools[kind]
        scope = current_request()
        slot: int | None = None
        try:
            if action == "create" and not call.shape.streaming:
                slot = await pool.acquire(scope.principal, scope.task_id)
            response = await self._inner.handle_async_request(request)
            if call.body is not None:
                slot = self._answered(pool, action, path_id, slot, call.body)
            return response
        except GatewayError as exc:
            if exc.status == 404 and action != "create":
                pool.observe(str(path_id), None, scope.principal, scope.task_id)
            raise
        finally:
            if slot is not None:  # the create made nothing (refused, or its answer was lost)
                pool.release(slot)

    @staticmethod
    def _answered(
        pool: RunPool, action: str, path_id: str | None, slot: int | None, body: bytes
    ) -> int | None:
        """Tell the pool what a successful answer says: the object a create made (bound to its
        slot), the status a get or cancel shows, a delete. The slot still unbound, if any."""
        scope = current_request()
        if action == "delete":
            pool.observe(str(path_id), None, scope.principal, scope.task_id)
            return slot
        try:
            answer = json.loads(body) if body else None
        except ValueError:
            answer = None
        obj_id = answer.get("id") if isinstance(answer, dict) else None
        status = answer.get("status") if isinstance(answer, dict) else None
        if not isinstance(obj_id, str):
            return slot
        if action == "create" and slot is not None:
            pool.bind(slot, obj_id)
            slot = None
        if isinstance(status, str):
            pool.observe(obj_id, status, scope.principal, scope.task_id)
        return slot

    async def aclose(self) -> None:
        await self._inner.aclose()
