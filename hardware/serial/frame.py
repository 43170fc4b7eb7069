"""Frames of the serial pod link: sync byte, length, sequence number, payload, CRC-16-CCITT.

One file for both ends: the host imports it as
``tablekeeper.hardware.serial.frame`` and the pod runs this very file under
MicroPython (``firmware/deploy.py`` copies it onto the pod). So it keeps to
the Python both run: no dataclasses, no typing, no ``__future__``, no
bytearray item deletion.

A frame (Klipper's block, with the sync byte moved to the front so that
garbage between frames is skipped by looking for it)::

    +------+-----+-----+------------------+--------+--------+
    | 0x7E | LEN | SEQ | LEN payload bytes| CRC hi | CRC lo |
    +------+-----+-----+------------------+--------+--------+

``LEN`` is the payload length (0-250), so a frame is 5-255 bytes. The CRC is
CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection,
check value 0x29B1 for ``b"123456789"``) over LEN, SEQ and the payload.
A payload never begins with the sync byte (no message id is 0x7E), so where
four sync bytes follow one another no frame starts: a flood of sync bytes is
dropped a run at a time, not tried byte by byte (each try a CRC).

:func:`check` is the pure parser, shared by both ends (Klipper's
``check_packet``): given the bytes received so far it answers *need more*
(0), *discard n bytes* (-n: garbage, an impossible length or a bad CRC; it
drops everything up to the next sync byte) or *a frame of n bytes* (n).
:class:`FrameReader` keeps the bytes between calls and gives up on a frame
whose rest never comes (its length byte was garbage), after ``stale``
seconds of waiting.
"""

SYNC = 0x7E
HEADER = 3  # sync, length, sequence
TRAILER = 2  # CRC, high byte first
OVERHEAD = HEADER + TRAILER
MAX_PAYLOAD = 250
MAX_FRAME = MAX_PAYLOAD + OVERHEAD
_SYNC_BYTE = bytes([SYNC])
#: Bytes of a sync-byte run looked at in one go (a longer run takes several).
_RUN_PIECE = 256


def _make_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def _crc16_py(data, crc=0xFFFF):
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[(crc >> 8) ^ b]
    return crc


try:  # CPython has it in C; MicroPython's binascii does not
    from binascii import crc_hqx as _crc_hqx

    def crc16(data, crc=0xFFFF):
        """CRC-16/CCITT-FALSE of ``data`` (bytes-like), continuing from ``crc``."""
        return _crc_hqx(data, crc)
except ImportError:
    crc16 = _crc16_py


def encode(seq, payload=b""):
    """The frame carrying ``payload`` (at most :data:`MAX_PAYLOAD` bytes) with sequence number ``seq & 0xFF``."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("a frame carries at most %d payload bytes, not %d" % (MAX_PAYLOAD, n))
    if n and payload[0] == SYNC:
        raise ValueError("a payload never begins with the sync byte 0x%02x" % SYNC)
    body = bytes([n, seq & 0xFF]) + bytes(payload)
    crc = crc16(body)
    return _SYNC_BYTE + body + bytes([crc >> 8, crc & 0xFF])


def _skip(buf, start, end):
    """How many bytes from ``start`` to drop: up to (not including) the next sync byte after it."""
    i = buf.find(_SYNC_BYTE, start + 1, end)
    return (end - start) if i < 0 else (i - start)


def _sync_run(buf, start, end):
    """How many sync bytes follow one another from ``start`` (at most :data:`_RUN_PIECE`), found in C."""
    piece = bytes(buf[start:min(end, start + _RUN_PIECE)])
    return len(piece) - len(piece.lstrip(_SYNC_BYTE))


def check(buf, start=0, end=None):
    """Is there a frame at ``buf[start:end]``? The pure parser; it never raises on any bytes.

    Returns ``n > 0``: a whole frame with a good CRC is ``buf[start:start+n]``;
    ``0``: it may be a frame, more bytes are needed; ``-n``: drop ``n`` bytes
    (everything up to the next sync byte: garbage, a length over
    :data:`MAX_PAYLOAD`, or a bad CRC).
    """
    if end is None:
        end = len(buf)
    if start >= end:
        return 0
    if buf[start] != SYNC:
        return -_skip(buf, start, end)
    if end - start < 2:
        return 0
    length = buf[start + 1]
    if length == SYNC and end - start >= 4 and buf[start + 2] == SYNC and buf[start + 3] == SYNC:
        # A frame here would have a payload beginning with the sync byte: none does. Of a run of sync
        # bytes only the last three may begin a frame; the rest goes at once.
        return -(_sync_run(buf, start, end) - 3) or -1
    if length > MAX_PAYLOAD:
        return -_skip(buf, start, end)
    total = length + OVERHEAD
    if end - start < total:
        return 0
    crc = crc16(memoryview(buf)[start + 1:start + total - TRAILER])
    if buf[start + total - 2] != crc >> 8 or buf[start + total - 1] != crc & 0xFF:
        return -_skip(buf, start, end)
    return total


class FrameReader:
    """Bytes in (in any pieces), ``(seq, payload)`` frames out.

    ``feed(data, now)`` returns the frames completed by ``data``. A frame
    that stays incomplete for ``stale`` (same unit as ``now``) is given up:
    its sync byte is dropped and the rest is scanned again, so a garbage
    length byte cannot hold up the frames behind it. Counts what it dropped:
    ``frames``, ``discarded`` (bytes), ``bad_frames`` (a sync and a
    plausible length but a bad CRC), ``stale_drops``.
    """

    def __init__(self, stale=None):
        self.stale = stale
        self.buf = bytearray()
        self.start = 0
        self.waiting_since = None  # when the incomplete frame at start began waiting
        self.frames = 0
        self.discarded = 0
        self.bad_frames = 0
        self.stale_drops = 0

    def reset(self):
        self.buf = bytearray()
        self.start = 0
        self.waiting_since = None

    def pending(self):
        """Bytes held that are not yet a frame."""
        return len(self.buf) - self.start

    def feed(self, data, now=0):
        if data:
            self.buf.extend(data)
        out = []  # type: list[tuple[int, bytes]]
        self._scan(out, now)
        self._compact()
        return out

    def expire(self, now):
        """Give up a frame that waited too long for its rest; returns the frames found behind it."""
        out = []  # type: list[tuple[int, bytes]]
        if self.stale is None or self.waiting_since is None:
            return out
        if now - self.waiting_since < self.stale:
            return out
        self.stale_drops += 1
        self._drop(1)
        self._scan(out, now)
        self._compact()
        return out

    def _drop(self, n):
        self.start += n
        self.discarded += n
        self.waiting_since = None

    def _scan(self, out, now):
        buf = self.buf
        end = len(buf)
        while True:
            n = check(buf, self.start, end)
            if n > 0:
                s = self.start
                out.append((buf[s + 2], bytes(buf[s + HEADER:s + n - TRAILER])))
                self.frames += 1
                self.start = s + n
                self.waiting_since = None
            elif n < 0:
                if buf[self.start] == SYNC and end - self.start >= 2 and buf[self.start + 1] <= MAX_PAYLOAD:
                    self.bad_frames += 1
                self._drop(-n)
            else:
                if self.start < end and self.waiting_since is None:
                    self.waiting_since = now
                return

    def _compact(self):
        if self.start == len(self.buf):
            self.buf = bytearray()
            self.start = 0
        elif self.start > 512:
            self.buf = self.buf[self.start:]
            self.start = 0
