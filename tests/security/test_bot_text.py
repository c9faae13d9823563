"""Finding 1: bot-supplied text reached terminals raw.

A bot's words (here an error message full of ANSI escapes, a forged line, a bidi
override, a zero-width space and a tag character) are stored as given, capped, and
shown with every such character as a visible escape (``\\x1b``, ``\\n``, ``\\u200b``)
by every terminal view and every API text field meant for display. Descriptions refuse
zero-width and tag characters. Errors never name an internal exception class.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import grpc
import pytest
from server.support import (
    RANDOM_BOT,
    ROOT,
    Processes,
    arena_cli,
    auth,
    rpc_error,
    stub,
    submit,
    token,
    wait_status,
)

from arena.referee.record import read_record
from arena.server import read_jobs
from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.server.verify import ARENA_FAILED, verify_bot
from arena.store import open_store
from arena.text import shown
from arena.v1 import arena_pb2, arena_pb2_grpc

from .evil_bot import EVIL

EVIL_BOT = str(ROOT / "tests" / "security" / "evil_bot.py")
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""What must never reach a terminal (a line break aside, which ends a printed line)."""
VISIBLE = "\\x1b[2J\\x1b[31mRED\\x1b[0m\\x1b]0;pwned\\x07\\nFORGED"
"""The start of EVIL as shown."""


def _safe_output(text: str) -> None:
    assert not RAW.search(text), repr(text[:300])
    assert "\U000e0041" not in text
    assert not any(line.startswith("FORGED") for line in text.splitlines())


def test_shown_makes_every_hidden_character_visible_and_is_idempotent() -> None:
    assert shown(EVIL).startswith(VISIBLE)
    assert shown(EVIL).endswith("\\u202eevil\\u202c\\u200b\\U000e0041\\x9b31m")
    assert shown(shown(EVIL)) == shown(EVIL)
    assert shown("caf\u00e9 \u2713 \u0430") == "caf\u00e9 \u2713 \u0430"  # visible text stays
    assert shown("a\u00a0b\u3164c\ue000") == "a\\xa0b\\u3164c\\ue000"  # blank-looking too
    cut = shown(EVIL, 10)
    assert cut == "\\x1b[2J\u2026"  # never half an escape
    assert shown(cut, 10) == cut


@pytest.mark.slow
def test_a_fault_detail_is_recorded_as_given_and_shown_by_match_and_replay(
    tmp_path: Path,
) -> None:
    """On a35e272 `arena match` printed the fault detail raw (match_cmd.py
    print_outcome) and so did `arena replay` (referee/replay.py)."""
    record = tmp_path / "m.jsonl.gz"
    procs = Processes()
    try:
        (evil,) = procs.bots([EVIL_BOT])
        played = arena_cli(
            "match", "--bot", f"evil={evil.address}", "--bot", "random", "--seed", "3",
            "--record", str(record),
        )  # fmt: skip
        assert played.returncode == 0, played.stderr
        _safe_output(played.stdout)
        assert VISIBLE in played.stdout
        details = [
            line["fault"]["detail"]
            for line in read_record(str(record))
            if line["type"] == "decision" and line.get("fault")
        ]
        assert details
        assert EVIL in details[0]  # stored as given
        for seat in ("--all", "--seat=0", "--seat=1"):
            replayed = arena_cli("replay", str(record), seat)
            assert replayed.returncode == 0, replayed.stderr
            _safe_output(replayed.stdout)
            assert VISIBLE in replayed.stdout
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_a_ladder_fault_is_stored_as_given_and_shown_by_the_api_and_every_view(
    tmp_path: Path,
) -> None:
    """On a35e272 GetMatch's replay lines (servicer.py GetMatch), `arena replay --db` and
    `arena replay --arena` carried a fault's detail raw; the status reason quoting it
    was cleaned to '?' instead of stored as given."""
    db = tmp_path / "serve.db"
    log = tmp_path / "serve.log"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--verify-games", "0", "--max-strikes", "1",
            "--suspend-after", "1", stderr=log,
        )  # fmt: skip
        evil, good = procs.bots([EVIL_BOT], [RANDOM_BOT])
        with stub(server.address) as client:
            submit(client, alice, "evil", evil.address)
            submit(client, alice, "good", good.address)
            suspended = wait_status(client, "evil", arena_pb2.BOT_STATUS_SUSPENDED, 60)
            assert "\\x1b[2J" in suspended.status_reason
            _safe_output(suspended.status_reason)
            matches = client.ListMatches(arena_pb2.ListMatchesRequest(), timeout=5).matches
            match_id = matches[-1].match_id
            for view in (arena_pb2.GetMatchRequest(match_id=match_id, full=True),
                         arena_pb2.GetMatchRequest(match_id=match_id, seat=0)):  # fmt: skip
                reply = client.GetMatch(view, timeout=5)
                text = "\n".join(reply.replay)
                _safe_output(text)
                assert VISIBLE in text
        store = open_store(db, create=False)
        try:
            stored = [str(row[0]) for row in store.read("SELECT detail FROM faults")]
        finally:
            store.close()
        assert any(EVIL in detail for detail in stored)  # as given
        for source in (("--db", str(db)), ("--arena", server.address)):
            replayed = arena_cli("replay", match_id, *source)
            assert replayed.returncode == 0, replayed.stderr
            _safe_output(replayed.stdout)
            assert VISIBLE in replayed.stdout
        listed = arena_cli("bots", "--arena", server.address, "--token", alice)
        assert listed.returncode == 0, listed.stderr
        _safe_output(listed.stdout)
        _safe_output(log.read_text(encoding="utf-8", errors="replace"))
    finally:
        procs.kill_all()


DESCRIPTIONS = [
    ("zero\u200bwidth", "\\u200b"), ("tag\U000e0041", "\\U000e0041"), ("bidi\u202e", "\\u202e"),
    ("bom\ufeff", "\\ufeff"), ("soft\u00adhyphen", "\\xad"), ("nul\x00", "\\x00"),
]  # fmt: skip


@pytest.fixture(scope="module")
def description_arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """One ``arena serve`` for every description case, and a token per case: each case
    submits as an owner of its own (its submissions count against its owner's limit), a
    bot of its own name at an endpoint of its own."""
    db = tmp_path_factory.mktemp("descriptions") / "serve.db"
    tokens = [token(db, f"owner-{case}") for case in range(len(DESCRIPTIONS))]
    procs = Processes()
    try:
        yield procs.serve(db, "--table-size", "2").address, tokens
    finally:
        procs.kill_all()


@pytest.mark.parametrize("case", range(len(DESCRIPTIONS)), ids=[d for d, _ in DESCRIPTIONS])
def test_a_description_with_an_invisible_or_control_character_is_refused(
    description_arena: tuple[str, list[str]], case: int
) -> None:
    """On a35e272 descriptions refused only controls, separators and bidi controls
    (servicer.py _unsafe): zero-width, tag, BOM and soft-hyphen characters passed."""
    address, tokens = description_arena
    description, shown_as = DESCRIPTIONS[case]
    with stub(address) as client:
        request = arena_pb2.SubmitBotRequest(
            name=f"bot-{case}", endpoint=f"127.0.0.1:{50990 + case}", description=description
        )
        error = rpc_error(client.SubmitBot, request, timeout=5, metadata=auth(tokens[case]))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert shown_as in (error.details() or "")
        request.description = "line one\n\tline two \u00e9\u2713"  # tabs and breaks are fine
        client.SubmitBot(request, timeout=5, metadata=auth(tokens[case]))


def test_an_error_of_the_arena_is_internal_in_words_without_a_class_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a35e272 an exception in a handler reached the caller as gRPC's "Unexpected
    <class 'KeyError'>: ...", and a verification that failed in the arena was the
    reason "the arena failed: KeyError(...)" (ladder.py, {error!r})."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("internal detail")

    # On read threads, where a test can break the read (an error in a read process comes
    # back as the same exception: tests/server/test_read_processes.py).
    monkeypatch.setattr(read_jobs, "bots", broken)

    async def scenario() -> grpc.aio.AioRpcError:
        config = ServeConfig(db=str(tmp_path / "serve.db"), port=0, read_processes=0)
        arena = await start_arena(config)
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{arena.port}") as channel:
                client = arena_pb2_grpc.ArenaStub(channel)
                try:
                    await client.ListBots(arena_pb2.ListBotsRequest(), timeout=5)
                except grpc.aio.AioRpcError as error:
                    return error
                raise AssertionError("ListBots succeeded")
        finally:
            await arena.stop(0)

    error = asyncio.run(scenario())
    assert error.code() == grpc.StatusCode.INTERNAL
    assert "an error in the arena itself" in (error.details() or "")
    for internal in ("KeyError", "class", "internal detail", "Traceback"):
        assert internal not in (error.details() or "")

    class Broken:
        @property
        def name(self) -> str:
            raise KeyError("internal detail")

    verdict = asyncio.run(
        verify_bot(
            "127.0.0.1:9",
            game=cast(Any, Broken()),
            preset="amigo",
            table_size=2,
            games=1,
            deadline_ms=100,
            max_strikes=1,
            hello_timeout_s=0.1,
            root_certificates=None,
        )
    )
    assert not verdict.ok
    assert verdict.reason == ARENA_FAILED
    assert "KeyError" not in verdict.reason
