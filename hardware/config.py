"""The pod config: one TOML file, checked whole before any hardware is touched.

Where it is: ``--config PATH``, else ``$TABLEKEEPER_CONFIG``, else
``$XDG_CONFIG_HOME/tablekeeper/tablekeeper.toml``, else
``/etc/tablekeeper/tablekeeper.toml``; none at all means mock pods, one per
player. ``$TABLEKEEPER_PODS`` (``auto``, ``gpio``, ``mock``) overrides
every seat's backend. The format (docs/hardware.md has a full example)::

    [pods]
    backend = "auto"      # auto | gpio | mock: auto = gpio on a Pi, mock elsewhere (with a warning)
    contrast = 207        # 0-255
    dim_contrast = 16     # 0-255, after dim_after seconds idle (0 = never dim)
    dim_after = 120
    shift_every = 300     # seconds between 1-pixel burn-in shifts (0 = never)
    debounce = 0.02       # seconds a button is locked after a change (bounces ignored; eager)
    hold_time = 0.6       # seconds until a hold
    repeat_interval = 0.15

    [[seat]]
    number = 1
    buttons = { up = 5, down = 6, select = 13, main = 19 }   # BCM GPIO numbers
    display = { bus = "i2c", port = 1, address = 0x3C, mux = 0x70, channel = 0 }

    [[seat]]
    number = 2
    buttons = { up = 12, down = 16, select = 20, main = 21 }
    display = { bus = "spi", port = 0, device = 0, dc = 24, reset = 25 }  # or cs = 17 for a GPIO chip select

Every problem is a :class:`~.errors.ConfigError` naming the file and the key:
"tablekeeper.toml: seat 2: display.channel: 9 is out of range (a TCA9548A
has channels 0-7)", "... GPIO13 is used twice: seat 1 buttons.select and
seat 2 buttons.main".
"""
from __future__ import annotations

import importlib
import os
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from .buttons import Timing
from .errors import ConfigError
from .face import Care
from .pod import BUTTONS

ENV_PATH = "TABLEKEEPER_CONFIG"
ENV_BACKEND = "TABLEKEEPER_PODS"
FILENAME = "tablekeeper.toml"
SYSTEM_PATH = Path("/etc/tablekeeper") / FILENAME

#: Backends a seat can name. ``auto`` resolves to gpio or mock at start.
#: Any other name is a subpackage's module ``hardware/<name>/backend.py`` (the
#: serial pods: ``serial/backend.py``) with ``check_seat(raw: dict, where: str) -> dict``
#: (its own keys, raising ConfigError) and ``build(rig, seat) -> Pod``.
BACKENDS = {"auto", "gpio", "mock"}
#: Top-level tables owned by other parts of the product (not checked here).
OTHER_SECTIONS = {"app", "ui", "appliance", "serial", "journal", "club", "league"}
MAX_SEATS = 8
GPIO_PINS = range(0, 28)  # BCM numbers on the 40-pin header
I2C_LINES = {1: {2: "SDA", 3: "SCL"}, 0: {0: "SDA", 1: "SCL"}}
SPI_LINES = {0: {9: "MISO", 10: "MOSI", 11: "SCLK"}, 1: {19: "MISO", 20: "MOSI", 21: "SCLK"}}
SPI_CE = {0: {0: 8, 1: 7}, 1: {0: 18, 1: 17, 2: 16}}
SPI_SPEEDS = [int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)]

_PODS_KEYS = {"backend", "contrast", "dim_contrast", "dim_after", "shift_every", "debounce", "hold_time",
              "repeat_interval"}


@dataclass(frozen=True)
class I2cDisplay:
    port: int = 1
    address: int = 0x3C
    mux: int | None = None
    channel: int | None = None

    def describe(self) -> str:
        where = f"i2c-{self.port}" + (f" channel {self.channel} (mux 0x{self.mux:02X})" if self.mux is not None else "")
        return f"SSD1306 at 0x{self.address:02X} on {where}"


@dataclass(frozen=True)
class SpiDisplay:
    port: int = 0
    device: int = 0
    dc: int = 24
    reset: int | None = None
    cs: int | None = None
    speed_hz: int = 8_000_000

    def describe(self) -> str:
        sel = f"chip select GPIO{self.cs}" if self.cs is not None else f"CE{self.device}"
        return f"SSD1306 on spi{self.port}.{self.device} ({sel}, D/C GPIO{self.dc})"


@dataclass(frozen=True)
class SeatConfig:
    number: int
    backend: str = "auto"
    buttons: tuple[tuple[str, int], ...] = ()
    display: I2cDisplay | SpiDisplay | None = None
    extra: dict = field(default_factory=dict, compare=False)  # a registered extra backend's settings

    @property
    def pins(self) -> dict[str, int]:
        return dict(self.buttons)


@dataclass(frozen=True)
class PodsConfig:
    source: str  # the file, or a note like "(no config file)"
    backend: str = "auto"
    care: Care = Care()
    timing: Timing = Timing()
    seats: tuple[SeatConfig, ...] = ()

    def seat(self, number: int) -> SeatConfig | None:
        return next((s for s in self.seats if s.number == number), None)


# -- finding and reading --------------------------------------------------------
def find(option: str | os.PathLike | None = None) -> Path | None:
    """The config file to use (see the module doc); None when there is none."""
    for given, how in ((option, "--config"), (os.environ.get(ENV_PATH) or None, f"${ENV_PATH}")):
        if given:
            path = Path(given)
            if not path.is_file():
                raise ConfigError(f"{path}: no such config file (given by {how})")
            return path
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    for path in (Path(xdg) / "tablekeeper" / FILENAME, SYSTEM_PATH):
        if path.is_file():
            return path
    return None


def load(path: str | os.PathLike) -> PodsConfig:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{path}: cannot read it: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    return loads(text, str(path))


def loads(text: str, source: str = "config") -> PodsConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{source}: not valid TOML: {e}") from e
    return parse(data, source)


def mock_config(players: int, source: str = "(no config file: mock pods)") -> PodsConfig:
    """Mock pods for ``players`` seats, with default pins."""
    return PodsConfig(source, backend="mock", seats=tuple(SeatConfig(n, "mock") for n in range(1, players + 1)))


def extra_backend(name):
    """The module of an extra backend ``hardware/<name>/backend.py``, or None if there is none."""
    if not isinstance(name, str) or not name.isidentifier():
        return None
    package = f"{__package__}.{name}"
    module = f"{package}.backend"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name in (package, module):
            return None
        raise


def known_backend(name) -> bool:
    return name in BACKENDS or extra_backend(name) is not None


def _backend_names() -> str:
    return ", ".join(sorted(BACKENDS))


def backend_override() -> str | None:
    value = os.environ.get(ENV_BACKEND)
    if not value:
        return None
    if not known_backend(value):
        raise ConfigError(f"${ENV_BACKEND}: {value!r} is not a backend ({_backend_names()})")
    return value


# -- checking -----------------------------------------------------------------------
class _Where:
    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, problem: str):
        raise ConfigError(f"{self.source}: {where}: {problem}")


def _int(w: _Where, where: str, value, lo: int, hi: int, what: str = "a whole number") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        w.fail(where, f"must be {what} {lo}-{hi}, not {value!r}")
    if not lo <= value <= hi:
        w.fail(where, f"{value} is out of range ({lo}-{hi})")
    return value


def _num(w: _Where, where: str, value, lo: float, hi: float, *, lo_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        w.fail(where, f"must be a number of seconds, not {value!r}")
    if value < lo or value > hi or (lo_open and value == lo):
        w.fail(where, f"{value} is out of range ({'more than ' if lo_open else ''}{lo:g}-{hi:g} s)")
    return float(value)


def _table(w: _Where, where: str, value) -> dict:
    if not isinstance(value, dict):
        w.fail(where, f"must be a table, not {value!r}")
    return value


def _keys(w: _Where, where: str, table: dict, allowed: set, required: Collection[str] = frozenset()) -> None:
    for key in table:
        if key not in allowed:
            w.fail(f"{where}.{key}" if where else key, f"unknown key (keys here: {', '.join(sorted(allowed))})")
    for key in sorted(required):
        if key not in table:
            w.fail(where or "top level", f"missing key {key!r}")


def _pin(w: _Where, where: str, value) -> int:
    return _int(w, where, value, GPIO_PINS.start, GPIO_PINS.stop - 1, "a BCM GPIO number")


def parse(data: dict, source: str = "config") -> PodsConfig:
    """Check a decoded TOML document; every problem names the key."""
    w = _Where(source)
    for key in data:
        if key not in ("pods", "seat") and key not in OTHER_SECTIONS:
            w.fail(key, "unknown key (pod keys: pods, seat)")
    pods = _table(w, "pods", data.get("pods", {}))
    _keys(w, "pods", pods, _PODS_KEYS)
    backend = pods.get("backend", "auto")
    if not known_backend(backend):
        w.fail("pods.backend", f"{backend!r} is not a backend ({_backend_names()})")
    d_care, d_timing = Care(), Timing()
    care = Care(
        contrast=_int(w, "pods.contrast", pods.get("contrast", d_care.contrast), 0, 255),
        dim_contrast=_int(w, "pods.dim_contrast", pods.get("dim_contrast", d_care.dim_contrast), 0, 255),
        dim_after=_num(w, "pods.dim_after", pods.get("dim_after", d_care.dim_after), 0, 86400),
        shift_every=_num(w, "pods.shift_every", pods.get("shift_every", d_care.shift_every), 0, 86400),
    )
    timing = Timing(
        debounce=_num(w, "pods.debounce", pods.get("debounce", d_timing.debounce), 0, 0.5, lo_open=True),
        hold_time=_num(w, "pods.hold_time", pods.get("hold_time", d_timing.hold_time), 0, 10, lo_open=True),
        repeat_interval=_num(w, "pods.repeat_interval", pods.get("repeat_interval", d_timing.repeat_interval),
                             0, 5, lo_open=True),
    )
    raw_seats = data.get("seat", [])
    if not isinstance(raw_seats, list):
        w.fail("seat", "must be an array of tables: write each seat as [[seat]]")
    if len(raw_seats) > MAX_SEATS:
        w.fail("seat", f"{len(raw_seats)} seats; at most {MAX_SEATS}")
    seats = [_seat(w, i, raw, backend) for i, raw in enumerate(raw_seats)]
    _cross_check(w, seats)
    return PodsConfig(source, backend, care, timing, tuple(sorted(seats, key=lambda s: s.number)))


def _ordinal(i: int) -> str:
    n = i + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} [[seat]]"


def _seat(w: _Where, i: int, raw, default_backend: str) -> SeatConfig:
    raw = _table(w, _ordinal(i), raw)
    if "number" not in raw:
        w.fail(_ordinal(i), "missing key 'number' (the seat's number, 1-8)")
    number = _int(w, f"{_ordinal(i)}: number", raw["number"], 1, MAX_SEATS)
    here = f"seat {number}"
    backend = raw.get("backend", default_backend)
    if not known_backend(backend):
        w.fail(f"{here}: backend", f"{backend!r} is not a backend ({_backend_names()})")
    if backend not in BACKENDS:  # an extra backend checks its own keys
        extra = extra_backend(backend).check_seat(dict(raw), f"{w.source}: {here}")
        return SeatConfig(number, backend, extra=extra)
    _keys(w, here, raw, {"number", "backend", "buttons", "display"},
          set() if backend == "mock" else {"buttons", "display"})
    buttons: tuple = ()
    if "buttons" in raw:
        table = _table(w, f"{here}: buttons", raw["buttons"])
        _keys(w, f"{here}: buttons", table, set(BUTTONS), set(BUTTONS))
        buttons = tuple((name, _pin(w, f"{here}: buttons.{name}", table[name])) for name in BUTTONS)
    display = None
    if "display" in raw:
        display = _display(w, here, _table(w, f"{here}: display", raw["display"]))
    return SeatConfig(number, backend, buttons, display)


def _display(w: _Where, here: str, t: dict):
    at = f"{here}: display"
    if "bus" not in t:
        w.fail(at, "missing key 'bus' (\"i2c\" or \"spi\")")
    bus = t["bus"]
    if bus == "i2c":
        _keys(w, at, t, {"bus", "port", "address", "mux", "channel"})
        mux = t.get("mux")
        if mux is not None:
            mux = _int(w, f"{at}.mux", mux, 0x70, 0x77, "a TCA9548A address")
            if "channel" not in t:
                w.fail(at, "missing key 'channel' (the multiplexer channel, 0-7)")
            ch = t["channel"]
            if isinstance(ch, bool) or not isinstance(ch, int):
                w.fail(f"{at}.channel", f"must be a whole number 0-7, not {ch!r}")
            if not 0 <= ch <= 7:
                w.fail(f"{at}.channel", f"{ch} is out of range (a TCA9548A has channels 0-7)")
        elif "channel" in t:
            w.fail(f"{at}.channel", "a channel needs a multiplexer: add mux = 0x70 (its address)")
        return I2cDisplay(
            port=_int(w, f"{at}.port", t.get("port", 1), 0, 31),
            address=_int(w, f"{at}.address", t.get("address", 0x3C), 0x03, 0x77, "an I2C address"),
            mux=mux,
            channel=t.get("channel"),
        )
    if bus == "spi":
        _keys(w, at, t, {"bus", "port", "device", "dc", "reset", "cs", "speed_hz"}, {"dc"})
        port = _int(w, f"{at}.port", t.get("port", 0), 0, 6)
        device = _int(w, f"{at}.device", t.get("device", 0), 0, 2)
        cs = t.get("cs")
        if cs is not None:
            cs = _int(w, f"{at}.cs", cs, 2, 27, "a BCM GPIO number")
        speed = t.get("speed_hz", 8_000_000)
        if speed not in SPI_SPEEDS or isinstance(speed, bool):
            w.fail(f"{at}.speed_hz", f"{speed!r} is not a speed luma accepts (e.g. 8000000; "
                                      f"{', '.join(str(s) for s in SPI_SPEEDS[:6])} ...)")
        return SpiDisplay(
            port=port, device=device,
            dc=_pin(w, f"{at}.dc", t["dc"]),
            reset=_pin(w, f"{at}.reset", t["reset"]) if t.get("reset") is not None else None,
            cs=cs, speed_hz=speed,
        )
    w.fail(f"{at}.bus", f"must be \"i2c\" or \"spi\", not {bus!r}")


def _cross_check(w: _Where, seats: list[SeatConfig]) -> None:
    for backend in sorted({s.backend for s in seats} - set(BACKENDS)):
        module = extra_backend(backend)
        if module is not None and hasattr(module, "check_duplicates"):
            try:
                module.check_duplicates(seats)  # e.g. two seats naming the same serial pod
            except ConfigError as e:
                raise ConfigError(f"{w.source}: {e}") from None
    numbers: dict[int, int] = {}
    for i, s in enumerate(seats):
        if s.number in numbers:
            w.fail(f"{_ordinal(i)}: number", f"seat {s.number} is already {_ordinal(numbers[s.number])}")
        numbers[s.number] = i
    wired = [s for s in seats if s.backend in ("auto", "gpio")]
    # Lines a bus uses are not free for buttons.
    reserved: dict[int, str] = {}
    for s in wired:
        d = s.display
        if isinstance(d, I2cDisplay):
            for pin, line in I2C_LINES.get(d.port, {}).items():
                reserved[pin] = f"I2C{d.port}'s {line} line (seat {s.number}'s display)"
        elif isinstance(d, SpiDisplay):
            for pin, line in SPI_LINES.get(d.port, {}).items():
                reserved[pin] = f"SPI{d.port}'s {line} line (seat {s.number}'s display)"
            if d.cs is None and d.device in SPI_CE.get(d.port, {}):
                reserved[SPI_CE[d.port][d.device]] = f"SPI{d.port}'s CE{d.device} (seat {s.number}'s display)"
    used: dict[int, str] = {}
    dc_lines: dict[int, str] = {}
    for s in wired:
        owned = [(f"buttons.{k}", p) for k, p in s.buttons]
        d = s.display
        if isinstance(d, SpiDisplay):
            owned += [(k, p) for k, p in (("display.reset", d.reset), ("display.cs", d.cs)) if p is not None]
            if d.dc in used:
                w.fail(f"seat {s.number}: display.dc", f"GPIO{d.dc} is used twice: {used[d.dc]} and "
                                                       f"seat {s.number} display.dc")
            if d.dc in reserved:
                w.fail(f"seat {s.number}: display.dc", f"GPIO{d.dc} is {reserved[d.dc]}")
            dc_lines[d.dc] = f"seat {s.number} display.dc"  # D/C may be shared between SPI displays
        for key, pin in owned:
            if pin in used or pin in dc_lines:
                w.fail(f"seat {s.number}: {key}",
                       f"GPIO{pin} is used twice: {used.get(pin) or dc_lines[pin]} and seat {s.number} {key}")
            if pin in reserved:
                w.fail(f"seat {s.number}: {key}", f"GPIO{pin} is {reserved[pin]}")
            used[pin] = f"seat {s.number} {key}"
    # Two displays must not answer at the same place.
    places: dict[tuple, int] = {}
    place: tuple
    for s in wired:
        d = s.display
        if isinstance(d, I2cDisplay):
            place = ("i2c", d.port, d.mux, d.channel, d.address)
            what = d.describe()
        elif isinstance(d, SpiDisplay):
            place = ("spi", d.port, d.device, d.cs) if d.cs is not None else ("spi", d.port, d.device)
            what = d.describe()
        else:
            continue
        if place in places:
            w.fail(f"seat {s.number}: display", f"{what} is already seat {places[place]}'s display")
        places[place] = s.number
    # Mux addresses and display addresses on one bus must differ.
    for s in wired:
        d = s.display
        if isinstance(d, I2cDisplay) and d.mux is not None:
            for t in wired:
                other = t.display
                if isinstance(other, I2cDisplay) and other.port == d.port and other.address == d.mux:
                    w.fail(f"seat {t.number}: display.address",
                           f"0x{other.address:02X} is the multiplexer's address on i2c-{d.port}")
