"""The journal under real faults: damage is salvaged and said, other errors are only errors.

Each test names the fault; each failed before open learnt to tell damage from
a full disk or a read-only folder, before rows were read as bytes, and before
a second writer could catch up instead of colliding.
"""
from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading

import pytest

from tablekeeper.engine import Journal, Session, canonical
from tablekeeper.engine.errors import JournalError, JournalReadOnly
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui.cli import main

OPTS = {"counters": [{"name": "life", "start": 1000, "min": None}]}
TK = [sys.executable, "-m", "tablekeeper.ui.cli"]


def play(session, n, start=0):
    for i in range(start, start + n):
        session.apply({"action": "adjust", "player": "Ana" if i % 2 else "Ben", "counter": "life",
                       "delta": -1 - i % 3})


def stored_game(state_dir, n) -> list[str]:
    with Journal(state_dir) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
        play(s, n)
        return [canonical(e) for e in s.match.done]


def aside_files(state_dir) -> list[str]:
    return sorted(p for p in os.listdir(state_dir) if ".damaged-" in p)


def run_tk(state_dir, *args, preexec=None):
    env = dict(os.environ, TABLEKEEPER_STATE_DIR=str(state_dir))
    return subprocess.run(TK + list(args), capture_output=True, text=True, env=env, preexec_fn=preexec, timeout=60)


# -- damage inside a row --------------------------------------------------------------
def test_invalid_utf8_in_a_stored_action_is_damage_not_a_crash(tmp_path, capsys):
    played = stored_game(tmp_path, 40)
    con = sqlite3.connect(tmp_path / FILENAME)
    # two flipped bits turn a character into a byte that is not UTF-8 (one alone is put back)
    body = con.execute("SELECT CAST(body AS BLOB) FROM entries WHERE seq=25").fetchone()[0]
    con.execute("UPDATE entries SET body=CAST(? AS TEXT) WHERE seq=25", (body.replace(b"A", b"\xc3", 1),))
    con.commit()
    con.close()
    for command in (["state"], ["history"], ["act", '{"action":"adjust","player":"Ana","counter":"life","delta":1}']):
        code = main(["--state-dir", str(tmp_path)] + command)
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "Traceback" not in err
    with Journal(tmp_path) as j:
        s = Session.resume(j)
        assert [canonical(e) for e in s.match.done[:25]] == played[:25]
        held = j.quarantined()
        assert [q["seq"] for q in held] == list(range(25, 40))
        assert held[0]["entry"] is None and held[0]["damage"]
        assert [canonical(q["entry"]) for q in held[1:]] == played[26:40]  # kept, not deleted


def test_damage_is_said_on_stderr_once(tmp_path, capsys):
    """A flipped bit in a checksum cuts the game there: the command line says so, then never again."""
    stored_game(tmp_path, 30)
    con = sqlite3.connect(tmp_path / FILENAME)
    con.execute("UPDATE entries SET crc = crc + 1 WHERE seq=12")
    con.commit()
    con.close()
    assert main(["--state-dir", str(tmp_path), "state"]) == 0
    err = capsys.readouterr().err
    assert "warning: entry 12 of game 1: its checksum does not match" in err
    assert "12 kept, 18 removed and set aside in the journal's quarantine" in err
    assert err.count("warning:") == 1
    assert len(aside_files(tmp_path)) == 1
    assert main(["--state-dir", str(tmp_path), "state"]) == 0
    assert "warning" not in capsys.readouterr().err


# -- damage to the file --------------------------------------------------------------
def test_a_truncated_journal_gives_back_every_row_on_the_pages_that_remain(tmp_path):
    played = stored_game(tmp_path, 500)
    path = tmp_path / FILENAME
    size = path.stat().st_size
    os.truncate(path, size * 3 // 4)
    with Journal(tmp_path) as j:
        assert any("was damaged" in w and "kept as" in w for w in j.warnings)
        s = Session.resume(j)
        kept = [canonical(e) for e in s.match.done]
        held = j.quarantined()
    assert kept == played[:len(kept)]
    for q in held:  # what follows a lost row is kept aside, each row exactly as played
        assert canonical(q["entry"]) == played[q["seq"]]
    assert len(kept) + len(held) >= 0.6 * 500, (len(kept), len(held))


def test_garbage_over_one_page_loses_only_the_rows_on_that_page(tmp_path):
    played = stored_game(tmp_path, 600)
    path = tmp_path / FILENAME
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    leaves = [n for n in range(2, len(data) // size) if data[(n - 1) * size] == 0x0A]
    victim = leaves[len(leaves) // 2]
    on_page = int.from_bytes(data[(victim - 1) * size + 3:(victim - 1) * size + 5], "big")
    data[(victim - 1) * size:victim * size] = os.urandom(size)
    path.write_bytes(bytes(data))
    with Journal(tmp_path) as j:
        s = Session.resume(j)
        kept = [canonical(e) for e in s.match.done]
        held = j.quarantined()
    assert kept == played[:len(kept)] and 0 < len(kept) < 600
    assert [canonical(q["entry"]) for q in held] == [played[q["seq"]] for q in held]
    assert len(kept) + len(held) == 600 - on_page


def cut_off_writer(tmp_path, n):
    """The journal and its -wal as a power cut leaves them, ``n`` actions in (and what was played)."""
    j = Journal(tmp_path)
    s = Session.new(j, "counters", ["Ana", "Ben"], OPTS)
    play(s, n)
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{tmp_path / FILENAME}{suffix}", frozen / f"{FILENAME}{suffix}")
    j.close()
    return frozen, [canonical(e) for e in s.match.done]


def test_a_damaged_write_ahead_log_loses_no_acknowledged_action(tmp_path):
    """A writer cut off with its actions in the -wal only; one bit of a frame flipped: SQLite alone
    would stop at that frame and drop every commit after it. Nothing acknowledged is lost."""
    frozen, played = cut_off_writer(tmp_path, 50)
    wal = bytearray((frozen / f"{FILENAME}-wal").read_bytes())
    assert len(wal) > 10 * 4096, "the actions are in the -wal"
    wal[32 + 24 + 100] ^= 0x10  # inside the first frame's page: every later commit hangs on it
    (frozen / f"{FILENAME}-wal").write_bytes(bytes(wal))
    with Journal(frozen) as again:
        assert [canonical(e) for e in Session.resume(again).match.done] == played
        assert any("write-ahead log is damaged" in w for w in again.warnings)


def test_a_cut_off_write_ahead_log_keeps_every_commit_before_the_cut(tmp_path):
    """A power cut in the middle of a commit: the frames before it hold, the torn one is no action."""
    frozen, played = cut_off_writer(tmp_path, 30)
    wal = (frozen / f"{FILENAME}-wal").read_bytes()
    (frozen / f"{FILENAME}-wal").write_bytes(wal + wal[32:32 + 24 + 2000])  # half a frame more
    with Journal(frozen) as again:
        assert [canonical(e) for e in Session.resume(again).match.done] == played
        assert not again.warnings


def test_a_journal_left_in_rollback_mode_by_an_older_version_is_taken_over_whole(tmp_path):
    played = stored_game(tmp_path, 20)
    con = sqlite3.connect(tmp_path / FILENAME)
    con.execute("PRAGMA journal_mode=PERSIST")
    con.execute("INSERT INTO meta VALUES ('from_rollback', 'yes')")
    con.commit()
    con.close()
    with Journal(tmp_path) as j:
        assert j.meta_get("from_rollback") == "yes"
        assert [canonical(e) for e in Session.resume(j).match.done] == played
        assert j.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- not damage: full, read-only, busy --------------------------------------------------------
def _small_files(limit):
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def test_a_full_disk_is_said_plainly_and_renames_nothing(tmp_path):
    """A small ``ulimit -f`` stands in for a full card: every write fails, nothing is taken for damage."""
    played = stored_game(tmp_path, 200)
    pre = _small_files(4096)  # no write may reach past the first page
    for args in (["act", '{"action":"adjust","player":"Ana","counter":"life","delta":1}'],
                 ["new", "counters", "Cai", "Dan"]):
        r = run_tk(tmp_path, *args, preexec=pre)
        assert r.returncode == 1, r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "cannot save the action" in r.stderr or "cannot start the game" in r.stderr
        assert "is full" in r.stderr
    r = run_tk(tmp_path, "state", preexec=pre)
    assert r.returncode == 0, r.stderr
    assert aside_files(tmp_path) == []
    with Journal(tmp_path) as j:
        assert [canonical(e) for e in Session.resume(j).match.done] == played
        assert len(j.games()) == 1


def run_readonly(state_dir, *args):
    """Run the command line with the state folder on a read-only file system.

    As root (CI) the folder is bind-mounted read-only in a private mount
    namespace (root ignores file modes); otherwise the folder is made r-x.
    """
    env = dict(os.environ, TABLEKEEPER_STATE_DIR=str(state_dir))
    if os.geteuid() == 0:
        cmd = ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', str(state_dir)] + TK + list(args)
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    os.chmod(state_dir, stat.S_IRUSR | stat.S_IXUSR)
    try:
        return subprocess.run(TK + list(args), capture_output=True, text=True, env=env, timeout=60)
    finally:
        os.chmod(state_dir, 0o700)


def test_a_read_only_state_folder_still_reads_and_names_the_folder_on_a_write(tmp_path):
    played = stored_game(tmp_path, 10)
    r = run_readonly(tmp_path, "state")
    assert r.returncode == 0 and '"game_id": 1' in r.stdout, r.stderr
    r = run_readonly(tmp_path, "list")
    assert r.returncode == 0 and "Ana, Ben" in r.stdout, r.stderr
    r = run_readonly(tmp_path, "act", '{"action":"adjust","player":"Ana","counter":"life","delta":1}')
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert str(tmp_path) in r.stderr and "cannot be written" in r.stderr, r.stderr
    with Journal(tmp_path) as j:
        assert [canonical(e) for e in Session.resume(j).match.done] == played


def test_a_read_only_journal_refuses_writes_in_words(tmp_path):
    stored_game(tmp_path, 3)
    j = Journal(tmp_path)
    j.readonly = "the file system is read-only"
    with pytest.raises(JournalReadOnly, match="cannot be written"):
        Session.resume(j).apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": 1})
    j.close()


# -- two writers -----------------------------------------------------------------------
@pytest.mark.slow
def test_two_command_line_writers_at_once_both_succeed(tmp_path):
    stored_game(tmp_path, 1)
    failures = []

    def act(who):
        for _ in range(6):
            r = run_tk(tmp_path, "act", f'{{"action":"adjust","player":"{who}","counter":"life","delta":1}}')
            if r.returncode != 0:
                failures.append(r.stderr)

    threads = [threading.Thread(target=act, args=(who,)) for who in ("Ana", "Ben")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with Journal(tmp_path) as j:
        assert len(Session.resume(j).match.done) == 13


def test_an_owner_takes_in_a_command_line_action_and_keeps_writing(tmp_path):
    """serve or the app holds the game; a command-line act lands; the owner's next press still saves."""
    with Journal(tmp_path) as owner_journal:
        owner = Session.new(owner_journal, "counters", ["Ana", "Ben"], OPTS)
        play(owner, 3)
        assert owner_journal.changed_elsewhere() is False
        assert main(["--state-dir", str(tmp_path), "act",
                     '{"action":"adjust","player":"Ana","counter":"life","delta":-100}']) == 0
        assert owner_journal.changed_elsewhere() is True
        # the owner's next press, made before it looked: it catches up and saves after the other one
        out = owner.apply({"action": "adjust", "player": "Ben", "counter": "life", "delta": -1})
        assert out.seq == 4
        assert owner.state["players"][0]["counters"]["life"] == 1000 - 2 - 100
    with Journal(tmp_path) as j:
        assert len(Session.resume(j).match.done) == 5


def test_the_pods_show_what_another_process_saved(tmp_path):
    from tests.owner import Owner

    with Journal(tmp_path) as journal:
        session = Session.new(journal, "counters", ["Ana", "Ben"], OPTS)
        hub = Owner(session)
        assert hub.view(1).focus_value == 1000  # seen before: what the pod worked out of that state is kept
        before = session.state
        assert main(["--state-dir", str(tmp_path), "act",
                     '{"action":"adjust","player":"Ana","counter":"life","delta":-7}']) == 0
        hub.refresh()
        assert session.state is not before  # caught up: a new state, never the old one changed in place
        assert hub.view(1).focus_value == 993


# -- files ------------------------------------------------------------------------------
def test_the_state_folder_and_journal_are_private(tmp_path):
    state = tmp_path / "fresh" / "state"
    r = run_tk(state, "new", "counters", "Ana", "Ben")
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / FILENAME).stat().st_mode) == 0o600
    with Journal(state) as j:
        aside = j.keep_copy_aside()
        backup = j.backup(tmp_path / "backup.db")
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_an_io_error_is_not_damage(tmp_path):
    j = Journal(tmp_path)
    err = j._error("cannot save the action", sqlite3.OperationalError("disk I/O error"))
    assert isinstance(err, JournalError) and "disk I/O error" in str(err)
    j.close()
