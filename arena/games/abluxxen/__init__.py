"""Abluxxen: a pure rules engine (RULES.md). No I/O, no clocks, no global random.

Typical use::

    import random
    from arena.games import abluxxen as ab

    state = ab.new_game(ab.make_config(4, "amigo"), random.Random(7))
    while not state.is_over:
        obs = ab.observe(state, state.deciding)
        ab.apply(state, obs.legal[0])
    print(state.result)
"""

# ruff: noqa: E402
from arena import native as _native

# Before any module of this package is imported: a current compiled build goes first
# (hence the imports below this call, and the file-wide noqa for E402).
_native.use_compiled(__name__, __path__)


from .actions import (
    ACTIONS,
    DECK,
    DISCARD,
    LEAVE,
    PASS,
    TAKE,
    TAKE_BACK,
    Action,
    ActionKind,
    DecisionKind,
    IllegalActionError,
    MalformedActionError,
    action_from_json,
    from_code,
    jokers_alone,
    play,
    pool,
    shadow_pick,
)
from .cards import JOKER, NUM_CARDS, VALUE_OF
from .engine import (
    apply,
    apply_unchecked,
    legal_actions,
    new_game,
    new_game_from_decks,
    shuffle_decks,
)
from .observation import Observation, observe
from .options import (
    DEFAULT_PRESET,
    PRESETS,
    GameConfig,
    InvalidOptionsError,
    RuleOptions,
    make_config,
    preset,
)
from .resample import InconsistentObservationError, determinize
from .serialize import GameRecord, record_of, replay, state_from_json, state_to_json
from .state import DealResult, MatchResult, State, card_locations, check_invariants

__all__ = [
    "ACTIONS",
    "DECK",
    "DEFAULT_PRESET",
    "DISCARD",
    "JOKER",
    "LEAVE",
    "NUM_CARDS",
    "PASS",
    "PRESETS",
    "TAKE",
    "TAKE_BACK",
    "VALUE_OF",
    "Action",
    "ActionKind",
    "DealResult",
    "DecisionKind",
    "GameConfig",
    "GameRecord",
    "IllegalActionError",
    "InconsistentObservationError",
    "InvalidOptionsError",
    "MalformedActionError",
    "MatchResult",
    "Observation",
    "RuleOptions",
    "State",
    "action_from_json",
    "apply",
    "apply_unchecked",
    "card_locations",
    "check_invariants",
    "determinize",
    "from_code",
    "jokers_alone",
    "legal_actions",
    "make_config",
    "new_game",
    "new_game_from_decks",
    "observe",
    "play",
    "pool",
    "preset",
    "record_of",
    "replay",
    "shadow_pick",
    "shuffle_decks",
    "state_from_json",
    "state_to_json",
]
