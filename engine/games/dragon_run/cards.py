"""Dragon Run's treasure cards outside the compulsory action: drawn, discarded, a talisman put in play, a
potion played; and the generic corrections, fitted to the cards."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Bool, Int, Ints, Player, Raw
from ...game import action
from ...messages import _, word
from ...state import Args, Txn
from .table import DUNGEON_CARDS, MAX_CARD, DragonRunTable, _dead, _deal_first


class DragonRunCards(DragonRunTable):
    """The treasure card actions and the corrections."""

    # -- treasure cards ------------------------------------------------------------
    @action("draw", fields=(Player("player", required=False),
                            Int("value", required=False, lo=0, hi=MAX_CARD,
                                doc=_("the value of the treasure card drawn (left out: asked when needed)"))))
    def _draw(self, t: Txn, a: Args) -> None:
        """A player takes a treasure card worth "value" (a location, potion or power; default: the active player).

        Without "value" the card joins the hand unseen by the device: its value is asked when it leaves
        the hand, or with the hand's total at the end.
        """
        name = self._in_game(t, a)
        self._draw_treasure(t, name)
        self._owed_entered(t, "to_draw", name, 1)  # a card a room made them draw: one less to enter
        if a.raw("value", None) is None:
            self._give_unknown(t, name, 1)
            return
        self._give_cards(t, name, [a.int("value")])

    @action("discard", fields=(Player("player", required=False), Ints("values", default=[], lo=0, hi=MAX_CARD)))
    def _discard(self, t: Txn, a: Args) -> None:
        """A player discards treasure cards ("values"), e.g. by a card's effect (default: the active player)."""
        name = self._in_game(t, a)
        values = self._values(a, "values")
        if not values:
            raise RuleError(_("discard: name the values of the cards discarded"))
        self._take_cards(t, name, values)
        self._to_discard(t, len(values))
        self._owed_entered(t, "to_discard", name, len(values))  # cards a room made them discard: so many fewer

    @action("give_left", fields=(Player("player", required=False),
                                 Int("value", lo=0, hi=MAX_CARD, doc=_("the value of the treasure card passed"))))
    def _give_left(self, t: Txn, a: Args) -> None:
        """A player passes a treasure card ("value") to the player on their left, as a room made everyone do.

        The card of their choice a room's ``pass_left`` made every adventurer pass face down (a ninth rulebook
        reader's «Cripta»): it leaves the hand, a potion or a talisman worth 0 too, and joins the hand of the
        next player still in on the left (default: the active player)."""
        name = self._in_game(t, a)
        if name not in (t.state.get("to_pass") or {}):
            raise RuleError(_("{name} has no card to pass: only a room whose card makes everyone pass one to the "
                              "left asks it", name=name))
        left = t.next_in_game(name)
        if left is None or left == name:
            raise RuleError(_("nobody is left on {name}'s left to take the card", name=name))
        value = a.int("value")
        self._take_cards(t, name, [value])
        self._give_cards(t, left, [value])
        self._owed_entered(t, "to_pass", name, 1)
        t.event(_("{name} passes a treasure card worth {value} to {left}", name=name, value=value, left=left))

    @action("talisman", fields=(Raw("player"),
                                Int("value", lo=0, hi=MAX_CARD, doc=_("the value of the talisman card"))))
    def _talisman(self, t: Txn, a: Args) -> None:
        """The active player puts a talisman ("value") from hand in play until the next reshuffle."""
        name = self._active(t, a)
        if t.state["turn"]["phase"] == "deal":
            raise RuleError(_deal_first(t))
        value = a.int("value")
        self._take_cards(t, name, [value])
        t.player(name)["talismans"].append(value)
        t.event(_("{name} puts a talisman in play ({value})", name=name, value=value))

    @action("play", fields=(
        Player("player", required=False),
        Int("value", lo=0, hi=MAX_CARD, doc=_("the value of the potion card")),
        Bool("cancel", doc=_("the cancel potion, the only one played on another player's turn")),
        Int("draw", required=False, lo=0, hi=MAX_CARD,
            doc=_("a potion that makes its player draw a treasure card: the card's value")),
        Int("second", required=False, lo=0, hi=MAX_CARD,
            doc=_("a potion that makes its player draw two treasure cards: the second card's value")),
        Bool("heal", doc=_("a potion that heals its injured player (the character card back to unhurt)")),
        Player("wound", required=False,
               doc=_("a potion that wounds another, unhurt, adventurer (their character card flips to injured): "
                     "whom; a cancel potion played right after turns it back")),
    ))
    def _play(self, t: Txn, a: Args) -> None:
        """A player plays a potion ("value") from hand: it is discarded; its effects follow with the other actions.

        On another player's turn only the cancel potion ("cancel") may be played.
        "draw": a treasure card the potion makes its player draw (its value), "second": a second one (a
        potion of fortune that draws two); "heal": a potion that turns its injured player's card back to unhurt.
        """
        name = self._in_game(t, a)
        value = a.int("value")
        cancel = a.bool("cancel")
        draw = a.int("draw") if a.raw("draw", None) is not None else None
        second = a.int("second") if a.raw("second", None) is not None else None
        heal = a.bool("heal")
        wound = a.player("wound", None)
        if wound is not None:
            # a reader's «Poción de fuego»: «elige a otro jugador ileso: voltea su carta de personaje al lado herido»
            if cancel:
                raise RuleError(_("the cancel potion only cancels another potion: it wounds nobody"))
            if wound == name:
                raise RuleError(_("a potion that wounds picks another adventurer, not its own player"))
            if t.player(wound)["out"]:
                raise RuleError(_dead(wound))
            if t.get(wound, "wounds") != 0:
                raise RuleError(_("{name} is injured already: a potion that wounds picks an unhurt adventurer",
                                  name=wound))
        if second is not None and draw is None:
            raise RuleError(_("a second card drawn comes after a first: enter the first card's value too"))
        if cancel and draw is not None:
            raise RuleError(_("the cancel potion only cancels another potion: it makes nobody draw a card"))
        if cancel and heal:
            raise RuleError(_("the cancel potion only cancels another potion: it heals nobody"))
        if heal and t.get(name, "wounds") != 1:
            raise RuleError(_("{name} is not injured: a healing potion turns an injured card back to unhurt",
                              name=name))
        if t.state["turn"]["phase"] == "deal":
            raise RuleError(_deal_first(t))
        active = t.state["turn"]["player"]
        if name != active and not cancel:
            # «Solo la poción de anulación se puede jugar durante el turno de otro jugador»
            raise RuleError(_("it is {active}'s turn: on another player's turn only the cancel potion may be "
                              "played", active=active))
        self._take_cards(t, name, [value])
        self._to_discard(t, 1)
        turn = t.state["turn"]
        hurt = turn.pop("potion_wound", None) if cancel else None
        turn["potion"] = name  # the potion just played: another player's cancel potion may cancel it
        if cancel:
            t.event(_("{name} plays the cancel potion ({value})", name=name, value=value))
            if hurt is not None and not t.player(hurt)["out"] and t.get(hurt, "wounds") == 1:
                # «la poción de anulación … (para cancelar una poción)»: the wound it did is undone
                t.add(hurt, "wounds", -1)
                t.event(_("the potion is cancelled: {name} is unhurt again", name=hurt))
        else:
            t.event(_("{name} plays a potion ({value})", name=name, value=value))
        if wound is not None:
            t.add(wound, "wounds", 1)
            turn["potion_wound"] = wound
            t.event(_("{name}'s potion wounds {other}: injured", name=name, other=wound))
        if draw is not None:
            # «Las pociones tienen efectos poderosos como se indica en las cartas»: a potion that says
            # "draw a treasure card" is entered with it, the card drawn after the potion is discarded.
            for card in [draw] + ([] if second is None else [second]):
                self._draw_treasure(t, name)
                self._give_cards(t, name, [card])
                t.event(_("{name} draws a treasure worth {value}", name=name, value=card))
        if heal:
            t.add(name, "wounds", -1)
            t.event(_("{name} is healed: unhurt again", name=name))

    # -- the generic corrections, fitted to the cards -------------------------------
    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        if who is None and counter == "temper" and delta > 0:
            raise RuleError(_("the dragon's temper never rises (undo to correct a mistake)"))
        if who is not None and counter == "treasure":
            return self._adjust_treasure(t, who, delta)
        applied = super().adjust(t, who, counter, delta)
        if who is None and counter == "dungeon" and t.get(None, "dungeon") == DUNGEON_CARDS:
            t.state["discard"] = {"treasure_hall": False, "other": 0}
            t.state["halls_out"] = 0
        return applied

    def _adjust_treasure(self, t: Txn, who: str, delta: int) -> int:
        """A correction of a player's treasure by ``delta`` (the contract's generic ``adjust``).

        +n: a treasure card worth n (several cards of at most MAX_CARD when n is
        larger). −n: the card worth n when the player holds one; otherwise the
        smallest card worth more, with the change given back as one card; the
        whole hand when it is worth n or less (bounds clamp at 0).
        """
        if delta > 0:
            self._add_value(t, who, delta)
            return delta
        if delta < 0:
            return -self._remove_value(t, who, -delta)
        return 0

    def _add_value(self, t: Txn, who: str, value: int) -> None:
        cards = [MAX_CARD] * (value // MAX_CARD) + ([value % MAX_CARD] if value % MAX_CARD else [])
        if len(cards) > 1:
            t.event(_("{value} in treasure is entered as cards worth {cards}", value=value,
                      cards=", ".join(map(str, cards))))
        self._give_cards(t, who, cards)

    def _remove_value(self, t: Txn, who: str, value: int) -> int:
        """Take treasure worth ``value`` (as far as the hand allows); returns what was taken."""
        p = t.player(who)
        cards: list[int] = p["cards"]
        if value not in cards and p["unknown"] and value <= MAX_CARD:
            self._take_cards(t, who, [value])  # one of the cards the device does not know
            return value
        if value >= sum(cards):
            taken = sum(cards)
            self._set_cards(t, who, [])
            return taken
        if value in cards:
            self._take_cards(t, who, [value])
            return value
        bigger = min(c for c in cards if c > value) if any(c > value for c in cards) else None
        if bigger is not None:
            take = [bigger]
        else:  # only smaller cards: take the largest ones until they cover it
            take, total = [], 0
            for c in sorted(cards, reverse=True):
                take.append(c)
                total += c
                if total >= value:
                    break
        self._take_cards(t, who, take)
        change = sum(take) - value
        if change:
            self._give_cards(t, who, [change])
            t.event(_("{who} gives up cards worth {worth} and keeps {change} as change", who=who, worth=sum(take),
                      change=change))
        return value

    def transfer(self, t: Txn, giver: str, taker: str, counter: str, amount: int) -> int:
        if counter == "treasure":
            moved = self._remove_value(t, giver, amount)
            if moved < amount:
                t.event(_("{giver} had only {moved} in treasure to give", giver=giver, moved=moved))
            if moved:
                self._add_value(t, taker, moved)
            return moved
        raise RuleError(_("{counter} cannot be handed to another player; use adjust", counter=word("counter", counter)))

