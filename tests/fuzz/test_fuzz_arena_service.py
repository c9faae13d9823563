"""Fuzzing the Arena service (proto/arena/v1/arena.proto) against a real ``arena serve``
started in-process on port 0: arbitrary names, endpoints, descriptions, owners,
ladders, limits, match ids, seats and tokens in every call. Every reply is OK or a gRPC
status with a plain message: never UNKNOWN or INTERNAL, never a traceback or a Python
class name; and ListBots can show every bot stored afterwards.

Two real bots (in-process SDK bots, owned by an organizer whose token the fuzzing never
uses) play a ladder of two so that there are finished matches to ask for. The allowlist
admits only their two ports and ports 1-9 (where nothing listens), so no submitted
endpoint reaches anything else on this machine."""

from __future__ import annotations

import asyncio
import string
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.policies import RandomPolicy
from arena.referee.channels import parse_bot_endpoint
from arena.sdk import BotInfo, create_server
from arena.server.app import RunningArena, start_arena
from arena.server.config import MAX_DESCRIPTION, ServeConfig
from arena.store import open_store
from arena.store.tokens import create_token
from arena.text import first_hidden
from arena.v1 import arena_pb2, arena_pb2_grpc

from .plain import FUZZ, NAME, assert_plain

Code = grpc.StatusCode
PROHIBITED = (Code.UNKNOWN, Code.INTERNAL, Code.DEADLINE_EXCEEDED, Code.UNIMPLEMENTED)
"""Codes that mean the arena failed (DEADLINE_EXCEEDED: it did not answer in 10 s)."""


@dataclass
class Served:
    """The running arena and what the fuzzing knows of it."""

    address: str
    tokens: dict[str, str]
    """Owner -> token: alice and bob (the fuzzing's), organizer (the real bots')."""
    bot_endpoints: tuple[str, ...]
    match_ids: tuple[str, ...]
    ladder: str


def _wait(probe: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not probe():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = Path(tmp_path_factory.mktemp("serve")) / "serve.db"
    store = open_store(db)
    try:
        tokens = {owner: create_token(store, owner) for owner in ("alice", "bob", "organizer")}
    finally:
        store.close()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fuzzed-arena", daemon=True)
    thread.start()

    def run(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(60)

    bots = [run(create_server(RandomPolicy, info=BotInfo(name=f"real-{n}"))) for n in ("a", "b")]
    endpoints = tuple(f"127.0.0.1:{port}" for _, port in bots)
    config = ServeConfig(
        db=str(db),
        port=0,
        table_size=2,
        deadline_ms=500,
        allow=(*endpoints, "127.0.0.1:1-9", "[::1]:1-9", "localhost:1-9"),
        submit_limit=1_000_000,
        auth_fail_limit=1_000_000,  # the fuzzing sends many bad tokens on purpose
        read_rate=0.0,  # and reads as fast as it can (0: no read limit)
        verify_games=1,
        hello_timeout_s=2.0,
        grace_s=0.0,
        rest_s=0.2,
    )
    arena: RunningArena = run(start_arena(config))
    address = f"127.0.0.1:{arena.port}"
    try:
        with grpc.insecure_channel(address) as channel:
            client = arena_pb2_grpc.ArenaStub(channel)
            organizer = (("authorization", f"Bearer {tokens['organizer']}"),)
            for name, endpoint in zip(("real-a", "real-b"), endpoints, strict=True):
                request = arena_pb2.SubmitBotRequest(name=name, endpoint=endpoint)
                client.SubmitBot(request, timeout=10, metadata=organizer)

            def finished() -> list[str]:
                reply = client.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10)
                return [m.match_id for m in reply.matches if not m.running]

            _wait(lambda: len(finished()) >= 2, 60, "two finished ladder matches")
            yield Served(address, tokens, endpoints, tuple(finished()), config.ladder)
    finally:
        run(arena.stop(0.0))
        for server, _ in bots:
            run(server.stop(0))
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


TEXT = st.text(max_size=24)
LONG = st.sampled_from(["x" * 301, "a" * 41, "d" * 501, "m" * 201])
OURS = st.sampled_from([f"fz-{n}" for n in range(8)])
"""Names the fuzzing submits, updates and retires again and again."""
NAMES = st.one_of(
    OURS,
    OURS,
    st.sampled_from(["real-a", "REAL-A", "real-b", "FZ-1", "", " ", "a b", "é", "a\n"]),
    st.from_regex(r"[A-Za-z0-9_.-]{1,12}", fullmatch=True),
    TEXT,
    LONG,
)
CONTROL = st.sampled_from(["\x1b[31m", "\x00", "\u202e", "\u2028", "\x9b", "\t", "\n", "\r"])
DESCRIPTIONS = st.one_of(
    st.just(""),
    st.just("a plain description"),
    TEXT,
    LONG,
    st.lists(st.one_of(TEXT, CONTROL), max_size=4).map("".join),
)
INT32 = st.one_of(st.integers(-3, 10), st.integers(-(2**31), 2**31 - 1))
ASCII = st.text(alphabet=string.ascii_letters + string.digits + string.punctuation + " ")
GOOD_ENDPOINTS = st.builds(
    "{}:{}".format,
    st.sampled_from(["127.0.0.1", "[::1]", "localhost", "LOCALHOST", "tls://127.0.0.1"]),
    st.integers(1, 9),
)
"""Endpoints the allowlist admits, where nothing listens (ports 1-9 of this machine)."""


EDGES = [
    *((name, "", "") for name in ("a\n", "b\r", " c", "d ", "é", "x" * 41, "a/b", "-", ".")),
    *(("", endpoint, "") for endpoint in (" 127.0.0.1:1\n", "127.0.0.1:01", "127.0.0.1:١")),
    *(("", "", text) for text in ("\x1b[31m", "\u202e", "\u2028", "\x9b", "\x00", "d" * 501)),
]
"""(name, endpoint, description): one odd field each ("" = a good one)."""


@st.composite
def endpoints(draw: st.DrawFn, served: Served) -> str:
    return draw(
        st.one_of(
            GOOD_ENDPOINTS,
            GOOD_ENDPOINTS,
            st.sampled_from(
                [
                    " 127.0.0.1:1 ",
                    "127.0.0.1:01",
                    "127.0.0.1:١",
                    "127.0.0.1:0",
                    "127.0.0.1:65536",
                    "10.1.2.3:50051",
                    "[::ffff:127.0.0.1]:1",
                    "http://127.0.0.1:1",
                    "tls://tls://127.0.0.1:1",
                    "",
                    *served.bot_endpoints,
                ]
            ),
            TEXT,
            LONG,
        )
    )


@st.composite
def credentials(draw: st.DrawFn, served: Served) -> tuple[tuple[str, str], ...]:
    """Call metadata: a good token of alice or bob (mostly), none, or a broken one."""
    how = draw(st.sampled_from(["alice", "bob"] * 4 + ["none", "any", "bearer", "two"]))
    if how in ("alice", "bob"):
        return (("authorization", f"Bearer {served.tokens[how]}"),)
    if how == "none":
        return ()
    if how == "any":
        return (("authorization", draw(ASCII)),)
    if how == "bearer":
        return (("authorization", f"Bearer {draw(ASCII)}"),)
    return (  # two entries: the first one counts
        ("authorization", f"Bearer {draw(ASCII)}"),
        ("authorization", f"Bearer {served.tokens['alice']}"),
    )


@st.composite
def calls(draw: st.DrawFn, served: Served) -> tuple[str, Any, tuple[tuple[str, str], ...]]:
    """One call: its method, request and metadata."""
    metadata = draw(credentials(served))
    method = draw(
        st.sampled_from(
            [
                "SubmitBot",
                "SubmitBot",
                "UpdateBot",
                "RetireBot",
                "ListBots",
                "GetLeaderboard",
                "ListMatches",
                "GetMatch",
                "GetMatch",
            ]
        )
    )
    request: Any
    if method == "SubmitBot":
        request = arena_pb2.SubmitBotRequest(
            name=draw(NAMES), endpoint=draw(endpoints(served)), description=draw(DESCRIPTIONS)
        )
    elif method == "UpdateBot":
        request = arena_pb2.UpdateBotRequest(name=draw(NAMES))
        if draw(st.booleans()):
            request.endpoint = draw(endpoints(served))
        if draw(st.booleans()):
            request.description = draw(DESCRIPTIONS)
    elif method == "RetireBot":
        request = arena_pb2.RetireBotRequest(name=draw(NAMES))
    elif method == "ListBots":
        request = arena_pb2.ListBotsRequest(owner=draw(st.one_of(st.just("alice"), TEXT)))
    elif method == "GetLeaderboard":
        request = arena_pb2.GetLeaderboardRequest(
            ladder=draw(st.one_of(st.just(served.ladder), TEXT, LONG)),
            include_retired=draw(st.booleans()),
        )
    elif method == "ListMatches":
        request = arena_pb2.ListMatchesRequest(
            bot=draw(NAMES), limit=draw(INT32), include_running=draw(st.booleans())
        )
    else:
        request = arena_pb2.GetMatchRequest(
            match_id=draw(
                st.one_of(
                    st.sampled_from(served.match_ids), st.sampled_from(served.match_ids), TEXT, LONG
                )
            )
        )
        view = draw(st.sampled_from(["seat", "full", "none"]))
        if view == "seat":
            request.seat = draw(st.one_of(st.integers(-1, 2), INT32))
        elif view == "full":
            request.full = draw(st.booleans())
    return method, request, metadata


def _assert_answered(call: Callable[[], object], what: object) -> None:
    """OK, or a status of the arena's own choosing with a plain message."""
    try:
        call()
    except grpc.RpcError as error:
        code, details = error.code(), error.details()
        assert code not in PROHIBITED, (what, code, details)
        assert_plain(details, where=f"{what}: {code}")


def test_every_call_is_answered_plainly(served: Served) -> None:
    with grpc.insecure_channel(served.address) as channel:
        client = arena_pb2_grpc.ArenaStub(channel)
        alice = (("authorization", f"Bearer {served.tokens['alice']}"),)

        def listed_bots_keep_the_rules() -> None:
            """Whatever was stored can be shown, to its owner and to anyone, and keeps the
            rules: names, endpoints, descriptions a terminal shows as they are."""
            for viewer in (alice, ()):
                reply = client.ListBots(arena_pb2.ListBotsRequest(), timeout=10, metadata=viewer)
                for bot in reply.bots:
                    assert NAME.fullmatch(bot.name), bot
                    assert len(bot.description) <= MAX_DESCRIPTION, bot
                    assert first_hidden(bot.description, allowed="\t\n") is None, bot
                    if bot.endpoint:
                        parse_bot_endpoint(bot.endpoint)
                        assert bot.endpoint == bot.endpoint.strip(), bot

        # The edge cases first, each in an otherwise good submission.
        for n, (name, endpoint, description) in enumerate(EDGES):
            edge = arena_pb2.SubmitBotRequest(
                name=name or f"edge-{n}",
                endpoint=endpoint or f"127.0.0.1:{n % 9 + 1}",
                description=description,
            )
            retire = arena_pb2.RetireBotRequest(name=edge.name)
            _assert_answered(lambda: client.SubmitBot(edge, timeout=10, metadata=alice), edge)  # noqa: B023
            listed_bots_keep_the_rules()
            _assert_answered(lambda: client.RetireBot(retire, timeout=10, metadata=alice), retire)  # noqa: B023

        @settings(FUZZ, max_examples=250)
        @given(call=calls(served), seed=st.one_of(st.none(), OURS), data=st.data())
        def fuzz(
            call: tuple[str, Any, tuple[tuple[str, str], ...]],
            seed: str | None,
            data: st.DataObject,
        ) -> None:
            if seed is not None:  # a well-formed submission first: bots to update, retire
                owner = data.draw(st.sampled_from(["alice", "bob"]))
                first = arena_pb2.SubmitBotRequest(
                    name=seed, endpoint=data.draw(GOOD_ENDPOINTS), description="fuzz"
                )
                token = (("authorization", f"Bearer {served.tokens[owner]}"),)
                _assert_answered(lambda: client.SubmitBot(first, timeout=10, metadata=token), first)
            method, request, metadata = call
            stub = getattr(client, method)
            _assert_answered(lambda: stub(request, timeout=10, metadata=metadata), call)
            listed_bots_keep_the_rules()

        fuzz()
        for match_id in served.match_ids:
            for seat in (0, 1):
                request = arena_pb2.GetMatchRequest(match_id=match_id, seat=seat)
                assert client.GetMatch(request, timeout=10).replay


METHODS = (
    "SubmitBot",
    "UpdateBot",
    "RetireBot",
    "ListBots",
    "GetLeaderboard",
    "ListMatches",
    "GetMatch",
)


@st.composite
def request_bytes(draw: st.DrawFn, served: Served) -> tuple[str, bytes]:
    """A method and bytes for it: random, or a fuzzed request's bytes cut or flipped."""
    method, request, _ = draw(calls(served))
    data = bytearray(request.SerializeToString())
    if not data or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(METHODS)), draw(st.binary(max_size=40))
    at = draw(st.integers(0, len(data) - 1))
    if draw(st.booleans()):
        del data[at:]
    else:
        data[at] ^= draw(st.integers(1, 255))
    return method, bytes(data)


def test_request_bytes_that_are_no_request_are_answered_plainly(served: Served) -> None:
    with grpc.insecure_channel(served.address) as channel:
        alice = (("authorization", f"Bearer {served.tokens['alice']}"),)

        @settings(FUZZ, max_examples=100)
        @given(call=request_bytes(served), metadata=st.sampled_from([alice, ()]))
        def fuzz(call: tuple[str, bytes], metadata: tuple[tuple[str, str], ...]) -> None:
            method, data = call
            raw = channel.unary_unary(
                f"/arena.v1.Arena/{method}",
                request_serializer=lambda b: b,
                response_deserializer=lambda b: b,
            )
            _assert_answered(lambda: raw(data, timeout=10, metadata=metadata), call)

        fuzz()
