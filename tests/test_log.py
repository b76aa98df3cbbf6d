"""exa_orch.log: the stderr handler's filters."""

from __future__ import annotations

import io
import logging

import pytest

from exa_orch.log import configure_logging


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
def test_the_sdks_per_session_lines_are_debug(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # a handler of this test's own, put back after it
    monkeypatch.setattr(root, "level", root.level)
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    configure_logging(level)
    logging.getLogger("mcp.server.streamable_http_manager").info("Created new transport with session ID: abc")
    logging.getLogger("mcp.server.streamable_http").info("Terminating session: abc")
    logging.getLogger("mcp.server.streamable_http_manager").info("StreamableHTTP session manager started")
    logging.getLogger("mcp.server.streamable_http_manager").warning("Session abc crashed")
    lines = stream.getvalue().splitlines()
    chatter = [line for line in lines if "session ID: abc" in line or "Terminating session" in line]
    if level == "INFO":
        assert chatter == []
    else:
        assert len(chatter) == 2 and all(" DEBUG " in line for line in chatter), lines
    assert any(
        "INFO mcp.server.streamable_http_manager: StreamableHTTP session manager started" in x for x in lines
    )
    assert any("WARNING mcp.server.streamable_http_manager: Session abc crashed" in x for x in lines)
