"""What Dale of Merchants shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...fields import Field, Str
from ...game import Game
from ...messages import N_, _, word
from .rules import STARTING_DECK, slot_price


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
        """A pod asks a stall's "set" as one of the animal decks in play."""
        if action == "stall" and field.name == "set" and state["decks"]:
            return Str("set", choices=tuple(state["decks"]), doc=field.doc)
        return super().pod_field(state, name, action, field)

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        if state["over"]:
            return []
        if not state["decks"]:
            return [{"label": word("label", "draw decks"), "action": {"action": "draw_decks"}}]
        if state["turn"]["player"] != name:
            return []
        p = next(p for p in state["players"] if p["name"] == name)
        actions = state["table"]["actions"]
        items = []
        if actions and p["counters"]["hand"]:
            items += [
                {"label": word("label", "technique"), "action": {"action": "technique", "player": name}},
                {"label": word("label", "technique +1"),
                 "action": {"action": "technique", "player": name, "bonus": True}},
                {"label": _("discard {count}", count=1), "action": {"action": "inventory", "player": name, "count": 1}},
            ]
        if state["turn"]["actions_taken"]:
            end = {"label": word("label", "end turn"), "action": {"action": "end_turn", "player": name}}
            items.insert(0 if not actions else len(items), end)
        elif actions and not p["counters"]["hand"]:
            items.append({"label": word("label", "pass"), "action": {"action": "inventory", "player": name, "count": 0}})
        return items
