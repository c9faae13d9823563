"""The stored Fluxx playthroughs still come out line for line (see ``playthrough.py``):
every deciding seat's observation, legal actions and the events it was shown."""

from __future__ import annotations

import json

import pytest
from engine.test_playthroughs import check_stored

from arena.games import fluxx as fx

from .playthrough import PLAYTHROUGHS, Playthrough, render


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_matches_the_stored_file(playthrough: Playthrough) -> None:
    check_stored(playthrough.path, render(playthrough), "python -m tests.fluxx.regenerate")


def test_playthroughs_end_and_meet_most_decision_kinds() -> None:
    kinds: set[str] = set()
    for playthrough in PLAYTHROUGHS:
        lines = playthrough.path.read_text(encoding="utf-8").splitlines()
        for line in lines:
            if " obs=" in line and not line.startswith("final"):
                kinds.add(json.loads(line.split(" obs=", 1)[1])["decision"])
        final = json.loads(lines[-1].split(" obs=", 1)[1])
        assert final["result"] is not None, f"{playthrough.name} does not reach the end"
    assert len(kinds) >= 17, sorted({k.name for k in fx.DecisionKind} - kinds)


def test_other_seats_cards_stay_hidden_in_the_stored_events() -> None:
    """A seat's stored events never name the cards of another seat's draw."""
    for playthrough in PLAYTHROUGHS:
        for line in playthrough.path.read_text(encoding="utf-8").splitlines():
            if " events seat=" not in line:
                continue
            head, views = line.split(" ", 3)[2:]
            seat = int(head.removeprefix("seat="))
            for view in json.loads(views):
                if view["type"] == "draw" and view["seat"] != seat:
                    assert "cards" not in view
                    assert view["count"] > 0
