"""A task's purse: what it may still spend at Exa, and whether it must send nothing more.

The runtime gives each running task a `Purse` and sets it in the task's request context
(gateway/context.py) in the task's asyncio task (children inherit it), as it does the lease fence.
The gateway meters each paid request by it (`accounts.PurseAccount`); right before each is sent:
- refuses it unsent once the task met a 402 (`CreditsExhausted`: the account is out of credits; any
  request after it would fail the same way) or reached its budget (`BudgetReached`);
- with a budget (`tasks.create`'s `budgetUsd`), reserves the request's worst case
  (`gateway/prices.py`) and refuses it when what was spent plus what is reserved plus that worst
  case would pass the budget; the answer settles the reservation with what Exa billed.
Websets answers carry no cost: their estimates (`ledger.webset_estimates`) accrue as the task's
reads show items found and cells filled, and once the next would pass the budget the purse stops.
The actor reads `stopped` when the workflow ends: a 402 fails the task with it, a reached budget
completes the task with its partial result and `stoppedBy: "budget"`.
"""

from __future__ import annotations

from collections.abc import Callable

from exa_orch.errors import ErrorCode, OrchError


class BudgetReached(OrchError):
    """Internal: the task's next paid request could pass its budget; the request was not sent and
    the task stops (completed, partial, stoppedBy budget)."""

    code = ErrorCode.BUDGET_EXCEEDED

    def __init__(self, task_id: str, budget: float, spent: float, worst: float, what: str) -> None:
        super().__init__(
            f"task {task_id!r} stopped at its budget: ${spent:.4f} of ${budget:.4f} spent, and {what} "
            f"could cost up to ${worst:.4f} more, so it was not sent",
            hint="Start the task again with a larger budgetUsd to go further.",
        )
        self.budget = budget
        self.spent = spent


SEARCH_WORK = ("webset_item:", "webset_analyzed:")
"""The estimate keys of what one search did (`<kind>:<search id>:<n>`): they draw from its hold."""


class Purse:
    """One task's spending state (see the module doc). `spent` starts at what the ledger holds for
    the task (a resumed task), and grows by each answer's billed cost."""

    __slots__ = (
        "task_id",
        "budget",
        "spent",
        "reserved",
        "stopped",
        "runs",
        "estimated",
        "on_stop",
        "searches",
        "paid_steps",
        "counted_runs",
    )

    def __init__(
        self, task_id: str, budget: float | None = None, spent: float = 0.0, estimated: set[str] | None = None
    ) -> None:
        self.task_id = task_id
        self.budget = budget
        self.spent = spent
        self.reserved = 0.0
        # The first reason to send nothing more: a CreditsExhausted (402) or a BudgetReached.
        self.stopped: OrchError | None = None
        self.runs: dict[str, float] = {}  # agent runs made, by id: the worst case counted for each
        # Keys of the Websets estimates counted in `spent` (the ledger's, for a resumed task).
        self.estimated: set[str] = set() if estimated is None else estimated
        # Called when an estimate stops the purse between requests (the actor interrupts the workflow).
        self.on_stop: Callable[[], None] | None = None
        # Webset searches started, by id: what of the estimate counted for each at its create (its
        # count filled, in `spent` already, as an agent run's worst case) is still to be found.
        self.searches: dict[str, float] = {}
        # Steps an earlier run of the task paid in (the ledger's): a request made in one again is a
        # re-send, billed again (its row is marked `resend`).
        self.paid_steps: set[str] = set()
        # Agent runs whose final cost is in `spent` (`agent_run:<id>`; the ledger's, for a resumed task).
        self.counted_runs: set[str] = set()

    def reserve(self, worst: float, what: str) -> float:
        """Hold `worst` dollars for a request about to be sent; raise (and stop) if it can't be."""
        if self.stopped is not None:
            raise self.stopped
        if self.budget is not None and self.spent + self.reserved + worst > self.budget + 1e-9:
            self.stopped = BudgetReached(self.task_id, self.budget, self.spent + self.reserved, worst, what)
            raise self.stopped
        self.reserved += worst
        return worst

    def settle(self, held: float, billed: float | None) -> None:
        """Release a reservation; count what was billed (None: nothing known, count the worst case)."""
        self.reserved = max(0.0, self.reserved - held)
        self.spent += held if billed is None else billed

    def accrue(self, key: str, usd: float, next_usd: float) -> None:
        """Count a Websets estimate once per key: out of what its search's create counted (a cell:
        any search's), else on top. With a budget, stop when growth no search's count covers
        (`next_usd` more) would pass it: the task's next request is refused, its websets cancelled."""
        if key in self.estimated:
            return
        self.estimated.add(key)
        search = key.split(":")[1] if key.startswith(SEARCH_WORK) else None
        cell = key.startswith("webset_cell:")  # any running search's count held its cells
        held = [search] if search in self.searches else list(self.searches) if cell else []
        for sid in held:
            if self.searches[sid] >= usd - 1e-9:
                self.searches[sid] = max(0.0, self.searches[sid] - usd)
                break
        else:
            self.spent += usd
        covered = any(left >= next_usd - 1e-9 for left in self.searches.values())
        if (
            self.budget is not None
            and self.stopped is None
            and not covered
            and self.spent + self.reserved + next_usd > self.budget + 1e-9
        ):
            what = "the websets it started, still finding items,"
            self.stopped = BudgetReached(
                self.task_id, self.budget, self.spent + self.reserved, next_usd, what
            )
            if self.on_stop is not None:
                self.on_stop()

    def hold_run(self, run_id: str, worst: float, exact: bool = False) -> None:
        """Hold an agent run's worst case until its final state says what it cost, unless it is
        counted already (a resumed task's runs, from its checkpoints or a read of the run). `exact`:
        the worst case read off the run itself (the request it echoes), replacing one held from a
        checkpoint that names only its model."""
        if f"agent_run:{run_id}" in self.counted_runs or (run_id in self.runs and not exact):
            return
        self.spent += worst - self.runs.get(run_id, 0.0)
        self.runs[run_id] = worst

    def run_finished(self, run_id: str, billed: float) -> None:
        """An agent run's final cost: it replaces the worst case held (counted once per run)."""
        key = f"agent_run:{run_id}"
        held = self.runs.pop(run_id, None)
        if held is not None:
            self.spent += billed - held
        elif key not in self.counted_runs:
            self.spent += billed  # a run this purse never held (made before a restart)
        self.counted_runs.add(key)

    def hold_search(self, search_id: str, left: float) -> None:
        """Hold what a running webset search (made before a restart) may still find, as its create
        held it, unless held already."""
        if search_id in self.searches:
            return
        self.searches[search_id] = left
        self.spent += left

    def search_started(self, search_id: str, counted: float) -> None:
        """A webset search created with `counted` (its worst case, now in `spent`) to draw from."""
        self.searches[search_id] = counted

    def search_finished(self, search_id: str) -> None:
        """A search completed or was cancelled: what it did not find is no longer counted."""
        left = self.searches.pop(search_id, 0.0)
        self.spent = max(0.0, self.spent - left)

    def stop(self, error: OrchError) -> None:
        """Send nothing more for this task (the first reason is kept)."""
        if self.stopped is None:
            self.stopped = error

    @property
    def remaining(self) -> float | None:
        """Dollars left before the budget (None: no budget)."""
        return None if self.budget is None else max(0.0, self.budget - self.spent - self.reserved)
