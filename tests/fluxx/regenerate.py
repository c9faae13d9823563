"""Rewrite the stored Fluxx playthroughs: ``python -m tests.fluxx.regenerate``.

Run it only after a deliberate change of the engine's behaviour, and review the diff.
"""

from __future__ import annotations

from .playthrough import PLAYTHROUGHS, write


def main() -> None:
    for playthrough in PLAYTHROUGHS:
        write(playthrough)
        print(f"wrote {playthrough.path}")


if __name__ == "__main__":
    main()
