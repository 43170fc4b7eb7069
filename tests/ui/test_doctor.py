"""``tablekeeper doctor``: says in plain words what it finds, and exports every game it can read."""
from __future__ import annotations

import json
import os
import sqlite3

import pytest

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


def tamper(state, *statements: str) -> None:
    """Change the journal behind tablekeeper's back, as damage would."""
    con = sqlite3.connect(state / FILENAME)
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()


def test_a_sound_journal_needs_nobody(tmp_path, capsys):
    stored(tmp_path / "state", 5)
    assert main(["--state-dir", str(tmp_path / "state"), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "SQLite's integrity check passes" in out
    assert "journal mode wal (one fsync per action)" in out
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
    tamper(state, "UPDATE entries SET crc = crc + 1 WHERE seq = 4")
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


def test_a_damaged_result_is_worked_out_again_from_the_actions_and_written_back(tmp_path, capsys):
    """The game stays listed (finished) with its result unknown until doctor replays it; then the stored
    result is the one its actions give, a copy of the journal as it was is kept, and nothing is reopened."""
    state = tmp_path / "state"
    with Journal(state) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], {"counters": [{"name": "score", "target": 5}]})
        s.apply({"action": "adjust", "player": "Ben", "counter": "score", "delta": 5})
        good = j.games()[0].result
    assert good is not None and good["winners"] == ["Ben"]
    con = sqlite3.connect(state / FILENAME)
    con.execute("UPDATE games SET result = CAST(? AS BLOB) WHERE id = 1",
                (json.dumps(good, sort_keys=True).replace('"', "\x01", 1).encode("latin-1"),))
    con.commit()
    con.close()
    with Journal(state) as j:
        assert j.games()[0].finished is not None and j.games()[0].result is None
    assert main(["--state-dir", str(state), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "its stored result is damaged" in out
    assert "game 1: its damaged result was worked out again from its actions and written back; the journal " \
           "as it was is kept as journal.db.damaged-" in out
    with Journal(state) as j:
        (g,) = j.games()
        assert g.finished is not None and g.result == good and j.last_unfinished() is None
        assert j.take_warnings() == []
    assert main(["--state-dir", str(state), "doctor"]) == 0
    assert "its damaged result was worked out again" in capsys.readouterr().out  # remembered among the repairs


def test_a_damaged_result_in_a_file_looked_at_with_file_is_named_not_written(tmp_path, capsys):
    """``--file`` reads through a private copy: the damaged result is named as a problem, the file is left
    byte for byte as it was, and no repair is claimed."""
    state = tmp_path / "state"
    with Journal(state) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], {"counters": [{"name": "score", "target": 5}]})
        s.apply({"action": "adjust", "player": "Ben", "counter": "score", "delta": 5})
    tamper(state, "UPDATE games SET result = CAST(x'7b01' AS BLOB) WHERE id = 1")
    before = (state / FILENAME).read_bytes()
    assert main(["doctor", "--file", str(state / FILENAME)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM  game 1: its stored result is damaged; `tablekeeper doctor` on the journal itself" in out
    assert "written back" not in out
    assert (state / FILENAME).read_bytes() == before


@pytest.mark.parametrize("loss", ["row deleted", "setup unreadable"])
def test_actions_of_a_game_whose_setup_is_lost_are_listed_and_exported(tmp_path, capsys, loss):
    """The game's row and its copy in meta both lost: the game is gone from the list, its actions are
    not — doctor says so, needs a person, and writes them out."""
    state = tmp_path / "state"
    stored(state, 6)
    tamper(state, "DELETE FROM games WHERE id = 1" if loss == "row deleted" else
           "UPDATE games SET setup = CAST(x'7b22ff' AS BLOB) WHERE id = 1", "DELETE FROM meta WHERE key = 'game:1'")
    assert main(["--state-dir", str(state), "doctor", "--export", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM  game 1: its setup is lost or unreadable; its 7 action(s) are kept" in out
    kept = [json.loads(line) for line in
            (tmp_path / "out" / "game-1-actions-without-setup.jsonl").read_text().splitlines()]
    assert [k["seq"] for k in kept] == list(range(7))
    assert kept[0]["entry"]["action"] == "adjust" and kept[-1]["entry"] == {"action": "undo"}


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
