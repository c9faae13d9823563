"""ListBots answers in pages. It had none; past about 16,500 bots its reply passed the 16 MiB
message cap and every client (and `arena bots`) got an error instead of the list.

17,500 bots of about 1 kB each are written straight into the database. Fails on
a35e272: ListBots is RESOURCE_EXHAUSTED. Passes now: a request without a page token
gets the first page, the pages walk every bot once in name order (each page capped, well
under the 4 MiB a gRPC client takes by default), and `arena bots` shows them all.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from server.support import Processes, arena_cli, stub

from arena.store import open_store
from arena.store.registry import SUBMITTED
from arena.v1 import arena_pb2

BOTS = 17_500


def _many_bots(path: Path) -> list[str]:
    open_store(path).close()
    names = [f"bot{i:05d}" for i in range(BOTS)]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO bots(name, kind, target, owner, description, status, status_reason,"
            " created_at) VALUES (?, ?, ?, 'crowd', ?, 'suspended', 'failed verification', 0)",
            [(n, SUBMITTED, f"127.0.0.1:{1024 + i}", "é" * 500) for i, n in enumerate(names)],
        )
        db.execute("COMMIT")
    finally:
        db.close()
    return names


@pytest.mark.slow
def test_many_bots_are_listed_a_page_at_a_time(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    names = _many_bots(db)
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "4")
        with stub(server.address) as client:
            first = client.ListBots(arena_pb2.ListBotsRequest(), timeout=30)
            assert [b.name for b in first.bots] == names[:100]
            assert first.next_page_token
            seen: list[str] = []
            request = arena_pb2.ListBotsRequest(page_size=10**6)
            while True:
                reply = client.ListBots(request, timeout=30)
                assert 0 < len(reply.bots) <= 500
                assert reply.ByteSize() < 4 * 1024 * 1024
                seen += [b.name for b in reply.bots]
                if not reply.next_page_token:
                    break
                request.page_token = reply.next_page_token
            assert seen == names
        shown = arena_cli("bots", "--arena", server.address, "--format", "json", timeout=120)
        assert shown.returncode == 0, shown.stderr
        assert [b["name"] for b in json.loads(shown.stdout)["bots"]] == names
    finally:
        procs.kill_all()
