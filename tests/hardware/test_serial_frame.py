"""The serial pod link's frames: the pure parser on random bytes (a property/fuzz test).

The parser (``frame.check``) answers need-more / discard / frame; it
must never raise and never accept a frame whose CRC is wrong, whatever the
bytes; and a frame after garbage must be found (resync).
"""
from __future__ import annotations

import binascii

import pytest
import serial
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from tablekeeper.hardware.serial import frame
from tablekeeper.hardware.serial import protocol as proto

from ..conftest import examples

SYNC = bytes([frame.SYNC])


def crc_ok(f: bytes) -> bool:
    """An independent CRC-16/CCITT-FALSE check (binascii's)."""
    crc = binascii.crc_hqx(f[1:-2], 0xFFFF)
    return f[-2:] == crc.to_bytes(2, "big")


def parse_all(data: bytes) -> list[bytes]:
    """Run the pure parser over ``data`` like a receiver would; the frames it accepts. Checks every answer."""
    out = []
    start = 0
    while start < len(data):
        n = frame.check(data, start)
        assert isinstance(n, int)
        if n == 0:
            break
        if n > 0:
            assert frame.OVERHEAD <= n <= frame.MAX_FRAME and start + n <= len(data)
            out.append(data[start:start + n])
            start += n
        else:
            assert start - n <= len(data)
            start -= n
    return out


@settings(max_examples=examples(400), deadline=None)
@given(st.binary(max_size=600))
@example(SYNC + b"\x00\x00\x00\x00")
@example(SYNC + bytes([frame.MAX_PAYLOAD + 1]))
def test_parser_never_raises_and_never_accepts_a_bad_crc(data):
    """The parser on random bytes never raises, never accepts a frame with a bad CRC."""
    for f in parse_all(data):
        assert f[0] == frame.SYNC and f[1] + frame.OVERHEAD == len(f)
        assert crc_ok(f)
    r = frame.FrameReader(stale=1)
    got = r.feed(data, 0) + r.expire(5)
    for seq, payload in got:
        assert crc_ok(frame.encode(seq, payload))


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=300), st.integers(0, 255), st.binary(max_size=frame.MAX_PAYLOAD), st.data())
def test_frame_after_garbage_is_found(garbage, seq, payload, data):
    """Resync after garbage: a good frame behind any garbage is found (waiting out a stalled false start)."""
    assume(payload[:1] != SYNC)  # no payload begins with the sync byte
    good = frame.encode(seq, payload)
    stream = garbage + good
    r = frame.FrameReader(stale=1)
    got = []
    i = 0
    while i < len(stream):  # in random pieces, as bytes arrive
        k = data.draw(st.integers(1, 64))
        got += r.feed(stream[i:i + k], 0)
        i += k
    for t in range(1, 2 * len(stream) + 2):  # time passes: stalled false starts are dropped
        got += r.expire(t)
    if SYNC not in garbage:
        assert got == [(seq, payload)]
    else:
        # A false start in the garbage may by chance carry a good CRC (1 in 65536) and swallow the frame;
        # otherwise the frame is the last thing found.
        assert got[-1] == (seq, payload) or any(crc_ok(frame.encode(s, p)) for s, p in got)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 255), st.binary(min_size=0, max_size=frame.MAX_PAYLOAD), st.data())
def test_any_damage_to_a_frame_is_refused(seq, payload, data):
    """A frame with one byte changed is never accepted (CRC-16 catches every 1-byte error); with one byte
    dropped, the frame sent is never read. A dropped byte moves the frame's end: the shorter span then read
    may carry a good CRC by chance, 1 in 65 536 (a run of the suite found one: a dropped length byte left
    "length 1" and two payload bytes that made its CRC), and that is another frame, not this one."""
    assume(payload[:1] != SYNC)
    good = bytearray(frame.encode(seq, payload))
    i = data.draw(st.integers(1, len(good) - 1))
    changed = data.draw(st.booleans())
    if changed:
        good[i] ^= data.draw(st.integers(1, 255))
    else:
        del good[i]
    got = frame.FrameReader().feed(bytes(good))
    if changed:
        assert frame.check(bytes(good)) <= 0 and got == []
    else:
        assert (seq, payload) not in got
        assert frame.check(bytes(good)) <= 0 or crc_ok(bytes(good[:frame.check(bytes(good))]))


def test_a_dropped_length_byte_whose_shorter_span_has_a_good_crc_is_read_as_another_frame():
    """The case a run of the suite drew: frame (1, 8f a5 15 45) with its length byte dropped. The bytes left
    begin a frame of length 1 whose CRC happens to be good: read as that frame, never as the one sent."""
    good = bytearray(frame.encode(1, b"\x8f\xa5\x15E"))
    del good[1]
    assert bytes(good) == b"~\x01\x8f\xa5\x15E\x19\xbd"
    got = frame.FrameReader().feed(bytes(good))
    assert (1, b"\x8f\xa5\x15E") not in got


def test_crc_is_ccitt_false():
    """CRC-16-CCITT: the catalogued check value of CRC-16/CCITT-FALSE, in C and in pure Python alike."""
    assert frame.crc16(b"123456789") == 0x29B1
    assert frame._crc16_py(b"123456789") == 0x29B1


@pytest.mark.parametrize("stream, answer", [
    (b"", 0),
    (SYNC, 0),
    (SYNC + b"\x05\x01abc", 0),  # need more
    (b"abc" + SYNC, -3),  # garbage up to the sync byte
    (b"abc", -3),
    (SYNC + bytes([frame.MAX_PAYLOAD + 1]) + SYNC, -2),  # an impossible length
    (frame.encode(1, b"x")[:-1] + b"\x00", -6),  # a bad CRC: up to the next sync (none)
    (frame.encode(1, b"x") + b"rest", 6),
])
def test_parser_answers(stream, answer):
    """The three answers of the pure parser, table-driven."""
    assert frame.check(stream) == answer


def test_frames_through_pyserial_loop_url():
    """Frames written to pyserial's ``loop://`` come back whole, in any read sizes, with garbage between."""
    port = serial.serial_for_url("loop://", timeout=0.05)
    frames = [frame.encode(i, proto.event(i, i % 4, i % 4)) for i in range(20)]
    for i, f in enumerate(frames):
        port.write(f)
        if i % 3 == 0:
            port.write(b"\x00\x7e\xff noise")
    r = frame.FrameReader(stale=0.01)
    got = []
    size = 1
    while True:
        chunk = port.read(size)
        if not chunk:
            break
        got += r.feed(chunk, 0)
        size = size % 17 + 1
    got += r.expire(1)
    assert [seq for seq, _ in got] == list(range(20))
    assert [proto.decode(p)[0][1] for _, p in got] == list(range(20))
    assert r.discarded == sum(len(b"\x00\x7e\xff noise") for i in range(20) if i % 3 == 0)
