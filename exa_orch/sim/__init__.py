"""The Exa simulator: a real HTTP server on loopback that behaves like Exa (see README).

Modules: `context` (config, clock, ids), `app` (the ASGI app: request ids, auth, counters, faults,
admin), `faults` (fault draws, counters, error bodies), `world` (the deterministic world),
`websets/` (the 38 Websets operations), `search` (search, findSimilar, contents, answer), `agent`
(Agent API runs), `papers` (ArXiv Xplorer), `testing` (in-process servers), `server` (`exa-orch sim`).
Nothing here imports the rest of exa_orch; this package imports none of its modules eagerly, so
`exa_orch.sim.context` stays cheap to import.
"""
