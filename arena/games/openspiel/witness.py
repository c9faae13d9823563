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

Of OpenSpiel 2.0.2's games of imperfect information, those in ``RESAMPLING`` give
information state strings and a resampler whose draw depends on the seat's knowledge
alone. The others get no witness, and no ``ismcts``: liars_dice, hanabi, goofspiel,
phantom_ttt, dark_hex, crazy_eights, dou_dizhu and gin_rummy have no resampler (or no
information state string); hearts, euchre, oh_hell and colored_trails have one whose
draw, with the same seed, depends on the real hidden hands (the differential test fails
on their witnesses); and drawing a witness from the real state any other way (the
arena's ``resample_state`` mutates the real history) would leak it. The list is kept,
not probed for every game, because OpenSpiel prints each error it raises to the
process's stderr.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import random
from typing import Any, Final

from .family import pyspiel_module
from .match import chance_draw

RESAMPLING: Final = frozenset({"bridge", "kuhn_poker", "leduc_poker", "universal_poker"})
"""OpenSpiel's imperfect-information games (short names) whose
``resample_from_infostate``, seeded from the seat's information state string, draws the
same history in every match the seat cannot tell apart (each is a curated game:
tests/games/test_openspiel.py runs the differential test on its requests)."""


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
            "OpenSpiel draws none of its hidden state from what a seat knows alone "
            "(State.resample_from_infostate is missing, or its draw depends on the real "
            "hidden state), so a search's worlds could only come from the real state"
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


class Witness(enum.Enum):
    """How a game's witnesses are drawn."""

    HISTORY = 1
    """Perfect information: the match's own history."""
    RESAMPLED = 2
    """OpenSpiel's resampler, seeded from the seat's information state string."""


def witness_kind(loaded: Any) -> Witness | None:
    """How witnesses are drawn in ``loaded`` (None: they cannot be, see ``witness_refusal``)."""
    if witness_refusal(loaded) is not None:
        return None
    pyspiel = pyspiel_module()
    perfect = loaded.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    return Witness.HISTORY if perfect else Witness.RESAMPLED


def witness(state: Any, seat: int, kind: Witness) -> tuple[int, ...]:
    """The witness for ``seat`` at ``state``: every step's action id, chance outcomes
    included, from the start. The resampler's numbers are splitmix64 draws of the hash
    of the seat's information state string (``chance_draw``: a ``random.Random`` costs
    60 us to seed, ten times the rest of a witness)."""
    if kind is Witness.RESAMPLED:
        seed = hash_seed(state.information_state_string(seat))
        draws = itertools.count()
        state = state.resample_from_infostate(seat, lambda: chance_draw(seed, next(draws)))
    return tuple([int(action) for action in state.history()])
