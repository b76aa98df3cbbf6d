"""Who is calling: HTTP tokens as principals (settings, BearerAuth), and the local user on stdio."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from exa_orch.config import Secret, Settings
from exa_orch.errors import ConfigError, ErrorCode
from exa_orch.mcp.auth import PRINCIPAL_SCOPE_KEY, BearerAuth, request_principal
from exa_orch.mcp.transport import check_bind
from exa_orch.runtime import Principal


def test_named_tokens_from_the_variable_and_the_file_are_principals(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text("# who may call\ncarol = c-secret\n\n")
    settings = Settings.from_env(
        {
            "EXA_ORCH_HTTP_TOKEN": "d-secret",
            "EXA_ORCH_HTTP_TOKENS": "alice=a-secret, bob=b-secret",
            "EXA_ORCH_HTTP_TOKENS_FILE": str(tokens),
        }
    )
    revealed = {name: secret.reveal() for name, secret in settings.token_principals().items()}
    assert revealed == {
        "token:default": "d-secret",
        "token:alice": "a-secret",
        "token:bob": "b-secret",
        "token:carol": "c-secret",
    }
    assert settings.http_auth
    assert "secret" not in repr(settings)


@pytest.mark.parametrize(
    "env",
    [
        {"EXA_ORCH_HTTP_TOKENS": "alice"},  # no token
        {"EXA_ORCH_HTTP_TOKENS": "al ice=x"},  # a name with a space
        {"EXA_ORCH_HTTP_TOKENS": "alice=x,alice=y"},  # a name twice
        {"EXA_ORCH_HTTP_TOKENS": "alice=x,bob=x"},  # one token, two principals
        {"EXA_ORCH_HTTP_TOKENS": "default=x", "EXA_ORCH_HTTP_TOKEN": "y"},  # 'default' is taken
        {"EXA_ORCH_HTTP_TOKENS_FILE": "/no/such/file"},
        {"EXA_ORCH_TASK_TTL": "0"},
        {"EXA_ORCH_TASK_TTL": "7200", "EXA_ORCH_MAX_TASK_TTL": "3600"},  # default above the maximum
    ],
)
def test_bad_token_and_ttl_settings_are_refused_without_echoing_a_token(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env(env)
    assert caught.value.code is ErrorCode.CONFIG_ERROR
    for value in env.values():
        for part in value.replace(",", "=").split("="):
            if part in ("x", "y"):  # the token values of these cases
                assert f"'{part}'" not in caught.value.message


def test_ttl_settings_and_the_local_principal_override() -> None:
    settings = Settings.from_env(
        {"EXA_ORCH_TASK_TTL": "60", "EXA_ORCH_MAX_TASK_TTL": "600", "EXA_ORCH_PRINCIPAL": "user:tester"}
    )
    assert (settings.task_ttl, settings.max_task_ttl, settings.principal) == (60, 600, "user:tester")
    default = Settings.from_env({})
    assert (default.task_ttl, default.max_task_ttl) == (3600, 86_400)
    assert default.principal.startswith("user:") and len(default.principal) > len("user:")


def test_named_tokens_alone_allow_a_bind_beyond_loopback() -> None:
    with pytest.raises(ConfigError):
        check_bind(Settings(), "0.0.0.0")
    check_bind(Settings.from_env({"EXA_ORCH_HTTP_TOKENS": "alice=a-secret"}), "0.0.0.0")


async def test_bearer_auth_names_the_principal_of_the_token_presented() -> None:
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope.get(PRINCIPAL_SCOPE_KEY))

    auth = BearerAuth(app, {"token:alice": Secret("a-secret"), "token:bob": Secret("b-secret")})
    statuses: list[int] = []

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    for header in (
        b"Bearer a-secret",
        b"bearer b-secret",
        b"Bearer c-secret",
        b"Bearer a-secre",
        b"a-secret",
        b"",
    ):
        await auth({"type": "http", "headers": [(b"authorization", header)]}, None, send)
    assert seen == ["token:alice", "token:bob"]
    assert statuses == [401, 401, 401, 401]


def test_a_request_s_principal_is_its_token_s_or_the_local_user() -> None:
    local = Settings.from_env({"EXA_ORCH_PRINCIPAL": "user:tester"})
    assert request_principal(local, None) == Principal("user:tester", sees_unowned=True)  # stdio
    tokenless_http = SimpleNamespace(scope={"type": "http"})
    assert request_principal(local, tokenless_http) == Principal("user:tester", sees_unowned=True)
    authed = SimpleNamespace(scope={"type": "http", PRINCIPAL_SCOPE_KEY: "token:alice"})
    assert request_principal(local, authed) == Principal("token:alice")
    guarded = Settings.from_env({"EXA_ORCH_HTTP_TOKENS": "alice=a-secret"})
    with pytest.raises(MCPError):  # tokens configured, yet nobody authenticated it: refused
        request_principal(guarded, tokenless_http)


async def test_a_refused_request_gets_a_json_answer_with_its_length_and_the_bearer_challenge() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a refused request must not reach the app")

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    auth = BearerAuth(app, Secret("a-secret"))
    await auth({"type": "http", "headers": [(b"authorization", b"Bearer wrong")]}, None, send)
    start, body = sent
    headers = dict(start["headers"])
    assert start["status"] == 401 and body["type"] == "http.response.body"
    assert headers[b"content-type"] == b"application/json" and headers[b"www-authenticate"] == b"Bearer"
    assert int(headers[b"content-length"]) == len(body["body"])
    assert json.loads(body["body"])["error"].startswith("unauthorized: send 'Authorization: Bearer <token>'")
    assert b"a-secret" not in body["body"]
