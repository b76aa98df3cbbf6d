"""A loopback server that answers only with what Exa published: the Agent API spec's examples and
exa-py's conformance fixtures (tests/fixtures/exa/), never with the simulator.

- `POST /agent/runs`: the spec's `running` example (JSON), or its `lifecycle` event stream;
- `GET /agent/runs/{id}/events` with `Accept: text/event-stream`: the spec's `lifecycle` example
  (three events, the run complete at once), from the event after `Last-Event-ID`;
- `GET /agent/runs/{id}`, `GET /agent/runs`, `GET /agent/runs/{id}/events` (JSON),
  `POST /agent/runs/{id}/cancel`, `DELETE /agent/runs/{id}`: exa-py's fixtures for those endpoints;
- anything else: 404 in the spec's error envelope.
It records each request (method, path, headers) in `requests`, so a test counts what was sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from exa_orch.sim.testing import bind_socket, serving
from tests import contract


@cache
def spec_example(path: str, method: str, status: str, media: str, name: str) -> Any:
    """An example the Agent API spec gives for that answer."""
    content = contract.spec("agent")["paths"][path][method]["responses"][status]["content"][media]
    return content["examples"][name]["value"]


@cache
def exa_py_fixture(endpoint: str) -> Any:
    """exa-py's conformance fixture payload for `endpoint` ("GET /agent/runs/{run_id}")."""
    for line in (contract.EXA / "exa-py-responses.agent-runs.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["endpoint"] == endpoint:
            return entry["payload"]
    raise KeyError(endpoint)


def lifecycle_after(last: str | None) -> str:
    """The spec's lifecycle stream as the spec writes it (its last event with no blank line after
    it), from the event after id `last` (all of it without one)."""
    text: str = spec_example("/agent/runs", "post", "200", "text/event-stream", "lifecycle")
    events = text.split("\n\n")
    ids = [e.split("\n", 1)[0].removeprefix("id: ") for e in events]
    start = ids.index(last) + 1 if last in ids else 0
    return "\n\n".join(events[start:])


@dataclass
class Replay:
    """The server's URL and what it was asked."""

    url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)

    def asked(self, method: str, suffix: str = "") -> list[dict[str, Any]]:
        return [r for r in self.requests if r["method"] == method and r["path"].endswith(suffix)]


def _app(replay: Replay) -> Starlette:
    def note(request: Request) -> None:
        replay.requests.append(
            {
                "method": request.method,
                "path": request.url.path,
                "headers": dict(request.headers),
                "t": time.monotonic(),
            }
        )

    def sse(text: str) -> Response:
        return Response(text, media_type="text/event-stream")

    async def create(request: Request) -> Response:
        note(request)
        if "text/event-stream" in request.headers.get("accept", ""):
            return sse(lifecycle_after(None))
        return JSONResponse(spec_example("/agent/runs", "post", "200", "application/json", "running"))

    async def events(request: Request) -> Response:
        note(request)
        if "text/event-stream" in request.headers.get("accept", ""):
            return sse(lifecycle_after(request.headers.get("last-event-id")))
        return JSONResponse(exa_py_fixture("GET /agent/runs/{run_id}/events"))

    def fixture(endpoint: str) -> Any:
        async def answer(request: Request) -> Response:
            note(request)
            return JSONResponse(exa_py_fixture(endpoint))

        return answer

    async def missing(request: Request) -> Response:
        note(request)
        body = {"error": {"type": "NOT_FOUND", "code": "RUN_NOT_FOUND", "message": "not in the replay"}}
        return JSONResponse(body, status_code=404)

    return Starlette(
        routes=[
            Route("/agent/runs", create, methods=["POST"]),
            Route("/agent/runs", fixture("GET /agent/runs"), methods=["GET"]),
            Route("/agent/runs/{id}", fixture("GET /agent/runs/{run_id}"), methods=["GET"]),
            Route("/agent/runs/{id}", fixture("DELETE /agent/runs/{run_id}"), methods=["DELETE"]),
            Route("/agent/runs/{id}/cancel", fixture("POST /agent/runs/{run_id}/cancel"), methods=["POST"]),
            Route("/agent/runs/{id}/events", events, methods=["GET"]),
            Route("/{rest:path}", missing, methods=["GET", "POST", "DELETE", "PATCH", "PUT"]),
        ]
    )


@asynccontextmanager
async def replay_server() -> AsyncIterator[Replay]:
    """The replay server on 127.0.0.1:<free port> for the block."""
    replay = Replay()
    sock = bind_socket()
    config = uvicorn.Config(_app(replay), lifespan="off", log_config=None, access_log=False, http="h11")
    async with serving(uvicorn.Server(config), sock, "the replay server"):
        replay.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        yield replay
