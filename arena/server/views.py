"""Domain rows as Arena protobuf messages (and nothing else)."""

from __future__ import annotations

from typing import Final

from arena.league.leaderboard import Row
from arena.referee.channels import split_tls
from arena.store.registry import MAX_REASON, MAX_VERSION, BotEntry, BotStatus
from arena.store.rows import MatchRow
from arena.text import shown
from arena.v1 import arena_pb2

from .config import MAX_DESCRIPTION
from .ladder import RunningMatch

STATUS: Final = {
    BotStatus.VERIFYING: arena_pb2.BOT_STATUS_VERIFYING,
    BotStatus.ACTIVE: arena_pb2.BOT_STATUS_ACTIVE,
    BotStatus.SUSPENDED: arena_pb2.BOT_STATUS_SUSPENDED,
    BotStatus.RETIRED: arena_pb2.BOT_STATUS_RETIRED,
}
"""Stored status -> proto enum."""


def bot_message(bot: BotEntry, *, matches: int, show_endpoint: bool) -> arena_pb2.SubmittedBot:
    """A bot as the Arena service shows it: the endpoint only to its owner (also out
    of the status reason, where error messages may quote it); every text as
    ``arena.text.shown`` makes it visible, within its cap (the database holds the
    words as given)."""
    _, host_port = split_tls(bot.endpoint)
    hide = not show_endpoint and bool(host_port)
    reason = bot.status_reason.replace(host_port, "ENDPOINT") if hide else bot.status_reason
    reason = shown(reason, MAX_REASON)
    if hide:
        reason = _cut_inside(reason, host_port)
    return arena_pb2.SubmittedBot(
        name=shown(bot.name),
        owner=shown(bot.owner),
        endpoint=shown(bot.endpoint) if show_endpoint else "",
        description=shown(bot.description, MAX_DESCRIPTION),
        status=STATUS[bot.status],
        status_reason=reason,
        version=shown(bot.version, MAX_VERSION),
        matches=matches,
        placement_left=bot.placement_left,
        failing_streak=bot.failing_streak,
        created_at=bot.created_at,
        updated_at=bot.updated_at,
    )


def _cut_inside(reason: str, host_port: str) -> str:
    """``reason`` without the first part of ``host_port`` where it was cut to its cap
    (it then ends in an ellipsis) inside it."""
    if reason.endswith("\u2026"):
        body = reason[:-1]
        for size in range(min(len(host_port) - 1, len(body)), 0, -1):
            if body.endswith(host_port[:size]):
                return body[:-size] + "\u2026"
    return reason


def leaderboard_row(row: Row, status: BotStatus | None) -> arena_pb2.LeaderboardRow:
    """One standing."""
    return arena_pb2.LeaderboardRow(
        rank=row.rank,
        name=shown(row.name),
        conservative=row.conservative,
        mu=row.mu,
        sigma=row.sigma,
        matches=row.matches,
        wins=row.wins,
        mean_score=row.mean_score,
        mean_rank=row.mean_rank,
        timeouts=row.timeouts,
        errors=row.errors,
        invalid=row.invalid,
        status=STATUS[status] if status is not None else arena_pb2.BOT_STATUS_UNSPECIFIED,
        rank_low=row.rank_low,
        rank_high=row.rank_high,
        p_above_next=row.p_above_next,
    )


def finished_match(row: MatchRow) -> arena_pb2.MatchSummary:
    """A finished match without its record."""
    return arena_pb2.MatchSummary(
        match_id=shown(row.id),
        ladder=shown(row.ladder),
        running=False,
        seats=[
            arena_pb2.MatchSeat(
                seat=s.seat,
                bot=shown(s.bot),
                score=s.score,
                rank=s.rank,
                forfeited=s.forfeited,
                faults=s.timeouts + s.errors + s.invalid,
            )
            for s in row.seats
        ],
        end_reason=shown(row.end_reason),
        decisions=row.decisions,
        at=row.finished_at,
    )


def running_match(match: RunningMatch, ladder: str) -> arena_pb2.MatchSummary:
    """A match being played: who sits where, nothing more."""
    return arena_pb2.MatchSummary(
        match_id=match.match_id,
        ladder=ladder,
        running=True,
        seats=[arena_pb2.MatchSeat(seat=s, bot=shown(name)) for s, name in enumerate(match.seats)],
        at=match.started_at,
    )
