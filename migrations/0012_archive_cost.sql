-- 0012_archive_cost: v_archive shows what each cell's best run cost at Exa and its cost per elite.
-- As 0002's view, with three columns at the end: the run's elite_count and cost_usd (0009: its
-- task's `costs` rows, data-design/prices.md) and cost_per_elite (cost_usd / elite_count; NULL for
-- a run with no elite or filed before 0009), so SQL can rank cells by what an elite costs.
DROP VIEW v_archive;

CREATE VIEW v_archive AS
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
            ORDER BY r.fitness IS NULL, r.fitness DESC, r.coverage DESC, r.finished_at DESC, w.id
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
