-- 0020_entity_memory: what each principal's collection tasks found, remembered across runs (issue 39).
-- memory_entities: one row per entity as the resolver (exa_orch/workflows/entities) grouped it, per
-- principal ('' for a task with no owner): its names, registered domains, canonical URLs, profile URLs,
-- the resolver's evidence for joining its items, first and last seen. memory_keys: the identity keys
-- (domain, profile, url, name) a new item is matched on before the resolver weighs the pair.
-- memory_sightings: each time a task's result held the entity: the task, when, the item's page, the
-- source pages it cited, the fields found, and the item itself (a later re-resolution reads it, so
-- memory follows the resolver when it joins or splits entities). Rows are written by store/memory.py;
-- nothing here is a foreign key the writer relies on (it deletes keys and moves sightings itself).
-- v_entities / v_sightings show every principal's memory to whoever opens the file; `exa-orch sql`
-- shows the viewer's only (store/viewer.py: views of the same names over these, in its temp schema).

CREATE TABLE memory_entities (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    principal   TEXT NOT NULL,
    type        TEXT,
    name        TEXT,
    names       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(names)),
    domains     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(domains)),
    urls        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(urls)),
    profiles    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(profiles)),
    evidence    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(evidence)),
    first_seen  TEXT NOT NULL,
    last_seen   TEXT NOT NULL
);
CREATE INDEX memory_entities_by_principal ON memory_entities (principal, last_seen);

CREATE TABLE memory_keys (
    principal TEXT NOT NULL,
    key       TEXT NOT NULL,
    entity_id INTEGER NOT NULL REFERENCES memory_entities (id),
    PRIMARY KEY (principal, key, entity_id)
);
CREATE INDEX memory_keys_by_entity ON memory_keys (entity_id);

CREATE TABLE memory_sightings (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id  INTEGER NOT NULL REFERENCES memory_entities (id),
    principal  TEXT NOT NULL,
    task_id    TEXT NOT NULL,
    task_type  TEXT NOT NULL,
    item_id    TEXT NOT NULL,
    seen_at    TEXT NOT NULL,
    url        TEXT,
    sources    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(sources)),
    fields     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(fields)),
    item       TEXT NOT NULL CHECK (json_valid(item)),
    UNIQUE (task_id, item_id)
);
CREATE INDEX memory_sightings_by_entity ON memory_sightings (entity_id, seen_at);

CREATE VIEW v_entities AS
SELECT e.id, e.principal, e.type, e.name, e.names, e.domains, e.urls, e.profiles,
       (SELECT count(*) FROM memory_sightings s WHERE s.entity_id = e.id) AS sightings,
       (SELECT count(DISTINCT s.task_id) FROM memory_sightings s WHERE s.entity_id = e.id) AS tasks,
       e.first_seen, e.last_seen, e.evidence
FROM memory_entities e;

CREATE VIEW v_sightings AS
SELECT s.id, s.entity_id, e.name AS entity, s.principal, s.task_id, s.task_type, s.item_id, s.seen_at,
       s.url, s.sources, s.fields
FROM memory_sightings s JOIN memory_entities e ON e.id = s.entity_id;
