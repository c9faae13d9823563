"""Finding 3, files: a database (with its -wal, -shm and .lock files) and a token file
are created readable and writable by their owner only (0600), whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from server.support import arena_cli

from arena.store import open_store
from arena.store.tokens import create_token, owner_of


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The most permissive umask usual on a shared machine."""
    old = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("open_umask")
def test_a_new_database_and_its_companions_are_0600(tmp_path: Path) -> None:
    """On a35e272 SQLite created the database 0644 (0664 under this umask), its -wal
    and -shm files alike, and locks.py the .lock file 0644."""
    db = tmp_path / "data" / "serve.db"
    store = open_store(db)
    try:
        create_token(store, "alice")  # a write: the -wal and -shm files exist now
        companions = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.lock")]
        assert {p.name: _mode(p) for p in companions} == {p.name: 0o600 for p in companions}
    finally:
        store.close()
    assert _mode(db) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_token_create_out_writes_a_new_0600_file_and_prints_no_token(tmp_path: Path) -> None:
    """On a35e272 `arena token create` could only print the token (to a terminal's
    scrollback); there was no token file, let alone a private one."""
    db, out = tmp_path / "serve.db", tmp_path / "alice.token"
    created = arena_cli("token", "create", "alice", "--db", str(db), "--out", str(out))
    assert created.returncode == 0, created.stderr
    assert _mode(out) == 0o600
    assert _mode(db) == 0o600
    secret = out.read_text().strip()
    assert secret not in created.stdout
    store = open_store(db)
    try:
        assert owner_of(store, secret) == "alice"
    finally:
        store.close()
    again = arena_cli("token", "create", "bob", "--db", str(db), "--out", str(out))
    assert again.returncode == 2
    assert "not overwriting" in again.stderr
    assert out.read_text().strip() == secret
