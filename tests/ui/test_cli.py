"""`tablekeeper replay` and friends: the public scripting contract."""
from __future__ import annotations

import json
import subprocess

import pytest

from tablekeeper.engine.registry import KNOWN
from tests.conftest import TABLEKEEPER, replay_cli

SETUP = {"game": "counters", "players": ["Ana", "Ben"],
         "options": {"counters": [{"name": "life", "start": 5, "out_at": 0}], "table": ["round"]}}


def test_replay_prints_the_final_state_with_the_fixed_names():
    r = replay_cli([SETUP,
                    {"action": "adjust", "player": "Ana", "counter": "life", "delta": -2},
                    {"action": "adjust", "counter": "round", "delta": 1},
                    {"action": "transfer", "from": "Ben", "to": "Ana", "counter": "life", "amount": 1},
                    {"action": "resolve"}])
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"game", "players", "table", "pending", "over", "winners", "draw"} <= set(out)
    assert out["game"] == "counters"
    assert out["players"] == [{"name": "Ana", "counters": {"life": 4}, "out": False},
                              {"name": "Ben", "counters": {"life": 4}, "out": False}]
    assert out["table"] == {"round": 1}
    assert (out["pending"], out["over"], out["winners"], out["draw"]) == ([], False, [], False)


def test_replay_reads_a_file_and_skips_blank_lines(tmp_path):
    script = tmp_path / "game.jsonl"
    script.write_text(json.dumps(SETUP) + "\n\n" +
                      json.dumps({"action": "adjust", "player": "Ben", "counter": "life", "delta": -5}) + "\n")
    r = replay_cli(script)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["over"] and out["winners"] == ["Ana"]
    assert [p["out"] for p in out["players"]] == [False, True]


def test_undo_and_redo_lines():
    adj = {"action": "adjust", "player": "Ana", "counter": "life", "delta": -2}
    out = json.loads(replay_cli([SETUP, adj, {"action": "undo"}]).stdout)
    assert out["players"][0]["counters"]["life"] == 5
    out = json.loads(replay_cli([SETUP, adj, {"action": "undo"}, {"action": "redo"}]).stdout)
    assert out["players"][0]["counters"]["life"] == 3


@pytest.mark.parametrize("lines, number, words", [
    ([SETUP, {"action": "adjust", "player": "Ana", "counter": "life", "delta": -1}, {"action": "fly"}], 3, "no action 'fly'"),
    ([SETUP, {"action": "undo"}], 2, "nothing to undo"),
    ([{"action": "adjust"}], 1, "first line must set the game up"),
    ([{"game": "counters", "players": ["Ana", "Ana"]}], 1, "same name"),
    ([{"game": "nope", "players": ["Ana"]}], 1, "unknown game"),
])
def test_refused_line_exits_2_with_line_number_and_nothing_on_stdout(lines, number, words):
    r = replay_cli(lines)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith(f"line {number}: ") and words in r.stderr


def test_malformed_json_names_its_line():
    text = json.dumps(SETUP) + '\n{"action": "adjust", "player": \n'
    r = replay_cli(text)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith("line 2: not valid JSON")


def test_empty_script_is_refused():
    r = replay_cli("")
    assert r.returncode == 2 and r.stderr.startswith("line 1:")


def test_replay_leaves_no_journal_behind(tmp_path):
    r = subprocess.run([str(TABLEKEEPER), "--state-dir", str(tmp_path / "s"), "replay", "-"],
                       input=json.dumps(SETUP) + "\n", capture_output=True, text=True)
    assert r.returncode == 0
    assert not (tmp_path / "s").exists(), "replay plays in a fresh temporary journal"


def run(*args, state_dir):
    return subprocess.run([str(TABLEKEEPER), "--state-dir", str(state_dir), *args],
                          capture_output=True, text=True, timeout=60)


def test_games_lists_ids_ranges_counters_and_options():
    r = subprocess.run([str(TABLEKEEPER), "games", "--json"], capture_output=True, text=True)
    data = json.loads(r.stdout)
    assert [g["id"] for g in data["games"]] == list(KNOWN)
    counters = next(g for g in data["games"] if g["id"] == "counters")
    assert counters["players"] == [1, 8]
    assert {o["name"] for o in counters["options"]} == {"counters", "table", "last_standing_wins", "title", "bgg_id"}


@pytest.mark.slow
def test_stored_game_new_act_state_history(tmp_path):
    sd = tmp_path / "state"
    assert run("new", "counters", "Ana", "Ben", "--options", json.dumps(SETUP["options"]), state_dir=sd).returncode == 0
    r = run("act", json.dumps({"action": "adjust", "player": "Ben", "counter": "life", "delta": -1}), state_dir=sd)
    assert r.returncode == 0 and json.loads(r.stdout)["players"][1]["counters"]["life"] == 4
    r = run("act", json.dumps({"action": "adjust", "player": "Bob", "counter": "life", "delta": -1}), state_dir=sd)
    assert r.returncode == 2 and "no player called 'Bob'" in r.stderr
    assert run("act", '{"action": "undo"}', state_dir=sd).returncode == 0
    r = run("history", state_dir=sd)
    assert r.returncode == 0
    assert r.stdout.splitlines()[1:] == ["    0  Ben: life \u22121", "    1  undo"]  # for people: the minus sign
    hist = json.loads(run("history", "--json", state_dir=sd).stdout)
    assert [e["entry"]["action"] for e in hist["entries"]] == ["adjust", "undo"]
    state = json.loads(run("state", state_dir=sd).stdout)
    assert state["players"][1]["counters"]["life"] == 5


def test_history_without_a_game_says_so(tmp_path):
    r = run("history", state_dir=tmp_path / "empty")
    assert r.returncode == 1 and "no game is stored yet" in r.stderr


def test_demo_resumes_after_a_restart(tmp_path):
    sd = tmp_path / "demo"
    first = run("demo", "--delay", "0", state_dir=sd)
    assert first.returncode == 0 and "new game 1" in first.stdout and "game over: winners Ana" in first.stdout
    r = run("list", state_dir=sd)
    assert "won by Ana" in r.stdout
