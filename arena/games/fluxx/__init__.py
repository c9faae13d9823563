"""Fluxx 4.0 (Pegasus 2011): a pure rules engine (FLUXX.md). No I/O, no clocks, no
global random: every shuffle and random pick derives from the match's seed.

Typical use::

    import random
    from arena.games import fluxx

    state = fluxx.new_game(fluxx.make_config(4), random.Random(7))
    while not state.is_over:
        obs = fluxx.observe(state, state.deciding)
        fluxx.apply(state, obs.legal[0], obs.seat)
    print(state.result)
"""

# ruff: noqa: E402
from arena import native as _native

# Before any module of this package is imported: a current compiled build goes first
# (hence the imports below this call, and the file-wide noqa for E402).
_native.use_compiled(__name__, __path__)


from .actions import (
    ACTIONS,
    DISCARD_DEATH,
    DISCARD_LONE_DEATH,
    DONE,
    GET_ON_WITH_IT,
    KEEP,
    KEEP_DEATH,
    LEFT,
    NUM_ACTION_CODES,
    PAY,
    RIGHT,
    STOP,
    Action,
    ActionKind,
    DecisionKind,
    IllegalActionError,
    MalformedActionError,
    action_from_json,
    discard,
    discard_goal,
    exchange,
    fallback,
    from_code,
    give,
    give_war,
    play,
    seat,
    take,
    target,
)
from .cards import BY_KEY, KEYS, NAMES, NUM_CARDS, TYPE_OF, CardType, card_name
from .engine import apply, apply_unchecked, legal_actions, new_game, new_game_from_seed
from .layout import new_game_from_layout
from .legal import legal_for
from .observation import Observation, observe
from .options import (
    DEFAULT_PRESET,
    PRESETS,
    GameConfig,
    InvalidOptionsError,
    RuleOptions,
    make_config,
    preset,
    preset_of,
)
from .resample import InconsistentObservationError, determinize, resample_hidden
from .serialize import GameRecord, record_of, replay, state_from_json, state_to_json
from .state import Result, State, card_locations, check_invariants

__all__ = [
    "ACTIONS",
    "BY_KEY",
    "DEFAULT_PRESET",
    "DISCARD_DEATH",
    "DISCARD_LONE_DEATH",
    "DONE",
    "GET_ON_WITH_IT",
    "KEEP",
    "KEEP_DEATH",
    "KEYS",
    "LEFT",
    "NAMES",
    "NUM_ACTION_CODES",
    "NUM_CARDS",
    "PAY",
    "PRESETS",
    "RIGHT",
    "STOP",
    "TYPE_OF",
    "Action",
    "ActionKind",
    "CardType",
    "DecisionKind",
    "GameConfig",
    "GameRecord",
    "IllegalActionError",
    "InconsistentObservationError",
    "InvalidOptionsError",
    "MalformedActionError",
    "Observation",
    "Result",
    "RuleOptions",
    "State",
    "action_from_json",
    "apply",
    "apply_unchecked",
    "card_locations",
    "card_name",
    "check_invariants",
    "determinize",
    "discard",
    "discard_goal",
    "exchange",
    "fallback",
    "from_code",
    "give",
    "give_war",
    "legal_actions",
    "legal_for",
    "make_config",
    "new_game",
    "new_game_from_layout",
    "new_game_from_seed",
    "observe",
    "play",
    "preset",
    "preset_of",
    "record_of",
    "replay",
    "resample_hidden",
    "seat",
    "state_from_json",
    "state_to_json",
    "take",
    "target",
]
