"""Crash testing as SQLite tests itself: simulated power cuts and injected I/O errors (long run).

* Power loss (tests/e2e/crashsim.py, ALICE-style): a child plays a scripted
  game under strace; every crash state after every operation on the state
  folder is rebuilt — SIGKILL (page cache intact), fsync-only, torn writes
  (a prefix of the unsynced writes, the last torn at a 512-byte sector) —
  and opened with ``Journal`` + ``Session.resume``. Two runs: a new game of
  ``TABLEKEEPER_CRASH_ACTIONS`` (60) actions, and a stored game of 20 resumed
  for 40 more. A control run in rollback-journal mode with
  ``synchronous=FULL`` (known to lose actions at a power cut: no directory
  fsync after the journal's unlink) must show losses, or the model is blind.
* I/O errors (tests/e2e/faultinject.py): ``tablekeeper new`` and ``act`` with
  the N-th openat / pwrite64 / write / fdatasync / fsync / ftruncate / unlink
  on the state folder failing (EIO, ENOSPC, EACCES), once or from then on,
  for every N the command reaches.

Goals: acked_lost 0, resumes_failed 0, tracebacks 0, damaged_renames 0.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import crashsim  # noqa: E402
import faultinject  # noqa: E402

ACTIONS = int(os.environ.get("TABLEKEEPER_CRASH_ACTIONS", "60"))
SEED = int(os.environ.get("TABLEKEEPER_CRASH_SEED", "20261130"))
TORN = int(os.environ.get("TABLEKEEPER_CRASH_TORN", "6"))


def _power(pragmas: str | None = None) -> dict:
    runs = {}
    env_before = os.environ.get("CRASHSIM_PRAGMAS")
    if pragmas:
        os.environ["CRASHSIM_PRAGMAS"] = pragmas
    try:
        with tempfile.TemporaryDirectory(prefix="bench-crash-") as tmp:
            state = Path(tmp) / "new" / "state"
            runs["new"] = crashsim.record(state, ACTIONS)
            if not pragmas:
                state = Path(tmp) / "resumed" / "state"
                first = subprocess.run([sys.executable, str(crashsim.CHILD), str(state), "20"], capture_output=True,
                                       text=True, timeout=120)
                assert first.returncode == 0, first.stderr
                runs["resumed"] = crashsim.record(state, 40)
    finally:
        if env_before is None:
            os.environ.pop("CRASHSIM_PRAGMAS", None)
        else:
            os.environ["CRASHSIM_PRAGMAS"] = env_before
    verdicts = []
    ops = 0
    for rec in runs.values():
        assert rec.returncode == 0, rec.stderr
        ops += len(rec.ops)
        verdicts += crashsim.explore(crashsim.crash_states(rec, seed=SEED, torn_per_point=TORN), workers=2)
    figures = crashsim.figures(verdicts)
    figures["ops"] = ops
    figures["examples"] = [crashsim.describe(v) for v in verdicts if not v.ok][:5]
    return figures


def run() -> dict:
    if crashsim.ensure_strace() is None:
        return {"crash_skipped": {"value": 0, "unit": "", "why": crashsim.SKIP_REASON}}
    t0 = time.perf_counter()
    power = _power()
    power_s = time.perf_counter() - t0
    control = _power("journal_mode=DELETE;synchronous=FULL")

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        cases = faultinject.plan(Path(tmp))
        outcomes = faultinject.run_cases(Path(tmp), cases, workers=2)
    faults = faultinject.figures(outcomes)
    faults_s = time.perf_counter() - t0
    examples = [faultinject.describe(o) for o in outcomes if o.problems][:5]

    return {
        "crash_states_explored": {"value": power["crash_states"], "unit": "states", "by_model": power["by_model"],
                                  "from_ops": power["ops"], "seconds": round(power_s, 1),
                                  "what": f"new game of {ACTIONS} actions; 20 stored + 40 resumed"},
        "crash_acked_lost": {"value": power["acked_lost"], "unit": "actions", "goal": 0,
                             "states": power["states_losing_acked"], "examples": power["examples"]},
        "crash_resumes_failed": {"value": power["resumes_failed"], "unit": "states", "goal": 0},
        "crash_extra_beyond_in_flight": {"value": power["extra_beyond_in_flight"], "unit": "states", "goal": 0},
        "crash_states_with_warnings": {"value": power["states_with_warnings"], "unit": "states"},
        "crash_control_acked_lost": {"value": control["acked_lost"], "unit": "actions",
                                     "what": "control: DELETE + synchronous=FULL must lose some (model not blind)",
                                     "states": control["crash_states"]},
        "io_injections": {"value": faults["injections"], "unit": "runs", "planned": faults["injection_runs"],
                          "commands_failed": faults["commands_failed"], "seconds": round(faults_s, 1)},
        "io_tracebacks": {"value": faults["tracebacks"], "unit": "runs", "goal": 0},
        "io_damaged_renames": {"value": faults["damaged_renames"], "unit": "runs", "goal": 0},
        "io_acked_lost": {"value": faults["acked_lost"], "unit": "actions", "goal": 0},
        "io_unclear_messages": {"value": faults["unclear_messages"], "unit": "runs", "goal": 0},
        "io_state_afterwards_failed": {"value": faults["state_afterwards_failed"], "unit": "runs", "goal": 0,
                                       "examples": examples},
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
