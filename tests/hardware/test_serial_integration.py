"""Serial pods as ordinary seats: the config, `hw check` and `serve` reach them with no special case."""
from __future__ import annotations

import subprocess

import pytest

from tablekeeper.hardware.config import ConfigError, loads

from ..conftest import TABLEKEEPER

TWO_SEATS = """
[pods]
backend = "mock"
[[seat]]
number = 1
[[seat]]
number = 2
backend = "serial"
pod = "sim-2"
port = "sim"
"""


def test_a_serial_seat_is_a_config_backend():
    cfg = loads(TWO_SEATS, "t.toml")
    assert [s.backend for s in cfg.seats] == ["mock", "serial"]
    assert cfg.seats[1].extra["pod"] == "sim-2"


def test_two_seats_naming_one_pod_are_refused_naming_the_key():
    text = TWO_SEATS.replace("number = 1\n", 'number = 1\nbackend = "serial"\npod = "sim-2"\nport = "sim"\n')
    with pytest.raises(ConfigError, match=r"t.toml: seat 2: pod: 'sim-2' is already seat 1's pod"):
        loads(text, "t.toml")


@pytest.mark.slow
def test_hw_check_and_serve_drive_a_simulated_serial_pod(tmp_path):
    cfg = tmp_path / "pods.toml"
    cfg.write_text(TWO_SEATS)
    r = subprocess.run([str(TABLEKEEPER), "hw", "check", "--config", str(cfg)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "seat 2: pod: ok: simulated pod 'sim-2'" in r.stdout
    r = subprocess.run([str(TABLEKEEPER), "--state-dir", str(tmp_path / "s"), "serve", "--config", str(cfg),
                        "--new", "counters", "Ana", "Ben", "--run-for", "2"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "serial pod 'sim-2' online" in r.stderr
    assert "first frame on 2 of 2 pods" in r.stderr
