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
import json
import os
import sqlite3
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

SCHEMA_VERSION = 1
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
    result TEXT
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
            if free is not None and free < _NEARLY_FULL:
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
            try:  # leaving WAL (a journal from an older version) needs it to ourselves: do not wait
                conn.execute("PRAGMA busy_timeout=0")
                conn.execute("PRAGMA journal_mode=PERSIST")
                conn.execute(f"PRAGMA journal_size_limit={1 << 20}")  # a big transaction's side file shrinks back
            except sqlite3.OperationalError as e:
                if _kind(e) != "busy":
                    raise
                self.warn(_("another process still has the journal open in WAL mode; it stays in WAL mode for now"))
            finally:
                conn.execute(f"PRAGMA busy_timeout={int(BUSY_WAIT * 1000)}")
            conn.execute("PRAGMA synchronous=FULL")
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
        if self.path.exists() and not os.access(self.path, os.R_OK | os.W_OK):
            return f"permission denied on {self.path.name}"
        return None

    def _open(self) -> sqlite3.Connection:
        why = self._writable()
        if why is not None:
            return self._open_readonly(why)
        try:
            return self._open_writable()
        except _Damaged as e:
            return self._recover(str(e))
        except (sqlite3.Error, OSError) as e:
            kind = _kind(e)
            if kind == "damaged":
                return self._recover(str(e))
            if kind == "readonly":
                return self._open_readonly(getattr(e, "strerror", None) or str(e))
            raise self._error(_("cannot open the journal"), e) from e

    def _open_writable(self) -> sqlite3.Connection:
        _create_private(self.path)
        conn = self._connect(self.path)
        try:
            self._set_mode(conn)
            rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
            if rows != ["ok"]:
                raise _Damaged("integrity check failed: " + "; ".join(rows[:3]))
            conn.executescript(_SCHEMA)
            self._check_version(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_readonly(self, why: str) -> sqlite3.Connection:
        """Read what is there without writing a byte; a damaged file is salvaged into memory."""
        self.readonly = why
        if not self.path.exists():
            conn = self._connect(":memory:")
            conn.executescript(_SCHEMA)
            return conn
        try:
            conn = self._connect(f"file:{self.path}?mode=ro", uri=True)
            rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
            if rows == ["ok"]:
                return conn
            conn.close()
            problem = "integrity check failed: " + "; ".join(rows[:3])
        except sqlite3.Error as e:
            problem = str(e)
        conn = self._connect(":memory:")
        conn.executescript(_SCHEMA)
        games, entries, held = self._salvage_into(self.path, conn)
        self.warn(_("the journal {path} is damaged ({problem}) and cannot be repaired here ({why}); showing the {games} game(s) and {entries} action(s) that could be read", path=self.path, problem=problem, why=why, games=games, entries=entries))
        return conn

    def _check_version(self, conn: sqlite3.Connection) -> None:
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif not str(row[0]).isdigit() or int(row[0]) > SCHEMA_VERSION:
            raise JournalError(
                _("{path} was written by a newer tablekeeper (schema {value}); update tablekeeper", path=self.path, value=row[0])
            )

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
            conn.execute("PRAGMA journal_mode=PERSIST")
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
        """Every row of ``damaged`` that holds, into ``conn``: (games, actions resumed, actions held)."""
        games: dict[int, Row] = {}
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
        found = salvage.scan(data, wal_data)
        for row in found.games:
            games.setdefault(row[0], row)
        for key, value in found.meta:
            meta.setdefault(key, value)
        for game, seq, raw, crc, at in found.entries:
            if (game, seq) not in entries and _decode_row(raw, crc)[1] is None:
                entries[(game, seq)] = (game, seq, raw.decode("utf-8"), crc, at)
        good_games = {}
        for gid, row in games.items():
            try:
                setup = json.loads(row[2])
                if isinstance(setup, dict) and isinstance(setup.get("game"), str):
                    good_games[gid] = row
            except (json.JSONDecodeError, RecursionError, TypeError):
                pass
        n_entries = held = 0
        with _txn(conn):
            meta.pop("schema", None)
            conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(meta.items()))
            for gid, row in sorted(good_games.items()):
                conn.execute("INSERT INTO games VALUES (?,?,?,?,?,?)", row)
                seqs = sorted(seq for g, seq in entries if g == gid)
                run = 0
                while run < len(seqs) and seqs[run] == run:
                    run += 1
                conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)",
                                 [entries[(gid, s)] for s in seqs[:run]])
                for s in seqs[run:]:
                    g, seq, body, crc, at = entries[(gid, s)]
                    conn.execute("INSERT INTO quarantine (game, seq, body, crc, at, reason) VALUES (?,?,?,?,?,?)",
                                 (g, seq, body.encode("utf-8"), crc, at, f"salvaged after action {run} was lost"))
                if seqs[run:]:  # a game cut short is not finished any more
                    conn.execute("UPDATE games SET finished=NULL, result=NULL WHERE id=?", (gid,))
                n_entries += run
                held += len(seqs) - run
        return len(good_games), n_entries, held

    def _salvage_sql(self, damaged: Path, games: dict[int, Row], entries: dict[tuple[int, int], Row],
                     meta: dict[str, str]) -> None:
        """What SQLite itself still reads of ``damaged``: row by row, seeking past what fails."""
        try:
            old = self._connect(f"file:{damaged}?mode=ro", uri=True)
        except sqlite3.Error:
            return
        try:
            for sql, sink in (
                ("SELECT key, value FROM meta", lambda r: meta.setdefault(r[0], r[1])),
                ("SELECT id, game, setup, started, finished, result FROM games ORDER BY id",
                 lambda r: games.setdefault(r[0], tuple(r))),
            ):
                try:
                    for row in old.execute(sql):
                        sink(row)
                except sqlite3.Error:
                    pass
            for gid in list(games):
                lo, misses = 0, 0
                while misses < 64:
                    try:
                        got = old.execute(
                            "SELECT game, seq, CAST(body AS BLOB), crc, at FROM entries "
                            "WHERE game=? AND seq>=? ORDER BY seq LIMIT 256", (gid, lo)).fetchall()
                    except sqlite3.Error:
                        lo, misses = lo + 1, misses + 1  # step past a page SQLite cannot read
                        continue
                    if not got:
                        break
                    for game, seq, raw, crc, at in got:
                        if _decode_row(raw, crc)[1] is None:
                            entries.setdefault((game, seq), (game, seq, raw.decode("utf-8"), crc, at))
                    lo, misses = got[-1][1] + 1, 0
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
                cur = self.conn.execute(
                    "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)", (setup["game"], body, time.time())
                )
            if cur.lastrowid is None:  # SQLite gives every inserted row its id
                raise AssertionError("the new game has no id")
            return cur.lastrowid

        return self._write(_("cannot start the game"), write)

    def games(self) -> list[GameRecord]:
        rows = self._rows("SELECT id, game, CAST(setup AS BLOB), started, finished, CAST(result AS BLOB) "
                          "FROM games ORDER BY id")
        out = []
        for gid, game, setup, started, finished, result in rows:
            try:
                setup_obj = json.loads(setup.decode("utf-8"))
                result_obj = json.loads(result.decode("utf-8")) if result else None
                if not isinstance(setup_obj, dict) or not isinstance(setup_obj.get("players"), list):
                    raise ValueError("not a setup")
            except (ValueError, RecursionError, AttributeError):
                if gid not in self._skipped_games:
                    self._skipped_games.add(gid)
                    self.warn(_("game {gid}: its setup does not decode (the journal is damaged there); it is skipped, its rows are kept", gid=gid))
                continue
            out.append(GameRecord(gid, game, setup_obj, started, finished, result_obj))
        return out

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
        expected = since
        for seq, raw, crc in rows:
            entry: dict[str, Any] | None = None
            problem: str | None = None
            if seq != expected:
                problem = _("entry {seq} is missing", seq=expected)
            else:
                entry, problem = _decode_row(raw, crc)
            if problem or entry is None:
                self.cut(game_id, expected, _("entry {seq} of game {game}: {problem}", seq=expected, game=game_id,
                                              problem=problem))
                break
            out.append((seq, entry))
            expected += 1
        return out

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
                self.conn.execute("UPDATE games SET finished=NULL, result=NULL WHERE id=?", (game_id,))
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
            copy = sqlite3.connect(tmp, isolation_level=None)
            try:
                self.conn.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
            _fsync(tmp)
            os.replace(tmp, dest)
            _fsync(dest.parent)
        except BaseException:
            if tmp.exists():
                tmp.unlink()
            raise
        return dest


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
