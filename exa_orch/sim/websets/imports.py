"""Routes: imports create, list, get, update (PATCH), delete, and the CSV upload URL (PUT).

Contract: create (format "csv", entity, size <= 50 MB, count) answers 201 with `uploadUrl` (on the
simulator itself, under /websets/v0/uploads/, no API key needed, like a pre-signed URL) and
`uploadValidUntil` (one simulated hour). The import stays "pending" until the CSV is PUT there,
then is "processing" and "completed" after the timing profile's `import_base`, plus `import_row`
per row (sim/websets/timing.py), sending import.completed. A file without a header row fails with `invalid_file_content`, one without a
URL column with `missing_identifier`. Rows whose URL the world knows become that entity; others
become entities of their own. Websets created with `import: [{source: "import", id}]` get one item
per row (source "import").
"""

from __future__ import annotations

import csv
import hashlib
import io
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from exa_orch.sim.websets import engine, http, timing, views
from exa_orch.sim.websets.store import ImportRec, WebsetsStore, fail, paginate
from exa_orch.sim.world import Entity, EntityKind

P = "/websets/v0/imports"
UPLOADS = "/websets/v0/uploads/"
UPLOAD_VALID_FOR = 3600.0  # simulated seconds
_URL_HEADERS = ("url", "website", "domain", "link", "homepage", "linkedin", "profile")


def _import(st: WebsetsStore, key: str) -> ImportRec:
    rec: ImportRec = st.resolve("import", key)
    return rec


def _token(st: WebsetsStore, import_id: str) -> str:
    return hashlib.sha256(f"{st.ctx.config.seed}:upload:{import_id}".encode()).hexdigest()[:32]


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    body = await http.body(request)
    if body.get("format") != "csv":
        raise http.bad(f"format must be 'csv'; got {body.get('format')!r}")
    entity = http.entity(body, "entity")
    if entity is None:
        raise http.bad("entity is required: {type: company | person | article | research_paper | custom}")
    size = http.number(body, "size", "size", lo=0, hi=50_000_000)
    count = http.number(body, "count", "count", lo=0)
    title = body.get("title")
    if title is not None and not isinstance(title, str):
        raise http.bad("title must be a string")
    identifier = None
    if body.get("csv") is not None:
        spec = body["csv"]
        if not isinstance(spec, dict):
            raise http.bad("csv must be an object {identifier}")
        if spec.get("identifier") is not None:
            if not isinstance(spec["identifier"], int) or spec["identifier"] < 0:
                raise http.bad("csv.identifier must be an integer >= 0 (the index of the URL column)")
            identifier = spec["identifier"]
    http.refuse_external_id(body, "import")
    external_id = None
    imp = ImportRec(id=st.new_id("import"), format="csv", entity=entity, title=title or "CSV import",
                    count=int(count), size=int(size), identifier=identifier, metadata=http.metadata(body) or {},
                    created_at=now, upload_token="", external_id=external_id, updated_at=now)  # fmt: skip
    imp.upload_token = _token(st, imp.id)
    st.imports[imp.id] = imp
    st.register("import", imp.id, external_id)
    engine.emit(st, "import.created", now, views.import_(st, imp, now))
    http.created(request, "import", imp)
    out = views.import_(st, imp, now)
    out["uploadUrl"] = f"{str(request.base_url).rstrip('/')}{UPLOADS}{imp.id}?token={imp.upload_token}"
    out["uploadValidUntil"] = st.ctx.clock.iso(now + UPLOAD_VALID_FOR)
    return http.json(out, 201)


async def upload(request: Request) -> Response:
    st, now = http.begin(request)
    imp = st.imports.get(request.path_params["id"])
    if imp is None or request.query_params.get("token") != imp.upload_token:
        fail(
            403,
            "This upload URL is not valid: create an import and PUT the CSV to its uploadUrl",
            "FORBIDDEN",
        )
    if now > imp.created_at + UPLOAD_VALID_FOR:
        fail(403, "This upload URL has expired (uploadValidUntil): create a new import", "FORBIDDEN")
    if imp.uploaded_at is not None:
        fail(409, f"Import {imp.id} has been uploaded already", "CONFLICT")
    text = (await request.body()).decode("utf-8", errors="replace")
    imp.uploaded_at, imp.updated_at = now, now
    try:
        imp.rows = _parse(st, imp, text)
    except ValueError as exc:
        imp.failed_reason, imp.failed_message = exc.args[0], exc.args[1]
        return Response(status_code=200)
    pace = timing.profile(st)
    imp.done_at = now + pace.import_base + pace.import_row * len(imp.rows)
    for ws in st.websets.values():  # websets created with this import run again until its items are in
        if any(i == imp.id for i, _ in ws.imports) and not ws.deleted:
            ws.busy = True
    return Response(status_code=200)


def _parse(st: WebsetsStore, imp: ImportRec, text: str) -> list[Entity]:
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if len(rows) < 2:
        raise ValueError("invalid_file_content", "The CSV needs a header row and at least one data row")
    header = [h.strip().lower() for h in rows[0]]
    col = imp.identifier
    if col is None:
        col = next((n for n, h in enumerate(header) if h in _URL_HEADERS), None)
    if col is None:
        col = next(
            (n for n, v in enumerate(rows[1]) if "://" in v or v.count(".") >= 1 and " " not in v.strip()),
            None,
        )
    if col is None or col >= len(header):
        raise ValueError("missing_identifier", "No column holds the URL of each row: set csv.identifier")
    name_col = next((n for n, h in enumerate(header) if h in ("name", "title", "company")), None)
    out = []
    for n, row in enumerate(rows[1:]):
        raw = row[col].strip() if col < len(row) else ""
        if not raw:
            continue
        url = raw if "://" in raw else f"https://{raw}"
        known = st.ctx.world.by_url(url)
        if known is not None:
            out.append(known)
            continue
        name = row[name_col].strip() if name_col is not None and name_col < len(row) else raw
        kind: EntityKind = (
            "company"
            if imp.entity.get("type") == "company"
            else "person"
            if imp.entity.get("type") == "person"
            else "article"
        )
        out.append(Entity(
            id=f"imp_{imp.id}_{n}", kind=kind, name=name, url=url, title=name,
            text=f"{name}. Imported row: {', '.join(row)}.", published_date="2026-01-01", author=None, attrs={},
        ))  # fmt: skip
    return out


async def list_(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    rows = list(reversed(st.imports.values()))
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=200)
    return http.json(
        {"data": [views.import_(st, i, now) for i in page], "hasMore": more, "nextCursor": cursor}
    )


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    return http.json(views.import_(st, _import(st, request.path_params["id"]), now))


async def update(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    imp = _import(st, request.path_params["id"])
    body: dict[str, Any] = await http.body(request)
    if "metadata" in body:
        imp.metadata = http.metadata(body) or {}
    if body.get("title") is not None:
        if not isinstance(body["title"], str):
            raise http.bad("title must be a string")
        imp.title = body["title"]
    imp.updated_at = now
    return http.json(views.import_(st, imp, now))


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    imp = _import(st, request.path_params["id"])
    data = views.import_(st, imp, now)
    del st.imports[imp.id]
    st.release("import", imp.external_id)
    return http.json(data)


def routes() -> list[Route]:
    return [
        Route(P, create, methods=["POST"]),
        Route(P, list_, methods=["GET"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", update, methods=["PATCH"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
        Route(f"{UPLOADS}{{id}}", upload, methods=["PUT"]),
    ]
