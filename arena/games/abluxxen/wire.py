"""Abluxxen <-> protobuf (proto/arena/v1/abluxxen.proto)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Final

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor

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


# Decoding. Reading a nested field of a upb message builds a Python wrapper object, and
# an observation has dozens of them (displays, sets, hands, pool slots), which made
# decoding cost ~30 µs. So the message is re-read through a "raw view": the same fields
# under the same numbers, but every nested message kept as its bytes (the wire encoding of
# a message and of a bytes field are the same), and each packed repeated number field as
# one bytes value (its packed encoding: proto3 packs them, and the bytes we parse always
# come from SerializeToString). Those bytes then key memos of their decoded values, which
# repeat endlessly: the same sets, the same small card lists, the same legal actions.


def _raw_view(
    message: Descriptor, name: str, keep: dict[str, str] | None = None
) -> descriptor_pb2.DescriptorProto:
    """``message``'s fields, nested messages as bytes; ``keep`` maps a field to the view
    message that reads it instead."""
    proto = descriptor_pb2.DescriptorProto()
    message.CopyToProto(proto)
    proto.name = name
    for field in proto.field:
        if keep and field.name in keep:
            field.type_name = f".arena.wire.raw.{keep[field.name]}"
        elif field.type == field.TYPE_MESSAGE:
            field.type = field.TYPE_BYTES
            field.ClearField("type_name")
        elif field.type == field.TYPE_ENUM:  # an open proto3 enum is an int32 on the wire
            field.type = field.TYPE_INT32
            field.ClearField("type_name")
        packable = field.type not in (field.TYPE_BYTES, field.TYPE_STRING)
        if field.label == field.LABEL_REPEATED and packable:
            field.type = field.TYPE_BYTES  # the packed encoding, as one value
            field.label = field.LABEL_OPTIONAL
    return proto


def _raw_views() -> dict[str, Any]:
    file = descriptor_pb2.FileDescriptorProto(
        name="arena/wire/raw.proto", package="arena.wire.raw", syntax="proto3"
    )
    file.message_type.extend(
        [
            _raw_view(pb.AbluxxenObservation.DESCRIPTOR, "Observation"),
            _raw_view(pb.AbluxxenDecision.DESCRIPTOR, "Decision", {"observation": "Observation"}),
            _raw_view(pb.AbluxxenDisplay.DESCRIPTOR, "Display"),
            _raw_view(pb.AbluxxenCards.DESCRIPTOR, "Cards"),
        ]
    )
    pool = descriptor_pool.DescriptorPool()  # a private pool: no clash with arena.v1
    pool.Add(file)
    return {
        m.name: message_factory.GetMessageClass(
            pool.FindMessageTypeByName(f"{file.package}.{m.name}")
        )
        for m in file.message_type
    }


_RAW: Final = _raw_views()
_RawObservation: Final = _RAW["Observation"]
_RawDecision: Final = _RAW["Decision"]
_RawDisplay: Final = _RAW["Display"]
_RawCards: Final = _RAW["Cards"]
_MEMO_SIZE: Final = 1 << 14


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _numbers(packed: bytes) -> tuple[int, ...]:
    """A packed repeated int32 field's values (wrapped as AbluxxenCards.values to parse)."""
    return tuple(pb.AbluxxenCards.FromString(_RawCards(values=packed).SerializeToString()).values)


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _cards(raw: bytes) -> tuple[int, ...]:
    """An AbluxxenCards message's values."""
    return tuple(pb.AbluxxenCards.FromString(raw).values)


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _card_lists(raws: tuple[bytes, ...]) -> tuple[tuple[int, ...], ...]:
    """``known`` or ``pool``: one AbluxxenCards per entry."""
    return tuple([_cards(raw) for raw in raws])


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _set_view(raw: bytes) -> SetView:
    """An AbluxxenSet message as (value, naturals, jokers)."""
    msg = pb.AbluxxenSet.FromString(raw)
    return (msg.value, msg.naturals, msg.jokers)


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _displays(raws: tuple[bytes, ...]) -> tuple[tuple[SetView, ...], ...]:
    """Every display, from its AbluxxenDisplay message."""
    return tuple([tuple([_set_view(s) for s in _RawDisplay.FromString(raw).sets]) for raw in raws])


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _deal_result(raw: bytes) -> ab.DealResult:
    """An AbluxxenDealResult message as the engine's DealResult (immutable, so shareable)."""
    d = pb.AbluxxenDealResult.FromString(raw)
    return ab.DealResult(d.reason, tuple(d.scores), tuple(d.hand_cards), tuple(d.ranks), d.turns)


_CONFIGS: dict[tuple[object, ...], ab.GameConfig] = {}


def _config_of(view: Any) -> ab.GameConfig:
    """The GameConfig of a raw observation, built (and validated) once per distinct value:
    it is the same for every decision of a match."""
    key = (view.players, view.deals, view.duplicate, view.rules)
    config = _CONFIGS.get(key)
    if config is None:
        config = ab.GameConfig(
            players=view.players,
            options=rules_from_proto(pb.AbluxxenRules.FromString(view.rules)),
            deals=view.deals,
            duplicate=view.duplicate,
        )
        if len(_CONFIGS) < 1024:
            _CONFIGS[key] = config
    return config


_LEGAL_BY_BYTES: dict[bytes, ab.Action] = {}


def _legal_action(raw: bytes) -> ab.Action:
    """A legal-list entry, memoized by its exact bytes (there are only a few hundred
    distinct actions); a new one is checked in full by ``action_from_proto``."""
    action = _LEGAL_BY_BYTES.get(raw)
    if action is None:
        action = action_from_proto(pb.AbluxxenAction.FromString(raw))
        if len(_LEGAL_BY_BYTES) < 4096:
            _LEGAL_BY_BYTES[raw] = action
    return action


def observation_from_proto(
    msg: pb.AbluxxenObservation, legal: Iterable[pb.AbluxxenAction] = ()
) -> ab.Observation:
    """An engine Observation from a message (for Python bots and search)."""
    return _observation(
        _RawObservation.FromString(msg.SerializeToString()),
        [a.SerializeToString() for a in legal],
    )


def decision_from_proto(msg: pb.AbluxxenDecision) -> ab.Observation:
    """``observation_from_proto(msg.observation, msg.legal)``, but quicker (one parse of
    the whole decision, legal actions included)."""
    view = _RawDecision.FromString(msg.SerializeToString())
    return _observation(view.observation, view.legal)


def _observation(view: Any, legal: Iterable[bytes]) -> ab.Observation:
    return ab.Observation(
        seat=view.seat,
        config=_config_of(view),
        deal=view.deal,
        start_seat=view.start_seat,
        turn=view.turn,
        active=view.active,
        decision=_decision_kind(view.decision) if view.decision else None,
        deciding=view.deciding,
        legal=tuple([_legal_action(a) for a in legal]),
        hand=_numbers(view.hand),
        hand_sizes=_numbers(view.hand_sizes),
        known=_card_lists(tuple(view.known)),
        displays=_displays(tuple(view.displays)),
        pool=_card_lists(tuple(view.pool)),
        shadow=_numbers(view.shadow),
        discard=_numbers(view.discard),
        deck_size=view.deck_size,
        played=_set_view(view.played) if view.HasField("played") else None,
        victim=view.victim,
        checks=_numbers(view.checks),
        drawer=view.drawer,
        draws_left=view.draws_left,
        abluxxed=view.abluxxed,
        past_deals=tuple([_deal_result(d) for d in view.past_deals]),
    )


class MalformedObservationError(ValueError):
    """A request's observation that no seat could have at a decision: an unknown decision
    kind, a seat that is not at the table or does not decide, lists that are not one per
    seat, card values outside 1..14. The message says which."""


_KINDS: Final = {int(kind): kind for kind in ab.DecisionKind}


def _decision_kind(number: int) -> ab.DecisionKind:
    kind = _KINDS.get(number)
    if kind is None:
        raise MalformedObservationError(
            f"decision kind {number} is none of the game's (1..{len(_KINDS)})"
        )
    return kind


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _values_ok(values: tuple[int, ...]) -> bool:
    """Card values: 1..13, or 14 for a joker."""
    return all(1 <= v <= ab.JOKER for v in values)


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _displays_ok(displays: tuple[tuple[SetView, ...], ...]) -> bool:
    """Every set a value 1..14 with 0..8 number cards and 0..5 jokers."""
    return all(_set_ok(s) for display in displays for s in display)


def _set_ok(view: SetView) -> bool:
    value, naturals, jokers = view
    return 1 <= value <= ab.JOKER and 0 <= naturals <= 8 and 0 <= jokers <= 5


def _decision_problem(obs: ab.Observation) -> str | None:
    """What makes ``obs`` no seat's observation at one of its decisions, or None."""
    players = obs.config.players
    seats = range(players)
    if obs.decision is None:
        return "names no decision kind"
    if obs.seat not in seats:
        return f"is of seat {obs.seat}, which is not at a table of {players}"
    if obs.deciding != obs.seat:
        return f"is of seat {obs.seat}, but seat {obs.deciding} is the one deciding"
    for name, entries in (
        ("hand_sizes", obs.hand_sizes),
        ("known", obs.known),
        ("displays", obs.displays),
    ):
        if len(entries) != players:
            return f"has {len(entries)} {name} entries for {players} seats"
    for past in obs.past_deals:
        if not len(past.scores) == len(past.hand_cards) == len(past.ranks) == players:
            return f"has a past deal without a score, hand count and rank for each of {players}"
    if not (
        _values_ok(obs.hand)
        and _values_ok(obs.discard)
        and all(_values_ok(k) for k in obs.known)
        and all(_values_ok(slot) for slot in obs.pool)
        and _displays_ok(obs.displays)
        and (obs.played is None or _set_ok(obs.played))
    ):
        return "holds a card value outside 1..14, or a set that is no set"
    if len(obs.shadow) not in (0, ab.JOKER - 2):
        return f"has {len(obs.shadow)} shadow stacks (12 in the duel, else none)"
    if any(s not in seats for s in (obs.active, obs.start_seat, *obs.checks)) or any(
        s != -1 and s not in seats for s in (obs.victim, obs.drawer)
    ):
        return f"names a seat that is not at a table of {players}"
    return None


def check_decision(obs: ab.Observation) -> ab.Observation:
    """``obs`` if it can be a seat's observation at one of its decisions (the SDK's
    check of a DecideRequest: what a policy may rely on); else MalformedObservationError."""
    problem = _decision_problem(obs)
    if problem is not None:
        raise MalformedObservationError(f"the observation {problem}")
    return obs


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


def result_from_proto(msg: pb.AbluxxenResult) -> ab.MatchResult:
    """A match result from its message (the inverse of ``result_to_proto``)."""
    return ab.MatchResult(
        scores=tuple(msg.scores),
        hand_cards=tuple(msg.hand_cards),
        ranks=tuple(msg.ranks),
        deals=tuple(
            ab.DealResult(
                reason=d.reason,
                scores=tuple(d.scores),
                hand_cards=tuple(d.hand_cards),
                ranks=tuple(d.ranks),
                turns=d.turns,
            )
            for d in msg.deals
        ),
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
