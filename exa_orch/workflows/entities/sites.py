"""A URL read through the Public Suffix List: registered domain, canonical page, profile on a shared host.

`page_site(url, name)` reads an item's own URL: an article or a listed company's page on a site the
item's name does not share is a publisher's page (no profile), as on a news host of hosts.HOSTS."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote, urlsplit

from exa_orch.workflows.entities.countries import country_codes
from exa_orch.workflows.entities.hosts import BY_NAME, KIND_WORDS, Host, host_row, profile_of
from exa_orch.workflows.entities.names import fold

if TYPE_CHECKING:
    import tldextract


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    """tldextract with the bundled Public Suffix List snapshot only: no network at run time and no
    cache directory (its default would write under the user's home). Made on first use: tldextract
    imports requests, ~0.1 s of every cold start of `exa-orch serve` (bench/startup.py)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


# Two-letter suffixes sold as generic names, not countries: stem.io is not stem.com's regional site
# (.is and .it are not among them: Icelandic and Italian companies use them as Greece's use .gr).
_VANITY_CCTLDS = frozenset("io ai co me tv ly to gg sh so fm am im la vc ws cc".split())
_GENERIC = frozenset("com org net biz info".split())
# Top-level domains open to anyone, never one brand's own (the rest of the one-label ones may be:
# about.google, global.honda, global.abb, skygroup.sky are a brand's names under its own TLD).
# Open ones from ICANN's new gTLD programme too (a sample of the common ones: a company named like
# one would otherwise pass as its brand: "Shop" at x.shop and shop.com).
_CORPORATE = frozenset("group corporate corporation company global holdings home en".split())
_OPEN_TLDS = _GENERIC | frozenset(
    "edu gov mil int coop aero museum mobi name pro jobs travel app dev shop store online site tech "
    "xyz club blog news cloud live life world global agency company group digital email media network "
    "studio design page website space today solutions services systems ventures capital finance "
    "fund money bank insurance health care law legal energy africa asia london berlin paris nyc tokyo".split()
)
# Path segments that don't change which entity a page is about.
_LOCALE_SHAPE = re.compile(r"^([a-z]{2})(?:[-_][a-z]{2,4})?$")
# ISO 639-1: the two-letter language codes (Library of Congress, the standard's registration
# authority, loc.gov/standards/iso639-2/php/code_list.php). With the countries' ISO 3166 codes
# (countries.py) they are the locales a path or subdomain may carry; any other two letters
# ("fujifilm.com/fb/", Business Innovation) name a unit, not a language.
_LANGUAGES = frozenset(
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy "
    "da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu "
    "hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb "
    "lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om "
    "or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw "
    "ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu".split()
)


# A site's language written another way than by its code: the English edition of a Japanese or
# Chinese company's site (jreast.co.jp/e/, sinopec.com/english/).
# Languages by name, and the segment of a site's international edition ("horiba.com/int/",
# "tridonic.com/com/en/", "ww", "worldwide"): no country's, but a locale all the same.
_LANGUAGE_WORDS = frozenset(
    "e english eng japanese chinese korean jpn chn kor int intl com ww worldwide international".split()
)


def _locale(segment: str) -> bool:
    """A language or country code, alone or with a region ("en", "br", "en-gb"), or a language's
    name (`_LANGUAGE_WORDS`)."""
    if segment in _LANGUAGE_WORDS:
        return True
    if segment == "ir":  # investor relations (ir.regions.com, /ir), not Iran: Persian is "fa"
        return False
    m = _LOCALE_SHAPE.match(segment)
    return m is not None and (m.group(1) in _LANGUAGES or m.group(1) in country_codes())


_HOMELIKE = frozenset(
    "about about-us aboutus company home index index.html index.htm who-we-are our-company "
    "en-us en-gb top main default".split()
    # a site's about page in its own language (gummastic.gr/el/, roviesolives.gr/el/i-etaireia/)
    + "empresa la-empresa nosotros quienes-somos sobre-nosotros acerca-de quem-somos sobre-nos "
    "a-empresa a-propos qui-sommes-nous entreprise l-entreprise ueber-uns uber-uns unternehmen "
    "das-unternehmen chi-siamo azienda l-azienda over-ons het-bedrijf om-oss om-os meista "
    "tietoa-meista o-nas o-firmie o-nama o-kompanii apie-mus par-mums rolunk despre-noi meist "
    "etaireia i-etaireia hakkimizda tentang-kami gioi-thieu".split()
)  # "main" and "default" as home pages' scripts are named (kurly.com/main, emart.com/main/main.do)


@dataclass(frozen=True)
class Site:
    """A URL read through the Public Suffix List."""

    host: str  # lowercase, without www.
    domain: str  # registered domain ("klarna.com", "amazon.co.uk", "foo.github.io"); "" for none
    label: str  # the registered domain's first label ("klarna")
    suffix: str  # its public suffix ("com", "co.uk")
    path: str  # canonical path: locale and home-like segments dropped, no trailing slash
    platform: bool  # a shared host (hosts.HOSTS): the profile names the entity, not the domain
    profile: str | None = None  # on a shared host, the profile the URL names ("linkedin.com/in/jane")
    locale: str = ""  # a country or language segment the path or subdomain carried ("br", "en-gb")
    query: str = ""  # the query, sorted, without tracking parameters ("instrument=sse1027")

    @property
    def canonical(self) -> str:
        """One string per page: the host without `www.` or a regional subdomain, + canonical path."""
        host = self.host
        first, _, rest = host.partition(".")
        if _locale(first) and self.domain and rest.endswith(self.domain):
            host = rest  # a regional subdomain: de.klarna.com is klarna.com's page
        return host + self.path

    def same_page(self, other: Site) -> bool:
        """One page: one canonical string, and no two queries that differ (a market-data site's
        "microsite?Instrument=SSE1027" and "...=SSE999" are two companies' pages)."""
        return self.canonical == other.canonical and not (
            self.query and other.query and self.query != other.query
        )

    @property
    def home(self) -> bool:
        """The site's own home or about page (no path left once locale and /about are dropped)."""
        return not self.platform and not self.path

    @property
    def front(self) -> bool:
        """The home page, or its company's or group's front page: a path of corporate words and
        locales alone (scania.com/group/en, sony.com/en/corporate)."""
        rest = [s for s in self.path.split("/") if s and not _locale(s)]
        return not self.platform and all(s in _CORPORATE for s in rest)


def _split(url: str) -> tuple[str, str, dict[str, str], str] | None:
    """(host without www. or m., path, query, fragment) of `url`, or None when it has no usable host."""
    raw = url.strip()
    if not raw:
        return None
    try:
        parts = urlsplit(raw if "//" in raw else f"https://{raw}")
        host = (parts.hostname or "").rstrip(".").lower()
        query = {k.lower(): v for k, v in parse_qsl(parts.query)}
    except ValueError:
        return None
    if not host or "." not in host:
        return None
    return host.removeprefix("www.").removeprefix("m."), parts.path, query, parts.fragment


def _own_page(row: Host, segments: list[str]) -> bool:
    """A shared host's own home or about page (notion.so/about, not linkedin.com/in/js): its owner's site."""
    own = [s for s in segments if s not in _HOMELIKE]
    if own and _locale(own[0]) and own[0] not in KIND_WORDS:
        own.pop(0)
    if row.key == "none" and len(own) == 1 and own[0].startswith("about"):
        return True  # a publisher's page about itself (bbc.co.uk/aboutthebbc): its articles name others
    return not own and not row.key.startswith(("sub", "query"))


def _canonical_path(host: str, domain: str, segments: list[str]) -> str:
    """The locale segment (or regional subdomain) a page carries; `segments` lose it and /about."""
    locale = ""
    while segments and _locale(segments[0]):
        locale = locale or segments[0]
        segments.pop(0)
    # "about-us.html" is /about-us; a language last is the page's edition (waseda.jp/top/en)
    while segments:
        last = segments[-1]
        language = _locale(last)
        if not language and PAGE_FILE.sub("", last) not in _HOMELIKE:
            break
        locale = locale or (last if language else "")
        segments.pop()
    first = host.partition(".")[0]
    if not locale and _locale(first) and domain and host != domain:
        locale = first
    return locale


@lru_cache(maxsize=65536)
def site(url: str) -> Site | None:
    """`url` read through the Public Suffix List, or None when it has no usable host."""
    split = _split(url)
    if split is None:
        return None
    host, raw_path, query, fragment = split
    ext = _extractor()(host)
    domain = f"{ext.domain}.{ext.suffix}" if ext.domain and ext.suffix else ""
    row = host_row(host, domain) or BY_NAME.get(ext.suffix)
    pieces = [(fold(s), s) for s in raw_path.split("/")]
    segments = [folded for folded, _ in pieces if folded]
    if row is not None and _own_page(row, segments):
        row = None
    locale = _canonical_path(host, domain, segments) if row is None else ""
    path = ("/" + "/".join(segments)) if segments else ""
    # a profile as written, not as read in Latin letters: 鲁迅 and 陆逊 both read "luxun"
    written = [f if s.isascii() else unicodedata.normalize("NFC", s).lower() for f, s in pieces if f]
    profile = _profile(row, host, written, query, fragment) if row else None
    label = ext.domain if domain else host
    kept = sorted(
        f"{k}={v.lower()}" for k, v in query.items() if not k.startswith("utm_") and k not in _TRACKING
    )
    return Site(host, domain, label, ext.suffix, path, row is not None, profile, locale, "&".join(kept))


def _profile(row: Host, host: str, written: list[str], query: dict[str, str], fragment: str) -> str | None:
    """The profile a URL on a shared host names (hosts.profile_of), with the section of an article
    its fragment names (wiki/Gaisano_family#Unipace): a section is about its own subject, and two
    sections of one family's or one group's article are two companies' profiles ("#/media/...", the
    article's picture viewer, is the article)."""
    profile = profile_of(row, host, written, query)
    if profile and row.key == "lang" and fragment and not fragment.startswith("/"):
        profile += "#" + unicodedata.normalize("NFC", unquote(fragment)).lower()
    return profile


# Query parameters that say where a visitor came from, not which page it is.
_TRACKING = frozenset({"fbclid", "gclid", "ref", "source", "src", "mc_cid", "mc_eid", "igshid"})


# A URL in prose ends at a space, a quote, a comma or a closing bracket, but for a bracketed part
# of its path ("wiki/Liu_Wei_(artist,_born_1972)": cut at its comma, two namesakes' articles
# would read as one profile), a comma inside it ("wiki/Юровский,_Владимир_Михайлович": cut there,
# a grandfather's and a grandson's articles read as one profile) and an apostrophe inside a word
# ("wiki/Wendy's_Supa_Sundaes": cut there, it read as the article on Wendy's)
_PATH = r"(?:[^\s\"'<>(),;]|,(?=[^\s\"'<>])|'(?=\w)|\([^\s\"'<>()]*\))+"
URL_IN_TEXT = re.compile(rf"https?://{_PATH}|(?:www\.)?(?:[a-z0-9-]+\.)+[a-z]{{2,}}/{_PATH}", re.I)
# An article's path: a date ("/2023/05/15/", "20240614"), a last segment of three words or more
# ("hydrogene-vert-le-nantais-lhyfe-inaugure-...") or ending in a long number ("...-42071234").
# A page's file name's extension, a markup's or a script's ("about-us.html", "main_newsView.jsp",
# "stockdata.do"): the page's name is what comes before it
PAGE_FILE = re.compile(r"\.(?:s?html?|php|aspx?|jsp|cfm|do)$")
_DATED = re.compile(r"/(?:19|20)\d\d/(?:0?[1-9]|1[0-2])/|(?:19|20)\d\d(?:0[1-9]|1[0-2])[0-3]\d")
_WORD = re.compile(r"[a-z]+")
# A listed company's page on an exchange or a market-data site the table does not know
# ("boerse-frankfurt.de/aktie/NAME", "idx.co.id/en/listed-companies/company-profiles/TICKER",
# "dsebd.org/displayCompany.php?name=TICKER", "jse.co.za/companies/sappi-ltd",
# "six-group.com/.../share-details.CH0023405456CHF4.html", "nseindia.com/get-quotes/equity?symbol=X"):
# about the company it names, never its site.
_LISTING = re.compile(
    r"/(?:aktie|aktien|stocks?|quotes?|get-quotes|shares?|share-details|equities|equities-quote|equity|"
    r"listed-compan(?:y|ies)|company-profiles|company-profile-main|companies|instruments?|emisoras|azioni|asx|"
    r"market_data/company|issuer-profile|aktier|profil-perusahaan-tercatat|empresas-listadas|"
    r"spolka|listing_directory|issuers|securities|sirket-bilgileri|hartija|market-information/company|"
    r"share-detail|company/detail|listing|empresas|resumen_instrumento|manage-stock|acoes|acao|cotacoes|"
    r"emitenti|emittenti|emisores|financialinstruments|quickshare\.php|browse-edgar|company_historical|twstock)"
    r"(?:[/.][^/]+|$)|/displaycompany\.php|/companypage/|/company/[^/]+-\d+/"
)  # a listing keyword then the company's segment, or a query ("equities-quote?sym=1880"): not
# "company-profile" alone or "/investors/companyprofile.aspx", a site's own pages as often
# ("kase.kz/en/issuers/KZTK", "boursakuwait.com.kw/en/securities/company-profile/?tkr=BOUBYAN",
# "kap.org.tr/tr/sirket-bilgileri/genel/1222-...", "dfm.ae/the-exchange/market-information/company/DIB");
# a share's words in Portuguese (cotacoes/b3/acao/...), an issuer's in the Balkans' and Italy's
# languages (emitenti), a market-data script (quickshare.php) and EDGAR's company browser, Amman's
# exchange's price history (ase.com.jo/en/company_historical/JOPT) and Anue's Taiwan stocks (cnyes.com/
# twstock/2330); a
# financial publisher's company section, a page under the company's own, named and numbered
# ("business-standard.com/company/monte-carlo-fashions-ltd-44018/information/company-history"; a
# group's own "company/brands/scania.html" is its page about its unit)
# A query naming a listed company by its symbol or code ("qe.com.qa/web/guest/company-profile?
# CompanyCode=IQCD", "adx.ae/.../Company-Profile.aspx?symbol=ADNOCGAS", "jamstockex.com/trading/
# instruments/?instrument=NCBFG-JMD")
_LISTING_QUERY = re.compile(
    r"(?:^|&)(?:symbol|ticker|tkr|companycode|companysymbol|stock_code|cmpy_id|isin|instrument)="
)


def page_site(url: str, name: str | None, *, company: bool = True) -> Site | None:
    """`site(url)`, but an article (or a listed company's page, `_LISTING`) on a site whose label
    the page's name does not share is a publisher's ("lesechos.fr/industrie-services/...-lhyfe-
    inaugure-...-2090000" under "Lhyfe"), as a news publisher's page of hosts.HOSTS is: on a shared
    host, no profile, never the site of the company it reports on. A page on a site of the name
    (bestbuy.com/2024/..., ayala.com/news/ayala-land-...: the label in the name or the name in the
    label) stays that site's; a label sharing only the name's first letters is another's site (a
    trade association's, mongoltextile.mn, reporting on "Mongol Noos"). A company's entry in
    another's directory (`_entry`: vivino.com/wineries/shumi) is that directory's page too; a
    person's page on a site (a board's page) stays the site's: `company` False."""
    found = site(url)
    if (
        found is None
        or found.platform
        or not name
        or not (
            _article(found.path, name)
            or (company and _entry(found.path, name))
            or _LISTING.search(found.path)
            or _LISTING_QUERY.search(found.query)
            or _numbered(found)
            or _POST.search(found.query)
        )
    ):
        return found
    own = re.sub(r"[^a-z0-9]", "", fold(name).lower())
    label = found.label.replace("-", "")
    if not own or label in own or own in label:
        return found
    return replace(found, platform=True, profile=None)


def listing_slug(found: Site) -> str:
    """The last part of a page's path on a host of many organisations that keeps no profile
    pattern (`page_site`: a guide's "/producers/marco-de-bartoli" under "Cantine De Bartoli"),
    folded, where the path is a section and the page (two parts) and the page's part is words
    joined by hyphens; "" otherwise (a dated or numbered article's path, a profile's). The path
    names what the page is about, whatever shorter name the page gives it."""
    if found.profile or not found.platform:
        return ""
    parts = [p for p in found.path.strip("/").split("/") if p]
    last = fold(unquote(parts[-1])).lower() if len(parts) == 2 else ""
    return last if re.fullmatch(r"[a-z]+(?:-[a-z]+)*", last) else ""


def _article(path: str, name: str) -> bool:
    """`path` is an article's: dated or numbered, or a slug of three words or more that is not
    `name`'s own ("markets/kakira-sugar-output"; a page named for it on another's site is not:
    "businesses/a-s-watson-group")."""
    last = path.rpartition("/")[2]
    if _DATED.search(path) or (re.search(r"\d{5,}", last) and path.count("/") >= 2):
        return True
    words = _slug_words(path)
    return len(words) >= 3 and not words <= _name_words(name)


def _entry(path: str, name: str) -> bool:
    """`path` is a directory's entry for `name`: two segments deep or more, its last segment the
    name's words ("wineries/shumi", "producer/bovin-winery"), under no section a group names its
    own units by (`_UNITS`: "our-brands/...", "subsidiaries/...": the parent's page about its unit)."""
    return _slug_named(path, name, 1) and path.count("/") >= 2 and not _UNITS.search(path)


def unit_entry(path: str, name: str) -> bool:
    """`path` is the entry a group's site gives one of its units under a section it lists them in
    (`_UNITS`), its last segment `name`'s words ("our-businesses/john-keells-plc")."""
    return _slug_named(path, name, 2) and bool(_UNITS.search(path))


def _slug_named(path: str, name: str, least: int) -> bool:
    """The words of `path`'s last segment, `least` or more, are all `name`'s."""
    words = _slug_words(path)
    return len(words) >= least and words <= _name_words(name)


def _slug_words(path: str) -> frozenset[str]:
    """The words of a path's last segment, a script's file name not counted ("main_newsview.jsp")."""
    last = path.rpartition("/")[2]
    return frozenset(_WORD.findall(PAGE_FILE.sub("", last)))


def _name_words(name: str) -> frozenset[str]:
    return frozenset(_WORD.findall(fold(name).lower()))


# The sections a group's site lists its own units, brands and holdings under
_UNITS = re.compile(
    r"/(?:subsidiaries|affiliates|businesses|our-businesses|our-business|brands|our-brands|operations|"
    r"portfolio|companies|group-companies|group|units|divisions|investments|holdings|maisons|houses)(?:/|$)"
)


# A news site's article script, its article named by a number in the query
# ("koreaherald.com/view.php?ud=20241101050412", "globes.co.il/news/article.aspx?did=1001400000",
# a Java one: "cw.com.tw/article/article.action?id=2932")
_ARTICLE_SCRIPT = re.compile(
    r"/(?:view|article|articleview|news|read|story)\.(?:php|aspx?|html?|jsp|action|do)$"
)


# A blog's post, its number the query's "p" ("algerie-eco.com/?p=52475": WordPress's plain links),
# or a query key naming an article, a news item, a story or a post by its number ("index.php?
# newsid=441", "?route=bossblog/article&blog_article_id=352")
_POST = re.compile(r"(?:^|&)(?:p|[a-z_]*(?:article|news|story|post)_?id)=\d+(?:&|$)")


def _numbered(found: Site) -> bool:
    """`found` is an article its query numbers, on an article script (`_ARTICLE_SCRIPT`)."""
    return bool(_ARTICLE_SCRIPT.search(found.path.lower()) and re.search(r"=\d{3,}", found.query))


def canonical_url(url: str) -> str:
    """The URL without scheme, `www.`, regional subdomain, locale or /about path, query or fragment."""
    s = site(url)
    return s.canonical if s else url.strip().lower()


def country_suffix(suffix: str) -> bool:
    """A country's suffix ("de", "co.uk", "com.au"), not a vanity one sold as generic (".io", ".ai")."""
    last = suffix.rsplit(".", 1)[-1]
    return (len(last) == 2 and last not in _VANITY_CCTLDS) or last == "eu"


def brand_tld(a: Site, b: Site) -> bool:
    """`a` sits under a top-level domain that is `b`'s label (about.google / google.com, global.honda /
    honda.co.jp): a brand TLD, where only the brand's owner registers names (ICANN's Specification
    13, the ".brand" TLDs). Read only against another site of that label, never from a list."""
    return (
        "." not in a.suffix
        and len(a.suffix) >= 3
        and a.suffix not in _OPEN_TLDS
        and a.suffix == b.label
        and not b.platform
    )


def regional(a: Site, b: Site) -> bool:
    """One label on two suffixes where one is a country's (klarna.com / klarna.de, zalando.co.uk / zalando.de)."""
    if a.label != b.label or a.suffix == b.suffix:
        return False
    sa, sb = a.suffix, b.suffix
    return (country_suffix(sa) and (country_suffix(sb) or sb in _GENERIC)) or (
        country_suffix(sb) and sa in _GENERIC
    )
