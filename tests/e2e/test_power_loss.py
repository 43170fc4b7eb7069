"""Power cuts, simulated from a system-call trace (ALICE-style; the model is in crashsim.py).

A child plays a short scripted game under strace; its file operations on the
state folder and its acknowledgements are parsed, and the crash states a
power cut could leave after each operation are rebuilt — the SIGKILL state
(page cache intact), the fsync-only state, and torn writes. Each is opened by
the real code (``Journal(dir)``, ``Session.resume``). The goals:

* every action acknowledged before the crash point is stored, in order,
  followed by at most the one in flight (acknowledged actions lost: 0);
* the journal opens and the game resumes without an exception (failed: 0).

The simulator's self-test first shows it is not blind: rollback-journal mode
with ``synchronous=FULL`` (no directory fsync after the journal's unlink, the
reason ``synchronous=EXTRA`` exists) must lose acknowledged actions here.

``TABLEKEEPER_CRASHSIM_SEED`` changes the torn-write draws; run with ``-s`` to
see the figures. The long run: ``make bench`` (bench/bench_crash.py).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crashsim  # noqa: E402

SEED = int(os.environ.get("TABLEKEEPER_CRASHSIM_SEED", "20261130"))


def _explore(rec: crashsim.Recording, **kw) -> tuple[dict, list[crashsim.Verdict]]:
    states = crashsim.crash_states(rec, seed=SEED, **kw)
    verdicts = crashsim.explore(states, workers=2)
    return crashsim.figures(verdicts), verdicts


def _assert_goals(name: str, rec: crashsim.Recording, figures: dict, verdicts: list[crashsim.Verdict]) -> None:
    print(f"\n{name}: {crashsim.summary_of_ops(rec.ops)['kinds']} -> {figures}")
    bad = [v for v in verdicts if not v.ok]
    detail = "\n".join(crashsim.describe(v) for v in bad[:12])
    assert figures["resumes_failed"] == 0 and figures["acked_lost"] == 0 and figures["extra_beyond_in_flight"] == 0, (
        f"{name}: {figures}\n{detail}")


def test_the_trace_is_parsed(strace, tmp_path):
    rec = crashsim.record(tmp_path / "state", 4)
    assert rec.returncode == 0, rec.stderr
    kinds = crashsim.summary_of_ops(rec.ops)["kinds"]
    assert [op.seq for op in rec.ops if op.kind == "ack"] == [0, 1, 2, 3]
    assert kinds.get("write", 0) > 0 and kinds.get("sync", 0) > 0
    assert "journal.db" in crashsim.summary_of_ops(rec.ops)["files"]
    # replaying the whole trace gives the files the child left behind (fsync aside)
    fs = crashsim.FSModel(rec.initial, rec.initial_dirs)
    for op in rec.ops:
        if op.kind != "ack":
            fs.apply(op)
    files, _ = fs.kill_state()
    on_disk = {p.name: p.read_bytes() for p in (tmp_path / "state").iterdir() if p.is_file()}
    assert {n: d for n, d in files.items() if not n.endswith("-shm")} == \
        {n: d for n, d in on_disk.items() if not n.endswith("-shm")}


def test_the_simulator_catches_a_setting_known_to_lose_actions(strace, tmp_path, monkeypatch):
    monkeypatch.setenv("CRASHSIM_PRAGMAS", "journal_mode=DELETE;synchronous=FULL")
    rec = crashsim.record(tmp_path / "state", 6)
    assert rec.returncode == 0, rec.stderr
    figures, _ = _explore(rec, models=("power",))
    print(f"\nDELETE + synchronous=FULL (expected to lose): {figures}")
    assert figures["acked_lost"] > 0, "the power-loss model must catch the journal unlink not being made durable"


def test_power_loss_while_a_new_game_is_played(strace, tmp_path):
    rec = crashsim.record(tmp_path / "state", 30)
    assert rec.returncode == 0, rec.stderr
    assert len(rec.acked) == 30
    figures, verdicts = _explore(rec, torn_per_point=4)
    assert figures["crash_states"] > 100
    _assert_goals("new game, 30 actions", rec, figures, verdicts)


def test_power_loss_while_a_stored_game_is_resumed(strace, tmp_path):
    state = tmp_path / "state"
    first = subprocess.run([sys.executable, str(crashsim.CHILD), str(state), "9"], capture_output=True, text=True,
                           timeout=60)
    assert first.returncode == 0, first.stderr
    rec = crashsim.record(state, 15)
    assert rec.returncode == 0, rec.stderr
    assert [s for s, _ in rec.acked] == list(range(9, 24))
    figures, verdicts = _explore(rec, torn_per_point=4)
    _assert_goals("resumed game, 9 stored + 15 actions", rec, figures, verdicts)
