"""Entity resolution, the rules added on branch `resolver` (one test each, on names the tuning
worlds never held): legal forms short and long, honorifics, a person's country and trade, names
shortened by syllables, ticker and news hosts, kana, one registered domain in two scripts, a
Wikipedia title as a name, consonant skeletons, a name's aside, two profiles, a parent's brand
page, a unit's deep page, a parent naming what it owns, employers in two languages, register-order
names, readings of CJK names and Agent rows."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import clustering, names, read_names, sites
from exa_orch.workflows.entities.employers import employers_agree
from exa_orch.workflows.entities.evidence import Evidence
from exa_orch.workflows.entities.hosts import HOSTS
from exa_orch.workflows.entities.people import name_evidence, parse, person_key
from exa_orch.workflows.entities.person_evidence import JOIN_PERSON
from exa_orch.workflows.rows import props_of

Json = dict[str, Any]


def co(
    id: str, name: str, url: str, location: str | None = None, industry: str | None = None, desc: str = ""
) -> Json:
    """A Websets company item: name, URL, location and industry (left out when None), description."""
    company: Json = {"name": name}
    if location is not None:
        company["location"] = location
    if industry is not None:
        company["industry"] = industry
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def person(
    id: str, name: str, url: str, employer: str | None = None, location: str | None = None, desc: str = ""
) -> Json:
    """A Websets person item: name, URL, employer and location (left out when None), description."""
    props: Json = {"name": name}
    if employer is not None:
        props["company"] = {"name": employer}
    if location is not None:
        props["location"] = location
    return {"id": id, "properties": {"type": "person", "url": url, "description": desc, "person": props}}


def agent_row(id: str, kind: str, name: str, url: str, description: str, **identity: str) -> Json:
    """An Agent row as the resolver reads it (rows.props_of: name, url, description, identity fields)."""
    row = {"type": kind, "name": name, "url": url, "description": description, **identity}
    return {"id": id, "properties": props_of(row)}


def compare(a: Json, b: Json) -> Evidence:
    return entities.compare(entities.record(0, a), entities.record(1, b))


def said(a: Json, b: Json) -> str:
    """The reason the two join, or why they stay apart."""
    ev = compare(a, b)
    return ev.reason if ev.joins else ev.why_apart


def joined(a: Json, b: Json) -> bool:
    return entities.resolve([a, b]).groups == [[0, 1]]


# 1. legal forms ------------------------------------------------------------------------------


def test_one_legal_form_written_short_or_long_is_one_form_and_two_forms_still_differ() -> None:
    long_, short = "jollibee foods corporation", "jollibee foods corp"
    assert names.legal_forms(long_, names.clean_name(long_)) == {"corporation"}
    assert names.legal_forms(short, names.clean_name(short)) == {"corporation"}
    site = co("a", "Jollibee Foods Corporation", "https://www.jollibeefoods.com/")
    page = co("b", "Jollibee Foods Corp", "https://www.bloomberg.com/profile/company/JFC:PM")
    assert "different legal forms" not in " ".join(compare(site, page).against)

    merck = co("a", "Merck & Co., Inc.", "https://www.merck.com/")
    kgaa = co("b", "Merck KGaA", "https://www.merckgroup.com/")
    against = compare(merck, kgaa).against
    assert any(r.startswith("different legal forms") and "kgaa" in r for r in against), against
    assert not joined(merck, kgaa)


def test_a_countrys_letters_after_a_name_are_no_legal_form() -> None:
    """ "Velkaro U.S." writes its country, not a form: nothing for an "Inc." to differ from."""
    assert names.legal_forms("velkaro u s", "velkaro") == frozenset()
    assert names.legal_forms("velkaro u k ltd", "velkaro") == {"limited"}
    assert names.legal_forms("velkaro s a", "velkaro") == {"sa"}


def test_a_public_limited_company_written_out_in_either_order_is_a_plc() -> None:
    for raw in ("kelmscott public limited company", "kelmscott public company limited", "kelmscott pcl"):
        assert names.legal_forms(raw, names.clean_name(raw)) == {"plc"}, raw
    page = co(
        "a",
        "Kelmscott plc",
        "https://en.wikipedia.org/wiki/Kelmscott_plc",
        "Kuala Lumpur, Malaysia",
        "power generation",
    )
    site = co(
        "b",
        "KELMSCOTT PUBLIC LIMITED COMPANY",
        "https://www.kelmscottplc.com/annual-report",
        "Kuala Lumpur, Malaysia",
        "power generation",
    )
    assert not compare(page, site).against
    assert joined(page, site)


def test_a_name_extending_another_under_another_civil_law_form_is_another_company() -> None:
    """A name that is the other's and a word more, each with a legal form of a civil-law code and
    none shared ("a.s." / "s.r.o."), is another company; English forms say less (a renamed "Inc."
    is a "Corporation")."""
    site = co("a", "Kovotex Žilina, a.s.", "https://www.kovotex-za.sk/", "Žilina, Slovakia", "Bus transport")
    page = co("b", "Kovotex Žilina SK, s.r.o.", "https://www.finstat.sk/kovotex-zilina-sk-sro",
              "Žilina, Slovakia", "Bus transport")  # fmt: skip
    assert any(r.startswith("different legal forms") for r in compare(site, page).against)
    assert not joined(site, page)
    renamed = co("c", "Kovotex Asset Management Inc.", "https://www.kovotex.com/", "Toronto, Canada", "Buses")
    now = co("d", "Kovotex Corporation", "https://www.theglobeandmail.com/business/kovotex-corporation/",
             "Toronto, Canada", "Buses")  # fmt: skip
    assert not any(r.startswith("different legal forms") for r in compare(renamed, now).against)


def test_an_english_form_in_a_profiles_text_is_the_local_form_of_an_exchanges_page() -> None:
    """A profile whose text writes the name with an English form ("Velkaro Corporation is ...") and
    an exchange's page under the local form (Velkaro Oyj), in one country and one trade: one
    company; two local forms apart ("SE" / "AG") still keep a profile and an article apart."""
    wiki = co("a", "Velkaro", "https://en.wikipedia.org/wiki/Velkaro", "Tampere, Finland", "mining equipment",
              "Velkaro Corporation is a Finnish maker of mining equipment, founded in 1978.")  # fmt: skip
    quote = co("b", "Velkaro Oyj", "https://www.nasdaqomxnordic.com/shares/microsite?Instrument=HEX99123",
               "Tampere, Finland", "mining equipment", "Velkaro Oyj share information; listed on Nasdaq Helsinki.")  # fmt: skip
    assert joined(wiki, quote)
    wiki_se = co("c", "Velkaro", "https://en.wikipedia.org/wiki/Velkaro", "Tampere, Finland", "mining equipment",
                 "Velkaro SE is a Finnish maker of mining equipment, founded in 1978.")  # fmt: skip
    assert not joined(wiki_se, quote)


def test_one_name_on_two_sites_joins_where_one_country_and_one_industry_both_say_it() -> None:
    """A quote page on another's site under the name of a group's unit, on the group's country page,
    is the unit's where one known country and one industry both say it; the same name in another
    country (a brand's unit) or in another trade stays apart."""
    where, bank = "Abidjan, Ivory Coast", "Commercial bank"
    own = co("a", "Torvalen Côte d'Ivoire", "https://www.torvalen.com/ci/personal-banking", where, bank)
    quote = co(
        "b", "TORVALEN COTE D'IVOIRE", "https://www.brvmquotes.com/marches/cotation_TRVC.ci", where, bank
    )
    # the quote page is the exchange's (sites.page_site), about the company its name is
    assert said(own, quote).endswith("(equal names), and both based in ivory coast and in commercial bank")
    assert joined(own, quote)
    abroad = co("c", "Torvalen Côte d'Ivoire", "https://www.brvmquotes.com/marches/cotation_TRVC.ci",
                "Dakar, Senegal", bank)  # fmt: skip
    trade = co(
        "d", "Torvalen Côte d'Ivoire", "https://www.brvmquotes.com/marches/cotation_TRVC.ci", where, "Food"
    )
    assert not joined(own, abroad) and not joined(own, trade)


def test_a_profile_whose_long_name_is_a_letter_apart_joins_with_country_and_industry() -> None:
    """A long name romanized a letter apart ("Karadj" / "Karaj") on a profile about the site's
    company joins where one known country and one industry both say it; near-equal names are no
    one name by themselves."""
    own = co(
        "a", "Dorvash Karaj Petrochemical", "https://www.dorvashkpc.ir/en", "Tehran, Iran", "Petrochemicals"
    )
    page = co("b", "Dorvash Karadj Petrochemical", "https://www.linkedin.com/company/dorvash-karadj",
              "Tehran, Iran", "Petrochemicals")  # fmt: skip
    assert joined(own, page)
    other = co("c", "Dorvash Karadj Petrochemical", "https://www.linkedin.com/company/dorvash-karadj",
               "Tehran, Iran", "Fertilisers")  # fmt: skip
    assert not joined(own, other)


def test_near_equal_names_whose_words_begin_apart_are_two_places_companies() -> None:
    """ "Tarnstaler Seilbahnen" and "Varnstaler Seilbahnen", two valleys' lifts a letter apart, are
    no near-equal name: a word of one begins with another letter than its fellow's."""
    own = co("a", "Tarnstaler Seilbahnen GmbH", "https://www.tarnstaler.at/", "Tyrol, Austria", "Ski lifts")
    page = co("b", "Varnstaler Seilbahnen", "https://de.wikipedia.org/wiki/Varnstaler_Seilbahnen",
              "Tyrol, Austria", "Ski lifts")  # fmt: skip
    assert names.names_agree("tarnstaler seilbahnen", "varnstaler seilbahnen") is None
    assert not joined(own, page)


def test_two_news_articles_under_one_name_in_two_trades_are_two_companies() -> None:
    """ "Tenggara Jaya Group Bhd" in a shipping report and "Tenggara Jaya group" in a timber one: one
    cleaned name, no site of their own, trades sharing no word: two companies; one trade, one."""
    ships = co("a", "Tenggara Jaya Group Bhd", "https://www.thestar.com.my/business/2025/05/26/tenggara-jaya-in-talks-to-build-vessels",
               "Sarawak, Malaysia", "Shipping and shipbuilding")  # fmt: skip
    timber = co("b", "Tenggara Jaya group", "https://www.woodbizforum.com/tenggara-jaya-cuts-shipments-of-plywood-to-japan/",
                "Sarawak, Malaysia", "Timber, plywood and plantations")  # fmt: skip
    assert not joined(ships, timber)
    again = co("c", "Tenggara Jaya group", "https://www.woodbizforum.com/tenggara-jaya-adds-three-ships-to-its-fleet/",
               "Sarawak, Malaysia", "Shipping and shipbuilding")  # fmt: skip
    assert joined(ships, again)


def test_two_sections_of_one_article_or_two_topic_pages_of_one_blog_are_two_profiles() -> None:
    """A family's article with a section on each of its companies (wiki/Ostrander_family#Quaymaster)
    and a blog's pages of posts on two topics (NAME.wordpress.com/tag/X) are no one profile; the
    article's picture viewer (#/media/...) is the article."""

    def line(id: str, name: str, url: str) -> Json:
        return co(id, name, url, "Cebu, Philippines", "Shipping")

    for one, two in (
        ("https://en.wikipedia.org/wiki/Ostrander_family#Quaymaster", "https://en.wikipedia.org/wiki/Ostrander_family#Malls"),
        ("https://shipspotter.wordpress.com/tag/quaymaster/", "https://shipspotter.wordpress.com/tag/brekkelund/"),
    ):  # fmt: skip
        assert not joined(line("a", "Quaymaster Lines", one), line("b", "Brekkelund Shipping", two))
    article = sites.site("https://en.wikipedia.org/wiki/Ostrander_family#/media/File:Logo.png")
    assert article is not None and article.profile == "en.wikipedia.org/wiki/ostrander_family"
    blog = sites.site("https://shipspotter.wordpress.com/2021/03/04/a-post/")
    assert blog is not None and blog.profile == "wordpress.com/shipspotter"


# 2. honorifics ---------------------------------------------------------------------------------


def test_honorifics_are_dropped_and_tan_alone_is_still_a_family_name() -> None:
    weight, _ = name_evidence("Alhaji Aliko Dangote", "Aliko Dangote")
    assert weight >= 7.0  # a whole name: every given name and the family name
    assert parse("Tan Sri Anthony Fernandes")[0] == parse("Anthony Fernandes")[0]
    assert name_evidence("Tan Sri Anthony Fernandes", "Anthony Fernandes")[0] >= 7.0
    # "Tan" not followed by "Sri" is a name: Tan Cheng Bock, family name first
    assert any(r.family == "tan" and r.given == ("cheng", "bock") for r in parse("Tan Cheng Bock"))
    assert name_evidence("Tan Cheng Bock", "Cheng Bock")[0] < 7.0


# 3. a person's country and trade ----------------------------------------------------------------


def test_a_whole_name_one_country_and_one_word_of_trade_join_a_person() -> None:
    a = person("a", "Magnus Carlsen", "https://www.fide.com/profile/magnus-carlsen", location="Oslo, Norway",
               desc="Magnus Carlsen is a Norwegian chess grandmaster and five-time world champion.")  # fmt: skip
    b = person("b", "Magnus Carlsen", "https://www.olympedia.org/athletes/magnus-carlsen", location="Norway",
               desc="Magnus Carlsen, grandmaster from Tonsberg, has led the rating list since 2011.")  # fmt: skip
    assert joined(a, b), said(a, b)
    assert "grandm" in said(a, b)


def test_namesakes_of_one_country_without_a_word_of_trade_or_a_single_name_stay_apart() -> None:
    tennis = person("a", "Li Na", "https://www.wtatennis.com/players/li-na", location="Wuhan, China",
                    desc="Li Na is a retired tennis player who won the French Open in 2011.")  # fmt: skip
    singer = person("b", "Li Na", "https://www.musicbrainz.org/artist/li-na", location="Beijing, China",
                    desc="Li Na is a folk singer known for her songs of Tibet, later a Buddhist nun.")  # fmt: skip
    assert not joined(tennis, singer), said(tennis, singer)
    one = person("a", "Gabriel", "https://www.arsenal.com/men/players/gabriel", "Arsenal", "London, England",
                 desc="Gabriel is a Brazilian defender who plays for Arsenal.")  # fmt: skip
    two = person("b", "Gabriel Martinelli", "https://www.arsenal.com/men/players/gabriel-martinelli", "Arsenal",
                 "London, England", desc="Gabriel Martinelli is a Brazilian forward who plays for Arsenal.")  # fmt: skip
    assert not joined(one, two), said(one, two)


# 4. names shortened by syllables ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [
        ("magazine luiza", "magalu", True),
        ("petroleo brasileiro", "petrobras", True),
        ("maxis", "max ispat", False),
        ("pelayaran nasional", "pelnas", True),
        # a unit's number the short name leaves unsaid: one of the brand's numbered units
        ("pelayaran nasional ii", "pelnas", False),
        ("pelayaran nasional 3", "pelnas", False),
    ],
)
def test_a_name_shortened_by_syllables_agrees(a: str, b: str, agree: bool) -> None:
    got = names.names_agree(a, b)
    assert (got == "a name shortened by syllables") if agree else got is None, got
    assert names.names_agree(b, a) == got


# 5. ticker pages and news hosts ----------------------------------------------------------------


def test_a_ticker_page_joins_the_site_with_country_and_industry() -> None:
    page = co("a", "One 97 Communications Ltd", "https://www.bloomberg.com/profile/company/PAYTM:IN",
              "Noida, India", "financial services")  # fmt: skip
    own = co("b", "Paytm", "https://paytm.com/", "Noida, India", "financial services")
    assert joined(page, own), said(page, own)
    assert "paytm" in said(page, own).lower()
    assert not joined(
        co("a", "One 97 Communications Ltd", "https://www.bloomberg.com/profile/company/PAYTM:IN"),
        co("b", "Paytm", "https://paytm.com/"),
    )


@pytest.mark.parametrize(
    ("url", "profile"),
    [
        ("https://www.reuters.com/business/finance/paytm-shares-slump-2024-02-01/", None),
        ("https://www.reuters.com/business/retail-consumer/paytm-payments-bank-2024-02-05/", None),
        ("https://www.bloomberg.com/news/articles/2024-02-01/paytm-shares-slump", None),
        ("https://www.bloomberg.com/news/articles/2024-03-15/paytm-gets-approval", None),
        ("https://finance.yahoo.com/quote/PAYTM.NS/", "finance.yahoo.com/quote/PAYTM.NS"),
    ],
)
def test_a_news_article_is_no_profile_and_a_quote_page_is(url: str, profile: str | None) -> None:
    got = sites.site(url)
    assert got is not None
    if profile is None:
        assert got.profile is None
    else:
        assert got.profile is not None and got.profile.lower() == profile.lower()


def test_two_news_articles_on_one_host_share_no_profile_and_are_not_joined_by_it() -> None:
    for first, second in (
        ("https://www.reuters.com/business/finance/paytm-shares-slump-2024-02-01/",
         "https://www.reuters.com/business/retail-consumer/paytm-payments-bank-2024-02-05/"),
        ("https://www.bloomberg.com/news/articles/2024-02-01/paytm-shares-slump",
         "https://www.bloomberg.com/news/articles/2024-03-15/paytm-gets-approval"),
    ):  # fmt: skip
        a, b = co("a", "Paytm", first), co("b", "Paytm Payments Bank", second)
        assert not entities.record(0, a).profiles and not entities.record(1, b).profiles
        assert "same profile" not in said(a, b)
        assert not joined(a, b)


# 6. kana and CJK legal forms --------------------------------------------------------------------


def test_kana_reads_as_hepburn_and_cjk_legal_forms_are_dropped() -> None:
    assert names.fold("キッコーマン") == " kikkoman "
    assert names.fold("イチロー").strip() == "ichiro"
    assert names.clean_name("キッコーマン株式会社") == "kikkoman"
    assert names.clean_name("株式会社キッコーマン") == "kikkoman"
    hon_hai = names.clean_name("鴻海精密工業股份有限公司")
    assert hon_hai == names.clean_name("鴻海精密工業") and "gufen" not in hon_hai.replace(" ", "")


# 7. one registered domain, two scripts ----------------------------------------------------------


def test_a_name_in_another_script_holding_the_sites_name_agrees_on_one_domain() -> None:
    group = co(
        "a", "中国平安", "https://www.pingan.com/investor/"
    )  # not the home page: the name itself agrees
    latin = co("b", "Ping An", "https://group.pingan.com/")
    assert joined(group, latin), said(group, latin)
    assert "the site's name" in said(group, latin)
    bank = co("b", "Ping An Bank", "https://bank.pingan.com/")
    assert "the site's name" not in said(group, bank)
    assert not joined(group, bank)
    home = co("a", "中国平安", "https://www.pingan.com/")  # its own home page in its own script
    assert joined(home, latin) and "home page of pingan.com" in said(home, latin)


# 8. a Wikipedia title is the page's other name --------------------------------------------------


def test_a_wikipedia_title_names_the_page_and_a_profile_name_alone_never_joins_a_site() -> None:
    wiki = co("a", "HeidelbergCement", "https://en.wikipedia.org/wiki/Heidelberg_Materials",
              "Heidelberg, Germany", "building materials")  # fmt: skip
    own = co("b", "Heidelberg Materials", "https://www.heidelbergmaterials.com/en",
             "Heidelberg, Germany", "building materials")  # fmt: skip
    assert joined(wiki, own), said(wiki, own)
    wbd = co("a", "Discovery", "https://en.wikipedia.org/wiki/Warner_Bros._Discovery")
    sa = co("b", "Discovery", "https://www.discovery.co.za/")
    assert not joined(wbd, sa), said(wbd, sa)


def test_a_wikipedia_title_alone_does_not_join_a_namesakes_site() -> None:
    insurer = co("a", "Discovery Holdings", "https://en.wikipedia.org/wiki/Discovery_Limited",
                 "Sandton, South Africa")  # fmt: skip
    network = co("b", "Discovery", "https://www.discovery.com/")
    assert not joined(insurer, network), said(insurer, network)


# 9. Wikipedia editions for people ---------------------------------------------------------------


def test_one_wikipedia_title_in_two_editions_is_evidence_for_a_person() -> None:
    en = person("a", "Neymar", "https://en.wikipedia.org/wiki/Neymar")
    pt = person("b", "Neymar", "https://pt.wikipedia.org/wiki/Neymar")
    assert "one Wikipedia article title" in compare(en, pt).reason
    assert joined(en, pt), said(en, pt)

    singer = person("a", "Li Na", "https://en.wikipedia.org/wiki/Li_Na_(singer)")
    tennis = person("b", "李娜", "https://zh.wikipedia.org/wiki/李娜_(网球运动员)")
    assert "Wikipedia article" not in compare(singer, tennis).reason
    assert not joined(singer, tennis)

    boe = person("a", "Mark Carney", "https://en.wikipedia.org/wiki/Mark_Carney", "Bank of England")
    pm = person("b", "Mark Carney", "https://fr.wikipedia.org/wiki/Mark_Carney", "Government of Canada")
    ev = compare(boe, pm)
    assert not any(r.startswith("different employers") for r in ev.against), ev.against
    assert joined(boe, pm), said(boe, pm)


def test_two_employers_without_one_article_stay_apart() -> None:
    boe = person(
        "a", "Mark Carney", "https://www.bankofengland.co.uk/about/people/mark-carney", "Bank of England"
    )
    pm = person("b", "Mark Carney", "https://www.pm.gc.ca/en/prime-minister", "Government of Canada")
    assert any(r.startswith("different employers") for r in compare(boe, pm).against)


# 10. consonant skeletons ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ناصف ساويرس", "Nassef Sawiris"),
        ("محمد العبار", "Mohamed Alabbar"),
    ],
)  # a Brahmic script writes its vowels: सचिन तेंदुलकर is read whole (test_entities_brahmic.py)
def test_a_consonantal_name_agrees_by_its_skeleton_but_never_alone(a: str, b: str) -> None:
    weight, reason = name_evidence(a, b)
    assert 0 < weight <= 5.0 < JOIN_PERSON, reason
    assert "consonants" in reason


def test_a_skeleton_that_differs_is_against() -> None:
    weight, reason = name_evidence("सचिन तेंदुलकर", "Sachin Pilot")
    assert weight < 0, reason


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [("نبيل حسين فضل الله", "Nabil Hussein Fadlallah", True),  # الله written apart, the Latin run together
     ("سامي عبد الله رشيد", "Sami Abdullah Rashid", True),
     ("سامي عبد الله رشيد", "Abdullah Sami Rashid", False),  # a father's name first is his son's
     ("حسن خير الله", "Hassan Khair", False)],  # a word one letter off is no word run together
)  # fmt: skip
def test_a_name_ending_in_allah_written_apart_reads_as_its_latin_spelling_runs_it_together(
    a: str, b: str, agree: bool
) -> None:
    weight, reason = name_evidence(a, b)
    assert (weight > 0) is agree, reason


# 11. a name's aside -----------------------------------------------------------------------------


def test_a_names_aside_gives_another_name() -> None:
    en = entities.record(0, person("a", "Shigeru Miyamoto", "https://en.wikipedia.org/wiki/Shigeru_Miyamoto",
                                   desc="Shigeru Miyamoto (宮本 茂, born 1952) is a Japanese video game designer."))  # fmt: skip
    assert person_key("宮本 茂") in en.aliases, en.aliases
    assert not any(c.isdigit() for a in en.aliases for c in a)  # "born 1952" is no name
    ja = entities.record(0, person("a", "柳井 正", "https://ja.wikipedia.org/wiki/柳井正",
                                   desc="柳井 正（やない ただし、1949年 - ）は、日本の実業家。"))  # fmt: skip
    assert "yanai tadashi" in ja.aliases, ja.aliases
    # the page's name written without the space its text writes between family and given name
    jo = entities.record(0, person("a", "柳井正", "https://ja.wikipedia.org/wiki/柳井正",
                                   desc="柳井 正（やない ただし、1949年 - ）は、日本の実業家。"))  # fmt: skip
    assert "yanai tadashi" in jo.aliases, jo.aliases


# 12. two profiles on two hosts ------------------------------------------------------------------


def test_two_profiles_on_two_hosts_under_one_name_join_with_country_and_industry() -> None:
    app = co("a", "Flipkart", "https://play.google.com/store/apps/details?id=com.flipkart.android",
             "Bengaluru, India", "e-commerce")  # fmt: skip
    wiki = co("b", "Flipkart", "https://en.wikipedia.org/wiki/Flipkart", "Bengaluru, India", "e-commerce")
    assert joined(app, wiki), said(app, wiki)
    bare_app = co("a", "Flipkart", "https://play.google.com/store/apps/details?id=com.flipkart.android")
    bare_wiki = co("b", "Flipkart", "https://en.wikipedia.org/wiki/Flipkart")
    assert not joined(bare_app, bare_wiki), said(bare_app, bare_wiki)


# 13. a parent's page naming its brand -----------------------------------------------------------


def test_a_parents_page_naming_the_brand_joins_the_brands_site_named_by_initials() -> None:
    page = co("a", "Albert Heijn", "https://www.aholddelhaize.com/brands/albert-heijn/")
    own = co("b", "Albert Heijn", "https://www.ah.nl/")
    assert joined(page, own), said(page, own)
    assert "its own site ah.nl" in said(page, own)
    other = co("b", "Albert Heijn", "https://www.albertsons.com/")
    assert not joined(page, other)


# 14. a unit's page deep in the site -------------------------------------------------------------


def test_a_unit_page_deep_in_the_site_adding_two_words_is_kept_apart() -> None:
    unit = co("a", "FUJIFILM Business Innovation", "https://www.fujifilm.com/fb/company/outline")
    group = co("b", "FUJIFILM Holdings", "https://holdings.fujifilm.com/")
    against = compare(unit, group).against
    assert any("a page deep in the site" in r and "business innovation" in r for r in against), against
    assert not joined(unit, group)
    # the same two words on the site's home page may be the company's own name
    home = co("a", "FUJIFILM Business Innovation", "https://www.fujibusinessinnovation.fujifilm.com/")
    assert not any("a page deep in the site" in r for r in compare(home, group).against)


def test_the_unit_page_of_the_docstring_is_kept_apart() -> None:
    unit = co("a", "FUJIFILM Business Innovation", "https://www.fujifilm.com/fb/")
    group = co("b", "FUJIFILM Holdings", "https://holdings.fujifilm.com/")
    assert not joined(unit, group), said(unit, group)


def test_a_former_name_on_the_about_page_is_not_a_unit() -> None:
    home = co("a", "Shell plc", "https://www.shell.com/")
    about = co("b", "Royal Dutch Shell plc", "https://www.shell.com/about-us.html")
    against = compare(home, about).against
    assert not any("unit of the site's owner" in r for r in against), against


# 15. news hosts ---------------------------------------------------------------------------------


def test_a_news_host_is_a_platform_with_no_profile() -> None:
    news = [h for h in HOSTS if h.key == "none"]
    assert any(h.name == "techcrunch.com" for h in news)
    for h in news:
        got = sites.site(f"https://{h.name}/2024/05/14/some-company-raises-money/")
        assert got is not None and got.platform and got.profile is None, h.name


def test_a_news_article_about_a_company_joins_its_site_only_with_corroboration() -> None:
    url = "https://techcrunch.com/2024/05/14/klarna-ai-assistant/"
    article = co("a", "Klarna", url, "Stockholm, Sweden", "fintech",
                 desc="Klarna, the Swedish buy now pay later fintech, said its assistant handles chats.")  # fmt: skip
    own = co("b", "Klarna", "https://www.klarna.com/", "Stockholm, Sweden", "fintech")
    assert joined(article, own), said(article, own)
    assert not entities.entity_key(article).startswith("site:")  # an article is never a site of its own


def test_a_news_article_under_the_companys_name_alone_does_not_join_its_site() -> None:
    url = "https://techcrunch.com/2024/05/14/klarna-ai-assistant/"
    article, own = co("a", "Klarna", url), co("b", "Klarna", "https://www.klarna.com/")
    assert not joined(article, own), said(article, own)


# 16. a parent naming what it owns ---------------------------------------------------------------


def test_a_company_that_says_it_is_the_parent_of_another_is_kept_apart_from_it() -> None:
    ids = co("a", "International Distribution Services plc", "https://www.internationaldistributionservices.com/",
             desc="International Distribution Services plc is the parent of Royal Mail and GLS; formerly Royal Mail plc.")  # fmt: skip
    mail = co("b", "Royal Mail", "https://www.royalmail.com/")
    against = compare(ids, mail).against
    assert any("as a company it owns" in r for r in against), against
    assert not joined(ids, mail)


def test_the_group_a_company_heads_under_its_own_name_is_not_another_company() -> None:
    ab = co("a", "AB Volvo", "https://www.volvogroup.com/en/about-us/ab-volvo.html",
            desc="AB Volvo is the parent company of the Volvo Group.")  # fmt: skip
    group = co("b", "Volvo Group", "https://www.volvogroup.com/")
    against = compare(ab, group).against
    assert not any("it owns" in r for r in against), against
    assert entities.record(0, ab).owned == {}


def test_a_unit_whose_name_adds_a_word_of_its_own_to_its_parent_s_is_another_company() -> None:
    """ "AS Kelvora Group is the parent company of AS Kelvora Pank": the bank, its legal form before
    its name, is not the group's own name ("Pank" is no designator), so the two stay apart."""
    group = co("a", "Kelvora Group", "https://investor.kelvora.ee/en/",
               desc="AS Kelvora Group is the parent company of AS Kelvora Pank and Kelvora Kindlustus.")  # fmt: skip
    bank = co("b", "Kelvora Pank", "https://www.kelvora.ee/en")
    assert "kelvora pank" in entities.record(0, group).owned
    assert any("it owns" in r for r in compare(group, bank).against)
    assert not joined(group, bank)


def test_a_short_word_beside_a_designator_alone_is_no_shortened_name() -> None:
    """An exchange's list shortens words ("Mapletree Log Tr"), but two letters beside "Bank" are a
    name of their own: QV Bank is not Quorvale Bank."""
    from exa_orch.workflows.entities.names import names_agree

    assert names_agree("qv bank", "quorvale bank") is None
    assert names_agree("quorvale log tr", "quorvale logistics trust") == "abbreviation"


@pytest.mark.parametrize(
    ("a", "b", "one"),
    [("zarvan petrochemical", "zaarvan petrochemical", True),  # one name romanized twice
     ("shahr zarvan petrochemical", "shahr zarvoon petrochemical", True),
     ("zarvan bank", "zorvin bank", False),  # "bank" alike is no word of the name's own
     ("zarvan petrochemical", "zarvin petrochemical", True),
     ("zarvan petrochemical", "darvan petrochemical", False),  # another first letter
     ("zarvan petrochemical", "zarvand petrochemical", False)],  # another consonant
)  # fmt: skip
def test_a_name_romanized_twice_with_its_vowels_apart_is_one_name(a: str, b: str, one: bool) -> None:
    from exa_orch.workflows.entities.names import ONE_NAME, names_agree

    assert (names_agree(a, b) in ONE_NAME) is one


@pytest.mark.parametrize(
    ("short", "long_", "one"),
    [("quorvale armenia", "quorvale bank armenia", True),  # "Bank" written inside: one name
     ("quorvale chartered nigeria", "quorvale chartered bank nigeria", True),
     ("quorvale chartered", "quorvale chartered bank", False),  # after it: the group's bank
     ("quorvale", "quorvale bank", False)],  # one word: too many companies' first word
)  # fmt: skip
def test_a_designator_written_inside_a_name_leaves_it_one_name(short: str, long_: str, one: bool) -> None:
    from exa_orch.workflows.entities.names import ONE_NAME, names_agree

    assert (names_agree(short, long_) in ONE_NAME) is one


# 17. employers in two languages -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "agree"),
    [
        ("banque centrale europeenne", "european central bank", True),
        ("gobierno de espana", "government of spain", True),
        ("university of toronto", "universite de montreal", False),
    ],
)
def test_one_employer_in_two_languages_agrees(x: str, y: str, agree: bool) -> None:
    assert bool(employers_agree(x, y)) is agree
    assert bool(employers_agree(y, x)) is agree


# 18. register order and single names ------------------------------------------------------------


def test_register_order_middle_names_and_single_names_weigh_as_described() -> None:
    weight, reason = name_evidence("Trudeau, Justin Pierre James", "Justin Trudeau")
    assert 6.5 <= weight < 7.0, reason  # middle names on one side only
    assert parse("Trudeau, Justin Pierre James")[0].family == "trudeau"
    assert name_evidence("Faker", "Faker") == (5.5, "the same single name")
    assert name_evidence("Gabriel", "Gabriel Martinelli")[0] == 4.0


# 19. readings of CJK names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "other"), [("紫金矿业", "zijin mining"), ("오리온", "orion confectionery")]
)
def test_a_cjk_name_agrees_with_a_latin_name_its_reading_begins_with(written: str, other: str) -> None:
    assert read_names.reading_agrees(written, names.clean_name(written), other, other)
    assert read_names.reading_agrees(written, names.clean_name(written), "apple", "apple") is None


def test_a_cjk_name_and_its_latin_reading_are_blocked_and_joined() -> None:
    own = co("a", "紫金矿业", "https://www.zjky.cn/", "Xiamen, China", "mining")
    wiki = co("b", "Zijin Mining", "https://en.wikipedia.org/wiki/Zijin_Mining", "Xiamen, China", "mining")
    res = entities.resolve([own, wiki])
    assert res.groups == [[0, 1]], said(own, wiki)


def test_two_latin_names_sharing_a_first_word_are_not_paired_by_the_reading_key() -> None:
    a = entities.make(0, "a", "company", "Orion Confectionery", url="https://www.orionworld.com/")
    b = entities.make(1, "b", "company", "Orion Energy", url="https://www.orionenergy.com/")
    keys_a, keys_b = clustering._keys(a), clustering._keys(b)
    # kept only beside a name in another script (r:, t:), a profile (q:) or a ticker's page (T:)
    assert keys_a & keys_b == {"r:orion", "q:orion", "t:orion", "T:o"}
    assert list(clustering._blocks([a, b])) == []
    cjk = entities.make(1, "b", "company", "오리온", url="https://www.orionworld.com/")
    assert [0, 1] in list(clustering._blocks([a, cjk]))


# 20. Agent rows ---------------------------------------------------------------------------------


def test_agent_rows_with_location_and_industry_resolve_like_websets_items() -> None:
    args = [
        (
            "a",
            "HeidelbergCement",
            "https://en.wikipedia.org/wiki/Heidelberg_Materials",
            "Heidelberg, Germany",
        ),
        ("b", "Heidelberg Materials", "https://www.heidelbergmaterials.com/en", "Heidelberg, Germany"),
        ("c", "Heidelberg Materials", "https://www.heidelbergmaterials.us/", "Irving, United States"),
    ]
    rows = [agent_row(i, "company", n, u, f"{n} makes cement.", location=loc, industry="building materials")
            for i, n, u, loc in args]  # fmt: skip
    items = [co(i, n, u, loc, "building materials", desc=f"{n} makes cement.") for i, n, u, loc in args]
    assert rows[0]["properties"]["company"]["industry"] == "building materials"
    got = entities.resolve(rows)
    assert got.groups == entities.resolve(items).groups
    assert [0, 1] in got.groups and [2] in got.groups


# later rules of the same session -------------------------------------------------------------


def test_a_subsidiarys_page_on_its_parents_site_joins_its_own_site_named_for_it() -> None:
    parent_page = co("a", "A.S. Watson Group", "https://www.ckh.com.hk/en/businesses/a-s-watson-group")
    own = co("b", "A.S. Watson Group", "https://www.aswatson.com/")
    assert joined(parent_page, own), said(parent_page, own)
    # a page its path does not name (the parent's retail page) is not the subsidiary's for sure
    retail = co("a", "A.S. Watson Group", "https://www.ckh.com.hk/en/businesses/retail.php")
    assert not joined(retail, own)
    brand = co("a", "Scania", "https://traton.com/en/company/brands/scania.html")
    assert joined(brand, co("b", "Scania", "https://www.scania.com/group/en/")), (
        "a path naming a one-word name"
    )
    # a one-word name on a page whose path does not name it is no site's
    other = co("a", "Scania", "https://traton.com/en/company/brands.html")
    assert not joined(other, co("b", "Scania", "https://www.scania.com/"))


def test_initials_with_the_legal_forms_and_a_page_named_as_the_sites_label() -> None:
    gcpl = co(
        "a", "GCPL", "https://www.reuters.com/markets/companies/GODR.NS", "Mumbai, India", "consumer goods"
    )
    godrej = co(
        "b", "Godrej Consumer Products", "https://www.godrejcp.com/", "Mumbai, India", "consumer goods"
    )
    assert joined(gcpl, godrej), said(gcpl, godrej)
    three = co("a", "3DS", "https://www.reuters.com/markets/companies/DSY.PA", "Vélizy, France", "software")
    ds = co("b", "Dassault Systèmes", "https://www.3ds.com/", "Vélizy, France", "software")
    assert joined(three, ds) and "the site's label" in said(three, ds)
    # without a country and trade both say, neither joins
    assert not joined(
        co("a", "GCPL", gcpl["properties"]["url"]),
        co("b", "Godrej Consumer Products", "https://www.godrejcp.com/"),
    )


def test_initials_of_two_words_and_a_letter_need_that_letter_written() -> None:
    # "ACC" is not Ambuja Cement's initials with a "Company" guessed: two Indian cement makers
    acc = co("a", "RCC", "https://economictimes.indiatimes.com/rcc-ltd/stocks/companyid-99.cms",
             "Mumbai, India", "cement")  # fmt: skip
    site = co("b", "Rampur Cement", "https://www.rampurcement.com/", "Mumbai, India", "cement")
    assert not joined(acc, site), said(acc, site)
    # the site's page writing the form ("Rampur Cement Company is ...") lets the letter stand for it
    site["properties"]["description"] = "Rampur Cement Company is a cement maker in western India."
    assert joined(acc, site), said(acc, site)


def test_the_sites_name_may_end_the_profiles_with_country_and_trade() -> None:
    wiki = co(
        "a",
        "Assicurazioni Generali",
        "https://it.wikipedia.org/wiki/Assicurazioni_Generali",
        "Trieste, Italy",
        "insurance",
    )
    own = co("b", "Generali", "https://www.generali.com/", "Trieste, Italy", "insurance")
    assert joined(wiki, own), said(wiki, own)
    assert not joined(
        co("a", "Assicurazioni Generali", wiki["properties"]["url"], "Trieste, Italy", "insurance"),
        co("b", "Generali", "https://www.generali.com/", "Lyon, France", "insurance"),
    )


def test_renames_said_as_a_company_name_change() -> None:
    article = co("a", "Freshdesk", "https://techcrunch.com/2017/06/06/freshdesk-is-now-freshworks/",
                 desc="Chennai-founded Freshdesk has changed its company name to Freshworks.")  # fmt: skip
    own = co("b", "Freshworks", "https://www.freshworks.com/")
    assert joined(article, own) and "changed its company name to Freshworks" in said(article, own)
    news = co("a", "Anthem, Inc.", "https://www.reuters.com/business/anthem-changes-name-elevance-health-2022-06-28/",
              desc="U.S. health insurer Anthem Inc. completed its name change to Elevance Health.")  # fmt: skip
    assert joined(news, co("b", "Elevance Health", "https://www.elevancehealth.com/"))


def test_employers_held_at_once_are_neither_new_nor_one() -> None:
    pm = person("a", "Keir Starmer", "https://www.gov.uk/government/people/keir-starmer",
                "Prime Minister's Office, 10 Downing Street", "London, United Kingdom", "Prime Minister.")  # fmt: skip
    mp = person("b", "Keir Starmer", "https://members.parliament.uk/member/4514/career",
                "House of Commons", "London, United Kingdom", "Labour MP for Holborn.")  # fmt: skip
    assert "different employers" not in " ".join(compare(pm, mp).against)
    club = person("a", "Sam Kerr", "https://www.chelseafc.com/en/teams/profile/sam-kerr", "Chelsea FC Women")
    team = person(
        "b", "Sam Kerr", "https://www.ausfootball.com/kerr", "Australia Women's National Soccer Team"
    )
    assert "different employers" not in " ".join(compare(club, team).against)
    moved = person("b", "Christopher Luxon", "https://www.beehive.govt.nz/luxon", "New Zealand Government")
    ceo = person("a", "Christopher Luxon", "https://www.airnewzealand.co.nz/luxon", "Air New Zealand")
    assert any(r.startswith("different employers") for r in compare(ceo, moved).against)


def test_an_employer_named_in_passing_with_a_possessive_is_the_others() -> None:
    a = person("a", "Shinya Yamanaka", "https://gladstone.org/people/shinya-yamanaka", "Gladstone Institutes",
               desc="Shinya Yamanaka is a senior investigator at Gladstone Institutes and a professor at "
               "Kyoto University's Center for iPS Cell Research.")  # fmt: skip
    b = person("b", "Shinya Yamanaka", "https://www.nobelprize.org/yamanaka/facts/", "Kyoto University")
    assert not compare(a, b).against, compare(a, b).against


def test_consonants_one_letter_off_or_run_together_agree_and_others_do_not() -> None:
    # Devanagari writes its vowels: read whole (brahmic.py), beyond its consonants
    assert name_evidence("नीरज चोपड़ा", "Neeraj Chopra")[0] == 7.0
    assert name_evidence("शाहरुख़ ख़ान", "Shah Rukh Khan")[0] == 7.0
    assert name_evidence("नीरज चोपड़ा", "Neeraj Singh")[0] < 0
    assert name_evidence("ناصف ساويرس", "Nassef Sawiris")[0] == 5.0  # Arabic does not


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("שמעון פרס", "Shimon Peres"),  # ו and ע write vowels; "frs" is no title FRS here
        ("עמוס עוז", "Amos Oz"),  # "ms" is no title Ms.
        ("נפתלי בנט", "Naftali Bennett"),  # "bnt" is bint only in Arabic letters
        ("חיים לוי", "Haim Levi"),  # ו a v, as anyascii reads it
        ("محمد بن راشد آل مكتوم", "Mohammed bin Rashid Al Maktoum"),  # بن and آل are particles
        ("علاء الزيات", "Alaa Al Zayat"),  # علاء reads "l": a word, not the article آل
        ("كريمة بن سالم", "Karima Ben Salem"),  # Ben between a Maghrebi name's words is بن
        ("ناديا شاهين", "Nadia Chahine"),  # a French ch is ش
        ("نيكولا حداد", "Nicolas Haddad"),  # a c is ك
        ("وحيد رضوانفر", "Vahid Rezvanfar"),  # a v is Persian's و
        ("أم كلثوم ", "Umm Kulthum"),  # "umm" reads "m", its doubled m once
        ("نجاة سعيد", "Najat Said"),  # ة is a t where the name says it
    ],
)
def test_hebrew_and_arabic_names_are_read_by_their_consonants(a: str, b: str) -> None:
    weight, reason = name_evidence(a, b)
    assert weight == 5.0, reason
    assert name_evidence(a, "Dan Cohen")[0] < 0


def test_a_word_of_one_consonant_reads_in_its_place_and_a_middle_name_may_be_left_out() -> None:
    """राय / Rai: one consonant, read only against the word in its place; a middle name the
    script writes and the Latin name leaves out weighs less than a whole agreement."""
    assert name_evidence("मनोज राय", "Manoj Rai")[0] == 5.0
    assert name_evidence("मनोज राय", "Manoj Ram")[0] < 0
    assert name_evidence("मनोज राय", "Rai Manoj")[0] < 0
    weight, reason = name_evidence("عمران خان نیازی", "Imran Niazi")
    assert weight == 4.0 and "a middle name on one side" in reason
    assert name_evidence("عمران خان نیازی", "Imran Khan")[0] < 4.0


def test_a_two_letter_segment_is_a_locale_only_when_it_is_a_language_or_a_country() -> None:
    assert sites.site("https://www.kao.com/jp/").locale == "jp"  # type: ignore[union-attr]
    assert sites.site("https://www.latamairlines.com/br/pt").path == ""  # type: ignore[union-attr]
    unit = sites.site("https://www.fujifilm.com/fb/")
    assert unit is not None and unit.path == "/fb" and not unit.locale


def test_one_name_on_a_brands_tld_and_a_country_domain_in_two_trades_stays_two() -> None:
    """SoftBank Corp. (softbank.jp, telecoms) and SoftBank Group (group.softbank, investment
    holding): one country, two trades, two companies, even where no page says which owns which."""
    corp = co("a", "SoftBank Corp.", "https://www.softbank.jp/en/corp/", "Tokyo, Japan", "Telecommunications")
    group = co("b", "SoftBank Group", "https://group.softbank/en", "Tokyo, Japan", "Investment holding")
    assert not joined(corp, group), said(corp, group)
    same_trade = co("b", "SoftBank Group", "https://group.softbank/en", "Tokyo, Japan", "Telecommunications")
    assert joined(corp, same_trade), said(corp, same_trade)


def test_an_evaluations_reasoning_is_no_word_of_a_persons_trade() -> None:
    """Every item a criterion judged carries the same reasoning words ("The page of X supports
    this"): read as what the person does, they joined Li Na the singer to Li Na the tennis player."""

    def judged(item: Json) -> Json:
        text = item["properties"]["description"]
        item["evaluations"] = [{"criterion": "Is a public figure", "satisfied": "yes",
                                "reasoning": f"The page supports this: {text!r}"}]  # fmt: skip
        return item

    tennis = judged(person("a", "Li Na", "https://www.wtatennis.com/players/310137/na-li", "WTA", "Wuhan, China",
                           "Li Na, retired Chinese tennis player, won the 2011 French Open."))  # fmt: skip
    singer = judged(person("b", "Li Na", "https://en.wikipedia.org/wiki/Li_Na_(singer)", None, "China",
                           "Li Na is a Chinese singer who became a Buddhist nun in 1997."))  # fmt: skip
    assert not joined(tennis, singer), said(tennis, singer)


def test_a_father_and_a_son_of_one_name_stay_two() -> None:
    son = person("a", "Ernő Rubik", "https://en.wikipedia.org/wiki/Ern%C5%91_Rubik", None, "Budapest, Hungary",
                 "Ernő Rubik is a Hungarian inventor and architect, best known for the Rubik's Cube.")  # fmt: skip
    father = person("b", "Ernő Rubik Sr.", "https://en.wikipedia.org/wiki/Ern%C5%91_Rubik_Sr.", None,
                    "Budapest, Hungary", "Ernő Rubik Sr. was a Hungarian aircraft engineer and inventor.")  # fmt: skip
    assert not joined(son, father) and "a generation apart" in said(son, father)
    assert not any("generation" in r for r in compare(
        person("a", "Neymar", "https://en.wikipedia.org/wiki/Neymar"),
        person("b", "Neymar Jr", "https://www.instagram.com/neymarjr/"),
    ).against)  # fmt: skip


@pytest.mark.parametrize(
    ("url", "name", "publisher"),
    [
        # a dated path, a slug of many words, a long number: a publisher's article on it
        ("https://www.lvz.de/wirtschaft/2024/03/12/verbio-baut-neue-anlage/", "Verbio", True),
        ("https://www.e24.no/energi/vow-asa-far-ny-kontrakt-med-cruiserederi/", "Vow ASA", True),
        ("https://www.dn.no/industri/vow/1-2-1550312", "Vow ASA", True),
        # the site of the name: its own newsroom's article stays its page
        ("https://www.verbio.de/en/press/2024/03/12/verbio-opens-new-plant/", "Verbio", False),
        # a page named for the name on another's site, no date: the page of a unit (evidence.py)
        ("https://www.ckh.com.hk/en/businesses/a-s-watson-group", "A.S. Watson Group", False),
        ("https://www.lvz.de/impressum", "Verbio", False),  # no article's shape
        # a listed company's page on an exchange the hosts table does not know
        ("https://www.boerse-stuttgart.de/aktie/verbio-vereinigte-bioenergie", "Verbio", True),
        ("https://www.cse.lk/displayCompany.php?name=HAYL", "Hayleys PLC", True),
        ("https://www.verbio.de/en/investor-relations/share/", "Verbio", False),  # its own site
        ("https://www.jse.co.za/companies/sappi-ltd", "SAPPI LTD", True),
        (
            "https://www.six-group.com/en/market-data/shares/share-explorer/share-details.CH0023405456CHF4.html",
            "Avolta AG",
            True,
        ),  # fmt: skip
        ("https://www.marketindex.com.au/asx/ctx", "Caltex Australia Limited", True),
        ("https://www.example-group.com/en/about/company-profile/overview", "Example Holdings", False),
        ("https://www.bse-sofia.bg/en/issuer-profile/5PET", "Petrol AD", True),
        ("https://www.nasdaqomxnordic.com/aktier/microsite?Instrument=SSE1027", "Tele2 AB", True),
        ("https://www.idx.co.id/id/perusahaan-tercatat/profil-perusahaan-tercatat/INKP", "Indah Kiat", True),
        ("https://www.gpw.pl/spolka?isin=PLXTRDM00011", "XTB", True),
        ("https://www.infomercado.com.br/cotacoes/b3/acao/orvalla-orvl3", "Orvalla (ORVL3)", True),
        ("https://www.exchange.me/emitenti/orvl", "Orvalla AD", True),
        ("https://www.sharequotes.co.za/v3/quickshare.php?scode=ORV", "ORVALLA LTD", True),
        # an article script whose query numbers the article
        ("https://www.koreaherald.com/view.php?ud=20241101050412", "SK Innovation", True),
        ("https://www.skinnovation.com/view.php?ud=20241101050412", "SK Innovation", False),  # its own site
        ("https://www.koreaherald.com/view.php?lang=en", "SK Innovation", False),
        # a slug of three words, one not the name's ("markets/orvalla-sugar-output"), and a blog's post
        ("https://www.dailyledger.co.ug/business/markets/orvalla-sugar-output", "Orvalla Sugar Ltd", True),
        (
            "https://www.dailyledger.co.ug/directory/orvalla-sugar-works",
            "Orvalla Sugar Works",
            True,
        ),  # an entry
        (
            "https://www.ghgroup.co.ug/our-businesses/orvalla-sugar-works",
            "Orvalla Sugar Works",
            False,
        ),  # a unit
        ("https://steelwire-news.dz/?p=52475", "Orvalla Steel", True),
        ("https://steelwire-news.dz/?page=about", "Orvalla Steel", False),
        # a query key naming an article or a news item by its number
        (
            "https://cyclewire.example/index.php?route=bossblog/article&blog_article_id=352",
            "Orvalla Cycle Taiwan",
            True,
        ),
        ("https://en.orvalla-insight.mn/index.php?newsid=441", "Orvalla Coal Mining", True),
        ("https://english.weekly.example.tw/article/article.action?id=2932", "Orvalla Tech", True),  # Java's
        ("https://www.orvallacycle.com.tw/index.php?route=product/category&path=8", "Orvalla Cycle", False),
        ("https://www.portnews.kr/news/main_newsView.jsp?pNum=1250", "Orvalla Line", False),  # a script
        # a label sharing only the name's first letters is another's site ("khorgoltextile", Khorgol Noos)
        ("https://khorgoltextile.mn/en/news/central-asia-visit", "Khorgol Noos cashmere factory", True),
    ],
)
def test_an_article_on_a_publishers_site_is_a_news_hosts_page(url: str, name: str, publisher: bool) -> None:
    got = sites.page_site(url, name)
    assert got is not None and got.platform is publisher and (got.profile is None or not publisher)


def test_an_article_under_a_companys_name_joins_its_site_with_a_country_and_a_trade() -> None:
    article = co(
        "a", "Verbio", "https://www.lvz.de/wirtschaft/2024/03/12/verbio-baut-neue-anlage/",
        "Leipzig, Germany", "biofuels",
    )  # fmt: skip
    own = co("b", "Verbio", "https://www.verbio.de/", "Leipzig, Germany", "biofuels")
    wiki = co(
        "c",
        "Verbio Vereinigte BioEnergie",
        "https://de.wikipedia.org/wiki/Verbio",
        "Leipzig, Germany",
        "biofuels",
    )
    assert entities.resolve([article, own, wiki]).groups == [[0, 1, 2]]
    assert "lvz.de/wirtschaft/2024" in said(article, own)
    # another country's company of the name: a publisher's page names no site of its own
    abroad = co("d", "Verbio", "https://www.verbio.com.br/", "São Paulo, Brazil", "biofuels")
    assert entities.resolve([article, abroad]).groups == [[0], [1]]


@pytest.mark.parametrize(
    ("thai", "latin"),
    [
        ("สมชาย ตีระวนิช", "Somchai Tiravanija"),  # ว a v, ช a j
        ("อนันต์ ศรีวัฒนประภา", "Anan Srivaddhanaprabha"),  # ฒ a ddh, ภ a bh; น์ is silent
        ("สุรชัย ทรัพย์สมบูรณ์", "Surachai Sapsombun"),  # ทร is s
        ("ปิยะ คูกิมิยะ", "Piya Kugimiya"),  # ก a g
        ("กัญญา จันทร์เพ็ญ", "Kanya Chanpen"),  # ทร์ is silent, both letters
    ],
)
def test_thai_names_are_read_by_their_consonants_as_their_latin_spellings_write_them(
    thai: str, latin: str
) -> None:
    """A Thai name's consonants, each as Latin spellings write it; and a blocking key shared, so the
    pair is weighed at all."""
    from exa_orch.workflows.entities.person_keys import _consonant_keys

    weight, reason = name_evidence(thai, latin)
    assert weight == 5.0, reason
    assert name_evidence(thai, "Somsak Chaiyaporn")[0] < 0
    assert {k for k in _consonant_keys(thai) if k.startswith("t:")} & _consonant_keys(latin)


def test_a_name_run_together_meets_the_name_with_its_article_and_form() -> None:
    site = co(
        "a", "CooperCompanies", "https://www.coopercos.com/", "San Ramon, United States", "Medical devices"
    )
    wiki = co("b", "The Cooper Companies, Inc.", "https://en.wikipedia.org/wiki/The_Cooper_Companies",
              "San Ramon, United States", "Medical devices")  # fmt: skip
    assert entities.resolve([site, wiki]).groups == [[0, 1]]


def test_a_brands_page_on_its_parents_site_joins_a_site_whose_label_adds_to_or_shortens_its_name() -> None:
    for label in ("corvalis-online", "corvalis360", "corv"):
        page = co("a", "Corvalis", "https://www.halvard.com/brands/corvalis")
        assert joined(page, co("b", "Corvalis", f"https://www.{label}.com/")), label
    # a label neither adding a site's word nor a start of the name is another's
    for label in ("corvalisgroupe-shop", "covalis", "cv"):
        page = co("a", "Corvalis", "https://www.halvard.com/brands/corvalis")
        assert not joined(page, co("b", "Corvalis", f"https://www.{label}.com/")), label


def test_an_arabic_name_s_generations_in_another_order_are_another_person() -> None:
    """سامي عبدالله رشيد is Sami, son of Abdullah; "Abdullah Sami Rashid" his son, of the same
    consonants in another order: the person's own name opens both or they differ."""
    assert name_evidence("سامي عبدالله رشيد", "Sami Abdullah Rashid")[0] > 0
    assert name_evidence("عبدالله سامي رشيد", "Sami Abdullah Rashid")[0] < 0


def test_a_news_page_on_an_associations_site_is_the_factorys_it_names() -> None:
    """A factory's visit reported on its trade association's site ("khorgoltextile.mn/en/news/...")
    under the factory's name is the association's news about the factory: it joins the factory's
    own site, and the association's front page stays apart, though the association's name in
    Cyrillic begins with the factory's."""
    where, trade = "Ulaanbaatar, Mongolia", "Cashmere"
    front = co("a", "Хорголын Ноос Ноолуурын Холбоо", "https://khorgoltextile.mn/mn/", where, trade)
    url = "https://khorgoltextile.mn/en/news/central-asia-visit"
    english = co("b", "Khorgol Wool and Cashmere Association", "https://khorgoltextile.mn/en/", where, trade)
    news = co("c", "Khorgol Noos cashmere factory", url, where, trade)
    own = co("d", "Хоргол Ноос ХК", "https://www.khorgolnoos.mn/", where, trade)
    assert entities.resolve([front, english, news, own]).groups == [[0, 1], [2, 3]]


def test_a_directorys_entry_named_for_a_company_is_about_the_company_not_its_site() -> None:
    """A spirits guide's entry for a brand ("spiritsguide.com/g/1205/tequila-velkor") is the guide's
    page about it: it joins the brand's own site by name, country and trade, where the guide's
    domain stood as the brand's second site and kept them apart."""
    where, trade = "Jalisco, Mexico", "Tequila"
    own = co("a", "Tequila Velkor", "https://www.velkortequila.com/", where, trade)
    entry = co("b", "Velkor Tequila", "https://www.spiritsguide.com/g/1205/tequila-velkor", where, trade)
    assert joined(own, entry)
    # a group's page about its brand stays the group's site (families.page_elsewhere reads it)
    assert sites.page_site("https://www.vgroup.mx/our-brands/velkor", "Velkor Tequila").domain


def test_a_place_several_countries_name_is_read_by_the_sites_suffix_or_the_texts_script() -> None:
    from exa_orch.workflows.entities.countries import shared_name_country

    # "Kvareli, Georgia": the country or the US state, so neither, but under .ge or in Georgian
    assert shared_name_country("Kvareli, Georgia", "ge", []) == "georgia"
    assert shared_name_country("Kvareli, Georgia", "com", ["ღვინის კომპანია"]) == "georgia"
    assert shared_name_country("Kvareli, Georgia", "com", ["A winery in Kvareli."]) == ""
    assert shared_name_country("Kvareli", "ge", []) == ""  # no country's name at all
    article = co(
        "a", "Tsikhela", "https://old.winebiz.ge/wine/new-winery-opens-in-kakheti", "Kvareli, Georgia", "wine"
    )
    own = co(
        "b", "ციხელა", "https://www.tsikhela.ge/ka", "Kvareli, Georgia", "wine", "ღვინის ქარხანა ყვარელში."
    )
    assert joined(article, own)
    elsewhere = co(
        "c", "Tsikhela", "https://www.winereport.com/tsikhela-visit-kakheti", "Kvareli, Georgia", "wine"
    )
    # alone, a page under no Georgian suffix, in English, has no country; in a run beside one read as
    # the country's and placed in the same country's name, it has that one: one run's Georgia is one
    assert entities.record(0, elsewhere).country == ""
    assert joined(elsewhere, own)


@pytest.mark.parametrize(
    "url",
    [
        "https://finstat.sk/35739999",
        "https://www.racius.com/kovex-s-a/",
        "https://www.dnb.com/business-directory/company-profiles.kovex_as.4f1c2e.html",
    ],
)
def test_a_company_registers_page_is_a_shared_hosts_about_the_company_of_the_site(url: str) -> None:
    register = co("a", "Kovex a.s.", url, "Bratislava, Slovakia", "electronics retail")
    own = co("b", "Kovex", "https://www.kovex.sk/", "Bratislava, Slovakia", "electronics retail")
    assert entities.record(0, register).domain == ""  # the register's, not Kovex's own site
    assert joined(register, own)


def test_two_reports_one_name_adding_the_trade_or_the_country_both_state_are_one_company() -> None:
    coal = co(
        "a",
        "Korvath Coal Ltd",
        "https://www.minereport.example/2011/09/14/banpu-bid-for-korvath-coal",
        "Ulaanbaatar, Mongolia",
        "coal mining",
    )
    short = co(
        "b",
        "Korvath",
        "https://perthnews.example/business/korvath-board-backs-bid/story-1226135020157",
        "Ulaanbaatar, Mongolia",
        "coal mining",
    )
    assert joined(coal, short)
    chile = co(
        "c",
        "Velmar Chile S.A.",
        "https://www.df.example/empresas/2019/05/02/velmar-chile-invierte",
        "Santiago, Chile",
        "food processing",
    )
    velmar = co(
        "d",
        "Velmar",
        "https://www.latercera.example/pulso/noticia/velmar-exporta-mas/2021/03/04",
        "Santiago, Chile",
        "food processing",
    )
    assert joined(chile, velmar)
    # a word the trade does not say is another company's ("Korvath Steel"), as is another country
    assert not joined(
        co(
            "e",
            "Korvath Steel",
            "https://www.steelnews.example/2012/01/05/korvath-steel-mill",
            "Ulaanbaatar, Mongolia",
            "coal mining",
        ),
        short,
    )
    assert not joined(
        co(
            "f",
            "Korvath Coal",
            "https://www.minereport.example/2012/02/02/korvath-coal-ipo",
            "Almaty, Kazakhstan",
            "coal mining",
        ),
        short,
    )


def test_a_profile_whose_name_adds_the_trade_both_state_is_about_the_company_of_the_site() -> None:
    site = co(
        "a", "Orvask Lines", "https://www.orvasklines.com.ph/", "Cebu, Philippines", "passenger shipping"
    )
    wiki = co(
        "b",
        "Orvask Shipping Lines",
        "https://en.wikipedia.org/wiki/Orvask_Shipping_Lines",
        "Cebu, Philippines",
        "passenger shipping",
    )
    assert "one name adds its trade, 'shipping'" in said(site, wiki)
    ferries = co(
        "c",
        "Orvask Ferry Lines",
        "https://en.wikipedia.org/wiki/Orvask_Ferry_Lines",
        "Cebu, Philippines",
        "passenger shipping",
    )
    assert not joined(site, ferries)  # a word no trade of theirs says


def test_two_reports_one_the_others_initials_in_one_trade_and_country_are_one_company() -> None:
    full = co(
        "a",
        "Velmaro Forest Industries Sdn Bhd",
        "https://www.sabahnews.example/2018/05/velmaro-forest-estate",
        "Kota Kinabalu, Malaysia",
        "timber and pulp",
    )
    short = co(
        "b",
        "VFI",
        "https://www.nst.example/news/2018/05/366934/rm1-billion-takeover-saves-vfi-jobs",
        "Kota Kinabalu, Malaysia",
        "timber and pulp",
    )
    assert "one name abbreviates the other" in said(full, short)
    other_trade = co(
        "c",
        "VFI",
        "https://www.nst.example/news/2019/02/vfi-opens-clinic",
        "Kota Kinabalu, Malaysia",
        "private hospitals",
    )
    assert not joined(full, other_trade)


def test_a_brewery_named_in_its_own_language_is_the_brewery_named_in_english() -> None:
    """ "Pivovar Zlatohor" is "Zlatohor Brewery" (the kind word in English, names_agree), and a beer
    guide's page (untappd, ratebeer) is a page about the brewery, never its site."""
    assert names.names_agree("pivovar zlatohor", "zlatohor brewery")
    assert names.names_agree("brauerei zlatohor", "zlatohor brewery")
    assert not names.names_agree("pivovar zlatohor", "zlatohor winery")
    site = co(
        "a", "Pivovar Zlatohor", "https://www.pivovarzlatohor.cz/", "Zlatohor, Czech Republic", "brewing"
    )
    guide = co("b", "Zlatohor Brewery", "https://www.ratebeer.com/brewers/pivovar-zlatohor/9911/",
               "Zlatohor, Czech Republic", "brewing")  # fmt: skip
    page = sites.site("https://www.ratebeer.com/brewers/pivovar-zlatohor/9911/")
    assert page is not None and page.platform
    assert joined(site, guide)


def test_a_vietnamese_steelmakers_name_is_its_english_one() -> None:
    """ "Thép Zlatovan" is "Zlatovan Steel" (thép: steel), not "Zlatovan Cement"."""
    clean = names.clean_name("Thép Zlatovan")
    assert names.names_agree(clean, names.clean_name("Zlatovan Steel Corp"))
    assert not names.names_agree(clean, names.clean_name("Zlatovan Cement"))


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("brodogradiliste zlatohor", "zlatohor shipyard"),
        ("vinarija zlatohor", "zlatohor winery"),
        ("destileria zlatohor", "zlatohor distillery"),
    ],
)
def test_a_shipyards_a_winerys_and_a_distillerys_kind_word_is_its_english_one(
    written: str, english: str
) -> None:
    assert names.names_agree(written, english)
    assert not names.names_agree(written, "zlatohor brewery")


def test_two_profiles_whose_names_are_one_in_english_are_compared_at_all() -> None:
    """A French Wikipedia article and a LinkedIn page of one bank, its name in two languages
    ("Banque Zlatohor du Canada" / "Zlatohor Bank of Canada"), share no word of a name's key: the
    names' words in English block them together, and their evidence joins them."""
    fr = co("a", "Banque Zlatohor du Canada", "https://fr.wikipedia.org/wiki/Banque_Zlatohor_du_Canada",
            "Montréal, Canada", "banking")  # fmt: skip
    en = co("b", "Zlatohor Bank of Canada", "https://www.linkedin.com/company/zlatohor-bank-of-canada",
            "Montreal, Canada", "banking")  # fmt: skip
    assert joined(fr, en)
