"""The pod's SSD1306 (128x64) on ``machine.I2C``, drawn through MicroPython's ``framebuf``.

Like micropython-lib's ``ssd1306`` driver (same set-up, same orientation as
the Pi's luma.oled, so the host's pictures arrive the right way up), plus
what the pod needs: :meth:`SSD1306.show` pushes one window of the frame
buffer (columns x pages, the SSD1306's horizontal addressing) in one I2C
transaction instead of the whole 1 KiB, and :meth:`SSD1306.splash` draws
the pod's own "waiting for the table" screen with framebuf's 8x8 font.

``buf`` is the SSD1306's own layout (page-major, bit 0 at the top of a
page: framebuf's MONO_VLSB), the same bytes the host sends.
"""
import framebuf

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8


class SSD1306:
    def __init__(self, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        self.buf = bytearray(WIDTH * PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self._data = bytearray(1)
        self._data[0] = 0x40  # I2C control byte: display data follows

    def command(self, *cmd):
        # Control byte 0x00: every following byte of this transaction is a command byte.
        self.i2c.writeto(self.addr, bytes((0x00,) + cmd))

    def init(self):
        """Set the display up (after power-on or an error); its RAM content is undefined afterwards."""
        ext = self.external_vcc
        self.command(
            0xAE,  # display off
            0x20, 0x00,  # horizontal addressing: a window fills column by column, page after page
            0x40,  # start line 0
            0xA1,  # segment remap: column 127 is SEG0 (as luma.oled)
            0xA8, HEIGHT - 1,  # multiplex ratio
            0xC8,  # COM scan from the bottom (as luma.oled)
            0xD3, 0x00,  # display offset
            0xDA, 0x12,  # COM pins for 128x64
            0xD5, 0x80,  # clock divide
            0xD9, 0x22 if ext else 0xF1,  # pre-charge
            0xDB, 0x30,  # VCOMH deselect level
            0x81, 0xCF,  # contrast
            0xA4,  # show RAM
            0xA6,  # not inverted
            0x8D, 0x10 if ext else 0x14,  # charge pump
            0xAF,  # display on
        )

    def show(self, c0=0, c1=WIDTH - 1, p0=0, p1=PAGES - 1):
        """Push columns c0..c1 x pages p0..p1 of ``buf`` to the display."""
        self.command(0x21, c0, c1, 0x22, p0, p1)
        mv = memoryview(self.buf)
        parts = [self._data]  # type: list[bytearray | memoryview]
        for p in range(p0, p1 + 1):
            parts.append(mv[p * WIDTH + c0:p * WIDTH + c1 + 1])
        self.i2c.writevto(self.addr, parts)

    def contrast(self, level):
        self.command(0x81, level & 0xFF)

    def power(self, on):
        self.command(0xAF if on else 0xAE)

    def splash(self, lines):
        """The pod's own screen: ``lines`` centred, in a frame (at most 7 lines of 15 characters)."""
        fb = self.fb
        fb.fill(0)
        fb.rect(0, 0, WIDTH, HEIGHT, 1)
        lines = [str(x)[:15] for x in lines][:7]
        top = (HEIGHT - 9 * len(lines)) // 2 + 1
        for i, line in enumerate(lines):
            fb.text(line, (WIDTH - 8 * len(line)) // 2, top + 9 * i, 1)
        self.show()
