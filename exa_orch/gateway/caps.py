"""Per-principal daily caps: a paid call that could take a principal past its cap for the UTC day
is refused unsent with BUDGET_EXCEEDED, naming what was spent.

`EXA_ORCH_DAILY_BUDGET_USD` caps every principal; `EXA_ORCH_DAILY_BUDGETS="alice=25,bob=5"` sets
caps one by one (a name matches the principal written in full, `token:alice`, or after its kind,
`alice` for `user:alice` and `token:alice`). The day's spend starts from the ledger (the store, on
the first paid call of the day for that principal in this process), grows by what each answer
billed, and holds each request's worst case while it is under way: an agent run's until its final
state says what it cost (a run made before a restart is held again when it is seen running, in a
resumed task's checkpoints or a read of it), counted once per run; a webset search's count estimate
until it finishes, each item found drawing from it.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from exa_orch.errors import BudgetExceeded

# (principal, ISO start of the UTC day) -> (dollars, keys of the rows a read may report again)
SpentSince = Callable[[str, str], Awaitable[tuple[float, frozenset[str]]]]


def _today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


class DailyCaps:
    def __init__(self, default: float | None, caps: dict[str, float], spent_since: SpentSince | None) -> None:
        self.default = default
        self.caps = caps
        self.spent_since = spent_since
        self._spent: dict[tuple[str, str], float] = {}
        self._held: dict[tuple[str, str], float] = {}
        self._runs: dict[str, tuple[tuple[str, str], float]] = {}  # agent runs under way: held where
        self._counted: set[str] = set()  # agent runs whose final cost was counted (this process)
        self._searches: dict[str, tuple[tuple[str, str], float]] = {}  # webset searches running: left
        self._ended: set[str] = set()  # webset searches seen finished (this process)
        # Ledger keys the day's seed counted (runs' final costs, estimated items): a read after a
        # restart reports them again, and they are in the seed already.
        self._seeded: dict[tuple[str, str], frozenset[str]] = {}

    def cap_for(self, principal: str | None) -> float | None:
        if principal is not None:
            if principal in self.caps:
                return self.caps[principal]
            bare = principal.partition(":")[2]
            if bare in self.caps:
                return self.caps[bare]
        return self.default

    async def reserve(self, principal: str | None, worst: float) -> tuple[str, str, float] | None:
        """Hold `worst` for `principal` today; BudgetExceeded if it could pass the cap."""
        cap = self.cap_for(principal)
        if cap is None or worst <= 0:
            return None
        who = principal or ""
        key = (who, _today())
        if key not in self._spent:
            seeded, keys = (
                await self.spent_since(who, key[1] + "T00:00:00.000Z")
                if self.spent_since
                else (0.0, frozenset())
            )
            if key not in self._spent:  # another call seeded it meanwhile
                self._spent[key], self._seeded[key] = seeded, keys
        spent, held = self._spent[key], self._held.get(key, 0.0)
        if spent + held + worst > cap + 1e-9:
            raise BudgetExceeded(principal, spent, cap, worst)
        self._held[key] = held + worst
        return (who, key[1], worst)

    def release(self, token: tuple[str, str, float] | None) -> None:
        if token is not None:
            key = (token[0], token[1])
            self._held[key] = max(0.0, self._held.get(key, 0.0) - token[2])

    def seeded(self, principal: str | None, ledger_key: str) -> bool:
        """Whether today's spend, read from the ledger, holds the row `ledger_key` already (a
        finished run or an item read again after a restart: not to be counted twice)."""
        return ledger_key in self._seeded.get((principal or "", _today()), frozenset())

    def add(self, principal: str | None, usd: float) -> None:
        """Count what an answer billed (to the day it arrived)."""
        if self.cap_for(principal) is None:
            return
        key = (principal or "", _today())
        if key in self._spent:
            self._spent[key] += usd

    def hold_run(self, principal: str | None, run_id: str, worst: float) -> None:
        """Hold an agent run's worst case until it finishes (`run_finished`); once per run. Never
        refused: the run is under way already (its create was checked)."""
        if self.cap_for(principal) is None or worst <= 0 or run_id in self._runs or run_id in self._counted:
            return
        key = (principal or "", _today())
        self._held[key] = self._held.get(key, 0.0) + worst
        self._runs[run_id] = (key, worst)

    def run_finished(self, principal: str | None, run_id: str, usd: float) -> None:
        """An agent run's final cost replaces its hold (a second read of it adds nothing)."""
        if run_id in self._counted:
            return
        self._counted.add(run_id)
        held = self._runs.pop(run_id, None)
        if held is not None:
            self._held[held[0]] = max(0.0, self._held.get(held[0], 0.0) - held[1])
        self.add(principal, usd)

    def hold_search(self, principal: str | None, search_id: str, amount: float) -> None:
        """Hold what a running webset search may still find (its count's estimate) until it ends."""
        if (
            self.cap_for(principal) is None
            or amount <= 0
            or search_id in self._searches
            or search_id in self._ended
        ):
            return
        key = (principal or "", _today())
        self._held[key] = self._held.get(key, 0.0) + amount
        self._searches[search_id] = (key, amount)

    def item_found(self, search_id: str, usd: float) -> None:
        """An item a held search found: its estimate moves from the hold to what was spent (`add`)."""
        held = self._searches.get(search_id)
        if held is not None:
            take = min(held[1], usd)
            self._held[held[0]] = max(0.0, self._held.get(held[0], 0.0) - take)
            self._searches[search_id] = (held[0], held[1] - take)

    def search_finished(self, search_id: str) -> None:
        """A search ended: what it did not find is no longer held."""
        self._ended.add(search_id)
        held = self._searches.pop(search_id, None)
        if held is not None:
            self._held[held[0]] = max(0.0, self._held.get(held[0], 0.0) - held[1])

    @property
    def holds_searches(self) -> bool:
        return bool(self._searches)
