"""`arena check-bot` passes every sample bot and fails bots that break the contract.

Every entry of sample_bots/ must be covered here: a Python bot (``*.py``) or a known
bot directory. A new sample bot that nobody taught this test to start fails it.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from arena.games import get as get_game
from arena.referee.conformance import tables_to_check
from arena.server.verify import Verdict, verify_bot
from arena.v1.bot_pb2 import HelloReply

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots"
LAUNCHERS = {"node": ["node", "sample_bots/node/random_bot.js"]}
"""How to start each bot directory of sample_bots/."""
SEARCH_BUDGET = {"ismcts_bot.py": ["--iterations", "10"]}
"""Search bots think less here than by default (a game's full budget, up to 700 ms a
decision, made their check-bot runs 80 s of the suite): these tests ask whether a bot
answers every kind of decision legally; how well it searches is scripts/bench's."""


def sample_bot_commands() -> dict[str, list[str]]:
    commands = {}
    for entry in sorted(SAMPLES.iterdir()):
        if entry.name.startswith((".", "_")):
            continue
        if entry.suffix == ".py":
            commands[entry.name] = [
                sys.executable,
                str(entry.relative_to(ROOT)),
                *SEARCH_BUDGET.get(entry.name, []),
            ]
        elif entry.is_dir():
            assert entry.name in LAUNCHERS, f"sample_bots/{entry.name} is not covered: add it"
            commands[entry.name] = LAUNCHERS[entry.name]
        elif entry.suffix not in (".md", ".txt"):
            pytest.fail(f"sample_bots/{entry.name} is not covered by the check-bot test")
    return commands


@contextmanager
def running(command: list[str]) -> Iterator[str]:
    """Start a bot on a free port; yield its endpoint; end it by its pid."""
    process = subprocess.Popen(
        [*command, "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("arena-bot listening on "), line
        yield line.rsplit(" ", 1)[-1]
    finally:
        process.kill()
        process.wait(timeout=10)


HANG_GUARD_S = 1800
"""A command's timeout in these tests: a guard against a hang only, far above any real
run (seconds here; a search bot's check-bot at load 25 took over two minutes)."""


def check_bot(endpoint: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", "check-bot", endpoint, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )


def test_every_sample_bot_is_covered() -> None:
    assert {"random_bot.py", "greedy_bot.py", "node"} <= set(sample_bot_commands())


def runnable_command(name: str) -> list[str]:
    """The command starting sample bot ``name``; skips when its runtime is missing."""
    command = sample_bot_commands()[name]
    if command[0] == "node":
        if shutil.which("node") is None:
            pytest.skip("node is not installed on this machine")
        assert (SAMPLES / "node" / "node_modules").is_dir(), (
            "run `npm ci` in sample_bots/node (./scripts/test does)"
        )
    return command


@pytest.mark.parametrize("name", sorted(sample_bot_commands()))
@pytest.mark.slow
@pytest.mark.timeout(HANG_GUARD_S)
def test_sample_bot_passes_check_bot(name: str) -> None:
    with running(runnable_command(name)) as endpoint:
        result = check_bot(endpoint, "--games", "6")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("PASS")
    for kind in ("PLAY", "ATTACKER_TAKE", "VICTIM_CHOICE", "DRAW", "OPTIONAL_DRAW"):
        assert kind in result.stdout  # six games over all table sizes reach every kind


@pytest.mark.parametrize("name", sorted(sample_bot_commands()))
@pytest.mark.slow
def test_sample_bot_plays_fluxx(name: str) -> None:
    """Every sample bot plays the second game too: the Node bot by answering
    legal_index alone, the Python bots through the SDK (the greedy one by Fluxx's own
    greedy policy, the search bot by the generic search on Fluxx)."""
    with running(runnable_command(name)) as endpoint:
        result = check_bot(endpoint, "--game", "fluxx", "--games", "5", "--seed", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("PASS")
    for kind in ("PLAY", "DISCARD_HAND_LIMIT", "GOAL_DISCARD"):
        assert kind in result.stdout


@pytest.mark.parametrize("name", sorted(sample_bot_commands()))
@pytest.mark.slow
def test_sample_bot_serves_health_and_reflection(name: str) -> None:
    # Every sample, whatever its language, serves standard gRPC health checking and
    # reflection next to arena.v1.Bot, as the SDK does.
    with running(runnable_command(name)) as endpoint, grpc.insecure_channel(endpoint) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "arena.v1.Bot"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        names = [
            service.name
            for reply in reflection.ServerReflectionInfo(iter([request]), timeout=10)
            for service in reply.list_services_response.service
        ]
    assert "arena.v1.Bot" in names
    assert "grpc.health.v1.Health" in names


@pytest.mark.slow
def test_check_bot_fails_a_bot_that_answers_garbage() -> None:
    with running([sys.executable, "tests/bots/garbage_bot.py"]) as endpoint:
        result = check_bot(endpoint, "--games", "2")
    assert result.returncode == 1
    assert "FAIL" in result.stdout
    assert "MALFORMED" in result.stdout


@pytest.mark.slow
def test_check_bot_says_plainly_when_nothing_answers() -> None:
    result = check_bot("127.0.0.1:9", "--games", "1")
    assert result.returncode == 1
    assert "FAIL  Hello: no bot answers at 127.0.0.1:9" in result.stdout
    assert check_bot("not-an-endpoint").returncode == 2


THREE_SEAT_BOT = [sys.executable, "tests/bots/three_seat_bot.py"]
"""Declares the preset amigo only; wrong at three seats alone (tests/bots/README.md)."""


def hello_reply(players: tuple[int, ...] = (), presets: tuple[str, ...] = ()) -> HelloReply:
    return HelloReply(name="b", games=["abluxxen"], players=players, presets=presets)


def test_the_check_plays_every_table_size_a_bot_declares() -> None:
    game = get_game("abluxxen")
    # All sizes and presets: the game's own check tables cover every size already.
    assert tables_to_check(game, hello_reply()) == list(game.check_tables)
    # One preset: its check tables leave out three and five seats; those come at it.
    assert tables_to_check(game, hello_reply(presets=("amigo",))) == [
        (4, "amigo"),
        (2, "amigo"),
        (3, "amigo"),
        (5, "amigo"),
    ]
    # Declared sizes only; not the default preset, which the bot does not play.
    assert tables_to_check(game, hello_reply(players=(3, 4), presets=("ravensburger-2014",))) == [
        (3, "ravensburger-2014"),
        (4, "ravensburger-2014"),
    ]
    assert tables_to_check(game, hello_reply(presets=("no-such-preset",))) == []


@pytest.mark.slow
def test_check_bot_fails_a_bot_that_fails_at_one_table_size_only() -> None:
    with running(THREE_SEAT_BOT) as endpoint:
        # Two games asked for: every table is played all the same.
        result = check_bot(endpoint, "--games", "2")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "4 games at the tables: 4p amigo, 2p amigo, 3p amigo, 5p amigo" in result.stdout
    assert "ILLEGAL" in result.stdout
    assert result.stdout.strip().endswith("fault(s)")


@pytest.mark.slow
def test_verification_plays_the_ladders_table() -> None:
    async def verdicts(endpoint: str) -> list[Verdict]:
        return [
            await verify_bot(
                endpoint,
                game=get_game("abluxxen"),
                preset="amigo",
                table_size=size,
                games=2,
                deadline_ms=1000,
                max_strikes=3,
                hello_timeout_s=5.0,
                root_certificates=None,
            )
            for size in (4, 3)
        ]

    with running(THREE_SEAT_BOT) as endpoint:
        at_four, at_three = asyncio.run(verdicts(endpoint))
    assert at_four.ok, at_four.reason
    assert not at_three.ok
    assert "ILLEGAL" in at_three.reason
