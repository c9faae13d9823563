"""The play form's OpenSpiel choice: a person names any OpenSpiel game string (the
registry resolves and validates it, as everywhere a game is named) instead of picking
one of the registered games, which the form lists. Offered where OpenSpiel is installed
and the room offers the family (``PlaySettings.games`` None, or holding ``openspiel:*``).
"""

from __future__ import annotations

import importlib.util
from typing import Final

from arena.games import AnyGame, InvalidOptionsError, get

CHOICE: Final = "openspiel"
"""The form's ``game`` value that means "the game named in the OpenSpiel field"; the
other fields of that choice end in it, as a registered game's end in its name."""
SPEC_FIELD: Final = "openspiel-game"
MAX_SPEC_CHARS: Final = 200
"""The longest game string taken (every curated one is far shorter)."""
PREFIX: Final = "openspiel:"


def openspiel_offered(games: tuple[str, ...] | None) -> bool:
    """Whether the form offers OpenSpiel games."""
    wanted = games is None or f"{PREFIX}*" in games
    return wanted and importlib.util.find_spec("pyspiel") is not None


def named_game(form: dict[str, str]) -> AnyGame:
    """The OpenSpiel game the form names; InvalidOptionsError or the registry's
    UnknownGameError (a LookupError) saying what is wrong with the name."""
    spec = form.get(SPEC_FIELD, "").strip().removeprefix(PREFIX)
    if not spec:
        raise InvalidOptionsError("name an OpenSpiel game, e.g. kuhn_poker or leduc_poker")
    if len(spec) > MAX_SPEC_CHARS:
        raise InvalidOptionsError(
            f"an OpenSpiel game string is at most {MAX_SPEC_CHARS} characters here"
        )
    return get(PREFIX + spec)


def players_field(form: dict[str, str], game: AnyGame) -> str:
    """The form's players for the named game; left blank, the game's smallest table."""
    given = form.get(f"players-{CHOICE}", "").strip()
    return given or str(min(game.table_sizes))
