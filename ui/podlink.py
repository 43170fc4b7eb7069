"""The real seat pods inside the app (the Pi): the hardware package's hub, run on the journal worker.

``tablekeeper run`` on the appliance owns the pods (the unit conflicts with
``tablekeeper serve``). The pods' button threads put events on a queue; here
that queue also wakes the :class:`~tablekeeper.ui.controller.Keeper`'s worker,
which runs the :class:`~tablekeeper.hardware.hub.PodHub` step: the seat's input
map, the engine, the journal commit, the changed pixels out on I2C/SPI. So
touches and button presses are applied one at a time, in order, by the one
thread that owns the session, and neither a commit nor the displays' bus
traffic ever runs on the UI thread.

No Kivy here.
"""
from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: the hardware package loads only when pods are configured
    from tablekeeper.hardware.hub import PodHub
    from tablekeeper.hardware.rig import Rig

log = logging.getLogger("tablekeeper.ui.podlink")

#: Brightness levels 1–10 → SSD1306 contrast.
CONTRAST = {level: round(0x10 + (0xFF - 0x10) * (level - 1) / 9) for level in range(1, 11)}


class _WakingQueue(queue.Queue):
    """The rig's event queue: every put also asks the worker to drain it (coalesced)."""

    def __init__(self, wake):
        super().__init__()
        self._wake = wake

    def put(self, item, block=True, timeout=None):
        super().put(item, block, timeout)
        self._wake()


class PodLink:
    """The configured pods, driven from the keeper's worker thread.

    ``config``: a :class:`tablekeeper.hardware.config.PodsConfig`.
    ``report(text)``: where pod failures and recoveries are told (the log).
    """

    def __init__(self, keeper, config, *, brightness: int = 8, report=None):
        self.keeper = keeper
        self.config = config
        self.report = report or (lambda text: log.warning("pods: %s", text))
        self.rig: Rig | None = None
        self.hub: PodHub | None = None
        self.problem: str | None = None
        self._brightness = brightness
        self._wake_pending = threading.Event()
        keeper.listeners.append(self._on_snapshot)
        keeper.call(lambda k: self._start())

    # -- on the worker ---------------------------------------------------------------
    def _start(self) -> None:
        from tablekeeper.hardware.rig import Rig

        try:
            self.rig = Rig(self.config, _WakingQueue(self._wake), report=self.report)
            self.rig.build()
            self.rig.start()
        except Exception as e:  # a broken rig must not take the touchscreen down
            self.problem = f"{type(e).__name__}: {e}"
            self.report(f"the pods could not start: {self.problem}")
            self.rig = None
            return
        self._apply_brightness()
        self._bind()

    def _bind(self) -> None:
        """Follow the keeper's open game (a new game, another stored game, none)."""
        from tablekeeper.hardware.hub import PodHub

        if self.rig is None:
            return
        session = self.keeper.session
        if session is None:
            return
        if self.hub is None:
            from . import i18n

            self.hub = PodHub(session, self.rig.pods, self.rig.events, report=self.report, catalog=i18n.catalog())
        elif self.hub.session is not session:
            self.hub.use(session)
        self.hub.refresh()

    def _wake(self) -> None:
        # Called on a button thread: one drain job at a time on the worker.
        if not self._wake_pending.is_set():
            self._wake_pending.set()
            self.keeper.call(lambda k: self._drain())

    def _drain(self) -> None:
        self._wake_pending.clear()
        if self.hub is None:
            # no game: presses have nothing to act on (no rig, as when it failed to start: no presses)
            while self.rig is not None and not self.rig.events.empty():
                self.rig.events.get_nowait()
            return
        applied = self.hub.applied
        self.hub.step(0)  # every waiting event: input map → engine → journal; then the pods
        if self.hub.applied != applied:
            self.keeper.resync()

    def tick(self) -> None:
        """OLED care and retries: dimming, pixel shift, expired messages (call about once a second)."""
        def job(k):
            if self.hub is not None:
                self.hub.refresh()
                self.hub.tick()
            elif self.rig is not None:
                for pod in self.rig.pods.values():
                    pod.tick()
        self.keeper.call(job)

    def _on_snapshot(self, snap) -> None:
        # On the worker (a listener): the game changed, so the pods show it now.
        try:
            self._bind()
        except Exception as e:
            self.report(f"pods: {e}")

    def _apply_brightness(self) -> None:
        level = CONTRAST.get(self._brightness, CONTRAST[8])
        for pod in (self.rig.pods.values() if self.rig else ()):
            face = pod.face
            face.care = dataclasses.replace(face.care, contrast=level)
            if face.online and not getattr(face, "dimmed", False):
                link = face.link
                assert link is not None  # online: the display is open
                try:
                    link.contrast(level)
                except OSError as e:
                    self.report(f"seat {pod.seat}: contrast: {e}")

    # -- any thread ---------------------------------------------------------------------
    def brightness(self, level: int) -> None:
        self._brightness = level
        self.keeper.call(lambda k: self._apply_brightness())

    def status(self) -> list[tuple[int, str, str, str]]:
        """Per configured seat: (number, player, "connected" | "missing" | "error" | "mock", detail)."""
        table = self.keeper.snapshot.table
        players = table.players if table is not None else []
        out = []
        for seat in self.config.seats:
            who = players[seat.number - 1] if 0 < seat.number <= len(players) else ""
            pod = self.rig.pods.get(seat.number) if self.rig else None
            if pod is None:
                out.append((seat.number, who, "error" if self.problem else "missing", self.problem or ""))
            elif pod.backend == "mock":
                out.append((seat.number, who, "mock", pod.description))
            elif pod.online:
                out.append((seat.number, who, "connected", pod.description))
            else:
                out.append((seat.number, who, "error" if pod.problem else "missing", pod.problem or ""))
        return out

    def close(self) -> None:
        """Blank the displays and release the pins (on the worker, after the queued jobs)."""
        def job(k):
            if self.rig is not None:
                self.rig.close()
                self.rig = None
        self.keeper.call(job)


def configured():
    """The pods' config when a config file exists (the Pi), else None. Errors name the key."""
    from tablekeeper.hardware import config

    path = config.find(None)
    return config.load(path) if path is not None else None
