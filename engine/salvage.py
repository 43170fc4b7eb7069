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
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

TABLE_LEAF = 0x0D  # rowid tables: games, meta, quarantine
INDEX_LEAF = 0x0A  # WITHOUT ROWID tables: entries
INDEX_INTERIOR = 0x02  # its cells are whole rows too: the keys that divide the leaves
TABLE_INTERIOR = 0x05  # rowid tables: only child pointers and rowids, no rows


@dataclass
class Found:
    """Candidate rows by table shape, in the order they were met in the file."""

    entries: list[tuple[Any, ...]] = field(default_factory=list)  # (game, seq, body bytes, crc, at)
    games: list[tuple[Any, ...]] = field(default_factory=list)  # (id, game, setup, started, finished, result, crc)
    quarantine: list[tuple[Any, ...]] = field(default_factory=list)  # (game, seq, body, crc, at, reason)
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
    except (IndexError, struct.error, ValueError):  # a record cut short or a length that cannot be
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

    def cell(self, page: bytes, ptr: int, kind: int) -> tuple[int | None, list[Any]] | None:
        """The cell at ``ptr``: (rowid or None, record values), or None if it does not parse."""
        try:
            i = ptr + (4 if kind == INDEX_INTERIOR else 0)  # an interior cell starts with its child
            size, i = _varint(page, i)
            rowid = None
            if kind == TABLE_LEAF:
                rowid, i = _varint(page, i)
            if size > 1 << 24:
                return None
            payload = self.payload(page, i, size, kind != TABLE_LEAF)
        except IndexError:
            return None
        if payload is None or len(payload) != size:
            return None
        values = _record(payload)
        return None if values is None else (rowid, values)

    def _cell_len(self, page: bytes, ptr: int, kind: int) -> int | None:
        """How many bytes the cell at ``ptr`` takes on its page (None if it does not read)."""
        try:
            i = ptr + (4 if kind == INDEX_INTERIOR else 0)
            size, i = _varint(page, i)
            if kind == TABLE_LEAF:
                _rowid, i = _varint(page, i)
        except IndexError:
            return None
        u = self.usable
        x = ((u - 12) * 64 // 255 - 23) if kind != TABLE_LEAF else (u - 35)
        if size <= x:
            local = size
        else:
            m = (u - 12) * 32 // 255 - 23
            k = m + (size - m) % (u - 4)
            local = (k if k <= x else m) + 4
        length = i - ptr + local
        return length if 0 < length <= u else None

    def _mend_cell(self, page: bytes, ptr: int, starts: list[int], kind: int,
                   shaped: Callable[[int, int | None, list[Any]], bool]) -> tuple[int, int | None, list[Any]] | None:
        """The cell at ``ptr`` read again with each bit of it flipped in turn: the first reading that
        is a row whose checksum holds (CRC-32 tells a single flipped bit from any other)."""
        if ptr < 0:
            return None
        end = min([s for s in starts if s > ptr] + [self.usable, ptr + 1024])
        row_kind = INDEX_LEAF if kind == INDEX_INTERIOR else kind
        buf = bytearray(page)
        for i in range(ptr, end):
            for b in range(8):
                buf[i] ^= 1 << b
                got = self.cell(bytes(buf), ptr, kind)
                buf[i] ^= 1 << b
                if got is not None and shaped(row_kind, got[0], got[1]) and sound((row_kind, got[0], got[1])):
                    return row_kind, got[0], got[1]
        return None

    def cells(self, number: int, page: bytes, shaped: Callable[[int, int | None, list[Any]], bool]
              ) -> tuple[list[tuple[int, int | None, list[Any]]], list[tuple[int, int | None, list[Any]]]]:
        """The row-holding cells of a page: (those the page counts, in key order; the rest found).

        A cell is a (page kind, rowid or None, record values) that ``shaped``
        accepts. The cell-pointer array is also read past the cell count, up to
        where the cell content starts (a damaged count hides no cell), and a
        pointer that leads to nothing is tried with each of its bits flipped:
        those finds come second, as a stale or guessed cell must not win over
        a counted one.
        """
        head = 100 if number == 1 else 0
        if len(page) < head + 12:
            return [], []
        kind = page[head]
        as_is = self._cells_of(page, head, kind, shaped) if kind in (TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR) \
            else ([], [])
        if kind in (TABLE_LEAF, INDEX_LEAF) and as_is[0] and all(sound(c) for c in as_is[0]):
            return as_is
        # the page's kind with a flipped bit (a leaf read as an interior page, or no kind at all): read it
        # as each kind one bit away; the reading with the most rows that hold wins, a guess only when it
        # has more than the page as it says it is (and then second rank)
        best, most = as_is, sum(sound(c) for c in as_is[0] + as_is[1])
        for guess in (TABLE_LEAF, INDEX_LEAF, INDEX_INTERIOR):
            if (kind ^ guess).bit_count() == 1:
                try:
                    counted, extra = self._cells_of(page, head, guess, shaped)
                except (IndexError, struct.error, ValueError, RecursionError):
                    continue
                held = sum(sound(c) for c in counted + extra)
                if held > most and all(sound(c) for c in counted):
                    best, most = ([], counted + extra), held
        return best

    def _cells_of(self, page: bytes, head: int, kind: int, shaped: Callable[[int, int | None, list[Any]], bool]
                  ) -> tuple[list[tuple[int, int | None, list[Any]]], list[tuple[int, int | None, list[Any]]]]:
        """:meth:`cells` of a page read as of ``kind``."""
        row_kind = INDEX_LEAF if kind == INDEX_INTERIOR else kind
        header = 12 if kind == INDEX_INTERIOR else 8
        first = head + header
        ncells = min(int.from_bytes(page[head + 3:head + 5], "big"), (self.usable - first) // 2)
        content = int.from_bytes(page[head + 5:head + 7], "big") or 65536
        slots = min(max(ncells, (min(content, self.usable) - first) // 2), (self.usable - first) // 2)

        def at(ptr: int) -> tuple[int, int | None, list[Any]] | None:
            if not first + 2 <= ptr < self.usable:
                return None
            got = self.cell(page, ptr, kind)
            if got is None or not shaped(row_kind, got[0], got[1]):
                return None
            return row_kind, got[0], got[1]

        pointers = [int.from_bytes(page[first + 2 * c:first + 2 * c + 2], "big") for c in range(slots)]
        counted: list[tuple[int, int | None, list[Any]]] = []
        extra: list[tuple[int, int | None, list[Any]]] = []
        used: set[int] = set()
        failed: list[int] = []
        twice = False  # two counted pointers to one cell: one of them has a flipped bit
        for c, ptr in enumerate(pointers):
            if ptr in used and c >= ncells:
                continue
            got = at(ptr)
            if got is None:
                if c < ncells:
                    failed.append(ptr)
                continue
            twice = twice or ptr in used
            used.add(ptr)
            (counted if c < ncells else extra).append(got)
        for ptr in failed:  # a counted pointer with a flipped bit
            for b in range(16):
                t = ptr ^ (1 << b)
                if t in used:
                    continue
                got = at(t)
                if got is not None and sound(got):
                    used.add(t)
                    extra.append(got)
                    break
            else:
                if len(failed) <= 2 and first + 2 <= ptr < self.usable:  # a cell with a flipped bit
                    got = self._mend_cell(page, ptr, sorted(used | {self.usable}), kind, shaped)
                    if got is not None:
                        used.add(ptr)
                        extra.append(got)
        if failed or twice:  # a pointer lost: walk the cell content, packed from its start, for cells no pointer names
            pos = min(content, self.usable)
            while first + 2 <= pos < self.usable:
                length = self._cell_len(page, pos, kind)
                if length is None:
                    break
                if pos not in used:
                    got = at(pos)
                    if got is not None and sound(got):
                        used.add(pos)
                        extra.append(got)
                pos += length
        for c, got in enumerate(counted):  # shaped, but the action's checksum fails: a flipped bit
            if len(failed) <= 2 and not sound(got):
                ptr = pointers[c] if c < len(pointers) else -1
                mended = self._mend_cell(page, ptr, sorted(used | {self.usable}), kind, shaped)
                if mended is not None:
                    counted[c] = mended
        return counted, extra


def sound(cell: tuple[int, int | None, list[Any]]) -> bool:
    """Whether a cell is a row its own checksum vouches for (an action's body and its CRC-32);
    rows without a checksum of their own are taken as they read."""
    kind, _rowid, v = cell
    if kind == INDEX_LEAF and len(v) == 5 and isinstance(v[3], int):
        raw = v[2][1] if isinstance(v[2], tuple) else v[2]
        return isinstance(raw, bytes) and zlib.crc32(raw) == v[3]
    return True


def _text(v: object) -> str | None:
    if isinstance(v, tuple) and v[0] == "text" and isinstance(v[1], bytes):
        try:
            return v[1].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _real(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _shape(kind: int, rowid: int | None, v: list[Any]) -> str | None:
    """Which of the journal's tables a cell's values could be a row of (None: none)."""
    if kind == INDEX_LEAF and len(v) == 5:
        game, seq, body, crc, at = v
        raw = body[1] if isinstance(body, tuple) else body
        if (isinstance(game, int) and isinstance(seq, int) and isinstance(crc, int)
                and isinstance(raw, bytes) and _real(at) is not None):
            return "entries"
    elif kind == TABLE_LEAF and rowid is not None and len(v) in (6, 7) and _text(v[1]) is not None:
        if isinstance(v[2], tuple) and _real(v[3]) is not None:  # the setup's bytes, even if not UTF-8
            return "games"
    elif kind == TABLE_LEAF and rowid is not None and len(v) == 7 and isinstance(v[1], int):
        if isinstance(v[2], int) and _text(v[6]) is not None:
            return "quarantine"
    elif kind == TABLE_LEAF and len(v) == 2 and _text(v[0]) is not None and _text(v[1]) is not None:
        return "meta"
    return None


def geometry(data: bytes) -> tuple[int, int]:
    """(page size, reserved bytes per page) from a database header, else SQLite's defaults."""
    if len(data) >= 100 and data[:16] == b"SQLite format 3\x00":
        page_size = int.from_bytes(data[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        reserved = data[20]
        if page_size >= 512 and not page_size & (page_size - 1) and reserved < 64:
            return page_size, reserved
    return 4096, 0


# -- the write-ahead log (https://www.sqlite.org/fileformat2.html#walformat) ----------------------
WAL_MAGIC = (0x377F0682, 0x377F0683)  # little- or big-endian checksums


@dataclass
class Wal:
    """A ``-wal`` file read as frames: each (offset, page number, commit size, salt matches)."""

    page_size: int
    big_endian: bool
    header_ok: bool
    salt: bytes
    checksum: tuple[int, int]
    frames: list[tuple[int, int, int, bool]] = field(default_factory=list)


def wal_checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    m = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & m
        s1 = (s1 + words[i + 1] + s0) & m
    return s0, s1


def read_wal(wal: bytes, page_size: int) -> Wal | None:
    """The frames of a ``-wal`` image, or None when it holds none for pages of ``page_size``.

    The salt that frames must carry is the header's when the header's own
    checksum holds, else the first frame's (a damaged header must not hide
    the frames after it).
    """
    if len(wal) < 32 + 24 + page_size:
        return None
    magic = int.from_bytes(wal[:4], "big")
    big = magic != WAL_MAGIC[0]
    header_ok = magic in WAL_MAGIC and int.from_bytes(wal[8:12], "big") == page_size and \
        wal_checksum(wal[:24], 0, 0, big) == (int.from_bytes(wal[24:28], "big"), int.from_bytes(wal[28:32], "big"))
    salt = wal[16:24] if header_ok else wal[32 + 8:32 + 16]
    out = Wal(page_size, big, header_ok, salt,
              (int.from_bytes(wal[24:28], "big"), int.from_bytes(wal[28:32], "big")))
    off = 32
    while off + 24 + page_size <= len(wal):
        number = int.from_bytes(wal[off:off + 4], "big")
        commit = int.from_bytes(wal[off + 4:off + 8], "big")
        out.frames.append((off, number, commit, wal[off + 8:off + 16] == salt))
        off += 24 + page_size
    return out


def wal_frame_holds(wal: bytes, info: Wal, index: int) -> bool:
    """Whether frame ``index`` (0-based) is intact, checked from the checksum its predecessor stores."""
    off = info.frames[index][0]
    if index == 0:
        prev = info.checksum
    else:
        p = info.frames[index - 1][0]
        prev = (int.from_bytes(wal[p + 16:p + 20], "big"), int.from_bytes(wal[p + 20:p + 24], "big"))
    got = wal_checksum(wal[off:off + 8] + wal[off + 24:off + 24 + info.page_size], prev[0], prev[1],
                       info.big_endian)
    return got == (int.from_bytes(wal[off + 16:off + 20], "big"), int.from_bytes(wal[off + 20:off + 24], "big"))


def wal_pages(wal: bytes, info: Wal, start: int = 0) -> list[tuple[int, bytes]]:
    """(page number, page image) of the frames from ``start`` on that carry the salt, oldest first."""
    return [(number, wal[off + 24:off + 24 + info.page_size])
            for off, number, _commit, salted in info.frames[start:] if salted]


def scan(data: bytes, wal: bytes = b"", *, wal_from: int = 0) -> Found:
    """Every row-shaped cell in a database image and in each frame of its WAL.

    Every version of a page is read (the file's, then each frame's, newest
    first), as a damaged newest copy must not hide the rows of an older one;
    the rows come newest version first, those a page counts before those
    found past its count, so a consumer keeping the first of each key keeps
    the newest sound copy. A page cut short (a truncated file) gives the
    cells it still holds.
    """
    found = Found()
    page_size, reserved = geometry(data)
    pages = {n + 1: data[n * page_size:(n + 1) * page_size] for n in range((len(data) + page_size - 1) // page_size)}
    for n, page in pages.items():
        if len(page) < page_size:  # the last page, cut: what remains of it, zeros after
            pages[n] = page + bytes(page_size - len(page))
    versions: list[tuple[int, bytes]] = []
    info = read_wal(wal, page_size) if wal else None
    if info is not None:
        versions = wal_pages(wal, info, wal_from)[::-1]
        for number, page in wal_pages(wal, info, wal_from):
            pages[number] = page  # overflow chains follow the newest copy
    versions += sorted(pages.items())
    f = _File(pages, page_size, page_size - reserved)
    second: list[tuple[str, int | None, list[Any]]] = []

    def shaped(kind: int, rowid: int | None, v: list[Any]) -> bool:
        return _shape(kind, rowid, v) is not None

    for number, page in versions:
        found.pages += 1
        try:
            counted, extra = f.cells(number, page, shaped)
        except (IndexError, struct.error, ValueError, RecursionError):
            counted, extra = [], []
        if not counted and not extra and page[:1] not in (b"\x05", b"\x00"):
            found.unreadable_pages += 1
        if page[(100 if number == 1 else 0)] == INDEX_LEAF:
            _mend_keys(counted)
        for kind, rowid, v in counted:
            _keep(found, _shape(kind, rowid, v), rowid, v)
        second += [(_shape(kind, rowid, v) or "", rowid, v) for kind, rowid, v in extra]
    for table, rowid, v in second:
        _keep(found, table, rowid, v)
    return found


def _mend_keys(cells: list[tuple[int, int | None, list[Any]]]) -> None:
    """Put back a flipped bit in an action's key (game, seq) from where its cell sits.

    A leaf holds the journal's actions in key order, and a game's actions are numbered without a
    gap, so a cell whose key does not follow its neighbours' while the key that would (one bit
    away in the game or in the number) is missing had that bit flipped. The body's checksum does
    not cover the key; its place does.
    """
    keys = [(v[0], v[1]) if _shape(k, r, v) == "entries" else None for k, r, v in cells]

    def one_bit(stored: int, want: int) -> bool:
        """One flipped bit apart as stored: in the record's two's-complement integer of 1–8 bytes (so a
        flipped top bit reads negative)."""
        for bits in (8, 16, 24, 32, 48, 64):
            lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
            if lo <= stored < hi and 0 <= want < hi:
                return stored != want and ((stored ^ want) & ((1 << bits) - 1)).bit_count() == 1
        return False

    for i, key in enumerate(keys):
        if key is None:
            continue
        prev = keys[i - 1] if i > 0 else None
        nxt = keys[i + 1] if i + 1 < len(keys) else None
        if (prev is None or prev < key) and (nxt is None or key < nxt):
            continue  # in order where it sits: nothing says its key is wrong
        want = None
        if prev is not None and nxt is not None and prev[0] == nxt[0] and nxt[1] == prev[1] + 2:
            want = (prev[0], prev[1] + 1)
        elif prev is not None and (nxt is None or nxt == (prev[0], prev[1] + 2) or nxt[0] != prev[0]):
            want = (prev[0], prev[1] + 1)
        elif prev is None and nxt is not None and nxt[1] > 0:
            want = (nxt[0], nxt[1] - 1)
        if want is None or key == want or want in keys:
            continue
        between = prev is not None and nxt is not None and prev[0] == nxt[0] and nxt[1] == prev[1] + 2
        if keys.count(key) > 1:
            between = False  # a second pointer to another cell (a flipped pointer), not a flipped key
        if between or (key[0] == want[0] and one_bit(key[1], want[1])) or (key[1] == want[1] and one_bit(key[0], want[0])):
            kind, rowid, v = cells[i]
            cells[i] = (kind, rowid, [want[0], want[1]] + v[2:])
            keys[i] = want


def _keep(found: Found, table: str | None, rowid: int | None, v: list[Any]) -> None:
    if table == "entries":
        game, seq, body, crc, at = v
        raw = body[1] if isinstance(body, tuple) else body
        found.entries.append((game, seq, raw, crc, _real(at)))
    elif table == "games":
        result = _text(v[5]) if v[5] is not None else None
        crc = v[6] if len(v) == 7 and isinstance(v[6], int) else None
        found.games.append((rowid, _text(v[1]), v[2][1], _real(v[3]), _real(v[4]), result, crc))
    elif table == "quarantine":
        body = v[3][1] if isinstance(v[3], tuple) else v[3]
        found.quarantine.append((v[1], v[2], body, v[4] if isinstance(v[4], int) else None, _real(v[5]),
                                 _text(v[6])))
    elif table == "meta":
        found.meta.append((_text(v[0]), _text(v[1])))
