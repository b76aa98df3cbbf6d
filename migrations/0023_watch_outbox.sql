-- 0023_watch_outbox: a watch run's notifications, written in the transaction that records the run
-- (issue 39), so a server that dies between recording a run and telling anyone loses nothing.
-- One row per channel: 'webhook' rows are sent by whichever server claims them (claimed_by and
-- lease_until, compare-and-set, so two servers on one database send each once), retried with
-- backoff (attempts, next_at, last_error) until 'delivered' or 'failed'. 'mcp' rows are read by
-- every server (its cursor: `id`) and told to that server's own sessions of `owner`.
-- Times are epoch seconds on the wall clock of the server that wrote them.
CREATE TABLE watch_outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    watch_id     TEXT NOT NULL,
    run_n        INTEGER NOT NULL,
    owner        TEXT,
    channel      TEXT NOT NULL CHECK (channel IN ('webhook', 'mcp')),
    payload      TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      REAL NOT NULL,
    claimed_by   TEXT,
    lease_until  REAL,
    last_error   TEXT,
    recorded_by  TEXT,
    created_at   REAL NOT NULL,
    delivered_at REAL
);

CREATE INDEX watch_outbox_pending ON watch_outbox (next_at) WHERE status = 'pending';
CREATE INDEX watch_outbox_by_run ON watch_outbox (watch_id, run_n);
