"""A game's options say how a setup screen asks for them, so the screen names no game's option."""
from __future__ import annotations

import re
from pathlib import Path

from tablekeeper.engine import available

ROOT = Path(__file__).resolve().parents[2]


def test_who_starts_is_an_option_role_not_a_name():
    starters = {gid: [o.name for o in cls.options_spec if o.role == "starter"] for gid, cls in available().items()}
    assert starters["red-dragon-inn"] == ["first_player"]
    assert starters["bloody-inn"] == ["first"] and starters["dragon-run"] == ["first"]
    assert all(len(names) <= 1 for names in starters.values())


def test_hints_point_at_what_exists_and_presets_are_valid_values():
    for gid, cls in available().items():
        names = {o.name for o in cls.options_spec}
        for o in cls.options_spec:
            if o.pick_from:
                assert o.pick_from in names, (gid, o.name)
            for _label, value in o.presets or ():
                assert o.validate(value) == value, (gid, o.name, value)
            if o.per_player:
                assert all(isinstance(n, str) and n for n in o.per_player), (gid, o.name)
    rdi = {o.name: o for o in available()["red-dragon-inn"].options_spec}
    assert "Serena" in (rdi["characters"].per_player or ())


def test_the_new_game_screen_names_no_games_option():
    """No option of a particular game is named as a string in the new-game screen."""
    source = (ROOT / "ui" / "screens" / "newgame.py").read_text(encoding="utf-8")
    named = set(re.findall(r"[\"']([a-z_]+)[\"']", source))
    assert not named & {"first", "first_player", "decks", "box", "characters", "counters", "hands"}
    assert "KNOWN_CHARACTERS" not in source
