"""What Dragon Run shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...game import Game
from ...messages import word
from .rules import OTHER_LOCATIONS, _cheapest

#: A pod's status line for the active player, by turn phase.
PHASE_STATUS = {"start": word("status", "charge/hide/cry"), "must_charge": word("status", "MUST CHARGE"),
                "escaped": word("status", "escaped: charge/pass"), "after_location": word("status", "pass or again"),
                "deal": word("status", "wait for the deal")}


class DragonRunViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "treasure"

    # -- views --------------------------------------------------------------------
    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "dragon_won": state["dragon_won"],
            "turn": dict(state["turn"]),
            "dungeon_discard": dict(state["discard"]),
            "last_roll": dict(state["last_roll"]) if state["last_roll"] else None,
            "to_deal": list(state["to_deal"]),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        turn = state["turn"]
        mine = turn["player"] == name and not state["over"]
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            if state["dragon_won"]:
                status = word("status", "dragon wins")
            elif len(state["winners"]) > 1 and name in state["winners"]:
                status = word("status", "tie: shared win")
            else:
                status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif p["out"]:
            status = word("status", "dead")
        elif name in state["to_deal"]:
            status = word("status", "enter your cards")
        elif mine:
            status = PHASE_STATUS[turn["phase"]]
        else:
            status = word("status", "injured") if p["counters"]["wounds"] == 1 else ""
        return {
            "counters": [[word("counter", "treasure"), p["counters"]["treasure"]],
                         [word("counter", "wounds"), p["counters"]["wounds"]], [word("counter", "highest"), p["highest"]]],
            "status": status,
            "alert": mine and turn["phase"] == "must_charge",
            "table": [[word("counter", "temper"), state["table"]["temper"]],
                      [word("counter", "dungeon"), state["table"]["dungeon"]]],
        }

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        turn = state["turn"]
        if state["over"] or turn["player"] != name or turn["phase"] == "deal":
            return []
        phase = turn["phase"]
        p = next(p for p in state["players"] if p["name"] == name)
        me = {"player": name}
        charge = []
        if state["table"]["dungeon"] > 0:  # an empty deck only comes from a correction
            if state["discard"]["other"] < OTHER_LOCATIONS:
                charge.append({"label": word("label", "charge: room"),
                               "action": {"action": "charge", "location": "other", **me}})
            charge.append({"label": word("label", "charge: dragon"),
                           "action": {"action": "charge", "location": "dragon", **me}})
        if phase == "must_charge":
            return charge
        if phase == "escaped":
            return [{"label": word("label", "pass"), "action": {"action": "pass", **me}}] + charge
        if phase == "after_location":
            return [{"label": word("label", "pass"), "action": {"action": "pass", **me}},
                    {"label": word("label", "another turn"), "action": {"action": "again", **me}}]
        out = list(charge)
        hide = _cheapest(p["cards"], 1)
        if hide:
            out.append({"label": word("label", "hide"), "action": {"action": "hide", "discard": hide, **me}})
        cry = _cheapest(p["cards"], 2)
        if cry:
            out.append({"label": word("label", "cry"), "action": {"action": "cry", "discard": cry, **me}})
        if p["power"] == "ready":
            out.append({"label": word("label", "power"), "action": {"action": "power", **me}})
        return out
