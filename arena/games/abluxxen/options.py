"""Rule options, presets and match configuration (RULES.md §6, §8, §9)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, get_args

from arena.games.base import InvalidOptionsError as GameOptionsError

Tiebreak = Literal["fewest_hand_cards", "shared"]
TwoPlayer = Literal["duel", "plain"]
ShadowTake = Literal["whole_stack", "any_subset"]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
DEFAULT_MAX_TURNS: Final = 500
MAX_MAX_TURNS: Final = 2**31 - 1
"""The most ``max_turns`` can be: the largest value of its int32 field in MatchStart."""
MAX_DEALS: Final = 100
"""Deals in one match at most: a deal's record is about 20 KB, and a match's whole record
travels in one MatchOver message (a few MB at most); more deals is what a league is for."""


def json_kind(value: object) -> str:
    """What a JSON value is, in words: ``a list``, ``null``, ``the number 3`` ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    return "a list" if isinstance(value, list) else "an object"


class InvalidOptionsError(GameOptionsError):
    """Rule options or a match configuration that the rules do not allow (the Game
    interface's error, so callers above the games catch it without naming this one)."""


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule option of RULES.md §6; the defaults are the ``amigo`` preset."""

    optional_draw: bool = True
    """§5.4: a player who abluxxed nobody may draw one card."""
    expert_ones: bool = False
    """§5.2: ones abluxx 13s and jokers-alone of the same count."""
    tiebreak: Tiebreak = "fewest_hand_cards"
    """§7: how equal scores are ranked."""
    two_player: TwoPlayer = "duel"
    """§9: the duel, or the normal rules with two players."""
    shadow_take: ShadowTake = "whole_stack"
    """§9.4: what a shadowluxx may take."""
    max_turns: int = DEFAULT_MAX_TURNS
    """§7: a deal ends with reason ``turn_cap`` after this many turns."""

    def __post_init__(self) -> None:
        for name, allowed in (
            ("tiebreak", get_args(Tiebreak)),
            ("two_player", get_args(TwoPlayer)),
            ("shadow_take", get_args(ShadowTake)),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidOptionsError(
                    f"option {name}={value!r} is not allowed; choose one of {', '.join(allowed)}"
                )
        for name in ("optional_draw", "expert_ones"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionsError(f"option {name} must be true or false")
        if (
            not isinstance(self.max_turns, int)
            or isinstance(self.max_turns, bool)
            or not 0 < self.max_turns <= MAX_MAX_TURNS
        ):
            raise InvalidOptionsError(
                f"option max_turns={self.max_turns!r} is not allowed; it must be a positive "
                f"integer (at most {MAX_MAX_TURNS})"
            )

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleOptions:
        """Options from a JSON object; unknown keys are an error."""
        if not isinstance(data, dict):
            raise InvalidOptionsError(
                f"the rule options must be a JSON object, not {json_kind(data)}"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionsError(
                f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**data)


PRESETS: Final[dict[str, RuleOptions]] = {
    "amigo": RuleOptions(),
    "amigo-advanced": RuleOptions(optional_draw=False),
    "amigo-expert": RuleOptions(optional_draw=False, expert_ones=True),
    "ravensburger-2014": RuleOptions(optional_draw=False, tiebreak="shared", two_player="plain"),
}
"""The rule presets users name (RULES.md §6); ``amigo`` is the default."""
DEFAULT_PRESET: Final = "amigo"


def preset(name: str, **overrides: Any) -> RuleOptions:
    """The options of a named preset, with any single options overridden."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise InvalidOptionsError(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
    if not overrides:
        return base
    known = {f.name for f in fields(RuleOptions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise InvalidOptionsError(
            f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return replace(base, **overrides)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything that fixes a match apart from the shuffles and the players' actions."""

    players: int = 4
    """Seats at the table, 2..5."""
    options: RuleOptions = RuleOptions()
    """The rules in force."""
    deals: int = 1
    """Deals in the match (§8); the start player rotates deal by deal."""
    duplicate: bool = False
    """§8: replay each shuffle with the seats rotated, so every seat gets every hand once."""

    def __post_init__(self) -> None:
        if (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or not MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise InvalidOptionsError(
                f"players={self.players!r} is not allowed; Abluxxen is played by "
                f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
        if (
            not isinstance(self.deals, int)
            or isinstance(self.deals, bool)
            or not 1 <= self.deals <= MAX_DEALS
        ):
            raise InvalidOptionsError(
                f"deals={self.deals!r} is not allowed; a match has at least one deal and at "
                f"most {MAX_DEALS}"
            )
        if not isinstance(self.options, RuleOptions):
            raise InvalidOptionsError("options must be a RuleOptions")
        if not isinstance(self.duplicate, bool):
            raise InvalidOptionsError(f"duplicate={self.duplicate!r} is not allowed; true or false")

    @property
    def duel(self) -> bool:
        """True when this is the two-player duel of §9."""
        return self.players == 2 and self.options.two_player == "duel"

    @property
    def shuffles(self) -> int:
        """How many distinct shuffled decks the match uses."""
        if not self.duplicate:
            return self.deals
        return -(-self.deals // self.players)

    def shuffle_of_deal(self, deal: int) -> int:
        """Which shuffle deal number ``deal`` plays."""
        return deal // self.players if self.duplicate else deal

    def to_json(self) -> dict[str, Any]:
        """The configuration as a JSON object."""
        return {
            "players": self.players,
            "options": self.options.to_json(),
            "deals": self.deals,
            "duplicate": self.duplicate,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameConfig:
        """A configuration from its JSON object."""
        if not isinstance(data, dict):
            raise InvalidOptionsError(
                f"a match configuration must be a JSON object, not {json_kind(data)}"
            )
        unknown = sorted(set(data) - {"players", "options", "deals", "duplicate"})
        if unknown:
            raise InvalidOptionsError(f"unknown configuration key(s) {', '.join(unknown)}")
        return cls(
            players=data.get("players", 4),
            options=RuleOptions.from_json(data.get("options", {})),
            deals=data.get("deals", 1),
            duplicate=data.get("duplicate", False),
        )


def make_config(
    players: int,
    preset_name: str = DEFAULT_PRESET,
    *,
    deals: int = 1,
    duplicate: bool = False,
    **overrides: Any,
) -> GameConfig:
    """Build and validate a configuration from a preset name and option overrides.

    A duel (two players with ``two_player=duel``) is valid only with two players; asking
    for ``two_player="duel"`` explicitly with more players is an error rather than being
    silently ignored.
    """
    options = preset(preset_name, **overrides)
    if overrides.get("two_player") == "duel" and players != 2:
        raise InvalidOptionsError(
            f"two_player='duel' needs exactly 2 players, not {players}; "
            "use 2 players or leave two_player unset"
        )
    return GameConfig(players=players, options=options, deals=deals, duplicate=duplicate)
