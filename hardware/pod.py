"""What a seat's pod is: what it shows, what it reports, and what a backend must do.

Three small value types and one protocol, shared by every backend (direct
GPIO/I2C/SPI wiring, the serial microcontroller pods, the mock pods and the
touchscreen app's virtual pods):

* :class:`PodView` — what one seat's pod shows, in game words (no pixels).
  :func:`tablekeeper.ui.pod.views.pod_view` builds it from the rules;
  :func:`tablekeeper.hardware.render.render` turns it into a 128x64 image.
* :class:`InputEvent` — one button event (seat, button, kind), put on the
  owner's ``queue.Queue`` by whatever thread saw it. Only the owner thread
  turns events into engine actions (:mod:`tablekeeper.ui.pod.inputs`).
* :class:`DisplayDriver` — what a display backend must do: write a window of
  SSD1306 pages x columns with bytes, set contrast, power on/off, close. The
  page/column diff that decides *what* to write is shared
  (:class:`tablekeeper.hardware.screen.Screen`), so every backend sends only
  what changed and shows exactly the same pixels.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

#: Pixels of every pod display (an SSD1306 128x64).
WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8

#: The buttons of a pod, in the order they sit on the pod.
UP, DOWN, SELECT, MAIN = "up", "down", "select", "main"
BUTTONS = (UP, DOWN, SELECT, MAIN)

#: The kinds of an input event.
PRESS, RELEASE, HOLD, REPEAT = "press", "release", "hold", "repeat"
KINDS = (PRESS, RELEASE, HOLD, REPEAT)


@dataclass(frozen=True)
class PodView:
    """What one seat's pod shows now. Equal views render to equal images.

    ``seat`` is 1-based (the order of the players at setup). ``counters`` are
    the player's counters in display order as ``(name, value)``; ``focus`` is
    the index of the one shown large (the ± buttons change it). ``status`` is
    a short line ("your turn: drink", "PASSING OUT", "out", "winner");
    ``alert`` means the player must act now and is shown inverted. ``table``
    holds the one or two table figures that matter now (pot, temper, actions
    left). ``action`` is the label of what the main button does now ("" when
    it does nothing); ``choices`` how many actions the game offers now and
    ``pick`` which of them main does; ``choosing``: up/down go through those
    offers (shown in the bottom bar with "k/n") instead of changing the
    focused counter. ``message`` is a transient line: why the last press was
    refused, what another player's action changed for this player ("from Ana:
    cash −3"), or what the table says to everyone.

    ``screen`` says which of the pod's screens this is (the button grammar of
    :mod:`tablekeeper.ui.pod.inputs`): ``home`` (the fields above),
    ``menu`` (``lines`` are the actions, ``cursor`` the chosen one),
    ``entry`` (one field of an action being entered: ``prompt`` is the
    field's name, ``value`` what it is now, ``lines`` a list entered so far,
    ``step`` "2/3") or ``preview`` (``lines`` say what the action will
    change, ``prompt`` asks to confirm). ``title`` names the action (or the
    menu) on the screens other than home; ``hint`` says what the buttons do there.
    """

    seat: int
    player: str
    counters: tuple[tuple[str, int], ...] = ()
    focus: int = 0
    status: str = ""
    alert: bool = False
    table: tuple[tuple[str, object], ...] = ()
    your_turn: bool = False
    out: bool = False
    action: str = ""
    choices: int = 0
    pick: int = 0
    choosing: bool = False
    #: up/down change the focused counter (its player chose it with select): "▲▼" beside its name
    tuning: bool = False
    message: str = ""
    screen: str = "home"
    title: str = ""
    lines: tuple[str, ...] = ()
    cursor: int = -1
    prompt: str = ""
    value: str = ""
    step: str = ""
    hint: str = ""
    #: Each counter's icon (a glyph of :data:`tablekeeper.hardware.icons.FONT`, "" for none), in the
    #: order of ``counters``; ``table_icons`` the same for ``table``.
    icons: tuple[str, ...] = ()
    table_icons: tuple[str, ...] = ()
    #: The player's counters whose value just changed (their names as in ``counters``): shown
    #: inverted for a moment, as the touchscreen lights a changed value.
    changed: tuple[str, ...] = ()
    #: The pod's buttons held so long they count as stuck (:mod:`tablekeeper.ui.pod.stuck`), in the
    #: pod's order, and what the pod says about them (``notice``, shown where a message goes while
    #: there is none) until they are released.
    stuck: tuple[str, ...] = ()
    notice: str = ""

    @property
    def focus_icon(self) -> str:
        return self.icons[self.focus] if self.focus < len(self.icons) else ""

    @property
    def other_icons(self) -> tuple[str, ...]:
        """The icons of :attr:`others`, in their order."""
        return tuple(icon for i, icon in enumerate(self.icons) if i != self.focus)

    @property
    def focus_name(self) -> str:
        return self.counters[self.focus][0] if self.counters else ""

    @property
    def focus_value(self) -> int | None:
        return self.counters[self.focus][1] if self.counters else None

    @property
    def others(self) -> tuple[tuple[str, int], ...]:
        """The counters shown small: every one but the focused, in display order."""
        return tuple(c for i, c in enumerate(self.counters) if i != self.focus)

    def as_text(self) -> str:
        """A few lines of plain text, for a terminal's quick look at the pods."""
        if self.screen != "home":
            return self._screen_text()
        turn = " <" if self.your_turn else ""
        head = f"[{self.seat}] {self.player}{turn}"
        focus = f"{self.focus_name} {self.focus_value}" if self.counters else "-"
        others = "  ".join(f"{k} {v}" for k, v in self.others)
        table = "  ".join(f"{k} {v}" for k, v in self.table)
        status = ("!! " if self.alert else "") + (self.status or "")
        # a counter chosen for up/down (framed on the screen) reads "[fortitude 20] ▲▼", one only shown "*fortitude 20*"
        shown = f"[{focus}] ▲▼" if self.tuning else f"*{focus}*"
        lines = [head, f"  {shown}  {others}".rstrip()]
        if table:
            lines.append(f"  table: {table}")
        offer = f"[main: {self.action}]" if self.action else ""
        if self.choosing:
            offer = f"[up/down, main: {self.action} {self.pick + 1}/{self.choices}]"
        tail = "  ".join(x for x in (status, offer) if x)
        if tail:
            lines.append(f"  {tail}")
        if self.message:
            lines.append(f"  says: {self.message}")
        elif self.notice:
            lines.append(f"  notice: {self.notice}")
        return "\n".join(lines)

    def _screen_text(self) -> str:
        head = f"[{self.seat}] {self.player}: {self.title}"
        if self.step:
            head += f" ({self.step})"
        out = [head]
        if self.screen == "menu":
            out += [f"  {'>' if i == self.cursor else ' '} {line}" for i, line in enumerate(self.lines)]
        else:
            out += [f"  {line}" for line in self.lines]
        if self.prompt or self.value:
            out.append(f"  {self.prompt} {self.value}".rstrip())
        if self.message:
            out.append(f"  says: {self.message}")
        elif self.notice:
            out.append(f"  notice: {self.notice}")
        return "\n".join(out)


@dataclass(frozen=True)
class InputEvent:
    """One button event of one seat's pod.

    ``kind``: ``press`` and ``release`` (debounced edges), ``hold`` (held for
    the hold time), ``repeat`` (every repeat interval while still held after
    the hold). ``at`` is the time it happened on the source's clock, seconds
    (only for ordering and logs; the engine never sees it).
    """

    seat: int
    button: str
    kind: str
    at: float = field(default=0.0, compare=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"input kind must be one of {', '.join(KINDS)}, not {self.kind!r}")


@runtime_checkable
class DisplayDriver(Protocol):
    """A display backend: where a pod's pixels go.

    The byte layout is the SSD1306's: a window covers columns ``col0..col1``
    and pages ``page0..page1`` (both inclusive, a page is 8 pixel rows, bit 0
    at the top), and ``data`` fills it column by column, page after page
    (horizontal addressing), ``(col1-col0+1) * (page1-page0+1)`` bytes.
    Writes are idempotent "set these bytes" commands, never increments, so a
    backend may repeat one after an error.

    Any method may raise ``OSError`` (display gone, bus error); the caller
    reports it and retries later with :meth:`reopen`.
    """

    def write(self, col0: int, col1: int, page0: int, page1: int, data: bytes) -> None: ...

    def contrast(self, level: int) -> None: ...

    def power(self, on: bool) -> None: ...

    def reopen(self) -> None:
        """Set the display up again after an error (its RAM content is then unknown)."""

    def close(self) -> None:
        """Blank and power off the display, release the bus. Idempotent."""
