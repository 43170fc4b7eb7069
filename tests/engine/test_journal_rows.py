"""The one reader of journal rows (engine/journal_rows.py): it only reads, and says what each row holds."""
from __future__ import annotations

import sqlite3

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine.journal import FILENAME
from tablekeeper.engine.journal_rows import JournalRows, open_readonly

OPTS = {"counters": [{"name": "life", "start": 10, "out_at": 0}]}


def played(state_dir, n: int = 5) -> int:
    """A game of ``n`` actions (deltas -1, -2, ...) in the journal of ``state_dir``; its id."""
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        for i in range(n):
            s.apply({"action": "adjust", "player": "Ana" if i % 2 else "Ben", "counter": "life", "delta": -i - 1})
        return s.game_id


def write_raw(state_dir, sql: str, params: tuple = ()) -> None:
    con = sqlite3.connect(state_dir / FILENAME)
    con.execute(sql, params)
    con.commit()
    con.close()


def stored(state_dir, sql: str, params: tuple = ()) -> list[tuple]:
    con = sqlite3.connect(state_dir / FILENAME)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


@pytest.fixture
def reader(state_dir):
    """A reader on a read-only connection, opened when first asked for (after the test's damage)."""
    conns: list[sqlite3.Connection] = []

    def make() -> JournalRows:
        conns.append(open_readonly(state_dir / FILENAME))
        return JournalRows(conns[-1])

    yield make
    for conn in conns:
        conn.close()


def test_an_action_with_one_flipped_bit_is_read_put_right_and_the_file_is_left_as_it_was(state_dir, reader):
    gid = played(state_dir)
    write_raw(state_dir, "UPDATE entries SET body = replace(body, '-3', '-1') WHERE seq=2")  # '3' ^ '1': one bit
    before = stored(state_dir, "SELECT CAST(body AS BLOB), crc FROM entries WHERE game=? AND seq=2", (gid,))
    read = reader().actions(gid)
    assert [seq for seq, _entry, _at in read.sound] == [0, 1, 2, 3, 4] and read.stop is None
    assert [entry["delta"] for entry in read.entries] == [-1, -2, -3, -4, -5]
    assert [seq for seq, _body in read.mended] == [2]
    assert stored(state_dir, "SELECT CAST(body AS BLOB), crc FROM entries WHERE game=? AND seq=2", (gid,)) == before


def test_the_read_only_connection_refuses_every_write(state_dir, reader):
    played(state_dir, 1)
    rows = reader()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        rows.conn.execute("DELETE FROM entries")


def test_the_first_action_whose_checksum_fails_ends_the_list_with_what_is_wrong(state_dir, reader):
    gid = played(state_dir)
    write_raw(state_dir, "UPDATE entries SET crc = (crc | 3) - (crc & 3) WHERE seq=2")  # two bits: not mended
    read = reader().actions(gid)
    assert [seq for seq, _entry, _at in read.sound] == [0, 1]
    assert read.stop == (2, "its checksum does not match") and read.mended == [] and not read.gap


def test_a_missing_action_is_a_gap_where_the_list_stops(state_dir, reader):
    gid = played(state_dir)
    write_raw(state_dir, "DELETE FROM entries WHERE seq=2")
    read = reader().actions(gid)
    assert [seq for seq, _entry, _at in read.sound] == [0, 1]
    assert read.stop == (3, "entry 2 is missing") and read.gap


def test_a_limited_read_starts_at_the_number_asked_and_reads_no_further(state_dir, reader):
    gid = played(state_dir)
    read = reader().actions(gid, since=1, limit=2)
    assert [seq for seq, _entry, _at in read.sound] == [1, 2] and read.stop is None and not read.gap


def test_a_game_row_with_one_flipped_bit_comes_back_from_its_copy_without_a_write(state_dir, reader):
    gid = played(state_dir, 2)
    write_raw(state_dir, "UPDATE games SET setup = replace(setup, 'Ana', 'Aoa')")  # 'n' ^ 'o': one bit
    read = reader().game(gid)
    assert read is not None and read.record is not None and read.mended is not None
    assert read.record.setup["players"] == ["Ana", "Ben"] and '"Ana"' in read.mended[2]  # the setup to write back
    assert "Aoa" in stored(state_dir, "SELECT setup FROM games WHERE id=?", (gid,))[0][0]


def test_a_game_that_nothing_vouches_for_is_read_as_lost(state_dir, reader):
    gid = played(state_dir, 2)
    write_raw(state_dir, "UPDATE games SET setup = replace(setup, 'Ana', 'Ama')")  # 'n' ^ 'm': two bits
    write_raw(state_dir, "DELETE FROM meta WHERE key=?", (f"game:{gid}",))  # and its copy gone
    rows = reader()
    assert [(read.id, read.record) for read in rows.games()] == [(gid, None)]
    assert rows.next_seq(gid) == 2  # its actions are kept
