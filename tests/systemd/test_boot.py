"""Power cuts: the boot check, the unsafe-shutdown counter, backups of finished games.

"a boot-time check (PRAGMA quick_check), an unsafe-shutdown counter shown in
settings, a backup of finished games" — and STYLE.md's habit: "Write files
atomically: temp file, fsync, os.replace, fsync the folder".
"""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui import service

TARGET = {"counters": [{"name": "score", "target": 3}]}


def play_to_the_end(state_dir, winner="Ana") -> int:
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], TARGET)
        s.apply({"action": "adjust", "player": winner, "counter": "score", "delta": 3})
        assert s.state["over"]
        return s.game_id


# -- the unsafe-shutdown counter --------------------------------------------------------
def test_clean_stops_count_no_unsafe_shutdown(state_dir):
    """A start that finds no marker (the last run cleared it on exit) counts nothing."""
    for _ in range(3):
        svc = service.Service(state_dir, environ={})
        report = svc.boot()
        assert report.unsafe_shutdowns == 0 and not report.unsafe_now
        svc.stopping()
    assert service.unsafe_shutdowns(state_dir) == 0


KILLED = textwrap.dedent("""
    import os, signal, sys
    from tablekeeper.ui import service
    service.start(sys.argv[1])
    service.ready()
    os.kill(os.getpid(), signal.SIGKILL)    # a power cut, a crash, a watchdog kill
""")


def test_a_killed_run_counts_one_unsafe_shutdown(state_dir):
    """A start that finds the last run's "running" marker counts one unsafe shutdown."""
    for expected in (1, 2):
        child = subprocess.run([sys.executable, "-c", KILLED, str(state_dir)], capture_output=True, timeout=60)
        assert child.returncode == -signal.SIGKILL, child.stderr
        svc = service.Service(state_dir, environ={})
        report = svc.boot()
        assert report.unsafe_now and report.unsafe_shutdowns == expected
        assert any("did not stop cleanly" in line for line in report.lines())
        svc.stopping()
    # shown in settings: the count survives clean runs
    assert service.unsafe_shutdowns(state_dir) == 2
    svc = service.Service(state_dir, environ={})
    assert not svc.boot().unsafe_now
    svc.stopping()
    assert service.unsafe_shutdowns(state_dir) == 2


def test_a_second_process_running_on_the_journal_is_named_as_such_not_counted_as_a_crash(state_dir):
    """A `serve` left running on the same state folder made `run` say "the last run did not stop cleanly
    (power cut or crash)": its marker belongs to a live tablekeeper process of this boot. Once that
    process is gone without clearing it (killed), the marker is a crash again."""
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "tablekeeper-serve"])
    try:
        with Journal(state_dir) as j:
            j.mark_running(service.run_token(holder.pid))  # as that process's own boot would have
        svc = service.Service(state_dir, environ={})
        report = svc.boot()
        assert report.other_process == holder.pid and not report.unsafe_now and report.unsafe_shutdowns == 0
        said = report.lines()
        assert any(f"another tablekeeper process (pid {holder.pid})" in line for line in said), said
        assert not any("did not stop cleanly" in line for line in said)
        svc.stopping()  # this run's clean stop leaves the other's marker alone
        with Journal(state_dir) as j:
            assert j.meta_get("running") == service.run_token(holder.pid)
    finally:
        holder.kill()
        holder.wait()
    svc = service.Service(state_dir, environ={})
    report = svc.boot()
    assert report.other_process is None and report.unsafe_now and report.unsafe_shutdowns == 1
    svc.stopping()


def test_a_power_cut_is_a_new_boot_even_with_the_same_pid(state_dir, tmp_path, monkeypatch):
    """After a power cut the new process may get the old pid: the boot id tells the runs apart."""
    boot_id = tmp_path / "boot_id"
    monkeypatch.setattr(service, "BOOT_ID_PATH", boot_id)
    boot_id.write_text("boot-one\n")
    service.Service(state_dir, environ={}).boot()  # never stopped: the plug is pulled
    boot_id.write_text("boot-two\n")
    report = service.Service(state_dir, environ={}).boot()
    assert report.unsafe_now and report.unsafe_shutdowns == 1


def test_a_systemd_restart_is_a_new_run_even_with_the_same_pid(state_dir, monkeypatch):
    """Under systemd every start has its own $INVOCATION_ID: a restart that reuses a pid still counts."""
    monkeypatch.setenv("INVOCATION_ID", "a" * 32)
    service.Service(state_dir, environ={}).boot()  # killed by the watchdog, never stopped
    monkeypatch.setenv("INVOCATION_ID", "b" * 32)
    report = service.Service(state_dir, environ={}).boot()
    assert report.unsafe_now and report.unsafe_shutdowns == 1


def test_the_same_process_starting_twice_is_not_unsafe(state_dir):
    """`tablekeeper run` falling back to the headless player calls start() again: not a shutdown."""
    service.start(state_dir, environ={})
    report = service.start(state_dir, environ={})
    assert not report.unsafe_now and report.unsafe_shutdowns == 0
    service.stopping()


# -- the boot check ------------------------------------------------------------------------
def test_boot_check_quick_check_is_clean_on_a_sound_journal(state_dir):
    play_to_the_end(state_dir)
    with Journal(state_dir) as j:
        assert j.quick_check() == []
    report = service.Service(state_dir, environ={}).boot()
    assert report.ok and report.problems == [] and report.warnings == []


def test_boot_check_reports_a_damaged_journal_and_keeps_what_it_can(state_dir):
    """The boot-time check (PRAGMA quick_check): a damaged file is set aside and said so."""
    play_to_the_end(state_dir)
    path = state_dir / FILENAME
    with Journal(state_dir) as j:
        j.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"  # the header is gone
    path.write_bytes(bytes(data))
    report = service.Service(state_dir, environ={}).boot()
    assert not report.ok
    assert any("damaged" in w and "kept as" in w for w in report.warnings), report.warnings
    assert report.problems == []  # the fresh journal checks clean
    assert list(state_dir.glob(f"{FILENAME}.damaged-*"))
    with Journal(state_dir) as j:
        assert j.warnings == [] and j.quick_check() == []  # the next boot is clean again


def test_quick_check_reports_sqlites_complaints(state_dir):
    """Journal.quick_check() returns SQLite's own sentences when the file is inconsistent."""
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        for _ in range(400):
            s.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
        j.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = j.conn.execute("PRAGMA page_size").fetchone()[0]
        pages = j.conn.execute("PRAGMA page_count").fetchone()[0]
        assert pages > 4
        # scribble over an index/table page behind SQLite's back, then ask again
        with open(state_dir / FILENAME, "r+b") as f:
            f.seek(page * (pages - 2))
            f.write(b"\xff" * page)
        j.conn.execute("PRAGMA cache_size=0")  # no cached pages: read the file
        problems = j.quick_check()
    assert problems and problems != ["ok"]
    assert any("malformed" in p or "page" in p for p in problems), problems


# -- backups of finished games ------------------------------------------------------------
def test_no_finished_game_no_backup(state_dir):
    with Journal(state_dir) as j:
        Session.new(j, "counters", ["Ana", "Ben"])
    svc = service.Service(state_dir, environ={})
    assert svc.boot().backup is None
    assert svc.game_finished() is None
    assert not (state_dir / service.BACKUP_FOLDER).exists()


def test_a_finished_game_is_backed_up_once_and_the_backup_restores(state_dir, tmp_path):
    """A finished game's backup: SQLite online backup, one self-contained file."""
    gid = play_to_the_end(state_dir)
    svc = service.Service(state_dir, environ={})
    backup = svc.game_finished()
    assert backup is not None and backup.parent == state_dir / service.BACKUP_FOLDER
    assert svc.game_finished() is None  # nothing new finished
    assert svc.boot().backup is None
    # no temp files, no WAL side files: one file is the whole backup
    assert sorted(p.name for p in backup.parent.iterdir()) == [backup.name]
    db = sqlite3.connect(backup)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    db.close()
    # restoring = copying the file back as the journal
    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / FILENAME).write_bytes(backup.read_bytes())
    with Journal(state_dir) as live, Journal(restored) as copy:
        assert copy.warnings == []
        assert canonical(Session.load(copy, gid).view()) == canonical(Session.load(live, gid).view())
        assert copy.game(gid).finished is not None


def test_boot_backs_up_a_game_finished_before_a_power_cut(state_dir):
    """A game that ended just before the plug was pulled is backed up at the next boot."""
    play_to_the_end(state_dir)
    report = service.Service(state_dir, environ={}).boot()
    assert report.backup is not None and report.backup.exists()


def test_only_the_newest_backups_are_kept(state_dir, tmp_path, monkeypatch):
    config = tmp_path / "tablekeeper.toml"
    config.write_text('[appliance]\nbackups = 2\nbackup_dir = "%s"\n' % (tmp_path / "bk"))
    svc = service.Service(state_dir, environ={}, config=config)
    assert svc.keep == 2 and svc.backup_dir == tmp_path / "bk"
    stamps = iter(f"2030010{i}T000000" for i in range(1, 10))
    monkeypatch.setattr(service.time, "strftime", lambda fmt: next(stamps))
    made = []
    for winner in ("Ana", "Ben", "Ana"):
        gid = play_to_the_end(state_dir, winner)
        made.append(svc.game_finished())
        assert made[-1].name.endswith(f"game{gid}.db")
    assert sorted(p.name for p in (tmp_path / "bk").iterdir()) == sorted(p.name for p in made[1:])


def test_backup_is_atomic_a_failed_write_keeps_the_old_one(state_dir, monkeypatch):
    """STYLE.md: temp file, fsync, os.replace, fsync the folder: a failure leaves the old file whole."""
    play_to_the_end(state_dir)
    dest = state_dir / "copy.db"
    with Journal(state_dir) as j:
        j.backup(dest)
        before = dest.read_bytes()
        play_to_the_end(state_dir)  # the journal changes

        calls = []
        real_fsync = os.fsync
        monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real_fsync(fd)))

        def cut(src, dst):
            raise OSError(5, "Input/output error")  # the power goes at the rename

        monkeypatch.setattr(os, "replace", cut)
        with pytest.raises(OSError):
            j.backup(dest)
        assert len(calls) >= 1  # the temp file was fsynced before the rename
        assert dest.read_bytes() == before
        assert sorted(p.name for p in state_dir.iterdir() if p.name.startswith(".copy.db")) == []
        monkeypatch.undo()
        j.backup(dest)
        assert dest.read_bytes() != before
