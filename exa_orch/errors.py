"""Typed errors with stable codes, shared by every layer.

OrchError (.code, .hint)
  + InvalidParams            bad input an agent can fix (names the field, says how)
  |   + UnknownOperation     an operation name that is not registered (.suggestions)
  + ConfigError              a missing or malformed setting (EXA_API_KEY, EXA_ORCH_DB ...)
  + StoreError               the SQLite store failed
  |   + MigrationError       a migration file failed or was edited after being applied
  |   + ForeignDatabase      the file is another application's SQLite database (left untouched)
  |   + InvalidTransition    a task status change that the state machine forbids
  |   + LeaseHeld            another process owns the task's lease
  |   |   + LeaseLapsed      our lease may have lapsed: a request to Exa was not sent
  + TaskNotFound             no task with that id that the caller may see
  |   + TaskExpired          the caller's task finished and was removed after its TTL
  + TaskTerminal             the task already finished; it can't be cancelled or resumed
  + OperationCancelled       the work was cancelled before it finished
  + WebsetNotRunning         a wait ended: the webset is paused (or in an unknown state), never idle by itself
  + GatewayError             a call to Exa failed (.status, .tag, .request_id)
      + UpstreamInvalidParams  400/422: Exa rejected the arguments (also an InvalidParams)
      + AuthenticationError  401: the key is missing or wrong
      + NotFoundError        404: no such object at Exa
      + Conflict             409: an object with that externalId exists already (.external_id)
      + RateLimited*         429 after retries (.retry_after)
      + UpstreamTimeout*     no answer in time, or the connection dropped
      + CreditsExhausted     402: the account is out of credits or over a budget (never retried)
      + ApiError*            any other status from Exa (* retryable kinds)
  + BudgetExceeded           a paid call refused before sending: a principal's daily cap is spent

The codes are stable strings, safe to match on; `rpc_code` gives each its JSON-RPC number
(`RPC_CODES`, the table in docs/reliability.md "Error codes").
Messages say what was wrong and how to fix it; they never contain the API key.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar


class ErrorCode(StrEnum):
    """Stable error codes; the values never change once released."""

    INVALID_PARAMS = "INVALID_PARAMS"
    UNKNOWN_OPERATION = "UNKNOWN_OPERATION"
    CONFIG_ERROR = "CONFIG_ERROR"
    STORE_ERROR = "STORE_ERROR"
    MIGRATION_FAILED = "MIGRATION_FAILED"
    FOREIGN_DATABASE = "FOREIGN_DATABASE"
    INVALID_TRANSITION = "INVALID_TRANSITION"
    LEASE_HELD = "LEASE_HELD"
    TASK_NOT_FOUND = "TASK_NOT_FOUND"
    TASK_TERMINAL = "TASK_TERMINAL"
    OPERATION_CANCELLED = "OPERATION_CANCELLED"
    TASK_EXPIRED = "TASK_EXPIRED"
    TASK_ABANDONED = "TASK_ABANDONED"  # its runs kept dying without progress: not started again
    WEBSET_NOT_RUNNING = "WEBSET_NOT_RUNNING"  # paused (or a state exa-orch does not know): no idle by itself
    API_ERROR = "API_ERROR"
    AUTHENTICATION_ERROR = "AUTHENTICATION_ERROR"
    RESOURCE_NOT_FOUND = "RESOURCE_NOT_FOUND"
    CONFLICT = "CONFLICT"
    RATE_LIMITED = "RATE_LIMITED"
    UPSTREAM_TIMEOUT = "UPSTREAM_TIMEOUT"
    CREDITS_EXHAUSTED = "CREDITS_EXHAUSTED"  # Exa's 402: out of credits, or over a key's/team's budget
    BUDGET_EXCEEDED = "BUDGET_EXCEEDED"  # exa-orch's own daily cap for a principal is spent
    SESSIONS_FULL = "SESSIONS_FULL"  # serve --http holds all the MCP sessions it may (or the caller's share)
    INTERNAL_ERROR = "INTERNAL_ERROR"

    @property
    def rpc_code(self) -> int:
        """The JSON-RPC error number of this code (`RPC_CODES`; docs/reliability.md "Error codes")."""
        return RPC_CODES[self]


# Every code's JSON-RPC number. Seed 000 section 10.1's numbers where it has the meaning (-32602 for
# a bad argument, -32000 for an Exa failure, ...); a number of its own, from -32006 up, for each
# meaning 10.1 lacks (so "no such task" is not an Exa 404, nor "task already finished" an Exa
# failure). The MCP Tasks methods answer the number their specification mandates where it does
# (-32602 for a task id the caller cannot see), whatever this table says.
RPC_CODES: dict[ErrorCode, int] = {
    ErrorCode.INVALID_PARAMS: -32602,
    ErrorCode.UNKNOWN_OPERATION: -32602,  # an operation name is an argument: a bad one is -32602
    ErrorCode.INTERNAL_ERROR: -32603,
    ErrorCode.API_ERROR: -32000,
    ErrorCode.RATE_LIMITED: -32001,
    ErrorCode.AUTHENTICATION_ERROR: -32002,
    ErrorCode.RESOURCE_NOT_FOUND: -32003,
    ErrorCode.OPERATION_CANCELLED: -32004,
    ErrorCode.TASK_EXPIRED: -32005,
    ErrorCode.TASK_NOT_FOUND: -32006,
    ErrorCode.TASK_TERMINAL: -32007,
    ErrorCode.TASK_ABANDONED: -32008,
    ErrorCode.CONFLICT: -32009,
    ErrorCode.UPSTREAM_TIMEOUT: -32010,
    ErrorCode.CONFIG_ERROR: -32011,
    ErrorCode.STORE_ERROR: -32012,
    ErrorCode.MIGRATION_FAILED: -32013,
    ErrorCode.FOREIGN_DATABASE: -32014,
    ErrorCode.INVALID_TRANSITION: -32015,
    ErrorCode.LEASE_HELD: -32016,
    ErrorCode.WEBSET_NOT_RUNNING: -32017,
    ErrorCode.CREDITS_EXHAUSTED: -32018,
    ErrorCode.BUDGET_EXCEEDED: -32019,
    ErrorCode.SESSIONS_FULL: -32020,
}


class OrchError(Exception):
    """Base of every exa-orch error: a stable `code`, a message, and an optional `hint`."""

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR

    MAX_MESSAGE = 4000  # a message quoting the caller's input (a 1 MB task id) must not flood the agent

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        if len(message) > self.MAX_MESSAGE:
            message = f"{message[: self.MAX_MESSAGE]}... (cut: {len(message)} characters)"
        super().__init__(message)
        self.message = message
        self.hint = hint

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape agents see: {code, message, hint}, plus subclass details."""
        out: dict[str, Any] = {"code": str(self.code), "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out


class InvalidParams(OrchError):
    code = ErrorCode.INVALID_PARAMS

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        fields: list[str] | None = None,
        missing: list[str] | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.fields = fields or []
        # Top-level required args that were absent, when that was the only problem (the MCP face
        # asks the user for them, seed 000 section 6.5).
        self.missing = missing or []

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.fields:
            out["fields"] = self.fields
        return out


class UnknownOperation(InvalidParams):
    code = ErrorCode.UNKNOWN_OPERATION

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = (
            f"Did you mean {', '.join(repr(s) for s in suggestions)}? " if suggestions else ""
        ) + "Call the 'list_operations' operation to see every operation with its arguments."
        super().__init__(f"unknown operation {name!r}", hint=hint)
        self.name = name
        self.suggestions = suggestions


class ConfigError(OrchError):
    code = ErrorCode.CONFIG_ERROR


class StoreError(OrchError):
    code = ErrorCode.STORE_ERROR


class MigrationError(StoreError):
    code = ErrorCode.MIGRATION_FAILED

    def __init__(self, version: int, name: str, reason: str, *, applied: list[str] | None = None) -> None:
        """`applied`: when the migration failed while being applied, the labels of those this run
        applied before it (each committed whole, with its row); None when nothing was applied."""
        label = f"{version:04d}_{name}"
        if applied is None:
            message, done = f"migration {label} failed: {reason}", "Nothing was changed. "
        else:
            message = f"migration {label} failed and was rolled back whole (it stays pending): {reason}"
            done = (
                f"Applied before it, and kept: {', '.join(applied)}; not applied: {label} and any after it. "
                if applied
                else f"No migration was applied: {label} was the first pending one. "
            )
        super().__init__(
            message,
            hint=done + "Do what the message says and migrate again (`exa-orch db migrate`, or start the "
            "server), or point EXA_ORCH_DB (or --db) at another database: a new SQLite file, or an "
            "empty PostgreSQL database, gets exa-orch's tables.",
        )
        self.version = version
        self.name = name
        self.applied = applied


class ForeignDatabase(StoreError):
    code = ErrorCode.FOREIGN_DATABASE

    def __init__(self, path: object, tables: list[str]) -> None:
        shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
        super().__init__(
            f"{path} is not an exa-orch database: it holds tables of its own ({shown}) and no "
            "schema_migrations table; exa-orch left it unchanged",
            hint="Point --db (or EXA_ORCH_DB) at an exa-orch database, or at a new file (it is "
            "created); leave out --db for the default in the per-user data directory.",
        )
        self.path = str(path)
        self.tables = tables


class InvalidTransition(StoreError):
    code = ErrorCode.INVALID_TRANSITION

    def __init__(self, task_id: str, current: str, requested: str) -> None:
        super().__init__(f"task {task_id!r} is {current}; it cannot become {requested}")
        self.task_id = task_id
        self.current = current
        self.requested = requested


class LeaseHeld(StoreError):
    code = ErrorCode.LEASE_HELD
    holder: str | None = None

    def __init__(self, task_id: str, owner: str, *, holder: str | None = None) -> None:
        super().__init__(f"task {task_id!r} is leased by another process ({owner})")
        self.task_id = task_id
        self.owner = owner
        self.holder = holder  # the process that took the lease, if one did (None: released or expired)


class LeaseLapsed(LeaseHeld):
    """This process's lease on a task may have lapsed (it was stopped, or renewals failed): a request
    to Exa was refused unsent, since another process may own the task and have done the work."""

    def __init__(self, task_id: str, what: str, left_s: float) -> None:
        StoreError.__init__(
            self,
            f"task {task_id!r}: {what} was not sent: this process's lease "
            + (f"lapsed {-left_s:.1f} s ago" if left_s <= 0 else f"has only {left_s:.1f} s left")
            + " (was the process stopped, or the database unreachable?)",
            hint="Nothing to do: the task resumes under whichever process holds its lease next.",
        )
        self.task_id = task_id
        self.owner = "unknown"
        self.what = what


class TaskNotFound(OrchError):
    code = ErrorCode.TASK_NOT_FOUND

    def __init__(self, task_id: str) -> None:
        super().__init__(
            f"no task {task_id!r}",
            hint="Task ids look like 'task_<uuid>'; a task is seen only by the principal that created it "
            "(its token over HTTP, the local user on stdio). Use 'tasks.list' to see your tasks.",
        )
        self.task_id = task_id


class WatchNotFound(OrchError):
    code = ErrorCode.RESOURCE_NOT_FOUND

    def __init__(self, watch_id: str) -> None:
        super().__init__(
            f"no watch {watch_id!r}",
            hint="Watch ids look like 'watch_<uuid>'; a watch is seen only by the principal that created "
            "it. Use 'watches.list' to see yours.",
        )


class TaskExpired(TaskNotFound):
    """The caller's task finished and was removed when its TTL ran out (its tombstone remains)."""

    code = ErrorCode.TASK_EXPIRED

    def __init__(self, task_id: str, status: str, expired_at: str) -> None:
        OrchError.__init__(
            self,
            f"task {task_id!r} expired: it ended {status} and was removed at {expired_at}, when its TTL ran out",
            hint="A finished task is kept for its TTL (tasks.create's `ttl`, default EXA_ORCH_TASK_TTL); "
            "fetch results before then, or start the task again with a longer ttl.",
        )
        self.task_id = task_id
        self.status = status
        self.expired_at = expired_at


class TaskTerminal(OrchError):
    code = ErrorCode.TASK_TERMINAL

    def __init__(self, task_id: str, status: str) -> None:
        status = str(status)  # a TaskStatus prints as its value, never as <TaskStatus.COMPLETED: ...>
        super().__init__(f"task {task_id!r} is already {status}")
        self.task_id = task_id
        self.status = status

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "status": self.status}


class OperationCancelled(OrchError):
    code = ErrorCode.OPERATION_CANCELLED


class WebsetNotRunning(OrchError):
    """A wait for a webset to become idle ended because it is in a state it leaves only when someone
    acts (Exa's `paused`), or in one exa-orch does not know: waiting on would only run out the clock."""

    code = ErrorCode.WEBSET_NOT_RUNNING

    def __init__(self, webset_id: str, status: str) -> None:
        known = status == "paused"
        super().__init__(
            f"webset {webset_id!r} is {status}: it will not become idle by itself, so the wait stopped"
            + ("" if known else f" (exa-orch does not know the state {status!r})"),
            hint="A paused webset runs again only when it is resumed (in Exa's dashboard, or once its "
            "account has credits again); 'websets.get' shows its state, 'websets.cancel' stops it. "
            "Wait again once it runs.",
        )
        self.webset_id = webset_id
        self.status = status

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "websetId": self.webset_id, "status": self.status}


class GatewayError(OrchError):
    """A call to Exa failed. Carries what Exa said; never the API key."""

    code = ErrorCode.API_ERROR
    retryable: ClassVar[bool] = False

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        tag: str | None = None,
        request_id: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.status = status
        self.tag = tag
        self.request_id = request_id

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key in ("status", "tag"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.tag is not None:  # Exa's own code, whichever envelope carried it (`tag` or `error.code`)
            out["exaCode"] = self.tag
        if self.request_id is not None:
            out["requestId"] = self.request_id
        return out


class AuthenticationError(GatewayError):
    code = ErrorCode.AUTHENTICATION_ERROR


class UpstreamInvalidParams(InvalidParams, GatewayError):
    """Exa answered 400 or 422: the arguments were wrong; an InvalidParams that also carries .status."""

    code = ErrorCode.INVALID_PARAMS

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        tag: str | None = None,
        request_id: str | None = None,
        hint: str | None = None,
    ) -> None:
        GatewayError.__init__(self, message, status=status, tag=tag, request_id=request_id, hint=hint)
        # InvalidParams.__init__ is bypassed: set what every InvalidParams carries (the face reads
        # `missing` to offer an elicitation form; Exa's 400 names no missing field).
        self.fields: list[str] = []
        self.missing: list[str] = []


class NotFoundError(GatewayError):
    code = ErrorCode.RESOURCE_NOT_FOUND


class Conflict(GatewayError):
    """Exa answered 409: an object with this externalId exists already (look it up by that id)."""

    code = ErrorCode.CONFLICT

    def __init__(self, message: str, *, external_id: str | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.external_id = external_id

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.external_id is not None:
            out["externalId"] = self.external_id
        return out


class ApiError(GatewayError):
    code = ErrorCode.API_ERROR


class RateLimited(GatewayError):
    code = ErrorCode.RATE_LIMITED
    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.retry_after = retry_after

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.retry_after is not None:
            out["retryAfter"] = self.retry_after
        return out


class UpstreamTimeout(GatewayError):
    code = ErrorCode.UPSTREAM_TIMEOUT
    retryable = True


class CreditsExhausted(GatewayError):
    """Exa answered 402: the account behind the key is out of credits (`NO_MORE_CREDITS`) or over the
    key's or the team's budget (`API_KEY_BUDGET_EXCEEDED`, `TEAM_BUDGET_EXCEEDED`; Exa's tag is kept in
    `.tag`). Never retried: every later call would fail the same way until someone tops up."""

    code = ErrorCode.CREDITS_EXHAUSTED


class BudgetExceeded(OrchError):
    """A paid call refused unsent: the principal's daily cap (EXA_ORCH_DAILY_BUDGET_USD or its entry in
    EXA_ORCH_DAILY_BUDGETS) would be passed. Names what was spent today and the cap."""

    code = ErrorCode.BUDGET_EXCEEDED

    def __init__(self, principal: str | None, spent: float, cap: float, worst: float) -> None:
        who = principal or "this server's local user"
        super().__init__(
            f"{who} has spent ${spent:.4f} at Exa today (UTC) of a daily cap of ${cap:.2f}; this call "
            f"could cost up to ${worst:.4f} more, so it was not sent",
            hint="Wait for the next UTC day, or ask the operator to raise EXA_ORCH_DAILY_BUDGET_USD (or "
            'this principal\'s entry in EXA_ORCH_DAILY_BUDGETS, e.g. "alice=25,bob=5").',
        )
        self.principal = principal
        self.spent = spent
        self.cap = cap

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "spentUsd": round(self.spent, 6), "capUsd": self.cap}
