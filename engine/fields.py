"""The fields an action declares: name, kind, bounds, choices, default, help.

Each action states its fields once, on its ``@action`` decorator::

    @action("drink", fields=(Int("alcohol", default=0), Str("from", default="drink_me",
                                                                 choices=("drink_me", "deck"))))

and everything else reads that declaration: validation (an unknown field is
refused before anything else; a handler cannot read a field it did not
declare; a read takes the field's default, bounds and choices from it:
engine/state.py's ``Args``), ``tablekeeper games --json``, the app's forms,
and the action tables of docs/games/*.md (a test fails when they drift apart).

Kinds: ``int``, ``str``, ``bool``, ``ints`` (a list of whole numbers),
``player`` (a player's name), ``raw`` (any JSON value the action reads
itself: a name or null, one deck or several).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

KINDS = ("int", "str", "bool", "ints", "player", "raw")


@dataclass(frozen=True)
class Field:
    """One field of an action. ``required``: the action cannot do without it; ``default``: what
    an absent optional field means (None: the action works it out); ``lo``/``hi``: inclusive
    bounds of a number (of every number, for ``ints``); ``choices``: the values a text may take."""

    name: str
    kind: str
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] | None = None
    lo: int | None = None
    hi: int | None = None
    doc: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")

    def describe(self) -> dict[str, Any]:
        """The field as ``tablekeeper games --json`` shows it."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "required": self.required}
        for key in ("default", "choices", "lo", "hi"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if key == "choices" else value
        if self.doc:
            out["doc"] = self.doc
        return out


def _optional(required: bool | None, default: Any) -> bool:
    return default is None if required is None else required


def Int(name: str, *, required: bool | None = None, default: int | None = None, lo: int | None = None,
        hi: int | None = None, doc: str = "") -> Field:
    """A whole number; optional when it has a default (or ``required=False``)."""
    return Field(name, "int", _optional(required, default), default, None, lo, hi, doc)


def Str(name: str, *, required: bool | None = None, default: str | None = None,
        choices: Iterable[str] | None = None,
        doc: str = "") -> Field:
    return Field(name, "str", _optional(required, default), default, tuple(choices) if choices else None,
                 None, None, doc)


def Bool(name: str, *, default: bool = False, doc: str = "") -> Field:
    """A yes/no switch, false unless given."""
    return Field(name, "bool", False, default, None, None, None, doc)


def Ints(name: str, *, required: bool | None = None, default: list[int] | None = None, lo: int | None = None,
         hi: int | None = None, doc: str = "") -> Field:
    return Field(name, "ints", _optional(required, default), default, None, lo, hi, doc)


def Player(name: str = "player", *, required: bool = True, doc: str = "") -> Field:
    """A player's name (optional ones default to whoever the action concerns: whose turn it is)."""
    return Field(name, "player", required, None, None, None, None, doc)


def Raw(name: str, *, required: bool = False, doc: str = "") -> Field:
    """Any JSON value the action reads itself (a name or null, one value or a list)."""
    return Field(name, "raw", required, None, None, None, None, doc)
