-- 0005_task_checks_on_write: a task's checks run when the columns they check are written, not at
-- every update of the row.
-- PostgreSQL evaluates every CHECK constraint of a row at every UPDATE, whichever columns it sets,
-- and compiles them again for each statement. Saving a step bumps tasks.step_count, so each
-- checkpoint parsed the task's args, progress, partial result, result, error and meta again (a
-- cost that grew with the size of the partial result) and evaluated the status, expiry, flag and
-- id checks, none of which it can change: about 60% of a checkpoint's server time on a small task.
-- - The JSON columns take a domain: its check runs only when a value is assigned to the column.
-- - The other checks move to a BEFORE trigger that fires only when an INSERT or an UPDATE sets
--   one of the columns they read, and fails with the same SQLSTATE (23514, check_violation).
-- SQLite already skips a CHECK whose columns an UPDATE leaves alone; its 0005 changes nothing.
CREATE DOMAIN json_text AS TEXT CHECK (VALUE IS NULL OR VALUE::json IS NOT NULL);

CREATE FUNCTION tasks_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id NOT LIKE 'task\_%' ESCAPE '\' THEN
        RAISE EXCEPTION 'tasks.id must start with task_: %', NEW.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.status IS NULL OR NEW.status NOT IN ('pending', 'working', 'completed', 'failed', 'cancelled') THEN
        RAISE EXCEPTION 'tasks.status % is not a task status', NEW.status USING ERRCODE = 'check_violation';
    END IF;
    IF (NEW.status IN ('completed', 'failed', 'cancelled')) <> (NEW.expires_at IS NOT NULL) THEN
        RAISE EXCEPTION 'task %: a finished task has expires_at, an unfinished one has none', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.cancel_requested NOT IN (0, 1) THEN
        RAISE EXCEPTION 'tasks.cancel_requested is 0 or 1, not %', NEW.cancel_requested USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.ttl_ms < 0 THEN
        RAISE EXCEPTION 'tasks.ttl_ms must not be negative: %', NEW.ttl_ms USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

DROP VIEW v_tasks;

ALTER TABLE tasks
    DROP CONSTRAINT tasks_args_check,
    DROP CONSTRAINT tasks_progress_check,
    DROP CONSTRAINT tasks_partial_result_check,
    DROP CONSTRAINT tasks_result_check,
    DROP CONSTRAINT tasks_error_check,
    DROP CONSTRAINT tasks_meta_check,
    DROP CONSTRAINT tasks_id_check,
    DROP CONSTRAINT tasks_status_check,
    DROP CONSTRAINT tasks_check,
    DROP CONSTRAINT tasks_cancel_requested_check,
    DROP CONSTRAINT tasks_ttl_ms_check,
    ALTER COLUMN args TYPE json_text,
    ALTER COLUMN progress TYPE json_text,
    ALTER COLUMN partial_result TYPE json_text,
    ALTER COLUMN result TYPE json_text,
    ALTER COLUMN error TYPE json_text,
    ALTER COLUMN meta TYPE json_text;

CREATE TRIGGER tasks_checked BEFORE INSERT OR UPDATE OF id, status, expires_at, cancel_requested, ttl_ms
ON tasks FOR EACH ROW EXECUTE FUNCTION tasks_checked();

-- As in 0003.
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
