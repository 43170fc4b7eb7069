"""The pictures of docs/hardware.md, "The pod's four buttons": real pod screens, made by pressing buttons.

    .venv/bin/python -m tests.hardware.screenshots docs/screenshots

writes ``pod-home.png``, ``pod-offers.png``, ``pod-menu.png``,
``pod-number.png``, ``pod-list.png``, ``pod-preview.png``,
``pod-refused.png`` and the games' own ``pod-rdi-*``, ``pod-bi-*``,
``pod-dale-*`` (and ``pod-dr-*``): each the
128x64 image :func:`~tablekeeper.hardware.render.render` gives the pod,
scaled x3 (nearest neighbour, so every pixel stays a sharp square). Each
scene is a game, a few actions and the button events that lead to the
screen, through the same :class:`~tablekeeper.ui.pod.inputs.SeatControls`
as a real pod. (Here beside the golden screens, not in hardware/: the
scenes name games, and the pods' code never does.)
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from tablekeeper.engine.match import Match
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware.pod import DOWN, HOLD, MAIN, PRESS, RELEASE, SELECT, UP, InputEvent, PodView
from tablekeeper.hardware.render import render
from tablekeeper.ui.pod.inputs import SeatControls, settle

SCALE = 3

#: name → (setup, actions before, [(button, "click"|"hold", times)], message shown)
SCENES: dict[str, tuple[dict, list[dict], list[tuple[str, str, int]], str]] = {
    "home": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"]},
             [{"action": "buy", "to": "Ben"}], [(SELECT, "click", 1)], ""),
    "offers": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"]},
               [{"action": "buy", "to": "Ben"}], [(DOWN, "click", 1)], ""),
    "menu": ({"game": "bloody-inn", "players": ["Ana", "Ben"]}, [{"action": "welcome"}],
             [(SELECT, "hold", 1), (DOWN, "click", 3)], ""),
    "number": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"]},
               [{"action": "buy", "to": "Ben"}],
               [(UP, "click", 1), (MAIN, "click", 1), (UP, "click", 2)], ""),
    "preview": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"]},
                [{"action": "buy", "to": "Ben"}],
                [(UP, "click", 1), (MAIN, "click", 1), (UP, "click", 2), (MAIN, "click", 1), (DOWN, "click", 1),
                 (MAIN, "hold", 1)], ""),
    # The Red Dragon Inn's own flows (docs/games/red-dragon-inn.md)
    "rdi-buy": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai", "Dee"]}, [], [], ""),
    "rdi-hit": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai", "Dee"]}, [],
                [(DOWN, "click", 5)], ""),
    "rdi-chaser": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai", "Dee"]},
                   [{"action": "buy", "to": "Ben"}],
                   [(DOWN, "click", 18), (MAIN, "click", 1), (UP, "click", 4)], ""),
    "rdi-gambling": ({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai", "Dee"]},
                     [{"action": "buy", "to": "Ben"}, {"action": "drink", "drink": "ale"}, {"action": "gamble", "player": "Ben"},
                      {"action": "pass", "player": "Cai"}, {"action": "pass", "player": "Dee"}],
                     [(DOWN, "click", 1)], ""),
    "list": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
              "options": {"decks": ["macaws", "pandas", "raccoons"]}},
             [{"action": "set_market", "values": [3, 2, None, None, None]}],
             [(SELECT, "hold", 1), (DOWN, "click", 1), (MAIN, "click", 1),
              (UP, "click", 3), (SELECT, "click", 1), (UP, "click", 2)], ""),
    "refused": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                 "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                [{"action": "set_market", "values": [3, 2, None, None, None]}],
                [(SELECT, "hold", 1), (DOWN, "click", 1), (MAIN, "click", 1), (UP, "click", 3), (MAIN, "click", 1),
                 (UP, "click", 1), (MAIN, "hold", 1)], "refusal"),
    # The Bloody Inn's own flows (docs/games/bloody-inn.md)
    "bi-welcome": ({"game": "bloody-inn", "players": ["Ana", "Ben"]}, [], [(DOWN, "click", 2)], ""),
    "bi-night": ({"game": "bloody-inn", "players": ["Ana", "Ben"]}, [{"action": "welcome"}],
                 [(DOWN, "click", 4)], ""),
    "bi-kill-room": ({"game": "bloody-inn", "players": ["Ana", "Ben"]}, [{"action": "welcome"}],
                     [(DOWN, "click", 4), (MAIN, "click", 1), (UP, "click", 2)], ""),
    "bi-ways": ({"game": "bloody-inn", "players": ["Ana", "Ben"]},
                [{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}], [(UP, "click", 7)], ""),
    "bi-ways-room": ({"game": "bloody-inn", "players": ["Ana", "Ben"]},
                     [{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}],
                     [(UP, "click", 7), (MAIN, "click", 1), (UP, "click", 1)], ""),
    # Dragon Run's own flows (docs/games/dragon-run.md)
    "dr-deal": ({"game": "dragon-run", "players": ["Ana", "Ben"]}, [],
                [(MAIN, "click", 1), (UP, "click", 4), (SELECT, "click", 1), (UP, "click", 3)], ""),
    "dr-turn": ({"game": "dragon-run", "players": ["Ana", "Ben"]},
                [{"action": "deal", "player": "Ana", "values": [3, 2, 1, 0]},
                 {"action": "deal", "player": "Ben", "values": [4, 2, 1, 1]}], [], ""),
    "dr-treasure": ({"game": "dragon-run", "players": ["Ana", "Ben"]},
                    [{"action": "deal", "player": "Ana", "values": [3, 2, 1, 0]},
                     {"action": "deal", "player": "Ben", "values": [4, 2, 1, 1]}],
                    [(DOWN, "click", 3), (MAIN, "click", 1), (UP, "click", 4)], ""),
    "dr-hand": ({"game": "dragon-run", "players": ["Ana", "Ben"]},
                [{"action": "charge", "location": "treasure_hall", "value": 3, "then": "pass"}], [], ""),
    "dr-count": ({"game": "dragon-run", "players": ["Ana", "Ben"]},
                 [{"action": "charge", "location": "treasure_hall", "value": 3, "then": "pass"},
                  {"action": "adjust", "counter": "temper", "delta": -4},
                  {"action": "charge", "location": "dragon"}],
                 [(MAIN, "click", 1), (UP, "click", 4)], ""),
    # Dale of Merchants' own flows (docs/games/dale-of-merchants.md)
    "dale-buy": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                  "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                 [{"action": "set_market", "values": [3, 2, 2, 4, 5]}], [], ""),
    "dale-buy-new-card": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                           "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                          [{"action": "set_market", "values": [3, 2, 2, 4, 5]}],
                          [(UP, "click", 1)], ""),
    "dale-technique-take": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                             "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                            [{"action": "set_market", "values": [3, 2, 2, 4, 5]}], [(UP, "click", 8)], ""),
    "dale-stack-after-technique": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                                    "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                                   [{"action": "set_market", "values": [3, 2, 2, 4, 5]},
                                    {"action": "technique", "bonus": True, "take": 4}], [], ""),
    "dale-check": ({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                    "options": {"decks": ["macaws", "pandas", "raccoons"]}},
                   [{"action": "set_market", "values": [3, 2, 2, 4, 5]},
                    {"action": "technique", "bonus": True, "take": 4}], [(DOWN, "click", 64)], ""),
}


def _answer(rules, state, action):
    """What the owner would answer (the rules' refusal, if any); the scene's game is kept."""
    if action.get("action") in ("undo", "redo"):
        return state
    return rules.apply(state, rules.prepare(state, action, random.Random(0)))[0]


def scene(name: str, catalog=None) -> PodView:
    """Seat 1's view at the end of scene ``name`` (a refusal the presses met is shown, as the owner would)."""
    setup, actions, presses, shown = SCENES[name]
    rules = make_rules({"options": {}, **setup})
    match = Match(rules)
    for a in actions:
        match.apply(a)
    ctl = SeatControls(1, setup["players"][0])
    message = ""
    for button, gesture, times in presses:
        for _ in range(times):
            kinds = (PRESS, HOLD, RELEASE) if gesture == "hold" else (PRESS, RELEASE)
            for kind in kinds:
                intent = ctl.handle(InputEvent(1, button, kind), rules, match.state)
                said = settle(ctl, intent, rules, match.state, lambda a: _answer(rules, match.state, a))[1]
                message = said[-1] if said else message
    return ctl.view(rules, match.state, message if shown else "", catalog)


def write(folder: Path, catalog=None) -> list[Path]:
    """Every scene as ``pod-<name>.png`` in ``folder``, scaled x3."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in SCENES:
        img = render(scene(name, catalog)).convert("L")
        path = folder / f"pod-{name}.png"
        img.resize((img.width * SCALE, img.height * SCALE), Image.Resampling.NEAREST).save(path, optimize=True)
        out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover - the documented command
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")):
        print(p)
