"""``arena ratings`` and ``arena matches``: read a league database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arena.league.config import DEFAULT_DB
from arena.league.leaderboard import FORMATS, history_chart, leaderboard, render
from arena.store import Store, StoreError

from . import arena_views
from .arena_views import add_remote_options


def register(sub: Any) -> None:
    """Add ``ratings`` and ``matches``."""
    ratings: argparse.ArgumentParser = sub.add_parser(
        "ratings", help="the leaderboard of a league database"
    )
    ratings.add_argument("--db", default=DEFAULT_DB, help=f"database (default {DEFAULT_DB})")
    ratings.add_argument("--ladder", help="ladder, e.g. abluxxen/amigo/4p (default: all)")
    ratings.add_argument("--format", choices=FORMATS, default="table")
    ratings.add_argument("--output", "-o", help="write to this file instead of stdout")
    ratings.set_defaults(run=run_ratings)
    matches: argparse.ArgumentParser = sub.add_parser(
        "matches", help="list the matches of a league database"
    )
    matches.add_argument("--db", default=DEFAULT_DB, help=f"database (default {DEFAULT_DB})")
    matches.add_argument("--league", help="only this league")
    matches.add_argument("--bot", help="only matches of this bot")
    matches.add_argument("--limit", type=int, default=50, help="last N matches (default 50)")
    add_remote_options(matches)
    matches.set_defaults(run=run_matches)


def _open(path: str) -> Store | None:
    try:
        return Store(path, create=False)
    except StoreError as error:
        print(f"arena: {error}", file=sys.stderr)
        return None


def run_ratings(args: argparse.Namespace) -> int:
    """Print (or write) the leaderboard of every ladder, or of one."""
    store = _open(args.db)
    if store is None:
        return 2
    try:
        ladders = store.ladders()
        if args.ladder:
            if args.ladder not in ladders:
                known = ", ".join(ladders) or "none yet"
                print(
                    f"arena ratings: no ladder {args.ladder!r}; ladders: {known}", file=sys.stderr
                )
                return 2
            ladders = [args.ladder]
        if not ladders:
            print("arena ratings: no rated matches in this database yet", file=sys.stderr)
            return 1
        texts = []
        for ladder in ladders:
            chart = history_chart(store, ladder) if args.format == "html" else ""
            texts.append(render(leaderboard(store, ladder), args.format, ladder, chart))
        text = "\n\n".join(texts)
        if args.output:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
            print(f"wrote {args.output}")
        else:
            print(text)
        return 0
    finally:
        store.close()


def run_matches(args: argparse.Namespace) -> int:
    """One line per match: id, ladder, end reason, and each seat's bot, score and rank."""
    if args.arena:
        return arena_views.run_matches(args)
    store = _open(args.db)
    if store is None:
        return 2
    try:
        rows = store.matches(league_id=args.league, bot=args.bot, limit=args.limit)
        if not rows:
            print("no matches")
            return 0
        for row in rows:
            seats = "  ".join(
                f"{s.bot}:{s.score:+d}#{s.rank}{'F' if s.forfeited else ''}" for s in row.seats
            )
            print(f"{row.id}  {row.ladder}  {row.end_reason:<16} {seats}")
        print(f"({len(rows)} matches; replay one with: arena replay MATCH_ID --db {args.db})")
        return 0
    finally:
        store.close()
