"""What of a league may not be shown yet: a duplicate deal still in play.

A duplicate league replays one deal at several tables (``tables_per_group`` consecutive
match indices, group ``g`` at ``g * tables`` onwards, one seed); until the last of them
is in, a replay of one would show every hand and the deck of a deal other bots are still
playing. ``arena replay`` and the web app both ask here.
"""

from __future__ import annotations

import json

from arena.store import Store
from arena.store.rows import MatchRow
from arena.store.web_reads import deal_group_played

from .schedule import tables_per_group


def deal_in_play(store: Store, match: MatchRow) -> str | None:
    """Why ``match`` may not be replayed yet (its deal group is incomplete), or None.
    Two indexed reads, whatever the league holds."""
    league = store.league(match.league_id)
    if league is None:
        return None
    settings = json.loads(str(league["config_json"])).get("settings", {})
    if not settings.get("duplicate") or league["status"] == "finished":
        return None  # a finished league plays no more tables of any deal
    tables = tables_per_group(
        len(settings.get("bots", [])), max(1, int(settings.get("table_size", 1))), True
    )
    first = match.idx - match.idx % tables
    played = deal_group_played(store, match.league_id, first, tables)
    if played < tables:
        return (
            f"match {match.id!r} replays a duplicate deal that is still to be played at "
            f"other tables ({played} of {tables} played); replay it once they are in"
        )
    return None
