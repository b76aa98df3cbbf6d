"""What the scripts that derive a data file share: write it, or check it is what they derive."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def write_or_check(out: Path, data: Any, source: str) -> int:
    """Write `data` to `out` as compact JSON; with `--check` on the command line, write nothing and
    say whether `out` already holds it. 0 when written or as derived, 1 when `out` differs."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
    if "--check" in sys.argv[1:]:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print(
            f"{out.name}: {'as derived' if same else f'differs from what {source} derives: run the script'}"
        )
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out} ({len(text.encode())} bytes)")
    return 0
