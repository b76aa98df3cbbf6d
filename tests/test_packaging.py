"""What installs exa-orch elsewhere, checked statically: server.json against the MCP registry's
schema (tests/fixtures/registry/), the Dockerfile (no image can be pulled or built here), the
changelog and the one version they all carry."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from exa_orch import __version__
from exa_orch.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "tests" / "fixtures" / "registry" / "server.schema.json"


def server_json() -> dict[str, Any]:
    return dict(json.loads((ROOT / "server.json").read_text()))


def test_the_schema_copy_is_the_one_its_readme_names() -> None:
    note = (SCHEMA.parent / "README.md").read_text()
    digest = hashlib.sha256(SCHEMA.read_bytes()).hexdigest()
    assert digest in note and f"{len(SCHEMA.read_text()):,} characters" in note


def test_server_json_validates_against_the_registry_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(server_json())]
    assert errors == []


@pytest.mark.parametrize(
    ("field", "bad"),
    [("name", "exa-orch"), ("description", "x" * 101), ("version", 2)],
)
def test_the_schema_check_would_catch_a_bad_server_json(field: str, bad: object) -> None:
    schema = json.loads(SCHEMA.read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**server_json(), field: bad}, schema)


def test_server_json_names_this_package_at_this_version() -> None:
    server = server_json()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert server["version"] == __version__
    (package,) = server["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == project["name"]
    assert package["version"] == __version__ and package["transport"] == {"type": "stdio"}
    argv = [a["value"] for a in package["packageArguments"]]
    assert build_parser().parse_args(argv).command == "serve"
    # The registry checks a PyPI package's ownership by this line in its README (the long description).
    assert f"<!-- mcp-name: {server['name']} -->" in (ROOT / "README.md").read_text()
    secret = {v["name"]: v.get("isSecret", False) for v in package["environmentVariables"]}
    assert secret["EXA_API_KEY"] is True


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of each Dockerfile instruction, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_the_dockerfile_builds_the_wheel_from_the_checkout_and_serves_http() -> None:
    steps = dockerfile()
    base = next(rest for word, rest in steps if word == "FROM")
    major, minor = map(int, re.fullmatch(r"python:(\d+)\.(\d+)-slim", base).groups())  # type: ignore[union-attr]
    assert (major, minor) >= (3, 11)
    copied = [shlex.split(rest)[:-1] for word, rest in steps if word == "COPY"]
    sources = {s for group in copied for s in group}
    # What the wheel is built from (pyproject's readme, license and force-included migrations).
    assert sources == {"pyproject.toml", "README.md", "LICENSE", "exa_orch", "migrations"}
    assert all((ROOT / s).exists() for s in sources)
    ignored = [x for x in (ROOT / ".dockerignore").read_text().splitlines() if x and not x.startswith("#")]
    assert ignored[0] == "*" and {f"!{s}" for s in sources} <= set(ignored)
    assert any(word == "RUN" and "pip install --no-cache-dir ." in rest for word, rest in steps)
    users = [rest for word, rest in steps if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    (cmd,) = [json.loads(rest) for word, rest in steps if word == "CMD"]  # exec form: signals reach it
    assert cmd[0] == "exa-orch"
    args = build_parser().parse_args(cmd[1:])
    assert args.command == "serve" and args.http and args.host == "0.0.0.0"
    assert [rest for word, rest in steps if word == "EXPOSE"] == [str(args.port)]
    env = dict(rest.split("=", 1) for word, rest in steps if word == "ENV")
    volumes = [json.loads(rest) for word, rest in steps if word == "VOLUME"]
    assert Path(env["EXA_ORCH_DB"]).parent.as_posix() in volumes[0]


def test_the_changelog_has_this_version() -> None:
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == __version__ and len(set(headings)) == len(headings)
