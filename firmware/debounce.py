"""A pod button's contact -> debounced press / release, then hold and repeat. Pure, times in ms.

The same rules as the host's ``tablekeeper.hardware.buttons.Debouncer`` (a
test feeds both the same contact edges and compares): a level must stay put
for ``debounce_ms`` to count, so a chattering contact gives exactly one press
and a glitch shorter than that none; ``hold`` comes ``hold_ms`` after the
press, then ``repeat`` every ``repeat_ms`` while still held. Every event is
stamped with the time it fell due, not the time it was noticed.

Runs under MicroPython and CPython (plain ints, no allocation per call
beyond the emitted events).
"""

PRESS, RELEASE, HOLD, REPEAT = 0, 1, 2, 3  # the codes of protocol.KINDS


class Debouncer:
    def __init__(self, debounce_ms=20, hold_ms=600, repeat_ms=150, pressed=False):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.repeat_ms = repeat_ms
        self.raw = bool(pressed)  # the contact as last seen
        self.stable = bool(pressed)  # the debounced state
        self.raw_since = None  # when raw last changed (None: never)
        self.next_hold = None  # when the next hold/repeat is due
        self.held = False

    def timing(self, debounce_ms, hold_ms, repeat_ms):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.repeat_ms = repeat_ms

    def edge(self, now, pressed):
        """The contact reads ``pressed`` at ``now`` (call on every scan or on every edge)."""
        pressed = bool(pressed)
        if pressed != self.raw:
            self.raw = pressed
            self.raw_since = now

    def deadline(self):
        """When :meth:`tick` next has something to do; None when nothing is pending."""
        if self.raw != self.stable:
            return self.raw_since + self.debounce_ms
        if self.stable and self.next_hold is not None:
            return self.next_hold
        return None

    def tick(self, now, emit):
        """Call ``emit(kind, due_ms)`` for every event due by ``now``, in order."""
        while True:
            due = self.deadline()
            if due is None or due > now:
                return
            if self.raw != self.stable:
                self.stable = self.raw
                if self.stable:
                    self.held = False
                    self.next_hold = due + self.hold_ms
                    emit(PRESS, due)
                else:
                    self.next_hold = None
                    emit(RELEASE, due)
            else:
                emit(REPEAT if self.held else HOLD, due)
                self.held = True
                self.next_hold = due + self.repeat_ms
