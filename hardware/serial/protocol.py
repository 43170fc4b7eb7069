"""The messages of the serial pod link, in a frame's payload. Shared by host and pod.

Like :mod:`.frame` this file runs unchanged under MicroPython on the
pod, so it keeps to the Python both run.

A payload is one or more messages back to back; a message is an id byte and
fixed fields (big-endian), except DRAW (its data length follows from its
window) and the strings of IDENTITY and ERROR (a length byte, then UTF-8).
Ids 0x01-0x3F go host → pod, 0x40-0x7F pod → host, so either end can tell
its own frames echoed back (a terminal in echo mode) from the other's.

Host → pod (every frame sequenced, acknowledged, retransmitted)::

    IDENTIFY   0x01 nonce:u32                      answer IDENTITY; a new nonce starts a session
    CONFIG     0x02 heartbeat_ms resend_ms host_lost_ms debounce_ms hold_ms repeat_ms (u16 each)
    DRAW       0x03 col0 col1 page0 page1 (u8) + (col1-col0+1)*(page1-page0+1) bytes
    FILL       0x04 col0 col1 page0 page1 value (u8)
    CONTRAST   0x05 level:u8
    POWER      0x06 on:u8
    EVENTS_ACK 0x07 last:u32                       every button event up to ``last`` arrived
    REPL       0x08                                restart into MicroPython's REPL (for updates)

Pod → host (not retransmitted by the link; the frame's SEQ is the pod's
acknowledgement: the next host sequence number it expects)::

    NAK        0x40                                a frame is missing before SEQ: resend from SEQ
    IDENTITY   0x41 nonce:u32 protocol:u8 boot_id:u32 rx_window:u16 acked:u32 flags:u8
                    firmware:str pod_id:str dropped_to:u32
    STATUS     0x42 boot_id:u32 uptime_ms:u32 last_event:u32 flags:u8 dropped_to:u32   the heartbeat
    EVENT      0x43 number:u32 button:u8 kind:u8   re-sent until EVENTS_ACK covers it
    ERROR      0x44 code:u8 text:str

DRAW and FILL set bytes of the SSD1306's RAM (page-major, bit 0 at the top
of a page), never add to them: repeating one is harmless. Flags: bit 0
display answers, bit 1 identified by a host since boot, bit 2: bits 4-7 say
which buttons are down (bit 4 ``up`` ... bit 7 ``main``: firmware 1.3 and
later; an older pod leaves bits 2-7 clear, and a host that does not read
them ignores them: no protocol change). ``dropped_to``: the
highest button event number the pod dropped unsent because its outbox was
full (0: none); the host counts the ones it never got and goes on after it.

Protocol 2 added ``dropped_to`` (at the end of IDENTITY, so a protocol 1
IDENTITY still reads and the host can say which firmware to install).
Strings from the other end are read defensively: invalid UTF-8 becomes
U+FFFD (CPython) or a :class:`ProtocolError` (MicroPython cannot replace),
never another exception.
"""
import struct

#: Bump when a message changes; a host refuses a pod speaking another version.
#: 2: ``dropped_to`` in STATUS and IDENTITY.
PROTOCOL = 2

IDENTIFY, CONFIG, DRAW, FILL, CONTRAST, POWER, EVENTS_ACK, REPL = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08
NAK, IDENTITY, STATUS, EVENT, ERROR = 0x40, 0x41, 0x42, 0x43, 0x44

#: Button and event-kind codes (index = code); equal to tablekeeper.hardware.pod's BUTTONS and KINDS.
BUTTONS = ("up", "down", "select", "main")
KINDS = ("press", "release", "hold", "repeat")

WIDTH = 128
PAGES = 8

FLAG_DISPLAY_OK = 0x01
FLAG_IDENTIFIED = 0x02
#: Bits 4-7 say which buttons are down (bit 4 + the button's code); without this flag the pod does not say.
FLAG_BUTTONS = 0x04
BUTTON_BIT = 4


def pressed_flags(down):
    """The flags that say which buttons are down (``down[code]``: that button is down)."""
    f = FLAG_BUTTONS
    for code in range(min(len(down), len(BUTTONS))):
        if down[code]:
            f |= 1 << (BUTTON_BIT + code)
    return f


def pressed_codes(flags):
    """The codes of the buttons a pod's flags say are down; None when its flags do not say (older firmware)."""
    if not flags & FLAG_BUTTONS:
        return None
    return tuple(code for code in range(len(BUTTONS)) if flags & (1 << (BUTTON_BIT + code)))


#: Error codes in ERROR messages.
E_UNKNOWN, E_BAD_FIELD, E_DISPLAY = 1, 2, 3

NAMES = {
    IDENTIFY: "IDENTIFY", CONFIG: "CONFIG", DRAW: "DRAW", FILL: "FILL", CONTRAST: "CONTRAST", POWER: "POWER",
    EVENTS_ACK: "EVENTS_ACK", REPL: "REPL", NAK: "NAK", IDENTITY: "IDENTITY", STATUS: "STATUS", EVENT: "EVENT",
    ERROR: "ERROR",
}

#: Bytes after the id byte of the fixed-size messages.
_FIXED = {IDENTIFY: 4, CONFIG: 12, FILL: 5, CONTRAST: 1, POWER: 1, EVENTS_ACK: 4, REPL: 0,
          NAK: 0, STATUS: 17, EVENT: 6}
DRAW_HEADER = 5  # id + window


class ProtocolError(ValueError):
    """A message that cannot be read (unknown id, too short, a field out of range)."""


def host_to_pod(msg_id):
    return 0x01 <= msg_id <= 0x3F


# -- host -> pod ---------------------------------------------------------------------
def identify(nonce):
    return struct.pack(">BI", IDENTIFY, nonce & 0xFFFFFFFF)


def config(heartbeat_ms, resend_ms, host_lost_ms, debounce_ms, hold_ms, repeat_ms):
    vals = [min(max(int(v), 1), 0xFFFF) for v in (heartbeat_ms, resend_ms, host_lost_ms, debounce_ms, hold_ms,
                                                   repeat_ms)]
    return struct.pack(">BHHHHHH", CONFIG, vals[0], vals[1], vals[2], vals[3], vals[4], vals[5])


def window_ok(c0, c1, p0, p1):
    return 0 <= c0 <= c1 < WIDTH and 0 <= p0 <= p1 < PAGES


def draw(c0, c1, p0, p1, data):
    if not window_ok(c0, c1, p0, p1) or len(data) != (c1 - c0 + 1) * (p1 - p0 + 1):
        raise ValueError("bad DRAW window %d-%d x %d-%d for %d bytes" % (c0, c1, p0, p1, len(data)))
    return bytes([DRAW, c0, c1, p0, p1]) + bytes(data)


def fill(c0, c1, p0, p1, value):
    if not window_ok(c0, c1, p0, p1):
        raise ValueError("bad FILL window %d-%d x %d-%d" % (c0, c1, p0, p1))
    return bytes([FILL, c0, c1, p0, p1, value & 0xFF])


def contrast(level):
    return bytes([CONTRAST, max(0, min(255, int(level)))])


def power(on):
    return bytes([POWER, 1 if on else 0])


def events_ack(last):
    return struct.pack(">BI", EVENTS_ACK, last & 0xFFFFFFFF)


def repl():
    return bytes([REPL])


# -- pod -> host ---------------------------------------------------------------------
def _text(s):
    b = s.encode("utf-8")[:64]
    return bytes([len(b)]) + b


def nak():
    return bytes([NAK])


def identity(nonce, boot_id, rx_window, acked, flags, firmware, pod_id, dropped_to=0):
    return (struct.pack(">BIBIHIB", IDENTITY, nonce & 0xFFFFFFFF, PROTOCOL, boot_id & 0xFFFFFFFF,
                        rx_window & 0xFFFF, acked & 0xFFFFFFFF, flags & 0xFF)
            + _text(firmware) + _text(pod_id) + struct.pack(">I", dropped_to & 0xFFFFFFFF))


def status(boot_id, uptime_ms, last_event, flags, dropped_to=0):
    return struct.pack(">BIIIBI", STATUS, boot_id & 0xFFFFFFFF, uptime_ms & 0xFFFFFFFF, last_event & 0xFFFFFFFF,
                       flags & 0xFF, dropped_to & 0xFFFFFFFF)


def event(number, button, kind):
    return struct.pack(">BIBB", EVENT, number & 0xFFFFFFFF, button, kind)


def error(code, text):
    return bytes([ERROR, code & 0xFF]) + _text(text)


# -- reading --------------------------------------------------------------------------
def _str(payload, i):
    if i >= len(payload):
        raise ProtocolError("string cut short")
    n = payload[i]
    if i + 1 + n > len(payload):
        raise ProtocolError("string cut short")
    raw = bytes(payload[i + 1:i + 1 + n])
    try:
        text = raw.decode("utf-8")
    except UnicodeError:  # CPython: UnicodeDecodeError; MicroPython: UnicodeError, even asked to replace
        try:
            text = raw.decode("utf-8", "replace")
        except UnicodeError:
            raise ProtocolError("a string that is not UTF-8") from None
    return text, i + 1 + n


def decode_one(payload, i):
    """The message at ``payload[i:]`` as a tuple (id, fields...) and the index after it.

    Raises :class:`ProtocolError` on an unknown id, a message cut short or a
    window out of range; the rest of the payload cannot be read then.
    """
    msg_id = payload[i]
    i += 1
    size = _FIXED.get(msg_id)
    if size is not None:
        if i + size > len(payload):
            raise ProtocolError("%s cut short" % NAMES[msg_id])
        if msg_id == IDENTIFY or msg_id == EVENTS_ACK:
            return (msg_id, struct.unpack_from(">I", payload, i)[0]), i + size
        if msg_id == CONFIG:
            return (msg_id,) + struct.unpack_from(">HHHHHH", payload, i), i + size
        if msg_id == FILL:
            c0, c1, p0, p1, v = payload[i], payload[i + 1], payload[i + 2], payload[i + 3], payload[i + 4]
            if not window_ok(c0, c1, p0, p1):
                raise ProtocolError("FILL window out of range")
            return (msg_id, c0, c1, p0, p1, v), i + size
        if msg_id == CONTRAST or msg_id == POWER:
            return (msg_id, payload[i]), i + size
        if msg_id == STATUS:
            return (msg_id,) + struct.unpack_from(">IIIBI", payload, i), i + size
        if msg_id == EVENT:
            return (msg_id,) + struct.unpack_from(">IBB", payload, i), i + size
        return (msg_id,), i + size  # REPL, NAK
    if msg_id == DRAW:
        if i + 4 > len(payload):
            raise ProtocolError("DRAW cut short")
        c0, c1, p0, p1 = payload[i], payload[i + 1], payload[i + 2], payload[i + 3]
        if not window_ok(c0, c1, p0, p1):
            raise ProtocolError("DRAW window out of range")
        n = (c1 - c0 + 1) * (p1 - p0 + 1)
        i += 4
        if i + n > len(payload):
            raise ProtocolError("DRAW data cut short")
        return (msg_id, c0, c1, p0, p1, bytes(payload[i:i + n])), i + n
    if msg_id == IDENTITY:
        if i + 18 > len(payload):
            raise ProtocolError("IDENTITY cut short")
        nonce, proto, boot, window, acked, flags = struct.unpack_from(">IBIHIB", payload, i)
        firmware, i = _str(payload, i + 16)
        pod_id, i = _str(payload, i)
        dropped_to = 0
        if proto >= 2:  # protocol 1 ended here: still read, so the host can say "update the firmware"
            if i + 4 > len(payload):
                raise ProtocolError("IDENTITY cut short")
            dropped_to = struct.unpack_from(">I", payload, i)[0]
            i += 4
        return (msg_id, nonce, proto, boot, window, acked, flags, firmware, pod_id, dropped_to), i
    if msg_id == ERROR:
        if i + 1 > len(payload):
            raise ProtocolError("ERROR cut short")
        code = payload[i]
        text, i = _str(payload, i + 1)
        return (msg_id, code, text), i
    raise ProtocolError("unknown message id 0x%02x" % msg_id)


def decode(payload):
    """Every message of a payload, in order. Raises :class:`ProtocolError` (see :func:`decode_one`)."""
    out = []
    i = 0
    while i < len(payload):
        msg, i = decode_one(payload, i)
        out.append(msg)
    return out


def draw_windows(c0, c1, p0, p1, room):
    """Split a window into (c0, c1, page_a, page_b) pieces whose DRAW message fits ``room`` payload bytes.

    Whole pages go together as long as they fit; one page that does not fit
    alone is split by columns.
    """
    width = c1 - c0 + 1
    data_room = room - DRAW_HEADER
    if data_room < 1:
        raise ValueError("no room for a DRAW message in %d bytes" % room)
    out = []
    if data_room >= width:
        k = data_room // width
        p = p0
        while p <= p1:
            q = min(p1, p + k - 1)
            out.append((c0, c1, p, q))
            p = q + 1
        return out
    for p in range(p0, p1 + 1):
        c = c0
        while c <= c1:
            d = min(c1, c + data_room - 1)
            out.append((c, d, p, p))
            c = d + 1
    return out
