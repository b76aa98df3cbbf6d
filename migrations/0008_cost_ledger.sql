-- 0008_cost_ledger: what each request to Exa cost, and each task's total.
-- One row per paid Exa object: a search, contents or answer request (keyed by Exa's requestId), an
-- agent run (keyed 'agent_run:<id>', written once from its final state). `billed` = 1 when Exa said
-- the figure (costDollars), 0 when exa-orch estimated it from data-design/prices.md (Websets).
-- `resend` = 1 when an earlier run of the same task (another `attempt`: a process that ran it and
-- died) already paid for the same step: Exa bills a re-sent request again, so it is counted again.
-- No foreign key to tasks: money spent stays spent after a task expires (daily totals, caps).
CREATE TABLE costs (
    id         INTEGER PRIMARY KEY,
    key        TEXT NOT NULL UNIQUE,
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

CREATE INDEX costs_by_task ON costs (task_id, step_key);
CREATE INDEX costs_by_principal ON costs (principal, at);

CREATE VIEW v_costs AS
SELECT task_id, principal, operation, usd, billed, at, step_key, resend, key
FROM costs
ORDER BY at, id;

DROP VIEW v_tasks;

-- As in 0003, with the task's cost (what its requests to Exa cost so far) after the steps.
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
