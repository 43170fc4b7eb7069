"""Dragon Run's rules: the dungeon, the dragon's temper, charges, hiding and crying, treasure cards, dice.

The parts stand in this package: table.py (the numbers, the setup, the shared helpers), turn.py (the deal
and the turn) and cards.py (the treasure cards and the corrections); the end of the game is here."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Int, Player
from ...game import action
from ...messages import N_, _, listing
from ...state import Args, Txn
from .cards import DragonRunCards
from .table import (
    DIE_FACES,
    HAND_SIZE,
    ICONS,
    MAX_CARD,
    ROOM_ICONS,
    _card_range,
    _cheapest,
    _highest_range,
)
from .turn import DragonRunTurn
from .words import _sum_words

#: What the views and the tests read from here (defined with the table).
__all__ = ["DIE_FACES", "HAND_SIZE", "ICONS", "ROOM_ICONS", "DragonRunRules", "_cheapest",
           "_highest_range"]


class DragonRunRules(DragonRunCards, DragonRunTurn):
    """The game's setup, actions and consequences."""

    # -- the end -----------------------------------------------------------------------
    def _check_end(self, t: Txn) -> None:
        """Temper 0: the survivors count their treasure. Nobody alive: the dragon wins.

        The device asks what it does not know, and only then: the total of a hand holding cards whose
        values were never entered, and, for a tie, the highest card of a tied hand it cannot tell.
        """
        st = t.state
        alive = t.in_game()
        if not alive:
            st["dragon_won"] = True
            st["turn"]["phase"] = "over"
            st["to_count"], st["asking"] = [], None
            t.finish([], why=_("every adventurer is dead: the dragon wins"))
            return
        if t.get(None, "temper") > 0:
            return
        if st["turn"]["phase"] != "count":
            st["turn"]["phase"] = "count"
            # «Los jugadores cuentan las monedas de oro en sus cartas del tesoro»: the talismans still in
            # play are theirs (the game ended before the reshuffle that discards them), so they count.
            for p in alive:
                if p["talismans"]:
                    t.event(_("{name}'s talismans in play count with the treasure in hand ({values}): the game "
                              "ends before the reshuffle that would discard them", name=p["name"],
                              values=_sum_words(p["talismans"])))
        missing = [p["name"] for p in alive if p["unknown"] and p["unknown_worth"] is None]
        if missing:
            if st["asking"] != "total":
                t.event(_("the dragon sleeps: {players}, add up the treasure cards in your hand (the device "
                          "does not know every card)", players=listing(missing)))
            st["to_count"], st["asking"] = missing, "total"
            return
        final = {p["name"]: p["counters"]["treasure"] + sum(p["talismans"]) for p in alive}
        best = max(final.values())
        top = [p for p in alive if final[p["name"]] == best]
        if len(top) == 1:
            st["to_count"], st["asking"] = [], None
            st["turn"]["phase"] = "over"
            t.finish([top[0]["name"]], why=_("the dragon sleeps; the richest survivor escapes with {best}", best=best))
            return
        # «el juego pasa al jugador con la Carta del Tesoro más alta»: the highest card in hand or in play.
        ranges = {p["name"]: _card_range(p) for p in top}
        surest = max(lo for lo, _hi in ranges.values())
        contenders = [p for p in top if ranges[p["name"]][1] >= surest]
        unsure = [p["name"] for p in contenders if ranges[p["name"]][0] != ranges[p["name"]][1]]
        if unsure:
            if unsure != st["to_count"] or st["asking"] != "highest":
                t.event(_("tied at {best}: {players}, say the highest treasure card in your hand", best=best,
                          players=listing(unsure)))
            st["to_count"], st["asking"] = unsure, "highest"
            return
        st["to_count"], st["asking"] = [], None
        st["turn"]["phase"] = "over"
        names = [p["name"] for p in contenders]
        if len(names) == 1:
            t.finish(names, why=_("the dragon sleeps; tied at {best}, the highest treasure card ({highest}) decides",
                                  best=best, highest=surest))
        else:
            # A shared win, not a draw: the contract keeps `draw` for "everyone still in lost at once".
            t.finish(names, why=_("the dragon sleeps; tied at {best} with the same highest card ({highest}): "
                                  "a shared win", best=best, highest=surest))

    def consequences(self, t: Txn) -> None:
        self._kill_the_dead(t)
        self._refill(t)
        self._check_end(t)

    @action("count", fields=(
        Player("player"),
        Int("total", required=False, lo=0,
            doc=_("the total of the treasure cards in your hand (the talismans in play are added by the device)")),
        Int("highest", required=False, lo=0, hi=MAX_CARD,
            doc=_("for a tie: the highest treasure card in your hand")),
    ))
    def _count(self, t: Txn, a: Args) -> None:
        """At the end, a survivor holding cards whose values the device does not know adds up their hand
        ("total"); for a tie the device cannot settle, a tied player says their highest card ("highest")."""
        st = t.state
        if st["turn"]["phase"] != "count":
            raise RuleError(_("the treasure is counted at the end, when the dragon's temper reaches 0"))
        name = a.player("player")
        if name not in st["to_count"]:
            raise RuleError(_("the device knows {name}'s treasure: {players} must count",
                              name=name, players=listing(st["to_count"])))
        p = t.player(name)
        total = a.int("total") if a.raw("total", None) is not None else None
        highest = a.int("highest") if a.raw("highest", None) is not None else None
        if total is None and highest is None:
            raise RuleError(_("count: enter the total of the treasure cards in your hand"))
        if total is None and p["unknown_worth"] is None:
            raise RuleError(_("count: first the total of the treasure cards in your hand"))
        if total is not None:
            known, n = sum(p["cards"]), p["unknown"]
            most = known + n * MAX_CARD
            if not known <= total <= most:
                raise RuleError(N_(
                    "{name}'s hand holds {known} in the cards the device knows and {n} card more, worth 0–{card}: "
                    "its total is {known}–{most}, not {total}",
                    "{name}'s hand holds {known} in the cards the device knows and {n} cards more, worth 0–{card} "
                    "each: its total is {known}–{most}, not {total}", n, name=name, known=known, card=MAX_CARD,
                    most=most, total=total))
            p["unknown_worth"] = total - known
            p["said_highest"] = None
            self._set_cards(t, name, p["cards"])
            t.event(_("{name} counts {total} in the hand", name=name, total=total))
        if highest is not None:
            lo, hi = _highest_range(p)
            if not lo <= highest <= hi:
                raise RuleError(_("with these cards {name}'s highest treasure card in hand is {lo}–{hi}, not "
                                  "{highest}", name=name, lo=lo, hi=hi, highest=highest))
            p["said_highest"] = highest
            self._set_cards(t, name, p["cards"])
            t.event(_("{name}'s highest treasure card in hand: {highest}", name=name, highest=highest))
