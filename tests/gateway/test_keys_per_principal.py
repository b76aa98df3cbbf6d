"""Whose key signs a request: the operator's for everyone, else the one the request's principal gave,
never another's; a 401 on a given key forgets that key alone. Against a simulator that accepts only
the keys it is told, and records (as a digest) which key each request carried."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from exa_orch.config import DEFAULT_EXA_URL, Secret, Settings
from exa_orch.errors import AuthenticationError, InvalidParams
from exa_orch.gateway import Gateway, KeyRefused, MissingApiKey, RetryPolicy
from exa_orch.gateway.context import request_scope
from exa_orch.sim.app import client_tag
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.gateway._util import ToSim

ALICE_KEY, BOB_KEY, OPERATOR_KEY = "alice-exa-key-1111", "bob-exa-key-2222", "operator-exa-key-3333"
FAST = RetryPolicy(backoff=0.01, jitter=0.01, max_backoff=0.05)


@pytest.fixture
async def strict_sim() -> AsyncIterator[SimHandle]:
    """A simulator that accepts only these three keys (any other gets 401)."""
    async with running_sim(SimConfig(speed=100.0, keys=frozenset({ALICE_KEY, BOB_KEY, OPERATOR_KEY}))) as sim:
        yield sim


def keyless(sim: SimHandle, **overrides: object) -> Gateway:
    """A gateway for real Exa with these settings (no key unless given), whose requests reach the
    simulator instead (real HTTP)."""
    settings = Settings(exa_url=DEFAULT_EXA_URL, **overrides)  # type: ignore[arg-type]
    return Gateway(settings, key_required=False, retry=FAST, inner=ToSim(sim.url))


def carried(sim: SimHandle) -> list[str | None]:
    """The key each request the simulator logged carried, as its digest."""
    return [entry["client"] for entry in sim.log()]


async def test_each_principal_is_served_with_its_own_key_and_nobody_with_another(
    strict_sim: SimHandle,
) -> None:
    async with keyless(strict_sim, api_key=None) as gw:
        gw.give_api_key("token:alice", ALICE_KEY)
        with request_scope(principal="token:alice"):
            await gw.exa.websets.list()
        with request_scope(principal="token:bob"), pytest.raises(MissingApiKey) as bob:
            await gw.exa.websets.list()
        with pytest.raises(MissingApiKey):  # nobody in particular: the operator's key or nothing
            await gw.exa.websets.list()
        gw.give_api_key("token:bob", BOB_KEY)
        with request_scope(principal="token:bob"):
            await gw.exa.websets.list()
        with request_scope(principal="token:alice"):
            await gw.http.get("/websets/v0/websets")
        assert gw.has_key_for("token:alice") and not gw.has_key_for("token:carol") and not gw.has_key
    assert carried(strict_sim) == [client_tag(ALICE_KEY), client_tag(BOB_KEY), client_tag(ALICE_KEY)]
    assert bob.value.code == "CONFIG_ERROR" and "token:bob has given none" in bob.value.message


async def test_the_operator_key_serves_every_principal(strict_sim: SimHandle) -> None:
    async with keyless(strict_sim, api_key=Secret(OPERATOR_KEY)) as gw:
        for who in ("token:alice", "token:bob", None):
            with request_scope(principal=who):
                await gw.exa.websets.list()
    assert carried(strict_sim) == [client_tag(OPERATOR_KEY)] * 3


async def test_a_refused_key_is_forgotten_for_its_principal_alone(strict_sim: SimHandle) -> None:
    async with keyless(strict_sim, api_key=None) as gw:
        gw.give_api_key("token:alice", ALICE_KEY)
        gw.give_api_key("token:bob", "bob-mistyped-key")
        with request_scope(principal="token:bob"), pytest.raises(KeyRefused) as refused:
            await gw.exa.websets.list()
        assert not gw.has_key_for("token:bob") and gw.has_key_for("token:alice")
        with request_scope(principal="token:bob"), pytest.raises(MissingApiKey):
            await gw.exa.websets.list()  # asked again, not sent with the refused key
        with request_scope(principal="token:alice"):
            await gw.exa.websets.list()
    err = refused.value
    assert isinstance(err, AuthenticationError) and err.status == 401 and err.principal == "token:bob"
    assert "bob-mistyped-key" not in f"{err} {err.to_dict()}"
    assert carried(strict_sim) == [client_tag("bob-mistyped-key"), client_tag(ALICE_KEY)]


async def test_a_refusal_of_an_old_key_does_not_drop_the_new_one(strict_sim: SimHandle) -> None:
    async with keyless(strict_sim, api_key=None) as gw:
        gw.give_api_key("token:bob", "bob-old-key")
        old = gw.keys.lookup("token:bob")[0]
        gw.give_api_key("token:bob", BOB_KEY)
        assert gw.keys.refused("token:bob", old) is False
        with request_scope(principal="token:bob"):
            await gw.exa.websets.list()
    assert carried(strict_sim) == [client_tag(BOB_KEY)]


def test_a_given_key_must_look_like_one() -> None:
    gw = Gateway(Settings(exa_url=DEFAULT_EXA_URL), key_required=False)
    for bad in ("", "   ", "two words", "x" * 600, "tab\tkey", "short"):
        with pytest.raises(InvalidParams):
            gw.give_api_key("token:alice", bad)
    assert not gw.has_key_for("token:alice")
    gw.give_api_key("token:alice", "  padded-key-1234  ")
    assert gw.keys.lookup("token:alice")[0].reveal() == "padded-key-1234"
