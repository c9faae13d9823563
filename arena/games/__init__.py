"""Games as plug-ins: the Game interface (``base``) and the registry (``get(name)``).

Each game is a package of its own (``arena/games/<game>/``): a pure engine, its wire
encoding, its policies. The layers above reach a game only through ``get(name)``.
"""

from typing import Any

from .base import (
    Board,
    CapabilityMissingError,
    CardPicks,
    Deal,
    Game,
    GameResult,
    GameWire,
    InvalidOptionsError,
    Observation,
    Policy,
    PolicyFactory,
    RatingDefaults,
)
from .boards import board_of, revealed_moment, seat_moment
from .decision_words import fault_words, took
from .registry import (
    DEFAULT_GAME,
    AnyGame,
    UnknownGameError,
    all_games,
    by_oneof,
    families,
    family_wildcards,
    get,
    names,
    plays,
    preset_or_default,
    register,
)


def pettingzoo_env(name: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of the game ``name`` (needs the ``[rl]`` extra); see
    ``arena.games.pettingzoo``."""
    from .pettingzoo import env

    return env(name, **kwargs)


__all__ = [
    "DEFAULT_GAME",
    "AnyGame",
    "Board",
    "CapabilityMissingError",
    "CardPicks",
    "Deal",
    "Game",
    "GameResult",
    "GameWire",
    "InvalidOptionsError",
    "Observation",
    "Policy",
    "PolicyFactory",
    "RatingDefaults",
    "UnknownGameError",
    "all_games",
    "board_of",
    "by_oneof",
    "families",
    "family_wildcards",
    "fault_words",
    "get",
    "names",
    "pettingzoo_env",
    "plays",
    "preset_or_default",
    "register",
    "revealed_moment",
    "seat_moment",
    "took",
]
