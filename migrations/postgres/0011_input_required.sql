-- 0011_input_required (PostgreSQL): as ../0011_input_required.sql, a task may wait for its
-- owner's input in status 'input_required'. The status check lives in 0005's trigger function.
CREATE OR REPLACE FUNCTION tasks_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id NOT LIKE 'task\_%' ESCAPE '\' THEN
        RAISE EXCEPTION 'tasks.id must start with task_: %', NEW.id USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.status IS NULL
       OR NEW.status NOT IN ('pending', 'working', 'input_required', 'completed', 'failed', 'cancelled') THEN
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

-- Idle servers hear at once of a task whose input arrived (it is runnable again).
CREATE TRIGGER tasks_runnable_on_resume AFTER UPDATE OF status ON tasks
FOR EACH ROW WHEN (OLD.status = 'input_required' AND NEW.status IN ('pending', 'working'))
EXECUTE FUNCTION tasks_notify_runnable();
