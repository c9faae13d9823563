"""The Game interface: everything the referee, leagues, store, server, SDK and CLI may
know of a game.

A game is a pure engine (no I/O, no clocks, RNG injected) plus its wire encoding
(``GameWire``), its built-in policies and a few facts as data (presets, table sizes, the
tables ``check-bot`` plays, rating defaults). Callers branch on those facts, never on a
game's name, and never touch its cards, presets or protobuf messages themselves
(OpenSpiel's ``GameType`` carries its facts the same way).

The type parameters are the game's own classes: its configuration, state, observation
and action. The layers above see them as opaque values and use only what this module
declares: an observation's ``seat``, ``legal`` and ``decision``, and a result's
``scores``, ``ranks`` and ``end_reason``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from arena.words import spelled_out

if TYPE_CHECKING:  # annotations only: importing a game's engine needs no protobuf
    from arena.v1 import bot_pb2


class InvalidOptionsError(ValueError):
    """A configuration that the game's rules do not allow (unknown preset or option, a
    table size it does not play); the message says what is allowed."""


class CapabilityMissingError(NotImplementedError):
    """An optional capability (such as ``determinize``) that this game does not offer."""


class Observation(Protocol):
    """What every game's observation offers the layers above: the seat it belongs to,
    the canonical legal actions (empty unless that seat decides) and the pending
    decision kind (an enum member, ``None`` once the match is over)."""

    @property
    def seat(self) -> int:
        """The observing seat."""
        ...

    @property
    def legal(self) -> Sequence[Any]:
        """The canonical legal actions, in the game's canonical order."""
        ...

    @property
    def decision(self) -> Enum | None:
        """The pending decision kind."""
        ...


class GameResult(Protocol):
    """How a match ended, as the layers above read it."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat: the game's score."""
        ...

    @property
    def ranks(self) -> tuple[int, ...]:
        """Per seat: 1 = best; tied seats share a rank."""
        ...

    @property
    def end_reason(self) -> str:
        """Why the match ended, in the game's words."""
        ...


class Policy(Protocol):
    """Observation in, action out. Optional hooks (called when present):
    ``match_start(MatchInfo)`` and ``match_over(MatchEnd)``; no protobuf reaches a
    policy."""

    def choose(self, obs: Any) -> Any:
        """One of ``obs.legal``."""
        ...


PolicyFactory = Callable[[int | None], Policy]
"""Makes a policy from a seed (None: seeded from the system)."""


@dataclass(frozen=True, slots=True)
class RatingDefaults:
    """How a game's ladders should rate by default."""

    draw_probability: float
    """TrueSkill's draw probability: the game's measured rate of tied neighbours."""
    why: str = ""
    """Where the figure comes from (shown in docs and help)."""


ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
ObsT = TypeVar("ObsT", bound=Observation)
ActionT = TypeVar("ActionT")
Deal = tuple[tuple[int, ...], ...]
"""Dealt decks as plain integers (JSON-able): a match made from the same deal at another
table gets the same cards (duplicate deals)."""


class GameWire(ABC, Generic[ConfigT, ObsT, ActionT]):
    """A game's side of the bot contract (``proto/arena/v1/<game>.proto``).

    ``oneof`` names this game's field in every ``oneof`` of ``bot.proto`` (MatchStart's
    rules, DecideRequest's game, BotMessage's choice, MatchOver's result). Requests are
    built from an observation and the seat's events only; never from a state.
    """

    oneof: str

    # The arena's side.
    @abstractmethod
    def fill_start(self, start: bot_pb2.MatchStart, config: ConfigT) -> None:
        """Set this game's rules (and ``deals``, where the game has deals) on ``start``."""

    @abstractmethod
    def decide_request(
        self,
        request_id: int,
        deadline_ms: int,
        time_bank_ms: int,
        obs: ObsT,
        events: Sequence[object],
    ) -> bytes:
        """A serialized ``ArenaMessage{decide}`` for ``obs.seat``; ``events`` are raw
        events since that seat's last request (``Game.events``), which this method shows
        only as the seat may see them."""

    @abstractmethod
    def action_from_reply(self, reply: bot_pb2.BotMessage) -> ActionT:
        """The action spelled out in the reply's game field (raise ValueError, with a
        message for the bot author, if it is malformed)."""

    @abstractmethod
    def fill_over(self, over: bot_pb2.MatchOver, result: GameResult) -> None:
        """Set this game's result on ``over``."""

    # The bot's side (the SDK).
    @abstractmethod
    def config_from_start(self, start: bot_pb2.MatchStart) -> ConfigT:
        """The configuration a MatchStart describes (raise ValueError if it cannot)."""

    @abstractmethod
    def observation_from_request(self, request: bot_pb2.DecideRequest) -> ObsT:
        """The observation in a request, its ``legal`` in the request's order (raise
        ValueError if the request is malformed)."""

    @abstractmethod
    def fill_reply(self, reply: bot_pb2.BotMessage, action: ActionT) -> None:
        """Spell ``action`` out in the reply's game field."""

    @abstractmethod
    def result_from_over(self, over: bot_pb2.MatchOver) -> GameResult:
        """The game's result in a MatchOver (raise ValueError if it has none)."""


@dataclass(frozen=True, slots=True)
class CardPicks:
    """A decision whose choice is a set of cards from the seat's own cards, for a page
    that lets a person tick them and choose once (``Board.card_picks``)."""

    cards: tuple[tuple[str, ...], ...]
    """Per legal action (in the canonical order): the cards it takes, by name, a name
    once per card; ``()`` for an action that is no set of cards (offered as a button)."""
    repeats: int = 1
    """1: one action names all the ticked cards (the ticked names are exactly one
    action's). More: the game asks this decision that many times in a row, one card a
    decision (discarding down to a limit): the person ticks that many at once. 0: any
    number of cards, one a decision, then the one action that is no set of cards ends
    the run (Fluxx's It's Trash Day!: discard any, then DONE)."""


class Board(ABC, Generic[StateT, ObsT, ActionT]):
    """A game's board for the web (``arena/web``): plain JSON view models of one moment
    of a match, and the Jinja template fragment and stylesheet that draw them, shipped
    with the game's package. The web app renders the fragment with autoescaping and the
    view model as ``board``; it knows no key of it.

    Secrecy lives in the signatures: ``seat_view`` gets only the seat's observation and
    the events since the previous step (shown as that seat may see them), so a seat's
    board can hold nothing ``observe`` does not give it; only ``full_view`` (finished
    matches, everything revealed) sees a state. The conformance kit's differential test
    checks ``seat_view`` like the wire's requests."""

    @abstractmethod
    def seat_view(
        self, obs: ObsT, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The board as ``obs.seat`` sees it; ``events`` are raw events since the
        previous step, ``names`` the seats' names (shown as text by the template)."""

    @abstractmethod
    def full_view(
        self, state: StateT, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The board with everything revealed (every hand): finished matches only."""

    def public_view(
        self, state: StateT, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The board as someone at none of the seats sees it while the match is played
        (people following it live): what every seat may see, and nothing that only some
        seats may. ``events`` are every raw event so far. The conformance kit checks it
        does not change when any seat's hidden information is drawn anew."""
        raise CapabilityMissingError(f"{type(self).__name__} offers no public view")

    def action_seen(self, action: ActionT, actor: int, seat: int | None) -> bool:
        """Whether ``seat`` (None: everything revealed) may see which action ``actor``
        took. By default only the actor and the revealed view: a game whose actions are
        all public says so."""
        return seat is None or seat == actor

    def choice_label(self, action: ActionT, obs: ObsT, names: Sequence[str] = ()) -> str:
        """A legal action of ``obs`` in words, for a person choosing it (the human
        seat's buttons, the replay); ``names`` the seats' names, for a choice that names
        a seat ("Give War to seat 2 (greedy)")."""
        return str(action)

    def card_picks(self, obs: ObsT) -> CardPicks | None:
        """How a person picks several cards at once for ``obs``'s decision; None: each
        legal action is a button of its own."""
        return None

    def template(self) -> str:
        """The Jinja source of the board fragment: ``web/board.html`` in the board's
        package (package data)."""
        return _package_file(type(self), "board.html")

    def stylesheet(self) -> str:
        """The fragment's CSS: ``web/board.css`` in the board's package."""
        return _package_file(type(self), "board.css")


def _package_file(board: type, name: str) -> str:
    """``web/NAME`` beside the module that defines ``board``."""
    package = board.__module__.rpartition(".")[0]
    return resources.files(package).joinpath("web", name).read_text(encoding="utf-8")


class Game(ABC, Generic[ConfigT, StateT, ObsT, ActionT]):
    """One game, as every layer above the engines sees it."""

    name: str
    """Registry name, lower case (``--game NAME``, ladders, records)."""
    title: str
    """Display name."""
    presets: tuple[str, ...]
    """Rule presets by name."""
    default_preset: str
    """The preset used when none is named."""
    table_sizes: tuple[int, ...]
    """Numbers of players the game supports."""
    check_tables: tuple[tuple[int, str], ...]
    """(players, preset) tables ``check-bot`` cycles through: together they reach every
    decision kind."""
    wire: GameWire[ConfigT, ObsT, ActionT]
    """The game's protobuf encoding."""
    policies: Mapping[str, PolicyFactory]
    """Built-in in-process policies by name (``random`` at least)."""
    unavailable_policies: Mapping[str, str] = MappingProxyType({})
    """Built-ins other games of the family offer that this one cannot, by name, with
    why (an OpenSpiel game whose hidden state cannot be drawn has no ``ismcts``): a
    request for one is refused with the reason (``policies.registry.missing_builtin``)."""

    has_deals: bool = False
    """Whether a match is several deals (``--deals``) and can replay one deal at other
    tables (duplicate)."""
    vocabulary: tuple[str, ...] = ()
    """Words that name this game's cards and rules (beyond its name, presets and
    messages): the layers above the games never use them (tests/test_game_boundary.py)."""
    board: Board[StateT, ObsT, ActionT] | None = None
    """The game's board for the web (replays and the human seat); None: the web app
    shows its matches as text only."""

    def policy_refusal(self, policy: str, config: ConfigT) -> str | None:
        """Why the built-in ``policy`` cannot sit at the table ``config``, or None: for a
        built-in the game offers at some tables only (OpenSpiel's CFR solves small ones)."""
        return None

    # Configuration.
    @abstractmethod
    def make_config(
        self,
        players: int,
        preset: str | None = None,
        *,
        deals: int = 1,
        duplicate: bool = False,
        **options: Any,
    ) -> ConfigT:
        """A validated configuration; raise InvalidOptionsError saying what is allowed."""

    @abstractmethod
    def config_to_json(self, config: ConfigT) -> dict[str, Any]:
        """The configuration as JSON (in records and the store)."""

    @abstractmethod
    def config_from_json(self, data: dict[str, Any]) -> ConfigT:
        """The inverse of ``config_to_json`` (raise InvalidOptionsError)."""

    @abstractmethod
    def players_of(self, config: ConfigT) -> int:
        """Seats at the table."""

    @abstractmethod
    def preset_of(self, config: ConfigT) -> str:
        """The preset the configuration's rules equal, or ""."""

    # Playing.
    @abstractmethod
    def new_match(self, config: ConfigT, rng: random.Random) -> StateT:
        """A new match, shuffled by ``rng``."""

    @abstractmethod
    def deal(self, config: ConfigT, rng: random.Random) -> Deal:
        """Shuffles for a match, for ``new_match_from_deal`` (duplicate deals)."""

    @abstractmethod
    def new_match_from_deal(self, config: ConfigT, deal: Deal) -> StateT:
        """A new match with the given shuffles."""

    @abstractmethod
    def deciding(self, state: StateT) -> int | None:
        """The seat whose decision it is; None once the match is over."""

    @abstractmethod
    def observe(self, state: StateT, seat: int) -> ObsT:
        """All ``seat`` may know, with its legal actions when it decides: the only way
        hidden state leaves the engine."""

    @abstractmethod
    def apply(self, state: StateT, action: object, seat: int | None = None) -> None:
        """Check ``action`` (raise ValueError for a malformed or illegal one) and apply it."""

    @abstractmethod
    def apply_legal(self, state: StateT, action: ActionT) -> None:
        """Apply an action already known to be in the deciding seat's legal set."""

    @abstractmethod
    def events(self, state: StateT) -> Sequence[object]:
        """Every event so far, in order (raw: only the wire shows them, per seat)."""

    @abstractmethod
    def result(self, state: StateT) -> GameResult | None:
        """The result once the match is over."""

    def fallback(self, obs: ObsT) -> ActionT:
        """The action a faulted or forfeited seat plays: the first canonical legal action."""
        action: ActionT = obs.legal[0]
        return action

    def action_text(self, action: ActionT) -> str:
        """An action in words (fault details, replays)."""
        return str(action)

    def end_words(self, reason: str) -> str:
        """Why a match ended (a ``GameResult.end_reason`` of this game) in words people
        read, for pages ("a hand is empty"); records and APIs keep the identifier. Any
        string is taken: one the game does not know reads as the identifier spelled out
        (``arena.words.spelled_out``)."""
        return spelled_out(reason)

    # JSON and replays.
    @abstractmethod
    def state_to_json(self, state: StateT) -> dict[str, Any]:
        """A state as JSON; ``state_from_json`` gives an equal state back."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> StateT:
        """The inverse of ``state_to_json``."""

    @abstractmethod
    def record_json(self, state: StateT) -> dict[str, Any]:
        """The engine's record of a match (shuffles, actions, events, result): enough to
        replay it exactly."""

    @abstractmethod
    def replay_record(self, record: dict[str, Any]) -> StateT:
        """The final state of a recorded match, replayed from ``record_json`` output."""

    def replay_states(self, record: dict[str, Any]) -> Iterator[tuple[StateT, ActionT | None]]:
        """A recorded match step by step: before each recorded action, the state (one
        object, advanced in place: use it before taking the next step) and that action;
        last the final state and None."""
        raise CapabilityMissingError(f"{self.title} offers no step-by-step replay")

    @abstractmethod
    def replay_text(
        self,
        record: dict[str, Any],
        decisions: Sequence[dict[str, Any]],
        names: Sequence[str],
        seat: int | None,
    ) -> Iterator[str]:
        """A recorded match in words: every event ``seat`` could see (all for None) and
        every decision (``decisions``: the referee's decision lines, with time and fault)."""

    # Ratings.
    @abstractmethod
    def rating_defaults(self, preset: str, players: int) -> RatingDefaults:
        """How this game's ladders of ``preset`` at tables of ``players`` should be rated
        by default (a game whose ranks tie more often at bigger tables, as Fluxx's losers
        do, needs the table size)."""

    # Learning environments (PettingZoo), in OpenSpiel's terms.
    @abstractmethod
    def num_distinct_actions(self, config: ConfigT) -> int:
        """Size of the action space: every action has a code below this."""

    @abstractmethod
    def action_code(self, action: ActionT) -> int:
        """An action's stable integer code."""

    @abstractmethod
    def action_from_code(self, code: int) -> ActionT:
        """The action with this code (raise ValueError)."""

    @abstractmethod
    def observation_tensor_size(self, config: ConfigT) -> int:
        """Length of ``observation_tensor`` for matches of ``config``."""

    @abstractmethod
    def observation_tensor(self, obs: ObsT) -> list[float]:
        """The observation as a flat vector of numbers (same length for a config)."""

    # Hidden information.
    @abstractmethod
    def resample_hidden(self, state: StateT, seat: int, rng: random.Random) -> StateT:
        """A copy of ``state`` in which everything ``seat`` may not know is drawn anew
        (other hands, the deck order, private parts of past events), consistent with
        what it does know. The conformance kit's differential test: the seat's requests
        must not change."""

    def determinize(self, obs: ObsT, rng: random.Random) -> StateT:
        """Optional: a full state consistent with ``obs`` (for search bots)."""
        raise CapabilityMissingError(f"{self.title} offers no determinize")

    # Search (arena/policies/ismcts.py): optional judgements of a match not yet over.
    def playout_view(self, state: StateT, seat: int) -> ObsT:
        """What a search hands the game's playout policy (and reads the legal actions
        from) in the worlds it samples: by default ``observe``. A game whose playout
        policy reads only ``legal`` may give just that and spare the search the cost of
        its views (OpenSpiel's observers cost 20-130 us, its legal actions 1 us)."""
        return self.observe(state, seat)

    def standings(self, state: StateT) -> Sequence[float] | None:
        """Optional: per seat, how well it stands now (higher is better; only the order
        between seats counts), so a search can judge a playout it cuts short. None (the
        default): the game cannot tell before the end, and playouts run to it."""
        return None

    def progress(self, state: StateT) -> tuple[int, int]:
        """Where the match is, for a search that cuts playouts short: (stage, turn).
        A stage is a part of the match judged on its own (a deal): a search does not
        look past the end of the one it started in. Turns count within a stage. The
        default: one stage, turn 0 (needed only with ``standings``)."""
        return (0, 0)
