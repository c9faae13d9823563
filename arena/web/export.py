"""``arena ratings --format html``: one self-contained page of every ladder asked for,
from the same templates and chart code as the live app: the charts are SVG (``chart.py``)
and the styles inlined, so it opens from a file, offline, without a script."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from arena.store import Store

from . import assets, data
from .render import render

EXPORT_ROWS: Final = 10_000
"""Rows of a ladder's leaderboard in an export, at most."""


def static_html(store: Store, ladders: Sequence[str], title: str = "Arena ratings") -> str:
    """The page: per ladder its leaderboard, rating chart and head-to-head."""
    sections = []
    for ladder in ladders:
        board = data.leader_page(store, ladder, limit=EXPORT_ROWS)
        top = [r.row.name for r in board.rows]
        sections.append(
            {
                "ladder": ladder,
                "board": board,
                "chart": data.ladder_chart(store, ladder, top[: data.CHART_BOTS]),
                "h2h": data.head_to_head(store, ladder, top[: data.H2H_BOTS]),
            }
        )
    inline = {"css": assets.inline("arena.css")}
    return render("export.html", title=title, sections=sections, inline=inline)
