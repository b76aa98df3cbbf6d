"""Exports: a finished task's result as a CSV, JSON Lines or Markdown file, built from the database.

One builder (`export_of`) serves every face: `exa-orch export` (the CLI reads the task on a
read-only connection), the `tasks.export` operation, and the MCP resource
`exa-orch://tasks/{taskId}/export.{csv|jsonl|md}` (mcp/resources.py), which builds the bytes
again when read, from the database, so any server on the database serves them. The operation and
the resource build it in a worker thread (`build_export`), off the event loop the server's tasks
run on. What the rows are: `export_rows`; how each format writes them: `export_formats`.

The task is read as tasks.get reads it, for its owner: another principal's task is TASK_NOT_FOUND.
An export carries the task's stored result and args (never the Exa key, which no task stores).
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from exa_orch.errors import InvalidParams, TaskNotFound
from exa_orch.runtime import Principal
from exa_orch.store import TaskRecord, TaskStatus
from exa_orch.store.reading import read_task

from .context import OpContext
from .export_formats import FORMATS, render
from .export_rows import table
from .models import Args
from .registry import Operation
from .tasks import _principal, _service

Format = Literal["csv", "jsonl", "md"]
URI_PREFIX = "exa-orch://tasks/"


def export_uri(task_id: str, fmt: str) -> str:
    """The MCP resource that serves this export: exa-orch://tasks/{taskId}/export.{fmt}."""
    return f"{URI_PREFIX}{task_id}/export.{fmt}"


@dataclass(frozen=True)
class Export:
    """An export's bytes and what describes them (file name, MIME type, rows)."""

    task_id: str
    format: str
    data: bytes
    rows: int
    kind: str

    @property
    def mime_type(self) -> str:
        return FORMATS[self.format]

    @property
    def name(self) -> str:
        return f"{self.task_id}.{self.format}"

    @property
    def uri(self) -> str:
        return export_uri(self.task_id, self.format)


def check_format(fmt: str) -> str:
    """`fmt` if it is an export format; InvalidParams naming them otherwise."""
    if fmt not in FORMATS:
        raise InvalidParams(
            f"format: {fmt[:40]!r} is not an export format; use one of: {', '.join(FORMATS)}",
            fields=["format"],
        )
    return fmt


def export_of(record: TaskRecord, fmt: str) -> Export:
    """The export of a completed task's result in `fmt`; InvalidParams for a task not completed."""
    check_format(fmt)
    check_completed(record)
    rows = table(record)
    return Export(record.id, fmt, render(record, rows, fmt), len(rows.rows), rows.kind)


async def build_export(record: TaskRecord, fmt: str) -> Export:
    """`export_of`, built in a worker thread: grouping a result's items into entities (entity
    resolution, when the result kept no grouping) and writing the rows are CPU work, seconds for a
    few hundred items on a busy machine, and the server's event loop renews its tasks' leases."""
    return await asyncio.to_thread(export_of, record, fmt)


def check_completed(record: TaskRecord) -> None:
    """InvalidParams (saying what to do instead) for a task that is not completed: only a completed
    task has a result to hand on."""
    if record.status is not TaskStatus.COMPLETED:
        raise InvalidParams(
            f"task {record.id} is {record.status}: only a completed task's result can be exported",
            hint="Wait for it (tasks.result with wait: <seconds>), then export it."
            if not record.terminal
            else "Its partial result is in tasks.get with full: true.",
            fields=["taskId"],
        )


# -- the tasks.export operation ------------------------------------------------------------------


class ExportArgs(Args):
    task_id: str = Field(min_length=1)
    """the id of a completed task (tasks.create returned it)"""
    format: Format = "csv"
    """csv (one row per entity or claim), jsonl (one JSON object per row) or md (a readable report)"""


async def _export(args: ExportArgs, ctx: OpContext) -> dict[str, object]:
    record = await _service(ctx).get(args.task_id, principal=_principal(ctx))
    built = await build_export(record, args.format)
    return {
        "taskId": record.id,
        "format": built.format,
        "uri": built.uri,
        "name": built.name,
        "mimeType": built.mime_type,
        "size": len(built.data),
        "rows": built.rows,
        "rowKind": built.kind,
        "hint": "read the file with MCP resources/read on uri (built from the database when read); "
        "citationStatus is each row's citation check (empty where none was checked)",
    }


EXPORT_OPERATIONS = [
    Operation(
        "tasks.export",
        ExportArgs,
        _export,
        "A completed task's result as a csv, jsonl or md file, by resource link",
        read_only=True,
    )
]


# -- exa-orch export -----------------------------------------------------------------------------


def check_out_path(out: str) -> Path:
    """The file `--out` names, checked before anything is built: InvalidParams for a directory, a
    path whose folder does not exist, or anything that exists and is not a regular file."""
    path = Path(out)
    if path.is_dir():
        raise InvalidParams(
            f"--out {out!r} is a directory; give a file name to write the export to",
            hint=f"For example --out {os.path.join(out, 'export.csv')!r}.",
            fields=["out"],
        )
    if path.exists() and not path.is_file():
        raise InvalidParams(f"--out {out!r} exists and is not a regular file", fields=["out"])
    if not path.parent.is_dir():
        raise InvalidParams(
            f"--out {out!r}: its folder {str(path.parent)!r} does not exist",
            hint="Create the folder first, or write into an existing one.",
            fields=["out"],
        )
    return path


async def export_command(
    target: Path | str, task_id: str, fmt: str, out: str | None, principal: Principal
) -> int:
    """`exa-orch export`: the export of `principal`'s task to `out` (stdout without it); 0 once
    written. InvalidParams / TaskNotFound / StoreError for the CLI to print."""
    check_format(fmt)
    path = check_out_path(out) if out is not None else None
    record = await read_task(target, task_id, "exa-orch export")
    if not principal.may_see(record.principal):
        raise TaskNotFound(task_id)
    built = export_of(record, fmt)
    if path is None:
        sys.stdout.flush()
        binary = getattr(sys.stdout, "buffer", None)  # a caller's text stream (a test's) has none
        if binary is not None:
            binary.write(built.data)
            binary.flush()
        else:
            sys.stdout.write(built.data.decode())
    else:
        path.write_bytes(built.data)
        print(f"wrote {built.rows} {built.kind} rows ({len(built.data)} bytes) to {path}", file=sys.stderr)
    return 0
