"""A local file is checked on what was opened, not only on the path that was checked.

The race (a directory swapped for a link between the check and the open) can't be timed from
outside, so the test swaps it from inside the one `os.open` call the reader makes: the path was
checked already, and the open lands outside the root. The read is refused.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from exa_orch.errors import InvalidParams
from exa_orch.operations import _roots

CSV = "url,name\nhttps://a.example,A\n"


def test_a_directory_swapped_for_a_link_after_the_check_reads_nothing_outside_the_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, private = tmp_path / "shared", tmp_path / "private"
    (shared / "sub").mkdir(parents=True)
    private.mkdir()
    (shared / "sub" / "rows.csv").write_text(CSV)
    (private / "rows.csv").write_text("secret,rows\n1,2\n")
    assert (
        _roots._read_inside(str(shared / "sub" / "rows.csv"), [("the client's roots", [str(shared)])], 1000)
        == CSV
    )

    real_open = os.open

    def swapping_open(path: Any, flags: int, *args: Any) -> int:
        (shared / "sub" / "rows.csv").unlink()
        (shared / "sub").rmdir()
        (shared / "sub").symlink_to(private, target_is_directory=True)
        return real_open(path, flags, *args)

    monkeypatch.setattr(_roots.os, "open", swapping_open)
    with pytest.raises(InvalidParams) as refused:
        _roots._read_inside(str(shared / "sub" / "rows.csv"), [("the client's roots", [str(shared)])], 1000)
    assert refused.value.fields == ["path"] and "outside the client's roots" in refused.value.message


def test_a_file_swapped_for_a_link_after_the_check_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, private = tmp_path / "shared", tmp_path / "private"
    shared.mkdir()
    private.mkdir()
    (shared / "rows.csv").write_text(CSV)
    (private / "secret.csv").write_text("secret,rows\n1,2\n")
    real_open = os.open

    def swapping_open(path: Any, flags: int, *args: Any) -> int:
        (shared / "rows.csv").unlink()
        (shared / "rows.csv").symlink_to(private / "secret.csv")
        return real_open(path, flags, *args)

    monkeypatch.setattr(_roots.os, "open", swapping_open)
    with pytest.raises(InvalidParams) as refused:
        _roots._read_inside(str(shared / "rows.csv"), [("the client's roots", [str(shared)])], 1000)
    assert refused.value.fields == ["path"]


def test_the_read_is_bounded(tmp_path: Path) -> None:
    (tmp_path / "big.csv").write_text("a,b\n" + "1,2\n" * 1000)
    with pytest.raises(InvalidParams) as refused:
        _roots._read_inside(str(tmp_path / "big.csv"), [("the client's roots", [str(tmp_path)])], 100)
    assert "import limit" in refused.value.message
