"""One pod's face — what its player sees: render, OLED care, only-changed bytes, failure and retry.

A :class:`Face` takes :class:`~.pod.PodView` values. An equal view costs
nothing (no render, no byte); a new one is rendered once, shifted by the
burn-in offset, and sent as the changed windows (:class:`~.screen.Screen`).

OLED care (:class:`Care`): the configured contrast; dimmed after
``dim_after`` seconds without an input on the seat or a change of its view;
the whole image moved by one pixel every ``shift_every`` seconds (right,
down, left, up) against burn-in; blanked and switched off on close.

A display that fails (gone, bus error) does not stop anything: the error is
reported once (``report``), the face is offline, and it is reopened after
1, 2, 4 ... 30 s; when it answers again it gets a full frame and a "back"
report. The game goes on meanwhile.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from .errors import PodError
from .pod import HEIGHT, WIDTH, DisplayDriver, PodView
from .render import render
from .screen import FRAME_BYTES, Screen

#: Burn-in shift offsets, in turn (the renderer keeps the last column and row free).
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))
RETRY_FIRST = 1.0
RETRY_MAX = 30.0


@dataclass(frozen=True)
class Care:
    """OLED care settings: contrast levels 0-255, times in seconds (0 = never)."""

    contrast: int = 0xCF
    dim_contrast: int = 0x10
    dim_after: float = 120.0
    shift_every: float = 300.0


def shifted(img: Image.Image, dx: int, dy: int) -> Image.Image:
    if not dx and not dy:
        return img
    out = Image.new("1", (WIDTH, HEIGHT), 0)
    out.paste(img.crop((0, 0, WIDTH - dx, HEIGHT - dy)), (dx, dy))
    return out


class Face:
    """The display of one seat's pod.

    ``opener()`` returns a :class:`~.pod.DisplayDriver` (it may raise; the
    face then retries). ``clock``: seconds, monotonic. ``report(text)``:
    where failures and recoveries are told.
    """

    def __init__(self, seat: int, opener: Callable[[], DisplayDriver], care: Care = Care(), *,
                 clock: Callable[[], float] = time.monotonic, report: Callable[[str], None] | None = None,
                 name: str = "display"):
        self.seat = seat
        self.opener = opener
        self.care = care
        self.clock = clock
        self.report = report or (lambda text: None)
        self.name = name
        self.link: DisplayDriver | None = None
        self.screen: Screen | None = None
        self.view: PodView | None = None
        self.image: Image.Image | None = None  # the rendered view, unshifted
        self.shift = SHIFTS[0]
        self.last_active = clock()
        self.dimmed = False
        self.online = False
        self.problem: str | None = None
        self.retry_at = 0.0
        self._delay = RETRY_FIRST
        self.closed = False
        # figures for tests and benches
        self.bytes_sent = 0
        self.updates = 0
        self.first_frame_at: float | None = None

    # -- the owner's calls -------------------------------------------------------
    def show(self, view: PodView, now: float | None = None) -> None:
        """Show ``view`` (nothing happens if it equals the current one)."""
        now = self.clock() if now is None else now
        if view == self.view:
            return
        self.view = view
        self.image = render(view)
        self.wake(now, push=False)
        self._push(now)

    def show_image(self, image: Image.Image, now: float | None = None) -> None:
        """Show a ready-made 128x64 image (a message such as "Switched off") instead of a view."""
        now = self.clock() if now is None else now
        self.view = None
        self.image = image.convert("1")
        self.wake(now, push=False)
        self._push(now)

    def wake(self, now: float | None = None, *, push: bool = True) -> None:
        """Someone is using this pod: full contrast again, the idle time restarts."""
        now = self.clock() if now is None else now
        self.last_active = now
        if self.dimmed and self.online:
            self.dimmed = False
            link = self.link
            assert link is not None  # online: the display is open
            self._guard(lambda: link.contrast(self.care.contrast), now)

    def tick(self, now: float | None = None) -> None:
        """Timers: dim when idle, the burn-in shift, reopening a failed display."""
        now = self.clock() if now is None else now
        if self.closed:
            return
        if not self.online:
            if now >= self.retry_at:
                self._push(now)
            return
        c = self.care
        if c.dim_after > 0 and not self.dimmed and now - self.last_active >= c.dim_after:
            self.dimmed = True
            link = self.link
            assert link is not None  # online: the display is open
            self._guard(lambda: link.contrast(c.dim_contrast), now)
        if self._shift_for(now) != self.shift:
            self._push(now)

    def next_due(self, now: float) -> float | None:
        """When :meth:`tick` next has something to do."""
        if self.closed:
            return None
        if not self.online:
            return self.retry_at
        times = []
        c = self.care
        if c.dim_after > 0 and not self.dimmed:
            times.append(self.last_active + c.dim_after)
        if c.shift_every > 0:
            times.append((int(now // c.shift_every) + 1) * c.shift_every)
        return min(times) if times else None

    def close(self) -> None:
        """Blank the display and switch it off; release the bus. Idempotent."""
        if self.closed:
            return
        self.closed = True
        if self.link is not None:
            try:
                self.link.close()
            except Exception:
                pass

    # -- inside ----------------------------------------------------------------------
    def _shift_for(self, now: float) -> tuple[int, int]:
        every = self.care.shift_every
        return SHIFTS[int(now // every) % len(SHIFTS)] if every > 0 else SHIFTS[0]

    def _open(self) -> None:
        if self.link is None:
            self.link = self.opener()
        else:
            self.link.reopen()
        self.screen = Screen(self.link)
        if getattr(self.link, "cleared_on_open", False):
            self.screen.shown = bytes(FRAME_BYTES)
        self.link.contrast(self.care.dim_contrast if self.dimmed else self.care.contrast)

    def _push(self, now: float) -> None:
        if self.closed or self.image is None and self.online:
            return
        if not self.online and now < self.retry_at:
            return
        try:
            if not self.online:
                self._open()
            if self.image is not None:
                self.shift = self._shift_for(now)
                assert self.screen is not None  # online: _open() made it
                self.bytes_sent += self.screen.show(shifted(self.image, *self.shift))
                self.updates += 1
                if self.first_frame_at is None:
                    self.first_frame_at = self.clock()
        except (OSError, PodError) as e:
            self._failed(e, now)
            return
        if not self.online:
            self.online = True
            if self.problem is not None:
                self.report(f"seat {self.seat}: {self.name} is back")
            self.problem = None
            self._delay = RETRY_FIRST

    def _guard(self, fn, now: float) -> None:
        try:
            fn()
        except (OSError, PodError) as e:
            self._failed(e, now)

    def _failed(self, e: BaseException, now: float) -> None:
        text = str(e) or type(e).__name__
        if not isinstance(e, PodError) and isinstance(e, OSError):
            text = f"{self.name}: {e.strerror or e}"
        first = self.online or self.problem != text
        self.online = False
        if self.screen is not None:
            self.screen.forget()
        self.retry_at = now + self._delay
        if first:
            self.report(f"seat {self.seat}: {text} (retrying every {RETRY_MAX:g} s at most; the game goes on)")
        self.problem = text
        self._delay = min(self._delay * 2, RETRY_MAX)
