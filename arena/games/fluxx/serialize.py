"""JSON for whole states and game records, round-trip exact.

A *game record* is what a finished match publishes: the configuration, the seed, every
answered decision with the seat that answered it, the full event list and the result.
``replay`` rebuilds the match from the seed and the answers alone, so any tool can check
a record against the rules (D52: the seed reproduces a game within this engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from . import events as event_json
from .actions import DecisionKind, from_code
from .engine import apply, new_game_from_seed
from .observation import result_from_json, result_to_json
from .options import GameConfig
from .state import (
    Z_BASIC,
    Z_BOX,
    Z_DISCARD,
    Z_DRAW,
    Z_GOALS,
    Z_HAND,
    Z_META,
    Z_POOL,
    Z_RULES,
    Z_TABLE,
    Z_TEMP,
    Z_TRANSIT,
    Event,
    Result,
    State,
    card_locations,
    count_keepers,
    empty_state,
)

RECORD_FORMAT: Final = "fluxx-record/1"
STATE_FORMAT: Final = "fluxx-state/1"

_LISTS: Final = ("draw", "discard", "rules", "goals", "pool", "transit", "box")
_NESTED: Final = ("hands", "tables", "temp", "allot", "marks")
_SCALARS: Final = (
    "seed",
    "rng_count",
    "turn",
    "active",
    "extra",
    "another",
    "drawn",
    "played",
    "window",
    "escalation",
    "taxes_keep",
    "deciding",
    "decisions",
)


def state_to_json(state: State) -> dict[str, Any]:
    """The complete state, hidden parts included (never send this to a bot)."""
    out: dict[str, Any] = {"format": STATE_FORMAT, "config": state.config.to_json()}
    for name in _SCALARS:
        out[name] = getattr(state, name)
    for name in _LISTS:
        out[name] = list(getattr(state, name))
    for name in _NESTED:
        out[name] = [list(x) for x in getattr(state, name)]
    out["meta_in_play"] = state.loc[1] == Z_META
    out["stack"] = [list(f) for f in state.stack]
    out["decision"] = state.kind.name if state.kind is not None else None
    out["legal"] = [a.code for a in state.legal]
    out["result"] = result_to_json(state.result) if state.result is not None else None
    out["history"] = [list(h) for h in state.history]
    out["events"] = [event_json.to_json(e) for e in state.events]
    return out


def state_from_json(data: dict[str, Any]) -> State:
    """A state from ``state_to_json``'s output (card conservation is checked)."""
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not a Fluxx state (format {data.get('format')!r})")
    state = empty_state(GameConfig.from_json(data["config"]), data["seed"])
    for name in _SCALARS:
        setattr(state, name, data[name])
    for name in _LISTS:
        setattr(state, name, list(data[name]))
    for name in _NESTED:
        setattr(state, name, [list(x) for x in data[name]])
    loc = state.loc
    loc[0] = Z_BASIC
    if data["meta_in_play"]:
        loc[1] = Z_META
    for zone, cards in (
        (Z_DRAW, state.draw),
        (Z_DISCARD, state.discard),
        (Z_RULES, state.rules),
        (Z_GOALS, state.goals),
        (Z_POOL, state.pool),
        (Z_TRANSIT, state.transit),
        (Z_BOX, state.box),
    ):
        for c in cards:
            loc[c] = zone
    for cards in state.temp:
        for c in cards:
            loc[c] = Z_TEMP
    for cards in state.allot:
        for c in cards:
            loc[c] = Z_POOL
    for s, cards in enumerate(state.hands):
        for c in cards:
            loc[c] = Z_HAND + s
    for s, cards in enumerate(state.tables):
        for c in cards:
            loc[c] = Z_TABLE + s
    count_keepers(state)
    state.stack = [list(f) for f in data["stack"]]
    decision = data["decision"]
    state.kind = DecisionKind[decision] if decision is not None else None
    state.legal = [from_code(c) for c in data["legal"]]
    state.result = result_from_json(data["result"]) if data["result"] is not None else None
    state.history = [(seat, code) for seat, code in data["history"]]
    state.events = [event_json.from_json(e) for e in data["events"]]
    card_locations(state)
    return state


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished (or interrupted) match, enough to replay it exactly."""

    config: GameConfig
    """Players and rule options."""
    seed: int
    """The match's seed: every shuffle and random pick derives from it."""
    actions: tuple[tuple[int, int], ...]
    """Every answered decision as (seat, action code), in order."""
    events: tuple[Event, ...]
    """Every event, unredacted."""
    result: Result | None
    """The result, if the match finished."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        return {
            "format": RECORD_FORMAT,
            "config": self.config.to_json(),
            "seed": self.seed,
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
            raise ValueError(f"not a Fluxx game record (format {data.get('format')!r})")
        return cls(
            config=GameConfig.from_json(data["config"]),
            seed=data["seed"],
            actions=tuple((a["seat"], a["code"]) for a in data["actions"]),
            events=tuple(event_json.from_json(e) for e in data["events"]),
            result=result_from_json(data["result"]) if data["result"] is not None else None,
        )


def record_of(state: State) -> GameRecord:
    """The record of a match played from ``new_game`` / ``new_game_from_seed``."""
    return GameRecord(
        config=state.config,
        seed=state.seed,
        actions=tuple(state.history),
        events=tuple(state.events),
        result=state.result,
    )


def replay(record: GameRecord) -> State:
    """Replay a record through the rules; raises ValueError if its answers are not
    legal or its events or result differ from those the answers produce."""
    state = new_game_from_seed(record.config, record.seed)
    for seat, code in record.actions:
        apply(state, from_code(code), seat)
    if tuple(state.events) != record.events:
        raise ValueError("the record's events differ from those its actions produce")
    if state.result != record.result:
        raise ValueError("the record's result differs from the replayed result")
    return state
