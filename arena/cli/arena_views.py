"""``arena matches --arena HOST:PORT`` and ``arena replay MATCH_ID --arena HOST:PORT``:
the ladder's matches read from a running arena instead of a database file."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Final

import grpc

from arena.text import shown
from arena.v1 import arena_pb2
from arena.web.ladders import ended

from .arena_client import CALL_TIMEOUT_S, MAX_FIELD, ClientError, arena_stub, explain, pages

MAX_PAGE: Final = 500
"""Finished matches asked for per page (the arena's cap)."""


def add_remote_options(parser: argparse.ArgumentParser) -> None:
    """``--arena`` (no default: without it the command reads ``--db``), ``--tls``, ``--ca``."""
    parser.add_argument("--arena", metavar="HOST:PORT", help="read from this running arena")
    parser.add_argument("--tls", action="store_true", help="with --arena: it serves TLS")
    parser.add_argument("--ca", metavar="FILE", help="with --arena: PEM roots for its certificate")


def _fail(args: argparse.Namespace, error: ClientError) -> int:
    print(f"arena {args.command}: {shown(str(error))}", file=sys.stderr)
    return error.status


def run_matches(args: argparse.Namespace) -> int:
    """The arena's matches (those being played first), then the last ``--limit``
    finished ones, newest first, read a page at a time."""
    matches: list[arena_pb2.MatchSummary] = []
    try:
        with arena_stub(args) as stub:
            request = arena_pb2.ListMatchesRequest(
                bot=args.bot or "", limit=min(args.limit, MAX_PAGE), include_running=True
            )
            finished = 0
            try:
                for reply in pages(stub.ListMatches, request, timeout=CALL_TIMEOUT_S):
                    for match in reply.matches:
                        if not match.running:
                            if finished == args.limit:
                                break
                            finished += 1
                        matches.append(match)
                    if finished >= args.limit:
                        break
                    request.limit = min(args.limit - finished, MAX_PAGE)
            except grpc.RpcError as error:
                raise explain(error, args) from None
    except ClientError as error:
        return _fail(args, error)
    for match in matches:
        when = time.strftime("%H:%M:%S", time.localtime(match.at))
        match_id = shown(match.match_id, MAX_FIELD)
        if match.running:
            seats = "  ".join(shown(s.bot, MAX_FIELD) for s in match.seats)
            print(f"{match_id}  {when}  playing now      {seats}")
            continue
        seats = "  ".join(
            f"{shown(s.bot, MAX_FIELD)}:{s.score:+d}#{s.rank}{'F' if s.forfeited else ''}"
            for s in match.seats
        )
        why = shown(ended(match.end_reason, match.ladder), MAX_FIELD)
        print(f"{match_id}  {when}  {why:<16} {seats}")
    if not matches:
        print("no matches yet")
    else:
        playing = sum(1 for match in matches if match.running)
        finished = len(matches) - playing
        print(
            f"({finished} finished, {playing} playing; "
            f"replay a finished one with: arena replay MATCH_ID --arena {args.arena} [--seat N])"
        )
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """One finished match as one seat saw it (``--seat``) or with everything revealed."""
    request = arena_pb2.GetMatchRequest(match_id=args.source)
    if args.seat is not None:
        request.seat = args.seat
    else:
        request.full = True
    try:
        with arena_stub(args) as stub:
            try:
                reply = stub.GetMatch(request, timeout=CALL_TIMEOUT_S)
            except grpc.RpcError as error:
                raise explain(error, args) from None
    except ClientError as error:
        return _fail(args, error)
    for line in reply.replay:
        print(shown(line))
    return 0
