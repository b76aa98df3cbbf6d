-- 0003_task_owner (PostgreSQL; the same as ../0003_task_owner.sql): who owns a task, and what an expired task leaves behind.
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
        trim(coalesce(p ->> 'step', '') || ' '
             || coalesce(v_tasks_count(p -> 'completed'), '?') || '/'
             || coalesce(v_tasks_count(p -> 'total'), '?')
             || coalesce(': ' || (p ->> 'message'), ''))
    END AS progress,
    step_count AS steps,
    created_at,
    updated_at,
    expires_at,
    lease_owner,
    cancel_requested,
    error::json ->> 'message' AS error_message
FROM (SELECT *, progress::json AS p FROM tasks) AS t
ORDER BY created_at, rowid;
