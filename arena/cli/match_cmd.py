"""``arena match``: play one match among bots and print scores, ranks and faults."""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sys
from typing import Any

from arena.games import AnyGame, InvalidOptionsError
from arena.policies.registry import refused_at_table
from arena.referee import MatchOutcome, MatchSpec, RemoteSeat, Seat, builtin_seat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.hello import hello, unsupported
from arena.referee.record import write_record
from arena.text import shown

from .entrants import (
    EntrantError,
    EntrantSpec,
    add_bot_ca_option,
    bot_roots,
    builtin_factory,
    parse_entrants,
)
from .game_option import GameOptionError, add_game_option, chosen_game, chosen_preset
from .paths import output_path_problem

MAX_LIMIT = 2**31 - 1
"""The most a limit sent to bots in MatchStart can be (its fields are int32)."""


def add_match_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by commands that run matches."""
    add_game_option(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffles")
    parser.add_argument("--deals", type=int, default=1, help="deals per match (default 1)")
    parser.add_argument(
        "--deadline-ms", type=int, default=1000, help="per-decision deadline (default 1000)"
    )
    parser.add_argument("--time-bank-ms", type=int, default=0, help="per-match time bank")
    parser.add_argument(
        "--max-strikes", type=int, default=3, help="faults before a forfeit (0 = never)"
    )


def register(sub: Any) -> None:
    """Add the ``match`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "match",
        help="play one match among bots",
        description="Play one match. --bot NAME=HOST:PORT for a running bot, or --bot "
        "random / --bot greedy (the game's built-in bots) for an in-process bot; seats "
        "follow the order given.",
    )
    parser.add_argument(
        "--bot", action="append", required=True, metavar="NAME=HOST:PORT", help="a seat"
    )
    add_match_options(parser)
    add_bot_ca_option(parser)
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write the match record here (gzip if FILE ends in .gz, else plain JSON lines)",
    )
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"arena match: {shown(message)}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Validate, check every remote bot with Hello, play, print."""
    try:
        game = chosen_game(args.game)
        preset = chosen_preset(game, args.preset)
        entrants = parse_entrants(args.bot, game.policies, game.unavailable_policies)
        roots = bot_roots(args)
        config = game.make_config(len(entrants), preset, deals=args.deals)
    except (EntrantError, GameOptionError, InvalidOptionsError) as error:
        return _fail(str(error))
    if why := refused_at_table(game, [e.builtin for e in entrants if e.builtin], config):
        return _fail(why)
    if args.deadline_ms <= 0:
        return _fail(f"--deadline-ms {args.deadline_ms} must be positive")
    for option, value in (
        ("--time-bank-ms", args.time_bank_ms),
        ("--max-strikes", args.max_strikes),
    ):
        if value < 0:
            return _fail(f"{option} {value} must not be negative")
    for option, value in (
        ("--deadline-ms", args.deadline_ms),
        ("--time-bank-ms", args.time_bank_ms),
        ("--max-strikes", args.max_strikes),
    ):
        if value > MAX_LIMIT:  # each is an int32 field of MatchStart
            return _fail(f"{option} {value} must be at most {MAX_LIMIT}")
    if args.record and (problem := output_path_problem(args.record, "match.jsonl.gz")):
        return _fail(f"--record {args.record}: {problem}")
    spec = match_spec(game, config, args)
    seed = spec.seed
    try:
        outcome = asyncio.run(_play(spec, entrants, seed, preset, roots))
    except EntrantError as error:
        return _fail(str(error))
    print_outcome(outcome, seed, game)
    if args.record:
        try:
            write_record(args.record, outcome.record, outcome.game_record_json)
        except OSError as error:
            print(
                f"arena match: the record could not be written to {args.record}: "
                f"{error.strerror or error}",
                file=sys.stderr,
            )
            return 1
        print(f"record written to {args.record}")
    return 0


def match_spec(game: AnyGame, config: object, args: argparse.Namespace) -> MatchSpec:
    """The match to play. The seed is unguessable unless given (a bot that knew or could
    search it would rebuild every hand and the deck), and the match id, which every bot
    receives, is random: it never carries the seed."""
    return MatchSpec(
        match_id=f"match-{secrets.token_hex(6)}",
        config=config,
        seed=args.seed if args.seed is not None else secrets.randbits(63),
        deadline_ms=args.deadline_ms,
        time_bank_ms=args.time_bank_ms,
        max_strikes=args.max_strikes,
        game=game,
    )


async def entrant_seats(
    game: AnyGame,
    entrants: list[EntrantSpec],
    pool: ChannelPool,
    rng: random.Random,
    *,
    players: int,
    preset: str,
) -> list[Seat]:
    """A seat for each entrant: a remote bot said Hello and takes this table (else
    EntrantError, in words), a built-in policy seeded from ``rng``."""
    seats: list[Seat] = []
    for entrant in entrants:
        if entrant.endpoint is not None:
            channel = pool.get(entrant.endpoint)
            answer = await hello(channel, entrant.endpoint, game=game.name)
            if answer.error:
                raise EntrantError(f"bot {entrant.name!r}: {answer.error}")
            assert answer.reply is not None
            why = unsupported(answer.reply, players, preset)
            if why:
                raise EntrantError(f"bot {entrant.name!r} cannot take a seat here: {why}")
            seats.append(RemoteSeat(entrant.name, channel, max_reply_bytes=4096))
        else:
            assert entrant.builtin is not None
            factory = builtin_factory(game, entrant.builtin)
            seats.append(builtin_seat(entrant.name, factory, rng.getrandbits(32)))
    return seats


async def _play(
    spec: MatchSpec, entrants: list[EntrantSpec], seed: int, preset: str, roots: bytes | None
) -> MatchOutcome:
    pool = ChannelPool(root_certificates=roots)
    try:
        seats = await entrant_seats(
            spec.game, entrants, pool, random.Random(seed), players=len(entrants), preset=preset
        )
        return await run_match(spec, seats)
    finally:
        await pool.close()


def print_outcome(outcome: MatchOutcome, seed: int, game: AnyGame) -> None:
    """The result table and every fault; why the match ended in the game's words (the
    record keeps the identifier)."""
    result = outcome.result
    print(
        f"match {outcome.match_id} (seed {seed}): {outcome.decisions} decisions, "
        f"{outcome.wall_s:.2f} s, ended because {game.end_words(result.end_reason)}"
    )
    print(f"{'seat':>4}  {'bot':<16} {'score':>5} {'rank':>4}  faults")
    for index, seat in enumerate(outcome.seats):
        counts = seat.fault_counts()
        flag = "  FORFEITED" if seat.forfeited else ""
        print(
            f"{index:>4}  {shown(seat.name):<16} {seat.score:>5} {seat.rank:>4}  "
            f"timeouts={counts['timeouts']} errors={counts['errors']} "
            f"invalid={counts['invalid']}{flag}"
        )
    for index, seat in enumerate(outcome.seats):
        for fault in seat.faults:
            print(shown(f"  seat {index} ({seat.name}) {fault.kind}: {fault.detail}"))
