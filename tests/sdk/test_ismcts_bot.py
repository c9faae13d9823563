"""The ISMCTS sample bot served as a process plays a whole match refereed by the arena
(`arena match`), with its budget flags, and never faults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sdk_support import REPO, bot_process, python_bot

from arena.referee.record import read_record


@pytest.mark.slow
def test_the_served_ismcts_bot_plays_a_whole_match_against_greedy(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl.gz"
    # A small budget and no time limit: the bot's choices depend on the match only. The
    # deadline is generous so that a busy machine cannot turn slowness into a fault.
    command = python_bot("sample_bots/ismcts_bot.py", "--iterations", "12", "--time-limit-ms", "0")
    with bot_process(command) as bot:
        run = subprocess.run(
            [sys.executable, "-m", "arena.cli", "match",
             "--bot", f"ismcts=127.0.0.1:{bot.port}", "--bot", "g1=greedy", "--bot", "g2=greedy",
             "--seed", "5", "--deadline-ms", "60000", "--record", str(record)],
            cwd=REPO, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    assert run.returncode == 0, run.stderr
    seat_line = next(line for line in run.stdout.splitlines() if " ismcts " in line)
    assert "timeouts=0 errors=0 invalid=0" in seat_line
    decisions = [line for line in read_record(record) if line["type"] == "decision"]
    mine = [line for line in decisions if line["seat"] == 0]
    assert len(mine) >= 10
    assert not [line for line in mine if "fault" in line or "fallback" in line]


def test_bad_budget_flags_are_refused_in_plain_words() -> None:
    for flags, words in (
        (["--iterations", "0"], "--iterations 0 must be at least 1"),
        (["--time-limit-ms", "-5"], "--time-limit-ms -5 cannot be negative"),
    ):
        run = subprocess.run(
            [sys.executable, "sample_bots/ismcts_bot.py", *flags],
            cwd=REPO, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert run.returncode == 2
        assert words in run.stderr
        assert "Traceback" not in run.stderr
