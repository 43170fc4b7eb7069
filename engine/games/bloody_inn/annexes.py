"""The Bloody Inn's annex powers: the effect types of the base game's card list, and what an
innkeeper's annexes allow (discounts, extra actions) or do every round (bonus, waived wages).

An annex built with an ``effect`` carries it in its dict (``effect`` and ``amount``); the
device then applies it every round. An annex built without one (every annex of older games)
has an effect the device does not know: it applies nothing, and it forbids nothing either.
"""
from __future__ import annotations

from typing import Any

#: Recurring or one-off powers, as the base game's annex cards print them (publisher's card list):
#: the gardens (+2F at the departure), the distillery (one wage less), the parlor and the workshop
#: (one accomplice fewer to bribe, to build), the butcher's shop (several kills in one action),
#: the park (4F at once; a gain at the end), the kiosk and the vegetable garden (francs at once);
#: and an annex that opens a closed room with its builder's key («Ahora determinará qué salas están
#: abiertas»: the board has more rooms than the setup opens); francs at the departure for each other
#: annex its owner has (two rulebook readers' tables had one: a «Destilería», a «Casa de postas»); and a
#: burial under the annex cheaper for whoever buries there, its owner or another (a rulebook reader's
#: «Capilla»: «quien entierra un cadáver bajo tu Capilla juega una carta menos»).
EFFECTS = ("morning_bonus", "wages_waived", "bribe_discount", "build_discount", "kill_discount",
           "bury_discount", "extra_kill", "extra_action", "gain_now", "end_game", "open_room", "other", "none",
           "per_annex_bonus", "bury_here_discount")
#: What ``amount`` means by default for each effect (francs, wages or cards); None: no amount.
DEFAULT_AMOUNT: dict[str, int | None] = {
    "morning_bonus": 2, "wages_waived": 1, "bribe_discount": 1, "build_discount": 1, "kill_discount": 1,
    "bury_discount": 1, "extra_kill": None, "extra_action": None, "gain_now": 0, "end_game": None,
    "open_room": None, "other": None, "none": None, "per_annex_bonus": 1, "bury_here_discount": 1}
#: The base game's annexes a pod offers as names (free text stays possible in a script).
ANNEX_NAMES = ("distillery", "gardens", "parlor", "workshop", "butcher's shop", "park", "kiosk",
               "vegetable garden", "room service", "chapel")
CARD_ACTIONS = ("bribe", "build", "kill", "bury")
#: Each base-game annex's power (the publisher's card list, as the table above says): an annex
#: named from this list and built without an ``effect`` gets its card's (see ``prepare``).
NAME_EFFECT: dict[str, str] = {
    "distillery": "wages_waived", "gardens": "morning_bonus", "parlor": "bribe_discount",
    "workshop": "build_discount", "butcher's shop": "extra_kill", "park": "gain_now", "kiosk": "gain_now",
    "vegetable garden": "gain_now", "room service": "other", "chapel": "other"}
#: The amounts the card list prints where they differ from the effect's default (the park: 4F at once).
NAME_AMOUNT: dict[str, int] = {"park": 4}


def built(p: dict[str, Any]) -> list[dict[str, Any]]:
    """The annexes a player built (the barn, index 0, is the player-aid card: no power)."""
    annexes: list[dict[str, Any]] = p["annexes"][1:]
    return annexes


def unknown_power(p: dict[str, Any]) -> bool:
    """Whether the player owns an annex whose power the device was not told."""
    return any("effect" not in x for x in built(p))


def powers(p: dict[str, Any], effect: str) -> list[dict[str, Any]]:
    """The player's annexes with ``effect``."""
    return [x for x in built(p) if x.get("effect") == effect]


def total(p: dict[str, Any], effect: str) -> int:
    """The sum of the amounts of the player's annexes with ``effect``."""
    return sum(int(x.get("amount") or 0) for x in powers(p, effect))


def discount(p: dict[str, Any], action: str, here: dict[str, Any] | None = None) -> int:
    """How many cards fewer the player's known annexes let them play for ``action``; for a burial under the
    annex ``here`` (anyone's), with what that annex takes off for whoever buries under it."""
    return total(p, f"{action}_discount") + (here_discount(here) if action == "bury" else 0)


def here_discount(annex: dict[str, Any] | None) -> int:
    """How many cards fewer a burial under ``annex`` costs whoever buries there (its own power)."""
    if annex is None or annex.get("effect") != "bury_here_discount":
        return 0
    return int(annex.get("amount") or 0)


def grants_extra(p: dict[str, Any], action: str, *, in_room: bool) -> bool:
    """Whether a known annex grants an extra ``action``: the butcher's shop kills several
    travellers in rooms in one action ("only applies to Travelers in rooms", publisher's card list)."""
    if powers(p, "extra_action"):
        return True
    return action == "kill" and in_room and bool(powers(p, "extra_kill"))


def waived(p: dict[str, Any]) -> int:
    """The wages the player's known annexes waive every morning (the distillery: one)."""
    return total(p, "wages_waived")
