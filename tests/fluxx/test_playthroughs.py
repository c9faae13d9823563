"""The stored Fluxx playthroughs still come out line for line (see ``playthrough.py``):
every deciding seat's observation, legal actions and the events it was shown."""

from __future__ import annotations

import json

import pytest
from engine.test_playthroughs import explain

from arena.games import fluxx as fx

from .playthrough import PLAYTHROUGHS, Playthrough, render


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_matches_the_stored_file(playthrough: Playthrough) -> None:
    assert playthrough.path.exists(), (
        f"{playthrough.path} is missing; run python -m tests.fluxx.regenerate"
    )
    expected = playthrough.path.read_text(encoding="utf-8").splitlines()
    actual = render(playthrough)
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            detail = explain(want, got) or f"  expected {want[:300]!r}\n  got      {got[:300]!r}"
            pytest.fail(
                f"{playthrough.path.name} line {number} differs:\n{detail}\n"
                "If the engine change is intended, run python -m tests.fluxx.regenerate "
                "and review the diff.",
                pytrace=False,
            )
    assert len(actual) == len(expected), (
        f"{playthrough.path.name}: {len(expected)} stored lines, {len(actual)} now"
    )


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
