"""Telling a database that cannot be written now (a full disk, a read-only file, a disk
failing, another process holding it, a lost connection to the PostgreSQL server) from
an error of the arena's own, and saying what the organizer does about it.

SQLite reports each of these as ``sqlite3.OperationalError``, PostgreSQL by its SQLSTATE
(psycopg's ``sqlstate``; none for a connection that broke); either way the write's
transaction is rolled back, so nothing is half-written, and the same write succeeds once
the cause is gone. Other errors (a constraint, SQL the schema does not have) are bugs and
are not classified here.
"""

from __future__ import annotations

import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

_KINDS: Final = (
    # (SQLite's primary result code name, words of its message, what to do)
    (
        "SQLITE_FULL",
        "database or disk is full",
        "free space on the disk that holds {path} (df -h {folder})",
    ),
    (
        "SQLITE_READONLY",
        "readonly database",
        "make {path}, its -wal and -shm files and its folder writable again",
    ),
    ("SQLITE_IOERR", "disk I/O error", "check the disk that holds {path} (dmesg)"),
    ("SQLITE_BUSY", "database is locked", "another process holds {path}: stop it"),
    ("SQLITE_LOCKED", "database table is locked", "another process holds {path}: stop it"),
    ("SQLITE_CANTOPEN", "unable to open database file", "check {path} and its folder"),
)


@dataclass(frozen=True, slots=True)
class WriteFault:
    """Why the database cannot be written, and what to do."""

    why: str
    """SQLite's words (e.g. "database or disk is full"): nothing about the host, so
    they may be shown to anyone."""
    advice: str
    """What the organizer does, naming the database file (for the log)."""


def write_fault(error: BaseException, path: Path | str) -> WriteFault | None:
    """The fault if ``error`` says the database at ``path`` cannot be written for now,
    else None (an error of the arena's own)."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    name = str(getattr(error, "sqlite_errorname", "") or "")
    text = str(error)
    for code, words, advice in _KINDS:
        if name == code or name.startswith(code + "_") or words in text:
            where = Path(path)
            return WriteFault(text, advice.format(path=where, folder=where.parent))
    return None


_POSTGRES_KINDS: Final = (
    # (SQLSTATE or its class's first two characters, our words, what to do)
    ("53100", "the database server's disk is full", "free space on the disk of {where}"),
    ("53", "the database server is out of resources", "check the server of {where}"),
    ("25006", "the database is read-only", "make {where} writable (not a standby, "
     "default_transaction_read_only off)"),
    ("08", "the connection to the database server was lost", "check that the server "
     "of {where} is running and reachable"),
    ("57P01", "the database server ended the connection", "check that the server of "
     "{where} is running (it was shut down, or an administrator ended the session)"),
    ("57P", "the database server is shutting down or starting", "start the server of {where}"),
    ("58", "the database server has a disk or system error", "check the server of {where}"),
    ("40", "a write conflicted with another transaction", "stop other writers of {where}"),
    ("42501", "the database user may not write", "grant the user in the URL of {where} "
     "the right to write its tables"),
)  # fmt: skip
_CONNECTION_LOST = _POSTGRES_KINDS[3]


def postgres_write_fault(error: BaseException, where: str) -> WriteFault | None:
    """The fault if ``error`` (from psycopg) says the PostgreSQL database ``where`` (its
    URL without the password) cannot be written for now, else None. ``why`` is in our
    words: the server's may name hosts."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(error, psycopg.Error):
        return None
    state = getattr(error, "sqlstate", None)
    if state is None:  # the client's own: a connection that broke or closed
        if not isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
            return None
        _, why, advice = _CONNECTION_LOST
        return WriteFault(why, advice.format(where=where))
    for prefix, why, advice in _POSTGRES_KINDS:
        if state.startswith(prefix):
            return WriteFault(why, advice.format(where=where))
    return None
