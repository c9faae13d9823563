"""The bots of tests/bots misbehave exactly as tests/bots/README.md says (the referee's
fault tests rely on it). Each runs as a process, as the referee will run it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import pytest
from sdk_support import REPO, BotProcess, Table, async_stub, bot_process, python_bot, start_message

from arena.games import abluxxen as ab
from arena.games.abluxxen.wire import action_from_proto
from arena.v1 import bot_pb2

READ_TIMEOUT_S = 10.0
Check = Callable[[Any, BotProcess], Awaitable[None]]
CHECKS: dict[str, tuple[tuple[str, ...], Check]] = {}
"""Per bot script: its extra arguments and its check."""


def check(name: str, *args: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[name] = (args, fn)
        return fn

    return register


async def begin(stub: Any, seed: int = 1) -> tuple[Any, Table]:
    """A Play call with MatchStart sent, and the table whose seat 0 it plays."""
    table = Table(seed=seed, seat=0)
    call = stub.Play()
    await call.write(start_message("m", 0, table.config))
    return call, table


async def ask(call: Any, table: Table) -> tuple[bot_pb2.ArenaMessage, Any]:
    """Send the next decision of the table's seat; the reply (or EOF)."""
    assert table.advance()
    request = table.request()
    await call.write(request)
    return request, await asyncio.wait_for(call.read(), READ_TIMEOUT_S)


async def answer_correctly(call: Any, table: Table, decisions: int) -> None:
    for _ in range(decisions):
        request, reply = await ask(call, table)
        table.apply_reply(request, reply)


@check("sleepy_bot.py", "--sleep-ms", "300")
async def check_sleepy(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    for _ in range(2):
        started = time.monotonic()
        request, reply = await ask(call, table)
        assert time.monotonic() - started >= 0.3
        table.apply_reply(request, reply)  # late, but right
    call.cancel()


@check("hang_bot.py")
async def check_hang(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    assert table.advance()
    await call.write(table.request())
    reply = asyncio.ensure_future(call.read())
    await asyncio.sleep(0.5)
    assert not reply.done()  # no answer ...
    await call.done_writing()
    await asyncio.sleep(0.5)
    assert not reply.done()  # ... and not even the half-close ends the call
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reply


@check("crash_bot.py", "--after", "2")
async def check_crash(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    await answer_correctly(call, table, 2)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await ask(call, table)
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    assert bot.proc.wait(timeout=10) == 1


@check("close_bot.py", "--after", "2")
async def check_close(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    await answer_correctly(call, table, 2)
    _, reply = await ask(call, table)
    assert reply is grpc.aio.EOF
    assert await call.code() == grpc.StatusCode.OK
    assert bot.proc.poll() is None  # the process serves on


@check("error_bot.py", "--after", "2")
async def check_error(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    await answer_correctly(call, table, 2)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await ask(call, table)
    assert error.value.code() == grpc.StatusCode.INTERNAL
    assert "deliberate failure" in (error.value.details() or "")


@check("garbage_bot.py")
async def check_garbage(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    for turn in range(6):
        request, reply = await ask(call, table)
        assert reply.request_id == request.decide.request_id
        garbage = turn % 3
        if garbage == 0:
            assert reply.WhichOneof("choice") is None
        elif garbage == 1:
            assert reply.legal_index == len(request.decide.abluxxen.legal)
        else:
            with pytest.raises(ab.MalformedActionError):
                action_from_proto(reply.abluxxen)
        table.fallback()
    call.cancel()


@check("illegal_bot.py")
async def check_illegal(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub, seed=3)
    kinds = set()
    for _ in range(40):
        if table.state.is_over:
            break
        request, reply = await ask(call, table)
        assert reply.request_id == request.decide.request_id
        assert reply.WhichOneof("choice") == "abluxxen"
        action = action_from_proto(reply.abluxxen)  # well formed ...
        with pytest.raises(ab.IllegalActionError):  # ... and illegal
            ab.apply(table.state.clone(), action, table.seat)
        kinds.add(table.state.kind)
        table.fallback()
    assert {ab.DecisionKind.PLAY, ab.DecisionKind.OPTIONAL_DRAW} <= kinds
    call.cancel()


@check("three_seat_bot.py")
async def check_three_seat(stub: Any, bot: BotProcess) -> None:
    hello = await stub.Hello(bot_pb2.HelloRequest(), timeout=10)
    assert list(hello.presets) == ["amigo"]
    assert not hello.players  # every table size
    call, table = await begin(stub)  # four seats: right answers
    await answer_correctly(call, table, 3)
    call.cancel()
    table = Table(seed=2, seat=0, players=3)
    call = stub.Play()
    await call.write(start_message("m3", 0, table.config))
    for _ in range(3):  # three seats: a well-formed action no rule allows
        _, reply = await ask(call, table)
        with pytest.raises(ab.IllegalActionError):
            ab.apply(table.state.clone(), action_from_proto(reply.abluxxen), table.seat)
        table.fallback()
    call.cancel()


@check("oversized_bot.py")
async def check_oversized(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    request, reply = await ask(call, table)
    assert reply.ByteSize() > 2 * 1024 * 1024
    table.apply_reply(request, reply)  # otherwise a right answer
    call.cancel()


@check("wrong_id_bot.py")
async def check_wrong_id(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    for _ in range(2):
        request, reply = await ask(call, table)
        assert reply.request_id == request.decide.request_id + 1000
        assert 0 <= reply.legal_index < len(request.decide.abluxxen.legal)
        table.fallback()
    call.cancel()


@check("slow_start_bot.py", "--delay-ms", "1000")
async def check_slow_start(stub: Any, bot: BotProcess) -> None:
    call, table = await begin(stub)
    await answer_correctly(call, table, 1)
    call.cancel()


BOTS = sorted(p.name for p in (REPO / "tests" / "bots").glob("*_bot.py"))


def test_every_bot_has_a_check_and_a_readme_line() -> None:
    assert sorted(CHECKS) == BOTS
    readme = (REPO / "tests" / "bots" / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in BOTS)


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.slow
def test_bot_misbehaves_as_documented(name: str) -> None:
    args, fn = CHECKS[name]

    async def main(bot: BotProcess) -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{bot.port}") as channel:
            stub = async_stub(channel)
            hello = await stub.Hello(bot_pb2.HelloRequest(), timeout=10)
            assert hello.version == "test"
            await fn(stub, bot)

    started = time.monotonic()
    with bot_process(python_bot(f"tests/bots/{name}", *args)) as bot:
        if name == "slow_start_bot.py":
            assert time.monotonic() - started >= 1.0
        asyncio.run(main(bot))
