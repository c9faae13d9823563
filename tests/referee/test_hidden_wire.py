"""Hidden information at the wire: the bytes a seat receives depend only on what that
seat may know. Two states that differ in other hands, the deck order and the private
parts of past events (other seats' deals and deck draws) give identical requests."""

from __future__ import annotations

import random

import pytest

from arena.games import abluxxen as ab
from arena.games import get
from arena.games.abluxxen import events as event_views
from arena.games.abluxxen.wire_bytes import decide_request_bytes

GAME = get("abluxxen")


def perturb_hidden(state: ab.State, seat: int, rng: random.Random) -> ab.State:
    """A copy where every card ``seat`` cannot see is dealt anew (keeping each hand's
    size and publicly known cards), the deck reshuffled, and other seats' private event
    cards replaced by random cards: the game's own ``resample_hidden``."""
    twin: ab.State = GAME.resample_hidden(state, seat, rng)
    return twin


@pytest.mark.parametrize("preset", sorted(ab.PRESETS))
@pytest.mark.slow
def test_request_bytes_ignore_what_the_seat_cannot_see(preset: str) -> None:
    rng = random.Random(preset)
    kinds: set[ab.DecisionKind] = set()
    checked = 0
    for players in (2, 3, 4, 5):
        for game in range(4):
            state = ab.new_game(ab.make_config(players, preset, deals=2), rng)
            cursors = [0] * players
            while not state.is_over:
                seat = state.deciding
                if rng.random() < 0.3:
                    twin = perturb_hidden(state, seat, rng)
                    assert twin.hand_values(seat) == state.hand_values(seat)
                    differs = (
                        any(
                            twin.hand_values(s) != state.hand_values(s)
                            for s in range(players)
                            if s != seat
                        )
                        or twin.deck != state.deck
                    )
                    original = decide_request_bytes(
                        1, 500, 0, ab.observe(state, seat), state.events[cursors[seat] :]
                    )
                    perturbed = decide_request_bytes(
                        1, 500, 0, ab.observe(twin, seat), twin.events[cursors[seat] :]
                    )
                    assert original == perturbed
                    kinds.add(ab.observe(state, seat).decision)  # type: ignore[arg-type]
                    checked += differs
                cursors[seat] = len(state.events)
                ab.apply(state, rng.choice(ab.legal_actions(state)))
            del game
    assert checked > 50  # the perturbation really changed hidden cards
    expected = {
        ab.DecisionKind.PLAY,
        ab.DecisionKind.ATTACKER_TAKE,
        ab.DecisionKind.VICTIM_CHOICE,
        ab.DecisionKind.DRAW,
    }
    if ab.PRESETS[preset].optional_draw:
        expected.add(ab.DecisionKind.OPTIONAL_DRAW)
    assert expected <= kinds


def test_shadow_pick_requests_hide_the_opponent() -> None:
    """The duel's SHADOW_PICK is rare; search for positions until several are checked."""
    rng = random.Random(3)
    found = 0
    while found < 5:
        state = ab.new_game(ab.make_config(2, "amigo", shadow_take="any_subset"), rng)
        while not state.is_over:
            seat = state.deciding
            if state.kind is ab.DecisionKind.SHADOW_PICK:
                twin = perturb_hidden(state, seat, rng)
                assert decide_request_bytes(
                    1, 500, 0, ab.observe(state, seat), state.events
                ) == decide_request_bytes(1, 500, 0, ab.observe(twin, seat), twin.events)
                found += 1
            ab.apply(state, rng.choice(ab.legal_actions(state)))


def test_private_events_are_redacted_on_the_wire() -> None:
    """Another seat's deck draw reaches this seat as a count, its own with the value."""
    state = ab.new_game(ab.make_config(3, "amigo"), random.Random(8))
    rng = random.Random(2)
    while not any(e[0] == "draw" and e[2] == -1 for e in state.events):
        ab.apply(state, rng.choice(ab.legal_actions(state)))
    draw = next(e for e in state.events if e[0] == "draw" and e[2] == -1)
    drawer = draw[1]
    assert isinstance(drawer, int)
    mine = event_views.view(draw, drawer)
    theirs = event_views.view(draw, (drawer + 1) % 3)
    assert "cards" in mine
    assert "cards" not in theirs
    assert theirs["count"] == 1
