"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012) with the greedy policy as its guide and its playout policy.

Each iteration samples a world the searching seat cannot tell from the real one
(``resample.determinize``: the unseen cards dealt at random), walks the one shared
tree down that world, adds a node, plays the world out with ``GreedyPolicy`` for a few
turns and backs the result up. The tree's nodes are information sets reached by public
action sequences, so they hold every seat's decisions; a child's statistics are from
the point of view of the seat that chose it, and its *availability* counts the visits
in which its action was legal (an opponent's plays depend on its sampled hand).

Two choices make small budgets useful, which is all a Python bot gets inside a
one-second deadline:
- progressive widening in greedy order: a node offers only its best few actions by the
  greedy heuristics (more as it is visited), so iterations go to plausible moves instead
  of one visit each to twenty plays;
- short playouts: the world is played on for ``rollout_turns`` turns (or to the end of
  the deal) and judged by the scores then (display cards minus hand cards), which costs a
  fraction of a playout to the end and keeps most of its signal.

The search reads the observation only: nothing it does depends on the real hidden cards
(tests/games/abluxxen/test_ismcts.py checks that its choices are the same when they
change). Randomness comes from one injected ``random.Random``, so a seed fixes every
choice while the budget is counted in iterations; the optional time limit (for served
bots, against the arena's deadline) is the only thing that depends on the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final

from arena.policies import MatchInfo, seed_for_match

from .actions import Action
from .engine import apply_unchecked, legal_actions
from .greedy import GreedyPolicy, ranked
from .observation import Observation, observe
from .resample import determinize
from .state import State

DEFAULT_ITERATIONS: Final = 200
"""Iterations per decision by default: about 0.11 s of CPU compiled on this project's
machine (docs/BENCHMARKS.md, "ISMCTS"), well inside the default 1 s deadline; it wins
about half its matches against three greedy seats."""

DEFAULT_ROLLOUT_TURNS: Final = 8
"""Turns a playout runs past the tree before it is judged (two rounds at four seats)."""

EXPLORATION: Final = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""

WIDENING: Final = 1.0
"""A node visited v times offers its best ``1 + WIDENING * sqrt(v)`` actions."""

MODEL_OPPONENTS: Final = True
"""Whether the other seats' decisions inside the tree follow the playout policy (a model
of them) instead of getting tree nodes of their own. With a few hundred iterations a
tree of every seat's choices spends most of them on the opponents' options; a model
spends them all on ours. (Against greedy seats the model is close to exact, so the
figures in docs/BENCHMARKS.md flatter it; against other bots it is a guess.)"""

WIN_WEIGHT: Final = 0.5
"""Share of the reward for being first; the rest is the share of other seats beaten, so
that a playout that is not won still says how close it came."""


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last search did (for tests and for tuning)."""

    iterations: int
    """Iterations run."""
    visits: dict[int, int]
    """Visits per root action code."""


class _Node:
    """One information set reached by an action from its parent."""

    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """The seat that chose the action leading here: ``total`` is its reward."""
        self.children: dict[int, _Node] = {}
        """By action code."""
        self.visits = 0
        self.total = 0.0
        self.available = 1
        """Visits of the parent in which this node's action was offered."""


class IsmctsPolicy:
    """ISMCTS with a budget of ``iterations`` per decision, optionally cut short after
    ``time_limit_s`` seconds of ``clock``. Decisions with one legal action cost nothing."""

    cpu_bound: ClassVar[bool] = True
    """A decision is a search (a good part of a second of CPU at five seats): as a
    built-in it decides in a policy process (``referee/policy_processes.py``), where it
    holds none of the interpreter the referee's loop needs."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit_s: float | None = None,
        rollout_turns: int = DEFAULT_ROLLOUT_TURNS,
        exploration: float = EXPLORATION,
        widening: float = WIDENING,
        model_opponents: bool = MODEL_OPPONENTS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"the search needs at least one iteration, not {iterations}")
        if time_limit_s is not None and time_limit_s <= 0:
            raise ValueError(f"the time limit must be positive, not {time_limit_s} s")
        if rollout_turns < 0:
            raise ValueError(f"playouts cannot run {rollout_turns} turns")
        self.iterations = iterations
        self.time_limit_s = time_limit_s
        self.rollout_turns = rollout_turns
        self.exploration = exploration
        self.widening = widening
        self.model_opponents = model_opponents
        self._clock = clock
        self._rng = random.Random(seed)
        self._playout = GreedyPolicy(self._rng.getrandbits(64))
        self.last = SearchStats(0, {})
        """The last search's statistics."""

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))
        self._playout = GreedyPolicy(self._rng.getrandbits(64))

    def choose(self, obs: Observation) -> Action:
        """The root action visited most (ties: the greedy heuristics' order)."""
        legal = obs.legal
        if len(legal) == 1:
            self.last = SearchStats(0, {})
            return legal[0]
        root = _Node(-1)
        stop = None if self.time_limit_s is None else self._clock() + self.time_limit_s
        done = 0
        while done < self.iterations:
            # The first iteration always runs: a choice needs at least one.
            if stop is not None and done and self._clock() >= stop:
                break
            self._iterate(root, obs)
            done += 1
        self.last = SearchStats(done, {code: n.visits for code, n in root.children.items()})
        best = None
        best_key = (-1, -1.0)
        for action in ranked(obs):
            child = root.children.get(action.code)
            if child is not None and (child.visits, child.total) > best_key:
                best, best_key = action, (child.visits, child.total)
        assert best is not None  # the first iteration expands a root action
        return best

    def _iterate(self, root: _Node, obs: Observation) -> None:
        """One determinization: select, expand, play out, back up."""
        state = determinize(obs, self._rng)
        deal = state.deal
        path = [root]
        node = root
        while state.kind is not None and state.deal == deal:
            legal = legal_actions(state)
            if len(legal) == 1:  # forced: no choice to learn about
                apply_unchecked(state, legal[0])
                continue
            seat = state.deciding
            view = observe(state, seat)
            if self.model_opponents and seat != obs.seat:
                apply_unchecked(state, self._playout.choose(view))
                continue
            width = 1 + int(self.widening * math.sqrt(node.visits))
            offered = ranked(view)[:width]
            children = node.children
            fresh: Action | None = None
            chosen: Action | None = None
            chosen_child: _Node | None = None
            best_ucb = -1.0
            for action in offered:
                child = children.get(action.code)
                if child is None:
                    if fresh is None:
                        fresh = action
                    continue
                child.available += 1
                ucb = child.total / child.visits + self.exploration * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if ucb > best_ucb:
                    chosen, chosen_child, best_ucb = action, child, ucb
            if fresh is not None:
                child = _Node(seat)
                children[fresh.code] = child
                apply_unchecked(state, fresh)
                path.append(child)
                break
            assert chosen is not None
            assert chosen_child is not None
            apply_unchecked(state, chosen)
            node = chosen_child
            path.append(node)
        rewards = self._playout_rewards(state, deal)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _playout_rewards(self, state: State, deal: int) -> list[float]:
        """Greedy play for ``rollout_turns`` more turns within the deal, then each seat's
        reward in [0, 1] from the totals so far."""
        stop_turn = state.turn + self.rollout_turns
        playout = self._playout
        while state.kind is not None and state.deal == deal and state.turn < stop_turn:
            apply_unchecked(state, playout.choose(observe(state, state.deciding)))
        return rewards(state, deal)


def rewards(state: State, deal: int) -> list[float]:
    """Per seat: ``WIN_WEIGHT`` for ranking first, the rest shared by the seats it beats,
    ranked by match score so far (the deal ``deal`` counted even if unfinished), fewer
    hand cards breaking ties (the amigo tie-break, which ``shared`` ties only refine)."""
    n = state.config.players
    scores = list(state.match_scores)
    hands = list(state.match_hands)
    if state.kind is not None and state.deal == deal:  # the deal is still being played
        live = state.deal_scores()
        for seat in range(n):
            scores[seat] += live[seat]
            hands[seat] += state.hand_sizes[seat]
    out = []
    for seat in range(n):
        beaten = 0.0
        for other in range(n):
            if other == seat:
                continue
            mine = (scores[seat], -hands[seat])
            theirs = (scores[other], -hands[other])
            beaten += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        share = beaten / (n - 1)
        out.append((1.0 - WIN_WEIGHT) * share + (WIN_WEIGHT if share == 1.0 else 0.0))
    return out
