"""Dragon Run's table: its numbers, its setup, the hands and the treasure deck, whose turn and what its
phase allows, the dungeon's reshuffle and the dead."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import RuleError, SetupError
from ...game import Game
from ...messages import N_, Msg, _, listing
from ...spec import Counter, Option
from ...state import Args, Txn
from .words import _sum_words

#: Dragon temper at the start, by player count (rulebook "Preparar").
START_TEMPER = {5: 8, 4: 7, 3: 6, 2: 5}
DUNGEON_CARDS = 10
HAND_SIZE = 4
#: A sanity bound on one treasure card's value, to catch typing slips.
MAX_CARD = 10
#: The most treasure cards one room's card gives (a hidden stash: two).
MAX_ROOM_DRAWS = 3
DIE_FACES = 10  # faces 0–9
LOCATIONS = ("dragon", "treasure_hall", "other")
#: What a room card's pictogram says (rulebook "Otras tarjetas de ubicación"), given with the charge.
ICONS = ("pass", "again")
#: A room's icon as the room action takes it: also "go_on", a card that sends its player on to the next charge
#: (a rulebook reader's pit: a card lost, then charge again at once).
ROOM_ICONS = ICONS + ("go_on",)
#: What the rules say when the treasure deck runs out and its discard becomes the new deck (singular form).
RESHUFFLED = "the treasure deck has run out: shuffle the {n} discarded treasure card into a new deck"
#: The treasure deck (rulebook "Componentes": 38 cartas de tesoro).
TREASURE_CARDS = 38
#: The moves that start the game: the hands not entered by then were dealt all the same (values unknown).
CLOSE_THE_DEAL = frozenset({"power", "charge", "room", "hide", "cry", "pass", "again", "talisman", "play"})


def other_rooms(options: dict[str, Any]) -> int:
    """How many of the 10 location cards are other rooms: the dragon and the treasure halls apart, the publisher's
    8 (one hall), 7 for a copy with two (option ``treasure_halls``)."""
    return DUNGEON_CARDS - 1 - int(options.get("treasure_halls", 1))


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


class DragonRunTable(Game):
    """The game's numbers and setup, and the helpers its actions share."""

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
        Option("treasure_halls", 1, _("treasure halls among the 10 location cards (the publisher's: 1; a copy with "
               "more has fewer other rooms)"), lo=1, hi=3),
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
            # kept by the dragon and the healing power: a hold of up on a pod once killed its player
            Counter("wounds", 0, lo=0, hi=2, free=False, doc=_("0 unhurt, 1 injured, 2 dead (out of the game)")),
            # the sum of the cards in hand, kept by the moves that move cards: not a ± counter on a pod
            Counter("treasure", 0, lo=0, hi=None, free=False, doc=_("total value of the treasure cards in hand")),
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
        # the treasure halls drawn since the reshuffle, for a copy with more than one (option treasure_halls;
        # ``treasure_hall`` in the discard says none is left to come); kept out of the public view
        state["halls_out"] = 0
        state["last_roll"] = None
        state["dragon_won"] = False
        # The survivors whose count the device still needs at the end (their hand's total, or for a tie
        # their highest card): only when it holds cards whose values it does not know. "asking": which of the
        # two the device asks now (None, "total" or "highest"; kept out of the public view).
        state["to_count"] = []
        state["asking"] = None
        # The treasure cards a room's card made the other adventurers draw that each has still to enter (a
        # reader's «Sala del eco»): player → how many.
        state["to_draw"] = {}
        # The treasure cards of their choice a room's card made players discard that each has still to enter (a
        # reader's «Nido de murciélagos», «Sala de las lanzas»): player → how many.
        state["to_discard"] = {}
        # The treasure deck counted from the deal (rulebook "Preparar": «distribuye 4 a cada jugador»):
        # cards, not values; the values are in the hands.
        state["treasure_deck"] = {"deck": TREASURE_CARDS - HAND_SIZE * len(self.players), "discard": 0}

    # -- small helpers ---------------------------------------------------------
    @staticmethod
    def _owed_entered(t: Txn, owed: str, name: str, n: int) -> None:
        """``n`` of the cards another's room made ``name`` draw or discard are entered (the state's ``owed``,
        ``to_draw``, ``to_discard`` or ``to_pass``: player → how many still to enter): so many fewer asked."""
        due = t.state.get(owed) or {}
        if name in due:
            due[name] -= n
            if due[name] <= 0:
                del due[name]

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
            DragonRunTable._refill(t)
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
        t.event(N_(RESHUFFLED, "the treasure deck has run out: shuffle the {n} discarded treasure cards into a new deck",
                   n))

    def table_news(self, before: dict[str, Any], after: dict[str, Any], events: Sequence[Any]) -> list[Msg]:
        """The treasure deck reshuffled (the moment it runs out, as the device counts): every pod says so, so that
        the table shuffles its discard then too (a tester's table shuffled when it next drew, with a potion drunk
        in between: its new deck one card more than the device's)."""
        return [e for e in events if isinstance(e, Msg) and e.template == RESHUFFLED]

    # -- whose turn, and what its phase allows ------------------------------------------
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

    def _in_game(self, t: Txn, a: Args) -> str:
        """The optional "player" (default: the active player), alive."""
        who: str = a.player("player", t.state["turn"]["player"], in_game=False)
        if t.player(who)["out"]:
            raise RuleError(_dead(who))
        return who

    def _next_player(self, t: Txn) -> None:
        turn = t.state["turn"]
        nxt = t.next_in_game(turn["player"])
        if nxt is None:
            return
        turn.update(player=nxt, number=turn["number"] + 1, phase="start")

    def _another_turn(self, t: Txn, name: str) -> None:
        turn = t.state["turn"]
        turn.update(number=turn["number"] + 1, phase="start")
        t.event(_("{name} takes another turn", name=name))

    # -- the dungeon and the dead ----------------------------------------------------------
    def _reshuffle(self, t: Txn) -> None:
        """All 10 locations back into the dungeon deck; talismans in play are discarded.

        Not when the dragon has just lost its last temper point: «si el dragón pierde su último punto de
        temperamento, el juego termina» comes before «Vuelve a mezclar», so the talismans in play stay.
        """
        if t.get(None, "temper") == 0:
            return
        t.set(None, "dungeon", DUNGEON_CARDS)
        t.state["discard"] = {"treasure_hall": False, "other": 0}
        t.state["halls_out"] = 0
        for p in t.players:
            if p["talismans"]:
                t.event(_("{name}'s talismans in play are discarded ({values})", name=p["name"],
                          values=_sum_words(p["talismans"])))
                self._to_discard(t, len(p["talismans"]))
                p["talismans"] = []
        t.event(N_("the dungeon deck is reshuffled ({n} card)", "the dungeon deck is reshuffled ({n} cards)",
                   DUNGEON_CARDS))

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
                (t.state.get("to_draw") or {}).pop(name, None)  # a room's card never entered: nobody asks it now
                (t.state.get("to_discard") or {}).pop(name, None)
                (t.state.get("to_pass") or {}).pop(name, None)
                if t.state["turn"]["player"] == name:
                    phase = t.state["turn"]["phase"]
                    self._next_player(t)
                    if phase == "deal":
                        t.state["turn"]["phase"] = "deal"


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
