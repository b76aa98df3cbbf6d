"""Logging to stderr (stdout carries the MCP stream), with secrets redacted wherever they appear.

Redaction happens twice: when a record is made (a log-record factory installed by the first
`register_secret`, so every handler, pytest's caplog included, sees the redacted text) and again
in our stderr handler's filter and formatter (for exception text rendered later).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

_SECRETS: set[str] = set()
REDACTED = "[REDACTED]"
_factory_installed = False


def register_secret(value: str) -> None:
    """Make every later log record replace `value` with [REDACTED]."""
    if value and len(value) >= 4:
        _SECRETS.add(value)
        _install_record_factory()


def _install_record_factory() -> None:
    global _factory_installed
    if _factory_installed:
        return
    _factory_installed = True
    previous = logging.getLogRecordFactory()

    def make_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _SECRETS:
            _redact_record(record)
        return record

    logging.setLogRecordFactory(make_record)


def _redact_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a malformed format string: leave it for logging to report
        return
    clean = redact(message)
    if clean != message:
        record.msg = clean
        record.args = None
    # Formatters reuse a record's cached exc_text, so rendering the traceback here, redacted,
    # keeps a key inside an exception message out of every handler.
    if record.exc_info and not record.exc_text:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


def redact(text: str) -> str:
    """`text` with every registered secret replaced."""
    for secret in _SECRETS:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


class RedactingFilter(logging.Filter):
    """Rewrite a record's message and arguments so no registered secret reaches a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        if _SECRETS:
            _redact_record(record)
            if record.exc_text:
                record.exc_text = redact(record.exc_text)
        return True


class _RedactingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


QUIET_LOGGERS = ("httpx",)  # INFO is one line per HTTP request
# The MCP SDK's INFO lines for each HTTP session opened, closed or timed out: half a busy server's
# log, and nothing an operator acts on. Shown as DEBUG, at level DEBUG only.
SESSION_CHATTER = {
    "mcp.server.streamable_http_manager": ("Created new transport with session ID", "Session "),
    "mcp.server.streamable_http": ("Terminating session",),
}


class _SessionChatter(logging.Filter):
    """On the stderr handler: SESSION_CHATTER's records demoted to DEBUG (dropped unless the
    handler's level is DEBUG). A handler filter, so it leaves the SDK's loggers as they were."""

    def __init__(self, handler: logging.Handler) -> None:
        super().__init__()
        self._handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        prefixes = SESSION_CHATTER.get(record.name)
        if not prefixes or record.levelno != logging.INFO or not record.getMessage().startswith(prefixes):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return self._handler.level <= logging.DEBUG


def _quiet_http_clients(level: str) -> None:
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)


def configure_logging(level: str = "INFO") -> None:
    """Send exa-orch's and its libraries' logs to stderr, redacted; idempotent.

    httpx logs every request at INFO (`HTTP Request: GET ... "HTTP/1.1 200 OK"`): most of a server's
    log. It is kept to warnings unless the level is DEBUG (the gateway logs what matters itself)."""
    _quiet_http_clients(level)
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_exa_orch", False):
            root.setLevel(level)
            handler.setLevel(level)
            return
    handler = logging.StreamHandler(sys.stderr)
    # The handler keeps the operator's level: an MCP client that asks for debug messages lowers
    # the exa_orch logger's level (exa_orch.mcp.logbridge), which must not flood stderr.
    handler.setLevel(level)
    handler._exa_orch = True  # type: ignore[attr-defined]
    handler.addFilter(RedactingFilter())
    handler.addFilter(_SessionChatter(handler))
    handler.setFormatter(_RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
