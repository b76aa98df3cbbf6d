"""data-design/ stays true: its tables, views and columns are exactly the migrated schema's."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from exa_orch.store import Store

DOCS = Path(__file__).resolve().parents[2] / "data-design"
HEADING = re.compile(r"^#{2,4} `(\w+)` \((table|view)\)\s*$")
COLUMN_ROW = re.compile(r"^\|\s*`(\w+)`\s*\|")


def documented() -> dict[tuple[str, str], list[str]]:
    """(kind, name) -> columns, from every `### \\`name\\` (table|view)` section of data-design/*.md."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(DOCS.glob("*.md")):
        current: tuple[str, str] | None = None
        for line in path.read_text().splitlines():
            if line.startswith("#"):
                match = HEADING.match(line)
                current = (match[2], match[1]) if match else None
                if current is not None:
                    assert current not in found, f"{current} is documented twice"
                    found[current] = []
            elif current is not None and (row := COLUMN_ROW.match(line)):
                found[current].append(row[1])
    return found


async def migrated(path: Path) -> dict[tuple[str, str], list[str]]:
    async with Store(path):
        pass
    with sqlite3.connect(path) as conn:
        objects = conn.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        return {
            (kind, name): [row[1] for row in conn.execute(f"PRAGMA table_info({name})")]
            for kind, name in objects
        }


async def test_every_table_and_column_is_documented_and_exists(tmp_path: Path) -> None:
    docs = documented()
    schema = await migrated(tmp_path / "schema.db")
    assert len(docs) >= 10, "the parser found too little: did the heading format change?"
    assert sorted(set(schema) - set(docs)) == [], "in the schema but not in data-design/"
    assert sorted(set(docs) - set(schema)) == [], "in data-design/ but not in the schema"
    for key in sorted(schema):
        assert docs[key] == schema[key], f"{key}: documented columns differ from the schema (order too)"


def test_the_parser_sees_both_kinds() -> None:
    docs = documented()
    assert ("table", "tasks") in docs and ("view", "v_archive") in docs
    assert "lease_owner" in docs[("table", "tasks")]
