"""The Red Dragon Inn's rules: the Inn as the bank, drinks, the last chance window, turns and gambling.

The parts stand in this package: table.py (the numbers, the setup, the turns, the drink deck, the
corrections), drinking.py and gambling.py (the actions); the last chance window and the table-wide
effects are here."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Player, Str
from ...game import ActionInfo, action
from ...messages import _, listing, word
from ...state import Args, Txn
from .drinking import RedDragonInnDrinks
from .gambling import RedDragonInnGambling
from .table import (
    CARDS,
    DRINK_EVENTS,
    EVERYONE_COUNTERS,
    FIXED_COUNTERS,
    OUT_OF_GOLD,
    PASSING_OUT,
    others_in_order,
)
from .words import LOSS_WORDS

#: What the views read from here (defined with the table).
__all__ = ["CARDS", "DRINK_EVENTS", "FIXED_COUNTERS", "OUT_OF_GOLD", "PASSING_OUT", "RedDragonInnRules",
           "others_in_order"]


class RedDragonInnRules(RedDragonInnGambling, RedDragonInnDrinks):
    """The game's setup, actions and consequences."""

    # -- the last chance window ----------------------------------------------------
    def before_action(self, t: Txn, info: ActionInfo, a: Args) -> None:
        again = info.name == "drink_event" and a.raw("again", False) is True  # the tie-break reads the tie itself
        if (not info.adjustment or info.name == "everyone") and not again:
            # a tied contest's win is offered until the next action (a correction aside) or a win paid
            t.state.pop("contest_tie", None)
        if not t.state["pending"] or info.adjustment:
            return
        # A card played in the last chance window may make someone drink or give
        # drinks: those ("extra": true) leave the window open, like adjustments.
        if info.name in ("drink", "buy") and a.raw("extra", False) is True:
            return
        pending = list(t.state["pending"])
        actor = self._default_actor(t.state, info.name) if not a.has("player") else None
        self.resolve_pending(t)
        who = listing(_("{name} ({reason})", name=e["name"], reason=LOSS_WORDS.get(e["reason"], e["reason"]))
                      for e in pending)
        if t.state["over"] and info.name != "resolve":
            raise RuleError(_("the pending losses of {who} end the game ({result}): "
                              "send resolve to end it, or change the numbers first",
                              who=who, result=self.result_words(t.state)))
        if actor is not None and self._default_actor(t.state, info.name) != actor:
            # Applying the losses put the player this action was meant for out
            # (or ended the round): it would silently act for someone else.
            raise RuleError(_("{who} must be settled first, and that changes whose turn it is: "
                              "press resolve, then go on", who=who))

    def actor(self, state: dict[str, Any], action: dict[str, Any]) -> str | None:
        by = action.get("by")
        if action.get("action") in ("force_out", "end_round") and isinstance(by, str):
            return by  # who played the card, also out of turn
        if action.get("action") == "force_out" and state.get("gambling") is not None:
            # "player" is who is thrown out; the card is played by the player to act in the round (a
            # play-tester's thrown-out player could undo the card played against him)
            to_act: str | None = state["gambling"].get("to_act")
            return to_act
        player = action.get("player")
        if isinstance(player, str):
            return player
        return self._default_actor(state, action.get("action"))

    @staticmethod
    def _default_actor(state: dict[str, Any], name: str | None) -> str | None:
        """Who an action without "player" acts for: the active player, or the player to act in the round."""
        who: str | None = None
        if name in ("next", "buy", "drink", "gamble", "everyone", "drink_event"):
            who = state["turn"]["player"]
        elif name in ("play", "pass") and state["gambling"] is not None:
            who = state["gambling"]["to_act"]
        return who

    @action("resolve", when_over=True)
    def _resolve(self, t: Txn, a: Args) -> None:
        """Close the last chance window and apply the pending losses (a no-op when nothing is pending).

        Also a harmless no-op after the game ended (a second press of the button).
        """
        if t.state["pending"] and not t.state["over"]:
            self.resolve_pending(t)

    def consequences(self, t: Txn) -> None:
        """Recompute the pending losses: alcohol ≥ fortitude, or 0 gold outside a gambling round."""
        t.state["pending"] = self._losses(t)

    def _losses(self, t: Txn) -> list[dict[str, Any]]:
        out = []
        gambling = t.state["gambling"] is not None
        for p in t.in_game():
            c = p["counters"]
            if c["alcohol"] >= c["fortitude"]:
                out.append({"name": p["name"], "reason": PASSING_OUT})
            elif c["gold"] == 0 and not gambling:
                # During a gambling round a player at 0 gold stays in until it ends.
                out.append({"name": p["name"], "reason": OUT_OF_GOLD})
        return out

    def resolve_pending(self, t: Txn) -> None:
        """Apply the losses: all pass-out splits first, then the zero-gold checks."""
        st = t.state
        before = [p["name"] for p in t.in_game()]
        passing = [p["name"] for p in t.in_game() if p["counters"]["alcohol"] >= p["counters"]["fortitude"]]
        staying = [n for n in before if n not in passing]
        for name in passing:
            self._split(t, name, staying)
        broke = [] if st["gambling"] is not None else [n for n in staying if t.get(n, "gold") == 0]
        for name in passing:
            self._lose(t, name, _("passed out"))
        for name in broke:
            self._lose(t, name, _("out of gold"))
        st["pending"] = []
        still = [p["name"] for p in t.in_game()]
        if len(still) <= 1 and st["gambling"] is not None:
            self._close_round(t, still)
        if not still:
            t.finish(before, draw=True, why=_("every player still in lost at once"))
            return
        if len(still) == 1:
            t.finish(still, why=_("last one standing"))
            return
        if st["gambling"] is not None:
            self._check_round_end(t)
        elif st.get("drink_event") is not None:
            self._end_event_if_done(t)  # a drink event ends when nobody still in waits (and passes the turn)
        elif t.player(st["turn"]["player"])["out"]:
            self._start_next_turn(t)

    def _split(self, t: Txn, name: str, staying: list[str]) -> None:
        """Passing out: half the gold and the odd coin to the Inn; the rest split evenly; remainder to the Inn."""
        gold = t.get(name, "gold")
        to_inn = gold - gold // 2
        rest = gold // 2
        share = rest // len(staying) if staying else 0
        to_inn += rest - share * len(staying)
        t.add(name, "gold", -gold)
        t.add(None, "inn", to_inn)
        for other in staying:
            if share:
                t.add(other, "gold", share)
        if gold and share:
            t.event(_("{name} passes out: {to_inn} of {gold} gold to the Inn, {share} to each of {others}",
                      name=name, to_inn=to_inn, gold=gold, share=share, others=listing(staying)))
        elif gold:
            t.event(_("{name} passes out: {to_inn} of {gold} gold to the Inn", name=name, to_inn=to_inn, gold=gold))

    def _lose(self, t: Txn, name: str, why: str) -> None:
        cards = t.get(name, "drink_me")
        if cards:
            t.add(name, "drink_me", -cards)
            t.state["drinks"]["discard"] += cards
        t.eliminate(name, why)
        g = t.state["gambling"]
        if g is not None and name in g["players"]:
            self._remove_from_round(t, name)

    # -- table-wide effects ----------------------------------------------------------------------
    @action("everyone", adjustment=True, fields=(
        Str("counter", choices=EVERYONE_COUNTERS, doc=_("which counter every player changes")),
        Int("delta", doc=_("what each player gets (negative: what each pays or loses)")),
        Str("side", default="inn", choices=("inn", "player"),
            doc=_("the other side of a gold payment: the Inn, or the acting player (then every other player)")),
        Bool("others", doc=_("every player still in but the acting player")),
        Player("player", required=False, doc=_("who plays the card (default: whose turn it is)")),
    ))
    def _everyone(self, t: Txn, a: Args) -> None:
        """A card's effect on every player still in (or every other player) at once.

        "each other player pays Ana 1 gold": counter gold, delta −1,
        "side": "player", "player": "Ana"; "everybody drinks to the Inn's
        health": counter alcohol, delta 1. Each pays only as much as they have.
        """
        counter = a.str("counter")
        delta = a.int("delta")
        side = a.str("side")
        others = a.bool("others")
        who = a.player("player", None) or t.state["turn"]["player"]
        if delta == 0:
            raise RuleError(_("say how much each player gets or pays"))
        if side == "player":
            if counter != "gold":
                raise RuleError(_("only gold is paid to a player; {counter} comes from nobody",
                                  counter=word("counter", counter)))
            others = True
        targets = [p["name"] for p in t.in_game() if not (others and p["name"] == who)]
        parts = []
        for name in targets:
            if side == "player":
                moved = self.transfer(t, name, who, counter, -delta) if delta < 0 else \
                    -self.transfer(t, who, name, counter, delta)
                parts.append(_("{who} {delta:+d}", who=name, delta=-moved))
            else:
                parts.append(_("{who} {delta:+d}", who=name, delta=self.adjust(t, name, counter, delta)))
        t.event(_("everyone's {counter}: {changes}", counter=word("counter", counter), changes=listing(parts)))
