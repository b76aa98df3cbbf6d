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
from exa_orch.workflows.entities.sites import Site

# An exchange's suffix after a ticker, as Bloomberg (137:HK), Reuters and Yahoo (0137.HK) write it
# -> its market. Source: Bloomberg's and Refinitiv's (RIC) exchange codes; a suffix the two use for
# two markets ("SS": Stockholm and Shanghai; "DH": Dubai and Dhaka; "CN": Canada and Colombia;
# "MC": Casablanca and Madrid, read as Madrid) is left out. Bloomberg's MM is Mexico's, RM Russia's.
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
_NUMBERED = frozenset({"hk", "tw", "jp", "kr", "cn", "sa"})  # codes of digits, written with zeros or not
_QUOTE_HOSTS = ("bloomberg.com", "reuters.com", "finance.yahoo.com", "cnbc.com")
_SUFFIXED = re.compile(
    r"/(?:quote|profile/company|markets/companies|quotes)/([a-z0-9&\-*]+)[:.]([a-z]{1,3})$"
)
# An exchange's or a market-data site's own quote page: host -> where its code is
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
    ("kabutan.jp", "jp", "query", "code"),
    ("finance.yahoo.co.jp", "jp", "path", r"/quote/(\d+)\.t"),
    ("cse.lk", "lk", "query", "symbol"),
    ("mubasher.info", "eg", "path", r"/markets/egx/stocks/([a-z0-9]+)"),
    ("dsebd.org", "bd", "query", "name"),
    ("bolsadesantiago.com", "cl", "path", r"/resumen_instrumento/([a-z0-9]+)"),
    ("isyatirim.com.tr", "tr", "query", "hisse"),
    ("cafef.vn", "vn", "path", r"/du-lieu/(?:hose|hnx|upcom)/([a-z0-9]+)-"),
    ("nseindia.com", "in", "query", "symbol"),
    ("statusinvest.com.br", "br", "path", r"/acoes/([a-z0-9]+)"),
    ("asx.com.au", "au", "path", r"/markets/company/([a-z0-9]+)"),
    ("qe.com.qa", "qa", "query", "companycode"),
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
        return _code(_SUFFIX[found.group(2)], found.group(1)) if found and found.group(2) in _SUFFIX else ""
    query = {k.lower(): v for k, v in parse_qs(site.query).items()}
    for own, market, where, key in _OWN:
        if host == own or host.endswith("." + own):
            if where == "query":
                return _code(market, query[key][0]) if key in query else ""
            found = re.search(key, path)
            return _code(market, found.group(1)) if found else ""
    return ""


def _code(market: str, code: str) -> str:
    """`market:code`, a code of digits without its leading zeros (00137, 137), a Colombo board's
    suffix dropped (TJL.N0000, TJL), a Mexican series' star too (HERDEZ*, HERDEZ)."""
    code = code.partition(".")[0] if market == "lk" else code.rstrip("*")
    if market in _NUMBERED and code.isdigit():
        code = str(int(code))
    return f"{market}:{code}" if code else ""


def quoted(site: Site | None) -> bool:
    """The page is a stock's quote page on a shared host, its profile a ticker (hosts.ticker_host)."""
    return bool(site and ticker_host(host_row(site.host, site.domain)))


def ticker_named(name: str, site: Site | None) -> bool:
    """A listing's page named by the company's ticker alone ("PNBN" at idx.co.id): one word of
    capitals and digits, on a shared host."""
    return bool(site and site.platform and re.fullmatch(r"[A-Z][A-Z0-9]{3,7}", name))


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
