"""Telling a database that cannot be written now (a full disk, a read-only file, a disk
failing, another process holding it) from an error of the arena's own, and saying what
the organizer does about it.

SQLite reports each of these as ``sqlite3.OperationalError``; the write's transaction is
rolled back, so nothing is half-written, and the same write succeeds once the cause is
gone. Other errors (a constraint, SQL the schema does not have) are bugs and are not
classified here.
"""

from __future__ import annotations

import sqlite3
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
