"""``observe(state, seat)``: the only way hidden state leaves the engine (RULES.md §10).

An Observation holds everything one seat may know and nothing else: its own hand, every
public zone, counts of the hidden ones, the match so far, and the pending decision with
its legal actions when the seat is the one deciding. It is complete: a bot that keeps no
memory can play from it, and ``resample.determinize`` can rebuild a full state from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..frozen_init import interpreted_init
from .actions import Action, DecisionKind, from_code
from .cards import JOKER, MAX_NUMBER_VALUE, VALUE_OF, Value
from .engine import legal_actions
from .options import GameConfig
from .state import DealResult, State

SetView = tuple[Value, int, int]
"""A set in a display as seen: (value, number cards, jokers); value 14 = jokers alone."""


@dataclass(frozen=True, slots=True, init=False)
class Observation:
    """What one seat may know at one moment."""

    seat: int
    """The observing seat."""
    config: GameConfig
    """Players, rule options, deals, duplicate."""
    deal: int
    """The current deal, from 0."""
    start_seat: int
    """Who started the current deal."""
    turn: int
    """Turns played in this deal."""
    active: int
    """Whose turn it is."""
    decision: DecisionKind | None
    """The pending decision (None once the match is over)."""
    deciding: int
    """The seat that decides (-1 once over)."""
    legal: tuple[Action, ...]
    """The canonical legal actions, if this seat decides; else empty."""
    hand: tuple[Value, ...]
    """This seat's hand, sorted values (14 = joker)."""
    hand_sizes: tuple[int, ...]
    """Cards in every hand."""
    known: tuple[tuple[Value, ...], ...]
    """Per seat: the cards publicly known to be in that hand (taken from the pool or a
    display in view of all, and not known to have been played since), sorted values."""
    displays: tuple[tuple[SetView, ...], ...]
    """Every display, oldest set first, top set last."""
    pool: tuple[tuple[Value, ...], ...]
    """Pool slots left to right; each a single card or a duel group."""
    shadow: tuple[int, ...]
    """Duel: cards of each value 1..12 in the shadow display (index 0 = value 1); empty
    otherwise."""
    discard: tuple[Value, ...]
    """The discard pile, bottom first."""
    deck_size: int
    """Cards left in the deck."""
    played: SetView | None
    """The set played this turn, while the turn resolves."""
    victim: int
    """The seat being abluxxed now, or -1."""
    checks: tuple[int, ...]
    """Seats whose displays are still to be compared against this turn, in order (the
    shadow display is compared at once, before any seat)."""
    drawer: int
    """The seat drawing owed cards now, or -1."""
    draws_left: int
    """Owed draws left for ``drawer``."""
    abluxxed: bool
    """Whether the active player has abluxxed anybody this turn (shadow included)."""
    past_deals: tuple[DealResult, ...]
    """Results of the match's finished deals."""

    def __init__(
        self,
        seat: int,
        config: GameConfig,
        deal: int,
        start_seat: int,
        turn: int,
        active: int,
        decision: DecisionKind | None,
        deciding: int,
        legal: tuple[Action, ...],
        hand: tuple[Value, ...],
        hand_sizes: tuple[int, ...],
        known: tuple[tuple[Value, ...], ...],
        displays: tuple[tuple[SetView, ...], ...],
        pool: tuple[tuple[Value, ...], ...],
        shadow: tuple[int, ...],
        discard: tuple[Value, ...],
        deck_size: int,
        played: SetView | None,
        victim: int,
        checks: tuple[int, ...],
        drawer: int,
        draws_left: int,
        abluxxed: bool,
        past_deals: tuple[DealResult, ...],
    ) -> None:
        # Plain stores: compiled, a native __init__ (frozen_init.py says why).
        self.seat = seat  # type: ignore[misc]
        self.config = config  # type: ignore[misc]
        self.deal = deal  # type: ignore[misc]
        self.start_seat = start_seat  # type: ignore[misc]
        self.turn = turn  # type: ignore[misc]
        self.active = active  # type: ignore[misc]
        self.decision = decision  # type: ignore[misc]
        self.deciding = deciding  # type: ignore[misc]
        self.legal = legal  # type: ignore[misc]
        self.hand = hand  # type: ignore[misc]
        self.hand_sizes = hand_sizes  # type: ignore[misc]
        self.known = known  # type: ignore[misc]
        self.displays = displays  # type: ignore[misc]
        self.pool = pool  # type: ignore[misc]
        self.shadow = shadow  # type: ignore[misc]
        self.discard = discard  # type: ignore[misc]
        self.deck_size = deck_size  # type: ignore[misc]
        self.played = played  # type: ignore[misc]
        self.victim = victim  # type: ignore[misc]
        self.checks = checks  # type: ignore[misc]
        self.drawer = drawer  # type: ignore[misc]
        self.draws_left = draws_left  # type: ignore[misc]
        self.abluxxed = abluxxed  # type: ignore[misc]
        self.past_deals = past_deals  # type: ignore[misc]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.config.players

    @property
    def scores(self) -> tuple[int, ...]:
        """Current deal score per seat: display cards minus hand cards."""
        return tuple(
            [
                sum([n + j for _, n, j in display]) - size
                for display, size in zip(self.displays, self.hand_sizes, strict=True)
            ]
        )

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Total score per seat over the finished deals."""
        return tuple(sum(d.scores[s] for d in self.past_deals) for s in range(self.config.players))

    def to_json(self) -> dict[str, Any]:
        """The observation as a JSON object (docs/json-formats.md)."""
        return {
            "seat": self.seat,
            "config": self.config.to_json(),
            "deal": self.deal,
            "start_seat": self.start_seat,
            "turn": self.turn,
            "active": self.active,
            "decision": self.decision.name if self.decision is not None else None,
            "deciding": self.deciding,
            "legal": [a.code for a in self.legal],
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "known": [list(k) for k in self.known],
            "displays": [[list(s) for s in d] for d in self.displays],
            "pool": [list(slot) for slot in self.pool],
            "shadow": list(self.shadow),
            "discard": list(self.discard),
            "deck_size": self.deck_size,
            "played": list(self.played) if self.played is not None else None,
            "victim": self.victim,
            "checks": list(self.checks),
            "drawer": self.drawer,
            "draws_left": self.draws_left,
            "abluxxed": self.abluxxed,
            "past_deals": [deal_result_to_json(d) for d in self.past_deals],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        """An observation from its JSON object."""
        decision = data["decision"]
        played = data["played"]
        return cls(
            seat=data["seat"],
            config=GameConfig.from_json(data["config"]),
            deal=data["deal"],
            start_seat=data["start_seat"],
            turn=data["turn"],
            active=data["active"],
            decision=DecisionKind[decision] if decision is not None else None,
            deciding=data["deciding"],
            legal=tuple(from_code(c) for c in data["legal"]),
            hand=tuple(data["hand"]),
            hand_sizes=tuple(data["hand_sizes"]),
            known=tuple(tuple(k) for k in data["known"]),
            displays=tuple(tuple(_set_view(s) for s in d) for d in data["displays"]),
            pool=tuple(tuple(slot) for slot in data["pool"]),
            shadow=tuple(data["shadow"]),
            discard=tuple(data["discard"]),
            deck_size=data["deck_size"],
            played=_set_view(played) if played is not None else None,
            victim=data["victim"],
            checks=tuple(data["checks"]),
            drawer=data["drawer"],
            draws_left=data["draws_left"],
            abluxxed=data["abluxxed"],
            past_deals=tuple(deal_result_from_json(d) for d in data["past_deals"]),
        )


interpreted_init(Observation)


def _set_view(data: list[int]) -> SetView:
    value, naturals, jokers = data
    return (value, naturals, jokers)


_SET_VIEWS: dict[tuple[Value, tuple[int, ...]], SetView] = {}
_VALUE_LISTS: dict[tuple[int, ...], tuple[Value, ...]] = {}


def set_view(value: Value, cards: tuple[int, ...]) -> SetView:
    """A display set as players see it: (value, number cards, jokers)."""
    key = (value, cards)
    view = _SET_VIEWS.get(key)
    if view is None:
        jokers = sum(1 for c in cards if VALUE_OF[c] == JOKER)
        view = (value, len(cards) - jokers, jokers)
        if len(_SET_VIEWS) < 200_000:  # bounded: sets are few in practice
            _SET_VIEWS[key] = view
    return view


def values_of_counts(counts: tuple[int, ...]) -> tuple[Value, ...]:
    """Sorted values from counts per value (index = value), memoized."""
    values = _VALUE_LISTS.get(counts)
    if values is None:
        out: list[Value] = []
        for value, count in enumerate(counts):
            if count:
                out += (value,) * count
        values = tuple(out)
        if len(_VALUE_LISTS) < 200_000:
            _VALUE_LISTS[counts] = values
    return values


def deal_result_to_json(result: DealResult) -> dict[str, Any]:
    """A deal's result as a JSON object."""
    return {
        "reason": result.reason,
        "scores": list(result.scores),
        "hand_cards": list(result.hand_cards),
        "ranks": list(result.ranks),
        "turns": result.turns,
    }


def deal_result_from_json(data: dict[str, Any]) -> DealResult:
    """A deal's result from its JSON object."""
    return DealResult(
        data["reason"],
        tuple(data["scores"]),
        tuple(data["hand_cards"]),
        tuple(data["ranks"]),
        data["turns"],
    )


def observe(state: State, seat: int) -> Observation:
    """Everything ``seat`` may know now, and nothing more."""
    n = state.config.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} does not exist at a table of {n}")
    played = state.played
    return Observation(
        seat=seat,
        config=state.config,
        deal=state.deal,
        start_seat=state.start_seat,
        turn=state.turn,
        active=state.active,
        decision=state.kind,
        deciding=state.deciding,
        legal=tuple(legal_actions(state, seat)),
        hand=values_of_counts(tuple(map(len, state.hands[seat]))),
        hand_sizes=tuple(state.hand_sizes),
        known=tuple([values_of_counts(tuple(k)) for k in state.known]),
        displays=tuple(
            [
                tuple([set_view(value, cards) for value, cards in display])
                for display in state.displays
            ]
        ),
        pool=tuple([tuple([VALUE_OF[c] for c in slot]) for slot in state.pool]),
        shadow=(
            tuple([len(state.shadow[v]) for v in range(1, MAX_NUMBER_VALUE)])
            if state.config.duel
            else ()
        ),
        discard=tuple([VALUE_OF[c] for c in state.discard]),
        deck_size=len(state.deck),
        played=set_view(*played) if played is not None else None,
        victim=state.victim,
        checks=tuple(reversed(state.checks)),
        drawer=state.drawer,
        draws_left=state.draws_left,
        abluxxed=state.abluxxed,
        past_deals=tuple(state.deal_results),
    )
