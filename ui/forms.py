"""Which fields an action takes (what its ``@action`` declaration says, engine/fields.py), and which offers a
player card shows as buttons.

The generic "any action" form of the app asks for exactly the declared
fields, with their kinds, bounds, choices and defaults; games get guided
dialogs of their own on top (:mod:`tablekeeper.ui.games`).
"""
from __future__ import annotations

from typing import Any

from ..engine.fields import Field
from ..engine.game import Game, Offer, first_sentence

__all__ = ["Field", "GENERIC", "action_fields", "first_line", "game_actions", "touch_actions"]

#: The actions every game has, with screens of their own (not in the generic form).
GENERIC = ("adjust", "transfer", "resolve")


def action_fields(rules: Game | type[Game], name: str) -> list[Field]:
    """The fields of action ``name`` of a game (class or instance), as declared."""
    cls = rules if isinstance(rules, type) else type(rules)
    info = cls.actions.get(name)
    return list(info.fields) if info is not None else []


def game_actions(rules: Game | type[Game]) -> list[str]:
    """A game's own actions (not adjust/transfer/resolve), in declaration order."""
    cls = rules if isinstance(rules, type) else type(rules)
    return [n for n in cls.actions if n not in GENERIC]


def first_line(doc: str) -> str:
    """The first sentence of an action's docstring (its one-line help)."""
    return first_sentence(doc)


def touch_actions(rules: Game, state: dict[str, Any], name: str) -> list[Offer]:
    """The game's offers for ``name`` that a player card's button can do as they are: an offer that
    asks something first (a pod's entry steps) is left to the game's dialogs and the action form."""
    return [a for a in rules.seat_actions(state, name) if not a.get("ask")]
