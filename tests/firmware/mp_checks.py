"""Checks of the pod firmware's pure parts, run by MicroPython *and* CPython (the same file, the same checks).

Under MicroPython: ``MICROPYPATH=firmware:hardware/serial micropython tests/firmware/mp_checks.py``
prints one line per check (``ok NAME`` or ``FAIL NAME: why``) and ``DONE n``;
``... mp_checks.py oled`` prints the I2C transactions of the firmware's
SSD1306 driver instead (the host decodes them). Under CPython,
``tests/firmware/test_firmware.py`` imports this module and runs
:func:`run_all`. Each check is named by the behaviour it proves.
"""
import sys

try:  # CPython: the installed package, the firmware through the simulated pod's loader
    from tablekeeper.firmware import debounce, podcore
    from tablekeeper.hardware.serial import frame
    from tablekeeper.hardware.serial import protocol as proto
except ImportError:  # MicroPython: flat modules on MICROPYPATH
    import debounce
    import frame
    import podcore
    import protocol as proto


class Display:
    """The pod-side display interface as RAM; ``fail`` makes every call raise OSError."""

    def __init__(self):
        self.buf = bytearray(1024)
        self.shown = bytearray(1024)
        self.fail = False
        self.level = None
        self.on = None
        self.splashes = 0
        self.inits = 0

    def _check(self):
        if self.fail:
            raise OSError(5)

    def init(self):
        self._check()
        self.inits += 1

    def show(self, c0, c1, p0, p1):
        self._check()
        for p in range(p0, p1 + 1):
            self.shown[p * 128 + c0:p * 128 + c1 + 1] = self.buf[p * 128 + c0:p * 128 + c1 + 1]

    def contrast(self, level):
        self._check()
        self.level = level

    def power(self, on):
        self._check()
        self.on = on

    def splash(self, lines):
        self._check()
        self.splashes += 1
        for i in range(1024):
            self.buf[i] = 0
        self.buf[0] = 0xFF
        self.show(0, 127, 0, 7)


def frames_of(data):
    r = frame.FrameReader()
    out = []
    for seq, payload in r.feed(data):
        out.append((seq, proto.decode(payload)))
    return out


def msgs_of(data, kind):
    return [m for _, ms in frames_of(data) for m in ms if m[0] == kind]


def new_pod(now=0):
    d = Display()
    return podcore.PodCore("pod-x", 0x1234ABCD, d, now), d


def identified_pod(seq=40, nonce=7):
    pod, d = new_pod()
    pod.receive(frame.encode(seq, proto.identify(nonce)), 1)
    pod.poll(1)
    return pod, d


# -- framing ----------------------------------------------------------------------------------------------
def check_crc_vector():
    """CRC-16-CCITT (the CCITT-FALSE check value)."""
    assert frame.crc16(b"123456789") == 0x29B1, hex(frame.crc16(b"123456789"))
    data = bytes(range(256)) * 3
    assert frame._crc16_py(data) == frame.crc16(data)


def check_frame_round_trip():
    """Frames = sync byte, length, sequence number, payload, CRC."""
    f = frame.encode(300, b"hello")
    assert f[0] == frame.SYNC and f[1] == 5 and f[2] == 300 & 0xFF, f
    assert frame.check(f) == len(f)
    assert frame.check(f[:-1]) == 0
    r = frame.FrameReader()
    out = []
    for i in range(len(f)):
        out += r.feed(f[i:i + 1])
    assert out == [(44, b"hello")], out
    assert frame.encode(1, b"") and frame.check(frame.encode(1, b"")) == frame.OVERHEAD


def check_resync_after_garbage():
    """Resync after garbage; the pure parser answers need-more / discard / frame."""
    a = frame.encode(1, b"first")
    b = frame.encode(2, b"\x01\x7e\x7e\x7e\x7e second \x7e")
    stream = b"\x00\x01junk\x7e\xff" + a + b"\x7e\x03\x09garbage" + b + b"\x7e"
    r = frame.FrameReader(stale=10)
    got = []
    for i in range(0, len(stream), 3):
        got += r.feed(stream[i:i + 3], 0)
    got += r.expire(100)
    assert got == [(1, b"first"), (2, b"\x01\x7e\x7e\x7e\x7e second \x7e")], got
    assert frame.check(b"\x00\x01\x7e") == -2
    assert frame.check(b"\x7e\xff") < 0  # a length over the maximum


def check_sync_flood_dropped_a_run_at_a_time():
    """A run of sync bytes goes in one answer, all but the last three (no payload begins with a sync byte);
    a frame right behind the run is found."""
    good = frame.encode(3, b"\x42after")
    flood = b"\x7e" * 300
    assert frame.check(flood) == -(256 - 3)
    r = frame.FrameReader(stale=10)
    assert r.feed(flood, 0) == [] and r.pending() == 3
    # the run's last bytes look like the start of a long frame until their CRC fails (or they go stale)
    got = r.feed(good, 1) + r.expire(20) + r.expire(40) + r.expire(60)
    assert got == [(3, b"\x42after")] and r.discarded == 300, got
    try:
        frame.encode(1, b"\x7e")
    except ValueError:
        pass
    else:
        raise AssertionError("a payload beginning with the sync byte was framed")


def check_bad_crc_refused():
    """Never accepts a frame with a bad CRC."""
    f = bytearray(frame.encode(9, b"payload"))
    for i in range(1, len(f)):
        g = bytearray(f)
        g[i] ^= 0x10
        n = frame.check(g)
        assert n <= 0, (i, n)
    r = frame.FrameReader()
    g = bytearray(f)
    g[4] ^= 1
    assert r.feed(bytes(g)) == [] and r.bad_frames == 1


def check_stale_partial_frame():
    """Resync: a garbage length cannot hold up the frames behind it."""
    good = frame.encode(5, b"ok")
    r = frame.FrameReader(stale=50)
    assert r.feed(b"\x7e\xf0\x01" + good, 0) == []  # a 240-byte frame would need more
    assert r.expire(49) == []
    assert r.expire(50) == [(5, b"ok")]


def check_max_payload():
    try:
        frame.encode(0, bytes(frame.MAX_PAYLOAD + 1))
    except ValueError:
        pass
    else:
        raise AssertionError("a too long payload was framed")
    assert frame.check(frame.encode(0, bytes(frame.MAX_PAYLOAD))) == frame.MAX_FRAME


# -- messages ------------------------------------------------------------------------------------------------
def check_messages_round_trip():
    """Identify reply (protocol, firmware, pod id, boot id); display commands; events."""
    cases = [
        (proto.identify(0xDEADBEEF), (proto.IDENTIFY, 0xDEADBEEF)),
        (proto.config(250, 100, 3000, 20, 600, 150), (proto.CONFIG, 250, 100, 3000, 20, 600, 150)),
        (proto.draw(3, 4, 6, 7, b"abcd"), (proto.DRAW, 3, 4, 6, 7, b"abcd")),
        (proto.fill(0, 127, 2, 2, 0xAA), (proto.FILL, 0, 127, 2, 2, 0xAA)),
        (proto.contrast(300), (proto.CONTRAST, 255)),
        (proto.power(True), (proto.POWER, 1)),
        (proto.events_ack(70000), (proto.EVENTS_ACK, 70000)),
        (proto.nak(), (proto.NAK,)),
        (proto.identity(5, 0xCAFE, 512, 3, 3, "1.0.0", "pod-x"),
         (proto.IDENTITY, 5, proto.PROTOCOL, 0xCAFE, 512, 3, 3, "1.0.0", "pod-x", 0)),
        (proto.identity(5, 0xCAFE, 512, 3, 3, "1.0.0", "pod-x", 70000),
         (proto.IDENTITY, 5, proto.PROTOCOL, 0xCAFE, 512, 3, 3, "1.0.0", "pod-x", 70000)),
        (proto.status(0xCAFE, 1234, 9, 1), (proto.STATUS, 0xCAFE, 1234, 9, 1, 0)),
        (proto.status(0xCAFE, 1234, 9, 1, 7), (proto.STATUS, 0xCAFE, 1234, 9, 1, 7)),
        (proto.event(9, 3, 2), (proto.EVENT, 9, 3, 2)),
        (proto.error(2, "bad"), (proto.ERROR, 2, "bad")),
    ]
    payload = b""
    for data, want in cases:
        got = proto.decode(data)
        assert got == [want], (got, want)
        payload += data
    assert proto.decode(payload) == [w for _, w in cases]


def check_message_errors():
    for bad in (b"\x3f", proto.draw(0, 1, 0, 0, b"ab")[:-1], b"\x03\x05\x01\x00\x00", proto.identity(
            1, 2, 3, 4, 5, "fw", "id")[:-2], bytes([proto.EVENT, 0, 0])):
        try:
            proto.decode(bad)
        except proto.ProtocolError:
            continue
        raise AssertionError("decoded %r" % (bad,))


def check_draw_windows():
    for c0, c1, p0, p1, room in ((0, 127, 0, 7, 140), (0, 127, 0, 7, 250), (10, 20, 0, 7, 40), (0, 127, 3, 4, 40)):
        pieces = proto.draw_windows(c0, c1, p0, p1, room)
        cells = 0
        for a, b, p, q in pieces:
            n = (b - a + 1) * (q - p + 1)
            assert n + proto.DRAW_HEADER <= room, (a, b, p, q, room)
            cells += n
        assert cells == (c1 - c0 + 1) * (p1 - p0 + 1)


# -- buttons -------------------------------------------------------------------------------------------------
def _events(script, d=None):
    d = d or debounce.Debouncer(20, 600, 150)
    out = []
    for t, level in script:
        d.tick(t, lambda k, due: out.append((k, due)))
        if level is not None:
            d.edge(t, level)
    return out


def check_debounce_eager():
    """Eager debounce: a chattering contact is one press, 1 ms after it first closed; bounces inside the
    20 ms lockout (press and release) are ignored; a 10 ms tap is a press, released when the lockout ends;
    hold and repeat count from the press."""
    chatter = [(0, True), (2, False), (4, True), (5, False), (7, True), (60, None), (100, False), (101, True),
               (103, False), (200, None)]
    assert _events(chatter) == [(0, 1), (1, 101)], _events(chatter)
    tap = [(0, True), (10, False), (100, None)]
    assert _events(tap) == [(0, 1), (1, 21)], _events(tap)
    held = [(0, True), (1000, None), (1100, False), (1200, None)]
    assert _events(held) == [(0, 1), (2, 601), (3, 751), (3, 901), (3, 1051), (1, 1101)], _events(held)


def check_debounce_stable_wait():
    """Stable-wait debounce (eager=False, the older rule): a level must last 20 ms, so a chattering contact is
    one press 20 ms after it settled, a 10 ms glitch none; hold and repeat."""
    def stable():
        return debounce.Debouncer(20, 600, 150, eager=False)

    chatter = [(0, True), (2, False), (4, True), (5, False), (7, True), (60, None), (100, False), (101, True),
               (103, False), (200, None)]
    assert _events(chatter, stable()) == [(0, 27), (1, 123)], _events(chatter, stable())
    glitch = [(0, True), (10, False), (100, None)]
    assert _events(glitch, stable()) == []
    held = [(0, True), (1000, None), (1100, False), (1200, None)]
    assert _events(held, stable()) == [(0, 20), (2, 620), (3, 770), (3, 920), (3, 1070), (1, 1120)]


def check_spike_seen_by_one_scan_is_no_press():
    """On the pod's loop (read the contacts, then poll), a contact closed at one scan and open at the next,
    1 ms later, is a spike and no press; closed at two scans in a row is a press, at the second."""
    pod, d = identified_pod(seq=0)
    for now, closed in ((10, True), (11, False), (50, False), (60, True)):
        pod.contact(0, closed, now)
        pod.poll(now)
    assert pod.outbox == [], pod.outbox
    pod.contact(0, True, 61)
    pod.poll(61)
    assert [e[1:3] for e in pod.outbox] == [[0, debounce.PRESS]], pod.outbox


# -- the pod's link ------------------------------------------------------------------------------------------
def check_identify_reply():
    """Identify reply: protocol version, firmware version, pod id, boot id; a new nonce starts a session."""
    pod, d = new_pod()
    assert d.splashes == 1 and not pod.identified
    pod.receive(frame.encode(200, proto.identify(99)), 5)
    out = frames_of(pod.poll(5))
    ident = [m for _, ms in out for m in ms if m[0] == proto.IDENTITY]
    assert ident == [(proto.IDENTITY, 99, proto.PROTOCOL, 0x1234ABCD, podcore.RX_WINDOW, 0,
                      proto.FLAG_DISPLAY_OK | proto.FLAG_IDENTIFIED | proto.FLAG_BUTTONS, podcore.FIRMWARE_VERSION,
                      "pod-x", 0)], ident
    assert all(seq == 201 for seq, _ in out), out
    # the same IDENTIFY again (its answer was lost): answered again, nothing else changes
    pod.receive(frame.encode(200, proto.identify(99)), 6)
    again = frames_of(pod.poll(6))
    assert [m[0] for _, ms in again for m in ms] == [proto.IDENTITY] and again[0][0] == 201


def check_frames_in_order_only():
    """Host->pod frames acknowledged; taken in order, a repeat acknowledged, a gap NAKed."""
    pod, d = identified_pod(seq=40)
    pod.receive(frame.encode(42, proto.fill(0, 127, 0, 0, 0xFF)), 2)  # 41 is missing
    out = frames_of(pod.poll(2))
    assert out[0][0] == 41 and out[0][1] == [(proto.NAK,)], out
    assert d.buf[1] == 0
    pod.receive(frame.encode(41, proto.fill(0, 127, 1, 1, 0x0F)) + frame.encode(42, proto.fill(0, 127, 0, 0, 0xFF)),
                3)
    out = frames_of(pod.poll(3))
    assert out[-1][0] == 43 and d.shown[1] == 0xFF and d.shown[129] == 0x0F, out
    d.buf[1] = 0
    pod.receive(frame.encode(42, proto.fill(0, 127, 0, 0, 0xFF)), 4)  # a repeat: acked, not applied again
    out = frames_of(pod.poll(4))
    assert out[0] == (43, []) and d.buf[1] == 0 and pod.duplicates == 1, out


def check_damaged_frame_is_naked():
    """A damaged frame is answered with a NAK at once (the host resends without waiting for its timeout)."""
    pod, d = identified_pod(seq=10)
    bad = bytearray(frame.encode(11, proto.fill(0, 127, 0, 0, 0x33)))
    bad[6] ^= 0x40
    pod.receive(bytes(bad), 2)
    out = frames_of(pod.poll(2))
    assert out and out[0] == (11, [(proto.NAK,)]), out
    assert d.buf[1] == 0


def check_unparsable_frame_is_asked_again_then_taken():
    """A frame whose CRC passes but whose messages do not parse (a damaged stream the CRC-16 missed: a
    draw was lost and the display never converged) is NAKed, not taken, and the good copy the host
    resends is applied. The same frame unparsable twice is the host's own: taken and answered with the
    error, so a host bug cannot loop."""
    pod, d = identified_pod(seq=10)
    pod.receive(frame.encode(11, proto.fill(0, 127, 0, 0, 0x33) + b"\x00\x01"), 2)
    out = frames_of(pod.poll(2))
    assert out and out[0] == (11, [(proto.NAK,)]), out
    assert d.buf[1] == 0 and pod.unparsed == 1 and pod.expected == 11
    pod.receive(frame.encode(11, proto.fill(0, 127, 0, 0, 0x33)), 3)
    out = frames_of(pod.poll(3))
    assert out[-1][0] == 12 and d.shown[1] == 0x33, out
    bad = frame.encode(12, proto.fill(0, 127, 0, 0, 0x55)[:3])  # a FILL cut short
    pod.receive(bad, 4)
    pod.poll(4)
    pod.receive(bad, 5)
    out = frames_of(pod.poll(5))
    assert pod.expected == 13 and pod.errors == 1 and pod.unparsed == 2, (pod.expected, pod.errors, pod.unparsed)
    assert [m for _s, ms in out for m in ms if m[0] == proto.ERROR], out


def check_draw_is_idempotent():
    """Display updates are idempotent "set these pages" commands."""
    pod, d = identified_pod(seq=0)
    data = bytes(range(10, 30))
    pod.receive(frame.encode(1, proto.draw(100, 109, 6, 7, data)), 2)
    first = bytes(d.shown)
    pod.receive(frame.encode(2, proto.draw(100, 109, 6, 7, data)), 3)
    assert bytes(d.shown) == first
    assert d.shown[6 * 128 + 100:6 * 128 + 110] == data[:10] and d.shown[7 * 128 + 100:7 * 128 + 110] == data[10:]


def check_events_resent_until_acked():
    """Pod->host button events numbered and re-sent until acknowledged."""
    pod, d = identified_pod(seq=0)
    pod.contact(3, True, 10)
    assert msgs_of(pod.poll(10), proto.EVENT) == []
    assert msgs_of(pod.poll(11), proto.EVENT) == [(proto.EVENT, 1, 3, 0)]  # main press, 1 ms (eager debounce)
    pod.contact(3, False, 50)
    assert msgs_of(pod.poll(51), proto.EVENT) == [(proto.EVENT, 2, 3, 1)]
    assert msgs_of(pod.poll(110), proto.EVENT) == []
    # not acknowledged: again, and everything after it in order (go-back-N), so the host can take them all
    assert msgs_of(pod.poll(111), proto.EVENT) == [(proto.EVENT, 1, 3, 0), (proto.EVENT, 2, 3, 1)]
    pod.receive(frame.encode(1, proto.events_ack(1)), 131)
    pod.poll(131)
    assert [e[0] for e in pod.outbox] == [2]
    pod.receive(frame.encode(2, proto.events_ack(2)), 132)
    assert pod.outbox == [] and msgs_of(pod.poll(400), proto.EVENT) == []


def check_full_outbox_says_what_it_dropped():
    """Events the host never acknowledged overflow the outbox: the oldest go, and the heartbeat and the
    identify reply say up to which number events were dropped, so the host can count them and go on."""
    pod, d = identified_pod(seq=0)
    n = podcore.OUTBOX + 6
    t = 10
    for _ in range(n // 2):
        pod.contact(0, True, t)
        pod.poll(t + 25)
        pod.contact(0, False, t + 30)
        pod.poll(t + 55)
        t += 60
    assert pod.last_event == n and len(pod.outbox) == podcore.OUTBOX, (pod.last_event, len(pod.outbox))
    assert pod.outbox[0][0] == 7 and pod.dropped_to == 6 and pod.dropped_events == 6
    st = msgs_of(pod.poll(t + 1000), proto.STATUS)
    assert st and st[-1][3] == n and st[-1][5] == 6, st
    pod.receive(frame.encode(0, proto.identify(99)), t + 1001)
    ident = msgs_of(pod.poll(t + 1001), proto.IDENTITY)
    assert ident and ident[0][2] == proto.PROTOCOL and ident[0][9] == 6, ident


def check_presses_before_identify_ignored():
    """Presses on the "waiting for the table" screen do nothing."""
    pod, d = new_pod()
    pod.contact(0, True, 0)
    pod.poll(50)
    assert pod.outbox == [] and pod.ignored_presses == 1


def check_release_of_an_ignored_press_is_not_sent():
    """A press ignored on the "waiting" screen stays ignored whole: its release, after the host identified
    the pod, is not sent (the host would get a release with no press); the next press is sent whole."""
    pod, d = new_pod()
    pod.contact(1, True, 0)
    pod.poll(5)
    pod.receive(frame.encode(0, proto.identify(7)), 10)
    pod.poll(10)
    pod.contact(1, False, 40)
    pod.poll(50)
    assert pod.outbox == [] and pod.ignored_presses == 1, pod.outbox
    pod.contact(1, True, 100)
    pod.poll(110)
    pod.contact(1, False, 200)
    pod.poll(210)
    assert [e[1:3] for e in pod.outbox] == [[1, debounce.PRESS], [1, debounce.RELEASE]], pod.outbox


def check_heartbeat():
    """A heartbeat (STATUS with the boot id) every heartbeat ms."""
    pod, d = new_pod()
    assert msgs_of(pod.poll(0), proto.STATUS) == [(proto.STATUS, 0x1234ABCD, 0, 0,
                                                   proto.FLAG_DISPLAY_OK | proto.FLAG_BUTTONS, 0)]
    assert msgs_of(pod.poll(100), proto.STATUS) == []
    assert len(msgs_of(pod.poll(250), proto.STATUS)) == 1


def check_heartbeat_says_which_buttons_are_down():
    """The flags say which buttons are down (debounced), even one whose press the pod ignores (pressed while
    it waited for a host): ``hw check`` finds a stuck button so."""
    pod, d = new_pod()
    pod.contact(2, True, 10)
    st = msgs_of(pod.poll(250), proto.STATUS)
    assert st and proto.pressed_codes(st[-1][4]) == (2,), st
    assert pod.ignored_presses == 1 and not pod.outbox
    pod.contact(2, False, 300)
    st = msgs_of(pod.poll(500), proto.STATUS)
    assert st and proto.pressed_codes(st[-1][4]) == (), st
    assert proto.pressed_codes(proto.FLAG_DISPLAY_OK) is None  # an older pod does not say


def check_config_message():
    pod, d = identified_pod(seq=0)
    pod.receive(frame.encode(1, proto.config(50, 30, 1000, 5, 100, 40)), 2)
    t = pod.timing
    assert (t.heartbeat, t.resend, t.host_lost, t.debounce, t.hold, t.repeat) == (50, 30, 1000, 5, 100, 40)
    assert pod.debouncers[0].debounce_ms == 5
    # CONFIG carries no debounce mode: the pod stays eager, with its own noise threshold
    assert pod.debouncers[0].eager and pod.debouncers[0].settle_ms == 1


def check_host_lost():
    """The host silent for host_lost ms: the pod shows "waiting", presses are ignored, heartbeats say so."""
    pod, d = identified_pod(seq=0)
    pod.poll(pod.timing.host_lost)
    assert pod.identified and d.splashes == 1
    pod.poll(pod.timing.host_lost + 2)
    assert not pod.identified and d.splashes == 2
    st = msgs_of(pod.poll(pod.timing.host_lost + 1000), proto.STATUS)
    assert st and not st[-1][4] & proto.FLAG_IDENTIFIED


def check_display_failure_and_return():
    """A display that stops answering: reported in the heartbeat, set up again with the whole picture."""
    pod, d = identified_pod(seq=0)
    d.fail = True
    pod.receive(frame.encode(1, proto.fill(0, 127, 0, 7, 0x55)), 10)
    assert not pod.display_ok and d.buf[5] == 0x55  # the buffer keeps the picture
    st = msgs_of(pod.poll(300), proto.STATUS)
    assert st and not st[-1][4] & proto.FLAG_DISPLAY_OK
    d.fail = False
    pod.poll(10 + pod.timing.display_retry)
    assert pod.display_ok and d.shown[5] == 0x55 and d.inits == 2


def check_boot_ids_differ():
    """A boot id that changes at every start."""
    ids = set(podcore.new_boot_id() for _ in range(20))
    assert len(ids) == 20 and 0 not in ids


def check_echo_ignored():
    """The pod's own frames coming back (an echoing line) are not commands."""
    pod, d = identified_pod(seq=0)
    pod.receive(frame.encode(1, proto.status(1, 2, 3, 4)), 5)
    assert pod.echoes == 1 and pod.expected == 1


CHECKS = [v for k, v in sorted(globals().items()) if k.startswith("check_")]


def run_all():
    results = []
    for fn in CHECKS:
        try:
            fn()
            results.append((fn.__name__, None))
        except Exception as e:  # report every check, not only the first failure
            results.append((fn.__name__, "%s: %s" % (type(e).__name__, e)))
    return results


# -- the SSD1306 driver (MicroPython: framebuf) --------------------------------------------------------------
class RecordingI2C:
    def __init__(self):
        self.log = []

    def writeto(self, addr, data):
        self.log.append((addr, bytes(data)))

    def writevto(self, addr, parts):
        self.log.append((addr, b"".join(bytes(p) for p in parts)))


def oled_transcript():
    """The I2C transactions of: set up, a splash, a picture, two windows, contrast, power off; and the buffer."""
    import oled

    bus = RecordingI2C()
    d = oled.SSD1306(bus)
    d.init()
    d.splash(["tablekeeper", "waiting for", "the table", "pod-x"])
    for i in range(1024):
        d.buf[i] = (i * 7 + 3) & 0xFF
    d.show()
    d.buf[3 * 128 + 40:3 * 128 + 50] = bytes(range(10))
    d.show(40, 49, 3, 3)
    d.buf[6 * 128 + 120:6 * 128 + 128] = b"\xff" * 8
    d.buf[7 * 128 + 120:7 * 128 + 128] = b"\x81" * 8
    d.show(120, 127, 6, 7)
    d.contrast(16)
    d.power(False)
    return bus.log, bytes(d.buf)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "oled":
        log, buf = oled_transcript()
        for addr, data in log:
            print("i2c %02x %s" % (addr, "".join("%02x" % b for b in data)))
        print("buf " + "".join("%02x" % b for b in buf))
    else:
        n = 0
        for name, problem in run_all():
            print(("ok " + name) if problem is None else ("FAIL %s: %s" % (name, problem)))
            n += 1
        print("DONE %d" % n)
