"""A throwaway local PostgreSQL cluster for tests, benchmarks and trying several servers at once.

`with Cluster.start(directory) as cluster: url = cluster.create_database("t1")` runs `initdb` and
`pg_ctl` from the local PostgreSQL binaries (PATH, $PG_BIN, or /usr/lib/postgresql/<N>/bin) with
the data directory and the unix socket inside `directory`, on a free TCP port of 127.0.0.1, with
fsync off: fast and disposable, never for data you keep. As root it runs the server as the
`postgres` user (PostgreSQL refuses to run as root) and hands it the directory.

    python -m exa_orch.store.pgcluster DIR    # start one, print its URL, stop on Ctrl-C
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL server binaries here, or the throwaway cluster did not start (the reason says which)."""


def find_bin_dir() -> Path | None:
    """The directory holding `initdb` and `pg_ctl`, or None if PostgreSQL isn't installed."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    root = Path("/usr/lib/postgresql")
    if root.is_dir():
        versions = sorted((p for p in root.iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
        candidates.extend(p / "bin" for p in reversed(versions))
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Cluster:
    """A running throwaway cluster: `url(db)` names one of its databases."""

    directory: Path
    bin_dir: Path
    port: int
    user: str

    @classmethod
    def start(cls, directory: Path, *, durable: bool = False) -> Self:
        """initdb + pg_ctl start in `directory`; ClusterUnavailable with the reason if it can't.

        `durable`: keep PostgreSQL's default fsync and synchronous commit (for benchmarks);
        otherwise both are off, which is faster and fine for data thrown away after the run.
        """
        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise ClusterUnavailable(
                "PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql-15 or set PG_BIN"
            )
        directory.mkdir(parents=True, exist_ok=True)
        as_root = os.geteuid() == 0
        user = "postgres" if as_root else (os.environ.get("USER") or "postgres")
        if as_root:
            shutil.chown(directory, user="postgres")
        cluster = cls(directory, bin_dir, _free_port(), user)
        data = directory / "data"
        cluster._run(
            [str(bin_dir / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "--no-sync", "-E", "UTF8"]
        )
        options = f"-p {cluster.port} -k {directory} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        cluster._run(
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(directory / "server.log"), "-w"]
            + ["-o", options, "start"]
        )
        return cluster

    def _run(self, argv: list[str]) -> None:
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=self.directory)
        if done.returncode != 0:
            log = self.directory / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterUnavailable(
                f"{' '.join(argv[-3:])} failed ({done.returncode}): {done.stderr.strip()[-1500:]}\n{tail}"
            )

    def url(self, database: str = "postgres") -> str:
        """A libpq URL for `database` on this cluster (TCP on 127.0.0.1)."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """CREATE DATABASE `name` (from `template` if given); return its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
            conn.execute(sql.encode())
        return self.url(name)

    def stop(self) -> None:
        """pg_ctl stop (fast); idempotent."""
        with contextlib.suppress(ClusterUnavailable):
            self._run(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "immediate", "stop"]
            )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextlib.contextmanager
def running(directory: Path, *, durable: bool = False) -> Iterator[Cluster]:
    """A started cluster in `directory`, stopped on exit."""
    cluster = Cluster.start(directory, durable=durable)
    try:
        yield cluster
    finally:
        cluster.stop()


def _serve(directory: Path) -> None:
    """Start a cluster, print its URL, and stop it on Ctrl-C or SIGTERM (`kill`, a service manager,
    `timeout`): the server is a separate process that would otherwise outlive this one."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)  # also when started in the background, where SIGINT is ignored
    with running(directory.resolve()) as started:
        print(started.url(), flush=True)
        while True:
            signal.pause()


if __name__ == "__main__":  # pragma: no cover - run as a process by the tests
    _serve(Path(sys.argv[1]))
