"""``arena selfplay``: engine games among in-process policies (no gRPC, no database)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from arena.games import InvalidOptionsError
from arena.policies import Policy
from arena.policies.registry import missing_builtin, refused_at_table

from .game_option import GameOptionError, add_game_option, chosen_game, chosen_preset


def register(sub: Any) -> None:
    """Add the ``selfplay`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "selfplay", help="play engine games among in-process policies"
    )
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    add_game_option(parser)
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles")
    parser.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help="policy of each seat in turn (repeat; the game's built-ins, e.g. random or "
        "greedy; default: all random)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and print one line per game and a summary."""
    try:
        game = chosen_game(args.game)
        config = game.make_config(args.players, chosen_preset(game, args.preset))
    except (GameOptionError, InvalidOptionsError) as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print(f"arena selfplay: --games {args.games} must be at least 1", file=sys.stderr)
        return 2
    players = game.players_of(config)
    names = args.policy or ["random"] * players
    if len(names) != players:
        print(f"arena: {len(names)} --policy given for {players} seats", file=sys.stderr)
        return 2
    unknown = sorted(set(names) - set(game.policies))
    if unknown:
        print(
            f"arena selfplay: --policy {unknown[0]}: {missing_builtin(game, unknown[0])}",
            file=sys.stderr,
        )
        return 2
    if why := refused_at_table(game, names, config):
        print(f"arena selfplay: {why}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    policies: list[Policy] = [game.policies[n](rng.getrandbits(32)) for n in names]
    wins = [0.0] * players
    for number in range(args.games):
        state = game.new_match(config, rng)
        while (seat := game.deciding(state)) is not None:
            game.apply(state, policies[seat].choose(game.observe(state, seat)), seat)
        result = game.result(state)
        assert result is not None
        winners = [s for s, r in enumerate(result.ranks) if r == 1]
        for s in winners:
            wins[s] += 1 / len(winners)
        print(
            f"game {number + 1:3d}: scores {list(result.scores)} ranks {list(result.ranks)} "
            f"({game.end_words(result.end_reason)})"
        )
    print(
        "wins per seat:",
        ", ".join(f"{n}@{s}={w:g}" for s, (n, w) in enumerate(zip(names, wins, strict=True))),
    )
    return 0
