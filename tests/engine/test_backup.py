"""Backup and restore of the whole journal: one file out, merged back in without a play twice,
refusals that change nothing, and no half file under the final name when the stick goes."""
from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import sys
import zlib
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.engine import backup as bk
from tablekeeper.engine import records as rec
from tablekeeper.engine import roster as people
from tablekeeper.engine.errors import JournalReadOnly
from tablekeeper.engine.journal import FILENAME

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402

ADD = {"action": "adjust", "player": "Ana", "counter": "score", "delta": 1}


def _device(folder: Path, seed: int, start: float, n: int) -> Path:
    with Journal(folder, durable=False) as j:
        playgen.generate(j, n, seed=seed, start=start)
    return folder / FILENAME


@pytest.fixture(scope="module")
def device_a(tmp_path_factory):
    """Table A: 12 real finished games, Ana renamed "Ana María", an unfinished game of counters."""
    folder = tmp_path_factory.mktemp("device-a")
    _device(folder, 5, 1.7e9, 12)
    with Journal(folder, durable=False) as j:
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        roster.update("Ben", bgg_user="ben_plays")
        people.save(j, roster)
        s = Session.new(j, "counters", ["Ana", "Ben"])
        s.apply(ADD)
    Journal(folder).close()  # opened once as the device opens it (WAL mode, this version's schema)
    return folder / FILENAME


@pytest.fixture(scope="module")
def device_b(tmp_path_factory):
    """Table B: 8 other real finished games (another night, other seeds), Zoe in its roster, and Ana (whether
    or not the generated games seated her: they follow the pods' offers, which change)."""
    folder = tmp_path_factory.mktemp("device-b")
    _device(folder, 9, 1.75e9, 8)
    with Journal(folder, durable=False) as j:
        roster, _ = people.load(j)
        roster.add("Zoe", seat=2, bgg_user="zoe_bgg")
        if roster.find("Ana") is None:
            roster.add("Ana")
        roster.update("Cai", seat=4)
        people.save(j, roster)
    Journal(folder).close()  # opened once as the device opens it (WAL mode, this version's schema)
    return folder / FILENAME


def copy_of(template: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, folder / FILENAME)
    return folder


def backup_of(state: Path, to: Path) -> Path:
    with Journal(state) as j:
        return bk.back_up(j, to).path


def people_plays(state: Path) -> list[rec.Play]:
    with Journal(state) as j:
        roster = people.read(j)
        plays = rec.stored_plays(j)
    return rec.with_people(plays, roster.person_of)


def stats(state: Path) -> dict:
    return rec.statistics(people_plays(state))


def histories(state: Path) -> dict[str, list[dict]]:
    """Each game by its identity: its setup, start, finish, result and actions (numbers aside)."""
    with Journal(state) as j:
        return {bk.game_identity(g.game, g.setup, g.started):
                [g.setup, g.started, g.finished, g.result, [e for _s, e in j.entries(g.id)]]
                for g in j.games()}


def without_ids(plays: list[rec.Play]) -> list[rec.Play]:
    return sorted((p._replace(id=0) for p in plays), key=lambda p: (p.started, p.game))


def restore(state: Path, path: Path, **kw) -> bk.RestoreReport:
    with Journal(state) as j:
        return bk.restore(j, path, **kw)


# -- round trips -------------------------------------------------------------------------
def test_backup_restored_into_an_empty_journal_is_the_same_plays_statistics_and_roster(device_a, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    path = backup_of(a, tmp_path / "stick")
    report = restore(tmp_path / "fresh", path)
    assert len(report.added) == len(histories(a)) == 13 and report.changed
    assert histories(tmp_path / "fresh") == histories(a)
    assert without_ids(people_plays(tmp_path / "fresh")) == without_ids(people_plays(a))
    assert stats(tmp_path / "fresh") == stats(a)
    assert stats(a)["players"]["Ana María"]["*"]["plays"] > 0
    with Journal(a) as ja, Journal(tmp_path / "fresh") as jf:
        assert people.read(jf).to_json() == people.read(ja).to_json()
        # the unfinished game comes back as the one a restart resumes, with its action
        resumed = Session.resume(jf)
        assert resumed is not None and resumed.record.game == "counters"
        assert resumed.state["players"][0]["counters"]["score"] == 1


def test_the_manifest_says_where_when_and_how_much(device_a, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    with Journal(a) as j:
        info = bk.back_up(j, tmp_path / "stick", now=1_800_000_000.5)
        tid = j.meta_get(bk.TABLE_ID_KEY)
        n_people = len(people.read(j).people)
    m = info.manifest
    assert m["format"] == bk.FORMAT and m["version"] == bk.VERSION and m["app"]
    assert m["table_id"] == tid and len(tid) == 32
    assert m["created"] == "2027-01-15T08:00:00Z"
    assert (m["games"], m["finished"], m["people"]) == (13, 12, n_people) and n_people >= 4
    assert info.path.name == f"tablekeeper-backup-20270115-080000-{tid[:8]}.db"
    assert bk.read_manifest(info.path).manifest == m
    assert bk.backups_in(tmp_path / "stick") == [info.path]
    with Journal(a) as j:  # the table keeps its id from one backup to the next
        assert bk.back_up(j, tmp_path / "stick").manifest["table_id"] == tid


def test_a_backup_is_itself_a_journal(device_a, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    path = backup_of(a, tmp_path / "stick")
    copy_of(path, tmp_path / "as-journal")
    assert without_ids(people_plays(tmp_path / "as-journal")) == without_ids(people_plays(a))
    with Journal(tmp_path / "as-journal") as j:
        assert j.unsafe_shutdowns() == 0 and j.quick_check() == []


def test_restoring_twice_adds_nothing_and_writes_nothing_the_second_time(device_a, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    path = backup_of(a, tmp_path / "stick")
    first = restore(tmp_path / "fresh", path)
    before = (tmp_path / "fresh" / FILENAME).read_bytes()
    second = restore(tmp_path / "fresh", path)
    assert first.changed and not second.changed
    assert second.added == [] and second.already == 13 and second.people_added == []
    assert "nothing to change" in second.sentence()
    assert (tmp_path / "fresh" / FILENAME).read_bytes() == before
    # into the table it came from: every play is already there
    third = restore(a, path)
    assert not third.changed and third.already == 13
    assert len(people_plays(tmp_path / "fresh")) == len(people_plays(a)) == 12


@pytest.mark.slow
def test_two_tables_backups_merge_into_one_with_every_play_once(device_a, device_b, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    b = copy_of(device_b, tmp_path / "b")
    pa, pb = backup_of(a, tmp_path / "stick"), backup_of(b, tmp_path / "stick")
    restore(tmp_path / "both", pa)
    restore(tmp_path / "both", pb)
    merged = histories(tmp_path / "both")
    assert merged == {**histories(a), **histories(b)} and len(merged) == 13 + len(histories(b))
    # each table takes the other's: the same games on both, in any order, once
    restore(a, pb)
    restore(b, pa)
    assert histories(a) == histories(b) == merged
    # statistics over the merged journal are those over both tables' plays together
    together = without_ids(people_plays(tmp_path / "both"))
    assert together == without_ids(people_plays(a))
    assert len(together) == 12 + 8
    # B keeps its own people's names: A's "Ana María" is joined to B's "Ana" (the same stored name)
    with Journal(b) as j:
        assert people.read(j).find("Ana María").name == "Ana"
    renamed = [p._replace(seats=tuple(s._replace(name="Ana" if s.name == "Ana María" else s.name)
                                      for s in p.seats)) for p in together]
    assert without_ids(people_plays(b)) == renamed
    with Journal(tmp_path / "both") as j:
        roster = people.read(j)
    assert roster.find("Ana").name == "Ana María"  # A's rename, for B's games stored as "Ana" too
    zoe = roster.find("Zoe")
    assert zoe is not None and (zoe.seat, zoe.bgg_user) == (2, "zoe_bgg")
    ana_plays = [p for p in together if any(s.name == "Ana María" for s in p.seats)]
    assert len(ana_plays) == rec.statistics(together)["players"]["Ana María"]["*"]["plays"]


def test_roster_merge_keeps_the_journals_people_and_takes_what_they_lack():
    mine = people.Roster()
    mine.add("Ana", colour=3)
    mine.add("Ben", colour=1)
    theirs = people.Roster()
    theirs.add("Ana María", colour=5, seat=2, bgg_user="ana_m")
    theirs.rename("Ana María", "Ana María")
    theirs.people[0].aliases.append("Ana")
    theirs.add("Ben", colour=6, seat=1)
    theirs.add("Zoe", colour=7)
    added, joined = bk.merge_roster(mine, theirs)
    assert added == ["Zoe"] and joined == 1
    ana = mine.find("Ana María")
    assert ana is mine.find("Ana") and ana.name == "Ana" and ana.colour == 3
    assert (ana.seat, ana.bgg_user) == (2, "ana_m")
    assert mine.find("Ben").colour == 1 and mine.find("Ben").seat == 1
    assert bk.merge_roster(mine, theirs) == ([], 0)


# -- a game further along on one side ----------------------------------------------------------
def test_a_game_played_on_after_the_backup_is_brought_up_to_date_not_doubled(tmp_path):
    x = tmp_path / "x"
    with Journal(x) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        s.apply(ADD)
        early = bk.back_up(j, tmp_path / "stick", now=1.9e9).path
        s.apply(ADD)
        s.apply(ADD)
        late = bk.back_up(j, tmp_path / "stick", now=1.9e9 + 60).path
    y = tmp_path / "y"
    restore(y, early)
    report = restore(y, late)
    assert report.extended == [1] and report.added == []
    assert histories(y) == histories(x)
    with Journal(y) as j:
        assert Session.load(j, 1).state["players"][0]["counters"]["score"] == 3
    # the older backup into the table that went on: nothing to do
    older = restore(x, early)
    assert not older.changed and older.already == 1


def test_histories_that_part_ways_are_kept_as_they_are_here_and_said(tmp_path):
    x, y = tmp_path / "x", tmp_path / "y"
    with Journal(x) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        s.apply(ADD)
        first = bk.back_up(j, tmp_path / "stick", now=1.9e9).path
        s.apply(ADD)
        on_x = bk.back_up(j, tmp_path / "stick", now=1.9e9 + 60).path
    restore(y, first)
    with Journal(y) as j:
        Session.load(j, 1).apply({**ADD, "player": "Ben"})
    before = (y / FILENAME).read_bytes()
    report = restore(y, on_x)
    assert report.diverged == [1] and not report.changed
    assert "went on differently" in report.sentence()
    assert (y / FILENAME).read_bytes() == before


def test_unfinished_games_can_be_left_out(device_a, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    path = backup_of(a, tmp_path / "stick")
    report = restore(tmp_path / "fresh", path, unfinished=False)
    assert report.unfinished_skipped == 1 and len(report.added) == 12
    with Journal(tmp_path / "fresh") as j:
        assert j.last_unfinished() is None


def test_an_old_journal_copy_without_a_manifest_is_restored_too(device_a, tmp_path):
    """The appliance's own automatic backups (Journal.backup) are bare journal copies."""
    a = copy_of(device_a, tmp_path / "a")
    with Journal(a) as j:
        copy = j.backup(tmp_path / "journal-20260101T000000-game12.db")
    report = restore(tmp_path / "fresh", copy)
    assert report.source == {"format": "journal copy"} and len(report.added) == 13
    assert histories(tmp_path / "fresh") == histories(a)


# -- refusals: nothing changes -------------------------------------------------------------
@pytest.fixture
def target(device_b, tmp_path):
    """A journal to restore into, and its bytes."""
    t = copy_of(device_b, tmp_path / "target")
    Journal(t).close()  # opened once as the device opens it (WAL mode, this version's schema)
    return t, (t / FILENAME).read_bytes()


@pytest.fixture
def good(device_a, tmp_path):
    return backup_of(copy_of(device_a, tmp_path / "a"), tmp_path / "stick")


def refused(target, path: Path, why: str) -> str:
    folder, before = target
    with Journal(folder) as j, pytest.raises(bk.RestoreRefused) as e:
        bk.restore(j, path)
    assert e.value.why == why, str(e.value)
    assert "nothing was changed" in str(e.value)
    assert (folder / FILENAME).read_bytes() == before
    assert sorted(os.listdir(folder)) == [FILENAME, f"{FILENAME}-journal"] or os.listdir(folder) == [FILENAME]
    return str(e.value)


def test_a_file_from_elsewhere_is_refused(target, tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all\n" * 10)
    assert "not a tablekeeper backup (not an SQLite database)" in refused(target, text, "elsewhere")
    other = tmp_path / "other-app.db"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    c.close()
    assert "no tablekeeper journal in it" in refused(target, other, "elsewhere")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    refused(target, empty, "elsewhere")


def test_a_backup_of_another_program_with_the_same_table_name_is_refused(target, good, tmp_path):
    bad = tmp_path / "other.db"
    shutil.copyfile(good, bad)
    with sqlite3.connect(bad) as c:
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.format', 'someone-else')")
    c.close()
    assert "someone-else" in refused(target, bad, "elsewhere")


def test_a_newer_format_is_refused(target, good, tmp_path):
    newer = tmp_path / "newer.db"
    shutil.copyfile(good, newer)
    with sqlite3.connect(newer) as c:
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.version', 2, '$.app', '9.0')")
    c.close()
    assert "newer tablekeeper (backup format 2, tablekeeper 9.0" in refused(target, newer, "newer")
    schema = tmp_path / "newer-schema.db"
    shutil.copyfile(good, schema)
    with sqlite3.connect(schema) as c:
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.schema', 7)")
    c.close()
    assert "journal schema 7" in refused(target, schema, "newer")


def test_a_roster_of_a_newer_format_is_refused(target, good, tmp_path):
    path = tmp_path / "newer-roster.db"
    shutil.copyfile(good, path)
    with sqlite3.connect(path) as c:
        c.execute("UPDATE meta SET value = json_set(value, '$.format', 99) WHERE key='roster'")
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.sha256', ?)",
                  (bk.content_hash(c),))
    c.close()
    assert "format 99" in refused(target, path, "newer")


def _flip(path: Path, where: int, out: Path) -> Path:
    data = bytearray(path.read_bytes())
    data[where] ^= 0x20
    out.write_bytes(bytes(data))
    return out


def test_flipped_bytes_are_refused_as_damage(target, good, tmp_path):
    data = good.read_bytes()
    # in an action's text, in a setup, in the roster, in a page's header, in the manifest's checksum
    spots = {"action": data.index(b'"action":"') + 3, "setup": data.index(b'"players": [') + 4,
             "roster": data.index(b'"aliases"') + 3, "page header": 4096 * 2 + 3,
             "checksum": data.index(b'"sha256": "') + 14}
    for name, where in spots.items():
        message = refused(target, _flip(good, where, tmp_path / f"flipped-{name.replace(' ', '-')}.db"), "damaged")
        assert "it is damaged" in message, (name, message)


def test_a_truncated_backup_is_refused_as_damage(target, good, tmp_path):
    data = good.read_bytes()
    for keep in (len(data) - 4096, len(data) // 2, 4096, 50, 10):
        cut = tmp_path / f"cut-{keep}.db"
        cut.write_bytes(data[:keep])
        assert "cut short" in refused(target, cut, "damaged")


def test_a_missing_file_says_it_cannot_be_read(target, tmp_path):
    assert "cannot be read" in refused(target, tmp_path / "gone.db", "unreadable")


# -- writing: the live journal, the stick ----------------------------------------------------
def test_the_table_goes_on_playing_while_a_backup_is_made(tmp_path, monkeypatch):
    """The copy lets go of the journal between steps: an action is taken in the middle of one, and the
    backup still comes out whole (SQLite starts the copy again) and holds that action."""
    state = tmp_path / "state"
    with Journal(state) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        for _ in range(60):
            s.apply(ADD)
        j.meta_set("filler", "y" * 200_000)  # many pages: many steps
        monkeypatch.setattr(bk, "STEP_PAGES", 4)
        steps = []

        def on_step(remaining, total):
            steps.append(remaining)
            if len(steps) == 2:
                s.apply(ADD)  # the app's own connection writes: not blocked by the copy

        info = bk.back_up(j, tmp_path / "stick", on_step=on_step)
    assert len(steps) > 3
    restored = restore(tmp_path / "fresh", info.path)
    assert restored.added == [1]
    with Journal(tmp_path / "fresh") as j:
        assert Session.load(j, 1).state["players"][0]["counters"]["score"] == 61


def _fail_halfway(monkeypatch):
    real = os.write
    calls = []

    def write(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, bytes(data[:len(data) // 2]))  # half of it reaches the stick...
        raise OSError(errno.EIO, "Input/output error")  # ...then the stick is gone

    monkeypatch.setattr(bk.os, "write", write)
    return calls


def test_a_stick_pulled_mid_backup_leaves_no_file_under_the_final_name(device_a, tmp_path, monkeypatch):
    a = copy_of(device_a, tmp_path / "a")
    stick = tmp_path / "stick"
    stick.mkdir()
    earlier = backup_of(a, stick)
    whole = earlier.read_bytes()
    calls = _fail_halfway(monkeypatch)
    with Journal(a) as j, pytest.raises(bk.BackupError) as e:
        bk.back_up(j, stick, now=2e9)
    assert len(calls) == 2
    assert "cannot write the backup" in str(e.value) and "no file was left half-written" in str(e.value)
    assert os.listdir(stick) == [earlier.name] and earlier.read_bytes() == whole
    monkeypatch.undo()
    assert bk.read_manifest(earlier).manifest["games"] == 13


def test_a_failing_fsync_leaves_no_file_under_the_final_name(device_a, tmp_path, monkeypatch):
    a = copy_of(device_a, tmp_path / "a")

    def fsync(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(bk.os, "fsync", fsync)
    with Journal(a) as j, pytest.raises(bk.BackupError):
        bk.back_up(j, tmp_path / "stick")
    assert os.listdir(tmp_path / "stick") == []


def test_the_manifest_and_the_content_checksum_agree_with_sqlite(good):
    with sqlite3.connect(good) as c:
        manifest = json.loads(c.execute(f"SELECT manifest FROM {bk.MANIFEST_TABLE}").fetchone()[0])
        assert bk.content_hash(c) == manifest["sha256"]
        assert c.execute("PRAGMA freelist_count").fetchone()[0] == 0
        assert c.execute("SELECT count(*) FROM meta WHERE key='running'").fetchone()[0] == 0
    c.close()


def test_a_journal_copy_with_a_flipped_action_is_refused_by_the_actions_own_checksum(device_a, target, tmp_path):
    a = copy_of(device_a, tmp_path / "a")
    with Journal(a) as j:
        copy = j.backup(tmp_path / "journal-copy.db")
    data = copy.read_bytes()
    flipped = _flip(copy, data.index(b'"action":"') + 3, tmp_path / "journal-flipped.db")
    assert "its checksum does not match" in refused(target, flipped, "damaged")


def _damage_two_bits_of_an_action(path: Path) -> tuple[int, int]:
    """Flip two bits inside one action's stored text, in place (one bit would be put back); its (game, seq)."""
    with sqlite3.connect(path) as c:
        rows = c.execute("SELECT game, seq, CAST(body AS BLOB) FROM entries ORDER BY game, seq").fetchall()
    data = bytearray(path.read_bytes())
    for game, seq, body in rows[len(rows) // 2:]:
        if data.count(body) == 1 and seq > 2:
            at = data.index(body) + len(body) // 2
            data[at] ^= 0x01
            data[at + 1] ^= 0x04
            path.write_bytes(bytes(data))
            return game, seq
    raise AssertionError("no action with a text of its own in the file")


def test_a_journal_damaged_after_it_was_opened_is_backed_up_with_every_sound_action(device_a, tmp_path):
    """Damage that arrives while the table runs travels with a page copy: the backup rebuilds the copy
    from what holds, says so, and restore brings back every game and every action but the damaged one
    and those after it in its game (which the copy keeps in its quarantine)."""
    a = copy_of(device_a, tmp_path / "a")
    before = histories(a)
    with Journal(a) as j:
        game, seq = _damage_two_bits_of_an_action(a / FILENAME)
        info = bk.back_up(j, tmp_path / "stick")
        said = j.take_warnings()
        j.conn.execute("PRAGMA shrink_memory")  # the page cache let go: the journal's own copy reads the disk
        sidecar = j.backup(tmp_path / "journal-copy.db")
        said_too = j.take_warnings()
    assert any("is damaged" in w and "every action that could be read" in w for w in said), said
    assert any("is damaged" in w and "journal-copy.db holds every action" in w for w in said_too), said_too
    for path in (info.path, sidecar):
        fresh = tmp_path / f"fresh-{path.stem}"
        report = restore(fresh, path)
        assert len(report.added) == 13, report
        after = histories(fresh)
        assert sorted(after) == sorted(before)
        cut = [k for k in before if after[k] != before[k]]
        assert len(cut) == 1  # the damaged game only: the same setup, start and result, cut at the damage
        assert after[cut[0]][:4] == before[cut[0]][:4]
        assert after[cut[0]][4] == before[cut[0]][4][:seq]
        with sqlite3.connect(path) as c:
            held = c.execute("SELECT count(*) FROM quarantine WHERE game=?", (game,)).fetchone()[0]
        assert held >= 1


def test_a_journal_in_a_folder_with_an_odd_name_or_read_only_is_backed_up(device_a, tmp_path):
    odd = copy_of(device_a, tmp_path / "state #1 ?x=y")
    path = backup_of(odd, tmp_path / "stick")
    assert bk.read_manifest(path).manifest["games"] == 13
    ro = copy_of(device_a, tmp_path / "ro")
    before = (ro / FILENAME).read_bytes()
    with Journal(ro) as j:
        j.readonly = "the file system is read-only"
        info = bk.back_up(j, tmp_path / "stick2")
        assert j.meta_get(bk.TABLE_ID_KEY) is None  # nothing written into a read-only journal
        with pytest.raises(JournalReadOnly, match="cannot be written"):
            bk.restore(j, path)
    assert info.manifest["games"] == 13 and len(info.manifest["table_id"]) == 32
    assert (ro / FILENAME).read_bytes() == before


# -- crafted files: every field and every game checked before anything is written --------------------
def _with_manifest(good: Path, out: Path, change) -> Path:
    """A copy of the backup ``good`` whose manifest ``change(manifest)`` changed (the manifest is outside
    the content checksum: nothing else needs writing again)."""
    shutil.copyfile(good, out)
    with sqlite3.connect(out) as c:
        manifest = json.loads(c.execute(f"SELECT manifest FROM {bk.MANIFEST_TABLE}").fetchone()[0])
        change(manifest)
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = ?", (json.dumps(manifest),))
    c.close()
    return out


def crafted(good: Path, out: Path, change) -> Path:
    """A copy of the backup ``good`` changed by ``change(connection)``, its checksum and counts then
    written again, as whoever crafts a file would: only the content's own sense can tell."""
    shutil.copyfile(good, out)
    with sqlite3.connect(out) as c:
        change(c)
        counts = bk._counts(c)
        c.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest = json_set(manifest, '$.sha256', ?, '$.games', ?, "
                  "'$.finished', ?, '$.entries', ?)",
                  (bk.content_hash(c), counts["games"], counts["finished"], counts["entries"]))
    c.close()
    return out


def _entry(c: sqlite3.Connection, game: int, seq: int, action: dict | bytes) -> None:
    """Action ``seq`` of ``game`` replaced (or added) with a checksum that holds."""
    body = action if isinstance(action, bytes) else json.dumps(action, sort_keys=True,
                                                               separators=(",", ":")).encode()
    c.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)", (game, seq, body, zlib.crc32(body), 1.7e9))


def _unfinished(c: sqlite3.Connection) -> tuple[int, dict]:
    gid, setup = c.execute("SELECT id, setup FROM games WHERE finished IS NULL").fetchone()
    return gid, json.loads(setup)


def two_anas(c: sqlite3.Connection) -> None:
    """The unfinished game of counters set up with two players called Ana: nothing tablekeeper sets up."""
    gid, setup = _unfinished(c)
    setup["players"] = ["Ana", "Ana"]
    c.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup, sort_keys=True), gid))


#: A manifest made wrong, field by field: of another type, out of range, or missing.
WRONG_MANIFESTS = {
    "schema a superscript two": lambda m: m.update(schema="²"),  # "²".isdigit(), yet int("²") fails
    "schema as text": lambda m: m.update(schema="1"),
    "schema a float": lambda m: m.update(schema=1.0),
    "schema true": lambda m: m.update(schema=True),
    "schema zero": lambda m: m.update(schema=0),
    "schema missing": lambda m: m.pop("schema"),
    "version zero": lambda m: m.update(version=0),
    "games a float": lambda m: m.update(games=float(m["games"])),
    "finished true": lambda m: m.update(finished=True),
    "entries as text": lambda m: m.update(entries=str(m["entries"])),
    "people as text": lambda m: m.update(people="6"),
    "people below zero": lambda m: m.update(people=-1),
    "more finished than games": lambda m: m.update(finished=m["games"] + 1),
    "sha256 a number": lambda m: m.update(sha256=5),
    "table name a list": lambda m: m.update(table_name=["kitchen-pi"]),
    "table name with a terminal escape": lambda m: m.update(table_name="\x1b[2Jkitchen"),
    "table name of 500 letters": lambda m: m.update(table_name="k" * 500),
    "table id missing": lambda m: m.pop("table_id"),
    "app an object": lambda m: m.update(app={"version": "0.1"}),
    "created a number": lambda m: m.update(created=1796111635),
    "created not a moment": lambda m: m.update(created="yesterday"),
    "created_ts as text": lambda m: m.update(created_ts="1796111635.2"),
    "created_ts not a number": lambda m: m.update(created_ts=float("nan")),
    "created_ts infinite": lambda m: m.update(created_ts=float("inf")),
}


@pytest.mark.parametrize("name", list(WRONG_MANIFESTS))
def test_a_manifest_field_of_the_wrong_type_or_value_is_refused_in_one_sentence(target, good, tmp_path, name):
    path = _with_manifest(good, tmp_path / "wrong.db", WRONG_MANIFESTS[name])
    message = refused(target, path, "damaged")
    assert "its manifest" in message and "\n" not in message, message
    with pytest.raises(bk.RestoreRefused) as e:  # a listing reads it the same way
        bk.read_manifest(path)
    assert e.value.why == "damaged" and str(e.value) == message


def test_a_journal_schema_that_is_a_digit_but_not_a_number_is_refused_in_one_sentence(target, good, tmp_path):
    path = crafted(good, tmp_path / "meta-schema.db",
                   lambda c: c.execute("UPDATE meta SET value = '²' WHERE key = 'schema'"))
    assert "its journal schema is not a number ('²')" in refused(target, path, "damaged")


@pytest.fixture
def playing(device_b, tmp_path):
    """A journal to restore into while a game of its own is being played (the one a restart resumes)."""
    t = copy_of(device_b, tmp_path / "playing")
    with Journal(t) as j:
        s = Session.new(j, "counters", ["Cai", "Dee"])
        s.apply({"action": "adjust", "player": "Dee", "counter": "score", "delta": 3})
        ours = s.game_id, s.state
    return (t, (t / FILENAME).read_bytes()), ours


def test_a_game_that_cannot_be_set_up_here_is_refused_and_the_game_being_played_still_resumes(playing, good, tmp_path):
    target, (ours, state) = playing
    path = crafted(good, tmp_path / "two-anas.db", two_anas)
    message = refused(target, path, "damaged")
    assert "cannot be set up here: two players have the same name" in message and "\n" not in message
    with Journal(target[0]) as j:
        session = Session.resume(j)
        assert session is not None and (session.game_id, session.state) == (ours, state)
        assert j.take_warnings() == []


def test_a_game_whose_action_does_not_replay_is_refused_and_nothing_is_cut(target, good, tmp_path):
    path = crafted(good, tmp_path / "flies.db", lambda c: _entry(c, 1, 0, {"action": "fly"}))
    assert "its game 1 does not replay here (action 0: " in refused(target, path, "damaged")


def test_bringing_a_game_up_to_date_checks_the_actions_it_adds(device_a, good, tmp_path):
    """The journal has the game as far as its first action; the backup adds one that does not replay."""
    def one_more(c):
        _entry(c, _unfinished(c)[0], 1, {"action": "adjust", "player": "Zed", "counter": "score", "delta": 1})

    here = copy_of(device_a, tmp_path / "here")
    path = crafted(good, tmp_path / "one-more.db", one_more)
    assert "does not replay here (action 1: " in refused((here, (here / FILENAME).read_bytes()), path, "damaged")
    with Journal(here) as j:
        assert Session.resume(j).version == 1 and j.take_warnings() == []


def test_a_game_this_tablekeeper_does_not_know_is_refused_as_newer(target, good, tmp_path):
    def chess(c):
        gid, setup = _unfinished(c)
        setup["game"] = "chess"
        c.execute("UPDATE games SET game = 'chess', setup = ? WHERE id = ?", (json.dumps(setup), gid))

    message = refused(target, crafted(good, tmp_path / "chess.db", chess), "newer")
    assert "'chess', a game this tablekeeper does not know: update it" in message


def test_with_finished_only_an_unfinished_game_that_cannot_be_set_up_is_left_out_and_the_rest_restored(good, tmp_path):
    """Only what a restore brings in is checked: ``--finished-only`` leaves the refused game out."""
    path = crafted(good, tmp_path / "two-anas.db", two_anas)
    report = restore(tmp_path / "fresh", path, unfinished=False)
    assert len(report.added) == 12 and report.unfinished_skipped == 1


#: Rows no journal holds, each of them written with a checksum that holds.
UNWRITTEN_ROWS = {
    "an action not UTF-8": lambda c: _entry(c, 1, 0, b'{"action":"\xff"}'),
    "an action not JSON": lambda c: _entry(c, 1, 0, b"nope"),
    "an action a list": lambda c: _entry(c, 1, 0, b'["adjust"]'),
    "an end time as text": lambda c: c.execute("UPDATE games SET finished = 'soon' WHERE id = 1"),
    "an infinite start time": lambda c: c.execute("UPDATE games SET started = 1e999 WHERE id = 1"),
    "a game stored as one game and set up as another": lambda c: c.execute(
        "UPDATE games SET game = 'counters' WHERE id = 1 AND game != 'counters'"),
    "a games table without its result column": lambda c: c.executescript(
        "CREATE TABLE g2 AS SELECT id, game, setup, started, finished FROM games; DROP TABLE games; "
        "ALTER TABLE g2 RENAME TO games;"),
}


@pytest.mark.parametrize("name", list(UNWRITTEN_ROWS))
def test_a_row_no_journal_holds_is_refused_as_damage_in_one_sentence(target, good, tmp_path, name):
    message = refused(target, crafted(good, tmp_path / "rows.db", UNWRITTEN_ROWS[name]), "damaged")
    assert "\n" not in message
