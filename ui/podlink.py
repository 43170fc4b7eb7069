"""The real seat pods inside the app (the Pi): subscribers of the one owner.

``tablekeeper run`` on the appliance owns the pods (the unit conflicts with
``tablekeeper serve``). The pods' button threads hand each event to the
:class:`~tablekeeper.ui.controller.Keeper` (:meth:`~.Keeper.press`, a plain callable: the rig's
sink), whose worker asks the seats what it means and applies that through the engine and the
journal, like a touch. Every snapshot the keeper publishes carries each seat's view,
computed once; here, on the same worker, each pod is given its own (a pod
sends only the pixels that changed out on I2C/SPI or the serial line). So
presses and touches are applied one at a time, in order, by the one thread
that owns the session, and neither a commit nor the displays' bus traffic
ever runs on the UI thread.

No Kivy here.
"""
from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: the hardware package loads only when pods are configured
    from tablekeeper.hardware.rig import Rig

log = logging.getLogger("tablekeeper.ui.podlink")

#: Brightness levels 1–10 → SSD1306 contrast.
CONTRAST = {level: round(0x10 + (0xFF - 0x10) * (level - 1) / 9) for level in range(1, 11)}


def views_for(snap, seats) -> dict:
    """What each pod of ``seats`` shows for a snapshot: its seat's view, or why it has none."""
    from tablekeeper.hardware.pod import PodView

    table = snap.table
    views = table.pods if table is not None else {}
    free = "no game" if table is None else "no player at this seat"
    return {seat: views.get(seat) or PodView(seat=seat, player="", status=free) for seat in seats}


def unmatched(seats, views) -> list[str]:
    """What the configured pods (``seats``) and a game's seats (``views``: seat → view) miss, said
    for the log: a pod without a player, a player without a pod."""
    out = [f"seat {seat} has a pod but no player" for seat in sorted(seats) if seat not in views]
    out += [f"{view.player} (seat {seat}) has no pod" for seat, view in sorted(views.items()) if seat not in seats]
    return out


class PodLink:
    """The configured pods, shown from the keeper's snapshots on its worker thread.

    ``config``: a :class:`tablekeeper.hardware.config.PodsConfig`.
    ``report(text)``: where pod failures and recoveries are told (the log).
    """

    def __init__(self, keeper, config, *, brightness: int = 8, report=None):
        self.keeper = keeper
        self.config = config
        self.report = report or (lambda text: log.warning("pods: %s", text))
        self.rig: Rig | None = None
        self.problem: str | None = None
        self._brightness = brightness
        self._game: tuple | None = None  # the game (id, players) last shown
        keeper.listeners.append(self._on_snapshot)
        keeper.pressed.append(self._wake)
        keeper.call(lambda k: self._start())

    # -- on the worker ---------------------------------------------------------------
    def _start(self) -> None:
        from tablekeeper.hardware.rig import Rig

        try:
            # Each button event goes straight to the owner (its one queue: the one thread hand-off);
            # a serial link reads the owner's real backlog to notice a stuck owner.
            self.rig = Rig(self.config, self.keeper.press, backlog=self.keeper.backlog, report=self.report)
            self.rig.build()
            self.rig.start()
        except Exception as e:  # a broken rig must not take the touchscreen down
            self.problem = f"{type(e).__name__}: {e}"
            self.report(f"the pods could not start: {self.problem}")
            self.rig = None
            return
        self._apply_brightness()
        self.show(self.keeper.snapshot)

    def show(self, snap) -> None:
        """Give every pod its seat's view from ``snap`` (unchanged views cost nothing). Worker thread."""
        if self.rig is None:
            return
        table = snap.table
        game = (table.game_id, tuple(table.players)) if table is not None else None
        if game != self._game and table is not None:  # a new game: say once what pods and players miss
            for text in unmatched(self.rig.pods, table.pods):
                self.report(text)
        self._game = game
        self.rig.show(views_for(snap, self.rig.pods))

    def _wake(self, event) -> None:
        """A button of a seat was pressed (on the worker, once it is answered): its display wakes. Its
        release need not: the press woke it, and a hold's repeats keep it awake."""
        if event.kind == "release":  # hardware.pod.RELEASE (that package loads only where there are pods)
            return
        pod = self.rig.pods.get(event.seat) if self.rig is not None else None
        if pod is not None:
            pod.wake()

    def tick(self) -> None:
        """OLED care and retries: dimming, pixel shift (call about once a second)."""
        def job(k):
            for pod in (self.rig.pods.values() if self.rig is not None else ()):
                pod.tick()
        self.keeper.call(job, quiet=True)

    def _on_snapshot(self, snap) -> None:
        # On the worker (a listener): the game changed, so the pods show it now.
        try:
            self.show(snap)
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
        """Per configured seat: (number, player, "connected" | "missing" | "error" | "mock" | "stuck", detail).

        "stuck": a button of the pod is held so long it is ignored until it is released (the detail, a
        message, says which; the pod's own screen says it too).
        """
        table = self.keeper.snapshot.table
        players = table.players if table is not None else []
        views = table.pods if table is not None else {}
        out = []
        for seat in self.config.seats:
            who = players[seat.number - 1] if 0 < seat.number <= len(players) else ""
            pod = self.rig.pods.get(seat.number) if self.rig else None
            view = views.get(seat.number)
            if pod is None:
                out.append((seat.number, who, "error" if self.problem else "missing", self.problem or ""))
            elif pod.backend != "mock" and not pod.online:
                out.append((seat.number, who, "error" if pod.problem else "missing", pod.problem or ""))
            elif view is not None and view.stuck:
                out.append((seat.number, who, "stuck", stuck_detail(view.stuck)))
            elif pod.backend == "mock":
                out.append((seat.number, who, "mock", pod.description))
            else:
                out.append((seat.number, who, "connected", pod.description))
        return out

    def close(self) -> None:
        """Blank the displays and release the pins (on the worker, after the queued jobs)."""
        def job(k):
            if self.rig is not None:
                self.rig.close()
                self.rig = None
        self.keeper.call(job)


def stuck_detail(buttons: tuple[str, ...]) -> str:
    """What the status says of a pod's stuck buttons: the pod's own words (a message, in the app's language
    where it is shown)."""
    from tablekeeper.ui.pod.stuck import screen_notice

    return screen_notice(buttons)


def configured():
    """The pods' config when a config file exists (the Pi), else None. Errors name the key."""
    from tablekeeper.hardware import config

    path = config.find(None)
    return config.load(path) if path is not None else None
