"""What the simulated world knows how to talk about: its industries, places, funding rounds and
technologies, and the words a query or a criterion names them by.

Plain data: `sim/facets.py` reads texts with it, `sim/worldgen.py` draws companies from it. Several words of a place ("San Francisco", "United Kingdom") are one place.
"""

from __future__ import annotations

import re

# industry -> keywords an entity of that industry is found by (the first few also describe it)
INDUSTRIES: dict[str, tuple[str, ...]] = {
    "Artificial Intelligence": tuple(
        "ai artificial intelligence machine learning ml llm llms models genai generative".split()
    ),
    "Cloud Infrastructure": ("infrastructure", "cloud", "compute", "inference", "serving", "datacenter"),
    "Developer Tools": ("developer", "developers", "devtools", "software", "api", "sdk", "open-source"),
    "Fintech": ("fintech", "finance", "payments", "banking", "financial", "lending"),
    "Healthcare": ("healthcare", "health", "medical", "clinical", "patients", "medtech"),
    "Climate Tech": ("climate", "carbon", "sustainability", "emissions", "cleantech", "green"),
    "Cybersecurity": ("cybersecurity", "security", "threat", "identity", "privacy", "cyber"),
    "Robotics": ("robotics", "robots", "automation", "autonomous", "drones", "hardware"),
    "E-commerce": ("ecommerce", "e-commerce", "retail", "shopping", "marketplace", "commerce"),
    "Biotech": ("biotech", "biology", "genomics", "drug", "discovery", "protein"),
    "Semiconductors": ("semiconductors", "chips", "silicon", "gpu", "gpus", "fabrication"),
    "Education": ("education", "edtech", "learning", "students", "courses", "teaching"),
    "Logistics": ("logistics", "supply", "chain", "shipping", "freight", "delivery"),
    "Quantum Computing": ("quantum", "qubits", "photonic", "cryogenic"),
    "Energy": ("energy", "battery", "solar", "grid", "storage", "renewable"),
}
# several words that name one industry, read before single words ("machine learning" is not
# "learning", which alone means education)
INDUSTRY_PHRASES: dict[str, str] = {
    "artificial intelligence": "Artificial Intelligence",
    "machine learning": "Artificial Intelligence",
    "developer tools": "Developer Tools",
    "developer tooling": "Developer Tools",
    "developer platform": "Developer Tools",
    "supply chain": "Logistics",
    "quantum computing": "Quantum Computing",
    "climate tech": "Climate Tech",
    "financial services": "Fintech",
    "cloud computing": "Cloud Infrastructure",
}

# region -> (city, country) pairs
REGIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "Europe": (("Berlin", "Germany"), ("Munich", "Germany"), ("Paris", "France"), ("London", "United Kingdom"), ("Amsterdam", "Netherlands"), ("Stockholm", "Sweden"), ("Zurich", "Switzerland"), ("Barcelona", "Spain"), ("Helsinki", "Finland"), ("Dublin", "Ireland"), ("Warsaw", "Poland")),
    "North America": (("San Francisco", "United States"), ("New York", "United States"), ("Boston", "United States"), ("Austin", "United States"), ("Seattle", "United States"), ("Toronto", "Canada")),
    "Asia": (("Singapore", "Singapore"), ("Bangalore", "India"), ("Tokyo", "Japan"), ("Seoul", "South Korea")),
    "Latin America": (("Sao Paulo", "Brazil"), ("Mexico City", "Mexico")),
    "Africa": (("Lagos", "Nigeria"), ("Nairobi", "Kenya")),
    "Middle East": (("Tel Aviv", "Israel"), ("Dubai", "United Arab Emirates")),
}  # fmt: skip
REGION_WEIGHTS = (35, 35, 15, 5, 5, 5)  # skewed like the startup world
# region -> words of a query that mean it (single words; the region's own name is a phrase too)
REGION_WORDS: dict[str, tuple[str, ...]] = {
    "Europe": ("europe", "european", "eu"),
    "North America": ("north", "america", "american", "usa", "us"),
    "Asia": ("asia", "asian", "apac"),
    "Latin America": ("latin", "latam", "america"),
    "Africa": ("africa", "african"),
    "Middle East": ("middle", "east", "mena"),
}
# other names of places: phrase -> the canonical city, country or region
PLACE_ALIASES: dict[str, str] = {
    "european": "Europe", "eu": "Europe", "apac": "Asia", "asian": "Asia", "latam": "Latin America",
    "african": "Africa", "mena": "Middle East", "usa": "United States", "u.s.": "United States",
    "uk": "United Kingdom", "u.k.": "United Kingdom", "britain": "United Kingdom", "nyc": "New York",
    "sf": "San Francisco", "bay area": "San Francisco", "são paulo": "Sao Paulo", "bengaluru": "Bangalore",
    "uae": "United Arab Emirates", "america": "North America", "american": "North America",
}  # fmt: skip

ROUNDS: tuple[str, ...] = ("Pre-seed", "Seed", "Series A", "Series B", "Series C", "Series D", "Series E")
# the amount raised in each round, in dollars: (low, high)
ROUND_AMOUNTS: dict[str, tuple[int, int]] = {
    "Pre-seed": (300_000, 2_000_000), "Seed": (2_000_000, 8_000_000), "Series A": (8_000_000, 30_000_000),
    "Series B": (25_000_000, 90_000_000), "Series C": (60_000_000, 200_000_000),
    "Series D": (150_000_000, 400_000_000), "Series E": (300_000_000, 900_000_000),
}  # fmt: skip
WORLD_YEAR = 2025  # the last full year the world knows (the simulated clock starts on 2026-01-01)

# industry -> technologies its companies build with (one or two words each, read as phrases)
TECHNOLOGIES: dict[str, tuple[str, ...]] = {
    "Artificial Intelligence": ("PyTorch", "JAX", "CUDA", "Python", "Ray", "TensorFlow"),
    "Cloud Infrastructure": ("Kubernetes", "Rust", "Golang", "CUDA", "Terraform", "eBPF"),
    "Developer Tools": ("TypeScript", "Rust", "Golang", "Python", "WebAssembly", "GraphQL"),
    "Fintech": ("Java", "Kotlin", "PostgreSQL", "Kafka", "Python"),
    "Healthcare": ("Python", "FHIR", "React", "AWS"),
    "Climate Tech": ("Python", "IoT", "React", "AWS"),
    "Cybersecurity": ("Rust", "Golang", "eBPF", "Kubernetes"),
    "Robotics": ("ROS", "C++", "CUDA", "Python"),
    "E-commerce": ("React", "Shopify", "PostgreSQL", "Node.js"),
    "Biotech": ("Python", "AlphaFold", "CUDA", "Bioconductor"),
    "Semiconductors": ("Verilog", "CUDA", "RISC-V", "C++"),
    "Education": ("React", "Node.js", "Python", "AWS"),
    "Logistics": ("Python", "Kafka", "PostgreSQL", "React"),
    "Quantum Computing": ("Qiskit", "Python", "C++", "CUDA"),
    "Energy": ("Python", "IoT", "Rust", "AWS"),
}
# what a company of industries (a, b) builds, said as its page would say it
FOCUS: dict[tuple[str, str], str] = {
    ("Artificial Intelligence", "Cloud Infrastructure"): "infrastructure for AI models: GPU cloud, training and inference serving",
    ("Cloud Infrastructure", "Artificial Intelligence"): "infrastructure for AI models: GPU cloud, training and inference serving",
    ("Artificial Intelligence", "Developer Tools"): "developer tools for AI: SDKs, evaluation and observability for LLM apps",
    ("Developer Tools", "Artificial Intelligence"): "developer tools for AI: SDKs, evaluation and observability for LLM apps",
    ("Artificial Intelligence", "Semiconductors"): "chips and hardware for AI models",
    ("Semiconductors", "Artificial Intelligence"): "chips and hardware for AI models",
}  # fmt: skip

# what a company of one industry builds, said as its page would say it
PRODUCTS: dict[str, str] = {
    "Artificial Intelligence": "AI models and assistants for businesses",
    "Cloud Infrastructure": "cloud infrastructure: managed compute, storage and networking",
    "Developer Tools": "developer tools: APIs, SDKs and open-source libraries",
    "Fintech": "payments and banking software",
    "Healthcare": "clinical software for patients and care teams",
    "Climate Tech": "carbon accounting and emissions reduction software",
    "Cybersecurity": "security software that detects threats and protects identity",
    "Robotics": "autonomous robots and automation hardware",
    "E-commerce": "an online marketplace and retail tools",
    "Biotech": "drug discovery and genomics platforms",
    "Semiconductors": "chips and silicon designs",
    "Education": "online courses and learning tools for students",
    "Logistics": "shipping, freight and supply chain software",
    "Quantum Computing": "quantum computers and qubit control systems",
    "Energy": "battery storage and solar grid systems",
}


def technology_names() -> list[str]:
    """Every technology the world knows, longest first (so a longer name is read before a part)."""
    names = {t for techs in TECHNOLOGIES.values() for t in techs}
    return sorted(names, key=lambda t: (-len(t), t))


# words that say which kind of entity a query wants
KIND_WORDS: dict[str, tuple[str, ...]] = {
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
ALL_KIND_WORDS = frozenset(w for ws in KIND_WORDS.values() for w in ws)

STOPWORDS = frozenset(
    "a an the of in on at for to and or with by from that which who whose is are be as about into "
    "based than over under their its it this those these all any some find list show me get top best "
    "new recent".split()
)
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*")


def tokens(text: str) -> list[str]:
    """Lower-case words of `text` without stopwords, with a trailing plural 's' folded in."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        w = w.strip(".-")
        if not w or w in STOPWORDS:
            continue
        out.append(w)
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            out.append(w[:-1])
    return out
