"""The checkpointing processes of the crash test (run by test_crash.py, not collected by pytest).

    python crash_child.py DB    (an SQLite file or a postgresql:// URL)

A fork server: it imports the store once, then for each `run TASK_ID START` line on stdin forks
a child that saves steps s{START}, s{START+1}, ... (keys zero-padded to six digits) and writes each step's key to a pipe only after save_step returned: a key written is an
acknowledged, durable checkpoint. The server answers `pid N`, relays each key as `ack KEY`,
and once the child is gone (the test SIGKILLs it) answers `exit STATUS` (the raw wait status).
Forking instead of starting a fresh interpreter per kill keeps 60 kills fast.
"""

from __future__ import annotations

import asyncio
import os
import sys

from exa_orch.store import Store


async def checkpoint_forever(db: str, task_id: str, start: int, ack_fd: int) -> None:
    async with Store(db) as store:
        i = start
        while True:
            key = f"s{i:06d}"
            await store.save_step(task_id, key, {"i": i, "key": key, "pad": "x" * 40})
            os.write(ack_fd, key.encode() + b"\n")  # one small write: atomic on a pipe
            i += 1


def serve(db: str) -> None:
    out = sys.stdout.buffer
    for line in sys.stdin:
        command, task_id, start = line.split()
        if command != "run":
            continue
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the checkpointing child; it ends by SIGKILL
            os.close(read_fd)
            try:
                asyncio.run(checkpoint_forever(db, task_id, int(start), write_fd))
            finally:
                os._exit(1)
        os.close(write_fd)
        out.write(f"pid {pid}\n".encode())
        out.flush()
        with os.fdopen(read_fd, "rb") as acks:
            for ack in acks:
                out.write(b"ack " + ack)
                out.flush()
        _, status = os.waitpid(pid, 0)
        out.write(f"exit {status}\n".encode())
        out.flush()


if __name__ == "__main__":
    serve(sys.argv[1])
