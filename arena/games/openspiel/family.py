"""Names of the OpenSpiel family: ``openspiel:NAME[(params)]`` in OpenSpiel's own
game-string syntax, resolved to a game, or refused with the reason.

The arena referees a game when it can give every seat what it needs and decide the
result: at least two players (single-agent games have no opponent to rank against), a
turn order (sequential games; simultaneous ones through OpenSpiel's turn-based
transform), explicit chance outcomes (the arena draws them itself), no mean-field
dynamics, and an observer a seat can be given (an information-state or observation
string). The facts come from pyspiel's ``GameType``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final

from arena.games.registry import UnknownGameError

if TYPE_CHECKING:
    from .game import OpenSpielGame

PREFIX: Final = "openspiel:"
INSTALL_HINT: Final = "pip install -e '.[openspiel]'"


def pyspiel_module() -> Any:
    """``pyspiel``, or UnknownGameError saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise UnknownGameError(
            f"OpenSpiel games need OpenSpiel, which is not installed: {INSTALL_HINT}"
        ) from None
    return pyspiel


def canonical_spec(spec: str) -> str:
    """``spec`` in OpenSpiel's canonical form (parameters sorted), so that one game has
    one name (and one ladder) however its parameters were ordered; UnknownGameError if
    it does not parse."""
    pyspiel = pyspiel_module()
    try:
        params = pyspiel.game_parameters_from_string(spec.strip())
    except Exception as error:  # pyspiel.SpielError
        raise UnknownGameError(
            f"openspiel:{spec}: not an OpenSpiel game string ({error})"
        ) from None
    name = str(params.get("name", ""))
    if name not in pyspiel.registered_names():
        raise UnknownGameError(
            f"OpenSpiel has no game {name!r} (it registers "
            f"{len(pyspiel.registered_names())}: python -c 'import pyspiel; "
            "print(pyspiel.registered_names())')"
        )
    # Checked here, not left to load_game: OpenSpiel prints each error it raises.
    known = _game_types()[name].parameter_specification
    unknown = sorted(k for k in params if k != "name" and k not in known)
    if unknown:
        raise UnknownGameError(
            f"openspiel:{spec}: {name} has no parameter {unknown[0]!r} "
            f"(its parameters: {', '.join(sorted(known)) or 'none'})"
        )
    reader = _file_parameter(params)
    if reader:
        raise UnknownGameError(
            f"openspiel:{spec}: the arena cannot referee it: its parameter {reader!r} "
            "makes OpenSpiel read a file on the arena's machine"
        )
    if len(params) == 1:
        return name
    # OpenSpiel reads true/false and True/False alike but writes True: one spelling.
    spelled = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in params.items()}
    return str(pyspiel.game_parameters_to_string(spelled))


@functools.cache
def _game_types() -> dict[str, Any]:
    """OpenSpiel's registered games' types, by short name."""
    return {t.short_name: t for t in pyspiel_module().registered_games()}


def _file_parameter(params: dict[str, Any]) -> str:
    """The first parameter, at any depth, that names a file to read ("" if none): game
    strings can come from outside (a league's file, a web address), and a game that
    loads a file (efg_game, nfg_game, crossword, …) would read one of the arena's."""
    for key, value in params.items():
        if "file" in key.lower():
            return key
        if isinstance(value, dict) and (inner := _file_parameter(value)):
            return inner
    return ""


def refusal(game_type: Any, num_players: int) -> str | None:
    """Why the arena cannot referee a game of this ``GameType`` and table size, or None."""
    pyspiel = pyspiel_module()
    kinds = pyspiel.GameType
    if game_type.dynamics == kinds.Dynamics.MEAN_FIELD:
        return "it is a mean-field game (a population, not seats)"
    if num_players < 2:
        return "it is a single-agent game (no opponent to rank against)"
    if game_type.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC:
        return (
            "its chance is sampled inside OpenSpiel, so the arena cannot draw it from the "
            "match's seed"
        )
    if not (game_type.provides_information_state_string or game_type.provides_observation_string):
        return "it gives a player no observation string, nothing a seat could be shown"
    return None


@functools.lru_cache(maxsize=256)  # names can come from requests: bounded
def resolve(spec: str) -> OpenSpielGame:
    """The arena game for ``spec`` (what follows ``openspiel:``); UnknownGameError for an
    unknown name, bad parameters or a game the arena cannot referee, saying why."""
    from .game import OpenSpielGame

    canonical = canonical_spec(spec)
    if canonical != spec:
        return resolve(canonical)
    pyspiel = pyspiel_module()
    try:
        loaded = pyspiel.load_game(canonical)
    except Exception as error:  # pyspiel.SpielError: unknown or bad parameters
        raise UnknownGameError(f"openspiel:{canonical}: {error}") from None
    why = refusal(loaded.get_type(), loaded.num_players())
    if why is not None:
        raise UnknownGameError(f"openspiel:{canonical}: the arena cannot referee it: {why}")
    return OpenSpielGame(canonical, loaded)
