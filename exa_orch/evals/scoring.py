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
