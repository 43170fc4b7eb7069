"""A serial pod on a real port: finding it by pod id, the I/O thread, reconnecting, the DisplayDriver.

:class:`PortFinder` knows the stable device names (``/dev/serial/by-id``:
one name per device, whichever USB socket it is in) and which pod answered
on which; it is shared by the links of one table so that two seats never
open one port (pyserial's exclusive lock makes sure across processes).

:class:`SerialPodLink` is one seat's pod: a :class:`~.link.LinkCore`
driven by one thread per port that reads, writes and runs the link's timers.
It is the seat face's :class:`~tablekeeper.hardware.pod.DisplayDriver` (``write``, ``contrast``,
``power``, ``close``): those calls, from the owner thread, only set the
wanted picture and wake the I/O thread, so they never block on the port and
never fail; the link sends what changed when the pod can take it and
everything again after a reconnect. Button events go onto the owner's queue
(``sink(event)``; at most ``max_queued`` waiting, the rest counted and
reported): the I/O thread never calls the engine.

When the port fails (unplugged: pyserial raises) or stays without a session
for ``reopen_after``, the link closes it and looks for the pod again: at
once and every ``backoff_first`` while a port opens (the identify handshake
paces it, so a seat answers within 2 s of a silent line coming back), with
a growing delay (``backoff_first`` doubled up to ``backoff_max``) while no
port opens at all; the pod may come back on another device node. While a
device floods the link with garbage (:meth:`LinkCore.muted`) what it sends
is thrown away unread (``reset_input_buffer``) a tick at a time. :attr:`SerialPodLink.online` is what
the app and ``hw check`` show.
"""
from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import PodError
from ..pod import InputEvent
from .link import DOWN, IDENT, INCOMPATIBLE, ONLINE, LinkCore, LinkTiming

#: Where udev puts stable serial device names (tests point it at a folder of symlinks to ptys).
BY_ID = Path("/dev/serial/by-id")
#: A port that does not answer IDENTIFY is not probed again for this long (a GPS, a modem ...).
SILENT_FOR = 10.0


def port_problem(e: BaseException, path: str | None) -> PodError:
    """An error opening or using a serial port, as a sentence that says what to do."""
    no = getattr(e, "errno", None)
    text = str(e)
    if isinstance(e, PermissionError) or no in (errno.EACCES, errno.EPERM):
        return PodError(f"permission denied on {path}: add the user to the dialout group", temporary=False)
    if isinstance(e, FileNotFoundError) or no == errno.ENOENT or "No such file" in text:
        return PodError(f"{path} is not there (unplugged?)")
    if no == errno.EBUSY or "exclusively lock" in text:
        return PodError(f"{path} is in use by another program (another tablekeeper?)")
    return PodError(f"{path}: {getattr(e, 'strerror', None) or text or type(e).__name__}")


def open_serial(path: str, timing: LinkTiming):
    """Open ``path`` (a device node, or a pyserial URL such as ``loop://``) for a link."""
    import serial

    if "://" in path:
        port = serial.serial_for_url(path, baudrate=115200, timeout=timing.tick, write_timeout=timing.write_timeout)
    else:
        port = serial.Serial()
        port.port = path
        port.baudrate = 115200  # USB CDC ignores it; a UART pod uses it
        port.timeout = timing.tick
        port.write_timeout = timing.write_timeout
        if os.name == "posix":
            port.exclusive = True
        port.open()
    port.reset_input_buffer()  # what the pod said before nobody listened
    return port


class PortFinder:
    """The serial ports of this machine and which pod answered on which. Thread-safe.

    ``by_id``: the folder of stable names; ``extra``: more ports to look at
    (device nodes or pyserial URLs). ``clock`` for the "silent port" memory.
    """

    def __init__(self, by_id: Path | None = None, *, extra: tuple[str, ...] = (),
                 clock: Callable[[], float] = time.monotonic):
        self.by_id = BY_ID if by_id is None else Path(by_id)
        self.extra = tuple(extra)
        self.clock = clock
        self._lock = threading.Lock()
        self._held: dict[str, str] = {}  # path -> the pod id of the link holding it open
        self._seen: dict[str, str] = {}  # path -> the pod that answered there last
        self._silent: dict[str, float] = {}  # path -> not probed again before

    def ports(self) -> list[str]:
        try:
            names = sorted(self.by_id.iterdir())
        except OSError:
            names = []
        # udev makes each link under a temporary name (".tmp-...") and renames it: skip those, and hidden ones
        names = [p for p in names if not p.name.startswith(".") and ".tmp" not in p.name]
        return [str(p) for p in names] + list(self.extra)

    def candidates(self, pod_id: str, port: str | None = None) -> list[str]:
        """Where to look for ``pod_id``, best first: the configured port, names holding the id, where it was
        last, ports no pod answered on, ports where another pod was last (not open now)."""
        now = self.clock()
        ports = self.ports()
        with self._lock:
            present = set(ports)
            for gone in [p for p in self._seen if p not in present]:
                del self._seen[gone]
            key = pod_id.lower()
            first = [port] if port else []
            mine = [p for p in ports if p not in first and ((key and key in os.path.basename(p).lower())
                                                            or self._seen.get(p) == pod_id)]
            rest = [p for p in ports if p not in first and p not in mine and self._silent.get(p, 0.0) <= now]
            # Ports no pod answered on yet, then those where another pod was (not held now: it may have moved).
            rest.sort(key=lambda p: p in self._seen)
            return [p for p in first + mine + rest if p not in self._held]

    def claim(self, path: str, pod_id: str) -> bool:
        with self._lock:
            if path in self._held:
                return False
            self._held[path] = pod_id
            return True

    def release(self, path: str | None) -> None:
        if path is None:
            return
        with self._lock:
            self._held.pop(path, None)

    def note(self, path: str, pod_id: str) -> None:
        """``pod_id`` answered on ``path``."""
        with self._lock:
            self._seen[path] = pod_id
            self._silent.pop(path, None)

    def silent(self, path: str, seconds: float = SILENT_FOR) -> None:
        with self._lock:
            self._silent[path] = self.clock() + seconds

    def seen(self) -> dict[str, str]:
        with self._lock:
            return dict(self._seen)


class SerialPodLink:
    """One seat's serial pod, found by ``pod_id`` (or on the configured ``port``).

    ``sink(event)``: where each button event goes (the owner's); ``backlog()``: how many events wait
    for the owner now (its real queue), read before each one so that a stuck owner is noticed.
    ``buttons``: debounce, hold and repeat
    seconds for the pod. ``open_port(path, timing)`` and ``finder`` are
    injection points (tests use in-memory peers and folders of pty symlinks).
    Call :meth:`start`; :meth:`close` blanks the pod's display, switches it
    off and stops the thread.
    """

    cleared_on_open = True  # the picture starts blank and is kept here, whatever the pod does

    def __init__(self, seat: int, pod_id: str | None, sink: Callable[[InputEvent], None], *,
                 backlog: Callable[[], int] | None = None, port: str | None = None,
                 finder: PortFinder | None = None, timing: LinkTiming = LinkTiming(),
                 buttons: tuple[float, float, float] = (0.02, 0.6, 0.15), clock: Callable[[], float] = time.monotonic,
                 report: Callable[[str], None] | None = None, open_port: Callable | None = None, search: bool = True):
        self.seat = seat
        self.pod_id = pod_id  # None: whichever pod answers on ``port``
        self.configured_port = port
        self.search = search or port is None
        self.finder = finder or PortFinder()
        self.timing = timing
        self.clock = clock
        self._report = report or (lambda text: None)
        self.open_port = open_port or open_serial
        self.sink = sink
        self.backlog = backlog or (lambda: 0)
        self.core = LinkCore(seat, pod_id, timing, on_event=self._deliver, report=self._report, buttons=buttons)
        self._lock = threading.Condition(threading.RLock())
        self._port = None
        self.path: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.closed = False
        self.search_problem: str | None = None
        self.reconnects = 0
        self._opened_one = False  # the last search opened a port (and tried the handshake on it)

    def _deliver(self, event) -> None:
        """An event onto the owner's queue, unless ``max_queued`` wait there already (the owner is stuck)."""
        limit = self.timing.max_queued
        if limit and self.backlog() >= limit:
            core = self.core
            core.stats.events_queue_full += 1
            core._tell("queue", self.clock(), f"seat {self.seat}: {limit} button events wait on the queue: "
                       f"dropping more ({core.stats.events_queue_full} so far; is the game loop stuck?)")
            return
        self.sink(event)

    # -- state -----------------------------------------------------------------------------
    @property
    def online(self) -> bool:
        return self.core.online

    @property
    def problem(self) -> str | None:
        if self.core.online:
            return self.core.problem  # e.g. the pod's own display does not answer
        return self.core.problem or self.search_problem or "not connected yet"

    @property
    def identity(self):
        return self.core.identity

    @property
    def stats(self):
        return self.core.stats

    @property
    def pressed(self) -> tuple[str, ...] | None:
        """The pod's buttons down, as it last said (None: its firmware does not say)."""
        return self.core.pressed

    def describe(self) -> str:
        where = self.configured_port or f"by pod id under {self.finder.by_id}"
        return f"serial pod {self.pod_id!r} ({where})" if self.pod_id else f"a serial pod on {where}"

    def wait_for(self, predicate: Callable[[LinkCore], bool], timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until ``predicate(core)`` holds; checked whenever the link changes."""
        with self._lock:
            return self._lock.wait_for(lambda: predicate(self.core), timeout)

    # -- the DisplayDriver (owner thread) -----------------------------------------------------------
    def write(self, col0: int, col1: int, page0: int, page1: int, data: bytes) -> None:
        with self._lock:
            self.core.set_window(col0, col1, page0, page1, data)
        self._wake()

    def contrast(self, level: int) -> None:
        with self._lock:
            self.core.set_contrast(level)
        self._wake()

    def power(self, on: bool) -> None:
        with self._lock:
            self.core.set_power(on)
        self._wake()

    def reopen(self) -> None:
        with self._lock:
            self.core.redraw()
        self._wake()

    def close(self) -> None:
        """Blank and switch off the pod's display (waiting ``close_flush`` s at most), stop, close the port."""
        if self.closed:
            return
        self.closed = True
        with self._lock:
            self.core.set_window(0, 127, 0, 7, bytes(1024))
            self.core.set_power(False)
            online = self.core.online
        self._wake()
        if online and self._thread is not None:
            self.wait_for(lambda core: core.settled() or not core.online, self.timing.close_flush)
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        with self._lock:
            port, self._port = self._port, None
            self.core.closed(self.clock(), "closed")
        if port is not None:
            self._close_port(port)
            self.finder.release(self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def probe(self) -> bool:
        """Look for the pod once, here and now (no thread), without drawing anything; True if it answered.

        :attr:`identity` then says what it is; :attr:`problem` why not.
        """
        self.core.passive = True
        port = self._connect()
        if port is None:
            return False
        with self._lock:
            self._port = None
            self.core.closed(self.clock(), "closed")
        self._close_port(port)
        self.finder.release(self.path)
        return True

    # -- the I/O thread ------------------------------------------------------------------------------
    def start(self) -> SerialPodLink:
        if self._thread is None and not self.closed:
            self._thread = threading.Thread(target=self._run, name=f"serial-pod-{self.seat}", daemon=True)
            self._thread.start()
        return self

    def _wake(self) -> None:
        # Under the lock: the I/O thread clears _port under it before closing a port, so this never pokes a
        # closed port's (maybe reused) file descriptors.
        with self._lock:
            port = self._port
            if port is not None:
                try:
                    port.cancel_read()
                except Exception:  # loop:// and friends cannot; the tick is short
                    pass

    def _run(self) -> None:
        t = self.timing
        delay = t.backoff_first
        while not self._stop.is_set():
            port = self._connect()
            if port is None:
                # A port that opens but does not answer (a silent line, a pod busy restarting) is tried again
                # soon: the handshake's own timeout paces it. Only when nothing opens does the delay grow.
                if self._stop.wait(t.backoff_first if self._opened_one else delay):
                    break
                if not self._opened_one:
                    delay = min(delay * 2, t.backoff_max)
                continue
            delay = t.backoff_first
            why = self._serve(port)
            with self._lock:
                self._port = None
                self.core.closed(self.clock(), why)
                self._lock.notify_all()
            self._close_port(port)
            self.finder.release(self.path)
            self.reconnects += 1

    def _connect(self):
        """Open and identify candidate ports until this seat's pod answers; None if it is nowhere."""
        tried: list[str] = []
        self._opened_one = False
        paths = (self.finder.candidates(self.pod_id or "", self.configured_port)
                 if self.search or self.configured_port is None else [self.configured_port])
        for path in paths:
            if self._stop.is_set() or not self.finder.claim(path, self.pod_id or "?"):
                continue
            try:
                port = self.open_port(path, self.timing)
            except Exception as e:
                tried.append(str(port_problem(e, path)))
                self.finder.release(path)
                continue
            self._opened_one = True
            with self._lock:
                self._port = port
                self.path = path
                self.core.opened(self.clock(), path)
            result = self._handshake(port)
            if result == ONLINE:
                assert self.core.identity is not None  # online: identified
                self.finder.note(path, self.core.identity.pod_id)
                self.search_problem = None
                return port
            with self._lock:
                self._port = None
                wrong = self.core.wrong_pod
                self.core.closed(self.clock(), "")
            self._close_port(port)
            self.finder.release(path)
            if wrong:
                self.finder.note(path, wrong)
                tried.append(f"{path} has pod {wrong!r}")
            elif result == INCOMPATIBLE:
                tried.append(self.core.problem or f"{path} speaks another protocol")
                self.finder.silent(path)
            else:
                tried.append(f"{path} does not answer as a pod")
                self.finder.silent(path)
        problem = f"{self.describe()} not found" + (f" ({'; '.join(tried)})" if tried else
                                                   f": no serial port under {self.finder.by_id}")
        if problem != self.search_problem:
            self._report(f"seat {self.seat}: {problem}; still looking")
        self.search_problem = problem
        return None

    def _handshake(self, port) -> str:
        deadline = self.clock() + self.timing.identify_timeout
        try:
            while not self._stop.is_set() and self.clock() < deadline:
                self._step(port)
                state = self.core.state
                if state in (ONLINE, INCOMPATIBLE) or self.core.wrong_pod:
                    return state
        except Exception:
            return DOWN
        return IDENT

    def _serve(self, port) -> str:
        """Run the link on an open port until it fails or should be reopened; returns why it ended."""
        t = self.timing
        try:
            while not self._stop.is_set():
                self._step(port)
                core = self.core
                if core.state != ONLINE and core.ident_since is not None and \
                        self.clock() - core.ident_since > t.reopen_after:
                    return f"no session for {t.reopen_after:g} s"
                if core.state == INCOMPATIBLE:
                    return core.problem or "incompatible pod"
        except Exception as e:
            return str(port_problem(e, self.path))
        return "closed"

    def _step(self, port) -> None:
        """One round: timers and sending, then wait (up to the tick) for bytes and take them."""
        with self._lock:
            now = self.clock()
            out = self.core.poll(now)
            muted = self.core.muted(now)
            self._lock.notify_all()
        if out:
            port.write(out)
        if muted:
            # A flood: throw it away unread (the kernel does it), a tick at a time, for bounded CPU.
            n = port.in_waiting
            port.reset_input_buffer()
            with self._lock:
                self.core.stats.flood_bytes += n
            self._stop.wait(self.timing.tick)
            return
        data = port.read(1)
        if data:
            n = port.in_waiting
            if n:
                data += port.read(n)
            with self._lock:
                now = self.clock()
                self.core.receive(data, now)
                out = self.core.poll(now)
                self._lock.notify_all()
            if out:
                port.write(out)

    @staticmethod
    def _close_port(port) -> None:
        try:
            port.close()
        except Exception:
            pass
