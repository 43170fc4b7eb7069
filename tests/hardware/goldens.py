"""The golden pod screens: how each is made, and regenerating them.

    .venv/bin/python -m tests.hardware.goldens          # rewrite every golden PNG
    .venv/bin/python -m tests.hardware.goldens counters # only one game's

Each screen is a game, a setup, a few actions, and the seat whose pod is
drawn (through the same pod_view + render as every backend). A game without
an entry in SCREENS gets its start screens (seats 1 and 2) automatically.
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from tablekeeper.engine import Journal, Session, available
from tablekeeper.hardware.pod import PodView
from tablekeeper.hardware.render import render
from tablekeeper.ui.pod.views import pod_view

HERE = Path(__file__).resolve().parent / "golden"
NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]

COUNTERS_OPTIONS = {"counters": [{"name": "life", "start": 20, "out_at": 0}, {"name": "coins", "start": 5}],
                    "table": [{"name": "round", "start": 1}]}

#: name -> (game, options, actions, seat, focus, message)
SCREENS: dict[str, tuple] = {
    "counters-start": ("counters", {}, [], 1, 0, ""),
    "counters-waiting": ("counters", {}, [], 2, 0, ""),
    "counters-life-coins": ("counters", COUNTERS_OPTIONS,
                            [{"action": "adjust", "player": "Ana", "counter": "life", "delta": -3},
                             {"action": "adjust", "player": "Ana", "counter": "coins", "delta": 7}], 1, 0, ""),
    "counters-focus-coins": ("counters", COUNTERS_OPTIONS, [], 2, 1, ""),
    "counters-refused": ("counters", COUNTERS_OPTIONS,
                         [{"action": "adjust", "player": "Ben", "counter": "life", "delta": -20}],
                         2, 0, "Ben is out of the game"),
    "counters-winner": ("counters", COUNTERS_OPTIONS,
                        [{"action": "adjust", "player": "Ben", "counter": "life", "delta": -20},
                         {"action": "adjust", "player": "Cai", "counter": "life", "delta": -20}], 1, 0, ""),
}


def players_for(game_id: str) -> list[str]:
    cls = available()[game_id]
    return NAMES[:max(cls.min_players, min(3, cls.max_players))]


def screens() -> dict[str, tuple]:
    """Every golden screen for the games registered now."""
    out = dict(SCREENS)
    for game_id in sorted(available()):
        if not any(spec[0] == game_id for spec in out.values()):
            out[f"{game_id}-start-seat1"] = (game_id, {}, [], 1, 0, "")
            out[f"{game_id}-start-seat2"] = (game_id, {}, [], 2, 0, "")
    return {name: spec for name, spec in out.items() if spec[0] in available()}


def view_of(spec: tuple) -> PodView:
    game_id, options, actions, seat, focus, message = spec
    with tempfile.TemporaryDirectory() as d:
        journal = Journal(d, durable=False)
        try:
            s = Session.new(journal, game_id, players_for(game_id), options, rng=random.Random(7))
            for a in actions:
                s.apply(a)
            name = s.state["players"][seat - 1]["name"]
            return pod_view(s.rules, s.state, name, focus, message=message)
        finally:
            journal.close()


def path_of(name: str) -> Path:
    return HERE / f"{name}.png"


def main(argv: list[str]) -> int:
    HERE.mkdir(exist_ok=True)
    for name, spec in screens().items():
        if argv and spec[0] not in argv:
            continue
        render(view_of(spec)).save(path_of(name))
        print(f"wrote {path_of(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
