"""The durable journal: every action of every game, in SQLite.

One database file holds several games. Each action is one row, written in its
own transaction (WAL mode, ``synchronous=FULL``), so an action is durable once
:meth:`Journal.append` returns; only then is it shown as done.

Damage never silently loses the good part:

* a file SQLite cannot open or that fails ``PRAGMA quick_check`` is moved
  aside (``journal.db.damaged-<time>``), the rows that can still be read are
  copied into a fresh file, and a warning says so;
* a row whose checksum or JSON does not match is where its game stops: the
  whole file is first copied aside, then that row and the ones after it are
  removed from the live journal, with a warning.

Every warning is a sentence kept in :attr:`Journal.warnings`.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from .errors import JournalError

SCHEMA_VERSION = 1
FILENAME = "journal.db"

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
"""


def default_state_dir() -> Path:
    """``$TABLEKEEPER_STATE_DIR``, else ``$XDG_STATE_HOME/tablekeeper``, else ``~/.local/state/tablekeeper``."""
    env = os.environ.get("TABLEKEEPER_STATE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(xdg) / "tablekeeper"


def _encode(obj) -> tuple[str, int]:
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return body, zlib.crc32(body.encode("utf-8"))


@dataclass
class GameRecord:
    id: int
    game: str
    setup: dict  # {"game": ..., "players": [...], "options": {...}}
    started: float
    finished: float | None
    result: dict | None


class Journal:
    """The SQLite journal in a state folder.

    ``durable=False`` (used only for throw-away journals such as
    ``tablekeeper replay``'s) turns fsync off.
    """

    def __init__(self, state_dir: str | os.PathLike | None = None, *, durable: bool = True):
        self.dir = Path(state_dir) if state_dir is not None else default_state_dir()
        self.path = self.dir / FILENAME
        self.durable = durable
        self.warnings: list[str] = []
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create the state folder {self.dir}: {e.strerror}") from e
        self.conn = self._open_checked()

    # -- opening -------------------------------------------------------------
    def _connect(self, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'OFF'}")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _open_checked(self) -> sqlite3.Connection:
        try:
            conn = self._connect(self.path)
            row = conn.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                conn.close()
                raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
            conn.executescript(_SCHEMA)
            self._check_version(conn)
            return conn
        except sqlite3.DatabaseError as e:
            return self._recover(e)

    def _check_version(self, conn: sqlite3.Connection) -> None:
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer tablekeeper (schema {row[0]}); update tablekeeper"
            )

    def _aside_name(self) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        candidate = self.path.with_name(f"{FILENAME}.damaged-{stamp}")
        i = 1
        while candidate.exists():
            candidate = self.path.with_name(f"{FILENAME}.damaged-{stamp}-{i}")
            i += 1
        return candidate

    def _recover(self, error: Exception) -> sqlite3.Connection:
        aside = self._aside_name()
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                os.replace(src, Path(str(aside) + suffix))
        _fsync_dir(self.dir)
        conn = self._connect(self.path)
        conn.executescript(_SCHEMA)
        self._check_version(conn)
        saved_games, saved_entries = self._salvage(aside, conn)
        self.warnings.append(
            f"the journal {self.path} was damaged ({error}); it is kept as {aside.name}; "
            f"recovered {saved_games} game(s) and {saved_entries} action(s) into a fresh journal"
        )
        return conn

    def _salvage(self, damaged: Path, conn: sqlite3.Connection) -> tuple[int, int]:
        """Copy every row still readable from ``damaged`` into ``conn``."""
        try:
            old = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
            games = old.execute("SELECT id, game, setup, started, finished, result FROM games").fetchall()
        except sqlite3.DatabaseError:
            return 0, 0
        try:  # the appliance's counters (unsafe shutdowns, ...) survive a rebuild too
            meta = old.execute("SELECT key, value FROM meta WHERE key != 'schema'").fetchall()
        except sqlite3.DatabaseError:
            meta = []
        if meta:
            with _txn(conn):
                conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta)
        n_games = n_entries = 0
        for g in games:
            rows = []
            try:
                for row in old.execute(
                    "SELECT game, seq, body, crc, at FROM entries WHERE game=? ORDER BY seq", (g[0],)
                ):
                    rows.append(row)
            except sqlite3.DatabaseError:
                pass  # keep what was read before the damage
            with _txn(conn):
                conn.execute("INSERT INTO games VALUES (?,?,?,?,?,?)", g)
                conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)", rows)
            n_games += 1
            n_entries += len(rows)
        old.close()
        return n_games, n_entries

    def keep_copy_aside(self) -> Path:
        """Copy the whole journal aside (SQLite online backup); returns its path."""
        aside = self._aside_name()
        dst = sqlite3.connect(aside)
        with dst:
            self.conn.backup(dst)
        dst.close()
        _fsync_dir(self.dir)
        return aside

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- games ---------------------------------------------------------------
    def new_game(self, setup: dict) -> int:
        body = json.dumps(setup, sort_keys=True, ensure_ascii=False)
        with _txn(self.conn):
            cur = self.conn.execute(
                "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)", (setup["game"], body, time.time())
            )
        return cur.lastrowid

    def games(self) -> list[GameRecord]:
        rows = self.conn.execute("SELECT id, game, setup, started, finished, result FROM games ORDER BY id")
        out = []
        for gid, game, setup, started, finished, result in rows:
            try:
                setup_obj = json.loads(setup)
                result_obj = json.loads(result) if result else None
            except json.JSONDecodeError:
                self.warnings.append(f"game {gid}: its setup does not decode; it is skipped")
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
    def append(self, game_id: int, seq: int, entry: dict, *, result: dict | None = None,
               reopen: bool = False) -> None:
        """Write one entry durably; when it returns, the entry is acknowledged.

        ``result`` marks the game finished in the same transaction; ``reopen``
        marks it unfinished again (an undo of the final action).
        """
        body, crc = _encode(entry)
        now = time.time()
        try:
            with _txn(self.conn):
                self.conn.execute("INSERT INTO entries VALUES (?,?,?,?,?)", (game_id, seq, body, crc, now))
                if result is not None:
                    self.conn.execute(
                        "UPDATE games SET finished=?, result=? WHERE id=?",
                        (now, json.dumps(result, sort_keys=True), game_id),
                    )
                elif reopen:
                    self.conn.execute("UPDATE games SET finished=NULL, result=NULL WHERE id=?", (game_id,))
        except sqlite3.Error as e:
            raise JournalError(f"cannot write the journal {self.path}: {e}") from e

    def entries(self, game_id: int) -> list[tuple[int, dict]]:
        """The game's entries in order, up to the first damaged one.

        A damaged row (checksum or JSON) stops the list: the file is copied
        aside, the damaged row and those after it are removed, and a warning
        says which.
        """
        out: list[tuple[int, dict]] = []
        rows = self.conn.execute("SELECT seq, body, crc FROM entries WHERE game=? ORDER BY seq", (game_id,))
        expected = 0
        for seq, body, crc in rows.fetchall():
            problem = None
            if seq != expected:
                problem = f"entry {expected} is missing"
            elif not isinstance(body, str) or zlib.crc32(body.encode("utf-8", "replace")) != crc:
                problem = "its checksum does not match"
            else:
                try:
                    entry = json.loads(body)
                except json.JSONDecodeError as e:
                    problem = f"it does not decode ({e.msg})"
            if problem:
                self.cut(game_id, seq if seq == expected else expected, f"entry {seq} of game {game_id}: {problem}")
                break
            out.append((seq, entry))
            expected += 1
        return out

    def cut(self, game_id: int, from_seq: int, why: str) -> Path:
        """Keep a copy aside, then drop entries ``from_seq`` onwards of a game."""
        aside = self.keep_copy_aside()
        with _txn(self.conn):
            n = self.conn.execute(
                "DELETE FROM entries WHERE game=? AND seq>=?", (game_id, from_seq)
            ).rowcount
            self.conn.execute("UPDATE games SET finished=NULL, result=NULL WHERE id=?", (game_id,))
        self.warnings.append(
            f"{why}; the game resumes from the last good action ({from_seq} kept, {n} removed); "
            f"the damaged journal is kept as {aside.name}"
        )
        return aside

    # -- the appliance (issue #10): boot check, unsafe shutdowns, backups ------
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
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def meta_set(self, key: str, value: str) -> None:
        with _txn(self.conn):
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

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

    def mark_stopped(self, token: str) -> bool:
        """A clean exit: clear the marker if it is this run's (``token``); True if it was cleared."""
        with _txn(self.conn):
            n = self.conn.execute("DELETE FROM meta WHERE key='running' AND value=?", (token,)).rowcount
        return n > 0

    def last_finished_id(self) -> int | None:
        """The newest finished game's id (None when no game has finished)."""
        row = self.conn.execute("SELECT max(id) FROM games WHERE finished IS NOT NULL").fetchone()
        return row[0] if row else None

    def backup(self, dest: str | os.PathLike) -> Path:
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
            copy = sqlite3.connect(tmp, isolation_level=None)
            try:
                self.conn.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, dest)
            _fsync_dir(dest.parent)
        except BaseException:
            if tmp.exists():
                tmp.unlink()
            raise
        return dest


class _txn:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
