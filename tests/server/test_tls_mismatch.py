"""A bot that is there but does not speak the TLS (or the plain gRPC) it is dialled in
is not reported as a dead bot: Hello's failure says what is wrong and what to write
instead. Real gRPC servers on 127.0.0.1:0; certificates made by `cryptography`."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.policies import RandomPolicy
from arena.referee.channels import ChannelPool
from arena.referee.hello import hello
from arena.sdk import BotInfo, PolicyServicer, create_server
from arena.v1 import bot_pb2_grpc

from .support import RANDOM_BOT, Processes, arena_cli, self_signed

INFO = BotInfo(name="mismatch", version="test")
TIMEOUT_S = 1.0


async def _tls_bot(
    cert: Path, key: Path, servicer: type[PolicyServicer] = PolicyServicer
) -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(servicer(RandomPolicy, INFO), server)
    credentials = grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
    port = server.add_secure_port("127.0.0.1:0", credentials)
    await server.start()
    return server, port


async def _hello_error(endpoint: str, roots: bytes | None = None) -> str:
    pool = ChannelPool(root_certificates=roots)
    try:
        return (await hello(pool.get(endpoint), endpoint, timeout_s=TIMEOUT_S)).error
    finally:
        await pool.close()


@pytest.mark.slow
def test_tls_to_a_plain_bot_says_it_may_serve_plain_grpc() -> None:
    async def main() -> tuple[str, int]:
        server, port = await create_server(RandomPolicy, info=INFO)
        try:
            return await _hello_error(f"tls://127.0.0.1:{port}"), port
        finally:
            await server.stop(None)

    error, port = asyncio.run(main())
    assert error == (
        f"the bot at tls://127.0.0.1:{port} did not complete a TLS handshake "
        "(WRONG_VERSION_NUMBER): it does not answer in TLS: if it serves plain gRPC, "
        "drop tls://"
    )


@pytest.mark.slow
def test_an_untrusted_certificate_says_to_give_its_ca(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    (tmp_path / "other").mkdir()
    other, _ = self_signed(tmp_path / "other")  # a different key: it signed nothing here

    async def main() -> tuple[str, str, str, int]:
        server, port = await _tls_bot(cert, key)
        endpoint = f"tls://127.0.0.1:{port}"
        try:
            system_roots = await _hello_error(endpoint)
            wrong_roots = await _hello_error(endpoint, other.read_bytes())
            right_roots = await _hello_error(endpoint, cert.read_bytes())
            return system_roots, wrong_roots, right_roots, port
        finally:
            await server.stop(None)

    system_roots, wrong_roots, right_roots, port = asyncio.run(main())
    for error in (system_roots, wrong_roots):
        assert error == (
            f"the bot at tls://127.0.0.1:{port} did not complete a TLS handshake "
            "(CERTIFICATE_VERIFY_FAILED: self signed certificate): its certificate is not "
            "trusted (give the PEM of its CA with --bot-ca) or does not name that host"
        )
    assert right_roots == ""


@pytest.mark.slow
def test_a_name_with_a_refused_address_still_gets_the_handshake_hint(tmp_path: Path) -> None:
    """gRPC dials ``localhost`` at [::1] and 127.0.0.1 (even where /etc/hosts names only
    the second); the bots listen on 127.0.0.1 only. gRPC reports the last address it
    tried, which was the refused [::1] in most runs (9 of 12 before the fix): Hello then
    said nobody answers. The handshake is now asked of the host's addresses itself, and
    the answer is the same every time."""
    cert, key = self_signed(tmp_path)

    async def main() -> tuple[list[str], str, int, int]:
        tls_server, tls_port = await _tls_bot(cert, key)
        plain_server, plain_port = await create_server(RandomPolicy, info=INFO)
        try:
            untrusted = [await _hello_error(f"tls://localhost:{tls_port}") for _ in range(6)]
            plain = await _hello_error(f"tls://localhost:{plain_port}")
            return untrusted, plain, tls_port, plain_port
        finally:
            await tls_server.stop(None)
            await plain_server.stop(None)

    untrusted, plain, tls_port, plain_port = asyncio.run(main())
    assert set(untrusted) == {
        f"the bot at tls://localhost:{tls_port} did not complete a TLS handshake "
        "(CERTIFICATE_VERIFY_FAILED: self signed certificate): its certificate is not "
        "trusted (give the PEM of its CA with --bot-ca) or does not name that host"
    }
    assert plain.startswith(
        f"the bot at tls://localhost:{plain_port} did not complete a TLS handshake "
    )
    assert "drop tls://" in plain


class _SilentServicer(PolicyServicer):
    """A bot that completes its TLS handshake, then never answers Hello."""

    async def Hello(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC's name)
        await asyncio.Event().wait()


@pytest.mark.slow
def test_a_trusted_bot_that_does_not_answer_gets_no_tls_hint(tmp_path: Path) -> None:
    """With its CA given, a TLS bot that takes the connection and then says nothing is a
    bot that does not answer: the handshake worked, so the check of the certificate by
    the system's roots (which would fail) must not be offered as the reason."""
    cert, key = self_signed(tmp_path)

    async def main() -> tuple[str, int]:
        server, port = await _tls_bot(cert, key, _SilentServicer)
        try:
            return await _hello_error(f"tls://localhost:{port}", cert.read_bytes()), port
        finally:
            await server.stop(None)

    error, port = asyncio.run(main())
    assert error == (
        f"no bot answers at tls://localhost:{port} (within {TIMEOUT_S:g} s: "
        "DEADLINE_EXCEEDED). Is the bot running and listening on that port?"
    )


@pytest.mark.slow
def test_plain_grpc_to_a_tls_bot_says_to_write_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)

    async def main() -> tuple[str, int]:
        server, port = await _tls_bot(cert, key)
        try:
            return await _hello_error(f"127.0.0.1:{port}"), port
        finally:
            await server.stop(None)

    error, port = asyncio.run(main())
    assert error == (
        f"the server at 127.0.0.1:{port} closed the connection without a word of gRPC: if "
        f"the bot serves TLS, write tls://127.0.0.1:{port}"
    )


@pytest.mark.slow
def test_a_server_that_speaks_http1_is_not_a_bot() -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    async def main() -> tuple[str, int]:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            return await _hello_error(f"127.0.0.1:{port}"), port
        finally:
            server.close()
            await server.wait_closed()

    error, port = asyncio.run(main())
    assert error == f"the server at 127.0.0.1:{port} speaks HTTP/1, not gRPC; is it an arena bot?"


@pytest.mark.slow
def test_nobody_there_is_still_nobody_there() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for endpoint in (f"127.0.0.1:{port}", f"tls://127.0.0.1:{port}"):
        error = asyncio.run(_hello_error(endpoint))
        assert error == (
            f"no bot answers at {endpoint} (within {TIMEOUT_S:g} s: DEADLINE_EXCEEDED). "
            "Is the bot running and listening on that port?"
        )


@pytest.mark.slow
def test_check_bot_says_the_handshake_failed() -> None:
    procs = Processes()
    try:
        (plain,) = procs.bots([RANDOM_BOT])
        checked = arena_cli("check-bot", f"tls://{plain.address}", "--games", "1")
        assert checked.returncode == 1
        assert checked.stdout.startswith(
            f"FAIL  Hello: the bot at tls://{plain.address} did not complete a TLS handshake "
        )
        assert "drop tls://" in checked.stdout
        assert "no bot answers" not in checked.stdout
    finally:
        procs.kill_all()
