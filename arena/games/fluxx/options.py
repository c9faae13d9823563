"""Rule options, presets and the match configuration (FLUXX.md §3)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, get_args

from arena.games.base import InvalidOptionsError as GameOptionsError

MetaRule = Literal["none", "no_creepers", "rules_escalation"]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
DEFAULT_MAX_TURNS: Final = 300
DEFAULT_MAX_DECISIONS: Final = 20000


class InvalidOptionsError(GameOptionsError):
    """Rule options or a configuration the rules do not allow (the Game interface's
    error, so callers above the games catch it without naming this one)."""


def _positive_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidOptionsError(
            f"option {name}={value!r} is not allowed; it must be a positive integer"
        )


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule option of FLUXX.md §3; the defaults are the ``pegasus-2011`` preset."""

    meta_rule: MetaRule = "none"
    """Which side of the Meta Rule card is in play (``none``: the card is in the box)."""
    max_turns: int = DEFAULT_MAX_TURNS
    """§12: the game ends with reason ``turn_cap`` when this many turns are completed."""
    max_decisions: int = DEFAULT_MAX_DECISIONS
    """§12: the game ends with reason ``decision_cap`` after this many answers."""

    def __post_init__(self) -> None:
        allowed = get_args(MetaRule)
        if self.meta_rule not in allowed:
            raise InvalidOptionsError(
                f"option meta_rule={self.meta_rule!r} is not allowed; "
                f"choose one of {', '.join(allowed)}"
            )
        _positive_int("max_turns", self.max_turns)
        _positive_int("max_decisions", self.max_decisions)

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleOptions:
        """Options from a JSON object; unknown keys are an error."""
        if not isinstance(data, dict):
            raise InvalidOptionsError(f"rule options must be a JSON object, not {data!r}")
        _check_known(data)
        return cls(**data)


def _check_known(names: dict[str, Any]) -> None:
    known = [f.name for f in fields(RuleOptions)]
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise InvalidOptionsError(
            f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )


PRESETS: Final[dict[str, RuleOptions]] = {
    "pegasus-2011": RuleOptions(),
    "pegasus-2011-no-creepers": RuleOptions(meta_rule="no_creepers"),
    "pegasus-2011-escalation": RuleOptions(meta_rule="rules_escalation"),
}
"""The presets users name (FLUXX.md §3); ``pegasus-2011`` is the default [D3]."""
DEFAULT_PRESET: Final = "pegasus-2011"


def preset(name: str, **overrides: Any) -> RuleOptions:
    """The options of a named preset, with single options overridden."""
    try:
        base = PRESETS[name]
    except (KeyError, TypeError):
        raise InvalidOptionsError(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
    if not overrides:
        return base
    _check_known(overrides)
    return replace(base, **overrides)


def preset_of(options: RuleOptions) -> str:
    """The preset whose options equal ``options``, or ""."""
    for name, opts in PRESETS.items():
        if opts == options:
            return name
    return ""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything that fixes a match apart from the seed and the players' actions."""

    players: int = 4
    """Seats at the table, 2..6."""
    options: RuleOptions = RuleOptions()
    """The rules in force."""

    def __post_init__(self) -> None:
        if (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or not MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise InvalidOptionsError(
                f"players={self.players!r} is not allowed; Fluxx is played by "
                f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
        if not isinstance(self.options, RuleOptions):
            raise InvalidOptionsError("options must be a RuleOptions")

    def to_json(self) -> dict[str, Any]:
        """The configuration as a JSON object."""
        return {"players": self.players, "options": self.options.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameConfig:
        """A configuration from its JSON object."""
        if not isinstance(data, dict):
            raise InvalidOptionsError(f"a configuration must be a JSON object, not {data!r}")
        unknown = sorted(set(data) - {"players", "options"})
        if unknown:
            raise InvalidOptionsError(f"unknown configuration key(s) {', '.join(unknown)}")
        return cls(
            players=data.get("players", 4),
            options=RuleOptions.from_json(data.get("options", {})),
        )


def make_config(players: int, preset_name: str = DEFAULT_PRESET, **options: Any) -> GameConfig:
    """A validated configuration from a preset name and option overrides; raises
    InvalidOptionsError naming the valid presets or options."""
    return GameConfig(players=players, options=preset(preset_name, **options))
