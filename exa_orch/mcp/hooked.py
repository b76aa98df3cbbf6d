"""A low-level MCP server with the hooks that features installed after it is built fill in.

`exa_orch.mcp.tasks.install_tasks` marks tools as task-capable (`task_support`) and adds `tasks` to
the advertised capabilities (`capability_hooks`); `ExaOrchServer` (mcp/server.py) subclasses this.
It lives apart from server.py so that the tasks bridge can name the server it is installed on
without importing the module that installs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server


class HookedServer(Server[Any]):
    """`Server` plus per-tool task support and capability hooks (see module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Filled by exa_orch.mcp.tasks.install_tasks: tool name -> "optional" | "required".
        self.task_support: dict[str, str] = {}
        # Each hook may edit the capabilities advertised for a protocol version (None = handshake).
        self.capability_hooks: list[Callable[[types.ServerCapabilities, str | None], None]] = []
        # Set by install_tasks: the MCP Tasks bridge (asks a waiting task's owner for its input).
        self.tasks_bridge: Any = None

    def get_capabilities(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
        *,
        protocol_version: str | None = None,
    ) -> types.ServerCapabilities:
        caps = super().get_capabilities(
            notification_options, experimental_capabilities, extensions, protocol_version=protocol_version
        )
        for hook in self.capability_hooks:
            hook(caps, protocol_version)
        return caps
