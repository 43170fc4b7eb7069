"""The Bloody Inn's rules: its phases (the welcome, the night, the morning: a module each, on the table's
numbers, setup and money in table.py), the final count and the corrections."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Int, Player, Raw
from ...game import action
from ...messages import N_, _, listing, word
from ...state import Args, Txn
from .morning import BloodyInnMorning
from .night import BloodyInnNight
from .table import CASH_MAX, CHECK, LEDGER_CAUSES, MAX_RANK, TRAVELLERS, solo_band, wages_due
from .welcome import BloodyInnWelcome

#: What the views and the tests read from here (defined with the table).
__all__ = ["CASH_MAX", "CHECK", "LEDGER_CAUSES", "MAX_RANK", "BloodyInnRules", "solo_band", "wages_due"]


class BloodyInnRules(BloodyInnMorning, BloodyInnNight, BloodyInnWelcome):
    """The game's setup, actions and consequences: the phases, the final count, the corrections."""

    # -- the end ----------------------------------------------------------------------------
    def resolve_pending(self, t: Txn) -> None:
        if t.state["phase"] != "count":
            t.state["pending"] = []
            return
        t.state["pending"] = []
        penalty = 0 if self.solo else self.options["corpse_penalty"]
        count = {}
        for p in t.players:
            c = p["counters"]
            k = len(p["corpses"])
            total = c["cash"] + CHECK * c["checks"] - penalty * k
            count[p["name"]] = {"cash": c["cash"], "checks": c["checks"], "corpses": k,
                                "penalty": penalty * k, "total": total}
            if k and penalty:
                t.event(_("{who}: {cash}F + {checks} × {check}F − {corpses} × {penalty}F = {total}F", who=p["name"],
                          cash=c["cash"], checks=c["checks"], check=CHECK, corpses=k, penalty=penalty, total=total))
            else:
                t.event(_("{who}: {cash}F + {checks} × {check}F = {total}F", who=p["name"], cash=c["cash"],
                          checks=c["checks"], check=CHECK, total=total))
        t.state["final_count"] = count
        t.state["phase"] = "over"
        if self.solo:
            name = self.players[0]
            info = t.state["solo"]
            info["score"] = count[name]["total"]
            if count[name]["corpses"]:
                info["lost"] = True
                info["why"] = N_("{who} has {n} unburied corpse at the end", "{who} has {n} unburied corpses at the end",
                                 count[name]["corpses"], who=name)
                t.finish([], why=info["why"])
                return
            info["band"] = solo_band(info["score"])
            if info["band"]:
                t.finish([name], why=_("{score}F: {band} innkeeper", score=info["score"],
                                       band=word("innkeeper", info["band"])))
            else:
                t.finish([name], why=_("{score}F: below worrying innkeeper", score=info["score"]))
            return
        best = max(v["total"] for v in count.values())
        top = [n for n in self.players if count[n]["total"] == best]
        how = _("the richest innkeeper")
        tie = self.options["tie"]
        if len(top) > 1 and tie != "shared":
            key = "cash" if tie == "most_cash" else "checks"
            most = max(count[n][key] for n in top)
            top = [n for n in top if count[n][key] == most]
            if len(top) == 1:
                how = _("the richest innkeeper (tie broken by the most {counter})", counter=word("counter", key))
        if len(top) > 1:
            how = _("shared victory at {total}F", total=best)
        t.finish(top, why=how)

    # -- corrections --------------------------------------------------------------------------
    @action("correct", adjustment=True, fields=(
        Int("entrance", required=False, lo=0, hi=TRAVELLERS + 8),
        Int("exit", required=False, lo=0, hi=TRAVELLERS + 8),
        Int("bistro", required=False, lo=0, hi=TRAVELLERS + 8),
        Player("player", required=False),
        Int("hand", required=False, lo=0, hi=TRAVELLERS + 8),
        Int("peasants", required=False, lo=0, hi=8),
        Int("room", required=False, lo=1),
        Raw("guest"),
        Raw("police"),
    ))
    def _correct(self, t: Txn, a: Args) -> None:
        """Set what the device keeps to what the table shows (an annex effect, a slip).

        Any of: "entrance", "exit", "bistro" (stack sizes); "player" with "hand"
        and/or "peasants" (peasants in hand); "room" with "guest" and/or "police".
        Money is never corrected here: use adjust, which the ledger records.
        """
        inn = t.state["inn"]
        changed = []
        for key in ("entrance", "exit", "bistro"):
            v = a.int(key, None)
            if v is not None:
                inn[key] = v
                changed.append(_("{pile} {size}", pile=word("pile", key), size=v))
        who = a.player("player", None)
        hand = a.int("hand", None)
        peasants = a.int("peasants", None)
        if (hand is not None or peasants is not None) and who is None:
            raise RuleError(_('correct: "hand" and "peasants" need "player"'))
        if who is not None:
            p = t.player(who)
            new_hand = p["hand"] if hand is None else hand
            new_peasants = p["peasants"] if peasants is None else peasants
            if new_peasants > new_hand:
                raise RuleError(N_("{who} cannot hold {n} peasant in a hand of {hand}",
                                   "{who} cannot hold {n} peasants in a hand of {hand}", new_peasants, who=who,
                                   hand=new_hand))
            p["hand"], p["peasants"] = new_hand, new_peasants
            p["police"] = min(p.get("police", 0), new_hand - new_peasants)
            changed.append(N_("{who}'s hand {hand} ({n} peasant)", "{who}'s hand {hand} ({n} peasants)", new_peasants,
                              who=who, hand=new_hand))
        room = a.int("room", None)
        guest = a.raw("guest", None)
        police = a.raw("police", None)
        for key, v in (("guest", guest), ("police", police)):
            if v is not None and not isinstance(v, bool):
                raise RuleError(_('correct: "{key}" must be true or false, not {value!r}', key=key, value=v))
        if (guest is not None or police is not None) and room is None:
            raise RuleError(_('correct: "guest" and "police" need "room"'))
        if room is not None:
            r = self._room(t, room)
            if guest is not None:
                r["guest"] = guest
            if police is not None:
                r["police"] = police
            r["police"] = r["police"] and r["guest"]
            changed.append(_("room {room}: police guest", room=room) if r["police"] else
                           _("room {room}: guest", room=room) if r["guest"] else _("room {room}: empty", room=room))
        if not changed:
            raise RuleError(_("correct: nothing to correct (entrance, exit, bistro, player+hand/peasants, "
                              "room+guest/police)"))
        t.event(_("corrected: {changes}", changes=listing(changed)))
