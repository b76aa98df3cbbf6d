-- 0009_run_cost (PostgreSQL): as ../0009_run_cost.sql.
ALTER TABLE workflow_runs ADD COLUMN cost_usd DOUBLE PRECISION;
