"""An export's bytes: a `Table` (export_rows) written as CSV, JSON Lines or a Markdown report.

- **csv**: a header row, then one row per table row: the key columns, one column per field, then
  `sources` and `citationStatus`. A cell holding several values (item ids, URLs) joins them with a
  space (a URL has none); Python's `csv` module (or any spreadsheet) reads it back. UTF-8, `\\r\\n`
  line ends (RFC 4180).
- **jsonl**: one JSON object per row: the key columns, `fields` {name: value}, `sources` [urls],
  `citationStatus` (null for a row with no checked citation).
- **md**: a report for a person: a heading and what was asked, the synthesis (research.deep's answer,
  adversarial.verify's verdict), the table (each row's sources as numbered references), then the
  numbered sources.

Every format is built from the same table, so the three agree row for row.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from exa_orch.operations.export_rows import Cell, Row, Table
from exa_orch.store import TaskRecord

FORMATS = {"csv": "text/csv", "jsonl": "application/jsonl", "md": "text/markdown"}
NOT_CHECKED = "citationStatus is empty: this task's citations were not checked against their pages."


def _checked(check: Any) -> str:
    """The report's line on the citation check: its counts and note, or that there was none."""
    if not isinstance(check, dict) or not isinstance(check.get("citations"), dict):
        return NOT_CHECKED
    n = check["citations"]
    return (
        f"Citations checked against their pages: {n.get('supported')} supported, {n.get('notFound')} "
        f"not found, {n.get('unreachable')} unreachable, {n.get('unchecked')} unchecked ({check.get('note')})."
    )


def render(record: TaskRecord, table: Table, fmt: str) -> bytes:
    """The export of `table` (made from `record`) in format `fmt` (a key of FORMATS), as UTF-8."""
    if fmt == "csv":
        return to_csv(table).encode()
    if fmt == "jsonl":
        return to_jsonl(table).encode()
    return to_markdown(record, table).encode()


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    return " ".join(value) if isinstance(value, list) else value


def header(table: Table) -> list[str]:
    """The CSV header: key columns, field columns, sources, citationStatus."""
    return [*table.columns, *table.field_columns, "sources", "citationStatus"]


def to_csv(table: Table) -> str:
    """The table as CSV text (see the module docstring)."""
    out = io.StringIO()
    writer = csv.writer(out)
    fields = table.field_columns
    writer.writerow(header(table))
    for row in table.rows:
        writer.writerow(
            [_cell(row.key.get(c)) for c in table.columns]
            + [_cell(row.fields.get(f)) for f in fields]
            + [_cell(row.sources), row.citation_status or ""]
        )
    return out.getvalue()


def row_json(table: Table, row: Row) -> dict[str, Any]:
    """One JSON Lines object: key columns, fields, sources, citationStatus."""
    return {
        **{c: row.key.get(c) for c in table.columns},
        "fields": row.fields,
        "sources": row.sources,
        "citationStatus": row.citation_status,
    }


def to_jsonl(table: Table) -> str:
    """The table as JSON Lines (one object per row, each line ending in \\n)."""
    return "".join(json.dumps(row_json(table, r), ensure_ascii=False) + "\n" for r in table.rows)


# -- the Markdown report -------------------------------------------------------------------------

ASKED_KEYS = ("query", "queries", "instructions", "thesis", "operation")


def _md(text: Any) -> str:
    """A table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _asked(record: TaskRecord) -> list[str]:
    args = record.args if isinstance(record.args, dict) else {}
    return [f"- **{k}**: {_md(json.dumps(args[k], ensure_ascii=False))}" for k in ASKED_KEYS if k in args]


def _synthesis(table: Table) -> list[str]:
    value = table.synthesis
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return ["## Synthesis", "", value.strip(), ""]
    lines = ["## Synthesis", ""]
    if value.get("verdict"):
        lines.append(f"**Verdict**: {value['verdict']} (confidence {value.get('confidence')})")
        lines.append("")
    lines += ["```json", json.dumps(value, indent=2, ensure_ascii=False), "```", ""]
    return lines


def to_markdown(record: TaskRecord, table: Table) -> str:
    """The report: heading, what was asked, synthesis, table, sources (module docstring)."""
    lines = [f"# {record.type}: task {record.id}", ""]
    lines += [f"- **status**: {record.status}", f"- **created**: {record.created_at}", *_asked(record), ""]
    lines += _synthesis(table)
    sources: dict[str, int] = {}
    for row in table.rows:
        for url in row.sources:
            sources.setdefault(url, len(sources) + 1)
    columns = header(table)
    lines += [f"## {table.kind.capitalize()} ({len(table.rows)})", ""]
    lines.append("| " + " | ".join(_md(c) for c in columns) + " |")
    lines.append("|" + "---|" * len(columns))
    for row in table.rows:
        cells = [_md(_cell(row.key.get(c))) for c in table.columns]
        cells += [_md(_cell(row.fields.get(f))) for f in table.field_columns]
        cells += [" ".join(f"[{sources[u]}]" for u in row.sources), row.citation_status or ""]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"_{_checked(table.checked)}_", "", "## Sources", ""]
    lines += [f"{n}. <{url}>" for url, n in sources.items()] or ["(none)"]
    return "\n".join(lines) + "\n"
