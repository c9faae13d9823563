"""What every seat of an OpenSpiel match may see (the live view of people at none of
the seats): OpenSpiel's own public observation, where the game offers an observer of
public information only; else, in a perfect-information game, the whole state (nothing
in it is hidden); else nothing (``CapabilityMissingError``).

Of the curated games kuhn, leduc and gin_rummy offer the public observer; the
perfect-information ones (tic_tac_toe, connect_four, backgammon, chess, go) show their
state; the others (liars_dice, hanabi, universal_poker, bridge, hearts, ..., and every
simultaneous-move game, whose turn-based transform has no such observer) are refused.
"""

from __future__ import annotations

import functools
from typing import Any

from arena.games.base import CapabilityMissingError

from .family import pyspiel_module


def _public_type() -> Any:
    """OpenSpiel's observation type of public information, no private part and no
    memory (the observation of the moment, as every seat has it)."""
    pyspiel = pyspiel_module()
    return pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )


def _public_observation(game: Any) -> Any:
    """A fresh observation of ``game``'s public information, or None if the game offers
    none (a fresh one per call: an observation holds a buffer, and pages render on
    several threads)."""
    from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]

    return make_observation(game, _public_type())


@functools.lru_cache(maxsize=256)  # game strings can come from requests: bounded
def _offers_public(game_string: str) -> bool:
    """Whether the (turn-based) game of ``game_string`` has a public observer."""
    pyspiel = pyspiel_module()
    return _public_observation(pyspiel.load_game_as_turn_based(game_string)) is not None


def public_text(game_string: str, state: Any) -> tuple[str, str]:
    """What it is and the text every seat may see of the OpenSpiel ``state`` of a table
    of ``game_string``; CapabilityMissingError if the game gives no such text."""
    game = state.get_game()
    if _offers_public(game_string):
        # No private part: every player's string is the same; player 0's is asked for.
        return "public observation", _public_observation(game).string_from(state, 0)
    information = pyspiel_module().GameType.Information
    if game.get_type().information == information.PERFECT_INFORMATION:
        return "state", str(state)
    raise CapabilityMissingError(
        f"openspiel:{game_string} gives no public observation and has hidden information: "
        "it cannot be followed live"
    )
