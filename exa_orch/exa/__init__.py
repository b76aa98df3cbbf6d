"""The Exa port: the one typed path from a workflow (or an operation) to Exa.

`ExaPort` (port.py) offers Exa's objects as exa-py's models (`Webset`, `WebsetItem`,
`WebsetEnrichment`, `WebsetSearch`, `AgentRun`, `AgentEvent`) and the project's own pydantic
models where exa-py has none (models.py); every create on it is safe to retry (creates.py). Below
it: `wire.py` (one JSON call through the gateway's governed httpx client, the operations' level),
`polling.py`, `paging.py`, `events.py` (an agent run's event stream), `statuses.py` (the status
sets every layer shares).

This package sits beside the gateway (a port) and imports nothing above it. exa-py is imported
lazily: not here, nor at the top of any module of the package (the cold-start test).
"""
