"""What an operation handler sees: the gateway, the settings, a progress callback, and services."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from exa_orch.config import Settings
from exa_orch.errors import ConfigError

if TYPE_CHECKING:
    from exa_py import AsyncExa

    from exa_orch.runtime import Principal

ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
"""async (completed, total, message) -> None; the MCP face turns it into progress notifications."""


async def no_progress(completed: float, total: float | None, message: str | None) -> None:
    """The default ProgressFn: nobody is listening."""


@dataclass
class OpContext:
    """Per-call context. `gateway` is an `exa_orch.gateway.Gateway` (or anything with `.exa`, `.http`,
    `.arxiv`); `services["tasks"]` is the runtime's TaskService when the runtime is up. `principal`
    is the caller, who owns the tasks it creates and sees no other's (None: the local user)."""

    gateway: Any | None
    settings: Settings = field(default_factory=Settings)
    progress: ProgressFn = no_progress
    services: dict[str, Any] = field(default_factory=dict)
    principal: Principal | None = None

    def _gw(self) -> Any:
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
    def http(self) -> Any:
        """The raw httpx client on Exa's base URL (camelCase JSON in and out)."""
        return self._gw().http

    @property
    def arxiv(self) -> Any:
        """The httpx client on the ArXiv Xplorer base URL."""
        return self._gw().arxiv
