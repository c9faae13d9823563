"""OpenSpiel games <-> protobuf (proto/arena/v1/openspiel.proto): one message set for
every game of the family. A request is built from the seat's observation only (an
OpenSpiel game has no events of its own to send: the observer's strings carry what the
seat has seen)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.base import GameResult, GameWire
from arena.v1 import bot_pb2
from arena.v1 import openspiel_pb2 as pb

from .config import OpenSpielConfig
from .observation import Decision, Observation
from .result import OpenSpielResult


def observation_to_proto(obs: Observation) -> pb.OpenSpielObservation:
    """The seat's views (a view the game does not provide stays empty, its flag unset)."""
    msg = pb.OpenSpielObservation(seat=obs.seat)
    if obs.information_state is not None:
        msg.has_information_state = True
        msg.information_state = obs.information_state
    if obs.information_state_tensor is not None:
        msg.has_information_state_tensor = True
        msg.information_state_tensor.extend(obs.information_state_tensor)
    if obs.observation is not None:
        msg.has_observation = True
        msg.observation = obs.observation
    if obs.observation_tensor is not None:
        msg.has_observation_tensor = True
        msg.observation_tensor.extend(obs.observation_tensor)
    if obs.history is not None:
        msg.has_history = True
        msg.history.extend(obs.history)
    return msg


def decision_to_proto(obs: Observation) -> pb.OpenSpielDecision:
    """The decision message of a deciding seat's observation."""
    return pb.OpenSpielDecision(
        game=obs.game,
        observation=observation_to_proto(obs),
        legal=[
            pb.OpenSpielAction(id=a, name=n)
            for a, n in zip(obs.legal, obs.legal_names, strict=True)
        ],
    )


def decision_from_proto(msg: pb.OpenSpielDecision) -> Observation:
    """The observation in a decision message (ValueError if it has no legal action)."""
    view = msg.observation
    if not msg.legal:
        raise ValueError("the decision has no legal action")
    return Observation(
        game=msg.game,
        seat=view.seat,
        legal=tuple([a.id for a in msg.legal]),
        legal_names=tuple([a.name for a in msg.legal]),
        decision=Decision.ACT,
        information_state=view.information_state if view.has_information_state else None,
        information_state_tensor=(
            tuple(view.information_state_tensor) if view.has_information_state_tensor else None
        ),
        observation=view.observation if view.has_observation else None,
        observation_tensor=(
            tuple(view.observation_tensor) if view.has_observation_tensor else None
        ),
        history=tuple(view.history) if view.has_history else None,
    )


def fill_result(msg: pb.OpenSpielResult, result: OpenSpielResult) -> None:
    """Fill an empty result message in place (MatchOver's own: no copy to make)."""
    msg.returns.extend(result.returns)
    msg.ranks.extend(result.ranks)
    msg.scores.extend(result.scores)
    msg.end_reason = result.end_reason
    msg.decisions = result.decisions


class OpenSpielWire(GameWire[OpenSpielConfig, Observation, int]):
    """The ``openspiel`` field of every oneof of bot.proto, for every game of the family.
    The bot's side needs no OpenSpiel: everything is in the messages."""

    oneof = "openspiel"

    def __init__(self, spec: str) -> None:
        self._spec = spec

    def fill_start(self, start: bot_pb2.MatchStart, config: OpenSpielConfig) -> None:
        """The game string (an OpenSpiel match is one game: one deal)."""
        start.deals = 1
        start.openspiel.game = config.game_string

    def decide_request(
        self,
        request_id: int,
        deadline_ms: int,
        time_bank_ms: int,
        obs: Observation,
        events: Sequence[object],
    ) -> bytes:
        """The decision: the seat's views and legal actions (no events: see the module)."""
        message = bot_pb2.ArenaMessage()
        decide = message.decide
        decide.request_id = request_id
        decide.deadline_ms = deadline_ms
        decide.time_bank_ms = time_bank_ms
        decide.openspiel.CopyFrom(decision_to_proto(obs))
        return message.SerializeToString()

    def action_from_reply(self, reply: bot_pb2.BotMessage) -> int:
        """The action id (whether it is legal is the referee's check)."""
        if reply.WhichOneof("choice") != self.oneof:
            raise ValueError("the reply names no OpenSpiel action")
        return int(reply.openspiel.id)

    def fill_over(self, over: bot_pb2.MatchOver, result: GameResult) -> None:
        """Returns, ranks, scores."""
        assert isinstance(result, OpenSpielResult)
        fill_result(over.openspiel, result)

    def config_from_start(self, start: bot_pb2.MatchStart) -> OpenSpielConfig:
        """The table of a MatchStart."""
        if start.WhichOneof("rules") != self.oneof:
            raise ValueError("the MatchStart carries no OpenSpiel game")
        return OpenSpielConfig(self._spec, start.players, start.openspiel.game)

    def observation_from_request(self, request: bot_pb2.DecideRequest) -> Observation:
        """The observation of a request (ValueError if it is none)."""
        if request.WhichOneof("game") != self.oneof:
            raise ValueError("the request carries no OpenSpiel decision")
        return decision_from_proto(request.openspiel)

    def fill_reply(self, reply: bot_pb2.BotMessage, action: int) -> None:
        """The action id."""
        if not isinstance(action, int) or isinstance(action, bool):
            raise TypeError(f"an OpenSpiel action is an int id, not {type(action).__name__}")
        reply.openspiel.id = action

    def result_from_over(self, over: bot_pb2.MatchOver) -> OpenSpielResult:
        """The result in a MatchOver."""
        if over.WhichOneof("result") != self.oneof:
            raise ValueError("the MatchOver carries no OpenSpiel result")
        msg = over.openspiel
        return OpenSpielResult(
            tuple(msg.returns), tuple(msg.ranks), tuple(msg.scores), msg.end_reason, msg.decisions
        )
