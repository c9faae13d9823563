"""Names people give things (bots, leagues): one rule everywhere."""

from __future__ import annotations

import re
from typing import Final

_NAME: Final = re.compile(r"[A-Za-z0-9_.-]{1,40}")
"""The whole name must match (``fullmatch``: ``$`` would let a final newline through)."""


class BadNameError(ValueError):
    """A name outside the allowed characters or length."""


def check_name(name: str, what: str = "bot name") -> str:
    """``name`` if it is 1-40 letters, digits, ``_ . -``; else BadNameError."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise BadNameError(f"bad {what} {name!r}: use 1-40 letters, digits, '_', '.' or '-'")
    return name
