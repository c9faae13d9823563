"""What the fuzz tests ask of every error a bot, a user or a file can cause: a message
in plain words, never a traceback, a Python class name or an object's repr."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from hypothesis import settings

from arena.text import shown

FUZZ: Final = settings.get_profile("arena-fuzz")
"""The profile conftest.py registers (pytest loads it before this module's importers)."""

_NOT_PLAIN: Final = re.compile(
    r"Traceback|File \"|\b[A-Z]\w*(?:Error|Exception)\b|\bobject at 0x|<class |<\w+\.\w+: "
    r"|is not a valid [A-Z]\w+"
)
"""A traceback, an exception's class name (``KeyError``, ``MalformedActionError``), a
default object repr, a class, an enum member's repr, or an enum's own refusal ("4 is
not a valid DecisionKind")."""


def assert_plain(message: object, *, where: str = "", echoed: Iterable[str] = ()) -> None:
    """``message`` is a non-empty sentence for a person: words, no Python internals.
    ``echoed``: what the user wrote, which the message may quote (a setting named
    "AError" is the user's word, not a class name)."""
    assert isinstance(message, str), f"{where}: the message is a {type(message).__name__}"
    text = message.strip()
    assert text, f"{where}: the message is empty"
    assert " " in text, f"{where}: the message is not words: {message!r}"
    # As written, as repr() and as shown() write it (control characters escaped), and
    # the parts of a NAME=TARGET the message may quote alone (`'AError' is neither
    # HOST:PORT nor a built-in bot`, of `--bot b1=AError`).
    words = {part for w in echoed for part in (w, *w.split("=", 1)[1:])}
    forms = {f for w in words for f in (w, repr(w)[1:-1], shown(w)) if f.strip()}
    for word in sorted(forms, key=len, reverse=True):
        text = text.replace(word, " ")
    found = _NOT_PLAIN.search(text)
    assert found is None, f"{where}: {found[0]!r} in the message {message!r}"


NAME: Final = re.compile(r"[A-Za-z0-9_.-]{1,40}")
"""The documented rule of every name (bots, leagues): 1-40 letters, digits, '_', '.' or
'-', and nothing else (use with ``fullmatch``)."""


def words_in(value: object) -> list[str]:
    """Every string in ``value`` (keys and values of nested dicts and lists), for
    ``assert_plain``'s ``echoed``."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (*words_in(k), *words_in(v))]
    if isinstance(value, list | tuple):
        return [w for item in value for w in words_in(item)]
    return []
