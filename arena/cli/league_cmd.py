"""``arena league``: run (or resume) a league and print the leaderboard."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from arena.games import DEFAULT_GAME, UnknownGameError
from arena.games import get as get_game
from arena.league.config import (
    DEFAULT_DB,
    DEFAULT_SEPARATION,
    EXECUTORS,
    SCHEDULES,
    Entrant,
    LeagueConfigError,
    build_config,
    load_toml,
    with_stored_schedule,
)
from arena.league.leaderboard import leaderboard, render, separation_line
from arena.league.progress import Progress
from arena.league.runner import LeagueError, run_league
from arena.store import Store, StoreError, is_postgres_url, masked, open_store
from arena.text import shown

from .entrants import EntrantError, add_bot_ca_option, parse_entrant
from .game_option import add_game_option


def register(sub: Any) -> None:
    """Add the ``league`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "league",
        help="run a league among bots and rate them with TrueSkill",
        description="Run a league (or resume one: the same command again, or --resume). "
        "Bots: --bot NAME=HOST:PORT (running bot), --bot NAME=cmd:'COMMAND' (a command the "
        "arena starts with --port 0 appended), or --bot random / --bot greedy (built in). "
        "Settings may come from a TOML file (see examples/league.toml); flags override it.",
    )
    parser.add_argument("file", nargs="?", metavar="LEAGUE.toml", help="league file")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=TARGET")
    parser.add_argument("--name", help="league name (default: derived from the settings)")
    add_game_option(parser)
    parser.add_argument("--table-size", type=int, help="seats per match (default 4)")
    parser.add_argument("--matches", type=int, help="matches to play")
    parser.add_argument(
        "--until",
        metavar="separated[:P]",
        help="play until every pair of neighbours on the leaderboard is ordered with "
        "probability >= P (default 0.95), checked each round; --matches N is then the cap",
    )
    parser.add_argument("--until-sigma", type=float, help="stop when every sigma is below this")
    parser.add_argument(
        "--max-matches", type=int, help="cap of a stopping rule without --matches (default 10000)"
    )
    parser.add_argument("--deals", type=int, help="deals per match (default 1)")
    parser.add_argument(
        "--duplicate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="replay each deal at other tables with other bots",
    )
    parser.add_argument(
        "--rate-groups",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --duplicate: rate each deal group as one match of all its bots, ranked "
        "by their summed scores (as the ACPC does), instead of each table alone",
    )
    parser.add_argument(
        "--schedule",
        help=f"table scheduling: {', '.join(SCHEDULES)} (default informative: tables for "
        "the pairs whose order is least certain, every bot playing equally often)",
    )
    parser.add_argument("--deadline-ms", type=int, help="per-decision deadline (default 1000)")
    parser.add_argument("--time-bank-ms", type=int, help="per-match time bank (default 0)")
    parser.add_argument("--max-strikes", type=int, help="faults before a forfeit (default 3)")
    parser.add_argument("--concurrency", type=int, help="matches at once (default 4)")
    parser.add_argument(
        "--bot-streams",
        type=int,
        help="matches at once per remote or managed bot (default 0: no cap; 1 for a "
        "CPU-bound bot that needs its core to itself)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="seed of schedule and deals, for a league to reproduce exactly (default: a "
        "random one, kept in the database; bots that could guess a seed could rebuild "
        "every deal)",
    )
    parser.add_argument("--tau", type=float, help="TrueSkill dynamics (default 0)")
    parser.add_argument("--draw-probability", type=float, help="TrueSkill draw probability")
    parser.add_argument(
        "--db", help=f"database: a file, or postgresql://USER@HOST:PORT/DB (default {DEFAULT_DB})"
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        help="where matches run: local (this process, the default), processes (local "
        "worker processes) or ray (a Ray cluster; the [ray] extra)",
    )
    parser.add_argument(
        "--workers", type=int, help="workers of processes/ray (default: one per core or CPU)"
    )
    parser.add_argument(
        "--ray-address", help="HOST:PORT of a running Ray cluster (default: start a local one)"
    )
    add_bot_ca_option(parser)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the league with these settings (the same command again does too)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def _entrant(text: str, builtins: Collection[str], unavailable: Mapping[str, str]) -> Entrant:
    name, sep, target = text.partition("=")
    if sep and target.startswith("cmd:"):
        command = target[4:].strip()
        if not command:
            raise EntrantError(f"--bot {text!r}: give a command after cmd:")
        return Entrant(name=name, command=command)
    spec = parse_entrant(text, builtins, unavailable)
    return Entrant(name=spec.name, endpoint=spec.endpoint, builtin=spec.builtin)


def until_rule(text: str | None) -> float | None:
    """``--until separated[:P]``: the probability P (default 0.95); None if not given."""
    if text is None:
        return None
    rule, sep, level = text.partition(":")
    if rule != "separated":
        raise LeagueConfigError(
            f"unknown stopping rule {text!r}: write --until separated or --until separated:P "
            "(P a probability between 0.5 and 1, e.g. separated:0.99)"
        )
    if not sep:
        return DEFAULT_SEPARATION
    try:
        return float(level)
    except ValueError:
        raise LeagueConfigError(
            f"--until {text}: {level!r} is not a probability; write e.g. separated:0.99"
        ) from None


def _fail(message: str) -> int:
    print(f"arena league: {shown(message)}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Validate everything, then run; bad input never touches the database."""
    try:
        file_settings = load_toml(args.file) if args.file else {}
        game = args.game or file_settings.get("game") or DEFAULT_GAME
        try:
            chosen = get_game(str(game))
        except UnknownGameError as error:
            raise LeagueConfigError(str(error)) from None
        overrides: dict[str, Any] = {
            "bots": [_entrant(b, chosen.policies, chosen.unavailable_policies) for b in args.bot],
            "name": args.name,
            "game": args.game,
            "preset": args.preset,
            "table_size": args.table_size,
            "matches": args.matches,
            "until_sigma": args.until_sigma,
            "until_separated": until_rule(args.until),
            "max_matches": args.max_matches,
            "deals": args.deals,
            "duplicate": args.duplicate,
            "rate_groups": args.rate_groups,
            "schedule": args.schedule,
            "deadline_ms": args.deadline_ms,
            "time_bank_ms": args.time_bank_ms,
            "max_strikes": args.max_strikes,
            "concurrency": args.concurrency,
            "bot_streams": args.bot_streams,
            "seed": args.seed,
            "tau": args.tau,
            "draw_probability": args.draw_probability,
            "db": args.db,
            "executor": args.executor,
            "workers": args.workers,
            "ray_address": args.ray_address,
            "bot_ca": args.bot_ca,
        }
        config = build_config(file_settings, overrides)
    except (LeagueConfigError, EntrantError) as error:
        return _fail(str(error))
    new_file = not is_postgres_url(config.db) and not Path(config.db).exists()
    try:
        store = open_store(config.db)
    except StoreError as error:
        return _fail(str(error))
    if args.schedule is None and "schedule" not in file_settings:
        config = with_stored_schedule(config, store.league)
    if args.resume and store.league(config.league_id) is None:
        _close_discarding_new(store, config.db, new_file)
        return _fail(
            f"no league {config.league_id!r} in {masked(config.db)} to resume; drop --resume "
            "to start it"
        )
    progress = None if args.quiet else Progress(config.total_matches)
    try:
        summary = asyncio.run(_run_with_signals(config, store, progress))
    except (LeagueError, LeagueConfigError) as error:
        _close_discarding_new(store, config.db, new_file)
        return _fail(str(error))
    except KeyboardInterrupt:
        store.close()
        print(
            "arena league: stopped; every finished match is saved. Run the same command to resume.",
            file=sys.stderr,
        )
        return 130
    resumed = f" (resumed after {summary.resumed_from})" if summary.resumed_from else ""
    print(
        f"league {summary.league_id}: {summary.total} matches{resumed}, {summary.played} played "
        f"now in {summary.wall_s:.1f} s ({summary.decisions} decisions); "
        f"database {masked(config.db)}"
    )
    for lost in summary.workers_lost:
        print(f"  {shown(lost)}: the league went on with the other workers")
    if summary.replayed:
        print(f"  {summary.replayed} match(es) cut short by a dying worker were played again")
    for name, count in sorted(summary.restarts.items()):
        print(f"  managed bot {shown(name)} died and was restarted {count} time(s)")
        for line in summary.last_words.get(name, [])[-3:]:
            print(f"    its stderr before: {shown(line)}")
    for name, count in sorted(summary.faulted.items()):
        print(f"  {shown(name)}: {count} fault(s) in this run (see arena ratings / arena matches)")
    print()
    print(render(leaderboard(store, config.ladder), "table", config.ladder))
    if config.until_separated:
        print(
            separation_line(
                store, config.ladder, config.until_separated, summary.total, summary.separated
            )
        )
    store.close()
    return 0


def _close_discarding_new(store: Store, db: str, new_file: bool) -> None:
    """Close the store; a database file this run created and that holds no league
    (the league was refused before it began) is removed, not left behind empty."""
    empty = not store.read("SELECT 1 FROM leagues LIMIT 1")
    alone = new_file and empty and store.alone()  # no other process has it open
    store.close()
    if alone:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(db + suffix).unlink(missing_ok=True)


async def _run_with_signals(config: Any, store: Store, progress: Progress | None) -> Any:
    """Run the league; SIGTERM stops it like Ctrl-C (finished matches are kept)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await run_league(config, store, progress=progress)
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
