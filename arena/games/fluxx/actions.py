"""Decisions, actions and their stable integer encoding (FLUXX.md §14).

Every action has one integer ``code``; a decision's canonical legal set is its actions
sorted by code (verbs in the order of §14, then ascending card id / seat / card pair).
The codes are part of the public contract (records, the wire):

==============  ======================  =============================================
code            action                  decisions
==============  ======================  =============================================
100 + c         PLAY(c)                 PLAY, PLAY_TEMP
200             GET_ON_WITH_IT          PLAY (free action)
201             DISCARD_LONE_DEATH      PLAY (free action)
300 + c         DISCARD(c)              DEATH_DISCARD, DISCARD_*_LIMIT, TRASH_DAY
400             DONE                    TRASH_DAY
401 / 402       DISCARD_DEATH / KEEP_DEATH   DEATH_ALONE
403 / 404       PAY / KEEP              TAXES_CHOICE
405 / 406       LEFT / RIGHT            ROTATE_DIRECTION
500 + c         TARGET(c)               TRASH_SOMETHING, STEAL_SOMETHING, TRASH_RULE,
                                        SIMPLIFY
600             STOP                    SIMPLIFY
700 + c         TAKE(c)                 REPLAY_FROM_DISCARD
800 + c         GIVE(c)                 DEAL_CARD, TAX_GIVE
900 + g         DISCARD_GOAL(g)         GOAL_DISCARD
1000 + s        GIVE_WAR(s)             WAR_TARGET
1010 + s        SEAT(s)                 CHOOSE_PLAYER
1100 + 19(k−2) + (o−2)  EXCHANGE(k, o)  EXCHANGE_KEEPERS (own Keeper k, other Keeper o)
==============  ======================  =============================================

Actions are interned: every possible action exists once (``ACTIONS``), so legal sets are
built from shared objects and compare by identity (or by code).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Final

from .cards import (
    DECK_CARDS,
    FIRST_RULE,
    GOALS,
    IS_CREEPER,
    IS_KEEPER,
    KEEPERS,
    NAMES,
    NUM_CARDS,
    TYPE_OF,
    CardId,
    CardType,
)
from .options import MAX_PLAYERS


class MalformedActionError(ValueError):
    """Not an action of the game at all (unknown verb, card or seat)."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now."""


class DecisionKind(enum.IntEnum):
    """The 20 kinds of decision (FLUXX.md §14)."""

    PLAY = 1
    PLAY_TEMP = 2
    DEATH_DISCARD = 3
    DEATH_ALONE = 4
    DISCARD_KEEPER_LIMIT = 5
    DISCARD_HAND_LIMIT = 6
    TAXES_CHOICE = 7
    WAR_TARGET = 8
    GOAL_DISCARD = 9
    CHOOSE_PLAYER = 10
    ROTATE_DIRECTION = 11
    EXCHANGE_KEEPERS = 12
    TRASH_SOMETHING = 13
    STEAL_SOMETHING = 14
    TRASH_RULE = 15
    SIMPLIFY = 16
    REPLAY_FROM_DISCARD = 17
    DEAL_CARD = 18
    TAX_GIVE = 19
    TRASH_DAY = 20


class ActionKind(enum.IntEnum):
    """The verbs."""

    PLAY = 1
    GET_ON_WITH_IT = 2
    DISCARD_LONE_DEATH = 3
    DISCARD = 4
    DONE = 5
    DISCARD_DEATH = 6
    KEEP_DEATH = 7
    PAY = 8
    KEEP = 9
    LEFT = 10
    RIGHT = 11
    TARGET = 12
    STOP = 13
    TAKE = 14
    GIVE = 15
    DISCARD_GOAL = 16
    GIVE_WAR = 17
    SEAT = 18
    EXCHANGE = 19


PLAY_BASE: Final = 100
GET_ON_WITH_IT_CODE: Final = 200
DISCARD_LONE_DEATH_CODE: Final = 201
DISCARD_BASE: Final = 300
DONE_CODE: Final = 400
DISCARD_DEATH_CODE: Final = 401
KEEP_DEATH_CODE: Final = 402
PAY_CODE: Final = 403
KEEP_CODE: Final = 404
LEFT_CODE: Final = 405
RIGHT_CODE: Final = 406
TARGET_BASE: Final = 500
STOP_CODE: Final = 600
TAKE_BASE: Final = 700
GIVE_BASE: Final = 800
DISCARD_GOAL_BASE: Final = 900
GIVE_WAR_BASE: Final = 1000
SEAT_BASE: Final = 1010
EXCHANGE_BASE: Final = 1100
NUM_ACTION_CODES: Final = EXCHANGE_BASE + 19 * 19
"""Every action code is below this."""

_CARD_VERBS: Final = {
    ActionKind.PLAY: PLAY_BASE,
    ActionKind.DISCARD: DISCARD_BASE,
    ActionKind.TARGET: TARGET_BASE,
    ActionKind.TAKE: TAKE_BASE,
    ActionKind.GIVE: GIVE_BASE,
    ActionKind.DISCARD_GOAL: DISCARD_GOAL_BASE,
}
_SEAT_VERBS: Final = {ActionKind.GIVE_WAR: GIVE_WAR_BASE, ActionKind.SEAT: SEAT_BASE}
_SIMPLE: Final = {
    ActionKind.GET_ON_WITH_IT: GET_ON_WITH_IT_CODE,
    ActionKind.DISCARD_LONE_DEATH: DISCARD_LONE_DEATH_CODE,
    ActionKind.DONE: DONE_CODE,
    ActionKind.DISCARD_DEATH: DISCARD_DEATH_CODE,
    ActionKind.KEEP_DEATH: KEEP_DEATH_CODE,
    ActionKind.PAY: PAY_CODE,
    ActionKind.KEEP: KEEP_CODE,
    ActionKind.LEFT: LEFT_CODE,
    ActionKind.RIGHT: RIGHT_CODE,
    ActionKind.STOP: STOP_CODE,
}


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One action. Get it from ``ACTIONS`` or the helpers (``play(c)``, ``seat(s)`` …):
    actions are interned, so they compare by identity (fast legality checks) and order
    by code."""

    code: int
    """The stable integer encoding."""
    kind: ActionKind
    """The verb."""
    card: int = -1
    """The card named (EXCHANGE: the own Keeper), or -1."""
    seat: int = -1
    """GIVE_WAR / SEAT: the seat named, or -1."""
    other: int = -1
    """EXCHANGE: the other seat's Keeper, or -1."""

    def __lt__(self, other: Action) -> bool:
        return self.code < other.code

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.EXCHANGE:
            return f"EXCHANGE({NAMES[self.card]}, {NAMES[self.other]})"
        if self.card >= 0:
            return f"{kind.name}({NAMES[self.card]})"
        if self.seat >= 0:
            return f"{kind.name}({self.seat})"
        return kind.name

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON object: ``{"type": verb}`` plus ``card`` / ``seat`` /
        ``other`` where the verb takes them."""
        out: dict[str, Any] = {"type": self.kind.name.lower()}
        if self.kind is ActionKind.EXCHANGE:
            out["card"] = self.card
            out["other"] = self.other
        elif self.card >= 0:
            out["card"] = self.card
        elif self.seat >= 0:
            out["seat"] = self.seat
        return out


def _card_ok(kind: ActionKind, card: CardId) -> bool:
    """Which cards a card verb can ever name (legality is decided by the engine)."""
    if not 0 <= card < NUM_CARDS:
        return False
    if kind is ActionKind.PLAY or kind is ActionKind.GIVE:
        return card in DECK_CARDS and not IS_CREEPER[card]
    if kind is ActionKind.DISCARD:
        return card in DECK_CARDS
    if kind is ActionKind.TARGET:
        return IS_KEEPER[card] or IS_CREEPER[card] or TYPE_OF[card] is CardType.RULE
    if kind is ActionKind.TAKE:
        return card >= FIRST_RULE
    return card in GOALS  # DISCARD_GOAL


def _make_all() -> dict[int, Action]:
    table: dict[int, Action] = {}
    for kind, code in _SIMPLE.items():
        table[code] = Action(code, kind)
    for kind, base in _CARD_VERBS.items():
        for card in range(NUM_CARDS):
            if _card_ok(kind, card):
                table[base + card] = Action(base + card, kind, card=card)
    for kind, base in _SEAT_VERBS.items():
        for s in range(MAX_PLAYERS):
            table[base + s] = Action(base + s, kind, seat=s)
    for own in KEEPERS:
        for other in KEEPERS:
            if own != other:
                code = exchange_code(own, other)
                table[code] = Action(code, ActionKind.EXCHANGE, card=own, other=other)
    return dict(sorted(table.items()))


def exchange_code(own: CardId, other: CardId) -> int:
    """The code of EXCHANGE(own, other)."""
    return EXCHANGE_BASE + 19 * (own - 2) + (other - 2)


ACTIONS: Final[dict[int, Action]] = _make_all()
"""Every action of the game, by code."""

GET_ON_WITH_IT: Final = ACTIONS[GET_ON_WITH_IT_CODE]
DISCARD_LONE_DEATH: Final = ACTIONS[DISCARD_LONE_DEATH_CODE]
DONE: Final = ACTIONS[DONE_CODE]
DISCARD_DEATH: Final = ACTIONS[DISCARD_DEATH_CODE]
KEEP_DEATH: Final = ACTIONS[KEEP_DEATH_CODE]
PAY: Final = ACTIONS[PAY_CODE]
KEEP: Final = ACTIONS[KEEP_CODE]
LEFT: Final = ACTIONS[LEFT_CODE]
RIGHT: Final = ACTIONS[RIGHT_CODE]
STOP: Final = ACTIONS[STOP_CODE]


def _table(base: int) -> tuple[Action, ...]:
    """``_table(base)[c]``: the action of code base + c (a placeholder where none)."""
    return tuple(ACTIONS.get(base + c, STOP) for c in range(NUM_CARDS))


PLAY_OF: Final = _table(PLAY_BASE)
"""``PLAY_OF[c]``: PLAY(c)."""
DISCARD_OF: Final = _table(DISCARD_BASE)
"""``DISCARD_OF[c]``: DISCARD(c)."""
TARGET_OF: Final = _table(TARGET_BASE)
"""``TARGET_OF[c]``: TARGET(c)."""
TAKE_OF: Final = _table(TAKE_BASE)
"""``TAKE_OF[c]``: TAKE(c)."""
GIVE_OF: Final = _table(GIVE_BASE)
"""``GIVE_OF[c]``: GIVE(c)."""
DISCARD_GOAL_OF: Final = tuple(ACTIONS.get(DISCARD_GOAL_BASE + c, STOP) for c in range(NUM_CARDS))
"""``DISCARD_GOAL_OF[g]``: DISCARD_GOAL(g)."""
GIVE_WAR_OF: Final = tuple(ACTIONS[GIVE_WAR_BASE + s] for s in range(MAX_PLAYERS))
"""``GIVE_WAR_OF[s]``: GIVE_WAR(s)."""
SEAT_OF: Final = tuple(ACTIONS[SEAT_BASE + s] for s in range(MAX_PLAYERS))
"""``SEAT_OF[s]``: SEAT(s)."""


def from_code(code: int | object) -> Action:
    """The action with this code, or MalformedActionError."""
    action = ACTIONS.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
    if action is None:
        raise MalformedActionError(f"{code!r} is not the code of any Fluxx action")
    return action


def _int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedActionError(f"{name} must be an integer, not {value!r}")
    return value


def card_action(kind: ActionKind, card: int | object) -> Action:
    """The action of a card verb (PLAY, DISCARD, TARGET, TAKE, GIVE, DISCARD_GOAL)."""
    c = _int("card", card)
    base = _CARD_VERBS.get(kind)
    if base is None or not 0 <= c < NUM_CARDS or not _card_ok(kind, c):
        raise MalformedActionError(f"{kind.name} cannot name card {card!r}")
    return ACTIONS[base + c]


def seat_action(kind: ActionKind, seat: int | object) -> Action:
    """GIVE_WAR(s) or SEAT(s)."""
    s = _int("seat", seat)
    base = _SEAT_VERBS.get(kind)
    if base is None or not 0 <= s < MAX_PLAYERS:
        raise MalformedActionError(f"{kind.name} cannot name seat {seat!r}")
    return ACTIONS[base + s]


def exchange(own: int | object, other: int | object) -> Action:
    """EXCHANGE(own Keeper, other seat's Keeper)."""
    k = _int("card", own)
    o = _int("other", other)
    if not (k in KEEPERS and o in KEEPERS and k != o):
        raise MalformedActionError(f"EXCHANGE needs two different Keepers, not {own!r}, {other!r}")
    return ACTIONS[exchange_code(k, o)]


def play(card: int | object) -> Action:
    """PLAY(card)."""
    return card_action(ActionKind.PLAY, card)


def discard(card: int | object) -> Action:
    """DISCARD(card)."""
    return card_action(ActionKind.DISCARD, card)


def target(card: int | object) -> Action:
    """TARGET(card)."""
    return card_action(ActionKind.TARGET, card)


def take(card: int | object) -> Action:
    """TAKE(card)."""
    return card_action(ActionKind.TAKE, card)


def give(card: int | object) -> Action:
    """GIVE(card)."""
    return card_action(ActionKind.GIVE, card)


def discard_goal(card: int | object) -> Action:
    """DISCARD_GOAL(goal)."""
    return card_action(ActionKind.DISCARD_GOAL, card)


def give_war(seat: int | object) -> Action:
    """GIVE_WAR(seat)."""
    return seat_action(ActionKind.GIVE_WAR, seat)


def seat(s: int | object) -> Action:
    """SEAT(s)."""
    return seat_action(ActionKind.SEAT, s)


def action_from_json(data: Any) -> Action:
    """An action from its JSON object; MalformedActionError if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedActionError(f"an action must be a JSON object with a 'type': {data!r}")
    name = data["type"]
    try:
        kind = ActionKind[name.upper()]
    except KeyError:
        known = ", ".join(k.name.lower() for k in ActionKind)
        raise MalformedActionError(f"unknown action type {name!r}; known: {known}") from None
    if kind.name.lower() != name:
        raise MalformedActionError(f"action types are lower case: {name!r}")
    if kind is ActionKind.EXCHANGE:
        expected = {"type", "card", "other"}
    elif kind in _CARD_VERBS:
        expected = {"type", "card"}
    elif kind in _SEAT_VERBS:
        expected = {"type", "seat"}
    else:
        expected = {"type"}
    if set(data) != expected:
        raise MalformedActionError(
            f"action {name!r} has the fields {sorted(expected)}, got {sorted(data)}"
        )
    if kind is ActionKind.EXCHANGE:
        return exchange(data["card"], data["other"])
    if kind in _CARD_VERBS:
        return card_action(kind, data["card"])
    if kind in _SEAT_VERBS:
        return seat_action(kind, data["seat"])
    return ACTIONS[_SIMPLE[kind]]


def fallback(legal: list[Action] | tuple[Action, ...]) -> Action:
    """The action a faulted seat plays (§14): STOP or DONE if legal, otherwise the first
    action in canonical order."""
    for action in legal:
        if action is STOP or action is DONE:
            return action
    return legal[0]
