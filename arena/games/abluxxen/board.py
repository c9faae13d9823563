"""Abluxxen's board for the web, as on the Brettspielwelt page: each seat with its hand
count and display (the top set, the one that can be abluxxed, highlighted), the pool of
six, the deck and discard counts, whose turn it is and what is being decided.

A seat's board is made from its observation alone (and the events it may see), so it
holds nothing ``observe`` hides; the revealed board adds every hand from every seat's
own observation. The fragment (``web/board.html``) and its stylesheet ship with the
package; the web app renders them with autoescaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from arena import words
from arena.games.base import Board, CardPicks

from . import events as event_views
from .actions import Action, DecisionKind
from .cards import JOKER, value_name
from .choice_words import choice_label
from .observation import Observation, SetView, observe
from .picks import card_picks
from .replay_text import deal_end_words, describe_event
from .state import State

_DECIDING: Final = {
    DecisionKind.PLAY: "{active:plays} a set of equal cards",
    DecisionKind.ATTACKER_TAKE: "{active:takes {victim:'s} abluxxed cards, or [leaves] them}",
    DecisionKind.VICTIM_CHOICE: "{victim:takes the cards back, or [discards] them and [draws]}",
    DecisionKind.DRAW: "{drawer:draws} an owed card ({left} left): from the pool or the deck",
    DecisionKind.OPTIONAL_DRAW: "{active:abluxxed nobody, so [may] draw one card, or pass}",
    DecisionKind.SHADOW_PICK: "{active:picks} the shadow display's set to abluxx",
}
"""What is being decided, in words, per decision kind (``arena.words.Person`` agrees
the verbs with each seat)."""


def _card(value: int) -> dict[str, Any]:
    """A card as the fragment draws it: its label and a colour class."""
    return {"label": value_name(value), "joker": value == JOKER, "value": value}


def _set(view: SetView) -> dict[str, Any]:
    value, naturals, jokers = view
    cards = [_card(JOKER)] * jokers if value == JOKER else [_card(value)] * naturals
    if value != JOKER:
        cards += [_card(JOKER)] * jokers
    return {"value": value_name(value), "count": naturals + jokers, "cards": cards}


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _deciding_text(obs: Observation, names: Sequence[str]) -> str:
    if obs.decision is None:
        return "the match is over"
    return _DECIDING[obs.decision].format(
        active=words.Person(_name(names, obs.active)),
        victim=words.Person(_name(names, obs.victim)),
        drawer=words.Person(_name(names, obs.drawer)),
        left=obs.draws_left,
    )


def board_view(
    obs: Observation,
    events: Sequence[dict[str, Any]],
    names: Sequence[str],
    hands: Sequence[Sequence[int] | None],
) -> dict[str, Any]:
    """The view model of one moment: ``obs`` for everything public, ``events`` as
    already shown to the viewer, ``hands`` the hands the viewer may see (None: only a
    count)."""
    scores = obs.scores
    match_scores = obs.match_scores
    seats = []
    for seat in range(obs.players):
        display = obs.displays[seat]
        hand = hands[seat]
        seats.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "hand_count": obs.hand_sizes[seat],
                "hand": None if hand is None else [_card(v) for v in hand],
                "known": [_card(v) for v in obs.known[seat]],
                "display": [_set(s) for s in display],
                "display_cards": sum(n + j for _, n, j in display),
                "score": scores[seat],
                "match_score": match_scores[seat],
                "active": seat == obs.active and obs.decision is not None,
                "deciding": seat == obs.deciding,
                "victim": seat == obs.victim,
            }
        )
    shadow = [{"value": value_name(v + 1), "count": n} for v, n in enumerate(obs.shadow) if n]
    return {
        "deal": obs.deal + 1,
        "deals": obs.config.deals,
        "turn": obs.turn + 1,
        "seats": seats,
        "pool": [[_card(v) for v in slot] for slot in obs.pool],
        "deck": obs.deck_size,
        "discard": len(obs.discard),
        "discard_top": _card(obs.discard[-1]) if obs.discard else None,
        "shadow": shadow,
        "played": _set(obs.played) if obs.played is not None else None,
        "deciding": obs.deciding,
        "decision": obs.decision.name if obs.decision is not None else None,
        "deciding_text": _deciding_text(obs, names),
        "over": obs.decision is None,
        "events": [describe_event(view, list(names)) for view in events],
        "past_deals": [
            {"deal": n + 1, "reason": deal_end_words(d.reason), "scores": list(d.scores)}
            for n, d in enumerate(obs.past_deals)
        ],
    }


NOBODY: Final = -1
"""A seat no player holds: what an event shows to someone following the match."""


class AbluxxenBoard(Board[State, Observation, Action]):
    """The Brettspielwelt-style board (module docstring)."""

    def seat_view(
        self, obs: Observation, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """From the seat's observation and its view of the events; only its own hand."""
        hands: list[Sequence[int] | None] = [None] * obs.players
        hands[obs.seat] = obs.hand
        shown = [event_views.view(e, obs.seat) for e in events]  # type: ignore[arg-type]
        view = board_view(obs, shown, names, hands)
        view["viewer"] = obs.seat
        return view

    def full_view(
        self, state: State, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """Every hand revealed, each from that seat's own observation."""
        views = [observe(state, seat) for seat in range(state.players)]
        public = views[state.deciding] if state.kind is not None else views[0]
        shown = [event_views.view(e, None) for e in events]  # type: ignore[arg-type]
        view = board_view(public, shown, names, [v.hand for v in views])
        view["viewer"] = None
        return view

    def public_view(
        self, state: State, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """No hand; events as a seat nobody holds sees them (every deal and deck draw
        a count); the table from the deciding seat's observation, whose public parts
        every seat shares."""
        public = observe(state, state.deciding if state.kind is not None else 0)
        shown = [event_views.view(e, NOBODY) for e in events]  # type: ignore[arg-type]
        view = board_view(public, shown, names, [None] * state.players)
        view["viewer"] = None
        return view

    def action_seen(self, action: Action, actor: int, seat: int | None) -> bool:
        """Every action is public (RULES.md §10: plays, takes and draws are seen by all;
        a deck draw names no card)."""
        return True

    def choice_label(self, action: Action, obs: Observation, names: Sequence[str] = ()) -> str:
        """``choice_label``: "Play three 7s and one joker", "Draw from the deck"."""
        return choice_label(action, obs)

    def card_picks(self, obs: Observation) -> CardPicks | None:
        """``card_picks`` (``picks.py``)."""
        return card_picks(obs)


BOARD: Final = AbluxxenBoard()
"""The board ``Abluxxen.board`` offers."""
