-- 0001_init: durable tasks, their checkpointed steps, and their history.
-- Applied by exa_orch.store.migrations inside one transaction together with its
-- schema_migrations row; this file must not BEGIN or COMMIT itself.
-- Timestamps are ISO-8601 UTC text with milliseconds and a Z ('2026-11-21T21:30:27.123Z'),
-- so they sort and compare as text. JSON columns are TEXT holding JSON.

CREATE TABLE tasks (
    id               TEXT PRIMARY KEY CHECK (id LIKE 'task\_%' ESCAPE '\'),
    type             TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'working', 'completed', 'failed', 'cancelled')),
    args             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
    progress         TEXT CHECK (progress IS NULL OR json_valid(progress)),
    partial_result   TEXT CHECK (partial_result IS NULL OR json_valid(partial_result)),
    result           TEXT CHECK (result IS NULL OR json_valid(result)),
    error            TEXT CHECK (error IS NULL OR json_valid(error)),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    expires_at       TEXT,
    ttl_ms           INTEGER NOT NULL DEFAULT 3600000 CHECK (ttl_ms >= 0),
    lease_owner      TEXT,
    lease_expires_at TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
    meta             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(meta)),
    attempts         INTEGER NOT NULL DEFAULT 0,
    step_count       INTEGER NOT NULL DEFAULT 0,
    last_step_key    TEXT,
    -- A terminal task always has an expiry; a running one never does.
    CHECK ((status IN ('completed', 'failed', 'cancelled')) = (expires_at IS NOT NULL))
);

CREATE INDEX tasks_by_status ON tasks (status, created_at);
CREATE INDEX tasks_by_created ON tasks (created_at, id);
CREATE INDEX tasks_by_expiry ON tasks (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX tasks_by_lease_owner ON tasks (lease_owner) WHERE lease_owner IS NOT NULL;

CREATE TABLE task_steps (
    task_id   TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    step_key  TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    result    TEXT NOT NULL CHECK (json_valid(result)),
    saved_at  TEXT NOT NULL,
    PRIMARY KEY (task_id, step_key)
);

-- Saving a step bumps its task's counter in the same statement, so the two rows always agree:
-- tasks.step_count = the highest task_steps.seq, and last_step_key names that step.
CREATE TRIGGER task_steps_counted_on_insert AFTER INSERT ON task_steps
BEGIN
    UPDATE tasks SET step_count = NEW.seq, last_step_key = NEW.step_key, updated_at = NEW.saved_at
    WHERE id = NEW.task_id;
END;

CREATE TRIGGER task_steps_counted_on_update AFTER UPDATE ON task_steps
BEGIN
    UPDATE tasks SET step_count = NEW.seq, last_step_key = NEW.step_key, updated_at = NEW.saved_at
    WHERE id = NEW.task_id;
END;

CREATE TABLE task_events (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id  TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    at       TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('created', 'status', 'progress', 'cancel_requested', 'claimed')),
    status   TEXT NOT NULL,
    message  TEXT,
    data     TEXT CHECK (data IS NULL OR json_valid(data))
);

CREATE INDEX task_events_by_task ON task_events (task_id, id);

-- Progress counts read as "3/10": whole numbers arrive from Python as floats and lose their ".0" here.
CREATE VIEW v_tasks AS
SELECT
    id,
    type,
    status,
    CASE WHEN progress IS NULL THEN NULL ELSE
        trim(coalesce(p_step, '') || ' '
             || coalesce(CASE WHEN p_done = CAST(p_done AS INTEGER) THEN CAST(CAST(p_done AS INTEGER) AS TEXT)
                              ELSE CAST(p_done AS TEXT) END, '?') || '/'
             || coalesce(CASE WHEN p_total = CAST(p_total AS INTEGER) THEN CAST(CAST(p_total AS INTEGER) AS TEXT)
                              ELSE CAST(p_total AS TEXT) END, '?')
             || coalesce(': ' || p_message, ''))
    END AS progress,
    step_count AS steps,
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
)
ORDER BY created_at, seq;
