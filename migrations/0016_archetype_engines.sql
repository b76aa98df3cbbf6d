-- 0016_archetype_engines: the archetype rows of the workflows that run on either engine (issue 25:
-- `engine: websets | agent` on qd.winnow, adversarial.verify, research.verifiedCollection) say so.
-- The steps and notes 0002 seeded named Websets only; they now match each workflow's ARCHETYPE
-- (start-up's sync_archetypes writes the same text; tests/store/test_archetypes.py compares them).
UPDATE workflow_steps SET description = 'Create a webset (engine websets) or start Agent API runs (engine agent) asking each criterion''s verdict (behavioral coordinates) and the enrichments (fitness signals)'
WHERE workflow_id = 'workflow-webset-qd-winnow' AND position = 1;
UPDATE workflow_steps SET description = 'Poll the webset''s search (found/analyzed gives stringency) or the agent runs, and collect items'
WHERE workflow_id = 'workflow-webset-qd-winnow' AND position = 2;
UPDATE workflow_steps SET description = 'Create thesis webset (or agent run, engine agent) with supporting query'
WHERE workflow_id = 'workflow-webset-adversarial' AND position = 1;
UPDATE workflow_steps SET description = 'Create antithesis webset (or agent run, engine agent) with counter-query'
WHERE workflow_id = 'workflow-webset-adversarial' AND position = 3;
UPDATE workflow_steps SET description = '(Optional) Synthesize via Research API (engine agent: over both sides'' rows as input data)'
WHERE workflow_id = 'workflow-webset-adversarial' AND position = 5;
UPDATE workflow_steps SET description = 'Create webset (or agent runs, engine agent) and collect entities'
WHERE workflow_id = 'workflow-webset-verified' AND position = 1;
UPDATE workflow_steps SET description = 'For each entity (up to limit): create Research API task (engine agent: one per 25 entities, as input data rows)'
WHERE workflow_id = 'workflow-webset-verified' AND position = 2;
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets API. Task type: qd.winnow.', 'Backed by Exa Websets API or its Agent API (engine). Task type: qd.winnow.')
WHERE id = 'workflow-webset-qd-winnow';
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets + Research API. Task type: adversarial.verify.', 'Backed by Exa Websets (or its Agent API) + Research API. Task type: adversarial.verify.')
WHERE id = 'workflow-webset-adversarial';
UPDATE workflows SET notes = replace(notes, 'Backed by Exa Websets + Research API. Task type: research.verifiedCollection.', 'Backed by Exa Websets (or its Agent API) + Research API. Task type: research.verifiedCollection.')
WHERE id = 'workflow-webset-verified';
