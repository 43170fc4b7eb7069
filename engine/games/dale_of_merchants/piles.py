"""The piles of Dale of Merchants the device keeps counts of (read by the rules and by the words)."""
from __future__ import annotations

JUNK = "junk"
#: Piles a card effect may move cards between (the ``move`` action).
PLAYER_PILES = ("hand", "deck", "discard")
TABLE_PILES = ("market_deck", "market_discard")
PILES = PLAYER_PILES + TABLE_PILES + (JUNK,)
