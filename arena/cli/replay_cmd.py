"""``arena replay FILE|MATCH_ID``: print a recorded match step by step."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena.league.config import DEFAULT_DB
from arena.league.secrecy import deal_in_play
from arena.referee.record import RecordError, decode_record, read_record
from arena.referee.replay import replay_lines
from arena.store import Store, StoreError, masked, open_store

from . import arena_views
from .arena_views import add_remote_options


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print a recorded match step by step"
    )
    parser.add_argument(
        "source",
        metavar="FILE|MATCH_ID",
        help="a record file (from --record), or a match id (from arena matches) in the "
        f"league database (--db, default {DEFAULT_DB})",
    )
    parser.add_argument("--db", help=f"the league database (default {DEFAULT_DB})")
    add_remote_options(parser)
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--seat", type=int, help="show only what this seat saw")
    view.add_argument("--all", action="store_true", help="reveal everything (default)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the replay."""
    if args.arena:
        return arena_views.run_replay(args)
    try:
        if not args.db and not Path(args.source).exists() and _looks_like_a_file(args.source):
            raise RecordError(
                f"no record file {args.source}; give the path of a file written by "
                "`arena match --record`, or a match id with --db"
            )
        if args.db or not Path(args.source).exists():
            lines = _from_store(args.db or DEFAULT_DB, args.source)
        else:
            lines = read_record(args.source)
    except (RecordError, StoreError) as error:
        print(f"arena replay: {error}", file=sys.stderr)
        return 2
    return print_replay(lines, args.seat)


def _looks_like_a_file(source: str) -> bool:
    """Match ids are ``LEAGUE/NNNNNN``; a path ends like a record file."""
    return source.endswith((".gz", ".jsonl", ".json")) or source.startswith((".", "~", "/"))


def _from_store(db: str, match_id: str) -> list[dict[str, Any]]:
    store = open_store(db, create=False)
    try:
        data = store.record(match_id)
        if data is not None:
            _refuse_a_deal_still_in_play(store, match_id)
    finally:
        store.close()
    if data is None:
        raise RecordError(
            f"no finished match {match_id!r} in {masked(db)} (see: arena matches --db {masked(db)})"
        )
    return decode_record(data)


def _refuse_a_deal_still_in_play(store: Store, match_id: str) -> None:
    """A duplicate deal's table is not replayed until every table of its deal is in
    (``arena.league.secrecy``)."""
    match = store.match(match_id)
    if match is None:
        return
    problem = deal_in_play(store, match)
    if problem is not None:
        raise RecordError(f"{problem} (arena matches --db {store.where})")


def print_replay(lines: list[dict[str, Any]], seat: int | None) -> int:
    """Print a record's replay; 2 if the seat does not exist."""
    players = len(lines[0]["seats"])
    if seat is not None and not 0 <= seat < players:
        print(f"arena replay: --seat must be 0..{players - 1}", file=sys.stderr)
        return 2
    try:
        for text in replay_lines(lines, seat):
            print(text)
    except RecordError as error:
        print(f"arena replay: {error}", file=sys.stderr)
        return 2
    return 0
