"""What a bot says about itself in ``Hello``."""

from __future__ import annotations

from dataclasses import dataclass

from arena.games import DEFAULT_GAME
from arena.v1 import bot_pb2


@dataclass(frozen=True, slots=True)
class BotInfo:
    """The bot's identity and what it supports, answered to every ``Hello``."""

    name: str
    """The bot's name (informative; the organizer names entrants)."""
    version: str = "0.1.0"
    """The bot's version."""
    author: str = ""
    """Its author, free text."""
    presets: tuple[str, ...] = ()
    """Rule presets it supports; empty means all."""
    players: tuple[int, ...] = ()
    """Table sizes it supports; empty means all (2..5)."""
    games: tuple[str, ...] = (DEFAULT_GAME,)
    """Games it plays (registry names); empty means any."""

    def to_proto(self) -> bot_pb2.HelloReply:
        """The ``HelloReply`` message."""
        return bot_pb2.HelloReply(
            name=self.name,
            version=self.version,
            games=self.games,
            presets=self.presets,
            players=self.players,
            author=self.author,
        )
