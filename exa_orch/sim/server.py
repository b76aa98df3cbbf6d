"""`exa-orch sim`: serve the simulator on loopback until SIGINT or SIGTERM.

Prints two lines to stdout (flushed) once the port is bound, `EXA_ORCH_EXA_URL=http://127.0.0.1:PORT`
then `EXA_ORCH_SIMULATOR=1`: the settings `exa-orch serve` needs to use it (the second says the URL
is a simulator, which is never guessed from the URL). Everything else goes to stderr.
Flags win over environment variables (EXA_SIM_SEED, EXA_SIM_SPEED, EXA_SIM_FAULT_RATE,
EXA_SIM_FAULT_KINDS, EXA_SIM_RETRY_AFTER, EXA_SIM_LATENCY_MS, EXA_SIM_WORLD, EXA_SIM_TIMING), which win
over defaults. The command line's timing default is "real" (webset searches as slow as Exa's); the
Python `SimConfig`'s is "quick".
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Mapping
from typing import Any

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import bind_socket, server_for

logger = logging.getLogger(__name__)

_ENV = {
    "seed": ("EXA_SIM_SEED", int),
    "speed": ("EXA_SIM_SPEED", float),
    "fault_rate": ("EXA_SIM_FAULT_RATE", float),
    "fault_kinds": ("EXA_SIM_FAULT_KINDS", str),
    "retry_after": ("EXA_SIM_RETRY_AFTER", float),
    "latency_ms": ("EXA_SIM_LATENCY_MS", float),
    "world": ("EXA_SIM_WORLD", str),
    "timing": ("EXA_SIM_TIMING", str),
}
TIMINGS = ("real", "quick")  # sim/websets/timing.py PROFILES; the command line's default first


def config_from(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> SimConfig:
    """The SimConfig for CLI flags, falling back to EXA_SIM_* variables, then defaults.

    Raises:
        ValueError: a malformed value (the message names the flag or variable).
    """
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    for name, (var, kind) in _ENV.items():
        flag = getattr(args, name, None)
        if flag is not None:
            values[name] = flag
        elif env.get(var, "").strip():
            try:
                values[name] = kind(env[var].strip())
            except ValueError as exc:
                raise ValueError(f"{var}={env[var]!r} is not a valid {kind.__name__}") from exc
    faults = FaultConfig()
    if "fault_rate" in values:
        faults.rate = float(values["fault_rate"])
    if "fault_kinds" in values:
        faults.kinds = tuple(k.strip() for k in str(values["fault_kinds"]).split(",") if k.strip())
    if "retry_after" in values:
        faults.retry_after = float(values["retry_after"])
    if "latency_ms" in values:
        faults.latency_ms = float(values["latency_ms"])
    config = SimConfig(faults=faults)
    if "seed" in values:
        config.seed = int(values["seed"])
    if values.get("world"):
        config.world_file = str(values["world"])
    config.timing = str(values.get("timing") or TIMINGS[0])
    if config.timing not in TIMINGS:
        raise ValueError(f"--timing must be one of {', '.join(TIMINGS)}, got {config.timing!r}")
    if "speed" in values:
        if values["speed"] <= 0:
            raise ValueError(f"--speed must be > 0, got {values['speed']}")
        config.speed = float(values["speed"])
    return config


def run_sim(args: argparse.Namespace) -> int:
    """Serve until SIGINT/SIGTERM; 0 on a clean stop, 1 when the port can't be bound, 2 on a bad flag."""
    from exa_orch.sim.app import create_app

    try:
        config = config_from(args)
        app = create_app(config)
    except ValueError as exc:
        print(f"error [INVALID_PARAMS]: {exc}", file=sys.stderr)
        print("hint: see `exa-orch sim --help` for each flag and its EXA_SIM_* variable", file=sys.stderr)
        return 2
    host = getattr(args, "host", None) or "127.0.0.1"
    port = getattr(args, "port", None) or 0
    try:
        sock = bind_socket(host, port)
    except OSError as exc:
        print(f"error [CONFIG_ERROR]: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        print("hint: pick another --port, or 0 for a free one", file=sys.stderr)
        return 1
    bound_port = sock.getsockname()[1]
    print(f"EXA_ORCH_EXA_URL=http://{host}:{bound_port}\nEXA_ORCH_SIMULATOR=1", flush=True)
    logger.info(
        "exa simulator on http://%s:%s (seed %s, speed %s, timing %s, faults %s)",
        host,
        bound_port,
        config.seed,
        config.speed,
        config.timing,
        config.faults,
    )
    server = server_for(app, access_log=True)
    # uvicorn catches SIGINT/SIGTERM to stop, then re-raises them to the handlers it found
    # installed; no-op handlers make the stop a clean return with status 0.
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(server.serve(sockets=[sock]))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
    return 0
