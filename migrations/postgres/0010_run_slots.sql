-- 0010_run_slots (PostgreSQL): as ../0010_run_slots.sql (read it for what each column means).
CREATE TABLE run_slots (
    id          BIGSERIAL PRIMARY KEY,
    pool        TEXT NOT NULL,
    principal   TEXT NOT NULL,
    task_id     TEXT,
    owner       TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('waiting', 'active', 'done')),
    run_id      TEXT,
    enqueued_at TEXT NOT NULL,
    granted_at  TEXT,
    grant_seq   BIGINT,
    released_at TEXT,
    seen_at     TEXT
);

CREATE INDEX run_slots_live ON run_slots (pool, state);
CREATE INDEX run_slots_by_run ON run_slots (run_id);
