"""Ids in URL paths: which ones can be sent as one path segment, and how they are escaped.

The one rule, used wherever a path is built from an id (operations, the gateway's lookups):
an id that is empty, `.` or `..` would be resolved away (RFC 3986 dot segments, applied by httpx
and by servers), and one holding `/` or `\\` would be split by a server that decodes `%2F`; such
an id is never sent. Everything else is percent-escaped, so `%2e%2e`, `?` or `#` stay literal.
"""

from __future__ import annotations

from urllib.parse import quote

_DOT_SEGMENTS = frozenset({"", ".", ".."})


def route_safe(value: str) -> bool:
    """Whether `value` can be sent as one path segment without reaching another endpoint."""
    return value.strip() not in _DOT_SEGMENTS and "/" not in value and "\\" not in value


def quote_segment(value: str) -> str:
    """`value` percent-escaped as one path segment (call `route_safe` first)."""
    return quote(value, safe="")
