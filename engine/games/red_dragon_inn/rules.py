"""The Red Dragon Inn's rules: the Inn as the bank, drinks, the last chance window, turns and gambling."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...fields import Bool, Int, Player, Raw, Str
from ...game import ActionInfo, Game, action
from ...messages import N_, _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn
from .drinks import COMMON_DRINKS, DRINK_WORDS, drink_effects
from .words import CARD_WORDS, EVENT_WORDS, LOSS_WORDS, PHASE_WORDS, _effect

#: The drink events the device plays through: everyone drinks one from the deck; the same as a contest.
DRINK_EVENTS = ("round", "contest")

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
    names = [q["name"] for q in state["players"]]
    i = names.index(name)
    order = [state["players"][(i + k) % len(names)] for k in range(1, len(names))]
    return [q["name"] for q in order if not q["out"]]


def start_gold(n: int, options: dict[str, Any]) -> int:
    """10 gold; 8 with 2 players; 12 with 7 or more (rulebook, "Preparar")."""
    if n == 2:
        return 8
    if n >= 7:
        return 12
    return 10


class RedDragonInnRules(Game):
    """The game's setup, actions and consequences."""

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
            Counter("drink_me", 1, lo=0, doc=_("face-down cards on the Drink Me! pile")),
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

    # -- the last chance window ----------------------------------------------------
    def before_action(self, t: Txn, info: ActionInfo, a: Args) -> None:
        if not t.state["pending"] or info.adjustment:
            return
        # A card played in the last chance window may make someone drink or give
        # drinks: those ("extra": true) leave the window open, like adjustments.
        if info.name in ("drink", "buy") and a.raw("extra", False) is True:
            return
        pending = list(t.state["pending"])
        actor = self._default_actor(t.state, info.name) if not a.has("player") else None
        self.resolve_pending(t)
        who = listing(_("{name} ({reason})", name=e["name"], reason=LOSS_WORDS.get(e["reason"], e["reason"]))
                      for e in pending)
        if t.state["over"] and info.name != "resolve":
            raise RuleError(_("the pending losses of {who} end the game ({result}): "
                              "send resolve to end it, or change the numbers first",
                              who=who, result=self.result_words(t.state)))
        if actor is not None and self._default_actor(t.state, info.name) != actor:
            # Applying the losses put the player this action was meant for out
            # (or ended the round): it would silently act for someone else.
            raise RuleError(_("{who} must be settled first, and that changes whose turn it is: "
                              "press resolve, then go on", who=who))

    def actor(self, state: dict[str, Any], action: dict[str, Any]) -> str | None:
        player = action.get("player")
        if isinstance(player, str):
            return player
        return self._default_actor(state, action.get("action"))

    @staticmethod
    def _default_actor(state: dict[str, Any], name: str | None) -> str | None:
        """Who an action without "player" acts for: the active player, or the player to act in the round."""
        who: str | None = None
        if name in ("next", "buy", "drink", "gamble", "everyone", "drink_event"):
            who = state["turn"]["player"]
        elif name in ("play", "pass") and state["gambling"] is not None:
            who = state["gambling"]["to_act"]
        return who

    @action("resolve", when_over=True)
    def _resolve(self, t: Txn, a: Args) -> None:
        """Close the last chance window and apply the pending losses (a no-op when nothing is pending).

        Also a harmless no-op after the game ended (a second press of the button).
        """
        if t.state["pending"] and not t.state["over"]:
            self.resolve_pending(t)

    def consequences(self, t: Txn) -> None:
        """Recompute the pending losses: alcohol ≥ fortitude, or 0 gold outside a gambling round."""
        t.state["pending"] = self._losses(t)

    def _losses(self, t: Txn) -> list[dict[str, Any]]:
        out = []
        gambling = t.state["gambling"] is not None
        for p in t.in_game():
            c = p["counters"]
            if c["alcohol"] >= c["fortitude"]:
                out.append({"name": p["name"], "reason": PASSING_OUT})
            elif c["gold"] == 0 and not gambling:
                # During a gambling round a player at 0 gold stays in until it ends.
                out.append({"name": p["name"], "reason": OUT_OF_GOLD})
        return out

    def resolve_pending(self, t: Txn) -> None:
        """Apply the losses: all pass-out splits first, then the zero-gold checks."""
        st = t.state
        before = [p["name"] for p in t.in_game()]
        passing = [p["name"] for p in t.in_game() if p["counters"]["alcohol"] >= p["counters"]["fortitude"]]
        staying = [n for n in before if n not in passing]
        for name in passing:
            self._split(t, name, staying)
        broke = [] if st["gambling"] is not None else [n for n in staying if t.get(n, "gold") == 0]
        for name in passing:
            self._lose(t, name, _("passed out"))
        for name in broke:
            self._lose(t, name, _("out of gold"))
        st["pending"] = []
        still = [p["name"] for p in t.in_game()]
        if len(still) <= 1 and st["gambling"] is not None:
            self._close_round(t, still)
        if not still:
            t.finish(before, draw=True, why=_("every player still in lost at once"))
            return
        if len(still) == 1:
            t.finish(still, why=_("last one standing"))
            return
        if st["gambling"] is not None:
            self._check_round_end(t)
        elif st.get("drink_event") is not None:
            self._end_event_if_done(t)  # a drink event ends when nobody still in waits (and passes the turn)
        elif t.player(st["turn"]["player"])["out"]:
            self._start_next_turn(t)

    def _split(self, t: Txn, name: str, staying: list[str]) -> None:
        """Passing out: half the gold and the odd coin to the Inn; the rest split evenly; remainder to the Inn."""
        gold = t.get(name, "gold")
        to_inn = gold - gold // 2
        rest = gold // 2
        share = rest // len(staying) if staying else 0
        to_inn += rest - share * len(staying)
        t.add(name, "gold", -gold)
        t.add(None, "inn", to_inn)
        for other in staying:
            if share:
                t.add(other, "gold", share)
        if gold and share:
            t.event(_("{name} passes out: {to_inn} of {gold} gold to the Inn, {share} to each of {others}",
                      name=name, to_inn=to_inn, gold=gold, share=share, others=listing(staying)))
        elif gold:
            t.event(_("{name} passes out: {to_inn} of {gold} gold to the Inn", name=name, to_inn=to_inn, gold=gold))

    def _lose(self, t: Txn, name: str, why: str) -> None:
        cards = t.get(name, "drink_me")
        if cards:
            t.add(name, "drink_me", -cards)
            t.state["drinks"]["discard"] += cards
        t.eliminate(name, why)
        g = t.state["gambling"]
        if g is not None and name in g["players"]:
            self._remove_from_round(t, name)

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
            raise RuleError(_('"skip" is only for the buy drinks and drink phases; now is {phase}',
                              phase=PHASE_WORDS[phase]))
        turn["phase"] = PHASES[PHASES.index(phase) + 1]

    # -- drinks ------------------------------------------------------------------------
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

    @action("buy", fields=(
        Bool("extra"),
        Player("to"),
        Int("count", default=1, lo=1),
        Player("player", required=False),
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
        got = self._take_from_deck(t, count, strict=True)
        t.add(to, "drink_me", got)
        if buyer:
            t.event(N_("{buyer} buys {to} {n} drink", "{buyer} buys {to} {n} drinks", got, buyer=buyer, to=to))
        else:
            t.event(N_("{to} gets {n} drink", "{to} gets {n} drinks", got, to=to))
        if not extra:
            t.state["turn"]["phase"] = "drink"

    @action("drink", fields=(
        Bool("extra"),
        Str("drink", required=False, choices=tuple(COMMON_DRINKS),
            doc=_("the common drink revealed, by name: its effects are added")),
        Str("chaser", required=False, choices=tuple(COMMON_DRINKS),
            doc=_("the common drink revealed as its chaser: its effects are added (one chaser at least)")),
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
        are added); "alcohol", "fortitude", "gold": the effects of any other
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
        alcohol = a.int("alcohol")
        fortitude = a.int("fortitude")
        gold = a.int("gold")
        chasers = a.int("chasers")
        source = a.str("from")
        if chaser is not None:
            chasers = max(chasers, 1)
        plus_alcohol, plus_fortitude = drink_effects(named, chaser)
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
                self._apply_drink(t, who, alcohol, fortitude, gold, chasers, named, chaser)
        else:
            self._take_from_deck(t, cards, strict=True)
            t.state["drinks"]["discard"] += cards
            self._apply_drink(t, who, alcohol, fortitude, gold, chasers, named, chaser)
            if extra:
                self._drunk_in_event(t, who, alcohol)
        if not extra:
            self._start_next_turn(t)

    def _apply_drink(self, t: Txn, who: str, alcohol: int, fortitude: int, gold: int, chasers: int,
                     named: str | None = None, chaser: str | None = None) -> None:
        parts = []
        if alcohol:
            parts.append(_effect("alcohol", t.add(who, "alcohol", alcohol)))
        if fortitude:
            parts.append(_effect("fortitude", t.add(who, "fortitude", fortitude)))
        if gold:
            parts.append(_effect("gold", self.adjust(t, who, "gold", gold)))
        effects = listing(parts) if parts else _("no effect")
        if named or chaser:
            drinks = listing(DRINK_WORDS[d] for d in (named, chaser) if d)
            effects = _("{drinks}: {effects}", drinks=drinks, effects=effects)
        if chasers:
            t.event(N_("{who} drinks with {n} chaser: {effects}", "{who} drinks with {n} chasers: {effects}", chasers,
                       who=who, effects=effects))
        else:
            t.event(_("{who} drinks: {effects}", who=who, effects=effects))

    @action("drink_event", fields=(
        Str("kind", default="round", choices=DRINK_EVENTS,
            doc=_("round: everyone drinks one from the drink deck; contest: the same, and the strongest "
                  "drink takes 1 gold from every other player")),
        Player("player", required=False),
    ))
    def _drink_event(self, t: Txn, a: Args) -> None:
        """A drink event card revealed from one's own Drink Me! pile (phase 4): not a drink ("Eventos de
        bebidas": follow the card). Every player still in, from the revealer on, then drinks one card
        from the drink deck (an extra drink each, ``"from": "deck"``); when the last has drunk, a
        contest pays its winner — the one whose drink's alcohol is highest, alone — 1 gold from each
        other player (a tie: nobody, as the card is read at the table), and the turn passes.
        """
        kind = a.str("kind")
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
        if ev["kind"] == "contest":
            strength = {n: v for n, v in ev["strength"].items() if not t.player(n)["out"]}
            top = max(strength.values(), default=None)
            winners = [n for n, v in strength.items() if v == top]
            if len(winners) == 1:
                winner = winners[0]
                paid = [n for n in strength if n != winner and self.transfer(t, n, winner, "gold", 1)]
                t.event(_("{winner} wins the drinking contest: {paid} pay 1 gold each", winner=winner,
                          paid=listing(paid) if paid else _("nobody")))
            else:
                t.event(_("the drinking contest is a tie ({who}): nobody pays", who=listing(winners)))
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

    # -- gambling ----------------------------------------------------------------------
    def _round(self, t: Txn) -> dict[str, Any]:
        g: dict[str, Any] | None = t.state["gambling"]
        if g is None:
            raise RuleError(_("no gambling round is running"))
        return g

    def _next_in_round(self, t: Txn, after: str) -> str | None:
        """The next player on the left of ``after`` still in the round and not in control."""
        g = t.state["gambling"]
        names = [p["name"] for p in t.players]
        i = names.index(after)
        for k in range(1, len(names) + 1):
            n: str = names[(i + k) % len(names)]
            if n in g["players"] and n != g["control"]:
                return n
        return None

    def _ante(self, t: Txn, caller: str | None, players: list[str]) -> list[str]:
        """Everyone listed antes 1 gold into the pot — nobody if the caller cannot."""
        if caller is not None and t.get(caller, "gold") == 0:
            t.event(_("{who} cannot ante, so nobody antes", who=caller))
            return []
        paid = []
        for name in players:
            if t.add(name, "gold", -1):
                t.add(None, "pot", 1)
                paid.append(name)
        return paid

    @action("gamble", fields=(Player("player", required=False),))
    def _gamble(self, t: Txn, a: Args) -> None:
        """"Gambling? I'm in!" as the action: everyone still in antes 1 gold; the starter is in control."""
        who = self._active(t, a, "gamble")
        self._no_round(t, "gamble")
        phase = t.state["turn"]["phase"]
        if phase not in ("discard", "action"):
            raise RuleError(_('"Gambling? I\'m in!" is an action card: {who} plays it before buying drinks, '
                              "not in the {phase} phase", who=who, phase=PHASE_WORDS[phase]))
        t.state["turn"]["phase"] = "action"  # an action card: phase 1 is over
        players = [p["name"] for p in t.in_game()]
        t.state["gambling"] = {"starter": who, "control": who, "last": "gambling", "players": players,
                               "left": [], "passed": [], "to_act": None}
        paid = self._ante(t, who, players)
        g = t.state["gambling"]
        g["to_act"] = self._next_in_round(t, who)
        pot = t.get(None, "pot")
        if paid and len(paid) < len(players):
            t.event(_("{who} starts a gambling round; pot {pot} (no ante from {unpaid})", who=who, pot=pot,
                      unpaid=listing(n for n in players if n not in paid)))
        else:
            t.event(_("{who} starts a gambling round; pot {pot}", who=who, pot=pot))

    def _round_player(self, t: Txn, a: Args, doing: str) -> tuple[dict[str, Any], str]:
        """The player to act in the round; ``doing``: "play" or "pass"."""
        g = self._round(t)
        who = a.player("player", None) or g["to_act"]
        if who in g["left"]:
            if doing == "play":
                raise RuleError(_("{who} left this gambling round and cannot play gambling or cheating cards",
                                  who=who))
            raise RuleError(_("{who} left this gambling round and cannot pass", who=who))
        if who != g["to_act"]:
            raise RuleError(_("it is {active}'s go in the gambling round, not {who}'s", active=g["to_act"], who=who))
        return g, who

    @action("play", fields=(
        Str("card", choices=CARDS),
        Bool("ante"),
        Player("player", required=False),
    ))
    def _play(self, t: Txn, a: Args) -> None:
        """Play a gambling card, a cheating card or "Winning Hand!" in the round: take control.

        "ante": true for a card that makes everyone still in the round ante
        1 more (nobody antes if the player who plays it cannot).
        """
        card = a.str("card")
        ante = a.bool("ante")
        g, who = self._round_player(t, a, "play")
        if g["last"] == "winning_hand" and card != "cheat":
            raise RuleError(_('after "Winning Hand!" only a cheating card can take control, not {card}',
                              card=CARD_WORDS[card]))
        g["control"], g["last"], g["passed"] = who, card, []
        t.event(_("{who} plays {card} and takes control", who=who, card=CARD_WORDS[card]))
        if ante:
            self._ante(t, who, list(g["players"]))
        g["to_act"] = self._next_in_round(t, who)
        self._check_round_end(t)

    @action("pass", fields=(Player("player", required=False),))
    def _pass(self, t: Txn, a: Args) -> None:
        """Pass in the gambling round (you may still play later, if the round goes on)."""
        g, who = self._round_player(t, a, "pass")
        g["passed"].append(who)
        g["to_act"] = self._next_in_round(t, who)
        self._check_round_end(t)

    @action("leave", fields=(Player("player"),))
    def _leave(self, t: Txn, a: Args) -> None:
        """A player leaves the gambling round (a card lets them): no more gambling or cheating cards."""
        g = self._round(t)
        who = a.player("player")
        if who in g["left"]:
            raise RuleError(_("{who} already left this gambling round", who=who))
        self._remove_from_round(t, who)
        t.event(_("{who} leaves the gambling round", who=who))
        self._check_round_end(t)

    @action("force_out", fields=(Player("player"),))
    def _force_out(self, t: Txn, a: Args) -> None:
        """A card forces a player out of the round; if one player remains, they win it."""
        g = self._round(t)
        who = a.player("player")
        if who in g["left"]:
            raise RuleError(_("{who} already left this gambling round", who=who))
        self._remove_from_round(t, who)
        t.event(_("{who} is forced out of the gambling round", who=who))
        if len(g["players"]) == 1:
            self._end_round(t, g["players"][0], why=_("the last player in the round"))
        else:
            self._check_round_end(t)

    @action("end_round", fields=(Raw("winner"),))
    def _end_round_action(self, t: Txn, a: Args) -> None:
        """End the round now (a card says so): the pot to "winner" (default: the player in control), null = the Inn."""
        g = self._round(t)
        if a.has("winner"):
            winner = a.raw("winner")
            if winner is not None:
                if not isinstance(winner, str):
                    raise RuleError(_("end_round: 'winner' must be a player's name or null, not {winner!r}",
                                      winner=winner))
                if t.player(winner)["out"]:
                    raise RuleError(_("{who} is out of the game", who=winner))
                if winner in g["left"]:
                    # «no podrá jugar cartas de juego o trampas durante el resto de esa ronda»
                    raise RuleError(_("{who} left this gambling round and cannot win its pot", who=winner))
        else:
            winner = g["control"]
        self._end_round(t, winner, why=_("a card ended the round"))

    @action("pay_pot", adjustment=True, fields=(Player("player"), Int("amount", lo=1)))
    def _pay_pot(self, t: Txn, a: Args) -> None:
        """A player puts gold into the pot (a card says so); only as much as they have."""
        self._round(t)
        who = a.player("player")
        amount = a.int("amount")
        paid = -t.add(who, "gold", -amount)
        t.add(None, "pot", paid)

    def _close_round(self, t: Txn, still: list[str]) -> None:
        """The game ends during a gambling round: the last one standing, if still in the round, wins it
        (like the last player left in it after a force-out); otherwise nobody is in control and the
        pot goes to the Inn."""
        g = t.state["gambling"]
        winner = still[0] if len(still) == 1 and still[0] in g["players"] else None
        pot = t.get(None, "pot")
        t.add(None, "pot", -pot)
        if winner is not None:
            t.add(winner, "gold", pot)
            t.event(_("{winner} wins the gambling round (the last one standing) and takes the pot: {pot} gold",
                      winner=winner, pot=pot))
        else:
            t.add(None, "inn", pot)
            t.event(_("the gambling round ends with the game: the pot ({pot} gold) goes to the Inn", pot=pot))
        t.state["gambling"] = None

    def _remove_from_round(self, t: Txn, name: str) -> None:
        g = t.state["gambling"]
        g["players"].remove(name)
        if not t.player(name)["out"]:
            g["left"].append(name)
        if name in g["passed"]:
            g["passed"].remove(name)
        if g["control"] == name:
            g["control"] = None
            t.event(_("nobody is in control of the gambling round now"))
        if g["to_act"] == name or g["to_act"] not in g["players"]:
            g["to_act"] = self._next_in_round(t, name)

    def _check_round_end(self, t: Txn) -> None:
        """The round ends when everyone still in it, but the player in control, has passed since the last play."""
        g = t.state["gambling"]
        waiting = [n for n in g["players"] if n != g["control"] and n not in g["passed"]]
        if not waiting:
            self._end_round(t, g["control"], why=_("everybody else passed"))

    def _end_round(self, t: Txn, winner: str | None, *, why: str) -> None:
        pot = t.get(None, "pot")
        t.add(None, "pot", -pot)
        if winner is not None:
            t.add(winner, "gold", pot)
            t.event(_("{winner} wins the gambling round ({why}) and takes the pot: {pot} gold", winner=winner, why=why,
                      pot=pot))
        else:
            t.add(None, "inn", pot)
            t.event(_("the gambling round ends with nobody in control: the pot ({pot} gold) goes to the Inn", pot=pot))
        t.state["gambling"] = None
        turn = t.state["turn"]
        if t.player(turn["player"])["out"]:
            self._start_next_turn(t)
        else:
            turn["phase"] = "buy"

    # -- table-wide effects ----------------------------------------------------------------------
    @action("everyone", adjustment=True, fields=(
        Str("counter", choices=EVERYONE_COUNTERS, doc=_("which counter every player changes")),
        Int("delta", doc=_("what each player gets (negative: what each pays or loses)")),
        Str("side", default="inn", choices=("inn", "player"),
            doc=_("the other side of a gold payment: the Inn, or the acting player (then every other player)")),
        Bool("others", doc=_("every player still in but the acting player")),
        Player("player", required=False, doc=_("who plays the card (default: whose turn it is)")),
    ))
    def _everyone(self, t: Txn, a: Args) -> None:
        """A card's effect on every player still in (or every other player) at once.

        "each other player pays Ana 1 gold": counter gold, delta −1,
        "side": "player", "player": "Ana"; "everybody drinks to the Inn's
        health": counter alcohol, delta 1. Each pays only as much as they have.
        """
        counter = a.str("counter")
        delta = a.int("delta")
        side = a.str("side")
        others = a.bool("others")
        who = a.player("player", None) or t.state["turn"]["player"]
        if delta == 0:
            raise RuleError(_("say how much each player gets or pays"))
        if side == "player":
            if counter != "gold":
                raise RuleError(_("only gold is paid to a player; {counter} comes from nobody",
                                  counter=word("counter", counter)))
            others = True
        targets = [p["name"] for p in t.in_game() if not (others and p["name"] == who)]
        parts = []
        for name in targets:
            if side == "player":
                moved = self.transfer(t, name, who, counter, -delta) if delta < 0 else \
                    -self.transfer(t, who, name, counter, delta)
                parts.append(_("{who} {delta:+d}", who=name, delta=-moved))
            else:
                parts.append(_("{who} {delta:+d}", who=name, delta=self.adjust(t, name, counter, delta)))
        t.event(_("everyone's {counter}: {changes}", counter=word("counter", counter), changes=listing(parts)))

    # -- generic actions, with this game's rules ---------------------------------------------
    def _has_counter(self, t: Txn, who: str, counter: str) -> None:
        t.spec(counter, who)
        if counter not in t.player(who)["counters"]:
            owners = [n for n, c in self.characters.items() if c[1] == counter]
            raise RuleError(N_("{who} has no {counter} counter (only {owners} keeps {counter})",
                               "{who} has no {counter} counter (only {owners} keep {counter})", len(owners),
                               who=who, counter=word("counter", counter), owners=listing(owners)))

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
