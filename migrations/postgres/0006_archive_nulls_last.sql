-- 0006_archive_nulls_last: v_archive ranks a run without a coverage after one with it, as on SQLite.
-- v_archive (0002) picks each cell's best completed run by fitness, then coverage, both
-- descending. PostgreSQL sorts NULL above every number in a descending order, so among runs of
-- equal fitness one that recorded no coverage ranked first here and last on SQLite. NULLS LAST
-- makes both backends pick the same run; the view's columns are unchanged.
CREATE OR REPLACE VIEW v_archive AS
WITH ranked AS (
    SELECT
        w.coord_scope || ',' || w.coord_domain_structure || ',' || w.coord_evidence_type || ','
            || w.coord_time_horizon || ',' || w.coord_fidelity AS cell,
        w.id AS workflow_id,
        w.name,
        w.archetype,
        w.task_type,
        (SELECT count(*) FROM workflow_runs c WHERE c.workflow_id = w.id) AS runs,
        r.id AS best_run_id,
        r.task_id,
        r.fitness,
        r.coverage,
        r.diversity,
        r.stringency,
        r.niches,
        r.finished_at,
        row_number() OVER (
            PARTITION BY w.coord_scope, w.coord_domain_structure, w.coord_evidence_type,
                         w.coord_time_horizon, w.coord_fidelity
            ORDER BY r.fitness IS NULL, r.fitness DESC, r.coverage DESC NULLS LAST, r.finished_at DESC, w.id
        ) AS rank_in_cell
    FROM workflows w
    LEFT JOIN workflow_runs r ON r.workflow_id = w.id AND r.status = 'completed'
)
SELECT cell, workflow_id, name, archetype, task_type, runs, best_run_id, task_id, fitness,
       coverage, diversity, stringency, niches, finished_at
FROM ranked
WHERE rank_in_cell = 1
ORDER BY cell;
