"""Hosts that serve many organisations or people: a page there is a profile, never the entity's site.

One table, `HOSTS`: each row names a registered domain or host, how a profile is keyed on it, and
where that keying was read from (the host's own URL scheme as it shows in its public pages). The
path's profile is identity (linkedin.com/company/klarna); the host itself never is, so two Google
Play apps or two Substack newsletters are two profiles.

Keys: "path" the first path segment, or the first two when the first is a kind word
(linkedin.com/in/NAME, crunchbase.com/organization/NAME),
"sub" the subdomain (NAME.substack.com, NAME.github.io), "query:K" a query parameter, or the first
of several that the URL has ("query:symbol|seccode"; play.google.com/store/apps/details?id=PACKAGE), "app" the numeric id of an App Store page,
"lang" the path under a language edition's subdomain (en.wikipedia.org/wiki/TITLE: the profile
keeps the edition, so two editions are two hosts and their titles are never "different profiles"),
"none" no profile at all (a news publisher: every article is about others),
"fixed" the segment after the scheme's own words only (reuters.com/markets/companies/TICKER): the
host's other pages (its news articles) are about many entities and name no profile, not one
profile "reuters.com/business" that every article would share. A TICKER placeholder says the
profile is a stock's ticker (profiles.py reads its letters).
"""

from __future__ import annotations

from typing import NamedTuple


class Host(NamedTuple):
    """A host shared by many entities: `key` says which part of a URL there names one of them."""

    name: str  # registered domain ("linkedin.com") or full host ("play.google.com")
    key: str  # "path", "path", "sub", "query:id", "app"
    source: str  # where the URL scheme was read


HOSTS: tuple[Host, ...] = (
    Host("linkedin.com", "path", "linkedin.com/in/NAME, linkedin.com/company/NAME"),
    Host("crunchbase.com", "path", "crunchbase.com/organization/NAME, /person/NAME"),
    Host("github.com", "path", "github.com/ORG"),
    Host("gitlab.com", "path", "gitlab.com/ORG"),
    Host("github.io", "sub", "docs.github.com/pages: USER.github.io"),
    Host("gitlab.io", "sub", "docs.gitlab.com/ee/user/project/pages: NAME.gitlab.io"),
    Host("twitter.com", "path", "twitter.com/HANDLE"),
    Host("x.com", "path", "x.com/HANDLE"),
    Host("facebook.com", "path", "facebook.com/PAGE"),
    Host("instagram.com", "path", "instagram.com/HANDLE"),
    Host("threads.net", "path", "threads.net/@HANDLE"),
    Host("tiktok.com", "path", "tiktok.com/@HANDLE"),
    Host("youtube.com", "path", "youtube.com/@HANDLE, youtube.com/channel/ID"),
    # one article per language edition, titled in its language (en: Jack_Ma, zh: 马云): "lang" keeps it
    Host("wikipedia.org", "lang", "LANG.wikipedia.org/wiki/TITLE"),
    Host("wikidata.org", "path", "wikidata.org/wiki/QID"),
    # Store norske leksikon (snl.no/TITLE) and its editions under a subdomain, Norsk biografisk
    # leksikon among them (nbl.snl.no/Wilhelm_Wilhelmsen_-_1839–1910): one article a subject
    Host("snl.no", "lang", "snl.no/TITLE, nbl.snl.no/TITLE"),
    # the Chinese and Korean encyclopedias a search returns beside Wikipedia's editions
    # Baidu Baike numbers each sense of a name several people or companies share (item/张勇/3328917,
    # item/张勇/7513567: two men): the number is part of the profile
    Host("baike.baidu.com", "fixed", "baike.baidu.com/item/NAME, baike.baidu.com/item/NAME/ID"),
    Host("namu.wiki", "fixed", "namu.wiki/w/NAME"),
    Host("medium.com", "path", "medium.com/@USER, medium.com/PUBLICATION"),
    Host("substack.com", "sub", "NAME.substack.com"),
    Host("notion.site", "sub", "NAME.notion.site"),
    Host("notion.so", "path", "notion.so/WORKSPACE"),
    Host("wordpress.com", "sub", "NAME.wordpress.com"),
    Host("blogspot.com", "sub", "NAME.blogspot.com"),
    Host("angel.co", "path", "angel.co/company/NAME"),
    Host("wellfound.com", "path", "wellfound.com/company/NAME"),
    Host("pitchbook.com", "path", "pitchbook.com/profiles/company/ID"),
    Host("producthunt.com", "path", "producthunt.com/products/NAME"),
    Host("ycombinator.com", "path", "ycombinator.com/companies/NAME"),
    Host("dealroom.co", "path", "app.dealroom.co/companies/NAME"),
    Host("tracxn.com", "path", "tracxn.com/d/companies/NAME"),
    Host("cbinsights.com", "path", "cbinsights.com/company/NAME"),
    Host("bloomberg.com", "fixed", "bloomberg.com/profile/company/TICKER, bloomberg.com/quote/TICKER"),
    Host("reuters.com", "fixed", "reuters.com/markets/companies/TICKER"),
    Host("finance.yahoo.com", "fixed", "finance.yahoo.com/quote/TICKER"),
    Host("nasdaq.com", "fixed", "nasdaq.com/market-activity/stocks/TICKER"),
    Host("marketwatch.com", "fixed", "marketwatch.com/investing/stock/TICKER"),
    Host("wsj.com", "fixed", "wsj.com/market-data/quotes/TICKER"),
    Host("cnbc.com", "fixed", "cnbc.com/quotes/TICKER"),
    Host("markets.ft.com", "query:s", "markets.ft.com/data/equities/tearsheet/summary?s=TICKER"),
    # stock exchanges' and market-data sites' pages of one listed company
    Host("asx.com.au", "fixed", "asx.com.au/markets/company/TICKER"),
    Host("nzx.com", "fixed", "nzx.com/instruments/TICKER"),
    Host("sgx.com", "fixed", "sgx.com/securities/equities/TICKER"),
    Host(
        "hkex.com.hk",
        "query:sym",
        "hkex.com.hk/Market-Data/Securities-Prices/Equities/Equities-Quote?sym=TICKER",
    ),
    Host("londonstockexchange.com", "fixed", "londonstockexchange.com/stock/TICKER/NAME/company-page"),
    Host("live.euronext.com", "fixed", "live.euronext.com/en/product/equities/ISIN"),
    Host("nyse.com", "fixed", "nyse.com/quote/TICKER"),
    Host("asia.nikkei.com", "fixed", "asia.nikkei.com/Companies/NAME"),
    Host("hkexnews.hk", "fixed", "hkexnews.hk/listedco/listconews/mainboard/TICKER"),
    Host(
        "bursamalaysia.com",
        "query:stock_code",
        "bursamalaysia.com/trade/trading_resources/listing_directory/company-profile?stock_code=TICKER",
    ),
    Host("nse.co.ke", "fixed", "nse.co.ke/listed-companies/NAME"),
    # the Gulf's exchanges, and Kazakhstan's
    Host(
        "adx.ae",
        "query:symbol|seccode",
        "adx.ae/english/Pages/ProductsandServices/securities/Company-Profile.aspx?symbol=TICKER, "
        "adx.ae/main-market/company-profile/overview?secCode=TICKER",
    ),
    Host("dfm.ae", "fixed", "dfm.ae/the-exchange/market-information/company/TICKER"),
    Host("qe.com.qa", "query:companycode", "qe.com.qa/web/guest/company-profile?CompanyCode=TICKER"),
    Host("boursakuwait.com.kw", "query:tkr", "boursakuwait.com.kw/en/securities/company-profile/?tkr=TICKER"),
    Host(
        "saudiexchange.sa",
        "query:companysymbol",
        "saudiexchange.sa/wps/portal/saudiexchange/hidden/company-profile-main/?companySymbol=TICKER",
    ),
    Host("kase.kz", "fixed", "kase.kz/en/issuers/TICKER, kase.kz/ru/issuers/TICKER"),
    # Ljubljana's exchange, the West African regional one (BRVM), Nepal's market-data site, Taiwan's
    # disclosure site (MOPS) and Boursorama's French quotes (its code: "1rP" and a Paris ticker)
    Host("ljse.si", "fixed", "ljse.si/en/papir/TICKER, ljse.si/sl/papir/TICKER"),
    Host("brvm.org", "fixed", "brvm.org/fr/cours-actions/0/TICKER, brvm.org/fr/societes-cotees/NAME"),
    Host("sharesansar.com", "fixed", "sharesansar.com/company/TICKER"),
    Host("mops.twse.com.tw", "query:co_id", "mops.twse.com.tw/mops/web/t05st03?co_id=CODE"),
    Host("boursorama.com", "fixed", "boursorama.com/cours/CODE"),
    # a business publisher's company pages (its articles name many), Russia's disclosure site and
    # Norway's company register
    Host("theedgemalaysia.com", "fixed", "theedgemalaysia.com/company/CODE"),
    Host("e-disclosure.ru", "query:id", "e-disclosure.ru/portal/company.aspx?id=ID"),
    Host("proff.no", "fixed", "proff.no/selskap/NAME/PLACE/TRADE"),
    # Shenzhen's exchange and Mongolia's: a listed company's page by its code
    Host("szse.cn", "query:code", "szse.cn/certificate/individual/index.html?code=TICKER"),
    Host("mse.mn", "fixed", "mse.mn/mn/company/ID"),
    # Moscow's, Muscat's, Athens', Dar es Salaam's, Kingston's exchanges; India's and Turkey's market-data sites
    Host("moex.com", "query:code", "moex.com/ru/issue.aspx?board=BOARD&code=TICKER"),
    Host("msx.om", "query:s", "msx.om/company-profile.aspx?s=TICKER"),
    Host(
        "athexgroup.gr",
        "fixed",
        "athexgroup.gr/el/market-data/-/company/TICKER, athexgroup.gr/en/market-data/-/company/TICKER",
    ),
    Host("dse.co.tz", "fixed", "dse.co.tz/listed/company/details/TICKER"),
    Host(
        "jamstockex.com", "query:instrument", "jamstockex.com/trading/instruments/?instrument=TICKER-CURRENCY"
    ),
    Host("screener.in", "fixed", "screener.in/company/TICKER"),
    Host(
        "isyatirim.com.tr",
        "query:hisse",
        "isyatirim.com.tr/tr-tr/analiz/hisse/Sayfalar/sirket-karti.aspx?hisse=TICKER",
    ),
    # Pakistan's, Israel's exchanges; China's and Taiwan's market-data sites
    Host("dps.psx.com.pk", "fixed", "dps.psx.com.pk/company/TICKER"),
    Host("market.tase.co.il", "fixed", "market.tase.co.il/en/market_data/company/ID"),
    Host("quote.eastmoney.com", "fixed", "quote.eastmoney.com/TICKER"),
    Host("finance.sina.com.cn", "fixed", "finance.sina.com.cn/realstock/company/TICKER"),
    Host("goodinfo.tw", "query:stock_id", "goodinfo.tw/tw/StockDetail.asp?STOCK_ID=TICKER"),
    # Korea's market-data sites: a listed company's page named by its six-digit code
    Host("finance.naver.com", "query:code", "finance.naver.com/item/main.naver?code=CODE"),
    Host("finance.daum.net", "fixed", "finance.daum.net/quotes/ACODE"),
    Host(
        "oslobors.no",
        "none",
        "oslobors.no/markedsaktivitet/#/details/TICKER/overview: the ticker in a fragment",
    ),
    # company registers: one registered company a page
    Host(
        "company-information.service.gov.uk",
        "fixed",
        "find-and-update.company-information.service.gov.uk/company/NUMBER",
    ),
    Host("opencorporates.com", "none", "opencorporates.com/companies/JURISDICTION/NUMBER: two segments"),
    # national registers' and credit bureaus' company pages, by number or by a slug with the number
    Host("finstat.sk", "none", "finstat.sk/NUMBER (Slovakia's IČO)"),
    Host("or.justice.cz", "none", "or.justice.cz/ias/ui/rejstrik-firma.vysledky?subjektId=N"),
    Host("racius.com", "none", "racius.com/NAME (Portugal)"),
    Host("pappers.fr", "none", "pappers.fr/entreprise/NAME-SIREN"),
    Host("societe.com", "none", "societe.com/societe/NAME-SIREN.html"),
    Host("einforma.com", "none", "einforma.com/informacion-empresa/NAME"),
    Host("rusprofile.ru", "none", "rusprofile.ru/id/N"),
    Host("dnb.com", "none", "dnb.com/business-directory/company-profiles.NAME.ID.html"),
    Host("zoominfo.com", "none", "zoominfo.com/c/NAME/ID"),
    # beer and wine guides: a page a brewery or a winery (or one of its drinks), never its site
    Host("untappd.com", "none", "untappd.com/BREWERY, untappd.com/w/NAME/ID, untappd.com/b/BEER/ID"),
    Host("ratebeer.com", "none", "ratebeer.com/brewers/NAME/ID"),
    Host("beeradvocate.com", "none", "beeradvocate.com/beer/profile/ID"),
    Host("vivino.com", "none", "vivino.com/wineries/NAME"),
    Host("wine-searcher.com", "none", "wine-searcher.com/merchant/producer/NAME"),
    Host("zaubacorp.com", "fixed", "zaubacorp.com/company/NAME"),
    Host("tofler.in", "path", "tofler.in/NAME/company/CIN"),
    Host("nseindia.com", "query:symbol", "nseindia.com/get-quotes/equity?symbol=TICKER"),
    Host("bseindia.com", "fixed", "bseindia.com/stock-share-price/NAME"),
    Host("set.or.th", "fixed", "set.or.th/en/market/product/stock/quote/TICKER"),
    Host("marketscreener.com", "fixed", "marketscreener.com/quote/stock/NAME"),
    Host("investing.com", "fixed", "investing.com/equities/NAME"),
    Host("tradingview.com", "fixed", "tradingview.com/symbols/TICKER"),
    Host("stockanalysis.com", "fixed", "stockanalysis.com/stocks/TICKER"),
    Host("companiesmarketcap.com", "path", "companiesmarketcap.com/NAME/marketcap"),
    # quote pages whose path puts a sector or an exchange before the company: no profile read
    Host("moneycontrol.com", "none", "moneycontrol.com/india/stockpricequote/SECTOR/NAME/CODE"),
    Host("morningstar.com", "none", "morningstar.com/stocks/EXCHANGE/TICKER/quote"),
    Host("argaam.com", "none", "argaam.com/en/company/companyoverview/marketid/N/companyid/N"),
    Host("forbes.com", "fixed", "forbes.com/profile/NAME"),
    Host(
        "britannica.com",
        "fixed",
        "britannica.com/biography/NAME, britannica.com/topic/NAME, britannica.com/money/NAME",
    ),
    Host("imdb.com", "fixed", "imdb.com/name/ID, imdb.com/title/ID"),
    Host("olympics.com", "fixed", "olympics.com/en/athletes/NAME"),
    Host("glassdoor.com", "path", "glassdoor.com/Overview/NAME"),
    Host("indeed.com", "path", "indeed.com/cmp/NAME"),
    Host("orcid.org", "path", "orcid.org/ID"),
    Host("researchgate.net", "path", "researchgate.net/profile/NAME"),
    Host("scholar.google.com", "query:user", "scholar.google.com/citations?user=ID"),
    Host("play.google.com", "query:id", "play.google.com/store/apps/details?id=PACKAGE"),
    Host("apps.apple.com", "app", "apps.apple.com/CC/app/NAME/idNUMBER"),
    Host("sites.google.com", "path", "sites.google.com/view/NAME"),
    Host("news.ycombinator.com", "query:id", "news.ycombinator.com/user?id=NAME"),
    # News publishers: each article is about many entities and names no profile ("none"); a page
    # there is never the site of the company it reports on (their own pages: each site's masthead).
    *(
        Host(name, "none", f"{name}: articles")
        for name in (
            "techcrunch.com",
            "bbc.com",
            "bbc.co.uk",
            "nytimes.com",
            "theguardian.com",
            "ft.com",
            "economist.com",
            "cnn.com",
            "apnews.com",
            "nikkei.com",
            "scmp.com",
            "indiatimes.com",
            "businessinsider.com",
            "theverge.com",
            "wired.com",
            "fortune.com",
            "elpais.com",
            "lemonde.fr",
            "lefigaro.fr",
            "spiegel.de",
            "faz.net",
            "handelsblatt.com",
            "corriere.it",
            "folha.uol.com.br",
            "venturebeat.com",
            "axios.com",
            # financial news with market data, a listed company's page among articles (ilboursa.com/
            # marches/cotation_UBCI, s.cafef.vn/hose/ctg-ngan-hang-....chn, finance.vietstock.vn/HDB-...)
            "ilboursa.com",
            "cafef.vn",
            "vietstock.vn",
        )
    ),
)
BY_NAME: dict[str, Host] = {h.name: h for h in HOSTS}
# Path words that say which kind of profile follows, not whose: skipped before the profile's segment.
KIND_WORDS = frozenset(
    "in company companies school pub organization person people wiki user users profile profiles "
    "showcase org p @ cmp overview view channel c products".split()
)


def _scheme_words(row: Host) -> list[list[str]]:
    """The fixed path words of each of the row's documented URL schemes (its `source`), in order:
    in "tracxn.com/d/companies/NAME" the words "d" and "companies"; a placeholder (NAME, TICKER,
    @HANDLE) is written in capitals and is whose profile it is."""
    return [
        [w.lower() for w in path.split("/") if w and not any(c.isupper() for c in w)]
        for scheme in row.source.split(",")
        for path in (scheme.strip().partition("/")[2].partition("?")[0],)
    ]


_SCHEMES: dict[str, list[list[str]]] = {
    h.name: _scheme_words(h) for h in HOSTS
}  # "fixed" rows read them in order
# "fixed" rows one of whose schemes numbers a name's senses after it ("NAME/ID")
_NUMBERED = frozenset(h.name for h in HOSTS if "NAME/ID" in h.source)
_LITERALS: dict[str, frozenset[str]] = {
    h.name: KIND_WORDS | {w for scheme in _SCHEMES[h.name] for w in scheme} for h in HOSTS
}


def ticker_host(row: Host | None) -> bool:
    """Whether a row's profiles are a stock's ticker ("PAYTM:IN", "ITX.MC")."""
    return row is not None and "TICKER" in row.source


def host_row(host: str, domain: str) -> Host | None:
    """The table's row for a URL's host: the full host first, then each host it is under
    (au.finance.yahoo.com is finance.yahoo.com's), then its registered domain."""
    parts = host.split(".")
    under = (BY_NAME.get(".".join(parts[i:])) for i in range(len(parts) - 1))
    return next((row for row in under if row), None) or BY_NAME.get(domain)


_TOPIC_PAGES = frozenset({"tag", "tags", "category", "categories", "topic", "topics", "search", "label"})


def profile_of(row: Host, host: str, segments: list[str], query: dict[str, str]) -> str | None:
    """The profile a URL on `row`'s host names ("linkedin.com/in/jane-doe"), or None (the host's home)."""
    kind, _, arg = row.key.partition(":")
    if kind == "sub":
        sub = host.removesuffix("." + row.name)
        # a blog's page listing its posts on a topic (NAME.wordpress.com/tag/X, /category/X,
        # NAME.blogspot.com/search/label/X) is about that topic: two are two companies' pages
        topical = bool(segments) and segments[0].lower() in _TOPIC_PAGES
        return f"{row.name}/{sub}" if sub and sub != host and not topical else None
    if kind == "query":  # "query:symbol|seccode": the first of the parameters the URL has
        found = next((k for k in arg.split("|") if query.get(k, "").strip()), "")
        return f"{row.name}/{found}={query[found].strip().lower()}" if found else None
    if kind == "app":
        ids = [s for s in segments if s.startswith("id") and s[2:].isdigit()]
        return f"{row.name}/app/{ids[0]}" if ids else None
    if not segments or kind == "none":
        return None
    if kind == "fixed":
        return _under_scheme(row, segments)
    if kind == "lang":  # en.wikipedia.org/wiki/x, zh.wikipedia.org/wiki/y: two editions, never "different"
        lang = host.removesuffix(row.name).split(".")[0]
        return f"{lang + '.' if lang else ''}{row.name}/{'/'.join(segments[:2])}"
    return _after_kind_words(row, segments)


def _under_scheme(row: Host, segments: list[str]) -> str | None:
    """A "fixed" row's profile: the segment after one of its schemes' words, only there. A scheme
    opening with a language's two letters (kase.kz/en/issuers, /ru/issuers) opens with any
    language's, which names no profile: the listing's pages in two languages are one profile."""
    for scheme in _SCHEMES[row.name]:
        if len(segments) <= len(scheme):
            continue
        said = [s.lower() for s in segments[: len(scheme)]]
        language = bool(scheme) and len(scheme[0]) == 2 and len(said[0]) == 2 and said[0].isalpha()
        if said == scheme or (language and said[1:] == scheme[1:]):
            end = len(scheme) + 1
            # a sense's number after the name (`_NUMBERED`: item/NAME/ID) is whose page it is too
            end += row.name in _NUMBERED and len(segments) > end and segments[end].isdigit()
            return f"{row.name}/{'/'.join(segments[1 if language else 0 : end])}"
    return None  # the host's other pages (its news) name nobody


def _after_kind_words(row: Host, segments: list[str]) -> str | None:
    """Every kind word before the profile's own segment is skipped, however many there are
    (crunchbase.com/organization/NAME): a path of kind words alone is the host's, nobody's."""
    fixed = _LITERALS[row.name]
    i = 0
    while i < len(segments) and segments[i] in fixed:
        i += 1
    return f"{row.name}/{'/'.join(segments[: i + 1])}" if i < len(segments) else None
