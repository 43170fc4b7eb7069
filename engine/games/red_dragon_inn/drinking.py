"""The Red Dragon Inn's drinks: bought for another player, drunk (chasers and all, as one drink), drink
events, and the drink piles corrected."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Bool, Int, Player, Str
from ...game import action
from ...messages import N_, _, listing
from ...state import Args, Txn
from .drinks import CHASERS, COMMON_DRINKS, DRINK_WORDS, drink_effects
from .table import DRINK_EVENTS, RedDragonInnTable, others_in_order
from .words import EVENT_WORDS, _effect


class RedDragonInnDrinks(RedDragonInnTable):
    """Buying and drinking."""

    @action("buy", fields=(
        Bool("extra"),
        Player("to"),
        Int("count", default=1, lo=1),
        Player("player", required=False),
        Player("also", required=False,
               doc=_("another player who gets as many extra drinks: a card's drinks split between two (Wizgille's "
                     "device: «darle una o ambas Bebidas adicionales»)")),
    ))
    def _buy(self, t: Txn, a: Args) -> None:
        """Top card of the drink deck onto another player's Drink Me! pile (phase 3), or an extra drink from a card."""
        extra = a.bool("extra")
        to = a.player("to")
        count = a.int("count")
        if extra:
            buyer = a.player("player", None)
        else:
            buyer = self._active(t, a, "buy")
            if count != 1:
                raise RuleError(_('the buy drinks phase buys one drink; a card\'s extra drinks are "extra": true'))
            self._no_round(t, "buy")
            phase = t.state["turn"]["phase"]
            if phase == "drink":
                raise RuleError(_("{who} has already bought this turn's drink: now {who} drinks "
                                  "(a card's extra drink is an extra buy)", who=buyer))
            # Buying in phase 1 or 2 says that nothing was recorded for them: the turn moves on.
            if to == buyer:
                raise RuleError(_("{who} buys the drink for another player, not for themselves", who=buyer))
        also = a.player("also", None)
        if also is not None and (not extra or also == to):
            raise RuleError(_("also: a card's extra drinks for a second player, not {to} again", to=to) if extra else
                            _('the buy drinks phase buys one drink; a card\'s extra drinks are "extra": true'))
        for who in (to, also) if also is not None else (to,):
            got = self._take_from_deck(t, count, strict=True)
            t.add(who, "drink_me", got)
            if buyer:
                t.event(N_("{buyer} buys {to} {n} drink", "{buyer} buys {to} {n} drinks", got, buyer=buyer, to=who))
            else:
                t.event(N_("{to} gets {n} drink", "{to} gets {n} drinks", got, to=who))
        if not extra:
            t.state["turn"]["phase"] = "drink"

    @action("drink", fields=(
        Bool("extra"),
        Str("drink", required=False, choices=tuple(COMMON_DRINKS),
            doc=_("the common drink revealed, by name: its effects are added")),
        Str("chaser", required=False, choices=CHASERS,
            doc=_("the common drink revealed as its chaser: its effects are added (one chaser at least); "
                  "\"other\": a card not on the list, its effects in the amounts")),
        Str("second_chaser", required=False, choices=CHASERS,
            doc=_("the common drink revealed after a chaser that was itself a drink with a chaser: its "
                  "effects are added (two chasers at least)")),
        Int("alcohol", default=0),
        Int("fortitude", default=0),
        Int("gold", default=0),
        Int("chasers", default=0, lo=0),
        Str("from", default="drink_me", choices=("drink_me", "deck")),
        Player("player", required=False),
    ))
    def _drink(self, t: Txn, a: Args) -> None:
        """Reveal the top of a Drink Me! pile (phase 4) and apply it, chasers and all, as ONE drink.

        "drink" and "chaser" name the common drinks revealed (their effects
        are added), "second_chaser" the one revealed after a chaser that had
        a chaser of its own; "alcohol", "fortitude", "gold": the effects of any other
        card revealed (each clamps to its bounds; gold comes from / goes to
        the Inn). "chasers": how many more cards were revealed from the same
        pile (at least 1 when "chaser" is named). With an empty pile the
        player sobers up (alcohol −1). In phase 4 the turn then passes to the
        left; "extra": true is a drink a card makes someone take at another
        time ("from": "deck" to reveal it from the drink deck).
        """
        extra = a.bool("extra")
        named = a.str("drink", None)
        chaser = a.str("chaser", None)
        second = a.str("second_chaser", None)
        alcohol = a.int("alcohol")
        fortitude = a.int("fortitude")
        gold = a.int("gold")
        chasers = a.int("chasers")
        source = a.str("from")
        if second is not None and chaser is None:
            raise RuleError(_("name the first chaser too: the second chaser is revealed after it"))
        if chaser is not None:
            chasers = max(chasers, 1 if second is None else 2)
        plus_alcohol, plus_fortitude = drink_effects(named, chaser, second)
        alcohol += plus_alcohol
        fortitude += plus_fortitude
        if extra:
            who = a.player("player", None) or t.state["turn"]["player"]
        else:
            who = self._active(t, a, "drink")
            self._no_round(t, "drink")
            phase = t.state["turn"]["phase"]
            if phase != "drink":
                raise RuleError(_("{who} buys a drink for another player first, then drinks "
                                  "(a drink a card makes someone take is an extra drink)", who=who))
            if source != "drink_me":
                raise RuleError(_("in the drink phase {who} drinks from their own Drink Me! pile; "
                                  "a drink from the drink deck is an extra drink", who=who))
        cards = 1 + chasers
        effects = alcohol or fortitude or gold or named or chaser
        named_drinks = (named, chaser, second)
        if source == "drink_me":
            pile = t.get(who, "drink_me")
            if pile == 0:
                if effects or chasers:
                    raise RuleError(_("{who}'s Drink Me! pile is empty: there is no drink to reveal, "
                                      "{who} sobers up instead (alcohol −1)", who=who))
                t.add(who, "alcohol", -1)
                t.event(_("{who} has no Drink Me! cards and sobers up: alcohol −1", who=who))
            else:
                if cards > pile and pile == 1:
                    raise RuleError(_("{who}'s Drink Me! pile has only 1 card: there is no card left "
                                      "for a chaser", who=who))
                if cards > pile:
                    raise RuleError(_("{who}'s Drink Me! pile has only {n} cards: the drink and "
                                      "at most {chasers}", who=who, n=pile,
                                      chasers=N_("{n} chaser", "{n} chasers", pile - 1)))
                t.add(who, "drink_me", -cards)
                t.state["drinks"]["discard"] += cards
                self._apply_drink(t, who, alcohol, fortitude, gold, chasers, named_drinks)
        else:
            self._take_from_deck(t, cards, strict=True)
            t.state["drinks"]["discard"] += cards
            self._apply_drink(t, who, alcohol, fortitude, gold, chasers, named_drinks)
            if extra:
                self._drunk_in_event(t, who, alcohol)
        if not extra:
            self._start_next_turn(t)

    def _apply_drink(self, t: Txn, who: str, alcohol: int, fortitude: int, gold: int, chasers: int,
                     named: tuple[str | None, ...] = ()) -> None:
        parts = []
        if alcohol:
            parts.append(_effect("alcohol", t.add(who, "alcohol", alcohol)))
        if fortitude:
            parts.append(_effect("fortitude", t.add(who, "fortitude", fortitude)))
        if gold:
            parts.append(_effect("gold", self.adjust(t, who, "gold", gold)))
        effects = listing(parts) if parts else _("no effect")
        if any(named):
            drinks = listing(DRINK_WORDS[d] for d in named if d)
            effects = _("{drinks}: {effects}", drinks=drinks, effects=effects)
        if chasers:
            t.event(N_("{who} drinks with {n} chaser: {effects}", "{who} drinks with {n} chasers: {effects}", chasers,
                       who=who, effects=effects))
        else:
            t.event(_("{who} drinks: {effects}", who=who, effects=effects))

    @action("drink_event", fields=(
        Str("kind", default="round", choices=DRINK_EVENTS,
            doc=_("round: everyone drinks one from the drink deck; contest: the same, and the strongest "
                  "drink takes 1 gold from every other player (option contest: or the weakest pays each)")),
        Player("player", required=False),
        Bool("again", doc=_("a drinking contest the device just found tied: the tied players each drink one more "
                            "from the drink deck, until one is alone (the card's tie-break: «los empatados revelan "
                            "otra carta»); player: one of them")),
    ))
    def _drink_event(self, t: Txn, a: Args) -> None:
        """A drink event card revealed from one's own Drink Me! pile (phase 4): not a drink ("Eventos de
        bebidas": follow the card). Every player still in, from the revealer on, then drinks one card
        from the drink deck (an extra drink each, ``"from": "deck"``); when the last has drunk, a
        contest pays its winner — the one whose drink's alcohol is highest, alone — 1 gold from each
        other player (a tie: nobody, as the card is read at the table), and the turn passes. With the
        option ``contest`` at "weakest_pays" the weakest drink, alone, pays 1 gold to each other player.
        """
        kind = a.str("kind")
        if a.bool("again"):
            self._contest_again(t, a, kind)
            return
        who = self._active(t, a, "drink")
        self._no_round(t, "drink")
        if t.state["turn"]["phase"] != "drink":
            raise RuleError(_("{who} buys a drink for another player first, then drinks "
                              "(a drink event is revealed from the Drink Me! pile)", who=who))
        if t.get(who, "drink_me") == 0:
            raise RuleError(_("{who}'s Drink Me! pile is empty: there is no card to reveal", who=who))
        t.add(who, "drink_me", -1)
        t.state["drinks"]["discard"] += 1
        waiting = [who] + others_in_order(t.state, who)
        t.state["drink_event"] = {"kind": kind, "by": who, "waiting": waiting, "strength": {}}
        t.event(_("{who} reveals a drink event ({kind}): {waiting} each drink one from the drink deck",
                  who=who, kind=EVENT_WORDS[kind], waiting=listing(waiting)))

    def _contest_again(self, t: Txn, a: Args, kind: str) -> None:
        """The tie-break of a drinking contest the device found tied: only the tied players drink again, from
        the deck; the one alone at the top (at the bottom, option ``contest`` at "weakest_pays") then settles with
        every other player still in, and the turn, already passed, stays where it is."""
        tied = [n for n in t.state.pop("contest_tie", []) if not t.player(n)["out"]]
        if kind != "contest" or len(tied) < 2:
            raise RuleError(_("no drinking contest is tied just now: nobody drinks again"))
        if t.state.get("drink_event") is not None:
            raise RuleError(_("a drink event is on: {waiting} still drink one from the drink deck first",
                              waiting=listing(t.state["drink_event"]["waiting"])))
        who = a.player("player", None) or tied[0]
        if who not in tied:
            raise RuleError(_("{who} is not tied in the drinking contest ({tied} are): only they drink again",
                              who=who, tied=listing(tied)))
        self._tie_break(t, who, tied)

    @staticmethod
    def _tie_break(t: Txn, by: str, tied: list[str]) -> None:
        """The tied players of a drinking contest drink one more each from the deck (a drink event of their own)."""
        t.state["drink_event"] = {"kind": "contest", "by": by, "waiting": tied, "strength": {}, "again": True}
        t.event(_("the drinking contest's tie-break: {tied} each drink one more from the drink deck",
                  tied=listing(tied)))

    def _drunk_in_event(self, t: Txn, who: str, strength: int) -> None:
        """``who`` drank their card of a drink event; when nobody still in waits, the event ends."""
        ev = t.state.get("drink_event")
        if ev is None or who not in ev["waiting"]:
            return
        ev["waiting"].remove(who)
        ev["strength"][who] = strength
        self._end_event_if_done(t)

    def _end_event_if_done(self, t: Txn) -> None:
        ev = t.state.get("drink_event")
        if ev is None:
            return
        ev["waiting"] = [n for n in ev["waiting"] if not t.player(n)["out"]]
        if ev["waiting"]:
            return
        del t.state["drink_event"]
        again = ev.get("again", False)
        if ev["kind"] == "contest":
            strength = {n: v for n, v in ev["strength"].items() if not t.player(n)["out"]}
            weakest = self.options["contest"] == "weakest_pays"
            end = (min if weakest else max)(strength.values(), default=None)
            ends = [n for n, v in strength.items() if v == end]
            # a tie-break settles with everyone still in, not only those who drank again
            settle = [p["name"] for p in t.in_game()] if again else list(strength)
            if len(ends) == 1 or self.options["contest_tie"] == "all":
                # the one alone at the end, or (option contest_tie "all") each tied one as if alone, with the others
                rest = [n for n in settle if n not in ends]
                for end_ in ends:
                    moved = [n for n in rest if (self.transfer(t, end_, n, "gold", 1) if weakest
                                                 else self.transfer(t, n, end_, "gold", 1))]
                    if weakest:
                        t.event(_("{loser} loses the drinking contest: pays 1 gold to {got}", loser=end_,
                                  got=listing(moved) if moved else _("nobody")))
                    else:
                        t.event(_("{winner} wins the drinking contest: {paid} pay 1 gold each", winner=end_,
                                  paid=listing(moved) if moved else _("nobody")))
            elif self.options["contest_tie"] == "again":
                self._tie_break(t, ev["by"], ends)
            else:
                t.event(_("the drinking contest is a tie ({who}): nobody pays", who=listing(ends)))
                # until the next action, each tied player's pod offers the win (or the loss) the table may read on
                # the card
                t.state["contest_tie"] = ends
        if not again:  # the turn passed when the contest itself ended
            self._start_next_turn(t)

    @action("drink_piles", adjustment=True, fields=(Int("deck", lo=0), Int("discard", lo=0)))
    def _drink_piles(self, t: Txn, a: Args) -> None:
        """Correct the drink deck and discard counts to match the table; a deck set to 0 runs out."""
        deck = a.int("deck")
        discard = a.int("discard")
        d = t.state["drinks"]
        d["deck"], d["discard"] = deck, discard
        if deck == 0:
            self._run_out(t)
