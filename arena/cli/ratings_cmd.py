"""``arena ratings`` and ``arena matches``: read a league database."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from arena.games import DEFAULT_GAME
from arena.games import get as get_game
from arena.league.config import DEFAULT_DB
from arena.league.leaderboard import FORMATS, Ladder, leaderboard, render_ladders
from arena.store import Store, StoreError, masked, open_store
from arena.text import shown
from arena.web.ladders import ended

from . import arena_views
from .arena_views import add_remote_options
from .paths import output_path_problem
from .ratings_reports import REPORT_FORMATS, payoff_report, render_reports, seats_report

EXAMPLE_LADDER: Final = (
    f"league-07858f1b84/{DEFAULT_GAME}/{get_game(DEFAULT_GAME).default_preset}/3p"
)
"""What a ladder is called: ``LEAGUE/GAME/PRESET/Np``."""


def _limit(text: str) -> int:
    """``--limit``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be at least 1 (got {value}); leave it out for the last 50"
        )
    return value


def register(sub: Any) -> None:
    """Add ``ratings`` and ``matches``."""
    ratings: argparse.ArgumentParser = sub.add_parser(
        "ratings",
        help="the leaderboard of a league database",
        description="The leaderboard of every ladder of a league database (or of one). "
        "Each league has its own ladder per preset and table size, named "
        f"LEAGUE/GAME/PRESET/Np (e.g. {EXAMPLE_LADDER}). With several ladders, json "
        "is one array of rows each with a 'ladder' key, csv one table with a 'ladder' "
        "column, html one page with a section per ladder.",
    )
    ratings.add_argument("--db", default=DEFAULT_DB, help=f"database (default {DEFAULT_DB})")
    ratings.add_argument(
        "--ladder",
        metavar="LEAGUE/GAME/PRESET/Np",
        help=f"only this ladder, e.g. {EXAMPLE_LADDER} (default: all)",
    )
    ratings.add_argument("--format", choices=FORMATS, default="table")
    report = ratings.add_mutually_exclusive_group()
    report.add_argument(
        "--seats",
        action="store_true",
        help="seat advantage instead: mean points and rank by seat, with standard errors",
    )
    report.add_argument(
        "--payoff",
        action="store_true",
        help="non-transitivity instead: the head-to-head matrix, alpha-Rank next to "
        "TrueSkill, and significant cycles (A over B over C over A)",
    )
    ratings.add_argument(
        "--output", "-o", metavar="FILE", help="write to this file instead of stdout"
    )
    ratings.set_defaults(run=run_ratings)
    matches: argparse.ArgumentParser = sub.add_parser(
        "matches", help="list the matches of a league database"
    )
    matches.add_argument("--db", default=DEFAULT_DB, help=f"database (default {DEFAULT_DB})")
    matches.add_argument("--league", help="only this league (not with --arena)")
    matches.add_argument("--bot", help="only matches of this bot")
    matches.add_argument(
        "--limit", type=_limit, default=50, metavar="N", help="last N finished matches (default 50)"
    )
    add_remote_options(matches)
    matches.set_defaults(run=run_matches)


def _open(path: str, command: str) -> Store | None:
    try:
        return open_store(path, create=False)
    except StoreError as error:
        print(f"arena {command}: {error}", file=sys.stderr)
        return None


def _names(names: Sequence[str], plural: str, limit: int = 20) -> str:
    """``a, b, c`` (the first ``limit``, then how many more), or that there are none."""
    if not names:
        return f"no {plural} in this database"
    shown = ", ".join(names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"{plural}: {shown}{more}"


def _same_file(output: Path, db: Path) -> bool:
    """Whether ``output`` is the database (or its WAL or shared-memory file)."""
    for part in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        try:
            if output.resolve() == part.resolve() or (
                output.exists() and part.exists() and output.samefile(part)
            ):
                return True
        except OSError:
            continue
    return False


def _write(path: str, text: str, db: str) -> str | None:
    """Write ``text`` to ``path`` (making its parent directories); why not, if it failed."""
    target = Path(path)
    if problem := output_path_problem(path, "ratings.html"):
        return problem
    if _same_file(target, Path(db)):
        return "it is the database being read; give another file name"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        return error.strerror or str(error)
    return None


def _html(store: Store, ladders: list[str]) -> str | None:
    """The web app's self-contained page of ``ladders`` (None, said why, without the
    web extra)."""
    from .web_cmd import missing_web_packages

    problem = missing_web_packages()
    if problem is not None:
        print(f"arena ratings: --format html: {problem}", file=sys.stderr)
        return None
    from arena.web.export import static_html

    return static_html(store, ladders)


def run_ratings(args: argparse.Namespace) -> int:
    """Print (or write) the leaderboard of every ladder, or of one."""
    store = _open(args.db, "ratings")
    if store is None:
        return 2
    try:
        ladders = store.ladders()
        kind = "seats" if args.seats else "payoff" if args.payoff else ""
        if kind and args.format not in REPORT_FORMATS:
            print(
                f"arena ratings: --{kind} is shown as {' or '.join(REPORT_FORMATS)}, not "
                f"{args.format}",
                file=sys.stderr,
            )
            return 2
        if kind and args.ladder and args.ladder not in ladders:
            print(
                shown(
                    f"arena ratings: no finished matches on ladder {args.ladder!r} in "
                    f"{args.db}: the --{kind} report compares played matches; "
                    f"{_names(ladders, 'ladders with matches')}"
                ),
                file=sys.stderr,
            )
            return 2
        if args.ladder:
            if args.ladder not in ladders:
                hint = [name for name in ladders if name.endswith("/" + args.ladder.strip("/"))]
                guess = f" (did you mean {' or '.join(hint)}?)" if hint else ""
                print(
                    shown(
                        f"arena ratings: no ladder {args.ladder!r} in {masked(args.db)}{guess}; "
                        f"{_names(ladders, 'ladders')}; names are LEAGUE/GAME/PRESET/Np"
                    ),
                    file=sys.stderr,
                )
                return 2
            ladders = [args.ladder]
        if not ladders:
            what = f": the --{kind} report compares played matches" if kind else ""
            print(f"arena ratings: no rated matches in this database yet{what}", file=sys.stderr)
            return 1
        if kind:
            make = seats_report if kind == "seats" else payoff_report
            text = render_reports([make(store, ladder) for ladder in ladders], args.format, kind)
        elif args.format == "html":
            html_text = _html(store, ladders)
            if html_text is None:
                return 2
            text = html_text
        else:
            text = render_ladders(
                [Ladder(ladder, leaderboard(store, ladder)) for ladder in ladders], args.format
            )
    finally:
        store.close()
    return _emit(args, text)


def _emit(args: argparse.Namespace, text: str) -> int:
    """Print ``text`` or write it to ``--output``."""
    if not args.output:
        print(text)
        return 0
    problem = _write(args.output, text + "\n", args.db)
    if problem is not None:
        print(f"arena ratings: cannot write {args.output}: {problem}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0


def _unknown_filter(store: Store, args: argparse.Namespace) -> str | None:
    """Why ``--league`` or ``--bot`` names nothing in the database, or None."""
    if args.league is not None and store.league(args.league) is None:
        leagues = [r[0] for r in store.read("SELECT id FROM leagues ORDER BY created_at, id")]
        return f"no league {args.league!r} in {masked(args.db)}; " + _names(leagues, "leagues")
    if args.bot is not None:
        bots = [
            r[0]
            for r in store.read(
                # Every bot that played is rated: the ratings name them without a scan
                # of every seat (millions on a long history).
                "SELECT name FROM bots UNION SELECT bot FROM ratings ORDER BY 1"
            )
        ]
        if args.bot not in bots:
            return f"no bot {args.bot!r} in {masked(args.db)}; " + _names(bots, "bots")
    return None


def run_matches(args: argparse.Namespace) -> int:
    """One line per match: id, ladder, end reason, and each seat's bot, score and rank."""
    if args.arena:
        if args.league is not None:
            print(
                "arena matches: --league reads a database (--db); a running arena (--arena) "
                "lists its own ladder's matches. Leave one of them out",
                file=sys.stderr,
            )
            return 2
        return arena_views.run_matches(args)
    store = _open(args.db, "matches")
    if store is None:
        return 2
    try:
        problem = _unknown_filter(store, args)
        if problem is not None:
            print(f"arena matches: {shown(problem)}", file=sys.stderr)  # it lists names
            return 2
        rows = store.matches(league_id=args.league, bot=args.bot, limit=args.limit)
        if not rows:
            print("no matches")
            return 0
        for row in rows:
            seats = "  ".join(
                f"{shown(s.bot)}:{s.score:+d}#{s.rank}{'F' if s.forfeited else ''}"
                for s in row.seats
            )
            why = shown(ended(row.end_reason, row.ladder))
            print(f"{shown(row.id)}  {shown(row.ladder)}  {why:<16} {seats}")
        print(
            f"({len(rows)} matches; replay one with: arena replay MATCH_ID --db {masked(args.db)})"
        )
        return 0
    finally:
        store.close()
