"""Validate simulator responses against Exa's official OpenAPI 3.1 specs (the repo's data-design/).

`validate_response(spec, method, path_template, status, body)` finds the operation's response
schema for `status` (following a response-level `$ref` such as `#/components/responses/X`) and
validates `body` with JSON Schema 2020-12 (what OpenAPI 3.1 schemas are), every `$ref` resolved
through a `referencing` registry that holds the whole spec document. OpenAPI-only keywords
(`discriminator`, `example`, `xml`, ...) are unknown to JSON Schema and so ignored, which is
harmless: `oneOf`/`anyOf` still decide.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_DIR = Path(__file__).resolve().parents[1] / "data-design"
SPEC_FILES = {"websets": "exa-websets-spec.yaml", "search": "exa-search-spec.yaml"}
SpecName = Literal["websets", "search"]


@cache
def load_spec(spec: SpecName) -> dict[str, Any]:
    """The parsed spec document. libyaml's loader when PyYAML has it: each xdist worker parses both
    specs while collecting (parametrized tests), 0.3 s of CPU each with the pure-Python one."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (SPEC_DIR / SPEC_FILES[spec]).open(encoding="utf-8") as fh:
        doc: dict[str, Any] = yaml.load(fh, Loader=loader)  # a safe loader, either way
    return doc


def _uri(spec: SpecName) -> str:
    return f"urn:exa-spec:{spec}"


@cache
def _registry(spec: SpecName) -> Registry:
    resource = Resource.from_contents(load_spec(spec), default_specification=DRAFT202012)
    return Registry().with_resource(_uri(spec), resource)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _lookup(doc: dict[str, Any], pointer: str) -> Any:
    node: Any = doc
    for token in pointer.lstrip("/").split("/"):
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def operation(spec: SpecName, method: str, path_template: str) -> dict[str, Any]:
    """The OpenAPI operation object; KeyError names what exists when the path or method is wrong.

    Websets paths may be given as the spec writes them (`/v0/websets/{id}`) or as served
    (`/websets/v0/websets/{id}`).
    """
    paths = load_spec(spec)["paths"]
    if spec == "websets" and path_template.startswith("/websets/v0"):
        path_template = path_template.removeprefix("/websets")
    if path_template not in paths:
        raise KeyError(f"{path_template!r} is not a path of the {spec} spec; paths: {sorted(paths)}")
    ops = paths[path_template]
    if method.lower() not in ops:
        raise KeyError(f"{method.upper()} {path_template} is not in the {spec} spec; methods: {sorted(ops)}")
    op: dict[str, Any] = ops[method.lower()]
    return op


def response_schema_pointer(spec: SpecName, method: str, path_template: str, status: int) -> str:
    """JSON pointer (into the spec) of the JSON schema of that response."""
    if spec == "websets" and path_template.startswith("/websets/v0"):
        path_template = path_template.removeprefix("/websets")
    responses = operation(spec, method, path_template)["responses"]
    key = next(
        (k for k in (str(status), f"{str(status)[0]}XX", "default") if k in responses),
        None,
    )
    if key is None:
        raise KeyError(f"{method.upper()} {path_template} has no {status} response; has {sorted(responses)}")
    pointer = f"/paths/{_escape(path_template)}/{method.lower()}/responses/{key}"
    response = responses[key]
    while "$ref" in response:  # response objects (not schemas) may be references
        pointer = response["$ref"].removeprefix("#")
        response = _lookup(load_spec(spec), pointer)
    content = response.get("content") or {}
    media = next((m for m in content if "json" in m), None)
    if media is None or "schema" not in content[media]:
        raise KeyError(f"{method.upper()} {path_template} {status} has no JSON body schema")
    return f"{pointer}/content/{_escape(media)}/schema"


def validate_response(spec: SpecName, method: str, path_template: str, status: int, body: Any) -> None:
    """Raise jsonschema.ValidationError unless `body` conforms to the spec's response schema."""
    pointer = response_schema_pointer(spec, method, path_template, status)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": f"{_uri(spec)}#{pointer}"}
    validator = jsonschema.Draft202012Validator(schema, registry=_registry(spec))
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is not None:
        raise error


def validate_schema(spec: SpecName, schema_name: str, body: Any) -> None:
    """Validate `body` against `#/components/schemas/<schema_name>` of the spec."""
    pointer = f"/components/schemas/{_escape(schema_name)}"
    _lookup(load_spec(spec), pointer)  # KeyError if there is no such schema
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": f"{_uri(spec)}#{pointer}"}
    validator = jsonschema.Draft202012Validator(schema, registry=_registry(spec))
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is not None:
        raise error
