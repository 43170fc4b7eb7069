"""Direct-wired OLEDs through luma.oled: I2C (behind a TCA9548A or not) and SPI.

:class:`LumaDriver` is the :class:`~.pod.DisplayDriver` of a luma.oled
``ssd1306``: luma sets the display up (and its ``contrast``, ``show``,
``hide``), and :meth:`LumaDriver.write` sends one column/page address window
and its bytes — never luma's whole-frame ``display()``.

I2C: every pod's display on one bus shares one ``smbus2.SMBus`` and its lock
(:class:`I2cBuses`); :class:`MuxedI2C` selects the display's multiplexer
channel before every transaction and holds the bus lock until that
transaction is done, so several pods can never interleave.

SPI: luma's ``spi`` / ``gpio_cs_spi`` with one chip select each (the spidev
device, CE0/CE1, or a GPIO); their D/C, reset and GPIO chip-select lines go
through gpiozero (:class:`GpiozeroGPIO`), so the same pin factory (real or
mock) drives buttons and displays.

OS errors become :class:`~.errors.PodError` sentences at this edge: "no
display at 0x3C on i2c-1 channel 2", "permission denied on /dev/i2c-1: add
the user to the i2c group".
"""
from __future__ import annotations

import errno
import threading
from collections.abc import Callable

from .errors import PodError
from .pod import HEIGHT, PAGES, WIDTH

COLUMNADDR, PAGEADDR = 0x21, 0x22
#: errnos that mean "nobody answered at that address"
NO_ANSWER = (errno.EREMOTEIO, errno.ENXIO, errno.EIO, errno.ETIMEDOUT)
CMD, DATA = 0x00, 0x40  # I2C control bytes: the rest is commands / display data
SMBUS_BLOCK = 32
RDWR_BLOCK = 4096


def luma_ssd1306(serial):
    """A luma.oled ``ssd1306`` (128x64) on ``serial``; luma sends the set-up sequence and a blank frame."""
    from luma.oled.device import ssd1306

    device = ssd1306(serial, width=WIDTH, height=HEIGHT)
    device.persist = True  # luma's exit hook must not send its own full frame; LumaDriver.close blanks
    return device


def _luma_problem(e: BaseException) -> str:
    return str(e) or type(e).__name__


class LumaDriver:
    """A :class:`~.pod.DisplayDriver` over a luma.oled ``ssd1306`` made by ``opener``.

    ``opener()`` builds the luma device (and so sends its set-up sequence);
    :meth:`reopen` calls it again after an error. ``name`` is how messages
    call the display ("display 0x3C on i2c-1 channel 2").
    """

    cleared_on_open = True  # luma's ssd1306 clears its RAM when set up

    def __init__(self, opener: Callable[[], object], name: str = "display"):
        self.opener = opener
        self.name = name
        self.device = None
        self.closed = False
        self.reopen()

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except PodError:
            raise
        except Exception as e:  # luma's own errors are not OSErrors
            raise PodError(f"{self.name}: {_luma_problem(e)}") from e

    def reopen(self) -> None:
        old, self.device = self.device, None
        if old is not None:
            try:
                old._serial_interface.cleanup()
            except Exception:
                pass
        self.device = self._call(self.opener)
        self.closed = False

    def write(self, col0: int, col1: int, page0: int, page1: int, data: bytes) -> None:
        if self.device is None:
            raise PodError(f"{self.name}: not open")
        self._call(self.device.command, COLUMNADDR, col0, col1, PAGEADDR, page0, page1)
        self._call(self.device.data, data)

    def contrast(self, level: int) -> None:
        if self.device is not None:
            self._call(self.device.contrast, int(level))

    def power(self, on: bool) -> None:
        if self.device is not None:
            self._call(self.device.show if on else self.device.hide)

    def close(self) -> None:
        """Display off, RAM blanked, bus released. Idempotent; never raises."""
        if self.closed or self.device is None:
            self.closed = True
            return
        self.closed = True
        try:
            self.device.hide()
            self.write(0, WIDTH - 1, 0, PAGES - 1, bytes(WIDTH * PAGES))
        except Exception:
            pass
        try:
            self.device._serial_interface.cleanup()
        except Exception:
            pass


# -- I2C -------------------------------------------------------------------------
def i2c_open_problem(e: OSError, port: int) -> PodError:
    path = f"/dev/i2c-{port}"
    if isinstance(e, PermissionError) or e.errno in (errno.EACCES, errno.EPERM):
        return PodError(f"permission denied on {path}: add the user to the i2c group", temporary=False)
    if isinstance(e, FileNotFoundError) or e.errno == errno.ENOENT:
        return PodError(f"no I2C bus {path}: enable I2C (raspi-config, Interface Options)", temporary=False)
    return PodError(f"cannot open {path}: {e.strerror or e}")


class I2cBuses:
    """One open bus (and one lock) per I2C port, shared by every display on it.

    ``opener(port)`` defaults to ``smbus2.SMBus``; tests give a fake.
    """

    def __init__(self, opener: Callable[[int], object] | None = None):
        self.opener = opener
        self._buses: dict[int, list] = {}  # port -> [bus, lock, users]
        self._lock = threading.Lock()

    def acquire(self, port: int):
        with self._lock:
            entry = self._buses.get(port)
            if entry is None:
                opener = self.opener
                if opener is None:
                    try:
                        from smbus2 import SMBus
                    except ImportError as e:  # pragma: no cover - smbus2 comes with luma.core
                        raise PodError("the smbus2 module is missing: pip install smbus2", temporary=False) from e
                    opener = SMBus
                try:
                    bus = opener(port)
                except OSError as e:
                    raise i2c_open_problem(e, port) from e
                entry = self._buses[port] = [bus, threading.RLock(), 0]
            entry[2] += 1
            return entry[0], entry[1]

    def release(self, port: int) -> None:
        with self._lock:
            entry = self._buses.get(port)
            if entry is None:
                return
            entry[2] -= 1
            if entry[2] <= 0:
                del self._buses[port]
                try:
                    entry[0].close()
                except Exception:
                    pass


#: The buses of this process (displays on the same port share one).
BUSES = I2cBuses()


class MuxedI2C:
    """A luma serial interface for one SSD1306 on I2C, maybe behind a TCA9548A channel.

    The multiplexer channel is selected before every transaction, under the
    bus lock, so displays sharing the bus (and an address) never receive
    each other's bytes — even if something else switched the mux meanwhile.
    """

    def __init__(self, port: int = 1, address: int = 0x3C, *, mux: int | None = None, channel: int | None = None,
                 buses: I2cBuses = BUSES):
        self.port = port
        self.address = address
        self.mux = mux
        self.channel = channel
        self.buses = buses
        self.bus, self.lock = buses.acquire(port)
        self._open = True
        self._msg = getattr(self.bus, "msg", None)
        if self._msg is None and hasattr(self.bus, "i2c_rdwr"):
            try:
                from smbus2 import i2c_msg

                self._msg = i2c_msg.write
            except ImportError:  # pragma: no cover
                self._msg = None

    @property
    def where(self) -> str:
        return f"i2c-{self.port}" + (f" channel {self.channel}" if self.mux is not None else "")

    def _select(self) -> None:
        if self.mux is None:
            return
        try:
            assert self.channel is not None  # a multiplexer comes with a channel (config checks)
            self.bus.write_byte(self.mux, 1 << self.channel)
        except OSError as e:
            if e.errno in NO_ANSWER:
                raise PodError(f"no multiplexer at 0x{self.mux:02X} on i2c-{self.port}") from e
            raise PodError(f"i2c-{self.port}: selecting channel {self.channel}: {e.strerror or e}") from e

    def _fail(self, e: OSError) -> PodError:
        if e.errno in NO_ANSWER:
            return PodError(f"no display at 0x{self.address:02X} on {self.where}")
        return PodError(f"display at 0x{self.address:02X} on {self.where}: {e.strerror or e}")

    def command(self, *cmd: int) -> None:
        with self.lock:
            self._select()
            try:
                for i in range(0, len(cmd), SMBUS_BLOCK):
                    self.bus.write_i2c_block_data(self.address, CMD, list(cmd[i:i + SMBUS_BLOCK]))
            except OSError as e:
                raise self._fail(e) from e

    def data(self, data) -> None:
        data = list(data)
        with self.lock:
            self._select()
            try:
                if self._msg is not None:
                    for i in range(0, len(data), RDWR_BLOCK):
                        self.bus.i2c_rdwr(self._msg(self.address, [DATA] + data[i:i + RDWR_BLOCK]))
                else:
                    for i in range(0, len(data), SMBUS_BLOCK):
                        self.bus.write_i2c_block_data(self.address, DATA, data[i:i + SMBUS_BLOCK])
            except OSError as e:
                raise self._fail(e) from e

    def cleanup(self) -> None:
        if self._open:
            self._open = False
            self.buses.release(self.port)


def open_i2c_display(port: int, address: int, mux: int | None = None, channel: int | None = None,
                     *, buses: I2cBuses = BUSES) -> LumaDriver:
    where = f"i2c-{port}" + (f" channel {channel}" if mux is not None else "")
    name = f"display 0x{address:02X} on {where}"

    def opener():
        serial = MuxedI2C(port, address, mux=mux, channel=channel, buses=buses)
        try:
            return luma_ssd1306(serial)
        except BaseException:
            serial.cleanup()
            raise

    return LumaDriver(opener, name)


# -- SPI --------------------------------------------------------------------------
class GpiozeroGPIO:
    """The part of RPi.GPIO's interface luma's SPI classes use, on gpiozero output pins.

    One per pin factory, shared by every SPI display: a D/C line wired to
    several displays is set up once and released with its last user.
    """

    LOW, HIGH = 0, 1
    OUT, IN = "out", "in"
    BCM = "BCM"

    def __init__(self, factory):
        self.factory = factory
        self._pins: dict[int, list] = {}  # pin -> [OutputDevice, users]

    def setmode(self, mode) -> None:
        pass

    def setup(self, pin: int, mode, initial=None) -> None:
        from gpiozero import OutputDevice

        entry = self._pins.get(pin)
        if entry is not None:
            entry[1] += 1
            return
        dev = OutputDevice(pin, initial_value=bool(initial) if initial is not None else False,
                           pin_factory=self.factory)
        self._pins[pin] = [dev, 1]

    def output(self, pin: int, value) -> None:
        self._pins[pin][0].pin.state = bool(value)

    def level(self, pin: int) -> bool:
        return bool(self._pins[pin][0].pin.state)

    def cleanup(self, pins=None) -> None:
        if pins is None:
            pins = list(self._pins)
        elif isinstance(pins, int):
            pins = [pins]
        for pin in pins:
            entry = self._pins.get(pin)
            if entry is None:
                continue
            entry[1] -= 1
            if entry[1] <= 0:
                del self._pins[pin]
                entry[0].close()


def spi_open_problem(e: OSError, port: int, device: int) -> PodError:
    path = f"/dev/spidev{port}.{device}"
    if isinstance(e, PermissionError) or e.errno in (errno.EACCES, errno.EPERM):
        return PodError(f"permission denied on {path}: add the user to the spi group", temporary=False)
    if isinstance(e, FileNotFoundError) or e.errno == errno.ENOENT:
        return PodError(f"no SPI device {path}: enable SPI (raspi-config, Interface Options)", temporary=False)
    return PodError(f"cannot open {path}: {e.strerror or e}")


def open_spi_display(port: int, device: int, dc: int, *, gpio: GpiozeroGPIO, reset: int | None = None,
                     cs: int | None = None, speed_hz: int = 8_000_000, spidev=None) -> LumaDriver:
    """An SSD1306 on SPI ``port``; chip select: spidev ``device`` (CE0/CE1) or the GPIO ``cs``.

    ``spidev``: a callable making a ``spidev.SpiDev`` (tests give a fake).
    """
    name = f"display on spi{port}." + (f"{device} (chip select GPIO{cs})" if cs is not None else f"{device}")

    def opener():
        from luma.core.interface.serial import gpio_cs_spi, spi

        if spidev is not None:
            dev = spidev()
        else:
            try:
                import spidev as spidev_module
            except ImportError as e:
                raise PodError("the spidev module is missing: pip install spidev", temporary=False) from e
            dev = spidev_module.SpiDev()
        kw = dict(spi=dev, gpio=gpio, port=port, device=device, gpio_DC=dc, gpio_RST=reset, bus_speed_hz=speed_hz)
        try:
            serial = gpio_cs_spi(gpio_CS=cs, **kw) if cs is not None else spi(**kw)
        except OSError as e:
            raise spi_open_problem(e, port, device) from e
        except Exception as e:
            if type(e).__name__ == "DeviceNotFoundError":
                raise PodError(f"no SPI device /dev/spidev{port}.{device}: enable SPI "
                               "(raspi-config, Interface Options)", temporary=False) from e
            raise
        try:
            return luma_ssd1306(serial)
        except BaseException:
            serial.cleanup()
            raise

    return LumaDriver(opener, name)
