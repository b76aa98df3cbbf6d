-- 0017_harvest_convergent_engines (PostgreSQL): as ../0017_harvest_convergent_engines.sql.
UPDATE workflow_steps SET description = 'Create webset with search parameters (engine agent: start Agent API runs asking each criterion''s verdict and the enrichments as row fields)'
WHERE workflow_id = 'workflow-webset-lifecycle' AND position = 1;
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets API. Task type: lifecycle.harvest', 'Backed by Exa Websets API or its Agent API (engine). Task type: lifecycle.harvest')
WHERE id = 'workflow-webset-lifecycle';
UPDATE workflow_steps SET description = 'Create N websets with varied queries (parallel; engine agent: one Agent API run collection per query)'
WHERE workflow_id = 'workflow-webset-convergent' AND position = 1;
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets API. Task type: convergent.search.', 'Backed by Exa Websets API or its Agent API (engine). Task type: convergent.search.')
WHERE id = 'workflow-webset-convergent';
