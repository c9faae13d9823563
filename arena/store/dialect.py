"""The schema's migrations (``migrations.py``, written for SQLite and never edited once
released) as PostgreSQL runs them. One source of the schema: the differences between the
two dialects are these few rewrites, each of which must apply (a test runs every
migration on both)."""

from __future__ import annotations

import re
from typing import Final

from .migrations import MIGRATIONS

_TYPES: Final = (
    # SQLite's REAL is a double; PostgreSQL's is 4 bytes (times and ratings need 8).
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    # Seeds and counters go past 2**31: PostgreSQL's INTEGER is 4 bytes, SQLite's up to 8.
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bBLOB\b"), "BYTEA"),
    (re.compile(r"\)\s*WITHOUT ROWID"), ")"),  # a SQLite storage choice
)
_STATEMENTS: Final = (
    # PostgreSQL does not sum booleans.
    ("sum(s.rank = 1)", "sum(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END)"),
    # An index on an expression: PostgreSQL wants it in parentheses.
    ("ratings(ladder, 3 * sigma - mu, bot)", "ratings(ladder, (3 * sigma - mu), bot)"),
)


def postgres_migrations() -> tuple[str, ...]:
    """Every migration, in order, in PostgreSQL's dialect."""
    return tuple(postgres_migration(sql) for sql in MIGRATIONS)


def postgres_migration(sql: str) -> str:
    """One migration in PostgreSQL's dialect."""
    for pattern, replacement in _TYPES:
        sql = pattern.sub(replacement, sql)
    for sqlite_text, postgres_text in _STATEMENTS:
        sql = sql.replace(sqlite_text, postgres_text)
    return sql


def unused_rewrites() -> list[str]:
    """The statement rewrites that change no migration (a test keeps this empty, so a
    rewrite cannot silently stop applying)."""
    return [old for old, _ in _STATEMENTS if not any(old in sql for sql in MIGRATIONS)]
