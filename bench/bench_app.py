"""The touchscreen app: cold start, touch-to-frame, memory.

Run with ``make bench`` (all benchmarks) or ``.venv/bin/python bench/run.py app``.
Everything renders offscreen (``SDL_VIDEODRIVER=offscreen``, Mesa llvmpipe),
in child processes (Kivy allows one window per process):

* ``app_cold_start``: from spawning ``python`` to the first frame of the table
  screen, resuming a stored Red Dragon Inn game of 200 actions (what a restart
  does). Goal ≤ 3 s here.
* ``app_touch_to_frame``: a finger lifts from a "+" button → the adjustment
  is journalled (durable: WAL, synchronous=FULL, on the worker thread) → the
  frame that shows the new number is drawn and rasterised (``glFinish``:
  software GL queues frames, see ``_child_touch``; the value's flash on, the
  default). Median and 95th percentile of 2 x 40 touches.
* ``app_commit``: the journal commit alone on the worker (what the touch
  waits for, but the UI thread does not).
* ``app_touch_to_frame_still``: touch-to-frame with the motion setting off
  (no flash on the changed value), alternated with the default in one run;
  ``flash_over_still`` is the ratio of the medians.
* ``compare BEFORE AFTER [ROUNDS]`` (not part of ``make bench``): the touch
  figures of two code trees alternated in one run (docs/benchmarks.md).
* ``app_peak_rss``: the app process's peak resident memory after all that
  (goal ≤ 150 MB), next to ``app_kivy_empty_window_rss``: an empty Kivy
  window measured the same way, the renderer's floor.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
TOUCHES = 40
ACTIONS = 200


def _env(tmp: Path) -> dict:
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(k, None)
    env.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp / "kivy"), "XDG_CACHE_HOME": str(tmp / "cache"),
                "LANG": "C.UTF-8"})
    (tmp / "kivy").mkdir(exist_ok=True)
    return env


def _prepare(state: Path) -> None:
    """A stored, unfinished 4-player Red Dragon Inn game of ACTIONS adjustments."""
    from tablekeeper.engine import Journal, Session

    rng = random.Random(8)
    with Journal(state) as journal:
        s = Session.new(journal, "red-dragon-inn", ["Ana", "Ben", "Cai", "Dan"], {})
        for _ in range(ACTIONS):
            who = rng.choice(["Ana", "Ben", "Cai", "Dan"])
            s.apply({"action": "adjust", "player": who, "counter": "gold", "delta": rng.choice([-1, 1, 2])})


def _child_start(state: str) -> None:
    from tablekeeper.ui.app import build_app, configure_kivy

    configure_kivy()
    app = build_app(state, lang="en")
    from kivy.clock import Clock

    def check(dt):
        if app.table_frame_at is not None:
            print(f"TABLE_FRAME {time.time() - (time.perf_counter() - app.table_frame_at):.6f}", flush=True)
            app.stop()
            return False

    Clock.schedule_interval(check, 0)
    app.run()


def _child_empty() -> None:
    """An empty Kivy window, configured like the app: the renderer's own share of the memory."""
    import resource

    from tablekeeper.ui.app import configure_kivy

    configure_kivy()
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    class Empty(App):
        def build(self):
            Clock.schedule_once(lambda dt: self.stop(), 0.3)
            return Label(text="tablekeeper")

    Empty().run()
    print(f"EMPTY_RSS_KB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", flush=True)


def _child_touch(state: str, motion: bool = True) -> None:
    import resource

    from tablekeeper.ui.settings import Settings
    from tablekeeper.ui.testing import Robot

    # The one-side layout, as measured before seat-facing cards came (four players facing their seats
    # get tiles without "+": a tap opens the adjust dialog), set as a player sets it: in the settings,
    # which the app reads at start (switching after the start drew two tables, 13 MB of the peak).
    settings = Settings(state)
    settings.seat_facing = False
    settings.save()
    # 60 fps, as the app runs: the UI thread sleeps between frames (a spinning test
    # loop would starve the journal worker of the GIL and measure that instead).
    r = Robot.start(state, lang="en", fps=60)
    assert r.app.sm.current == "table" and not r.app.screen("table").facing
    r.app.settings.motion = motion  # this process only: the file is not saved
    from kivy.graphics.opengl import glFinish

    def frame():
        # A frame is on the screen once it is rasterised. Software GL (llvmpipe, one thread) queues
        # whole frames and rasterises them later, up to three at once, so without the finish a frame
        # "drawn" here may not exist as pixels yet: most touches looked fast (~9 ms) and every
        # third paid for three frames (~85 ms). A display's buffer swap waits for the pixels; the
        # offscreen window's does not, so the benchmark waits for them itself.
        r.frames(1)
        glFinish()

    tid = "table.Ana.gold.plus"
    label = "table.Ana.gold.value"
    times = []
    for _ in range(TOUCHES):
        before = r.text(label)
        w = r.find(tid)
        x, y = w.to_window(*w.center)
        touch = r.Touch(x, y)
        touch.down()
        frame()
        t0 = time.perf_counter()
        touch.up()
        deadline = t0 + 10
        while r.text(label) == before:  # each idle() = input, clock, layout, draw, flip; then the pixels
            frame()
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the adjustment never showed (touch {len(times) + 1}, {r.app.toast.label.text!r})")
        times.append(time.perf_counter() - t0)
    commits = list(r.app.keeper.commit_times)[-TOUCHES:]
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    r.stop()
    print("TOUCH " + json.dumps({"times": times, "commits": commits, "rss_kb": rss_kb}), flush=True)


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run() -> dict:
    with tempfile.TemporaryDirectory(prefix="tk-bench-app-") as d:
        tmp = Path(d)
        state = tmp / "state"
        _prepare(state)
        env = _env(tmp)
        # Warm the OS file cache once (Python, Kivy, Mesa): "cold" = a new process, not a cold disk.
        subprocess.run([sys.executable, str(HERE), "start", str(state)], env=env, capture_output=True, timeout=120)
        starts = []
        for _ in range(3):
            t0 = time.time()
            out = subprocess.run([sys.executable, str(HERE), "start", str(state)], env=env, capture_output=True,
                                 text=True, timeout=120)
            line = next((x for x in out.stdout.splitlines() if x.startswith("TABLE_FRAME ")), None)
            if line is None:
                raise RuntimeError("no table frame:\n" + out.stderr[-2000:])
            starts.append(float(line.split()[1]) - t0)
        # With the changed value's flash (the default) and without, alternated: the flash runs on the
        # clock and must add nothing to the frame that shows the new value.
        runs: dict[str, list[dict]] = {"touch": [], "touch-still": []}
        for kind in ("touch", "touch-still", "touch", "touch-still"):
            out = subprocess.run([sys.executable, str(HERE), kind, str(state)], env=env, capture_output=True,
                                 text=True, timeout=300)
            line = next((x for x in out.stdout.splitlines() if x.startswith("TOUCH ")), None)
            if line is None:
                raise RuntimeError("touch benchmark failed:\n" + out.stderr[-2000:])
            runs[kind].append(json.loads(line[len("TOUCH "):]))
        touch = {"times": [t for run in runs["touch"] for t in run["times"]],
                 "commits": [t for run in runs["touch"] for t in run["commits"]],
                 "rss_kb": max(run["rss_kb"] for run in runs["touch"])}
        still = [t * 1000 for run in runs["touch-still"] for t in run["times"]]
        out = subprocess.run([sys.executable, str(HERE), "empty"], env=env, capture_output=True, text=True,
                             timeout=120)
        line = next((x for x in out.stdout.splitlines() if x.startswith("EMPTY_RSS_KB ")), "EMPTY_RSS_KB 0")
        empty_kb = int(line.split()[1])
    ms = [t * 1000 for t in touch["times"]]
    commits = [t * 1000 for t in touch["commits"]]
    return {
        "app_cold_start": {"value": round(statistics.median(starts), 3), "unit": "s",
                           "runs": [round(s, 3) for s in starts], "goal": "<= 3 s",
                           "note": f"spawn to the first frame of the table screen, resuming a {ACTIONS}-action game, "
                                   "offscreen (Mesa llvmpipe)"},
        "app_touch_to_frame": {"value": round(statistics.median(ms), 2), "unit": "ms",
                               "p95": round(_pct(ms, 0.95), 2), "max": round(max(ms), 2), "touches": len(ms),
                               "note": "finger up on '+' to the rasterised frame showing the new value "
                                       "(glFinish), commit included"},
        "app_touch_to_frame_still": {
            "value": round(statistics.median(still), 2), "unit": "ms", "p95": round(_pct(still, 0.95), 2),
            "flash_over_still": round(statistics.median(ms) / statistics.median(still), 3),
            "note": "the same with the motion setting off (no flash on the changed value), alternated with it "
                    "in one run: flash_over_still near 1 = the flash costs the touch nothing"},
        "app_commit": {"value": round(statistics.median(commits), 2), "unit": "ms",
                       "p95": round(_pct(commits, 0.95), 2),
                       "note": "Session.apply with its durable SQLite commit, on the journal worker thread"},
        "app_peak_rss": {"value": round(touch["rss_kb"] / 1024, 1), "unit": "MB", "goal": "<= 150 MB",
                         "note": "the app process (Kivy, GL, a 4-player table, virtual pods loaded)"},
        "app_kivy_empty_window_rss": {"value": round(empty_kb / 1024, 1), "unit": "MB",
                                      "note": "an empty Kivy window with the same renderer: the floor under "
                                              "app_peak_rss (here Mesa llvmpipe, LLVM included)"},
        "app_renderer": {"value": os.environ.get("LP_NUM_THREADS", "0"), "unit": "LP_NUM_THREADS",
                         "note": "llvmpipe rasteriser threads (the app's default 0 avoids a Mesa leak; 2 draws ~6x "
                                 "faster here)"},
    }


def compare(before: str, after: str, rounds: int = 2) -> dict:
    """Touch-to-frame of two code trees, alternated in one run (``rounds`` x 40 touches each).

    ``before``/``after``: folders holding a ``tablekeeper`` package (e.g. symlinks to a worktree's
    engine/, hardware/, ui/, firmware/), put first on PYTHONPATH of the children; this file's own
    child measures both, so the method is the same for both."""
    trees = {"before": before, "after": after}
    times: dict[str, list[float]] = {k: [] for k in trees}
    rss: dict[str, list[float]] = {k: [] for k in trees}
    with tempfile.TemporaryDirectory(prefix="tk-bench-app-") as d:
        tmp = Path(d)
        states = {}
        for k, root in trees.items():
            states[k] = tmp / f"state-{k}"
            subprocess.run([sys.executable, str(HERE), "prepare", str(states[k])], check=True, timeout=300,
                           env=dict(os.environ, PYTHONPATH=root))
        for _ in range(rounds):
            for k, root in trees.items():
                env = dict(_env(tmp), PYTHONPATH=root)
                out = subprocess.run([sys.executable, str(HERE), "touch", str(states[k])], env=env,
                                     capture_output=True, text=True, timeout=600)
                line = next((x for x in out.stdout.splitlines() if x.startswith("TOUCH ")), None)
                if line is None:
                    raise RuntimeError(f"touch benchmark ({k}) failed:\n" + out.stderr[-2000:])
                run = json.loads(line[len("TOUCH "):])
                times[k] += [t * 1000 for t in run["times"]]
                rss[k].append(run["rss_kb"] / 1024)
    out = {k: {"median_ms": round(statistics.median(v), 1), "p95_ms": round(_pct(v, 0.95), 1),
               "max_ms": round(max(v), 1), "touches": len(v), "peak_rss_mb": round(max(rss[k]), 1)}
           for k, v in times.items()}
    out["after_over_before"] = {
        "median": round(statistics.median(times["after"]) / statistics.median(times["before"]), 3),
        "p95": round(_pct(times["after"], 0.95) / _pct(times["before"], 0.95), 3)}
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "start":
        _child_start(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] in ("touch", "touch-still"):
        _child_touch(sys.argv[2], motion=sys.argv[1] == "touch")
    elif len(sys.argv) == 3 and sys.argv[1] == "prepare":
        _prepare(Path(sys.argv[2]))
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "compare":
        print(json.dumps(compare(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 2), indent=2))
    elif len(sys.argv) == 2 and sys.argv[1] == "empty":
        _child_empty()
    else:
        print(json.dumps(run(), indent=2))
