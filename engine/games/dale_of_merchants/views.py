"""What Dale of Merchants shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...fields import Field, Ints, Str
from ...game import Game
from ...messages import N_, _, word
from .rules import MARKET_SLOTS, MAX_VALUE, STARTING_DECK, slot_position, slot_price

#: The highest value printed on a base-box card.
TOP_PRINTED = 5



class DaleOfMerchantsViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "stall"

    # -- views ---------------------------------------------------------------------
    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        n = len(self.players)
        turn = state["turn"]
        return {
            "turn": {"player": turn["player"], "number": turn["number"],
                     "actions_left": state["table"]["actions"], "actions_taken": turn["actions_taken"]},
            "decks": list(state["decks"]),
            "starting_deck": {"cards": STARTING_DECK, "animal_ones": n + 1, "junk": STARTING_DECK - (n + 1)},
            "market": [
                {"slot": slot, "card": cell["card"], "value": cell["value"],
                 "price": None if cell["value"] is None else slot_price(slot, cell["value"])}
                for slot, cell in reversed(list(enumerate(state["market"])))
            ],
            "payment_check": state["payment_check"],
            # Technique cards played whose effects are being resolved: in no pile until the next action
            # or the clean-up (Acción técnica).
            "in_play": len(turn["played"]),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        actions = state["table"]["actions"]
        if state["over"]:
            status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif not state["decks"]:
            status = word("status", "choose decks")
        elif state["turn"]["player"] == name:
            status = N_("your turn: {n} action", "your turn: {n} actions", actions) if actions else \
                word("status", "your turn: end turn")
        else:
            status = _("{who}'s turn", who=state["turn"]["player"])
        return {
            "counters": [[word("counter", k), p["counters"][k]] for k in ("stall", "hand", "deck", "discard")],
            "status": status,
            "alert": False,
            "table": [[word("counter", "actions"), actions],
                      [word("label", "market deck"), state["table"]["market_deck"]]],
        }

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field) -> Field | None:
        """How a pod asks this game's fields: the opening deal's five values as one list, a stall's "set"
        among the decks in play. A pod names a market card by its routine item ("buy card 5: price 2",
        counted from the left) or, in the menu's generic form, by "slot"; it never asks "position" (the
        same card twice) nor "clean_up" (the routine items decide it)."""
        if field.name in ("position", "clean_up"):
            return None
        if action == "set_market":
            # The opening deal (Preparar 3): five cards turned up at once, their values entered left to
            # right in one list. Later, cards are entered one by one ("slot" and "value").
            opening = bool(state["decks"]) and all(c["card"] and c["value"] is None for c in state["market"])
            if field.name == "values":
                return Ints("values", lo=1, hi=MAX_VALUE, doc=field.doc) if opening else None
            if opening:
                return None
        if action == "stall" and field.name == "set" and state["decks"]:
            return Str("set", choices=tuple(state["decks"]), doc=field.doc)
        return super().pod_field(state, name, action, field)

    def pod_actions(self, state: dict[str, Any], name: str) -> list[str]:
        """The menu's other actions: the turn's and the card effects' first, the market corrections
        (set_market) after them."""
        names = super().pod_actions(state, name)
        return [n for n in names if n != "set_market"] + (["set_market"] if "set_market" in names else [])

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        """The routine actions of the moment, each with what the device knows filled in and only the
        player's own choices to "ask".

        Every seat: a market card's value the moment it is turned up (the opening deal's five as one
        list). The player whose turn it is: once the market's values are known, a buy per market
        card (named by its place from the left and its price; cheapest first; "ask": the values
        paid, starting with junk as far as the hand goes), the next stall stack ("ask": its values,
        starting at one card of the stack's number, and its set); technique, technique with its
        bonus action, discard ("ask": how many); end turn once an action is taken, and the bonus
        action of a technique entered without it. The turn's last action cleans up by itself
        ("clean_up"), as "end turn" would.
        """
        if state["over"]:
            return []
        if not state["decks"]:
            return [{"label": word("label", "draw decks"), "action": {"action": "draw_decks"}}]
        items = self._market_entries(state)
        waiting = len(items)
        if state["turn"]["player"] != name:
            return items
        p = next(p for p in state["players"] if p["name"] == name)
        hand = p["counters"]["hand"]
        actions = state["table"]["actions"]
        turn = state["turn"]
        then = {"clean_up": True} if actions == 1 else {}
        if actions and hand:
            if not waiting:  # the market first: its prices are what a buy is checked against
                buys = self._buys(state, name, hand, then)
                items += buys[:1]
                items.append({"label": _("stack {number}", number=p["counters"]["stall"] + 1),
                              "ask": ["values", "set"],
                              "action": {"action": "stall", "player": name, **self._likely_stack(state, p), **then}})
                items += buys[1:]
            items += [
                {"label": word("label", "technique"), "action": {"action": "technique", "player": name}},
                {"label": word("label", "technique +1"),
                 "action": {"action": "technique", "player": name, "bonus": True}},
                {"label": word("label", "discard"), "ask": ["count"],
                 "action": {"action": "inventory", "player": name, "count": 1, **then}},
            ]
        elif actions:
            items.append({"label": word("label", "pass"),
                          "action": {"action": "inventory", "player": name, "count": 0, **then}})
        if turn["actions_taken"]:
            end = {"label": word("label", "end turn"), "action": {"action": "end_turn", "player": name}}
            items.insert(len(items) if actions else waiting, end)
            if not actions and turn["techniques"] > turn["bonuses"]:
                items.append({"label": word("label", "bonus action"),
                              "action": {"action": "adjust", "counter": "actions", "delta": 1}})
        return items

    @staticmethod
    def _market_entries(state: dict[str, Any]) -> list[dict[str, Any]]:
        """The market cards turned up but not entered: the opening deal's five as one list, later each
        new card on its own, leftmost first (any seat may enter them)."""
        market = state["market"]
        unknown = [slot for slot in reversed(range(MARKET_SLOTS)) if market[slot]["card"] and market[slot]["value"] is None]
        if not unknown:
            return []
        if len(unknown) == MARKET_SLOTS:
            return [{"label": word("label", "market values"), "ask": ["values"], "action": {"action": "set_market"}}]
        # Market cards are valued 2–5 in the base box (the 1s stay out of the market deck): start at 2.
        return [{"label": _("new card {position}", position=slot_position(unknown[0])), "ask": ["value"],
                 "action": {"action": "set_market", "slot": unknown[0], "value": 2}}]

    @staticmethod
    def _buys(state: dict[str, Any], name: str, hand: int, then: dict[str, Any]) -> list[dict[str, Any]]:
        """A buy per market card, cheapest first (the rightmost on a tie), named by its place from the
        left and its price, paid with junk (1s) as far as the hand goes."""
        cards = sorted((slot_price(slot, c["value"]), slot) for slot, c in enumerate(state["market"])
                       if c["card"] and c["value"] is not None)
        return [{"label": _("buy card {position}: {price}", position=slot_position(slot), price=price),
                 "ask": ["paid"],
                 "action": {"action": "buy", "player": name, "slot": slot, "paid": [1] * max(1, min(price, hand)),
                            **then}}
                for price, slot in cards]

    @staticmethod
    def _likely_stack(state: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
        """The next stack as one card of its number (a 5 and the rest above 5), of the set of the
        player's last stack (else the first deck in play)."""
        number = p["counters"]["stall"] + 1
        last = next((s["set"] for s in reversed(p["stacks"]) if s is not None), None)
        values = [number] if number <= TOP_PRINTED else [TOP_PRINTED, number - TOP_PRINTED]
        return {"values": values, "set": last if last in state["decks"] else state["decks"][0]}
