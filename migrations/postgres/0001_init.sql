-- 0001_init (PostgreSQL): the same tables, views and guarantees as ../0001_init.sql.
-- Applied by exa_orch.store.postgres in one transaction with its schema_migrations row.
-- Timestamps stay ISO-8601 UTC text ('2026-11-21T21:30:27.123Z') and JSON columns stay text,
-- so every query reads the same on both backends. `rowid` stands in for SQLite's rowid: the
-- insertion order that breaks ties between tasks created in the same millisecond.

-- SQLite's JSON helpers, so that the queries the docs show run unchanged here.
CREATE FUNCTION json_valid(doc text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM doc::json;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END
$$;

-- json_extract(doc, '$.a.b[0]'): the value at that path as text (NULL if absent).
CREATE FUNCTION json_extract(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT doc::json #>> string_to_array(
        regexp_replace(substr(path, 3), '\[(\d+)\]', '.\1', 'g'), '.')
$$;

CREATE TABLE tasks (
    id               TEXT PRIMARY KEY CHECK (id LIKE 'task\_%' ESCAPE '\'),
    type             TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'working', 'completed', 'failed', 'cancelled')),
    -- A cast fails on text that isn't JSON, which rejects the write as json_valid does in SQLite.
    args             TEXT NOT NULL DEFAULT '{}' CHECK (args::json IS NOT NULL),
    progress         TEXT CHECK (progress IS NULL OR progress::json IS NOT NULL),
    partial_result   TEXT CHECK (partial_result IS NULL OR partial_result::json IS NOT NULL),
    result           TEXT CHECK (result IS NULL OR result::json IS NOT NULL),
    error            TEXT CHECK (error IS NULL OR error::json IS NOT NULL),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    expires_at       TEXT,
    ttl_ms           BIGINT NOT NULL DEFAULT 3600000 CHECK (ttl_ms >= 0),
    lease_owner      TEXT,
    lease_expires_at TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
    meta             TEXT NOT NULL DEFAULT '{}' CHECK (meta::json IS NOT NULL),
    attempts         INTEGER NOT NULL DEFAULT 0,
    step_count       INTEGER NOT NULL DEFAULT 0,
    last_step_key    TEXT,
    rowid            BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    CHECK ((status IN ('completed', 'failed', 'cancelled')) = (expires_at IS NOT NULL))
);

CREATE INDEX tasks_by_status ON tasks (status, created_at);
CREATE INDEX tasks_by_created ON tasks (created_at, rowid);
CREATE INDEX tasks_by_expiry ON tasks (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX tasks_by_lease_owner ON tasks (lease_owner) WHERE lease_owner IS NOT NULL;

CREATE TABLE task_steps (
    task_id   TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    step_key  TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    result    TEXT NOT NULL CHECK (result::json IS NOT NULL),
    saved_at  TEXT NOT NULL,
    PRIMARY KEY (task_id, step_key)
);

-- Saving a step bumps its task's counter in the same statement (as SQLite's two triggers do).
CREATE FUNCTION task_steps_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tasks SET step_count = NEW.seq, last_step_key = NEW.step_key, updated_at = NEW.saved_at
    WHERE id = NEW.task_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER task_steps_counted AFTER INSERT OR UPDATE ON task_steps
FOR EACH ROW EXECUTE FUNCTION task_steps_count();

CREATE TABLE task_events (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_id  TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    at       TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('created', 'status', 'progress', 'cancel_requested', 'claimed')),
    status   TEXT NOT NULL,
    message  TEXT,
    data     TEXT CHECK (data IS NULL OR data::json IS NOT NULL)
);

CREATE INDEX task_events_by_task ON task_events (task_id, id);

-- Waiters on other servers (tasks/result, wait) hear a task's status change at its commit.
CREATE FUNCTION tasks_notify_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('exa_orch_task', NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_status_notified AFTER UPDATE OF status, cancel_requested ON tasks
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                   OR OLD.cancel_requested IS DISTINCT FROM NEW.cancel_requested)
EXECUTE FUNCTION tasks_notify_status();

-- Idle servers hear of work at once: a new task, or one whose server let it go unfinished.
-- ('runnable' can't be mistaken for a task id, which starts with 'task_'.)
CREATE FUNCTION tasks_notify_runnable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('exa_orch_task', 'runnable');
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_runnable_on_insert AFTER INSERT ON tasks
FOR EACH STATEMENT EXECUTE FUNCTION tasks_notify_runnable();

CREATE TRIGGER tasks_runnable_on_release AFTER UPDATE OF lease_owner ON tasks
FOR EACH ROW WHEN (OLD.lease_owner IS NOT NULL AND NEW.lease_owner IS NULL
                   AND NEW.status NOT IN ('completed', 'failed', 'cancelled'))
EXECUTE FUNCTION tasks_notify_runnable();

-- Progress counts read as "3/10", as in SQLite's v_tasks.
CREATE FUNCTION v_tasks_count(value json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN value IS NULL OR json_typeof(value) = 'null' THEN NULL
        WHEN json_typeof(value) = 'number' AND (value #>> '{}')::numeric = trunc((value #>> '{}')::numeric)
            THEN trunc((value #>> '{}')::numeric)::text
        ELSE value #>> '{}'
    END
$$;

CREATE VIEW v_tasks AS
SELECT
    id,
    type,
    status,
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
