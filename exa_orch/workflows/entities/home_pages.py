"""A name in another script on a company's own home page, read against a Latin name through the
site's label: the label is the brand the name in characters writes, whatever its reading (花王 at
kao.com/jp and "Kao"; 青岛啤酒 at tsingtao.com.cn and "Tsingtao Brewery", 啤酒 the brewery).
evidence.py asks it of two records beside a reading (glossary.agrees), profiles.py of a profile
page and the site it may be about."""

from __future__ import annotations

from exa_orch.workflows.entities.name_segments import RUN, segments
from exa_orch.workflows.entities.names import is_latin
from exa_orch.workflows.entities.records import Record
from exa_orch.workflows.entities.terms import FILLER, TRADE


def label_reads(x: Record, y: Record) -> str | None:
    """How `x`, named in another script on its site's home page, agrees with `y`'s Latin name
    through the site's label, or None: `y`'s whole name is the label (the whole name, not its first
    word: 中国医药集团 at sinopharm.com is not "Sinopharm Group"), or the label and the trade `x`'s
    name writes after its brand (`_brand_and_trade`)."""
    site = x.site
    if not (x.name and not is_latin(x.name) and site and site.home and y.clean):
        return None
    label = site.label.replace("-", "")
    if y.clean.replace(" ", "") == label:
        return f"{x.name} is on the home page of {site.domain}, whose label is {y.name}'s name"
    if _brand_and_trade(x.name, y.clean, label):
        return f"{x.name} is on the home page of {site.domain}, whose label {y.name} says, then its trade"
    return None


def _brand_and_trade(written: str, latin: str, label: str) -> bool:
    """A name in characters that is a brand of two or more and then its trade in terms (青岛啤酒:
    青岛, then 啤酒, beer or brewery), and a Latin name that is the site's label and those terms'
    English, one word each (Tsingtao Brewery). Never a group's or a holding company's word, which
    names another entity than the brand's company."""
    said = latin.split()
    if len(said) < 2 or said[0] != label:
        return False
    segs = [s for s in segments(written) if s.kind != FILLER]
    if not segs:
        return False
    brand, *trades = segs
    return (
        brand.kind == RUN
        and len(brand.text) >= 2
        and len(trades) == len(said) - 1
        and all(s.kind == TRADE and w in s.english for s, w in zip(trades, said[1:], strict=True))
    )
