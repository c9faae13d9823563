"""Abluxxen <-> protobuf (proto/arena/v1/abluxxen.proto)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from arena.games import abluxxen as ab
from arena.games.abluxxen.observation import SetView
from arena.v1 import abluxxen_pb2 as pb

_TYPE_OF_KIND: Final = {
    ab.ActionKind.PLAY: pb.ABLUXXEN_ACTION_TYPE_PLAY,
    ab.ActionKind.TAKE: pb.ABLUXXEN_ACTION_TYPE_TAKE,
    ab.ActionKind.LEAVE: pb.ABLUXXEN_ACTION_TYPE_LEAVE,
    ab.ActionKind.TAKE_BACK: pb.ABLUXXEN_ACTION_TYPE_TAKE_BACK,
    ab.ActionKind.DISCARD: pb.ABLUXXEN_ACTION_TYPE_DISCARD,
    ab.ActionKind.POOL: pb.ABLUXXEN_ACTION_TYPE_POOL,
    ab.ActionKind.DECK: pb.ABLUXXEN_ACTION_TYPE_DECK,
    ab.ActionKind.PASS: pb.ABLUXXEN_ACTION_TYPE_PASS,
    ab.ActionKind.SHADOW_PICK: pb.ABLUXXEN_ACTION_TYPE_SHADOW_PICK,
}
_KIND_OF_TYPE: Final = {v: k for k, v in _TYPE_OF_KIND.items()}
_SIMPLE: Final = {
    ab.ActionKind.TAKE: ab.TAKE,
    ab.ActionKind.LEAVE: ab.LEAVE,
    ab.ActionKind.TAKE_BACK: ab.TAKE_BACK,
    ab.ActionKind.DISCARD: ab.DISCARD,
    ab.ActionKind.DECK: ab.DECK,
    ab.ActionKind.PASS: ab.PASS,
}
_ACTION_PROTOS: dict[int, pb.AbluxxenAction] = {}  # code -> message, built once


def preset_name(options: ab.RuleOptions) -> str:
    """The preset these options equal, or ""."""
    return next((name for name, o in ab.PRESETS.items() if o == options), "")


def rules_to_proto(options: ab.RuleOptions) -> pb.AbluxxenRules:
    """The rule options as a message."""
    return pb.AbluxxenRules(
        optional_draw=options.optional_draw,
        expert_ones=options.expert_ones,
        tiebreak=options.tiebreak,
        two_player=options.two_player,
        shadow_take=options.shadow_take,
        max_turns=options.max_turns,
        preset=preset_name(options),
    )


def rules_from_proto(msg: pb.AbluxxenRules) -> ab.RuleOptions:
    """Rule options from a message (raises InvalidOptionsError)."""
    return ab.RuleOptions(
        optional_draw=msg.optional_draw,
        expert_ones=msg.expert_ones,
        tiebreak=msg.tiebreak,  # type: ignore[arg-type]  # validated by RuleOptions
        two_player=msg.two_player,  # type: ignore[arg-type]
        shadow_take=msg.shadow_take,  # type: ignore[arg-type]
        max_turns=msg.max_turns,
    )


def action_to_proto(action: ab.Action) -> pb.AbluxxenAction:
    """An action as a message (its code included)."""
    cached = _ACTION_PROTOS.get(action.code)
    if cached is None:
        cached = pb.AbluxxenAction(
            type=_TYPE_OF_KIND[action.kind],
            value=action.value,
            naturals=action.naturals,
            jokers=action.jokers,
            slot=action.slot,
            code=action.code,
        )
        _ACTION_PROTOS[action.code] = cached
    return cached


def action_from_proto(msg: pb.AbluxxenAction) -> ab.Action:
    """The action a message names; MalformedActionError if it names none.

    A message with type UNSPECIFIED names the action by ``code``; otherwise the type's
    fields are used, and a non-zero ``code`` must agree with them.
    """
    if msg.type == pb.ABLUXXEN_ACTION_TYPE_UNSPECIFIED:
        if not msg.code:
            raise ab.MalformedActionError("the action has neither a type nor a code")
        return ab.from_code(msg.code)
    kind = _KIND_OF_TYPE.get(msg.type)
    if kind is None:
        raise ab.MalformedActionError(f"unknown action type {msg.type}")
    if kind is ab.ActionKind.PLAY:
        action = ab.play(msg.value, msg.naturals, msg.jokers)
    elif kind is ab.ActionKind.POOL:
        action = ab.pool(msg.slot)
    elif kind is ab.ActionKind.SHADOW_PICK:
        action = ab.shadow_pick(msg.value)
    else:
        action = _SIMPLE[kind]
    if msg.code and msg.code != action.code:
        raise ab.MalformedActionError(
            f"the action's code {msg.code} disagrees with its fields ({action}, code {action.code})"
        )
    return action


def _set(view: SetView) -> pb.AbluxxenSet:
    value, naturals, jokers = view
    return pb.AbluxxenSet(value=value, naturals=naturals, jokers=jokers)


def observation_to_proto(obs: ab.Observation) -> pb.AbluxxenObservation:
    """The observation as a message (its legal actions go in AbluxxenDecision)."""
    config = obs.config
    msg = pb.AbluxxenObservation(
        seat=obs.seat,
        players=config.players,
        rules=rules_to_proto(config.options),
        deals=config.deals,
        duplicate=config.duplicate,
        deal=obs.deal,
        start_seat=obs.start_seat,
        turn=obs.turn,
        active=obs.active,
        decision=int(obs.decision) if obs.decision is not None else 0,  # type: ignore[arg-type]
        deciding=obs.deciding,
        hand=obs.hand,
        hand_sizes=obs.hand_sizes,
        known=[pb.AbluxxenCards(values=k) for k in obs.known],
        displays=[pb.AbluxxenDisplay(sets=[_set(s) for s in d]) for d in obs.displays],
        pool=[pb.AbluxxenCards(values=slot) for slot in obs.pool],
        shadow=obs.shadow,
        discard=obs.discard,
        deck_size=obs.deck_size,
        victim=obs.victim,
        checks=obs.checks,
        drawer=obs.drawer,
        draws_left=obs.draws_left,
        abluxxed=obs.abluxxed,
        past_deals=[deal_result_to_proto(d) for d in obs.past_deals],
        scores=obs.scores,
    )
    if obs.played is not None:
        msg.played.CopyFrom(_set(obs.played))
    return msg


_CONFIGS: dict[tuple[object, ...], ab.GameConfig] = {}


def _config_of(msg: pb.AbluxxenObservation) -> ab.GameConfig:
    """The GameConfig of an observation, built (and validated) once per distinct value:
    it is the same for every decision of a match."""
    rules = msg.rules
    key = (
        msg.players,
        msg.deals,
        msg.duplicate,
        rules.optional_draw,
        rules.expert_ones,
        rules.tiebreak,
        rules.two_player,
        rules.shadow_take,
        rules.max_turns,
    )
    config = _CONFIGS.get(key)
    if config is None:
        config = ab.GameConfig(
            players=msg.players,
            options=rules_from_proto(rules),
            deals=msg.deals,
            duplicate=msg.duplicate,
        )
        if len(_CONFIGS) < 1024:
            _CONFIGS[key] = config
    return config


_LEGAL_BY_BYTES: dict[bytes, ab.Action] = {}


def _legal_action(msg: pb.AbluxxenAction) -> ab.Action:
    """A legal-list entry, memoized by its exact bytes (there are only a few hundred
    distinct actions); a new one is checked in full by ``action_from_proto``."""
    raw = msg.SerializeToString()
    action = _LEGAL_BY_BYTES.get(raw)
    if action is None:
        action = action_from_proto(msg)
        if len(_LEGAL_BY_BYTES) < 4096:
            _LEGAL_BY_BYTES[raw] = action
    return action


def observation_from_proto(
    msg: pb.AbluxxenObservation, legal: Iterable[pb.AbluxxenAction] = ()
) -> ab.Observation:
    """An engine Observation from a message (for Python bots and search)."""
    played = msg.played if msg.HasField("played") else None
    return ab.Observation(
        seat=msg.seat,
        config=_config_of(msg),
        deal=msg.deal,
        start_seat=msg.start_seat,
        turn=msg.turn,
        active=msg.active,
        decision=ab.DecisionKind(msg.decision) if msg.decision else None,
        deciding=msg.deciding,
        legal=tuple([_legal_action(a) for a in legal]),
        hand=tuple(msg.hand),
        hand_sizes=tuple(msg.hand_sizes),
        known=tuple([tuple(k.values) for k in msg.known]),
        displays=tuple(
            [tuple([(s.value, s.naturals, s.jokers) for s in d.sets]) for d in msg.displays]
        ),
        pool=tuple([tuple(slot.values) for slot in msg.pool]),
        shadow=tuple(msg.shadow),
        discard=tuple(msg.discard),
        deck_size=msg.deck_size,
        played=(played.value, played.naturals, played.jokers) if played is not None else None,
        victim=msg.victim,
        checks=tuple(msg.checks),
        drawer=msg.drawer,
        draws_left=msg.draws_left,
        abluxxed=msg.abluxxed,
        past_deals=tuple(
            [
                ab.DealResult(
                    d.reason, tuple(d.scores), tuple(d.hand_cards), tuple(d.ranks), d.turns
                )
                for d in msg.past_deals
            ]
        ),
    )


def deal_result_to_proto(result: ab.DealResult) -> pb.AbluxxenDealResult:
    """A deal's result as a message."""
    return pb.AbluxxenDealResult(
        reason=result.reason,
        scores=result.scores,
        hand_cards=result.hand_cards,
        ranks=result.ranks,
        turns=result.turns,
    )


def result_to_proto(result: ab.MatchResult) -> pb.AbluxxenResult:
    """A match result as a message."""
    return pb.AbluxxenResult(
        scores=result.scores,
        hand_cards=result.hand_cards,
        ranks=result.ranks,
        end_reason=result.end_reason,
        deals=[deal_result_to_proto(d) for d in result.deals],
    )


def event_to_proto(view: dict[str, Any]) -> pb.AbluxxenEvent:
    """One per-seat event view (``events.view``) as a message."""
    msg = pb.AbluxxenEvent(type=view["type"])
    for name in ("seat", "victim", "value", "slot", "deal", "card", "count", "reason"):
        if name in view:
            setattr(msg, name, view[name])
    if "count" in view:
        msg.hidden = True
    for name in ("cards", "scores", "hand_cards"):
        if name in view:
            getattr(msg, name).extend(view[name])
    return msg


def decision_to_proto(obs: ab.Observation, events: Iterable[dict[str, Any]]) -> pb.AbluxxenDecision:
    """A decision request's game part: observation, legal actions, events since."""
    return pb.AbluxxenDecision(
        observation=observation_to_proto(obs),
        legal=[action_to_proto(a) for a in obs.legal],
        events=[event_to_proto(e) for e in events],
    )
