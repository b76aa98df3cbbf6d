-- 0021_watches: watches (issue 39). A watch re-runs one task on a schedule and keeps its own
-- history: each run's child task expires like any task, so the diff against the previous run, the
-- run's cost and what was notified are kept here. Times are epoch seconds on the scheduler's clock.
-- `running_task` is the child task of the run in flight (NULL when none): a due run is claimed by
-- setting it and `next_due` in one compare-and-set, so one server alone runs each due run, and a
-- run missed while no server was up runs once (next_due is set from the claim's time, not the slot).
CREATE TABLE watches (
    id TEXT PRIMARY KEY,
    owner TEXT,
    type TEXT NOT NULL,
    args TEXT NOT NULL,
    every_s REAL,
    cron TEXT,
    budget_usd REAL,
    notify TEXT NOT NULL,
    secret TEXT,
    paused INTEGER NOT NULL DEFAULT 0,
    next_due REAL NOT NULL,
    running_task TEXT,
    runs INTEGER NOT NULL DEFAULT 0,
    snapshot TEXT,
    created_at TEXT NOT NULL
);

CREATE INDEX watches_due ON watches (next_due) WHERE paused = 0;
CREATE INDEX watches_by_owner ON watches (owner, created_at);

CREATE TABLE watch_runs (
    watch_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    task_id TEXT NOT NULL,
    due_at REAL NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL,
    status TEXT NOT NULL,
    changed INTEGER,
    diff TEXT,
    cost_usd REAL,
    notified TEXT,
    PRIMARY KEY (watch_id, n)
);

CREATE INDEX watch_runs_by_task ON watch_runs (task_id);
