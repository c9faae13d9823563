"""A disk that fills up, for the tests of a database that cannot be written: a real
SQLite store whose write transactions fail as SQLite's do on a full disk (the
transaction rolled back, then ``sqlite3.OperationalError("database or disk is full")``)
while ``full`` is set."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from arena.store.sqlite import SqliteStore

FULL = "database or disk is full"
"""SQLite's words for SQLITE_FULL."""


class FillingDisk(SqliteStore):
    """A store on a disk that is full while ``full`` is set."""

    full = False
    failed = 0
    """Write transactions that failed."""

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that, while ``full``, does its work and then fails."""
        with super().transaction() as db:
            yield db
            if self.full:
                self.failed += 1
                raise sqlite3.OperationalError(FULL)
