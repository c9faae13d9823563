"""``arena selfplay``: engine games among in-process policies (no gRPC, no database)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from arena.games import abluxxen as ab
from arena.policies import Policy, RandomPolicy

POLICIES: dict[str, type[Any]] = {"random": RandomPolicy}


def register(sub: Any) -> None:
    """Add the ``selfplay`` and ``demo`` subcommands."""
    for name, help_text in (("selfplay", "play engine games among in-process policies"),):
        parser: argparse.ArgumentParser = sub.add_parser(name, help=help_text)
        parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
        parser.add_argument("--players", type=int, default=4, help="seats, 2..5 (default 4)")
        parser.add_argument("--preset", default=ab.DEFAULT_PRESET, help="rule preset")
        parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles")
        parser.add_argument(
            "--policy",
            action="append",
            choices=sorted(POLICIES),
            help="policy of each seat in turn (repeat; default: all random)",
        )
        parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and print one line per game and a summary."""
    try:
        config = ab.make_config(args.players, args.preset)
    except ab.InvalidOptionsError as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print(f"arena selfplay: --games {args.games} must be at least 1", file=sys.stderr)
        return 2
    names = args.policy or ["random"] * config.players
    if len(names) != config.players:
        print(f"arena: {len(names)} --policy given for {config.players} seats", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    policies: list[Policy] = [POLICIES[n](rng.getrandbits(32)) for n in names]
    wins = [0.0] * config.players
    for game in range(args.games):
        state = ab.new_game(config, rng)
        while not state.is_over:
            seat = state.deciding
            ab.apply(state, policies[seat].choose(ab.observe(state, seat)), seat)
        result = state.result
        assert result is not None
        winners = [s for s, r in enumerate(result.ranks) if r == 1]
        for s in winners:
            wins[s] += 1 / len(winners)
        print(
            f"game {game + 1:3d}: scores {list(result.scores)} ranks {list(result.ranks)} "
            f"({result.end_reason}, {result.deals[-1].turns} turns)"
        )
    print(
        "wins per seat:",
        ", ".join(f"{n}@{s}={w:g}" for s, (n, w) in enumerate(zip(names, wins, strict=True))),
    )
    return 0
