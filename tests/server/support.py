"""Helpers for the `arena serve` tests: real processes on loopback, killed by pid.

Every process a test starts is registered with a ``Processes`` and killed (SIGKILL, by
pid) in its ``finally``; only loopback addresses are ever connected to.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from arena.store import open_store
from arena.store.tokens import create_token
from arena.v1 import arena_pb2, arena_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
RANDOM_BOT = str(ROOT / "sample_bots" / "random_bot.py")
GREEDY_BOT = str(ROOT / "sample_bots" / "greedy_bot.py")
GARBAGE_BOT = str(ROOT / "tests" / "bots" / "garbage_bot.py")
THREE_SEAT_BOT = str(ROOT / "tests" / "bots" / "three_seat_bot.py")
"""Right at every table but one of three seats (tests/bots/README.md)."""
FLAG_BOT = str(ROOT / "tests" / "server" / "flag_bot.py")
TLS_BOT = str(ROOT / "tests" / "server" / "tls_bot.py")

T = TypeVar("T")


@dataclass
class Proc:
    """A started process and the address it announced."""

    popen: subprocess.Popen[str]
    address: str

    @property
    def pid(self) -> int:
        return self.popen.pid


def _read_line(popen: subprocess.Popen[str], prefix: str, timeout_s: float) -> str:
    """The rest of the first stdout line starting with ``prefix``."""
    assert popen.stdout is not None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([popen.stdout], [], [], 0.1)
        if ready:
            line = popen.stdout.readline()
            if not line:
                break
            if line.startswith(prefix):
                return line[len(prefix) :].strip()
        elif popen.poll() is not None:
            break
    raise RuntimeError(f"no {prefix!r} line from {popen.args!r} (exit {popen.poll()})")


@dataclass
class Processes:
    """Processes of one test; ``kill_all`` (in a finally) kills each by its pid."""

    started: list[subprocess.Popen[str]] = field(default_factory=list)

    def spawn(self, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        popen = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            env=env,
        )
        self.started.append(popen)
        return popen

    def bots(self, *commands: list[str]) -> list[Proc]:
        """Start bots (scripts with arguments) at once; wait for each one's port."""
        popens = [self.spawn([PY, *command, "--port", "0"]) for command in commands]
        return [Proc(p, _read_line(p, "arena-bot listening on ", 30)) for p in popens]

    def serve(self, db: Path, *args: str, stderr: Path | None = None) -> Proc:
        """Start `arena serve --db DB --port 0 ARGS`; stderr (the log) to a file."""
        argv = [PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", *args]
        log = open(stderr or os.devnull, "w")  # noqa: SIM115 (the child keeps it)
        popen = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, text=True, cwd=ROOT
        )
        log.close()
        self.started.append(popen)
        return Proc(popen, _read_line(popen, "arena serving on ", 30))

    def kill(self, proc: Proc) -> None:
        """SIGKILL one process by pid and reap it."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.popen.wait(timeout=10)

    def kill_all(self) -> None:
        for popen in self.started:
            if popen.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=10)
            if popen.stdout is not None:
                popen.stdout.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def free_port() -> int:
    """A loopback port nothing listens on now (a bot submitted there fails its
    verification: for tests where only the arena's refusals matter)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def arena_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `arena ARGS` (the real command) and capture its output."""
    return subprocess.run(
        [PY, "-m", "arena.cli", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def token(db: Path, owner: str) -> str:
    """A fresh owner token in ``db``."""
    store = open_store(db)
    try:
        return create_token(store, owner)
    finally:
        store.close()


def auth(token_text: str) -> tuple[tuple[str, str]]:
    """Call metadata with a bearer token."""
    return (("authorization", f"Bearer {token_text}"),)


@contextlib.contextmanager
def stub(address: str) -> Iterator[arena_pb2_grpc.ArenaStub]:
    """A blocking Arena stub on loopback."""
    channel = grpc.insecure_channel(address)
    try:
        yield arena_pb2_grpc.ArenaStub(channel)
    finally:
        channel.close()


def wait_until(probe: Callable[[], T | None], timeout_s: float, what: str) -> T:
    """Poll ``probe`` until it returns something truthy."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(0.1)


def bot_named(client: arena_pb2_grpc.ArenaStub, name: str) -> arena_pb2.SubmittedBot | None:
    """One bot as ListBots shows it."""
    bots = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
    return next((b for b in bots if b.name == name), None)


def wait_status(
    client: arena_pb2_grpc.ArenaStub, name: str, status: int, timeout_s: float = 120
) -> arena_pb2.SubmittedBot:
    """Wait for a bot to reach ``status`` (the bound only keeps a broken test from
    hanging: verification took over 20 s on this machine at load 34)."""

    def probe() -> arena_pb2.SubmittedBot | None:
        bot = bot_named(client, name)
        return bot if bot is not None and bot.status == status else None

    return wait_until(probe, timeout_s, f"bot {name} in status {status}")


def submit(
    client: arena_pb2_grpc.ArenaStub, token_text: str, name: str, endpoint: str
) -> arena_pb2.SubmittedBot:
    """SubmitBot; the stored bot."""
    request = arena_pb2.SubmitBotRequest(name=name, endpoint=endpoint)
    bot: arena_pb2.SubmittedBot = client.SubmitBot(
        request, timeout=5, metadata=auth(token_text)
    ).bot
    return bot


def rpc_error(call: Callable[..., object], *args: Any, **kwargs: Any) -> grpc.RpcError:
    """The error ``call(*args, **kwargs)`` fails with (AssertionError if it succeeds)."""
    try:
        call(*args, **kwargs)
    except grpc.RpcError as error:
        return error
    raise AssertionError("the call succeeded")


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 (made with `cryptography`),
    and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class Clock:
    """A clock that moves only when told (the ladder's, in tests)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def until_async(probe: Callable[[], object], what: str, timeout_s: float = 60) -> None:
    """Poll on the event loop until ``probe()`` (real time only bounds the wait;
    nothing is asserted on it)."""
    try:
        async with asyncio.timeout(timeout_s):
            while not probe():
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None
