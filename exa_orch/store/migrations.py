"""Schema migrations: numbered `.sql` files applied in order, each exactly once.

Files are named `NNNN_snake_name.sql` and are append-only (a file that edits the schema's text
with `PRAGMA writable_schema` gets schema_version bumped in its transaction): once applied, a file's SHA-256 is
recorded in `schema_migrations` and checked on every open, so an edited file is an error rather
than a silent drift. Each file runs in ONE `BEGIN IMMEDIATE` transaction together with its
`schema_migrations` row, so a failing file leaves neither its tables nor its row and stays pending.
`verify()` is read-only; `apply()` verifies, then applies what is pending.

The functions here are synchronous on a `sqlite3.Connection` opened with `isolation_level=None`;
the Store runs them on its writer thread, `exa-orch db migrate` through the same path.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from exa_orch.errors import ForeignDatabase, MigrationError

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)
"""


@dataclass(frozen=True)
class Migration:
    """One migration file: version, name, SQL text and its SHA-256."""

    version: int
    name: str
    sql: str
    checksum: str

    @property
    def label(self) -> str:
        """'0001_init'."""
        return f"{self.version:04d}_{self.name}"


def default_migrations_dir() -> Path:
    """Where the migration files are: in a wheel `exa_orch/_migrations`, in a checkout `<repo>/migrations`."""
    packaged = Path(str(resources.files("exa_orch"))) / "_migrations"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "migrations"


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """Every migration file in `directory`, ordered by version; MigrationError on a bad name or gap."""
    directory = directory or default_migrations_dir()
    if not directory.is_dir():
        raise MigrationError(0, "migrations", f"no migrations directory at {directory}")
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise MigrationError(0, path.stem, f"{path.name} is not named NNNN_snake_name.sql")
        data = path.read_bytes()
        found.append(
            Migration(int(match[1]), match[2], data.decode("utf-8"), hashlib.sha256(data).hexdigest())
        )
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(migration.version, migration.name, f"expected version {expected:04d} here")
    return found


def split_statements(sql: str) -> list[str]:
    """`sql` cut into complete statements (trigger bodies and quoted ';' stay whole)."""
    statements: list[str] = []
    buffer = ""
    *pieces, tail = sql.split(";")
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _has_code(buffer):
                statements.append(buffer.strip())
            buffer = ""
    if _has_code(buffer + tail):
        raise ValueError(f"incomplete statement at the end: {(buffer + tail).strip()[:80]!r}")
    return statements


def _has_code(text: str) -> bool:
    """True if `text` holds something besides whitespace, ';' and -- comments."""
    lines = (line.split("--", 1)[0] for line in text.splitlines())
    return any(line.strip(" \t;") for line in lines)


def refuse_foreign(conn: sqlite3.Connection, path: object) -> None:
    """ForeignDatabase if the file holds tables but no `schema_migrations`: another application's
    database, which exa-orch must not add tables to. Read-only; run it before any write or pragma
    that changes the file (journal_mode=WAL rewrites its header)."""
    tables = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    if tables and "schema_migrations" not in tables:
        raise ForeignDatabase(path, tables)


def applied(conn: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    """version -> (name, checksum) of every applied migration (empty on a new database)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not exists:
        return {}
    rows = conn.execute("SELECT version, name, checksum FROM schema_migrations").fetchall()
    return {version: (name, checksum) for version, name, checksum in rows}


def verify(conn: sqlite3.Connection, migrations: list[Migration]) -> list[Migration]:
    """The pending migrations; MigrationError if an applied file was edited or is unknown. Read-only."""
    return check_applied(applied(conn), migrations)


def check_applied(done: dict[int, tuple[str, str]], migrations: list[Migration]) -> list[Migration]:
    """The pending migrations, given what the database applied (version -> (name, checksum));
    MigrationError if an applied file was edited or is unknown. Shared by both backends."""
    by_version = {m.version: m for m in migrations}
    for version, (name, checksum) in sorted(done.items()):
        known = by_version.get(version)
        if known is None:
            raise MigrationError(
                version,
                name,
                "the database has this migration but this exa-orch does not; upgrade exa-orch",
            )
        if known.checksum != checksum:
            raise MigrationError(
                version,
                name,
                f"{known.label}.sql was edited after it was applied (checksum {checksum[:12]} "
                f"in the database, {known.checksum[:12]} on disk); migrations are append-only: "
                "restore the file and add a new migration instead",
            )
    return [m for m in migrations if m.version not in done]


_WRITABLE_SCHEMA = re.compile(r"^\s*PRAGMA\s+writable_schema\b", re.IGNORECASE)


def _bump_schema_version(conn: sqlite3.Connection) -> None:
    """After a migration edited the schema's text (PRAGMA writable_schema, the documented way to
    loosen a CHECK), bump schema_version in its transaction, so every connection re-reads the schema."""
    (version,) = conn.execute("PRAGMA schema_version").fetchone()
    conn.execute(f"PRAGMA schema_version = {int(version) + 1}")


def apply(conn: sqlite3.Connection, migrations: list[Migration]) -> list[Migration]:
    """Apply every pending migration in order, each in one transaction with its row; return those
    applied. MigrationError on a failure (a full disk, a bad statement) names the migrations this
    call applied and kept, and the one rolled back."""
    conn.execute(_CREATE_TABLE)
    done: list[Migration] = []
    for migration in verify(conn, migrations):
        try:
            statements = split_statements(migration.sql)
        except ValueError as exc:
            raise failed(migration, str(exc), done) from None
        try:
            if _apply_one(conn, migration, statements):
                done.append(migration)
        except sqlite3.Error as exc:
            raise failed(migration, str(exc), done) from exc
    return done


def _apply_one(conn: sqlite3.Connection, migration: Migration, statements: list[str]) -> bool:
    """Run one migration and its schema_migrations row in one transaction: committed whole, or
    rolled back whole on any exception (COMMIT's own included); False if another process had
    applied it meanwhile."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have applied it while we waited for the write lock.
        if conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)).fetchone():
            conn.execute("ROLLBACK")
            return False
        for statement in statements:
            conn.execute(statement)
        if any(_WRITABLE_SCHEMA.match(statement) for statement in statements):
            _bump_schema_version(conn)
        conn.execute(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)",
            (migration.version, migration.name, migration.checksum),
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True


def failed(migration: Migration, reason: str, done: list[Migration]) -> MigrationError:
    """The error for `migration` failing after `done` were applied (both backends)."""
    return MigrationError(migration.version, migration.name, reason, applied=[m.label for m in done])
