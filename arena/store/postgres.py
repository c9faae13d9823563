"""The PostgreSQL store (psycopg 3), opened by URL: the same queries as SQLite's
(``base.py``), the same schema (``dialect.py``), claims as session advisory locks.

One connection in autocommit mode; each write is an explicit transaction. A connection
that breaks (the server restarted, the network dropped) is opened again on the next use,
and its claims taken again: until then every write fails as "cannot be written now"
(``unwritable.postgres_write_fault``), which a league stops on and ``arena serve`` waits
out, as it does a full disk.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any, ClassVar, Final

import psycopg
from psycopg import conninfo
from psycopg.rows import RowMaker

from . import outcomes
from .base import Store, StoreError
from .connection import Connection, Cursor, Row
from .dialect import postgres_migrations
from .migrations import APPLICATION_ID, BACKFILLS
from .opening import masked
from .unwritable import WriteFault, postgres_write_fault

CONNECT_TIMEOUT_S: Final = 10
"""How long connecting may take unless the URL says (``?connect_timeout=N``)."""
SCHEMA_TABLE: Final = "arena_schema"
"""The table that marks a database as the arena's and holds its schema version (what
SQLite keeps in ``PRAGMA application_id`` and ``user_version``)."""
_MIGRATION_LOCK: Final = APPLICATION_ID
"""The advisory lock key under which one opener at a time makes the schema."""


class ClaimLostError(StoreError):
    """The connection broke, and another process took one of this Store's claims
    before it could connect again."""


class PgRow(tuple[Any, ...]):
    """A row read by position or by column name, like ``sqlite3.Row``."""

    _index: ClassVar[dict[str, int]] = {}
    _names: ClassVar[list[str]] = []

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        """The column names, in order."""
        return list(self._names)


@functools.lru_cache(maxsize=512)
def _row_class(names: tuple[str, ...]) -> type[PgRow]:
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        index.setdefault(name, i)  # the first of two same-named columns, as sqlite3.Row
    return type("PgRow", (PgRow,), {"_index": index, "_names": list(names)})


def _rows(cursor: Any) -> RowMaker[PgRow]:
    description = cursor.description or []
    return _row_class(tuple(column.name for column in description))


@functools.lru_cache(maxsize=1024)
def _placeholders(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (a literal ``%``, as in ``a % b``, doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


def _lock_key(name: str) -> int:
    """The advisory lock key (a signed 64-bit number) of a claim's name."""
    digest = hashlib.sha256(f"arena claim {name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _connect_problem(error: Exception, url: str) -> str:
    """A failed connection in plain words, with what to do (never the password)."""
    where = masked(url)
    text = masked(url, str(error)).strip()
    detail = text.rsplit("failed: ", 1)[-1].splitlines()[0].strip()
    detail = re.sub(r"^(FATAL|ERROR):\s+", "", detail)
    lowered = text.lower()
    if "password authentication failed" in lowered:
        hint = "check the user and password in the URL (postgresql://USER:PASSWORD@HOST:PORT/DB)"
    elif "no password supplied" in lowered:
        hint = "the server wants a password: give it in the URL or in ~/.pgpass"
    elif "database" in lowered and "does not exist" in lowered:
        hint = "create the database first (createdb NAME, or CREATE DATABASE NAME)"
    elif "role" in lowered and "does not exist" in lowered:
        hint = "check the user name in the URL"
    elif "connection refused" in lowered or "no such file or directory" in lowered:
        hint = "nothing accepts connections there: is the server running, on that port?"
    elif "resolve host" in lowered or "translate host name" in lowered:
        hint = "check the host name in the URL"
    elif "timeout" in lowered:
        hint = "the host did not answer in time: check the host, the port and any firewall"
    else:
        hint = "check the URL and the server"
    return f"cannot connect to {where}: {detail}; {hint}"


class PgConnection:
    """The store's connection: SQL with ``?`` placeholders run on the live psycopg
    connection (opened again if it broke, outside a transaction)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = (), /) -> Cursor:
        """Run one statement (several, without parameters)."""
        if isinstance(parameters, Mapping):
            raise TypeError("the PostgreSQL store takes ? placeholders, not named ones")
        connection = self._store.live()
        if not parameters:
            return connection.execute(sql.encode())
        return connection.execute(_placeholders(sql).encode(), list(parameters))

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> Cursor:
        """Run one statement for each set of parameters (pipelined by psycopg)."""
        cursor = self._store.live().cursor()
        cursor.executemany(_placeholders(sql).encode(), [list(p) for p in parameters])
        return cursor


class PostgresStore(Store):
    """An arena database in PostgreSQL."""

    dialect: ClassVar[str] = "postgresql"
    integrity_errors = (psycopg.IntegrityError,)

    def __init__(self, url: str, *, create: bool = True, read_only: bool = False) -> None:
        """Connect and bring the schema up to date (see ``open_store``)."""
        self.url = url
        self.where = masked(url)
        self._read_only = read_only
        self._claims: dict[int, str] = {}
        self._lost: str | None = None
        try:
            options = conninfo.conninfo_to_dict(url)
        except psycopg.Error as error:
            raise StoreError(
                f"{self.where} is not a PostgreSQL URL this arena can use "
                f"({self._shown(error)}); give postgresql://USER[:PASSWORD]@HOST[:PORT]/DB"
            ) from None
        self._options: dict[str, Any] = {"application_name": "arena"}
        if "connect_timeout" not in options:
            self._options["connect_timeout"] = CONNECT_TIMEOUT_S
        try:
            self._conn = self._connect()
        except psycopg.Error as error:
            raise StoreError(_connect_problem(error, url)) from None
        self._db = PgConnection(self)
        try:
            if read_only:
                self._check_version()
            else:
                self._migrate(create)
        except psycopg.Error as error:
            self._conn.close()
            raise StoreError(
                f"{self.where} is not a usable arena database: {self._shown(error)}"
            ) from None
        except StoreError:
            self._conn.close()
            raise

    def _shown(self, error: Exception) -> str:
        """``error``'s message without the URL's password (libpq may quote the URL)."""
        return masked(self.url, str(error)).strip()

    def _connect(self) -> psycopg.Connection[PgRow]:
        connection = psycopg.connect(self.url, autocommit=True, row_factory=_rows, **self._options)
        if self._read_only:
            connection.execute(b"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        return connection

    def live(self) -> psycopg.Connection[PgRow]:
        """The connection, opened again if it broke (psycopg.OperationalError if the
        server cannot be reached). Claims held are taken again; if another process took
        one meanwhile, ClaimLostError, then and on every later use: this Store must not
        write beside that process."""
        if self._lost is not None:
            raise ClaimLostError(self._lost)
        if not (self._conn.closed or self._conn.broken):
            return self._conn
        self._conn.close()
        self._conn = self._connect()
        for key, busy in self._claims.items():
            if not self._try_lock(key):
                self._conn.close()
                self._lost = f"the connection to {self.where} was lost and meanwhile {busy}"
                raise ClaimLostError(self._lost)
        return self._conn

    # ------------------------------------------------------------------ schema

    def _schema_version(self) -> int | None:
        """The schema version, or None if the database has no arena schema."""
        found = self._conn.execute(b"SELECT to_regclass('" + SCHEMA_TABLE.encode() + b"')")
        if found.fetchone()[0] is None:  # type: ignore[index]
            return None
        row = self._conn.execute(f"SELECT application_id, version FROM {SCHEMA_TABLE}".encode())
        values = row.fetchone()
        if values is None or values[0] != APPLICATION_ID:
            raise StoreError(f"{self.where} belongs to another application; not touching it")
        return int(values[1])

    def _check_version(self) -> None:
        version = self._schema_version()
        wanted = len(postgres_migrations())
        if version is None:
            raise StoreError(self._no_arena_schema())
        if version != wanted:
            raise StoreError(
                f"{self.where} has schema version {version}, not this arena's ({wanted}); "
                "open it for writing first, which migrates it"
            )

    def _no_arena_schema(self) -> str:
        return (
            f"no arena database at {self.where} (it holds no arena tables); give --db a "
            "database an `arena league` or `arena serve` wrote"
        )

    def _migrate(self, create: bool) -> None:
        """Make or update the schema: one transaction, one opener at a time."""
        migrations = postgres_migrations()
        with self._conn.transaction():
            self._conn.execute(b"SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            version = self._schema_version()
            if version is None:
                tables = self._conn.execute(
                    b"SELECT count(*) FROM information_schema.tables "
                    b"WHERE table_schema = current_schema()"
                ).fetchone()
                if tables is not None and tables[0]:
                    raise StoreError(
                        f"{self.where} is a PostgreSQL database of something else (it has "
                        "tables but no arena schema); not touching it"
                    )
                if not create:
                    raise StoreError(self._no_arena_schema())
                self._conn.execute(
                    f"CREATE TABLE {SCHEMA_TABLE} (application_id BIGINT NOT NULL, "
                    "version INTEGER NOT NULL)".encode()
                )
                self._conn.execute(
                    f"INSERT INTO {SCHEMA_TABLE} VALUES (%s, 0)".encode(), (APPLICATION_ID,)
                )
                version = 0
            if version > len(migrations):
                raise StoreError(
                    f"{self.where} has schema version {version}, newer than this arena "
                    f"({len(migrations)}); upgrade the arena"
                )
            for number in range(version, len(migrations)):
                self._conn.execute(migrations[number].encode())
                if number + 1 in BACKFILLS:
                    outcomes.backfill(self._db)
            self._conn.execute(
                f"UPDATE {SCHEMA_TABLE} SET version = %s".encode(), (len(migrations),)
            )

    # -------------------------------------------------------------- the Store

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction (BEGIN ... COMMIT, or ROLLBACK on error)."""
        with self.live().transaction():
            yield self._db
        self.commits += 1

    def table_names(self) -> set[str]:
        """See ``Store.table_names`` (not the schema version's table)."""
        rows = self._db.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name <> ?",
            (SCHEMA_TABLE,),
        )
        return {str(row[0]) for row in rows}

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one state of the database (REPEATABLE READ)."""
        connection = self.live()
        with connection.transaction():
            connection.execute(b"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield

    def stream(self, sql: str, batch: int) -> Iterator[list[Row]]:
        """See ``Store.stream``: a server-side cursor (inside ``snapshot()``)."""
        with self.live().cursor(name="arena_stream") as cursor:
            cursor.execute(sql.encode())
            while rows := cursor.fetchmany(batch):
                yield list(rows)

    def close(self) -> None:
        """Release the claims, then close the connection. The server would drop the
        advisory locks with the session anyway, but only once its backend has seen the
        close: a claim made right after this returns must find them free."""
        if self._claims:
            with suppress(psycopg.Error):
                self._conn.execute(b"SELECT pg_advisory_unlock_all()")
        self._conn.close()
        self._claims.clear()

    def _try_lock(self, key: int) -> bool:
        row = self._conn.execute(b"SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        return bool(row is not None and row[0])

    def claim(self, name: str, busy: str) -> None:
        """See ``Store.claim``: a session advisory lock, which PostgreSQL gives up when
        the connection ends (the process died, even by SIGKILL). Two Stores are two
        sessions, so they exclude each other in one process too."""
        key = _lock_key(name)
        try:
            self.live()
            if not self._try_lock(key):
                raise StoreError(busy)
        except psycopg.Error as error:
            raise StoreError(f"cannot lock {self.where}: {self._shown(error)}") from None
        self._claims[key] = busy

    def alone(self) -> bool:
        """Never: the arena does not remove a PostgreSQL database (nor is it a file a
        refused league could leave behind)."""
        return False

    def write_fault(self, error: BaseException) -> WriteFault | None:
        """See ``Store.write_fault`` (PostgreSQL's SQLSTATEs, ``unwritable.py``). A lost
        claim is one too: nothing more is written (a paused ladder stays paused)."""
        if isinstance(error, ClaimLostError):
            return WriteFault(
                "another process took over the database",
                f"{error}; stop that process or this one (restarting this one resumes it)",
            )
        return postgres_write_fault(error, self.where)
