-- 0018_steps_cascade_by_trigger: a checkpoint no longer pays a foreign-key check (bench/store.py).
-- The check ran for every saved step: an SPI query `SELECT 1 FROM tasks ... FOR
-- KEY SHARE` and a row lock written to the WAL, ~17 us of server CPU of a checkpoint's ~45 (the
-- keyed ceiling's whole row costs ~10). It guarded nothing the checkpoint does not guard already:
-- the statement (store/tasks.py SAVE_STEP_PG) takes the step's seq from its UPDATE of the task's
-- row, which locks that row until COMMIT, so a step is saved only while its task exists (no task:
-- seq is NULL and the NOT NULL constraint refuses it, TASK_NOT_FOUND), and no DELETE of the task
-- can pass it. Only exa-orch writes here (the read-only faces refuse writes). What the constraint
-- also did, deleting a task's steps with it, is this statement trigger's, for every DELETE of tasks
-- (expiry, admin): one DELETE per statement, through the steps' primary key.
ALTER TABLE task_steps DROP CONSTRAINT task_steps_task_id_fkey;

CREATE FUNCTION tasks_steps_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM task_steps s USING gone g WHERE s.task_id = g.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_steps_deleted AFTER DELETE ON tasks
REFERENCING OLD TABLE AS gone
FOR EACH STATEMENT EXECUTE FUNCTION tasks_steps_deleted();
