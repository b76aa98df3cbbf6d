-- 0014_run_engine (PostgreSQL): as ../0014_run_engine.sql.
ALTER TABLE workflow_runs ADD COLUMN engine TEXT;
ALTER TABLE workflow_runs ADD COLUMN exa_runs INTEGER;
