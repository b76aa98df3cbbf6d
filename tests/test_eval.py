"""`exa-orch eval` on the short profile: no false merge, and no F1 drop against the committed baseline."""

from __future__ import annotations

import json
import subprocess
import sys

from exa_orch.evals import BASELINE, MAX_F1_DROP
from tests.support import bound


def test_the_short_eval_makes_no_false_merge_and_keeps_the_baseline_f1() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "exa_orch",
            "eval",
            "--profile",
            "short",
            "--json",
            "--baseline",
            str(BASELINE),
        ],
        capture_output=True,
        text=True,
        timeout=bound(600),
        check=False,
    )
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, report["regressions"]
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    base = {k: v for w in baseline["worlds"] for k, v in w["workflows"].items()}
    for world in report["worlds"]:
        for name, scores in world["workflows"].items():
            assert scores["falseMerges"] == [], (name, scores["falseMerges"])
            assert scores["f1"] >= base[name]["f1"] - MAX_F1_DROP, name
    company = report["worlds"][0]["workflows"]["convergent.search/company"]
    assert company["entities"] >= 80 and company["f1"] >= 0.90
    assert company["calibration"]["overstated"] == []
