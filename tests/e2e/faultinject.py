"""I/O-error injection into the ``tablekeeper`` command with strace (``-e inject=``).

Only the calls on the state folder are counted and failed: strace's ``-P``
path filter applies to injection too, so the N-th ``pwrite64`` is the N-th
one on ``journal.db``, ``-wal``, ``-shm``, ``-journal`` or the folder itself,
never one of Python's own files while it starts.

A case is (command, syscall, errno, N, persistent): the N-th call fails, or,
``persistent`` (``when=N+``), it and every later one do (a disk that stays
full). After the injected run the same state folder is checked without
injection: ``tablekeeper state`` must show every action that succeeded
before. The goals (see :func:`judge`):

* a failed command prints one clear line on stderr (``warning:`` lines aside),
  no Python ``Traceback``, and exits 1 or 2;
* no ``*.damaged*`` file appears because of a mere I/O error;
* no acknowledged action is lost.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from crashsim import strace_path

TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")
ACT = json.dumps({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1})
NAMES = ("journal.db", "journal.db-wal", "journal.db-shm", "journal.db-journal")

# syscall -> the errors injected into it
MATRIX = {
    "openat": ("EACCES", "EIO", "ENOSPC"),
    "pwrite64": ("ENOSPC", "EIO"),
    "write": ("ENOSPC", "EIO"),
    "fdatasync": ("EIO", "ENOSPC"),
    "fsync": ("EIO", "ENOSPC"),
    "ftruncate": ("EIO",),
    "unlink": ("EIO", "EACCES"),
}

# the commands: name -> (argv after --state-dir D, Ana's score a success adds)
COMMANDS = {
    "new": (["new", "counters", "Ana", "Ben"], 0),
    "act": (["act", ACT], 1),
}
BASE_ACTS = 2  # the act command runs on a game where Ana already scored this many times


def _run(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)


def cli(state: Path, *args: str) -> subprocess.CompletedProcess:
    return _run([str(TABLEKEEPER), "--state-dir", str(state), *args])


def _strace_prefix(state: Path, trace: Path, syscall: str) -> list[str]:
    paths = [str(state)] + [str(state / n) for n in NAMES]
    cmd = [strace_path(), "-f", "-y", "-qq", "--seccomp-bpf", "-o", str(trace), "-e", f"trace={syscall}"]
    for p in paths:
        cmd += ["-P", p]
    return cmd


def make_base(root: Path, command: str) -> Path:
    """The state folder a command runs on: empty for ``new``; a game with BASE_ACTS actions for ``act``."""
    base = root / f"base-{command}"
    if base.exists():
        return base
    base.mkdir(parents=True)
    if command != "new":
        r = cli(base, *COMMANDS["new"][0])
        assert r.returncode == 0, r.stderr
        for _ in range(BASE_ACTS):
            r = cli(base, "act", ACT)
            assert r.returncode == 0, r.stderr
    return base


def count_calls(root: Path, command: str, syscall: str) -> int:
    """How many ``syscall`` calls on the state folder the command makes (no injection)."""
    base = make_base(root, command)
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        state = Path(tmp) / "state"
        shutil.copytree(base, state)
        trace = Path(tmp) / "trace"
        r = _run(_strace_prefix(state, trace, syscall) + [str(TABLEKEEPER), "--state-dir", str(state),
                                                           *COMMANDS[command][0]])
        assert r.returncode == 0, r.stderr
        return sum(1 for line in trace.read_text().splitlines()
                   if len(line.split(None, 1)) == 2 and line.split(None, 1)[1].startswith(syscall + "("))


@dataclass
class Case:
    command: str
    syscall: str
    error: str
    when: int
    persistent: bool

    def __str__(self) -> str:
        return f"{self.command}: {self.syscall} {self.error} at call {self.when}{'+' if self.persistent else ''}"


@dataclass
class Outcome:
    case: Case
    injected: bool
    returncode: int
    stderr: str
    damaged: list[str]
    after_rc: int
    after_stderr: str
    after_damaged: list[str]
    score: int | None  # Ana's score shown by `tablekeeper state` afterwards (None: no game shown)
    problems: list[str] = field(default_factory=list)
    acked_lost: int = 0


def run_case(root: Path, case: Case) -> Outcome:
    base = make_base(root, case.command)
    argv, adds = COMMANDS[case.command]
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        state = Path(tmp) / "state"
        shutil.copytree(base, state)
        trace = Path(tmp) / "trace"
        inject = f"inject={case.syscall}:error={case.error}:when={case.when}{'+' if case.persistent else ''}"
        r = _run(_strace_prefix(state, trace, case.syscall) + ["-e", inject, str(TABLEKEEPER), "--state-dir",
                                                               str(state), *argv])
        injected = "(INJECTED)" in trace.read_text()
        damaged = sorted(p.name for p in state.iterdir() if ".damaged" in p.name)
        after = cli(state, "state")
        after_damaged = sorted(p.name for p in state.iterdir() if ".damaged" in p.name and p.name not in damaged)
        score = None
        if after.returncode == 0:
            try:
                view = json.loads(after.stdout)
                score = next(p["counters"]["score"] for p in view["players"] if p["name"] == "Ana")
            except (ValueError, KeyError, StopIteration):
                score = None
    out = Outcome(case, injected, r.returncode, r.stderr, damaged, after.returncode, after.stderr,
                  after_damaged, score)
    judge(out, adds)
    return out


def _message_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip() and not line.startswith("warning:")]


def judge(o: Outcome, adds: int) -> None:
    """Fill ``o.problems`` and ``o.acked_lost`` from the goals."""
    c = o.case
    if "Traceback" in o.stderr or "Traceback" in o.after_stderr:
        o.problems.append("traceback")
    if o.returncode != 0:
        if o.returncode not in (1, 2):
            o.problems.append(f"exit status {o.returncode}")
        lines = _message_lines(o.stderr)
        if len(lines) != 1:
            o.problems.append(f"{len(lines)} lines of error message")
    if o.damaged or o.after_damaged:
        o.problems.append("damaged-rename")
    # acknowledged before: the game (and BASE_ACTS actions) for act; plus this command's own if it succeeded
    succeeded = o.returncode == 0
    if c.command == "new":
        want_game = succeeded
        if want_game and o.score is None:
            o.problems.append("acked-lost")
            o.acked_lost = 1
        if o.after_rc != 0 and (want_game or "no game is stored" not in o.after_stderr):
            o.problems.append(f"state afterwards failed ({o.after_rc})")
    else:
        want = BASE_ACTS + (adds if succeeded else 0)
        have = o.score if o.score is not None else 0
        if have < want:
            o.acked_lost = want - have
            o.problems.append("acked-lost")
        elif have > BASE_ACTS + adds:
            o.problems.append(f"score {have}: more than the actions made")
        if o.after_rc != 0:
            o.problems.append(f"state afterwards failed ({o.after_rc})")


def plan(root: Path, *, commands=tuple(COMMANDS), matrix=MATRIX, sample: int | None = None,
         seed: int = 0) -> list[Case]:
    """Every case (N = 1 .. the calls the command makes, single and persistent), or a seeded sample."""
    cases = []
    for command in commands:
        for syscall, errors in matrix.items():
            n = count_calls(root, command, syscall)
            for when in range(1, n + 1):
                for error in errors:
                    for persistent in (False, True):
                        cases.append(Case(command, syscall, error, when, persistent))
    if sample is not None and sample < len(cases):
        # stratified: one N (drawn) for each command x syscall x error x persistence, then a random fill
        rng = random.Random(seed)
        groups: dict[tuple, list[Case]] = {}
        for c in cases:
            groups.setdefault((c.command, c.syscall, c.error, c.persistent), []).append(c)
        chosen = [rng.choice(g) for g in groups.values()]
        rest = [c for c in cases if c not in chosen]
        chosen += rng.sample(rest, max(0, min(len(rest), sample - len(chosen))))
        cases = chosen
    return cases


def run_cases(root: Path, cases: list[Case], workers: int = 2) -> list[Outcome]:
    for command in {c.command for c in cases}:
        make_base(root, command)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda c: run_case(root, c), cases))


def figures(outcomes: list[Outcome]) -> dict:
    return {
        "injection_runs": len(outcomes),
        "injections": sum(1 for o in outcomes if o.injected),
        "commands_failed": sum(1 for o in outcomes if o.returncode != 0),
        "tracebacks": sum(1 for o in outcomes if "traceback" in o.problems),
        "damaged_renames": sum(1 for o in outcomes if "damaged-rename" in o.problems),
        "acked_lost": sum(o.acked_lost for o in outcomes),
        "unclear_messages": sum(1 for o in outcomes if any("lines of error message" in p or "exit status" in p
                                                             for p in o.problems)),
        "state_afterwards_failed": sum(1 for o in outcomes if any(p.startswith("state afterwards") for p in o.problems)),
    }


def describe(o: Outcome) -> str:
    last = (o.stderr.strip().splitlines() or [""])[-1][:160]
    return f"{o.case}: rc={o.returncode} {', '.join(o.problems)} | {last}"
