"""The pod config: one TOML file; a wrong or missing key, a pin used twice, a mux
channel out of range give a clear message naming the key, before any hardware is touched."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tablekeeper.hardware import config as cfgmod
from tablekeeper.hardware.config import I2cDisplay, SpiDisplay, loads
from tablekeeper.hardware.errors import ConfigError

GOOD = """
[pods]
backend = "gpio"
contrast = 200
dim_after = 60

[[seat]]
number = 1
buttons = { up = 5, down = 6, select = 13, main = 19 }
display = { bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 0 }

[[seat]]
number = 2
buttons = { up = 12, down = 16, select = 20, main = 21 }
display = { bus = "i2c", address = 0x3C, mux = 0x70, channel = 1 }

[[seat]]
number = 3
buttons = { up = 22, down = 23, select = 26, main = 27 }
[seat.display]
bus = "spi"
device = 1
dc = 24
reset = 25
"""


def test_a_good_config_reads_whole():
    c = loads(GOOD, "t.toml")
    assert [s.number for s in c.seats] == [1, 2, 3]
    assert c.care.contrast == 200 and c.care.dim_after == 60
    assert c.seats[0].display == I2cDisplay(1, 0x3C, 0x70, 0)
    assert c.seats[2].display == SpiDisplay(port=0, device=1, dc=24, reset=25)
    assert c.seats[1].pins == {"up": 12, "down": 16, "select": 20, "main": 21}


def _with(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


CASES = [
    # (what, config text, the message must contain)
    ("unknown key", _with("contrast = 200", "contrst = 200"), "t.toml: pods.contrst: unknown key"),
    ("unknown seat key", _with("number = 2\n", "number = 2\nbutons = 1\n"), "seat 2.butons: unknown key"),
    ("missing key", _with("select = 13, ", ""), "seat 1: buttons: missing key 'select'"),
    ("missing display", _with('display = { bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 0 }\n', ""),
     "seat 1: missing key 'display'"),
    ("missing number", _with("number = 2\n", ""), "the 2nd [[seat]]: missing key 'number'"),
    ("pin used twice", _with("main = 21", "main = 13"),
     "seat 2: buttons.main: GPIO13 is used twice: seat 1 buttons.select and seat 2 buttons.main"),
    ("pin twice with spi reset", _with("main = 27", "main = 25"), "GPIO25 is used twice"),
    ("mux channel out of range", _with("channel = 1", "channel = 9"),
     "seat 2: display.channel: 9 is out of range (a TCA9548A has channels 0-7)"),
    ("channel without mux", _with("mux = 0x70, channel = 1", "channel = 1"), "a channel needs a multiplexer"),
    ("same display twice", _with("channel = 1", "channel = 0"), "is already seat 1's display"),
    ("pin on the I2C lines", _with("up = 5", "up = 2"), "seat 1: buttons.up: GPIO2 is I2C1's SDA line"),
    ("pin on SPI CE1", _with("up = 22", "up = 7"), "seat 3: buttons.up: GPIO7 is SPI0's CE1"),
    ("not a pin", _with("up = 5", "up = 40"), "seat 1: buttons.up: 40 is out of range (0-27)"),
    ("wrong type", _with("contrast = 200", 'contrast = "bright"'), "pods.contrast: must be a whole number 0-255"),
    ("bool is not a number", _with("up = 5", "up = true"), "seat 1: buttons.up: must be a BCM GPIO number"),
    ("bad backend", _with('backend = "gpio"', 'backend = "usb"'), "pods.backend: 'usb' is not a backend"),
    ("bad bus", _with('bus = "spi"', 'bus = "uart"'), 'display.bus: must be "i2c" or "spi"'),
    ("duplicate seat", _with("number = 2", "number = 1"), "the 2nd [[seat]]: number: seat 1 is already"),
    ("seat number range", _with("number = 3", "number = 9"), "number: 9 is out of range (1-8)"),
    ("not TOML", GOOD + "\n[[seat]\n", "t.toml: not valid TOML"),
    ("unknown section", GOOD + "\n[pod]\nx = 1\n", "t.toml: pod: unknown key"),
    ("debounce zero", _with("dim_after = 60", "dim_after = 60\ndebounce = 0"), "pods.debounce: 0 is out of range"),
    ("spi speed", _with("reset = 25", "reset = 25\nspeed_hz = 3"), "display.speed_hz: 3 is not a speed"),
]


@pytest.mark.parametrize("what,text,message", CASES, ids=[c[0] for c in CASES])
def test_bad_config_names_the_key(what, text, message):
    """A wrong or missing key, a pin used twice, a mux channel out of range: a clear message naming the key."""
    with pytest.raises(ConfigError) as e:
        loads(text, "t.toml")
    assert message in str(e.value)


def test_mock_seats_need_no_wiring_and_do_not_claim_pins():
    """Mock hardware: a mock seat may leave out buttons and display; its pins are its own mock pins."""
    c = loads("""
[pods]
backend = "mock"
[[seat]]
number = 1
[[seat]]
number = 2
buttons = { up = 5, down = 6, select = 13, main = 19 }
[[seat]]
number = 3
buttons = { up = 5, down = 6, select = 13, main = 19 }
""", "m.toml")
    assert [s.backend for s in c.seats] == ["mock"] * 3


def test_path_by_option_then_environment(tmp_path, monkeypatch):
    """The config's path by option and by environment variable."""
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(GOOD)
    b.write_text(GOOD)
    monkeypatch.setenv("TABLEKEEPER_CONFIG", str(b))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nothing"))
    assert cfgmod.find(str(a)) == a
    assert cfgmod.find(None) == b
    monkeypatch.setenv("TABLEKEEPER_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match=r"missing.toml: no such config file \(given by \$TABLEKEEPER_CONFIG\)"):
        cfgmod.find(None)
    monkeypatch.delenv("TABLEKEEPER_CONFIG")
    monkeypatch.setattr(cfgmod, "SYSTEM_PATH", tmp_path / "etc.toml")
    assert cfgmod.find(None) is None


def test_backend_by_environment_and_warned_fallback(monkeypatch, tmp_path):
    """Mock 'selected by config or environment variable, never by silent fallback (warn when falling back)'."""
    from tablekeeper.hardware.rig import MockFallback, Rig

    c = loads(GOOD.replace('backend = "gpio"', 'backend = "auto"'), "t.toml")
    rig = Rig(c, dev=tmp_path)  # no gpiochip here
    monkeypatch.delenv("TABLEKEEPER_PODS", raising=False)
    with pytest.warns(MockFallback, match="no GPIO chip"):
        assert rig.backend_of(c.seats[0]) == "mock"
    (tmp_path / "gpiochip0").touch()
    assert Rig(c, dev=tmp_path).backend_of(c.seats[0]) == "gpio"
    monkeypatch.setenv("TABLEKEEPER_PODS", "mock")
    assert Rig(c, dev=tmp_path).backend_of(c.seats[0]) == "mock"
    monkeypatch.setenv("TABLEKEEPER_PODS", "wireless")
    with pytest.raises(ConfigError, match="TABLEKEEPER_PODS: 'wireless' is not a backend"):
        Rig(c, dev=tmp_path).backend_of(c.seats[0])


def test_serve_refuses_a_bad_config_before_touching_hardware(tmp_path):
    """The config is checked 'before any hardware is touched' — serve stops with the key, no pod built."""
    bad = tmp_path / "bad.toml"
    bad.write_text(_with("channel = 1", "channel = 8"))
    code = textwrap.dedent(f"""
        import sys
        import tablekeeper.hardware.rig as rig
        def refuse(*a, **k):
            raise AssertionError("a Rig was built from a bad config")
        rig.Rig.__init__ = refuse
        import tablekeeper.ui.serve  # the composition that builds the Rig
        from tablekeeper.ui.cli import main
        sys.exit(main(["--state-dir", {str(tmp_path / 'state')!r}, "serve", "--config", {str(bad)!r},
                       "--new", "counters", "Ana", "Ben"]))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stderr
    assert "bad.toml: seat 2: display.channel: 8 is out of range (a TCA9548A has channels 0-7)" in r.stderr
    assert "gpiozero" not in r.stderr and "Traceback" not in r.stderr


def test_an_extra_backend_checks_its_own_keys_and_builds_its_pods(monkeypatch):
    """A backend module hardware/<name>/backend.py (the serial pods') plugs into the same config and the same Rig."""
    import types

    from tablekeeper.hardware.rig import ImagePod, Rig

    fake = types.ModuleType("tablekeeper.hardware.fake.backend")

    def check_seat(raw, where):
        if "port" not in raw:
            raise ConfigError(f"{where}: missing key 'port'")
        return {"port": raw["port"]}

    fake.check_seat = check_seat
    fake.build = lambda rig, seat: ImagePod(seat.number, lambda *a: None)
    monkeypatch.setitem(sys.modules, "tablekeeper.hardware.fake.backend", fake)
    c = loads('[[seat]]\nnumber = 1\nbackend = "fake"\nport = "/dev/ttyACM0"\n', "f.toml")
    assert c.seats[0].extra == {"port": "/dev/ttyACM0"}
    with pytest.raises(ConfigError, match="f.toml: seat 1: missing key 'port'"):
        loads('[[seat]]\nnumber = 1\nbackend = "fake"\n', "f.toml")
    monkeypatch.delenv("TABLEKEEPER_PODS", raising=False)
    pods = Rig(c).build()
    assert isinstance(pods[1], ImagePod)
