"""A seat whose pod is a microcontroller on USB serial: its Pod, its config keys, its ``hw check``.

The seat gets the same :class:`~tablekeeper.hardware.face.Face` as a wired pod (render, OLED
care, only changed bytes); the face's display driver is a
:class:`~.port.SerialPodLink`, so a serial seat shows exactly the
pixels of any other backend and nothing elsewhere needs a special case.
Its buttons arrive from the pod as :class:`~tablekeeper.hardware.pod.InputEvent` through
the rig's sink (the owner's).

Config (a ``[[seat]]`` with ``backend = "serial"``)::

    [[seat]]
    number = 3
    backend = "serial"
    pod = "e6614c311b7c5f2c"      # the pod's id: `tablekeeper hw check` lists what it finds
    # port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7c5f2c-if00"  # optional

Without ``port`` the pod is looked for under ``/dev/serial/by-id`` (names
holding the id first, then any port no other pod answered on), so a pod can
move to another USB socket. Debounce, hold and repeat come from ``[pods]``.

``port = "sim"`` gives the seat a simulated pod (``sim.pty_pod.SimPod``: the
firmware's logic on a pseudo-terminal) — the whole serial stack on a PC,
in mock mode; its buttons are :meth:`SerialPod.pin` like a mock pod's.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable

from ..config import SeatConfig
from ..errors import ConfigError, PodError
from ..face import Face
from ..rig import Pod
from ..screen import unpack
from .link import LinkTiming, shown
from .port import PortFinder, SerialPodLink

BACKEND = "serial"
SIM_PORT = "sim"
SEAT_KEYS = {"number", "backend", "pod", "port"}
POD_ID = re.compile(r"^[A-Za-z0-9._:-]{1,32}$")


# -- config ------------------------------------------------------------------------------------------
def check_seat(raw: dict, where: str) -> dict:
    """The keys of a ``backend = "serial"`` seat, checked; returns the seat's ``extra``: ``{"pod", "port"}``.

    The config's contract for an extra backend (``config.extra_backend``).
    """
    for key in raw:
        if key not in SEAT_KEYS:
            raise ConfigError(f"{where}: {key}: unknown key (keys of a serial seat: {', '.join(sorted(SEAT_KEYS))})")
    if "pod" not in raw:
        raise ConfigError(f"{where}: missing key 'pod' (the pod's id; `tablekeeper hw check` lists the pods it "
                          "finds)")
    pod = raw["pod"]
    if not isinstance(pod, str) or not POD_ID.match(pod):
        raise ConfigError(f"{where}: pod: {pod!r} is not a pod id (1-32 letters, digits, '.', '_', ':' or '-')")
    port = raw.get("port")
    if port is not None and (not isinstance(port, str) or not port):
        raise ConfigError(f"{where}: port: must be a device path like /dev/serial/by-id/..., not {port!r}")
    return {"pod": pod, "port": port}


def check_duplicates(seats) -> None:
    """Two serial seats must not name the same pod."""
    owners: dict[str, int] = {}
    for s in seats:
        if s.backend != BACKEND:
            continue
        pod = s.extra.get("pod")
        if pod in owners:
            raise ConfigError(f"seat {s.number}: pod: {pod!r} is already seat {owners[pod]}'s pod")
        owners[pod] = s.number


# -- the pod -------------------------------------------------------------------------------------------
class SerialPod(Pod):
    """One seat's serial pod: a :class:`~tablekeeper.hardware.rig.Pod` whose face draws through a :class:`SerialPodLink`."""

    def __init__(self, seat: int, link: SerialPodLink, face: Face, *, clock=time.monotonic, report=None, sim=None):
        super().__init__(seat, BACKEND, face, link.describe() if sim is None else
                         f"simulated serial pod {link.pod_id!r} on {sim.device}", None, clock=clock, report=report)
        self.link = link
        self.sim = sim  # a sim.pty_pod.SimPod when the seat's port is "sim"

    @property
    def online(self) -> bool:
        return self.link.online and self.face.online

    @property
    def problem(self) -> str | None:
        return self.link.problem or self.face.problem

    def pin(self, button: str):
        """A simulated pod's button (``drive_low()`` presses it); a real pod's buttons are on the pod."""
        if self.sim is None:
            raise PodError(f"seat {self.seat}: a serial pod's buttons are on the pod itself")
        return self.sim.pin(button)

    @property
    def screen_image(self):
        """What a simulated pod's face shows; for a real pod, the picture it is being given."""
        if self.sim is not None:
            return self.sim.image()
        with self.link._lock:
            return unpack(bytes(self.link.core.target))

    def close(self) -> None:
        super().close()
        self.link.close()  # idempotent; the face only closes it if it ever opened it
        if self.sim is not None:
            self.sim.close()


def seat_link(s: SeatConfig, sink, *, backlog=None, finder: PortFinder | None = None, timing: LinkTiming = LinkTiming(),
              buttons: tuple[float, float, float] = (0.02, 0.6, 0.15), report: Callable[[str], None] | None = None,
              open_port=None) -> SerialPodLink:
    if s.backend != BACKEND:
        raise ValueError(f"seat {s.number} is a {s.backend!r} seat, not a serial one")
    return SerialPodLink(s.number, s.extra["pod"], sink, backlog=backlog, port=s.extra.get("port"), finder=finder, timing=timing,
                         buttons=buttons, report=report, open_port=open_port)


def build(rig, s: SeatConfig, *, finder: PortFinder | None = None, timing: LinkTiming = LinkTiming(),
          open_port=None) -> SerialPod:
    """The pod of a serial seat of ``rig`` (a :class:`~.pods.Rig`), its I/O thread started.

    Uses the rig's queue, report, OLED care, button timing and clock (the
    face's; the link keeps real time). ``finder``: shared by the rig's
    serial seats (kept on the rig as ``serial_finder`` when not given).
    """
    if finder is None:
        finder = getattr(rig, "serial_finder", None)
        if finder is None:
            finder = PortFinder()
            rig.serial_finder = finder
    t = rig.config.timing
    buttons = (t.debounce, t.hold_time, t.repeat_interval)
    sim = None
    if s.extra.get("port") == SIM_PORT:
        from .sim.pty_pod import SimPod

        sim = SimPod(s.extra["pod"]).start()
        link = SerialPodLink(s.number, s.extra["pod"], rig.sink, backlog=rig.backlog, port=sim.path, finder=finder, timing=timing,
                             buttons=buttons, report=rig.report, search=False)
    else:
        link = seat_link(s, rig.sink, backlog=rig.backlog, finder=finder, timing=timing, buttons=buttons, report=rig.report,
                         open_port=open_port)
    face = Face(s.number, lambda: link, rig.config.care, clock=rig.clock, report=rig.report,
                  name=f"serial pod {s.extra['pod']!r}")
    link.start()
    return SerialPod(s.number, link, face, clock=rig.clock, report=rig.report, sim=sim)


# -- hw check ------------------------------------------------------------------------------------------
def hw_check(s: SeatConfig, *, finder: PortFinder | None = None, timing: LinkTiming = LinkTiming(),
             open_port=None) -> list[tuple[str, bool, str]]:
    """What ``hw check`` says about a serial seat: ``(part, ok, text)`` findings. Draws nothing on the pod."""
    if s.extra.get("port") == "sim":
        return [("pod", True, f"simulated pod {s.extra['pod']!r}: serve starts it on a pseudo-terminal "
                              "(no hardware to check)")]
    finder = finder or PortFinder()
    link = seat_link(s, lambda event: None, finder=finder, timing=timing, open_port=open_port)
    if not link.probe():
        others = "; ".join(f"pod {pod!r} on {path}" for path, pod in sorted(finder.seen().items())
                           if pod != s.extra["pod"])
        text = link.problem or "not found"
        if others:
            text += f" (found instead: {others})"
        return [("pod", False, text)]
    ident = link.identity
    out = [("pod", True, f"online: {ident.describe()} on {link.path}")]
    if ident.display_ok:
        out.append(("display", True, "the pod's display answers"))
    else:
        out.append(("display", False, "the pod's display does not answer: check its I2C wiring (SDA, SCL, 3V3, "
                                      "GND) and address (docs/serial-pods.md)"))
    out.append(buttons_finding(link.pressed, ident.firmware))
    out.append(("link", True, f"{link.stats.summary()} (while checking)"))
    return out


def buttons_finding(pressed: tuple[str, ...] | None, firmware: str) -> tuple[str, bool, str]:
    """What ``hw check`` says of a serial pod's buttons, from what the pod said are down."""
    if pressed is None:
        return ("buttons", True, f"firmware {shown(firmware)} does not say which buttons are down "
                                 "(1.3.0 and later do)")
    if pressed:
        return ("buttons", False, f"{', '.join(pressed)} reads pressed now (stuck, or held while checking?)")
    return ("buttons", True, "all released")


def find_pods(finder: PortFinder | None = None, *, timing: LinkTiming = LinkTiming(), open_port=None) -> list:
    """Every pod answering on a serial port: ``(path, Identity)``, for ``hw check`` to list unassigned pods."""
    finder = finder or PortFinder()
    found = []
    for path in finder.ports():
        link = SerialPodLink(0, None, lambda event: None, port=path, finder=finder, timing=timing, open_port=open_port,
                             search=False)
        if link.probe():
            found.append((path, link.identity))
    return found
