"""Counter icons: every counter of every game has one, and every icon is a real glyph of the shipped font."""
from __future__ import annotations

import pytest
from PIL import ImageFont

from tablekeeper.engine import available
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware import icons
from tablekeeper.hardware.icons import FONT, GENERIC, GLYPHS, icon_for

PLAYERS = {"red-dragon-inn": ["Ana", "Ben", "Cai"], "bloody-inn": ["Ana", "Ben"], "dragon-run": ["Ana", "Ben"],
           "dale-of-merchants": ["Ana", "Ben"], "counters": ["Ana", "Ben"]}


def mask(char: str, size: int = 24) -> bytes:
    m = ImageFont.truetype(FONT, size).getmask(char)
    return bytes(m) + repr(m.size).encode()


def test_every_icon_is_a_glyph_of_the_shipped_font_and_no_two_alike():
    missing = mask("\U000f0000")  # a code point the font has no glyph for
    drawn = {name: mask(ch) for name, ch in GLYPHS.items()}
    assert not [name for name, m in drawn.items() if m == missing]
    assert len(set(drawn.values())) == len(drawn)  # a typo'd code point would repeat another's or the empty one


def test_the_font_ships_with_its_licence():
    from pathlib import Path

    licence = Path(icons.__file__).parent / "fonts" / "LICENSE-FontAwesome.txt"
    assert "SIL OFL 1.1" in licence.read_text() or "SIL Open Font License" in licence.read_text()


@pytest.mark.parametrize("game", sorted(available()))
def test_every_counter_of_every_game_has_its_own_icon(game):
    rules = make_rules({"game": game, "players": PLAYERS.get(game, ["Ana", "Ben"]), "options": {}})
    counters = list(rules.player_counters) + list(rules.table_counters)
    assert counters
    unnamed = [c for c in counters if rules.icons.get(c) not in GLYPHS]
    assert not unnamed, f"{game}: counters without an icon of icons.GLYPHS: {unnamed}"


def test_a_counter_without_an_icon_shows_the_generic_one():
    assert icon_for({"gold": "coins"}, "gold") == GLYPHS["coins"]
    assert icon_for({"gold": "coins"}, "mana") == GLYPHS[GENERIC]
    assert icon_for(None, "gold") == GLYPHS[GENERIC]


def test_the_pod_shows_each_counters_icon_and_never_a_cut_name_beside_one():
    """The pod's small counters: the icon, and the name only if it fits whole; a counter without an
    icon keeps its name, cut with "…" as before."""
    from dataclasses import replace

    from tablekeeper.hardware.render import render, side_label
    from tablekeeper.ui.pod.views import pod_view

    rules = make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"], "options": {}})
    view = pod_view(rules, rules.setup_state(), "Ana")
    assert [c for c, _v in view.counters] == ["fortitude", "alcohol", "gold", "drink me"]
    assert view.icons == (GLYPHS["heart"], GLYPHS["beer-mug-empty"], GLYPHS["coins"], GLYPHS["wine-bottle"])
    assert view.focus_icon == GLYPHS["heart"] and view.other_icons[1] == GLYPHS["coins"]
    assert render(view).tobytes() != render(replace(view, icons=())).tobytes()  # drawn
    assert side_label("fortitude", GLYPHS["heart"], 34) == ""
    assert side_label("gold", GLYPHS["coins"], 34) == "gold"
    assert side_label("fortitude", "", 34) == "fortit…"
