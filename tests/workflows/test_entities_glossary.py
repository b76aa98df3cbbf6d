"""Entity resolution on names that are translations, on names no world holds: an organisation's
name in Chinese characters, kana or Hangul translated word by word (glossary.py), as a company and
as a person's employer; a whole Latin name few people share (common_names.py); stock exchanges'
company pages; a location that is a country's name alone."""

from __future__ import annotations

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import births, glossary, heard_words, hosts, provinces
from exa_orch.workflows.entities.countries import country_of, known
from exa_orch.workflows.entities.names import clean_name
from exa_orch.workflows.entities.people import name_evidence
from exa_orch.workflows.entities.person_keys import block_keys
from exa_orch.workflows.entities.read_names import reading_agrees
from exa_orch.workflows.entities.sites import canonical_url, site
from tests.workflows.entity_items import Json, co, person, weigh


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("中国东方航空", "china eastern airlines"),  # in order
        ("中国农业银行", "agricultural bank of china"),  # in another order, "of" left out
        ("日本生命保険", "nippon life insurance"),
        ("大阪大学", "osaka university"),
        ("东方电气集团", "dongfang electric group"),  # a term kept in its reading
        ("九州電力株式会社", "kyushu electric power"),  # a legal form left out
        ("三菱ケミカル", "mitsubishi chemical"),  # a loanword in katakana, heard (ch as k)
        ("住友ベークライト", "sumitomo bakelite"),
        ("住友信託銀行", "sumitomo trust and banking"),
        ("三井生命保険", "mitsui life"),  # life insurance, said "life"
        ("하나금융지주", "hana financial group"),  # a financial holding company calls itself a group
        ("光大物流", "everbright logistics"),  # a Chinese group's name, as the group writes it
        ("华润健康", "china resources health"),
        ("海信进出口", "hisense import and export"),
        ("玉山自行車", "e sun cycles"),
        ("太古玻璃", "swire glass"),  # a Hong Kong group's name, as the group writes it
        ("光大輪船", "everbright shipping"),
        ("海信材料", "hisense materials"),
        ("上汽大眾", "saic volkswagen"),  # a joint venture's partner
        ("JR大阪", "osaka railway"),  # a Japan Railways company
        ("효성건설", "hyosung engineering and construction"),
        ("哈尔滨机器人自动化", "harbin robot automation"),  # a city's English name, not its reading (haerbin)
        ("青岛飞机模具", "tsingtao aircraft dies"),  # and its postal spelling
        ("솔에어", "sol air"),  # air as a Korean airline's name writes it
        ("丸山織物", "maruyama orimono"),  # a Japanese trade kept in its reading
    ],
)
def test_a_name_translated_word_by_word_agrees(written: str, latin: str) -> None:
    assert (
        glossary.agrees(written, "", latin.title(), latin)
        == f"{written.replace('株式会社', '')} translates as {latin}"
    )


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("中国农业银行", "bank of china"),  # a word of the written name unaccounted for
        ("中国银行", "agricultural bank of china"),  # a Latin word unaccounted for
        ("东方电气集团", "dongfang electric"),  # a group is not its company of one name
        ("大学", "university"),  # one term alone names nobody
        ("三井物産", "mitsui"),  # a business group's name is not each of its companies
        ("住友ベークライト", "sumitomo bakeries"),  # a loanword heard otherwise
        ("华润健康", "china resources"),  # a group's name is not each of its companies
    ],
)
def test_a_translation_must_account_for_every_word(written: str, latin: str) -> None:
    assert glossary.agrees(written, "", latin.title(), latin) is None


def test_latin_letters_and_a_term_in_kana_translate() -> None:
    # a name of Latin letters and kana only: no Chinese character, still a name to translate
    assert glossary.translates("IHIホールディングス", "ihi holdings")
    assert glossary.translates("IHIホールディングス", "ihi") is None  # a holding company is not its brand


def test_a_run_no_term_covers_is_read() -> None:
    # a Japanese family name in kanji as the names dataset reads it, its trade left out beside it
    assert glossary.translates("山田製薬", "yamada")
    assert glossary.translates("山田製薬", "yamada pharmaceutical")
    # a Chinese company's initials
    assert glossary.translates("顺达快递", "sd express")  # 快递: express
    assert glossary.translates("顺达快运", "sd express") is None  # 快运 is no term: not guessed
    assert glossary.translates("顺达物流", "sd logistics")


def test_a_company_in_its_own_script_joins_its_english_site() -> None:
    own = co("a", "China Eastern Airlines", "https://www.ceair.com/en/", "Shanghai, China", "Airline")
    zh = co("b", "中国东方航空", "https://zh.wikipedia.org/wiki/中国东方航空", "Shanghai, China", "Airline")
    other = co(
        "c", "中国南方航空", "https://zh.wikipedia.org/wiki/中国南方航空", "Guangzhou, China", "Airline"
    )
    resolution = entities.resolve([own, zh, other])
    assert sorted(resolution.groups) == [[0, 1], [2]]
    assert "translates as china eastern airlines" in weigh(own, zh).reason


def test_an_employer_in_another_script_translated_is_one_employer() -> None:
    en = person("a", "Haruki Morimoto", "https://www.osaka-u.ac.jp/en/", "Osaka University", "Osaka, Japan")
    ja = person("b", "森本春樹", "https://ja.wikipedia.org/wiki/森本春樹", "大阪大学", "大阪府")
    said = weigh(en, ja).for_
    assert any(w == 3.0 and "same employer" in r for w, r in said)


def test_a_whole_name_few_share_in_one_country_joins() -> None:
    gov = person(
        "a",
        "Jacinta Allan",
        "https://www.premier.vic.gov.au/",
        "Victorian Government",
        "Melbourne, Australia",
    )
    mp = person("b", "Jacinta Allan", "https://www.parliament.vic.gov.au/members/", "", "Bendigo, Australia")
    ev = weigh(gov, mp)
    assert ev.joins and "a whole name few share" in ev.reason


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("Ahmed Hassan", "Cairo, Egypt"),  # a family name many share
        ("Wang Lei", "Beijing, China"),  # a Chinese name of two syllables
        ("Kim Ji-won", "Seoul, South Korea"),  # a common Korean family name
        ("Kyaw Thet", "Yangon, Myanmar"),  # a Burmese name: syllables of a small pool, no family name
    ],
)
def test_a_whole_name_many_share_needs_more_than_a_country(name: str, where: str) -> None:
    a = person("a", name, "https://example.org/people/1", "", where)
    b = person("b", name, "https://example.net/team/2", "", where)
    assert not weigh(a, b).joins


def test_a_whole_name_few_share_in_two_countries_stays_apart() -> None:
    a = person("a", "Jacinta Allan", "https://example.org/a", "", "Melbourne, Australia")
    b = person("b", "Jacinta Allan", "https://example.net/b", "", "Toronto, Canada")
    assert not weigh(a, b).joins


def test_an_exchanges_company_page_is_a_profile_not_the_companys_site() -> None:
    row = hosts.host_row("www.asx.com.au", "asx.com.au")
    assert row is not None and hosts.ticker_host(row)
    assert (
        hosts.profile_of(row, "www.asx.com.au", ["markets", "company", "wtc"], {})
        == "asx.com.au/markets/company/wtc"
    )
    own = co(
        "a",
        "Tasman Freightware",
        "https://www.tasmanfreightware.example/",
        "Sydney, Australia",
        "Logistics software",
    )
    listed = co(
        "b",
        "Tasman Freightware Limited",
        "https://www.asx.com.au/markets/company/wtc",
        "Sydney, Australia",
        "Logistics software",
    )
    assert entities.record(1, listed).site.platform  # type: ignore[union-attr]
    assert not weigh(own, listed).against


@pytest.mark.parametrize(
    ("url", "profile"),
    [
        ("https://www.moex.com/ru/issue.aspx?board=TQBR&code=GAZP", "moex.com/code=gazp"),
        ("https://www.msx.om/company-profile.aspx?s=OTEL", "msx.om/s=otel"),
        (
            "https://www.athexgroup.gr/en/market-data/-/company/OPAP",
            "athexgroup.gr/market-data/-/company/opap",
        ),
        # a listing's page in another language is the same profile
        ("https://kase.kz/ru/issuers/QRST", "kase.kz/issuers/qrst"),
        ("https://kase.kz/kz/issuers/QRST", "kase.kz/issuers/qrst"),
        ("https://mse.mn/en/company/987", "mse.mn/company/987"),
        ("https://www.screener.in/company/TITAN/consolidated/", "screener.in/company/titan"),
        (
            "https://www.isyatirim.com.tr/tr-tr/analiz/hisse/Sayfalar/sirket-karti.aspx?hisse=THYAO",
            "isyatirim.com.tr/hisse=thyao",
        ),
        (
            "https://www.jamstockex.com/trading/instruments/?instrument=gk-jmd",
            "jamstockex.com/instrument=gk-jmd",
        ),
        ("https://s.cafef.vn/hose/vnm-cong-ty-co-phan-sua-viet-nam.chn", None),  # news and data: no profile
    ],
)
def test_a_listed_companys_page_on_an_exchange_is_a_profile(url: str, profile: str | None) -> None:
    found = site(url)
    assert found is not None and found.platform and found.profile == profile


@pytest.mark.parametrize(
    ("location", "country"),
    [
        ("Luxembourg", "luxembourg"),
        ("Monaco", "monaco"),
        ("Luxembourg, Luxembourg", "luxembourg"),  # a capital named after its country, then the country
        ("Luxembourg City, Luxembourg", "luxembourg"),
    ],
)
def test_a_location_that_is_a_countrys_name_is_that_country(location: str, country: str) -> None:
    assert country_of(location) == country and known(country)
    assert not known(country_of("Atlanta, Georgia"))  # a state and a country: still unknown
    assert not known(country_of("Arlon, Luxembourg"))  # Belgium's province of the name


@pytest.mark.parametrize(
    ("latin", "written"),
    [
        ("Chen Chien-jen", "陳建仁"),  # a family name and a given name in Wade-Giles (Taiwan)
        ("Tan Wei Ming", "陈伟明"),  # a family name as Singapore spells it
        ("Ryu Hye-won", "유혜원"),  # 유 spelled Ryu
    ],
)
def test_a_name_in_characters_meets_the_spellings_used_outside_the_mainland(latin: str, written: str) -> None:
    weight, _ = name_evidence(latin, written)
    assert weight >= 6.0


def test_other_spellings_of_a_family_name_are_read_from_characters_only() -> None:
    assert name_evidence("Chen Chien-jen", "Tan Chien-jen")[0] < 4.0  # two Latin spellings: two names


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("Morgan Freeley (born May 3, 1961) is an American actor.", "1961"),
        ("Morgan Freeley (March 16, 1884 – December 2, 1957) was a stage actor.", "1884"),
        ("Morgan Freeley est un acteur né le 3 mai 1961 à Lyon.", "1961"),
        ("陳建仁（1951年6月6日－），台灣流行病學家", "1951"),
        ("张伟，1993年生于北京，中国当代艺术家。", "1993"),  # the year alone, then "born"
        ("山田太郎は1993年生まれの画家。", "1993"),
        ("台灣女歌手，1957年生，代表作多首。", "1957"),  # 生 closing a clause: born
        ("公司1998年生产首款产品。", ""),  # 生 opening a word (生产, production): no birth
        ("김민수는 1993년생 화가이다.", "1993"),
        ("1993年至2001年任北京市长。", ""),  # a term, not a birth
        ("Morgan Freeley served as mayor (2010–2015).", ""),  # a term of office, not a life
        ("劉家強（1962年－），香港商人", "1962"),  # a year alone, open
        ("劉家強（1948年－2019年3月2日），香港商人", "1948"),
        ("劉家強曾任市長（2010年－2015年）。", ""),  # a term of office
        ("Born in Lagos, she joined the firm in 2001.", ""),  # a year of another event
        ("Mehmet Yılmazer (d. 1961, Sivas), Türk iş insanı.", "1961"),  # Turkish d.: doğum, born
        ("Morgan Freeley (d. 1961) was an English painter.", ""),  # in English, d. is died
        ("Jan Nowacki (ur. 3 maja 1961 w Krakowie) – polski aktor.", "1961"),
        ("Иван Сорокин (род. 5 мая 1961) — российский актёр.", "1961"),
        ("Budi Hartanto (lahir 3 Mei 1961) adalah aktor Indonesia.", "1961"),
        ("Kari Nordvik (født 1961 i Bergen) er en norsk skuespiller.", "1961"),
        ("Marisol Quiroga (1955) es una ex jugadora de polo.", "1955"),  # the year alone after the name
        ("Reinaldo Quiroga (h) (1982), conocido como Reinaldito, es jugador.", "1982"),
        ("Marisol Quiroga (Rosario, 14 de mayo de 1944) es una actriz.", "1944"),
        ("Marisol Quiroga (b. 1961) is an Argentine polo player.", "1961"),
        ("The NATO summit of 1961 met in Paris.", ""),
    ],
)
def test_a_birth_year_is_read_from_what_the_page_says(text: str, year: str) -> None:
    assert births.born([text]) == year


def test_two_birth_years_keep_two_people_of_one_name_apart() -> None:
    def actor(id: str, url: str, description: str) -> Json:
        item = person(id, "Morgan Freeley", url, "", "Los Angeles, United States", "Actor")
        item["properties"]["description"] = description
        return item

    old = actor(
        "a",
        "https://en.wikipedia.org/wiki/Morgan_Freeley_(stage_actor)",
        "Morgan Freeley (1884 – 1957) was an American stage actor.",
    )
    new = actor(
        "b", "https://www.imdb.com/name/nm0000001/", "Morgan Freeley (born 1961) is an American actor."
    )
    same = actor(
        "c",
        "https://www.rottentomatoes.com/celebrity/morgan_freeley",
        "Morgan Freeley, born 1961, is an actor.",
    )
    assert "born in 1884 / 1961" in weigh(old, new).against
    assert any("both born in 1961" in r for _, r in weigh(new, same).for_)
    # an encyclopedia's heading gives the life span in the name, its prose none: the grandfather
    heading = person("d", "Morgan Freeley (1884-1957)", "https://www.treccani.it/enciclopedia/morgan-freeley/",
                     "", "Los Angeles, United States", "Actor")  # fmt: skip
    assert "born in 1884 / 1961" in weigh(heading, new).against


def test_a_sites_english_edition_is_its_home_page() -> None:
    assert canonical_url("https://www.rail-example.co.jp/e/") == canonical_url(
        "https://www.rail-example.co.jp/"
    )
    assert canonical_url("https://www.example.com.cn/english/") == canonical_url(
        "https://www.example.com.cn/"
    )
    assert canonical_url("https://www.example.com/events/") != canonical_url("https://www.example.com/")


def test_a_subsidiarys_page_on_its_parents_site_joins_its_own_site_in_another_script() -> None:
    # 福山 read as the Japanese family name Fukuyama, 急便 "express"; the group's page names it
    own = co("a", "福山急便", "https://www.fukuyama-exp.co.jp/", "Fukuyama, Japan", "Logistics")
    on_parent = co(
        "b",
        "Fukuyama Express",
        "https://www.fukuyama-hd.co.jp/english/group/fukuyama/",
        "Fukuyama, Japan",
        "Logistics",
    )
    assert glossary.translates("福山急便", "fukuyama express")
    ev = weigh(own, on_parent)
    assert ev.joins and "a page it names, and on its own site fukuyama-exp.co.jp" in ev.reason


@pytest.mark.parametrize(
    "text",
    [
        "Northwind Foods to rename itself Westbrook Brands after the spin-off.",
        "Northwind Foods adopted the name Westbrook Brands in 2023.",
        "Northwind Foods announced its new name, Westbrook Brands, on Monday.",
    ],
)
def test_a_rename_written_as_news_writes_it_is_another_name(text: str) -> None:
    old = co(
        "a",
        "Northwind Foods",
        "https://www.reuters.com/business/northwind-rename",
        "Chicago, United States",
        "Foods",
    )
    old["properties"]["description"] = text
    assert "westbrook brands" in entities.record(0, old).aliases


def test_an_english_given_name_beside_characters_joins_with_employer_and_title() -> None:
    en = person(
        "a",
        "Jenny Tang",
        "https://www.example-mobility.cn/leadership/jenny-tang",
        "Yunda Mobility",
        "Shanghai, China",
        "President",
    )
    zh = person("b", "唐雪", "https://zh.wikipedia.org/wiki/唐雪", "运达出行", "上海, 中国", "总裁")
    assert name_evidence("Jenny Tang", "唐雪") == (
        4.0,
        "an English given name beside a name in characters, same family name",
    )
    ev = weigh(en, zh)
    assert ev.joins and any("same title (总裁 / President)" in r for _, r in ev.for_)
    # without the title: the family name and the employer are not enough
    zh["properties"]["person"]["position"] = "创始人"
    assert not weigh(en, zh).joins


def test_a_pinyin_given_name_that_differs_is_not_an_english_name() -> None:
    assert name_evidence("Tang Wei", "唐雪")[0] < 4.0
    assert glossary.titles_agree("联合创始人", "Co-founder") is None  # a title many hold at once


def test_a_whole_name_few_share_gives_nothing_beside_a_title_telling_namesakes_apart() -> None:
    son = person(
        "a", "Tamás Vadkerti", "https://en.wikipedia.org/wiki/Tamas_Vadkerti", "", "Budapest, Hungary"
    )
    father = person(
        "b", "Tamás Vadkerti", "https://hu.wikipedia.org/wiki/Vadkerti_Tamás_(mérnök)", "", "Budapest"
    )
    assert not any("few share" in r for _, r in weigh(son, father).for_)


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("ミツワホールディングス", "Mitsuwa Brewing Ltd."),  # a holding company; a company of the group
        ("ミツワビール", "Mitsuwa Holdings"),
    ],
)
def test_a_group_and_a_company_of_its_name_do_not_agree_by_their_first_word(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin)) is None


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("ミツワホールディングス", "Mitsuwa Holdings"),
        ("ミツワ", "Mitsuwa Group"),  # the name alone, written without its group word
    ],
)
def test_a_group_agrees_with_its_own_name(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))


def test_a_corporate_about_site_and_the_shop_in_another_script_are_one_company() -> None:
    corporate = co("a", "Tmon", "https://www.abouttmon.com/", "Seoul, South Korea", "E-commerce")
    shop = co("b", "티몬", "https://www.tmon.com/", "Seoul, South Korea", "E-commerce")
    ev = weigh(corporate, shop)
    assert ev.joins and "sites of one stem" in ev.reason


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("डाबर", "Dabur", True),  # three consonants heard whole alike
        ("डाबर", "Dabur India", False),  # the whole name, not its start
        ("イオン", "Ion", False),  # one consonant: too few
    ],
)
def test_a_short_name_heard_whole_alike_agrees(written: str, latin: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) == agree


def test_a_short_name_in_devanagari_joins_its_site() -> None:
    own = co("a", "Dabur", "https://www.dabur.com/", "Ghaziabad, India", "Consumer goods")
    hi = co("b", "डाबर", "https://hi.wikipedia.org/wiki/डाबर", "Ghaziabad, India", "Consumer goods")
    assert entities.resolve([own, hi]).groups == [[0, 1]]


def test_a_city_written_in_characters_is_read_by_its_term_of_place() -> None:
    assert glossary.place_in("京都府京都市", "kyoto") and not glossary.place_in("大阪府大阪市", "kyoto")
    en = person("a", "Haruto Nakamura", "https://www.example-lab.org/people/nakamura", "", "Kyoto, Japan")
    ja = person("b", "中村晴人", "https://ja.wikipedia.org/wiki/中村晴人", "", "京都府京都市")
    assert any("both in kyoto" in r for _, r in weigh(en, ja).for_)


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("البنك الوطني البحريني", "Bahrain National Bank", True),  # البحريني, no term: heard (_abjad)
        ("بنك الكويت الوطني", "National Bank of Kuwait", True),  # in another order
        ("الخطوط الجوية العمانية", "Oman Airways", True),
        ("الأردنية للطيران", "JordanAir", True),  # run together
        ("الأردنية للطيران", "Jordan Petroleum", False),
        ("شركة الحكمة", "Hikma", False),  # a word no term renders, two consonants heard: too few
        # three consonants heard one letter off: near letters only (بيبلوس "bls" is not Blom "blm")
        ("بنك بيبلوس", "Blom Bank", False),
        ("بنك بيبلوس", "Byblos Bank", True),
        # "company" the Latin name leaves out, beside no brand heard: a trade and a place only
        ("الشركة الليبية للبنك", "Banque de Libye", False),
        ("شركة مبادلة للاستثمار", "Mubadala Investment", True),  # a brand heard: company may go
        ("أجيليتي", "Agility", True),  # a soft g is ج
        ("شركة غاز الشمال", "North Gas Company", True),  # Iraq's state companies and banks
        ("المصرف العراقي للاستثمار", "Iraqi Investment Bank", True),
        ("شركة غاز الشمال", "South Gas Company", False),
        ("شرکت ملی پخش گاز ایران", "National Iranian Gas Distribution Company", True),  # Persian
        ("البنك الشعبي الجزائري", "Banque Populaire d'Algérie", True),  # an article elided into a word
        ("البنك الخارجي المغربي", "BEM - Banque Extérieure du Maroc", True),  # its initials before it
        ("البنك الشعبي الجزائري", "Banque Populaire d'Oran", False),
        ("سمارة الهندسة الحديثة", "Samara Modern Engineering", True),  # a rendering's soft g as written
        ("رواد الدواجن الحديثة", "Rowad Modern Poultry", True),
        ("رواد الدواجن الحديثة", "Rowad Modern Foods", False),
        ("البنك السوري الكندي", "Syrian Canadian Bank", True),  # nations a Levantine bank is named by
        ("البنك السوري الكندي", "Syrian French Bank", False),
        ("بنك فلسطين والمهجر", "Bank of Palestine and Overseas", True),
        ("مصانع الورق التركية", "Turkish Paper Factories", False),  # paper: no term renders it
        ("سيراميك الفجيرة", "Fujairah Ceramics", True),  # a soft c heard as s, a plural's s unwritten
        ("سيراميك الفجيرة", "Fujairah Tiles", False),
        (
            "رأس الخيمة للمواد الإنشائية",
            "Ras Al Khaimah Construction Materials",
            True,
        ),  # a place of two words
        ("رأس الخيمة للمواد الإنشائية", "RAK Construction Materials", True),  # and its initials
        ("رأس الخيمة للمواد الإنشائية", "RAK Building Materials", False),
        ("الفجيرة للأسمنت والتنمية الزراعية", "Fujairah Cement and Agricultural Development", True),  # و, and
        ("عجمان للصناعات الدوائية (ميرالتو)", "Ajman Pharmaceutical Industries", True),  # a name in brackets
        ("عجمان للصناعات الدوائية (ميرالتو)", "Miralto", True),  # is the name's other name
        ("عجمان للصناعات الدوائية (ميرالتو)", "Ajman Chemical Industries", False),
        ("بیمه توسعه تعاون", "Cooperative Development Insurance", True),  # Persian's words
    ],
)
def test_an_arabic_name_whose_every_word_is_known_translates(written: str, latin: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) == agree


def test_a_holding_companys_site_and_the_operating_companys_of_its_name_stay_apart() -> None:
    holding = co(
        "a",
        "Wendler SE",
        "https://www.wendler-se.com/",
        "Munich, Germany",
        "Investments",
        "Wendler SE is a holding company with stakes in industrial technology.",
    )
    maker = co(
        "b",
        "Wendler",
        "https://www.wendler.com/",
        "Munich, Germany",
        "Machine tools",
        "Wendler builds machine tools.",
    )
    ev = weigh(holding, maker)
    assert not ev.joins and "Wendler SE says it is a holding company, Wendler does not" in ev.against


def test_the_holding_company_of_a_bank_owns_the_bank_of_its_name() -> None:
    holding = co(
        "a",
        "Paraná&Co",
        "https://investors.parana.example.com.br/",
        "Curitiba, Brazil",
        "Financial services",
        "Paraná&Co is the holding company of Banco Paraná, a digital bank.",
    )
    bank = co("b", "Paraná", "https://parana.example.com.br/", "Curitiba, Brazil", "Digital banking")
    assert any("as a company it owns" in r for r in weigh(holding, bank).against)


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("효성화학", "Hyosung Chemical"),  # a group's own spelling, not Revised Romanization's
        ("두산건설", "Doosan Construction"),
        ("금호석유화학", "Kumho Petrochemical"),  # 석유화학 one term, not 석유 petroleum and 화학 chemical
    ],
)
def test_a_korean_groups_company_translates_in_the_groups_spelling(written: str, latin: str) -> None:
    agree = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert agree == f"{written} translates as {clean_name(latin)}"


def test_pairs_the_evidence_would_join_are_compared_across_scripts() -> None:
    # an English given name beside characters shares no family-and-initial key with them: the
    # family name and the city, read alike, pair them
    en = person("a", "Jean Liu", "https://www.didiglobal.com/about-special/leadership/jean-liu", "DiDi",
                "Beijing, China", "President")  # fmt: skip
    zh = person("b", "柳青", "https://zh.wikipedia.org/wiki/柳青_(企业家)", "滴滴出行", "北京, 中国", "总裁")
    assert weigh(en, zh).joins
    assert entities.resolve([en, zh]).groups == [[0, 1]]
    # a family name in Arabic letters opening with an ayin (العبار, Alabbar) keys by its consonants
    ar = person(
        "c", "محمد العبار", "https://ar.wikipedia.org/wiki/محمد_العبار", "إعمار العقارية", "دبي", "مؤسس"
    )
    latin = person("d", "Mohamed Alabbar", "https://en.wikipedia.org/wiki/Mohamed_Alabbar", "Emaar Properties",
                   "Dubai, United Arab Emirates", "Founder")  # fmt: skip
    keys = [block_keys(entities.record(i, item)) for i, item in enumerate((ar, latin))]
    assert {k for k in keys[0] & keys[1] if k.startswith("s:")}


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("بنك وربة", "warba bank"),  # a term rendered, the other word heard by its consonants
        ("بنك برقان", "burgan bank"),  # q heard one letter off a g
        ("תנובה", "tnuva"),  # Hebrew, a word no term renders
        ("מזרחי טפחות", "mizrahi tefahot bank"),  # a designator beside five consonants heard
        ("Банк Таримекс", "tarimex bank"),  # Cyrillic, heard alike
        ("Οργανισμός Λιμένος Ηγουμενίτσας", "igoumenitsa port authority"),  # a Greek port's authority
        ("Банк Таримекс", "darimex bank"),  # a near consonant at its start (t, d)
    ],
)
def test_a_name_in_arabic_or_hebrew_letters_is_heard_where_no_term_renders_it(
    written: str, latin: str
) -> None:
    assert glossary.agrees(written, clean_name(written), latin.title(), latin) == (
        f"{written} translates and sounds as {latin}"
    )


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("بنك وربة", "wafra bank"),  # other consonants
        ("بنك وربة", "warba insurance"),  # a word unaccounted for on each side
        ("תנובה", "tnuva group"),  # a group beside three consonants heard: not the brand's company
        ("بنك سما", "sama bank"),  # two consonants heard: too many names'
        # a consonant at a word's start for another unlike it: another word ("trmks" / "srmks")
        ("Банк Таримекс", "sarimex bank"),
        ("Οργανισμός Λιμένος Ηγουμενίτσας", "igoumenitsa port services"),
        ("Банк Таримекс", "marimex bank"),
    ],
)
def test_a_heard_name_must_account_for_every_word(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin.title(), latin) is None


def test_an_arabic_article_a_latin_name_runs_into_its_word_is_heard_with_it() -> None:
    """الإرما heard with its article is "lrm", as "Alirma" writes it: three consonants, enough beside
    a rendered word; "Irma" writes two, too many names'."""
    written = "مصرف الإرما"
    assert glossary.agrees(written, clean_name(written), "Alirma Bank", "alirma bank")
    assert glossary.agrees(written, clean_name(written), "Irma Bank", "irma bank") is None


@pytest.mark.parametrize(
    ("written", "agree"),
    [("دار الفرسان للتطوير العقاري", True),  # its trade words ("real estate development") unsaid
     ("دار الفرسان القابضة", False),  # a holding company of the brand: another company
     ("دار الفرسان السعودية", False),  # its country: another company of the brand
     ("بنك وربة للاستثمار", False)],  # three consonants heard: too few to leave words unsaid beside
)  # fmt: skip
def test_a_brand_heard_alike_leaves_its_trade_words_unsaid_in_its_latin_name(
    written: str, agree: bool
) -> None:
    latin = "dar al forsan" if "الفرسان" in written else "warba"
    assert bool(glossary.agrees(written, clean_name(written), latin.title(), latin)) is agree


def test_a_bank_in_arabic_letters_joins_its_english_site() -> None:
    own = co("a", "Warba Bank", "https://www.warbabank.com/en", "Kuwait City, Kuwait", "Banking")
    ar = co("b", "بنك وربة", "https://ar.wikipedia.org/wiki/بنك_وربة", "Kuwait City, Kuwait", "Banking")
    other = co("c", "Wafra Bank", "https://www.wafrabank.example/", "Kuwait City, Kuwait", "Banking")
    assert sorted(entities.resolve([own, ar, other]).groups) == [[0, 1], [2]]


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("한국전력공사", "Korea Electric Power Corporation"),  # 공사, a public corporation
        ("한국수력원자력", "Korea Hydro & Nuclear Power"),
        ("한국항공우주산업", "Korea Aerospace Industries"),
        ("롯데면세점", "Lotte Duty Free"),
        ("中国移动", "China Mobile"),
        ("鈴木楽器製作所", "Suzuki Musical Instrument Corporation"),
        ("日本酸素ホールディングス", "Nippon Sanso Holdings"),  # a trade word's reading kept
        ("南亞塑膠", "Nan Ya Plastics"),
        ("亚洲建材", "Asia Building Materials"),
        ("东方拖拉机", "Eastern Tractor"),
        ("三井重機械工業", "Mitsui Heavy Industries"),
        ("北京环保", "Beijing Environmental Protection"),
        ("澳門巴士", "Macau Bus"),  # Hong Kong's and Macau's places and trades
        ("九龍渡輪", "Kowloon Ferry"),
        ("北村造船所", "Kitamura Shipbuilding"),  # a shipyard's 所, steelmaking's 製鋼, special steel
        ("高田特殊鋼", "Takada Steel"),
        ("上野製鋼所", "Ueno Steel"),
        ("北浜鐵道株式会社", "Kitahama Railway"),  # 鐵道: the old form Japanese railways keep
        ("สมาคมผู้ส่งออกยางไทย", "Thai Rubber Exporters Association"),  # Thai trade bodies' words
        ("中村冶金工業", "Nakamura Yakin Kogyo"),  # 工業 as its reading kept
        ("西洋水産株式会社", "Seiyo Suisan Kaisha, Ltd."),  # 株式会社 as its English name keeps it
        ("株式会社高田証券グループ本社", "Takada Securities Group Inc."),  # a group's head office
        ("九龍機場管理局", "Airport Authority Kowloon"),
        ("中國華安保險(香港)", "China Huaan Insurance (HK) Company Limited"),
    ],
)
def test_more_trades_translate(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert not glossary.agrees("中国移动", clean_name("中国移动"), "China Unicom", clean_name("China Unicom"))
    assert not glossary.agrees(
        "北村造船所", clean_name("北村造船所"), "Kitamura Steel", clean_name("Kitamura Steel")
    )
    rubber = "สมาคมผู้ส่งออกยางไทย"
    assert not glossary.agrees(
        rubber, clean_name(rubber), "Thai Rice Exporters Association", "thai rice exporters association"
    )
    said = "China Huaan Insurance Company Limited"  # (香港): a word the other leaves out
    assert not glossary.agrees("中國華安保險(香港)", clean_name("中國華安保險(香港)"), said, clean_name(said))


def test_a_japanese_brand_in_kanji_no_dictionary_reads_is_read_kanji_by_kanji() -> None:
    # 堀 hori + 場 ba, 出光 idemitsu: each kanji in a reading it takes in names; the trade word left out
    assert glossary.translates("堀場製作所", "horiba")
    assert glossary.translates("東洋製罐", "toyo seikan")
    assert "t:horiba" in set(glossary.keys("堀場製作所"))
    assert not glossary.translates("堀場製作所", "horita")
    assert not glossary.translates("堀場製作所", "hori")  # a word of four letters or more, whole
    site = co("a", "HORIBA", "https://www.horiba.com/int/", "Kyoto, Japan", "Analytical instruments")
    article = co(
        "b",
        "堀場製作所",
        "https://ja.wikipedia.org/wiki/堀場製作所",
        "京都市, Japan",
        "Analytical instruments",
    )
    assert entities.resolve([site, article]).groups == [[0, 1]]


def test_a_chinese_companys_english_name_may_open_with_its_province_or_city_unwritten() -> None:
    from exa_orch.workflows.entities import glossary
    from exa_orch.workflows.entities.names import clean_name

    for latin in ("Sichuan Kelun Pharmaceutical", "Chengdu Kelun Pharmaceutical"):
        said = glossary.translates("科伦药业", clean_name(latin))
        assert said and "unwritten" in said
    assert glossary.translates("科伦药业", clean_name("Sichuan Kelun")) is not None  # the trade may go
    assert glossary.translates("科伦药业", clean_name("Golden Kelun Pharmaceutical")) is None  # no place
    assert glossary.translates("药业", clean_name("Sichuan Pharmaceutical")) is None  # no brand beside it
    place = ("Chengdu, China", "Pharmaceuticals")
    zh = co("a", "科伦药业", "https://www.kelun.com/", *place)
    en = co("b", "Sichuan Kelun Pharmaceutical", "https://en.wikipedia.org/wiki/Sichuan_Kelun", *place)
    assert entities.resolve([zh, en]).groups == [[0, 1]]  # a candidate pair by the name after the place


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("고려아연", "Korea Zinc", True), ("국민연금공단", "National Pension Service", True),
     ("고려대학교", "Korea University", True), ("고려아연", "Korea Steel", False)],
)  # fmt: skip
def test_korea_s_old_name_and_its_words_of_trade_translate(written: str, latin: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) == agree


def test_a_plural_s_is_heard_as_hangul_writes_it() -> None:
    """타이거즈, "taigeojeu": Tigers with its s sounded z."""
    written, latin = "KIA 타이거즈", "Kia Tigers"
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert not glossary.agrees(written, clean_name(written), "Kia Tigres", clean_name("Kia Tigres"))


def test_a_soft_g_and_a_plural_s_are_heard_together() -> None:
    """에너지머티리얼즈: Energy's g soft and Materials' s sounded z, in one run of Hangul."""
    assert glossary.translates("한화에너지머티리얼즈", "hanwha energy materials")
    assert not glossary.translates("한화에너지머티리얼즈", "hanwha energy minerals")


def test_a_reading_beginning_with_a_designators_sounds_is_no_name() -> None:
    """ "البنك" (the bank, "lbnk") begins the reading of many banks' names; "ahlibank" sounds "ahli"
    and "bank", and "ahli" only an l: the start of a reading is no agreement then."""
    written = "البنك الوطني الليبي"
    assert not glossary.agrees(written, clean_name(written), "ahlibank", clean_name("ahlibank"))


def test_a_joint_stock_company_named_in_an_aside_is_not_the_limited_company_of_its_name() -> None:
    """东风汽车集团股份有限公司 (the listed arm) and 东风汽车集团有限公司 (its parent) write one name and
    two legal forms: the aside naming the first is no evidence about the second."""
    listed = co("l", "长江集团股份", "https://www.cjgroup.example.cn/", "武汉", "汽车",
                "长江汽车集团股份有限公司（长江集团股份，00999.HK）于2005年在香港联交所上市。")  # fmt: skip
    parent = co("p", "长江汽车集团有限公司", "https://zh.wikipedia.org/wiki/长江汽车集团", "武汉", "汽车",
                "长江汽车集团有限公司是中央直管的汽车企业，总部位于武汉。")  # fmt: skip
    assert not weigh(listed, parent).joins
    same = co("s", "长江汽车集团股份有限公司", "https://www.hkex.example/listed/00999", "武汉", "汽车")
    assert weigh(listed, same).joins


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        (
            "鈴木楽器製作所",
            "Suzuki Musical Instrument Corporation",
        ),  # a brand read beside trades, its first word
        ("南亞塑膠", "Nan Ya Plastics"),  # a reading the Latin name writes as two words
    ],
)
def test_a_translated_name_and_its_latin_name_share_a_blocking_key(written: str, latin: str) -> None:
    assert set(glossary.keys(written)) & glossary.latin_keys(clean_name(latin))
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("بنك الدوحة", "doha bank"),  # a city
        ("دبي القابضة", "dubai holding"),  # a holding company, not left out
        ("الخليج الدولية للخدمات", "gulf international services"),
        ("الشركة السعودية للخدمات الأرضية", "saudi ground services"),
        ("بورصة الكويت", "boursa kuwait"),  # a word a Latin name keeps as it sounds
    ],
)
def test_an_arab_companys_places_and_trades_translate(written: str, latin: str) -> None:
    assert glossary.translates(written, latin)


def test_an_arab_companys_translation_accounts_for_every_word() -> None:
    assert glossary.translates("بنك البحرين الوطني", "bank of bahrain") is None  # "national" unsaid
    assert glossary.translates("دبي القابضة", "dubai") is None  # a holding company is not its place


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("三井地所", "mitsui estate"),
        ("東京ビル", "tokyo building"),
        ("금호타이어", "kumho tire"),
        ("금호전선", "kumho cable"),
    ],
)
def test_more_trade_words_translate_as_the_companies_render_them(written: str, latin: str) -> None:
    assert glossary.translates(written, latin)
    assert glossary.translates(written, latin.split()[0]) is None  # a group's name alone is not its company
    assert glossary.translates("西武電鉄", "seibu electric railway")
    assert glossary.translates("日本生命", "nippon life insurance")  # a life insurer's "insurance" unwritten


@pytest.mark.parametrize(("written", "latin"), [("קומפולינק", "compulink"), ("קפריגון", "caprigon")])
def test_a_hebrew_brand_heard_letter_by_near_letter_is_its_latin_name(written: str, latin: str) -> None:
    """פ read f is Compulink's p, ק Caprigon's c: each letter a near one, four or more."""
    assert glossary.agrees(written, clean_name(written), latin.title(), latin)
    assert heard_words.heard_keys(written, clean_name(written)) & heard_words.heard_keys(latin.title(), latin)
    assert glossary.agrees(written, clean_name(written), "Comfortlink", "comfortlink") is None


@pytest.mark.parametrize(("name", "joins"), [("Hanseong-A Shipping", True), ("Hanseong-A Line", False)])
def test_a_news_page_of_a_name_read_as_beginning_alike_joins_the_site_only_where_its_trade_is_said(
    name: str, joins: bool
) -> None:
    # 해운 is shipping: "Line" is another company of the brand, not the one at hanseong-a.co.kr
    own = co(
        "a", "한성아해운(주)", "https://www.hanseong-a.co.kr/", "Busan, South Korea", "Container shipping"
    )
    news = co(
        "b",
        name,
        "https://www.shipgazette.co.kr/news/main_newsView.jsp?pNum=125301",
        "Busan, South Korea",
        "Container shipping",
    )
    assert weigh(own, news).joins == joins


def test_a_kanji_names_kana_reading_names_a_company_written_in_kana_as_a_brand_does() -> None:
    # homophones share a reading: a department store in Kobe is not a confectioner in Nagoya
    page = co(
        "a",
        "山田屋",
        "https://ja.wikipedia.org/wiki/山田屋",
        "Kobe, Japan",
        "Department store",
        "株式会社山田屋（やまだや）は、兵庫県神戸市に本店を置く百貨店。",
    )
    kana = co("b", "株式会社やまだや", "https://www.yamadaya.co.jp/", "Nagoya, Japan", "Confectionery")
    ev = weigh(page, kana)
    assert [w for w, _ in ev.for_] == [3.0] and not ev.joins


@pytest.mark.parametrize(
    ("written", "latin", "how"),
    [
        ("Российский сельскохозяйственный банк", "Russian Agricultural Bank", "translates as"),
        ("Національний банк України", "National Bank of Ukraine", "translates as"),  # Ukrainian
        ("Московский кредитный банк", "Credit Bank of Moscow", "translates as"),  # a place's adjective
        ("Εμπορική Τράπεζα της Ελλάδος", "Commercial Bank of Greece", "translates as"),  # accents, "of the"
        ("ПАО «Банк Приморье»", "Primorye Bank", "translates and sounds as"),  # a word heard, a form left out
        ("Банк Приморье", "Primorsky Bank", None),  # heard otherwise
        ("Національний банк України", "National Bank of Kazakhstan", None),  # a word unaccounted for
        # a place and a trade heard through their adjectives' suffixes (-ский, -ный)
        ("Ивановский тракторный завод", "Ivanovo Tractor Works", "translates and sounds as"),
        ("Ивановский тракторный завод", "Irkutsk Tractor Works", None),
        ("Ивановский тракторный завод", "Ivanovo Motor Works", None),
        # a town's adjective whose n is its own (-анский: Севан, not Сев-), industries' words
        ("Севанский коньячный завод", "Sevan Brandy Factory", "translates and sounds as"),
        ("Концерн «Ванадзор»", "Vanadzor Concern", "translates and sounds as"),
        ("Институт «Ванадзор»", "Vanadzor Institute", "translates and sounds as"),
        ("Авиакомпания «Ванадзор»", "Vanadzor Airlines", "translates and sounds as"),
        ("Воды Ванадзора", "Vanadzor Waters", "translates and sounds as"),
        ("Севанский коньячный завод", "Sevan Wine Factory", None),
    ],
)
def test_a_name_in_cyrillic_or_greek_letters_translates_word_by_word(
    written: str, latin: str, how: str | None
) -> None:
    said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert (said is None) if how is None else (said is not None and how in said)


@pytest.mark.parametrize(
    ("text", "other", "apart"),
    [
        (
            "Tessaro Corporation makes sugar; it is unrelated to the noodle maker Tessaro Foods.",
            "Tessaro Foods",
            True,
        ),
        (
            "Tessaro Corporation makes sugar. Not to be confused with Tessaro Foods Ltd.",
            "Tessaro Foods Ltd",
            True,
        ),
        (
            "Tessaro Corporation makes sugar; it is unrelated to the noodle maker Tessaro Foods.",
            "Tessaro",
            False,
        ),
        (
            "Tessaro Corporation makes sugar; not affiliated with Tessaro Foods of Korea.",
            "Tessaro Foods",
            True,
        ),
        (
            "Tessaro Corporation makes sugar; not affiliated with Tessaro Foods International.",
            "Tessaro Foods",
            False,
        ),
        ("株式会社テッサロは砂糖メーカー。製麺会社の「テッサロ食品」とは無関係。", "テッサロ食品", True),
    ],
)
def test_a_page_that_says_its_subject_is_not_another_keeps_the_two_apart(
    text: str, other: str, apart: bool
) -> None:
    # a name the clause ends on, never a part of a longer name it writes nor the page's own name
    page = co(
        "a",
        "Tessaro Corporation" if text.isascii() else "株式会社テッサロ",
        "https://www.tessaro-corp.example.com/",
        "Seoul, South Korea",
        "Sugar",
        text,
    )
    named = co("b", other, "https://www.tessaro-foods.example.com/", "Seoul, South Korea", "Noodles")
    against = [r for r in weigh(page, named).against if "says it is not" in r]
    assert bool(against) == apart


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("شركة أسمنت القصيم", "Qassim Cement Company"),  # a trade rendered, the place heard
        ("شركة ريسوت للأسمنت", "Raysut Cement Company"),
        ("شركة أسمنت سيناء", "Sinai Cement Company"),  # cement heard makes three consonants with سيناء
        ("شركة قطر الوطنية لصناعة الأسمنت", "Qatar National Cement Company"),  # "for the making of"
        ("الشرق الأوسط للرعاية الصحية", "Middle East Healthcare Co."),  # two words English writes as one
    ],
)
def test_an_arab_company_that_says_company_in_both_scripts_translates(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))


def test_company_left_out_of_the_latin_name_keeps_a_trade_and_a_place_apart() -> None:
    # شركة ("company") beside a trade and a place the table renders: many companies' names, unless
    # the Latin name says "company" too; beside words all heard, five consonants in all, one name
    # (heard_words._heard_enough)
    assert glossary.agrees("الشركة التونسية للبنك", "", "Banque de Tunisie", "banque de tunisie") is None
    assert glossary.agrees("شركة القصيم", "", "Qassim", "qassim") is None  # three consonants
    assert glossary.agrees("شركة أسمنت القصيم", "", "Qassim Cement", "qassim cement")


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("포스코이앤씨", "POSCO E&C Co., Ltd."),  # a term, then letters spelled out
        ("DL이앤씨", "DL E&C Co., Ltd."),  # Latin letters, then letters spelled out
        ("효성티앤씨", "Hyosung TNC Corporation"),  # "&" read as n
        ("에이피알", "APR Corporation"),  # three letters alone
    ],
)
def test_latin_letters_spelled_out_in_hangul_agree(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert set(glossary.keys(written)) & glossary.latin_keys(clean_name(latin))


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("브이티", "VT Co., Ltd."),  # two letters alone are as often a word's syllables
        ("포스코이앤씨", "POSCO E&D Co., Ltd."),  # other letters
    ],
)
def test_letters_spelled_out_in_hangul_must_be_the_latin_ones(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin)) is None


def test_a_loanword_in_katakana_beside_kanji_is_a_word_of_its_own() -> None:
    assert [s.text for s in glossary.segments("十六フィナンシャルグループ")] == [
        "十六",
        "フィナンシャル",
        "グループ",
    ]
    assert glossary.translates("山口フィナンシャルグループ", "yamaguchi financial group")


def test_a_limited_liability_company_in_chinese_is_its_name_without_the_form() -> None:
    own = co(
        "a", "陕西煤业化工集团有限责任公司", "http://www.shccig.com/", "Xi'an, China", "Coal and chemicals"
    )
    wiki = co(
        "b",
        "陕西煤业化工集团",
        "https://zh.wikipedia.org/wiki/陕西煤业化工集团",
        "Xi'an, China",
        "Coal and chemicals",
    )
    assert entities.resolve([own, wiki]).groups == [[0, 1]]


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("شركة نفط الكويت", "Kuwait Oil Company"),
        ("شرکت ملی نفت ایران", "National Iranian Oil Company"),  # Persian
        ("جهاز الاستثمار العُماني", "Oman Investment Authority"),  # a short vowel written
        ("سوق أبوظبي للأوراق المالية", "Abu Dhabi Securities Exchange"),  # two words, one in English
        ("البنك المركزي التونسي", "Banque Centrale de Tunisie"),  # a Maghreb company's French name
        ("القرض الفلاحي للمغرب", "Crédit Agricole du Maroc"),
        ("بانک توسعه صادرات ایران", "Export Development Bank of Iran"),
        ("الاتحاد للماء والكهرباء", "Etihad Water & Electricity"),  # two consonants heard beside two terms
    ],
)
def test_a_state_company_in_arabic_or_persian_letters_translates(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("أسواق الفرسان", "Al Forsan Markets", True),  # a retailer's markets
     ("اسواق الفرسان", "Al Forsan Markets", True),  # the alif written without its hamza
     ("مصرف النجوم الاسلامي", "Nujoom Islamic Bank", True),
     ("شرکت حفاری سپیدان", "Sepidan Drilling Company", True),  # Persian
     ("شرکت حفاری سپیدان", "Sepidan Refinery Company", False),
     ("مصرف النجوم الاسلامي", "Nujoom Bank", False)],  # a word the Latin name leaves out
)  # fmt: skip
def test_a_gulf_or_iranian_company_s_trade_words_and_their_spellings_translate(
    written: str, latin: str, agree: bool
) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "initials", "agree"),
    [
        ("بنك الكويت الوطني", "NBK", True),  # National Bank of Kuwait, its adjective after its noun
        ("البنك العربي الأفريقي الدولي", "AAIB", True),
        ("شركة البترول الوطنية الكويتية", "KNPC", True),  # and a C for company
        ("بنك الكويت الوطني", "NBB", False),  # other initials
        ("بنك الكويت", "BK", False),  # two words' initials are too many names'
    ],
)
def test_a_translations_initials_are_its_latin_name(written: str, initials: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), initials, clean_name(initials))) is agree
    assert bool(set(glossary.keys(written)) & glossary.latin_keys(clean_name(initials))) is agree


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("राज्य विद्युत विकास निगम", "State Electricity Development Corporation", True),  # every word a term
        ("राज्य विद्युत विकास निगम", "State Electricity Distribution Corporation", False),
        ("केंद्रीय रेशम उद्योग निगम", "CSIC", True),  # the initials of its translation, a C for निगम
        ("केंद्रीय रेशम उद्योग निगम", "KRUN", False),  # not of its reading
        ("पवनी चाय मिल्स", "Pavani Tea Mills", True),  # a word heard by its consonants
        ("জাতীয় চা বোর্ড", "National Tea Board", True),  # Bengali
        ("சென்ட்ரல் வங்கி", "Central Bank", True),  # Tamil
        ("सौर्य सिमेंट", "Shree Cement", False),  # two consonants alike, a syllable more
    ],
)
def test_a_name_in_a_south_asian_script_translates_word_by_word(
    written: str, latin: str, agree: bool
) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("नेपाल बैंक लिमिटेड", "Nepal Bank Limited", True),  # "limited" in Devanagari, a form
        ("ओएनजीसी विदेश लिमिटेड", "ONGC Videsh", True),  # letters spelled out by their names
        ("बीएचईएल", "BHEL", True),
        ("एसबीआई", "SBI Card", False),  # a word the Latin name adds
        ("बीएचईएल", "BHL", False),  # other letters
        ("আইএফজি ব্যাংক", "IFG Bank", True),  # letters, then a word heard, word by word
        ("আইএফজি ব্যাংক", "IFG Bond", False),  # the word heard otherwise
        ("আইএফজি ব্যাংক", "IGF Bank", False),  # other letters
        ("எல். எம். எஸ்.", "LMS", True),  # letters spelled out a word each: "el em es"
        ("எல். எம். எஸ்.", "LSM", False),
        ("ایل ایم ایس ملز", "LMS Mills", True),  # and in Arabic letters, as Urdu spells them
        ("ایل ایم ایس ملز", "LMS Steel", False),
        ("ایل ایم ایس ملز", "LSM Mills", False),
    ],
)
def test_a_south_asian_name_drops_its_form_and_reads_its_letters(
    written: str, latin: str, agree: bool
) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("SK케미칼", "SK chemicals", True),  # a loanword in Hangul, heard as the English word
        ("한국콜마", "Kolmar Korea", True),  # a brand heard beside a term
        ("롯데케미칼", "Lotte Chemical", True),
        ("롯데케미칼", "Lotte Chemicals Titan", False),  # a word more
        ("SK케미칼", "SK Camera", False),  # heard otherwise
        (
            "インターステラテクノロジズ",
            "Interstellar Technologies",
            True,
        ),  # a soft g (ジ), two words in one run
        ("セブン‐イレブン・ジャパン", "Seven-Eleven Japan", True),  # a hyphen parts words as a space does
    ],
)
def test_a_loanword_in_hangul_or_katakana_is_heard_as_its_english_word(
    written: str, latin: str, agree: bool
) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("Αρχή Ηλεκτρισμού Κύπρου", "Electricity Authority of Cyprus"),
        ("Κυπριακές Αερογραμμές", "Cyprus Airways"),
    ],
)
def test_a_greek_state_company_translates(written: str, latin: str) -> None:
    assert glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert glossary.agrees(written, clean_name(written), "Cyprus Airports", "cyprus airports") is None


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        # a state group, which its English name calls a corporation
        ("中国国电集团有限公司", "China Guodian Corporation", True),
        ("中国国电集团股份有限公司", "China Guodian Corporation", False),  # its joint-stock arm is not
        ("中国国电集团有限公司", "China Guodian Company Limited", False),
        ("โรงพยาบาลเวชธานี", "Vejthani Hospital", True),  # Thai, read by its consonants, the trade first
        ("โรงพยาบาลเวชธานี", "Vejthani Bank", False),
        ("เวชธานี", "Vejthani Hospital", False),  # a trade one name says and the other does not
        ("บริษัท เอสวีไอ จำกัด (มหาชน)", "SVI", True),  # Latin letters spelled out by their names
        ("บริษัท เอสวีไอ จำกัด (มหาชน)", "SVA", False),
        ("MG손해보험", "MG Non-Life Insurance", True),  # non-life insurance
        ("MG손해보험", "MG Life Insurance", False),
        ("블리츠증권", "Blitz Securities", True),  # tz as Hangul writes it, 츠
    ],
)
def test_a_chinese_state_group_and_a_thai_company_agree_with_their_english_names(
    written: str, latin: str, agree: bool
) -> None:
    said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert bool(said) is agree, said


def test_a_brand_a_page_names_in_brackets_is_not_the_holding_company_of_its_name() -> None:
    own = co(
        "a",
        "대방전자",
        "https://ko.wikipedia.org/wiki/대방전자",
        "Seoul, South Korea",
        "Home appliances",
        "대방전자(DAEBANG)는 대한민국의 전기밥솥 제조 기업이다.",
    )
    holding = co(
        "b",
        "Daebang Holdings Co Ltd",
        "https://www.bloomberg.com/quote/999990:KS",
        "Seoul, South Korea",
        "Home appliances",
        "Daebang Holdings Co Ltd is a holding company.",
    )
    brand = co(
        "c",
        "Daebang Co Ltd",
        "https://www.bloomberg.com/quote/999991:KS",
        "Seoul, South Korea",
        "Home appliances",
        "Daebang Co Ltd makes rice cookers.",
    )
    assert not any("names" in r for _, r in weigh(own, holding).for_)
    assert any("names" in r for _, r in weigh(own, brand).for_)


def test_a_reading_agreeing_with_a_place_alone_is_no_bank_that_says_more() -> None:
    assert (
        glossary.agrees(
            "天津银行", "tianjinyinxing", "Tianjin Rural Commercial Bank", "tianjin rural commercial bank"
        )
        is None
    )
    assert glossary.agrees(
        "天津农村商业银行",
        "tianjinnongcunshangyeyinxing",
        "Tianjin Rural Commercial Bank",
        "tianjin rural commercial bank",
    )


@pytest.mark.parametrize(
    ("listed", "whole", "alike"),
    [("Eastmoor Log Tr", "Eastmoor Logistics Trust", True),  # an exchange's list, word by word
     ("Harbourview Cpt Tr", "Harbourview Centrepoint Trust", True),
     ("Wexford Proj", "Wexford Projects Limited", True),
     ("Wexford Air Group", "Wexford Airlines", False),  # not as many words
     ("Wexford Res Power", "Wexford Resources Gas", False),  # a word neither shortens
     ("Proj Wexford", "Projects Limited", False),  # no word written whole on both sides
     ("Dravon NÖ Versicherung", "Dravon Niederösterreichische Versicherung", True),  # a compound's initials
     ("BKA Bank Morski", "Bekta Bank Morski", False)],  # a vowel kept after the start: a word of its own
)  # fmt: skip
def test_a_name_an_exchange_shortens_word_by_word_is_an_abbreviation(
    listed: str, whole: str, alike: bool
) -> None:
    from exa_orch.workflows.entities.names import names_agree

    assert (names_agree(clean_name(listed), clean_name(whole)) == "abbreviation") is alike


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("京成倉庫", "Keisei Warehouse Co., Ltd.", True),  # a private railway's group and a trade: 倉庫
     ("京成倉庫", "Keisei Electric Railway Co., Ltd.", False),  # the group's railway is another company
     ("小田急観光", "Odakyu Tourism", True),
     ("小田急観光", "Odakyu", False)],  # a group's name alone is no company of the group
)  # fmt: skip
def test_a_japanese_group_s_name_and_a_trade_translate_as_its_company_s(
    written: str, latin: str, agree: bool
) -> None:
    said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert bool(said) is agree, said


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("זורבת להשקעות", "zorvath investments", True),  # ל, for, written onto the word
     ("זורבת אנרגיה מתחדשת", "zorvath renewable energy", True),
     ("זורבת טכנולוגיות", "zorvath technologies", True),
     ("זורבת טכנולוגיות", "zorvath investments", False)],
)  # fmt: skip
def test_a_hebrew_name_s_words_of_trade_translate(written: str, latin: str, agree: bool) -> None:
    said = heard_words.translate(written, latin)
    assert bool(said) is agree, said


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("コート製薬", "Kohto Pharmaceutical Co., Ltd.", True),  # kana's long vowels as Hepburn's oh
     ("コート製薬", "Kotani Pharmaceutical Co., Ltd.", False),
     ("東京ビルファンド投資法人", "Tokyo Building Fund", True),  # a J-REIT's form, left out in English
     ("東京ビルファンド投資法人", "Tokyo Building Fund Investment Corporation", True)],
)  # fmt: skip
def test_japanese_kana_long_vowels_and_a_reit_s_form(written: str, latin: str, agree: bool) -> None:
    said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert bool(said) is agree, said


@pytest.mark.parametrize(
    ("latin", "agree"),
    [("Te Mei Corporation", True),  # 德 de, Wade-Giles te: a Taiwanese company's English name
     ("Tai Mei Corporation", False)],
)  # fmt: skip
def test_a_taiwanese_name_keeps_its_wade_giles_reading_in_english(latin: str, agree: bool) -> None:
    assert bool(glossary.agrees("德美實業", clean_name("德美實業"), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("เมืองทองประกันชีวิต", "Muang Thong Life Assurance", True),  # a trade, and words heard
     ("ปูนซิเมนต์กรุงเทพ", "Bangkok Cement", True),  # Krung Thep, Bangkok
     ("ปูนซิเมนต์กรุงเทพ", "Bangkok Bank", False),  # another trade
     ("เมืองทองประกันชีวิต", "Muang Thong Insurance", False)],  # life assurance is no insurance alone
)  # fmt: skip
def test_a_thai_company_s_words_of_trade_and_place_translate(written: str, latin: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


def test_names_run_together_or_short_in_another_script_share_a_blocking_key() -> None:
    def keys(*names: str) -> list[set[str]]:
        return [block_keys(entities.record(i, person(str(i), n, f"https://x.example/{i}", "", ""))) for i, n in
                enumerate(names)]  # fmt: skip

    # "servant of" and the word after it, as a Latin name runs them together
    arabic, latin = keys("سميرة عبد الكريم", "Samira Abdelkarim")
    assert "s:bdlkrm" in arabic & latin
    # a family name of three letters after its article (الفكا, "lfk": Fakka)
    arabic, latin = keys("نادر الفكا", "Nader El Fakka")
    assert "s:fk" in arabic & latin
    # an English given name Chinese syllables might spell (Eileen, "ei lin") beside characters
    english, chinese = keys("Eileen Tsao", "曹愛玲")
    assert "e:tsao" in english & chinese


def test_a_name_part_in_latin_letters_is_heard_only_beside_a_name_writing_it() -> None:
    assert not glossary.agrees("iN라이프", clean_name("iN라이프"), "Hana Life", clean_name("Hana Life"))
    assert glossary.agrees("NX하우시스", clean_name("NX하우시스"), "NX Hausys", clean_name("NX Hausys"))


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("ميناء عجمان", "Port of Ajman", True),
        ("مطارات الشارقة", "Sharjah Airports", True),
        ("مطارات الشارقة", "Sharjah Ports", False),
        ("طنطا للغزل والنسيج", "Tanta Spinning and Weaving", True),
        ("طنطا لحليج الأقطان", "Tanta Cotton Ginning", True),
        ("طنطا لحليج الأقطان", "Tanta Spinning and Weaving", False),
    ],
)
def test_arabic_words_of_ports_airports_and_mills_translate(written: str, latin: str, agree: bool) -> None:
    """Gulf ports and airports and Egyptian mills by their trades (ميناء, port; مطارات, airports;
    للغزل والنسيج, spinning and weaving; لحليج الأقطان, cotton ginning); another trade does not."""
    assert bool(heard_words.translate(written, clean_name(latin), says_company=True)) is agree


def test_a_name_in_azerbaijani_letters_shares_a_blocking_key_with_its_english_spelling() -> None:
    """Cəmil Hacızadə is Jamil Hajizade as English spells Azerbaijani (alphabets.turkic_spelled):
    the two are blocked together, so their evidence is weighed at all."""
    az, en = (
        block_keys(entities.record(i, person(str(i), n, f"https://x.example/{i}", "", "")))
        for i, n in enumerate(("Cəmil Hacızadə", "Jamil Hajizade"))
    )
    assert any(k.startswith("f:") for k in az & en)


def test_a_chinese_legal_form_a_registry_page_writes_after_the_name_is_read_as_one_form() -> None:
    """A registry page under a company's bare name whose text writes its legal form (长白冰泉矿泉水有限公司，...)
    states one form, 有限公司, never the whole name read as one word: beside the encyclopedia's page
    under the full legal name they are one company (one country, one trade)."""
    at, trade = "Baishan, China", "Mineral water bottling"
    items = [
        co("a", "长白冰泉矿泉水有限公司", "https://baike.baidu.com/item/长白冰泉矿泉水有限公司", at, trade,
           "长白冰泉矿泉水有限公司位于吉林省白山市，生产天然矿泉水。"),
        co("b", "长白冰泉矿泉水", "https://www.qcc.com/firm/0f1e2d3c4b5a69788796a5b4c3d2e1f0.html", at, trade,
           "长白冰泉矿泉水有限公司，注册地吉林白山，经营范围：饮用天然矿泉水生产。"),
    ]  # fmt: skip
    assert entities.resolve(items).groups == [[0, 1]]


@pytest.mark.parametrize(
    ("short", "full"),
    [("鹤峰茶业", "湖北鹤峰茶业股份有限公司"),  # a province its reading names
     ("雪莲藏药", "西藏雪莲藏药股份有限公司"),  # 西藏 reads xicang: its term says xizang
     ("草原乳业", "内蒙古草原乳业股份有限公司"),  # a province of three characters
     ("飞鹤茶业", "株洲市飞鹤茶业有限公司"),  # a prefecture's city, 市 after it
     ("云雾茶业", "绵阳云雾茶业股份有限公司"),  # a prefecture's city alone
     ("青山茶業", "溫州青山茶業股份有限公司")],  # a city in traditional characters, read as 温州
)  # fmt: skip
def test_a_listing_short_name_and_its_province_prefixed_legal_name_are_one_company(
    short: str, full: str
) -> None:
    """A stock's quote page under its short name and the encyclopedia's under its legal name, which
    opens with its province (provinces.province_added): two profiles of one company where one
    country and one trade say so; another trade keeps them apart."""
    assert provinces.province_added(short, full)
    at = "China"
    quote = co("q", short, "https://quote.eastmoney.com/sh600999.html", at, "Tea", f"{short}(600999)")
    article = co("b", full, f"https://baike.baidu.com/item/{full}", at, "Tea", f"{full}成立于1998年。")
    assert weigh(quote, article).joins
    assert not weigh(quote, co("b", full, f"https://baike.baidu.com/item/{full}", at, "Cement")).joins


@pytest.mark.parametrize(
    ("short", "full", "agree"),
    [("鹤川激光", "武汉鹤川激光科技股份有限公司", True),  # a city before it, a word of trade after
     ("青岚医疗", "宁波青岚医疗电气股份有限公司", True),
     ("云杉股份", "宁波云杉科技股份有限公司", True),  # a stock company's short name, its 股份 aside
     ("云杉汽车", "云杉汽车集团股份有限公司", False),  # its group's name: another listing
     ("鹤川", "鹤川动力科技股份有限公司", False),  # four characters more: a unit's name
     ("鹤川激光", "武汉鹤川激光科技有限公司", False)],  # no joint-stock company: none listed
)  # fmt: skip
def test_a_listing_short_name_is_a_joint_stock_company_s_legal_name_less_a_word_of_trade(
    short: str, full: str, agree: bool
) -> None:
    """A stock's quote page under its short name (证券简称) and the encyclopedia's under the legal name
    of a joint-stock company it is made of, the city and a word of trade or two left out: two
    profiles of one company where one country and one trade say so (short_names.listed_short)."""
    at = "China"
    quote = co("q", short, "https://quote.eastmoney.com/sh600998.html", at, "Lasers", f"{short}(600998)")
    article = co("b", full, f"https://baike.baidu.com/item/{full}", at, "Lasers", f"{full}成立于2004年。")
    assert weigh(quote, article).joins is agree


def test_a_city_s_works_is_not_its_province_s_company_with_the_city_after() -> None:
    """A name in characters whose only run is a city (鹰潭, Yingtan) and a trade is that city's
    works: not another company's "Jiangxi Steel Yingtan", its province left unwritten, which only a
    brand beside the place allows (华友钴业 / Zhejiang Huayou Cobalt)."""
    assert glossary.translates("鹰潭钢铁", "jiangxi steel yingtan") is None
    assert glossary.translates("华友钴业", "zhejiang huayou cobalt")


def test_a_province_read_in_hokkien_is_no_brand_of_a_distillery() -> None:
    """安徽 reads "anhui" in Hokkien as in Mandarin: a province, no Southeast Asian brand, so
    安徽银河酒业 is not "Anhui Taishan Distillery" by it; its Mandarin reading, "anhui yinhe", is read."""
    written = "安徽银河酒业股份有限公司"
    for latin, agree in (("Anhui Taishan Distillery", False), ("Anhui Yinhe Distillery", True)):
        assert bool(reading_agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("latin", "agree"),
    [("Yu Fang Hotpot", True),  # pinyin written syllable by syllable, run together
     ("Yu Fa Hotpot", False)],  # four letters run together: too few to say a brand
)  # fmt: skip
def test_a_brand_s_pinyin_written_syllable_by_syllable_is_its_reading(latin: str, agree: bool) -> None:
    """A restaurant chain's English name writes its brand's pinyin a syllable a word ("Yu Fang"),
    which the characters' reading opens with, run together (渝坊火锅, yufanghuoguo)."""
    written = "渝坊火锅"
    assert bool(reading_agrees(written, clean_name(written), latin, clean_name(latin))) is agree


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("スクソンブン銀行", "Suksomboonbank", True),  # a brand in katakana, then 銀行: its bank run in
     ("Банк Суксомбун", "SUKSOMBOONBANK", True),  # a bank's word before the brand, in capitals
     ("Банк Суксомбун", "Rattanabank", False)],  # another brand run into its bank
)  # fmt: skip
def test_a_latin_name_running_its_bank_into_its_brand_reads_as_two_words(
    written: str, latin: str, agree: bool
) -> None:
    """A bank's Latin name that runs "bank" into its brand, one word (KASIKORNBANK, Commerzbank),
    agrees with its name in another script, which writes the brand and the bank apart."""
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree


def test_two_characters_that_name_no_place_are_no_province_before_a_name() -> None:
    """A name opening with two characters no province or prefecture's city reads as (国泰, guotai)
    is another company's name, not a place added: 国泰海通茶业 is no 海通茶业."""
    assert not provinces.province_added("海通茶业", "国泰海通茶业股份有限公司")
    assert provinces.without_province("国泰海通茶业") == ""


def test_a_profile_under_the_name_and_its_country_is_the_company_of_that_country() -> None:
    """A quote page under the full name, its legal form and its country after it ("Penghu Lines
    Corp. (Taiwan) Ltd.") and the encyclopedia's under the name alone, both of Taiwan and one
    trade: one company. The name and another country's (a subsidiary abroad) stays apart."""
    trade = "Container shipping"
    wiki = co("w", "Penghu Lines", "https://en.wikipedia.org/wiki/Penghu_Lines", "Taipei, Taiwan", trade)
    home = co("q", "Penghu Lines Corp. (Taiwan) Ltd.", "https://www.reuters.com/markets/companies/2699.TW/",
              "Taipei, Taiwan", trade)  # fmt: skip
    assert weigh(wiki, home).joins
    abroad = co("s", "Penghu Lines (Singapore) Pte. Ltd.", "https://www.reuters.com/markets/companies/P99.SI/",
                "Singapore", trade)  # fmt: skip
    assert not weigh(wiki, abroad).joins


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("동양방직", "dongyang spinning", True),
     ("서해조선", "seohae shipbuilding", True),  # 조선: 造船, shipbuilding
     ("서해주조", "seohae distilling", True),  # 주조: 酒造, distilling
     ("서해조선", "seohae distilling", False),
     ("서해주조", "seohae shipbuilding", False)],
)  # fmt: skip
def test_korean_trade_words_hangul_writes_for_two_words_translate_as_either(
    written: str, latin: str, agree: bool
) -> None:
    """Hangul writes 造船 and 朝鮮 alike (조선), 酒造 and 鑄造 alike (주조), and 紡織 (방직) is spinning
    too: each translates as what its English name says, and as no other trade."""
    assert bool(glossary.translates(written, latin)) is agree


def test_terms_are_found_from_the_names_end_where_from_its_start_one_spans_two_words() -> None:
    """대국제강: from its start 국제 (international) takes the brand's last syllable and the trade's
    first; from its end 제강 (steelmaking) leaves the brand 대국, which reads daegug."""
    from exa_orch.workflows.entities.name_segments import segments, segments_from_end

    assert [s.text for s in segments("대국제강")] == ["대", "국제", "강"]
    assert [s.text for s in segments_from_end("대국제강")] == ["대국", "제강"]
    assert glossary.translates("대국제강", "daegug steel")
    assert glossary.translates("대국제강", "daegug international") is None
    assert "t:daegug steel" in set(glossary.keys("대국제강"))


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("陕西青峰焦化股份有限公司", "Shanxi Coking Co Ltd", False),  # Shanxi is 山西's spelling
        ("陕西青峰焦化股份有限公司", "Shaanxi Qingfeng Coking Co Ltd", True),
        ("山西青峰焦化股份有限公司", "Shanxi Qingfeng Coking Co Ltd", True),
        ("重庆青峰焦化股份有限公司", "Chongqing Qingfeng Coking Co Ltd", True),  # its term, not its reading
    ],
)
def test_a_province_is_spelled_not_heard(written: str, latin: str, agrees: bool) -> None:
    """陕西 is spelled Shaanxi, apart from 山西's Shanxi, never heard alike; 重庆, which anyascii reads
    zhongqing, is spelled Chongqing by its term."""
    said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
    assert bool(said) is agrees, said


def test_a_chinese_groups_listed_arm_and_its_parent_on_two_sites_stay_two() -> None:
    """岳峰汽车集团股份有限公司 (joint-stock, the listed arm) and 岳峰汽车集团有限公司 (limited, its parent),
    each on its own site in one country and one trade: one name, two legal forms, two companies."""
    parent = co("p", "岳峰汽车集团有限公司", "https://www.yfmc.com.cn/", "Wuhan, China", "automotive")
    listed = co("l", "岳峰汽车集团股份有限公司", "https://www.yfmg.com.cn/", "Wuhan, China", "automotive")
    assert entities.resolve([parent, listed]).groups == [[0], [1]]
    assert "different legal forms" in str(weigh(parent, listed))


def test_a_word_that_spells_letters_out_is_those_letters_not_a_word_near_them() -> None:
    """এসটিএফ reads "estieph", the letters S, T and F by their names: STF (or a name spelling them,
    "Estieph"), not Store, whose sounds are a consonant from theirs."""
    written = "এসটিএফ ফার্মাসিউটিক্যালস"
    for latin, agrees in (("STF Pharmaceuticals", True), ("Store Pharmaceuticals", False)):
        said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is agrees, (latin, said)


def test_a_chinese_short_name_of_each_words_first_character_is_the_groups() -> None:
    """岳钢集团 is 岳阳钢铁集团's short name (岳阳 and 钢铁, each word's first character, and the group);
    not the listed arm's, which says no group (岳阳钢铁), nor a name whose words begin otherwise."""
    from exa_orch.workflows.entities.short_names import one_name, short_keys

    assert one_name("岳钢集团", "岳阳钢铁集团有限公司")
    assert one_name("岳钢集团", "岳阳钢铁(集团)股份有限公司")  # its group bracketed, as legal names write it
    assert one_name("岳钢集团", "岳阳钢铁股份有限公司") is None
    assert one_name("岳阳", "岳阳钢铁") is None
    assert short_keys("岳钢集团") & short_keys("岳阳钢铁集团有限公司")
    short = co("s", "岳钢集团", "https://baike.baidu.com/item/岳钢集团", "Yueyang, China", "steel")
    whole = co("w", "岳阳钢铁集团", "https://zh.wikipedia.org/wiki/岳阳钢铁集团", "Yueyang, China", "steel")
    assert entities.resolve([short, whole]).groups == [[0, 1]]


def test_letters_a_japanese_name_spells_out_in_katakana_read_as_the_letters() -> None:
    """ピー・ケー・ジェイ is PKJ, and ジェイアール in ジェイアール北方 JR; a loanword against them
    (ティーガイア, ドクターシーラボ) and one letter's name alone (シー, sea) are words."""
    from exa_orch.workflows.entities.names import fold

    assert clean_name("株式会社ピー・ケー・ジェイ") == "pkj"
    assert fold("ジェイアール北方").split()[0] == "jr"
    assert "t" not in fold("ティーガイア").split() and fold("シー").strip() == "shi"
    pkj = co(
        "a", "株式会社ピー・ケー・ジェイ", "https://www.pkj-net.co.jp/company/", "Osaka, Japan", "machinery"
    )
    latin = co(
        "b", "PKJ Co., Ltd.", "https://www.pkj-net.co.jp/english/company/", "Osaka, Japan", "machinery"
    )
    assert entities.resolve([pkj, latin]).groups == [[0, 1]]


def test_an_arabic_name_every_word_of_which_is_heard_needs_no_company_in_the_latin_one() -> None:
    """شركة أسمنت دمنهور: "company", then two words heard by their consonants, five in all, as the
    Latin name's two (Damanhour Cement): no term of a trade or a place many companies share, so the
    Latin name need not say "Company"; another town's cement is another company."""
    written = "شركة أسمنت دمنهور"
    for latin, agrees in (("Damanhour Cement", True), ("Damietta Cement", False)):
        said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is agrees, (latin, said)


@pytest.mark.parametrize(
    ("latin", "agrees"),
    [
        ("mitsui electric industries", True),
        (
            "mitsui electric",
            True,
        ),  # 工業 left out after the trade it says, as 古河電気工業 / Furukawa Electric
        ("mitsui", False),  # a group's name alone, no trade it writes: 三菱電機 is not Mitsubishi
        ("mitsui industries", False),
    ],
)
def test_industries_may_be_left_out_after_another_trade_the_latin_name_says(latin: str, agrees: bool) -> None:
    said = glossary.translates("三井電気工業", latin)
    assert bool(said) is agrees, said


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("송림인삼공사", "songrim ginseng", True),  # 인삼, ginseng
        ("송림화학", "songrim chem", True),  # 화학, chemical, as LG Chem writes it
        ("松浦製菓", "matsuura confectionery", True),  # 製菓, confectionery
        ("云岭茶业", "yunling tea", True),
        ("송림인삼공사", "songrim bank", False),
    ],
)
def test_trades_of_confectioners_chemists_ginseng_and_tea_translate(
    written: str, latin: str, agrees: bool
) -> None:
    assert bool(glossary.translates(written, latin)) is agrees


def test_a_brand_between_the_latin_names_first_word_and_its_trade_is_another_companys() -> None:
    """云岭陈记茶业 reads yunling, then 陈记, then 茶业 (tea): "Yunling Tea" leaves 陈记 unsaid, another
    brand beside 云岭; 云岭茶业 is that name. Where the Latin name says a word no term writes
    ("Yunling Leaf Tea"), the run may say it, and the start agrees."""
    for written, latin, agrees in (
        ("云岭茶业有限公司", "Yunling Tea", True),
        ("云岭陈记茶业有限公司", "Yunling Tea", False),
        ("云岭陈记茶业有限公司", "Yunling Leaf Tea", True),
    ):
        said = glossary.agrees(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is agrees, (latin, said)


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("مكتبة زهران", "Zahran Bookstore", True),  # مكتبة, bookstore
        ("مكتبة زهران", "Zahran Hotels", False),
        ("البحر الأحمر للتجزئة", "Red Sea Retail", True),  # the sea, the red, for retail
        ("البحر الأحمر للتجزئة", "Red Sea Hotels", False),
        ("Вольский патронный завод", "Volsk Cartridge Works", True),  # a soft sign (ь) is no consonant
        ("Вольский патронный завод", "Volsk Glass Works", False),
        ("Локомотивы России", "Russian Locomotives", True),  # "of Russia" as English says it
    ],
)
def test_words_of_gulf_retailers_and_russian_plants_translate(written: str, latin: str, agree: bool) -> None:
    """Gulf listed companies' trades (مكتبة, bookstore; للتجزئة, retail) and Russian plants' (патронный,
    cartridge; локомотивы, locomotives) translate; a place adjective written with a soft sign is heard
    by its consonants (Вольский, "volskii": Volsk); another trade does not agree."""
    assert bool(heard_words.translate(written, clean_name(latin), says_company=True)) is agree


@pytest.mark.parametrize(
    ("latin", "agree"),
    [("Kavya Steels", True),
     ("Kave Steels", False)],  # the य after a consonant is written: a letter more than "Kave"
)  # fmt: skip
def test_a_consonant_s_y_a_devanagari_word_ends_with_is_a_letter_the_latin_name_must_write(
    latin: str, agree: bool
) -> None:
    """काव्य स्टील्स reads kavya stils; its sounds without vowels and y ("kv") are Kave's too, but an
    abugida writes the y after a consonant as a letter (्य), which "Kave" does not."""
    written = "काव्य स्टील्स"
    assert bool(reading_agrees(written, clean_name(written), latin, clean_name(latin))) is agree


def test_a_brands_site_joins_its_legal_name_that_opens_with_its_province() -> None:
    # the legal name in characters: province, brand, trade and form; the brand's own site beside it
    foshan, tiles, beijing, medicine = "Foshan, China", "Ceramic tiles", "Beijing, China", "Medicine"
    legal_name = "广东欧铂雅陶瓷有限公司"
    own = co("a", "欧铂雅", "https://www.oubaya.cn/", foshan, tiles)
    legal = co("b", legal_name, f"https://baike.baidu.com/item/{legal_name}", foshan, tiles)
    assert weigh(own, legal).joins
    # a listing's short name is not the company whose site gives a longer legal name of the brand
    listing = co("c", "云鹤堂", "https://quote.eastmoney.com/sh600999.html", beijing, medicine)
    other = co("d", "北京云鹤堂科技发展股份有限公司", "https://www.yunhetangkj.com/", beijing, medicine)
    assert not weigh(listing, other).joins


def test_latin_letters_beside_characters_are_spelled_not_heard() -> None:
    def agrees(written: str, latin: str) -> str | None:
        return glossary.agrees(written, clean_name(written), latin, clean_name(latin))

    # a joint venture's name: the brand in characters, its partner's in Latin letters
    assert agrees("云帆Dacora", "Yunfan Motor Corporation") is None
    assert agrees("云帆Dacora", "Yunfan Delta Automobile") is None
    assert agrees("云帆Dacora", "Yunfan Dacora")
    # the Latin name's own brand between the reading and the trade, which the characters leave out
    assert agrees("云帆汽车", "Yunfan Dacora Automobile") is None
    assert agrees("云帆汽车", "Yunfan Automobile")


def test_an_arabic_name_translates_without_the_english_for() -> None:
    assert heard_words.translate("بنك الإسكان للاستثمار", "housing bank for investment")
    assert heard_words.translate("بنك الإسكان للاستثمار", "housing bank for trade") is None


def test_cyrillic_words_of_metal_and_of_eurasia_translate() -> None:
    assert heard_words.translate("Алюминий Тургая", "turgai aluminium")
    assert heard_words.translate("Евразийская медная компания", "eurasian copper company")
    assert heard_words.translate(
        "Велорский вертолётный завод", "velorsk helicopter plant"
    )  # a helicopter plant


def test_pinyin_of_other_characters_is_not_heard_in_a_reading() -> None:
    """A Latin name in pinyin meets characters as their reading spells it: its h's and y's falling
    silent, "hengyonghe" is heard at the start of 云海中烟's "yunhaizhongyan", and a run, 永康, heard as
    "hongyunheng"; neither is the company's name."""

    def agrees(written: str, latin: str) -> str | None:
        return glossary.agrees(written, clean_name(written), latin, clean_name(latin))

    assert agrees("云海中烟", "Hengyonghe Tobacco") is None
    assert agrees("永康重工", "Hongyunheng Heavy Industries") is None
    assert agrees("云海中烟", "Yunhai Tobacco")  # its reading, as written
    assert agrees("永康重工", "Yongkang Heavy Industries")


def test_a_terms_english_plural_and_a_stock_company_sign_are_read() -> None:
    """공항 renders "airport", which an English name writes in the plural (Daegu Airports); ㈜ and ㈱,
    the one-character "(주)" and "(株)", are legal forms as those are."""
    from exa_orch.workflows.entities.script_forms import CJK_FORMS

    assert glossary.translates("대구공항공사", "daegu airports")
    assert not glossary.translates("대구공항공사", "daegu ports")
    assert CJK_FORMS.sub(" ", "㈜한화").strip() == "한화"
    assert CJK_FORMS.sub(" ", "㈱ダイセル").strip() == "ダイセル"


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [
        ("坦桑尼亚水泥", "Tanzania Cement", True),  # a country's name in characters (cjk_countries.py)
        ("坦桑尼亚水泥", "Kenya Cement", False),
        ("挪威银行", "Norwegian Bank", True),
        ("挪威银行", "Bank of Sweden", False),
    ],
)
def test_a_countrys_name_in_characters_is_its_english_name(written: str, latin: str, agree: bool) -> None:
    assert bool(glossary.agrees(written, clean_name(written), latin, clean_name(latin))) is agree
