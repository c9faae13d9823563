"""Fluxx's board for the web: every seat's table of Keepers and Creepers with its hand
count, the rules in play with the numbers in force, the goals, the draw and discard
piles, the cards being played, whose turn it is and what is being decided.

A seat's board is made from its observation alone (its own hand, and the temp hand and
Everybody Gets 1 pool only when it is the active seat, as ``observe`` gives them); the
revealed board takes every hand from that seat's own observation. Which action another
seat took is not shown in a seat's view (some are private: a card given under Taxation!,
a pick for Trash Day); what it did in public is in the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from arena import words
from arena.games.base import Board, CardPicks

from . import events as event_views
from .actions import Action, DecisionKind
from .card_text import TEXT, TYPE_MEANING, TYPE_WORDS
from .cards import BASIC_RULES, NAMES, TYPE_OF, CardType
from .choice_words import choice_label
from .observation import Observation, observe
from .picks import card_picks
from .replay_text import describe_event, end_words
from .state import State

_DECIDING: Final = {
    DecisionKind.PLAY: "plays a card from the hand (or [gets] on with it)",
    DecisionKind.PLAY_TEMP: "plays a card from the temporary hand",
    DecisionKind.DEATH_DISCARD: "discards a Keeper or Creeper to Death, or [keeps] it",
    DecisionKind.DEATH_ALONE: "discards Death alone",
    DecisionKind.DISCARD_KEEPER_LIMIT: "discards down to the Keeper limit",
    DecisionKind.DISCARD_HAND_LIMIT: "discards down to the hand limit",
    DecisionKind.TAXES_CHOICE: "pays Taxes with Money, or [keeps] both",
    DecisionKind.WAR_TARGET: "gives War to another seat",
    DecisionKind.GOAL_DISCARD: "discards a Goal",
    DecisionKind.CHOOSE_PLAYER: "chooses a seat",
    DecisionKind.ROTATE_DIRECTION: "rotates the hands left or right",
    DecisionKind.EXCHANGE_KEEPERS: "exchanges Keepers",
    DecisionKind.TRASH_SOMETHING: "trashes a Keeper or Creeper",
    DecisionKind.STEAL_SOMETHING: "steals a Keeper or Creeper",
    DecisionKind.TRASH_RULE: "trashes a New Rule",
    DecisionKind.SIMPLIFY: "discards New Rules (Let's Simplify)",
    DecisionKind.REPLAY_FROM_DISCARD: "plays a card from the discard pile",
    DecisionKind.DEAL_CARD: "hands a card of Everybody Gets 1 to a seat",
    DecisionKind.TAX_GIVE: "gives a card under Taxation!",
    DecisionKind.TRASH_DAY: "picks what to throw out on Trash Day",
}
"""What is being decided, after the deciding seat's name (its verbs agree with it:
``arena.words.Person``)."""


def _card(card: int) -> dict[str, Any]:
    """A card as the fragment draws it: its name, its type (a colour class and its
    word) and its text (shown on hover, tap and keyboard)."""
    kind = TYPE_OF[card]
    return {
        "name": NAMES[card],
        "type": kind.name.lower(),
        "kind": TYPE_WORDS[kind],
        "text": TEXT[card],
    }


COLOUR_KEY: Final = tuple(
    {"type": kind.name.lower(), "name": TYPE_WORDS[kind], "meaning": TYPE_MEANING[kind]}
    for kind in CardType
    if kind is not CardType.META
)
"""The key to the cards' colours: each type's class, name and what it is for."""


def _cards(cards: Sequence[int]) -> list[dict[str, Any]]:
    return [_card(c) for c in cards]


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _limit(n: int) -> str:
    return "none" if n < 0 else str(n)


def board_view(
    obs: Observation,
    events: Sequence[dict[str, Any]],
    names: Sequence[str],
    hands: Sequence[Sequence[int] | None],
    private: Observation | None,
) -> dict[str, Any]:
    """The view model: ``obs`` for everything public, ``hands`` as the viewer may see
    them (None: a count), ``private`` the observation whose temp hands and pool the
    viewer may see (empty unless it is the active seat's; None: none)."""
    seats = []
    for seat in range(obs.players):
        table = obs.tables[seat]
        hand = hands[seat]
        seats.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "hand_count": obs.hand_sizes[seat],
                "hand": None if hand is None else _cards(sorted(hand)),
                "keepers": _cards([c for c in table if TYPE_OF[c] is CardType.KEEPER]),
                "creepers": _cards([c for c in table if TYPE_OF[c] is CardType.CREEPER]),
                "active": seat == obs.active and obs.decision is not None,
                "deciding": seat == obs.deciding,
            }
        )
    over = obs.decision is None
    deciding = (
        "the match is over"
        if obs.decision is None
        else format(words.Person(_name(names, obs.deciding)), _DECIDING[obs.decision])
    )
    result = obs.result
    return {
        "turn": obs.turn,
        "phase": obs.phase,
        "extra": obs.extra,
        "seats": seats,
        "basic": _card(BASIC_RULES),
        "rules": _cards(obs.rules),
        "goals": _cards(obs.goals),
        "numbers": {
            "draw": obs.draw_target,
            "play": "all" if obs.play_target < 0 else obs.play_target,
            "hand_limit": _limit(obs.hand_limit),
            "keeper_limit": _limit(obs.keeper_limit),
            "drawn": obs.drawn,
            "played": obs.played,
        },
        "draw_pile": obs.draw_size,
        "discard": len(obs.discard),
        "discard_top": _card(obs.discard[-1]) if obs.discard else None,
        "transit": _cards(obs.transit),
        "temp": [] if private is None else [_cards(t) for t in private.temp],
        "temp_sizes": list(obs.temp_sizes),
        "pool": [] if private is None else _cards(private.pool),
        "pool_size": obs.pool_size,
        "deciding": obs.deciding,
        "decision": obs.decision.name if obs.decision is not None else None,
        "deciding_text": deciding,
        "over": over,
        "winner": None if result is None or result.winner < 0 else _name(names, result.winner),
        "end_reason": None if result is None else end_words(result.end_reason),
        "events": [describe_event(view, list(names)) for view in events],
        "colour_key": COLOUR_KEY,
    }


NOBODY: Final = -1
"""A seat no player holds: what an event shows to someone following the match."""


class FluxxBoard(Board[State, Observation, Action]):
    """The tables-rules-goals board (module docstring)."""

    def seat_view(
        self, obs: Observation, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """From the seat's observation and its view of the events; only its own hand."""
        hands: list[Sequence[int] | None] = [None] * obs.players
        hands[obs.seat] = obs.hand
        shown = [event_views.view(e, obs.seat) for e in events]  # type: ignore[arg-type]
        view = board_view(obs, shown, names, hands, obs)
        view["viewer"] = obs.seat
        return view

    def full_view(
        self, state: State, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """Every hand revealed, each from that seat's own observation."""
        views = [observe(state, seat) for seat in range(state.config.players)]
        shown = [event_views.view(e, None) for e in events]  # type: ignore[arg-type]
        active = views[state.active]
        view = board_view(active, shown, names, [v.hand for v in views], active)
        view["viewer"] = None
        return view

    def public_view(
        self, state: State, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """No hand, no temporary hand or pool's cards (their sizes only); events as a
        seat nobody holds sees them; the table from the active seat's observation."""
        shown = [event_views.view(e, NOBODY) for e in events]  # type: ignore[arg-type]
        public = observe(state, state.active)
        view = board_view(public, shown, names, [None] * state.config.players, None)
        view["viewer"] = None
        return view

    def choice_label(self, action: Action, obs: Observation, names: Sequence[str] = ()) -> str:
        """``choice_label``: "Play The Brain", "Give War to seat 2 (greedy)"."""
        return choice_label(action, names)

    def card_picks(self, obs: Observation) -> CardPicks | None:
        """``card_picks`` (``picks.py``)."""
        return card_picks(obs)


BOARD: Final = FluxxBoard()
"""The board ``Fluxx.board`` offers."""
