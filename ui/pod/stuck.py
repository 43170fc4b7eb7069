"""A stuck button: one held far longer than any gesture of the button grammar, and held back until released.

A button that never releases (a jammed cap, a short to ground, a pod whose
release got lost) would go on repeating for ever: a held ± is an ``adjust``
at every repeat, about 6.5 journal rows a second. :class:`StuckButtons`
recognises it from the button's events alone, so it works the same for
every source (wired and mock pods: the host's debouncer; serial pods: the
pod's firmware; the app's virtual pods): a hold or a repeat that comes more
than :data:`STUCK_AFTER` seconds after its button's press means the button
is stuck. That event and every hold or repeat after it are held back (they
never reach the input map, so nothing is journalled) until the button is
released — or pressed again, when its release was lost on the way. The
actions before the threshold were a legitimate hold and stay.

**Why 20 s.** The longest held gestures the grammar has (hold 0.6 s, then a
repeat every 0.15 s): a held ± on the home screen steps a counter by 1 at
every repeat, so the whole of the Bloody Inn's wealth track (0-40, the
longest bounded counter of the games) is 6.3 s; a number entry's repeats
step by 5 after the fourth, so 0 to 100 (the largest bounded field, the
Bloody Inn's ``money``) is about 4 s; a menu wraps, so no lap needs more
than a few seconds. An unbounded counter (a score in ``counters``) held up
by 100 at home is 15.3 s, about as long as anyone holds a button rather than
take the menu's number entry. 20 s is three times the longest bounded
gesture and still above that; the cost is that a stuck ± makes about 130
adjusts before it is recognised (an undo each, or one correction).

Times are the events' own (``InputEvent.at``, on their source's clock: the
button scanner's, or the serial link's); events without one (``at`` = 0)
never make a button stuck. Runs on the owner's thread only.
"""
from __future__ import annotations

from collections.abc import Iterable

from ...engine.messages import N_, Msg
from ...hardware.pod import BUTTONS, DOWN, HOLD, MAIN, PRESS, REPEAT, SELECT, UP, InputEvent

#: Seconds a button may be held before it counts as stuck (module docstring: why 20).
STUCK_AFTER = 20.0

#: What :meth:`StuckButtons.take` says of an event: let it through; the button just became stuck
#: (held back); held back (already stuck); the stuck button was let go (let the event through).
PASS, STUCK, HELD_BACK, FREED = "pass", "stuck", "held back", "freed"

#: How a pod's screen names its buttons (the hints say "main: next, select: back"; up and down are arrows).
SHOWN = {UP: "▲", DOWN: "▼", SELECT: "select", MAIN: "main"}


class StuckButtons:
    """Which buttons of which seats are stuck, from their events alone (the module docstring says how).

    ``after``: seconds from a press to the hold or repeat that makes its button stuck.
    """

    def __init__(self, after: float = STUCK_AFTER):
        self.after = after
        self._since: dict[tuple[int, str], float] = {}  # (seat, button) → when it went down
        self._stuck: set[tuple[int, str]] = set()

    def take(self, event: InputEvent) -> str:
        """What to do with ``event`` (:data:`PASS`, :data:`STUCK`, :data:`HELD_BACK` or :data:`FREED`)."""
        key = (event.seat, event.button)
        if event.kind not in (HOLD, REPEAT):
            freed = key in self._stuck
            self._stuck.discard(key)
            if event.kind == PRESS:
                self._since[key] = event.at
            else:
                self._since.pop(key, None)
            return FREED if freed else PASS
        if key in self._stuck:
            return HELD_BACK
        since = self._since.setdefault(key, event.at)  # its press never came (a lost event): from now on
        if event.at - since > self.after:
            self._stuck.add(key)
            return STUCK
        return PASS

    def buttons(self, seat: int) -> tuple[str, ...]:
        """The stuck buttons of ``seat``, in the pod's order."""
        return tuple(b for b in BUTTONS if (seat, b) in self._stuck)


def shown(buttons: Iterable[str]) -> str:
    """Buttons as a pod's screen names them: "▲", "▲ ▼", "select"."""
    return " ".join(SHOWN.get(b, b) for b in buttons)


def screen_notice(buttons: tuple[str, ...]) -> Msg:
    """What a pod with stuck ``buttons`` shows until they are released (two lines of its small font)."""
    return N_("{buttons} button stuck: ignored until released", "{buttons} stuck: ignored until released",
              len(buttons), buttons=shown(buttons))


def app_notice(seat: int, player: str, buttons: tuple[str, ...], *, stuck: bool) -> Msg:
    """What the touchscreen says when a seat's buttons become stuck (``stuck``) or are let go again."""
    if stuck:
        return N_("Pod {seat} ({player}): {buttons} button stuck: ignored until released",
                  "Pod {seat} ({player}): {buttons} buttons stuck: ignored until released",
                  len(buttons), seat=seat, player=player, buttons=shown(buttons))
    return N_("Pod {seat} ({player}): {buttons} button released: it works again",
              "Pod {seat} ({player}): {buttons} buttons released: they work again",
              len(buttons), seat=seat, player=player, buttons=shown(buttons))


def log_line(seat: int, buttons: tuple[str, ...], after: float, *, stuck: bool) -> str:
    """The log's line (standard error under ``serve``), in English like every other pod report."""
    names = ", ".join(buttons)
    if stuck:
        return (f"seat {seat}: {names} held for over {after:g} s: stuck? Its holds and repeats are ignored "
                "until it is released")
    return f"seat {seat}: {names} released: it works again"
