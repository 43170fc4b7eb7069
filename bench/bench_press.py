"""The path of one pod press, as `tablekeeper serve` takes it: functions crossed, threads, CPU.

Four mock pods (gpiozero's MockFactory pins, luma's dummy displays) on a
durable journal, driven the way `serve --keys` drives them: a pin goes low
then high; gpiozero's callback thread turns it into an input event on the
rig's queue; the owner thread (the hub) applies it, commits it and redraws
the pods. A profiler on every thread counts, for the presses measured:

* ``press_functions``: distinct tablekeeper functions one press crosses (the
  mean over the presses), and the modules they live in;
* ``press_calls``: tablekeeper function calls per press (all threads);
* ``press_cpu``: process CPU time per press (no profiler; a separate run).

With mock pins gpiozero calls the press callback on the thread that drives the
pin, so the thread hand-offs of a real press (a gpiozero or serial reader
thread, then the owner) are not counted here: they are one queue each.

The same figures after a change to the press path go beside these in
docs/benchmarks.md.
"""
from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections import Counter

from tablekeeper.engine import Journal, Session
from tablekeeper.hardware import config as configuration
from tablekeeper.hardware.hub import PodHub
from tablekeeper.hardware.rig import Rig

PLAYERS = ["Ana", "Ben", "Cai", "Dan"]
OPTIONS = {"counters": [{"name": "score", "start": 0, "min": None}]}


def _setup(folder: str):
    journal = Journal(folder)
    session = Session.new(journal, "counters", PLAYERS, OPTIONS)
    rig = Rig(configuration.mock_config(len(PLAYERS)), report=lambda text: None)
    rig.build()
    hub = PodHub(session, rig.pods, rig.events)
    rig.start()
    hub.refresh()
    return journal, session, rig, hub


def _press(rig: Rig, hub: PodHub, seat: int, button: str = "up") -> None:
    """One press and release, then the owner takes every event waiting."""
    pin = rig.pods[seat].pin(button)
    timing = rig.config.timing
    pin.drive_low()
    time.sleep(max(0.03, timing.debounce * 2))
    pin.drive_high()
    time.sleep(max(0.03, timing.debounce * 2))
    while hub.step(0):
        pass


def _profiled(n: int = 20) -> dict:
    calls: Counter = Counter()
    per_press: list[set] = []

    def prof(frame, event, arg):
        if event != "call":
            return
        mod = frame.f_globals.get("__name__", "")
        if mod.startswith("tablekeeper."):
            key = (mod, frame.f_code.co_name)
            calls[key] += 1
            per_press[-1].add(key)

    with tempfile.TemporaryDirectory() as d:
        journal, session, rig, hub = _setup(d)
        try:
            _press(rig, hub, 1)  # warm up
            threading.setprofile(prof)
            sys.setprofile(prof)
            for i in range(n):
                per_press.append(set())
                _press(rig, hub, 1 + i % len(PLAYERS))
            sys.setprofile(None)
            threading.setprofile(None)
        finally:
            rig.close()
            journal.close()
        assert session.match.done, "the presses were applied"
    return {
        "press_functions": {"value": round(sum(len(p) for p in per_press) / n), "unit": "functions/press",
                            "modules": len({m for p in per_press for m, _f in p}),
                            "all_presses": len(calls),
                            "what": f"distinct tablekeeper functions one press crosses, mean of {n}"},
        "press_calls": {"value": round(sum(calls.values()) / n), "unit": "calls/press",
                        "what": "tablekeeper function calls per press, every thread"},
    }


def _cpu(n: int = 40) -> dict:
    with tempfile.TemporaryDirectory() as d:
        journal, _session, rig, hub = _setup(d)
        try:
            _press(rig, hub, 1)
            t0 = time.process_time()
            for i in range(n):
                _press(rig, hub, 1 + i % len(PLAYERS))
            cpu = (time.process_time() - t0) / n
        finally:
            rig.close()
            journal.close()
    return {"press_cpu": {"value": round(cpu * 1000, 2), "unit": "ms CPU/press",
                          "what": f"process CPU per press, press to redraw and commit, mean of {n}"}}


def run() -> dict:
    out = _profiled()
    out.update(_cpu())
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
