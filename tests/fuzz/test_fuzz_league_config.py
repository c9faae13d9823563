"""Fuzzing the league's settings (``arena.league.config``): ``build_config`` with
arbitrary TOML-like settings (wrong types, unknown keys, huge and negative numbers,
strange strings, nested tables, bot tables of any shape) and flag overrides, and
``load_toml`` with arbitrary file contents. The outcome is a configuration a league can
run, or a LeagueConfigError in plain words."""

from __future__ import annotations

import math
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.league.config import (
    LeagueConfig,
    LeagueConfigError,
    build_config,
    load_toml,
)

from .leagues import assert_runnable
from .plain import FUZZ, assert_plain, words_in

SETTINGS = sorted(f.name for f in fields(LeagueConfig) if f.name != "bots")
HUGE = st.sampled_from([2**31 - 1, 2**31, 2**63, 10**30, -(2**63), -1, 0])
INTS = st.one_of(st.integers(-5, 70), HUGE)
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 0.5, 0.999999, 1.0, 1e-300, 1e300, math.nan, math.inf]),
)
STRINGS = st.one_of(
    st.sampled_from(
        ["", " ", "random", "greedy", "abluxxen", "amigo", "ravensburger-2014", "rating",
         "balanced", "127.0.0.1:50061", "tls://127.0.0.1:1", "b1\n", "a" * 41, "x=y", "\x00"]
    ),
    st.text(max_size=20),
)  # fmt: skip
TOML_SCALARS = st.one_of(
    st.booleans(),
    INTS,
    FLOATS,
    STRINGS,
    st.datetimes(),
    st.dates(),
    st.times(),
)
TOML_VALUES = st.recursive(
    TOML_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(STRINGS, inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any value a TOML file can hold (nested tables and arrays included)."""


def _good_bots(n: int) -> list[dict[str, Any]]:
    return [{"name": f"b{i}", "builtin": "random"} for i in range(n)]


@st.composite
def bot_tables(draw: st.DrawFn) -> Any:
    """``[[bot]]`` tables: mostly of the right shape, with values of any type."""
    if draw(st.integers(0, 9)) == 0:
        return draw(TOML_VALUES)  # bot = 5, bot = "x", [bot] ...
    bots: list[Any] = _good_bots(draw(st.integers(0, 5)))
    for _ in range(draw(st.integers(0, 3))):
        table: dict[str, Any] = {}
        for key in draw(st.lists(st.sampled_from(["name", "endpoint", "command", "builtin"]))):
            table[key] = draw(st.one_of(STRINGS, TOML_VALUES))
        if draw(st.integers(0, 4)) == 0:
            table[draw(STRINGS)] = draw(TOML_VALUES)
        bots.insert(draw(st.integers(0, len(bots))), table)
    if draw(st.integers(0, 9)) == 0:
        bots.append(draw(TOML_VALUES))
    return bots


@st.composite
def setting_values(draw: st.DrawFn, key: str) -> Any:
    """A value for a known setting: mostly of its type, sometimes of any."""
    if draw(st.integers(0, 3)) == 0:
        return draw(TOML_VALUES)
    kind = str(next(f.type for f in fields(LeagueConfig) if f.name == key))
    if "int" in kind:
        return draw(INTS)
    if kind == "float":
        return draw(st.one_of(FLOATS, INTS))
    if kind == "bool":
        return draw(st.booleans())
    return draw(STRINGS)


@st.composite
def file_settings(draw: st.DrawFn) -> dict[str, Any]:
    """A league file's settings."""
    data: dict[str, Any] = {"matches": 3}
    for key in draw(st.lists(st.sampled_from(SETTINGS), max_size=6)):
        data[key] = draw(setting_values(key))
    if draw(st.integers(0, 5)) == 0:
        data[draw(STRINGS)] = draw(TOML_VALUES)  # an unknown key
    if draw(st.integers(0, 5)):
        data["bot"] = draw(bot_tables())
    return data


@st.composite
def overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Flags as the CLI gives them: None for those not given, else of the flag's type."""
    out: dict[str, Any] = dict.fromkeys(SETTINGS)
    for key in draw(st.lists(st.sampled_from(SETTINGS), max_size=4)):
        if key == "duplicate":
            out[key] = draw(st.booleans())
        else:
            kind = str(next(f.type for f in fields(LeagueConfig) if f.name == key))
            out[key] = draw(INTS if "int" in kind else FLOATS if kind == "float" else STRINGS)
    out["bots"] = []
    return out


def _check(file: dict[str, Any], flags: dict[str, Any]) -> None:
    try:
        config = build_config(file, flags)
    except LeagueConfigError as error:
        assert_plain(str(error), where="LeagueConfigError", echoed=words_in([file, flags]))
        return
    assert_runnable(config)


@settings(FUZZ, max_examples=250)
@given(file=file_settings(), flags=overrides())
def test_any_settings_build_a_runnable_league_or_say_why(
    file: dict[str, Any], flags: dict[str, Any]
) -> None:
    _check(file, flags)


@settings(FUZZ, max_examples=100)
@given(data=st.dictionaries(STRINGS, TOML_VALUES, max_size=5))
def test_any_table_is_settings_or_refused(data: dict[str, Any]) -> None:
    _check(data, {})


@pytest.mark.parametrize("key", SETTINGS)
@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_each_setting_on_a_good_league(key: str, data: st.DataObject) -> None:
    """Every setting, one at a time, on a league that is fine otherwise."""
    _check({"matches": 3, "bot": _good_bots(8), key: data.draw(setting_values(key))}, {})


CONTENTS = st.one_of(
    st.binary(max_size=80),
    st.text(max_size=80).map(str.encode),
    st.sampled_from(
        [
            b'matches = 3\n[[bot]]\nname = "a"\n',
            b"\xff\xfe",
            b"x = \xc3\x28",
            b"[bot]\nname = 1\n",
            b"a = [1, [2, [3]]]\nb = {c = 1}\n",
            b"seed = 99999999999999999999999999\n",
            b"tau = nan\ndeals = inf\n",
            b"t = 1979-05-27T07:32:00Z\n",
            b"a = " + b"[" * 2000 + b"]" * 2000,
            b"a = " + b"{b = " * 2000 + b"1" + b"}" * 2000,
        ]
    ),
)


@settings(FUZZ, max_examples=100)
@given(content=CONTENTS)
def test_any_league_file_is_read_or_refused(tmp_path_factory: Any, content: bytes) -> None:
    path = Path(tmp_path_factory.getbasetemp()) / "fuzz-league-file.toml"
    path.write_bytes(content)
    try:
        data = load_toml(path)
    except LeagueConfigError as error:
        assert_plain(str(error), where="load_toml")
        return
    assert isinstance(data, dict)
    _check(data, {})


def test_a_league_file_that_is_a_directory_or_missing_is_refused(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "missing.toml"):
        try:
            load_toml(path)
        except LeagueConfigError as error:
            assert_plain(str(error))
        else:
            raise AssertionError(f"{path} was read")


def test_a_setting_named_like_a_class_is_the_users_word() -> None:
    """Hypothesis once named a setting "AError": the refusal quotes it, and that is the
    user's word, not a class name leaking (the check failed on it once)."""
    _check({"AError": 1}, {})
    with pytest.raises(AssertionError):
        assert_plain("unknown setting 'AError'; see KeyError", echoed=["AError"])
