"""Issue 23: every paid answer from Exa is one ledger row; a 402 stops a task; a budget caps it.

Real HTTP to the simulator, which bills like Exa (sim/billing.py): what exa-orch records is
compared with what the simulator billed, to the cent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, Field

from exa_orch.app import ledger_of
from exa_orch.errors import BudgetExceeded, CreditsExhausted, ErrorCode, GatewayError, OrchError
from exa_orch.gateway import Gateway, prices
from exa_orch.gateway.context import request_scope
from exa_orch.gateway.errors import error_from_response
from exa_orch.gateway.purse import Purse
from exa_orch.runtime import Deps, Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec
from exa_orch.sim import billing as sim_prices
from exa_orch.sim.billing import Billing
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskStatus
from tests.gateway._util import settings_for
from tests.support import WAIT, until

FAST = {"heartbeat": 0.1, "claim_interval": 0.1, "lease_ttl": 5.0, "cleanup_interval": 0.5}


class SearchesArgs(BaseModel):
    n: int = Field(default=6, ge=1, le=500)
    fan_out: int = Field(default=1, ge=1, le=20)
    hold_at: int | None = None  # waits on extras["gate"] before this step
    hold_in: int | None = None  # waits on extras["gate"] inside this step, after its request
    tolerant: bool = False  # a failed search is skipped (as fan-out workflows keep what works)


async def searches_workflow(ctx: TaskContext, args: SearchesArgs) -> dict[str, Any]:
    """`n` searches, each its own checkpointed step, `fan_out` at a time; a partial after each."""
    assert ctx.deps.gateway is not None
    http = ctx.deps.gateway.http
    found: list[str] = []

    async def one(i: int) -> list[str]:
        async def search() -> list[str]:
            answer = await http.post("/search", json={"query": f"AI startups {i}", "numResults": 3})
            if args.hold_in == i:
                await ctx.deps.extras["gate"].wait()
            return [r["url"] for r in answer.json()["results"]]

        if args.hold_at == i:
            await ctx.deps.extras["gate"].wait()
        try:
            return await ctx.step(f"search.{i}", search)
        except GatewayError:
            if not args.tolerant:
                raise
            return []

    for start in range(0, args.n, args.fan_out):
        batch = await asyncio.gather(*(one(i) for i in range(start, min(args.n, start + args.fan_out))))
        for urls in batch:
            found.extend(urls)
        await ctx.partial({"urls": found})
    return {"urls": found}


REGISTRY = WorkflowRegistry([WorkflowSpec("money.searches", SearchesArgs, searches_workflow, "n searches")])


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with Store(tmp_path / "workflows.db") as s:
        yield s


@pytest.fixture
async def gateway(sim: SimHandle, store: Store) -> AsyncIterator[Gateway]:
    async with Gateway(settings_for(sim, concurrency=3, rps=200)) as gw:
        gw.record_costs(ledger_of(store))
        yield gw


def billing(sim: SimHandle) -> Billing:
    account: Billing = sim.ctx.extras["billing"]
    return account


async def ledger(store: Store, expect: int | None = None) -> list[tuple[Any, ...]]:
    """The ledger's rows; with `expect`, once that many are committed (a direct call's row is queued,
    not awaited: it commits with the next group commit)."""
    sql = "SELECT task_id, principal, operation, usd, billed, step_key, resend, key FROM v_costs"
    if expect is not None:
        await until(lambda: _count_is(store, sql, expect), what=f"{expect} ledger rows")
    return await store._read(sql)


async def _count_is(store: Store, sql: str, n: int) -> bool:
    return len(await store._read(sql)) == n


def supervisor(store: Store, gateway: Gateway, **extras: Any) -> Supervisor:
    return Supervisor(store, REGISTRY, Deps(gateway=gateway, extras=extras), **FAST)  # type: ignore[arg-type]


def test_the_simulator_bills_at_the_price_table() -> None:
    assert sim_prices.SEARCH == prices.SEARCH and sim_prices.ANSWER == prices.ANSWER
    assert sim_prices.SEARCH_DEEP == prices.SEARCH_DEEP
    assert sim_prices.SEARCH_DEEP_REASONING == prices.SEARCH_DEEP_REASONING
    assert sim_prices.EXTRA_RESULT == prices.EXTRA_RESULT and sim_prices.PER_PAGE == prices.CONTENT_PER_PAGE
    assert sim_prices.AGENT_FIXED == prices.AGENT_FIXED
    assert sim_prices.AGENT_METERED_CAP == prices.AGENT_METERED_CAP
    assert sim_prices.ACU == prices.ACU and sim_prices.USAGE_SEARCH == prices.USAGE_SEARCH


@pytest.mark.parametrize("tag", ["NO_MORE_CREDITS", "API_KEY_BUDGET_EXCEEDED", "TEAM_BUDGET_EXCEEDED"])
def test_every_402_tag_is_credits_exhausted_and_keeps_the_tag(tag: str) -> None:
    body = b'{"requestId":"r1","error":"You have exceeded your credits limit.","tag":"%s"}' % tag.encode()
    error = error_from_response(402, httpx.Headers(), body, method="POST", path="/search")
    assert isinstance(error, CreditsExhausted) and error.code is ErrorCode.CREDITS_EXHAUSTED
    assert error.tag == tag and error.to_dict()["tag"] == tag and error.request_id == "r1"
    assert not error.retryable and error.hint is not None and "Top up" in error.hint


async def test_a_402_is_sent_once_never_retried(sim: SimHandle, gateway: Gateway) -> None:
    billing(sim).credit_limit_usd = 0.0
    with pytest.raises(CreditsExhausted) as caught:
        await gateway.http.post("/search", json={"query": "x"})
    assert caught.value.tag == "NO_MORE_CREDITS" and caught.value.status == 402
    assert [e["status"] for e in sim.log()] == [402]


async def test_each_direct_call_is_one_billed_row_for_its_caller(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    http = gateway.http
    with request_scope(principal="user:alice"):
        await http.post("/search", json={"query": "AI startups", "numResults": 12})
        await http.post("/search", json={"query": "robotics", "type": "deep", "contents": {"text": True}})
        await http.post("/findSimilar", json={"url": "https://example.com", "numResults": 4})
        await http.post("/contents", json={"urls": ["https://example.com/a"], "text": True})
        await http.post("/answer", json={"query": "who makes GPUs?"})
        await http.get("/websets/v0/websets")  # unpaid: no row
    rows = await ledger(store, expect=5)
    account = billing(sim)
    assert len(rows) == account.answers == 5
    assert round(sum(r[3] for r in rows), 6) == account.spent
    assert {r[1] for r in rows} == {"user:alice"} and {r[0] for r in rows} == {None}
    assert [r[2] for r in rows] == ["search", "search", "findSimilar", "contents", "answer"]
    assert all(r[4] == 1 and r[6] == 0 for r in rows)
    assert rows[0][3] == pytest.approx(prices.SEARCH + 2 * prices.EXTRA_RESULT)


async def test_the_ledger_writes_every_field_of_a_paid_answer_to_its_column(store: Store) -> None:
    # app.ledger_of copies a PaidAnswer into a CostRow field by field: a field added to one and not
    # the other, or two swapped, lands here in the wrong column.
    from exa_orch.gateway import PaidAnswer

    task = await store.create_task("x", {}, principal="user:carol")
    paid = PaidAnswer(
        key="req_9", operation="answer", usd=0.125, billed=False, task_id=task.id, step_key="s3",
        principal="user:carol", attempt="a-7", resend=True,
    )  # fmt: skip
    await ledger_of(store)(paid)
    await store.save_step(task.id, "s3", {})  # commits the queued row with it
    rows = await store._read(
        "SELECT key, operation, usd, billed, task_id, step_key, principal, attempt, resend FROM costs"
    )
    assert [tuple(r) for r in rows] == [("req_9", "answer", 0.125, 0, task.id, "s3", "user:carol", "a-7", 1)]


async def test_a_task_records_each_step_once_and_a_resumed_run_counts_nothing_twice(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    gate = asyncio.Event()
    task = await store.create_task("money.searches", {"n": 6, "hold_at": 3}, principal="user:bob")
    async with supervisor(store, gateway, gate=gate) as sup:
        await _until(lambda: _steps(store, task.id, 3))
    # Shut down mid-task (it resumes on the next start): steps 0-2 are saved and paid for.
    assert len(await ledger(store)) == 3
    gate.set()
    async with supervisor(store, gateway, gate=gate) as sup:
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    rows = await ledger(store)
    account = billing(sim)
    assert len(rows) == account.answers == 6  # the saved steps were re-read, not re-sent
    assert round(sum(r[3] for r in rows), 6) == account.spent
    assert sorted(r[5] for r in rows) == [f"search.{i}" for i in range(6)]
    assert {(r[0], r[1]) for r in rows} == {(task.id, "user:bob")}
    assert not any(r[6] for r in rows)
    (cost_usd,) = (await store._read("SELECT cost_usd FROM v_tasks WHERE id = ?", (task.id,)))[0]
    assert cost_usd == pytest.approx(account.spent)
    assert (await store.task_costs([task.id]))[task.id] == {
        "usd": account.spent,
        "billed": account.spent,
        "estimated": 0.0,
    }


async def test_a_402_mid_task_fails_it_with_credits_exhausted_and_sends_nothing_after(
    sim: SimHandle, gateway: Gateway, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Credits for ~5 searches of $0.007; the task fans out 4 at a time over 40.
    billing(sim).credit_limit_usd = 0.035
    # A workflow that skips a failed search and goes on: only the purse stops it.
    task = await store.create_task("money.searches", {"n": 40, "fan_out": 4, "tolerant": True})
    # How many requests the gateway had sent when the task's purse took the 402: the gateway's own
    # count, not the simulator's clock (a busy machine may answer another slot's request first).
    sent_at_stop: list[int] = []
    stop = Purse.stop

    def stop_and_count(purse: Purse, error: OrchError) -> None:
        sent_at_stop.append(gateway.transport.stats.attempts)
        stop(purse, error)

    monkeypatch.setattr(Purse, "stop", stop_and_count)
    async with supervisor(store, gateway) as sup:
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED
    assert done.error is not None and done.error["code"] == "CREDITS_EXHAUSTED", done.error
    assert done.partial is not None and len(done.partial["urls"]) >= 3  # what it found is kept
    # Nothing is sent once the gateway has the 402; without the purse's stop every later batch
    # would be (the requests in flight then, at most its other 2 slots of 3, may add 402s).
    log = sim.log()
    assert sent_at_stop, "the purse never stopped"
    assert gateway.transport.stats.attempts == sent_at_stop[0] == len(log)
    assert len(log) <= 5 + 3 < 40  # ~5 paid searches, then the 402 and at most two beside it
    rows = await ledger(store)
    assert round(sum(r[3] for r in rows), 6) == billing(sim).spent


async def test_a_budget_stops_the_task_completed_partial_within_one_request(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    budget = 0.05
    task = await store.create_task("money.searches", {"n": 40, "fan_out": 3}, meta={"budgetUsd": budget})
    async with supervisor(store, gateway) as sup:
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert done.result["partial"] is True and done.result["stoppedBy"] == "budget"
    assert len(done.result["urls"]) >= 3  # everything found so far is kept
    spent = billing(sim).spent
    worst = prices.search_price({"numResults": 3})
    assert spent <= budget + worst
    assert spent <= budget  # reservations keep concurrent requests inside the budget itself
    assert round(sum(r[3] for r in await ledger(store)), 6) == spent
    assert not [e for e in sim.log() if e["status"] == 402]


async def test_a_row_queued_just_before_the_store_closes_is_committed(tmp_path: Path) -> None:
    # A direct call's row is queued, not awaited (app.ledger_of): a server stopped right after the
    # answer must still commit it (the writer's last commit takes the queued rows).
    from exa_orch.store import CostRow

    async with Store(tmp_path / "close.db") as first:
        await first.record_cost(
            CostRow(key="req_last", operation="answer", usd=0.005, billed=True), wait=False
        )
    async with Store(tmp_path / "close.db") as again:
        assert await again._read("SELECT key, usd FROM v_costs") == [("req_last", 0.005)]


async def _steps(store: Store, task_id: str, n: int) -> bool:
    return len(await store.load_steps(task_id)) >= n


async def _until(cond: Any, within: float = 30.0) -> None:
    await until(cond, within=within)


async def test_a_metered_agent_run_is_sent_capped_at_what_the_task_has_left(
    sim: SimHandle, gateway: Gateway
) -> None:
    from exa_orch.gateway.purse import BudgetReached, Purse

    purse = Purse("task_x", budget=1.5, spent=0.25)
    with request_scope(purse=purse):
        fixed = await gateway.http.post("/agent/runs", json={"query": "AI startups", "effort": "low"})
        made = await gateway.http.post("/agent/runs", json={"query": "AI startups", "effort": "auto"})
        with pytest.raises(BudgetReached):  # the metered run holds all that was left
            await gateway.http.post("/search", json={"query": "x"})
    runs = sim.ctx.extras["agent"]
    left = round(1.5 - 0.25 - prices.AGENT_FIXED["low"], 4)
    assert runs.get(made.json()["id"]).request["budget"] == {"maxCostDollars": left}
    assert "budget" not in runs.get(fixed.json()["id"]).request
    # Each create holds its worst case until its final state says what it cost.
    assert purse.runs == {made.json()["id"]: left, fixed.json()["id"]: prices.AGENT_FIXED["low"]}
    assert [e["path"] for e in sim.log()] == ["/agent/runs", "/agent/runs"]  # the search was not sent


async def test_a_daily_cap_refuses_a_principals_paid_calls_past_it_even_after_a_restart(
    sim: SimHandle, store: Store
) -> None:
    settings = settings_for(sim, rps=200, daily_budgets=(("alice", 0.02),))
    async with Gateway(settings) as gw:
        gw.record_costs(ledger_of(store))
        gw.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            await gw.http.post("/search", json={"query": "a"})
            await gw.http.post("/search", json={"query": "b"})
            with pytest.raises(BudgetExceeded) as refused:
                await gw.http.post("/search", json={"query": "c"})
            await gw.http.get("/websets/v0/websets")  # unpaid calls still go
        with request_scope(principal="token:bob"):  # no cap of his own, no default
            await gw.http.post("/search", json={"query": "d"})
    assert refused.value.code is ErrorCode.BUDGET_EXCEEDED
    assert refused.value.to_dict()["spentUsd"] == pytest.approx(2 * prices.SEARCH)
    assert "$0.0140" in refused.value.message and "0.02" in refused.value.message
    await ledger(store, expect=3)
    # Another process (a restart) reads the day's spend from the ledger.
    async with Gateway(settings) as again:
        again.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"), pytest.raises(BudgetExceeded):
            await again.http.post("/search", json={"query": "e"})
    assert [e["path"] for e in sim.log()].count("/search") == 3


async def test_a_streamed_answer_is_one_billed_row_once_its_stream_ends(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    body = {"query": "who makes GPUs?", "stream": True}
    with request_scope(principal="user:carol"):
        async with gateway.http.stream("POST", "/answer", json=body) as resp:
            lines = [line async for line in resp.aiter_lines() if line]
        # A caller that stops reading early still paid: the price table's figure, marked estimated.
        async with gateway.http.stream("POST", "/answer", json=body) as early:
            async for _ in early.aiter_lines():
                break
    assert any("costDollars" in line for line in lines)
    rows = await ledger(store, expect=2)
    account = billing(sim)
    assert rows[0][1:5] == ("user:carol", "answer", prices.ANSWER, 1)
    assert rows[0][7] == account.charged[0]  # keyed by the request's id, as the simulator billed it
    assert rows[1][2:5] == ("answer", prices.ANSWER, 0) and rows[1][7] != rows[0][7]


async def test_a_streamed_answer_settles_the_tasks_purse(sim: SimHandle, gateway: Gateway) -> None:
    from exa_orch.gateway.purse import Purse

    purse = Purse("task_s", budget=1.0)
    with request_scope(purse=purse):
        async with gateway.http.stream("POST", "/answer", json={"query": "x", "stream": True}) as resp:
            await resp.aread()
    assert purse.reserved == 0 and purse.spent == pytest.approx(prices.ANSWER)


async def test_a_step_run_again_after_a_stop_counts_its_request_again_marked_resend(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    gate = asyncio.Event()
    task = await store.create_task("money.searches", {"n": 3, "hold_in": 1})
    async with supervisor(store, gateway, gate=gate):
        await until(lambda: _count_is(store, "SELECT key FROM costs", 2), what="step 1's request paid")
    # Stopped inside step 1, after its request and before its checkpoint. Another process (another
    # attempt) runs the step again: Exa bills the request again, and the ledger counts it again.
    gate.set()
    async with Gateway(settings_for(sim, concurrency=3, rps=200)) as again:
        again.record_costs(ledger_of(store))
        async with supervisor(store, again, gate=gate) as sup:
            done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    rows = await ledger(store)
    assert [(r[5], r[6]) for r in rows] == [
        ("search.0", 0),
        ("search.1", 0),
        ("search.1", 1),
        ("search.2", 0),
    ]
    assert len(rows) == billing(sim).answers == 4
    assert round(sum(r[3] for r in rows), 6) == billing(sim).spent


async def test_a_daily_cap_holds_an_agent_runs_worst_case_until_it_finishes_even_after_a_restart(
    sim: SimHandle, store: Store
) -> None:
    sim.ctx.clock.set_speed(0.001)  # the runs stay running until the test lets time go
    medium = prices.AGENT_FIXED["medium"]
    settings = settings_for(sim, rps=200, daily_budgets=(("alice", 0.15),))
    body = {"query": "AI startups", "effort": "medium"}
    async with Gateway(settings) as gw:
        gw.record_costs(ledger_of(store))
        gw.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            run_id = (await gw.http.post("/agent/runs", json=body)).json()["id"]
            with pytest.raises(BudgetExceeded):  # the first run still holds its $0.11
                await gw.http.post("/agent/runs", json=body)
    # A restart: the run under way is held again once it is seen running (a resumed task's read).
    async with Gateway(settings) as again:
        again.record_costs(ledger_of(store))
        again.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            assert (await again.http.get(f"/agent/runs/{run_id}")).json()["status"] != "completed"
            await again.http.post("/search", json={"query": "a"})  # $0.11 + $0.007 fits
            with pytest.raises(BudgetExceeded) as refused:
                await again.http.post("/agent/runs", json=body)
            assert refused.value.to_dict()["spentUsd"] == pytest.approx(prices.SEARCH)  # + $0.11 held
            sim.ctx.clock.set_speed(1000.0)

            async def finished() -> bool:
                got = await again.http.get(f"/agent/runs/{run_id}")
                return bool(got.json()["status"] == "completed")

            await until(finished, what="the run to finish")
            await again.http.get(f"/agent/runs/{run_id}")  # its final state read again: counted once
            # Spent: the run's billed $0.11 + $0.007; one more search fits under $0.15.
            await again.http.post("/search", json={"query": "b"})
    billed = sim.ctx.extras["billing"].spent
    assert billed == pytest.approx(medium + 2 * prices.SEARCH)
    assert [e["path"] for e in sim.log() if e["method"] == "POST"].count("/agent/runs") == 1


async def low_run_finished(gw: Gateway) -> str:
    """The id of a low-effort agent run made through `gw` (in the caller's request scope), once it is completed."""
    run_id = str((await gw.http.post("/agent/runs", json={"query": "AI", "effort": "low"})).json()["id"])

    async def finished() -> bool:
        got = await gw.http.get(f"/agent/runs/{run_id}")
        return bool(got.json()["status"] == "completed")

    await until(finished, what="the run to finish")
    return run_id


async def test_a_resumed_task_reading_a_run_the_ledger_counted_adds_it_to_neither_purse_nor_cap(
    sim: SimHandle, store: Store
) -> None:

    low = prices.AGENT_FIXED["low"]
    # The run and two searches fit; a third search does not.
    settings = settings_for(sim, rps=200, daily_budgets=(("alice", round(low + 2.5 * prices.SEARCH, 6)),))
    async with Gateway(settings) as gw:
        gw.record_costs(ledger_of(store))
        with request_scope(principal="user:alice", task_id="task_r"):
            run_id = await low_run_finished(gw)
    await ledger(store, expect=1)
    # A restart: the task's purse starts from the ledger (as runtime/actor.py opens it) and the cap
    # from the day's spend; the resumed task reads its finished run again.
    async with Gateway(settings) as again:
        again.record_costs(ledger_of(store))
        again.cap_daily(store.spent_since)
        purse = Purse("task_r", budget=1.0, spent=low)
        purse.counted_runs = await store.task_run_keys("task_r", "user:alice", "1970-01-01T00:00:00.000Z")
        assert purse.counted_runs == {f"agent_run:{run_id}"}
        with request_scope(purse=purse):
            with request_scope(principal="user:alice", task_id="task_r"):
                await again.http.post("/search", json={"query": "a"})  # the cap reads the day: the run
                await again.http.get(f"/agent/runs/{run_id}")
                assert purse.spent == pytest.approx(low + prices.SEARCH) and purse.runs == {}
                await again.http.post("/search", json={"query": "b"})  # the run + 2 searches fit
                with pytest.raises(BudgetExceeded):
                    await again.http.post("/search", json={"query": "c"})


async def test_a_daily_cap_holds_a_running_webset_searchs_estimate_until_it_ends(
    sim: SimHandle, store: Store
) -> None:
    sim.ctx.clock.set_speed(0.001)  # the search stays running until the test lets time go
    cap = round(3 * prices.WEBSET_ITEM_ESTIMATE + 1.5 * prices.SEARCH, 6)  # 3 items held + a search
    settings = settings_for(sim, rps=200, daily_budgets=(("alice", cap),))

    def webset(count: int) -> dict[str, Any]:
        return {"search": {"query": "AI startups in Europe", "entity": {"type": "company"}, "count": count}}

    async with Gateway(settings) as gw:
        gw.record_costs(ledger_of(store))
        gw.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            made = (await gw.http.post("/websets/v0/websets", json=webset(3))).json()  # holds 3 items
            with pytest.raises(BudgetExceeded):  # a fourth item held would pass the cap
                await gw.http.post("/websets/v0/websets", json=webset(1))
    # A restart: the search, seen running, is held again (what it has not found yet).
    async with Gateway(settings) as again:
        again.record_costs(ledger_of(store))
        again.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            await again.http.post("/search", json={"query": "a"})  # a search + 3 items held fits
            got = (await again.http.get(f"/websets/v0/websets/{made['id']}")).json()
            assert got["searches"][0]["status"] != "completed"
            with pytest.raises(BudgetExceeded):
                await again.http.post("/search", json={"query": "b"})
            sim.ctx.clock.set_speed(1000.0)

            async def ended() -> bool:
                got = (await again.http.get(f"/websets/v0/websets/{made['id']}")).json()
                return bool(got["searches"][0]["status"] == "completed")

            await until(ended, what="the search to end")
            got = (await again.http.get(f"/websets/v0/websets/{made['id']}")).json()
            progress = got["searches"][0]["progress"]
            found, analyzed = progress["found"], progress["analyzed"]
            # What it did is spent (estimated as Exa bills it), the rest of its hold freed.
            did = found * prices.WEBSET_FOUND_ESTIMATE + analyzed * prices.WEBSET_ANALYZED_ESTIMATE
            fits = prices.SEARCH + did + prices.SEARCH <= cap + 1e-9
            if fits:
                await again.http.post("/search", json={"query": "c"})
            else:
                with pytest.raises(BudgetExceeded):
                    await again.http.post("/search", json={"query": "c"})
        rows = await ledger(store, expect=1 + found + analyzed + fits)
    items = [r for r in rows if r[2] == "websets.item"]
    looked = [r for r in rows if r[2] == "websets.analyzed"]
    assert len(items) == found <= 3 and len(looked) == analyzed >= found
    assert sum(r[3] for r in items + looked) == pytest.approx(did)
    assert [e["path"] for e in sim.log() if e["method"] == "POST"].count("/websets/v0/websets") == 1


async def test_a_direct_read_of_a_finished_run_after_a_restart_is_not_added_to_the_seeded_cap(
    sim: SimHandle, store: Store
) -> None:
    """A call outside any task (no purse) reads a run that finished before the restart: its final
    cost is in the ledger, so in the day's spend the cap read; counting it again would refuse
    calls the cap has room for."""
    low = prices.AGENT_FIXED["low"]
    settings = settings_for(sim, rps=200, daily_budgets=(("alice", low + 3 * prices.SEARCH + 0.001),))
    async with Gateway(settings) as gw:
        gw.record_costs(ledger_of(store))
        gw.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            run_id = await low_run_finished(gw)
    await ledger(store, expect=1)
    async with Gateway(settings) as again:
        again.record_costs(ledger_of(store))
        again.cap_daily(store.spent_since)
        with request_scope(principal="user:alice"):
            await again.http.post("/search", json={"query": "a"})  # seeds the day: the run's cost
            for _ in range(2):  # read again, twice: in the seed already
                assert (await again.http.get(f"/agent/runs/{run_id}")).json()["status"] == "completed"
            await again.http.post("/search", json={"query": "b"})
            await again.http.post("/search", json={"query": "c"})  # run + 3 searches fit the cap
            with pytest.raises(BudgetExceeded) as refused:
                await again.http.post("/search", json={"query": "d"})
    assert refused.value.to_dict()["spentUsd"] == pytest.approx(low + 3 * prices.SEARCH)
    await ledger(store, expect=4)
