"""The journal's SQLite file: opening it, and what opening finds.

Opening decides what happened, and only damage is treated as damage:

* damaged (SQLite says corrupt / not a database, ``quick_check`` fails, the schema's text or the
  ``-wal`` does not hold): every row whose checksum holds is salvaged into a fresh file
  (:mod:`.journal_rebuild`), the original is kept aside (``journal.db.damaged-<time>``), and a
  warning says so;
* not writable (read-only folder or file): the journal opens read-only; reading works, a write says
  which folder and why;
* full disk, I/O error, busy: a clear :class:`JournalError` and nothing renamed, nothing lost.

:class:`JournalStore` holds the connection, the warnings and the words for every error;
:class:`~tablekeeper.engine.journal.Journal` builds the games and their actions on it.
"""
from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from . import salvage
from .errors import JournalBusy, JournalError, JournalFull, JournalReadOnly
from .journal_rebuild import salvage_into
from .journal_rows import JournalRows, Row, connect, mend
from .journal_schema import (
    BUSY_WAIT,
    CHECKPOINT_PAGES,
    FILENAME,
    KNOWN_SQL,
    SCHEMA,
    check_version,
    txn,
)
from .messages import _

_T = TypeVar("_T")
#: Below this much free space an I/O error on write is taken for a full disk.
_NEARLY_FULL = 1 << 20
_SIDE_FILES = ("-journal", "-wal", "-shm")


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


class _Damaged(Exception):
    """Internal: opening found damage (the message says what)."""


class JournalStore:
    """The journal's SQLite file in the folder ``state_dir``, open: :attr:`conn`, or :attr:`readonly`
    with the reason it cannot be written (a sentence); every warning is kept in :attr:`warnings`.

    ``durable=False`` (throw-away journals only) turns fsync off.
    """

    def __init__(self, state_dir: Path, *, durable: bool = True):
        self.dir = state_dir
        self.path = self.dir / FILENAME
        self.durable = durable
        self.warnings: list[str] = []
        self._said = 0
        self._rebuilt = False
        self._wal_image = b""
        self.readonly: str | None = None
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
        create_private(self.path)
        # the -wal as found: SQLite's last close checkpoints what it could read and deletes the file,
        # and a damaged frame hides every commit after it; the salvage reads this image then
        try:
            self._wal_image = Path(f"{self.path}-wal").read_bytes()
        except OSError:
            self._wal_image = b""
        conn = connect(self.path)
        try:
            self._set_mode(conn)
            if self.durable:
                self._check_wal(conn)
            self._check_schema(conn)
            rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
            if rows != ["ok"]:
                raise _Damaged("integrity check failed: " + "; ".join(rows[:3]))
            conn.executescript(SCHEMA)
            check_version(conn, self.path)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Every object in the file is one of the journal's, with its SQL as written: else damage."""
        for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master"):
            if name not in KNOWN_SQL or sql not in KNOWN_SQL[name]:
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
            other = connect(self.path)
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
            rows = JournalRows(conn)
            have = rows.has_entries_table()
            for game, seq, raw, crc, _at in salvage.scan(b"", data[:32] + b"".join(
                    data[info.frames[k][0]:info.frames[k][0] + 24 + page_size] for k in beyond)).entries:
                if mend(raw, crc) is not None and (not have or not rows.has_action(game, seq)):
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
            conn = connect(":memory:")
            conn.executescript(SCHEMA)
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
                conn = connect(uri, uri=True)
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
        conn = connect(":memory:")
        conn.executescript(SCHEMA)
        games, entries, held = salvage_into(self.path, conn, wal_image=self._wal_image)
        if problem and "unable to open" not in problem:
            self.warn(_("the journal {path} is damaged ({problem}) and cannot be repaired here ({why}); showing the {games} game(s) and {entries} action(s) that could be read", path=self.path, problem=problem, why=why, games=games, entries=entries))
        return conn

    # -- repairs ----------------------------------------------------------------
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
            create_private(fresh)
            conn = connect(fresh)
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.executescript(SCHEMA)
            check_version(conn, self.path)
            games, entries, held = salvage_into(self.path, conn, wal_image=self._wal_image)
            conn.close()
            fsync(fresh)
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
        fsync(self.dir)
        conn = connect(self.path)
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

    def _remember_repair(self, conn: sqlite3.Connection, sentence: str) -> None:
        """Keep the repair's sentence in ``meta`` for ``tablekeeper doctor``."""
        try:
            with txn(conn):
                conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                             (f"repair:{time.strftime('%Y-%m-%dT%H:%M:%S')}:{os.getpid()}", sentence))
        except sqlite3.Error:
            pass

    def keep_copy_aside(self) -> Path | None:
        """Copy the whole journal aside (SQLite online backup); its path, or None if it could not be made."""
        aside = self._aside_name()
        try:
            create_private(aside)
            dst = sqlite3.connect(aside)
            try:
                with dst:
                    self.conn.backup(dst)
            finally:
                dst.close()
            fsync(self.dir)
        except (sqlite3.Error, OSError):
            aside.unlink(missing_ok=True)
            return None
        return aside

    # -- the connection --------------------------------------------------------
    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

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


def create_private(path: Path) -> None:
    """Create ``path`` readable by its owner only (SQLite gives its side files the same mode)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def fsync(path: Path) -> None:
    """fsync a file or a folder (a folder's fsync makes its renames and new names durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)