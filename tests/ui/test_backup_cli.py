"""`tablekeeper backup`, `restore` and `export --stick` on a real journal, with a fake stick: a
temporary folder mounted in a fake mount table."""
from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine import backup as bk
from tablekeeper.engine import records as rec
from tablekeeper.engine import roster as people
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui import backups, playlog
from tablekeeper.ui import stick as sticks
from tablekeeper.ui.cli import main

from ..conftest import TABLEKEEPER

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("backup-cli")
    with Journal(folder, durable=False) as j:
        playgen.generate(j, 16, seed=21)
        roster, _ = people.load(j)
        roster.rename("Ben", "Benito")
        people.save(j, roster)
    Journal(folder).close()  # opened once as the device opens it (WAL mode, this version's schema)
    return folder / FILENAME


@pytest.fixture
def state(template, tmp_path, monkeypatch):
    return state_with_a_stick(template, tmp_path, monkeypatch)


def state_with_a_stick(template, tmp_path, monkeypatch):
    """A state folder holding a copy of ``template``, and a config whose USB-stick lookup sees only the
    test's own folders (a fake mount table, no stick until the test makes one)."""
    d = tmp_path / "state"
    d.mkdir()
    shutil.copyfile(template, d / FILENAME)
    monkeypatch.delenv(sticks.ENV_STICK, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n")
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text(f'[app.stick]\nmounts = "{mounts}"\nmedia = ["{tmp_path / "media"}"]\n'
                   f'sys_block = "{tmp_path / "no-sys"}"\n')
    monkeypatch.setenv("TABLEKEEPER_CONFIG", str(cfg))
    return d


def plug_stick(tmp_path) -> Path:
    point = tmp_path / "media" / "pi" / "STICK"
    point.mkdir(parents=True)
    with open(tmp_path / "mounts", "a") as f:
        f.write(f"/dev/sda1 {point} vfat rw,uid=1000 0 0\n")
    return point


def tk(state, *args) -> int:
    return main(["--state-dir", str(state), *args])


def people_stats(state) -> dict:
    with Journal(state) as j:
        return rec.statistics(rec.with_people(rec.stored_plays(j), people.read(j).person_of))


@pytest.mark.slow
def test_backup_goes_to_the_stick_and_restores_into_an_empty_journal(state, tmp_path, capsys):
    assert tk(state, "backup") == 1
    assert "no USB stick found" in capsys.readouterr().err
    stick = plug_stick(tmp_path)
    assert tk(state, "backup", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    path = Path(out["file"])
    assert path.parent == stick / "tablekeeper" and out["manifest"]["finished"] == 16
    assert bk.backups_in(stick / "tablekeeper") == [path]
    fresh = tmp_path / "fresh"
    assert tk(fresh, "restore", str(path)) == 0
    said = capsys.readouterr().out
    assert f"{out['manifest']['games']} games brought in" in said
    assert people_stats(fresh) == people_stats(state)
    assert "Benito" in people_stats(fresh)["players"]
    before = (fresh / FILENAME).read_bytes()
    assert tk(fresh, "restore", str(path)) == 0
    assert "nothing to change" in capsys.readouterr().out
    assert (fresh / FILENAME).read_bytes() == before
    # the bare name the stick's list shows is enough: the file is looked for on the stick
    assert tk(state, "restore", "--list") == 0
    assert path.name in capsys.readouterr().out
    again = tmp_path / "again"
    assert tk(again, "restore", path.name) == 0
    assert f"{out['manifest']['games']} games brought in" in capsys.readouterr().out
    assert people_stats(again) == people_stats(state)


def test_backup_to_a_folder_and_list_it(state, tmp_path, capsys):
    assert tk(state, "backup", "--to", str(tmp_path / "out")) == 0
    assert "backed up 16 finished plays" in capsys.readouterr().out
    assert tk(state, "restore", "--list", str(tmp_path / "out")) == 0
    assert "16 finished plays" in capsys.readouterr().out


def test_restore_refuses_a_file_from_elsewhere_and_changes_nothing(state, tmp_path, capsys):
    before = (state / FILENAME).read_bytes()
    other = tmp_path / "photo.db"
    other.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    assert tk(state, "restore", str(other)) == backups.EXIT_REFUSED
    err = capsys.readouterr().err
    assert "not restored, nothing was changed: it is not a tablekeeper backup" in err
    assert (state / FILENAME).read_bytes() == before


def test_restore_refuses_a_damaged_file_and_changes_nothing(state, tmp_path, capsys):
    assert tk(state, "backup", "--to", str(tmp_path / "out")) == 0
    path = bk.backups_in(tmp_path / "out")[0]
    data = bytearray(path.read_bytes())
    data[data.index(b'"action":"') + 4] ^= 0x01
    path.write_bytes(bytes(data))
    before = (state / FILENAME).read_bytes()
    capsys.readouterr()
    assert tk(state, "restore", str(path)) == backups.EXIT_REFUSED
    assert "it is damaged (its checksum does not match its content)" in capsys.readouterr().err
    assert (state / FILENAME).read_bytes() == before


def test_export_stick_writes_the_plays_and_a_backup(state, tmp_path, capsys):
    assert tk(state, "export", "--stick") == 1
    assert "no USB stick found" in capsys.readouterr().err
    stick = plug_stick(tmp_path)
    assert tk(state, "export", "--stick") == 0
    assert "16 plays written to" in capsys.readouterr().out
    folder = stick / "tablekeeper"
    names = sorted(os.listdir(folder))
    assert names[:3] == ["plays-bgg.xml", "plays.csv", "plays.json"] and len(names) == 4
    with Journal(state) as j:
        expected = rec.with_people(rec.stored_plays(j), people.read(j).person_of)
    assert playlog.read_json((folder / "plays.json").read_text()) == expected
    assert len(playlog.read_csv((folder / "plays.csv").read_text())) == 16
    fresh = tmp_path / "fresh"
    assert tk(fresh, "restore", str(folder / names[3])) == 0
    assert people_stats(fresh) == people_stats(state)
    # the plain exports are as they were
    assert tk(state, "export", "--csv", str(tmp_path / "p.csv")) == 0
    assert (tmp_path / "p.csv").read_text() == (folder / "plays.csv").read_text()


def test_a_stick_pulled_mid_export_leaves_no_half_file(state, tmp_path, monkeypatch, capsys):
    stick = plug_stick(tmp_path)
    assert tk(state, "stats") == 0  # the summaries' cache first: only the stick is written below
    real = os.write
    calls = []

    def write(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "write", write)
    capsys.readouterr()
    assert tk(state, "export", "--stick") == 1
    assert "no file was left half-written" in capsys.readouterr().err
    assert os.listdir(stick / "tablekeeper") == []


def test_the_apps_calls_export_to_the_stick(state, tmp_path):
    stick = plug_stick(tmp_path)
    found = sticks.find_stick(sticks.settings())
    assert found == stick
    with Journal(state) as j:
        out = backups.export_to_stick(j, found, state)
    assert out.plays == 16 and [f.name for f in out.files] == list(backups.PLAY_FILES)
    assert out.backup is not None and out.backup.path.parent == stick / "tablekeeper"
    assert "everything backed up as" in out.sentence()


# -- crafted backups: one sentence, nothing changed, the table still plays ---------------------------
def _manifest_says(path: Path, out: Path, **fields) -> Path:
    shutil.copyfile(path, out)
    with sqlite3.connect(out) as c:
        for key, value in fields.items():
            c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, ?, ?)", (f"$.{key}", value))
    c.close()
    return out


def test_a_manifest_whose_schema_is_a_digit_but_not_a_number_is_refused_and_listed_in_one_line(state, tmp_path,
                                                                                                capsys):
    assert tk(state, "backup", "--to", str(tmp_path / "out")) == 0
    good = bk.backups_in(tmp_path / "out")[0]
    bad = _manifest_says(good, good.with_name(good.name.replace(bk.PREFIX, bk.PREFIX + "9")), schema="²")
    before = (state / FILENAME).read_bytes()
    capsys.readouterr()
    assert tk(state, "restore", str(bad)) == backups.EXIT_REFUSED
    out = capsys.readouterr()
    assert out.err.splitlines() == [f"tablekeeper restore: {bad}: not restored, nothing was changed: it is damaged "
                                    "(its manifest's schema is not valid ('²'))"] and out.out == ""
    assert (state / FILENAME).read_bytes() == before
    assert tk(state, "restore", "--list", str(tmp_path / "out")) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == [f"{bad}: its manifest's schema is not valid ('²') (it is damaged)",
                                    f"{good}: 16 finished plays and 16 games in all, 6 people, from "
                                    f"{bk.read_manifest(good).manifest['table_name']} at "
                                    f"{bk.read_manifest(good).manifest['created']}"] and out.err == ""


def unfinished_with_two_players_called_cai(state: Path, tmp_path: Path) -> Path:
    """A backup of ``state`` whose unfinished game was set up (by hand, its checksum written again) with
    two players called Cai: ``serve`` refuses to start on such a game."""
    assert tk(state, "backup", "--to", str(tmp_path / "out")) == 0
    path = bk.backups_in(tmp_path / "out")[0]
    with sqlite3.connect(path) as c:
        gid, setup = c.execute("SELECT id, setup FROM games WHERE finished IS NULL").fetchone()
        setup = json.loads(setup)
        setup["players"] = ["Cai", "Cai"]
        c.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup, sort_keys=True), gid))
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.sha256', ?)",
                  (bk.content_hash(c),))
    c.close()
    return path


def test_restore_refuses_a_game_serve_could_not_start_on_and_the_table_still_resumes(state, tmp_path, capsys):
    assert tk(state, "new", "counters", "Ana", "Ben") == 0
    path = unfinished_with_two_players_called_cai(state, tmp_path)
    with Journal(state) as j:
        playing = Session.resume(j).game_id
    before = (state / FILENAME).read_bytes()
    capsys.readouterr()
    assert tk(state, "restore", str(path)) == backups.EXIT_REFUSED
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "not restored, nothing was changed: it is damaged (its game 17 cannot be set up " \
        "here: two players have the same name; names must be different)" in err[0]
    assert (state / FILENAME).read_bytes() == before
    with Journal(state) as j:  # what serve and the app do at start
        assert Session.resume(j).game_id == playing and j.take_warnings() == []


@pytest.mark.slow  # a real `tablekeeper serve` process
def test_serve_starts_on_whatever_restore_accepted(state, tmp_path):
    """Whatever the restore of a crafted backup does, the next start of serve plays a game (before, the
    restore brought in a game with two players called Cai, and serve exited 2 at every start)."""
    assert tk(state, "new", "counters", "Ana", "Ben") == 0
    tk(state, "restore", str(unfinished_with_two_players_called_cai(state, tmp_path)))
    r = subprocess.run([str(TABLEKEEPER), "--state-dir", str(state), "serve", "--mock", "--run-for", "0.3"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "serve: resuming game 17: counters with Ana, Ben" in r.stderr
