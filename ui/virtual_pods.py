"""Virtual pods: each seat's pod shown on screen, its buttons clickable (mock mode on a PC).

The same pieces as the real pods: the owner (the keeper's worker) turns a
button event into an action with the seat's input map and publishes each
seat's view in its snapshot, and :func:`tablekeeper.hardware.render.render`
draws the very pixels an OLED would get.

No Kivy here: the widget is in :mod:`tablekeeper.ui.screens.pods`.
"""
from __future__ import annotations

import importlib
import time


class PodsUnavailable(RuntimeError):
    """The pod modules of the hardware package are not installed."""


def _hardware():
    try:
        views = importlib.import_module("tablekeeper.ui.pod.views")
        render = importlib.import_module("tablekeeper.hardware.render")
        inputs = importlib.import_module("tablekeeper.ui.pod.inputs")
        pod = importlib.import_module("tablekeeper.hardware.pod")
    except ModuleNotFoundError as e:
        raise PodsUnavailable(f"the pod renderer is not available ({e.name} is missing)") from None
    return views, render, inputs, pod


def available() -> str | None:
    """None when virtual pods can run, else the reason they cannot."""
    try:
        _hardware()
    except PodsUnavailable as e:
        return str(e)
    return None


class VirtualPods:
    """Every seat's virtual pod: the owner's views drawn, the buttons sent to the owner.

    Nothing is decided here: the keeper's snapshot carries each seat's view
    (computed once, on the worker, by the same input maps as the wired and
    serial pods), and a button event goes to :meth:`Keeper.press` like a
    real pod's. This only turns a view into the OLED's pixels, once per view.
    """

    def __init__(self, keeper):
        _views, self._render, _inputs, self._pod = _hardware()
        self.keeper = keeper
        self.buttons = self._pod.BUTTONS
        self._drawn: dict[int, tuple[object, object]] = {}  # seat → (view, its image)

    def seats(self, table) -> list[tuple[int, str]]:
        """``(pod number, player)`` in pod order."""
        return sorted((seat, view.player) for seat, view in table.pods.items())

    def image(self, table, seat: int):
        """The pod's 128x64 mode "1" image (the hardware renderer's), drawn once per view."""
        view = table.pods[seat]
        drawn = self._drawn.get(seat)
        if drawn is None or drawn[0] != view:
            drawn = (view, self._render.render(view))
            self._drawn[seat] = drawn
        return drawn[1]

    def event(self, seat: int, button: str, kind: str) -> None:
        """A button event of pod ``seat``: to the owner, which applies it like a real pod's (timed, so a
        touch whose release never comes is a stuck button like a real pod's)."""
        self.keeper.press(self._pod.InputEvent(seat, button, kind, time.monotonic()))
