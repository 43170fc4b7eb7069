"""The durable journal: every action of every game, in SQLite.

One database file holds several games. Each action is one row, written in its
own transaction and acknowledged only once the commit has returned.

Durability does not lean on a side file: the journal runs in rollback mode
(``journal_mode=PERSIST``, ``synchronous=FULL``). A commit first saves the
pages it will change in ``journal.db-journal`` (fsynced), writes them into
the database file itself (fsynced), then zeroes the side file's header
(fsynced): once :meth:`Journal.append` returns, the action lives in
``journal.db`` alone, and a lost, damaged or deleted ``-journal`` (or, from
older versions, ``-wal``) file cannot take an acknowledged action with it.
PERSIST keeps the side file between commits, so a commit renames, creates
and deletes nothing (no folder update on the SD card); tests/e2e/crashsim.py
rebuilds every power-cut state of this sequence. docs/reliability.md weighs
it against WAL, which is 2-3x faster but keeps acknowledged actions in the
``-wal`` until a checkpoint.

Opening decides what happened, and only damage is treated as damage:

* damaged (SQLite says corrupt / not a database, ``quick_check`` fails): every
  row whose checksum holds is salvaged into a fresh file — by SQLite where it
  can still read, and page by page where it cannot (:mod:`.salvage`) — the
  original is kept aside (``journal.db.damaged-<time>``), and a warning says so;
* not writable (read-only folder or file): the journal opens read-only;
  reading works, a write says which folder and why;
* full disk, I/O error, busy: a clear :class:`JournalError` and nothing
  renamed, nothing lost.

A row whose checksum or text does not hold is where its game stops: the rest
of that game is moved to the ``quarantine`` table (kept, never deleted), a
copy of the whole file is kept aside, and a warning says which and how many.

One writer at a time, by design: writers serialise on SQLite's lock (waiting
up to :data:`BUSY_WAIT` seconds) and :meth:`Journal.append` checks, inside its
transaction, that the action's number is the next one; if another process
wrote first, :class:`StaleJournal` tells the session to catch up and try
again instead of failing on a duplicate key.

Every warning is a sentence kept in :attr:`Journal.warnings`;
:meth:`Journal.take_warnings` hands out each one once.
"""
from __future__ import annotations

import errno
import functools
import json
import os
import sqlite3
import struct
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

from . import salvage
from .errors import JournalBusy, JournalError, JournalFull, JournalReadOnly
from .messages import _

_T = TypeVar("_T")
#: A row as SQLite returns it (the columns of the query).
Row = tuple[Any, ...]

#: 2: games carry a checksum (``crc``) of what never changes, with a copy in ``meta``; the journal is in WAL mode.
SCHEMA_VERSION = 2
FILENAME = "journal.db"
#: Seconds a writer waits for another process's transaction before giving up.
BUSY_WAIT = 10.0
#: Below this much free space an I/O error on write is taken for a full disk.
_NEARLY_FULL = 1 << 20
_SIDE_FILES = ("-journal", "-wal", "-shm")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    crc INTEGER
);
CREATE TABLE IF NOT EXISTS entries (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    body BLOB,
    crc INTEGER,
    at REAL,
    reason TEXT NOT NULL
);
"""


_V1_GAMES = ("CREATE TABLE games (\n    id INTEGER PRIMARY KEY,\n    game TEXT NOT NULL,\n    setup TEXT NOT NULL,\n"
             "    started REAL NOT NULL,\n    finished REAL,\n    result TEXT\n)")
#: Every table's SQL as SQLite keeps it, in each version this journal has had (a flipped bit in the
#: schema's text is damage, not a new column); ``quarantine`` came after version 1's first files.
_KNOWN_SQL: dict[str, set[str | None]] = {
    "meta": {"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"},
    "sqlite_autoindex_meta_1": {None},
    "games": {_V1_GAMES, _V1_GAMES[:-2] + ",\n    crc INTEGER\n)", _V1_GAMES[:-2] + "\n, crc INTEGER)"},
    "entries": {"CREATE TABLE entries (\n    game INTEGER NOT NULL REFERENCES games(id),\n    seq INTEGER NOT NULL,\n"
                "    body TEXT NOT NULL,\n    crc INTEGER NOT NULL,\n    at REAL NOT NULL,\n"
                "    PRIMARY KEY (game, seq)\n) WITHOUT ROWID"},
    "quarantine": {"CREATE TABLE quarantine (\n    id INTEGER PRIMARY KEY,\n    game INTEGER NOT NULL,\n"
                   "    seq INTEGER NOT NULL,\n    body BLOB,\n    crc INTEGER,\n    at REAL,\n"
                   "    reason TEXT NOT NULL\n)"},
}
#: The ``meta`` key of a game's copy (its setup, name, start and checksum): one flipped bit in the
#: game's row then loses nothing.
GAME_COPY = "game:{gid}"


def game_crc(gid: int, game: str, setup: str | bytes, started: float) -> int:
    """The checksum of what never changes in a game's row (its id included: a flipped id shows)."""
    raw = setup if isinstance(setup, bytes) else setup.encode("utf-8", "surrogatepass")
    return zlib.crc32(f"{gid}\n{game}\n{started!r}\n".encode("utf-8", "surrogatepass") + raw)


#: Pages in the -wal that start a checkpoint (SQLite's default): it then holds at most ~4 MiB.
CHECKPOINT_PAGES = 1000


def _io_error(e: BaseException) -> bool:
    """An I/O failure (the disk, memory), not damage to what is stored."""
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_IOERR", "SQLITE_NOMEM", "SQLITE_INTERRUPT")) or "disk i/o error" in str(e).lower()


def _file_size_capped() -> bool:
    """Whether this process may not grow files past a limit (``ulimit -f``): a write beyond it fails
    as a full disk would."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return soft != resource.RLIM_INFINITY


def _is_copy_key(key: object) -> bool:
    if not isinstance(key, str):
        return False
    head, _sep, tail = key.partition(":")
    return head == "game" and tail.isascii() and tail.isdecimal()


def _as_bytes(v: object) -> bytes | None:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogatepass")
    return None


def _setup_of(raw: bytes | None) -> str | None:
    """The setup's text if it decodes as a setup, else None."""
    try:
        text = raw.decode("utf-8") if raw is not None else None
        obj = json.loads(text) if text is not None else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return text if isinstance(obj, dict) and isinstance(obj.get("game"), str) and \
        isinstance(obj.get("players"), list) else None


def _crc_is(crc: int, gid: int, game: str, setup: bytes, *, started: float) -> bool:
    return game_crc(gid, game, setup, started) == crc


def _name_crc_is(crc: int, gid: int, setup: bytes, started: float, name: bytes) -> bool:
    return game_crc(gid, name.decode("utf-8", "replace"), setup, started) == crc


def _result_of(raw: object) -> dict[str, Any] | None:
    """A stored result, or None when there is none or it does not decode."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        obj = json.loads(text) if isinstance(text, str) else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _choose_game(gid: int, rows: list[Row], copy: str | None) -> Row | None:
    """The sound (id, game, setup, started, finished, result) of a game from its stored versions.

    In order: a version whose checksum holds; the copy in ``meta`` (its checksum must hold; the
    result comes from the row); a version put right by one flipped bit; a version from before
    checksums whose setup decodes. None: nothing vouches for any of them.
    """
    tail = (rows[0][4], rows[0][5]) if rows else (None, None)
    for r in rows:
        game, setup, started, crc = r[1], _as_bytes(r[2]), r[3], r[6]
        if isinstance(game, str) and setup is not None and isinstance(started, float) and isinstance(crc, int) \
                and game_crc(gid, game, setup, started) == crc and _setup_of(setup) is not None:
            return (gid, game, setup.decode("utf-8"), started, r[4], r[5])
    if copy is not None:
        try:
            c = json.loads(copy)
            if game_crc(gid, c["game"], c["setup"], c["started"]) == c["crc"] and _setup_of(
                    c["setup"].encode("utf-8")) is not None:
                return (gid, c["game"], c["setup"], c["started"]) + tail
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            pass
    for r in rows:
        game, setup, started, crc = r[1], _as_bytes(r[2]), r[3], r[6]
        if not (isinstance(game, str) and setup is not None and isinstance(started, float) and isinstance(crc, int)):
            continue
        fixed = _one_bit_off(setup, functools.partial(_crc_is, crc, gid, game, started=started))
        if fixed is not None and _setup_of(fixed) is not None:
            return (gid, game, fixed.decode("utf-8"), started, r[4], r[5])
        bits = struct.unpack(">Q", struct.pack(">d", started))[0]
        for b in range(64):
            when = struct.unpack(">d", struct.pack(">Q", bits ^ (1 << b)))[0]
            if game_crc(gid, game, setup, when) == crc and _setup_of(setup) is not None:
                return (gid, game, setup.decode("utf-8"), when, r[4], r[5])
        fixed_name = _one_bit_off(game.encode("utf-8", "surrogatepass"),
                                  functools.partial(_name_crc_is, crc, gid, setup, started))
        if fixed_name is not None and _setup_of(setup) is not None:
            return (gid, fixed_name.decode("utf-8", "replace"), setup.decode("utf-8"), started, r[4], r[5])
    for r in rows:
        text = _setup_of(_as_bytes(r[2]))
        if r[6] is None and isinstance(r[1], str) and text is not None and isinstance(r[3], float):
            return (gid, r[1], text, r[3], r[4], r[5])
    return None


def _one_bit_off(raw: bytes, ok: Callable[[bytes], bool]) -> bytes | None:
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


def default_state_dir() -> Path:
    """``$TABLEKEEPER_STATE_DIR``, else ``$XDG_STATE_HOME/tablekeeper``, else ``~/.local/state/tablekeeper``."""
    env = os.environ.get("TABLEKEEPER_STATE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(xdg) / "tablekeeper"


def _encode(obj: Any) -> tuple[str, int]:
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return body, zlib.crc32(body.encode("utf-8"))


def _mend(raw: object, crc: object) -> bytes | None:
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
    return _one_bit_off(raw, lambda b: zlib.crc32(b) == crc)


def _decode_row(raw: object, crc: object) -> tuple[dict[str, Any] | None, str | None]:
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


class StaleJournal(JournalError):
    """Another process appended to this game first; the session must catch up (``next_seq``)."""

    def __init__(self, game_id: int, next_seq: int):
        super().__init__(f"game {game_id} moved on elsewhere: its next action is {next_seq}")
        self.game_id = game_id
        self.next_seq = next_seq


def _kind(e: BaseException) -> str:
    """What an error from SQLite or the OS means: damaged, full, readonly, busy, or io."""
    if isinstance(e, OSError):
        kinds = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EFBIG: "full", errno.EROFS: "readonly",
                 errno.EACCES: "readonly", errno.EPERM: "readonly"}
        return kinds.get(e.errno, "io") if e.errno is not None else "io"
    name = getattr(e, "sqlite_errorname", "") or ""
    text = str(e).lower()
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
        return "damaged"
    if name == "SQLITE_FULL" or "disk is full" in text:
        return "full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")) \
            or "readonly" in text or "unable to open" in text:
        return "readonly"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "busy"
    return "io"


@dataclass
class GameRecord:
    id: int
    game: str
    setup: dict[str, Any]  # {"game": ..., "players": [...], "options": {...}}
    started: float
    finished: float | None
    result: dict[str, Any] | None


class _Damaged(Exception):
    """Internal: opening found damage (the message says what)."""


class Journal:
    """The SQLite journal in a state folder.

    ``durable=False`` (used only for throw-away journals such as
    ``tablekeeper replay``'s) turns fsync off. ``readonly`` is None when the
    journal can be written, else the reason it cannot (a sentence).
    """

    def __init__(self, state_dir: str | os.PathLike[str] | None = None, *, durable: bool = True):
        self.dir = Path(state_dir) if state_dir is not None else default_state_dir()
        self.path = self.dir / FILENAME
        self.durable = durable
        self.warnings: list[str] = []
        self._said = 0
        self._skipped_games: set[int] = set()
        self._rebuilt = False
        self._wal_image = b""
        self._said_damage: set[tuple[str, int]] = set()
        self.readonly: str | None = None
        self._data_version = None
        try:
            self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            if _kind(e) != "readonly" or not self.dir.is_dir():
                raise self._error(_("cannot create the state folder"), e) from e
        self._conn: sqlite3.Connection | None = self._open()

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (a closed journal refuses, as a closed SQLite connection does)."""
        if self._conn is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed journal.")
        return self._conn

    # -- warnings ---------------------------------------------------------------
    def warn(self, sentence: str) -> None:
        self.warnings.append(sentence)

    def take_warnings(self) -> list[str]:
        """The warnings not handed out yet (each one is handed out once)."""
        new = self.warnings[self._said:]
        self._said = len(self.warnings)
        return new

    # -- errors -----------------------------------------------------------------
    def _free_bytes(self) -> int | None:
        try:
            st = os.statvfs(self.dir)
        except OSError:
            return None
        return st.f_bavail * st.f_frsize

    def _error(self, doing: str, e: BaseException) -> JournalError:
        """One clear sentence for an error, as the right JournalError subclass."""
        kind = _kind(e)
        if kind == "io":
            free = self._free_bytes()
            if (free is not None and free < _NEARLY_FULL) or _file_size_capped():
                kind = "full"
        reason = getattr(e, "strerror", None) or str(e)
        if kind == "full":
            return JournalFull(_("{doing}: the disk holding {dir} is full; free some space (nothing was lost, the action was not recorded)", doing=doing, dir=self.dir))
        if kind == "readonly":
            return JournalReadOnly(_("{doing}: {dir} cannot be written ({value})", doing=doing, dir=self.dir, value=self.readonly or reason))
        if kind == "busy":
            return JournalBusy(_("{doing}: another tablekeeper kept the journal {path} busy for more than {BUSY_WAIT:g} s; try again", doing=doing, path=self.path, BUSY_WAIT=BUSY_WAIT))
        if kind == "damaged":
            return JournalError(_("{doing}: the journal {path} is damaged ({reason}); run `tablekeeper doctor` (or restart) to repair it", doing=doing, path=self.path, reason=reason))
        return JournalError(_("{doing}: {path}: {reason}", doing=doing, path=self.path, reason=reason))

    # -- opening -------------------------------------------------------------
    def _connect(self, target: str | os.PathLike[str], *, uri: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=BUSY_WAIT,
                               uri=uri)
        conn.text_factory = lambda b: b.decode("utf-8", "replace")  # never a decode crash on a read
        return conn

    def _set_mode(self, conn: sqlite3.Connection) -> None:
        if self.durable:
            # WAL + synchronous=FULL: a commit appends its pages to the -wal and fsyncs it, once; the
            # pages reach journal.db at a checkpoint (every CHECKPOINT_PAGES, and on the last close).
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
            conn.execute(f"PRAGMA journal_size_limit={4 << 20}")  # the -wal shrinks back after a big one
        else:
            conn.execute("PRAGMA journal_mode=MEMORY")
            conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA secure_delete=ON")  # removed rows leave no stale copy for a later salvage

    def _writable(self) -> str | None:
        """None if the journal can be written here, else why not."""
        if not os.access(self.dir, os.W_OK | os.X_OK):
            try:
                ro = os.statvfs(self.dir).f_flag & os.ST_RDONLY
            except OSError:
                ro = False
            return "the file system is read-only" if ro else "permission denied on the folder"
        try:
            if self.path.exists() and not os.access(self.path, os.R_OK | os.W_OK):
                return f"permission denied on {self.path.name}"
        except OSError as e:
            return e.strerror or str(e)
        return None

    def _open(self) -> sqlite3.Connection:
        why = self._writable()
        if why is not None:
            return self._open_readonly(why)
        try:
            return self._open_writable()
        except JournalError:
            raise
        except _Damaged as e:
            return self._recover(str(e))
        except Exception as e:  # noqa: BLE001 - whatever a damaged file makes SQLite or Python raise is damage
            kind = _kind(e)
            if kind == "readonly":
                return self._open_readonly(getattr(e, "strerror", None) or str(e))
            if _io_error(e) and self._error("", e).__class__ is JournalFull:
                return self._open_readonly(_("the disk holding {dir} is full", dir=self.dir))
            if kind in ("full", "busy") or isinstance(e, OSError) or _io_error(e):
                raise self._error(_("cannot open the journal"), e) from e
            return self._recover(str(e) or type(e).__name__)

    def _open_writable(self) -> sqlite3.Connection:
        _create_private(self.path)
        # the -wal as found: SQLite's last close checkpoints what it could read and deletes the file,
        # and a damaged frame hides every commit after it; the salvage reads this image then
        try:
            self._wal_image = Path(f"{self.path}-wal").read_bytes()
        except OSError:
            self._wal_image = b""
        conn = self._connect(self.path)
        try:
            self._set_mode(conn)
            if self.durable:
                self._check_wal(conn)
            self._check_schema(conn)
            rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
            if rows != ["ok"]:
                raise _Damaged("integrity check failed: " + "; ".join(rows[:3]))
            conn.executescript(_SCHEMA)
            self._check_version(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Every object in the file is one of the journal's, with its SQL as written: else damage."""
        for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master"):
            if name not in _KNOWN_SQL or sql not in _KNOWN_SQL[name]:
                raise _Damaged(f"the schema does not read as the journal's ({kind} {name!r})")

    def _check_wal(self, conn: sqlite3.Connection) -> None:
        """Damage in the ``-wal``: SQLite stops reading it at the first frame that fails its checksum,
        and would drop every commit after it without a word. Frames past what SQLite took that hold an
        action the journal lacks are damage (the salvage reads them); an intact tail with no commit
        (a write cut off by a power cut) is not."""
        if len(self._wal_image) < 32:
            return
        try:
            conn.execute("PRAGMA busy_timeout=0")
            conn.execute("BEGIN IMMEDIATE")  # no writer adds frames while they are read
        except sqlite3.OperationalError as e:
            if _kind(e) == "busy":  # a live writer holds it: what it writes is not damage
                return
            raise
        finally:
            conn.execute(f"PRAGMA busy_timeout={int(BUSY_WAIT * 1000)}")
        try:
            other = self._connect(self.path)
            try:
                _busy, taken, _done = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                other.close()
            data = Path(f"{self.path}-wal").read_bytes()  # as it is now: what a live writer had added
            page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
            info = salvage.read_wal(data, page_size)
            if info is None or taken < 0:
                return
            beyond = [k for k in range(taken, len(info.frames)) if info.frames[k][3]]
            if not beyond:
                return
            if all(info.frames[k][2] == 0 and salvage.wal_frame_holds(data, info, k) for k in beyond):
                return  # a transaction cut off before its commit: never acknowledged
            lost = 0
            have = conn.execute("SELECT 1 FROM sqlite_master WHERE name='entries'").fetchone() is not None
            for game, seq, raw, crc, _at in salvage.scan(b"", data[:32] + b"".join(
                    data[info.frames[k][0]:info.frames[k][0] + 24 + page_size] for k in beyond)).entries:
                if _mend(raw, crc) is not None and (not have or conn.execute(
                        "SELECT 1 FROM entries WHERE game=? AND seq=?", (game, seq)).fetchone() is None):
                    lost += 1
            if lost:
                raise _Damaged(f"the write-ahead log is damaged after frame {taken}: {lost} action(s) "
                               "would be dropped")
        finally:
            conn.execute("ROLLBACK")

    def _open_readonly(self, why: str) -> sqlite3.Connection:
        """Read what is there without writing a byte; a damaged file is salvaged into memory."""
        self.readonly = why
        try:
            exists = self.path.exists()
            readable = exists and os.access(self.path, os.R_OK) and os.access(self.dir, os.R_OK | os.X_OK)
        except PermissionError:  # the folder cannot even be searched
            exists, readable = True, False
        except OSError:
            exists = readable = True
        if not exists:
            conn = self._connect(":memory:")
            conn.executescript(_SCHEMA)
            return conn
        if not readable:
            raise JournalReadOnly(_("cannot read the journal: {dir} cannot be read ({why}); give it back to the "
                                    "user tablekeeper runs as (chmod 700, chown)", dir=self.dir, why=why))
        problem = ""
        # a journal in WAL mode opens read-only only with its -shm, or as immutable (no -wal read then:
        # the salvage reads a leftover -wal's frames)
        wal = Path(f"{self.path}-wal")
        for uri in (f"file:{self.path}?mode=ro", f"file:{self.path}?immutable=1"):
            try:
                leftover = uri.endswith("immutable=1") and wal.exists() and wal.stat().st_size >= 32
            except OSError:
                leftover = True
            if leftover:
                break
            try:
                conn = self._connect(uri, uri=True)
                self._check_schema(conn)
                rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
                if rows == ["ok"]:
                    return conn
                conn.close()
                problem = "integrity check failed: " + "; ".join(rows[:3])
                break
            except _Damaged as e:
                problem = str(e)
                break
            except Exception as e:  # noqa: BLE001 - damage, or a WAL file that cannot be opened read-only
                problem = str(e) or type(e).__name__
        conn = self._connect(":memory:")
        conn.executescript(_SCHEMA)
        games, entries, held = self._salvage_into(self.path, conn)
        if problem and "unable to open" not in problem:
            self.warn(_("the journal {path} is damaged ({problem}) and cannot be repaired here ({why}); showing the {games} game(s) and {entries} action(s) that could be read", path=self.path, problem=problem, why=why, games=games, entries=entries))
        return conn

    def _check_version(self, conn: sqlite3.Connection) -> None:
        """The schema's version, in ``meta`` and in SQLite's header (``user_version``).

        Only both copies agreeing on a newer version refuse the file (a flipped bit in one of
        them is not a newer tablekeeper); a version-1 journal gains its games' checksums and
        copies, in one transaction.
        """
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        header = int(conn.execute("PRAGMA user_version").fetchone()[0])
        said = str(row[0]) if row is not None else None
        number = int(said) if said is not None and said.isascii() and said.isdecimal() and len(said) < 7 else None
        if number is not None and number > SCHEMA_VERSION and header == number:
            raise JournalError(
                _("{path} was written by a newer tablekeeper (schema {value}); update tablekeeper", path=self.path, value=said)
            )
        missing = [gid for (gid,) in conn.execute("SELECT id FROM games WHERE crc IS NULL")]
        if header == SCHEMA_VERSION and number == SCHEMA_VERSION and not missing:
            return
        with _txn(conn):
            for gid in missing:
                got = conn.execute("SELECT id, game, CAST(setup AS BLOB), started FROM games WHERE id=?",
                                   (gid,)).fetchone()
                try:
                    setup = got[2].decode("utf-8")
                    json.loads(setup)
                except (UnicodeDecodeError, ValueError, RecursionError):
                    continue  # damaged already: no checksum vouches for it
                self.seal_game(conn, gid, got[1], setup, got[3])
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @staticmethod
    def seal_game(conn: sqlite3.Connection, gid: int, game: str, setup: str, started: float) -> None:
        """Store a game's checksum and its copy in ``meta`` (inside the caller's transaction; a restore calls it
        for each game it brings in)."""
        crc = game_crc(gid, game, setup, started)
        conn.execute("UPDATE games SET crc=? WHERE id=?", (crc, gid))
        conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (GAME_COPY.format(gid=gid), json.dumps(
            {"game": game, "setup": setup, "started": started, "crc": crc}, ensure_ascii=False)))

    def _aside_name(self) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        candidate = self.path.with_name(f"{FILENAME}.damaged-{stamp}")
        i = 1
        while candidate.exists():
            candidate = self.path.with_name(f"{FILENAME}.damaged-{stamp}-{i}")
            i += 1
        return candidate

    def _recover(self, problem: str) -> sqlite3.Connection:
        """Salvage into a fresh file first, then swap: a full disk renames nothing."""
        fresh = self.path.with_name(f".{FILENAME}.salvage-{os.getpid()}")
        for leftover in [fresh] + [Path(f"{fresh}{s}") for s in _SIDE_FILES]:
            leftover.unlink(missing_ok=True)
        try:
            _create_private(fresh)
            conn = self._connect(fresh)
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.executescript(_SCHEMA)
            self._check_version(conn)
            games, entries, held = self._salvage_into(self.path, conn)
            conn.close()
            _fsync(fresh)
        except (sqlite3.Error, OSError) as e:
            for leftover in [fresh] + [Path(f"{fresh}{s}") for s in _SIDE_FILES]:
                leftover.unlink(missing_ok=True)
            raise self._error(_("the journal {path} is damaged ({problem}) and cannot be repaired now",
                                     path=self.path, problem=problem), e) \
                from e
        aside = self._aside_name()
        for suffix in ("",) + _SIDE_FILES:
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                os.replace(src, Path(f"{aside}{suffix}"))
        if self._wal_image and not Path(f"{aside}-wal").exists():
            Path(f"{aside}-wal").write_bytes(self._wal_image)  # kept aside as found
        os.replace(fresh, self.path)
        _fsync(self.dir)
        conn = self._connect(self.path)
        self._set_mode(conn)
        if held:
            sentence = _("the journal {path} was damaged ({problem}); it is kept as {aside}; recovered {games} "
                         "game(s) and {entries} action(s) into a fresh journal; {held} action(s) that follow a lost "
                         "one are kept in its quarantine (`tablekeeper doctor` lists them)", path=self.path,
                         problem=problem, aside=aside.name, games=games, entries=entries, held=held)
        else:
            sentence = _("the journal {path} was damaged ({problem}); it is kept as {aside}; recovered {games} "
                         "game(s) and {entries} action(s) into a fresh journal", path=self.path, problem=problem,
                         aside=aside.name, games=games, entries=entries)
        self.warn(sentence)
        self._remember_repair(conn, sentence)
        return conn

    def _salvage_into(self, damaged: Path, conn: sqlite3.Connection) -> tuple[int, int, int]:
        """Every row of ``damaged`` that holds, into ``conn``: (games, actions resumed, actions held).

        Rows come from what SQLite still reads, then from every page and every WAL frame
        (:mod:`.salvage`); an action is kept if its checksum holds (one flipped bit is put back), a
        game if its checksum holds or its copy in ``meta`` does (or, from before checksums, if its
        setup decodes). A game cut short keeps its result: a finished game is never reopened. Actions
        of a game whose row is lost go to the quarantine, with what it held before.
        """
        games: dict[int, list[Row]] = {}
        entries: dict[tuple[int, int], Row] = {}
        meta: dict[str, str] = {}
        self._salvage_sql(damaged, games, entries, meta)
        try:
            data = damaged.read_bytes()
        except OSError:
            data = b""
        wal = Path(f"{damaged}-wal")
        try:
            wal_data = wal.read_bytes() if wal.exists() else b""
        except OSError:
            wal_data = b""
        if damaged == self.path and len(self._wal_image) > len(wal_data):
            wal_data = self._wal_image  # SQLite's close deleted the -wal it could not read
        found = salvage.scan(data, wal_data)
        for row in reversed(found.games):  # the newest version first (a finish, an undo of it)
            games.setdefault(row[0], []).insert(0, row)
        for key, value in found.meta:
            if isinstance(key, str):  # a meta row whose key was lost says nothing
                meta.setdefault(key, value)
        claims: dict[tuple[int, int], dict[tuple[str, float | None], Row]] = {}
        for row in entries.values():
            claims.setdefault((row[0], row[1]), {})[(row[2], row[4])] = row
        for game, seq, raw, crc, at in found.entries:
            sound = _mend(raw, crc)
            if sound is not None and _decode_row(sound, zlib.crc32(sound))[1] is None:
                row = (game, seq, sound.decode("utf-8"), zlib.crc32(sound), at)
                entries.setdefault((game, seq), row)
                claims.setdefault((game, seq), {}).setdefault((row[2], at), row)
        _place_twins(entries, claims)
        good_games: dict[int, Row] = {}
        for gid in set(games) | {int(k.split(":", 1)[1]) for k in meta if _is_copy_key(k)} | {g for g, _s in entries}:
            chosen = _choose_game(gid, games.get(gid, []), meta.get(GAME_COPY.format(gid=gid)))
            if chosen is not None:
                good_games[gid] = chosen
        held_before = [q for q in found.quarantine if q[5] is not None]
        n_entries = held = 0
        with _txn(conn):
            meta.pop("schema", None)
            for k in [k for k in meta if _is_copy_key(k)]:
                meta.pop(k)  # written anew below, from the rows chosen
            conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(meta.items()))
            seen_held = set()
            for g, seq, body, crc, at, reason in held_before:
                key = (g, seq, bytes(body) if isinstance(body, bytes) else body)
                if key not in seen_held:
                    seen_held.add(key)
                    conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                                 (g, seq, body, crc, at, reason))
            for gid in sorted({g for g, _s in entries} - set(good_games)):
                for s in sorted(seq for g, seq in entries if g == gid):
                    g, seq, body, crc, at = entries[(gid, s)]
                    conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                                 (g, seq, body.encode("utf-8"), crc, at, "salvaged: its game's setup is lost"))
                    held += 1
            for gid, row in sorted(good_games.items()):
                conn.execute("INSERT INTO games (id, game, setup, started, finished, result) VALUES (?,?,?,?,?,?)",
                             row[:6])
                self.seal_game(conn, gid, row[1], row[2], row[3])
                seqs = _close_gap(entries, gid, sorted(seq for g, seq in entries if g == gid))
                run = 0
                while run < len(seqs) and seqs[run] == run:
                    run += 1
                conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)",
                                 [entries[(gid, s)] for s in seqs[:run]])
                for s in seqs[run:]:
                    g, seq, body, crc, at = entries[(gid, s)]
                    conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                                 (g, seq, body.encode("utf-8"), crc, at, f"salvaged after action {run} was lost"))
                n_entries += run
                held += len(seqs) - run
        return len(good_games), n_entries, held

    def _salvage_sql(self, damaged: Path, games: dict[int, list[Row]], entries: dict[tuple[int, int], Row],
                     meta: dict[str, str]) -> None:
        """What SQLite itself still reads of ``damaged``: row by row, seeking past what fails."""
        try:
            old = self._connect(f"file:{damaged}?mode=ro", uri=True)
        except sqlite3.Error:
            return
        try:
            for sql, sink in (
                ("SELECT key, value FROM meta", lambda r: isinstance(r[0], str) and meta.setdefault(r[0], r[1])),
                ("SELECT id, game, CAST(setup AS BLOB), started, finished, result, crc FROM games ORDER BY id",
                 lambda r: games.setdefault(r[0], []).append(tuple(r))),
                ("SELECT id, game, CAST(setup AS BLOB), started, finished, result, NULL FROM games ORDER BY id",
                 lambda r: None if r[0] in games else games.setdefault(r[0], []).append(tuple(r))),
            ):
                try:
                    for row in old.execute(sql):
                        sink(row)
                except Exception:  # noqa: BLE001,S112 - what SQLite cannot read, the page scan may
                    continue
            for gid in list(games):
                lo, misses = 0, 0
                while misses < 64:
                    try:
                        got = old.execute(
                            "SELECT game, seq, CAST(body AS BLOB), crc, at FROM entries "
                            "WHERE game=? AND seq>=? ORDER BY seq LIMIT 256", (gid, lo)).fetchall()
                    except Exception:  # noqa: BLE001 - step past a page SQLite cannot read
                        lo, misses = lo + 1, misses + 1
                        continue
                    if not got:
                        break
                    for k, (game, seq, raw, crc, at) in enumerate(got):
                        if (k > 0 and seq <= got[k - 1][1]) or (k + 1 < len(got) and got[k + 1][1] <= seq):
                            continue  # out of key order: a flipped key, which the page scan reads by its place
                        sound = _mend(raw, crc)
                        if sound is not None and _decode_row(sound, zlib.crc32(sound))[1] is None:
                            entries.setdefault((game, seq), (game, seq, sound.decode("utf-8"), zlib.crc32(sound), at))
                    lo, misses = max(lo + 1, max(r[1] for r in got) + 1), 0  # always forward: a damaged
                    # interior key can hand back rows below ``lo``
        except Exception:  # noqa: BLE001,S110 - the page scan still reads the file
            pass
        finally:
            old.close()

    def _remember_repair(self, conn: sqlite3.Connection, sentence: str) -> None:
        """Keep the repair's sentence in ``meta`` for ``tablekeeper doctor``."""
        try:
            with _txn(conn):
                conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                             (f"repair:{time.strftime('%Y-%m-%dT%H:%M:%S')}:{os.getpid()}", sentence))
        except sqlite3.Error:
            pass

    def repairs(self) -> list[tuple[str, str]]:
        """(when, what) of every repair this journal has been through."""
        rows = self._rows("SELECT key, value FROM meta WHERE key LIKE 'repair:%' ORDER BY key")
        return [(k.split(":", 1)[1].rsplit(":", 1)[0], v) for k, v in rows]

    def changed_elsewhere(self) -> bool:
        """True once after another process committed to the journal (``PRAGMA data_version``)."""
        try:
            v = self.conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            return False
        changed = self._data_version is not None and v != self._data_version
        self._data_version = v
        return changed

    def keep_copy_aside(self) -> Path | None:
        """Copy the whole journal aside (SQLite online backup); its path, or None if it could not be made."""
        aside = self._aside_name()
        try:
            _create_private(aside)
            dst = sqlite3.connect(aside)
            try:
                with dst:
                    self.conn.backup(dst)
            finally:
                dst.close()
            _fsync(self.dir)
        except (sqlite3.Error, OSError):
            aside.unlink(missing_ok=True)
            return None
        return aside

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading and writing -----------------------------------------------------
    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        """A read; a failure (the disk, a lock, damage found late) is one clear JournalError."""
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.Error as e:
            raise self._error(_("cannot read the journal"), e) from e

    def _write(self, doing: str, fn: Callable[[], _T]) -> _T:
        """Run ``fn()`` (a write transaction); any failure becomes one clear JournalError."""
        if self.readonly is not None:
            raise JournalReadOnly(_("{doing}: {dir} cannot be written ({readonly}); nothing was recorded", doing=doing, dir=self.dir, readonly=self.readonly))
        try:
            return fn()
        except JournalError:
            raise
        except UnicodeEncodeError as e:
            raise JournalError(_("{doing}: the text is not valid Unicode ({reason})", doing=doing, reason=e.reason)) from None
        except (sqlite3.Error, OSError) as e:
            raise self._error(doing, e) from e

    # -- games ---------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> int:
        body = json.dumps(setup, sort_keys=True, ensure_ascii=False)

        def write() -> int:
            with _txn(self.conn):
                started = time.time()
                cur = self.conn.execute(
                    "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)", (setup["game"], body, started)
                )
                if cur.lastrowid is None:  # SQLite gives every inserted row its id
                    raise AssertionError("the new game has no id")
                self.seal_game(self.conn, cur.lastrowid, setup["game"], body, started)
            return cur.lastrowid

        return self._write(_("cannot start the game"), write)

    def games(self) -> list[GameRecord]:
        """Every game whose row holds. A row whose checksum fails comes back from its copy in ``meta``
        or by putting one flipped bit back (and is mended in place, with a warning); one that
        cannot be is skipped with a warning, its actions kept."""
        rows = self._rows("SELECT id, game, CAST(setup AS BLOB), started, finished, CAST(result AS BLOB), crc "
                          "FROM games ORDER BY id")
        out = []
        for gid, game, setup, started, finished, result, crc in rows:
            if crc is None or not isinstance(started, float) or game_crc(gid, game, setup, started) != crc:
                copy = self._rows("SELECT value FROM meta WHERE key=?", (GAME_COPY.format(gid=gid),))
                chosen = _choose_game(gid, [(gid, game, setup, started, finished, result, crc)],
                                      copy[0][0] if copy else None)
                if chosen is None:
                    if gid not in self._skipped_games:
                        self._skipped_games.add(gid)
                        self.warn(_("game {gid}: its setup does not decode (the journal is damaged there); it is skipped, its rows are kept", gid=gid))
                    continue
                if crc is not None:
                    self._mend_game(chosen)
                game, setup, started = chosen[1], chosen[2].encode("utf-8"), chosen[3]
            try:
                setup_obj = json.loads(setup.decode("utf-8"))
                if not isinstance(setup_obj, dict) or not isinstance(setup_obj.get("players"), list):
                    raise ValueError("not a setup")
                result_obj = _result_of(result)
                if result and result_obj is None and ("result", gid) not in self._said_damage:
                    self._said_damage.add(("result", gid))  # the game stays listed; a replay tells its result
                    self.warn(_("game {gid}: its stored result is damaged; `tablekeeper doctor` works it out again "
                                "from its actions", gid=gid))
            except (ValueError, RecursionError, AttributeError):
                if gid not in self._skipped_games:
                    self._skipped_games.add(gid)
                    self.warn(_("game {gid}: its setup does not decode (the journal is damaged there); it is skipped, its rows are kept", gid=gid))
                continue
            out.append(GameRecord(gid, game, setup_obj, started, finished, result_obj))
        return out

    def _mend_game(self, row: Row) -> None:
        """Write a game's sound row back over a damaged one (once per game, said once)."""
        gid = row[0]
        if gid in self._skipped_games:
            return
        self._skipped_games.add(gid)
        sentence = _("game {gid}: its stored setup was damaged (one flipped bit); it was put right from its "
                     "checksum and copy", gid=gid)
        self.warn(sentence)
        if self.readonly is not None:
            return

        def write() -> None:
            with _txn(self.conn):
                self.conn.execute("UPDATE games SET game=?, setup=?, started=? WHERE id=?",
                                  (row[1], row[2], row[3], gid))
                self.seal_game(self.conn, gid, row[1], row[2], row[3])

        try:
            self._write(_("cannot mend the game"), write)
            self._remember_repair(self.conn, sentence)
        except JournalError as e:
            self.warn(str(e))

    def game(self, game_id: int) -> GameRecord | None:
        for g in self.games():
            if g.id == game_id:
                return g
        return None

    def last_unfinished(self) -> GameRecord | None:
        unfinished = [g for g in self.games() if g.finished is None]
        return unfinished[-1] if unfinished else None

    # -- entries -------------------------------------------------------------
    def next_seq(self, game_id: int) -> int:
        return int(self._rows("SELECT coalesce(max(seq) + 1, 0) FROM entries WHERE game=?", (game_id,))[0][0])

    def append(self, game_id: int, seq: int, entry: dict[str, Any], *, result: dict[str, Any] | None = None,
               reopen: bool = False) -> None:
        """Write one entry durably; when it returns, the entry is acknowledged.

        ``result`` marks the game finished in the same transaction; ``reopen``
        marks it unfinished again (an undo of the final action). Raises
        :class:`StaleJournal` if ``seq`` is not the game's next number
        (another process wrote first), :class:`JournalFull`,
        :class:`JournalReadOnly` or :class:`JournalBusy` with a sentence.
        """
        body, crc = _encode(entry)
        now = time.time()

        def write() -> None:
            with _txn(self.conn):
                expected = self.next_seq(game_id)
                if expected != seq:
                    raise StaleJournal(game_id, expected)
                self.conn.execute("INSERT INTO entries VALUES (?,?,?,?,?)", (game_id, seq, body, crc, now))
                if result is not None:
                    self.conn.execute(
                        "UPDATE games SET finished=?, result=? WHERE id=?",
                        (now, json.dumps(result, sort_keys=True), game_id),
                    )
                elif reopen:
                    self.conn.execute("UPDATE games SET finished=NULL, result=NULL WHERE id=?", (game_id,))

        self._write(_("cannot save the action"), write)

    def entries(self, game_id: int, since: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """The game's entries in order from ``since``, up to the first damaged one.

        A damaged row (checksum, text or JSON) stops the list: the file is
        copied aside, the damaged row and those after it are moved to the
        quarantine, and a warning says which.
        """
        out: list[tuple[int, dict[str, Any]]] = []
        try:
            rows = self.conn.execute("SELECT seq, CAST(body AS BLOB), crc FROM entries WHERE game=? AND seq>=? "
                                     "ORDER BY seq", (game_id, since)).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._error(_("cannot read game {game}", game=game_id), e) from e
        if any(seq != since + k for k, (seq, _raw, _crc) in enumerate(rows)) and self._rebuild(
                _("game {game} has a gap in its numbered actions", game=game_id)):
            return self.entries(game_id, since)  # a key with a flipped bit: the salvage reads it by its place
        expected = since
        mended: list[tuple[int, bytes]] = []
        for seq, raw, crc in rows:
            entry: dict[str, Any] | None = None
            problem: str | None = None
            if seq != expected:
                problem = _("entry {seq} is missing", seq=expected)
            else:
                entry, problem = _decode_row(raw, crc)
                if problem is not None:
                    sound = _mend(raw, crc)
                    if sound is not None:
                        entry, problem = _decode_row(sound, zlib.crc32(sound))
                        if problem is None:
                            mended.append((seq, sound))
            if problem or entry is None:
                self.cut(game_id, expected, _("entry {seq} of game {game}: {problem}", seq=expected, game=game_id,
                                              problem=problem))
                break
            out.append((seq, entry))
            expected += 1
        if mended:
            self._mend_entries(game_id, mended)
        return out

    def _rebuild(self, problem: str) -> bool:
        """Salvage the whole journal into a fresh file now (once per opening); True if it was done."""
        if self._rebuilt or self.readonly is not None or not self.durable:
            return False
        self._rebuilt = True
        self.close()
        try:
            self._conn = self._recover(problem)
        except JournalError as e:
            self.warn(str(e))
            self._conn = self._open()
        return True

    def _mend_entries(self, game_id: int, mended: list[tuple[int, bytes]]) -> None:
        """Write actions put right (one flipped bit) back in place, and say so."""
        seqs = ", ".join(str(seq) for seq, _raw in mended)
        sentence = _("game {game}: action(s) {seqs} had one flipped bit each; put right from their checksums",
                     game=game_id, seqs=seqs)
        self.warn(sentence)
        if self.readonly is not None:
            return

        def write() -> None:
            with _txn(self.conn):
                for seq, raw in mended:
                    self.conn.execute("UPDATE entries SET body=?, crc=? WHERE game=? AND seq=?",
                                      (raw.decode("utf-8"), zlib.crc32(raw), game_id, seq))

        try:
            self._write(_("cannot mend the actions"), write)
            self._remember_repair(self.conn, sentence)
        except JournalError as e:
            self.warn(str(e))

    def cut(self, game_id: int, from_seq: int, why: str) -> Path | None:
        """Keep a copy aside, then move entries ``from_seq`` onwards of a game to the quarantine."""
        if self.readonly is not None:
            self.warn(_("{why}; the game is shown up to action {from_seq} (nothing repaired: {readonly})", why=why, from_seq=from_seq, readonly=self.readonly))
            return None
        aside = self.keep_copy_aside()

        def write() -> int:
            with _txn(self.conn):
                self.conn.execute(
                    "INSERT INTO quarantine (game, seq, body, crc, at, reason) "
                    "SELECT game, seq, CAST(body AS BLOB), crc, at, ? FROM entries WHERE game=? AND seq>=?",
                    (why, game_id, from_seq))
                n = self.conn.execute("DELETE FROM entries WHERE game=? AND seq>=?", (game_id, from_seq)).rowcount
                # a finished game stays finished: its result was recorded with its last action
            return n

        try:
            n = self._write(_("cannot set the damaged actions aside"), write)
        except JournalError as e:
            self.warn(_("{why}; the game is shown up to action {from_seq}, but {e}", why=why, from_seq=from_seq, e=e))
            return aside
        if aside:
            sentence = _("{why}; the game resumes from the last good action ({kept} kept, {n} removed and set aside "
                         "in the journal's quarantine, see `tablekeeper doctor`); a copy of the journal as it was is "
                         "kept as {aside}", why=why, kept=from_seq, n=n, aside=aside.name)
        else:
            sentence = _("{why}; the game resumes from the last good action ({kept} kept, {n} removed and set aside "
                         "in the journal's quarantine, see `tablekeeper doctor`)", why=why, kept=from_seq, n=n)
        self.warn(sentence)
        self._remember_repair(self.conn, sentence)
        return aside

    def mend_result(self, game_id: int, result: dict[str, Any]) -> Path | None:
        """Write back a finished game's result worked out again from its actions (``doctor``), after
        keeping a copy of the journal aside; that copy's path. Raises JournalError with a sentence."""
        if self.readonly is not None:
            raise JournalReadOnly(_("cannot repair game {game}: {readonly}", game=game_id, readonly=self.readonly))
        aside = self.keep_copy_aside()

        def write() -> None:
            with _txn(self.conn):
                self.conn.execute("UPDATE games SET result=? WHERE id=? AND finished IS NOT NULL",
                                  (json.dumps(result, sort_keys=True), game_id))

        self._write(_("cannot repair game {game}", game=game_id), write)
        self._said_damage.discard(("result", game_id))
        self._remember_repair(self.conn, _("game {game}: its damaged result was worked out again from its actions",
                                           game=game_id))
        return aside

    def games_with_actions(self) -> list[int]:
        """The id of every game that has actions stored, listed or not (a game whose row is lost keeps them)."""
        return [int(r[0]) for r in self._rows("SELECT DISTINCT game FROM entries ORDER BY game")]

    def quarantined(self) -> list[dict[str, Any]]:
        """Rows set aside by a cut or a salvage: game, seq, reason, and the action if it still decodes."""
        out = []
        for game, seq, raw, crc, reason in self._rows(
                "SELECT game, seq, body, crc, reason FROM quarantine ORDER BY game, id"):
            entry, problem = _decode_row(raw, crc)
            out.append({"game": game, "seq": seq, "reason": reason, "entry": entry, "damage": problem})
        return out

    # -- the appliance: boot check, unsafe shutdowns, backups ------------------
    def quick_check(self) -> list[str]:
        """``PRAGMA quick_check`` on the open journal: [] when sound, else SQLite's complaints.

        Opening already ran it (and moved a damaged file aside); this is the
        boot check's second look at the result. A file too damaged to be
        checked gives SQLite's error as the one complaint.
        """
        try:
            rows = [str(r[0]) for r in self.conn.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as e:
            return [str(e)]
        return [] if rows == ["ok"] else rows

    def meta_get(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def meta_set(self, key: str, value: str) -> None:
        def write() -> None:
            with _txn(self.conn):
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

        self._write(_("cannot save the journal's notes"), write)

    def unsafe_shutdowns(self) -> int:
        """How many runs ended without clearing their "running" marker (see :meth:`mark_running`)."""
        try:
            return int(self.meta_get("unsafe_shutdowns") or 0)
        except ValueError:
            return 0

    def mark_running(self, token: str) -> int:
        """Set the "running" marker of a run (``token`` names it); returns the unsafe-shutdown count.

        A marker left by another run (a power cut, a crash, a watchdog kill)
        counts one unsafe shutdown, in the same transaction that sets the new
        marker. The same ``token`` again (the same process) counts nothing.
        """
        def write() -> int:
            with _txn(self.conn):
                row = self.conn.execute("SELECT value FROM meta WHERE key='running'").fetchone()
                count = self.conn.execute("SELECT value FROM meta WHERE key='unsafe_shutdowns'").fetchone()
                try:
                    n = int(count[0]) if count else 0
                except ValueError:
                    n = 0
                if row is not None and row[0] != token:
                    n += 1
                    self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('unsafe_shutdowns', ?)", (str(n),))
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('running', ?)", (token,))
            return n

        return self._write(_("cannot mark the run"), write)

    def mark_stopped(self, token: str) -> bool:
        """A clean exit: clear the marker if it is this run's (``token``); True if it was cleared."""
        def write() -> int:
            with _txn(self.conn):
                return self.conn.execute("DELETE FROM meta WHERE key='running' AND value=?", (token,)).rowcount

        return self._write(_("cannot clear the run's marker"), write) > 0

    def last_finished_id(self) -> int | None:
        """The newest finished game's id (None when no game has finished)."""
        rows = self._rows("SELECT max(id) FROM games WHERE finished IS NOT NULL")
        return rows[0][0] if rows else None

    def sound_copy(self, copy: sqlite3.Connection) -> str | None:
        """Make ``copy`` (a page-for-page copy of this journal) hold every sound row and nothing damaged.

        Damage found after the journal was opened travels with a page copy: when
        SQLite's integrity check, a game's checksum or an action's checksum fails
        in ``copy``, it is rebuilt from every row that holds there (the salvage:
        one flipped bit put back, actions after a lost one in the quarantine).
        Returns what was wrong, or None when the copy was sound as it was.
        """
        problem = _copy_problem(copy)
        if problem is None:
            return None
        with tempfile.TemporaryDirectory(prefix="tablekeeper-copy-") as d:
            damaged = Path(d) / FILENAME
            damaged.write_bytes(copy.serialize())
            fresh = self._connect(":memory:")
            try:
                fresh.executescript(_SCHEMA)
                self._check_version(fresh)
                self._salvage_into(damaged, fresh)
                copy.deserialize(fresh.serialize())
            finally:
                fresh.close()
        return problem

    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """A consistent copy of the whole journal at ``dest``, written atomically; returns ``dest``.

        SQLite's online backup API fills a temporary file beside ``dest``
        (switched to rollback-journal mode, so the copy is one self-contained
        file), which is fsynced, renamed over ``dest`` with ``os.replace``,
        and its folder fsynced: a power cut leaves the old backup or the new
        one, never half of one.
        """
        dest = Path(dest)
        tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
        for leftover in (tmp, Path(f"{tmp}-journal"), Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            if leftover.exists():
                leftover.unlink()
        try:
            _create_private(tmp)
            mem = sqlite3.connect(":memory:", isolation_level=None)
            copy = sqlite3.connect(tmp, isolation_level=None)
            try:
                self.conn.backup(mem)
                problem = self.sound_copy(mem)
                if problem is not None:
                    self.warn(_("the journal {path} is damaged ({problem}); the backup {dest} holds every action "
                                "that could be read", path=self.path, problem=problem, dest=dest.name))
                mem.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
                mem.close()
            _fsync(tmp)
            os.replace(tmp, dest)
            _fsync(dest.parent)
        except BaseException:
            if tmp.exists():
                tmp.unlink()
            raise
        return dest


def _close_gap(entries: dict[tuple[int, int], Row], game: int, seqs: list[int]) -> list[int]:
    """A game's action numbers with a gap closed when one action past it, one bit away from the gap, is
    all that keeps the numbers from running on without one (the last action's number flipped upwards)."""
    gap = next((k for k, seq in enumerate(seqs) if seq != k), None)
    if gap is None:
        return seqs
    rest = seqs[gap:]
    for k in rest:
        if (k ^ gap).bit_count() == 1 and sorted([gap] + [r for r in rest if r != k]) == list(
                range(gap, gap + len(rest))):
            entries[(game, gap)] = (game, gap) + entries.pop((game, k))[2:]
            return sorted(seq for g, seq in entries if g == game)
    return seqs


def _place_twins(entries: dict[tuple[int, int], Row], claims: dict[tuple[int, int], dict[Any, Row]]) -> None:
    """Two different sound actions under one key, and a key one bit away missing: a flipped bit in a
    key that nothing around it on its page could show (the first or last cell of a leaf). The actions
    of a game are written in order, so of the two, the earlier in time takes the lower number."""
    last: dict[int, int] = {}
    for game, seq in entries:
        last[game] = max(seq, last.get(game, seq))
    for (game, seq), rows in claims.items():
        if len(rows) != 2:
            continue
        first, second = sorted(rows.values(), key=lambda r: (r[4] is None, r[4] or 0.0))
        if first[4] is None or second[4] is None or first[4] == second[4]:
            continue
        for b in range(32):
            other = seq ^ (1 << b)
            if not 0 <= other <= last[game] + 1 or (game, other) in entries:
                continue  # the gap must be in the game's run of numbers (or right after its last)
            low, high = (first, second)
            if other < seq:
                entries[(game, other)] = (game, other) + low[2:]
                entries[(game, seq)] = high
            else:
                entries[(game, seq)] = low
                entries[(game, other)] = (game, other) + high[2:]
            break


def _copy_problem(conn: sqlite3.Connection) -> str | None:
    """What is damaged in a copy of a journal (SQLite's check, then each row's checksum), or None."""
    try:
        rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        if rows != ["ok"]:
            return "integrity check failed: " + "; ".join(rows[:3])
        for gid, game, setup, started, crc in conn.execute(
                "SELECT id, game, CAST(setup AS BLOB), started, crc FROM games"):
            if crc is not None and crc != game_crc(gid, game, setup, started):
                return f"game {gid}: its checksum does not match"
        for gid, seq, raw, crc in conn.execute("SELECT game, seq, CAST(body AS BLOB), crc FROM entries"):
            problem = _decode_row(raw, crc)[1]
            if problem is not None:
                return f"entry {seq} of game {gid}: {problem}"
    except sqlite3.DatabaseError as e:
        return str(e) or type(e).__name__
    return None


class _txn:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error, if SQLite has not already)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        elif self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the original error says more
        return False


def _create_private(path: Path) -> None:
    """Create ``path`` readable by its owner only (SQLite gives its side files the same mode)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _fsync(path: Path) -> None:
    """fsync a file or a folder (a folder's fsync makes its renames and new names durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
