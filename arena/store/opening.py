"""``open_store``: the one way every command opens the database ``--db`` names, a file
path (SQLite) or a ``postgresql://`` URL."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Final

from .base import Store, StoreError

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")
"""How a PostgreSQL URL begins (libpq accepts both)."""
_URL: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a file."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def masked(target: str | Path) -> str:
    """``target`` as messages and logs show it: a PostgreSQL URL with its password (in
    the user part or the query) as ``***``; a path as it is."""
    if not is_postgres_url(target):
        return str(target)
    try:
        parts = urllib.parse.urlsplit(str(target))
        password = parts.password
    except ValueError:  # not a URL Python can read (libpq says why): mask by pattern
        return re.sub(
            r"(?i)(password=)[^&]*",
            r"\1***",
            re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", str(target)),
        )
    netloc = parts.netloc
    if password is not None:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:***@{hostport}"
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def open_store(target: str | Path, *, create: bool = True, read_only: bool = False) -> Store:
    """Open the database at ``target``: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB``
    (or ``postgres://``), else a file path for SQLite. ``create``: make the database's
    schema if it has none (a PostgreSQL database itself must exist). ``read_only``: a
    connection for reads only, usable by another thread than the one that opened it.
    StoreError, saying what to do, for anything that cannot be opened."""
    if is_postgres_url(target):
        try:
            import psycopg  # noqa: F401  (the optional extra)
        except ImportError:
            raise StoreError(
                "PostgreSQL storage needs psycopg 3, which the arena's `postgres` extra "
                "installs (pip install -e '.[postgres]' in a checkout, or pip install "
                "'psycopg[binary]')"
            ) from None
        from .postgres import PostgresStore

        return PostgresStore(str(target), create=create, read_only=read_only)
    if isinstance(target, str) and _URL.match(target):
        scheme = target.split("://", 1)[0]
        raise StoreError(
            f"--db {scheme}://... is not a database this arena can use; give a file path "
            "(SQLite) or postgresql://USER@HOST:PORT/DB"
        )
    from .sqlite import SqliteStore

    return SqliteStore(target, create=create, read_only=read_only)
