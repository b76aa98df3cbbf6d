-- 0019_task_heads (PostgreSQL): as ../0019_task_heads.sql, what every checkpoint and every ledger
-- row updates lives on a narrow row of its own, one per task. A checkpoint (store/tasks.py
-- SAVE_STEP_PG) now updates that row, not the task's wide one: its UPDATE locks it and checks
-- `fence` there, the copy of tasks.lease_owner that a claim's or a release's UPDATE of tasks
-- writes (by trigger) in its own transaction, so a lease taken over meanwhile is seen at the
-- re-check of the locked row, as before. Writers that change both rows lock the narrow row first
-- (store/records.py TASK_ROW's join order, leases.py), so a checkpoint never deadlocks with them.
-- A task's deletion deletes its narrow row by the foreign key, whose check runs only when the row
-- is made (with its task), never at a checkpoint.
DROP VIEW v_tasks;
DROP TRIGGER costs_counted ON costs;
DROP FUNCTION costs_counted();

CREATE TABLE task_heads (
    task_id          TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    fence            TEXT,
    step_count       INTEGER NOT NULL DEFAULT 0,
    last_step_key    TEXT,
    stepped_at       TEXT,
    cost_usd         DOUBLE PRECISION NOT NULL DEFAULT 0,
    cost_billed_usd  DOUBLE PRECISION NOT NULL DEFAULT 0
);

INSERT INTO task_heads (task_id, fence, step_count, last_step_key, stepped_at, cost_usd, cost_billed_usd)
SELECT id, lease_owner, step_count, last_step_key, NULL, cost_usd, cost_billed_usd FROM tasks;

ALTER TABLE tasks DROP COLUMN step_count,
                  DROP COLUMN last_step_key,
                  DROP COLUMN cost_usd,
                  DROP COLUMN cost_billed_usd;

CREATE FUNCTION tasks_headed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO task_heads (task_id, fence) VALUES (NEW.id, NEW.lease_owner);
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_headed AFTER INSERT ON tasks
FOR EACH ROW EXECUTE FUNCTION tasks_headed();

CREATE FUNCTION tasks_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE task_heads SET fence = NEW.lease_owner WHERE task_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_fenced AFTER UPDATE OF lease_owner ON tasks
FOR EACH ROW WHEN (OLD.lease_owner IS DISTINCT FROM NEW.lease_owner)
EXECUTE FUNCTION tasks_fenced();

CREATE FUNCTION costs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE task_heads SET cost_usd = cost_usd + NEW.usd, cost_billed_usd = cost_billed_usd + NEW.usd * NEW.billed
    WHERE task_id = NEW.task_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER costs_counted AFTER INSERT ON costs
FOR EACH ROW WHEN (NEW.task_id IS NOT NULL)
EXECUTE FUNCTION costs_counted();

-- As in 0015, the counters read off the task's narrow row (the same columns).
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
    round(t.cost_usd::numeric, 6)::double precision AS cost_usd,
    created_at,
    updated_at,
    expires_at,
    lease_owner,
    cancel_requested,
    error::json ->> 'message' AS error_message
FROM (
    SELECT
        t.id, t.type, t.status, t.owner, t.progress, t.created_at,
        CASE WHEN h.stepped_at > t.updated_at THEN h.stepped_at ELSE t.updated_at END AS updated_at,
        t.expires_at, t.lease_owner, t.cancel_requested, t.error, h.step_count, h.cost_usd, t.rowid,
        t.progress::json AS p
    FROM tasks t JOIN task_heads h ON h.task_id = t.id
) AS t
ORDER BY created_at, rowid;
