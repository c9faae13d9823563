"""League configuration: a TOML file and/or flags, validated before anything runs.

Example (examples/league.toml)::

    name = "demo"
    game = "GAME"        # optional: the default game
    preset = "PRESET"    # optional: the game's default preset
    table_size = 4
    matches = 24
    [[bot]]
    name = "random"
    command = "python sample_bots/random_bot.py"
    [[bot]]
    name = "mine"
    endpoint = "127.0.0.1:50061"
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Final

from arena.games import (
    DEFAULT_GAME,
    AnyGame,
    InvalidOptionsError,
    UnknownGameError,
    preset_or_default,
)
from arena.games import get as get_game
from arena.league.rating import MAX_DRAW_PROBABILITY, MAX_TAU
from arena.league.schedule import RATED_SCHEDULES
from arena.names import check_name
from arena.policies.registry import missing_builtin, refused_at_table
from arena.referee.channels import EndpointError, RootsError, parse_bot_endpoint, read_roots

SCHEDULES: Final = ("informative", "balanced", "random", "rating")
EXECUTORS: Final = ("local", "processes", "ray")
"""Where a league's matches run (``arena.league.executors``)."""
DEFAULT_DB: Final = "arena.db"
DEFAULT_SEPARATION: Final = 0.95
"""``--until separated``'s probability when none is given."""
MAX_LIMIT: Final = 2**31 - 1
"""The most a limit sent to bots in MatchStart (deadline, bank, strikes) can be: its
fields are int32."""


class LeagueConfigError(ValueError):
    """A league configuration that cannot run, with what to change."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One bot of the league."""

    name: str
    """Unique name on the leaderboard."""
    endpoint: str | None = None
    """HOST:PORT of a bot someone else runs."""
    command: str | None = None
    """A command the arena starts (and stops) itself; ``--port P`` is appended."""
    builtin: str | None = None
    """A built-in in-process policy of the game (``random``, ``greedy``)."""

    @property
    def kind(self) -> str:
        """``remote``, ``managed`` or ``builtin``."""
        if self.endpoint is not None:
            return "remote"
        return "managed" if self.command is not None else "builtin"

    @property
    def target(self) -> str:
        """The endpoint, command or policy name."""
        return self.endpoint or self.command or self.builtin or ""


@dataclass(frozen=True, slots=True)
class LeagueConfig:
    """Everything a league needs; ``league_id`` is derived from it."""

    bots: tuple[Entrant, ...] = ()
    """The entrants."""
    name: str = ""
    """The league's name (default: derived from the configuration)."""
    game: str = DEFAULT_GAME
    """The game (``arena.games`` registry name)."""
    preset: str = ""
    """Rule preset ("" = the game's default, filled in at once)."""
    table_size: int = 4
    """Seats per match (the game's table sizes)."""
    matches: int = 0
    """Matches to play (0 with ``until_sigma`` = play until the rule stops it)."""
    until_sigma: float = 0.0
    """Stop once every entrant's sigma is below this (0 = off)."""
    until_separated: float = 0.0
    """Stop once every pair of neighbours on the leaderboard is ordered with at least
    this probability (``--until separated[:P]``; 0 = off), checked after each round."""
    max_matches: int = 10_000
    """Safety cap for the stopping rules."""
    deals: int = 1
    """Deals per match."""
    duplicate: bool = False
    """Replay each deal at other tables with other bots (never to the same bot)."""
    rate_groups: bool = False
    """With ``duplicate``: rate each deal group as one match of all its bots, ranked by
    summed score (groups.py), instead of each table alone."""
    schedule: str = "informative"
    """``informative`` (tables for what they teach), ``balanced`` round robin, ``random``
    tables, or ``rating``-driven matchmaking (schedule.py)."""
    deadline_ms: int = 1000
    """Per-decision deadline."""
    time_bank_ms: int = 0
    """Per-match time bank."""
    max_strikes: int = 3
    """Faults in a match before the seat is forfeited (0 = never)."""
    concurrency: int = 4
    """Matches in flight at once."""
    bot_streams: int = 0
    """Matches in flight at once per remote or managed bot (0 = no cap). A bot plays each
    of its matches on its own stream, at once; a CPU-bound bot (a search in Python shares
    one core) may need 1 to keep to its deadlines. Not part of the league's identity:
    it changes when matches run, not what they are."""
    seed: int | None = None
    """Seed of the schedule and every deal. None: a random one, drawn when the league is
    created and kept in its database row (``runner.league_seed``), so resuming replays the
    same deals while no bot can guess them. A seed given here must be as unguessable for
    a competition: a bot that finds it can rebuild every deal."""
    tau: float = 0.0
    """TrueSkill dynamics factor (0 for a league of fixed bots)."""
    draw_probability: float = -1.0
    """TrueSkill draw probability (negative = the ladder's default)."""
    db: str = DEFAULT_DB
    """The database file."""
    executor: str = "local"
    """Where matches run: ``local`` (this process), ``processes`` or ``ray``. Not part of
    the league's identity: it changes where matches run, not what they are."""
    workers: int = 0
    """Workers of the ``processes`` and ``ray`` executors (0: one per core here, or per
    CPU of the Ray cluster)."""
    ray_address: str = ""
    """A running Ray cluster's HOST:PORT (default: a local cluster for this league)."""
    bot_ca: str = ""
    """A PEM file of the roots trusted for ``tls://`` bots (default: the system's roots).
    Read where the matches run (each worker reads it). Not part of the league's
    identity: it changes how bots are reached, not what the matches are."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "preset", preset_or_default(self.game, self.preset))

    @property
    def game_plugin(self) -> AnyGame:
        """The game (UnknownGameError if there is none of that name)."""
        return get_game(self.game)

    @property
    def ladder(self) -> str:
        """The ladder the league rates on: the league, then game, preset and table size.

        Ratings belong to one league: two leagues in one database never mix."""
        return f"{self.league_id}/{self.game}/{self.preset}/{self.table_size}p"

    @property
    def total_matches(self) -> int:
        """Matches to schedule at most."""
        return self.matches if self.matches else self.max_matches

    def game_config(self) -> Any:
        """The game's configuration of every match."""
        return self.game_plugin.make_config(self.table_size, self.preset, deals=self.deals)

    def identity(self) -> dict[str, Any]:
        """What makes two leagues the same league (not deadlines or the database file).

        Concurrency counts only where it changes the schedule: matchmaking and the sigma
        stopping rule look at the ratings ``concurrency`` matches back (runner.py)."""
        identity = {
            "bots": [[b.name, b.kind, b.target] for b in self.bots],
            "preset": self.preset,
            "table_size": self.table_size,
            "matches": self.matches,
            "until_sigma": self.until_sigma,
            "max_matches": self.max_matches,
            "deals": self.deals,
            "duplicate": self.duplicate,
            "schedule": self.schedule,
            "seed": self.seed,
            "tau": self.tau,
            "draw_probability": self.draw_probability,
        }
        if self.rate_groups:  # leagues made before the option keep their ids
            identity["rate_groups"] = True
        if self.until_separated > 0:  # leagues made before the rule keep their ids
            identity["until_separated"] = self.until_separated
        if self.by_ratings:
            identity["concurrency"] = self.concurrency
        if self.game != DEFAULT_GAME:  # leagues made before there were games keep their ids
            identity["game"] = self.game
        return identity

    @property
    def stops_by_rule(self) -> bool:
        """Whether a stopping rule (sigma or separation) may end the league early."""
        return self.until_sigma > 0 or self.until_separated > 0

    @property
    def by_ratings(self) -> bool:
        """Whether tables, or the decision to stop, depend on the ratings."""
        return self.schedule in RATED_SCHEDULES or self.stops_by_rule

    @property
    def round_matches(self) -> int:
        """Matches in one round: enough tables for every bot to play once."""
        return -(-len(self.bots) // self.table_size)

    @property
    def league_id(self) -> str:
        """The name, or a digest of the identity: the same command resumes the same
        league."""
        if self.name:
            return self.name
        digest = hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode())
        return "league-" + digest.hexdigest()[:10]

    def to_json(self) -> dict[str, Any]:
        """All settings as JSON."""
        data = asdict(self)
        data["bots"] = [asdict(b) for b in self.bots]
        return data


def _entrant(data: Any, where: str) -> Entrant:
    if not isinstance(data, dict):
        raise LeagueConfigError(f"{where}: a bot is a table with name and endpoint/command")
    unknown = sorted(set(data) - {"name", "endpoint", "command", "builtin"})
    if unknown:
        raise LeagueConfigError(f"{where}: unknown key(s) {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str):
        raise LeagueConfigError(f"{where}: every bot needs a name")
    for key in ("endpoint", "command", "builtin"):
        if key in data and not isinstance(data[key], str):
            raise LeagueConfigError(f"{where}: bot {name!r}: {key} must be a string")
    targets = [k for k in ("endpoint", "command", "builtin") if data.get(k)]
    if len(targets) != 1:
        raise LeagueConfigError(
            f"{where}: bot {name!r} needs exactly one of endpoint, command or builtin"
        )
    entrant = Entrant(
        name=name,
        endpoint=data.get("endpoint"),
        command=data.get("command"),
        builtin=data.get("builtin"),
    )
    return entrant


OLD_DEFAULT_SCHEDULE: Final = "balanced"
"""The default schedule before ``informative``: leagues started then resume with it."""


def with_stored_schedule(
    config: LeagueConfig, stored: Callable[[str], dict[str, Any] | None]
) -> LeagueConfig:
    """``config`` (whose schedule was not given) as the league already in the database
    has it: a league started when ``balanced`` was the default, resumed with the same
    command, keeps ``balanced`` (and, unnamed, its id). ``stored``: Store.league."""
    old = replace(config, schedule=OLD_DEFAULT_SCHEDULE)
    row = stored(old.league_id)
    if row is None:
        return config
    identity = json.loads(str(row["config_json"])).get("identity") or {}
    return old if identity.get("schedule") == OLD_DEFAULT_SCHEDULE else config


def load_toml(path: str | Path) -> dict[str, Any]:
    """A league file's settings; a clear error if it cannot be read."""
    try:
        with Path(path).open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise LeagueConfigError(f"league file {path} does not exist") from None
    except OSError as error:
        raise LeagueConfigError(f"cannot read league file {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise LeagueConfigError(f"league file {path} is not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise LeagueConfigError(
            f"league file {path} is not valid TOML: it is not UTF-8 text (byte "
            f"{error.start} cannot be read)"
        ) from None
    except RecursionError:
        raise LeagueConfigError(
            f"league file {path} nests its arrays or tables too deeply to read"
        ) from None
    return data


def build_config(file_settings: dict[str, Any], overrides: dict[str, Any]) -> LeagueConfig:
    """A validated configuration from a file's settings and flag overrides (flags win;
    bots given as flags are added to the file's)."""
    known = {f.name for f in fields(LeagueConfig)} | {"bot"}
    unknown = sorted(set(file_settings) - known)
    if unknown:
        raise LeagueConfigError(
            f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    settings = {k: v for k, v in file_settings.items() if k != "bot"}
    tables = file_settings.get("bot", [])
    if not isinstance(tables, list):
        raise LeagueConfigError("bot must be a list of tables: write each bot as [[bot]]")
    bots = [_entrant(b, f"bot #{i + 1}") for i, b in enumerate(tables)]
    bots += list(overrides.pop("bots", []))
    settings.update({k: v for k, v in overrides.items() if v is not None})
    for key, value in settings.items():
        kind = str(next(f.type for f in fields(LeagueConfig) if f.name == key))
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "int | None": isinstance(value, int) and not isinstance(value, bool),
            "float": isinstance(value, int | float) and not isinstance(value, bool),
            "str": isinstance(value, str),
            "bool": isinstance(value, bool),
        }.get(kind, True)
        if not ok:
            raise LeagueConfigError(f"setting {key}={value!r} should be of type {kind}")
    config = LeagueConfig(bots=tuple(bots), **settings)
    validate(config)
    return replace(
        config,
        tau=float(config.tau),
        until_sigma=float(config.until_sigma),
        until_separated=float(config.until_separated),
    )


def executor_problem(executor: str, workers: int, ray_address: str) -> str | None:
    """What is wrong with executor settings (a league's or ``arena serve``'s), if
    anything."""
    if executor not in EXECUTORS:
        return f"unknown executor {executor!r}; choose {', '.join(EXECUTORS)}"
    if workers < 0:
        return "workers must not be negative (0: one per core)"
    if ray_address and executor != "ray":
        return "a Ray address needs the ray executor: add --executor ray"
    return None


def validate(config: LeagueConfig) -> None:
    """Raise LeagueConfigError naming the first problem."""
    try:
        game = config.game_plugin
    except UnknownGameError as error:
        raise LeagueConfigError(str(error)) from None
    if config.deals != 1 and not game.has_deals:
        raise LeagueConfigError(f"{game.title} has no deals: leave deals at 1")
    if config.duplicate and not game.has_deals:
        raise LeagueConfigError(f"{game.title} has no deals to replay: drop duplicate")
    try:
        table = config.game_config()
    except InvalidOptionsError as error:
        raise LeagueConfigError(str(error)) from None
    if config.name:
        try:
            check_name(config.name, "league name")
        except ValueError as error:
            raise LeagueConfigError(str(error)) from None
    names = [b.name for b in config.bots]
    for bot in config.bots:
        try:
            check_name(bot.name)
        except ValueError as error:
            raise LeagueConfigError(str(error)) from None
        if bot.endpoint is not None:
            try:
                parse_bot_endpoint(bot.endpoint)
            except EndpointError as error:
                raise LeagueConfigError(f"bot {bot.name!r}: {error}") from None
        if bot.builtin is not None and bot.builtin not in game.policies:
            raise LeagueConfigError(f"bot {bot.name!r}: {missing_builtin(game, bot.builtin)}")
        if bot.builtin is not None and (why := refused_at_table(game, [bot.builtin], table)):
            raise LeagueConfigError(f"bot {bot.name!r}: {why}")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise LeagueConfigError(f"duplicate bot name(s) {', '.join(duplicates)}; names must differ")
    if len(config.bots) < config.table_size:
        raise LeagueConfigError(
            f"a table of {config.table_size} needs at least {config.table_size} bots; "
            f"{len(config.bots)} given (add --bot, or lower --table-size)"
        )
    if config.schedule not in SCHEDULES:
        raise LeagueConfigError(
            f"unknown schedule {config.schedule!r}; choose {', '.join(SCHEDULES)}"
        )
    problem = executor_problem(config.executor, config.workers, config.ray_address)
    if problem is not None:
        raise LeagueConfigError(problem)
    if config.bot_ca:
        try:
            read_roots(config.bot_ca)
        except RootsError as error:
            raise LeagueConfigError(f"bot_ca: {error}") from None
    if config.matches < 0 or (config.matches == 0 and not config.stops_by_rule):
        raise LeagueConfigError(
            "give --matches N (N > 0) or a stopping rule (--until separated, --until-sigma X)"
        )
    if config.until_separated and not 0.5 < config.until_separated < 1:
        raise LeagueConfigError(
            f"--until separated:P needs a probability P between 0.5 and 1 (both excluded), "
            f"not {config.until_separated:g}"
        )
    if config.until_separated and config.total_matches < config.round_matches:
        raise LeagueConfigError(
            f"a cap of {config.total_matches} match(es) is less than one round "
            f"({config.round_matches} matches, so that each of the {len(config.bots)} bots "
            f"plays once at tables of {config.table_size}); raise --matches (or --max-matches)"
        )
    if config.max_matches < 1:
        raise LeagueConfigError("max_matches must be at least 1")
    for key in ("deadline_ms", "concurrency"):
        if getattr(config, key) < 1:
            raise LeagueConfigError(f"{key} must be at least 1")
    for key in ("time_bank_ms", "max_strikes", "bot_streams"):
        if getattr(config, key) < 0:
            raise LeagueConfigError(f"{key} must not be negative")
    for key in ("deadline_ms", "time_bank_ms", "max_strikes"):
        if getattr(config, key) > MAX_LIMIT:
            raise LeagueConfigError(f"{key} must be at most {MAX_LIMIT}")
    for key in ("until_sigma", "until_separated", "tau", "draw_probability"):
        if not math.isfinite(getattr(config, key)):
            raise LeagueConfigError(f"{key} must be a finite number, not {getattr(config, key)}")
    if not 0 <= config.tau <= MAX_TAU or config.draw_probability > MAX_DRAW_PROBABILITY:
        raise LeagueConfigError(
            f"tau must be 0..{MAX_TAU:.2f} and draw_probability at most {MAX_DRAW_PROBABILITY} "
            "(negative: the game's default)"
        )
    if config.rate_groups and not config.duplicate:
        raise LeagueConfigError(
            "rate_groups rates the tables that played one deal together: add --duplicate"
        )
    group = len(config.bots) // config.table_size
    if config.rate_groups and group and config.matches % group:
        raise LeagueConfigError(
            f"with rate_groups, --matches must be a multiple of the {group} tables that play "
            f"each deal (here {len(config.bots)} bots at tables of {config.table_size})"
        )
    if config.duplicate and len(config.bots) < 2 * config.table_size:
        raise LeagueConfigError(
            f"duplicate deals are replayed at other tables with other bots, so they need at "
            f"least {2 * config.table_size} bots for tables of {config.table_size}"
        )
