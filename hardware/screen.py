"""Only changed bytes on the bus: the SSD1306 frame, its diff, and the windows to send.

luma.oled's ``ssd1306.display()`` sends the whole 1 KiB frame every time, even
unchanged. :class:`Screen` remembers what the display's RAM holds and sends a
new image as a few "column/page address window + bytes" writes covering only
the pages and columns that changed (nothing at all for an unchanged image).
The window plan is shared by every backend (:class:`~.pod.DisplayDriver`).

Frame layout (the SSD1306's): ``PAGES`` pages of ``WIDTH`` bytes, page-major;
byte ``page*WIDTH + x`` holds pixels ``(x, 8*page .. 8*page+7)``, bit 0 at the
top.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image

from .pod import HEIGHT, PAGES, WIDTH, DisplayDriver

FRAME_BYTES = WIDTH * PAGES

#: Bytes one extra window costs on top of its data: the 6 address-window
#: command bytes and a control byte for each of the command and data
#: transfers. Two changed runs closer than this are cheaper sent as one.
WINDOW_OVERHEAD = 8

_NONZERO = re.compile(rb"[^\x00]+")


def pack(img: Image.Image) -> bytes:
    """A mode "1" 128x64 image as the SSD1306's 1024-byte page-major frame."""
    if img.mode != "1" or img.size != (WIDTH, HEIGHT):
        raise ValueError(f"a pod image must be mode '1' {WIDTH}x{HEIGHT}, not {img.mode!r} {img.size}")
    # Rotating clockwise makes each display column one 8-byte row, bottom pixel
    # first and most significant: row x, byte k = page 7-k with bit 0 at the top.
    raw = img.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(raw[PAGES - 1 - p::PAGES] for p in range(PAGES))


def unpack(frame: bytes) -> Image.Image:
    """The inverse of :func:`pack`."""
    if len(frame) != FRAME_BYTES:
        raise ValueError(f"a frame is {FRAME_BYTES} bytes, not {len(frame)}")
    raw = bytearray(FRAME_BYTES)
    for p in range(PAGES):
        raw[PAGES - 1 - p::PAGES] = frame[p * WIDTH:(p + 1) * WIDTH]
    return Image.frombytes("1", (HEIGHT, WIDTH), bytes(raw)).transpose(Image.Transpose.ROTATE_90)


@dataclass(frozen=True)
class Window:
    """Columns ``col0..col1`` x pages ``page0..page1`` (inclusive)."""

    col0: int
    col1: int
    page0: int
    page1: int

    @property
    def size(self) -> int:
        return (self.col1 - self.col0 + 1) * (self.page1 - self.page0 + 1)

    def cut(self, frame: bytes) -> bytes:
        """This window's bytes of ``frame``, in the order the display fills them."""
        return b"".join(frame[p * WIDTH + self.col0:p * WIDTH + self.col1 + 1]
                        for p in range(self.page0, self.page1 + 1))


def plan(old: bytes | None, new: bytes) -> list[Window]:
    """The windows that turn a display showing ``old`` into one showing ``new``.

    ``old`` None (RAM content unknown) gives the whole frame. Within a page,
    changed runs closer than :data:`WINDOW_OVERHEAD` bytes are joined; windows
    of neighbouring pages are joined when that sends fewer bytes in all.
    """
    if old is None:
        return [Window(0, WIDTH - 1, 0, PAGES - 1)]
    if old == new:
        return []
    per_page: list[list[Window]] = []
    for p in range(PAGES):
        a = old[p * WIDTH:(p + 1) * WIDTH]
        b = new[p * WIDTH:(p + 1) * WIDTH]
        if a == b:
            per_page.append([])
            continue
        diff = (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(WIDTH, "little")
        runs: list[list[int]] = []
        for m in _NONZERO.finditer(diff):
            if runs and m.start() - runs[-1][1] - 1 <= WINDOW_OVERHEAD:
                runs[-1][1] = m.end() - 1
            else:
                runs.append([m.start(), m.end() - 1])
        per_page.append([Window(c0, c1, p, p) for c0, c1 in runs])
    # Join a page's single window with the group above it when cheaper.
    out: list[Window] = []
    group: Window | None = None
    for p, windows in enumerate(per_page):
        if len(windows) == 1 and group is not None and group.page1 == p - 1:
            w = windows[0]
            joined = Window(min(group.col0, w.col0), max(group.col1, w.col1), group.page0, p)
            if joined.size + WINDOW_OVERHEAD <= group.size + w.size + 2 * WINDOW_OVERHEAD:
                group = joined
                continue
        if group is not None:
            out.append(group)
            group = None
        if len(windows) == 1:
            group = windows[0]
        else:
            out.extend(windows)
    if group is not None:
        out.append(group)
    return out


class Screen:
    """What one display shows, and the least to send to change it.

    Call :meth:`show` with each new image; it writes only the changed windows
    to the driver and returns the number of data bytes sent. If a write fails
    the display's RAM is unknown: the error propagates and the next
    :meth:`show` (after the driver is reopened) sends the whole frame.
    """

    def __init__(self, driver: DisplayDriver):
        self.driver = driver
        self.shown: bytes | None = None  # what the display RAM holds; None = unknown

    def forget(self) -> None:
        """The display's RAM is unknown (after a reset or an error): next show sends all."""
        self.shown = None

    def show(self, img: Image.Image) -> int:
        return self.show_frame(pack(img))

    def show_frame(self, frame: bytes) -> int:
        windows = plan(self.shown, frame)
        sent = 0
        if not windows:
            return 0
        shown, self.shown = self.shown, None  # unknown until every window is written
        try:
            for w in windows:
                data = w.cut(frame)
                self.driver.write(w.col0, w.col1, w.page0, w.page1, data)
                sent += len(data)
        except BaseException:
            self.shown = None
            raise
        del shown
        self.shown = frame
        return sent
