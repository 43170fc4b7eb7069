"""Buttons: our own debounce, hold and repeat, on an injectable clock.

gpiozero's mock pins ignore ``bounce_time`` and its hold thread runs on the
wall clock, so both are ours: a :class:`Debouncer` per button turns raw
contact edges into ``press``/``release``, then ``hold`` after ``hold_time``
and ``repeat`` every ``repeat_interval`` while held.

Debounce is eager by default (QMK's ``sym_eager_pk``): a change counts as
soon as the contact has held its new level for ``noise`` seconds (1 ms,
which rejects electrical spikes but no finger), and then the button is
locked for ``debounce`` seconds, so the bounces that follow the first edge,
at press and at release, are ignored. A press therefore reaches the game
about 1 ms after the contact closes instead of 20 ms. ``Timing(eager=False)``
keeps the older rule — a level must stay put for ``debounce`` before it
counts — for contacts so noisy that 1 ms is not enough.

A :class:`ButtonScanner` owns the debouncers of every pod. Edges arrive from
any thread (gpiozero's callback thread, a serial reader); timers run on one
scanner thread — or, in tests, when :meth:`ButtonScanner.tick` is called
after advancing a fake clock. Events go onto the owner's ``queue.Queue``.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import PodError
from .pod import HOLD, PRESS, RELEASE, REPEAT, InputEvent


@dataclass(frozen=True)
class Timing:
    """Seconds. ``debounce``: the lockout after a change (eager) or how long a level must be stable (not eager);
    ``hold_time`` until hold; ``repeat_interval`` between repeats; ``noise``: how long a new level must last
    to be more than a spike (eager only; never longer than ``debounce``)."""

    debounce: float = 0.02
    hold_time: float = 0.6
    repeat_interval: float = 0.15
    eager: bool = True
    noise: float = 0.001

    @property
    def settle(self) -> float:
        """How long a new level must last before it counts."""
        return min(self.noise, self.debounce) if self.eager else self.debounce


class Debouncer:
    """One button's contact → debounced events. Pure: every method takes the time.

    A change of level counts once the contact has held it for ``timing.settle`` and the button is out of
    the lockout (``debounce`` after the last change it reported). With ``eager=False`` ``settle`` is the
    whole debounce time, which makes the lockout moot: the older stable-wait rule, same code.

    Not thread-safe on its own; :class:`ButtonScanner` serialises calls.
    """

    def __init__(self, seat: int, button: str, emit: Callable[[InputEvent], None], timing: Timing = Timing(),
                 *, pressed: bool = False):
        self.seat = seat
        self.button = button
        self.emit = emit
        self.timing = timing
        self.raw = pressed  # the contact as last seen
        self.stable = pressed  # the debounced state
        self.raw_since = float("-inf")
        self.locked_until = float("-inf")  # bounces before this are ignored
        self.next_hold: float | None = None  # when the next hold/repeat is due
        self.held = False

    def edge(self, now: float, pressed: bool) -> None:
        """The contact changed (or was read) at ``now``; only the last level per instant counts."""
        pressed = bool(pressed)
        if pressed != self.raw:
            self.raw = pressed
            self.raw_since = now

    def deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: nothing pending)."""
        if self.raw != self.stable:
            return max(self.raw_since + self.timing.settle, self.locked_until)
        if self.stable and self.next_hold is not None:
            return self.next_hold
        return None

    def tick(self, now: float) -> None:
        """Emit every event due by ``now``, each at the time it fell due."""
        while True:
            due = self.deadline()
            if due is None or due > now:
                return
            if self.raw != self.stable:
                self.stable = self.raw
                self.locked_until = due + self.timing.debounce
                if self.stable:
                    self.held = False
                    self.next_hold = due + self.timing.hold_time
                    self.emit(InputEvent(self.seat, self.button, PRESS, due))
                else:
                    self.next_hold = None
                    self.emit(InputEvent(self.seat, self.button, RELEASE, due))
            else:
                self.emit(InputEvent(self.seat, self.button, REPEAT if self.held else HOLD, due))
                self.held = True
                self.next_hold = due + self.timing.repeat_interval


class ButtonScanner:
    """The debouncers of every pod, their lock and their timer thread.

    ``clock`` (seconds, monotonic) is injectable: tests pass a fake clock,
    drive mock pins, advance the clock and call :meth:`tick` themselves
    instead of :meth:`start`.
    """

    def __init__(self, sink: Callable[[InputEvent], None], clock: Callable[[], float] = time.monotonic):
        self.sink = sink  # where each event goes: the owner's (a plain callable, called on this thread)
        self.clock = clock
        self.debouncers: list[Debouncer] = []
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stop = False

    def add(self, seat: int, button: str, timing: Timing = Timing(), *, pressed: bool = False) -> Debouncer:
        d = Debouncer(seat, button, self.sink, timing, pressed=pressed)
        with self._cond:
            self.debouncers.append(d)
        return d

    def remove(self, debouncers) -> None:
        with self._cond:
            self.debouncers = [d for d in self.debouncers if d not in debouncers]

    def edge(self, debouncer: Debouncer, pressed: bool) -> None:
        """A contact edge, from any thread. What fell due before it is emitted first (the timer thread may be
        late), so the events never depend on thread scheduling."""
        with self._cond:
            now = self.clock()
            debouncer.tick(now)
            debouncer.edge(now, pressed)
            self._cond.notify()

    def tick(self) -> None:
        """Emit what is due now."""
        with self._cond:
            now = self.clock()
            for d in self.debouncers:
                d.tick(now)

    def next_deadline(self) -> float | None:
        with self._cond:
            times = [t for t in (d.deadline() for d in self.debouncers) if t is not None]
        return min(times) if times else None

    # -- the timer thread ------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._stop = False
            self._thread = threading.Thread(target=self._run, name="pod-buttons", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with self._cond:
            while not self._stop:
                now = self.clock()
                for d in self.debouncers:
                    d.tick(now)
                times = [t for t in (d.deadline() for d in self.debouncers) if t is not None]
                self._cond.wait(max(0.0, min(times) - self.clock()) if times else None)

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None


class GpioButtons:
    """One pod's buttons wired to GPIO pins (to ground, internal pull-up), through gpiozero.

    ``pins``: button name → BCM pin number. ``factory``: a gpiozero pin
    factory (``MockFactory`` for mock pods). Each button is a gpiozero
    ``DigitalInputDevice(pull_up=True, bounce_time=None)`` — that is
    ``Button`` without its ``HoldMixin``, whose thread per button wakes ten
    times a second and times holds on the wall clock; hold and repeat are
    the :class:`Debouncer`'s, on our clock. Every raw edge goes to the
    debouncer.
    """

    def __init__(self, seat: int, pins: dict[str, int], scanner: ButtonScanner, factory, timing: Timing = Timing()):
        from gpiozero import DigitalInputDevice  # only when a pod is really built

        self.seat = seat
        self.scanner = scanner
        self.buttons: dict[str, Any] = {}  # gpiozero's DigitalInputDevice (untyped)
        self.debouncers: list[Debouncer] = []
        try:
            for name, pin in pins.items():
                b = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
                self.buttons[name] = b
                d = scanner.add(seat, name, timing, pressed=b.is_active)
                self.debouncers.append(d)
                b.when_activated = self._callback(d, True)
                b.when_deactivated = self._callback(d, False)
        except Exception as e:
            self.close()
            raise PodError(f"seat {seat}: buttons: {gpio_problem(e)}", temporary=False) from e

    def _callback(self, d: Debouncer, pressed: bool):
        scanner = self.scanner

        def changed():
            scanner.edge(d, pressed)

        return changed

    def pin(self, name: str):
        """The gpiozero pin of a button (a ``MockPin`` on mock pods: ``drive_low()`` presses)."""
        return self.buttons[name].pin

    def pressed_now(self) -> list[str]:
        return [name for name, b in self.buttons.items() if b.is_active]

    def close(self) -> None:
        self.scanner.remove(self.debouncers)
        for b in self.buttons.values():
            try:
                b.close()
            except Exception:  # pragma: no cover - closing must never raise
                pass
        self.buttons.clear()


def gpio_problem(e: BaseException) -> str:
    """An OS or gpiozero error as a sentence that says what to do."""
    name = type(e).__name__
    if isinstance(e, PermissionError) or getattr(e, "errno", None) in (1, 13):
        where = getattr(e, "filename", None) or "/dev/gpiochip0"
        return f"permission denied on {where}: add the user to the gpio group"
    if name == "GPIOPinInUse":
        return f"{e} (is another program using it?)"
    if name in ("BadPinFactory", "PinFactoryFallback"):
        return f"no GPIO on this machine ({e})"
    if isinstance(e, FileNotFoundError):
        return f"{getattr(e, 'filename', None) or 'the GPIO chip'} not found: is this a Raspberry Pi?"
    return f"{name}: {e}"
