"""Redraw what a seat may not know (``Game.resample_hidden``), for every OpenSpiel game.

OpenSpiel's own ``State.resample_from_infostate`` exists for some games only (of the
curated list: kuhn, leduc and universal poker, hearts, euchre, oh_hell, bridge and
gin_rummy; it raises "not implemented" for liars_dice, hanabi, goofspiel, phantom_ttt,
dark_hex and others), so the arena does it one way for all: rejection sampling over
the match's history. A twin replays the history with a change the seat might not have
seen (two chance outcomes swapped, one drawn anew, or another seat's move replaced by
another legal one); it is kept only when the seat's knowledge is unchanged by
OpenSpiel's own account (its information-state string, or its observation string where
the game gives no information state) and the same seat decides. The differential test
then checks that nothing else the seat receives (the observation string and tensors,
the action names) varies with what it may not know.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .observation import Views

ATTEMPTS: Final = 16
"""Twins tried before giving up (the original's copy is returned: still consistent)."""


def knowledge(state: Any, seat: int, views: Views) -> str:
    """What ``seat`` knows, in OpenSpiel's words."""
    if views.information_state:
        return str(state.information_state_string(seat))
    return str(state.observation_string(seat))


def _replay(game: Any, steps: list[tuple[int, int]], changed_from: int) -> Any | None:
    """The state after ``steps`` (player, action) pairs, their legality checked from
    ``changed_from`` on; None if one is illegal or the match ends early."""
    state = game.new_initial_state()
    for index, (_, action) in enumerate(steps):
        if state.is_terminal():
            return None
        if index < changed_from:
            state.apply_action(action)
            continue
        legal = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        if action not in legal:
            return None
        state.apply_action(action)
    return state


def _mutation(
    game: Any, steps: list[tuple[int, int]], seat: int, rng: random.Random
) -> tuple[list[tuple[int, int]], int] | None:
    """The history with one change the seat might not have seen, and where it starts:
    two chance outcomes swapped, one chance outcome drawn anew, or another seat's move
    replaced by another legal one (one of them at random)."""
    chance = [i for i, (player, _) in enumerate(steps) if player < 0]
    others = [i for i, (player, _) in enumerate(steps) if player >= 0 and player != seat]
    changed = list(steps)
    kind = rng.randrange(3)
    if kind == 0 and len(chance) >= 2:
        i, j = sorted(rng.sample(chance, 2))
        if steps[i][1] == steps[j][1]:
            return None
        changed[i], changed[j] = (steps[i][0], steps[j][1]), (steps[j][0], steps[i][1])
        return changed, i
    positions = chance if kind == 1 else others
    if not positions:
        return None
    k = rng.choice(positions)
    before = _replay(game, steps[:k], k)
    if before is None:
        return None
    legal = (
        [a for a, _ in before.chance_outcomes()]
        if before.is_chance_node()
        else before.legal_actions()
    )
    alternatives = [a for a in legal if a != steps[k][1]]
    if not alternatives:
        return None
    changed[k] = (steps[k][0], rng.choice(alternatives))
    return changed, k


def resample_state(game: Any, state: Any, seat: int, views: Views, rng: random.Random) -> Any:
    """A state the seat cannot tell from ``state`` (a clone of it if no twin is found)."""
    steps = [(int(s.player), int(s.action)) for s in state.full_history()]
    known = knowledge(state, seat, views)
    mover = state.current_player()
    for _ in range(ATTEMPTS):
        mutated = _mutation(game, steps, seat, rng)
        if mutated is None:
            continue
        twin = _replay(game, *mutated)
        if (
            twin is not None
            and not twin.is_terminal()
            and twin.current_player() == mover
            and knowledge(twin, seat, views) == known
        ):
            return twin
    return state.clone()
