"""Other names a page states in asides and in other languages' words for "formerly" (asides.py):
labelled names in an encyclopedia's lead, a full name before the short one, former names in
Chinese, Japanese and Korean, a brand written in lower case, rename phrases in Portuguese,
Spanish and German, a trading name; and a record stating two other records' names joins them."""

from __future__ import annotations

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import asides, clustering, own_names
from exa_orch.workflows.entities.names import clean_name
from tests.workflows.entity_items import co, person, weigh


@pytest.mark.parametrize(
    ("aside", "names"),
    [
        ("英语：Alibaba Group Holding Limited", ["Alibaba Group Holding Limited"]),
        ("英文名China Railway Group，简称CREC", ["China Railway Group", "CREC"]),
        ("SNCF ; en anglais French National Railway Company", ["SNCF", "French National Railway Company"]),
        ("GAYLE, 본명: 박수진, 영어: Sujin Park", ["GAYLE", "박수진", "Sujin Park"]),
        ("영어: Samsung Biologics", ["Samsung Biologics"]),
        ("англ. Aeroflot", ["Aeroflot"]),
        ("IBM", ["IBM"]),  # an unlabelled aside: its first part
        ("宮本 茂, born 1952", ["宮本 茂"]),
        ("born 1952", []),  # no name
        ("formerly Kreditor", []),  # the English cues read it
        ("1911–1938", []),
        # a name in Latin capitals going on after a labelled one in another script: its English form
        ("简称中国石油，PetroChina", ["中国石油", "PetroChina"]),
        ("简称中国石油，成立于北京", ["中国石油"]),
        # and after the first part, a short name in that script: its English form too
        ("港機工程，HAECO", ["港機工程", "HAECO"]),
        ("宮本 茂, 1952", ["宮本 茂"]),  # a number is no name
        ("Addis Electric Power Utility", ["Addis Electric Power Utility"]),  # capitalised words, however long
        ("the largest power utility of the country", []),  # a clause, not a name
    ],
)
def test_an_aside_gives_its_labelled_names(aside: str, names: list[str]) -> None:
    assert asides.aside_names(aside) == names


def test_a_lead_gives_the_full_name_before_the_short_one_in_its_aside() -> None:
    text = "东风汽车集团有限公司（东风集团）是中国的汽车制造商。"
    assert list(asides.asides(text, "东风集团")) == [("东风汽车集团有限公司", 0)]
    # a name elsewhere in the text is not the lead's
    assert list(asides.asides("它的母公司东风汽车集团有限公司（东风集团）。", "东风集团")) == []
    # a lead opening with an article, and the aside's other names after the page's own
    lead = "Les Chemins de fer régionaux (CFR ; en allemand RBB) sont une entreprise ferroviaire."
    assert list(asides.asides(lead, "CFR")) == [("Les Chemins de fer régionaux", 0), ("RBB", 0)]


@pytest.mark.parametrize(
    ("text", "former"),
    [
        ("株式会社レゾナック（旧 昭和電工株式会社）は化学メーカーです。", "昭和電工株式会社"),
        ("某公司（英語：Example，前稱OldExample）是一家公司。", "OldExample"),
        ("LG에너지솔루션 (구 LG화학) 은 배터리 회사입니다.", "LG화학"),
        ("该公司原名：上海汽车工业公司，总部位于上海。", "上海汽车工业公司"),
    ],
)
def test_former_names_in_chinese_japanese_and_korean_are_read(text: str, former: str) -> None:
    assert former in [name for name, _ in asides.former_names(text, company=True)]


def test_a_syllable_that_is_a_cue_word_inside_a_name_is_not_one() -> None:
    # 구 in 구글 (Google) and 旧 inside a word are no cue: a cue follows a delimiter
    assert list(asides.former_names("구글코리아는 검색 회사이다. 新旧交替", company=True)) == []


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("Vantage Group plc, formerly ebookers plc, is a travel company.", "ebookers"),
        ("Formerly Old Mutual Global Investors, the firm is a fund manager.", None),  # English cues
        ("The insurer will change its name to aviva, dropping the old brand.", "aviva"),
        ("A empresa passa a se chamar Grupo Casas Bahia a partir de hoje.", "Grupo Casas Bahia"),
        ("La compañía pasó a llamarse Grupo Nutresa en 2011.", "Grupo Nutresa"),
        ("Die Hoechst AG wurde 1999 umbenannt in Aventis und fusionierte.", "Aventis"),
        ("Virgin Money is a trading name of Clydesdale Bank PLC.", "Clydesdale Bank PLC"),
        ("The firm was formerly part of a larger group.", None),  # no name after the cue
        ("Rydo (formerly rydeNow) is a ride-hailing app.", "rydeNow"),  # a brand in camel case
        (
            "Northern Plains Railway Limited became Northern Plains Gulf Limited in 2023.",
            "Northern Plains Gulf Limited",
        ),
        ("In 2010 it became Europe's largest rail freight carrier.", None),
        # a former name in apposition, as other languages write "formerly"
        ("Velmora, anciennement Télécom Velmorien, est un opérateur.", "Télécom Velmorien"),
        ("Die Kornhaus Bank AG (früher Kornhausbank) ist eine Regionalbank.", "Kornhausbank"),
        ("Velmora, tidligere Vestkraft, er et energikonsern.", "Vestkraft"),
        ("Velmora S.A. (dawniej Stocznia Velmo) to stocznia.", "Stocznia Velmo"),
        ("Die Velmora AG (früher Bank für Velmo und Steiermark) ist", "Bank für Velmo und Steiermark"),
        ("Velmora, l'opérateur anciennement connu sous le nom de Velmo Mobile, propose", "Velmo Mobile"),
        ("VELMC koduyla işlem gören şirket; eski unvanı Velmora Çimento", "Velmora Çimento"),
        ("Die Firma war früher ein Familienbetrieb.", None),  # no name after the cue
    ],
)
def test_rename_phrases_the_english_cues_miss(text: str, other: str | None) -> None:
    found = [name for name, _ in asides.former_names(text, company=True)]
    assert found == ([other] if other else [])


def test_a_stated_name_s_initials_join_the_page_under_them() -> None:
    wiki = co(
        "w", "Northern Plains Railway", "https://en.wikipedia.org/wiki/Northern_Plains_Railway",
        "Calgary, Canada", "rail freight",
        "Northern Plains Railway Limited became Northern Plains Gulf Company Limited in 2023 after a merger.",
    )  # fmt: skip
    site = co("s", "NPG", "https://www.npg-rail.com/en", "Calgary, Canada", "rail freight")
    assert entities.resolve([wiki, site]).groups == [[0, 1]]
    # initials of a name the page does not state are nothing
    other = co("o", "NPRX", "https://www.nprx.com/", "Calgary, Canada", "rail freight")
    assert entities.resolve([wiki, other]).groups == [[0], [1]]


def test_a_stated_names_initials_are_not_read_where_the_page_gives_its_own_short_form() -> None:
    """ "Камский тракторный завод (КамТЗ)" on КамТЗ's page: its short form is КамТЗ, and the
    initials КТЗ are another plant's of the holding (Курганский тракторный завод), on its domain too."""
    kamtz = co("x", "КамТЗ", "https://www.tractor-group.ru/plants/kamtz", "Набережные Челны, Россия", "tractors",
               "Камский тракторный завод (КамТЗ) выпускает колёсные тракторы.")  # fmt: skip
    ktz = co("y", "КТЗ", "https://www.tractor-group.ru/plants/ktz", "Курган, Россия", "tractors",
             "Курганский тракторный завод (КТЗ) выпускает гусеничные тракторы.")  # fmt: skip
    assert not [why for _, why in weigh(kamtz, ktz).for_ if " names " in why]
    assert entities.resolve([kamtz, ktz]).groups == [[0], [1]]


def test_a_cyrillic_name_meets_its_initialism_spelled_as_its_letters_are() -> None:
    """ЩХЗ is spelled "shchkhz", the initials of "Щёлковский химический завод" spelled letter by
    letter: blocked together, they are weighed, and join as an abbreviation in one country and trade."""
    wiki = co("w", "Щёлковский химический завод", "https://ru.wikipedia.org/wiki/Щёлковский_химический_завод",
              "Щёлково, Россия", "chemicals")  # fmt: skip
    site = co("s", "ЩХЗ", "https://www.shchkhz.ru/", "Щёлково, Россия", "chemicals")
    assert entities.resolve([wiki, site]).groups == [[0, 1]]


_LUMEN_WIKI = co(
    "w", "Lumen Energies", "https://fr.wikipedia.org/wiki/Lumen_Energies", "Paris, France", "energy",
    "Lumen Energies SE (anciennement Lumen S.A.) est une entreprise énergétique française.",
)  # fmt: skip


@pytest.mark.parametrize(
    ("page", "other"),
    [
        # the other's name in the page's aside
        (
            co("z", "阿里巴巴集团", "https://zh.wikipedia.org/wiki/阿里巴巴集团", "Hangzhou, China", "e-commerce",
               "阿里巴巴集团（英语：Alibaba Group）是一家中国的电子商务公司。"),
            co("s", "Alibaba Group", "https://www.alibabagroup.com/", "Hangzhou, China", "e-commerce"),
        ),
        # a former name whose legal form is written with dots, the other's without
        (_LUMEN_WIKI, co("q", "Lumen SA", "https://www.reuters.com/companies/LUMN.PA", "Paris, France", "energy")),
    ],
)  # fmt: skip
def test_a_page_naming_the_other_joins_it(page: dict, other: dict) -> None:
    ev = weigh(page, other)
    assert ev.joins, ev.why_apart
    assert (
        f"{page['properties']['company']['name']} names {other['properties']['company']['name']}" in ev.reason
    )


def test_a_former_name_of_another_legal_form_names_another_company() -> None:
    other = co("o", "Lumen AG", "https://www.reuters.com/companies/LUMN.DE", "Paris, France", "energy")
    assert not weigh(_LUMEN_WIKI, other).joins


def test_a_former_name_in_characters_names_no_company_of_another_form_written_in_them() -> None:
    """ "原名江北港股份有限公司": the listed joint-stock company's former name, not the limited company
    of the name (江北港有限公司, its parent); the legal forms a name in characters writes are compared."""
    listed = co("x", "海川港口股份有限公司", "https://baike.baidu.com/item/海川港口股份有限公司", "江北, 中国",
                "port operations", "海川港口股份有限公司原名江北港股份有限公司，2021年更名。")  # fmt: skip
    group = co("y", "江北港有限公司", "https://www.jbport.cn/", "江北, 中国", "port operations")
    former = co("z", "江北港股份有限公司", "https://www.jbport.com.cn/", "江北, 中国", "port operations")
    assert not [why for _, why in weigh(listed, group).for_ if " names " in why]
    assert [why for _, why in weigh(listed, former).for_ if " names " in why]


def test_a_capitalised_formerly_opening_a_sentence_is_read() -> None:
    new = co(
        "n", "Jupiter Partners", "https://jupiterpartners.com/", "London, United Kingdom", "asset management",
        "Jupiter Partners is a fund manager. Formerly Saturn Asset Management, we demerged in 2020.",
    )  # fmt: skip
    old = co(
        "o",
        "Saturn Asset Management",
        "https://saturnam.com/",
        "London, United Kingdom",
        "asset management",
    )
    assert weigh(new, old).joins


def test_two_names_one_page_states_join_the_records_under_them() -> None:
    # the encyclopedia's page names the brand's site and its former name's profile page: all three
    # are one company, though the former name's page has no site and its name differs from the brand
    zh = co(
        "z", "來來貨運", "https://zh.wikipedia.org/wiki/來來貨運", "Hong Kong, China", "logistics",
        "來來貨運（英語：Vanzo，前稱ParcelHop）是一家貨運平台。",
    )  # fmt: skip
    brand = co("b", "Vanzo", "https://www.vanzo.com/en-hk/", "Hong Kong, China", "logistics")
    former = co(
        "f", "ParcelHop", "https://www.crunchbase.com/organization/parcelhop", "Hong Kong, China", "logistics"
    )
    groups = entities.resolve([zh, brand, former]).groups
    assert groups == [[0, 1, 2]]
    # without the page stating both, the site and the other-named profile stay apart
    assert entities.resolve([brand, former]).groups == [[0], [1]]


def test_a_name_in_kana_read_as_the_name_a_page_states_is_voiced_by_that_page() -> None:
    # the encyclopedia's page, under its former name, says what the company is called now; the
    # company's own page in Japanese writes that name in katakana: one company, as read aloud
    wiki = co(
        "w", "Kurosaki Denki Sangyo", "https://en.wikipedia.org/wiki/Sonata_Holdings", "Osaka, Japan",
        "electronics", "Sonata Holdings Corporation, formerly Kurosaki Denki Sangyo Co., Ltd., is a maker.",
    )  # fmt: skip
    site = co("s", "Sonata Holdings", "https://www.sonata-hd.com/global/", "Osaka, Japan", "electronics")
    kana = co("k", "ソナタ ホールディングス", "https://www.sonata-hd.com/jp/", "Osaka, Japan", "electronics")
    assert entities.resolve([wiki, site, kana]).groups == [[0, 1, 2]]


def test_a_page_on_the_site_of_a_stated_name_is_voiced_by_the_page_stating_it() -> None:
    # the encyclopedia states the initials the company's site is named for; the site's page in
    # Chinese, under a name that reads otherwise, is that company's too
    wiki = co(
        "w", "Xinghe Battery Technology", "https://en.wikipedia.org/wiki/Xinghe_Battery_Technology",
        "Ningde, China", "batteries", "Xinghe Battery Technology Co., Limited (XHBT) is a battery maker.",
    )  # fmt: skip
    en = co("e", "XHBT", "https://www.xhbt.com/en/", "Ningde, China", "batteries")
    zh = co("z", "宁川新能源", "https://www.xhbt.com/", "Ningde, China", "batteries")
    assert entities.resolve([wiki, en, zh]).groups == [[0, 1, 2]]


def test_a_korean_name_led_by_latin_initials_is_paired_with_the_latin_name() -> None:
    site = co("s", "CJ CheilJedang", "https://www.cj.co.kr/en/", "Seoul, South Korea", "food")
    wiki = co("w", "CJ제일제당", "https://ko.wikipedia.org/wiki/CJ제일제당", "Seoul, South Korea", "food")
    assert entities.resolve([site, wiki]).groups == [[0, 1]]
    # a small word opening a name keys nothing: every "The ..." would share a block
    keys = clustering._reading_keys(
        entities.record(0, co("t", "The Pearl Group", "https://pearl.example/", "", ""))
    )
    assert "r:the" not in keys


def test_an_aliases_clean_form_is_the_others() -> None:
    # the Japanese former name with its legal form reads as the record's without one
    rec = entities.record(
        0,
        co(
            "r",
            "レゾナック",
            "https://www.resonac.com/jp/",
            "Tokyo, Japan",
            "chemicals",
            "株式会社レゾナック（旧 昭和電工株式会社）は化学メーカーです。",
        ),  # fmt: skip
    )
    assert clean_name("昭和電工") in rec.aliases


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("Alstom Transport is a rail supplier, renamed Alstom Mobility in 2020.", "Alstom Mobility"),
        ("The spirits maker it keeps will be called Pernod Group.", "Pernod Group"),
    ],
)
def test_a_bare_rename_is_read(text: str, other: str) -> None:
    assert other in [name for name, _ in asides.former_names(text, company=True)]


def test_a_former_name_an_encyclopedia_states_joins_the_former_site_to_the_new_one() -> None:
    # the encyclopedia's page (no site of its own) states the former name: the former name's own
    # site joins it, and so the new name's site, though the two sites' names and domains differ
    new = co(
        "n", "Stellar Motors Group", "https://group.stellarmotors.com/", "Stuttgart, Germany", "automotive"
    )
    wiki = co(
        "w", "Stellar Motors Group", "https://en.wikipedia.org/wiki/Stellar_Motors_Group", "Stuttgart, Germany",
        "automotive", "Stellar Motors Group AG, known as Orbis AG until 2022, is a German carmaker.",
    )  # fmt: skip
    old = co("o", "Orbis AG", "https://www.orbis-cars.com/company/", "Stuttgart, Germany", "automotive")
    assert entities.resolve([new, wiki, old]).groups == [[0, 1, 2]]


def test_one_name_on_two_domains_stays_a_brand_whatever_a_page_says_of_itself() -> None:
    # a page giving its own name is no voice for two sites under that one name
    au = co(
        "a", "Bluegum", "https://www.bluegum.com.au/", "Sydney, Australia", "supermarkets",
        "Bluegum (also known as Bluegum Supermarkets) runs stores in Australia.",
    )  # fmt: skip
    za = co("z", "Bluegum", "https://www.bluegum.co.za/", "Cape Town, South Africa", "retail")
    assert entities.resolve([au, za]).groups == [[0], [1]]


def test_an_investor_relations_page_is_its_companys() -> None:
    home = co("h", "Vireo", "https://www.vireo.com/about", "Dallas, United States", "telecommunications")
    ir = co(
        "i", "Vireo Investor Relations", "https://www.vireo.com/about/investors", "Dallas, United States",
        "telecommunications",
    )  # fmt: skip
    assert weigh(home, ir).joins


@pytest.mark.parametrize(
    ("text", "name", "other"),
    [
        ("Great Wall Motor Company Limited (GWM) is a Chinese carmaker.", "Great Wall Motor", "GWM"),
        ("Compañía Cervecerías Unidas de Chile (CCU) es una cervecera.", "Compañía Cervecerías Unidas", "CCU"),
        ("長江和記實業有限公司（CK Hutchison）是一家企業集團。", "長江和記實業", "CK Hutchison"),
        ("Jardine Matheson Holdings Limited, trading as Jardines, is a conglomerate.", "Jardines",
         "Jardine Matheson Holdings Limited"),
        ("Onika Tanya Maraj, known professionally as Nicki Minaj, is a rapper.", "Nicki Minaj",
         "Onika Tanya Maraj"),
    ],
)  # fmt: skip
def test_an_aside_after_a_legal_form_or_a_place_and_a_name_traded_as(
    text: str, name: str, other: str
) -> None:
    assert other in [n for n, _ in asides.asides(text, name)]


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("El Banco de la Nación Argentina, conocido como Banco Nación, es un banco.", "Banco Nación"),
        ("A Companhia Siderúrgica Nacional, conhecida como CSN, produz aço.", "CSN"),
        ("Telefónica Móviles Chile, hoy Movistar Chile, opera en Chile.", "Movistar Chile"),
        ("イオン株式会社は流通企業。旧商号はジャスコ株式会社。", "ジャスコ株式会社"),
    ],
)
def test_known_as_and_now_in_other_languages(text: str, other: str) -> None:
    assert other in [n for n, _ in asides.former_names(text, company=True)]


def test_a_short_form_is_weighed_against_the_names_it_shortens() -> None:
    # a name shortened by syllables shares no word, site or initials with the name it shortens:
    # only its first letters, which pair the two for weighing
    short = co("s", "Natwide", "https://www.natwide.co.uk/", "Swindon, United Kingdom", "banking")
    full = co(
        "f", "National Widespread Building Society", "https://en.wikipedia.org/wiki/National_Widespread",
        "Swindon, United Kingdom", "banking",
    )  # fmt: skip
    assert entities.resolve([short, full]).groups == [[0, 1]]


def test_a_cyrillic_short_form_is_weighed_against_the_names_it_shortens() -> None:
    # Томникель, "tomnikel", of Томский никель: shortened by syllables in Cyrillic letters too
    short = co("s", "Томникель", "https://www.tomnikel.ru/", "Томск, Россия", "mining")
    full = co(
        "f", "Томский никель", "https://ru.wikipedia.org/wiki/Томский_никель", "Томск, Россия", "mining"
    )
    assert entities.resolve([short, full]).groups == [[0, 1]]


def test_a_profile_under_one_site_s_name_does_not_tie_it_to_the_site_it_shortens() -> None:
    """Nubiatel's encyclopedia page is about nubiatel.sd by its name and, shortened by syllables,
    about Nubian Telecom: two sites, and a shortening is no name Nubian Telecom gives itself."""
    site = co("s", "Nubiatel", "https://www.nubiatel.sd/", "Khartoum, Sudan", "telecommunications")
    wiki = co(
        "w", "Nubiatel", "https://en.wikipedia.org/wiki/Nubiatel", "Khartoum, Sudan", "telecommunications"
    )
    other = co(
        "o", "Nubian Telecom", "https://www.nubiantelecom.sd/", "Khartoum, Sudan", "telecommunications"
    )
    assert sorted(entities.resolve([site, wiki, other]).groups) == [[0, 1], [2]]


def test_a_trading_name_of_a_legal_entity_joins_its_site_in_one_country_and_trade() -> None:
    """ "Northfield Cover is a trading name of Harbour Life Limited" on its own site beside Harbour
    Life's site: a legal entity named on another domain needs what corroborates a page and a site,
    one known country and one trade; in another trade the two stay apart."""
    brand = co("b", "Northfield Cover", "https://www.northfieldcover.co.uk/", "Leeds, United Kingdom",
               "Life insurance", "Northfield Cover is a trading name of Harbour Life Limited.")  # fmt: skip
    entity = co(
        "e", "Harbour Life", "https://www.harbourlife.co.uk/", "Leeds, United Kingdom", "Life insurance"
    )
    assert entities.resolve([brand, entity]).groups == [[0, 1]]
    elsewhere = co("x", "Harbour Life", "https://www.harbourlife.co.uk/", "Leeds, United Kingdom", "Marinas")
    assert entities.resolve([brand, elsewhere]).groups == [[0], [1]]


@pytest.mark.parametrize(
    ("name", "text", "other"),
    [
        # a legal form set off by commas between a name and "now" or "formerly"
        ("GDF Suez", "GDF Suez, S.A., now Engie, is a French utility.", "engie"),
        (
            "GDF Suez",
            "Engie, S.A., formerly GDF Suez, is a French utility.",
            "engie",
        ),  # page under the old name
    ],
)
def test_a_rename_is_read_past_a_legal_form_between_commas(name: str, text: str, other: str) -> None:
    item = co("a", name, "https://en.wikipedia.org/wiki/X", "Paris, France", "Utilities", text)
    assert other in entities.record(0, item).aliases


def test_a_lead_names_the_page_s_short_name_in_a_labelled_aside() -> None:
    # the short name labelled inside the aside, not first in it: the full name and the others
    text = "中華汽車工業股份有限公司（簡稱中華車，英語：China Motor Corporation）是臺灣的汽車製造商。"
    assert list(asides.asides(text, "中華車")) == [
        ("中華汽車工業股份有限公司", 0),
        ("China Motor Corporation", 0),
    ]
    # an aside that does not give the page's name says nothing of it
    assert list(asides.asides("裕隆汽車製造股份有限公司（英語：Yulon Motor）是製造商。", "大同")) == []


def test_a_lead_that_writes_the_page_s_name_longer_gives_its_aside_s_names() -> None:
    text = "仁寶電腦工業股份有限公司（英語：Compal Electronics, Inc.，簡稱仁寶）是臺灣的代工廠商。"
    assert list(asides.asides(text, "仁寶電腦")) == [
        ("仁寶電腦工業股份有限公司", 0),
        ("Compal Electronics", 0),
        ("仁寶", 0),
    ]
    # a lead that only begins alike in Latin letters is a clause, not the name written longer
    assert list(asides.asides("仁寶電腦 and partners（英語：Compal）", "仁寶電腦")) == []


@pytest.mark.parametrize(
    ("text", "name", "english"),
    [
        # the city a registered name opens with, aside
        ("深圳市飞鸿创新科技有限公司（FHX）是一家总部位于深圳的无人机制造商。", "飞鸿创新", "FHX"),
        # the page's name, its first two characters and the rest in order
        (
            "华康控股生物技术有限公司（Huakang Biotech Ltd.）是一家北京的疫苗公司。",
            "华康生物",
            "Huakang Biotech Ltd.",
        ),
    ],
)
def test_a_registered_name_written_around_the_page_s_name_gives_its_aside(
    text: str, name: str, english: str
) -> None:
    assert (english, 0) in list(asides.asides(text, name))
    # another company's name opening the text: nothing of the page's
    assert list(asides.asides(text, "华为技术")) == []


_COMPAL_WIKI = co(
    "w", "仁寶電腦", "https://zh.wikipedia.org/wiki/仁寶電腦", "Taipei, Taiwan", "contract electronics",
    "仁寶電腦工業股份有限公司（英語：Compal Electronics, Inc.，簡稱仁寶）是臺灣的筆記型電腦代工廠商。",
)  # fmt: skip


def test_a_profile_whose_stated_name_the_site_s_name_leads_joins_it() -> None:
    site = co("s", "Compal", "https://www.compal.com/", "Taipei, Taiwan", "contract electronics")
    resolution = entities.resolve([_COMPAL_WIKI, site])
    assert resolution.groups == [[0, 1]]
    assert "states 'compal electronics'" in weigh(_COMPAL_WIKI, site).reason
    # another country: a brand of the name elsewhere, not the company the page states
    abroad = co("a", "Compal", "https://www.compal.de/", "Hamburg, Germany", "contract electronics")
    assert entities.resolve([_COMPAL_WIKI, abroad]).groups == [[0], [1]]


def test_a_kana_reading_that_begins_with_the_site_s_name_joins_them() -> None:
    wiki = co(
        "w", "竹中工務店", "https://ja.wikipedia.org/wiki/竹中工務店", "Osaka, Japan", "construction",
        "株式会社竹中工務店（たけなかこうむてん）は、大阪市に本社を置く日本の大手総合建設会社。",
    )  # fmt: skip
    site = co("s", "Takenaka", "https://www.takenaka.co.jp/", "Osaka, Japan", "construction")
    assert entities.resolve([wiki, site]).groups == [[0, 1]]
    # a name of four letters the reading only begins with, in another trade, stays apart
    other = co("o", "Take", "https://www.take.co.jp/", "Osaka, Japan", "cosmetics")
    assert entities.resolve([wiki, other]).groups == [[0], [1]]


def test_a_business_the_page_says_was_spun_off_under_its_old_name_is_another_company() -> None:
    renamed = co(
        "a", "Mondelez International", "https://en.wikipedia.org/wiki/Mondelez_International",
        "Chicago, United States", "Food",
        "Mondelez International, Inc. (formerly Kraft Foods Inc.) is an American food company; in 2012 "
        "its North American grocery business was spun off as Kraft Foods.",
    )  # fmt: skip
    spun = co("b", "Kraft Foods", "https://www.kraftfoods.example/", "Chicago, United States", "Food")
    ev = weigh(renamed, spun)
    assert any("as a company it owns or spun off" in r for r in ev.against)
    assert entities.resolve([renamed, spun]).groups == [[0], [1]]


@pytest.mark.parametrize(
    ("text", "name", "lead"),
    [
        (
            "Shaquille O'Neal, the four-time champion known as Shaq, joined the broadcast.",
            "Shaq",
            "Shaquille O'Neal",
        ),
        (
            "Antonio De Curtis, il comico napoletano noto come Totò, nacque nel 1898.",
            "Totò",
            "Antonio De Curtis",
        ),
        # the page's own name is the lead: nothing to add; another's nickname: nothing either
        ("Shaquille O'Neal, known as Shaq, joined.", "Shaquille O'Neal", None),
        ("Shaquille O'Neal, the champion known as Shaq, joined.", "Superman", None),
    ],
)
def test_a_text_opening_with_a_name_known_by_the_pages_gives_that_name(
    text: str, name: str, lead: str | None
) -> None:
    assert (lead, 0) in asides.asides(text, name) if lead else list(asides.asides(text, name)) == []


def test_a_handle_in_lower_case_is_a_person_s_stated_name() -> None:
    wiki = person(
        "a",
        "Linus Torvalds",
        "https://en.wikipedia.org/wiki/Linus_Torvalds",
        "Linux Foundation",
        "Portland, United States",
    )
    wiki["properties"]["description"] = "Linus Benedict Torvalds (born 1969), alias torvalds, created Linux."
    github = person(
        "b", "torvalds", "https://github.com/torvalds", "Linux Foundation", "Portland, United States"
    )
    assert "torvalds" in entities.record(0, wiki).aliases
    assert entities.resolve([wiki, github]).groups == [[0, 1]]
    # "known as the ..." names no handle
    other = person("c", "Linus Torvalds", "https://example.org/lt", "", "")
    other["properties"]["description"] = "Linus Torvalds, known as the father of Linux."
    assert "the" not in entities.record(0, other).aliases


@pytest.mark.parametrize(
    ("name", "text", "other"),
    [
        ("Embla Medical", "Embla Medical is the home of Össur; the company was known as Össur hf. until 2024.", "ossur"),
        ("Saudi Pro League", "The Saudi Pro League, known as the Roshn Saudi League for sponsorship reasons, is ...",
         "roshn saudi league"),
        ("Škoda Auto", "Škoda Auto, formerly Škoda Works, is a Czech carmaker.", "skoda works"),
    ],
)  # fmt: skip
def test_a_name_had_until_a_time_after_the_or_an_accented_capital_is_another_name(
    name: str, text: str, other: str
) -> None:
    rec = entities.record(0, {"id": "a", "properties": {"type": "company", "url": "https://a.example/",
                                                        "description": text, "company": {"name": name}}})  # fmt: skip
    assert other in rec.aliases, rec.aliases


def test_a_stated_name_meets_a_page_adding_its_kind_or_its_country() -> None:
    """ "formerly Plastic Omnium" names "Compagnie Plastic Omnium"; "formerly known as Tigo", said
    of a company of Tanzania, names "Tigo Tanzania"; not a company of another country."""
    op = co("a", "OPmobility", "https://www.opmobility.com/en/", "Levallois-Perret, France",
            "Automotive parts", "OPmobility, formerly Plastic Omnium, designs exterior systems.")  # fmt: skip
    wiki = co("b", "Compagnie Plastic Omnium", "https://fr.wikipedia.org/wiki/Plastic_Omnium",
              "Levallois-Perret, France", "Automotive parts")  # fmt: skip
    assert weigh(op, wiki).joins
    yas = co("c", "Yas Tanzania", "https://www.yas.co.tz/", "Dar es Salaam, Tanzania",
             "Telecoms", "Yas is the brand adopted in 2024 by the mobile operator formerly known as Tigo.")  # fmt: skip
    tigo = co("d", "Tigo Tanzania", "https://en.wikipedia.org/wiki/Tigo_Tanzania", "Dar es Salaam, Tanzania",
              "Telecoms")  # fmt: skip
    assert weigh(yas, tigo).joins
    ghana = co("e", "Tigo Ghana", "https://en.wikipedia.org/wiki/Tigo_Ghana", "Accra, Ghana", "Telecoms")
    assert not weigh(yas, ghana).joins


def test_a_lead_of_capitalised_words_giving_the_page_s_name_in_its_aside_is_the_page_s_other_name() -> None:
    text = (
        "Golden Harvest Retail Corporation (Mùa Vàng Bán Lẻ, GHR) is a Vietnamese retailer founded in 2004."
    )
    assert list(asides.asides(text, "Mùa Vàng Bán Lẻ")) == [
        ("Golden Harvest Retail Corporation", 0),
        ("GHR", 0),
    ]
    # a lead that is a clause gives nothing
    assert list(asides.asides("The parent company (Mùa Vàng Bán Lẻ) is listed.", "Mùa Vàng Bán Lẻ")) == []


def test_a_name_written_in_two_scripts_is_each_of_its_parts() -> None:
    """ "Jolin Tsai 蔡依林" on a profile: the Latin name and the name in characters are both the
    record's; years in brackets are no other script ("Cyprus Airways (1947–2015)")."""
    both = entities.record(0, person("a", "Lin Wei-an 林唯安", "https://www.instagram.com/linweian/", "", ""))
    # the Latin part as written, the part in characters as read
    assert set(both.aliases) == {"lin wei an", "lin weian"}
    chinese = entities.record(1, person("b", "林唯安", "https://zh.wikipedia.org/wiki/林唯安", "", ""))
    latin = entities.record(2, person("c", "Lin Wei-an", "https://en.wikipedia.org/wiki/Lin_Wei-an", "", ""))
    assert entities.compare(both, chinese).for_[0][0] >= 7.0
    assert entities.compare(both, latin).for_[0][0] >= 7.0
    years = entities.record(
        3, co("d", "Harbour Air (1947–2015)", "https://en.wikipedia.org/wiki/Harbour_Air", "", "")
    )
    assert not years.aliases


def test_a_name_beside_words_about_it_in_another_script_is_not_written_twice() -> None:
    """ "Азотный завод QAZKIM" is QAZKIM's nitrogen plant and "Nordtel Молдова" Nordtel's company in
    Moldova: the words in Cyrillic say a plant or a place, not the Latin name again; a group's word
    beside a name is still one name ("קבוצת Zorvex", the Zorvex Group)."""
    assert own_names.two_scripts("Азотный завод QAZKIM") == []
    assert own_names.two_scripts("Nordtel Молдова") == []
    assert [n for n, _ in own_names.two_scripts("קבוצת Zorvex")] == ["קבוצת", "Zorvex"]


def test_a_place_in_brackets_after_a_name_is_no_other_name_of_it() -> None:
    """Japanese news writes where a company is after its name ("鶴見製菓(東京)"): a place, never
    another name the company goes by; a name in the brackets still is."""
    assert list(asides.asides("鶴見製菓(東京)が廃業した。", "鶴見製菓")) == []
    assert list(asides.asides("Orlin Foods Ltd (Singapore) said ...", "Orlin Foods Ltd")) == []
    assert [n for n, _ in asides.asides("鶴見製菓(ツルミ)が廃業した。", "鶴見製菓")] == ["ツルミ"]


@pytest.mark.parametrize(
    "title", ["白鷺酒造 (鳥取県)", "白鷺酒造 (浙江省)", "白鷺酒造（大阪府）", "白鷺酒造 (高松市)"]
)
def test_a_prefecture_an_encyclopedia_tells_namesakes_apart_by_is_no_other_name(title: str) -> None:
    """ja.wikipedia titles namesake companies by their prefecture (白鷺酒造 (鳥取県), the brewery of
    Tottori): the bracket is a place, no other name the page's company goes by; a name in brackets
    in characters still is."""
    assert own_names.bracketed(title) == []
    assert [n for n, _ in own_names.bracketed("白鷺酒造（白鷺）")] == ["白鷺酒造", "白鷺"]


def test_a_lower_case_qualifier_in_brackets_in_any_script_is_no_name() -> None:
    # ru.wikipedia's "(авиакомпания)", as en.wikipedia's "(airline)": what kind, not another name
    wiki = co(
        "w",
        "Беркут (авиакомпания)",
        "https://ru.wikipedia.org/wiki/Беркут_(авиакомпания)",
        "Russia",
        "airline",
    )
    assert entities.record(0, wiki).aliases == {}
    own = co("b", "АО «Авиакомпания Беркут»", "https://www.berkut-avia.ru/about/", "Russia", "airline")
    other = co("s", "Авиакомпания «Сокол»", "https://www.sokol.aero/about/", "Russia", "airline")
    groups = entities.resolve([own, wiki, other]).groups
    assert [2] in groups and not any(0 in g and 2 in g for g in groups)


def test_a_lead_saying_what_the_company_is_gives_another_companys_name_in_its_aside() -> None:
    """ "北川精工股份有限公司是海东机械集团（海东重工）直属的...": the aside names the group the company
    is under (是, "is"), not the company: no alias of its own, so no join with the group's site."""
    page = co("a", "北川精工股份有限公司", "https://baike.baidu.com/item/北川精工股份有限公司",
              "Shenzhen, China", "Machinery",
              "北川精工股份有限公司是海东机械集团（海东重工）直属的省级企业，负责精密零件的生产。")  # fmt: skip
    group = co("b", "海东重工", "https://www.haidong-hi.cn/", "Shenzhen, China", "Machinery")
    assert "海东重工" not in entities.record(0, page).aliases.values()
    assert not weigh(page, group).joins
