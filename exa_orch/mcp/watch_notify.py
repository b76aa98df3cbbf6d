"""A watch run that found a change, told to its owner's MCP sessions (operations/watch_notify.py
delivers the webhook; this is the face's listener).

The notice goes out as an MCP log message (`notifications/message`, level `notice`, logger
`exa_orch.watches`) through the log bridge (mcp/logbridge.py), which sends a record concerning a
principal to that principal's connections alone: those that asked for log messages
(`logging/setLevel` at `notice` or below) hear it. It names the watch, the run, its child task
and what changed in counts; `watches.get` has the diff. Every server on a database tells its own
sessions, whichever server recorded the run: each reads the run's MCP notice from the outbox
(operations/watch_sender.py), once, within the scheduler's poll (at once on the recording server).
"""

from __future__ import annotations

import logging
from typing import Any

from exa_orch.app import App
from exa_orch.mcp.logbridge import MCP_LEVELS
from exa_orch.mcp.logbridge import bridge as log_bridge
from exa_orch.runtime import concerning

watch_log = logging.getLogger("exa_orch.watches")
NOTICE = MCP_LEVELS["notice"]


async def tell_sessions(owner: str | None, payload: dict[str, Any]) -> bool:
    """Log the run's notice for `owner`'s sessions; True if one of them listens."""
    diff = payload.get("diff") or {}
    heard = log_bridge().listening(owner, NOTICE)
    watch_log.log(
        NOTICE,
        "watch %s run %s changed: %d added, %d gone, %d changed (task %s; watches.get has the diff)",
        payload.get("watchId"),
        payload.get("run"),
        len(diff.get("added") or []),
        len(diff.get("gone") or []),
        len(diff.get("changed") or []),
        payload.get("taskId"),
        extra=concerning(owner),
    )
    return heard


def install_watch_notifications(app: App) -> None:
    """Add `tell_sessions` to the app's watch notifier (once per app, however many servers it builds)."""
    watches = app.watches
    if watches is not None and tell_sessions not in watches.notifier.listeners:
        watches.notifier.listen(tell_sessions)
