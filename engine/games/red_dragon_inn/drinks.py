"""The base box's common drinks: one list for the engine, the pods and the touchscreen.

RULES.md ("Common drinks", from the publisher's cards): ales +1 alcohol, wine
+2, elven wine +3, dragon breath ale +4, water −1 alcohol, holy water +2
fortitude, dirty dishwater −1 fortitude, orcish rotgut −2 fortitude. A drink
action names one by its id (``"drink": "wine"``); any other drink is entered
as +/− amounts. The names are English text the screens translate (the app's
catalog has them); :data:`DRINK_WORDS` are the pod's words for the ids.
"""
from __future__ import annotations

from ...messages import Msg, word

#: id → (name, alcohol, fortitude), in the order the screens list them.
COMMON_DRINKS: dict[str, tuple[str, int, int]] = {
    "ale": ("Ale", 1, 0),
    "wine": ("Wine", 2, 0),
    "elven_wine": ("Elven Wine", 3, 0),
    "dragon_breath_ale": ("Dragon Breath Ale", 4, 0),
    "water": ("Water", -1, 0),
    "holy_water": ("Holy Water", 0, 2),
    "dirty_dishwater": ("Dirty Dishwater", 0, -1),
    "orcish_rotgut": ("Orcish Rotgut", 0, -2),
}

#: A drink's id as the pod (and the history) says it: its name in words ("elven wine", never the id).
DRINK_WORDS: dict[str, Msg] = {
    "ale": word("drink", "ale"),
    "wine": word("drink", "wine"),
    "elven_wine": word("drink", "elven wine"),
    "dragon_breath_ale": word("drink", "dragon breath ale"),
    "water": word("drink", "water"),
    "holy_water": word("drink", "holy water"),
    "dirty_dishwater": word("drink", "dirty dishwater"),
    "orcish_rotgut": word("drink", "orcish rotgut"),
    "other": word("drink", "other"),  # a chaser not on the list (OTHER, below)
}


#: A chaser not on the common list (another box's card, a house drink): named "other", its effects are
#: the drink's amounts (``alcohol``, ``fortitude``) — a play-tester's mead had no name to pick.
OTHER = "other"
#: What a chaser may be named: a common drink, or another card.
CHASERS: tuple[str, ...] = (*COMMON_DRINKS, OTHER)


def drink_effects(*ids: str | None) -> tuple[int, int]:
    """The summed (alcohol, fortitude) of the named common drinks (None: not named; "other": its effects
    are given as amounts)."""
    alcohol = sum(COMMON_DRINKS[i][1] for i in ids if i in COMMON_DRINKS)
    fortitude = sum(COMMON_DRINKS[i][2] for i in ids if i in COMMON_DRINKS)
    return alcohol, fortitude
