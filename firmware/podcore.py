"""The pod's logic without its hardware: link, messages, display commands, buttons. Times in ms.

:class:`PodCore` is everything a pod does, fed by its board (``main.py`` on
a microcontroller, ``unixmain.py`` on the MicroPython unix port, and
``tablekeeper.hardware.serial.sim`` on the host, all running this file):

* ``receive(data, now)`` — bytes from the host. Frames (``frame``)
  are taken in sequence order only: the expected one is applied and
  acknowledged; a repeat is acknowledged again and ignored; one after a gap,
  or a damaged one, is answered with a NAK (the host then resends from the
  gap). An IDENTIFY
  with a new nonce starts a session at its sequence number, so a host (or a
  restarted host) never has to guess where the pod's counter is.
* ``contact(button, pressed, now)`` — a button's contact level.
* ``poll(now)`` — the timers; returns the bytes to send to the host: acks,
  answers, the STATUS heartbeat, button events.

Button events are numbered from 1 at every start and kept until the host's
EVENTS_ACK covers them; unacknowledged ones are sent again every
``resend`` ms, so each reaches the host at least once and the host, taking
them strictly in number order, at most once. When more than ``OUTBOX`` wait
(the host has not acknowledged for a long while) the oldest is dropped and
``dropped_to`` (in STATUS and IDENTITY) says up to which number: the host
counts the ones it never got and takes the next, never waiting for an
event the pod no longer has. Presses made while the pod is
not showing a host's picture (just started, or the host silent for
``host_lost`` ms: the pod then shows "waiting for the table") are ignored.

The display object (``oled.SSD1306`` on a pod, a virtual one in tests) has
``buf`` (the 1024-byte page-major frame, the SSD1306's own layout),
``show(c0, c1, p0, p1)`` (push that window of ``buf`` to the OLED),
``contrast(level)``, ``power(on)``, ``init()`` and ``splash(lines)``; any of
them may raise ``OSError`` (display unplugged): the pod then says so in its
heartbeat and sets the display up again every ``display_retry`` ms, with
the whole frame.
"""
try:  # on the host
    from tablekeeper.hardware.serial import frame
    from tablekeeper.hardware.serial import protocol as proto
except ImportError:  # on the pod: flat modules
    import frame  # type: ignore[no-redef]
    import protocol as proto  # type: ignore[no-redef]
try:
    from tablekeeper.firmware import debounce
except ImportError:
    import debounce  # type: ignore[no-redef]

#: 1.3: STATUS and IDENTITY say which buttons are down (``hw check`` finds a stuck one); 1.2: eager debounce
#: (CONFIG unchanged); 1.1: protocol 2 (dropped_to), the outbox resent in order.
FIRMWARE_VERSION = "1.3.0"
#: Bytes the pod can take in before it must have processed them (a host never has more in flight).
RX_WINDOW = 512
#: Unacknowledged button events kept; beyond that the oldest is dropped (the host has been silent a long time).
OUTBOX = 64
#: Unacknowledged events sent at a time (from the oldest), and at most this many in one frame.
EVENT_WINDOW = 16
EVENTS_PER_FRAME = 4
EVENT_SIZE = 7
WAITING = ("tablekeeper", "waiting for", "the table")


class Timing:
    """The pod's timers, ms. The host overrides most of them with CONFIG."""

    def __init__(self):
        self.heartbeat = 250
        self.resend = 100
        self.host_lost = 10000
        self.debounce = 20
        # Eager debounce and its noise threshold are the pod's own: CONFIG (unchanged, so old hosts and old
        # pods still understand each other) sets only the debounce time, which is the eager lockout.
        self.eager = True
        self.noise = debounce.NOISE_MS
        self.hold = 600
        self.repeat = 150
        self.stale = 100
        self.display_retry = 2000


def new_boot_id():
    """A random 32-bit number, different at every start (it tells the host the pod restarted)."""
    try:
        import os
        b = os.urandom(4)
    except (ImportError, AttributeError, NotImplementedError):
        import random
        return random.getrandbits(32) or 1
    return (b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) or 1


class PodCore:
    def __init__(self, pod_id, boot_id, display, now=0, buttons=4, rx_window=RX_WINDOW,
                 firmware=FIRMWARE_VERSION, timing=None):
        self.pod_id = pod_id
        self.boot_id = boot_id
        self.display = display
        self.firmware = firmware
        self.rx_window = rx_window
        self.timing = timing or Timing()
        self.started = now
        self.reader = frame.FrameReader(stale=self.timing.stale)
        self.expected = 0  # the host sequence number taken next
        self.session = None  # the nonce of the host session
        self.identified = False  # showing a host's picture
        self.last_host = None  # when a good host frame last arrived
        self.next_status = now  # announce at once
        t = self.timing
        self.debouncers = [debounce.Debouncer(t.debounce, t.hold, t.repeat, eager=t.eager, noise_ms=t.noise)
                           for _ in range(buttons)]
        self.outbox = []  # [number, button, kind, last sent or None]
        self.last_event = 0
        self.acked = 0
        self.dropped_to = 0  # the highest event number dropped unsent (outbox full)
        self.display_ok = True
        self.display_retry_at = None
        self.contrast_level = 0xCF
        self.power_on = True
        self.want_repl = False
        self._out = bytearray()
        self._replies = []
        self._events = []
        self._ack_due = False
        self._nak_due = False
        # what happened, for tests and the heartbeat
        self.frames_in = 0
        self.duplicates = 0
        self.gaps = 0
        self.errors = 0
        self.unparsed = 0  # frames whose CRC passed but whose messages did not parse: asked again
        self._refused = None  # (session, frame number) last refused as unparsable
        self.echoes = 0
        self.ignored_presses = 0
        self.dropped_events = 0
        self._button = 0
        self._ignoring = [False] * buttons  # per button: its press was ignored, so are its hold, repeats, release
        self._now = now
        self._guard(self._start_display, now)

    # -- input -------------------------------------------------------------------
    def contact(self, button, pressed, now):
        """Button ``button`` (index into protocol.BUTTONS) reads ``pressed`` at ``now``."""
        self.debouncers[button].edge(now, pressed)

    def receive(self, data, now):
        bad = self.reader.bad_frames
        for seq, payload in self.reader.feed(data, now):
            self._frame(seq, payload, now)
        if self.reader.bad_frames != bad:
            self._nak_due = True  # a damaged frame (likely the one we expect): ask for it now (as Klipper does)
        self._flush()

    def poll(self, now):
        """Run the timers due by ``now``; returns the bytes to send to the host (maybe empty)."""
        self._now = now
        for seq, payload in self.reader.expire(now):
            self._frame(seq, payload, now)
        for i in range(len(self.debouncers)):
            self._button = i
            self.debouncers[i].tick(now, self._emit)
        t = self.timing
        if self.identified and self.last_host is not None and now - self.last_host >= t.host_lost:
            self.identified = False
            self.session = None
            self._guard(self._splash, now)
        if not self.display_ok and now >= self.display_retry_at:
            self._restore_display()
        if now >= self.next_status:
            self._replies.append(proto.status(self.boot_id, now - self.started, self.last_event, self.flags(),
                                              self.dropped_to))
            self.next_status = now + t.heartbeat
        if self.identified and self.outbox:
            # The oldest EVENT_WINDOW only: the host takes them in order, so later ones would be wasted
            # while an earlier one is missing. When the oldest is due again the whole window goes again, in
            # order (go-back-N): resent one by one on their own timers they would reach the host out of
            # order and it would take one per round.
            window = self.outbox[:EVENT_WINDOW]
            first = window[0][3]
            again = first is None or now - first >= t.resend
            for e in window:
                if again or e[3] is None:
                    self._events.append(proto.event(e[0], e[1], e[2]))
                    e[3] = now
        self._flush()
        out = self._out
        self._out = bytearray()
        return bytes(out)

    def next_deadline(self, now):
        """When :meth:`poll` next has something to do (ms)."""
        times = [self.next_status]
        for d in self.debouncers:
            x = d.deadline()
            if x is not None:
                times.append(x)
        t = self.timing
        if self.identified and self.outbox:
            for e in self.outbox[:EVENT_WINDOW]:
                if e[3] is None:
                    times.append(now)
                    break
            first = self.outbox[0][3]
            times.append(now if first is None else first + t.resend)
            if self.last_host is not None:
                times.append(self.last_host + t.host_lost)
        if not self.display_ok:
            times.append(self.display_retry_at)
        if self.reader.waiting_since is not None:
            times.append(self.reader.waiting_since + t.stale)
        return min(times)

    def flags(self):
        return ((proto.FLAG_DISPLAY_OK if self.display_ok else 0) | (proto.FLAG_IDENTIFIED if self.identified else 0)
                | proto.pressed_flags([d.stable for d in self.debouncers]))

    # -- frames --------------------------------------------------------------------
    def _frame(self, seq, payload, now):
        self.frames_in += 1
        if payload and not proto.host_to_pod(payload[0]):
            self.echoes += 1  # our own frames coming back: not for us
            return
        self.last_host = now
        if payload and payload[0] == proto.IDENTIFY and len(payload) >= 5:
            nonce = payload[1] << 24 | payload[2] << 16 | payload[3] << 8 | payload[4]
            if nonce != self.session:
                self.session = nonce  # a new session starts at this frame
                self.expected = seq
            elif seq != self.expected:
                self._identity(nonce)  # our answer was lost: answer again
                self._ack_due = True
                return
        if seq == self.expected:
            if self._refused != (self.session, seq) and not self._parses(payload):
                # The CRC passed but the messages do not parse: most likely a damaged stream the CRC-16
                # missed (a false start inside data after a lost byte). Not taken: asked again. The same
                # frame number unparsable twice is the host's own: taken, and answered with the error.
                self._refused = (self.session, seq)
                self.unparsed += 1
                self._nak_due = True
                return
            self.expected = (seq + 1) & 0xFF
            self._ack_due = True
            self._messages(payload, now)
        elif (self.expected - seq) & 0xFF < 128:
            self.duplicates += 1
            self._ack_due = True
        else:
            self.gaps += 1
            self._nak_due = True

    @staticmethod
    def _parses(payload):
        i = 0
        try:
            while i < len(payload):
                _msg, i = proto.decode_one(payload, i)
        except proto.ProtocolError:
            return False
        return True

    def _messages(self, payload, now):
        i = 0
        while i < len(payload):
            try:
                msg, i = proto.decode_one(payload, i)
            except proto.ProtocolError as e:
                self.errors += 1
                self._replies.append(proto.error(proto.E_BAD_FIELD, str(e)))
                return
            kind = msg[0]
            if kind == proto.DRAW:
                c0, c1, p0, p1, data = msg[1], msg[2], msg[3], msg[4], msg[5]
                buf = self.display.buf
                w = c1 - c0 + 1
                j = 0
                for p in range(p0, p1 + 1):
                    buf[p * 128 + c0:p * 128 + c1 + 1] = data[j:j + w]
                    j += w
                self._show(c0, c1, p0, p1, now)
            elif kind == proto.FILL:
                c0, c1, p0, p1, v = msg[1], msg[2], msg[3], msg[4], msg[5]
                buf = self.display.buf
                row = bytes([v]) * (c1 - c0 + 1)
                for p in range(p0, p1 + 1):
                    buf[p * 128 + c0:p * 128 + c1 + 1] = row
                self._show(c0, c1, p0, p1, now)
            elif kind == proto.EVENTS_ACK:
                n = min(msg[1], self.last_event)
                if n > self.acked:
                    self.acked = n
                self.outbox = [e for e in self.outbox if e[0] > self.acked]
            elif kind == proto.CONTRAST:
                self.contrast_level = msg[1]
                if self.display_ok:
                    self._guard(self._apply_contrast, now)
            elif kind == proto.POWER:
                self.power_on = bool(msg[1])
                if self.display_ok:
                    self._guard(self._apply_power, now)
            elif kind == proto.IDENTIFY:
                self.identified = True
                self._identity(msg[1])
            elif kind == proto.CONFIG:
                t = self.timing
                t.heartbeat, t.resend, t.host_lost, t.debounce, t.hold, t.repeat = msg[1:7]
                for d in self.debouncers:
                    d.timing(t.debounce, t.hold, t.repeat)
                self.next_status = min(self.next_status, now + t.heartbeat)
            elif kind == proto.REPL:
                self.want_repl = True
            else:  # a pod -> host message sent to us
                self.errors += 1
                self._replies.append(proto.error(proto.E_UNKNOWN, "not a host message: 0x%02x" % kind))
                return

    def _identity(self, nonce):
        self._replies.append(proto.identity(nonce, self.boot_id, self.rx_window, self.acked, self.flags(),
                                            self.firmware, self.pod_id, self.dropped_to))

    def _flush(self):
        msgs = self._replies
        self._replies = []
        if self._nak_due:
            msgs.insert(0, proto.nak())
        events = self._events
        self._events = []
        if not msgs and not events and self._ack_due:
            self._out.extend(frame.encode(self.expected))
        self._pack(msgs, frame.MAX_PAYLOAD)
        # Few events a frame: a damaged frame then costs few, and the host can take those before it.
        self._pack(events, EVENTS_PER_FRAME * EVENT_SIZE)
        self._ack_due = self._nak_due = False

    def _pack(self, msgs, limit):
        payload = b""
        for m in msgs:
            if payload and len(payload) + len(m) > limit:
                self._out.extend(frame.encode(self.expected, payload))
                payload = b""
            payload += m
        if payload:
            self._out.extend(frame.encode(self.expected, payload))

    def _emit(self, kind, due):
        b = self._button
        if kind == debounce.PRESS:
            self._ignoring[b] = not self.identified
        if self._ignoring[b] or not self.identified:
            # A press on the "waiting" screen is ignored whole: the host may be back before its release
            # (an eager press counts 1 ms in), and a release sent alone would reach it with no press.
            self.ignored_presses += 1 if kind == debounce.PRESS else 0
            return
        self.last_event += 1
        self.outbox.append([self.last_event, b, kind, None])
        if len(self.outbox) > OUTBOX:
            self.dropped_to = self.outbox.pop(0)[0]
            self.dropped_events += 1

    # -- the display -----------------------------------------------------------------
    def _guard(self, fn, now):
        if not self.display_ok:
            return
        try:
            fn()
        except OSError:
            self.display_ok = False
            self.display_retry_at = now + self.timing.display_retry

    def _show(self, c0, c1, p0, p1, now):
        if self.display_ok:
            d = self.display
            self._guard(lambda: d.show(c0, c1, p0, p1), now)

    def _start_display(self):
        self.display.init()
        self._splash()

    def _splash(self):
        self.display.splash(WAITING + (self.pod_id,))

    def _apply_contrast(self):
        self.display.contrast(self.contrast_level)

    def _apply_power(self):
        self.display.power(self.power_on)

    def _restore_display(self):
        self.display_ok = True  # let _guard run; it clears it again on a failure
        try:
            d = self.display
            d.init()
            d.contrast(self.contrast_level)
            d.power(self.power_on)
            if self.identified:
                d.show(0, 127, 0, 7)
            else:
                self._splash()
        except OSError:
            self.display_ok = False
            self.display_retry_at = self._now + self.timing.display_retry
