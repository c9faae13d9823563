"""The complete state of a match: where every card is, and what happens next.

``loc[card]`` is the one record of where every card is (a zone code below); the zones
that have an order or are listed often are also kept as lists (the draw pile with its
top at the end, the discard pile bottom first, hands, tables, the rules and goal areas,
temp hands, the pool, cards in transit). ``card_locations`` checks that both agree and
that each of the 100 cards is in exactly one zone (FLUXX.md §1, §2).

What happens next is an explicit stack of small integer frames (``stack``, top last; see
``flow.py``), so a state is plain data: it copies cheaply and round-trips through JSON.
Only the engine (``engine.apply`` and what it calls) changes a State.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import Action, DecisionKind
from .cards import IS_CREEPER, IS_KEEPER, NUM_CARDS, CardId
from .options import GameConfig

Event = tuple[object, ...]
"""An event: its type name first, then its fields (see ``events.py``)."""
Frame = list[int]
"""One step still to do: its op code first, then its arguments (see ``flow.py``)."""

# Zone codes of ``State.loc``.
Z_DRAW: Final = 0
Z_DISCARD: Final = 1
Z_RULES: Final = 2
Z_GOALS: Final = 3
Z_BASIC: Final = 4
Z_META: Final = 5
Z_TRANSIT: Final = 6
Z_BOX: Final = 7
Z_POOL: Final = 8
Z_TEMP: Final = 9
Z_HAND: Final = 10
"""Seat s's main hand is zone Z_HAND + s."""
Z_TABLE: Final = 20
"""Seat s's table is zone Z_TABLE + s."""

ZONE_NAMES: Final = {
    Z_DRAW: "draw",
    Z_DISCARD: "discard",
    Z_RULES: "rules",
    Z_GOALS: "goals",
    Z_BASIC: "basic",
    Z_META: "meta",
    Z_TRANSIT: "transit",
    Z_BOX: "box",
    Z_POOL: "pool",
    Z_TEMP: "temp",
}


def zone_name(zone: int) -> str:
    """A zone code in words: ``draw``, ``hand:2``, ``table:0`` …"""
    if zone >= Z_TABLE:
        return f"table:{zone - Z_TABLE}"
    if zone >= Z_HAND:
        return f"hand:{zone - Z_HAND}"
    return ZONE_NAMES[zone]


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended (FLUXX.md §12)."""

    winner: int
    """The winning seat, or -1 for a capped game."""
    end_reason: str
    """``goal``, ``turn_cap`` or ``decision_cap``."""
    ranks: tuple[int, ...]
    """Per seat: 1 = best; the winner 1st and all others tied 2nd, or all tied 1st."""
    turns: int
    """Turns started."""
    decisions: int
    """Decisions answered."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat: 1 for the winner, else 0."""
        return tuple(1 if s == self.winner else 0 for s in range(len(self.ranks)))


STATE_FIELDS: Final = (
    "config",
    "seed",
    "rng_count",
    "loc",
    "draw",
    "discard",
    "hands",
    "tables",
    "keepers",
    "rules",
    "goals",
    "temp",
    "pool",
    "allot",
    "marks",
    "transit",
    "box",
    "turn",
    "active",
    "extra",
    "another",
    "drawn",
    "played",
    "window",
    "escalation",
    "taxes_keep",
    "stack",
    "kind",
    "deciding",
    "legal",
    "decisions",
    "result",
    "history",
    "events",
)
"""Every attribute of a State."""


class State:
    """A match in progress. Treat as read-only outside the engine; use ``clone``."""

    __slots__ = STATE_FIELDS

    config: GameConfig
    """Players and rule options."""
    seed: int
    """The match's random seed (hidden: never leaves the referee during a game)."""
    rng_count: int
    """Random draws made so far (each uses its own generator from seed and count)."""
    loc: list[int]
    """``loc[card]``: the zone code of every card (the one record of where cards are)."""
    draw: list[CardId]
    """The draw pile; the last element is the top."""
    discard: list[CardId]
    """The discard pile, bottom first (the last element is the top)."""
    hands: list[list[CardId]]
    """Each seat's main hand (unordered; listed sorted)."""
    tables: list[list[CardId]]
    """Each seat's Keepers and Creepers in play, in arrival order."""
    keepers: list[int]
    """Each seat's number of Keepers in play (derived from ``tables``, kept in step)."""
    rules: list[CardId]
    """New Rules in play, in the order they came into play."""
    goals: list[CardId]
    """Goals in play, oldest first (3 only while GOAL_DISCARD is pending)."""
    temp: list[list[CardId]]
    """The active seat's temp hands, bottom first (the last is the one being played)."""
    pool: list[CardId]
    """Everybody Gets 1: pool cards not yet handed out."""
    allot: list[list[CardId]]
    """Everybody Gets 1: per seat, pool cards handed to it, not yet in its hand."""
    marks: list[list[CardId]]
    """Per seat: cards chosen for Taxation! or It's Trash Day! and not yet moved."""
    transit: list[CardId]
    """Cards being played or resolved, oldest first."""
    box: list[CardId]
    """Cards out of the game."""
    turn: int
    """Turns started so far (the current turn's number)."""
    active: int
    """The seat whose turn it is."""
    extra: bool
    """Whether the current turn is an extra turn (Take Another Turn)."""
    another: bool
    """Whether Take Another Turn has given this turn an extra turn after it."""
    drawn: int
    """Cards drawn for the draw target this turn."""
    played: int
    """Plays from the main hand this turn."""
    window: bool
    """Whether owed draws are drawn now (§9 step 5) [D49]."""
    escalation: int
    """E: Rules Escalation steps so far."""
    taxes_keep: bool
    """Whether the holder of Taxes and Money chose KEEP (Silver Lining) [D45]."""
    stack: list[Frame]
    """What is still to do, top last (``flow.py``)."""
    kind: DecisionKind | None
    """The pending decision, or None once the match is over."""
    deciding: int
    """The seat that decides (-1 once over)."""
    legal: list[Action]
    """The pending decision's canonical legal actions."""
    decisions: int
    """Decisions answered so far."""
    result: Result | None
    """The result once over."""
    history: list[tuple[int, int]]
    """Every answered decision as (seat, action code)."""
    events: list[Event]
    """Everything that happened, unredacted (see ``events.view``)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.result is not None

    def clone(self) -> State:
        """An independent copy, cheap enough for search (history and events copied)."""
        other = State.__new__(State)
        other.config = self.config
        other.seed = self.seed
        other.rng_count = self.rng_count
        other.loc = list(self.loc)
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.hands = [list(h) for h in self.hands]
        other.tables = [list(t) for t in self.tables]
        other.keepers = list(self.keepers)
        other.rules = list(self.rules)
        other.goals = list(self.goals)
        other.temp = [list(t) for t in self.temp]
        other.pool = list(self.pool)
        other.allot = [list(a) for a in self.allot]
        other.marks = [list(m) for m in self.marks]
        other.transit = list(self.transit)
        other.box = list(self.box)
        other.turn = self.turn
        other.active = self.active
        other.extra = self.extra
        other.another = self.another
        other.drawn = self.drawn
        other.played = self.played
        other.window = self.window
        other.escalation = self.escalation
        other.taxes_keep = self.taxes_keep
        other.stack = [list(f) for f in self.stack]
        other.kind = self.kind
        other.deciding = self.deciding
        other.legal = list(self.legal)
        other.decisions = self.decisions
        other.result = self.result
        other.history = list(self.history)
        other.events = list(self.events)
        return other


def empty_state(config: GameConfig, seed: int) -> State:
    """A state with every zone empty and no card placed (``loc`` all -1)."""
    n = config.players
    state = State.__new__(State)
    state.config = config
    state.seed = seed
    state.rng_count = 0
    state.loc = [-1] * NUM_CARDS
    state.draw = []
    state.discard = []
    state.hands = [[] for _ in range(n)]
    state.tables = [[] for _ in range(n)]
    state.keepers = [0] * n
    state.rules = []
    state.goals = []
    state.temp = []
    state.pool = []
    state.allot = [[] for _ in range(n)]
    state.marks = [[] for _ in range(n)]
    state.transit = []
    state.box = []
    state.turn = 0
    state.active = 0
    state.extra = False
    state.another = False
    state.drawn = 0
    state.played = 0
    state.window = False
    state.escalation = 0
    state.taxes_keep = False
    state.stack = []
    state.kind = None
    state.deciding = -1
    state.legal = []
    state.decisions = 0
    state.result = None
    state.history = []
    state.events = []
    return state


def zone_lists(state: State) -> list[tuple[int, list[CardId]]]:
    """Every zone list with the zone code its cards must have in ``loc``."""
    out: list[tuple[int, list[CardId]]] = [
        (Z_DRAW, state.draw),
        (Z_DISCARD, state.discard),
        (Z_RULES, state.rules),
        (Z_GOALS, state.goals),
        (Z_TRANSIT, state.transit),
        (Z_BOX, state.box),
        (Z_POOL, state.pool),
    ]
    out += [(Z_TEMP, t) for t in state.temp]
    out += [(Z_POOL, a) for a in state.allot]
    out += [(Z_HAND + s, h) for s, h in enumerate(state.hands)]
    out += [(Z_TABLE + s, t) for s, t in enumerate(state.tables)]
    return out


def card_locations(state: State) -> list[str]:
    """``locations[card]``: the zone of every card, in words (``draw``, ``hand:2`` …).

    Raises AssertionError unless each of the 100 cards is in exactly one zone and
    ``loc`` agrees with the zone lists.
    """
    where: list[int] = [-1] * NUM_CARDS
    basic_meta = [(0, Z_BASIC), (1, Z_META)]
    for card, zone in basic_meta:
        if state.loc[card] == zone:
            where[card] = zone
    for zone, cards in zone_lists(state):
        for card in cards:
            if where[card] != -1:
                raise AssertionError(
                    f"card {card} is in both {zone_name(where[card])} and {zone_name(zone)}"
                )
            where[card] = zone
    missing = [card for card, zone in enumerate(where) if zone == -1]
    if missing:
        raise AssertionError(f"cards in no zone: {missing}")
    wrong = [c for c in range(NUM_CARDS) if state.loc[c] != where[c]]
    if wrong:
        c = wrong[0]
        raise AssertionError(
            f"loc says card {c} is in {zone_name(state.loc[c])}, it is in {zone_name(where[c])}"
        )
    return [zone_name(zone) for zone in where]


def count_keepers(state: State) -> None:
    """Recompute ``keepers`` from the tables (after building a state by hand)."""
    state.keepers = [sum(1 for c in t if IS_KEEPER[c]) for t in state.tables]


def check_invariants(state: State) -> None:
    """Debug checks: card conservation and the rules' structural invariants (§2)."""
    card_locations(state)
    counted = [sum(1 for c in t if IS_KEEPER[c]) for t in state.tables]
    if counted != state.keepers:
        raise AssertionError(f"keepers says {state.keepers}, the tables hold {counted}")
    if state.loc[0] != Z_BASIC:
        raise AssertionError("Basic Rules left the centre")
    for zone, cards in zone_lists(state):
        if zone in (Z_POOL, Z_TEMP) or Z_HAND <= zone < Z_TABLE:
            creepers = [c for c in cards if IS_CREEPER[c]]
            if creepers:
                raise AssertionError(f"Creepers {creepers} in {zone_name(zone)}")
    if len(state.goals) > 3 or (
        len(state.goals) == 3 and state.kind is not DecisionKind.GOAL_DISCARD
    ):
        raise AssertionError(f"{len(state.goals)} Goals in play")
    for s, marks in enumerate(state.marks):
        for card in marks:
            if state.loc[card] not in (Z_HAND + s, Z_TABLE + s):
                raise AssertionError(f"seat {s} marked card {card} it does not hold")
    if state.result is None and state.kind is None:
        raise AssertionError("no decision pending in an unfinished match")
