-- 0012_archive_cost (PostgreSQL): as ../0012_archive_cost.sql (the three columns are added at the
-- end, which CREATE OR REPLACE VIEW allows; 0006's NULLS LAST order kept).
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
        r.elite_count,
        r.cost_usd,
        row_number() OVER (
            PARTITION BY w.coord_scope, w.coord_domain_structure, w.coord_evidence_type,
                         w.coord_time_horizon, w.coord_fidelity
            ORDER BY r.fitness IS NULL, r.fitness DESC, r.coverage DESC NULLS LAST, r.finished_at DESC, w.id
        ) AS rank_in_cell
    FROM workflows w
    LEFT JOIN workflow_runs r ON r.workflow_id = w.id AND r.status = 'completed'
)
SELECT cell, workflow_id, name, archetype, task_type, runs, best_run_id, task_id, fitness,
       coverage, diversity, stringency, niches, finished_at, elite_count, cost_usd,
       CASE WHEN elite_count > 0 THEN cost_usd / elite_count END AS cost_per_elite
FROM ranked
WHERE rank_in_cell = 1
ORDER BY cell;
