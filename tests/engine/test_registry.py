"""The registry imports a game when it is asked for: a table of one game loads that game's rules alone.

Each game's package is 0.3-0.4 MB of the app's memory once imported (docs/benchmarks.md); the whole
list (``available``, ``KNOWN``) still imports them all, and a game is still found by being in
``engine/games/`` (test_game_boundaries.py).
"""
from __future__ import annotations

import importlib
import json
import subprocess
import sys

from .test_game_boundaries import SIXTH_GAME

#: A fresh interpreter: what it did, then which game packages are imported.
CHILD = """
import json, sys
step = sys.argv[1]
if step == "engine":
    import tablekeeper.engine
elif step == "one":
    from tablekeeper.engine import make_rules
    make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben"]})
    from tablekeeper.engine.registry import known, module_name, title
    assert known("red-dragon-inn") and module_name("red-dragon-inn") == "red_dragon_inn" and title("red-dragon-inn")
elif step == "unknown":
    from tablekeeper.engine.registry import known, title
    assert not known("no-such-game") and title("no-such-game") is None
elif step == "all":
    from tablekeeper.engine import available, game_class
    game_class("counters")
    available()
print(json.dumps(sorted({m.split(".")[3] for m in sys.modules if m.startswith("tablekeeper.engine.games.")})))
"""


def _games_imported(step: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", CHILD, step], capture_output=True, text=True, check=True,
                         timeout=60)
    return json.loads(out.stdout)


def test_the_engine_imports_no_game_until_one_is_asked_for():
    assert _games_imported("engine") == []


def test_a_game_asked_for_by_id_imports_that_game_alone():
    assert _games_imported("one") == ["red_dragon_inn"]


def test_the_whole_list_imports_every_game():
    # an unknown id has to look through them all to be sure
    every = ["bloody_inn", "counters", "dale_of_merchants", "dragon_run", "red_dragon_inn"]
    assert _games_imported("unknown") == every
    assert _games_imported("all") == every


def test_a_game_whose_package_is_not_named_like_its_id_is_still_found(tmp_path, monkeypatch):
    """The package named like the id is only the first place looked: any module in engine/games/
    exposing GAME is a game, asked for by id before the list is made or after."""
    from tablekeeper.engine import games, registry

    (tmp_path / "sixth_module.py").write_text(SIXTH_GAME)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    try:
        fresh = importlib.reload(registry)
        assert fresh._ALL is None  # nothing listed yet: the id alone finds it
        assert fresh.game_class("sixth-game").title == "A Sixth Game"
        assert fresh.module_name("sixth-game") == "sixth_module"
        assert fresh.KNOWN["sixth-game"] == ("sixth_module", "A Sixth Game")
        assert list(fresh.KNOWN) == list(fresh.available())
    finally:
        sys.modules.pop("tablekeeper.engine.games.sixth_module", None)
        monkeypatch.undo()
        importlib.reload(registry)
