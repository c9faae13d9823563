"""``observe(state, seat)``: the only way hidden state leaves the engine (FLUXX.md §13).

An Observation holds everything one seat may know and nothing else: every public zone
(tables, rules, goals, the discard pile in order, cards in transit, the box), counts of
the hidden ones (hands, temp hands, pool, draw pile), the turn's public counters and
numbers in force, the control stack (public: ``flow.py``), and the seat's own private
zones: its hand, its temp hands and the Everybody Gets 1 pool if it is the active seat,
its own Taxation!/Trash Day picks, and its legal actions when it decides. It is complete:
``resample.determinize`` rebuilds a full state from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..frozen_init import interpreted_init
from .actions import Action, DecisionKind, from_code
from .flow import phase
from .numbers import draw_target, hand_limit, keeper_limit, play_target
from .options import GameConfig
from .state import Result, State


@dataclass(frozen=True, slots=True, init=False)
class Observation:
    """What one seat may know at one moment."""

    seat: int
    """The observing seat."""
    config: GameConfig
    """Players and rule options."""
    turn: int
    """The current turn's number (turns started)."""
    active: int
    """Whose turn it is."""
    phase: str
    """The phase of the turn (``flow.phase``)."""
    extra: bool
    """Whether this turn is an extra turn."""
    another: bool
    """Whether an extra turn follows this one."""
    decision: DecisionKind | None
    """The pending decision (None once over)."""
    deciding: int
    """The seat that decides (-1 once over)."""
    legal: tuple[Action, ...]
    """The canonical legal actions if this seat decides, else empty."""
    hand: tuple[int, ...]
    """This seat's main hand, sorted."""
    hand_sizes: tuple[int, ...]
    """Every main hand's size."""
    tables: tuple[tuple[int, ...], ...]
    """Every seat's Keepers and Creepers, in arrival order."""
    rules: tuple[int, ...]
    """New Rules in play, in the order they came into play."""
    goals: tuple[int, ...]
    """Goals in play, oldest first."""
    discard: tuple[int, ...]
    """The discard pile, bottom first."""
    draw_size: int
    """Cards in the draw pile."""
    temp: tuple[tuple[int, ...], ...]
    """The active seat's temp hands (bottom first, each sorted) if this is the active
    seat, else empty."""
    temp_sizes: tuple[int, ...]
    """Sizes of the temp hands, bottom first."""
    pool: tuple[int, ...]
    """Everybody Gets 1 cards not yet handed out, sorted, if this is the active seat."""
    pool_size: int
    """How many cards the pool holds."""
    allot: tuple[tuple[int, ...], ...]
    """Per seat, pool cards handed to it so far, if this is the active seat; else empty."""
    allot_sizes: tuple[int, ...]
    """Per seat, how many pool cards were handed to it so far."""
    marks: tuple[int, ...]
    """This seat's Taxation! / Trash Day picks not yet moved, sorted."""
    mark_counts: tuple[int, ...]
    """Per seat, how many such picks it has made."""
    transit: tuple[int, ...]
    """Cards being played or resolved, oldest first."""
    box: tuple[int, ...]
    """Cards out of the game."""
    escalation: int
    """E: Rules Escalation steps so far."""
    drawn: int
    """Cards drawn for the draw target this turn."""
    played: int
    """Plays from the main hand this turn."""
    draw_target: int
    """The active seat's draw target."""
    play_target: int
    """The active seat's play target (-1: Play All)."""
    hand_limit: int
    """The hand limit in force (-1: none)."""
    keeper_limit: int
    """The Keeper limit in force (-1: none)."""
    window: bool
    """Whether owed draws are drawn now."""
    taxes_keep: bool
    """Whether the Taxes holder chose KEEP under Silver Lining."""
    decisions: int
    """Decisions answered so far."""
    stack: tuple[tuple[int, ...], ...]
    """The control stack, top last (``flow.py``)."""
    result: Result | None
    """The result once over."""

    def __init__(
        self,
        seat: int,
        config: GameConfig,
        turn: int,
        active: int,
        phase: str,
        extra: bool,
        another: bool,
        decision: DecisionKind | None,
        deciding: int,
        legal: tuple[Action, ...],
        hand: tuple[int, ...],
        hand_sizes: tuple[int, ...],
        tables: tuple[tuple[int, ...], ...],
        rules: tuple[int, ...],
        goals: tuple[int, ...],
        discard: tuple[int, ...],
        draw_size: int,
        temp: tuple[tuple[int, ...], ...],
        temp_sizes: tuple[int, ...],
        pool: tuple[int, ...],
        pool_size: int,
        allot: tuple[tuple[int, ...], ...],
        allot_sizes: tuple[int, ...],
        marks: tuple[int, ...],
        mark_counts: tuple[int, ...],
        transit: tuple[int, ...],
        box: tuple[int, ...],
        escalation: int,
        drawn: int,
        played: int,
        draw_target: int,
        play_target: int,
        hand_limit: int,
        keeper_limit: int,
        window: bool,
        taxes_keep: bool,
        decisions: int,
        stack: tuple[tuple[int, ...], ...],
        result: Result | None,
    ) -> None:
        # Plain stores: compiled, a native __init__ (frozen_init.py says why).
        self.seat = seat  # type: ignore[misc]
        self.config = config  # type: ignore[misc]
        self.turn = turn  # type: ignore[misc]
        self.active = active  # type: ignore[misc]
        self.phase = phase  # type: ignore[misc]
        self.extra = extra  # type: ignore[misc]
        self.another = another  # type: ignore[misc]
        self.decision = decision  # type: ignore[misc]
        self.deciding = deciding  # type: ignore[misc]
        self.legal = legal  # type: ignore[misc]
        self.hand = hand  # type: ignore[misc]
        self.hand_sizes = hand_sizes  # type: ignore[misc]
        self.tables = tables  # type: ignore[misc]
        self.rules = rules  # type: ignore[misc]
        self.goals = goals  # type: ignore[misc]
        self.discard = discard  # type: ignore[misc]
        self.draw_size = draw_size  # type: ignore[misc]
        self.temp = temp  # type: ignore[misc]
        self.temp_sizes = temp_sizes  # type: ignore[misc]
        self.pool = pool  # type: ignore[misc]
        self.pool_size = pool_size  # type: ignore[misc]
        self.allot = allot  # type: ignore[misc]
        self.allot_sizes = allot_sizes  # type: ignore[misc]
        self.marks = marks  # type: ignore[misc]
        self.mark_counts = mark_counts  # type: ignore[misc]
        self.transit = transit  # type: ignore[misc]
        self.box = box  # type: ignore[misc]
        self.escalation = escalation  # type: ignore[misc]
        self.drawn = drawn  # type: ignore[misc]
        self.played = played  # type: ignore[misc]
        self.draw_target = draw_target  # type: ignore[misc]
        self.play_target = play_target  # type: ignore[misc]
        self.hand_limit = hand_limit  # type: ignore[misc]
        self.keeper_limit = keeper_limit  # type: ignore[misc]
        self.window = window  # type: ignore[misc]
        self.taxes_keep = taxes_keep  # type: ignore[misc]
        self.decisions = decisions  # type: ignore[misc]
        self.stack = stack  # type: ignore[misc]
        self.result = result  # type: ignore[misc]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.config.players

    def to_json(self) -> dict[str, Any]:
        """The observation as a JSON object."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "config":
                value = value.to_json()
            elif name == "decision":
                value = value.name if value is not None else None
            elif name == "legal":
                value = [a.code for a in value]
            elif name == "result":
                value = result_to_json(value) if value is not None else None
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[name] = value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        """An observation from its JSON object."""
        values: dict[str, Any] = {}
        for name in cls.__dataclass_fields__:
            value = data[name]
            if name == "config":
                value = GameConfig.from_json(value)
            elif name == "decision":
                value = DecisionKind[value] if value is not None else None
            elif name == "legal":
                value = tuple(from_code(c) for c in value)
            elif name == "result":
                value = result_from_json(value) if value is not None else None
            elif isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            values[name] = value
        return cls(**values)


interpreted_init(Observation)


def result_to_json(result: Result) -> dict[str, Any]:
    """A result as a JSON object."""
    return {
        "winner": result.winner,
        "end_reason": result.end_reason,
        "ranks": list(result.ranks),
        "turns": result.turns,
        "decisions": result.decisions,
    }


def result_from_json(data: dict[str, Any]) -> Result:
    """A result from its JSON object."""
    return Result(
        data["winner"], data["end_reason"], tuple(data["ranks"]), data["turns"], data["decisions"]
    )


def observe(state: State, seat: int) -> Observation:
    """Everything ``seat`` may know now, and nothing more."""
    n = state.config.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} does not exist at a table of {n}")
    mine = seat == state.active
    return Observation(
        seat=seat,
        config=state.config,
        turn=state.turn,
        active=state.active,
        phase=phase(state),
        extra=state.extra,
        another=state.another,
        decision=state.kind,
        deciding=state.deciding,
        legal=tuple(state.legal) if seat == state.deciding else (),
        hand=tuple(sorted(state.hands[seat])),
        hand_sizes=tuple(len(h) for h in state.hands),
        tables=tuple(tuple(t) for t in state.tables),
        rules=tuple(state.rules),
        goals=tuple(state.goals),
        discard=tuple(state.discard),
        draw_size=len(state.draw),
        temp=tuple(tuple(sorted(t)) for t in state.temp) if mine else (),
        temp_sizes=tuple(len(t) for t in state.temp),
        pool=tuple(sorted(state.pool)) if mine else (),
        pool_size=len(state.pool),
        allot=tuple(tuple(a) for a in state.allot) if mine else (),
        allot_sizes=tuple(len(a) for a in state.allot),
        marks=tuple(sorted(state.marks[seat])),
        mark_counts=tuple(len(m) for m in state.marks),
        transit=tuple(state.transit),
        box=tuple(sorted(state.box)),
        escalation=state.escalation,
        drawn=state.drawn,
        played=state.played,
        draw_target=draw_target(state),
        play_target=play_target(state),
        hand_limit=hand_limit(state),
        keeper_limit=keeper_limit(state),
        window=state.window,
        taxes_keep=state.taxes_keep,
        decisions=state.decisions,
        stack=tuple(tuple(f) for f in state.stack),
        result=state.result,
    )
