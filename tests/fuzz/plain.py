"""What the fuzz tests ask of every error a bot, a user or a file can cause: a message
in plain words, never a traceback, a Python class name or an object's repr."""

from __future__ import annotations

import re
from typing import Final

from hypothesis import settings

FUZZ: Final = settings.get_profile("arena-fuzz")
"""The profile conftest.py registers (pytest loads it before this module's importers)."""

_NOT_PLAIN: Final = re.compile(
    r"Traceback|File \"|\b[A-Z]\w*(?:Error|Exception)\b|\bobject at 0x|<class |<\w+\.\w+: "
    r"|is not a valid [A-Z]\w+"
)
"""A traceback, an exception's class name (``KeyError``, ``MalformedActionError``), a
default object repr, a class, an enum member's repr, or an enum's own refusal ("4 is
not a valid DecisionKind")."""


def assert_plain(message: object, *, where: str = "") -> None:
    """``message`` is a non-empty sentence for a person: words, no Python internals."""
    assert isinstance(message, str), f"{where}: the message is a {type(message).__name__}"
    text = message.strip()
    assert text, f"{where}: the message is empty"
    assert " " in text, f"{where}: the message is not words: {message!r}"
    found = _NOT_PLAIN.search(text)
    assert found is None, f"{where}: {found[0]!r} in the message {message!r}"


NAME: Final = re.compile(r"[A-Za-z0-9_.-]{1,40}")
"""The documented rule of every name (bots, leagues): 1-40 letters, digits, '_', '.' or
'-', and nothing else (use with ``fullmatch``)."""
