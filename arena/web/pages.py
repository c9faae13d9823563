"""The pages and their JSON twins. Each handler checks its parameters, then hands one
job (read and render) to the read pool: see ``handling.read``."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from arena.games import all_games
from arena.league.intervals import RankInterval
from arena.server.pages import PageTokenError, PageTokens, Scalar, position_of
from arena.store import Store
from arena.store.registry import get_bot
from arena.store.web_reads import (
    MatchFilter,
    Position,
    bot_faults,
    bot_ladders,
    bot_rating,
    bots_like,
    ladder_end_reasons,
    ladder_heads,
    ladder_league,
    ladder_matches,
)

from . import boards, data, replays
from .handling import Refused, read, source_of
from .ladders import by_game, label
from .live import event
from .owners import bot_json, public_bot
from .render import render

MATCH_PAGE: Final = 50
"""Matches a list page shows."""
BOT_MATCH_PAGE: Final = 25
"""Matches a bot page lists at once."""
FAULT_PAGE: Final = 10
"""Faulted matches a bot page lists at once."""
MAX_PARAM: Final = 300
"""Characters of a name or id in a URL, at most."""


def _tokens(request: Request) -> PageTokens:
    tokens: PageTokens = request.app.state.tokens
    return tokens


def _param(request: Request, name: str, *, required: bool = False) -> str | None:
    value = request.query_params.get(name)
    if not value:
        if required:
            raise Refused(400, f"give ?{name}= in the address")
        return None
    if len(value) > MAX_PARAM:
        raise Refused(400, f"{name} is longer than {MAX_PARAM} characters")
    return value


def _ladder(request: Request) -> str:
    ladder = _param(request, "ladder", required=True)
    assert ladder is not None
    if not source_of(request).shows(ladder):
        raise Refused(404, f"no ladder {ladder!r} here")
    return ladder


def _position(
    request: Request, kind: str, scope: list[Scalar], *types: type, param: str = "page"
) -> tuple[Any, ...] | None:
    """Where the page asked for by ``?page=`` (or ``param``) starts; None: the first."""
    token = request.query_params.get(param)
    if not token:
        return None
    try:
        return position_of(_tokens(request).read(token, kind, scope), *types)
    except PageTokenError:
        raise Refused(
            400,
            "this page link is not one this arena made (or the arena restarted since); "
            "start again from the first page",
        ) from None


LADDERS_SHOWN: Final = 200
"""Ladders the home page lists, at most (by id)."""
IN_PLAY_SHOWN: Final = 50
"""Matches in progress the home page lists, at most (the newest)."""


async def index(request: Request) -> Response:
    """The matches in progress, the games, their ladders in words with their newest
    match, and the human seat."""
    source = source_of(request)
    playing = request.app.state.play is not None
    in_play = sorted(source.in_play(), key=lambda m: m.started_at, reverse=True)[:IN_PLAY_SHOWN]
    watchable = {m.match_id for m in in_play if source.watching(m.match_id) is not None}

    def job(store: Store) -> str:
        shown = [name for name in store.ladders() if source.shows(name)][:LADDERS_SHOWN]
        return render(
            "index.html",
            title=source.title,
            groups=by_game(shown),
            heads=ladder_heads(store, shown),
            games=all_games(),
            playing=playing,
            in_play=in_play,
            watchable=watchable,
        )

    return HTMLResponse(await read(request, job))


def _intervals(request: Request, store: Store, ladder: str) -> dict[str, RankInterval]:
    """The ladder's rank intervals, kept between pages (``data.LadderIntervals``)."""
    intervals: data.LadderIntervals = request.app.state.intervals
    return intervals.get(store, ladder)


async def ladder_page(request: Request) -> Response:
    """One ladder: the leaderboard (live); the chart and the matrix follow (``charts``)."""
    ladder = _ladder(request)
    source = source_of(request)
    after = _position(request, "leaderboard", [ladder], float, str, int)
    tokens = _tokens(request)

    def job(store: Store) -> str:
        # The newest match first, the rows after: the page never says it has shown a
        # match its rows lack (the live stream's ``head``).
        head = ladder_heads(store, [ladder]).get(ladder)
        board = data.leader_page(
            store, ladder, after=after, intervals=_intervals(request, store, ladder)
        )
        if not board.rows and source.ladders is None and ladder_league(store, ladder) is None:
            raise Refused(404, f"no ladder {ladder!r} here (the first page lists them)")
        nxt = tokens.make("leaderboard", [ladder], list(board.next)) if board.next else None
        return render(
            "ladder.html",
            title=source.title,
            ladder=ladder,
            board=board,
            next_page=nxt,
            first_page=after is None,
            head=_head_text(head),
        )

    return HTMLResponse(await read(request, job))


def _head_text(head: Position | None) -> str:
    """A ladder's newest match as a page carries it ("" for none): ``FINISHED:IDX``."""
    return "" if head is None else f"{head[0]!r}:{head[1]}"


def _since(request: Request) -> dict[str, Position | None] | None:
    """What a live page showed: ``?ladder=L&head=H`` (``_head_text``); None if it says
    nothing readable (it then gets the announcements only)."""
    ladder = request.query_params.get("ladder")
    head = request.query_params.get("head")
    if not ladder or head is None or len(ladder) > MAX_PARAM or len(head) > MAX_PARAM:
        return None
    if not head:
        return {ladder: None}
    finished, sep, idx = head.partition(":")
    try:
        return {ladder: (float(finished), int(idx))} if sep else None
    except ValueError:
        return None


async def ladder_charts(request: Request) -> Response:
    """The rating chart of the ladder's best ranked bots and their head-to-head matrix
    (an HTML fragment), shared by every page for a second."""
    ladder = _ladder(request)
    shared: data.Shared = request.app.state.shared

    def job(store: Store) -> str:
        def make() -> str:
            top = [r.row.name for r in data.leader_page(store, ladder, limit=data.H2H_BOTS).rows]
            return render(
                "_charts.html",
                chart_id="chart-ladder",
                chart=data.ladder_chart(store, ladder, top[: data.CHART_BOTS]),
                h2h=data.head_to_head(store, ladder, top[: data.H2H_BOTS]),
            )

        return shared.get(("charts", ladder), make)

    return HTMLResponse(await read(request, job))


async def ladder_rows(request: Request) -> Response:
    """The first page of a leaderboard's rows (what a live page swaps in)."""
    ladder = _ladder(request)

    shared: data.Shared = request.app.state.shared

    def job(store: Store) -> str:
        # Every live page of a ladder asks at once when a match finishes: one read serves.
        return shared.get(
            ("rows", ladder),
            lambda: render(
                "_leader_rows.html",
                board=data.leader_page(store, ladder, intervals=_intervals(request, store, ladder)),
                ladder=ladder,
            ),
        )

    return HTMLResponse(await read(request, job))


async def ladder_json(request: Request) -> Response:
    """A leaderboard page as JSON."""
    ladder = _ladder(request)
    after = _position(request, "leaderboard", [ladder], float, str, int)
    tokens = _tokens(request)

    def job(store: Store) -> dict[str, Any]:
        board = data.leader_page(
            store, ladder, after=after, intervals=_intervals(request, store, ladder)
        )
        return {
            "ladder": ladder,
            "rows": [
                {
                    "rank": r.row.rank,
                    "bot": r.row.name,
                    "mu": r.row.mu,
                    "sigma": r.row.sigma,
                    "low": r.low,
                    "high": r.high,
                    "rank_low": r.row.rank_low,
                    "rank_high": r.row.rank_high,
                    "p_above_next": r.row.p_above_next,
                    "matches": r.row.matches,
                    "wins": r.row.wins,
                    "mean_rank": r.row.mean_rank,
                    "timeouts": r.row.timeouts,
                    "errors": r.row.errors,
                    "invalid": r.row.invalid,
                    "forfeits": r.forfeits,
                    "status": r.status,
                }
                for r in board.rows
            ],
            "next_page": tokens.make("leaderboard", [ladder], list(board.next))
            if board.next
            else None,
        }

    return JSONResponse(await read(request, job))


async def events(request: Request) -> Response:
    """Server-Sent Events: ``matches`` with the ladders that have new matches."""
    live = request.app.state.live
    if live.full:
        raise Refused(503, "too many live pages are open; reload in a while")

    since = _since(request)

    async def stream() -> AsyncIterator[str]:
        yield "retry: 3000\n\n"
        async for ladders in live.listen(since):
            yield event(ladders)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )


def _names(store: Store, ladder: str, text: str | None) -> tuple[str, ...]:
    """The ladder's bots a name filter stands for (its exact name, else those holding
    the text); a filter that names none is refused."""
    if not text:
        return ()
    names = bots_like(store, ladder, text)
    if not names:
        raise Refused(404, f"no bot of this ladder has {text!r} in its name")
    return tuple(names)


def _day(request: Request, name: str) -> float | None:
    """``?NAME=YYYY-MM-DD`` as the Unix time that day starts (UTC)."""
    text = _param(request, name)
    if text is None:
        return None
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise Refused(400, f"{name} is a date written YYYY-MM-DD, not {text!r}") from None
    return datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()


DAY_S: Final = 86400.0


async def matches_page(request: Request) -> Response:
    """A ladder's matches, newest (or oldest) first, filtered by bot (a name or part of
    one), opponent, end reason, faults and dates, in keyset pages both ways."""
    ladder = _ladder(request)
    bot = _param(request, "bot")
    opponent = _param(request, "opponent")
    end = _param(request, "end") or ""
    faults = request.query_params.get("faults") in ("1", "on", "yes")
    since = _day(request, "from")
    last_day = _day(request, "to")
    until = None if last_day is None else last_day + DAY_S
    oldest = request.query_params.get("order") == "oldest"
    scope: list[Scalar] = [
        ladder, bot or "", opponent or "", end, faults, since or 0.0, until or 0.0, oldest,
    ]  # fmt: skip
    at = _position(request, "matches", scope, float, int, bool)
    start = None if at is None else (at[0], at[1])
    back = bool(at[2]) if at is not None else False
    tokens = _tokens(request)
    source = source_of(request)

    def job(store: Store) -> str:
        bots = _names(store, ladder, bot)
        opponents = _names(store, ladder, opponent)
        where = MatchFilter(bots, opponents, faults, end, since, until)
        newest_first = oldest == back  # a page back walks the other way
        found = ladder_matches(
            store, ladder, where=where, start=start, newest_first=newest_first, limit=MATCH_PAGE
        )
        rows = found.matches[::-1] if back else found.matches
        # Links down the list (on, in its order) and up it (back); positions exclusive.
        down: list[Scalar] | None
        up: list[Scalar] | None
        if back:
            up = [*found.next, True] if found.next else None
            turn = (rows[-1].finished_at, rows[-1].idx) if rows else start
            down = [*turn, False] if turn else None
        else:
            down = [*found.next, False] if found.next else None
            up = [rows[0].finished_at, rows[0].idx, True] if rows and start else None
        return render(
            "matches.html",
            title=source.title,
            ladder=ladder,
            ladder_label=label(ladder),
            ladders=by_game(name for name in store.ladders() if source.shows(name)),
            bot=bot,
            bots=bots,
            opponent=opponent,
            opponents=opponents,
            end=end,
            ends=ladder_end_reasons(store, ladder),
            faults=faults,
            day_from=request.query_params.get("from", ""),
            day_to=request.query_params.get("to", ""),
            oldest=oldest,
            found=found,
            rows=rows,
            next_page=tokens.make("matches", scope, down) if down else None,
            prev_page=tokens.make("matches", scope, up) if up else None,
            first_page=start is None,
        )

    return HTMLResponse(await read(request, job))


async def bot_page(request: Request) -> Response:
    """A bot: its ladders, rating history, matches and faults (never its endpoint)."""
    name = request.path_params["name"]
    if len(name) > MAX_PARAM:
        raise Refused(400, "that bot name is too long")
    source = source_of(request)
    chosen = _param(request, "ladder")
    tokens = _tokens(request)

    def job(store: Store) -> str | None:
        ladders = [lad for lad in bot_ladders(store, name) if source.shows(lad)]
        entry = get_bot(store, name)
        if not ladders and entry is None:
            return None
        ladder = chosen if chosen in ladders else (ladders[0] if ladders else None)
        context: dict[str, Any] = {
            "title": source.title,
            "name": name,
            "entry": public_bot(entry) if entry is not None else None,
            "ladders": ladders,
            "ladder": ladder,
        }
        if ladder is not None:
            scope: list[Scalar] = [ladder, name]
            mpos = _position(request, "bot-matches", scope, float, int)
            fpos = _position(request, "bot-faults", scope, float, int, param="faults_page")
            where = MatchFilter(bots=(name,))
            found = ladder_matches(store, ladder, where=where, start=mpos, limit=BOT_MATCH_PAGE)
            faults, fnext = bot_faults(store, ladder, name, before=fpos, limit=FAULT_PAGE)
            context |= {
                "rating": bot_rating(store, ladder, name),
                "chart": data.bot_chart(store, ladder, name),
                "found": found,
                "rows": found.matches,
                "next_page": tokens.make("bot-matches", scope, list(found.next))
                if found.next
                else None,
                "faults": faults,
                "faults_next": tokens.make("bot-faults", scope, list(fnext)) if fnext else None,
            }
        return render("bot.html", **context)

    text = await read(request, job)
    if text is None:
        raise Refused(404, f"no bot {name!r} here")
    return HTMLResponse(text)


async def match_page(request: Request) -> Response:
    """A finished match: its summary and (when it may be shown) its replay."""
    match_id = request.path_params["match_id"]
    view = replays.view_param(request.query_params.get("seat"))
    source = source_of(request)

    step = boards.step_param(request.query_params.get("step"))

    def job(store: Store) -> str:
        shown = replays.replay(store, source, match_id, view)
        viewer = boards.match_viewer(store, source, match_id, view, step)
        return render("match.html", title=source.title, shown=shown, seat=view, viewer=viewer)

    return HTMLResponse(await read(request, job))


async def replay_json(request: Request) -> Response:
    """A finished match's replay steps as JSON, under the gRPC API's secrecy rules."""
    match_id = request.path_params["match_id"]
    view = replays.view_param(request.query_params.get("seat"))
    source = source_of(request)

    def job(store: Store) -> dict[str, Any]:
        return replays.replay(store, source, match_id, view).as_json()

    headers = None
    if request.query_params.get("download") == "1":  # the viewer's download link
        headers = {"Content-Disposition": replays.attachment(match_id, view)}
    return JSONResponse(await read(request, job), headers=headers)


ROUTES: Final = [
    Route("/", index),
    Route("/ladder", ladder_page),
    Route("/ladder/rows", ladder_rows),
    Route("/ladder/charts", ladder_charts),
    Route("/api/ladder", ladder_json),
    Route("/events", events),
    Route("/matches", matches_page),
    Route("/bot/{name:path}", bot_page),
    Route("/match/{match_id:path}", match_page),
    Route("/api/replay/{match_id:path}", replay_json),
    Route("/api/bot/{name:path}", bot_json),
]
"""Every page; GET (and HEAD) only."""
