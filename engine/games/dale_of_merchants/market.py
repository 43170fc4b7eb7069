"""Dale of Merchants' market: the animal decks in play, the market cards' values, buying, a payment
checked, a market card taken by an effect."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Ints, Player, Raw, Str
from ...game import Rng, action
from ...messages import _, listing, word
from ...state import Args, Txn
from .table import MARKET_SLOTS, MAX_VALUE, DaleOfMerchantsTable, payment_verdict, slot_price, where
from .words import _decks


class DaleOfMerchantsMarket(DaleOfMerchantsTable):
    """The setup's animal decks and the market actions."""

    # -- setup -----------------------------------------------------------------
    def prepare(self, state: dict[str, Any], action: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """``draw_decks``: draw at random the decks not given (all of them when "decks" is left out)."""
        if action.get("action") != "draw_decks" or state.get("decks"):
            return action
        given = action.get("decks", [])
        if not isinstance(given, list) or not all(isinstance(d, str) for d in given):
            return action
        pool = [d for d in self.options["box"] if d not in given]
        need = len(self.players) + 1 - len(given)
        if need <= 0 or need > len(pool):
            return action
        picks = [pool.pop(rng.randrange(len(pool))) for _pick in range(need)]
        return {**action, "decks": list(given) + picks}

    @action("draw_decks", fields=(Raw("decks"),))
    def _draw_decks(self, t: Txn, a: Args) -> None:
        """Set the animal decks in play (players + 1): "decks" names them; left out (or short),
        the device draws the missing ones at random from the box and the journal records them."""
        decks = a.raw("decks", None)
        if t.state["decks"]:
            raise RuleError(_("the animal decks are already chosen ({decks}); undo to choose again",
                              decks=_decks(t.state["decks"])))
        if decks is None:
            raise RuleError(_("draw_decks: no decks were given or drawn (the device draws them when the "
                              "action goes through a game session)"))
        if not isinstance(decks, list) or not all(isinstance(d, str) for d in decks):
            raise RuleError(_("draw_decks: 'decks' must be a list of animal deck names, not {decks!r}", decks=decks))
        box = self.options["box"]
        for d in decks:
            if d not in box:
                raise RuleError(_("{deck!r} is not a deck of the box ({box})", deck=d, box=_decks(box)))
        if len(set(decks)) != len(decks):
            raise RuleError(_("draw_decks: an animal deck is named twice"))
        need = len(self.players) + 1
        if len(decks) != need:
            raise RuleError(_("{players} players play with {need} animal decks (players + 1), not {given}",
                              players=len(self.players), need=need, given=len(decks)))
        t.state["decks"] = list(decks)
        t.event(_("animal decks in play: {decks}", decks=_decks(decks)))

    # -- market ----------------------------------------------------------------
    @action("set_market", fields=(
        Raw("values"),
        Int("slot", required=False, lo=0, hi=MARKET_SLOTS - 1),
        Int("position", required=False, lo=1, hi=MARKET_SLOTS),
        Int("value", required=False, lo=0, hi=MAX_VALUE),
    ))
    def _set_market(self, t: Txn, a: Args) -> None:
        """Enter the values of the market cards: {"position": p, "value": v} (p counted from the left,
        1–5) or {"slot": k, "value": v} (k the surcharge, 0 = rightmost) for one card, or {"values": [...]}
        for the five cards left to right (null = leave as it is)."""
        self._need_decks(t)
        if a.has("values"):
            values = a.raw("values")
            if (not isinstance(values, list) or len(values) != MARKET_SLOTS
                    or any(v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in values)):
                raise RuleError(_("{action}: '{field}' must list the {slots} slots left to right, a whole number "
                                  "or null each, not {values!r}", action=word("action", "set_market"),
                                  field=word("field", "values"), slots=MARKET_SLOTS, values=values))
            if a.has("slot") or a.has("value") or a.has("position"):
                raise RuleError(_('set_market: give either "values" for all slots, or "slot" and "value"'))
            pairs = [(MARKET_SLOTS - 1 - i, v) for i, v in enumerate(values) if v is not None]
        else:
            slot = self._slot(t, a)
            assert slot is not None
            pairs = [(slot, a.int("value"))]
        for slot, value in pairs:
            if not 0 <= value <= MAX_VALUE:
                raise RuleError(_("set_market: a card's value is 0–{most}, not {value}", most=MAX_VALUE, value=value))
            self._market_cell(t, slot)["value"] = value
        prices = [_("slot {slot} {price}", slot=s, price=slot_price(s, c["value"]))
                  for s, c in reversed(list(enumerate(t.state["market"]))) if c["card"] and c["value"] is not None]
        t.event(_("market prices: {prices}", prices=listing(prices)))

    @action("buy", fields=(
        Player("player", required=False),
        Int("slot", required=False, lo=0, hi=MARKET_SLOTS - 1),
        Int("position", required=False, lo=1, hi=MARKET_SLOTS),
        Ints("paid", lo=0),
        Int("value", required=False, lo=0, hi=MAX_VALUE),
        Int("discount", default=0, lo=0, hi=MAX_VALUE),
        Bool("clean_up"),
        Int("new_value", required=False, lo=0, hi=MAX_VALUE),
    ))
    def _buy(self, t: Txn, a: Args) -> None:
        """Market action: buy the market card at "position" (1–5 from the left) or "slot" (its surcharge,
        0 = rightmost), paying with cards of the values "paid" from hand. "value" enters the card's value
        if it is not entered yet. "discount": what a passive card the player shows takes off the price
        («Las cartas pasivas tienen efectos que se aplican cuando tienes la carta en la mano»: a rulebook
        reader's «Regateo», −1; the card keeps its value). Refused by the overpay rule. "clean_up": the clean-up follows at once; "new_value": the value of the market card it turns up."""
        who = self._active(t, a)
        slot = self._slot(t, a)
        assert slot is not None
        paid = a.ints("paid")
        value = a.int("value", None)
        self._check_action_left(t, who)
        cell = self._market_cell(t, slot)
        if value is None:
            value = cell["value"]
            if value is None:
                raise RuleError(_('enter the value of the card at {where} first ({action}, or "value")',
                                  where=where(slot), action=word("action", "set_market")))
        elif cell["value"] is not None and cell["value"] != value:
            raise RuleError(_("the card at {where} was entered as a {entered}, not a {value}; correct it with "
                              "{action}", where=where(slot), entered=cell["value"], value=value,
                              action=word("action", "set_market")))
        self._need_in_hand(t, who, len(paid), "to pay with")
        price = slot_price(slot, value)
        discount = min(a.int("discount"), price)
        if discount:
            t.event(_("{who}'s card lowers the price by {n}: {price} → {lowered}", who=who, n=discount, price=price,
                      lowered=price - discount))
            price -= discount
        ok, why = payment_verdict(price, paid)
        if not ok:
            # the card by its place as the pods count it (a play-tester read "slot 0" for his "#5")
            raise RuleError(_("{who} cannot buy the card at {where}: {why}", who=who, where=where(slot), why=why))
        self._spend_action(t, who)
        # The cards paid go to the discard pile, the card bought to the hand.
        t.add(who, "hand", 1 - len(paid))
        t.add(who, "discard", len(paid))
        t.state["market"][slot] = {"card": False, "value": None}
        self._gain(t, who, value)
        t.event(_("{who} buys the {value} at {where}: {why}", who=who, value=value, where=where(slot), why=why))
        self._then_clean_up(t, a, who)

    @action("check_payment", note=True, fields=(
        Ints("paid", lo=0),
        Int("slot", required=False, lo=0, hi=MARKET_SLOTS - 1),
        Int("position", required=False, lo=1, hi=MARKET_SLOTS),
        Int("price", required=False, lo=0),
    ))
    def _check_payment(self, t: Txn, a: Args) -> None:
        """Ask the referee whether cards of the values "paid" may pay "price" (or the price of the market
        card at "position" or "slot"); the verdict and its reason are shown as payment_check. Changes
        nothing else."""
        paid = a.ints("paid")
        slot = self._slot(t, a, required=False)
        if slot is not None:
            if a.has("price"):
                raise RuleError(_('{action}: give either "{price}" or "{slot}"', action=word("action", "check_payment"),
                                  price=word("field", "price"), slot=word("field", "slot")))
            cell = self._market_cell(t, slot)
            if cell["value"] is None:
                raise RuleError(_("enter the value of the card at {where} first ({action})", where=where(slot),
                                  action=word("action", "set_market")))
            price = slot_price(slot, cell["value"])
        else:
            price = a.int("price")
        ok, why = payment_verdict(price, paid)
        t.state["payment_check"] = {"price": price, "paid": list(paid), "ok": ok, "reason": why}
        t.event(_("accepted: {why}", why=why) if ok else _("refused: {why}", why=why))

    @action("take", fields=(
        Player("player"),
        Int("slot", required=False, lo=0, hi=MARKET_SLOTS - 1),
        Int("position", required=False, lo=1, hi=MARKET_SLOTS),
        Str("to", default="hand", choices=("hand", "discard", "deck", "market_discard")),
    ))
    def _take(self, t: Txn, a: Args) -> None:
        """A card effect takes the market card at "position" (1–5 from the left) or "slot" (0 = rightmost)
        for "player" ("to": hand, discard or deck), or throws it away ("to": "market_discard"). The slot
        stays empty until clean-up."""
        self._need_decks(t)
        who = a.player("player")
        slot = self._slot(t, a)
        assert slot is not None
        to = a.str("to")
        t.state["turn"]["alone"] = False  # the technique's effect is entered (as if in one line with it)
        self._take_card(t, who, slot, to)
