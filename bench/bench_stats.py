"""Statistics over 10 000 stored games.

The journal holds 10 000 finished games: 100 played through the rules by the
robot of bench/playgen.py, each stored 100 times over (new game numbers, later
dates; the same actions). The summaries' cache (ui/playlog.py) is filled as a
first ``tablekeeper stats`` would fill it; a sample of the copies is replayed
to check that the cache says what a replay says.

* stats_10k: open the journal, read the roster and the 10 000 plays through
  the cache, compute every statistic (per player and game, per game) and one
  head-to-head — what ``tablekeeper stats`` does before printing. Goal ≤ 0.5 s.
* stats_pure_10k: the statistics alone, over plays already in memory.
* stats_cli_10k: ``tablekeeper stats --json`` as a process (Python's start included).
* summary_per_game: replaying one finished game to summarize it (what the
  first ``stats`` pays once per game, and later only for new games).
* resume_10k_games: ``Session.resume`` of an unfinished game in that journal,
  before and after the roster and the cache exist (they are not read there).
"""
from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import playgen  # noqa: E402

from tablekeeper.engine import Journal, Session  # noqa: E402
from tablekeeper.engine import records as rec  # noqa: E402
from tablekeeper.engine import roster as people  # noqa: E402
from tablekeeper.engine.journal import FILENAME  # noqa: E402
from tablekeeper.ui import playlog  # noqa: E402

BASE = 100
COPIES = 100
GOAL_S = 0.5


def _median_time(fn, n: int = 5, cpu: list[float] | None = None) -> float:
    """Median wall time of ``fn()``; its median CPU time (this process) appended to ``cpu`` if given
    (the machine is shared: CPU time says what the work costs when others run too)."""
    times, cpus = [], []
    for _ in range(n):
        c = time.process_time()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    if cpu is not None:
        cpu.append(statistics.median(cpus))
    return statistics.median(times)


def build(state_dir: Path) -> list[rec.Play]:
    """The 10 000-game journal and its base plays (the 100 played ones)."""
    with Journal(state_dir, durable=False) as j:
        playgen.generate(j, BASE, seed=2024)
        base = rec.stored_plays(j)
    con = sqlite3.connect(state_dir / FILENAME)
    span = max(p.finished for p in base) - min(p.started for p in base) + 86400
    with con:
        for k in range(1, COPIES):
            shift = k * span
            con.execute("INSERT INTO games (id, game, setup, started, finished, result) "
                        "SELECT id + ?, game, setup, started + ?, finished + ?, result FROM games WHERE id <= ?",
                        (k * BASE, shift, shift, BASE))
            con.execute("INSERT INTO entries (game, seq, body, crc, at) "
                        "SELECT game + ?, seq, body, crc, at + ? FROM entries WHERE game <= ?", (k * BASE, shift, BASE))
    con.close()
    return base


def fill_cache(state_dir: Path, base: list[rec.Play]) -> None:
    """The cache as the first ``stats`` leaves it, made from the base summaries (the copies replay the same)."""
    by_id = {p.id: p for p in base}
    with Journal(state_dir) as j:
        records = j.games()
    plays = []
    for r in records:
        if r.finished is None:  # the unfinished game
            continue
        b = by_id[(r.id - 1) % BASE + 1]
        plays.append(rec.Play(r.id, b.game, r.started, r.finished, b.turns, b.draw, b.seats))
    playlog.write_atomic(state_dir / playlog.CACHE_FILE, playlog.cache_bytes(plays))
    with Journal(state_dir) as j:  # a sample of the copies, replayed: the cache must say the same
        known = playlog._read_cache(state_dir / playlog.CACHE_FILE)
        by_number = {r.id: r for r in j.games()}
        for gid in range(BASE + 1, BASE * COPIES + 1, 397):
            record = by_number[gid]
            play = rec.summarize(record, [e for _s, e in j.entries(gid)])
            assert play is not None and play.seats == known[gid].seats and play.turns == known[gid].turns, gid
            assert play.finished == known[gid].finished


def run() -> dict:
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="tk-bench-stats-") as tmp:
        state = Path(tmp)
        t = time.perf_counter()
        base = build(state)
        built = time.perf_counter() - t
        with Journal(state) as j:
            unfinished = Session.new(j, "dragon-run", ["Ana", "Ben"])
            unfinished.apply({"action": "charge", "player": "Ana", "location": "other"})
            n_games = len(j.games())

        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        timed_resume = ("import time; t = time.perf_counter()\n"
                        "from tablekeeper.engine import Journal, Session\n"
                        f"j = Journal({str(state)!r}); s = Session.resume(j)\n"
                        "assert s is not None; print(time.perf_counter() - t)")

        def resume() -> float:
            """Open the journal and resume its unfinished game, in a fresh process (as the app starts)."""
            return float(subprocess.run([sys.executable, "-c", timed_resume], check=True, capture_output=True,
                                        text=True, env=env).stdout)

        # replaying to summarize: the once-per-game cost
        with Journal(state) as j:
            by_number = {r.id: r for r in j.games()}
            records = [by_number[p.id] for p in base]
            entries = {p.id: [e for _s, e in j.entries(p.id)] for p in base}
        t = time.perf_counter()
        for r in records:
            assert r is not None
            rec.summarize(r, entries[r.id])
        per_game = (time.perf_counter() - t) / len(records)

        fill_cache(state, base)
        with Journal(state) as j:
            roster, _ = people.load(j)
            roster.rename("Ana", "Ana María")
            people.save(j, roster)

        result: dict = {}

        parts: dict[str, list[float]] = {"open": [], "read_and_compute": []}

        def stats() -> None:
            t0 = time.perf_counter()
            with Journal(state) as j:
                t1 = time.perf_counter()
                result["stats"], plays = playlog.statistics(j, state, vs=("Ana María", "Ben"))
                result["plays"] = len(plays)
                t2 = time.perf_counter()
            for k, v in (("open", t1 - t0), ("read_and_compute", t2 - t1)):
                parts[k].append(v)

        cpu: list[float] = []
        stats_s = _median_time(stats, 7, cpu)
        size_mb = (state / FILENAME).stat().st_size / 1e6
        load = os.getloadavg()[0]
        assert result["plays"] == BASE * COPIES, result["plays"]
        with Journal(state) as j:
            plays, _ = playlog.people_plays(j, state)
        pure_s = _median_time(lambda: (rec.statistics(plays), rec.head_to_head(plays, "Ana María", "Ben")))

        cli = [sys.executable, "-m", "tablekeeper.ui.cli", "--state-dir", str(state), "stats", "--json"]

        def run_cli() -> None:
            subprocess.run(cli, check=True, capture_output=True, env=env)

        cli_s = _median_time(run_cli, 3)
        # resume with and without the roster and the cache, taken in turns (the machine's load moves)
        with Journal(state) as j:
            stored_roster = j.meta_get(people.META_KEY)
        cache = (state / playlog.CACHE_FILE).read_bytes()
        with_them, without = [], []
        for _ in range(5):
            with_them.append(resume())
            with Journal(state) as j:
                j.conn.execute("DELETE FROM meta WHERE key=?", (people.META_KEY,))
            (state / playlog.CACHE_FILE).unlink()
            without.append(resume())
            with Journal(state) as j:
                j.meta_set(people.META_KEY, stored_roster or "")
            (state / playlog.CACHE_FILE).write_bytes(cache)
        resume_after, resume_before = statistics.median(with_them), statistics.median(without)

    out["stats_10k"] = {"value": round(stats_s, 3), "unit": "s", "goal": f"<= {GOAL_S} s",
                        "met": stats_s <= GOAL_S, "cpu_s": round(cpu[0], 3), "games": n_games,
                        "plays": BASE * COPIES, "journal_mb": round(size_mb, 1), "load_average": round(load, 1),
                        **{f"{k}_s": round(statistics.median(v), 3) for k, v in parts.items()},
                        "note": "open the journal (its integrity check included), the roster and 10 000 plays "
                                "through the summaries' cache, every statistic and one head-to-head "
                                "(median of 7; cpu_s: this process's CPU time)"}
    out["stats_pure_10k"] = {"value": round(pure_s, 3), "unit": "s", "note": "the pure statistics alone"}
    out["stats_cli_10k"] = {"value": round(cli_s, 3), "unit": "s",
                            "note": "`tablekeeper stats --json` as a process, Python's start included (median of 3)"}
    out["summary_per_game"] = {"value": round(per_game * 1000, 2), "unit": "ms",
                               "note": f"replay of one finished game to summarize it (mean of {BASE}); a first "
                                       f"`stats` over 10 000 games pays it for each: "
                                       f"{per_game * BASE * COPIES:.0f} s once"}
    out["resume_10k_games"] = {"value": round(resume_after * 1000, 1), "unit": "ms",
                               "before_roster_and_cache_ms": round(resume_before * 1000, 1),
                               "note": "a fresh process opens the 10 000-game journal and resumes its unfinished game "
                                       "(imports included), with the roster and cache; before_roster_and_cache_ms: "
                                       "without them, in turns with it (medians of 5)"}
    out["stats_build_s"] = {"value": round(built, 1), "unit": "s", "note": "making the journal (not a figure)"}
    return out


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {json.dumps(value)}")
