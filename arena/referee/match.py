"""Run one match: a game, the seats, deadlines, fallbacks, strikes and the record.

Every request is built from ``game.observe(state, seat)`` and that seat's events only
(the game's wire shows them as the seat may see them); the seed, other hands and the
deck order never leave this module. Any fault gets the game's fallback action (the first
action of the canonical legal set), a strike, and a line in the record; after
``max_strikes`` strikes the seat is forfeited: it plays on by fallback without being
asked and ranks last. The referee knows the game only through the Game interface.
"""

from __future__ import annotations

import random
import time
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.games import DEFAULT_GAME, AnyGame, Deal, GameResult
from arena.games import get as get_game

from .each_seat import each_seat
from .faults import Fault
from .live import LiveLog
from .messages import match_overs, match_starts, reads_messages
from .record import compact_json
from .seats import Decision, Reply, Seat

LAG_RECORDED_S = 0.001
"""The arena's lag during a decision is written in its record line from this much on."""


def _default_game() -> AnyGame:
    return get_game(DEFAULT_GAME)


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything that fixes a match except the seats."""

    match_id: str
    """Unique within the arena."""
    config: Any
    """The game's configuration: players, rules (and deals, duplicate where it has them)."""
    seed: int = 0
    """Seed of the shuffles (never sent to a bot)."""
    deal: Deal | None = None
    """Given shuffles (duplicate deals across tables); overrides ``seed``."""
    deadline_ms: int = 1000
    """Per-decision deadline."""
    time_bank_ms: int = 0
    """Per-match time bank drawn on when a decision overruns its deadline."""
    max_strikes: int = 3
    """Faults after which a seat is forfeited; 0 = never."""
    max_reply_bytes: int = 4096
    """Larger replies are OVERSIZED faults."""
    connect_timeout_s: float = 5.0
    """How long a bot may take to accept the match's stream."""
    close_timeout_s: float = 1.0
    """How long a bot has to end its stream after MatchOver (waited for in the
    background: the match is over at once) before the arena cancels the call."""
    publish_record: bool = True
    """Send the full record to the bots in MatchOver."""
    game: AnyGame = field(default_factory=_default_game)
    """The game played (from ``arena.games.get``)."""
    live: LiveLog | None = field(default=None, compare=False)
    """Where each applied action is appended for watchers (``arena.referee.live``);
    None: the match is not watched."""


@dataclass(slots=True)
class SeatOutcome:
    """How one seat fared."""

    name: str
    """The entrant."""
    score: int = 0
    """Total score over the match's deals."""
    game_rank: int = 0
    """Rank by the rules, before forfeits."""
    rank: int = 0
    """Final rank: forfeited seats rank last."""
    forfeited: bool = False
    """Whether the seat was forfeited."""
    faults: list[Fault] = field(default_factory=list)
    """Every fault, in order."""
    decisions: int = 0
    """Decisions this seat made (faulted ones included)."""
    think_s: float = 0.0
    """Total time charged to this seat (the arena's own lag excluded)."""
    arena_lags: int = 0
    """Decisions cut short by the arena's own lag (fallback played, no strike)."""

    def fault_counts(self) -> dict[str, int]:
        """Faults by leaderboard category (``timeouts``, ``errors``, ``invalid``)."""
        counts = {"timeouts": 0, "errors": 0, "invalid": 0}
        for fault in self.faults:
            counts[fault.kind.category] += 1
        return counts


@dataclass(slots=True)
class MatchOutcome:
    """The result of a match, and its record."""

    match_id: str
    """The match."""
    seats: list[SeatOutcome]
    """By seat."""
    result: GameResult
    """The game's own result."""
    record: list[dict[str, Any]]
    """The record as JSON lines (header, decisions, footer); see ``record.py``."""
    decisions: int
    """Decisions in the match."""
    wall_s: float
    """Wall time of the match."""
    _game_record_json: str | None = None
    """``game_record_json`` once serialized."""

    @property
    def game_record_json(self) -> str:
        """The result line's ``game_record`` serialized (``record.encode_record`` splices
        it in): by the referee where a seat's MatchOver carried it, else when first asked
        for (by whoever stores the record, not by the referee while a seat waits)."""
        if self._game_record_json is None:
            result_line = self.record[-1]  # always a record's last line (record.py)
            self._game_record_json = compact_json(result_line["game_record"])
        return self._game_record_json

    @property
    def ranks(self) -> list[int]:
        """Final ranks by seat (forfeits applied)."""
        return [s.rank for s in self.seats]


def final_ranks(game_ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Ranks after forfeits: playing seats keep their order (and ties) ahead of every
    forfeited seat; forfeited seats share the last places' first rank."""
    playing = sorted([r for r, f in zip(game_ranks, forfeited, strict=True) if not f])
    last = len(playing) + 1
    # 1 + the playing seats ranked ahead: where the rank would go among them, sorted.
    return [
        last if f else 1 + bisect_left(playing, r)
        for r, f in zip(game_ranks, forfeited, strict=True)
    ]


async def run_match(spec: MatchSpec, seats: Sequence[Seat]) -> MatchOutcome:
    """Play one match to the end. Bot faults never raise; they are recorded."""
    game = spec.game
    config = spec.config
    players = game.players_of(config)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} seats for a {players}-player match")
    started = time.monotonic()
    if spec.deal is not None:
        state = game.new_match_from_deal(config, spec.deal)
    else:
        state = game.new_match(config, random.Random(spec.seed))
    outcomes = [SeatOutcome(seat.name) for seat in seats]
    names = [seat.name for seat in seats]
    wire = game.wire
    reading = [reads_messages(seat) for seat in seats]
    starts = match_starts(spec, names, reading)
    opened = await each_seat(
        seats, lambda index, seat: seat.open(starts[index], spec.connect_timeout_s)
    )
    record: list[dict[str, Any]] = [
        {
            "type": "match",
            "match_id": spec.match_id,
            "game": game.name,
            "config": game.config_to_json(config),
            "seats": names,
            "deadline_ms": spec.deadline_ms,
            "time_bank_ms": spec.time_bank_ms,
            "max_strikes": spec.max_strikes,
        }
    ]
    for index, fault in enumerate(opened):
        if fault is not None:
            outcomes[index].faults.append(fault)
            record.append({"type": "fault", "seat": index, "fault": fault.to_json()})
    banks = [spec.time_bank_ms / 1000.0] * players
    cursors = [0] * players
    # The decisions' record lines, compact while the match runs: a dict per line, held
    # for the whole match, cost about 300 bytes a decision; a row, about 120.
    rows: list[_DecisionRow] = []
    deadline_s = spec.deadline_ms / 1000.0
    request_id = 0
    decisions = 0
    deciding = game.deciding
    observe = game.observe
    live = spec.live
    game_events = game.events
    while (seat_index := deciding(state)) is not None:
        seat = seats[seat_index]
        outcome = outcomes[seat_index]
        obs = observe(state, seat_index)
        kind = obs.decision
        assert kind is not None
        request_id += 1
        decisions += 1
        outcome.decisions += 1
        if outcome.forfeited:
            reply = Reply()
        else:
            events = game_events(state)
            since = events[cursors[seat_index] :]
            cursors[seat_index] = len(events)
            reply = await seat.decide(
                Decision(
                    request_id,
                    obs,
                    since,
                    wire,
                    spec.deadline_ms,
                    deadline_s,
                    banks[seat_index],
                )
            )
        action = reply.action
        fault = reply.fault
        if reply.elapsed_s > deadline_s:
            overrun = reply.elapsed_s - deadline_s
            banks[seat_index] = max(0.0, banks[seat_index] - overrun)
        outcome.think_s += reply.elapsed_s
        notes: dict[str, Any] | None = None
        if reply.arena_lag:
            outcome.arena_lags += 1
            notes = {"fallback": "arena_lag"}
        elif fault is not None:
            outcome.faults.append(fault)
            notes = {"fault": fault.to_json()}
            if spec.max_strikes and len(outcome.faults) >= spec.max_strikes:
                if not outcome.forfeited:
                    notes["forfeited"] = True
                outcome.forfeited = True
        elif outcome.forfeited:
            notes = {"fallback": "forfeited"}
        if action is None:
            action = game.fallback(obs)
        code = game.action_code(action)
        rows.append(
            (
                decisions,
                seat_index,
                kind.name,
                round(reply.elapsed_s * 1000, 3),
                round(reply.lag_s * 1000, 3) if reply.lag_s >= LAG_RECORDED_S else None,
                notes,
                code,
            )
        )
        # The seat checked it against obs.legal (seats.py), or it is the fallback: skip
        # apply's second legality check.
        game.apply_legal(state, action)
        if live is not None:
            live.taken(time.monotonic(), code)
    record.extend([_decision_line(*row) for row in rows])
    del rows
    result = game.result(state)
    assert result is not None
    forfeited = [o.forfeited for o in outcomes]
    ranks = final_ranks(result.ranks, forfeited)
    for index, outcome in enumerate(outcomes):
        outcome.score = result.scores[index]
        outcome.game_rank = result.ranks[index]
        outcome.rank = ranks[index]
    game_record = game.record_json(state)
    record.append(
        {
            "type": "result",
            "scores": list(result.scores),
            "game_ranks": list(result.ranks),
            "ranks": ranks,
            "forfeited": forfeited,
            "end_reason": result.end_reason,
            "game_record": game_record,
        }
    )
    # Serialized here only for a MatchOver that carries it; else the store does it.
    published = spec.publish_record and any(reading)
    game_record_json = compact_json(game_record) if published else None
    overs = match_overs(spec, reading, outcomes, result, ranks, forfeited, game_record_json or "")
    await each_seat(
        seats, lambda index, seat: seat.close(overs[index], timeout_s=spec.close_timeout_s)
    )
    return MatchOutcome(
        spec.match_id,
        outcomes,
        result,
        record,
        decisions,
        time.monotonic() - started,
        game_record_json,
    )


_DecisionRow = tuple[int, int, str, float, float | None, dict[str, Any] | None, int]
"""A decision's record line while the match runs: number, seat, kind, ms charged, the
arena's lag in ms (None under LAG_RECORDED_S), a fault or fallback (None if neither),
the action's code."""


def _decision_line(
    n: int,
    seat: int,
    kind: str,
    ms: float,
    lag_ms: float | None,
    notes: dict[str, Any] | None,
    action: int,
) -> dict[str, Any]:
    """A decision's record line (docs/json-formats.md), its keys in the order written."""
    line: dict[str, Any] = {"type": "decision", "n": n, "seat": seat, "kind": kind, "ms": ms}
    if lag_ms is not None:
        line["lag_ms"] = lag_ms
    if notes is not None:
        line.update(notes)
    line["action"] = action
    return line
