"""Stored Fluxx playthroughs: seeded random matches written as text, one line per decision.

Each file under ``tests/data/fluxx/playthroughs/`` starts with a header line, then has per
decision two lines: ``<step> events seat=<s> <json>`` (the events since that seat's
previous decision, as it may see them: ``events.views``) and ``<step> seat=<s>
legal=<codes> action=<code> obs=<json>`` (the deciding seat's observation, keys sorted);
it ends with one ``final seat=<s>`` line per seat holding that seat's last observation.
``python -m tests.fluxx.regenerate`` rewrites the files after an intended change of the
engine (review the diff).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from arena.games import fluxx as fx
from arena.games.fluxx import events as event_views

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "fluxx" / "playthroughs"
MAX_DECISIONS = 150


@dataclass(frozen=True)
class Playthrough:
    """One seeded random match of one table."""

    name: str
    seed: int
    preset_name: str
    players: int

    @property
    def path(self) -> Path:
        return DATA_DIR / f"{self.name}.txt"

    @property
    def config(self) -> fx.GameConfig:
        return fx.make_config(self.players, self.preset_name)


PLAYTHROUGHS = (
    # Seeds chosen among 200..399 for matches that end within MAX_DECISIONS and meet the
    # most decision kinds.
    Playthrough("pegasus-2011-4p", 204, "pegasus-2011", 4),
    Playthrough("pegasus-2011-escalation-2p", 370, "pegasus-2011-escalation", 2),
    Playthrough("pegasus-2011-no-creepers-6p", 276, "pegasus-2011-no-creepers", 6),
    Playthrough("pegasus-2011-3p", 202, "pegasus-2011", 3),
)


def obs_text(obs: fx.Observation) -> str:
    return json.dumps(obs.to_json(), sort_keys=True)


def render(playthrough: Playthrough) -> list[str]:
    """The lines of a playthrough, computed now by the engine."""
    config = playthrough.config
    state = fx.new_game(config, random.Random(playthrough.seed))
    chooser = random.Random(playthrough.seed + 1)
    header = {
        "playthrough": playthrough.name,
        "seed": playthrough.seed,
        "config": config.to_json(),
        "max_decisions": MAX_DECISIONS,
    }
    lines = [json.dumps(header, sort_keys=True)]
    cursors = [0] * config.players
    for step in range(MAX_DECISIONS):
        if state.is_over:
            break
        seat = state.deciding
        views = event_views.views(state.events, seat, cursors[seat])
        cursors[seat] = len(state.events)
        lines.append(f"{step} events seat={seat} {json.dumps(views, sort_keys=True)}")
        obs = fx.observe(state, seat)
        legal = ",".join(str(a.code) for a in obs.legal)
        action = chooser.choice(obs.legal)
        lines.append(f"{step} seat={seat} legal={legal} action={action.code} obs={obs_text(obs)}")
        fx.apply(state, action, seat)
    for seat in range(config.players):
        lines.append(f"final seat={seat} obs={obs_text(fx.observe(state, seat))}")
    return lines


def write(playthrough: Playthrough) -> None:
    playthrough.path.parent.mkdir(parents=True, exist_ok=True)
    playthrough.path.write_text("\n".join(render(playthrough)) + "\n", encoding="utf-8")
