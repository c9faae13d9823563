"""Serve a Python policy as an arena bot (docs/bot-protocol.md has the whole contract).

A complete bot, ``my_bot.py``, run as ``python my_bot.py --port 50061``::

    from arena.games.abluxxen import Action, DecisionKind, Observation
    from arena.sdk import BotInfo, run_bot


    class BiggestSet:
        \"\"\"Plays its biggest set (jokers kept), takes the first choice otherwise.\"\"\"

        def choose(self, obs: Observation) -> Action:
            if obs.decision is DecisionKind.PLAY:
                return max(obs.legal, key=lambda a: (a.naturals, -a.jokers, a.value))
            return obs.legal[0]


    if __name__ == "__main__":
        run_bot(BiggestSet, info=BotInfo(name="biggest-set", version="1.0"))

``run_bot`` makes a fresh policy (``BiggestSet()``) for every match, answers each
decision with the index of the chosen action in the legal list, runs ``choose`` in a
worker thread (or on the event loop once it has proved quick), prints
``arena-bot listening on HOST:PORT`` and serves until SIGTERM or SIGINT.
``create_server`` does the same inside a running event loop (for tests), and
``run_servicer``/``start_server`` serve a hand-written ``BotServicer``.
"""

from .answer import BadChoiceError, BadRequestError, decide, read_request, reply
from .info import BotInfo
from .runner import LISTENING, bot_arg_parser, run_bot, run_servicer, serve
from .server import BOT_SERVICE, create_server, host_port, start_server
from .servicer import PolicyFactory, PolicyServicer

__all__ = [
    "BOT_SERVICE",
    "LISTENING",
    "BadChoiceError",
    "BadRequestError",
    "BotInfo",
    "PolicyFactory",
    "PolicyServicer",
    "bot_arg_parser",
    "create_server",
    "decide",
    "host_port",
    "read_request",
    "reply",
    "run_bot",
    "run_servicer",
    "serve",
    "start_server",
]
