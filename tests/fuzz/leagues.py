"""What the fuzz tests ask of a league configuration that was accepted: a league can run
with it."""

from __future__ import annotations

import json
import math

from arena.league.config import LeagueConfig
from arena.league.rating import Skill, quality, rate
from arena.league.runner import rating_model
from arena.referee.channels import parse_endpoint
from arena.v1 import bot_pb2

from .plain import NAME


def assert_runnable(config: LeagueConfig) -> None:
    """What a league does with its settings before and while it plays works."""
    game = config.game_plugin
    game_config = config.game_config()
    start = bot_pb2.MatchStart(  # ValueError if a limit does not fit the message
        match_id=f"{config.league_id}/000000",
        players=config.table_size,
        deadline_ms=config.deadline_ms,
        time_bank_ms=config.time_bank_ms,
        max_strikes=config.max_strikes,
    )
    game.wire.fill_start(start, game_config)
    assert game.players_of(game_config) == config.table_size
    for value in (config.tau, config.until_sigma, config.draw_probability):
        assert math.isfinite(value), config
    if config.name:
        assert NAME.fullmatch(config.name), config.name
    assert len(config.bots) >= config.table_size
    for bot in config.bots:
        assert NAME.fullmatch(bot.name), bot.name
        assert [bot.endpoint, bot.command, bot.builtin].count(None) == 2, bot
        assert isinstance(bot.target, str)
        assert bot.target
        if bot.endpoint is not None:
            parse_endpoint(bot.endpoint)
        if bot.builtin is not None:
            assert bot.builtin in game.policies
    json.dumps(config.to_json())
    json.dumps(config.identity())
    model = rating_model(config)
    skills = [Skill(25.0, 25.0 / 3)] * config.table_size
    ranks = list(range(1, config.table_size + 1))
    for skill in rate(model, skills, ranks):
        assert math.isfinite(skill.mu)
        assert math.isfinite(skill.sigma)
    assert math.isfinite(quality(model, skills))
