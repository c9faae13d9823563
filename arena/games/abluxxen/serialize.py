"""JSON for whole states and game records, round-trip exact (docs/json-formats.md).

A *game record* is what a finished match publishes: the configuration, every shuffle
(deck order as dealt), every action with the seat that chose it, the full event list
and the result. ``replay`` rebuilds the match from the shuffles and actions alone, so any
tool can check a record against the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from . import events as event_json
from .actions import DecisionKind, from_code
from .cards import JOKER, NUM_CARDS, VALUE_OF
from .engine import apply, new_game_from_decks
from .observation import deal_result_from_json, deal_result_to_json
from .options import GameConfig, json_kind
from .state import CardSet, DealResult, Event, MatchResult, State, check_invariants

T = TypeVar("T")

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


class MalformedJSONError(ValueError):
    """A state or game record whose JSON is not one: a field missing, of the wrong shape,
    or cards that are not the match's. The message names the field."""


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"an integer was expected, not {json_kind(value)}")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"true or false was expected, not {json_kind(value)}")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"a list was expected, not {json_kind(value)}")
    return value


def _object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"an object was expected, not {json_kind(value)}")
    return value


def _ints(value: object) -> list[int]:
    return [_int(v) for v in _list(value)]


def _cards(value: object) -> list[int]:
    cards = _ints(value)
    if any(not 0 <= c < NUM_CARDS for c in cards):
        raise ValueError(f"card ids are 0..{NUM_CARDS - 1}")
    return cards


def _card_set(value: object) -> CardSet:
    data = _object(value)
    return (_int(data["value"]), tuple(_cards(data["cards"])))


def _field(data: dict[str, Any], key: str, read: Callable[[Any], T], what: str) -> T:
    """``read(data[key])``; MalformedJSONError naming the field if it is missing or is
    not what that field holds."""
    if key not in data:
        raise MalformedJSONError(f"{what} has no {key!r}")
    try:
        return read(data[key])
    except KeyError as error:
        raise MalformedJSONError(f"{what}'s {key!r} lacks the key {error.args[0]!r}") from None
    except (ValueError, TypeError, IndexError, AttributeError) as error:
        why = str(error) if isinstance(error, ValueError) else "it is not of the documented shape"
        raise MalformedJSONError(f"{what}'s {key!r} is malformed: {why}") from None


def _deal_result(value: object) -> DealResult:
    data = _object(value)
    reason = data["reason"]
    if not isinstance(reason, str):
        raise ValueError(f"a deal's reason is a string, not {json_kind(reason)}")
    return DealResult(
        reason,
        tuple(_ints(data["scores"])),
        tuple(_ints(data["hand_cards"])),
        tuple(_ints(data["ranks"])),
        _int(data["turns"]),
    )


def _result(value: object) -> MatchResult | None:
    if value is None:
        return None
    data = _object(value)
    return MatchResult(
        tuple(_ints(data["scores"])),
        tuple(_ints(data["hand_cards"])),
        tuple(_ints(data["ranks"])),
        tuple(_deal_result(d) for d in _list(data["deals"])),
    )


def _decision(value: object) -> DecisionKind | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in DecisionKind.__members__:
        raise ValueError(f"a decision kind is one of {', '.join(DecisionKind.__members__)}")
    return DecisionKind[value]


def _events(value: object) -> list[Event]:
    return [event_json.from_json(_object(e)) for e in _list(value)]


def _history(value: object) -> list[tuple[int, int]]:
    out = []
    for entry in _list(value):
        pair = _ints(entry)
        if len(pair) != 2:
            raise ValueError("each entry is [seat, code]")
        out.append((pair[0], pair[1]))
    return out


def state_from_json(data: dict[str, Any]) -> State:
    """A state from ``state_to_json``'s output; MalformedJSONError (a ValueError) naming
    what is wrong if it is not one."""
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        found = data.get("format") if isinstance(data, dict) else json_kind(data)
        raise MalformedJSONError(f"not an Abluxxen state (format {found!r})")
    what = "the state"

    def field(key: str, read: Callable[[Any], T]) -> T:
        return _field(data, key, read, what)

    state = State.__new__(State)
    state.config = field("config", GameConfig.from_json)
    state.decks = field("decks", lambda v: [_cards(d) for d in _list(v)])
    state.deal = field("deal", _int)
    state.start_seat = field("start_seat", _int)
    state.hands = []
    for cards in field("hands", lambda v: [_cards(h) for h in _list(v)]):
        hand: list[list[int]] = [[] for _ in range(JOKER + 1)]
        for card in cards:
            hand[VALUE_OF[card]].append(card)
        state.hands.append(hand)
    state.hand_sizes = [sum(len(row) for row in hand) for hand in state.hands]
    state.known = field("known", lambda v: [_ints(k) for k in _list(v)])
    state.displays = field(
        "displays", lambda v: [[_card_set(s) for s in _list(d)] for d in _list(v)]
    )
    state.pool = field("pool", lambda v: [_cards(slot) for slot in _list(v)])
    state.deck = field("deck", _cards)
    state.discard = field("discard", _cards)
    state.shadow = field("shadow", lambda v: [_cards(stack) for stack in _list(v)])
    state.turn = field("turn", _int)
    state.active = field("active", _int)
    state.kind = field("decision", _decision)
    state.deciding = field("deciding", _int)
    state.played = field("played", lambda v: None if v is None else _card_set(v))
    state.checks = field("checks", _ints)
    state.victim = field("victim", _int)
    state.drawer = field("drawer", _int)
    state.draws_left = field("draws_left", _int)
    state.abluxxed = field("abluxxed", _bool)
    state.match_scores = field("match_scores", _ints)
    state.match_hands = field("match_hands", _ints)
    state.deal_results = field("deal_results", lambda v: [_deal_result(d) for d in _list(v)])
    state.result = field("result", _result)
    state.history = field("history", _history)
    state.events = field("events", _events)
    problem = _state_problem(state)
    if problem is not None:
        raise MalformedJSONError(f"not a valid Abluxxen state: {problem}")
    return state


def _state_problem(state: State) -> str | None:
    """What makes a state read from JSON no state of a match, or None."""
    config = state.config
    players = config.players
    seats = range(players)
    for name in ("hands", "known", "displays", "match_scores", "match_hands"):
        if len(getattr(state, name)) != players:
            return f"{name} has {len(getattr(state, name))} entries for {players} seats"
    if any(len(k) != JOKER + 1 for k in state.known) or len(state.shadow) != JOKER + 1:
        return f"known (per seat) and shadow have {JOKER + 1} entries, one per value"
    for known, hand in zip(state.known, state.hands, strict=True):
        if known[0] or any(not 0 <= n <= len(row) for n, row in zip(known, hand, strict=True)):
            return "a seat's known cards are counts per value (index 0 unused) of cards it holds"
    if len(state.decks) != config.shuffles or not 0 <= state.deal < config.deals:
        return f"a match of {config.deals} deal(s) has {config.shuffles} shuffle(s)"
    if state.active not in seats or state.start_seat not in seats:
        return f"the active and start seats are seats 0..{players - 1}"
    if any(s not in seats for s in state.checks) or any(
        s != -1 and s not in seats for s in (state.victim, state.drawer)
    ):
        return f"checks, victim and drawer name seats 0..{players - 1} (or -1)"
    if (state.kind is None) != (state.deciding == -1) or (
        state.kind is not None and state.deciding not in seats
    ):
        return "a pending decision has a deciding seat, and a finished match neither"
    try:
        check_invariants(state)
    except AssertionError as error:
        return str(error)
    return None


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
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            found = data.get("format") if isinstance(data, dict) else json_kind(data)
            raise MalformedJSONError(f"not an Abluxxen game record (format {found!r})")
        what = "the game record"
        return cls(
            config=_field(data, "config", GameConfig.from_json, what),
            decks=_field(data, "decks", lambda v: tuple(tuple(_ints(d)) for d in _list(v)), what),
            actions=_field(data, "actions", _actions, what),
            events=tuple(_field(data, "events", _events, what)),
            result=_field(data, "result", _result, what),
        )


def _actions(value: object) -> tuple[tuple[int, int], ...]:
    actions = []
    for entry in _list(value):
        action = _object(entry)
        actions.append((_int(action["seat"]), _int(action["code"])))
    return tuple(actions)


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
