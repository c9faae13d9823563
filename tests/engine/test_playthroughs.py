"""The stored playthroughs still come out line for line (see ``playthrough.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .playthrough import PLAYTHROUGHS, Playthrough, render


def explain(expected: str, actual: str) -> str:
    """Which fields of two observation lines differ."""
    if " obs=" not in expected or " obs=" not in actual:
        return ""
    head_e, obs_e = expected.split(" obs=", 1)
    head_a, obs_a = actual.split(" obs=", 1)
    parts = []
    if head_e != head_a:
        parts.append(f"  decision: expected {head_e!r}, got {head_a!r}")
    left, right = json.loads(obs_e), json.loads(obs_a)
    for key in sorted(set(left) | set(right)):
        if left.get(key) != right.get(key):
            parts.append(f"  {key}: expected {left.get(key)!r}, got {right.get(key)!r}")
    return "\n".join(parts)


def check_stored(path: Path, actual: list[str], regenerate: str) -> None:
    """``actual`` equals the lines stored in ``path``, else a failure naming the first
    line that differs (and its fields), and the command ``regenerate`` that rewrites it."""
    assert path.exists(), f"{path} is missing; run {regenerate}"
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            detail = explain(want, got) or f"  expected {want[:300]!r}\n  got      {got[:300]!r}"
            pytest.fail(
                f"{path.name} line {number} differs:\n{detail}\n"
                f"If the engine change is intended, run {regenerate} and review the diff.",
                pytrace=False,
            )
    assert len(actual) == len(expected), (
        f"{path.name}: {len(expected)} stored lines, {len(actual)} now"
    )


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_matches_the_stored_file(playthrough: Playthrough) -> None:
    check_stored(playthrough.path, render(playthrough), "python -m tests.engine.regenerate")


def test_playthroughs_cover_every_decision_kind_and_an_ending() -> None:
    kinds: set[str] = set()
    endings = 0
    for playthrough in PLAYTHROUGHS:
        lines = playthrough.path.read_text(encoding="utf-8").splitlines()
        for line in lines[1:]:
            obs = json.loads(line.split(" obs=", 1)[1])
            if obs["decision"] is not None:
                kinds.add(obs["decision"])
            elif line.startswith("final seat=0"):
                endings += 1
    assert kinds == {
        "PLAY",
        "ATTACKER_TAKE",
        "VICTIM_CHOICE",
        "DRAW",
        "OPTIONAL_DRAW",
        "SHADOW_PICK",
    }
    assert endings >= 1
