"""One company on several sites: evidence read from the sites' labels, app-store pages, and a page
about the company on another's site. Company records only (evidence.py calls in; people never).

- **one stem**: two labels that are one stem once corporate and legal affixes are off
  (theheinekencompany / heineken, icbc-ltd / icbc, migroskurumsal / migros, flysas / sasgroup), or
  two sites each named for its own record (koreanairlines.com / kal.com "KAL", initials of three
  letters or more), with names that agree as one name or initials. A label is a brand, not a legal
  entity: this joins only with corroboration (both say the same country, or the same industry on
  two generic domains of one stem; one names the other's site; the same owner), never across two
  countries' suffixes; a verb before the name (flysas, getnotion) needs country and industry both.
- **an app's pages**: a Google Play package is its developer's domain reversed (Android's
  convention: com.duolingo is duolingo.com), read with a title that starts with the site's name; an
  app named as the company is ("Uber" / "Uber Technologies, Inc.") where both say one country; one
  app title on two stores is one app.
- **a page about the company on another's site**: the same name of two or more words on a deeper
  page whose last path segment names it (ril.com/ourbusinesses/retail, "Reliance Retail"), or
  whose records say one country, and on the home page of a site its name spells
  (relianceretail.com, hkland.com "Hongkong Land").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

from exa_orch.workflows.entities.alphabets import compound_initials
from exa_orch.workflows.entities.countries import known, of_country
from exa_orch.workflows.entities.glossary import agrees, trade_unsaid
from exa_orch.workflows.entities.names import (
    DESIGNATORS,
    JOINING_WORD,
    STOP_WORDS,
    acronym,
    extra_words,
    is_latin,
    names_agree,
)
from exa_orch.workflows.entities.read_names import read_in_part
from exa_orch.workflows.entities.sites import country_suffix

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record
    from exa_orch.workflows.entities.sites import Site

JOIN = 4.0  # evidence.JOIN: what one piece of evidence here weighs


class Evidence(Protocol):
    """What evidence.Evidence is to this module: the list evidence for is added to."""

    for_: list[tuple[float, str]]


# Affixes a company's own label adds to its stem: corporate words (English and the languages
# companies write them in: Turkish kurumsal, Spanish/Portuguese corporativo, German Konzern and
# Unternehmen), legal forms, and verbs of a consumer site (flysas, mybmw, gojek's "go" is not one).
_SUFFIXES = (
    "group", "groupe", "gruppe", "grupo", "gruppo", "corporate", "corporativo", "corporativa", "kurumsal",
    "konzern", "unternehmen", "company", "companies", "corp", "global", "holdings", "holding", "inc", "ltd",
    "limited", "plc", "llc", "hq", "ag", "sa", "nv", "se", "intl", "world", "investors", "investor", "ir",
    "careers", "newsroom",
)  # fmt: skip
_JOINED_FORMS = ("ag", "sa", "se", "nv")  # legal forms written onto the label: volkswagenag
# verbs and pronouns, and a corporate site's "about" (aboutcoupang): "the" (theheinekencompany) is always off
_PREFIXES = ("fly", "my", "visit", "get", "about")
# Words a legal name adds to its brand that name no other unit: the trade word of Turkish (ticaret,
# sanayi), German (handels) and Romance (comercio, commerciale) corporate names. Not DESIGNATORS'
# "labs", "software", "systems": Notion and Notion Labs can be two companies.
_TRADE = frozenset("ticaret sanayi handels handel comercio comercial commerciale".split())
# Words a legal name puts before its brand: "Deutsche Lufthansa", "Koninklijke Philips", "Compagnie
# de Saint-Gobain". Not "Royal": the Royal Bank of Scotland is not the Bank of Scotland.
_LEADS = frozenset("deutsche koninklijke compagnie societe groupe grupo".split())
_APP_HOSTS = ("play.google.com", "apps.apple.com")
_ONE_NAME = ("equal names", "equal names but for spaces", JOINING_WORD)


def stem(label: str, *, prefixes: bool = True) -> str:
    """A label without the corporate and legal affixes its owner adds ("theheinekencompany" ->
    "heineken", "icbc-ltd" -> "icbc", "flysas" -> "sas"); never shorter than two characters."""
    s = label
    changed = True
    while changed:
        changed = False
        for w in _SUFFIXES:  # a two-letter one only after a hyphen: "mesa" is not "me" + S.A.
            cut = w if len(w) > 2 else "-" + w
            if s.endswith(cut) and len(s.rstrip("-")) - len(cut) >= 2:
                s, changed = s[: -len(cut)].rstrip("-"), True
                break
        for w in (*_PREFIXES, "the") if prefixes else ("the",):
            if s.startswith(w) and len(s) - len(w) >= 2:
                s, changed = s[len(w) :].lstrip("-"), True
                break
    return s.replace("-", "")


def _stems(label: str, *, prefixes: bool = True) -> set[str]:
    """The label's stem, and the stem without a legal form written onto it (volkswagenag)."""
    own = {stem(label, prefixes=prefixes)}
    own.update(
        stem(label[:-2], prefixes=prefixes) for w in _JOINED_FORMS if label.endswith(w) and len(label) >= 6
    )
    return {s for s in own if len(s) >= 2}


def _eponymous(r: Record) -> bool:
    """The record's site is named for it: the label's stem is its name written together or its initials."""
    if not r.site:
        return False
    own = {r.clean.replace(" ", ""), r.core.replace(" ", ""), r.initials, r.clean.replace(" and ", "")}
    return stem(r.site.label) in own - {""} or stem(r.site.label) == _bare(r.core)


def _bare(core: str) -> str:
    """A name without the trade words it closes on, written together ("dell technologies" -> "dell"):
    the name its brand goes by; "" when it closes on none."""
    bare = _brand_words(core)
    return "".join(bare) if len(bare) < len(core.split()) else ""


def _brand_words(core: str) -> list[str]:
    """A name's words but the trade words it closes on ("uber technologies" -> ["uber"]), one kept."""
    bare = core.split()
    while len(bare) > 1 and bare[-1] in DESIGNATORS:
        bare.pop()
    return bare


_FORMS = frozenset("co inc ltd llc plc ag sa se nv bv gmbh corp".split())
# Words a company's site adds to its name in its label (lufthansagroup.com, hudsongroup.com).
GROUP_WORDS = (
    "group", "corp", "corporate", "global", "holdings", "holding", "inc", "hq", "ag", "intl", "international", "world",
)  # fmt: skip


# Words an industry says the kind of body by, not its trade: a trade association of pump makers and
# one of textile mills are two trades
_BODY_WORDS = frozenset({"trade", "association", "federation", "chamber"})


# A bank's and an insurer's words in a name, and how an industry says the trade: a bank's name
# adding an insurer's word names its insurance arm (Argenta / Argenta Assuranties), an insurer's
# adding a bank's its bank
_INSURER_WORDS = frozenset(
    "insurance insurances assurance assurances assuranties verzekeringen verzekering versicherung "
    "versicherungen seguros seguro assicurazioni ubezpieczenia pojistovna poistovna biztosito sigorta "
    "asigurari osiguranje zavarovalnica forsikring forsakring vakuutus".split()
)
_BANK_WORDS = frozenset("bank banka banco banque banca bankasi spaarbank sparkasse".split())


def other_trade_unit(added: frozenset[str], industry: str) -> str | None:
    """The insurer's word a name adds to a bank's, or the bank's word it adds to an insurer's, as
    the other's industry says its trade (a bank's: "bank" and no "insur" or "assur"); None when it
    adds neither or the industry says both or neither."""
    insurer = "insur" in industry or "assur" in industry
    bank = "bank" in industry
    if bank and not insurer:
        return next((w for w in sorted(added) if w in _INSURER_WORDS), None)
    if insurer and not bank:
        return next((w for w in sorted(added) if w in _BANK_WORDS), None)
    return None


def two_trades(a: Record, b: Record) -> bool:
    """Both records name an industry and the two share no word of four letters or more but the
    words of a kind of body (`_BODY_WORDS`)."""
    wa = {w for w in a.industry.split() if len(w) >= 4 and w not in _BODY_WORDS}
    wb = {w for w in b.industry.split() if len(w) >= 4 and w not in _BODY_WORDS}
    return bool(wa and wb) and not wa & wb


def corroboration(a: Record, b: Record, *, industry: bool = True) -> str | None:
    """What says two records on two sites have one owner, beyond their names; None when nothing does.
    `industry`: whether one industry counts (not for a country's domain: a brand shares it)."""
    # one country holds many companies of a family's name (Müller the drugstores, Müller the dairy
    # group): it says one owner only where the trades, both known, share a word
    if a.country and a.country == b.country and not two_trades(a, b):
        return f"both say they are based in {a.country}"
    if industry and a.industry and a.industry == b.industry:
        return f"both in {a.industry}"
    for x, y in ((a, b), (b, a)):
        if y.domain and y.domain in x.mentions:
            return f"{x.name} names {y.domain}"
    owners = sorted(a.owners.keys() & b.owners.keys())
    return f"both owned by {owners[0]}" if owners else None


def _names(a: Record, b: Record) -> str | None:
    """How the names agree, as one name, initials, a legal name adding only trade words, or a name
    in another script read or translated as the other."""
    agree = names_agree(a.clean, b.clean)
    if agree in ("equal names", "abbreviation", "equal names but for spaces"):
        return agree
    short, long_ = sorted((set(a.core.split()), set(b.core.split())), key=len)
    if agree and short <= long_ and long_ - short <= _TRADE | _LEADS:
        return f"one name adds only {' '.join(sorted(long_ - short))!r}"
    # one in another script read or translated as the other (쿠팡 / Coupang)
    return agrees(a.name or "", a.clean, b.name or "", b.clean)


def _how_one_site(a: Record, b: Record) -> str | None:
    """Whether two sites may be one company's: "one stem", "each named for its company", or None."""
    sa, sb = a.site, b.site
    if not (sa and sb) or sa.label == sb.label or (country_suffix(sa.suffix) and country_suffix(sb.suffix)):
        return None
    if _stems(sa.label) & _stems(sb.label):
        return "one stem"
    # two letters of initials are too many companies' (AA: American and Alaska Airlines)
    if _eponymous(a) and _eponymous(b) and min(len(sa.label), len(sb.label)) >= 3:
        return "each named for its company"
    return None


def one_stem(a: Record, b: Record, ev: Evidence) -> None:
    """Two sites of one stem, or each named for its record, with names that agree and corroboration."""
    how = _how_one_site(a, b)
    if how is None or not (a.site and b.site):
        return
    sa, sb = a.site, b.site
    # a country's domain is a brand's, initials many companies': one industry does not say one owner
    plain = how == "one stem" and not (country_suffix(sa.suffix) or country_suffix(sb.suffix))
    said = corroboration(a, b, industry=plain)
    if how == "one stem" and not _stems(sa.label, prefixes=False) & _stems(sb.label, prefixes=False):
        # a verb before the name (getnotion, flysas) is any company's: its country and industry both
        both = a.country and a.country == b.country and a.industry and a.industry == b.industry
        said = f"both based in {a.country} and in {a.industry}" if both else None
    agree = _names(a, b)
    if agree and said:
        ev.for_.append((JOIN, f"sites of {how} {a.domain} / {b.domain} ({agree}), and {said}"))


def _app_brand(title: str) -> str:
    """An app's title before its tagline ("Duolingo: Language Lessons" -> "Duolingo")."""
    for sep in (":", " - ", " – ", " — ", " | "):
        title = title.split(sep)[0]
    return title.strip()


def app_pages(a: Record, b: Record, ev: Evidence) -> None:
    """An app's store page and its developer's site (Play package = domain reversed, or the app named
    as the company is in one country), or one app's pages on two stores (the same title)."""
    pa = next((p for p in a.profiles if p.startswith(_APP_HOSTS)), None)
    pb = next((p for p in b.profiles if p.startswith(_APP_HOSTS)), None)
    if pa and pb and pa.split("/")[0] != pb.split("/")[0] and a.clean and a.clean == b.clean:
        ev.for_.append((JOIN, f"one app title on two stores ({a.name} / {b.name})"))
        return
    for x, y, p in ((a, b, pa), (b, a, pb)):
        said = _app_of_site(x, y, p) if p and y.domain and x.name else None
        if said:
            ev.for_.append((JOIN, said))
            return


def _app_of_site(app: Record, site: Record, profile: str) -> str | None:
    """Why the app's page is the site's company's, or None."""
    from exa_orch.workflows.entities.names import clean_name

    brand = clean_name(_app_brand(app.name or ""))
    # the app named as the site's company is, or as one of its products ("Chegg Study", com.chegg),
    # its title's words after a dash the name too ("FIB – First Iraqi Bank", iq.fib.banking)
    named_for = (
        names_agree(brand, site.clean) in _ONE_NAME
        or bool(site.core)
        and brand.startswith(site.core + " ")
        or names_agree(app.clean, site.clean) in _ONE_NAME
    )
    if _play_domain(profile) == site.domain and named_for:
        return f"{app.name}'s Play package {profile.split('=', 1)[1]} is {site.domain} reversed"
    # the app named as the company is ("Uber" / "Uber Technologies, Inc."), where both say one country
    extra = set(site.core.split()) - set(brand.split())
    named = brand == site.core or (site.core.startswith(brand + " ") and extra <= DESIGNATORS)
    said = corroboration(app, site, industry=False)
    return f"the app {app.name} is named as {site.name} is, and {said}" if brand and named and said else None


def _spelled_by(label: str, name: str) -> bool:
    """`label` is `name` written together or shortened in order ("hkland" in "hongkongland")."""
    letters = name.replace(" ", "")
    if not label or label[0] != letters[:1]:
        return False
    at = 0
    for ch in label:
        at = letters.find(ch, at) + 1
        if at == 0:
            return False
    return True


def page_elsewhere(a: Record, b: Record, ev: Evidence) -> None:
    """The same name on a deeper page of one site and on the front page (Site.front) of a site its
    name spells: the page is about that site's company (a subsidiary's page on its parent's site is
    the subsidiary). A name of two words or more whose page's last path segment names it ("Swire
    Properties" at swire.com/our-businesses/properties); one word of five letters or more only when
    the last segment is that word ("Scania" at traton.com/.../scania.html, scania.com). A page its
    path does not name (a news page of the parent's) only where the two say one owner
    (`corroboration` without the industry: one country and trades that share a word)."""
    # one name, or one in another script read or translated as the other (佐川急便 / Sagawa Express)
    read = "" if a.core == b.core else agrees(a.name or "", a.clean, b.name or "", b.clean)
    if not (a.core and b.core and (a.core == b.core or read)):
        return
    latin = a if is_latin(a.name or "") else b
    # a name read as beginning alike whose trade written in its script the Latin name does not say
    # is another company of the brand (흥아해운, Heung-A Shipping, at heung-a.com, and a news page of
    # Heung-A Line): only a page that names it is its
    in_part = bool(read and read_in_part(read)) and trade_unsaid(a.name or "", b.name or "", latin.clean)
    for x, y in ((a, b), (b, a)):
        said = _elsewhere(x, y, latin.core, in_part)
        if said:
            ev.for_.append((JOIN, said))
            return


def _elsewhere(x: Record, y: Record, core: str, in_part: bool) -> str | None:
    """Why `x`'s deeper page is about the company of `y`'s site (page_elsewhere), or None; `core`
    the Latin name's core."""
    sx, sy = x.site, y.site
    if not (sx and sy and sy.front and sx.path and not sx.front and len(sy.label) >= 3):
        return None
    words_ = core.split()
    if _named_there(sx, sy, words_, core):
        return f"{x.name} on {sx.canonical}, a page it names, and on its own site {y.domain}"
    if in_part:
        return None
    # a page its path does not name (swirepacific.com/en/our-business/beverages), where the two
    # say one owner (one country, trades that share a word)
    said = corroboration(x, y, industry=False)
    if said and _spells_name(sy.label.replace("-", ""), words_, core):
        return f"{x.name} on {sx.canonical} and on its own site {y.domain}, and {said}"
    return None


def _named_there(sx: Site, sy: Site, words_: list[str], core: str) -> bool:
    """`sx`'s last path segment names the name of `words_` (`core`), which `sy`'s label spells
    (page_elsewhere)."""
    # the last segment without the legal form the name writes ("our-maisons/.../tiffany-co")
    last = [w for w in sx.path.rsplit("/", 1)[-1].removesuffix(".html").split("-") if w not in _FORMS]
    # one word: the segment is the word, its label the name alone or with a group's word
    # (avolta.com/.../hudson, hudsongroup.com)
    named = set(last) <= set(words_) if len(words_) >= 2 else last == words_
    return named and _spells_name(sy.label.replace("-", ""), words_, core)


def _spells_name(label: str, words_: list[str], core: str) -> bool:
    """`label` is the name's: a name of two words or more written together or shortened in order
    (swirecocacola, hkland), one word of five letters or more alone, with a group's word or a word
    sites add (`_SITE_AFFIXES`, digits: staub-online, encirc360), or its start, three letters or
    more (tek.com, Tektronix's)."""
    if len(words_) >= 2:
        return _spelled_by(label, core)
    one = words_[0] if len(words_[0]) >= 5 else ""
    if not one:
        return False
    if label in (one, *(one + g for g in GROUP_WORDS)):
        return True
    if label.startswith(one):  # staub-online, encirc360
        added = label[len(one) :]
        return added in _SITE_AFFIXES or added.isdigit()
    return len(label) >= 3 and one.startswith(label)  # tek.com


# What a site's label adds to a company's one-word name beside a group's word
_SITE_AFFIXES = frozenset({"online", "official", "web", "home", "usa", "uk", "hq"})


def is_app(s: Site | None) -> bool:
    """An app store's page."""
    return bool(s and s.profile and s.profile.startswith(_APP_HOSTS))


def plural_agree(a: str, b: str) -> str | None:
    """Two names one plural apart ("volvo cars" / "volvo car"): on one site, one name."""

    def singular(name: str) -> str:
        return " ".join(
            w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in name.split()
        )

    return "one name, but for a plural" if a and b and a != b and singular(a) == singular(b) else None


def blocking_keys(r: Record) -> set[str]:
    """Candidate keys for clustering: the label's stem; a name of two words or more written
    together, as a site's label may spell it (evidence._name_spells_site), and the last segment of
    a page's path, as it may name a site (evidence._path_names_site); a name's initials run into
    its last word and the other short forms of a company's name (`_short_name_keys`); an app's
    brand and its Play package's domain."""
    from exa_orch.workflows.entities.names import clean_name

    own = {f"l:{stem(r.site.label)}"} if r.domain and r.site else set()
    if " " in r.clean and len(spelled := r.clean.replace(" ", "")) >= 6:
        own.add(f"l:{stem(spelled)}")
    # a page its path's last segment names (pernod-ricard.com/our-brands/del-maguey: delmaguey.com)
    last = r.site.path.rstrip("/").rsplit("/", 1)[-1].replace("-", "") if r.site and r.site.path else ""
    if 4 <= len(last) <= 30 and last.isalpha():
        own.add(f"l:{last}")
    bare = _brand_words(r.core)  # "uber technologies" -> "uber": the name an app or a brand page goes by
    if bare:
        own.add(f"n:{' '.join(bare)}")
    if r.kind != "person":
        own |= _short_name_keys(r)
    if is_app(r.site) and r.name:
        own.add(f"n:{clean_name(_app_brand(r.name))}")
        own.update(f"d:{d}" for p in r.profiles if (d := _play_domain(p)))
    return own


def _short_name_keys(r: Record) -> set[str]:
    """A company name's keys as a short name of it may be written: its initials run into its last
    word (GTBank: names._run_into); its last two or three words ("Backus y Johnston" of "Union de
    Cervecerias Peruanas Backus y Johnston") and, of three or more, its last word, a brand the
    name ends with (Sociedad Agrícola Virú); a Korean name less its group's Latin initials
    (HD현대중공업, as its former name or the press writes it: 현대중공업); its initials taking a
    letter of each stem of a compound word (alphabets.compound_initials: ČSOB of Československá
    obchodná banka, ZSE of Západoslovenská energetika, EPCG of Elektroprivreda Crne Gore).
    names_agree weighs each pair; a key finds it."""
    own, words = set(), r.clean.split()
    if len(words) >= 3:
        own.add(f"n:{acronym(' '.join(words[:-1]))}{words[-1]}")
    if 2 <= len(kept := [w for w in words if w not in STOP_WORDS]) <= 6:
        own.update(f"n:{i}" for i in compound_initials(tuple(kept)) if len(i) > len(kept))
    if len(words) >= 4:
        own.update(f"n:{' '.join(words[-k:])}" for k in (2, 3) if not set(words[-k:]) <= DESIGNATORS)
    if len(words) >= 3 and words[-1] not in DESIGNATORS and len(words[-1]) >= 3:
        own.add(f"n:{words[-1]}")
    if lead := _LATIN_LEAD.match(r.name or ""):
        own.add(f"n:{r.clean[len(lead.group(0)) :]}")
    return own


# Two or three capitals run into a Hangul name
_LATIN_LEAD = re.compile(r"^[A-Z]{2,3}(?=[\uac00-\ud7a3])")


def _play_domain(profile: str) -> str:
    """The domain a Play package names ("play.google.com/id=com.duolingo" -> "duolingo.com"), or ""."""
    if not profile.startswith("play.google.com/id="):
        return ""
    package = profile.split("=", 1)[1].split(".")
    return ".".join(reversed(package[:2])) if len(package) >= 2 else ""


def adds_its_trade(a: Record, b: Record) -> str | None:
    """One name the other's and one word more that names the trade both state ("Del Maguey Mezcal"
    / "Del Maguey", both in mezcal): the brand and its product's name; None otherwise."""
    short, long_ = sorted((a.core.split(), b.core.split()), key=len)
    added = set(long_) - set(short)
    if not short or not set(short) < set(long_) or len(long_) != len(short) + 1 or len(added) != 1:
        return None
    word = added.pop()
    both = {w[:5] for w in a.industry.split()} & {w[:5] for w in b.industry.split()}
    return f"one name adds its trade, {word!r}" if len(word) >= 4 and word[:5] in both else None


def country_after(r: Record, name: str, also: frozenset[str] = frozenset()) -> str | None:
    """The word naming `r`'s country that `r`'s name adds after `name` ("foodcorp chile" beside
    "foodcorp"), where all else it adds is in `also` (designators, legal words); None otherwise."""
    extra = extra_words(r.clean, name)
    if names_agree(r.clean, name) != "one name extends the other" or len(r.clean) <= len(name):
        return None
    ours = [w for w in extra if of_country(w, r.country)]
    return ours[0] if ours and extra <= also | set(ours) else None


def adds_its_country(a: Record, b: Record) -> str | None:
    """One name the other's and, after it, its legal form and the name of the country both records
    are of ("Evergreen Marine Corp. (Taiwan) Ltd." / "Evergreen Marine", both of Taiwan): a
    listing's full name; None otherwise (a subsidiary abroad is of another country)."""
    if not (known(a.country) and a.country == b.country):
        return None
    word = country_after(a, b.clean, DESIGNATORS) or country_after(b, a.clean, DESIGNATORS)
    return f"one name adds only its country, {word!r}" if word else None
