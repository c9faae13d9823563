"""`arena match` end to end against a real bot process: the result, the record, and
what the bot is told (never the seed). Refusals of bad options call the command's
``main`` in the test's process (``in_process.run_arena``)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import run_arena

from arena.games import get as get_game
from arena.policies import RandomPolicy
from arena.referee.conformance import CheckReport
from arena.referee.conformance import check_bot as arena_check_bot
from arena.sdk import BotInfo, create_server

from .test_check_bot import HANG_GUARD_S, ROOT, check_bot, running

SPY = [sys.executable, "tests/bots/spy.py"]


def arena_match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )


def test_a_match_against_a_bot_process_prints_ranks_and_writes_its_record(
    tmp_path: Path,
) -> None:
    log, record = tmp_path / "spy.jsonl", tmp_path / "match.jsonl.gz"
    seed = 987654321
    with running([*SPY, "--log", str(log)]) as endpoint:
        run = arena_match("--bot", f"spy={endpoint}", "--bot", "random", "--bot", "greedy",
                          "--seed", str(seed), "--record", str(record))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"(seed {seed})" in run.stdout  # the organizer sees it, to reproduce the match
    for name in ("spy", "random", "greedy"):
        assert name in run.stdout
    assert record.exists()
    spied = [json.loads(line) for line in log.read_text().splitlines()]
    assert [entry["event"] for entry in spied] == ["start", "over"]
    # The bot is told a match id, never the seed: with it, it could rebuild every hand.
    match_id = str(spied[0]["match_id"])
    assert str(seed) not in match_id
    assert match_id == spied[1]["match_id"]
    assert spied[1]["record_bytes"] > 0  # published once the match is over


def test_an_unseeded_match_draws_an_unguessable_seed() -> None:
    run = arena_match("--bot", "a=random", "--bot", "b=random")
    assert run.returncode == 0, run.stderr
    seed = int(run.stdout.split("(seed ", 1)[1].split(")", 1)[0])
    assert seed.bit_length() > 32


def test_bad_match_options_fail_clearly() -> None:
    one = run_arena("match", "--bot", "a=random")
    assert one.returncode == 2
    assert "arena match:" in one.stderr
    assert "Traceback" not in one.stderr
    zero = run_arena("match", "--bot", "a=random", "--bot", "b=random", "--deadline-ms", "0")
    assert zero.returncode == 2
    assert "--deadline-ms 0 must be positive" in zero.stderr


def test_replay_of_a_missing_record_file_says_which_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "match.jsonl.gz"
    run = subprocess.run(
        [sys.executable, "-m", "arena.cli", "replay", str(missing)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert f"no record file {missing}" in run.stderr
    assert not (tmp_path / "arena-data").exists()  # no database was created on the way


@pytest.mark.slow
def test_a_record_path_that_cannot_be_written_is_refused_before_the_match(
    tmp_path: Path,
) -> None:
    (tmp_path / "a-file").write_text("")
    for bad, why in (
        (tmp_path, "is a directory"),
        (tmp_path / "a-file" / "match.jsonl.gz", "is a file, not a directory"),
    ):
        run = arena_match("--bot", "a=random", "--bot", "b=random", "--record", str(bad))
        assert run.returncode == 2, run.stdout
        assert why in run.stderr
        assert "Traceback" not in run.stderr
        assert "decisions" not in run.stdout  # refused before playing
    # Missing folders are made.
    nested = tmp_path / "new" / "folder" / "m.jsonl.gz"
    assert (
        arena_match("--bot", "a=random", "--bot", "b=random", "--record", str(nested)).returncode
        == 0
    )
    assert nested.exists()


@pytest.mark.slow
def test_negative_limits_and_a_zero_check_deadline_are_refused() -> None:
    for option in ("--time-bank-ms", "--max-strikes"):
        run = arena_match("--bot", "a=random", "--bot", "b=random", option, "-1")
        assert run.returncode == 2
        assert f"{option} -1 must not be negative" in run.stderr
    check = check_bot("127.0.0.1:9", "--deadline-ms", "0")
    assert check.returncode == 2
    assert "--deadline-ms 0 must be positive" in check.stderr


@pytest.mark.slow
def test_grpc_core_info_lines_stay_out_of_the_arena_commands_output() -> None:
    # A TLS handshake with a plaintext bot makes gRPC's core log INFO lines
    # ("Handshake failed ...") unless the arena sets GRPC_VERBOSITY (arena/cli).
    with running([sys.executable, "sample_bots/random_bot.py"]) as endpoint:
        run = check_bot(f"tls://{endpoint}", "--games", "1")
    assert run.returncode == 1
    assert "FAIL  Hello" in run.stdout
    assert "Handshake failed" not in run.stderr


@pytest.mark.slow
def test_a_bot_is_seated_only_at_tables_it_declares(tmp_path: Path) -> None:
    log = tmp_path / "spy.jsonl"
    with running([*SPY, "--log", str(log), "--players", "4"]) as endpoint:
        refused = arena_match("--bot", f"spy={endpoint}", "--bot", "random")
        checked = check_bot(endpoint, "--games", "3")
    assert refused.returncode == 2
    assert "cannot take a seat here: it plays tables of [4] players, not 2" in refused.stderr
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.strip().endswith("PASS")
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    sizes = {e["players"] for e in entries if e["event"] == "start"}
    assert sizes == {4}  # the check played only the 4-player tables


def test_check_bot_folds_the_faults_of_a_broken_stream() -> None:
    with running([sys.executable, "tests/bots/error_bot.py", "--after", "2"]) as endpoint:
        run = check_bot(endpoint, "--games", "3")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    for game in (1, 2, 3):  # each game's first cause stays in view ...
        assert any(line.startswith(f"FAIL  game {game}: ERROR") for line in lines), run.stdout
        # ... and its stream-closed faults take one line
        folded = [line for line in lines if line.startswith(f"FAIL  game {game}: ") and
                  "later decision(s) DISCONNECTED" in line]  # fmt: skip
        assert len(folded) == 1, run.stdout
    assert "the stream is closed (" not in run.stdout


@pytest.mark.slow
def test_an_endpoint_host_is_never_read_as_another_uri_scheme() -> None:
    # "unix-abstract:PORT" is a valid HOST:PORT, but gRPC reads such a target as the
    # abstract Unix socket named PORT unless the arena asks for the DNS resolver. A bot
    # listens on that socket here: the arena must not reach it.
    name = str(random.SystemRandom().randrange(10_000, 65_536))

    async def main() -> CheckReport:
        server, _ = await create_server(
            RandomPolicy, info=BotInfo(name="abstract"), address=f"unix-abstract:{name}"
        )
        try:
            # Not reached, the name is looked up in DNS, which here never answers: the
            # Hello's timeout ends it. Reached, it would answer within milliseconds (a
            # loaded machine cannot make this test fail wrongly: a slow answer would only
            # hide the fault).
            return await arena_check_bot(
                get_game("abluxxen"), f"unix-abstract:{name}", 1, 1000, 1, hello_timeout_s=3
            )
        finally:
            await server.stop(None)

    report = asyncio.run(main())
    assert report.hello_error, "the arena reached a Unix socket through a HOST:PORT"
    assert report.games == 0
