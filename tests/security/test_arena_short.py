"""A bot is never suspended for the arena's own exhaustion.

Fails on 89a9c5b: with its descriptors gone, ``arena serve`` could not connect to the
bots it was verifying and suspended them ("verification failed: Hello: no bot answers
... DEADLINE_EXCEEDED"); they stayed suspended once it had descriptors again. And (seen
with only the void match taken out of the change) a playing bot whose connection broke
meanwhile was forfeited, that match rated, and the bot suspended.

Passes now (``arena/server/headroom.py``, ``ladder.py``, ``served.py``): the arena sees it
is short, pauses (health NOT_SERVING, the log says why), holds nothing against a bot
(the verifications wait, the match that lost a seat is void: neither recorded nor
rated), and once it has descriptors again, resumes by itself: the waiting bots are
verified, and matches are played among them.

A real ``arena serve`` (started at ``ulimit -n`` 256) and real bots. The arena's
descriptors are taken away by lowering its soft limit below what it holds
(``resource.prlimit``, as ``prlimit --nofile`` would): every descriptor it opens then
fails with EMFILE, as once connections had taken them all (which the connection caps
now keep clients from doing: ``test_connections_cap.py``). The playing bot's connection
breaks at a relay in this process, the bot itself staying up, as a network would cut it;
the match is held in one of that bot's decisions (``flag_bot.py``, 30 s) meanwhile.
While the arena has no descriptor, its public reads fail too (each read thread opens the
database on first use), so the test reads the database file and the log instead.
"""

from __future__ import annotations

import contextlib
import re
import resource
import selectors
import signal
import socket
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server.support import (
    FLAG_BOT,
    PY,
    RANDOM_BOT,
    ROOT,
    Proc,
    Processes,
    _read_line,
    submit,
    token,
    wait_until,
)

from arena.v1 import arena_pb2_grpc

from .test_connections_cap import LIMITED, LOCAL

NOFILE = 256
"""The arena's limit on open files when it starts."""
GONE = 3
"""The soft limit that takes its descriptors away: stdin, stdout and stderr are open, so
no other descriptor can be opened."""
SLEEP_MS = 30_000
"""How long two sleeps in a decision while the flag is up: the cut comes meanwhile."""
PATIENCE_S = 120.0
"""Hang guard of each wait (verifications took over 20 s on this machine at load 34)."""


class Relay:
    """A TCP relay on loopback to a bot, in a thread of this process: the arena reaches
    the bot through it, and ``cut()`` closes every connection through it while the bot
    stays up."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self._target = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._wake, self._waker = socket.socketpair()
        self._peers: dict[socket.socket, socket.socket] = {}
        self._selector = selectors.DefaultSelector()
        self._cutting = threading.Event()
        self._cut = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)
        self._thread.start()

    def cut(self) -> None:
        """Close every connection through the relay (new ones are relayed again)."""
        self._cut.clear()
        self._cutting.set()
        self._waker.send(b"x")
        assert self._cut.wait(PATIENCE_S), "the relay did not cut its connections"

    def close(self) -> None:
        self._stopping.set()
        self._waker.send(b"x")
        self._thread.join(PATIENCE_S)
        for sock in (self._listener, self._wake, self._waker):
            sock.close()

    def _run(self) -> None:
        selector = self._selector
        selector.register(self._listener, selectors.EVENT_READ)
        selector.register(self._wake, selectors.EVENT_READ)
        while not self._stopping.is_set():
            for key, _ in selector.select():
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self._wake:
                    sock.recv(64)
                    if self._cutting.is_set():
                        self._cutting.clear()
                        for peer in list(self._peers):
                            self._drop(peer)
                        self._cut.set()
                elif sock is self._listener:
                    client, _ = sock.accept()
                    try:
                        upstream = socket.create_connection(self._target, timeout=PATIENCE_S)
                    except OSError:
                        client.close()
                        continue
                    self._peers[client], self._peers[upstream] = upstream, client
                    selector.register(client, selectors.EVENT_READ)
                    selector.register(upstream, selectors.EVENT_READ)
                elif sock in self._peers:
                    try:
                        data = sock.recv(1 << 16)
                        if data:
                            self._peers[sock].sendall(data)
                            continue
                    except OSError:
                        pass
                    self._drop(sock)
        for peer in list(self._peers):
            self._drop(peer)
        selector.close()

    def _drop(self, sock: socket.socket) -> None:
        """Close a relayed connection, both of its sockets."""
        other = self._peers.pop(sock, None)
        for each in (sock, other):
            if each is not None:
                self._peers.pop(each, None)
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(each)
                each.close()


@contextlib.contextmanager
def _relay(target: str) -> Iterator[Relay]:
    relay = Relay(target)
    try:
        yield relay
    finally:
        relay.close()


def _serve(procs: Processes, db: Path, log: Path, *args: str) -> Proc:
    """`arena serve` at ``ulimit -n`` NOFILE (its launcher sets the limit, then becomes
    the server: see ``test_connections_cap._serve_with_few_files``), its log to ``log``."""
    serve = [PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", *args]
    with open(log, "w") as stderr:
        popen = subprocess.Popen(
            [PY, "-c", LIMITED, str(NOFILE), *serve],
            stdout=subprocess.PIPE,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
    procs.started.append(popen)
    return Proc(popen, _read_line(popen, "arena serving on ", 30))


@contextlib.contextmanager
def _no_descriptors(pid: int) -> Iterator[None]:
    """Take the arena's descriptors away (its soft limit below what it holds), then give
    them back."""
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (GONE, hard))
    try:
        yield
    finally:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))


def _serving(health: health_pb2_grpc.HealthStub) -> bool:
    reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows of a read of the arena's database (it may be writing meanwhile)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return conn.execute(sql).fetchall()


def _matches(db: Path) -> int:
    """Matches recorded."""
    return int(str(_rows(db, "SELECT count(*) FROM matches")[0][0]))


def _bots(db: Path) -> dict[str, tuple[str, str]]:
    """Each bot's status and reason, asserting that none is suspended."""
    bots = {
        str(name): (str(status), str(reason))
        for name, status, reason in _rows(db, "SELECT name, status, status_reason FROM bots")
    }
    assert all(status != "suspended" for status, _ in bots.values()), bots
    return bots


VOID = re.compile(r"match (\S+) among (?:one, two|two, one) is void \(not recorded, not rated\)")
"""The log line of a match the arena voided."""


def _void(log: Path) -> str | None:
    """The id of the match the log says was void, if it says so."""
    found = VOID.search(log.read_text())
    return found[1] if found else None


@pytest.mark.slow
def test_the_arena_out_of_descriptors_blames_no_bot_and_recovers(tmp_path: Path) -> None:
    db, log = tmp_path / "serve.db", tmp_path / "serve.log"
    flag, asleep = tmp_path / "slow", tmp_path / "asleep"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = _serve(
            procs, db, log,
            "--table-size", "2", "--placement-matches", "0", "--verify-games", "1",
            "--suspend-after", "1", "--deadline-ms", str(2 * SLEEP_MS),
        )  # fmt: skip
        slow = ["--slow-flag", str(flag), "--sleep-ms", str(SLEEP_MS), "--asleep", str(asleep)]
        one, two = procs.bots([RANDOM_BOT], [FLAG_BOT, *slow])
        with (
            _relay(two.address) as relay,
            grpc.insecure_channel(server.address, options=LOCAL) as channel,
        ):
            client = arena_pb2_grpc.ArenaStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            assert _serving(health)

            # 1. Bots submitted while the arena has no descriptor to spare: they wait.
            with _no_descriptors(server.pid):
                submit(client, alice, "one", one.address)
                submit(client, alice, "two", relay.address)

                def waiting() -> bool:
                    return all(
                        reason.startswith("waiting: the arena is short of file descriptors")
                        for _, reason in _bots(db).values()
                    )

                wait_until(waiting, PATIENCE_S, "both verifications to wait for the arena")
                assert not _serving(health)
            # ... and are verified, and play, once it has them again.
            wait_until(
                lambda: _matches(db) >= 2,
                PATIENCE_S,
                "matches once the arena has its descriptors back",
            )
            assert _serving(health)

            # 2. Two's connection breaks under a match while the arena has none to spare.
            flag.touch()  # two now sleeps in each decision, asleep existing meanwhile
            wait_until(asleep.exists, PATIENCE_S, "a match held in one of two's decisions")
            with _no_descriptors(server.pid):
                wait_until(lambda: not _serving(health), PATIENCE_S, "the arena to see it")
                # (The arena's public reads need descriptors: the log tells from here.)
                assert asleep.exists(), "two's decision ended before the cut"
                relay.cut()

                def ended() -> str | None:
                    _bots(db)  # none suspended
                    return _void(log)

                void = wait_until(ended, PATIENCE_S, "the cut match to end, void")
                flag.unlink()
            played = _matches(db)
            wait_until(
                lambda: _matches(db) >= played + 3,
                PATIENCE_S,
                "matches to resume",
            )
            assert _serving(health)
            # The arena stops before two's relay closes: after that two is truly
            # unreachable, and a match the ladder started then would rightly count.
            server.popen.send_signal(signal.SIGTERM)
            assert server.popen.wait(timeout=PATIENCE_S) == 0

        # Nothing was held against either bot: the cut match is void, no seat forfeited,
        # no fault, no failure counted.
        assert _rows(db, f"SELECT count(*) FROM matches WHERE id = '{void}'") == [(0,)]
        assert _rows(db, "SELECT count(*) FROM seats WHERE forfeited") == [(0,)]
        assert _rows(db, "SELECT count(*) FROM faults") == [(0,)]
        assert _rows(db, "SELECT name, status, failing_streak FROM bots ORDER BY name") == [
            ("one", "active", 0),
            ("two", "active", 0),
        ]
        text = log.read_text()
        assert "ladder paused: the arena itself is short (out of file descriptors" in text
        assert "ladder resumed: the arena has headroom again" in text
    finally:
        procs.kill_all()
