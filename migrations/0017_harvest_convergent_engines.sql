-- 0017_harvest_convergent_engines: lifecycle.harvest and convergent.search take `engine: websets |
-- agent` (issue 25): their archetype rows say so, as 0016 did for the other three; the text matches
-- each workflow's ARCHETYPE (start-up's sync_archetypes writes the same; tests/store/test_archetypes.py).
UPDATE workflow_steps SET description = 'Create webset with search parameters (engine agent: start Agent API runs asking each criterion''s verdict and the enrichments as row fields)'
WHERE workflow_id = 'workflow-webset-lifecycle' AND position = 1;
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets API. Task type: lifecycle.harvest', 'Backed by Exa Websets API or its Agent API (engine). Task type: lifecycle.harvest')
WHERE id = 'workflow-webset-lifecycle';
UPDATE workflow_steps SET description = 'Create N websets with varied queries (parallel; engine agent: one Agent API run collection per query)'
WHERE workflow_id = 'workflow-webset-convergent' AND position = 1;
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets API. Task type: convergent.search.', 'Backed by Exa Websets API or its Agent API (engine). Task type: convergent.search.')
WHERE id = 'workflow-webset-convergent';
