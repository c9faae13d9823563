"""The Ray actor's stream: the head's connection must present the token before a byte
of it is unpickled, one connection is served, and it plays jobs like a worker process.
Plain asyncio on loopback: the actor's class needs no Ray for this."""

from __future__ import annotations

import asyncio
import pickle
import socket
from typing import Any

import pytest

from arena.league.executors import frames
from arena.league.executors.base import ExecutorReport
from arena.league.executors.ray_actor import RayMatchWorker

TOKEN = b"t" * 32
UNPICKLED: list[str] = []


def _mark(what: str) -> str:
    UNPICKLED.append(what)
    return what


class _Trap:
    """Unpickling it runs code: what a stranger's frame would do if it were read."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_mark, ("a stranger's frame was unpickled",))


class _EchoReferee:
    async def start(self) -> str | None:
        return None

    async def play(self, job: Any, live: Any = None) -> Any:
        return ("played", job)

    def report(self) -> ExecutorReport:
        return ExecutorReport(replayed=7)

    async def stop(self) -> None:
        return None


class _EchoRecipe:
    def build(self) -> _EchoReferee:
        return _EchoReferee()


async def _talk(port: int, first: bytes, *messages: Any) -> list[Any]:
    """Connect, send ``first`` raw and then ``messages`` as frames; every frame
    answered until the actor closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(first)
    for message in messages:
        writer.write(frames.encode(message))
    await writer.drain()
    answers = []
    while (answer := await frames.read(reader)) is not None:
        answers.append(answer)
    writer.close()
    return answers


async def _listening() -> tuple[RayMatchWorker, int]:
    actor = RayMatchWorker()
    host, port = await actor.listen_on("127.0.0.1", TOKEN)
    assert host == "127.0.0.1"
    return actor, port


def test_a_connection_without_the_token_is_closed_unread() -> None:
    UNPICKLED.clear()

    async def scenario() -> None:
        actor, port = await _listening()
        wrong = b"x" * len(TOKEN)
        assert await _talk(port, wrong, _Trap(), ("start", _EchoRecipe())) == []
        short = TOKEN[:5]  # then silence: closed at the token's timeout, or on EOF
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(short)
        writer.write_eof()
        assert await reader.read() == b""
        writer.close()
        # The listener is still there for the head, which then plays as usual.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(TOKEN + frames.encode(("start", _EchoRecipe())))
        writer.write(frames.encode(("play", 1, "t1", False)))
        assert await frames.read(reader) == ("started", None)
        assert await frames.read(reader) == ("done", 1, ("played", "t1"))
        writer.write(frames.encode(("stop",)))
        stopped = await frames.read(reader)
        assert stopped[0] == "stopped"
        assert stopped[1].replayed == 7
        assert await frames.read(reader) is None  # and the actor closes the connection
        writer.close()
        await asyncio.wait_for(actor.serve(), 5)  # the head's wait on the actor ends

    asyncio.run(scenario())
    assert UNPICKLED == []


def test_only_the_first_head_is_served() -> None:
    async def scenario() -> None:
        actor, port = await _listening()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(TOKEN + frames.encode(("start", _EchoRecipe())))
        assert await frames.read(reader) == ("started", None)
        # A second connection, even with the token, finds nobody listening.
        with pytest.raises(ConnectionError):
            await _talk(port, TOKEN, ("stop",))
        writer.write(frames.encode(("stop",)))
        assert (await frames.read(reader))[0] == "stopped"
        writer.close()
        await asyncio.wait_for(actor.serve(), 5)

    asyncio.run(scenario())


def test_a_token_too_short_to_keep_strangers_out_is_refused() -> None:
    async def scenario() -> None:
        with pytest.raises(ValueError, match="16 bytes"):
            await RayMatchWorker().listen_on("127.0.0.1", b"short")

    asyncio.run(scenario())


def test_the_trap_would_be_caught() -> None:
    """The trap works: unpickled, it leaves its mark (so the tests above can fail)."""
    UNPICKLED.clear()
    pickle.loads(pickle.dumps(_Trap()))
    assert UNPICKLED == ["a stranger's frame was unpickled"]


class _Method:
    """An actor method as the head calls it: ``.remote(*args)`` gives an awaitable."""

    def __init__(self, result: Any) -> None:
        self.result = result

    def remote(self, *args: Any) -> Any:
        async def answer() -> Any:
            if isinstance(self.result, BaseException):
                raise self.result
            return self.result

        return answer()


class _UnreachableActor:
    """An actor that says it listens where nothing does (a node the head cannot reach)."""

    def __init__(self, port: int) -> None:
        self.pid = _Method(4242)
        self.listen = _Method(("127.0.0.1", port))
        self.serve = _Method(None)


class _FakeRay:
    class exceptions:  # noqa: N801 (the shape of ray.exceptions)
        class RayActorError(Exception):
            pass

    def kill(self, actor: Any, no_restart: bool = True) -> None:
        return None


def test_a_worker_the_head_cannot_reach_is_refused_with_what_to_do() -> None:
    from arena.league.executors.base import ExecutorError
    from arena.league.executors.ray_pool import RayWorker

    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario() -> str:
        worker = RayWorker("1", _FakeRay(), _UnreachableActor(port))
        try:
            await worker.start(_EchoRecipe())
        except ExecutorError as error:
            return str(error)
        finally:
            await worker.kill()
        return ""

    message = asyncio.run(scenario())
    assert message.startswith(f"worker 1 listens at 127.0.0.1:{port}, which this head cannot reach")
    assert "the head must reach every node of the cluster" in message
