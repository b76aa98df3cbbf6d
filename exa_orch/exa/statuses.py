"""Exa's status sets, defined once (the gateway, the workflows and the operations import them).

Sources: the Agent API spec (`AgentRunStatus`, `AgentRunEvent`; tests/fixtures/exa/), Exa's MCP
server's TERMINAL_EVENTS / TERMINAL_STATUSES (tests/fixtures/exa/exa-mcp-server-agent-events.json),
and the Websets spec's webset, search and enrichment statuses (data-design/exa-websets-spec.yaml).
The simulator keeps its own copy (it imports nothing of the rest).
"""

from __future__ import annotations

RUN_TERMINAL = frozenset({"completed", "failed", "cancelled"})
"""Agent run statuses a run never leaves (the Agent API's `AgentRunStatus`)."""
RUN_ACTIVE = frozenset({"queued", "running"})
"""Agent run statuses of a run still going."""
RUN_TERMINAL_EVENTS = frozenset({"agent_run.completed", "agent_run.failed", "agent_run.cancelled"})
"""The event names an agent run's event stream ends on."""

JOB_TERMINAL = frozenset({"completed", "canceled", "cancelled", "failed"})
"""Terminal statuses of a webset search or enrichment (Exa spells `canceled`; both are accepted)."""
SEARCH_ACTIVE = frozenset({"created", "pending", "running"})
"""Webset search statuses of a search still going (the spec's `WebsetSearchStatus`): one to cancel."""

WEBSET_SETTLED = frozenset({"idle", "paused"})
"""Webset statuses of a webset doing no work (it holds no run slot)."""
WEBSET_ON_THEIR_WAY = frozenset({"idle", "running", "pending"})
"""Webset statuses that end in idle by themselves: running, and pending (queued to run). `paused`
(and any state exa-orch does not know) waits for someone to act."""
