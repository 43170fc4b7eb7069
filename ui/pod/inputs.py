"""The per-seat input map: four buttons, one grammar for every game and every action.

Runs only on the owner thread (the one that took the event off the queue):
it reads the state and returns the action to apply; it never applies one.
What a pod can ask comes from the actions' declared fields
(:mod:`tablekeeper.ui.pod.grammar`), so every action a player may take is
possible from that player's own pod, and the routine ones stay one press.

The grammar (``click`` = released before the hold time)::

    HOME     up/down     press, hold, repeat   while the game offers several actions and the focus
                                               is on them (where it goes whenever the offers
                                               change), the next/previous offer; else the counter
                                               chosen with select ±1 (an adjust): a counter is
                                               chosen until the turn moves on (in a game whose
                                               counters are its whole input, always chosen), so a
                                               stray up/down changes nothing
             select      click                 choose the counter shown; then the next counter
                                               (after the last: the offers); where the offers
                                               come in kinds (a Dale turn's buys, stacks,
                                               techniques), first the next kind's first offer,
                                               after the last kind the counters
             select      hold                  the MENU
             main        press                 the offer shown (the game's most likely first):
                                               done at once, or its entry steps; then the pod
                                               shows the most likely again
             main        hold, repeat          an offer the game marks "repeat" (a card that
                                               costs another player 1 fortitude): again at the
                                               hold and at every repeat, like a held ±
    MENU     up/down     press, hold, repeat   move through the actions (wraps)
             main        click                 choose: done at once, or its entry steps ("table counters": said)
             select      click or hold         back HOME
    ENTRY    up/down     press, hold, repeat   change the value (numbers: repeats speed up)
             main        click                 next step; on the last, do it (a refusal stays)
             main        hold                  the PREVIEW now (the other steps as they start)
             select      click                 back one step (a list: take back its last number)
             select      hold                  cancel: HOME
    LIST     select      click                 add the number and start the next
    PREVIEW  main        click or hold         do it
             select      click                 back to the last step; hold: cancel, HOME

The owner applies what the pod sends once and tells it how it went
(:meth:`SeatControls.told`): a refusal shows at once and the pod stays at the
step, its values kept; an action that would end the game comes back as its
PREVIEW, done by one more main press. When another player's action makes the one being entered impossible,
the pod goes HOME and says so (the next press only acknowledges it).
"""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine.errors import RuleError
from ...engine.game import Offer
from ...engine.messages import _, translated, word
from ...engine.state import canonical
from ...hardware.pod import DOWN, HOLD, MAIN, PRESS, RELEASE, REPEAT, SELECT, UP, InputEvent, PodView
from . import grammar as g
from .views import focus_index, pod_view, seat_number

STEP_KINDS = (PRESS, HOLD, REPEAT)
HOME, MENU, ENTRY, PREVIEW = "home", "menu", "entry", "preview"
#: How the owner took an action a pod sent (:meth:`SeatControls.told`).
TOOK, REFUSED, ENDS = "took", "refused", "ends"
#: Repeats of a held up/down that step by 1 before the steps grow to FAST.
SLOW_REPEATS = 4
FAST = 5


@dataclass(frozen=True)
class Intent:
    """What one event asks for: an engine action to apply, and/or a short message for the pod.

    ``changed``: the pod's own view changed (focus, screen, a value entered)
    even without an engine action.
    """

    action: dict | None = None
    message: str = ""
    changed: bool = False
    #: The owner stops short of an action that would end the game (:class:`~tablekeeper.engine.WouldEnd`)
    #: and tells the seat, which asks its player to confirm it (:meth:`SeatControls.told`).
    short_of_end: bool = False
    #: A hold or repeat of a stuck button, held back: it changes nothing at all (nothing to publish, no
    #: pod to wake).
    held: bool = False


NOTHING = Intent()
HELD = Intent(held=True)
CHANGED = Intent(changed=True)


class SeatControls:
    """One seat's place in the button grammar: its screen, focus, menu cursor, the action being entered.

    Deterministic and plain data (``copy.deepcopy`` gives an independent
    pod); :meth:`key` is all of it, so a view is a function of the game's
    state, ``key()``, the message and the language.
    """

    def __init__(self, seat: int, player: str):
        self.seat = seat
        self.player = player
        self.focus: str | None = None  # the focused counter's name (None: the first)
        self.pick = 0  # which of seat_actions the main button offers (the first: the most likely)
        self.choosing = False  # up/down go through the offers (not the focused counter)
        self._chosen: str | None = None  # the turn (canonical) in which select chose the counter
        self._focused: str | None = None  # the turn in which select last moved the focus: later, the first again
        self._stepped = False  # ▲▼ changed the chosen counter: select then goes back to the offers
        self._again: Any = None  # the label of the "repeat" offer main is held on, as the game gave it
        self._again_action: dict | None = None  # its action, done again while main is held
        self._again_held = False  # main was held on it (not only clicked): let go, the most likely again
        self._stayed = False  # a card clicked once stays under the finger until its tick goes (:meth:`tick_gone`)
        self._labels: tuple[str, ...] = ()  # the seat_actions' labels pick and choosing refer to
        self.screen = HOME
        self.cursor = 0  # the menu's chosen line
        self._item: g.Item | None = None  # the action being entered
        self._from = HOME  # where select goes back to from the first step
        self._left = 0  # the offer whose entry began from HOME: select back from its first step shows it again
        self._step = 0
        self._values: dict[str, Any] = {}  # field → value entered (a list as a tuple)
        self._elem: int | None = None  # a list's number being set (None: none yet)
        self._confirm = False  # PREVIEW of an action that ends the game: main once more does it
        self._sent: g.Item | None = None  # the action sent to the owner, until it tells how it went
        # The gesture in progress: buttons pressed on this screen (a release then is a click),
        # buttons held, how many repeats so far.
        self._armed: set[str] = set()
        self._held: set[str] = set()
        self._run = 0

    def __deepcopy__(self, memo) -> SeatControls:
        # Everything but the containers below is immutable (frozen items, tuples, strings): shared.
        twin = copy.copy(self)
        twin._values = dict(self._values)
        twin._armed = set(self._armed)
        twin._held = set(self._held)
        return twin

    # -- what the owner reads -------------------------------------------------------------
    def key(self) -> tuple:
        """Everything this pod keeps, hashable: equal keys (with the same game version, message and
        language) give equal views, and a press that can change the view changes it."""
        return self.shown_key() + (tuple(sorted(self._armed)), tuple(sorted(self._held)), self._run)

    def shown_key(self) -> tuple:
        """:meth:`key` without the gesture under way (which buttons are down, held, repeating): what the
        view depends on. An event that leaves it as it was, and asks nothing, has nothing to show."""
        return (self.screen, self.focus, self._focused, self.pick, self.choosing, self._chosen, self._stepped,
                None if self._again is None else str(self._again), self._again_held, self._stayed,
                self._labels, self.cursor,
                self._item.ident if self._item else None, self._from, self._left, self._step,
                tuple(sorted(self._values.items())), self._elem, self._confirm)

    @property
    def stayed(self) -> bool:
        """A card clicked once is under the finger for a second click (until :meth:`tick_gone`)."""
        return self._stayed

    @property
    def sent(self) -> g.Item | None:
        """The action this pod sent, until the owner tells how it went (:meth:`told`)."""
        return self._sent

    def view(self, rules, state: dict, message: str = "", catalog=None) -> PodView:
        """What this seat's pod shows now, in ``catalog``'s language (None: English). Changes nothing."""
        if self.screen == MENU:
            return self._menu_view(rules, state, message, catalog)
        if self.screen in (ENTRY, PREVIEW):
            stale = self._stale(rules, state)
            if stale is not None:
                return self._home_view(rules, state, message or stale, catalog)
            if self.screen == ENTRY:
                return self._entry_view(rules, state, message, catalog)
            return self._preview_view(rules, state, message, catalog)
        return self._home_view(rules, state, message, catalog)

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: InputEvent, rules, state: dict) -> Intent:
        """The intent of ``event``; updates this pod's place in the grammar. Never touches the engine."""
        if self._sent is not None:  # the owner never said how it went: it applied it
            self.told(TOOK, rules, state)
        button, kind = event.button, event.kind
        if kind == PRESS:
            self._armed.add(button)
            self._run = 0
            if button != MAIN:  # the player moved on from a card clicked once: where they go, the pod stays
                self._stayed = False
        elif kind == HOLD:
            self._held.add(button)
        elif kind == REPEAT:
            self._run += 1
        click = held = False
        if kind == RELEASE:
            click = button in self._armed and button not in self._held
            self._armed.discard(button)
            self._held.discard(button)
            self._run = 0  # the gesture is over: how many repeats it had no longer matters
        elif kind == HOLD and button in self._armed:
            held = True
            self._armed.discard(button)
        if self.screen in (ENTRY, PREVIEW):
            stale = self._stale(rules, state)
            if stale is not None:
                self._go(HOME)
                return Intent(message=stale, changed=True)
        if self.screen == MENU:
            return self._menu(rules, state, button, kind, click, held)
        if self.screen == ENTRY:
            return self._entry(rules, state, button, kind, click, held)
        if self.screen == PREVIEW:
            return self._preview(rules, state, button, click, held)
        return self._home(rules, state, button, kind, click, held)

    def _go(self, screen: str) -> None:
        # A new screen: a button still down from the old one does nothing when released.
        self.screen = screen
        self._armed.clear()
        if screen != PREVIEW:
            self._confirm = False
        if screen != HOME:
            self._again = self._again_action = None
        if screen == HOME:
            self.cursor = 0  # the menu opens at its top: the cursor means nothing elsewhere
        if screen in (HOME, MENU):
            self._item, self._step, self._values, self._elem = None, 0, {}, None

    # -- HOME -----------------------------------------------------------------------------
    def _offered(self, rules, state) -> tuple[list[Offer], tuple[str, ...], int, bool]:
        """The game's offers now, their labels, which one main does and whether up/down go through
        them. New offers (another situation: the labels changed since this pod last looked) start
        at the first, the most likely, with the focus on them when there is a choice."""
        actions = g.offers(rules, state, self.player)
        labels = g.offer_labels(rules, state, self.player)
        if labels != self._labels:
            # a counter chosen and being changed keeps the focus when its own change brings other offers (a
            # last chance won back by fortitude +2, held: the first +1 had turned the pod to the offers)
            kept = not self.choosing and self._counter_chosen(rules, state)
            return actions, labels, 0, len(actions) > 1 and not kept
        return actions, labels, self.pick % len(actions) if actions else 0, self.choosing and len(actions) > 1

    def _home_view(self, rules, state, message, catalog) -> PodView:
        actions, _labels, pick, choosing = self._offered(rules, state)
        view = pod_view(rules, state, self.player, self._focus_at(rules, state),
                        pick=pick, message=message, catalog=catalog, actions=actions, choosing=choosing)
        if not choosing and getattr(rules, "select_chooses_counter", True) and self._counter_chosen(rules, state):
            view = dataclasses.replace(view, tuning=True)  # framed: chosen (always, where nothing is chosen)
        if self._again is not None:  # main held on a card: that card stays under the finger, whatever comes first
            view = dataclasses.replace(view, action=str(translated(self._again, catalog)))
        return view

    def _focus_at(self, rules, state) -> str | int:
        """The focused counter now: the one select moved to in this turn; in a later turn the first again (a
        play-tester's piety, chosen for one card, was still the counter a later select and up changed). In a
        game whose counters are its whole input (no turn to choose them in) it stays where it was put."""
        if self.focus is None:
            return 0
        if not getattr(rules, "select_chooses_counter", True) or self._focused == _moment(state):
            return self.focus
        return 0

    def _counter_chosen(self, rules, state) -> bool:
        """Whether up/down change the focused counter: the player chose it with select in this turn
        (a game whose counters are its whole input: always). A stray up/down changes nothing else."""
        if not getattr(rules, "select_chooses_counter", True):
            return True
        return self._chosen is not None and self._chosen == _moment(state)

    def _home(self, rules, state, button, kind, click, held) -> Intent:
        actions, self._labels, self.pick, self.choosing = self._offered(rules, state)
        if button in (UP, DOWN):
            if kind not in STEP_KINDS:
                return NOTHING
            if self.choosing:
                self.pick = (self.pick + (1 if button == DOWN else -1)) % len(actions)
                return CHANGED
            if not self._counter_chosen(rules, state):
                return self._not_chosen(rules, state)
            return self._step_counter(rules, state, 1 if button == UP else -1)
        if button == SELECT:
            if held:
                self._go(MENU)
                self.cursor = 0
                return CHANGED
            if not click:
                return NOTHING
            if self.choosing:
                kind = next_kind(actions, self.pick, getattr(rules, "offer_kinds", ()),
                                 getattr(rules, "offer_kinds_up", ()))
                if kind is not None:  # a long list of kinds: the next kind's first line
                    self.pick = kind
                    return CHANGED
                if any(a.get("group") for a in actions):
                    self.pick = 0  # past the last kind, the counters; back from them, the first offer
                    if not self._any_by_hand(rules, state):
                        # none to change (Dale's are the rules' own, all shown at home): back at the first offer
                        # at once (a play-tester went through stall, hand, deck and discard at every round)
                        return CHANGED
            return self._next_focus(rules, state, len(actions) > 1)
        if button == MAIN and kind == PRESS:
            if not actions:
                return Intent(message=_("nothing to do now"))
            chosen = actions[self.pick]
            if chosen.get("repeat") and not chosen.get("ask"):
                self._again = chosen.get("label", "")  # shown, and done again, until main is let go
                self._again_action = dict(chosen["action"])
            else:
                self._left, self.pick = self.pick, 0  # the next time, the most likely again
            item = g.seat_item(chosen)
            return self._start(rules, state, item, HOME, confirm=bool(chosen.get("confirm")))
        if button == MAIN and self._again is not None:
            if kind == RELEASE:  # clicked once: the card stays shown (wherever it went), main again does it once more
                shown = [str(label) for label in self._labels]
                again = str(self._again)
                self._again, self._again_action = None, None
                # after a hold the player chose the count: the most likely offer again — unless that one
                # is guarded (a last chance's "resolve": one more main by reflex would give it up)
                guarded = bool(actions) and bool(actions[0].get("guarded"))
                stay = (not self._again_held or guarded) and again in shown
                self._again_held = False
                self.pick = shown.index(again) if stay else 0
                self._stayed = stay and not guarded and self.pick != 0
                self.choosing = self.choosing or (stay and len(shown) > 1)
                return CHANGED
            if kind in (HOLD, REPEAT) and self._again_action is not None:
                self._again_held = True
                # the card held on, even once the offers changed under it (the hit that starts a last
                # chance: a card that costs 3 is main held through it); the rules say whether it still goes
                action = dict(self._again_action)
                return self._send(g.Item(g.SEAT, self._again, action), action, changed=True)
        return NOTHING

    def _any_by_hand(self, rules, state) -> bool:
        """Whether any counter of this seat may be moved by hand now (a pod's up/down on it an ``adjust``)."""
        return any(rules.moved_by_hand(state, self.player, str(k))
                   for k, _v in g.seat_view(rules, state, self.player).get("counters", ()))

    def _fixed(self, rules, state) -> tuple[str | None, Intent | None]:
        """The focused counter's name, and why a press cannot move it by hand (None: it can)."""
        counters = [(str(k), v) for k, v in g.seat_view(rules, state, self.player).get("counters", ())]
        if not counters:
            return None, Intent(message=_("no counter to change"))
        name = counters[focus_index(counters, self._focus_at(rules, state))][0]
        if getattr(rules, "player_counters", {}).get(name) is None:
            return name, Intent(message=_("{counter} changes by itself", counter=word("counter", name)))
        if not rules.moved_by_hand(state, self.player, name):
            return name, Intent(message=_("{counter} is kept by the game's actions (hold select: the menu)",
                                          counter=word("counter", name)))
        return name, None

    def _step_counter(self, rules, state, delta: int) -> Intent:
        name, fixed = self._fixed(rules, state)
        if fixed is not None or name is None:
            return fixed or NOTHING
        spec = rules.player_counters[name]
        value = next(p for p in state["players"] if p["name"] == self.player)["counters"][name]
        if spec.clamp(value + delta) == value:
            # at its bound a press changes nothing: said, and nothing journalled (a play-tester's second up on
            # fortitude 20 showed "✓ fortitude +1" again and recorded an adjust that did nothing)
            return Intent(message=_("{counter} is at its highest, {value}", counter=word("counter", name), value=value)
                          if delta > 0 else _("{counter} is at its lowest, {value}", counter=word("counter", name),
                                              value=value))
        action = {"action": "adjust", "player": self.player, "counter": name, "delta": delta}
        item = g.Item(g.SEAT, _("{counter} {delta}", counter=word("counter", name), delta=g.signed(delta)), action)
        self._stepped = True
        return self._send(item, action)

    def tick_gone(self, rules) -> None:
        """The tick (✓) of what this pod did went (:class:`~.seats.Seats`; for a card clicked once, a while after
        the usual tick: a second play-tester's second extra drink came 4 s after the first). A card clicked once
        stayed under the finger for a second click (a second extra drink): the most likely offer again, as after
        a held one (a play-tester's bar stayed on "extra drink for Cai 15/21" into his turn's later events, and he
        counted his steps from the wrong offer). A counter changed by hand is done with, and up/down go through
        the offers again, as a select click after it would have them (a play-tester's pod stayed on his fortitude: a down
        meant for the next offer would have lowered it again); not in a game whose counters are its whole
        input."""
        if self._stayed and self.screen == HOME and self._again is None:
            self._stayed = False
            self.pick = 0
        if not self._stepped or self.screen != HOME or not getattr(rules, "select_chooses_counter", True):
            return
        self._stepped = False
        self.choosing = True  # where there is a choice of offers (:meth:`_offered`)
        self._chosen = None
        self.focus, self._focused = None, None

    def _not_chosen(self, rules, state) -> Intent:
        """What up/down say on a counter select has not chosen: why nothing changed, and how to change it."""
        name, fixed = self._fixed(rules, state)
        if fixed is not None or name is None:
            return fixed or NOTHING
        return Intent(message=_("to change {counter} by hand: select, then ▲▼", counter=word("counter", name)))

    def _next_focus(self, rules, state, offers: bool) -> Intent:
        """From the offers to the focused counter, chosen; from a counter not chosen yet (a stray up/down
        changes nothing) to the same counter, chosen; from a chosen one to the next one, and from the
        last back to the offers when there is a choice of them. From a chosen counter ▲▼ changed, back
        to the offers at once (the counter is done with: the next thing is an offer, not the next
        counter — a play-tester's robot went through five counters to give a drink), except in a game
        whose counters are its whole input."""
        counters = [(str(k), v) for k, v in g.seat_view(rules, state, self.player).get("counters", ())]
        stepped, self._stepped = self._stepped, False
        if self.choosing:
            self.choosing = False
            self._chosen = _moment(state)
            return CHANGED
        if not self._counter_chosen(rules, state):
            self._chosen = _moment(state)
            return CHANGED
        i = focus_index(counters, self._focus_at(rules, state))
        done = stepped and getattr(rules, "select_chooses_counter", True)
        if offers and (i == len(counters) - 1 or done):
            self.choosing = True
            self._chosen = None
            self.focus, self._focused = None, None
            return CHANGED
        if len(counters) < 2:
            return NOTHING
        self.focus, self._focused = counters[(i + 1) % len(counters)][0], _moment(state)
        return CHANGED

    # -- MENU -----------------------------------------------------------------------------
    def _menu_view(self, rules, state, message, catalog) -> PodView:
        items = g.menu(rules, state, self.player)
        lines = tuple(_say(i.label, catalog) + ("…" if self._asks_something(rules, state, i) else "")
                      for i in items)
        return self._screen_view(state, MENU, translated(_("actions"), catalog), message, catalog,
                                 lines=lines, cursor=self.cursor % len(items))

    def _asks_something(self, rules, state, item: g.Item) -> bool:
        return bool(g.asks(rules, state, self.player, item))

    def _menu(self, rules, state, button, kind, click, held) -> Intent:
        items = g.menu(rules, state, self.player)
        if button in (UP, DOWN):
            if kind in STEP_KINDS:
                self.cursor = (self.cursor % len(items) + (-1 if button == UP else 1)) % len(items)
                return CHANGED
            return NOTHING
        if button == SELECT and (click or held):
            self._go(HOME)
            return CHANGED
        if button == MAIN and (click or held):
            item = items[self.cursor % len(items)]
            if item.kind == g.TABLE:  # what the table holds, said where a message goes; back HOME
                self._go(HOME)
                return Intent(message=g.table_words(rules, state, self.player) or "", changed=True)
            return self._start(rules, state, item, MENU)
        return NOTHING

    # -- ENTRY ----------------------------------------------------------------------------
    def _start(self, rules, state, item: g.Item, came_from: str, confirm: bool = False) -> Intent:
        """Begin ``item``: done at once when there is nothing to ask, else its first step. ``confirm``: an
        offer that puts its own player out (a last chance given up) shows its PREVIEW first, one more main
        does it: a second main by reflex, the offers having changed under the finger, changes nothing."""
        steps = g.asks(rules, state, self.player, item)
        if steps is None:
            return Intent(message=_("this needs the touchscreen"))
        if not steps and confirm:
            self._go(PREVIEW)
            self._item, self._from, self._step, self._elem = item, came_from, 0, None
            return CHANGED
        if not steps:
            self._go(HOME)
            return self._send(item, dict(item.action), changed=True)
        self._go(ENTRY)
        if came_from == MENU:
            self.pick = 0  # home shows the most likely offer again afterwards
        self._item, self._from, self._step, self._elem = item, came_from, 0, None
        self._values = {a.field.name: a.start(item.action.get(a.field.name)) for a in steps}
        return CHANGED

    def _steps(self, rules, state) -> tuple[g.Ask, ...]:
        assert self._item is not None
        return g.asks(rules, state, self.player, self._item) or ()

    def _stale(self, rules, state) -> str | None:
        """Why the action being entered cannot go on in ``state`` (another player acted), or None."""
        if self._item is None:
            return None
        if self._confirm:
            try:
                after, _events = g.dry_run(rules, state, self._action(rules, state))
            except RuleError:
                return _("no longer possible: {action}", action=self._item.label)
            return None if after.get("over") else _("no longer ends the game: {action}", action=self._item.label)
        if self._item.ident in {i.ident for i in g.menu(rules, state, self.player)}:
            return None
        return _("no longer possible: {action}", action=self._item.label)

    def _live(self, rules, state, steps) -> tuple[int, ...]:
        """The steps asked, given the values entered so far (the one shown always among them)."""
        assert self._item is not None
        live = g.live(rules, state, self.player, self._item, steps, self._values)
        return live if self._step in live else tuple(sorted(live + (self._step,)))

    def _action(self, rules, state) -> dict:
        assert self._item is not None
        values = dict(self._values)
        steps = self._steps(rules, state)
        if not steps:
            return dict(self._item.action)
        ask = self._current(steps)
        if ask.step == g.LIST and self._elem is not None:  # a list's number being set counts as entered
            values[ask.field.name] = tuple(values[ask.field.name]) + (self._elem,)
        live = self._live(rules, state, steps)
        passed = tuple(a.field.name for i, a in enumerate(steps) if i not in live)
        return g.complete(self._item, steps, values, passed=passed)

    def _current(self, steps) -> g.Ask:
        return steps[min(self._step, len(steps) - 1)]

    def _entry(self, rules, state, button, kind, click, held) -> Intent:
        steps = self._steps(rules, state)
        ask = self._current(steps)
        name = ask.field.name
        if button in (UP, DOWN):
            if kind not in STEP_KINDS:
                return NOTHING
            delta = 1 if button == UP else -1
            if ask.step in (g.NUMBER, g.LIST):
                delta *= FAST if kind == REPEAT and self._run > SLOW_REPEATS else 1
            if ask.step == g.NUMBER:
                before = self._values[name]
                self._values[name] = ask.number(before, delta)
                if before is not None and self._values[name] == before:
                    # at a bound: said, as a counter's is at home (a play-tester's up on the last corpse did
                    # nothing and said nothing, and he could not tell whether the press had counted)
                    return Intent(message=_("{value} is the highest", value=before) if delta > 0
                                  else _("{value} is the lowest", value=before), changed=True)
            elif ask.step == g.LIST:  # with choices (a welcome's rooms), those not in the list yet
                left = tuple(o for o in ask.options if o not in self._values[name]) or ask.options
                self._elem = g.Ask(ask.field, g.NUMBER, left).number(self._elem, delta, unset=True)
            elif ask.step == g.BOOL:
                self._values[name] = not self._values[name]
            else:
                self._values[name] = ask.cycle(self._values[name], delta)
            return CHANGED
        if button == SELECT:
            if held:
                self._go(HOME)
                return CHANGED
            if not click:
                return NOTHING
            if ask.step == g.LIST and self._elem is not None:
                self._add(ask)
                return CHANGED
            if ask.step == g.LIST and self._values[name]:
                *rest, last = self._values[name]
                self._values[name], self._elem = tuple(rest), last
                return CHANGED
            return self._back(self._live(rules, state, steps))
        if button == MAIN and (click or held):
            if ask.step == g.LIST and self._elem is not None and self._add(ask) and click:
                return CHANGED  # fewer numbers than the offer's least: the next one, from the option after
            later = [i for i in self._live(rules, state, steps) if i > self._step]
            if click and later:
                self._step = later[0]
                return CHANGED
            if click:
                return self._do(rules, state)
            return self._to_preview(rules, state)
        return NOTHING

    def _add(self, ask: g.Ask) -> bool:
        """Add the list's number being set; below the offer's ``least`` (a welcome's two police officers) start
        the next at the option after it, not yet in the list (True), else at "–" (False)."""
        assert self._item is not None
        name = ask.field.name
        added, self._elem = self._elem, None
        self._values[name] = tuple(self._values[name]) + (added,)
        left = sorted(o for o in ask.options if o not in self._values[name])
        if len(self._values[name]) >= self._item.least or not left:
            return False
        self._elem = next((o for o in left if o > added), left[0])
        return True

    def _back(self, live: tuple[int, ...]) -> Intent:
        earlier = [i for i in live if i < self._step]
        if earlier:
            self._step = earlier[-1]
            self._elem = None
            return CHANGED
        came_from = self._from
        self._go(came_from)
        if came_from == HOME:  # back at the offer the entry began from, not the first
            self.pick, self.choosing = self._left, True
        return CHANGED

    def _do(self, rules, state, confirmed: bool = False) -> Intent:
        """The last step's main click: the action, for the owner to apply. The pod stays where it is
        until the owner tells how it went (:meth:`told`): done, HOME; refused, at the step with
        the reason; stopped short of ending the game (unless ``confirmed`` there), its PREVIEW."""
        assert self._item is not None
        return self._send(self._item, self._action(rules, state), changed=True, confirmed=confirmed)

    def _send(self, item: g.Item, action: dict, *, changed: bool = False, confirmed: bool = False) -> Intent:
        self._sent = item
        return Intent(action=action, changed=changed, short_of_end=not confirmed)

    def told(self, outcome: str, rules, state: dict) -> Intent:
        """How the owner took the action this pod sent: :data:`TOOK`, :data:`REFUSED` (the owner shows
        the reason) or :data:`ENDS` (it would end the game: its PREVIEW, waiting for one more main
        press). What the pod says about it, if anything."""
        sent, self._sent = self._sent, None
        if sent is None:
            return NOTHING
        if outcome == ENDS:
            if self.screen != PREVIEW:
                if self._item is not sent:  # sent from HOME or a menu: nothing was asked
                    self._item, self._from, self._step, self._values, self._elem = sent, HOME, 0, {}, None
                self._go(PREVIEW)
            self._confirm = True
            return Intent(message=_ENDS, changed=True)
        if self.screen not in (ENTRY, PREVIEW):
            return NOTHING
        if outcome == TOOK or (self.screen == PREVIEW and not self._steps(rules, state)):
            self._go(HOME)
        elif self.screen == PREVIEW:  # refused: back to the last step, its values kept
            self._confirm = False
            self.screen = ENTRY
        return CHANGED

    def _to_preview(self, rules, state) -> Intent:
        try:
            g.dry_run(rules, state, self._action(rules, state))
        except RuleError as e:
            return Intent(message=_refusal(e), changed=True)
        self._go(PREVIEW)
        return CHANGED

    def _entry_view(self, rules, state, message, catalog) -> PodView:
        steps = self._steps(rules, state)
        ask = self._current(steps)
        name = ask.field.name
        value = self._values.get(name)
        lines: tuple[str, ...] = ()
        action_name = self._item.action.get("action") if self._item else ""

        def number(v: Any) -> str:  # a number as the table reads it: the game's word for it, if it has one
            said = rules.pod_value_shown(state, self.player, action_name, name, v)
            return str(v) if said is None else str(_say(said, catalog))

        if ask.step == g.LIST:
            each = [number(v) for v in value or ()]
            lines = ((", " if each != [str(v) for v in value] else " ").join(each) if value else "",)
            shown = "–" if self._elem is None else number(self._elem)
        elif ask.step == g.BOOL:
            shown = str(translated(_("yes") if value else _("no"), catalog))
        elif value is None:
            shown = "–"
        elif ask.step == g.CHOICE:
            shown = _say(g.choice_word(ask.field.name, value), catalog)
        else:
            shown = number(value)
        prompt = _say(ask.label, catalog)
        words = rules.pod_value_words(state, self.player, action_name,
                                      name, self._elem if ask.step == g.LIST else value,
                                      entered=self._action(rules, state) if self._item else None)
        if words is not None:  # what the number stands for: "corpse: rank 1, 12F"
            prompt = f"{prompt}: {_say(words, catalog)}"
        live = self._live(rules, state, steps)
        return self._screen_view(state, ENTRY, _say(self._item.label if self._item else "", catalog),
                                 message, catalog, lines=lines, prompt=prompt,
                                 value=shown, step=f"{live.index(self._step) + 1}/{len(live)}" if len(live) > 1 else "",
                                 hint=translated(_("main: add, next") if ask.step == g.LIST
                                                 and len(value or ()) + 1 < (self._item.least if self._item else 0)
                                                 else _("select: add, main: end") if ask.step == g.LIST
                                                 else _("main: next, select: back")
                                                 if live[-1] > self._step
                                                 else _("main: do it, select: back"), catalog),
                                 cursor=-1 if ask.step != g.LIST else len(value or ()))

    # -- PREVIEW --------------------------------------------------------------------------
    def _preview_view(self, rules, state, message, catalog) -> PodView:
        assert self._item is not None
        title = _say(self._item.label, catalog)
        action = self._action(rules, state)
        try:
            pv = rules.preview(state, action)  # the one preview: the dialogs' too
        except RuleError as e:
            return self._screen_view(state, PREVIEW, title, message or translated(_refusal(e), catalog),
                                     catalog)
        # What the device draws (a die, a card) is named; only what every draw gives is a change.
        shown = g.preview_lines(pv) if pv.decided else g.change_lines(rules, state, pv.after, list(pv.events))
        if pv.after.get("over") and not state.get("over"):  # who wins, first: what the confirming press decides
            shown = (rules.result_words(pv.after), *shown)
        lines = [str(translated(m, catalog)) for m in shown]
        for name in pv.decided:
            lines.append(str(translated(_("{field}: the device decides", field=word("field", name)), catalog)))
        return self._screen_view(state, PREVIEW, title, message, catalog, lines=tuple(lines),
                                 prompt=translated(_("OK?"), catalog),
                                 hint=translated(_("main: yes, select: back"), catalog))

    def _preview(self, rules, state, button, click, held) -> Intent:
        if button == SELECT and held:
            self._go(HOME)
            return CHANGED
        if button == SELECT and click:
            if not self._steps(rules, state):  # nothing was asked: back is cancel
                self._go(HOME)
                return CHANGED
            self._confirm = False
            self.screen = ENTRY
            return CHANGED
        if button != MAIN or not (click or held):
            return NOTHING
        return self._do(rules, state, confirmed=True)

    # -- shared ---------------------------------------------------------------------------
    def _screen_view(self, state, screen, title, message, catalog, **kw) -> PodView:
        turn = state.get("turn")
        your_turn = isinstance(turn, dict) and turn.get("player") == self.player and not state.get("over")
        return PodView(seat=seat_number(state, self.player), player=self.player, screen=screen, title=str(title),
                       your_turn=bool(your_turn), message=str(translated(message, catalog)), **kw)


def next_kind(actions: list[Offer], pick: int, order: tuple[str, ...] = (), up: tuple[str, ...] = ()) -> int | None:
    """Where select goes from the offer ``pick``: the first line of the next kind of offer (the offers' ``group``),
    the kinds in the game's ``order`` (the others after, as the list has them), each kind's first line past
    the first offer — for a kind in ``up`` (reached with up from the first offer, which wraps to the end), the
    line up reaches first, its last in the list (a play-tester's select landed on "potion: draw 2…" where up
    reaches "potion…" first); from the first offer, the first kind but its own when that goes on right after it
    (down's way: a play-tester's first select stayed among the burials he meant to leave). None: the offers have
    no kinds, or ``pick`` is in the last one (select then goes on to the counters)."""
    kinds = [a.get("group") for a in actions]
    if not any(kinds):
        return None
    first: dict[str, int] = {}
    for i, kind in enumerate(kinds):
        if i and kind is not None:
            if kind in up:
                first[kind] = i
            else:
                first.setdefault(kind, i)
    ranked = sorted(first, key=lambda k: (order.index(k) if k in order else len(order), first[k]))
    if pick:
        here = kinds[pick]
        ranked = ranked[ranked.index(here) + 1:] if here in ranked else []
    else:
        ranked = [k for k in ranked if not (k == kinds[0] and first[k] == 1)]
    return next((first[k] for k in ranked if first[k] != pick), None)


def settle(ctl: SeatControls, intent: Intent, rules, state: dict,
           apply: Callable[[dict], dict]) -> tuple[dict, list[str]]:
    """``intent`` taken as the owner takes it (:meth:`tablekeeper.ui.controller.Keeper.press`), for a
    driver that keeps the state itself (tests, the benchmark's robot): ``apply(action)`` gives the
    state after it or raises :class:`RuleError`. The state after, and what the pod says."""
    said = [intent.message] if intent.message else []
    if intent.action is None:
        return state, said
    try:
        after = apply(dict(intent.action))
    except RuleError as e:
        ctl.told(REFUSED, rules, state)
        return state, [*said, _refusal(e)]
    if intent.short_of_end and after.get("over") and not state.get("over"):
        return state, [*said, ctl.told(ENDS, rules, state).message]
    ctl.told(TOOK, rules, after)
    return after, said


#: Said on the PREVIEW of an action that would end the game (one more main press does it; undo stays).
_ENDS = _("this ends the game: main again to confirm")


def _say(message, catalog) -> str:
    """A word of the game in the table's language; an identifier without a translation ("end_turn")
    is shown with spaces."""
    text = str(translated(message, catalog))
    return text.replace("_", " ") if text == str(message) else text


def _moment(state: dict) -> str:
    """The turn as it stands (the whole ``turn`` of the state, its phase and the table's round, canonical):
    a counter chosen with select stays chosen while it does not move. (The Bloody Inn's welcome has the
    same ``turn`` every round: a cash chosen at one welcome was still chosen at the next.)"""
    table = state.get("table")
    return canonical([state.get("turn"), state.get("phase"), table.get("round") if isinstance(table, dict) else None])


def _refusal(e: RuleError) -> str:
    return e.args[0] if len(e.args) == 1 else str(e)
