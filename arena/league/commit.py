"""The one rate-and-commit step of leagues and ``arena serve``: a finished match is
rated with TrueSkill and committed, with every seat's new rating, in one store
transaction.

Why one step: a league and the live ladder keep the same rows and rate them the same
way, so a match is stored and counted alike whichever of them played it. The ratings in
memory change only once the transaction is done, so a commit that fails leaves them as
the store has them (the live ladder logs such a failure and keeps serving).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.store import Store
from arena.store.rows import HeldMatch, RatingRow, SeatRow

from .rating import RatingModel, Skill, rate


@dataclass(slots=True)
class Standings:
    """A ladder's ratings in memory: each bot's skill and rated matches (a bot not in
    them has the default skill and no match yet)."""

    model: RatingModel
    """The ladder's TrueSkill environment."""
    ladder: str
    """The ladder the ratings belong to."""
    skills: dict[str, Skill] = field(default_factory=dict)
    """Each bot's current skill."""
    played: dict[str, int] = field(default_factory=dict)
    """Rated matches per bot."""

    def rated(self, seats: Sequence[SeatRow]) -> list[RatingRow]:
        """Each seat's rating after a match with these seats; nothing changes yet."""
        seats = sorted(seats, key=lambda s: s.seat)
        names = [s.bot for s in seats]
        skills = [self.skills.get(name, Skill()) for name in names]
        new = rate(self.model, skills, [s.rank for s in seats])
        return [
            RatingRow(self.ladder, name, skill.mu, skill.sigma, self.played.get(name, 0) + 1)
            for name, skill in zip(names, new, strict=True)
        ]

    def apply(self, ratings: Sequence[RatingRow]) -> None:
        """Take the ratings after a match (from ``rated``) as the bots' current ones."""
        for rating in ratings:
            self.skills[rating.bot] = Skill(rating.mu, rating.sigma)
            self.played[rating.bot] = rating.matches


def rate_and_record(
    store: Store,
    standings: Standings,
    finished: HeldMatch,
    seats: Sequence[SeatRow] | None = None,
) -> None:
    """Rate a finished match and commit it with the ratings after it (one transaction,
    which also drops the match from the held ones); then update ``standings``.

    ``seats``: what to rate instead of the match's own seats (a whole duplicate deal
    group, on the group's last table: ``groups.group_seats``); an empty list commits the
    match unrated (an earlier table of such a group)."""
    rated = finished.match.seats if seats is None else seats
    ratings = standings.rated(rated) if rated else []
    ranks = {seat.bot: seat.rank for seat in rated}
    store.record_match(
        finished.match, finished.config, finished.faults, finished.record, ratings, ranks
    )
    standings.apply(ratings)
