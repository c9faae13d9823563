"""A random bot that waits ``--delay-ms`` (default 3000) before it starts listening
(and prints its listening line): for the arena's start-up timeout."""

from __future__ import annotations

import argparse
import time

from botkit import bot_info, split_args

from arena.policies import RandomPolicy
from arena.sdk import run_bot


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--delay-ms", type=int, default=3000, help="wait before listening")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    time.sleep(args.delay_ms / 1000)
    run_bot(RandomPolicy, info=bot_info("slow-start"), argv=rest)
