"""One decision: a DecideRequest in, the policy's choice out as a BotMessage."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games import abluxxen as ab
from arena.policies import Policy
from arena.v1 import bot_pb2
from arena.wire.abluxxen import action_to_proto, decision_from_proto


class BadRequestError(ValueError):
    """The arena sent a request this bot cannot read (unknown game, broken fields)."""


class BadChoiceError(TypeError):
    """The policy's ``choose`` returned something other than an engine Action (None, an
    index, an action code …); the message says what it returned and what is expected."""


SHOWN_CHARS = 80
"""How much of a wrong return value's repr a BadChoiceError shows."""


def _shown(value: object) -> str:
    """``value``'s repr, shortened, and its type's name: ``None (NoneType)``."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the actual mistake
        text = object.__repr__(value)
    if len(text) > SHOWN_CHARS:
        text = text[: SHOWN_CHARS - 3] + "..."
    return f"{text} ({type(value).__name__})"


def not_an_action(policy: object, value: object) -> BadChoiceError:
    """The error of a ``choose`` that returned ``value``, which is no engine Action."""
    return BadChoiceError(
        f"{type(policy).__name__}.choose returned {_shown(value)}; it must return one of "
        "obs.legal (an arena.games.abluxxen Action)"
    )


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

    Raises BadRequestError for a request it cannot read and BadChoiceError if ``choose``
    returns no engine Action; whatever the policy raises propagates unchanged.
    """
    obs = read_request(request)
    action: object = policy.choose(obs)
    if not isinstance(action, ab.Action):  # the one check on the hot path
        raise not_an_action(policy, action)
    return reply(request.request_id, obs.legal, action)
