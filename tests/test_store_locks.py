"""Claims on a database (``Store.claim``: a lock file for SQLite, advisory locks for
PostgreSQL) and the "is anybody else here" check that guards removing a database: real
files, real servers, real processes."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.store import StoreError, open_store

ROOT = Path(__file__).resolve().parents[1]


def test_a_claim_excludes_another_store_even_in_the_same_process(db_url: str) -> None:
    db = db_url
    first, second = open_store(db), open_store(db)
    try:
        first.claim("league a", "busy")
        with pytest.raises(StoreError, match="busy"):
            second.claim("league a", "busy")
        second.claim("league b", "busy")  # another name is free
        second.close()  # closing another Store must not drop the first one's claim
        third = open_store(db)
        try:
            with pytest.raises(StoreError, match="busy"):
                third.claim("league a", "busy")
        finally:
            third.close()
    finally:
        first.close()
    again = open_store(db)  # a closed Store's claims are gone
    try:
        again.claim("league a", "busy")
    finally:
        again.close()


@pytest.mark.slow
def test_a_killed_process_gives_up_its_claim(db_url: str) -> None:
    # SIGKILL: no close(), no cleanup; the kernel (SQLite's lock file) or the server
    # (PostgreSQL's session ends with its connection) must drop the claim.
    code = (
        "import sys\n"
        "from arena.store import open_store\n"
        f"store = open_store({db_url!r})\n"
        "store.claim('serve', 'busy')\n"
        "print('claimed', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    store = None
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "claimed"
        store = open_store(db_url)
        with pytest.raises(StoreError, match="busy"):
            store.claim("serve", "busy")
        holder.kill()
        holder.wait(timeout=30)
        deadline = time.monotonic() + 30  # the server notices the closed socket at once
        while True:
            try:
                store.claim("serve", "busy")
                break
            except StoreError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    finally:
        holder.kill()
        holder.wait(timeout=30)
        if store is not None:
            store.close()


def test_alone_sees_another_open_store(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    mine = open_store(db)
    try:
        assert mine.alone()
        other = open_store(db)
        assert not mine.alone()
        other.close()
        assert mine.alone()
    finally:
        mine.close()


@pytest.mark.slow
def test_a_refused_league_keeps_a_database_another_process_opened(tmp_path: Path) -> None:
    # League B creates the file, then fails (its bot dies before listening); meanwhile
    # this test (another process) opened the database. B must not remove it.
    db = tmp_path / "shared.db"
    dying = 'python -c "import time; time.sleep(1.5); raise SystemExit(3)"'
    league = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "league", "--bot", f"a=cmd:{dying}", "--bot",
         "b=random", "--table-size", "2", "--matches", "1", "--db", str(db), "--quiet"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    store = None
    try:
        deadline = time.monotonic() + 20
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        store = open_store(db)
        _, err = league.communicate(timeout=60)
        assert league.returncode == 2
        assert "exited with status 3" in err
        assert db.exists(), "the refused league removed a database in use"
        assert Path(f"{db}.lock").exists()
    finally:
        league.kill()
        league.wait(timeout=10)
        if store is not None:
            store.close()


@pytest.mark.slow
def test_processes_opening_a_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    # Each makes the schema if nobody has: they race to switch it to WAL and to migrate.
    db = tmp_path / "new.db"
    start = time.time() + 1.0
    code = (
        "import sys, time\n"
        "from arena.store import open_store\n"
        f"while time.time() < {start}: pass\n"
        f"open_store({str(db)!r}).close()\n"
    )
    openers = [
        subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    errors = []
    for opener in openers:
        _, err = opener.communicate(timeout=60)
        if opener.returncode:
            errors.append(err.strip().splitlines()[-1])
    assert errors == []
    store = open_store(db, create=False)
    try:
        assert store.ladders() == []  # one good schema
    finally:
        store.close()


def test_opening_a_reader_beside_open_connections_keeps_the_process_s_sqlite_locks(
    tmp_path: Path,
) -> None:
    """A server holds its writer and readers open and opens more readers as it goes. If
    opening one read the file outside SQLite (and closed it), the process's POSIX locks on
    the database would be gone: another process closing its connection last would then
    checkpoint and delete the write-ahead log under the server's connections, whose next
    read fails with "disk I/O error"."""
    db = tmp_path / "arena.db"
    writer = open_store(db)
    reader = open_store(db, read_only=True)
    try:
        assert reader.ladder_ratings("ladder", include_retired=True) == []
        open_store(db, read_only=True).close()  # a new read connection, opened and closed
        other = "from arena.store import open_store; open_store(__import__('sys').argv[1]).close()"
        subprocess.run([sys.executable, "-c", other, str(db)], cwd=ROOT, check=True, timeout=60)
        assert (tmp_path / "arena.db-wal").exists()  # still ours, not deleted
        assert reader.ladder_ratings("ladder", include_retired=True) == []
    finally:
        reader.close()
        writer.close()
