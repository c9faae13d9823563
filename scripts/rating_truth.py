#!/usr/bin/env python3
"""How fast and how honestly the league ranks a field of bots of known order.

Each simulated league runs the league's real scheduler (arena.league.schedule) and
rater (arena.league.commit.Standings: TrueSkill) on matches played in process: no gRPC,
the policies are called directly on the engine. The field is greedy taking a uniformly
random legal action with probability eps, eps in {0, .1, .2, .35, .5, .65, .8, 1}, so
the true order is known (lower eps is better). ``--field search`` (ismcts at 200, 100,
50 and 25 iterations, then greedy, at tables of their own), ``--field budgets`` (the
search above greedy bots with random moves) and ``--field tree`` (the search with every
seat in its tree, at 400 down to 25 iterations) were tried as fields of the search bot's
budgets; in none does the assumed order hold (greedy finishes ahead of the search, and
budgets under 200 iterations are not told apart: docs/RATINGS.md), and their matches
cost seconds of CPU each instead of 10 ms. Every match is played fresh, with its deal
seeded by the league and the match index: no pool of pre-played matches, so leagues are
independent and the statistics are those of real leagues.

After every round (each bot one more match) it looks at the leaderboard's order
(conservative skill, as every leaderboard sorts) and reports:
* games per bot to settle: the first round from which Kendall tau against the true
  order stays >= 0.9 to the end ("never" if it is below at the end);
* rank-interval coverage: how often each bot's true rank lies in its 95% rank interval
  (arena.league.intervals), at a set of checkpoints;
* the stop rule (`arena league --until separated:P`): the round it would have stopped
  at, and whether a pair of neighbours it declared separated was in the wrong order;
* the seat effect: mean points and rank by seat, with standard errors.

Last line JSON: games_per_bot_to_settle (the median over leagues), rank_interval_coverage,
stop_rule_wrong_order (share of leagues whose stop left a wrong neighbour pair), ...

    nice -n 10 .venv/bin/python scripts/rating_truth.py --leagues 50 --games-per-bot 400
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.games import get as get_game  # noqa: E402
from arena.games.abluxxen.greedy import GreedyPolicy  # noqa: E402
from arena.games.abluxxen.ismcts import IsmctsPolicy  # noqa: E402
from arena.league.commit import Standings  # noqa: E402
from arena.league.config import SCHEDULES  # noqa: E402
from arena.league.groups import group_seats  # noqa: E402
from arena.league.intervals import calibration, p_better, rank_intervals, unresolved  # noqa: E402
from arena.league.rating import RatingModel, Skill  # noqa: E402
from arena.league.schedule import Scheduler, derived_seed  # noqa: E402
from arena.store.rows import SeatRow  # noqa: E402

Bot = tuple[str, float]
"""("eps", eps), ("ismcts", iterations) or ("tree", iterations): a bot of a field
(``tree``: the search with every seat's decisions in its tree, no model of the others)."""
FIELDS: dict[str, tuple[Bot, ...]] = {
    "eps": tuple(("eps", e) for e in (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0)),
    "budgets": (
        ("ismcts", 200),
        ("ismcts", 100),
        ("ismcts", 50),
        *(("eps", e) for e in (0.0, 0.2, 0.5, 0.8, 1.0)),
    ),
    "search": (*(("ismcts", i) for i in (200, 100, 50, 25)), ("eps", 0.0)),
    "tree": tuple(("tree", i) for i in (400, 200, 100, 50, 25)),
}
"""The fields, in their assumed order, best first. Only ``eps`` holds it. ``budgets``
mixes the search with random movers and ``search`` puts it at tables of its own; in
both its model of the other seats (greedy) is wrong, and greedy finishes ahead of it
(docs/RATINGS.md). ``tree`` is the search with no model of the others (every seat in its
tree) at tables of its own: below 200 iterations its budgets do not keep their order.
All three are kept to show that, not as fields of known order."""
CHECKPOINTS = (5, 10, 15, 20, 30, 40, 60, 80, 120, 160, 240, 320, 400)
TRUESKILL_DEFAULT_TAU = 25 / 300
SETTLED_TAU = 0.9


class EpsGreedy:
    """Greedy, but a uniformly random legal action with probability ``eps``."""

    def __init__(self, eps: float, seed: int) -> None:
        self.eps = eps
        self.rng = random.Random(seed)
        self.greedy = GreedyPolicy(seed)

    def choose(self, obs: Any) -> Any:
        if self.eps and self.rng.random() < self.eps:
            return self.rng.choice(obs.legal)
        return self.greedy.choose(obs)


class Searcher:
    """The ismcts policy at a budget of iterations (no time limit: a seed replays);
    ``model_opponents`` as the policy's (False: every seat in the tree)."""

    def __init__(self, iterations: int, seed: int, *, model_opponents: bool = True) -> None:
        self.policy = IsmctsPolicy(seed, iterations=iterations, model_opponents=model_opponents)

    def choose(self, obs: Any) -> Any:
        return self.policy.choose(obs)


def bot_name(bot: Bot) -> str:
    kind, value = bot
    return f"{kind}{value:g}" if kind in ("ismcts", "tree") else f"eps{value:.2f}"


def make_bot(bot: Bot, seed: int) -> EpsGreedy | Searcher:
    kind, value = bot
    if kind in ("ismcts", "tree"):
        return Searcher(int(value), seed, model_opponents=kind == "ismcts")
    return EpsGreedy(value, seed)


@dataclass
class Settings:
    schedule: str
    tau: float
    duplicate: bool
    rate_groups: bool
    games_per_bot: int
    threshold: float
    sharpen: float
    field: tuple[Bot, ...]
    table_size: int
    seed: int


@dataclass
class LeagueResult:
    settle: float  # games per bot; inf = never
    stop_at: float  # inf = the rule never stopped
    stop_wrong: bool
    covered: dict[int, list[int]] = field(default_factory=dict)  # checkpoint -> [hits, n]
    p_bins: list[list[float]] = field(default_factory=list)  # [p, right] per neighbour pair
    seat_points: list[list[float]] = field(default_factory=list)
    seat_ranks: list[list[float]] = field(default_factory=list)
    final_tau: float = 0.0
    final_order: list[str] = field(default_factory=list)  # the leaderboard at the end
    places: dict[str, list[int]] = field(default_factory=dict)  # bot -> its rank per match


def kendall_tau(order: list[int]) -> float:
    """Kendall tau of an order of true ranks against 0..n-1."""
    n = len(order)
    concordant = sum(1 if order[i] < order[j] else -1 for i in range(n) for j in range(i + 1, n))
    return concordant / (n * (n - 1) / 2)


def play(game: Any, config: Any, seats: list[EpsGreedy | Searcher], table: Any) -> Any:
    if table.deal_group is not None:
        state = game.new_match_from_deal(config, game.deal(config, random.Random(table.seed)))
    else:
        state = game.new_match(config, random.Random(table.seed))
    while (seat := game.deciding(state)) is not None:
        game.apply(state, seats[seat].choose(game.observe(state, seat)), seat)
    return game.result(state)


def run_league(args: tuple[Settings, int]) -> LeagueResult:
    s, league = args
    seed = derived_seed(s.seed, "league", league)
    game = get_game("abluxxen")
    config = game.make_config(s.table_size, "")
    names = [bot_name(b) for b in s.field]
    truth = {name: i for i, name in enumerate(names)}
    bots = {
        n: make_bot(b, derived_seed(seed, "bot", n)) for n, b in zip(names, s.field, strict=True)
    }
    model = RatingModel(
        tau=s.tau,
        draw_probability=game.rating_defaults("", s.table_size).draw_probability,
    )
    standings = Standings(model, "sim", dict.fromkeys(names, Skill()), dict.fromkeys(names, 0))
    scheduler = Scheduler(names, s.table_size, seed, kind=s.schedule, duplicate=s.duplicate)
    k, n = s.table_size, len(names)
    result = LeagueResult(math.inf, math.inf, False)
    result.seat_points = [[] for _ in range(k)]
    result.seat_ranks = [[] for _ in range(k)]
    taus: list[float] = []
    sharpen = s.sharpen or calibration(s.schedule)
    group: list[list[SeatRow]] = []
    matches = s.games_per_bot * n // k
    for index in range(matches):
        table = scheduler.next_table(standings.skills)
        outcome = play(game, config, [bots[b] for b in table.seats], table)
        rows = [
            SeatRow(
                seat,
                bot,
                outcome.scores[seat],
                outcome.ranks[seat],
                outcome.ranks[seat],
                False,
                0,
                0.0,
                0,
                0,
                0,
            )
            for seat, bot in enumerate(table.seats)
        ]
        if s.rate_groups:
            group.append(rows)
            if len(group) == scheduler.tables_per_group:
                standings.apply(standings.rated(group_seats(group)))
                group = []
        else:
            standings.apply(standings.rated(rows))
        for seat, bot in enumerate(table.seats):
            result.seat_points[seat].append(outcome.scores[seat])
            result.seat_ranks[seat].append(outcome.ranks[seat])
            result.places.setdefault(bot, []).append(outcome.ranks[seat])
        done = index + 1
        if (done * k) % n:
            continue
        games = done * k // n
        order = sorted(names, key=lambda b: (-standings.skills[b].conservative, b))
        skills = [standings.skills[b] for b in order]
        taus.append(kendall_tau([truth[b] for b in order]))
        if result.stop_at == math.inf and not unresolved(skills, s.threshold, sharpen):
            result.stop_at = games
            result.stop_wrong = any(truth[a] > truth[b] for a, b in itertools.pairwise(order))
        if games in CHECKPOINTS:
            hits = sum(
                iv.rank_low <= truth[b] + 1 <= iv.rank_high
                for b, iv in zip(
                    order, rank_intervals(tuple(order), tuple(skills), sharpen=sharpen), strict=True
                )
            )
            result.covered[games] = [hits, n]
            for a, b in itertools.pairwise(order):
                p = p_better(standings.skills[a], standings.skills[b], sharpen)
                result.p_bins.append([p, float(truth[a] < truth[b])])
    settled_from = len(taus)
    while settled_from > 0 and taus[settled_from - 1] >= SETTLED_TAU:
        settled_from -= 1
    result.settle = settled_from + 1 if settled_from < len(taus) else math.inf
    result.final_tau = taus[-1]
    result.final_order = sorted(names, key=lambda b: (-standings.skills[b].conservative, b))
    return result


def mean_se(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else 0.0, 0.0)
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def report(settings: Settings, results: list[LeagueResult], wall: float) -> dict[str, Any]:
    settles = sorted(r.settle for r in results)
    median = statistics.median(settles)
    never = sum(math.isinf(x) for x in settles)
    print(
        f"field {' > '.join(bot_name(b) for b in settings.field)}\n"
        f"schedule {settings.schedule} tau {settings.tau:.4f} duplicate {settings.duplicate} "
        f"rate groups {settings.rate_groups}: "
        f"{len(results)} leagues x {settings.games_per_bot} games per bot in {wall:.0f} s"
    )
    print(
        f"games per bot to settle (tau >= {SETTLED_TAU} for good): median {median}, "
        f"quartiles {settles[len(settles) // 4]}..{settles[3 * len(settles) // 4]}, "
        f"never {never}/{len(results)}"
    )
    hits = total = 0
    for point in CHECKPOINTS:
        h = sum(r.covered.get(point, [0, 0])[0] for r in results)
        t = sum(r.covered.get(point, [0, 0])[1] for r in results)
        if t:
            print(f"  coverage at {point:>3} games per bot: {h / t:.3f} ({t} bot ranks)")
        hits, total = hits + h, total + t
    coverage = hits / total if total else float("nan")
    print(f"95% rank-interval coverage over all checkpoints: {coverage:.3f}")
    pairs = [p for r in results for p in r.p_bins]
    for low, high in ((0.5, 0.8), (0.8, 0.95), (0.95, 0.99), (0.99, 1.01)):
        inside = [right for p, right in pairs if low <= p < high]
        if inside:
            print(
                f"  p_above_next in [{low:.2f}, {min(high, 1):.2f}): "
                f"right {statistics.fmean(inside):.3f} of {len(inside)}"
            )
    # Where each bot ends on the leaderboard, on average: a bot whose mean place is far
    # from its true one says the field's assumed order is wrong, not the rating.
    places = {
        bot_name(b): statistics.fmean(r.final_order.index(bot_name(b)) + 1 for r in results)
        for b in settings.field
    }
    print(
        "mean final place (true place = position in the field): "
        + ", ".join(f"{name} {place:.2f}" for name, place in places.items())
    )
    # The field's order measured directly, without the rater: each bot's mean rank at its
    # tables. A field is of known order only if these come out in its order.
    at_tables = {
        bot_name(b): mean_se([x for r in results for x in r.places.get(bot_name(b), [])])
        for b in settings.field
    }
    print(
        "mean rank at its tables (1 = first): "
        + ", ".join(f"{name} {m:.3f} ± {se:.3f}" for name, (m, se) in at_tables.items())
    )
    stops = [r for r in results if not math.isinf(r.stop_at)]
    wrong = sum(r.stop_wrong for r in stops) / len(results)
    stop_median = statistics.median([r.stop_at for r in results])
    print(
        f"stop rule separated:{settings.threshold}: stopped in {len(stops)}/{len(results)} "
        f"leagues, median at {stop_median} games per bot; wrong neighbour order at the stop "
        f"in {sum(r.stop_wrong for r in stops)}"
    )
    seats = []
    for seat in range(settings.table_size):
        points = [p for r in results for p in r.seat_points[seat]]
        ranks = [p for r in results for p in r.seat_ranks[seat]]
        (pm, ps), (rm, rs) = mean_se(points), mean_se(ranks)
        seats.append(
            {
                "seat": seat,
                "points": round(pm, 3),
                "points_se": round(ps, 3),
                "rank": round(rm, 3),
                "rank_se": round(rs, 3),
            }
        )
        print(f"  seat {seat}: points {pm:6.2f} ± {ps:.2f}, rank {rm:.3f} ± {rs:.3f}")
    return {
        "games_per_bot_to_settle": median,
        "rank_interval_coverage": round(coverage, 4),
        "stop_rule_wrong_order": round(wrong, 4),
        "stop_rule_median_games_per_bot": stop_median,
        "never_settled": never,
        "field": [bot_name(b) for b in settings.field],
        "schedule": settings.schedule,
        "sharpen": settings.sharpen or calibration(settings.schedule),
        "tau": settings.tau,
        "duplicate": settings.duplicate,
        "rate_groups": settings.rate_groups,
        "leagues": len(results),
        "games_per_bot": settings.games_per_bot,
        "seats": seats,
        "mean_final_place": {name: round(place, 2) for name, place in places.items()},
        "mean_rank_at_tables": {
            name: [round(m, 3), round(se, 3)] for name, (m, se) in at_tables.items()
        },
        "wall_s": round(wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leagues", type=int, default=50)
    parser.add_argument("--games-per-bot", type=int, default=400)
    parser.add_argument("--schedule", default="informative", choices=SCHEDULES)
    parser.add_argument(
        "--tau", type=float, default=0.0, help="TrueSkill dynamics (0: the league default)"
    )
    parser.add_argument(
        "--trueskill-defaults",
        action="store_true",
        help="TrueSkill's own defaults: tau 25/300 and random tables",
    )
    parser.add_argument("--duplicate", action="store_true")
    parser.add_argument(
        "--rate-groups", action="store_true", help="with --duplicate: rate each deal group as one"
    )
    parser.add_argument("--until", type=float, default=0.95, help="the stop rule's P")
    parser.add_argument(
        "--sharpen",
        type=float,
        default=0.0,
        help="calibration factor to try instead of the schedule's (intervals.CALIBRATION)",
    )
    parser.add_argument(
        "--field",
        default="eps",
        choices=sorted(FIELDS),
        help="eps: greedy with random moves at 8 rates; budgets: ismcts at 200, 100 and 50 "
        "iterations above greedy and four eps bots; search: ismcts at 200, 100, 50 and 25 "
        "iterations above greedy; tree: the search with every seat in its tree at 400, 200, "
        "100, 50 and 25 iterations",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", help="write each league's (p_above_next, right) pairs here")
    args = parser.parse_args()
    settings = Settings(
        schedule="random" if args.trueskill_defaults else args.schedule,
        tau=TRUESKILL_DEFAULT_TAU if args.trueskill_defaults else args.tau,
        duplicate=args.duplicate or args.rate_groups,
        rate_groups=args.rate_groups,
        games_per_bot=args.games_per_bot,
        threshold=args.until,
        sharpen=args.sharpen,
        field=FIELDS[args.field],
        table_size=4,
        seed=args.seed,
    )
    started = time.monotonic()
    jobs = [(settings, i) for i in range(args.leagues)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(run_league, jobs, chunksize=1)
    else:
        results = [run_league(job) for job in jobs]
    summary = report(settings, results, time.monotonic() - started)
    if args.dump:
        Path(args.dump).write_text(json.dumps([r.p_bins for r in results]))
    # JSON has no infinity or NaN: "never" and "no checkpoint reached" are null.
    print(json.dumps({k: None if _not_finite(v) else v for k, v in summary.items()}))


def _not_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


if __name__ == "__main__":
    main()
