"""`exa-orch serve --http`: streamable HTTP on loopback, bearer token beyond it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from exa_orch.net import bind_listener
from exa_orch.sim.testing import bind_socket
from tests.mcp.conftest import call, initialize_request, server_env, tools_list_bytes
from tests.support import WAIT

pytestmark = pytest.mark.slow

INIT = initialize_request(1)
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@contextmanager
def http_server(
    sim_url: str, tmp_path: Path, *args: str, **env: str
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`exa-orch serve --http --port 0 ...`; yields the process and the URL it printed."""
    with (tmp_path / "stderr.log").open("w") as errlog:  # the child keeps its own descriptor
        proc = subprocess.Popen(
            [sys.executable, "-m", "exa_orch", "serve", "--http", "--port", "0", *args],
            env=server_env(sim_url, tmp_path / "workflows.db", **env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errlog,
            text=True,
        )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()  # blocks until the server prints its URL (or exits)
        assert line.startswith("EXA_ORCH_MCP_URL="), (line, (tmp_path / "stderr.log").read_text())
        yield proc, line.split("=", 1)[1]
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


async def test_streamable_http_client_works(sim_url: str, tmp_path: Path) -> None:
    with http_server(sim_url, tmp_path) as (proc, url):
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        async with Client(streamable_http_client(url), mode="legacy") as client:
            listed = await client.list_tools()
            assert [t.name for t in listed.tools] == ["manage_websets"]
            assert tools_list_bytes(listed) <= 4096
            body = await call(client, "list_operations", {"namesOnly": True})
            assert body["count"] >= 40
            await client.session.send_ping()
        async with Client(streamable_http_client(url)) as modern:  # 2026-07-28: no handshake
            assert modern.protocol_version == "2026-07-28"
            assert tools_list_bytes(await modern.list_tools()) <= 4096
            assert (await call(modern, "list_operations", {"prefix": "websets."}))["count"] >= 7
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT) == 0
    # The SDK's line for each session opened and closed is DEBUG, not INFO (half a busy log).
    logged = (tmp_path / "stderr.log").read_text()
    assert "serving MCP over streamable HTTP" in logged
    assert "Created new transport with session ID" not in logged and "Terminating session" not in logged
    assert "exa-orch stopped" in (tmp_path / "stderr.log").read_text()


def test_non_loopback_bind_without_token_is_refused(sim_url: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "exa_orch", "serve", "--http", "--host", "0.0.0.0", "--port", "0"],
        env=server_env(sim_url, tmp_path / "workflows.db"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert proc.returncode == 1
    assert "EXA_ORCH_HTTP_TOKEN" in proc.stderr and "0.0.0.0" in proc.stderr
    assert "EXA_ORCH_MCP_URL" not in proc.stdout


def test_token_is_required_when_set(sim_url: str, tmp_path: Path) -> None:
    token = "t0ken-" + "x" * 30
    with http_server(sim_url, tmp_path, EXA_ORCH_HTTP_TOKEN=token) as (_proc, url):
        with httpx.Client(timeout=WAIT) as http:
            denied = http.post(url, json=INIT, headers=ACCEPT)
            assert denied.status_code == 401
            assert "EXA_ORCH_HTTP_TOKEN" in denied.text
            wrong = http.post(url, json=INIT, headers={**ACCEPT, "authorization": "Bearer nope"})
            assert wrong.status_code == 401
            ok = http.post(url, json=INIT, headers={**ACCEPT, "authorization": f"Bearer {token}"})
            assert ok.status_code == 200, ok.text
            assert "serverInfo" in ok.text
    assert token not in (tmp_path / "stderr.log").read_text()


@pytest.mark.parametrize("bind", ["127.0.0.2", "LOCALHOST", "[::1]"])
def test_every_loopback_bind_refuses_another_sites_host_and_origin(
    sim_url: str, tmp_path: Path, bind: str
) -> None:
    """No DNS rebinding on any loopback spelling a bind accepts (the SDK guarded three exact
    strings): without tokens, a request for another site's Host, or from its Origin, gets no 200;
    one for the bind's own host name does."""
    with http_server(sim_url, tmp_path, "--host", bind) as (_proc, url), httpx.Client(timeout=WAIT) as http:
        own = url.split("//", 1)[1].split("/", 1)[0]  # the bind's host:port, as printed
        assert own.lower().startswith(bind.lower())
        port = own.rsplit(":", 1)[1]
        refused = {
            "Host": http.post(url, json=INIT, headers={**ACCEPT, "host": f"evil.example:{port}"}),
            "Host without port": http.post(url, json=INIT, headers={**ACCEPT, "host": "evil.example"}),
            "Origin": http.post(url, json=INIT, headers={**ACCEPT, "origin": "http://evil.example"}),
            "loopback-looking Origin": http.post(
                url, json=INIT, headers={**ACCEPT, "origin": f"http://127.0.0.1.evil.example:{port}"}
            ),
            "opaque Origin": http.post(url, json=INIT, headers={**ACCEPT, "origin": "null"}),
        }
        ok = http.post(url, json=INIT, headers=ACCEPT)
        from_itself = http.post(url, json=INIT, headers={**ACCEPT, "origin": f"http://{own}"})
    for what, answer in refused.items():
        assert answer.status_code in (403, 421), (what, answer.status_code, answer.text)
    assert ok.status_code == 200, ok.text
    assert from_itself.status_code == 200, from_itself.text


@pytest.mark.parametrize("bind", [lambda: bind_listener("127.0.0.1", 0), bind_socket])
def test_the_printed_port_takes_connections_before_the_server_loop_runs(bind: Any) -> None:
    # serve --http (and exa-orch sim) print their URL and then start uvicorn: a client that read
    # the URL and connected at once was refused on a busy machine (the socket was bound, not yet
    # listening). Bound now means listening: the connection waits in the backlog for the server.
    sock = bind()
    try:
        with socket.create_connection(sock.getsockname()[:2], timeout=WAIT):
            pass
    finally:
        sock.close()
