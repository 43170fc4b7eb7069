"""Stray presses (bench/bench_stray.py): at every moment of the stories written from the rulebooks, one
click of each button on the pod of every player with nothing to do changes nothing the rules do not let
that player change (a card played at any moment, an annex's income by hand, counted apart)."""
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
    assert figures[f"stray_{g}_clicks"]["value"] > 500  # every moment, every idle pod, four buttons
    changes = figures[f"stray_{g}_changes"]
    assert changes["value"] == 0, changes["examples"]


def test_a_last_chance_is_ended_by_its_player_only_and_an_idle_night_pod_moves_no_cash():
    """What the sweep found: «tienes una última oportunidad de jugar cartas … para salvarte» — a stray main
    on another pod resolved a player's last chance (the Red Dragon Inn); up or down on the pod of an annex
    owner during another player's night action moved cash (the Bloody Inn). Both are refused now; cards
    played at any moment stay possible and are counted apart."""
    rdi = bench_stray.sweep(ROOT / "bench" / "stories" / "rulebook-actions" / "red-dragon-inn.json")
    assert rdi["stray_red_dragon_inn_out_of_turn_cards"]["by_kind"].get("main → adjust", 0) > 0  # a hit, allowed
    assert "main → resolve" not in rdi["stray_red_dragon_inn_changes"]["by_kind"]
