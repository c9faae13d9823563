"""The settings of ``arena serve``, validated before anything starts."""

from __future__ import annotations

import math
from dataclasses import dataclass
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
from arena.league.config import executor_problem
from arena.league.rating import LADDER_TAU, MAX_TAU
from arena.referee.channels import RootsError, loopback_host, read_roots

from .allowlist import DEFAULT_ALLOW, Allowlist, AllowlistError

DEFAULT_PORT: Final = 50050
"""The port of the README's walk-through."""
MAX_DESCRIPTION: Final = 500
"""Characters in a bot's description."""
MAX_INT32: Final = 2**31 - 1
"""The most a setting sent in an int32 field (MatchStart, SubmittedBot) can be."""
DEFAULT_READ_RATE: Final = 10.0
"""Reads (ListBots, GetLeaderboard, ListMatches, GetMatch) per second per client address:
each costs the referee about 2 ms of the interpreter (docs/BENCHMARKS.md)."""
DEFAULT_READ_PROCESSES: Final = 2
"""Processes of their own the public reads run in (``read_processes.py``)."""
MAX_READ_PROCESSES: Final = 16
DEFAULT_READ_BURST: Final = 40
"""Reads one client address may make at once before the rate applies."""


class ServeConfigError(ValueError):
    """Settings that cannot run, with what to change."""


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """Everything ``arena serve`` needs."""

    db: str
    """The database file (created if missing; a restart continues from it)."""
    host: str = "127.0.0.1"
    """Address to listen on (0.0.0.0 or :: to accept other machines)."""
    port: int = DEFAULT_PORT
    """Port to listen on (0: any free port)."""
    game: str = DEFAULT_GAME
    """The game of the ladder (``arena.games`` registry name)."""
    preset: str = ""
    """Rule preset of every ladder match ("" = the game's default, filled in at once)."""
    table_size: int = 4
    """Seats per ladder match, 2..5."""
    deadline_ms: int = 1000
    """Per-decision deadline, in matches and in verification."""
    max_strikes: int = 3
    """Faults in a match before the seat is forfeited."""
    concurrency: int = 2
    """Ladder matches in play at once."""
    bot_streams: int = 1
    """Matches one bot plays at once."""
    placement_matches: int = 3
    """Matches a new (or updated) bot plays first, before anyone else is seated first."""
    suspend_after: int = 3
    """Failing matches in a row (forfeited, or the bot unreachable) before suspension."""
    allow: tuple[str, ...] = DEFAULT_ALLOW
    """Host patterns bot endpoints must match (allowlist.py)."""
    tls_cert: str | None = None
    """PEM certificate chain of the arena's own port (with ``tls_key``)."""
    tls_key: str | None = None
    """PEM private key of the arena's own port."""
    bot_ca: str | None = None
    """PEM roots trusted for tls:// bot endpoints (None: the system's roots)."""
    submit_limit: int = 10
    """Changes (submissions, updates, retirements) per owner per minute."""
    auth_fail_limit: int = 10
    """Failed authentications per peer address per minute; past it, that address's
    calls with a token are refused until the minute slides."""
    insecure: bool = False
    """Serve in plaintext on a host other than loopback (tokens in clear): only with
    this set, for a network the organizer trusts."""
    verify_games: int = 2
    """Conformance games a bot plays before it becomes active."""
    hello_timeout_s: float = 3.0
    """How long a bot may take to answer Hello (before each match, and to verify it)."""
    grace_s: float = 10.0
    """On shutdown, how long running matches may take to finish before being abandoned."""
    max_connections: int = 1000
    """Client connections open at once (never more than half the file descriptors the
    process may open; see connections.py)."""
    max_calls_per_address: int = 32
    """Calls at once from one client address, over all of its connections."""
    idle_timeout_s: float = 60.0
    """A client connection without a call for this long is closed."""
    max_connection_age_s: float = 1800.0
    """A client connection is closed after this long, whatever it does (its calls get
    up to 30 s more to end)."""
    rest_s: float = 0.0
    """Seconds a bot rests after each ladder match before it is seated again (0: none).
    Keeps a small ladder from playing hundreds of matches a minute."""
    tau: float = LADDER_TAU
    """TrueSkill dynamics: small but not zero, because ladder bots change."""
    read_rate: float = DEFAULT_READ_RATE
    """Reads per second per client address, on average (0: no limit)."""
    read_burst: int = DEFAULT_READ_BURST
    """Reads a client address may make at once (its bucket's size)."""
    read_processes: int = DEFAULT_READ_PROCESSES
    """Processes the public reads run in (``read_processes``); 0: the read threads."""
    executor: str = "local"
    """Where ladder matches run: ``local`` (this process), ``processes`` or ``ray``."""
    workers: int = 0
    """Workers of the ``processes`` and ``ray`` executors (0: one per core or CPU)."""
    ray_address: str = ""
    """A running Ray cluster's HOST:PORT (default: a local cluster)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "preset", preset_or_default(self.game, self.preset))

    @property
    def game_plugin(self) -> AnyGame:
        """The game (UnknownGameError if there is none of that name)."""
        return get_game(self.game)

    @property
    def ladder(self) -> str:
        """The ladder this arena rates on: ``serve/GAME/PRESET/Np``."""
        return f"serve/{self.game}/{self.preset}/{self.table_size}p"

    @property
    def league_id(self) -> str:
        """The league row the ladder's matches belong to (the ladder's own id)."""
        return self.ladder

    def game_config(self) -> Any:
        """The game's configuration of every ladder match."""
        return self.game_plugin.make_config(self.table_size, self.preset)


def validate(config: ServeConfig) -> None:
    """Raise ServeConfigError naming the first problem."""
    problem = executor_problem(config.executor, config.workers, config.ray_address)
    if problem is not None:
        raise ServeConfigError(problem)
    try:
        config.game_config()
    except (UnknownGameError, InvalidOptionsError) as error:
        raise ServeConfigError(str(error)) from None
    try:
        Allowlist(config.allow)
    except AllowlistError as error:
        raise ServeConfigError(str(error)) from None
    if not 0 <= config.port <= 65535:
        raise ServeConfigError("--port must be 0..65535 (0: any free port)")
    for key in (
        "deadline_ms",
        "concurrency",
        "bot_streams",
        "suspend_after",
        "submit_limit",
        "auth_fail_limit",
    ):
        if getattr(config, key) < 1:
            raise ServeConfigError(f"--{key.replace('_', '-')} must be at least 1")
    for key in ("placement_matches", "max_strikes", "verify_games"):
        if getattr(config, key) < 0:
            raise ServeConfigError(f"--{key.replace('_', '-')} must not be negative")
    for key in ("deadline_ms", "max_strikes", "placement_matches"):  # int32 fields on the wire
        if getattr(config, key) > MAX_INT32:
            raise ServeConfigError(f"--{key.replace('_', '-')} must be at most {MAX_INT32}")
    for key in (
        "hello_timeout_s",
        "grace_s",
        "rest_s",
        "tau",
        "idle_timeout_s",
        "max_connection_age_s",
        "read_rate",
    ):
        if not math.isfinite(getattr(config, key)):
            raise ServeConfigError(f"--{key.replace('_', '-')} must be a finite number")
    if config.hello_timeout_s <= 0 or config.grace_s < 0 or config.tau < 0:
        raise ServeConfigError("timeouts must be positive, --grace-s and tau not negative")
    if config.max_connections < 1 or config.max_calls_per_address < 1:
        raise ServeConfigError("--max-connections and --max-calls-per-address must be at least 1")
    if config.idle_timeout_s <= 0 or config.max_connection_age_s <= 0:
        raise ServeConfigError("--idle-timeout-s and --max-connection-age-s must be positive")
    if config.tau > MAX_TAU:
        raise ServeConfigError(f"--tau must be at most {MAX_TAU:.2f} (the initial sigma)")
    if config.rest_s < 0:
        raise ServeConfigError("--rest-s must not be negative")
    if not 0 <= config.read_processes <= MAX_READ_PROCESSES:
        raise ServeConfigError(
            f"--read-processes must be 0..{MAX_READ_PROCESSES} (0: reads on threads of the "
            f"arena's own process), not {config.read_processes}"
        )
    if config.read_rate < 0 or config.read_burst < 1:
        raise ServeConfigError(
            "--read-rate must not be negative (0: no limit) and --read-burst must be at least 1"
        )
    if (config.tls_cert is None) != (config.tls_key is None):
        raise ServeConfigError("give both --tls-cert and --tls-key, or neither")
    if config.tls_cert is None and not config.insecure and not loopback_host(config.host):
        raise ServeConfigError(
            f"--host {config.host} takes calls from other machines, and without TLS their "
            "owners' tokens would cross the network in clear: serve TLS (--tls-cert FILE "
            "--tls-key FILE), or add --insecure if the network is one you trust"
        )
    for path in (config.tls_cert, config.tls_key, config.bot_ca):
        if path is not None and not Path(path).is_file():
            raise ServeConfigError(f"no file {path}")
    if config.bot_ca is not None:
        try:
            read_roots(config.bot_ca)
        except RootsError as error:
            raise ServeConfigError(f"--bot-ca: {error}") from None
