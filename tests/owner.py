"""The product's owner, driven on a test's own thread, with its pods shown as the app shows them.

:class:`Owner` wraps :class:`tablekeeper.ui.controller.Keeper` started with ``thread=False``
around an open session: the same press path as the appliance (the seats answer, the keeper
applies, one snapshot), without a worker thread to wait for. ``pods`` (seat → anything with
``show(view)``, ``wake()`` and ``tick()``: a rig's pods) are given each published view, as
``ui/podlink.py`` gives them on the appliance.
"""
from __future__ import annotations

import time

from tablekeeper.hardware.pod import PodView  # noqa: F401  (the type pods show)
from tablekeeper.ui.controller import Keeper
from tablekeeper.ui.podlink import unmatched, views_for


class Owner:
    def __init__(self, session, pods: dict | None = None, *, clock=time.monotonic, catalog=None, report=None):
        self.pods = pods if pods is not None else {}
        self.reports: list[str] = []
        report = report or self.reports.append
        self.keeper = Keeper(pods=True, clock=clock, catalog=catalog, report=report)
        self.keeper.listeners.append(self._show)
        self.keeper.pressed.append(self._wake)
        self.keeper.start(thread=False, session=session)
        for text in unmatched(self.pods, self.keeper.snapshot.table.pods):
            report(text)
        self.refresh()

    @property
    def seats(self):
        return self.keeper.seats

    @property
    def session(self):
        return self.keeper.session

    def press(self, event) -> None:
        """One button event, handled at once (as the worker would)."""
        self.keeper.press(event)
        self.keeper.pump()

    def step(self, events, timeout: float = 0.0, seen=None) -> int:
        """Wait up to ``timeout`` s for an event on ``events`` (the queue of a rig made without a
        sink), hand over every one waiting (each also to ``seen``, if given), handle them, show the
        views and tick the pods. Returns how many."""
        import queue

        n = 0
        try:
            event = events.get(timeout=timeout) if timeout else events.get_nowait()
        except queue.Empty:
            event = None
        while event is not None:
            if seen is not None:
                seen(event)
            self.keeper.press(event)
            n += 1
            try:
                event = events.get_nowait()
            except queue.Empty:
                event = None
        self.refresh()
        self.tick()
        return n

    def refresh(self) -> None:
        """Publish what changed by itself (a message that expired) and give every pod its view."""
        self.keeper.pump()
        self._show(self.keeper.snapshot)

    def tick(self) -> None:
        for pod in self.pods.values():
            pod.tick()

    def view(self, seat: int) -> PodView:
        return self.seats.view(seat)

    def _show(self, snap) -> None:
        for seat, view in views_for(snap, self.pods).items():
            self.pods[seat].show(view)

    def _wake(self, event) -> None:
        pod = self.pods.get(event.seat)
        if pod is not None:
            pod.wake()
