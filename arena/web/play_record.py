"""Recording a person's match in the database, rated on an opt-in ladder or not.

A played match is stored like any league match (its row, seats, faults, compressed
record: ``arena.league.results``), so the match list, the bot pages and the replay viewer
show it. Rated matches go to the league ``play`` and are rated with TrueSkill on its
ladder ``play/GAME/PRESET/Np``; unrated ones to the league ``play-unrated``, with no
ratings. The match's index, the ratings it starts from and the match with the ratings
after it are one transaction (``Store.record_next_match``): matches that finish together
each get their own index, and each is rated on top of the other.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any, Final

from arena.games import AnyGame
from arena.league.commit import Standings
from arena.league.rating import RatingModel
from arena.league.results import finished_match
from arena.referee import MatchOutcome
from arena.store import open_store
from arena.store.rows import HeldMatch, RatingRow

RATED_LEAGUE: Final = "play"
"""The league (and ladder prefix) of rated matches with a person at the table."""
UNRATED_LEAGUE: Final = "play-unrated"
"""The league of the others."""


def league_of(rated: bool) -> str:
    """The league a played match is recorded in."""
    return RATED_LEAGUE if rated else UNRATED_LEAGUE


def new_match_id(rated: bool) -> str:
    """A played match's id, chosen before it starts (its bots are told it): the league
    and a random part (no seed, no count of the person's matches)."""
    return f"{league_of(rated)}/{secrets.token_hex(6)}"


def ladder_of(game: AnyGame, config: Any, rated: bool) -> str:
    """``LEAGUE/GAME/PRESET/Np``, as leagues name their ladders."""
    preset = game.preset_of(config) or "custom"
    return f"{league_of(rated)}/{game.name}/{preset}/{game.players_of(config)}p"


def record_played(
    db: str | Path, game: AnyGame, config: Any, outcome: MatchOutcome, seed: int, *, rated: bool
) -> str:
    """Store ``outcome`` under its match id (``LEAGUE/...``, see ``new_match_id``), rated
    if ``rated``; returns the id. Blocking: call it off the event loop."""
    league = league_of(rated)
    ladder = ladder_of(game, config, rated)
    defaults = game.rating_defaults(game.preset_of(config), game.players_of(config))

    def finish(index: int) -> tuple[HeldMatch, list[RatingRow]]:
        held = finished_match(
            outcome,
            league_id=league,
            index=index,
            ladder=ladder,
            seed=seed,
            game_json=game.config_to_json(config),
        )
        if not rated:
            return held, []
        # The ladder's ratings as the transaction sees them: the match's index is
        # claimed, so no other played match commits ratings before this one does.
        standings = Standings(RatingModel(draw_probability=defaults.draw_probability), ladder)
        standings.apply(store.ratings(ladder))
        return held, standings.rated(held.match.seats)

    store = open_store(db)
    try:
        held = store.record_next_match(
            league, {"kind": "play", "rated": rated, "created": time.time()}, finish
        )
    finally:
        store.close()
    return held.match.id
