"""``tablekeeper serve`` under journal faults: a repair is said on stderr and on every pod,
and a command-line ``act`` while serve holds the game lands and shows on the pods."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")


def _env(tmp_path):
    return {"PATH": "/usr/bin:/bin", "TABLEKEEPER_STATE_DIR": str(tmp_path / "state"),
            "XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)}


def _stored_game(env, n):
    subprocess.run([str(TABLEKEEPER), "new", "counters", "Ana", "Ben"], env=env, check=True, capture_output=True)
    for _ in range(n):
        subprocess.run([str(TABLEKEEPER), "act", '{"action":"adjust","player":"Ana","counter":"score","delta":1}'],
                       env=env, check=True, capture_output=True)


@pytest.mark.slow
def test_serve_says_a_repair_on_stderr_and_on_every_pod(tmp_path):
    env = _env(tmp_path)
    _stored_game(env, 6)
    con = sqlite3.connect(tmp_path / "state" / "journal.db")
    con.execute("UPDATE entries SET crc = (crc | 3) - (crc & 3) WHERE seq = 3")  # two bits: one alone is put back
    con.commit()
    con.close()
    r = subprocess.run([str(TABLEKEEPER), "serve", "--show", "text", "--run-for", "1.5"], capture_output=True,
                       text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    assert "warning: entry 3 of game 1: its checksum does not match" in r.stderr
    screens = r.stdout.split("[2] Ben")
    assert "journal repaired" in screens[0] and "journal repaired" in screens[1]
    assert "*score 3*" in r.stdout  # the game goes on from the last good action


@pytest.mark.slow
def test_an_act_from_the_command_line_while_serve_runs_lands_and_shows(tmp_path):
    env = _env(tmp_path)
    _stored_game(env, 1)
    serve = subprocess.Popen([str(TABLEKEEPER), "serve", "--show", "text", "--run-for", "4"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    r = subprocess.run([str(TABLEKEEPER), "act", '{"action":"adjust","player":"Ana","counter":"score","delta":40}'],
                       env=env, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    out, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err
    assert "took in actions saved by another process" in err
    assert "*score 41*" in out  # Ana's pod shows what the command line did
    view = json.loads(subprocess.run([str(TABLEKEEPER), "state"], capture_output=True, text=True, env=env).stdout)
    assert view["players"][0]["counters"]["score"] == 41


@pytest.mark.slow
def test_a_game_started_from_the_command_line_while_serve_runs_opens_on_its_pods(tmp_path):
    """«only the demo can be played: `tablekeeper new red-dragon-inn …` from a second terminal is ignored
    by the running player»: serve follows the journal and opens the new game on its pods."""
    env = _env(tmp_path)
    _stored_game(env, 1)
    serve = subprocess.Popen([str(TABLEKEEPER), "serve", "--show", "text", "--run-for", "5"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    r = subprocess.run([str(TABLEKEEPER), "new", "red-dragon-inn", "Cai", "Dee", "Eva"], env=env,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    out, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err
    assert "game 2: started by another process; opened" in err
    assert "[3] Eva" in out  # the new game's third pod drawn
