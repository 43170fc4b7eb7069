"""The path of one pod press, as `tablekeeper serve` and the app take it: functions crossed, threads, CPU.

Four mock pods (gpiozero's MockFactory pins, luma's dummy displays) on a
durable journal, driven the way `serve --keys` drives them: a pin goes low
then high; gpiozero's callback thread turns it into an input event for the
owner (:class:`tablekeeper.ui.controller.Keeper`, as serve and the app build
it with :class:`tablekeeper.ui.podlink.PodLink`); the owner's worker applies
it, commits it, publishes one snapshot with each seat's view computed once,
and the pods show theirs. (Tests and other benchmarks drive the same owner on
their own thread, ``Keeper.start(thread=False)``; there is no second loop.)
A profiler on every thread counts, for the presses measured:

* ``press_functions``: distinct tablekeeper functions one press crosses (the
  mean over the presses), and the modules they live in;
* ``press_calls``: tablekeeper function calls per press (all threads);
* ``press_crossings``: calls per press from one part into another (``engine``, ``hardware``,
  ``ui.pod`` — the pods' interface —, the rest of ``ui``), by direction: how often a press goes
  back and forth between packages;
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

from tablekeeper.hardware import config as configuration

PLAYERS = ["Ana", "Ben", "Cai", "Dan"]
OPTIONS = {"counters": [{"name": "score", "start": 0, "min": None}]}


class _Owner:
    """The one owner and its subscribers, as serve and the app wire them."""

    def __init__(self, folder: str):
        from tablekeeper.ui.controller import Keeper
        from tablekeeper.ui.podlink import PodLink

        self.keeper = Keeper(folder, pods=True).start(resume=False)
        self.keeper.new_game("counters", PLAYERS, OPTIONS)
        self.keeper.wait_idle()
        self.link = PodLink(self.keeper, configuration.mock_config(len(PLAYERS)), report=lambda text: None)
        self.keeper.wait_idle()
        self.rig = self.link.rig

    def settle(self) -> None:
        self.keeper.wait_idle()

    def applied(self) -> int:
        return len(self.keeper.session.match.done)

    def profile(self, prof) -> None:
        """Profile the worker too (it was started before ``threading.setprofile``)."""
        self.keeper.call(lambda k: sys.setprofile(prof), quiet=True)
        self.keeper.wait_idle()

    def close(self) -> None:
        self.link.close()
        self.keeper.stop()


def _press(table, seat: int, button: str = "up") -> None:
    """One press and release, then the owner takes every event waiting."""
    pin = table.rig.pods[seat].pin(button)
    timing = table.rig.config.timing
    pin.drive_low()
    time.sleep(max(0.03, timing.debounce * 2))
    pin.drive_high()
    time.sleep(max(0.03, timing.debounce * 2))
    table.settle()


def part(module: str) -> str | None:
    """Which part of tablekeeper a module is in: engine, hardware, ui.pod (the pods' interface), ui."""
    if not module.startswith("tablekeeper."):
        return None
    name = module.split(".")
    if name[1] == "ui" and len(name) > 2 and name[2] == "pod":
        return "ui.pod"
    return name[1]


def _profiled(make, suffix: str, n: int = 20) -> dict:
    calls: Counter = Counter()
    crossings: Counter = Counter()
    per_press: list[set] = []
    threads: set[str] = set()

    def prof(frame, event, arg):
        if event != "call":
            return
        mod = frame.f_globals.get("__name__", "")
        if mod.startswith("tablekeeper."):
            threads.add(threading.current_thread().name)
            key = (mod, frame.f_code.co_name)
            calls[key] += 1
            per_press[-1].add(key)
            caller = frame.f_back
            here, there = part(mod), part(caller.f_globals.get("__name__", "")) if caller is not None else None
            if there is not None and there != here:
                crossings[f"{there} -> {here}"] += 1

    with tempfile.TemporaryDirectory() as d:
        table = make(d)
        try:
            _press(table, 1)  # warm up
            before = table.applied()
            per_press.append(set())
            table.profile(prof)
            threading.setprofile(prof)
            sys.setprofile(prof)
            for i in range(n):
                if i:
                    per_press.append(set())
                _press(table, 1 + i % len(PLAYERS))
            sys.setprofile(None)
            threading.setprofile(None)
            table.profile(None)
            assert table.applied() == before + n, "every press was applied"
        finally:
            table.close()
    return {
        f"press_functions{suffix}": {"value": round(sum(len(p) for p in per_press) / n), "unit": "functions/press",
                                     "modules": len({m for p in per_press for m, _f in p}),
                                     "all_presses": len(calls),
                                     "what": f"distinct tablekeeper functions one press crosses, mean of {n}"},
        f"press_calls{suffix}": {"value": round(sum(calls.values()) / n), "unit": "calls/press",
                                 "what": "tablekeeper function calls per press, every thread"},
        f"press_crossings{suffix}": {"value": round(sum(crossings.values()) / n, 1), "unit": "calls/press",
                                     "by_direction": {k: round(v / n, 1) for k, v in sorted(crossings.items())},
                                     "what": "calls per press from one part (engine, hardware, ui.pod, ui) into "
                                             "another"},
        f"press_threads{suffix}": {"value": len(threads), "unit": "threads", "names": sorted(threads),
                                   "what": "threads running tablekeeper code for the presses"},
    }


def _cpu(make, suffix: str, n: int = 40) -> dict:
    with tempfile.TemporaryDirectory() as d:
        table = make(d)
        try:
            _press(table, 1)
            t0 = time.process_time()
            for i in range(n):
                _press(table, 1 + i % len(PLAYERS))
            cpu = (time.process_time() - t0) / n
        finally:
            table.close()
    return {f"press_cpu{suffix}": {"value": round(cpu * 1000, 2), "unit": "ms CPU/press",
                                   "what": f"process CPU per press, press to redraw and commit, mean of {n}"}}


def run() -> dict:
    out = _profiled(_Owner, "")
    out.update(_cpu(_Owner, ""))
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
