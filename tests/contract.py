"""Exa's own specs as a contract every simulator answer and every exa-orch request meets.

`observe(exchange)` is the hook tests/conftest.py puts in `exa_orch.sim.exchanges.EXCHANGE_HOOKS`
for the whole session, so every simulator running in a test process (the `sim` fixture,
`running_sim`, `SimThread`, `serve --sim`'s in-process one) is checked, and no test can turn it
off. For each exchange it finds the spec operation (the Agent API spec in tests/fixtures/exa/,
the Search and Websets specs in data-design/) and:
- validates the answer against the operation's response schema for its status (an event stream
  event by event, against AgentRunEvent); an error status the spec does not declare must have the
  flat envelope of Exa's recorded bodies (tests/fixtures/real/); an answer the simulator faulted on
  purpose is not checked;
- validates a request exa-orch sent (its User-Agent names `exa-orch/`: tests' own raw requests,
  deliberately malformed ones among them, are not exa-orch's) against the operation's declared
  query parameters, request body schema and required headers (`x-api-key`, and `Exa-Beta` listing
  agent-2026-05-07 on the Agent API).
Each distinct shape (`skeleton`: keys, types and the values of a few enum-like keys) is validated
once per process, so the suite pays for each shape once. A violation is kept in `VIOLATIONS`; the
autouse fixture in tests/conftest.py fails the test during which it happened. What the checks
allow beyond the specs is data, tests/fixtures/exa/allowances.yaml, each entry with its reason.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from exa_orch.exa.events import SseReader
from exa_orch.sim.exchanges import Exchange

ROOT = Path(__file__).resolve().parents[1]
EXA = ROOT / "tests" / "fixtures" / "exa"
SPEC_PATHS = {
    "agent": EXA / "exa-agent-api-openapi.yml",
    "search": ROOT / "data-design" / "exa-search-spec.yaml",
    "websets": ROOT / "data-design" / "exa-websets-spec.yaml",
}
SERVED_UNDER = {"agent": "", "search": "", "websets": "/websets"}  # where the simulator serves each
BETA = "agent-2026-05-07"
ENUM_KEYS = frozenset({"object", "status", "event", "type", "code", "stopReason"})
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass
class Stats:
    """What the checks did in this process, and what they cost."""

    exchanges: int = 0
    validated: int = 0
    seconds: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)


VIOLATIONS: list[str] = []
STATS = Stats()
_SEEN: set[tuple[Any, ...]] = set()
_FRESH = 0  # inside expect_violations: shapes seen before are checked again
_LOCK = threading.Lock()  # a SimThread's server calls the hook from its own thread


@cache
def allowances() -> dict[str, Any]:
    with (EXA / "allowances.yaml").open(encoding="utf-8") as fh:
        doc: dict[str, Any] = yaml.safe_load(fh)
    return doc


def _pointer_set(doc: dict[str, Any], pointer: str, value: Any) -> None:
    *parents, last = pointer.lstrip("/").split("/")
    node: Any = doc
    for token in parents:
        node = node.setdefault(token, {})
    node[last] = value


def _pointer_get(doc: Any, pointer: str) -> Any:
    node = doc
    for token in pointer.lstrip("/").split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


@cache
def spec(name: str) -> dict[str, Any]:
    """A spec document as committed; the Agent API's with allowances.yaml's additions applied."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with SPEC_PATHS[name].open(encoding="utf-8") as fh:
        doc: dict[str, Any] = yaml.load(fh, Loader=loader)  # a safe loader, either way
    if name != "agent":
        return doc
    doc = copy.deepcopy(doc)
    for patch in allowances()["agent_schema_additions"]:
        if "set" in patch:
            _pointer_set(doc, patch["pointer"], patch["set"])
            continue
        extra = patch.get("add") or []
        if "add_from" in patch:
            file, _, key = patch["add_from"].partition("#")
            extra = json.loads((EXA / file).read_text(encoding="utf-8"))[key]
        values = _pointer_get(doc, patch["pointer"])
        values.extend(v for v in extra if v not in values)
    return doc


@cache
def _registry(name: str) -> Registry:
    resource = Resource.from_contents(spec(name), default_specification=DRAFT202012)
    return Registry().with_resource(f"urn:exa-spec:{name}", resource)


@cache
def _validator(name: str, pointer: str) -> jsonschema.Draft202012Validator:
    schema = {"$schema": SCHEMA_DIALECT, "$ref": f"urn:exa-spec:{name}#{pointer}"}
    return jsonschema.Draft202012Validator(schema, registry=_registry(name))


def errors_of(name: str, pointer: str, value: Any) -> str | None:
    """The best-matching schema violation of `value` at `pointer` of spec `name`, or None."""
    error = jsonschema.exceptions.best_match(_validator(name, pointer).iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(top)"
    return f"{where}: {error.message[:300]}"


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@cache
def _routes() -> list[tuple[re.Pattern[str], str, str]]:
    """(served-path regex, spec name, spec path), literal paths before templated ones."""
    out = []
    for name in SPEC_PATHS:
        for path in spec(name)["paths"]:
            served = SERVED_UNDER[name] + path
            regex = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(served)) + "/?$")
            out.append((regex, name, path))
    return sorted(out, key=lambda r: r[2].count("{"))


def operation_of(method: str, path: str) -> tuple[str, str, dict[str, Any]] | None:
    """(spec name, spec path, operation) a served request matches, or None."""
    for regex, name, spec_path in _routes():
        if regex.match(path):
            op = spec(name)["paths"][spec_path].get(method.lower())
            if isinstance(op, dict):
                return name, spec_path, op
    return None


def _unspecified(path: str) -> str | None:
    for entry in allowances()["unspecified_paths"]:
        if path.startswith(entry["prefix"]) and path.endswith(entry.get("suffix", "")):
            return str(entry["why"])
    return None


def skeleton(value: Any, key: str | None = None) -> Any:
    """The shape of a JSON value: its keys and types, and the value of an enum-like key."""
    if isinstance(value, dict):
        return tuple(sorted((k, skeleton(v, k)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted({repr(skeleton(v)) for v in value})))
    if isinstance(value, str) and key in ENUM_KEYS:
        return ("str", value)
    return type(value).__name__


def _json(raw: bytes | bytearray) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode("utf-8", "replace")[:200]


def sse_events(raw: bytes | bytearray) -> list[dict[str, Any]]:
    """The events of a server-sent event stream, as {id, event, data} (exa-orch's own reader)."""
    reader = SseReader()
    events = [e for line in raw.decode("utf-8", "replace").splitlines() if (e := reader.feed(line))]
    last = reader.end()
    return [{k: v for k, v in e.items() if v is not None} for e in [*events, *([last] if last else [])]]


def _response_pointer(name: str, spec_path: str, method: str, op: dict[str, Any], status: int) -> str | None:
    """The pointer of the JSON schema of that answer: None when the status is not declared, "" when
    it is declared without a body schema (the spec says nothing of its body)."""
    responses = op.get("responses") or {}
    key = next((k for k in (str(status), f"{str(status)[0]}XX", "default") if k in responses), None)
    if key is None:
        return None
    pointer = f"/paths/{_escape(spec_path)}/{method.lower()}/responses/{key}"
    response = responses[key]
    while "$ref" in response:
        pointer = response["$ref"].removeprefix("#")
        response = _pointer_get(spec(name), pointer)
    content = response.get("content") or {}
    media = next((m for m in content if "json" in m), None)
    if media is None or "schema" not in content[media]:
        return ""
    return f"{pointer}/content/{_escape(media)}/schema"


# nginx's status for a request whose client went away before it was answered (sim/faults.py
# read_json): the simulator's log records it, but no client ever receives its body, so no spec
# rules that body (a test that kills a client mid-request, a restart, made one on /agent/runs).
CLIENT_CLOSED = 499


def check_answer(ex: Exchange) -> list[str]:
    """What is wrong with the simulator's answer to `ex` (empty: it conforms)."""
    found = operation_of(ex.method, ex.path)
    if found is None or ex.status is None or ex.status == CLIENT_CLOSED:
        return []
    name, spec_path, op = found
    where = f"{ex.method} {ex.path} -> {ex.status}"
    if ex.content_type.startswith("text/event-stream"):
        return [f"{where}: {e}" for e in _check_stream(name, ex.answer)]
    body = _json(ex.answer)
    pointer = _response_pointer(name, spec_path, ex.method, op, ex.status)
    if pointer is None:
        if ex.status < 400:
            return [f"{where}: the spec declares no {ex.status} answer for {ex.method} {spec_path}"]
        schema = allowances()["undeclared_error_envelope"]["schema"]
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(body))
        return (
            [f"{where}: an undeclared error's body is not Exa's error envelope: {error.message}"]
            if error
            else []
        )
    problem = errors_of(name, pointer, body)
    return [f"{where}: {problem}"] if problem else []


def _check_stream(name: str, raw: bytes | bytearray) -> list[str]:
    if name != "agent":
        return []  # Search's and Websets' specs describe no event stream
    problems = []
    for event in sse_events(raw):
        problem = errors_of(
            name, "/components/schemas/AgentRunEvent", {"createdAt": "1970-01-01T00:00:00Z", **event}
        )
        data = event.get("data")
        if problem is None and not (
            isinstance(data, dict) and isinstance(data.get("id"), str) and "status" in data
        ):
            problem = "data: an event's data carries the run's id and status (the spec's examples)"
        if problem is None:
            problem = errors_of(name, "/components/schemas/AgentRunStatus", data["status"])
        if problem:
            problems.append(f"event {event.get('event')!r}: {problem}")
    return problems


def check_request(ex: Exchange) -> list[str]:
    """What is wrong with a request exa-orch sent (empty: it conforms to its operation)."""
    where = f"{ex.method} {ex.path}"
    found = operation_of(ex.method, ex.path)
    if found is None:
        return [] if _unspecified(ex.path) else [f"{where}: no spec has this operation"]
    name, spec_path, op = found
    problems = [f"{where}: {p}" for p in _check_headers(name, ex.headers)]
    problems += [f"{where}: {p}" for p in _check_query(name, spec_path, ex.method.lower(), op, ex.query)]
    body_schema = (
        ((op.get("requestBody") or {}).get("content") or {}).get("application/json", {}).get("schema")
    )
    if body_schema is not None and ex.body_read:  # a body the simulator never read is not known
        pointer = (
            f"/paths/{_escape(spec_path)}/{ex.method.lower()}/requestBody/content/application~1json/schema"
        )
        if not ex.body and (op.get("requestBody") or {}).get("required"):
            problems.append(f"{where}: the request body is required")
        elif ex.body:
            problem = errors_of(name, pointer, _json(ex.body))
            if problem:
                problems.append(f"{where}: body {problem}")
    return problems


def _check_headers(name: str, headers: dict[str, str]) -> list[str]:
    problems = []
    if "x-api-key" not in headers and "authorization" not in headers:
        problems.append("no API key header (the spec's security: x-api-key or Authorization: Bearer)")
    if name == "agent" and BETA not in {t.strip() for t in headers.get("exa-beta", "").split(",")}:
        problems.append(f"no Exa-Beta: {BETA} (the spec's ExaBetaHeader, allowances.yaml)")
    return problems


def _check_query(name: str, spec_path: str, method: str, op: dict[str, Any], query: str) -> list[str]:
    declared = {}
    for i, param in enumerate(op.get("parameters") or []):
        if isinstance(param, dict) and param.get("in") == "query":
            declared[param["name"]] = f"/paths/{_escape(spec_path)}/{method}/parameters/{i}/schema"
    problems = []
    given: dict[str, list[str]] = {}
    for key, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        given.setdefault(key, []).append(value)
    for key, values in given.items():
        if key not in declared:
            problems.append(f"query parameter {key!r} is not one the operation declares ({sorted(declared)})")
            continue
        typed = _typed(_pointer_get(spec(name), declared[key]), values)
        problem = errors_of(name, declared[key], typed)
        if problem:
            problems.append(f"query {key}={values!r}: {problem}")
    return problems


def _typed(schema: dict[str, Any], values: list[str]) -> Any:
    """A query parameter's text as the JSON value its schema describes (a number, or a list of the
    values repeated, `?types=a&types=b`), so the schema can judge it."""
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "array" in kinds:
        return values
    value = values[-1]
    if kinds & {"integer", "number"}:
        try:
            return int(value)
        except ValueError:
            try:
                return float(value)
            except ValueError:
                return value
    return value


def _request_key(ex: Exchange) -> tuple[Any, ...]:
    keys = tuple(sorted(k for k, _ in urllib.parse.parse_qsl(ex.query, keep_blank_values=True)))
    beta = ex.headers.get("exa-beta")
    auth = "x-api-key" in ex.headers or "authorization" in ex.headers
    return ("request", ex.method, _template_of(ex), keys, beta, auth, skeleton(_json(ex.body)))


def _answer_key(ex: Exchange) -> tuple[Any, ...]:
    if ex.content_type.startswith("text/event-stream"):
        body: Any = [skeleton(e) for e in sse_events(ex.answer)]
        return ("answer", ex.method, _template_of(ex), ex.status, repr(body))
    return ("answer", ex.method, _template_of(ex), ex.status, skeleton(_json(ex.answer)))


def _template_of(ex: Exchange) -> str:
    found = operation_of(ex.method, ex.path)
    return f"{found[0]}:{found[1]}" if found else ex.path


@contextmanager
def expect_violations() -> Iterator[list[str]]:
    """For a test that sends a request the spec forbids on purpose (to see Exa refuse it): the
    violations recorded in the block are handed over, and one at least must have been."""
    global _FRESH
    before = len(VIOLATIONS)
    caught: list[str] = []
    _FRESH += 1  # check every exchange in the block, shapes seen before too
    try:
        yield caught
    finally:
        _FRESH -= 1
    caught.extend(VIOLATIONS[before:])
    del VIOLATIONS[before:]
    assert caught, "the request the test meant to break the spec met it"


def sent_by_exa_orch(ex: Exchange) -> bool:
    """exa-orch's gateway names itself in the User-Agent of each request it sends to Exa."""
    return "exa-orch/" in ex.headers.get("user-agent", "")


def observe(ex: Exchange) -> None:
    """The hook: check `ex`'s answer, and its request when exa-orch sent it, each shape once."""
    started = time.perf_counter()
    try:
        STATS.exchanges += 1
        if ex.path.startswith("/_sim/"):
            return
        if ex.fault is not None:
            STATS.skipped["fault"] = STATS.skipped.get("fault", 0) + 1
            return
        checks = [(_answer_key(ex), check_answer)]
        if sent_by_exa_orch(ex):
            checks.append((_request_key(ex), check_request))
        for key, check in checks:
            with _LOCK:
                if key in _SEEN and not _FRESH:
                    continue
                _SEEN.add(key)
            STATS.validated += 1
            try:
                problems = check(ex)
            except Exception as exc:  # a check that cannot run is a failure too, never a pass
                problems = [f"{ex.method} {ex.path}: the contract check failed: {exc!r}"]
            if problems:
                with _LOCK:
                    _SEEN.discard(key)  # a later test meeting it fails too
                    VIOLATIONS.extend(problems)
    finally:
        STATS.seconds += time.perf_counter() - started
