"""A world written as JSON (format: docs/simulator.md): its entities and pages, what each page
says, and its drift (entities appearing and fields changing over simulated time).

Contract:
- `load(world, data, where)` fills `world` (entities, declared queries, duplicates, drift) from the
  parsed file, or raises ValueError naming where the file breaks the format. A file without
  `drift` or page `text` loads as it always did.
- A page's `text` is what the page says (served by /contents, quoted in citations); without one
  the page says its `description`. Its `quote` (default: the text's first sentence) is what the
  references citing it quote: a quote the text does not hold is a seeded wrong citation. With
  `unreachable` (true, or one of Exa's crawl error tags) /contents can't read it.
- `drift` is a list of events, each `{"at": simulated seconds since the simulator started, ...}`
  with one of `"add": <an entity, as in "entities">`, `"set": {fields}` with `"entity": <entity
  id>` (every page of it) or `"page": <page id>`, or `"remove": <entity id or page id>` (the page,
  or every page of the entity, disappears: no search finds it, /contents no longer has it). `set`
  takes `name`, `title`, `description`, `text` (replaced) and `attributes`, `criteria` (merged).
  `apply(world, event)` performs one; `World.drift_to(now)` performs the due ones, in file order
  for equal times.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from exa_orch.sim.entity import KINDS, Entity, query_key, slug

SETTABLE = ("name", "title", "description", "text", "attributes", "criteria")


@dataclass(frozen=True)
class Drift:
    """One change a world file schedules: an entity added, or fields of pages set, at `at`."""

    at: float  # simulated seconds since the simulator started
    add: dict[str, Any] | None = None
    target: str | None = None  # with `changes`: an entity id (every page of it) or a page id
    changes: dict[str, Any] | None = None
    remove: str | None = None  # an entity id (every page of it) or a page id that disappears


def load(world: Any, data: Any, where: str) -> None:
    """Fill `world` from a parsed world file (module docstring)."""
    if not isinstance(data, dict) or not isinstance(data.get("entities"), list):
        raise ValueError(f"world file {where}: expected an object with an 'entities' list")
    seen: set[str] = set()  # page ids
    ids: set[str] = set()  # what a drift event may name: entity ids and page ids
    for n, ent in enumerate(data["entities"]):
        ids.add(add_entity(world, ent, f"world file {where}: entities[{n}]", seen))
    world.drift = parse_drift(data.get("drift"), f"world file {where}: drift", seen, ids | seen)


def add_entity(world: Any, ent: Any, at: str, seen: set[str], *, build: bool = True) -> str:
    """Check one entity of the file (its pages' ids join `seen`) and, with `build`, add its pages
    to `world`; returns the entity's id."""
    if not isinstance(ent, dict) or not isinstance(ent.get("name"), str):
        raise ValueError(f"{at}: each entity needs a 'name'")
    kind = ent.get("kind", "company")
    if kind not in KINDS:
        raise ValueError(f"{at}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    truth = str(ent.get("id") or slug(ent["name"]))
    pages = ent.get("pages") or [{}]
    if not isinstance(pages, list) or not all(isinstance(p, dict) for p in pages):
        raise ValueError(f"{at}: 'pages' must be a list of objects")
    ids: list[str] = []
    for k, page in enumerate(pages):
        url = page.get("url") or ent.get("url")
        if not isinstance(url, str) or not url:
            raise ValueError(f"{at}.pages[{k}]: each page needs a 'url' (or the entity one)")
        pid = str(page.get("id") or f"{truth}~{k + 1}")
        if pid in seen:
            raise ValueError(f"{at}.pages[{k}]: id {pid!r} appears twice")
        text = page.get("text", ent.get("text"))
        if text is not None and not isinstance(text, str):
            raise ValueError(f"{at}.pages[{k}]: 'text' must be a string (what the page says)")
        _check_citing(page, f"{at}.pages[{k}]")
        seen.add(pid)
        ids.append(pid)
        if build:
            _add_page(world, ent, page, kind, truth, pid, url, ids[0] if k else None)
            if k:
                world.duplicates.append((str(pages[0].get("url") or ent.get("url")), url))
    return truth


def _add_page(
    world: Any, ent: dict[str, Any], page: dict[str, Any], kind: Any, truth: str, pid: str, url: str,
    first_id: str | None,
) -> None:  # fmt: skip
    name = str(page.get("name") or ent["name"])
    description = str(page.get("description") or ent.get("description") or name)
    attrs: dict[str, Any] = {**(ent.get("attributes") or {}), **(page.get("attributes") or {})}
    attrs["entity"] = truth
    attrs["description"] = description
    attrs["criteria"] = {**(ent.get("criteria") or {}), **(page.get("criteria") or {})}
    if first_id is not None:
        attrs["duplicate_of"] = first_id
    attrs.update({k: page[k] for k in ("quote", "unreachable") if page.get(k)})
    entity = Entity(
        id=pid, kind=kind, name=name, url=url, title=str(page.get("title") or name),
        text=str(page.get("text") or ent.get("text") or description),
        published_date=str(page.get("publishedDate") or "2025-01-01"), author=page.get("author"), attrs=attrs,
    )  # fmt: skip
    world.entities.append(entity)
    for query in page.get("queries") or ent.get("queries") or []:
        world.declared.setdefault(query_key(str(query)), []).append(entity)


CRAWL_ERRORS = ("CRAWL_NOT_FOUND", "CRAWL_TIMEOUT", "SOURCE_NOT_AVAILABLE", "UNSUPPORTED_URL")


def _check_citing(page: dict[str, Any], at: str) -> None:
    """A page's `quote` is a string; its `unreachable` a boolean or one of Exa's crawl error tags."""
    if "quote" in page and not isinstance(page["quote"], str):
        raise ValueError(f"{at}: 'quote' must be a string (what citations of the page quote)")
    bad = page.get("unreachable")
    if bad is not None and not isinstance(bad, bool) and bad not in CRAWL_ERRORS:
        raise ValueError(f"{at}: 'unreachable' must be true or one of {', '.join(CRAWL_ERRORS)}")


def parse_drift(raw: Any, at: str, seen: set[str], names: set[str]) -> list[Drift]:
    """The file's drift events, checked, in time order (file order for equal times)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError(f"{at}: expected a list of events")
    out: list[Drift] = []
    for n, ev in enumerate(raw):
        where = f"{at}[{n}]"
        if not isinstance(ev, dict):
            raise ValueError(f"{where}: each event is an object")
        when = ev.get("at")
        if isinstance(when, bool) or not isinstance(when, int | float) or when < 0:
            raise ValueError(f"{where}: 'at' must be a number of simulated seconds >= 0")
        if sum(key in ev for key in ("add", "set", "remove")) != 1:
            raise ValueError(
                f"{where}: each event has one of 'add' (an entity), 'set' (fields) or 'remove' (an id)"
            )
        if "remove" in ev:
            gone = ev["remove"]
            if not isinstance(gone, str) or gone not in names:
                raise ValueError(f"{where}: 'remove' names an entity id or a page id; no such id {gone!r}")
            out.append(Drift(at=float(when), remove=gone))
            continue
        if "add" in ev:
            names.add(add_entity(None, ev["add"], f"{where}.add", seen, build=False))
            names |= seen
            out.append(Drift(at=float(when), add=ev["add"]))
            continue
        out.append(
            Drift(at=float(when), target=_target(ev, where, names), changes=_changes(ev["set"], where))
        )
    return sorted(out, key=lambda d: d.at)


def _target(ev: dict[str, Any], where: str, names: set[str]) -> str:
    target = ev.get("entity", ev.get("page"))
    if not isinstance(target, str) or ("entity" in ev) == ("page" in ev):
        raise ValueError(f"{where}: a 'set' names one 'entity' id or one 'page' id")
    if target not in names:
        raise ValueError(f"{where}: no entity or page has the id {target!r}")
    return target


def _changes(changes: Any, where: str) -> dict[str, Any]:
    if not isinstance(changes, dict) or not changes:
        raise ValueError(f"{where}.set: expected an object of fields ({', '.join(SETTABLE)})")
    unknown = sorted(set(changes) - set(SETTABLE))
    if unknown:
        raise ValueError(
            f"{where}.set: unknown field(s) {', '.join(unknown)}; settable: {', '.join(SETTABLE)}"
        )
    for key in ("attributes", "criteria"):
        if key in changes and not isinstance(changes[key], dict):
            raise ValueError(f"{where}.set.{key}: expected an object")
    for key in ("name", "title", "description", "text"):
        if key in changes and not isinstance(changes[key], str):
            raise ValueError(f"{where}.set.{key}: expected a string")
    return dict(changes)


def apply(world: Any, drift: Drift) -> None:
    """Perform one drift event on `world` (its indexes are rebuilt by the caller)."""
    if drift.add is not None:
        add_entity(world, drift.add, "drift", set())
        return
    if drift.remove is not None:
        gone = drift.remove

        def kept(e: Entity) -> bool:
            return gone not in (e.id, e.attrs.get("entity"))

        world.entities[:] = [e for e in world.entities if kept(e)]
        for pages in world.declared.values():
            pages[:] = [p for p in pages if kept(p)]
        return
    changes = drift.changes or {}
    swapped: dict[str, Entity] = {}
    for i, e in enumerate(world.entities):
        if drift.target in (e.id, e.attrs.get("entity")):
            world.entities[i] = swapped[e.id] = _changed(e, changes)
    for pages in world.declared.values():  # a declared query finds the page as it now is
        pages[:] = [swapped.get(p.id, p) for p in pages]


def _changed(e: Entity, changes: dict[str, Any]) -> Entity:
    attrs = {**e.attrs, **(changes.get("attributes") or {})}
    attrs["criteria"] = {**(e.attrs.get("criteria") or {}), **(changes.get("criteria") or {})}
    text = e.text
    if "description" in changes:
        attrs["description"] = changes["description"]
        if e.text == e.attrs.get("description"):  # a page without text of its own says its description
            text = changes["description"]
    return dataclasses.replace(
        e, name=changes.get("name", e.name), title=changes.get("title", e.title),
        text=changes.get("text", text), attrs=attrs,
    )  # fmt: skip
