"""Fuzzing ``arena league``'s arguments in-process: the real parser (``arena.cli``) and
the command's ``run`` up to the validated configuration (the league itself is not
played: ``build_config`` is wrapped to stop there). Arbitrary flags, values and
``--bot`` specs, and league files of any content, end in argparse's usage error, the
command's one-line refusal (exit status 2), or a configuration a league can run."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import build_parser, league_cmd
from arena.league.config import LeagueConfig, build_config

from .leagues import assert_runnable
from .plain import FUZZ, assert_plain

ARG_TEXT = st.text(max_size=16).filter(lambda t: "\x00" not in t)
"""What an argv element can be: any text but NUL (and undecodable bytes, which Python
gives as lone surrogates, below)."""
INT_TEXT = st.one_of(
    st.integers(-3, 40).map(str),
    st.sampled_from(["2147483648", "99999999999999999999", "-0", "0x10", "1e3", " 7", "٣"]),
    ARG_TEXT,
)
FLOAT_TEXT = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "1e309", "0.5", "-1", "0.9999999999999999", "1e-9"]),
    st.floats().map(repr),
    ARG_TEXT,
)
NAMES = st.one_of(
    st.sampled_from(["b1", "b2", "b3", "b4", "b5", "a" * 41, "", "x y", "b1\n", "\udcff"]),
    ARG_TEXT,
)
TARGETS = st.one_of(
    st.sampled_from(
        [
            "random",
            "greedy",
            "127.0.0.1:50061",
            "[::1]:5",
            "tls://127.0.0.1:5",
            "host:99999",
            "host:0",
            "cmd:",
            "cmd:  ",
            "cmd:python bot.py",
            "http://x:1",
            "a:b:c",
        ]
    ),
    ARG_TEXT,
)


@st.composite
def bot_specs(draw: st.DrawFn) -> str:
    """A ``--bot`` value: NAME=TARGET, a bare target, or anything."""
    how = draw(st.integers(0, 9))
    if how == 0:
        return draw(ARG_TEXT)
    if how == 1:
        return draw(TARGETS)
    return f"{draw(NAMES)}={draw(TARGETS)}"


FLAGS: dict[str, st.SearchStrategy[str]] = {
    "--name": NAMES,
    "--game": st.one_of(st.just("abluxxen"), st.just("abluxxen"), st.just("abluxxen"), ARG_TEXT),
    "--preset": st.one_of(st.sampled_from(["amigo", "amigo-expert", "duel"]), ARG_TEXT),
    "--schedule": st.one_of(st.sampled_from(["balanced", "random", "rating"]), ARG_TEXT),
    "--db": st.one_of(st.just("fuzz.db"), ARG_TEXT),
    **dict.fromkeys(
        (
            "--table-size",
            "--matches",
            "--max-matches",
            "--deals",
            "--deadline-ms",
            "--time-bank-ms",
            "--max-strikes",
            "--concurrency",
            "--bot-streams",
            "--seed",
        ),
        INT_TEXT,
    ),
    **dict.fromkeys(("--until-sigma", "--tau", "--draw-probability"), FLOAT_TEXT),
}
SWITCHES = ("--duplicate", "--no-duplicate", "--resume", "--quiet")
FILE_CONTENTS = st.one_of(
    st.sampled_from(
        [
            b"matches = 3\n",
            b'[[bot]]\nname = "t1"\nbuiltin = "random"\n[[bot]]\nname = "t2"\nbuiltin = "greedy"\n',
            b"bot = 5\n",
            b'game = "nope"\n',
            b"game = 7\n",
            b"tau = nan\n",
            b"deals = 1000\n",
            b"\xff\xfe",
        ]
    ),
    st.binary(max_size=40),
)


PARSER = build_parser()
"""The arena command's parser, built once (building it lists the installed games)."""


class BuiltError(Exception):
    """Raised in place of running the league once the configuration is built."""

    def __init__(self, config: LeagueConfig) -> None:
        super().__init__("built")
        self.config = config


def _build_then_stop(file_settings: dict[str, Any], overrides: dict[str, Any]) -> LeagueConfig:
    raise BuiltError(build_config(file_settings, overrides))


@st.composite
def argvs(draw: st.DrawFn, file: Path) -> list[str]:
    argv = ["league"]
    if draw(st.integers(0, 3)) == 0:
        file.write_bytes(draw(FILE_CONTENTS))
        argv.append(str(file))
    elif draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from([str(file.parent), str(file) + ".missing"])))
    if draw(st.integers(0, 3)):  # mostly enough good bots for a table
        argv += [arg for i in range(draw(st.integers(3, 6))) for arg in ("--bot", f"g{i}=random")]
    for _ in range(draw(st.integers(0, 2))):
        argv += ["--bot", draw(bot_specs())]
    if draw(st.integers(0, 3)):
        argv += ["--matches", "2"]
    for flag in draw(st.lists(st.sampled_from(sorted(FLAGS)), max_size=3)):
        argv += [flag, draw(FLAGS[flag])]
    argv += draw(st.lists(st.sampled_from(SWITCHES), max_size=2))
    if draw(st.integers(0, 9)) == 0:
        argv.insert(draw(st.integers(1, len(argv))), draw(ARG_TEXT))  # a stray argument
    return argv


@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_league_arguments_are_refused_plainly_or_make_a_runnable_league(
    tmp_path_factory: Any, data: st.DataObject
) -> None:
    file = Path(tmp_path_factory.getbasetemp()) / "fuzz-league.toml"
    argv = data.draw(argvs(file))
    err = io.StringIO()
    parser = PARSER
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = parser.parse_args(argv)
        except SystemExit as exited:
            usage_error = exited.code
        else:
            usage_error = None
        if usage_error is not None:
            assert usage_error == 2, argv
            assert ": error: " in err.getvalue(), (argv, err.getvalue())  # argparse's usage line
            return
        with mock.patch.object(league_cmd, "build_config", _build_then_stop):
            try:
                status = args.run(args)
            except BuiltError as built:
                assert_runnable(built.config)
                return
    assert status == 2, (argv, status, err.getvalue())
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("arena league: "), lines
    assert_plain(lines[0].removeprefix("arena league: "), where=str(argv), echoed=argv)
