"""The public board of an OpenSpiel game (people following a match live): OpenSpiel's
public observation where the game offers one, a perfect-information game's whole state,
else refused; the conformance kit's differential test runs on it (in
``test_openspiel.py``'s hidden-information tests) and catches one that shows a seat's
private strings."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any, cast

import pytest

from arena.games import CapabilityMissingError, get
from arena.games import conformance_kit as kit
from arena.referee import MatchSpec, builtin_seat, run_match
from arena.referee.live import LiveLog, LiveMatch
from arena.web.render import board_template, render

from .test_openspiel import CURATED

PUBLIC = {
    "kuhn_poker": "public observation",
    "kuhn_poker#3": "public observation",
    "leduc_poker": "public observation",
    "gin_rummy": "public observation",
    "tic_tac_toe": "public observation",
    "connect_four": "public observation",
    "backgammon": "public observation",
    "chess": "public observation",
    "go(board_size=9)": "public observation",
}
"""The curated games that can be followed live, and what their public board shows; the
others have hidden information and no public observer."""


def _started(entry: str) -> tuple[Any, Any]:
    spec = entry.partition("#")[0]
    game = get(f"openspiel:{spec}")
    state = game.new_match(game.make_config(CURATED[entry][0]), random.Random(3))
    return game, state


@pytest.mark.parametrize("entry", CURATED)
def test_a_curated_game_shows_its_public_board_or_refuses(entry: str) -> None:
    game, state = _started(entry)
    names = [f"p{seat}" for seat in range(CURATED[entry][0])]
    if entry not in PUBLIC:
        with pytest.raises(CapabilityMissingError, match="cannot be followed live"):
            game.board.public_view(state, game.events(state), names)
        return
    view = game.board.public_view(state, game.events(state), names)
    assert view["state_label"] == PUBLIC[entry]
    assert view["viewer"] is None
    assert [s["views"] for s in view["seats"]] == [None] * len(names)  # no seat's strings
    assert [s["name"] for s in view["seats"]] == names


def test_kuhn_poker_public_board_shows_the_bets_and_no_card() -> None:
    game, state = _started("kuhn_poker")
    names = ["<b>a</b>", "b"]
    game.apply_legal(state, game.observe(state, game.deciding(state)).legal[1])  # bet
    view = game.board.public_view(state, game.events(state), names)
    private = [state.state.information_state_string(seat) for seat in (0, 1)]
    html = render(board_template(game.name), board=view)
    assert "public observation" in html
    assert "Bet" in html
    assert not any(own in html for own in private)  # each holds its card
    assert "&lt;b&gt;a&lt;/b&gt;" in html


def test_a_refereed_kuhn_poker_match_is_followed_live_on_its_public_board() -> None:
    game = get("openspiel:kuhn_poker")
    config = game.make_config(3)
    names = ("ann", "bo", "cy")
    log = LiveLog()
    spec = MatchSpec(match_id="m", config=config, game=game, seed=7, live=log)
    seats = [builtin_seat(name, game.policies["random"], n) for n, name in enumerate(names)]
    asyncio.run(run_match(spec, seats))
    match = LiveMatch("live/1", game, config, 7, None, names, 1.7e9, log)
    end = log.times[-1]
    for delay, shown in ((end + 1, 0), (0.0, len(log))):  # the start; the end
        view, count = match.public_view(delay, clock=lambda: end)
        assert view["state_label"] == "public observation"
        assert count == shown
    assert view["returns"] is not None  # the end is public


class _LeakyPublicBoard:
    """An OpenSpiel board whose public view also shows seat 0's information state (its
    private card), as a careless live page would."""

    def __init__(self, board: Any) -> None:
        self._board = board

    def __getattr__(self, name: str) -> Any:
        return getattr(self._board, name)

    def public_view(self, state: Any, events: Any, names: Any) -> dict[str, Any]:
        honest: dict[str, Any] = self._board.public_view(state, events, names)
        return {**honest, "seat_0": state.state.information_state_string(0)}


@pytest.mark.parametrize("spec", ["kuhn_poker", "leduc_poker"])
def test_the_kit_catches_a_public_board_that_shows_a_seat_its_cards(spec: str) -> None:
    original = get(f"openspiel:{spec}")
    game = copy.copy(original)
    game.board = cast(Any, _LeakyPublicBoard(original.board))
    with pytest.raises(AssertionError, match=r"the public view .* changes"):
        kit.check_hidden_information(game, game.make_config(2), [0], compare_state_every=1)
