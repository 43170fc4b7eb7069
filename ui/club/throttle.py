"""Log lines of one kind at most once a period: a dead broker or a table sending garbage must not fill
the journal of systemd (the table and the league both retry every few seconds)."""
from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds between two lines of the same kind.
EVERY = 60.0


class Throttle:
    """``throttle(kind, text)`` reports ``text`` unless a line of that ``kind`` went out less than
    ``every`` seconds ago; the lines held back are counted, and the next line of the kind says how
    many (``held``, with ``{n}``)."""

    def __init__(self, report: Callable[[str], None], every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic, held: str = "{n} more like this since"):
        self.report, self.every, self.clock, self.held = report, every, clock, held
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def __call__(self, kind: str, text: str) -> None:
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._count[kind] = self._count.get(kind, 0) + 1
            return
        n = self._count.pop(kind, 0)
        self._last[kind] = now
        self.report(text + (f" ({self.held.format(n=n)})" if n else ""))
