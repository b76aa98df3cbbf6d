-- 0003_v_tasks_whole_numbers: v_tasks shows progress counts as "3/10", not "3.0/10.0".
-- Progress numbers arrive as floats from Python; whole ones read better without the ".0".

DROP VIEW v_tasks;

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
        json_extract(progress, '$.message') AS p_message
    FROM tasks
)
ORDER BY created_at, id;
