"""watches.*: re-run a task on a schedule and report only what changed (watch_runner.py runs them).

`watches.create {type, <the task's own args, flat as in tasks.create>, every | cron, budgetUsd,
notify}` answers `{watchId, ...}` (and, with a webhook, its signing `secret`, shown this once);
`watches.list|get|pause|resume|delete` take the caller's watches only: another principal's watch
answers as one that does not exist (WatchNotFound).
"""

from __future__ import annotations

import contextlib
import re
import secrets
from typing import Any

from croniter import croniter
from pydantic import ConfigDict, Field, field_validator

from exa_orch.errors import ConfigError, InvalidParams, OrchError, WatchNotFound
from exa_orch.runtime import Principal
from exa_orch.store.watches import NewWatch, WatchRecord

from .context import OpContext
from .models import Args, Loose
from .registry import Operation
from .tasks import _principal, _service, check_task_args
from .urls import check_web_url, check_webhook_url
from .watch_runner import WatchScheduler
from .watch_views import run_view, watch_view

MIN_EVERY_S = 60.0  # outside the simulator: a watch re-runs paid research, at most once a minute
MIN_EVERY_SIM_S = 1.0  # on the simulator (tests, demos), a few seconds
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}
_EVERY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")


def parse_every(value: str | float) -> float:
    """Seconds from "15s" / "10m" / "2h" / "1d" or a number of seconds; InvalidParams otherwise."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _EVERY.match(str(value))
    if not match:
        raise InvalidParams(
            f"every: {value!r} is not a period; give seconds or a number with s, m, h or d",
            hint='Examples: "15s", "10m", "1d", 3600.',
            fields=["every"],
        )
    return float(match[1]) * _UNITS[match[2] or "s"]


class Notify(Loose):
    """Where a run that found a change is reported."""

    model_config = ConfigDict(extra="forbid")
    webhook: str | None = None
    """an https URL; each POST is signed (`Exa-Signature: t=...,v1=...`, HMAC-SHA256 of "{t}.{body}"
    with the secret watches.create shows once)"""
    mcp: bool = True
    """notify the owner's connected MCP sessions"""


class CreateArgs(Args):
    """watches.create: {type, ...the task type's args, every | cron, budgetUsd, notify}."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(min_length=1)
    """the task type each run starts, e.g. 'qd.harvest' (its args sit beside `type`, as in tasks.create)"""
    every: str | float | None = None
    """the period: "15s", "10m", "1d" or seconds (at least one minute outside the simulator)"""
    cron: str | None = None
    """instead of every: a 5-field cron expression in UTC, e.g. "0 9 * * 1" (Mondays 09:00)"""
    budgetUsd: float | None = Field(default=None, gt=0, le=10_000)  # noqa: N815 (the wire name)
    """dollars each run may spend at Exa (a run stops at it, as a task does)"""
    notify: Notify | None = None
    """{webhook: url, mcp: true}: where a run that found a change is reported"""

    @field_validator("cron")
    @classmethod
    def _cron(cls, value: str | None) -> str | None:
        if value is not None and (len(value.split()) != 5 or not croniter.is_valid(value)):
            raise ValueError(f"{value!r} is not a 5-field cron expression (minute hour day month weekday)")
        return value


class WatchIdArgs(Args):
    watch_id: str = Field(min_length=1)
    """the id watches.create returned"""


class GetArgs(WatchIdArgs):
    runs: int = Field(default=20, ge=0, le=200)
    """how many of the latest runs to show, each with its diff and cost"""


def _scheduler(ctx: OpContext) -> WatchScheduler:
    _service(ctx)  # ConfigError when no runtime runs here
    if ctx.watches is None:
        raise ConfigError(
            "the watch scheduler is not running in this process",
            hint="Call watches.* inside the MCP server (`exa-orch serve`), which runs it with the runtime.",
        )
    scheduler: WatchScheduler = ctx.watches
    return scheduler


async def _owned(ctx: OpContext, watch_id: str) -> WatchRecord:
    watch = await _scheduler(ctx).watches.get(watch_id)
    if watch is None or not _principal(ctx).may_see(watch.owner):
        raise WatchNotFound(watch_id)
    return watch


def period_s(args: CreateArgs, simulator: bool) -> float | None:
    """The watch's period in seconds (None with `cron`); InvalidParams for neither or both, or a
    period shorter than this server allows."""
    if (args.every is None) == (args.cron is None):
        raise InvalidParams(
            "give exactly one of every and cron", hint='e.g. "every": "10m"', fields=["every", "cron"]
        )
    if args.every is None:
        return None
    seconds = parse_every(args.every)
    least = MIN_EVERY_SIM_S if simulator else MIN_EVERY_S
    if seconds < least:
        raise InvalidParams(
            f"every: {seconds:g} s is too often; a watch runs at most every {least:g} s here",
            hint='Use at least one minute ("1m"); shorter periods are for the simulator only.',
            fields=["every"],
        )
    return seconds


def _task_args(args: CreateArgs, ctx: OpContext) -> dict[str, Any]:
    extra = dict(args.model_extra or {})
    if extra.get("known") == "skip":
        raise InvalidParams(
            'known: a watch never runs with "skip": each run must see every entity to tell what changed',
            hint='Leave known out (or use "mark").',
            fields=["known"],
        )
    if args.type == "operation" and str(extra.get("operation", "")).startswith("watches."):
        raise InvalidParams("a watch can't run watches.* operations", fields=["operation"])
    service = _service(ctx)
    extra = service.with_engine(args.type, extra, ctx.settings.engine)
    if ctx.registry is not None:
        check_task_args(ctx.registry, args.type, extra)
    service.estimate(args.type, extra)  # validates like tasks.create, writes nothing
    return extra


def _notify(args: CreateArgs, simulator: bool) -> dict[str, Any]:
    notify = args.notify or Notify()
    if notify.webhook is not None:
        try:
            (check_web_url if simulator else check_webhook_url)(notify.webhook)
        except ValueError as exc:
            raise InvalidParams(f"notify.webhook: {exc}", fields=["notify.webhook"]) from None
    return {"webhook": notify.webhook, "mcp": notify.mcp}


async def _create(args: CreateArgs, ctx: OpContext) -> dict[str, Any]:
    scheduler = _scheduler(ctx)
    every = period_s(args, ctx.settings.simulator)
    notify = _notify(args, ctx.settings.simulator)
    task_args = _task_args(args, ctx)
    secret = None if notify["webhook"] is None else f"whsec_{secrets.token_urlsafe(32)}"
    owner: Principal = _principal(ctx)
    new = NewWatch(owner.name, args.type, task_args, every, args.cron, args.budgetUsd, notify, secret,
                   next_due=scheduler.clock())  # fmt: skip
    watch = await scheduler.watches.create(new)
    scheduler.wake()
    out = watch_view(watch)
    if secret is not None:
        out["secret"] = secret
        out["secretNote"] = "shown once: keep it to verify the Exa-Signature header of each delivery"
    return out


async def _get(args: GetArgs, ctx: OpContext) -> dict[str, Any]:
    watch = await _owned(ctx, args.watch_id)
    scheduler = _scheduler(ctx)
    runs = await scheduler.watches.runs(watch.id, args.runs) if args.runs else []
    sent = await scheduler.sender.outbox.deliveries(watch.id) if runs and watch.signed else {}
    return {**watch_view(watch), "runs": [run_view(r, sent.get(r.n)) for r in runs]}


async def _list(args: Args, ctx: OpContext) -> dict[str, Any]:
    who = _principal(ctx)
    found = await _scheduler(ctx).watches.owned(who.name, who.sees_unowned)
    return {"watches": [watch_view(w) for w in found]}


async def _pause(args: WatchIdArgs, ctx: OpContext) -> dict[str, Any]:
    watch = await _owned(ctx, args.watch_id)
    await _scheduler(ctx).watches.set_paused(watch.id, True)
    return watch_view(await _owned(ctx, watch.id))


async def _resume(args: WatchIdArgs, ctx: OpContext) -> dict[str, Any]:
    watch = await _owned(ctx, args.watch_id)
    scheduler = _scheduler(ctx)
    await scheduler.watches.set_paused(watch.id, False)
    scheduler.wake()  # a run that fell due while paused runs now, once
    return watch_view(await _owned(ctx, watch.id))


async def _delete(args: WatchIdArgs, ctx: OpContext) -> dict[str, Any]:
    watch = await _owned(ctx, args.watch_id)
    scheduler = _scheduler(ctx)
    await scheduler.watches.delete(watch.id)
    scheduler.wake()  # the next due time may have been this watch's
    if watch.running_task:
        with contextlib.suppress(OrchError):  # it may have ended meanwhile
            await _service(ctx).cancel(watch.running_task, principal=_principal(ctx))
    return {"watchId": watch.id, "deleted": True}


class ListArgs(Args):
    """watches.list takes no arguments."""


OPERATIONS: list[Operation] = [
    Operation(
        "watches.create",
        CreateArgs,
        _create,
        "Re-run a task {type, ...args} every period or cron; report what changed",
        secret_result=True,
    ),
    Operation("watches.list", ListArgs, _list, "Your watches", read_only=True),
    Operation("watches.get", GetArgs, _get, "A watch and its runs' diffs and costs", read_only=True),
    Operation("watches.pause", WatchIdArgs, _pause, "Pause a watch"),
    Operation("watches.resume", WatchIdArgs, _resume, "Resume a watch"),
    Operation("watches.delete", WatchIdArgs, _delete, "Delete a watch"),
]
