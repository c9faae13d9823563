"""Decisions, actions and their stable integer encoding (RULES.md §11).

Every action has one integer ``code``; the canonical legal set of a decision is its
actions sorted by code. The codes are part of the public contract (records, the wire):

============  ==========================  ===========================================
code          action                      meaning
============  ==========================  ===========================================
1             TAKE                        attacker takes the abluxxed cards
2             LEAVE                       attacker leaves them to the victim
3             TAKE_BACK                   victim takes the left cards back
4             DISCARD                     victim discards them and draws as many
10 + i        POOL(i)                     draw pool slot i (0 = leftmost)
90            DECK                        draw the top card of the deck
91            PASS                        decline the optional draw
100 + v       SHADOW_PICK(v)              shadowluxx the stack of value v
1000+100v+10n+j PLAY(v, n, j)             play n cards of value v with j jokers;
                                          jokers alone are v = 14, n = 0
============  ==========================  ===========================================

Actions are interned: every possible action exists once, so legal sets are built from
shared objects and compare by identity or code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from .cards import COPIES_PER_VALUE, JOKER, MAX_NUMBER_VALUE, NUM_CARDS, value_name


class MalformedActionError(ValueError):
    """An action that is not well formed: it names no action of the game at all."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now."""


class DecisionKind(enum.IntEnum):
    """Which kind of decision is pending (RULES.md §11)."""

    PLAY = 1
    ATTACKER_TAKE = 2
    VICTIM_CHOICE = 3
    DRAW = 4
    OPTIONAL_DRAW = 5
    SHADOW_PICK = 6


class ActionKind(enum.IntEnum):
    """The kinds of action; each decision kind admits some of them."""

    TAKE = 1
    LEAVE = 2
    TAKE_BACK = 3
    DISCARD = 4
    POOL = 5
    DECK = 6
    PASS = 7
    SHADOW_PICK = 8
    PLAY = 9


TAKE_CODE: Final = 1
LEAVE_CODE: Final = 2
TAKE_BACK_CODE: Final = 3
DISCARD_CODE: Final = 4
POOL_BASE: Final = 10
MAX_POOL_SLOTS: Final = 80
DECK_CODE: Final = 90
PASS_CODE: Final = 91
SHADOW_BASE: Final = 100
PLAY_BASE: Final = 1000
MAX_JOKERS: Final = NUM_CARDS - 104


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action. Construct through the helpers below (``play``, ``pool`` …)."""

    code: int
    """The stable integer encoding; actions order and compare by it."""
    kind: ActionKind = field(compare=False)
    """What sort of action this is."""
    value: int = field(default=0, compare=False)
    """PLAY: the set's value (14 = jokers alone); SHADOW_PICK: the stack's value."""
    naturals: int = field(default=0, compare=False)
    """PLAY: number cards of ``value`` played."""
    jokers: int = field(default=0, compare=False)
    """PLAY: jokers played."""
    slot: int = field(default=0, compare=False)
    """POOL: the pool slot drawn, 0 = leftmost."""

    @property
    def count(self) -> int:
        """PLAY: how many cards the set has."""
        return self.naturals + self.jokers

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.PLAY:
            if self.value == JOKER:
                return f"PLAY {self.jokers}xJ"
            extra = f"+{self.jokers}J" if self.jokers else ""
            return f"PLAY {self.naturals}x{self.value}{extra}"
        if kind is ActionKind.POOL:
            return f"POOL({self.slot})"
        if kind is ActionKind.SHADOW_PICK:
            return f"SHADOW_PICK({value_name(self.value)})"
        return kind.name

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON object (see docs/json-formats.md)."""
        kind = self.kind
        if kind is ActionKind.PLAY:
            return {
                "type": "play",
                "value": self.value,
                "naturals": self.naturals,
                "jokers": self.jokers,
            }
        if kind is ActionKind.POOL:
            return {"type": "pool", "slot": self.slot}
        if kind is ActionKind.SHADOW_PICK:
            return {"type": "shadow_pick", "value": self.value}
        return {"type": kind.name.lower()}


def _make_all() -> dict[int, Action]:
    table: dict[int, Action] = {}
    simple = {
        TAKE_CODE: ActionKind.TAKE,
        LEAVE_CODE: ActionKind.LEAVE,
        TAKE_BACK_CODE: ActionKind.TAKE_BACK,
        DISCARD_CODE: ActionKind.DISCARD,
        DECK_CODE: ActionKind.DECK,
        PASS_CODE: ActionKind.PASS,
    }
    for code, kind in simple.items():
        table[code] = Action(code, kind)
    for slot in range(MAX_POOL_SLOTS):
        table[POOL_BASE + slot] = Action(POOL_BASE + slot, ActionKind.POOL, slot=slot)
    for value in range(1, JOKER + 1):
        table[SHADOW_BASE + value] = Action(SHADOW_BASE + value, ActionKind.SHADOW_PICK, value)
    for value in range(1, MAX_NUMBER_VALUE + 1):
        for naturals in range(1, COPIES_PER_VALUE + 1):
            for jokers in range(MAX_JOKERS + 1):
                code = PLAY_BASE + 100 * value + 10 * naturals + jokers
                table[code] = Action(code, ActionKind.PLAY, value, naturals, jokers)
    for jokers in range(1, MAX_JOKERS + 1):
        code = PLAY_BASE + 100 * JOKER + jokers
        table[code] = Action(code, ActionKind.PLAY, JOKER, 0, jokers)
    return table


ACTIONS: Final[dict[int, Action]] = _make_all()
"""Every action of the game, by code."""

TAKE: Final = ACTIONS[TAKE_CODE]
LEAVE: Final = ACTIONS[LEAVE_CODE]
TAKE_BACK: Final = ACTIONS[TAKE_BACK_CODE]
DISCARD: Final = ACTIONS[DISCARD_CODE]
DECK: Final = ACTIONS[DECK_CODE]
PASS: Final = ACTIONS[PASS_CODE]


def from_code(code: int | object) -> Action:
    """The action with this code, or MalformedActionError."""
    action = ACTIONS.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
    if action is None:
        raise MalformedActionError(f"{code!r} is not the code of any Abluxxen action")
    return action


def play(value: int | object, naturals: int | object, jokers: int | object = 0) -> Action:
    """PLAY: ``naturals`` cards of ``value`` and ``jokers`` jokers (value 14, naturals 0
    for jokers alone). The arguments are checked (``int | object``: they may come from
    JSON or a bot, and a compiled build must not reject them before the check)."""
    if value == JOKER and naturals != 0:
        raise MalformedActionError("a set of jokers alone has value 14 and 0 number cards")
    if not (_is_int(value) and _is_int(naturals) and _is_int(jokers)):
        return _bad_play(value, naturals, jokers)
    return (
        from_code(PLAY_BASE + 100 * value + 10 * naturals + jokers)
        if _play_ok(value, naturals, jokers)
        else _bad_play(value, naturals, jokers)
    )


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _play_ok(value: int, naturals: int, jokers: int) -> bool:
    if value == JOKER:
        return naturals == 0 and 1 <= jokers <= MAX_JOKERS
    return (
        1 <= value <= MAX_NUMBER_VALUE
        and 1 <= naturals <= COPIES_PER_VALUE
        and 0 <= jokers <= MAX_JOKERS
    )


def _bad_play(value: object, naturals: object, jokers: object) -> Action:
    raise MalformedActionError(
        f"PLAY value={value!r} naturals={naturals!r} jokers={jokers!r} is not a set: value "
        f"must be 1..13 with 1..8 number cards and 0..5 jokers, or 14 (jokers alone) with "
        f"0 number cards and 1..5 jokers"
    )


def jokers_alone(jokers: int) -> Action:
    """PLAY: ``jokers`` jokers played alone (value 14)."""
    return play(JOKER, 0, jokers)


def pool(slot: int | object) -> Action:
    """DRAW / OPTIONAL_DRAW: take pool slot ``slot`` (0 = leftmost)."""
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < MAX_POOL_SLOTS:
        raise MalformedActionError(f"pool slot {slot!r} is not a slot number (0..79)")
    return ACTIONS[POOL_BASE + slot]


def shadow_pick(value: int | object) -> Action:
    """SHADOW_PICK: shadowluxx the stack of ``value``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= JOKER:
        raise MalformedActionError(f"shadow stack value {value!r} is not a value 1..14")
    return ACTIONS[SHADOW_BASE + value]


_SIMPLE_BY_NAME: Final = {
    "take": TAKE,
    "leave": LEAVE,
    "take_back": TAKE_BACK,
    "discard": DISCARD,
    "deck": DECK,
    "pass": PASS,
}


def action_from_json(data: Any) -> Action:
    """An action from its JSON object; MalformedActionError if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedActionError(f"an action must be a JSON object with a 'type': {data!r}")
    kind = data["type"]
    try:
        if kind in _SIMPLE_BY_NAME:
            extra = set(data) - {"type"}
            if extra:
                raise MalformedActionError(f"action {kind!r} takes no fields, got {sorted(extra)}")
            return _SIMPLE_BY_NAME[kind]
        if kind == "play":
            return play(data["value"], data["naturals"], data.get("jokers", 0))
        if kind == "pool":
            return pool(data["slot"])
        if kind == "shadow_pick":
            return shadow_pick(data["value"])
    except KeyError as missing:
        raise MalformedActionError(f"action {kind!r} is missing field {missing}") from None
    raise MalformedActionError(
        f"unknown action type {kind!r}; known: play, take, leave, take_back, discard, "
        "pool, deck, pass, shadow_pick"
    )


# Legal-set tables, precomputed so that building a PLAY set allocates only the list.
PLAY_SETS: Final[tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...]] = tuple(
    tuple(
        tuple(
            tuple(
                ACTIONS[PLAY_BASE + 100 * v + 10 * n + j]
                for n in range(1, have + 1)
                for j in range(jokers + 1)
            )
            if 1 <= v <= MAX_NUMBER_VALUE
            else ()
            for jokers in range(MAX_JOKERS + 1)
        )
        for have in range(COPIES_PER_VALUE + 1)
    )
    for v in range(MAX_NUMBER_VALUE + 1)
)
"""``PLAY_SETS[v][have][jokers]``: the PLAY actions of value v from a hand holding
``have`` cards of v and ``jokers`` jokers, in canonical order."""

JOKER_SETS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(ACTIONS[PLAY_BASE + 100 * JOKER + j] for j in range(1, jokers + 1))
    for jokers in range(MAX_JOKERS + 1)
)
"""``JOKER_SETS[jokers]``: the jokers-alone PLAY actions from a hand with that many."""

POOL_ACTIONS: Final[tuple[Action, ...]] = tuple(
    ACTIONS[POOL_BASE + i] for i in range(MAX_POOL_SLOTS)
)
