-- 0013_lean_ledger: a ledger row costs a checkpoint less (bench/ledger.py, data-design/prices.md).
-- `key` was UNIQUE for every row: an index on random request ids, one more random page in every
-- group commit's WAL for each row. Only two kinds of row can be written twice and must count once:
-- an agent run (read again after it finished) and an estimate (a webset read again, before or after
-- a restart); a search, contents or answer row is written once, when its answer arrives. So the
-- uniqueness is kept for those alone, by a partial unique index. SQLite can't drop a column's UNIQUE,
-- so the table is rebuilt (nothing refers to it; its views are dropped and made again as in 0008).
DROP VIEW v_costs;
DROP VIEW v_tasks;

CREATE TABLE costs_lean (
    id         INTEGER PRIMARY KEY,
    key        TEXT NOT NULL,
    task_id    TEXT,
    step_key   TEXT,
    principal  TEXT,
    operation  TEXT NOT NULL,
    usd        REAL NOT NULL CHECK (usd >= 0),
    billed     INTEGER NOT NULL CHECK (billed IN (0, 1)),
    resend     INTEGER NOT NULL DEFAULT 0 CHECK (resend IN (0, 1)),
    attempt    TEXT,
    at         TEXT NOT NULL
);
INSERT INTO costs_lean (id, key, task_id, step_key, principal, operation, usd, billed, resend, attempt, at)
SELECT id, key, task_id, step_key, principal, operation, usd, billed, resend, attempt, at FROM costs;
DROP TABLE costs;
ALTER TABLE costs_lean RENAME TO costs;

CREATE UNIQUE INDEX costs_once ON costs (key) WHERE operation = 'agent.run' OR billed = 0;
CREATE INDEX costs_by_task ON costs (task_id, step_key);
CREATE INDEX costs_by_principal ON costs (principal, at);

CREATE VIEW v_costs AS
SELECT task_id, principal, operation, usd, billed, at, step_key, resend, key
FROM costs
ORDER BY at, id;

CREATE VIEW v_tasks AS
SELECT
    id,
    type,
    status,
    owner,
    CASE WHEN progress IS NULL THEN NULL ELSE
        trim(coalesce(p_step, '') || ' '
             || coalesce(CASE WHEN p_done = CAST(p_done AS INTEGER) THEN CAST(CAST(p_done AS INTEGER) AS TEXT)
                              ELSE CAST(p_done AS TEXT) END, '?') || '/'
             || coalesce(CASE WHEN p_total = CAST(p_total AS INTEGER) THEN CAST(CAST(p_total AS INTEGER) AS TEXT)
                              ELSE CAST(p_total AS TEXT) END, '?')
             || coalesce(': ' || p_message, ''))
    END AS progress,
    step_count AS steps,
    coalesce((SELECT round(sum(c.usd), 6) FROM costs c WHERE c.task_id = t.id), 0) AS cost_usd,
    created_at,
    updated_at,
    expires_at,
    lease_owner,
    cancel_requested,
    json_extract(error, '$.message') AS error_message
FROM (
    SELECT
        *,
        json_extract(progress, '$.step') AS p_step,
        json_extract(progress, '$.completed') AS p_done,
        json_extract(progress, '$.total') AS p_total,
        json_extract(progress, '$.message') AS p_message,
        rowid AS seq
    FROM tasks
) AS t
ORDER BY created_at, seq;
