"""Journal benchmarks.

* journal_ack: time per acknowledged action (SQLite commit included) at 1 000
  actions into a game, as shipped (WAL + synchronous=FULL: one fsync of the
  -wal per action), against the fsync floor measured in the same run
  (``ack_vs_fsync_floor``); beside it the rollback mode of the version before
  (``journal_ack_rollback``: PERSIST + synchronous=FULL, three fsyncs per
  action), and the naive way —
  rewrite the whole state (with its undo history) as JSON, fsync, rename —
  and with the naive way without history (state only).
* resume_10k: open the journal and rebuild a stored 10 000-action game.
* replay_10k: peak RSS and wall time of `tablekeeper replay` on a 10 000-action script.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablekeeper.engine import Journal, Match, Session, make_rules

PLAYERS = ["Ana", "Ben", "Cai", "Dan"]
OPTIONS = {"counters": [{"name": "gold", "start": 10, "min": None}, {"name": "life", "start": 20, "min": None}],
           "table": [{"name": "round", "start": 1}]}


def action(i: int) -> dict:
    if i % 10 == 9:
        return {"action": "undo"}
    if i % 10 == 0 and i:
        return {"action": "redo"}
    return {"action": "adjust", "player": PLAYERS[i % 4], "counter": ("gold", "life")[i % 2],
            "delta": (i % 7) - 3 or 1}


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def _wchar() -> int:
    """Bytes this process has passed to write() so far (/proc/self/io)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def raw_fsync(n: int = 200) -> float:
    """The floor: ms for one 100-byte append + fsync on the same disk."""
    with tempfile.TemporaryDirectory(dir=Path.home()) as d, open(Path(d) / "f", "wb") as f:
        t0 = time.perf_counter()
        for _ in range(n):
            f.write(b"x" * 100)
            f.flush()
            os.fsync(f.fileno())
        return (time.perf_counter() - t0) / n * 1000


def _journal_per_action(folder: Path, warm: int, measured: int, rollback: bool = False,
                        rounds: int = 1) -> tuple[float, float, list[float]]:
    """(ms, bytes written) per acknowledged action, and the per-round ratios to the fsync floor.

    ``rollback``: the PERSIST + FULL mode of the version before. With ``rounds``
    > 1 the measured actions are cut into that many batches, each preceded by
    a floor batch of the same size, so the disk's drift touches both alike.
    """
    j = Journal(folder)
    if rollback:
        j.conn.execute("PRAGMA journal_mode=PERSIST")
        j.conn.execute("PRAGMA synchronous=FULL")
    s = Session.new(j, "counters", PLAYERS, OPTIONS)
    for i in range(warm):
        s.apply(action(i))
    per = measured // rounds
    spent, written, ratios = 0.0, 0, []
    for r in range(rounds):
        floor = raw_fsync(per) if rounds > 1 else 0.0
        w0, t0 = _wchar(), time.perf_counter()
        for i in range(warm + r * per, warm + (r + 1) * per):
            s.apply(action(i))
        took = time.perf_counter() - t0
        spent += took
        written += _wchar() - w0
        if floor:
            ratios.append(took / per * 1000 / floor)
    j.close()
    return spent / (per * rounds) * 1000, written / (per * rounds), ratios


def journal_ack(warm: int = 1000, measured: int = 300) -> dict:
    with tempfile.TemporaryDirectory(dir=Path.home()) as d:
        # the journal, as the device uses it; then as the version before had it (rollback), in the same run
        floor_before = raw_fsync()
        journal_ms, journal_bytes, ratios = _journal_per_action(Path(d) / "journal", warm, measured, rounds=6)
        rb_ms, rb_bytes, _r = _journal_per_action(Path(d) / "journal-rollback", warm, measured, rollback=True)

        # the naive way: keep state + history in memory, rewrite it all as JSON after every change
        m = Match(make_rules({"game": "counters", "players": PLAYERS, "options": OPTIONS}))
        path = Path(d) / "state.json"
        history: list[dict] = []
        for i in range(warm):
            m.apply(action(i))
            history.append(action(i))
        w0, t0 = _wchar(), time.perf_counter()
        for i in range(warm, warm + measured):
            m.apply(action(i))
            history.append(action(i))
            _atomic_write(path, json.dumps({"state": m.state, "done": m.done, "undone": m.undone,
                                            "history": history}))
        naive_ms = (time.perf_counter() - t0) / measured * 1000
        naive_bytes = (_wchar() - w0) / measured
        naive_size = path.stat().st_size
        t0 = time.perf_counter()
        for _ in range(measured):
            _atomic_write(path, json.dumps({"state": m.state}))
        naive_state_only_ms = (time.perf_counter() - t0) / measured * 1000
    floor = min(floor_before, raw_fsync())  # measured before and after: the lower is the disk's floor
    return {
        "fsync_floor": {"value": round(floor, 3), "unit": "ms", "what": "one 100-byte append + fsync, same disk"},
        "journal_ack": {"value": round(journal_ms, 3), "unit": "ms/action",
                        "at": f"{warm} actions into a game, mean of {measured}"},
        "journal_bytes_written": {"value": round(journal_bytes), "unit": "bytes/action",
                                  "what": "write() bytes per action, checkpoints included"},
        "ack_vs_fsync_floor": {"value": round(statistics.median(ratios), 2), "unit": "x the fsync floor",
                               "what": "median of 6 rounds, each 50 actions against 50 floor fsyncs just before",
                               "rounds": [round(r, 2) for r in ratios]},
        "journal_ack_rollback": {"value": round(rb_ms, 3), "unit": "ms/action",
                                 "what": "the same journal in rollback mode (PERSIST) + synchronous=FULL (the mode before)"},
        "journal_bytes_written_rollback": {"value": round(rb_bytes), "unit": "bytes/action"},
        "naive_bytes_written": {"value": round(naive_bytes), "unit": "bytes/action"},
        "naive_json_rewrite": {"value": round(naive_ms, 3), "unit": "ms/action",
                               "file_bytes": naive_size, "what": "state + undo history, write/fsync/rename"},
        "naive_json_state_only": {"value": round(naive_state_only_ms, 3), "unit": "ms/action",
                                  "what": "state only (no undo, no history), write/fsync/rename"},
        "journal_vs_naive": {"value": round(naive_ms / journal_ms, 1), "unit": "x cheaper"},
        "journal_vs_naive_state_only": {"value": round(naive_state_only_ms / journal_ms, 1), "unit": "x cheaper"},
    }


def _stored_game(d: Path, n: int) -> None:
    with Journal(d, durable=False) as j:
        s = Session.new(j, "counters", PLAYERS, OPTIONS)
        for i in range(n):
            s.apply(action(i))


def resume(n: int = 10_000, repeats: int = 5) -> dict:
    with tempfile.TemporaryDirectory() as d:
        _stored_game(Path(d), n)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            with Journal(d) as j:
                s = Session.resume(j)
            times.append(time.perf_counter() - t0)
        assert len(s.match.done) > 0
    return {"resume_10k": {"value": round(statistics.median(times), 3), "unit": "s",
                           "what": f"open + rebuild a stored {n}-action game, median of {repeats}",
                           "min": round(min(times), 3), "max": round(max(times), 3)}}


_CHILD = """
import resource, subprocess, sys, time
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.perf_counter() - t0
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, wall)
"""


def replay_memory(n: int = 10_000) -> dict:
    exe = Path(sys.executable).with_name("tablekeeper")
    with tempfile.TemporaryDirectory() as d:
        script = Path(d) / "game.jsonl"
        lines = [json.dumps({"game": "counters", "players": PLAYERS, "options": OPTIONS})]
        lines += [json.dumps(action(i)) for i in range(n)]
        script.write_text("\n".join(lines) + "\n")
        out = subprocess.run([sys.executable, "-c", _CHILD, str(exe), "replay", str(script)],
                             capture_output=True, text=True, check=True).stdout.split()
        assert out[0] == "0"
        rss_kib, wall = int(out[1]), float(out[2])
    return {"replay_10k_peak_rss": {"value": round(rss_kib / 1024, 1), "unit": "MiB"},
            "replay_10k_wall": {"value": round(wall, 2), "unit": "s"}}


def run() -> dict:
    out = {}
    out.update(journal_ack())
    out.update(resume())
    out.update(replay_memory())
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
