"""The pod's main loop and its MicroPython plumbing: a millisecond clock and the USB serial as a port.

Shared by ``main.py`` (a microcontroller) and ``unixmain.py`` (the
MicroPython unix port on the host, for tests), so the loop the tests run is
the loop the pods run. MicroPython only (``time.ticks_ms``, ``select``).
"""
import sys
import time


class Clock:
    """Milliseconds since the start, never wrapping (``ticks_ms`` wraps; the differences do not)."""

    def __init__(self):
        self.last = time.ticks_ms()  # type: ignore[attr-defined]  # MicroPython's time
        self.now = 0

    def __call__(self):
        t = time.ticks_ms()  # type: ignore[attr-defined]
        self.now += time.ticks_diff(t, self.last)  # type: ignore[attr-defined]
        self.last = t
        return self.now


class StdioPort:
    """The USB serial (MicroPython's stdin/stdout) as bytes in and out, without blocking.

    ``read()`` returns what has arrived (maybe ``b""``), or None when the
    other end is gone for good (end of file; only on the unix port).
    Disable Ctrl-C on it first (``micropython.kbd_intr(-1)``): frames hold
    any byte.
    """

    def __init__(self, max_read=512):
        import select

        self.rd = sys.stdin.buffer
        self.wr = sys.stdout.buffer
        self.max_read = max_read
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        out = bytearray()
        while len(out) < self.max_read and self.poller.poll(0):
            try:
                b = self.rd.read(1)
            except OSError:
                b = b""
            if not b:
                return bytes(out) if out else None
            out += b
        return bytes(out)

    def write(self, data):
        self.wr.write(data)
        try:
            self.wr.flush()
        except AttributeError:
            pass


def run(core, port, clock, scan=None, feed=None, stop=None, sleep_ms=None, idle_ms=2):
    """Serve the host until the port ends, the host asks for the REPL, or ``stop()``; returns why.

    Every round: read the buttons (``scan(core, now)``), take the host's
    bytes, run the timers and send, pet the watchdog (``feed()``); sleep up
    to ``idle_ms`` when nothing happened.
    """
    while True:
        now = clock()
        if scan is not None:
            scan(core, now)
        data = port.read()
        if data is None:
            return "eof"
        if data:
            core.receive(data, now)
        out = core.poll(now)
        if out:
            port.write(out)
        if feed is not None:
            feed()
        if core.want_repl:
            return "repl"
        if stop is not None and stop():
            return "stop"
        if not data and not out and sleep_ms is not None:
            wait = core.next_deadline(now) - now
            if wait > 0:
                sleep_ms(min(idle_ms, wait))
