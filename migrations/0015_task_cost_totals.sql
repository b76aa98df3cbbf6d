-- 0015_task_cost_totals: each task's cost is kept on its row, not found through a per-task index.
-- A ledger row used to add a page of `costs_by_task` (one per task per group commit, at a random
-- place) to every commit; now it adds to its task's `cost_usd` and `cost_billed_usd`, on the row the
-- step's checkpoint writes in the same transaction anyway (bench/ledger.py, data-design/prices.md).
-- The trigger runs only for a row actually inserted (a second write of an agent run or an estimate
-- inserts nothing). The rows of one task are found, when a resumed task needs them, through
-- `costs_by_principal` from the task's creation on.
ALTER TABLE tasks ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN cost_billed_usd REAL NOT NULL DEFAULT 0;

UPDATE tasks SET
    cost_usd = coalesce((SELECT sum(c.usd) FROM costs c WHERE c.task_id = tasks.id), 0),
    cost_billed_usd = coalesce((SELECT sum(c.usd) FROM costs c WHERE c.task_id = tasks.id AND c.billed = 1), 0);

CREATE TRIGGER costs_counted AFTER INSERT ON costs WHEN NEW.task_id IS NOT NULL
BEGIN
    UPDATE tasks SET cost_usd = cost_usd + NEW.usd, cost_billed_usd = cost_billed_usd + NEW.usd * NEW.billed
    WHERE id = NEW.task_id;
END;

DROP INDEX costs_by_task;

DROP VIEW v_tasks;

-- As in 0008, the cost read off the task's row.
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
    round(t.cost_usd, 6) AS cost_usd,
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
