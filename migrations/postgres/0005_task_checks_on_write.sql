-- 0005_json_checked_on_write: a task's JSON columns are checked when they are written, not on
-- every update of the row.
-- PostgreSQL evaluates every CHECK constraint of a row on every UPDATE, whichever columns it sets.
-- Saving a step bumps tasks.step_count, so each checkpoint parsed the task's args, progress,
-- partial result, result, error and meta again: a cost that grew with the size of the partial
-- result, paid on every step, progress report and lease renewal. A domain's check runs only when
-- a value is assigned to the column, so a step now parses only its own result.
CREATE DOMAIN json_text AS TEXT CHECK (VALUE IS NULL OR VALUE::json IS NOT NULL);

DROP VIEW v_tasks;

ALTER TABLE tasks
    DROP CONSTRAINT tasks_args_check,
    DROP CONSTRAINT tasks_progress_check,
    DROP CONSTRAINT tasks_partial_result_check,
    DROP CONSTRAINT tasks_result_check,
    DROP CONSTRAINT tasks_error_check,
    DROP CONSTRAINT tasks_meta_check,
    ALTER COLUMN args TYPE json_text,
    ALTER COLUMN progress TYPE json_text,
    ALTER COLUMN partial_result TYPE json_text,
    ALTER COLUMN result TYPE json_text,
    ALTER COLUMN error TYPE json_text,
    ALTER COLUMN meta TYPE json_text;

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
