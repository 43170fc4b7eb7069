"""Virtual pods: each seat's pod shown on screen, its buttons clickable (mock mode on a PC).

The same pieces as the real pods: :func:`tablekeeper.hardware.views.pod_view`
and the seat's input map (:class:`tablekeeper.hardware.inputs.SeatControls`)
decide what a pod shows and what a button does, and
:func:`tablekeeper.hardware.render.render` draws the very pixels an OLED
would get. A button event becomes an engine action here, on the UI thread,
from the latest committed state; the action itself goes to the journal
worker like a touch.

No Kivy here: the widget is in :mod:`tablekeeper.ui.screens.pods`.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for the checker: at run time the hardware modules may be missing (see _hardware)
    from ..hardware.inputs import SeatControls


class PodsUnavailable(RuntimeError):
    """The pod modules of the hardware package are not installed."""


def _hardware():
    try:
        views = importlib.import_module("tablekeeper.hardware.views")
        render = importlib.import_module("tablekeeper.hardware.render")
        inputs = importlib.import_module("tablekeeper.hardware.inputs")
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
    """Every seat's virtual pod for the open game.

    ``seats(game_id, players) -> {player: pod number}`` says which pod each
    player uses (the settings' seat assignment).
    """

    def __init__(self, seats=None):
        self._views, self._render, self._inputs, self._pod = _hardware()
        self.buttons = self._pod.BUTTONS
        self._seats_of = seats or (lambda game_id, players: {p: i + 1 for i, p in enumerate(players)})
        self._controls: dict[str, SeatControls] = {}
        self._game = None
        self.messages: dict[str, str] = {}

    def _sync(self, table):
        key = (table.game_id, tuple(table.players))
        if key != self._game:
            self._game = key
            seats = self._seats_of(table.game_id, table.players)
            self._controls = {name: self._inputs.SeatControls(seats.get(name, i + 1), name)
                              for i, name in enumerate(table.players)}
            self.messages = {}

    def seats(self, table) -> list[tuple[int, str]]:
        """``(pod number, player)`` in pod order."""
        self._sync(table)
        return sorted((c.seat, name) for name, c in self._controls.items())

    def view(self, table, player: str):
        self._sync(table)
        return self._controls[player].view(table.rules, table.state, self.messages.get(player, ""))

    def image(self, table, player: str):
        """The pod's 128x64 mode "1" image (the hardware renderer's)."""
        return self._render.render(self.view(table, player))

    def event(self, table, player: str, button: str, kind: str) -> dict | None:
        """A button event of ``player``'s pod: returns the engine action to submit, if any."""
        self._sync(table)
        controls = self._controls[player]
        intent = controls.handle(self._pod.InputEvent(controls.seat, button, kind), table.rules, table.state)
        self.messages[player] = intent.message
        return intent.action

    def refused(self, player: str, message: str) -> None:
        """Show why the engine refused this pod's last action (as a real pod does)."""
        self.messages[player] = message
