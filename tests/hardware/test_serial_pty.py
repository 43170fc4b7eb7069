"""Serial pods over real pseudo-terminals and an in-memory serial peer: the whole host stack, in real time.

The simulated pod (``sim.pty_pod.SimPod``: the firmware's own PodCore behind a
pty) is opened with pyserial through a ``/dev/serial/by-id``-like folder;
seats are built like the rig builds them (``backend.build``), presses go
through the hub into the engine. Faults on the line, a
pod reset mid-game, unplug and replug (on another device node), the other
seats going on; plus the fake serial peer (``sim.fake_serial.FakeSerial``) with the
same faults. Waits are bounded (they poll a condition), never fixed sleeps.
"""
from __future__ import annotations

import errno
import queue
import random
import time

import pytest

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.hardware.buttons import Timing
from tablekeeper.hardware.config import PodsConfig, SeatConfig
from tablekeeper.hardware.errors import ConfigError
from tablekeeper.hardware.face import Care
from tablekeeper.hardware.pod import InputEvent
from tablekeeper.hardware.render import render
from tablekeeper.hardware.rig import Rig
from tablekeeper.hardware.screen import pack
from tablekeeper.hardware.serial import backend
from tablekeeper.hardware.serial.link import FAST, LinkTiming
from tablekeeper.hardware.serial.port import PortFinder, SerialPodLink, port_problem
from tablekeeper.hardware.serial.sim.fake_serial import FakeSerial
from tablekeeper.hardware.serial.sim.faults import Faults
from tablekeeper.hardware.serial.sim.pty_pod import SimPod
from tests.owner import Owner

STILL = Care(shift_every=0, dim_after=0)
TIMING = Timing(debounce=0.02, hold_time=0.6, repeat_interval=0.15)
NAMES = ["Ana", "Ben", "Cai", "Dee"]


def serial_seat(n: int, pod: str, port: str | None = None) -> SeatConfig:
    raw = {"number": n, "backend": "serial", "pod": pod}
    if port:
        raw["port"] = port
    return SeatConfig(n, "serial", extra=backend.check_seat(raw, f"test: seat {n}"))


class Table:
    """A counters game; seats 1.. are serial pods (simulated, on ptys), the rest mock pods; the hub on this thread."""

    def __init__(self, tmp_path, serial=(1, 2), mock=(), faults=None, open_port=None, sims=None):
        self.by_id = tmp_path / "by-id"
        self.reports: list[str] = []
        self.sims = sims if sims is not None else {
            n: SimPod(f"pod-{n}", by_id=self.by_id, **(faults or {}).get(n, {})).start() for n in serial}
        seats = tuple(SeatConfig(n, "mock") for n in mock)
        cfg = PodsConfig("(test)", backend="mock", care=STILL, timing=TIMING, seats=seats)
        self.rig = Rig(cfg, report=self.reports.append)
        self.finder = PortFinder(self.by_id)
        for n in serial:
            port = None if open_port is None else f"fake://pod-{n}"
            self.rig.pods[n] = backend.build(self.rig, serial_seat(n, f"pod-{n}", port), finder=self.finder,
                                                timing=FAST, open_port=open_port)
        self.rig.build(list(mock))
        self.rig.start()
        journal = Journal(tmp_path / "state", durable=False)
        seats_all = sorted(set(serial) | set(mock))
        self.session = Session.new(journal, "counters", NAMES[:len(seats_all)], {"counters": ["gold", "life"]},
                                   rng=random.Random(3))
        self.handled: list[tuple[float, InputEvent]] = []
        self.hub = Owner(self.session, self.rig.pods, report=self.reports.append)

    def until(self, pred, timeout: float = 10.0) -> bool:
        """Serve (the owner loop) until ``pred()`` or ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.hub.step(self.rig.events, 0.01, seen=lambda e: self.handled.append((time.monotonic(), e)))
            if pred():
                return True
        return pred()

    def link(self, n):
        return self.rig.pods[n].link

    def events(self, n) -> list[tuple[str, str]]:
        return [(e.button, e.kind) for _, e in self.handled if e.seat == n]

    def shows_its_view(self, n) -> bool:
        return self.sims[n].frame == pack(render(self.hub.view(n)))

    def converged(self, seats=None) -> bool:
        seats = seats or list(self.sims)
        return all(self.link(n).online and self.shows_its_view(n) for n in seats)

    def click(self, n, button, after=0.0):
        self.sims[n].click(button, after=after)

    def close(self):
        self.rig.close()
        self.session.journal.close()
        for s in self.sims.values():
            s.close()


@pytest.fixture
def table_factory(tmp_path):
    made = []

    def make(**kw):
        t = Table(tmp_path, **kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def script(rng: random.Random, n: int, start: float = 0.0):
    """``n`` clicks 0.08-0.15 s apart: [(after, button)], and the events they give."""
    at = start
    out, want = [], []
    for _ in range(n):
        at += rng.uniform(0.08, 0.15)
        b = rng.choice(["up", "down", "select", "up", "down"])
        out.append((at, b))
        want += [(b, "press"), (b, "release")]
    return out, want


def reference_players(tmp_path, seats, events_by_seat):
    journal = Journal(tmp_path / "reference", durable=False)
    session = Session.new(journal, "counters", NAMES[:len(seats)], {"counters": ["gold", "life"]},
                          rng=random.Random(3))
    hub = Owner(session)
    for n in seats:
        for b, k in events_by_seat.get(n, []):
            hub.press(InputEvent(n, b, k))
    players = session.state["players"]
    journal.close()
    return players


# -- a game on ptys ------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_serial_pods_on_ptys_play_a_game(table_factory, tmp_path):
    """The whole host stack against real serial device nodes: presses reach the engine exactly once and
    every pod shows the rendered view of its seat (the simulated pod's framebuffer = hardware.render)."""
    t = table_factory(serial=(1, 2))
    assert t.until(t.converged, 5), t.reports
    rng = random.Random(1)
    want = {}
    for n in (1, 2):
        clicks, want[n] = script(rng, 8)
        for after, b in clicks:
            t.click(n, b, after)
    assert t.until(lambda: all(len(t.events(n)) >= len(want[n]) for n in (1, 2)) and t.converged(), 10)
    for n in (1, 2):
        assert t.events(n) == want[n]
    assert canonical(t.session.state["players"]) == canonical(reference_players(tmp_path, [1, 2], want))
    # online and without a problem: a line silent for a moment on a starved machine (seen with both cores
    # loaded) is marked offline, then online again at its next frame, which the wait allows
    assert t.until(lambda: all(t.rig.pods[n].online and t.rig.pods[n].problem is None for n in (1, 2)), 10), \
        t.reports


FAULTS = {
    "dropped bytes": dict(drop=0.005),
    "corrupted bytes": dict(corrupt=0.005),
    "duplicated bytes": dict(duplicate=0.005),
    "reordered bytes": dict(reorder=0.005),
    "garbage between frames": dict(garbage=0.003),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", FAULTS)
def test_faults_on_the_pty_lose_and_double_nothing(table_factory, tmp_path, name):
    """Dropped, corrupted, duplicated and reordered bytes, garbage between frames, both ways, on a
    real pty: no press lost or doubled, the display converges."""
    kw = FAULTS[name]
    faults = {1: {"to_pod": Faults(seed=11, **kw), "to_host": Faults(seed=12, **kw)}}
    t = table_factory(serial=(1,), faults=faults)
    assert t.until(t.converged, 10), t.reports
    clicks, want = script(random.Random(2), 10)
    for after, b in clicks:
        t.click(1, b, after)
    assert t.until(lambda: len(t.events(1)) >= len(want) and t.converged() and t.link(1).core.settled(), 20), \
        (t.events(1), t.link(1).stats)
    assert t.events(1) == want
    sim = t.sims[1]
    assert sum(v for k, v in sim.to_pod.counts.items() if k != "bytes") > 0
    assert canonical(t.session.state["players"]) == canonical(reference_players(tmp_path, [1], {1: want}))


@pytest.mark.slow
def test_pod_reset_mid_game_other_seat_goes_on(table_factory, tmp_path):
    """A pod reset mid-game: a new boot id, a full redraw, its presses counted again from the
    pod's fresh numbering; the other seat is served all along."""
    t = table_factory(serial=(1, 2))
    assert t.until(t.converged, 5)
    rng = random.Random(3)
    c1, w1 = script(rng, 4)
    for after, b in c1:
        t.click(1, b, after)
    assert t.until(lambda: len(t.events(1)) >= len(w1), 5)
    boot = t.link(1).identity.boot_id
    t.sims[1].reset()
    c2, w2 = script(rng, 6)
    for after, b in c2:
        t.click(2, b, after)  # seat 2 plays on while seat 1 restarts
    assert t.until(lambda: t.link(1).online and t.link(1).identity.boot_id != boot and t.converged(), 5)
    c3, w3 = script(rng, 4)
    for after, b in c3:
        t.click(1, b, after)
    assert t.until(lambda: len(t.events(1)) >= len(w1 + w3) and len(t.events(2)) >= len(w2) and t.converged(), 10)
    assert t.events(1) == w1 + w3 and t.events(2) == w2
    assert t.link(1).stats.restarts == 1 and any("restarted" in r for r in t.reports)
    assert canonical(t.session.state["players"]) == canonical(
        reference_players(tmp_path, [1, 2], {1: w1 + w3, 2: w2}))


@pytest.mark.slow
def test_unplug_and_replug_on_another_node(table_factory, tmp_path):
    """Unplug and replug: offline while away (the other seat goes on), back online when plugged
    in again — under another device node and another by-id name, found by its pod id — with a full redraw."""
    t = table_factory(serial=(1, 2))
    assert t.until(t.converged, 5)
    old_device = t.sims[1].device
    t.sims[1].unplug()
    assert t.until(lambda: not t.rig.pods[1].online, 5)
    assert t.rig.pods[1].problem and any("offline" in r for r in t.reports)
    unplugged_at = time.monotonic()
    c2, w2 = script(random.Random(4), 5)
    for after, b in c2:
        t.click(2, b, after)
    assert t.until(lambda: len(t.events(2)) >= len(w2), 5)
    assert all(at > unplugged_at for at, e in t.handled if e.seat == 2)
    assert not t.rig.pods[1].online  # seat 2's presses were all served while seat 1 was away
    blocker = SimPod("blocker", by_id=t.by_id).start()  # takes the freed node number, if it is free yet
    try:
        t.sims[1].replug("usb-Some_Adapter_A1B2-if00")
        assert t.sims[1].device != old_device
        assert t.until(lambda: t.converged(), 10), t.reports
        assert t.link(1).path.endswith("usb-Some_Adapter_A1B2-if00")
        c1, w1 = script(random.Random(5), 4)
        for after, b in c1:
            t.click(1, b, after)
        assert t.until(lambda: len(t.events(1)) >= len(w1), 5)
        assert t.events(1) == w1 and t.events(2) == w2
    finally:
        blocker.close()


def test_pods_are_found_by_id_whatever_the_port(table_factory, tmp_path):
    """Seats map to pods by pod id, so a pod can move to another USB port: two pods on ports whose names
    say nothing about them, then swapped."""
    by_id = tmp_path / "by-id"
    sims = {1: SimPod("pod-1", by_id=by_id, name="usb-FTDI_A-if00").start(),
            2: SimPod("pod-2", by_id=by_id, name="usb-FTDI_B-if00").start()}
    t = table_factory(serial=(1, 2), sims=sims)
    assert t.until(t.converged, 10), t.reports
    assert t.link(1).path.endswith("FTDI_A-if00") and t.link(2).path.endswith("FTDI_B-if00")
    sims[1].unplug()
    sims[2].unplug()
    sims[1].replug("usb-FTDI_B-if00")
    sims[2].replug("usb-FTDI_A-if00")
    assert t.until(lambda: t.converged() and t.link(1).path.endswith("FTDI_B-if00"), 10), t.reports
    assert t.link(2).path.endswith("FTDI_A-if00")


# -- the fake serial peer (no pty) ---------------------------------------------------------------------------
@pytest.mark.slow
def test_fake_serial_peer_with_faults_and_a_replug(table_factory, tmp_path):
    """Through a fake serial peer (pyserial's interface, in memory): faults both ways, an unplug
    and a replug; every press once, the picture converges."""
    fakes = {1: FakeSerial("pod-1", to_pod=Faults(corrupt=0.004, drop=0.002, seed=1),
                           to_host=Faults(corrupt=0.004, duplicate=0.002, garbage=0.002, seed=2))}

    def open_port(path, timing):
        return fakes[int(path.rsplit("-", 1)[1])].open()

    t = table_factory(serial=(1,), open_port=open_port, sims=fakes)
    assert t.until(t.converged, 10), t.reports
    clicks, want = script(random.Random(6), 10)
    for after, b in clicks:
        fakes[1].click(b, after=after)
    assert t.until(lambda: len(t.events(1)) >= len(want) and t.converged(), 10)
    fakes[1].unplug()
    assert t.until(lambda: not t.link(1).online, 5)
    fakes[1].replug()
    assert t.until(t.converged, 10)
    clicks2, want2 = script(random.Random(7), 5)
    for after, b in clicks2:
        fakes[1].click(b, after=after)
    assert t.until(lambda: len(t.events(1)) >= len(want + want2) and t.converged(), 10)
    assert t.events(1) == want + want2
    assert t.link(1).stats.restarts == 1


def test_a_mock_seat_and_a_serial_seat_share_the_table(table_factory):
    """No special case elsewhere: a serial seat next to a mock seat, one hub, one queue."""
    t = table_factory(serial=(1,), mock=(2,))
    assert t.until(lambda: t.converged([1]), 5)
    pin = t.rig.pods[2].pin("up")
    pin.drive_low()
    assert t.until(lambda: any(e.seat == 2 for _, e in t.handled), 3)
    pin.drive_high()
    t.click(1, "up")
    assert t.until(lambda: len(t.events(1)) == 2 and t.converged([1]), 5)
    assert t.session.state["players"][0]["counters"]["gold"] == 1


# -- ports ---------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_loop_url_is_not_a_pod(tmp_path):
    """Pyserial's ``loop://`` sends back what it is sent: recognised as an echo, never taken for a pod."""
    reports = []
    link = SerialPodLink(1, "pod-1", queue.Queue().put, port="loop://", finder=PortFinder(tmp_path / "none"),
                         timing=FAST, report=reports.append, search=False)
    assert not link.probe()
    assert link.stats.echoes >= 3 and any("sends back what is sent" in r for r in reports)
    assert "does not answer as a pod" in link.problem


def test_a_port_held_by_another_program(tmp_path):
    """Pyserial's exclusive lock: a second tablekeeper cannot steal a pod's port; it says so."""
    sim = SimPod("pod-1", by_id=tmp_path / "by-id").start()
    try:
        first = SerialPodLink(1, "pod-1", queue.Queue().put, finder=PortFinder(tmp_path / "by-id"), timing=FAST).start()
        assert first.wait_for(lambda c: c.online, 5)
        second = SerialPodLink(1, "pod-1", queue.Queue().put, port=sim.path, finder=PortFinder(tmp_path / "x"),
                               timing=FAST, search=False)
        assert not second.probe()
        assert "in use by another program" in second.problem
        first.close()
        assert sim.frame == bytes(1024) and not sim.display.on  # close blanks and switches off
    finally:
        sim.close()


@pytest.mark.parametrize("error, words", [
    (PermissionError(errno.EACCES, "Permission denied"), "add the user to the dialout group"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory"), "unplugged"),
    (OSError(errno.EBUSY, "Device or resource busy"), "in use by another program"),
    (OSError(errno.EIO, "Input/output error"), "Input/output error"),
])
def test_port_errors_say_what_to_do(error, words):
    assert words in str(port_problem(error, "/dev/ttyACM0"))


# -- hw check and config -------------------------------------------------------------------------------------
def test_hw_check_finds_the_pod_and_its_display(tmp_path):
    """``hw check`` shows a serial pod online (its identity) or not found, and whether its display answers."""
    by_id = tmp_path / "by-id"
    sim = SimPod("pod-1", by_id=by_id).start()
    other = SimPod("pod-9", by_id=by_id).start()
    try:
        found = backend.hw_check(serial_seat(1, "pod-1"), finder=PortFinder(by_id), timing=FAST)
        assert [(p, ok) for p, ok, _ in found] == [("pod", True), ("display", True), ("buttons", True),
                                                   ("link", True)]
        assert "pod 'pod-1'" in found[0][2] and "online" in found[0][2]
        assert sim.frame != bytes(1024)  # hw check looked, drew nothing: the waiting screen is still there
        sim.display.fail = True
        sim.reset()
        found = backend.hw_check(serial_seat(1, "pod-1"), finder=PortFinder(by_id), timing=FAST)
        assert found[1][:2] == ("display", False) and "I2C wiring" in found[1][2]
        missing = backend.hw_check(serial_seat(2, "pod-2"), finder=PortFinder(by_id), timing=FAST)
        assert missing[0][:2] == ("pod", False)
        assert "not found" in missing[0][2] and "pod-9" in missing[0][2]
        pods = backend.find_pods(PortFinder(by_id), timing=FAST)
        assert sorted(i.pod_id for _, i in pods) == ["pod-1", "pod-9"]
    finally:
        sim.close()
        other.close()


@pytest.mark.parametrize("raw, words", [
    ({"number": 1, "backend": "serial"}, "missing key 'pod'"),
    ({"number": 1, "backend": "serial", "pod": "a b"}, "is not a pod id"),
    ({"number": 1, "backend": "serial", "pod": "ok", "port": 3}, "port: must be a device path"),
    ({"number": 1, "backend": "serial", "pod": "ok", "buttons": {}}, "buttons: unknown key"),
])
def test_serial_seat_config_errors_name_the_key(raw, words):
    with pytest.raises(ConfigError, match=words):
        backend.check_seat(raw, "tablekeeper.toml: seat 1")


def test_serial_seat_config():
    extra = backend.check_seat({"number": 3, "backend": "serial", "pod": "e6614c311b7c5f2c"}, "x")
    assert extra == {"pod": "e6614c311b7c5f2c", "port": None}
    with pytest.raises(ConfigError, match="already seat 1's pod"):
        backend.check_duplicates([serial_seat(1, "p"), serial_seat(2, "p")])


def test_a_simulated_serial_seat_for_mock_mode(tmp_path):
    """The simulated pod usable in mock mode: ``port = "sim"`` runs the seat over a pty to a simulated pod
    whose buttons are pins like a mock pod's."""
    cfg = PodsConfig("(test)", backend="mock", care=STILL, timing=TIMING, seats=())
    rig = Rig(cfg)
    journal = Journal(tmp_path / "state", durable=False)
    session = Session.new(journal, "counters", ["Ana"], {"counters": ["gold"]})
    try:
        rig.pods[1] = pod = backend.build(rig, serial_seat(1, "sim-1", "sim"), timing=FAST)
        hub = Owner(session, rig.pods)
        assert pod.description.startswith("simulated serial pod 'sim-1' on /dev/")
        end = time.monotonic() + 5
        pin = pod.pin("up")
        pressed = False
        while time.monotonic() < end and session.state["players"][0]["counters"]["gold"] != 1:
            hub.step(rig.events, 0.01)
            if pod.online and not pressed:
                pin.drive_low()
                pressed = True
                pin_up = time.monotonic() + 0.05
            if pressed and pin_up and time.monotonic() > pin_up:
                pin.drive_high()
                pin_up = None
        assert session.state["players"][0]["counters"]["gold"] == 1
        while time.monotonic() < end and pack(pod.screen_image) != pack(render(hub.view(1))):
            hub.step(rig.events, 0.01)
        assert pack(pod.screen_image) == pack(render(hub.view(1)))
    finally:
        rig.pods[1].close()
        journal.close()


# -- silences and a hostile device, through the port layer -----------------------------------------------------
class Silence:
    """A direction of the simulated pod's line that carries nothing while ``on``."""

    def __init__(self):
        self.on = False
        self.counts = {"bytes": 0}

    def apply(self, data):
        self.counts["bytes"] += len(data)
        return b"" if self.on else data


#: Quick timers with the slow reconnect backoff of the default timing: a port left silent for a while must
#: not make the link wait that long once the line is back.
SLOW_BACKOFF = LinkTiming(heartbeat=0.05, offline_after=0.4, keepalive=0.2, event_resend=0.03, rto_initial=0.05,
                          rto_min=0.01, identify_timeout=0.3, tick=0.02, backoff_first=0.4, backoff_max=3.0,
                          reopen_after=0.5, close_flush=0.3)


@pytest.mark.slow
def test_a_seat_answers_within_two_seconds_after_a_long_silent_line(tmp_path):
    """The line silent both ways for 5 s (the port itself stays fine): once it carries again, a press reaches
    the owner, and no reconnect pause grew during the silence (each retry after backoff_first, none at the
    doubled delays up to backoff_max that a port that will not open gets)."""
    by_id = tmp_path / "by-id"
    to_pod, to_host = Silence(), Silence()
    sim = SimPod("pod-1", by_id=by_id, to_pod=to_pod, to_host=to_host).start()
    events: queue.Queue = queue.Queue()
    link = SerialPodLink(1, "pod-1", events.put, finder=PortFinder(by_id), timing=SLOW_BACKOFF)
    waits: list[float] = []
    stop = link._stop

    class Watched:  # the I/O thread's pauses between attempts, as asked of its stop event
        def wait(self, timeout=None):
            waits.append(timeout)
            return stop.wait(timeout)

        def __getattr__(self, name):
            return getattr(stop, name)

    link._stop = Watched()
    link.start()
    try:
        assert link.wait_for(lambda c: c.online, 5)
        to_pod.on = to_host.on = True
        assert link.wait_for(lambda c: not c.online, 2)
        time.sleep(4.6)
        to_pod.on = to_host.on = False
        sim.click("up", after=0.05)
        e = events.get(timeout=10)
        assert (e.button, e.kind) == ("up", "press")
        # the port kept opening, so no pause grew: a seat is tried again every backoff_first (the
        # identify handshake's timeout paces it), never at backoff_max — that is what keeps it quick
        assert SLOW_BACKOFF.backoff_first in waits and max(waits) <= SLOW_BACKOFF.backoff_first, waits
    finally:
        link.close()
        sim.close()


def test_a_stuck_owner_is_noticed_from_its_real_backlog_and_its_queue_stays_bounded(tmp_path):
    """Button events beyond what may wait for the owner are counted and reported, not queued without end.
    The link reads the owner's real backlog: a keeper whose worker does not run (stuck) has its jobs
    pile up to the limit, and no further."""
    from tablekeeper.ui.controller import Keeper

    with Journal(tmp_path / "state", durable=False) as journal:
        session = Session.new(journal, "counters", ["Ana"], {"counters": ["gold"]})
        keeper = Keeper(pods=True).start(thread=False, session=session)  # nobody pumps it: stuck
        reports = []
        link = SerialPodLink(1, "pod-1", keeper.press, backlog=keeper.backlog, port="fake://pod-1",
                             report=reports.append)
        for i in range(5000):
            link.core.on_event(InputEvent(1, "up", "press", float(i)))
        waiting = keeper.backlog()
        assert waiting == 256
        assert link.stats.events_queue_full == 5000 - waiting
        assert sum("queue" in r for r in reports) == 1
        keeper.pump()  # the owner comes back: what waited is applied, in order, once
        assert keeper.backlog() == 0
        assert session.state["players"][0]["counters"]["gold"] == 256


def test_hw_check_shows_the_link_statistics(tmp_path):
    """``hw check`` shows a serial pod's link statistics: retransmits, bad frames, timeouts, events the pod
    dropped, events over the rate limit."""
    by_id = tmp_path / "by-id"
    sim = SimPod("pod-1", by_id=by_id, to_host=Faults(garbage=0.01, seed=4)).start()
    try:
        found = backend.hw_check(serial_seat(1, "pod-1"), finder=PortFinder(by_id), timing=FAST)
    finally:
        sim.close()
    link = [f for f in found if f[0] == "link"]
    assert link and link[0][1], found
    text = link[0][2]
    for words in ("retransmits", "bad frames", "timeouts", "events dropped by the pod", "events over the rate limit"):
        assert words in text, text
