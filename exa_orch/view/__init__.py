"""Views for people: a read-only web view (`exa-orch view`) and a terminal task list (`exa-orch tasks`).

A face: it reads the database read-only through `data.ViewDB` and imports nothing above the
store; only the CLI imports it.
"""
