"""Helpers for the SDK tests: a bot server on loopback, and arena messages built from a
real engine game (the referee's job, done the simplest way)."""

from __future__ import annotations

import contextlib
import random
import re
import select
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import grpc

from arena.games import abluxxen as ab
from arena.games.abluxxen import events
from arena.games.abluxxen.wire import action_from_proto, decision_to_proto, rules_to_proto
from arena.policies import RandomPolicy
from arena.sdk import BotInfo, PolicyFactory, create_server
from arena.v1 import bot_pb2, bot_pb2_grpc

INFO = BotInfo(name="test-bot", version="9.9", author="tests", presets=("amigo",))
DEADLINE_MS = 2000


def async_stub(channel: grpc.aio.Channel) -> bot_pb2_grpc.BotAsyncStub:
    """The Bot stub of an aio channel, typed as such (mypy cannot tell the two kinds of
    channel apart, grpc being untyped, and would pick the blocking stub's type)."""
    return cast("bot_pb2_grpc.BotAsyncStub", bot_pb2_grpc.BotStub(channel))


@contextlib.asynccontextmanager
async def served(factory: PolicyFactory) -> AsyncIterator[tuple[grpc.aio.Channel, int]]:
    """A bot server for ``factory`` on 127.0.0.1:0 and a channel to it; both closed after."""
    server, port = await create_server(factory, info=INFO)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield channel, port
    finally:
        await server.stop(None)


def start_message(match_id: str, seat: int, config: ab.GameConfig) -> bot_pb2.ArenaMessage:
    """The MatchStart of one seat."""
    return bot_pb2.ArenaMessage(
        start=bot_pb2.MatchStart(
            match_id=match_id,
            seat=seat,
            players=config.players,
            names=[f"p{s}" for s in range(config.players)],
            game="abluxxen",
            deals=config.deals,
            deadline_ms=DEADLINE_MS,
            abluxxen=rules_to_proto(config.options),
        )
    )


@dataclass
class Table:
    """An engine game in which one seat is played over a Play stream, the others by
    in-process random policies."""

    seed: int
    seat: int = 0
    players: int = 4
    state: ab.State = field(init=False)
    seen: int = 0
    """Events already sent to the streamed seat."""
    next_id: int = 1

    def __post_init__(self) -> None:
        self.config = ab.make_config(self.players, "amigo")
        self.state = ab.new_game(self.config, random.Random(self.seed))
        self.others = RandomPolicy(self.seed)

    def advance(self) -> bool:
        """Play the other seats until the streamed seat decides; False once over."""
        state = self.state
        while not state.is_over and state.deciding != self.seat:
            seat = state.deciding
            ab.apply(state, self.others.choose(ab.observe(state, seat)), seat)
        return not state.is_over

    def request(self) -> bot_pb2.ArenaMessage:
        """The DecideRequest of the streamed seat's pending decision."""
        state = self.state
        game = decision_to_proto(
            ab.observe(state, self.seat), events.views(state.events, self.seat, self.seen)
        )
        self.seen = len(state.events)
        request_id, self.next_id = self.next_id, self.next_id + 1
        return bot_pb2.ArenaMessage(
            decide=bot_pb2.DecideRequest(
                request_id=request_id, deadline_ms=DEADLINE_MS, abluxxen=game
            )
        )

    def fallback(self) -> None:
        """Play the first legal action for the streamed seat (the referee's fallback)."""
        ab.apply(self.state, ab.observe(self.state, self.seat).legal[0], self.seat)

    def apply_reply(self, request: bot_pb2.ArenaMessage, reply: bot_pb2.BotMessage) -> None:
        """Check the reply answers ``request`` and play it (the engine checks legality)."""
        assert reply.request_id == request.decide.request_id
        legal = request.decide.abluxxen.legal
        if reply.WhichOneof("choice") == "legal_index":
            assert 0 <= reply.legal_index < len(legal)
            action = action_from_proto(legal[reply.legal_index])
        else:
            assert reply.WhichOneof("choice") == "abluxxen"
            action = action_from_proto(reply.abluxxen)
        ab.apply(self.state, action, self.seat)


def over_message(match_id: str, state: ab.State) -> bot_pb2.ArenaMessage:
    """The MatchOver of a finished game."""
    result = state.result
    assert result is not None
    return bot_pb2.ArenaMessage(over=bot_pb2.MatchOver(match_id=match_id, ranks=result.ranks))


async def play_table(stub: bot_pb2_grpc.BotAsyncStub, table: Table, match_id: str) -> int:
    """Play a whole game with the bot in ``table.seat``; returns the decisions it made."""
    call = stub.Play()
    await call.write(start_message(match_id, table.seat, table.config))
    decisions = 0
    while table.advance():
        request = table.request()
        await call.write(request)
        reply = await call.read()
        assert reply is not grpc.aio.EOF, "the bot ended the stream mid-game"
        table.apply_reply(request, reply)
        decisions += 1
    await call.write(over_message(match_id, table.state))
    await call.done_writing()
    assert await call.read() is grpc.aio.EOF
    assert await call.code() == grpc.StatusCode.OK
    return decisions


REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"^arena-bot listening on (?P<host>.+):(?P<port>\d+)$")
START_TIMEOUT_S = 20.0


@contextlib.contextmanager
def bot_process(
    command: Sequence[str],
    timeout: float = START_TIMEOUT_S,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
) -> Iterator[BotProcess]:
    """Start a bot process (from the repository root unless ``cwd`` says otherwise) and
    wait for its listening line; the process is terminated (then killed) by its pid on
    the way out, whatever happens."""
    proc = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = _first_line(proc, timeout)
        match = LISTENING.match(line.rstrip("\n"))
        assert match, f"not a listening line: {line!r}"
        yield BotProcess(proc, line.rstrip("\n"), int(match["port"]))
    finally:
        stop_process(proc)


@dataclass
class BotProcess:
    """A started bot: its process, its listening line and port."""

    proc: subprocess.Popen[str]
    line: str
    port: int


def stop_process(proc: subprocess.Popen[str]) -> int:
    """SIGTERM, wait, then SIGKILL if it will not go; close its pipes; the exit status."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    return proc.returncode


def _first_line(proc: subprocess.Popen[str], timeout: float) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        raise AssertionError(f"no listening line within {timeout} s: {proc.args!r}")
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        stderr = proc.stderr.read() if proc.stderr is not None else ""
        raise AssertionError(f"{proc.args!r} exited with {proc.returncode}: {stderr}")
    return line


def python_bot(path: str, *args: str) -> list[str]:
    """The command line of a Python bot script, with the venv's python and ``--port 0``."""
    return [sys.executable, path, "--port", "0", *args]


def stop_for_stderr(proc: subprocess.Popen[str], timeout: float = 10.0) -> str:
    """SIGTERM a bot started by ``bot_process`` (by its pid; SIGKILL if it will not go)
    and return all it wrote on stderr."""
    if proc.poll() is None:
        proc.terminate()
    try:
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, stderr = proc.communicate()
    return stderr or ""
