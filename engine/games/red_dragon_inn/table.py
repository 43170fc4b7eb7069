"""The Red Dragon Inn's table: its numbers, its setup and characters, whose turn and its phases, the drink
deck, and the generic corrections with this game's rules (the Inn is the bank)."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...fields import Bool, Int, Player, Str
from ...game import Game, action
from ...messages import N_, _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn, players_from_left
from .words import PHASE_WORDS

#: The drink events the device plays through: everyone drinks one from the deck; the same as a contest.
DRINK_EVENTS = ("round", "contest")
#: Who a drinking contest pays (option ``contest``): the strongest drink takes 1 gold from every other player (the
#: publisher's card), or — a rulebook reader's copy, «¡Concurso de bebida!» — the weakest pays each other player 1.
CONTESTS = ("strongest_wins", "weakest_pays")
#: What a drinking contest tied at the top (the bottom, for "weakest_pays") does (option ``contest_tie``): the table
#: reads the card (nobody pays; the tied players' pods offer the readings), the tied players drink again until one is
#: alone, or every tied player settles with each player not tied as if alone.
CONTEST_TIES = ("read", "again", "all")

#: Cards in the base game's drink deck. The Spanish rulebook copy does not give
#: the number; the published component list of the base box does ("30 card
#: Drink deck"). Tables with a different deck set the ``drink_deck`` option.
BASE_DRINK_DECK = 30

PHASES = ("discard", "action", "buy", "drink")

#: Characters with extra material: the counter the device keeps for them and its start.
#: Serena's piety marker starts on 8; the deck-based characters get a free counter.
KNOWN_CHARACTERS = {
    "serena": ("Serena", "piety", 8),
    "wizgille": ("Wizgille", "gear", 0),
    "phrenk": ("Phrenk", "potions", 0),
    "kaylin": ("Kaylin", "wulfric", 0),
}

FIXED_COUNTERS = ("gold", "fortitude", "alcohol", "drink_me")

CARDS = ("gambling", "cheat", "winning_hand")

#: The counters a table-wide effect ("everyone") may change.
EVERYONE_COUNTERS = ("gold", "fortitude", "alcohol")

#: The reasons of a pending loss (``state["pending"]``: data, so plain strings) and their words.
PASSING_OUT = "passing out"
OUT_OF_GOLD = "out of gold"


def others_in_order(state: dict[str, Any], name: str) -> list[str]:
    """The other players still in, from ``name``'s left."""
    return [q["name"] for q in players_from_left(state, name)]


def start_gold(n: int, options: dict[str, Any]) -> int:
    """10 gold; 8 with 2 players; 12 with 7 or more (rulebook, "Preparar")."""
    if n == 2:
        return 8
    if n >= 7:
        return 12
    return 10


class RedDragonInnTable(Game):
    """The game's numbers and setup, its turns, the drink deck, the corrections: what every action builds on."""

    id = "red-dragon-inn"
    title = "The Red Dragon Inn"
    #: The game's BoardGameGeek id (play logs; ``[app.bgg]`` in the config file overrides it).
    bgg_id = 24310
    min_players = 2
    max_players = 8
    icons = {"gold": "coins", "fortitude": "heart", "alcohol": "beer-mug-empty", "drink_me": "wine-bottle",
             "inn": "hotel", "pot": "sack-dollar",
             # the characters' own counters (KNOWN_CHARACTERS)
             "piety": "hands-praying", "gear": "gear", "potions": "flask", "wulfric": "paw"}
    options_spec = (
        Option("drink_deck", BASE_DRINK_DECK,
               _("cards in the drink deck before dealing (default {n}: the base box's drink deck)", n=BASE_DRINK_DECK),
               lo=3, hi=1000),
        Option("characters", {}, _("player name → character: a name (Serena keeps piety from 8; Wizgille, "
                                  "Phrenk and Kaylin get a free counter gear / potions / wulfric), or an object "
                                  '{"name": ..., "counter": ..., "start": ...} for any character with an extra deck'),
               kind=dict,
               per_player=tuple(c[0] for c in KNOWN_CHARACTERS.values())),
        Option("first_player", "", _("who goes first (default: the first player listed)"), kind=str, role="starter"),
        Option("contest", "strongest_wins", _("your copy's drinking contest: the strongest drink takes 1 gold from "
               "every other player (the publisher's card), or the weakest drink pays 1 gold to every other player"),
               choices=CONTESTS),
        Option("contest_tie", "read", _("your copy's drinking contest tied: read (nobody pays, the tied players' pods "
               "offer the win or another drink each), again (the tied players drink one more from the deck, until one "
               "is alone), all (each tied player wins, or pays, 1 gold from or to each player not tied)"),
               choices=CONTEST_TIES),
    )

    # -- setup -----------------------------------------------------------------
    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        n = len(self.players)
        if self.options["drink_deck"] <= n:
            raise SetupError(_("the drink deck needs more than {players} cards: one is dealt to each "
                               "player's Drink Me! pile at setup", players=n))
        first = self.options["first_player"]
        if first and first not in self.players:
            raise SetupError(_("first_player {name!r} is not one of the players ({players})", name=first,
                               players=listing(self.players)))
        #: player name → (character name, extra counter or None, its start)
        self.characters: dict[str, tuple[str, str | None, int]] = {}
        for name, value in self.options["characters"].items():
            if name not in self.players:
                raise SetupError(_("characters: {name!r} is not one of the players ({players})", name=name,
                                   players=listing(self.players)))
            self.characters[name] = self._character(name, value)
        # The extra counters exist only for the players whose character has one.
        self._extra_specs: dict[str, Counter] = {}
        for _name, counter, _start in self.characters.values():
            if counter and counter not in self._extra_specs:
                self._extra_specs[counter] = Counter(counter, 0, lo=0, doc=_("a character's extra counter"))
        self.player_counters.update(self._extra_specs)

    @staticmethod
    def _character(player: str, value: Any) -> tuple[str, str | None, int]:
        if isinstance(value, str) and value.strip():
            known = KNOWN_CHARACTERS.get(value.strip().lower())
            return known if known else (value.strip(), None, 0)
        if isinstance(value, dict):
            extra = sorted(set(value) - {"name", "counter", "start"})
            if extra:
                raise SetupError(_("characters: {player}'s character has an unknown field {field!r} "
                                   "(fields: name, counter, start)", player=player, field=extra[0]))
            name, counter, start = value.get("name"), value.get("counter"), value.get("start", 0)
            if not isinstance(name, str) or not name.strip():
                raise SetupError(_("characters: {player}'s character needs a \"name\"", player=player))
            if counter is not None and (not isinstance(counter, str) or not counter.isidentifier()):
                raise SetupError(_("characters: {player}'s \"counter\" must be a simple name like \"gear\"",
                                   player=player))
            if counter in FIXED_COUNTERS:
                raise SetupError(_("characters: {counter!r} is already one of every player's counters",
                                   counter=counter))
            if isinstance(start, bool) or not isinstance(start, int) or start < 0:
                raise SetupError(_("characters: {player}'s \"start\" must be a whole number ≥ 0", player=player))
            if counter is None:
                known = KNOWN_CHARACTERS.get(name.strip().lower())
                if known:
                    counter = known[1]
                    start = value.get("start", known[2])
            return (name.strip(), counter, start)
        raise SetupError(_("characters: {player}'s character must be a name or an object, not {value!r}",
                           player=player, value=value))

    def player_counter_specs(self) -> list[Counter]:
        return [
            Counter("gold", start_gold, lo=0, bank="inn", doc=_("the player's stash; the Inn is the other side")),
            Counter("fortitude", 20, lo=0, hi=20, doc=_("passing out when alcohol ≥ fortitude")),
            Counter("alcohol", 0, lo=0, hi=20, doc=_("alcohol content")),
            # a pile the moves keep (buys, drinks, a card's extra drinks): not a ± counter on a pod
            Counter("drink_me", 1, lo=0, free=False, doc=_("face-down cards on the Drink Me! pile")),
        ]

    def table_counter_specs(self) -> list[Counter]:
        return [
            Counter("inn", 0, lo=None, doc=_("the Inn's net take since setup (+ paid to it, − paid out)")),
            Counter("pot", 0, lo=0, doc=_("gold anted in the gambling round")),
        ]

    def setup_extra(self, state: dict[str, Any]) -> None:
        n = len(self.players)
        for p in state["players"]:
            char = self.characters.get(p["name"])
            for counter in self._extra_specs:
                del p["counters"][counter]
            if char:
                p["character"] = char[0]
                if char[1]:
                    p["counters"][char[1]] = char[2]
        first = self.options["first_player"] or self.players[0]
        state["turn"] = {"player": first, "phase": "discard", "number": 1}
        state["drinks"] = {"deck": self.options["drink_deck"] - n, "discard": 0}
        state["gambling"] = None

    # -- turn and phases -----------------------------------------------------------
    def _active(self, t: Txn, a: Args, doing: str) -> str:
        """The acting player: "player" if given (must be the active one), else the active one.

        ``doing``: the action refused to anybody else ("next", "buy", "drink", "gamble").
        """
        turn = t.state["turn"]
        who = a.player("player", None) or turn["player"]
        ev = t.state.get("drink_event")
        if ev is not None:
            raise RuleError(_("a drink event is on: {waiting} still drink one from the drink deck first",
                              waiting=listing(ev["waiting"])))
        if who != turn["player"]:
            active = turn["player"]
            if doing == "next":
                why = _("it is {active}'s turn, not {who}'s: only {active} can end a phase", active=active, who=who)
            elif doing == "buy":
                why = _("it is {active}'s turn, not {who}'s: only {active} can buy drinks now", active=active, who=who)
            elif doing == "drink":
                why = _("it is {active}'s turn, not {who}'s: only {active} can drink now", active=active, who=who)
            else:
                why = _("it is {active}'s turn, not {who}'s: only {active} can start a gambling round",
                        active=active, who=who)
            raise RuleError(why)
        return who

    def _no_round(self, t: Txn, doing: str) -> None:
        """Refuse ``doing`` ("next", "gamble", "buy", "drink") while a gambling round is running."""
        if t.state["gambling"] is not None:
            if doing == "next":
                raise RuleError(_("a gambling round is running: finish it before you go on to the next phase"))
            if doing == "gamble":
                raise RuleError(_("a gambling round is running: finish it before you start another one"))
            if doing == "buy":
                raise RuleError(_("a gambling round is running: finish it before you buy drinks"))
            raise RuleError(_("a gambling round is running: finish it before you drink"))

    def _start_next_turn(self, t: Txn) -> None:
        turn = t.state["turn"]
        turn["player"] = t.next_in_game(turn["player"])
        turn["phase"] = "discard"
        turn["number"] += 1
        t.event(_("{who}'s turn: discard & draw", who=turn["player"]))

    @action("next", fields=(Player("player", required=False), Bool("skip")))
    def _next(self, t: Txn, a: Args) -> None:
        """Go on to the active player's next phase (discard & draw → action → buy drinks → drink)."""
        who = self._active(t, a, "next")
        skip = a.bool("skip")
        self._no_round(t, "next")
        turn = t.state["turn"]
        phase = turn["phase"]
        if phase == "buy" and not skip:
            raise RuleError(_('{who} buys a drink for another player first (phase 3: buy drinks); '
                              'if a card skips it, send "skip": true', who=who))
        if phase == "drink":
            if not skip:
                raise RuleError(_('{who} drinks to end the turn (phase 4: drink); '
                                  'if a card skips it, send "skip": true', who=who))
            self._start_next_turn(t)
            return
        if skip:
            raise RuleError(_('"{field}" is only for the buy drinks and drink phases; now is {phase}',
                              field=word("field", "skip"), phase=PHASE_WORDS[phase]))
        turn["phase"] = PHASES[PHASES.index(phase) + 1]

    # -- the drink deck ------------------------------------------------------------------
    def _take_from_deck(self, t: Txn, k: int, *, strict: bool) -> int:
        """Take ``k`` cards off the drink deck, running out as the rules say; returns how many."""
        d = t.state["drinks"]
        taken = 0
        for _card in range(k):
            if d["deck"] == 0:
                if d["discard"] == 0:
                    if strict:
                        raise RuleError(_("the drink deck is empty and no drink has been discarded yet "
                                          "to shuffle into a new one"))
                    t.event(_("the drink deck and its discard are empty: no more cards to take"))
                    break
                # It emptied with no discards to shuffle (everybody paid then): shuffle now.
                d["deck"], d["discard"] = d["discard"], 0
                t.event(N_("the {n} discarded drink is shuffled into a new drink deck",
                           "the {n} discarded drinks are shuffled into a new drink deck", d["deck"]))
            d["deck"] -= 1
            taken += 1
            if d["deck"] == 0:
                self._run_out(t)
        return taken

    def _run_out(self, t: Txn) -> None:
        """The drink deck ran out: every player still in pays 1 gold to the Inn; the discard becomes the deck."""
        paid = []
        for p in t.in_game():
            if t.add(p["name"], "gold", -1):
                t.add(None, "inn", 1)
                paid.append(p["name"])
        d = t.state["drinks"]
        d["deck"], d["discard"] = d["discard"], 0
        if paid:
            t.event(N_("the drink deck ran out: {paid} paid 1 gold to the Inn; the {n} discarded drink is the new deck",
                       "the drink deck ran out: {paid} paid 1 gold to the Inn; "
                       "the {n} discarded drinks are the new deck", d["deck"], paid=listing(paid)))
        else:
            t.event(N_("the drink deck ran out: nobody paid 1 gold to the Inn; the {n} discarded drink is the new deck",
                       "the drink deck ran out: nobody paid 1 gold to the Inn; "
                       "the {n} discarded drinks are the new deck", d["deck"]))

    # -- generic actions, with this game's rules ---------------------------------------------
    def _has_counter(self, t: Txn, who: str, counter: str) -> None:
        t.spec(counter, who)
        if counter not in t.player(who)["counters"]:
            owners = [n for n, c in self.characters.items() if c[1] == counter]
            raise RuleError(N_("{who} has no {counter} counter (only {owners} keeps {counter})",
                               "{who} has no {counter} counter (only {owners} keep {counter})", len(owners),
                               who=who, counter=word("counter", counter), owners=listing(owners)))

    @action("adjust", adjustment=True, fields=(
        Player("player", required=False, doc=_("whose counter (none: a table counter)")),
        Str("counter", doc=_("which counter")), Int("delta", doc=_("how much to add (negative: take away)")),
        Player("also", required=False,
               doc=_("another player whose counter changes as much: a card on two players (Wizgille's gear card "
                     "«¡Demasiado vapor!»: «elige a Kaylin y Phrenk para que cada uno pierda 1 entereza»)")),
    ))
    def _adjust(self, t: Txn, a: Args) -> None:
        """Change a player's counter (or, without "player", a table counter) by "delta"; with "also", a
        second player's as well, each as far as it can (bounds clamp, the Inn is the other side of gold)."""
        who = a.player("player", None)
        also = a.player("also", None)
        counter = a.str("counter")
        delta = a.int("delta")
        if also is not None and (who is None or also == who):
            raise RuleError(_("also: a second player, not {who}", who=who) if who else
                            _("also: the second of two players; say the first as \"player\""))
        self.adjust(t, who, counter, delta)
        if also is not None:
            self.adjust(t, also, counter, delta)

    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        if who is None:
            t.spec(counter, None)
            if counter == "inn":
                raise RuleError(_("the Inn's take changes only when players pay it or it pays them: "
                                  "adjust a player's gold (the Inn is the other side)"))
            raise RuleError(_("the pot changes by antes (gamble, play), pay_pot and the round's end"))
        self._has_counter(t, who, counter)
        if counter == "drink_me":
            # The cards come from the drink deck and go to its discard.
            if delta > 0:
                got = self._take_from_deck(t, delta, strict=False)
                return t.add(who, "drink_me", got)
            applied = t.add(who, "drink_me", delta)
            t.state["drinks"]["discard"] -= applied
            return applied
        return super().adjust(t, who, counter, delta)

    def transfer(self, t: Txn, giver: str, taker: str, counter: str, amount: int) -> int:
        self._has_counter(t, giver, counter)
        self._has_counter(t, taker, counter)
        return super().transfer(t, giver, taker, counter, amount)
