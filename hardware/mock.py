"""Mock hardware that ships with the package (the gpiozero habit): for tests, benches and PCs.

* :class:`FakeClock` — a clock tests advance by hand.
* :class:`Ssd1306Model` — an SSD1306 that decodes the command/data byte
  stream it is sent (as a luma serial interface: ``command(*bytes)``,
  ``data(bytes)``) into its 1 KiB RAM, and counts the bytes. It is the proof
  that only-changed-bytes updates leave the display showing the right image.
* :class:`FakeSMBus` — an I2C bus with a TCA9548A multiplexer and SSD1306
  models on its channels; a transaction reaches only the display on the
  channel selected at that moment.
* :class:`FakeSpiDev` — an SPI device whose D/C line is a (mock) GPIO pin.
* :class:`MockDisplay` — a pod display for mock pods: luma.oled's real
  ``ssd1306`` driver over a model, mirrored onto a luma.core ``dummy`` device
  (``.device.image``) that tests and the terminal view look at.
"""
from __future__ import annotations

import errno

from PIL import Image

from .pod import HEIGHT, PAGES, WIDTH
from .screen import FRAME_BYTES, unpack


class FakeClock:
    """Seconds that move only when told to."""

    def __init__(self, start: float = 1000.0):
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


#: SSD1306 commands and how many argument bytes follow each (the rest take none).
ARGS = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0x81: 1, 0x8D: 1,
    0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
}
_NO_ARGS = set(range(0x00, 0x20)) | set(range(0x40, 0x80)) | set(range(0xB0, 0xB8)) | {
    0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3}


class Ssd1306Model:
    """An SSD1306's RAM and registers, driven by the bytes it is sent.

    Models the three addressing modes, the column/page address windows, the
    page-mode start commands, contrast, display on/off, invert. ``unknown``
    collects bytes that are not SSD1306 commands (a test asserts it stays
    empty). Set ``fail`` to an errno to make the next transfers raise
    ``OSError`` (a display that went away); ``fail_after = n`` lets ``n``
    more transfers through first (an error in the middle of an update).
    """

    def __init__(self):
        self.ram = bytearray(FRAME_BYTES)
        self.mode = 0x02  # page addressing after reset
        self.col0, self.col1, self.page0, self.page1 = 0, WIDTH - 1, 0, PAGES - 1
        self.col = 0
        self.page = 0
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.unknown: list[int] = []
        self.commands: list[tuple[int, ...]] = []
        self.command_bytes = 0
        self.data_bytes = 0
        self.transfers = 0
        self.fail: int | None = None
        self.fail_after: int | None = None
        self._pending: list[int] = []

    # -- the luma serial-interface side ---------------------------------------
    def command(self, *cmd: int) -> None:
        self._check()
        self.transfers += 1
        self.command_bytes += len(cmd)
        for b in cmd:
            self._command_byte(int(b) & 0xFF)

    def data(self, data) -> None:
        self._check()
        self.transfers += 1
        self.data_bytes += len(data)
        for b in data:
            self._data_byte(int(b) & 0xFF)

    def cleanup(self) -> None:
        pass

    def _check(self) -> None:
        if self.fail_after is not None:
            if self.fail_after <= 0:
                self.fail, self.fail_after = errno.EIO, None
            else:
                self.fail_after -= 1
        if self.fail is not None:
            raise OSError(self.fail, errno.errorcode.get(self.fail, "I/O error"))

    # -- decoding ----------------------------------------------------------------
    def _command_byte(self, b: int) -> None:
        if self._pending:
            self._pending.append(b)
            if len(self._pending) == ARGS[self._pending[0]] + 1:
                cmd, self._pending = tuple(self._pending), []
                self._run(cmd)
            return
        if b in ARGS:
            self._pending = [b]
            return
        if b not in _NO_ARGS:
            self.unknown.append(b)
            return
        self._run((b,))

    def _run(self, cmd: tuple[int, ...]) -> None:
        self.commands.append(cmd)
        op = cmd[0]
        if op == 0x20:
            self.mode = cmd[1] & 0x03
        elif op == 0x21:
            self.col0, self.col1 = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = cmd[1] & 0x07, cmd[2] & 0x07
            self.page = self.page0
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7

    def _data_byte(self, b: int) -> None:
        if self.col < WIDTH and self.page < PAGES:
            self.ram[self.page * WIDTH + self.col] = b
        if self.mode == 0x00:  # horizontal: along the window's columns, then the next page
            if self.col >= self.col1:
                self.col = self.col0
                self.page = self.page0 if self.page >= self.page1 else self.page + 1
            else:
                self.col += 1
        elif self.mode == 0x01:  # vertical: down the window's pages, then the next column
            if self.page >= self.page1:
                self.page = self.page0
                self.col = self.col0 if self.col >= self.col1 else self.col + 1
            else:
                self.page += 1
        else:  # page addressing: along the page, wrapping to column 0
            self.col = (self.col + 1) % WIDTH

    # -- what it shows ------------------------------------------------------------
    def image(self) -> Image.Image:
        """The RAM as a mode "1" image."""
        return unpack(bytes(self.ram))

    def visible(self) -> Image.Image:
        """What the OLED shows: nothing when off, the RAM (inverted if so) when on."""
        if not self.on:
            return Image.new("1", (WIDTH, HEIGHT), 0)
        img = self.image()
        return img.point(lambda v: 255 - v) if self.inverted else img

    @property
    def bytes_sent(self) -> int:
        return self.command_bytes + self.data_bytes

    def reset_counts(self) -> None:
        self.command_bytes = self.data_bytes = self.transfers = 0


class _Msg:
    """What ``smbus2.i2c_msg.write`` returns, enough for :class:`FakeSMBus`."""

    def __init__(self, addr: int, data):
        self.addr = addr
        self.buf = bytes(data)


class FakeSMBus:
    """An I2C bus (smbus2's interface) with an optional TCA9548A and SSD1306 models.

    ``displays``: ``{(channel, address): Ssd1306Model}`` behind the mux at
    ``mux``; without a mux use channel ``None``. Records every transaction
    in ``log`` as ``(address, first_byte, length)``. ``error``: an errno
    raised by every transfer (a bus gone bad).
    """

    def __init__(self, displays: dict, mux: int | None = 0x70, port: int = 1):
        self.displays = dict(displays)
        self.mux = mux
        self.port = port
        self.selected = 0  # TCA9548A channel bit mask; 0 after power-on
        self.log: list[tuple[int, int, int]] = []
        self.error: int | None = None
        self.closed = False

    def _target(self, addr: int) -> Ssd1306Model:
        if self.error is not None:
            raise OSError(self.error, errno.errorcode.get(self.error, "I/O error"))
        if self.mux is None:
            model = self.displays.get((None, addr))
        else:
            channels = [c for c in range(8) if self.selected & (1 << c)]
            models = [self.displays.get((c, addr)) for c in channels]
            models = [m for m in models if m is not None]
            model = models[0] if len(models) == 1 else None
        if model is None:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return model

    def write_byte(self, addr: int, value: int) -> None:
        self.log.append((addr, value, 1))
        if self.error is not None:
            raise OSError(self.error, "I/O error")
        if self.mux is not None and addr == self.mux:
            self.selected = value & 0xFF
            return
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_quick(self, addr: int) -> None:
        if self.mux is not None and addr == self.mux and self.error is None:
            return
        self._target(addr)

    def write_i2c_block_data(self, addr: int, register: int, data) -> None:
        assert len(data) <= 32, "SMBus block writes carry at most 32 bytes"
        self.log.append((addr, register, 1 + len(data)))
        self._deliver(self._target(addr), register, list(data))

    def i2c_rdwr(self, *msgs) -> None:
        for m in msgs:
            self.log.append((m.addr, m.buf[0], len(m.buf)))
            self._deliver(self._target(m.addr), m.buf[0], list(m.buf[1:]))

    @staticmethod
    def _deliver(model: Ssd1306Model, control: int, payload: list[int]) -> None:
        if control == 0x40:
            model.data(payload)
        elif control == 0x00:
            model.command(*payload)
        else:
            raise OSError(errno.EIO, f"control byte {control:#04x} is not 0x00 or 0x40")

    @staticmethod
    def msg(addr: int, data) -> _Msg:
        return _Msg(addr, data)

    def bytes_on_bus(self) -> int:
        """Bytes clocked on the bus: each transaction's address byte plus its payload."""
        return sum(1 + n for _, _, n in self.log)

    def close(self) -> None:
        self.closed = True


class FakeSpiDev:
    """``spidev.SpiDev``'s interface: bytes go to ``model`` as commands or data per the D/C pin.

    ``dc_level``: a callable returning the D/C line's level (low = command).
    """

    def __init__(self, model: Ssd1306Model, dc_level):
        self.model = model
        self.dc_level = dc_level
        self.max_speed_hz = 0
        self.mode = 0
        self.no_cs = False
        self.opened: tuple[int, int] | None = None
        self.written = 0

    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data) -> None:
        self.written += len(data)
        if self.dc_level():
            self.model.data(list(data))
        else:
            self.model.command(*data)

    def close(self) -> None:
        self.opened = None


class MockDisplay:
    """A mock pod display (a :class:`~.pod.DisplayDriver`).

    The bytes go through luma.oled's ``ssd1306`` driver into an
    :class:`Ssd1306Model`; what the OLED shows is mirrored onto a luma.core
    ``dummy`` device, ``self.device`` (its ``.image`` is the screen).
    """

    cleared_on_open = True

    def __init__(self, model: Ssd1306Model | None = None):
        from luma.core.device import dummy

        self.model = model or Ssd1306Model()
        self.device = dummy(width=WIDTH, height=HEIGHT, mode="1")
        self.device.persist = True  # no luma cleanup at exit: close() blanks
        self.closed = False
        self.reopen()  # sets self._driver

    def reopen(self) -> None:
        from .displays import LumaDriver, luma_ssd1306

        self._driver = LumaDriver(lambda: luma_ssd1306(self.model), name="mock display")
        self._mirror()

    def _mirror(self) -> None:
        self.device.display(self.model.visible())

    def write(self, col0, col1, page0, page1, data) -> None:
        self._driver.write(col0, col1, page0, page1, data)
        self._mirror()

    def contrast(self, level: int) -> None:
        self._driver.contrast(level)

    def power(self, on: bool) -> None:
        self._driver.power(on)
        self._mirror()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._driver.close()
            self._mirror()

    @property
    def image(self) -> Image.Image:
        """What the mock OLED shows now."""
        return self.device.image
