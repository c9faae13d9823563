"""An in-process bot server that misbehaves on purpose, for the referee's fault tests.

It is a real gRPC server on a loopback port; ``mode`` picks the misbehaviour. Faults
start at decision ``after`` (counted per stream), so every stream also shows good play.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import grpc

from arena.v1 import abluxxen_pb2 as pb
from arena.v1 import bot_pb2

MODES = (
    "ok",
    "end_after_start",
    "sleep",
    "hang",
    "close",
    "error",
    "garbage_none",
    "garbage_index",
    "garbage_action",
    "illegal",
    "oversized",
    "huge",
    "wrong_id",
    "early",
    "crossed",
    "late",
    "duplicate",
    "flood",
    "flood_forfeited",
    "abort_exhausted",
    "abort_deadline",
    "no_read",
)

LATE_REPLIES = 4
"""How many late replies mode ``late`` sends per stream: a few, as a slow bot might."""
EARLY_IDS = (1, 1 << 32)
"""The ids mode ``early`` replies with before it reads anything: the first request's
number, and that number where a wire id holds it (``arena.referee.request_ids``)."""


@dataclass
class Behaviour:
    """What the bot does, from which decision on."""

    mode: str = "ok"
    after: int = 0
    sleep_s: float = 0.3
    padding: int = 10_000


def _pad(size: int) -> bytes:
    # An unknown length-delimited field 15: parsers keep it, so it counts in the size.
    body = b"x" * size
    length = bytearray()
    n = len(body)
    while True:
        byte = n & 0x7F
        n >>= 7
        length.append(byte | (0x80 if n else 0))
        if not n:
            break
    return b"\x7a" + bytes(length) + body


class FaultyBot:
    """The servicer; one ``Behaviour`` for every stream."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self._changed = asyncio.Event()
        self.streams = 0
        self.flooded = 0
        """Messages sent in flood modes, past the one answer."""
        self.ended = 0
        """Play calls that are over, however they ended."""
        self.cancelled = 0
        """Play handlers that were cancelled while they waited (mode ``no_read``)."""
        self.ids: dict[int, list[int]] = {}
        """The request ids each stream (by its number, from 1) was sent."""
        self.overs: list[bot_pb2.MatchOver] = []
        """The MatchOver messages received."""
        self.forfeited = asyncio.Event()
        """Set by the test once the bot's seat is forfeited (mode ``flood_forfeited``)."""

    async def until(self, condition: Callable[[], object]) -> None:
        """Wait until ``condition()`` holds (it is checked whenever a counter changes)."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    async def hello(
        self, request: bot_pb2.HelloRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name=f"faulty-{self.behaviour.mode}", games=["abluxxen"])

    async def play(
        self, requests: AsyncIterator[bot_pb2.ArenaMessage], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        self.streams += 1
        stream = self.streams
        self._changed.set()
        context.add_done_callback(self._on_done)
        b = self.behaviour
        decided = 0
        previous = 0  # the id of this stream's previous request (0 before the first)
        if b.mode == "early":
            # Replies written before the bot has read anything, MatchStart included.
            for early in EARLY_IDS:
                yield bot_pb2.BotMessage(request_id=early, legal_index=0).SerializeToString()
        async for message in requests:
            if b.mode == "end_after_start":
                return  # ends the call (status OK) right after MatchStart
            if message.HasField("over"):
                self.overs.append(message.over)
            if not message.HasField("decide"):
                continue
            request = message.decide
            ok = bot_pb2.BotMessage(request_id=request.request_id, legal_index=0)
            decided += 1
            earlier, previous = previous, request.request_id
            others = [ids[-1] for s, ids in self.ids.items() if s != stream and ids]
            self.ids.setdefault(stream, []).append(request.request_id)
            if decided <= b.after or b.mode in ("ok", "early"):
                yield ok.SerializeToString()
                continue
            if b.mode == "sleep":
                await asyncio.sleep(b.sleep_s)
                yield ok.SerializeToString()
            elif b.mode == "late":
                # Answer the previous request late, then this one in time (a few times).
                if earlier and decided <= b.after + LATE_REPLIES:
                    yield bot_pb2.BotMessage(request_id=earlier, legal_index=0).SerializeToString()
                yield ok.SerializeToString()
            elif b.mode == "duplicate":
                # Every answer twice: one stray message per request, for ever.
                yield ok.SerializeToString()
                yield ok.SerializeToString()
            elif b.mode == "flood":
                # Answer, then repeat the answer, padded, for ever.
                yield ok.SerializeToString()
                flood = ok.SerializeToString() + _pad(b.padding)
                while True:
                    self.flooded += 1
                    yield flood
            elif b.mode == "abort_exhausted":
                # The bot's own status (0 ms after the request), not the arena's size cap.
                await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the bot is out of memory")
            elif b.mode == "abort_deadline":
                # The arena sets no gRPC deadline: this status can only be the bot's own.
                await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the bot's own deadline")
            elif b.mode == "no_read":
                # Never reads another message (not even MatchOver) and never ends the call.
                try:
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    self.cancelled += 1
                    self._changed.set()
                    raise
            elif b.mode == "hang":
                await asyncio.Event().wait()
            elif b.mode == "close":
                return
            elif b.mode == "error":
                await context.abort(grpc.StatusCode.INTERNAL, "the bot fell over")
            elif b.mode == "garbage_none":
                yield bot_pb2.BotMessage(request_id=request.request_id).SerializeToString()
            elif b.mode == "garbage_index":
                yield bot_pb2.BotMessage(
                    request_id=request.request_id, legal_index=10_000
                ).SerializeToString()
            elif b.mode == "garbage_action":
                bad = pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_PLAY, value=99, naturals=1)
                yield bot_pb2.BotMessage(
                    request_id=request.request_id, abluxxen=bad
                ).SerializeToString()
            elif b.mode == "illegal":
                # POOL(70) is well formed and never legal.
                bad = pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_POOL, slot=70)
                yield bot_pb2.BotMessage(
                    request_id=request.request_id, abluxxen=bad
                ).SerializeToString()
            elif b.mode in ("oversized", "huge"):
                yield ok.SerializeToString() + _pad(b.padding)
            elif b.mode == "crossed":
                # The id another stream was last sent (a bot keeping "the last request
                # id" in a global, shared by its matches), once there is one.
                crossed = bot_pb2.BotMessage(request_id=others[-1] if others else 0, legal_index=0)
                yield (crossed if others else ok).SerializeToString()
            elif b.mode == "flood_forfeited":
                # A reply that names nothing (a fault whatever the clock), then, once the
                # test says the seat is forfeited, the answer again and again for ever.
                yield bot_pb2.BotMessage(request_id=request.request_id).SerializeToString()
                await self.forfeited.wait()
                flood = ok.SerializeToString() + _pad(b.padding)
                while True:
                    self.flooded += 1
                    yield flood
            elif b.mode == "wrong_id":
                yield bot_pb2.BotMessage(
                    request_id=request.request_id + 1000, legal_index=0
                ).SerializeToString()

    def _on_done(self, context: grpc.aio.ServicerContext) -> None:
        self.ended += 1
        self._changed.set()


async def start_faulty_bot(behaviour: Behaviour) -> tuple[grpc.aio.Server, str, FaultyBot]:
    """Start a server on 127.0.0.1:0; returns (server, endpoint, servicer)."""
    bot = FaultyBot(behaviour)
    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                bot.hello,
                request_deserializer=bot_pb2.HelloRequest.FromString,
                response_serializer=bot_pb2.HelloReply.SerializeToString,
            ),
            "Play": grpc.stream_stream_rpc_method_handler(
                bot.play,
                request_deserializer=bot_pb2.ArenaMessage.FromString,
                response_serializer=lambda raw: raw,
            ),
        },
    )
    server, endpoint = await serve_handler(
        handler,
        options=[
            ("grpc.max_send_message_length", 64 << 20),
            # Take any MatchOver, and keep the flow-control window small and fixed, so a
            # bot that stops reading blocks the arena's next large write at once.
            ("grpc.max_receive_message_length", 64 << 20),
            ("grpc.http2.bdp_probe", 0),
        ],
    )
    return server, endpoint, bot


async def serve_handler(
    handler: grpc.GenericRpcHandler, options: list[tuple[str, int]] | None = None
) -> tuple[grpc.aio.Server, str]:
    """A started server on 127.0.0.1:0 for a hand-made handler, and its endpoint."""
    server = grpc.aio.server(options=options)
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, f"127.0.0.1:{port}"
