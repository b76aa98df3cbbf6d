"""The simulator's deterministic world: companies, people, research papers and articles.

Contract:
- `World(seed)` builds the same entities, in the same order, with the same ids, for the same seed:
  everything is drawn from one `random.Random(seed)`; derived values use hashlib (never `hash()`,
  which is randomised per process) and nothing reads the clock or global state.
- Every entity has a canonical URL. Some companies also exist under a second URL or a variant
  spelling of their name; those near-duplicates are entities too (so searches return them) and are
  listed as ground truth in `world.duplicates` as `(canonical_url, duplicate_url)` pairs.
- `World.from_file(path)` builds a world from a JSON file a person wrote (docs/simulator.md): its
  entities' pages are the world's entities, each page's ground truth in `attrs["entity"]`; a
  query a page declares finds exactly the pages that declare it, in file order.
- `world.search(query, kind=None, limit=10)` ranks by keyword/topic overlap (industries, regions,
  categories and their synonyms), ties broken by id. Entities that match nothing come after the
  matches, in a query-seeded order, so a search never comes back empty (as Exa's never does).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

EntityKind = Literal["company", "person", "research_paper", "article"]
KINDS: tuple[EntityKind, ...] = ("company", "person", "research_paper", "article")

# industry -> keywords an entity of that industry is found by
INDUSTRIES: dict[str, tuple[str, ...]] = {
    "Artificial Intelligence": tuple("ai artificial intelligence machine learning ml llm models".split()),
    "Fintech": ("fintech", "finance", "payments", "banking", "financial", "lending"),
    "Healthcare": ("healthcare", "health", "medical", "clinical", "patients", "medtech"),
    "Climate Tech": ("climate", "carbon", "sustainability", "emissions", "cleantech", "green"),
    "Cybersecurity": ("cybersecurity", "security", "threat", "identity", "privacy", "cyber"),
    "Robotics": ("robotics", "robots", "automation", "autonomous", "drones", "hardware"),
    "E-commerce": ("ecommerce", "e-commerce", "retail", "shopping", "marketplace", "commerce"),
    "Biotech": ("biotech", "biology", "genomics", "drug", "discovery", "protein"),
    "Developer Tools": ("developer", "devtools", "software", "api", "open-source", "infrastructure"),
    "Semiconductors": ("semiconductors", "chips", "silicon", "gpu", "hardware", "fabrication"),
    "Education": ("education", "edtech", "learning", "students", "courses", "teaching"),
    "Logistics": ("logistics", "supply", "chain", "shipping", "freight", "delivery"),
    "Quantum Computing": ("quantum", "qubits", "computing", "photonic", "cryogenic"),
    "Energy": ("energy", "battery", "solar", "grid", "storage", "renewable"),
}

# region -> (city, country) pairs; the region name and its adjective are searchable words
REGIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "Europe": (("Berlin", "Germany"), ("Munich", "Germany"), ("Paris", "France"), ("London", "United Kingdom"), ("Amsterdam", "Netherlands"), ("Stockholm", "Sweden"), ("Zurich", "Switzerland"), ("Barcelona", "Spain"), ("Helsinki", "Finland"), ("Dublin", "Ireland"), ("Warsaw", "Poland")),
    "North America": (("San Francisco", "United States"), ("New York", "United States"), ("Boston", "United States"), ("Austin", "United States"), ("Seattle", "United States"), ("Toronto", "Canada")),
    "Asia": (("Singapore", "Singapore"), ("Bangalore", "India"), ("Tokyo", "Japan"), ("Seoul", "South Korea")),
    "Latin America": (("Sao Paulo", "Brazil"), ("Mexico City", "Mexico")),
    "Africa": (("Lagos", "Nigeria"), ("Nairobi", "Kenya")),
    "Middle East": (("Tel Aviv", "Israel"), ("Dubai", "United Arab Emirates")),
}  # fmt: skip
REGION_WORDS: dict[str, tuple[str, ...]] = {
    "Europe": ("europe", "european", "eu"),
    "North America": ("north", "america", "american", "usa", "us"),
    "Asia": ("asia", "asian", "apac"),
    "Latin America": ("latin", "latam", "america"),
    "Africa": ("africa", "african"),
    "Middle East": ("middle", "east", "mena"),
}

CATEGORIES: tuple[str, ...] = tuple(
    "cs.AI cs.LG cs.CL cs.CV cs.IR cs.NE stat.ML math.ST physics.data-an".split()
)
CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    "cs.AI": ("ai", "artificial", "intelligence", "agents", "reasoning", "planning"),
    "cs.LG": ("machine", "learning", "ml", "training", "optimization", "neural"),
    "cs.CL": ("language", "nlp", "llm", "text", "translation", "linguistics"),
    "cs.CV": ("vision", "image", "images", "video", "segmentation", "detection"),
    "cs.IR": ("retrieval", "search", "ranking", "recommendation", "embeddings"),
    "cs.NE": ("evolutionary", "neuroevolution", "genetic", "quality-diversity", "map-elites"),
    "stat.ML": ("statistical", "bayesian", "inference", "probabilistic", "statistics"),
    "math.ST": ("theory", "estimation", "asymptotic", "statistics", "minimax"),
    "physics.data-an": ("physics", "data", "analysis", "detector", "particle"),
}

# words that say which kind of entity a query wants
KIND_WORDS: dict[EntityKind, tuple[str, ...]] = {
    "company": tuple(
        "company companies startup startups firm firms business businesses vendor vendors provider providers manufacturer manufacturers".split()
    ),
    "person": tuple(
        "people person persons founder founders ceo ceos cto engineer engineers researcher researchers executive executives leader leaders investor investors scientist scientists".split()
    ),
    "research_paper": tuple(
        "paper papers research preprint preprints arxiv study studies publication publications".split()
    ),
    "article": tuple("article articles news blog blogs post posts story stories coverage press".split()),
}
_ALL_KIND_WORDS = frozenset(w for ws in KIND_WORDS.values() for w in ws)

_STOPWORDS = frozenset(
    "a an the of in on at for to and or with by from that which who whose is are be as about into "
    "based than over under their its it this those these all any some find list show me get top best "
    "new recent".split()
)
_PUBLISHERS = ("TechCrunch", "Reuters", "The Verge", "Wired", "Sifted", "Bloomberg", "VentureBeat", "Forbes")
_FIRST = tuple(
    "Ada Ben Chloe Daniel Elena Farid Grace Hugo Ines Jonas Kira Liam Maya Nikolai Olivia Pablo Qi Rosa Samir Tara Umar Vera Wei Yara Zoe Anders Beatriz Chen Dmitri Emma Felix Hana Ivan Julia Kenji".split()
)
_LAST = tuple(
    "Andersen Becker Costa Dubois Eriksson Fischer Garcia Haddad Ivanova Jensen Kowalski Laurent Moreau Nakamura Okafor Petrov Quinn Rossi Schmidt Tanaka Usman Varga Weber Xu Yilmaz Zhang Novak Silva".split()
)
_ROLES = tuple(
    "CEO|CTO|Co-founder|Head of Engineering|Research Scientist|VP of Product|Machine Learning Engineer|Chief Operating Officer|Head of Sales|Principal Engineer".split(
        "|"
    )
)
_SYL_A = tuple(
    "Nova Quanta Lumen Vertex Helio Aether Cobalt Orbit Pixel Strata Kinet Ferro Zephyr Argo Solace Mosaic Tessel Vanta Cirrus Nimbus".split()
)
_SYL_B = tuple(
    "Labs Works AI Systems Dynamics Bio Pay Grid Logic Robotics Health Secure Cloud Ware Metrics Forge".split()
)
_STAGES = ("Pre-seed", "Seed", "Series A", "Series B", "Series C", "Series D")
_PAPER_ADJ = tuple(
    "Scalable|Robust|Efficient|Sparse|Contrastive|Hierarchical|Adaptive|Diverse|Causal|Federated".split("|")
)
_PAPER_METHOD = tuple(
    "Transformers|Diffusion Models|Graph Neural Networks|Quality-Diversity Search|Bayesian Optimization|Retrieval-Augmented Generation|Mixture of Experts|Reinforcement Learning|Kernel Methods|Evolution Strategies".split(
        "|"
    )
)
_PAPER_TASK = tuple(
    "Long-Document Retrieval|Image Segmentation|Protein Folding|Machine Translation|Particle Track Reconstruction|Web-Scale Search|Code Generation|Tabular Prediction|Open-Ended Exploration|Causal Inference".split(
        "|"
    )
)
_ARTICLE_TMPL = (
    "{co} raises {amt} to expand {ind} platform",
    "{co} launches new {ind} product in {city}",
    "Why {ind} investors are watching {co}",
    "{co} opens office in {city} amid {ind} boom",
    "Inside {co}: how a {city} startup is reshaping {ind}",
)

_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*")


def tokens(text: str) -> list[str]:
    """Lower-case words of `text` without stopwords, with a trailing plural 's' folded in."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        w = w.strip(".-")
        if not w or w in _STOPWORDS:
            continue
        out.append(w)
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            out.append(w[:-1])
    return out


@functools.lru_cache(maxsize=1024)
def _query_terms(query: str) -> frozenset[str]:
    """The words of `query` that score (its tokens but the kind words): a search scores every
    entity of the world against one query, so they are worked out once a query, not once an entity."""
    return frozenset(tokens(query)) - _ALL_KIND_WORDS


def stable_int(*parts: object) -> int:
    """A process-independent integer derived from `parts` (sha256), for deterministic choices."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Entity:
    """One thing in the world that searches can find."""

    id: str
    kind: EntityKind
    name: str
    url: str  # canonical URL (for a near-duplicate: its own second URL)
    title: str
    text: str  # a paragraph
    published_date: str  # YYYY-MM-DD
    author: str | None
    attrs: dict[str, Any] = field(hash=False)


class World:
    """A deterministic set of entities built from `seed`; see the module docstring."""

    def __init__(
        self,
        seed: int = 42,
        *,
        companies: int = 220,
        people: int = 160,
        papers: int = 160,
        articles: int = 120,
        duplicate_share: float = 0.1,
    ) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.entities: list[Entity] = []
        self.duplicates: list[tuple[str, str]] = []
        self.industries: tuple[str, ...] = tuple(INDUSTRIES)
        self.regions: tuple[str, ...] = tuple(REGIONS)
        self.categories: tuple[str, ...] = CATEGORIES
        self.name = f"seed {seed}"
        self.declared: dict[str, list[Entity]] = {}  # a file world's query -> the pages it finds
        self._build_companies(companies, duplicate_share)
        self._build_people(people)
        self._build_papers(papers)
        self._build_articles(articles)
        self._index()

    @classmethod
    def from_file(cls, path: str | Path) -> World:
        """The world a JSON file describes (format: docs/simulator.md).

        Raises:
            ValueError: the file can't be read or breaks the format (the message says where).
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"world file {path}: {exc}") from exc
        world = cls(0, companies=0, people=0, papers=0, articles=0)
        world.name = str(data.get("name") or Path(path).stem) if isinstance(data, dict) else ""
        world._load(data, str(path))
        world._index()
        return world

    def _index(self) -> None:
        self._by_id = {e.id: e for e in self.entities}
        self._by_url = {e.url: e for e in self.entities}
        # Each entity's word counts are built at the first search, not here: two thirds of the
        # simulator's start-up, which `exa-orch serve --sim` waits for (bench/startup.py).
        self._bags: dict[str, dict[str, int]] | None = None

    # ---- lookups -------------------------------------------------------------------------------
    @property
    def topics(self) -> tuple[str, ...]:
        """Every industry, region and paper category the world knows."""
        return self.industries + self.regions + self.categories

    def by_id(self, entity_id: str) -> Entity | None:
        return self._by_id.get(entity_id)

    def by_url(self, url: str) -> Entity | None:
        """The entity at `url` (exact, or ignoring scheme, `www.` and a trailing slash)."""
        hit = self._by_url.get(url)
        if hit is not None:
            return hit
        norm = _norm_url(url)
        return next((e for e in self.entities if _norm_url(e.url) == norm), None)

    def of_kind(self, kind: EntityKind) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind]

    def infer_kind(self, query: str) -> EntityKind | None:
        """The kind a query asks for, or None when it names none.

        The first kind word wins, since English queries lead with the head noun: "AI startups"
        -> company, "CTOs at fintech startups" -> person, "papers about startups" -> research_paper.
        """
        for word in re.findall(r"[a-z]+", query.lower()):
            for form in (word, word[:-1] if word.endswith("s") else word):
                for kind, kind_words in KIND_WORDS.items():
                    if form in kind_words:
                        return kind
        return None

    # ---- search --------------------------------------------------------------------------------
    def score(self, query: str, entity: Entity) -> float:
        """How well `entity` matches `query` (0 = not at all); kind words don't count."""
        if self._bags is None:
            self._bags = {e.id: self._bag(e) for e in self.entities}
        bag = self._bags[entity.id]
        return float(sum(bag.get(t, 0) for t in _query_terms(query)))

    def search(self, query: str, kind: EntityKind | None = None, limit: int = 10) -> list[Entity]:
        """Up to `limit` entities (of `kind` if given), best match first; see module docstring."""
        declared = self.declared.get(_query_key(query))
        if declared is not None:
            return [e for e in declared if kind is None or e.kind == kind][: max(0, limit)]
        pool = [e for e in self.entities if kind is None or e.kind == kind]
        scored = [(self.score(query, e), e) for e in pool]
        hits = sorted((p for p in scored if p[0] > 0), key=lambda p: (-p[0], p[1].id))
        rest = sorted((e for s, e in scored if s <= 0), key=lambda e: stable_int(self.seed, query, e.id))
        return ([e for _, e in hits] + rest)[: max(0, limit)]

    # ---- building ------------------------------------------------------------------------------
    def _date(self, lo: int, hi: int) -> str:
        r = self._rng
        return f"{r.randint(lo, hi):04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"

    def _place(self) -> tuple[str, str, str]:
        # Skewed like the startup world (and so that "AI startups in Europe" has plenty of answers)
        region = self._rng.choices(self.regions, weights=(35, 35, 15, 5, 5, 5))[0]
        city, country = self._rng.choice(REGIONS[region])
        return region, city, country

    def _build_companies(self, n: int, duplicate_share: float) -> None:
        r = self._rng
        names: set[str] = set()
        made: list[Entity] = []
        while len(made) < n:
            name = (
                f"{r.choice(_SYL_A)}{r.choice(_SYL_B).lower()}"
                if r.random() < 0.5
                else f"{r.choice(_SYL_A)} {r.choice(_SYL_B)}"
            )
            if _slug(name).replace("-", "") in names:  # "Nova Labs" and "Novalabs" share a domain
                continue
            names.add(_slug(name).replace("-", ""))
            industry = r.choices(
                self.industries, weights=[4 if i == 0 else 1 for i in range(len(INDUSTRIES))]
            )[0]
            region, city, country = self._place()
            domain = _slug(name).replace("-", "") + r.choice((".com", ".io", ".ai", ".co"))
            employees = r.choice((5, 12, 25, 48, 90, 150, 320, 800, 2400))
            founded = r.randint(2008, 2024)
            funding = r.choice((0, 500_000, 2_000_000, 8_000_000, 25_000_000, 60_000_000, 150_000_000))
            kw = INDUSTRIES[industry]
            about = (
                f"{name} is {'an' if industry[0] in 'AEIOU' else 'a'} {industry.lower()} startup based in {city}, {country} ({region}), "
                f"founded in {founded}. It builds {kw[0]} and {kw[2]} products for {kw[3]} teams "
                f"and employs about {employees} people."
            )
            attrs: dict[str, Any] = {
                "industry": industry,
                "location": f"{city}, {country}",
                "region": region,
                "employees": employees,
                "founded": founded,
                "funding": funding,
                "funding_stage": r.choice(_STAGES),
                "email": f"hello@{domain}",
                "phone": f"+{r.randint(1, 49)} {r.randint(100, 999)} {r.randint(1000000, 9999999)}",
                "website": f"https://{domain}",
            }
            e = Entity(
                id=f"co_{len(made) + 1:04d}",
                kind="company",
                name=name,
                url=f"https://{domain}",
                title=f"{name} - {industry}",
                text=about,
                published_date=f"{founded:04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
                author=None,
                attrs=attrs,
            )
            made.append(e)
        self.entities.extend(made)
        for i, orig in enumerate(made[: int(n * duplicate_share)]):
            self._add_duplicate(orig, i)

    def _add_duplicate(self, orig: Entity, i: int) -> None:
        domain = orig.url.removeprefix("https://")
        stem, _, tld = domain.rpartition(".")
        variants = (
            (orig.name, f"https://www.{stem}.{'com' if tld != 'com' else 'io'}"),  # same name, second URL
            (f"{orig.name} Inc.", f"https://{domain}/about"),  # legal-suffix spelling
            (
                orig.name.upper() if " " in orig.name else f"{orig.name[:4]} {orig.name[4:]}",
                f"https://{stem}-hq.{tld}",
            ),  # variant spelling
        )
        name, url = variants[i % len(variants)]
        attrs = dict(orig.attrs, duplicate_of=orig.id)
        text = orig.text.replace(orig.name, name)
        if i % len(variants) != 1:
            # A second site says which site it mirrors, as a real page would ("also at ..."): a
            # different registered domain alone is evidence of another company.
            text = text.replace(name, f"{name} (also at {domain})", 1)
        dup = Entity(
            id=f"co_dup_{i + 1:03d}",
            kind="company",
            name=name,
            url=url,
            title=f"{name} | {orig.attrs['industry']}",
            text=text,
            published_date=orig.published_date,
            author=None,
            attrs=attrs,
        )
        self.entities.append(dup)
        self.duplicates.append((orig.url, dup.url))

    def _build_people(self, n: int) -> None:
        r = self._rng
        companies = [e for e in self.entities if e.kind == "company" and "duplicate_of" not in e.attrs]
        for i in range(n):
            name = f"{r.choice(_FIRST)} {r.choice(_LAST)}"
            co = r.choice(companies)
            role = r.choice(_ROLES)
            slug = f"{_slug(name)}-{i + 1:03d}"
            text = (
                f"{name} is {role} at {co.name}, a {co.attrs['industry'].lower()} company in "
                f"{co.attrs['location']} ({co.attrs['region']}). Previously worked on "
                f"{r.choice(INDUSTRIES[co.attrs['industry']])} at {r.choice(companies).name}."
            )
            attrs = {
                "role": role,
                "company": co.name,
                "company_id": co.id,
                "location": co.attrs["location"],
                "region": co.attrs["region"],
                "industry": co.attrs["industry"],
                "email": f"{_slug(name).replace('-', '.')}@{co.url.removeprefix('https://')}",
            }
            self.entities.append(
                Entity(
                    id=f"pe_{i + 1:04d}",
                    kind="person",
                    name=name,
                    url=f"https://linkedin.com/in/{slug}",
                    title=f"{name} - {role} at {co.name}",
                    text=text,
                    published_date=self._date(2019, 2025),
                    author=None,
                    attrs=attrs,
                )
            )

    def _build_papers(self, n: int) -> None:
        r = self._rng
        for i in range(n):
            title = f"{r.choice(_PAPER_ADJ)} {r.choice(_PAPER_METHOD)} for {r.choice(_PAPER_TASK)}"
            cats = [r.choice(CATEGORIES)]
            if r.random() < 0.5:
                extra = r.choice(CATEGORIES)
                if extra not in cats:
                    cats.append(extra)
            authors = [f"{r.choice(_FIRST)} {r.choice(_LAST)}" for _ in range(r.randint(1, 4))]
            date = self._date(2016, 2025)
            arxiv_id = f"{date[2:4]}{date[5:7]}.{r.randint(10000, 99999)}"
            words = ", ".join(CATEGORY_WORDS[cats[0]][:3])
            text = (
                f"We study {title.lower()}. Our method improves on prior work in {words} and is "
                f"evaluated on standard benchmarks, reaching state-of-the-art results with "
                f"{r.randint(2, 40)}% less compute. Categories: {' '.join(cats)}."
            )
            attrs = {"categories": cats, "authors": authors, "arxiv_id": arxiv_id}
            self.entities.append(
                Entity(
                    id=f"rp_{i + 1:04d}",
                    kind="research_paper",
                    name=title,
                    url=f"https://arxiv.org/abs/{arxiv_id}",
                    title=title,
                    text=text,
                    published_date=date,
                    author=", ".join(authors),
                    attrs=attrs,
                )
            )

    def _build_articles(self, n: int) -> None:
        r = self._rng
        companies = [e for e in self.entities if e.kind == "company" and "duplicate_of" not in e.attrs]
        for i in range(n):
            co = r.choice(companies)
            city = co.attrs["location"].split(",")[0]
            title = r.choice(_ARTICLE_TMPL).format(
                co=co.name,
                amt=f"${r.choice((3, 8, 15, 40, 120))}M",
                ind=co.attrs["industry"].lower(),
                city=city,
            )
            publisher = r.choice(_PUBLISHERS)
            date = self._date(2020, 2025)
            author = f"{r.choice(_FIRST)} {r.choice(_LAST)}"
            text = (
                f"{title}. {co.text} The {co.attrs['industry'].lower()} market in "
                f"{co.attrs['region']} keeps growing, according to {publisher}."
            )
            attrs = {
                "publisher": publisher,
                "company": co.name,
                "company_id": co.id,
                "industry": co.attrs["industry"],
                "region": co.attrs["region"],
            }
            url = f"https://{_slug(publisher).replace('-', '')}.com/{date.replace('-', '/')}/{_slug(title)}"
            self.entities.append(
                Entity(
                    id=f"ar_{i + 1:04d}",
                    kind="article",
                    name=title,
                    url=url,
                    title=title,
                    text=text,
                    published_date=date,
                    author=author,
                    attrs=attrs,
                )
            )

    def _load(self, data: Any, where: str) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("entities"), list):
            raise ValueError(f"world file {where}: expected an object with an 'entities' list")
        seen: set[str] = set()
        for n, ent in enumerate(data["entities"]):
            at = f"world file {where}: entities[{n}]"
            if not isinstance(ent, dict) or not isinstance(ent.get("name"), str):
                raise ValueError(f"{at}: each entity needs a 'name'")
            kind = ent.get("kind", "company")
            if kind not in KINDS:
                raise ValueError(f"{at}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
            truth = str(ent.get("id") or _slug(ent["name"]))
            pages = ent.get("pages") or [{}]
            if not isinstance(pages, list) or not all(isinstance(p, dict) for p in pages):
                raise ValueError(f"{at}: 'pages' must be a list of objects")
            first_id: str | None = None
            for k, page in enumerate(pages):
                url = page.get("url") or ent.get("url")
                if not isinstance(url, str) or not url:
                    raise ValueError(f"{at}.pages[{k}]: each page needs a 'url' (or the entity one)")
                pid = str(page.get("id") or f"{truth}~{k + 1}")
                if pid in seen:
                    raise ValueError(f"{at}.pages[{k}]: id {pid!r} appears twice")
                seen.add(pid)
                name = str(page.get("name") or ent["name"])
                description = str(page.get("description") or ent.get("description") or name)
                attrs: dict[str, Any] = {**(ent.get("attributes") or {}), **(page.get("attributes") or {})}
                attrs["entity"] = truth
                attrs["description"] = description
                attrs["criteria"] = {**(ent.get("criteria") or {}), **(page.get("criteria") or {})}
                if first_id is not None:
                    attrs["duplicate_of"] = first_id
                entity = Entity(
                    id=pid, kind=kind, name=name, url=url, title=str(page.get("title") or name),
                    text=description, published_date=str(page.get("publishedDate") or "2025-01-01"),
                    author=page.get("author"), attrs=attrs,
                )  # fmt: skip
                self.entities.append(entity)
                for query in page.get("queries") or ent.get("queries") or []:
                    self.declared.setdefault(_query_key(str(query)), []).append(entity)
                if first_id is None:
                    first_id = pid
                else:
                    self.duplicates.append((pages_url(pages[0], ent), url))

    def _bag(self, e: Entity) -> dict[str, int]:
        """Searchable words of `e` with weights: topic/region/category/role 3, name and title 2, text 1."""
        bag: dict[str, int] = {}

        def add(text: str, weight: int) -> None:
            for t in tokens(text):
                bag[t] = max(bag.get(t, 0), weight)

        add(e.text, 1)
        add(e.title, 2)
        add(e.name, 2)
        industry = e.attrs.get("industry")
        if industry:
            add(industry + " " + " ".join(INDUSTRIES.get(industry, ())), 3)
        region = e.attrs.get("region")
        if region:
            add(region + " " + " ".join(REGION_WORDS.get(region, ())), 3)
        for cat in e.attrs.get("categories", ()):
            add(cat + " " + " ".join(CATEGORY_WORDS.get(cat, ())), 3)
        for key in ("role", "location", "company", "publisher"):
            if e.attrs.get(key):
                add(str(e.attrs[key]), 3)
        return bag


def _query_key(query: str) -> str:
    return " ".join(query.lower().split())


def pages_url(page: dict[str, Any], entity: dict[str, Any]) -> str:
    return str(page.get("url") or entity.get("url"))


def _norm_url(url: str) -> str:
    u = re.sub(r"^https?://", "", url.strip().lower())
    return u.removeprefix("www.").rstrip("/")
