"""Stored playthroughs: seeded random matches written as one text line per decision.

Each file under ``tests/data/engine/playthroughs/`` starts with a header line, then has
per decision one line ``<step> seat=<s> legal=<codes> action=<code> obs=<json>`` (the
deciding seat's observation, keys sorted), and ends with one ``final seat=<s>`` line per
seat holding that seat's last observation. ``python -m tests.engine.regenerate`` rewrites
the files after an intended change of the engine.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from arena.games import abluxxen as ab

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "engine" / "playthroughs"
MAX_DECISIONS = 150


@dataclass(frozen=True)
class Playthrough:
    name: str
    seed: int
    preset_name: str
    players: int

    @property
    def path(self) -> Path:
        return DATA_DIR / f"{self.name}.txt"

    @property
    def config(self) -> ab.GameConfig:
        return ab.make_config(self.players, self.preset_name)


PLAYTHROUGHS = (
    Playthrough("amigo-4p", 101, "amigo", 4),
    Playthrough("amigo-duel-2p", 102, "amigo", 2),
    Playthrough("ravensburger-2014-plain-2p", 103, "ravensburger-2014", 2),
    Playthrough("amigo-expert-3p", 104, "amigo-expert", 3),
)


def obs_text(obs: ab.Observation) -> str:
    return json.dumps(obs.to_json(), sort_keys=True)


def render(playthrough: Playthrough) -> list[str]:
    """The lines of a playthrough, computed now by the engine."""
    config = playthrough.config
    state = ab.new_game(config, random.Random(playthrough.seed))
    chooser = random.Random(playthrough.seed + 1)
    header = {
        "playthrough": playthrough.name,
        "seed": playthrough.seed,
        "config": config.to_json(),
        "max_decisions": MAX_DECISIONS,
    }
    lines = [json.dumps(header, sort_keys=True)]
    for step in range(MAX_DECISIONS):
        if state.is_over:
            break
        seat = state.deciding
        obs = ab.observe(state, seat)
        legal = ",".join(str(a.code) for a in obs.legal)
        action = chooser.choice(obs.legal)
        lines.append(f"{step} seat={seat} legal={legal} action={action.code} obs={obs_text(obs)}")
        ab.apply(state, action)
    for seat in range(config.players):
        lines.append(f"final seat={seat} obs={obs_text(ab.observe(state, seat))}")
    return lines


def write(playthrough: Playthrough) -> None:
    playthrough.path.parent.mkdir(parents=True, exist_ok=True)
    playthrough.path.write_text("\n".join(render(playthrough)) + "\n", encoding="utf-8")
