"""`tablekeeper serve` under systemd and `tablekeeper hw message`.

Real subprocesses: serve against a fake NOTIFY_SOCKET (an AF_UNIX datagram
socket of the test's own), and hw message on mock pods.
"""
from __future__ import annotations

import os
import socket
import subprocess
import time

import pytest

from tablekeeper.engine import Journal, Session

from ..conftest import TABLEKEEPER

MOCK_CONFIG = """
[pods]
backend = "mock"
[[seat]]
number = 1
[[seat]]
number = 2
"""


@pytest.fixture
def notify(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(10)
    yield sock, path
    sock.close()


def datagrams(sock) -> list[str]:
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        return out


def serve(state, *extra, env=None, timeout=60):
    return subprocess.run([str(TABLEKEEPER), "--state-dir", str(state), "serve", "--mock", *extra],
                          capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_serve_without_a_game_waits_ready_instead_of_exiting(tmp_path, notify):
    """A unit with Restart=on-failure must not loop: with no game, serve says it waits, is READY, exits 0 on stop."""
    sock, path = notify
    env = dict(os.environ, NOTIFY_SOCKET=path)
    r = serve(tmp_path / "state", "--run-for", "1.5", env=env)
    assert r.returncode == 0, r.stderr
    assert "waiting for one" in r.stderr
    got = datagrams(sock)
    assert any("READY=1" in m and "STATUS=waiting for a game" in m for m in got), got
    assert any("STOPPING=1" in m for m in got), got


@pytest.mark.slow
def test_serve_picks_up_a_game_started_while_it_waits(tmp_path, notify):
    sock, path = notify
    state = tmp_path / "state"
    env = dict(os.environ, NOTIFY_SOCKET=path)
    child = subprocess.Popen([str(TABLEKEEPER), "--state-dir", str(state), "serve", "--mock", "--run-for", "6"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             stdin=subprocess.DEVNULL)
    time.sleep(0.8)
    with Journal(state) as j:
        Session.new(j, "counters", ["Ana", "Ben"])
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "resuming game 1" in err and "first frame on 2 of 2 pods" in err
    got = datagrams(sock)
    assert any("READY=1" in m and "serving game 1" in m for m in got), got


@pytest.mark.slow
def test_serve_boot_check_counts_an_unsafe_shutdown_and_pets_the_watchdog(tmp_path, notify):
    """READY after the first frame, WATCHDOG=1 from the loop, unsafe shutdowns counted at boot."""
    sock, path = notify
    state = tmp_path / "state"
    with Journal(state) as j:
        Session.new(j, "counters", ["Ana", "Ben"])
        j.mark_running("a run that never stopped cleanly")
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000")
    r = serve(state, "--run-for", "1.5", env=env)
    assert r.returncode == 0, r.stderr
    got = datagrams(sock)
    assert any(m.startswith("READY=1") and "serving game 1" in m for m in got), got
    assert sum(m == "WATCHDOG=1" for m in got) >= 3, got  # every 0.2 s for 1.5 s
    with Journal(state) as j:
        assert j.unsafe_shutdowns() == 1
        assert j.meta_get("running") is None  # a clean stop cleared this run's marker


def test_hw_message_leaves_the_message_on_every_pod(tmp_path):
    cfg = tmp_path / "pods.toml"
    cfg.write_text(MOCK_CONFIG)
    r = subprocess.run([str(TABLEKEEPER), "hw", "message", "--config", str(cfg), "Switched off", "The game is saved"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "message on seats 1, 2" in r.stdout


def test_hw_message_draws_centred_lines(tmp_path):
    from tablekeeper.hardware.render import render_message

    img = render_message(["Switched off", "The game is saved"])
    assert img.size == (128, 64) and img.mode == "1"
    box = img.getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert abs(left - (127 - right)) <= 3, box  # centred left to right
    assert abs(top - (63 - bottom)) <= 4, box  # and top to bottom
    assert render_message(["a"]).getbbox() != render_message(["a", "b"]).getbbox()


def test_hw_message_without_pods_or_lines_fails_clearly(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TABLEKEEPER_CONFIG"}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    r = subprocess.run([str(TABLEKEEPER), "hw", "message", "Off"], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "no pod config file" in r.stderr
    cfg = tmp_path / "pods.toml"
    cfg.write_text(MOCK_CONFIG)
    r = subprocess.run([str(TABLEKEEPER), "hw", "message", "--config", str(cfg), "1", "2", "3", "4", "5"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "1 to 4 lines" in r.stderr
