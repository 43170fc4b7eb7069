"""`tablekeeper serve` and `tablekeeper hw check`."""
from __future__ import annotations

import errno
import json
import subprocess

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from tablekeeper.hardware.check import run_checks
from tablekeeper.hardware.config import loads
from tablekeeper.hardware.mock import FakeSMBus, Ssd1306Model

from ..conftest import TABLEKEEPER

CONFIG = """
[pods]
backend = "gpio"
[[seat]]
number = 1
buttons = { up = 5, down = 6, select = 13, main = 19 }
display = { bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 0 }
[[seat]]
number = 2
buttons = { up = 12, down = 16, select = 20, main = 21 }
display = { bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 2 }
[[seat]]
number = 3
buttons = { up = 22, down = 23, select = 26, main = 27 }
display = { bus = "spi", port = 0, device = 0, dc = 24 }
[[seat]]
number = 4
backend = "mock"
"""


class StuckPin(MockPin):
    """A button pin that reads pressed whatever the pull-up says (a short to ground)."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self.drive_low()


def _findings(tmp_path, open_bus, factory=None):
    cfg = loads(CONFIG, "t.toml")
    (tmp_path / "spidev0.0").touch()
    factory = factory or MockFactory()
    return {(f.seat, f.part): f for f in run_checks(cfg, open_bus=open_bus, dev=tmp_path,
                                                    real_factory=lambda: factory)}


def test_hw_check_says_what_was_found_and_what_is_wrong(tmp_path):
    """`hw check` per seat — "no display at 0x3C on i2c-1 channel 2", a stuck button, a mock pod."""
    bus = FakeSMBus({(0, 0x3C): Ssd1306Model()}, mux=0x70)
    factory = MockFactory()
    factory.pin(13, pin_class=StuckPin)
    f = _findings(tmp_path, lambda port: bus, factory)
    assert f[1, "display"].ok and "found SSD1306 at 0x3C on i2c-1 channel 0" in f[1, "display"].text
    assert not f[2, "display"].ok and f[2, "display"].text == "no display at 0x3C on i2c-1 channel 2"
    assert str(f[2, "display"]) == "seat 2: display: PROBLEM: no display at 0x3C on i2c-1 channel 2"
    assert not f[1, "buttons"].ok and "select reads pressed now" in f[1, "buttons"].text
    assert f[2, "buttons"].ok
    assert f[3, "display"].ok and "cannot answer" in f[3, "display"].text
    assert f[4, "pod"].ok and "mock" in f[4, "pod"].text


def test_hw_check_permission_and_missing_devices(tmp_path):
    """"Permission denied on /dev/i2c-1: add the user to the i2c group"; a missing mux; no SPI node."""
    def denied(port):
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    f = _findings(tmp_path, denied)
    assert f[1, "display"].text == "permission denied on /dev/i2c-1: add the user to the i2c group"
    bus = FakeSMBus({(None, 0x3C): Ssd1306Model()}, mux=None)  # no multiplexer on the bus
    f = _findings(tmp_path, lambda port: bus)
    assert f[1, "display"].text == "no multiplexer at 0x70 on i2c-1"
    (tmp_path / "spidev0.0").unlink()
    cfg = loads(CONFIG, "t.toml")
    findings = run_checks(cfg, open_bus=lambda port: bus, dev=tmp_path, real_factory=MockFactory)
    spi = next(x for x in findings if x.seat == 3 and x.part == "display")
    assert not spi.ok and spi.text.startswith(f"no SPI device {tmp_path}/spidev0.0: enable SPI")


def test_hw_check_names_a_missing_gpio(tmp_path):
    """Buttons on a machine without GPIO are a problem said in words, not a traceback."""
    from gpiozero.exc import BadPinFactory

    def no_gpio():
        raise BadPinFactory("Unable to load any default pin factory!")

    bus = FakeSMBus({(0, 0x3C): Ssd1306Model()}, mux=0x70)
    cfg = loads(CONFIG, "t.toml")
    f = {(x.seat, x.part): x for x in run_checks(cfg, open_bus=lambda p: bus, dev=tmp_path, real_factory=no_gpio)}
    assert not f[1, "buttons"].ok and "no GPIO on this machine" in f[1, "buttons"].text


@pytest.mark.slow
def test_serve_keys_hold_with_a_count_gives_exactly_that_many_repeats(tmp_path):
    """`SEAT BUTTON hold N` plays the pod's own events — press, hold, N repeats, release — so a script of
    presses gives the same game on any machine: up held with 5 repeats on a counter is +7 (the press, the
    hold and each repeat step it), each step shown as it goes (a play-tester on the text screens saw only
    where a hold landed); a plain `hold` keeps its timed pin; a bad count is said and skipped."""
    state = tmp_path / "state"
    env = {"PATH": "/usr/bin:/bin", "TABLEKEEPER_STATE_DIR": str(state), "XDG_CONFIG_HOME": str(tmp_path),
           "HOME": str(tmp_path)}
    r = subprocess.run([str(TABLEKEEPER), "serve", "--new", "counters", "Ana", "Ben", "--keys", "--show", "text",
                        "--stop-at-eof"],
                       input="1 up hold 5\n2 down hold 0\n1 up hold -1\n2 up hold x\n", capture_output=True,
                       text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("keys: say SEAT BUTTON [hold [N]]") == 2, r.stderr
    assert all(f"*score {n}*" in r.stdout for n in range(1, 8)), r.stdout  # every step of the hold printed
    view = json.loads(subprocess.run([str(TABLEKEEPER), "state"], capture_output=True, text=True, env=env,
                                     timeout=60).stdout)
    assert [p["counters"]["score"] for p in view["players"]] == [7, -2]


@pytest.mark.slow
def test_serve_plays_with_mock_pods_and_the_journal(tmp_path):
    """`tablekeeper serve` runs a game with pods and the journal, no touchscreen, mock on a PC;
    presses typed on the terminal drive the mock pins; the screens print as text; the game resumes after."""
    state = tmp_path / "state"
    env = {"PATH": "/usr/bin:/bin", "TABLEKEEPER_STATE_DIR": str(state), "XDG_CONFIG_HOME": str(tmp_path),
           "HOME": str(tmp_path)}
    r = subprocess.run([str(TABLEKEEPER), "serve", "--new", "counters", "Ana", "Ben", "--keys", "--show", "text",
                        "--stop-at-eof"], input="1 up\n1 up\n2 main\n1 main\n2 up\n", capture_output=True,
                       text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    assert "no pod config file found: 2 mock pods" in r.stderr
    assert "first frame on 2 of 2 pods" in r.stderr
    assert "[1] Ana <" in r.stdout and "*score 2*" in r.stdout  # the pods' screens as text
    assert "nothing to do now" in r.stdout  # Ben's main press: not his turn
    view = json.loads(subprocess.run([str(TABLEKEEPER), "state"], capture_output=True, text=True, env=env,
                                     timeout=60).stdout)
    assert [p["counters"]["score"] for p in view["players"]] == [2, 1]
    assert view["turn"]["player"] == "Ben"  # Ana's main press ended her turn
    # resume: the same game goes on
    r2 = subprocess.run([str(TABLEKEEPER), "serve", "--run-for", "0.5"], capture_output=True, text=True,
                        timeout=60, env=env)
    assert r2.returncode == 0 and "resuming game 1" in r2.stderr
