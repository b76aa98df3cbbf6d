"""Entity resolution, issue 37's second pass: brand TLDs, initials with the legal form, a parent's
page naming its unit's site, short forms of other languages, and what Agent rows state."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import sites
from exa_orch.workflows.entities.given_names import FORMS, SHORT_FORMS
from exa_orch.workflows.rows import props_of
from tests.workflows.entity_items import co as company
from tests.workflows.entity_items import weigh

Json = dict[str, Any]


def co(id: str, name: str, url: str, location: str | None = None, desc: str = "") -> Json:
    company = {"name": name, "location": location}
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def row(id: str, kind: str, name: str, url: str, description: str) -> Json:
    """An Agent row as the workflows hand it to the resolver (rows.as_item: name, url, description)."""
    return {
        "id": id,
        "properties": props_of({"type": kind, "url": url, "description": description, "name": name}),
    }


def apart(a: Json, b: Json) -> str:
    return entities.compare(entities.record(0, a), entities.record(1, b)).why_apart


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (co("a", "Google LLC", "https://about.google/"), co("b", "Google", "https://www.google.com/"),
         "about.google is under the brand's own TLD .google, google.com its name"),
        (co("a", "Honda", "https://global.honda/en/", "Tokyo, Japan"), co("b", "Honda", "https://www.honda.co.jp/", "Tokyo, Japan"),
         "same name on country domains global.honda / honda.co.jp, and both say they are based in japan"),
        # Iceland's and Italy's suffixes are countries' as Greece's is, not vanity names like .io
        (co("a", "Frostvik", "https://www.frostvik.com/", "Reykjavik, Iceland"), co("b", "Frostvík hf.", "https://www.frostvik.is/um-okkur", "Reykjavik, Iceland"),
         "same name on country domains frostvik.com / frostvik.is, and both say they are based in iceland"),
        (co("a", "Brunelli Tessuti", "https://www.brunellitessuti.com/", "Prato, Italy"), co("b", "Brunelli Tessuti S.p.A.", "https://www.brunellitessuti.it/azienda", "Prato, Italy"),
         "same name on country domains brunellitessuti.com / brunellitessuti.it, and both say they are based in italy"),
        (co("a", "Taiwan Semiconductor Manufacturing Company Limited", "https://www.tsmc.com/english"),
         co("b", "TSMC", "https://www.tsmc.com/english/aboutTSMC"), "TSMC is the initials of Taiwan Semiconductor"),
        (co("a", "Tata Consultancy Services", "https://www.tata.com/business/tcs"), co("b", "TCS", "https://www.tcs.com/"),
         "Tata Consultancy Services on tata.com/business/tcs, a page its path names tcs.com (abbreviation)"),
        # the path's last segment a file (brands/quorvel.html), named as the page is
        (co("a", "QUORVEL", "https://www.velanor-group.com/en/about/brands/quorvel.html"), co("b", "QUORVEL", "https://www.quorvel.com/en-corporate/"),
         "QUORVEL on velanor-group.com/about/brands/quorvel.html, a page its path names quorvel.com"),
    ],
)  # fmt: skip
def test_brand_tlds_initials_and_a_page_naming_the_site_join_with_their_reason(
    a: Json, b: Json, reason: str
) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], apart(a, b)
    assert reason in res.reasons[0][0]["reason"]


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        (  # a subsidiary on another country's domain of the brand's TLD label
            co("a", "Honda", "https://global.honda/en/", "Tokyo, Japan"),
            co("b", "Honda", "https://www.honda.com/", "Torrance, United States"),
            "different countries (japan / united states)",
        ),
        (  # an open TLD is nobody's brand: a name under it says nothing of the other site's owner
            co("a", "Shop", "https://acme.shop/"), co("b", "Shop", "https://shop.com/"),
            "different registered domains",
        ),
        (  # the path names the other's site, but the names are not one name
            co("a", "Tata Sons", "https://www.tata.com/business/tcs"), co("b", "TCS", "https://www.tcs.com/"),
            "not enough evidence",
        ),
    ],
)  # fmt: skip
def test_a_brand_tld_or_a_path_without_one_name_or_one_country_stays_apart(
    a: Json, b: Json, why: str
) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0], [1]]
    said = apart(a, b)
    if "registered domains" in why:
        assert entities.conflict(entities.record(0, a), entities.record(1, b), lambda x, y: False) == (
            "different registered domains (acme.shop / shop.com)"
        )
    else:
        assert why in said


def test_the_short_forms_table_has_sources_and_reads_both_ways() -> None:
    assert all(r.source and r.full for r in SHORT_FORMS)
    assert "josep" in FORMS["pep"] and "pep" in FORMS["josep"] and "lionel" in FORMS["leo"]
    for a, b in (
        ("Pep Guardiola", "Josep Guardiola"),
        ("Leo Messi", "Lionel Messi"),
        ("Kuba Błaszczykowski", "Jakub Błaszczykowski"),  # Polish
        ("Lucho Herrera", "Luis Herrera"),  # Spanish
        ("Davit Mkheidze", "David Mkheidze"),  # Georgian, and its English form
        ("Mikheil Mkheidze", "Mikhail Mkheidze"),  # Georgian, and its Russian form
        ("Pino Lattarulo", "Giuseppe Lattarulo"),  # Italian
        ("Ciccio Lattarulo", "Francesco Lattarulo"),  # Sicilian
    ):
        weight, reason = entities.people.name_evidence(a, b)
        assert weight == 6.5 and "are one name" in reason, reason
    assert "are one name" not in entities.people.name_evidence("Pepe Reina", "Josep Reina")[1]  # Pepe is José


def test_agent_rows_state_the_role_and_employer_and_another_script_is_not_compared() -> None:
    comma = entities.record(
        0, row("a", "person", "Sarah Chen", "https://x.dev/sc", "Sarah Chen, Engineer at Notion.")
    )
    assert comma.employer == "notion" and comma.facts["title"] == "engineer"
    dr = entities.record(
        0,
        row(
            "a",
            "person",
            "Dr. Sarah Chen",
            "https://x.dev/sc",
            "Dr. Sarah Chen, Engineer at Notion Labs, Inc..",
        ),
    )
    assert dr.employer == "notion labs"
    # "X, T at E" only after the person's own name: another sentence's comma says nothing of them
    elsewhere = entities.record(
        0, row("a", "person", "Jane Roe", "https://x.dev/jr", "Acme grew. Its CEO, Bob Lee at Foo.")
    )
    assert elsewhere.employer == ""
    said = entities.record(
        0,
        row("a", "person", "Lei Jun", "https://mi.com/lj", "Lei Jun is Founder, Chairman and CEO at Xiaomi."),
    )
    assert said.employer == "xiaomi" and said.facts["title"] == "founder chairman and ceo"
    son = row(
        "a",
        "person",
        "Masayoshi Son",
        "https://group.softbank/en/about/officer/son",
        "Masayoshi Son (孫正義) is Chief Executive Officer at SoftBank Group.",
    )
    kanji = row(
        "b",
        "person",
        "孫正義",
        "https://ja.wikipedia.org/wiki/孫正義",
        "孫正義 is Chief Executive Officer at ソフトバンクグループ.",
    )
    other = entities.record(1, kanji)
    assert other.employer and not other.employer_latin
    res = entities.resolve([son, kanji])
    assert res.groups == [[0, 1]], apart(son, kanji)
    assert "also written" in res.reasons[0][0]["reason"] and "same title" in res.reasons[0][0]["reason"]
    # two people of one name at two employers, both in Latin letters: apart, and why
    tencent = row(
        "a", "person", "Li Wei", "https://linkedin.com/in/li-wei-1", "Li Wei, Vice President at Tencent."
    )
    baidu = row("b", "person", "Li Wei", "https://linkedin.com/in/li-wei-2", "Li Wei, Engineer at Baidu.")
    assert entities.resolve([tencent, baidu]).groups == [[0], [1]]
    assert "different employers (tencent / baidu)" in apart(tencent, baidu)
    # "was ... at" is a former employer: not read as the current one
    former = entities.record(
        0, row("a", "person", "Jane Roe", "https://x.dev/jr", "Jane Roe was CFO at Acme.")
    )
    assert former.employer == "" and "title" not in former.facts


@pytest.mark.parametrize(
    ("url", "profile"),
    [
        ("https://www.bloomberg.com/profile/company/JFC:PM", "bloomberg.com/profile/company/jfc:pm"),
        ("https://tracxn.com/d/companies/swiggy/__x", "tracxn.com/d/companies/swiggy"),
        ("https://www.linkedin.com/company/klarna/about", "linkedin.com/company/klarna"),
        ("https://medium.com/swiggy-bytes", "medium.com/swiggy-bytes"),
        ("https://www.linkedin.com/company/", None),  # kind words alone: the host's page, nobody's
        # as written: 周寅 and 邹音 both read "zhouyin", two articles
        ("https://zh.wikipedia.org/wiki/周寅", "zh.wikipedia.org/wiki/周寅"),
        ("https://zh.wikipedia.org/wiki/Zhou_Yin", "zh.wikipedia.org/wiki/zhou_yin"),
    ],
)
def test_a_profile_is_the_segment_after_every_kind_word_of_its_host(url: str, profile: str | None) -> None:
    site = sites.site(url)
    assert site is not None and site.profile == profile


def test_companies_profiled_on_one_host_under_two_kind_words_stay_apart() -> None:
    # bloomberg.com/profile/company/TICKER: two kind words before whose profile it is. Read as one
    # kind word, every company there had the profile "bloomberg.com/profile/company": one entity.
    a = co(
        "a",
        "Jollibee Foods Corporation",
        "https://www.bloomberg.com/profile/company/JFC:PM",
        "Pasig, Philippines",
    )
    b = co(
        "b", "Vestas Wind Systems A/S", "https://www.bloomberg.com/profile/company/VWS:DC", "Aarhus, Denmark"
    )
    c = co(
        "c", "Cemex SAB de CV", "https://www.bloomberg.com/profile/company/CEMEXCPO:MM", "Monterrey, Mexico"
    )
    assert entities.resolve([a, b, c]).groups == [[0], [1], [2]]


@pytest.mark.parametrize(
    ("text", "alias"),
    [
        ("Larsen & Toubro Limited, commonly known as L&T, is an Indian conglomerate.", "l and t"),
        ("Saudi Arabian Oil Company, known as Saudi Aramco, is a petroleum company.", "saudi aramco"),
        ("Fomento Economico Mexicano, known simply as FEMSA, runs OXXO stores.", "femsa"),
    ],
)
def test_a_name_the_text_says_the_company_is_known_as_is_its_other_name(text: str, alias: str) -> None:
    name = text.split(",")[0]
    rec = entities.record(0, co("a", name, "https://example.com/", desc=text))
    assert alias in rec.aliases and "known" in rec.aliases[alias]


def test_one_name_written_with_two_languages_joining_words_is_one_name() -> None:
    from exa_orch.workflows.entities.names import JOINING_WORD, names_agree

    # "Power Corporation of Canada" on its site, "Power Corporation du Canada" on fr.wikipedia.org
    assert names_agree("banque nationale du canada", "banque nationale of canada") == JOINING_WORD
    assert names_agree("bank of china", "china bank") != JOINING_WORD  # the words' order is the name's
    assert names_agree("banco de chile", "banco chile") == JOINING_WORD


@pytest.mark.parametrize(
    ("short", "long_"),
    [("velkor pe", "velkor private equity"), ("brasko ih", "brasko investments holdings")],
)
def test_a_name_writing_its_last_words_as_two_initials_is_an_abbreviation(short: str, long_: str) -> None:
    from exa_orch.workflows.entities.names import names_agree

    # "IMM PE" / "IMM Private Equity", "ZCCM-IH" / "ZCCM Investments Holdings"
    assert names_agree(short, long_) == "abbreviation"
    assert names_agree("velkor pe", "velkor energy") is None  # initials of no words it writes


def test_initials_run_into_the_last_word_are_an_abbreviation() -> None:
    """ "GTBank" / "Guaranty Trust Bank": the initials of the first words written into the last."""
    from exa_orch.workflows.entities.names import names_agree

    assert names_agree("vkbank", "velkor kestrel bank") == "abbreviation"
    assert names_agree("vbank", "velkor bank") is None  # one initial: a name of its own
    assert names_agree("vxbank", "velkor kestrel bank") is None  # not its initials
    # and the two are blocked together, so the bank's site and its encyclopedia article are one
    at = "Lagos, Nigeria"
    site = company("a", "VKBank", "https://www.vkbank.com/", at, "Banking")
    article = company(
        "b", "Velkor Kestrel Bank", "https://en.wikipedia.org/wiki/Velkor_Kestrel_Bank", at, "Banking"
    )
    assert entities.resolve([site, article]).groups == [[0, 1]]


def test_a_trade_word_written_as_its_start_is_a_shortened_word() -> None:
    from exa_orch.workflows.entities.names import names_agree

    # "Hayat Pharma" / "Hayat Pharmaceutical": a trade's word written short by its start
    assert names_agree("velkor pharma", "velkor pharmaceutical") == "abbreviation"
    assert names_agree("velkor pharm", "velkor pharmaceutical") == "abbreviation"
    assert names_agree("velkor pharmaceutical", "velkor pharmacy") is None  # not a start three letters short


def test_one_name_run_together_on_two_news_pages_is_one_name() -> None:
    # "El Fouladh" in one paper, "ElFouladh" in another: neither the company's site
    where, trade = "Menzel Bourguiba, Tunisia", "Steel"
    a = company(
        "a",
        "El Vorladh",
        "https://africanwire.com/kais-saied-la-societe-el-vorladh-ne-sera-pas-cedee/",
        where,
        trade,
    )
    b = company("b", "ElVorladh", "https://allnewsafrica.com/stories/202312280335.html", where, trade)
    assert weigh(a, b).joins


def test_one_names_words_in_another_order_are_one_name() -> None:
    from exa_orch.workflows.entities.names import WORDS_REORDERED, names_agree

    # "Carlsberg Myanmar" on its site, "Myanmar Carlsberg" in a trade paper
    assert names_agree("velkor myanmar", "myanmar velkor") == WORDS_REORDERED
    assert names_agree("velkor myanmar", "myanmar velkor breweries") != WORDS_REORDERED
    site = company("a", "Velkor Myanmar", "https://www.velkormyanmar.com/", "Yangon, Myanmar", "Beer")
    url = "https://www.brewnews.com/en/international-report/asia/622708-velkor-opens-a-brewery"
    news = company("b", "Myanmar Velkor", url, "Yangon, Myanmar", "Beer")
    assert weigh(site, news).joins


def test_a_listing_named_by_its_isin_and_an_umlaut_written_out_are_the_company() -> None:
    """An exchange's page for a listed company (an ISIN in its query) is about that company, never
    the exchange's; a ticker's name writes Zürich as "Zuerich"."""
    own = company("o", "Seilbahnen Zürich AG", "https://www.seilbahnen-zuerich.ch/de/unternehmen", "Zürich, Switzerland",
             "cable cars")  # fmt: skip
    listing = company("l", "Seilbahnen Zuerich AG",
                 "https://www.boerse.example/en/stocks/share-detail/?ISIN=CH0000000001", "Zürich, Switzerland",
                 "cable cars")  # fmt: skip
    ev = weigh(own, listing)
    assert ev.joins
    assert any("equal names but for umlauts written out" in r for _, r in ev.for_)
    other = company("x", "Bergbahnen Basel AG",
               "https://www.boerse.example/en/stocks/share-detail/?ISIN=CH0000000002", "Zürich, Switzerland",
               "cable cars")  # fmt: skip
    assert not weigh(listing, other).joins  # two listings on one exchange: two companies


def test_two_articles_whose_titles_read_alike_in_latin_letters_are_two_profiles() -> None:
    writer = entities.record(
        0, row("a", "person", "周寅", "https://zh.wikipedia.org/wiki/周寅", "周寅，作家。")
    )
    general = entities.record(
        1, row("b", "person", "舟银", "https://zh.wikipedia.org/wiki/舟银", "舟银，将军。")
    )
    ev = entities.compare(writer, general)
    assert not any("same profile" in r for _, r in ev.for_)
    assert "different profiles on zh.wikipedia.org" in ev.against


def test_a_page_deep_in_a_group_s_site_under_a_unit_s_name_is_the_unit() -> None:
    """The unit's name adds a word to the core of the group's (Holdings aside), on a page its
    initials name, though the group's whole name is the longer."""
    group = company(
        "a", "Tarvik Holdings Limited", "https://tarvikgroup.com/", "Chennai, India", "Auto parts"
    )
    unit = company(
        "b", "Tarvik (Madras) Limited", "https://tarvikgroup.com/tml/", "Chennai, India", "Auto parts"
    )
    ev = weigh(group, unit)
    assert not ev.joins
    assert any("a unit of the site's owner" in r for r in ev.against)


def test_a_page_adding_a_word_to_the_short_name_the_owner_states_is_a_unit() -> None:
    """A plant's page on its owner's site under the owner's stated short name and a word its path
    names ("QAZKIM Karbamid" at .../page/karbamid-zavodu), beside the owner's page under its full
    name that states the short one ("... (QAZKIM)"): the unit, not the owner."""
    at, trade = "Qazax, Azerbaijan", "Chemicals"
    owner = company(
        "a", "Qazax Dövlət Kimya Şirkəti", "https://www.qazkim.az/az/page/haqqimizda", at, trade,
        "Qazax Dövlət Kimya Şirkəti (QAZKIM) kimya məhsulları istehsal edir.",
    )  # fmt: skip
    unit = company("b", "QAZKIM Karbamid", "https://www.qazkim.az/az/page/karbamid-zavodu", at, trade)
    ev = weigh(owner, unit)
    assert not ev.joins
    assert any("a unit of the site's owner" in r for r in ev.against)


def test_a_page_deep_in_the_site_whose_name_in_another_script_reads_as_more_is_a_unit() -> None:
    """A subsidiary's page deep in its parent's site under a name in katakana that reads as the
    parent's and more (株式会社カワセミミュージックジャパン, "kawasemi" and "music japan") is the unit, not
    the parent; the site's home page in katakana under the name alone is the parent."""
    at, trade = "Hamamatsu, Japan", "Musical instruments"
    parent = company("a", "Kawasemi Corporation", "https://www.kawasemi.com/en/about/profile/", at, trade)
    unit = company(
        "b", "株式会社カワセミミュージックジャパン", "https://jp.kawasemi.com/about/kmj/", at, trade
    )
    ev = weigh(parent, unit)
    assert not ev.joins
    assert any("a unit of the site's owner" in r for r in ev.against)
    assert weigh(parent, company("c", "カワセミ", "https://jp.kawasemi.com/", at, trade)).joins


def test_two_reports_of_one_name_in_two_scripts_in_one_country_and_trade_are_one_company() -> None:
    """Two news articles, no site or profile either, under one name read whole in two scripts
    (Арлан Эйрлайнс / Arlan Airlines), both of Kazakhstan and airlines: one company, as two reports
    under one Latin name are. Another trade keeps them apart; so does a reading that agrees with
    the other's start only (Арлан Логистикс is not Arlan Airlines)."""
    at = "Almaty, Kazakhstan"
    latin = company(
        "a", "Arlan Airlines", "https://daryo.uz/en/2025/03/01/arlan-airlines-fleet/", at, "Airline"
    )
    read = company(
        "b", "Арлан Эйрлайнс", "https://kapital.kz/business/12345/arlan-eirlains.html", at, "Airline"
    )
    assert weigh(latin, read).joins
    other_trade = company(
        "b", "Арлан Эйрлайнс", "https://kapital.kz/business/12345/arlan.html", at, "Catering"
    )
    assert not weigh(latin, other_trade).joins
    in_part = company("b", "Арлан Логистикс", "https://kapital.kz/business/12346/arlan.html", at, "Airline")
    assert not weigh(latin, in_part).joins


@pytest.mark.parametrize(
    ("a", "b", "one"),
    [
        ("Kühl AG", "Kuehl AG", True),  # four letters: an umlaut written out before a consonant
        ("Sträb", "Straeb", True),
        ("Blue", "Blu", False),  # an e at a word's end is a word's own letter
    ],
)
def test_a_short_names_umlaut_written_out_is_one_name(a: str, b: str, one: bool) -> None:
    from exa_orch.workflows.entities.names import clean_name, names_agree

    assert (names_agree(clean_name(a), clean_name(b)) == "equal names but for umlauts written out") is one


def test_a_russian_initialism_takes_a_letter_of_each_stem_of_a_compound() -> None:
    """ВЭМК of "Велорский электрометаллургический комбинат": электро-металлургический gives two
    letters, as Russian and Ukrainian industry names' initialisms write them; a stem the name does
    not join with "o" or "e" gives none (ВТПЗ is no "Велорский тракторный завод")."""
    from exa_orch.workflows.entities.names import clean_name, names_agree

    def agree(short: str, long_: str) -> str | None:
        return names_agree(clean_name(short), clean_name(long_))

    assert agree("ВЭМК", "Велорский электрометаллургический комбинат") == "abbreviation"
    assert agree("ВНТЗ", "Велорский новотрубный завод") == "abbreviation"
    assert agree("ВТПЗ", "Велорский трубопрокатный завод") == "abbreviation"
    assert agree("ВТПЗ", "Велорский тракторный завод") is None
    assert agree("ВЭМК", "Велорский электрический комбинат") is None
    at = "Velorsk, Russia"
    site = company("a", "ВЭМК", "https://www.vemk.ru/", at, "Steel")
    article = company("b", "Велорский электрометаллургический комбинат",
                      "https://ru.wikipedia.org/wiki/Велорский_электрометаллургический_комбинат", at, "Steel")  # fmt: skip
    assert weigh(site, article).joins


def test_turkish_and_nordic_and_are_left_out_of_initials() -> None:
    from exa_orch.workflows.entities.names import names_agree

    assert names_agree("vke", "velkor ve kestrel enerji") == "abbreviation"  # Turkish ve
    assert names_agree("vkb", "velkor og kestrel bank") == "abbreviation"  # Norwegian og
