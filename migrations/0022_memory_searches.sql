-- 0022_memory_searches: what a plain search analyzed, so a repeat with known: "skip" spends no more (issue 39).
-- memory_searches: per principal, each plain (not known: "skip") collection search's fingerprint (a
-- hash of its query, entity and criteria), its task, the items it asked for and the candidates it
-- analyzed. A repeat run with known: "skip" holds its own search to that many candidates per item
-- asked (workflows/memory_search.py) and cancels it there: Websets bill per candidate analyzed, and
-- a search told to leave the known ones out would otherwise analyze on until it finds `count` new.
-- Read by the workflows only: `exa-orch sql` refuses it to a viewer (store/viewer.py).

CREATE TABLE memory_searches (
    principal   TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    count       INTEGER NOT NULL CHECK (count > 0),
    analyzed    INTEGER NOT NULL CHECK (analyzed >= 0),
    at          TEXT NOT NULL,
    PRIMARY KEY (principal, fingerprint, task_id)
);
CREATE INDEX memory_searches_latest ON memory_searches (principal, fingerprint, at);
