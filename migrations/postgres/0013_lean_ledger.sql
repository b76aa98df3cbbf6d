-- 0013_lean_ledger (PostgreSQL): as ../0013_lean_ledger.sql: `key` unique only for the rows that
-- can be written twice (agent runs, estimates), by a partial unique index.
ALTER TABLE costs DROP CONSTRAINT costs_key_key;
CREATE UNIQUE INDEX costs_once ON costs (key) WHERE operation = 'agent.run' OR billed = 0;
