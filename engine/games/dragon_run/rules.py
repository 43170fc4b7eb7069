"""Dragon Run's rules: the dungeon, the dragon's temper, charges, hiding and crying, treasure cards, dice."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...fields import Bool, Int, Ints, Player, Raw, Str
from ...game import ActionInfo, Game, Rng, action
from ...messages import N_, Msg, _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn
from .words import _sum_words

#: Dragon temper at the start, by player count (rulebook "Preparar").
START_TEMPER = {5: 8, 4: 7, 3: 6, 2: 5}
DUNGEON_CARDS = 10
OTHER_LOCATIONS = 8  # 10 locations = the dragon + the treasure hall + 8 others
HAND_SIZE = 4
#: A sanity bound on one treasure card's value, to catch typing slips.
MAX_CARD = 10
#: The most treasure cards one room's card gives (a hidden stash: two).
MAX_ROOM_DRAWS = 3
DIE_FACES = 10  # faces 0–9
LOCATIONS = ("dragon", "treasure_hall", "other")
#: What a room card's pictogram says (rulebook "Otras tarjetas de ubicación"), given with the charge.
ICONS = ("pass", "again")
#: The treasure deck (rulebook "Componentes": 38 cartas de tesoro).
TREASURE_CARDS = 38
#: The moves that start the game: the hands not entered by then were dealt all the same (values unknown).
CLOSE_THE_DEAL = frozenset({"power", "charge", "room", "hide", "cry", "pass", "again", "talisman", "play"})


def _check_first(value: Any) -> None:
    if not isinstance(value, str):
        raise SetupError(_("option 'first' must be a player's name"))


def _check_hands(value: dict[str, Any]) -> None:
    for name, cards in value.items():
        if (not isinstance(cards, list) or len(cards) != HAND_SIZE
                or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_CARD for v in cards)):
            raise SetupError(_("option 'hands': {name!r} needs the values of the {hand_size} treasure cards "
                               "dealt, each a whole number 0–{most}, not {cards!r}", name=name, hand_size=HAND_SIZE,
                               most=MAX_CARD, cards=cards))


def _check_characters(value: dict[str, Any]) -> None:
    seen: dict[str, tuple[str, str]] = {}  # the character's name folded → (who, as first written)
    for name, character in value.items():
        if not isinstance(character, str) or not character.strip():
            raise SetupError(_("option 'characters': {name!r} needs a character's name, not {character!r}",
                               name=name, character=character))
        # «Distribuya una tarjeta de personaje a cada jugador»: each of the 7 character cards once.
        key = " ".join(character.split()).casefold()
        if key in seen:
            first, written = seen[key]
            raise SetupError(_("{first} and {second} cannot both play {character}: there is one card of each "
                               "character", first=first, second=name, character=written))
        seen[key] = (name, character.strip())


class DragonRunRules(Game):
    """The game's setup, actions and consequences."""

    id = "dragon-run"
    title = "Dragon Run"
    #: The game's BoardGameGeek id (play logs): not checked yet, so none; ``[app.bgg]`` in the config
    #: file gives it.
    bgg_id = None
    min_players = 2
    max_players = 5
    icons = {"wounds": "heart-crack", "treasure": "gem", "talismans": "ankh", "temper": "fire", "dungeon": "dungeon"}
    options_spec = (
        Option("first", "", _("the bravest player, who starts (default: the first listed)"), check=_check_first,
               role="starter"),
        Option("hands", {}, _("values of the 4 treasure cards dealt to each player, "
                               '{"Ana": [1, 2, 0, 3], ...}; players left out enter theirs with the action deal'),
               kind=dict, check=_check_hands),
        Option("characters", {}, _('character card of each player, {"Ana": "Knight", ...} (shown only)'),
               kind=dict, check=_check_characters),
    )

    def outcome(self, state: dict[str, Any]) -> dict[str, Any]:
        return super().outcome(state) | {"dragon_won": state["dragon_won"]}

    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        for key in ("hands", "characters"):
            for name in self.options[key]:
                if name not in self.players:
                    raise SetupError(_("option {key!r}: there is no player called {name!r}", key=key, name=name))
        first = self.options["first"]
        if first and first not in self.players:
            raise SetupError(_("option 'first': there is no player called {name!r} (players: {players})",
                               name=first, players=listing(self.players)))

    # -- declarations ----------------------------------------------------------
    def player_counter_specs(self) -> list[Counter]:
        return [
            Counter("wounds", 0, lo=0, hi=2, doc=_("0 unhurt, 1 injured, 2 dead (out of the game)")),
            Counter("treasure", 0, lo=0, hi=None, doc=_("total value of the treasure cards in hand")),
        ]

    def table_counter_specs(self) -> list[Counter]:
        return [
            Counter("temper", lambda n, o: START_TEMPER[n], lo=0, hi=max(START_TEMPER.values()),
                    doc=_("the dragon's temper; the game ends at 0; it never rises")),
            Counter("dungeon", DUNGEON_CARDS, lo=0, hi=DUNGEON_CARDS,
                    doc=_("location cards left in the dungeon deck")),
        ]

    def setup_extra(self, state: dict[str, Any]) -> None:
        hands = self.options["hands"]
        characters = self.options["characters"]
        for p in state["players"]:
            cards = sorted(hands.get(p["name"], []), reverse=True)
            p.update({"cards": cards, "highest": cards[0] if cards else 0, "talismans": [],
                      "power": "ready", "character": characters.get(p["name"]),
                      # Cards in hand whose values the device does not know yet (a deal or a draw entered
                      # without them), and what the player says of them at the final count.
                      "unknown": 0, "unknown_worth": None, "said_highest": None})
            p["counters"]["treasure"] = sum(cards)
        to_deal = [name for name in self.players if name not in hands]
        state["to_deal"] = to_deal
        state["turn"] = {"player": self.options["first"] or self.players[0], "number": 1,
                         "phase": "deal" if to_deal else "start"}
        # Locations face up in the dungeon discard since the last reshuffle.
        state["discard"] = {"treasure_hall": False, "other": 0}
        state["last_roll"] = None
        state["dragon_won"] = False
        # The survivors whose count the device still needs at the end (their hand's total, or for a tie
        # their highest card): only when it holds cards whose values it does not know. "asking": which of the
        # two the device asks now (None, "total" or "highest"; kept out of the public view).
        state["to_count"] = []
        state["asking"] = None
        # The treasure deck counted from the deal (rulebook "Preparar": «distribuye 4 a cada jugador»):
        # cards, not values; the values are in the hands.
        state["treasure_deck"] = {"deck": TREASURE_CARDS - HAND_SIZE * len(self.players), "discard": 0}

    # -- small helpers ---------------------------------------------------------
    @staticmethod
    def _set_cards(t: Txn, name: str, cards: list[int]) -> None:
        p = t.player(name)
        p["cards"] = sorted(cards, reverse=True)
        p["highest"] = _highest_range(p)[0]
        t.set(name, "treasure", sum(cards) + (p["unknown_worth"] or 0))

    def _take_cards(self, t: Txn, name: str, values: list[int]) -> None:
        """Remove cards of these values from ``name``'s hand, or refuse naming what is missing.

        A value the device does not see among the known cards is one of the cards whose values it does
        not know (when the hand has any): the card leaves the hand, and its value with it.
        """
        p = t.player(name)
        hand = list(p["cards"])
        unknown = p["unknown"]
        for v in values:
            if v in hand:
                hand.remove(v)
                continue
            if unknown:
                unknown -= 1
                continue
            held = p["cards"]
            if not held:
                raise RuleError(_("{name} holds no more treasure cards worth {value} (cards: none)",
                                  name=name, value=v))
            raise RuleError(_("{name} holds no more treasure cards worth {value} (cards: {held})", name=name,
                              value=v, held=", ".join(map(str, held))))
        p["unknown"] = unknown
        self._set_cards(t, name, hand)

    def _give_cards(self, t: Txn, name: str, values: list[int]) -> None:
        self._set_cards(t, name, t.player(name)["cards"] + values)

    def _give_unknown(self, t: Txn, name: str, n: int) -> None:
        """``n`` cards whose values the device does not know join ``name``'s hand."""
        p = t.player(name)
        p["unknown"] += n
        self._set_cards(t, name, p["cards"])

    # -- the treasure deck -------------------------------------------------------
    @staticmethod
    def _draw_treasure(t: Txn, name: str) -> None:
        """One card off the treasure deck (a draw or the treasure hall)."""
        pile = t.state["treasure_deck"]
        if pile["deck"] == 0 and pile["discard"] == 0:
            # Only a correction (or another count of cards) can lead here: the draw is recorded anyway.
            t.event(_("by the device's count every treasure card is in a hand or in play: check the treasure "
                      "deck ({name} draws one all the same)", name=name))
            return
        if pile["deck"] == 0:
            DragonRunRules._refill(t)
        pile["deck"] -= 1

    @staticmethod
    def _to_discard(t: Txn, cards: int) -> None:
        """``cards`` treasure cards go face up to the treasure discard."""
        t.state["treasure_deck"]["discard"] += cards

    @staticmethod
    def _refill(t: Txn) -> None:
        """«si alguna vez te quedas sin cartas en el mazo del tesoro, vuelve a mezclar todas las cartas del
        tesoro descartadas y colócalas boca abajo para formar una nueva pila para robar»."""
        pile = t.state["treasure_deck"]
        if pile["deck"] or not pile["discard"]:
            return
        n = pile["discard"]
        pile.update(deck=n, discard=0)
        t.event(N_("the treasure deck has run out: shuffle the {n} discarded treasure card into a new deck",
                   "the treasure deck has run out: shuffle the {n} discarded treasure cards into a new deck", n))

    @staticmethod
    def _values(a: Args, key: str, *, required: bool = True) -> list[int]:
        if required:  # refused when left out, although the field is declared with the default []
            a.raw(key)
        values = a.ints(key)
        if any(not 0 <= v <= MAX_CARD for v in values):
            raise RuleError(_("{action}: a treasure card is worth 0–{most}, not {values!r}", action=a.name,
                              most=MAX_CARD, values=values))
        return values

    def _active(self, t: Txn, a: Args) -> str:
        """The active player; an optional "player" field must name them."""
        turn = t.state["turn"]
        who = a.raw("player", None)
        if who is not None:
            if not isinstance(who, str):
                raise RuleError(_("{action}: 'player' must be a player's name, not {who!r}", action=a.name, who=who))
            p = t.player(who)
            if p["out"]:
                raise RuleError(_dead(who))
            if who != turn["player"]:
                raise RuleError(_("it is {active}'s turn, not {who}'s", active=turn["player"], who=who))
        active: str = turn["player"]
        return active

    def _turn_action(self, t: Txn, a: Args, allowed: tuple[str, ...]) -> str:
        """Check that the turn's phase allows this action; returns the active player."""
        name = self._active(t, a)
        if t.state["turn"]["phase"] in allowed:
            return name
        raise RuleError(self._phase_refusal(t, name))

    @staticmethod
    def _phase_refusal(t: Txn, name: str) -> Msg:
        """Why the turn's phase refuses an action, and what the player may do instead."""
        phase = t.state["turn"]["phase"]
        if phase == "deal":
            return _deal_first(t)
        if phase == "count":
            return _count_first(t)
        if phase == "must_charge":
            roll = t.state["last_roll"]
            return N_("{name} must charge: the escape test failed (rolled {roll} with {n} location card left)",
                      "{name} must charge: the escape test failed (rolled {roll} with {n} location cards left)",
                      roll["dungeon"], name=name, roll=roll["roll"])
        if phase == "escaped":
            return _("{name} escaped the dragon this turn: charge into the next room, or pass", name=name)
        if phase == "after_location":
            return _("{name} has charged this turn: pass or take another turn as the room's icon says, "
                     "or charge again if the room says so", name=name)
        return _("{name} must first charge, hide or cry like a baby", name=name)

    def _reshuffle(self, t: Txn) -> None:
        """All 10 locations back into the dungeon deck; talismans in play are discarded.

        Not when the dragon has just lost its last temper point: «si el dragón pierde su último punto de
        temperamento, el juego termina» comes before «Vuelve a mezclar», so the talismans in play stay.
        """
        if t.get(None, "temper") == 0:
            return
        t.set(None, "dungeon", DUNGEON_CARDS)
        t.state["discard"] = {"treasure_hall": False, "other": 0}
        for p in t.players:
            if p["talismans"]:
                t.event(_("{name}'s talismans in play are discarded ({values})", name=p["name"],
                          values=_sum_words(p["talismans"])))
                self._to_discard(t, len(p["talismans"]))
                p["talismans"] = []
        t.event(N_("the dungeon deck is reshuffled ({n} card)", "the dungeon deck is reshuffled ({n} cards)",
                   DUNGEON_CARDS))

    def _next_player(self, t: Txn) -> None:
        turn = t.state["turn"]
        nxt = t.next_in_game(turn["player"])
        if nxt is None:
            return
        turn.update(player=nxt, number=turn["number"] + 1, phase="start")

    def _kill_the_dead(self, t: Txn) -> None:
        """A player at 2 wounds is dead: out, treasure and talismans to the discard."""
        for p in t.in_game():
            if p["counters"]["wounds"] >= 2:
                name = p["name"]
                if p["cards"] or p["talismans"] or p["unknown"]:
                    t.event(_("{name}'s treasure goes to the discard ({values})", name=name,
                              values=_hand_words(p["cards"] + p["talismans"], p["unknown"])))
                self._to_discard(t, len(p["cards"]) + len(p["talismans"]) + p["unknown"])
                p["unknown"] = 0
                self._set_cards(t, name, [])
                p["talismans"] = []
                t.eliminate(name, _("burnt to ashes by the dragon"))
                if name in t.state["to_deal"]:
                    self._to_discard(t, HAND_SIZE)  # dealt, never entered: to the discard unseen
                    t.state["to_deal"].remove(name)
                    if not t.state["to_deal"] and t.state["turn"]["phase"] == "deal":
                        t.state["turn"]["phase"] = "start"
                if t.state["turn"]["player"] == name:
                    phase = t.state["turn"]["phase"]
                    self._next_player(t)
                    if phase == "deal":
                        t.state["turn"]["phase"] = "deal"

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

    # -- setup ------------------------------------------------------------------
    @action("deal", fields=(Player("player"), Ints("values", default=[])))
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
            self._draw_treasure(t, name)
            self._give_cards(t, name, [value])
            p["power_kind"] = "draw"
            t.event(_("{name} draws a treasure worth {value}", name=name, value=value))
        elif heal is not None:
            t.add(heal, "wounds", -1)
            p["power_kind"] = "heal"
            t.event(_("{name} heals {other}", name=name, other=heal))

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
        Str("then", required=False, choices=ICONS,
            doc=_("what the room's icon says: pass or take another turn; left out, the turn waits for pass or "
                  "again")),
        Int("draws", required=False, lo=0, hi=MAX_ROOM_DRAWS,
            doc=_("treasure cards the room's card gives: how many (left out: one for each value given); their "
                  "values are value and second, or asked when needed")),
        Int("value", required=False, lo=0, hi=MAX_CARD, doc=_("the first treasure card it gives: its value")),
        Int("second", required=False, lo=0, hi=MAX_CARD, doc=_("the second treasure card it gives: its value")),
        Ints("discard", default=[], doc=_("treasure cards it makes its player discard: their values")),
        Int("give", required=False, lo=0, hi=MAX_CARD,
            doc=_("a treasure card it makes its player give to the player on their left: its value")),
    ))
    def _room(self, t: Txn, a: Args) -> None:
        """A charge into another room whose card moves treasure cards («Aplicar el efecto indicado en la
        tarjeta»), all in one: the cards it gives ("draws", "value", "second"), the cards it makes its
        player discard ("discard") or give to the player on the left ("give"); then its icon ("then")."""
        self._charge_at(t, a, "other")

    def _charge_at(self, t: Txn, a: Args, where: str) -> None:
        name = self._turn_action(t, a, ("start", "must_charge", "escaped", "after_location"))
        then = a.str("then", None)
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
        if where == "treasure_hall" and st["discard"]["treasure_hall"]:
            raise RuleError(_("the treasure hall is already in the dungeon discard: it cannot come up "
                              "before the next reshuffle"))
        if where == "other" and st["discard"]["other"] >= OTHER_LOCATIONS:
            raise RuleError(_("all {others} other rooms are in the dungeon discard: the card drawn must be "
                              "the dragon or the treasure hall", others=OTHER_LOCATIONS))
        t.add(None, "dungeon", -1)
        if where == "dragon":
            self._dragon(t, name)
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
            st["discard"]["treasure_hall"] = True
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
        for _card in range(draws):
            self._draw_treasure(t, name)
        self._give_cards(t, name, known)
        self._give_unknown(t, name, draws - len(known))
        if draws:
            t.event(N_("{name}'s room gives {n} treasure card", "{name}'s room gives {n} treasure cards", draws,
                       name=name))
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

    def _dragon(self, t: Txn, name: str) -> None:
        """The dragon location: burn, temper −1, reshuffle, powers ready, next player."""
        t.add(name, "wounds", 1)
        wounds = t.get(name, "wounds")
        if wounds == 1:
            t.event(_("the dragon! {name} is injured", name=name))
        else:
            t.event(_("the dragon! {name} is killed", name=name))
        self._kill_the_dead(t)
        t.add(None, "temper", -1)
        self._reshuffle(t)
        for p in t.players:
            if not p["out"]:
                p["power"] = "ready"
        if t.state["turn"]["player"] == name:  # a killed player's turn has already passed
            self._next_player(t)

    @action("hide", fields=(
        Raw("player"),
        Ints("discard", default=[], doc=_("the values of the treasure cards discarded (worth at least 1)")),
        Int("roll", required=False, lo=0, hi=DIE_FACES - 1,
            doc=_("the face of a physical d10 (0–9; a face marked 10 is 0); left out, the device rolls")),
    ))
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
        Ints("discard", default=[], doc=_("the values of the treasure cards discarded (worth at least 2)")),
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

    def _another_turn(self, t: Txn, name: str) -> None:
        turn = t.state["turn"]
        turn.update(number=turn["number"] + 1, phase="start")
        t.event(_("{name} takes another turn", name=name))

    # -- treasure cards ------------------------------------------------------------
    def _in_game(self, t: Txn, a: Args) -> str:
        """The optional "player" (default: the active player), alive."""
        who: str = a.player("player", t.state["turn"]["player"], in_game=False)
        if t.player(who)["out"]:
            raise RuleError(_dead(who))
        return who

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
        if a.raw("value", None) is None:
            self._give_unknown(t, name, 1)
            return
        self._give_cards(t, name, [a.int("value")])

    @action("discard", fields=(Player("player", required=False), Ints("values", default=[])))
    def _discard(self, t: Txn, a: Args) -> None:
        """A player discards treasure cards ("values"), e.g. by a card's effect (default: the active player)."""
        name = self._in_game(t, a)
        values = self._values(a, "values")
        if not values:
            raise RuleError(_("discard: name the values of the cards discarded"))
        self._take_cards(t, name, values)
        self._to_discard(t, len(values))

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
    ))
    def _play(self, t: Txn, a: Args) -> None:
        """A player plays a potion ("value") from hand: it is discarded; its effects follow with the other actions.

        On another player's turn only the cancel potion ("cancel") may be played.
        "draw": a treasure card the potion makes its player draw (its value).
        """
        name = self._in_game(t, a)
        value = a.int("value")
        cancel = a.bool("cancel")
        draw = a.int("draw") if a.raw("draw", None) is not None else None
        if cancel and draw is not None:
            raise RuleError(_("the cancel potion only cancels another potion: it makes nobody draw a card"))
        if t.state["turn"]["phase"] == "deal":
            raise RuleError(_deal_first(t))
        active = t.state["turn"]["player"]
        if name != active and not cancel:
            # «Solo la poción de anulación se puede jugar durante el turno de otro jugador»
            raise RuleError(_("it is {active}'s turn: on another player's turn only the cancel potion may be "
                              "played", active=active))
        self._take_cards(t, name, [value])
        self._to_discard(t, 1)
        if cancel:
            t.event(_("{name} plays the cancel potion ({value})", name=name, value=value))
        else:
            t.event(_("{name} plays a potion ({value})", name=name, value=value))
        if draw is not None:
            # «Las pociones tienen efectos poderosos como se indica en las cartas»: a potion that says
            # "draw a treasure card" is entered with it, the card drawn after the potion is discarded.
            self._draw_treasure(t, name)
            self._give_cards(t, name, [draw])
            t.event(_("{name} draws a treasure worth {value}", name=name, value=draw))

    # -- the end -----------------------------------------------------------------------
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

    # -- the generic corrections, fitted to the cards -------------------------------
    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        if who is None and counter == "temper" and delta > 0:
            raise RuleError(_("the dragon's temper never rises (undo to correct a mistake)"))
        if who is not None and counter == "treasure":
            return self._adjust_treasure(t, who, delta)
        applied = super().adjust(t, who, counter, delta)
        if who is None and counter == "dungeon" and t.get(None, "dungeon") == DUNGEON_CARDS:
            t.state["discard"] = {"treasure_hall": False, "other": 0}
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

    # -- dice ---------------------------------------------------------------------
    def prepare(self, state: dict[str, Any], action: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Roll the escape test's d10 (faces 0–9) for a hide that does not bring a "roll"."""
        if action.get("action") == "hide" and "roll" not in action:
            action = dict(action, roll=rng.randrange(DIE_FACES))
        return action


def _dead(who: str) -> Msg:
    """The one wording for a dead adventurer, whatever they try."""
    return _("{who} is out of the game (burnt to ashes by the dragon): the dead do not act", who=who)


def _deal_first(t: Txn) -> Msg:
    """The refusal while dealt hands are still to be entered."""
    return _("first enter the {hand_size} treasure cards dealt to {players} (action deal)", hand_size=HAND_SIZE,
             players=listing(t.state["to_deal"]))


def _count_first(t: Txn) -> Msg:
    """The refusal while the device waits for the final count."""
    return _("the dragon sleeps: the game ends when {players} have counted (action count)",
             players=listing(t.state["to_count"]))


def _hand_words(values: list[int], unknown: int) -> str:
    """Card values as a sum, a card whose value is not known as "?" ("3+2+?")."""
    if not unknown:
        return _sum_words(values)
    return "+".join([str(v) for v in values] + ["?"] * unknown)


def _highest_range(p: dict[str, Any]) -> tuple[int, int]:
    """The least and the most the highest card in ``p``'s hand can be, from what the device knows."""
    known = max(p["cards"], default=0)
    n = p["unknown"]
    if not n:
        return known, known
    if p["said_highest"] is not None:
        return p["said_highest"], p["said_highest"]
    worth = p["unknown_worth"]
    if worth is None:
        return known, MAX_CARD
    return max(known, -(-worth // n)), max(known, min(worth, MAX_CARD))


def _card_range(p: dict[str, Any]) -> tuple[int, int]:
    """The tie-break's card (the highest in hand or in play as a talisman): its least and most."""
    lo, hi = _highest_range(p)
    top = max(p["talismans"], default=0)
    return max(lo, top), max(hi, top)


def _cheapest(cards: list[int], at_least: int) -> list[int] | None:
    """The cards worth the least total that still reach ``at_least`` (fewest cards on a tie), or None.

    A small subset-sum over the positive cards: sums above ``at_least + MAX_CARD``
    are never the cheapest, so the table stays small.
    """
    cap = at_least + MAX_CARD
    best: dict[int, list[int]] = {0: []}
    for v in sorted(c for c in cards if c > 0):
        for s, pick in sorted(best.items(), reverse=True):
            if s + v <= cap and (s + v not in best or len(pick) + 1 < len(best[s + v])):
                best[s + v] = pick + [v]
    reachable = [s for s in best if s >= at_least]
    return sorted(best[min(reachable)], reverse=True) if reachable else None
