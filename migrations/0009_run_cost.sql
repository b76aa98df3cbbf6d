-- 0009_run_cost: what each archived run cost at Exa, so the archive can rank cells by cost per elite.
-- Filed with the run, in the same transaction as its task's terminal transition: the sum of the
-- task's `costs` rows (data-design/prices.md). NULL for runs filed before this migration.
ALTER TABLE workflow_runs ADD COLUMN cost_usd REAL;
