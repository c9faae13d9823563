"""Answers Hello, then fails every decision with an error whose message is a terminal
attack: ANSI escapes (clear the screen, colour, set the window title), a line break
that starts a forged line, a bidi override, a zero-width space and a tag character.
The SDK sends it as the Play call's INTERNAL status details, which the arena records as
the fault's detail."""

from __future__ import annotations

from typing import Any

from arena.policies import RandomPolicy
from arena.sdk import BotInfo, run_bot

EVIL = (
    "\x1b[2J\x1b[31mRED\x1b[0m\x1b]0;pwned\x07\nFORGED seat 0 (admin) no faults"
    "\u202eevil\u202c\u200b\U000e0041\x9b31m"
)
"""The error message."""


class EvilPolicy(RandomPolicy):
    """Fails every decision with ``EVIL``."""

    def choose(self, obs: Any) -> Any:
        """Never an action."""
        raise RuntimeError(EVIL)


if __name__ == "__main__":
    run_bot(EvilPolicy, info=BotInfo(name="evil", version="1"))
