"""A task's timeout is a deadline fixed at its first start: restarts don't hand it a fresh timeout."""

from __future__ import annotations

import time
from datetime import datetime
from functools import partial
from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.exa.port import ExaPort
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp, has_step
from tests.workflows.test_harvest import BASE, MODULE, start

TIMEOUT_MS = 4000


def polls(sim: SimHandle, webset_id: str) -> int:
    return sum(1 for e in sim.log() if e["method"] == "GET" and e["path"].endswith(f"/websets/{webset_id}"))


async def test_a_task_restarted_three_times_ends_about_its_timeout_after_its_first_start(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim.ctx.clock.set_speed(0.5)  # the search never ends in time: the task ends on its timeout
    # Each run's wait for the webset, as it asked for it: when, and for how long.
    waits: list[tuple[float, float]] = []
    wait_idle = ExaPort.wait_idle

    async def recorded(port: ExaPort, webset_id: str, *, within: float, **kw: Any) -> Any:
        waits.append((time.time(), within))
        return await wait_idle(port, webset_id, within=within, **kw)

    monkeypatch.setattr(ExaPort, "wait_idle", recorded)
    args = {**BASE, "count": 20, "timeout": TIMEOUT_MS}
    task_id = ""
    for run in range(4):
        async with research_app(MODULE) as app:
            if run == 0:
                task_id = await start(app, args)
            if run < 3:
                await until(partial(has_step, app, task_id, "wait.search.start"))
                steps = await app.store.load_steps(task_id)
                webset_id = steps["create.webset"]["id"]
                seen = polls(sim, webset_id)

                async def polled(
                    seen: int = seen, webset_id: str = webset_id, app: App = app, task_id: str = task_id
                ) -> bool:
                    if polls(sim, webset_id) >= seen + 6:  # this run has waited a while
                        return True
                    # ... or the deadline came first (a slow machine's restarts take longer).
                    return str((await app.store.get_task(task_id)).status) in ("completed", "failed")

                await until(polled)
                continue  # the app closes mid-wait: a restart
            assert app.supervisor is not None
            done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
            # When the task ended, as its row says (not when this test saw it: a busy machine
            # delays that, and only that).
            ended = datetime.fromisoformat(done.updated_at.replace("Z", "+00:00")).timestamp()
            first_start = float((await app.store.load_steps(task_id))["wait.search.start"])
    assert done.status == "completed", done.error
    assert done.result["timedOut"] is True and done.result["partial"] is True
    # Every run waited only until the deadline of the first start (the wait's least timeout is
    # 0.05 s), not a whole timeout of its own: what a busy machine can't change, unlike how long
    # the restarts took. Without the fixed deadline each run would ask for the whole 4 s again.
    deadline = first_start + TIMEOUT_MS / 1000
    assert len(waits) >= 2, waits  # the wait was interrupted and asked for again
    for at, seconds in waits:
        assert at + seconds <= max(deadline, at + 0.05) + 0.01, (at - first_start, seconds)
    assert ended >= deadline  # and it did wait until then
