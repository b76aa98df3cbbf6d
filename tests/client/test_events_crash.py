"""End to end: a research.deep task follows its run's own events (workflows/run_events.py), one
checkpoint each; its server is SIGKILLed in the middle of the feed, and the restarted child goes on
from the next event (Last-Event-ID): every event's progress message once, in order, none repeated."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, until

from .conftest import running_client

pytestmark = pytest.mark.slow


@pytest.fixture
def real_time_sim() -> Iterator[SimThread]:
    """Speed 1 until the kill: a medium run is queued 2 s, then its next event is 6.7 s away."""
    with SimThread(SimConfig(speed=1.0)) as handle:
        yield handle


def rows(db: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


@pytest.mark.parametrize("report_lost", [False, True], ids=["reported", "report-lost"])
async def test_a_research_task_killed_mid_feed_goes_on_from_the_next_event(
    real_time_sim: SimThread, tmp_path: Path, report_lost: bool
) -> None:
    """`report_lost`: the server died between event 2's checkpoint and its report (made so by
    removing that report from the database while the server is down): the resumed run makes it."""
    db = tmp_path / "workflows.db"
    async with running_client(real_time_sim.url, tmp_path) as client:
        task_id = await client.create_task("research.deep", {"instructions": "Who makes EV batteries?"})

        def events_saved() -> list[str]:
            keys = rows(db, "select step_key from task_steps where task_id = ?", task_id)
            return sorted(str(k) for (k,) in keys if str(k).startswith("research.poll.event:"))

        def reported(n: int) -> bool:  # event n's checkpoint saved and its report written
            found = rows(
                db,
                "select count(*) from task_events where task_id = ? and message like ?",
                task_id,
                f"%_evt_{n:03d}]",
            )
            return len(events_saved()) >= n and found == [(1,)]

        await until(lambda: reported(2), within=WAIT, what="run.started checkpointed and reported")
        real_time_sim.ctx.clock.set_speed(0.001)  # the run holds still while the server dies
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        before = len(events_saved())
        if report_lost:
            with sqlite3.connect(db) as conn:
                last = f"%_evt_{before:03d}]"
                previous = conn.execute(
                    "select data from task_events where task_id = ? and kind = 'progress' and message not like ? "
                    "order by id desc limit 1",
                    (task_id, last),
                ).fetchone()[0]
                conn.execute("delete from task_events where task_id = ? and message like ?", (task_id, last))
                conn.execute("update tasks set progress = ? where id = ?", (previous, task_id))

        def claims() -> int:
            found = rows(
                db, "select count(*) from task_events where task_id = ? and kind = 'claimed'", task_id
            )
            return int(str(found[0][0]))

        await client.get_task(task_id)  # the client starts a new child at its next call
        await until(lambda: claims() == 2, within=WAIT, what="the restarted child claimed the task")
        real_time_sim.ctx.clock.set_speed(50.0)
        done = await client.wait_task(task_id, timeout=WAIT, poll=0.5)
        assert client.pid not in (None, first)

    assert done["status"] == "completed", done
    events = events_saved()
    assert before < len(events) == 7  # created, started, 4 while working, completed: killed mid-feed
    messages = [
        str(m)
        for (m,) in rows(
            db, "select message from task_events where task_id = ? and kind = 'progress' order by id", task_id
        )
    ]
    assert len(messages) == len(set(messages)), messages  # no progress message repeated
    numbers = [int(n) for m in messages for n in re.findall(r"\[\S+_evt_(\d+)\]$", m)]
    assert numbers == list(range(1, 8)), messages  # every event reported once, in order, across the kill
    # The restarted run's first report was the event after the last one saved before the kill
    # (or that last one, when its report was lost).
    kinds = rows(db, "select kind, message from task_events where task_id = ? order by id", task_id)
    second_claim = [i for i, (k, _) in enumerate(kinds) if k == "claimed"][1]
    after = [str(m) for k, m in kinds[second_claim:] if k == "progress" and m and "_evt_" in str(m)]
    first_new = before if report_lost else before + 1
    assert after and after[0].endswith(f"_evt_{first_new:03d}]"), (before, after)
    # The run's pool slot, taken by the killed server, was freed by the new one: counted once.
    slots = rows(db, "select state, run_id from run_slots where pool = 'agent'")
    assert slots == [("done", done["result"]["researchId"])]
