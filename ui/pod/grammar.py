"""What four buttons can ask: a pod's menu, its entry steps, its dry run and what an action changed.

Game-agnostic and pure: everything comes from the actions' declared fields
(``engine/fields.py``), the rules' pod hooks (``seat_actions``,
``pod_actions``, ``pod_field``) and a dry run of the rules on the state
(``rules.apply`` never touches its input). :mod:`tablekeeper.ui.pod.inputs`
keeps the pod's place in the grammar; this module only answers questions
about a state:

* :func:`menu` — the actions a seat may start now, routine ones first;
* :func:`asks` — the entry steps of one of them, one per field to ask;
* :func:`dry_run` and :func:`changes` — what the complete action would do,
  as short lines in game words ("Ben: alcohol +2, fortitude −1");
* :func:`affected` — after an applied action, a line for every other player
  it changed, for their own pods.
"""
from __future__ import annotations

import random
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ...engine.errors import RuleError
from ...engine.fields import Field
from ...engine.game import Offer
from ...engine.messages import Msg, _, listing, word
from ...engine.state import canonical

#: The kinds of entry step, by the field kind they ask.
PLAYER, NUMBER, CHOICE, BOOL, LIST = "player", "number", "choice", "bool", "list"
STEP_OF_KIND = {"player": PLAYER, "int": NUMBER, "str": CHOICE, "bool": BOOL, "ints": LIST}

#: The fields that name who acts: an optional one is filled with the seat's own name ("by": who plays a
#: card out of turn; a play-tester's menu step started at "–", then went to a player out of the game).
ACTOR_FIELDS = ("player", "by")

#: What a menu item is: a routine action of the game, any other action, or undo.
SEAT, OTHER, UNDO, TABLE = "seat", "other", "undo", "table"
#: The corrections every game has (``Game``'s own actions): on the menu after the routine offers, a few ``up``
#: from its top, where they always were (a robot's junk stack went through ``adjust…`` 2 presses longer when
#: they followed the game's own actions, 10 lines down)
CORRECTIONS = frozenset({"adjust", "transfer", "resolve"})


@dataclass(frozen=True)
class Item:
    """One line of a pod's menu: a label, the action as far as it is known, the fields still to ask."""

    kind: str
    label: str  # a Msg: translated when shown
    action: dict[str, Any]
    ask: tuple[str, ...] = ()
    least: int = 0  # a list step's fewest numbers (Offer.least)

    @cached_property
    def ident(self) -> tuple[str, str, str, tuple[str, ...]]:
        """A hashable name for the item that stays the same while the item is on offer (computed once)."""
        return (self.kind, str(self.label), canonical(self.action), self.ask)


@dataclass(frozen=True)
class Ask:
    """One entry step: the field (or the game's stand-in for it), how it is entered, its options."""

    field: Field
    step: str  # PLAYER, NUMBER, CHOICE, BOOL or LIST
    options: tuple[Any, ...] = ()  # players (most likely first) or choices
    unset: bool = False  # may be left out: shown as "–", and not put in the action

    @property
    def label(self) -> Msg:
        return word("field", self.field.name)

    def start(self, given: Any = None) -> Any:
        """Where the step starts: the value given (a routine action's), the default, else the first."""
        f = self.field
        if given is not None:
            return tuple(given) if self.step == LIST else given
        if f.default is not None:
            return tuple(f.default) if self.step == LIST else f.default
        if self.unset:
            return None
        if self.step == LIST:
            return ()
        if self.step == NUMBER:
            return self.clamp(0)
        if self.step == BOOL:
            return False
        return self.options[0] if self.options else None

    def clamp(self, n: int) -> int:
        lo, hi = self.field.lo, self.field.hi
        if lo is not None:
            n = max(lo, n)
        if hi is not None:
            n = min(hi, n)
        return n

    def number(self, value: int | None, delta: int, *, unset: bool | None = None) -> int | None:
        """``value`` moved by ``delta`` within the bounds; "–" (left out) sits just below the first value,
        and down from it goes round to the last (a die's 9 is two presses down, not ten up)."""
        may_unset = self.unset if unset is None else unset
        if self.step == NUMBER and self.options:  # only these values (rooms with a guest): round and round
            values = sorted(self.options)
            if value not in values:
                return values[0] if delta > 0 else values[-1]
            return values[(values.index(value) + (1 if delta > 0 else -1)) % len(values)]
        if value is None:
            return self.clamp(0) if delta > 0 else self.field.hi
        if may_unset and delta < 0 and value == self.clamp(0) and self.clamp(value + delta) == value:
            return None
        if abs(delta) > 1:
            # a held press's fast steps land on round numbers (12 held down: …, 7, 6, 5, 0), so that a
            # value a few steps past the slow ones is one hold away (a rulebook reader's 5F pocket, from
            # 12, took a press down and a hold: the fast step from 6 went to 1)
            step = abs(delta)
            return self.clamp((value // step + 1) * step if delta > 0 else (value - 1) // step * step)
        return self.clamp(value + delta)

    def cycle(self, value: Any, delta: int) -> Any:
        """The next (``delta`` > 0) or previous option; "–" is one of them when the field may be left out."""
        options = ((None,) if self.unset else ()) + tuple(self.options)
        if not options:
            return value
        i = options.index(value) if value in options else -1 if delta > 0 else 0
        return options[(i + (1 if delta > 0 else -1)) % len(options)]


def choice_word(field: str, value: Any) -> Msg:
    """One of a CHOICE step's values as a word of the game (a counter's name is a counter word); a
    value the game gave as a message (its English is the value: "annex 2") says itself."""
    if isinstance(value, Msg):
        return value
    return word("counter" if field == "counter" else "choice", str(value))


def players_for(state: dict[str, Any], me: str, field_name: str) -> tuple[str, ...]:
    """The players a PLAYER step offers, most likely first: yourself first for who acts or gives,
    else the players on your left in order, yourself last."""
    names = [p["name"] for p in state["players"]]
    i = names.index(me) if me in names else 0
    left = tuple(names[(i + k) % len(names)] for k in range(1, len(names)))
    return (me,) + left if field_name in ACTOR_FIELDS + ("from",) else left + (me,)


def _askable(rules: Any, state: dict[str, Any], me: str, action: str, field: Field,
             given: dict[str, Any] | None = None) -> Ask | None:
    f = rules.pod_field(state, me, action, field, given)
    if f is None:
        return None
    step = STEP_OF_KIND.get(f.kind)
    if step is None or (step == CHOICE and not f.choices):
        return None
    options: tuple[Any, ...] = ()
    if step == PLAYER:
        options = players_for(state, me, f.name)
    elif step in (CHOICE, NUMBER, LIST):  # a number with choices steps through those values only
        options = tuple(f.choices or ())
    return Ask(f, step, options, unset=not f.required and f.default is None and step != BOOL)


def _filled_by_device(rules: Any, state: dict[str, Any], action: dict[str, Any]) -> set[str]:
    """The fields the rules fill in themselves before journalling (dice, random draws)."""
    try:
        prepared = rules.prepare(state, dict(action), random.Random(0))
    except RuleError:
        return set()
    return set(prepared) - set(action)


def asks(rules: Any, state: dict[str, Any], me: str, item: Item) -> tuple[Ask, ...] | None:
    """The entry steps of ``item``, in order (see :func:`_asks`); one answer per state and item."""
    if item.kind in (UNDO, TABLE):
        return ()
    return _remembered(("asks", item.ident), rules, state, me, lambda r, s, m: _asks(r, s, m, item))


def _asks(rules: Any, state: dict[str, Any], me: str, item: Item) -> tuple[Ask, ...] | None:
    """The entry steps of ``item``, in order; None when the pod cannot ask a required field.

    Asked: the item's own ``ask`` list (in its order), then every declared field that is
    required and neither given by the item nor filled in by the device; for
    a menu action also its optional fields (required first, then the
    optional ones, yes/no switches last), each starting at its default.
    """
    info = rules.actions.get(item.action.get("action"))
    if info is None:
        return None
    declared = {f.name: f for f in info.fields}
    device = _filled_by_device(rules, state, item.action)
    if item.kind != SEAT:
        # the menu's every field: one the device fills in (a die) asked too, optional, "–" letting it decide
        # (a play-tester's menu hide took no physical die's face: the device rolled, the table's 0 lost)
        device = {n for n in device if n not in declared or declared[n].required}
    filled = set(item.action) | device
    wanted: list[Field] = [declared[n] for n in item.ask if n in declared]  # in the order the game lists them
    rest = [f for f in info.fields if f.name not in filled and f not in wanted]
    if item.kind == SEAT:
        rest = [f for f in rest if f.required]
    rest.sort(key=lambda f: not f.required)
    out = []
    for f in wanted + rest:
        a = _askable(rules, state, me, info.name, f, item.action if item.kind == SEAT else None)
        if a is None:
            if f.required:
                return None
            continue
        out.append(a)
    first = out[:len([f for f in wanted if f.name in {a.field.name for a in out}])]
    # A choice the offer names ("ale + chaser" starts its chaser at "ale") is what its label promises:
    # "–" (left out) is not among its values.
    first = [replace(a, unset=False) if a.step == CHOICE and item.action.get(a.field.name) is not None
             else a for a in first]
    return tuple(first + sorted(out[len(first):], key=lambda a: (not a.field.required, a.step == BOOL)))


#: Actions whose "player" names whose figures change, not who acts: the pod asks it first, starting at
#: yourself ("–", the table's own counters, one step away), so a card that makes another player lose
#: fortitude is entered on the pod of the player who plays it.
TARGET_PLAYER = ("adjust",)


def _base(rules: Any, name: str, me: str) -> dict[str, Any]:
    info = rules.actions[name]
    action: dict[str, Any] = {"action": name}
    for f in info.fields:
        if f.name in ACTOR_FIELDS and (not f.required or f.kind == "raw"):
            action[f.name] = me
    return action


#: The menus and offers computed lately, by (what, rules, state, player) identity: a state is never
#: changed once made (the engine makes a new one per action), so the same objects give the same
#: answer. Each press reads the offers and the menu (to check the action being entered is still
#: possible), and both cost dry runs: computed once per state, not once per press.
_SEEN: OrderedDict[tuple[Any, int, int, str], tuple[Any, dict[str, Any], Any]] = OrderedDict()
_SEEN_KEPT = 512


def _remembered(what: Any, rules: Any, state: dict[str, Any], me: str, make: Any) -> Any:
    key = (what, id(rules), id(state), me)
    hit = _SEEN.get(key)
    if hit is not None and hit[0] is rules and hit[1] is state:
        _SEEN.move_to_end(key)
        return hit[2]
    out = make(rules, state, me)
    _SEEN[key] = (rules, state, out)  # the objects are kept: their ids cannot be reused meanwhile
    while len(_SEEN) > _SEEN_KEPT:
        _SEEN.popitem(last=False)
    return out


def every_seat(rules: Any, state: dict[str, Any], names: list[str]) -> None:
    """Ask the game once for all of ``names``' seat views and offers in ``state`` (each view of a new state
    needs them all): :func:`seat_view` and :func:`offers` then answer from what it said."""
    def ask(r: Any, s: dict[str, Any], _m: str) -> bool:
        for name, (view, actions) in r.seats(s, names).items():
            _remembered("seat_view", r, s, name, lambda *_a, v=view: v)
            _remembered("offers", r, s, name, lambda *_a, a=actions: a)
        return True
    _remembered(("seats", tuple(names)), rules, state, "", ask)


def offers(rules: Any, state: dict[str, Any], me: str) -> list[Offer]:
    """The game's offers to ``me`` now (``seat_actions``, most likely first). Do not change them."""
    return _remembered("offers", rules, state, me, lambda r, s, m: r.seat_actions(s, m))


def offer_labels(rules: Any, state: dict[str, Any], me: str) -> tuple[str, ...]:
    """The labels of :func:`offers`, as text (what tells one situation's offers from another's): made
    once per state, not at every press and view."""
    return _remembered("labels", rules, state, me,
                       lambda r, s, m: tuple(str(a.get("label", "")) for a in offers(r, s, m)))


def seat_view(rules: Any, state: dict[str, Any], me: str) -> dict[str, Any]:
    """The game's ``seat_view`` for ``me`` (counters, status, table figures). Do not change it."""
    return _remembered("seat_view", rules, state, me, lambda r, s, m: r.seat_view(s, m))


def menu(rules: Any, state: dict[str, Any], me: str) -> tuple[Item, ...]:
    """Every action ``me`` may start from the pod now: the game's own others (``pod_actions``) first, then the
    routine ones (``seat_actions``, most likely first: home already goes through them), the corrections
    every game has (``adjust``, ``transfer``, ``resolve``), the table's counters and undo, last: up from the
    top, undo, the table's counters, then the corrections. A player opens the menu for what home does not
    offer: with the routine ones first, a Dale turn's ``set market…`` came after 95–150 buys, and a
    play-tester who held select for it pressed main at the first line and bought a card.

    An action with nothing to ask is listed only when its dry run is
    accepted and changes something (a "resolve" with nothing pending is not).
    """
    return _remembered("menu", rules, state, me, _menu)


def seat_item(o: Any) -> Item:
    """The menu line of one of the game's offers (an :class:`Offer`)."""
    return Item(SEAT, o.get("label", ""), dict(o["action"]), tuple(o.get("ask", ())), o.get("least", 0))


def _menu(rules: Any, state: dict[str, Any], me: str) -> tuple[Item, ...]:
    seat = [seat_item(a) for a in offers(rules, state, me)]
    routine = [canonical(i.action) for i in seat]
    asked = {canonical(i.action) for i in seat if i.ask}  # offered with the game's own questions
    items: list[Item] = []
    corrections: list[Item] = []
    for name in rules.pod_actions(state, me):
        if name not in rules.actions:
            continue
        item = Item(OTHER, word("action", name), _base(rules, name, me),
                    tuple(f.name for f in rules.actions[name].fields if f.name in ACTOR_FIELDS)
                    if name in TARGET_PLAYER else ())
        if canonical(item.action) in asked:
            continue
        steps = asks(rules, state, me, item)
        if steps is None:
            continue
        if not steps:
            if canonical(item.action) in routine:  # already there, under the game's own label
                continue
            try:
                after, _events = dry_run(rules, state, item.action)
            except RuleError:
                continue
            if after == state:
                continue
        (corrections if name in CORRECTIONS else items).append(item)
    items += seat + corrections
    if table_words(rules, state, me):
        items.append(Item(TABLE, _("table counters"), {}))
    items.append(Item(UNDO, word("action", "undo"), {"action": "undo"}))
    return tuple(items)


def table_words(rules: Any, state: dict[str, Any], me: str) -> Msg | None:
    """Every figure of the table, as the menu's "table counters" says it on a pod: the rows the pod shows
    and each counter the game declares for the table ("deck 30 · turn Ana · inn 4 · pot 0"), or None
    when the game has none. A pod's corner has room for two rows: the Red Dragon Inn's Inn and a Bloody
    Inn's season were on no pod at all."""
    def readable(k: Any) -> str:  # a counter's English words, whatever the game named it ("market deck")
        return str(k.translated(None) if isinstance(k, Msg) else k).replace("_", " ")

    rows = [(readable(k), k, v) for k, v in seat_view(rules, state, me).get("table", ())]
    seen = {key for key, _k, _v in rows}
    rows += [(k, k, v) for k, v in state.get("table", {}).items()
             if isinstance(v, int) and not isinstance(v, bool) and readable(word("counter", k)) not in seen]
    said = [_("{counter} {value}", counter=k if isinstance(k, Msg) else word("counter", k), value=v)
            for _key, k, v in rows]
    return listing(said, " · ") if said else None


def live(rules: Any, state: dict[str, Any], me: str, item: Item, steps: tuple[Ask, ...],
         values: dict[str, Any]) -> tuple[int, ...]:
    """The indices of the steps the pod asks, given the ``values`` entered: a step the game wants only
    for some answers to the earlier steps (``Game.pod_step_wanted``) is passed over for the others."""
    out: list[int] = []
    passed: list[str] = []
    for i, a in enumerate(steps):
        so_far = complete(item, steps[:i], values, passed=tuple(passed))
        if i == 0 or rules.pod_step_wanted(state, me, so_far, a.field.name):
            out.append(i)
        else:
            passed.append(a.field.name)
    return tuple(out)


def complete(item: Item, steps: tuple[Ask, ...], values: dict[str, Any], *,
             passed: tuple[str, ...] = ()) -> dict[str, Any]:
    """The action of ``item`` with the entered ``values`` (but those of the steps ``passed`` over).

    Every value asked is written, except a value left out ("–") and an
    optional field left at its declared default, which mean the same as
    absent (engine/fields.py: the default is what an absent field means; a
    rule that needs a field its declaration calls optional declares no
    default, like a room guest's rank, so the pod asks it from "–").
    """
    action = dict(item.action)
    for a in steps:
        name = a.field.name
        if name not in values or name in passed:
            continue
        value = values[name]
        if a.step == LIST:
            value = list(value)
        if value is None:
            action.pop(name, None)
            continue
        if isinstance(value, Msg):  # a choice the game gave as a word: the action holds its value
            value = str.__str__(value)
        if not a.field.required and name not in item.action and (
                value == (list(a.field.default) if isinstance(a.field.default, (list, tuple)) else a.field.default)
                or (a.step == BOOL and value is False)):
            action.pop(name, None)
            continue
        action[name] = value
    return action


def dry_run(rules: Any, state: dict[str, Any], action: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What ``action`` would do to ``state`` (untouched): the next state and its events, or RuleError.

    Dice and random draws are filled as the session would, from a fixed
    seed: the preview of a random action shows one possible outcome.
    """
    entry = rules.prepare(state, dict(action), random.Random(0))
    return rules.apply(state, entry)


def signed(n: int) -> str:
    """A change as the pods write it: "+2", "−1" (a minus sign, not a hyphen)."""
    return f"{n:+d}".replace("-", "−")


def _counter_changes(rules: Any, before: dict[str, Any], after: dict[str, Any], name: str) -> list[Msg]:
    return [item for _label, item in _counter_items(rules, before, after, name)]


def _counter_items(rules: Any, before: dict[str, Any], after: dict[str, Any],
                   name: str) -> list[tuple[str, Msg]]:
    """What changed of ``name``'s as their pod shows it, each with its counter's word: ``[("gold", "gold −1")]``
    (and ``("out", "out")`` when they went out of the game)."""
    old = {str(k): (k, v) for k, v in rules.seat_view(before, name).get("counters", ())}
    new = rules.seat_view(after, name).get("counters", ())
    out: list[tuple[str, Msg]] = []
    for k, v in new:
        label = k if isinstance(k, Msg) else word("counter", str(k))
        was = old.get(str(k), (k, None))[1]
        if was == v:
            continue
        if isinstance(v, int) and isinstance(was, int) and not isinstance(v, bool) \
                and str(k) not in getattr(rules, "told_by_value", ()):
            out.append((str(label), _("{counter} {delta}", counter=label, delta=signed(v - was))))
        else:
            out.append((str(label), _("{counter} {value}", counter=label, value=v)))
    shown = {str(k) for k, _v in new}
    for key, (k, was) in old.items():  # a counter the view shows only while it is not 0 (Dragon Run's talismans)
        if key not in shown and isinstance(was, int) and not isinstance(was, bool) and was:
            label = k if isinstance(k, Msg) else word("counter", key)
            out.append((str(label), _("{counter} {delta}", counter=label, delta=signed(-was))))
    p0 = next(p for p in before["players"] if p["name"] == name)
    p1 = next(p for p in after["players"] if p["name"] == name)
    if p1.get("out") and not p0.get("out"):
        out.append((str(word("status", "out")), word("status", "out")))
    return out


def _player(state: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((p for p in state["players"] if p["name"] == name), None)


def changes(rules: Any, before: dict[str, Any], after: dict[str, Any],
            skip: tuple[str, ...] = ()) -> list[tuple[str | None, Msg]]:
    """What changed between two states, per player (in seat order; not those in ``skip``) and then
    the table: ``[(player or None, "alcohol +2, fortitude −1"), ...]``, in the game's counter words."""
    out: list[tuple[str | None, Msg]] = []
    for p in after["players"]:
        if p["name"] in skip or _player(before, p["name"]) == p:  # nothing of theirs changed: not even asked
            continue
        items = _counter_changes(rules, before, after, p["name"])
        if items:
            out.append((p["name"], listing(items)))
    table = [_("{counter} {delta}", counter=word("counter", k), delta=signed(v - before["table"].get(k, 0)))
             for k, v in after["table"].items()
             if isinstance(v, int) and v != before["table"].get(k)]
    if table:
        out.append((None, listing(table)))
    return out


def change_lines(rules: Any, before: dict[str, Any], after: dict[str, Any], events: list[str]) -> tuple[Msg, ...]:
    """A preview's lines: "Ben: alcohol +2" per player changed, "table: pot +1"; when no counter
    changes (a card moved, a phase ended), the events the rules announced."""
    lines = [(_("{who}: {changes}", who=who, changes=what) if who else _("table: {changes}", changes=what))
             for who, what in changes(rules, before, after)]
    if lines:
        return tuple(lines)
    said = tuple(e if isinstance(e, Msg) else Msg(str(e)) for e in events)
    return said or (_("no counter changes"),)


def preview_lines(pv: Any) -> tuple[Msg, ...]:
    """The lines of a preview whose outcome depends on what the device draws: only the changes every
    draw gives ("Ana: treasure −1"), per player, then the table."""
    by: dict[str | None, list[Msg]] = {}
    for c in pv.changes:
        by.setdefault(c.player, []).append(_("{counter} {delta}", counter=word("counter", c.counter),
                                             delta=signed(c.delta)))
    return tuple(_("{who}: {changes}", who=who, changes=listing(items)) if who is not None
                 else _("table: {changes}", changes=listing(items)) for who, items in by.items())


def affected(rules: Any, before: dict[str, Any], after: dict[str, Any], actor: str | None,
             action: dict[str, Any] | None = None, events: Sequence[Any] = ()) -> dict[str, Msg]:
    """What an applied action did to each player but ``actor``, for their own pods:
    ``{"Ben": "from Ana: drink me +1"}`` (a message: translate it with the table's catalog).

    ``before``/``after``: the states around the action; ``actor``: who did it
    (``rules.actor(before, action)``, or the seat whose pod sent it), None
    for a correction nobody did. ``action``, when given: each change is told with its cause. The
    rules' line (of ``events``) that names the player and the counter says why ("Ben wins the drinking
    contest …: gold −1", not the last contestant's "Dee drinks from the deck: wine: gold −1", which a
    play-tester read as Dee's wine costing them gold; "the drink deck ran out …: gold −1", not "from Cai:
    gold −1" to the player Cai bought a drink for). A change no line explains comes from the action: "from
    Ana: …" to a player it names, else its one line that names the player, else the action in words
    ("Ana passes: gold +4" to the pot's winner). A player the action names and changes nothing the
    pod shows is told it too (a card worth 0 taken from Cai's hand).
    """
    named = _named_players(action) if action is not None else set()
    out: dict[str, Msg] = {}
    for p in after["players"]:
        who = p["name"]
        if who == actor:
            continue
        if _player(before, who) == p:
            # what the rules did to them and undid (a play-tester's Ana earned 1F at the departure and paid it
            # in wages: her pod said nothing, and she trusted her cash only once it was checked)
            own = [e for e in events if _subject(e, who)] if action is not None else []
            if len(own) > 1:
                out[who] = _joined(own)
            continue
        items = _counter_items(rules, before, after, who)
        if action is None or not items:
            if items:
                what = listing([item for _label, item in items])
                out[who] = _("from {who}: {changes}", who=actor, changes=what) if actor else what
            elif action is not None and actor and who in named:
                # (Dragon Run: a card worth 0 taken from Cai's hand left his pod silent; a play-tester's Cai
                # never knew)
                out[who] = _("from {who}: {what}", who=actor, what=rules.words(before, action))
            elif action is not None and (own := [e for e in events if _subject(e, who)]):
                # what changed for them that no counter shows, in the rules' lines about them (Dragon Run: the
                # powers the dragon made ready again, which a play-tester's pods never said)
                out[who] = _joined(own)
            continue
        out[who] = _told(rules, before, action, actor, who, items, events, who in named)
    return out


def _told(rules: Any, before: dict[str, Any], action: dict[str, Any], actor: str | None, who: str,
          items: list[tuple[str, Msg]], events: Sequence[Any], named: bool) -> Msg:
    """``who``'s changes, each under the line that says why (see :func:`affected`)."""
    lines = [e for e in events if re.search(rf"\b{re.escape(who)}\b", str(e))]
    if len(lines) > 1 and sum(_subject(e, who) for e in lines) == 1:  # the one line of which they are the subject
        # — unless another line says what changed and it does not (a drinking contest's payment ended the turn, and
        # a play-tester's pod read "Ana's turn: discard & draw: gold −1", as if her turn had cost her a coin)
        subject = [e for e in lines if _subject(e, who)]
        if not any(label in str(e) for e in lines if e not in subject for label, _item in items) or any(
                label in str(subject[0]) for label, _item in items):
            lines = subject
    # a change no line explains: the action's ("from Ana", -1) to a player it names, else the one line
    # that names the player, else the action in words (-2)
    fallback = -1 if named and actor else (0 if len(lines) == 1 else -2)
    # no one line says why: the lines about them when there are several (a morning's departure and wages: a
    # play-tester's pod said "the morning: police, departure, wages: cash −1"), else the action in words
    own = [e for e in lines if _subject(e, who)]
    groups: dict[int, list[Msg]] = {}  # a cause → its changes, in order
    for label, item in items:
        why = [i for i, e in enumerate(lines) if label in str(e)]
        groups.setdefault(why[0] if len(why) == 1 else fallback, []).append(item)
    parts: list[Msg] = []
    for i, found in groups.items():
        what = listing(found)
        if i == -1:
            parts.append(_("from {who}: {changes}", who=actor, changes=what))
            continue
        cause = lines[i] if i >= 0 else _joined(own) if len(own) > 1 else rules.words(before, action)
        # a line that already says the change ("Ana drinks: ale: alcohol +1") is said once
        parts.append(cause if all(str(x) in str(cause) for x in found) else
                     _("{what}: {changes}", what=cause, changes=what))
    return _joined(parts)


def _joined(parts: Sequence[Msg]) -> Msg:
    """Lines said as one message: "a · b · c"."""
    told = parts[0]
    for part in parts[1:]:
        told = _("{told} · {more}", told=told, more=part)
    return told


def _subject(line: Any, who: str) -> bool:
    """Whether a rules' line is about ``who`` doing or getting something: it starts with their name ("Ana
    earns 1F: …", not "round 4: Ana takes the first-player card")."""
    return re.match(rf"{re.escape(who)}\b", str(line)) is not None


def _named_players(action: dict[str, Any]) -> set[str]:
    """Every text an action gives (its players among them: "to", "from", "player", a list of them)."""
    out: set[str] = set()
    for value in action.values():
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, str):
                out.add(v)
    return out
