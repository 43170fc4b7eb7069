"""The table stories written from the rulebooks alone (bench/stories/rulebook/): what the turn-cost
measure is taken on must be what the rulebook describes, so each story is checked as data.

Each is at least three full rounds at four players, every event cites the rulebook (a fragment of
at least 25 characters found word for word in seeds/), and counts its paper with the measure: a
whole number of items moved (a token, a marker however far, a count by hand), never negative.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STORIES = sorted((ROOT / "bench" / "stories" / "rulebook").glob("*.json"))
SEEDS = ROOT.parent / "shared"


def _words(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text).strip().lower()


def test_there_are_stories_for_the_games_with_rulebooks():
    assert {p.stem for p in STORIES} >= {"red-dragon-inn", "bloody-inn", "dragon-run"}


@pytest.mark.parametrize("path", STORIES, ids=lambda p: p.stem)
def test_a_rulebook_story_is_three_rounds_at_four_players_each_event_cited(path):
    story = json.loads(path.read_text(encoding="utf-8"))
    assert story["players"] == ["Ana", "Ben", "Cai", "Dee"]
    events = story["events"]
    turns: dict[str, set[int]] = {}
    for e in events:
        turns.setdefault(e["turn_of"], set()).add(e["round"])
        assert isinstance(e["paper"], int) and e["paper"] >= 0, e
        assert e["who"] and e["kind"] and e["say"], e
    assert all(len(turns.get(p, ())) >= 3 for p in story["players"]), turns
    seed_path = SEEDS / story["source"]
    if not seed_path.exists():
        pytest.skip(f"the rulebook {story['source']} is not beside this checkout")
    seed = _words(seed_path.read_text(encoding="utf-8"))
    uncited = []
    for i, e in enumerate(events):
        fragments = [_words(q) for q in re.split(r"\[…\]|…|\s/\s|\.\.\.", e["rule"])]
        if not any(len(q) >= 25 and q[:40] in seed for q in fragments):
            uncited.append(i)
    assert not uncited, f"events citing nothing found in {story['source']}: {uncited}"
