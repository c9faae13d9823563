"""Information-set Monte Carlo tree search over the Game interface alone: the ``ismcts``
built-in of every game that can ``determinize`` an observation.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): each iteration samples a
world the searching seat cannot tell from the real one (``Game.determinize``: what the
seat may not know drawn at random, consistent with what it does know), walks the one
shared tree down that world, adds a node, plays the world out and backs the result up.
A node is an information set reached by an action (by its ``Game.action_code``) from its
parent; its statistics are from the point of view of the seat that chose the action, and
its *availability* counts the visits in which that action was legal.

The search knows no game: everything it asks goes through ``Game`` (``determinize``,
``deciding``, ``playout_view``, ``apply_legal``, ``result``, ``action_code``) and the
game's own policies. Three things make a small budget useful, and each is the game's to give:

- the **playout policy**: the game's ``greedy`` built-in where it has one (``random``
  otherwise) plays the worlds out, and inside the tree it also plays the other seats
  (``model_opponents``): with a few hundred iterations a tree of every seat's choices
  spends most of them on the opponents' options, a model spends them all on ours
  (against greedy seats the model is close to exact; against other bots it is a guess);
- **progressive widening** in the playout policy's order: a node offers only its best
  ``1 + widening * sqrt(visits)`` actions, so iterations go to plausible moves. The order
  is the policy's ``ranked(obs, world)`` where it has one, else its own choice first and
  the rest in the canonical order;
- **short playouts**: where the game offers ``Game.standings`` (how each seat stands
  mid-match), a playout stops after ``rollout_turns`` turns or at the end of the stage
  it started in (``Game.progress``: an Abluxxen deal) and is judged by the standings
  then; elsewhere it runs to the end of the match.

A policy that judges its options in a world it samples from the observation (Fluxx's
greedy) may take the search's world instead: ``choose_in(obs, world)`` and
``ranked(obs, world)`` (``world`` None: sample one) are used where the policy has them.
The world is the search's sample, consistent with the searching seat's observation, so
this saves the sampling, not a secret: but inside the search the other seats' model
then judges in a world where the searching seat's hand is the real one.

A seat's reward, in [0, 1], is ``WIN_WEIGHT`` for ranking first (alone or tied with all)
plus the rest shared by the seats it beats (half for a tie): the ranks at the end of the
match, or the standings at a cut. The search reads the observation only, so nothing it
does depends on the real hidden state (tests/policies/test_ismcts.py checks its choices
are the same when that changes). Randomness comes from one injected ``random.Random``,
so a seed fixes every choice while the budget is counted in iterations; the optional
time limit (served bots, against the arena's deadline) is the only thing that depends on
the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from arena.games import AnyGame
from arena.games import get as get_game

from .base import MatchInfo, Policy
from .random_policy import RandomPolicy
from .seeding import seed_for_match

DEFAULT_ITERATIONS: Final = 200
"""Iterations per decision unless the game's factory says otherwise."""

DEFAULT_ROLLOUT_TURNS: Final = 8
"""Turns a playout runs past the tree before it is judged, where the game can judge it."""

EXPLORATION: Final = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""

WIDENING: Final = 1.0
"""A node visited v times offers its best ``1 + WIDENING * sqrt(v)`` actions."""

WIN_WEIGHT: Final = 0.5
"""Share of the reward for ranking first; the rest is the share of other seats beaten,
so that a playout that is not won still says how close it came."""

PLAYOUT_POLICY: Final = "greedy"
"""The game's built-in that plays the worlds out, where it has one (else ``random``)."""


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
    """ISMCTS on ``game`` with a budget of ``iterations`` per decision, optionally cut
    short after ``time_limit_s`` seconds of ``clock``. Decisions with one legal action
    cost nothing."""

    cpu_bound: ClassVar[bool] = True
    """A decision is a search (a good part of a second of CPU at five seats): as a
    built-in it decides in a policy process (``referee/policy_processes.py``), where it
    holds none of the interpreter the referee's loop needs."""

    def __init__(
        self,
        game: AnyGame,
        seed: int | None = None,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit_s: float | None = None,
        rollout_turns: int = DEFAULT_ROLLOUT_TURNS,
        exploration: float = EXPLORATION,
        widening: float = WIDENING,
        model_opponents: bool = True,
        playout: str = PLAYOUT_POLICY,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"the search needs at least one iteration, not {iterations}")
        if time_limit_s is not None and time_limit_s <= 0:
            raise ValueError(f"the time limit must be positive, not {time_limit_s} s")
        if rollout_turns < 0:
            raise ValueError(f"playouts cannot run {rollout_turns} turns")
        self.game = game
        self.iterations = iterations
        self.time_limit_s = time_limit_s
        self.rollout_turns = rollout_turns
        self.exploration = exploration
        self.widening = widening
        self.model_opponents = model_opponents
        self._playout_factory = game.policies.get(playout, RandomPolicy)
        self._clock = clock
        self._rng = random.Random(seed)
        self._new_playout()
        self.last = SearchStats(0, {})
        """The last search's statistics."""

    def _new_playout(self) -> None:
        playout = self._playout_factory(self._rng.getrandbits(64))
        self._playout: Policy = playout
        # Optional hooks of the playout policy (see the module's docstring).
        self._ranked: Callable[[Any, Any], Sequence[Any]] | None = getattr(playout, "ranked", None)
        self._choose_in: Callable[[Any, Any], Any] = getattr(
            playout, "choose_in", lambda view, _world: playout.choose(view)
        )

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))
        self._new_playout()

    def choose(self, obs: Any) -> Any:
        """The root action visited most (ties: the playout policy's order)."""
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
        code = self.game.action_code
        self.last = SearchStats(done, {c: n.visits for c, n in root.children.items()})
        best = None
        best_key = (-1, -1.0)
        for action in self._ordered(obs, None):
            child = root.children.get(code(action))
            if child is not None and (child.visits, child.total) > best_key:
                best, best_key = action, (child.visits, child.total)
        assert best is not None  # the first iteration expands a root action
        return best

    def _ordered(self, view: Any, world: Any) -> Sequence[Any]:
        """The legal actions of ``view``, most promising first by the playout policy
        (judged in ``world`` where it judges in a world: None, its own sample)."""
        if self._ranked is not None:
            return self._ranked(view, world)
        first = self._playout.choose(view) if world is None else self._choose_in(view, world)
        return [first, *(a for a in view.legal if a != first)]

    def _iterate(self, root: _Node, obs: Any) -> None:
        """One determinization: select, expand, play out, back up."""
        game = self.game
        state = game.determinize(obs, self._rng)
        horizon = _Horizon(game, state)
        path = [root]
        node = root
        while (seat := game.deciding(state)) is not None and horizon.same_stage(state):
            view = game.playout_view(state, seat)
            legal = view.legal
            if len(legal) == 1:  # forced: no choice to learn about
                game.apply_legal(state, legal[0])
                continue
            if self.model_opponents and seat != obs.seat:
                game.apply_legal(state, self._choose_in(view, state))
                continue
            width = 1 + int(self.widening * math.sqrt(node.visits))
            offered = self._ordered(view, state)[:width]
            children = node.children
            fresh: Any = None
            fresh_code = -1
            chosen: Any = None
            chosen_child: _Node | None = None
            best_ucb = -1.0
            for action in offered:
                code = game.action_code(action)
                child = children.get(code)
                if child is None:
                    if fresh_code < 0:
                        fresh, fresh_code = action, code
                    continue
                child.available += 1
                ucb = child.total / child.visits + self.exploration * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if ucb > best_ucb:
                    chosen, chosen_child, best_ucb = action, child, ucb
            if fresh_code >= 0:
                child = _Node(seat)
                children[fresh_code] = child
                game.apply_legal(state, fresh)
                path.append(child)
                break
            assert chosen_child is not None
            game.apply_legal(state, chosen)
            node = chosen_child
            path.append(node)
        rewards = self._playout_rewards(state, horizon)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _playout_rewards(self, state: Any, horizon: _Horizon) -> list[float]:
        """The playout policy plays on (``rollout_turns`` turns within the stage, where
        the game can judge a cut; else to the end), then each seat's reward."""
        game = self.game
        choose_in = self._choose_in
        cut = horizon.cuts
        stop_turn = horizon.turn(state) + self.rollout_turns
        while (seat := game.deciding(state)) is not None:
            if cut and (not horizon.same_stage(state) or horizon.turn(state) >= stop_turn):
                break
            game.apply_legal(state, choose_in(game.playout_view(state, seat), state))
        return rewards(game, state)


@dataclass(slots=True)
class _Horizon:
    """Where a search stops: the end of the stage it started in (where the game judges
    stages), and, in playouts, a number of turns."""

    game: AnyGame
    root: Any
    cuts: bool = field(init=False)
    """Whether the game can judge a match cut short (``standings``)."""
    stage: int = field(init=False)

    def __post_init__(self) -> None:
        self.cuts = self.game.standings(self.root) is not None
        self.stage = self.game.progress(self.root)[0]

    def same_stage(self, state: Any) -> bool:
        return not self.cuts or self.game.progress(state)[0] == self.stage

    def turn(self, state: Any) -> int:
        return self.game.progress(state)[1]


def rewards(game: AnyGame, state: Any) -> list[float]:
    """Per seat: ``WIN_WEIGHT`` for ranking first, the rest shared by the seats it beats
    (half for a tie), by the match's ranks once it is over, else by the game's
    standings."""
    result = game.result(state)
    if result is not None:
        strength: Sequence[float] = [-rank for rank in result.ranks]
    else:
        standings = game.standings(state)
        assert standings is not None  # a playout is cut only where the game judges cuts
        strength = standings
    n = len(strength)
    out = []
    for seat in range(n):
        beaten = 0.0
        for other in range(n):
            if other != seat:
                mine, theirs = strength[seat], strength[other]
                beaten += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        share = beaten / (n - 1)
        out.append((1.0 - WIN_WEIGHT) * share + (WIN_WEIGHT if share == 1.0 else 0.0))
    return out


@dataclass(frozen=True, slots=True)
class SearchFactory:
    """The ``ismcts`` built-in of a game: ``factory(seed, **settings)`` makes the search
    on the game registered as ``game`` with the game's own ``settings`` (its budget,
    playout length), which the keyword arguments override. A picklable value (a game's
    name, not the game), so policy processes can build it."""

    game: str
    settings: tuple[tuple[str, Any], ...] = ()

    cpu_bound: ClassVar[bool] = IsmctsPolicy.cpu_bound

    def __call__(self, seed: int | None = None, **overrides: Any) -> IsmctsPolicy:
        return IsmctsPolicy(get_game(self.game), seed, **{**dict(self.settings), **overrides})
