"""The simulator's deterministic world: companies, people, research papers and articles.

Contract:
- `World(seed)` builds the same entities, in the same order, with the same ids, for the same seed:
  everything is drawn from one `random.Random(seed)`; derived values use hashlib (never `hash()`,
  which is randomised per process) and nothing reads the clock or global state.
- Every entity has a canonical URL. Some companies also exist under a second URL or a variant
  spelling of their name; those near-duplicates are entities too (so searches return them) and are
  listed as ground truth in `world.duplicates` as `(canonical_url, duplicate_url)` pairs.
- `World.from_file(path)` builds a world from a JSON file a person wrote (docs/simulator.md;
  sim/worldfile.py): its entities' pages are the world's entities, each page's ground truth in
  `attrs["entity"]`; a query a page declares finds exactly the pages that declare it, in file order;
  its `drift` events are applied by `world.drift_to(now)` as the simulated clock passes them.
- `World.seeded(seed)` is `World(seed)` built once per process (a seeded world never changes).
- Companies carry several industries, a city/country/region, funding rounds with years and amounts,
  head count, founding year and technologies (sim/worldgen.py), and their page says them.
- `world.search(query, kind=None, limit=10)` ranks by keyword overlap (industries, places, rounds,
  technologies, categories and their synonyms) plus a bonus per facet of the query (sim/facets.py)
  the entity has, ties broken by id. Entities that match nothing come after the matches, in a
  query-seeded order, so a search never comes back empty (as Exa's never does).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
import threading
from pathlib import Path
from typing import Any, cast

from exa_orch.sim import facets, worldfile
from exa_orch.sim.entity import KINDS as KINDS  # re-exported: the simulator imports them from here
from exa_orch.sim.entity import Entity as Entity
from exa_orch.sim.entity import EntityKind as EntityKind
from exa_orch.sim.entity import query_key, slug
from exa_orch.sim.vocab import (  # noqa: F401 (re-exported: the judge and the tests read them here)
    ALL_KIND_WORDS,
    INDUSTRIES,
    KIND_WORDS,
    REGION_WORDS,
    REGIONS,
    tokens,
)
from exa_orch.sim.worldgen import company_profile, company_text

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
_SYL_MID = ("", "", "", "r", "x", "n", "ra", "lo", "ti", "en")  # a larger world needs more names
_SYL_B = tuple(
    "Labs Works AI Systems Dynamics Bio Pay Grid Logic Robotics Health Secure Cloud Ware Metrics Forge".split()
)
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


@functools.lru_cache(maxsize=1024)
def _query_terms(query: str) -> frozenset[str]:
    """The words of `query` that score (its tokens but the kind words): a search scores every
    entity of the world against one query, so they are worked out once a query, not once an entity."""
    return frozenset(tokens(query)) - ALL_KIND_WORDS


FACET_BONUS = 4.0
SEEDED_CACHE = 8  # seeded worlds a process keeps (World.seeded)
_SEEDED: dict[int, World] = {}
_SEEDED_LOCK = threading.Lock()


def stable_int(*parts: object) -> int:
    """A process-independent integer derived from `parts` (sha256), for deterministic choices."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


class World:
    """A deterministic set of entities built from `seed`; see the module docstring."""

    def __init__(
        self,
        seed: int = 42,
        *,
        companies: int = 1200,
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
        self.drift: list[worldfile.Drift] = []  # a file world's scheduled changes, in time order
        self.drifted = 0  # how many of `drift` have been applied
        self.version = 0  # bumped by each drift applied: caches of rankings key on it
        self._build_companies(companies, duplicate_share)
        self._build_people(people)
        self._build_papers(papers)
        self._build_articles(articles)
        self._index()

    @classmethod
    def seeded(cls, seed: int) -> World:
        """The world of `seed`, built once per process: a seeded world never changes after it is
        built (drift comes from world files only), so every simulator of a process shares it, and
        its search caches. Building one (its word counts too) takes a few hundred ms, so a
        simulator builds its world before its clock starts."""
        with _SEEDED_LOCK:
            world = _SEEDED.pop(seed, None)
            if world is None:
                world = cls(seed)
                world.score("", world.entities[0])  # its word counts now, not at a first search
            _SEEDED[seed] = world  # most recent last
            while len(_SEEDED) > SEEDED_CACHE:
                _SEEDED.pop(next(iter(_SEEDED)))
            return world

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
        worldfile.load(world, data, str(path))
        world._index()
        return world

    def drift_to(self, now: float) -> bool:
        """Apply the drift events due by simulated second `now` (a world file's `drift`); True when
        one was. The simulator calls it before each request, so the world changes as its clock runs."""
        due = self.drifted
        while due < len(self.drift) and self.drift[due].at <= now:
            worldfile.apply(self, self.drift[due])
            due += 1
        if due == self.drifted:
            return False
        self.drifted = due
        self.version += 1
        self._index()
        return True

    def _index(self) -> None:
        self._by_id = {e.id: e for e in self.entities}
        self._by_url = {e.url: e for e in self.entities}
        # Each entity's word counts are built at the first search, not here: two thirds of the
        # simulator's start-up, which `exa-orch serve --sim` waits for (bench/startup.py).
        self._bags: dict[str, dict[str, int]] | None = None
        self._known: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # industries, places

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
                        return cast(EntityKind, kind)
        return None

    # ---- search --------------------------------------------------------------------------------
    def score(self, query: str, entity: Entity) -> float:
        """How well `entity` matches `query` (0 = not at all); kind words don't count. Each facet
        of the query the entity has (an industry, a place, a round ...: sim/facets.py) adds
        `FACET_BONUS`, so the entities meeting the whole query rank first."""
        if self._bags is None:
            self._bags = {e.id: self._bag(e) for e in self.entities}
            self._known = {
                e.id: (frozenset(facets.has_industries(e) or ()), frozenset(facets.has_places(e) or ()))
                for e in self.entities
            }
        bag = self._bags[entity.id]
        words = float(sum(bag.get(t, 0) for t in _query_terms(query)))
        if words <= 0:
            return 0.0
        want = facets.read(query)
        return words + (0 if want.empty else FACET_BONUS * facets.met(want, entity, self._known[entity.id]))

    def search(self, query: str, kind: EntityKind | None = None, limit: int = 10) -> list[Entity]:
        """Up to `limit` entities (of `kind` if given), best match first; see module docstring."""
        declared = self.declared.get(query_key(query))
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

    def _build_companies(self, n: int, duplicate_share: float) -> None:
        r = self._rng
        names: set[str] = set()
        made: list[Entity] = []
        while len(made) < n:
            stem = f"{r.choice(_SYL_A)}{r.choice(_SYL_MID)}"
            name = f"{stem}{r.choice(_SYL_B).lower()}" if r.random() < 0.5 else f"{stem} {r.choice(_SYL_B)}"
            key = slug(name).replace("-", "")
            if key in names:  # "Nova Labs" and "Novalabs" share a domain
                continue
            names.add(key)
            profile = company_profile(r)
            domain = key + r.choice((".com", ".io", ".ai", ".co"))
            attrs: dict[str, Any] = {
                **profile,
                "email": f"hello@{domain}",
                "phone": f"+{r.randint(1, 49)} {r.randint(100, 999)} {r.randint(1000000, 9999999)}",
                "website": f"https://{domain}",
            }
            made.append(
                Entity(
                    id=f"co_{len(made) + 1:04d}",
                    kind="company",
                    name=name,
                    url=f"https://{domain}",
                    title=f"{name} - {' & '.join(profile['industries'][:2])}",
                    text=company_text(name, profile),
                    published_date=f"{profile['founded']:04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
                    author=None,
                    attrs=attrs,
                )
            )
        self.entities.extend(made)
        # near-duplicates of the first companies only: the ground truth stays the size tests know
        for i, orig in enumerate(made[: int(min(n, 220) * duplicate_share)]):
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
            handle = f"{slug(name)}-{i + 1:03d}"
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
                "industries": co.attrs["industries"],
                "city": co.attrs["city"],
                "country": co.attrs["country"],
                "email": f"{slug(name).replace('-', '.')}@{co.url.removeprefix('https://')}",
            }
            self.entities.append(
                Entity(
                    id=f"pe_{i + 1:04d}",
                    kind="person",
                    name=name,
                    url=f"https://linkedin.com/in/{handle}",
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
                "industries": co.attrs["industries"],
                "region": co.attrs["region"],
            }
            url = f"https://{slug(publisher).replace('-', '')}.com/{date.replace('-', '/')}/{slug(title)}"
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

    def _bag(self, e: Entity) -> dict[str, int]:
        """Searchable words of `e` with weights: topic/region/category/role 3, name, title,
        technologies and rounds 2, text 1 (each word at its highest weight)."""
        a = e.attrs
        parts: list[tuple[str, int]] = [(e.text, 1), (e.title, 2), (e.name, 2)]
        inds = [i for i in a.get("industries") or [a.get("industry")] if i]
        parts += [(i + " " + " ".join(INDUSTRIES.get(i, ())), 3) for i in inds]
        if a.get("region"):
            parts.append((a["region"] + " " + " ".join(REGION_WORDS.get(a["region"], ())), 3))
        parts += [
            (str(a[k]), 3)
            for k in ("city", "country", "role", "location", "company", "publisher")
            if a.get(k)
        ]
        parts += [(tech, 2) for tech in a.get("technologies", ())]
        parts += [(f"{r['round']} {r['year']}", 2) for r in a.get("funding_rounds", ())]
        parts += [(cat + " " + " ".join(CATEGORY_WORDS.get(cat, ())), 3) for cat in a.get("categories", ())]
        bag: dict[str, int] = {}
        for text, weight in parts:
            # Attribute strings repeat across entities (an industry's words, a city): cached
            for t in tokens(text) if weight == 1 else _short_tokens(text):
                if bag.get(t, 0) < weight:
                    bag[t] = weight
        return bag


@functools.lru_cache(maxsize=8192)
def _short_tokens(text: str) -> tuple[str, ...]:
    return tuple(tokens(text))


def _norm_url(url: str) -> str:
    u = re.sub(r"^https?://", "", url.strip().lower())
    return u.removeprefix("www.").rstrip("/")
