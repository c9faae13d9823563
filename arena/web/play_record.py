"""Recording a person's match in the database, rated on an opt-in ladder or not.

A played match is stored like any league match (its row, seats, faults, compressed
record: ``arena.league.results``), so the match list, the bot pages and the replay viewer
show it. Rated matches go to the league ``play`` and are rated with TrueSkill on its
ladder ``play/GAME/PRESET/Np`` (``rate_and_record``: the match and its ratings in one
transaction); unrated ones to the league ``play-unrated``, with no ratings.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any, Final

from arena.games import AnyGame
from arena.league.commit import Standings, rate_and_record
from arena.league.rating import RatingModel
from arena.league.results import finished_match
from arena.referee import MatchOutcome
from arena.store import open_store

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
    store = open_store(db)
    try:
        if store.league(league) is None:
            store.create_league(league, {"kind": "play", "rated": rated, "created": time.time()})
        last = store.read(
            "SELECT COALESCE(MAX(idx), -1) FROM matches WHERE league_id = ?", (league,)
        )
        index = int(last[0][0]) + 1
        held = finished_match(
            outcome,
            league_id=league,
            index=index,
            ladder=ladder,
            seed=seed,
            game_json=game.config_to_json(config),
        )
        if rated:
            defaults = game.rating_defaults(game.preset_of(config), game.players_of(config))
            draw = defaults.draw_probability
            standings = Standings(RatingModel(draw_probability=draw), ladder)
            standings.apply(store.ratings(ladder))
            rate_and_record(store, standings, held)
        else:
            store.record_match(held.match, held.config, held.faults, held.record, [])
    finally:
        store.close()
    return held.match.id
