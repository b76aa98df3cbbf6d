"""A listed company's stock as the quote pages of exchanges and market-data sites write it: one
market and one code ("hk:137" on bloomberg.com/quote/137:HK, aastocks.com's symbol=00137 and
hkex.com.hk's sym=137). Two pages of one listing are pages of one company: a code names one
company on its market (a company listed twice has two codes, a parent and its listed unit two).
evidence.py weighs it; it reads a URL as sites.Site keeps it (path and query lower case).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import parse_qs

from exa_orch.workflows.entities.hosts import host_row, ticker_host
from exa_orch.workflows.entities.script_forms import CJK_FORMS
from exa_orch.workflows.entities.sites import Site

# An exchange's suffix after a ticker, as Bloomberg (137:HK), Reuters and Yahoo (0137.HK) write it
# -> its market. Source: Bloomberg's and Refinitiv's (RIC) exchange codes; a suffix the two use for
# two markets ("DH": Dubai and Dhaka; "CN": Canada and Colombia; "MC": Casablanca and Madrid, read
# as Madrid) is left out, but for "SS", which the separator tells apart (`_AFTER_DOT`). Bloomberg's
# MM is Mexico's, RM Russia's.
_SUFFIX = {
    "hk": "hk", "tt": "tw", "tw": "tw", "two": "tw", "jp": "jp", "t": "jp", "ks": "kr", "kq": "kr",
    "tb": "th", "bk": "th", "ij": "id", "jk": "id", "rm": "ru", "mm": "mx", "mx": "mx", "pa": "pk",
    "ka": "pk", "ab": "sa", "se": "sa", "ch": "cn", "sz": "cn", "mk": "my", "kl": "my", "in": "in",
    "ns": "in", "bo": "in", "us": "us", "ln": "gb", "l": "gb", "au": "au", "ax": "au", "nz": "nz",
    "ti": "tr", "is": "tr", "sm": "es", "mc": "es", "fp": "fr", "gy": "de", "de": "de", "im": "it",
    "mi": "it", "ey": "eg", "ca": "eg", "vn": "vn", "hm": "vn", "hn": "vn", "pm": "ph", "ps": "ph",
    "sp": "sg", "si": "sg", "bd": "bd", "sl": "lk", "cm": "lk", "ci": "cl", "sn": "cl", "pe": "pe",
    "lm": "pe", "bz": "br", "sa": "br", "ar": "ar", "ba": "ar", "cb": "co", "qd": "qa", "qa": "qa",
    "uh": "ae", "du": "ae", "ad": "ae", "kk": "kw", "kw": "kw", "om": "om", "it": "il", "ta": "il",
    "ga": "gr", "at": "gr", "nl": "ng", "lg": "ng", "kn": "ke", "nr": "ke", "sj": "za", "j": "za",
    "pw": "pl", "wa": "pl", "cp": "cz", "pr": "cz", "hb": "hu", "bu": "hu", "no": "no", "ol": "no",
    "st": "se", "dc": "dk", "co": "dk", "fh": "fi", "he": "fi", "na": "nl", "as": "nl", "sw": "sw",
    "s": "sw", "bb": "be", "br": "be", "av": "at", "vi": "at", "pl": "pt", "ls": "pt", "to": "ca",
}  # fmt: skip
# Suffixes Reuters and Yahoo write after a dot for another market than Bloomberg's after a colon:
# Shanghai's 600010.SS, Stockholm's SOBI:SS (Bloomberg writes Shanghai's CH, Refinitiv Stockholm's ST)
_AFTER_DOT = {"ss": "cn"}
_AFTER_COLON = {"ss": "se"}
_NUMBERED = frozenset({"hk", "tw", "jp", "kr", "cn", "sa"})  # codes of digits, written with zeros or not
_QUOTE_HOSTS = ("bloomberg.com", "reuters.com", "finance.yahoo.com", "cnbc.com")
_SUFFIXED = re.compile(
    r"/(?:quote|profile/company|markets/companies|quotes)/([a-z0-9&\-*]+)([:.])([a-z]{1,3})$"
)
# An exchange's or a market-data site's own quote page: host -> where its code is (a host of
# several markets has a row for each)
_OWN = (
    ("hkex.com.hk", "hk", "query", "sym"),
    ("aastocks.com", "hk", "query", "symbol"),
    ("stock.finance.sina.com.cn", "hk", "path", r"/hkstock/quotes/(\d+)"),
    ("tw.stock.yahoo.com", "tw", "path", r"/quote/(\d+)\.two?"),
    ("finance.naver.com", "kr", "query", "code"),
    ("finance.daum.net", "kr", "path", r"/quotes/a(\d+)"),
    ("set.or.th", "th", "path", r"/quote/([a-z0-9&\-]+)"),
    ("idx.co.id", "id", "path", r"company-profiles/([a-z0-9]+)"),
    ("moex.com", "ru", "query", "code"),
    ("dps.psx.com.pk", "pk", "path", r"/company/([a-z0-9]+)"),
    ("saudiexchange.sa", "sa", "query", "companysymbol"),
    ("quote.eastmoney.com", "cn", "path", r"/(?:sh|sz)(\d{6})"),
    ("sse.com.cn", "cn", "query", "company_code"),  # Shanghai's exchange
    ("szse.cn", "cn", "query", "code"),  # Shenzhen's
    # Sina's company pages of a Shanghai or Shenzhen stock (vCI_CorpInfo/stockid/300413.phtml,
    # realstock/company/sh600938/nc.shtml)
    ("finance.sina.com.cn", "cn", "path", r"/(?:stockid/|realstock/company/s[hz])(\d{6})"),
    ("cninfo.com.cn", "cn", "query", "stockcode"),  # the disclosure site of Shenzhen's and Shanghai's
    ("kabutan.jp", "jp", "query", "code"),
    ("finance.yahoo.co.jp", "jp", "path", r"/quote/(\d+)\.t"),
    ("nikkei.com", "jp", "query", "scode"),  # Nikkei's company pages (nkd/company/?scode=6201)
    ("cse.lk", "lk", "query", "symbol"),
    ("mubasher.info", "eg", "path", r"/markets/egx/stocks/([a-z0-9]+)"),
    ("mubasher.info", "sa", "path", r"/markets/tdwl/stocks/([a-z0-9]+)"),  # Mubasher's Gulf markets
    ("mubasher.info", "kw", "path", r"/markets/kse/stocks/([a-z0-9]+)"),
    ("mubasher.info", "ae", "path", r"/markets/(?:dfm|adx)/stocks/([a-z0-9]+)"),
    ("mubasher.info", "qa", "path", r"/markets/qe/stocks/([a-z0-9]+)"),
    ("mubasher.info", "om", "path", r"/markets/msm/stocks/([a-z0-9]+)"),
    ("dsebd.org", "bd", "query", "name"),
    ("bolsadesantiago.com", "cl", "path", r"/resumen_instrumento/([a-z0-9]+)"),
    ("isyatirim.com.tr", "tr", "query", "hisse"),
    ("cafef.vn", "vn", "path", r"/du-lieu/(?:hose|hnx|upcom)/([a-z0-9]+)-"),
    ("ase.com.jo", "jo", "path", r"/company[_-](?:historical|profile)/([a-z0-9]+)"),  # Amman's exchange
    ("cnyes.com", "tw", "path", r"/twstock/(?:profile/)?(\d{4,6})"),  # Anue's Taiwan stocks
    ("nseindia.com", "in", "query", "symbol"),
    ("statusinvest.com.br", "br", "path", r"/acoes/([a-z0-9]+)"),
    ("asx.com.au", "au", "path", r"/markets/company/([a-z0-9]+)"),
    ("qe.com.qa", "qa", "query", "companycode"),
    ("ljse.si", "si", "path", r"/papir/([a-z][a-z0-9]+)"),
    ("brvm.org", "brvm", "path", r"/cours-actions/0/([a-z0-9]+)"),
    ("mops.twse.com.tw", "tw", "query", "co_id"),
    ("boursorama.com", "fr", "path", r"/cours/1rp([a-z0-9]+)"),
)


@lru_cache(maxsize=65536)
def listing(site: Site | None) -> str:
    """The market and code of the stock a quote page is about ("hk:137"), or "" for any other page;
    cached: evidence.compare asks it of both records of every candidate pair."""
    if not site:
        return ""
    host, path = site.host, site.path.rstrip("/")
    if host.endswith(_QUOTE_HOSTS):
        found = _SUFFIXED.search(path)
        market = _market(found.group(3), found.group(2)) if found else ""
        return _code(market, found.group(1)) if found and market else ""
    query = {k.lower(): v for k, v in parse_qs(site.query).items()}
    for own, market, where, key in _OWN:
        if host == own or host.endswith("." + own):
            if where == "query":
                return _code(market, query[key][0]) if key in query else ""
            if found := re.search(key, path):  # else another market's row of the host may read it
                return _code(market, found.group(1))
    return ""


def _market(suffix: str, separator: str) -> str:
    """The market a ticker's suffix names after `separator` ("." or ":"), or "" for none known."""
    return (_AFTER_DOT if separator == "." else _AFTER_COLON).get(suffix) or _SUFFIX.get(suffix, "")


def _code(market: str, code: str) -> str:
    """`market:code`, a code of digits without its leading zeros (00137, 137), a Colombo board's
    suffix dropped (TJL.N0000, TJL), a Mexican series' star too (HERDEZ*, HERDEZ)."""
    code = code.partition(".")[0] if market == "lk" else code.rstrip("*")
    if market in _NUMBERED and code.isdigit():
        code = str(int(code))
    return f"{market}:{code}" if code and market else ""


# A page's own words naming a listing: a ticker with its exchange's suffix ("1093.HK",
# "BPCC.KW"), an exchange's name before a ticker ("NYSE: XOM", "mã HOSE: FRT") or, in Chinese,
# Japanese and Korean text, an exchange's name before a code of digits in brackets ("深交所（000513）",
# "香港联交所上市（01513）"). Exchanges' names that name two markets (NSE: India's and Nairobi's; TSE:
# Tokyo's and Toronto's; CSE, BSE, DSE, GSE, SSE) are left out.
_SUFFIXED_CODE = re.compile(r"(?<![\w.])([A-Z0-9][A-Z0-9&\-]{1,7})\.([A-Z]{1,3})(?![\w.])")
_EXCHANGES = {
    "nyse": "us", "nasdaq": "us", "lse": "gb", "hkex": "hk", "sehk": "hk", "sgx": "sg", "asx": "au",
    "jse": "za", "idx": "id", "set": "th", "pse": "ph", "hose": "vn", "hnx": "vn", "upcom": "vn",
    "bursa": "my", "krx": "kr", "kospi": "kr", "kosdaq": "kr", "twse": "tw", "tpex": "tw", "egx": "eg",
    "tadawul": "sa", "bist": "tr", "psx": "pk", "moex": "ru", "szse": "cn", "b3": "br", "bmv": "mx",
    "bvl": "pe", "qse": "qa", "adx": "ae", "dfm": "ae", "ngx": "ng", "tase": "il", "gpw": "pl",
    "tsx": "ca", "bvb": "ro",
}  # fmt: skip
_EXCHANGE_CODE = re.compile(
    r"(?<![\w])(" + "|".join(_EXCHANGES) + r")\s*[:：]\s*([A-Z0-9][A-Z0-9&\-]{0,7})(?![\w])", re.IGNORECASE
)
_CJK_EXCHANGES = {
    "hk": "港交所 联交所 聯交所 香港交易所 港股",
    "cn": "深交所 上交所 深圳证券交易所 上海证券交易所 深圳證券交易所 上海證券交易所",
    "jp": "東証 東京証券取引所 証券コード",
    "tw": "臺灣證券交易所 台灣證券交易所 證交所 櫃買中心",
    "kr": "코스피 코스닥 유가증권시장 종목코드",
}
_CJK_MARKET = {w: market for market, said in _CJK_EXCHANGES.items() for w in said.split()}
_CJK_CODE = re.compile(
    "("
    + "|".join(sorted(_CJK_MARKET, key=len, reverse=True))
    + r")[^（(0-9。，,;；]{0,6}[（(]\s*(\d{4,6})\s*[)）]"
)


# A stock's short name and its code of six digits in brackets, as Chinese and Korean text cite a
# listing ("华菱钢铁（000932）", "한국철강(104700)"): Shanghai's, Shenzhen's or Beijing's in Chinese
# characters, Korea's in Hangul. The page's own only when the short name is its name's (`_short_of`).
_SHORT_CODE = re.compile(r"([\u4e00-\u9fff\uac00-\ud7a3]{2,})\s*[（(]\s*(\d{6})\s*[)）]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Words a group's name says that its listed unit's short name does not: 中国船舶 (600150) is the
# listed arm of 中国船舶集团, not the group
_GROUP_WORDS = ("集团", "集團", "控股", "그룹", "지주")


def _short_of(run: str, own: str) -> bool:
    """The characters before a bracketed code (`run`) end with a short name of `own` (a company's
    name in CJK script, its legal form left out), three characters or more, the group's word kept
    (`_GROUP_WORDS`): the whole run, standing in `own` after other words (湖南华菱钢铁: 华菱钢铁, its
    province left out; not its first words alone, 中国石油 of 中国石油化工), or `own`'s characters
    in order from its first, four or more, not together (南网储能 of 南方电网储能; 中远海特 of 中远海运特种运输;
    not 中石油, which 中国石油化工 writes too)."""
    for at in range(max(0, len(run) - 8), len(run) - 2):  # the longest ending first
        short = run[at:]
        if short == own:
            return True
        if any(w in own and w not in short for w in _GROUP_WORDS) or short[0] != own[0] and at:
            continue
        rest = iter(own[1:])
        in_order = (
            len(short) >= 4
            and short[0] == own[0]
            and short not in own
            and all(ch in rest for ch in short[1:])
        )
        if in_order or (not at and short in own[1:]):
            return True
    return False


def _own_codes(text: str, own: str) -> set[str]:
    """`_SHORT_CODE`'s listings of `own`'s short names in `text`; none when it cites two (a page
    comparing companies: 中石油 may be PetroChina's in a page on 中国石化's)."""
    codes = {
        _code("kr" if _HANGUL.search(run) else "cn", code)
        for run, code in _SHORT_CODE.findall(text)
        if _short_of(run, own)
    }
    return codes if len(codes) == 1 else set()


def named(texts: list[str], own: str = "") -> frozenset[str]:
    """The listings (`listing`'s "market:code") a page's own words name: see `_SUFFIXED_CODE`,
    `_EXCHANGE_CODE`, `_CJK_CODE`, and `_SHORT_CODE` by the page's company's name `own`."""
    out = set()
    mine = re.sub(r"\s", "", CJK_FORMS.sub("", own))
    for text in texts:
        if mine:
            out |= _own_codes(text, mine)
        out |= {_code(_market(s.lower(), "."), c.lower()) for c, s in _SUFFIXED_CODE.findall(text)}
        out |= {_code(_EXCHANGES[x.lower()], c.lower()) for x, c in _EXCHANGE_CODE.findall(text)}
        out |= {_code(_CJK_MARKET[x], c) for x, c in _CJK_CODE.findall(text)}
    return frozenset(out - {""})


def quoted(site: Site | None) -> bool:
    """The page is a stock's quote page on a shared host, its profile a ticker (hosts.ticker_host)."""
    return bool(site and ticker_host(host_row(site.host, site.domain)))


# A ticker: one word of capitals and digits, and the class of its shares after it, as Nasdaq's
# Nordic markets and Santiago's and Hong Kong's write it ("TREL B", "BILI A", "ANDINA-B")
_TICKER = re.compile(r"([A-Z][A-Z0-9]{3,7})(?:[ -][A-D])?")


def ticker_named(name: str, site: Site | None) -> str:
    """The ticker (lower case) a listing's page is named by alone ("PNBN" at idx.co.id, "TREL B"
    at nasdaq.com), on a shared host, not the initials of the words its path spells (AICT at
    linkedin.com/company/alexandria-international-container-terminals: the company's short name);
    "" for any other page."""
    found = _TICKER.fullmatch(name) if site and site.platform else None
    if not found:
        return ""
    spelled = site.path.rstrip("/").rpartition("/")[2].split("-") if site else []
    ticker = found.group(1).lower()
    return "" if len(spelled) > 1 and "".join(w[:1] for w in spelled) == ticker else ticker


def abbreviates(ticker: str, name: str) -> bool:
    """The ticker's letters, four or more, are the name's (a site's label, a name written together)
    in order, the first its first (AMRT, alfamart; PNBN, paninbank)."""
    rest = iter(name[1:])
    return len(ticker) >= 4 and ticker[:1] == name[:1] and all(ch in rest for ch in ticker[1:])


def listed_apart(a: Site | None, b: Site | None, partial: bool) -> bool:
    """Two quote pages of two listings: two companies on one market (a code names one company
    there), and on two (a company listed twice has a code on each) unless the names agree whole,
    not one's reading the other's start alone (`partial`: 同仁堂 at sh600085 is not TONG REN TANG TECH
    at 01666.HK)."""
    x, y = listing(a), listing(b)
    return bool(x and y and x != y and (partial or x.partition(":")[0] == y.partition(":")[0]))
