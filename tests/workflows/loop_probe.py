"""A spy on entity resolution that asks, while each call runs, whether the event loop still runs
other callbacks: resolution on the loop holds it (the lease renewals wait), in a worker thread not."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from exa_orch.workflows import entities
from tests.support import WAIT


class LoopProbe:
    """`LoopProbe.install(monkeypatch)`, from a coroutine on the app's event loop, spies on
    `entities.resolve`; `answers` holds one bool per call since: True when the loop ran a callback
    scheduled once the call began, before the call resolved anything."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.answers: list[bool] = []

    @classmethod
    def install(cls, monkeypatch: pytest.MonkeyPatch) -> LoopProbe:
        probe = cls(asyncio.get_running_loop())
        resolve = entities.resolve

        def spied(items: Any) -> entities.Resolution:
            probe.answers.append(probe.loop_answers())
            return resolve(items)

        monkeypatch.setattr(entities, "resolve", spied)
        return probe

    def loop_answers(self) -> bool:
        """Whether the loop runs a callback scheduled now, within WAIT. It cannot while this call
        runs on the loop's own thread: then the wait lasts its whole bound, and answers False."""
        if not all(self.answers):
            return False  # one call held the loop already: a failing test waits out WAIT once
        ran = threading.Event()
        self.loop.call_soon_threadsafe(ran.set)
        return ran.wait(WAIT)
