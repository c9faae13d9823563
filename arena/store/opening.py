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


_USER_PASSWORD: Final = re.compile(r"(://[^:/@]*:)([^@]*)@")
"""The password of a URL's user part, up to the first ``@``."""
_QUERY_PASSWORD: Final = re.compile(r"(?i)(password=)([^&]*)")


def masked(target: str | Path, text: str | None = None) -> str:
    """``text`` (default: ``target`` itself) as messages and logs show it, without the
    password ``target`` carries if it is a PostgreSQL URL: ``target`` with its password
    (in the user part or the query) as ``***``, and anywhere else in ``text`` the
    password itself, as written or percent-decoded, as ``***`` (libpq's messages quote
    the whole URL, or only the part it could not read)."""
    if not is_postgres_url(target):
        return str(target) if text is None else text
    url = str(target)
    shown = _masked_url(url)
    if text is None:
        return shown
    secrets = sorted(_passwords(url), key=len, reverse=True)
    pieces = []
    for piece in text.split(url):
        for secret in secrets:
            piece = piece.replace(secret, "***")
        pieces.append(piece)
    return shown.join(pieces)


def _passwords(url: str) -> set[str]:
    """Every password ``url`` may be read to carry, as written and percent-decoded."""
    found = {m[1] for m in _USER_PASSWORD.finditer(url)}
    found |= {m[2] for m in _QUERY_PASSWORD.finditer(url)}
    authority = url.split("://", 1)[-1].split("/", 1)[0]
    if "@" in authority and ":" in authority.rpartition("@")[0]:
        found.add(authority.rpartition("@")[0].partition(":")[2])  # up to the last "@"
    found |= {urllib.parse.unquote(secret) for secret in found}
    return {secret for secret in found if secret}


def _masked_url(url: str) -> str:
    try:
        parts = urllib.parse.urlsplit(url)
        password = parts.password
    except ValueError:  # not a URL Python can read (libpq says why): mask by pattern
        return _QUERY_PASSWORD.sub(r"\1***", _USER_PASSWORD.sub(r"\1***@", url))
    netloc = parts.netloc
    if password is not None:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:***@{hostport}"
    query = _QUERY_PASSWORD.sub(r"\1***", parts.query)
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
