"""One decision: a DecideRequest in, the policy's choice out as a BotMessage."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games import abluxxen as ab
from arena.policies import Policy
from arena.v1 import bot_pb2
from arena.wire.abluxxen import action_to_proto, decision_from_proto


class BadRequestError(ValueError):
    """The arena sent a request this bot cannot read (unknown game, broken fields)."""


def read_request(request: bot_pb2.DecideRequest) -> ab.Observation:
    """The engine Observation of a request; its ``legal`` is in the request's order."""
    if request.WhichOneof("game") != "abluxxen":
        raise BadRequestError(
            f"request {request.request_id} is not an Abluxxen decision "
            f"(game {request.WhichOneof('game')!r}); this bot plays abluxxen only"
        )
    try:
        obs = decision_from_proto(request.abluxxen)
    except ValueError as error:  # MalformedActionError, InvalidOptionsError, enum values
        raise BadRequestError(f"request {request.request_id} is malformed: {error}") from error
    if not obs.legal:
        raise BadRequestError(f"request {request.request_id} has an empty legal list")
    return obs


def reply(request_id: int, legal: Sequence[ab.Action], action: ab.Action) -> bot_pb2.BotMessage:
    """The answer naming ``action``: by its index in ``legal`` when it is there (the
    cheapest, unambiguous form), else spelled out, and the arena judges it."""
    try:
        index = legal.index(action)
    except ValueError:
        return bot_pb2.BotMessage(request_id=request_id, abluxxen=action_to_proto(action))
    return bot_pb2.BotMessage(request_id=request_id, legal_index=index)


def decide(policy: Policy, request: bot_pb2.DecideRequest) -> bot_pb2.BotMessage:
    """Ask ``policy`` about ``request`` and build the reply (blocking; run it in a thread).

    Raises BadRequestError for a request it cannot read; whatever the policy raises
    propagates unchanged.
    """
    obs = read_request(request)
    return reply(request.request_id, obs.legal, policy.choose(obs))
