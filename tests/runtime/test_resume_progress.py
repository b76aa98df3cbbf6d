"""A resumed task's progress carries on from where the stopped run left it; it never goes back."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from exa_orch.runtime import TaskEvent
from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import bump, supervisor
from tests.support import WAIT, until


async def test_replayed_checkpoints_do_not_rewind_the_stored_progress(
    db_path: Path, effects: Counter[str]
) -> None:
    gate = asyncio.Event()
    async with Store(db_path) as store, supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 6, "block_at": 3})

        async def three_done() -> bool:
            return (await store.get_task(task.id)).progress == {"step": "steps", "completed": 3, "total": 6}

        await until(three_done)
    heard: list[TaskEvent] = []

    async def listen(event: TaskEvent) -> None:
        heard.append(event)

    async with Store(db_path) as store:
        async with supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
            sup.tasks.subscribe(listen)

            async def replayed() -> bool:
                # The resumed run replays s0..s2, reports 3 of 6 and waits at the gate again.
                events = await store.events(task.id)
                claims = [i for i, e in enumerate(events) if e["kind"] == "claimed"]
                return len(claims) == 2 and any(
                    e["kind"] == "progress" and e["data"]["completed"] == 3 for e in events[claims[1] :]
                )

            await until(replayed)
            gate.set()
            done = await sup.tasks.wait(task.id, timeout=WAIT)
        history = [e["data"]["completed"] for e in await store.events(task.id) if e["kind"] == "progress"]
    assert done.status is TaskStatus.COMPLETED
    assert done.result == {"squares": [0, 1, 4, 9, 16, 25]}
    assert history == sorted(history) and history[-1] == 6, history
    # Subscribers (MCP progress notifications) hear no rewind either.
    assert [e.progress["completed"] for e in heard if e.kind == "progress" and e.progress] == [3, 4, 5, 6]
    assert set(effects.values()) == {1}
