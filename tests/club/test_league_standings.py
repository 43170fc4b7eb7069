"""The league's standings in memory, kept one play at a time: with plays arriving late, taken back and
standing in for each other, with copies of the standings along the way (thinned as they grow), they are
always those computed from scratch over the plays held — all time and per season. (The standings'
rules against an independent computation: test_league.py.)"""
from __future__ import annotations

import datetime as dt
import random

from tablekeeper.ui.club import league as league_module
from tablekeeper.ui.club import standings as scoring
from tablekeeper.ui.club.league import _PlayCache

from .test_league import generated_plays

DAY = 86400.0


def _from_scratch(cache: _PlayCache, season: scoring.Season | None = None) -> dict:
    return scoring.standings(cache.plays, cache.people, cache.rules, season=season, corrections=cache.corrections,
                             rosters=cache.rosters)


def test_standings_kept_one_play_at_a_time_are_those_computed_from_scratch(monkeypatch):
    monkeypatch.setattr(league_module, "MARK_EVERY", 4)
    monkeypatch.setattr(league_module, "MAX_MARKS", 5)  # the copies thinned many times over
    rng = random.Random(11)
    plays = generated_plays(300, seed=3)
    base = dt.datetime(2026, 9, 1).timestamp()
    for p in plays:
        p["finished"] = base + p["finished"] * DAY / 10  # about ten days of plays
    season = scoring.Season("second week", dt.date(2026, 9, 4), dt.date(2026, 9, 8))
    cache = _PlayCache(scoring.Scoring(min_plays=2))
    cache.reset({"Hal": "Gus"}, {}, {"mesa-1": {"Ana": "Ann"}})
    held: list[int] = []
    late = 0
    for gid, play in enumerate(plays, start=1):
        if held and scoring.order_key(play) < scoring.order_key(cache.plays[-1]):
            late += 1
        cache.put(gid, {**play, "identity": f"game-{gid % 280}"})  # a few copies of one play
        held.append(gid)
        if rng.random() < 0.15:
            cache.remove(held.pop(rng.randrange(len(held))))  # an undo took one back
        if gid % 2 == 0:
            assert cache.result() == _from_scratch(cache)
            assert cache.result(season) == _from_scratch(cache, season)
    assert late > 100 and cache.aside  # the cases under test happened
    assert len(cache.builders[None].marks) <= 5
    assert cache.result() == _from_scratch(cache) and cache.result(season) == _from_scratch(cache, season)
