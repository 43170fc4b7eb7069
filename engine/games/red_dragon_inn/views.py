"""What The Red Dragon Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from typing import Any

from ...game import Game
from ...messages import _, word
from .rules import CARDS, FIXED_COUNTERS, OUT_OF_GOLD, PASSING_OUT

#: The cards on a pod's buttons.
CARD_LABELS = {"gambling": word("label", "gambling"), "cheat": word("label", "cheat"),
               "winning_hand": word("label", "winning hand")}
#: A pod's alarm for a pending loss.
LOSS_ALARMS = {PASSING_OUT: word("status", "PASSING OUT"), OUT_OF_GOLD: word("status", "OUT OF GOLD")}


class RedDragonInnViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "gold"
    off_pod = frozenset({"drink_piles"})  # a correction of the piles, made on the touchscreen
    #: What the pod asks of a drink in phase 4: the common drink revealed and its chaser by name, then
    #: the effects of any other card (main-hold skips the rest).
    DRINK_ASKS = ["drink", "chaser", "alcohol", "fortitude", "gold", "chasers"]

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        g = state["gambling"]
        return {
            "turn": dict(state["turn"]),
            "drinks": dict(state["drinks"]),
            "gambling": None if g is None else {k: (list(v) if isinstance(v, list) else v) for k, v in g.items()},
        }

    # -- pods ----------------------------------------------------------------------------------
    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        c = p["counters"]
        counters = [[word("counter", k), c[k]] for k in ("gold", "alcohol", "fortitude", "drink_me")]
        counters += [[word("counter", k), v] for k, v in c.items() if k not in FIXED_COUNTERS]
        g = state["gambling"]
        turn = state["turn"]
        mine = [e for e in state["pending"] if e["name"] == name]
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            if name not in state["winners"]:
                status = word("status", "game over")
            else:
                status = word("status", "draw") if state["draw"] else word("status", "winner")
        elif p["out"]:
            status = word("status", "out")
        elif mine:
            reason = mine[0]["reason"]
            status = LOSS_ALARMS.get(reason, reason.upper())
        elif g is not None:
            if name in g["left"]:
                status = word("status", "left the round")
            elif g["to_act"] == name:
                status = word("status", "gamble: play/pass")
            elif g["control"] == name:
                status = word("status", "in control")
            else:
                status = word("status", "gambling")
        elif turn["player"] == name:
            status = _("your turn: {phase}", phase=word("phase", turn["phase"]))
        else:
            status = ""
        if g is not None:
            table = [[word("counter", "pot"), state["table"]["pot"]], [word("table", "control"), g["control"] or "-"]]
        else:
            table = [[word("table", "deck"), state["drinks"]["deck"]], [word("table", "turn"), turn["player"]]]
        return {"counters": counters, "status": status, "alert": bool(mine) and not state["over"], "table": table}

    def seat_actions(self, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
        p = next(p for p in state["players"] if p["name"] == name)
        if state["over"] or p["out"]:
            return []
        if state["pending"]:
            return [{"label": word("label", "resolve"), "action": {"action": "resolve"}}]
        g = state["gambling"]
        if g is not None:
            if g["to_act"] != name:
                return []
            out = [{"label": word("label", "pass"), "action": {"action": "pass", "player": name}}]
            for card in CARDS:
                if g["last"] != "winning_hand" or card == "cheat":
                    out.append({"label": CARD_LABELS[card],
                                "action": {"action": "play", "player": name, "card": card}})
            return out
        turn = state["turn"]
        if turn["player"] != name:
            return []
        phase = turn["phase"]
        if phase in ("discard", "action", "buy"):
            # Phases 1 and 2 cost nothing: buying says nothing happened in them.
            names = [q["name"] for q in state["players"]]
            i = names.index(name)
            order = [state["players"][(i + k) % len(names)] for k in range(1, len(names))]
            out = [{"label": _("drink for {name}", name=q["name"]),
                    "action": {"action": "buy", "player": name, "to": q["name"]}}
                   for q in order if not q["out"]]
            if phase != "buy":
                out.append({"label": word("label", "gamble"), "action": {"action": "gamble", "player": name}})
            return out
        if p["counters"]["drink_me"]:
            return [{"label": word("label", "drink"), "action": {"action": "drink", "player": name},
                     "ask": list(self.DRINK_ASKS)}]
        return [{"label": word("label", "sober up"), "action": {"action": "drink", "player": name}}]
