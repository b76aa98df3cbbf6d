"""Files belong to the machine's user, not to a remote caller: over `serve --http` a client's roots
name no path on the server. `imports.create {path}` reads nothing unless the operator names folders
in EXA_ORCH_IMPORT_DIRS, and then only inside them (the client's roots narrow further). Real server
processes with two named tokens; the simulator counts what reached its imports endpoint."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
import pytest
from mcp.client.context import ClientRequestContext
from mcp.client.streamable_http import streamable_http_client

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, SimThread

from .conftest import result_json
from .tasks_support import LegacyTasksClient, legacy_client
from .test_roots import CSV, shared_and_private
from .test_serve_http import http_server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

ALICE, BOB = "alice-secret-0a1b2c3d", "bob-secret-4e5f6a7b"
TOKENS = {"EXA_ORCH_HTTP_TOKENS": f"alice={ALICE},bob={BOB}"}


@pytest.fixture(scope="module")
def sim() -> Iterator[SimHandle]:
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle


def imports_reached(sim: SimHandle) -> int:
    """Requests that reached the simulator's imports endpoints (create, upload, get...)."""
    return sum(n for endpoint, n in sim.stats()["requests_by_endpoint"].items() if "/imports" in endpoint)


async def everything(ctx: ClientRequestContext) -> types.ListRootsResult:
    """A client claiming the whole disk as its root."""
    return types.ListRootsResult(roots=[types.Root(uri="file:///", name="everything")])


@asynccontextmanager
async def client(url: str, token: str) -> AsyncIterator[LegacyTasksClient]:
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with legacy_client(read, write, list_roots_callback=everything) as opened:
                yield opened


async def import_path(who: LegacyTasksClient, path: Path | str) -> tuple[bool, Any]:
    result = await who.call("imports.create", {"entity": {"type": "company"}, "path": str(path)})
    return bool(result.is_error), result_json(result)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    shared, private = shared_and_private(tmp_path)
    return {"shared": shared, "inside": shared / "rows.csv", "outside": private / "secret.csv"}


async def test_without_import_dirs_no_caller_reads_a_server_file_whatever_its_roots(
    sim: SimHandle, tmp_path: Path, files: dict[str, Path]
) -> None:
    with http_server(sim.url, tmp_path, **TOKENS) as (_proc, url):
        sim.reset()
        for token in (ALICE, BOB):
            async with client(url, token) as who:
                for path in (files["inside"], files["outside"], "/etc/passwd"):
                    failed, body = await import_path(who, path)
                    assert failed and body["code"] == "INVALID_PARAMS", body
                    assert "reads no files for clients over HTTP" in body["message"]
                    assert "EXA_ORCH_IMPORT_DIRS" in body["hint"] and "'csv'" in body["hint"]
        assert imports_reached(sim) == 0
        # The CSV's text itself still imports: the endpoint was reachable all along.
        async with client(url, ALICE) as alice:
            given = await alice.call("imports.create", {"entity": {"type": "company"}, "csv": CSV})
        assert not given.is_error and result_json(given)["uploaded"]["rows"] == 2
        assert imports_reached(sim) > 0


async def test_with_import_dirs_only_files_inside_them_are_read(
    sim: SimHandle, tmp_path: Path, files: dict[str, Path]
) -> None:
    with http_server(sim.url, tmp_path, EXA_ORCH_IMPORT_DIRS=str(files["shared"]), **TOKENS) as (_proc, url):
        sim.reset()
        async with client(url, BOB) as bob:
            refused = {
                str(path): await import_path(bob, path)
                for path in (
                    files["outside"],  # outside the folder, though inside the client's root `/`
                    files["shared"] / "link.csv",  # a link out of the folder
                    os.path.join(files["shared"], os.pardir, "private", "secret.csv"),  # a `..` walk
                    os.path.join(
                        files["shared"], os.pardir, files["shared"].name, "rows.csv"
                    ),  # `..` landing inside
                    "/etc/passwd",
                )
            }
            assert imports_reached(sim) == 0
            failed, body = await import_path(bob, files["inside"])
    assert not failed and body["uploaded"]["rows"] == 2 and body["uploaded"]["bytes"] == len(CSV), body
    for path, (was_refused, err) in refused.items():
        assert was_refused and err["code"] == "INVALID_PARAMS" and err["fields"] == ["path"], (path, err)
        assert "outside EXA_ORCH_IMPORT_DIRS" in err["message"] or "'..'" in err["message"], (path, err)
