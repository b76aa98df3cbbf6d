"""`exa-orch eval`'s report as text: per world, each workflow's scores, false merges and (with
--verbose) missed pairs, the resolver alone on each engine's items, and the checks."""

from __future__ import annotations

import json
from typing import Any

Json = dict[str, Any]


def print_text(report: Json) -> None:
    """Print `report` (evals.run's) for a reader."""
    for w in report["worlds"]:
        print(f"== {w['world']}")
        for k, v in w["workflows"].items():
            if "error" in v:
                print(f"  {k}: FAILED {v['error']}")
                continue
            cal, rule = v["calibration"], v["registeredDomain"]
            print(
                f"  {k}: {v['items']} items, {v['entities']} entities: precision {v['precision']:.3f} "
                f"recall {v['recall']:.3f} F1 {v['f1']:.3f}; false merges {len(v['falseMerges'])}; "
                f"confidence error {cal['meanAbsError']:.3f} ({len(cal['overstated'])} overstated); "
                f"registered-domain rule F1 {rule['f1']:.3f}, {rule['falseMerges']} false merges"
            )
            for a, b in v["falseMerges"]:
                print(f"    false merge: {a} + {b}")
            for m in v.get("missed") or []:
                print(f"    missed: {m['entity']}: {' / '.join(m['pages'])}")
        _print_resolver(w)
        for name, check in (w.get("checks") or {}).items():
            if name == "qd.winnow explore" and "error" not in check:
                e, r = check["explore"], check["repeated"]
                print(
                    f"  {name}: exploring {e['niches']}/{e['of']} niches in {e['rounds']} rounds; "
                    f"repeated rounds {r['niches']}/{r['of']} in {r['rounds']}"
                )
                continue
            print(f"  {name}: {json.dumps(check, ensure_ascii=False)}")


def _print_resolver(w: Json) -> None:
    for engine, kinds in (w.get("resolver") or {}).items():
        for kind, v in kinds.items():
            rule = v["registeredDomain"]
            print(
                f"  resolver alone, {engine} items, {kind}: precision {v['precision']:.3f} recall "
                f"{v['recall']:.3f} F1 {v['f1']:.3f}; false merges {len(v['falseMerges'])}; "
                f"registered-domain rule F1 {rule['f1']:.3f}, {rule['falseMerges']} false merges"
            )
            for m in v.get("missed") or []:
                print(f"    missed: {m['entity']}: {' / '.join(m['pages'])}: {m['why']}")
