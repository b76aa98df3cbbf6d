"""The API key never shows up in logs (at DEBUG), errors, reprs, the simulator's log or the database."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from exa_orch.config import Secret
from exa_orch.errors import GatewayError, NotFoundError, UpstreamInvalidParams
from exa_orch.gateway import Gateway, RetryPolicy
from exa_orch.log import REDACTED, configure_logging
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store
from tests import contract
from tests.gateway._util import settings_for

KEY = "exa-known-secret-7f3a9c21d0e4"


@contextmanager
def debug_stderr() -> Iterator[None]:
    """exa-orch's own stderr logging at DEBUG on the current sys.stderr (capsys's); restored afterwards."""
    root = logging.getLogger()
    ours = [h for h in root.handlers if getattr(h, "_exa_orch", False)]
    level = root.level
    for handler in ours:
        root.removeHandler(handler)
    configure_logging("DEBUG")
    try:
        yield
    finally:
        for handler in [h for h in root.handlers if getattr(h, "_exa_orch", False)]:
            root.removeHandler(handler)
        for handler in ours:
            root.addHandler(handler)
        root.setLevel(level)


async def test_the_key_is_nowhere_in_logs_errors_or_the_database(
    sim: SimHandle,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    with debug_stderr():
        errors, shown = await _fail_and_log(sim)
        async with Store(tmp_path / "workflows.db") as store:
            task = await store.create_task(
                "exa.search", {"query": "AI startups"}, meta={"note": "secret test"}
            )
            await store.fail(task.id, {"step": "search", "recoverable": False, **errors[0].to_dict()})
    stderr = capsys.readouterr().err

    assert "retrying POST /search" in stderr and "httpcore" in caplog.text  # DEBUG logging was live
    assert REDACTED in caplog.text and REDACTED in stderr
    texts = [caplog.text, stderr, json.dumps(sim.log()), *shown]
    for err in errors:
        texts += [str(err), repr(err), json.dumps(err.to_dict()), err.hint or ""]
    for text in texts:
        assert KEY not in text
    files = _files_under(tmp_path)
    assert "workflows.db" in files
    for name, content in files.items():
        assert KEY.encode() not in content, name


async def _fail_and_log(sim: SimHandle) -> tuple[list[GatewayError], list[str]]:
    """Failing calls (retried, 400, 404), a working one, and the key logged by mistake."""
    errors: list[GatewayError] = []
    policy = RetryPolicy(max_attempts=3, backoff=0.01, jitter=0.01)
    async with Gateway(settings_for(sim, api_key=Secret(KEY)), retry=policy) as gw:
        sim.set_faults(FaultConfig(rate=1.0, kinds=("500", "drop", "429"), retry_after=0.01, seed=1))
        with pytest.raises(GatewayError) as exhausted:
            await gw.exa.search("AI startups")  # retried, then fails
        errors.append(exhausted.value)
        sim.set_faults(FaultConfig(rate=0.0))
        with contract.expect_violations(), pytest.raises(UpstreamInvalidParams) as bad:
            await gw.exa.search("AI startups", num_results=0)  # against the spec on purpose
        with pytest.raises(NotFoundError) as missing:
            await gw.exa.agent.runs.get("run_missing")
        errors += [bad.value, missing.value]
        await gw.exa.search("AI startups")  # and one that works: the key was sent and accepted
        # Whoever logs the key by mistake, any logger, any level, in an exception too:
        logging.getLogger("exa_orch.anywhere").debug("calling Exa with key %s", KEY)
        try:
            raise RuntimeError(f"boom {KEY}")
        except RuntimeError:
            logging.getLogger("some.library").exception("failed")
        shown = [repr(gw), repr(gw.exa.headers), repr(gw.http.headers), json.dumps(gw.stats())]
    return errors, shown


def _files_under(root: Path) -> dict[str, bytes]:
    """Every file written under `root` (the database and its WAL included), by name."""
    return {p.name: p.read_bytes() for p in root.rglob("*") if p.is_file()}
