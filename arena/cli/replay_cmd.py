"""``arena replay FILE``: print a recorded match step by step."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.referee.record import RecordError, read_record
from arena.referee.replay import replay_lines


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print a recorded match step by step"
    )
    parser.add_argument("source", metavar="FILE", help="a match record (from --record)")
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--seat", type=int, help="show only what this seat saw")
    view.add_argument("--all", action="store_true", help="reveal everything (default)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the replay."""
    try:
        lines = read_record(args.source)
    except RecordError as error:
        print(f"arena replay: {error}", file=sys.stderr)
        return 2
    return print_replay(lines, args.seat)


def print_replay(lines: list[dict[str, Any]], seat: int | None) -> int:
    """Print a record's replay; 2 if the seat does not exist."""
    players = len(lines[0]["seats"])
    if seat is not None and not 0 <= seat < players:
        print(f"arena replay: --seat must be 0..{players - 1}", file=sys.stderr)
        return 2
    for text in replay_lines(lines, seat):
        print(text)
    return 0
