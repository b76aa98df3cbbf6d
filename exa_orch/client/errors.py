"""The host client's typed errors: a tool error body becomes the OrchError it was; transport
failures get their own classes (all OrchError, so one `except OrchError` covers every failure).

ServerError (OrchError)      the server could not answer the call
  + ServerUnavailable        the child could not start, or exited during the call (.returncode)
  + CallTimeout              no answer within the call's deadline (.timeout)
  + ProtocolError            a JSON-RPC error response (.rpc_code): a malformed request, not a tool error
RemoteError (OrchError)      a tool error whose code this client does not know (.remote_code)
CommandNotAllowed (ConfigError)  `command=[...]` is not the exa-orch entry point and the host did
                             not allow it (CONFIG_ERROR; raised when the client is made, before any start)
"""

from __future__ import annotations

from typing import Any, ClassVar

from exa_orch.errors import (
    ConfigError,
    Conflict,
    ErrorCode,
    GatewayError,
    InvalidParams,
    OrchError,
    RateLimited,
    TaskNotFound,
    TaskTerminal,
    UnknownOperation,
)


class ServerError(OrchError):
    """The exa-orch server could not answer the call (transport, process or protocol failure)."""

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR


class ServerUnavailable(ServerError):
    """The child could not start, or exited during the call; the next call starts a new one."""

    def __init__(
        self, message: str, *, returncode: int | None = None, hint: str | None = None, written: bool = True
    ) -> None:
        super().__init__(message, hint=hint)
        self.returncode = returncode
        self.written = written
        """False when the call was never written to a live child (it cannot have run: safe to send
        again, whatever the operation); True when it may have run."""


class CallTimeout(ServerError):
    """No answer within the call's deadline; the request was cancelled at the server."""

    code = ErrorCode.UPSTREAM_TIMEOUT

    def __init__(self, operation: str, timeout: float, message: str | None = None) -> None:
        super().__init__(
            message
            or f"{operation}: no answer from exa-orch within {timeout:g} s; the request was cancelled",
            hint="Pass a longer timeout=..., or run long work as a task (create_task, then wait_task).",
        )
        self.operation = operation
        self.timeout = timeout


class ProtocolError(ServerError):
    """The server answered with a JSON-RPC error (a malformed request, an unknown tool)."""

    def __init__(self, rpc_code: int, message: str) -> None:
        super().__init__(f"JSON-RPC error {rpc_code}: {message}")
        self.rpc_code = rpc_code


class CommandNotAllowed(ConfigError):
    """The child command is neither the exa-orch entry point serving stdio nor in `allowed_commands`."""


class RemoteError(OrchError):
    """A tool error whose code is newer than this client; `remote_code` is the code as sent."""

    def __init__(self, remote_code: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.remote_code = remote_code

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "code": self.remote_code}


def _classes_by_code() -> dict[str, type[OrchError]]:
    """Each code's most general OrchError class (InvalidParams, not UpstreamInvalidParams)."""
    found: dict[str, type[OrchError]] = {}
    queue: list[type[OrchError]] = [OrchError]
    while queue:  # breadth first: a base class is seen before the subclasses sharing its code
        cls = queue.pop(0)
        if cls.__module__ == "exa_orch.errors":
            found.setdefault(str(cls.code), cls)
        queue.extend(cls.__subclasses__())
    return found


_BY_CODE = _classes_by_code()


def error_from_body(body: dict[str, Any]) -> OrchError:
    """The OrchError a tool error body `{code, message, hint, ...}` describes, its details kept.

    Subclass constructors differ (TaskNotFound takes a task id), so the instance is made without
    them and given the attributes each class's `to_dict` and callers read. `.body` is the whole body.
    """
    code = str(body.get("code") or ErrorCode.INTERNAL_ERROR)
    message = str(body.get("message") or code)
    hint = body.get("hint") if isinstance(body.get("hint"), str) else None
    cls = _BY_CODE.get(code)
    if cls is None:
        exc: OrchError = RemoteError(code, message, hint=hint)
    else:
        exc = cls.__new__(cls)
        OrchError.__init__(exc, message, hint=hint)
        if isinstance(exc, InvalidParams):
            exc.fields = list(body.get("fields") or [])
        if isinstance(exc, UnknownOperation):
            exc.name = str(body.get("operation") or "")
            exc.suggestions = list(body.get("suggestions") or [])
        if isinstance(exc, GatewayError):
            exc.status = body.get("status")
            exc.tag = body.get("tag")
            exc.request_id = body.get("requestId")
        if isinstance(exc, RateLimited):
            exc.retry_after = body.get("retryAfter")
        if isinstance(exc, Conflict):
            exc.external_id = body.get("externalId")
        if isinstance(exc, TaskNotFound | TaskTerminal):
            exc.task_id = str(body.get("taskId") or "")
        if isinstance(exc, TaskTerminal):
            exc.status = str(body.get("status") or "")
    exc.body = body  # type: ignore[attr-defined]
    exc.operation = body.get("operation")  # type: ignore[attr-defined]
    return exc
