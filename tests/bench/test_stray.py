"""Stray presses (bench/bench_stray.py): at every moment of the stories written from the rulebooks, one
click and one held press of each button on the pod of every player with nothing to do change nothing
the rules do not let that player change (a card played at any moment, an annex's income by hand,
counted apart)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_stray  # noqa: E402

STORIES = sorted((ROOT / "bench" / "stories" / "rulebook-actions").glob("*.json"))


def test_every_game_with_a_rulebook_story_is_swept():
    assert {p.stem for p in STORIES} == {"red-dragon-inn", "bloody-inn", "dragon-run", "dale-of-merchants"}


@pytest.mark.parametrize("story", STORIES, ids=lambda p: p.stem)
def test_no_stray_click_on_an_idle_pod_changes_the_game(story):
    figures = bench_stray.sweep(story)
    g = story.stem.replace("-", "_")
    assert figures[f"stray_{g}_clicks"]["value"] > 1000  # every moment, every idle pod, four buttons, two ways
    changes = figures[f"stray_{g}_changes"]
    assert changes["value"] == 0, changes["examples"]


def test_what_the_rules_allow_out_of_turn_stays_possible_from_an_idle_pod():
    """Refusing stray presses must not refuse the rules' own: a card played on another player during a
    last chance («para salvarte o atacar a otros», the Red Dragon Inn: main, then main on its target) and
    an annex's income the device does not work out, added by its owner when it comes (the Bloody Inn:
    select, then up), are still done from an idle pod."""
    rdi = bench_stray.sweep(ROOT / "bench" / "stories" / "rulebook-actions" / "red-dragon-inn.json")
    assert rdi["stray_red_dragon_inn_on_purpose"]["by_kind"].get("main, main → adjust", 0) > 0  # a hit
    bloody = bench_stray.sweep(ROOT / "bench" / "stories" / "rulebook-actions" / "bloody-inn.json")
    assert bloody["stray_bloody_inn_on_purpose"]["by_kind"].get("select, up → adjust", 0) > 0  # an income
    # ... on purpose: a counter changed by hand once chosen with select, a card on another player once its
    # target is asked; one press alone (a click or a press leant on) never does either
    for figures in (rdi, bloody):
        for name, figure in figures.items():
            if name.endswith(("_changes", "_out_of_turn_cards")):
                assert figure["by_kind"] == {}, (name, figure["by_kind"])
