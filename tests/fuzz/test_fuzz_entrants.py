"""Fuzzing ``--bot`` specs (``arena.cli.entrants``): any text is an entrant with a good
name and a parseable endpoint or one of the game's built-ins, or an EntrantError in
plain words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli.entrants import EntrantError, EntrantSpec, parse_entrant, parse_entrants
from arena.referee.channels import parse_endpoint

from .matches import GAME
from .plain import FUZZ, NAME, assert_plain

BUILTINS = sorted(GAME.policies)
PIECES = st.one_of(
    st.sampled_from(
        [
            "random",
            "greedy",
            "me",
            "=",
            ":",
            "127.0.0.1",
            "[::1]",
            "[::1",
            "localhost",
            ":50061",
            ":0",
            ":65536",
            ":99999999",
            ":٣",
            "tls://",
            "cmd:",
            " ",
            "\n",
            "\udcff",
            "a" * 41,
        ]
    ),
    st.text(max_size=6),
)
SPECS = st.one_of(st.lists(PIECES, max_size=5).map("".join), st.text(max_size=30))


def _assert_entrant(spec: EntrantSpec, text: str) -> None:
    assert NAME.fullmatch(spec.name), (text, spec)
    assert (spec.endpoint is None) != (spec.builtin is None), (text, spec)
    if spec.builtin is not None:
        assert spec.builtin in BUILTINS
    if spec.endpoint is not None:
        host, port = parse_endpoint(spec.endpoint)
        assert host
        assert 1 <= port <= 65535


@settings(FUZZ, max_examples=300)
@given(text=SPECS)
def test_any_bot_spec_is_an_entrant_or_refused(text: str) -> None:
    try:
        spec = parse_entrant(text, BUILTINS)
    except EntrantError as error:
        assert_plain(str(error), where=repr(text), echoed=[text])
        return
    _assert_entrant(spec, text)


@settings(FUZZ, max_examples=100)
@given(texts=st.lists(st.one_of(SPECS, st.sampled_from(["random", "a=random", "a=greedy"]))))
def test_any_bot_specs_are_entrants_with_unique_names_or_refused(texts: list[str]) -> None:
    try:
        specs = parse_entrants(texts, BUILTINS)
    except EntrantError as error:
        assert_plain(str(error), where=repr(texts), echoed=texts)
        return
    assert len({s.name for s in specs}) == len(specs) == len(texts)
    for spec, text in zip(specs, texts, strict=True):
        _assert_entrant(spec, text)
