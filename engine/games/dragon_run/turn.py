"""Dragon Run's turn: the deal, the character's power, the compulsory action (charge into a location,
hide, cry like a baby), passing or another turn, and the escape test's die."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Ints, Player, Raw, Str
from ...game import ActionInfo, Rng, action
from ...messages import N_, _, listing
from ...state import Args, Txn
from .table import (
    CLOSE_THE_DEAL,
    DIE_FACES,
    HAND_SIZE,
    ICONS,
    LOCATIONS,
    MAX_CARD,
    MAX_ROOM_DRAWS,
    ROOM_ICONS,
    DragonRunTable,
    _count_first,
    other_rooms,
)
from .words import _sum_words


class DragonRunTurn(DragonRunTable):
    """The deal and the turn's actions."""

    # -- setup ------------------------------------------------------------------
    @action("deal", fields=(Player("player"), Ints("values", default=[], lo=0, hi=MAX_CARD)))
    def _deal(self, t: Txn, a: Args) -> None:
        """Enter the values of the 4 treasure cards dealt to "player" at the start ("values").

        Without "values" the 4 cards are recorded unseen: their values are asked when they leave the hand,
        and the hand's total at the final count.
        """
        name = a.player("player")
        values = self._values(a, "values", required=False)
        if name not in t.state["to_deal"]:
            if t.state["turn"]["phase"] != "deal":
                raise RuleError(_("the treasure cards were dealt at the start; a new card is entered with draw"))
            raise RuleError(_("{name}'s dealt cards are already entered (undo to change them)", name=name))
        if not values:
            # «distribuye 4 a cada jugador»: the cards are in the hand; their values matter only when a card
            # leaves it, or at the final count, and are asked then.
            self._give_unknown(t, name, HAND_SIZE)
            t.event(_("{name} is dealt {hand_size} treasure cards, values not entered: the device asks a "
                      "card's value when it leaves the hand, and the hand's total at the end", name=name,
                      hand_size=HAND_SIZE))
        elif len(values) != HAND_SIZE:
            raise RuleError(_("deal: each player is dealt {hand_size} treasure cards, not {given} (or enter "
                              "none: the device asks for them when it needs them)",
                              hand_size=HAND_SIZE, given=len(values)))
        else:
            self._give_cards(t, name, values)
        t.state["to_deal"].remove(name)
        if not t.state["to_deal"]:
            t.state["turn"]["phase"] = "start"
            t.event(_("every hand is dealt: {who} starts", who=t.state["turn"]["player"]))

    def _close_deal(self, t: Txn) -> None:
        """The first move of the game: the hands not entered were dealt all the same, values unknown."""
        st = t.state
        names = [n for n in st["to_deal"] if not t.player(n)["out"]]
        for name in names:
            self._give_unknown(t, name, HAND_SIZE)
        st["to_deal"] = []
        st["turn"]["phase"] = "start"
        if names:
            t.event(_("the treasure cards dealt to {players} were not entered: the device asks a card's value "
                      "when it leaves the hand, and the hand's total at the end", players=listing(names)))

    def before_action(self, t: Txn, info: ActionInfo, a: Args) -> None:
        if info.name not in ("play", "draw", "discard", "adjust", "transfer", "resolve"):
            # «… la poción de anulación … (para cancelar una poción)»: only the potion just played can be
            # cancelled; a move of the turn leaves none to cancel (a card the potion makes its player draw
            # or discard, and the corrections, do not).
            t.state["turn"].pop("potion", None)
            t.state["turn"].pop("potion_wound", None)
        phase = t.state["turn"]["phase"]
        if phase == "deal" and info.name in CLOSE_THE_DEAL:
            # The game starts with its first move: entering the dealt values is optional.
            self._close_deal(t)
        elif phase == "count" and info.name != "count":
            raise RuleError(_count_first(t))

    # -- the turn -----------------------------------------------------------------
    @action("power", fields=(
        Raw("player"),
        Player("take_from", required=False,
               doc=_("a power that takes a card from another adventurer's hand: whose hand")),
        Bool("draw", doc=_("a power that draws a treasure card")),
        Int("value", required=False, lo=0, hi=MAX_CARD,
            doc=_("the card taken or drawn by the power: its value (0 for a potion or a talisman)")),
        Player("heal", required=False, doc=_("a power that heals an injured adventurer: whom")),
        Int("discard", required=False, lo=0, hi=MAX_CARD,
            doc=_("a power that has its player discard a treasure card, then draw one: the card discarded's value")),
        Bool("from_discard", doc=_("the card drawn is the top card of the treasure discard pile, not the deck's")),
    ))
    def _power(self, t: Txn, a: Args) -> None:
        """The active player uses the character's power, before the compulsory action.

        «Cada personaje tiene un poder único, como se indica en su tarjeta de personaje»: what the card
        does to the counts may come with it — a card taken from another hand ("take_from", "value",
        worth 0 too), a treasure card drawn ("draw", "value"), an injured adventurer healed ("heal").
        The power is then used (the card turned) until the dragon location comes up.
        """
        name = self._active(t, a)
        take_from = a.player("take_from", None)
        draw = a.bool("draw")
        heal = a.player("heal", None)
        value = a.int("value") if a.raw("value", None) is not None else None
        discard = a.int("discard") if a.raw("discard", None) is not None else None
        from_discard = a.bool("from_discard")
        if from_discard and not draw:
            raise RuleError(_("power: a card from the treasure discard goes with a card drawn (\"draw\": true)"))
        if from_discard and not t.state["treasure_deck"]["discard"]:
            raise RuleError(_("power: the treasure discard pile is empty"))
        if discard is not None and not draw:
            raise RuleError(_("power: a card discarded goes with a card drawn (\"draw\": true and its value)"))
        if sum((take_from is not None, draw, heal is not None)) > 1:
            raise RuleError(_("power: one effect at a time (a card taken, a card drawn or a heal)"))
        if (take_from is not None or draw) and value is None:
            raise RuleError(_("power: give the value of the card taken or drawn"))
        if value is not None and take_from is None and not draw:
            raise RuleError(_("power: a value goes with a card taken or drawn"))
        if take_from == name:
            raise RuleError(_("power: the card is taken from another adventurer's hand"))
        if heal is not None and t.get(heal, "wounds") != 1:
            raise RuleError(_("power: {name} is not injured", name=heal))
        if t.state["turn"]["phase"] != "start":
            # «Al comienzo de cada turno, ANTES de elegir su acción obligatoria»
            raise RuleError(_("{why}; a power is used only at the start of a turn, before charging, hiding or "
                              "crying", why=self._phase_refusal(t, name)))
        p = t.player(name)
        if p["power"] != "ready":
            raise RuleError(_("{name}'s power is used: it is ready again when the dragon comes up", name=name))
        p["power"] = "used"
        t.event(_("{name} uses the character's power", name=name))
        if take_from is not None and value is not None:
            self._take_cards(t, take_from, [value])
            self._give_cards(t, name, [value])
            p["power_kind"] = "take"
            t.event(_("{name} takes a card worth {value} from {other}", name=name, value=value, other=take_from))
        elif draw and value is not None:
            if discard is not None:  # a card of one's hand for one of the deck («Cada personaje tiene un poder único»)
                self._take_cards(t, name, [discard])
                self._to_discard(t, 1)
                t.event(_("{name} discards a treasure worth {value}", name=name, value=discard))
            if from_discard:  # a ninth rulebook reader's Mago: «toma la carta de arriba del descarte de tesoro»
                t.state["treasure_deck"]["discard"] -= 1
            else:
                self._draw_treasure(t, name)
            self._give_cards(t, name, [value])
            p["power_kind"] = "swap" if discard is not None else "draw"
            t.event(_("{name} draws a treasure worth {value}", name=name, value=value))
        elif heal is not None:
            t.add(heal, "wounds", -1)
            p["power_kind"] = "heal"
            t.event(_("{name} heals {other}", name=name, other=heal))
        else:  # a power that moves no card (a look at the dungeon): the same one the next time
            p["power_kind"] = "plain"

    @action("charge", fields=(
        Raw("player"),
        Str("location", choices=LOCATIONS, doc=_("the location card drawn: the dragon, the treasure hall or another "
                                                 "room")),
        Int("value", required=False, lo=0, hi=MAX_CARD,
            doc=_("the treasure hall: the treasure card drawn there (another room: the treasure card its card "
                  "gives, if it gives one)")),
        Str("then", required=False, choices=ICONS,
            doc=_("another room: what its icon says, pass or take another turn (the treasure hall: the player's "
                  "choice); left out, the turn waits for pass or again")),
        Int("talisman", required=False, lo=0, hi=MAX_CARD,
            doc=_("the dragon: a talisman of the player's in play whose card takes the breath instead (its "
                  "value): the player is not burnt and the talisman is discarded")),
    ))
    def _charge(self, t: Txn, a: Args) -> None:
        """Draw the top location card: "location" is dragon, treasure_hall or other (another room).

        The treasure hall needs "value": the treasure card drawn there; another
        room whose card gives a treasure card takes its "value" too. "then"
        (pass or again) is the room's icon, done at once. A room whose card moves treasure cards
        is the action room.
        """
        self._charge_at(t, a, a.str("location"))

    @action("room", fields=(
        Raw("player"),
        Str("then", required=False, choices=ROOM_ICONS,
            doc=_("what the room's icon says: pass or take another turn; go_on, a card that sends its player "
                  "on to the next charge (as left out: the turn waits for the next charge, pass or again)")),
        Int("draws", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("treasure cards the room's card gives: how many (left out: one for each value given); their "
                  "values are value and second, or asked when needed")),
        Int("value", required=False, lo=0, hi=MAX_CARD, doc=_("the first treasure card it gives: its value")),
        Int("second", required=False, lo=0, hi=MAX_CARD, doc=_("the second treasure card it gives: its value")),
        Ints("discard", default=[], lo=0, hi=MAX_CARD, doc=_("treasure cards it makes its player discard: their values")),
        Int("give", required=False, lo=0, hi=MAX_CARD,
            doc=_("a treasure card it makes its player give to the player on their left: its value")),
        Bool("heal", doc=_("the room heals its player: an injured character card turned back to unhurt")),
        Int("keep", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("of the treasure cards it gives, how many its player keeps (the first given, value, first); the "
                  "others are discarded, with their values or unseen (a card that draws 2 and keeps 1)")),
        Int("others", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("treasure cards the room's card makes each other adventurer still in draw: each enters theirs "
                  "with a draw, on their own pod")),
        Int("everyone", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("treasure cards the room's card makes every adventurer still in draw, its player too: each enters "
                  "theirs with a draw, on their own pod")),
        Int("others_discard", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("treasure cards of their choice the room's card makes each other adventurer still in discard: "
                  "each enters theirs with a discard, on their own pod (one who holds none discards nothing)")),
        Bool("wound_left", doc=_("the room wounds the player on its player's left: an unhurt character card "
                                 "flips to injured; an injured player discards a treasure card of their choice "
                                 "instead, entered with a discard on their own pod")),
        Bool("pass_left", doc=_("every adventurer still in, the room's player too, passes a treasure card of their "
                                "choice face down to the player on their left: each enters theirs with give_left, "
                                "on their own pod (one who holds none passes nothing)")),
    ))
    def _room(self, t: Txn, a: Args) -> None:
        """A charge into another room whose card moves treasure cards («Aplicar el efecto indicado en la
        tarjeta»), all in one: the cards it gives ("draws", "value", "second"), the cards it makes its
        player discard ("discard") or give to the player on the left ("give"), the cards it makes every
        other adventurer draw ("others": each then enters theirs, ``to_draw``) or discard ("others_discard":
        each enters theirs, ``to_discard``), the player on the left wounded ("wound_left"); then its icon
        ("then")."""
        self._charge_at(t, a, "other")

    def _charge_at(self, t: Txn, a: Args, where: str) -> None:
        name = self._turn_action(t, a, ("start", "must_charge", "escaped", "after_location"))
        then = a.str("then", None)
        if then == "go_on":  # the room's card sends its player on: the turn waits for the next charge
            then = None
        st = t.state
        value: int | None = None
        if where == "treasure_hall" and a.raw("value", None) is not None:
            value = a.int("value")
        elif a.raw("value", None) is not None:
            if where == "dragon":
                raise RuleError(_("the dragon gives no treasure card: a value goes with the treasure hall or a "
                                  "room whose card gives one"))
            # «Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta»: a room that gives a
            # treasure card is the charge and the card's effect at once.
            value = a.int("value")
        effects = a.name == "room"
        if where == "dragon" and then is not None:
            raise RuleError(_("the dragon ends the turn by itself: pass or another turn goes only with the "
                              "treasure hall or another room"))
        if t.get(None, "dungeon") == 0:
            raise RuleError(_("the dungeon deck is empty (only a correction can make it so): "
                              "set it right with adjust first"))
        halls = self.options["treasure_halls"]
        if where == "treasure_hall" and st["discard"]["treasure_hall"]:
            raise RuleError(N_("the treasure hall is already in the dungeon discard: it cannot come up "
                               "before the next reshuffle", "the {n} treasure halls are already in the dungeon "
                               "discard: none can come up before the next reshuffle", halls))
        if where == "other" and st["discard"]["other"] >= other_rooms(self.options):
            raise RuleError(_("all {others} other rooms are in the dungeon discard: the card drawn must be "
                              "the dragon or the treasure hall", others=other_rooms(self.options)))
        shield = a.int("talisman") if a.name == "charge" and a.raw("talisman", None) is not None else None
        if shield is not None and where != "dragon":
            raise RuleError(_("a talisman takes the dragon's breath: it goes with the dragon, not another location"))
        if shield is not None and shield not in t.player(name)["talismans"]:
            raise RuleError(_("{name} has no talisman worth {value} in play", name=name, value=shield))
        t.add(None, "dungeon", -1)
        if where == "dragon":
            self._dragon(t, name, shield)
            return
        if where == "other" and effects:
            self._room_effects(t, name, a, value)
        elif value is not None:
            self._draw_treasure(t, name)
            self._give_cards(t, name, [value])
        elif where == "treasure_hall":
            # «Salón del tesoro: Roba una carta de tesoro»: drawn all the same; its value is asked when needed.
            self._draw_treasure(t, name)
            self._give_unknown(t, name, 1)
        if where == "treasure_hall":
            st["halls_out"] = st.get("halls_out", 0) + 1
            st["discard"]["treasure_hall"] = st["halls_out"] >= halls
            if value is None:
                t.event(_("{name} charges into the treasure hall and draws a treasure card", name=name))
            else:
                t.event(_("{name} charges into the treasure hall and draws a treasure worth {value}", name=name,
                          value=value))
        else:
            st["discard"]["other"] += 1
            if value is None:
                t.event(_("{name} charges into another room", name=name))
            else:
                t.event(_("{name} charges into another room, whose card gives a treasure worth {value}",
                          name=name, value=value))
        st["turn"]["phase"] = "after_location"
        if then == "pass":
            # «según el pictograma en la parte inferior debes: Pasa el turno al siguiente jugador»
            t.event(_("{name} passes", name=name))
            self._next_player(t)
        elif then == "again":
            # «... Toma otro turno inmediatamente» (the treasure hall: «Presiona tu suerte»)
            self._another_turn(t, name)

    def _room_effects(self, t: Txn, name: str, a: Args, value: int | None) -> None:
        """Another room's printed effect, entered with its charge: cards drawn, discarded, given left."""
        second = a.int("second", None) if a.raw("second", None) is not None else None
        known = [v for v in (value, second) if v is not None]
        draws = a.int("draws", max(len(known), 1 if known else 0))
        if len(known) > draws:
            raise RuleError(_("the room gives {draws} treasure cards: {n} values are too many", draws=draws,
                              n=len(known)))
        keep = draws
        if a.raw("keep", None) is not None:
            # a reader's library: «roba 2 cartas de tesoro, quédate 1 y descarta la otra»: the values given are
            # the kept cards' first; a card put back unseen goes to the discard, its value never needed (a
            # play-tester's step for it asked what changes nothing)
            keep = a.int("keep")
            if keep > draws:
                raise RuleError(_("the room gives {draws} treasure cards: {keep} cannot be kept", draws=draws,
                                  keep=keep))
        for _card in range(draws):
            self._draw_treasure(t, name)
        kept, dropped = known[:keep], known[keep:]
        self._give_cards(t, name, kept)
        self._give_unknown(t, name, keep - len(kept))
        if draws:
            t.event(N_("{name}'s room gives {n} treasure card", "{name}'s room gives {n} treasure cards", draws,
                       name=name))
        if keep < draws:
            self._to_discard(t, draws - keep)
            if dropped:
                t.event(_("{name} keeps {kept} and discards {values}, as the room says", name=name,
                          kept=", ".join(map(str, kept)) or "–", values=", ".join(map(str, dropped))))
            else:
                t.event(N_("{name} keeps {kept} and discards {n} card unseen, as the room says",
                           "{name} keeps {kept} and discards {n} cards unseen, as the room says", draws - keep,
                           name=name, kept=", ".join(map(str, kept)) or "–"))
        discard = self._values(a, "discard", required=False)
        if discard:
            self._take_cards(t, name, discard)
            self._to_discard(t, len(discard))
            t.event(_("{name} discards {values} as the room says", name=name, values=", ".join(map(str, discard))))
        if a.raw("give", None) is not None:
            give = a.int("give")
            left = t.next_in_game(name)
            if left is None:
                raise RuleError(_("nobody is left to take the card"))
            self._take_cards(t, name, [give])
            self._give_cards(t, left, [give])
            t.event(_("{name} gives a treasure card worth {value} to {left}, as the room says", name=name,
                      value=give, left=left))
        others = a.int("others", 0)
        if others:  # a reader's «Sala del eco»: «Cada otro aventurero roba 1 carta de tesoro»
            drawing = [p["name"] for p in t.in_game() if p["name"] != name]
            if not drawing:
                raise RuleError(_("nobody else is left to draw"))
            due = t.state.setdefault("to_draw", {})
            for other in drawing:
                due[other] = due.get(other, 0) + others
            t.event(N_("{name}'s room: {others} each draw {n} treasure card", "{name}'s room: {others} each draw {n} "
                       "treasure cards", others, name=name, others=listing(drawing)))
        everyone = a.int("everyone", 0)
        if everyone:  # a ninth reader's «Sala de los ecos»: «cada jugador, empezando por el que la reveló, roba 1»
            drawing = [p["name"] for p in t.in_game()]
            due = t.state.setdefault("to_draw", {})
            for who in drawing:
                due[who] = due.get(who, 0) + everyone
            t.event(N_("{name}'s room: {others} each draw {n} treasure card", "{name}'s room: {others} each draw {n} "
                       "treasure cards", everyone, name=name, others=listing(drawing)))
        others_discard = a.int("others_discard", 0)
        if others_discard:
            # a reader's «Nido de murciélagos»: «cada otro jugador descarta 1 carta de tesoro a su elección»
            owing = [p["name"] for p in t.in_game() if p["name"] != name]
            if not owing:
                raise RuleError(_("nobody else is left to discard"))
            t.event(N_("{name}'s room: {others} each discard {n} treasure card of their choice",
                       "{name}'s room: {others} each discard {n} treasure cards of their choice", others_discard,
                       name=name, others=listing(owing)))
            self._owe_discards(t, owing, others_discard)
        if a.bool("wound_left"):
            # a reader's «Sala de las lanzas»: «el jugador a tu izquierda es herido: voltéalo si está ileso, si
            # no descarta 1 carta de tesoro»
            left = t.next_in_game(name)
            if left is None or left == name:
                raise RuleError(_("nobody is left on {name}'s left to wound", name=name))
            if t.get(left, "wounds") == 0:
                t.add(left, "wounds", 1)
                t.event(_("{name}'s room wounds {left}: injured", name=name, left=left))
            else:
                t.event(_("{left} is injured already: {left} discards a treasure card of their choice instead, "
                          "as {name}'s room says", name=name, left=left))
                self._owe_discards(t, [left], 1)
        if a.bool("pass_left"):
            # a ninth reader's «Cripta»: «todos eligen una carta a la vez y la pasan boca abajo a la izquierda»
            passing = [p["name"] for p in t.in_game()]
            if len(passing) < 2:
                raise RuleError(_("nobody else is left to pass a card to"))
            t.event(_("{name}'s room: everyone passes a treasure card of their choice to the left", name=name))
            due = t.state.setdefault("to_pass", {})
            for who in passing:
                p = t.player(who)
                if not p["cards"] and not p["unknown"]:
                    t.event(_("{name} holds no treasure card to pass", name=who))
                    continue
                due[who] = due.get(who, 0) + 1
        if a.bool("heal"):  # «Aplicar el efecto indicado en la tarjeta»: a room that heals (a reader's chapel)
            if t.get(name, "wounds") != 1:
                raise RuleError(_("{name} is not injured: the room has nobody to heal", name=name))
            t.add(name, "wounds", -1)
            t.event(_("{name} is healed, as the room says", name=name))

    @staticmethod
    def _owe_discards(t: Txn, names: list[str], n: int) -> None:
        """Cards of their choice these players must discard, each entered on their own pod (``to_discard``); a
        hand holds only so many: one that holds none discards nothing."""
        due = t.state.setdefault("to_discard", {})
        for other in names:
            p = t.player(other)
            owed = min(n, len(p["cards"]) + p["unknown"] - due.get(other, 0))
            if owed <= 0:
                t.event(_("{name} holds no treasure card to discard", name=other))
                continue
            due[other] = due.get(other, 0) + owed

    def _dragon(self, t: Txn, name: str, shield: int | None = None) -> None:
        """The dragon location: burn, temper −1, reshuffle, powers ready, next player.

        ``shield``: a talisman in play whose card takes the breath instead (the rulebook prints no
        talisman's text; two tables' readers gave one this power): no burn, the talisman discarded.
        """
        if shield is not None:
            t.player(name)["talismans"].remove(shield)
            self._to_discard(t, 1)
            t.event(_("the dragon! {name}'s talisman ({value}) takes the breath and is discarded", name=name,
                      value=shield))
        else:
            t.add(name, "wounds", 1)
            if t.get(name, "wounds") == 1:
                t.event(_("the dragon! {name} is injured", name=name))
            else:
                t.event(_("the dragon! {name} is killed", name=name))
            self._kill_the_dead(t)
        t.add(None, "temper", -1)
        self._reshuffle(t)
        for p in t.players:
            if not p["out"]:
                if p["power"] != "ready":  # said, on that player's pod (a play-tester's powers came back unseen)
                    t.event(_("{name}'s power is ready again", name=p["name"]))
                p["power"] = "ready"
        if t.state["turn"]["player"] == name:  # a killed player's turn has already passed
            self._next_player(t)

    @action("hide", fields=(
        Raw("player"),
        Ints("discard", default=[], lo=0, hi=MAX_CARD, doc=_("the values of the treasure cards discarded (worth at least 1)")),
        Int("roll", required=False, lo=0, hi=DIE_FACES - 1,
            doc=_("the face of a physical d10 (0–9; a face marked 10 is 0); left out, the device rolls")),
    ), tells=True)
    def _hide(self, t: Txn, a: Args) -> None:
        """Discard treasure worth at least 1 ("discard": card values), then the escape test.

        "roll" is the d10 (0–9); the device rolls it when it is not given.
        """
        name = self._turn_action(t, a, ("start",))
        values = self._values(a, "discard")
        roll = a.raw("roll", None)
        if roll is None:  # a Session always rolls (prepare); only a bare Match lacks one
            raise RuleError(_("hide: enter the face of the die (0–9), or let the device roll it"))
        if isinstance(roll, bool) or not isinstance(roll, int) or not 0 <= roll < DIE_FACES:
            raise RuleError(_("the d10's faces are 0–9, not {roll!r}: a face marked 10 is entered as 0 "
                              "(and 0 always fails)", roll=roll))
        if sum(values) < 1:
            raise RuleError(_("to hide, discard treasure worth at least 1"))
        self._take_cards(t, name, values)
        self._to_discard(t, len(values))
        left = t.get(None, "dungeon")
        if left >= DIE_FACES - 1:
            # A warning, not a refusal: «Si el resultado es mayor que el número de Cartas de Ubicación que
            # quedan» cannot happen with the die's highest face 9.
            t.event(N_("no face of the die beats {n} location card left: {name} cannot escape and will "
                       "have to charge",
                       "no face of the die beats {n} location cards left: {name} cannot escape and will "
                       "have to charge", left, name=name))
        escaped = roll != 0 and roll > left  # the 0 face always fails
        st = t.state
        st["last_roll"] = {"player": name, "roll": roll, "dungeon": left, "escaped": escaped}
        discards = _sum_words(values)
        if not escaped:
            if roll == 0:
                t.event(_("{name} hides (discards {discards}) and rolls 0: 0 always fails; {name} must charge",
                          name=name, discards=discards))
            else:
                t.event(N_("{name} hides (discards {discards}) and rolls {roll}: not above the {n} location card "
                           "left; {name} must charge",
                           "{name} hides (discards {discards}) and rolls {roll}: not above the {n} location cards "
                           "left; {name} must charge", left, name=name, discards=discards, roll=roll))
            st["turn"]["phase"] = "must_charge"
            return
        t.event(N_("{name} hides (discards {discards}) and rolls {roll}, above the {n} location card left: escaped",
                   "{name} hides (discards {discards}) and rolls {roll}, above the {n} location cards left: escaped",
                   left, name=name, discards=discards, roll=roll))
        t.add(None, "temper", -1)
        self._reshuffle(t)
        st["turn"]["phase"] = "escaped"

    @action("cry", fields=(
        Raw("player"),
        Ints("discard", default=[], lo=0, hi=MAX_CARD, doc=_("the values of the treasure cards discarded (worth at least 2)")),
    ))
    def _cry(self, t: Txn, a: Args) -> None:
        """Cry like a baby: discard treasure worth at least 2 ("discard": card values); the turn passes.

        No change is given: the surplus is lost.
        """
        name = self._turn_action(t, a, ("start",))
        values = self._values(a, "discard")
        if sum(values) < 2:
            raise RuleError(_("crying like a baby costs treasure worth at least 2, not {worth}", worth=sum(values)))
        self._take_cards(t, name, values)
        self._to_discard(t, len(values))
        t.event(_("{name} cries like a baby (discards {discards})", name=name, discards=_sum_words(values)))
        self._next_player(t)

    @action("pass", fields=(Raw("player"),))
    def _pass(self, t: Txn, a: Args) -> None:
        """End the turn after escaping or after a location: the next living player plays."""
        self._turn_action(t, a, ("escaped", "after_location"))
        self._next_player(t)

    @action("again", fields=(Raw("player"),))
    def _again(self, t: Txn, a: Args) -> None:
        """Press your luck / take another turn: the same player plays a new turn."""
        name = self._turn_action(t, a, ("after_location",))
        self._another_turn(t, name)

    # -- dice ---------------------------------------------------------------------
    def prepare(self, state: dict[str, Any], action: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Roll the escape test's d10 (faces 0–9) for a hide that does not bring a "roll"."""
        if action.get("action") == "hide" and "roll" not in action:
            action = dict(action, roll=rng.randrange(DIE_FACES))
        return action
