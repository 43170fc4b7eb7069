"""Back up the whole journal into one file, and merge such a file back in.

A backup is one SQLite database: a copy of the journal (its ``meta``,
``games``, ``entries`` and ``quarantine`` tables, the roster among the
``meta`` rows) plus one table, ``tablekeeper_backup``, holding one row: the
manifest, a JSON object::

    {"format": "tablekeeper-backup", "version": 1, "app": "0.1.0", "schema": 1,
     "table_id": "5f0c…", "table_name": "kitchen-pi", "created": "2026-12-01T07:50:02Z",
     "created_ts": 1796111402.1, "games": 12, "finished": 11, "entries": 5230, "people": 6,
     "sha256": "…"}

``sha256`` is taken over every row of the four journal tables (in key order,
each value with its type: exact for text, numbers and blobs), so a flipped byte
in what a restore reads is found even where SQLite's own ``integrity_check``
sees a well-formed page. ``table_id`` is the journal's own id (``meta``
``table_id``, made at its first backup): it says where a backup comes from.
The file is also a journal: copied to ``journal.db`` it opens as one.

:func:`back_up` copies the live journal page by page with SQLite's online
backup API through a connection of its own (a few hundred pages at a time, so
the table keeps playing meanwhile: a press waits a few milliseconds at most),
into memory, compacts it there, and writes it out as
:func:`write_atomic` does: a temporary file beside the final name, fsynced,
renamed, the folder fsynced. A stick pulled mid-write leaves the temporary
file (removed on the error when the stick is still there) and never half a
file under the final name.

:func:`restore` merges a backup into the journal, in one transaction, without
duplicating a play: a game is the same game when its *identity* is —
:func:`game_identity`, a hash of its game, its setup and the moment it was set
up (to the last bit of the stored float). Nothing is added to the journal for
this: files from before backups merge the same way. For a game both sides
have, the longer history wins when the other is its beginning (a backup taken
mid-game, a game played on after it); two histories that part ways are left
as the journal has them, and said. The roster is merged too: people the
journal does not know are added, names a person is stored under are joined
to the journal's person. A restore twice changes nothing the second time (the
second one does not even write).

Refused, with a :class:`RestoreRefused` whose sentence says why and that
nothing was changed: a file that is not a tablekeeper backup ("from
elsewhere"), one of a newer format, a damaged one (its checksum, SQLite's
``integrity_check``, a truncated file, an action whose own checksum fails, a
manifest field missing or not of the kind this tablekeeper writes), and one
holding a game it would bring in that this device could not play on (its setup
refused by the engine, an action that does not replay): whatever a restore
accepts, ``serve`` and the app can resume.
A copy of a journal without a manifest (the appliance's automatic backups,
``journal-*.db``) is accepted, checked by SQLite and by every action's own
checksum.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import socket
import sqlite3
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard
from urllib.parse import quote

from . import roster as people
from .errors import RuleError, TablekeeperError
from .journal import SCHEMA_VERSION, Journal, _txn
from .match import Match
from .messages import N_, Msg, _, listing
from .registry import known, make_rules
from .text import check_value

FORMAT = "tablekeeper-backup"
VERSION = 1
MANIFEST_TABLE = "tablekeeper_backup"
#: The ``meta`` key of the journal's own id.
TABLE_ID_KEY = "table_id"
SUFFIX = ".db"
PREFIX = "tablekeeper-backup-"
#: Pages copied per step of SQLite's online backup (the live journal's lock is let go in between).
STEP_PAGES = 256
_JOURNAL_TABLES = (("meta", "key"), ("games", "id"), ("entries", "game, seq"), ("quarantine", "id"))
_SQLITE_MAGIC = b"SQLite format 3\x00"
#: ``meta`` rows that belong to the run, not to the games: not carried into a backup.
_RUN_KEYS = ("running",)
#: What each field of a format-1 manifest holds, as :func:`snapshot` writes it: ``text`` (plain text,
#: at most 120 characters: :func:`~.text.check_value`), ``moment`` (UTC, ``2026-12-01T07:53:55Z``),
#: ``number`` (finite), ``version`` (a whole number from 1), ``count`` (a whole number from 0), ``hex``
#: (a SHA-256 in hex). A field missing or of another kind is damage: nothing this tablekeeper writes.
_MANIFEST_FIELDS = {"app": "text", "schema": "version", "table_id": "text", "table_name": "text",
                    "created": "moment", "created_ts": "number", "games": "count", "finished": "count",
                    "entries": "count", "people": "count", "sha256": "hex"}
_MOMENT = "%Y-%m-%dT%H:%M:%SZ"


class BackupError(TablekeeperError, OSError):
    """A backup could not be written (the sentence says where and why; no half file was left)."""


def refusal_reason(why: str) -> Msg:
    """What a refusal's kind means, for people: "it is damaged" (``why``: :class:`RestoreRefused`'s)."""
    return {"elsewhere": _("it is not a tablekeeper backup"),
            "newer": _("it was written by a newer tablekeeper"),
            "damaged": _("it is damaged"),
            "unreadable": _("it cannot be read")}[why]


class RestoreRefused(TablekeeperError, ValueError):
    """A file that is not restored; nothing was changed. ``why`` is one of ``elsewhere``, ``newer``,
    ``damaged``, ``unreadable``; the message (a :class:`~.messages.Msg`) is the sentence for people,
    ``detail`` the reason's own message ("its checksum does not match its content")."""

    def __init__(self, path: Path, why: str, detail: str):
        super().__init__(_("{path}: not restored, nothing was changed: {what} ({detail})", path=str(path),
                           what=refusal_reason(why), detail=detail))
        self.path = path
        self.why = why
        self.detail = detail


@dataclass
class BackupInfo:
    """A backup file written by :func:`back_up`, or read by :func:`read_manifest`."""

    path: Path
    manifest: dict[str, Any]

    @property
    def games(self) -> int:
        return int(self.manifest.get("games", 0))

    @property
    def finished(self) -> int:
        return int(self.manifest.get("finished", 0))

    def sentence(self) -> Msg:
        m = self.manifest
        people_n = m.get("people", 0)
        return _("{path}: {finished} and {games}, {people}, from {table} at {created}", path=str(self.path),
                 finished=N_("{n} finished play", "{n} finished plays", self.finished),
                 games=N_("{n} game in all", "{n} games in all", self.games),
                 people=N_("{n} person", "{n} people", people_n if isinstance(people_n, int) else 0),
                 table=m.get("table_name") or _("this table"), created=m.get("created", "?"))

    def made_sentence(self) -> Msg:
        """What a backup just made says: how much went into it, and where."""
        return _("backed up {finished}, {games}, to {path}", path=str(self.path),
                 finished=N_("{n} finished play", "{n} finished plays", self.finished),
                 games=N_("{n} game in all", "{n} games in all", self.games))


@dataclass
class RestoreReport:
    """What a restore did (or, with nothing to do, would have done: nothing)."""

    path: Path
    source: dict[str, Any]  # the backup's manifest ({"format": "journal copy"} for a bare journal copy)
    added: list[int] = field(default_factory=list)  # the journal's numbers of the games brought in
    extended: list[int] = field(default_factory=list)  # games the backup had further along
    already: int = 0  # games the journal already had (as far as the backup, or further)
    diverged: list[int] = field(default_factory=list)  # games whose histories part ways: kept as they were
    unfinished_skipped: int = 0  # unfinished games left out (``unfinished=False``)
    people_added: list[str] = field(default_factory=list)
    names_joined: int = 0  # stored names joined to a person the journal already had

    @property
    def changed(self) -> bool:
        return bool(self.added or self.extended or self.people_added or self.names_joined)

    def to_dict(self) -> dict[str, Any]:
        return {"file": str(self.path), "source": self.source, "added": self.added, "extended": self.extended,
                "already": self.already, "diverged": self.diverged, "unfinished_skipped": self.unfinished_skipped,
                "people_added": self.people_added, "names_joined": self.names_joined, "changed": self.changed}

    def sentence(self) -> Msg:
        src = self.source
        where: Msg | str = src.get("table_name") or _("a journal copy")
        if src.get("created"):
            where = _("{table}, made {created}", table=where, created=src["created"])
        parts: list[Msg] = [N_("{n} game brought in", "{n} games brought in", len(self.added)),
                            N_("{n} brought up to date", "{n} brought up to date", len(self.extended)),
                            N_("{n} already here", "{n} already here", self.already)]
        if self.people_added or self.names_joined:
            parts.append(N_("{n} new person in the roster", "{n} new people in the roster", len(self.people_added)))
        if self.names_joined:
            parts.append(N_("{n} name joined to a person already there", "{n} names joined to people already there",
                            self.names_joined))
        if self.unfinished_skipped:
            parts.append(N_("{n} unfinished game left out", "{n} unfinished games left out", self.unfinished_skipped))
        if self.diverged:
            parts.append(N_("game {games} went on differently here and in the backup: kept as it is here",
                            "games {games} went on differently here and in the backup: kept as they are here",
                            len(self.diverged), games=", ".join(map(str, self.diverged))))
        if not self.changed:
            parts.append(_("nothing to change"))
        return _("restored {file} (from {source}): {parts}", file=self.path.name, source=where,
                 parts=listing(parts, "; "))


# -- identity ---------------------------------------------------------------------------
def game_identity(game: str, setup: Any, started: float) -> str:
    """A game's identity across devices: its game, its setup (canonical JSON) and the moment it was set
    up (the stored float, to the bit). The journal's game number is not one: each device counts its own."""
    text = json.dumps([game, setup, float(started).hex()], sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


# -- the table's id ---------------------------------------------------------------------
def table_id(journal: Journal) -> str:
    """The journal's own id (made and stored at the first call on a writable journal; a read-only
    journal without one gets a new one each time, said as such in its backups)."""
    current = journal.meta_get(TABLE_ID_KEY)
    if current:
        return current
    new = uuid.uuid4().hex
    if journal.readonly is None:
        journal.meta_set(TABLE_ID_KEY, new)
    return new


# -- checksums -------------------------------------------------------------------------------
def content_hash(conn: sqlite3.Connection) -> str:
    """SHA-256 over every row of the journal's tables, in key order: each row as Python writes the tuple
    of its values (``repr``, text read as bytes), which keeps each value's type and every bit of it."""
    old = conn.text_factory
    conn.text_factory = bytes
    try:
        h = hashlib.sha256()
        for table, order in _JOURNAL_TABLES:
            h.update(table.encode("ascii") + b"\0")
            cur = conn.execute(f"SELECT * FROM {table} ORDER BY {order}")  # noqa: S608 (fixed names)
            while rows := cur.fetchmany(4096):
                h.update("\n".join(map(repr, rows)).encode("ascii", "backslashreplace"))
                h.update(b"\n")
        return h.hexdigest()
    finally:
        conn.text_factory = old


def _counts(conn: sqlite3.Connection) -> dict[str, int]:
    games, finished = conn.execute("SELECT count(*), count(finished) FROM games").fetchone()
    entries = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    return {"games": int(games), "finished": int(finished), "entries": int(entries)}


# -- writing -----------------------------------------------------------------------------
def write_atomic(path: str | os.PathLike[str], data: bytes, mode: int = 0o600) -> Path:
    """``data`` at ``path``, whole or not at all: a temporary file beside it, fsynced, renamed over it,
    the folder fsynced (a folder that refuses an fsync, as FAT through some drivers does, is let be).
    On failure the temporary file is removed (if the stick is still there) and the error raised.
    ``mode``: the new file's permissions (a backup: the owner's only)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass  # the stick is gone: the temporary name is all that can be left
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return path
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
    return path


def backup_name(manifest: dict[str, Any]) -> str:
    """``tablekeeper-backup-<UTC time>-<first 8 of the table id>.db``: sorts by time, FAT-safe."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(manifest["created_ts"]))
    return f"{PREFIX}{stamp}-{manifest['table_id'][:8]}{SUFFIX}"


def _app_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - the standard library has it since 3.8
        return "unknown"
    try:
        return version("tablekeeper")
    except PackageNotFoundError:
        return "unknown"


def _source(journal: Journal) -> sqlite3.Connection:
    """A connection of the backup's own on the journal file (the app's connection goes on meanwhile);
    the journal's own one for a read-only journal (it may live in memory: a salvage)."""
    if journal.readonly is not None:  # nobody here writes it, and a damaged one is read from its salvage
        return journal.conn
    try:
        return sqlite3.connect(f"file:{quote(str(journal.path))}?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error:
        return journal.conn


def snapshot(journal: Journal, *, now: float | None = None,
             on_step: Callable[[int, int], object] | None = None) -> tuple[bytes, dict[str, Any]]:
    """The backup file's bytes and its manifest, made in memory from the live journal. ``on_step(remaining,
    total)`` (pages) is called after each step of the copy (a progress bar; the journal is free then)."""
    tid = table_id(journal)
    src = _source(journal)
    mem = sqlite3.connect(":memory:", isolation_level=None)
    try:
        try:
            src.backup(mem, pages=STEP_PAGES,
                       progress=None if on_step is None else lambda _status, left, total: on_step(left, total))
        finally:
            if src is not journal.conn:
                src.close()
        problem = journal.sound_copy(mem)
        if problem is not None:
            journal.warn(_("the journal {path} is damaged ({problem}); the backup holds every action that could "
                           "be read", path=journal.path, problem=problem))
        mem.executemany("DELETE FROM meta WHERE key=?", [(k,) for k in _RUN_KEYS])
        created = time.time() if now is None else now
        raw_roster = mem.execute("SELECT value FROM meta WHERE key=?", (people.META_KEY,)).fetchone()
        try:
            n_people = len(people.Roster.from_json(raw_roster[0]).people) if raw_roster else 0
        except (ValueError, KeyError, TypeError, people.RosterError):
            n_people = 0
        manifest: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "app": _app_version(), "schema": SCHEMA_VERSION,
            "table_id": tid, "table_name": socket.gethostname(),
            "created": time.strftime(_MOMENT, time.gmtime(created)), "created_ts": created,
            **_counts(mem), "people": n_people, "sha256": content_hash(mem)}
        mem.execute(f"CREATE TABLE {MANIFEST_TABLE} (manifest TEXT NOT NULL)")
        mem.execute(f"INSERT INTO {MANIFEST_TABLE} VALUES (?)",
                    (json.dumps(manifest, ensure_ascii=False, sort_keys=True),))
        mem.execute("VACUUM")  # no free pages: the file is as small as it can be
        return mem.serialize(), manifest
    finally:
        mem.close()


def back_up(journal: Journal, folder: str | os.PathLike[str], *, now: float | None = None,
            on_step: Callable[[int, int], object] | None = None) -> BackupInfo:
    """Back the whole journal up into a new file in ``folder`` (made if missing); returns it.

    BackupError with a sentence when the folder cannot be written (a full or pulled stick): no
    file is left half-written under the final name."""
    folder = Path(folder)
    try:
        data, manifest = snapshot(journal, now=now, on_step=on_step)
    except sqlite3.Error as e:
        raise BackupError(_("cannot read the journal {path} to back it up: {error}", path=str(journal.path),
                            error=str(e))) from e
    dest = folder / backup_name(manifest)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(dest, data)
    except OSError as e:
        raise BackupError(_("cannot write the backup to {folder}: {error} (no file was left half-written)",
                            folder=str(folder), error=e.strerror or str(e))) from e
    return BackupInfo(dest, manifest)


def backups_in(folder: str | os.PathLike[str]) -> list[Path]:
    """The backup files in ``folder`` (by name: :func:`back_up`'s), newest first; [] when none or no folder."""
    try:
        return sorted((p for p in Path(folder).glob(f"{PREFIX}*{SUFFIX}") if p.is_file()), reverse=True)
    except OSError:
        return []


# -- reading a backup -----------------------------------------------------------------------
@dataclass
class _Backup:
    conn: sqlite3.Connection
    manifest: dict[str, Any] | None  # None: a journal copy without a manifest


def _open_backup(path: Path) -> _Backup:
    """The backup in memory, every check passed; RestoreRefused otherwise."""
    def refuse(why: str, detail: str) -> RestoreRefused:
        return RestoreRefused(path, why, detail)

    try:
        data = path.read_bytes()
    except OSError as e:
        raise refuse("unreadable", e.strerror or str(e)) from None  # the system's own words
    if not data.startswith(_SQLITE_MAGIC):
        if len(data) < len(_SQLITE_MAGIC) and data and _SQLITE_MAGIC.startswith(data):
            raise refuse("damaged", N_("the file is cut short: {n} byte", "the file is cut short: {n} bytes",
                                        len(data)))
        raise refuse("elsewhere", _("not an SQLite database"))
    if len(data) < 100:
        raise refuse("damaged", N_("the file is cut short: {n} byte", "the file is cut short: {n} bytes",
                                        len(data)))
    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(data[28:32], "big")
    if pages and page_size and len(data) < pages * page_size:
        raise refuse("damaged", N_("the file is cut short: {size} of {n} byte", "the file is cut short: {size} of {n} bytes",
                                    pages * page_size, size=len(data)))
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    try:
        try:
            conn.deserialize(data)
            tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as e:
            raise refuse("damaged", _("SQLite: {error}", error=str(e))) from None
        is_journal = {"meta", "games", "entries", "quarantine"} <= tables
        manifest: dict[str, Any] | None = None
        if MANIFEST_TABLE in tables:
            try:
                row = conn.execute(f"SELECT manifest FROM {MANIFEST_TABLE}").fetchone()
                manifest = json.loads(row[0]) if row else None
            except (sqlite3.Error, ValueError, TypeError) as e:
                raise refuse("damaged", _("its manifest does not read: {error}", error=str(e))) from None
            if not isinstance(manifest, dict):
                raise refuse("damaged", _("its manifest is not one"))
            if manifest.get("format") != FORMAT:
                raise refuse("elsewhere", _("its manifest says {format}", format=_clip(manifest.get("format"))))
            version = manifest.get("version")
            if not _is_whole(version) or version < 1:
                raise refuse("damaged", _("its manifest has no format version ({version})", version=_clip(version)))
            if version > VERSION:  # a newer format: its other fields may be anything, and are not looked at
                app = manifest.get("app")
                raise refuse("newer", _("backup format {version}, tablekeeper {app}; this tablekeeper reads "
                                        "format {reads}: update it", version=version, reads=VERSION,
                                        app=app if _field_holds("text", app) else "?"))
            problem = _manifest_problem(manifest)
            if problem is not None:
                raise refuse("damaged", problem)
        if not is_journal:
            raise refuse("elsewhere" if manifest is None else "damaged",
                         _("no tablekeeper journal in it") if manifest is None
                         else _("its journal tables are missing"))
        try:
            schema = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.Error as e:
            raise refuse("damaged", _("SQLite: {error}", error=str(e))) from None
        if manifest is None and schema is None:
            raise refuse("elsewhere", _("no tablekeeper journal in it"))
        # the manifest's schema (a whole number: checked above) and the journal's own ("1" in its meta)
        for value in ([manifest["schema"]] if manifest is not None else []) + ([schema[0]] if schema else []):
            number = _schema_number(value)
            if number is None:
                raise refuse("damaged", _("its journal schema is not a number ({schema})", schema=_clip(value)))
            if number > SCHEMA_VERSION:
                raise refuse("newer", _("journal schema {schema}; this tablekeeper reads schema {reads}: update it",
                                        schema=number, reads=SCHEMA_VERSION))
        try:
            problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        except sqlite3.Error as e:
            raise refuse("damaged", _("SQLite: {error}", error=str(e))) from None
        if problems != ["ok"]:
            raise refuse("damaged", _("SQLite's integrity check: {problems}", problems="; ".join(problems[:2])))
        try:
            if manifest is not None:
                if content_hash(conn) != manifest.get("sha256"):
                    raise refuse("damaged", _("its checksum does not match its content"))
                counts = _counts(conn)
                wrong = [k for k, v in counts.items() if manifest.get(k) != v]
                if wrong:
                    raise refuse("damaged", _("its manifest's counts do not match ({fields})", fields=", ".join(wrong)))
        except sqlite3.Error as e:
            raise refuse("damaged", _("SQLite: {error}", error=str(e))) from None
        return _Backup(conn, manifest)
    except BaseException:
        conn.close()
        raise


def _is_whole(value: object) -> TypeGuard[int]:
    """A whole number as JSON and SQLite give one (``True`` is not one, nor ``1.0``, nor ``"1"``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _field_holds(kind: str, value: object) -> bool:
    """Whether a manifest field's ``value`` is what :func:`snapshot` writes for its ``kind``
    (:data:`_MANIFEST_FIELDS`)."""
    if kind == "text":
        try:
            check_value(value)
        except RuleError:
            return False
        return isinstance(value, str)
    if kind == "moment":
        if not isinstance(value, str):
            return False
        try:
            time.strptime(value, _MOMENT)
        except ValueError:
            return False
        return True
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "version":
        return _is_whole(value) and value >= 1
    if kind == "count":
        return _is_whole(value) and value >= 0
    if kind == "hex":
        return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    raise AssertionError(f"no manifest field kind {kind!r}")


def _manifest_problem(manifest: dict[str, Any]) -> Msg | None:
    """What is wrong with a format-1 manifest's fields (the first field missing or not of its kind), or None."""
    for name, kind in _MANIFEST_FIELDS.items():
        if name not in manifest:
            return _("its manifest has no {field}", field=name)
        if not _field_holds(kind, manifest[name]):
            return _("its manifest's {field} is not valid ({value})", field=name, value=_clip(manifest[name]))
    if manifest["finished"] > manifest["games"]:
        return _("its manifest's {field} is not valid ({value})", field="finished", value=_clip(manifest["finished"]))
    return None


def _schema_number(value: object) -> int | None:
    """A journal schema as a number: a whole number, or its ASCII digits as the journal's ``meta`` keeps
    it ("1"); None for anything else (``"²"`` is a digit to :meth:`str.isdigit`, not to :class:`int`)."""
    if _is_whole(value):
        return value
    if isinstance(value, str) and 0 < len(value) <= 9 and value.isascii() and value.isdigit():
        return int(value)
    return None


def _clip(value: object) -> str:
    """A value as a refusal quotes it: its ``repr``, at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def read_manifest(path: str | os.PathLike[str]) -> BackupInfo:
    """A backup's manifest, after every check a restore makes (RestoreRefused as a restore would)."""
    path = Path(path)
    backup = _open_backup(path)
    try:
        if backup.manifest is not None:
            return BackupInfo(path, backup.manifest)
        try:
            return BackupInfo(path, {"format": "journal copy", **_counts(backup.conn)})
        except sqlite3.Error as e:
            raise RestoreRefused(path, "damaged", _("SQLite: {error}", error=str(e))) from None
    finally:
        backup.conn.close()


@dataclass
class _Game:
    number: int  # the backup's own number for it (what a refusal names)
    identity: str
    game: str
    setup: str
    started: float
    finished: float | None
    result: str | None
    entries: list[tuple[int, str, int, float]]  # seq, body, crc, at
    actions: list[dict[str, Any]]  # the bodies, decoded


def _is_time(value: object) -> bool:
    """A moment as the journal stores one: a finite number (seconds since the epoch)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _backup_games(path: Path, conn: sqlite3.Connection) -> list[_Game]:
    """Every game of the backup with its actions, each action's checksum checked and its body decoded,
    each column of the type the journal writes; RestoreRefused on damage."""
    def damaged(detail: str) -> RestoreRefused:
        return RestoreRefused(path, "damaged", detail)

    by_game: dict[object, list[tuple[int, str, int, float]]] = {}
    actions: dict[object, list[dict[str, Any]]] = {}
    for gid, seq, raw, crc, at in conn.execute(
            "SELECT game, seq, CAST(body AS BLOB), crc, at FROM entries ORDER BY game, seq"):
        if not isinstance(raw, bytes) or not _is_whole(crc) or zlib.crc32(raw) != crc:
            raise damaged(_("action {seq} of its game {game}: its checksum does not match", seq=_clip(seq),
                            game=_clip(gid)))
        try:
            body = raw.decode("utf-8")
            action = json.loads(body)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested past Python's limit
            action = None
        if not isinstance(action, dict) or not _is_whole(seq) or not _is_time(at):
            raise damaged(_("action {seq} of its game {game} does not decode", seq=_clip(seq), game=_clip(gid)))
        by_game.setdefault(gid, []).append((seq, body, crc, float(at)))
        actions.setdefault(gid, []).append(action)
    out = []
    for gid, game, setup, started, finished, result in conn.execute(
            "SELECT id, game, setup, started, finished, result FROM games ORDER BY id"):
        try:
            if not _is_whole(gid) or not isinstance(game, str) or not isinstance(setup, str) \
                    or not (result is None or isinstance(result, str)):
                raise ValueError  # said just below, as a refusal
            setup_obj = json.loads(setup)
            if not isinstance(setup_obj, dict) or not isinstance(setup_obj.get("players"), list):
                raise ValueError
            if result is not None:
                json.loads(result)
        except (ValueError, TypeError, RecursionError):
            raise damaged(_("its game {game}'s setup or result does not decode", game=_clip(gid))) from None
        rows = by_game.pop(gid, [])
        if [r[0] for r in rows] != list(range(len(rows))):
            raise damaged(_("its game {game} has a gap in its actions", game=gid))
        if not _is_time(started):
            raise damaged(_("its game {game} has no start time", game=gid))
        if finished is not None and not _is_time(finished):
            raise damaged(_("its game {game}'s end time is not a time ({value})", game=gid, value=_clip(finished)))
        out.append(_Game(gid, game_identity(game, setup_obj, started), game, setup, float(started),
                         None if finished is None else float(finished), result, rows, actions.pop(gid, [])))
    if by_game:
        raise RestoreRefused(path, "damaged", N_("actions of a game it does not have ({games})",
                                                 "actions of games it does not have ({games})", len(by_game),
                                                 games=", ".join(map(_clip, by_game))))
    return out


def _refuse_unplayable(path: Path, g: _Game) -> None:
    """RestoreRefused unless ``g`` is a game this device can play on: its setup builds the rules (the
    engine's own checks: a known game, its player count, names that differ, its options) and every one
    of its actions replays from it, as :meth:`~.session.Session.load` replays a game when ``serve`` or
    the app resumes it. A tablekeeper never stores a game that does not; one that does not replay here
    would stop ``serve`` at every start (a setup refused) or be cut short by it (an action refused)."""
    setup = json.loads(g.setup)  # decoded once already (_backup_games): a dict with a list of players
    if setup.get("game") != g.game:
        raise RestoreRefused(path, "damaged", _("its game {game} is stored as {stored} but set up as {setup}",
                                                game=g.number, stored=_clip(g.game), setup=_clip(setup.get("game"))))
    if not known(g.game):
        raise RestoreRefused(path, "newer", _("its game {game} is {name}, a game this tablekeeper does not "
                                              "know: update it", game=g.number, name=_clip(g.game)))
    try:
        rules = make_rules(setup)
    except RuleError as e:  # SetupError: the sentence the engine says to a table set up so
        raise RestoreRefused(path, "damaged", _("its game {game} cannot be set up here: {why}", game=g.number,
                                                why=_said(e))) from None
    try:
        used = Match(rules).load(g.actions)  # stops at the first action that does not replay
    except Exception as e:  # the rules could not even refuse it: serve could not resume the game either
        raise RestoreRefused(path, "damaged", _("its game {game} does not replay here ({why})", game=g.number,
                                                why=_crash(e))) from None
    if used == len(g.actions):
        return
    why: str = _("it is not a valid action")
    try:  # say why, in the rules' own words (as Session.load does)
        probe = Match(rules)
        probe.load(g.actions[:used])
        probe.propose(g.actions[used])
    except RuleError as e:
        why = _said(e)
    except Exception as e:
        why = _crash(e)
    raise RestoreRefused(path, "damaged", _("its game {game} does not replay here (action {seq}: {why})",
                                            game=g.number, seq=used, why=why))


def _crash(e: BaseException) -> str:
    """An error the engine did not mean (not a RuleError), as a refusal quotes it."""
    return _said(e) if isinstance(e, TablekeeperError) else f"{type(e).__name__}: {str(e)[:80]}"


def _backup_roster(path: Path, conn: sqlite3.Connection) -> people.Roster | None:
    row = conn.execute("SELECT value FROM meta WHERE key=?", (people.META_KEY,)).fetchone()
    if row is None:
        return None
    try:
        return people.Roster.from_json(row[0])
    except people.NewerRoster as e:
        raise RestoreRefused(path, "newer", e.args[0]) from None
    except (ValueError, KeyError, TypeError, people.RosterError) as e:
        raise RestoreRefused(path, "damaged", _("its roster does not decode ({error})", error=_said(e))) from None


def _said(e: BaseException) -> str:
    """An error's sentence: its message when it carries one (translated with the refusal), else its text."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Msg) else str(e)


# -- merging ---------------------------------------------------------------------------------
def merge_roster(mine: people.Roster, theirs: people.Roster) -> tuple[list[str], int]:
    """Bring ``theirs``'s people into ``mine``: (the names of the people added, how many stored names
    were joined to a person ``mine`` had). The journal's own people keep their names, colours and
    seats; what they lack (a usual seat, a BoardGameGeek name) is taken from the backup."""
    added: list[str] = []
    joined = 0
    for person in theirs.people:
        names = [person.name] + [a for a in person.aliases if a != person.name]
        match = next((p for n in names if (p := mine.find(n)) is not None), None)
        if match is None:  # none of their names is taken here: the person as they are
            aliases = list(dict.fromkeys(person.aliases + [person.name]))
            mine.people.append(people.Person(person.name, aliases, person.colour, person.seat, person.bgg_user))
            added.append(person.name)
            continue
        for n in names:
            if mine.find(n) is None:
                match.aliases.append(n)
                joined += 1
        if match.seat is None and person.seat is not None:
            match.seat = person.seat
        if not match.bgg_user and person.bgg_user:
            match.bgg_user = person.bgg_user
    return added, joined


def restore(journal: Journal, path: str | os.PathLike[str], *, unfinished: bool = True) -> RestoreReport:
    """Merge the backup at ``path`` into ``journal`` in one transaction; returns what it did.

    RestoreRefused (nothing changed) for a file from elsewhere, of a newer format, or damaged;
    the journal's own errors (JournalReadOnly, JournalFull, JournalBusy) as a write raises them.
    ``unfinished=False`` leaves the backup's unfinished games out (the table's current game stays
    the one a restart resumes: the newest unfinished game is).

    Whatever a restore brings in, the device can play on: each game it would add or bring up to date
    must set up and replay here as ``serve`` and the app resume a game (:func:`_refuse_unplayable`).
    One that does not refuses the whole file, naming the game, rather than leaving that game out:
    tablekeeper never writes such a game, so the file was made or changed by something else (its
    checksums are no guard: whoever changed it could write them again) and none of it is to be
    trusted; and a restore that brings in part of a backup, while the person believes they got all
    of it, is worse than one that brings in nothing and says why. The journal is not touched, the
    game being played goes on, and ``--finished-only`` still restores a backup whose unfinished game
    is the only one refused (it is not brought in, so not checked)."""
    path = Path(path)
    backup = _open_backup(path)
    try:
        incoming = _backup_games(path, backup.conn)
        their_roster = _backup_roster(path, backup.conn)
        source = backup.manifest or {"format": "journal copy"}
    except sqlite3.Error as e:  # a table of another shape than the journal's: not a column where it should be
        raise RestoreRefused(path, "damaged", _("SQLite: {error}", error=str(e))) from None
    finally:
        backup.conn.close()
    report = RestoreReport(path, source)
    if journal.readonly is not None:
        journal._write(_("cannot restore the backup"), lambda: None)  # raises JournalReadOnly, with the reason
    mine = {game_identity(g.game, g.setup, g.started): g.id for g in journal.games()}
    plan_new: list[_Game] = []
    plan_more: list[tuple[int, _Game, int]] = []  # local id, the backup's game, actions the journal has
    for g in incoming:
        local = mine.get(g.identity)
        if local is None:
            if g.finished is None and not unfinished:
                report.unfinished_skipped += 1
            else:
                plan_new.append(g)
            continue
        have = [r[0] for r in journal._rows("SELECT CAST(body AS BLOB) FROM entries WHERE game=? ORDER BY seq",
                                            (local,))]
        theirs = [body.encode("utf-8") for _seq, body, _crc, _at in g.entries]
        if theirs[:len(have)] == have and len(theirs) > len(have):
            plan_more.append((local, g, len(have)))
        elif have[:len(theirs)] == theirs:
            report.already += 1
        else:
            report.diverged.append(local)
    for g in plan_new + [g for _local, g, _have in plan_more]:
        _refuse_unplayable(path, g)
    roster = people.read(journal)
    if their_roster is not None:
        if roster.read_only is not None:
            raise RestoreRefused(path, "newer", _("this journal's roster is newer than this tablekeeper: {why}",
                                                  why=roster.read_only))
        report.people_added, report.names_joined = merge_roster(roster, their_roster)
    if not (plan_new or plan_more or report.people_added or report.names_joined):
        return report

    def write() -> None:
        with _txn(journal.conn) as conn:
            for g in plan_new:
                cur = conn.execute("INSERT INTO games (game, setup, started, finished, result) VALUES (?,?,?,?,?)",
                                   (g.game, g.setup, g.started, g.finished, g.result))
                gid = cur.lastrowid
                if gid is not None:  # its checksum and copy, as a game started here has them
                    journal.seal_game(conn, gid, g.game, g.setup, g.started)
                conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)",
                                 [(gid, seq, body, crc, at) for seq, body, crc, at in g.entries])
                report.added.append(int(gid or 0))
            for local, g, have in plan_more:
                conn.executemany("INSERT INTO entries VALUES (?,?,?,?,?)",
                                 [(local, seq, body, crc, at) for seq, body, crc, at in g.entries[have:]])
                conn.execute("UPDATE games SET finished=?, result=? WHERE id=?", (g.finished, g.result, local))
                report.extended.append(local)
            if report.people_added or report.names_joined:
                conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (people.META_KEY, roster.to_json()))

    try:
        journal._write(_("cannot restore the backup"), write)
    except BaseException:
        report.added.clear()
        report.extended.clear()
        raise
    return report
