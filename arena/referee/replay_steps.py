"""One step of a recorded match on the game's board (the web's replay viewer), as one
seat saw it or with everything revealed.

Step ``k`` (0-based) is the moment before the match's decision ``k + 1``: the board,
what happened since the previous step, who decides what, the legal choices (the seat's
own only when it is the one deciding), the choice taken, the time it took and any
fault; the last step (``decisions``) is the end with the result. A seat's board is made
from ``observe()`` of the replayed state (``arena.games.boards``), never from the state.

Who may ask for which match is the caller's rule (finished matches only, duplicate deals
once their group is in); this module only replays.
"""

from __future__ import annotations

from typing import Any

from arena.games import (
    AnyGame,
    CapabilityMissingError,
    board_of,
    fault_words,
    revealed_moment,
    seat_moment,
    took,
)

from .record import RecordError, game_record, record_game


def replay_step(lines: list[dict[str, Any]], step: int, seat: int | None) -> dict[str, Any]:
    """Step ``step`` of a record (clamped to the match), as ``seat`` saw it (None:
    everything revealed). RecordError if the seat does not exist or the record does not
    replay; CapabilityMissingError if the game has no board."""
    header = lines[0]
    names: list[str] = header["seats"]
    if seat is not None and not 0 <= seat < len(names):
        raise RecordError(f"seat must be 0..{len(names) - 1}")
    game = record_game(lines)
    board = board_of(game)
    decisions = [line for line in lines if line["type"] == "decision"]
    last = len(decisions)
    step = max(0, min(step, last))
    cursor = 0
    try:
        for index, (state, action) in enumerate(game.replay_states(game_record(lines))):
            events = game.events(state)
            if index < step and action is not None:
                cursor = len(events)
                continue
            since = events[cursor:]
            if seat is None:
                moment = revealed_moment(game, state, since, names)
            else:
                moment = seat_moment(game, game.observe(state, seat), since, names)
            actor = game.deciding(state)
            taken = None
            if action is not None and actor is not None and board.action_seen(action, actor, seat):
                taken = board.choice_label(action, game.observe(state, actor), names)
            line = decisions[index] if action is not None and index < last else None
            return {
                "step": index,
                "steps": last + 1,
                "seat": seat,
                "names": names,
                **moment,
                "decision": _decision(line, names, taken),
                "result": _result(game, lines[-1]) if action is None else None,
            }
    except CapabilityMissingError:
        raise
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise RecordError(f"the record is damaged: {error}") from None
    raise RecordError("the record is damaged: its game record holds no match")


def _decision(
    line: dict[str, Any] | None, names: list[str], taken: str | None
) -> dict[str, Any] | None:
    """The referee's line of the decision at this step: who, what kind, the time
    charged, the fault or fallback, and the action taken (if the viewer may see it)."""
    if line is None:
        return None
    seat = int(line["seat"])
    fault = line.get("fault")
    return {
        "seat": seat,
        "name": names[seat] if 0 <= seat < len(names) else str(seat),
        "kind": str(line.get("kind", "")),
        "ms": line.get("ms"),
        "took": took(line),
        "problem": fault_words(line),
        "fault": fault,
        "fallback": line.get("fallback"),
        "forfeited": bool(line.get("forfeited")),
        "taken": taken,
    }


def _result(game: AnyGame, line: dict[str, Any]) -> dict[str, Any]:
    reason = str(line.get("end_reason", ""))
    return {
        "ranks": line["ranks"],
        "scores": line["scores"],
        "forfeited": line["forfeited"],
        "end_reason": reason,
        "end_words": game.end_words(reason),
    }
