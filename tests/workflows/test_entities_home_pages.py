"""A name in characters on a company's home page read through the site's label (home_pages.py):
the label is the brand, the characters after it the trade the Latin name says."""

from __future__ import annotations

from exa_orch.workflows import entities
from exa_orch.workflows.entities.home_pages import label_reads
from tests.workflows.entity_items import co


def _record(i: int, name: str, url: str, industry: str = "beer") -> entities.Record:
    return entities.record(i, co(str(i), name, url, "Harbin, China", industry))


def test_a_brand_in_characters_on_its_home_page_and_its_trade_are_the_label_and_the_trade() -> None:
    """雪岭啤酒 reads xuelingpijiu, nothing like "Sherling": the site's label says the brand, 啤酒 says
    the brewery, and the article and the home page are one company."""
    home = co("a", "雪岭啤酒", "https://www.sherling.com.cn/", "Harbin, China", "beer")
    wiki = co(
        "b", "Sherling Brewery", "https://en.wikipedia.org/wiki/Sherling_Brewery", "Harbin, China", "beer"
    )
    assert entities.resolve([home, wiki]).groups == [[0, 1]]
    said = label_reads(
        _record(0, "雪岭啤酒", "https://www.sherling.com.cn/"), _record(1, "Sherling Brewery", "")
    )
    assert said is not None and "then its trade" in said


def test_the_label_and_a_trade_the_characters_do_not_write_or_a_group_are_not_the_brand() -> None:
    home = _record(0, "雪岭啤酒", "https://www.sherling.com.cn/")
    # the trade the Latin name says is not 啤酒's
    assert label_reads(home, _record(1, "Sherling Tyres", "", "tires")) is None
    # a group is another entity than the brand's company, whatever the label
    group = _record(0, "雪岭集团", "https://www.sherling.com.cn/")
    assert label_reads(group, _record(1, "Sherling Group", "")) is None
    # a page deep in the site is not its owner's home page
    deep = _record(0, "雪岭啤酒", "https://www.sherling.com.cn/brands/lager")
    assert label_reads(deep, _record(1, "Sherling Brewery", "")) is None
    # a brand of one character is too little to stand for the label
    assert (
        label_reads(_record(0, "雪啤酒", "https://www.sherling.com.cn/"), _record(1, "Sherling Brewery", ""))
        is None
    )
