"""A policy process: ``python -m arena.referee.policy_worker ARENA_PID``.

It builds the policies the arena places in it and keeps each until its match is over.
A decision comes as a bot gets it, a serialized ``ArenaMessage{decide}`` (the game's
wire, which shows the seat only what it may know and reads back the very observation
the referee holds: the conformance kit checks it for every game), and is answered as a
bot answers, a serialized ``BotMessage`` (``arena.sdk.answer``), with the CPU seconds
``choose`` took. One decision at a time, in the order asked (``policy_processes.py``).

Messages come on stdin and go out on the original stdout; anything printed goes to
stderr. It runs at a lower priority than the arena, ignores Ctrl-C (the arena ends it),
and dies with the arena (a parent-death signal, set here).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import time
import traceback
from typing import IO, Any

from arena.league.processes import die_with_parent
from arena.sdk.answer import game_of, not_an_action, read_request, reply
from arena.v1 import bot_pb2

from .policy_processes import NICENESS, frame, read_frame


class _Unbuilt:
    """A policy whose factory could not be loaded or failed: each decision says why."""

    def __init__(self, why: str) -> None:
        self.why = why

    def choose(self, obs: Any) -> Any:
        raise RuntimeError(self.why)


def _failure() -> str:
    return traceback.format_exc(limit=-8).strip()


def _decide(policy: Any, data: bytes) -> tuple[bytes, float]:
    """The reply to one serialized request, and the CPU seconds ``choose`` took."""
    request = bot_pb2.ArenaMessage.FromString(data).decide
    obs = read_request(request)
    started = time.thread_time()
    action = policy.choose(obs)
    cpu_s = time.thread_time() - started
    game = game_of(request)
    try:
        message = reply(request.request_id, obs.legal, action, game)
    except TypeError:
        raise not_an_action(policy, action, game) from None
    return message.SerializeToString(), cpu_s


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer ``requests`` until they end."""
    policies: dict[int, Any] = {}
    while (message := read_frame(requests)) is not None:
        kind = message[0]
        if kind == "choose":
            _, number, key, data = message
            try:
                answer: tuple[Any, ...] = ("chose", number, *_decide(policies[key], data))
            except Exception:
                answer = ("failed", number, _failure())
            answers.write(frame(answer))
            answers.flush()
        elif kind == "new":
            _, key, factory, seed = message
            try:
                policies[key] = pickle.loads(factory)(seed)
            except Exception:
                policies[key] = _Unbuilt(f"the policy could not be built:\n{_failure()}")
        elif kind == "drop":
            policies.pop(message[1], None)
        elif kind == "path":
            sys.path[:] = message[1]  # the arena's: its policies import here too


def main() -> None:
    """Set up the process (see the module), then serve."""
    die_with_parent()
    if len(sys.argv) > 1 and os.getppid() != int(sys.argv[1]):
        sys.exit("arena policy worker: the arena is gone")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
