"""Hostile input at the command line: one clear line and exit 2, never a traceback, never stored.

Each case here crashed (exit 1 with a traceback) or was stored as given before
names were normalised and every value bounded.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine.text import NAME_MAX
from tablekeeper.ui.cli import main

TK = [sys.executable, "-m", "tablekeeper.ui.cli"]


def replay(tmp_path, capsys, *lines: str):
    script = tmp_path / "script.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    code = main(["replay", str(script)])
    out, err = capsys.readouterr()
    return code, out, err


SETUP = json.dumps({"game": "counters", "players": ["Ana", "Ben"]})


@pytest.mark.parametrize("line, says", [
    ("[" * 60_000, "nested too deeply"),
    ('{"action": "adjust", "player": "Ana", "counter": "score", "delta": ' + "9" * 5000 + "}", "digits"),
    ('{"action": "adjust", "player": "Ana", "counter": "score", "delta": ' + "9" * 40 + "}", "too large"),
    ('{"action": "adjust", "player": "Ana", "counter": "\\ud800", "delta": 1}', "not valid Unicode"),
    ('{"action": "adjust", "player": "Ana", "counter": "score\\u001b[2J", "delta": 1}', "control character"),
    ('{"action": "adjust", "player": "Ana", "counter": "' + "x" * 2000 + '", "delta": 1}', "too long"),
    ('{"action": "adjust", "player": "Ana", "counter": "' + "x" * 70_000 + '", "delta": 1}', "too long"),
])
def test_a_hostile_script_line_is_refused_with_its_line_number(tmp_path, capsys, line, says):
    code, out, err = replay(tmp_path, capsys, SETUP, line)
    assert code == 2
    assert err.startswith("line 2:") and says in err, err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("name, says", [
    ("\ud800", "not valid Unicode"),
    ("Ana\x00", "control character"),
    ("\x1b[31mAna", "control character"),
    ("Ana\nBen", "line break"),
    ("\u202eanA", "invisible or control character"),
    ("x" * 10_000, "too long"),
    ("Maximiliano Ruiz", "too long"),
    ("   ", "empty"),
])
def test_a_player_name_a_person_would_never_mean_is_refused(tmp_path, capsys, name, says):
    setup = json.dumps({"game": "counters", "players": [name, "Ben"]})
    code, out, err = replay(tmp_path, capsys, setup)
    assert code == 2 and err.startswith("line 1:") and says in err, err
    assert "\x1b" not in err and "\x00" not in err  # the refusal itself is safe to print


@pytest.mark.parametrize("first, second", [
    (unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")),
    ("Ana", "Ana "),
    ("Ana", "ana"),
    ("Ana  Belén", "Ana Belén"),
])
def test_two_spellings_of_one_name_are_one_player(tmp_path, capsys, first, second):
    code, _, err = replay(tmp_path, capsys, json.dumps({"game": "counters", "players": [first, second]}))
    assert code == 2 and "same name" in err


def test_names_are_stored_normalised_and_trimmed(tmp_path):
    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", [unicodedata.normalize("NFD", " José "), "Ana   Belén"])
        assert s.record.setup["players"] == [unicodedata.normalize("NFC", "José"), "Ana Belén"]


def test_a_name_of_the_longest_length_fits_a_pod_header():
    """NAME_MAX is what the pod shows uncut beside its seat number and a short button label."""
    from tablekeeper.hardware.render import BOLD, REGULAR, RIGHT, SMALL_SIZE, TINY_SIZE, _width, fit, font

    name = "Maximilianos"[:NAME_MAX]
    assert len(name) == NAME_MAX
    room = RIGHT - 2 - (_width(font(REGULAR, TINY_SIZE), "▸drink") + 4)
    assert fit(font(BOLD, SMALL_SIZE), f"8 {name}", room) == f"8 {name}"


def test_invalid_utf8_on_the_command_line_is_refused_not_a_crash(tmp_path):
    env = dict(os.environ, TABLEKEEPER_STATE_DIR=str(tmp_path))
    r = subprocess.run(TK + [b"new", b"counters", b"\xff", b"Ben"], capture_output=True, env=env)
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "not valid Unicode" in err
    r = subprocess.run(TK + ["list"], capture_output=True, env=env, text=True)
    assert r.returncode == 0 and r.stdout == ""  # nothing was stored


def test_an_action_on_the_command_line_is_bounded_too(tmp_path, capsys):
    state = str(tmp_path)
    assert main(["--state-dir", state, "new", "counters", "Ana", "Ben"]) == 0
    capsys.readouterr()
    for action, says in (("[" * 50_000, "nested too deeply"),
                         ('{"action":"adjust","player":"Ana","counter":"score","delta":1' + "0" * 5000 + "}",
                          "digits"),
                         ('{"action":"adjust","player":"Ana","counter":"\\u202e","delta":1}', "invisible")):
        assert main(["--state-dir", state, "act", action]) == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1, err
    with Journal(state) as j:
        assert Session.resume(j).match.done == []


def test_list_and_history_escape_what_an_old_journal_still_carries(tmp_path, capsys):
    """A name stored before names were checked is printed escaped, never raw to the terminal."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        s.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
        setup = dict(s.record.setup, players=["\x1b[2JAna", "Ben"])
        # as a journal from before games had checksums (and copies) stored it
        j.conn.execute("UPDATE games SET setup=?, crc=NULL", (json.dumps(setup),))
        j.conn.execute("DELETE FROM meta WHERE key LIKE 'game:%'")
        j.conn.execute("UPDATE entries SET body=?, crc=?", _body({"action": "adjust", "player": "\x1b[2JAna",
                                                                  "counter": "score", "delta": 1}))
    assert main(["--state-dir", str(tmp_path), "list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2JAna" in out
    assert main(["--state-dir", str(tmp_path), "history"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2JAna" in out


def _body(entry):
    from tablekeeper.engine.journal import _encode

    return _encode(entry)
