"""``tablekeeper hw check``: per seat, what was found and what is wrong.

The config is checked whole first (a wrong key stops here, before any
hardware is touched). Then, seat by seat:

* an I2C display: open ``/dev/i2c-N`` ("permission denied on /dev/i2c-1: add
  the user to the i2c group"), select the multiplexer channel ("no
  multiplexer at 0x70 on i2c-1"), address the display ("no display at 0x3C
  on i2c-1 channel 2");
* an SPI display: open ``/dev/spidevP.D`` (an SPI display cannot answer, so
  ``--show`` draws "seat N" on it to look at);
* buttons: claim the pins through gpiozero ("permission denied on
  /dev/gpiochip0: add the user to the gpio group", "GPIO13 is in use") and
  read them (a button that reads pressed now is stuck or miswired).
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import config as configuration
from .buttons import GpioButtons
from .config import I2cDisplay, SeatConfig, SpiDisplay
from .displays import NO_ANSWER, i2c_open_problem, spi_open_problem
from .errors import HardwareError, PodError
from .rig import DEV, Rig


@dataclass(frozen=True)
class Finding:
    seat: int
    part: str  # "display", "buttons", "pod"
    ok: bool
    text: str

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.part}: {'ok: ' if self.ok else 'PROBLEM: '}{self.text}"


def check_i2c(d: I2cDisplay, open_bus) -> tuple[bool, str]:
    where = f"i2c-{d.port}" + (f" channel {d.channel}" if d.mux is not None else "")
    try:
        bus = open_bus(d.port)
    except OSError as e:
        return False, str(i2c_open_problem(e, d.port))
    try:
        if d.mux is not None:
            try:
                assert d.channel is not None  # a multiplexer comes with a channel (config checks)
                bus.write_byte(d.mux, 1 << d.channel)
            except OSError as e:
                if e.errno in NO_ANSWER:
                    return False, f"no multiplexer at 0x{d.mux:02X} on i2c-{d.port}"
                return False, f"i2c-{d.port}: selecting channel {d.channel}: {e.strerror or e}"
        try:
            bus.write_quick(d.address)
        except OSError as e:
            if e.errno in NO_ANSWER:
                return False, f"no display at 0x{d.address:02X} on {where}"
            return False, f"display at 0x{d.address:02X} on {where}: {e.strerror or e}"
        return True, f"found {d.describe()}"
    finally:
        try:
            bus.close()
        except Exception:
            pass


def check_spi(d: SpiDisplay, dev: Path) -> tuple[bool, str]:
    path = dev / f"spidev{d.port}.{d.device}"
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as e:
        problem = spi_open_problem(e, d.port, d.device)
        return False, str(problem).replace(f"/dev/spidev{d.port}.{d.device}", str(path))
    os.close(fd)
    return True, f"{path} opens; an SPI display cannot answer: use --show and look at it ({d.describe()})"


def check_seat(s: SeatConfig, rig: Rig, *, open_bus=None, dev: Path | None = None) -> list[Finding]:
    dev = DEV if dev is None else dev
    backend = rig.backend_of(s)
    if backend == "mock":
        return [Finding(s.number, "pod", True, "mock pod: no hardware to check")]
    if backend != "gpio":
        module = configuration.extra_backend(backend)
        if module is not None and hasattr(module, "hw_check"):
            return [Finding(s.number, part, ok, text) for part, ok, text in module.hw_check(s)]
        return [Finding(s.number, "pod", False, f"the {backend!r} backend has no check in this version")]
    out = []
    d = s.display
    if isinstance(d, I2cDisplay):
        if open_bus is None:
            from smbus2 import SMBus as open_bus
        ok, text = check_i2c(d, open_bus)
    elif isinstance(d, SpiDisplay):
        ok, text = check_spi(d, dev)
    else:
        ok, text = False, "no display configured"
    out.append(Finding(s.number, "display", ok, text))
    pins = ", ".join(f"{k}=GPIO{p}" for k, p in s.buttons)
    try:
        buttons = GpioButtons(s.number, s.pins, rig.scanner, rig.pin_factory(), rig.config.timing)
    except HardwareError as e:
        text = str(e).removeprefix(f"seat {s.number}: buttons: ")
        out.append(Finding(s.number, "buttons", False, f"{pins}: {text}"))
    else:
        try:
            stuck = buttons.pressed_now()
        finally:
            buttons.close()
        if stuck:
            out.append(Finding(s.number, "buttons", False, f"{pins}: {', '.join(stuck)} reads pressed now "
                               "(stuck, or wired to ground without a button?)"))
        else:
            out.append(Finding(s.number, "buttons", True, f"{pins}: all released"))
    return out


def run_checks(cfg: configuration.PodsConfig, *, open_bus=None, dev: Path | None = None,
               real_factory=None, rig: Rig | None = None) -> list[Finding]:
    own = rig is None
    rig = rig or Rig(cfg, real_factory=real_factory, dev=dev)
    try:
        findings = []
        for s in cfg.seats:
            try:
                findings += check_seat(s, rig, open_bus=open_bus, dev=dev)
            except PodError as e:
                findings.append(Finding(s.number, "pod", False, str(e)))
        return findings
    finally:
        if own:
            rig.close()


def show_seats(cfg: configuration.PodsConfig, seats: list[int], seconds: float) -> None:
    """Draw 'seat N' on the displays of ``seats`` for ``seconds``, then blank them."""
    from .pod import PodView

    rig = Rig(cfg, report=lambda text: print(f"hw check: {text}", file=sys.stderr))
    try:
        rig.build(seats)
        for seat, pod in rig.pods.items():
            pod.show(PodView(seat=seat, player=f"seat {seat}", counters=(("seat", seat),),
                             status="hw check", action="ok"))
        time.sleep(seconds)
    finally:
        rig.close()


def main(args) -> int:
    path = configuration.find(args.config)
    if path is None:
        print("hw check: no config file (looked for $TABLEKEEPER_CONFIG, "
              f"~/.config/tablekeeper/{configuration.FILENAME}, {configuration.SYSTEM_PATH}): "
              "`tablekeeper serve` would use mock pods. docs/hardware.md shows the format.")
        return 1
    cfg = configuration.load(path)  # a ConfigError stops here, before any hardware is touched
    print(f"config: {path} ({len(cfg.seats)} seats)")
    findings = run_checks(cfg)
    for f in findings:
        print(f)
    problems = [f for f in findings if not f.ok]
    if args.show and args.show > 0:
        seats = sorted({f.seat for f in findings if f.part == "display" and f.ok})
        if seats:
            print(f"showing 'seat N' on seats {', '.join(map(str, seats))} for {args.show:g} s")
            show_seats(cfg, seats, args.show)
    print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''}" if problems else "everything answers")
    return 1 if problems else 0
