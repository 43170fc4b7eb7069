"""The publisher reads the journal through the engine's one reader of rows: a damaged row is put right or
reported exactly as the owner's journal does, and a row that does not hold never reaches the league."""
from __future__ import annotations

import sqlite3

import pytest

from tablekeeper.engine import Journal
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui.club.ackfile import ACK_FILE
from tablekeeper.ui.club.feed import JournalFeed
from tablekeeper.ui.club.ledger import Counts, Ledger

from ..engine.test_journal_rows import played, write_raw


def the_publishers_view(state_dir, game_id: int):
    """What the publisher's feed reads of a game: (its actions, its row), before the owner repairs anything."""
    feed = JournalFeed(state_dir / FILENAME)
    try:
        rows = feed.rows()
        assert rows is not None
        return rows.actions(game_id), rows.game(game_id)
    finally:
        feed.close()


def the_journals_view(state_dir, game_id: int):
    """What the owner's journal reads of a game (and repairs): (its entries, its record, the warnings)."""
    with Journal(state_dir) as j:
        return j.entries(game_id), j.game(game_id), j.take_warnings()


@pytest.mark.parametrize("bit", [0, 9, 100, 211, 350, "crc"])
def test_an_action_with_one_flipped_bit_reads_the_same_for_the_publisher_as_for_the_journal(state_dir, bit):
    gid = played(state_dir)
    con = sqlite3.connect(state_dir / FILENAME)
    body, crc = con.execute("SELECT CAST(body AS BLOB), crc FROM entries WHERE game=? AND seq=2", (gid,)).fetchone()
    if bit == "crc":
        crc ^= 1 << 17
    else:
        flipped = bytearray(body)
        flipped[bit // 8 % len(flipped)] ^= 1 << (bit % 8)
        body = bytes(flipped)
    con.execute("UPDATE entries SET body=?, crc=? WHERE game=? AND seq=2", (body, crc, gid))
    con.commit()
    con.close()
    read, _game = the_publishers_view(state_dir, gid)
    entries, _record, warnings = the_journals_view(state_dir, gid)
    assert [(seq, entry) for seq, entry, _at in read.sound] == entries
    assert len(entries) == 5 and read.stop is None  # put right by both, nothing cut
    assert [entry["delta"] for _seq, entry in entries] == [-1, -2, -3, -4, -5]
    assert any("one flipped bit" in w for w in warnings)


def test_an_action_whose_checksum_fails_stops_the_publisher_where_the_journal_cuts_the_game(state_dir):
    gid = played(state_dir)
    write_raw(state_dir, "UPDATE entries SET crc = (crc | 3) - (crc & 3) WHERE game=? AND seq=2", (gid,))
    read, _game = the_publishers_view(state_dir, gid)
    entries, _record, warnings = the_journals_view(state_dir, gid)
    assert [(seq, entry) for seq, entry, _at in read.sound] == entries and len(entries) == 2
    seq, problem = read.stop
    assert seq == 2 and any(f"entry 2 of game {gid}: {problem}" in w for w in warnings)


def test_an_action_whose_checksum_fails_is_never_handed_to_the_publisher(state_dir):
    gid = played(state_dir)
    write_raw(state_dir, "UPDATE entries SET crc = (crc | 3) - (crc & 3) WHERE game=? AND seq=2", (gid,))
    feed = JournalFeed(state_dir / FILENAME)
    rows = feed.rows()
    assert rows is not None
    for since in range(3):  # wherever the publisher's next batch starts, it ends before the damaged row
        read = rows.actions(gid, since=since, limit=10)
        assert all(seq < 2 for seq, _entry, _at in read.sound) and read.stop is not None and read.stop[0] == 2
    feed.close()


def test_a_game_row_with_one_flipped_bit_reads_the_same_for_the_publisher_as_for_the_journal(state_dir):
    gid = played(state_dir, 2)
    write_raw(state_dir, "UPDATE games SET setup = replace(setup, 'Ana', 'Aoa')")  # 'n' ^ 'o': one bit
    _actions, game = the_publishers_view(state_dir, gid)
    _entries, record, _warnings = the_journals_view(state_dir, gid)
    assert game is not None and game.record == record
    assert record is not None and record.setup["players"] == ["Ana", "Ben"]


def test_a_game_that_nothing_vouches_for_is_not_followed_by_the_publisher_nor_listed_by_the_journal(state_dir):
    kept = played(state_dir, 2)
    gid = played(state_dir, 2)
    write_raw(state_dir, "UPDATE games SET setup = replace(setup, 'Ana', 'Ama') WHERE id=?", (gid,))  # two bits
    write_raw(state_dir, "DELETE FROM meta WHERE key=?", (f"game:{gid}",))  # and its copy gone
    said: list[str] = []
    ledger = Ledger(state_dir / ACK_FILE, Counts(), lambda _kind, text: said.append(text), resend_after=30.0,
                    resync_after=3.0)
    feed = JournalFeed(state_dir / FILENAME)
    rows = feed.rows()
    assert rows is not None
    ledger.take_in(rows)
    feed.close()
    assert sorted(ledger.games) == [kept]
    assert any(f"game {gid}: its setup does not decode" in text for text in said)
    with Journal(state_dir) as j:
        assert [g.id for g in j.games()] == [kept]
        assert any(f"game {gid}: its setup does not decode" in w for w in j.warnings)
