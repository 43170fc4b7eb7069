"""The piles of Dale of Merchants the device keeps counts of, and the market's places (read by the rules and by
the words)."""
from __future__ import annotations

#: The market's slots, each by its surcharge: 0 the rightmost … 4 the leftmost.
MARKET_SLOTS = 5


def slot_position(slot: int) -> int:
    """Where market ``slot`` (its surcharge: 0 = rightmost) is counted from the left: 1 (slot 4) … 5 (slot 0)."""
    return MARKET_SLOTS - slot


JUNK = "junk"
#: Piles a card effect may move cards between (the ``move`` action).
PLAYER_PILES = ("hand", "deck", "discard")
TABLE_PILES = ("market_deck", "market_discard")
PILES = PLAYER_PILES + TABLE_PILES + (JUNK,)
