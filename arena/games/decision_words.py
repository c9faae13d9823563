"""The referee's line of one decision in words, for the games' replay text and the web's
replay step: who chose what, how long it took, and any fault or fallback.

The line is the record's (``arena.referee.match``): ``ms`` the time charged, ``fault``
(kind and the bot's detail), ``fallback`` ("arena_lag" or "forfeited"), ``forfeited``.
The fault's detail is the bot's words: whoever shows it escapes it (``arena.text.shown``
in the text replay, autoescaping on the pages).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from arena import words

FAULT_WORDS: Final = {
    "TIMEOUT": "no answer in time",
    "DISCONNECTED": "the bot's connection broke",
    "ERROR": "the bot answered with an error",
    "MALFORMED": "an answer that names no action",
    "ILLEGAL": "an illegal action",
}
"""Each fault kind (``arena.referee.faults.FaultKind``) as people say it."""


def took(line: Mapping[str, Any]) -> str:
    """ "in 1.7 s", or "" when the line has no time."""
    ms = line.get("ms")
    return f"in {words.duration(float(ms))}" if isinstance(ms, int | float) else ""


def fault_words(line: Mapping[str, Any]) -> str:
    """What went wrong, or "": "fault: no answer in time (detail); the fallback was
    played", "the arena lagged: fallback, no strike"."""
    fault = line.get("fault")
    notes = []
    if fault:
        kind = str(fault.get("kind", ""))
        detail = str(fault.get("detail", ""))
        said = FAULT_WORDS.get(kind, kind.lower())
        notes.append(
            f"fault: {said}" + (f" ({detail})" if detail else "") + "; the fallback was played"
        )
    if line.get("fallback") == "arena_lag":
        notes.append("the arena lagged: fallback, no strike")
    elif line.get("fallback") == "forfeited":
        notes.append("the seat is forfeited: fallback")
    if line.get("forfeited"):
        notes.append("the seat is forfeited from now on")
    return "; ".join(notes)


def decision_line(
    number: int, name: str, label: str | None, line: Mapping[str, Any], hand: str = ""
) -> str:
    """ "#3 greedy chose “Play two 12s” in 1.7 s (hand: ...)", with any fault after a
    dash; ``label`` None: the choice is not this viewer's to see."""
    chose = f"chose “{label}”" if label is not None else "chose (not seen from this seat)"
    parts = [f"#{number} {words.Person(name)} {chose}", took(line)]
    text = " ".join(p for p in parts if p)
    if hand:
        text += f" (hand: {hand})"
    note = fault_words(line)
    return text + (f" — {note}" if note else "")
