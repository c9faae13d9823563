"""Plays at random and writes what the arena tells it at the start and the end of each
match to ``--log FILE`` (JSON lines): the match id, seat and table size from MatchStart,
and the size of MatchOver's published record. Tests read it to prove what a bot can and
cannot learn. ``--players N ...`` declares in Hello the table sizes it plays."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from botkit import bot_info, split_args

from arena.policies import MatchEnd, MatchInfo, RandomPolicy
from arena.sdk import run_bot


class SpyPolicy(RandomPolicy):
    """Random play; logs MatchStart and MatchOver."""

    def __init__(self, log: Path) -> None:
        super().__init__()
        self._log = log

    def _write(self, entry: dict[str, object]) -> None:
        with self._log.open("a") as handle:
            handle.write(json.dumps(entry) + "\n")

    def match_start(self, start: MatchInfo) -> None:
        """Log the match id and seat."""
        super().match_start(start)
        self._write(
            {
                "event": "start",
                "match_id": start.match_id,
                "seat": start.seat,
                "players": start.players,
            }
        )

    def match_over(self, over: MatchEnd) -> None:
        """Log how much of the record was published."""
        self._write(
            {"event": "over", "match_id": over.match_id, "record_bytes": len(over.record_json)}
        )


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", type=Path, required=True, help="JSON lines written here")
    parser.add_argument(
        "--players", type=int, nargs="*", default=[], help="table sizes declared in Hello"
    )


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    info = replace(bot_info("spy"), players=tuple(args.players))
    run_bot(lambda: SpyPolicy(args.log), info=info, argv=rest)
