"""Names people give things (bots, owners, leagues): one rule everywhere.

A name is ASCII only, so it has no look-alike from another script (a Cyrillic 'а' for
a Latin 'a'), no invisible, control, bidi or space character; the whole string is
matched (``fullmatch``: ``$`` alone would let ``"champ\n"`` through). Names are unique
regardless of case where the arena stores them (``MyBot`` takes ``mybot``).
"""

from __future__ import annotations

import re
from typing import Final

_NAME: Final = re.compile(r"[A-Za-z0-9_.-]{1,40}")
"""The whole name must match (``fullmatch``: ``$`` would let a final newline through)."""


class BadNameError(ValueError):
    """A name outside the allowed characters or length."""


def check_name(name: str, what: str = "bot name") -> str:
    """``name`` if it is 1-40 ASCII letters, digits, ``_ . -``; else BadNameError."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise BadNameError(
            f"bad {what} {name!r}: use 1-40 ASCII letters, digits, '_', '.' or '-' (no "
            "spaces, line breaks, control or invisible characters, or letters of other "
            "scripts)"
        )
    return name
