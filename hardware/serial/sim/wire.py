"""A host link and a pod joined by a faulty wire on a fake clock: deterministic link tests."""
from __future__ import annotations

import random
from collections.abc import Callable

from ...pod import PAGES, WIDTH
from ...screen import FRAME_BYTES
from .faults import Faults


class Wire:
    """A host ``LinkCore`` and a pod ``PodCore`` joined by a wire, on a fake clock (``clock.now``, seconds).

    Every chunk written takes ``delay`` seconds (plus up to ``jitter``, in
    order) to arrive, through ``to_pod`` / ``to_host`` :class:`Faults`.
    :meth:`run` advances time from deadline to deadline (no busy steps).
    Host button events are collected in :attr:`events`, unless ``on_event``
    was given to the link. ``cut`` = True makes the wire carry nothing
    (a cable pulled without the port noticing).
    """

    def __init__(self, link, pod, clock, *, to_pod: Faults | None = None, to_host: Faults | None = None,
                 delay: float = 0.0005, jitter: float = 0.0, seed: int = 0):
        self.link = link
        self.pod = pod
        self.clock = clock
        self.to_pod = to_pod or Faults()
        self.to_host = to_host or Faults()
        self.delay = delay
        self.jitter = jitter
        self.rng = random.Random(seed)
        self.cut = False
        self._transit: list[tuple[float, int, str, bytes]] = []  # (when, order, to, data)
        self._order = 0
        self._last_arrival = {"pod": 0.0, "host": 0.0}
        self._actions: list[tuple[float, int, Callable[[], None]]] = []
        self.wire_bytes = {"pod": 0, "host": 0}

    def ms(self, t: float | None = None) -> int:
        return int(round((self.clock.now if t is None else t) * 1000))

    def at(self, when: float, action: Callable[[], None]) -> None:
        """Run ``action()`` at time ``when`` (seconds on the clock)."""
        self._order += 1
        self._actions.append((when, self._order, action))
        self._actions.sort(key=lambda a: (a[0], a[1]))

    def click(self, button: int, at: float | None = None, hold: float = 0.05) -> None:
        """A clean press and release of pod button ``button`` (index), starting at ``at`` (default now)."""
        t0 = self.clock.now if at is None else at
        self.at(t0, lambda: self.pod.contact(button, True, self.ms()))
        self.at(t0 + hold, lambda: self.pod.contact(button, False, self.ms()))

    def _send(self, to: str, data: bytes, now: float) -> None:
        if not data or self.cut:
            return
        data = (self.to_pod if to == "pod" else self.to_host).apply(data)
        if not data:
            return
        self.wire_bytes[to] += len(data)
        when = max(now + self.delay + (self.rng.random() * self.jitter if self.jitter else 0.0),
                   self._last_arrival[to])
        self._last_arrival[to] = when
        self._order += 1
        self._transit.append((when, self._order, to, data))

    def step(self) -> None:
        """Deliver what is due, run due actions, poll both ends once."""
        now = self.clock.now
        while self._actions and self._actions[0][0] <= now:
            _, _, action = self._actions.pop(0)
            action()
        due = sorted((t for t in self._transit if t[0] <= now), key=lambda t: (t[0], t[1]))
        self._transit = [t for t in self._transit if t[0] > now]
        for _, _, to, data in due:
            if to == "pod":
                self.pod.receive(data, self.ms())
            else:
                self.link.receive(data, now)
        self._send("host", self.pod.poll(self.ms()), now)
        self._send("pod", self.link.poll(now), now)

    def next_time(self) -> float:
        now = self.clock.now
        times = [self.pod.next_deadline(self.ms()) / 1000.0]
        d = self.link.next_deadline(now)
        if d is not None:
            times.append(d)
        times += [t[0] for t in self._transit]
        if self._actions:
            times.append(self._actions[0][0])
        # Never stand still: a deadline already past is handled at the next millisecond.
        return max(min(times), now + 0.0005)

    def run(self, seconds: float, until: Callable[[], bool] | None = None) -> bool:
        """Advance ``seconds`` of fake time (stop early when ``until()`` holds); returns whether it held."""
        return run_wires([self], self.clock, seconds, until)


def run_wires(wires: list[Wire], clock, seconds: float, until: Callable[[], bool] | None = None,
              between: Callable[[], None] | None = None, max_step: float | None = None) -> bool:
    """Advance several wires on one fake clock, deadline to deadline, for ``seconds`` or until ``until()``.

    ``between()`` runs after every step: the owner's turn (take events off
    the queue, refresh the pods). ``max_step``: the owner's own timers.
    """
    end = clock.now + seconds
    for w in wires:
        w.step()
    if between is not None:
        between()
    while clock.now < end:
        if until is not None and until():
            return True
        t = min(w.next_time() for w in wires)
        if max_step is not None:
            t = min(t, clock.now + max_step)
        clock.now = min(t, end)
        for w in wires:
            w.step()
        if between is not None:
            between()
    return until() if until is not None else True


class CoreDisplay:
    """A :class:`~tablekeeper.hardware.pod.DisplayDriver` straight onto a ``LinkCore`` (no port, no thread), for :class:`Wire` tables."""

    cleared_on_open = True

    def __init__(self, core):
        self.core = core

    def write(self, col0, col1, page0, page1, data) -> None:
        self.core.set_window(col0, col1, page0, page1, data)

    def contrast(self, level: int) -> None:
        self.core.set_contrast(level)

    def power(self, on: bool) -> None:
        self.core.set_power(on)

    def reopen(self) -> None:
        self.core.redraw()

    def close(self) -> None:
        self.core.set_window(0, WIDTH - 1, 0, PAGES - 1, bytes(FRAME_BYTES))
        self.core.set_power(False)
