"""Entity memory (migration 0020): what each principal's collection tasks found, across runs.

The store keeps rows and knows no identity rule: the workflows' resolver (workflows/entities) decides
which items are one entity, and `workflows/memory.py` hands the store a `Plan` of the result, which
`EntityMemory.apply` writes in one transaction. Memory is per principal: every read and write names
one ('' for a task with no owner), and nothing here returns another principal's rows.

- `candidates(principal, keys)`: the remembered entities sharing an identity key with new items
  (domain, profile, URL, name), each with every sighting (its item too, so the resolver can weigh it
  again);
- `apply(principal, plan)`: entities kept, made, changed and dropped as the plan says (a join moves
  the sightings of the entities it ties together onto one; a split moves some to a new entity), new
  sightings written (one per task and item: writing a task's sightings again changes nothing);
- `entities(principal, limit)`: the principal's entities, most recently seen first (exclusions, the
  web view); `counts(principal)`;
- `record_search` / `earlier_search`: how many candidates a plain (not `known: "skip"`) search of
  the same query, entity and criteria analyzed for its count (migration 0022): what a repeat run
  with `known: "skip"` may spend on searching (workflows/memory_search.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from exa_orch.store.core import Store
from exa_orch.store.records import iso

Json = dict[str, Any]
_LOCK_SPACE = 734_521  # pg_try_advisory_xact_lock(_LOCK_SPACE, <principal's key>): one plan at a time
_KEYS_PER_READ = 400  # well under both databases' limits on one statement's parameters
_ENTITY_COLUMNS = "id, type, name, names, domains, urls, profiles, evidence, first_seen, last_seen"
_SIGHTING_COLUMNS = "id, entity_id, task_id, task_type, item_id, seen_at, url, sources, fields, item"


@dataclass
class Sighting:
    """One time a task's result held the entity."""

    task_id: str
    task_type: str
    item_id: str
    item: Json  # the item as the result held it (what the resolver reads again)
    url: str | None = None
    sources: list[str] = field(default_factory=list)  # pages cited for its criteria and fields
    fields: list[str] = field(default_factory=list)  # the fields the task found a value for
    seen_at: str = ""  # filled by `apply` for a new sighting
    id: int | None = None  # None: not written yet
    entity_id: int | None = None


@dataclass
class Facts:
    """What memory says of one entity: its type, name, every name, registered domain, page and
    profile URL its sightings had, and the resolver's merges that made it ([{items, reason}])."""

    type: str | None
    name: str | None
    names: list[str]
    domains: list[str]
    urls: list[str]
    profiles: list[str]
    evidence: list[Json]


@dataclass
class Remembered(Facts):
    """One entity as memory holds it."""

    id: int
    first_seen: str
    last_seen: str
    sightings: list[Sighting] = field(default_factory=list)


@dataclass
class Group(Facts):
    """One entity of a plan: `entity_id` None makes a new one. `sightings` are all of its
    sightings after the plan (earlier ones, written, move here; new ones are written)."""

    entity_id: int | None
    keys: list[str]
    sightings: list[Sighting]


@dataclass
class Plan:
    """What memory becomes: these groups, and the entities no group keeps (their sightings moved)."""

    groups: list[Group]
    dropped: list[int] = field(default_factory=list)
    # The remembered entities the plan was made from, each with its count of sightings then: `apply`
    # writes nothing if memory has changed since (another process remembered meanwhile).
    read: dict[int, int] = field(default_factory=dict)
    probed: list[str] = field(default_factory=list)  # the keys `candidates` was asked for


def _loads(text: Any, default: Any) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else default
    except ValueError:
        return default


def _remembered(row: Sequence[Any]) -> Remembered:
    return Remembered(
        id=int(row[0]), type=row[1], name=row[2], names=_loads(row[3], []), domains=_loads(row[4], []),
        urls=_loads(row[5], []), profiles=_loads(row[6], []), evidence=_loads(row[7], []),
        first_seen=str(row[8]), last_seen=str(row[9]),
    )  # fmt: skip


def _sighting(row: Sequence[Any]) -> Sighting:
    return Sighting(
        task_id=str(row[2]), task_type=str(row[3]), item_id=str(row[4]), seen_at=str(row[5]), url=row[6],
        sources=_loads(row[7], []), fields=_loads(row[8], []), item=_loads(row[9], {}), id=int(row[0]),
        entity_id=int(row[1]),
    )  # fmt: skip


def _marks(n: int) -> str:
    return ", ".join("?" * n)


class EntityMemory:
    """Entity memory over an open Store (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._store._read(sql, params)

    async def candidates(self, principal: str, keys: Sequence[str]) -> list[Remembered]:
        """The principal's entities that hold any of `keys`, each with all its sightings (oldest first)."""
        wanted = sorted(set(keys))
        ids: set[int] = set()
        for at in range(0, len(wanted), _KEYS_PER_READ):
            part = wanted[at : at + _KEYS_PER_READ]
            rows = await self._read(
                f"SELECT DISTINCT entity_id FROM memory_keys WHERE principal = ? AND key IN ({_marks(len(part))})",
                (principal, *part),
            )
            ids.update(int(r[0]) for r in rows)
        return await self._with_sightings(principal, sorted(ids))

    async def _with_sightings(self, principal: str, ids: list[int]) -> list[Remembered]:
        out: list[Remembered] = []
        for at in range(0, len(ids), _KEYS_PER_READ):
            part = ids[at : at + _KEYS_PER_READ]
            marks = _marks(len(part))
            rows = await self._read(
                f"SELECT {_ENTITY_COLUMNS} FROM memory_entities WHERE principal = ? AND id IN ({marks}) ORDER BY id",
                (principal, *part),
            )
            found = {e.id: e for e in map(_remembered, rows)}
            seen = await self._read(
                f"SELECT {_SIGHTING_COLUMNS} FROM memory_sightings WHERE principal = ? AND entity_id IN ({marks})"
                " ORDER BY seen_at, id",
                (principal, *part),
            )
            for s in map(_sighting, seen):
                if s.entity_id in found:
                    found[s.entity_id].sightings.append(s)
            out.extend(found.values())
        return out

    async def entities(self, principal: str, limit: int, offset: int = 0) -> list[Remembered]:
        """The principal's entities, most recently seen first (no sightings read)."""
        rows = await self._read(
            f"SELECT {_ENTITY_COLUMNS} FROM memory_entities WHERE principal = ?"
            " ORDER BY last_seen DESC, id DESC LIMIT ? OFFSET ?",
            (principal, limit, offset),
        )
        return [_remembered(r) for r in rows]

    async def counts(self, principal: str) -> tuple[int, int]:
        """(entities, sightings) the principal's memory holds."""
        (entities,) = (
            await self._read("SELECT count(*) FROM memory_entities WHERE principal = ?", (principal,))
        )[0]
        (seen,) = (
            await self._read("SELECT count(*) FROM memory_sightings WHERE principal = ?", (principal,))
        )[0]
        return int(entities), int(seen)

    async def record_search(
        self, principal: str, fingerprint: str, task_id: str, count: int, analyzed: int
    ) -> None:
        """Remember that `task_id`'s search `fingerprint` (its query, entity and criteria) analyzed
        `analyzed` candidates for `count` items (written again for the same task: changes nothing)."""
        now = iso(self._store._clock())
        await self._store._writer.submit(
            lambda conn: conn.execute(
                "INSERT INTO memory_searches (principal, fingerprint, task_id, count, analyzed, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (principal, fingerprint, task_id, count, analyzed, now),
            )
        )

    async def earlier_search(self, principal: str, fingerprint: str) -> tuple[int, int] | None:
        """(count, analyzed) of the principal's latest search `fingerprint`, or None."""
        rows = await self._read(
            "SELECT count, analyzed FROM memory_searches WHERE principal = ? AND fingerprint = ?"
            " ORDER BY at DESC, task_id DESC LIMIT 1",
            (principal, fingerprint),
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def apply(self, principal: str, plan: Plan) -> list[int] | None:
        """Write `plan` in one transaction; return each group's entity id, in order. None, with
        nothing written, when the principal's memory is not what the plan was made from (`Plan.read`:
        another process or task remembered meanwhile): read the candidates again, plan again.
        Transactions that apply a plan of one principal take turns (SQLite: its one writer at a time;
        PostgreSQL: an advisory lock on the principal, and None while another holds it), so two
        processes never both make the entity neither had seen."""
        store = self._store
        now = iso(store._clock())
        return await store._writer.submit(lambda conn: _apply(conn, principal, plan, now))


def _lock_key(principal: str) -> int:
    """The principal's advisory lock key (PostgreSQL), under _LOCK_SPACE."""
    return int.from_bytes(hashlib.blake2b(principal.encode(), digest_size=4).digest(), "big", signed=True)


def _unchanged(conn: Any, principal: str, plan: Plan) -> bool:
    """Whether memory still is what `plan` was made from: the entities holding the keys it was
    read by are the ones it read, each with as many sightings (read inside the writing transaction)."""
    got = conn.execute(
        f"/*pg:SELECT pg_try_advisory_xact_lock({_LOCK_SPACE}, {_lock_key(principal)})*/"
    ).fetchone()
    if got is not None and not got[0]:
        return False  # another server is applying this principal's plan now
    keys = sorted(set(plan.probed))
    ids: set[int] = set()
    for at in range(0, len(keys), _KEYS_PER_READ):
        part = keys[at : at + _KEYS_PER_READ]
        rows = conn.execute(
            f"SELECT DISTINCT entity_id FROM memory_keys WHERE principal = ? AND key IN ({_marks(len(part))})",
            (principal, *part),
        ).fetchall()
        ids.update(int(r[0]) for r in rows)
    if not ids <= set(plan.read):
        return False
    seen = sorted(plan.read)
    for at in range(0, len(seen), _KEYS_PER_READ):
        done = seen[at : at + _KEYS_PER_READ]
        marks = _marks(len(done))
        alive = conn.execute(
            f"SELECT count(*) FROM memory_entities WHERE principal = ? AND id IN ({marks})",
            (principal, *done),
        ).fetchone()[0]
        counts = conn.execute(
            f"SELECT entity_id, count(*) FROM memory_sightings WHERE principal = ? AND entity_id IN ({marks})"
            " GROUP BY entity_id",
            (principal, *done),
        ).fetchall()
        if int(alive) != len(done) or {int(e): int(n) for e, n in counts} != {
            e: plan.read[e] for e in done if plan.read[e]
        }:
            return False
    return True


def _apply(conn: Any, principal: str, plan: Plan, now: str) -> list[int] | None:
    if not _unchanged(conn, principal, plan):
        return None
    ids: list[int] = []
    for group in plan.groups:
        for s in group.sightings:
            s.seen_at = s.seen_at or now
        first = min(s.seen_at for s in group.sightings)
        last = max(s.seen_at for s in group.sightings)
        values = (
            group.type, group.name, json.dumps(group.names), json.dumps(group.domains), json.dumps(group.urls),
            json.dumps(group.profiles), json.dumps(group.evidence), first, last,
        )  # fmt: skip
        if group.entity_id is None:
            row = conn.execute(
                "INSERT INTO memory_entities (type, name, names, domains, urls, profiles, evidence, first_seen,"
                " last_seen, principal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (*values, principal),
            ).fetchone()
            entity_id = int(row[0])
        else:
            entity_id = group.entity_id
            conn.execute(
                "UPDATE memory_entities SET type = ?, name = ?, names = ?, domains = ?, urls = ?, profiles = ?,"
                " evidence = ?, first_seen = ?, last_seen = ? WHERE id = ? AND principal = ?",
                (*values, entity_id, principal),
            )
            conn.execute("DELETE FROM memory_keys WHERE entity_id = ?", (entity_id,))
        ids.append(entity_id)
        conn.executemany(
            "INSERT INTO memory_keys (principal, key, entity_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [(principal, k, entity_id) for k in sorted(set(group.keys))],
        )
        _write_sightings(conn, principal, entity_id, group.sightings)
    for gone in plan.dropped:
        conn.execute("DELETE FROM memory_keys WHERE entity_id = ?", (gone,))
        # A dropped entity's sightings were all moved by its groups; any left (none, by the plan) go too.
        conn.execute("DELETE FROM memory_sightings WHERE entity_id = ? AND principal = ?", (gone, principal))
        conn.execute("DELETE FROM memory_entities WHERE id = ? AND principal = ?", (gone, principal))
    return ids


def _write_sightings(conn: Any, principal: str, entity_id: int, sightings: list[Sighting]) -> None:
    moved = [(entity_id, s.id, principal) for s in sightings if s.id is not None]
    conn.executemany("UPDATE memory_sightings SET entity_id = ? WHERE id = ? AND principal = ?", moved)
    conn.executemany(
        "INSERT INTO memory_sightings (entity_id, principal, task_id, task_type, item_id, seen_at, url,"
        " sources, fields, item) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (task_id, item_id) DO UPDATE SET entity_id = excluded.entity_id",
        [
            (entity_id, principal, s.task_id, s.task_type, s.item_id, s.seen_at, s.url,
             json.dumps(s.sources), json.dumps(s.fields), json.dumps(s.item))
            for s in sightings
            if s.id is None
        ],
    )  # fmt: skip
