-- 0003_task_owner: who owns a task, and what an expired task leaves behind.
-- tasks.owner names the principal that created the task ('user:<login>' on stdio,
-- 'token:<name>' for a named HTTP bearer token); only that principal sees the task. It is a name,
-- never a token. Tasks created before this migration keep NULL: only the local user sees them.
-- task_tombstones keeps, for a while, the id of each finished task removed after its TTL, so that
-- its owner is told TASK_EXPIRED rather than TASK_NOT_FOUND.

ALTER TABLE tasks ADD COLUMN owner TEXT;

CREATE INDEX tasks_by_owner ON tasks (owner, created_at);

CREATE TABLE task_tombstones (
    id          TEXT PRIMARY KEY,
    owner       TEXT,
    type        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('completed', 'failed', 'cancelled')),
    expired_at  TEXT NOT NULL,
    forget_at   TEXT NOT NULL
);

CREATE INDEX task_tombstones_by_forget ON task_tombstones (forget_at);

DROP VIEW v_tasks;

-- As in 0001, with the owner after the status.
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
)
ORDER BY created_at, seq;
