"""The host end of one serial pod's link, without any I/O: what to send, what was received.

:class:`LinkCore` is a sans-I/O state machine (bytes and times in, bytes and
events out), so the I/O thread of :mod:`.port`, the simulated wire
of :mod:`.sim.wire` and the tests drive the very same code, the tests on a
fake clock. Frames and messages: :mod:`.frame`, :mod:`.protocol`.

Host → pod (Klipper's scheme): every frame has a sequence number; the pod
takes them in order only and every pod frame carries, as its SEQ, the next
number it expects (the acknowledgement). Frames not acknowledged within the
retransmission timeout are sent again, all of them from the oldest (go-back-
N); a NAK (the pod saw a gap) resends at once, at most once per round trip.
The timeout adapts to the measured round trip (RFC 6298: SRTT + 4 RTTVAR,
samples only from frames sent once, doubled after every timeout, between
``rto_min`` and ``rto_max``). At most ``max_in_flight`` frames and the pod's
``rx_window`` bytes are unacknowledged at a time.

A session starts with IDENTIFY carrying a fresh random nonce: the pod starts
its sequence at that frame and answers IDENTITY (protocol, firmware, pod id,
boot id, the last button event a host acknowledged). A changed boot id later
(in the STATUS heartbeat) means the pod restarted: a new session and a full
redraw.

The picture: the owner sets bytes of :attr:`target` (idempotent "set these
pages/columns", :meth:`set_window`); the link keeps :attr:`promised`, what
the pod's RAM will hold once every frame sent is applied, and sends the
difference (:func:`~tablekeeper.hardware.screen.plan`) whenever there is room, so updates made
while frames are on the way coalesce, and after a reconnect or a pod restart
every page is sent again. The display converges to the last picture set.

Buttons: pod EVENTs are numbered; one is delivered (``on_event``, an
:class:`~tablekeeper.hardware.pod.InputEvent`) only when it is the next number, repeats and
events after a gap are dropped, and every event seen is acknowledged with a
cumulative EVENTS_ACK. Each press reaches the owner's queue exactly once and
in order. A pod whose outbox overflowed says so (``dropped_to`` in STATUS
and IDENTITY): the host counts the events it never got, reports them and
goes on after them, so it never waits for an event the pod no longer has.

What a pod sends is not trusted: button events are rate-limited per seat
(``event_rate`` a second, ``event_burst`` at once; the excess is counted,
reported and left with the pod, which sends it again: never queued here; a
pod making more than that fills its outbox and says how many it dropped),
a device sending more garbage than any pod
could (``garbage_limit`` bytes a second) is not listened to for
``garbage_pause`` seconds, strings are shown escaped (:func:`shown`), and
repeated reports are throttled (``report_every``).
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields

from ..pod import PAGES, WIDTH, InputEvent
from ..screen import FRAME_BYTES, plan
from . import frame
from . import protocol as proto

DOWN, IDENT, ONLINE, INCOMPATIBLE = "down", "identifying", "online", "incompatible"
_PRESS, _RELEASE = proto.KINDS.index("press"), proto.KINDS.index("release")
_CONTROL_ORDER = (proto.EVENTS_ACK, proto.CONFIG, proto.POWER, proto.CONTRAST)
FILL_MIN = 7  # a window of equal bytes longer than this goes as FILL
MIN_FRAME_LIMIT = 40  # new frames' payload never shrinks below this
START_FRAME_LIMIT = 64  # ... and starts here (a session's first frames, before the line proved clean)


@dataclass(frozen=True)
class LinkTiming:
    """Seconds (the pod gets its share as ms in CONFIG)."""

    heartbeat: float = 0.25  # the pod's STATUS period
    offline_after: float = 1.0  # no pod frame this long: offline
    keepalive: float = 1.0  # the host sends at least this often (the pod's "host lost" clock)
    host_lost: float = 10.0  # the pod shows "waiting for the table" after this long without the host
    event_resend: float = 0.1  # the pod resends an unacknowledged button event after this
    rto_initial: float = 0.1
    rto_min: float = 0.025
    rto_max: float = 0.5
    granularity: float = 0.005  # the clock granularity term of RFC 6298 (G)
    max_in_flight: int = 16  # frames; under 128 so 8-bit sequence numbers stay unambiguous
    max_payload: int = 140  # payload bytes of a frame (a whole page's DRAW fits); less after damaged frames
    resync_after: int = 8  # timeouts in a row without progress: start a new session
    stale_frame: float = 0.1  # a frame incomplete this long is garbage
    # what a pod (or a device that is not one) may send
    event_rate: float = 20.0  # button events a second a seat takes; beyond that the pod must send them again
    event_burst: int = 10  # ... of which this many at once (a release of a press taken always goes through)
    garbage_limit: int = 65536  # bytes a second that are not frames before the input is ignored ...
    garbage_pause: float = 1.0  # ... for this long (a pod sends none; a line error costs a few bytes)
    report_every: float = 10.0  # the same kind of trouble is reported at most this often
    max_queued: int = 256  # events waiting on the owner's queue beyond which a link drops (and counts) them
    # the I/O side (port)
    identify_timeout: float = 1.0  # a port that does not answer IDENTIFY by then is not a pod
    tick: float = 0.05  # the reader's longest wait
    backoff_first: float = 0.2  # reconnect delays: doubled up to backoff_max
    backoff_max: float = 3.0
    reopen_after: float = 3.0  # no session this long on an open port: close it and look again
    write_timeout: float = 0.5
    close_flush: float = 0.5  # how long close() waits for the blank picture to arrive

    def config_message(self, debounce: float, hold: float, repeat: float) -> bytes:
        ms = lambda s: int(round(s * 1000))  # noqa: E731
        return proto.config(ms(self.heartbeat), ms(self.event_resend), ms(self.host_lost), ms(debounce), ms(hold),
                            ms(repeat))


#: Fast timers for tests over real ptys.
FAST = LinkTiming(heartbeat=0.05, offline_after=0.4, keepalive=0.2, host_lost=2.0, event_resend=0.03,
                  rto_initial=0.05, rto_min=0.01, identify_timeout=0.5, tick=0.02, backoff_first=0.05,
                  backoff_max=0.4, reopen_after=1.0, close_flush=0.3)


@dataclass(frozen=True)
class Identity:
    pod_id: str
    firmware: str
    protocol: int
    boot_id: int
    rx_window: int
    acked: int
    display_ok: bool

    def describe(self) -> str:
        return (f"pod {self.pod_id!r}, firmware {shown(self.firmware)}, protocol {self.protocol}, "
                f"boot {self.boot_id:08x}")


@dataclass
class LinkStats:
    """Counts since the link was made (for tests, benches and ``hw check``)."""

    frames_sent: int = 0
    bytes_sent: int = 0
    retransmitted_frames: int = 0
    retransmitted_bytes: int = 0
    timeouts: int = 0
    fast_retransmits: int = 0
    naks: int = 0
    stray_acks: int = 0
    frames_in: int = 0
    bytes_in: int = 0
    bad_frames: int = 0
    discarded_bytes: int = 0
    bad_messages: int = 0
    echoes: int = 0
    pod_errors: int = 0
    events: int = 0
    duplicate_events: int = 0
    early_events: int = 0
    events_dropped_by_pod: int = 0  # never reached the host: the pod's outbox was full
    events_rate_limited: int = 0  # arrived over the rate limit: held back (left with the pod, taken later)
    events_queue_full: int = 0  # the owner's queue was full (port)
    flood_bytes: int = 0  # ignored unparsed: the device sent garbage faster than ``garbage_limit``
    floods: int = 0
    sessions: int = 0
    restarts: int = 0
    offline: int = 0
    draw_bytes: int = 0
    rtt_samples: int = 0

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def summary(self) -> str:
        """The figures worth a look, in words (``hw check``)."""
        return (f"{self.retransmitted_frames} retransmits, {self.timeouts} timeouts, {self.bad_frames} bad frames, "
                f"{self.discarded_bytes} garbage bytes, {self.events_dropped_by_pod} events dropped by the pod, "
                f"{self.events_rate_limited} events over the rate limit")


def shown(text: str) -> str:
    """A string from a pod, fit for a log line: non-printable characters escaped the way ``repr`` does."""
    return text if text.isprintable() else repr(text)[1:-1]


def _pressed(flags: int) -> tuple[str, ...] | None:
    codes = proto.pressed_codes(flags)
    return None if codes is None else tuple(proto.BUTTONS[c] for c in codes)


@dataclass
class _Sent:
    seq: int  # logical, never wraps
    frame: bytes
    first: float
    last: float
    tries: int = 1
    lost: bool = False  # to be sent again (after a timeout or a NAK), when the window has room


def _new_nonce() -> int:
    return int.from_bytes(os.urandom(4), "big") or 1


class LinkCore:
    """One pod's link state. Not thread-safe: the I/O wrapper serialises every call.

    ``on_event(InputEvent)`` gets each button event once; ``report(text)``
    gets state changes worth telling a person (online, offline, restarted,
    wrong pod, incompatible firmware). ``buttons`` is the pod's debounce,
    hold and repeat timing (seconds), sent in CONFIG.
    """

    def __init__(self, seat: int, pod_id: str | None = None, timing: LinkTiming = LinkTiming(), *,
                 on_event: Callable[[InputEvent], None] | None = None, report: Callable[[str], None] | None = None,
                 buttons: tuple[float, float, float] = (0.02, 0.6, 0.15), nonce: Callable[[], int] = _new_nonce):
        self.seat = seat
        self.pod_id = pod_id
        self.timing = timing
        self.on_event = on_event or (lambda e: None)
        self.report = report or (lambda text: None)
        self.buttons = buttons
        self._nonce = nonce
        self.state = DOWN
        self.port: str | None = None
        self.identity: Identity | None = None
        self.problem: str | None = None
        self.wrong_pod: str | None = None
        self.reader = frame.FrameReader(stale=timing.stale_frame)
        self.next_seq = 0
        self.inflight: deque[_Sent] = deque()
        self.rto = timing.rto_initial
        self.srtt: float | None = None
        self.rttvar: float | None = None
        self._ignore_nak_below = 0
        self._no_progress = 0
        self.cwnd = float(timing.max_in_flight)  # frames a time on their way: halved (or 1) after a loss
        self.ssthresh = float(timing.max_in_flight)
        self.frame_limit = START_FRAME_LIMIT  # payload bytes of new frames: halved on a loss, +16 a clean ack
        self.session = 0
        self._ident_seq = 0
        self._identify_queued = False
        self.target = bytearray(FRAME_BYTES)
        self.promised = bytearray(FRAME_BYTES)
        self.unknown: dict[int, int] = dict.fromkeys(range(PAGES), 0)  # page -> first column not yet sent
        self.contrast_level = 0xCF
        self.power_on = True
        self._dirty: set[int] = set(_CONTROL_ORDER)
        self.last_event = 0
        self.boot_id: int | None = None
        self.last_heard: float | None = None
        self.last_sent: float | None = None
        self.opened_at: float | None = None
        self.ident_since: float | None = None
        self.ever_online = False
        self.passive = False  # identify only, send nothing else (``hw check`` looking, not touching)
        # The pod's buttons down, as its last IDENTITY or STATUS said (None: its firmware does not say).
        self.pressed: tuple[str, ...] | None = None
        self.stats = LinkStats()
        self._tokens = float(timing.event_burst)  # the button events' rate limit (a token bucket)
        self._tokens_at: float | None = None
        self._down = [False] * len(proto.BUTTONS)  # a press was delivered, its release not yet
        self._held_back = 0  # the last event number the rate limit held back
        self._garbage_since: float | None = None
        self._garbage_base = 0
        self.muted_until: float | None = None
        self._told: dict[str, float] = {}

    # -- the port ---------------------------------------------------------------------
    @property
    def online(self) -> bool:
        return self.state == ONLINE

    @property
    def name(self) -> str:
        return f"serial pod {self.pod_id!r}" if self.pod_id else "serial pod"

    def opened(self, now: float, port: str | None = None) -> None:
        """A port was opened: start a session (IDENTIFY) on it."""
        self.port = port
        self.opened_at = now
        self.last_heard = None
        self.wrong_pod = None
        self.reader.reset()
        self._new_session(now)

    def closed(self, now: float, why: str = "") -> None:
        """The port is gone (unplugged, an error) or closed."""
        was = self.state
        self.state = DOWN
        self.inflight.clear()
        self._identify_queued = False
        if was == ONLINE:
            self.stats.offline += 1
            self.problem = why or "disconnected"
            if why != "closed":
                self.report(f"seat {self.seat}: {self.name} is offline: {self.problem} (the game goes on)")

    def _lost(self, now: float, why: str) -> None:
        self.stats.offline += 1
        self.problem = why
        self.report(f"seat {self.seat}: {self.name} is offline: {why} (the game goes on)")
        self._new_session(now)

    def _new_session(self, now: float) -> None:
        self.state = IDENT
        self.ident_since = now
        self.inflight.clear()
        self.session = self._nonce()
        self._identify_queued = True
        self._no_progress = 0
        self.rto = self._base_rto() if self.srtt is not None else self.timing.rto_initial
        self.stats.sessions += 1

    # -- the owner's side (the picture) --------------------------------------------------
    def set_window(self, c0: int, c1: int, p0: int, p1: int, data) -> None:
        """Set bytes of the picture: columns c0..c1 x pages p0..p1, horizontal order (a DisplayDriver write)."""
        if not proto.window_ok(c0, c1, p0, p1):
            raise ValueError(f"window {c0}-{c1} x {p0}-{p1} is outside the {WIDTH}x{PAGES} display")
        w = c1 - c0 + 1
        if len(data) != w * (p1 - p0 + 1):
            raise ValueError(f"window {c0}-{c1} x {p0}-{p1} needs {w * (p1 - p0 + 1)} bytes, not {len(data)}")
        for i, p in enumerate(range(p0, p1 + 1)):
            self.target[p * WIDTH + c0:p * WIDTH + c1 + 1] = data[i * w:(i + 1) * w]

    def set_contrast(self, level: int) -> None:
        if level != self.contrast_level:
            self.contrast_level = level
            self._dirty.add(proto.CONTRAST)

    def set_power(self, on: bool) -> None:
        if bool(on) != self.power_on:
            self.power_on = bool(on)
            self._dirty.add(proto.POWER)

    def redraw(self) -> None:
        """Send every page again (the pod's RAM is unknown)."""
        self.unknown = dict.fromkeys(range(PAGES), 0)

    def settled(self) -> bool:
        """Online, and the pod has acknowledged the whole current picture and settings."""
        return (self.state == ONLINE and not self.inflight and not self._dirty and not self.unknown
                and self.promised == self.target)

    # -- bytes in -------------------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> None:
        self.stats.bytes_in += len(data)
        if self.muted(now):
            self.stats.flood_bytes += len(data)
            return
        for seq, payload in self.reader.feed(data, now):
            self._frame(seq, payload, now)
        self._reader_stats()
        self._garbage(now)

    def muted(self, now: float) -> bool:
        """Is the input being ignored (the device sent garbage faster than a pod could)?"""
        return self.muted_until is not None and now < self.muted_until

    def _garbage(self, now: float) -> None:
        # Parsing garbage costs CPU (a CRC for each candidate frame): a device sending more of it than the
        # limit in a second is not listened to for a while. A pod sends none; line errors cost a few bytes.
        t = self.timing
        if self._garbage_since is None or now - self._garbage_since >= 1.0:
            self._garbage_since = now
            self._garbage_base = self.reader.discarded
        elif self.reader.discarded - self._garbage_base > t.garbage_limit:
            self.muted_until = now + t.garbage_pause
            self._garbage_since = None
            self.reader.reset()
            self.stats.floods += 1
            self._tell("garbage", now, f"seat {self.seat}: {self.port or 'the port'} sends garbage (over "
                       f"{t.garbage_limit} bytes a second that are not frames): not listening for "
                       f"{t.garbage_pause:g} s (a faulty device, or not a pod?)")

    def _tell(self, kind: str, now: float, text: str) -> None:
        """Report ``text``, unless a report of this ``kind`` went out less than ``report_every`` ago."""
        last = self._told.get(kind)
        if last is None or now - last >= self.timing.report_every:
            self._told[kind] = now
            self.report(text)

    def _reader_stats(self) -> None:
        self.stats.bad_frames = self.reader.bad_frames
        self.stats.discarded_bytes = self.reader.discarded

    def _frame(self, seq: int, payload: bytes, now: float) -> None:
        self.stats.frames_in += 1
        msgs = []
        i = 0
        try:
            while i < len(payload):
                m, i = proto.decode_one(payload, i)
                msgs.append(m)
        except (proto.ProtocolError, ValueError, IndexError):  # ValueError: struct.error and decoding too
            self.stats.bad_messages += 1
        if msgs and proto.host_to_pod(msgs[0][0]):
            self.stats.echoes += 1
            if self.stats.echoes == 3:
                self.report(f"seat {self.seat}: {self.port or 'the port'} sends back what is sent to it "
                            "(a terminal in echo mode, a loopback, not a pod?)")
            return
        if self.state == DOWN:
            return
        self.last_heard = now
        nak = any(m[0] == proto.NAK for m in msgs)
        for m in msgs:
            if m[0] == proto.IDENTITY:
                self._identity(m, seq, now)
        if self.state == ONLINE:
            self._ack(seq, nak, now)
        # While identifying, only IDENTITY counts: an ack of IDENTIFY without it (the answer was lost)
        # leaves IDENTIFY to be sent again, and the pod answers a repeat again.
        for m in msgs:
            kind = m[0]
            if kind == proto.STATUS and self.state == ONLINE:
                self._status(m, now)
            elif kind == proto.EVENT and self.state == ONLINE:
                self._event(m[1], m[2], m[3], now)
            elif kind == proto.ERROR:
                self.stats.pod_errors += 1
                if self.stats.pod_errors <= 3:
                    self.report(f"seat {self.seat}: {self.name} says: {shown(m[2])}")

    def _identity(self, m, seq: int, now: float) -> None:
        _, nonce, protocol, boot, window, acked, flags, firmware, pod_id, dropped_to = m
        if self.state != IDENT or nonce != self.session:
            return  # an answer to an older session
        if (self._ident_seq + 1) & 0xFF != seq:
            return  # not (yet) in step with this session
        ident = Identity(pod_id, firmware, protocol, boot, window, acked, bool(flags & proto.FLAG_DISPLAY_OK))
        if protocol != proto.PROTOCOL:
            self.state = INCOMPATIBLE
            self.identity = ident
            self.problem = (f"{self.port or 'the port'}: pod {pod_id!r} speaks protocol {protocol}, this tablekeeper "
                            f"speaks {proto.PROTOCOL}: install the firmware of this version (docs/serial-pods.md)")
            self.report(f"seat {self.seat}: {self.problem}")
            return
        if self.pod_id is not None and pod_id != self.pod_id:
            self.wrong_pod = pod_id
            self.identity = ident
            return
        restarted = self.boot_id is not None and boot != self.boot_id
        if self.boot_id != boot:
            self.last_event = acked
            if restarted:
                self.stats.restarts += 1
        else:
            self.last_event = max(self.last_event, acked)
        if self.boot_id != boot:
            self._down = [False] * len(proto.BUTTONS)
            self._held_back = 0
        self._pod_dropped(dropped_to, now)
        self.boot_id = boot
        self.identity = ident
        self.pressed = _pressed(flags)
        self.inflight.clear()
        self.next_seq = self._ident_seq + 1
        self.state = ONLINE
        self._dirty = set(_CONTROL_ORDER)
        self.unknown = dict.fromkeys(range(PAGES), 0)
        self._no_progress = 0
        if not self.ever_online:
            self.report(f"seat {self.seat}: {self.name} online on {self.port} ({ident.describe()})")
        else:
            why = "it restarted; " if restarted else ""
            self.report(f"seat {self.seat}: {self.name} is back on {self.port} ({why}full redraw)")
        self.ever_online = True
        self.problem = None if ident.display_ok else "the pod's display does not answer (check its wiring)"

    def _status(self, m, now: float) -> None:
        _, boot, uptime, last_event, flags, dropped_to = m
        ident = self.identity
        assert ident is not None  # STATUS is read only online, after IDENTITY
        if boot != ident.boot_id:
            # Its button events are numbered afresh; IDENTITY will tell from where (_identity).
            self.report(f"seat {self.seat}: {self.name} restarted (boot {ident.boot_id:08x} -> {boot:08x})")
            self._new_session(now)
            return
        if not flags & proto.FLAG_IDENTIFIED:
            self._new_session(now)  # it stopped hearing us and shows "waiting": start again
            return
        if dropped_to <= last_event:  # a pod cannot drop what it never made
            self._pod_dropped(dropped_to, now)
        self.pressed = _pressed(flags)
        ok = bool(flags & proto.FLAG_DISPLAY_OK)
        if ok != ident.display_ok:
            self.identity = Identity(ident.pod_id, ident.firmware, ident.protocol, ident.boot_id, ident.rx_window,
                                     ident.acked, ok)
            problem = None if ok else "the pod's display does not answer (check its wiring)"
            self.problem = problem
            self.report(f"seat {self.seat}: {self.name}: " + (problem or "display is back"))

    def _event(self, number: int, button: int, kind: int, now: float) -> None:
        self._dirty.add(proto.EVENTS_ACK)
        if number <= self.last_event:
            self.stats.duplicate_events += 1
            return
        if number != self.last_event + 1:
            self.stats.early_events += 1  # one before it is missing; it comes again
            return
        if button >= len(proto.BUTTONS) or kind >= len(proto.KINDS):
            self.last_event = number
            self.stats.bad_messages += 1
            return
        if not self._admit(button, kind, now):
            # Not taken (nor acknowledged): the pod keeps it and sends it again; a pod making events faster
            # than this fills its outbox and says how many it dropped.
            if number > self._held_back:
                self._held_back = number
                self.stats.events_rate_limited += 1
                self._tell("rate", now, f"seat {self.seat}: {self.name} sends button events faster than "
                           f"{self.timing.event_rate:g} a second (a chattering button, or a backlog after the "
                           f"line was down?): they are taken at that rate ({self.stats.events_rate_limited} "
                           "held back so far)")
            return
        self.last_event = number
        self.stats.events += 1
        self.on_event(InputEvent(self.seat, proto.BUTTONS[button], proto.KINDS[kind], now))

    def _admit(self, button: int, kind: int, now: float) -> bool:
        """The rate limit: a token bucket of ``event_burst`` filling at ``event_rate`` a second."""
        t = self.timing
        if self._tokens_at is not None:
            self._tokens = min(float(t.event_burst), self._tokens + (now - self._tokens_at) * t.event_rate)
        self._tokens_at = now
        if kind == _RELEASE and self._down[button]:
            # The release of a press that went through always does too (it may overdraw): no button stays down.
            self._down[button] = False
            self._tokens -= 1
            return True
        if self._tokens < 1:
            return False
        self._tokens -= 1
        if kind == _PRESS:
            self._down[button] = True
        return True

    def _pod_dropped(self, dropped_to: int, now: float) -> None:
        """The pod dropped every event up to ``dropped_to`` it could not deliver: count the ones we never got."""
        if dropped_to <= self.last_event:
            return  # what it dropped had arrived (only our acknowledgements were lost)
        lost = dropped_to - self.last_event
        self.stats.events_dropped_by_pod += lost
        self.last_event = dropped_to
        self._dirty.add(proto.EVENTS_ACK)
        self._down = [False] * len(proto.BUTTONS)  # the releases of presses taken may be among them
        self._tell("dropped", now, f"seat {self.seat}: {self.name} dropped {lost} button events it could not "
                   f"deliver (its memory was full: the line was down; "
                   f"{self.stats.events_dropped_by_pod} so far)")

    def _ack(self, seq8: int, nak: bool, now: float) -> None:
        base = self.inflight[0].seq if self.inflight else self.next_seq
        logical = base + ((seq8 - base) & 0xFF)
        if logical > self.next_seq:
            self.stats.stray_acks += 1
            return
        sample = None
        progressed = False
        acked = 0
        while self.inflight and self.inflight[0].seq < logical:
            s = self.inflight.popleft()
            progressed = True
            acked += 1
            if s.tries == 1:
                sample = now - s.first
                self.frame_limit = min(self.timing.max_payload, self.frame_limit + 16)
        if progressed:
            self._no_progress = 0
            # The window opens again: fast up to ssthresh, then slowly (TCP's rule, in frames).
            self.cwnd = min(float(self.timing.max_in_flight),
                            self.cwnd + (acked if self.cwnd < self.ssthresh else acked / self.cwnd))
            if sample is not None:
                self._rtt(sample)
            else:
                # Only retransmitted frames acked (no RTT sample, Karn): still, the pod answers, so the
                # backoff goes (on a serial line a loss is damage, not congestion).
                self.rto = self._base_rto() if self.srtt is not None else self.timing.rto_initial
        if nak:
            self.stats.naks += 1
            # Act on a NAK unless it is about frames already sent again (the NAKs of a go-back-N burst), i.e.
            # unless the frame it asks for was sent again less than a round trip ago.
            recent = self.inflight and self.srtt is not None and now - self.inflight[0].last < self.srtt
            if self.inflight and (logical >= self._ignore_nak_below or not recent):
                # The pod dropped everything after the gap: all of it again, from the gap, at once.
                self.stats.fast_retransmits += 1
                self.ssthresh = max(2.0, self.cwnd / 2)
                self.cwnd = self.ssthresh
                self._mark_lost()
                self._shrink()

    def _rto_cap(self) -> float:
        # A serial line loses frames to damage, not congestion: once the round trip is known, back off
        # to four times the estimate at most (rto_max before that).
        t = self.timing
        if self.srtt is None:
            return t.rto_max
        return min(t.rto_max, max(t.rto_initial, 4 * self._base_rto()))

    def _base_rto(self) -> float:
        t = self.timing
        assert self.srtt is not None and self.rttvar is not None  # after the first sample
        return min(t.rto_max, max(t.rto_min, self.srtt + max(t.granularity, 4 * self.rttvar)))

    def _rtt(self, r: float) -> None:
        self.stats.rtt_samples += 1
        if self.srtt is None:
            self.srtt, self.rttvar = r, r / 2
        else:
            assert self.rttvar is not None  # set with srtt
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - r)
            self.srtt = 0.875 * self.srtt + 0.125 * r
        self.rto = self._base_rto()

    # -- bytes out -------------------------------------------------------------------------
    def poll(self, now: float) -> bytes:
        """Timers and sending; the bytes to write to the port now (maybe none)."""
        for seq, payload in self.reader.expire(now):
            self._frame(seq, payload, now)
        self._reader_stats()
        out = bytearray()
        if self.state in (DOWN, INCOMPATIBLE) or self.wrong_pod:
            return b""
        t = self.timing
        if self.state == ONLINE and self.last_heard is not None and now - self.last_heard > t.offline_after:
            self._lost(now, f"no answer for {now - self.last_heard:.1f} s")
        if self.inflight and not self.inflight[0].lost and now - self.inflight[0].last >= self.rto:
            self.stats.timeouts += 1
            self._no_progress += 1
            self.rto = min(self.rto * 2, self._rto_cap())
            self._shrink()
            # Go back N, one frame at a time at first: a line that damages frames gets fewer at once.
            self.ssthresh = max(2.0, self.cwnd / 2)
            self.cwnd = 1.0
            self._mark_lost()
            if self.state == ONLINE and self._no_progress >= t.resync_after:
                # Our frames are not taken (the pod may hear us or not): start again.
                self._lost(now, f"{self._no_progress} timeouts in a row")
        out += self._resend(now)
        if (self.state == ONLINE and not self.inflight and self.last_sent is not None
                and now - self.last_sent >= t.keepalive):
            self._dirty.add(proto.EVENTS_ACK)
        if self.passive and self.state == ONLINE:
            return bytes(out)
        if self.state == IDENT:
            if self._identify_queued:
                self._identify_queued = False
                self._ident_seq = self.next_seq
                out += self._send(proto.identify(self.session), now)
            return bytes(out)
        while self._room() and not (self.inflight and self.inflight[-1].lost):
            payload = self._next_payload()
            if not payload:
                break
            out += self._send(payload, now)
        return bytes(out)

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`poll` next has timer work (None: only incoming bytes or owner changes matter)."""
        if self.state in (DOWN, INCOMPATIBLE):
            return None
        t = self.timing
        times = []
        if self.inflight and not self.inflight[0].lost:
            times.append(self.inflight[0].last + self.rto)
        if self.state == ONLINE:
            if self.last_heard is not None:
                times.append(self.last_heard + t.offline_after)
            if not self.inflight and self.last_sent is not None:
                times.append(self.last_sent + t.keepalive)
        if self.reader.waiting_since is not None:
            times.append(self.reader.waiting_since + t.stale_frame)
        return min(times) if times else None

    def _shrink(self) -> None:
        # Damaged frames: make new ones smaller (a long frame is more likely to be hit).
        self.frame_limit = max(MIN_FRAME_LIMIT, self.frame_limit // 2)

    def _mark_lost(self) -> None:
        for s in self.inflight:
            s.lost = True
        self._ignore_nak_below = self.next_seq  # NAKs of what is already on its way again change nothing

    def _resend(self, now: float) -> bytes:
        """The frames marked lost, oldest first, as far as the window allows."""
        out = bytearray()
        for s in self.inflight:
            if not s.lost:
                continue
            if not self._room():
                break
            s.lost = False
            out += s.frame
            s.last = now
            s.tries += 1
            self.stats.retransmitted_frames += 1
            self.stats.retransmitted_bytes += len(s.frame)
        if out:
            self.stats.bytes_sent += len(out)
            self.last_sent = now
        return bytes(out)

    def _send(self, payload: bytes, now: float) -> bytes:
        f = frame.encode(self.next_seq, payload)
        self.inflight.append(_Sent(self.next_seq, f, now, now))
        self.next_seq += 1
        self.stats.frames_sent += 1
        self.stats.bytes_sent += len(f)
        self.last_sent = now
        return f

    def _room(self) -> bool:
        """May one more frame go? Counts the frames on their way (not those waiting to be sent again)."""
        going = [s for s in self.inflight if not s.lost]
        if not going:
            return True
        window = max(self.identity.rx_window if self.identity else 0, frame.MAX_FRAME)
        used = sum(len(s.frame) for s in going)
        return len(going) < min(int(self.cwnd), self.timing.max_in_flight) and used + frame.MAX_FRAME <= window

    def _control(self, kind: int) -> bytes:
        if kind == proto.EVENTS_ACK:
            return proto.events_ack(self.last_event)
        if kind == proto.CONFIG:
            return self.timing.config_message(*self.buttons)
        if kind == proto.POWER:
            return proto.power(self.power_on)
        return proto.contrast(self.contrast_level)

    def _next_payload(self) -> bytes:
        parts: list[bytes] = []
        size = 0
        limit = self.frame_limit
        for kind in _CONTROL_ORDER:
            if kind in self._dirty:
                m = self._control(kind)
                parts.append(m)
                size += len(m)
        self._dirty.clear()
        while limit - size > proto.DRAW_HEADER + 1:
            draw = self._next_draw(limit - size)
            if draw is None:
                break
            parts.append(draw)
            size += len(draw)
        return b"".join(parts)

    def _next_draw(self, room: int) -> bytes | None:
        """The next DRAW/FILL message of at most ``room`` bytes towards the target picture; applies it to promised."""
        if self.unknown:
            # Pages of unknown content (after a (re)connect) go first, whole, from the target.
            p = min(self.unknown)
            u = self.unknown[p]
            row = bytes(self.target[p * WIDTH + u:(p + 1) * WIDTH])
            if len(row) >= FILL_MIN and row.count(row[0]) == len(row):
                n = len(row)
                msg = proto.fill(u, WIDTH - 1, p, p, row[0])
            else:
                n = min(len(row), room - proto.DRAW_HEADER)
                if n < min(len(row), 32) and room < self.frame_limit:
                    return None  # little room left in this frame: start it in the next
                msg = proto.draw(u, u + n - 1, p, p, row[:n])
            self.promised[p * WIDTH + u:p * WIDTH + u + n] = row[:n]
            if u + n >= WIDTH:
                del self.unknown[p]
            else:
                self.unknown[p] = u + n
            self.stats.draw_bytes += n
            return msg
        if self.promised == self.target:
            return None
        windows = plan(bytes(self.promised), bytes(self.target))
        if not windows:
            return None
        w = windows[0]
        c0, c1, p0, p1 = proto.draw_windows(w.col0, w.col1, w.page0, w.page1, room)[0]
        width = c1 - c0 + 1
        data = b"".join(bytes(self.target[p * WIDTH + c0:p * WIDTH + c1 + 1]) for p in range(p0, p1 + 1))
        if len(data) >= FILL_MIN and data.count(data[0]) == len(data):
            msg = proto.fill(c0, c1, p0, p1, data[0])
        else:
            msg = proto.draw(c0, c1, p0, p1, data)
        for i, p in enumerate(range(p0, p1 + 1)):
            self.promised[p * WIDTH + c0:p * WIDTH + c1 + 1] = data[i * width:(i + 1) * width]
        self.stats.draw_bytes += len(data)
        return msg
