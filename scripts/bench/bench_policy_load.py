#!/usr/bin/env python3
"""Built-in policies that think, beside a live ladder.

1. Serves a fresh database with ``arena serve --web-port 0 --web-play`` (a subprocess,
   as in production), starts ``--bots`` sample random bots and submits each under its own
   owner's token (as ``bench_reads.py`` does); waits until they are active.
2. Opens ``--tables`` tables of ``--players`` seats on the web app's ``/play`` page, the
   other seats the ``--policy`` built-in (default ``ismcts``): the tables a person starts
   against the arena's search bot.
3. Alternates quiet windows and busy ones, ``--rounds`` of each, ``--window-s`` seconds
   each. In a busy window a "person" (a thread per table, in a process of its own) plays
   each table's human seat as fast as the pages come (a random offered choice), so the
   built-in seats think without a pause; a finished table is replaced by a new one. In a
   quiet window nobody plays the tables: they wait for the person (a table's built-in
   seats think only until the person's next turn), and the quiet window starts once
   every table waits for the person. Throughout, one client polls
   GetLeaderboard (one read at a time, ``--read-pause-ms`` apart).

Prints the figures, and a last line of JSON: ladder matches per minute with the tables
busy and quiet, and their ratio (``ladder_ratio``: 1.0 when the tables cost the ladder
nothing); GetLeaderboard p50/p99 in each; the tables' own progress (the person's
decisions per minute, each followed by the built-in seats' turns up to the next); the
CPU seconds of the arena's process and of its child processes (policy workers) per
window; and the faults of the ladder's bots.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_reads import Procs, first_line, live_bots, log  # noqa: E402
from bench_web import web_line  # noqa: E402

from arena.server.config import ServeConfig  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.store.tokens import create_token  # noqa: E402
from arena.v1 import arena_pb2, arena_pb2_grpc  # noqa: E402

PY = sys.executable
CHOICES = re.compile(r'name="request" value="(\d+)".*?name="version" value="(\d+)"', re.S)
BUTTON = '<button type="submit" name="choice"'
HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}
SETTLE_GUARD_S = 300.0
"""How long the tables may take to come back to the person after a busy window."""


# ------------------------------------------------------------------ the person


def _request(
    conn: http.client.HTTPConnection, method: str, url: str, body: str | None = None
) -> tuple[int, str, str]:
    conn.request(method, url, body=body, headers=HEADERS if body is not None else {})
    answer = conn.getresponse()
    text = answer.read().decode(errors="replace")
    return answer.status, answer.getheader("location") or "", text


def new_table(conn: http.client.HTTPConnection, players: int, policy: str) -> str:
    form = {
        "game": "abluxxen",
        "players-abluxxen": str(players),
        "preset-abluxxen": "amigo",
        "bots-abluxxen": policy,
        "name": "person",
    }
    status, location, text = _request(conn, "POST", "/play", urlencode(form))
    if status != 303:
        raise RuntimeError(f"/play refused a table: {status} {text[:300]}")
    return location


def person(
    base: str,
    players: int,
    policy: str,
    tally: dict[str, int],
    lock: threading.Lock,
    tables: list[str],
    index: int,
) -> None:
    """Play one table's human seat, a new table when it ends (until the process exits)."""
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=120)
    rng = random.Random(index)
    url = table = tables[index]
    while True:
        status, _, page = _request(conn, "GET", url)
        if status != 200:
            raise RuntimeError(f"GET {url}: {status}")
        found = CHOICES.search(page)
        if found is None:
            if "The match is over" in page:
                table = url = new_table(conn, players, policy)
                with lock:
                    tally["finished"] += 1
                    tables[index] = table
            continue  # still waiting (the page reloads)
        request, version = found[1], found[2]
        buttons = page.count(BUTTON)
        body = urlencode(
            {"request": request, "choice": str(rng.randrange(buttons)), "version": version}
        )
        status, location, _ = _request(conn, "POST", table, body)
        if status == 303:
            url = location
            with lock:
                tally["decisions"] += 1


def run_person(base: str, tables_file: str, players: int, policy: str, seconds: float) -> int:
    """The person's process: plays every table in ``tables_file`` for ``seconds``, then
    writes the tables back, prints its tally as JSON and exits (a page it still waits
    for is dropped; its table's built-in seats think up to the person's next turn)."""
    path = Path(tables_file)
    tables: list[str] = json.loads(path.read_text())
    started = time.time()
    tally = {"decisions": 0, "finished": 0}
    lock = threading.Lock()
    for i in range(len(tables)):
        threading.Thread(
            target=person, args=(base, players, policy, tally, lock, tables, i), daemon=True
        ).start()
    time.sleep(seconds)
    with lock:
        path.write_text(json.dumps(tables))
        print(json.dumps({**tally, "from": started, "to": time.time()}), flush=True)
        os._exit(0)


# ------------------------------------------------------------------ the reader


def run_reader(address: str, out: str, pause_ms: float) -> int:
    """One client reading GetLeaderboard until it is ended: a line "at ms" per read
    (or "at error") in ``out``."""
    channel = grpc.insecure_channel(address)
    stub = arena_pb2_grpc.ArenaStub(channel)
    with open(out, "a", buffering=1) as lines:
        while True:
            at = time.time()
            started = time.perf_counter()
            try:
                stub.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=60)
            except grpc.RpcError:
                lines.write(f"{at} error\n")
                continue
            lines.write(f"{at} {(time.perf_counter() - started) * 1000}\n")
            time.sleep(pause_ms / 1000)


def reads_of(path: Path) -> tuple[list[tuple[float, float]], int]:
    """The reads in ``path``: (at, ms) of each answered, and the errors."""
    reads, errors = [], 0
    for line in path.read_text().splitlines():
        at, ms = line.split()
        if ms == "error":
            errors += 1
        else:
            reads.append((float(at), float(ms)))
    return reads, errors


# ------------------------------------------------------------------ measuring


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_s(parent: int) -> float:
    """CPU seconds of the live child processes of ``parent`` (the policy workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def settle(base: str, tables_file: Path) -> float:
    """Wait until every table waits for the person (or is over): then none of its
    built-in seats is thinking. The seconds it took (SystemExit after SETTLE_GUARD_S)."""
    started = time.monotonic()
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=120)
    try:
        for table in json.loads(tables_file.read_text()):
            while True:
                status, _, page = _request(conn, "GET", table)
                if status != 200 or CHOICES.search(page) or "The match is over" in page:
                    break
                if time.monotonic() - started > SETTLE_GUARD_S:
                    raise SystemExit(f"the tables did not settle in {SETTLE_GUARD_S:.0f} s")
    finally:
        conn.close()
    return time.monotonic() - started


def quantile(values: list[float], q: int) -> float | None:
    if not values:
        return None
    if len(values) < 2:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)


class Window:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.start = self.end = 0.0
        self.arena_cpu = self.hosts_cpu = 0.0
        self.person: dict[str, Any] = {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=8, help="ladder's random bots (default 8)")
    parser.add_argument("--tables", type=int, default=8, help="/play tables (default 8)")
    parser.add_argument("--players", type=int, default=5, help="seats per table (default 5)")
    parser.add_argument("--policy", default="ismcts", help="the tables' built-in (ismcts)")
    parser.add_argument("--window-s", type=float, default=20.0, help="each window (20)")
    parser.add_argument("--rounds", type=int, default=2, help="quiet+busy pairs (default 2)")
    parser.add_argument("--warmup-s", type=float, default=5.0, help="ladder warm-up (5)")
    parser.add_argument("--read-pause-ms", type=float, default=50.0, help="between reads (50)")
    parser.add_argument("--concurrency", type=int, default=2, help="arena serve's (default 2)")
    parser.add_argument(
        "--arena-root",
        help="serve with the arena code in this directory (e.g. a checkout of an earlier commit)",
    )
    parser.add_argument(
        "--native-dir",
        help="the compiled build of --arena-root (python -m arena.native build run there "
        "with ARENA_NATIVE_DIR=DIR); the bots keep this checkout's",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--person", metavar="BASE", help=argparse.SUPPRESS)
    parser.add_argument("--tables-file", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--reader", metavar="ADDRESS", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.person:
        return run_person(args.person, args.tables_file, args.players, args.policy, args.seconds)
    if args.reader:
        return run_reader(args.reader, args.out, args.read_pause_ms)

    config = ServeConfig(db="", port=0)
    work = Path(tempfile.mkdtemp(prefix="bench-policy-load-"))
    db = work / "serve.db"
    owners = [f"author{i}" for i in range(args.bots)]
    names = [f"live-{i}" for i in range(args.bots)]
    store = open_store(db)
    try:
        tokens = [create_token(store, owner) for owner in owners]
    finally:
        store.close()
    procs = Procs()
    serve_log = work / "serve.log"
    tables_file = work / "tables.json"
    windows: list[Window] = []
    try:
        argv = [
            PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", "--web-port", "0",
            "--web-play", "--concurrency", str(args.concurrency), "--read-rate", "0",
        ]  # fmt: skip
        arena_root = Path(args.arena_root).resolve() if args.arena_root else ROOT
        env = dict(os.environ, PYTHONPATH=str(arena_root))
        if args.native_dir:
            env["ARENA_NATIVE_DIR"] = args.native_dir  # the server's only, not the bots'
        with serve_log.open("w") as handle:
            server = procs.start(argv, cwd=arena_root, env=env, stderr=handle)
        address = first_line(server, "arena serving on ", 300)
        base = web_line(server)
        log(f"arena serving on {address}, web app on {base} (log {serve_log})")
        ladder = live_bots(procs, address, db, config.league_id, names, tokens)
        parts = urlsplit(base)
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
        tables = [new_table(conn, args.players, args.policy) for _ in range(args.tables)]
        conn.close()
        tables_file.write_text(json.dumps(tables))
        log(f"{args.bots} bots active, {args.tables} tables open; warming up {args.warmup_s:g} s")
        time.sleep(args.warmup_s)
        log(f"settled in {settle(base, tables_file):.1f} s")

        reads_file = work / "reads.txt"
        procs.start(
            [PY, __file__, "--reader", address, "--out", str(reads_file),
             "--read-pause-ms", str(args.read_pause_ms)],
            cwd=ROOT,
        )  # fmt: skip
        time.sleep(1.0)
        for _ in range(args.rounds):
            for kind in ("quiet", "busy"):
                window = Window(kind)
                cpu_before = cpu_s(server.pid), children_cpu_s(server.pid)
                if kind == "quiet":
                    window.start = time.time()
                    time.sleep(args.window_s)
                    window.end = time.time()
                else:
                    person = subprocess.run(
                        [PY, __file__, "--person", base, "--tables-file", str(tables_file),
                         "--players", str(args.players), "--policy", args.policy,
                         "--seconds", str(args.window_s)],
                        check=True, capture_output=True, text=True, cwd=ROOT,
                    )  # fmt: skip
                    window.person = json.loads(person.stdout)
                    window.start, window.end = window.person.pop("from"), window.person.pop("to")
                window.arena_cpu = cpu_s(server.pid) - cpu_before[0]
                window.hosts_cpu = children_cpu_s(server.pid) - cpu_before[1]
                windows.append(window)
                played = ladder.played(window.start, window.end)
                log(
                    f"{kind}: {played[0]} ladder matches in {window.end - window.start:.1f} s; "
                    f"arena CPU {window.arena_cpu:.1f} s, its children {window.hosts_cpu:.1f} s"
                    + (f"; person {window.person}" if window.person else "")
                )
                if kind == "busy":
                    log(f"settled in {settle(base, tables_file):.1f} s")
        reads, read_errors = reads_of(reads_file)
        faults: dict[str, int] = {}
        for window in windows:
            for kind, n in ladder.faults_between(window.start, window.end).items():
                faults[kind] = faults.get(kind, 0) + n
        not_active = ladder.not_active()
        counts = {w: ladder.played(w.start, w.end)[0] for w in windows}
    finally:
        procs.stop_all()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    result: dict[str, Any] = {
        "bots": args.bots,
        "tables": args.tables,
        "players": args.players,
        "policy": args.policy,
        "window_s": args.window_s,
        "rounds": args.rounds,
    }
    for kind in ("quiet", "busy"):
        mine = [w for w in windows if w.kind == kind]
        seconds = sum(w.end - w.start for w in mine)
        latencies = [ms for at, ms in reads if any(w.start <= at < w.end for w in mine)]
        result[f"matches_per_min_{kind}"] = round(sum(counts[w] for w in mine) * 60 / seconds, 1)
        result[f"leaderboard_p50_ms_{kind}"] = quantile(latencies, 50)
        result[f"leaderboard_p99_ms_{kind}"] = quantile(latencies, 99)
        result[f"leaderboard_reads_{kind}"] = len(latencies)
        result[f"arena_cpu_share_{kind}"] = round(sum(w.arena_cpu for w in mine) / seconds, 2)
        result[f"children_cpu_share_{kind}"] = round(sum(w.hosts_cpu for w in mine) / seconds, 2)
        if kind == "busy":
            decisions = sum(w.person["decisions"] for w in mine)
            result["person_decisions_per_min"] = round(decisions * 60 / seconds, 1)
            result["tables_finished"] = sum(w.person["finished"] for w in mine)
    quiet = result["matches_per_min_quiet"]
    result["ladder_ratio"] = round(result["matches_per_min_busy"] / quiet, 2) if quiet else None
    result["read_errors"] = read_errors
    result["bot_faults"] = faults
    result["bots_not_active"] = not_active
    result["load_avg_1m"] = round(os.getloadavg()[0], 1)
    print(
        f"ladder of {args.bots} random bots: {result['matches_per_min_quiet']} matches/min "
        f"with the {args.tables} {args.policy} tables quiet, {result['matches_per_min_busy']} "
        f"with them busy (ratio {result['ladder_ratio']}); GetLeaderboard p50/p99 "
        f"{result['leaderboard_p50_ms_quiet']}/{result['leaderboard_p99_ms_quiet']} ms quiet, "
        f"{result['leaderboard_p50_ms_busy']}/{result['leaderboard_p99_ms_busy']} ms busy; "
        f"the person made {result['person_decisions_per_min']} decisions/min"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
