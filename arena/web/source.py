"""Where the web app's data comes from, and what of it may be shown.

``arena web`` shows a whole database; ``arena serve`` shows only its own ladder (other
leagues run on the same file are not its to publish) and knows which matches are still
being played (never shown). Both read through a ``ReadPool``, off the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.referee.live import LiveMatch
from arena.server.reads import ReadPool


@dataclass(frozen=True, slots=True)
class InPlay:
    """A match being played, as the home page lists it."""

    match_id: str
    seats: tuple[str, ...]
    started_at: float
    """Unix seconds."""


def _nothing_running() -> Collection[str]:
    return ()


def _nothing_in_play() -> Sequence[InPlay]:
    return ()


def nothing_watched(match_id: str) -> LiveMatch | None:
    return None


@dataclass
class WebSource:
    """The web app's view of one database."""

    reads: ReadPool
    """The read pool every page reads (and renders) on."""
    ladders: frozenset[str] | None = None
    """The ladders that may be shown (None: every ladder in the database)."""
    running: Callable[[], Collection[str]] = _nothing_running
    """The ids of matches being played now (their records are never shown)."""
    in_play: Callable[[], Sequence[InPlay]] = _nothing_in_play
    """The matches being played now, for the home page."""
    watching: Callable[[str], LiveMatch | None] = nothing_watched
    """A match being played that people may follow (``/live``), by id; None if there
    is none such (``arena.referee.live``)."""
    watch_delay_s: float = 5.0
    """How far behind play the live pages show a match."""
    owns_reads: bool = False
    """Whether closing the app closes the pool (``arena web``'s own pool)."""
    read_rate: float = 10.0
    """Requests per second per client address (0: no limit); as ``arena serve``'s reads."""
    read_burst: int = 40
    """Requests at once per client address."""
    poll_s: float = 0.5
    """How often the live pages' watcher looks for a newly recorded match."""
    title: str = "Arena"
    """Shown in every page's header."""
    extra: dict[str, object] = field(default_factory=dict)
    """Room for what a later part of the app hangs on the source (the human seat)."""

    def shows(self, ladder: str) -> bool:
        """Whether ``ladder`` may be shown."""
        return self.ladders is None or ladder in self.ladders

    def close(self) -> None:
        """Close the pool if it is this source's own."""
        if self.owns_reads:
            self.reads.close()


def database_source(db: str | Path, **settings: object) -> WebSource:
    """A source reading the whole database at ``db`` (``arena web``)."""
    return WebSource(ReadPool(db), owns_reads=True, **settings)  # type: ignore[arg-type]
