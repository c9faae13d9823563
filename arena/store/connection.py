"""The little of a database connection the store's queries use, the same for SQLite's
``sqlite3`` and PostgreSQL's ``psycopg`` (through ``postgres.PgConnection``): SQL with
``?`` placeholders, rows read by position or by column name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol


class Row(Protocol):
    """One result row: ``row[0]`` or ``row["name"]``; ``dict(row)`` by its ``keys()``."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> list[str]: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


class Cursor(Protocol):
    """The result of one statement."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """Runs statements; ``?`` marks each parameter."""

    def execute(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ..., /
    ) -> Cursor: ...

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> Cursor: ...
