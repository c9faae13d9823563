"""OpenSpiel's games through the arena (``openspiel:NAME[(params)]``): a curated list of
them passes the conformance kit, the differential hidden-information test included; the
registry resolves such names without listing them and refuses, with the reason, what it
cannot referee; the referee draws chance from the match's seed; a simultaneous-move game
hides a round's earlier choices; and (slow) every curated game plays a real gRPC match
with the sample random bot (an SDK bot)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from referee.test_check_bot import running

from arena.cli import main as arena_main
from arena.games import UnknownGameError, by_oneof, get, names, pettingzoo_env, plays
from arena.games import conformance_kit as kit
from arena.games.openspiel import family
from arena.games.openspiel.mcts import MIN_SIMULATIONS
from games.test_game_conformance import quick_policies

ROOT = Path(__file__).resolve().parents[2]

CURATED: dict[str, tuple[int, bool]] = {
    # game string: (seats, whether it has hidden information)
    "kuhn_poker": (2, True),
    "kuhn_poker#3": (3, True),
    "leduc_poker": (2, True),
    "liars_dice": (2, True),
    "hanabi": (2, True),
    "universal_poker": (2, True),
    "goofspiel(imp_info=true,num_cards=4)": (2, True),
    "phantom_ttt": (2, True),
    "dark_hex": (2, True),
    "gin_rummy": (2, True),
    "hearts": (4, True),
    "euchre": (4, True),
    "oh_hell": (3, True),
    "bridge(use_double_dummy_result=false)": (4, True),
    "crazy_eights": (3, True),
    "dou_dizhu": (3, True),
    "tic_tac_toe": (2, False),
    "connect_four": (2, False),
    "backgammon": (2, False),
    "chess": (2, False),
    "go(board_size=9)": (2, False),
}
"""The curated games: each plays one table (``#N``: the same game at N seats)."""


def _table(entry: str) -> tuple[Any, Any, bool]:
    spec = entry.partition("#")[0]
    players, hidden = CURATED[entry]
    game = get(f"openspiel:{spec}")
    return game, game.make_config(players), hidden


@pytest.mark.parametrize("entry", CURATED)
def test_curated_game_passes_the_conformance_kit(entry: str) -> None:
    game, config, _ = _table(entry)
    kit.check_facts(game)
    kit.check_config_json(game, config)
    kit.check_start_round_trip(game, config)
    report = kit.check_random_play(game, config, 0)
    assert report.decisions > 0
    kit.check_determinism(game, config, 0)
    kit.check_json_round_trips(game, config, 0)
    kit.check_wire(game, config, 0)
    kit.check_actions_and_tensors(game, config, 0)
    policies = legality_policies(game)
    if entry in SLOW_SEARCH:
        policies = {"random": policies["random"]}
    kit.check_policies(game, config, 0, policies)
    kit.check_determinize(game, config, 0)
    kit.check_check_tables(game, range(1))


LEGALITY_SEARCH = 1
"""The search's iterations where only the legality of its choices is checked: a chess
playout runs to the end of a random game (~15 ms), so chess at 20 iterations a decision
took 30 s (at 1, ~4 s)."""


SLOW_SEARCH = {"chess"}
"""Tables whose searches' legality check is in the slow suite: a random chess game is
some 300 plies and every search playout plays one (~5 s a match)."""


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(SLOW_SEARCH))
def test_searches_play_legal_moves_in_long_games(entry: str) -> None:
    game, config, _ = _table(entry)
    kit.check_policies(game, config, 0, legality_policies(game))


def legality_policies(game: Any) -> dict[str, Any]:
    """The game's built-ins, its searches at ``LEGALITY_SEARCH`` (OpenSpiel's MCTS at
    its least)."""
    policies = quick_policies(game, LEGALITY_SEARCH)
    if "openspiel_mcts" in policies:
        mcts = policies["openspiel_mcts"]
        policies["openspiel_mcts"] = lambda seed: mcts(seed, simulations=MIN_SIMULATIONS)
    return policies


SLOW_HIDDEN = {"gin_rummy"}
"""Games whose differential test takes long (gin_rummy's legal moves cost ~0.3 ms each,
and every twin replays the match's history: ~20 s): in the slow suite."""
HIDDEN = [
    pytest.param(entry, marks=pytest.mark.slow) if entry in SLOW_HIDDEN else entry
    for entry, (_, hidden) in CURATED.items()
    if hidden  # in a perfect-information game no twin can differ: nothing is hidden
]


@pytest.mark.parametrize("entry", HIDDEN)
def test_curated_game_requests_reveal_no_hidden_information(entry: str) -> None:
    game, config, _ = _table(entry)
    covered = kit.check_hidden_information(game, config, [0], compare_state_every=1)
    assert covered.differing > 0


def test_family_games_are_resolved_not_listed() -> None:
    game = get("openspiel:leduc_poker")
    assert game.name == "openspiel:leduc_poker"
    assert not any(name.startswith("openspiel") for name in names())
    # Parameters in any order name one game (one ladder).
    assert get("openspiel:goofspiel(num_cards=4,imp_info=True)") is get(
        "openspiel:goofspiel(imp_info=true,num_cards=4)"
    )
    assert by_oneof("openspiel") is not None
    assert plays(("abluxxen", "openspiel:*"), "openspiel:hearts")
    assert not plays(("abluxxen",), "openspiel:hearts")
    assert get("openspiel:kuhn_poker").table_sizes == tuple(range(2, 11))
    assert get("openspiel:kuhn_poker(players=3)").table_sizes == (3,)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("openspiel:no_such_game", "OpenSpiel has no game 'no_such_game'"),
        ("openspiel:kuhn_poker(colour=red)", "kuhn_poker has no parameter 'colour'"),
        ("openspiel:kuhn_poker(players=1)", "min_num_players"),
        ("openspiel:kuhn_poker(", "not an OpenSpiel game string"),
        ("openspiel:mfg_crowd_modelling", "mean-field"),
        ("openspiel:catch", "single-agent"),
        ("openspiel:efg_game(filename=/etc/hostname)", "read a file"),
        ("openspiel:crossword(word_list_file=/etc/hostname)", "read a file"),
    ],
)
def test_names_the_arena_cannot_referee_are_refused_with_the_reason(name: str, why: str) -> None:
    with pytest.raises(UnknownGameError, match=why.replace("(", r"\(")):
        get(name)


def test_the_cli_refuses_them_with_status_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arena.cli", "selfplay", "--game", "openspiel:catch"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "single-agent" in result.stderr


def test_without_openspiel_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    with pytest.raises(UnknownGameError, match=r"pip install -e '\.\[openspiel\]'"):
        family.canonical_spec("tic_tac_toe_never_resolved")


def test_the_referee_draws_chance_from_the_seed() -> None:
    game, config, _ = _table("leduc_poker")
    records = []
    for seed in (5, 5, 6):
        state = game.new_match(config, random.Random(seed))
        while (seat := game.deciding(state)) is not None:
            assert seat >= 0  # never a chance node
            game.apply(state, game.observe(state, seat).legal[0], seat)
        records.append(game.record_json(state))
    assert records[0] == records[1]
    assert records[0]["history"] != records[2]["history"]  # other cards dealt
    assert [p for p, _ in records[0]["history"]].count(-1) >= 2  # the deal is recorded
    replayed = game.replay_record(json.loads(json.dumps(records[0])))
    assert game.state_to_json(replayed)["history"] == records[0]["history"]


def test_a_simultaneous_round_hides_the_earlier_choice() -> None:
    """Goofspiel through the turn-based transform: seat 1's request is the same whichever
    card seat 0 has just bid."""
    game, config, _ = _table("goofspiel(imp_info=true,num_cards=4)")
    requests = set()
    for bid in range(4):
        state = game.new_match(config, random.Random(1))
        assert game.deciding(state) == 0
        game.apply(state, game.observe(state, 0).legal[bid], 0)
        assert game.deciding(state) == 1
        obs = game.observe(state, 1)
        requests.add(game.wire.decide_request(1, 500, 0, obs, ()))
    assert len(requests) == 1


def test_an_illegal_or_malformed_action_is_refused() -> None:
    game, config, _ = _table("tic_tac_toe")
    state = game.new_match(config, random.Random(0))
    game.apply(state, 4, 0)
    for action, seat in ((4, 1), ("4", 1), (3, 0), (99, 1)):
        with pytest.raises(ValueError, match=r"turn|action"):
            game.apply(state, action, seat)


@pytest.fixture(scope="module")
def random_bot() -> Iterator[str]:
    """The sample random bot (Python SDK) on a free port, ended by its pid."""
    with running([sys.executable, "sample_bots/random_bot.py"]) as endpoint:
        yield endpoint


@pytest.mark.slow
def test_every_curated_game_plays_a_real_grpc_match(
    random_bot: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number, entry in enumerate(CURATED):
        game, config, _ = _table(entry)
        record = tmp_path / f"match{number}.jsonl"
        seats = [f"--bot=s{seat}={random_bot}" for seat in range(game.players_of(config))]
        status = arena_main(
            ["match", "--game", game.name, *seats, "--seed", "7", "--record", str(record)]
        )
        out = capsys.readouterr().out
        assert status == 0, (entry, out)
        assert "ended because the game reached its end" in out, (entry, out)
        assert arena_main(["replay", str(record)]) == 0, entry
        assert "returns:" in capsys.readouterr().out, entry


@pytest.mark.slow
def test_check_bot_passes_the_sample_bot_on_an_openspiel_game(random_bot: str) -> None:
    status = arena_main(["check-bot", random_bot, "--game", "openspiel:liars_dice", "--games", "2"])
    assert status == 0


PETTINGZOO = ("kuhn_poker#3", "leduc_poker", "goofspiel(imp_info=true,num_cards=4)", "tic_tac_toe")


@pytest.mark.parametrize("entry", PETTINGZOO)
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
def test_openspiel_games_are_pettingzoo_environments(entry: str) -> None:
    from pettingzoo.test import api_test, seed_test

    game, config, _ = _table(entry)
    players = game.players_of(config)
    api_test(pettingzoo_env(game.name, players=players), num_cycles=1000)
    seed_test(lambda: pettingzoo_env(game.name, players=players), 1000)
