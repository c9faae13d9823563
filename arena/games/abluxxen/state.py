"""The complete state of a match: where every card is, and what happens next.

The zones are kept in the shapes the rules need fast (hands as per-value lists of card
ids, the deck as a list whose end is the top); ``card_locations`` derives the one record
of where every card is, and ``check_invariants`` checks card conservation against it.
Only ``engine.apply`` (and ``engine.new_game``) change a State.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import DecisionKind
from .cards import JOKER, NUM_CARDS, VALUE_OF, CardId, Value
from .options import GameConfig

CardSet = tuple[Value, tuple[CardId, ...]]
"""A set in a display: its value (14 = jokers alone) and its cards."""
Event = tuple[object, ...]
"""An event: its type name first, then its fields (see ``events.py``)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """How one deal ended."""

    reason: str
    """``hand_empty``, ``supply_exhausted`` or ``turn_cap``."""
    scores: tuple[int, ...]
    """Per seat: display cards minus hand cards."""
    hand_cards: tuple[int, ...]
    """Per seat: cards left in hand (the tie-break)."""
    ranks: tuple[int, ...]
    """Per seat: 1 = best; tied seats share a rank."""
    turns: int
    """Turns played in the deal."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: totals over its deals."""

    scores: tuple[int, ...]
    """Per seat: total score over all deals."""
    hand_cards: tuple[int, ...]
    """Per seat: total hand cards at the deals' ends."""
    ranks: tuple[int, ...]
    """Per seat: 1 = best; tied seats share a rank."""
    deals: tuple[DealResult, ...]
    """Each deal's own result, in order."""

    @property
    def end_reason(self) -> str:
        """The end reason of the last deal."""
        return self.deals[-1].reason


STATE_FIELDS: Final = (
    "abluxxed",
    "active",
    "checks",
    "config",
    "deal",
    "deal_results",
    "deciding",
    "deck",
    "decks",
    "discard",
    "displays",
    "drawer",
    "draws_left",
    "events",
    "hand_sizes",
    "hands",
    "history",
    "kind",
    "known",
    "match_hands",
    "match_scores",
    "played",
    "pool",
    "result",
    "shadow",
    "start_seat",
    "turn",
    "victim",
)
"""Every attribute of a State (also for compiled builds, whose classes have no
``__slots__``)."""


class State:
    """A match in progress. Treat as read-only outside the engine; use ``clone``."""

    __slots__ = STATE_FIELDS

    config: GameConfig
    """Players, rule options, deals."""
    decks: list[list[CardId]]
    """Each shuffle of the match, as dealt from (hidden: never leaves the referee)."""
    deal: int
    """Index of the current deal, from 0."""
    start_seat: int
    """The seat that started the current deal."""
    hands: list[list[list[CardId]]]
    """``hands[seat][value]``: ids of that value in the hand (value 14 = jokers)."""
    hand_sizes: list[int]
    """Cards in each hand."""
    known: list[list[int]]
    """``known[seat][value]``: cards of that value publicly known to be in that hand."""
    displays: list[list[CardSet]]
    """Each seat's display, oldest set first, top set last."""
    pool: list[list[CardId]]
    """Pool slots left to right; a slot holds one card or, in the duel, a group."""
    deck: list[CardId]
    """The face-down deck; the last element is the top."""
    discard: list[CardId]
    """The discard pile, bottom first."""
    shadow: list[list[CardId]]
    """Duel only: ``shadow[value]`` is the stack of that value (empty lists otherwise)."""
    turn: int
    """Turns played in this deal (a turn = one play and everything it causes)."""
    active: int
    """The seat whose turn it is."""
    kind: DecisionKind | None
    """The pending decision, or None when the match is over."""
    deciding: int
    """The seat that must decide (-1 when over)."""
    played: CardSet | None
    """The set played this turn, once played."""
    checks: list[int]
    """Seats still to compare against this turn, the next one last (the shadow display
    is compared at once, before any seat)."""
    victim: int
    """The seat being abluxxed now, or -1."""
    drawer: int
    """The seat drawing owed cards now, or -1."""
    draws_left: int
    """Owed draws left for ``drawer``."""
    abluxxed: bool
    """Whether anybody (the shadow display included) was abluxxed this turn."""
    match_scores: list[int]
    """Per seat: total score of finished deals."""
    match_hands: list[int]
    """Per seat: total hand cards at the end of finished deals."""
    deal_results: list[DealResult]
    """Results of finished deals."""
    result: MatchResult | None
    """The match result once over."""
    history: list[tuple[int, int]]
    """Every applied action as (seat, action code)."""
    events: list[Event]
    """Everything that happened, unredacted (see ``events.view``)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.config.players

    @property
    def is_over(self) -> bool:
        """True once the last deal has ended."""
        return self.kind is None

    def clone(self) -> State:
        """An independent copy, cheap enough for search (history and events are copied)."""
        other = State.__new__(State)
        other.config = self.config
        other.decks = self.decks  # never mutated after creation
        other.deal = self.deal
        other.start_seat = self.start_seat
        other.hands = [[list(cards) for cards in hand] for hand in self.hands]
        other.hand_sizes = list(self.hand_sizes)
        other.known = [list(k) for k in self.known]
        other.displays = [list(d) for d in self.displays]
        other.pool = [list(slot) for slot in self.pool]
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.shadow = [list(stack) for stack in self.shadow]
        other.turn = self.turn
        other.active = self.active
        other.kind = self.kind
        other.deciding = self.deciding
        other.played = self.played
        other.checks = list(self.checks)
        other.victim = self.victim
        other.drawer = self.drawer
        other.draws_left = self.draws_left
        other.abluxxed = self.abluxxed
        other.match_scores = list(self.match_scores)
        other.match_hands = list(self.match_hands)
        other.deal_results = list(self.deal_results)
        other.result = self.result
        other.history = list(self.history)
        other.events = list(self.events)
        return other

    def hand_values(self, seat: int) -> list[Value]:
        """The values in a seat's hand, sorted (jokers as 14)."""
        return [v for v in range(1, JOKER + 1) for _ in self.hands[seat][v]]

    def deal_scores(self) -> list[int]:
        """Per seat, the current deal's score so far: display cards minus hand cards."""
        return [
            sum(len(cards) for _, cards in self.displays[s]) - self.hand_sizes[s]
            for s in range(self.config.players)
        ]


def card_locations(state: State) -> list[str]:
    """The one record of where every card is: ``locations[card]`` names its zone
    (``hand:S``, ``display:S``, ``pool``, ``deck``, ``discard``, ``shadow``).

    Raises AssertionError if a card is in no zone or in two.
    """
    where: list[str | None] = [None] * NUM_CARDS

    def put(cards: list[CardId] | tuple[CardId, ...], zone: str) -> None:
        for card in cards:
            if where[card] is not None:
                raise AssertionError(f"card {card} is in both {where[card]} and {zone}")
            where[card] = zone

    for seat in range(state.config.players):
        for cards in state.hands[seat]:
            put(cards, f"hand:{seat}")
        for _, set_cards in state.displays[seat]:
            put(set_cards, f"display:{seat}")
    for slot in state.pool:
        put(slot, "pool")
    put(state.deck, "deck")
    put(state.discard, "discard")
    for stack in state.shadow:
        put(stack, "shadow")
    missing = [card for card, zone in enumerate(where) if zone is None]
    if missing:
        raise AssertionError(f"cards in no zone: {missing}")
    return [zone for zone in where if zone is not None]


def check_invariants(state: State) -> None:
    """Debug checks: card conservation and the bookkeeping derived from the zones."""
    card_locations(state)
    for seat in range(state.config.players):
        hand = state.hands[seat]
        size = sum(len(cards) for cards in hand)
        if size != state.hand_sizes[seat]:
            raise AssertionError(
                f"seat {seat}: hand_sizes says {state.hand_sizes[seat]}, holds {size}"
            )
        for value in range(1, JOKER + 1):
            if any(VALUE_OF[c] != value for c in hand[value]):
                raise AssertionError(f"seat {seat}: a card filed under value {value} is not one")
            if state.known[seat][value] > len(hand[value]):
                raise AssertionError(f"seat {seat}: more {value}s known than held")
    for value, stack in enumerate(state.shadow):
        if any(VALUE_OF[c] != value for c in stack):
            raise AssertionError(f"shadow stack {value} holds another value")
