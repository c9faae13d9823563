"""Fluxx as a plug-in of the arena: the Game interface over this package's engine, its
wire encoding (``proto/arena/v1/fluxx.proto``) and its policies. The registry imports
this module for ``fluxx``."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena.games.base import (
    Deal,
    Game,
    GameResult,
    GameWire,
    InvalidOptionsError,
    PolicyFactory,
    RatingDefaults,
)
from arena.policies.ismcts import SearchFactory
from arena.policies.random_policy import RandomPolicy
from arena.v1 import bot_pb2

from . import events as event_views
from .actions import NUM_ACTION_CODES, Action, DecisionKind, fallback, from_code
from .board import BOARD
from .cards import DECK_CARDS, NUM_CARDS
from .engine import apply, apply_unchecked, new_game, new_game_from_seed
from .greedy import GreedyPolicy, standings
from .observation import Observation, observe
from .options import DEFAULT_PRESET, PRESETS, GameConfig, make_config, preset_of
from .replay_text import end_words, replay_lines
from .resample import determinize, resample_hidden
from .serialize import GameRecord, record_of, replay, state_from_json, state_to_json
from .state import Result, State, check_invariants
from .wire import (
    action_from_proto,
    action_to_proto,
    decision_from_proto,
    result_from_proto,
    result_to_proto,
    rules_from_proto,
    rules_to_proto,
)
from .wire_bytes import decide_request_bytes

CAP_RATE: Final = {
    "pegasus-2011": 0.00014,
    "pegasus-2011-no-creepers": 0.0,
    "pegasus-2011-escalation": 0.0,
}
"""Per preset, the share of games that reach a cap under uniformly random play: 7 of
50,000 under ``pegasus-2011``, none of 50,000 under each other preset
(docs/BENCHMARKS.md, scripts/bench/stats_fluxx.py)."""
MIN_DRAW_PROBABILITY: Final = 0.01
"""TrueSkill's draw probability at two seats, where a won game has no tied pair: a
draw probability of 0 would make a capped game (a draw) raise both sigmas."""


class FluxxWire(GameWire[GameConfig, Observation, Action]):
    """``proto/arena/v1/fluxx.proto``: the ``fluxx`` field of every oneof."""

    oneof = "fluxx"

    def fill_start(self, start: bot_pb2.MatchStart, config: GameConfig) -> None:
        """The rule options (a Fluxx match is one game: one deal)."""
        start.deals = 1
        start.fluxx.CopyFrom(rules_to_proto(config.options))

    # The encoder itself: no wrapper frame on the referee's per-decision path.
    decide_request = staticmethod(decide_request_bytes)  # type: ignore[assignment]

    def action_from_reply(self, reply: bot_pb2.BotMessage) -> Action:
        """The spelled-out action (MalformedActionError, a ValueError)."""
        return action_from_proto(reply.fluxx)

    def fill_over(self, over: bot_pb2.MatchOver, result: GameResult) -> None:
        """The winner, end reason, ranks and counts."""
        assert isinstance(result, Result)
        over.fluxx.CopyFrom(result_to_proto(result))

    def config_from_start(self, start: bot_pb2.MatchStart) -> GameConfig:
        """Players and rules of a MatchStart (InvalidOptionsError, a ValueError)."""
        return GameConfig(players=start.players, options=rules_from_proto(start.fluxx))

    def observation_from_request(self, request: bot_pb2.DecideRequest) -> Observation:
        """The engine Observation of a request, checked to be one a deciding seat can
        have (a ValueError saying why if not)."""
        return decision_from_proto(request.fluxx)

    def fill_reply(self, reply: bot_pb2.BotMessage, action: Action) -> None:
        """The action spelled out."""
        reply.fluxx.CopyFrom(action_to_proto(action))

    def result_from_over(self, over: bot_pb2.MatchOver) -> Result:
        """The result in a MatchOver."""
        if over.WhichOneof("result") != self.oneof:
            raise ValueError("the MatchOver carries no Fluxx result")
        return result_from_proto(over.fluxx)


_KINDS: Final = tuple(DecisionKind)
_PHASES: Final = ("start", "play", "end", "between", "over")
_PLANES: Final = 10
"""Card planes of the tensor besides the tables (see ``observation_tensor``)."""
_SCALARS: Final = 19


def _policies() -> dict[str, PolicyFactory]:
    # ismcts in process: its iteration budget only (no time limit), so leagues replay.
    # Half Abluxxen's budget and playout: a Fluxx turn is several plays, each a greedy
    # decision that tries every card in a world (docs/BENCHMARKS.md, "Search bots: ISMCTS").
    search = SearchFactory("fluxx", (("iterations", 100), ("rollout_turns", 4)))
    return {"random": RandomPolicy, "greedy": GreedyPolicy, "ismcts": search}


class Fluxx(Game[GameConfig, State, Observation, Action]):
    """Fluxx 4.0, Pegasus 2011 (docs/FLUXX.md)."""

    name = "fluxx"
    title = "Fluxx"
    presets = tuple(PRESETS)
    default_preset = DEFAULT_PRESET
    table_sizes = (2, 3, 4, 5, 6)
    check_tables = (
        (4, "pegasus-2011"),
        (2, "pegasus-2011"),
        (3, "pegasus-2011-escalation"),
        (6, "pegasus-2011-no-creepers"),
        (5, "pegasus-2011"),
    )
    wire = FluxxWire()
    policies = _policies()
    has_deals = False
    vocabulary = ("keeper", "creeper", "jackpot", "potato", "inflation", "taxation")
    board = BOARD

    def make_config(
        self,
        players: int,
        preset: str | None = None,
        *,
        deals: int = 1,
        duplicate: bool = False,
        **options: Any,
    ) -> GameConfig:
        """``options.make_config``; a Fluxx match is one game (no deals)."""
        if deals != 1 or duplicate:
            raise InvalidOptionsError("a Fluxx match is one game: no deals, no duplicate")
        return make_config(players, preset or DEFAULT_PRESET, **options)

    def config_to_json(self, config: GameConfig) -> dict[str, Any]:
        """Players and rules."""
        return config.to_json()

    def config_from_json(self, data: dict[str, Any]) -> GameConfig:
        """The inverse of ``config_to_json``."""
        return GameConfig.from_json(data)

    def players_of(self, config: GameConfig) -> int:
        """Seats at the table."""
        return config.players

    def preset_of(self, config: GameConfig) -> str:
        """The preset whose options equal the configuration's."""
        return preset_of(config.options)

    def new_match(self, config: GameConfig, rng: random.Random) -> State:
        """Seeded from ``rng``."""
        return new_game(config, rng)

    def deal(self, config: GameConfig, rng: random.Random) -> Deal:
        """The match's seed (every shuffle derives from it)."""
        return ((rng.getrandbits(63),),)

    def new_match_from_deal(self, config: GameConfig, deal: Deal) -> State:
        """A match from its seed."""
        return new_game_from_seed(config, deal[0][0])

    def deciding(self, state: State) -> int | None:
        """None once over."""
        return None if state.kind is None else state.deciding

    observe = staticmethod(observe)
    """FLUXX.md §13."""

    def apply(self, state: State, action: object, seat: int | None = None) -> None:
        """Checked: MalformedActionError or IllegalActionError (both ValueErrors)."""
        apply(state, action, seat)

    apply_legal = staticmethod(apply_unchecked)
    """Without the legality check."""

    def events(self, state: State) -> Sequence[object]:
        """Raw events; ``events.is_private`` decides what a seat sees."""
        return state.events

    def result(self, state: State) -> Result | None:
        """The winner and ranks once over."""
        return state.result

    def standings(self, state: State) -> list[float]:
        """``greedy.standings``: progress towards the Goals in play."""
        return standings(state)

    def progress(self, state: State) -> tuple[int, int]:
        """One stage; turns started."""
        return (0, state.turn)

    def fallback(self, obs: Observation) -> Action:
        """§14: STOP or DONE if legal, else the first canonical action."""
        return fallback(obs.legal)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The whole state."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> State:
        """The inverse of ``state_to_json``."""
        return state_from_json(data)

    def record_json(self, state: State) -> dict[str, Any]:
        """Seed, answers, events and result."""
        return record_of(state).to_json()

    def replay_record(self, record: dict[str, Any]) -> State:
        """Checked against the record's events and result."""
        return replay(GameRecord.from_json(record))

    def replay_states(self, record: dict[str, Any]) -> Iterator[tuple[State, Action | None]]:
        """From the record's seed, each recorded answer applied with its check."""
        game_record = GameRecord.from_json(record)
        state = new_game_from_seed(game_record.config, game_record.seed)
        for seat, code in game_record.actions:
            action = from_code(code)
            yield state, action
            apply(state, action, seat)
        yield state, None

    def replay_text(
        self,
        record: dict[str, Any],
        decisions: Sequence[dict[str, Any]],
        names: Sequence[str],
        seat: int | None,
    ) -> Iterator[str]:
        """Events and decisions in words."""
        return replay_lines(record, decisions, names, seat)

    def end_words(self, reason: str) -> str:
        """Why the game ended ("a Goal is met")."""
        return end_words(reason)

    def rating_defaults(self, preset: str, players: int) -> RatingDefaults:
        """§12 ranks the winner 1st and every other seat 2nd, tied; a capped game ties
        every seat. So of the n−1 rank-adjacent pairs of a match, n−2 tie in a won game
        and all in a capped one: the share of tied neighbours is
        (n − 2 + cap rate) / (n − 1), with the cap rate measured (``CAP_RATE``), and at
        least ``MIN_DRAW_PROBABILITY`` (a two-seat ladder still rates a capped game as
        a draw)."""
        cap = CAP_RATE.get(preset, 0.0)
        draw = max(MIN_DRAW_PROBABILITY, (players - 2 + cap) / (players - 1))
        return RatingDefaults(
            draw,
            f"the losers all tie: {players - 2} of {players - 1} adjacent pairs in a won "
            f"game; capped games (measured rate {cap}) tie every seat",
        )

    def num_distinct_actions(self, config: GameConfig) -> int:
        """Action codes are below this."""
        return NUM_ACTION_CODES

    def action_code(self, action: Action) -> int:
        """The stable code."""
        return action.code

    def action_from_code(self, code: int) -> Action:
        """MalformedActionError for a code of no action."""
        return from_code(code)

    def observation_tensor_size(self, config: GameConfig) -> int:
        """See ``observation_tensor``."""
        n = config.players
        return len(_KINDS) + len(_PHASES) + (_PLANES + n) * NUM_CARDS + 2 * n + _SCALARS

    def observation_tensor(self, obs: Observation) -> list[float]:
        """Decision kind and phase (one-hot); card planes of 100 (own hand, own temp
        hands, own pool view, own picks, rules, goals, discard pile, transit, box, own
        legal cards, then every table); hand sizes and picks per seat; then the turn's
        numbers."""
        out = [1.0 if obs.decision is kind else 0.0 for kind in _KINDS]
        out += [1.0 if obs.phase == p else 0.0 for p in _PHASES]
        planes: list[Sequence[int]] = [
            obs.hand,
            [c for t in obs.temp for c in t],
            [*obs.pool, *(c for a in obs.allot for c in a)],
            obs.marks,
            obs.rules,
            obs.goals,
            obs.discard,
            obs.transit,
            obs.box,
            [a.card for a in obs.legal if a.card >= 0],
            *obs.tables,
        ]
        for cards in planes:
            plane = [0.0] * NUM_CARDS
            for c in cards:
                plane[c] = 1.0
            out += plane
        out += [float(x) for x in obs.hand_sizes] + [float(x) for x in obs.mark_counts]
        out += [
            float(obs.seat),
            float(obs.active),
            float(obs.deciding),
            float(obs.turn),
            float(obs.extra),
            float(obs.another),
            float(sum(obs.temp_sizes)),
            float(obs.pool_size + sum(obs.allot_sizes)),
            float(obs.draw_size),
            float(obs.escalation),
            float(obs.drawn),
            float(obs.played),
            float(obs.draw_target),
            float(obs.play_target),
            float(obs.hand_limit),
            float(obs.keeper_limit),
            float(obs.window),
            float(obs.taxes_keep),
            float(obs.decisions),
        ]
        return out

    def resample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """``resample.resample_hidden`` (other hands and picks, temp hands and pool
        unless ``seat`` is active, draw pile, seed), and the cards of other seats'
        private events replaced at random."""
        other = resample_hidden(state, seat, rng)
        deck = list(DECK_CARDS)
        events = []
        for event in other.events:
            if event_views.is_private(event, seat):
                values = list(event)
                for i, value in enumerate(values):
                    if i and isinstance(value, tuple):
                        values[i] = tuple(rng.choice(deck) for _ in value)
                if event[0] in ("allot", "mark"):
                    values[-2 if event[0] == "mark" else -1] = rng.choice(deck)
                event = tuple(values)
            events.append(event)
        other.events = events
        check_invariants(other)
        return other

    def determinize(self, obs: Observation, rng: random.Random) -> State:
        """``resample.determinize``."""
        return determinize(obs, rng)


GAME: Final = Fluxx()
"""The game the registry finds under ``fluxx``."""
