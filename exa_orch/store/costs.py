"""The cost ledger's rows (data-design/prices.md): one write per paid Exa answer, and the reads.

The write is one statement (a `SqlOp`), so the group-commit writer batches it with checkpoints
and other ledger rows. `key` is unique: a second write of the same request or agent run changes
nothing (an agent run is read many times once it has finished).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exa_orch.store.writer import SqlOp

_RESEND = "CASE WHEN CAST(?2 AS TEXT) IS NOT NULL AND EXISTS (SELECT 1 FROM costs WHERE task_id = ?2 AND {same_step} AND attempt <> ?8) THEN 1 ELSE 0 END"
_INSERT = (
    "INSERT INTO costs (key, task_id, step_key, principal, operation, usd, billed, resend, attempt, at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, {resend}, ?8, ?9) ON CONFLICT (key) DO NOTHING"
)
INSERT_SQLITE = _INSERT.format(resend=_RESEND.format(same_step="step_key IS ?3"))
INSERT_PG = _INSERT.format(resend=_RESEND.format(same_step="step_key IS NOT DISTINCT FROM CAST(?3 AS TEXT)"))

TOTALS_IN = (
    "SELECT task_id, sum(usd), sum(CASE WHEN billed = 1 THEN usd ELSE 0 END), "
    "sum(CASE WHEN billed = 0 THEN usd ELSE 0 END) FROM costs WHERE task_id IN "
)  # + placeholders(n) + " GROUP BY task_id"
SPENT_SINCE = "SELECT coalesce(sum(usd), 0) FROM costs WHERE principal = ? AND at >= ?"
DAILY = (
    "SELECT substr(at, 1, 10) AS day, sum(usd), count(*) FROM costs "
    "WHERE (CAST(? AS TEXT) IS NULL OR principal = ?) GROUP BY substr(at, 1, 10) ORDER BY day DESC"
)


@dataclass(frozen=True, slots=True)
class CostRow:
    """One paid answer (see the `costs` table)."""

    key: str
    operation: str
    usd: float
    billed: bool
    task_id: str | None = None
    step_key: str | None = None
    principal: str | None = None
    attempt: str | None = None


def insert(row: CostRow, at: str, *, sql: str = INSERT_SQLITE) -> SqlOp:
    """The write of one row (nothing if its key is recorded already); `sql`: the backend's form of
    the insert (its dialect's `record_cost`: INSERT_SQLITE or INSERT_PG)."""
    return SqlOp(
        sql,
        (
            row.key,
            row.task_id,
            row.step_key,
            row.principal,
            row.operation,
            float(row.usd),
            int(row.billed),
            row.attempt,
            at,
        ),
    )


def cost_dict(total: float, billed: float, estimated: float) -> dict[str, float]:
    """`{usd, billed, estimated}` as tasks.get shows it, in dollars rounded to a millionth."""
    return {"usd": round(total, 6), "billed": round(billed, 6), "estimated": round(estimated, 6)}


ZERO: dict[str, float] = cost_dict(0.0, 0.0, 0.0)


def totals_from_rows(rows: Sequence[Sequence[object]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for task_id, total, billed, estimated in rows:
        out[str(task_id)] = cost_dict(float(total or 0), float(billed or 0), float(estimated or 0))  # type: ignore[arg-type]
    return out
