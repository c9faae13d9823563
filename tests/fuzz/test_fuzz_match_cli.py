"""Fuzzing ``arena match``'s arguments in-process, up to the match it would play (the
match itself is not played: ``_play`` is replaced to stop there). Arbitrary limits,
deals, seeds, presets, games and ``--bot`` specs end in argparse's usage error, one
``arena match: ...`` line (exit status 2), or a match whose MatchStart can be sent."""

from __future__ import annotations

import contextlib
import io
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import build_parser, match_cmd
from arena.referee import MatchSpec
from arena.v1 import bot_pb2

from .plain import FUZZ, assert_plain

PARSER = build_parser()
"""The arena command's parser, built once (building it lists the installed games)."""
ARG_TEXT = st.text(max_size=12).filter(lambda t: "\x00" not in t)
NUMBERS = st.one_of(
    st.integers(-3, 8).map(str),
    st.sampled_from(["2147483647", "2147483648", "3000000000", "-2147483649", "10" * 12]),
    ARG_TEXT,
)
BOTS = st.one_of(
    st.sampled_from(["random", "greedy", "a=random", "b=greedy", "c=random", "x=nobot"]),
    ARG_TEXT,
)
FLAGS: dict[str, st.SearchStrategy[str]] = {
    **dict.fromkeys(("--deals", "--deadline-ms", "--time-bank-ms", "--max-strikes"), NUMBERS),
    "--seed": st.one_of(st.integers().map(str), ARG_TEXT),
    "--preset": st.one_of(st.sampled_from(["amigo", "ravensburger-2014", "duel"]), ARG_TEXT),
    "--game": st.one_of(st.just("abluxxen"), st.just("abluxxen"), ARG_TEXT),
}


class PlayedError(Exception):
    """Raised in place of playing the match."""

    def __init__(self, spec: MatchSpec) -> None:
        super().__init__("played")
        self.spec = spec


async def _stop(spec: MatchSpec, *args: Any) -> Any:
    raise PlayedError(spec)


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    argv = ["match", "--bot", "p=random", "--bot", "q=greedy"]
    for _ in range(draw(st.integers(0, 3))):
        argv += ["--bot", draw(BOTS)]
    for flag in draw(st.lists(st.sampled_from(sorted(FLAGS)), max_size=3)):
        argv += [flag, draw(FLAGS[flag])]
    return argv


@settings(FUZZ, max_examples=150)
@given(argv=argvs())
def test_match_arguments_are_refused_plainly_or_make_a_match(argv: list[str]) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
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
        with mock.patch.object(match_cmd, "_play", _stop):
            try:
                status = args.run(args)
            except PlayedError as played:
                spec = played.spec
                start = bot_pb2.MatchStart(  # ValueError if a limit does not fit
                    deadline_ms=spec.deadline_ms,
                    time_bank_ms=spec.time_bank_ms,
                    max_strikes=spec.max_strikes,
                )
                spec.game.wire.fill_start(start, spec.config)
                return
    assert status == 2, (argv, status)
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("arena match: ")
    assert_plain(lines[0].removeprefix("arena match: "), where=str(argv), echoed=argv)
