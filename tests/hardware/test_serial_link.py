"""The serial pod link on a fake clock: the host's LinkCore and the firmware's PodCore over a faulty wire.

Deterministic fault injection (issue #9, "Evidence"): dropped, corrupted,
duplicated and reordered bytes, garbage between frames, a cable that goes
silent, a pod reset mid-game, a host restart. Pass: no press lost or
doubled, the display converges to the current picture, other seats go on.
"""
from __future__ import annotations

import queue
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.hardware import serial_frame as frame
from tablekeeper.hardware import serial_proto as proto
from tablekeeper.hardware.hub import PodHub
from tablekeeper.hardware.mock import FakeClock
from tablekeeper.hardware.panel import Care, Panel
from tablekeeper.hardware.pod import BUTTONS, InputEvent
from tablekeeper.hardware.pods import Pod
from tablekeeper.hardware.render import render
from tablekeeper.hardware.screen import pack
from tablekeeper.hardware.serial_link import IDENT, INCOMPATIBLE, LinkCore, LinkTiming
from tablekeeper.hardware.simpod import CoreDisplay, Faults, VirtualDisplay, Wire, podcore, run_wires

PC = podcore()
STILL = Care(shift_every=0, dim_after=0)


def make(pod_id="pod-1", seat=1, *, clock=None, to_pod=None, to_host=None, delay=0.0005, jitter=0.0, seed=0,
         timing=LinkTiming(), rx_window=None, expect=None):
    clock = clock or FakeClock(0.0)
    t = SimpleNamespace(clock=clock, events=[], reports=[])
    t.link = LinkCore(seat, expect or pod_id, timing, on_event=t.events.append, report=t.reports.append)
    t.pod_id = pod_id
    t.rx_window = rx_window
    t.boots = []
    t.display = None
    t.pod = None
    new_pod(t)
    t.wire = Wire(t.link, t.pod, clock, to_pod=to_pod, to_host=to_host, delay=delay, jitter=jitter, seed=seed)
    t.link.opened(clock.now, "wire")
    return t


def new_pod(t):
    """(Re)start the pod: a new boot id, a fresh display; what it had not sent is gone."""
    t.display = VirtualDisplay()
    boot = random.Random(len(t.boots) + 17).getrandbits(32) | 1
    t.boots.append(boot)
    kw = {"rx_window": t.rx_window} if t.rx_window else {}
    t.pod = PC.PodCore(t.pod_id, boot, t.display, int(t.clock.now * 1000), **kw)
    if getattr(t, "wire", None) is not None:
        t.wire.pod = t.pod


def picture(seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) if rng.random() < 0.4 else 0 for _ in range(1024))


def clicks(t, n: int, start: float, seed: int = 0, gap=(0.08, 0.25)) -> list[tuple[str, str]]:
    """Schedule ``n`` clicks of random buttons on the wire; the events they must give, in order."""
    rng = random.Random(seed)
    want = []
    at = start
    t.schedule = getattr(t, "schedule", [])
    for _ in range(n):
        b = rng.randrange(4)
        at += rng.uniform(*gap)
        t.wire.click(b, at=at)
        t.schedule.append((at, b))
        want += [(BUTTONS[b], "press"), (BUTTONS[b], "release")]
    t.last_click = at
    return want


def got(t) -> list[tuple[str, str]]:
    return [(e.button, e.kind) for e in t.events]


def settle(t, seconds=30.0, n_events=None) -> bool:
    n = n_events if n_events is not None else 0
    return t.wire.run(seconds, until=lambda: t.link.settled() and not t.pod.outbox and len(t.events) >= n
                      and t.display.frame == bytes(t.link.target))


# -- the session ---------------------------------------------------------------------------------------------
def test_identify_handshake():
    """#9: identify reply (protocol version, firmware version, pod id, boot id); online/offline state."""
    t = make()
    assert t.link.state == IDENT and not t.link.online
    assert t.wire.run(0.1, until=lambda: t.link.online)
    ident = t.link.identity
    assert (ident.pod_id, ident.firmware, ident.protocol, ident.boot_id) == ("pod-1", PC.FIRMWARE_VERSION,
                                                                            proto.PROTOCOL, t.boots[0])
    assert ident.rx_window == PC.RX_WINDOW and ident.display_ok
    assert "online" in t.reports[0] and "pod-1" in t.reports[0]


def test_picture_arrives_then_only_changes_are_sent():
    """#9: display updates are "set these pages/columns" commands; only what changed goes on the wire."""
    t = make()
    t.wire.run(0.1, until=lambda: t.link.online)
    t.link.set_window(0, 127, 0, 7, picture(1))
    assert settle(t, 2)
    sent = t.link.stats.draw_bytes
    small = bytearray(picture(1))
    small[3 * 128 + 10:3 * 128 + 18] = b"\x55" * 8
    t.link.set_window(0, 127, 0, 7, bytes(small))
    assert settle(t, 2)
    assert t.display.frame == bytes(small)
    assert t.link.stats.draw_bytes - sent <= 8


def test_updates_made_while_frames_travel_coalesce():
    """Idempotent sets: pictures set while earlier ones are still on the way are not all sent; the last wins."""
    t = make(delay=0.05)
    t.wire.run(1, until=lambda: t.link.settled())
    base = t.link.stats.bytes_sent
    for i in range(30):
        t.link.set_window(0, 63, 2, 5, bytes((i * 3 + k) & 255 for k in range(256)))
        t.clock.now += 0.001
        t.wire.step()
    assert settle(t, 3)
    assert t.display.frame[5 * 128:5 * 128 + 64] == bytes((29 * 3 + k) & 255 for k in range(192, 256))
    assert t.link.stats.bytes_sent - base < 30 * 256 / 4


def test_close_blanks_and_switches_off():
    t = make()
    t.wire.run(0.1, until=lambda: t.link.online)
    t.link.set_window(0, 127, 0, 7, picture(2))
    assert settle(t, 2) and t.display.on
    CoreDisplay(t.link).close()
    assert settle(t, 2)
    assert t.display.frame == bytes(1024) and not t.display.on


# -- faults: table-driven (OctoPrint's habit) ----------------------------------------------------------------
FAULTS = {
    "clean": {},
    "dropped bytes": {"drop": 0.004},
    "corrupted bytes": {"corrupt": 0.004},
    "duplicated bytes": {"duplicate": 0.004},
    "reordered bytes": {"reorder": 0.004},
    "garbage between frames": {"garbage": 0.002},
    "everything at once": {"drop": 0.002, "corrupt": 0.002, "duplicate": 0.002, "reorder": 0.002, "garbage": 0.001},
    "1% corrupted bytes": {"corrupt": 0.01},
}


@pytest.mark.parametrize("name", FAULTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_press_once_and_the_picture_converges_under_faults(name, seed):
    """#9 Evidence: faults both ways; no press lost or doubled (in order), the display converges."""
    kw = FAULTS[name]
    t = make(to_pod=Faults(seed=seed * 2, **kw), to_host=Faults(seed=seed * 2 + 1, **kw), seed=seed, jitter=0.002)
    assert t.wire.run(5, until=lambda: t.link.online)
    want = clicks(t, 30, t.clock.now, seed)
    rng = random.Random(seed)
    for i in range(6):  # the picture changes meanwhile
        t.wire.at(t.clock.now + rng.uniform(0, 5), lambda p=picture(seed * 10 + i): t.link.set_window(0, 127, 0, 7, p))
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 60, len(want)), (t.link.stats, t.link.state)
    assert got(t) == want
    assert t.display.frame == bytes(t.link.target)
    if kw:
        s = t.link.stats
        counts = t.wire.to_pod.counts
        assert sum(counts[k] for k in ("dropped", "corrupted", "duplicated", "reordered", "garbage")) > 0
        assert s.retransmitted_frames + s.bad_frames + s.discarded_bytes + s.duplicate_events > 0


fault_rates = st.fixed_dictionaries({k: st.sampled_from([0, 0.001, 0.003]) for k in
                                     ("drop", "corrupt", "duplicate", "reorder")})


@settings(max_examples=25, deadline=None)
@given(fault_rates, fault_rates, st.integers(0, 2**16), st.sampled_from([0.0005, 0.003, 0.02]))
def test_exactly_once_property(to_pod, to_host, seed, delay):
    """#9: every press reaches the engine exactly once, for random fault mixes, delays and press timings."""
    t = make(to_pod=Faults(seed=seed, **to_pod), to_host=Faults(seed=seed + 1, **to_host), delay=delay, seed=seed)
    assert t.wire.run(10, until=lambda: t.link.online)
    want = clicks(t, 15, t.clock.now, seed, gap=(0.08, 0.3))
    t.wire.at(t.clock.now + 0.5, lambda: t.link.set_window(0, 127, 0, 7, picture(seed)))
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 60, len(want))
    assert got(t) == want
    assert t.display.frame == bytes(t.link.target)


# -- the retransmission timeout ------------------------------------------------------------------------------
@pytest.mark.parametrize("delay", [0.0005, 0.01, 0.04])
def test_timeout_adapts_to_the_round_trip(delay):
    """#9: retransmitted with an adaptive timeout: the timeout follows the measured round trip (SRTT + 4 RTTVAR),
    so a clean line has no needless retransmission, slow or fast."""
    t = make(delay=delay)
    t.wire.run(2, until=lambda: t.link.online)
    for i in range(20):
        t.link.set_window(0, 127, i % 8, i % 8, bytes([i + 1]) * 128)
        t.wire.run(0.2)
    assert settle(t, 5)
    s = t.link.stats
    assert s.retransmitted_frames == 0 and s.rtt_samples >= 20
    assert t.link.srtt == pytest.approx(2 * delay, rel=0.5, abs=0.002)
    assert t.link.srtt < t.link.rto <= max(t.link.timing.rto_min, 2 * t.link.srtt)


class DropChunks:
    """Faults that drop whole chunks (host writes) by number."""

    def __init__(self, numbers):
        self.numbers = set(numbers)
        self.n = 0
        self.counts = {}

    def apply(self, data):
        self.n += 1
        return b"" if self.n in self.numbers else data


def test_nak_resends_at_once():
    """#9 (Klipper): a gap seen by the pod is NAKed and resent at once, before the timeout would."""
    t = make(delay=0.002)
    t.wire.run(1, until=lambda: t.link.settled())
    n = t.wire.to_pod.n if hasattr(t.wire.to_pod, "n") else 0
    t.wire.to_pod = DropChunks({n + 1})
    t.link.set_window(0, 127, 0, 7, picture(3))  # several frames at once: the first is lost
    out = t.link.poll(t.clock.now)
    pieces = []
    while out:  # one chunk per frame: the first one is lost on the way
        n = frame.check(out)
        pieces.append(out[:n])
        out = out[n:]
    assert len(pieces) >= 2
    for p in pieces:
        t.wire._send("pod", p, t.clock.now)
    assert settle(t, 2)
    s = t.link.stats
    assert s.fast_retransmits >= 1 and s.timeouts == 0 and s.naks >= 1
    assert s.retransmitted_frames <= len(pieces)  # each frame of the burst sent again once at most


def test_flow_window_is_respected():
    """At most the pod's rx_window bytes (and max_in_flight frames) unacknowledged at a time."""
    t = make(delay=0.02, rx_window=300)
    t.wire.run(1, until=lambda: t.link.online)
    t.link.set_window(0, 127, 0, 7, picture(4))
    worst = 0

    def check():
        nonlocal worst
        worst = max(worst, sum(len(s.frame) for s in t.link.inflight))
        assert len(t.link.inflight) <= t.link.timing.max_in_flight

    run_wires([t.wire], t.clock, 3, until=lambda: t.link.settled(), between=check)
    assert t.link.settled() and 0 < worst <= 300


# -- restarts, cables, wrong pods ----------------------------------------------------------------------------
def test_pod_reset_mid_game_full_redraw_and_fresh_numbering():
    """#9: restart detection (boot id changed → full redraw); the restarted pod numbers its presses from 1
    again and none of them is taken for a repeat, none doubled."""
    t = make(to_pod=Faults(corrupt=0.002, seed=5), to_host=Faults(corrupt=0.002, seed=6))
    t.wire.run(1, until=lambda: t.link.online)
    t.link.set_window(0, 127, 0, 7, picture(5))
    want = clicks(t, 10, t.clock.now, 5)
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 30, len(want)) and got(t) == want
    new_pod(t)  # the reset button, or the watchdog
    assert t.display.frame != bytes(t.link.target)
    assert t.wire.run(5, until=lambda: t.link.online and t.link.identity.boot_id == t.boots[1])
    want += clicks(t, 10, t.clock.now, 6)
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 30, len(want))
    assert got(t) == want
    assert t.display.frame == bytes(t.link.target) == picture(5)
    assert t.link.stats.restarts == 1 and any("restarted" in r for r in t.reports)


def test_pod_reset_while_pressing_never_doubles():
    """A reset with presses still in the pod: those may be lost with its memory, but nothing is doubled."""
    t = make(to_host=Faults(drop=0.01, seed=3))
    t.wire.run(1, until=lambda: t.link.online)
    want = clicks(t, 20, t.clock.now, 7, gap=(0.08, 0.1))
    t.wire.run((t.last_click - t.clock.now) / 2)
    new_pod(t)
    t.wire._actions.clear()  # the reset pod does not finish the presses
    assert settle(t, 10)
    seq = got(t)
    it = iter(want)
    assert all(any(w == g for w in it) for g in seq), "not a subsequence: something was doubled or reordered"
    assert len(seq) < len(want)


def test_host_restart_takes_presses_on_from_the_acknowledged_one():
    """A new host process (a new LinkCore) starts after the last acknowledged event: nothing is doubled."""
    t = make()
    t.wire.run(1, until=lambda: t.link.online)
    want = clicks(t, 5, t.clock.now, 8)
    t.wire.run(t.last_click - t.clock.now + 0.5)
    assert got(t) == want and not t.pod.outbox
    events2 = []
    t.link = LinkCore(1, "pod-1", on_event=events2.append)
    t.wire.link = t.link
    t.link.opened(t.clock.now, "wire")
    assert t.wire.run(1, until=lambda: t.link.online)
    assert t.link.identity.acked == 10 and t.link.last_event == 10
    t.events = events2
    want2 = clicks(t, 3, t.clock.now, 9)
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 5, len(want2)) and got(t) == want2


def test_cable_silent_goes_offline_and_comes_back():
    """#9: an online/offline state; after a silence the link starts a new session and sends everything again."""
    t = make(timing=LinkTiming(offline_after=0.5))
    t.wire.run(1, until=lambda: t.link.online)
    t.link.set_window(0, 127, 0, 7, picture(6))
    assert settle(t, 2)
    t.wire.cut = True
    assert t.wire.run(2, until=lambda: not t.link.online)
    assert any("offline" in r for r in t.reports)
    t.link.set_window(0, 127, 0, 7, picture(7))  # the game goes on meanwhile
    t.wire.run(1)
    t.wire.cut = False
    want = clicks(t, 4, t.clock.now + 0.5, 10)
    t.wire.run(t.last_click - t.clock.now + 0.1)
    assert settle(t, 10, len(want)) and got(t) == want
    assert t.display.frame == picture(7) and t.link.stats.offline == 1


def test_wrong_pod_is_not_taken():
    """Seats map to pods by pod id: another pod on the port is recognised and left alone."""
    t = make(pod_id="pod-2", expect="pod-1")
    t.wire.run(1)
    assert not t.link.online and t.link.wrong_pod == "pod-2"
    assert t.link.poll(t.clock.now) == b""


def test_incompatible_protocol_is_refused():
    t = make()
    session = t.link.session
    ident = bytearray(proto.identity(session, 1, 512, 0, 3, "9.9", "pod-1"))
    ident[5] = proto.PROTOCOL + 1
    t.link.poll(0)
    t.link.receive(frame.encode(t.link._ident_seq + 1, bytes(ident)), 0.001)
    assert t.link.state == INCOMPATIBLE and not t.link.online
    assert f"protocol {proto.PROTOCOL + 1}" in t.link.problem and "firmware" in t.link.problem


def test_own_frames_echoed_back_are_recognised():
    """A port that sends back what it is sent (echo on, a loopback) is not a pod."""
    t = make()
    out = t.link.poll(0)
    for _ in range(3):
        t.link.receive(out, 0.01)
    assert t.link.state == IDENT and t.link.stats.echoes == 3
    assert any("sends back what is sent" in r for r in t.reports)


def test_pod_display_trouble_is_reported():
    t = make()
    t.wire.run(1, until=lambda: t.link.online)
    t.display.fail = True
    t.link.set_window(0, 127, 0, 0, b"\x01" * 128)
    assert t.wire.run(2, until=lambda: t.link.identity.display_ok is False)
    assert "display" in t.link.problem
    t.display.fail = False
    assert t.wire.run(5, until=lambda: t.link.identity.display_ok)
    assert settle(t, 2) and t.display.frame == bytes(t.link.target)


# -- a table of seats: the engine, the hub, the pods ---------------------------------------------------------
class Table:
    """A game with serial seats on wires (one fake clock) and the owner loop between steps."""

    def __init__(self, tmp_path, seats=(1, 2, 3), faults=None, game_options=None):
        self.clock = FakeClock(0.0)
        journal = Journal(tmp_path / "state", durable=False)
        names = ["Ana", "Ben", "Cai", "Dee"][:len(seats)]
        self.session = Session.new(journal, "counters", names, game_options or {"counters": ["gold", "life"]},
                                   rng=random.Random(1))
        self.queue: queue.Queue = queue.Queue()
        self.handled: list[InputEvent] = []
        self.handled_at: list[float] = []
        self.t = {}
        pods = {}
        for n in seats:
            f = (faults or {}).get(n, {})
            t = make(f"pod-{n}", n, clock=self.clock, to_pod=Faults(seed=n, **f), to_host=Faults(seed=n + 10, **f),
                     seed=n)
            t.link.on_event = self.queue.put
            self.t[n] = t
            panel = Panel(n, lambda c=t.link: CoreDisplay(c), STILL, clock=self.clock)
            pods[n] = Pod(n, "serial", panel, f"wire pod {n}", clock=self.clock)
        self.hub = PodHub(self.session, pods, self.queue, clock=self.clock)
        self.hub.refresh()

    def owner(self):
        while True:
            try:
                e = self.queue.get_nowait()
            except queue.Empty:
                break
            self.handled.append(e)
            self.handled_at.append(self.clock.now)
            self.hub.handle(e)
        self.hub.refresh()

    def run(self, seconds, until=None):
        return run_wires([t.wire for t in self.t.values()], self.clock, seconds, until, self.owner)

    def shows_its_view(self, seat) -> bool:
        return self.t[seat].display.frame == pack(render(self.hub.view(seat)))

    def converged(self) -> bool:
        return all(t.link.settled() and not t.pod.outbox for t in self.t.values()) and \
            all(self.shows_its_view(n) for n in self.t)


def reference_state(tmp_path, seats, events_by_seat):
    """The state the intended presses give when handed to the hub directly (no link at all)."""
    journal = Journal(tmp_path / "reference", durable=False)
    names = ["Ana", "Ben", "Cai", "Dee"][:len(seats)]
    session = Session.new(journal, "counters", names, {"counters": ["gold", "life"]}, rng=random.Random(1))
    hub = PodHub(session, {}, queue.Queue())
    for n in seats:
        for button, kind in events_by_seat[n]:
            hub.handle(InputEvent(n, button, kind))
    return session.state


def test_game_goes_on_through_a_pod_reset_and_a_silent_cable(tmp_path):
    """#9 Evidence, end to end: three seats; seat 1's pod restarts mid-game, seat 2's cable goes silent for a
    while; no press lost or doubled, every pod shows its seat's view, seat 3 is served all along."""
    table = Table(tmp_path, faults={3: {"corrupt": 0.003, "drop": 0.002}})
    assert table.run(2, until=lambda: all(t.link.online for t in table.t.values()))
    want = {}
    start = table.clock.now
    for n, t in table.t.items():
        want[n] = clicks(t, 12, start, n, gap=(0.1, 0.3))
    # seat 1's pod restarts at +1.0 s; its player presses nothing from +0.8 s until it shows the game again
    w1 = table.t[1].wire
    w1._actions = [a for a in w1._actions if not start + 0.8 <= a[0] <= start + 1.6]
    want[1] = [(BUTTONS[b], k) for at, b in table.t[1].schedule if not start + 0.8 <= at <= start + 1.6
               for k in ("press", "release")]
    w1.at(start + 1.0, lambda: new_pod(table.t[1]))
    table.t[2].wire.at(start + 0.5, lambda: setattr(table.t[2].wire, "cut", True))
    table.t[2].wire.at(start + 2.5, lambda: setattr(table.t[2].wire, "cut", False))
    end = max(t.last_click for t in table.t.values())
    table.run(end - table.clock.now + 0.2)
    assert table.run(60, until=table.converged), [(n, t.link.state) for n, t in table.t.items()]
    for n in table.t:
        assert [(e.button, e.kind) for e in table.handled if e.seat == n] == want[n], n
    assert canonical(table.session.state["players"]) == canonical(
        reference_state(tmp_path, list(table.t), want)["players"])
    # seat 3 was served while seat 2 was cut off
    during = [at for e, at in zip(table.handled, table.handled_at) if e.seat == 3 and start + 0.6 < at < start + 2.4]
    assert during
    assert table.t[1].link.stats.restarts == 1 and table.t[2].link.stats.offline >= 1
