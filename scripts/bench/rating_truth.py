#!/usr/bin/env python3
"""How fast and how honestly the league ranks a field of bots of known order.

Each simulated league runs the league's real scheduler (arena.league.schedule) and
rater (arena.league.commit.Standings: TrueSkill) on matches played in process: no gRPC,
the policies are called directly on the engine. The field is greedy taking a uniformly
random legal action with probability eps, eps in {0, .1, .2, .35, .5, .65, .8, 1}, so
the true order is known (lower eps is better); ``--field close`` puts them 5 points
apart, ``--field drawn`` draws them for each league, and ``--field pl-drawn`` and
``pl-even`` play no game at all, drawing each table's places from the joint model
itself (Plackett-Luce), so that the model is exact. ``--field search`` (ismcts at 200, 100,
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

    nice -n 10 .venv/bin/python scripts/bench/rating_truth.py --leagues 50 --games-per-bot 400
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.games import get as get_game  # noqa: E402
from arena.games.abluxxen.greedy import GreedyPolicy  # noqa: E402
from arena.league.commit import Standings  # noqa: E402
from arena.league.config import SCHEDULES  # noqa: E402
from arena.league.groups import group_seats  # noqa: E402
from arena.league.joint import Outcomes, fit, ranked  # noqa: E402
from arena.league.rating import RatingModel, Skill  # noqa: E402
from arena.league.schedule import Scheduler, derived_seed  # noqa: E402
from arena.policies.ismcts import IsmctsPolicy  # noqa: E402
from arena.store.rows import SeatRow  # noqa: E402

Bot = tuple[str, float]
"""("eps", eps), ("ismcts", iterations), ("tree", iterations) or ("pl", theta): a bot of a
field (``tree``: the search with every seat's decisions in its tree, no model of the
others; ``pl``: no game at all, its places drawn from the Plackett-Luce model itself with
log-strength theta, so the joint model is exactly right)."""
FIELDS: dict[str, tuple[Bot, ...]] = {
    "eps": tuple(("eps", e) for e in (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0)),
    "close": tuple(("eps", e) for e in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)),
    "budgets": (
        ("ismcts", 200),
        ("ismcts", 100),
        ("ismcts", 50),
        *(("eps", e) for e in (0.0, 0.2, 0.5, 0.8, 1.0)),
    ),
    "search": (*(("ismcts", i) for i in (200, 100, 50, 25)), ("eps", 0.0)),
    "tree": tuple(("tree", i) for i in (400, 200, 100, 50, 25)),
}
"""The fields, in their assumed order, best first. ``eps`` (clear: neighbours far apart
at the top) and ``close`` (neighbours 5 points of random moves apart, about 3 points
of mean rank per match... measured by ``mean rank at its tables``) hold it. ``budgets``
mixes the search with random movers and ``search`` puts it at tables of its own; in
both its model of the other seats (greedy) is wrong, and greedy finishes ahead of it
(docs/RATINGS.md). ``tree`` is the search with no model of the others (every seat in its
tree) at tables of its own: below 200 iterations its budgets do not keep their order.
All three are kept to show that, not as fields of known order."""
DRAWN = ("drawn", "pl-drawn", "pl-uniform", "pl-concave")
"""Fields drawn afresh for each league from its seed, best first: ``drawn``, eight eps
bots with eps uniform in [0, 1]; ``pl-drawn``, eight Plackett-Luce bots with theta from
N(0, PL_SPREAD^2); ``pl-uniform``, eight with theta uniform in [-PL_HALF_WIDTH,
PL_HALF_WIDTH], the shape of the game's ``drawn`` field (eps-greedy's log-strength falls
about linearly with eps, from +1.8 at 0 to -2.1 at 1, so uniform eps gives uniform
strengths), with the model exact but its normal prior not; ``pl-concave``, eight with
theta = -(CONCAVE_SLOPE eps + CONCAVE_BEND eps^2), eps uniform in [0, 1]: the curve the
joint model fits to eps-greedy bots (steeper among the weak than among the strong), so
the game's field with places that follow the model. A posterior probability is
a claim about bots like the ones the model has seen, not about one fixed field: on
fields drawn at random its bins should hold
(docs/RATINGS.md, "What a probability means here")."""
PL_SPREAD = 0.5
PL_HALF_WIDTH = 2.0
CONCAVE_SLOPE = 2.7
CONCAVE_BEND = 0.9
"""``pl-concave``'s curve: log-strength falls 2.7 per unit of eps near eps 0 and 4.5 near
1, as the joint model's fits to the ``drawn`` field's leagues at 400 games per bot do
(2.6 and 4.4; docs/RATINGS.md)."""
FIELDS["pl-even"] = tuple(("pl", 0.35 - 0.1 * i) for i in range(8))
"""Plackett-Luce bots 0.1 apart in log-strength (the one ahead finishes ahead 52.5% of
the time at a table of two): a close field of fixed order where the model is exact."""
for _name in DRAWN:
    FIELDS[_name] = tuple(("drawn", float(i)) for i in range(8))
CHECKPOINTS = (5, 10, 20, 40, 100, 400)
TAU_AT = (40, 100, 400)
STOP_LEVELS = (0.95, 0.99)
TRUESKILL_DEFAULT_TAU = 25 / 300
SETTLED_TAU = 0.9
BOOTSTRAP = 2000


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
        self.policy = IsmctsPolicy(
            get_game("abluxxen"), seed, iterations=iterations, model_opponents=model_opponents
        )

    def choose(self, obs: Any) -> Any:
        return self.policy.choose(obs)


class PlackettLuce:
    """No policy: a bot whose places are drawn from the Plackett-Luce model (``play``)."""

    def __init__(self, theta: float) -> None:
        self.theta = theta


def bot_name(bot: Bot) -> str:
    kind, value = bot
    if kind == "drawn":
        return f"drawn{int(value) + 1}"
    if kind == "pl":
        return f"pl{value:+.2f}"
    return f"{kind}{value:g}" if kind in ("ismcts", "tree") else f"eps{value:.2f}"


def bot_strength(bot: Bot) -> float | None:
    """Where a bot of known strength stands, higher stronger: -eps for eps-greedy, theta
    for Plackett-Luce bots; None for the search bots, whose order is not known."""
    kind, value = bot
    if kind == "eps":
        return -value
    if kind == "pl":
        return value
    return None


def make_bot(bot: Bot, seed: int) -> EpsGreedy | Searcher | PlackettLuce:
    kind, value = bot
    if kind in ("ismcts", "tree"):
        return Searcher(int(value), seed, model_opponents=kind == "ismcts")
    if kind == "pl":
        return PlackettLuce(value)
    return EpsGreedy(value, seed)


def league_field(name: str, seed: int) -> tuple[Bot, ...]:
    """The field a league plays: a fixed one, or one drawn from the league's seed (best
    first; ties are drawn again, so the order is strict)."""
    rng = random.Random(derived_seed(seed, "field"))
    while name in DRAWN:
        if name == "drawn":
            bots = tuple(("eps", e) for e in sorted(round(rng.random(), 3) for _ in range(8)))
        elif name == "pl-concave":
            eps = sorted(round(rng.random(), 3) for _ in range(8))
            bots = tuple(("pl", -(CONCAVE_SLOPE * e + CONCAVE_BEND * e * e)) for e in eps)
        else:
            thetas = [
                rng.gauss(0, PL_SPREAD)
                if name == "pl-drawn"
                else rng.uniform(-PL_HALF_WIDTH, PL_HALF_WIDTH)
                for _ in range(8)
            ]
            bots = tuple(("pl", t) for t in sorted(thetas, reverse=True))
        if len(set(bots)) == len(bots):
            return bots
    return FIELDS[name]


@dataclass
class Settings:
    schedule: str
    tau: float
    duplicate: bool
    rate_groups: bool
    games_per_bot: int
    field: tuple[Bot, ...]
    field_name: str
    table_size: int
    seed: int
    sandwich: bool = False


@dataclass
class LeagueResult:
    settle: float  # games per bot; inf = never
    stops: dict[float, list[float]] = field(default_factory=dict)  # P -> [games, wrong]
    covered: dict[int, list[int]] = field(default_factory=dict)  # checkpoint -> [hits, n]
    held: dict[int, float] = field(default_factory=dict)  # checkpoint -> intervals' mass
    # checkpoint -> [p, right] and, where the field's strengths are known, the pair's
    # (the mean of its two bots' ``bot_strength``)
    p_bins: dict[int, list[list[float]]] = field(default_factory=dict)
    taus: dict[int, float] = field(default_factory=dict)  # games per bot -> Kendall tau
    joint_taus: dict[int, float] = field(default_factory=dict)  # ... of the joint order
    seat_points: list[list[float]] = field(default_factory=list)
    seat_ranks: list[list[float]] = field(default_factory=list)
    final_tau: float = 0.0
    final_order: list[str] = field(default_factory=list)  # the leaderboard at the end
    places: dict[str, list[int]] = field(default_factory=dict)  # bot -> its rank per match
    least_met: int = 0  # the fewest meetings of any pair at the end


def kendall_tau(order: list[int]) -> float:
    """Kendall tau of an order of true ranks against 0..n-1."""
    n = len(order)
    concordant = sum(1 if order[i] < order[j] else -1 for i in range(n) for j in range(i + 1, n))
    return concordant / (n * (n - 1) / 2)


@dataclass(frozen=True)
class Places:
    """A Plackett-Luce table's result, shaped as a game's (scores: places from the end)."""

    ranks: list[int]
    scores: list[int]


def play(
    game: Any, config: Any, seats: list[EpsGreedy | Searcher | PlackettLuce], table: Any
) -> Any:
    thetas = [bot.theta for bot in seats if isinstance(bot, PlackettLuce)]
    if thetas:
        return plackett_luce_places(thetas, random.Random(table.seed))
    if table.deal_group is not None:
        state = game.new_match_from_deal(config, game.deal(config, random.Random(table.seed)))
    else:
        state = game.new_match(config, random.Random(table.seed))
    while (seat := game.deciding(state)) is not None:
        game.apply(state, seats[seat].choose(game.observe(state, seat)), seat)
    return game.result(state)


def plackett_luce_places(thetas: list[float], rng: random.Random) -> Places:
    """Each place in turn to one of the seats still unplaced, with probability
    proportional to exp(theta): the joint model's own assumption."""
    left = list(range(len(thetas)))
    ranks = [0] * len(thetas)
    for place in range(1, len(thetas) + 1):
        weights = [math.exp(thetas[seat]) for seat in left]
        seat = rng.choices(left, weights)[0]
        ranks[seat] = place
        left.remove(seat)
    return Places(ranks, [len(thetas) - rank for rank in ranks])


def run_league(args: tuple[Settings, int]) -> LeagueResult:
    s, league = args
    seed = derived_seed(s.seed, "league", league)
    game = get_game("abluxxen")
    config = game.make_config(s.table_size, "")
    names = [bot_name(b) for b in s.field]
    truth = {name: i for i, name in enumerate(names)}
    played = dict(zip(names, league_field(s.field_name, seed), strict=True))
    bots = {n: make_bot(b, derived_seed(seed, "bot", n)) for n, b in played.items()}
    strength = {n: bot_strength(b) for n, b in played.items()}
    model = RatingModel(
        tau=s.tau,
        draw_probability=game.rating_defaults("", s.table_size).draw_probability,
    )
    standings = Standings(model, "sim", dict.fromkeys(names, Skill()), dict.fromkeys(names, 0))
    outcomes = Outcomes()
    joint = fit(outcomes, names)
    scheduler = Scheduler(names, s.table_size, seed, kind=s.schedule, duplicate=s.duplicate)
    k, n = s.table_size, len(names)
    result = LeagueResult(math.inf)
    result.seat_points = [[] for _ in range(k)]
    result.seat_ranks = [[] for _ in range(k)]
    taus: list[float] = []
    group: list[list[SeatRow]] = []
    matches = s.games_per_bot * n // k
    for index in range(matches):
        table = scheduler.next_table(standings.skills, joint)
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
        rated: list[SeatRow] = []
        if s.rate_groups:
            group.append(rows)
            if len(group) == scheduler.tables_per_group:
                rated, group = group_seats(group), []
        else:
            rated = rows
        if rated:
            standings.apply(standings.rated(rated))
            outcomes.add({row.bot: row.rank for row in rated})
            joint = fit(outcomes, names, sandwich=s.sandwich)
        for seat, bot in enumerate(table.seats):
            result.seat_points[seat].append(outcome.scores[seat])
            result.seat_ranks[seat].append(outcome.ranks[seat])
            result.places.setdefault(bot, []).append(outcome.ranks[seat])
        done = index + 1
        if (done * k) % n:
            continue
        games = done * k // n
        # The board as every leaderboard shows it: TrueSkill's mu - 3 sigma, with the
        # joint model's figures for that order.
        order = sorted(names, key=lambda b: (-standings.skills[b].conservative, b))
        taus.append(kendall_tau([truth[b] for b in order]))
        if games in TAU_AT:
            result.taus[games] = taus[-1]
            result.joint_taus[games] = kendall_tau([truth[b] for b in joint.order(names)])
        board = ranked(joint, order)
        for level in STOP_LEVELS:
            if level not in result.stops and board.p_order >= level:
                wrong = any(truth[a] > truth[b] for a, b in itertools.pairwise(order))
                result.stops[level] = [games, float(wrong)]
        if games in CHECKPOINTS:
            hits = sum(
                low <= truth[b] + 1 <= high
                for b, low, high in zip(order, board.rank_low, board.rank_high, strict=True)
            )
            result.covered[games] = [hits, n]
            result.held[games] = sum(board.held)
            # Each neighbour pair as the model sees it: the order it believes (p >= 0.5),
            # whether that is the board's or not, and whether that order is true.
            result.p_bins[games] = []
            for a, b in itertools.pairwise(order):
                p = joint.p_better(a, b)
                upper, lower = (a, b) if p >= 0.5 else (b, a)
                row = [max(p, 1 - p), float(truth[upper] < truth[lower])]
                if (mine := strength[a]) is not None and (theirs := strength[b]) is not None:
                    row.append((mine + theirs) / 2)
                result.p_bins[games].append(row)
    settled_from = len(taus)
    while settled_from > 0 and taus[settled_from - 1] >= SETTLED_TAU:
        settled_from -= 1
    result.settle = settled_from + 1 if settled_from < len(taus) else math.inf
    result.final_tau = taus[-1]
    result.final_order = sorted(names, key=lambda b: (-standings.skills[b].conservative, b))
    result.least_met = min(
        scheduler.meetings.get((a, b) if a < b else (b, a), 0)
        for a, b in itertools.combinations(names, 2)
    )
    return result


def calibration_by_bin(results: list[LeagueResult]) -> list[list[float]]:
    """Each p bin over every checkpoint: [low, mean p, share right, pairs, and that
    share's 95% interval]. The interval resamples whole leagues (a bootstrap, seeded):
    a league's pairs are not independent (the same pair is counted at every checkpoint,
    and one league's field sets all its gaps), so an interval that took the pairs as
    independent would be too narrow, most on drawn fields."""
    rng = random.Random(0)
    rows: list[list[float]] = []
    for low, high in P_BINS:
        per_league = [
            [(p, right) for bins in r.p_bins.values() for p, right, *_ in bins if low <= p < high]
            for r in results
        ]
        inside = [pair for pairs in per_league for pair in pairs]
        if not inside:
            continue
        sums = [(len(pairs), sum(right for _, right in pairs)) for pairs in per_league]
        shares = []
        for _ in range(BOOTSTRAP):
            drawn = rng.choices(sums, k=len(sums))
            pairs = sum(n for n, _ in drawn)
            if pairs:
                shares.append(sum(right for _, right in drawn) / pairs)
        shares.sort()
        rows.append(
            [
                low,
                round(statistics.fmean(p for p, _ in inside), 4),
                round(statistics.fmean(right for _, right in inside), 4),
                len(inside),
                round(shares[int(0.025 * len(shares))], 4),
                round(shares[min(len(shares) - 1, int(0.975 * len(shares)))], 4),
            ]
        )
    return rows


def by_strength(results: list[LeagueResult]) -> list[tuple[str, list[LeagueResult]]]:
    """The leagues' neighbour pairs in four groups of equal size by the pair's strength
    (the mean of its two bots', ``bot_strength``), strongest first: where in a field a
    bin's claims hold or miss. Each group keeps its leagues apart, for the bootstrap."""
    values = sorted(
        row[2] for r in results for rows in r.p_bins.values() for row in rows if len(row) > 2
    )
    if not values:
        return []
    cuts = [values[len(values) * k // 4] for k in (1, 2, 3)]

    def quarter(value: float) -> int:
        return 3 - sum(value >= cut for cut in cuts)  # 0: the strongest

    groups = []
    for q in range(4):
        kept = [
            LeagueResult(
                math.inf,
                p_bins={
                    point: [row for row in rows if len(row) > 2 and quarter(row[2]) == q]
                    for point, rows in r.p_bins.items()
                },
            )
            for r in results
        ]
        groups.append((f"pairs' strength, quarter {q + 1} of 4 (strongest first)", kept))
    return groups


def bin_text(row: list[float]) -> str:
    """A row of ``calibration_by_bin`` as printed: bin, mean p -> share right (pairs;
    interval)."""
    low, mean_p, right, pairs, lower, upper = row
    return f"[{low:.2f}) {mean_p:.3f}->{right:.3f} ({pairs:g}; {lower:.3f}-{upper:.3f})"


def mean_se(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else 0.0, 0.0)
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


P_BINS = ((0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01))


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
    taus = {
        point: round(statistics.fmean(r.taus[point] for r in results), 3)
        for point in TAU_AT
        if all(point in r.taus for r in results)
    }
    joint_taus = {
        point: round(statistics.fmean(r.joint_taus[point] for r in results), 3)
        for point in TAU_AT
        if all(point in r.joint_taus for r in results)
    }
    print(
        "mean Kendall tau of the board (TrueSkill's order): "
        + ", ".join(f"{g} games {t}" for g, t in taus.items())
        + "; of the joint model's order: "
        + ", ".join(f"{g} games {t}" for g, t in joint_taus.items())
    )
    coverage: dict[int, float] = {}
    held: dict[int, float] = {}
    calibration: dict[int, list[list[float]]] = {}
    print(
        "games/bot  coverage (the intervals' own probability) | "
        "p_above_next bins: mean p -> right (pairs)"
    )
    for point in CHECKPOINTS:
        h = sum(r.covered.get(point, [0, 0])[0] for r in results)
        t = sum(r.covered.get(point, [0, 0])[1] for r in results)
        if not t:
            continue
        coverage[point] = round(h / t, 4)
        held[point] = round(sum(r.held.get(point, 0.0) for r in results) / t, 4)
        pairs = [p for r in results for p in r.p_bins.get(point, [])]
        cells = []
        calibration[point] = []
        for low, high in P_BINS:
            inside = [(p, right) for p, right, *_ in pairs if low <= p < high]
            if inside:
                mean_p = statistics.fmean(p for p, _ in inside)
                right = statistics.fmean(r for _, r in inside)
                cells.append(
                    f"[{low:.2f},{min(high, 1):.2f}) {mean_p:.3f}->{right:.3f} ({len(inside)})"
                )
                calibration[point].append([low, round(mean_p, 4), round(right, 4), len(inside)])
        print(f"  {point:>4}   {h / t:.3f} ({held[point]:.3f}) | " + "  ".join(cells))
    overall = calibration_by_bin(results)
    print(
        "all checkpoints (the share right's 95% interval, leagues resampled): "
        + "  ".join(bin_text(row) for row in overall)
    )
    places = {
        bot_name(b): statistics.fmean(r.final_order.index(bot_name(b)) + 1 for r in results)
        for b in settings.field
    }
    print(
        "mean final place (true place = position in the field): "
        + ", ".join(f"{name} {place:.2f}" for name, place in places.items())
    )
    at_tables = {
        bot_name(b): mean_se([x for r in results for x in r.places.get(bot_name(b), [])])
        for b in settings.field
    }
    print(
        "mean rank at its tables (1 = first): "
        + ", ".join(f"{name} {m:.3f} ± {se:.3f}" for name, (m, se) in at_tables.items())
    )
    stops: dict[str, Any] = {}
    for level in STOP_LEVELS:
        fired = [r.stops[level] for r in results if level in r.stops]
        wrong = sum(w for _, w in fired)
        at = statistics.median([g for g, _ in fired]) if fired else None
        print(
            f"stop rule separated:{level}: stopped in {len(fired)}/{len(results)} leagues, "
            f"median at {at} games per bot; wrong order at the stop in {wrong:g} "
            f"({wrong / len(results):.3f} of leagues)"
        )
        stops[str(level)] = {
            "stopped": len(fired),
            "median_games_per_bot": at,
            "wrong": int(wrong),
            "wrong_share": round(wrong / len(results), 4),
        }
    least = min(r.least_met for r in results)
    print(f"fewest meetings of any pair at the end: {least}")
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
    print(
        "seats: "
        + ", ".join(f"{x['seat']}: points {x['points']:.2f}, rank {x['rank']:.3f}" for x in seats)
    )
    return {
        "games_per_bot_to_settle": median,
        "settled_by_league": [None if math.isinf(x) else x for x in settles],
        "kendall_tau": taus,
        "kendall_tau_joint_order": joint_taus,
        "rank_interval_coverage": coverage,
        "rank_interval_probability": held,
        "p_above_next_calibration": overall,
        "stop_rule": stops,
        "least_pair_meetings": least,
        "never_settled": never,
        "field": [bot_name(b) for b in settings.field],
        "schedule": settings.schedule,
        "tau": settings.tau,
        "covariance": "sandwich" if settings.sandwich else "model",
        "duplicate": settings.duplicate,
        "rate_groups": settings.rate_groups,
        "leagues": len(results),
        "games_per_bot": settings.games_per_bot,
        "seats": seats,
        "mean_final_place": {name: round(place, 2) for name, place in places.items()},
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
    parser.add_argument(
        "--field",
        default="eps",
        choices=sorted(FIELDS),
        help="eps: greedy with random moves at 8 rates; budgets: ismcts at 200, 100 and 50 "
        "iterations above greedy and four eps bots; search: ismcts at 200, 100, 50 and 25 "
        "iterations above greedy; tree: the search with every seat in its tree at 400, 200, "
        "100, 50 and 25 iterations; close: eps .30 to .65, 5 points apart; drawn: eps "
        "drawn for each league; pl-even, pl-drawn: no game, places drawn from the joint "
        "model itself (bots 0.1 apart, or drawn for each league: normal, or pl-uniform: "
        "uniform, or pl-concave: on the curve the model fits to the game's drawn field)",
    )
    parser.add_argument(
        "--covariance",
        choices=("model", "sandwich"),
        default="model",
        help="the joint model's covariance: its own (what leaderboards show) or the robust "
        "sandwich rule",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", help="write each league's (p_above_next, right) pairs here")
    parser.add_argument(
        "--pool",
        nargs="+",
        metavar="DUMP",
        help="play nothing: pool the p bins of earlier runs' --dump files (leagues "
        "resampled for each bin's interval, as a run's own)",
    )
    parser.add_argument(
        "--by-strength",
        action="store_true",
        help="with --pool: the p bins also by the pairs' strength, in four quarters of the "
        "field (dumps from before the pairs' strength was kept have none)",
    )
    args = parser.parse_args()
    if args.pool:
        pooled = [
            LeagueResult(math.inf, p_bins={int(k): v for k, v in league.items()})
            for dump in args.pool
            for league in json.loads(Path(dump).read_text())
        ]
        rows = calibration_by_bin(pooled)
        for row in rows:
            print(bin_text(row))
        quarters = {}
        if args.by_strength:
            for title, group in by_strength(pooled):
                quarters[title] = calibration_by_bin(group)
                print(title + ": " + "  ".join(bin_text(row) for row in quarters[title]))
        print(
            json.dumps(
                {"leagues": len(pooled), "p_above_next_calibration": rows}
                | ({"by_strength": quarters} if args.by_strength else {})
            )
        )
        return
    settings = Settings(
        schedule="random" if args.trueskill_defaults else args.schedule,
        tau=TRUESKILL_DEFAULT_TAU if args.trueskill_defaults else args.tau,
        duplicate=args.duplicate or args.rate_groups,
        rate_groups=args.rate_groups,
        games_per_bot=args.games_per_bot,
        field=FIELDS[args.field],
        field_name=args.field,
        table_size=4,
        seed=args.seed,
        sandwich=args.covariance == "sandwich",
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
