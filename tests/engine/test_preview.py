"""One preview for every screen (engine/preview.py): the pods' "OK?" and the dialogs' verdict read the
same answer, and what the device draws is named, never shown as if already rolled."""
from __future__ import annotations

import pytest

from tablekeeper.engine import Match, RuleError, canonical, make_rules
from tablekeeper.engine.preview import Change

HANDS = {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}


def dragon_run(**options) -> Match:
    return Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"], "options": {"hands": HANDS, **options}}))


def test_a_preview_lists_every_counter_an_action_changes_and_touches_nothing():
    m = Match(make_rules({"game": "counters", "players": ["Ana", "Ben"]}))
    before = canonical(m.state)
    pv = m.rules.preview(m.state, {"action": "adjust", "player": "Ben", "counter": "score", "delta": 3})
    assert pv.changes == (Change("Ben", "score", 0, 3),) and pv.decided == () and pv.certain
    assert canonical(m.state) == before


def test_a_refused_action_previews_as_its_refusal():
    m = dragon_run()
    with pytest.raises(RuleError, match="no more treasure cards worth 9"):
        m.rules.preview(m.state, {"action": "hide", "discard": [9]})


def test_what_the_die_decides_is_named_and_only_what_every_roll_gives_is_a_change():
    """«Ocultar: … tira el dado»: a hide's discard is certain, the escape is the die's. With 3 location cards
    left some faces escape (the dragon loses a temper point) and some do not: the temper is uncertain."""
    m = dragon_run()
    m.apply({"action": "adjust", "counter": "dungeon", "delta": -7})
    pv = m.rules.preview(m.state, {"action": "hide", "discard": [1]})
    assert pv.decided == ("roll",)
    assert Change("Ana", "treasure", 6, 5) in pv.changes
    assert (None, "temper") in pv.uncertain and not pv.certain
    assert all(c.counter != "temper" for c in pv.changes)
    rolled = m.rules.preview(m.state, {"action": "hide", "discard": [1], "roll": 9})  # a physical die
    assert rolled.decided == () and rolled.certain
