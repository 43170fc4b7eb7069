"""The organiser's part of the league, without a broker: `club void`/`unvoid`/`fix` journaled in the
league's database and followed by the standings and the play's page; the standings exported as CSV
and JSON, per season; the page titled by the league and showing its seasons. (The rules from the
config: test_league_rules.py; the running league following a void through the real Mosquitto:
test_league.py.)"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tablekeeper.ui.cli import main
from tablekeeper.ui.club import contract
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League, _Message, correct_play, stored_corrections, stored_plays
from tablekeeper.ui.club.standings import Scoring, Season
from tablekeeper.ui.club.web import Page, render_front, render_game

from .test_league_rules import local, play, rows


def stored_league(db, plays: list[dict], **kwargs) -> League:
    """A league (not connected: no broker) that stored these plays as if the tables had sent them."""
    lg = League(db, BrokerSettings(client_id="league-organiser-test"), **kwargs)
    lg._store([_Message(contract.topic(contract.DEFAULT_PREFIX, p["table"], contract.PLAYS), contract.encode(p),
                        0, 0, 0) for p in plays])
    assert not lg.dropped and len(lg.plays()) == len(plays)
    return lg


# -- the organiser's corrections -----------------------------------------------------------------------
def three_plays():
    return [play(1, ["Ana", "Ben"], ["Ana"], 1000.0), play(2, ["Ana", "Ben"], ["Ana"], 2000.0),
            play(3, ["Ana", "Ben", "Cai"], ["Cai"], 3000.0)]


def test_void_unvoid_and_fix_change_the_standings_and_each_is_a_row_in_the_journal(tmp_path):
    lg = stored_league(tmp_path / "league.db", three_plays())
    try:
        first, second, _third = (p["id"] for p in lg.plays())
        before = lg.standings()
        assert rows(before)["Ana"]["wins"] == 2

        correct_play(lg.db_path, second, "void", reason="a practice game", who="ines")
        after = lg.standings()
        assert rows(after)["Ana"]["plays"] == 2 and rows(after)["Ana"]["wins"] == 1 and after["plays"] == 2
        assert rows(after)["Ben"]["rating"] != rows(before)["Ben"]["rating"]  # the ratings too
        assert len(lg.plays()) == 3 and len(stored_plays(lg.db_path)) == 3  # the play is kept as sent

        correct_play(lg.db_path, second, "unvoid", who="ines")
        assert lg.standings() == before  # counted again, as before

        state = correct_play(lg.db_path, first, "fix", winners=["Ben"], reason="the score was misread", who="ines")
        fixed = rows(lg.standings())
        assert (fixed["Ana"]["wins"], fixed["Ben"]["wins"], fixed["Ben"]["points"]) == (1, 1, 3)
        assert state["fix"]["winners"] == ["Ben"] and not state["void"]
        correct_play(lg.db_path, first, "fix", winners=["Ana", "Ben"], draw=True, who="ines")
        tied = rows(lg.standings())
        assert (tied["Ana"]["draws"], tied["Ben"]["draws"], tied["Ben"]["points"]) == (1, 1, 1)

        journal = sqlite3.connect(lg.db_path).execute(
            "SELECT play, what, winners, draw, reason, who, at > 0 FROM corrections ORDER BY id").fetchall()
        assert journal == [(second, "void", None, 0, "a practice game", "ines", 1),
                           (second, "unvoid", None, 0, None, "ines", 1),
                           (first, "fix", '["Ben"]', 0, "the score was misread", "ines", 1),
                           (first, "fix", '["Ana", "Ben"]', 1, None, "ines", 1)]
        assert [row["what"] for row in stored_corrections(lg.db_path)[second]["log"]] == ["void", "unvoid"]
    finally:
        lg.close()


@pytest.mark.parametrize("what, kwargs, says", [
    ("void", {"play": 99}, "no finished play 99 in the league"),
    ("unvoid", {}, "play {id} is not void: it counts"),
    ("fix", {"winners": ["Eve"]}, "'Eve' did not play in play {id} (its players: Ana, Ben)"),
    ("fix", {"winners": ["Ana"]}, "play {id} has that result already"),
    ("fix", {"winners": ["Ana"], "draw": True}, "a draw needs two or more winners"),
    ("void", {"reason": "x" * 201}, "the reason must be at most 200 printable characters"),
])
def test_a_correction_that_cannot_be_right_is_refused_and_writes_nothing(tmp_path, what, kwargs, says):
    lg = stored_league(tmp_path / "league.db", three_plays()[:1])
    try:
        pid = kwargs.pop("play", lg.plays()[0]["id"])
        with pytest.raises(Exception, match=says.format(id=pid).replace("(", r"\(").replace(")", r"\)")):
            correct_play(lg.db_path, pid, what, **kwargs)
        assert stored_corrections(lg.db_path) == {}
        correct_play(lg.db_path, lg.plays()[0]["id"], "void")
        with pytest.raises(Exception, match="is void already"):
            correct_play(lg.db_path, lg.plays()[0]["id"], "void")
    finally:
        lg.close()


def test_a_plays_page_says_what_the_organiser_did_and_the_list_marks_it(tmp_path):
    lg = stored_league(tmp_path / "league.db", three_plays())
    try:
        first, second, _third = (p["id"] for p in lg.plays())
        assert "organiser" not in render_game(lg, second)
        correct_play(lg.db_path, second, "void", reason="a practice game", who="ines")
        page = render_game(lg, second)
        assert "voided by the organiser: a practice game" in page and "ines: voided (a practice game)" in page
        assert f"league play {second}" in page
        front = render_front(lg)
        assert f'<li class="void"><a href="/plays/{second}">' in front and "(void)" in front
        correct_play(lg.db_path, second, "unvoid", who="ines")
        page = render_game(lg, second)
        assert "voided by the organiser" not in page and "ines: counted again" in page
        correct_play(lg.db_path, first, "fix", winners=["Ben"], who="ines")
        page = render_game(lg, first)
        assert "result fixed by the organiser: won by Ben; the table sent: won by Ana" in page
        assert "ines: result fixed: won by Ben" in page and '<li class="won"><span>Ben</span>' in page
        assert "(fixed by the organiser)" in render_front(lg)
    finally:
        lg.close()


# -- the commands and the exports ------------------------------------------------------------------
def league_config(tmp_path, extra: str = "") -> str:
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text(f'[league]\npassword = "x"\ndb = "league.db"\nhttp_port = 0\n{extra}\n', encoding="utf-8")
    return str(cfg)


def club(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", "club", *argv])
    said = capsys.readouterr()
    return code, said.out, said.err


def test_club_void_unvoid_and_fix_say_what_the_play_counts_as_and_refuse_in_one_sentence(tmp_path, capsys):
    cfg = league_config(tmp_path)
    code, _out, err = club(capsys, "void", "1", "--config", cfg)
    assert code == 1 and "no league database at" in err
    stored_league(tmp_path / "league.db", three_plays()).close()
    first = stored_plays(tmp_path / "league.db")[0]["id"]
    assert club(capsys, "void", str(first), "--reason", "a practice game", "--config", cfg)[:2] == (
        0, f"play {first} is void: it no longer counts\n")
    assert stored_corrections(tmp_path / "league.db")[first]["reason"] == "a practice game"
    assert club(capsys, "unvoid", str(first), "--config", cfg)[:2] == (0, f"play {first} counts again\n")
    assert club(capsys, "fix", str(first), "--winner", "Ana", "Ben", "--draw", "--config", cfg)[:2] == (
        0, f"play {first} now counts: draw: Ana, Ben\n")
    assert club(capsys, "fix", str(first), "--nobody", "--config", cfg)[:2] == (0, f"play {first} now counts: no winner\n")
    code, out, err = club(capsys, "fix", str(first), "--winner", "Eve", "--config", cfg)
    assert code == 1 and out == "" and err.count("\n") == 1 and f"'Eve' did not play in play {first}" in err
    listed = json.loads(club(capsys, "standings", "--json", "--config", cfg)[1])
    assert listed["plays"] == 3 and rows(listed)["Ana"]["wins"] == 1  # the first play: nobody won


def test_standings_export_as_csv_and_json_parse_back_per_season_with_stable_columns(tmp_path, capsys):
    odd = 'O\'Neil, "Jr" Ñ'  # a comma, quotes and a non-ASCII letter: the csv module quotes them
    cfg = league_config(tmp_path, 'name = "Martes de juegos"\nmin_plays = 2\n'
                                  '[[league.seasons]]\nname = "Otoño, 2026"\nstart = 2026-09-01\nend = 2026-12-31\n')
    stored_league(tmp_path / "league.db", [
        play(1, ["Ana", odd], [odd], local(2026, 8, 20)), play(2, ["Ana", "Ben"], ["Ana"], local(2026, 9, 10)),
        play(3, ["Ana", "Ben"], ["Ana"], local(2026, 9, 11), game="other")]).close()

    code, out, _err = club(capsys, "standings", "--csv", "--config", cfg)
    assert code == 0
    table = list(csv.DictReader(io.StringIO(out)))
    assert list(table[0]) == ["season", "game", "rank", "player", "plays", "wins", "shared", "draws", "points",
                              "rating"]
    overall = [r for r in table if r["game"] == ""]
    assert [(r["player"], r["rank"], r["plays"], r["points"]) for r in overall] == [
        ("Ana", "1", "3", "6"), ("Ben", "2", "2", "0"), (odd, "", "1", "3")]  # the unranked last
    assert {r["game"] for r in table} == {"", "counters", "other"} and {r["season"] for r in table} == {""}
    assert float(overall[0]["rating"]) > 1500

    code, out, _err = club(capsys, "standings", "--csv", "--season", "Otoño, 2026", "--config", cfg)
    season = list(csv.DictReader(io.StringIO(out)))
    assert {r["season"] for r in season} == {"Otoño, 2026"}
    assert {r["player"] for r in season if r["game"] == ""} == {"Ana", "Ben"}  # not August's play

    data = json.loads(club(capsys, "standings", "--json", "--season", "Otoño, 2026", "--config", cfg)[1])
    assert data["league"] == "Martes de juegos" and data["min_plays"] == 2
    assert data["season"] == {"name": "Otoño, 2026", "start": "2026-09-01", "end": "2026-12-31"}
    assert data["points"] == {"win": 3, "shared": 2, "draw": 1, "loss": 0}
    assert [(r["player"], r["rank"], r["plays"]) for r in data["overall"]] == [("Ana", 1, 2), ("Ben", 2, 2)]
    assert set(data["overall"][0]) == set(standings_columns()) - {"season", "game"}
    everyone = json.loads(club(capsys, "standings", "--json", "--config", cfg)[1])
    assert everyone["season"] is None and [r["rank"] for r in everyone["overall"]] == [1, 2, None]

    code, out, _err = club(capsys, "standings", "--season", "Otoño, 2026", "--config", cfg)
    lines = out.splitlines()
    assert lines[:3] == ["Martes de juegos", "season Otoño, 2026: 2026-09-01 to 2026-12-31", "overall"]
    out = club(capsys, "standings", "--config", cfg)[1]
    assert "  not ranked yet: fewer than 2 plays" in out and f"    -  {odd}" in out
    code, _out, err = club(capsys, "standings", "--season", "Invierno", "--config", cfg)
    assert code == 1 and "no season 'Invierno' in" in err and "(its seasons: 'Otoño, 2026')" in err


def standings_columns():
    from tablekeeper.ui.club.cli import CSV_COLUMNS

    return CSV_COLUMNS


# -- the page -----------------------------------------------------------------------------------------
def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_page_is_titled_by_the_league_and_shows_the_current_season_with_links_to_the_others(tmp_path):
    today = dt.date.today()
    now = Season("This one", today - dt.timedelta(days=10), today + dt.timedelta(days=10))
    before = Season("Before", today - dt.timedelta(days=60), today - dt.timedelta(days=30))
    lg = stored_league(tmp_path / "league.db", [
        play(1, ["Ana", "Ben"], ["Ana"], local(*(today - dt.timedelta(days=40)).timetuple()[:3])),
        play(2, ["Cai", "Ben"], ["Cai"], local(*today.timetuple()[:3], 0, 5))], rules=Scoring(min_plays=1))
    page = Page(lg, port=0, name="Martes de juegos", seasons=(before, now)).start()
    try:
        status, body = get(page.url)
        assert status == 200 and "<title>Martes de juegos</title>" in body and "<h1>Martes de juegos</h1>" in body
        assert "Standings · This one" in body and "<td>Cai</td>" in body and "<td>Ana</td>" not in body
        assert '<a href="/seasons/Before">Before</a>' in body and '<a href="/all">all time</a>' in body
        assert "<strong>This one</strong>" in body
        status, body = get(page.url + "seasons/Before")
        assert status == 200 and "Standings · Before" in body and "<td>Ana</td>" in body and "<td>Cai</td>" not in body
        status, body = get(page.url + "all")
        assert status == 200 and "Standings · all time" in body and "<td>Ana</td>" in body and "<td>Cai</td>" in body
        assert get(page.url + "seasons/" + urllib.parse.quote("This one"))[0] == 200
        for path in ("seasons/Nope", "seasons/", "seasons/%ff", "all/x"):
            assert get(page.url + path)[0] == 404, path
    finally:
        page.stop()
        lg.close()
    plain = Page(lg, port=0)  # no name, no seasons: as before
    try:
        assert plain.title == "League" and plain.render("/all")[1] is None
    finally:
        plain.server.server_close()


def test_what_the_organiser_did_reads_in_spanish_on_the_page_and_at_the_command_line(tmp_path, capsys):
    from tablekeeper.ui.i18n import load_catalog

    from .test_club_spanish import english_in

    es = load_catalog("es")
    lg = stored_league(tmp_path / "league.db", three_plays(), rules=Scoring(min_plays=3))
    try:
        first, second, _third = (p["id"] for p in lg.plays())
        correct_play(lg.db_path, second, "void", reason="partida de prueba", who="ines")
        correct_play(lg.db_path, first, "fix", winners=["Ben"], who="ines")
        page = render_game(lg, second, es)
        assert "anulada por la organización: partida de prueba" in page and "ines: anulada (partida de prueba)" in page
        fixed = render_game(lg, first, es)
        assert "resultado corregido por la organización: ganó Ben; la mesa envió: ganó Ana" in fixed
        season = Season("Otoño", dt.date(1969, 12, 31), dt.date(1970, 1, 2))  # the plays' days, in any time zone
        front = render_front(lg, es, season=season, seasons=(season,), min_plays=3)
        assert "Clasificación · Otoño" in front and "todas las temporadas" in front and "(anulada)" in front
        assert "(corregida por la organización)" in render_front(lg, es, min_plays=3)
        assert "sin puesto todavía: menos de 3 partidas" in render_front(lg, es, min_plays=3)
        for html_text in (page, fixed, front):
            assert english_in(html_text, "Ana", "Ben", "Cai", "ines", "Otoño", "mesa-1") == [], html_text
    finally:
        lg.close()
    cfg = league_config(tmp_path)
    assert main(["--lang", "es", "club", "unvoid", str(second), "--config", cfg]) == 0
    assert capsys.readouterr().out == f"la partida {second} vuelve a contar\n"
    assert main(["--lang", "es", "club", "unvoid", str(second), "--config", cfg]) == 1
    assert f"la partida {second} no está anulada: cuenta" in capsys.readouterr().err
