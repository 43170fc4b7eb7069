"""The pod-side display the firmware drives, as RAM: what the pod pushed to its OLED."""
from __future__ import annotations

from ...pod import PAGES, WIDTH
from ...screen import FRAME_BYTES, unpack


class VirtualDisplay:
    """The pod-side display object ``PodCore`` drives, as RAM.

    ``buf`` is the firmware's frame buffer; :attr:`shown` is what was pushed
    to the OLED (``show`` copies a window of ``buf`` there), so a pod that
    forgot to push would show it. Set ``fail = True`` and every call raises
    ``OSError`` (the display came loose); the OLED then keeps what it had.
    """

    def __init__(self):
        self.buf = bytearray(FRAME_BYTES)
        self.shown = bytearray(FRAME_BYTES)
        self.on = False
        self.level = 0
        self.fail = False
        self.inits = 0
        self.splashes = 0
        self.pushed_bytes = 0
        self.lines: tuple = ()

    def _check(self) -> None:
        if self.fail:
            raise OSError(5, "display does not answer")

    def init(self) -> None:
        self._check()
        self.inits += 1
        self.shown[:] = bytes(FRAME_BYTES)  # the SSD1306's RAM is undefined at power-on; say blank
        self.on = True

    def show(self, c0: int, c1: int, p0: int, p1: int) -> None:
        self._check()
        for p in range(p0, p1 + 1):
            self.shown[p * WIDTH + c0:p * WIDTH + c1 + 1] = self.buf[p * WIDTH + c0:p * WIDTH + c1 + 1]
            self.pushed_bytes += c1 - c0 + 1

    def contrast(self, level: int) -> None:
        self._check()
        self.level = level

    def power(self, on: bool) -> None:
        self._check()
        self.on = bool(on)

    def splash(self, lines) -> None:
        """The pod's own "waiting for the table" screen (a frame around the edge here; text on a real pod)."""
        self._check()
        self.lines = tuple(lines)
        self.splashes += 1
        self.buf[:] = bytes(FRAME_BYTES)
        for p in range(PAGES):
            self.buf[p * WIDTH] = self.buf[p * WIDTH + WIDTH - 1] = 0xFF
        for x in range(WIDTH):
            self.buf[x] |= 0x01
            self.buf[(PAGES - 1) * WIDTH + x] |= 0x80
        self.show(0, WIDTH - 1, 0, PAGES - 1)

    @property
    def frame(self) -> bytes:
        """What the OLED's RAM holds (page-major, the layout of :func:`~tablekeeper.hardware.screen.pack`)."""
        return bytes(self.shown)

    def image(self):
        """The OLED's RAM as a mode "1" image (whether or not the OLED is on)."""
        return unpack(bytes(self.shown))
