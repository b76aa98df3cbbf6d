-- 0011_input_required: a task may wait for its owner's input (seed 000 section 5.2.1): status
-- 'input_required', between a run that needed input (the API key it signs its calls with, say)
-- and the run that resumes once it is given. Not terminal (no expiry), never claimed by a runner.
-- SQLite can't alter a CHECK, and rebuilding `tasks` would cascade to its steps and events (the
-- foreign keys are on, and a transaction can't turn them off), so the constraint's text is edited
-- in the schema, SQLite's documented procedure for loosening a CHECK (lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"): every existing row satisfies the wider set. The
-- migration runner bumps schema_version in the same transaction, so every connection re-reads it.
PRAGMA writable_schema = ON;

UPDATE sqlite_master
SET sql = replace(sql,
                  'CHECK (status IN (''pending'', ''working'', ''completed'', ''failed'', ''cancelled''))',
                  'CHECK (status IN (''pending'', ''working'', ''input_required'', ''completed'', ''failed'', ''cancelled''))')
WHERE type = 'table' AND name = 'tasks';

PRAGMA writable_schema = OFF;
