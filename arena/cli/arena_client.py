"""The author side of the Arena service: options, a channel, and errors in words.

Shared by ``arena submit|update|retire|bots|leaderboard`` and the ``--arena`` forms of
``arena matches`` and ``arena replay``.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import grpc

from arena.referee.channels import EndpointError, loopback_host, parse_endpoint, split_tls
from arena.text import shown
from arena.v1 import arena_pb2_grpc

DEFAULT_PORT: Final = 50050
"""The port ``arena serve`` listens on by default."""
DEFAULT_ARENA: Final = f"127.0.0.1:{DEFAULT_PORT}"
"""Where ``arena serve`` listens by default."""
_HOST_ONLY: Final = re.compile(r"\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+")
"""A host without a port (which gRPC would dial at 443)."""
CALL_TIMEOUT_S: Final = 15.0
"""Every call's deadline."""
MAX_DETAILS: Final = 2000
"""Characters of an arena's error message printed."""
MAX_FIELD: Final = 300
"""Characters of a name, owner, endpoint or ladder status printed in a table (every
field an arena sends is printed through ``arena.text.shown``: whatever an arena, or a
bot through it, sends, no escape sequence, line break or bidi override reaches the
screen)."""
READ_TRIES: Final = 30
"""Times a read the arena's read limit refused is tried before giving up."""
MAX_READ_WAIT_S: Final = 5.0
"""Longest wait before trying a refused read again."""
_TRY_AGAIN: Final = re.compile(r"try again in ([0-9]+(?:\.[0-9]+)?) s")


class ClientError(RuntimeError):
    """A failure to report (already in words); ``status`` is the exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def add_arena_options(parser: argparse.ArgumentParser, *, token: bool) -> None:
    """``--arena``, ``--tls``, ``--ca`` (and ``--token``)."""
    parser.add_argument(
        "--arena",
        default=os.environ.get("ARENA_ADDRESS", DEFAULT_ARENA),
        metavar="HOST:PORT",
        help=f"the arena (default $ARENA_ADDRESS or {DEFAULT_ARENA}); tls://HOST:PORT means --tls",
    )
    parser.add_argument("--tls", action="store_true", help="the arena serves TLS")
    parser.add_argument(
        "--ca", metavar="FILE", help="PEM roots trusted for the arena's certificate (implies --tls)"
    )
    if token:
        parser.add_argument(
            "--token",
            default=os.environ.get("ARENA_TOKEN"),
            help="your owner token (default $ARENA_TOKEN; from the organizer)",
        )
        parser.add_argument(
            "--insecure",
            action="store_true",
            help="send the token without TLS to an arena that is not on this machine "
            "(it crosses the network in clear: a network you trust only)",
        )


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    """The call metadata carrying ``token``."""
    return (("authorization", f"Bearer {token}"),) if token else ()


def arena_address(text: str) -> tuple[str, bool]:
    """``HOST:PORT`` to dial, and whether the address was ``tls://HOST:PORT``; a
    ClientError (exit status 2) for anything else, before anything is dialled (gRPC
    would dial a HOST without a port at 443)."""
    tls, rest = split_tls(text)
    if _HOST_ONLY.fullmatch(rest):
        raise ClientError(
            f"--arena {text!r} has no port; write HOST:PORT (e.g. {rest}:{DEFAULT_PORT}, where "
            "`arena serve` listens by default), or tls://HOST:PORT for an arena serving TLS",
            2,
        )
    try:
        if "://" in rest:
            raise EndpointError(rest)
        host, port = parse_endpoint(rest)
    except EndpointError:
        raise ClientError(
            f"--arena {text!r} is not HOST:PORT; write e.g. {DEFAULT_ARENA}, or "
            "tls://HOST:PORT for an arena serving TLS",
            2,
        ) from None
    return f"{host}:{port}", tls


def plaintext_refusal(args: argparse.Namespace) -> str | None:
    """Why a token must not be sent to ``args.arena``: in clear (no TLS) to a host that
    is not this machine's loopback, without ``--insecure``; None if it may be. A
    ClientError (status 2) if ``args.arena`` is not ``[tls://]HOST:PORT``."""
    target, _ = arena_address(args.arena)
    if _tls(args) or getattr(args, "insecure", False):
        return None
    if loopback_host(target.rpartition(":")[0]):
        return None
    return (
        f"not sending your token in clear to {args.arena}: that is not this machine and "
        "the connection is not TLS, so anyone on the way could read it. For an arena "
        "serving TLS add --tls (or write tls://HOST:PORT, and --ca FILE for a private "
        "CA); on a network you trust, add --insecure"
    )


def _tls(args: argparse.Namespace) -> bool:
    """Whether the arena is dialled in TLS: ``--tls``, ``--ca`` or ``tls://``."""
    return bool(args.tls or args.ca or split_tls(args.arena or "")[0])


@contextmanager
def arena_stub(args: argparse.Namespace) -> Iterator[arena_pb2_grpc.ArenaStub]:
    """A stub on a channel to ``args.arena`` (TLS with ``tls://``, ``--tls`` or ``--ca``);
    ClientError (status 2) if ``args.arena`` is not ``[tls://]HOST:PORT``."""
    target, _ = arena_address(args.arena)
    if _tls(args):
        roots = None
        if args.ca:
            try:
                roots = Path(args.ca).read_bytes()
            except OSError as error:
                raise ClientError(f"cannot read --ca {args.ca}: {error.strerror}", 2) from None
        channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=roots))
    else:
        channel = grpc.insecure_channel(target)
    try:
        yield arena_pb2_grpc.ArenaStub(channel)
    finally:
        channel.close()


def explain(error: grpc.RpcError, args: argparse.Namespace) -> ClientError:
    """An RPC failure as what went wrong and what to do."""
    code = error.code()
    details = shown(error.details() or "no details", MAX_DETAILS)
    if code == grpc.StatusCode.UNAVAILABLE:
        tls = _tls(args)
        hint = (
            "Is `arena serve` running there?"
            if not tls
            else "Is `arena serve` running there with --tls-cert? Does --ca hold the root "
            "of its certificate, and does HOST match the certificate's names?"
        )
        if not tls:
            hint += " If it serves TLS, add --tls (and --ca FILE for its certificate)."
        return ClientError(f"no arena answers at {args.arena} ({details}). {hint}")
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return ClientError(
            f"the arena at {args.arena} did not answer within {CALL_TIMEOUT_S:g} s; try again"
        )
    return ClientError(f"{code.name}: {details}")


def read(call: Callable[..., Any], request: Any, **options: Any) -> Any:
    """``call(request, **options)`` (a read), waited for and tried again as long as the
    arena's read limit refuses it (RESOURCE_EXHAUSTED, saying when to try again), up to
    ``READ_TRIES`` times; other failures raise as they come."""
    for attempt in range(READ_TRIES):
        try:
            return call(request, **options)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or attempt == READ_TRIES - 1:
                raise
            found = _TRY_AGAIN.search(error.details() or "")
            time.sleep(min(float(found.group(1)) if found else 1.0, MAX_READ_WAIT_S))
    raise AssertionError("unreachable")  # pragma: no cover


def pages(call: Callable[..., Any], request: Any, **options: Any) -> Iterator[Any]:
    """Every reply of a list read page by page: ``request`` again with each reply's
    ``next_page_token`` until one has none (each page through ``read``)."""
    while True:
        reply = read(call, request, **options)
        yield reply
        if not reply.next_page_token:
            return
        request.page_token = reply.next_page_token
