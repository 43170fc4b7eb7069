"""Building the pods a config describes: direct wiring or mock, per seat.

A :class:`Rig` holds what all pods of a table share — the owner's event
queue, the button scanner and its clock, the I2C buses, the gpiozero pin
factory — and builds one :class:`Pod` (a :class:`~.face.Face` plus its
:class:`~.buttons.GpioButtons`) per configured seat.

Which hardware a seat gets is said by the config or ``$TABLEKEEPER_PODS``;
``auto`` means gpio where this machine has a GPIO chip and mock elsewhere,
and that fallback is never silent: it warns (:class:`MockFallback`).
"""
from __future__ import annotations

import queue
import time
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .buttons import ButtonScanner, GpioButtons, gpio_problem
from .config import I2cDisplay, PodsConfig, SeatConfig, SpiDisplay, backend_override
from .errors import HardwareError, PodError
from .face import Face
from .pod import InputEvent, PodView

if TYPE_CHECKING:
    from PIL import Image

#: Where device nodes live (tests point it at a folder of fakes).
DEV = Path("/dev")
#: Pins a mock pod's buttons use when the config gives none (each mock pod has its own mock pins).
MOCK_PINS = {"up": 5, "down": 6, "select": 13, "main": 19}
BUTTON_RETRY = 30.0


class MockFallback(RuntimeWarning):
    """Pods use mock hardware because this machine has none (backend "auto")."""


def has_gpio(dev: Path | None = None) -> bool:
    dev = DEV if dev is None else dev
    return any(dev.glob("gpiochip*"))


class Pod:
    """One seat's pod: its face (the display side) and (if any) its buttons.

    The owner calls :meth:`show`, :meth:`wake`, :meth:`tick`; buttons put
    events on the rig's queue by themselves.
    """

    def __init__(self, seat: int, backend: str, face: Face, description: str,
                 make_buttons: Callable[[], GpioButtons] | None = None, *, clock=time.monotonic, report=None):
        self.seat = seat
        self.backend = backend
        self.face = face
        self.description = description
        self.make_buttons = make_buttons
        self.buttons: GpioButtons | None = None
        self.button_problem: str | None = None
        self._button_retry = 0.0
        self.clock = clock
        self.report = report or (lambda text: None)
        self._open_buttons(clock())

    def _open_buttons(self, now: float) -> None:
        if self.make_buttons is None or self.buttons is not None:
            return
        try:
            self.buttons = self.make_buttons()
        except HardwareError as e:
            text = str(e) if str(e).startswith(f"seat {self.seat}:") else f"seat {self.seat}: buttons: {e}"
            if text != self.button_problem:
                self.report(f"{text} (retrying every {BUTTON_RETRY:g} s)")
            self.button_problem = text
            self._button_retry = now + BUTTON_RETRY
            return
        if self.button_problem is not None:
            self.report(f"seat {self.seat}: buttons are back")
        self.button_problem = None

    @property
    def online(self) -> bool:
        return self.face.online and (self.make_buttons is None or self.buttons is not None)

    @property
    def problem(self) -> str | None:
        return self.face.problem or self.button_problem

    def show(self, view: PodView, now: float | None = None) -> None:
        self.face.show(view, now)

    def show_image(self, image, now: float | None = None) -> None:
        self.face.show_image(image, now)

    def wake(self, now: float | None = None) -> None:
        self.face.wake(now)

    def tick(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        self.face.tick(now)
        if self.buttons is None and self.make_buttons is not None and now >= self._button_retry:
            self._open_buttons(now)

    def next_due(self, now: float) -> float | None:
        times = [t for t in (self.face.next_due(now),
                             self._button_retry if self.buttons is None and self.make_buttons else None)
                 if t is not None]
        return min(times) if times else None

    def pin(self, button: str):
        """The gpiozero pin of a button (a MockPin on a mock pod)."""
        if self.buttons is None:
            raise PodError(f"seat {self.seat}: the buttons are not open")
        return self.buttons.pin(button)

    @property
    def screen_image(self):
        """What a mock pod's face shows (the luma dummy device's image); None for real displays."""
        link = self.face.link
        return getattr(link, "image", None)

    def close(self) -> None:
        self.face.close()
        if self.buttons is not None:
            self.buttons.close()
            self.buttons = None


class ImagePod:
    """A pod that is only pixels handed to a callback: the touchscreen app's virtual pods.

    ``on_image(seat, image, view)`` is called on the owner thread with the
    rendered 128x64 mode "1" image whenever the view changes (never for an
    equal view). Its buttons are the app's: put
    ``InputEvent(seat, button, "press")`` / ``"release"`` on the hub's queue
    (touch needs no debounce; send "hold"/"repeat" if the app times them).
    """

    backend = "virtual"
    online = True
    problem = None

    def __init__(self, seat: int, on_image: Callable):
        self.seat = seat
        self.on_image = on_image
        self.view: PodView | None = None
        self.image: Image.Image | None = None

    def show(self, view: PodView, now: float | None = None) -> None:
        from .render import render

        if view != self.view:
            self.view = view
            self.image = render(view)
            self.on_image(self.seat, self.image, view)

    def wake(self, now: float | None = None) -> None:
        pass

    def tick(self, now: float | None = None) -> None:
        pass

    def next_due(self, now: float) -> float | None:
        return None

    def close(self) -> None:
        pass


class Rig:
    """What the pods of one table share, and the pods themselves (``rig.pods``: seat → Pod).

    ``sink(event)``: where every button event goes, on the thread that made it (the owner's
    ``press``); ``backlog()``: how many events wait for the owner (a serial link drops events
    beyond its limit when the owner is stuck). Without a sink the events wait on ``rig.events``,
    a queue the caller takes them from. ``clock``: seconds,
    monotonic, shared by debounce and OLED care (tests pass a FakeClock).
    ``report(text)``: where pod failures and recoveries are told.
    ``buses``/``spidev``/``real_factory``: injection points for tests.
    """

    def __init__(self, config: PodsConfig, sink: Callable[[InputEvent], None] | None = None, *,
                 backlog: Callable[[], int] | None = None,
                 clock: Callable[[], float] = time.monotonic, report: Callable[[str], None] | None = None,
                 buses=None, spidev=None, real_factory: Callable[[], object] | None = None,
                 dev: Path | None = None):
        from .displays import BUSES

        self.config = config
        self.events: queue.Queue | None = None
        if sink is None:
            events: queue.Queue = queue.Queue()
            self.events, sink, backlog = events, events.put, events.qsize
        self.sink = sink
        self.backlog = backlog or (lambda: 0)
        self.clock = clock
        self.report = report or (lambda text: None)
        self.buses = buses or BUSES
        self.spidev = spidev
        self.dev = dev
        self._real_factory = real_factory
        self._factory: Any = None  # gpiozero's pin factory (untyped)
        self._gpio: dict[int, Any] = {}
        self.scanner = ButtonScanner(sink, clock)
        self.pods: dict[int, Pod] = {}
        self._warned = False

    # -- backends ----------------------------------------------------------------
    def backend_of(self, seat: SeatConfig) -> str:
        """The backend a seat really gets: env override, then the config; auto resolved (with a warning)."""
        backend = backend_override() or seat.backend
        if backend == "auto":
            if has_gpio(self.dev):
                return "gpio"
            if not self._warned:
                self._warned = True
                warnings.warn(MockFallback(
                    "this machine has no GPIO chip: the pods use mock hardware "
                    '(set backend = "mock" in [pods] or TABLEKEEPER_PODS=mock to say so)'), stacklevel=2)
            return "mock"
        return backend

    def pin_factory(self):
        """The real gpiozero pin factory (lgpio on a Pi), made once."""
        if self._factory is None:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    if self._real_factory is not None:
                        self._factory = self._real_factory()
                    else:
                        from gpiozero import Device

                        Device.ensure_pin_factory()
                        self._factory = Device.pin_factory
                except Exception as e:
                    tried = "; ".join(str(w.message) for w in caught)
                    raise PodError(gpio_problem(e) + (f" [{tried}]" if tried else ""), temporary=False) from e
            for w in caught:  # gpiozero's own fallbacks (e.g. to its native factory) stay visible
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return self._factory

    def gpio_for(self, factory):
        from .displays import GpiozeroGPIO

        key = id(factory)
        if key not in self._gpio:
            self._gpio[key] = GpiozeroGPIO(factory)
        return self._gpio[key]

    # -- building ----------------------------------------------------------------
    def build(self, seats: list[int] | None = None) -> dict[int, Pod]:
        """Make the pods of ``seats`` (default: every configured seat). Failures are reported, not raised."""
        for s in self.config.seats:
            if seats is not None and s.number not in seats:
                continue
            self.pods[s.number] = self._pod(s)
        return self.pods

    def _pod(self, s: SeatConfig) -> Pod:
        from .mock import MockDisplay

        backend = self.backend_of(s)
        timing = self.config.timing
        care = self.config.care
        if backend == "mock":
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
            pins = s.pins or dict(MOCK_PINS)
            face = Face(s.number, MockDisplay, care, clock=self.clock, report=self.report, name="mock display")
            return Pod(s.number, "mock", face, "mock pod (no hardware)",
                       lambda: GpioButtons(s.number, pins, self.scanner, factory, timing),
                       clock=self.clock, report=self.report)
        if backend == "gpio":
            opener, what = self._display_opener(s)
            face = Face(s.number, opener, care, clock=self.clock, report=self.report, name=what)

            def buttons():
                return GpioButtons(s.number, s.pins, self.scanner, self.pin_factory(), timing)

            wiring = ", ".join(f"{k}=GPIO{p}" for k, p in s.buttons)
            assert s.display is not None  # _display_opener() raised otherwise
            return Pod(s.number, "gpio", face, f"{s.display.describe()}; buttons {wiring}", buttons,
                       clock=self.clock, report=self.report)
        from .config import extra_backend

        module = extra_backend(backend)
        if module is None:
            raise HardwareError(f"seat {s.number}: the {backend!r} backend is not available in this version")
        return module.build(self, s)

    def _display_opener(self, s: SeatConfig):
        from .displays import open_i2c_display, open_spi_display

        d = s.display
        if isinstance(d, I2cDisplay):
            return (lambda: open_i2c_display(d.port, d.address, d.mux, d.channel, buses=self.buses)), \
                f"display 0x{d.address:02X} on i2c-{d.port}" + (f" channel {d.channel}" if d.mux is not None else "")
        if isinstance(d, SpiDisplay):
            what = f"display on spi{d.port}.{d.device}"

            def opener():
                try:
                    gpio = self.gpio_for(self.pin_factory())
                except PodError as e:
                    raise PodError(f"{what}: its D/C line: {e}", temporary=e.temporary) from e
                return open_spi_display(d.port, d.device, d.dc, gpio=gpio, reset=d.reset, cs=d.cs,
                                        speed_hz=d.speed_hz, spidev=self.spidev)

            return opener, what
        raise HardwareError(f"seat {s.number}: no display configured")

    # -- running -------------------------------------------------------------------
    def start(self) -> None:
        """Start the button timer thread (not in tests that tick by hand)."""
        self.scanner.start()

    def show(self, views: Mapping[int, PodView]) -> None:
        """Each pod shows its seat's view of ``views`` (seat → view; one for every pod): the owner's
        one hand-over of a snapshot. A pod sends only the pixels that changed."""
        for seat, pod in self.pods.items():
            pod.show(views[seat])

    def close(self) -> None:
        """Blank every display, release pins and buses. Idempotent."""
        self.scanner.stop()
        for pod in self.pods.values():
            pod.close()
        for gpio in self._gpio.values():
            gpio.cleanup()
        self._gpio.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
