"""A listed company's quote pages on several sites, read as one market and one code (listings.py)."""

from __future__ import annotations

import pytest

from exa_orch.workflows.entities import resolve
from exa_orch.workflows.entities.listings import listing, named
from exa_orch.workflows.entities.names import clean_name
from exa_orch.workflows.entities.sites import page_site
from tests.workflows.entity_items import co, weigh


@pytest.mark.parametrize(
    ("url", "said"),
    [("https://www.bloomberg.com/quote/8123:HK", "hk:8123"),
     ("http://www.aastocks.com/tc/stocks/quote/detail-quote.aspx?symbol=08123", "hk:8123"),
     ("https://www.hkex.com.hk/Market-Data/Securities-Prices/Equities/Equities-Quote?sym=8123&sc_lang=en", "hk:8123"),
     ("https://www.reuters.com/markets/companies/8123.HK/", "hk:8123"),
     ("https://tw.stock.yahoo.com/quote/4567.TW/profile", "tw:4567"),
     ("https://www.bloomberg.com/profile/company/4567:TT", "tw:4567"),
     ("https://www.set.or.th/th/market/product/stock/quote/QRST/factsheet", "th:qrst"),
     ("https://www.bloomberg.com/profile/company/QRST:TB", "th:qrst"),
     ("https://finance.naver.com/item/main.naver?code=004567", "kr:4567"),
     ("https://kabutan.jp/stock/?code=4567", "jp:4567"),
     ("https://www.reuters.com/markets/companies/4567.T", "jp:4567"),
     ("https://www.cse.lk/pages/company-profile/company-profile.component.html?symbol=QRST.N0000", "lk:qrst"),
     ("https://www.bloomberg.com/quote/QRST:SL", "lk:qrst"),
     ("https://cafef.vn/du-lieu/hose/qrst-cong-ty-co-phan-qrst.chn", "vn:qrst"),
     ("https://www.bloomberg.com/quote/QRST:VN", "vn:qrst"),
     ("https://www.bloomberg.com/quote/QRST*:MM", "mx:qrst"),  # Bloomberg's MM is Mexico's
     ("https://www.reuters.com/markets/companies/QRST.MX", "mx:qrst"),
     ("https://www.reuters.com/markets/companies/600999.SS/", "cn:600999"),  # Shanghai's after a dot
     ("https://www.sse.com.cn/assortment/stock/list/info/company/index.shtml?COMPANY_CODE=600999", "cn:600999"),
     ("https://www.cninfo.com.cn/new/disclosure/stock?stockCode=000999&orgId=gssz0000999", "cn:999"),
     ("https://quote.eastmoney.com/sz000999.html", "cn:999"),
     ("https://www.szse.cn/certificate/individual/index.html?code=000999", "cn:999"),  # Shenzhen's
     ("https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_CorpInfo/stockid/000999.phtml", "cn:999"),
     ("https://finance.sina.com.cn/realstock/company/sh600999/nc.shtml", "cn:600999"),
     ("https://www.bloomberg.com/profile/company/QRST:SS", "se:qrst"),  # Stockholm's after a colon
     ("https://www.bloomberg.com/quote/QRST:DH", ""),  # Dubai's on Bloomberg, Dhaka's on Reuters
     ("https://www.bloomberg.com/quote/QRST:XX", ""),  # a market the table does not know
     ("https://www.bloomberg.com/news/articles/2024-01-01/qrst", ""),  # an article, no quote
     ("https://www.qrst.com/investors", "")],
)  # fmt: skip
def test_a_quote_page_names_its_market_and_code(url: str, said: str) -> None:
    assert listing(page_site(url, "Qrst")) == said


def test_two_quote_pages_of_one_listing_are_one_company_and_two_codes_two() -> None:
    hk = co(
        "a",
        "宏昌控股",
        "http://www.aastocks.com/tc/stocks/quote/detail-quote.aspx?symbol=08123",
        "Hong Kong",
        "",
    )
    same = co("b", "Wang Cheong Holdings", "https://www.bloomberg.com/quote/8123:HK", "Hong Kong", "")
    other = co("c", "Wang Cheong Shipping", "https://www.bloomberg.com/quote/8124:HK", "Hong Kong", "")
    assert weigh(hk, same).joins
    assert not weigh(hk, other).joins


@pytest.mark.parametrize(
    "listed",
    ["Quorlan Mining Limited Ordinary Shares", "Quorlan Mining Ltd. ADR", "Quorlan Mining Corp. Class A",
     "Quorlan Mining Inc. Common Stock (QRLN)", "Quorlan Mining S.A. PN", "Quorlan Mining ON NM"],  # Brazil's
)  # fmt: skip
def test_the_shares_a_quote_page_names_after_the_company_are_no_part_of_its_name(listed: str) -> None:
    assert clean_name(listed) == "quorlan mining"


def test_a_japanese_trade_word_in_katakana_translates_as_other_trades_do() -> None:
    from exa_orch.workflows.entities.glossary import agrees

    written = "栗林ゴム工業"
    for latin, alike in (("Kuribayashi Rubber Industries", True), ("Kuribayashi Steel Industries", False)):
        said = agrees(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is alike, latin


def test_an_urdu_name_written_as_the_english_one_sounds_without_its_legal_form() -> None:
    from exa_orch.workflows.entities.glossary import agrees

    written = "زرناب ٹریکٹرز لمیٹڈ"  # Zarnab Tractors Limited, "limited" written in Urdu letters
    for latin, alike in (("Zarnab Tractors Limited", True), ("Dorval Tractors Limited", False)):
        said = agrees(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is alike, latin


def test_a_limited_company_and_a_plc_of_one_name_are_one_company_re_registered() -> None:
    def korvanta(id: str, name: str, url: str) -> dict:
        return co(id, name, url, "Dhaka, Bangladesh", "Pharmaceuticals")

    limited = korvanta("a", "Korvanta Limited", "https://www.korvanta.com.bd/")
    for name, alike in (("Korvanta PLC", True), ("Korvanta GmbH", False)):
        other = korvanta("b", name, "https://www.dsebd.org/displayCompany.php?name=KORVANTA")
        apart = any("legal forms" in r for r in weigh(limited, other).against)
        assert apart is not alike, name


@pytest.mark.parametrize(
    ("brand", "listed", "joins"),
    [("Velkaran", "Velkaran Otomotiv Sanayii ve Ticaret AS", True),
     ("Velkaran", "Velkaran Otomotiv Sanayi ve Ticaret A.S.", True),
     ("Velkaran Elektrik", "Velkaran Elektrik Uretim Madencilik Sanayi ve Ticaret AS", True),
     # four words of its own besides the trade's: another company of the name, as elsewhere
     ("Velkaran", "Velkaran Otomotiv Yedek Parca Lastik Sanayi ve Ticaret AS", False)],
)  # fmt: skip
def test_a_turkish_legal_name_adds_industry_and_trade_to_the_brand(
    brand: str, listed: str, joins: bool
) -> None:
    site = co("a", brand, "https://www.velkaran.com.tr/", "Bursa, Turkey", "Commercial vehicles")
    quote = co("b", listed, "https://www.bloomberg.com/quote/OTMV:TI", "Turkey", "Commercial vehicles")
    assert weigh(site, quote).joins is joins


@pytest.mark.parametrize(
    "url",
    ["https://gse.com.gh/listed-company/velkaran-bank-ghana-plc/",
     "https://www.bolsadesantiago.com/resumen_instrumento/VELKARAN",
     "https://www.stockex.co.tt/manage-stock/vlk/",
     "https://statusinvest.com.br/acoes/vlkr3"],
)  # fmt: skip
def test_an_exchange_page_of_a_listed_company_is_no_site_of_its_own(url: str) -> None:
    found = page_site(url, "Velkaran Bank (Ghana) Plc")
    assert found is not None and found.platform and found.profile is None


@pytest.mark.parametrize(
    ("listed", "joins"),
    [("韦宁堂股份", True),  # a listing's short name, or the form's 股份 (limited) added: one company
     ("韦宁堂科技发展股份有限公司", False)],  # a legal name whole adding a trade: another of the group
)  # fmt: skip
def test_a_legal_name_whole_is_no_short_name_a_longer_one_leads(listed: str, joins: bool) -> None:
    quote = co(
        "a", "韦宁堂股份有限公司", "https://quote.eastmoney.com/sh600999.html", "Beijing, China", "Medicine"
    )
    site = co("b", listed, "https://www.weiningtangkj.com/", "Beijing, China", "Medicine")
    assert weigh(quote, site).joins is joins


@pytest.mark.parametrize(
    ("quote", "joins"),
    [("https://www.bloomberg.com/profile/company/VEL:PM", True),  # the label opens with the ticker
     ("https://www.reuters.com/markets/companies/VLMR.PS/", True),  # the label's letters, in order
     ("https://www.bloomberg.com/profile/company/MRVL:PM", False),  # another company's
     ("https://www.bloomberg.com/profile/company/VE:PM", False)],  # two letters open many labels
)  # fmt: skip
def test_a_quote_page_whose_ticker_abbreviates_the_site_s_label_is_the_site_s_company(
    quote: str, joins: bool
) -> None:
    site = co("a", "Velmora Air", "https://www.velmoraair.com/", "Manila, Philippines", "Airlines")
    listed = co("b", "Velmora Aviation Inc", quote, "Philippines", "Airlines")
    assert weigh(site, listed).joins is joins


@pytest.mark.parametrize(("ticker", "joins"), [("QRVT", True), ("QTRV", False), ("QRV", False)])
def test_a_listing_page_named_by_its_ticker_alone_is_the_company_the_ticker_abbreviates(
    ticker: str, joins: bool
) -> None:
    site = co("a", "Qorvast Bank", "https://www.qorvast.co.id/", "Jakarta, Indonesia", "Commercial banking")
    url = f"https://www.idx.co.id/en/listed-companies/company-profiles/{ticker}"
    listed = co("b", ticker, url, "Jakarta, Indonesia", "Commercial banking")
    assert weigh(site, listed).joins is joins


def test_a_profile_named_by_the_initials_its_path_spells_is_no_listing_s_ticker() -> None:
    """ "QICT" at linkedin.com/company/qimara-international-container-terminals is the short name of the
    company its path spells, not a ticker abbreviating "Qimara Container & Cargo Handling"."""
    site = co("a", "Qimara Container & Cargo Handling Co.", "https://www.qimaracont.com/",
              "Alexandria, Egypt", "Container terminal operation")  # fmt: skip
    url = "https://www.linkedin.com/company/qimara-international-container-terminals/"
    profile = co("b", "QICT", url, "Alexandria, Egypt", "Container terminal operation")
    assert not weigh(site, profile).joins


def test_a_listing_page_named_by_its_ticker_alone_is_found_beside_its_site() -> None:
    """The ticker's page shares no key of a name with the site ("QRVT" / Qorvast Bank): resolution
    pairs it with each site whose label opens with its letter, and joins the one it abbreviates."""
    site = co("a", "Qorvast Bank", "https://www.qorvast.co.id/", "Jakarta, Indonesia", "Commercial banking")
    url = "https://www.idx.co.id/en/listed-companies/company-profiles/QRVT"
    listed = co("b", "QRVT", url, "Jakarta, Indonesia", "Commercial banking")
    other = co("c", "Quelvara Foods", "https://www.quelvara.co.id/", "Jakarta, Indonesia", "Food")
    assert sorted(resolve([site, listed, other]).groups) == [[0, 1], [2]]

    # and a quote page named otherwise, whose ticker of letters opens the site's label
    site = co("a", "QRBank", "https://www.qrbank.com.vn/", "Hanoi, Vietnam", "Commercial banking")
    url = "https://www.bloomberg.com/profile/company/QRB:VN"
    quote = co("b", "Quoc Rong Commercial JSC", url, "Hanoi, Vietnam", "Commercial banking")
    other = co("c", "Quelvara Foods", "https://www.quelvara.com.vn/", "Hanoi, Vietnam", "Food")
    assert sorted(resolve([site, quote, other]).groups) == [[0, 1], [2]]


def test_bank_before_a_bank_s_name_says_what_kind_of_body_it_is() -> None:
    """As Banco and Banque do: "PT Bank Qelv Tbk" is Qelv's article, the short name its site's."""
    site = co("a", "Qelv", "https://www.qelv.com/id", "Jakarta, Indonesia", "Digital banking")
    page = co(
        "b",
        "PT Bank Qelv Tbk",
        "https://id.wikipedia.org/wiki/Bank_Qelv",
        "Jakarta, Indonesia",
        "Digital banking",
    )
    assert weigh(site, page).joins


@pytest.mark.parametrize(
    ("url", "joins"),
    [("http://www.aastocks.com/en/stocks/quote/detail-quote.aspx?symbol=01999", False),  # another listing
     ("https://www.bloomberg.com/quote/600999:CH", True)],  # the same one
)  # fmt: skip
def test_two_listings_join_only_on_names_that_agree_whole(url: str, joins: bool) -> None:
    """韦宁堂 reads weiningtang, the start of WEINING TANG TECH alone: on another listing, another
    company of the name (a group's listed unit); on the same listing, the same company."""
    a_share = co("a", "韦宁堂", "https://quote.eastmoney.com/sh600999.html", "Beijing, China", "Medicine")
    other = co("b", "WEINING TANG TECH", url, "Beijing, China", "Medicine")
    assert weigh(a_share, other).joins is joins


@pytest.mark.parametrize(
    ("text", "said"),
    [("澄岚药业集团有限公司（2391.HK）是一家制药企业。", {"hk:2391"}),
     ("A股和H股分别在深交所（000731）和香港联交所（02391）上市。", {"cn:731", "hk:2391"}),
     ("公司于深圳证券交易所上市（002731）。", {"cn:2731"}),
     ("Dorvanta Holdings plc (LSE: DRVH, HKEX: 2391)", {"gb:drvh", "hk:2391"}),
     ("Dorvanta Petrochemical (DRVP.KW) makes polypropylene.", {"kw:drvp"}),
     ("Dorvanta A.S. and Dorvanta S.A. are unrelated.", set()),  # legal forms, no ticker
     ("Dorvanta was founded in 1985 (1985) and employs 2391 people.", set()),  # no exchange named
     ("Dorvanta Retail (NSE: DRVR)", set())],  # NSE is India's and Nairobi's
)  # fmt: skip
def test_a_page_s_own_words_name_its_listing(text: str, said: set[str]) -> None:
    assert named([text]) == said


@pytest.mark.parametrize(
    ("desc", "joins"),
    [("澄岚药业集团有限公司（2391.HK）是一家以创新药为主的制药企业。", True),
     ("澄岚药业集团有限公司（2392.HK）是一家以创新药为主的制药企业。", False),  # another listing
     ("澄岚药业集团有限公司是一家以创新药为主的制药企业。", False)],  # none named
)  # fmt: skip
def test_a_company_s_page_naming_its_ticker_is_that_ticker_s_quote_page(desc: str, joins: bool) -> None:
    """The names share nothing a reader of them could tell (澄岚 / DORVANTA PHARMA): the site's own
    words name the listing the quote page is of, and resolution finds the pair by that listing."""
    site = co(
        "a",
        "澄岚药业集团有限公司",
        "https://www.chenglan-pharma.com/",
        "Hebei, China",
        "Pharmaceuticals",
        desc,
    )
    url = "https://www.aastocks.com/en/stocks/quote/detail-quote.aspx?symbol=02391"
    quote = co("b", "DORVANTA PHARMA", url, "Hebei, China", "", "DORVANTA PHARMA (02391.HK) real-time quote.")
    assert weigh(site, quote).joins is joins
    assert (len(resolve([site, quote]).groups) == 1) is joins


def test_mubasher_s_gulf_markets_are_read_with_their_own_codes() -> None:
    """One Kuwaiti stock at Mubasher and at Reuters is one listing; Mubasher's Egyptian one another."""
    kw = listing(page_site("https://www.mubasher.info/markets/KSE/stocks/QRST", "Qrst"))
    assert kw == listing(page_site("https://www.reuters.com/markets/companies/QRST.KW/", "Qrst")) == "kw:qrst"
    assert listing(page_site("https://www.mubasher.info/markets/EGX/stocks/QRST", "Qrst")) == "eg:qrst"
    assert listing(page_site("https://www.mubasher.info/markets/TDWL/stocks/4001", "Qrst")) == "sa:4001"


@pytest.mark.parametrize(
    ("own", "text", "said"),
    [("湖南韦宁钢铁股份有限公司", "韦宁钢铁（000999）旗下拥有三家钢厂。", {"cn:999"}),  # its province left out
     ("南方韦网储能股份有限公司", "南网储能(600999)是一家储能企业。", {"cn:600999"}),  # in order from its first
     ("大唐韦宁电力股份有限公司", "公司简称韦宁电力(600999)。", set()),  # a run longer than the name
     ("华宁电力股份有限公司", "上市公司国宁电力(600999)。", set()),  # another's name ends as it does
     ("中国韦宁集团有限公司", "集团旗下上市公司中国韦宁(600999)。", set()),  # the group's listed unit
     ("中国石油化工股份有限公司", "中石油(601999)", set()),  # three characters in order: PetroChina's
     ("韦宁钢铁股份有限公司", "韦宁钢铁(000999)，其子公司韦宁钢铁(000998)", set()),  # two: which?
     ("한국韦宁철강", "한국韦宁철강(104999)", {"kr:104999"})],  # Hangul's codes are Korea's
)  # fmt: skip
def test_a_short_name_before_a_bracketed_code_names_the_page_s_own_listing(
    own: str, text: str, said: set[str]
) -> None:
    assert named([text], own) == said


def test_a_chinese_company_s_site_citing_its_short_name_and_code_is_its_quote_page() -> None:
    site = co("a", "湖南韦宁钢铁股份有限公司", "https://www.weining-steel.cn/", "Changsha, Hunan, China", "Steel",
              "韦宁钢铁（000999）旗下拥有三家钢厂。")  # fmt: skip
    quote = co(
        "b", "韦宁钢铁", "https://quote.eastmoney.com/sz000999.html", "Changsha, Hunan, China", "Steel"
    )
    other = co(
        "c", "韦宁特钢", "https://quote.eastmoney.com/sz000998.html", "Changsha, Hunan, China", "Steel"
    )
    assert weigh(site, quote).joins
    assert not weigh(site, other).joins
    assert len(resolve([site, quote, other]).groups) == 2


@pytest.mark.parametrize(
    ("site", "joins"), [("https://www.t-kurobane.co.jp/", True), ("https://www.s-kurobane.co.jp/", False)]
)
def test_a_quote_page_named_as_the_site_s_hyphenated_label_is_the_site_s_company(
    site: str, joins: bool
) -> None:
    """ "T Kurobane Co Ltd" is t-kurobane.co.jp's label run together: the company whose home page is
    in Japanese (黒羽香料), which shares no letter with it."""
    trade = "Flavors and fragrances"
    own = co("a", "黒羽香料", site, "Tokyo, Japan", trade)
    quote = co("b", "T Kurobane Co Ltd", "https://www.bloomberg.com/quote/4999:JP", "Tokyo, Japan", trade)
    assert weigh(own, quote).joins is joins


def test_a_company_s_own_site_and_its_page_on_an_exchange_under_one_name_join() -> None:
    """Shenzhen's and Mongolia's exchanges serve a page per listed company: a profile, never the
    company's site, so the page under the site's name joins it as a profile page does."""
    own = co("a", "鑫源酒业", "https://www.xyjiuye.com.cn/", "Xining, China", "Baijiu")
    listed = co("b", "鑫源酒业", "https://www.szse.cn/certificate/individual/index.html?code=009123",
                "Xining, China", "Baijiu")  # fmt: skip
    assert weigh(own, listed).joins
    mine = co("c", "Хөвсгөл Уул ХК", "https://www.khovsgoluul.mn/", "Ulaanbaatar, Mongolia", "Coal mining")
    page = co("d", "Хөвсгөл Уул ХК", "https://mse.mn/mn/company/987", "Ulaanbaatar, Mongolia", "Coal mining")
    assert weigh(mine, page).joins


def test_a_quote_page_giving_itself_another_short_name_is_not_the_site_its_ticker_opens() -> None:
    """A ticker opening a site's label joins the quote page to the site, unless the page names
    itself by another short name in brackets: another company of the market and the trade."""
    own = co("a", "Norcable", "https://www.norcable.no/", "Oslo, Norway", "Cables")
    other = co("b", "Nordic Intl Cables (NICAB)", "https://www.reuters.com/markets/companies/NORC.OL",
               "Oslo, Norway", "Cables")  # fmt: skip
    same = co("c", "Norcable ASA (NORC)", "https://www.reuters.com/markets/companies/NORC.OL/profile",
              "Oslo, Norway", "Cables")  # fmt: skip
    assert not weigh(own, other).joins
    assert weigh(own, same).joins


def test_a_listing_s_short_name_leaves_out_the_province_the_company_s_name_opens_with() -> None:
    """A Chinese listing's short name drops the province (河北蓝月酒业 is 蓝月酒业 on the exchange);
    two characters no place reads (中泰) are another company's name."""
    own = co(
        "a", "河北蓝月酒业股份有限公司", "https://www.hbly-wine.com.cn/", "Shijiazhuang, China", "Baijiu"
    )
    quote = co("b", "蓝月酒业", "https://quote.eastmoney.com/sz009876.html", "Shijiazhuang, China", "Baijiu")
    other = co("c", "中泰蓝月酒业", "https://www.zhongtai-lanyue.com.cn/", "Shijiazhuang, China", "Baijiu")
    assert resolve([own, quote]).groups == [[0, 1]]
    assert not weigh(other, quote).joins


def test_two_profiles_one_adding_a_word_of_its_kind_only_are_one_company() -> None:
    """Two editions' articles, "Hvalfjord Bank" and "Hvalfjord", of one country and trade: one
    bank; "Hvalfjord International" names another company of the name (an international arm)."""
    en = co(
        "a", "Hvalfjord Bank", "https://en.wikipedia.org/wiki/Hvalfjord_Bank", "Reykjavík, Iceland", "Banking"
    )
    local = co("b", "Hvalfjord", "https://is.wikipedia.org/wiki/Hvalfjord", "Reykjavík, Iceland", "Banking")
    group = co("c", "Hvalfjord International", "https://de.wikipedia.org/wiki/Hvalfjord_International", "Reykjavík, Iceland",
               "Banking")  # fmt: skip
    assert weigh(en, local).joins
    assert not weigh(group, local).joins


@pytest.mark.parametrize(
    ("name", "joins"),
    [("China Velkorin Solar", True), ("Velkorin Solar", True), ("China Velkorin Glass", False)],
)
def test_a_profile_whose_name_but_its_country_is_the_sites_label_is_the_sites_company(
    name: str, joins: bool
) -> None:
    # a site under a name in Chinese characters: the profile's name without "China" spells its label
    site = co("a", "维科林光能", "https://www.velkorinsolar.com/", "Guangzhou, China", "Solar glass")
    profile = co(
        "b", name, "https://www.bloomberg.com/profile/company/750:HK", "Hong Kong, China", "Solar glass"
    )
    assert weigh(site, profile).joins is joins


def test_a_guides_page_whose_path_names_the_site_is_its_producer() -> None:
    """A guide's page under a section ("/producers/paolo-di-scalvenzi") on a host of many producers
    that keeps no profile pattern is about the producer its path names (profiles.listing_slug),
    whatever shorter name it gives; a path naming another producer says nothing."""
    site = co("a", "Paolo Di Scalvenzi", "https://www.scalvenzivini.it/", "Marsala, Italy", "Wine")
    guide = co(
        "b",
        "Cantine Di Scalvenzi",
        "https://vinous.com/producers/paolo-di-scalvenzi",
        "Marsala, Italy",
        "Wine",
    )
    other = co(
        "c",
        "Cantine Di Scalvenzi",
        "https://vinous.com/producers/cantine-di-scalvenzi",
        "Marsala, Italy",
        "Wine",
    )
    assert weigh(site, guide).joins, weigh(site, guide).why_apart
    assert not weigh(site, other).joins


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://www.cnyes.com/twstock/6688", "tw:6688"),  # Anue's Taiwan stocks
        ("https://www.cnyes.com/twstock/profile/6688", "tw:6688"),
        ("https://www.ase.com.jo/en/company_historical/JVXX", "jo:jvxx"),  # Amman's exchange
        ("https://www.ase.com.jo/ar/company-profile/JVXX", "jo:jvxx"),
    ],
)
def test_more_market_sites_quote_a_listing(url: str, code: str) -> None:
    assert listing(page_site(url, "X")) == code


def test_two_market_sites_quoting_one_taiwan_listing_are_one_company() -> None:
    """A quote page's short name and the legal name another market site gives the same code."""
    at = "Hsinchu, Taiwan"
    yahoo = co("a", "晶鴻科", "https://tw.stock.yahoo.com/quote/6688.TW", at, "Semiconductors")
    anue = co("b", "台灣晶鴻科技股份有限公司", "https://www.cnyes.com/twstock/6688", at, "Semiconductors")
    assert weigh(yahoo, anue).joins
    assert page_site("https://www.cnyes.com/twstock/6688", "台灣晶鴻科技股份有限公司").platform


def test_a_japanese_market_sites_short_name_is_the_companys() -> None:
    """A Japanese market site names a company by its short name (略称): its name's first two
    characters and some of its others in order (緑川薬 of 緑川製薬, 北浜鋼 of 北浜製鋼所) or cut short
    (緑川ファ of 緑川ファーマ); beside the company's site in one country and trade, it is the company.
    Never a name that keeps other first characters (北川鋼 is not 北浜製鋼所's)."""
    from exa_orch.workflows.entities.short_names import abbreviated

    assert abbreviated("緑川薬", "緑川製薬")
    assert abbreviated("北浜鋼", "株式会社北浜製鋼所")
    assert abbreviated("緑川ファ", "緑川ファーマ")
    assert abbreviated("北川鋼", "北浜製鋼所") is None
    assert abbreviated("北浜線", "北浜製鋼所") is None  # a character the name does not write
    # its first word and the Latin initials of the katakana after it
    assert abbreviated("ミドリＭＪ", "ミドリマーケティングジャパン株式会社")
    assert abbreviated("ミドリＦＧ", "ミドリフィナンシャルグループ")
    assert abbreviated("ミドリＦＧ", "ミドリグループ") is None  # the group is not its financial arm
    at = "Osaka, Japan"
    site = co("a", "北浜製鋼所", "https://www.kitahama-steel.co.jp/", at, "Steel")
    quote = co("b", "北浜鋼", "https://kabutan.jp/stock/?code=5499", at, "Steel")
    news = co("c", "北浜鋼", "https://www.asahi.com/articles/ASR5499.html", at, "Steel")
    assert weigh(site, quote).joins
    assert not weigh(site, news).joins  # a news page's short name is no market site's


@pytest.mark.parametrize(
    ("url", "said"),
    [("https://ljse.si/en/papir/QRSG", "si:qrsg"),  # Ljubljana's exchange
     ("https://www.boursorama.com/cours/1rPQRST/", "fr:qrst"),  # Boursorama's Paris code
     ("https://mops.twse.com.tw/mops/web/t05st03?co_id=4567", "tw:4567"),  # Taiwan's disclosure site
     ("https://www.brvm.org/fr/cours-actions/0/QRSC", "brvm:qrsc")],
)  # fmt: skip
def test_an_exchange_or_disclosure_page_names_its_code_and_is_no_site_of_its_own(url: str, said: str) -> None:
    found = page_site(url, "Qrst")
    assert found is not None and found.platform and listing(found) == said


@pytest.mark.parametrize(
    ("listed", "joins"),
    [("QRVO B", True),  # Nasdaq Nordic's ticker and the class of its shares
     ("QRVO-A", True),  # Santiago's and Hong Kong's
     ("QRVO C", True),
     ("QRVO", True),
     ("ZRVO B", False)],  # another company's ticker
)  # fmt: skip
def test_a_ticker_with_its_share_class_names_the_company_it_abbreviates(listed: str, joins: bool) -> None:
    quote = co(
        "a", listed, "https://www.nasdaq.com/european-market-activity/shares/qrvo-b", "Sweden", "Seals"
    )
    site = co("b", "Qorrvoldt", "https://www.qorrvoldt.se/", "Malmo, Sweden", "Seals")
    assert weigh(quote, site).joins is joins


def test_a_listings_short_name_on_a_quote_page_is_the_legal_name_a_profile_gives() -> None:
    # Sina's quote page names no listing in its words: its URL is the listing
    quote = co(
        "a", "韦宁堂", "https://finance.sina.com.cn/realstock/company/sh600999/nc.shtml", "China", "Medicine"
    )
    legal = co(
        "b", "苏州韦宁堂医药股份有限公司", "https://zh.wikipedia.org/wiki/韦宁堂医药", "China", "Medicine"
    )
    other = co(
        "c", "苏州韦宁堂医药集团股份有限公司", "https://zh.wikipedia.org/wiki/韦宁堂集团", "China", "Medicine"
    )
    assert weigh(quote, legal).joins
    assert not weigh(quote, other).joins


@pytest.mark.parametrize(
    ("written", "clean"),
    [("Zorvak Tekstil San. ve Tic. A.Ş.", "zorvak tekstil sanayi ve ticaret"),  # Turkish trade words short
     ("Zorvak Tekstil San. Tic. Ltd. Şti.", "zorvak tekstil sanayi ve ticaret"),
     ("Plavaro Bank S.A.E.C.A.", "plavaro bank"),  # Paraguay's listed sociedad anónima
     ("VELTRANA, D. D., KAMNIK", "veltrana"),  # a register's seat after the legal form
     ("Veltrana, Kamnik", "veltrana kamnik"),  # no form: the words are the name's
     ("San Velmoro Corp", "san velmoro")],
)  # fmt: skip
def test_a_legal_names_short_trade_words_forms_and_seat_read_as_written_in_full(
    written: str, clean: str
) -> None:
    assert clean_name(written) == clean


def test_a_brand_and_its_turkish_legal_name_with_its_trade_words_short_are_one_company() -> None:
    site = co("a", "Zorvak", "https://www.zorvak.com.tr/", "Denizli, Turkey", "Construction")
    legal = co(
        "b",
        "Zorvak İnşaat Turizm San. ve Tic. A.Ş.",  # its trades, then industry and trade written short
        "https://www.linkedin.com/company/zorvak-insaat",
        "Denizli, Turkey",
        "Construction",
    )
    assert weigh(site, legal).joins


@pytest.mark.parametrize(
    ("short", "joins"),
    [("韦宁化", True),  # Taiwan's market sites shorten a name as Japan's do: its first two characters, then others
     ("韦宁钢", False)],  # a character the name does not write
)  # fmt: skip
def test_a_taiwanese_market_sites_short_name_is_the_companys(short: str, joins: bool) -> None:
    quote = co("a", short, "https://tw.stock.yahoo.com/quote/6599.TW", "Taiwan", "Oil refining")
    site = co("b", "韦宁石化", "https://www.weiningpc.com.tw/", "Kaohsiung, Taiwan", "Oil refining")
    assert weigh(quote, site).joins is joins


def test_the_code_a_korean_quote_page_writes_after_the_name_is_no_part_of_it() -> None:
    assert clean_name("한빛엔진 082799") == clean_name("한빛엔진")
    assert clean_name("Veltrana 1881") == "veltrana 1881"  # a year in a brand's name is the name's
