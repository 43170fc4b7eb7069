"""Rows read straight off the pages of a damaged SQLite file.

SQLite's own recovery (the ``.recover`` command and the recovery extension)
needs the ``sqlite_dbpage`` virtual table, which Debian's and Raspberry Pi
OS's SQLite (3.40) are built without; there ``.recover`` only answers "SQL
logic error". So the journal salvages the way that extension does: it walks
every page of the file (and every frame of a leftover ``-wal``), takes each
b-tree leaf cell as a record in SQLite's documented file format
(https://www.sqlite.org/fileformat2.html), and keeps what has the shape of
one of the journal's rows. Interior pages, the schema and the freelist are
not needed, so a truncated file or a page of garbage costs only the rows on
the pages that are gone.

What comes back is *candidate* rows: the journal keeps an entry only if its
checksum holds, and a game only if its setup decodes.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

TABLE_LEAF = 0x0D  # rowid tables: games, meta, quarantine
INDEX_LEAF = 0x0A  # WITHOUT ROWID tables: entries
INDEX_INTERIOR = 0x02  # its cells are whole rows too: the keys that divide the leaves


@dataclass
class Found:
    """Candidate rows by table shape, in the order they were met in the file."""

    entries: list[tuple[Any, ...]] = field(default_factory=list)  # (game, seq, body bytes, crc, at)
    games: list[tuple[Any, ...]] = field(default_factory=list)  # (id, game, setup, started, finished, result)
    meta: list[tuple[Any, ...]] = field(default_factory=list)  # (key, value)
    pages: int = 0
    unreadable_pages: int = 0


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    """SQLite's big-endian varint at ``buf[i]``: (value, next index)."""
    value = 0
    for k in range(8):
        b = buf[i + k]
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, i + k + 1
    return (value << 8) | buf[i + 8], i + 9


def _record(payload: bytes) -> list[Any] | None:
    """Decode a record (header of serial types, then the values); None if it does not parse."""
    try:
        hsize, i = _varint(payload, 0)
        if hsize > len(payload) or hsize < 1:
            return None
        types = []
        while i < hsize:
            t, i = _varint(payload, i)
            types.append(t)
        pos = hsize
        out: list[Any] = []
        for t in types:
            if t == 0:
                out.append(None)
            elif 1 <= t <= 6:
                n = (1, 2, 3, 4, 6, 8)[t - 1]
                out.append(int.from_bytes(payload[pos:pos + n], "big", signed=True))
                pos += n
            elif t == 7:
                out.append(struct.unpack(">d", payload[pos:pos + 8])[0])
                pos += 8
            elif t in (8, 9):
                out.append(t - 8)
            elif t >= 12:
                n = (t - 12) // 2
                raw = payload[pos:pos + n]
                out.append(raw if t % 2 == 0 else ("text", raw))
                pos += n
            else:
                return None
            if pos > len(payload):
                return None
        return out
    except IndexError:
        return None


class _File:
    def __init__(self, pages: dict[int, bytes], page_size: int, usable: int):
        self.pages = pages
        self.page_size = page_size
        self.usable = usable

    def payload(self, page: bytes, start: int, size: int, index: bool) -> bytes | None:
        """A cell's payload at ``page[start:]``, following its overflow chain; None if a page is gone."""
        u = self.usable
        x = ((u - 12) * 64 // 255 - 23) if index else (u - 35)
        if size <= x:
            return page[start:start + size]
        m = (u - 12) * 32 // 255 - 23
        k = m + (size - m) % (u - 4)
        local = k if k <= x else m
        out = bytearray(page[start:start + local])
        nxt = int.from_bytes(page[start + local:start + local + 4], "big")
        seen = set()
        while len(out) < size:
            if nxt in seen or nxt not in self.pages:
                return None
            seen.add(nxt)
            over = self.pages[nxt]
            out += over[4:u][: size - len(out)]
            nxt = int.from_bytes(over[:4], "big")
        return bytes(out)

    def cells(self, number: int, page: bytes) -> Iterator[tuple[int, int | None, list[Any]]]:
        """Each row-holding cell of a page: (page kind, rowid or None, record values)."""
        head = 100 if number == 1 else 0
        kind = page[head]
        if kind not in (TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR):
            return
        header = 12 if kind == INDEX_INTERIOR else 8
        ncells = int.from_bytes(page[head + 3:head + 5], "big")
        for c in range(min(ncells, self.page_size // 4)):
            ptr_at = head + header + 2 * c
            ptr = int.from_bytes(page[ptr_at:ptr_at + 2], "big")
            if not head + header <= ptr < self.usable:
                continue
            try:
                i = ptr + (4 if kind == INDEX_INTERIOR else 0)  # an interior cell starts with its child
                size, i = _varint(page, i)
                rowid = None
                if kind == TABLE_LEAF:
                    rowid, i = _varint(page, i)
                if size > 1 << 24:
                    continue
                payload = self.payload(page, i, size, kind != TABLE_LEAF)
            except IndexError:
                continue
            if payload is None or len(payload) != size:
                continue
            values = _record(payload)
            if values is not None:
                yield (INDEX_LEAF if kind == INDEX_INTERIOR else kind), rowid, values


def _text(v: object) -> str | None:
    if isinstance(v, tuple) and v[0] == "text" and isinstance(v[1], bytes):
        try:
            return v[1].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _real(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def scan(data: bytes, wal: bytes = b"") -> Found:
    """Every row-shaped leaf cell in a database image (and a WAL's frames, newest last)."""
    found = Found()
    if len(data) >= 100 and data[:16] == b"SQLite format 3\x00":
        page_size = int.from_bytes(data[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        reserved = data[20]
    else:  # the header itself is gone: guess the default
        page_size, reserved = 4096, 0
    if page_size < 512 or page_size & (page_size - 1):
        page_size, reserved = 4096, 0
    pages = {n + 1: data[n * page_size:(n + 1) * page_size] for n in range(len(data) // page_size)}
    frames: list[tuple[int, bytes]] = []
    if len(wal) >= 32:
        wal_page = int.from_bytes(wal[8:12], "big")
        if wal_page == page_size:
            off = 32
            while off + 24 + page_size <= len(wal):
                number = int.from_bytes(wal[off:off + 4], "big")
                frames.append((number, wal[off + 24:off + 24 + page_size]))
                off += 24 + page_size
    for number, page in frames:  # the WAL holds newer copies of pages
        pages[number] = page
    f = _File(pages, page_size, page_size - reserved)
    for number, page in sorted(pages.items()):
        found.pages += 1
        got_any = False
        for kind, rowid, v in f.cells(number, page):
            got_any = True
            if kind == INDEX_LEAF and len(v) == 5:
                game, seq, body, crc, at = v
                raw = body[1] if isinstance(body, tuple) else body
                if (isinstance(game, int) and isinstance(seq, int) and isinstance(crc, int)
                        and isinstance(raw, bytes) and _real(at) is not None):
                    found.entries.append((game, seq, raw, crc, _real(at)))
            elif kind == TABLE_LEAF and len(v) == 6 and rowid is not None:
                game, setup = _text(v[1]), _text(v[2])
                if game is not None and setup is not None and _real(v[3]) is not None:
                    result = _text(v[5]) if v[5] is not None else None
                    found.games.append((rowid, game, setup, _real(v[3]), _real(v[4]), result))
            elif kind == TABLE_LEAF and len(v) == 2:
                key, value = _text(v[0]), _text(v[1])
                if key is not None and value is not None:
                    found.meta.append((key, value))
        if not got_any and page[:1] not in (b"\x05", b"\x00"):
            found.unreadable_pages += 1
    return found
