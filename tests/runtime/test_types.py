"""The runtime's generic helpers keep their callers' types (mypy --strict reads them as written).

`ctx.step(key, fn)` takes a plain or an async function; before it was overloaded, mypy read every
async step as returning Never (and the code after it as unreachable, so unchecked). This runs mypy
on a small workflow and reads back the types it infers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from mypy import api

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]

SNIPPET = """
from typing import Any, reveal_type

from exa_orch.runtime import TaskContext, create_or_get
from tests.support import until


async def workflow(ctx: TaskContext) -> None:
    async def fetch() -> int:
        return 1

    def compute() -> str:
        return "x"

    async def create(external_id: str) -> dict[str, str]:
        return {"id": external_id}

    async def read() -> dict[str, Any]:
        return {}

    reveal_type(await ctx.step("a", fetch))
    reveal_type(await ctx.step("b", compute))
    reveal_type(await ctx.step("c", lambda: [1, 2]))
    reveal_type(await create_or_get(ctx, "d", create, create))
    reveal_type(await until(fetch))
    reveal_type(await until(compute))
    reveal_type(await ctx.step("e", read))
"""


def test_steps_and_waits_keep_the_type_of_plain_and_async_functions(tmp_path: Path) -> None:
    source = tmp_path / "typed_workflow.py"
    source.write_text(SNIPPET)
    # The repository's own cache (what `make typecheck` fills): a warm run takes seconds, not a minute.
    flags = [
        "--strict",
        "--cache-dir",
        str(REPO / ".mypy_cache"),
        "--config-file",
        str(REPO / "pyproject.toml"),
    ]
    # mypy raises the process's recursion limit for good (mypy/main.py): put it back, or a later test
    # in this worker parses JSON nested deeper than Python allows (tests/mcp/test_stdio_ids.py).
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run([*flags, str(source)])
    finally:
        sys.setrecursionlimit(limit)
    revealed = re.findall(r'Revealed type is "([^"]+)"', out)
    assert revealed == ["int", "str", "list[int]", "dict[str, Any]", "int", "str", "dict[str, Any]"], (
        out + err
    )
    assert status == 0, out + err  # strict finds nothing else to say about it
