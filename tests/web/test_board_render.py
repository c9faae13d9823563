"""The board pages render every name a bot or owner supplied as text: a replay step and
a human seat's table whose seats carry hostile names (script tags, quotes, bidi and
control characters) contain them only escaped, through each game's own fragment."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest

from arena.games import AnyGame, all_games, seat_moment
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, run_match
from arena.referee.replay_steps import replay_step
from arena.text import shown
from arena.web.render import board_template, render

from .kit import HOSTILE

GAMES = [pytest.param(game, id=game.name) for game in all_games() if game.board is not None]


def _record(game: AnyGame) -> list[dict[str, Any]]:
    seats = [LocalSeat(name, RandomPolicy(i)) for i, name in enumerate(HOSTILE[:3])]
    spec = MatchSpec("m/1", game.make_config(3), seed=2, game=game)
    # On a thread of its own: a worker that ran a browser test has Playwright's loop
    # running on this one, where asyncio.run refuses to start.
    with ThreadPoolExecutor(1) as pool:
        outcome = pool.submit(asyncio.run, run_match(spec, seats)).result()
    lines: list[dict[str, Any]] = json.loads(json.dumps(outcome.record))
    return lines


def _assert_text_only(html: str) -> None:
    assert "<script>alert" not in html
    assert "<img src=x" not in html
    assert "\u202e" not in html
    assert "\x1b" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert shown("\u202eevil\u202c-bidi") in html


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_step_shows_hostile_names_as_text(game: AnyGame) -> None:
    lines = _record(game)
    for step in (0, 5, 10**6):
        moment = replay_step(lines, step, None)
        html = render(
            "_step.html",
            match=SimpleNamespace(id="league/<b>x</b>"),
            s=moment,
            board=moment["board"],
            board_template=board_template(game.name),
            view="all",
        )
        _assert_text_only(html)


@pytest.mark.parametrize("game", GAMES)
def test_a_human_seats_board_shows_hostile_names_as_text(game: AnyGame) -> None:
    lines = _record(game)
    state = next(iter(game.replay_states(lines[-1]["game_record"])))[0]
    obs = game.observe(state, game.deciding(state) or 0)
    moment = seat_moment(game, obs, game.events(state), list(HOSTILE[:3]))
    html = render(board_template(game.name), board=moment["board"])
    _assert_text_only(html)
