"""Shared by every test directory: this file's directory (``tests/``) is on ``sys.path``
(pytest puts it there to load this file), so a directory's test kit can be imported
from another, e.g. ``from referee.scripted import run_virtual`` in tests/security."""

import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.store.pg_cluster import TempCluster

_FUZZ = Path(__file__).resolve().parent / "fuzz"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fuzzing (tests/fuzz) is slow by nature: ``./scripts/test --fast`` leaves it out;
    the whole suite runs it."""
    for item in items:
        if _FUZZ in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def ray_temp_dir() -> Iterator[None]:
    """Ray's sessions (logs, sockets) in a folder of this test session (one per pytest-xdist
    worker; the ``arena`` processes a test starts inherit it), removed at its end: by
    default Ray keeps every session in /tmp/ray, and each suite left a few more there.
    A short path: Ray's Unix sockets live under it (at most 107 bytes)."""
    folder = tempfile.mkdtemp(prefix="ray-")
    os.environ["RAY_TMPDIR"] = folder
    try:
        yield
    finally:
        os.environ.pop("RAY_TMPDIR", None)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[TempCluster]:
    """A real PostgreSQL server for this test session (one per pytest-xdist worker),
    started on first use: initdb into a temporary folder, stopped by its process id at
    the end. ./scripts/setup installs Debian's postgresql packages when missing."""
    cluster = TempCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


_DATABASES = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes new, empty arena databases, all on one backend (the test runs once on
    each): SQLite file paths, or URLs of fresh databases on the session's PostgreSQL
    server."""
    made = itertools.count()

    def make() -> str:
        if request.param == "sqlite":
            return str(tmp_path / f"arena-{next(made)}.db")
        cluster: TempCluster = request.getfixturevalue("pg_cluster")
        return cluster.create_database(f"test_{os.getpid()}_{next(_DATABASES)}")

    return make


@pytest.fixture
def db_url(new_db: Callable[[], str]) -> str:
    """A new, empty arena database: an SQLite file path, or a PostgreSQL URL (the test
    runs once with each)."""
    return new_db()
