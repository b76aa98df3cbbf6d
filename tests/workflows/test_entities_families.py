"""Entity resolution, issue 37's third pass: one company on several sites (label stems, sites named
for their company, an app's store pages, a page about it on another's site), a page that begins
with the other's full name, plurals, and a country read from a sentence that goes on."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities.families import stem
from exa_orch.workflows.entities.names import legal_forms
from exa_orch.workflows.entities.sites import page_site
from exa_orch.workflows.rows import props_of

Json = dict[str, Any]


def co(
    id: str, name: str, url: str, location: str | None = None, desc: str = "", industry: str | None = None
) -> Json:
    company = {"name": name, "location": location, "industry": industry}
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def row(id: str, name: str, url: str, description: str) -> Json:
    """An Agent row as the workflows hand it to the resolver: name, url and description only."""
    props = props_of({"type": "company", "url": url, "description": description, "name": name})
    return {"id": id, "properties": props}


def apart(a: Json, b: Json) -> str:
    return entities.compare(entities.record(0, a), entities.record(1, b)).why_apart


def test_a_label_loses_its_corporate_and_legal_affixes_but_not_letters_of_its_name() -> None:
    assert [stem(x) for x in ("theunilevercompany", "sgs-sa", "arcelikkurumsal", "bmwgroup")] == [
        "unilever", "sgs", "arcelik", "bmw",
    ]  # fmt: skip
    assert [stem(x) for x in ("mesa", "visa", "sas", "getnotion")] == ["mesa", "visa", "sas", "notion"]
    assert stem("getnotion", prefixes=False) == "getnotion"


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (co("a", "Unilever", "https://www.unilever.com/", "London, United Kingdom"),
         co("b", "Unilever PLC", "https://www.theunilevercompany.com/", "London, United Kingdom"),
         "sites of one stem unilever.com / theunilevercompany.com (equal names), and both say they are based in united kingdom"),
        (co("a", "Arçelik", "https://www.arcelik.com.tr/", "Istanbul, Turkey"),
         co("b", "Arçelik Ticaret A.Ş.", "https://www.arcelikkurumsal.com/", "Istanbul, Turkey"),
         "(one name adds only 'ticaret'), and both say they are based in turkey"),
        (co("a", "SGS", "https://www.sgs.ch/", "Geneva, Switzerland"),
         co("b", "Société Générale de Surveillance SA", "https://www.sgs-sa.com/", "Geneva, Switzerland"),
         "sites of one stem sgs.ch / sgs-sa.com (abbreviation)"),
        (co("a", "Korean Air Lines", "https://www.koreanairlines.com/", "Seoul, South Korea"),
         co("b", "KAL", "https://www.kal.com/", "Seoul, South Korea"),
         "sites of each named for its company koreanairlines.com / kal.com (abbreviation), and both say they are based in south korea"),
        (co("a", "Finnair", "https://www.flyfinnair.com/", "Helsinki, Finland", industry="Airlines"),
         co("b", "Finnair Group", "https://www.finnairgroup.com/", "Helsinki, Finland", industry="Airlines"),
         "both based in finland and in airlines"),
    ],
)  # fmt: skip
def test_one_company_on_sites_of_one_stem_joins_with_its_corroboration(a: Json, b: Json, reason: str) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], apart(a, b)
    assert reason in res.reasons[0][0]["reason"]


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        (  # one stem, nothing but the names: a label is a brand's
            co("a", "Unilever", "https://www.unilever.com/"), co("b", "Unilever", "https://www.theunilevercompany.com/"),
            "not enough evidence",
        ),
        (  # a country's domain: one industry is not one owner
            co("a", "Arçelik", "https://www.arcelik.ch/", industry="Appliances"),
            co("b", "Arçelik", "https://www.arcelikkurumsal.com/", industry="Appliances"), "not enough evidence",
        ),
        (  # one stem in two countries
            co("a", "Arçelik", "https://www.arcelik.ch/", "Zürich, Switzerland"),
            co("b", "Arçelik", "https://www.arcelikkurumsal.com/", "Istanbul, Turkey"), "different countries",
        ),
        (  # a verb before the name is any company's: one country alone is not enough
            co("a", "Notion", "https://www.getnotion.com/", "Boston, United States", industry="Smart home"),
            co("b", "Notion", "https://www.notion.com/", "San Francisco, United States", industry="Software"),
            "not enough evidence",
        ),
        (  # a word that names a product line is not a trade word: two companies
            co("a", "Arçelik", "https://www.arcelik.com/", "Istanbul, Turkey"),
            co("b", "Arçelik Labs", "https://www.arceliklabs.com/", "Istanbul, Turkey"), "not enough evidence",
        ),
        (  # two letters of initials: many companies' (American Airlines and Alaska Airlines both AA)
            co("a", "Alaska Airlines", "https://www.alaskaairlines.com/", "Seattle, United States", industry="Airlines"),
            co("b", "AA", "https://www.aa.com/", "Fort Worth, United States", industry="Airlines"), "not enough evidence",
        ),
        (  # three letters of initials and one industry only
            co("a", "Korean Air Lines", "https://www.koreanairlines.com/", industry="Airlines"),
            co("b", "KAL", "https://www.kal.com/", industry="Airlines"), "not enough evidence",
        ),
        (  # initials on sites named for each, without a word on who they are
            row("a", "Korean Air Lines", "https://www.koreanairlines.com/", "Korean Air Lines flies to 60 cities."),
            row("b", "KAL", "https://www.kal.com/", "KAL makes aluminium ladders."), "not enough evidence",
        ),
    ],
)  # fmt: skip
def test_sites_of_one_stem_without_corroboration_stay_apart(a: Json, b: Json, why: str) -> None:
    assert entities.resolve([a, b]).groups == [[0], [1]]
    assert why in apart(a, b)


def test_an_apps_store_pages_join_its_developers_site_through_the_play_package() -> None:
    site = co("s", "Spotify", "https://www.spotify.com/", "Stockholm, Sweden")
    play = co(
        "p", "Spotify: Music and Podcasts", "https://play.google.com/store/apps/details?id=com.spotify.music"
    )
    apple = co(
        "i",
        "Spotify - Music and Podcasts",
        "https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580",
    )
    res = entities.resolve([site, play, apple])
    assert res.groups == [[0, 1, 2]]
    said = " | ".join(r["reason"] for r in res.reasons[0])
    assert "Play package com.spotify.music is spotify.com reversed" in said
    assert "one app title on two stores" in said
    # another developer's package, or another app of the same brand name: apart
    other = co("o", "Spotify Clone", "https://play.google.com/store/apps/details?id=com.example.spotifyclone")
    assert entities.resolve([site, other]).groups == [[0], [1]]
    lite = co("l", "Spotify Lite", "https://apps.apple.com/us/app/spotify-lite/id1")
    assert entities.resolve([play, lite]).groups == [[0], [1]]
    # an app named for one of the company's products, its package the company's domain reversed
    study = co("c", "Chegg Study - Homework Help", "https://play.google.com/store/apps/details?id=com.chegg")
    assert entities.resolve([co("s", "Chegg", "https://www.chegg.com/"), study]).groups == [[0, 1]]
    assert entities.resolve([co("s", "Cheggers", "https://www.chegg.com/"), study]).groups == [[0], [1]]
    # an app titled by its initials, then the company's name after a dash
    bank = co("b", "First Ardent Bank", "https://www.fabbank.com/")
    app = co(
        "a", "FAB – First Ardent Bank", "https://play.google.com/store/apps/details?id=com.fabbank.mobile"
    )
    assert entities.resolve([bank, app]).groups == [[0, 1]]


def test_a_page_about_a_company_on_anothers_site_joins_the_site_its_name_spells() -> None:
    page = co("a", "Swire Properties", "https://www.swire.com/en/our-businesses/properties")
    for home in ("https://www.swireproperties.com/", "https://www.swprops.com/"):
        res = entities.resolve([page, co("b", "Swire Properties", home)])
        assert res.groups == [[0, 1]]
        assert "a page it names, and on its own site" in res.reasons[0][0]["reason"]
    # a site whose label the name does not spell, or a page its path does not name: apart
    assert entities.resolve([page, co("b", "Swire Properties", "https://www.cathay.com/")]).groups == [
        [0],
        [1],
    ]
    deeper = co("a", "Swire Properties", "https://www.swire.com/en/news/2024")
    assert entities.resolve(
        [deeper, co("b", "Swire Properties", "https://www.swireproperties.com/")]
    ).groups == [
        [0],
        [1],
    ]


def test_on_one_site_a_page_beginning_with_the_others_full_name_or_a_plural_apart_is_one_company() -> None:
    bofa = co(
        "a",
        "BofA",
        "https://www.bankofamerica.com/about/",
        desc="Bank of America Corporation, a bank, is based in Charlotte.",
    )
    corp = co("b", "Bank of America Corporation", "https://investor.bankofamerica.com/")
    res = entities.resolve([bofa, corp])
    assert res.groups == [[0, 1]], apart(bofa, corp)
    assert "BofA's page is about Bank of America Corporation" in res.reasons[0][0]["reason"]
    # a page that names the record after the subject, or begins with another name: apart
    for name, url, said in (
        ("Jio Platforms", "jio", "Bank of America Corporation, the parent of Jio Platforms, is a bank."),
        ("Merrill", "merrill", "Merrill Lynch is the wealth arm of Bank of America."),
    ):
        page = co("c", name, f"https://www.bankofamerica.com/{url}/", desc=said)
        assert entities.resolve([page, corp]).groups == [[0], [1]], name
    cars = co("a", "Jaguar Cars", "https://www.jaguar.com/")
    car = co("b", "Jaguar Car Ltd", "https://www.jaguar.com/investors")
    assert entities.resolve([cars, car]).groups == [[0, 1]]
    assert "one name, but for a plural" in entities.resolve([cars, car]).reasons[0][0]["reason"]


def test_a_country_is_read_from_a_sentence_that_goes_on_after_it() -> None:
    r = entities.record(
        0,
        row("a", "Volvo", "https://volvo.example/", "Volvo is based in Gothenburg, Sweden, owned by Geely."),
    )
    assert r.country == "sweden"
    assert entities.make(0, "x", "company", "X", location="london, uk").country == "united kingdom"


def test_an_app_named_as_the_company_is_joins_only_where_both_say_one_country() -> None:
    site = co("s", "Lyft, Inc.", "https://www.lyft.com/", "San Francisco, United States")
    app = co("a", "Lyft", "https://apps.apple.com/us/app/lyft/id529379082", "San Francisco, United States")
    res = entities.resolve([site, app])
    assert res.groups == [[0, 1]]
    assert (
        "the app Lyft is named as Lyft, Inc. is, and both say they are based in united states"
        in res.reasons[0][0]["reason"]
    )
    elsewhere = co("a", "Lyft", "https://apps.apple.com/us/app/lyft/id529379082", "Toronto, Canada")
    nowhere = co("a", "Lyft", "https://apps.apple.com/us/app/lyft/id529379082")
    for other in (elsewhere, nowhere):
        assert entities.resolve([site, other]).groups == [[0], [1]]


@pytest.mark.parametrize(
    ("desc", "other", "url"),
    [
        ("3M, formerly Minnesota Mining and Manufacturing Company, is based in Saint Paul.",
         "Minnesota Mining and Manufacturing Company", "https://www.mmm.example/"),
        ("3M (Minnesota Mining and Manufacturing, now 3M) makes tape.",
         "Minnesota Mining and Manufacturing", "https://www.mmm.example/"),
        ("3M, which changed its name from Minnesota Mining and Manufacturing in 2002, makes tape.",
         "Minnesota Mining and Manufacturing", "https://www.mmm.example/"),
    ],
)  # fmt: skip
def test_a_former_name_joined_by_and_or_of_and_the_x_now_y_and_changed_its_name_cues(
    desc: str, other: str, url: str
) -> None:
    a, b = co("a", "3M", "https://www.3m.com/", desc=desc), co("b", other, url)
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], apart(a, b)
    assert "3M names Minnesota Mining" in res.reasons[0][0]["reason"]


def test_an_owner_named_with_its_holding_word_is_the_owner_and_a_legal_lead_word_is_one_name() -> None:
    parent = co("a", "Barclays", "https://www.barclays.com/", "London, United Kingdom")
    child = co("b", "Barclays UK", "https://www.barclays.co.uk/", "London, United Kingdom",
               desc="Barclays UK, a subsidiary of Barclays Holdings plc, is a bank.")  # fmt: skip
    assert entities.resolve([parent, child]).groups == [[0], [1]]
    assert "names Barclays as its owner" in apart(parent, child)
    # a group of the record's own name is its own ("Emirates, part of The Emirates Group"): one entity
    said = "Emirates is an airline based in Dubai, United Arab Emirates, part of The Emirates Group."
    airline = co("a", "Emirates", "https://www.emirates.com/", "Dubai, United Arab Emirates", desc=said)
    group = co("b", "The Emirates Group", "https://www.theemiratesgroup.com/", "Dubai, United Arab Emirates")
    page = co("c", "Emirates", "https://www.emirates.com/ae/english/", "Dubai, United Arab Emirates")
    assert entities.resolve([airline, group, page]).groups == [[0, 1, 2]]
    philips = co("a", "Philips", "https://www.philips.com/", "Amsterdam, Netherlands")
    legal = co("b", "Koninklijke Philips N.V.", "https://www.philipsgroup.com/", "Amsterdam, Netherlands")
    assert entities.resolve([philips, legal]).groups == [[0, 1]]
    assert "one name adds only 'koninklijke'" in entities.resolve([philips, legal]).reasons[0][0]["reason"]
    siemens = co("a", "Siemens", "https://www.siemens.com/", "Munich, Germany")
    joined = co("b", "Siemens AG", "https://www.siemensag.com/", "Munich, Germany")
    investors = co("c", "Siemens", "https://www.siemensinvestor.com/", "Munich, Germany")
    assert entities.resolve([siemens, joined, investors]).groups == [[0, 1, 2]]


def test_a_subsidiarys_page_on_its_parents_site_joins_its_own_site() -> None:
    # the path's last segment names it, but for its legal form ("tiffany-co"); its own site is named
    # for it, or for it with a group's word (hudsongroup.com)
    def joins(a: Json, b: Json) -> bool:
        return entities.compare(entities.record(0, a), entities.record(1, b)).joins

    where, trade = "New York, United States", "Jewellery"
    lvmh = co("a", "Tiffany & Co.", "https://www.lvmh.com/en/our-maisons/watches-jewelry/tiffany-co", where,
              industry=trade)  # fmt: skip
    assert joins(lvmh, co("b", "Tiffany & Co.", "https://www.tiffany.com/", where, industry=trade))
    where, trade = "East Rutherford, United States", "Travel retail"
    avolta = co("c", "Hudson", "https://www.avolta.com/en/our-brands/hudson", where, industry=trade)
    assert joins(avolta, co("d", "Hudson", "https://www.hudsongroup.com/", where, industry=trade))


@pytest.mark.parametrize(
    ("written", "clean"),
    [("Vinhomes JSC", "vinhomes"), ("Vinhomes Joint Stock Company", "vinhomes"), ("PJSC Lukoil", "lukoil"),
     ("PT Adaro Andalan Indonesia Tbk", "adaro andalan indonesia"),
     # the Gulf's shareholding companies; forms in Cyrillic, Georgian and Vietnamese before the name
     ("Burgan Bank K.P.S.C.", "burgan bank"), ("Ahli Bank Q.P.S.C.", "ahli bank"), ("Omantel SAOG", "omantel"),
     ("Pesquera Velkor S.A.C.", "pesquera velkor"),  # Peru's closed sociedad anónima
     ("АО «Казахтелеком»", "kazakhtelekom"), ("Công ty Cổ phần FPT", "fpt"), ("CTCP Vĩnh Hoàn", "vinh hoan"),
     ("A. O. Smith", "a o smith"), ("Tenaga Nasional Berhad", "tenaga nasional"),
     ("Interconexión Eléctrica S.A. E.S.P.", "interconexion electrica"), ("Kaspi.kz AO", "kaspi kz"), ("Coca-Cola İçecek (CCI)", "coca cola icecek"),
     # and after the name, in Bulgarian, Mongolian and Greek letters; a hockey club's ХК before it is no form
     ("Стрела Лес ЕАД", "strela les"), ("Хустай Ноос ХК", "khustai noos"), ("Αργώ Ναυτιλιακή Α.Ε.", "argo navtiliaki"),
     ("ХК Стрела", "khk strela"),
     # the short name a page's title opens with, its initials', before a dash
     ("CMT - Compagnie Minière du Togo", "compagnie miniere du togo"), ("ONEX - Branche Sud", "onex branche sud"),
     # a Japanese railway's 電気鉄道 as its short name writes it
     ("多摩電気鉄道株式会社", entities.clean_name("多摩電鉄")),
     # Vietnamese Đạt closes a name (cleanco: Ukraine's ДАТ), its form after it goes; a name in
     # Devanagari keeps its last vowel sign, which cleanco cuts off as no letter
     ("Tiến Đạt Corporation", "tien dat"), ("Thành Đạt JSC", "thanh dat"), ("वीरा गौरी", "vira gauri")],
)  # fmt: skip
def test_joint_stock_and_indonesian_forms_are_legal_forms(written: str, clean: str) -> None:
    assert entities.clean_name(written) == clean


def test_a_former_name_in_brackets_after_a_name_is_no_word_of_it() -> None:
    assert entities.clean_name("Avolta AG (formerly Dufry AG)") == "avolta"
    assert entities.clean_name("Tata Motors (India)") == "tata motors india"  # another company of a group
    wiki = co("a", "Avolta AG (formerly Dufry AG)", "https://en.wikipedia.org/wiki/Avolta", "Basel, Switzerland",
              "Avolta AG, known as Dufry AG until 2023, is a Swiss travel retailer.", industry="Travel retail")  # fmt: skip
    new = co("b", "Avolta", "https://www.avolta.com/en", "Basel, Switzerland", industry="Travel retail")
    old = co("c", "Dufry", "https://www.dufry.com/en", "Basel, Switzerland", industry="Travel retail")
    assert entities.resolve([wiki, new, old]).groups == [[0, 1, 2]]


def test_a_page_its_path_does_not_name_joins_the_site_its_name_spells_where_both_say_one_country() -> None:
    parents = co("a", "Swire Coca-Cola", "https://www.swirepacific.com/en/our-business/beverages", "Hong Kong",
                 industry="Soft drink bottling")  # fmt: skip
    own = co(
        "b", "Swire Coca-Cola", "https://www.swirecocacola.com/", "Hong Kong", industry="Soft drink bottling"
    )
    res = entities.resolve([parents, own])
    assert res.groups == [[0, 1]] and "both say they are based in hong kong" in res.reasons[0][0]["reason"]
    abroad = co(
        "c", "Swire Coca-Cola", "https://www.swirecocacola.com/", "Sydney, Australia", "Soft drink bottling"
    )
    assert entities.resolve([parents, abroad]).groups == [[0], [1]]
    trade = co(
        "d", "Swire Coca-Cola", "https://www.swirecocacola.com/", "Hong Kong", industry="Property leasing"
    )
    assert entities.resolve([parents, trade]).groups == [[0], [1]]  # two trades sharing no word


def test_an_international_edition_segment_is_a_locale_of_the_front_page() -> None:
    for url in ("https://www.horiba.com/int/", "https://www.tridonic.com/com/en/about-us.asp"):
        found = entities.site(url)
        assert found is not None and found.front and found.path == ""


def test_a_vietnamese_form_or_own_initials_are_no_legal_form_that_tells_two_apart() -> None:
    """ "Công ty Cổ phần" is what English writes "Corporation" or "JSC"; "(CCI)" the name's initials."""
    for name in ("Công ty Cổ phần FPT", "Coca-Cola İçecek (CCI)"):
        rec = entities.record(0, co("a", name, "https://example.com/", "Hanoi, Vietnam"))
        assert legal_forms(rec.raw_name, rec.clean) == frozenset(), name
    assert legal_forms("coca cola icecek as", "coca cola icecek") == {"as"}


@pytest.mark.parametrize(
    ("a", "b"),
    [("https://www.wickes.co.uk/", "https://www.wickesplc.co.uk/"),
     ("https://www.akbank.com/", "https://www.akbankinvestorrelations.com/en")],
)  # fmt: skip
def test_a_corporate_or_investors_site_of_the_label_is_one_family(a: str, b: str) -> None:
    name = "Wickes" if "wickes" in a else "Akbank"
    x, y = (
        co("a", name, a, "London, United Kingdom"),
        co("b", f"{name} Group plc", b, "London, United Kingdom"),
    )
    assert entities.compare(entities.record(0, x), entities.record(1, y)).joins


@pytest.mark.parametrize(
    ("url", "profile"),
    [("https://kase.kz/en/issuers/KZTK/", "kase.kz/issuers/kztk"),
     ("https://www.qe.com.qa/web/guest/company-profile?CompanyCode=IQCD", "qe.com.qa/companycode=iqcd"),
     ("https://www.adx.ae/main-market/company-profile/overview?secCode=ADNOCGAS", "adx.ae/seccode=adnocgas"),
     ("https://www.belex.rs/trgovanje/hartija/dnevni/NIIS", None),
     ("https://dps.psx.com.pk/company/OGDC", "dps.psx.com.pk/company/ogdc"),
     ("https://market.tase.co.il/en/market_data/company/2590/about", "market.tase.co.il/market_data/company/2590"),
     ("https://quote.eastmoney.com/sz300741.html", "quote.eastmoney.com/sz300741.html"),
     ("https://goodinfo.tw/tw/StockDetail.asp?STOCK_ID=2049", "goodinfo.tw/stock_id=2049"),
     ("https://www.example-exchange.com/web/company-profile?symbol=ABC", None),
     # a financial publisher's company section, the company's page and a page under it
     ("https://www.business-example.com/company/some-listed-company-4401/information/history", None)],
)  # fmt: skip
def test_a_listed_company_s_page_on_an_exchange_is_a_profile_never_its_site(
    url: str, profile: str | None
) -> None:
    found = page_site(url, "Some Listed Company")
    assert found is not None and found.platform and found.profile == profile


def test_a_company_section_on_a_site_of_the_name_stays_its_site() -> None:
    found = page_site("https://www.orvane.com/company/about/history", "Orvane Textiles")
    assert found is not None and not found.platform


def test_a_word_saying_what_kind_of_body_it_is_before_a_short_name_is_no_other_name() -> None:
    """ "Société BIC" is BIC's article, "Agencia EFE" EFE's; "Grupo Lala" is no unit of "La"."""
    where, trade = "Clichy, France", "Stationery"
    site = co("a", "BIC", "https://fr.bic.com/fr-fr", where, industry=trade)
    wiki = co(
        "b", "Société Bic", "https://en.wikipedia.org/wiki/Soci%C3%A9t%C3%A9_Bic", where, industry=trade
    )
    assert entities.compare(entities.record(0, site), entities.record(1, wiki)).joins
    other = co("c", "Crédit Agricole BIC", "https://en.wikipedia.org/wiki/X", where, industry=trade)
    assert not entities.compare(entities.record(0, site), entities.record(1, other)).joins


def test_a_brewery_s_trade_opening_its_name_before_a_short_name_is_no_other_name() -> None:
    """ "Brouwerij Vrek" is Vrek's article as "Société BIC" is BIC's: a brewery's, a winery's trade
    opening a name says only what kind of business it is."""
    where, trade = "Ghent, Belgium", "Brewery"
    site = co("a", "Vrek", "https://www.vrek.be/", where, industry=trade)
    wiki = co("b", "Brouwerij Vrek", "https://nl.wikipedia.org/wiki/Brouwerij_Vrek", where, industry=trade)
    assert entities.compare(entities.record(0, site), entities.record(1, wiki)).joins
    other = co("c", "Brouwerij De Halve Vrek", "https://nl.wikipedia.org/wiki/Y", where, industry=trade)
    assert not entities.compare(entities.record(0, site), entities.record(1, other)).joins


@pytest.mark.parametrize(
    ("name", "trade"),
    [("Productos Zarb", "Bakery and snacks"), ("Laboratorios Zarb", "Pharmaceuticals"),
     ("Pastificio Zarb", "Dried pasta"), ("Cantine Zarb", "Wine"), ("Caseificio Zarb", "Cheese"),
     ("Azienda Agricola Zarb", "Wine"), ("Crama Zarb", "Wine"), ("Vinăria Zarb", "Wine")],
)  # fmt: skip
def test_a_makers_kind_opening_its_name_before_a_short_name_is_no_other_name(name: str, trade: str) -> None:
    """ "Productos Zarb", "Laboratorios Zarb": products, laboratories, a pasta maker opening a
    Romance name say what kind of maker it is, as a brewery's trade does."""
    where = "Bogotá, Colombia"
    site = co("a", "Zarb", "https://www.zarb.com.co/", where, industry=trade)
    wiki = co("b", name, f"https://es.wikipedia.org/wiki/{name.replace(' ', '_')}", where, industry=trade)
    assert entities.compare(entities.record(0, site), entities.record(1, wiki)).joins


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [("Instituto Butantan", "Butantan Institute", True), ("Università Bocconi", "Bocconi University", True),
     ("Universidad de Chile", "University of Chile", True), ("Universidad de Chile", "University of Santiago", False),
     ("Instituto Butantan", "Butantan Foundation", False),
     ("Banco Nacional de Bolivia", "National Bank of Bolivia", True),  # a company's words too
     ("Banco Nacional de Bolivia", "National Bank of Peru", False)],
)  # fmt: skip
def test_an_institution_s_name_in_two_languages_is_one_name(a: str, b: str, agree: bool) -> None:
    said = entities.names_agree(entities.clean_name(a), entities.clean_name(b))
    assert (said == "one institution's name in two languages") == agree, said


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        ("Ngân hàng TMCP Đông Á", "Dong A Bank", "equal names"),  # a Vietnamese trade opens the name
        ("Tập đoàn Vạn Hưng", "Van Hung Group", "equal names"),
        ("푸본현대생명보험", "푸본현대생명", "equal names"),  # a Korean insurer's short name
        ("KDB생명보험", "KDB생명", "equal names"),  # Latin letters before it
        ("iM라이프생명보험", "iM라이프", "equal names"),  # "life" in English and in Korean
        ("한화손해보험", "한화생명", None),  # another line of insurance
        ("Стойленский горно-обогатительный комбинат", "Стойленский ГОК", "abbreviation"),  # some words
        ("Чусовской металлургический завод", "ЧМЗ", "abbreviation"),  # Ч is "ch"
        ("Samsung Data Systems", "Samsung SDI", None),
        ("Banca Nazionale del Lavoro", "BNL", "abbreviation"),  # Romance joining words left out
        ("Pampa Cia Minera SAA", "Pampa Compañía Minera", "equal names"),  # Cía., compañía
        ("Molinos Agro S.A.C.I.F. y A.", "Molinos Agro", "equal names"),  # an Argentine form
        ("Stage1 Studios", "Stage One Studios", "equal names but for spaces"),  # a digit said as a word
        ("Stage1 Studios", "Stage Two Studios", None),
    ],
)
def test_a_name_written_in_another_order_or_abbreviated_in_its_own_script(
    a: str, b: str, said: str | None
) -> None:
    assert entities.names_agree(entities.clean_name(a), entities.clean_name(b)) == said


def test_an_arabic_name_of_a_state_industry_translates_word_by_word() -> None:
    from exa_orch.workflows.entities.heard_words import translate

    assert translate("شركة الأسمدة العربية السعودية", "saudi arabian fertilizer")
    assert not translate("شركة الأسمدة العربية السعودية", "saudi arabian chemicals")


def test_a_holding_company_of_a_company_s_own_initials_is_not_the_page_of_those_initials() -> None:
    # "ANA" beside All Nippon Airways, a subsidiary of ANA Holdings: the airline's own initials
    said = "Korea Air Lines Co., Ltd. is a subsidiary of KAL Holdings and the flag carrier of South Korea."
    site = co("a", "KAL", "https://www.kal.co.kr/", "Seoul, South Korea", industry="airline")
    wiki = co("b", "Korea Air Lines", "https://en.wikipedia.org/wiki/Korea_Air_Lines", "Seoul, South Korea",
              desc=said, industry="airline")  # fmt: skip
    assert "as its owner" not in apart(site, wiki)
    assert entities.resolve([site, wiki]).groups == [[0, 1]]


def test_a_name_a_merged_record_gives_itself_with_a_designator_more_lifts_the_no_site_veto() -> None:
    from exa_orch.workflows.entities.evidence import conflict

    site = entities.record(0, co("a", "Agilent", "https://www.agilent.com/"))
    news = entities.record(1, co("b", "Hewlett-Packard Instruments", "https://www.reuters.com/business/x/"))
    # a record of the groups calls itself "Agilent Technologies", formerly Hewlett-Packard Instruments
    assert conflict(site, news, lambda x, y: False, voices=[{"agilent technologies", news.clean}]) is None
    # an international arm names another company of the brand: the veto stays
    said = conflict(site, news, lambda x, y: False, voices=[{"agilent international", news.clean}])
    assert said == "one item has no site and the names differ"


def test_a_name_in_chinese_characters_beside_a_latin_one_is_no_no_site_veto() -> None:
    from exa_orch.workflows.entities.evidence import conflict

    quote = entities.record(
        0, co("q", "Hollinfield Electronics Inc. (6121.TW)", "https://finance.yahoo.com/quote/6121.TW/")
    )
    han = entities.record(1, co("h", "豪霖電子股份有限公司", "https://www.hollinfield.com.tw/tw/about"))
    # characters chosen for their meaning or sound are no spelling of the Latin name: nothing said
    assert conflict(quote, han, lambda x, y: False, voices=[]) is None
    # an alphabet's reading is one: a Russian name that is not the quote's still keeps them apart
    cyrillic = entities.record(2, co("c", "Завод Прибор", "https://www.zavodpribor.ru/"))
    assert (
        conflict(quote, cyrillic, lambda x, y: False, voices=[])
        == "one item has no site and the names differ"
    )
    english = co("e", "Hollinfield Electronics Inc.", "https://www.hollinfield.com.tw/en/", "Taoyuan, Taiwan",
                 industry="semiconductor packaging")  # fmt: skip
    local = co("l", "豪霖電子股份有限公司", "https://www.hollinfield.com.tw/tw/about", "Taoyuan, Taiwan",
               industry="semiconductor packaging")  # fmt: skip
    listed = co("y", "Hollinfield Electronics Inc. (6121.TW)", "https://finance.yahoo.com/quote/6121.TW/",
                "Taoyuan, Taiwan", industry="semiconductor packaging")  # fmt: skip
    assert entities.resolve([english, local, listed]).groups == [[0, 1, 2]]


def test_a_profile_that_writes_the_country_elsewhere_in_the_name_is_about_the_site() -> None:
    site = co(
        "a", "Suzuki Motor Ghana", "https://www.suzuki-motor-ghana.com/", "Accra, Ghana", industry="cars"
    )
    wiki = co("b", "Ghana Suzuki Motor", "https://en.wikipedia.org/wiki/Ghana_Suzuki_Motor", "Accra, Ghana",
              industry="cars")  # fmt: skip
    assert entities.resolve([site, wiki]).groups == [[0, 1]]
    other = co("b", "Motor Suzuki Ghana", "https://en.wikipedia.org/wiki/Motor_Suzuki_Ghana", "Accra, Ghana",
               industry="cars")  # fmt: skip
    assert "writes the country elsewhere" not in str(
        entities.compare(entities.record(0, site), entities.record(1, other))
    )


def test_a_page_on_the_site_of_a_name_one_record_gives_itself_is_under_that_name() -> None:
    """A news page says Velkor Line is now Orvanto Shipping: the site whose label is that name run
    together (orvantoshipping.om) is under it, its page in Arabic too, though that page's name
    cannot be read as the news page's."""
    where, trade = "Muscat, Oman", "Container shipping"
    own = co("a", "Orvanto Shipping", "https://www.orvantoshipping.om/", where, industry=trade)
    arabic = co("b", "أورفانتو للنقل البحري", "https://www.orvantoshipping.om/ar/", where, industry=trade)
    said = "Velkor Line, now known as Orvanto Shipping, is Oman's national container line."
    url = "https://www.gulfshipnews.com/velkor-line-renamed-and-expands-container-fleet/"
    news = co("c", "Velkor Line", url, where, said, industry=trade)
    assert entities.resolve([own, arabic, news]).groups == [[0, 1, 2]]


def test_a_page_naming_a_company_and_its_country_on_its_owners_site_is_under_its_name() -> None:
    """ "Velkorcorp Chile S.A." on its owner's site (austrafish.no) is the Velkorcorp of velkorcorp.cl
    that a news page names: a name adding only its country's word is that name, not another site's."""
    where, trade = "Santiago, Chile", "Fishmeal and fish oil"
    own = co("a", "Velkorcorp", "https://www.velkorcorp.cl/", where, industry=trade)
    url = "https://www.austrafish.no/operations/south-america/velkorcorp-chile"
    owners = co("b", "Velkorcorp Chile S.A.", url, where, industry=trade)
    url = "https://www.seafoodwire.no/news/velkorcorp-sets-a-new-traceability-standard/"
    news = co("c", "Velkorcorp", url, where, industry=trade)
    assert entities.resolve([own, owners, news]).groups == [[0, 1, 2]]


def test_a_korean_name_under_its_groups_latin_initials_is_paired_with_the_name_without_them() -> None:
    """HK한별중공업, the name a group's new initials lead, and 한별중공업, as the press writes it:
    one blocking key pairs them, and the two join."""
    at = "Ulsan, South Korea"
    site = co("a", "HK한별중공업", "https://www.hanbyeol-hi.co.kr/", at, industry="Shipbuilding")
    news = co(
        "b", "한별중공업", "https://www.yna.co.kr/view/AKR20240101000100003", at, industry="Shipbuilding"
    )
    assert entities.resolve([site, news]).groups == [[0, 1]]


def test_a_short_name_writing_a_long_names_last_words_whole_is_paired_with_it() -> None:
    """ "Velkor y Kestrel", as an encyclopedia names the brewer, and its listing's legal name, whose
    last words it writes whole: one blocking key pairs them, and the two join."""
    at = "Lima, Peru"
    article = co(
        "a", "Velkor y Kestrel", "https://es.wikipedia.org/wiki/Velkor_y_Kestrel", at, industry="Brewing"
    )
    listing = co("b", "UNION DE FABRICAS PERUANAS VELKOR Y KESTREL S.A.A.",
                 "https://www.bvl.com.pe/emisores/union-de-fabricas-peruanas-velkor-y-kestrel-saa", at,
                 industry="Brewing")  # fmt: skip
    assert entities.resolve([article, listing]).groups == [[0, 1]]


def test_a_banks_name_adding_an_insurers_word_on_its_site_is_its_insurance_arm() -> None:
    """Argenta Assuranties on argenta.be beside Argenta, a savings bank: the insurer's word names
    the bank's insurance arm, another company; a word of its own trade does not."""
    from exa_orch.workflows.entities import families

    bank = co(
        "a", "Korvanta", "https://www.korvanta.be/nl.html", "Antwerp, Belgium", industry="Retail banking"
    )
    insurer = co("b", "Korvanta Verzekeringen", "https://www.korvanta.be/nl/verzekeren.html", "Antwerp, Belgium",
                 industry="Insurance")  # fmt: skip
    assert "its unit" in apart(bank, insurer)
    assert families.other_trade_unit(frozenset({"spaarbank"}), "retail banking") is None
    assert families.other_trade_unit(frozenset({"bank"}), "life insurance") == "bank"


def test_an_initialism_taking_a_letter_of_each_stem_of_a_compound_is_a_candidate_pair() -> None:
    """VČP is Východočeská plynárenská's initialism, a letter of each stem of "Východo-česká": the
    evidence joins the two, and a blocking key of the compound's initials brings them together."""
    short = co(
        "a", "VČP", "https://www.vcp.cz/", "Hradec Králové, Czech Republic", industry="Gas distribution"
    )
    full = co("b", "Východočeská plynárenská", "https://cs.wikipedia.org/wiki/Východočeská_plynárenská",
              "Hradec Králové, Czech Republic", industry="Gas distribution")  # fmt: skip
    assert entities.resolve([short, full]).groups == [[0, 1]]


def test_a_name_ending_with_the_brand_another_page_names_alone_is_a_candidate_pair() -> None:
    """ "Sociedad Agrícola Qorvina" on a news page and "Qorvina" on Wikipedia: the brand a maker's
    name ends with is a blocking key, so the evidence that joins them is asked."""
    short = co(
        "a", "Qorvina", "https://es.wikipedia.org/wiki/Qorvina", "Arequipa, Peru", industry="Agribusiness"
    )
    full = co("b", "Sociedad Agrícola Qorvina", "https://gestion.pe/economia/empresas/agroexportadora-del-sur-123/",
              "Arequipa, Peru", industry="Agribusiness")  # fmt: skip
    assert entities.resolve([short, full]).groups == [[0, 1]]
