-- 0002_workflow_archive: the MAP-Elites archive of research workflows.
-- workflows/workflow_steps hold the archetypes (seed 002 section 5, plus research.deep from its
-- pattern 4); workflow_runs holds one row per task run with its quality metrics, qd_elites the
-- elites a run found. Runs outlive their tasks (tasks are deleted after their TTL), so
-- workflow_runs.task_id is a plain reference, not a foreign key.

CREATE TABLE workflows (
    id                     TEXT PRIMARY KEY,
    name                   TEXT NOT NULL,
    description            TEXT NOT NULL,
    status                 TEXT NOT NULL DEFAULT 'seed',
    coord_scope            INTEGER NOT NULL CHECK (coord_scope BETWEEN 1 AND 5),
    coord_domain_structure INTEGER NOT NULL CHECK (coord_domain_structure BETWEEN 1 AND 5),
    coord_evidence_type    INTEGER NOT NULL CHECK (coord_evidence_type BETWEEN 1 AND 5),
    coord_time_horizon     INTEGER NOT NULL CHECK (coord_time_horizon BETWEEN 1 AND 5),
    coord_fidelity         INTEGER NOT NULL CHECK (coord_fidelity BETWEEN 1 AND 5),
    archetype              TEXT NOT NULL,
    notes                  TEXT,
    task_type              TEXT UNIQUE,
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE workflow_steps (
    workflow_id TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL CHECK (position >= 1),
    description TEXT NOT NULL,
    PRIMARY KEY (workflow_id, position)
);

CREATE TABLE workflow_runs (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    workflow_id      TEXT NOT NULL REFERENCES workflows (id),
    task_id          TEXT,
    task_type        TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('completed', 'failed', 'cancelled')),
    started_at       TEXT,
    finished_at      TEXT NOT NULL,
    duration_ms      INTEGER,
    rounds           INTEGER,
    item_count       INTEGER,
    niches           INTEGER,
    possible_niches  INTEGER,
    elite_count      INTEGER,
    fitness          REAL,
    coverage         REAL,
    diversity        REAL,
    stringency       REAL,
    converged        INTEGER CHECK (converged IS NULL OR converged IN (0, 1)),
    metrics          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metrics))
);

CREATE INDEX workflow_runs_by_workflow ON workflow_runs (workflow_id, fitness);
CREATE INDEX workflow_runs_by_task ON workflow_runs (task_id);

CREATE TABLE qd_elites (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id          INTEGER NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    round           INTEGER,
    niche           TEXT NOT NULL,
    fitness         REAL NOT NULL,
    criteria_vector TEXT NOT NULL CHECK (json_valid(criteria_vector)),
    item_id         TEXT,
    item            TEXT NOT NULL CHECK (json_valid(item))
);

CREATE INDEX qd_elites_by_run ON qd_elites (run_id, niche);

INSERT INTO workflows (id, name, description, status,
  coord_scope, coord_domain_structure, coord_evidence_type,
  coord_time_horizon, coord_fidelity,
  archetype, notes, task_type)
VALUES
  ('workflow-webset-lifecycle',
   'Webset Lifecycle Harvest',
   'Full webset lifecycle: create, search, wait, enrich, collect. Single operation for complete entity collection with enrichments.',
   'seed', 3, 2, 3, 2, 3,
   'applied',
   'Backed by Exa Websets API. Task type: lifecycle.harvest',
   'lifecycle.harvest'),

  ('workflow-webset-convergent',
   'Convergent Multi-Query Search',
   'Same topic queried from N angles via separate websets. Intersection analysis identifies high-confidence entities through triangulation.',
   'seed', 4, 3, 4, 2, 4,
   'confirmatory',
   'Backed by Exa Websets API. Task type: convergent.search. Novel: convergent evidence via entity deduplication.',
   'convergent.search'),

  ('workflow-webset-adversarial',
   'Adversarial Verification',
   'Thesis and antithesis websets with optional Research API synthesis. Forces disconfirmation search to combat confirmation bias.',
   'seed', 2, 2, 4, 2, 5,
   'generative',
   'Backed by Exa Websets + Research API. Task type: adversarial.verify. Novel: structured opposition with automated synthesis.',
   'adversarial.verify'),

  ('workflow-webset-verified',
   'Research-Verified Collection',
   'Broad entity collection via Websets + deep per-entity verification via Research API. Combines breadth and depth.',
   'seed', 4, 3, 4, 3, 4,
   'exploratory',
   'Backed by Exa Websets + Research API. Task type: research.verifiedCollection. Novel: two Exa primitives composed.',
   'research.verifiedCollection'),

  ('workflow-webset-qd-winnow',
   'Quality-Diversity Winnowing',
   'Uses Websets criteria as behavioral coordinates and enrichments as fitness functions. MAP-Elites-style progressive filtration over entity collections. Criteria satisfaction vectors define niches, enrichment scores define fitness.',
   'seed', 3, 2, 4, 2, 5,
   'analytical',
   'Backed by Exa Websets API. Task type: qd.winnow. Novel: quality-diversity search using criteria combinations as behavioral space. The foundational pattern — lifecycle.harvest and convergent.search are special cases.',
   'qd.winnow'),

  ('workflow-research-deep',
   'Deep Research',
   'A synthesized narrative answer to a complex question, backed by web sources: one Exa research task, polled until finished, returning a structured result.',
   'seed', 4, 3, 3, 3, 3,
   'exploratory',
   'Backed by Exa Agent API (the Research API it was specified on was retired). Task type: research.deep. Thin wrapper; its value is composition with other patterns.',
   'research.deep');

INSERT INTO workflow_steps (workflow_id, position, description) VALUES
  ('workflow-webset-lifecycle', 1, 'Create webset with search parameters'),
  ('workflow-webset-lifecycle', 2, 'Wait until webset idle (search complete)'),
  ('workflow-webset-lifecycle', 3, 'Add enrichments to webset items'),
  ('workflow-webset-lifecycle', 4, 'Wait until enrichments complete'),
  ('workflow-webset-lifecycle', 5, 'Collect all items with enrichment data'),

  ('workflow-webset-convergent', 1, 'Create N websets with varied queries (parallel)'),
  ('workflow-webset-convergent', 2, 'Wait for all websets to become idle'),
  ('workflow-webset-convergent', 3, 'Collect items from each webset'),
  ('workflow-webset-convergent', 4, 'Deduplicate entities across websets'),
  ('workflow-webset-convergent', 5, 'Compute intersection and confidence scores'),

  ('workflow-webset-adversarial', 1, 'Create thesis webset with supporting query'),
  ('workflow-webset-adversarial', 2, 'Wait and collect thesis evidence'),
  ('workflow-webset-adversarial', 3, 'Create antithesis webset with counter-query'),
  ('workflow-webset-adversarial', 4, 'Wait and collect counter-evidence'),
  ('workflow-webset-adversarial', 5, '(Optional) Synthesize via Research API'),

  ('workflow-webset-verified', 1, 'Create webset and collect entities'),
  ('workflow-webset-verified', 2, 'For each entity (up to limit): create Research API task'),
  ('workflow-webset-verified', 3, 'Poll all research tasks until complete'),
  ('workflow-webset-verified', 4, 'Merge webset items with research results'),

  -- Section 5 lists no steps for qd.winnow; these follow pattern 6's flow.
  ('workflow-webset-qd-winnow', 1, 'Create webset with criteria (behavioral coordinates) and enrichments (fitness signals)'),
  ('workflow-webset-qd-winnow', 2, 'Poll search progress (found/analyzed gives stringency) and collect items'),
  ('workflow-webset-qd-winnow', 3, 'Classify items into niches by criteria satisfaction vector'),
  ('workflow-webset-qd-winnow', 4, 'Score fitness from enrichment results and identify the elite of each niche'),
  ('workflow-webset-qd-winnow', 5, 'Analyze criteria success rates; optionally refine criteria and repeat'),
  ('workflow-webset-qd-winnow', 6, 'Compare elite sets across rounds, check convergence, return final elites with quality metrics'),

  -- Pattern 4's flow; the research task is an Exa Agent API run.
  ('workflow-research-deep', 1, 'Create Exa research task'),
  ('workflow-research-deep', 2, 'Poll until finished'),
  ('workflow-research-deep', 3, 'Return structured result');

-- The best completed run of each MAP-Elites cell (the five coordinates). A cell with no run yet
-- shows its archetype with empty run columns.
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
        row_number() OVER (
            PARTITION BY w.coord_scope, w.coord_domain_structure, w.coord_evidence_type,
                         w.coord_time_horizon, w.coord_fidelity
            ORDER BY r.fitness IS NULL, r.fitness DESC, r.coverage DESC, r.finished_at DESC, w.id
        ) AS rank_in_cell
    FROM workflows w
    LEFT JOIN workflow_runs r ON r.workflow_id = w.id AND r.status = 'completed'
)
SELECT cell, workflow_id, name, archetype, task_type, runs, best_run_id, task_id, fitness,
       coverage, diversity, stringency, niches, finished_at
FROM ranked
WHERE rank_in_cell = 1
ORDER BY cell;
