-- 0014_run_engine: which engine each archived run used (websets | agent) and how many Exa objects
-- (websets or agent runs) it made, so one query compares engines: elites per dollar per archetype,
-- e.g. SELECT engine, sum(elite_count) / sum(cost_usd) FROM workflow_runs GROUP BY engine.
-- (coverage is 0002's column.) NULL for runs filed before this migration.
ALTER TABLE workflow_runs ADD COLUMN engine TEXT;
ALTER TABLE workflow_runs ADD COLUMN exa_runs INTEGER;
