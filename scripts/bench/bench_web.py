#!/usr/bin/env python3
"""The web app against a live ladder on a long history.

1. Builds a serve database with ``--matches N`` recorded ladder matches among
   ``--history-bots`` bots (``arena.store.synthetic``, as ``bench_reads.py`` does).
2. Serves it with ``arena serve --web-port 0`` (a subprocess, as in production), starts
   ``--bots`` sample random bots and submits each under its own owner's token; waits
   until they are active.
3. For ``--seconds``, ``--clients`` browsers-to-be (threads of another process, each on
   its own HTTP connection) load in turn the ladder's page (its leaderboard), the chart
   and matrix the page then fetches (``/ladder/charts``: the best 10 bots' rating
   history, the head-to-head of the best 12 over the newest 1000 matches), a match list
   page (following its "older" link up to ``--depth`` pages deep, then from the top
   again) and a history bot's page (its matches, faults and rating history); each
   page's time is measured.
   Meanwhile the ladder plays: every fault of its healthy bots counts as a timeout.

Prints the figures, and a last line of JSON: ``leaderboard_p99_ms``, ``charts_p99_ms``,
``match_list_p99_ms``, ``bot_page_p99_ms`` (of the pages answered), the pages answered
and refused, and ``bot_timeouts`` (faults, failures and suspensions of the healthy bots
while the clients read). ``--read-rate`` is the arena's per-address read limit (default 0
here: every client is on 127.0.0.1, and the point is the cost of the pages).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_reads import (  # noqa: E402
    Procs,
    build,
    failures_logged,
    first_line,
    live_bots,
    log,
    median,
    p99,
    real_record,
)

from arena.server.config import ServeConfig  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.store.tokens import create_token  # noqa: E402

PY = sys.executable
PAGES = ("leaderboard", "charts", "match_list", "bot_page")
MORE = re.compile(r'class="more" href="([^"]+)"')


def poll(
    base: str,
    ladder: str,
    bots: list[str],
    depth: int,
    until: float,
    out: dict[str, list[float]],
    refused: dict[str, int],
) -> None:
    """Load the three pages in turn until ``until``."""
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    rng = random.Random(threading.get_ident())
    ladder_q = quote(ladder, safe="")
    list_url = f"/matches?ladder={ladder_q}"
    deep = 0
    while time.time() < until:
        bot = rng.choice(bots)
        urls = {
            "leaderboard": f"/ladder?ladder={ladder_q}",
            "charts": f"/ladder/charts?ladder={ladder_q}",
            "match_list": list_url,
            "bot_page": f"/bot/{quote(bot, safe='')}?ladder={ladder_q}",
        }
        for kind, url in urls.items():
            started = time.perf_counter()
            conn.request("GET", url)
            answer = conn.getresponse()
            body = answer.read().decode(errors="replace")
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status == 200:
                out[kind].append(elapsed)
            else:
                refused[kind] += 1
            if kind == "match_list":
                more = MORE.search(body)
                deep += 1
                if more is None or deep >= depth:
                    list_url, deep = f"/matches?ladder={ladder_q}", 0
                else:
                    list_url = more.group(1).replace("&amp;", "&")
    conn.close()


def run_clients(
    base: str, ladder: str, bots: list[str], clients: int, seconds: float, depth: int
) -> int:
    """The polling process: prints its tallies as JSON."""
    out: dict[str, list[float]] = {k: [] for k in PAGES}
    refused = dict.fromkeys(PAGES, 0)
    start = time.time()
    until = start + seconds
    threads = [
        threading.Thread(target=poll, args=(base, ladder, bots, depth, until, out, refused))
        for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"latencies": out, "refused": refused, "from": start, "to": time.time()}))
    return 0


def web_line(server: subprocess.Popen[str]) -> str:
    """The web app's address, printed just after the arena's (read on from the buffer
    ``first_line`` filled: select() no longer sees those lines)."""
    assert server.stdout is not None
    prefix = "arena web serving on "
    for line in server.stdout:
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    raise RuntimeError("arena serve ended before the web app served")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000, help="history (1000000)")
    parser.add_argument("--history-bots", type=int, default=200, help="bots of the history")
    parser.add_argument("--bots", type=int, default=8, help="live random bots (default 8)")
    parser.add_argument("--clients", type=int, default=4, help="reading clients (default 4)")
    parser.add_argument("--seconds", type=float, default=60.0, help="reading time (60)")
    parser.add_argument("--depth", type=int, default=20, help="match list pages deep (20)")
    parser.add_argument("--warmup-s", type=float, default=10.0, help="ladder warm-up")
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--read-rate", type=float, default=0.0, help="arena serve --read-rate")
    parser.add_argument("--db", help="build (or, with --reuse, reuse) this database")
    parser.add_argument("--reuse", action="store_true", help="serve --db as it is")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--poll", metavar="BASE", help=argparse.SUPPRESS)
    parser.add_argument("--ladder", help=argparse.SUPPRESS)
    parser.add_argument("--names", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.poll:
        return run_clients(args.poll, args.ladder, args.names.split(","), args.clients,
                           args.seconds, args.depth)  # fmt: skip

    config = ServeConfig(db="", port=0, table_size=args.table_size)
    work = Path(tempfile.mkdtemp(prefix="bench-web-"))
    db = Path(args.db) if args.db else work / "serve.db"
    build_s = 0.0
    if not args.reuse:
        if db.exists():
            raise SystemExit(f"{db} exists; remove it or give --reuse")
        record = real_record(work)
        log(f"building {args.matches} matches in {db} ...")
        build_s = build(db, config, args.matches, args.history_bots, record)
        log(f"built in {build_s:.1f} s, {db.stat().st_size / 1e6:.0f} MB")
    owners = [f"author{i}" for i in range(args.bots)]
    names = [f"live-{os.getpid()}-{i}" for i in range(args.bots)]
    store = open_store(db)
    try:
        with store.transaction() as conn:
            conn.execute("UPDATE bots SET status = 'retired' WHERE name LIKE 'live-%'")
        tokens = [create_token(store, owner) for owner in owners]
    finally:
        store.close()

    procs = Procs()
    serve_log = work / "serve.log"
    try:
        argv = [
            PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", "--web-port", "0",
            "--table-size", str(args.table_size), "--read-rate", str(args.read_rate),
        ]  # fmt: skip
        with serve_log.open("w") as handle:
            server = procs.start(argv, cwd=ROOT, stderr=handle)
        address = first_line(server, "arena serving on ", 300)
        base = web_line(server)
        log(f"arena serving on {address}, web app on {base} (log {serve_log})")
        ladder = live_bots(procs, address, db, config.league_id, names, tokens)
        log(f"{args.bots} bots active; warming up {args.warmup_s:g} s")
        time.sleep(args.warmup_s)
        log_start = serve_log.stat().st_size
        history = [f"hist-{i:04d}" for i in range(args.history_bots)]
        poller = subprocess.run(
            [PY, __file__, "--poll", base, "--ladder", config.ladder, "--names",
             ",".join(history), "--clients", str(args.clients), "--seconds", str(args.seconds),
             "--depth", str(args.depth)],
            check=True, capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        report = json.loads(poller.stdout)
        busy_from, busy_to = report["from"], report["to"]
        played = ladder.played(busy_from, busy_to)
        faults = ladder.faults_between(busy_from, busy_to)
        failures = failures_logged(serve_log, log_start, names)
        not_active = ladder.not_active()
        for line in failures + not_active:
            log(f"  {line}")
    finally:
        procs.stop_all()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    latencies: dict[str, list[float]] = report["latencies"]
    answered = {k: len(v) for k, v in latencies.items()}
    result = {
        "matches": args.matches,
        "build_s": round(build_s, 1),
        "clients": args.clients,
        "read_rate": args.read_rate,
        "leaderboard_p99_ms": p99(latencies["leaderboard"]),
        "charts_p99_ms": p99(latencies["charts"]),
        "match_list_p99_ms": p99(latencies["match_list"]),
        "bot_page_p99_ms": p99(latencies["bot_page"]),
        "median_ms": {k: median(v) for k, v in latencies.items()},
        "answered": answered,
        "refused": report["refused"],
        "bot_timeouts": sum(faults.values()) + len(failures) + len(not_active),
        "faults": faults,
        "ladder_matches_meanwhile": played[0],
        "ladder_decisions_meanwhile": played[1],
        "seconds": round(busy_to - busy_from, 1),
        "load_avg_1m": round(os.getloadavg()[0], 1),
    }
    print(
        f"history {args.matches} matches; {args.clients} clients reading for "
        f"{busy_to - busy_from:.0f} s: answered {answered}, refused {report['refused']}; "
        f"the ladder played {played[0]} matches meanwhile"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
