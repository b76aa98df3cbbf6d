"""A profile page on a shared host about the company whose own site another record is.

A page on Wikipedia, a LinkedIn company page, Crunchbase, or a Medium or Substack publication
(hosts.HOSTS) is about the entity it names, never the host's. It joins a company's own site when:
- **the names agree**: one name (equal, but for spaces or a legal form: "Vale S.A." / "Vale"); the
  initials of the other's full name ("United Microelectronics Corporation" / "UMC"); the profile's
  path equals the site's label ("linkedin.com/company/sabic" / sabic.com, "jumia-group" / jumia),
  or a quote page's ticker opens the label or writes four of its letters in order (CEB:PM /
  cebupacificair.com, AMRT.JK / alfamart.co.id); a listing's page named by a ticker alone whose
  letters the site's name writes in order ("PNBN" / Panin Bank);
  one name adding only the country both are of ("Saudi Aramco" / "Aramco") or writing it elsewhere
  ("India Yamaha Motor" / "Yamaha Motor India"); or the page says it is
  the company's blog, newsroom or publication ("Swiggy Bytes is the technology blog of Swiggy's
  engineering ...": `Record.publisher`);
- **and** both are of one known country (countries.py; unknown is not enough), **and** one
  industry, or their texts share a word that says what the company does (`Record.topics`: "mining",
  "chemicals"), or one names the other's site; or one text states a country, the other (a site
  under no country's suffix) none, and they share two such words (a global site rarely says where
  it is based);
- or **the site's name leads the profile's**, or stands inside it, by one to three words ("Vestas" /
  "Vestas Wind Systems A/S", "Campari" / "Davide Campari-Milano"), with one known country and one
  industry (or two words of trade) both say (`_leading`);
- **and** nothing is against (evidence.compare: a stated owner, two known countries, legal forms).
One name in two countries (Metro AG / Metro Inc.) or two industries (Giant bicycles / Giant Food)
stays two. An app store's pages are families.app_pages'.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from exa_orch.workflows.entities import families, short_names
from exa_orch.workflows.entities.countries import is_place, known, of_country
from exa_orch.workflows.entities.families import JOIN, Evidence, adds_its_trade, is_app, plural_agree, stem
from exa_orch.workflows.entities.given_match import forms
from exa_orch.workflows.entities.glossary import agrees as reading_agrees
from exa_orch.workflows.entities.home_pages import label_reads
from exa_orch.workflows.entities.latin_forms import ENGLISH_FORMS
from exa_orch.workflows.entities.latin_words import GROUPS, KIND_OPENERS
from exa_orch.workflows.entities.listings import abbreviates, listed_apart, listing, quoted, ticker_named
from exa_orch.workflows.entities.names import (
    DESIGNATORS,
    NEAR_EQUAL,
    ONE_NAME,
    adds_a_designator,
    core_name,
    extra_words,
    fold,
    initialism,
    legal_forms,
    names_agree,
    words,
)
from exa_orch.workflows.entities.read_names import read_in_part
from exa_orch.workflows.entities.script_forms import cjk_forms
from exa_orch.workflows.entities.sites import country_suffix, listing_slug

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record


def _where(page: Record) -> str:
    """The profile a page is, or the page itself (a news host's article has no profile)."""
    return (page.site.profile or page.site.canonical) if page.site else ""


def profile_slug(page: Record) -> str:
    """The profile's last path part as a label would write it ("company/fortescue-metals-group" ->
    "fortescuemetals", "company/sabic" -> "sabic"); a ticker's letters, its exchange and share
    class left out ("company/PAYTM:IN" -> "paytm", "company/UPM1V:FH" -> "upm")."""
    if not page.site:
        return ""
    last = (page.site.profile or "").rstrip("/").rsplit("/", 1)[-1].lower()
    if quoted(page.site):
        letters = re.match(r"[a-z]+", last.rpartition("=")[2])
        return letters.group(0) if letters else ""
    last = fold(unquote(last)).replace("_", "-")  # en.wikipedia.org/wiki/Heidelberg_Materials; 海尔, haier
    return stem(last) if last and "=" not in last else ""


def _names(page: Record, own: Record) -> str | None:
    """How the page's name (or what it says it is of) agrees with the site's, or None."""
    return _written_alike(page, own) or _site_named(page, own)


def _written_alike(page: Record, own: Record) -> str | None:
    """One name, a reading of one in another script (or its site's label's), its province added, or initials."""
    agree = names_agree(page.clean, own.clean)
    if agree in ONE_NAME:
        return agree
    if plural := plural_agree(page.clean, own.clean):  # "Dulux Decorator Centres" / "... Centre"
        return plural
    titled = names_agree(page.titled, own.clean) if page.titled else None
    if titled in ONE_NAME:  # "HeidelbergCement" at wiki/Heidelberg_Materials: the article's subject
        return f"the article's title, {page.titled!r}, and {own.name}: {titled}"
    read = reading_agrees(page.name or "", page.clean, own.name or "", own.clean) or label_reads(own, page)
    if read := read or short_names.one_name(page.name or "", own.name or ""):
        return read
    for x, y in ((page, own), (own, page)):
        if (
            " " not in y.clean
            and len(y.clean) >= 3
            and x.raw_name
            and _initials(x.raw_name, y.clean, _forms(x))
        ):
            return f"{y.name} is the initials of {x.name}"
    # a letter or two apart, or one word more naming the trade both state: with what corroborates
    return agree if agree == NEAR_EQUAL else adds_its_trade(page, own)


def _site_named(page: Record, own: Record) -> str | None:
    """The profile's path or name is the site's label or name (`_label_named`), the page says it is
    the site's, or one name adds only the country."""
    assert own.site is not None
    # the site's label names its owner: a page deep in it under another name (aholddelhaize.com/
    # brands/albert-heijn) is about a unit, not the owner the profile is
    owners_page = not own.site.path or names_agree(own.clean, own.site.label) in ONE_NAME
    slug = profile_slug(page)
    if labelled := _label_named(page, own, slug, owners_page):
        return labelled
    if ticker := _by_ticker(page, own, slug, owners_page):
        return ticker
    if page.publisher and names_agree(page.publisher, own.clean) in ONE_NAME:
        return f"{page.name} says it is {own.name}'s"
    extra = set(page.core.split()) ^ set(own.core.split())
    if page.core and own.core and extra and all(of_country(w, own.country) for w in extra):
        return f"one name adds only the country, {' '.join(sorted(extra))!r}"
    if _country_moved(page.core.split(), own.core.split(), own.country):
        return "one name writes the country elsewhere in it"  # India Yamaha Motor / Yamaha Motor India
    return None


_BRACKETED = re.compile(r"\(([A-Z][A-Z0-9]{2,})\)\s*$")


def _by_ticker(page: Record, own: Record, slug: str, owners_page: bool) -> str | None:
    """A quote page's ticker (`slug`, its letters) that opens the label of the site's owner's page or
    writes four of its letters in order (listings.abbreviates: CEB:PM / cebupacificair, AMRT.JK /
    alfamart); or a listing's page named by a ticker alone whose letters the site's name writes in
    order ("PNBN" / Panin Bank)."""
    label = own.site.label.replace("-", "") if own.site else ""
    opens = len(slug) >= 3 and (label.startswith(slug) or abbreviates(slug, label))
    # a short name the page gives itself in brackets that is neither the ticker nor the label's
    # start ("Egyptian Intl Pharmaceuticals (EIPICO)" quoted as PHAR): not the company of pharco.org
    short = _BRACKETED.search(page.name or "")
    other = short and short.group(1).lower() != slug and not label.startswith(short.group(1).lower()[:3])
    if owners_page and opens and quoted(page.site) and not other:
        return f"the ticker in {_where(page)} opens the site's label, {label}"
    if (ticker := ticker_named(page.name or "", page.site)) and abbreviates(
        ticker, own.clean.replace(" ", "")
    ):
        return f"{page.name}, the ticker a listing's page names it by, abbreviates {own.name}"
    return None


def _label_named(page: Record, own: Record, slug: str, owners_page: bool) -> str | None:
    """The profile's path (`slug`) is the site's label or name, or its name is the label, written
    together or without its country's word (`_site_named`); else a listing's path so (sites.listing_slug)."""
    assert own.site is not None
    where, label = _where(page), own.site.label.replace("-", "")
    if slug and slug in (label, stem(own.site.label)) and owners_page:
        return f"the profile {where} is the site's label"
    if len(slug) >= 3 and slug == own.clean.replace(" ", ""):
        return f"the profile {where} is {own.name}'s name"
    if len(page.clean) >= 3 and page.clean.replace(" ", "") == label and owners_page:
        return f"{page.name} is the site's label, {own.site.label}"  # "3DS" / 3ds.com, t-hasegawa
    # without its country's word: "China Singyes Solar" on a profile, 興業太陽能 at singyessolar.com
    unplaced = "".join(w for w in page.clean.split() if not of_country(w, own.country))
    if len(unplaced) >= 8 and unplaced == label and owners_page and unplaced != page.clean.replace(" ", ""):
        return f"{page.name} is the site's label, {own.site.label}, and the country"
    listed = "" if slug or not page.site else stem(listing_slug(page.site))  # a listing's path names it
    return _label_named(page, own, listed, owners_page) if listed else None


def _country_moved(x: list[str], y: list[str], country: str) -> bool:
    """Two names of the same words, one of them the country both are of, written at another place
    in each ("india yamaha motor" / "yamaha motor india"); the other words in one order."""
    if x == y or sorted(x) != sorted(y) or len(x) < 3:
        return False
    moved = [w for w in x if of_country(w, country)]
    return bool(moved) and [w for w in x if w not in moved] == [w for w in y if w not in moved]


def _initials(written: str, short: str, forms: frozenset[str] = frozenset()) -> bool:
    """`short` is the initials of `written`, its small words kept or not ("energias de portugal" ->
    "edp"), or with its legal form's (Limited, Corporation) or Group's after them ("godrej consumer
    products" -> "gcpl", "coal india" -> "cil", "semen indonesia group" -> "sig"). After the
    initials of two words the added letter must be a form the record writes (`forms`: "Coal India
    Limited is ..."): "ACC" is not Ambuja Cement's, a two-letter base and a guessed "Company" match
    too many names."""
    every = "".join(w[0] for w in written.split())
    base = short[:-1] if short[-1:] in ("l", "c", "g") and len(short) >= 3 else ""
    if len(base) == 2 and not any(f[:1] == short[-1] for f in forms):
        base = ""
    return initialism(written, short) or every == short or (len(base) >= 2 and every == base)


def stated_forms(r: Record) -> frozenset[str]:
    """The legal forms a company's record writes: in its name (those cleaning dropped) and in its
    text after its name (`written_forms`: "Coal India Limited is ...")."""
    return legal_forms(r.raw_name, r.clean) | r.written_forms | cjk_forms(r.name or "")


def _forms(r: Record) -> frozenset[str]:
    """The legal form and group words a company's record writes: what an initialism's last letter
    may stand for."""
    return stated_forms(r) | ({"group"} if GROUPS & set(r.raw_name.split()) else set())


def _shared_topics(page: Record, own: Record) -> list[str]:
    """Words both texts say the company does, by their first six letters ("chemicals" / "chemical"),
    less the words both names hold (already weighed as names)."""
    named = {w[:6] for w in set(page.raw_name.split()) & set(own.raw_name.split())}
    return sorted(({w[:6] for w in page.topics} & {w[:6] for w in own.topics}) - named)


def _one_side_silent(page: Record, own: Record) -> str | None:
    """One text states a country and the other none, on a site under no country's suffix
    ("Sandvik AB is a Swedish ..." / home.sandvik, "Sandvik is a global engineering group"): a
    global site rarely says where it is based, so two words of trade both say stand in for the
    country (one word is not enough: "Giant" bicycles and "Giant" food share "stores")."""
    countries = [c for c in (page.country, own.country) if c]
    if len(countries) != 1 or not known(countries[0]) or (own.site and country_suffix(own.site.suffix)):
        return None
    if page.industry and own.industry:
        return None
    shared = _shared_topics(page, own)
    if len(shared) >= 2:
        return f"one says {countries[0]}, the other no country, and both say {shared[0]!r} and {shared[1]!r}"
    return None


def _corroborated(page: Record, own: Record) -> str | None:
    """What, beside the names, says the page and the site are one company's; None when nothing does."""
    if not (known(page.country) and page.country == own.country):
        return _one_side_silent(page, own)
    if page.industry and page.industry == own.industry:
        return f"both based in {own.country} and in {own.industry}"
    if own.domain in page.mentions:
        return f"both based in {own.country}, and {page.name} names {own.domain}"
    shared = _shared_topics(page, own)
    if shared and not (page.industry and own.industry):
        return f"both based in {own.country}, and both say {shared[0]!r}"
    return None


def _leading(page: Record, own: Record) -> str | None:
    """One name is the other's leading words, one to three more after it ("Vestas" / "Vestas Wind
    Systems A/S", "Emaar" / "Emaar Properties PJSC"), or stands whole inside it ("Generali" /
    "Assicurazioni Generali", "Campari" / "Davide Campari-Milano": `_placed`), the site's name the
    shorter or the profile's (a page under the brand, "Cerberus", beside the site's "Cerberus
    Capital Management"), and more than one name says so: one known country, and one industry or
    two words of trade both texts say ("Giant" bicycles / "Giant Food": two industries;
    "Britannia" biscuits of India / "Britannia Hotels": two countries)."""
    return (
        _leads(page, own, page.core.split(), page.name or page.clean)
        or _stated_leading(page, own)
        or _unspaced_leading(page, own)
    )


def _unspaced_leading(page: Record, own: Record) -> str | None:
    """`_leading` for two names written without spaces (short_names.unspaced_leading), and for a
    Japanese or a Taiwanese market site's short name of the site's (short_names.abbreviated: 台塑化 of
    台塑石化, as Taiwan's exchange shortens names too)."""
    read = short_names.unspaced_leading(page.name or "", own.name or "")
    if not read and listing(page.site).startswith(_SHORTENING):
        read = short_names.abbreviated(page.name or "", own.name or "")
    return _leads(page, own, read[1], read[0], ours=read[2]) if read else None


def _stated_leading(page: Record, own: Record) -> str | None:
    """`_leading` by a name the page states as its own ("大立光電股份有限公司（英語：Largan
    Precision）" beside LARGAN at largan.com.tw), or by the reading it gives of a name in
    another script, which begins with the site's one-word name ("株式会社河合楽器製作所
    （かわいがっきせいさくしょ）", read kawaigakkiseisakusho, beside Kawai)."""
    one = own.core if " " not in own.core and len(own.core) >= 4 and own.core not in DESIGNATORS else ""
    for alias in sorted(page.aliases):
        if one and " " not in alias and alias.startswith(one) and len(alias) > len(one) + 2:
            said = _leads(page, own, [one, alias[len(one) :]], alias)
        else:
            said = _leads(page, own, core_name(alias).split(), alias)
        if said:
            return f"{page.name} states {alias!r}: {said}"
    return None


def _leads(
    page: Record, own: Record, theirs: list[str], written: str, ours: list[str] | None = None
) -> str | None:
    """`_leading` with the profile's name as the words `theirs` (`written` as the reason says it),
    the site's as `ours` (its core's words unless given)."""
    placed = _placed(own.core.split() if ours is None else ours, theirs)
    if placed is None or not (known(page.country) and page.country == own.country):
        return None
    site_shorter, at, added = placed
    # a place the longer name adds is one the other record must say (`_unsaid_place`); a given
    # name before a family's ("Paul Hartmann AG" beside HARTMANN) is the founder's, not a place
    founder = [w for w in added[:at] if len(forms(w)) > 1]
    if _unsaid_place([w for w in added if w not in founder], own if site_shorter else page):
        return None
    first, second = (own.name, written) if site_shorter else (written, own.name)
    verb = "leads" if at == 0 else "stands in"
    if page.industry and own.industry:
        same = page.industry == own.industry
        return (
            f"{first} {verb} {second}'s name, both based in {own.country} and in {own.industry}"
            if same
            else None
        )
    shared = _shared_topics(page, own)
    if len(shared) >= 2:
        return f"{first} {verb} {second}'s name, both based in {own.country}, both say {shared[0]!r} and {shared[1]!r}"
    return None


_SMALL = frozenset("de des du la le of the and y e et ve".split())
# The words of Turkish corporate names' "Sanayi ve Ticaret" (industry and trade) a brand's legal
# name adds after its trade ("Karsan Otomotiv Sanayii ve Ticaret A.S.": Karsan, automotive), as
# English names add "Industries": no word of the brand's
_TURKISH_TRADE = frozenset("sanayi sanayii ticaret".split())


def plainer_names(r: Record) -> list[str]:
    """`r`'s core name without what a page adds to a name stated elsewhere: words saying what kind
    of body it is before it ("Compagnie Plastic Omnium": Plastic Omnium), or its country's name
    ("Tigo Tanzania", a company of Tanzania: Tigo); none when nothing is left or nothing goes."""
    ws = r.core.split()
    found = []
    kind = list(itertools.dropwhile(lambda w: w in KIND_OPENERS or w in _SMALL, ws))
    if kind and len(kind) < len(ws):
        found.append(" ".join(kind))
    placed = [w for w in ws if not of_country(w, r.country)] if known(r.country) else ws
    if placed and len(placed) < len(ws):
        found.append(" ".join(placed))
    return found


_NUMBER_SIGNS = frozenset("no nr number".split())  # "No. 1", "Nr. 2", "№ 3" (folded to "no")


def _placed(mine: list[str], theirs: list[str]) -> tuple[bool, int, list[str]] | None:
    """Where the shorter of two names' words (the site's `mine`, the profile's `theirs`) stand
    together in the longer, which adds one to three words (small words not counted: "Compagnie
    Generale des Etablissements Michelin" adds three; nor `_TURKISH_TRADE`'s): (the site's is the
    shorter, where, the words added), or None. Leading, three letters suffice, or after words saying
    only what kind of body it is (`KIND_OPENERS`: "Société BIC"); after another first word, five,
    not designators alone ("Norsk Hydro" / "Hydro", never "Bank")."""
    mine = [w for w in mine if w not in _SMALL] or mine
    theirs = [w for w in theirs if w not in _SMALL] or theirs
    short, long_ = sorted((mine, theirs), key=len)
    trade = sum(w in _TURKISH_TRADE for w in long_)
    if not short or len(short[0]) < 3 or not 0 < len(long_) - len(short) <= 3 + trade:
        return None
    at = _within(short, long_)
    opened = at is not None and set(long_[:at]) <= KIND_OPENERS
    if at is None or (at and not opened and (len(" ".join(short)) < 5 or set(short) <= DESIGNATORS)):
        return None
    added = long_[:at] + long_[at + len(short) :]
    # a unit's number the longer adds names one of several ("Yerevan Jewelry Factory No. 1")
    if any(w in _NUMBER_SIGNS and n.isdigit() for w, n in itertools.pairwise(added)):
        return None
    return short is mine, at, added


def _within(short: list[str], long_: list[str]) -> int | None:
    """Where `short`'s words stand together in `long_` (its first place), or None."""
    n = len(short)
    return next((i for i in range(len(long_) - n + 1) if long_[i : i + n] == short), None)


def _unsaid_place(added: list[str], other: Record) -> bool:
    """A place among the words the longer name adds ("SECU Maryland" beside "SECU"), which the
    record under the shorter name does not say it is in: another region's company of the name
    (the SECU of North Carolina is not Maryland's), or a regional unit of its owner."""
    said = {w[:6] for w in other.topics} | {w[:6] for w in words(other.location)}
    runs = [*added, *(" ".join(pair) for pair in itertools.pairwise(added))]
    return any(is_place(run) and not {w[:6] for w in run.split()} <= said for run in runs)


def page_about(a: Record, b: Record, ev: Evidence) -> None:
    """A profile page on a shared host about the company of the other's own site (module docstring)."""
    for page, own in ((a, b), (b, a)):
        # a profile, or an article on a news host (hosts "none": no profile, never the company's site)
        if not (page.site and page.site.platform and not page.domain and own.domain and own.site):
            continue
        if is_app(page.site) or not (page.clean and own.clean):
            continue
        named = _names(page, own)
        said = _corroborated(page, own) if named else None
        leads = None if named else _leading(page, own)
        if leads:
            ev.for_.append(
                (JOIN, f"{page.name} on {_where(page)} is about {own.name} of {own.domain}: {leads}")
            )
            return
        if named and named.endswith("'s") and not said:  # the page says whose it is: that is its identity
            said = "nothing against"
        if named and not said:  # kept as the reason the two stay apart (Evidence.why_apart)
            ev.for_.append(
                (
                    0.5,
                    f"{page.name} on {_where(page)} and {own.domain}: {named}, but no known "
                    "country and trade both say",
                )
            )
        if named and said:
            where = _where(page)
            ev.for_.append(
                (JOIN, f"{page.name} on {where} is about {own.name} of {own.domain} ({named}), and {said}")
            )
            return


def two_profiles(a: Record, b: Record, ev: Evidence) -> None:
    """Two profile pages on two hosts (a Wikipedia article and a LinkedIn page, an app's store page
    and its Wikipedia article), or a profile and a publisher's article about the company (a page
    on a news host, no profile: sites.page_site), under one name, each about the company it
    names: one company when what corroborates a page and a site does (one known country and one
    trade, `_corroborated`)."""
    if sum(w for w, _ in ev.for_) >= JOIN or not (a.site and b.site and a.site.platform and b.site.platform):
        return
    if not (a.site.profile or b.site.profile):  # two articles: each is about many, neither a profile
        return
    if a.domain or b.domain or a.site.host == b.site.host or not (a.clean and b.clean):
        return
    if not (a.site.profile and b.site.profile):
        _profile_and_article(a, b, ev)
        return
    agree = _one_name(a, b)
    said = _corroborated(a, b) if agree else None
    if said:
        ev.for_.append((JOIN, f"{a.name} on {a.site.profile} and on {b.site.profile} ({agree}), and {said}"))


def _profile_and_article(a: Record, b: Record, ev: Evidence) -> None:
    """A profile and a publisher's article about a company, weighed as a profile and a site are
    (`page_about`): names that agree, or one leading the other, with a country and a trade; never
    two legal forms written ("Lumen SE" / "Lumen AG": two companies)."""
    forms = (stated_forms(a), stated_forms(b))
    if all(forms) and not forms[0] & forms[1] and not any(f <= ENGLISH_FORMS for f in forms):
        return
    named = _written_alike(a, b)
    said = _corroborated(a, b) if named else _leading(a, b)
    if said and not listed_apart(a.site, b.site, not named or read_in_part(named)):
        why = f"{named}, and {said}" if named else said
        ev.for_.append((JOIN, f"{a.name} on {_where(a)} and {b.name} on {_where(b)}: {why}"))


def _one_name(a: Record, b: Record) -> str | None:
    """Two profiles' names as one: equal (an article's title as its subject's name, articles.title_of),
    a reading of one in another script (read_names.reading_agrees), or a listing's short name of the
    other (short_names.listed_short, `_abbreviated`)."""
    agree = names_agree(a.clean, b.clean)
    for x, y in ((a, b), (b, a)):
        if agree not in ONE_NAME and x.titled:
            agree = names_agree(x.titled, y.clean)
    if agree in ONE_NAME:
        return agree
    # one adding a word of its kind only ("Kaupthing Bank" / Kaupþing), none that names another
    # company of the name (a group, a holding, an international arm)
    if adds_a_designator(a.clean, b.clean):
        return f"one name adds {' '.join(sorted(extra_words(a.clean, b.clean)))!r}"
    read = reading_agrees(a.name or "", a.clean, b.name or "", b.clean)
    read = read or short_names.one_name(a.name or "", b.name or "") or families.adds_its_country(a, b)
    # a quote page's (or a page naming its listing) short name and a joint-stock company's legal
    # name (帝尔激光 / 武汉帝尔激光科技股份有限公司)
    quote, legal = (a, b) if a.listed or listing(a.site) else (b, a)
    listed = quote.listed or listing(quote.site)
    return (
        read
        or (listed and short_names.listed_short(quote.name or "", legal.name or ""))
        or _abbreviated(a, b)
    )


def _abbreviated(a: Record, b: Record) -> str | None:
    """A Japanese or Taiwanese market site's short name of the other's name (`_unspaced_leading`)."""
    for x, y in ((a, b), (b, a)):
        if listing(x.site).startswith(_SHORTENING) and short_names.abbreviated(x.name or "", y.name or ""):
            return f"{x.name} is a market site's short name of {y.name}"
    return None


_SHORTENING = ("jp:", "tw:")  # the markets whose sites shorten names so (short_names.abbreviated)
