"""What an operation handler sees: the gateway, the settings, a progress callback, the caller."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from exa_orch.config import Settings
from exa_orch.errors import ConfigError
from exa_orch.exa.port import ExaPort

if TYPE_CHECKING:
    import httpx
    from exa_py import AsyncExa

    from exa_orch.runtime import Principal, TaskService

    from .watch_runner import WatchScheduler

ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
"""async (completed, total, message) -> None; the MCP face turns it into progress notifications."""


class PeerError(Exception):
    """A request to the MCP client (sampling, elicitation, roots) failed or timed out; the operation
    answers its fallback instead."""


class ClientPeer(Protocol):
    """What the calling MCP client offers beyond tools (seed 000 section 6.2), as the face found it
    in the client's declared capabilities. An operation uses a feature only when its flag is True,
    and otherwise answers the section 6 fallback shape; none of these calls may hang the caller
    (the face bounds each one).
    """

    sampling: bool
    sampling_tools: bool
    elicitation: bool
    roots: bool
    server_dirs: Sequence[str] | None
    """None: the client shares this machine (stdio), and its roots are paths here; else the client
    is remote (HTTP), and a file it names is read only inside these folders (EXA_ORCH_IMPORT_DIRS)"""

    async def sample(
        self, *, system: str, prompt: str, max_tokens: int, tool: dict[str, Any] | None = None
    ) -> Any:
        """Ask the client's model. With `tool` ({name, description, inputSchema}) and `sampling_tools`,
        the model must call it and the answer is the tool's input (a dict); otherwise the text."""
        ...

    async def elicit(self, message: str, schema: dict[str, Any]) -> dict[str, Any] | None:
        """Ask the user for the fields of `schema` by a form; their content, or None if declined."""
        ...

    async def list_roots(self) -> list[str]:
        """The client's roots as local filesystem paths (file:// URIs decoded)."""
        ...


async def no_progress(completed: float, total: float | None, message: str | None) -> None:
    """The default ProgressFn: nobody is listening."""


class OperationLookup(Protocol):
    """The part of an operations Registry that an operation needs to look others up by name."""

    def get(self, name: str) -> Any:
        """The operation named `name`; raises UnknownOperation naming the closest ones."""
        ...


class ExaClients(Protocol):
    """What an operation reaches Exa through: an `exa_orch.gateway.Gateway`, or a stand-in with
    the same three clients (a test's plain httpx client)."""

    @property
    def exa(self) -> AsyncExa: ...

    @property
    def http(self) -> httpx.AsyncClient: ...

    @property
    def arxiv(self) -> httpx.AsyncClient: ...


@dataclass
class OpContext:
    """Per-call context. `gateway` is an `exa_orch.gateway.Gateway` (ExaClients: anything with `.exa`,
    `.http`, `.arxiv`); `tasks` is the runtime's TaskService when the runtime is up; `registry` the operations
    the caller may reach (tasks.create checks an "operation" task against it). `principal` is the
    caller, who owns the tasks it creates and sees no other's (None: the local user)."""

    gateway: ExaClients | None
    settings: Settings = field(default_factory=Settings)
    progress: ProgressFn = no_progress
    tasks: TaskService | None = None
    registry: OperationLookup | None = None
    principal: Principal | None = None
    peer: ClientPeer | None = None
    """the calling MCP client's sampling, elicitation and roots; None outside an MCP call"""
    watches: WatchScheduler | None = None
    """the watch scheduler (operations/watch_runner.py) when the runtime is up"""

    def _gw(self) -> ExaClients:
        if self.gateway is None:
            raise ConfigError(
                "this operation calls Exa but no gateway is open",
                hint="Run it inside the MCP server or open an exa_orch.gateway.Gateway first.",
            )
        return self.gateway

    @property
    def exa(self) -> AsyncExa:
        """The exa-py client (governed transport)."""
        return self._gw().exa

    @property
    def exa_port(self) -> ExaPort:
        """The Exa port over this call's gateway (exa_orch/exa/port.py): what an operation's typed
        calls go through (research.*), the same code the workflows call."""
        return ExaPort(self._gw())

    @property
    def http(self) -> httpx.AsyncClient:
        """The raw httpx client on Exa's base URL (camelCase JSON in and out)."""
        return self._gw().http

    @property
    def arxiv(self) -> httpx.AsyncClient:
        """The httpx client on the ArXiv Xplorer base URL."""
        return self._gw().arxiv
