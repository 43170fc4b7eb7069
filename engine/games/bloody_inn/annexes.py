"""The Bloody Inn's annex powers: the effect types of the base game's card list, and what an
innkeeper's annexes allow (discounts, extra actions) or do every round (bonus, waived wages).

An annex built with an ``effect`` carries it in its dict (``effect`` and ``amount``); the
device then applies it every round. An annex built without one (every annex of older games)
has an effect the device does not know: it applies nothing, and it forbids nothing either.
"""
from __future__ import annotations

from typing import Any

from ...errors import SetupError
from ...messages import _, listing

#: Recurring or one-off powers, as the base game's annex cards print them (publisher's card list):
#: the gardens (+2F at the departure), the distillery (one wage less), the parlor and the workshop
#: (one accomplice fewer to bribe, to build), the butcher's shop (several kills in one action),
#: the park (4F at once; a gain at the end), the kiosk and the vegetable garden (francs at once);
#: and an annex that opens a closed room with its builder's key («Ahora determinará qué salas están
#: abiertas»: the board has more rooms than the setup opens); francs at the departure for each other
#: annex its owner has (two rulebook readers' tables had one: a «Destilería», a «Casa de postas»); and a
#: burial under the annex cheaper for whoever buries there, its owner or another (a rulebook reader's
#: «Capilla»: «quien entierra un cadáver bajo tu Capilla juega una carta menos»); checks at once (a rulebook
#: reader's «Casa de empeños»: «toma 1 cheque de 10F del suministro»).
EFFECTS = ("morning_bonus", "wages_waived", "bribe_discount", "build_discount", "kill_discount",
           "bury_discount", "extra_kill", "extra_action", "gain_now", "gain_checks", "end_game", "open_room", "other", "none",
           "per_annex_bonus", "bury_here_discount")
#: What ``amount`` means by default for each effect (francs, wages or cards); None: no amount.
DEFAULT_AMOUNT: dict[str, int | None] = {
    "morning_bonus": 2, "wages_waived": 1, "bribe_discount": 1, "build_discount": 1, "kill_discount": 1,
    "bury_discount": 1, "extra_kill": None, "extra_action": None, "gain_now": 0, "gain_checks": 1, "end_game": None,
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
#: The highest rank of a traveller card, and so of the annex built from it (0–3).
MAX_RANK = 3


def check_own_cards(value: list[Any]) -> None:
    """Option ``annexes``: the annex cards of a table's own copy (another edition, an expansion, cards the
    table made), each a name or ``{"name", "effect", "amount", "rank"}`` (all but the name optional)."""
    seen: set[str] = set()
    for item in value:
        card = {"name": item} if isinstance(item, str) else item
        if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not card["name"].strip():
            raise SetupError(_("option 'annexes': each card is a name or an object with a \"name\", "
                               "like {{\"name\": \"Destilería\", \"effect\": \"wages_waived\"}}, not {item!r}",
                               item=item))
        name = card["name"]
        unknown = sorted(set(card) - {"name", "effect", "amount", "rank"})
        if unknown:
            raise SetupError(_("option 'annexes': {name!r} has {keys}: a card has only name, effect, amount and rank",
                               name=name, keys=listing(unknown)))
        if name in seen:
            raise SetupError(_("option 'annexes': {name!r} is listed twice", name=name))
        seen.add(name)
        effect = card.get("effect")
        if effect is not None and effect not in EFFECTS:
            raise SetupError(_("option 'annexes': {name!r} has the effect {effect!r}, which is none of {effects}",
                               name=name, effect=effect, effects=listing(EFFECTS)))
        amount = card.get("amount")
        if amount is not None and (effect is None or DEFAULT_AMOUNT[effect] is None):
            raise SetupError(_("option 'annexes': {name!r} has an amount but no effect that takes one (a bonus, "
                               "waived wages, a discount, a gain now)", name=name))
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int) or amount < 0):
            raise SetupError(_("option 'annexes': {name!r} has the amount {amount!r}: a whole number from 0",
                               name=name, amount=amount))
        rank = card.get("rank")
        if rank is not None and (isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= MAX_RANK):
            raise SetupError(_("option 'annexes': {name!r} has the rank {rank!r}: 0, 1, 2 or 3", name=name,
                               rank=rank))


def own_cards(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The table's own annex cards (option ``annexes``) by name, each as an object."""
    cards = ({"name": c} if isinstance(c, str) else c for c in options.get("annexes") or ())
    return {c["name"]: c for c in cards}


def card_power(options: dict[str, Any], card: str | None) -> tuple[str | None, int | None] | None:
    """The power a build's ``card`` brings, ``(effect, amount)`` (``(None, None)``: a card whose power
    the device is not told), the table's own copy's first, then the base game's; None for no card."""
    own = own_cards(options).get(card or "")
    if own is not None:
        effect = own.get("effect")
        return effect, (own.get("amount", DEFAULT_AMOUNT[effect]) if effect is not None else None)
    if card in NAME_EFFECT:
        effect = NAME_EFFECT[card]
        return effect, NAME_AMOUNT.get(card, DEFAULT_AMOUNT[effect])
    return None


def card_names(options: dict[str, Any], rank: int | None = None) -> tuple[str, ...]:
    """The cards a build names: the table's own copy's (those of ``rank`` and those with no rank given)
    when the table listed them, else the base game's."""
    own = own_cards(options)
    if not own:
        return ANNEX_NAMES
    return tuple(n for n, c in own.items() if rank is None or c.get("rank") in (None, rank))


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


def night_end_extra(state: dict[str, Any], name: str) -> bool:
    """Whether ``name`` may take an annex's one more action at the night's end: every action done and the morning
    not begun (the turn keeps whose action was ``last``), for an owner of an ``extra_action`` annex who took none this
    night (``night_extras``) — «justo después de tu segunda acción» for the night's last player, and an eighth
    rulebook reader's «Capilla», «después de las segundas acciones de todos», for anyone."""
    turn = state["turn"]
    if state["phase"] != "morning" or turn.get("last") is None:
        return False
    p = next(q for q in state["players"] if q["name"] == name)
    return bool(powers(p, "extra_action")) and name not in turn.get("night_extras", ())


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
