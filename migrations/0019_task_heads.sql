-- 0019_task_heads: what every checkpoint and every ledger row updates lives on a narrow row of its
-- own, one per task, not on the wide `tasks` row (args, progress, partial and final results, meta).
-- Each step's counter (0001's triggers) and each ledger row's totals (0015's trigger) rewrote that
-- whole row: ~2.8 us of a checkpoint's ~18 us of writer CPU, 2.5x a thin task's checkpoint for a
-- task with a 1.2 MB partial result (bench/store.py, bench/ledger.py).
-- task_heads holds, per task: step_count and last_step_key (tasks.step_count = the highest
-- task_steps.seq, as before), stepped_at (the last step's saved_at: a task's updated_at is the later
-- of tasks.updated_at and this), cost_usd and cost_billed_usd (0015's totals), and `fence`, a copy
-- of tasks.lease_owner kept by a trigger, which a checkpoint checks instead of the wide row (a
-- stale lease owner still can't write). A trigger makes the row with its task; the foreign key
-- deletes it with its task. v_tasks reads the same columns as before, from both rows.
-- Readers of the task (store/records.py TASK_ROW) join the two rows.
DROP VIEW v_tasks;
DROP TRIGGER task_steps_counted_on_insert;
DROP TRIGGER task_steps_counted_on_update;
DROP TRIGGER costs_counted;

CREATE TABLE task_heads (
    task_id          TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    fence            TEXT,
    step_count       INTEGER NOT NULL DEFAULT 0,
    last_step_key    TEXT,
    stepped_at       TEXT,
    cost_usd         REAL NOT NULL DEFAULT 0,
    cost_billed_usd  REAL NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Every existing task's values, as they were. Its steps' times are already in its updated_at.
INSERT INTO task_heads (task_id, fence, step_count, last_step_key, stepped_at, cost_usd, cost_billed_usd)
SELECT id, lease_owner, step_count, last_step_key, NULL, cost_usd, cost_billed_usd FROM tasks;

ALTER TABLE tasks DROP COLUMN step_count;
ALTER TABLE tasks DROP COLUMN last_step_key;
ALTER TABLE tasks DROP COLUMN cost_usd;
ALTER TABLE tasks DROP COLUMN cost_billed_usd;

CREATE TRIGGER tasks_headed AFTER INSERT ON tasks
BEGIN
    INSERT INTO task_heads (task_id, fence) VALUES (NEW.id, NEW.lease_owner);
END;

CREATE TRIGGER tasks_fenced AFTER UPDATE OF lease_owner ON tasks
WHEN OLD.lease_owner IS NOT NEW.lease_owner
BEGIN
    UPDATE task_heads SET fence = NEW.lease_owner WHERE task_id = NEW.id;
END;

-- Saving a step bumps its task's counter in the same statement (as 0001's triggers did).
CREATE TRIGGER task_steps_counted_on_insert AFTER INSERT ON task_steps
BEGIN
    UPDATE task_heads SET step_count = NEW.seq, last_step_key = NEW.step_key, stepped_at = NEW.saved_at
    WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_steps_counted_on_update AFTER UPDATE ON task_steps
BEGIN
    UPDATE task_heads SET step_count = NEW.seq, last_step_key = NEW.step_key, stepped_at = NEW.saved_at
    WHERE task_id = NEW.task_id;
END;

-- As 0015's: only for a row actually inserted.
CREATE TRIGGER costs_counted AFTER INSERT ON costs WHEN NEW.task_id IS NOT NULL
BEGIN
    UPDATE task_heads SET cost_usd = cost_usd + NEW.usd, cost_billed_usd = cost_billed_usd + NEW.usd * NEW.billed
    WHERE task_id = NEW.task_id;
END;

-- As in 0015, the counters read off the task's narrow row.
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
        t.id, t.type, t.status, t.owner, t.progress, t.created_at,
        CASE WHEN h.stepped_at > t.updated_at THEN h.stepped_at ELSE t.updated_at END AS updated_at,
        t.expires_at, t.lease_owner, t.cancel_requested, t.error, h.step_count, h.cost_usd,
        json_extract(t.progress, '$.step') AS p_step,
        json_extract(t.progress, '$.completed') AS p_done,
        json_extract(t.progress, '$.total') AS p_total,
        json_extract(t.progress, '$.message') AS p_message,
        t.rowid AS seq
    FROM tasks t JOIN task_heads h ON h.task_id = t.id
) AS t
ORDER BY created_at, seq;
