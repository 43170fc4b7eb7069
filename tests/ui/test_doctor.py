"""``tablekeeper doctor``: says in plain words what it finds, and exports every game it can read."""
from __future__ import annotations

import json
import os
import sqlite3

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui.cli import main, replay_lines


def stored(state, n):
    with Journal(state) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        for i in range(n):
            s.apply({"action": "adjust", "player": "Ana" if i % 2 else "Ben", "counter": "score", "delta": i + 1})
        s.apply({"action": "undo"})
        return s.view()


def test_a_sound_journal_needs_nobody(tmp_path, capsys):
    stored(tmp_path / "state", 5)
    assert main(["--state-dir", str(tmp_path / "state"), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "SQLite's integrity check passes" in out
    assert "game 1 (counters, Ana, Ben, unfinished): 6 actions replay" in out
    assert out.rstrip().endswith("nothing needs a person")


def test_export_writes_replay_scripts_that_rebuild_each_game(tmp_path, capsys):
    view = stored(tmp_path / "state", 8)
    assert main(["--state-dir", str(tmp_path / "state"), "doctor", "--export", str(tmp_path / "out")]) == 0
    script = (tmp_path / "out" / "game-1-counters.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(script[0])["players"] == ["Ana", "Ben"]
    assert replay_lines(script, str(tmp_path / "replay")) == view


def test_damage_is_found_repaired_reported_and_what_was_set_aside_exported(tmp_path, capsys):
    state = tmp_path / "state"
    stored(state, 10)
    con = sqlite3.connect(state / FILENAME)
    con.execute("UPDATE entries SET crc = crc + 1 WHERE seq = 4")
    con.commit()
    con.close()
    assert main(["--state-dir", str(state), "doctor", "--export", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "entry 4 of game 1: its checksum does not match" in out
    assert "PROBLEM  game 1: 7 action(s) set aside in the quarantine (6 still readable)" in out
    held = [json.loads(line) for line in (tmp_path / "out" / "game-1-quarantine.jsonl").read_text().splitlines()]
    assert [h["seq"] for h in held] == list(range(4, 11))
    # a second look: the repair is remembered, the damaged copy is listed
    assert main(["--state-dir", str(state), "doctor"]) == 1
    out = capsys.readouterr().out
    assert "repaired " in out and "damaged copy kept aside: journal.db.damaged-" in out


def test_a_damaged_copy_is_read_through_a_private_copy_and_left_as_it_was(tmp_path, capsys):
    state = tmp_path / "state"
    stored(state, 30)
    broken = tmp_path / "broken.db"
    data = bytearray((state / FILENAME).read_bytes())
    data[:100] = b"\0" * 100  # the header is gone: SQLite says "not a database"
    broken.write_bytes(bytes(data))
    before = broken.read_bytes()
    assert main(["doctor", "--file", str(broken), "--export", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "was damaged" in out and "recovered 1 game(s) and 31 action(s)" in out
    assert broken.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["broken.db", "out", "state"]
    script = (tmp_path / "out" / "game-1-counters.jsonl").read_text().splitlines()
    with Journal(state) as j:
        assert [canonical(json.loads(x)) for x in script[1:]] == [canonical(e) for _, e in j.entries(1)]


def test_a_bad_config_is_a_problem_named_with_its_file(tmp_path, capsys):
    cfg = tmp_path / "pods.toml"
    cfg.write_text("[[seat]]\nbackend = 'warp-drive'\n")
    assert main(["--state-dir", str(tmp_path / "state"), "doctor", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert f"PROBLEM  {cfg}:" in out
