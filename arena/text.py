"""Text that bots and owners supply: stored as given (capped), shown made visible.

A bot's words (its Hello, its error details, its faults) and an owner's (a description)
are data. They are kept as they came, only cut to a length (``capped``); wherever they
are shown, on a terminal, in the serve log or in an API field meant for display, they go
through ``shown``, which writes every character that could act on a terminal or hide
itself as a visible escape: ``\\x1b`` for ESC, ``\\n`` for a line break, ``\\u202e``
for a bidi override, ``\\u200b`` for a zero-width space, ``\\U000e0041`` for a tag
character. So no escape sequence, forged line, reordered or invisible text reaches a
screen, and a reader still sees what was sent.
"""

from __future__ import annotations

import logging
import re
from typing import Final

ELLIPSIS: Final = "\u2026"
"""Ends a text that was cut."""
_INVISIBLE: Final = "\u115f\u1160\u3164\uffa0"
"""Printable by Python's rule but drawn as nothing (Hangul fillers)."""
_NAMED: Final = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_SAFE: Final = re.compile(f"[^{_INVISIBLE}]*")


def hidden(char: str) -> bool:
    """Whether ``char`` is shown as an escape: not printable by Python's rule (controls
    C0, DEL and C1, format characters such as bidi controls, zero-width characters, tag
    characters and the BOM, surrogates, private-use and unassigned code points, line and
    paragraph separators, spaces other than U+0020), or drawn as nothing."""
    return not char.isprintable() or char in _INVISIBLE


def _visible(char: str) -> str:
    if not hidden(char):
        return char
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: str, limit: int | None = None) -> str:
    """``text`` as it may be shown: every ``hidden`` character as a visible escape, and
    at most ``limit`` characters (the last an ellipsis when cut; an escape is never cut
    in two). Idempotent: what it returns comes back unchanged, so a display point may
    show again what another already showed."""
    if text.isprintable() and _SAFE.fullmatch(text):
        if limit is None or len(text) <= limit:
            return text
        return text[: max(limit - 1, 0)] + ELLIPSIS
    if limit is None:
        return "".join(map(_visible, text))
    pieces = [_visible(c) for c in text[: limit + 1]]
    if len(text) <= limit and sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    kept: list[str] = []
    size = 0
    for piece in pieces:
        if size + len(piece) > limit - 1:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept) + ELLIPSIS


def capped(text: str, limit: int) -> str:
    """``text`` as given, cut to at most ``limit`` characters (the last an ellipsis when
    cut): what is stored of a bot's or an owner's words."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def first_hidden(text: str, allowed: str = "") -> str | None:
    """The first ``hidden`` character of ``text`` that is not in ``allowed``, as
    ``shown`` writes it, with its position (``"\\u200b at character 5"``); None if
    there is none. For refusals that say what to remove."""
    for index, char in enumerate(text):
        if char not in allowed and hidden(char):
            return f"{_visible(char)} at character {index + 1}"
    return None


class ShownLogFormatter(logging.Formatter):
    """Log lines for a terminal: the message ``shown`` (so a bot's words quoted in it
    stay on its one line, escapes visible), and every further line (a traceback) shown
    and indented, so nothing can pass for a log line of its own."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one log line, then its traceback indented."""
        safe = logging.makeLogRecord(record.__dict__)
        safe.msg, safe.args = shown(record.getMessage()), None
        head, *rest = super().format(safe).split("\n")
        return "\n".join([head, *("  " + shown(line) for line in rest)])
