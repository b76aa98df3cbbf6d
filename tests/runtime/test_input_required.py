"""A task that needs its owner's input (seed 000 section 5.2.1): the run stops input_required with
what it waits for, keeps its checkpoints, is claimed by no runner (also after a restart), and
resumes where it was once the input is given; a cancel ends it; tasks.list filters by the status."""

from __future__ import annotations

from collections import Counter
from typing import Any

from exa_orch.config import Settings
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.runtime import Principal
from exa_orch.store import INPUT_REQUEST_META, Store, TaskStatus
from tests.runtime.conftest import bump, supervisor
from tests.support import WAIT

ALICE = Principal("user:alice")


async def test_a_task_waits_for_its_owners_key_across_a_restart_then_resumes(
    store: Store, effects: Counter[str]
) -> None:
    extras: dict[str, Any] = {"effect": bump(effects), "keys": set()}
    async with supervisor(store, extras) as sup:
        made = await sup.tasks.create("rt.keyed", {"label": "a"}, principal=ALICE)
        waiting = await sup.tasks.wait(made.id, timeout=WAIT, principal=ALICE, until_input=True)
        assert waiting.status is TaskStatus.INPUT_REQUIRED, waiting
        request = waiting.meta[INPUT_REQUEST_META]
        assert (
            request["kind"] == "apiKey" and request["step"] == "keyed" and request["principal"] == ALICE.name
        )
        assert waiting.lease_owner is None and waiting.expires_at is None and waiting.error is None
        assert [r.id for r in await sup.tasks.waiting(ALICE, "apiKey")] == [made.id]
        assert await sup.tasks.waiting(Principal("user:bob")) == []

    # A restart while it waits: the new runner claims nothing, the task still waits.
    async with supervisor(store, extras) as sup:
        await sup._claim_once()
        await sup._claim_once()
        assert sup.started_total == 0
        assert (await sup.tasks.get(made.id)).status is TaskStatus.INPUT_REQUIRED
        listed, _ = await sup.tasks.list(status="input_required", principal=ALICE)
        assert [r.id for r in listed] == [made.id]

        extras["keys"].add(ALICE.name)  # the key is given
        resumed = await sup.tasks.resume_waiting(ALICE, "apiKey")
        assert [r.id for r in resumed] == [made.id] and resumed[0].status is TaskStatus.WORKING
        assert INPUT_REQUEST_META not in resumed[0].meta
        done = await sup.tasks.wait(made.id, timeout=WAIT, principal=ALICE)
    assert done.status is TaskStatus.COMPLETED, done
    assert done.result == {"done": ["before", "keyed"], "label": "a"}
    assert sum(effects.values()) == 1  # resumed where it was: the first step ran once
    statuses = [e["status"] for e in await store.events(made.id) if e["kind"] == "status"]
    assert statuses == ["working", "input_required", "working", "completed"]


async def test_a_waiting_task_is_cancelled_and_listed_by_its_status(store: Store) -> None:
    async with supervisor(store, {"keys": set()}) as sup:
        made = await sup.tasks.create("rt.keyed", {}, principal=ALICE)
        await sup.tasks.wait(made.id, timeout=WAIT, principal=ALICE, until_input=True)
        ctx = OpContext(gateway=None, settings=Settings(), tasks=sup.tasks, principal=ALICE)
        listed = await dispatch(default_registry(), "tasks.list", {"status": "input_required"}, ctx)
        assert [t["taskId"] for t in listed["tasks"]] == [made.id]
        assert listed["tasks"][0]["status"] == "input_required"
        cancelled = await sup.tasks.cancel(made.id, principal=ALICE, settle=WAIT)
        assert cancelled.status is TaskStatus.CANCELLED
        assert await sup.tasks.resume_waiting(ALICE, "apiKey") == []
