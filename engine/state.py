"""Game state as plain data, and the helpers actions use to change it.

A state is a JSON-shaped dict (dicts, lists, str, int, bool, None):

    {"players": [{"name": "Ana", "counters": {...}, "out": false, ...}, ...],
     "table": {...}, "pending": [...], "over": false, "winners": [],
     "draw": false, ...whatever else the game keeps}

Being plain data makes it cheap to copy, to compare byte for byte
(:func:`canonical`) and to show as JSON.
"""
from __future__ import annotations

import builtins
import json
from collections.abc import Collection, Mapping
from typing import Any, Protocol, TypeVar, overload

from .errors import RuleError
from .fields import Field
from .messages import _, listing, word
from .spec import Counter


class Counters(Protocol):
    """What a :class:`Txn` asks of the game whose state it changes: its counters (a ``Game`` has them)."""

    player_counters: dict[str, Counter]
    table_counters: dict[str, Counter]


def clone(obj: Any) -> Any:
    """Deep copy of JSON-shaped data (several times faster than copy.deepcopy)."""
    if type(obj) is dict:
        return {k: clone(v) for k, v in obj.items()}
    if type(obj) is list:
        return [clone(v) for v in obj]
    return obj


def players_from_left(state: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    """The other players' records, from ``name``'s left on (seat order, round the table), those still in the game
    (not ``out``): whom a card on "every other player" or "the player on your left" reaches, in the table's order."""
    seats = state["players"]
    i = next(k for k, q in enumerate(seats) if q["name"] == name)
    return [q for q in (seats[(i + k) % len(seats)] for k in range(1, len(seats))) if not q.get("out")]


def canonical(obj: Any) -> str:
    """The byte-for-byte form used to compare states."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_MISSING: Any = object()  # "no default": an absent field is refused
_D = TypeVar("_D")  # the type of a default, returned as it is when the field is absent


class Args:
    """The fields of one action, read with their types checked.

    Every field must be read by the action: a field nobody reads is refused
    (a typo like ``"dleta"`` must not pass silently).

    What the action declares of a field (engine/fields.py) is what a read
    checks unless the handler says otherwise: an absent field means its
    declared default (a field declared without one is refused when absent),
    a number must lie within the declared bounds, a text must be one of the
    declared choices. A handler gives a ``default``, ``lo``/``hi`` or
    ``choices`` only where it means something else than the declaration
    (a default worked out from the state); ``bounded=False`` reads a number
    without any bound (the handler checks the range itself, in its own words).
    """

    def __init__(self, t: Txn, data: dict[str, Any], declared: Mapping[str, Field] | None = None):
        self._t = t
        self._data = data
        self._read = {"action"}
        self._declared = declared
        self.name = data["action"]

    def has(self, key: str) -> bool:
        """Whether the field is given (an undeclared field never is: it was refused up front)."""
        return key in self._data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The field as given (no declared default applies: ``raw`` reads what is there)."""
        if self._declared is not None and key not in self._declared:
            raise AssertionError(f"action {self.name!r} reads the field {key!r} it does not declare")
        self._read.add(key)
        if key not in self._data:
            if default is _MISSING:
                raise RuleError(_("{action}: the field {key!r} is missing", action=self.name, key=key))
            return default
        return self._data[key]

    def _field(self, key: builtins.str, kind: builtins.str) -> Field | None:
        """The declaration of ``key`` when it is of this ``kind`` (one of another kind says nothing here)."""
        field = self._declared.get(key) if self._declared is not None else None
        return field if field is not None and field.kind == kind else None

    @staticmethod
    def _default(field: Field | None, default: Any) -> Any:
        """The handler's ``default``, else the declared one (of an optional field that has one)."""
        if default is not _MISSING or field is None or field.required or field.default is None:
            return default
        return clone(field.default)

    @overload
    def int(self, key: builtins.str, *, lo: builtins.int | None = None, hi: builtins.int | None = None,
            bounded: builtins.bool = True) -> builtins.int:
        ...

    @overload
    def int(self, key: builtins.str, default: _D, *, lo: builtins.int | None = None,
            hi: builtins.int | None = None, bounded: builtins.bool = True) -> builtins.int | _D:
        ...

    def int(self, key: builtins.str, default: Any = _MISSING, *, lo: builtins.int | None = None,
            hi: builtins.int | None = None, bounded: builtins.bool = True) -> Any:
        field = self._field(key, "int")
        default = self._default(field, default)
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(_("{action}: {key!r} must be a whole number, not {value!r}", action=self.name, key=key, value=value))
        if not bounded:
            return value
        if lo is None and field is not None:
            lo = field.lo
        if hi is None and field is not None:
            hi = field.hi
        if lo is not None and value < lo:
            raise RuleError(_("{action}: {key!r} must be at least {lo}, not {value}", action=self.name, key=key, lo=lo,
                                  value=value))
        if hi is not None and value > hi:
            raise RuleError(_("{action}: {key!r} must be at most {hi}, not {value}", action=self.name, key=key, hi=hi,
                                  value=value))
        return value

    @overload
    def str(self, key: builtins.str, *, choices: Collection[builtins.str] | None = None) -> builtins.str:
        ...

    @overload
    def str(self, key: builtins.str, default: _D, *,
            choices: Collection[builtins.str] | None = None) -> builtins.str | _D:
        ...

    def str(self, key: builtins.str, default: Any = _MISSING, *,
            choices: Collection[builtins.str] | None = None) -> Any:
        field = self._field(key, "str")
        default = self._default(field, default)
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str):
            raise RuleError(_("{action}: {key!r} must be text, not {value!r}", action=self.name, key=key, value=value))
        if choices is None and field is not None:
            choices = field.choices
        if choices is not None and value not in choices:
            raise RuleError(_("{action}: {key!r} must be one of {choices}, not {value!r}", action=self.name, key=key,
                              choices=listing(choices), value=value))
        return value

    def bool(self, key: builtins.str, default: Any = _MISSING) -> builtins.bool:
        value = self.raw(key, self._default(self._field(key, "bool"), default))
        if not isinstance(value, bool):
            raise RuleError(_("{action}: {key!r} must be true or false, not {value!r}", action=self.name, key=key,
                              value=value))
        return value

    @overload
    def ints(self, key: builtins.str, *, lo: builtins.int | None = None) -> list[builtins.int]:
        ...

    @overload
    def ints(self, key: builtins.str, default: _D, *, lo: builtins.int | None = None) -> list[builtins.int] | _D:
        ...

    def ints(self, key: builtins.str, default: Any = _MISSING, *, lo: builtins.int | None = None) -> Any:
        """A list of whole numbers, each at least ``lo`` (left out: the declared ``lo``; a declared ``hi`` is
        not checked here)."""
        field = self._field(key, "ints")
        default = self._default(field, default)
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise RuleError(_("{action}: {key!r} must be a list of whole numbers, not {value!r}", action=self.name, key=key,
                              value=value))
        if lo is None and field is not None:
            lo = field.lo
        if lo is not None and any(v < lo for v in value):
            raise RuleError(_("{action}: every value in {key!r} must be at least {lo}", action=self.name, key=key, lo=lo))
        return list(value)

    @overload
    def player(self, key: builtins.str = "player", *, in_game: builtins.bool = True) -> builtins.str:
        ...

    @overload
    def player(self, key: builtins.str, default: _D, *, in_game: builtins.bool = True) -> builtins.str | _D:
        ...

    def player(self, key: builtins.str = "player", default: Any = _MISSING, *, in_game: builtins.bool = True) -> Any:
        """A player's name; refused when unknown, or out of the game if ``in_game``."""
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str):
            raise RuleError(_("{action}: {key!r} must be a player's name, not {value!r}", action=self.name, key=key,
                              value=value))
        p = self._t.player(value)
        if in_game and p["out"]:
            raise RuleError(_("{who} is out of the game", who=value))
        return value

    def finish(self) -> None:
        extra = sorted(set(self._data) - self._read)
        if extra:
            raise RuleError(_("{action}: unexpected field {field!r}", action=self.name, field=extra[0]))


class Txn:
    """One action's view of the state being changed.

    Actions and consequences change the state only through a Txn, which keeps
    the events (plain sentences) that explain what happened.
    """

    def __init__(self, game: Counters, state: dict[str, Any]):
        self.game = game
        self.state = state
        self.events: list[str] = []

    # -- players -------------------------------------------------------------
    @property
    def players(self) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = self.state["players"]
        return players

    def player(self, name: str) -> dict[str, Any]:
        for p in self.players:
            if p["name"] == name:
                return p
        names = listing(p["name"] for p in self.state["players"])
        raise RuleError(_("there is no player called {name!r} (players: {names})", name=name, names=names))

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.state["players"]):
            if p["name"] == name:
                return i
        self.player(name)  # raises with the message
        raise AssertionError

    def in_game(self) -> list[dict[str, Any]]:
        """Players still in the game, in seat order."""
        return [p for p in self.state["players"] if not p["out"]]

    def next_in_game(self, name: str) -> str | None:
        """The next player on the left of ``name`` still in the game (may be ``name``)."""
        players = self.state["players"]
        i = self.seat(name)
        for k in range(1, len(players) + 1):
            p = players[(i + k) % len(players)]
            if not p["out"]:
                who: str = p["name"]
                return who
        return None

    # -- counters ------------------------------------------------------------
    def spec(self, counter: str, who: str | None) -> Counter:
        specs = self.game.player_counters if who is not None else self.game.table_counters
        spec = specs.get(counter)
        if spec is None:
            # the other kind's counter (a pod's adjust… at "–" on a player's cash): said in words, with the fix
            if who is None and counter in self.game.player_counters:
                raise RuleError(_("{counter} is a player's counter: say whose", counter=word("counter", counter)))
            if who is not None and counter in self.game.table_counters:
                raise RuleError(_("{counter} is the table's counter, not a player's (player: –)",
                                  counter=word("counter", counter)))
            known = listing(word("counter", c) for c in specs) if specs else _("none")
            if who is not None:
                raise RuleError(_("{counter!r} is not a player counter in this game (known: {known})",
                                  counter=counter, known=known))
            raise RuleError(_("{counter!r} is not a table counter in this game (known: {known})",
                              counter=counter, known=known))
        return spec

    def get(self, who: str | None, counter: str) -> int:
        self.spec(counter, who)
        holder: dict[str, int] = self.player(who)["counters"] if who is not None else self.state["table"]
        return holder[counter]

    def add(self, who: str | None, counter: str, delta: int) -> int:
        """Change a counter by ``delta`` within its bounds; returns what applied."""
        spec = self.spec(counter, who)
        holder: dict[str, int] = self.player(who)["counters"] if who is not None else self.state["table"]
        before = holder[counter]
        after = spec.clamp(before + delta)
        holder[counter] = after
        applied = after - before
        if applied != delta:
            what = word("counter", counter)
            if who is not None:
                self.events.append(_("{who}'s {counter} stops at {after}: {lost:+d} could not apply",
                                     who=who, counter=what, after=after, lost=delta - applied))
            else:
                self.events.append(_("the table's {counter} stops at {after}: {lost:+d} could not apply",
                                     counter=what, after=after, lost=delta - applied))
        return applied

    def set(self, who: str | None, counter: str, value: int) -> int:
        return self.add(who, counter, value - self.get(who, counter))

    # -- outcomes ------------------------------------------------------------
    def event(self, text: str) -> None:
        self.events.append(text)

    def eliminate(self, name: str, why: str) -> None:
        p = self.player(name)
        if not p["out"]:
            p["out"] = True
            self.events.append(_("{who} is out: {why}", who=name, why=why))

    def finish(self, winners: list[str], *, draw: bool = False, why: str = "") -> None:
        st = self.state
        st["over"] = True
        st["winners"] = list(winners)
        st["draw"] = draw
        names = listing(winners)
        if draw:
            self.events.append(_("draw between {names}: {why}", names=names, why=why) if why
                               else _("draw between {names}", names=names))
        elif winners:
            names = listing(winners, _(" and "))
            self.events.append(_("{names} won: {why}", names=names, why=why) if why else _("{names} won", names=names))
        else:
            self.events.append(_("game over: {why}", why=why) if why else _("game over"))
