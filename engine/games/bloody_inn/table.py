"""The Bloody Inn's table: its numbers, its setup, the money (the wealth track, the ledger), the seats
and the rooms, and the way into the final count."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...fields import Int, Player, Str
from ...game import action
from ...messages import _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn
from .annexes import MAX_RANK as MAX_RANK  # the annexes' ranks are the travellers' (re-exported)
from .annexes import check_own_cards, powers, waived
from .base import BloodyInnBase
from .words import COUNT_REASON, annex_word

TRAVELLERS = 70  # 78 guest cards = 70 travellers + 8 peasants
#: Cards removed unseen from the traveller deck (rulebook "Preparar"; solo: publisher's rules).
REMOVED = {1: {"short": 34, "long": 26}, 2: {"short": 35, "long": 25},
           3: {"short": 28, "long": 16}, 4: {"short": 22, "long": 6}}
#: Neutral keys: 3 doors with 2–3 players (and solo), 4 with 4 players.
NEUTRAL_KEYS = {1: 3, 2: 3, 3: 3, 4: 4}
#: Each player's key tokens («recibe las 8 fichas de Llave / Servicio de habitaciones»): the most rooms
#: one player's key can open (the rulebook does not say how many rooms the board has).
KEYS = 8
START_CASH = 5
START_CHECKS = 1
CASH_MAX = 40  # the wealth track ends at 40F
CHECK = 10  # francs per check
START_PEASANTS = 2  # each player's starting hand
SOLO_BISTRO = 2  # solo: 2 more peasants start in the bistro
POLICE_FINE = 10  # per unburied corpse at a police investigation
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


class BloodyInnTable(BloodyInnBase):
    """The game's numbers and setup, its money, its seats and rooms: what every phase builds on."""

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
        Option("peasant_wages", True, _("true: a peasant in hand costs a franc of wages like any card (the "
               "publisher's rules); false: only the accomplices do (a table's own player-aid card)")),
        Option("ask_pocket", False, _("true: the pods ask each kill's pocket money, starting at the rank's "
               "(a copy whose cards print other pockets than the rank's)")),
        Option("room_income", 1, _("francs a player earns at the morning's departure for each room with their key "
               "that still has its guest (the publisher's rules: 1; 0 for a table whose copy pays nothing there)"),
               lo=0, hi=5),
        Option("annexes", [], _("the annex cards of your own copy (another edition, an expansion, your own "
               "cards): names or objects {name, effect, amount, rank}; a pod's build then offers these by name, "
               "each with its power"), kind=list, check=check_own_cards),
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
            Counter("checks", START_CHECKS, lo=0, hi=None, free=False, doc=_("10F checks")),
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
        state["pockets"] = {}  # the last pocket money a kill entered, by the guest's rank ("bistro": a peasant)
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

    # -- seats and rooms ---------------------------------------------------------------
    def _seat_order(self, t: Txn) -> list[str]:
        return seat_order(t.state)

    def _room(self, t: Txn, number: int) -> dict[str, Any]:
        rooms = self._rooms(t)
        if not 1 <= number <= len(rooms):
            raise RuleError(_("there is no room {number} (the open rooms are 1–{last})", number=number, last=len(rooms)))
        return rooms[number - 1]

    def _open_room(self, t: Txn, who: str) -> None:
        """``who`` puts a key of their colour on a closed room: a new room, theirs, empty until the next welcome
        («Ahora determinará qué salas están abiertas»: the setup opens some of the board's rooms)."""
        rooms = self._rooms(t)
        if sum(r["key"] == who for r in rooms) >= KEYS:
            raise RuleError(_("{who}'s {n} keys are all on rooms already", who=who, n=KEYS))
        number = len(rooms) + 1
        rooms.append({"room": number, "key": who, "guest": False, "police": False, "opened": True})
        t.event(_("{who}'s key opens room {room}: a traveller is lodged there from the next welcome",
                  who=who, room=number))

    # -- the end ----------------------------------------------------------------------------
    def _enter_count(self, t: Txn) -> None:
        t.state["phase"] = "count"
        t.state["turn"] = {"player": None, "action": 0}
        t.state["pending"] = [{"name": p["name"], "reason": COUNT_REASON} for p in t.players]
        t.event(_("the game ends: record end-of-game annex gains (adjust), then resolve for the final count"))
        for p in t.players:
            for x in powers(p, "end_game"):
                t.event(_("{who}'s {annex}: its end-of-game gain is on the card: add it by hand", who=p["name"],
                          annex=annex_word(x["name"])))


def seat_order(state: dict[str, Any]) -> list[str]:
    """The players in seat order from the first player (the night's order of actions)."""
    names = [p["name"] for p in state["players"]]
    i = names.index(state["first_player"])
    return names[i:] + names[:i]


def wages_due(p: dict[str, Any], peasant_wages: bool = True) -> int:
    """The wages a player will pay this morning: a franc per card in hand (the peasants' too, unless
    ``peasant_wages`` is false), less what their annexes waive."""
    hand: int = p["hand"]
    return hand - min(free_wages(p, peasant_wages), hand)


def free_wages(p: dict[str, Any], peasant_wages: bool = True) -> int:
    """The wages nobody pays: what the player's annexes waive, and the peasants at a table whose peasants
    cost nothing (option ``peasant_wages`` false)."""
    return waived(p) + (0 if peasant_wages else int(p["peasants"]))


def solo_band(score: int) -> str | None:
    """The solo innkeeper's rank for a final score (None below 110F)."""
    for floor, band in SOLO_BANDS:
        if score >= floor:
            return band
    return None
