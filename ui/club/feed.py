"""The publisher's read-only view of the journal: a connection of its own, and the engine's reader on it.

One short read at a time on the publisher's thread, never a write (``mode=ro``: the journal keeps its
one writer). Every row comes through :class:`~tablekeeper.engine.journal_rows.JournalRows`, so the
publisher sees each game and action exactly as the owner's journal does.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ...engine.journal_rows import JournalRows, open_readonly


class JournalFeed:
    """The journal at ``path``, read only: opened once the file exists, closed after a failed read (the
    next look opens it again) or when the file was replaced."""

    def __init__(self, path: Path):
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) of the journal the connection reads
        self.version: int | None = None  # the journal's ``data_version`` at the last look taken in

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    def rows(self) -> JournalRows | None:
        """The reader of the journal's rows; None while there is no journal file."""
        if self._conn is None:
            try:
                st = os.stat(self.path)
            except FileNotFoundError:
                return None
            self._conn = open_readonly(self.path)
            self._file = (st.st_dev, st.st_ino)
        return JournalRows(self._conn)

    def same_file(self) -> bool:
        """Whether the journal is still the file this connection reads: a damaged journal repaired on
        opening is replaced by a fresh file (engine/journal_store.py), and the old one must not be read on."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._file

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self.version = None
