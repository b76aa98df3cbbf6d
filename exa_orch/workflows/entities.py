"""Entity resolution: which Websets items are the same company, person, paper or page.

One module every workflow uses to match or deduplicate items (convergent.search's intersection,
qd.winnow across rounds, lifecycle.harvest, research.verifiedCollection, the archive). It replaces
seed 002's rule "URL exact match or name similarity > 0.85", which merged Klarna with Klara and
Merck & Co. with Merck KGaA: a character ratio says nothing about identity.

What an item carries, read once into a `Record`:
- **registered domain** of its URL from the Public Suffix List (`tldextract` with the list bundled in
  the package: no fetch at run time, no cache written anywhere), so `www.`, `de.`, `/en/` and
  `/about` don't matter; shared hosts (LinkedIn, Crunchbase, GitHub, ...) are *profiles* instead,
  keyed by their path;
- **cleaned name**: Unicode folded (é -> e, ß -> ss), "&" read as "and", punctuation dropped,
  legal forms of many jurisdictions stripped (`cleanco`: Inc., GmbH, S.A., N.V., K.K., S.p.A., SE,
  Oyj, KGaA, Pty Ltd, A/S ...), and its initials (for abbreviations);
- **alias evidence** from the item's own text (description, content, enrichment results):
  "formerly X", "also known as X", "rebranded from X", "X (ABC)", "also at other.com", and profile
  URLs anywhere in its properties or enrichments. Never from a list of names kept here.
- for people, the **employer** (properties.person.company) and the profile URL.

Merging (`resolve`): an edge joins two items only on strong evidence, each with its reason:
the same profile URL; the same registered domain with names that agree (equal, one extending the
other, or an abbreviation); alias evidence naming the other item's name or domain; the same name
on regional domains of one label (klarna.com / klarna.de, not stem.com / stem.io); for people the
same name *and* the same employer. Different registered domains are evidence *against* a merge:
fuzzy or equal names never cross them. Edges are taken strongest first and two groups merge only
if no pair across them contradicts (different unlinked registered domains, different profiles on
one platform, different employers or names for people): complete linkage, so one weak link can
never chain two entities together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import tldextract

Json = dict[str, Any]


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    """tldextract with the bundled Public Suffix List snapshot only: no network at run time and no
    cache directory (its default would write under the user's home). Made on first use: tldextract
    imports requests, ~0.1 s of every cold start of `exa-orch serve` (bench/startup.py)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


# Hosts shared by many entities: a URL there names a profile (its path), not the entity's own site.
PLATFORM_DOMAINS = frozenset(
    "linkedin.com crunchbase.com github.com gitlab.com twitter.com x.com facebook.com instagram.com "
    "youtube.com wikipedia.org wikidata.org medium.com substack.com angel.co wellfound.com "
    "pitchbook.com producthunt.com ycombinator.com dealroom.co tracxn.com cbinsights.com "
    "bloomberg.com glassdoor.com indeed.com orcid.org researchgate.net scholar.google.com "
    "threads.net tiktok.com".split()
)
PLATFORM_HOSTS = frozenset(
    "apps.apple.com play.google.com sites.google.com scholar.google.com news.ycombinator.com".split()
)
# Two-letter suffixes sold as generic names, not countries: stem.io is not stem.com's regional site.
_VANITY_CCTLDS = frozenset("io ai co me tv ly to gg sh so fm am im is it la vc ws cc".split())
_GENERIC = frozenset("com org net biz info".split())
# Path segments that don't change which entity a page is about.
_LOCALE = re.compile(r"^[a-z]{2}([-_][a-z]{2,4})?$")
_HOMELIKE = frozenset(
    "about about-us aboutus company home index index.html index.htm who-we-are our-company "
    "en-us en-gb".split()
)
# Legal forms cleanco's list lacks (checked against cleanco 2.3), stripped from the end after it.
_MORE_FORMS = frozenset(
    "abp pbc slu s l u sa nv nv sa s a n v spa s p a sarl sas sl ooo zao ojsc pjsc tbk bhd sdn bhd "
    "ltda eirl sro s r o as asa aps ehf kft zrt doo d o o kk k k gk plc llp lp se".split(" ")
) | {"s l u", "sa nv", "nv sa", "s p a", "sdn bhd", "s r o", "d o o", "k k"}
_NOT_LEGAL = frozenset("uk us usa eu".split())
_TITLES = frozenset("dr prof mr mrs ms mx sir dame phd md jr sr ii iii iv mba".split())
_FILLER = frozenset("the group holding holdings company".split())
_FOLD = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                       "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "Þ": "Th", "ı": "i"})  # fmt: skip

# Alias cues: what a page says about its other names and sites.
_NAME = r"([A-Z0-9][\w&.'’\-]*(?:\s+(?:&\s+)?[A-Z0-9&][\w&.'’\-]*){0,5})"
_ALIAS_CUES = (
    re.compile(r"\bformerly(?:\s+(?:known\s+as|called|named))?\s+" + _NAME),
    re.compile(r"\bpreviously\s+(?:known\s+as|called|named)\s+" + _NAME),
    re.compile(r"\b(?:also|otherwise)\s+known\s+as\s+" + _NAME),
    re.compile(r"\ba\.?k\.?a\.?\s+" + _NAME),
    re.compile(r"\b(?:trading|doing\s+business)\s+as\s+" + _NAME),
    re.compile(r"\b(?:rebranded|renamed)\s+(?:from|as|to)\s+" + _NAME),
    re.compile(r"\bnow\s+(?:known\s+as|called|named)\s+" + _NAME),
)
_DOMAIN_CUE = re.compile(
    r"\b(?:also\s+(?:at|on|available\s+at|reachable\s+at|found\s+at)|formerly\s+(?:at|on)?|"
    r"previously\s+at|redirects\s+(?:from|to)|moved\s+(?:from|to))\s+"
    r"((?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[^\s,;)]*)?)",
    re.IGNORECASE,
)
_DOMAIN = re.compile(r"(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}\b", re.I)
_URL = re.compile(r"https?://[^\s\"'<>),;]+|(?:www\.)?(?:[a-z0-9-]+\.)+[a-z]{2,}/[^\s\"'<>),;]+", re.I)


# --- normalisation -------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lowercase ASCII-ish text: accents dropped (é -> e), ß -> ss, ø -> o; other letters kept."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _words(text: str) -> list[str]:
    text = fold(text).replace("&", " and ").replace("+", " and ")
    return re.sub(r"[^\w\s]", " ", text.replace("'", "").replace("’", "")).split()


@lru_cache(maxsize=65536)
def clean_name(name: str) -> str:
    """The name without legal forms, accents, punctuation or case: "Société Générale S.A." -> "societe generale".

    Legal forms come from cleanco's list (many jurisdictions), stripped until none is left at
    the end, so "Samsung Electronics Co., Ltd." loses both; "&" and "and" read the same."""
    text = unicodedata.normalize("NFKC", name).strip()
    from cleanco import basename  # here, not at import: a cold start needs none of this module's

    for _ in range(3):
        bare = cast(str, basename(text)).strip(" ,.-")  # cleanco has no types: it returns a str
        if not bare or bare == text:
            break
        if set(_words(text)[len(_words(bare)) :]) & _NOT_LEGAL:
            break  # cleanco reads "UK" as a legal form: "Santander UK plc" is not "Santander"
        text = bare
    words = _words(text)
    stripped = True
    while stripped and len(words) > 1:
        stripped = False
        if words[-1] == "and":  # "Merck &" after "Co." went
            words.pop()
            stripped = True
        for n in (3, 2, 1):
            if len(words) > n and " ".join(words[-n:]) in _MORE_FORMS:
                del words[-n:]
                stripped = True
                break
    return " ".join(words) or " ".join(_words(name))


def core_name(cleaned: str) -> str:
    """The cleaned name without "the", "group", "holding(s)", "company": "the boston consulting group"
    -> "boston consulting"."""
    words = [w for w in cleaned.split() if w not in _FILLER]
    return " ".join(words) or cleaned


def acronym(cleaned: str) -> str:
    """Initials of a name of 2+ words ("international business machines" -> "ibm"), else ""."""
    words = [w for w in cleaned.split() if w not in ("and", "of", "the", "for", "de", "la")]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def person_key(name: str) -> str:
    """A person's name for matching: folded, titles and middle initials dropped ("Dr. John A. Smith" -> "john smith")."""
    words = [w for w in _words(name) if w not in _TITLES and len(w) > 1]
    return " ".join(words)


@dataclass(frozen=True)
class Site:
    """A URL read through the Public Suffix List."""

    host: str  # lowercase, without www.
    domain: str  # registered domain ("klarna.com", "amazon.co.uk", "foo.github.io"); "" for none
    label: str  # the registered domain's first label ("klarna")
    suffix: str  # its public suffix ("com", "co.uk")
    path: str  # canonical path: locale and home-like segments dropped, no trailing slash
    platform: bool  # a shared host (LinkedIn ...): the path names the entity, not the domain

    @property
    def canonical(self) -> str:
        """One string per page: the host without `www.` or a regional subdomain, + canonical path."""
        host = self.host
        first, _, rest = host.partition(".")
        if _LOCALE.match(first) and self.domain and rest.endswith(self.domain):
            host = rest  # a regional subdomain: de.klarna.com is klarna.com's page
        return host + self.path

    @property
    def profile(self) -> str | None:
        """For a platform URL, the profile it names ("linkedin.com/in/john-smith"), else None."""
        if not self.platform or not self.path.strip("/"):
            return None
        segments = self.path.strip("/").split("/")
        keep = 2 if len(segments) >= 2 and segments[0] in _PROFILE_KINDS else 1
        return f"{self.domain or self.host}/{'/'.join(segments[:keep])}"


_PROFILE_KINDS = frozenset(
    "in company school pub organization person companies people wiki user users profile @ "
    "showcase org p".split()
)


@lru_cache(maxsize=65536)
def site(url: str) -> Site | None:
    """`url` read through the Public Suffix List, or None when it has no usable host."""
    raw = url.strip()
    if not raw:
        return None
    try:
        parts = urlsplit(raw if "//" in raw else f"https://{raw}")
        host = (parts.hostname or "").rstrip(".").lower()
    except ValueError:
        return None
    if not host or "." not in host:
        return None
    host = host.removeprefix("www.").removeprefix("m.")
    ext = _extractor()(host)
    domain = f"{ext.domain}.{ext.suffix}" if ext.domain and ext.suffix else ""
    platform = domain in PLATFORM_DOMAINS or host in PLATFORM_HOSTS
    segments = [s for s in fold(parts.path).split("/") if s]
    if not platform:
        while segments and _LOCALE.match(segments[0]):
            segments.pop(0)
        while segments and segments[-1] in _HOMELIKE:
            segments.pop()
    path = ("/" + "/".join(segments)) if segments else ""
    return Site(host, domain, ext.domain if domain else host, ext.suffix, path, platform)


def canonical_url(url: str) -> str:
    """The URL without scheme, `www.`, regional subdomain, locale or /about path, query or fragment."""
    s = site(url)
    return s.canonical if s else url.strip().lower()


def _regional(a: Site, b: Site) -> bool:
    """One label on two suffixes where one is a country's (klarna.com / klarna.de, zalando.co.uk / zalando.de)."""
    if a.label != b.label or a.suffix == b.suffix:
        return False

    def country(s: str) -> bool:
        last = s.rsplit(".", 1)[-1]
        return len(last) == 2 and last not in _VANITY_CCTLDS or last == "eu"

    sa, sb = a.suffix, b.suffix
    return (country(sa) and (country(sb) or sb in _GENERIC)) or (country(sb) and sa in _GENERIC)


# --- what an item carries ------------------------------------------------------------------------


@dataclass
class Record:
    """What resolution reads of one item."""

    index: int
    id: str
    kind: str | None
    name: str | None
    clean: str  # cleaned name ("" when none)
    core: str
    initials: str
    site: Site | None
    profiles: frozenset[str]
    aliases: frozenset[str]  # cleaned names the item says it also goes by
    alias_forms: dict[str, frozenset[str]]  # alias -> the legal forms it was written with
    alias_domains: frozenset[str]  # registered domains the item says it is also at
    employer: str  # a person's employer, cleaned ("" when unknown)
    industry: str
    location: str
    mentions: frozenset[str]  # registered domains named anywhere in the item's text
    raw_name: str  # folded full name, legal form kept

    @property
    def domain(self) -> str:
        """The registered domain of the item's own site ("" for none or a platform)."""
        return self.site.domain if self.site and not self.site.platform else ""


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _name_of(props: Json) -> str | None:
    for kind in ("company", "person", "article", "researchPaper", "custom"):
        sub = props.get(kind)
        if isinstance(sub, dict):
            for key in ("name", "title"):
                value = sub.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
    return None


def record(index: int, item: Json) -> Record:
    """Read `item` (a Websets item, properties and enrichments) into a Record."""
    props = item.get("properties") if isinstance(item.get("properties"), dict) else {}
    assert isinstance(props, dict)
    kind = props.get("type") if isinstance(props.get("type"), str) else None
    name = _name_of(props)
    url = props.get("url") if isinstance(props.get("url"), str) else None
    own = site(url) if url else None
    texts = [t for key in ("description", "content") if isinstance(props.get(key), str) for t in [props[key]]]
    texts.extend(
        sub["about"]
        for sub in (props.get("company"), props.get("person"))
        if isinstance(sub, dict) and isinstance(sub.get("about"), str)
    )
    enrichment_texts = [
        s for e in item.get("enrichments") or [] if isinstance(e, dict) for s in _strings(e.get("result"))
    ]
    everything = [*_strings(props), *enrichment_texts]
    profiles = {p for s in everything for m in _URL.findall(s) if (ps := site(m)) and (p := ps.profile)}
    if own and own.profile:
        profiles.add(own.profile)
    clean = clean_name(name) if name else ""
    aliases: set[str] = set()
    alias_forms: dict[str, frozenset[str]] = {}
    alias_domains: set[str] = set()
    if kind != "person":
        for text in [*texts, *enrichment_texts]:
            for cue in _ALIAS_CUES:
                for m in cue.finditer(text):
                    written = _trim_alias(m.group(1))
                    alias = clean_name(written)
                    if alias and alias != clean:
                        aliases.add(alias)
                        alias_forms[alias] = _legal_forms(" ".join(_words(written)), alias)
            for m in _DOMAIN_CUE.finditer(text):
                other = site(m.group(1).rstrip("."))
                if other and other.domain and not other.platform:
                    alias_domains.add(other.domain)
                elif other and other.profile:
                    profiles.add(other.profile)
            if name:  # "International Business Machines (IBM)": the abbreviation the page gives
                for m in re.finditer(re.escape(name) + r"\s*\(([A-Z][A-Za-z0-9&. ]{1,12})\)", text):
                    aliases.add(clean_name(m.group(1)))
    employer = ""
    person = props.get("person")
    if isinstance(person, dict) and isinstance(person.get("company"), dict):
        employer_name = person["company"].get("name")
        if isinstance(employer_name, str):
            employer = clean_name(employer_name)
    company = props.get("company")
    industry = fold(str(company.get("industry") or "")) if isinstance(company, dict) else ""
    location = fold(str(company.get("location") or "")) if isinstance(company, dict) else ""
    mentions = {
        d.domain
        for s in [*texts, *enrichment_texts]
        for m in _DOMAIN.findall(s)
        if (d := site(m)) and d.domain
    }
    return Record(
        index=index,
        id=str(item.get("id") or index),
        kind=kind,
        name=name,
        clean=person_key(name) if kind == "person" and name else clean,
        core=core_name(clean) if clean else "",
        initials=acronym(clean) if clean else "",
        site=own,
        profiles=frozenset(profiles),
        aliases=frozenset(aliases),
        alias_forms=alias_forms,
        alias_domains=frozenset(alias_domains - {own.domain if own else ""}),
        employer=employer,
        industry=industry,
        location=location,
        mentions=frozenset(mentions),
        raw_name=" ".join(_words(name)) if name else "",
    )


def _trim_alias(text: str) -> str:
    # "formerly Kreditor and later Klarna" -> "Kreditor"; a sentence's next word is not a name
    return re.split(r"\s+(?:and|in|since|until|before|after|which|who|is|was|,)\s+", text.strip())[0]


# --- pairwise evidence ---------------------------------------------------------------------------


def names_agree(a: str, b: str) -> str | None:
    """How two cleaned company names agree, or None: equal, one's words within the other's (on one
    site: "maersk" / "a p moller maersk"), or an abbreviation of the other (initials)."""
    if not a or not b:
        return None
    if a == b or core_name(a) == core_name(b):
        return "equal names"
    wa, wb = a.split(), b.split()
    short, long_ = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    if long_[: len(short)] == short:
        return "one name extends the other"
    if set(short) <= set(long_) or set(core_name(" ".join(short)).split()) <= set(long_):
        return "one name's words are within the other's"
    joined_a, joined_b = a.replace(" ", ""), b.replace(" ", "")
    if joined_a == joined_b:
        return "equal names but for spaces"
    for x, y in ((a, b), (b, a)):
        letters = {
            y.replace(" ", ""),
            core_name(y).replace(" ", ""),
            y.replace(" and ", " ").replace(" ", ""),
        }
        words = [w for w in x.split() if w not in ("and", "of", "the", "for", "de", "la")]
        initials = {"".join(w[0] for w in words[:k]) for k in range(2, len(words) + 1)}
        if initials & letters:
            return "abbreviation"
    from rapidfuzz import fuzz

    if fuzz.token_sort_ratio(a, b) >= 92 and min(len(joined_a), len(joined_b)) >= 10:
        return "near-equal long names"
    return None


def _legal_forms(raw: str, clean: str) -> frozenset[str]:
    return frozenset(set(raw.split()) - set(clean.split()) - {"and"})


def _alias_link(a: Record, b: Record) -> str | None:
    for x, y in ((a, b), (b, a)):
        named = y.clean if y.clean in x.aliases else y.core if y.core in x.aliases else None
        if named:
            # "Merck & Co., Inc." names Merck & Co., not Merck KGaA: legal forms written must agree
            said, has = x.alias_forms.get(named, frozenset()), _legal_forms(y.raw_name, y.clean)
            if not (said and has and not said & has):
                return f"{x.name or x.id!s} names {y.name or y.clean!r} as another name"
        if y.domain and y.domain in x.alias_domains:
            return f"{x.name or x.id!s} says it is also at {y.domain}"
    return None


def _employers_match(a: Record, b: Record) -> bool:
    return bool(a.employer and b.employer and names_agree(a.employer, b.employer))


def _corroborate(a: Record, b: Record) -> str | None:
    """What else two same-named items on regional domains share: a regional site alone can be
    another company (bolt.eu is not bolt.com)."""
    if a.domain in b.mentions or b.domain in a.mentions:
        return "one names the other's site"
    from rapidfuzz import fuzz

    if a.industry and b.industry and fuzz.token_set_ratio(a.industry, b.industry) >= 80:
        return f"same industry, {a.industry}"
    return None


def link(a: Record, b: Record) -> tuple[int, str] | None:
    """Strong evidence that `a` and `b` are one entity: (rank, reason), rank 0 strongest; else None."""
    if a.kind and b.kind and a.kind != b.kind:
        return None
    shared = a.profiles & b.profiles
    if shared:
        return 0, f"same profile URL {min(shared)}"
    if a.kind == "person" or b.kind == "person":
        if a.clean and a.clean == b.clean and _employers_match(a, b):
            return 1, f"same name and employer ({a.employer})"
        return None
    alias = _alias_link(a, b)
    if alias:
        return 1, alias
    sa, sb = a.site, b.site
    if sa and sb and a.domain and a.domain == b.domain:
        if a.kind in (None, "company", "custom") or b.kind in (None, "company", "custom"):
            if not (a.clean and b.clean):  # nothing says which entity of the site: the same page only
                return (1, f"same page {sa.canonical}") if sa.canonical == sb.canonical else None
            agree = names_agree(a.clean, b.clean)
            if not agree:  # "Koninklijke Luchtvaart Maatschappij N.V. (KLM)" / "KLM Royal Dutch Airlines"
                agree = next(
                    (
                        f"{x.name} also goes by {alias!r}"
                        for x, y in ((a, b), (b, a))
                        for alias in sorted(x.aliases)
                        if y.clean and names_agree(alias, y.clean)
                    ),
                    None,
                )
            if agree:
                return 1, f"same registered domain {a.domain} ({agree})"
            return None
        # pages (articles, papers): the same page
        if sa.canonical == sb.canonical:
            return 1, f"same page {sa.canonical}"
        if a.clean and a.clean == b.clean:
            return 2, f"same title on {a.domain}"
        return None
    if sa and sb and a.domain and b.domain and a.core and a.core == b.core and _regional(sa, sb):
        corroboration = _corroborate(a, b)
        if corroboration:
            return 2, f"same name on regional domains {a.domain} / {b.domain} ({corroboration})"
    if a.kind == "research_paper" and a.clean and a.clean == b.clean and len(a.clean) >= 20:
        return 2, "same paper title"
    if not a.domain and not b.domain and not (a.profiles or b.profiles) and a.clean and a.clean == b.clean:
        return 3, "same cleaned name, neither item has a site"
    if (
        (not a.domain or not b.domain)
        and not (a.profiles and b.profiles)
        and a.raw_name
        and a.raw_name == b.raw_name
    ):
        return 3, "same full name (legal form included), one item has no site"
    return None


def conflict(a: Record, b: Record, linked: Any) -> str | None:
    """A contradiction that forbids `a` and `b` in one entity, whatever links them: else None.

    `linked(d1, d2)` says whether evidence already tied two registered domains together."""
    if a.kind and b.kind and a.kind != b.kind:
        return "different kinds"
    if a.profiles & b.profiles:
        return None
    platforms = {p.split("/")[0] for p in a.profiles} & {p.split("/")[0] for p in b.profiles}
    for platform in platforms:
        pa = {p for p in a.profiles if p.startswith(platform + "/")}
        pb = {p for p in b.profiles if p.startswith(platform + "/")}
        if pa and pb and not pa & pb:
            return f"different profiles on {platform}"
    if a.kind == "person" or b.kind == "person":
        if a.clean != b.clean:
            return "different names"
        if a.employer and b.employer and not _employers_match(a, b):
            return f"different employers ({a.employer} / {b.employer})"
        return None
    if a.domain and b.domain and a.domain != b.domain and not linked(a.domain, b.domain):
        return f"different registered domains ({a.domain} / {b.domain})"
    if (
        bool(a.domain) != bool(b.domain)
        and a.clean
        and b.clean
        and a.raw_name != b.raw_name
        and not _alias_link(a, b)
    ):
        return "one item has no site and the names differ"
    return None


# --- clustering ----------------------------------------------------------------------------------


@dataclass
class Resolution:
    """Items grouped into entities: `groups[k]` are item indices (first-seen order), `reasons[k]`
    the merges that made group k, each {items: [id, id], reason}."""

    groups: list[list[int]]
    reasons: list[list[Json]] = field(default_factory=list)

    def group_of(self) -> dict[int, int]:
        """item index -> its group's index."""
        return {i: k for k, members in enumerate(self.groups) for i in members}


def _blocks(records: Sequence[Record]) -> Iterable[list[int]]:
    keys: dict[str, list[int]] = {}
    for r in records:
        own: set[str] = {f"p:{p}" for p in r.profiles}
        if r.domain:
            own.add(f"d:{r.domain}")
            own.add(f"l:{r.site.label if r.site else ''}")
        if r.clean:
            own.add(f"n:{r.clean}")
            own.add(f"n:{r.core}")
            own.add(f"n:{r.clean.replace(' ', '')}")
        own.update(f"n:{a}" for a in r.aliases)
        own.update(f"d:{d}" for d in r.alias_domains)
        for k in own:
            keys.setdefault(k, []).append(r.index)
    return (members for members in keys.values() if len(members) > 1)


def resolve(items: Sequence[Json]) -> Resolution:
    """Group `items` into entities; see the module docstring for the rules."""
    records = [record(i, item) for i, item in enumerate(items)]
    edges: dict[tuple[int, int], tuple[int, str]] = {}
    for members in _blocks(records):
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                i, j = members[x], members[y]
                if (i, j) in edges:
                    continue
                found = link(records[i], records[j])
                if found:
                    edges[(i, j)] = found
    # Registered domains tied together by accepted evidence (alias, regional site, shared profile).
    domain_parent: dict[str, str] = {}

    def droot(d: str) -> str:
        while domain_parent.get(d, d) != d:
            d = domain_parent[d]
        return d

    group: dict[int, list[int]] = {r.index: [r.index] for r in records}
    owner = {r.index: r.index for r in records}
    reasons: dict[int, list[Json]] = {r.index: [] for r in records}
    for (i, j), (_, reason) in sorted(edges.items(), key=lambda e: (e[1][0], e[0])):
        gi, gj = owner[i], owner[j]
        if gi == gj:
            continue
        da, db = records[i].domain, records[j].domain
        pending = {droot(da), droot(db)} if da and db else set()

        def linked(d1: str, d2: str, pending: set[str] = pending) -> bool:
            r1, r2 = droot(d1), droot(d2)
            return r1 == r2 or (r1 in pending and r2 in pending)

        if any(conflict(records[p], records[q], linked) for p in group[gi] for q in group[gj]):
            continue
        if da and db and da != db:
            domain_parent[droot(db)] = droot(da)
        keep, gone = min(gi, gj), max(gi, gj)
        group[keep] = sorted(group[keep] + group.pop(gone))
        for member in group[keep]:
            owner[member] = keep
        reasons[keep] = [
            *reasons[keep],
            *reasons.pop(gone),
            {"items": [records[i].id, records[j].id], "reason": reason},
        ]
    order = sorted(group)
    return Resolution([group[k] for k in order], [reasons[k] for k in order])


def entity_key(item: Json) -> str:
    """One item's identity without the others: a profile URL, else its registered domain and
    cleaned name, else its canonical URL, name or id. For sets of items use `resolve`."""
    r = record(0, item)
    if r.kind == "person":
        if r.profiles:
            return "profile:" + min(r.profiles)
        return f"person:{r.clean}@{r.employer}"
    if r.domain and r.clean and r.kind in (None, "company", "custom"):
        return f"site:{r.domain}"
    if r.site:
        return "url:" + r.site.canonical
    if r.clean:
        return "name:" + r.clean
    return "id:" + str(item.get("id"))
