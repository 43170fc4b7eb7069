"""dale-of-merchants — referee and memory for Dale of Merchants (2–4 players).

The cards stay physical: players shuffle, draw, buy and play them. The device
keeps what a table forgets or argues about: whose turn it is and how many
actions are left, what each market card costs, whether a payment or a stall
stack is legal, how far each stall has come, and the sizes of the piles the
rules depend on (each player's hand, deck and discard pile; the market deck and
the market discard pile).

Rules: ``../shared/RULES.md`` (Dale of Merchants) and the Spanish rulebook
``seeds/dale-of-merchants.es.txt``; the actions and the interpretations are in
``docs/games/dale-of-merchants.md``.

Market slots are numbered by their surcharge, as printed on the board: slot 0
is the rightmost (price = value), slot 4 the leftmost (price = value + 4).
Lists of slots given or shown left to right (as the board is seen) therefore
run 4, 3, 2, 1, 0.
"""
from __future__ import annotations

from .rules import DaleOfMerchantsRules
from .views import DaleOfMerchantsViews
from .words import DaleOfMerchantsWords


class DaleOfMerchants(DaleOfMerchantsViews, DaleOfMerchantsWords, DaleOfMerchantsRules):
    """Dale of Merchants: its rules (rules.py), what a seat sees (views.py), its sentences (words.py)."""


GAME = DaleOfMerchants
