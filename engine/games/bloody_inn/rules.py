"""The Bloody Inn's rules: its numbers, its setup, its actions and their consequences."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...fields import Bool, Int, Ints, Player, Raw, Str
from ...game import action
from ...messages import N_, _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn
from .annexes import (
    DEFAULT_AMOUNT,
    EFFECTS,
    discount,
    grants_extra,
    powers,
    unknown_power,
    waived,
)
from .base import BloodyInnBase
from .words import (
    COUNT_REASON,
    _annex,
    _cards,
    _checks,
    _officers,
    _peasants,
    _rooms_list,
    _travellers,
    _unburied,
    power_words,
)

TRAVELLERS = 70  # 78 guest cards = 70 travellers + 8 peasants
#: Cards removed unseen from the traveller deck (rulebook "Preparar"; solo: publisher's rules).
REMOVED = {1: {"short": 34, "long": 26}, 2: {"short": 35, "long": 25},
           3: {"short": 28, "long": 16}, 4: {"short": 22, "long": 6}}
#: Neutral keys: 3 doors with 2–3 players (and solo), 4 with 4 players.
NEUTRAL_KEYS = {1: 3, 2: 3, 3: 3, 4: 4}
START_CASH = 5
START_CHECKS = 1
CASH_MAX = 40  # the wealth track ends at 40F
CHECK = 10  # francs per check
START_PEASANTS = 2  # each player's starting hand
SOLO_BISTRO = 2  # solo: 2 more peasants start in the bistro
POLICE_FINE = 10  # per unburied corpse at a police investigation
MAX_RANK = 3
#: A sanity bound on the cards one action says it plays.
MAX_PLAYED = 2 * MAX_RANK * 4
#: Solo ranks by final score (publisher's solitaire rules, given for the long game).
SOLO_BANDS = ((170, "demonic"), (150, "evil"), (130, "hazardous"), (110, "worrying"))
LEDGER_CAUSES = ("bury", "departure", "police", "wages", "adjust", "transfer")
PHASES = ("welcome", "night", "morning", "count", "over")


def _check_first(value: Any) -> None:
    if not isinstance(value, str):
        raise SetupError(_("option 'first' must be a player's name"))


def _check_pocket(value: list[Any]) -> None:
    if (len(value) != MAX_RANK + 1
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
        raise SetupError(_("option 'pocket' must list the pocket money of a rank 0, 1, 2 and 3 guest, "
                           "like [8, 12, 18, 26], not {value!r}", value=value))


class BloodyInnRules(BloodyInnBase):
    """The game's setup, actions and consequences."""

    id = "bloody-inn"
    title = "The Bloody Inn"
    #: The game's BoardGameGeek id (play logs; ``[app.bgg]`` in the config file overrides it).
    bgg_id = 180593
    min_players = 1
    max_players = 4
    icons = {"cash": "money-bill", "checks": "money-check", "round": "moon", "season": "leaf"}
    options_spec = (
        Option("length", "short", _("short or long game (how many traveller cards are removed)"),
               choices=("short", "long")),
        Option("first", "", _("the greediest player, who takes the first-player card "
               "(default: the first listed)"), check=_check_first, role="starter"),
        Option("corpse_penalty", 10, _("francs lost at the final count per corpse still unburied "
               "(0 = no penalty)"), lo=0, hi=100),
        Option("tie", "shared", _("equal richest: shared victory, or the most cash / most checks "
               "breaks the tie (still equal: shared)"), choices=("shared", "most_cash", "most_checks")),
        Option("pocket", [8, 12, 18, 26], _("default pocket money of a rank 0/1/2/3 guest when kill "
               "gives no money (read your card)"), kind=list, check=_check_pocket),
        Option("barn", 3, _("corpses the barn (player-aid card) can hold"), lo=0, hi=10),
    )

    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        first = self.options["first"]
        if first and first not in self.players:
            raise SetupError(_("option 'first': there is no player called {name!r} (players: {players})",
                               name=first, players=listing(self.players)))

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    # -- declarations ----------------------------------------------------------
    def player_counter_specs(self) -> list[Counter]:
        return [
            Counter("cash", START_CASH, lo=0, hi=CASH_MAX,
                    doc=_("francs on the wealth track (0–40; a gain beyond 40 is lost)")),
            Counter("checks", START_CHECKS, lo=0, hi=None, doc=_("10F checks")),
        ]

    def table_counter_specs(self) -> list[Counter]:
        return [
            Counter("round", 1, lo=1, hi=None, doc=_("the round being played")),
            Counter("season", 1, lo=1, hi=2,
                    doc=_("1, then 2 once the exit stack was shuffled into a new entrance stack")),
        ]

    def entrance_size(self) -> int:
        return TRAVELLERS - REMOVED[len(self.players)][self.options["length"]]

    def setup_extra(self, state: dict[str, Any]) -> None:
        n = len(self.players)
        for p in state["players"]:
            p.update({
                "hand": START_PEASANTS, "peasants": START_PEASANTS, "police": 0,
                "annexes": [{"name": "barn", "rank": self.options["barn"], "buried": []}],
                "corpses": [], "lost": 0,
            })
        keys = list(self.players) + [None] * NEUTRAL_KEYS[n]
        state["inn"] = {
            "rooms": [{"room": i + 1, "key": key, "guest": False, "police": False}
                      for i, key in enumerate(keys)],
            "entrance": self.entrance_size(),
            "exit": 0,
            "bistro": SOLO_BISTRO if self.solo else 0,
            "discarded": 0,  # corpses the police made disappear (back in the box)
        }
        first = self.options["first"] or self.players[0]
        state["first_player"] = first
        state["phase"] = "welcome"
        state["turn"] = {"player": None, "action": 0}
        state["last_round"] = False
        state["ledger"] = {cause: 0 for cause in LEDGER_CAUSES}
        state["final_count"] = None
        state["solo"] = {"lost": False, "why": None, "score": None, "band": None} if self.solo else None

    # -- money -------------------------------------------------------------------
    @staticmethod
    def wealth(state: dict[str, Any]) -> int:
        """All the players' francs: cash + 10 × checks, summed."""
        return sum(p["counters"]["cash"] + CHECK * p["counters"]["checks"] for p in state["players"])

    def _gain(self, t: Txn, who: str, amount: int, cause: str, why: str | None = None) -> int:
        """Add francs to ``who``'s wealth track; beyond 40F they are lost (and said so)."""
        cash = t.get(who, "cash")
        applied = max(0, min(amount, CASH_MAX - cash))
        lost = amount - applied
        if applied:
            t.add(who, "cash", applied)
            t.state["ledger"][cause] += applied
        if lost > 0:
            t.player(who)["lost"] += lost
            if why:
                t.event(_("{who}'s wealth track stops at {cap}F: {lost}F lost ({why})", who=who, cap=CASH_MAX,
                          lost=lost, why=why))
            else:
                t.event(_("{who}'s wealth track stops at {cap}F: {lost}F lost", who=who, cap=CASH_MAX, lost=lost))
        return applied

    def _pay_cash(self, t: Txn, who: str, amount: int, cause: str) -> int:
        paid = min(amount, t.get(who, "cash"))
        if paid:
            t.add(who, "cash", -paid)
            t.state["ledger"][cause] -= paid
        return paid

    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        """The generic adjustment: cash gains beyond 40F are lost with an event; the ledger records it."""
        if who is not None and counter == "cash" and delta > 0:
            return self._gain(t, who, delta, "adjust")
        applied = t.add(who, counter, delta)
        if who is not None and counter in ("cash", "checks"):
            t.state["ledger"]["adjust"] += applied * (CHECK if counter == "checks" else 1)
        return applied

    def transfer(self, t: Txn, giver: str, taker: str, counter: str, amount: int) -> int:
        """Cash from one player to another: the giver pays what they have; beyond 40F the taker's gain is lost.

        The ledger's ``transfer`` line records only the francs lost over 40
        (what moved between players is not a gain or a loss of the players).
        """
        if counter != "cash":
            return super().transfer(t, giver, taker, counter, amount)
        paid = self._pay_cash(t, giver, amount, "transfer")
        if paid < amount:
            t.event(_("{giver} had only {paid}F to give", giver=giver, paid=paid))
        if paid:
            self._gain(t, taker, paid, "transfer", why=_("from {giver}", giver=giver))
        return paid

    @action("adjust", adjustment=True, fields=(
        Player("player", required=False),
        Str("counter"),
        Int("delta"),
        Str("cause", default=""),
    ))
    def _adjust(self, t: Txn, a: Args) -> None:
        """Change a player's counter (or, without "player", a table counter) by "delta"; optional "cause".

        Cash stays within 0–40 (a gain beyond 40 is lost and said so). "cause"
        (text, e.g. "Park") says why, for the history: annex gains are recorded so.
        """
        who = a.player("player", None)
        counter = a.str("counter")
        delta = a.int("delta")
        cause = a.str("cause")
        applied = self.adjust(t, who, counter, delta)
        if cause:
            t.event(_("{who}: {counter} {delta:+d} ({cause})", who=who or _("table"), counter=word("counter", counter),
                      delta=applied, cause=cause))

    # -- structure helpers ---------------------------------------------------------
    def _seat_order(self, t: Txn) -> list[str]:
        names = [p["name"] for p in t.players]
        i = names.index(t.state["first_player"])
        return names[i:] + names[:i]

    def _room(self, t: Txn, number: int) -> dict[str, Any]:
        rooms = self._rooms(t)
        if not 1 <= number <= len(rooms):
            raise RuleError(_("there is no room {number} (the open rooms are 1–{last})", number=number, last=len(rooms)))
        return rooms[number - 1]

    def _actor(self, t: Txn, a: Args, *, allow_extra: bool = True) -> tuple[str, bool]:
        """Who acts in a night action and whether it is an extra (annex-power) action."""
        extra = a.bool("extra") if allow_extra else False
        who = a.player("player", None)
        if t.state["phase"] != "night":
            raise self._phase_refusal(t, "night")
        turn = t.state["turn"]
        if who is None:
            who = turn["player"]
        elif not extra and who != turn["player"]:
            raise RuleError(_("it is {player}'s turn (action {action}), not {who}'s", player=turn["player"],
                              action=turn["action"], who=who))
        return who, extra

    def _check_extra(self, t: Txn, who: str, action: str, *, in_room: bool = True) -> None:
        """An extra action needs an annex whose power grants it (or one whose power the device was not told)."""
        p = t.player(who)
        if unknown_power(p) or grants_extra(p, action, in_room=in_room):
            return
        if action == "kill" and powers(p, "extra_kill"):
            raise RuleError(_("the butcher's shop kills several travellers in rooms, not peasants in the bistro"))
        raise RuleError(_("{who} has no annex that grants an extra {action}: an extra action comes from an "
                          "annex's power (the butcher's shop kills several travellers in one action)", who=who,
                          action=word("action", action)))

    def _advance(self, t: Txn) -> None:
        """The next action turn: seat order from the first player, everyone's first action then second."""
        turn = t.state["turn"]
        order = self._seat_order(t)
        i = order.index(turn["player"]) + 1
        if i < len(order):
            turn["player"] = order[i]
        elif turn["action"] == 1:
            turn["player"], turn["action"] = order[0], 2
        else:
            t.state["phase"] = "morning"
            t.state["turn"] = {"player": None, "action": 0}
            t.event(_("every player has taken both actions: the morning comes"))
            return
        if turn["action"] == 2:
            self._warn_wages(t, turn["player"])

    def _warn_wages(self, t: Txn, who: str) -> None:
        """Before a player's last action of the night: say so when the coming wages exceed their cash."""
        due = wages_due(t.player(who))
        cash = t.get(who, "cash")
        if due > cash:
            t.event(_("{who}'s last action of the night: {due}F of wages are coming and {who} has {cash}F in cash "
                      "(cash a check when passing, or an accomplice is discarded per franc short)", who=who, due=due,
                      cash=cash))

    def _play(self, t: Txn, a: Args, who: str, rank: int, action: str, *, keep_traveller: int = 0) -> None:
        """Play the cards an action costs, checked against what the device knows of the hand.

        "played" (default: the rank, fewer by the discounts of the player's
        annexes), "peasants" (default: as many as the hand forces) and "kept"
        (default 0: travellers with the aptitude who return to the hand) are
        filled by the device when absent and checked when given. Peasants go to
        the bistro, the other played travellers to the exit stack.
        ``keep_traveller``: a traveller that must stay in hand besides (the annex
        being built; never a police officer).
        """
        p = t.player(who)
        hand = p["hand"] - keep_traveller
        peasants_in_hand = p["peasants"]
        travellers = hand - peasants_in_hand
        police = min(p.get("police", 0), travellers)  # officers the device knows are in hand
        cut = discount(p, action)
        free = unknown_power(p)  # an annex whose power nobody told the device: it may be a discount
        cheapest = 0 if free else max(0, rank - cut)
        played = a.int("played", max(0, rank - cut))
        if played > rank:
            raise RuleError(N_("a rank-{rank} card costs {n} card, not {played}",
                               "a rank-{rank} card costs {n} cards, not {played}", rank, rank=rank, played=played))
        if played < cheapest:
            if cut:
                raise RuleError(N_("{who}'s annexes make a {action} {n} card cheaper: at least {least} played, "
                                   "not {played}",
                                   "{who}'s annexes make a {action} {n} cards cheaper: at least {least} played, "
                                   "not {played}", cut, who=who, action=word("action", action), least=cheapest,
                                   played=played))
            raise RuleError(N_("a rank-{rank} card costs {n} card: {who} has no annex that makes a {action} cheaper",
                               "a rank-{rank} card costs {n} cards: {who} has no annex that makes a {action} cheaper",
                               rank, rank=rank, who=who, action=word("action", action)))
        if played > hand:
            if keep_traveller:
                raise RuleError(N_("{who} has only {n} card in hand besides the annex; this needs {played} played",
                                   "{who} has only {n} cards in hand besides the annex; this needs {played} played",
                                   hand, who=who, played=played))
            raise RuleError(N_("{who} has only {n} card in hand; this needs {played} played",
                               "{who} has only {n} cards in hand; this needs {played} played", hand, who=who,
                               played=played))
        least = max(0, played - travellers)  # peasants the hand forces
        most = min(played, peasants_in_hand)
        peasants = a.int("peasants", None)
        if peasants is None:
            if least and least < most:
                raise RuleError(_('{who} holds {travellers} and {peasants}: say how many of the {cards} played are '
                                  'peasants ({least}–{most}, in "peasants")', who=who,
                                  travellers=_travellers(travellers), peasants=_peasants(peasants_in_hand),
                                  cards=_cards(played), least=least, most=most))
            peasants = least
        if peasants > peasants_in_hand:
            raise RuleError(N_("{who} has only {n} peasant in hand", "{who} has only {n} peasants in hand",
                               peasants_in_hand, who=who))
        if peasants > played:
            raise RuleError(N_("{who} plays {n} card: {peasants} cannot be among them",
                               "{who} plays {n} cards: {peasants} cannot be among them", played, who=who,
                               peasants=_peasants(peasants)))
        if played - peasants > travellers:
            raise RuleError(_('{who} holds {travellers} and {peasants}: {cards} with only {among} among them '
                              'cannot be played (say how many in "peasants")', who=who,
                              travellers=_travellers(travellers), peasants=_peasants(peasants_in_hand),
                              cards=_cards(played), among=_peasants(peasants)))
        played_travellers = played - peasants
        forced_police = max(0, played_travellers - (travellers - police))
        kept = a.int("kept")
        if kept > played_travellers - forced_police:
            if not played_travellers:
                raise RuleError(_("{who} plays no traveller: peasants always go back to the bistro, so no card "
                                  "returns to the hand", who=who))
            if forced_police:
                raise RuleError(N_("{who} plays {n} traveller and {police} among them: police officers have no "
                                   "aptitude, so at most {most} returns to the hand",
                                   "{who} plays {n} travellers and {police} among them: police officers have no "
                                   "aptitude, so at most {most} return to the hand", played_travellers, who=who,
                                   police=_officers(forced_police), most=played_travellers - forced_police))
            raise RuleError(N_("{who} plays {n} card: the kept cards ({kept}) and the peasants ({peasants}) "
                               "cannot be more than that",
                               "{who} plays {n} cards: the kept cards ({kept}) and the peasants ({peasants}) "
                               "cannot be more than that", played, who=who, kept=kept, peasants=peasants))
        gone = played_travellers - kept
        p["peasants"] -= peasants
        p["hand"] -= peasants + gone
        p["police"] = max(0, police - gone)  # a kept card has the aptitude: never an officer
        t.state["inn"]["bistro"] += peasants
        t.state["inn"]["exit"] += gone
        if played < rank:
            t.event(N_("{who}'s annexes make it {n} card cheaper", "{who}'s annexes make it {n} cards cheaper",
                       rank - played, who=who))
        if played:
            t.event(N_("{who} plays {n} card: {kept} back to hand, {peasants} to the bistro, {gone} to the exit stack",
                       "{who} plays {n} cards: {kept} back to hand, {peasants} to the bistro, {gone} to the exit stack",
                       played, who=who, kept=kept, peasants=_peasants(peasants), gone=gone))

    def _target(self, t: Txn, a: Args, verb: str) -> tuple[dict[str, Any] | None, int | None]:
        """A guest in a room (``room``) or peasants in the bistro; returns (room, bistro)."""
        room = a.int("room", None)
        bistro = a.raw("bistro", None)
        if (room is None) == (bistro is None or bistro is False):
            raise RuleError(_('{verb}: give either "room" (a guest in the inn) or "bistro" (peasants)',
                              verb=word("action", verb)))
        if room is not None:
            r = self._room(t, room)
            if not r["guest"]:
                raise RuleError(_("room {room} has no guest to {verb}", room=room, verb=word("action", verb)))
            return r, None
        return None, bistro

    @staticmethod
    def _guest_rank(a: Args, verb: str, room: int) -> int:
        """A room guest's rank, which only the card shows: asked in the player's words when missing."""
        if a.raw("rank", None) is None:
            raise RuleError(_("{verb}: say the rank of the guest in room {room} (0–3, printed on the card)",
                              verb=word("action", verb), room=room))
        return a.int("rank")

    # -- the welcome ----------------------------------------------------------------
    @action("welcome", fields=(
        Int("room", required=False, lo=1),
        Ints("police_rooms", default=[], lo=1),
        Bool("police"),
    ))
    def _welcome(self, t: Txn, a: Args) -> None:
        """The first player fills the open empty rooms from the entrance stack.

        Without "room": every empty room, in room order; "police_rooms" lists the
        rooms whose traveller is police. With "room": one traveller into that room;
        "police": true when that traveller is police. The night starts once every
        open room holds a traveller (or the entrance stack ran out for good).
        """
        room = a.int("room", None)
        if room is not None:
            police_rooms = [room] if a.bool("police") else []
        else:
            if a.has("police"):
                raise RuleError(_('welcome: "police" goes with "room"; for the whole welcome list the rooms in "police_rooms"'))
            police_rooms = a.ints("police_rooms")
        if t.state["phase"] != "welcome":
            raise self._phase_refusal(t, "welcome")
        rooms = self._rooms(t)
        if room is not None:
            r = self._room(t, room)
            if r["guest"]:
                raise RuleError(_("room {room} already has a guest", room=room))
            fill = [r]
        else:
            fill = [r for r in rooms if not r["guest"]]
            if not fill:
                raise RuleError(_("rooms are all taken"))
        numbers = [r["room"] for r in fill]
        for number in police_rooms:
            self._room(t, number)
            if number not in numbers:
                raise RuleError(_("room {number} gets no traveller in this welcome", number=number))
        inn = t.state["inn"]
        if inn["entrance"] == 0:
            self._entrance_empty(t)
        arrived = []
        for r in fill:
            if t.state["last_round"] and inn["entrance"] == 0:
                break
            inn["entrance"] -= 1
            r["guest"] = True
            r["police"] = r["room"] in police_rooms
            arrived.append(r["room"])
            if inn["entrance"] == 0:
                self._entrance_empty(t)
        for number in police_rooms:
            if number not in arrived:
                raise RuleError(_("room {number} gets no traveller: the entrance stack ran out first", number=number))
        if arrived:
            police = [n for n in arrived if n in police_rooms]
            first, left = t.state["first_player"], inn["entrance"]
            if police:
                t.event(N_("{who} welcomes {n} traveller into room {rooms} (police in {police}); "
                           "{left} left in the entrance stack",
                           "{who} welcomes {n} travellers into rooms {rooms} (police in {police}); "
                           "{left} left in the entrance stack", len(arrived), who=first,
                           rooms=_rooms_list(arrived), police=_rooms_list(police), left=left))
            else:
                t.event(N_("{who} welcomes {n} traveller into room {rooms}; {left} left in the entrance stack",
                           "{who} welcomes {n} travellers into rooms {rooms}; {left} left in the entrance stack",
                           len(arrived), who=first, rooms=_rooms_list(arrived), left=left))
        if t.state["last_round"] or all(r["guest"] for r in rooms):
            self._welcome_done(t)

    def _entrance_empty(self, t: Txn) -> None:
        """The entrance stack just ran out: a new season, or the last round."""
        inn = t.state["inn"]
        if t.state["table"]["season"] == 1:
            inn["entrance"], inn["exit"] = inn["exit"], 0
            t.set(None, "season", 2)
            t.event(N_("the entrance stack is empty: the exit stack ({n} card) is shuffled into a new entrance stack; "
                       "season 2 begins",
                       "the entrance stack is empty: the exit stack ({n} cards) is shuffled into a new entrance stack; "
                       "season 2 begins", inn["entrance"]))
            if inn["entrance"]:
                return
        if not t.state["last_round"]:
            t.state["last_round"] = True
            t.event(_("the entrance stack is empty for the second time: this is the last round"))

    def _welcome_done(self, t: Txn) -> None:
        guests = sum(r["guest"] for r in self._rooms(t))
        n = len(self.players)
        if t.state["last_round"] and guests < n:
            t.event(N_("only {travellers} in the inn for {n} player: the last round is not played",
                       "only {travellers} in the inn for {n} players: the last round is not played", n,
                       travellers=_travellers(guests)))
            self._enter_count(t)
            return
        t.state["phase"] = "night"
        t.state["turn"] = {"player": t.state["first_player"], "action": 1}

    # -- the night: actions ----------------------------------------------------------
    @action("bribe", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("room", required=False, lo=1),
        Raw("bistro"),
        Int("rank", required=False, lo=0, hi=MAX_RANK),  # a room guest's must be given; a peasant is rank 0
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _bribe(self, t: Txn, a: Args) -> None:
        """Bribe a guest in a "room" (its "rank"), or 1–2 peasants from the "bistro", into your hand.

        Cost: "played" cards (default: the rank), of which "kept" return to
        hand (aptitude) and "peasants" go to the bistro; the rest to the exit stack.
        """
        who, extra = self._actor(t, a)
        r, bistro = self._target(t, a, "bribe")
        bribed = 0  # how many peasants come from the bistro (without a room)
        if r is not None:
            rank = self._guest_rank(a, "bribe", r["room"])
        else:
            if isinstance(bistro, bool) or not isinstance(bistro, int) or not 1 <= bistro <= 2:
                raise RuleError(_('bribe: "bistro" is how many peasants you take, 1 or 2, not {bistro!r}', bistro=bistro))
            rank = a.int("rank", 0)
            if rank:
                raise RuleError(_("peasants are rank 0"))
            have = t.state["inn"]["bistro"]
            if have == 0:
                raise RuleError(_("the bistro is empty: no peasant to bribe"))
            if bistro > have:
                raise RuleError(N_("the bistro has only {n} peasant", "the bistro has only {n} peasants", have))
            bribed = bistro
        if extra:
            self._check_extra(t, who, "bribe")
        self._play(t, a, who, rank, "bribe")
        p = t.player(who)
        if r is not None:
            if r["police"]:  # a police officer stays one in a hand: never an annex
                p["police"] = p.get("police", 0) + 1
            r["guest"] = r["police"] = False
            p["hand"] += 1
            t.event(_("{who} bribes the rank-{rank} guest of room {room}: an accomplice in hand", who=who, rank=rank,
                      room=r["room"]))
        else:
            t.state["inn"]["bistro"] -= bribed
            p["hand"] += bribed
            p["peasants"] += bribed
            t.event(N_("{who} bribes {n} peasant from the bistro", "{who} bribes {n} peasants from the bistro",
                       bribed, who=who))
        if not extra:
            self._advance(t)

    @action("build", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("rank", lo=0, hi=MAX_RANK),
        Str("name", required=False),
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
        Str("effect", required=False, choices=EFFECTS),
        Int("amount", required=False, lo=0, hi=CASH_MAX),
    ))
    def _build(self, t: Txn, a: Args) -> None:
        """Build an annex from a traveller in hand: its "rank" (0–3), optional "name" and "effect".

        Cost: "played" other cards (default: the rank), "kept", "peasants" as for bribe.
        "effect" (one of the card list's effect types) and its "amount" make the
        device apply the annex's power from now on: morning_bonus (francs at every
        departure), wages_waived (wages every morning), bribe/build/kill/bury_discount
        (cards fewer), extra_kill and extra_action (extra actions it grants),
        gain_now (francs at once), end_game and other (reminded), none.
        """
        who, extra = self._actor(t, a)
        rank = a.int("rank")
        p = t.player(who)
        name = a.str("name", f"annex {len(p['annexes'])}")
        effect = a.str("effect", None)
        amount = a.int("amount", None)
        if amount is not None and (effect is None or DEFAULT_AMOUNT[effect] is None):
            raise RuleError(_('build: "amount" goes with an effect that has one (a bonus, waived wages, a discount, '
                              'a gain now)'))
        if effect is not None and amount is None:
            amount = DEFAULT_AMOUNT[effect]
        travellers = p["hand"] - p["peasants"]
        if travellers < 1:
            raise RuleError(_("{who} has no traveller in hand to build an annex from "
                              "(peasants and police cannot become annexes)", who=who))
        police = min(p.get("police", 0), travellers)
        if travellers - police < 1:
            raise RuleError(N_("{who}'s only traveller in hand is a police officer: police cannot become annexes",
                               "{who}'s only travellers in hand are {n} police officers: police cannot become "
                               "annexes", travellers, who=who))
        if extra:
            self._check_extra(t, who, "build")
        self._play(t, a, who, rank, "build", keep_traveller=1)
        p["hand"] -= 1
        annex: dict[str, Any] = {"name": name, "rank": rank, "buried": []}
        if effect is not None:
            annex["effect"] = effect
            annex["amount"] = amount
        p["annexes"].append(annex)
        t.event(N_("{who} builds {annex} (rank {rank}: room for {n} corpse)",
                   "{who} builds {annex} (rank {rank}: room for {n} corpses)", rank, who=who, annex=_annex(name),
                   rank=rank))
        if effect is not None:
            t.event(_("{who}'s {annex}: {power}", who=who, annex=_annex(name), power=power_words(effect, amount)))
        if effect == "gain_now" and amount:
            self._gain(t, who, amount, "adjust", _annex(name))
        if not extra:
            self._advance(t)

    @action("kill", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("room", required=False, lo=1),
        Raw("bistro"),
        Int("money", required=False, lo=0, hi=100),
        Int("rank", required=False, lo=0, hi=MAX_RANK),  # a room guest's must be given; a peasant is rank 0
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _kill(self, t: Txn, a: Args) -> None:
        """Kill a guest in a "room" (its "rank") or a peasant in the "bistro" (true): an unburied corpse.

        "money": the pocket money printed on the card (default: option pocket by rank).
        Cost as for bribe.
        """
        who, extra = self._actor(t, a)
        r, bistro = self._target(t, a, "kill")
        if r is not None:
            rank = self._guest_rank(a, "kill", r["room"])
        else:
            if not (bistro is True or (type(bistro) is int and bistro == 1)):
                raise RuleError(_('kill: "bistro" must be true (one peasant), not {bistro!r}', bistro=bistro))
            rank = a.int("rank", 0)
            if rank:
                raise RuleError(_("peasants are rank 0"))
            if extra:
                self._check_extra(t, who, "kill", in_room=False)
            if t.state["inn"]["bistro"] == 0:
                raise RuleError(_("the bistro is empty: no peasant to kill"))
        if extra:
            self._check_extra(t, who, "kill", in_room=r is not None)
        money = a.int("money", self.options["pocket"][rank])
        self._play(t, a, who, rank, "kill")
        if r is not None:
            r["guest"] = r["police"] = False
            t.event(_("{who} kills the rank-{rank} guest of room {room}: an unburied corpse with {money}F "
                      "in its pockets", who=who, rank=rank, room=r["room"], money=money))
        else:
            t.state["inn"]["bistro"] -= 1
            t.event(_("{who} kills a peasant in the bistro: an unburied corpse with {money}F in its pockets",
                      who=who, money=money))
        t.player(who)["corpses"].append({"rank": rank, "money": money})
        if not extra:
            self._advance(t)

    @action("bury", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("corpse", required=False, lo=1),
        Player("owner", required=False),
        Raw("annex"),
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _bury(self, t: Txn, a: Args) -> None:
        """Bury one of your corpses ("corpse", 1-based) under an annex with room ("owner"; "annex": its name, or 0 = barn, 1… in build order).

        The corpse's money: all yours under your own annex; otherwise shared
        with the annex's owner, the odd franc to the burier. Cost: the corpse's
        rank in cards ("played", "kept", "peasants" as for bribe).
        """
        who, extra = self._actor(t, a)
        p = t.player(who)
        corpses = p["corpses"]
        number = a.int("corpse", None)
        owner_given = a.player("owner", None)
        owner = owner_given or who
        annex_no = a.raw("annex", None)
        if isinstance(annex_no, str):
            owner, annex_no = self._annex_by_name(t, who, owner_given, annex_no)
        elif annex_no is not None and (isinstance(annex_no, bool) or not isinstance(annex_no, int) or annex_no < 0):
            raise RuleError(_('bury: "annex" is the annex\'s name, or its number (0 = barn, 1… in build order), '
                              'not {annex!r}', annex=annex_no))
        if not corpses:
            raise RuleError(_("{who} has no corpse to bury", who=who))
        if number is None:
            if any(c != corpses[0] for c in corpses):
                raise RuleError(_("{who} has {n} corpses: say which (corpse 1–{n})", who=who, n=len(corpses)))
            number = 1
        if number > len(corpses):
            raise RuleError(N_("{who} has only {n} corpse", "{who} has only {n} corpses", len(corpses), who=who))
        annexes = t.player(owner)["annexes"]
        if annex_no is None:
            free = [i for i, x in enumerate(annexes) if len(x["buried"]) < x["rank"]]
            if len(free) != 1:
                raise RuleError(_("say under which of {owner}'s annexes (annex: 0 = barn, 1–{last} built)",
                                  owner=owner, last=len(annexes) - 1) if len(annexes) > 1 else
                                _("that annex is full: {owner}'s barn has no room left", owner=owner))
            annex_no = free[0]
        if annex_no >= len(annexes):
            if len(annexes) > 1:
                raise RuleError(_("{owner} has no annex {number} (0 = barn, 1–{last} built)", owner=owner,
                                  number=annex_no, last=len(annexes) - 1))
            raise RuleError(_("{owner} has no annex {number} (0 = barn, none built)", owner=owner, number=annex_no))
        annex = annexes[annex_no]
        if len(annex["buried"]) >= annex["rank"]:
            if annex["rank"] == 0:
                raise RuleError(_("that annex is full: a rank-0 annex holds no corpse"))
            raise RuleError(N_("that annex is full: {owner}'s {annex} (rank {rank}) already holds {n} corpse",
                               "that annex is full: {owner}'s {annex} (rank {rank}) already holds {n} corpses",
                               len(annex["buried"]), owner=owner, annex=_annex(annex["name"]), rank=annex["rank"]))
        corpse = corpses[number - 1]
        if extra:
            self._check_extra(t, who, "bury")
        self._play(t, a, who, corpse["rank"], "bury")
        del corpses[number - 1]
        annex["buried"].append({"money": corpse["money"], "by": who})
        money = corpse["money"]
        if owner == who:
            t.event(_("{who} buries a corpse under their {annex} and takes its {money}F", who=who,
                      annex=_annex(annex["name"]), money=money))
            self._gain(t, who, money, "bury", _("burial"))
        else:
            mine, theirs = money - money // 2, money // 2
            t.event(_("{who} buries a corpse under {owner}'s {annex}: {money}F shared, {mine}F to {who}, "
                      "{theirs}F to {owner}", who=who, owner=owner, annex=_annex(annex["name"]), money=money,
                      mine=mine, theirs=theirs))
            self._gain(t, who, mine, "bury", _("burial"))
            self._gain(t, owner, theirs, "bury", _("burial"))
        if not extra:
            self._advance(t)

    def _annex_by_name(self, t: Txn, who: str, owner: str | None, name: str) -> tuple[str, int]:
        """The annex called ``name`` (the owner's; without an owner, your own first, then the only other):
        the one with room left when the owner has several of that name."""
        owners = [owner] if owner else [who] + [p["name"] for p in t.players if p["name"] != who]
        found: list[tuple[str, int]] = []
        for o in owners:
            mine = [(o, i) for i, x in enumerate(t.player(o)["annexes"]) if x["name"] == name]
            if mine:
                room = [(o2, i) for o2, i in mine if len(t.player(o2)["annexes"][i]["buried"])
                        < t.player(o2)["annexes"][i]["rank"]]
                found.append((room or mine)[0])
                if o == who and not owner:
                    break
        if not found:
            names = listing(str(_annex(x["name"])) for x in t.player(owner or who)["annexes"])
            raise RuleError(_("{owner} has no annex called {name} ({owner}'s annexes: {names})", owner=owner or who,
                              name=_annex(name), names=names))
        if len(found) > 1:
            raise RuleError(_('{owners} each have an annex called {name}: say whose (in "owner")',
                              owners=listing(o for o, _i in found), name=_annex(name)))
        return found[0]

    @action("pass", fields=(Player("player", required=False), Bool("extra"), Int("checks", default=0)))
    def _pass(self, t: Txn, a: Args) -> None:
        """Pass the action turn, and optionally launder money: "checks" +n buys n checks (10F of cash each),
        −n cashes n checks (+10F each). Refused when it cannot apply in full (see the docs)."""
        who, _extra = self._actor(t, a, allow_extra=False)
        n = a.int("checks")
        cash = t.get(who, "cash")
        if n > 0:
            if cash < CHECK * n:
                raise RuleError(N_("{who} has {cash}F in cash: {n} check costs {cost}F",
                                   "{who} has {cash}F in cash: {n} checks cost {cost}F", n, who=who, cash=cash,
                                   cost=CHECK * n))
            t.add(who, "cash", -CHECK * n)
            t.add(who, "checks", n)
            t.event(N_("{who} passes and launders {amount}F into {n} check",
                       "{who} passes and launders {amount}F into {n} checks", n, who=who, amount=CHECK * n))
        elif n < 0:
            n = -n
            have = t.get(who, "checks")
            if have < n:
                raise RuleError(N_("{who} has only {n} check", "{who} has only {n} checks", have, who=who))
            if cash + CHECK * n > CASH_MAX:
                most = (CASH_MAX - cash) // CHECK
                raise RuleError(N_("cashing {n} check would take {who}'s cash to {total}F; the wealth track stops "
                                   "at {cap}F (at most {most} now)",
                                   "cashing {n} checks would take {who}'s cash to {total}F; the wealth track stops "
                                   "at {cap}F (at most {most} now)", n, who=who, total=cash + CHECK * n,
                                   cap=CASH_MAX, most=_checks(most)))
            t.add(who, "checks", -n)
            t.add(who, "cash", CHECK * n)
            t.event(N_("{who} passes and cashes {n} check (+{amount}F)",
                       "{who} passes and cashes {n} checks (+{amount}F)", n, who=who, amount=CHECK * n))
        else:
            t.event(_("{who} passes", who=who))
        self._advance(t)

    # -- the morning --------------------------------------------------------------------
    def _name_map(self, t: Txn, a: Args, key: str) -> dict[str, int]:
        value = a.raw(key, {})
        if not isinstance(value, dict):
            raise RuleError(_('morning: "{key}" must be an object like {example}, not {value!r}', key=key,
                              example='{"Ana": 1}', value=value))
        for name, n in value.items():
            t.player(name)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RuleError(_('morning: "{key}" for {name} must be a whole number ≥ 0, not {value!r}', key=key,
                                  name=name, value=n))
        return value

    @action("morning", fields=(Raw("police"), Raw("police_checks"), Raw("wage_peasants"), Raw("wages_waived")))
    def _morning(self, t: Txn, a: Args) -> None:
        """The end of the round in one step: police, departure, wages; the first-player card passes on.

        Optional: "police" (true/false) overrides whether a police card is in an
        open room; "police_checks" {name: n} pays n corpses with checks first (default:
        cash while it has 10F, then checks, then what cash remains);
        "wage_peasants" {name: n} how many of the accomplices discarded for unpaid
        wages are peasants (default: peasants first); "wages_waived" {name: n}
        accomplices whose wage an annex waives.
        """
        police = a.raw("police", None)
        if police is not None and not isinstance(police, bool):
            raise RuleError(_('morning: "police" must be true or false, not {police!r}', police=police))
        police_checks = self._name_map(t, a, "police_checks")
        wage_peasants = self._name_map(t, a, "wage_peasants")
        waived_given = self._name_map(t, a, "wages_waived")
        if t.state["phase"] != "morning":
            raise self._phase_refusal(t, "morning")
        inn = t.state["inn"]
        rooms = self._rooms(t)
        order = self._seat_order(t)
        # A. Police investigation.
        if police is None:
            police = any(r["guest"] and r["police"] for r in rooms)
        if police:
            t.event(_("the police investigate"))
            for name in order:
                p = t.player(name)
                k = len(p["corpses"])
                if police_checks.get(name, 0) > min(k, p["counters"]["checks"]):
                    raise RuleError(N_("{who} cannot pay {n} corpse with checks ({corpses}, {checks})",
                                       "{who} cannot pay {n} corpses with checks ({corpses}, {checks})",
                                       police_checks[name], who=name, corpses=_unburied(k),
                                       checks=_checks(p["counters"]["checks"])))
                if not k:
                    continue
                if self.solo:
                    why = N_("{who} had {n} unburied corpse at a police investigation",
                             "{who} had {n} unburied corpses at a police investigation", k, who=name)
                    t.state["solo"].update({"lost": True, "why": why})
                    t.state["phase"] = "over"
                    t.finish([], why=why)
                    return
                paid_checks = police_checks.get(name, 0)
                paid_cash = 0
                for i in range(k):
                    if i < paid_checks:
                        continue
                    if t.get(name, "cash") >= POLICE_FINE:
                        paid_cash += self._pay_cash(t, name, POLICE_FINE, "police")
                    elif t.get(name, "checks") > paid_checks:
                        paid_checks += 1
                    else:
                        paid_cash += self._pay_cash(t, name, POLICE_FINE, "police")
                if paid_checks:
                    t.add(name, "checks", -paid_checks)
                    t.state["ledger"]["police"] -= CHECK * paid_checks
                paid = paid_cash + CHECK * paid_checks
                short = POLICE_FINE * k - paid
                p["corpses"] = []
                inn["discarded"] += k
                if paid_checks and short:
                    t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse ({checks}), {short}F short; "
                               "the corpses are gone",
                               "{who} pays the gravedigger {paid}F for {n} unburied corpses ({checks}), {short}F short; "
                               "the corpses are gone", k, who=name, paid=paid, checks=_checks(paid_checks),
                               short=short))
                elif paid_checks:
                    t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse ({checks}); "
                               "the corpses are gone",
                               "{who} pays the gravedigger {paid}F for {n} unburied corpses ({checks}); "
                               "the corpses are gone", k, who=name, paid=paid, checks=_checks(paid_checks)))
                elif short:
                    t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse, {short}F short; "
                               "the corpses are gone",
                               "{who} pays the gravedigger {paid}F for {n} unburied corpses, {short}F short; "
                               "the corpses are gone", k, who=name, paid=paid, short=short))
                else:
                    t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse; the corpses are gone",
                               "{who} pays the gravedigger {paid}F for {n} unburied corpses; the corpses are gone",
                               k, who=name, paid=paid))
        else:
            t.event(_("no police in the inn"))
        # B. Travellers' departure.
        guests = 0
        for r in rooms:
            if not r["guest"]:
                continue
            guests += 1
            if r["key"] is not None:
                self._gain(t, r["key"], 1, "departure", _("room {room}", room=r["room"]))
                t.event(_("{who} earns 1F: room {room} still has its guest", who=r["key"], room=r["room"]))
            r["guest"] = r["police"] = False
        inn["exit"] += guests
        if guests:
            t.event(N_("{n} guest leaves for the exit stack ({exit} there)",
                       "{n} guests leave for the exit stack ({exit} there)", guests, exit=inn["exit"]))
        for name in order:  # annexes that pay at the departure (the gardens)
            for x in powers(t.player(name), "morning_bonus"):
                if x["amount"]:
                    t.event(_("{who}'s {annex}: +{amount}F at the departure", who=name, annex=_annex(x["name"]),
                              amount=x["amount"]))
                    self._gain(t, name, x["amount"], "departure", _annex(x["name"]))
        # C. Wages.
        for name in order:
            p = t.player(name)
            if name in waived_given:
                w = waived_given[name]
            else:  # the annexes' own (the distillery): never more than the hand
                w = min(waived(p), p["hand"])
                if w:
                    t.event(N_("{who}'s annexes waive {n} wage", "{who}'s annexes waive {n} wages", w, who=name))
            if w > p["hand"]:
                raise RuleError(N_("{who} has only {n} card in hand: {waived} wages cannot be waived",
                                   "{who} has only {n} cards in hand: {waived} wages cannot be waived", p["hand"],
                                   who=name, waived=w))
            due = p["hand"] - w
            paid = self._pay_cash(t, name, due, "wages")
            short = due - paid
            travellers = p["hand"] - p["peasants"]
            np = wage_peasants.get(name, min(short, p["peasants"]))
            if name in wage_peasants and (np > short or np > p["peasants"] or short - np > travellers):
                accomplices = N_("{n} accomplice", "{n} accomplices", short)
                if np == 0:  # none as peasants: only travellers, and there are not enough of them
                    raise RuleError(_("{who} discards {accomplices} for unpaid wages: they cannot all be travellers "
                                      "(has {peasants}, {travellers})", who=name, accomplices=accomplices,
                                      peasants=_peasants(p["peasants"]), travellers=_travellers(travellers)))
                raise RuleError(N_("{who} discards {accomplices} for unpaid wages: {n} of them cannot be a peasant "
                                   "(has {peasants}, {travellers})",
                                   "{who} discards {accomplices} for unpaid wages: {n} of them cannot be peasants "
                                   "(has {peasants}, {travellers})", np, who=name, accomplices=accomplices,
                                   peasants=_peasants(p["peasants"]), travellers=_travellers(travellers)))
            nt = short - np
            p["police"] = max(0, min(p.get("police", 0), travellers) - nt)
            p["hand"] -= short
            p["peasants"] -= np
            inn["bistro"] += np
            inn["exit"] += nt
            if short:
                t.event(N_("{who} pays {paid}F in wages, {short}F short: discards {n} accomplice "
                           "({peasants} to the bistro, {travellers} to the exit stack)",
                           "{who} pays {paid}F in wages, {short}F short: discards {n} accomplices "
                           "({peasants} to the bistro, {travellers} to the exit stack)", short, who=name, paid=paid,
                           short=short, peasants=np, travellers=nt))
            elif due:
                t.event(_("{who} pays {paid}F in wages", who=name, paid=paid))
        for name in order:  # powers the device does not apply: a reminder every morning
            for x in powers(t.player(name), "other"):
                t.event(_("remember {who}'s {annex}: its power is on the card", who=name, annex=_annex(x["name"])))
        # Then the first-player card passes on, or the game ends.
        if t.state["last_round"]:
            self._enter_count(t)
            return
        names = [p["name"] for p in t.players]
        nxt = names[(names.index(t.state["first_player"]) + 1) % len(names)]
        t.state["first_player"] = nxt
        t.add(None, "round", 1)
        t.state["phase"] = "welcome"
        t.event(_("round {round}: {who} takes the first-player card", round=t.state["table"]["round"], who=nxt))

    # -- the end ----------------------------------------------------------------------------
    def _enter_count(self, t: Txn) -> None:
        t.state["phase"] = "count"
        t.state["turn"] = {"player": None, "action": 0}
        t.state["pending"] = [{"name": p["name"], "reason": COUNT_REASON} for p in t.players]
        t.event(_("the game ends: record end-of-game annex gains (adjust), then resolve for the final count"))
        for p in t.players:
            for x in powers(p, "end_game"):
                t.event(_("count {who}'s {annex}: its end-of-game gain is on the card (adjust)", who=p["name"],
                          annex=_annex(x["name"])))

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


def wages_due(p: dict[str, Any]) -> int:
    """The wages a player will pay this morning: a franc per card in hand, less what their annexes waive."""
    hand: int = p["hand"]
    return hand - min(waived(p), hand)


def solo_band(score: int) -> str | None:
    """The solo innkeeper's rank for a final score (None below 110F)."""
    for floor, band in SOLO_BANDS:
        if score >= floor:
            return band
    return None
