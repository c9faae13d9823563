"""The lobby: tables people open for others to join by their link, as the seeds' online
Abluxxen does (``/join`` 2-5 players, ``/start``).

A person opens a table (game, preset, table size, rated or not, the bots that fill the
empty seats) and is its host; others join it until it is full or the host starts it;
at the start the people take seats at random and the game's built-in bots fill the
rest. Every person gets a key to their own seat (a secret, kept in a cookie by the
pages): a table's id is listed for all to see, its seats are not.

Bounded: at most MAX_OPEN tables wait at once, a person's name is checked and unique at
the table, and a table nobody starts is forgotten after OPEN_FOR_S (measured on the
lobby's clock, so tests drive it). How many people one app seats at once is the room's
bound, MAX_PEOPLE (``PlayRoom.people``).
"""

from __future__ import annotations

import hmac
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from arena.games import AnyGame
from arena.names import BadNameError, check_name
from arena.policies.registry import builtin_factory
from arena.referee import Seat, builtin_seat

from .lobby_bots import SUBMITTED

if TYPE_CHECKING:
    from .play_room import PlayRoom, PlayTable

MAX_OPEN: Final = 16
"""Tables waiting in the lobby at once."""
MAX_PEOPLE: Final = 64
"""People seated at once in one app: at the tables waiting and the tables played."""
OPEN_FOR_S: Final = 900.0
"""How long a table waits for its host to start it before it is forgotten."""


class LobbyRefusedError(ValueError):
    """A lobby request that cannot be granted; the message says why, in words."""


@dataclass
class Opening:
    """A table waiting for people."""

    id: str
    game: AnyGame
    config: Any
    rated: bool
    bots: str
    """The built-in policy that fills the empty seats, or SUBMITTED (bots registered in
    the arena's database: ``lobby_bots``)."""
    opened_at: float
    """On the lobby's clock."""
    people: list[tuple[str, str]] = field(default_factory=list)
    """(key, name) of each person, in the order they came; the first is the host."""

    @property
    def size(self) -> int:
        """Seats at the table."""
        players: int = self.game.players_of(self.config)
        return players

    @property
    def preset(self) -> str:
        """The table's rules preset."""
        return self.game.preset_of(self.config) or "custom"

    @property
    def names(self) -> list[str]:
        """The people's names, host first."""
        return [name for _key, name in self.people]

    def seat_of(self, key: str) -> int | None:
        """The place (0: the host) of the person whose key is ``key``, or None."""
        for place, (known, _name) in enumerate(self.people):
            if hmac.compare_digest(known.encode(), key.encode()):
                return place
        return None


class Lobby:
    """The tables waiting for people, in one app (see the module)."""

    def __init__(self, room: PlayRoom, *, clock: Callable[[], float] | None = None) -> None:
        self.room = room
        self.clock = clock or time.monotonic
        self.openings: dict[str, Opening] = {}

    def people(self) -> int:
        """People at the tables waiting."""
        self.expire()
        return sum(len(o.people) for o in self.openings.values())

    def expire(self) -> None:
        """Forget the tables nobody started within OPEN_FOR_S."""
        now = self.clock()
        for table_id in [k for k, o in self.openings.items() if now - o.opened_at > OPEN_FOR_S]:
            del self.openings[table_id]

    def listed(self) -> list[Opening]:
        """The tables waiting, newest first (at most MAX_OPEN)."""
        self.expire()
        return sorted(self.openings.values(), key=lambda o: -o.opened_at)

    def get(self, table_id: str) -> Opening | None:
        """A waiting table, or None (never opened, started, or expired)."""
        self.expire()
        return self.openings.get(table_id)

    def open(
        self, game: AnyGame, config: Any, *, rated: bool, bots: str, name: str
    ) -> tuple[Opening, str]:
        """Open a table with its host ``name``; (the table, the host's key)."""
        if bots not in game.policies and not (bots == SUBMITTED and self.room.settings.db):
            known = ", ".join(sorted(game.policies))
            raise LobbyRefusedError(f"no built-in bot {bots!r}; choose one of {known}")
        name = _checked(name)
        self.expire()
        if len(self.openings) >= MAX_OPEN:
            raise LobbyRefusedError(
                f"{MAX_OPEN} tables are waiting for people here; join one of them, or try later"
            )
        self._room_for_one()
        opening = Opening(secrets.token_urlsafe(12), game, config, rated, bots, self.clock())
        key = secrets.token_urlsafe(18)
        opening.people.append((key, name))
        self.openings[opening.id] = opening
        return opening, key

    def join(self, table_id: str, name: str) -> str:
        """Seat ``name`` at a waiting table; the person's key."""
        opening = self._waiting(table_id)
        name = _checked(name)
        if len(opening.people) >= opening.size:
            raise LobbyRefusedError(
                f"this table is full: {opening.size} of {opening.size} seats are taken"
            )
        if name in opening.names:
            raise LobbyRefusedError(f"{name!r} is already at this table; choose another name")
        self._room_for_one()
        key = secrets.token_urlsafe(18)
        opening.people.append((key, name))
        return key

    def hosted(self, table_id: str, key: str) -> Opening:
        """The waiting table whose host holds ``key`` (refused in words otherwise)."""
        opening = self._waiting(table_id)
        if opening.seat_of(key) != 0:
            raise LobbyRefusedError("only the person who opened this table can start it")
        return opening

    def start(
        self,
        table_id: str,
        key: str,
        fill: list[Seat] | None = None,
        closers: Sequence[Callable[[], Awaitable[None]]] = (),
    ) -> PlayTable:
        """The host starts the table: people at random seats, bots in the others (the
        table's built-in policy, or ``fill``, one a free seat)."""
        opening = self.hosted(table_id, key)
        game, size = opening.game, opening.size
        rng = random.SystemRandom()
        seats = rng.sample(range(size), len(opening.people))
        people = {seat: name for seat, (_key, name) in zip(seats, opening.people, strict=True)}
        keys = {key: seat for seat, (key, _name) in zip(seats, opening.people, strict=True)}
        free = [seat for seat in range(size) if seat not in people]
        if fill is not None:
            bots = dict(zip(free, fill, strict=True))
        else:
            factory = builtin_factory(game, opening.bots)
            bots = {
                seat: builtin_seat(_bot_name(opening, n), factory, rng.getrandbits(32))
                for n, seat in enumerate(free, start=1)
            }
        table = self.room.start_people(
            game,
            opening.config,
            people,
            bots,
            rated=opening.rated,
            keys=keys,
            table_id=opening.id,
            closers=closers,
        )  # TablesFullError: the table keeps waiting
        del self.openings[opening.id]
        return table

    def _waiting(self, table_id: str) -> Opening:
        opening = self.get(table_id)
        if opening is None:
            started = self.room.tables.get(table_id)
            if started is not None:
                raise LobbyRefusedError("this table has started; open a table of your own")
            raise LobbyRefusedError(
                "no such table is waiting here: it was never opened, or nobody started it "
                f"within {OPEN_FOR_S / 60:g} minutes"
            )
        return opening

    def _room_for_one(self) -> None:
        if self.room.people() >= MAX_PEOPLE:
            raise LobbyRefusedError(f"{MAX_PEOPLE} people are seated here already; try again later")


def _checked(name: str) -> str:
    try:
        return check_name(name.strip())
    except BadNameError as error:
        raise LobbyRefusedError(str(error)) from None


def _bot_name(opening: Opening, n: int) -> str:
    """A bot's name at the table, unlike every person's there."""
    name = f"{opening.bots}-{n}"
    while name in opening.names:
        name += "-bot"
    return name
