"""Namesakes and split companies (issue 37): two people of one name at one employer told apart by
the fields their pages name, two Wikipedia articles of one edition titled apart, and a former
legal name that no longer names the brand a spun-off company kept."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import fields
from tests.workflows.entity_items import Json, co, person, weigh


def _with_desc(item: dict, desc: str) -> dict:
    item["properties"]["description"] = desc
    return item


def test_two_professors_of_one_name_at_one_university_in_two_fields_stay_apart() -> None:
    maths = _with_desc(
        person("m", "Alan Pryce", "https://math.example.edu/people/alan-pryce", "Example University",
               "Example, United States", "Professor of Mathematics"),
        "Alan Pryce, Professor of Mathematics at Example University, works in number theory.",
    )  # fmt: skip
    physics = _with_desc(
        person("p", "Alan Pryce", "https://news.example.edu/2019/alan-pryce-dies", "Example University",
               "Example, United States"),
        "Alan Pryce, the physicist who shared a Nobel Prize in Physics, has died.",
    )  # fmt: skip
    ev = weigh(maths, physics)
    assert not ev.joins
    assert "different fields (mathematics / physics)" in ev.against
    # the same professor's second page, naming the same field, still joins
    again = _with_desc(
        person("a", "Alan Pryce", "https://www.example.edu/faculty/pryce", "Example University",
               "Example, United States"),
        "Alan Pryce is a mathematician at Example University.",
    )  # fmt: skip
    assert weigh(maths, again).joins


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        ({"mathematician"}, {"physics", "nobel"}, True),
        ({"physicist"}, {"physics"}, False),
        ({"astrophysicist"}, {"physicist"}, False),  # next to each other
        ({"economist"}, set(), False),  # one page names no field
        ({"chemistry", "physics"}, {"chemist"}, False),
    ],
)
def test_fields_named_by_pages(a: set[str], b: set[str], apart: bool) -> None:
    assert fields.apart(fields.fields(a), fields.fields(b)) is apart


def test_two_articles_of_one_edition_titled_apart_are_two_people() -> None:
    actress = person("a", "Joan Bright", "https://en.wikipedia.org/wiki/Joan_Bright_(actress)", None, "")
    engineer = person("e", "Joan Bright", "https://en.wikipedia.org/wiki/Joan_Bright_(engineer)", None, "")
    plain = person("p", "Joan Bright", "https://en.wikipedia.org/wiki/Joan_Bright", None, "")
    other_edition = person(
        "d", "Joan Bright", "https://de.wikipedia.org/wiki/Joan_Bright_(engineer)", None, ""
    )
    for x, y in ((actress, engineer), (actress, plain)):
        assert any(r.startswith("two articles of one Wikipedia edition") for r in weigh(x, y).against)
    assert not any(r.startswith("two articles") for r in weigh(engineer, other_edition).against)


_WIKI = "https://{}.wikipedia.org/wiki/{}"


@pytest.mark.parametrize(
    ("latin", "written", "edition", "job", "same_job", "other_job"),
    [
        ("Karim Nassar", "كريم نصار", "ar", "singer", "مطرب", "ممثل"),  # a singer; an actor
        ("Wen Shaoqing", "温少卿", "zh", "director", "导演", "拳击运动员"),  # a director; a boxer
    ],
)
def test_two_editions_articles_told_apart_by_one_occupation_are_one_article(
    latin: str, written: str, edition: str, job: str, same_job: str, other_job: str
) -> None:
    """ "Karim Nassar (singer)" and "كريم نصار (مطرب)", "Wen Shaoqing (director)" and "温少卿 (导演)":
    the name read alike and one occupation in brackets, written in two languages: one article in
    two editions. Another occupation, or a birth year in brackets, says nothing."""
    english = person("a", latin, _WIKI.format("en", f"{latin.replace(' ', '_')}_({job})"), None, "")
    own = person("b", written, _WIKI.format(edition, f"{written}_({same_job})"), None, "")
    other = person("c", written, _WIKI.format(edition, f"{written}_({other_job})"), None, "")
    born = person("d", latin, _WIKI.format("fr", f"{latin.replace(' ', '_')}_(1971)"), None, "")
    said = weigh(english, own)
    assert f"one Wikipedia article, titled {latin} ({job}) and {written} ({same_job})" in said.reason
    assert said.joins
    for namesake in (other, born):
        assert "one Wikipedia article" not in weigh(english, namesake).reason


def test_a_wrestler_and_a_singer_of_one_name_are_two_people_a_singer_who_acts_one() -> None:
    """One name, one country, a career each title names: a freestyle wrestler and a singer are two
    fields, namesakes; a singer and an actor are one field, which a person moves within."""
    wrestler = person("a", "Dariush Fakhrabadi", "https://www.wrestling-db.example/fakhrabadi", "",
                      "Tehran, Iran", "Freestyle wrestler (96 kg)")  # fmt: skip
    singer = person("b", "Dariush Fakhrabadi", "https://en.wikipedia.org/wiki/Dariush_Fakhrabadi", "",
                    "Tehran, Iran", "Singer and composer")  # fmt: skip
    actor = person(
        "c", "Dariush Fakhrabadi", "https://www.imdb.com/name/nm0000002/", "", "Tehran, Iran", "Actor"
    )
    said = weigh(wrestler, singer)
    assert "two callings: wrestler / composer" in said.against and not said.joins
    assert not any(r.startswith("two callings") for r in weigh(singer, actor).against)


def test_a_page_denying_a_role_names_no_organisation_of_its_subject() -> None:
    """ "An actress; not the founder of Teaflow Korea" names Teaflow Korea only to say whom the page
    is not: the founder of that name is her namesake. Said plainly, it joins."""

    def seo(id: str, url: str, employer: str, title: str, desc: str) -> Json:
        return _with_desc(person(id, "Seo Min-ah", url, employer, "Seoul, South Korea", title), desc)

    founder = seo("f", "https://www.retail-news.example/teaflow-korea", "Teaflow Korea", "Founder",
                  "Seo Min-ah brought the Taiwanese milk tea brand to Korea in 2012.")  # fmt: skip
    wiki, employer = "https://en.wikipedia.org/wiki/Seo_Min-ah", "Korean film and television"
    denied = seo("a", wiki, employer, "Actress", "South Korean actress; not the founder of Teaflow Korea.")
    said = seo("b", wiki, employer, "Actress", "South Korean actress and the founder of Teaflow Korea.")
    assert not weigh(founder, denied).joins
    assert weigh(founder, said).joins


def test_a_sibling_a_page_names_by_a_given_name_is_another_person() -> None:
    """ "Jessie Dimalanta and her brother Jessiel": two players of one family, one employer and given
    names a letter apart, are two people; without the brother named they join."""

    def player(id: str, name: str, url: str, desc: str) -> Json:
        item = person(
            id, name, url, "Philippine Badminton Association", "Manila, Philippines", "National player"
        )
        return _with_desc(item, desc)

    sister = player("a", "Jessie Dimalanta", "https://www.sports-news.example/dimalanta-siblings",
                    "Jessie Dimalanta and her brother Jessiel reached the quarterfinals.")  # fmt: skip
    brother = player("b", "Jessiel Dimalanta", "https://www.badminton-club.example/coaches/jessiel",
                     "Jessiel Dimalanta coaches juniors in Manila.")  # fmt: skip
    said = weigh(sister, brother)
    assert (
        "Jessie Dimalanta's page names Jessiel Dimalanta as a relative: 'her brother jessiel'" in said.against
    )
    assert not said.joins
    plain = player("c", "Jessie Dimalanta", "https://www.sports-news.example/dimalanta",
                   "Jessie Dimalanta reached the quarterfinals.")  # fmt: skip
    assert weigh(plain, brother).joins


def test_a_former_legal_name_does_not_join_the_brand_a_spun_off_company_kept() -> None:
    renamed = co(
        "r", "Corvane Aerospace", "https://www.corvane.com/", "Pittsburgh, United States", "aerospace",
        "Corvane Aerospace Inc. (formerly Alcora Inc.) makes engineered metal products.",
    )  # fmt: skip
    brand = co("b", "Alcora", "https://www.alcora.com/", "Pittsburgh, United States", "aluminium products",
               "Alcora is a leading provider of aluminum sheet and plate.")  # fmt: skip
    ev = weigh(renamed, brand)
    assert not ev.joins and ev.weight == 3.0, ev.reason
    # the brand's own page writing the same legal form is the former company's
    same = co("s", "Alcora", "https://www.alcora.com/", "Pittsburgh, United States", "aluminium products",
              "Alcora Inc. is a leading provider of aluminum sheet and plate.")  # fmt: skip
    assert weigh(renamed, same).joins
    # a page with no site of its own under the former name joins as before
    news = co(
        "n", "Alcora", "https://www.reuters.com/companies/ALC", "Pittsburgh, United States", "aerospace"
    )
    assert entities.compare(entities.record(0, renamed), entities.record(1, news)).weight >= 6.0


def test_an_employer_named_for_the_person_is_not_named_by_every_page_about_a_namesake() -> None:
    founder = _with_desc(
        person("f", "Ruth H. Calloway", "https://www.nasa.gov/feature/ruth-calloway", "Calloway Systems, Inc.",
               "Cambridge, United States", "Founder and CEO"),
        "Ruth H. Calloway led the flight software team during Apollo.",
    )  # fmt: skip
    actress = _with_desc(
        person("a", "Ruth Calloway", "https://www.imdb.com/name/nm0000001/", "Metro-Goldwyn-Mayer",
               "Cleveland, United States", "Actress"),
        "Ruth Calloway, actress: The Wizard of Oz.",
    )  # fmt: skip
    ev = weigh(founder, actress)
    assert not ev.joins
    assert any(r.startswith("different employers") for r in ev.against)


def test_a_page_deep_in_a_groups_site_under_a_shorter_name_is_a_company_of_the_group() -> None:
    group = co(
        "g", "Kestrel Orion Holdings", "https://www.kestrelorion.co.jp/en/about/", "Tokyo, Japan", "toys"
    )
    unit = co(
        "u", "KESTREL CO., LTD.", "https://www.kestrelorion.co.jp/en/group/toys.html", "Tokyo, Japan", "toys"
    )
    ev = weigh(group, unit)
    assert not ev.joins
    assert any("a company of the group" in r for r in ev.against)
    # a page under the site's own name, or a corporate word dropped, is the site owner's
    site = co("s", "Kestrel Orion", "https://www.kestrelorion.co.jp/en/company/", "Tokyo, Japan", "toys")
    assert weigh(group, site).joins
    intl = co(
        "i", "Marlin International", "https://www.marlininternational.com/", "London, United Kingdom", "funds"
    )
    brand = co(
        "b", "Marlin", "https://www.marlininternational.com/uk/funds/", "London, United Kingdom", "funds"
    )
    assert not any("a company of the group" in r for r in weigh(intl, brand).against)


def test_a_holding_company_and_the_company_of_its_name_on_one_site_are_two() -> None:
    holding = co(
        "h", "Sorano Holdings Co., Ltd.", "https://www.sorano.com/global/about-us/", "Tokyo, Japan", "food"
    )
    company = co("c", "Sorano Co., Ltd.", "https://www.sorano.com/global/chocolate/", "Tokyo, Japan", "food")
    ev = weigh(holding, company)
    assert not ev.joins
    assert (
        "a holding company and a company of its name (Sorano Holdings Co., Ltd. / Sorano Co., Ltd.)"
        in ev.against
    )
    # a brand's bare name is no legal name; a stated rename is one company
    assert weigh(holding, co("b", "Sorano", "https://www.sorano.com/global/", "Tokyo, Japan", "food")).joins
    renamed = co(
        "r", "Sorano Holdings Co., Ltd.", "https://www.sorano.com/global/ir/", "Tokyo, Japan", "food",
        "Sorano Holdings Co., Ltd., formerly Sorano Co., Ltd., is a food group.",
    )  # fmt: skip
    assert not any("a holding company" in r for r in weigh(renamed, company).against)


def test_a_father_and_a_son_of_one_name_but_the_last_stay_apart() -> None:
    # Hispanic names: the second family name is the mother's, so a son keeps his father's given
    # and first family names; every middle or family name both write must agree
    father = person("f", "Juan Pablo Ortega Ruiz", "https://es.wikipedia.org/wiki/Juan_Pablo_Ortega_Ruiz",
                    "Grupo Ejemplo", "Bogotá, Colombia", "Fundador")  # fmt: skip
    son = person("s", "Juan Pablo Ortega Lara", "https://www.grupoejemplo.com/junta-directiva",
                 "Grupo Ejemplo", "Bogotá, Colombia", "Presidente")  # fmt: skip
    ev = weigh(father, son)
    assert not ev.joins, ev.reason
    # the father's page under his name without the second family name still joins him
    short = person("p", "Juan Pablo Ortega", "https://www.forbes.com/profile/juan-pablo-ortega/",
                   "Grupo Ejemplo", "Bogotá, Colombia", "Fundador")  # fmt: skip
    assert weigh(father, short).joins


def test_two_namesakes_articles_told_apart_in_brackets_are_two_profiles() -> None:
    def footballer(id: str, year: str) -> Json:
        url = f"https://en.wikipedia.org/wiki/Zhang_Wei_(footballer,_born_{year})"
        item = person(id, "Zhang Wei", url, "", "Beijing, China", "Footballer")
        item["properties"]["description"] = f"Zhang Wei (born {year}) is a Chinese footballer. {url}"
        return item

    a, b = footballer("a", "1993"), footballer("b", "1995")
    assert entities.record(0, a).profiles == {"en.wikipedia.org/wiki/zhang_wei_(footballer,_born_1993)"}
    assert entities.resolve([a, b]).groups == [[0], [1]]


def test_a_father_whose_page_says_sr_and_a_son_named_jr_are_two() -> None:
    def tycoon(id: str, name: str, url: str, description: str) -> Json:
        item = person(id, name, url, "LT Group", "Manila, Philippines", "Chairman")
        item["properties"]["description"] = description
        return item

    father = tycoon(
        "a", "Lucio Tan", "https://en.wikipedia.org/wiki/Lucio_Tan",
        "Lucio Tan Sr. is a Filipino business magnate who founded LT Group.",
    )  # fmt: skip
    son = tycoon(
        "b", "Lucio Tan Jr.", "https://www.ltg.com.ph/board", "Lucio Tan Jr. is president of LT Group."
    )
    plain = tycoon(
        "c", "Lucio Tan", "https://www.forbes.com/profile/lucio-tan/", "Lucio Tan founded LT Group."
    )
    assert "a generation apart (sr / jr)" in weigh(father, son).against
    # the text's "Sr." beside a name that writes no generation is nothing against
    assert not any("generation" in r for r in weigh(father, plain).against)


def test_a_son_named_jr_at_a_family_company_the_father_s_page_names_is_not_the_father() -> None:
    """A father's page naming the company his son runs (the family founded both) is no career of
    one person: "Jr." on one name, the other's text naming its employer, stays two."""
    father = _with_desc(
        person("a", "Tobias Wellach", "https://en.wikipedia.org/wiki/Tobias_Wellach", "Wellach Estates",
               "Mendoza, Argentina", "Winemaker"),
        "Tobias Wellach founded Wellach Estates and, with his son, the Casa Orilla winery.",
    )  # fmt: skip
    son = person("b", "Tobias Wellach Jr.", "https://www.casaorilla.com/team/tobias-wellach-jr", "Casa Orilla",
                 "Mendoza, Argentina", "Winemaker")  # fmt: skip
    assert entities.resolve([father, son]).groups == [[0], [1]]
    # the same text beside a name that writes no generation is one person's career
    later = person("c", "Tobias Wellach", "https://www.casaorilla.com/team/tobias-wellach", "Casa Orilla",
                   "Mendoza, Argentina", "Winemaker")  # fmt: skip
    assert entities.resolve([father, later]).groups == [[0, 1]]


def test_a_founder_born_in_a_stated_year_and_a_junior_at_his_company_are_two() -> None:
    """A plain name whose page says he founded the company (and when he was born) and a "Jr." of his
    name working there, whose page founds nothing: a father and his son."""
    founder = _with_desc(
        person("a", "Obafemi Adeyinka", "https://en.wikipedia.org/wiki/Obafemi_Adeyinka",
               "Lagoon Broadcasting", "Lagos, Nigeria", "Founder"),
        "Obafemi Adeyinka (1948 – 2021) was a Nigerian businessman, founder of Lagoon Broadcasting.",
    )  # fmt: skip
    junior = _with_desc(
        person("b", "Obafemi Adeyinka Jr.", "https://ng.linkedin.com/in/obafemi-adeyinka-jr",
               "Lagoon Broadcasting", "Lagos, Nigeria", "Executive director"),
        "Executive director at Lagoon Broadcasting. Lagos, Nigeria.",
    )  # fmt: skip
    ev = weigh(founder, junior)
    assert not ev.joins
    assert "a father and his junior" in " ".join(ev.against)
    # a "Jr." famous under his own name, whose other page drops it and gives no birth year, is one
    plain = _with_desc(
        person("c", "Obafemi Adeyinka", "https://www.forbes.com/profile/obafemi-adeyinka/",
               "Lagoon Broadcasting", "Lagos, Nigeria", "Founder"),
        "Obafemi Adeyinka founded Lagoon Broadcasting.",
    )  # fmt: skip
    assert not any("junior" in r for r in weigh(plain, junior).against)


def test_an_arabic_page_of_the_founder_and_one_of_his_grandson_of_one_name_are_two() -> None:
    """Arabic texts say it too: "أسس البنك الأهلي" (founded the National Bank) on the founder's
    page, "حفيد مؤسس البنك" (grandson of the bank's founder) on his namesake's, the bank named in
    part."""

    def banker(id: str, url: str, description: str) -> Json:
        return _with_desc(person(id, "سليم زعيتر", url, "Zuaiter Bank", "Amman, Jordan"), description)

    founder = banker(
        "a", "https://ar.wikipedia.org/wiki/سليم_زعيتر", "مصرفي أردني أسس البنك الأهلي في عمان عام 1952."
    )
    grandson = banker("b", "https://archive.example-news.com/details.asp?article=5511",
                      "استقال رئيس مجلس إدارة البنك سليم زعيتر، حفيد مؤسس البنك.")  # fmt: skip
    ev = weigh(founder, grandson)
    assert "that a relative did" in " ".join(ev.against) and not ev.joins
    # a second page saying he founded it is the founder's
    again = banker("c", "https://www.example-bank.jo/history", "سليم زعيتر مؤسس البنك الأهلي.")
    assert not weigh(founder, again).against


def test_a_founder_and_the_grandson_named_after_him_are_two() -> None:
    def restaurateur(id: str, url: str, description: str) -> Json:
        item = person(id, "Paolo Vettori", url, "Caffè Vettori", "Trieste, Italy", "Restaurateur")
        item["properties"]["description"] = description
        return item

    founder = restaurateur("a", "https://en.wikipedia.org/wiki/Paolo_Vettori_(restaurateur)",
                           "Paolo Vettori (1890-1961) was an Italian restaurateur who founded Caffè Vettori in 1921.")  # fmt: skip
    heir = restaurateur("b", "https://www.caffevettori.example/about",
                        "Paolo Vettori, grandson of the founder of Caffè Vettori, runs its cafés today.")  # fmt: skip
    ev = weigh(founder, heir)
    assert "founded caffe vettori" in " ".join(ev.against) and not ev.joins
    # a page saying he leads what his grandfather founded says nothing against his own pages
    profile = restaurateur(
        "c", "https://www.forbes.com/profile/paolo-vettori/", "Paolo Vettori is CEO of Caffè Vettori."
    )
    assert not weigh(heir, profile).against


def test_an_article_whose_title_has_an_apostrophe_is_its_own_profile() -> None:
    # the URL in the item's text was cut at the apostrophe: both read as the article on "Wendy"
    us = co("a", "Wendy's", "https://en.wikipedia.org/wiki/Wendy's", "Dublin, United States", "Fast food",
            "Wendy's is an American fast food restaurant chain.")  # fmt: skip
    au = co("b", "Wendy's Supa Sundaes", "https://en.wikipedia.org/wiki/Wendy's_Supa_Sundaes", "Adelaide, Australia",
            "Ice cream", "An Australian ice cream chain, unrelated to the American chain Wendy's.")  # fmt: skip
    assert not entities.record(0, us).profiles & entities.record(1, au).profiles
    assert not weigh(us, au).joins


def test_two_queries_name_two_pages_of_one_path() -> None:
    tele2 = co("a", "Tele2 AB", "https://www.nasdaqomxnordic.com/aktier/microsite?Instrument=SSE1027",
               "Stockholm, Sweden", "Telecommunications")  # fmt: skip
    kinnevik = co("b", "Investment AB Kinnevik", "https://www.nasdaqomxnordic.com/aktier/microsite?Instrument=SSE999",
                  "Stockholm, Sweden", "Investment")  # fmt: skip
    assert not weigh(tele2, kinnevik).joins
    assert entities.site("https://x.example.com/p?id=1&utm_source=a").same_page(
        entities.site("https://x.example.com/p")
    )


def test_a_business_renamed_is_another_company_and_a_name_given_up_is_no_identity() -> None:
    agilent = co("a", "Agilent Technologies", "https://en.wikipedia.org/wiki/Agilent_Technologies",
                 "Santa Clara, United States", "Life sciences",
                 "Agilent Technologies, Inc. is an American life sciences company spun off from Hewlett-Packard "
                 "in 1999; its electronic measurement business became Keysight in 2014.")  # fmt: skip
    keysight = co("b", "Keysight", "https://www.keysight.com/us/en/home.html", "Santa Rosa, United States",
                  "Electronic test and measurement")  # fmt: skip
    assert "keysight" not in entities.record(0, agilent).aliases and not weigh(agilent, keysight).joins
    renaming = co("c", "PerkinElmer", "https://www.reuters.com/business/perkinelmer-change-name-revvity-2023-05-16/",
                  "Waltham, United States", "Life sciences",
                  "PerkinElmer will change its name to Revvity after selling its analytical businesses.")  # fmt: skip
    sold = co("d", "PerkinElmer", "https://www.newmountaincapital.com/news/new-mountain-capital-completes-acquisition-"
              "of-perkinelmers-analytical-businesses/", "Shelton, United States", "Analytical instruments")  # fmt: skip
    assert not weigh(renaming, sold).joins


def test_a_former_name_a_company_gave_up_with_a_part_spun_off_needs_more_than_the_name() -> None:
    renamed = co("a", "BWX Technologies", "https://en.wikipedia.org/wiki/BWX_Technologies", "Lynchburg, United States",
                 "Nuclear components", "BWX Technologies, Inc. (formerly The Babcock & Wilcox Company) is based in "
                 "Lynchburg; in 2015 it spun off its power generation business and took the BWXT name.")  # fmt: skip
    spun_off = co(
        "b", "Babcock & Wilcox", "https://www.babcock.com/", "Akron, United States", "Power generation"
    )
    assert entities.record(0, renamed).name_taken and not weigh(renamed, spun_off).joins
    plain = co("c", "Vale", "https://en.wikipedia.org/wiki/Vale_(company)", "Rio de Janeiro, Brazil", "Mining",
               "Vale S.A. (formerly Companhia Vale do Rio Doce) is a Brazilian mining company.")  # fmt: skip
    own = co("d", "Companhia Vale do Rio Doce", "https://www.vale.com/", "Rio de Janeiro, Brazil", "Mining")
    assert weigh(plain, own).joins  # a rename alone: the former name is the company's


def test_an_investor_relations_host_is_the_front_page_company_and_no_country() -> None:
    ir = co("a", "JD.com", "https://ir.jd.com/", "Beijing, China", "E-commerce")
    front = co("b", "京东", "https://www.jd.com/", "Beijing, China", "E-commerce")
    assert not entities.site("https://ir.jd.com/").same_page(
        entities.site("https://www.jd.com/")
    )  # not Iran's
    assert weigh(ir, front).joins
    holding = co(
        "c",
        "Regions Financial Corporation",
        "https://ir.regions.com/",
        "Birmingham, United States",
        "Banking",
    )
    bank = co("d", "Regions Bank", "https://www.regions.com/", "Birmingham, United States", "Banking")
    assert not weigh(holding, bank).joins  # two Latin names that disagree: a holding and its bank


def test_a_family_name_on_two_sites_of_two_trades_is_two_companies() -> None:
    drugstores = co("a", "Müller", "https://www.mueller.de/", "Ulm, Germany", "Drugstore retail")
    dairy = co("b", "Müller Group", "https://www.muellergroup.com/", "Fischach, Germany", "Dairy products")
    assert not weigh(drugstores, dairy).joins
    assert weigh(drugstores, co("c", "Müller Group", "https://www.muellergroup.com/", "Ulm, Germany",
                                "Drugstore retail")).joins  # fmt: skip


def test_two_trade_associations_of_one_acronym_and_two_trades_are_two() -> None:
    """ "Trade association" says the kind of body, not its trade: the one of pump makers and the one
    of textile mills share no trade."""
    mills = co("a", "KAVMA", "https://www.kavma.org/", "Erode, India", "trade association (textile mills)")
    pumps = co(
        "b", "KAVMA", "https://www.kavma.in/news/", "Erode, India", "trade association (engineering, pumps)"
    )
    assert not weigh(mills, pumps).joins
    assert weigh(mills, co("c", "KAVMA", "https://www.kavma.in/about/", "Erode, India",
                           "trade association (textile mills)")).joins  # fmt: skip


def test_a_short_name_is_the_person_its_wiki_title_writes_in_full() -> None:
    father = person("a", "Eduardo Frei Montalva", "https://en.wikipedia.org/wiki/Eduardo_Frei_Montalva",
                    "Partido Demócrata Cristiano", "Santiago, Chile", "President of Chile")  # fmt: skip
    son = person("b", "Eduardo Frei", "https://www.bcn.cl/historiapolitica/resenas_parlamentarias/wiki/Eduardo_Frei_Ruiz-Tagle",
                 "Partido Demócrata Cristiano", "Santiago, Chile", "President of Chile")  # fmt: skip
    assert entities.record(1, son).fuller == "Eduardo Frei Ruiz-Tagle"
    assert not weigh(father, son).joins
    same = person("c", "Eduardo Frei", "https://www.bcn.cl/historiapolitica/resenas_parlamentarias/wiki/Eduardo_Frei_Montalva",
                  "Partido Demócrata Cristiano", "Santiago, Chile", "President of Chile")  # fmt: skip
    assert weigh(father, same).joins
    king = person("d", "Willem-Alexander", "https://en.wikipedia.org/wiki/Willem-Alexander_of_the_Netherlands",
                  "Dutch Royal House", "The Hague, Netherlands")  # fmt: skip
    assert entities.record(3, king).fuller == ""  # a style, not more of the name


def test_two_sites_each_named_for_the_company_one_without_its_trade_word_are_one() -> None:
    short = co(
        "a", "Dell Technologies", "https://www.dell.com/en-us", "Round Rock, United States", "Computers"
    )
    full = co("b", "Dell Technologies Inc.", "https://www.delltechnologies.com/", "Round Rock, United States",
              "Computers")  # fmt: skip
    assert weigh(short, full).joins
    other = co(
        "c",
        "Dell Technologies Inc.",
        "https://www.delltechnologies.com/",
        "Auckland, New Zealand",
        "Catering",
    )
    assert not weigh(short, other).joins  # nothing corroborates one owner


def test_a_page_named_as_its_site_is_and_the_front_page_in_another_script_are_one() -> None:
    front = co("a", "早稲田大学", "https://www.waseda.jp/top/", "Tokyo, Japan", "University")
    named = co("b", "Waseda University", "https://www.waseda.jp/top/en/news/", "Tokyo, Japan", "University")
    # named as the site is, or by the site's label and the trade 大学 writes (home_pages.py)
    said = weigh(named, front)
    assert (
        said.joins
        and "waseda.jp" in said.reason
        and ("named as" in said.reason or "its trade" in said.reason)
    )
    school = co("c", "Waseda Business School", "https://www.waseda.jp/wbs/en/", "Tokyo, Japan", "University")
    assert not weigh(school, front).joins  # a unit's name adds its own words
    site = entities.site("https://www.waseda.jp/top/en/")
    assert site is not None and site.front and site.locale == "en"  # a language last is the page's edition


def test_a_units_page_on_a_brands_country_domain_is_the_unit() -> None:
    place = ("Kuala Lumpur, Malaysia", "Banking")
    bank = co("a", "Hong Leong Bank", "https://www.hlb.com/en/investor-relations.html", *place)
    unit = co("b", "Hong Leong Islamic Bank", "https://www.hlb.com.my/en/islamic-banking.html", *place)
    assert entities.resolve([bank, unit]).groups == [[0], [1]]
    country = co(
        "c", "Hong Leong Bank Vietnam", "https://www.hlb.com.vn/vietnam/about.html", "Vietnam", "Banking"
    )
    assert not any("a unit of the brand" in r for r in weigh(bank, country).against)  # a country: no unit


def test_two_swedes_of_one_common_name_in_two_cities_stay_apart() -> None:
    from exa_orch.workflows.entities.common_names import common

    assert common("andersson") and common("korhonen")
    one = person(
        "a", "Karin Andersson", "https://en.wikipedia.org/wiki/Karin_Andersson", "", "Stockholm, Sweden"
    )
    two = person("b", "Karin Andersson", "https://www.vk.se/2019/karin-andersson", "", "Umeå, Sweden")
    assert not weigh(one, two).joins


def test_a_rename_in_a_clause_about_the_company_it_split_from_is_that_companys() -> None:
    said = (
        "Norsk Kobber AS is a Norwegian copper miner; it was split off in 2014 from the Oslo-listed "
        "Norsk Metall ASA, which kept the smelters and renamed itself Nordic Smelting."
    )
    rec = entities.record(
        0,
        {
            "id": "a",
            "properties": {
                "type": "company",
                "url": "https://en.wikipedia.org/wiki/Norsk_Kobber",
                "description": said,
                "company": {"name": "Norsk Kobber"},
            },
        },
    )
    assert "nordic smelting" not in rec.aliases
    own = "Equinor ASA, which was formerly known as Statoil, is a Norwegian energy company."
    assert (
        "statoil"
        in entities.record(
            1,
            {
                "id": "b",
                "properties": {
                    "type": "company",
                    "url": "https://www.equinor.com/",
                    "description": own,
                    "company": {"name": "Equinor"},
                },
            },
        ).aliases
    )


def test_a_company_page_in_spanish_naming_its_owner_is_the_owners_subsidiary() -> None:
    # a holding company's former name kept by the business it holds: made-up names
    said = "Cordillera Capital SAA, formerly Andes Maquinaria SAA, is a Peru-based holding company."
    holding = co(
        "a",
        "Cordillera Capital SAA",
        "https://www.bloomberg.com/quote/CORDC1:PE",
        "Lima, Peru",
        "Machinery",
        said,
    )
    own = "Andes Maquinaria, empresa de Cordillera Capital, distribuye maquinaria en el Perú."
    unit = co("b", "Andes Maquinaria", "https://www.andesmaquinaria.com.pe/", "Lima, Peru", "Machinery", own)
    assert any("as its owner" in r for r in weigh(holding, unit).against)


def test_a_former_name_a_subsidiary_kept_is_the_subsidiarys() -> None:
    # made-up names: "formerly X LP ... through its subsidiary X LLP" names the unit as owned
    said = (
        "Condor Petroleum PLC, formerly Lagoon Resources LP, is a London-listed oil producer operating"
        " in Kazakhstan through its subsidiary Lagoon Resources LLP."
    )
    holding = co(
        "a", "Condor Petroleum", "https://en.wikipedia.org/wiki/Condor_Petroleum", "London, UK", "Oil", said
    )
    unit = co("b", "ТОО «Лагун Ресорсез»", "https://www.lagoonresources.kz/", "Uralsk, Kazakhstan", "Oil")
    unit_latin = co(
        "c", "Lagoon Resources LLP", "https://www.lagoonresources.kz/", "Uralsk, Kazakhstan", "Oil"
    )
    assert any("a company it owns" in r for r in weigh(holding, unit_latin).against)
    assert entities.resolve([holding, unit]).groups == [[0], [1]]


def test_a_holding_of_a_companys_own_name_is_not_another_page_under_that_name() -> None:
    # made-up names: the article's subject is a subsidiary of "Kestrel Insure Holdings"; a site
    # under the bare name is the subsidiary's own, a page under the holding's name the owner's
    said = (
        "Kestrel Insure is a South African short-term insurer; it is a subsidiary of Kestrel Insure Holdings."
    )
    wiki = co(
        "a",
        "Kestrel Insure",
        "https://en.wikipedia.org/wiki/Kestrel_Insure",
        "Centurion, South Africa",
        "Insurance",
        said,
    )
    own = co(
        "b", "Kestrel Insure", "https://www.kestrelinsure.co.za/", "Centurion, South Africa", "Insurance"
    )
    holding = co(
        "c",
        "Kestrel Insure Holdings",
        "https://www.kestrelholdings.co.za/",
        "Centurion, South Africa",
        "Insurance",
    )
    assert not any("as its owner" in r for r in weigh(wiki, own).against)
    assert any("as its owner" in r for r in weigh(wiki, holding).against)


def test_a_russian_page_naming_its_parent_company_is_the_parents_subsidiary() -> None:
    said = "ПАО «Север-Алмаз» — алмазодобывающая компания, дочернее общество СЕВЕРАЛРОС; Якутия."
    unit = co(
        "a",
        "ПАО «Север-Алмаз»",
        "https://ru.wikipedia.org/wiki/Север-Алмаз",
        "Yakutia, Russia",
        "Diamond mining",
        said,
    )
    parent = co("b", "СЕВЕРАЛРОС", "https://www.severalros.ru/", "Moscow, Russia", "Diamond mining")
    assert any("as its owner" in r for r in weigh(unit, parent).against)


def test_a_dialects_two_syllable_given_name_must_open_as_the_characters_do() -> None:
    from exa_orch.workflows.entities.people import name_evidence

    # a Hokkien given name is read by no table here: its first sound must be one the first
    # character's readings open with (孔 kong, hung), not another sibling's (惠 hui, wai)
    assert name_evidence("Kuok Khoon Hong", "郭孔丰")[0] == 4.0
    assert name_evidence("Kuok Khoon Ean", "郭惠光")[0] < 4.0
    assert "English given name" in name_evidence("Justin Yifu Lin", "林毅夫")[1]  # an English name first


def test_a_former_name_of_a_company_that_sold_a_business_needs_corroboration() -> None:
    said = (
        "Meridian Leisure, Inc., known as Atlas Lottery Corporation until 2021, is a games company; "
        "it sold its lottery business to Northgate Partners in 2021."
    )  # made-up names: the lottery business kept the old name on its own site
    renamed = co(
        "a",
        "Meridian Leisure",
        "https://en.wikipedia.org/wiki/Meridian_Leisure",
        "Las Vegas, United States",
        "Gaming",
        said,
    )
    sold = co(
        "b", "Atlas Lottery", "https://www.atlaslottery.com/", "Atlanta, United States", "Lottery systems"
    )
    ev = weigh(renamed, sold)
    assert not ev.joins and any(w == 3.0 for w, _ in ev.for_)


def test_a_comma_inside_a_wiki_url_is_part_of_it() -> None:
    from exa_orch.workflows.entities.sites import URL_IN_TEXT

    grandson = "https://ru.wikipedia.org/wiki/Юровский,_Владимир_Михайлович_(дирижёр)"
    assert URL_IN_TEXT.findall(grandson) == [grandson]
    assert URL_IN_TEXT.findall("see https://example.com/a, and more") == ["https://example.com/a"]
    one = person("a", "Юровский, Владимир Михайлович", grandson, "", "Berlin, Germany")
    two = person(
        "b",
        "Юровский, Владимир Михайлович",
        "https://ru.wikipedia.org/wiki/Юровский,_Владимир_Михайлович",
        "",
        "Moscow, Russia",
    )
    assert not any(r.startswith("same profile") for _, r in weigh(one, two).for_)


def test_a_short_name_two_people_s_longer_names_write_whole_joins_neither() -> None:
    """A father and a son of one name and club: "José María del Nido" could be either "José María
    del Nido Benavente" or "José María del Nido Carrasco", so it stays apart from both, saying why."""
    where, club, title = "Seville, Spain", "Sevilla FC", "President"
    short = person("a", "José María del Nido", "https://en.wikipedia.org/wiki/Jos%C3%A9_Mar%C3%ADa_del_Nido",
                   club, where, title)  # fmt: skip
    father = person(
        "b", "José María del Nido Benavente", "https://es.wikipedia.org/wiki/Benavente", club, where, title
    )
    son = person(
        "c", "José María del Nido Carrasco", "https://es.wikipedia.org/wiki/Carrasco", club, where, title
    )
    son_club = person("d", "José María del Nido Carrasco", "https://sevillafc.es/club/del-nido-carrasco", club, where,
                      title)  # fmt: skip
    resolution = entities.resolve([short, father, son, son_club])
    assert resolution.group_of()[0] not in (resolution.group_of()[1], resolution.group_of()[2])
    assert resolution.group_of()[2] == resolution.group_of()[3]
    assert any("could be" in a["reason"] for a in resolution.apart)


def test_a_short_name_beside_one_name_in_two_scripts_is_no_ambiguity() -> None:
    """ "Stelios" joined to "Stelios Haji-Ioannou" and to "Στέλιος Χατζηιωάννου": one man's name read
    two ways, which may disagree as read, is not two people's; two Latin names that disagree are."""
    from exa_orch.workflows.entities.clustering import _ambiguous

    where, firm = "London, United Kingdom", "easyGroup"
    names = ["Stelios", "Stelios Haji-Ioannou", "Στέλιος Χατζηιωάννου", "Stelios Kyriakides"]
    records = [
        entities.record(i, person(str(i), n, f"https://{i}.example/", firm, where))
        for i, n in enumerate(names)
    ]
    assert _ambiguous(records, [(0, 1), (0, 2)]) == {}
    assert set(_ambiguous(records, [(0, 1), (0, 3)])) == {(0, 1), (0, 3)}


def _staff(employer: str, location: str) -> Callable[[str, str, str, str], Json]:
    """Pages of people at one employer in one place: (id, name, url, description) -> item."""
    return lambda id, name, url, desc: _with_desc(person(id, name, url, employer, location), desc)


def test_a_page_naming_the_other_as_a_described_relative_keeps_two_people_apart() -> None:
    """A grandson named after the founder he succeeds: his page names the founder as a relative,
    described as the founder's own page describes him; the founder's two pages still join."""
    varela = _staff("Varela Cafés", "Évora, Portugal")
    founder = varela("f", "Tomas Varela", "https://pt.wikipedia.org/wiki/Tomas_Varela",
                     "Tomas Varela (1930–2021) foi um empresário português, fundador da Varela Cafés.")  # fmt: skip
    obituary = varela("o", "Tomas Varela", "https://observador.pt/2021/05/02/morreu-tomas-varela/",
                      "Tomas Varela, fundador da Varela Cafés, morreu aos 91 anos.")  # fmt: skip
    grandson = varela("g", "Tomas Rui Varela", "https://www.linkedin.com/in/tomasruivarela/",
                      "CEO da Varela Cafés. Neto do fundador Tomas Varela. Évora, Portugal.")  # fmt: skip
    ev = weigh(grandson, founder)
    assert not ev.joins
    assert any("as a relative: 'neto do fundador tomas varela'" in r for r in ev.against)
    assert weigh(founder, obituary).joins
    # a relative the page does not describe as the other's page does is no evidence either way: a
    # son's page under his longer name, "son of Tomas Varela", beside his own shorter name
    son = varela("s", "Tomas Varela Costa", "https://en.wikipedia.org/wiki/Tomas_Varela_Costa",
                 "Tomas Varela Costa is a Portuguese businessman, son of rally driver Tomas Varela.")  # fmt: skip
    assert not any("relative" in r for r in weigh(son, founder).against)


Page = tuple[str, str, str]  # name, url, description
_SON = ("Paolo Ferro", "https://www.ferrocementi.it/governance/board",
        "Paolo Ferro, Chairman of Ferro Cementi since 2006, son of Paolo Gaetano Ferro.")  # fmt: skip
_JUNIOR = ("Georg Kessler jr.", "https://www.handelsblatt.com/georg-kessler-junior/",
           "Georg Kessler jr. leitet seit 2024 gemeinsam mit seiner Schwester Anna den Textilhersteller.")  # fmt: skip


@pytest.mark.parametrize(
    ("employer", "place", "one", "other", "said", "not_kin"),
    [
        # a son under the shorter name, his page naming his father by the whole name, a middle name
        # his own lacks: no description needed, the name is another's; but a page under the longer
        # name naming the shorter is no relative's (the son's own whole name)
        ("Ferro Cementi", "Rome, Italy", _SON,
         ("Paolo Gaetano Ferro", "https://it.wikipedia.org/wiki/Paolo_Gaetano_Ferro",
          "Paolo Gaetano Ferro (Roma, 1943) è un imprenditore italiano, presidente del gruppo Ferro."),
         "as a relative: 'son of paolo gaetano ferro'",
         (("Paolo Ferro Rossi", "https://en.wikipedia.org/wiki/Paolo_Ferro_Rossi",
           "Paolo Ferro Rossi, son of Paolo Ferro, chairs Ferro Cementi."), _SON)),
        # a father's page naming a junior among his children; a page calling its own subject
        # "junior" is no father's
        ("Kessler Textil", "Balingen, Germany",
         ("Georg Kessler", "https://www.swr.de/kessler-uebergabe-100.html",
          "Georg Kessler übergibt das Unternehmen an seine Frau und die Kinder Anna und Georg junior."),
         _JUNIOR, "a junior of the name among its children",
         (("Georg Kessler", "https://de.wikipedia.org/wiki/Georg_Kessler_junior",
           "Georg Kessler junior (* 1991) ist ein deutscher Unternehmer."), _JUNIOR)),
    ],
)  # fmt: skip
def test_a_page_naming_the_other_as_kin_keeps_two_people_apart(
    employer: str, place: str, one: Page, other: Page, said: str, not_kin: tuple[Page, Page]
) -> None:
    staff = _staff(employer, place)
    ev = weigh(staff("a", *one), staff("b", *other))
    assert not ev.joins
    assert any(said in r for r in ev.against)
    assert not any(
        said.split(":")[0] in r for r in weigh(staff("c", *not_kin[0]), staff("d", *not_kin[1])).against
    )


@pytest.mark.parametrize(
    ("holder", "text", "child"),
    [
        (
            "한빛홀딩스",
            "한빛홀딩스는 한빛제과와 한빛식품을 자회사로 둔 지주회사입니다. 구 한빛제과.",
            "한빛제과",
        ),
        ("金橋金控", "金橋金融控股股份有限公司，旗下子公司包括金橋人壽、金橋銀行及金橋證券。", "金橋銀行"),
        (
            "青葉ホールディングス",
            "青葉ホールディングス株式会社は、青葉製菓やAoba Foods Japanを傘下に持つ持株会社。",
            "Aoba Foods Japan",
        ),
    ],
)
def test_a_holding_companys_subsidiaries_written_in_korean_chinese_or_japanese_stay_apart_from_it(
    holder: str, text: str, child: str
) -> None:
    """The holding company's page names the subsidiary among those it holds: two entities, even where
    it says it was formerly the subsidiary's name (the operating company spun off with the name)."""
    parent = co(
        "p", holder, "https://finance.example.kr/item?code=000001", "Seoul, South Korea", "holding", text
    )
    sub = co("s", child, "https://www.child.example/", "Seoul, South Korea", "holding")
    ev = weigh(parent, sub)
    assert not ev.joins
    assert any("as a company it owns or spun off" in r for r in ev.against)


def test_a_profile_joins_the_company_of_its_equal_name_before_one_its_name_merely_opens_with() -> None:
    """A listed partnership's quote page joins the partnership's site (equal names), not its
    sponsor's, whose name only leads it: both joins weigh alike; the equal names' go first."""
    sponsor = co("a", "Nordgas", "https://www.nordgasltd.com/", "Piraeus, Greece", "LNG shipping",
                 "Nordgas Ltd. owns and operates LNG carriers, headquartered in Piraeus.")  # fmt: skip
    partners = co("b", "Nordgas Partners", "https://www.nordgasmlp.com/", "Piraeus, Greece", "LNG shipping",
                  "Nordgas Partners LP is a master limited partnership; a subsidiary of Nordgas Ltd.")  # fmt: skip
    quote = co("p", "Nordgas Partners LP", "https://www.nyse.com/quote/XNYS:NGP-PA", "Piraeus, Greece",
               "LNG shipping", "Nordgas Partners LP preference units quote on the New York Stock Exchange.")  # fmt: skip
    assert weigh(sponsor, quote).weight == weigh(partners, quote).weight
    assert entities.resolve([sponsor, partners, quote]).groups == [[0], [1, 2]]


def test_a_chinese_article_title_keeps_the_bracket_a_company_name_writes() -> None:
    """zh.wikipedia titles the article with the company's legal name, its bracket its own (a unit in
    Macau); the page's short name writes the bracket's words too: one name with the unit's site."""
    site = co("a", "中國恒輝銀行(澳門)", "https://www.hengfaibank.com.mo/", "Macau", "Banking")
    page = co("b", "恒輝銀澳門", "https://zh.wikipedia.org/wiki/中國恒輝銀行(澳門)", "Macau", "Banking")
    parent = co("c", "恒輝銀行", "https://zh.wikipedia.org/wiki/中國恒輝銀行_(企業)", "Macau", "Banking")
    assert weigh(site, page).joins
    assert not weigh(site, parent).joins


def test_a_group_and_its_bank_on_one_site_are_two() -> None:
    group = co("g", "Kastrup Group", "https://www.kastrup.com/", "Kingston, Jamaica", "financial services")
    bank = co("b", "Kastrup Bank", "https://jm.kastrup.com/banking", "Kingston, Jamaica", "banking")
    ev = weigh(group, bank)
    assert not ev.joins
    assert "a group and its bank (Kastrup Group / Kastrup Bank)" in ev.against
    # the group's own page under another name of it is the group's
    assert weigh(
        group, co("s", "Kastrup", "https://www.kastrup.com/about", "Kingston, Jamaica", "finance")
    ).joins


def test_a_former_name_another_company_of_another_trade_bears_is_no_identity() -> None:
    """A golf maker "formerly Marlowe" beside the site of Marlowe, a stationer: one name, two
    trades, two companies; the same statement beside a golf maker's site is the rename."""
    golf = co("a", "Verdane Golf Co., Ltd.", "https://en.wikipedia.org/wiki/Verdane_Golf", "Tokyo, Japan",
              "Golf equipment", "Verdane Golf Co., Ltd., formerly Marlowe Co., Ltd., makes golf clubs.")  # fmt: skip
    stationer = co("b", "Marlowe", "https://www.marlowe-note.co.jp/", "Tokyo, Japan", industry="Stationery")
    old_site = co(
        "c", "Marlowe", "https://www.marlowe-golf.co.jp/", "Tokyo, Japan", industry="Golf equipment"
    )
    assert not weigh(golf, stationer).joins
    assert weigh(golf, old_site).joins


@pytest.mark.parametrize(
    ("son", "son_says", "father", "father_says"),
    [
        # the father named with "Sr." after the name the other page writes
        ("Ramiro Ezequiel Valdoria", "Chairman of Valdoria Vinos; son of Ramiro Valdoria Sr.",
         "Ramiro Valdoria", "Ramiro Valdoria, patriarch of the family, planted its first vineyards."),
        # a junior's page naming his father by a name the other page says in full
        ("Osric Thane (junior)", "Osric Thane junior, son of Sir Edmund Osric Thane, led the company.",
         "Osric Thane", "Sir (Edmund) Osric Thane founded the company in 1911."),
    ],
)  # fmt: skip
def test_a_page_naming_its_father_as_a_senior_of_the_others_name_keeps_them_apart(
    son: str, son_says: str, father: str, father_says: str
) -> None:
    """A son's page naming his father as a senior of the other page's name ("son of Ramiro
    Valdoria Sr.", or on a junior's page "son of Sir Edmund Osric Thane" beside a page saying "Sir
    (Edmund) Osric Thane"): a father and a son, though one name holds the other's whole."""

    def man(id: str, name: str, url: str, desc: str) -> Json:
        return _with_desc(person(id, name, url, "Valdoria Holdings", "Mendoza, Argentina", "Chairman"), desc)

    junior = man("a", son, "https://www.wine-news.example/interviews/heir", son_says)
    senior = man("b", father, "https://www.wine-history.example/founders/patriarch", father_says)
    said = weigh(junior, senior)
    assert any("as a relative" in why for why in said.against)
    assert not said.joins
    # the son's own page under the short name, saying junior: the same man, kept one
    again = man("c", father, "https://www.wine-press.example/heir", f"{father} junior leads the company.")
    assert weigh(junior, again).joins


def test_a_grandson_whose_page_styles_his_grandfather_of_one_name_is_another_person() -> None:
    """ "grandson of founder Ermanno Valdorsa" on the page of Dino Valdorsa, of one family and one
    mill: the relative is styled by what he was, which his own page need not say in that word
    (person_evidence._STYLED); against a join. Without the kin named nothing says so."""

    heir = _staff("Lanificio Valdorsa", "Biella, Italy")
    founder = heir("a", "Ermanno Valdorsa", "https://www.valdorsa-foundation.example/en/ermanno-valdorsa",
                   "Ermanno Valdorsa built the wool mill in Biella in 1911.")  # fmt: skip
    grandson = heir("b", "Dino Valdorsa", "https://www.valdorsa-group.example/en/leadership/",
                    "Dino Valdorsa, grandson of founder Ermanno Valdorsa, chairs the group.")  # fmt: skip
    ev = weigh(grandson, founder)
    assert any("as a relative" in a for a in ev.against), ev.against
    assert not ev.joins
    plain = heir("c", "Dino Valdorsa", "https://www.valdorsa-group.example/en/leadership/",
                 "Dino Valdorsa chairs the group.")  # fmt: skip
    assert not any("as a relative" in a for a in weigh(plain, founder).against)
