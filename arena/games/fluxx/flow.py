"""The control stack: op codes of the frames, asking a decision, ending the match.

A match's future is a stack of frames (``State.stack``, top last). Each frame is a list
of ints, its op code first. The engine's run loop executes the top frame until a
decision is pending or the match is over; an op either pops itself, pushes further
frames, or asks a decision and stays put (to continue once it is answered).

============  =====================================================================
op            frame and meaning
============  =====================================================================
TURN_START    ``[0]`` §6.1: turn cap, counters, then the phases below
DEATH         ``[1]`` §6.2
DRAW_PHASE    ``[2]`` §6.3
PLAY_PHASE    ``[3]`` §6.4: one play per run, until no plays are left
END_PHASE     ``[4]`` §6.6: limits of the active seat
NEXT_TURN     ``[5]`` §6.7
SETTLE        ``[6]`` §9: state checks until nothing changes
RESOLVE       ``[7, card]`` §7: the card in transit takes effect
FINISH        ``[8, card]`` the resolved Action goes onto the discard pile
COMPOUND      ``[9, card, plays_made]`` §7.6: plays from the top temp hand
DEAL          ``[10, per_seat, recipient_offset, given]`` Everybody Gets 1
TAXATION      ``[11, per_seat, giver_offset, given]`` Taxation!
TRASH_DAY     ``[12, seat_offset]`` It's Trash Day!
SIMPLIFY      ``[13, cap, chosen…]`` Let's Simplify
AGENDA_LEFT   ``[14]`` Double Agenda left play: maybe choose the surviving Goal
============  =====================================================================

Every frame is public: it names only cards in transit or in public zones, seats and
counts.
"""

from __future__ import annotations

import random
from typing import Final

from .actions import Action, DecisionKind
from .state import Result, State

OP_TURN_START: Final = 0
OP_DEATH: Final = 1
OP_DRAW_PHASE: Final = 2
OP_PLAY_PHASE: Final = 3
OP_END_PHASE: Final = 4
OP_NEXT_TURN: Final = 5
OP_SETTLE: Final = 6
OP_RESOLVE: Final = 7
OP_FINISH: Final = 8
OP_COMPOUND: Final = 9
OP_DEAL: Final = 10
OP_TAXATION: Final = 11
OP_TRASH_DAY: Final = 12
OP_SIMPLIFY: Final = 13
OP_AGENDA_LEFT: Final = 14

OP_NAMES: Final = (
    "TURN_START",
    "DEATH",
    "DRAW_PHASE",
    "PLAY_PHASE",
    "END_PHASE",
    "NEXT_TURN",
    "SETTLE",
    "RESOLVE",
    "FINISH",
    "COMPOUND",
    "DEAL",
    "TAXATION",
    "TRASH_DAY",
    "SIMPLIFY",
    "AGENDA_LEFT",
)
"""Op names by code."""


def phase(state: State) -> str:
    """The phase of the turn, from the stack: ``start`` (turn start and Death, before
    the draw), ``play`` (from the draw's end until the plays end), ``end`` (the end
    phase), ``between`` (turns changing) or ``over``."""
    if state.result is not None:
        return "over"
    ops = {frame[0] for frame in state.stack}
    if OP_DRAW_PHASE in ops:
        return "start"
    if OP_PLAY_PHASE in ops:
        return "play"
    if OP_END_PHASE in ops:
        return "end"
    return "between"


def ask(state: State, kind: DecisionKind, seat: int, legal: list[Action]) -> None:
    """Make ``kind`` the pending decision of ``seat`` with this canonical legal set; but
    end the match instead if ``max_decisions`` answers were given [D43]."""
    if state.decisions >= state.config.options.max_decisions:
        end_game(state, -1, "decision_cap")
        return
    state.kind = kind
    state.deciding = seat
    state.legal = legal


def end_game(state: State, winner: int, reason: str) -> None:
    """End the match at once: ``winner`` (or -1) and the end reason (§12) [D35]."""
    n = state.config.players
    if winner >= 0:
        ranks = tuple(1 if s == winner else 2 for s in range(n))
        state.events.append(("win", winner))
    else:
        ranks = (1,) * n
    state.result = Result(winner, reason, ranks, state.turn, state.decisions)
    state.events.append(("game_end", reason, winner))
    state.stack.clear()
    state.kind = None
    state.deciding = -1
    state.legal = []


def rng(state: State) -> random.Random:
    """A generator for the next random step (a shuffle or a random pick), derived from
    the match's seed and the number of steps so far, so a state is plain data [D52]."""
    count = state.rng_count
    state.rng_count = count + 1
    return random.Random(state.seed * 1_000_003 + count)
