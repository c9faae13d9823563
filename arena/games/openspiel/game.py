"""One OpenSpiel game (a game string) as a game of the arena, behind the Game interface.

Facts come from pyspiel's ``GameType``: the table sizes (every size OpenSpiel allows
where the game takes a ``players`` parameter the string does not fix, else the game's
own), the views a seat gets, the title. Simultaneous-move games are played through
OpenSpiel's turn-based transform (``pyspiel.load_game_as_turn_based``): the seats of a
round choose one after the other, and the transform keeps each choice out of the others'
views until the round is resolved, so every request goes to one seat and the referee's
deadlines, faults and fallbacks work unchanged (asking all movers at once would need a
second kind of decision in the referee for no gain in secrecy).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena.games.base import (
    CapabilityMissingError,
    Game,
    InvalidOptionsError,
    PolicyFactory,
    RatingDefaults,
)
from arena.policies.ismcts import SearchFactory
from arena.policies.random_policy import RandomPolicy

from . import cfr
from .board import BOARD
from .config import PLAYERS_PARAMETER, OpenSpielConfig, table_string
from .family import pyspiel_module
from .match import MatchState, advance, history_json
from .mcts import MctsFactory
from .observation import Decision, Observation, Views, observe
from .ratings import measured_draw_rate
from .resample import resample_state
from .result import OpenSpielResult, result_of
from .wire import OpenSpielWire
from .witness import witness_kind, witness_refusal

PRESET: Final = "standard"
"""The one preset: the rules the game string names (variants are other game strings)."""
MAX_TABLE: Final = 10
"""The largest table offered where OpenSpiel allows more (crazy_eights: 15)."""


SEARCH: Final = "ismcts"
"""The generic search's built-in name (``arena/policies/ismcts.py``)."""
MCTS: Final = "openspiel_mcts"
"""OpenSpiel's MCTS bot's built-in name (``mcts.py``)."""
MCTS_REFUSAL: Final = (
    "OpenSpiel's MCTS searches one known state, and a seat of this game does not know "
    "the state (a game of imperfect information: use ismcts where it has it)"
)


def _policies(
    name: str, searchable: bool, perfect: bool, solvable: bool
) -> dict[str, PolicyFactory]:
    """``random`` always; ``ismcts`` where a seat's observation carries a witness;
    ``openspiel_mcts`` in games of perfect information; ``openspiel_cfr`` in the small
    poker games CFR+ solves."""
    policies: dict[str, PolicyFactory] = {"random": RandomPolicy}
    if searchable:
        policies[SEARCH] = SearchFactory(name)
    if perfect:
        policies[MCTS] = MctsFactory(name)
    if solvable:
        policies[cfr.NAME] = cfr.CfrFactory(name)
    return policies


class OpenSpielGame(Game[OpenSpielConfig, MatchState, Observation, int]):
    """The game ``openspiel:SPEC``; ``loaded`` is ``pyspiel.load_game(SPEC)``."""

    presets = (PRESET,)
    default_preset = PRESET
    has_deals = False
    board = BOARD

    def __init__(self, spec: str, loaded: Any) -> None:
        self._pyspiel = pyspiel_module()
        game_type = loaded.get_type()
        self.spec = spec
        self.name = f"openspiel:{spec}"
        self.title = f"{game_type.long_name} (OpenSpiel)"
        fixed = PLAYERS_PARAMETER in self._pyspiel.game_parameters_from_string(spec)
        self._takes_players = PLAYERS_PARAMETER in game_type.parameter_specification and not fixed
        if self._takes_players:
            low = max(2, int(game_type.min_num_players))
            high = min(MAX_TABLE, int(game_type.max_num_players))
            self.table_sizes = tuple(range(low, high + 1))
        else:
            self.table_sizes = (int(loaded.num_players()),)
        default = int(loaded.num_players())
        first = default if default in self.table_sizes else self.table_sizes[0]
        self.check_tables = ((first, PRESET),)
        self.wire = OpenSpielWire(spec)
        # Sequential games are their own turn-based form: ``loaded`` serves the probe.
        self._search_refusal = witness_refusal(loaded)
        self._witness = witness_kind(loaded)
        self._perfect = (
            game_type.information == self._pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        solvable = cfr.solvable_game(spec)
        self.policies = _policies(self.name, self._search_refusal is None, self._perfect, solvable)
        unavailable = {} if self._perfect else {MCTS: MCTS_REFUSAL}
        if not solvable:
            unavailable[cfr.NAME] = cfr.REFUSAL
        if self._search_refusal is not None:
            unavailable[SEARCH] = self._search_refusal
        self.unavailable_policies = unavailable
        self._loaded: dict[str, Any] = {}
        self._witness_states: dict[tuple[str, tuple[int, ...]], Any] = {}
        self._tables: dict[str, OpenSpielConfig] = {}
        self._views: dict[str, Views] = {}

    # -- tables --------------------------------------------------------------------

    def _game_of(self, config: OpenSpielConfig) -> Any:
        """The turn-based pyspiel game of a table (loaded once)."""
        loaded = self._loaded.get(config.game_string)
        if loaded is None:
            loaded = self._pyspiel.load_game_as_turn_based(config.game_string)
            self._loaded[config.game_string] = loaded
            self._views[config.game_string] = Views.of(loaded.get_type())
        return loaded

    def make_config(
        self,
        players: int,
        preset: str | None = None,
        *,
        deals: int = 1,
        duplicate: bool = False,
        **options: Any,
    ) -> OpenSpielConfig:
        """A table of ``players`` seats; rule variants are other game strings."""
        if preset not in (None, PRESET):
            raise InvalidOptionsError(
                f"{self.name} has one preset, {PRESET!r}: variants are other game strings, "
                "e.g. openspiel:NAME(param=value)"
            )
        if deals != 1 or duplicate:
            raise InvalidOptionsError(f"a match of {self.name} is one game: no deals, no duplicate")
        if options:
            raise InvalidOptionsError(
                f"{self.name} takes no options ({', '.join(sorted(options))}): give "
                "parameters in the game string"
            )
        if players not in self.table_sizes:
            raise InvalidOptionsError(
                f"{self.name} is played by {', '.join(map(str, self.table_sizes))} players, "
                f"not {players}"
            )
        config = OpenSpielConfig(
            self.spec, players, table_string(self._pyspiel, self.spec, players, self._takes_players)
        )
        self._game_of(config)
        return config

    def config_to_json(self, config: OpenSpielConfig) -> dict[str, Any]:
        """Spec, seats, game string."""
        return config.to_json()

    def config_from_json(self, data: dict[str, Any]) -> OpenSpielConfig:
        """The inverse of ``config_to_json`` (InvalidOptionsError for another game)."""
        if data.get("spec") != self.spec:
            raise InvalidOptionsError(f"the configuration is not of {self.name}: {data}")
        return self.make_config(int(data["players"]))

    def players_of(self, config: OpenSpielConfig) -> int:
        """Seats at the table."""
        return config.players

    def preset_of(self, config: OpenSpielConfig) -> str:
        """The one preset."""
        return PRESET

    def policy_refusal(self, policy: str, config: OpenSpielConfig) -> str | None:
        """``openspiel_cfr`` solves only the tables ``cfr.SOLVABLE`` lists."""
        if policy == cfr.NAME:
            return cfr.table_refusal(config.game_string, config.players)
        return None

    # -- playing -------------------------------------------------------------------

    def _start(self, config: OpenSpielConfig, seed: int) -> MatchState:
        match = MatchState(config, seed, self._game_of(config).new_initial_state())
        advance(match)
        return match

    def new_match(self, config: OpenSpielConfig, rng: random.Random) -> MatchState:
        """A match whose chance draws all come from one seed drawn from ``rng``."""
        return self._start(config, rng.getrandbits(63))

    def deal(self, config: OpenSpielConfig, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """The match's seed."""
        return ((rng.getrandbits(63),),)

    def new_match_from_deal(
        self, config: OpenSpielConfig, deal: tuple[tuple[int, ...], ...]
    ) -> MatchState:
        """A match from its seed."""
        return self._start(config, int(deal[0][0]))

    def deciding(self, state: MatchState) -> int | None:
        """OpenSpiel's current player (never chance: the referee plays chance out)."""
        inner = state.state
        return None if inner.is_terminal() else int(inner.current_player())

    def observe(self, state: MatchState, seat: int) -> Observation:
        """OpenSpiel's observer for ``seat``, and its legal actions when it decides."""
        string = state.config.game_string
        return observe(string, self._views[string], state.state, seat, self._witness)

    def playout_view(self, state: MatchState, seat: int) -> Observation:
        """The legal actions alone (the playout policy, ``random``, reads nothing else):
        OpenSpiel's observers cost a search 20-130 us a step, its legal actions 1 us."""
        inner = state.state
        legal = tuple(inner.legal_actions(seat))
        return Observation(
            state.config.game_string, seat, legal, (), Decision.ACT, None, None, None, None
        )

    def apply(self, state: MatchState, action: object, seat: int | None = None) -> None:
        """Checked: ValueError for a seat out of turn, a non-id or an illegal id."""
        inner = state.state
        if inner.is_terminal():
            raise ValueError("the match is over")
        mover = int(inner.current_player())
        if seat is not None and seat != mover:
            raise ValueError(f"seat {seat} moved, but it is seat {mover}'s turn")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"an action is an OpenSpiel action id (int), not {action!r}")
        if action not in inner.legal_actions(mover):
            raise ValueError(f"action {action} is not legal for seat {mover} now")
        self.apply_legal(state, action)

    def apply_legal(self, state: MatchState, action: int) -> None:
        """Apply, then play out the chance nodes that follow."""
        state.state.apply_action(action)
        state.decisions += 1
        advance(state)

    def events(self, state: MatchState) -> Sequence[object]:
        """None: OpenSpiel's observer strings carry what a seat has seen."""
        return ()

    def result(self, state: MatchState) -> OpenSpielResult | None:
        """Returns, ranks and scores once terminal (worked out once)."""
        if state.ended is None and state.state.is_terminal():
            state.ended = result_of(state.state.returns(), state.decisions)
        return state.ended

    def action_text(self, action: int) -> str:
        """The id (its name depends on the state: see ``replay_text``)."""
        return f"action {action}"

    # -- JSON and replays ------------------------------------------------------------

    def state_to_json(self, state: MatchState) -> dict[str, Any]:
        """Table, seed, decisions and the history ([player, action], chance as -1)."""
        return {
            "config": state.config.to_json(),
            "seed": state.seed,
            "decisions": state.decisions,
            "history": history_json(state.state),
        }

    def _replayed(self, data: dict[str, Any]) -> Iterator[tuple[MatchState, int | None]]:
        """The states before each seat's recorded action, then the final one."""
        config = self.config_from_json(data["config"])
        match = MatchState(config, int(data["seed"]), self._game_of(config).new_initial_state())
        for player, action in data["history"]:
            inner = match.state
            if inner.is_terminal() or int(inner.current_player()) != player:
                raise ValueError(f"the record's history does not fit {self.name}")
            if player >= 0:
                yield match, action
                match.decisions += 1
            match.state.apply_action(action)
        yield match, None

    def state_from_json(self, data: dict[str, Any]) -> MatchState:
        """The history replayed (its chance outcomes as recorded)."""
        *_, (final, _) = self._replayed(data)
        return final

    def record_json(self, state: MatchState) -> dict[str, Any]:
        """The state's JSON and the result: the history holds every chance outcome and
        every action, so a replay is exact."""
        record = self.state_to_json(state)
        result = self.result(state)
        record["result"] = result.to_json() if result is not None else None
        return record

    def replay_record(self, record: dict[str, Any]) -> MatchState:
        """The final state, checked against the recorded result."""
        state = self.state_from_json(record)
        result = self.result(state)
        if (result.to_json() if result is not None else None) != record.get("result"):
            raise ValueError(f"the replayed {self.name} match ends otherwise than recorded")
        return state

    def replay_states(self, record: dict[str, Any]) -> Iterator[tuple[MatchState, int | None]]:
        """Before each seat's recorded action, the state; last the final state."""
        return self._replayed(record)

    def replay_text(
        self,
        record: dict[str, Any],
        decisions: Sequence[dict[str, Any]],
        names: Sequence[str],
        seat: int | None,
    ) -> Iterator[str]:
        """Every seat's move in OpenSpiel's words (chance draws are not told): all for
        ``seat`` None, else the seat's own moves with the view it chose them from."""
        index = 0
        for match, action in self._replayed(record):
            if action is None:
                result = self.result(match)
                if result is not None:
                    yield f"returns: {', '.join(f'{r:g}' for r in result.returns)}"
                return
            inner, actor = match.state, int(match.state.current_player())
            line = decisions[index] if index < len(decisions) else {}
            index += 1
            if seat is not None and seat != actor:
                continue
            if seat is not None:
                view = self.observe(match, actor)
                seen = (
                    view.information_state
                    if view.information_state is not None
                    else view.observation
                )
                yield f"  [{seen!s}]".replace("\n", " / ")
            fault = line.get("fault")
            note = f"  FAULT {fault['kind']}: {fault['detail']} -> fallback" if fault else ""
            ms = f" {line['ms']:.1f} ms" if "ms" in line else ""
            name = inner.action_to_string(actor, action)
            yield f"#{index} {names[actor]}: {name}{ms}{note}"

    # -- ratings, learning, hidden information ------------------------------------------

    def end_words(self, reason: str) -> str:
        """OpenSpiel's matches end one way: the game reached a terminal state."""
        return "the game reached its end" if reason == "terminal" else super().end_words(reason)

    def rating_defaults(self, preset: str, players: int) -> RatingDefaults:
        """The tie rate of random play at that table (``ratings``)."""
        config = self.make_config(players)
        rate = measured_draw_rate(config.game_string, self._game_of(config))
        return RatingDefaults(
            rate,
            "the share of rank-adjacent seats with equal returns in 48 seeded random "
            "matches, measured once per process",
        )

    def num_distinct_actions(self, config: OpenSpielConfig) -> int:
        """OpenSpiel's action ids are below this."""
        return int(self._game_of(config).num_distinct_actions())

    def action_code(self, action: int) -> int:
        """The action id itself."""
        return action

    def action_from_code(self, code: int) -> int:
        """The id (ValueError for a negative one or a non-integer)."""
        if not isinstance(code, int) or isinstance(code, bool) or code < 0:
            raise ValueError(f"no OpenSpiel action id: {code!r}")
        return code

    def observation_tensor_size(self, config: OpenSpielConfig) -> int:
        """The information-state tensor's size if the game gives one, else the
        observation tensor's, else 0."""
        loaded = self._game_of(config)
        views = self._views[config.game_string]
        if views.information_state_tensor:
            return int(loaded.information_state_tensor_size())
        if views.observation_tensor:
            return int(loaded.observation_tensor_size())
        return 0

    def observation_tensor(self, obs: Observation) -> list[float]:
        """The information-state tensor if given, else the observation tensor, else []."""
        tensor = obs.information_state_tensor
        if tensor is None:
            tensor = obs.observation_tensor
        return list(tensor) if tensor is not None else []

    def resample_hidden(self, state: MatchState, seat: int, rng: random.Random) -> MatchState:
        """``resample.resample_state``: a twin the seat cannot tell apart."""
        string = state.config.game_string
        twin = resample_state(
            self._game_of(state.config), state.state, seat, self._views[string], rng
        )
        return MatchState(state.config, state.seed, twin, state.decisions)

    def determinize(self, obs: Observation, rng: random.Random) -> MatchState:
        """A world for a search: the observation's witness replayed, then (imperfect
        information) what the seat may not know drawn anew by OpenSpiel's
        ``resample_from_infostate`` with ``rng``; later chance outcomes from a seed
        drawn from ``rng``. Reads the observation only (``witness``)."""
        if obs.history is None:
            why = self._search_refusal or "the observation carries no witness history"
            raise CapabilityMissingError(f"{self.name} offers no determinize: {why}")
        state = self._witness_state(self._table_of(obs.game), obs).clone()
        if not self._perfect:
            state = state.resample_from_infostate(obs.seat, rng.random)
        decisions = sum(1 for step in state.full_history() if step.player >= 0)
        return MatchState(self._table_of(obs.game), rng.getrandbits(63), state, decisions)

    def _table_of(self, game_string: str) -> OpenSpielConfig:
        """The table whose game string an observation names (ValueError for another
        game's), found once per string."""
        config = self._tables.get(game_string)
        if config is None:
            for players in self.table_sizes:
                candidate = self.make_config(players)
                self._tables[candidate.game_string] = candidate
            config = self._tables.get(game_string)
            if config is None:
                raise ValueError(f"{game_string} is not a table of {self.name}")
        return config

    def _witness_state(self, config: OpenSpielConfig, obs: Observation) -> Any:
        """The state the witness leads to, replayed once per witness. The steps are not
        checked against the legal actions (OpenSpiel's resampler for hearts and euchre
        deals a seat a card of a suit it has shown void in, so a later play of the
        witness breaks the rules it would be checked by): each id is checked to be in
        range, and the end to be the seat's decision with the observation's knowledge."""
        assert obs.history is not None
        key = (config.game_string, obs.history)
        cached = self._witness_states.get(key)
        if cached is not None:
            return cached
        loaded = self._game_of(config)
        actions, outcomes = int(loaded.num_distinct_actions()), int(loaded.max_chance_outcomes())
        state = loaded.new_initial_state()
        for action in obs.history:
            bound = outcomes if state.is_chance_node() else actions
            if state.is_terminal() or not 0 <= action < bound:
                raise ValueError(f"the witness history does not fit {obs.game}")
            state.apply_action(action)
        views = self._views[config.game_string]
        if (
            state.is_terminal()
            or state.is_chance_node()
            or int(state.current_player()) != obs.seat
            or (
                views.information_state
                and state.information_state_string(obs.seat) != obs.information_state
            )
        ):
            raise ValueError(f"the witness history does not lead to seat {obs.seat}'s decision")
        self._witness_states.clear()  # one decision's worth: a search asks for one witness
        self._witness_states[key] = state
        return state
