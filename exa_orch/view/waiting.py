"""Why a task waits (status input_required), in every view: the request its run left in its
meta names what it waits for, and the views show that in place of the step and message the task
reported before it stopped (which would read as if it were still at work)."""

from __future__ import annotations

from typing import Any

WAITING_SQL = (
    "json_extract(meta, '$.inputRequest.kind') AS waiting_kind,"
    " json_extract(meta, '$.inputRequest.principal') AS waiting_principal,"
    " json_extract(meta, '$.inputRequest.path') AS waiting_path"
)


def waiting_for(kind: Any, principal: Any, path: Any) -> tuple[str, str]:
    """(phase, message) of a task waiting for its owner's input of `kind`."""
    if kind == "apiKey":
        return "waiting for an Exa API key", (
            f"{principal} has given this server no Exa API key (or Exa refused it): a client with "
            "URL-mode elicitation that polls the task is sent the key page, or the operator sets "
            "EXA_API_KEY; it resumes where it stopped"
        )
    if kind == "root":
        return "waiting for a file", (
            f"reads {path} only through its owner's MCP client roots: poll it from a client that "
            "shares the folder, or cancel it and import the CSV text with 'csv'"
        )
    return (
        "waiting for input",
        f"waits for its owner's {kind or 'input'}: poll it from an MCP client (tasks.get says what)",
    )
