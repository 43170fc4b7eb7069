"""What The Red Dragon Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

import itertools
from typing import Any

from ...errors import RuleError
from ...game import Game, Offer
from ...messages import N_, Msg, _, listing, word
from .drinks import COMMON_DRINKS, DRINK_WORDS, OTHER
from .rules import CARDS, DRINK_EVENTS, FIXED_COUNTERS, OUT_OF_GOLD, PASSING_OUT, others_in_order

#: The cards on a pod's buttons.
CARD_LABELS = {"gambling": word("label", "gambling"), "cheat": word("label", "cheat"),
               "winning_hand": word("label", "winning hand")}
#: A pod's alarm for a pending loss.
LOSS_ALARMS = {PASSING_OUT: word("status", "PASSING OUT"), OUT_OF_GOLD: word("status", "OUT OF GOLD")}


#: Where a drink asked by name starts on a pod: the first common drink, an ale (the likeliest).
FIRST_DRINK = next(iter(COMMON_DRINKS))
#: A chaser named "other" (a card not on the common list: a play-tester's mead) asks what it does; a
#: chaser by name asks nothing more (:meth:`RedDragonInnViews.pod_step_wanted`).
OTHER_CHASER_ASKS = ("alcohol", "fortitude")

def _signed(n: int) -> str:
    """A change as the pods write it: "+3", "−1" (the minus sign, not a hyphen)."""
    return f"{n:+d}".replace("-", "−")


def drink_label(d: str) -> Msg:
    """A common drink as a pod offers it: its name and what it does, so that a card of another name or edition
    is matched by its effect ("elven wine +3", "water −1", "holy water fortitude +2"; no colon: "dirty dishwater
    fortitude −1" fits the offer bar's two lines only so)."""
    _name, alcohol, fortitude = COMMON_DRINKS[d]
    if alcohol:
        return _("{drink} {alcohol}", drink=DRINK_WORDS[d], alcohol=_signed(alcohol))
    return _("{drink} {counter} {delta}", drink=DRINK_WORDS[d], counter=word("counter", "fortitude"),
             delta=_signed(fortitude))


def drink_effect(d: str) -> Msg:
    """What a common drink does, without its name: "alcohol +3", "fortitude −1"."""
    _name, alcohol, fortitude = COMMON_DRINKS[d]
    counter, delta = ("alcohol", alcohol) if alcohol else ("fortitude", fortitude)
    return _("{counter} {delta}", counter=word("counter", counter), delta=_signed(delta))


#: A drink event on the pod's list (phase 4).
EVENT_LABELS = {"round": _("event: everyone drinks"), "contest": _("event: drinking contest")}


#: The drinks offered by what they do (alcohol, fortitude) beside the common ones by name (RULES.md,
#: "Common drinks"): alcohol with a fortitude change, which no common drink gives.
EFFECT_DRINKS = tuple((a, f) for f in (-1, 1) for a in range(1, 5))
#: The alcohol a common drink and its common chaser add up to: an ale and an ale, 2, to a dragon breath ale and
#: an elven wine, 7; and 1, an ale whose chaser was a drink event card («si revelas una carta de evento de bebida,
#: no hay efecto adicional»: a play-tester's took 6 presses through the "other" chaser) or a wine and a water.
CHASER_TOTALS = tuple(range(1, 8))


class RedDragonInnViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "gold"
    off_pod = frozenset({"drink_piles"})  # a correction of the piles, made on the touchscreen
    #: What the pod asks of a drink that is none of the common drinks: its effects, and how many chasers.
    OTHER_DRINK_ASKS = ["alcohol", "fortitude", "gold", "chasers"]

    def pod_step_wanted(self, state: dict[str, Any], name: str, action: dict[str, Any], field: str) -> bool:
        """A drink with a chaser asks what the chaser does only when it is "other" (a card not on the common
        list); "other drink…" (no chaser named) asks it always."""
        if action.get("action") == "drink" and field in OTHER_CHASER_ASKS and "chaser" in action:
            return OTHER in (action.get("chaser"), action.get("second_chaser"))
        return True

    def pod_value_words(self, state: dict[str, Any], name: str, action: str, field: str, value: Any,
                        entered: dict[str, Any] | None = None) -> Msg | None:
        """After a chaser named "other", whose amount is asked: the chaser's alone, the named cards' added
        by the device (a play-tester trusted "alcohol 0" only once the preview showed the total); a drink asked
        by name: what it does."""
        if (action == "drink" and field in OTHER_CHASER_ASKS and entered is not None
                and OTHER in (entered.get("chaser"), entered.get("second_chaser"))):
            return _("chaser's")
        if action == "drink" and field == "drink" and value in COMMON_DRINKS:
            # what the drink named does, beside its name: a card of another name is matched by its effect (a
            # play-tester's forced «Whisky de dragón», +3, looked like "dragon breath ale", +4, by its name)
            return drink_effect(value)
        return None

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        g = state["gambling"]
        return {
            "turn": dict(state["turn"]),
            "drinks": dict(state["drinks"]),
            "gambling": None if g is None else {k: (list(v) if isinstance(v, list) else v) for k, v in g.items()},
        }

    # -- pods ----------------------------------------------------------------------------------
    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        c = p["counters"]
        # fortitude first: the big number and what ± change when no offer has the focus (a card that
        # gains fortitude is the one a player plays on their own at any moment, also out of turn); the
        # character's own track (piety, gear, ...) next, one select away: only its cards move it, by hand
        # (a rulebook reader's Serena raised or lowered piety on 5 cards of 8 rounds, 5 selects away)
        counters = [[word("counter", "fortitude"), c["fortitude"]]]
        counters += [[word("counter", k), v] for k, v in c.items() if k not in FIXED_COUNTERS]
        counters += [[word("counter", k), c[k]] for k in ("alcohol", "gold", "drink_me")]
        g = state["gambling"]
        turn = state["turn"]
        mine = [e for e in state["pending"] if e["name"] == name]
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            if name not in state["winners"]:
                status = word("status", "game over")
            else:
                status = word("status", "draw") if state["draw"] else word("status", "winner")
        elif p["out"]:
            status = word("status", "out")
        elif mine:
            reason = mine[0]["reason"]
            status = LOSS_ALARMS.get(reason, reason.upper())
        elif state["pending"]:  # another's last chance: every move waits for it (the presser of the hit
            # that started it saw only their offers change; a play-tester asked to be told)
            status = _("{name}: last chance", name=state["pending"][0]["name"])
        elif state.get("drink_event") is not None and name in state["drink_event"]["waiting"]:
            status = word("status", "drink from the deck")
        elif state.get("drink_event") is not None and state["drink_event"]["waiting"]:
            # drunk already: the cards the table waits for, whose when one (a play-tester's pod still said
            # "your turn: drink" after his contest card, as if he had to drink again)
            waiting = state["drink_event"]["waiting"]
            status = N_("{names} yet to drink", "{n} yet to drink", len(waiting), names=listing(waiting))
        elif g is not None:
            if name in g["left"]:
                status = word("status", "left the round")
            elif g["to_act"] == name:
                status = word("status", "gamble: play/pass")
            elif g["control"] == name:
                status = word("status", "in control")
            else:
                status = word("status", "gambling")
        elif turn["player"] == name:
            status = _("your turn: {phase}", phase=word("phase", turn["phase"]))
        else:
            status = ""
        if g is not None:
            table = [[word("counter", "pot"), state["table"]["pot"]], [word("table", "control"), g["control"] or "-"]]
        else:
            table = [[word("table", "deck"), state["drinks"]["deck"]], [word("table", "turn"), turn["player"]]]
        return {"counters": counters, "status": status, "alert": bool(mine) and not state["over"], "table": table}

    def _out_of_turn_gambling(self, g: dict[str, Any], name: str, p: dict[str, Any]) -> list[Offer]:
        """A player still in the round, not to act: the cards played out of turn, two presses each — right
        after a cheat, the cheater thrown out (a rulebook reader's Serena answered a cheat with her sword);
        the round ended with the pot to the Inn (the Wench's tip); leaving the round; the character's own
        track, which such a card may move (a play-tester's Serena, whose sword answered a cheat with piety +1:
        select, select, up). Nothing for a player who left."""
        if name not in g["players"] or name in g["left"]:
            return []
        # each is main, then main on the player asked, as a card played on another player in a last chance:
        # one stray press alone opens the entry and changes nothing
        out: list[Offer] = []
        if g["last"] == "cheat" and g["control"] not in (None, name):
            # the cheat negated and its player out: control back to whoever had it (all four rulebook
            # readers' swords did that)
            out.append({"label": _("negate {name}'s cheat", name=g["control"]), "ask": ["player"],
                        "action": {"action": "force_out", "player": g["control"], "by": name, "negates": True}})
        # the Wench's tip, played by a player not to act (a play-tester found it only through the menu:
        # 10 presses); who plays it asked, from this pod's player
        out.append({"label": word("label", "pot to the Inn"), "ask": ["by"],
                    "action": {"action": "end_round", "winner": None, "by": name}})
        # a card that lets its player leave the round, played out of turn (a rulebook reader's Kaylin left the
        # round she had started, feeding Wulfric)
        out.append({"label": word("label", "leave the round"), "ask": ["player"],
                    "action": {"action": "leave", "player": name}})
        return out + self._own_track(p)

    def _anytime(self, state: dict[str, Any], name: str, others: list[str]) -> list[Offer]:
        """Another player's turn: «Las cartas en cualquier momento se pueden jugar en cualquier momento, incluso si
        interrumpen otra acción». A card that costs another player 1 fortitude, one that takes 1 gold from another
        player, and the drink another's card makes this player take from their own Drink Me! pile now («¡Bebe de
        un trago!»: an eighth rulebook reader's, twice, 14 presses through the menu; its «¡Cabezazo!» and «¡Eso es
        mío!» played out of turn 8–10). Each asks its player or the drink, so that a stray main on an idle pod opens
        the question and changes nothing; the player asked starts at the one whose turn it is (the card interrupts
        them: that reader's two cards went to the player acting). The player's own counters stay select, then up or
        down."""
        if not others:
            return []
        acting = state["turn"]["player"]
        first = [acting] if acting in others else []
        out: list[Offer] = [self._guarded_hit(state, first + self._likeliest_to_drink(state, others))]
        rich = self._with_gold(state, first + self._richest(state, others))
        if rich:
            out.append({"label": _("gold from ?"), "ask": ["from"],
                        "action": {"action": "transfer", "from": rich[0], "to": name, "counter": "gold", "amount": 1}})
        # a card that makes players buy drinks out of turn (a ninth rulebook reader's «¡Una ronda para la mesa!»:
        # each buys one for another, 29 presses for four buys through one pod's menu): the player asked, from the left
        # (last: one such card in nine stories)
        return out + self._drink_now(state, name) + [{"label": _("extra drink for ?"), "ask": ["to"],
                                                      "action": {"action": "buy", "player": name, "to": others[0],
                                                                 "extra": True}}]

    @staticmethod
    def _with_gold(state: dict[str, Any], names: list[str]) -> list[str]:
        """Those of ``names`` who have gold to give (a coin taken from an empty purse changes nothing)."""
        gold = {p["name"]: p["counters"]["gold"] for p in state["players"]}
        return [q for q in names if gold[q] > 0]

    @staticmethod
    def _drink_now(state: dict[str, Any], name: str) -> list[Offer]:
        """The top card of the player's own Drink Me! pile drunk now, outside the drink phase, by name (an extra
        drink: the turn does not move on); none with an empty pile."""
        if not next(p for p in state["players"] if p["name"] == name)["counters"]["drink_me"]:
            return []
        return [{"label": word("label", "I drink now"), "ask": ["drink"],
                 "action": {"action": "drink", "player": name, "extra": True, "drink": FIRST_DRINK}}]

    @staticmethod
    def _guarded_hit(state: dict[str, Any], others: list[str]) -> Offer:
        """A card that costs someone 1 fortitude during another's last chance, the player asked (from the one
        passing out): one stray main opens the question and hits nobody."""
        target = next((e["name"] for e in state["pending"] if e["name"] in others), others[0])
        return {"label": _("?: {counter} −1", counter=word("counter", "fortitude")),
                "action": {"action": "adjust", "player": target, "counter": "fortitude", "delta": -1},
                "ask": ["player"]}

    def _turn_goes_on(self, state: dict[str, Any], name: str) -> list[Offer]:
        """During another player's last chance, the offers of the turn of ``name`` when it is theirs, as they
        will be once the losses are applied: «resolve, or any other action, applies them first» (a
        play-tester's Cai, whose buy came while Dee was out of gold, found nothing to buy on his pod)."""
        if state["turn"]["player"] != name or state["gambling"] is not None or state.get("drink_event"):
            return []
        try:
            settled = self.apply(state, {"action": "resolve"})[0]
        except RuleError:  # refused (the losses change whose turn it is): nothing goes on
            return []
        return [] if settled["over"] or settled["pending"] else self._offers_now(settled, name)

    @staticmethod
    def _likeliest_to_drink(state: dict[str, Any], others: list[str]) -> list[str]:
        """Whom a drink is bought for, likeliest first: «Si su contenido de alcohol es mayor o igual a su
        entereza, cae inconsciente … Estás fuera del juego», so a drink goes first to whoever is nearest
        to passing out (the least fortitude over alcohol); the player on the left first among equals
        (``others`` is in seat order from the left)."""
        margin = {p["name"]: p["counters"]["fortitude"] - p["counters"]["alcohol"] for p in state["players"]}
        return sorted(others, key=lambda q: margin[q])

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        """What the pod offers now, most likely first; up/down go through them, main does the one shown.

        * a pending loss: resolve (on the pod of a player about to pass out only), and the Anytime card
          that costs another player fortitude;
        * a gambling go: pass, each card (a card that makes everyone ante 1 more is its own offer),
          a card that throws another player out of the round (the one in control nearest to "pass", up), leave the round;
        * phases 1–2 of the turn: a drink for each other player (buying says nothing happened in
          phases 1–2), "Gambling? I'm in!", then the action cards that cost another player 1
          fortitude (a card that costs 2 is two presses), that take gold from another player (1 a press), that
          give another player an extra drink, the
          character's extra counter ±1 and a table-wide effect;
        * phase 3: a drink for each other player;
        * another player's turn: the cards played at any moment, each asking its player or drink (a hit, gold taken,
          a drink from one's own pile now);
        * phase 4: the common drink revealed, by name (one press once it is shown), a drink and its chaser by
          the alcohol they add up to, each drink with a chaser
          (then the chaser is asked), and any other drink (its effects are asked); an empty Drink Me!
          pile: sober up.

        Right after a drinking contest the device found tied (the strongest drinks alike; «siga las
        instrucciones de la carta»: the table reads it), each tied player's first offer, until the next
        action: won the contest, every other player pays 1 gold — main, then main on the winner asked
        (the presser first), so that a stray main on a tied loser's idle pod opens the question and
        pays nobody; with the option ``contest`` at "weakest_pays", lost it: pay each other player 1. Next, the
        card's tie-break (a ninth rulebook reader's copy: «los empatados revelan otra carta, la beben y la suman,
        hasta desempatar»): the tied players drink again from the deck, each on their own pod, and the device
        settles the contest itself.
        """
        out = self._offers_now(state, name)
        if name in state.get("contest_tie", ()) and not state["over"]:
            lost = self.options["contest"] == "weakest_pays"  # the weakest pays each other player
            label = word("label", "contest lost: pay each 1") if lost else word("label", "contest won: each pays 1")
            out[:0] = [{"label": label,
                        "ask": ["player"],
                        "action": {"action": "everyone", "player": name, "counter": "gold", "delta": 1 if lost else -1,
                                   "side": "player", "others": True}},
                       {"label": word("label", "contest tie: drink again"),
                        "action": {"action": "drink_event", "player": name, "kind": "contest", "again": True}}]
        return out

    def _offers_now(self, state: dict[str, Any], name: str) -> list[Offer]:
        p = next(p for p in state["players"] if p["name"] == name)
        if state["over"] or p["out"]:
            return []
        others = self._others(state, name)
        out: list[Offer]
        event = state.get("drink_event")
        if event is not None and name in event["waiting"]:
            # A drink event: this player's card from the drink deck, by name, whoever's turn it is.
            drink = {"action": "drink", "player": name, "extra": True, "from": "deck"}
            out = self._named_drinks(drink) + self._by_effect(drink) + self._ignored(drink) + self._second_chasers(drink)
            out.append({"label": word("label", "other drink"), "action": drink, "ask": list(self.OTHER_DRINK_ASKS)})
            if state["pending"] and others:
                # another's last chance mid-event: this player's card still first (a play-tester's pod put "Ben:
                # fortitude −1" where the contest's "ale +1" had been, one reflex main from a hit); a card on
                # someone last, one up away, the player asked
                out.append(self._guarded_hit(state, others))
            return out
        if event is not None and not state["pending"]:
            return []  # drunk already: the others' cards come first, and every move of the turn waits
        if state["pending"]:
            # «tienes una última oportunidad de jugar cartas … para salvarte»: the player about to pass out says
            # when their last chance is over (resolve); the others may still play a card on someone, but a
            # stray main on their pods ends nobody's chance
            if any(e["name"] == name for e in state["pending"]):
                # guarded: after a card held on another player the pod stays on that card, not back on
                # "resolve" (a play-tester's next main by reflex would have given up his chance)
                # confirmed: it puts the player out, and it comes first the moment a pass or a drink starts
                # the last chance (a play-tester's double main on "pass" would have given it up)
                resolve: Offer = {"label": word("label", "resolve"), "action": {"action": "resolve"},
                                  "guarded": True, "confirm": True}
                # a card played to save oneself: a hit on the one nearest to passing out first, as in the turn
                # (a play-tester's Ana, at her last chance, hit Dee, second in seat order), and the character's
                # own track, which such a card may cost (Serena's «¡Luz cegadora!»: piety −1 took select,
                # select, down)
                # and between them gold taken from another (an eighth reader's Kaylin, «si me voy, se va conmigo»:
                # 8 presses through the menu), the richest first; the track stays last, one up from resolve
                return [resolve, *self._hits(self._likeliest_to_drink(state, others)),
                        *self._takes(self._with_gold(state, self._richest(state, others)), name), *self._own_track(p)]
            # Another's last chance: a card on someone, the player asked (from the one passing out), so that
            # a stray main on an idle pod opens the question and hits nobody (a play-tester's did)
            return [self._guarded_hit(state, others), *self._turn_goes_on(state, name)] if others else []
        g = state["gambling"]
        if g is not None:
            if g["to_act"] != name:
                return self._out_of_turn_gambling(g, name, p)
            out = [{"label": word("label", "pass"), "action": {"action": "pass", "player": name}}]
            cards = [c for c in CARDS if g["last"] != "winning_hand" or c == "cheat"]
            # the cards the stories played most first: a cheat 19 times, a gambling card that makes everyone ante 1
            # more («¡Subo la apuesta!», "raise") 16, a winning hand 14, a plain gambling card 6 (three play-testers
            # could not tell which line their «Subo la apuesta» was, "gambling: everyone antes 1", fifth of ten)
            plays: dict[str, Offer] = {
                card: {"label": CARD_LABELS[card], "action": {"action": "play", "player": name, "card": card}}
                for card in cards}
            antes: dict[str, Offer] = {
                card: {"label": word("label", "raise: everyone antes 1") if card == "gambling" else
                       _("{card}: everyone antes 1", card=CARD_LABELS[card]),
                       "action": {"action": "play", "player": name, "card": card, "ante": True}}
                for card in cards if card != "winning_hand"}
            order = [plays.get("cheat"), antes.get("gambling"), plays.get("winning_hand"), plays.get("gambling"),
                     antes.get("cheat")]
            out += [o for o in order if o is not None]
            # A card that ends the round with the pot to the Inn (the Wench takes it as her tip)
            out.append({"label": word("label", "pot to the Inn"),
                        "action": {"action": "end_round", "winner": None, "by": name}})
            # the character's own track, which a card played on one's go may move (a rulebook reader's Serena
            # answered a cheat with her sword, piety +1: select, select, up), before the cards on the others
            out += self._own_track(p)
            # A card that throws a player out of the round (a cheat exposed): the player in control, the
            # one such a card is played against, last, next to "leave the round" (up from "pass": two steps)
            rivals = sorted((q for q in g["players"] if q != name), key=lambda q: q == g["control"])
            for q in rivals:
                if q == g["control"] and g["last"] == "cheat":  # the cheat just played, exposed: negated
                    out.append({"label": _("negate {name}'s cheat", name=q),
                                "action": {"action": "force_out", "player": q, "negates": True}})
                else:
                    out.append({"label": _("{name} out of the round", name=q),
                                "action": {"action": "force_out", "player": q}})
            out.append({"label": word("label", "leave the round"), "action": {"action": "leave", "player": name}})
            return out
        turn = state["turn"]
        if turn["player"] != name:
            return self._anytime(state, name, others)
        phase = turn["phase"]
        if phase in ("discard", "action", "buy"):
            likely = self._likeliest_to_drink(state, others)
            out = [{"label": _("drink for {name}", name=q), "action": {"action": "buy", "player": name, "to": q}}
                   for q in likely]
            if phase == "buy":
                return out
            out.append({"label": word("label", "gamble"), "action": {"action": "gamble", "player": name}})
            # a card on another player in the order the stories played them, as the drinks (a play-tester found each
            # player at another place in each group): a hit for the one nearest to passing out (35 of 57 story hits
            # went to the first so, 29 to the first from the left), gold from the richest (14 of 24 against 8)
            out += self._hits(likely)
            device = p.get("character") == "Wizgille"
            if device:
                out += self._pair_hits(others)
            out += self._takes(self._richest(state, others), name)
            # gold from every other player at once, the table-wide card a rulebook reader's Serena played
            # first («Diezmo para el templo»: each other player gives you 1 gold), complete, beside the takes
            out.append({"label": word("label", "each pays you 1 gold"),
                        "action": {"action": "everyone", "player": name, "counter": "gold", "delta": -1,
                                   "side": "player", "others": True}})
            out += self._alcohol(likely)
            # a card that lowers another player's alcohol (a potion that backfires and helps its drinker: a seventh
            # rulebook reader's «Elixir de sobriedad», 9 presses through the menu's adjust), after the gains
            out += self._alcohol(likely, -1)
            # a card that makes its player drink the top of their own Drink Me! pile now («¡Bebe de un trago!»),
            # played on them by another: the drink asked by name
            out += self._drink_now(state, name)
            # the extra drinks in the drinks' order, nearest to passing out first (they went from the left, and a
            # play-tester's held press, which had learnt the drinks' and hits' order, stopped on the wrong player)
            out += [{"label": _("extra drink for {name}", name=q), "repeat": True,
                     "action": {"action": "buy", "player": name, "to": q, "extra": True}} for q in likely]
            if device:
                out += self._pair_drinks(others, name)
            out += self._own_track(p)
            # a card that pays its player from the Inn (a rulebook reader's «Poción dorada»: 2 gold; 5 presses
            # through the gold counter), held for more; the payment to the Inn after it, one up from the last
            out.append({"label": word("label", "gold from the Inn"), "repeat": True,
                        "action": {"action": "adjust", "player": name, "counter": "gold", "delta": 1}})
            # a card that costs its player gold, paid to the Inn («Wulfric destroza una silla»: 2 gold), held for more
            out.append({"label": word("label", "pay the Inn 1 gold"), "repeat": True,
                        "action": {"action": "adjust", "player": name, "counter": "gold", "delta": -1}})
            out.append({"label": word("label", "everyone"), "action": {"action": "everyone", "player": name},
                        "ask": ["counter", "delta", "side", "others"]})
            return out
        if not p["counters"]["drink_me"]:
            return [{"label": word("label", "sober up"), "action": {"action": "drink", "player": name}}]
        drink = {"action": "drink", "player": name}
        out = self._named_drinks(drink) + self._by_effect(drink) + self._ignored(drink) + self._second_chasers(drink)
        # A drink event revealed instead of a drink: every player then drinks one from the deck. Up from the
        # top of the list: any other drink (one press), then the events.
        out += [{"label": EVENT_LABELS[kind], "action": {"action": "drink_event", "player": name, "kind": kind}}
                for kind in reversed(DRINK_EVENTS)]
        out.append({"label": word("label", "other drink"), "action": drink, "ask": list(self.OTHER_DRINK_ASKS)})
        return out

    @staticmethod
    def _named_drinks(drink: dict[str, Any]) -> list[Offer]:
        """Each common drink by name and what it does ("elven wine +3", "holy water fortitude +2"), a drink and
        its chaser by their alcohol added up ("chaser, alcohol +4"), then each
        by name with a chaser (what it does would not fit beside "+ chaser": the plain lines say it), the chaser
        asked, starting at the first common drink, an ale, not at "–" (the offer says there is one, a press
        fewer for the likeliest). A play-tester's «Vino élfico» was a +2 card:
        the name alone ("vino élfico") took the device's +3, where "+3" beside it would have said no."""
        out: list[Offer] = [{"label": drink_label(d), "action": dict(drink, drink=d)} for d in COMMON_DRINKS]
        # a drink and its chaser by the alcohol they add up to («añade sus efectos a la bebida original»: the table
        # adds them as it reads them), one line per total: a play-tester's ale with an elven-wine chaser was +4 worked out, and
        # 4 presses by name (the drink's "+ chaser" line, then the chaser's name)
        out += [{"label": _("chaser, {alcohol} +{n}", alcohol=word("counter", "alcohol"), n=n),
                 "action": dict(drink, alcohol=n, chasers=1)} for n in CHASER_TOTALS]
        out += [{"label": _("{drink} + chaser", drink=DRINK_WORDS[d]), "action": dict(drink, drink=d, chaser=FIRST_DRINK),
                 "ask": ["chaser", *OTHER_CHASER_ASKS]} for d in COMMON_DRINKS]
        return out

    @staticmethod
    def _ignored(drink: dict[str, Any]) -> list[Offer]:
        """A drink revealed and ignored («Ignora una bebida»: a card such as «¡Yo no pedí esto!»), alone or
        with its chaser (the drink and its chasers are one drink: all ignored) — the card discarded, nothing
        else. A play-tester entered one as "other drink…" with every amount at 0: 7 presses for nothing."""
        return [{"label": word("label", "drink ignored"), "action": dict(drink)},
                {"label": word("label", "drink + chaser ignored"), "action": dict(drink, chasers=1)},
                # a chaser whose chaser was another (a play-tester's three cards, ignored together: 7 presses
                # through "other drink…")
                {"label": word("label", "drink + 2 chasers ignored"), "action": dict(drink, chasers=2)}]

    @staticmethod
    def _second_chasers(drink: dict[str, Any]) -> list[Offer]:
        """A drink whose chaser was itself a drink with a chaser («Si es otra Bebida con un Cazador, agrega
        sus efectos … y revela la siguiente»): one offer asking the three common drinks by name, past the
        drinks by effect (rarer than any of them; one line, not eight: a drink's name and "+ 2 chasers"
        do not fit the title beside the step's count)."""
        return [{"label": word("label", "drink + 2 chasers"),
                 "action": dict(drink, drink=FIRST_DRINK, chaser=FIRST_DRINK, second_chaser=FIRST_DRINK),
                 "ask": ["drink", "chaser", "second_chaser", *OTHER_CHASER_ASKS]}]

    @staticmethod
    def _by_effect(drink: dict[str, Any]) -> list[Offer]:
        """A drink the common list does not name (another box's card, a house drink: «siga las
        instrucciones de la carta») by what it does: alcohol +1…+4 with fortitude −1 or +1, one
        offer each, so that such a card is one held press and main, not every field of "other drink"; then
        fortitude +1 alone (a rulebook reader's herbal tea, «Té de hierbas»: 6 presses through "other drink…")."""
        out: list[Offer] = [{"label": _("{alcohol} {a}, {fortitude} {f}", alcohol=word("counter", "alcohol"),
                                        a=f"+{a}", fortitude=word("counter", "fortitude"),
                                        f=_signed(f)),
                             "action": dict(drink, alcohol=a, fortitude=f)} for a, f in EFFECT_DRINKS]
        out.append({"label": _("{counter} {delta}", counter=word("counter", "fortitude"), delta="+1"),
                    "action": dict(drink, alcohol=0, fortitude=1)})
        return out

    @staticmethod
    def _richest(state: dict[str, Any], others: list[str]) -> list[str]:
        """``others`` (in seat order from the left) the richest first, the player on the left first among equals."""
        gold = {p["name"]: p["counters"]["gold"] for p in state["players"]}
        return sorted(others, key=lambda q: -gold[q])

    @staticmethod
    def _others(state: dict[str, Any], name: str) -> list[str]:
        """The other players still in, from ``name``'s left."""
        return others_in_order(state, name)

    @staticmethod
    def _takes(others: list[str], name: str) -> list[Offer]:
        """A card that takes gold from another player: 1 coin from them to the player per press (held: again)."""
        return [{"label": _("gold from {name}", name=q), "repeat": True,
                 "action": {"action": "transfer", "from": q, "to": name, "counter": "gold", "amount": 1}}
                for q in others]

    @staticmethod
    def _alcohol(others: list[str], delta: int = 1) -> list[Offer]:
        """A card that makes another player gain alcohol (a potion given to them, «Prueba esta poción»: a
        rulebook reader's went through the menu's adjust in 9 presses), or lose it (``delta`` −1): 1 per press,
        held for more; in the drinks' order, as the hits (a play-tester's held press, used to it, stopped on the
        player on the left)."""
        return [{"label": _("{name}: {counter} {delta}", name=q, counter=word("counter", "alcohol"),
                            delta=_signed(delta)), "repeat": True,
                 "action": {"action": "adjust", "player": q, "counter": "alcohol", "delta": delta}}
                for q in others]

    @staticmethod
    def _own_track(p: dict[str, Any]) -> list[Offer]:
        """The character's own counter (piety, …) ±1, a press a point."""
        return [{"label": _("{counter} {delta}", counter=word("counter", counter),
                            delta=_signed(delta)), "repeat": True,
                 "action": {"action": "adjust", "player": p["name"], "counter": counter, "delta": delta}}
                for counter in p["counters"] if counter not in FIXED_COUNTERS for delta in (1, -1)]

    @staticmethod
    def _pair_hits(others: list[str]) -> list[Offer]:
        """Wizgille's gear card on two players, each −1 fortitude («elige a Kaylin y Phrenk para que cada uno
        pierda 1 entereza»), one line a pair: a rulebook reader's «¡Demasiado vapor!» was two hits, 4 presses, each time
        the device's card was played. The pairs in seat order from the left, each pair's names so, and they stay where
        they are (a tester's pairs, in the drinks' order, moved after the hit: 3 presses more to find his)."""
        return [{"label": _("{a}, {b}: {counter} −1", a=q, b=r, counter=word("counter", "fortitude")),
                 "action": {"action": "adjust", "player": q, "also": r, "counter": "fortitude", "delta": -1}}
                for q, r in itertools.combinations(others, 2)]

    @staticmethod
    def _pair_drinks(others: list[str], name: str) -> list[Offer]:
        """The device's two extra drinks split between two players («puede darle una o ambas Bebidas
        adicionales»: both to one is the held "extra drink for …"), one line a pair, in seat order as the pair hits."""
        return [{"label": _("extra drinks: {a}, {b}", a=q, b=r),
                 "action": {"action": "buy", "player": name, "to": q, "also": r, "extra": True}}
                for q, r in itertools.combinations(others, 2)]

    @staticmethod
    def _hits(others: list[str]) -> list[Offer]:
        """A card that costs another player fortitude: 1 per press (the offer stays for the next press)."""
        return [{"label": _("{name}: {counter} −1", name=q, counter=word("counter", "fortitude")), "repeat": True,
                 "action": {"action": "adjust", "player": q, "counter": "fortitude", "delta": -1}}
                for q in others]
