"""`exa-orch sim` as a process, `SimThread`, and configuration from flags and environment."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.server import config_from
from exa_orch.sim.testing import SimOnDemand, SimThread
from tests.support import WAIT


def _args(**overrides: object) -> argparse.Namespace:
    values: dict[str, object] = {
        "host": "127.0.0.1",
        "port": 0,
        "seed": None,
        "speed": None,
        "fault_rate": None,
        "fault_kinds": None,
        "retry_after": None,
        "latency_ms": None,
    }
    values.update(overrides)
    return argparse.Namespace(**values)


def test_flags_win_over_environment_which_wins_over_defaults() -> None:
    env = {
        "EXA_SIM_SEED": "9",
        "EXA_SIM_SPEED": "5",
        "EXA_SIM_FAULT_RATE": "0.1",
        "EXA_SIM_FAULT_KINDS": "429,drop",
    }
    config = config_from(_args(seed=3, retry_after=1.5), env)
    assert config.seed == 3 and config.speed == 5.0
    assert (
        config.faults.rate == 0.1
        and config.faults.kinds == ("429", "drop")
        and config.faults.retry_after == 1.5
    )
    # The command line's defaults are SimConfig's, but for the timing: as slow as Exa's websets
    assert config_from(_args(), {}) == SimConfig(timing="real")


def test_the_timing_profile_is_chosen_by_flag_or_environment_and_checked() -> None:
    assert config_from(_args(), {"EXA_SIM_TIMING": "quick"}).timing == "quick"
    assert config_from(_args(timing="real"), {"EXA_SIM_TIMING": "quick"}).timing == "real"
    with pytest.raises(ValueError, match="--timing must be one of real, quick, got 'slow'"):
        config_from(_args(), {"EXA_SIM_TIMING": "slow"})
    from exa_orch.sim.app import create_app

    with pytest.raises(ValueError, match="timing must be one of"):
        create_app(SimConfig(timing="slow"))


def test_malformed_environment_names_the_variable() -> None:
    with pytest.raises(ValueError, match="EXA_SIM_SEED"):
        config_from(_args(), {"EXA_SIM_SEED": "forty-two"})


def test_run_sim_reports_a_port_in_use_and_bad_values(capsys: pytest.CaptureFixture[str]) -> None:
    from exa_orch.sim.server import run_sim
    from exa_orch.sim.testing import bind_socket

    taken = bind_socket()
    taken.listen()
    try:
        assert run_sim(_args(port=taken.getsockname()[1])) == 1
    finally:
        taken.close()
    assert "CONFIG_ERROR" in capsys.readouterr().err
    assert run_sim(_args(speed=-1.0)) == 2
    assert "--speed" in capsys.readouterr().err


def test_sim_thread_serves_sync_callers_and_takes_faults() -> None:
    with SimThread(SimConfig(speed=100)) as sim:
        ok = httpx.post(f"{sim.url}/search", json={"query": "ai"}, headers={"x-api-key": "k"})
        sim.set_faults(FaultConfig(rate=1.0, kinds=("503",)))
        failed = httpx.post(f"{sim.url}/search", json={"query": "ai"}, headers={"x-api-key": "k"})
        stats = sim.stats()
    assert ok.status_code == 200 and failed.status_code == 503
    assert stats["faults"]["503"] == 1 and stats["total_requests"] == 2
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{sim.url}/_sim/stats")


def test_cli_prints_its_url_serves_and_stops_cleanly_on_sigterm() -> None:
    env = {**os.environ, "EXA_SIM_FAULT_RATE": "0"}
    env.pop("EXA_API_KEY", None)
    with subprocess.Popen(
        [sys.executable, "-m", "exa_orch", "sim", "--seed", "5", "--speed", "50"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            assert line.startswith("EXA_ORCH_EXA_URL=http://127.0.0.1:")
            assert proc.stdout.readline().strip() == "EXA_ORCH_SIMULATOR=1"  # said, never guessed
            url = line.split("=", 1)[1]
            deadline = time.monotonic() + WAIT
            while True:  # the port is bound before uvicorn accepts; poll with a deadline
                try:
                    response = httpx.post(f"{url}/search", json={"query": "ai"}, headers={"x-api-key": "k"})
                    break
                except httpx.ConnectError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            assert response.status_code == 200
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=WAIT) == 0
            assert proc.stdout.read() == ""  # nothing but the URL line on stdout
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_on_demand_starts_at_the_first_request_and_stops_either_way() -> None:
    """`serve --sim`'s simulator: its URL at once, the server only once a request comes."""
    with SimOnDemand(SimConfig(speed=100)) as lazy:
        assert lazy.sim is None  # bound and listening, nothing started
        stats = httpx.get(lazy.url + "/_sim/stats", timeout=WAIT)  # waits in the backlog meanwhile
        assert stats.status_code == 200 and stats.json()["total_requests"] == 0
        assert lazy.sim is not None
    with pytest.raises(httpx.ConnectError):
        httpx.get(lazy.url + "/_sim/stats", timeout=WAIT)
    with SimOnDemand(SimConfig()) as idle:
        pass  # stopped before any request: nothing was started, the port is closed
    assert idle.sim is None
    with pytest.raises(httpx.ConnectError):
        httpx.get(idle.url + "/_sim/stats", timeout=WAIT)
