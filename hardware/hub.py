"""The seats: each pod's input map, its transient messages and its view, for one game.

:class:`Seats` is the part of the owner that knows the pods, run on the
owner's one thread (the journal worker of :class:`tablekeeper.ui.controller.Keeper`,
which also serves ``tablekeeper serve``; or a test's own thread). It is the
only place where a pod's input becomes an engine action (DESIGN.md, data
flow):

1. an :class:`~.pod.InputEvent` arrives (:meth:`Seats.handle`); a hold or repeat of a
   stuck button (:mod:`~.stuck`: held far longer than any gesture) goes no further, and the
   pod says so until the button is released;
2. the seat's :class:`~.inputs.SeatControls` turns it into an action (or a
   pod-local change: focus, a menu, an entry);
3. ``apply`` validates and journals it (the owner's own apply: the session's,
   wrapped by the keeper for its history); a refusal's message is shown on
   that pod for a few seconds, the state unchanged; an applied action that
   changed another player is shown on that player's pod ("from Ana: gold +2");
4. :meth:`Seats.views` gives every seat's :class:`~.pod.PodView`, each
   computed once per situation; the owner publishes them in its snapshot and
   every subscriber (GPIO and serial pods, the app's virtual pods, ``serve``'s
   text) shows the same one.

:class:`PodHub` adds the pods and an event queue around the seats, for a
loop on one thread without a keeper (tests, the benchmarks): ``step`` takes
the events, applies them, shows the views.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from ..engine import RuleError, TablekeeperError
from ..engine.messages import _, translated
from .grammar import affected
from .inputs import SeatControls
from .pod import InputEvent, PodView
from .stuck import FREED, PASS, STUCK, STUCK_AFTER, StuckButtons, app_notice, log_line, screen_notice

MESSAGE_SECONDS = 3.0
#: How long a pod shows a changed value inverted.
FLASH_SECONDS = 0.6

class Seats:
    """Every seat of one game: input maps, transient messages, views (one thread only).

    ``apply(action)``: journals an action (default: the session's own);
    ``numbering(players) -> {player: seat}``: which pod each player uses
    (default: the seat order). ``report(text)``: pod trouble for the log
    (English); ``notice(message)``: the same for the people at the table (a
    :class:`~tablekeeper.engine.messages.Msg`, translated where it is shown:
    the app's touchscreen) — a button that became stuck, and its release.
    ``stuck_after``: seconds a button may be held before it counts as stuck.
    """

    def __init__(self, session, *, clock: Callable[[], float] = time.monotonic,
                 report: Callable[[str], None] | None = None, message_seconds: float = MESSAGE_SECONDS,
                 catalog=None, apply: Callable[[dict], object] | None = None,
                 numbering: Callable[[list[str]], Mapping[str, int]] | None = None,
                 notice: Callable[[str], None] | None = None, stuck_after: float = STUCK_AFTER):
        self.session = session
        self.catalog = catalog  # the table's language for every pod (None: English)
        self.clock = clock
        self.report = report or (lambda text: None)
        self.notice = notice or (lambda text: None)
        # The buttons' own state, not the game's: kept when another game starts with the same seats.
        self.stuck = StuckButtons(stuck_after)
        self.message_seconds = message_seconds
        self._apply = apply
        self.numbering = numbering or (lambda players: {name: i + 1 for i, name in enumerate(players)})
        self.controls: dict[int, SeatControls] = {}
        self.messages: dict[int, tuple[str, float]] = {}  # seat -> (text, until)
        self.flashes: dict[int, tuple[tuple[str, ...], float]] = {}  # seat -> (changed counters, until)
        self._values: dict[int, tuple[str, dict]] = {}  # seat -> (player, counters last shown)
        self._computed: dict[int, tuple[tuple, PodView]] = {}  # seat → (situation, its view)
        self.applied = 0
        self.refused = 0
        self.held_back = 0  # holds and repeats of stuck buttons, kept from the engine
        self._bind()

    def _bind(self) -> None:
        players = [p["name"] for p in self.session.state["players"]]
        numbers = self.numbering(players)
        self.controls = {}
        for i, name in enumerate(players):
            seat = numbers.get(name, i + 1)
            if seat in self.controls:  # two players on one pod: the later one takes its own place
                seat = next(n for n in range(1, len(players) + len(numbers) + 2) if n not in self.controls)
            self.controls[seat] = SeatControls(seat, name)
        self._computed.clear()

    def use(self, session) -> None:
        """Play another session (a new game) with the same seats."""
        self.session = session
        self.messages.clear()
        self.flashes.clear()
        self._values.clear()
        self._bind()

    def apply(self, action: dict):
        return self._apply(action) if self._apply is not None else self.session.apply(action)

    # -- one event -----------------------------------------------------------------
    def handle(self, event: InputEvent, now: float | None = None):
        """Apply one input; returns the engine Outcome, or None when no action was applied."""
        now = self.clock() if now is None else now
        if not self._admit(event):
            return None
        ctl = self.controls.get(event.seat)
        if ctl is None:
            return None
        s = self.session
        before = s.state
        intent = ctl.handle(event, s.rules, s.state)
        outcome = None
        if intent.action is not None:
            try:
                outcome = self.apply(intent.action)
                self.applied += 1
                self.messages.pop(event.seat, None)
                self._tell_others(ctl.player, before, now)
            except RuleError as e:
                self.refused += 1
                self._message(event.seat, e.args[0] if len(e.args) == 1 else str(e), now)
            except TablekeeperError as e:  # the journal could not write: nothing was done
                self.report(f"seat {event.seat}: not saved: {e}")
                self._message(event.seat, _("not saved: {why}", why=e.args[0] if len(e.args) == 1 else str(e)), now)
        if intent.message:
            self._message(event.seat, intent.message, now)
        return outcome

    def _admit(self, event: InputEvent) -> bool:
        """Whether ``event`` goes on to the seat's input map: not a hold or repeat of a stuck button.
        A button that becomes stuck, and its release, are reported and told."""
        verdict = self.stuck.take(event)
        if verdict == PASS:
            return True
        if verdict in (STUCK, FREED):
            ctl = self.controls.get(event.seat)
            stuck = verdict == STUCK
            self.report(log_line(event.seat, (event.button,), self.stuck.after, stuck=stuck))
            if ctl is not None:  # a pod without a player troubles nobody at the table
                self.notice(app_notice(event.seat, ctl.player, (event.button,), stuck=stuck))
        if verdict == FREED:
            return True  # the release (or a new press) itself goes on: it ends the gesture
        self.held_back += 1
        return False

    def holds_back(self, event: InputEvent) -> bool:
        """``event`` is a hold or repeat of a button already stuck: handling it changes nothing at all
        (nothing to publish, no pod to wake). Changes nothing itself."""
        return self.stuck.holds_back(event)

    def _tell_others(self, actor: str, before: dict, now: float) -> None:
        """Each other player an action changed sees what happened to them on their own pod."""
        after = self.session.state
        if after is before:
            return
        seats = {ctl.player: seat for seat, ctl in self.controls.items()}
        for who, text in affected(self.session.rules, before, after, actor).items():
            if who in seats:
                self._message(seats[who], text, now)

    def _message(self, seat: int, text: str, now: float, seconds: float | None = None) -> None:
        self.messages[seat] = (text, now + (self.message_seconds if seconds is None else seconds))

    def notify_all(self, text: str, seconds: float = 10.0, now: float | None = None) -> None:
        """Show ``text`` on every seat's pod for ``seconds`` (a repaired journal, say)."""
        now = self.clock() if now is None else now
        for seat in self.controls:
            self._message(seat, text, now, seconds)

    # -- what the pods show ----------------------------------------------------------
    def view(self, seat: int, now: float | None = None) -> PodView:
        now = self.clock() if now is None else now
        ctl = self.controls.get(seat)
        if ctl is None:
            return PodView(seat=seat, player="", status="no player at this seat")
        message = ""
        if seat in self.messages:
            text, until = self.messages[seat]
            if now < until:
                message = text
            else:
                del self.messages[seat]
        # Each seat's view is computed once per situation: the game's version (every commit), the
        # seat's own state (focus, menu, entry), its message, the language; anything else (a
        # loop tick, another seat's press) reuses it, and the pod then sends nothing.
        local = ctl.key() if hasattr(ctl, "key") else (ctl.focus, ctl.pick)
        flash = self.flashes.get(seat)
        if flash is not None and now >= flash[1]:
            del self.flashes[seat]
            flash = None
        stuck = self.stuck.buttons(seat)
        key = (id(self.session), self.session.version, local, str(message), id(self.catalog), stuck,
               flash[0] if flash else ())
        cached = self._computed.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        view = ctl.view(self.session.rules, self.session.state, message, self.catalog)
        # A value of the player's that changed since this pod last showed it lights up for a moment
        values = dict(view.counters)
        last = self._values.get(seat)
        self._values[seat] = (ctl.player, values)
        if last is not None and last[0] == ctl.player and view.screen == "home":
            changed = tuple(k for k, v in values.items() if k in last[1] and last[1][k] != v)
            if changed:
                flash = (changed, now + FLASH_SECONDS)
                self.flashes[seat] = flash
                key = key[:-1] + (changed,)
        if flash:
            view = replace(view, changed=flash[0])
        if stuck:  # said until the buttons are released (a message, while there is one, covers it)
            view = replace(view, stuck=stuck, notice=str(translated(screen_notice(stuck), self.catalog)))
        self._computed[seat] = (key, view)
        return view

    def views(self, now: float | None = None) -> dict[int, PodView]:
        """Every seat's view now, by seat number."""
        now = self.clock() if now is None else now
        return {seat: self.view(seat, now) for seat in sorted(self.controls)}

    def next_due(self, now: float) -> float | None:
        """When the next message or flash expires (a view then changes), or None."""
        times = [until for _, until in self.messages.values()] + [until for _, until in self.flashes.values()]
        return min(times) if times else None


class PodHub(Seats):
    """:class:`Seats` with their pods and one event queue, on one thread without a keeper.

    Pods are anything with ``show(view, now)``, ``wake(now)``, ``tick(now)``,
    ``next_due(now)`` and ``close()`` (:class:`~.rig.Pod`); ``pods`` maps seat
    number → pod.
    """

    def __init__(self, session, pods: dict, events: queue.Queue, **kw):
        self.pods = pods
        self.events = events
        self.views_shown: dict[int, PodView] = {}
        super().__init__(session, **kw)

    def _bind(self) -> None:
        super()._bind()
        for seat in self.pods:
            if seat not in self.controls:
                self.report(f"seat {seat} has a pod but no player")
        for seat, ctl in self.controls.items():
            if seat not in self.pods:
                self.report(f"{ctl.player} (seat {seat}) has no pod")

    def use(self, session) -> None:
        super().use(session)
        self.refresh()

    def handle(self, event: InputEvent, now: float | None = None):
        now = self.clock() if now is None else now
        pod = self.pods.get(event.seat)
        if pod is not None and not self.holds_back(event):  # a stuck button must not keep it from dimming
            pod.wake(now)
        return super().handle(event, now)

    def catch_up(self) -> bool:
        """Take in actions another process journalled (a command-line ``act``); True if any."""
        journal = getattr(self.session, "journal", None)
        if journal is None or not journal.changed_elsewhere():
            return False
        try:
            changed = self.session.refresh()
        except TablekeeperError as e:
            self.report(f"cannot read what another process saved: {e}")
            return False
        if changed:
            self.report(f"game {self.session.game_id}: took in actions saved by another process")
        for w in journal.take_warnings():
            self.report(f"warning: {w}")
        return changed

    # -- out to the pods -------------------------------------------------------------
    def refresh(self, now: float | None = None) -> None:
        """Give every pod its current view (unchanged views cost nothing)."""
        now = self.clock() if now is None else now
        for seat, pod in self.pods.items():
            view = self.view(seat, now)
            self.views_shown[seat] = view
            pod.show(view, now)

    def tick(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        for pod in self.pods.values():
            pod.tick(now)

    def next_due(self, now: float) -> float | None:
        times = [t for t in [super().next_due(now)] + [p.next_due(now) for p in self.pods.values()]
                 if t is not None]
        return min(times) if times else None

    # -- the loop -------------------------------------------------------------------
    def step(self, timeout: float | None = None) -> int:
        """Wait up to ``timeout`` s for events, handle all that are waiting, refresh, tick. Returns how many."""
        handled = 0
        try:
            event = self.events.get(timeout=timeout) if timeout != 0 else self.events.get_nowait()
        except queue.Empty:
            event = None
        while event is not None:
            if isinstance(event, InputEvent):
                self.handle(event)
            handled += 1
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                event = None
        self.catch_up()
        now = self.clock()
        self.refresh(now)
        self.tick(now)
        return handled

    def run(self, stop: threading.Event, *, max_wait: float = 1.0) -> None:
        """Serve until ``stop`` is set."""
        self.refresh()
        while not stop.is_set():
            now = self.clock()
            due = self.next_due(now)
            wait = max_wait if due is None else min(max_wait, max(0.0, due - now))
            self.step(wait)
