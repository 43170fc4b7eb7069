"""The one reader of the journal's rows: what a stored game or action says, once its checksum is checked.

Read-only: every query here is a ``SELECT`` (or ``PRAGMA data_version``) on a connection it is given,
so the owner's :class:`~tablekeeper.engine.journal.Journal` and a reader in another process or thread
(the club's publisher, on its own read-only connection) see the same rows the same way:

* an action whose checksum holds, or holds once one flipped bit (in its body or in its checksum) is
  put back, is sound; the first one that is not stops its game's list, with what is wrong;
* a game whose checksum holds is sound; one whose checksum fails comes back from its copy in
  ``meta`` or by putting one flipped bit back; else nothing vouches for it and it is lost.

What to do about damage (write a mended row back, move the rest of a game to the quarantine, warn)
is the writer's: this module only says what it found.
"""
from __future__ import annotations

import functools
import json
import os
import sqlite3
import struct
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .journal_schema import BUSY_WAIT, GAME_COPY, game_crc
from .messages import _

#: A row as SQLite returns it (the columns of the query).
Row = tuple[Any, ...]


# -- connections -----------------------------------------------------------------------------------
def connect(target: str | os.PathLike[str], *, uri: bool = False) -> sqlite3.Connection:
    """A connection to a journal (or to a copy of one): autocommit, usable from any thread, waiting up
    to :data:`BUSY_WAIT` seconds for a writer, and never a decode crash on a read (text that is not
    UTF-8 comes back with replacement characters, and fails its checksum)."""
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=BUSY_WAIT, uri=uri)
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    return conn


def open_readonly(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A read-only connection to the journal at ``path`` (``mode=ro``: it never writes a byte, and reads
    what the writer has committed), for a reader beside the owner."""
    return connect(f"file:{os.fspath(path)}?mode=ro", uri=True)


# -- what a stored value says --------------------------------------------------------------------
def as_bytes(v: object) -> bytes | None:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogatepass")
    return None


def setup_of(raw: bytes | None) -> str | None:
    """The setup's text if it decodes as a setup, else None."""
    try:
        text = raw.decode("utf-8") if raw is not None else None
        obj = json.loads(text) if text is not None else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return text if isinstance(obj, dict) and isinstance(obj.get("game"), str) and \
        isinstance(obj.get("players"), list) else None


def result_of(raw: object) -> dict[str, Any] | None:
    """A stored result, or None when there is none or it does not decode."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        obj = json.loads(text) if isinstance(text, str) else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def one_bit_off(raw: bytes, ok: Callable[[bytes], bool]) -> bytes | None:
    """``raw`` with the one flipped bit that makes ``ok`` hold put back, or None (CRC-32 tells any single
    flipped bit from another, so at most one candidate can pass)."""
    buf = bytearray(raw)
    for i in range(len(buf)):
        for b in range(8):
            buf[i] ^= 1 << b
            if ok(bytes(buf)):
                return bytes(buf)
            buf[i] ^= 1 << b
    return None


def mend(raw: object, crc: object) -> bytes | None:
    """A stored body whose checksum holds, or holds once one flipped bit (in the body or in the
    checksum) is put back: the sound body; None if it cannot be mended."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if not isinstance(raw, bytes) or not isinstance(crc, int) or isinstance(crc, bool):
        return None
    got = zlib.crc32(raw)
    if got == crc:
        return raw
    if crc >= 0 and (got ^ crc).bit_count() == 1:  # the flipped bit is in the checksum
        return raw
    if len(raw) > 1 << 16:
        return None
    return one_bit_off(raw, lambda b: zlib.crc32(b) == crc)


def decode_row(raw: object, crc: object) -> tuple[dict[str, Any] | None, str | None]:
    """(entry, None) for a sound stored body, else (None, what is wrong)."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if not isinstance(raw, bytes) or zlib.crc32(raw) != crc:
        return None, _("its checksum does not match")
    try:
        entry = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None, _("its text is not valid UTF-8")
    except (json.JSONDecodeError, RecursionError) as e:
        return None, _("it does not decode ({why})", why=getattr(e, "msg", "too deep"))
    if not isinstance(entry, dict):
        return None, _("it is not an action")
    return entry, None


def read_action(raw: object, crc: object) -> tuple[dict[str, Any] | None, str | None, bytes | None]:
    """(entry, None, mended) for an action that holds, where ``mended`` is its sound body when one
    flipped bit was put back (None when it held as stored); (None, what is wrong, None) else."""
    entry, problem = decode_row(raw, crc)
    if problem is None:
        return entry, None, None
    sound = mend(raw, crc)
    if sound is None:
        return None, problem, None
    entry, problem = decode_row(sound, zlib.crc32(sound))
    return (entry, None, sound) if problem is None else (None, problem, None)


def sound_body(raw: object, crc: object) -> bytes | None:
    """The body of a stored action that holds (one flipped bit put back) and decodes, else None."""
    sound = mend(raw, crc)
    return sound if sound is not None and decode_row(sound, zlib.crc32(sound))[1] is None else None


def _crc_is(crc: int, gid: int, game: str, setup: bytes, *, started: float) -> bool:
    return game_crc(gid, game, setup, started) == crc


def _name_crc_is(crc: int, gid: int, setup: bytes, started: float, name: bytes) -> bool:
    return game_crc(gid, name.decode("utf-8", "replace"), setup, started) == crc


def choose_game(gid: int, rows: list[Row], copy: str | None) -> Row | None:
    """The sound (id, game, setup, started, finished, result) of a game from its stored versions
    (id, game, setup, started, finished, result, crc).

    In order: a version whose checksum holds; the copy in ``meta`` (its checksum must hold; the
    result comes from the row); a version put right by one flipped bit; a version from before
    checksums whose setup decodes. None: nothing vouches for any of them.
    """
    tail = (rows[0][4], rows[0][5]) if rows else (None, None)
    for r in rows:
        game, setup, started, crc = r[1], as_bytes(r[2]), r[3], r[6]
        if isinstance(game, str) and setup is not None and isinstance(started, float) and isinstance(crc, int) \
                and game_crc(gid, game, setup, started) == crc and setup_of(setup) is not None:
            return (gid, game, setup.decode("utf-8"), started, r[4], r[5])
    if copy is not None:
        try:
            c = json.loads(copy)
            if game_crc(gid, c["game"], c["setup"], c["started"]) == c["crc"] and setup_of(
                    c["setup"].encode("utf-8")) is not None:
                return (gid, c["game"], c["setup"], c["started"]) + tail
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            pass
    for r in rows:
        game, setup, started, crc = r[1], as_bytes(r[2]), r[3], r[6]
        if not (isinstance(game, str) and setup is not None and isinstance(started, float) and isinstance(crc, int)):
            continue
        fixed = one_bit_off(setup, functools.partial(_crc_is, crc, gid, game, started=started))
        if fixed is not None and setup_of(fixed) is not None:
            return (gid, game, fixed.decode("utf-8"), started, r[4], r[5])
        bits = struct.unpack(">Q", struct.pack(">d", started))[0]
        for b in range(64):
            when = struct.unpack(">d", struct.pack(">Q", bits ^ (1 << b)))[0]
            if game_crc(gid, game, setup, when) == crc and setup_of(setup) is not None:
                return (gid, game, setup.decode("utf-8"), when, r[4], r[5])
        fixed_name = one_bit_off(game.encode("utf-8", "surrogatepass"),
                                 functools.partial(_name_crc_is, crc, gid, setup, started))
        if fixed_name is not None and setup_of(setup) is not None:
            return (gid, fixed_name.decode("utf-8", "replace"), setup.decode("utf-8"), started, r[4], r[5])
    for r in rows:
        text = setup_of(as_bytes(r[2]))
        if r[6] is None and isinstance(r[1], str) and text is not None and isinstance(r[3], float):
            return (gid, r[1], text, r[3], r[4], r[5])
    return None


# -- what the reader hands back ------------------------------------------------------------------
@dataclass
class GameRecord:
    id: int
    game: str
    setup: dict[str, Any]  # {"game": ..., "players": [...], "options": {...}}
    started: float
    finished: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class GameRead:
    """A game's row as read. ``record``: the game, None when nothing vouches for its row (or its setup
    does not decode). ``mended``: the sound (id, game, setup, started, finished, result) when the stored
    row's checksum failed and it was put right (from its copy or one flipped bit), to write back.
    ``result_damaged``: a result is stored and does not decode."""

    id: int
    record: GameRecord | None
    mended: Row | None = None
    result_damaged: bool = False


@dataclass
class ActionsRead:
    """A game's actions as read from a number on: ``sound`` (seq, entry, at) in order up to the first
    that does not hold; ``mended`` (seq, sound body) of those put right by one flipped bit; ``stop``
    (the stored seq, what is wrong) of the row where the list stops, None when it ran to the end;
    ``gap``: the stored numbers do not run on one by one."""

    sound: list[tuple[int, dict[str, Any], Any]] = field(default_factory=list)
    mended: list[tuple[int, bytes]] = field(default_factory=list)
    stop: tuple[int, str] | None = None
    gap: bool = False

    @property
    def entries(self) -> list[dict[str, Any]]:
        return [entry for _seq, entry, _at in self.sound]


_GAME_COLUMNS = "SELECT id, game, CAST(setup AS BLOB), started, finished, CAST(result AS BLOB), crc FROM games"


class JournalRows:
    """The journal's rows on ``conn``, read only. SQLite's errors go to the caller as they are (the
    journal words them; a reader in another thread tries again)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        return self.conn.execute(sql, params).fetchall()

    def data_version(self) -> int:
        """Changes when another connection commits (``PRAGMA data_version``)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # -- meta ------------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        rows = self._all("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def repairs(self) -> list[tuple[str, str]]:
        """(when, what) of every repair kept in ``meta``."""
        rows = self._all("SELECT key, value FROM meta WHERE key LIKE 'repair:%' ORDER BY key")
        return [(k.split(":", 1)[1].rsplit(":", 1)[0], v) for k, v in rows]

    # -- games -----------------------------------------------------------------------------------
    def games(self, after: int = 0) -> list[GameRead]:
        """Every game whose id is above ``after``, in order."""
        return [self._game(row) for row in self._all(f"{_GAME_COLUMNS} WHERE id>? ORDER BY id", (after,))]

    def game(self, game_id: int) -> GameRead | None:
        rows = self._all(f"{_GAME_COLUMNS} WHERE id=?", (game_id,))
        return self._game(rows[0]) if rows else None

    def newest_game(self) -> GameRead | None:
        rows = self._all(f"{_GAME_COLUMNS} ORDER BY id DESC LIMIT 1")
        return self._game(rows[0]) if rows else None

    def _game(self, row: Row) -> GameRead:
        gid, game, setup, started, finished, result, crc = row
        mended = None
        if crc is None or not isinstance(started, float) or game_crc(gid, game, setup, started) != crc:
            mended = choose_game(gid, [tuple(row)], self.meta(GAME_COPY.format(gid=gid)))
            if mended is None:
                return GameRead(gid, None)
            game, setup, started = mended[1], mended[2].encode("utf-8"), mended[3]
            if crc is None:
                mended = None  # from before checksums: nothing to put right
        try:
            setup_obj = json.loads(setup.decode("utf-8"))
            if not isinstance(setup_obj, dict) or not isinstance(setup_obj.get("players"), list):
                raise ValueError("not a setup")
            result_obj = result_of(result)
        except (ValueError, RecursionError, AttributeError):
            return GameRead(gid, None, mended)
        return GameRead(gid, GameRecord(gid, game, setup_obj, started, finished, result_obj), mended,
                        bool(result) and result_obj is None)

    def finished_of(self, game_ids: Iterable[int]) -> list[tuple[int, float | None]]:
        """(id, when it finished, None: not finished) of each of these games still listed."""
        ids = tuple(game_ids)
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [(gid, float(finished) if finished is not None else None)
                for gid, finished in self._all(f"SELECT id, finished FROM games WHERE id IN ({marks})", ids)]

    def first_game(self) -> int:
        """The first game's id (1 when there is none yet)."""
        rows = self._all("SELECT coalesce(min(id), 1) FROM games")
        return int(rows[0][0]) if rows else 1

    def last_finished_id(self) -> int | None:
        """The newest finished game's id (None when no game has finished)."""
        rows = self._all("SELECT max(id) FROM games WHERE finished IS NOT NULL")
        return rows[0][0] if rows else None

    # -- actions ---------------------------------------------------------------------------------
    def next_seq(self, game_id: int) -> int:
        """The number the game's next action takes (its stored actions' count when none is missing)."""
        return int(self._all("SELECT coalesce(max(seq) + 1, 0) FROM entries WHERE game=?", (game_id,))[0][0])

    def has_entries_table(self) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE name='entries'").fetchone() is not None

    def has_action(self, game_id: int, seq: int) -> bool:
        return self.conn.execute("SELECT 1 FROM entries WHERE game=? AND seq=?", (game_id, seq)).fetchone() is not None

    def games_with_actions(self) -> list[int]:
        return [int(r[0]) for r in self._all("SELECT DISTINCT game FROM entries ORDER BY game")]

    def actions(self, game_id: int, since: int = 0, limit: int = -1) -> ActionsRead:
        """The game's actions from number ``since`` (at most ``limit`` rows read; -1: all)."""
        rows = self._all("SELECT seq, CAST(body AS BLOB), crc, at FROM entries WHERE game=? AND seq>=? "
                         "ORDER BY seq LIMIT ?", (game_id, since, limit))
        out = ActionsRead(gap=any(row[0] != since + k for k, row in enumerate(rows)))
        for seq, raw, crc, at in rows:
            expected = since + len(out.sound)
            if seq != expected:
                out.stop = (seq, _("entry {seq} is missing", seq=expected))
                break
            entry, problem, sound = read_action(raw, crc)
            if problem is not None or entry is None:
                out.stop = (seq, problem or "")
                break
            if sound is not None:
                out.mended.append((seq, sound))
            out.sound.append((seq, entry, at))
        return out

    def quarantined(self) -> list[dict[str, Any]]:
        """Rows set aside by a cut or a salvage: game, seq, reason, and the action if it still decodes."""
        out = []
        for game, seq, raw, crc, reason in self._all(
                "SELECT game, seq, body, crc, reason FROM quarantine ORDER BY game, id"):
            entry, problem = decode_row(raw, crc)
            out.append({"game": game, "seq": seq, "reason": reason, "entry": entry, "damage": problem})
        return out

    # -- a copy's damage -------------------------------------------------------------------------
    def damage(self) -> str | None:
        """What is damaged (SQLite's check, then each row's checksum), or None."""
        try:
            rows = [str(r[0]) for r in self.conn.execute("PRAGMA integrity_check")]
            if rows != ["ok"]:
                return "integrity check failed: " + "; ".join(rows[:3])
            for gid, game, setup, started, crc in self.conn.execute(
                    "SELECT id, game, CAST(setup AS BLOB), started, crc FROM games"):
                if crc is not None and crc != game_crc(gid, game, setup, started):
                    return f"game {gid}: its checksum does not match"
            for gid, seq, raw, crc in self.conn.execute("SELECT game, seq, CAST(body AS BLOB), crc FROM entries"):
                problem = decode_row(raw, crc)[1]
                if problem is not None:
                    return f"entry {seq} of game {gid}: {problem}"
        except sqlite3.DatabaseError as e:
            return str(e) or type(e).__name__
        return None
