"""The small values the views read and show: ids checked, ages, counts, titles, JSON columns.

Pure functions, no database: `check_task_id` and `check_workflow_id` refuse a malformed id from a
URL before any query; `age_seconds`, `seconds_between` and `age_text` turn the store's ISO-8601
UTC stamps into ages; `number`, `one_line` and `json_or_none` tidy what a row holds;
`like_pattern` makes a search text a literal LIKE pattern.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from exa_orch.errors import InvalidParams

# `task_<uuid4>` is what the store makes; anything else in a URL is refused before any query.
TASK_ID = re.compile(r"task_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
WORKFLOW_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,99}")


def now_utc() -> datetime:
    """Now, in UTC (the store's stamps are UTC)."""
    return datetime.now(UTC)


def age_seconds(stamp: str | None, now: datetime | None = None) -> float | None:
    """Seconds since an ISO-8601 UTC stamp of the store (`...Z`); None for a missing or odd one."""
    if not stamp:
        return None
    try:
        then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0.0, ((now or now_utc()) - then).total_seconds())


def age_text(seconds: float | None) -> str:
    """`42s`, `3m 12s`, `2h 05m`, `3d 4h`; empty for None."""
    if seconds is None:
        return ""
    s = int(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600}h"


def number(value: Any) -> Any:
    """A whole float as an int (`33.0` -> `33`), anything else as it is: progress counts come back
    from JSON as floats when a workflow reported them so."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def like_pattern(text: str) -> str:
    """`text` as a case-blind LIKE pattern matching it anywhere (`%` and `_` taken literally)."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def seconds_between(start: str | None, end: str | None) -> float | None:
    """Seconds from one store stamp to another; None if either is missing or odd."""
    if not start or not end:
        return None
    try:
        until = datetime.fromisoformat(end.replace("Z", "+00:00"))
    except ValueError:
        return None
    return age_seconds(start, until)


def one_line(text: Any) -> str:
    """A task's title on one line: whitespace runs folded to one space."""
    return " ".join(str(text).split()) if text is not None else ""


def json_or_none(text: str | None) -> Any:
    """A JSON column's value; None for NULL or text cut short (SQL `substr`) or not JSON."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def check_task_id(task_id: str) -> str:
    """The id itself if it has the shape of a task id; InvalidParams otherwise."""
    if not TASK_ID.fullmatch(task_id):
        raise InvalidParams(
            "not a task id: task ids look like task_<uuid4>", hint="Pick a task from the list.", fields=["id"]
        )
    return task_id


def check_workflow_id(workflow_id: str) -> str:
    """The id itself if it looks like a workflow id (lower case, digits, `.`, `_`, `-`)."""
    if not WORKFLOW_ID.fullmatch(workflow_id):
        raise InvalidParams("not a workflow id", hint="Pick a cell of the archive grid.", fields=["workflow"])
    return workflow_id
