"""How a watch and its runs read to an agent (watches.* and tasks.get of a run's child task)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from exa_orch.store import TaskRecord
from exa_orch.store.watch_outbox import Delivery
from exa_orch.store.watches import WatchRecord, WatchRun

from .watch_runner import WatchScheduler


def _iso(epoch: float | None) -> str | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC).isoformat()


def delivery_view(sent: Delivery) -> dict[str, Any]:
    """A run's webhook delivery: `pending` (retrying), `delivered` or `failed`, with its tries."""
    return {
        "status": sent.status, "attempts": sent.attempts, "lastError": sent.last_error,
        "deliveredAt": _iso(sent.delivered_at),
    }  # fmt: skip


def run_view(run: WatchRun, sent: Delivery | None = None) -> dict[str, Any]:
    """One run as an agent sees it: its task, times, status, diff and cost (and with `sent`, its
    webhook delivery under `webhook`)."""
    shown = {
        "run": run.n, "taskId": run.task_id, "dueAt": _iso(run.due_at), "startedAt": _iso(run.started_at),
        "finishedAt": _iso(run.finished_at), "status": run.status, "changed": run.changed,
        "diff": run.diff, "costUsd": run.cost_usd, "notified": run.notified,
    }  # fmt: skip
    if sent is not None:
        shown["webhook"] = delivery_view(sent)
    return shown


def watch_view(watch: WatchRecord) -> dict[str, Any]:
    """A watch as an agent sees it (never its secret)."""
    return {
        "watchId": watch.id, "type": watch.type, "args": watch.args, "every": watch.every_s,
        "cron": watch.cron, "budgetUsd": watch.budget_usd,
        "notify": {**watch.notify, "signed": watch.signed}, "paused": watch.paused,
        "nextDue": _iso(watch.next_due), "running": watch.running_task or None, "runCount": watch.runs,
        "createdAt": watch.created_at,
    }  # fmt: skip


async def task_watch(scheduler: WatchScheduler | None, record: TaskRecord) -> dict[str, Any] | None:
    """`{watchId, ...the run}` for a task a watch started (its meta says so), else None."""
    if scheduler is None or "watchId" not in record.meta:
        return None
    run = await scheduler.watches.run_of_task(record.id)
    if run is None:
        return {"watchId": record.meta["watchId"], "run": record.meta.get("watchRun")}
    return {"watchId": run.watch_id, **run_view(run)}
