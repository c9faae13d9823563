"""The SQLite store. One writer connection; WAL so readers (``arena ratings`` while a
league runs, the read connections of ``arena serve``) never block it. A match's result
and its rating update are written in one transaction, so a killed process leaves either
both or neither."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar, Final

from . import outcomes
from .base import Store, StoreError
from .connection import Row
from .locks import LockBusyError, LockFile
from .migrations import APPLICATION_ID, BACKFILLS, MIGRATIONS
from .rows import HeldMatch, MatchRow, RatingRow, SeatRow, Standing, standing_key
from .unwritable import WriteFault, write_fault

__all__ = [  # the rows' old import path (they live in rows.py), for code written before
    "HeldMatch", "MatchRow", "RatingRow", "SeatRow", "SqliteStore", "Standing", "StoreError",
    "standing_key",
]  # fmt: skip

BUSY_TIMEOUT_S = 30.0
"""How long a Store waits for another process holding the database."""
FILE_MODE: Final = 0o600
"""Permissions of a database file this arena creates (and so of its -wal, -shm and
.lock files): its owner's only."""
NOT_SQLITE: Final = (
    "{path} is not an SQLite database (not touching it); give --db an arena database, or a "
    "new file name for a new one"
)
FOREIGN: Final = "{path} belongs to another application; not touching it"


class SqliteStore(Store):
    """An arena database in one SQLite file."""

    dialect: ClassVar[str] = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)
    _db: sqlite3.Connection

    def __init__(self, path: str | Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open (with ``create``, make) the database and bring its schema up to date.
        ``read_only``: a connection for reads only (``arena serve`` reads on other threads
        than its writer's): the database must exist with the current schema; nothing is
        written, migrated or locked, and the connection may be used (one thread at a
        time) by a thread other than the one that opened it."""
        self.path = Path(path)
        self.where = str(self.path)
        if read_only:
            create = False
        if not create and not self.path.exists():
            raise StoreError(
                f"no database at {self.path}; give --db the file an `arena league` or "
                "`arena serve` wrote"
            )
        if self.path.exists() and self.path.is_dir():
            raise StoreError(f"{self.path} is a directory; give a database file path")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Created 0600 here, not by SQLite (0644): it holds tokens' hashes and records.
            # SQLite gives its -wal and -shm files the database file's permissions.
            if not read_only and not self.path.exists():
                with contextlib.suppress(FileExistsError):  # another process was first
                    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                    os.close(os.open(self.path, flags, FILE_MODE))
            self._db = sqlite3.connect(
                self.path,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_S,
                check_same_thread=not read_only,
            )
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot open database {self.path}: {error}") from None
        self._db.row_factory = sqlite3.Row
        self._locks: LockFile | None = None  # DB.lock, once a lock is taken
        if read_only:
            self._open_for_reading()
            return
        try:
            self._refuse_foreign()  # before any write, WAL mode included
            self._enter_wal()
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(f"{self.path} is not a usable arena database: {error}") from None
        except StoreError:
            self._db.close()
            raise
        if create:
            # A writer says it has the database open, so that a league refused before it
            # began never removes a file another process has just started to use.
            # No lock file (a read-only folder, say) loses only that safety.
            with contextlib.suppress(StoreError, LockBusyError, OSError):
                self._lock_file().share_open()

    def _open_for_reading(self) -> None:
        try:
            self._db.execute("PRAGMA query_only=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise self._unusable(error) from None
        if app_id not in (0, APPLICATION_ID):
            self._db.close()
            raise StoreError(FOREIGN.format(path=self.path))
        if version != len(MIGRATIONS):
            self._db.close()
            raise StoreError(
                f"{self.path} has schema version {version}, not this arena's "
                f"({len(MIGRATIONS)}); open it for writing first, which migrates it"
            )

    def _unusable(self, error: sqlite3.DatabaseError) -> StoreError:
        if "file is not a database" in str(error):
            return StoreError(NOT_SQLITE.format(path=self.path))
        return StoreError(f"{self.path} is not a usable arena database: {error}")

    def _refuse_foreign(self) -> None:
        """Refuse, before writing anything, a file that is not an arena database. Read
        through SQLite, never by opening the file: closing any descriptor of a file drops
        every POSIX lock the process holds on it, so a process that has the database open
        (a server opening read connections beside its writer) would lose its locks, and
        another process closing the database last would then delete the write-ahead log
        under this one's connections ("disk I/O error")."""
        # One read transaction: another process may be making the schema right now, and
        # its tables must not be seen without its version number.
        try:
            self._db.execute("BEGIN")
        except sqlite3.DatabaseError as error:
            raise self._unusable(error) from None
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
            tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise self._unusable(error) from None
        finally:
            if self._db.in_transaction:
                self._db.execute("COMMIT")
        if app_id not in (0, APPLICATION_ID):
            raise StoreError(FOREIGN.format(path=self.path))
        if version == 0 and app_id == 0 and tables:
            raise StoreError(
                f"{self.path} is an SQLite database of something else (it has tables "
                "but no arena schema); not touching it"
            )

    def _enter_wal(self) -> None:
        """WAL mode (it stays with the file). Switching a new database to it needs the
        file to itself and does not wait for other processes opening it at the same
        moment, so retry for a while, as the busy timeout would."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _migrate(self) -> None:
        while (version := self._db.execute("PRAGMA user_version").fetchone()[0]) < len(MIGRATIONS):
            # One transaction so the migration, its backfill and its version number
            # commit together (executescript would commit a transaction opened outside
            # it, so the script opens it, and leaves it open).
            try:
                self._db.executescript("BEGIN IMMEDIATE;" + MIGRATIONS[version])
                if version + 1 in BACKFILLS:
                    outcomes.backfill(self._db)
                self._db.execute(f"PRAGMA user_version = {version + 1}")
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self._db.execute("COMMIT")
            except sqlite3.Error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if self._db.execute("PRAGMA user_version").fetchone()[0] > version:
                    continue  # another process opening the database made it meanwhile
                raise
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {version}, newer than this arena "
                f"({len(MIGRATIONS)}); upgrade the arena"
            )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        self.commits += 1

    def close(self) -> None:
        """Close the connection (and give up every claim)."""
        self._db.close()
        if self._locks is not None:
            self._locks.close()
            self._locks = None

    def claim(self, name: str, busy: str) -> None:
        """See ``Store.claim``: a lock on a byte of ``DB.lock`` (``locks.py``)."""
        try:
            self._lock_file().claim(name)
        except LockBusyError:
            raise StoreError(busy) from None
        except OSError as error:
            raise StoreError(f"cannot lock {self.path}.lock: {error}") from None

    def alone(self) -> bool:
        """See ``Store.alone``: no other Store holds a lock on ``DB.lock``."""
        return self._lock_file().alone()

    def _lock_file(self) -> LockFile:
        if self._locks is None:
            lock_path = self.path.with_name(self.path.name + ".lock")
            try:
                self._locks = LockFile(lock_path)
            except OSError as error:
                raise StoreError(f"cannot open the lock file {lock_path}: {error}") from None
        return self._locks

    def write_fault(self, error: BaseException) -> WriteFault | None:
        """See ``Store.write_fault`` (SQLite's result codes, ``unwritable.py``)."""
        return write_fault(error, self.path)

    def table_names(self) -> set[str]:
        """See ``Store.table_names`` (not SQLite's own ``sqlite_*`` tables)."""
        rows = self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
        )
        return {str(row[0]) for row in rows}

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one state of the database (one read transaction)."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def stream(self, sql: str, batch: int) -> Iterator[list[Row]]:
        """See ``Store.stream``."""
        cursor = self._db.execute(sql)
        while rows := cursor.fetchmany(batch):
            yield rows
