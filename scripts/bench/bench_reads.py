#!/usr/bin/env python3
"""Public reads against a live ladder on a long history.

1. Builds a serve database with ``--matches N`` recorded ladder matches among
   ``--history-bots`` bots (``arena.store.synthetic``: bulk SQL in one transaction; the
   rows as the arena writes them, each with a copy of a real compressed match record).
2. Serves it with ``arena serve`` (a subprocess, as in production), starts ``--bots``
   sample random bots (sample_bots/random_bot.py processes), and submits each under its
   own owner's token, as authors do; waits until they are active and have played.
3. After ``--warmup-reads-s`` of reads that are not counted (the arena starts its read
   processes on the first reads, and fits the joint model for the first leaderboard),
   counts the ladder's matches while ``--clients`` anonymous clients (threads of one
   process, each on its own connection) poll GetLeaderboard, ListMatches and ListBots in
   turn as fast as they can, following next_page_token deeper into the lists, for
   ``--seconds`` in all, in ``--rounds`` windows; and without any reader in as many
   seconds, in windows alternating with those (the quiet rate: this machine's speed
   drifts by more than the effect measured, so both are spread over the same span).

Prints the figures, and a last line of JSON: ``leaderboard_p99_ms``,
``list_matches_p99_ms``, ``list_bots_p99_ms`` (of the reads answered), the reads
answered and refused by the read limit, ``bot_timeouts`` (faults, failed Hellos and
suspensions of the healthy bots while the clients polled), ``matches_per_min`` (while
polling) and ``matches_per_min_quiet``.

``--read-rate 0`` serves without the per-address read limit (the raw cost of the reads);
``--arena-root DIR --old-schema`` serves with the code checked out in DIR (e.g. a35e272,
whose schema predates migration 4), to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.server.config import ServeConfig  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.store.registry import BotStatus  # noqa: E402
from arena.store.synthetic import add_bots, add_matches  # noqa: E402
from arena.store.tokens import create_token  # noqa: E402
from arena.v1 import arena_pb2, arena_pb2_grpc  # noqa: E402

PY = sys.executable
METHODS = ("GetLeaderboard", "ListMatches", "ListBots")


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ----------------------------------------------------------------- the database


def real_record(directory: Path) -> bytes:
    """The compressed record of one real 4-player match among built-in random bots."""
    path = directory / "one.jsonl.gz"
    subprocess.run(
        [PY, "-m", "arena.cli", "match", "--bot", "a=random", "--bot", "b=random",
         "--bot", "c=random", "--bot", "d=random", "--seed", "1", "--record", str(path)],
        check=True, capture_output=True, cwd=ROOT,
    )  # fmt: skip
    return path.read_bytes()


def build(db: Path, config: ServeConfig, matches: int, history_bots: int, record: bytes) -> float:
    """The history; seconds taken."""
    started = time.perf_counter()
    store = open_store(db)
    try:
        names = [f"hist-{i:04d}" for i in range(history_bots)]
        add_bots(store, names, owner="history", status=BotStatus.SUSPENDED)
        add_matches(
            store,
            league_id=config.league_id,
            ladder=config.ladder,
            bots=names,
            count=matches,
            table_size=config.table_size,
            start=time.time() - 0.5 * matches,
            step_s=0.5,
            record=record,
            league_config={"serve": {"preset": config.preset, "table_size": config.table_size}},
        )
    finally:
        store.close()
    return time.perf_counter() - started


def to_old_schema(db: Path) -> None:
    """Undo migration 4 (for serving with code from before it)."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.executescript(
            "BEGIN; DROP INDEX matches_by_league_finish; DROP INDEX matches_by_ladder_finish;"
            "DROP INDEX seats_by_bot; ALTER TABLE seats DROP COLUMN league_id;"
            "ALTER TABLE seats DROP COLUMN finished_at; ALTER TABLE seats DROP COLUMN idx;"
            "CREATE INDEX seats_by_bot ON seats(bot); DROP TABLE bot_stats;"
            "DROP INDEX ratings_by_standing; DROP INDEX bots_by_owner;"
            "PRAGMA user_version = 3; COMMIT;"
        )
    finally:
        conn.close()


# ------------------------------------------------------------------ processes


@dataclass
class Procs:
    started: list[subprocess.Popen[str]] = field(default_factory=list)

    def start(
        self, argv: list[str], *, cwd: Path, env: dict[str, str] | None = None, stderr: Any = None
    ) -> subprocess.Popen[str]:
        popen = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=cwd,
            env=env,
        )
        self.started.append(popen)
        return popen

    def stop_all(self) -> None:
        for popen in self.started:
            if popen.poll() is None:
                os.kill(popen.pid, signal.SIGTERM)
        for popen in self.started:
            try:
                popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(popen.pid, signal.SIGKILL)
                popen.wait()


def first_line(popen: subprocess.Popen[str], prefix: str, timeout_s: float) -> str:
    assert popen.stdout is not None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([popen.stdout], [], [], 0.2)
        if ready:
            line = popen.stdout.readline()
            if not line:
                break
            if line.startswith(prefix):
                return line[len(prefix) :].strip()
        elif popen.poll() is not None:
            break
    raise RuntimeError(f"no {prefix!r} line from {popen.args!r} (exit {popen.poll()})")


# ------------------------------------------------------------------ measuring


class Ladder:
    """The served ladder as its database tells (a connection of the bench's own)."""

    def __init__(self, db: Path, league_id: str, bots: list[str]) -> None:
        self.conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
        self.league_id = league_id
        self.bots = bots

    def played(self, at: float, until: float) -> tuple[int, int]:
        """Matches finished from ``at`` to ``until``, and their decisions (random play
        makes matches of very different lengths: decisions vary less)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(sum(decisions), 0) FROM matches WHERE league_id = ? "
            "AND finished_at >= ? AND finished_at < ?",
            (self.league_id, at, until),
        ).fetchone()
        return int(row[0]), int(row[1])

    def faults_between(self, at: float, until: float) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT f.kind, count(*) FROM faults f JOIN matches m ON m.id = f.match_id "
            "WHERE m.league_id = ? AND m.finished_at >= ? AND m.finished_at < ? GROUP BY 1",
            (self.league_id, at, until),
        ).fetchall()
        return {str(kind): int(n) for kind, n in rows}

    def not_active(self) -> list[str]:
        marks = ",".join("?" * len(self.bots))
        rows = self.conn.execute(
            f"SELECT name, status, status_reason FROM bots WHERE name IN ({marks}) "
            "AND status != 'active'",
            self.bots,
        ).fetchall()
        return [f"{n} {s}: {r}" for n, s, r in rows]


def live_bots(
    procs: Procs, address: str, db: Path, league_id: str, names: list[str], tokens: list[str]
) -> Ladder:
    """Start a sample random bot per name, submit each with its owner's token to the
    arena at ``address``, and wait until all are active (SystemExit if one is not)."""
    bot_procs = [
        procs.start([PY, str(ROOT / "sample_bots" / "random_bot.py"), "--port", "0"], cwd=ROOT)
        for _ in names
    ]
    endpoints = [first_line(p, "arena-bot listening on ", 60) for p in bot_procs]
    with grpc.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for name, endpoint, token in zip(names, endpoints, tokens, strict=True):
            stub.SubmitBot(
                arena_pb2.SubmitBotRequest(name=name, endpoint=endpoint),
                timeout=30,
                metadata=(("authorization", f"Bearer {token}"),),
            )
    ladder = Ladder(db, league_id, names)
    deadline = time.monotonic() + 300
    while True:
        waiting = [line for line in ladder.not_active() if "verifying" in line]
        if not waiting and not ladder.not_active():
            return ladder
        failed = [line for line in ladder.not_active() if "suspended" in line]
        if failed or time.monotonic() > deadline:
            raise SystemExit(f"bots not active: {failed or waiting}")
        time.sleep(0.5)


def quiet_window(ladder: Ladder, seconds: float) -> tuple[tuple[int, int], float]:
    """Matches and decisions played while nobody reads, over ``seconds``; the seconds."""
    start = time.time()
    time.sleep(seconds)
    end = time.time()
    played = ladder.played(start, end)
    faults = ladder.faults_between(start, end)
    log(f"quiet: {played[0]} matches ({played[1]} decisions) in {end - start:.1f} s; {faults}")
    return played, end - start


def cpu_times() -> list[int]:
    """This machine's CPU time counters (Linux /proc/stat; empty elsewhere)."""
    try:
        return [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return []


def steal_share(before: list[int], after: list[int]) -> float | None:
    """The share of CPU time the hypervisor gave to others meanwhile (steal)."""
    if len(before) < 8 or len(after) < 8:
        return None
    spent = [b - a for a, b in zip(before, after, strict=True)]
    return round(spent[7] / max(sum(spent[:8]), 1), 3)


def failures_logged(log_path: Path, start: int, names: list[str]) -> list[str]:
    """Lines of the arena's log, from byte ``start``, about one of ``names`` failing or
    being suspended."""
    with log_path.open("rb") as handle:
        handle.seek(start)
        text = handle.read().decode(errors="replace")
    pattern = re.compile(r"bot (\S+) (failed|suspended)")
    return [
        line
        for line in text.splitlines()
        if (found := pattern.search(line)) is not None and found.group(1) in names
    ]


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in METHODS})
    refused: dict[str, int] = field(default_factory=lambda: dict.fromkeys(METHODS, 0))
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for method in METHODS:
            self.latencies[method] += other.latencies[method]
            self.refused[method] += other.refused[method]
        for key, n in other.errors.items():
            self.errors[key] = self.errors.get(key, 0) + n


def poll(address: str, until: float, tally: Tally, lock: threading.Lock) -> None:
    """One anonymous client: the three reads in turn, as fast as the arena answers,
    following each list's next_page_token (and starting over at its end)."""
    channel = grpc.insecure_channel(address)
    stub = arena_pb2_grpc.ArenaStub(channel)
    tokens = dict.fromkeys(METHODS, "")
    mine = Tally()
    try:
        while time.perf_counter() < until:
            for method in METHODS:
                if method == "GetLeaderboard":
                    request: Any = arena_pb2.GetLeaderboardRequest(page_token=tokens[method])
                elif method == "ListMatches":
                    request = arena_pb2.ListMatchesRequest(
                        page_token=tokens[method], include_running=not tokens[method]
                    )
                else:
                    request = arena_pb2.ListBotsRequest(page_token=tokens[method])
                started = time.perf_counter()
                try:
                    reply = getattr(stub, method)(request, timeout=30)
                except grpc.RpcError as error:
                    code = error.code()
                    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        mine.refused[method] += 1
                    else:
                        key = f"{method} {code.name}"
                        mine.errors[key] = mine.errors.get(key, 0) + 1
                        tokens[method] = ""
                    continue
                mine.latencies[method].append((time.perf_counter() - started) * 1000)
                tokens[method] = getattr(reply, "next_page_token", "")
    finally:
        channel.close()
    with lock:
        tally.add(mine)


def run_clients(address: str, clients: int, seconds: float) -> int:
    """The polling clients (``--poll``: a process of their own); their tally as JSON."""
    tally, lock = Tally(), threading.Lock()
    started = time.time()
    until = time.perf_counter() + seconds
    threads = [
        threading.Thread(target=poll, args=(address, until, tally, lock)) for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ended = time.time()
    print(
        json.dumps(
            {
                "latencies": tally.latencies,
                "refused": tally.refused,
                "errors": tally.errors,
                "from": started,
                "to": ended,
            }
        )
    )
    return 0


def p99(values: list[float]) -> float | None:
    if not values:
        return None
    if len(values) < 2:
        return round(values[0], 2)
    return round(statistics.quantiles(values, n=100, method="inclusive")[98], 2)


# ---------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000, help="history (default 100000)")
    parser.add_argument("--history-bots", type=int, default=200, help="bots of the history")
    parser.add_argument("--bots", type=int, default=8, help="live random bots (default 8)")
    parser.add_argument("--clients", type=int, default=8, help="polling clients (default 8)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="polling time in all (default 60)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="polled windows, alternating with as long quiet ones (default 3)",
    )
    parser.add_argument("--warmup-s", type=float, default=10.0, help="ladder warm-up")
    parser.add_argument(
        "--warmup-reads-s",
        type=float,
        default=5.0,
        help="reads before the count, not counted (default 5: the read processes start)",
    )
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--deadline-ms", type=int, default=1000)
    parser.add_argument(
        "--read-rate", type=float, default=None, help="arena serve --read-rate (default its own)"
    )
    parser.add_argument(
        "--read-processes",
        type=int,
        default=None,
        help="arena serve --read-processes (default its own; 0: the reads on threads)",
    )
    parser.add_argument("--db", help="build (or, with --reuse, reuse) this database")
    parser.add_argument("--reuse", action="store_true", help="serve --db as it is")
    parser.add_argument("--arena-root", help="serve with the arena code in this directory")
    parser.add_argument("--old-schema", action="store_true", help="undo migration 4 before serving")
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="niceness of the polling clients' process (default 0: they compete for this "
        "machine's CPU with the arena, which a remote client would not)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work folder (database, log)")
    parser.add_argument("--poll", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.poll:
        return run_clients(args.poll, args.clients, args.seconds)

    config = ServeConfig(db="", port=0, table_size=args.table_size)
    work = Path(tempfile.mkdtemp(prefix="bench-reads-"))
    db = Path(args.db) if args.db else work / "serve.db"
    build_s = 0.0
    if args.reuse:
        # The figures name the history actually served, not the --matches default.
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            args.matches = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    else:
        if db.exists():
            raise SystemExit(f"{db} exists; remove it or give --reuse")
        record = real_record(work)
        log(f"building {args.matches} matches (record {len(record)} bytes each) in {db} ...")
        build_s = build(db, config, args.matches, args.history_bots, record)
        log(f"built in {build_s:.1f} s, {db.stat().st_size / 1e6:.0f} MB")
    run = f"{os.getpid()}"
    owners = [f"author{i}" for i in range(args.bots)]
    names = [f"live-{run}-{i}" for i in range(args.bots)]
    store = open_store(db)  # with --old-schema, migration 4 is undone just below
    try:
        # Bots of an earlier run on a reused database play no more.
        with store.transaction() as conn:
            conn.execute("UPDATE bots SET status = 'retired' WHERE name LIKE 'live-%'")
        tokens = [create_token(store, owner) for owner in owners]
    finally:
        store.close()
    if args.old_schema:
        to_old_schema(db)

    arena_root = Path(args.arena_root).resolve() if args.arena_root else ROOT
    env = dict(os.environ, PYTHONPATH=str(arena_root))
    procs = Procs()
    serve_log = work / "serve.log"
    try:
        argv = [
            PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0",
            "--table-size", str(args.table_size), "--concurrency", str(args.concurrency),
            "--deadline-ms", str(args.deadline_ms),
        ]  # fmt: skip
        if args.read_rate is not None:
            argv += ["--read-rate", str(args.read_rate)]
        if args.read_processes is not None:
            argv += ["--read-processes", str(args.read_processes)]
        with serve_log.open("w") as handle:
            server = procs.start(argv, cwd=arena_root, env=env, stderr=handle)
        address = first_line(server, "arena serving on ", 300)
        log(f"arena serving on {address} (log {serve_log})")
        ladder = live_bots(procs, address, db, config.league_id, names, tokens)
        log(f"{args.bots} bots active; warming up {args.warmup_s:g} s")
        time.sleep(args.warmup_s)

        # Quiet and polled windows alternate (the machine's speed drifts by more than the
        # effect measured): half a quiet window, then polled and quiet ones in turn, the
        # last quiet one half as long: as many quiet seconds as polled ones.
        window = args.seconds / args.rounds
        tally = Tally()
        quiet_n = quiet_d = quiet_s = busy_n = busy_d = busy_s = 0.0
        faults: dict[str, int] = {}
        failures: list[str] = []
        # Reads before the count: the arena starts its read processes on the first reads
        # (and fits the ladder's joint model for the first leaderboard), once.
        subprocess.run(
            [PY, __file__, "--poll", address, "--clients", str(args.clients), "--seconds",
             str(args.warmup_reads_s)],
            check=True, capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        steal_from = cpu_times()
        played, seconds = quiet_window(ladder, window / 2)
        quiet_n, quiet_d, quiet_s = quiet_n + played[0], quiet_d + played[1], quiet_s + seconds
        for round_ in range(args.rounds):
            log_start = serve_log.stat().st_size
            poller = subprocess.run(
                ["nice", "-n", str(args.client_nice), PY, __file__, "--poll", address,
                 "--clients", str(args.clients), "--seconds", str(window)],
                check=True, capture_output=True, text=True, cwd=ROOT,
            )  # fmt: skip
            report = json.loads(poller.stdout)
            busy_from, busy_to = report.pop("from"), report.pop("to")
            tally.add(Tally(**report))
            played = ladder.played(busy_from, busy_to)
            busy_n, busy_d = busy_n + played[0], busy_d + played[1]
            busy_s += busy_to - busy_from
            window_faults = ladder.faults_between(busy_from, busy_to)
            for kind, n in window_faults.items():
                faults[kind] = faults.get(kind, 0) + n
            failures += failures_logged(serve_log, log_start, names)
            log(
                f"polled: {played[0]} matches ({played[1]} decisions) in "
                f"{busy_to - busy_from:.1f} s; faults {window_faults}"
            )
            last = round_ == args.rounds - 1
            played, seconds = quiet_window(ladder, window / 2 if last else window)
            quiet_n, quiet_d, quiet_s = quiet_n + played[0], quiet_d + played[1], quiet_s + seconds
        steal = steal_share(steal_from, cpu_times())
        not_active = ladder.not_active()
        for line in failures + not_active:
            log(f"  {line}")
    finally:
        procs.stop_all()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    answered = {m: len(v) for m, v in tally.latencies.items()}
    result = {
        "matches": args.matches,
        "build_s": round(build_s, 1),
        "read_rate": args.read_rate,
        "read_processes": args.read_processes,
        "clients": args.clients,
        "client_nice": args.client_nice,
        "leaderboard_p99_ms": p99(tally.latencies["GetLeaderboard"]),
        "list_matches_p99_ms": p99(tally.latencies["ListMatches"]),
        "list_bots_p99_ms": p99(tally.latencies["ListBots"]),
        "median_ms": {m: median(tally.latencies[m]) for m in METHODS},
        "answered": answered,
        "refused": tally.refused,
        "errors": tally.errors,
        "bot_timeouts": sum(faults.values()) + len(failures) + len(not_active),
        "faults": faults,
        "matches_per_min": round(busy_n * 60 / busy_s, 1),
        "matches_per_min_quiet": round(quiet_n * 60 / quiet_s, 1),
        "decisions_per_s": round(busy_d / busy_s, 1),
        "decisions_per_s_quiet": round(quiet_d / quiet_s, 1),
        "polled_s": round(busy_s, 1),
        "quiet_s": round(quiet_s, 1),
        "cpu_steal": steal,
    }
    print(
        f"history {args.matches} matches; {args.clients} clients polling for "
        f"{busy_s:.0f} s: answered {answered}, refused {tally.refused}"
    )
    print(json.dumps(result))
    return 0


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


if __name__ == "__main__":
    sys.exit(main())
