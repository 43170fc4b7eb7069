"""Every offer a game makes is an :class:`~tablekeeper.engine.game.Offer`: its label and a complete action of
the game, what it asks a declared field of that action, its flags true or false — checked at every moment of
the rulebook stories (the offers the pods, the touchscreen's player cards and the robot read)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Required, get_origin, get_type_hints

import pytest

from tablekeeper.engine.game import Offer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import stories as st  # noqa: E402

STORIES = sorted((ROOT / "bench" / "stories" / "rulebook-actions").glob("*.json"))
FLAGS = ("repeat", "guarded", "confirm")
HINTS = get_type_hints(Offer, include_extras=True)
REQUIRED = [k for k, hint in HINTS.items() if get_origin(hint) is Required]


def wrong(rules, offer) -> list[str]:
    """What is wrong with one offer (nothing: an empty list)."""
    out = [f"unknown key {k!r}" for k in offer if k not in HINTS]
    out += [f"no {k!r}" for k in REQUIRED if k not in offer]
    if not isinstance(offer.get("label"), str) or not offer.get("label"):
        out.append("a label that is not a word or sentence")
    action = offer.get("action")
    info = rules.actions.get(action.get("action")) if isinstance(action, dict) else None
    if info is None:
        return out + [f"not an action of the game: {action!r}"]
    declared = {f.name for f in info.fields}
    out += [f"asks {name!r}, not a field of {info.name}" for name in offer.get("ask", ()) if name not in declared]
    out += [f"{flag} is {offer[flag]!r}" for flag in FLAGS if flag in offer and not isinstance(offer[flag], bool)]
    return out


@pytest.mark.parametrize("path", STORIES, ids=lambda p: p.stem)
def test_every_offer_of_a_story_is_an_offer(path):
    story = st.load(path)
    rules = st.rules_of(story)
    played = st.play(story)
    states = [played[0][1]] + [after for _e, _b, after in played]
    seen, bad = 0, {}
    for state in states:
        for p in state["players"]:
            for offer in rules.seat_actions(state, p["name"]):
                seen += 1
                problems = wrong(rules, offer)
                if problems:
                    bad[str(offer.get("label"))] = problems
    assert seen > 100 and not bad, bad


def test_a_misshapen_offer_is_told_apart():
    story = st.load(STORIES[0])
    rules = st.rules_of(story)
    name = next(iter(rules.actions))
    assert wrong(rules, {"label": "x", "action": {"action": name}}) == []
    assert wrong(rules, {"label": "x", "action": {"action": name}, "asks": ["room"]}) == ["unknown key 'asks'"]
    assert wrong(rules, {"action": {"action": name}, "ask": ["nowhere"], "repeat": 1}) == [
        "no 'label'", "a label that is not a word or sentence", f"asks 'nowhere', not a field of {name}",
        "repeat is 1"]
    assert wrong(rules, {"label": "x", "action": {"action": "fly"}}) == ["not an action of the game: {'action': 'fly'}"]
    assert REQUIRED == ["label", "action"]
