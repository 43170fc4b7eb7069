"""The durable journal: every action of every game, in SQLite.

One database file holds several games. Each action is one row, written in its
own transaction and acknowledged only once the commit has returned.

Durability: the journal runs in WAL mode with ``synchronous=FULL``
(:mod:`.journal_store`): a commit appends its pages to ``journal.db-wal`` and
fsyncs it once; once :meth:`Journal.append` returns, the action is durable
there, and the pages reach ``journal.db`` at a checkpoint. docs/reliability.md
weighs it against the rollback mode (``PERSIST``) of earlier versions, and
tests/e2e/crashsim.py rebuilds every power-cut state of a commit.

Opening decides what happened, and only damage is treated as damage (:mod:`.journal_store`): a
damaged file is rebuilt from every row whose checksum holds (:mod:`.journal_rebuild`), the original
kept aside; a file that cannot be written opens read-only; a full disk, an I/O error or a lock is a
clear :class:`JournalError`, with nothing renamed and nothing lost.

Every row is read through :mod:`.journal_rows`, the one reader the club's publisher uses too. A row
whose checksum or text does not hold (once one flipped bit is put back) is where its game stops: the
rest of that game is moved to the ``quarantine`` table (kept, never deleted), a copy of the whole
file is kept aside, and a warning says which and how many.

One writer at a time, by design: writers serialise on SQLite's lock (waiting
up to :data:`BUSY_WAIT` seconds) and :meth:`Journal.append` checks, inside its
transaction, that the action's number is the next one; if another process
wrote first, :class:`StaleJournal` tells the session to catch up and try
again instead of failing on a duplicate key.

Every warning is a sentence kept in :attr:`Journal.warnings`;
:meth:`Journal.take_warnings` hands out each one once.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .errors import JournalError, JournalReadOnly
from .journal_rebuild import sound_copy
from .journal_rows import GameRecord as GameRecord
from .journal_rows import JournalRows, Row
from .journal_schema import BUSY_WAIT as BUSY_WAIT
from .journal_schema import CHECKPOINT_PAGES as CHECKPOINT_PAGES
from .journal_schema import FILENAME as FILENAME
from .journal_schema import GAME_COPY as GAME_COPY
from .journal_schema import SCHEMA_VERSION as SCHEMA_VERSION
from .journal_schema import game_crc as game_crc
from .journal_schema import seal_game, txn
from .journal_store import JournalStore, create_private, fsync
from .messages import _

_T = TypeVar("_T")
#: The transaction every write uses (:class:`.journal_schema.txn`; engine/backup.py's name for it).
_txn = txn


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


class StaleJournal(JournalError):
    """Another process appended to this game first; the session must catch up (``next_seq``)."""

    def __init__(self, game_id: int, next_seq: int):
        super().__init__(f"game {game_id} moved on elsewhere: its next action is {next_seq}")
        self.game_id = game_id
        self.next_seq = next_seq



class Journal(JournalStore):
    """The SQLite journal in a state folder: its games and their actions.

    ``durable=False`` (used only for throw-away journals such as
    ``tablekeeper replay``'s) turns fsync off. ``readonly`` is None when the
    journal can be written, else the reason it cannot (a sentence).
    """

    seal_game = staticmethod(seal_game)

    def __init__(self, state_dir: str | os.PathLike[str] | None = None, *, durable: bool = True):
        self._skipped_games: set[int] = set()
        self._said_damage: set[tuple[str, int]] = set()
        self._data_version: int | None = None
        super().__init__(Path(state_dir) if state_dir is not None else default_state_dir(), durable=durable)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(self, fn: Callable[[JournalRows], _T]) -> _T:
        """A read through the reader of rows; a failure (the disk, a lock, damage found late) is one
        clear JournalError."""
        try:
            return fn(JournalRows(self.conn))
        except sqlite3.Error as e:
            raise self._error(_("cannot read the journal"), e) from e

    def repairs(self) -> list[tuple[str, str]]:
        """(when, what) of every repair this journal has been through."""
        return self._read(lambda rows: rows.repairs())

    def changed_elsewhere(self) -> bool:
        """True once after another process committed to the journal (``PRAGMA data_version``)."""
        try:
            v = JournalRows(self.conn).data_version()
        except sqlite3.Error:
            return False
        changed = self._data_version is not None and v != self._data_version
        self._data_version = v
        return changed

    # -- games ---------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> int:
        body = json.dumps(setup, sort_keys=True, ensure_ascii=False)

        def write() -> int:
            with txn(self.conn):
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
        out = []
        for read in self._read(lambda rows: rows.games()):
            gid = read.id
            if read.mended is not None:
                self._mend_game(read.mended)
            if read.record is None:
                if gid not in self._skipped_games:
                    self._skipped_games.add(gid)
                    self.warn(_("game {gid}: its setup does not decode (the journal is damaged there); it is skipped, its rows are kept", gid=gid))
                continue
            if read.result_damaged and ("result", gid) not in self._said_damage:
                self._said_damage.add(("result", gid))  # the game stays listed; a replay tells its result
                self.warn(_("game {gid}: its stored result is damaged; `tablekeeper doctor` works it out again "
                            "from its actions", gid=gid))
            out.append(read.record)
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
            with txn(self.conn):
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
        return self._read(lambda rows: rows.next_seq(game_id))

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
            with txn(self.conn):
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
        try:
            read = JournalRows(self.conn).actions(game_id, since)
        except sqlite3.DatabaseError as e:
            raise self._error(_("cannot read game {game}", game=game_id), e) from e
        if read.gap and self._rebuild(_("game {game} has a gap in its numbered actions", game=game_id)):
            return self.entries(game_id, since)  # a key with a flipped bit: the salvage reads it by its place
        if read.stop is not None:
            expected = since + len(read.sound)
            self.cut(game_id, expected, _("entry {seq} of game {game}: {problem}", seq=expected, game=game_id,
                                          problem=read.stop[1]))
        if read.mended:
            self._mend_entries(game_id, read.mended)
        return [(seq, entry) for seq, entry, _at in read.sound]

    def _mend_entries(self, game_id: int, mended: list[tuple[int, bytes]]) -> None:
        """Write actions put right (one flipped bit) back in place, and say so."""
        seqs = ", ".join(str(seq) for seq, _raw in mended)
        sentence = _("game {game}: action(s) {seqs} had one flipped bit each; put right from their checksums",
                     game=game_id, seqs=seqs)
        self.warn(sentence)
        if self.readonly is not None:
            return

        def write() -> None:
            with txn(self.conn):
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
            with txn(self.conn):
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
            with txn(self.conn):
                self.conn.execute("UPDATE games SET result=? WHERE id=? AND finished IS NOT NULL",
                                  (json.dumps(result, sort_keys=True), game_id))

        self._write(_("cannot repair game {game}", game=game_id), write)
        self._said_damage.discard(("result", game_id))
        self._remember_repair(self.conn, _("game {game}: its damaged result was worked out again from its actions",
                                           game=game_id))
        return aside

    def games_with_actions(self) -> list[int]:
        """The id of every game that has actions stored, listed or not (a game whose row is lost keeps them)."""
        return self._read(lambda rows: rows.games_with_actions())

    def quarantined(self) -> list[dict[str, Any]]:
        """Rows set aside by a cut or a salvage: game, seq, reason, and the action if it still decodes."""
        return self._read(lambda rows: rows.quarantined())

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
        return self._read(lambda rows: rows.meta(key))

    def meta_set(self, key: str, value: str) -> None:
        def write() -> None:
            with txn(self.conn):
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
            with txn(self.conn):
                rows = JournalRows(self.conn)
                running, count = rows.meta("running"), rows.meta("unsafe_shutdowns")
                try:
                    n = int(count) if count is not None else 0
                except ValueError:
                    n = 0
                if running is not None and running != token:
                    n += 1
                    self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('unsafe_shutdowns', ?)", (str(n),))
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('running', ?)", (token,))
            return n

        return self._write(_("cannot mark the run"), write)

    def mark_stopped(self, token: str) -> bool:
        """A clean exit: clear the marker if it is this run's (``token``); True if it was cleared."""
        def write() -> int:
            with txn(self.conn):
                return self.conn.execute("DELETE FROM meta WHERE key='running' AND value=?", (token,)).rowcount

        return self._write(_("cannot clear the run's marker"), write) > 0

    def last_finished_id(self) -> int | None:
        """The newest finished game's id (None when no game has finished)."""
        return self._read(lambda rows: rows.last_finished_id())

    def sound_copy(self, copy: sqlite3.Connection) -> str | None:
        """Make ``copy`` (a page-for-page copy of this journal) hold every sound row and nothing damaged.

        Damage found after the journal was opened travels with a page copy: when
        SQLite's integrity check, a game's checksum or an action's checksum fails
        in ``copy``, it is rebuilt from every row that holds there (the salvage:
        one flipped bit put back, actions after a lost one in the quarantine).
        Returns what was wrong, or None when the copy was sound as it was.
        """
        return sound_copy(copy, self.path)

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
            create_private(tmp)
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
            fsync(tmp)
            os.replace(tmp, dest)
            fsync(dest.parent)
        except BaseException:
            if tmp.exists():
                tmp.unlink()
            raise
        return dest

