"""Press latency: contact closed → first byte of the new picture on the pod's bus, eager vs stable-wait debounce.

    .venv/bin/python bench/run.py latency

Tables of four mock pods, built as ``tablekeeper serve`` and the app build
them: the owner (:class:`~tablekeeper.ui.controller.Keeper`, its worker
over a durable journal: the press is committed before the redraw) and its
pods subscribed (:class:`~tablekeeper.ui.podlink.PodLink`: the
:class:`~tablekeeper.hardware.rig.Rig`, gpiozero ``MockFactory`` pins, the
:class:`~tablekeeper.hardware.buttons.ButtonScanner` and its timer thread,
the mock display driver — luma.oled's ``ssd1306`` into an SSD1306 model on
a mock bus). One
table debounces eagerly (the default), one with the older stable-wait rule
(``Timing(eager=False)``), and a third eagerly on a journal that does not
fsync, to tell the disk's share from the rest; presses rotate between them
so all see the same machine.

A press is timed from just before its pin is driven low to the first
command or data byte the pressed seat's display driver puts on the bus (the
start of the new picture), so the bus transfer itself is left out: on a
Pi at 400 kHz I2C it adds what bench_pods measures. Each press is released
and given time to settle before the next one. Reported: the median and the
95th percentile over every press, per table; and, beside them, the median
time from contact to the press handed to the owner (``to_queue_ms``: the
debounce's share, before the owner applies, commits and draws).
"""
from __future__ import annotations

import dataclasses
import statistics
import tempfile
import threading
import time

from tablekeeper.hardware import config as configuration
from tablekeeper.hardware.buttons import Timing

PLAYERS = ["Ana", "Ben", "Cai", "Dan"]
OPTIONS = {"counters": [{"name": "score", "start": 0, "min": None}]}
PRESSES = 200  # per table
HELD = 0.04  # seconds a press is held (a quick tap)
REST = 0.04  # seconds after the release before the next press (the lockout and the release's debounce)


class Table:
    """One table as serve and the app build it: the owner (a Keeper on a durable journal) with its
    pods subscribed (PodLink: a rig of mock pods); the bus watched, and the owner's ``press`` timed."""

    def __init__(self, folder: str, timing: Timing, durable: bool = True):
        from tablekeeper.ui.controller import Keeper
        from tablekeeper.ui.podlink import PodLink

        self.keeper = Keeper(folder, durable=durable, pods=True).start(resume=False)
        self.keeper.new_game("counters", PLAYERS, OPTIONS)
        self.keeper.wait_idle()
        self.since = float("inf")
        self.pressed: float | None = None
        handed = self.keeper.press

        def press(event, _handed=handed):  # the hand-off to the owner: when the debounce let it through
            if self.pressed is None and event.kind == "press" and time.perf_counter() >= self.since:
                self.pressed = time.perf_counter()
            _handed(event)

        self.keeper.press = press  # type: ignore[method-assign]
        cfg = dataclasses.replace(configuration.mock_config(len(PLAYERS)), timing=timing)
        self.link = PodLink(self.keeper, cfg, report=lambda text: None)
        self.keeper.wait_idle()
        assert self.link.rig is not None, self.link.problem
        self.rig = self.link.rig
        self.first_byte: float | None = None
        self.drawn = threading.Event()
        self.watching: int | None = None  # the seat whose bus is watched
        for seat, pod in self.rig.pods.items():
            self._watch(seat, pod.face.link.model)

    def _watch(self, seat: int, model) -> None:
        """Note when the first byte after a press reaches this seat's display (commands and data alike)."""
        for name in ("command", "data"):
            send = getattr(model, name)

            def sent(*args, _send=send, _seat=seat):
                if self.watching == _seat and self.first_byte is None:
                    self.first_byte = time.perf_counter()
                    self.drawn.set()
                return _send(*args)

            setattr(model, name, sent)

    def press(self, seat: int) -> tuple[float, float]:
        """One tap of ``up`` at ``seat``; seconds from contact to the first byte of the new picture, and to
        the press on the owner's queue."""
        pin = self.rig.pods[seat].pin("up")
        self.first_byte = None
        self.drawn.clear()
        self.watching = seat
        self.pressed = None
        t0 = self.since = time.perf_counter()
        pin.drive_low()
        if not self.drawn.wait(2.0) or self.pressed is None:
            raise RuntimeError(f"seat {seat}: no new picture within 2 s of a press")
        latency = (self.first_byte - t0, self.pressed - t0)
        time.sleep(max(0.0, HELD - (time.perf_counter() - t0)))
        self.watching = None
        pin.drive_high()
        time.sleep(REST)
        return latency

    def close(self) -> None:
        self.link.close()
        self.keeper.stop()


def _figures(name: str, seconds: list[tuple[float, float]], timing: Timing, durable: bool) -> dict:
    ms = sorted(s * 1000 for s, _ in seconds)
    to_queue = statistics.median(q * 1000 for _, q in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    what = (f"contact closed → first byte of the new picture on the mock bus (bus time excluded), "
            f"{'eager' if timing.eager else 'stable-wait'} debounce ({timing.settle * 1000:g} ms before a "
            f"press counts), {'durable' if durable else 'no-fsync'} journal, {len(ms)} presses")
    return {
        f"press_latency_{name}_ms": {"value": round(statistics.median(ms), 2), "unit": "ms (median)",
                                     "p95": round(p95, 2), "min": round(ms[0], 2), "max": round(ms[-1], 2),
                                     "to_queue_ms": round(to_queue, 2), "what": what},
        f"press_latency_{name}_p95_ms": {"value": round(p95, 2), "unit": "ms (95th percentile)"},
    }


def run(presses: int = PRESSES) -> dict:
    modes = {"eager": (Timing(), True), "stable": (Timing(eager=False), True),
             "eager_no_fsync": (Timing(), False)}
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in modes}
    with tempfile.TemporaryDirectory() as d:
        tables = {}
        try:
            for name, (timing, durable) in modes.items():
                tables[name] = Table(f"{d}/{name}", timing, durable)
            for table in tables.values():
                table.press(1)  # warm up: first renders, imports
            for i in range(presses):
                for name, table in tables.items():
                    got[name].append(table.press(1 + i % len(PLAYERS)))
        finally:
            for table in tables.values():
                table.close()
    out: dict = {}
    for name, (timing, durable) in modes.items():
        out.update(_figures(name, got[name], timing, durable))
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
