-- 0010_run_slots: the team's pool of active agent runs (and of webset runs), shared by every
-- server on this database (gateway/pool.py, docs/pool.md).
-- One row per request for a slot: `waiting` until granted, `active` while its run is (a create
-- in flight, then the run `run_id` until Exa shows it finished), `done` after (kept a while, for
-- the grant order a test or an operator reads; pruned after an hour). `owner` is the process (its
-- lease owner id) that holds the row and renews `expires_at`; a row whose owner died is reclaimed
-- by the next round of any server: a waiting row is dropped, an active one with a run is adopted
-- (a live server then watches that run until it ends).
CREATE TABLE run_slots (
    id          INTEGER PRIMARY KEY,
    pool        TEXT NOT NULL,
    principal   TEXT NOT NULL,
    task_id     TEXT,
    owner       TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('waiting', 'active', 'done')),
    run_id      TEXT,
    enqueued_at TEXT NOT NULL,
    granted_at  TEXT,
    grant_seq   INTEGER,
    released_at TEXT,
    seen_at     TEXT
);

CREATE INDEX run_slots_live ON run_slots (pool, state);
CREATE INDEX run_slots_by_run ON run_slots (run_id);
