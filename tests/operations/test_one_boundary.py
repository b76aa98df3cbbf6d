"""One path to Exa: every request exa-orch sends goes through the gateway's governed transport.

Checked twice: by reading the source (only the gateway builds an HTTP client or an exa-py
client; nothing else opens connections), and by counting (every request the simulator saw was an
attempt the gateway counted, across exa-py, raw-JSON and ArXiv calls)."""

from __future__ import annotations

import ast
from pathlib import Path

import exa_orch

from .conftest import Ops

PACKAGE = Path(exa_orch.__file__).parent
# The simulator is a stand-in for Exa (a server; it delivers webhooks with its own client).
OUTSIDE = ("sim",)
HTTP_PACKAGES = {"httpx", "exa_py"}
CLIENT_BUILDERS = {"AsyncClient", "Client", "AsyncHTTPTransport", "HTTPTransport", "AsyncExa", "Exa"}
NETWORK_MODULES = {"requests", "aiohttp", "urllib.request", "http.client", "urllib3"}
# The Gateway's clients (client.py) and the connection pools at the bottom of its transport (wire.py).
THE_GATEWAY = {PACKAGE / "gateway" / "client.py", PACKAGE / "gateway" / "wire.py"}
# Not Exa: `exa-orch eval --profile public` fetches two archives from the package index (PyPI).
# Nor a watch's webhook: it POSTs a run's diff to the receiver its owner named.
NOT_EXA = {PACKAGE / "evals" / "public_data.py", PACKAGE / "operations" / "watch_notify.py"}


def _modules() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.relative_to(PACKAGE).parts[0] not in OUTSIDE and p not in NOT_EXA
    ]


def test_only_the_gateway_builds_a_client_that_reaches_exa() -> None:
    builders: list[str] = []
    network: list[str] = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(PACKAGE))
        # Names this module imported from httpx or exa_py ("from httpx import AsyncClient").
        imported = {
            a.asname or a.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in HTTP_PACKAGES
            for a in node.names
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    name = func.attr if func.value.id in HTTP_PACKAGES else None
                else:
                    name = func.id if isinstance(func, ast.Name) and func.id in imported else None
                if name in CLIENT_BUILDERS and path not in THE_GATEWAY:
                    builders.append(f"{where}:{node.lineno} {name}(...)")
            elif isinstance(node, ast.Import):
                network += [f"{where}: import {a.name}" for a in node.names if a.name in NETWORK_MODULES]
            elif isinstance(node, ast.ImportFrom) and node.module in NETWORK_MODULES:
                network.append(f"{where}: from {node.module} import ...")
    assert builders == [], "build clients in exa_orch/gateway/ only (the governed transport)"
    assert network == [], "reach Exa through the Gateway, not another HTTP library"
    assert len(_modules()) > 50  # the scan saw the package


async def test_every_request_the_simulator_saw_was_counted_by_the_gateway(ops: Ops) -> None:
    gateway = ops.ctx.gateway
    await ops("exa.search", {"query": "AI startups in Europe", "numResults": 2})  # raw JSON (gw.http)
    run = await ops("research.create", {"instructions": "Summarise recent work on solid-state batteries"})
    await ops("research.get", {"researchId": run["researchId"]})  # exa-py (gw.exa)
    await ops("papers.search", {"query": "graph neural networks"})  # ArXiv (gw.arxiv)
    await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 1}})
    families = ops.sim.stats()["requests_by_family"]
    assert {"search", "agent", "websets"} <= set(families), families
    assert ops.sim.stats()["total_requests"] == gateway.stats()["attempts"] >= 5
