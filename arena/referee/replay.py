"""Print a recorded match step by step, as one seat saw it or with everything revealed.

The header and the result are the referee's; the steps are told by the game
(``Game.replay_text``), found by the record's ``game``. Every line is ``shown``: a
record holds bots' words (fault details) and names as given.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.text import shown
from arena.words import ordinal

from .record import RecordError, record_game


def replay_lines(lines: list[dict[str, Any]], seat: int | None) -> Iterator[str]:
    """The match as text: every event ``seat`` could see (all of them for ``None``) and
    every decision with its action, time and fault; each line ``shown``."""
    for line in _replay_lines(lines, seat):
        yield shown(line)


def _replay_lines(lines: list[dict[str, Any]], seat: int | None) -> Iterator[str]:
    header = lines[0]
    names: list[str] = header["seats"]
    game = record_game(lines)
    decisions = [line for line in lines if line["type"] == "decision"]
    who = "everything revealed" if seat is None else f"as seat {seat} ({names[seat]}) saw it"
    yield f"match {header['match_id']}: {', '.join(names)} — {who}"
    try:
        yield from game.replay_text(lines[-1]["game_record"], decisions, names, seat)
    except ValueError as error:  # the game's record does not replay
        raise RecordError(f"the record is damaged: {error}") from None
    result = lines[-1]
    ranks = ", ".join(f"{n} {ordinal(r)}" for n, r in zip(names, result["ranks"], strict=False))
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, result["scores"], strict=False))
    gone = [n for n, f in zip(names, result["forfeited"], strict=False) if f]
    yield f"final ranks: {ranks}; scores: {scores}" + (
        f"; forfeited: {', '.join(gone)}" if gone else ""
    )
