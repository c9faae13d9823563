"""The ``arena`` command. Each subcommand lives in its own module and registers itself
through ``register(subparsers)``; ``run(args)`` returns the exit status."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

# gRPC's C core logs INFO lines to stderr by default (TLS handshake attempts, fork
# warnings) that repeat what our own messages say plainly. Set before grpc is loaded;
# GRPC_VERBOSITY=INFO (or DEBUG) in the environment brings them back.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
# The arena forks only to exec managed bots; gRPC's fork handlers would restart its
# pollers in the child before the exec, which under load made a bot's start fail now and
# then ("epoll_wait error: Bad file descriptor" and no bot). Nothing needs them here.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

from arena.games import names as game_names
from arena.gctune import tune_for_latency
from arena.referee.policy_processes import stop_policy_processes

from . import (
    author_cmd,
    checkbot,
    db_cmd,
    league_cmd,
    match_cmd,
    play_cmd,
    ratings_cmd,
    replay_cmd,
    selfplay,
    serve_cmd,
    token_cmd,
    web_cmd,
)

COMMANDS = (
    league_cmd,
    ratings_cmd,
    match_cmd,
    checkbot,
    replay_cmd,
    selfplay,
    serve_cmd,
    token_cmd,
    author_cmd,
    web_cmd,
    play_cmd,
    db_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Arena: referee, leagues and ratings for card-game bots "
        f"({', '.join(game_names())}).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arena`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    tune_for_latency()
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `arena replay ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        stop_policy_processes()  # the built-ins' workers, if any were started
    return status


if __name__ == "__main__":
    sys.exit(main())
