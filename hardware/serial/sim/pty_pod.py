"""A simulated pod on a real pseudo-terminal, with a ``/dev/serial/by-id``-like name: the host opens it with pyserial."""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from .display import VirtualDisplay
from .faults import Faults
from .machine import PodMachine, SimPin


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
    def path(self) -> str | None:
        """What the host opens: the by-id symlink if there is one, else the pty."""
        return str(self.link_path) if self.link_path is not None else self.device

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def start(self) -> SimPod:
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
