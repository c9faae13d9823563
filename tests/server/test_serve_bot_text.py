"""Whatever a bot says (its Hello name and version, its error details, the presets it
lists) is stored as given but capped in length, and made visible wherever the arena logs
or shows it (``arena.text.shown``): every control character (C0, DEL, C1 with ESC and
U+009B), bidi override or zero-width character as an escape such as ``\x1b``, so a
hostile bot can neither rewrite viewers' terminals, forge log lines, nor make ListBots
too big for everyone."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.cli.author_cmd import bot_line
from arena.server.views import bot_message
from arena.store import open_store
from arena.store.registry import MAX_REASON, MAX_VERSION, BotEntry, BotStatus, get_bot
from arena.text import capped, shown
from arena.v1 import arena_pb2, bot_pb2

from .hostile_bot import CHUNK, FORGED
from .support import (
    ROOT,
    Processes,
    arena_cli,
    stub,
    submit,
    token,
    wait_status,
)

HOSTILE_BOT = str(ROOT / "tests" / "server" / "hostile_bot.py")
UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]"
)
"""Characters that must never come out."""


def _assert_safe(text: str, limit: int) -> None:
    assert len(text) <= limit, len(text)
    assert not UNSAFE.search(text), repr(text[:200])


@contextmanager
def _hello_bot(hello: Callable[[bot_pb2.HelloRequest, Any], bot_pb2.HelloReply]) -> Iterator[str]:
    """An in-process gRPC server on 127.0.0.1:0 answering Hello with ``hello``."""
    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                hello,
                request_deserializer=bot_pb2.HelloRequest.FromString,
                response_serializer=bot_pb2.HelloReply.SerializeToString,
            )
        },
    )
    server = grpc.server(ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(None)


def _failing_hello(request: bot_pb2.HelloRequest, context: Any) -> bot_pb2.HelloReply:
    context.abort(grpc.StatusCode.INTERNAL, (CHUNK * 100)[:4000])
    raise AssertionError("abort returns no more")


def _wrong_presets(request: bot_pb2.HelloRequest, context: Any) -> bot_pb2.HelloReply:
    return bot_pb2.HelloReply(
        name=CHUNK * 1000, version=CHUNK, games=["abluxxen"], presets=[CHUNK * 100] * 10
    )


@pytest.mark.slow
def test_a_bots_words_are_stored_capped_and_shown_visible_in_the_api_cli_and_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "serve.db"
    log_path = tmp_path / "serve.log"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "1", stderr=log_path)
        (hostile,) = procs.bots([HOSTILE_BOT])
        with (
            _hello_bot(_failing_hello) as failing,
            _hello_bot(_wrong_presets) as presets,
            stub(server.address) as client,
        ):
            submit(client, alice, "hostile", hostile.address)
            submit(client, alice, "failing", failing)
            submit(client, alice, "presets", presets)
            active = wait_status(client, "hostile", arena_pb2.BOT_STATUS_ACTIVE, 30)
            failed = wait_status(client, "failing", arena_pb2.BOT_STATUS_SUSPENDED, 30)
            wrong = wait_status(client, "presets", arena_pb2.BOT_STATUS_SUSPENDED, 30)

            # The 100 kB Hello name is a short version, its escapes visible.
            assert active.version.startswith("\\x1b[2J\\x1b[31mred\\x1b[0m\\nFORGED")
            assert active.version.endswith("\u2026")
            assert failed.status_reason.startswith("verification failed: Hello")
            assert "INTERNAL" in failed.status_reason
            assert "it plays the presets" in wrong.status_reason
            for bot in (active, failed, wrong):
                _assert_safe(bot.version, MAX_VERSION)
                _assert_safe(bot.status_reason, MAX_REASON)
            store = open_store(db, create=False)
            try:
                stored = get_bot(store, "hostile")
            finally:
                store.close()
            assert stored is not None
            assert stored.version == capped(f"{CHUNK * 1000} {CHUNK}", MAX_VERSION)  # as given
            listing = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5)
            assert listing.ByteSize() < 5000

            for args in (("--token", alice), ()):
                shown = arena_cli("bots", "--arena", server.address, *args)
                assert shown.returncode == 0, shown.stderr
                assert "hostile" in shown.stdout
                assert not UNSAFE.search(shown.stdout.replace("\n", "")), shown.stdout
                assert not any(line.startswith("FORGED") for line in shown.stdout.splitlines())
                assert len(shown.stdout.splitlines()) == 4  # the ladder, then one per bot
        log = log_path.read_text(encoding="utf-8", errors="replace")
        assert "bot hostile (\\x1b[2J\\x1b[31mred\\x1b[0m\\nFORGED" in log  # verified, logged
        assert "bot failing failed verification: Hello" in log
        assert not UNSAFE.search(log.replace("\n", "")), "a control character in the log"
        for line in log.splitlines():
            assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ", line), line[:200]
    finally:
        procs.kill_all()


def test_shown_makes_controls_visible_and_caps_with_an_ellipsis() -> None:
    assert shown("v1.2 \u00e9t\u00e9 \u2713", 100) == "v1.2 \u00e9t\u00e9 \u2713"
    assert shown("a\x1b[31mb\nc\td\x9be\x7f\u202ef\u200bg\u2066h", 100) == (
        "a\\x1b[31mb\\nc\\td\\x9be\\x7f\\u202ef\\u200bg\\u2066h"
    )
    assert shown("x" * 500, 300) == "x" * 299 + "\u2026"
    assert shown("x" * 300, 300) == "x" * 300
    assert capped("a\x1b" * 300, 300) == ("a\x1b" * 150)[:299] + "\u2026"


def _stored(endpoint: str, reason: str, version: str) -> BotEntry:
    return BotEntry(
        name="old",
        owner="alice",
        endpoint=endpoint,
        description="",
        status=BotStatus.SUSPENDED,
        status_reason=reason,
        version=version,
        placement_left=0,
        failing_streak=3,
        created_at=0.0,
        updated_at=0.0,
    )


def test_what_a_database_already_holds_is_cleaned_when_shown() -> None:
    """Rows as stored (a bot's words as given, or anything else) come out visible and
    capped: in ListBots' messages, and in `arena bots` lines whatever an arena sends."""
    endpoint = "127.0.0.1:50061"
    bot = _stored(endpoint, f"down at {endpoint}\n{FORGED}\x1b[2J" * 5000, "\x9b2J" * 10_000)
    for owner in (True, False):
        message = bot_message(bot, matches=0, show_endpoint=owner)
        _assert_safe(message.version, MAX_VERSION)
        _assert_safe(message.status_reason, MAX_REASON)
        assert (endpoint in message.status_reason) is owner
    raw = arena_pb2.SubmittedBot(
        name="n\x1b]0;title\x07",
        owner="o\nFORGED",
        endpoint="e\x1b[2J",
        status=arena_pb2.BOT_STATUS_SUSPENDED,
        status_reason="\x1b[31m" * 10_000,
        version="\u202e" * 10_000,
    )
    line = bot_line(raw)
    assert "\n" not in line
    assert not UNSAFE.search(line)
    assert len(line) < 1000


def test_a_reason_cut_inside_the_endpoint_hides_the_part_left() -> None:
    """Another owner never sees even the first part of an endpoint a reason was cut in."""
    endpoint = "127.0.0.1:50061"
    reason = capped("x" * 290 + f" at {endpoint} failed", MAX_REASON)
    assert reason.endswith("127.0\u2026")
    message = bot_message(_stored(endpoint, reason, ""), matches=0, show_endpoint=False)
    assert "127.0" not in message.status_reason
    assert message.status_reason.endswith(" at \u2026")
