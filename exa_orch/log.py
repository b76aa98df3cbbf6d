"""Logging to stderr (stdout carries the MCP stream), with secrets redacted wherever they appear."""

from __future__ import annotations

import logging
import sys

_SECRETS: set[str] = set()
REDACTED = "[REDACTED]"


def register_secret(value: str) -> None:
    """Make every later log record replace `value` with [REDACTED]."""
    if value and len(value) >= 4:
        _SECRETS.add(value)


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
            record.msg = redact(record.getMessage())
            record.args = None
            if record.exc_text:
                record.exc_text = redact(record.exc_text)
        return True


class _RedactingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure_logging(level: str = "INFO") -> None:
    """Send exa-orch's and its libraries' logs to stderr, redacted; idempotent."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_exa_orch", False):
            root.setLevel(level)
            return
    handler = logging.StreamHandler(sys.stderr)
    handler._exa_orch = True  # type: ignore[attr-defined]
    handler.addFilter(RedactingFilter())
    handler.setFormatter(_RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
