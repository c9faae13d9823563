"""The web app inside ``arena serve`` (``--web-port``): the same app over the arena's own
read pool, showing only the arena's ladder and never a match it is still playing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from arena.games import get
from arena.referee.live import DEFAULT_DELAY_S, WATCHABLE
from arena.server.app import RunningArena

from .app import create_app
from .guards import allowed_hosts
from .play_record import ladder_of
from .play_room import PlayRoom, PlaySettings
from .server import WebOptions, bind, is_loopback, start, url_of
from .source import InPlay, WebSource, nothing_watched


async def start_web(
    arena: RunningArena,
    host: str,
    port: int,
    *,
    options: WebOptions,
    host_names: tuple[str, ...] = (),
    play: bool = False,
    play_token: str | None = None,
    watch_delay_s: float | None = DEFAULT_DELAY_S,
) -> tuple[str, Callable[[], Awaitable[None]]]:
    """Serve the web app for ``arena`` on ``host:port`` under ``options``, answering
    ``host_names`` besides loopback's (``guards.allowed_hosts``); its address, and how
    to stop it. OSError in words if it cannot listen. ``play``: also offer tables where a
    person plays the game's built-in bots (``/play``; beyond loopback only with
    ``play_token``), recorded in the arena's database, unrated, and shown beside its
    ladder. ``watch_delay_s``: people may follow the ladder's matches as they are played
    (``/live``), that far behind play; None: they may not."""
    config = arena.ladder.config
    ladder = arena.ladder
    ladder.followed = watch_delay_s is not None
    room = None
    shown = {config.ladder}
    if play:
        room = PlayRoom(
            PlaySettings(
                token=play_token,
                loopback=is_loopback(host),
                db=config.db,
                rated=False,
                games=(config.game,),
            )
        )
        game = get(config.game)
        shown |= {
            ladder_of(game, game.make_config(players, preset), rated=False)
            for players in game.table_sizes
            for preset in game.presets
        }
    source = WebSource(
        arena.reads,
        ladders=frozenset(shown),
        running=lambda: ladder.running.keys(),
        in_play=lambda: [
            InPlay(m.match_id, m.seats, m.started_at) for m in ladder.running.values()
        ],
        watching=WATCHABLE.get if watch_delay_s is not None else nothing_watched,
        watch_delay_s=watch_delay_s or 0.0,
        read_rate=config.read_rate,
        read_burst=config.read_burst,
        title="Arena",
    )
    sock = bind(host, port)
    app = create_app(source, hosts=allowed_hosts(is_loopback(host), host_names), play=room)
    server, task = await start(app, sock, options)

    async def stop() -> None:
        await server.stop()
        await task
        sock.close()

    return url_of(sock, options), stop
