"""Shared by every test directory: this file's directory (``tests/``) is on ``sys.path``
(pytest puts it there to load this file), so a directory's test kit can be imported
from another, e.g. ``from referee.scripted import run_virtual`` in tests/security."""

import itertools
import os
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
