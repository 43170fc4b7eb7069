"""The seats: each pod's input map, its transient messages and its view, for one game.

:class:`Seats` is the part of the owner that knows the pods, run on the owner's one thread
(the worker of :class:`tablekeeper.ui.controller.Keeper`, in the app and in ``serve``; tests
and benchmarks drive the same keeper on their own thread). The seats answer, the owner applies
(DESIGN.md, data flow):

1. an :class:`~tablekeeper.hardware.pod.InputEvent` arrives (:meth:`Seats.answer`); a hold or
   repeat of a stuck button (:mod:`.stuck`: held far longer than any
   gesture) goes no further, and the pod says so until the button is released;
2. the seat's :class:`~.inputs.SeatControls` turns it into an :class:`~.inputs.Intent`: an
   engine action, or a pod-local change (focus, a menu, an entry) already made;
3. the owner applies the action once (the engine, the journal) and tells the seats how it went:
   :meth:`Seats.took` (another player it changed sees it on their pod: "from Ana: gold +2"),
   :meth:`Seats.refuse` (the reason on that pod for a few seconds, the state unchanged) or
   :meth:`Seats.short_of_end` (it would end the game: nothing written, the pod asks to confirm);
4. :meth:`Seats.views` gives every seat's :class:`~tablekeeper.hardware.pod.PodView`, each
   computed once per situation; the owner publishes them in its snapshot and every subscriber
   (GPIO and serial pods, the app's virtual pods, ``serve``'s text) shows the same one.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from ...engine import RuleError, TablekeeperError, canonical
from ...engine.messages import _, listing, translated, word
from ...hardware.pod import InputEvent, PodView
from .grammar import affected, changes, choice_word, every_seat
from .inputs import ENDS, HELD, REFUSED, TOOK, Intent, SeatControls
from .stuck import FREED, HELD_BACK, PASS, STUCK, STUCK_AFTER, StuckButtons, app_notice, log_line, screen_notice

MESSAGE_SECONDS = 3.0
#: How much longer a card clicked once stays under the finger, its ✓ shown, for a second click (a play-tester's
#: second extra drink came 4 s after the first, past the ✓'s 3 s).
KEPT_SECONDS = 5.0


class Done(NamedTuple):
    """What a pod's own press did, shown on it for a moment where its status goes: "✓ wine"; the same
    action again meanwhile (a card held on) counts, "✓ Dee: alcohol +1 ×2"."""

    text: str
    until: float
    action: str  # canonical
    times: int = 1
    kept: bool = False  # the card stays under the finger a while longer (:data:`KEPT_SECONDS`)

    def status(self) -> str:
        return f"✓ {self.text}" + (f" ×{self.times}" if self.times > 1 else "")
#: How long a message's page stays per word beyond that (a page of five lines: about seven seconds).
WORD_SECONDS = 0.4
#: How long a pod shows a changed value inverted.
FLASH_SECONDS = 0.6

def others_undo(who: str) -> RuleError:
    """Why a pod may not undo ``who``'s last action (the owner checks: :meth:`Keeper._undo_own`)."""
    return RuleError(_("the last action is {who}'s: undo it on {who}'s pod or the touchscreen", who=who))


class Seats:
    """Every seat of one game: input maps, transient messages, views (one thread only).

    ``numbering(players) -> {player: seat}``: which pod each player uses
    (default: the seat order). ``report(text)``: pod trouble for the log
    (English); ``notice(message)``: the same for the people at the table (a
    :class:`~tablekeeper.engine.messages.Msg`, translated where it is shown:
    the app's touchscreen) — a button that became stuck, and its release.
    ``stuck_after``: seconds a button may be held before it counts as stuck.
    ``pages(text) -> [text, ...]``: a message as the pods' screen shows it, a page after another
    (:func:`tablekeeper.hardware.render.message_pages`; default: one page); each page stays long enough
    to read it (:data:`MESSAGE_SECONDS`, more for many words).
    """

    def __init__(self, rules, state: dict, version: int = 0, *, clock: Callable[[], float] = time.monotonic,
                 report: Callable[[str], None] | None = None, message_seconds: float = MESSAGE_SECONDS,
                 catalog=None,
                 numbering: Callable[[list[str]], Mapping[str, int]] | None = None,
                 notice: Callable[[str], None] | None = None, stuck_after: float = STUCK_AFTER,
                 pages: Callable[[str], list[str]] | None = None):
        # The game as the owner last handed it (a press's state, an action's result, a published image): the seats
        # never ask the engine's session for it.
        self.rules, self.state, self.version = rules, state, version
        self.catalog = catalog  # the table's language for every pod (None: English)
        self.clock = clock
        self.report = report or (lambda text: None)
        self.notice = notice or (lambda text: None)
        # The buttons' own state, not the game's: kept when another game starts with the same seats.
        self.stuck = StuckButtons(stuck_after)
        self.message_seconds = message_seconds
        self.pages = pages or (lambda text: [text])
        self.numbering = numbering or (lambda players: {name: i + 1 for i, name in enumerate(players)})
        self.controls: dict[int, SeatControls] = {}
        self.messages: dict[int, tuple[tuple[tuple[str, float], ...], float]] = {}  # seat -> ((page, until)...), until
        # seat -> (who did it, the action, the state before its first time): the same action done again while its
        # message still shows (a held card: 2 fortitude, one press each) is told as one, "fortitude −2"
        self._runs: dict[int, tuple[str, str, dict]] = {}
        self.flashes: dict[int, tuple[tuple[str, ...], float]] = {}  # seat -> (changed counters, until)
        # seat -> what its own press did, for the player who pressed (the others' pods say what it did to them;
        # play-testers saw only their figures change)
        self.dones: dict[int, Done] = {}
        self._values: dict[int, tuple[str, dict]] = {}  # seat -> (player, counters last shown)
        self._computed: dict[int, tuple[tuple, PodView]] = {}  # seat → (situation, its view)
        self.applied = 0
        self.refused = 0
        self.held_back = 0  # holds and repeats of stuck buttons, kept from the engine
        #: When the views last given change by themselves (a message or a flash ends; :meth:`next_due` then),
        #: or None: the owner may sleep until then.
        self.due: float | None = None
        self._bind()

    def _bind(self) -> None:
        players = [p["name"] for p in self.state["players"]]
        numbers = self.numbering(players)
        self.controls = {}
        for i, name in enumerate(players):
            seat = numbers.get(name, i + 1)
            if seat in self.controls:  # two players on one pod: the later one takes its own place
                seat = next(n for n in range(1, len(players) + len(numbers) + 2) if n not in self.controls)
            self.controls[seat] = SeatControls(seat, name)
        self._computed.clear()

    def use(self, rules, state: dict, version: int = 0) -> None:
        """Play another game (its rules, its state now) with the same seats."""
        self.rules, self.state, self.version = rules, state, version
        self.messages.clear()
        self._runs.clear()
        self.flashes.clear()
        self.dones.clear()
        self._values.clear()
        self._bind()

    # -- one event -----------------------------------------------------------------
    def answer(self, event: InputEvent, state: dict, now: float | None = None) -> Intent | None:
        """What ``event`` means on its seat in the game's ``state``: an intent (its action for the owner to
        apply, or a pod-local change already made; :data:`~.inputs.HELD` for a hold or repeat of a button
        already stuck: nothing changed at all), or None when it goes no further (the hold that makes a
        button stuck, a seat without a player). Applies nothing."""
        now = self.clock() if now is None else now
        self.state = state
        verdict = self._admit(event)
        if verdict == HELD_BACK:
            return HELD
        if verdict == STUCK:
            return None
        ctl = self.controls.get(event.seat)
        if ctl is None:
            return None
        shown = ctl.shown_key()
        intent = ctl.handle(event, self.rules, state)
        if verdict == FREED or (not intent.changed and ctl.shown_key() != shown):
            intent = replace(intent, changed=True)  # the pod shows something else: the owner publishes it
        return intent

    def player(self, seat: int) -> str | None:
        """Who plays on ``seat``'s pod (None: nobody)."""
        ctl = self.controls.get(seat)
        return ctl.player if ctl is not None else None

    def took(self, seat: int, before: dict, after: dict, now: float | None = None, action: dict | None = None,
             events: Sequence[str] = ()) -> None:
        """The owner applied ``seat``'s ``action`` (the state was ``before``, is ``after``; ``events``: what the
        rules said of it): its old message goes, and every other player it changed sees what happened to them
        on their own pod."""
        now = self.clock() if now is None else now
        self.state = after
        self.applied += 1
        self.messages.pop(seat, None)
        ctl = self.controls.get(seat)
        if ctl is not None:
            sent = ctl.sent
            rules, state = self.rules, after
            ctl.told(TOOK, rules, state)
            key = canonical(action) if action is not None else ""
            if sent is not None:
                last = self.dones.get(seat)
                times = last.times + 1 if last is not None and now < last.until and key and last.action == key else 1
                self.dones[seat] = Done(self._done_text(sent, action, before, ctl.player), now + self.message_seconds,
                                        key, times)
            self._tell_others(rules, ctl.player, before, state, now, action, key, events)
            if events and action is not None and rules.is_note(action):
                # a note changes no figure: what it said (a referee's verdict) is its whole answer, on the
                # pod that asked (a play-tester's menu check came back to the home screen without it)
                self._message(seat, events[-1], now)
            elif events and action is not None and rules.tells(action):
                # an outcome the entry did not say (a hide's roll against the cards left): a play-tester saw
                # only "MUST CHARGE" and could not show the table that 4 was not above 7
                self._message(seat, listing(events, " · "), now)
            elif events and action is not None and "player" not in action and action.get("action") not in ("undo", "redo"):
                # the table's own action (a morning, a welcome) told to the player who pressed it too, what it did
                # to them (a play-tester's first player saw "✓ morning" while her cash went 5 → 6; the others'
                # pods said theirs)
                own = affected(rules, before, state, None, action, events).get(ctl.player)
                if own is not None:
                    self._message(seat, own, now)
            news = rules.table_news(before, state, events) if action is not None else []
            if news:
                # what the table must do with its cards now, on every pod nothing else speaks on (Dragon Run's
                # treasure deck reshuffled: a tester's table shuffled later, and its count went one card apart)
                text = listing(news, " · ")
                for other in self.controls:
                    if other not in self.messages or self.messages[other][1] <= now:
                        self._message(other, text, now)

    def _done_text(self, sent, action: dict | None, before: dict | None = None, player: str = "") -> str:
        """The offer a pod did, after the choices and numbers its steps asked as entered, first where the
        header's corner cuts it ("chapel, wages waived · build 2: p×": a play-tester saw "✓ build 2: p×"
        and could not tell the chapel's power was kept; "value 2 · room + treasure: again"); a number the
        step showed in the game's words, in them ("neutral 2 · bribe 1: ↩", where a play-tester's step said
        "neutral 2" and its ✓ "room 6")."""
        text = str(translated(sent.label, self.catalog))
        chosen = []
        for name in sent.ask:
            value = action.get(name) if action is not None else None
            shown = (self.rules.pod_value_shown(before, player, str(action.get("action", "")), name, value)
                     if before is not None and action is not None and isinstance(value, int) else None)
            if shown is not None:
                chosen.append(shown)
            elif isinstance(value, str):
                chosen.append(choice_word(name, value))
            elif isinstance(value, int) and not isinstance(value, bool):
                # a number as entered (a play-tester could not tell which treasure value he had given)
                chosen.append(_("{field} {value}", field=word("field", name), value=value))
        if chosen:
            text = ", ".join(str(translated(w, self.catalog)) for w in chosen) + " · " + text
        return text

    def refuse(self, seat: int, error: TablekeeperError, now: float | None = None) -> None:
        """The owner did not apply ``seat``'s action: the rules refused it (a :class:`RuleError`: its
        reason) or the journal could not write it (said as "not saved"). The pod shows which."""
        now = self.clock() if now is None else now
        why = error.args[0] if len(error.args) == 1 else str(error)
        ctl = self.controls.get(seat)
        if ctl is not None:
            ctl.told(REFUSED, self.rules, self.state)
        if isinstance(error, RuleError):
            self.refused += 1
            self._message(seat, why, now)
        else:
            self.report(f"seat {seat}: not saved: {error}")
            self._message(seat, _("not saved: {why}", why=why), now)

    def short_of_end(self, seat: int, now: float | None = None) -> None:
        """The owner did not apply ``seat``'s action because it would end the game: the pod shows
        what it does and waits for its player to confirm it."""
        ctl = self.controls.get(seat)
        if ctl is not None:
            said = ctl.told(ENDS, self.rules, self.state)
            self._message(seat, said.message, self.clock() if now is None else now)

    def say(self, seat: int, text: str, now: float | None = None) -> None:
        """Show ``text`` on ``seat``'s pod for a few seconds (an intent's own message)."""
        self._message(seat, text, self.clock() if now is None else now)

    def _admit(self, event: InputEvent) -> str:
        """Whether ``event`` goes on to the seat's input map (:data:`PASS`, or :data:`FREED`: the release of a
        stuck button): not a hold or repeat of a stuck button. A button that becomes stuck, and its release,
        are reported and told."""
        verdict = self.stuck.take(event)
        if verdict == PASS:
            return verdict
        if verdict in (STUCK, FREED):
            ctl = self.controls.get(event.seat)
            stuck = verdict == STUCK
            self.report(log_line(event.seat, (event.button,), self.stuck.after, stuck=stuck))
            if ctl is not None:  # a pod without a player troubles nobody at the table
                self.notice(app_notice(event.seat, ctl.player, (event.button,), stuck=stuck))
        if verdict == FREED:
            return verdict  # the release (or a new press) itself goes on: it ends the gesture
        self.held_back += 1
        return verdict

    def _tell_others(self, rules, actor: str, before: dict, after: dict, now: float, action: dict | None = None,
                     key: str = "", events: Sequence[str] = ()) -> None:
        """Each other player an action changed (from ``before`` to ``after``) sees what happened to them on
        their own pod."""
        if after is before:
            return
        seats = {ctl.player: seat for seat, ctl in self.controls.items()}
        undoing = action is not None and action.get("action") in ("undo", "redo")
        if undoing and actor:
            # what an undo took back, said so: not "from Cai: gold −4" as if Cai had taken it (a play-tester's)
            undo = action is not None and action.get("action") == "undo"
            for who, what in changes(rules, before, after, skip=(actor,)):
                if who is not None and who in seats:
                    text = _("{who} undid: {changes}", who=actor, changes=what) if undo else \
                        _("{who} redid: {changes}", who=actor, changes=what)
                    self._message(seats[who], text, now)
            return
        told = affected(rules, before, after, actor, None if undoing else action, events)
        key = (key or canonical(action)) if action is not None and not undoing else ""
        for who, text in told.items():
            if who not in seats:
                continue
            seat = seats[who]
            run = self._runs.get(seat)
            showing = seat in self.messages and now < self.messages[seat][1]
            if key and run is not None and run[:2] == (actor, key) and showing:
                whole = affected(rules, run[2], after, actor, action, events).get(who)
                text = whole if whole is not None else text
            else:
                run = (actor, key, before)
            self._runs[seat] = run
            self._message(seat, text, now)

    def _message(self, seat: int, text: str, now: float, seconds: float | None = None) -> None:
        """Show ``text`` on ``seat``'s pod, in the table's language, a page after another: each page for
        ``seconds``, or as long as its words take to read."""
        shown, until = [], now
        for page in self.pages(str(translated(text, self.catalog))):
            until += seconds if seconds is not None else max(self.message_seconds, WORD_SECONDS * len(page.split()))
            shown.append((page, until))
        self.messages[seat] = (tuple(shown), until)

    def notify_all(self, text: str, seconds: float = 10.0, now: float | None = None) -> None:
        """Show ``text`` on every seat's pod for ``seconds`` (a repaired journal, say)."""
        now = self.clock() if now is None else now
        for seat in self.controls:
            self._message(seat, text, now, seconds)

    # -- what the pods show ----------------------------------------------------------
    def view(self, seat: int, now: float | None = None) -> PodView:
        """``seat``'s view now, of the game as last handed to the seats."""
        return self._view(seat, self.clock() if now is None else now, self.rules, self.state, self.version)

    def _view(self, seat: int, now: float, rules, state: dict, version: int) -> PodView:
        ctl = self.controls.get(seat)
        if ctl is None:
            return PodView(seat=seat, player="", status="no player at this seat")
        message = ""
        if seat in self.messages:
            pages, until = self.messages[seat]
            if now < until:
                message = next(page for page, end in pages if now < end)
            else:
                del self.messages[seat]
        # Each seat's view is computed once per situation: the game's version (every commit), the
        # seat's own state (focus, menu, entry), its message, the language; anything else (a
        # loop tick, another seat's press) reuses it, and the pod then sends nothing.
        done = self.dones.get(seat)
        if done is not None and now >= done.until and ctl.stayed and not done.kept:
            # a card clicked once stays under the finger, its ✓ shown, a while longer for a second click
            done = self.dones[seat] = done._replace(until=done.until + KEPT_SECONDS, kept=True)
        elif done is not None and now >= done.until:
            del self.dones[seat]
            done = None
            # a counter changed by hand is done with once its tick goes: the offers again, as select would take
            # it (a play-tester's down, meant for the next offer, would have lowered his fortitude again); a card
            # clicked once, kept under the finger for a second click, gives way to the most likely offer
            ctl.tick_gone(rules)
        local = ctl.shown_key()
        flash = self.flashes.get(seat)
        if flash is not None and now >= flash[1]:
            del self.flashes[seat]
            flash = None
        stuck = self.stuck.buttons(seat)
        key = (id(self.rules), version, local, str(message), id(self.catalog), stuck,
               done.status() if done else "", flash[0] if flash else ())
        cached = self._computed.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        view = ctl.view(rules, state, message, self.catalog)
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
        # what the pod's own press did, where the status goes, for a moment — not over an alert (a play-tester's
        # "✓ pass" hid "OUT OF GOLD" just when her last chance began)
        if done and view.screen == "home" and not view.alert:
            view = replace(view, status=done.status())
        if stuck:  # said until the buttons are released (a message, while there is one, covers it)
            view = replace(view, stuck=stuck, notice=str(translated(screen_notice(stuck), self.catalog)))
        self._computed[seat] = (key, view)
        return view

    def views(self, state: dict | None = None, version: int | None = None, now: float | None = None
              ) -> dict[int, PodView]:
        """Every seat's view now, by seat number, of the game's ``state`` at ``version`` (None: as last handed)."""
        now = self.clock() if now is None else now
        if state is not None:
            self.state = state
        if version is not None:
            self.version = version
        state, version = self.state, self.version
        every_seat(self.rules, state, [ctl.player for ctl in self.controls.values()])
        views = {seat: self._view(seat, now, self.rules, state, version) for seat in sorted(self.controls)}
        self.due = self.next_due(now)
        return views

    def next_due(self, now: float) -> float | None:
        """When the next message or flash expires (a view then changes), or None."""
        times = [next((end for _, end in pages if end > now), until) for pages, until in self.messages.values()]
        times += [until for _, until in self.flashes.values()]
        times += [done.until for done in self.dones.values()]
        return min(times) if times else None
