"""What the simulator writes from world entities, shared by the search family and agent runs.

- `ranking(world, query, kind)`: every entity ranked for a query, cached per world (rankings are
  deterministic, so caching changes nothing but speed).
- `build_output(schema, entities)`: a value conforming to a (simple) JSON Schema, filled from
  entity fields chosen by property name (name, url, email, location, employees, ...).
- `answer_text`, `grounding`: a short cited answer and field-level grounding rows.
- `entity_object`: Exa's CompanyEntity / PersonEntity for search results.

Everything is a pure function of the entities and the inputs: the same seed gives the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit


def stable(*parts: object) -> int:
    """A 64-bit number from `parts`, the same in every process (unlike `hash()`)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# A full stop that ends an abbreviation, not a sentence: "Inter&Co, Inc. (Nasdaq: INTR) is ...",
# "John F. Kennedy", "Dr. Smith", "S.A.", "U.S.": a page's first sentence goes on past it.
_ABBREVIATION = re.compile(
    r"(?:\b(?:Inc|Ltd|Co|Corp|Bhd|Pty|Plc|Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|No|vs|etc)|\b[A-Z](?:\.[A-Z])*)\.$"
)


def sentences(text: str) -> list[str]:
    """`text` split after each full stop, question or exclamation mark, but a full stop that ends
    an abbreviation or an initial (`_ABBREVIATION`)."""
    out: list[str] = []
    for piece in (s.strip() for s in re.split(r"(?<=[.!?])\s+", text)):
        if piece and out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        elif piece:
            out.append(piece)
    return out


def host(url: str) -> str:
    """The host of `url` (or of a bare domain) without `www.`."""
    try:
        name = urlsplit(url if "//" in url else f"https://{url}").hostname or ""
    except ValueError:  # not a URL or domain at all (an unclosed "[", ...): it matches nothing
        name = url.strip().lower()
    return name.removeprefix("www.")


_RANKINGS: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str, str | None, int], list[Any]]] = (
    weakref.WeakKeyDictionary()
)
RANKING_CACHE_SIZE = 512


def ranking(world: Any, query: str, kind: str | None) -> list[Any]:
    """Every entity (of `kind`) ranked for `query`; cached per world, since rankings never change."""
    cache = _RANKINGS.setdefault(world, OrderedDict())
    key = (query, kind, getattr(world, "version", 0))  # a world file's drift changes the ranking
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = world.search(query, kind=kind, limit=len(world.entities))
        if len(cache) > RANKING_CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return hit


def _string_for(name: str, entity: Any, schema: dict[str, Any]) -> str:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return str(enum[stable(entity.id, name) % len(enum)])
    key = name.lower()
    attrs = entity.attrs
    if "url" in key or "website" in key or "link" in key:
        return str(entity.url)
    if "email" in key:
        return str(attrs.get("email", f"contact@{host(entity.url)}"))
    if "date" in key or "published" in key:
        return str(entity.published_date)
    if "location" in key or "city" in key or "country" in key or "headquarters" in key:
        return str(attrs.get("location", "unknown"))
    if "industry" in key or "sector" in key:
        return str(attrs.get("industry", "unknown"))
    if "author" in key:
        return str(entity.author or "unknown")
    if "role" in key or "position" in key:
        return str(attrs.get("role", "unknown"))
    if "company" in key or "employer" in key:
        return str(attrs.get("company", entity.name))
    if "name" in key or "title" in key:
        return str(entity.name)
    if "categor" in key:
        return ", ".join(attrs.get("categories", [])) or str(entity.kind)
    parts = sentences(entity.text)
    return parts[0] if parts else str(entity.title)


def _number_for(name: str, entity: Any, integer: bool) -> int | float:
    key = name.lower()
    attrs = entity.attrs
    for hint, attr in (
        ("employee", "employees"),
        ("found", "founded"),
        ("year", "founded"),
        ("fund", "funding"),
    ):
        value = attrs.get(attr)
        if hint in key and isinstance(value, int | float):
            return value
    if "year" in key:
        return int(entity.published_date[:4])
    value = stable(entity.id, name) % 1000
    return value if integer else value / 10


def _fill(schema: Any, name: str, entities: list[Any], index: int, depth: int) -> Any:
    if not isinstance(schema, dict) or not entities:
        return None
    entity = entities[index % len(entities)]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        props = schema.get("properties") or {}
        if not props:
            return {"name": entity.name, "url": entity.url} if depth < 3 else {}
        return {key: _fill(sub, key, entities, index, depth + 1) for key, sub in props.items()}
    if kind == "array":
        count = min(len(entities), 5, int(schema.get("maxItems", 5)))
        count = max(count, int(schema.get("minItems", 0)))
        return [
            _fill(schema.get("items") or {"type": "string"}, name, entities, index + i, depth + 1)
            for i in range(count)
        ]
    if kind == "integer":
        return int(_number_for(name, entity, True))
    if kind == "number":
        return _number_for(name, entity, False)
    if kind == "boolean":
        return stable(entity.id, name) % 2 == 0
    return _string_for(name, entity, schema)


def fill(schema: Any, name: str, entities: list[Any], index: int = 0, depth: int = 0) -> Any:
    """A value for `schema` (property `name`) from `entities[index]` onwards (None: no entity)."""
    return _fill(schema, name, entities, index, depth)


def build_output(schema: dict[str, Any], entities: list[Any]) -> Any:
    """A value conforming to (simple) JSON `schema`, filled deterministically from `entities`.

    `{"type": "text"}` (exa-py's DeepOutputSchema for prose) gives an answer string.
    """
    if schema.get("type") == "text":
        return answer_text(str(schema.get("description") or ""), entities)
    return _fill(schema, "root", entities, 0, 0)


def answer_text(query: str, entities: list[Any]) -> str:
    """A short cited answer built from the top entities."""
    if not entities:
        return f"No sources were found for {query!r}."
    parts = [f"{e.name} ({e.url}): {(sentences(e.text) or [e.title])[0]}" for e in entities[:3]]
    lead = f"For {query!r}, " if query else ""
    return f"{lead}the most relevant sources say: " + " ".join(f"[{i + 1}] {p}" for i, p in enumerate(parts))


def grounding(output: Any, entities: list[Any]) -> list[dict[str, Any]]:
    """Field-level grounding rows for a deep-search output."""
    fields = list(output) if isinstance(output, dict) else ["content"]
    cites = [{"url": e.url, "title": e.title} for e in entities[:3]]
    return [
        {"field": f, "citations": cites, "confidence": "high" if i == 0 else "medium"}
        for i, f in enumerate(fields)
    ]


def entity_object(entity: Any) -> dict[str, Any] | None:
    """Exa's CompanyEntity / PersonEntity for a company or person (None for other kinds)."""
    attrs = entity.attrs
    if entity.kind == "company":
        city, _, country = str(attrs.get("location", "")).partition(", ")
        funding = attrs.get("funding")
        return {
            "id": entity.id,
            "type": "company",
            "version": 1,
            "properties": {
                "name": entity.name,
                "foundedYear": attrs.get("founded"),
                "description": (sentences(entity.text) or [entity.title])[0],
                "workforce": {"total": attrs.get("employees")},
                "headquarters": {
                    "address": None,
                    "city": city or None,
                    "postalCode": None,
                    "country": country or None,
                },
                "financials": {"revenueAnnual": None, "fundingTotal": funding, "fundingLatestRound": None},
                "webTraffic": None,
            },
        }
    if entity.kind == "person":
        return {
            "id": entity.id,
            "type": "person",
            "version": 1,
            "properties": {
                "name": entity.name,
                "location": attrs.get("location"),
                "workHistory": [
                    {
                        "title": attrs.get("role"),
                        "location": attrs.get("location"),
                        "dates": {"from": entity.published_date, "to": None},
                        "company": {"id": attrs.get("company_id"), "name": attrs.get("company")},
                    }
                ],
            },
        }
    return None
