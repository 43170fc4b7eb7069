"""Play records out: `tablekeeper export` (CSV, JSON, BoardGameGeek's plays XML) read back as they
were written, files written whole or not at all, `tablekeeper stats` and `players` on a real journal."""
from __future__ import annotations

import csv
import errno
import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine import records as rec
from tablekeeper.engine import roster as people
from tablekeeper.engine.journal import FILENAME
from tablekeeper.hardware import config as hw_config
from tablekeeper.ui import playlog
from tablekeeper.ui.cli import main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """30 real games; Ana renamed "Ana María" in the roster."""
    folder = tmp_path_factory.mktemp("playlog")
    with Journal(folder, durable=False) as j:
        playgen.generate(j, 30, seed=11)
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        roster.update("Ben", bgg_user="ben_plays")
        people.save(j, roster)
    return folder / FILENAME


@pytest.fixture
def state(template, tmp_path, monkeypatch):
    d = tmp_path / "state"
    d.mkdir()
    shutil.copyfile(template, d / FILENAME)
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    return d


def expected(state) -> list[rec.Play]:
    with Journal(state) as j:
        roster, _ = people.load(j)
        return rec.with_people(rec.stored_plays(j), roster.person_of)


def tk(state, *args) -> int:
    return main(["--state-dir", str(state), *args])


# -- round trips -------------------------------------------------------------------------
def test_json_export_reads_back_as_the_same_plays_under_the_peoples_names(state, tmp_path, capsys):
    out = tmp_path / "plays.json"
    assert tk(state, "export", "--json", str(out)) == 0
    assert "30 plays written" in capsys.readouterr().out
    plays = playlog.read_json(out.read_text(encoding="utf-8"))
    assert plays == expected(state)
    names = {s.name for p in plays for s in p.seats}
    assert "Ana María" in names and "Ana" not in names
    doc = json.loads(out.read_text(encoding="utf-8"))
    ana = next(s for p in doc["plays"] for s in p["seats"] if s["name"] == "Ana María")
    assert ana["stored_name"] == "Ana"  # the journal's own name is kept beside the person's


def test_csv_export_has_one_row_per_player_per_play_and_reads_back(state, tmp_path):
    out = tmp_path / "plays.csv"
    assert tk(state, "export", "--csv", str(out)) == 0
    text = out.read_text(encoding="utf-8")
    want = expected(state)
    assert len(text.splitlines()) == 1 + sum(len(p.seats) for p in want)
    got = sorted(playlog.read_csv(text), key=lambda p: (p.finished, p.id))
    assert [(p.id, p.game, p.turns, p.draw, p.seats) for p in got] == \
        [(p.id, p.game, p.turns, p.draw, p.seats) for p in want]
    for g, w in zip(got, want):  # times to the millisecond
        assert abs(g.started - w.started) < 1e-3 and abs(g.finished - w.finished) < 1e-3


def test_a_shared_victory_is_exported_as_a_draw_and_a_single_winner_is_not(tmp_path, monkeypatch):
    """docs/records.md: "draw" is 1 for a shared victory. The Bloody Inn's tie option "shared" (its
    default) makes Ana and Ben win together at the final count; "most_cash" gives Ben alone."""
    from tablekeeper.engine import Session

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    folder = tmp_path / "state"
    with Journal(folder) as j:
        for tie in ("shared", "most_cash"):
            s = Session.new(j, "bloody-inn", ["Ana", "Ben"], {"tie": tie})
            for a in ({"action": "adjust", "player": "Ana", "counter": "checks", "delta": 1},
                      {"action": "adjust", "player": "Ben", "counter": "cash", "delta": 10},
                      {"action": "adjust", "counter": "season", "delta": 1}, {"action": "correct", "entrance": 1},
                      {"action": "welcome"}, {"action": "resolve"}):
                s.apply(a)
            assert s.state["over"]
    out = tmp_path / "plays.csv"
    assert tk(folder, "export", "--csv", str(out)) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    by_play = {r["play"]: (r["draw"], sorted(x["player"] for x in rows if x["play"] == r["play"] and x["win"] == "1"))
               for r in rows}
    assert sorted(by_play.values()) == [("0", ["Ben"]), ("1", ["Ana", "Ben"])]


def test_counters_kept_for_another_game_are_exported_as_that_game(tmp_path, monkeypatch, capsys):
    """A play of Catan kept on counters (the options ``title`` and ``bgg_id``) is a play of Catan in the
    records and in every export; counters without a title stay "Counters"."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    folder = tmp_path / "state"
    race = [{"name": "points", "target": 2}]
    with Journal(folder) as j:
        for options in ({"counters": race, "title": "Catan", "bgg_id": 13}, {"counters": race}):
            s = Session.new(j, "counters", ["Ana", "Ben"], options)
            for _ in range(2):
                s.apply({"action": "adjust", "player": "Ana", "counter": "points", "delta": 1})
            assert s.state["over"]
        plays = rec.stored_plays(j)
    assert [(p.title, p.bgg_id) for p in plays] == [("Catan", 13), (None, None)]
    assert rec.Play.from_row(plays[0].to_row()) == plays[0] and rec.Play.from_dict(plays[0].to_dict()) == plays[0]
    out = tmp_path / "plays"
    out.mkdir()
    for kind in ("csv", "json", "bgg"):
        assert tk(folder, "export", f"--{kind}", str(out / kind)) == 0
    rows = list(csv.DictReader(io.StringIO((out / "csv").read_text(encoding="utf-8"))))
    assert [(r["game"], r["title"], r["bgg_id"]) for r in rows if r["player"] == "Ana"] == [
        ("counters", "Catan", "13"), ("counters", "Counters", "")]
    assert [(p.title, p.bgg_id) for p in playlog.read_csv((out / "csv").read_text(encoding="utf-8"))] == [
        ("Catan", 13), (None, None)]
    doc = json.loads((out / "json").read_text(encoding="utf-8"))
    assert [(p["title"], p["bgg_id"]) for p in doc["plays"]] == [("Catan", 13), ("Counters", None)]
    assert [(p.title, p.bgg_id) for p in playlog.read_json((out / "json").read_text(encoding="utf-8"))] == [
        ("Catan", 13), (None, None)]
    items = [(i.get("name"), i.get("objectid")) for i in ET.parse(out / "bgg").getroot().iter("item")]
    assert items == [("Catan", "13"), ("Counters", "")]
    err = capsys.readouterr().err
    assert "no BoardGameGeek id for counters" in err and "Catan" not in err


def test_a_title_that_is_not_one_line_is_refused_at_setup():
    from tablekeeper.engine.errors import SetupError
    from tablekeeper.engine.registry import make_rules

    with pytest.raises(SetupError, match="title"):
        make_rules({"game": "counters", "players": ["Ana", "Ben"], "options": {"title": "Catan\n=1+1"}})


def test_bgg_export_follows_the_plays_xml_and_reads_back(state, tmp_path, capsys):
    out = tmp_path / "plays.xml"
    assert tk(state, "export", "--bgg", str(out), "--location", "Casa de Ana") == 0
    assert "no BoardGameGeek id for dragon-run" in capsys.readouterr().err
    root = ET.parse(out).getroot()
    assert root.tag == "plays" and root.get("total") == "30"
    first = root.find("play")
    assert set(first.attrib) >= {"id", "date", "quantity", "length", "incomplete", "nowinstats", "location"}
    assert first.find("item").get("objecttype") == "thing"
    assert set(first.find("players/player").attrib) >= {"username", "name", "startposition", "score", "new",
                                                        "win"}
    ids = playlog.bgg_ids()
    back = {p["id"]: p for p in playlog.read_bgg(out.read_text(encoding="utf-8"), ids)}
    want = expected(state)
    assert set(back) == {p.id for p in want}
    seen = set()
    for p in want:
        b = back[p.id]
        assert b["game"] == (p.game if ids[p.game] else None)
        assert b["minutes"] == round(p.minutes) and b["location"] == "Casa de Ana"
        assert [(x["name"], x["seat"], x["score"], x["win"]) for x in b["players"]] == \
            [(s.name, s.seat, s.figure, s.win) for s in p.seats]
        for x in b["players"]:  # "new": the person's first play of that game, and only that one
            assert x["new"] == ((p.game, x["name"]) not in seen)
            seen.add((p.game, x["name"]))
        assert [x["username"] for x in b["players"]] == ["ben_plays" if s.name == "Ben" else "" for s in p.seats]


def test_the_config_file_gives_a_bgg_id_and_the_pods_config_still_reads(state, tmp_path, monkeypatch):
    config = tmp_path / "tablekeeper.toml"
    config.write_text('[app.bgg]\n"dragon-run" = 123456\n"red-dragon-inn" = 7\n', encoding="utf-8")
    hw_config.load(config)  # the pods' reader accepts the [app] table
    monkeypatch.setenv("TABLEKEEPER_CONFIG", str(config))
    out = tmp_path / "plays.xml"
    assert tk(state, "export", "--bgg", str(out)) == 0
    items = {i.get("name"): i.get("objectid") for i in ET.parse(out).getroot().iter("item")}
    assert items["Dragon Run"] == "123456" and items["The Red Dragon Inn"] == "7"
    assert items["The Bloody Inn"] == "180593"  # the definition's own, where the config says nothing


def test_an_export_narrows_to_a_game_and_a_person(state, tmp_path):
    out = tmp_path / "plays.json"
    assert tk(state, "export", "--json", str(out), "--game", "bloody-inn", "--player", "Ana") == 0
    plays = playlog.read_json(out.read_text(encoding="utf-8"))
    assert plays and all(p.game == "bloody-inn" and "Ana María" in {s.name for s in p.seats} for p in plays)


# -- a stick pulled mid-export -----------------------------------------------------------
def _fail_halfway(monkeypatch):
    real = os.write
    calls = []

    def write(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, bytes(data[:len(data) // 2]))  # half of it reaches the stick...
        raise OSError(errno.EIO, "Input/output error")  # ...then the stick is gone

    monkeypatch.setattr(os, "write", write)
    return calls


def test_a_write_that_fails_midway_leaves_no_file_under_the_final_name(state, tmp_path, monkeypatch, capsys):
    out = tmp_path / "stick" / "plays.csv"
    out.parent.mkdir()
    assert tk(state, "stats") == 0  # the summaries' cache made first: only the export writes below
    calls = _fail_halfway(monkeypatch)
    assert tk(state, "export", "--csv", str(out)) == 1
    assert len(calls) == 2
    assert "cannot write" in capsys.readouterr().err
    assert os.listdir(out.parent) == []  # neither the file nor a half-written temporary one


def test_a_write_that_fails_midway_keeps_the_previous_export_whole(state, tmp_path, monkeypatch):
    out = tmp_path / "plays.json"
    assert tk(state, "export", "--json", str(out)) == 0
    before = out.read_bytes()
    _fail_halfway(monkeypatch)
    with pytest.raises(OSError):
        playlog.write_atomic(out, b"x" * 100_000)
    assert out.read_bytes() == before and os.listdir(tmp_path).count("plays.json") == 1
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".plays.json.tmp")]


def test_a_failing_fsync_leaves_no_file_under_the_final_name(tmp_path, monkeypatch):
    def fsync(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError):
        playlog.write_atomic(tmp_path / "plays.xml", b"<plays/>")
    assert os.listdir(tmp_path) == []


# -- the summaries' cache ----------------------------------------------------------------
def test_the_cache_spares_the_replays_and_a_damaged_cache_is_made_again(state, monkeypatch, capsys):
    monkeypatch.setattr(playlog.cache, "SAY_REPLAYS_FROM", 30)
    with Journal(state) as j:
        first = playlog.load_plays(j, state)
    assert (state / playlog.CACHE_FILE).exists()
    assert "summarizing 30 finished games once" in capsys.readouterr().err

    def no_replay(*a, **kw):
        raise AssertionError("replayed a game the cache knows")

    monkeypatch.setattr(rec, "summarize", no_replay)
    with Journal(state) as j:
        assert playlog.load_plays(j, state) == first
    assert "summarizing" not in capsys.readouterr().err
    monkeypatch.undo()
    (state / playlog.CACHE_FILE).write_text("{half a fi", encoding="utf-8")
    with Journal(state) as j:
        assert playlog.load_plays(j, state) == first
    assert playlog._read_cache(state / playlog.CACHE_FILE) == {p.id: p for p in first}
    # a flipped byte inside the rows: the checksum does not hold, and the cache is made again
    data = bytearray((state / playlog.CACHE_FILE).read_bytes())
    where = data.index(b'"bloody-inn"') + 2
    data[where] ^= 0x01
    (state / playlog.CACHE_FILE).write_bytes(bytes(data))
    assert playlog._read_cache(state / playlog.CACHE_FILE) == {}
    with Journal(state) as j:
        assert playlog.load_plays(j, state) == first
    assert playlog._read_cache(state / playlog.CACHE_FILE) == {p.id: p for p in first}


def test_resuming_a_game_reads_neither_the_roster_nor_the_records(state):
    code = ("import sys; from tablekeeper.engine import Journal, Session\n"
            f"j = Journal({str(state)!r}); Session.resume(j) or Session.load(j, j.games()[-1].id)\n"
            "print(sorted(m for m in sys.modules if m.endswith(('.records', '.roster')) or '.playlog' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.stdout.strip() == "[]"


# -- stats and players ---------------------------------------------------------------------
def test_stats_json_is_the_pure_statistics_over_the_peoples_plays(state, capsys):
    assert tk(state, "stats", "--json") == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads(json.dumps(rec.statistics(expected(state))))
    assert "Ana María" in got["players"] and "Ana" not in got["players"]


def test_stats_text_head_to_head_and_one_game(state, capsys):
    assert tk(state, "stats", "--game", "red-dragon-inn", "--player", "Ana") == 0
    text = capsys.readouterr().out
    assert text.startswith("The Red Dragon Inn: ") and "Ana María" in text and "by seat:" in text
    assert tk(state, "stats", "--vs", "Ana", "Ben", "--json") == 0
    vs = json.loads(capsys.readouterr().out)["vs"]
    assert vs == rec.head_to_head(expected(state), "Ana María", "Ben")
    assert tk(state, "stats", "--player", "Nadie") == 2
    assert "nobody called 'Nadie'" in capsys.readouterr().err


@pytest.mark.slow
def test_stats_plot_writes_a_png(state, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "stats.png"
    assert tk(state, "stats", "--plot", str(out)) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_stats_plot_without_matplotlib_says_so_and_draws_nothing(state, tmp_path, monkeypatch, capsys):
    import importlib

    real = importlib.import_module

    def without_matplotlib(name, *a, **kw):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real(name, *a, **kw)

    monkeypatch.setattr(importlib, "import_module", without_matplotlib)
    out = tmp_path / "stats.png"
    assert tk(state, "stats", "--plot", str(out)) == 1
    assert "--plot needs matplotlib" in capsys.readouterr().err
    assert not out.exists()


def test_players_rename_and_merge_from_the_command_line(state, capsys):
    assert tk(state, "players", "rename", "Ben", "Benito") == 0
    assert tk(state, "players", "add", "Zoe", "--colour", "5", "--seat", "2") == 0
    assert tk(state, "players", "--json") == 0
    listed = {p["name"]: p for p in json.loads(capsys.readouterr().out)["people"]}
    assert listed["Benito"]["aliases"] == ["Ben", "Benito"] and listed["Zoe"]["colour"] == 5
    assert tk(state, "players", "merge", "Benito", "Zoe") == 0  # Zoe never sat at a table
    assert tk(state, "players", "merge", "Benito", "Cai") == 2
    assert "played in the same game" in capsys.readouterr().err
    assert tk(state, "stats", "--json") == 0
    assert "Benito" in json.loads(capsys.readouterr().out)["players"]


def test_people_taken_in_from_the_games_keep_the_colour_the_app_gave_them(tmp_path):
    from tablekeeper.ui.settings import Settings

    state = tmp_path / "state"
    with Journal(state, durable=False) as j:
        first = playgen.finished_game(j, "dragon-run", ["Ana", "Ben"], seed=1)
        last = playgen.finished_game(j, "dragon-run", ["Ben", "Ana"], seed=2)
    settings = Settings(state)
    settings.set_colours(first["id"], {"Ana": 3, "Ben": 4})
    settings.set_colours(last["id"], {"Ana": 6, "Ben": 4})
    settings.save()
    assert tk(state, "players", "--json") == 0
    with Journal(state) as j:
        roster, kept = people.load(j)
    assert kept  # the first `players` stored what it built
    assert roster.find("Ana").colour == 6 and roster.find("Ben").colour == 4  # their latest game's


# -- cells a spreadsheet would run -------------------------------------------------------------------
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_COLUMNS = ("game", "title", "player", "stored_name", "character")


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text_and_read_back_as_they_were(tmp_path, monkeypatch):
    """Players called =1+1, +SUM(A1), -2+3, @A1 and 'quoted, and people whose roster names start with a
    tab or a carriage return (a roster can hold what a table's setup cannot): every text cell starts
    with a single quote, the figure -2 stays a number, a carriage return stays inside its cell, and
    read_csv gives every name back."""
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    state = tmp_path / "state"
    stored = ["=1+1", "+SUM(A1)", "-2+3", "@A1", "'quoted"]
    with Journal(state) as j:
        s = Session.new(j, "counters", stored, {"counters": [{"name": "score", "min": None, "target": 2}]})
        s.apply({"action": "adjust", "player": "-2+3", "counter": "score", "delta": -2})
        s.apply({"action": "adjust", "player": "=1+1", "counter": "score", "delta": 2})
        assert s.state["over"]
        roster, _stored = people.load(j)
        roster.find("+SUM(A1)").name = "\t+SUM(A1)"
        roster.find("@A1").name = "\r@A1"
        people.save(j, roster)
    people_names = ["=1+1", "\t+SUM(A1)", "-2+3", "\r@A1", "'quoted"]
    out = tmp_path / "plays.csv"
    assert main(["--state-dir", str(state), "export", "--csv", str(out)]) == 0
    with open(out, encoding="utf-8", newline="") as f:  # as the csv module reads: a CR in a cell stays one
        text = f.read()
    assert "\r\n" not in text and len(text.split("\n")) == 1 + len(stored) + 1  # rows end in LF, as before
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["player"] for r in rows] == ["'" + n for n in people_names]
    assert [r["stored_name"] for r in rows] == ["'" + n for n in stored]
    assert [r["figure"] for r in rows] == ["2", "0", "-2", "0", "0"]  # numbers stay numbers
    for r in rows:
        for column in TEXT_COLUMNS:
            assert not r[column].startswith(FORMULA_STARTS), (column, r[column])
    (play,) = playlog.read_csv(text)
    assert [(x.name, x.figure, x.win) for x in play.seats] == \
        [("=1+1", 2.0, True), ("\t+SUM(A1)", 0.0, False), ("-2+3", -2.0, False), ("\r@A1", 0.0, False),
         ("'quoted", 0.0, False)]


def test_csv_games_titles_and_characters_are_written_as_text_and_read_back_as_they_were():
    play = rec.Play(7, "=cmd|' /C calc'!A0", 1.7e9, 1.7e9 + 60, 3, False,
                    (rec.Seat("Ana", 1, -4.5, False, "@character"), rec.Seat("Ben", 2, 3.0, True, "-Thief")))
    text = playlog.csv_text([play], {}, {}, set())
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [(r["game"], r["title"], r["character"], r["figure"]) for r in rows] == \
        [("'=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0", "'@character", "-4.5"),
         ("'=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0", "'-Thief", "3")]
    assert playlog.read_csv(text) == [play]
