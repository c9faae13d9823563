"""Hello: ask a bot who it is, with a timeout, turning every failure into words."""

from __future__ import annotations

import asyncio
import re
import socket
import ssl
from dataclasses import dataclass
from typing import Final

import grpc

from arena import __version__
from arena.games import plays
from arena.v1 import bot_pb2, bot_pb2_grpc

from .channels import EndpointError, parse_bot_endpoint

PROTOCOL = "arena.v1"

PROBE_TIMEOUT_S: Final = 1.0
"""How long the second Hello that asks why the first one failed may take."""
_SSL_REASON = re.compile(r"OPENSSL_internal:(?P<code>[A-Z][A-Z0-9_]+)(?:: (?P<why>[a-z][a-z ]+))?")
"""The reason in gRPC's words for a failed handshake (grpc 1.85: "... Tls handshake failed
(TSI_PROTOCOL_FAILURE): SSL_ERROR_SSL: error:1000007d:SSL routines:OPENSSL_internal:
CERTIFICATE_VERIFY_FAILED: self signed certificate: OK")."""


@dataclass(frozen=True, slots=True)
class HelloResult:
    """A bot's Hello answer, or why there is none."""

    reply: bot_pb2.HelloReply | None
    """The answer, if any."""
    error: str = ""
    """What went wrong, in words a user can act on."""


async def hello(
    channel: grpc.aio.Channel, endpoint: str, timeout_s: float = 5.0, game: str | None = None
) -> HelloResult:
    """Call Hello on a bot; with ``game``, a bot that says it plays other games only is
    an error."""
    stub = bot_pb2_grpc.BotStub(channel)
    request = bot_pb2.HelloRequest(arena_version=__version__, protocol=PROTOCOL)
    try:
        reply = await stub.Hello(
            request,
            timeout=timeout_s,
            wait_for_ready=True,
        )
    except grpc.aio.AioRpcError as error:
        code = error.code()
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            why = f"{error.details() or ''} {await _connection_error(stub, request, timeout_s)}"
            explained = _unreachable(endpoint, why)
            if not explained and channel.get_state() is not grpc.ChannelConnectivity.READY:
                # Not connected, and gRPC's words do not say why (a handshake done is no
                # TLS problem: the bot is there and slow, whatever the roots here say).
                explained = _unreachable(endpoint, f"{why} {await _tls_failure(endpoint)}")
            return HelloResult(
                None,
                explained
                or f"no bot answers at {endpoint} (within {timeout_s:g} s: {code.name}). "
                "Is the bot running and listening on that port?",
            )
        if code == grpc.StatusCode.UNIMPLEMENTED:
            return HelloResult(
                None,
                f"the server at {endpoint} does not implement arena.v1.Bot/Hello; "
                "is it an arena bot?",
            )
        return HelloResult(None, f"Hello to {endpoint} failed: {code.name}: {error.details()}")
    if not isinstance(reply, bot_pb2.HelloReply):
        # grpc.aio hands back None when the reply's bytes do not parse.
        return HelloResult(
            None,
            f"the bot at {endpoint} answered Hello with bytes that are not an "
            "arena.v1.HelloReply; is it an arena bot, built from proto/arena/v1/bot.proto?",
        )
    if game is not None and (why := not_playing(reply, game)):
        return HelloResult(reply, f"the bot at {endpoint} {why}")
    return HelloResult(reply)


async def _connection_error(
    stub: bot_pb2_grpc.BotStub, request: bot_pb2.HelloRequest, timeout_s: float
) -> str:
    """Why the channel cannot connect, as gRPC words it ("" if it does not say). A call
    that waits for the channel (as Hello does) only ever fails with "Deadline Exceeded";
    one that does not fails at once with the last connection error."""
    try:
        await stub.Hello(request, timeout=min(timeout_s, PROBE_TIMEOUT_S))
    except grpc.aio.AioRpcError as error:
        return error.details() or ""
    return ""


async def _tls_failure(endpoint: str) -> str:
    """For a ``tls://`` endpoint: why a TLS handshake fails at the first of its host's
    addresses that takes a connection, in OpenSSL's words ("" if none does, or it
    succeeds). gRPC reports only the last address it tried: for ``localhost`` that may
    be a refused ``[::1]`` while the bot, on 127.0.0.1, failed the handshake, and the
    user would be told nobody answers instead of why. Only the certificate check by the
    system's roots is tried here; a handshake it passes explains nothing, so says "".
    """
    try:
        host, port, tls = parse_bot_endpoint(endpoint)
    except EndpointError:
        return ""
    if not tls:
        return ""
    name = host[1:-1] if host.startswith("[") else host
    loop = asyncio.get_running_loop()
    try:
        addresses = await loop.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except OSError:
        return ""
    for *_, address in addresses:
        ip, at = str(address[0]), int(address[1])
        context = ssl.create_default_context()
        context.set_alpn_protocols(["h2"])
        try:
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                _, writer = await asyncio.open_connection(ip, at, ssl=context, server_hostname=name)
        except ssl.SSLCertVerificationError as error:
            why = str(error.verify_message).replace("-", " ")  # as gRPC's words have it
            return f"OPENSSL_internal:CERTIFICATE_VERIFY_FAILED: {why}"
        except ssl.SSLError as error:
            return f"ssl handshake: OPENSSL_internal:{error.reason or 'TLS_HANDSHAKE_FAILED'}"
        except (OSError, TimeoutError):
            continue  # nobody at this address: the next one
        writer.close()
        return ""
    return ""


def _unreachable(endpoint: str, details: str) -> str:
    """What a connection failure means when it is not simply "nobody there" ("" then):
    a TLS handshake that fails, or a server that does not speak plain gRPC."""
    lowered = details.lower()
    if "handshake" in lowered or "ssl" in lowered or "certificate" in lowered:
        match = _SSL_REASON.search(details)
        reason = "TLS handshake failed"
        if match is not None:
            reason = match["code"] + (f": {match['why'].strip()}" if match["why"] else "")
        if "WRONG_VERSION_NUMBER" in details:
            hint = "it does not answer in TLS: if it serves plain gRPC, drop tls://"
        elif "CERTIFICATE_VERIFY_FAILED" in details or "peer name" in lowered:
            hint = (
                "its certificate is not trusted (give the PEM of its CA with --bot-ca) "
                "or does not name that host"
            )
        else:
            hint = (
                "it may serve plain gRPC (drop tls://), or its certificate is not trusted "
                "(--bot-ca PEM)"
            )
        return f"the bot at {endpoint} did not complete a TLS handshake ({reason}): {hint}"
    if "socket closed" in lowered and not endpoint.lower().startswith("tls://"):
        return (
            f"the server at {endpoint} closed the connection without a word of gRPC: if "
            f"the bot serves TLS, write tls://{endpoint}"
        )
    if "http1.x" in lowered or "http/1" in lowered:
        return f"the server at {endpoint} speaks HTTP/1, not gRPC; is it an arena bot?"
    return ""


def not_playing(reply: bot_pb2.HelloReply, game: str) -> str:
    """Why a bot whose Hello is ``reply`` cannot play ``game`` ("" if it can; an empty
    ``games`` in Hello means any, ``FAMILY:*`` every game of a family)."""
    if not plays(reply.games, game):
        return f"plays {list(reply.games)}, not {game!r}"
    return ""


def unsupported(
    reply: bot_pb2.HelloReply, players: int, preset: str, game: str | None = None
) -> str:
    """Why a bot whose Hello is ``reply`` cannot take a seat at a table of ``players``
    with ``preset`` of ``game`` ("" if it can). Empty ``players``/``presets``/``games``
    in Hello mean all."""
    if game is not None and (why := not_playing(reply, game)):
        return f"it {why}"
    if reply.players and players not in reply.players:
        return f"it plays tables of {sorted(reply.players)} players, not {players}"
    if reply.presets and preset not in reply.presets:
        return f"it plays the presets {list(reply.presets)}, not {preset!r}"
    return ""
