-- 0015_task_cost_totals (PostgreSQL): as ../0015_task_cost_totals.sql.
ALTER TABLE tasks ADD COLUMN cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
                  ADD COLUMN cost_billed_usd DOUBLE PRECISION NOT NULL DEFAULT 0;

UPDATE tasks SET
    cost_usd = coalesce((SELECT sum(c.usd) FROM costs c WHERE c.task_id = tasks.id), 0),
    cost_billed_usd = coalesce((SELECT sum(c.usd) FROM costs c WHERE c.task_id = tasks.id AND c.billed = 1), 0);

CREATE FUNCTION costs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tasks SET cost_usd = cost_usd + NEW.usd, cost_billed_usd = cost_billed_usd + NEW.usd * NEW.billed
    WHERE id = NEW.task_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER costs_counted AFTER INSERT ON costs
FOR EACH ROW WHEN (NEW.task_id IS NOT NULL)
EXECUTE FUNCTION costs_counted();

DROP INDEX costs_by_task;

-- As in 0008, the cost read off the task's row (the same columns).
CREATE OR REPLACE VIEW v_tasks AS
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
FROM (SELECT *, progress::json AS p FROM tasks) AS t
ORDER BY created_at, rowid;
