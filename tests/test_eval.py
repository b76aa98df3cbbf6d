"""`exa-orch eval` on the short profile: no false merge, no F1 drop against the committed baseline,
qd.winnow's metrics equal to their independent recomputation, adversarial's verdict and scale."""

from __future__ import annotations

import json
import subprocess
import sys

from exa_orch.evals import BASELINE, MAX_F1_DROP
from tests.support import bound


def test_the_short_eval_makes_no_false_merge_keeps_the_baseline_f1_and_its_checks_hold() -> None:
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
    for world in report["worlds"]:
        winnow, verify = world["checks"]["qd.winnow"], world["checks"]["adversarial.verify"]
        assert winnow["agree"] is True and winnow["reported"] == winnow["recomputed"], winnow
        assert verify["verdictInSet"] and verify["confidenceOnScale"], verify
    company = report["worlds"][0]["workflows"]["convergent.search/company"]
    assert company["entities"] >= 80 and company["f1"] >= 0.90
    assert company["calibration"]["overstated"] == []
