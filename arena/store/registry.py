"""The bots submitted to ``arena serve``: their owners, endpoints and life on the ladder.

They live in the ``bots`` table (kind ``submitted``), beside the bots of leagues; a name
is unique across every kind. Every change is one transaction, so a restarted arena finds
each bot exactly as the last committed change left it.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import Any, Final

from arena.text import capped

from .base import Store, next_index
from .connection import Row

SUBMITTED = "submitted"
"""The ``bots.kind`` of a bot submitted through the Arena service."""
MAX_VERSION: Final = 100
"""Characters of a bot's ``version`` (from its Hello) kept."""
MAX_REASON: Final = 300
"""Characters of a status reason (often quoting a bot's words) kept."""

clean_text = capped
"""The old name of ``arena.text.capped``, which ``arena/server/ladder.py`` still uses:
it keeps a bot's words as given, cut to a length. Whatever shows them (ListBots, the
CLI, the serve log) makes them visible with ``arena.text.shown``."""


class BotStatus(enum.StrEnum):
    """Where a submitted bot is in its life (arena.proto ``BotStatus``)."""

    VERIFYING = "verifying"
    """Being checked; plays no ladder match yet."""
    ACTIVE = "active"
    """Plays ladder matches."""
    SUSPENDED = "suspended"
    """Failed verification or kept failing; the reason is stored."""
    RETIRED = "retired"
    """Taken off the ladder by its owner."""


class NameTakenError(ValueError):
    """A bot name already in the database (of any kind)."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A submitted bot as stored."""

    name: str
    """Unique name."""
    owner: str
    """The owner whose token submitted it."""
    endpoint: str
    """HOST:PORT or tls://HOST:PORT."""
    description: str
    """The author's text."""
    status: BotStatus
    """Its life on the ladder."""
    status_reason: str
    """Why it is suspended (or what verification does)."""
    version: str
    """Name and version from its last Hello."""
    placement_left: int
    """Placement matches still to play."""
    failing_streak: int
    """Matches in a row forfeited or unreachable."""
    created_at: float
    """Unix seconds."""
    updated_at: float
    """Unix seconds of the last change."""


def _entry(row: Row) -> BotEntry:
    return BotEntry(
        name=row["name"],
        owner=row["owner"] or "",
        endpoint=row["target"],
        description=row["description"],
        status=BotStatus(row["status"]),
        status_reason=row["status_reason"],
        version=row["version"],
        placement_left=row["placement_left"],
        failing_streak=row["failing_streak"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def name_taken(store: Store, name: str) -> str | None:
    """The name of any bot (submitted or of a league) named ``name`` up to case ("MyBot"
    takes "mybot" too: names are ASCII), or None."""
    rows = store.read("SELECT name FROM bots WHERE lower(name) = lower(?) LIMIT 1", (name,))
    return str(rows[0][0]) if rows else None


def add_bot(store: Store, name: str, owner: str, endpoint: str, description: str) -> BotEntry:
    """Store a new submitted bot in VERIFYING; NameTakenError if the name exists."""
    now = time.time()
    try:
        with store.transaction() as db:
            db.execute(
                "INSERT INTO bots(name, kind, target, owner, description, status, status_reason,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    SUBMITTED,
                    endpoint,
                    owner,
                    description,
                    BotStatus.VERIFYING,
                    "waiting for verification",
                    now,
                    now,
                ),
            )
    except store.integrity_errors:
        raise NameTakenError(name) from None
    entry = get_bot(store, name)
    assert entry is not None
    return entry


def get_bot(store: Store, name: str) -> BotEntry | None:
    """A submitted bot, or None."""
    rows = store.read("SELECT * FROM bots WHERE name = ? AND kind = ?", (name, SUBMITTED))
    return _entry(rows[0]) if rows else None


def list_bots(store: Store, owner: str | None = None) -> list[BotEntry]:
    """Submitted bots by name (of one owner)."""
    sql = "SELECT * FROM bots WHERE kind = ?"
    params: list[object] = [SUBMITTED]
    if owner:
        sql += " AND owner = ?"
        params.append(owner)
    return [_entry(r) for r in store.read(sql + " ORDER BY name", params)]


def bot_page(
    store: Store, owner: str | None = None, *, after: str | None = None, limit: int
) -> list[BotEntry]:
    """At most ``limit`` submitted bots by name (of one owner), starting after the name
    ``after`` (the last one of the previous page). Indexed: the cost is the page's."""
    sql = "SELECT * FROM bots WHERE kind = ?"
    params: list[object] = [SUBMITTED]
    if owner:
        sql += " AND owner = ?"
        params.append(owner)
    if after is not None:
        sql += " AND name > ?"
        params.append(after)
    return [_entry(r) for r in store.read(sql + " ORDER BY name LIMIT ?", [*params, limit])]


_CHANGEABLE = frozenset(
    {"target", "description", "status", "status_reason", "version", "placement_left",
     "failing_streak"}
)  # fmt: skip


def change_bot(store: Store, name: str, **changes: Any) -> BotEntry:
    """Set columns of a submitted bot (``endpoint=`` sets ``target``) and its
    ``updated_at``; returns the bot as stored. KeyError if there is no such bot. The
    status reason and version are stored as given but capped: they may quote a bot."""
    if "status_reason" in changes:
        changes["status_reason"] = capped(str(changes["status_reason"]), MAX_REASON)
    if "version" in changes:
        changes["version"] = capped(str(changes["version"]), MAX_VERSION)
    if "endpoint" in changes:
        changes["target"] = changes.pop("endpoint")
    unknown = set(changes) - _CHANGEABLE
    if unknown:
        raise ValueError(f"not a changeable column: {sorted(unknown)}")
    columns = [*changes, "updated_at"]
    values = [str(v) if isinstance(v, BotStatus) else v for v in changes.values()]
    # The column names come from _CHANGEABLE only; every value is a parameter.
    with store.transaction() as db:
        cursor = db.execute(
            f"UPDATE bots SET {', '.join(f'{c} = ?' for c in columns)} WHERE name = ? AND kind = ?",
            (*values, time.time(), name, SUBMITTED),
        )
    if cursor.rowcount == 0:
        raise KeyError(name)
    entry = get_bot(store, name)
    assert entry is not None
    return entry


def ensure_league(store: Store, league_id: str, config: dict[str, Any]) -> None:
    """Create the league row a ladder's matches hang on, once."""
    if store.league(league_id) is None:
        store.create_league(league_id, config)


def claim_match_index(store: Store, league_id: str) -> int:
    """The next match index of a league, claimed for good: a match abandoned at shutdown
    leaves a gap rather than an id that a later, different match would reuse."""
    with store.transaction() as db:
        return next_index(db, league_id)
