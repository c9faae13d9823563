"""Fluxx <-> protobuf (proto/arena/v1/fluxx.proto).

A request is built from the seat's observation and the event views ``events.view``
allows it (FLUXX.md §13): never from a state. These are the messages; the referee writes
a request's bytes directly (``wire_bytes``), byte for byte what ``SerializeToString``
gives for these messages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from arena.v1 import fluxx_pb2 as pb

from .actions import (
    ACTIONS,
    Action,
    ActionKind,
    DecisionKind,
    MalformedActionError,
    card_action,
    exchange,
    from_code,
    seat_action,
)
from .cards import NUM_CARDS
from .events import FIELDS
from .observation import Observation
from .options import GameConfig, RuleOptions, preset_of
from .state import Event, Result

_CARD_VERBS: Final = frozenset(
    {
        ActionKind.PLAY,
        ActionKind.DISCARD,
        ActionKind.TARGET,
        ActionKind.TAKE,
        ActionKind.GIVE,
        ActionKind.DISCARD_GOAL,
    }
)
_SEAT_VERBS: Final = frozenset({ActionKind.GIVE_WAR, ActionKind.SEAT})
_SIMPLE: Final = {a.kind: a for a in ACTIONS.values() if a.card < 0 and a.seat < 0}
_ACTION_TYPES: Final = {int(kind) for kind in ActionKind}
_KINDS: Final = {int(kind): kind for kind in DecisionKind}


class MalformedObservationError(ValueError):
    """A request's observation that no seat could have at one of its decisions; the
    message says why."""


# -- rules, actions, results ---------------------------------------------------------


def rules_to_proto(options: RuleOptions) -> pb.FluxxRules:
    """The rule options as a message."""
    return pb.FluxxRules(
        meta_rule=options.meta_rule,
        max_turns=options.max_turns,
        max_decisions=options.max_decisions,
        preset=preset_of(options),
    )


def rules_from_proto(msg: pb.FluxxRules) -> RuleOptions:
    """Rule options from a message (InvalidOptionsError, a ValueError, if not allowed)."""
    return RuleOptions(
        meta_rule=msg.meta_rule,  # type: ignore[arg-type]  # checked by RuleOptions
        max_turns=msg.max_turns,
        max_decisions=msg.max_decisions,
    )


def action_to_proto(action: Action) -> pb.FluxxAction:
    """An action as a message, its code included; only its verb's fields are set."""
    msg = pb.FluxxAction(type=int(action.kind), code=action.code)  # type: ignore[arg-type]
    if action.card >= 0:
        msg.card = action.card
    if action.seat >= 0:
        msg.seat = action.seat
    if action.other >= 0:
        msg.other = action.other
    return msg


def action_from_proto(msg: pb.FluxxAction) -> Action:
    """The action a message names; MalformedActionError if it names none.

    Type UNSPECIFIED names the action by ``code`` alone; otherwise the verb's fields
    are read, and a non-zero ``code`` must agree with them."""
    if msg.type == pb.FLUXX_ACTION_TYPE_UNSPECIFIED:
        if not msg.code:
            raise MalformedActionError("the action has neither a type nor a code")
        return from_code(msg.code)
    if msg.type not in _ACTION_TYPES:
        raise MalformedActionError(f"unknown action type {msg.type}")
    kind = ActionKind(msg.type)
    if kind is ActionKind.EXCHANGE:
        action = exchange(msg.card, msg.other)
    elif kind in _CARD_VERBS:
        action = card_action(kind, msg.card)
    elif kind in _SEAT_VERBS:
        action = seat_action(kind, msg.seat)
    else:
        action = _SIMPLE[kind]
    if msg.code and msg.code != action.code:
        raise MalformedActionError(
            f"the action's code {msg.code} disagrees with its fields ({action}, code {action.code})"
        )
    return action


def result_to_proto(result: Result) -> pb.FluxxResult:
    """A result as a message."""
    return pb.FluxxResult(
        winner=result.winner,
        end_reason=result.end_reason,
        ranks=result.ranks,
        turns=result.turns,
        decisions=result.decisions,
        scores=result.scores,
    )


def result_from_proto(msg: pb.FluxxResult) -> Result:
    """The inverse of ``result_to_proto``."""
    return Result(msg.winner, msg.end_reason, tuple(msg.ranks), msg.turns, msg.decisions)


# -- observations --------------------------------------------------------------------


def _lists(values: Iterable[tuple[int, ...]]) -> list[pb.FluxxCards]:
    return [pb.FluxxCards(cards=v) for v in values]


def observation_to_proto(obs: Observation) -> pb.FluxxObservation:
    """The observation as a message (its legal actions go in FluxxDecision)."""
    msg = pb.FluxxObservation(
        seat=obs.seat,
        players=obs.config.players,
        rules=rules_to_proto(obs.config.options),
        turn=obs.turn,
        active=obs.active,
        phase=obs.phase,
        extra=obs.extra,
        another=obs.another,
        decision=int(obs.decision) if obs.decision is not None else 0,  # type: ignore[arg-type]
        deciding=obs.deciding,
        hand=obs.hand,
        hand_sizes=obs.hand_sizes,
        tables=_lists(obs.tables),
        rules_in_play=obs.rules,
        goals=obs.goals,
        discard=obs.discard,
        draw_size=obs.draw_size,
        temp=_lists(obs.temp),
        temp_sizes=obs.temp_sizes,
        pool=obs.pool,
        pool_size=obs.pool_size,
        allot=_lists(obs.allot),
        allot_sizes=obs.allot_sizes,
        marks=obs.marks,
        mark_counts=obs.mark_counts,
        transit=obs.transit,
        box=obs.box,
        escalation=obs.escalation,
        drawn=obs.drawn,
        played=obs.played,
        draw_target=obs.draw_target,
        play_target=obs.play_target,
        hand_limit=obs.hand_limit,
        keeper_limit=obs.keeper_limit,
        window=obs.window,
        taxes_keep=obs.taxes_keep,
        decisions=obs.decisions,
        stack=[pb.FluxxFrame(values=f) for f in obs.stack],
    )
    if obs.result is not None:
        msg.result.CopyFrom(result_to_proto(obs.result))
    return msg


_CONFIGS: dict[tuple[int, bytes], GameConfig] = {}


def _config_of(msg: pb.FluxxObservation) -> GameConfig:
    """The configuration of an observation, built (and validated) once per distinct
    value: it is the same for every decision of a match."""
    key = (msg.players, msg.rules.SerializeToString())
    config = _CONFIGS.get(key)
    if config is None:
        config = GameConfig(players=msg.players, options=rules_from_proto(msg.rules))
        if len(_CONFIGS) < 1024:
            _CONFIGS[key] = config
    return config


def _tuples(values: Iterable[pb.FluxxCards]) -> tuple[tuple[int, ...], ...]:
    return tuple([tuple(v.cards) for v in values])


def observation_from_proto(
    msg: pb.FluxxObservation, legal: Iterable[pb.FluxxAction] = ()
) -> Observation:
    """An engine Observation from a message (InvalidOptionsError or
    MalformedActionError, both ValueErrors, for rules or actions that are none)."""
    number = msg.decision
    kind = _KINDS.get(number) if number else None
    if number and kind is None:
        raise MalformedObservationError(
            f"the observation's decision kind {number} is none of the game's (1..{len(_KINDS)})"
        )
    return Observation(
        seat=msg.seat,
        config=_config_of(msg),
        turn=msg.turn,
        active=msg.active,
        phase=msg.phase,
        extra=msg.extra,
        another=msg.another,
        decision=kind,
        deciding=msg.deciding,
        legal=tuple([action_from_proto(a) for a in legal]),
        hand=tuple(msg.hand),
        hand_sizes=tuple(msg.hand_sizes),
        tables=_tuples(msg.tables),
        rules=tuple(msg.rules_in_play),
        goals=tuple(msg.goals),
        discard=tuple(msg.discard),
        draw_size=msg.draw_size,
        temp=_tuples(msg.temp),
        temp_sizes=tuple(msg.temp_sizes),
        pool=tuple(msg.pool),
        pool_size=msg.pool_size,
        allot=_tuples(msg.allot),
        allot_sizes=tuple(msg.allot_sizes),
        marks=tuple(msg.marks),
        mark_counts=tuple(msg.mark_counts),
        transit=tuple(msg.transit),
        box=tuple(msg.box),
        escalation=msg.escalation,
        drawn=msg.drawn,
        played=msg.played,
        draw_target=msg.draw_target,
        play_target=msg.play_target,
        hand_limit=msg.hand_limit,
        keeper_limit=msg.keeper_limit,
        window=msg.window,
        taxes_keep=msg.taxes_keep,
        decisions=msg.decisions,
        stack=tuple([tuple(f.values) for f in msg.stack]),
        result=result_from_proto(msg.result) if msg.HasField("result") else None,
    )


def _decision_problem(obs: Observation) -> str | None:
    """What makes ``obs`` no seat's observation at one of its decisions, or None."""
    players = obs.config.players
    if obs.decision is None:
        return "names no decision kind"
    if not 0 <= obs.seat < players:
        return f"is of seat {obs.seat}, which is not at a table of {players}"
    if obs.deciding != obs.seat:
        return f"is of seat {obs.seat}, but seat {obs.deciding} is the one deciding"
    if not 0 <= obs.active < players:
        return f"names active seat {obs.active}, not at a table of {players}"
    for name, entries in (
        ("hand_sizes", obs.hand_sizes),
        ("tables", obs.tables),
        ("allot_sizes", obs.allot_sizes),
        ("mark_counts", obs.mark_counts),
    ):
        if len(entries) != players:
            return f"has {len(entries)} {name} entries for {players} seats"
    cards = [
        *obs.hand,
        *obs.rules,
        *obs.goals,
        *obs.discard,
        *obs.pool,
        *obs.marks,
        *obs.transit,
        *obs.box,
        *(c for zone in (*obs.tables, *obs.temp, *obs.allot) for c in zone),
    ]
    if any(not 0 <= c < NUM_CARDS for c in cards):
        return f"holds a card id outside 0..{NUM_CARDS - 1}"
    if not obs.legal:
        return "has no legal action"
    return None


def check_decision(obs: Observation) -> Observation:
    """``obs`` if it can be a seat's observation at one of its decisions (what a policy
    may rely on); else MalformedObservationError saying why."""
    problem = _decision_problem(obs)
    if problem is not None:
        raise MalformedObservationError(f"the observation {problem}")
    return obs


# -- events and requests -------------------------------------------------------------

_INT_FIELDS: Final = frozenset(
    {"seat", "card", "turn", "escalation", "from_seat", "to_seat", "recipient", "other", "winner"}
)
_TEXT_FIELDS: Final = frozenset({"into", "how", "reason", "direction"})


def event_to_proto(event: Event, hidden: bool) -> pb.FluxxEvent:
    """A raw event as a seat sees it: a private one it is not party to (``hidden``)
    loses its cards (``count`` says how many) or its card."""
    kind = event[0]
    assert isinstance(kind, str)
    msg = pb.FluxxEvent(type=kind, hidden=hidden)
    for name, value in zip(FIELDS[kind], event[1:], strict=True):
        if name == "cards":
            assert isinstance(value, tuple)
            if hidden:
                msg.count = len(value)
            else:
                msg.cards.extend(value)
        elif name == "card" and hidden:
            continue
        elif name == "count":
            assert isinstance(value, int)
            msg.count = value
        elif name == "extra":
            msg.extra = bool(value)
        elif name in _TEXT_FIELDS:
            setattr(msg, name, str(value))
        else:
            assert name in _INT_FIELDS
            assert isinstance(value, int)
            setattr(msg, name, value)
    return msg


def decision_from_proto(msg: pb.FluxxDecision) -> Observation:
    """The observation of a request's game part, checked (MalformedObservationError,
    MalformedActionError or InvalidOptionsError, all ValueErrors)."""
    return check_decision(observation_from_proto(msg.observation, msg.legal))


def event_views(msg: pb.FluxxDecision) -> list[dict[str, Any]]:
    """A request's events as the JSON views of ``events.view`` (for bots written in
    Python that read them)."""
    out = []
    for e in msg.events:
        view: dict[str, Any] = {"type": e.type}
        for name in FIELDS.get(e.type, ()):
            if name == "cards":
                if e.hidden:
                    view["count"] = e.count
                else:
                    view["cards"] = list(e.cards)
            elif name == "card" and e.hidden:
                continue
            else:
                view[name] = getattr(e, name)
        out.append(view)
    return out
