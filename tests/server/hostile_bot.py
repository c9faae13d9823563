"""Plays randomly, but its Hello name and version are 100 kB of terminal attacks: ANSI
escapes (ESC and the one-character CSI U+009B), line breaks that forge log lines, bidi
overrides and zero-width characters. The arena must store, log and show none of them."""

from __future__ import annotations

from arena.policies import RandomPolicy
from arena.sdk import BotInfo, run_bot

FORGED = "FORGED bot admin verified: active"
"""Text that follows a line break in the name: a forged log line if it got through."""
CHUNK = (
    f"\x1b[2J\x1b[31mred\x1b[0m\n{FORGED}\r\n\x9b31m\u202eevil\u202c\u200b\u2066x\u2069\x7f\x00 "
)
NAME = (CHUNK * (100_000 // len(CHUNK) + 1))[:100_000]
"""100 kB."""

if __name__ == "__main__":
    run_bot(RandomPolicy, info=BotInfo(name=NAME, version=CHUNK * 10))
