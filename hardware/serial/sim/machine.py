"""One simulated pod: the firmware's own ``PodCore`` with its virtual display and buttons."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from tablekeeper.firmware import podcore

from .display import VirtualDisplay


class PodMachine:
    """A pod's firmware logic with its virtual display and buttons, on a millisecond clock. Thread-safe.

    ``restart()`` is a power cycle: a new boot id, the display set up again,
    every unsent button event lost. Button actions are scheduled
    (:meth:`click`, :meth:`contact`) and run by :meth:`advance`.
    """

    BUTTONS = ("up", "down", "select", "main")

    def __init__(self, pod_id: str, *, clock: Callable[[], float] = time.monotonic, rx_window: int | None = None,
                 firmware: str | None = None):
        self.pod_id = pod_id
        self.clock = clock
        self.rx_window = rx_window
        self.firmware = firmware
        self.lock = threading.RLock()
        self.display = VirtualDisplay()
        self.boots: list[int] = []
        self.core: podcore.PodCore  # set by restart(), a power cycle
        self._actions: list[tuple[int, int, int, bool]] = []  # (ms, order, button, pressed)
        self._order = 0
        self.clicks = 0
        self.restart()

    def ms(self) -> int:
        return int(self.clock() * 1000)

    def restart(self) -> None:
        with self.lock:
            keep = self.display.fail
            self.display = VirtualDisplay()
            self.display.fail = keep
            kw: dict[str, int | str] = {}
            if self.rx_window is not None:
                kw["rx_window"] = self.rx_window
            if self.firmware is not None:
                kw["firmware"] = self.firmware
            boot = podcore.new_boot_id()
            self.boots.append(boot)
            self.core = podcore.PodCore(self.pod_id, boot, self.display, self.ms(), **kw)
            self._actions.clear()

    def button_index(self, button: str | int) -> int:
        return button if isinstance(button, int) else self.BUTTONS.index(button)

    def contact(self, button: str | int, pressed: bool, delay: float = 0.0) -> None:
        """Set a button's contact level now (or ``delay`` seconds from now)."""
        with self.lock:
            self._order += 1
            self._actions.append((self.ms() + int(delay * 1000), self._order, self.button_index(button), pressed))
            self._actions.sort()

    def click(self, button: str | int, hold: float = 0.05, after: float = 0.0) -> None:
        """Press a button ``after`` seconds from now and release it ``hold`` s later, like a finger."""
        with self.lock:
            self.clicks += 1
            self.contact(button, True, after)
            self.contact(button, False, after + hold)

    def receive(self, data: bytes) -> None:
        with self.lock:
            self.core.receive(data, self.ms())

    def advance(self) -> bytes:
        """Run the button actions and timers due now; the bytes the pod sends."""
        with self.lock:
            now = self.ms()
            out = b""
            while self._actions and self._actions[0][0] <= now:
                at, _, b, pressed = self._actions.pop(0)
                # Each contact change at its own time, with the timers run up to it: a thread that wakes
                # late must not squeeze a press and its release into one instant (no press at all).
                out += self.core.poll(at)
                self.core.contact(b, pressed, at)
            return out + self.core.poll(now)

    def next_deadline(self) -> float:
        """Seconds on ``clock`` when :meth:`advance` next has work."""
        with self.lock:
            t = self.core.next_deadline(self.ms())
            if self._actions:
                t = min(t, self._actions[0][0])
            return t / 1000.0

    @property
    def frame(self) -> bytes:
        """What the pod's OLED holds now."""
        with self.lock:
            return self.display.frame


class SimPin:
    """A simulated pod button with MockPin's two verbs (``drive_low`` presses: buttons pull to ground)."""

    def __init__(self, machine: PodMachine, button: str, wake: Callable[[], None]):
        self.machine = machine
        self.button = button
        self._wake = wake

    def drive_low(self) -> None:
        self.machine.contact(self.button, True)
        self._wake()

    def drive_high(self) -> None:
        self.machine.contact(self.button, False)
        self._wake()
