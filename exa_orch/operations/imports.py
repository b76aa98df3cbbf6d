"""imports.*: create (with CSV text uploaded for you), get, list, update, delete, waitUntilCompleted, getAll."""

from __future__ import annotations

import csv
import io
from typing import Any, Literal

from pydantic import Field

from exa_orch.errors import ApiError, InvalidParams
from exa_orch.exa import wire
from exa_orch.exa.creates import create_or_find, mark_body
from exa_orch.exa.polling import poll_until
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.operations import projections as pj

from ._creates import find_in_list
from ._http import WEBSETS, request, rest_op, segment
from ._paging import GetAll, collect, project_all
from ._roots import read_local_csv
from .context import OpContext
from .models import Args, Id, Page
from .registry import Operation
from .shapes import Entity, Metadata

MAX_IMPORT_BYTES = 50_000_000


class CsvParams(Args):
    identifier: int | None = Field(default=None, ge=0)
    """index of the column holding each row's key (e.g. the URL)"""


class CreateImport(Args):
    format: Literal["csv"] = "csv"
    entity: Entity
    """what the rows are, e.g. {"type": "company"}"""
    csv: str | CsvParams | None = None
    """the CSV text itself (header row first): exa-orch computes size and count and uploads it; or Exa's
    {identifier} object when you upload the file yourself"""
    path: str | None = Field(default=None, min_length=1, max_length=4096)
    """a local CSV file to import instead of 'csv': read only when it lies inside one of the MCP
    client's roots (the client must offer roots)"""
    csv_identifier: int | None = Field(default=None, ge=0)
    """with CSV text: index of the key column (sent as csv.identifier)"""
    size: int | None = Field(default=None, ge=1, le=MAX_IMPORT_BYTES)
    """bytes of the file (computed from CSV text)"""
    count: int | None = Field(default=None, ge=1)
    """rows to import (computed from CSV text)"""
    title: str | None = None
    metadata: Metadata | None = None
    external_id: str | None = Field(default=None, max_length=300)
    """your idempotency key; Exa's imports take no externalId, so it is kept in metadata.exaOrchKey"""


def csv_facts(text: str) -> tuple[int, int]:
    """(size in bytes, data rows) of CSV text with a header row."""
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    return len(text.encode()), max(len(rows) - 1, 0)


def plan_create(args: CreateImport) -> dict[str, Any]:
    """The POST /imports request; with CSV text, its size and count filled in and the upload planned."""
    body = {"format": args.format, **args.wire(exclude={"csv", "csv_identifier", "path"})}
    upload: dict[str, Any] | None = None
    if args.path is not None:
        if args.csv is not None:
            raise InvalidParams(
                "give the CSV once: 'csv' (its text) or 'path' (a local file), not both",
                fields=["csv", "path"],
            )
        # Size and count come from the file, read (inside the client's roots) when the call runs.
        upload = {"method": "PUT", "to": "uploadUrl from the answer", "from": args.path}
        return {"method": "POST", "path": f"{WEBSETS}/imports", "body": body, "upload": upload}
    if isinstance(args.csv, str):
        size, count = csv_facts(args.csv)
        if count < 1:
            raise InvalidParams(
                "csv: the CSV text needs a header row and at least one data row", fields=["csv"]
            )
        if size > MAX_IMPORT_BYTES:
            raise InvalidParams(f"csv: {size} bytes is over Exa's 50 MB import limit", fields=["csv"])
        body.setdefault("size", size)
        body.setdefault("count", count)
        if args.csv_identifier is not None:
            body["csv"] = {"identifier": args.csv_identifier}
        upload = {"method": "PUT", "to": "uploadUrl from the answer", "bytes": size, "rows": count}
    elif args.csv is not None:
        body["csv"] = args.csv.wire()
    missing = [k for k in ("size", "count") if k not in body]
    if missing:
        raise InvalidParams(
            f"imports.create: {', '.join(missing)} required unless you pass the CSV text in 'csv'",
            hint="Pass csv: 'url,name\\nhttps://a.com,A' and exa-orch computes size and count and uploads it.",
            fields=missing,
        )
    out: dict[str, Any] = {"method": "POST", "path": f"{WEBSETS}/imports", "body": body}
    if upload:
        out["upload"] = upload
    return out


async def upload_csv(ctx: OpContext, url: str, text: str) -> int:
    """PUT the CSV to the import's upload URL (`exa.wire.upload_csv`: the API key is not sent there)."""
    return await wire.upload_csv(ctx.http, url, text)


async def create(args: CreateImport, ctx: OpContext) -> dict[str, Any]:
    """POST the import through `create_or_find` (its key: the caller's externalId, kept in metadata, as
    Exa's import takes no externalId), then upload the CSV text if given (or read from `path`)."""
    if args.path is not None:
        plan_create(args)  # the same checks as a preview (not both csv and path)
        text = await read_local_csv(ctx, args.path, MAX_IMPORT_BYTES)
        args = args.model_copy(update={"csv": text, "path": None})
    plan = plan_create(args)
    body = dict(plan["body"])
    external_id = body.pop("externalId", None)
    if external_id:
        body["metadata"] = {CREATE_MARK: external_id, **(body.get("metadata") or {})}
    body, key, chosen = mark_body(body)

    async def send() -> dict[str, Any]:
        answer: dict[str, Any] = await request(ctx, "POST", plan["path"], body=body)
        return answer

    async def find() -> dict[str, Any] | None:
        found = await find_in_list(ctx, P, key)
        if found is not None and isinstance(args.csv, str) and not found.get("uploadUrl"):
            # Made, but its upload URL was in the answer that was lost: remove it and make it again.
            await request(ctx, "DELETE", f"{P}/{segment(found['id'])}")
            return None
        return found

    created = await create_or_find(send, find, what="imports.create", find_first=chosen)
    if isinstance(args.csv, str):
        url = created.get("uploadUrl")
        if not url:
            raise ApiError("Exa created the import but gave no uploadUrl to send the CSV to")
        status = await upload_csv(ctx, url, args.csv)
        created = {
            **created,
            "uploaded": {"bytes": plan["body"]["size"], "rows": plan["body"]["count"], "status": status},
        }
    return created


def _project_create(result: dict[str, Any], args: Any) -> dict[str, Any]:
    out = pj.import_(result)
    if "uploaded" in result:
        out["uploaded"] = result["uploaded"]
        out.pop("uploadUrl", None)  # used already; a pre-signed URL is a bearer credential
    return out


class ImportId(Args):
    id: Id


class UpdateImport(ImportId):
    title: str | None = None
    metadata: Metadata | None = None


class WaitUntilCompleted(ImportId):
    timeout: float = Field(default=300.0, gt=0, le=3600)
    poll_interval: float = Field(default=2.0, ge=0.05, le=60)


async def wait_until_completed(args: WaitUntilCompleted, ctx: OpContext) -> dict[str, Any]:
    """Poll the import until completed or failed, or `timeout` passes."""

    async def fetch() -> dict[str, Any]:
        import_: dict[str, Any] = await request(ctx, "GET", f"{WEBSETS}/imports/{segment(args.id)}")
        return import_

    async def report(imp: dict[str, Any], polls: int) -> None:
        await ctx.progress(polls, None, f"import {imp.get('status')}")

    polled = await poll_until(
        fetch,
        done=lambda imp: imp.get("status") in ("completed", "failed"),
        report=report,
        within=args.timeout,
        interval=args.poll_interval,
    )
    return {
        "import": polled.last,
        "timedOut": not polled.done,
        "waitedSeconds": polled.waited,
        "polls": polled.polls,
    }


class GetAllImports(GetAll):
    pass


async def get_all(args: GetAllImports, ctx: OpContext) -> dict[str, Any]:
    return await collect(ctx, f"{WEBSETS}/imports", args)


P = f"{WEBSETS}/imports"
OPERATIONS: list[Operation] = [
    Operation("imports.create", CreateImport, create, "Create an import; pass the CSV text in 'csv' and it is "
              "uploaded for you.", project=_project_create, plan=plan_create, create_key="externalId"),
    rest_op("imports.get", ImportId, "GET", P + "/{id}", "Get an import.", project=pj.one(pj.import_)),
    rest_op("imports.list", Page, "GET", P, "List imports, one page.", project=pj.paged(pj.import_)),
    rest_op("imports.update", UpdateImport, "PATCH", P + "/{id}", "Change an import's title or metadata.",
            project=pj.one(pj.import_)),
    rest_op("imports.delete", ImportId, "DELETE", P + "/{id}", "Delete an import.", project=pj.one(pj.import_)),
    Operation("imports.waitUntilCompleted", WaitUntilCompleted, wait_until_completed, "Wait (bounded by timeout) "
              "until an import is completed or failed.", long_running=True,
              project=lambda r, a: {**r, "import": pj.import_(r["import"])}),
    Operation("imports.getAll", GetAllImports, get_all, "Every import, following cursors up to maxItems "
              "(says truncated).", project=project_all(pj.import_), read_only=True),
]  # fmt: skip
