"""The board of an OpenSpiel game on the web: a replay step shows the chosen seat's
OpenSpiel strings (and no other seat's), the finished match shows the whole state, and
every name a bot supplied is text."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

from arena.games import get, seat_moment
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, run_match
from arena.referee.replay_steps import replay_step
from arena.web.render import board_template, render

from .kit import HOSTILE

GAME = "openspiel:kuhn_poker"


def test_a_string_of_several_lines_keeps_its_line_breaks() -> None:
    game = get("openspiel:tic_tac_toe")
    state = game.new_match(game.make_config(2), random.Random(0))
    moment = seat_moment(game, game.observe(state, 0), (), ["a", "b"])
    html = render(board_template("openspiel:tic_tac_toe"), board=moment["board"])
    assert "<pre>...\n...\n...\n</pre>" in html  # OpenSpiel's empty board, three rows


def _record() -> list[dict[str, Any]]:
    game = get(GAME)
    seats = [LocalSeat(name, RandomPolicy(i)) for i, name in enumerate(HOSTILE[:3])]
    spec = MatchSpec("m/1", game.make_config(3), seed=4, game=game)
    with ThreadPoolExecutor(1) as pool:  # asyncio.run on a thread of its own (see
        # test_board_render.py: a browser test's loop may run on this one)
        outcome = pool.submit(asyncio.run, run_match(spec, seats)).result()
    lines: list[dict[str, Any]] = json.loads(json.dumps(outcome.record))
    return lines


def _html(lines: list[dict[str, Any]], step: int, seat: int | None) -> str:
    moment = replay_step(lines, step, seat)
    return render(
        "_step.html",
        s=moment,
        board=moment["board"],
        board_template=board_template(GAME),
        view="all" if seat is None else str(seat),
        match=SimpleNamespace(id="m/1"),  # the step's permalink names its match
    )


def test_a_replay_shows_each_seat_only_its_own_strings_and_all_at_the_end() -> None:
    lines = _record()
    game = get(GAME)
    first = next(iter(game.replay_states(lines[-1]["game_record"])))[0]
    own = [game.observe(first, seat).information_state for seat in range(3)]
    assert len(set(own)) == 3  # three different cards dealt
    for seat in range(3):
        html = _html(lines, 0, seat)
        assert f"<pre>{own[seat]}\n</pre>" in html
        assert not any(f"<pre>{own[o]}\n</pre>" in html for o in range(3) if o != seat)
    final = _html(lines, 10**6, None)
    assert "returns:" in final
    assert 'class="os-state"' in final  # the whole state, as OpenSpiel writes it
    assert all(f"<pre>{own[s]}" in final for s in range(3))  # every seat's strings
    assert "<script>alert" not in final
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in final
