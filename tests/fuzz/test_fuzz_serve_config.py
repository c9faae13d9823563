"""Fuzzing ``arena serve``'s settings: ``arena.server.config.validate`` on settings of
the types the command line gives (huge, negative and non-finite numbers, strange game,
preset and allowlist strings, missing TLS files), and the real ``arena serve`` parser
in-process up to the validated settings. Either the settings can run a ladder or
validate names the problem in plain words."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
from dataclasses import fields
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import build_parser, serve_cmd
from arena.league.rating import RatingModel, Skill, rate
from arena.server.allowlist import Allowlist
from arena.server.config import ServeConfig, ServeConfigError, validate
from arena.v1 import arena_pb2, bot_pb2

from .plain import FUZZ, assert_plain, words_in

INTS = st.one_of(
    st.integers(-3, 70),
    st.sampled_from([2**31 - 1, 2**31, 2**63, 10**30, -(2**63), 65535, 65536]),
)
FLOATS = st.one_of(
    st.floats(),
    st.sampled_from([0.0, -0.0, 1e-9, 3.0, 8.3, 8.4, 1e300, math.nan, math.inf, -math.inf]),
)
TEXT = st.text(max_size=16).filter(lambda t: "\x00" not in t)
PATTERNS = st.one_of(
    st.sampled_from(
        [
            "127.0.0.0/8",
            "::1",
            "localhost",
            "*",
            "*:5",
            "[::1]:1-2",
            "[::1]:",
            "10.0.0.0/8:0",
            "10.0.0.0/33",
            "a:b:c",
            "host:70000",
            "host:5-3",
            "host:٣",
            "",
            " ",
            "*.bots.example.org",
        ]
    ),
    TEXT,
)
GAMES = st.one_of(st.just("abluxxen"), st.just("abluxxen"), st.just("abluxxen"), TEXT)
"""Mostly the game (an unknown name costs the registry a look at every installed package)."""
_INT_FIELDS = [f.name for f in fields(ServeConfig) if f.type == "int"]
_FLOAT_FIELDS = [f.name for f in fields(ServeConfig) if f.type == "float"]


@st.composite
def serve_configs(draw: st.DrawFn) -> ServeConfig:
    """Settings with a few fields changed from the defaults."""
    changes: dict[str, Any] = {}
    for name in draw(
        st.lists(
            st.sampled_from(
                [*_INT_FIELDS, *_FLOAT_FIELDS, "game", "preset", "allow", "tls", "bot_ca"]
            ),
            max_size=3,
        )
    ):
        if name in _INT_FIELDS:
            changes[name] = draw(INTS)
        elif name in _FLOAT_FIELDS:
            changes[name] = draw(FLOATS)
        elif name == "game":
            changes[name] = draw(GAMES)
        elif name == "preset":
            changes[name] = draw(st.one_of(st.sampled_from(["amigo", "amigo-expert"]), TEXT))
        elif name == "allow":
            changes[name] = tuple(draw(st.lists(PATTERNS, max_size=3)))
        elif name == "tls":
            changes["tls_cert"] = draw(st.one_of(st.none(), TEXT))
            changes["tls_key"] = draw(st.one_of(st.none(), TEXT))
        else:
            changes[name] = draw(st.one_of(st.none(), TEXT))
    return ServeConfig(db="fuzz.db", **changes)


def assert_runnable(config: ServeConfig) -> None:
    """What the ladder does with its settings works."""
    game = config.game_plugin
    game_config = config.game_config()
    start = bot_pb2.MatchStart(  # ValueError if a limit does not fit the message
        match_id=f"{config.ladder}/000000",
        players=config.table_size,
        deadline_ms=config.deadline_ms,
        max_strikes=config.max_strikes,
    )
    game.wire.fill_start(start, game_config)
    arena_pb2.SubmittedBot(placement_left=config.placement_matches)
    Allowlist(config.allow)
    assert 0 <= config.port <= 65535
    for name in _FLOAT_FIELDS:
        assert math.isfinite(getattr(config, name)), (name, config)
    draw = game.rating_defaults(config.preset, config.table_size).draw_probability
    model = RatingModel(tau=config.tau, draw_probability=draw)
    skills = [Skill(25.0, 25.0 / 3)] * config.table_size
    for skill in rate(model, skills, list(range(1, config.table_size + 1))):
        assert math.isfinite(skill.mu)
        assert math.isfinite(skill.sigma)


def _check(config: ServeConfig) -> None:
    try:
        validate(config)
    except ServeConfigError as error:
        assert_plain(
            str(error), where="ServeConfigError", echoed=words_in(dataclasses.asdict(config))
        )
        return
    assert_runnable(config)


@settings(FUZZ, max_examples=200)
@given(config=serve_configs())
def test_any_serve_settings_can_run_or_are_refused(config: ServeConfig) -> None:
    _check(config)


PARSER = build_parser()
"""The arena command's parser, built once (building it lists the installed games)."""
FLAGS: dict[str, st.SearchStrategy[str]] = {
    "--host": st.one_of(st.just("127.0.0.1"), TEXT),
    "--game": GAMES,
    "--preset": st.one_of(st.just("amigo"), TEXT),
    "--allow": PATTERNS,
    "--tls-cert": TEXT,
    "--tls-key": TEXT,
    "--bot-ca": TEXT,
    **dict.fromkeys(
        (
            "--port",
            "--table-size",
            "--deadline-ms",
            "--max-strikes",
            "--concurrency",
            "--bot-streams",
            "--placement-matches",
            "--suspend-after",
            "--submit-limit",
            "--verify-games",
        ),
        st.one_of(INTS.map(str), TEXT),
    ),
    **dict.fromkeys(
        ("--hello-timeout-s", "--grace-s", "--rest-s", "--tau"),
        st.one_of(FLOATS.map(repr), st.sampled_from(["nan", "inf", "-inf", "1e309"]), TEXT),
    ),
}


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_serve_arguments_are_refused_plainly_or_can_run(data: st.DataObject) -> None:
    argv = ["serve", "--db", "fuzz.db"]
    for flag in data.draw(st.lists(st.sampled_from(sorted(FLAGS)), max_size=4)):
        argv += [flag, data.draw(FLAGS[flag])]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = PARSER.parse_args(argv)
        except SystemExit as exited:
            usage_error = exited.code
        else:
            usage_error = None
    if usage_error is not None:
        assert usage_error == 2
        assert ": error: " in err.getvalue()
        return
    _check(serve_cmd._config(args))
