"""The game boards in a real headless Chromium: the replay viewer steps forward and back
(buttons and arrow keys) and shows only the chosen seat's cards; a person plays a whole
match by clicking the offered actions, which are exactly the legal ones, and the match is
recorded and rated. Expected cards and choices come from the engine, replaying the record
independently of the pages."""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect
from server.support import _read_line

from arena.games import get
from arena.referee.record import decode_record, game_record, record_game
from arena.store import open_store

from .conftest import ROOT, shot
from .kit import history
from .play_kit import choose

pytestmark = pytest.mark.slow

PLAY_READY = "arena play: your table is at "


def _labels(values: Any) -> list[str]:
    """Card labels as the board shows them (via the engine's own value names)."""
    return ["J" if v == 14 else str(v) for v in values]


def _replay_states(lines: list[dict[str, Any]]) -> list[tuple[Any, int | None]]:
    """(state as JSON, deciding seat) before each recorded decision, and at the end."""
    game = record_game(lines)
    out = []
    for state, _action in game.replay_states(game_record(lines)):
        out.append((game.state_from_json(game.state_to_json(state)), game.deciding(state)))
    return out


def _hand_shown(page: Any, seat: int) -> list[str]:
    return [t.strip() for t in page.locator(f'[data-hand="{seat}"] .card').all_inner_texts()]


def test_the_replay_steps_forward_and_back_and_shows_only_the_chosen_seat(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=2)
    store = open_store(db, read_only=True)
    try:
        match_id = str(store.read("SELECT id FROM matches ORDER BY idx LIMIT 1")[0][0])
        lines = decode_record(store.record(match_id) or b"")
    finally:
        store.close()
    game = record_game(lines)
    states = _replay_states(lines)
    base = web_server(db)

    seat = 1
    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat={seat}")
    step = page.locator(".step-number")
    expect(step).to_have_text("0")

    def check(n: int) -> None:
        expect(step).to_have_text(str(n))
        state, _ = states[n]
        assert _hand_shown(page, seat) == _labels(game.observe(state, seat).hand)
        assert page.locator("[data-hand]").count() == 1  # no other seat's cards

    check(0)
    page.locator("a.next").click()
    check(1)
    page.locator("a.next").click()
    check(2)
    page.keyboard.press("ArrowRight")
    check(3)
    page.keyboard.press("ArrowLeft")
    check(2)
    page.locator("a.prev").click()
    check(1)
    shot(page, tmp_path, "replay-seat-1")
    page.keyboard.press("End")
    check(len(states) - 1)
    expect(page.locator("table.result")).to_be_visible()
    page.keyboard.press("Home")
    check(0)

    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat=all&step=4")
    expect(step).to_have_text("4")
    state, decider = states[4]
    assert decider is not None
    players = game.players_of(game.config_from_json(lines[0]["config"]))
    assert page.locator("[data-hand]").count() == players
    for s in range(players):
        assert _hand_shown(page, s) == _labels(game.observe(state, s).hand)
    # Everything revealed: the decider's legal choices, the one taken marked.
    legal = game.observe(state, decider).legal
    expect(page.locator("ol.choices li")).to_have_count(len(legal))
    expect(page.locator("ol.choices li.taken")).to_have_count(1)
    shot(page, tmp_path, "replay-all")


@pytest.fixture
def play_server(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``play_server(*args)`` starts ``arena play ARGS`` and returns the table's address;
    every process started is killed by its pid when the test ends."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> str:
        popen = subprocess.Popen(
            [sys.executable, "-m", "arena.cli", "play", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        started.append(popen)
        return _read_line(popen, PLAY_READY, 60)

    try:
        yield start
    finally:
        for popen in started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=10)
            if popen.stdout is not None:
                popen.stdout.close()


def test_a_person_plays_a_whole_match_by_clicking_and_it_is_recorded(
    tmp_path: Path, play_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "play.db"
    url = play_server(
        "--bot", "random", "--bot", "g=greedy", "--db", str(db), "--rated", "--name", "ann",
        "--seat", "1", "--seed", "5",
    )  # fmt: skip
    page.goto(url)
    chooser = random.Random(3)
    offered: list[list[str]] = []
    taken: list[int] = []
    for _ in range(500):
        choices = page.locator("form#choices")
        expect(choices.or_(page.locator("h2", has_text="The match is over"))).to_be_visible()
        if page.locator("h2", has_text="The match is over").count():
            break
        if len(offered) == 3:
            shot(page, tmp_path, "play-turn")
        labels, index = choose(page, chooser)
        offered.append(labels)
        taken.append(index)
    else:
        raise AssertionError("the match did not end within 500 clicks")
    shot(page, tmp_path, "play-over")
    link = page.locator("p.recorded a.match-id")
    expect(link).to_be_visible()
    match_id = link.inner_text().strip()

    store = open_store(db, read_only=True)
    try:
        row = store.match(match_id)
        ratings = {r.bot: r for r in store.ratings("play/abluxxen/amigo/3p")}
        lines = decode_record(store.record(match_id) or b"")
    finally:
        store.close()
    assert row is not None
    assert [s.bot for s in row.seats] == ["random", "ann", "g"]
    assert row.seats[1].timeouts == row.seats[1].errors == row.seats[1].invalid == 0
    assert set(ratings) == {"random", "ann", "g"}
    assert ratings["ann"].matches == 1

    # The pages offered exactly the legal actions of each of the person's decisions, and
    # the recorded action is the one clicked.
    game = get("abluxxen")
    board = game.board
    assert board is not None
    mine = []
    for state, action in game.replay_states(game_record(lines)):
        if action is not None and game.deciding(state) == 1:
            obs = game.observe(state, 1)
            mine.append(([board.choice_label(a, obs) for a in obs.legal], obs.legal.index(action)))
    assert [labels for labels, _ in mine] == offered
    assert [index for _, index in mine] == taken

    # The person's replay of it shows their cards only.
    page.locator("p.recorded a", has_text="replay it as you saw it").click()
    expect(page.locator(".step-number")).to_have_text("0")
    assert page.locator("[data-hand]").count() == 1
    assert page.locator('[data-hand="1"]').count() == 1


def test_the_human_seat_is_spoken_to_as_you(
    tmp_path: Path, play_server: Callable[..., str], page: Any
) -> None:
    """The person's seat is "you" (its default name): "you are dealt", "you play", "g
    abluxxes your 12s"; never "you plays" or "you's"."""
    url = play_server("--bot", "g=greedy", "--bot", "r=random", "--seat", "0", "--seed", "2")
    page.goto(url)
    wrong = re.compile(r"\byou (plays|is|has|draws|takes|passes|abluxxes|leaves)\b|\byou's\b")
    said = []
    rng = random.Random(2)
    for _ in range(12):
        turn = page.locator("form#choices")
        over = page.locator("h2", has_text="The match is over")
        expect(turn.or_(over)).to_be_visible()
        text = page.locator("main").inner_text()
        assert not wrong.search(text), text
        said.append(text)
        if over.count():
            break
        choose(page, rng)  # as a person does: a set's cards ticked, sent once
    everything = "\n".join(said)
    assert "you are dealt" in everything
    assert re.search(r"Your turn: you (play|draw|take|may)", everything), everything
    assert re.search(r"^you (play|draw|take back|discard) ", everything, re.MULTILINE), everything
    shot(page, tmp_path, "play-you")
