"""A pod button's contact -> debounced press / release, then hold and repeat. Pure, times in ms.

The same rules as the host's ``tablekeeper.hardware.buttons.Debouncer`` (a
test feeds both the same contact edges and compares). Eager by default, as
QMK's ``sym_eager_pk``: a change counts as soon as the contact has held its
new level for ``noise_ms`` (1 ms: an electrical spike is shorter, a finger
far longer), then the button is locked for ``debounce_ms`` so the bounces
after the first edge, at press and at release, are ignored. With
``eager=False`` a level must stay put for the whole ``debounce_ms`` (the
older rule; the lockout then never matters). ``hold`` comes ``hold_ms``
after the press, then ``repeat`` every ``repeat_ms`` while still held. Every
event is stamped with the time it fell due, not the time it was noticed.

Runs under MicroPython and CPython (plain ints, no allocation per call
beyond the emitted events).
"""

PRESS, RELEASE, HOLD, REPEAT = 0, 1, 2, 3  # the codes of protocol.KINDS
#: How long (ms) a new level must last to count when eager: the pod scans every 1-2 ms, so this is
#: "still there at the next scan"; EMI spikes last microseconds, the briefest finger tap tens of ms.
NOISE_MS = 1


class Debouncer:
    def __init__(self, debounce_ms=20, hold_ms=600, repeat_ms=150, pressed=False, eager=True, noise_ms=NOISE_MS):
        self.eager = eager
        self.noise_ms = noise_ms
        self.timing(debounce_ms, hold_ms, repeat_ms)
        self.raw = bool(pressed)  # the contact as last seen
        self.stable = bool(pressed)  # the debounced state
        self.raw_since = None  # when raw last changed (None: never)
        self.locked_until = None  # bounces before this are ignored (None: no change reported yet)
        self.next_hold = None  # when the next hold/repeat is due
        self.held = False

    def timing(self, debounce_ms, hold_ms, repeat_ms):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.repeat_ms = repeat_ms
        # how long a new level must last before it counts
        self.settle_ms = min(self.noise_ms, debounce_ms) if self.eager else debounce_ms

    def edge(self, now, pressed):
        """The contact reads ``pressed`` at ``now`` (call on every scan or on every edge)."""
        pressed = bool(pressed)
        if pressed != self.raw:
            self.raw = pressed
            self.raw_since = now

    def deadline(self):
        """When :meth:`tick` next has something to do; None when nothing is pending."""
        if self.raw != self.stable:
            due = self.raw_since + self.settle_ms
            if self.locked_until is not None and self.locked_until > due:
                return self.locked_until
            return due
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
                self.locked_until = due + self.debounce_ms
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
