"""A history a seat cannot tell from the real one, drawn from what it knows alone: the
*witness* that a deciding seat's observation carries, so a search can rebuild a world
(``OpenSpielGame.determinize``) without ever reading the match's state.

OpenSpiel's observer strings and tensors describe what a seat knows, but no generic
code can rebuild a ``pyspiel.State`` from them. A history can be replayed by anyone who
loads the game string, so the observation carries one:

- in a game of **perfect information** it is the match's own history (every move and
  every chance outcome is public);
- in a game of imperfect information it is ``State.resample_from_infostate(seat,
  sampler)``'s history, with the sampler seeded by a hash of the seat's information
  state string and nothing else. OpenSpiel's resampler keeps what the seat knows and
  draws the rest; seeded from the seat's knowledge alone, its draw is a function of
  that knowledge, so two matches the seat cannot tell apart give it the same witness
  (the conformance kit's differential test checks exactly this on every request).

Of OpenSpiel 2.0.2's games of imperfect information, those in ``RESAMPLING`` implement
the resampler and give information state strings. The others (liars_dice, hanabi,
goofspiel, phantom_ttt, dark_hex, crazy_eights, dou_dizhu, gin_rummy, …) get no witness,
and no ``ismcts``: drawing a witness from the real state any other way (the arena's
``resample_state`` mutates the real history) would leak it. The list is kept, not
probed for every game, because OpenSpiel prints each error it raises to the process's
stderr (tests/games/test_openspiel_search.py probes every registered game against it).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Final

from .family import pyspiel_module

RESAMPLING: Final = frozenset(
    {
        "bargaining",
        "bridge",
        "colored_trails",
        "euchre",
        "hearts",
        "kuhn_poker",
        "leduc_poker",
        "oh_hell",
        "universal_poker",
    }
)
"""OpenSpiel's imperfect-information games (short names) whose states implement
``resample_from_infostate`` and that give information state strings."""


def hash_seed(knowledge: str) -> int:
    """A 64-bit seed from a seat's information state string (stable across processes,
    unlike ``hash``)."""
    return int.from_bytes(hashlib.blake2b(knowledge.encode(), digest_size=8).digest(), "big")


def witness_refusal(loaded: Any) -> str | None:
    """Why no witness can be drawn in the turn-based game ``loaded`` (None: it can).

    Perfect-information games always can. Others must be in ``RESAMPLING``, and the
    resampler is tried once, at the first seat decision of a match whose chance takes
    the first outcome each time (a version of OpenSpiel without it is refused)."""
    pyspiel = pyspiel_module()
    game_type = loaded.get_type()
    if game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return None
    if game_type.short_name not in RESAMPLING or not game_type.provides_information_state_string:
        return (
            "OpenSpiel cannot draw its hidden state from what a seat knows "
            "(State.resample_from_infostate with information state strings), so a search "
            "could only guess it from the real state"
        )
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if state.is_terminal():
        return "a match of it ends before any seat decides"
    try:
        state.resample_from_infostate(int(state.current_player()), random.Random(0).random)
    except pyspiel.SpielError:
        return "this OpenSpiel cannot resample its hidden state (State.resample_from_infostate)"
    return None


def witness(loaded: Any, state: Any, seat: int) -> tuple[int, ...]:
    """The witness for ``seat`` at ``state`` of ``loaded`` (a game ``witness_refusal``
    accepts): every step's action id, chance outcomes included, from the start."""
    pyspiel = pyspiel_module()
    if loaded.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        sampler = random.Random(hash_seed(state.information_state_string(seat))).random
        state = state.resample_from_infostate(seat, sampler)
    return tuple([int(action) for action in state.history()])
