"""``arena db copy SRC DST``: move a league or competition database between SQLite and
PostgreSQL (either way), losing nothing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena.store import Store, StoreError, is_postgres_url, masked, open_store
from arena.store.copy import copy_database


def register(sub: Any) -> None:
    """Add ``db copy``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "db", help="move an arena database between SQLite and PostgreSQL"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    copy = actions.add_parser(
        "copy",
        help="copy every row of SRC into DST, a new or empty database (SRC is only read)",
        description="Copy a whole arena database (leagues, matches and their records, "
        "ratings, submitted bots, tokens) into another: each is a file path (SQLite) or "
        "postgresql://USER@HOST:PORT/DB. DST must be new or empty; SRC must have this "
        "arena's schema. Stop what writes SRC first (arena league, arena serve): the copy "
        "is of one moment of it.",
    )
    copy.add_argument("source", metavar="SRC", help="the database to copy")
    copy.add_argument("destination", metavar="DST", help="the new database")
    copy.set_defaults(run=run_copy)


def _fail(message: str) -> int:
    print(f"arena db copy: {message}", file=sys.stderr)
    return 2


def run_copy(args: argparse.Namespace) -> int:
    """Copy SRC into DST and say how many rows of each table."""
    if args.source == args.destination:
        return _fail("SRC and DST are the same database")
    if not is_postgres_url(args.destination) and Path(args.destination).is_dir():
        return _fail(f"{args.destination} is a directory; give a database file path")
    new_file = not is_postgres_url(args.destination) and not Path(args.destination).exists()
    try:
        source = open_store(args.source, create=False, read_only=True)
    except StoreError as error:
        return _fail(str(error))
    destination: Store | None = None
    copied: dict[str, int] | None = None
    try:
        destination = open_store(args.destination)
        copied = copy_database(source, destination)
    except StoreError as error:
        return _fail(str(error))
    except Exception as error:
        fault = destination.write_fault(error) if destination is not None else None
        if fault is None:
            raise
        return _fail(f"cannot write {masked(args.destination)} ({fault.why}); {fault.advice}")
    finally:
        source.close()
        if destination is not None:
            destination.close()
        if new_file and copied is None:  # a file this command made for a copy that failed
            for suffix in ("", "-wal", "-shm", ".lock"):
                Path(args.destination + suffix).unlink(missing_ok=True)
    total = sum(copied.values())
    print(
        f"copied {masked(args.source)} to {masked(args.destination)}: {total} rows "
        f"({copied['matches']} matches, {copied['leagues']} leagues, {copied['bots']} bots)"
    )
    return 0
