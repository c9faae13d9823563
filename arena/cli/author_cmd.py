"""Bot authors' commands against a running arena: ``arena submit``, ``update``,
``retire``, ``bots`` and ``leaderboard``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from typing import Any, Final

import grpc

from arena.league.leaderboard import Row, render
from arena.store.registry import MAX_REASON, MAX_VERSION
from arena.text import shown
from arena.v1 import arena_pb2, arena_pb2_grpc

from .arena_client import (
    CALL_TIMEOUT_S,
    MAX_FIELD,
    ClientError,
    add_arena_options,
    arena_stub,
    explain,
    metadata,
    pages,
    plaintext_refusal,
)

STATUS_NAMES: Final = {
    arena_pb2.BOT_STATUS_UNSPECIFIED: "-",
    arena_pb2.BOT_STATUS_VERIFYING: "verifying",
    arena_pb2.BOT_STATUS_ACTIVE: "active",
    arena_pb2.BOT_STATUS_SUSPENDED: "suspended",
    arena_pb2.BOT_STATUS_RETIRED: "retired",
}
"""Status enum -> the word shown."""
POLL_S: Final = 0.3
"""How often ``submit`` looks at a bot under verification."""
PAGE: Final = 500
"""Bots or leaderboard rows asked for per page (the arena caps bots at 500 and rows at
1000)."""


def register(sub: Any) -> None:
    """Add the author commands."""
    submit: argparse.ArgumentParser = sub.add_parser(
        "submit", help="submit your running bot's endpoint to an arena"
    )
    add_arena_options(submit, token=True)
    submit.add_argument("--name", required=True, help="the bot's name on the arena")
    submit.add_argument(
        "--endpoint", required=True, help="HOST:PORT where it listens (tls://HOST:PORT for TLS)"
    )
    submit.add_argument("--description", default="", help="shown in arena bots")
    _wait_options(submit)
    submit.set_defaults(run=run_submit)

    update: argparse.ArgumentParser = sub.add_parser(
        "update",
        help="re-verify your bot (new endpoint or version); re-activates a suspended bot",
    )
    add_arena_options(update, token=True)
    update.add_argument("--name", required=True, help="your bot")
    update.add_argument("--endpoint", default="", help="a new HOST:PORT (default: keep it)")
    update.add_argument("--description", help="a new description (default: keep it)")
    _wait_options(update)
    update.set_defaults(run=run_update)

    retire: argparse.ArgumentParser = sub.add_parser(
        "retire", help="take your bot off an arena's ladder"
    )
    add_arena_options(retire, token=True)
    retire.add_argument("--name", required=True, help="your bot")
    retire.add_argument(
        "--release",
        action="store_true",
        help="also give up its endpoint, so that anyone may submit it (a retired bot "
        "keeps its endpoint for you until then; also on a bot already retired)",
    )
    retire.set_defaults(run=run_retire)

    bots: argparse.ArgumentParser = sub.add_parser(
        "bots", help="the bots of an arena with their status"
    )
    add_arena_options(bots, token=True)
    bots.add_argument("--owner", default="", help="only this owner's bots")
    bots.add_argument("--format", choices=("table", "json"), default="table")
    bots.set_defaults(run=run_bots)

    board: argparse.ArgumentParser = sub.add_parser(
        "leaderboard", help="an arena's live leaderboard"
    )
    add_arena_options(board, token=False)
    board.add_argument("--ladder", default="", help="the ladder (default: the arena's own)")
    board.add_argument("--all", action="store_true", help="also retired bots")
    board.add_argument("--format", choices=("table", "json"), default="table")
    board.set_defaults(run=run_leaderboard)


def _wait_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-wait", action="store_true", help="return at once; do not wait for the verification"
    )
    parser.add_argument(
        "--wait-s", type=float, default=120.0, help="how long to wait for it (default 120)"
    )


def _guarded(args: argparse.Namespace, body: Any, *, token_optional: bool = False) -> int:
    """Run ``body(stub)``; print any failure in words; the exit status. A token is never
    sent in clear to another machine without ``--insecure``: the command is refused
    (exit status 2), or, where the token is optional, runs without it."""
    try:
        if getattr(args, "token", None) and (why := plaintext_refusal(args)):
            if not token_optional:
                raise ClientError(why, 2)
            print(
                f"arena {args.command}: {why}; listing without it (your endpoints are not shown)",
                file=sys.stderr,
            )
            args.token = None
        with arena_stub(args) as stub:
            try:
                status: int = body(stub)
            except grpc.RpcError as error:
                raise explain(error, args) from None
        return status
    except ClientError as error:
        print(f"arena {args.command}: {shown(str(error))}", file=sys.stderr)
        return error.status


def _need_token(args: argparse.Namespace) -> None:
    if not args.token:
        raise ClientError(
            "this needs your owner token: pass --token TOKEN or set ARENA_TOKEN (the "
            "organizer creates one with `arena token create OWNER --db FILE`)",
            2,
        )


def _describe(bot: arena_pb2.SubmittedBot) -> str:
    status = STATUS_NAMES.get(bot.status, "?")
    reason = f" ({shown(bot.status_reason, MAX_REASON)})" if bot.status_reason else ""
    return f"bot '{shown(bot.name, MAX_FIELD)}': {status}{reason}"


def _await_verdict(
    stub: arena_pb2_grpc.ArenaStub, args: argparse.Namespace, bot: arena_pb2.SubmittedBot
) -> int:
    """Follow a verification to its end; 0 if the bot became active."""
    print(_describe(bot), flush=True)
    if args.no_wait:
        return 0
    deadline = time.monotonic() + args.wait_s
    printed = bot.status_reason
    while time.monotonic() < deadline:
        time.sleep(POLL_S)
        now = None
        for reply in pages(
            stub.ListBots,
            arena_pb2.ListBotsRequest(owner=bot.owner, page_size=PAGE),
            timeout=CALL_TIMEOUT_S,
            metadata=metadata(args.token),
        ):
            now = next((b for b in reply.bots if b.name == bot.name), None)
            if now is not None or (reply.bots and reply.bots[-1].name > bot.name):
                break
        if now is None:
            raise ClientError(f"bot {bot.name!r} vanished from the arena")
        if now.status == arena_pb2.BOT_STATUS_VERIFYING:
            if now.status_reason != printed:
                printed = now.status_reason
                print(_describe(now), flush=True)
            continue
        print(_describe(now))
        if now.status == arena_pb2.BOT_STATUS_ACTIVE:
            print(
                f"It plays on ladder {shown(reply.ladder, MAX_FIELD)} "
                f"({shown(reply.ladder_status, MAX_FIELD)}). Watch it: arena leaderboard "
                f"--arena {args.arena}"
            )
            return 0
        return 1
    raise ClientError(
        f"bot {bot.name!r} is still being verified after {args.wait_s:g} s; follow it with "
        f"arena bots --arena {args.arena}"
    )


def run_submit(args: argparse.Namespace) -> int:
    """SubmitBot, then wait for the verification."""

    def body(stub: arena_pb2_grpc.ArenaStub) -> int:
        _need_token(args)
        reply = stub.SubmitBot(
            arena_pb2.SubmitBotRequest(
                name=args.name, endpoint=args.endpoint, description=args.description
            ),
            timeout=CALL_TIMEOUT_S,
            metadata=metadata(args.token),
        )
        return _await_verdict(stub, args, reply.bot)

    return _guarded(args, body)


def run_update(args: argparse.Namespace) -> int:
    """UpdateBot, then wait for the verification."""

    def body(stub: arena_pb2_grpc.ArenaStub) -> int:
        _need_token(args)
        request = arena_pb2.UpdateBotRequest(name=args.name, endpoint=args.endpoint)
        if args.description is not None:
            request.description = args.description
        reply = stub.UpdateBot(request, timeout=CALL_TIMEOUT_S, metadata=metadata(args.token))
        return _await_verdict(stub, args, reply.bot)

    return _guarded(args, body)


def run_retire(args: argparse.Namespace) -> int:
    """RetireBot."""

    def body(stub: arena_pb2_grpc.ArenaStub) -> int:
        _need_token(args)
        reply = stub.RetireBot(
            arena_pb2.RetireBotRequest(name=args.name, release_endpoint=args.release),
            timeout=CALL_TIMEOUT_S,
            metadata=metadata(args.token),
        )
        print(_describe(reply.bot))
        return 0

    return _guarded(args, body)


def run_bots(args: argparse.Namespace) -> int:
    """ListBots as a table or JSON."""

    def every_page(stub: arena_pb2_grpc.ArenaStub, token: str | None) -> list[Any]:
        request = arena_pb2.ListBotsRequest(owner=args.owner, page_size=PAGE)
        return list(pages(stub.ListBots, request, timeout=CALL_TIMEOUT_S, metadata=metadata(token)))

    def body(stub: arena_pb2_grpc.ArenaStub) -> int:
        try:
            replies = every_page(stub, args.token)
        except grpc.RpcError as error:
            if not args.token or error.code() != grpc.StatusCode.UNAUTHENTICATED:
                raise
            # The list is public; a token only adds the owner's endpoints. Say why it is
            # not used, and list without it.
            print(
                f"arena bots: the token was not accepted ({shown(error.details() or '')}); "
                "listing without it (your endpoints are not shown)",
                file=sys.stderr,
            )
            replies = every_page(stub, None)
        reply, bots = replies[-1], [b for r in replies for b in r.bots]
        if args.format == "json":
            print(
                json.dumps(
                    {
                        "ladder": reply.ladder,
                        "ladder_status": reply.ladder_status,
                        "bots": [_bot_json(b) for b in bots],
                    },
                    indent=2,
                )
            )
            return 0
        print(f"ladder {shown(reply.ladder, MAX_FIELD)}: {shown(reply.ladder_status, MAX_FIELD)}")
        if not bots:
            print("no bots yet; submit one with: arena submit --name N --endpoint HOST:PORT")
        for bot in bots:
            print(bot_line(bot))
        return 0

    return _guarded(args, body, token_optional=True)


def bot_line(bot: arena_pb2.SubmittedBot) -> str:
    """One bot as a line of the ``arena bots`` table, every field ``shown``."""
    status = STATUS_NAMES.get(bot.status, "?")
    where = f"  {shown(bot.endpoint, MAX_FIELD)}" if bot.endpoint else ""
    reason = f"  ({shown(bot.status_reason, MAX_REASON)})" if bot.status_reason else ""
    version = shown(bot.version, MAX_VERSION) or "-"
    name, owner = shown(bot.name, MAX_FIELD), shown(bot.owner, MAX_FIELD)
    return f"{name:<20} {owner:<12} {status:<10} {bot.matches:>5} matches  {version}{where}{reason}"


def _bot_json(bot: arena_pb2.SubmittedBot) -> dict[str, Any]:
    return {
        "name": bot.name,
        "owner": bot.owner,
        "endpoint": bot.endpoint,
        "description": bot.description,
        "status": STATUS_NAMES.get(bot.status, "?"),
        "status_reason": bot.status_reason,
        "version": bot.version,
        "matches": bot.matches,
        "placement_left": bot.placement_left,
        "failing_streak": bot.failing_streak,
    }


def run_leaderboard(args: argparse.Namespace) -> int:
    """GetLeaderboard as a table or JSON (rows with ``name`` and ``matches``)."""

    def body(stub: arena_pb2_grpc.ArenaStub) -> int:
        request = arena_pb2.GetLeaderboardRequest(
            ladder=args.ladder, include_retired=args.all, page_size=PAGE
        )
        replies = list(pages(stub.GetLeaderboard, request, timeout=CALL_TIMEOUT_S))
        reply = replies[-1]
        got = [r for page in replies for r in page.rows]
        rows = [
            Row(
                rank=r.rank,
                name=shown(r.name, MAX_FIELD),
                conservative=r.conservative,
                mu=r.mu,
                sigma=r.sigma,
                matches=r.matches,
                wins=r.wins,
                mean_score=r.mean_score,
                mean_rank=r.mean_rank,
                timeouts=r.timeouts,
                errors=r.errors,
                invalid=r.invalid,
                rank_low=r.rank_low,
                rank_high=r.rank_high,
                p_above_next=r.p_above_next if r.HasField("p_above_next") else None,
            )
            for r in got
        ]
        if args.format == "json":
            statuses = [STATUS_NAMES.get(r.status, "?") for r in got]
            data = [asdict(row) | {"status": s} for row, s in zip(rows, statuses, strict=True)]
            print(json.dumps(data, indent=2))
            return 0
        if rows:
            print(render(rows, "table", shown(reply.ladder, MAX_FIELD)))
        else:
            print(f"ladder {shown(reply.ladder, MAX_FIELD)}: no rated matches yet")
        print(shown(reply.ladder_status, MAX_FIELD))
        return 0

    return _guarded(args, body)
