"""Dale of Merchants' other turn actions: a technique played, a stall stack built, an inventory, the
clean-up that ends the turn."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Bool, Int, Ints, Player, Raw, Str
from ...game import action
from ...messages import N_, _, listing, word
from ...state import Args, Txn
from .piles import JUNK
from .table import (
    HAND_SIZE,
    MARKET_SLOTS,
    MAX_VALUE,
    PLAYED_TO,
    STALL_STACKS,
    DaleOfMerchantsTable,
    open_refill,
    others_from_left,
    position_slot,
    refill_piles,
    stack_verdict,
    takeable,
)
from .words import _sum_words


class DaleOfMerchantsTurn(DaleOfMerchantsTable):
    """The technique, stall, inventory and end-of-turn actions."""

    @action("technique", fields=(
        Player("player", required=False),
        Bool("bonus"),
        Str("to", default="discard", choices=tuple(PLAYED_TO)),
        Int("throw", required=False, lo=1),
        Int("throw_animals", required=False, lo=1,
            doc=_("that many animal cards of the hand thrown away: to the market discard pile")),
        Int("take", required=False, lo=1, hi=MARKET_SLOTS),
        Player("from_player", required=False),
        Str("pile", required=False, choices=("deck", "discard", "hand")),
        Player("give_to", required=False),
        Int("look", required=False, lo=2,
            doc=_("with from_player and pile deck: that many cards looked at off the top of that player's deck, one "
                  "into the hand, the others on that player's discard pile")),
        Str("from_each", required=False, choices=("deck", "discard", "hand"),
            doc=_("a card from that pile of each other player into the hand (a hand's at random)")),
        Bool("give_each", doc=_("a card from the hand to each other player, after the cards drawn")),
        Int("others_draw", required=False, lo=1, doc=_("each other player draws that many cards")),
        Bool("others_throw", doc=_("each other player with a card in hand throws one away, drawn at random from "
                                  "the hand: junk to the junk pile, an animal card to the market discard")),
        Int("others_junk", default=0, lo=0, doc=_("with others_throw: how many of the cards thrown were junk")),
        Bool("discard_hand"),
        Int("discard", required=False, lo=1,
            doc=_("that many cards of the hand to the discard pile (a card that discards some, not the whole hand)")),
        Int("draw", required=False, lo=1),
        Bool("clean_up"),
        Int("new_value", required=False, lo=0, hi=MAX_VALUE),
    ))
    def _technique(self, t: Txn, a: Args) -> None:
        """Technique action: play a technique card from hand. "bonus": true when it shows the
        bonus-action icon (one more action this turn, chaining). The card goes to the discard pile
        once its effects are resolved (at the next action or the clean-up); "to": "away" when the
        card says to throw it away: it goes to the market discard. Its usual effects in the same
        line, in this order: "throw", that many junk cards from the hand thrown away (to the junk pile,
        as ``move``; «las cartas basura se colocan en la pila de basura y las cartas de animales en la
        pila de descarte del mercado»: animal cards thrown away are "throw_animals", to the market discard); "take", the market card at that position (1–5 from the left) goes to the hand
        (as ``take``); "from_player" and "pile", the top card of that player's deck or discard pile,
        or a card from their hand (at random, as the card says), goes to the hand (as ``move`` with
        "from_player"); "look", that many cards looked at off the top of that
        player's deck: one to the hand, the others to that player's discard pile; "give_to", a card from the hand goes to
        that player's hand (as ``move``); "discard_hand", the rest of the hand goes to the player's
        discard pile (a card that says to discard the hand and draw anew), or "discard", that many cards
        of it (a card that discards some: «descarta … y roba otras tantas», a fifth rulebook reader's
        macaw); "draw", the player draws that many cards (as ``draw``). "others_throw": every other player with a
        card in hand throws one away, at random from the hand, "others_junk" of them junk (to the junk pile), the
        rest animal cards (to the market discard). "clean_up": the clean-up follows
        at once (the turn's last action, its effects entered: the card goes to the discard pile then);
        "new_value": the value of the market card it turns up."""
        who = self._active(t, a)
        bonus = a.bool("bonus")
        to = a.str("to")
        throw = a.int("throw", None)
        animals = a.int("throw_animals", None)
        take = a.int("take", None)
        giver = a.player("from_player", None)
        pile = a.str("pile", None)
        give_to = a.player("give_to", None)
        look = a.int("look", None)
        discard_hand = a.bool("discard_hand")
        discard = a.int("discard", None)
        draw = a.int("draw", None)
        from_each = a.str("from_each", None)
        give_each = a.bool("give_each")
        others_draw = a.int("others_draw", None)
        others_throw = a.bool("others_throw")
        others_junk = a.int("others_junk")
        others = others_from_left(t.state, who)
        holding = [o for o in others if t.get(o, "hand") > 0]
        if others_junk and not others_throw:
            raise RuleError(_('technique: "others_junk" counts the cards the others throw away ("others_throw")'))
        if others_throw and others_junk > len(holding):
            raise RuleError(N_("technique: {n} other player has a card in hand: at most {n} junk card thrown",
                               "technique: {n} other players have a card in hand: at most {n} junk cards thrown",
                               len(holding)))
        if discard is not None and discard_hand:
            raise RuleError(_("technique: some cards of the hand discarded or all the rest, not both"))
        self._check_action_left(t, who)
        if take is not None:
            self._market_cell(t, position_slot(take))
        if (giver is None) != (pile is None):
            raise RuleError(_('technique: "from_player" and "pile" go together: whose pile, and which'))
        if look is not None and pile != "deck":
            raise RuleError(_('technique: "look" is the top cards of another player\'s deck: "from_player" with '
                              '"pile": "deck"'))
        if giver == who:
            raise RuleError(_("technique: {who} takes from another player's pile, not from their own", who=who))
        if give_to == who:
            raise RuleError(_("technique: {who} gives a card to another player, not to themselves", who=who))
        self._need_in_hand(t, who, 1 + (throw or 0) + (animals or 0) + (give_to is not None) + (discard or 0),
                           "to play")
        self._spend_action(t, who)
        t.add(who, "hand", -1)
        turn = t.state["turn"]
        turn["played"].append(to)
        turn["alone"] = (all(x is None for x in (throw, animals, take, giver, give_to, discard, draw, from_each,
                                                 others_draw))
                         and not discard_hand and not give_each and not others_throw)
        turn["techniques"] += 1
        if bonus:
            turn["bonuses"] += 1
            t.add(None, "actions", 1)
            t.event(N_("{who} plays a technique with a bonus action: {n} action left",
                       "{who} plays a technique with a bonus action: {n} actions left", t.get(None, "actions"), who=who))
        else:
            t.event(_("{who} plays a technique", who=who))
        if throw is not None:
            t.add(who, "hand", -throw)
            t.event(N_("{who}: {n} card from {source} to {target}", "{who}: {n} cards from {source} to {target}", throw,
                       who=who, source=word("pile", "hand"), target=word("pile", JUNK)))
        if animals is not None:
            t.add(who, "hand", -animals)
            t.add(None, "market_discard", animals)
            t.event(N_("{who}: {n} card from {source} to {target}", "{who}: {n} cards from {source} to {target}",
                       animals, who=who, source=word("pile", "hand"), target=word("pile", "market_discard")))
        if take is not None:
            self._take_card(t, who, position_slot(take), "hand")
        if giver is not None and pile is not None:
            self._move_between(t, giver, pile, who, "hand", 1)
            if look is not None:  # the others looked at go on that player's discard pile (a ninth reader's «Hurgar»)
                self._move_between(t, giver, "deck", giver, "discard", look - 1)
        if from_each is not None:  # «de cada otro jugador»: those whose pile has a card
            for other in others:
                if takeable(t.player(other)["counters"], from_each):
                    self._move_between(t, other, from_each, who, "hand", 1)
        if others_throw:  # a ninth reader's «Ocelote Afortunado»: «Cada otro jugador tira 1 carta al azar de su mano.»
            for other in holding:
                t.add(other, "hand", -1)
            # junk goes to the junk pile (unlimited, not counted), animals to the market discard
            t.add(None, "market_discard", len(holding) - others_junk)
            t.event(_("{others} each throw away a card from the hand: {junk} junk, {animals} to the market discard",
                      others=listing(holding), junk=others_junk, animals=len(holding) - others_junk))
        if others_draw is not None:
            for other in others:
                drawn, _junk = self._draw(t, other, others_draw, junk=self.options["effect_draws_junk"])
                t.event(_("{who} draws {drawn}", who=other, drawn=drawn))
        if give_to is not None:
            t.add(who, "hand", -1)
            t.add(give_to, "hand", 1)
            t.event(_("{who} gives a card from the hand to {other}", who=who, other=give_to))
            if draw is not None:  # the card's own number: a pod's next gift starts there
                t.player(who)["gift_draw"] = draw
        if discard_hand or discard is not None:
            rest = t.get(who, "hand") if discard is None else discard
            t.add(who, "hand", -rest)
            t.add(who, "discard", rest)
            t.event(N_("{who}: {n} card from {source} to {target}", "{who}: {n} cards from {source} to {target}", rest,
                       who=who, source=word("pile", "hand"), target=word("pile", "discard")))
        if draw is not None:
            drawn, _junk = self._draw(t, who, draw, junk=self.options["effect_draws_junk"])
            t.event(_("{who} draws {drawn}", who=who, drawn=drawn))
        if give_each:  # «da 1 carta a cada otro jugador», after the cards drawn (an eighth reader's «Banquete»)
            self._need_in_hand(t, who, len(others), "to give")
            for other in others:
                t.add(who, "hand", -1)
                t.add(other, "hand", 1)
                t.event(_("{who} gives a card from the hand to {other}", who=who, other=other))
            if draw is not None:
                t.player(who)["gift_draw"] = draw
        self._then_clean_up(t, a, who)

    @action("stall", fields=(
        Player("player", required=False),
        Ints("values", lo=0),
        Raw("set", required=True),
        Int("stack", required=False, lo=1, hi=STALL_STACKS),
        Int("junk", default=0, lo=0, hi=STALL_STACKS),
        Bool("clean_up"),
        Int("new_value", required=False, lo=0, hi=MAX_VALUE),
    ))
    def _stall(self, t: Txn, a: Args) -> None:
        """Stall action: build the next stack from hand: "values" of its cards and "set" (one animal
        deck's name, or one name per card). Optional "stack" confirms its number. Stack n must total
        exactly n, one animal set, no junk; stacks are built in order, each in one action. "junk": junk cards
        in the stack besides (each worth 1), where an animal's power lets them in («algunos animales pueden
        salirse con la suya con un poco de basura en su puesto»).
        "clean_up": the clean-up follows at once; "new_value": the value of the market card it turns up."""
        who = self._active(t, a)
        # A stack is its cards, in no order: kept high first, as the pods offer it ("3+1"), so a stack
        # entered 1+3 is the same record as one entered 3+1.
        values = sorted(a.ints("values"), reverse=True)
        sets = self._sets(a, len(values))
        number = t.get(who, "stall") + 1
        claimed = a.int("stack", number)
        self._check_action_left(t, who)
        if claimed < number:
            raise RuleError(_("{who}'s stack {claimed} is already built; a stack cannot be added to later", who=who, claimed=claimed))
        if claimed > number:
            raise RuleError(_("stacks are built in order: {who}'s next stack is {number}, not {claimed}", who=who, number=number, claimed=claimed))
        junk = a.int("junk")
        ok, why = stack_verdict(number, sets, values, t.state["decks"], junk)
        if not ok:
            raise RuleError(_("{who} cannot build stack {number}: {why}", who=who, number=number, why=why))
        self._need_in_hand(t, who, len(values) + junk, "for this stack")
        self._spend_action(t, who)
        t.add(who, "hand", -len(values) - junk)
        t.player(who)["stacks"].append({"set": sets[0], "values": list(values), **({"junk": junk} if junk else {})})
        self._lose(t, who, list(values))
        t.add(who, "stall", 1)
        if junk:
            t.event(N_("{who} builds stack {number}: {deck} {values} and {n} junk",
                       "{who} builds stack {number}: {deck} {values} and {n} junk", junk, who=who, number=number,
                       deck=word("deck", sets[0]), values=_sum_words(values)))
        else:
            t.event(_("{who} builds stack {number}: {deck} {values}", who=who, number=number,
                      deck=word("deck", sets[0]), values=_sum_words(values)))
        self._then_clean_up(t, a, who)

    @staticmethod
    def _sets(a: Args, n: int) -> list[str]:
        raw = a.raw("set")
        if isinstance(raw, str):
            return [raw] * n
        if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
            if len(raw) != n:
                raise RuleError(N_("{action}: 'set' lists {sets} for {n} card", "{action}: 'set' lists {sets} for {n} cards",
                                   n, action=a.name, sets=N_("{n} set", "{n} sets", len(raw))))
            return list(raw)
        raise RuleError(_("{action}: 'set' must be an animal deck's name, or one name per card, not {value!r}",
                          action=a.name, value=raw))

    @action("inventory", fields=(Player("player", required=False), Int("count", lo=0), Bool("clean_up"),
                                 Int("new_value", required=False, lo=0, hi=MAX_VALUE)))
    def _inventory(self, t: Txn, a: Args) -> None:
        """Inventory action: discard "count" cards (any number, 0 too) from hand to the discard pile.
        "clean_up": the clean-up follows at once; "new_value": the value of the market card it turns up."""
        who = self._active(t, a)
        count = a.int("count")
        self._check_action_left(t, who)
        self._need_in_hand(t, who, count, "to discard")
        self._spend_action(t, who)
        t.add(who, "hand", -count)
        t.add(who, "discard", count)
        t.event(N_("{who} discards {n} card", "{who} discards {n} cards", count, who=who))
        self._then_clean_up(t, a, who)

    @action("end_turn", fields=(Player("player", required=False), Int("draw_to", default=HAND_SIZE, lo=0, hi=MAX_VALUE),
                                Int("new_value", required=False, lo=0, hi=MAX_VALUE)))
    def _end_turn(self, t: Txn, a: Args) -> None:
        """Clean-up after at least one action: draw up to "draw_to" (default 5) cards, refill the
        market ("new_value": the value of the one card it turns up), and the next player on the left
        starts with one action."""
        who = self._active(t, a)
        draw_to = a.int("draw_to")
        if t.state["turn"]["actions_taken"] == 0:
            raise RuleError(_("{who} must take an action first: market (buy), technique, stall or inventory", who=who))
        self._clean_up(t, who, draw_to, a.int("new_value", None))

    @action("refill", fields=(
        Player("player", required=False),
        Int("discard", default=0, lo=0,
            doc=_("cards of the hand to the discard pile before the refill (a card that lets its player discard first)")),
        Int("draw_to", required=False, lo=0, hi=MAX_VALUE,
            doc=_("the hand filled to this many (a card that fills it to 6); the clean-up's own by default")),
    ))
    def _refill(self, t: Txn, a: Args) -> None:
        """The last clean-up's refill told again, as a card in the player's hand changed it (Fase de
        limpieza 1, «Roba cartas de tu mazo hasta que tengas 5 cartas en la mano»): "discard" cards of
        the hand first, then the hand filled to "draw_to". The clean-ups of the pods' actions come at
        once; this tells the card afterwards, until the player's hand, deck or discard pile changes
        again. The market's refill stands."""
        last = t.state.get("refill")
        if not last:
            raise RuleError(_("no clean-up to tell again: a refill is told right after its clean-up"))
        who = a.player("player", last["player"])
        if who != last["player"]:
            raise RuleError(_("the last clean-up was {last}'s, not {who}'s", last=last["player"], who=who))
        if open_refill(t.state, who) is None:
            raise RuleError(_("{who}'s cards changed since the clean-up: its refill can no longer be told again",
                              who=who))
        discard = a.int("discard")
        draw_to = a.int("draw_to", last["draw_to"])
        for k, n in last["before"].items():
            t.set(who, k, n)
        self._need_in_hand(t, who, discard, "to discard")
        t.add(who, "hand", -discard)
        t.add(who, "discard", discard)
        if discard:
            t.event(N_("{who} discards {n} card before filling the hand", "{who} discards {n} cards before filling "
                       "the hand", discard, who=who))
        drawn, junked = self._draw(t, who, max(0, draw_to - t.get(who, "hand")), junk=True)
        t.event(N_("{who} fills the hand to {draw_to}: {n} card drawn", "{who} fills the hand to {draw_to}: {n} cards "
                   "drawn", drawn + junked, who=who, draw_to=draw_to))
        t.state["refill"] = {**last, "draw_to": draw_to, "after": refill_piles(t.state, who)}
