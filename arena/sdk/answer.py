"""One decision: a DecideRequest in, the policy's choice out as a BotMessage.

The request's ``game`` case names the game (its wire's ``oneof``); the game's wire reads
the observation and spells out an action the legal list does not hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games import DEFAULT_GAME, AnyGame, by_oneof
from arena.games import get as get_game
from arena.policies import Policy
from arena.v1 import bot_pb2


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


def not_an_action(policy: object, value: object, game: AnyGame) -> BadChoiceError:
    """The error of a ``choose`` that returned ``value``, which is no action of ``game``."""
    return BadChoiceError(
        f"{type(policy).__name__}.choose returned {_shown(value)}; it must return one of "
        f"obs.legal (an action of {game.title})"
    )


_GAMES: dict[str, AnyGame] = {}
"""Games by their requests' ``game`` case, as met."""


def game_of(request: bot_pb2.DecideRequest) -> AnyGame:
    """The game a request belongs to; BadRequestError if this arena knows none."""
    case = request.WhichOneof("game") or ""
    game = _GAMES.get(case)
    if game is None:
        found = by_oneof(case) if case else None
        if found is None:
            raise BadRequestError(
                f"request {request.request_id} is of a game this SDK does not know "
                f"(game {case or None!r})"
            )
        game = _GAMES[case] = found
    return game


def read_request(request: bot_pb2.DecideRequest) -> Any:
    """The game's Observation of a request; its ``legal`` is in the request's order."""
    game = game_of(request)
    try:
        obs = game.wire.observation_from_request(request)
    except ValueError as error:  # a malformed action, invalid options, enum values
        raise BadRequestError(f"request {request.request_id} is malformed: {error}") from error
    if not obs.legal:
        raise BadRequestError(f"request {request.request_id} has an empty legal list")
    return obs


def reply(
    request_id: int, legal: Sequence[Any], action: Any, game: AnyGame | None = None
) -> bot_pb2.BotMessage:
    """The answer naming ``action``: by its index in ``legal`` when it is there (the
    cheapest, unambiguous form), else spelled out in ``game``'s message, and the arena
    judges it (``game`` defaults to the default game). TypeError if ``game`` cannot
    spell it out (it is no action of the game)."""
    try:
        index = legal.index(action)
    except ValueError:
        game = game or get_game(DEFAULT_GAME)
        message = bot_pb2.BotMessage(request_id=request_id)
        try:
            game.wire.fill_reply(message, action)
        except Exception as error:  # whatever a wrong type makes the encoder raise
            raise TypeError(f"{type(action).__name__} is no action of {game.title}") from error
        return message
    return bot_pb2.BotMessage(request_id=request_id, legal_index=index)


def decide(policy: Policy, request: bot_pb2.DecideRequest) -> bot_pb2.BotMessage:
    """Ask ``policy`` about ``request`` and build the reply (blocking; run it in a thread).

    Raises BadRequestError for a request it cannot read and BadChoiceError if ``choose``
    returns no action of the game; whatever the policy raises propagates unchanged.
    """
    obs = read_request(request)
    action: object = policy.choose(obs)
    try:
        return reply(request.request_id, obs.legal, action, game_of(request))
    except TypeError:
        raise not_an_action(policy, action, game_of(request)) from None
