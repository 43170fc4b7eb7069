"""A simulated pod as an in-memory object with pyserial's interface (OctoPrint's virtual printer): no pty needed."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .faults import Faults
from .machine import PodMachine


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
    def open(self) -> FakeSerial:
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
