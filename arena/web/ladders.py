"""Ladders in words people read: ``demo/abluxxen/amigo/4p`` is "Abluxxen · amigo · 4
players", of the league ``demo``.

Every command names its ladders ``LEAGUE/GAME/PRESET/Np`` (``LadderConfig.ladder``,
``ServeConfig.ladder``, the human tables' ``ladder_of``); a ladder named otherwise (an
older database) is shown by its id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from arena.games import UnknownGameError, get
from arena.words import spelled_out

_PLAYERS: Final = re.compile(r"([1-9][0-9]?)p")


@dataclass(frozen=True, slots=True)
class LadderLabel:
    """A ladder's id and its parts, as shown."""

    id: str
    league: str
    game: str
    """The game's registry name ("" if the id does not say)."""
    game_title: str
    preset: str
    players: int

    @property
    def name(self) -> str:
        """The ladder in words: its game, preset and table size."""
        if not self.game:
            return self.id
        return f"{self.game_title} · {self.preset} · {self.players} players"


def label(ladder: str) -> LadderLabel:
    """``ladder`` in its parts (the id alone if it is not ``LEAGUE/GAME/PRESET/Np``)."""
    head, _, size = ladder.rpartition("/")
    rest, _, preset = head.rpartition("/")
    league, _, game = rest.rpartition("/")
    players = _PLAYERS.fullmatch(size)
    if not (league and game and preset and players):
        return LadderLabel(ladder, "", "", ladder, "", 0)
    return LadderLabel(ladder, league, game, _title(game), preset, int(players.group(1)))


def ended(reason: str, ladder: str) -> str:
    """Why a match of ``ladder`` ended, in its game's words (``Game.end_words``); a
    ladder whose game this arena cannot name or load reads the identifier spelled out.
    Pages show these words; links, filters and JSON keep the identifier."""
    game = label(ladder).game
    try:
        return get(game).end_words(reason) if game else spelled_out(reason)
    except (UnknownGameError, ValueError, ImportError):  # a family game it cannot resolve
        return spelled_out(reason)


def _title(game: str) -> str:
    """A game's display name (its registry name if this arena does not know it)."""
    try:
        return get(game).title
    except UnknownGameError:
        return game


@dataclass(frozen=True, slots=True)
class GameLadders:
    """One game's ladders, by league."""

    game: str
    title: str
    ladders: list[LadderLabel]


def by_game(ladders: Iterable[str]) -> list[GameLadders]:
    """``ladders`` grouped by game (games by title, then ladders by league, preset and
    table size); ladders of no known form last, by id."""
    groups: dict[str, list[LadderLabel]] = {}
    for ladder in ladders:
        shown = label(ladder)
        groups.setdefault(shown.game, []).append(shown)
    found = [
        GameLadders(game, items[0].game_title, sorted(items, key=_order))
        for game, items in groups.items()
        if game
    ]
    found.sort(key=lambda group: group.title.lower())
    if "" in groups:
        found.append(GameLadders("", "Other ladders", sorted(groups[""], key=lambda x: x.id)))
    return found


def _order(shown: LadderLabel) -> tuple[str, str, int]:
    return (shown.league, shown.preset, shown.players)
