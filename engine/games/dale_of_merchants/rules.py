"""Dale of Merchants' rules: turns and actions left, market prices, payments, stall stacks, the piles.

The parts stand in this package: table.py (the numbers, the pure rules, the setup, the shared helpers),
market.py, turn.py and effects.py (the actions); the game's consequences and its generic corrections
are here."""
from __future__ import annotations

from ...errors import RuleError
from ...messages import _
from ...state import Txn
from .effects import DaleOfMerchantsEffects
from .market import DaleOfMerchantsMarket
from .table import (
    BASE_DECKS,
    MARKET_SLOTS,
    STALL_STACKS,
    STARTING_DECK,
    payment_verdict,
    slot_position,
    slot_price,
    stack_verdict,
)
from .turn import DaleOfMerchantsTurn

#: What the views and the tests read from here (defined with the table).
__all__ = ["BASE_DECKS", "MARKET_SLOTS", "STARTING_DECK", "DaleOfMerchantsRules", "payment_verdict", "slot_position",
           "slot_price", "stack_verdict"]


class DaleOfMerchantsRules(DaleOfMerchantsEffects, DaleOfMerchantsTurn, DaleOfMerchantsMarket):
    """The game's setup, actions and consequences."""

    # -- generic corrections ---------------------------------------------------------
    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        applied = super().adjust(t, who, counter, delta)
        if who is None and counter == "actions" and applied > 0:
            # An action added by hand: the bonus action of a technique entered without "bonus".
            t.state["turn"]["bonuses"] += applied
        if who is not None and counter == "stall":
            # A corrected count keeps the recorded stacks in step: a stack added by
            # hand is recorded without its cards (null); one taken away is dropped.
            p = t.player(who)
            n = p["counters"]["stall"]
            del p["stacks"][n:]
            p["stacks"].extend([None] * (n - len(p["stacks"])))
        return applied

    def transfer(self, t: Txn, giver: str, taker: str, counter: str, amount: int) -> int:
        if counter == "stall":
            raise RuleError(_("a stall stack cannot change hands; correct a count with adjust"))
        if counter == "deck":
            # Fase de limpieza 1: "tú o cualquier otra persona necesite sacar nuevas cartas de él":
            # cards taken from an empty deck come from the giver's reshuffled discard pile.
            taken = self._take_from_deck(t, giver, amount)
            t.add(taker, "deck", taken)
            return taken
        return super().transfer(t, giver, taker, counter, amount)

    def consequences(self, t: Txn) -> None:
        # Fin del juego: whoever places the 8th stack wins at once, by any route.
        done = [p["name"] for p in t.players if p["counters"]["stall"] >= STALL_STACKS]
        if done:
            t.finish(done, why=_("the {number}th stack completes the stall", number=STALL_STACKS))
