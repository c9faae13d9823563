"""A decision that takes longer than its deadline_ms (from the request's receipt to the
reply's write) leaves one warning line in the bot's own log; a quick one leaves none."""

from __future__ import annotations

import asyncio
import logging
import re
import textwrap
import time
from pathlib import Path

import pytest
from sdk_support import (
    Table,
    async_stub,
    bot_process,
    python_bot,
    served,
    start_message,
    stop_for_stderr,
)

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.request_ids import TAG_BITS

READ_TIMEOUT_S = 10.0
LATE = re.compile(
    r"decision (?P<n>\d+) \(request (?P<id>\d+)\) of match (?P<match>\S+) took (?P<took>\d+) ms; "
    r"its deadline was (?P<deadline>\d+) ms \(\+(?P<bank>\d+) ms bank\): (?P<what>.+)$"
)
FALLBACK = "the arena has played the fallback (a TIMEOUT fault)"
BANK = "the overrun came out of the time bank"


class Sleepy(RandomPolicy):
    """Random play, ``SLEEP_S`` late on every decision."""

    SLEEP_S = 0.25

    def __init__(self) -> None:
        super().__init__(seed=1)

    def choose(self, obs: ab.Observation) -> ab.Action:
        time.sleep(self.SLEEP_S)
        action: ab.Action = super().choose(obs)
        return action


def decide_once(
    factory: type[RandomPolicy], deadline_ms: int, bank_ms: int, caplog: pytest.LogCaptureFixture
) -> list[str]:
    """One decision with these limits over a Play stream; the SDK's log lines."""
    table = Table(seed=6)

    async def main() -> None:
        async with served(factory) as (channel, _):
            call = async_stub(channel).Play()
            await call.write(start_message("m7", table.seat, table.config))
            assert table.advance()
            request = table.request()
            request.decide.deadline_ms = deadline_ms
            request.decide.time_bank_ms = bank_ms
            await call.write(request)
            reply = await asyncio.wait_for(call.read(), READ_TIMEOUT_S)
            assert reply.request_id == request.decide.request_id
            await call.done_writing()
            await asyncio.wait_for(call.read(), READ_TIMEOUT_S)

    with caplog.at_level(logging.INFO, logger="arena.sdk"):
        asyncio.run(main())
    return [r.getMessage() for r in caplog.records if r.name == "arena.sdk"]


def test_a_decision_past_its_deadline_logs_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    lines = decide_once(Sleepy, 100, 0, caplog)
    assert len(lines) == 1, lines
    late = LATE.match(lines[0])
    assert late, lines[0]
    assert (late["n"], late["id"], late["match"]) == ("1", "1", "m7")
    assert 250 <= int(late["took"]) < 2000
    assert (late["deadline"], late["bank"], late["what"]) == ("100", "0", FALLBACK)
    assert caplog.records[-1].levelno == logging.WARNING


def test_an_overrun_within_the_time_bank_says_so(caplog: pytest.LogCaptureFixture) -> None:
    lines = decide_once(Sleepy, 100, 5000, caplog)
    assert len(lines) == 1, lines
    late = LATE.match(lines[0])
    assert late, lines[0]
    assert (late["deadline"], late["bank"], late["what"]) == ("100", "5000", BANK)


def test_a_decision_within_its_deadline_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    assert decide_once(RandomPolicy, 2000, 0, caplog) == []


SLOW_BOT = """
    import time

    from arena.policies import RandomPolicy
    from arena.sdk import BotInfo, run_bot


    class SlowStarter(RandomPolicy):
        \"\"\"Sleeps past the deadline on its first two decisions only.\"\"\"

        def __init__(self):
            super().__init__(seed=1)
            self.decisions = 0

        def choose(self, obs):
            self.decisions += 1
            if self.decisions <= 2:
                time.sleep(0.4)
            action: ab.Action = super().choose(obs)
            return action


    run_bot(SlowStarter, info=BotInfo(name="slow-starter", version="test"))
"""


@pytest.mark.slow
def test_a_real_match_leaves_one_line_per_late_decision_on_stderr(tmp_path: Path) -> None:
    script = tmp_path / "slow_starter_bot.py"
    script.write_text(textwrap.dedent(SLOW_BOT))

    async def match(port: int) -> tuple[set[int], set[int]]:
        pool = ChannelPool()
        try:
            seats: list[Seat] = [
                RemoteSeat("bot", pool.get(f"127.0.0.1:{port}"), max_reply_bytes=4096),
                LocalSeat("r1", RandomPolicy(1)),
            ]
            spec = MatchSpec(
                match_id="slow-1",
                config=ab.make_config(2, "amigo"),
                seed=4,
                deadline_ms=150,
                max_strikes=0,
                connect_timeout_s=5.0,
            )
            outcome = await run_match(spec, seats)
        finally:
            await pool.close()
        faults = outcome.seats[0].faults
        assert {f.kind for f in faults} <= {FaultKind.TIMEOUT}
        # Decisions during which the arena itself lagged: the bot is credited with the
        # lag (seats.py), so a slow answer may then count as on time or as the arena's.
        lagged = {
            int(line["n"])
            for line in outcome.record
            if line["type"] == "decision"
            and ("lag_ms" in line or line.get("fallback") == "arena_lag")
        }
        return {f.request_id for f in faults}, lagged

    with bot_process(python_bot(str(script))) as bot:
        timed_out, lagged = asyncio.run(match(bot.port))
        stderr = stop_for_stderr(bot.proc)
    found = [LATE.search(line) for line in stderr.splitlines()]
    late = [m for m in found if m is not None]
    numbers = [m["n"] for m in late]
    # The two slow decisions are logged, each once. (A decision the loaded machine
    # made late too is logged as well: every line is one the bot itself took longer
    # than its deadline for; whether this machine makes others late is not the test.)
    assert {"1", "2"} <= set(numbers), stderr
    assert len(numbers) == len(set(numbers)), stderr
    for m in late:
        assert m["match"] == "slow-1"
        assert int(m["took"]) >= 150
        assert (m["deadline"], m["bank"], m["what"]) == ("150", "0", FALLBACK)
        if m["n"] in ("1", "2"):
            # A TIMEOUT, unless the arena lagged during it (then it is not the bot's).
            # (The bot logs the id it was sent; its high bits are the request's number.)
            assert int(m["id"]) >> TAG_BITS in timed_out | lagged, (timed_out, lagged)
    assert all(" WARNING " in line for line in stderr.splitlines() if LATE.search(line))
