#!/usr/bin/env python3
"""Each page of the web app loaded cold in a real headless Chromium.

1. Builds a database of ``--matches`` recorded 4-player matches of one ladder among
   ``--bots`` bots (``arena.store.synthetic``, each with a real match's record), or
   takes ``--db`` as it is with ``--reuse``.
2. Serves it with ``arena web --port 0`` (a subprocess, as in production).
3. Loads each page (the ladder list, a ladder's leaderboard, its match list, a bot's
   page, a match and its replay on the board) ``--runs`` times, each in a new browser
   context (an empty cache: cold), then once more in the same context (warm), in
   Debian's Chromium driven by Playwright (as the browser tests do).

Per page, from the browser's own Navigation and Resource Timing: the load event (ms
from the navigation's start; median and max of the cold runs), DOMContentLoaded, the
bytes of script the page ran (decoded; inline scripts counted too), the bytes it moved
(compressed, as sent), what a warm load moved for its scripts and styles (0: cached),
on the leaderboard when its chart and matrix arrived, and every request that left the
machine (none expected). Prints a table and, last, a line of JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_reads import PY, Procs, first_line, log, real_record  # noqa: E402

from arena.store import open_store  # noqa: E402
from arena.store.synthetic import add_matches  # noqa: E402

LEAGUE = "bench-pages"
LADDER = f"{LEAGUE}/abluxxen/standard/4p"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMINGS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const scripts = resources.filter((r) => r.initiatorType === "script");
  const charts = resources.find((r) => r.name.includes("/ladder/charts"));
  const inline = Array.from(document.scripts).filter((s) => !s.src)
    .reduce((n, s) => n + s.text.length, 0);
  const statics = resources.filter((r) => ["script", "link", "css"].includes(r.initiatorType));
  return {
    load_ms: nav.loadEventEnd,
    dcl_ms: nav.domContentLoadedEventEnd,
    script_bytes: scripts.reduce((n, r) => n + r.decodedBodySize, 0) + inline,
    transfer_bytes: resources.reduce((n, r) => n + r.transferSize, nav.transferSize),
    static_transfer_bytes: statics.reduce((n, r) => n + r.transferSize, 0),
    charts_ms: charts ? charts.responseEnd : null,
  };
}"""


def build(db: Path, matches: int, bots: int, work: Path) -> float:
    """The ladder's history; seconds taken."""
    started = time.perf_counter()
    record = real_record(work)
    store = open_store(db)
    try:
        add_matches(
            store,
            league_id=LEAGUE,
            ladder=LADDER,
            bots=[f"bot-{i:03d}" for i in range(bots)],
            count=matches,
            table_size=4,
            start=time.time() - 0.5 * matches,
            record=record,
        )
    finally:
        store.close()
    return time.perf_counter() - started


def pages(db: Path) -> dict[str, str]:
    """Each page's path, on the database's busiest ladder."""
    store = open_store(db, read_only=True)
    try:
        ladder = store.read(
            "SELECT ladder FROM matches GROUP BY ladder ORDER BY count(*) DESC LIMIT 1"
        )[0][0]
        match_id = store.read(
            "SELECT id FROM matches WHERE ladder = ? ORDER BY finished_at DESC LIMIT 1", (ladder,)
        )[0][0]
        bot = store.standings(ladder, limit=1)[0].rating.bot
    finally:
        store.close()
    q = quote(ladder, safe="")
    return {
        "index": "/",
        "leaderboard": f"/ladder?ladder={q}",
        "match_list": f"/matches?ladder={q}",
        "bot_page": f"/bot/{quote(bot, safe='')}?ladder={q}",
        "match": f"/match/{quote(match_id, safe='')}",
        "replay": f"/replay/{quote(match_id, safe='')}?seat=all",
    }


def load(browser: Any, base: str, path: str, runs: int) -> dict[str, Any]:
    """``path`` loaded ``runs`` times cold and once warm; its figures."""
    cold: list[dict[str, Any]] = []
    warm: dict[str, Any] = {}
    outside: set[str] = set()
    for run in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.on(
            "request",
            lambda r: None if r.url.startswith((base + "/", "data:")) else outside.add(r.url),
        )
        try:
            page.goto(base + path, wait_until="load", timeout=60_000)
            if path.startswith("/ladder?"):
                page.wait_for_selector(".charts[data-loaded]", timeout=60_000)
            cold.append(page.evaluate(TIMINGS))
            if run == runs - 1:
                page.goto(base + path, wait_until="load", timeout=60_000)
                warm = page.evaluate(TIMINGS)
        finally:
            context.close()
    loads = [c["load_ms"] for c in cold]
    charts = [c["charts_ms"] for c in cold if c["charts_ms"] is not None]
    return {
        "load_ms": round(statistics.median(loads)),
        "load_ms_max": round(max(loads)),
        "dcl_ms": round(statistics.median(c["dcl_ms"] for c in cold)),
        "charts_ms": round(statistics.median(charts)) if charts else None,
        "script_bytes": max(c["script_bytes"] for c in cold),
        "transfer_bytes": round(statistics.median(c["transfer_bytes"] for c in cold)),
        "warm_load_ms": round(warm["load_ms"]),
        "warm_static_transfer_bytes": warm["static_transfer_bytes"],
        "outside_requests": sorted(outside),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20_000, help="history (20000)")
    parser.add_argument("--bots", type=int, default=50, help="bots of the history (50)")
    parser.add_argument("--runs", type=int, default=5, help="cold loads of each page (5)")
    parser.add_argument("--db", help="build (or, with --reuse, serve as it is) this database")
    parser.add_argument("--reuse", action="store_true", help="serve --db as it is")
    parser.add_argument(
        "--checkout",
        type=Path,
        default=ROOT,
        help="serve the app of this checkout (an older commit, for before and after; "
        "default this one)",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    db = Path(args.db) if args.db else work / "arena.db"
    build_s = 0.0
    procs = Procs()
    try:
        if not args.reuse:
            if db.exists():
                raise SystemExit(f"{db} exists; remove it or give --reuse")
            log(f"building {args.matches} matches among {args.bots} bots in {db} ...")
            build_s = build(db, args.matches, args.bots, work)
            log(f"built in {build_s:.1f} s")
        paths = pages(db)
        pythonpath = [str(args.checkout.resolve()), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in pythonpath if p)}
        server = procs.start(
            [PY, "-m", "arena.cli", "web", "--db", str(db), "--port", "0"],
            cwd=args.checkout,
            env=env,
        )
        base = first_line(server, "arena web serving on ", 120).rstrip("/")
        log(f"arena web serving on {base}")
        figures: dict[str, dict[str, Any]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            try:
                for name, path in paths.items():
                    load(browser, base, path, 1)  # the server's first answer of each
                    figures[name] = load(browser, base, path, args.runs)
            finally:
                browser.close()
    finally:
        procs.stop_all()
        shutil.rmtree(work, ignore_errors=True)

    print(f"{'page':<12} {'load ms':>8} {'max':>6} {'DCL':>6} {'script B':>9} {'moved B':>9}"
          f" {'warm ms':>8} {'warm static B':>14} {'charts ms':>10}")  # fmt: skip
    for name, f in figures.items():
        print(f"{name:<12} {f['load_ms']:>8} {f['load_ms_max']:>6} {f['dcl_ms']:>6}"
              f" {f['script_bytes']:>9} {f['transfer_bytes']:>9} {f['warm_load_ms']:>8}"
              f" {f['warm_static_transfer_bytes']:>14} {f['charts_ms'] or '':>10}")  # fmt: skip
    result = {
        "matches": args.matches if not args.reuse else None,
        "build_s": round(build_s, 1),
        "runs": args.runs,
        "max_load_ms": max(f["load_ms_max"] for f in figures.values()),
        "max_script_bytes": max(f["script_bytes"] for f in figures.values()),
        "outside_requests": sorted({u for f in figures.values() for u in f["outside_requests"]}),
        "pages": {
            name: {k: v for k, v in f.items() if k != "outside_requests"}
            for name, f in figures.items()
        },
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
