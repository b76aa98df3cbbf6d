"""Entity resolution, issue 37's fourth pass: where a company is (a location or a sentence read to
one country, countries.py), and a profile page on a shared host joined to the site it is about."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities.countries import country_of, known, stated_country
from exa_orch.workflows.entities.names import (
    IN_TWO_LANGUAGES,
    clean_name,
    core_name,
    legal_forms,
    names_agree,
)
from exa_orch.workflows.entities.sites import site
from tests.workflows.test_entities_evidence import apart
from tests.workflows.test_entities_evidence import row as agent_row

Json = dict[str, Any]


def co(id: str, name: str, url: str, location: str | None = None, desc: str = "", industry: str = "") -> Json:
    company = {"name": name, "location": location, "industry": industry}
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def row(id: str, name: str, url: str, description: str) -> Json:
    """An Agent row of a company (name, url, description; no location)."""
    return agent_row(id, "company", name, url, description)


@pytest.mark.parametrize(
    ("location", "country"),
    [
        ("Stuttgart, Baden-Württemberg", "germany"),  # a province, spelt "Baden-Wuerttemberg" in the data
        ("Fujian Province", "china"),
        ("Fujian", "china"),
        ("Minato, Tokyo", "japan"),  # a capital
        ("Dubai, UAE", "united arab emirates"),
        ("London, England", "united kingdom"),
        ("Gothenburg, Sweden, owned by Geely", "sweden"),
        ("Monaco and Piraeus", "monaco"),  # two places: the first, the seat
        ("Macau / mainland China", "macau"),
        ("Luxembourg; operations in Kazakhstan", "luxembourg"),
        ("Macau (incorporated in the Cayman Islands)", "macau"),  # a seat and an aside in brackets
        ("Port of Spain, Trinidad and Tobago", "trinidad and tobago"),  # a country's name of two
    ],
)
def test_a_location_reads_as_its_country(location: str, country: str) -> None:
    assert country_of(location) == country
    assert known(country)


def test_a_place_no_data_names_or_two_countries_hold_is_unknown() -> None:
    assert country_of("Dhahran") == "dhahran" and not known("dhahran")
    assert country_of("Atlanta, Georgia") == ""  # a US state and a country


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("Vale S.A., formerly Companhia Vale do Rio Doce, is a Brazilian multinational.", "brazil"),
        ("Samsung is a South Korean conglomerate.", "south korea"),
        ("Nebius is an Amsterdam-headquartered technology company.", "netherlands"),
        ("MercadoLibre is a Latin American e-commerce company.", ""),  # a region, not a country
        ("Vale is a global mining company.", ""),
        ("Shop books and gifts at Indigo, Canada's largest book retailer.", "canada"),  # in apposition
    ],
)
def test_a_sentence_states_a_country_by_demonym_or_place(text: str, country: str) -> None:
    assert stated_country(text) == country


def test_a_city_and_its_country_are_not_different_countries() -> None:
    a = row("a", "Aramco", "https://www.aramco.com/en", "Aramco is an energy company based in Saudi Arabia.")
    b = row(
        "b", "Aramco", "https://www.aramco.com/about", "Aramco is an oil company headquartered in Dhahran."
    )
    assert entities.resolve([a, b]).groups == [[0, 1]], apart(a, b)


def test_a_former_name_in_another_country_stays_apart() -> None:
    """ "Nebius Group N.V., formerly Yandex N.V., is a Dutch ..." names Yandex, but the Russian Yandex
    is another company: a stated former name does not outweigh two known countries."""
    a = row(
        "a",
        "Nebius Group",
        "https://nebius.com/",
        "Nebius Group N.V., formerly Yandex N.V., is a Dutch technology company.",
    )
    b = row(
        "b",
        "Yandex",
        "https://yandex.com/company/",
        "Yandex is a Russian technology company that runs a search engine.",
    )
    assert entities.resolve([a, b]).groups == [[0], [1]]
    assert "different countries (netherlands / russia)" in apart(a, b)


@pytest.mark.parametrize(
    ("page", "own", "reason"),
    [
        (co("a", "Vale S.A.", "https://en.wikipedia.org/wiki/Vale_S.A.", "Rio de Janeiro, Brazil", industry="Mining"),
         co("b", "Vale", "https://vale.com/en", "Rio de Janeiro, Brazil", industry="Mining"), "(equal names)"),
        (co("a", "Saudi Basic Industries Corporation", "https://sa.linkedin.com/company/sabic", "Riyadh, Saudi Arabia", industry="Chemicals"),
         co("b", "SABIC", "https://www.sabic.com/en", "Riyadh, Saudi Arabia", industry="Chemicals"), "is the site's label"),
        (row("a", "Sumitomo Mitsui Banking Corporation", "https://en.wikipedia.org/wiki/Sumitomo_Mitsui_Banking_Corporation",
             "Sumitomo Mitsui Banking Corporation is a Japanese multinational banking institution."),
         row("b", "SMBC", "https://www.smbc.co.jp/global/", "SMBC is a Japanese bank offering corporate and retail banking."),
         "SMBC is the initials of Sumitomo Mitsui Banking Corporation"),
        (co("a", "Saudi Aramco", "https://en.wikipedia.org/wiki/Saudi_Aramco", "Dhahran, Saudi Arabia", industry="Oil and gas"),
         co("b", "Aramco", "https://www.aramco.com/en", "Dhahran, Saudi Arabia", industry="Oil and gas"),
         "one name adds only the country, 'saudi'"),
        # one name, but for a plural
        (co("a", "Halfords Autocentres", "https://uk.linkedin.com/company/halfords-autocentres", "Redditch, United Kingdom", industry="Car servicing"),
         co("b", "Halfords Autocentre", "https://www.halfordsautocentres.co.uk/", "Redditch, United Kingdom", industry="Car servicing"),
         "one name, but for a plural"),
        # the country in its own language
        (co("a", "Żabka Polska", "https://pl.wikipedia.org/wiki/Żabka_Polska", "Poznań, Poland", industry="Convenience stores"),
         co("b", "Żabka", "https://www.zabka.pl/", "Poznań, Poland", industry="Convenience stores"),
         "one name adds only the country, 'polska'"),
        (row("a", "Swiggy Bytes", "https://medium.com/swiggy-bytes", "Swiggy Bytes is the technology blog of Swiggy's engineering teams."),
         row("b", "Swiggy", "https://www.swiggy.com/", "Swiggy is an Indian food delivery platform."), "Swiggy Bytes says it is Swiggy's"),
    ],
)  # fmt: skip
def test_a_profile_page_joins_the_site_it_is_about(page: Json, own: Json, reason: str) -> None:
    res = entities.resolve([page, own])
    assert res.groups == [[0, 1]], apart(page, own)
    assert reason in res.reasons[0][0]["reason"]


@pytest.mark.parametrize(
    ("page", "own", "why"),
    [
        (  # one name, two countries: two companies
            co("a", "Metro AG", "https://en.wikipedia.org/wiki/Metro_AG", "Düsseldorf, Germany", industry="Retail"),
            co("b", "Metro Inc.", "https://corpo.metro.ca/en.html", "Montreal, Canada", industry="Retail"),
            "different countries",
        ),
        (  # one name, one country, two industries
            co("a", "Giant", "https://www.linkedin.com/company/giant", "Landover, United States", industry="Bicycles"),
            co("b", "Giant", "https://giantfood.com/", "Landover, United States", industry="Retail"),
            "not enough evidence",
        ),
        (  # initials alone, no country known: not enough
            row("a", "United Microelectronics Corporation", "https://en.wikipedia.org/wiki/United_Microelectronics_Corporation",
                "United Microelectronics Corporation makes integrated circuits under contract."),
            row("b", "UMC", "https://www.umc.com/en/", "UMC is a semiconductor foundry."),
            "not enough evidence",
        ),
    ],
)  # fmt: skip
def test_a_profile_page_without_one_country_and_one_trade_stays_apart(
    page: Json, own: Json, why: str
) -> None:
    assert entities.resolve([page, own]).groups == [[0], [1]]
    assert why in apart(page, own)


def test_a_publication_of_the_company_and_initials_keeping_small_words_join() -> None:
    """ "Stories from the engineering teams of Mercado Libre" is Mercado Libre's; "EDP" is the
    initials of "Energias de Portugal", its "de" kept (candidates found by those keys too)."""
    blog = row("a", "Mercado Libre Tech", "https://medium.com/mercadolibre-tech",
               "Stories from the engineering and technology teams of Mercado Libre.")  # fmt: skip
    own = row(
        "b", "MercadoLibre", "https://investor.mercadolibre.com/", "MercadoLibre is an e-commerce company."
    )
    res = entities.resolve([blog, own])
    assert res.groups == [[0, 1]], apart(blog, own)
    assert "Mercado Libre Tech says it is MercadoLibre's" in res.reasons[0][0]["reason"]
    wiki = co("c", "Energias de Portugal", "https://en.wikipedia.org/wiki/Energias_de_Portugal", "Lisbon, Portugal",
              industry="Utilities")  # fmt: skip
    edp = co("d", "EDP", "https://www.edp.com/en", "Lisbon, Portugal", industry="Utilities")
    assert entities.resolve([wiki, edp]).groups == [[0, 1]], apart(wiki, edp)
    # an article elided before a word, "d'Investissement" read "dinvestissement": its initial is i
    full = co("e", "Banque d'Investissement du Mali", "https://fr.wikipedia.org/wiki/Banque_d%27investissement_du_Mali",
              "Bamako, Mali", industry="Banking")  # fmt: skip
    short = co("f", "BIM", "https://www.bim.ml/", "Bamako, Mali", industry="Banking")
    assert entities.resolve([full, short]).groups == [[0, 1]], apart(full, short)
    # "das" and the Romance "e" (and) are no initials: Empresa Lusitana das Águas e Esgotos, ELAE
    water = co("g", "Empresa Lusitana das Águas e Esgotos", "https://pt.wikipedia.org/wiki/Empresa_Lusitana_das_Aguas",
               "Lisbon, Portugal", industry="Water utility")  # fmt: skip
    elae = co("h", "ELAE", "https://www.elae.pt/", "Lisbon, Portugal", industry="Water utility")
    assert entities.resolve([water, elae]).groups == [[0, 1]], apart(water, elae)


def test_one_name_in_two_countries_one_stated_in_apposition_stays_apart() -> None:
    """ "at Indigo, Canada's largest book retailer" states Canada as "is India's largest" would: the
    bookseller's site and a page on the Indian airline IndiGo (no site of its own) stay two."""
    shop = row("a", "Indigo", "https://www.indigo.ca/en-ca/",
               "Shop books, gifts and toys at Indigo, Canada's largest book, gift and toy retailer.")  # fmt: skip
    wiki = row("b", "IndiGo", "https://en.wikipedia.org/wiki/IndiGo", "IndiGo is an Indian low-cost airline.")
    assert entities.resolve([shop, wiki]).groups == [[0], [1]]
    assert "different countries (canada / india)" in apart(shop, wiki)


def test_a_profile_page_joins_a_global_site_that_states_no_country_by_two_trade_words() -> None:
    """A global site rarely says where it is based: the profile's country, one name and two words of
    trade both say join them; one shared word does not."""
    wiki = row("a", "Sandvik AB", "https://en.wikipedia.org/wiki/Sandvik",
               "Sandvik AB is a Swedish engineering company specializing in metal cutting and mining.")  # fmt: skip
    own = row("b", "Sandvik", "https://www.home.sandvik/en/",
              "Sandvik is a global engineering group in mining and rock solutions.")  # fmt: skip
    res = entities.resolve([wiki, own])
    assert res.groups == [[0, 1]], apart(wiki, own)
    assert "one says sweden, the other no country" in res.reasons[0][0]["reason"]
    thin = row("c", "Sandvik", "https://www.home.sandvik/en/", "Sandvik makes rock tools for mining.")
    assert entities.resolve([wiki, thin]).groups == [[0], [1]]


def test_a_profile_whose_name_the_site_s_name_leads_joins_in_one_country_and_industry() -> None:
    """ "Vestas" leads "Vestas Wind Systems A/S": one company where one country and one industry say
    so; the same leading name in two industries (bicycles / supermarkets) stays two."""
    page = co("a", "Vestas Wind Systems A/S", "https://www.bloomberg.com/profile/company/VWS:DC",
              "Aarhus, Denmark", industry="Wind turbines")  # fmt: skip
    own = co("b", "Vestas", "https://www.vestas.com/en", "Aarhus, Denmark", industry="Wind turbines")
    res = entities.resolve([page, own])
    assert res.groups == [[0, 1]], apart(page, own)
    assert "Vestas leads Vestas Wind Systems A/S's name" in res.reasons[0][0]["reason"]
    food = co("c", "Giant Food Stores", "https://en.wikipedia.org/wiki/Giant_Food_Stores",
              "Landover, United States", industry="Supermarkets")  # fmt: skip
    bikes = co(
        "d", "Giant", "https://www.giant-bicycles.com/us", "Landover, United States", industry="Bicycles"
    )
    assert entities.resolve([food, bikes]).groups == [[0], [1]]


def test_a_name_adding_a_units_number_is_one_of_several_units() -> None:
    """ "Tarsk Bottling Plant No. 2 Aqua" is one of the numbered plants, not the "Tarsk Bottling
    Plant" a news page names, though one country and one industry; "Tarsk Bottling Plant Aqua" is."""

    def plant(id: str, name: str, url: str) -> Json:
        return co(id, name, url, "Tarsk, Kazakhstan", industry="Bottled water")

    news = plant("a", "Tarsk Bottling Plant", "https://www.steppenews.kz/eng/news/877778/")
    other = "https://www.kzfinance.kz/full_news.php?id=31456"
    assert entities.resolve([news, plant("b", "Tarsk Bottling Plant No. 2 Aqua", other)]).groups == [[0], [1]]
    same = plant("c", "Tarsk Bottling Plant Aqua", other)
    assert entities.resolve([news, same]).groups == [[0, 1]], apart(news, same)


def test_a_works_team_and_the_company_it_is_named_for_stay_apart() -> None:
    """ "Ruvuma Sugar FC" on a football site's page its path names ruvumasugar.co.tz: a club in the
    company's name, another trade (sugar / football club); its own page, one."""
    sugar = co("a", "Ruvuma Sugar", "https://www.ruvumasugar.co.tz/", "Songea, Tanzania", industry="Sugar")
    club = co("b", "Ruvuma Sugar FC", "https://int.soccerway.com/teams/tanzania/ruvuma-sugar/",
              "Songea, Tanzania", industry="Football club")  # fmt: skip
    assert "a sports club and a company of its name (sugar / football club)" in apart(sugar, club)
    own = co(
        "c", "Ruvuma Sugar Ltd", "https://www.ruvumasugar.co.tz/about", "Songea, Tanzania", industry="Sugar"
    )
    assert entities.resolve([sugar, own]).groups == [[0, 1]], apart(sugar, own)


def test_a_name_naming_its_city_and_a_record_in_another_city_stay_apart() -> None:
    """ "Тверской «Сапфир»" (Tver's Sapfir) beside the Wikipedia article on the Moscow plant
    "Сапфир": one brand's plants in two cities, though the brand in quotes names the other; the
    article on Tver's plant, one."""
    moscow = co("a", "Сапфир", "https://ru.wikipedia.org/wiki/Сапфир_(завод,_Москва)", "Moscow, Russia",
                industry="Vodka distillery")  # fmt: skip
    tver = co("b", "Тверской «Сапфир»", "https://tvernews.example.ru/fn_188582.html", "Tver, Russia",
              industry="Vodka distillery")  # fmt: skip
    assert "Тверской «Сапфир» names its city, Tver, Russia; Сапфир is in Moscow, Russia" in apart(
        moscow, tver
    )
    article = co("c", "Сапфир", "https://ru.wikipedia.org/wiki/Сапфир_(завод,_Тверь)", "Tver, Russia",
                 industry="Vodka distillery")  # fmt: skip
    assert entities.resolve([article, tver]).groups == [[0, 1]], apart(article, tver)


@pytest.mark.parametrize(
    ("own", "page", "said", "other"),
    [
        # a review page whose name written together is the winery's site; in another country, two
        (("Vista Ruvalca", "https://www.bodegavistaruvalca.com/", "Mendoza, Argentina", "Wine"),
         ("Bodega Vista Ruvalca", "https://www.vinosreview.com/bodegas/vista-ruvalca", "Mendoza, Argentina", "Wine"),
         "is the site's label, bodegavistaruvalca",  # a review site's entry for the winery
         ("Bodega Vista Ruvalca", "https://www.vinosreview.com/bodegas/vista-ruvalca", "Valparaíso, Chile", "Wine")),
        # a brand's page on its owner's site, its path naming the brand's site, its name adding the
        # trade both state; a word of another trade added, two
        (("Cerro Azulejo", "https://www.cerroazulejo.com/", "Oaxaca, Mexico", "Mezcal"),
         ("Cerro Azulejo Mezcal", "https://www.spiritsholding.com/en/brands/cerro-azulejo", "Oaxaca, Mexico", "Mezcal"),
         "one name adds its trade, 'mezcal'",
         ("Cerro Azulejo Hotel", "https://www.spiritsholding.com/en/brands/cerro-azulejo", "Oaxaca, Mexico", "Hotel")),
    ],
)  # fmt: skip
def test_a_page_under_the_full_name_a_site_spells_or_names_joins_the_site(
    own: tuple[str, str, str, str],
    page: tuple[str, str, str, str],
    said: str,
    other: tuple[str, str, str, str],
) -> None:
    site = co("a", *own[:3], industry=own[3])
    res = entities.resolve([site, co("b", *page[:3], industry=page[3])])
    assert res.groups == [[0, 1]], res.apart
    assert said in res.reasons[0][0]["reason"]
    assert entities.resolve([site, co("c", *other[:3], industry=other[3])]).groups == [[0], [1]]


def test_a_profile_whose_name_adds_a_place_the_site_does_not_say_stays_apart() -> None:
    """ "Harbor CU Maryland" on LinkedIn beside the "Harbor CU" of a site that says it serves North
    Carolina: another region's credit union of the name, though one country and one trade; beside a
    site that says Maryland, one."""
    page = co("a", "Harbor CU Maryland", "https://www.linkedin.com/company/harbor-cu-maryland",
              "Baltimore, United States", industry="Credit union")  # fmt: skip
    carolina = co("b", "Harbor CU", "https://www.harborcu.org/", "Raleigh, United States", industry="Credit union",
                  desc="Harbor CU serves North Carolina's teachers with branches across the state.")  # fmt: skip
    assert entities.resolve([page, carolina]).groups == [[0], [1]]
    maryland = co("c", "Harbor CU", "https://www.harborcu.com/", "Baltimore, United States", industry="Credit union",
                  desc="Harbor CU is one of Maryland's largest credit unions.")  # fmt: skip
    assert entities.resolve([page, maryland]).groups == [[0, 1]]


def test_a_profile_under_the_short_name_joins_a_site_under_the_long_one_in_one_country_and_industry() -> None:
    """The reverse of "Vestas" / "Vestas Wind Systems A/S": a LinkedIn page under the brand
    "Norvik" and the site of "Norvik Marine Engineering AS", one country and one industry; in
    another industry, two companies."""
    page = co(
        "a", "Norvik", "https://www.linkedin.com/company/norvik", "Bergen, Norway", industry="Shipbuilding"
    )
    own = co("b", "Norvik Marine Engineering AS", "https://www.norvik-marine.no/", "Bergen, Norway",
             industry="Shipbuilding")  # fmt: skip
    res = entities.resolve([page, own])
    assert res.groups == [[0, 1]], apart(page, own)
    assert "Norvik leads Norvik Marine Engineering AS's name" in res.reasons[0][0]["reason"]
    other = co("c", "Norvik Marine Engineering AS", "https://www.norvik-marine.no/", "Bergen, Norway",
               industry="Insurance")  # fmt: skip
    assert entities.resolve([page, other]).groups == [[0], [1]]


def test_a_profile_named_for_the_last_word_of_a_site_s_name_is_paired_with_it() -> None:
    """A site of "Forvik Kestrel" and a Wikipedia page of "Kestrel": the page's name ends the
    site's, and only a key on the name's last word pairs the two (clustering._part_keys)."""
    own = co(
        "a", "Forvik Kestrel", "https://www.forvikkestrel.com/", "Lyon, France", industry="Audit and tax"
    )
    page = co("b", "Kestrel", "https://fr.wikipedia.org/wiki/Kestrel_(audit)", "Lyon, France",
              industry="Audit and tax")  # fmt: skip
    assert entities.resolve([own, page]).groups == [[0, 1]], apart(own, page)


def test_a_profile_whose_name_holds_the_site_s_name_inside_joins_in_one_country_and_industry() -> None:
    """ "Branca" stands inside "Fratelli Branca Distillerie S.r.l." (a legal name around the brand):
    one company where one country and one industry say so; in another industry, two."""
    page = co("a", "Fratelli Branca Distillerie S.r.l.", "https://www.reuters.com/markets/companies/FBD.MI/",
              "Milan, Italy", industry="Spirits")  # fmt: skip
    own = co("b", "Branca", "https://www.branca.it/", "Milan, Italy", industry="Spirits")
    res = entities.resolve([page, own])
    assert res.groups == [[0, 1]], apart(page, own)
    assert "Branca stands in Fratelli Branca Distillerie S.r.l.'s name" in res.reasons[0][0]["reason"]
    other = co("c", "Branca", "https://www.branca-design.it/", "Milan, Italy", industry="Furniture")
    assert entities.resolve([page, other]).groups == [[0], [1]]


def test_a_football_clubs_form_written_two_ways_is_one_club() -> None:
    wiki = co(
        "a", "Heart of Midlothian F.C.", "https://en.wikipedia.org/wiki/Heart_of_Midlothian_F.C.",
        "Edinburgh, United Kingdom", industry="Football club",
    )  # fmt: skip
    own = co(
        "b", "Heart of Midlothian Football Club", "https://www.heartsfc.co.uk/",
        "Edinburgh, United Kingdom", industry="Football club",
    )  # fmt: skip
    assert entities.resolve([wiki, own]).groups == [[0, 1]], apart(wiki, own)
    assert clean_name("Valencia CF") == clean_name("Valencia Club de Fútbol") == "valencia"
    assert clean_name("FC Porto") == "porto" and clean_name("CF Industries") == "cf industries"


def test_a_founder_s_given_name_before_the_site_s_name_is_no_place() -> None:
    # "paul" is a place the data holds (a parish): as a given name before the family's, a founder's
    wiki = co("a", "Paul Bauder GmbH & Co. KG", "https://de.wikipedia.org/wiki/Paul_Bauder",
              "Stuttgart, Germany", industry="Roofing materials")  # fmt: skip
    own = co("b", "Bauder", "https://www.bauder.de/", "Stuttgart, Germany", industry="Roofing materials")
    assert entities.resolve([wiki, own]).groups == [[0, 1]], apart(wiki, own)
    # a region added after the name stays a region the site does not say it is in
    unit = co("c", "Bauder Bayern", "https://de.wikipedia.org/wiki/Bauder_Bayern", "Stuttgart, Germany",
              industry="Roofing materials")  # fmt: skip
    assert entities.resolve([unit, own]).groups == [[0], [1]]


def test_a_listings_short_name_in_chinese_characters_leads_the_name_it_shortens() -> None:
    """A Taiwanese listing's short name is the company's first characters (智邦 for 智邦科技): one
    company where one country and one industry say so; in another industry, two."""
    page = co(
        "a",
        "智邦",
        "https://tw.stock.yahoo.com/quote/2345.TW",
        "Hsinchu, Taiwan",
        industry="Networking equipment",
    )
    own = co("b", "智邦科技", "https://www.accton.com/", "Hsinchu, Taiwan", industry="Networking equipment")
    res = entities.resolve([page, own])
    assert res.groups == [[0, 1]], apart(page, own)
    assert "智邦 leads 智邦科技's name" in res.reasons[0][0]["reason"]
    food = co("c", "智邦", "https://tw.stock.yahoo.com/quote/9999.TW", "Hsinchu, Taiwan", industry="Food")
    assert entities.resolve([food, own]).groups == [[0], [1]]
    # Hangul writes no spaces either
    page = co("d", "해찬들", "https://www.haechandle.co.kr/", "Seoul, South Korea", industry="Condiments")
    wiki = co(
        "e",
        "해찬들식품",
        "https://ko.wikipedia.org/wiki/해찬들식품",
        "Seoul, South Korea",
        industry="Condiments",
    )
    assert entities.resolve([page, wiki]).groups == [[0, 1]], apart(page, wiki)
    # a place and a trade alone lead no name: 中國水泥 ("China" "cement") is not 中國水泥工程's
    place = co("f", "中國水泥", "https://www.chinacement.com.tw/", "Taipei, Taiwan", industry="Cement")
    longer = co(
        "g", "中國水泥工程", "https://zh.wikipedia.org/wiki/中國水泥工程", "Taipei, Taiwan", industry="Cement"
    )
    assert entities.resolve([place, longer]).groups == [[0], [1]]


def test_short_and_foreign_words_for_a_companys_kind_read_as_english_ones() -> None:
    # a Japanese listing's "HD", Chile's "Empresas", a Danish foundation
    assert clean_name("コメリHD") == clean_name("コメリホールディングス")
    assert core_name(clean_name("Empresas Iansa S.A.")) == "iansa"
    assert names_agree(clean_name("Villum Fonden"), clean_name("Villum Foundation")) == IN_TWO_LANGUAGES
    # Malaysia's private company, Sdn Bhd, is no public Berhad
    assert legal_forms("genting malaysia berhad", "genting malaysia") == {"berhad"}
    assert legal_forms("genting malaysia sdn bhd", "genting malaysia") == {"sdn"}


@pytest.mark.parametrize(
    ("url", "home"),
    [("https://www.qorvane.co.kr/main/main.do", True), ("https://www.qorvane.com/main", True),
     ("https://www.qorvane.com/index.html", True), ("https://www.qorvane.com/main/products.do", False)],
)  # fmt: skip
def test_a_home_page_s_script_named_main_or_index_is_the_home(url: str, home: bool) -> None:
    found = site(url)
    assert found is not None and found.home is home


@pytest.mark.parametrize(
    "url",
    ["https://www.vourlakilines.gr/el/i-etaireia/", "https://www.talpara.es/es/quienes-somos",
     "https://www.talpara.de/ueber-uns", "https://www.talpara.lt/apie-mus"],
)  # fmt: skip
def test_a_site_s_about_page_in_its_own_language_is_its_home(url: str) -> None:
    found = site(url)
    assert found is not None and found.home


def test_a_site_s_english_home_and_its_about_page_in_greek_are_one_company() -> None:
    english = co(
        "en", "Blue Gulf Lines", "https://www.bluegulflines.gr/en/", "Syros, Greece", industry="Ferries"
    )
    greek = co(
        "el",
        "Γραμμές Γαλάζιου Κόλπου",
        "https://www.bluegulflines.gr/el/i-etaireia/",
        "Σύρος",
        industry="Ferries",
    )
    assert entities.resolve([english, greek]).groups == [[0, 1]]


@pytest.mark.parametrize(
    ("local", "english"),
    [("Autoridad Marítima de Talvera", "Talvera Maritime Authority"),
     ("Aeroporto di Quarneto", "Quarneto Airport"), ("Cooperativa Ortiva", "Ortiva Cooperative"),
     ("Havenbedrijf Zeelmond", "Port of Zeelmond Authority"), ("Varnok Lastvagnar", "Varnok Trucks"),
     ("Tezkan Savunma Sanayii", "Tezkan Defense Industry"), ("Orvel Havacılık", "Orvel Aviation"),
     ("Luchthaven Zeelmond", "Zeelmond Airport")],
)  # fmt: skip
def test_a_public_or_trade_body_s_name_in_its_language_is_its_english_name(local: str, english: str) -> None:
    assert names_agree(clean_name(local), clean_name(english)) == IN_TWO_LANGUAGES


def test_group_in_russian_or_polish_letters_is_a_filler_as_grupo_is() -> None:
    assert (
        core_name(clean_name("Группа Верхнелес")) == core_name(clean_name("Verkhneles Group")) == "verkhneles"
    )
    assert core_name(clean_name("Grupa Wiślany")) == "wislany"


@pytest.mark.parametrize(
    "local", ["Oberwaldinger-Bräu", "Oberwaldinger Privatbrauerei", "Oberwaldinger Brauhaus"]
)
def test_a_bavarian_brewery_s_braeu_is_its_english_brewery(local: str) -> None:
    assert names_agree(clean_name(local), clean_name("Oberwaldinger Brewery")) == IN_TWO_LANGUAGES


def test_german_fuer_is_left_out_of_a_name_s_initials_as_und_is() -> None:
    assert names_agree(clean_name("Bank für Oberland und Moorgau"), clean_name("BOM")) == "abbreviation"


@pytest.mark.parametrize(
    "written",
    [
        "Jeddal Bank B.S.C. (c)",
        "Jeddal Bank (Pty) Ltd",
        "Jeddal Bank (Pvt) Ltd",
        "Jeddal Bank (Private) Limited",
    ],
)
def test_a_closed_or_private_company_s_bracketed_form_is_a_legal_form(written: str) -> None:
    assert clean_name(written) == "jeddal bank"


def test_northern_ireland_is_the_united_kingdom_as_wales_and_scotland_are() -> None:
    assert country_of("Dungannon, Northern Ireland") == country_of("Cardiff, Wales") == "united kingdom"
    assert known(country_of("Northern Ireland"))
