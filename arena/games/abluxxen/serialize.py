"""JSON for whole states and game records, round-trip exact (docs/json-formats.md).

A *game record* is what a finished match publishes: the configuration, every shuffle
(deck order as dealt), every action with the seat that chose it, the full event list
and the result. ``replay`` rebuilds the match from the shuffles and actions alone, so any
tool can check a record against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from . import events as event_json
from .actions import DecisionKind, from_code
from .cards import JOKER, VALUE_OF
from .engine import apply, new_game_from_decks
from .observation import deal_result_from_json, deal_result_to_json
from .options import GameConfig
from .state import CardSet, Event, MatchResult, State

RECORD_FORMAT: Final = "abluxxen-record/1"
STATE_FORMAT: Final = "abluxxen-state/1"


def result_to_json(result: MatchResult) -> dict[str, Any]:
    """A match result as a JSON object."""
    return {
        "scores": list(result.scores),
        "hand_cards": list(result.hand_cards),
        "ranks": list(result.ranks),
        "end_reason": result.end_reason,
        "deals": [deal_result_to_json(d) for d in result.deals],
    }


def result_from_json(data: dict[str, Any]) -> MatchResult:
    """A match result from its JSON object."""
    return MatchResult(
        tuple(data["scores"]),
        tuple(data["hand_cards"]),
        tuple(data["ranks"]),
        tuple(deal_result_from_json(d) for d in data["deals"]),
    )


def _sets_to_json(sets: list[CardSet]) -> list[dict[str, Any]]:
    return [{"value": value, "cards": list(cards)} for value, cards in sets]


def _sets_from_json(data: list[dict[str, Any]]) -> list[CardSet]:
    return [(d["value"], tuple(d["cards"])) for d in data]


def state_to_json(state: State) -> dict[str, Any]:
    """The complete state, hidden parts included (never send this to a bot)."""
    played = state.played
    return {
        "format": STATE_FORMAT,
        "config": state.config.to_json(),
        "decks": [list(d) for d in state.decks],
        "deal": state.deal,
        "start_seat": state.start_seat,
        "hands": [[c for row in hand for c in row] for hand in state.hands],
        "known": [list(k) for k in state.known],
        "displays": [_sets_to_json(d) for d in state.displays],
        "pool": [list(slot) for slot in state.pool],
        "deck": list(state.deck),
        "discard": list(state.discard),
        "shadow": [list(stack) for stack in state.shadow],
        "turn": state.turn,
        "active": state.active,
        "decision": state.kind.name if state.kind is not None else None,
        "deciding": state.deciding,
        "played": _sets_to_json([played])[0] if played is not None else None,
        "checks": list(state.checks),
        "victim": state.victim,
        "drawer": state.drawer,
        "draws_left": state.draws_left,
        "abluxxed": state.abluxxed,
        "match_scores": list(state.match_scores),
        "match_hands": list(state.match_hands),
        "deal_results": [deal_result_to_json(d) for d in state.deal_results],
        "result": result_to_json(state.result) if state.result is not None else None,
        "history": [list(h) for h in state.history],
        "events": [event_json.to_json(e) for e in state.events],
    }


def state_from_json(data: dict[str, Any]) -> State:
    """A state from ``state_to_json``'s output."""
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not an Abluxxen state (format {data.get('format')!r})")
    state = State.__new__(State)
    state.config = GameConfig.from_json(data["config"])
    state.decks = [list(d) for d in data["decks"]]
    state.deal = data["deal"]
    state.start_seat = data["start_seat"]
    state.hands = []
    for cards in data["hands"]:
        hand: list[list[int]] = [[] for _ in range(JOKER + 1)]
        for card in cards:
            hand[VALUE_OF[card]].append(card)
        state.hands.append(hand)
    state.hand_sizes = [len(cards) for cards in data["hands"]]
    state.known = [list(k) for k in data["known"]]
    state.displays = [_sets_from_json(d) for d in data["displays"]]
    state.pool = [list(slot) for slot in data["pool"]]
    state.deck = list(data["deck"])
    state.discard = list(data["discard"])
    state.shadow = [list(stack) for stack in data["shadow"]]
    state.turn = data["turn"]
    state.active = data["active"]
    decision = data["decision"]
    state.kind = DecisionKind[decision] if decision is not None else None
    state.deciding = data["deciding"]
    played = data["played"]
    state.played = _sets_from_json([played])[0] if played is not None else None
    state.checks = list(data["checks"])
    state.victim = data["victim"]
    state.drawer = data["drawer"]
    state.draws_left = data["draws_left"]
    state.abluxxed = data["abluxxed"]
    state.match_scores = list(data["match_scores"])
    state.match_hands = list(data["match_hands"])
    state.deal_results = [deal_result_from_json(d) for d in data["deal_results"]]
    state.result = result_from_json(data["result"]) if data["result"] is not None else None
    state.history = [(seat, code) for seat, code in data["history"]]
    state.events = [event_json.from_json(e) for e in data["events"]]
    return state


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished (or interrupted) match, enough to replay it exactly."""

    config: GameConfig
    """Players, rule options, deals."""
    decks: tuple[tuple[int, ...], ...]
    """Every shuffle, first card dealt first."""
    actions: tuple[tuple[int, int], ...]
    """Every action as (seat, action code), in order."""
    events: tuple[Event, ...]
    """Every event, unredacted."""
    result: MatchResult | None
    """The result, if the match finished."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        return {
            "format": RECORD_FORMAT,
            "config": self.config.to_json(),
            "decks": [list(d) for d in self.decks],
            "actions": [
                {"seat": seat, "code": code, "action": from_code(code).to_json()}
                for seat, code in self.actions
            ],
            "events": [event_json.to_json(e) for e in self.events],
            "result": result_to_json(self.result) if self.result is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """A record from its JSON object."""
        if data.get("format") != RECORD_FORMAT:
            raise ValueError(f"not an Abluxxen game record (format {data.get('format')!r})")
        return cls(
            config=GameConfig.from_json(data["config"]),
            decks=tuple(tuple(d) for d in data["decks"]),
            actions=tuple((a["seat"], a["code"]) for a in data["actions"]),
            events=tuple(event_json.from_json(e) for e in data["events"]),
            result=result_from_json(data["result"]) if data["result"] is not None else None,
        )


def record_of(state: State) -> GameRecord:
    """The record of a match played from ``new_game``."""
    return GameRecord(
        config=state.config,
        decks=tuple(tuple(d) for d in state.decks),
        actions=tuple(state.history),
        events=tuple(state.events),
        result=state.result,
    )


def replay(record: GameRecord) -> State:
    """Replay a record through the rules; raises if its actions or events disagree."""
    state = new_game_from_decks(record.config, record.decks)
    for seat, code in record.actions:
        apply(state, from_code(code), seat)
    if tuple(state.events) != record.events:
        raise ValueError("the record's events differ from those its actions produce")
    if state.result != record.result:
        raise ValueError("the record's result differs from the replayed result")
    return state
