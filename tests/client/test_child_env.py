"""The child's environment carries what decides its default database."""

from __future__ import annotations

import os

from exa_orch.client.client import _child_env


def test_the_child_gets_the_hosts_xdg_data_home_so_both_default_to_one_database() -> None:
    # tests/conftest.py set XDG_DATA_HOME for the session; the mcp SDK's base environment drops it.
    env = _child_env(None, None)
    assert env["XDG_DATA_HOME"] == os.environ["XDG_DATA_HOME"]
    assert "EXA_API_KEY" not in env
