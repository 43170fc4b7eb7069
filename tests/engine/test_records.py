"""Statistics of finished plays, checked against a separate, plain computation over 200 real games.

The games are played through the engine's rules into a real journal (bench/playgen.py); the
expected figures below are computed from what the robot saw at each game's end (the live
session's state), by loops written here without engine/records.py.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine import records as rec

from ..conftest import games

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402

#: 200 in the full suite (``make check`` plays fewer: tests/conftest.py ``games``)
N_GAMES = games(200)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A journal of 200 finished games (and one abandoned), the robot's facts, and the plays read back."""
    folder = tmp_path_factory.mktemp("records")
    journal = Journal(folder, durable=False)
    facts = playgen.generate(journal, N_GAMES, seed=7)
    abandoned = Session.new(journal, "red-dragon-inn", ["Ana", "Ben"])
    abandoned.apply({"action": "adjust", "player": "Ana", "counter": "gold", "delta": -1})
    plays = rec.stored_plays(journal)
    yield journal, facts, plays, abandoned.game_id
    journal.close()


# -- the plain computation -------------------------------------------------------------
def figure(fact, name):
    """Each game's final figure, as its rulebook counts the winner.

    The Red Dragon Inn: gold. The Bloody Inn: «habrá un recuento final: ¡el más rico de los
    posaderos será proclamado victorioso!» (cash, checks at 10F, less unburied corpses).
    Dragon Run: «El superviviente con el tesoro más valioso gana el juego». Dale of Merchants:
    «construyendo 8 pilas» (the stall's stacks).
    """
    state = fact["state"]
    p = next(p for p in state["players"] if p["name"] == name)
    if fact["game"] == "bloody-inn":
        return state["final_count"][name]["total"]
    return p["counters"][{"red-dragon-inn": "gold", "dragon-run": "treasure", "dale-of-merchants": "stall"}[fact["game"]]]


def turns(fact):
    state = fact["state"]
    return state["table"]["round"] if fact["game"] == "bloody-inn" else state["turn"]["number"]


def character(fact, name):
    chars = fact["state"]["players"][fact["players"].index(name)].get("character")
    return chars


def mean(xs):
    return sum(xs) / len(xs)


def by_finish(facts):
    return sorted(facts, key=lambda f: (f["finished"], f["id"]))


def expected_player(facts, name, game):
    rows = [f for f in by_finish(facts) if name in f["players"] and f["game"] == game]
    wins = [name in f["winners"] for f in rows]
    longest = run = 0
    for w in wins:
        run = run + 1 if w else 0
        longest = max(longest, run)
    return {"plays": len(rows), "wins": sum(wins), "win_rate": sum(wins) / len(rows),
            "average_figure": mean([figure(f, name) for f in rows]),
            "average_minutes": mean([(f["finished"] - f["started"]) / 60 for f in rows]),
            "average_turns": mean([turns(f) for f in rows]), "longest_streak": longest, "current_streak": run}


# -- the tests ---------------------------------------------------------------------------
def test_every_finished_game_is_a_play_and_an_abandoned_one_is_not(table):
    journal, facts, plays, abandoned = table
    assert sorted(p.id for p in plays) == sorted(f["id"] for f in facts)
    assert abandoned not in {p.id for p in plays}
    assert len(plays) == N_GAMES


def test_each_play_says_who_sat_where_who_won_and_the_final_figures(table):
    _journal, facts, plays, _ = table
    by_id = {p.id: p for p in plays}
    for f in facts:
        p = by_id[f["id"]]
        assert p.game == f["game"]
        assert [s.name for s in p.seats] == f["players"]
        assert [s.seat for s in p.seats] == list(range(1, len(f["players"]) + 1))
        assert p.winners == f["winners"]
        assert p.draw == (f["draw"] or len(f["winners"]) > 1)  # a shared result: everyone out at once, or a shared win
        assert [s.figure for s in p.seats] == [figure(f, n) for n in f["players"]]
        assert [s.character for s in p.seats] == [character(f, n) for n in f["players"]]
        assert p.turns == turns(f)
        assert p.started == pytest.approx(f["started"]) and p.finished == pytest.approx(f["finished"])


def test_per_player_and_game_figures_match_a_plain_computation(table):
    _journal, facts, plays, _ = table
    stats = rec.player_stats(plays)
    checked = 0
    for name in playgen.NAMES:
        for game in playgen.GAMES:
            if not any(name in f["players"] and f["game"] == game for f in facts):
                assert game not in stats.get(name, {})
                continue
            want = expected_player(facts, name, game)
            got = stats[name][game]
            assert got == pytest.approx(want), (name, game)
            checked += 1
    assert checked >= 20
    # somebody won several in a row, and the streaks are not all trivially 0 or 1
    assert max(s["longest_streak"] for per in stats.values() for s in per.values()) >= 2


def test_all_games_together_count_every_play_and_win(table):
    _journal, facts, plays, _ = table
    stats = rec.player_stats(plays)
    for name in playgen.NAMES:
        rows = [f for f in by_finish(facts) if name in f["players"]]
        assert stats[name]["*"]["plays"] == len(rows)
        assert stats[name]["*"]["wins"] == sum(name in f["winners"] for f in rows)
        assert stats[name]["*"]["average_figure"] is None  # gold and francs do not add up


def test_per_game_figures_match_a_plain_computation(table):
    _journal, facts, plays, _ = table
    stats = rec.game_stats(plays)
    for game in playgen.GAMES:
        rows = [f for f in facts if f["game"] == game]
        g = stats[game]
        assert g["plays"] == len(rows)
        assert g["average_minutes"] == pytest.approx(mean([(f["finished"] - f["started"]) / 60 for f in rows]))
        assert g["average_turns"] == pytest.approx(mean([turns(f) for f in rows]))
        wins = {n: sum(n in f["winners"] for f in rows) for n in playgen.NAMES}
        top = max(wins.values())
        assert g["most_wins"] == {"names": sorted(n for n, w in wins.items() if w == top), "wins": top}
        for seat in range(1, 6):
            sat = [f for f in rows if len(f["players"]) >= seat]
            if not sat:
                assert str(seat) not in g["by_seat"]
                continue
            won = sum(f["players"][seat - 1] in f["winners"] for f in sat)
            assert g["by_seat"][str(seat)] == {"plays": len(sat), "wins": won, "win_rate": pytest.approx(won / len(sat))}
        chars = {}
        for f in rows:
            for n in f["players"]:
                c = character(f, n)
                if c is not None:
                    chars.setdefault(c, []).append(n in f["winners"])
        assert set(g["by_character"]) == set(chars)
        for c, ws in chars.items():
            assert g["by_character"][c]["plays"] == len(ws) and g["by_character"][c]["wins"] == sum(ws)
    # the generated tables had characters in the two games that have them, none in the others
    assert stats["red-dragon-inn"]["by_character"] and stats["dragon-run"]["by_character"]
    assert not stats["bloody-inn"]["by_character"] and not stats["dale-of-merchants"]["by_character"]


@pytest.mark.parametrize("a,b", list(itertools.combinations(playgen.NAMES[:4], 2)))
def test_head_to_head_matches_a_plain_computation(table, a, b):
    _journal, facts, plays, _ = table
    got = rec.head_to_head(plays, a, b)["games"]
    together = [f for f in facts if a in f["players"] and b in f["players"]]
    assert got["*"]["plays"] == len(together)
    assert got["*"]["a_wins"] == sum(a in f["winners"] and b not in f["winners"] for f in together)
    assert got["*"]["b_wins"] == sum(b in f["winners"] and a not in f["winners"] for f in together)
    assert got["*"]["both_won"] == sum(a in f["winners"] and b in f["winners"] for f in together)
    assert got["*"]["neither_won"] == sum(a not in f["winners"] and b not in f["winners"] for f in together)
    assert got["*"]["a_ahead"] == sum(figure(f, a) > figure(f, b) for f in together)
    for game in playgen.GAMES:
        rows = [f for f in together if f["game"] == game]
        assert got.get(game, {"plays": 0})["plays"] == len(rows)


def test_statistics_narrow_to_one_game_and_one_player(table):
    _journal, facts, plays, _ = table
    only = rec.statistics(plays, game="dragon-run", player="Ana")
    rows = [f for f in facts if f["game"] == "dragon-run" and "Ana" in f["players"]]
    assert only["plays"] == len(rows)
    assert list(only["players"]) == ["Ana"]
    assert set(only["players"]["Ana"]) == {"dragon-run", "*"}
    assert set(only["games"]) == {"dragon-run"}
    # by seat (and by character) are about Ana's own seats, not everyone's at her tables
    seats = [s for p in plays if p.game == "dragon-run" for s in p.seats if s.name == "Ana"]
    by_seat = only["games"]["dragon-run"]["by_seat"]
    assert sum(r["plays"] for r in by_seat.values()) == len(seats) == len(rows)
    assert sum(r["wins"] for r in by_seat.values()) == sum(s.win for s in seats)


def test_a_dragon_that_wins_gives_nobody_a_win(tmp_path):
    """Dragon Run: «Todos los Aventureros han sido asesinados por el Dragón. ¡En este evento, el Dragón gana el
    juego!» — a play no player won (both adventurers charge into the dragon until it burns them to ashes)."""
    journal = Journal(tmp_path, durable=False)
    with playgen.fake_clock(1.8e9) as clock:
        s = Session.new(journal, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 3, 2, 0], "Ben": [1, 1, 1, 0]}})
        while not s.state["over"]:
            clock.now += 10
            s.apply({"action": "charge", "player": s.state["turn"]["player"], "location": "dragon"})
    plays = rec.stored_plays(journal)
    journal.close()
    assert [p.game for p in plays] == ["dragon-run"] and not plays[0].winners
    assert [s.win for s in plays[0].seats] == [False, False]


def test_stored_plays_reuse_a_known_summary_and_replay_only_what_changed(table):
    journal, _facts, plays, _ = table
    known = {p.id: p for p in plays}
    stale = plays[0]
    known[stale.id] = rec.Play(stale.id, stale.game, stale.started, stale.finished - 1.0, 0, False, ())
    made = []
    again = rec.stored_plays(journal, known, made.append)
    assert [p.id for p in made] == [stale.id]  # finished at another moment: replayed
    assert again == plays


def test_a_game_whose_last_action_is_undone_stops_being_a_play_until_it_ends_again(tmp_path):
    journal = Journal(tmp_path, durable=False)
    with playgen.fake_clock(1.8e9) as clock:
        s = Session.new(journal, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 3, 2, 0], "Ben": [1, 1, 1, 0]}})
        while not s.state["over"]:
            clock.now += 10
            offers = s.rules.seat_actions(s.state, s.state["turn"]["player"])
            s.apply(offers[0]["action"])
        first = rec.stored_plays(journal)
        assert [p.id for p in first] == [s.game_id]
        clock.now += 10
        s.apply({"action": "undo"})
        assert rec.stored_plays(journal, {p.id: p for p in first}) == []
        clock.now += 10
        s.apply({"action": "redo"})
        again = rec.stored_plays(journal, {p.id: p for p in first})
    assert again[0].finished == first[0].finished + 20
    journal.close()


def test_with_people_renames_and_joins_seats(table):
    _journal, _facts, plays, _ = table
    joined = rec.with_people(plays, lambda n: "Ana" if n in ("Ana", "Ben") else n)
    stats = rec.player_stats(joined)
    before = rec.player_stats(plays)
    assert "Ben" not in stats
    assert stats["Ana"]["*"]["plays"] == before["Ana"]["*"]["plays"] + before["Ben"]["*"]["plays"] - sum(
        1 for p in plays if {"Ana", "Ben"} <= {s.name for s in p.seats})
