"""``openspiel_cfr``: OpenSpiel's CFR+ as the built-in of small poker.

What it must be: offered where it can solve the table and refused with the reason
elsewhere (before anything plays or is written); an approximate equilibrium (kuhn
poker's is known in closed form); a player that reads the seat's information state
alone; and a built-in the referee seats like any other.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main as arena_main
from arena.games import get
from arena.games.openspiel import cfr
from arena.games.openspiel.cfr import CfrPolicy, solved
from arena.referee.record import read_record
from games.test_openspiel_search import returns_against_random

pyspiel = pytest.importorskip("pyspiel")

JACK, QUEEN, KING = 0, 1, 2
PASS, BET = 0, 1


def kuhn_state(cards: tuple[int, int], moves: tuple[int, ...]) -> Any:
    game = get("openspiel:kuhn_poker")
    config = game.make_config(2)
    match = game.new_match(config, random.Random(0))
    state = pyspiel.load_game(config.game_string).new_initial_state()
    for card in cards:
        state.apply_action(card)
    for move in moves:
        state.apply_action(move)
    return game, dataclasses.replace(match, state=state)


def test_it_is_offered_exactly_where_cfr_solves_the_game() -> None:
    for spec in ("kuhn_poker", "kuhn_poker(players=3)", "leduc_poker"):
        factory = get(f"openspiel:{spec}").policies[cfr.NAME]
        assert getattr(factory, "cpu_bound", False)  # decides in a policy process
        assert isinstance(pickle.loads(pickle.dumps(factory))(1), CfrPolicy)
    for spec in ("liars_dice", "tic_tac_toe", "universal_poker"):
        game = get(f"openspiel:{spec}")
        assert cfr.NAME not in game.policies
        assert "small poker only" in game.unavailable_policies[cfr.NAME]


def test_a_table_too_large_to_solve_is_refused_before_anything_runs(
    tmp_path: Path, capsys: Any
) -> None:
    five = ["--bot", "c=openspiel_cfr", *(f"--bot=r{i}=random" for i in range(4))]
    assert arena_main(["match", "--game", "openspiel:kuhn_poker", *five]) == 2
    assert "kuhn_poker at 2/3/4 players" in capsys.readouterr().err
    db = tmp_path / "league.db"
    status = arena_main(
        ["league", "--game", "openspiel:kuhn_poker", "--table-size", "5", "--db", str(db),
         "--matches", "1", *five]
    )  # fmt: skip
    assert status == 2
    assert "(this table has 5)" in capsys.readouterr().err
    assert not db.exists()


def test_kuhn_poker_is_solved_to_an_equilibrium() -> None:
    game = pyspiel.load_game("kuhn_poker")
    assert pyspiel.exploitability(game, solved("kuhn_poker")) < 0.001
    # Kuhn's equilibria, in closed form: the second player, bet into, always calls with
    # the king and always folds the jack.
    policy = CfrPolicy(1)
    for card, answer in ((KING, BET), (JACK, PASS)):
        arena_game, state = kuhn_state((QUEEN, card), (BET,))
        obs = arena_game.observe(state, 1)
        assert {policy.choose(obs) for _ in range(50)} == {answer}


def test_it_reads_the_information_state_alone() -> None:
    # Two deals the second seat cannot tell apart (the first seat's card differs) get the
    # same strategy; an observation stripped to the information state plays the same.
    arena_game, one = kuhn_state((JACK, QUEEN), (PASS,))
    _, other = kuhn_state((KING, QUEEN), (PASS,))
    seen = [arena_game.observe(s, 1) for s in (one, other)]
    assert seen[0].information_state == seen[1].information_state
    stripped = dataclasses.replace(
        seen[0], observation=None, observation_tensor=None, information_state_tensor=None
    )

    def plays(obs: Any) -> list[int]:
        policy = CfrPolicy(7)
        return [policy.choose(obs) for _ in range(20)]

    assert plays(seen[0]) == plays(seen[1]) == plays(stripped)


def test_it_beats_random_at_kuhn_poker() -> None:
    # A fixed seed set, each seat equally often.
    returns = returns_against_random("kuhn_poker", CfrPolicy, range(400), players=2)
    assert sum(returns) / len(returns) > 0.05  # 0.115 on these seeds


def test_its_expected_gain_against_random_is_the_solved_strategy_s() -> None:
    # Exact, over every deal and every random move, each seat in turn: 0.144 chips a
    # hand (leduc_poker: 0.718, docs/built-in-bots.md).
    from open_spiel.python import policy as policies  # type: ignore[import-untyped]
    from open_spiel.python.algorithms.expected_game_score import (  # type: ignore[import-untyped]
        policy_value,
    )

    game = pyspiel.load_game("kuhn_poker")
    solved_policy = policies.pyspiel_policy_to_python_policy(game, solved("kuhn_poker"))
    uniform = policies.UniformRandomPolicy(game)
    first = policy_value(game.new_initial_state(), [solved_policy, uniform])[0]
    second = policy_value(game.new_initial_state(), [uniform, solved_policy])[1]
    assert (first + second) / 2 == pytest.approx(0.1445, abs=0.001)


def test_the_referee_plays_it_as_a_built_in(tmp_path: Path, capsys: Any) -> None:
    record = tmp_path / "match.jsonl"
    status = arena_main(
        ["match", "--game", "openspiel:kuhn_poker", "--bot", "c=openspiel_cfr", "--bot",
         "r=random", "--bot", "s=random", "--seed", "3", "--record", str(record)]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert not [line for line in read_record(record) if line.get("fault")]
    assert any(line.get("seat") == 0 for line in read_record(record) if line["type"] == "decision")
