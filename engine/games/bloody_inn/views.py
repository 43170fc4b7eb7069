"""What The Bloody Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...fields import Bool, Field, Int, Str
from ...game import Game
from ...messages import _, word
from .annexes import ANNEX_NAMES, discount, unknown_power
from .rules import CASH_MAX, CHECK, wages_due
from .words import _annex


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
        elif mine and turn["action"] == 2 and wages_due(p) > p["counters"]["cash"]:
            status = _("wages {due}F > cash {cash}F", due=wages_due(p), cash=p["counters"]["cash"])
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
            "alert": mine and (bool(p["corpses"]) and any(r["guest"] and r["police"] for r in state["inn"]["rooms"])
                               or turn["action"] == 2 and wages_due(p) > p["counters"]["cash"]),
            "table": table,
        }

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field) -> Field | None:
        """A pod asks "bistro" as a number of peasants (bribe: 1–2) or a yes (kill: one peasant), an
        annex's "name" from the base game's annexes, and the "annex" of a burial from the annexes built."""
        if field.name == "bistro" and action == "bribe":
            return Int("bistro", required=False, lo=1, hi=2, doc=field.doc)
        if field.name == "bistro" and action == "kill":
            return Bool("bistro", doc=field.doc)
        if field.name == "name" and action == "build":
            return Str("name", required=False, choices=ANNEX_NAMES, doc=field.doc)
        if field.name == "annex" and action == "bury":
            names: list[str] = []
            mine = next(p for p in state["players"] if p["name"] == name)
            for p in [mine] + [p for p in state["players"] if p is not mine]:
                names += [x["name"] for x in p["annexes"] if x["name"] not in names]
            return Str("annex", required=False, choices=names, doc=field.doc)
        return super().pod_field(state, name, action, field)

    @staticmethod
    def _cost_asks(p: dict[str, Any], rank: int | None, action: str) -> list[str]:
        """The cost fields only the player knows: how many played cards are peasants when the hand
        leaves a choice, how many return to the hand when a traveller may be played."""
        peasants = p["peasants"]
        travellers = p["hand"] - peasants - (1 if action == "build" else 0)
        others = travellers - min(p.get("police", 0), travellers)
        played = None if rank is None or unknown_power(p) else max(0, rank - discount(p, action))
        if played == 0:
            return []
        out = []
        if peasants and travellers and (played is None or min(played, peasants) > max(0, played - travellers)):
            out.append("peasants")
        if others:
            out.append("kept")
        return out

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        if state["over"]:
            return []
        phase = state["phase"]
        if phase == "welcome" and state["first_player"] == name:
            return [{"label": word("label", "welcome"), "action": {"action": "welcome"}},
                    {"label": word("label", "welcome: police"), "action": {"action": "welcome"},
                     "ask": ["police_rooms"]}]
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
        out += self._burials(state, p)
        rooms = [r["room"] for r in state["inn"]["rooms"] if r["guest"]]
        if rooms:
            out.append({"label": word("label", "kill a guest"),
                        "action": {"action": "kill", "player": name, "room": rooms[0]},
                        "ask": ["room", "rank"] + self._cost_asks(p, None, "kill")})
        bistro = state["inn"]["bistro"]
        if bistro:
            out.append({"label": word("label", "bribe: 2 peasants") if bistro >= 2 else
                        word("label", "bribe: 1 peasant"),
                        "action": {"action": "bribe", "player": name, "bistro": min(2, bistro)}})
        if rooms:
            out.append({"label": word("label", "bribe a guest"),
                        "action": {"action": "bribe", "player": name, "room": rooms[0]},
                        "ask": ["room", "rank"] + self._cost_asks(p, None, "bribe")})
        travellers = p["hand"] - p["peasants"]
        if travellers - min(p.get("police", 0), travellers) > 0:
            out.append({"label": word("label", "build an annex"), "action": {"action": "build", "player": name},
                        "ask": ["rank", "effect", "name"] + self._cost_asks(p, None, "build")})
        if bistro:
            out.append({"label": word("label", "kill: bistro"),
                        "action": {"action": "kill", "player": name, "bistro": True}})
        return out

    def _burials(self, state: dict[str, Any], p: dict[str, Any]) -> list[dict[str, Any]]:
        """A burial per annex with room left (your own first): the corpse is asked only when they differ."""
        corpses = p["corpses"]
        if not corpses:
            return []
        alike = all(c == corpses[0] for c in corpses)
        rank = corpses[0]["rank"] if alike else None
        if rank is not None and rank > p["hand"] and unknown_power(p) is False and discount(p, "bury") == 0:
            return []
        out = []
        players = [p] + [q for q in state["players"] if q is not p]
        for q in players:
            for i, x in enumerate(q["annexes"]):
                if len(x["buried"]) >= x["rank"]:
                    continue
                action: dict[str, Any] = {"action": "bury", "player": p["name"], "corpse": 1}
                if q is p and i == 0:
                    action["annex"] = 0  # the barn, as it always was
                    label = word("label", "bury: barn")
                elif q is p:
                    action["annex"] = x["name"]
                    label = _("bury: {annex}", annex=_annex(x["name"]))
                else:
                    action.update(owner=q["name"], annex=x["name"])
                    label = _("bury: {owner}'s {annex}", owner=q["name"], annex=_annex(x["name"]))
                ask = ([] if alike else ["corpse"]) + self._cost_asks(p, rank, "bury")
                out.append({"label": label, "action": action, **({"ask": ask} if ask else {})})
        return out
