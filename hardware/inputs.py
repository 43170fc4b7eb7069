"""The per-seat input map: button events become engine actions or pod-local changes.

Runs only on the owner thread (the one that took the event off the queue):
it reads the state and returns the action to apply; it never applies one.

The map, the same for every game (the game decides the main action through
its ``seat_actions`` hook)::

    up      press, hold, each repeat   adjust the focused counter by +1
    down    press, hold, each repeat   adjust the focused counter by -1
    select  click (released, not held) focus the next counter
    select  hold                       the main button offers the next action
    main    press                      do the offered action (the first of
                                       seat_actions unless select-hold moved on)

So every routine action is at most two presses: a counter is ±1 away when
focused and one select away otherwise; the most likely action is one press
and the next one a select-hold then a press.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.messages import _, word
from .pod import DOWN, HOLD, MAIN, PRESS, RELEASE, REPEAT, SELECT, UP, InputEvent, PodView
from .views import focus_index, pod_view

STEP_KINDS = (PRESS, HOLD, REPEAT)


@dataclass(frozen=True)
class Intent:
    """What one event asks for: an engine action to apply, and/or a short message for the pod.

    ``changed``: the pod's own view changed (focus, offered action) even
    without an engine action.
    """

    action: dict | None = None
    message: str = ""
    changed: bool = False


NOTHING = Intent()


class SeatControls:
    """One seat's input map and pod-local state (focused counter, offered action)."""

    def __init__(self, seat: int, player: str):
        self.seat = seat
        self.player = player
        self.focus: str | None = None  # the focused counter's name (None: the first)
        self.pick = 0  # index into seat_actions of the action the main button offers
        self._labels: tuple[str, ...] = ()
        self._held: set[str] = set()

    def _counters(self, rules, state):
        return [(str(k), v) for k, v in rules.seat_view(state, self.player).get("counters", ())]

    def _actions(self, rules, state) -> list[dict]:
        actions = rules.seat_actions(state, self.player)
        labels = tuple(str(a.get("label", "")) for a in actions)
        if labels != self._labels:  # a new situation: offer the most likely action again
            self._labels = labels
            self.pick = 0
        return actions

    def view(self, rules, state: dict, message: str = "", catalog=None) -> PodView:
        """What this seat's pod shows now, in ``catalog``'s language (None: English)."""
        actions = self._actions(rules, state)
        return pod_view(rules, state, self.player, self.focus if self.focus is not None else 0,
                        pick=self.pick, message=message, catalog=catalog, actions=actions)

    def handle(self, event: InputEvent, rules, state: dict) -> Intent:
        """The intent of ``event``; updates focus/pick. Never touches the engine."""
        button, kind = event.button, event.kind
        if kind == HOLD:
            self._held.add(button)
        if button in (UP, DOWN):
            if kind not in STEP_KINDS:
                return NOTHING
            return self._step(rules, state, 1 if button == UP else -1)
        if button == SELECT:
            if kind == RELEASE:
                if button in self._held:
                    self._held.discard(button)
                    return NOTHING
                return self._next_focus(rules, state)
            if kind == HOLD:
                actions = self._actions(rules, state)
                if len(actions) > 1:
                    self.pick = (self.pick + 1) % len(actions)
                    return Intent(changed=True)
                return Intent(message=_("no other action now") if actions else _("nothing to do now"))
            return NOTHING
        if button == MAIN:
            if kind == RELEASE:
                self._held.discard(button)
            if kind != PRESS:
                return NOTHING
            actions = self._actions(rules, state)
            if not actions:
                return Intent(message=_("nothing to do now"))
            chosen = actions[self.pick % len(actions)]
            self.pick = 0
            return Intent(action=dict(chosen["action"]))
        if kind == RELEASE:
            self._held.discard(button)
        return NOTHING

    def _step(self, rules, state, delta: int) -> Intent:
        counters = self._counters(rules, state)
        if not counters:
            return Intent(message=_("no counter to change"))
        name = counters[focus_index(counters, self.focus if self.focus is not None else 0)][0]
        if name not in getattr(rules, "player_counters", {}):
            return Intent(message=_("{counter} changes by itself", counter=word("counter", name)))
        return Intent(action={"action": "adjust", "player": self.player, "counter": name, "delta": delta})

    def _next_focus(self, rules, state) -> Intent:
        counters = self._counters(rules, state)
        if len(counters) < 2:
            return NOTHING
        i = focus_index(counters, self.focus if self.focus is not None else 0)
        self.focus = counters[(i + 1) % len(counters)][0]
        return Intent(changed=True)
