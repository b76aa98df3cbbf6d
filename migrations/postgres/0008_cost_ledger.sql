-- 0008_cost_ledger (PostgreSQL): the same ledger as ../0008_cost_ledger.sql (read it for what
-- each column means).
CREATE TABLE costs (
    id         BIGSERIAL PRIMARY KEY,
    key        TEXT NOT NULL UNIQUE,
    task_id    TEXT,
    step_key   TEXT,
    principal  TEXT,
    operation  TEXT NOT NULL,
    usd        DOUBLE PRECISION NOT NULL CHECK (usd >= 0),
    billed     INTEGER NOT NULL CHECK (billed IN (0, 1)),
    resend     INTEGER NOT NULL DEFAULT 0 CHECK (resend IN (0, 1)),
    attempt    TEXT,
    at         TEXT NOT NULL
);

CREATE INDEX costs_by_task ON costs (task_id, step_key);
CREATE INDEX costs_by_principal ON costs (principal, at);

CREATE VIEW v_costs AS
SELECT task_id, principal, operation, usd, billed, at, step_key, resend, key
FROM costs
ORDER BY at, id;

DROP VIEW v_tasks;

-- As in 0005, with the task's cost after the steps.
CREATE VIEW v_tasks AS
SELECT
    id,
    type,
    status,
    owner,
    CASE WHEN progress IS NULL THEN NULL ELSE
        trim(coalesce(p ->> 'step', '') || ' '
             || coalesce(v_tasks_count(p -> 'completed'), '?') || '/'
             || coalesce(v_tasks_count(p -> 'total'), '?')
             || coalesce(': ' || (p ->> 'message'), ''))
    END AS progress,
    step_count AS steps,
    coalesce((SELECT round(sum(c.usd)::numeric, 6)::double precision FROM costs c WHERE c.task_id = t.id), 0)
        AS cost_usd,
    created_at,
    updated_at,
    expires_at,
    lease_owner,
    cancel_requested,
    error::json ->> 'message' AS error_message
FROM (SELECT *, progress::json AS p FROM tasks) AS t
ORDER BY created_at, rowid;
