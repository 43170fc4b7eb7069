"""Turn cost: what each event of a table story costs on a pod, on the touchscreen and on paper.

Run with ``make bench`` (all benchmarks) or ``.venv/bin/python bench/run.py turns``.
Reads the table stories ``bench/stories/<game>.json`` (format: bench/stories.py);
a game without a story has no figures.

* POD: a robot plays each event on the acting player's ("who") pod by
  physical presses and counts them. It knows nothing of the pod's input
  grammar: it searches, breadth first by presses (then by seconds), over
  every press it could make, feeding the button events to the real
  :class:`tablekeeper.ui.pod.inputs.SeatControls` and applying each
  intent's action with ``rules.apply`` (a refused action changes nothing),
  until the game state equals the story's state after the event (the whole
  state). One press is one of:

  - a click: press + release (``CLICK_S`` seconds);
  - a long press: press + hold + release (the hold time);
  - a held press with k ≥ 1 repeats (any button: up/down step a number or
    an offer, main repeats an offer the game marks "repeat"): press + hold +
    k×repeat + release — ONE press (one finger down), taking hold time + k × repeat
    interval. Its seconds are reported (``pod_seconds_per_round``), so a long
    hold is not free, only not counted as many presses.

  Search nodes are deduplicated by (``SeatControls.key()``, state) — ``(focus,
  pick)`` when the controls have no ``key()``. Bounds: ``MAX_PRESSES`` presses,
  ``MAX_NODES`` nodes, and at most ``repeat_bound`` repeats in a held press
  (the largest change of a number in the event, plus 3: a held press that
  scrolls further than any number moves does not help).

  An event the blind search does not reach within its bounds (a long
  entry: a payment, a stall stack, four card values) goes to the guided
  search: the event's actions one at a time, each searched for by the
  fewest presses as well, but told the action it must reach — a branch
  whose menu item or already-entered values disagree with it is dropped
  (``PodRobot._consistent``, which reads the controls' entry: white-box),
  and so is one that applies another action. What it finds is an upper
  bound, marked "(guided)". An event neither search reaches is "not
  possible on pod": it is counted apart (not in the median, the max or the
  per-round presses), and the story goes on from its state after the event.

  Every seat keeps one SeatControls for the whole story, as a real pod
  does: the acting pod starts each event from where its last one left it
  (focus, menus), every pod is shown every new state (``view``, as the hub
  refreshes the pods) and is back on its offers after a counter it changed
  by hand, on the first after a card clicked once (``tick_gone``: between
  two events the tick goes), and presses that the grammar forces (a select
  to reach another counter) are real presses. Chance the device draws itself
  (``rules.prepare``: the dice of a hide, Dale's animal decks) is taken
  from the story: a pod action of the same name as one of the event's
  actions, whose randomness the device would fill in, becomes the story's
  action (the cards and dice are the table's).

* TOUCH: the real app (``tablekeeper.ui.testing.Robot``, offscreen, one child
  process per story) plays every event, and counts the taps on the table
  screen and its dialogs (see :class:`TouchPlanner`); an action no way on the
  screen enters is not possible by touch, with the reason.

* PAPER: :func:`stories.paper_moves` per event (tokens moved).

Both the pod's and the touchscreen's final state must equal the story's
expectations (``story.expect``), or the benchmark fails.

A run of one player's events in a row whose actions all have one name (a first player lodging the
travellers card by card) is also played as one entry; ``turns_<game>_pod_presses_per_round_runs_as_one``
counts each such run as one where that takes fewer presses (:func:`runs_of`). Every other figure is
each event's own.

Per-round figures divide totals by the story's rounds: its ``rounds`` if it
says, else how many times the first player's turn starts (``first_player``
in the state, else whose turn it is at the start).
"""

import copy
import heapq
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

import stories as st  # noqa: E402  (bench/ is not a package)

#: The games with figures, by the story's key; token games must beat paper per round.
GAMES = ("red_dragon_inn", "bloody_inn", "dragon_run", "dale_of_merchants")
TOKEN_GAMES = ("red_dragon_inn", "bloody_inn", "dragon_run")
TITLES = {"red_dragon_inn": "Red Dragon Inn", "bloody_inn": "Bloody Inn", "dragon_run": "Dragon Run",
          "dale_of_merchants": "Dale of Merchants"}

MAX_PRESSES = 12
#: The guided search (one action at a time, told which): presses and nodes per action.
GUIDED_PRESSES = 60
GUIDED_NODES = 60000
#: Search nodes per event (``TURNS_MAX_NODES`` overrides): an event the pod cannot do costs the whole
#: budget (~3 ms a node with Bloody Inn's state), so a smaller budget is a quicker, rougher run.
MAX_NODES = int(os.environ.get("TURNS_MAX_NODES", "15000"))
#: ``--fast``: every story in minutes. Each event is first searched for told its actions (the guided
#: search), then blindly only for fewer presses than that found, with smaller bounds; an event the
#: blind search does not improve keeps the guided figure (an upper bound): the figures can only be
#: higher than the full run's. (2 500 blind nodes left a sixth-story event, two new market cards entered on a
#: pod that also offers its player's refill, unfound; 4 000 find it in the same time over the story.)
FAST_NODES, FAST_GUIDED_NODES = 4000, 8000
FAST = False
#: How many (state, action) → state results a pod's robot keeps (the latest).
APPLIED_KEPT = 4096
MAX_REPEATS = 40
#: A click's seconds (press and release, a finger's quick tap); holds and repeats use the pods' timing.
CLICK_S = 0.15
#: Goals (docs/benchmarks.md): per event, per Dale buy/stall.
GOAL_MEDIAN, GOAL_MAX, GOAL_DALE_STACK = 2, 6, 4


# -- presses ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Press:
    """One physical press: ``kind`` is "click", "long" or "held" (with ``repeats``)."""

    button: str
    kind: str
    repeats: int = 0

    def events(self) -> list[str]:
        from tablekeeper.hardware.pod import HOLD, PRESS, RELEASE, REPEAT

        if self.kind == "click":
            return [PRESS, RELEASE]
        return [PRESS, HOLD] + [REPEAT] * self.repeats + [RELEASE]

    def seconds(self) -> float:
        from tablekeeper.hardware.buttons import Timing

        t = Timing()
        if self.kind == "click":
            return CLICK_S
        return t.hold_time + self.repeats * t.repeat_interval + CLICK_S / 2

    def __str__(self) -> str:
        sign = {"up": "+", "down": "-", "select": "sel", "main": "OK"}.get(self.button, self.button)
        return {"click": sign, "long": f"{sign}~"}.get(self.kind, f"{sign}~{self.repeats}")


@dataclass
class PodResult:
    presses: list[Press] | None  # None: not reached within the bounds
    nodes: int
    controls: Any = None
    state: dict | None = None
    guided: bool = False  # found by the guided search: an upper bound, not the proven fewest
    split: list[tuple[str, int]] = field(default_factory=list)  # see EventCost.pod_split

    @property
    def count(self) -> int | None:
        return None if self.presses is None else len(self.presses)

    @property
    def seconds(self) -> float:
        return _seconds(self.presses or [])

    @property
    def clicks(self) -> int | None:
        """The presses with every scroll step of a held press counted as a click of its own."""
        return None if self.presses is None else sum(1 + p.repeats for p in self.presses)


def controls_key(controls) -> Any:
    key = getattr(controls, "key", None)
    if callable(key):
        return key()
    return (getattr(controls, "focus", None), getattr(controls, "pick", None))


def guided_key(controls) -> Any:
    """``controls_key`` for the guided search: in the menu and in an entry opened from it, the home
    screen's place behind them (its focus, the offer it showed) is left out. A pod keeps it to go back
    to; the guided search, told the action it must reach, never needs to, and without it the menu's
    lines are not searched once per home offer (the second Dale story's buy that leaves the turn open, a
    full entry at the menu's end, was out of its reach: ~140 lines times 81 offers)."""
    item = getattr(controls, "_item", None)
    if getattr(controls, "screen", None) == "menu" or (item is not None and item.ident[0] == "other"):
        home = ("focus", "_focused", "pick", "choosing", "_chosen")  # the home screen's place, by name
        assert all(hasattr(controls, name) for name in home), "SeatControls renamed its home fields"
        twin = copy.copy(controls)
        for name in home:
            setattr(twin, name, None)
        return twin.key()
    return controls_key(controls)


def state_key(state: dict) -> str:
    return json.dumps(state, sort_keys=True, default=repr)


class _FirstRng:
    """An rng that always draws the first value: only to see whether ``prepare`` fills something in."""

    def randrange(self, start, stop=None, step=1):
        return 0 if stop is None else start


def _numbers(value, out: list) -> list:
    if isinstance(value, bool):
        return out
    if isinstance(value, (int, float)):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _numbers(v, out)
    elif isinstance(value, list):
        for v in value:
            _numbers(v, out)
    return out


def repeat_bound(before: dict, after: dict, actions: list[dict]) -> int:
    """How many repeats a held press may need: the largest number the event changes or names, + 3."""
    a, b = _numbers(before, []), _numbers(after, [])
    biggest = max((abs(x - y) for x, y in zip(a, b)), default=0) if len(a) == len(b) else 0
    biggest = max([biggest] + [abs(x) for x in _numbers(actions, [])])
    return int(min(MAX_REPEATS, biggest + 3))


def in_parts(state: dict, action: dict) -> list[dict]:
    """``action`` as a pod enters it: Dale's market values for some of the five cards, one card at a time (the
    pod's "new card N" lines, or "set market…"'s position and value; the five together only at the opening
    deal). A third rulebook story's two cards turned up at once were "not possible" for the guided search,
    which follows the story's actions as written."""
    values = action.get("values")
    market = state.get("market")
    if action.get("action") != "set_market" or not isinstance(values, list) or not isinstance(market, list) \
            or all(c.get("value") is None for c in market):
        return [action]
    return [{"action": "set_market", "position": i + 1, "value": v} for i, v in enumerate(values) if v is not None]


def touched(a: Any, b: Any, path: tuple = (), depth: int = 4, out: set | None = None) -> set:
    """The places where two states differ, as paths of keys and list indexes, ``depth`` deep at most
    (a list of another length, or anything deeper, is one place)."""
    out = set() if out is None else out
    if a == b:
        return out
    if depth and isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() | b.keys():
            touched(a.get(k), b.get(k), path + (k,), depth - 1, out)
    elif depth and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            touched(x, y, path + (i,), depth - 1, out)
    else:
        out.add(path)
    return out


def on_the_way(rules, state: dict, target: dict, story_actions: list[dict]) -> set:
    """Every place the event changes: from ``state`` to ``target`` and to each state the story's own
    actions pass through (a hand emptied and drawn again is a place, though its count ends as it was)."""
    from tablekeeper.engine.errors import RuleError

    places = touched(state, target)
    s = state
    for action in story_actions:
        try:
            s = rules.apply(s, dict(action))[0]
        except RuleError:
            break
        touched(state, s, out=places)
    return places


class PodRobot:
    """Plays events on one seat's pod by searching over its presses (see the module doc)."""

    def __init__(self, rules, seat: int, *, max_presses: int = MAX_PRESSES, max_nodes: int = MAX_NODES,
                 guided_nodes: int = GUIDED_NODES):
        self.rules = rules
        self.seat = seat
        self.max_presses = max_presses
        self.max_nodes = max_nodes
        self.guided_nodes = guided_nodes  # per action of the guided search
        self._effects: dict[tuple, tuple[dict, bool]] = {}  # (state, offer, action): the offer does the same
        # (state, action) → the state after: the same action from the same state is the same state object, so
        # the pods' offers, cached by the state's identity, are worked out once (the searches reach one action
        # by many press sequences: a Dale story asked for its offers 57 000 times)
        self._applied: OrderedDict[tuple[int, str], tuple[dict, dict]] = OrderedDict()

    def _take(self, state: dict, action: dict, story_actions: list[dict]) -> dict:
        """The state after ``action``, as the owner applies it; raises RuleError when refused."""
        prepared = self.rules.prepare(state, dict(action), _FirstRng())
        if prepared != action:
            # the device would draw this itself: the table's draw is the story's — for the same
            # action, every field the pod gave (not only the name) as the story has it
            filled = set(prepared) - set(action)
            same = [a for a in story_actions if a.get("action") == action.get("action") and all(
                a.get(k, action.get(k)) == action.get(k, a.get(k))
                for k in (set(a) | set(action)) - filled)]
            if same:
                action = same[0]
        key = (id(state), json.dumps(action, sort_keys=True, default=str))
        hit = self._applied.get(key)
        if hit is not None and hit[0] is state:
            self._applied.move_to_end(key)
            return hit[1]
        after = self.rules.apply(state, action)[0]  # a refusal raises, and is not kept
        self._applied[key] = (state, after)  # the state is kept: its id cannot be reused meanwhile
        while len(self._applied) > APPLIED_KEPT:
            self._applied.popitem(last=False)
        return after

    def _settle(self, controls, intent, state: dict, story_actions: list[dict]) -> dict:
        """``intent`` answered as the owner answers it; the state after."""
        from tablekeeper.ui.pod.inputs import settle

        return settle(controls, intent, self.rules, state, lambda a: self._take(state, a, story_actions))[0]

    def feed(self, controls, button: str, kind: str, state: dict, story_actions: list[dict]) -> dict:
        """One button event: its intent's action applied (or refused); the pod's view refreshed."""
        from tablekeeper.hardware.pod import InputEvent

        intent = controls.handle(InputEvent(self.seat, button, kind), self.rules, state)
        return self._settle(controls, intent, state, story_actions)
        # no view: drawing one changes nothing in the controls (tests/hardware/test_controller.py)

    def split(self, controls, state: dict, presses: list[Press], story_actions: list[dict]) -> list[tuple[str, int]]:
        """Which press did which action: the presses replayed from (a copy of) ``controls`` and ``state``,
        each action the rules accepted paired with the presses since the previous one (its own cost)."""
        from tablekeeper.hardware.pod import InputEvent

        c, out, since = copy.deepcopy(controls), [], 0
        for press in presses:
            since += 1
            for kind in press.events():
                intent = c.handle(InputEvent(self.seat, press.button, kind), self.rules, state)
                if intent.action is None:
                    continue
                after = self._settle(c, intent, state, story_actions)
                if after != state:
                    out.append((str(intent.action.get("action", "?")), since))
                    since, state = 0, after
        return out

    def _moves(self, controls, state, story_actions, repeats: int):
        """Every press from (controls, state): (press, controls after, state after)."""
        from tablekeeper.hardware.pod import BUTTONS, HOLD, PRESS, RELEASE, REPEAT

        for button in BUTTONS:
            c = copy.deepcopy(controls)
            s = self.feed(c, button, PRESS, state, story_actions)
            s = self.feed(c, button, RELEASE, s, story_actions)
            yield Press(button, "click"), c, s
            c = copy.deepcopy(controls)
            s = self.feed(c, button, PRESS, state, story_actions)
            s = self.feed(c, button, HOLD, s, story_actions)
            for k in range(repeats + 1):  # every button repeats when held (a held main repeats a hit)
                if k:
                    before = (controls_key(c), s)
                    s = self.feed(c, button, REPEAT, s, story_actions)
                    if controls_key(c) == before[0] and s == before[1]:
                        break  # a repeat that changes nothing: more of them change nothing either
                c2 = copy.deepcopy(c)
                s2 = self.feed(c2, button, RELEASE, s, story_actions)
                yield Press(button, "held" if k else "long", k), c2, s2

    def play(self, controls, state: dict, target: dict, story_actions: list[dict] = ()) -> PodResult:
        """The fewest presses (then seconds) from (``controls``, ``state``) to ``target``."""
        story_actions = list(story_actions)
        if state == target:
            return PodResult([], 0, controls, state)
        repeats = repeat_bound(state, target, story_actions)
        tie = itertools.count()
        # Most presses only move the pod's own focus: the state is the very same object. Its key and
        # whether it is the target are worked out once per state object (kept alive here, so an id is
        # never reused), not once per node.
        known: dict[int, tuple[dict, str, bool]] = {}

        def look(s: dict) -> tuple[str, bool]:
            hit = known.get(id(s))
            if hit is None:
                hit = known[id(s)] = (s, state_key(s), s == target)
            return hit[1], hit[2]

        # A press that applies an action changing a place the event does not change is a wrong
        # turn (undoing it costs more presses than not taking it): the search does not go on from it.
        places = on_the_way(self.rules, state, target, story_actions)
        admissible: dict[int, bool] = {id(state): True}

        def fits(s: dict) -> bool:
            ok = admissible.get(id(s))
            if ok is None:
                look(s)  # keeps s alive: its id is not reused
                ok = admissible[id(s)] = touched(state, s) <= places
            return ok

        start = (controls_key(controls), look(state)[0])
        seen = {start}
        heap = [(0, 0.0, next(tie), controls, state, [])]
        nodes = 1
        while heap:
            n, secs, _t, c, s, path = heapq.heappop(heap)
            if n and look(s)[1]:
                return PodResult(path, nodes, c, s)
            if n >= self.max_presses:
                continue
            for press, c2, s2 in self._moves(c, s, story_actions, repeats):
                if s2 is not s and not fits(s2):
                    continue
                key = (controls_key(c2), look(s2)[0])
                if key in seen:
                    continue
                seen.add(key)
                nodes += 1
                heapq.heappush(heap, (n + 1, secs + press.seconds(), next(tie), c2, s2, path + [press]))
                if nodes >= self.max_nodes:
                    break
            if nodes >= self.max_nodes:
                # drain what is queued: a goal already generated is still found at its cost
                while heap:
                    n, secs, _t, c, s, path = heapq.heappop(heap)
                    if look(s)[1]:
                        return PodResult(path, nodes, c, s)
                break
        return PodResult(None, nodes)


    # -- the offer walk: from offer to offer ------------------------------------------------------------
    def _scrolls(self, controls, state: dict, story_actions: list[dict]) -> dict[int, tuple[list[Press], Any]]:
        """For each offer the pod's up/down can show from here, the fewest presses (then seconds) that
        show it, and the controls then: none for the one shown, a click or one held press else."""
        from tablekeeper.hardware.pod import DOWN, HOLD, PRESS, RELEASE, REPEAT, UP

        out: dict[int, tuple[list[Press], Any]] = {}
        if getattr(controls, "screen", None) != "home":
            return out
        actions, _labels, shown, _choosing = controls._offered(self.rules, state)  # new offers: the first
        n = len(actions)
        if not n:
            return out
        out[shown] = ([], controls)  # main does the offer shown, focus or not

        def keep(press: Press, c) -> None:
            had = out.get(c.pick % n)
            if had is None or (had[0] and press.seconds() < had[0][0].seconds()):
                out[c.pick % n] = ([press], c)

        for button in (UP, DOWN):
            c = copy.deepcopy(controls)
            s = self.feed(c, button, PRESS, state, story_actions)
            s = self.feed(c, button, RELEASE, s, story_actions)
            if s is state and c.choosing:
                keep(Press(button, "click"), c)
            c = copy.deepcopy(controls)
            s = self.feed(c, button, PRESS, state, story_actions)
            s = self.feed(c, button, HOLD, s, story_actions)
            for k in range(n + 2):
                if k:
                    s = self.feed(c, button, REPEAT, s, story_actions)
                if s is not state or not c.choosing:
                    break  # a held press that changes a counter is no scroll
                c2 = copy.deepcopy(c)
                self.feed(c2, button, RELEASE, s, story_actions)
                keep(Press(button, "held" if k else "long", k), c2)
        return out

    def offer_walk(self, controls, state: dict, target: dict, story_actions: list[dict], depth: int = 4,
                   fewer_than: int | None = None) -> PodResult:
        """The event as a few of the game's offers in a row, each reached by up/down from where the pod
        is and done by main (with main again on each step it asks, the value it starts at kept):
        the quick way to find a combination of offers (a technique with its effect, then the end of
        the turn) that the blind search's bounds do not reach. Every press is fed to the real controls
        and the actions applied by the rules; only states on the way to the event's are kept.
        ``fewer_than``: only ways of fewer presses count (a way found already): a path that cannot be
        shorter is not walked on (the same answer, without walking Dale's 100–170 offers deeper)."""
        from tablekeeper.hardware.pod import MAIN, PRESS, RELEASE

        places = on_the_way(self.rules, state, target, story_actions)
        frontier = [(controls, state, [])]
        best: PodResult | None = None
        nodes = 0
        for _ in range(depth):
            nxt: dict[str, tuple[Any, dict, list[Press]]] = {}
            for c, s, path in frontier:
                bound = min(len(best.presses or ()) if best is not None else float("inf"),
                            fewer_than if fewer_than is not None else float("inf"))
                if len(path) + 1 >= bound:  # one more offer is a press at least: no shorter way through here
                    continue
                for presses, c1 in self._scrolls(c, s, story_actions).values():
                    if len(path) + len(presses) + 1 >= bound:
                        continue
                    c2 = copy.deepcopy(c1)
                    s2 = self.feed(c2, MAIN, PRESS, s, story_actions)
                    s2 = self.feed(c2, MAIN, RELEASE, s2, story_actions)
                    done = presses + [Press(MAIN, "click")]
                    steps = 0
                    while s2 is s and getattr(c2, "screen", "home") != "home" and steps < 4:
                        s2 = self.feed(c2, MAIN, PRESS, s2, story_actions)
                        s2 = self.feed(c2, MAIN, RELEASE, s2, story_actions)
                        done.append(Press(MAIN, "click"))
                        steps += 1
                    nodes += 1
                    if s2 is s or not touched(state, s2) <= places:
                        continue
                    total = path + done
                    if s2 == target:
                        # the fewest presses, then the fewest seconds (as the blind search orders its ways: one
                        # offer's two presses may be a long held scroll or one click)
                        if best is None or (len(total), _seconds(total)) < (len(best.presses or ()), best.seconds):
                            best = PodResult(total, nodes, c2, s2)
                        continue
                    key = state_key(s2)
                    if key not in nxt or len(nxt[key][2]) > len(total):
                        nxt[key] = (c2, s2, total)
            frontier = list(nxt.values())
            if not frontier:
                break
        if len(story_actions) > 1:  # one offer asking values may stand for several of the story's actions
            bound = min(len(best.presses or ()) if best is not None else self.max_presses,
                        fewer_than if fewer_than is not None else self.max_presses)
            one = self._one_offer(controls, state, target, story_actions, others=best is None, fewer_than=bound)
            nodes += one.nodes
            if one.presses is not None and (best is None or len(one.presses) < len(best.presses or ())):
                best = PodResult(one.presses, nodes, one.controls, one.state)
        return best if best is not None else PodResult(None, nodes)

    def _one_offer(self, controls, state: dict, target: dict, story_actions: list[dict], *,
                   others: bool = True, fewer_than: int | None = None) -> PodResult:
        """The event as ONE offer with entry steps (a potion that draws two cards for the story's potion
        and draw; a room that gives two treasures for the story's charge and draw): for each offer that
        asks something, reached by up/down and opened by main, a blind search of its steps' values for
        the event's state, within small bounds — first the offers of the story's action names; then,
        with ``others`` and only if none of those did it, the offers of another action whose offered
        values change nothing the story leaves alone. ``fewer_than``: only ways of fewer presses count (a
        way found already), so each offer's entry is searched that much shallower."""
        from tablekeeper.engine.errors import RuleError
        from tablekeeper.hardware.pod import MAIN, PRESS, RELEASE

        names = {a.get("action") for a in story_actions}
        places = on_the_way(self.rules, state, target, story_actions)
        offers = controls._offered(self.rules, state)[0] if getattr(controls, "screen", None) == "home" else []
        best: PodResult | None = None
        nodes = 0
        scrolls = self._scrolls(controls, state, story_actions)
        own = [i for i in scrolls if offers and offers[i % len(offers)]["action"].get("action") in names]
        rest = [i for i in scrolls if i not in own]
        for i in own + rest:
            presses, c1 = scrolls[i]
            offer = offers[i % len(offers)] if offers else None
            if offer is None or not offer.get("ask"):
                continue
            if i not in own:
                if best is not None or not others:
                    break
                # another action: searched only if, as offered, it changes nothing the story leaves alone
                try:
                    if not touched(state, self.rules.apply(state, offer["action"])[0]) <= places:
                        continue
                except RuleError:
                    continue
            c2 = copy.deepcopy(c1)
            s2 = self.feed(c2, MAIN, PRESS, state, story_actions)
            s2 = self.feed(c2, MAIN, RELEASE, s2, story_actions)
            if s2 is not state or getattr(c2, "screen", None) != "entry":
                continue
            start = presses + [Press(MAIN, "click")]
            bound = min(len(best.presses or ()) if best is not None else self.max_presses,
                        fewer_than if fewer_than is not None else self.max_presses)
            room = bound - 1 - len(start)
            if room < 1:
                continue
            found = PodRobot(self.rules, self.seat, max_presses=room, max_nodes=3000).play(c2, state, target,
                                                                                         story_actions)
            nodes += found.nodes
            if found.presses is not None:
                best = PodResult(start + found.presses, nodes, found.controls, found.state)
        return best if best is not None else PodResult(None, nodes)

    # -- the guided search: one action at a time, told which ----------------------------------------
    def guided(self, controls, state: dict, story_actions: list[dict]) -> PodResult:
        """The event's actions one by one, each by the fewest presses the search finds when it knows
        the action it must reach: a branch whose menu item or entered values already disagree with
        that action is dropped, and so is one that applies another action. An upper bound for an
        event the blind search does not reach within its bounds (a long entry)."""
        from tablekeeper.engine.errors import RuleError

        presses: list[Press] = []
        nodes = 0
        for action in (part for a in story_actions for part in in_parts(state, a)):
            try:
                target = self.rules.apply(state, action)[0]
            except RuleError:
                return PodResult(None, nodes)
            result = self._guided_one(controls, state, target, action, story_actions)
            nodes += result.nodes
            if result.presses is None:
                return PodResult(None, nodes)
            presses += result.presses
            controls, state = result.controls, result.state
        return PodResult(presses, nodes, controls, state)

    def _consistent(self, c, state: dict, action: dict) -> bool:
        from tablekeeper.ui.pod import grammar as g

        item = getattr(c, "_item", None)
        if item is None:
            return True
        if item.action.get("action") != action.get("action"):
            return False
        asked = set(item.ask)  # an offer's value of an asked field is only where its step starts
        if any(k in action and action[k] != v for k, v in item.action.items() if k not in asked) and \
                not self._same_effect(state, item.action, asked, action):
            return False
        steps = g.asks(self.rules, state, c.player, item) or ()
        values = getattr(c, "_values", {})
        for i, ask in enumerate(steps):
            name = ask.field.name
            if name not in values:
                continue
            v = list(values[name]) if isinstance(values[name], tuple) else values[name]
            if i < c._step:
                want = action.get(name, ask.field.default)
                if v != want and not (name not in action and v in (None, False)):
                    return False
            elif i == c._step and ask.step == g.LIST:
                want = action.get(name) or []
                if v != want[:len(v)]:
                    return False
        return True

    def _may_do(self, c, state: dict, i: int, action: dict) -> bool:
        """Whether home offer ``i`` may do ``action``: the same action, and every field it gives
        without asking it the action's (a field the story leaves out is the device's to fill)."""
        offers = c._offered(self.rules, state)[0]
        offer = offers[i % len(offers)] if offers else None
        if offer is None or offer["action"].get("action") != action.get("action"):
            return False
        asked = set(offer.get("ask", ()))
        return all(action[k] == v for k, v in offer["action"].items() if k not in asked and k in action) or \
            self._same_effect(state, offer["action"], asked, action)

    def _same_effect(self, state: dict, given: dict, asked: set, action: dict) -> bool:
        """Whether an offer that gives a field otherwise than the story's action does the same to the game
        (a payment's cards in another order: «1+1+3+1» and the offer's «3+1+1+1»): applied with the
        story's values for what it asks, it reaches the action's own state."""
        from tablekeeper.engine.errors import RuleError

        key = (id(state), json.dumps(given, sort_keys=True, default=repr), json.dumps(action, sort_keys=True))
        hit = self._effects.get(key)
        if hit is not None and hit[0] is state:  # the state kept with its answer: an id is never reused
            return hit[1]
        merged = {**given, **{k: action[k] for k in asked if k in action}}
        try:
            known = self._take(state, merged, [action]) == self._take(state, action, [action])
        except RuleError:
            known = False
        self._effects[key] = (state, known)
        return known

    def _guided_one(self, controls, state, target, action, story_actions) -> PodResult:
        repeats = repeat_bound(state, target, [action])
        tie = itertools.count()
        seen = {guided_key(controls)}
        heap = [(0, 0.0, next(tie), controls, [])]
        nodes = 1
        while heap and nodes < self.guided_nodes:
            n, secs, _t, c, path = heapq.heappop(heap)
            if n >= GUIDED_PRESSES:
                continue
            # Besides every button's press (holds up to the event's numbers), on the home screen each
            # offer that may do this action in one press: up or down held until it shows, as a player
            # holds it (its seconds count)
            scrolls = [(presses[0], c1, state) for i, (presses, c1) in self._scrolls(c, state, story_actions).items()
                       if presses and self._may_do(c1, state, i, action)]
            for press, c2, s2 in itertools.chain(self._moves(c, state, story_actions, repeats), scrolls):
                if s2 is not state:
                    if s2 == target:
                        return PodResult(path + [press], nodes, c2, s2)
                    continue  # another action was applied: not this way
                key = guided_key(c2)
                if key in seen or not self._consistent(c2, state, action):
                    continue
                seen.add(key)
                nodes += 1
                heapq.heappush(heap, (n + 1, secs + press.seconds(), next(tie), c2, path + [press]))
        return PodResult(None, nodes)


# -- one story ------------------------------------------------------------------------------------
@dataclass
class EventCost:
    say: str
    who: str
    actions: list[str]
    paper: int
    pod: int | None = None  # presses; None: not possible on pod
    pod_seconds: float = 0.0
    pod_clicks: int | None = None  # the presses with a held press's scroll steps counted as clicks
    pod_how: str = ""
    pod_guided: bool = False  # its presses come from the guided search (an upper bound)
    pod_nodes: int = 0
    #: (action, presses) for each action the pod's presses did, in order: the presses from the end
    #: of the event's previous action (or its start) to the press that did this one
    pod_split: list[tuple[str, int]] = field(default_factory=list)
    touch: int | None = None  # touches; None: not possible by touch (or not measured)
    touch_how: str = ""
    routine: bool = True  # the story's flag: the goals are over routine events
    kind: str = ""  # the kind of event, as the rulebook story names it (or the actions)

    @property
    def free(self) -> bool:
        """Nothing to enter: the device knows it, or does it by itself."""
        return not self.actions


@dataclass
class StoryCost:
    story: Any
    rounds: int
    events: list[EventCost] = field(default_factory=list)
    touch_error: str = ""
    #: (first, last, presses, seconds): runs of one player's events entered as one (see ``play_pod``)
    runs: list[tuple[int, int, int, float]] = field(default_factory=list)


def first_player(state: dict) -> str | None:
    first = state.get("first_player")
    if isinstance(first, str):
        return first
    turn = state.get("turn")
    return turn.get("player") if isinstance(turn, dict) else None


def count_rounds(states: list[dict]) -> int:
    """How many times the first player's turn starts over ``states`` (the setup's, then each event's)."""
    if not states:
        return 1
    first = first_player(states[0]) or states[0]["players"][0]["name"]
    rounds, was = 0, None
    for s in states:
        turn = s.get("turn")
        who = turn.get("player") if isinstance(turn, dict) else None
        f = s.get("first_player") if isinstance(s.get("first_player"), str) else first
        if who == f and was != f:
            rounds += 1
        was = who if who is not None else was
    return max(1, rounds)


def _on_pods(rules, event, state: dict, after: dict, on_pod, controls) -> PodResult:
    """The event's actions grouped by who does them (``rules.actor``, then "player"), each group played
    on that player's pod from the state the previous group left; the presses add up. Not possible when
    there is only one group and it is the event's own player's (tried already) or the game does not say
    who does its actions, or a group no pod reaches. (One group of another player's, every action's doer
    named by the game: a referee's question the story gave the player who asked, which the device counts
    as the buyer's; a card played on another player stays its player's to enter.)"""
    groups: list[tuple[str, list[dict], dict]] = []
    s = state
    # whether the game itself names who does every action (a buy's buyer), not a field that may name
    # another (an adjust's "player" is whose counter changes)
    by_actor = True
    for action in event.actions:
        actor = rules.actor(s, action)
        by_actor = by_actor and actor is not None
        who = actor or action.get("player") or event.who
        s = rules.apply(s, dict(action))[0]
        if groups and groups[-1][0] == who:
            groups[-1] = (who, groups[-1][1] + [action], s)
        else:
            groups.append((who, [action], s))
    if (len(groups) < 2 and (not groups or groups[0][0] == event.who or not by_actor)) or s != after:
        return PodResult(None, 0)
    presses: list[Press] = []
    split: list[tuple[str, int]] = []
    nodes, guided = 0, False
    for who, actions, target in groups:
        if who not in controls:
            who = event.who
        result = on_pod(who, state, target, actions)
        if result.presses is None and who != event.who:
            who = event.who
            result = on_pod(who, state, target, actions)
        nodes += result.nodes
        if result.presses is None:
            return PodResult(None, nodes)
        presses += result.presses
        split += result.split
        guided = guided or result.guided
        controls[who] = result.controls
        state = result.state
        for c in controls.values():  # every pod is shown the new state, as the owner publishes it
            c.view(rules, state)
    out = PodResult(presses, nodes, None, state, guided=guided)
    out.split = split
    return out


def _guided_first(robot: PodRobot, controls, state: dict, target: dict, actions: list[dict]) -> PodResult:
    """``--fast``: the guided search first (quick: told each action), then the blind search only for
    fewer presses than it found; the blind result when it finds one, else the guided one (an upper
    bound, marked so).

    Before either, one offer that does the whole event (a technique line with its clean-up for the story's
    technique and end of turn, a long held press away): a walk over the offers, quick, where the guided
    search goes through a long list line by line (three sixth-story Dale events cost 45–50 s of it each for
    the same two presses); two presses are the fewest once no single press does it."""
    walk = robot.offer_walk(controls, state, target, actions, depth=1, fewer_than=3)
    if walk.presses is not None and len(walk.presses) <= 2:
        if len(walk.presses) == 2:
            one = PodRobot(robot.rules, robot.seat, max_presses=1, max_nodes=robot.max_nodes,
                           guided_nodes=robot.guided_nodes).play(controls, state, target, actions)
            if one.presses is not None:
                one.nodes += walk.nodes
                return one
            walk.nodes += one.nodes
        return walk
    tried = robot.guided(controls, state, actions)
    if tried.presses is None or tried.state != target:
        blind = robot.play(controls, state, target, actions)
        if blind.presses is not None or robot.guided_nodes >= GUIDED_NODES:
            return blind
        # Reached by neither within the fast bounds, nor by one offer: the full run's guided budget before
        # "not possible", so that a fast run's impossible event is the pod's, not its budget's.
        full = PodRobot(robot.rules, robot.seat, max_presses=robot.max_presses, max_nodes=robot.max_nodes,
                        guided_nodes=GUIDED_NODES).guided(controls, state, actions)
        nodes = tried.nodes + blind.nodes + full.nodes
        if full.presses is not None and full.state == target:
            return PodResult(full.presses, nodes, full.controls, full.state, guided=True)
        return PodResult(None, nodes)
    if len(tried.presses) <= 1:
        return PodResult(tried.presses, tried.nodes, tried.controls, tried.state)  # one press: the fewest
    blind = PodRobot(robot.rules, robot.seat, max_presses=min(len(tried.presses) - 1, robot.max_presses),
                     max_nodes=robot.max_nodes,
                     guided_nodes=robot.guided_nodes).play(controls, state, target, actions)
    if blind.presses is not None:
        blind.nodes += tried.nodes
        return blind
    # the blind search went through every way with fewer presses (it stopped short of its node bound):
    # the guided figure is the fewest, not only an upper bound
    proven = blind.nodes < robot.max_nodes and robot.max_presses >= len(tried.presses) - 1
    return PodResult(tried.presses, tried.nodes + blind.nodes, tried.controls, tried.state, guided=not proven)


def _seconds(presses: list[Press]) -> float:
    return sum(p.seconds() for p in presses)


def runs_of(played) -> list[tuple[int, int]]:
    """Runs of one player's events of one kind in a row (0-based first and last index, two events or
    more): each event needs an entry and every action in the run has the same name — a first player
    lodging eight travellers, card by card. At a table they are entered as one when the pod takes them
    as one (see :func:`play_pod`'s ``runs``)."""
    out: list[tuple[int, int]] = []
    start = None
    for i, (event, _b, _a) in enumerate(played):
        names = {a.get("action") for a in event.actions}
        prev = played[start][0] if start is not None else None
        same = (prev is not None and len(names) == 1 and event.who == prev.who and event.routine == prev.routine
                and names == {a.get("action") for a in prev.actions})
        if not same:
            if start is not None and i - 1 > start:
                out.append((start, i - 1))
            start = i if len(names) == 1 else None
    if start is not None and len(played) - 1 > start:
        out.append((start, len(played) - 1))
    return out


def play_pod(story, played=None, *, max_presses: int = MAX_PRESSES, max_nodes: int = MAX_NODES,
             guided_nodes: int = GUIDED_NODES, log=None, runs: list | None = None) -> list[PodResult]:
    """Every event on its actor's pod; one SeatControls per seat, carried through the story.

    ``runs``: when a list, each run of :func:`runs_of` is also played as one entry, from the state and
    the pod before its first event to the state after its last, and ``(first, last, presses, seconds)``
    appended for each run that costs fewer presses so (the events' own figures are unchanged).

    Raises :class:`stories.StoryError` if the pod's final state misses the story's expectations.
    """
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = st.rules_of(story)
    played = played if played is not None else st.play(story)
    seats = {name: i + 1 for i, name in enumerate(story.players)}
    controls = {name: SeatControls(seats[name], name) for name in story.players}
    state = played[0][1] if played else rules.setup_state()
    for c in controls.values():
        c.view(rules, state)
    out = []
    starts = {first: last for first, last in runs_of(played)} if runs is not None else {}
    run_start: tuple[int, int, Any, dict] | None = None  # (first, last, the pod before it, the state)
    for i, (event, before, after) in enumerate(played, 1):
        if i - 1 in starts:
            run_start = (i - 1, starts[i - 1], copy.deepcopy(controls[event.who]), before)
        if state != before:
            raise st.StoryError(f"{story.path.name}: event {i}: the pod's state is not the story's")
        def on_pod(who, state, target, actions, fewer_than=None):
            # fewer_than: only a way of fewer presses counts (a run as one entry against its events' own)
            robot = PodRobot(rules, seats[who], max_presses=min(max_presses, (fewer_than or max_presses + 1) - 1),
                             max_nodes=max_nodes, guided_nodes=guided_nodes)
            start = copy.deepcopy(controls[who])
            if FAST:
                result = _guided_first(robot, controls[who], state, target, actions)
            else:
                result = robot.play(controls[who], state, target, actions)
            if result.presses is None and not FAST:  # beyond the blind search's bounds: the guided one gives an upper bound
                tried = robot.guided(controls[who], state, actions)
                if tried.presses is not None and tried.state == target:
                    result = PodResult(tried.presses, result.nodes + tried.nodes, tried.controls,
                                       tried.state, guided=True)
                else:
                    result.nodes += tried.nodes
            # the offer walk may find a combination of offers, or one offer a long held press away that the blind
            # search's holds do not reach (it stops at the event's numbers: a select that jumps to a kind of
            # offer gave it a 4-press way to a line one hold of 36 steps shows)
            if result.presses is None or result.guided or len(result.presses) > 2:
                bound = min(fewer_than or max_presses + 1, max_presses + 1 if result.presses is None
                            else len(result.presses))
                walk = robot.offer_walk(controls[who], state, target, actions,
                                        fewer_than=None if bound > max_presses else bound)
                if walk.presses is not None and (result.presses is None or len(walk.presses) < len(result.presses)):
                    walk.nodes += result.nodes
                    walk.guided = True  # not proven the fewest: an upper bound, as the guided search's
                    result = walk
            if result.presses is not None:
                result.split = robot.split(start, state, result.presses, actions)
            return result

        result = on_pod(event.who, state, after, event.actions)
        if result.presses is None:
            # An event several players enter, each on their own pod (a drink event: every player's card
            # from the deck): its actions in turns of whoever does them, each turn on that player's pod
            # (or on the acting player's, if theirs cannot).
            result = _on_pods(rules, event, state, after, on_pod, controls)
        elif len(result.presses) > 2 and len(event.actions) > 1:
            # one pod can enter it all, the others' through its menu (a ninth story's round where each
            # player buys a drink for another: 29 presses on the first buyer's pod); each player's own pod
            # may take fewer, as a table enters it
            kept = {name: copy.deepcopy(c) for name, c in controls.items()}
            apart = _on_pods(rules, event, state, after, on_pod, controls)
            if apart.presses is not None and len(apart.presses) < len(result.presses):
                result = apart
            else:
                controls.update(kept)
        guided = result.guided
        if result.presses is not None:
            if result.controls is not None:
                controls[event.who] = result.controls
            state = result.state
        else:
            state = after  # done some other way; the story goes on
        for c in controls.values():
            # between two events a table takes longer than a tick: a pod whose counter was changed by hand is on the
            # offers again, one on a card clicked once on its first offer, as the owner's seats put it once its ✓ goes
            c.tick_gone(rules)
            c.view(rules, state)
        if log:
            how = " ".join(map(str, result.presses)) if result.presses is not None else "NOT POSSIBLE"
            how = f"[guided {len(result.presses or ())}] " + how if guided else how
            log(f"  {i:3} {event.who:>6} pod {how:<24} ({result.nodes} nodes)  {event.say}")
        out.append(result)
        if run_start is not None and run_start[1] == i - 1:
            first, last, pod, start_state = run_start
            run_start = None
            each = out[first:last + 1]
            if all(r.presses is not None for r in each):
                actions = [a for e, _b, _a in played[first:last + 1] for a in e.actions]
                saved, controls[event.who] = controls[event.who], pod
                together = on_pod(event.who, start_state, after, actions,
                                  fewer_than=sum(len(r.presses) for r in each))
                controls[event.who] = saved
                if together.presses is not None and len(together.presses) < sum(len(r.presses) for r in each):
                    runs.append((first, last, len(together.presses), together.seconds))
                    if log:
                        log(f"      events {first + 1}–{last + 1} as one entry: "
                            f"{' '.join(map(str, together.presses))}")
    bad = st.mismatches(state, story.expect)
    if played and state != played[-1][2]:
        bad.append("the pod's final state is not the story's")
    if bad:
        raise st.StoryError(f"{story.path.name}: the pod's final state: " + "; ".join(bad))
    return out


def measure(story, *, touch: bool = True, log=None, max_nodes: int = MAX_NODES,
            guided_nodes: int = GUIDED_NODES) -> StoryCost:
    played = st.play(story)
    states = [played[0][1]] + [after for _e, _b, after in played] if played else []
    cost = StoryCost(story, story.rounds or count_rounds(states))
    for event, before, after in played:
        paper = event.paper_moves if event.paper_moves is not None else st.paper_moves(story, before, after)
        cost.events.append(EventCost(event.say, event.who, [a.get("action", "?") for a in event.actions], paper,
                                     routine=event.routine))
    for ec, kind in zip(cost.events, _kinds(story)):
        ec.kind = kind
    for ec, result in zip(cost.events, play_pod(story, played, log=log, max_nodes=max_nodes,
                                                guided_nodes=guided_nodes, runs=cost.runs)):
        ec.pod = result.count
        ec.pod_seconds = round(result.seconds, 2)
        ec.pod_clicks = result.clicks
        ec.pod_how = " ".join(map(str, result.presses)) if result.presses is not None else ""
        ec.pod_how = f"(guided) {ec.pod_how}" if result.guided else ec.pod_how
        ec.pod_guided = result.guided
        ec.pod_nodes = result.nodes
        ec.pod_split = list(result.split)
    if touch:
        touches = run_touch(story.path)
        if "error" in touches:
            raise st.StoryError(f"{story.path.name}: touch: {touches['error']}")
        for ec, t in zip(cost.events, touches["events"]):
            ec.touch, ec.touch_how = t["touches"], t["how"]
    return cost


# -- touch (a child process per story) ----------------------------------------------------------------
def _env(tmp: Path) -> dict:
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(k, None)
    env.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp / "kivy"), "XDG_CACHE_HOME": str(tmp / "cache"),
                "LANG": "C.UTF-8", "KIVY_NO_ARGS": "1"})
    (tmp / "kivy").mkdir(exist_ok=True)
    return env


def run_touch(story_path: Path, timeout: float = 900) -> dict:
    """Play ``story_path`` through the app in a child process: ``{"events": [{"touches", "how"}...]}``."""
    with tempfile.TemporaryDirectory(prefix="tk-bench-turns-") as d:
        tmp = Path(d)
        out = subprocess.run([sys.executable, str(HERE), "touch", str(story_path), str(tmp / "state")],
                             env=_env(tmp), capture_output=True, text=True, timeout=timeout)
    line = next((x for x in out.stdout.splitlines() if x.startswith("TOUCHES ")), None)
    if line is None:
        return {"error": f"the touch robot failed (exit {out.returncode}):\n{out.stderr[-3000:]}"}
    return json.loads(line[len("TOUCHES "):])


KEYBOARD = set("QWERTYUIOPASDFGHJKLÑZXCVBNM-")


def _typable(text) -> bool:
    """A text the on-screen keyboard types: letters and "-", a capital only at a word's start."""
    if not isinstance(text, str) or not text:
        return False
    plain = "".join({v: k for k, v in __import__("tablekeeper.ui.widgets", fromlist=["Keyboard"])
                     .Keyboard.ACCENTED.items()}.get(c, c) for c in text)
    if not all(c.upper() in KEYBOARD for c in plain):
        return False
    return all((c.isupper() if i == 0 or plain[i - 1] == "-" else not c.isupper() or c == "-")
               for i, c in enumerate(plain) if c != "-")


class TouchPlanner:
    """Which taps enter one engine action on the table screen; every plan is checked by a dry run.

    Ways tried (the cheapest whose effect on the state is the action's): a player card's routine
    buttons (``table.<name>.do.<i>``); for an adjustment, the card's ± buttons or the counter's
    dialog (±1/±5, then Close); the table's counters dialog; a transfer through the giver's
    counter dialog (Give to, Amount, Give); ``table.resolve``; else the "More actions" form
    (pick the action, set each field the story gives: chips, steppers, digit keys, the on-screen
    keyboard; Do it). A tap is one touch; a typed key is one touch (an accent two).
    """

    def __init__(self, rules, exists):
        self.rules = rules
        self.exists = exists  # tid -> bool (is it on the screen now)

    def effect(self, state, actions) -> dict | None:
        from tablekeeper.engine.errors import RuleError

        try:
            for a in actions:
                state = self.rules.apply(state, a)[0]
        except RuleError:
            return None
        return state

    def plans(self, state, action):
        """Candidate plans: (steps, engine actions they send, how)."""
        from tablekeeper.ui.forms import touch_actions

        name = action.get("action")
        if not state["over"]:
            for p in state["players"]:
                for i, a in enumerate(touch_actions(self.rules, state, p["name"])[:2]):  # the card's buttons
                    yield [("tap", f"table.{p['name']}.do.{i}")], [a["action"]], "card button"
        if name == "adjust" and isinstance(action.get("delta"), int):
            yield from self._adjust(action)
        elif name == "transfer":
            yield from self._transfer(state, action)
        elif name == "resolve":
            yield [("tap", "table.resolve")], [action], "resolve"
        if name not in ("adjust", "transfer", "resolve"):
            form = self._form(state, action)
            if form is not None:
                yield form

    def _adjust(self, action):
        who, counter, delta = action.get("player"), action["counter"], action["delta"]
        one = {k: v for k, v in action.items() if k != "delta"}
        sign = 1 if delta > 0 else -1
        if who is not None:
            tid = f"table.{who}.{counter}.{'plus' if delta > 0 else 'minus'}"
            if self.exists(tid) and abs(delta) <= 40:
                yield [("tap", tid)] * abs(delta), [dict(one, delta=sign)] * abs(delta), "card ±"
            opener, base = [("tap", f"table.{who}.{counter}.value")], "adjust"
        else:
            opener, base = [("tap", "table.info")], f"adjust.{counter}"
        n = abs(delta)
        for fives, ones in ((n // 5, n % 5), (n // 5 + 1, n % 5 - 5)):
            steps, sent = list(opener), []
            for step, count in ((5 * sign, fives), (sign if ones >= 0 else -sign, abs(ones))):
                steps += [("tap", f"{base}.{step:+d}")] * count
                sent += [dict(one, delta=step)] * count
            yield steps + [("tap", "adjust.close")], sent, "counter dialog"

    def _transfer(self, state, action):
        giver, taker, counter, amount = action.get("from"), action.get("to"), action.get("counter"), action.get("amount")
        if not (isinstance(amount, int) and amount >= 1):
            return
        others = [p["name"] for p in state["players"] if p["name"] != giver and not p["out"]]
        steps = [("tap", f"table.{giver}.{counter}.value")]
        if others and taker != others[0]:
            steps.append(("tap", f"adjust.to.{taker}"))
        steps += [("tap", "adjust.amount.plus")] * (amount - 1)
        steps += [("tap", "adjust.give"), ("tap", "adjust.close")]
        yield steps, [{"action": "transfer", "from": giver, "to": taker, "counter": counter, "amount": amount}], \
            "counter dialog: give"

    def _form(self, state, action):
        """The "More actions" form: (steps, [the action it sends], how), or None if a field cannot be entered."""
        from tablekeeper.ui.forms import action_fields, game_actions

        name = action["action"]
        names = game_actions(self.rules)
        if name not in names:
            return None
        steps = [("tap", "table.more")]
        if name != names[0]:
            steps.append(("tap", f"actions.pick.{name}"))
        players = [p["name"] for p in state["players"] if not p["out"]]
        turn = state.get("turn") or {}
        sent = {"action": name}
        for f in action_fields(self.rules, name):
            tid = f"actions.field.{f.name}"
            start = (self.rules.actor(state, {"action": name}) or turn.get("player")) if f.name == "player" else None
            start = start if start is not None else f.default
            kind = "player" if f.kind == "raw" and f.name in ("player", "winner") else f.kind
            want = action.get(f.name, "_absent")
            if kind in ("player", "bool") or (kind == "str" and f.choices):
                values = players if kind == "player" else [True, False] if kind == "bool" else list(f.choices)
                have = ([start] if start in values else []) if kind != "bool" else [bool(start)]
                allow_none = not f.required and kind != "bool"
                if want == "_absent" or want == (have[0] if have else None):
                    value = have[0] if have else None
                elif want is None and allow_none:
                    steps.append(("tap", f"{tid}.{have[0]}"))
                    value = None
                elif want in values:
                    steps.append(("tap", f"{tid}.{want}"))
                    value = want
                else:
                    return None
            elif kind == "int":
                value = start if isinstance(start, int) else (None if not f.required else (f.lo or 0))
                if want != "_absent" and want != value:
                    if not isinstance(want, int):
                        return None
                    for _i in range(60):
                        if value == want:
                            break
                        d = 1 if want > (value if value is not None else 0) or (
                            value is None and f.lo is not None) else -1
                        steps.append(("tap", f"{tid}.{'plus' if d > 0 else 'minus'}"))
                        base = value if value is not None else (f.lo if f.lo is not None else 0) - (
                            d if f.lo is not None else 0)
                        value = base + d
                        value = max(f.lo, value) if f.lo is not None else value
                        value = min(f.hi, value) if f.hi is not None else value
                    if value != want:
                        return None
            elif kind == "ints":
                have = list(start) if isinstance(start, list) else []
                top = max(9, min(f.hi if f.hi is not None else 10, 10))
                if want == "_absent" or want == have:
                    value = have if (have or f.required) else None
                else:
                    if not isinstance(want, list) or not all(isinstance(v, int) and 0 <= v <= top for v in want):
                        return None
                    steps += [("tap", f"{tid}.back")] * len(have) + [("tap", f"{tid}.{v}") for v in want]
                    value = list(want) if (want or f.required) else None
            else:  # text on the on-screen keyboard
                have = str(start) if start not in (None, "") else ""
                if want == "_absent" or want == have:
                    value = start if have else None
                elif _typable(want):
                    steps += [("tap", tid), ("type", want), ("tap", "text.ok")]
                    value = want
                else:
                    return None
            if not f.required and f.default is not None and value == f.default:
                value = None
            if value is not None:
                sent[f.name] = value
        return steps + [("tap", "actions.do")], [sent], "form"

    def plan(self, state, action):
        """The cheapest plan that does what ``action`` does: (steps, how, touches), or (None, why, 0)."""
        target = self.effect(state, [action])
        if target is None:
            return None, "refused by the engine", 0
        if state["over"]:
            return None, "the game is over: the end screen offers undo, not this action", 0
        best = None
        for steps, sent, how in self.plans(state, action):
            cost = sum(len(x[1]) + sum(ch in "ÁÉÍÓÚáéíóú" for ch in x[1]) if x[0] == "type" else 1
                       for x in steps)
            if steps and not self.exists(steps[0][1]):
                continue  # its first button is not on the screen now (a last-chance banner hides the footer)
            if (best is None or cost < best[2]) and self.effect(state, sent) == target:
                best = (steps, how, cost)
        if best is None:
            fields = [f.name for f in __import__("tablekeeper.ui.forms", fromlist=["x"]).action_fields(
                self.rules, action.get("action"))] if action.get("action") in self.rules.actions else []
            return None, (f"no way on the table screen gives the same state (action {action.get('action')!r}, "
                          f"fields {fields}: a value the form cannot enter, or chance the device draws)"), 0
        return best


def play_touch(story, state_dir: str) -> dict:
    """Play ``story`` in the real app (this process must be the only Kivy one): touches per event."""
    from tablekeeper.engine import Journal, Session
    from tablekeeper.ui.testing import Robot

    played = st.play(story, check=False)  # the app's own final state is checked below
    with Journal(state_dir) as journal:
        Session.new(journal, story.game, story.players, story.options)
    r = Robot.start(state_dir, lang="en")
    try:
        rules = r.app.snapshot.table.rules
        planner = TouchPlanner(rules, r.exists)
        out = []
        for i, (event, before, _after) in enumerate(played, 1):
            state = r.app.snapshot.table.state
            if state != before:
                raise st.StoryError(f"{story.path.name}: event {i}: the app's state is not the story's")
            touches, hows, why = 0, [], ""
            for action in event.actions:
                state = r.app.snapshot.table.state
                steps, how, cost = planner.plan(state, action)
                target = rules.apply(state, action)[0]
                if steps is None:
                    why = why or how
                    r.app.submit(dict(action))  # done some other way: the story goes on
                    r.settle()
                else:
                    for kind, what in steps:
                        if kind == "tap":
                            r.tap(what)
                        else:
                            r.type(what, kb="text.kb")
                    r.settle()
                    touches += cost
                    hows.append(f"{how}: " + " ".join(w if k == "tap" else repr(w) for k, w in steps))
                if r.app.snapshot.table.state != target:
                    raise st.StoryError(f"{story.path.name}: event {i} ({event.say}): after "
                                        f"{steps or 'a direct submit'} the app's state is not the story's "
                                        f"({r.app.toast.label.text!r})")
            out.append({"touches": None if why else touches, "how": why or "; ".join(hows)})
        final = r.app.snapshot.table.state
        bad = st.mismatches(final, story.expect)
        if played and final != played[-1][2]:
            bad.append("the app's final state is not the story's")
        if bad:
            raise st.StoryError(f"{story.path.name}: the app's final state: " + "; ".join(bad))
        return {"events": out}
    finally:
        r.stop()


def _child_touch(story_path: str, state_dir: str) -> None:
    try:
        result = play_touch(st.load(story_path), state_dir)
    except st.StoryError as e:
        result = {"error": str(e)}
    print("TOUCHES " + json.dumps(result, default=str), flush=True)


def _kinds(story) -> list[str]:
    """Each event's kind: the rulebook story's ``kind`` when the story is its translation (``from_story``),
    else the event's own, else its actions."""
    raw = json.loads(Path(story.path).read_text(encoding="utf-8"))
    source = raw.get("from_story")
    events = raw.get("events", [])
    if source:
        origin = Path(__file__).resolve().parent.parent / source
        if origin.exists():
            events = json.loads(origin.read_text(encoding="utf-8")).get("events", events)
    out = []
    for i, event in enumerate(raw.get("events", [])):
        kind = events[i].get("kind") if i < len(events) else None
        out.append(kind or event.get("kind") or "+".join(a.get("action", "?") for a in event.get("actions", []))
                   or "nothing to enter")
    return out


def by_kind(cost: StoryCost) -> list[dict]:
    """Per kind of event: how many, presses (median, max, sum), clicks, paper — the docs' "Pods" tables."""
    kinds: dict[str, list[EventCost]] = {}
    for e in cost.events:
        kinds.setdefault(e.kind, []).append(e)
    rows = []
    for kind, events in kinds.items():
        pods = [e.pod for e in events if e.pod is not None]
        rows.append({"kind": kind, "events": len(events), "free": all(e.free for e in events),
                     "presses_median": statistics.median(pods) if pods else None,
                     "presses_max": max(pods) if pods else None, "presses": sum(pods),
                     "clicks": sum(e.pod_clicks or 0 for e in events),
                     "paper": sum(e.paper for e in events), "not_possible": len(events) - len(pods)})
    rows.sort(key=lambda r: (-r["presses"], r["kind"]))
    return rows


# -- figures ----------------------------------------------------------------------------------------
def figures(cost: StoryCost) -> dict:
    g = cost.story.key
    # The goals (median, max, none impossible) are over routine events that need an entry (an event the
    # device knows or does alone is free: counted apart); every event possible on the pod counts in the
    # per-round presses, routine or not.
    free = [e for e in cost.events if e.free]
    routine = [e for e in cost.events if e.routine and not e.free]
    pod = [e.pod for e in routine if e.pod is not None]
    impossible = [e for e in cost.events if e.pod is None]
    other = [e for e in cost.events if not e.routine]
    touch = [e.touch for e in cost.events if e.touch is not None]
    no_touch = [e for e in cost.events if e.touch is None]
    paper = sum(e.paper for e in cost.events)
    r = cost.rounds
    saved = sum(sum(e.pod or 0 for e in cost.events[a:b + 1]) - n for a, b, n, _s in cost.runs)
    note = f"{len(cost.events)} events, {r} rounds ({cost.story.path.name})"
    out = {
        f"turns_{g}_pod_median_presses_per_event": {
            "value": statistics.median(pod) if pod else None, "unit": "presses", "goal": f"<= {GOAL_MEDIAN}",
            "note": note + f"; routine events possible on the pod ({len(other)} not routine, apart)"},
        f"turns_{g}_pod_max_presses_per_event": {
            "value": max(pod) if pod else None, "unit": "presses", "goal": f"<= {GOAL_MAX}",
            "worst": next((f"{e.say} [{e.pod_how}]" for e in routine if pod and e.pod == max(pod)), "")},
        f"turns_{g}_pod_not_routine_presses": {
            "value": [e.pod for e in other], "unit": "presses",
            "note": "events the story marks not routine (setup, corrections): not in the median or max",
            "events": [e.say for e in other]},
        f"turns_{g}_pod_presses_per_round": {
            "value": round(sum(e.pod for e in cost.events if e.pod is not None) / r, 2), "unit": "presses/round",
            "note": "presses of the events possible on the pod (routine or not) / rounds"},
        f"turns_{g}_pod_presses_per_round_runs_as_one": {
            "value": round((sum(e.pod for e in cost.events if e.pod is not None) - saved) / r, 2),
            "unit": "presses/round", "runs": [f"events {a + 1}–{b + 1}: {n} presses" for a, b, n, _s in cost.runs],
            "note": "as pod_presses_per_round, but a run of one player's events of one kind in a row (a first "
                    "player lodging the travellers card by card) entered as one where that takes fewer presses"},
        f"turns_{g}_pod_seconds_per_round": {
            "value": round(sum(e.pod_seconds for e in cost.events) / r, 2), "unit": "s/round",
            "note": "button time only: clicks, holds and repeats"},
        f"turns_{g}_pod_clicks_per_round": {
            "value": round(sum(e.pod_clicks or 0 for e in cost.events) / r, 2), "unit": "clicks/round",
            "note": "the presses with every scroll step of a held press counted as a click"},
        f"turns_{g}_free_events": {
            "value": len(free), "unit": "events",
            "note": "events with nothing to enter (the device knows or does it): not in the median or max"},
        f"turns_{g}_pod_by_kind": {"value": by_kind(cost), "unit": "rows"},
        f"turns_{g}_paper_moves_per_round": {"value": round(paper / r, 2), "unit": "moves/round"},
        f"turns_{g}_events_not_possible_on_pod": {
            "value": len(impossible), "unit": "events", "goal": "0",
            "events": [e.say for e in impossible]},
    }
    if g in TOKEN_GAMES:
        out[f"turns_{g}_pod_presses_per_round"]["goal"] = f"< paper ({round(paper / r, 2)})"
    if any(e.touch is not None or e.touch_how for e in cost.events):
        out[f"turns_{g}_touch_median_touches_per_event"] = {
            "value": statistics.median(touch) if touch else None, "unit": "touches",
            "max": max(touch) if touch else None, "per_round": round(sum(touch) / r, 2),
            "not_possible": [f"{e.say}: {e.touch_how}" for e in no_touch]}
    if g == "dale_of_merchants":
        # The goal is the cost of a buy or a stack: the presses of that action, from the end of the
        # event's previous action (a technique played first is an action of its own, its presses in the
        # event's total and under the per-event goals). The events' totals are reported beside it.
        events = [e for e in routine if {"buy", "stall"} & set(e.actions)]
        own = [max((n for a, n in e.pod_split if a in ("buy", "stall")), default=None) if e.pod is not None
               else None for e in events]
        worst = max((n for n in own if n is not None), default=None)
        out[f"turns_{g}_pod_max_presses_buy_or_stall"] = {
            "value": None if None in own or not own else worst, "unit": "presses",
            "goal": f"<= {GOAL_DALE_STACK}", "events": len(events), "not_possible": own.count(None),
            "note": "the buy's or the stack's own presses (after any technique earlier in the event)",
            "events_total_max": max((e.pod for e in events if e.pod is not None), default=None),
            "events_over": [f"{e.say} [{e.pod_how}] = {e.pod} in all, "
                            + ", ".join(f"{a} {n}" for a, n in e.pod_split)
                            for e in events if e.pod is not None and e.pod > GOAL_DALE_STACK]}
    return out


def _v(results: dict, name: str):
    return (results.get(name) or {}).get("value")


def _mark(ok) -> str:
    return "" if ok is None else (" ✓" if ok else " ✗")


def table(results: dict) -> str:
    """The figures as a markdown table (one row per game with a story), goals marked ✓/✗."""
    head = ("| Game | pod median presses/event (≤ 2) | pod max presses/event (≤ 6) | not possible on pod (0) "
            "| pod presses/round | paper moves/round | device < paper/round | touch median touches/event |")
    rows = [head, "|" + "---|" * 8]
    for g in GAMES:
        if f"turns_{g}_pod_median_presses_per_event" not in results:
            continue
        med = _v(results, f"turns_{g}_pod_median_presses_per_event")
        mx = _v(results, f"turns_{g}_pod_max_presses_per_event")
        imp = _v(results, f"turns_{g}_events_not_possible_on_pod")
        pod_r = _v(results, f"turns_{g}_pod_presses_per_round")
        paper_r = _v(results, f"turns_{g}_paper_moves_per_round")
        touch = _v(results, f"turns_{g}_touch_median_touches_per_event")
        if g in TOKEN_GAMES:
            cheaper = "yes ✓" if pod_r < paper_r else "no ✗"
        else:
            stack = _v(results, f"turns_{g}_pod_max_presses_buy_or_stall")
            cheaper = f"n/a; buy/stall ≤ 4: {'–' if stack is None else stack}" + _mark(
                None if stack is None else stack <= GOAL_DALE_STACK)
        rows.append(f"| {TITLES[g]} | {med}{_mark(None if med is None else med <= GOAL_MEDIAN)} "
                    f"| {mx}{_mark(None if mx is None else mx <= GOAL_MAX)} | {imp}{_mark(imp == 0)} "
                    f"| {pod_r} | {paper_r} | {cheaper} | {'–' if touch is None else touch} |")
    return "\n".join(rows) + "\n"


def kinds_table(results: dict, g: str) -> str:
    """One game's "Pods" table for docs/games/<game>.md: per kind of event, its presses against paper."""
    rows = _v(results, f"turns_{g}_pod_by_kind")
    if not rows:
        return ""
    out = ["| event kind | events | presses (median / max) | presses in all | clicks in all | paper in all |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        if r["free"]:
            how = "free (nothing to enter)"
        elif r["presses_median"] is None:
            how = "not possible"
        else:
            how = f"{r['presses_median']:g} / {r['presses_max']}"
            how += f" ({r['not_possible']} not possible)" if r["not_possible"] else ""
        out.append(f"| {r['kind']} | {r['events']} | {how} | {r['presses']} | {r['clicks']} | {r['paper']} |")
    return "\n".join(out) + "\n"


def _story_figures(path: str, touch: bool) -> tuple[dict, list[str]]:
    """One story measured in a child process (``bench_turns.py figures STORY``): its figures and lines."""
    argv = [sys.executable, str(HERE), "figures", path] + ([] if touch else ["--no-touch"])
    argv += ["--fast"] if FAST else []
    out = subprocess.run(argv, capture_output=True, text=True, timeout=5400)
    lines = [x for x in out.stdout.splitlines() if not x.startswith("FIGURES ")]
    got = next((x for x in out.stdout.splitlines() if x.startswith("FIGURES ")), None)
    if out.returncode != 0 or got is None:
        raise st.StoryError(f"{Path(path).name}: exit {out.returncode}: {out.stderr[-3000:]}")
    return json.loads(got[len("FIGURES "):]), lines


def run(stories_dir: Path | None = None, *, touch: bool = True, log=None) -> dict:
    """Every story's figures; the stories are measured side by side, one child process each (as many
    at once as the machine has cores), and their events' lines given to ``log`` story by story."""
    from concurrent.futures import ThreadPoolExecutor

    stories_dir = Path(stories_dir) if stories_dir else st.STORIES
    paths = [str(p) for p in sorted(stories_dir.glob("*.json")) if st.load(p).key in GAMES]
    out: dict = {}
    with ThreadPoolExecutor(max_workers=max(1, min(len(paths), os.cpu_count() or 1))) as pool:
        for figs, lines in pool.map(_story_figures, paths, [touch] * len(paths)):
            for line in lines if log else ():
                log(line)
            out.update(figs)
    return out


# -- throwaway stories from replay scripts -------------------------------------------------------------
def story_from_script(script: Path) -> dict:
    """A story with one event per action of a replay script (``tests/engine/scripts/*.jsonl``): to try
    the benchmark on the real games before their stories exist. Not committed."""
    from tablekeeper.engine.registry import make_rules

    lines = [json.loads(x) for x in Path(script).read_text().splitlines() if x.strip()]
    setup, actions = lines[0], [a for a in lines[1:] if isinstance(a, dict) and "action" in a]
    rules = make_rules({"game": setup["game"], "players": setup["players"], "options": setup.get("options", {})})
    state = rules.setup_state()
    events = []
    for a in actions:
        who = (rules.actor(state, a) or a.get("player") or a.get("from") or first_player(state)
               or setup["players"][0])
        events.append({"say": rules.words(state, a), "who": who, "actions": [a]})
        state = rules.apply(state, a)[0]
    expect = {"over": state["over"], "winners": state["winners"],
              "players": {p["name"]: {**p["counters"], "out": p["out"]} for p in state["players"]}}
    return {"game": setup["game"], "players": setup["players"], "options": setup.get("options", {}),
            "title": f"from {Path(script).name}", "paper": _paper_of(rules), "events": events, "expect": expect}


def _paper_of(rules) -> dict:
    """Which counters are tokens on paper, for a throwaway story: every counter the rules bank."""
    return {"player": list(rules.player_counters), "table": {k: k for k in rules.table_counters}}


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "touch":
        _child_touch(argv[1], argv[2])
        return 0
    if len(argv) >= 2 and argv[0] == "from-script":
        out = Path(argv[-1])
        out.mkdir(parents=True, exist_ok=True)
        for script in argv[1:-1]:
            story = story_from_script(Path(script))
            (out / (Path(script).stem + ".json")).write_text(json.dumps(story, indent=1, default=str) + "\n")
        return 0
    global FAST
    FAST = "--fast" in argv
    if len(argv) >= 2 and argv[0] == "figures":  # figures STORY [--no-touch]: one story, for run()
        kw = {"max_nodes": FAST_NODES, "guided_nodes": FAST_GUIDED_NODES} if FAST else {}
        figs = figures(measure(st.load(argv[1]), touch="--no-touch" not in argv, log=print, **kw))
        print("FIGURES " + json.dumps(figs, ensure_ascii=False), flush=True)
        return 0
    if argv and argv[0] == "show":  # show DIR [--no-touch]: every event's costs, then the table
        results = run(Path(argv[1]), touch="--no-touch" not in argv, log=print)
        print(json.dumps(results, indent=1, ensure_ascii=False))
        print(table(results))
        for g in GAMES:
            if kinds_table(results, g):
                print(f"\n{TITLES[g]}: per kind of event\n\n" + kinds_table(results, g))
        return 0
    if argv:
        print("usage: bench_turns.py [show DIR [--no-touch] [--fast] | figures STORY [--no-touch] [--fast] | "
              "from-script SCRIPT... DIR]\n(no arguments: every story in bench/stories, as JSON; "
              "`bench/run.py turns` also writes bench/results.json)", file=sys.stderr)
        return 2
    print(json.dumps(run(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
