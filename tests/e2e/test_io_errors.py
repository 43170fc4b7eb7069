"""I/O errors injected into the ``tablekeeper`` command (strace ``-e inject=``; faultinject.py).

``tablekeeper new counters Ana Ben`` (on an empty state folder) and
``tablekeeper act {adjust Ana score +1}`` (on a game with two actions) run
with the N-th openat / pwrite64 / write / fdatasync / fsync / ftruncate /
unlink on the state folder failing with EIO, ENOSPC or EACCES — once, or from
the N-th call on (a disk that stays full). A seeded, stratified share of
every (command, call, error, once/persistent) runs here; the long run is
bench/bench_crash.py. The goals, for every case:

* a failed command says so in one line on stderr, with no Python traceback,
  and exits 1 or 2;
* no ``journal.db.damaged-*`` appears because of a mere I/O error;
* afterwards, without injection, ``tablekeeper state`` works and shows every
  action that succeeded before (acknowledged actions lost: 0).

``TABLEKEEPER_FAULT_SAMPLE`` (default 150) and ``TABLEKEEPER_FAULT_SEED`` change
the share; run with ``-s`` to see the figures.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultinject  # noqa: E402

SAMPLE = int(os.environ.get("TABLEKEEPER_FAULT_SAMPLE", "150"))
SEED = int(os.environ.get("TABLEKEEPER_FAULT_SEED", "20261130"))


def _assert_goals(outcomes: list[faultinject.Outcome]) -> None:
    figures = faultinject.figures(outcomes)
    print(f"\n{figures}")
    bad = [o for o in outcomes if o.problems]
    detail = "\n".join(faultinject.describe(o) for o in bad[:15])
    assert figures["tracebacks"] == 0, f"{figures}\n{detail}"
    assert figures["damaged_renames"] == 0, f"{figures}\n{detail}"
    assert figures["acked_lost"] == 0, f"{figures}\n{detail}"
    assert not bad, f"{figures}\n{detail}"


def test_a_full_disk_fails_one_action_cleanly(strace, tmp_path):
    """Every pwrite64 on the state folder fails with ENOSPC: `act` refuses in one line, the journal stays."""
    case = faultinject.Case("act", "pwrite64", "ENOSPC", 1, True)
    outcome = faultinject.run_case(tmp_path, case)
    assert outcome.injected
    print(f"\n{faultinject.describe(outcome)}")
    assert outcome.returncode in (1, 2), outcome.stderr
    _assert_goals([outcome])


@pytest.mark.slow
def test_injected_io_errors(strace, tmp_path):
    cases = faultinject.plan(tmp_path, sample=SAMPLE, seed=SEED)
    outcomes = faultinject.run_cases(tmp_path, cases, workers=2)
    assert sum(o.injected for o in outcomes) >= 0.9 * len(outcomes), "most planned injections must fire"
    _assert_goals(outcomes)
