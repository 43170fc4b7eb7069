"""What the journal's file holds: its tables, their version, and the checksum and copy that seal a game.

Everything that writes the journal's shape lives here: the tables' SQL (and every form SQLite has kept
of it), the schema's version in ``meta`` and in SQLite's header, a game's checksum of what never
changes in its row (with a copy of it in ``meta``), and the one transaction wrapper every write uses.
"""
from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path
from types import TracebackType
from typing import Literal

from .errors import JournalError
from .messages import _

#: 2: games carry a checksum (``crc``) of what never changes, with a copy in ``meta``; the journal is in WAL mode.
SCHEMA_VERSION = 2
FILENAME = "journal.db"
#: Seconds a writer waits for another process's transaction before giving up.
BUSY_WAIT = 10.0
#: Pages in the -wal that start a checkpoint (SQLite's default): it then holds at most ~4 MiB.
CHECKPOINT_PAGES = 1000

SCHEMA = """
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
KNOWN_SQL: dict[str, set[str | None]] = {
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


def is_copy_key(key: object) -> bool:
    """Whether a ``meta`` key names a game's copy (:data:`GAME_COPY`)."""
    if not isinstance(key, str):
        return False
    head, _sep, tail = key.partition(":")
    return head == "game" and tail.isascii() and tail.isdecimal()


def seal_game(conn: sqlite3.Connection, gid: int, game: str, setup: str, started: float) -> None:
    """Store a game's checksum and its copy in ``meta`` (inside the caller's transaction; a restore calls it
    for each game it brings in)."""
    crc = game_crc(gid, game, setup, started)
    conn.execute("UPDATE games SET crc=? WHERE id=?", (crc, gid))
    conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (GAME_COPY.format(gid=gid), json.dumps(
        {"game": game, "setup": setup, "started": started, "crc": crc}, ensure_ascii=False)))


def check_version(conn: sqlite3.Connection, path: Path) -> None:
    """The schema's version, in ``meta`` and in SQLite's header (``user_version``), of the journal ``path``.

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
            _("{path} was written by a newer tablekeeper (schema {value}); update tablekeeper", path=path, value=said)
        )
    missing = [gid for (gid,) in conn.execute("SELECT id FROM games WHERE crc IS NULL")]
    if header == SCHEMA_VERSION and number == SCHEMA_VERSION and not missing:
        return
    with txn(conn):
        for gid in missing:
            got = conn.execute("SELECT id, game, CAST(setup AS BLOB), started FROM games WHERE id=?",
                               (gid,)).fetchone()
            try:
                setup = got[2].decode("utf-8")
                json.loads(setup)
            except (UnicodeDecodeError, ValueError, RecursionError):
                continue  # damaged already: no checksum vouches for it
            seal_game(conn, gid, got[1], setup, got[3])
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


class txn:
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
