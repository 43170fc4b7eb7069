"""Declarations a game definition is made of: counters and options."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import SetupError
from .messages import _

#: A start value is a number or a function of (player count, options).
StartValue = int | Callable[[int, dict[str, Any]], int]


@dataclass(frozen=True)
class Counter:
    """A number the device keeps: per player or for the table.

    ``lo``/``hi`` are inclusive bounds (``None`` = unbounded); an adjustment
    that would cross one applies as far as it can. ``bank`` names the table
    counter that is the other side of every adjustment of this counter (the
    Red Dragon Inn's gold and the Inn). ``doc``, its help, is a message
    (``doc=_("cards in hand")``) that ``tablekeeper games`` shows translated.
    ``free``: a player may move it by hand (a pod's up/down on it is an
    ``adjust``); False for a count the game's own actions keep (cards in a
    pile, stacks built), which a stray press must never change.
    """

    name: str
    start: StartValue = 0
    lo: int | None = 0
    hi: int | None = None
    bank: str | None = None
    doc: str = ""
    free: bool = True

    def start_value(self, n_players: int, options: dict[str, Any]) -> int:
        value = self.start(n_players, options) if callable(self.start) else self.start
        return self.clamp(int(value))

    def clamp(self, value: int) -> int:
        if self.lo is not None and value < self.lo:
            return self.lo
        if self.hi is not None and value > self.hi:
            return self.hi
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "min": self.lo, "max": self.hi, "doc": self.doc, "free": self.free}


@dataclass(frozen=True)
class Option:
    """A setup option: its type, default and allowed values, and how a person picks it.

    The last four say how a setup screen asks for the value without naming the
    game: ``role="starter"`` (the option names who starts: asked with the seats), ``role="record"``
    (what the play records name it, typed where there is a keyboard: no touch editor),
    ``presets`` (labelled values to pick from, labels being messages),
    ``pick_from`` (several values picked from the list another option holds) and
    ``per_player`` (each player may get one of these names). ``doc``, its help,
    is a message (``_("who goes first")``) that ``tablekeeper games`` shows translated.
    """

    name: str
    default: Any
    doc: str = ""
    choices: tuple[Any, ...] | None = None
    kind: type | tuple[type, ...] | None = None  # defaults to type(default)
    lo: int | None = None
    hi: int | None = None
    check: Callable[[Any], None] | None = field(default=None, compare=False)
    role: str | None = None
    presets: tuple[tuple[Any, Any], ...] | None = field(default=None, compare=False)
    pick_from: str | None = None
    per_player: tuple[str, ...] | None = None

    def validate(self, value: Any) -> Any:
        kind = self.kind or type(self.default)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise SetupError(_("option {name!r} must be a whole number, not {value!r}", name=self.name, value=value))
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise SetupError(_("option {name!r} must be {kind_name}, not {value!r}", name=self.name, kind_name=_kind_name(kind), value=value))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise SetupError(_("option {name!r} must be one of {allowed}, not {value!r}", name=self.name, allowed=allowed, value=value))
        # lo/hi bound a number
        if isinstance(value, int) and self.lo is not None and value < self.lo:
            raise SetupError(_("option {name!r} must be at least {lo}, not {value!r}", name=self.name, lo=self.lo, value=value))
        if isinstance(value, int) and self.hi is not None and value > self.hi:
            raise SetupError(_("option {name!r} must be at most {hi}, not {value!r}", name=self.name, hi=self.hi, value=value))
        if self.check is not None:
            self.check(value)
        return value

    def describe(self) -> dict[str, Any]:
        out = {"name": self.name, "default": self.default, "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "an object"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)
