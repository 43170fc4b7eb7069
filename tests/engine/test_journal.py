"""The durable journal and sessions."""
from __future__ import annotations

import json
import os
import sqlite3

import pytest

from tablekeeper.engine import Journal, JournalError, RuleError, Session, canonical
from tablekeeper.engine.journal import FILENAME, default_state_dir

OPTS = {"counters": [{"name": "life", "start": 10, "out_at": 0}]}


def play(session, n=5):
    for i in range(n):
        session.apply({"action": "adjust", "player": "Ana" if i % 2 else "Ben", "counter": "life", "delta": -1})


def test_an_acknowledged_action_is_synced_to_the_write_ahead_log_at_its_commit(journal):
    """WAL with synchronous=FULL: each commit appends to the -wal and fsyncs it before it returns."""
    assert journal.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_state_dir_from_environment_and_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("TABLEKEEPER_STATE_DIR", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_state_dir() == tmp_path / "xdg" / "tablekeeper"
    monkeypatch.setenv("TABLEKEEPER_STATE_DIR", str(tmp_path / "env"))
    assert default_state_dir() == tmp_path / "env"
    j = Journal()
    assert j.path == tmp_path / "env" / FILENAME and j.path.exists()
    j.close()


def test_resume_exactly_where_it_was_including_undo_and_redo(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 6)
        s.apply({"action": "undo"})
        s.apply({"action": "undo"})
        s.apply({"action": "redo"})
        live = canonical(s.state)
        done, undone = list(s.match.done), list(s.match.undone)
    with Journal(state_dir) as j:
        r = Session.resume(j)
        assert canonical(r.state) == live
        assert (r.match.done, r.match.undone) == (done, undone)
        r.apply({"action": "redo"})  # the undone action survived the restart too
        assert len(r.match.done) == 6


def test_acknowledged_only_after_commit(journal, monkeypatch):
    s = Session.new(journal, "counters", ["Ana", "Ben"], OPTS)
    before = canonical(s.state)

    def broken(*a, **kw):
        raise JournalError("disk full")

    monkeypatch.setattr(journal, "append", broken)
    with pytest.raises(JournalError):
        s.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    assert canonical(s.state) == before and s.match.done == []


def test_refused_action_is_not_journalled(journal):
    s = Session.new(journal, "counters", ["Ana", "Ben"], OPTS)
    with pytest.raises(RuleError):
        s.apply({"action": "adjust", "player": "Zed", "counter": "life", "delta": -1})
    assert journal.entries(s.game_id) == []


def test_several_games_finished_ones_stay_readable(state_dir):
    with Journal(state_dir) as j:
        a = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        a.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -10})  # Ben wins
        b = Session.new(j, "counters", ["Cai", "Dan"], OPTS)
        play_b = {"action": "adjust", "player": "Cai", "counter": "life", "delta": -3}
        b.apply(play_b)
    with Journal(state_dir) as j:
        games = j.games()
        assert [g.finished is not None for g in games] == [True, False]
        assert games[0].result == {"winners": ["Ben"], "draw": False}
        assert Session.resume(j).game_id == b.game_id
        old = Session.load(j, a.game_id)
        assert old.view()["winners"] == ["Ben"]
        assert [h["text"] for h in old.history()] == ["Ana: life -10"]


def test_undoing_the_final_action_reopens_the_game(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        s.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -10})
        assert j.games()[0].finished is not None
        s.apply({"action": "undo"})
        assert j.games()[0].finished is None
        assert Session.resume(j).game_id == s.game_id


def test_damaged_row_resumes_from_last_good_action_and_keeps_the_file(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 6)
        good = [canonical(x) for x in s.match.done[:3]]
        gid = s.game_id
    con = sqlite3.connect(state_dir / FILENAME)
    con.execute("UPDATE entries SET body = '{\"action\": \"adj' WHERE game=? AND seq=3", (gid,))
    con.commit()
    con.close()
    with Journal(state_dir) as j:
        s = Session.resume(j)
        assert [canonical(x) for x in s.match.done] == good
        assert any("entry 3 of game" in w and "resumes from the last good action" in w for w in s.warnings)
        aside = [p for p in os.listdir(state_dir) if ".damaged-" in p]
        assert aside, "the damaged journal must be kept aside"
        # the copy aside still holds all six entries
        con = sqlite3.connect(state_dir / aside[0])
        assert con.execute("SELECT count(*) FROM entries").fetchone()[0] == 6
        con.close()
        # and play goes on from the good part
        s.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    with Journal(state_dir) as j:
        assert len(Session.resume(j).match.done) == 4
        assert not j.warnings


def test_checksum_mismatch_is_damage_too(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 4)
    con = sqlite3.connect(state_dir / FILENAME)
    # still valid JSON, but not what was written: -1 became -7 (two bits: more than one flip mends)
    con.execute("UPDATE entries SET body = replace(body, '-1', '-7') WHERE seq=2")
    con.commit()
    con.close()
    with Journal(state_dir) as j:
        s = Session.resume(j)
        assert len(s.match.done) == 2
        assert any("checksum" in w for w in s.warnings)


def test_one_flipped_bit_in_an_action_is_put_back_from_its_checksum(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 4)
        played = [canonical(e) for e in s.match.done]
    con = sqlite3.connect(state_dir / FILENAME)
    con.execute("UPDATE entries SET body = replace(body, '-1', '-9') WHERE seq=2")  # '1' ^ '9' is one bit
    con.commit()
    con.close()
    with Journal(state_dir) as j:
        s = Session.resume(j)
        assert [canonical(e) for e in s.match.done] == played and j.quarantined() == []
        assert any("one flipped bit" in w and "put right" in w for w in s.warnings)
    with Journal(state_dir) as j:  # mended in place: said once
        assert [canonical(e) for e in Session.resume(j).match.done] == played and not j.warnings


def test_a_file_that_is_not_a_database_is_kept_aside_with_a_message(state_dir):
    (state_dir / FILENAME).write_bytes(b"this is not sqlite at all" * 100)
    with Journal(state_dir) as j:
        assert any("was damaged" in w and "kept as" in w for w in j.warnings)
        assert Session.resume(j) is None
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)  # the fresh journal works
        play(s, 2)
    aside = [p for p in os.listdir(state_dir) if ".damaged-" in p]
    assert aside and (state_dir / aside[0]).read_bytes().startswith(b"this is not sqlite")


def test_torn_database_salvages_the_readable_rows(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], {"counters": [{"name": "life", "start": 100}]})
        play(s, 300)
        played = [canonical(e) for e in s.match.done]
        j.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = state_dir / FILENAME
    data = bytearray(path.read_bytes())
    page = 4096
    # scribble over the last page (part of the entries b-tree) but keep the header
    data[-page + 100:] = b"\xff" * (page - 100)
    path.write_bytes(bytes(data))
    with Journal(state_dir) as j:
        s = Session.resume(j) or Session.load(j, j.games()[0].id)
        assert any("was damaged" in w and "recovered 1 game(s)" in w for w in j.warnings)
        # what was salvaged is a non-empty prefix of what was played, and it replays
        kept = [canonical(e) for e in s.match.done]
        assert 0 < len(kept) <= 300 and kept == played[:len(kept)]


def test_a_row_that_no_longer_replays_stops_the_game_there(state_dir):
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 4)
        from tablekeeper.engine.journal import _encode
        body, crc = _encode({"action": "adjust", "player": "Nobody", "counter": "life", "delta": 1})
        j.conn.execute("UPDATE entries SET body=?, crc=? WHERE seq=1", (body, crc))
    with Journal(state_dir) as j:
        s = Session.resume(j)
        assert len(s.match.done) == 1
        assert any("does not replay" in w for w in s.warnings)


def test_history_names_who_acted_when_the_action_leaves_it_implicit(journal):
    """The history "in words": an action without "player" is told with the player whose turn it was."""
    s = Session.new(journal, "counters", ["Ana", "Ben"], OPTS)
    first = s.apply({"action": "next"})
    assert first.text == "Ana: next"
    s.apply({"action": "next"})
    s.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    s.apply({"action": "undo"})
    texts = [h["text"] for h in s.history()]
    assert texts == ["Ana: next", "Ben: next", "Ana: life -1", "undo"]
    assert [h["seq"] for h in s.history(since=2)] == [2, 3]


def test_a_rebuilt_journal_keeps_the_unsafe_shutdown_count(state_dir):
    """The unsafe-shutdown counter lives in the journal: a damaged file's rebuild keeps it."""
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], {"counters": [{"name": "life", "start": 100}]})
        play(s, 300)
        j.mark_running("run 1")
        j.mark_running("run 2")  # run 1 never stopped: one unsafe shutdown
        assert j.unsafe_shutdowns() == 1
        j.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = state_dir / FILENAME
    data = bytearray(path.read_bytes())
    data[-4096 + 100:] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))
    with Journal(state_dir) as j:
        assert any("was damaged" in w for w in j.warnings)
        assert j.unsafe_shutdowns() == 1


def test_a_damaged_action_is_not_replaced_by_a_later_one_whose_number_is_one_bit_away(state_dir, tmp_path):
    """A rebuild mends a last action whose number flipped upwards into a gap (4 for 0: one bit). It took a sound
    last action for such a one when the gap was an action the journal still holds, damaged: a generated game's
    «resolve», four actions past a damaged drink, took the drink's number, the actions between were kept after
    it, and the game no longer replayed (its backup's restore was refused). The damaged action is lost and the
    game is cut there; the actions after it are held in the quarantine, none renumbered."""
    from tablekeeper.engine.journal_rebuild import salvage_into
    from tablekeeper.engine.journal_schema import SCHEMA

    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, 7)  # actions 0–6: 6 is one bit from 2
        played = [canonical(e) for e in s.match.done]
        gid = s.game_id
    con = sqlite3.connect(state_dir / FILENAME)
    con.execute("UPDATE entries SET body = replace(body, '-1', '-7') WHERE game=? AND seq=2", (gid,))  # two bits
    con.commit()
    con.close()
    fresh = sqlite3.connect(tmp_path / "rebuilt.db")
    fresh.executescript(SCHEMA)
    salvage_into(state_dir / FILENAME, fresh)
    kept = [json.loads(b) for (b,) in fresh.execute("SELECT body FROM entries WHERE game=? ORDER BY seq", (gid,))]
    held = [seq for (seq,) in fresh.execute("SELECT seq FROM quarantine WHERE game=? ORDER BY seq", (gid,))]
    assert [canonical(e) for e in kept] == played[:2]  # not played[:2] + [played[6]]
    assert held == [3, 4, 5, 6]
