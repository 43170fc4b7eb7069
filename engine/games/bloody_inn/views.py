"""What The Bloody Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...fields import Bool, Field, Int
from ...game import Game
from ...messages import _, word
from .rules import CASH_MAX, CHECK


class BloodyInnViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "cash"
    off_pod = frozenset({"correct"})  # what the device keeps, set right on the touchscreen

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "phase": state["phase"],
            "turn": dict(state["turn"]),
            "first_player": state["first_player"],
            "last_round": state["last_round"],
            "inn": {**state["inn"], "rooms": [dict(r) for r in state["inn"]["rooms"]]},
            "ledger": dict(state["ledger"]),
            "final_count": None if state["final_count"] is None else
            {k: dict(v) for k, v in state["final_count"].items()},
            "solo": None if state["solo"] is None else dict(state["solo"]),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        phase = state["phase"]
        turn = state["turn"]
        mine = phase == "night" and turn["player"] == name
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            solo = state["solo"]
            if solo is not None:
                status = word("status", "LOST") if solo["lost"] else (
                    _("{band} innkeeper", band=word("innkeeper", solo["band"])) if solo["band"]
                    else word("status", "game over"))
            else:
                status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif mine:
            status = _("your turn: action {number}", number=turn["action"])
        elif phase == "welcome" and state["first_player"] == name:
            status = word("status", "welcome travellers")
        elif phase == "morning" and state["first_player"] == name:
            status = word("status", "morning: press")
        elif phase == "count":
            status = word("status", "final count")
        else:
            status = ""
        table = [[word("counter", "round"), state["table"]["round"]],
                 [word("label", "entrance"), state["inn"]["entrance"]]]
        if state["last_round"] and not state["over"]:
            table[0] = [word("label", "LAST round"), state["table"]["round"]]
        return {
            "counters": [[word("counter", "cash"), p["counters"]["cash"]],
                         [word("counter", "checks"), p["counters"]["checks"]],
                         [word("label", "hand"), p["hand"]], [word("label", "corpses"), len(p["corpses"])]],
            "status": status,
            "alert": mine and bool(p["corpses"]) and any(r["guest"] and r["police"] for r in state["inn"]["rooms"]),
            "table": table,
        }

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field) -> Field | None:
        """A pod asks "bistro" as a number of peasants (bribe: 1–2) or a yes (kill: one peasant)."""
        if field.name == "bistro" and action == "bribe":
            return Int("bistro", required=False, lo=1, hi=2, doc=field.doc)
        if field.name == "bistro" and action == "kill":
            return Bool("bistro", doc=field.doc)
        return super().pod_field(state, name, action, field)

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        if state["over"]:
            return []
        phase = state["phase"]
        if phase == "welcome" and state["first_player"] == name:
            return [{"label": word("label", "welcome"), "action": {"action": "welcome"}}]
        if phase == "morning" and state["first_player"] == name:
            return [{"label": word("label", "morning"), "action": {"action": "morning"}}]
        if phase == "count":
            return [{"label": word("label", "final count"), "action": {"action": "resolve"}}]
        if phase != "night" or state["turn"]["player"] != name:
            return []
        p = next(p for p in state["players"] if p["name"] == name)
        me = {"action": "pass", "player": name}
        out = [{"label": word("label", "pass"), "action": dict(me)}]
        cash, checks = p["counters"]["cash"], p["counters"]["checks"]
        if cash >= CHECK:
            out.append({"label": _("bank {amount}F", amount=CHECK * (cash // CHECK)),
                        "action": {**me, "checks": cash // CHECK}})
        if checks and cash + CHECK <= CASH_MAX:
            out.append({"label": word("label", "cash a check"), "action": {**me, "checks": -1}})
        if p["corpses"] and len(p["annexes"][0]["buried"]) < p["annexes"][0]["rank"] \
                and p["corpses"][0]["rank"] <= p["hand"]:
            out.append({"label": word("label", "bury: barn"), "action": {"action": "bury", "player": name, "corpse": 1,
                                                          "annex": 0}})
        return out
