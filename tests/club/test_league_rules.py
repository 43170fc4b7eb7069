"""The league's rules from its config, pure (on ui/club/standings.py and ui/club/config.py): the points
per result and the minimum plays to be ranked (defaults: today's 3/2/1/0, everyone ranked), the league's
name, seasons as named date ranges whose standings count only their plays; a bad setting is one
sentence naming its key."""
from __future__ import annotations

import datetime as dt
import tomllib

import pytest

from tablekeeper.hardware.errors import ConfigError
from tablekeeper.ui.club import config, standings
from tablekeeper.ui.club.standings import Scoring


def local(y: int, m: int, d: int, hour: int = 12, minute: int = 0) -> float:
    """A time (seconds since 1970) at that local date and hour: the league counts days in local time."""
    return dt.datetime(y, m, d, hour, minute).timestamp()


def play(game_no: int, players: list[str], winners: list[str], finished: float, *, draw: bool = False,
         game: str = "counters", table: str = "mesa-1") -> dict:
    return {"table": table, "journal": "j-1", "game_no": game_no, "game": game, "started": finished - 600,
            "finished": finished, "players": players, "winners": winners, "draw": draw}


def rows(result: dict, key: str = "overall") -> dict[str, dict]:
    return {r["player"]: r for r in result[key]}


# -- points and the minimum plays ----------------------------------------------------------------
def test_points_per_result_come_from_the_config_and_default_to_three_two_one_nothing():
    plays = [play(1, ["Ana", "Ben"], ["Ana"], 10.0),                      # a sole win
             play(2, ["Ana", "Ben", "Cai"], ["Ana", "Ben"], 20.0),        # a shared win
             play(3, ["Ana", "Cai"], ["Ana", "Cai"], 30.0, draw=True),    # a draw
             play(4, ["Ben", "Cai"], [], 40.0)]                           # nobody won
    doc = {"league": {"password": "x", "points": {"win": 10, "shared": 4, "draw": 2, "loss": -1}}}
    custom = config.league_settings(doc).scoring
    assert custom.points == {"win": 10, "shared": 4, "draw": 2, "loss": -1}
    got = rows(standings.standings(plays, scoring=custom))
    assert (got["Ana"]["points"], got["Ben"]["points"], got["Cai"]["points"]) == (10 + 4 + 2, -1 + 4 - 1, -1 + 2 - 1)
    default = config.league_settings({"league": {"password": "x"}}).scoring
    assert default == Scoring() and default.points == standings.POINTS and default.min_plays == 0
    assert standings.standings(plays, scoring=default) == standings.standings(plays)  # today's behaviour
    got = rows(standings.standings(plays))
    assert (got["Ana"]["points"], got["Ben"]["points"], got["Cai"]["points"]) == (3 + 2 + 1, 0 + 2 + 0, 0 + 1 + 0)
    some = config.league_settings({"league": {"password": "x", "points": {"win": 5}}}).scoring
    assert some.points == {"win": 5, "shared": 2, "draw": 1, "loss": 0}  # the others keep their defaults


@pytest.mark.parametrize("league, says", [
    ({"points": {"win": "three"}}, "league.points.win: must be a whole number"),
    ({"points": {"bonus": 1}}, "league.points.bonus: unknown key (keys here: win, shared, draw, loss)"),
    ({"points": 3}, "league.points: must be a table"),
    ({"min_plays": -1}, "league.min_plays: -1 is out of range"),
    ({"name": ""}, "league.name: must be a text of 1 to 60 printable characters"),
    ({"seasons": [{"name": "A", "start": dt.date(2026, 1, 1)}]}, "league.seasons[1]: missing key 'end'"),
    ({"seasons": [{"name": "A", "start": dt.date(2026, 2, 1), "end": dt.date(2026, 1, 1)}]},
     "league.seasons[1].end: 2026-01-01 is before the start, 2026-02-01"),
    ({"seasons": [{"name": "A", "start": "1 Jan", "end": dt.date(2026, 1, 1)}]},
     "league.seasons[1].start: must be a date like 2026-09-01, not '1 Jan'"),
    ({"seasons": [{"name": "A", "start": dt.date(2026, 1, 1), "end": dt.date(2026, 3, 1)},
                  {"name": "B", "start": dt.date(2026, 3, 1), "end": dt.date(2026, 6, 1)}]},
     "league.seasons[2]: 'B' overlaps 'A'"),
    ({"seasons": [{"name": "A", "start": dt.date(2026, 1, 1), "end": dt.date(2026, 3, 1)},
                  {"name": "A", "start": dt.date(2026, 4, 1), "end": dt.date(2026, 6, 1)}]},
     "league.seasons[2].name: 'A' names two seasons"),
    ({"seasons": [{"name": "A", "start": dt.date(2026, 1, 1), "end": dt.date(2026, 3, 1), "k": 2}]},
     "league.seasons[1].k: unknown key"),
])
def test_a_bad_league_setting_is_one_sentence_naming_the_key(league, says):
    with pytest.raises(ConfigError, match="^tablekeeper.toml: " + says.replace("[", r"\[").replace("]", r"\]")
                       .replace("(", r"\(").replace(")", r"\)")):
        config.league_settings({"league": {"password": "x", **league}}, source="tablekeeper.toml")


def test_players_below_the_minimum_plays_are_listed_apart_unranked_overall_and_per_game():
    plays = [play(1, ["Ana", "Ben"], ["Ana"], 10.0), play(2, ["Ana", "Ben"], ["Ben"], 20.0),
             play(3, ["Ana", "Cai"], ["Cai"], 30.0, game="other"),  # Cai: one play, and a win
             play(4, ["Ana", "Ben"], ["Ana"], 40.0)]
    result = standings.standings(plays, scoring=Scoring(min_plays=2))
    overall = result["overall"]
    assert [(r["player"], r["rank"]) for r in overall] == [("Ana", 1), ("Ben", 2), ("Cai", None)]
    assert overall[2]["points"] == 3  # counted, listed after the ranked though Ben has as many points
    assert [(r["player"], r["rank"]) for r in result["games"]["other"]] == [("Cai", None), ("Ana", None)]
    assert [r["rank"] for r in standings.standings(plays)["overall"]] == [1, 2, 3]  # by default: everyone
    settings = config.league_settings({"league": {"password": "x", "min_plays": 2}})
    assert settings.scoring.min_plays == 2


# -- seasons ------------------------------------------------------------------------------------------
SEASONS_TOML = """
[league]
password = "x"
name = "Martes de juegos"

[[league.seasons]]
name = "Otoño 2026"
start = 2026-09-01
end = 2026-12-31

[[league.seasons]]
name = "Primavera 2026"
start = "2026-03-01"
end = "2026-06-30"
"""


def test_seasons_are_named_date_ranges_and_count_only_the_plays_that_finished_in_them():
    settings = config.league_settings(tomllib.loads(SEASONS_TOML))
    assert settings.name == "Martes de juegos"
    spring, autumn = settings.seasons  # in date order
    assert (spring.name, spring.start, spring.end) == ("Primavera 2026", dt.date(2026, 3, 1), dt.date(2026, 6, 30))
    assert settings.season("Otoño 2026") == autumn and settings.season("Invierno") is None
    plays = [play(1, ["Ana", "Ben"], ["Ana"], local(2026, 2, 28, 23, 59)),   # before spring
             play(2, ["Ana", "Ben"], ["Ben"], local(2026, 3, 1, 0, 1)),      # spring's first minute
             play(3, ["Ana", "Ben"], ["Ben"], local(2026, 6, 30, 23, 58)),   # spring's last day
             play(4, ["Ana", "Cai"], ["Cai"], local(2026, 9, 1, 9)),         # autumn
             play(5, ["Ana", "Cai"], ["Ana"], local(2026, 7, 15))]           # between the two
    spring_rows = rows(standings.standings(plays, season=spring))
    assert set(spring_rows) == {"Ana", "Ben"} and spring_rows["Ben"]["wins"] == 2 and spring_rows["Ana"]["plays"] == 2
    assert spring_rows == rows(standings.standings(plays[1:3]))  # ratings as if nothing came before
    autumn_rows = rows(standings.standings(plays, season=autumn))
    assert set(autumn_rows) == {"Ana", "Cai"} and autumn_rows["Cai"]["rating"] == 1516.0  # ratings start afresh
    assert rows(standings.standings(plays))["Ana"]["plays"] == 5  # all time
    assert standings.current_season(settings.seasons, dt.date(2026, 10, 3)) == autumn
    assert standings.current_season(settings.seasons, dt.date(2026, 7, 3)) is None
