"""The conformance kit: what every game plug-in must satisfy, as plain functions.

Why: the layers above the games (referee, leagues, store, SDK, learning environments)
rely on promises that the types of ``arena.games.base`` cannot express: a match always
ends, the legal set is never empty while a seat decides, seeded matches replay exactly,
states, configurations and records survive JSON, the wire encoding round-trips, and above
all a seat's requests reveal nothing it may not know. Each game's own tests cannot be
trusted to check all of that the same way, so this kit does, for every registered game
(``tests/games/test_game_conformance.py`` runs it over every game, preset and table
size). A new game's author can run it directly::

    from arena.games import conformance_kit, get
    conformance_kit.check_game(get("mygame"))

Every ``check_*`` function plays seeded random matches through the Game interface only,
and raises AssertionError with a message that names the game, the table, the seed and
the decision where the promise broke. They take a configuration (``game.make_config``)
so tests can choose tables; ``tables(game)`` lists every (players, preset).

Matches here are played by ``random_match``: the shuffle comes from
``random.Random(seed)``, each decision is a uniformly random legal action drawn from a
second generator seeded from ``seed``, so the same seed always plays the same match.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from arena.v1 import bot_pb2

from .base import CapabilityMissingError, InvalidOptionsError
from .boards import seat_moment
from .registry import AnyGame

MAX_STEPS: Final = 100_000
"""Decisions after which a random match counts as endless (a game must end far sooner:
its rules cap its turns)."""

Visit = Callable[[Any, int, Any], None]
"""Called at each decision of ``random_match`` with (state, deciding seat, its
observation), before the action is applied. The state changes afterwards: copy what you
keep (``state_to_json``)."""

# The oneofs of bot.proto in which every game has a field named ``wire.oneof``.
_ONEOFS: Final = (
    (bot_pb2.MatchStart, "rules"),
    (bot_pb2.DecideRequest, "game"),
    (bot_pb2.BotMessage, "choice"),
    (bot_pb2.MatchOver, "result"),
)


# -- helpers -------------------------------------------------------------------------


def tables(game: AnyGame) -> list[tuple[int, str]]:
    """Every (players, preset) the game offers: its table sizes times its presets."""
    return [(players, preset) for preset in game.presets for players in game.table_sizes]


def describe(game: AnyGame, config: Any, seed: int | None = None) -> str:
    """The table (and seed) in words, for failure messages."""
    preset = game.preset_of(config) or "custom rules"
    text = f"{game.name}, {game.players_of(config)} players, {preset}"
    return text if seed is None else f"{text}, seed {seed}"


def _at(where: str, step: int, seat: int, obs: Any) -> str:
    kind = getattr(obs.decision, "name", obs.decision)
    return f"{where}, decision #{step} ({kind}, seat {seat})"


def _diff(expected: Any, got: Any) -> str:
    """Which fields of two dataclass values differ (or both values, if not dataclasses)."""
    if dataclasses.is_dataclass(expected) and dataclasses.is_dataclass(got):
        parts = [
            f"{f.name}: {getattr(expected, f.name)!r} != {getattr(got, f.name)!r}"
            for f in dataclasses.fields(expected)
            if getattr(expected, f.name) != getattr(got, f.name, None)
        ]
        return "; ".join(parts) or f"{expected!r} != {got!r}"
    return f"{expected!r} != {got!r}"


def _json_copy(data: Any) -> Any:
    """``data`` through a JSON text (fails if it is not JSON)."""
    return json.loads(json.dumps(data))


def random_match(
    game: AnyGame,
    config: Any,
    seed: int,
    visit: Visit | None = None,
    *,
    max_steps: int = MAX_STEPS,
) -> Any:
    """Play a seeded random match to its end and return the final state; ``visit`` sees
    every decision first. AssertionError if the match outlives ``max_steps`` decisions
    or a deciding seat has no legal action."""
    where = describe(game, config, seed)
    state = game.new_match(config, random.Random(seed))
    chooser = random.Random(f"choices/{seed}")
    for step in range(max_steps):
        seat = game.deciding(state)
        if seat is None:
            return state
        obs = game.observe(state, seat)
        if not obs.legal:
            raise AssertionError(f"{_at(where, step, seat, obs)}: the legal set is empty")
        if visit is not None:
            visit(state, seat, obs)
        game.apply_legal(state, chooser.choice(obs.legal))
    raise AssertionError(f"{where}: the match has not ended after {max_steps} decisions")


# -- facts and configurations --------------------------------------------------------


def check_facts(game: AnyGame) -> None:
    """The game's facts as data are consistent: a lower-case name, presets with the
    default among them, table sizes, check tables within both, a ``random`` policy,
    rating defaults per preset, and a field named ``wire.oneof`` in every oneof of
    bot.proto."""
    name = game.name
    # A family's game (``openspiel:universal_poker(numPlayers=3)``) keeps the family's
    # own spelling after the prefix.
    if not (name and name.partition(":")[0] == name.partition(":")[0].lower()):
        raise AssertionError(f"game name {name!r} must be lower case")
    if not game.title:
        raise AssertionError(f"{name}: no title")
    if not game.presets:
        raise AssertionError(f"{name}: no presets")
    if game.default_preset not in game.presets:
        raise AssertionError(
            f"{name}: default preset {game.default_preset!r} is not one of {game.presets}"
        )
    sizes = game.table_sizes
    if not (sizes and all(n >= 1 for n in sizes) and list(sizes) == sorted(set(sizes))):
        raise AssertionError(
            f"{name}: table_sizes {sizes} must be distinct positive numbers, ascending"
        )
    for players, preset in game.check_tables:
        if not (players in sizes and preset in game.presets):
            raise AssertionError(
                f"{name}: check table ({players}, {preset!r}) is not a table the game offers"
            )
    if "random" not in game.policies:
        raise AssertionError(f"{name}: no built-in 'random' policy")
    for preset in game.presets:
        for players in sizes:
            defaults = game.rating_defaults(preset, players)
            if not (0.0 <= defaults.draw_probability < 1.0):
                raise AssertionError(
                    f"{name}: rating_defaults({preset!r}, {players}).draw_probability "
                    f"{defaults.draw_probability} is not in [0, 1)"
                )
    for message, oneof in _ONEOFS:
        fields = {f.name for f in message.DESCRIPTOR.oneofs_by_name[oneof].fields}
        if game.wire.oneof not in fields:
            raise AssertionError(
                f"{name}: wire.oneof {game.wire.oneof!r} is not a field of "
                f"{message.DESCRIPTOR.name}.{oneof} ({sorted(fields)})"
            )


def check_configs(game: AnyGame) -> None:
    """Every (players, preset) makes a configuration that says so (``players_of``,
    ``preset_of``); tables the game does not offer and unknown presets raise
    InvalidOptionsError; the default preset is used when none is named."""
    for players, preset in tables(game):
        config = game.make_config(players, preset)
        where = describe(game, config)
        if game.players_of(config) != players:
            raise AssertionError(f"{where}: players_of says otherwise")
        if game.preset_of(config) != preset:
            raise AssertionError(
                f"{where}: preset_of gives {game.preset_of(config)!r}, not {preset!r}"
            )
        check_config_json(game, config)
        check_start_round_trip(game, config)
    players = game.table_sizes[0]
    default = game.make_config(players)
    if game.preset_of(default) != game.default_preset:
        raise AssertionError(
            f"{game.name}: make_config without a preset does not use {game.default_preset!r}"
        )
    for bad in (0, max(game.table_sizes) + 1):
        if bad in game.table_sizes:
            continue
        try:
            game.make_config(bad)
        except InvalidOptionsError:
            pass
        else:
            raise AssertionError(f"{game.name}: make_config({bad}) did not raise")
    try:
        game.make_config(players, "no such preset")
    except InvalidOptionsError:
        pass
    else:
        raise AssertionError(f"{game.name}: make_config with an unknown preset did not raise")


def check_config_json(game: AnyGame, config: Any) -> None:
    """``config_from_json(config_to_json(c)) == c``, through a JSON text too."""
    where = describe(game, config)
    data = game.config_to_json(config)
    if game.config_from_json(data) != config:
        raise AssertionError(f"{where}: config JSON does not round-trip")
    if game.config_from_json(_json_copy(data)) != config:
        raise AssertionError(f"{where}: config JSON does not survive json.dumps/json.loads")


def check_start_round_trip(game: AnyGame, config: Any) -> None:
    """A MatchStart filled by ``wire.fill_start`` (with ``players`` set, as the referee
    does) gives the configuration back through ``wire.config_from_start``, after
    serialization. MatchStart has no field for duplicate deals, so ``config`` should be
    made without them."""
    where = describe(game, config)
    start = bot_pb2.MatchStart(players=game.players_of(config), game=game.name)
    game.wire.fill_start(start, config)
    if start.WhichOneof("rules") != game.wire.oneof:
        raise AssertionError(f"{where}: fill_start did not set the {game.wire.oneof!r} rules")
    parsed = bot_pb2.MatchStart.FromString(start.SerializeToString())
    back = game.wire.config_from_start(parsed)
    if game.players_of(back) != game.players_of(config):
        raise AssertionError(f"{where}: players lost on the wire")
    if game.preset_of(back) != game.preset_of(config):
        raise AssertionError(f"{where}: rules lost on the wire")
    if back != config:
        raise AssertionError(
            f"{where}: config_from_start(fill_start(config)) differs: "
            f"{game.config_to_json(back)} != {game.config_to_json(config)}"
        )


# -- playing -------------------------------------------------------------------------


@dataclass
class PlayReport:
    """What ``check_random_play`` saw."""

    decisions: int = 0
    kinds: set[Enum] = field(default_factory=set)


def check_random_play(
    game: AnyGame, config: Any, seed: int, *, max_steps: int = MAX_STEPS
) -> PlayReport:
    """A random match ends within ``max_steps`` decisions, and all along: the deciding
    seat's observation is its own, with a decision kind and a non-empty legal set; every
    other seat's legal set is empty. At the end no seat decides, every observation has
    no decision and no legal action, and the result has one score and one 1-based rank
    per seat (the best rank 1) and an end reason."""
    where = describe(game, config, seed)
    players = game.players_of(config)
    report = PlayReport()

    def visit(state: Any, seat: int, obs: Any) -> None:
        at = _at(where, report.decisions, seat, obs)
        if not (0 <= seat < players):
            raise AssertionError(f"{at}: deciding seat out of range")
        if obs.seat != seat:
            raise AssertionError(f"{at}: observe(state, {seat}).seat is {obs.seat}")
        if not isinstance(obs.decision, Enum):
            raise AssertionError(f"{at}: decision {obs.decision!r} is no Enum")
        if game.result(state) is not None:
            raise AssertionError(f"{at}: a result while a seat decides")
        for other in range(players):
            if other != seat:
                legal = game.observe(state, other).legal
                if legal:
                    raise AssertionError(
                        f"{at}: seat {other} does not decide but has legal {legal}"
                    )
        report.decisions += 1
        report.kinds.add(obs.decision)

    final = random_match(game, config, seed, visit, max_steps=max_steps)
    if game.deciding(final) is not None:
        raise AssertionError(f"{where}: random_match ended while a seat decides")
    result = game.result(final)
    if result is None:
        raise AssertionError(f"{where}: no seat decides but result() is None")
    ranks, scores = tuple(result.ranks), tuple(result.scores)
    if not (len(ranks) == players and len(scores) == players):
        raise AssertionError(
            f"{where}: result has {len(ranks)} ranks and {len(scores)} scores for {players} seats"
        )
    if not (all(1 <= r <= players for r in ranks) and min(ranks) == 1):
        raise AssertionError(f"{where}: ranks {ranks} are not 1-based ranks of {players} seats")
    if not (isinstance(result.end_reason, str) and result.end_reason):
        raise AssertionError(f"{where}: result has no end reason")
    for seat in range(players):
        obs = game.observe(final, seat)
        if obs.legal or obs.decision is not None:
            raise AssertionError(
                f"{where}: after the end, seat {seat} still sees {obs.decision} with {obs.legal}"
            )
    return report


def check_determinism(game: AnyGame, config: Any, seed: int) -> None:
    """The same seed and the same choices give the same match: identical
    ``record_json`` and ``state_to_json``. ``deal`` gives JSON-able shuffles from which
    ``new_match_from_deal`` makes the same match every time."""
    where = describe(game, config, seed)
    first, second = (random_match(game, config, seed) for _ in range(2))
    if game.record_json(first) != game.record_json(second):
        raise AssertionError(f"{where}: two plays of the same seed give different records")
    if game.state_to_json(first) != game.state_to_json(second):
        raise AssertionError(f"{where}: two plays of the same seed give different final states")
    deal = game.deal(config, random.Random(seed))
    if deal != game.deal(config, random.Random(seed)):
        raise AssertionError(f"{where}: deal() is not seeded")
    loaded = tuple(tuple(d) for d in _json_copy(deal))
    if loaded != deal:
        raise AssertionError(f"{where}: a deal does not survive JSON")
    one = game.new_match_from_deal(config, deal)
    two = game.new_match_from_deal(config, loaded)
    if game.state_to_json(one) != game.state_to_json(two):
        raise AssertionError(f"{where}: new_match_from_deal of one deal gives different matches")


def check_json_round_trips(game: AnyGame, config: Any, seed: int, *, points: int = 6) -> None:
    """States survive JSON at the start, at ``points`` spread decisions and at the end:
    ``state_from_json(state_to_json(s))`` gives the same JSON (also through a JSON text),
    and the same observation to the deciding seat. The final record survives a JSON text
    and ``replay_record`` rebuilds the final state from it."""
    where = describe(game, config, seed)
    length = 0

    def count(state: Any, seat: int, obs: Any) -> None:
        nonlocal length
        length += 1

    random_match(game, config, seed, count)
    chosen = {round(i * (length - 1) / max(1, points - 1)) for i in range(points)}
    checked = 0

    def visit(state: Any, seat: int, obs: Any) -> None:
        nonlocal checked
        step = checked
        checked += 1
        if step not in chosen:
            return
        at = _at(where, step, seat, obs)
        data = game.state_to_json(state)
        again = game.state_from_json(data)
        if game.state_to_json(again) != data:
            raise AssertionError(f"{at}: state JSON does not round-trip")
        loaded = game.state_from_json(_json_copy(data))
        if game.state_to_json(loaded) != data:
            raise AssertionError(f"{at}: state JSON is not plain JSON")
        if game.deciding(loaded) != seat:
            raise AssertionError(f"{at}: the restored state has another decider")
        restored = game.observe(loaded, seat)
        if restored != obs:
            raise AssertionError(
                f"{at}: the restored state observes otherwise: " + _diff(obs, restored)
            )

    final = random_match(game, config, seed, visit)
    data = game.state_to_json(final)
    if game.state_to_json(game.state_from_json(_json_copy(data))) != data:
        raise AssertionError(f"{where}: the final state's JSON does not round-trip")
    record = game.record_json(final)
    loaded_record = _json_copy(record)
    if loaded_record != record:
        raise AssertionError(f"{where}: the record does not survive json.dumps/loads")
    replayed = game.replay_record(loaded_record)
    if game.state_to_json(replayed) != data:
        raise AssertionError(
            f"{where}: replay_record(record_json(final)) gives another final state"
        )


def check_wire(game: AnyGame, config: Any, seed: int) -> None:
    """The wire encoding round-trips along a match: each ``decide_request`` (with the
    seat's events since its previous request) parses as an ArenaMessage whose ``decide``
    carries the request id, deadline and time bank given, the game's oneof, and an
    observation equal to the one encoded; every legal action survives ``fill_reply`` and
    ``action_from_reply``; the configuration survives ``fill_start``/``config_from_start``
    and ``fill_over`` takes the result."""
    where = describe(game, config, seed)
    check_start_round_trip(game, config)
    players = game.players_of(config)
    cursors = [0] * players
    step = 0

    def visit(state: Any, seat: int, obs: Any) -> None:
        nonlocal step
        at = _at(where, step, seat, obs)
        request_id, deadline, bank = 1000 + 7 * step, 100 + step % 900, 3 * step
        step += 1
        events = game.events(state)
        raw = game.wire.decide_request(request_id, deadline, bank, obs, events[cursors[seat] :])
        cursors[seat] = len(events)
        message = bot_pb2.ArenaMessage.FromString(raw)
        if message.WhichOneof("kind") != "decide":
            raise AssertionError(f"{at}: the request is no DecideRequest")
        decide = message.decide
        if (decide.request_id, decide.deadline_ms, decide.time_bank_ms) != (
            request_id,
            deadline,
            bank,
        ):
            raise AssertionError(f"{at}: request id, deadline or time bank lost on the wire")
        if decide.WhichOneof("game") != game.wire.oneof:
            raise AssertionError(f"{at}: the request's game is {decide.WhichOneof('game')!r}")
        back = game.wire.observation_from_request(decide)
        if back != obs:
            raise AssertionError(f"{at}: observation_from_request differs: " + _diff(obs, back))
        for action in obs.legal:
            reply = bot_pb2.BotMessage(request_id=request_id)
            game.wire.fill_reply(reply, action)
            if reply.WhichOneof("choice") != game.wire.oneof:
                raise AssertionError(
                    f"{at}: fill_reply({action!r}) did not set the {game.wire.oneof!r} choice"
                )
            parsed = bot_pb2.BotMessage.FromString(reply.SerializeToString())
            if game.wire.action_from_reply(parsed) != action:
                raise AssertionError(
                    f"{at}: {game.action_text(action)} does not survive "
                    "fill_reply/action_from_reply"
                )

    final = random_match(game, config, seed, visit)
    result = game.result(final)
    if result is None:
        raise AssertionError(f"{where}: no result")
    over = bot_pb2.MatchOver(ranks=list(result.ranks))
    game.wire.fill_over(over, result)
    if over.WhichOneof("result") != game.wire.oneof:
        raise AssertionError(f"{where}: fill_over did not set the {game.wire.oneof!r} result")
    bot_pb2.MatchOver.FromString(over.SerializeToString())


def check_actions_and_tensors(game: AnyGame, config: Any, seed: int) -> None:
    """Along a match: the fallback action is legal; every legal action has a distinct
    code below ``num_distinct_actions`` that ``action_from_code`` maps back to it, and
    words (``action_text``); every seat's ``observation_tensor`` has
    ``observation_tensor_size`` finite numbers."""
    where = describe(game, config, seed)
    size = game.observation_tensor_size(config)
    actions = game.num_distinct_actions(config)
    players = game.players_of(config)
    step = 0

    def visit(state: Any, seat: int, obs: Any) -> None:
        nonlocal step
        at = _at(where, step, seat, obs)
        step += 1
        fallback = game.fallback(obs)
        if fallback not in obs.legal:
            raise AssertionError(f"{at}: fallback {fallback!r} is not legal")
        codes = []
        for action in obs.legal:
            code = game.action_code(action)
            if not (isinstance(code, int) and 0 <= code < actions):
                raise AssertionError(f"{at}: {action!r} has code {code!r}, not in 0..{actions - 1}")
            if game.action_from_code(code) != action:
                raise AssertionError(f"{at}: code {code} gives another action")
            if not isinstance(game.action_text(action), str):
                raise AssertionError(f"{at}: action_text is no str")
            codes.append(code)
        if len(set(codes)) != len(codes):
            raise AssertionError(f"{at}: legal actions share codes: {codes}")
        for other in range(players):
            view = obs if other == seat else game.observe(state, other)
            tensor = game.observation_tensor(view)
            if len(tensor) != size:
                raise AssertionError(
                    f"{at}: seat {other}'s tensor has {len(tensor)} entries, "
                    f"observation_tensor_size says {size}"
                )
            if not all(isinstance(x, float | int) and math.isfinite(x) for x in tensor):
                raise AssertionError(
                    f"{at}: seat {other}'s tensor has entries that are not finite numbers"
                )

    random_match(game, config, seed, visit)


def check_policies(
    game: AnyGame,
    config: Any,
    seed: int,
    factories: Mapping[str, Callable[[int], Any]] | None = None,
) -> None:
    """Every built-in policy, seeded, chooses a legal action at every decision of a
    match in which each seat is played by one of them in turn. ``factories``: the
    policies to seat instead of ``game.policies`` (the same names, e.g. a search at a
    smaller budget)."""
    where = describe(game, config, seed)
    policies = game.policies if factories is None else factories
    names = sorted(policies)
    players = game.players_of(config)
    seats = [policies[names[s % len(names)]](seed + s) for s in range(players)]
    state = game.new_match(config, random.Random(seed))
    for step in range(MAX_STEPS):
        seat = game.deciding(state)
        if seat is None:
            return
        obs = game.observe(state, seat)
        action = seats[seat].choose(obs)
        name = names[seat % len(names)]
        if action not in obs.legal:
            raise AssertionError(
                f"{_at(where, step, seat, obs)}: policy {name!r} chose {action!r}, "
                "not a legal action"
            )
        game.apply_legal(state, action)
    raise AssertionError(f"{where}: the policies' match has not ended")


def check_determinize(game: AnyGame, config: Any, seed: int, *, every: int = 5) -> bool:
    """If the game offers ``determinize`` (else: False, nothing checked), the sampled
    state looks to the seat exactly like the real one (same observation) at every
    ``every``-th decision of a match."""
    where = describe(game, config, seed)
    rng = random.Random(f"determinize/{seed}")
    step = 0
    offered = True

    def visit(state: Any, seat: int, obs: Any) -> None:
        nonlocal step, offered
        at = _at(where, step, seat, obs)
        step += 1
        if not offered or (step - 1) % every:
            return
        try:
            world = game.determinize(obs, rng)
        except CapabilityMissingError:
            offered = False
            return
        again = game.observe(world, seat)
        if again != obs:
            raise AssertionError(
                f"{at}: the determinized state observes otherwise: " + _diff(obs, again)
            )

    random_match(game, config, seed, visit)
    return offered


# -- hidden information --------------------------------------------------------------


@dataclass
class HiddenReport:
    """What ``check_hidden_information`` covered."""

    decisions: int = 0
    """Decisions at which a twin was compared."""
    compared_states: int = 0
    """Of those, decisions at which the twin's whole state was compared too."""
    differing: int = 0
    """Twins whose state differed from the original."""
    kinds: set[Enum] = field(default_factory=set)
    """Decision kinds met."""


def check_hidden_information(
    game: AnyGame,
    config: Any,
    seeds: Iterable[int],
    *,
    compare_state_every: int = 7,
    report: HiddenReport | None = None,
) -> HiddenReport:
    """The differential test of hidden information, at every decision of one seeded
    random match per seed: a twin of the state with everything the deciding seat may not
    know drawn anew (``resample_hidden``) must produce byte-identical requests for that
    seat: ``wire.decide_request(1, 500, 0, observe(s, seat), events(s)[cursor:])``, the
    cursor being where that seat's previous request ended, as the referee sends events.
    ``resample_hidden`` must not change the original, and some twins must really differ
    from it (their whole states are compared every ``compare_state_every`` decisions; at
    least one must differ). Use configurations of several deals where the game has them.
    Where the game has a board for the web, what its pages show a seat is held to the
    same test, at every ``compare_state_every``-th decision (a board costs far more than
    a request): the human seat's page (``boards.seat_moment`` of the decision's
    observation and events) and a replay of another seat (its moment from ``observe``
    and the events since the previous decision). Returns (and adds to ``report``) the decisions and
    decision kinds covered."""
    report = report if report is not None else HiddenReport()
    differing_before = report.differing
    compared_before = report.compared_states
    seeds = list(seeds)
    for seed in seeds:
        _hidden_match(game, config, seed, compare_state_every, report)
    if report.differing <= differing_before:
        raise AssertionError(
            f"{describe(game, config)}, seeds {seeds}: none of "
            f"{report.compared_states - compared_before} compared twins differs from its "
            "original: resample_hidden redraws nothing, so the differential test proves nothing"
        )
    return report


def _hidden_match(
    game: AnyGame, config: Any, seed: int, compare_state_every: int, report: HiddenReport
) -> None:
    """``check_hidden_information`` on one match."""
    where = describe(game, config, seed)
    players = game.players_of(config)
    cursors = [0] * players
    names = [f"seat {n}" for n in range(players)]
    rng = random.Random(f"resample/{seed}")
    step = 0
    step_cursor = 0

    def visit(state: Any, seat: int, obs: Any) -> None:
        nonlocal step, step_cursor
        at = _at(where, step, seat, obs)
        compare = step % compare_state_every == 0
        step += 1
        before = game.state_to_json(state) if compare else None
        cursor = cursors[seat]
        events = game.events(state)
        expected = game.wire.decide_request(1, 500, 0, obs, events[cursor:])
        cursors[seat] = len(events)
        twin = game.resample_hidden(state, seat, rng)
        if twin is state:
            raise AssertionError(f"{at}: resample_hidden returned the state itself")
        got = game.wire.decide_request(
            1, 500, 0, game.observe(twin, seat), game.events(twin)[cursor:]
        )
        if got != expected:
            seen = game.observe(twin, seat)
            detail = (
                _diff(obs, seen)
                if seen != obs
                else "the observations are equal, the events since its previous request differ"
            )
            raise AssertionError(
                f"{at}: the seat's request changes when what it may not know is redrawn "
                "(resample_hidden): a leak of hidden information, or a resample_hidden that "
                f"changes what the seat knows; {detail}"
            )
        if game.deciding(twin) != seat:
            raise AssertionError(f"{at}: the twin has another decider")
        if game.board is not None and compare:
            _same_moment(
                at + ": the human seat's page",
                seat_moment(game, obs, events[cursor:], names),
                seat_moment(game, game.observe(twin, seat), game.events(twin)[cursor:], names),
            )
            if players > 1:
                other = (seat + 1 + step // compare_state_every) % players
                other = other if other != seat else (seat + 1) % players
                replayed = game.resample_hidden(state, other, rng)
                _same_moment(
                    f"{at}: the replay as seat {other} saw it",
                    seat_moment(game, game.observe(state, other), events[step_cursor:], names),
                    seat_moment(
                        game,
                        game.observe(replayed, other),
                        game.events(replayed)[step_cursor:],
                        names,
                    ),
                )
                _same_public_view(game, at, state, (twin, replayed), names)
        step_cursor = len(events)
        if compare:
            if game.state_to_json(state) != before:
                raise AssertionError(f"{at}: resample_hidden changed the original state")
            report.compared_states += 1
            report.differing += game.state_to_json(twin) != before
        report.decisions += 1
        report.kinds.add(obs.decision)

    random_match(game, config, seed, visit)


def _same_public_view(
    game: AnyGame, at: str, state: Any, twins: Sequence[Any], names: Sequence[str]
) -> None:
    """What people following a match live see (``Board.public_view``, where the board
    offers one) must not change when what any one seat may not know is redrawn: else it
    shows something only some seats may see."""
    board = game.board
    assert board is not None
    try:
        expected = board.public_view(state, game.events(state), names)
    except CapabilityMissingError:
        return
    for twin in twins:
        got = board.public_view(twin, game.events(twin), names)
        if got != expected:
            keys = sorted(k for k in {*expected, *got} if expected.get(k) != got.get(k))
            raise AssertionError(
                f"{at}: the public view (people following the match live) changes when "
                f"what a seat may not know is redrawn (resample_hidden): keys {keys} differ"
            )


def _same_moment(where: str, expected: dict[str, Any], got: dict[str, Any]) -> None:
    """A page's moment must not change when what its seat may not know is redrawn."""
    if expected != got:
        keys = sorted(
            k
            for k in {*expected["board"], *got["board"]}
            if expected["board"].get(k) != got["board"].get(k)
        )
        what = f"board keys {keys}" if keys else "its choices"
        raise AssertionError(
            f"{where} changes when what the seat may not know is redrawn (resample_hidden): "
            f"a leak of hidden information through the board; {what} differ"
        )


def check_decision_kinds(game: AnyGame, kinds: set[Enum], what: str = "the run") -> None:
    """``kinds`` holds every member of the game's decision-kind enum."""
    if not kinds:
        raise AssertionError(f"{game.name}: no decision met in {what}")
    kind_type = type(next(iter(kinds)))
    missing = set(kind_type) - kinds
    if missing:
        raise AssertionError(
            f"{game.name}: {what} never met the decision kind(s) "
            f"{sorted(getattr(k, 'name', str(k)) for k in missing)}; play more matches or "
            "more tables"
        )


def check_check_tables(game: AnyGame, seeds: Sequence[int]) -> None:
    """Random matches on ``game.check_tables`` together meet every decision kind, as
    that fact promises (``arena check-bot`` relies on it)."""
    kinds: set[Enum] = set()
    for players, preset in game.check_tables:
        config = game.make_config(players, preset)
        for seed in seeds:
            kinds |= check_random_play(game, config, seed).kinds
    check_decision_kinds(game, kinds, f"random play on its check_tables (seeds {list(seeds)})")


# -- everything ----------------------------------------------------------------------


def deal_configs(game: AnyGame, players: int, preset: str) -> list[Any]:
    """The configurations a table is checked with: one deal, and two where the game
    has deals (a match that goes on after a deal ends)."""
    configs = [game.make_config(players, preset)]
    if game.has_deals:
        configs.append(game.make_config(players, preset, deals=2))
    return configs


def check_table(game: AnyGame, players: int, preset: str, *, seed: int = 0) -> HiddenReport:
    """Every per-match check on one table; returns what the hidden-information test
    covered."""
    for config in deal_configs(game, players, preset):
        check_random_play(game, config, seed)
        check_determinism(game, config, seed)
        check_json_round_trips(game, config, seed)
        check_wire(game, config, seed)
        check_actions_and_tensors(game, config, seed)
        check_policies(game, config, seed)
        check_determinize(game, config, seed)
    config = deal_configs(game, players, preset)[-1]
    return check_hidden_information(game, config, [seed, seed + 1])


def check_game(game: AnyGame, *, seed: int = 0) -> None:
    """The whole kit on one game: its facts and configurations, every check on every
    table, and every decision kind met by the hidden-information test."""
    check_facts(game)
    check_configs(game)
    report = HiddenReport()
    for players, preset in tables(game):
        table = check_table(game, players, preset, seed=seed)
        report.kinds |= table.kinds
    check_decision_kinds(game, report.kinds, "the hidden-information test on every table")
    check_check_tables(game, range(seed, seed + 3))
