-- 0022_memory_searches (PostgreSQL): as ../0022_memory_searches.sql, with row-level security as
-- the other memory tables have (0020); and v_tasks shows the viewer's tasks (and those with no
-- owner) to `exa-orch sql`, as v_entities does: exa_orch_viewer() is '*' (every task) in any other
-- session and for `exa-orch sql --all-owners`.

CREATE TABLE memory_searches (
    principal   TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    count       INTEGER NOT NULL CHECK (count > 0),
    analyzed    INTEGER NOT NULL CHECK (analyzed >= 0),
    at          TEXT NOT NULL,
    PRIMARY KEY (principal, fingerprint, task_id)
);
CREATE INDEX memory_searches_latest ON memory_searches (principal, fingerprint, at);
ALTER TABLE memory_searches ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_searches_viewer ON memory_searches FOR SELECT
    USING (exa_orch_viewer() IN ('*', principal) OR principal = '');

-- As in 0019 (the same columns), the rows the viewer may see only.
CREATE OR REPLACE VIEW v_tasks AS
SELECT
    id,
    type,
    status,
    owner,
    CASE WHEN progress IS NULL THEN NULL ELSE
        trim(coalesce(p ->> 'step', '') || ' '
             || coalesce(v_tasks_count(p -> 'completed'), '?') || '/'
             || coalesce(v_tasks_count(p -> 'total'), '?')
             || coalesce(': ' || (p ->> 'message'), ''))
    END AS progress,
    step_count AS steps,
    round(t.cost_usd::numeric, 6)::double precision AS cost_usd,
    created_at,
    updated_at,
    expires_at,
    lease_owner,
    cancel_requested,
    error::json ->> 'message' AS error_message
FROM (
    SELECT
        t.id, t.type, t.status, t.owner, t.progress, t.created_at,
        CASE WHEN h.stepped_at > t.updated_at THEN h.stepped_at ELSE t.updated_at END AS updated_at,
        t.expires_at, t.lease_owner, t.cancel_requested, t.error, h.step_count, h.cost_usd, t.rowid,
        t.progress::json AS p
    FROM tasks t JOIN task_heads h ON h.task_id = t.id
) AS t
WHERE exa_orch_viewer() IN ('*', t.owner) OR t.owner IS NULL
ORDER BY created_at, rowid;
