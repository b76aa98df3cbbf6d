"""Pairwise scores of a grouping against the truth, and the registered-domain rule it is compared with."""

from __future__ import annotations

import itertools
from typing import Any

Json = dict[str, Any]


def registered_domain_clusters(items: dict[str, Json]) -> list[list[str]]:
    """The one-line rule the resolver must never do worse than: items whose URLs share a registered
    domain (tldextract, bundled list, private suffixes off) are one entity; the rest alone."""
    import tldextract

    extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=False)
    by_domain: dict[str, list[str]] = {}
    alone: list[list[str]] = []
    for iid, item in items.items():
        url = str((item.get("properties") or {}).get("url") or "")
        ext = extract(url) if url else None
        if ext and ext.domain and ext.suffix:
            by_domain.setdefault(f"{ext.domain}.{ext.suffix}", []).append(iid)
        else:
            alone.append([iid])
    return [*by_domain.values(), *alone]


def pair_scores(clusters: list[list[str]], truth: dict[str, str], names: dict[str, str]) -> Json:
    """Pairwise precision / recall / F1 of `clusters` against `truth` (item id -> entity id)."""
    predicted = {tuple(sorted(p)) for c in clusters for p in itertools.combinations(set(c), 2)}
    actual = {(a, b) for a, b in itertools.combinations(sorted(truth), 2) if truth[a] == truth[b]}
    tp = len(predicted & actual)
    precision = tp / len(predicted) if predicted else 1.0
    recall = tp / len(actual) if actual else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    false = sorted(
        {
            tuple(sorted((names.get(truth[a], truth[a]), names.get(truth[b], truth[b]))))
            for a, b in predicted - actual
        }
    )
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "falseMerges": [list(p) for p in false],
        "missedPairs": len(actual - predicted),
    }


def reasons_check(result: Json) -> Json:
    """Whether a convergent.search result explains itself: every entity of n items carries n - 1
    merges each with a reason, and every pair in `keptApart` has a reason and sits in two entities.
    `lackOfEvidence` counts the pairs kept apart because the evidence for was too weak."""
    entities = [e["entity"] for e in result["intersection"]]
    groups = [[str(i) for i in e["itemIds"]] for e in entities]
    explained = all(
        len(e.get("mergeReasons") or []) == len(e["itemIds"]) - 1
        and all(isinstance(m.get("reason"), str) and m["reason"] for m in e.get("mergeReasons") or [])
        for e in entities
    )
    for u in result["unique"]:
        groups.extend([str(i) for i in ids] for ids in u.get("entityItemIds") or [])
    where = {i: k for k, g in enumerate(groups) for i in g}
    apart = result.get("keptApart") or []
    separate = all(
        p.get("reason") and where.get(str(p["items"][0]), -1) != where.get(str(p["items"][1]), -2)
        for p in apart
    )
    lack = sum(1 for p in apart if "not enough evidence" in str(p.get("reason")))
    return {"mergesExplained": explained, "keptApartSeparate": separate, "keptApart": len(apart),
            "lackOfEvidence": lack}  # fmt: skip
