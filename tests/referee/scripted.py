"""A virtual clock and a scripted transport for tests of time-dependent referee logic:
no sockets, no sleeping, no wall clock.

- ``run_virtual(main)`` runs a coroutine on an event loop whose clock is virtual: when
  nothing is ready to run, the clock jumps to the next timer, so ``asyncio.sleep(300)``
  takes no time and a deadline is met or missed exactly. ``stall(s)`` (called from a
  callback or a task) holds the loop for ``s`` of its time without letting anything else
  run: what a busy arena's loop does to its timers and its readers.
- ``ScriptedChannel(play)`` stands in for a ``grpc.aio.Channel`` to a bot: its
  ``stream_stream`` calls run the bot's Play handler in-process (``play(requests,
  context)``, an async generator of reply bytes, e.g. ``FaultyBot.play``), with the
  grpc.aio behaviour the referee relies on: replies before the status, EOF on status
  OK, AioRpcError otherwise, CancelledError after ``cancel()``, InvalidStateError on a
  write to a finished call, done callbacks with the status, the receive cap
  (RESOURCE_EXHAUSTED with grpc's words), and flow control (a write waits while the bot
  has not read more than a window's worth; a reply waits while the arena has not).

The clock is the one the referee uses (``loop.time()``), so the referee's deadlines,
its lag watch and the bots' sleeps all run on it.
"""

from __future__ import annotations

import asyncio
import selectors
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import grpc

from arena.referee.channels import MAX_RECEIVE_BYTES
from arena.v1 import bot_pb2

T = TypeVar("T")

WINDOW_BYTES = 64 << 10
"""The flow-control window of each direction of a scripted stream (gRPC's default)."""


class _VirtualSelector(selectors.DefaultSelector):
    """Polls the real selector without waiting; a wait for a timer advances the virtual
    clock instead."""

    def __init__(self) -> None:
        super().__init__()
        self.loop: VirtualLoop | None = None

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready or timeout is None or timeout <= 0:
            if not ready and timeout is None:
                # Nothing scheduled: only another thread could wake the loop.
                return super().select(None)
            return ready
        assert self.loop is not None
        self.loop.advance(timeout)
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a virtual clock (see the module)."""

    def __init__(self) -> None:
        selector = _VirtualSelector()
        super().__init__(selector)
        selector.loop = self
        self._now = 1000.0

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self._now += seconds


def run_virtual(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on a fresh VirtualLoop."""
    with asyncio.Runner(loop_factory=VirtualLoop) as runner:
        return runner.run(main)


def stall(seconds: float) -> None:
    """Hold the running (virtual) loop for ``seconds``: nothing else runs meanwhile."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop), "stall() needs run_virtual()"
    loop.advance(seconds)


def now() -> float:
    """The running loop's time."""
    return asyncio.get_running_loop().time()


class AbortError(Exception):
    """Raised by ``ScriptedContext.abort``: the handler ends the call with a status."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class ScriptedContext:
    """The handler's side of a call (the parts of grpc.aio.ServicerContext bots use)."""

    def __init__(self, call: ScriptedCall) -> None:
        self._call = call
        self._callbacks: list[Callable[[ScriptedContext], object]] = []

    def add_done_callback(self, callback: Callable[[ScriptedContext], object]) -> None:
        self._callbacks.append(callback)

    async def abort(self, code: grpc.StatusCode, details: str = "") -> None:
        raise AbortError(code, details)

    def cancelled(self) -> bool:
        return self._call.cancelled()

    def _done(self) -> None:
        for callback in self._callbacks:
            callback(self)


Play = Callable[[AsyncIterator[bot_pb2.ArenaMessage], ScriptedContext], AsyncIterator[bytes]]
"""A bot's Play handler: the arena's messages in, serialized replies out."""
Hello = Callable[[bot_pb2.HelloRequest, Any], Awaitable[bot_pb2.HelloReply]]
"""A bot's Hello handler."""


class ScriptedCall:
    """One Play call (the parts of grpc.aio.StreamStreamCall the referee uses)."""

    def __init__(
        self,
        play: Play,
        serialize: Callable[[Any], bytes],
        deserialize: Callable[[bytes], Any],
        receive_cap: int,
        on_write: Callable[[bytes], None] | None = None,
        write_delay_s: float = 0.0,
    ) -> None:
        self._on_write = on_write
        self._write_delay_s = write_delay_s
        self._serialize = serialize
        self._deserialize = deserialize
        self._cap = receive_cap
        self._requests: deque[bytes] = deque()
        self._request_bytes = 0
        self._half_closed = False
        self._replies: deque[bytes] = deque()
        self._reply_bytes = 0
        self._status: tuple[grpc.StatusCode, str] | None = None
        self._cancelled = False
        self._changed = asyncio.Event()
        self._callbacks: list[Callable[[ScriptedCall], object]] = []
        self.context = ScriptedContext(self)
        self.requests_read = 0
        """Messages the handler has taken."""
        self._task = asyncio.get_running_loop().create_task(self._serve(play))

    # ---------------------------------------------------------------- the arena

    async def write(self, message: Any) -> None:
        if self._status is not None:
            raise asyncio.InvalidStateError("RPC already finished.")
        if self._half_closed:
            raise asyncio.InvalidStateError("RPC is half closed after calling done_writing.")
        data = self._serialize(message)
        if self._on_write is not None:
            self._on_write(data)
        if self._write_delay_s:
            await asyncio.sleep(self._write_delay_s)
        self._requests.append(data)
        self._request_bytes += len(data)
        self._poke()
        while self._request_bytes > WINDOW_BYTES and self._status is None:
            await self._wait()
        if self._cancelled:
            raise asyncio.CancelledError()

    async def done_writing(self) -> None:
        if self._status is None:
            self._half_closed = True
            self._poke()

    async def read(self) -> Any:
        while True:
            if self._cancelled:
                raise asyncio.CancelledError()
            if self._replies:
                data = self._replies.popleft()
                self._reply_bytes -= len(data)
                self._poke()
                return self._deserialize(data)
            if self._status is not None:
                code, details = self._status
                if code == grpc.StatusCode.OK:
                    return grpc.aio.EOF
                raise grpc.aio.AioRpcError(
                    code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=details
                )
            await self._wait()

    def cancel(self) -> bool:
        if self._status is not None:
            return False
        self._cancelled = True
        self._task.cancel()
        self._finish(grpc.StatusCode.CANCELLED, "Locally cancelled by application!")
        return True

    def cancelled(self) -> bool:
        return self._cancelled

    def done(self) -> bool:
        return self._status is not None

    def add_done_callback(self, callback: Callable[[ScriptedCall], object]) -> None:
        if self._status is not None:
            callback(self)
        else:
            self._callbacks.append(callback)

    async def code(self) -> grpc.StatusCode:
        while self._status is None:
            await self._wait()
        return self._status[0]

    async def details(self) -> str:
        while self._status is None:
            await self._wait()
        return self._status[1]

    # ------------------------------------------------------------------ the bot

    async def _incoming(self) -> AsyncIterator[bot_pb2.ArenaMessage]:
        while True:
            if self._requests:
                data = self._requests.popleft()
                self._request_bytes -= len(data)
                self.requests_read += 1
                self._poke()
                yield bot_pb2.ArenaMessage.FromString(data)
            elif self._half_closed:
                return
            else:
                await self._wait()

    async def _serve(self, play: Play) -> None:
        try:
            async for data in play(self._incoming(), self.context):
                if len(data) > self._cap:
                    self._finish(
                        grpc.StatusCode.RESOURCE_EXHAUSTED,
                        f"CLIENT: Received message larger than max ({len(data)} vs. {self._cap})",
                    )
                    return
                self._replies.append(data)
                self._reply_bytes += len(data)
                self._poke()
                await asyncio.sleep(0)  # a reply costs the bot a loop turn, as a send does
                while self._reply_bytes > WINDOW_BYTES and self._status is None:
                    await self._wait()
                if self._status is not None:
                    return
        except AbortError as abort:
            self._finish(abort.code, abort.details)
        except asyncio.CancelledError:
            pass
        except Exception as error:  # a bug in the bot: grpc's words
            self._finish(grpc.StatusCode.UNKNOWN, f"Unexpected error in RPC handling: {error}")
        else:
            self._finish(grpc.StatusCode.OK, "")

    # ----------------------------------------------------------------- plumbing

    def _finish(self, code: grpc.StatusCode, details: str) -> None:
        if self._status is not None:
            return
        self._status = (code, details)
        self._poke()
        for callback in self._callbacks:
            callback(self)
        self.context._done()

    def _poke(self) -> None:
        self._changed.set()

    async def _wait(self) -> None:
        self._changed.clear()
        await self._changed.wait()


class ScriptedChannel:
    """Stands in for a grpc.aio.Channel to one bot (see the module); ``hello`` answers
    Hello (None: the bot does not implement it)."""

    def __init__(
        self, play: Play, *, hello: Hello | None = None, receive_cap: int = MAX_RECEIVE_BYTES
    ) -> None:
        self._play = play
        self._hello = hello
        self._cap = receive_cap
        self.calls: list[ScriptedCall] = []
        self.on_write: Callable[[bytes], None] | None = None
        """Called with the bytes of each message the arena writes, as it writes it
        (e.g. to ``stall`` the loop there)."""
        self.write_delay_s = 0.0
        """How long each write takes to complete (the loop runs meanwhile): a transport
        slow to take the arena's messages."""

    def stream_stream(
        self,
        method: str,
        request_serializer: Callable[[Any], bytes],
        response_deserializer: Callable[[bytes], Any],
        **_options: object,
    ) -> Callable[..., ScriptedCall]:
        assert method == "/arena.v1.Bot/Play", method

        def start(**_options: object) -> ScriptedCall:
            call = ScriptedCall(
                self._play,
                request_serializer,
                response_deserializer,
                self._cap,
                self.on_write,
                self.write_delay_s,
            )
            self.calls.append(call)
            return call

        return start

    def unary_unary(
        self,
        method: str,
        request_serializer: Callable[[Any], bytes],
        response_deserializer: Callable[[bytes], Any],
        **_options: object,
    ) -> Callable[..., Awaitable[Any]]:
        assert method == "/arena.v1.Bot/Hello", method

        async def call(request: bot_pb2.HelloRequest, **_call_options: object) -> Any:
            if self._hello is None:
                raise grpc.aio.AioRpcError(
                    grpc.StatusCode.UNIMPLEMENTED,
                    grpc.aio.Metadata(),
                    grpc.aio.Metadata(),
                    details="Method not found!",
                )
            request = bot_pb2.HelloRequest.FromString(request_serializer(request))
            reply = await self._hello(request, None)
            return response_deserializer(reply.SerializeToString())

        return call

    def get_state(self, try_to_connect: bool = False) -> grpc.ChannelConnectivity:
        """Connected (a scripted bot is always there)."""
        return grpc.ChannelConnectivity.READY

    async def close(self, grace: float | None = None) -> None:
        """Cancel the calls still open (as closing a channel does)."""
        for call in self.calls:
            call.cancel()
