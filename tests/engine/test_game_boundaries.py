"""A game owns everything about itself: nothing outside its own places names it or its own keys.

A game's own places are its package ``engine/games/<module>/`` and its dialogs in
``ui/games/<module>.py``. Anywhere else in engine/, hardware/ and ui/ a game id or a
game-specific state key is a screen or a core that knows one game: it should ask the
game (``Game.outcome``, ``result_words``, ``result_line``, ``main_counter``,
``starter_hint``, ...). Docs and tests are not scanned.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tablekeeper.engine.registry import KNOWN

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("engine", "hardware", "ui")
SUFFIXES = (".py", ".kv")

#: The games checked (the generic "counters" is too common a word to look for).
GAME_IDS = ("red-dragon-inn", "bloody-inn", "dragon-run", "dale-of-merchants")
#: Keys of one game's state or stored result → that game.
GAME_KEYS = {"dragon_won": "dragon-run"}

#: Where a name may stand outside its game, and why (path relative to the repository): nowhere —
#: engine/registry.py finds the games in engine/games/ by themselves.
ALLOWED: dict[str, str] = {}


def _own_places(game_id: str) -> tuple[str, ...]:
    module = KNOWN[game_id][0]
    return (f"engine/games/{module}/", f"ui/games/{module}.py", f"ui/games/{module}/")


def _pattern(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


NAMES = {name: game for name, game in [*((g, g) for g in GAME_IDS), *GAME_KEYS.items()]}


def strays(folder: str) -> list[str]:
    """Every ``path:line: name`` in ``folder`` where a game or its key is named outside its own places."""
    out = []
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix not in SUFFIXES or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        for name, game in NAMES.items():
            if rel.startswith(_own_places(game)):
                continue
            for m in _pattern(name).finditer(text):
                out.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {name}")
    return out


def test_every_game_checked_is_registered_and_has_its_own_package():
    for game_id in GAME_IDS:
        module = KNOWN[game_id][0]
        assert (ROOT / "engine" / "games" / module / "__init__.py").exists(), game_id
        for part in ("rules.py", "views.py", "words.py"):
            assert (ROOT / "engine" / "games" / module / part).exists(), f"{game_id}: no {part}"
        assert (ROOT / "engine" / "games" / module / "locale" / "es" / f"{game_id}.po").exists(), game_id


@pytest.mark.parametrize("folder", SCANNED)
def test_the_core_the_pods_and_the_screens_never_name_a_game(folder):
    found = strays(folder)
    assert not found, "ask the game instead (engine/game.py's hooks):\n" + "\n".join(found)


def test_the_check_finds_a_game_named_out_of_place(tmp_path, monkeypatch):
    """The scan itself: a screen naming a game or its key is caught, its own dialogs are not."""
    for rel, text in {"ui/screens/x.py": 'if rules.id == "dragon-run" or state["dragon_won"]:\n',
                      "ui/games/dragon_run.py": 'register("dragon-run")\n',
                      "ui/widgets.py": 'LABEL = "red-dragon-inn-ish"  # not an id\n',
                      "engine/games/bloody_inn/views.py": 'x = "dragon-run"\n'}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert strays("ui") == ["ui/screens/x.py:1: dragon-run", "ui/screens/x.py:1: dragon_won"]
    assert strays("engine") == ["engine/games/bloody_inn/views.py:1: dragon-run"]


#: A sixth game in one module, as a contributor would add it under engine/games/ (id "sixth-game").
SIXTH_GAME = (
    "from ..game import Game\n"
    "from ..spec import Counter\n\n\n"
    "class Sixth(Game):\n"
    "    id = 'sixth-game'\n"
    "    title = 'A Sixth Game'\n\n"
    "    def player_counter_specs(self):\n"
    "        return [Counter('points')]\n\n\n"
    "GAME = Sixth\n")


def test_a_new_game_is_found_by_its_own_module_alone(tmp_path, monkeypatch):
    """Adding a game touches only its own modules: a module in engine/games/ exposing GAME is a game."""
    import importlib
    import sys

    from tablekeeper.engine import games, registry

    extra = tmp_path / "sixth_game.py"
    extra.write_text(SIXTH_GAME)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    try:
        fresh = importlib.reload(registry)
        assert fresh.KNOWN["sixth-game"] == ("sixth_game", "A Sixth Game")
        assert fresh.make_rules({"game": "sixth-game", "players": ["Ana"]}).player_counters["points"]
    finally:
        sys.modules.pop("tablekeeper.engine.games.sixth_game", None)
        monkeypatch.undo()
        importlib.reload(registry)
