"""Abluxxen as a plug-in of the arena: the Game interface over this package's engine,
its wire encoding and its policies. The registry imports this module for ``abluxxen``."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena.games.base import (
    Deal,
    Game,
    GameResult,
    GameWire,
    PolicyFactory,
    RatingDefaults,
)
from arena.policies.ismcts import SearchFactory
from arena.policies.random_policy import RandomPolicy
from arena.v1 import bot_pb2

from . import events as event_views
from .actions import ACTIONS, Action, DecisionKind, from_code
from .board import BOARD
from .cards import JOKER, NUM_CARDS, VALUE_OF
from .engine import apply, apply_unchecked, new_game, new_game_from_decks, shuffle_decks
from .greedy import GreedyPolicy
from .observation import Observation, observe
from .options import DEFAULT_PRESET, PRESETS, GameConfig, make_config
from .replay_text import deal_end_words, replay_lines
from .resample import determinize
from .serialize import GameRecord, record_of, replay, state_from_json, state_to_json
from .state import MatchResult, State, check_invariants
from .wire import (
    action_from_proto,
    action_to_proto,
    check_decision,
    decision_from_proto,
    result_from_proto,
    result_to_proto,
    rules_from_proto,
    rules_to_proto,
)
from .wire_bytes import decide_request_bytes

TIE_DRAW_PROBABILITY: Final = 0.01
"""Under the amigo tie-break about 1% of rank-adjacent pairs tie (shared/DESIGN.md;
0.8-3.4% under random play, docs/BENCHMARKS.md)."""
SHARED_TIE_DRAW_PROBABILITY: Final = 0.06
"""Under ``tiebreak = shared`` (ravensburger-2014) ties are several times commoner
(4-10% of adjacent pairs under random play)."""


class AbluxxenWire(GameWire[GameConfig, Observation, Action]):
    """``proto/arena/v1/abluxxen.proto``: the ``abluxxen`` field of every oneof."""

    oneof = "abluxxen"

    def fill_start(self, start: bot_pb2.MatchStart, config: GameConfig) -> None:
        """Deals and the rule options."""
        start.deals = config.deals
        start.abluxxen.CopyFrom(rules_to_proto(config.options))

    # The fast encoder itself (``wire_bytes``, compiled; its events are this game's own,
    # from ``Game.events``): no wrapper frame on the
    # referee's per-decision path.
    decide_request = staticmethod(decide_request_bytes)  # type: ignore[assignment]

    def action_from_reply(self, reply: bot_pb2.BotMessage) -> Action:
        """The spelled-out action (MalformedActionError, a ValueError)."""
        return action_from_proto(reply.abluxxen)

    def fill_over(self, over: bot_pb2.MatchOver, result: GameResult) -> None:
        """Scores, hand cards, ranks and every deal's result."""
        assert isinstance(result, MatchResult)
        over.abluxxen.CopyFrom(result_to_proto(result))

    def config_from_start(self, start: bot_pb2.MatchStart) -> GameConfig:
        """Players, deals and rules of a MatchStart."""
        return GameConfig(
            players=start.players,
            options=rules_from_proto(start.abluxxen),
            deals=max(1, start.deals),
        )

    def observation_from_request(self, request: bot_pb2.DecideRequest) -> Observation:
        """The engine Observation of a request, checked to be one a deciding seat can
        have (MalformedObservationError, a ValueError, if not)."""
        return check_decision(decision_from_proto(request.abluxxen))

    def fill_reply(self, reply: bot_pb2.BotMessage, action: Action) -> None:
        """The action spelled out."""
        reply.abluxxen.CopyFrom(action_to_proto(action))

    def result_from_over(self, over: bot_pb2.MatchOver) -> MatchResult:
        """Scores, hand cards, ranks and every deal's result."""
        if over.WhichOneof("result") != self.oneof:
            raise ValueError("the MatchOver carries no Abluxxen result")
        return result_from_proto(over.abluxxen)


def _policies() -> dict[str, PolicyFactory]:
    # ismcts in process: its iteration budget only (no time limit), so leagues replay.
    return {"random": RandomPolicy, "greedy": GreedyPolicy, "ismcts": SearchFactory("abluxxen")}


_KINDS: Final = tuple(DecisionKind)
_VALUES: Final = JOKER  # values 1..14 (14 = joker)


class Abluxxen(Game[GameConfig, State, Observation, Action]):
    """The card game Abluxxen (docs/RULES.md)."""

    name = "abluxxen"
    title = "Abluxxen"
    presets = tuple(PRESETS)
    default_preset = DEFAULT_PRESET
    table_sizes = (2, 3, 4, 5)
    check_tables = (
        (4, "amigo"),
        (2, "amigo"),
        (3, "amigo-expert"),
        (5, "ravensburger-2014"),
        (2, "ravensburger-2014"),
        (4, "amigo-advanced"),
    )
    wire = AbluxxenWire()
    policies = _policies()
    has_deals = True
    vocabulary = ("joker", "abluxx", "shadowluxx", "naturals")
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
        """``options.make_config`` (its InvalidOptionsError is the interface's)."""
        return make_config(
            players, preset or DEFAULT_PRESET, deals=deals, duplicate=duplicate, **options
        )

    def config_to_json(self, config: GameConfig) -> dict[str, Any]:
        """Players, rules, deals, duplicate."""
        return config.to_json()

    def config_from_json(self, data: dict[str, Any]) -> GameConfig:
        """The inverse of ``config_to_json``."""
        return GameConfig.from_json(data)

    def players_of(self, config: GameConfig) -> int:
        """Seats at the table."""
        return config.players

    def preset_of(self, config: GameConfig) -> str:
        """The preset whose options equal the configuration's."""
        return next((name for name, o in PRESETS.items() if o == config.options), "")

    def new_match(self, config: GameConfig, rng: random.Random) -> State:
        """Shuffled by ``rng``."""
        return new_game(config, rng)

    def deal(self, config: GameConfig, rng: random.Random) -> Deal:
        """Every shuffle of the match."""
        return tuple(tuple(deck) for deck in shuffle_decks(config, rng))

    def new_match_from_deal(self, config: GameConfig, deal: Deal) -> State:
        """A match from given shuffles."""
        return new_game_from_decks(config, deal)

    def deciding(self, state: State) -> int | None:
        """None once over."""
        return None if state.kind is None else state.deciding

    # The engine's functions themselves: no wrapper frame on the referee's
    # per-decision path.
    observe = staticmethod(observe)
    """RULES.md §10."""

    def apply(self, state: State, action: object, seat: int | None = None) -> None:
        """Checked: MalformedActionError or IllegalActionError (both ValueErrors)."""
        apply(state, action, seat)

    apply_legal = staticmethod(apply_unchecked)
    """Without the second legality check."""

    def events(self, state: State) -> Sequence[object]:
        """Raw events; ``events.is_private`` decides what a seat sees."""
        return state.events

    def result(self, state: State) -> MatchResult | None:
        """Totals over the deals."""
        return state.result

    def standings(self, state: State) -> list[float]:
        """Match score so far, the deal being played counted as if it ended now; fewer
        hand cards break ties (the amigo tie-break, which ``shared`` ties only refine)."""
        scores = list(state.match_scores)
        hands = list(state.match_hands)
        if state.kind is not None:
            live = state.deal_scores()
            for seat in range(state.config.players):
                scores[seat] += live[seat]
                hands[seat] += state.hand_sizes[seat]
        # Scores are whole numbers and a hand holds far fewer than 1000 cards.
        return [score - hand / 1000 for score, hand in zip(scores, hands, strict=True)]

    def progress(self, state: State) -> tuple[int, int]:
        """(deal, turn in the deal)."""
        return (state.deal, state.turn)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """docs/json-formats.md."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> State:
        """The inverse of ``state_to_json``."""
        return state_from_json(data)

    def record_json(self, state: State) -> dict[str, Any]:
        """Shuffles, actions, events and result."""
        return record_of(state).to_json()

    def replay_record(self, record: dict[str, Any]) -> State:
        """Checked against the record's events and result."""
        return replay(GameRecord.from_json(record))

    def replay_states(self, record: dict[str, Any]) -> Iterator[tuple[State, Action | None]]:
        """From the record's shuffles, each recorded action applied with its check."""
        game_record = GameRecord.from_json(record)
        state = new_game_from_decks(game_record.config, game_record.decks)
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
        """How the last deal ended ("a hand is empty"): the match's end reason."""
        return deal_end_words(reason)

    def rating_defaults(self, preset: str, players: int) -> RatingDefaults:
        """Ties depend on the tie-break of the preset (not measurably on the table size:
        the values are those of every Abluxxen ladder so far)."""
        options = PRESETS.get(preset)
        if options is not None and options.tiebreak == "shared":
            return RatingDefaults(
                SHARED_TIE_DRAW_PROBABILITY,
                "tiebreak = shared: 4-10% of adjacent pairs tie under random play",
            )
        return RatingDefaults(TIE_DRAW_PROBABILITY, "about 1% of adjacent pairs tie")

    def num_distinct_actions(self, config: GameConfig) -> int:
        """Action codes are below this."""
        return max(ACTIONS) + 1

    def action_code(self, action: Action) -> int:
        """The stable code."""
        return action.code

    def action_from_code(self, code: int) -> Action:
        """MalformedActionError for a code of no action."""
        return from_code(code)

    def observation_tensor_size(self, config: GameConfig) -> int:
        """See ``observation_tensor``."""
        players = config.players
        return len(_KINDS) + 3 + 2 * _VALUES + 12 + 2 * players + players * (_VALUES + 5) + 7

    def observation_tensor(self, obs: Observation) -> list[float]:
        """Decision kind (one-hot), deal and turn, own hand and discard by value, the
        shadow, hand sizes and scores, each seat's known cards by value and top set, the
        pool by value and slots, and the deck, played set and draw state."""
        players = obs.config.players
        out: list[float] = [1.0 if obs.decision is kind else 0.0 for kind in _KINDS]
        out += [float(obs.seat), float(obs.deal), float(obs.turn)]
        out += _by_value(obs.hand) + _by_value(obs.discard)
        out += [float(n) for n in obs.shadow] + [0.0] * (12 - len(obs.shadow))
        out += [float(n) for n in obs.hand_sizes] + [float(s) for s in obs.scores]
        for seat in range(players):
            out += _by_value(obs.known[seat])
            display = obs.displays[seat]
            top = display[-1] if display else (0, 0, 0)
            out += [float(len(display)), float(sum(n + j for _, n, j in display)), *map(float, top)]
        pool = [value for slot in obs.pool for value in slot]
        played = obs.played or (0, 0, 0)
        out += [
            float(len(obs.pool)),
            float(len(pool)),
            float(obs.deck_size),
            *map(float, played),
            float(obs.draws_left),
        ]
        return out

    def resample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Other hands' unknown cards dealt anew (sizes and publicly known cards kept),
        the deck reshuffled, and other seats' private event cards replaced."""
        other = state.clone()
        unknown: list[int] = []
        holes: list[int] = []
        for s in range(other.players):
            if s == seat:
                continue
            hand = other.hands[s]
            for value in range(1, JOKER + 1):
                keep = other.known[s][value]
                unknown += hand[value][keep:]
                holes += [s] * (len(hand[value]) - keep)
                del hand[value][keep:]
        unknown += other.deck
        rng.shuffle(unknown)
        for s, card in zip(holes, unknown, strict=False):
            other.hands[s][VALUE_OF[card]].append(card)
        other.deck = unknown[len(holes) :]
        resampled = []
        for event in other.events:
            if event_views.is_private(event, seat):
                cards = event[-1]
                assert isinstance(cards, tuple)
                event = (*event[:-1], tuple(rng.randrange(NUM_CARDS) for _ in cards))
            resampled.append(event)
        other.events = resampled
        check_invariants(other)
        return other

    def determinize(self, obs: Observation, rng: random.Random) -> State:
        """``resample.determinize``."""
        return determinize(obs, rng)


def _by_value(values: Sequence[int]) -> list[float]:
    counts = [0.0] * _VALUES
    for value in values:
        counts[value - 1] += 1.0
    return counts


GAME: Final = Abluxxen()
"""The game the registry finds under ``abluxxen``."""
