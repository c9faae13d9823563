"""Copying a whole arena database to another backend (``arena db copy``): every row of
every table, read from one snapshot of the source and written in one transaction into
an empty destination, so a copy is complete or absent, and the source is only read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Store, StoreError

TABLES: Final = (
    "bots", "leagues", "tokens", "matches", "seats", "faults", "records", "ratings",
    "rating_history", "match_counters", "held_matches", "bot_stats", "outcome_counts",
)  # fmt: skip
"""Every table of the schema, each after those it refers to."""
BATCH: Final = 2000
"""Rows read and written at a time (a batch of records is a few MB at most)."""


def copy_database(
    source: Store, destination: Store, *, progress: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Copy every row of ``source`` into ``destination`` (which must hold no rows);
    the number of rows copied per table. StoreError if the destination is not empty or
    either database has a table this arena does not know (nothing is written then)."""
    for store in (source, destination):
        unknown = store.table_names() - set(TABLES)
        if unknown:
            raise StoreError(
                f"{store.where} has tables this arena does not know "
                f"({', '.join(sorted(unknown))}); copy it with the arena that made them"
            )
    held = {t: n for t in TABLES if (n := _count(destination, t))}
    if held:
        listed = ", ".join(f"{n} in {t}" for t, n in held.items())
        raise StoreError(
            f"{destination.where} already holds rows ({listed}); copy into a new, empty "
            "database (nothing was written)"
        )
    copied: dict[str, int] = {}
    with source.snapshot(), destination.transaction() as db:
        for table in TABLES:
            copied[table] = 0
            for rows in source.stream(f"SELECT * FROM {table}", BATCH):
                columns = rows[0].keys()
                db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) "
                    f"VALUES ({', '.join('?' * len(columns))})",
                    [tuple(row) for row in rows],
                )
                copied[table] += len(rows)
                if progress is not None:
                    progress(table, copied[table])
    if destination.dialect == "postgresql":
        with destination.transaction() as db:
            db.execute("ANALYZE")  # the planner's statistics, so reads take the indexes
    return copied


def _count(store: Store, table: str) -> int:
    return int(store.read(f"SELECT count(*) FROM {table}")[0][0])
