"""Every registered game passes the conformance kit (``arena.games.conformance_kit``), on
every preset and table size.

Why: the referee, leagues, store, SDK and learning environments rely on promises of the
Game interface that its types cannot state (matches end, legal sets are never empty,
seeded play replays, JSON and wire round-trips, no hidden information leaks into a
seat's requests). This file holds every game in the registry to them, so a new game
plug-in is checked the day it registers, with nothing added here. Per-table checks play a
few seeded random matches each (one deal, and two where the game has deals); per-game
checks cover the game's facts and that the hidden-information test met every decision
kind of the game over all its tables (some kinds exist only at some tables: Abluxxen's
shadow pick only in the two-player duel, for instance).
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

import pytest

from arena.games import AnyGame, all_games
from arena.games import conformance_kit as kit

GAMES = all_games()
TABLES = [
    pytest.param(game, players, preset, id=f"{game.name}-{preset}-{players}p")
    for game in GAMES
    for players, preset in kit.tables(game)
]
PER_GAME = [pytest.param(game, id=game.name) for game in GAMES]
SEEDS = (0, 1)
"""Random matches per configuration in the per-table checks."""


def configs(game: AnyGame, players: int, preset: str) -> list[Any]:
    return kit.deal_configs(game, players, preset)


@pytest.mark.parametrize("game", PER_GAME)
def test_facts(game: AnyGame) -> None:
    kit.check_facts(game)


@pytest.mark.parametrize("game", PER_GAME)
def test_configurations_and_their_json_and_wire(game: AnyGame) -> None:
    kit.check_configs(game)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_random_play_ends_with_a_result(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        for seed in SEEDS:
            kit.check_random_play(game, config, seed)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_seeded_matches_are_deterministic(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_determinism(game, config, 0)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_states_and_records_survive_json(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_json_round_trips(game, config, 0)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_wire_round_trips(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_wire(game, config, 0)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_actions_codes_and_tensors(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_actions_and_tensors(game, config, 0)


QUICK_SEARCH = 20
"""The search's iterations in the legality check: what it may choose does not depend on
its budget, and at the default (200) this was the suite's longest test, 5-28 s a table
(the default budget plays in tests/referee/test_check_bot.py and the sample bots')."""


def quick_policies(game: AnyGame, iterations: int = QUICK_SEARCH) -> dict[str, Any]:
    """The game's built-ins, the search (if any) at ``iterations`` a decision."""
    policies: dict[str, Any] = dict(game.policies)
    if "ismcts" in policies:
        search = policies["ismcts"]
        policies["ismcts"] = lambda seed: search(seed, iterations=iterations)
    return policies


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
@pytest.mark.timeout(1800)  # a hang guard only: at load 10-25 a table passed 300 s
def test_built_in_policies_play_legal_actions(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_policies(game, config, 0, quick_policies(game))


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
def test_determinize_if_offered(game: AnyGame, players: int, preset: str) -> None:
    for config in configs(game, players, preset):
        kit.check_determinize(game, config, 0)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_requests_reveal_no_hidden_information(game: AnyGame, players: int, preset: str) -> None:
    config = configs(game, players, preset)[-1]
    report = kit.check_hidden_information(game, config, SEEDS)
    assert report.decisions > 0


@pytest.mark.parametrize("game", PER_GAME)
@pytest.mark.slow
def test_hidden_information_test_meets_every_decision_kind(game: AnyGame) -> None:
    """Over all the game's tables (other seeds than the per-table test)."""
    report = kit.HiddenReport()
    for players, preset in kit.tables(game):
        config = configs(game, players, preset)[-1]
        kit.check_hidden_information(game, config, [10], report=report)
    kit.check_decision_kinds(game, report.kinds, "the hidden-information test")


@pytest.mark.parametrize("game", PER_GAME)
@pytest.mark.slow
def test_check_tables_meet_every_decision_kind(game: AnyGame) -> None:
    kit.check_check_tables(game, range(3))


class _LeakyWire:
    """A game's wire that also appends every raw event (unredacted) to each request."""

    def __init__(self, wire: Any) -> None:
        self._wire = wire

    def __getattr__(self, name: str) -> Any:
        return getattr(self._wire, name)

    def decide_request(
        self, request_id: int, deadline_ms: int, time_bank_ms: int, obs: Any, events: Any
    ) -> bytes:
        honest: bytes = self._wire.decide_request(
            request_id, deadline_ms, time_bank_ms, obs, events
        )
        return honest + repr(list(events)).encode()


def test_the_kit_catches_a_leak() -> None:
    """The differential test fails for a wire that shows a seat the raw events (other
    seats' private cards included): the kit's own check, on the first registered game
    with tables whose events hold something private."""
    game = copy.copy(GAMES[0])
    game.wire = cast(Any, _LeakyWire(GAMES[0].wire))
    players, preset = kit.tables(game)[-1]
    config = game.make_config(players, preset)
    with pytest.raises(AssertionError, match="leak of hidden information"):
        kit.check_hidden_information(game, config, [0])


@pytest.mark.slow
def test_the_kit_catches_a_resample_that_redraws_nothing() -> None:
    """A ``resample_hidden`` that returns an exact copy makes every request equal
    trivially; the kit says the differential test then proves nothing."""
    original = GAMES[0]
    game = copy.copy(original)

    def same(state: Any, seat: int, rng: random.Random) -> Any:
        return original.state_from_json(original.state_to_json(state))

    game.resample_hidden = same  # type: ignore[method-assign]
    config = game.make_config(*kit.tables(game)[0])
    with pytest.raises(AssertionError, match="proves nothing"):
        kit.check_hidden_information(game, config, [0])


class _LeakyBoard:
    """A game's board whose seat view also shows the raw events (other seats' private
    cards included), as a careless page would."""

    def __init__(self, board: Any) -> None:
        self._board = board

    def __getattr__(self, name: str) -> Any:
        return getattr(self._board, name)

    def seat_view(self, obs: Any, events: Any, names: Any) -> dict[str, Any]:
        honest: dict[str, Any] = self._board.seat_view(obs, events, names)
        return {**honest, "raw_events": repr(list(events))}


def test_the_kit_catches_a_board_that_leaks() -> None:
    """The differential test covers what the web pages show a seat (the human seat's
    page, a seat's replay): a board that shows raw events fails it."""
    original = next(g for g in GAMES if g.board is not None)
    game = copy.copy(original)
    game.board = cast(Any, _LeakyBoard(original.board))
    players, preset = kit.tables(game)[-1]
    config = game.make_config(players, preset)
    with pytest.raises(AssertionError, match="leak of hidden information through the board"):
        kit.check_hidden_information(game, config, [0])
