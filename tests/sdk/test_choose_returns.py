"""A ``choose`` that returns no engine Action (None, an index, an action code …) ends the
stream with INTERNAL and a message naming what it returned and what is expected, on both
ends: the arena's ERROR fault and one line on the bot's stderr, no SDK traceback."""

from __future__ import annotations

import asyncio
import logging
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path

import grpc
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
from arena.sdk.servicer import QUICK_STREAK

READ_TIMEOUT_S = 10.0
EXPECTED = "it must return one of obs.legal (an action of Abluxxen)"

Returns = Callable[[ab.Observation], object]


def spy_factory(returns: Returns) -> Callable[[], object]:
    class SpyPolicy:
        def choose(self, obs: ab.Observation) -> ab.Action:
            return returns(obs)  # type: ignore[return-value]

    return SpyPolicy


RETURNS: dict[str, tuple[Returns, str]] = {
    "none": (lambda obs: None, "None (NoneType)"),
    "index": (lambda obs: len(obs.legal) - 1, "{last} (int)"),
    "code": (lambda obs: obs.legal[0].code, "{code} (int)"),
    "text": (lambda obs: str(obs.legal[0]), "{text!r} (str)"),
}


@pytest.mark.parametrize("name", sorted(RETURNS))
def test_a_non_action_ends_the_stream_with_internal_naming_it(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    returns, shown = RETURNS[name]
    table = Table(seed=2)
    assert table.advance()
    obs = ab.observe(table.state, table.seat)
    shown = shown.format(last=len(obs.legal) - 1, code=obs.legal[0].code, text=str(obs.legal[0]))

    async def main() -> None:
        async with served(spy_factory(returns)) as (channel, _):  # type: ignore[arg-type]
            call = async_stub(channel).Play()
            await call.write(start_message("m", table.seat, table.config))
            await call.write(table.request())
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await asyncio.wait_for(call.read(), READ_TIMEOUT_S)
            assert error.value.code() == grpc.StatusCode.INTERNAL
            assert error.value.details() == f"SpyPolicy.choose returned {shown}; {EXPECTED}"

    with caplog.at_level(logging.INFO, logger="arena.sdk"):
        asyncio.run(main())
    records = [r for r in caplog.records if r.name == "arena.sdk"]
    assert [r.getMessage() for r in records] == [f"SpyPolicy.choose returned {shown}; {EXPECTED}"]
    assert records[0].levelno == logging.ERROR
    assert records[0].exc_info is None  # the bot's own mistake: no SDK traceback


def test_a_non_action_is_caught_on_the_event_loop_too() -> None:
    # After QUICK_STREAK quick decisions a match's decisions run inline, not in the
    # worker thread: the check holds there as well.
    table = Table(seed=2)

    class LaterNone:
        def __init__(self) -> None:
            self.threads: list[str] = []

        def choose(self, obs: ab.Observation) -> ab.Action:
            self.threads.append(threading.current_thread().name)
            if len(self.threads) > QUICK_STREAK + 1:
                return None  # type: ignore[return-value]
            return obs.legal[0]

    made: list[LaterNone] = []

    def factory() -> LaterNone:
        made.append(LaterNone())
        return made[-1]

    async def main() -> None:
        async with served(factory) as (channel, _):
            call = async_stub(channel).Play()
            await call.write(start_message("m", table.seat, table.config))
            for _ in range(QUICK_STREAK + 1):
                assert table.advance()
                request = table.request()
                await call.write(request)
                table.apply_reply(request, await asyncio.wait_for(call.read(), READ_TIMEOUT_S))
            assert table.advance()
            await call.write(table.request())
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await asyncio.wait_for(call.read(), READ_TIMEOUT_S)
            assert error.value.code() == grpc.StatusCode.INTERNAL
            assert error.value.details() == f"LaterNone.choose returned None (NoneType); {EXPECTED}"

    asyncio.run(main())
    assert made[0].threads[-1] == threading.main_thread().name  # it ran inline


def test_an_action_outside_the_legal_list_is_still_answered() -> None:
    # Only the type is checked: an Action that is not legal is spelled out, the arena
    # judges it.
    table = Table(seed=2)

    class Illegal:
        def choose(self, obs: ab.Observation) -> ab.Action:
            return ab.play(13, 8, 0)

    async def main() -> None:
        async with served(Illegal) as (channel, _):
            call = async_stub(channel).Play()
            await call.write(start_message("m", table.seat, table.config))
            assert table.advance()
            await call.write(table.request())
            reply = await asyncio.wait_for(call.read(), READ_TIMEOUT_S)
            assert reply.WhichOneof("choice") == "abluxxen"
            assert reply.abluxxen.code == ab.play(13, 8, 0).code
            call.cancel()

    asyncio.run(main())


NONE_BOT = """
    from arena.sdk import BotInfo, run_bot


    class Buggy:
        def choose(self, obs):
            obs.legal[0]  # forgot the return


    run_bot(Buggy, info=BotInfo(name="buggy", version="test"))
"""


@pytest.mark.slow
def test_the_arena_records_an_error_and_the_bot_logs_one_line(tmp_path: Path) -> None:
    script = tmp_path / "buggy_bot.py"
    script.write_text(textwrap.dedent(NONE_BOT))
    message = f"Buggy.choose returned None (NoneType); {EXPECTED}"

    async def match(port: int) -> list[tuple[FaultKind, str]]:
        pool = ChannelPool()
        try:
            seats: list[Seat] = [
                RemoteSeat("bot", pool.get(f"127.0.0.1:{port}"), max_reply_bytes=4096),
                LocalSeat("r1", RandomPolicy(1)),
            ]
            spec = MatchSpec(
                match_id="m",
                config=ab.make_config(2, "amigo"),
                seed=4,
                deadline_ms=2000,
                max_strikes=0,
                connect_timeout_s=5.0,
            )
            outcome = await run_match(spec, seats)
        finally:
            await pool.close()
        return [(f.kind, f.detail) for f in outcome.seats[0].faults]

    with bot_process(python_bot(str(script))) as bot:
        faults = asyncio.run(match(bot.port))
        stderr = stop_for_stderr(bot.proc)
    assert faults[0] == (FaultKind.ERROR, f"INTERNAL: {message}")
    assert message in stderr
    assert "Traceback" not in stderr
    assert stderr.count(message) == 1
