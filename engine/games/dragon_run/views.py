"""What Dragon Run shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

import unicodedata
from typing import Any

from ...fields import Field, Str
from ...game import Game, Offer, offer
from ...messages import Msg, _, word
from ...state import players_from_left
from .rules import DIE_FACES, HAND_SIZE, ROOM_ICONS, _cheapest, _highest_range
from .table import other_rooms

#: A pod's status line for the active player, by turn phase.
PHASE_STATUS = {"start": word("status", "charge/hide/cry"), "must_charge": word("status", "MUST CHARGE"),
                "escaped": word("status", "escaped: charge/pass"), "after_location": word("status", "charge/pass/again"),
                "deal": word("status", "charge/hide/cry")}

#: The actions a pod's menu lists after the routine ones, most likely first: the cards played during a
#: turn, then the turn's own actions (already among the routine ones with what the device knows filled in).
POD_ORDER = ("play", "talisman", "draw", "discard", "charge", "room", "hide", "cry", "pass", "again", "power", "deal")

#: The active player's actions: not on the other pods' menus.
TURN_ONLY = frozenset({"power", "charge", "room", "hide", "cry", "pass", "again", "talisman"})
#: The corrections every game has (engine/game.py).
GENERIC = frozenset({"adjust", "transfer", "resolve"})

#: A treasure card a room made a player draw, by value, in the order its pod offers them: worth 0 first (a potion
#: or a talisman: 5 of the 14 such cards in the rulebook readers' stories), then 1 to 5; another value, or a card
#: drawn unseen, is the asking "draw the room's card…" after them.
DRAWN_VALUES = (0, 1, 2, 3, 4, 5)

#: Fields whose values are cards the player holds: a pod steps through the hand's values only.
HELD_VALUES = {("play", "value"), ("talisman", "value")}


#: The order select visits a turn's kinds of offer in (``Game.offer_kinds``): the charges (the first offer's own,
#: so the first select goes on to the next), the hides, the rooms whose card moves treasure (a play-tester's
#: «Cámara de ecos» was the 14th of 39 lines, behind a hide per card held: one held press that had to stop on
#: the 13th step), then the cards played, the cry and the power, which are also up from the first offer.
OFFER_KINDS = ("charge", "hide", "room", "others", "potion", "talisman", "cry", "power")
_KINDS = {"charge": "charge", "again": "charge", "hide": "hide", "room": "room", "play": "potion",
          "talisman": "talisman", "cry": "cry", "power": "power"}


def _grouped(offers: list[Offer]) -> list[Offer]:
    """Each offer with its ``group``, the kind of line a select click on the pod jumps to (by its action)."""
    for item in offers:
        kind = _KINDS.get(str(item["action"].get("action", "")))
        if kind is not None:
            item.setdefault("group", kind)
    return offers


#: A character card's name, in either language, and the power it most likely has (its name tells: «Cada personaje
#: tiene un poder único, como se indica en su tarjeta de personaje»). Only the order of a power's first use
#: follows it, every effect still offered: the five rulebook readers' tables named their characters Rogue,
#: Ladrona, Pícara (each took a card from a hand), Cleric, Sanador, Clérigo (healed), Ranger, Explorador(a) (looked
#: at the dungeon), Dwarf miner, Afortunada, Maga (drew a card), Mercader (drew, or swapped one), and two
#: play-testers went up past every effect to their first heal and look.
_POWER_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("ladr", "picar", "rogue", "thief", "robber", "burglar", "bandid"), ("take",)),
    (("sanad", "cleri", "curand", "heal", "priest", "sacerdot", "medic"), ("heal",)),
    (("explor", "ranger", "scout", "vident", "seer", "rastread"), ("plain",)),
    (("mercader", "merchant", "trader"), ("draw", "swap")),
    (("miner", "minero", "dwarf", "enan", "afortunad", "lucky", "mago", "maga", "mage", "wizard"), ("draw",)),
)


def guessed_power(character: str | None) -> tuple[str, ...]:
    """The power kinds a character's name suggests (``take``, ``heal``, ``plain``, ``draw``, ``swap``), likeliest
    first; () when the name says nothing."""
    if not character:
        return ()
    name = "".join(c for c in unicodedata.normalize("NFD", character.lower()) if not unicodedata.combining(c))
    for words, kinds in _POWER_WORDS:
        if any(w in name for w in words):
            return kinds
    return ()


class DragonRunViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "treasure"
    offer_kinds = OFFER_KINDS
    # the rooms and potions that act on the other players, the cards played, the cry and the power: up from the first
    # offer (select lands on the line up reaches first)
    offer_kinds_up = OFFER_KINDS[3:]
    # a steal of Ben's 6 told him "highest −1" (6 → 5), which a play-tester read as a card worth 1 moved
    told_by_value = ("highest",)
    main_table_counter = "temper"  # at 0 the dragon wakes: the game's clock and its tension

    # -- views --------------------------------------------------------------------
    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "dragon_won": state["dragon_won"],
            "turn": dict(state["turn"]),
            "dungeon_discard": dict(state["discard"]),
            "last_roll": dict(state["last_roll"]) if state["last_roll"] else None,
            "to_deal": list(state["to_deal"]),
            "treasure_deck": dict(state["treasure_deck"]),
            "to_count": list(state["to_count"]),
            "to_draw": dict(state.get("to_draw") or {}),
            "to_discard": dict(state.get("to_discard") or {}),
            "to_pass": dict(state.get("to_pass") or {}),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        turn = state["turn"]
        mine = turn["player"] == name and not state["over"]
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            if state["dragon_won"]:
                status = word("status", "dragon wins")
            elif len(state["winners"]) > 1 and name in state["winners"]:
                status = word("status", "tie: shared win")
            else:
                status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif p["out"]:
            status = word("status", "dead")
        elif name in state["to_deal"]:
            status = word("status", "enter your cards")
        elif any(name in (state.get(owed) or {}) for owed in ("to_draw", "to_discard", "to_pass")):
            # short enough for the header's corner beside the name (the longer "draw a treasure card" was cut there)
            status = word("status", "enter your card")
        elif turn["phase"] == "count":
            if name not in state["to_count"]:
                status = word("status", "the dragon sleeps")
            elif p["unknown_worth"] is None:
                status = word("status", "count your hand")
            else:
                status = word("status", "tie: highest card")
        elif mine:
            status = PHASE_STATUS[turn["phase"]]
        else:
            status = word("status", "injured") if p["counters"]["wounds"] == 1 else ""
        # Honest about the cards whose values the device does not know: "3+?" (3 in the known cards), the
        # highest card "3+" (at least 3), and how many cards the hand holds.
        treasure: int | str = p["counters"]["treasure"]
        lo, hi = _highest_range(p)
        highest: int | str = lo if lo == hi else f"{lo}+"
        if p["unknown"] and p["unknown_worth"] is None:
            treasure = f"{treasure}+?"
        counters = [[word("counter", "treasure"), treasure],
                    [word("counter", "wounds"), p["counters"]["wounds"]], [word("counter", "highest"), highest]]
        if p["unknown"]:  # beside the treasure: "4 cards, 3+?"
            counters.insert(1, [word("counter", "cards"), len(p["cards"]) + p["unknown"]])
        if p["talismans"]:  # in play, apart from the treasure in hand: how many (their values are on the cards
            # in front of the player; a play-tester read the sum "talismans 0" of one Escama as none in play)
            counters.append([word("counter", "talismans"), len(p["talismans"])])
        return {
            "counters": counters,
            "status": status,
            "alert": mine and turn["phase"] == "must_charge",
            # the treasure deck and its discard too, on the menu's "table counters" (the corner shows the first two
            # rows): a play-tester looked for the treasure deck when it ran out and was reshuffled, and found it on no pod
            "table": [[word("counter", "temper"), state["table"]["temper"]],
                      [word("counter", "dungeon"), state["table"]["dungeon"]],
                      [word("label", "treasure deck"), state["treasure_deck"]["deck"]],
                      [word("label", "treasure discard"), state["treasure_deck"]["discard"]]],
        }

    # -- the pod's offers -----------------------------------------------------------------
    # Down from the first offer: the charges, then hiding. Up from the first (the list wraps): the power,
    # crying, then the cards played during a turn. Each offer is a whole action with what the device knows
    # filled in; "ask" is only what it cannot know (a card's value).
    def _charges(self, state: dict[str, Any], p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """The location cards that can come up now, the room's icon given with the charge (one step).

        The dragon stays second: an escape test's "must charge" screen offers it there.
        """
        if state["table"]["dungeon"] == 0:  # an empty deck only comes from a correction
            return []
        charge = {"action": "charge", **me}
        room = state["discard"]["other"] < other_rooms(self.options)
        out: list[Offer] = []
        if room:
            out.append({"label": word("label", "other room: pass"),
                        "action": {**charge, "location": "other", "then": "pass"}})
        out.append({"label": word("label", "dragon"), "action": {**charge, "location": "dragon"}})
        for v in sorted(set(p["talismans"])):
            # a talisman in play whose card takes the breath (two rulebook readers' tables had one): the
            # dragon with it, one press, only while one is in play
            out.append({"label": _("dragon: talisman {value} saves", value=v),
                        "action": {**charge, "location": "dragon", "talisman": v}})
        if room:
            out.append({"label": word("label", "other room: again"),
                        "action": {**charge, "location": "other", "then": "again"}})
        if not state["discard"]["treasure_hall"]:
            # «Roba una carta de tesoro, luego elige entre: Pasa ... Presiona tu suerte»: the card drawn is asked,
            # from 1 like every treasure card drawn (a room's, the power's); two presses down leave it "–"
            # (not entered: the device asks for it when it needs it).
            hall = {**charge, "location": "treasure_hall", "value": 1}
            out.append({"label": word("label", "treasure hall: pass"), "action": {**hall, "then": "pass"},
                        "ask": ["value"]})
            out.append({"label": word("label", "treasure hall: again"), "action": {**hall, "then": "again"},
                        "ask": ["value"]})
        return out

    def _treasure_rooms(self, state: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """A room whose card gives a treasure card: the charge with the card drawn (asked) and the icon."""
        if state["table"]["dungeon"] == 0 or state["discard"]["other"] >= other_rooms(self.options):
            return []
        room = {"action": "charge", **me, "location": "other", "value": 1}
        return [{"label": word("label", "room + treasure: pass"), "action": {**room, "then": "pass"}, "ask": ["value"]},
                {"label": word("label", "room + treasure: again"), "action": {**room, "then": "again"},
                 "ask": ["value"]}]

    def _room_effect_offers(self, state: dict[str, Any], p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta»: a room whose card moves
        treasure cards, with its charge in one offer — discard cards (the cheapest first; after the asking
        entries, each other value held), give one to the player on the left (the cheapest first), two
        cards drawn ("–": not entered) — the icon asked last (pass first)."""
        if state["table"]["dungeon"] == 0 or state["discard"]["other"] >= other_rooms(self.options):
            return []
        room = {"action": "room", **me}
        out: list[Offer] = []
        given: list[Offer] = []
        # two treasure cards drawn (each from 1, as every card drawn), the icon in the offer as for the other
        # rooms: no third step; right after the usual discard and gift (two play-testers looked for them there
        # and found them behind the discards and gifts of every other value held: 16 and 20 presses)
        two = {**room, "draws": 2, "value": 1, "second": 1}
        keep_one = {**room, "draws": 2, "value": 1, "keep": 1}
        two_treasures: list[Offer] = [
            {"label": _("2 treasures: pass"), "action": {**two, "then": "pass"}, "ask": ["value", "second"]},
            {"label": _("2 treasures: again"), "action": {**two, "then": "again"}, "ask": ["value", "second"]},
            # two drawn, one kept, the other discarded (a rulebook reader's library: 26 and 15 presses through the
            # menu's room…): only the card kept is asked; the one put back goes to the discard unseen, its value
            # changing nothing the device follows (a play-tester's step for it took a down from 1)
            {"label": _("2 treasures, keep 1: pass"), "action": {**keep_one, "then": "pass"}, "ask": ["value"]},
            {"label": _("2 treasures, keep 1: again"), "action": {**keep_one, "then": "again"}, "ask": ["value"]}]
        others: list[Offer] = []
        if any(q["name"] != me["player"] and not q["out"] for q in state["players"]):
            # the rooms whose card acts on the other players, the rooms' last lines, a select stop of their own right
            # after the rooms' (a tester's third select landed on the potions, 22 lines past them: these lines' place
            # changes with the hand, one discard and gift a value held): the player on the left wounded, the others'
            # discards, then the others' draws, last, so the first reached up past the cards and the cries (a reader's
            # «Sala del eco», four times in one story of seven: a tester searched 44 lines for it; the readers'
            # commonest of these rooms: 8 echoes against 4 spear rooms and 2 bats' nests)
            left = _left_of(state, me["player"])
            if left is not None:
                # the player on the left wounded, or discarding a card when injured already (a rulebook reader's
                # «Sala de las lanzas», four times in the story: 9 presses each, a charge and a correction)
                others += [{"label": _("room: wound {name}, pass", name=left),
                            "action": {**room, "wound_left": True, "then": "pass"}, "group": "others"},
                           {"label": _("room: wound {name}, again", name=left),
                            "action": {**room, "wound_left": True, "then": "again"}, "group": "others"}]
            # each other adventurer discards a card of their choice (the same reader's «Nido de murciélagos»: 15
            # presses for the three discards through the menu); each enters theirs on their own pod, where it comes
            # first
            others += [{"label": _("room: others discard 1, pass"),
                        "action": {**room, "others_discard": 1, "then": "pass"}, "group": "others"},
                       {"label": _("room: others discard 1, again"),
                        "action": {**room, "others_discard": 1, "then": "again"}, "group": "others"},
                       # everyone, its player too, passes a card of their choice to the left (a ninth reader's
                       # «Cripta», six times in one story: impossible for a 0 worth card, else 10–31 presses by
                       # transfers); each enters theirs on their own pod, where it comes first
                       {"label": _("room: all give 1 left, pass"),
                        "action": {**room, "pass_left": True, "then": "pass"}, "group": "others"},
                       {"label": _("room: all give 1 left, again"),
                        "action": {**room, "pass_left": True, "then": "again"}, "group": "others"},
                       # the room's player draws 2 and every other one 1 (a tenth reader's «Almacén Olvidado», four
                       # times: a room entered through the menu with its draws, 15–22 presses each)
                       {"label": _("2 + others 1: pass"), "action": {**two, "others": 1, "then": "pass"},
                        "ask": ["value", "second"], "group": "others"},
                       {"label": _("2 + others 1: again"), "action": {**two, "others": 1, "then": "again"},
                        "ask": ["value", "second"], "group": "others"},
                       # every player, the room's own too, draws one, each on their own pod (a ninth reader's «Sala de
                       # los ecos», five times: the room's player's own card through the menu's draw, 8–10 presses)
                       {"label": _("room: each draws 1, pass"), "action": {**room, "everyone": 1, "then": "pass"},
                        "group": "others"},
                       {"label": _("room: each draws 1, again"), "action": {**room, "everyone": 1, "then": "again"},
                        "group": "others"},
                       {"label": _("room: others draw 1, pass"), "action": {**room, "others": 1, "then": "pass"},
                        "group": "others"},
                       {"label": _("room: others draw 1, again"), "action": {**room, "others": 1, "then": "again"},
                        "group": "others"}]
        if p["cards"] or p["unknown"]:
            # The card a player parts with is the cheapest treasure they hold (a 1 while some are not
            # known: the player's word for an unseen card; a potion or talisman, worth 0, is kept), each
            # icon its own offer: one press, nothing to ask.
            usual = min([v for v in p["cards"] if v > 0] + ([1] if p["unknown"] else []), default=min(p["cards"] or [1]))
            out += [
                {"label": _("room: discard {value}, pass", value=usual),
                 "action": {**room, "discard": [usual], "then": "pass"}},
                {"label": _("room: discard {value}, again", value=usual),
                 "action": {**room, "discard": [usual], "then": "again"}},
                {"label": _("room: discard {value}, go on", value=usual),
                 "action": {**room, "discard": [usual], "then": "go_on"}},
                {"label": _("room: give {value} left, pass", value=usual),
                 "action": {**room, "give": usual, "then": "pass"}},
                {"label": _("room: give {value} left, again", value=usual),
                 "action": {**room, "give": usual, "then": "again"}},
            ]
            out += two_treasures
            cheapest = _cheapest_held(p)
            out.append({"label": word("label", "room: discard"), "action": {**room, "discard": [cheapest]},
                        "ask": ["discard", "then"]})
            out.append({"label": word("label", "room: give left"), "action": {**room, "give": cheapest},
                        "ask": ["give", "then"]})
            # a card of the player's choice: each other value held, as hide and cry offer them (a third
            # rulebook reader's player kept her 1 and discarded a 2: 11 presses through the steps)
            for v in sorted(set(p["cards"]) - {usual}):
                out += [{"label": _("room: discard {value}, pass", value=v),
                         "action": {**room, "discard": [v], "then": "pass"}},
                        {"label": _("room: discard {value}, again", value=v),
                         "action": {**room, "discard": [v], "then": "again"}},
                        # a pit whose card loses one and sends its player on (a rulebook reader's «Foso», three times
                        # in a story, the card the player on the left drew blind: 11 presses through the menu)
                        {"label": _("room: discard {value}, go on", value=v),
                         "action": {**room, "discard": [v], "then": "go_on"}}]
                given += [{"label": _("room: give {value} left, pass", value=v),
                           "action": {**room, "give": v, "then": "pass"}},
                          {"label": _("room: give {value} left, again", value=v),
                           "action": {**room, "give": v, "then": "again"}}]
        else:
            out += two_treasures
        if p["counters"]["wounds"] == 1:  # an injured player: a room that heals (a fifth reader's chapel)
            out += [{"label": _("room: healed, pass"), "action": {**room, "heal": True, "then": "pass"}},
                    {"label": _("room: healed, again"), "action": {**room, "heal": True, "then": "again"}}]
        # each other value held given to the left, last of the rooms (the rarest: a play-tester's trap room took a
        # potion worth 0, 14 presses, when the offers had its discard and not its gift; put before the two
        # treasures, these lines sent the next tester's held press past them)
        return out + given + others

    @staticmethod
    def _cards_in_turn(p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """«Puedes jugar tantas pociones y talismanes como quieras en cualquier momento durante tu propio
        turno»: a potion by its value in hand (from the cheapest card; 0 when the device does not know
        every card), then the card it makes you draw ("–" for none), and for an injured player first a
        healing potion; a talisman, one offer per value held,
        the cheapest last (at the end of the list: the first up from the offers' start), and, when the
        device does not know every card, one that asks the value (from 0)."""
        if not p["cards"] and not p["unknown"]:
            return []
        # a potion that draws two treasure cards (a rulebook reader's potion of fortune: 11 presses as a
        # potion, then a draw), both values asked; before the plain potion, which stays as near the end
        out = [offer(word("label", "potion: draw 2"),
                     {"action": "play", **me, "value": _cheapest_held(p), "draw": 0, "second": 0},
                     ask=["value", "draw", "second"]),
               offer(word("label", "potion"), {"action": "play", **me, "value": _cheapest_held(p)},
                     ask=["value", "draw"])]
        if p["counters"]["wounds"] == 1:  # injured: a healing potion, its effect with it
            out.insert(1, {"label": word("label", "potion: heal"),
                           "action": {"action": "play", **me, "value": _cheapest_held(p), "heal": True},
                           "ask": ["value"]})
        if p["unknown"]:
            # from 0: a talisman is most often worth nothing (both rulebook readers' stories priced theirs 0)
            out.append({"label": word("label", "talisman"), "action": {"action": "talisman", **me, "value": 0},
                        "ask": ["value"]})
        for v in sorted(set(p["cards"]), reverse=True):
            out.append({"label": _("talisman: {value}", value=v), "action": {"action": "talisman", **me, "value": v}})
        return out

    @staticmethod
    def _discards(kind: str, p: dict[str, Any], at_least: int, me: dict[str, str]) -> list[Offer]:
        """Hide or cry with nothing to ask: the cheapest cards first, then each other single card that is
        enough (to keep a potion or a talisman). A hide asks the die: a physical d10's face, or "–" and the
        device rolls it (every hide of the rulebook readers' stories, 25 of 25, rolled the table's die, and
        a play-tester's first hide offers rolled the device's, which did not match it). When the device does
        not know every card, the cheapest is one card worth just enough (a 1 to hide, a 2 to cry): the
        likeliest, and the player's word that the hand holds it."""
        cards = p["cards"]
        cheapest = _cheapest(cards, at_least)
        if p["unknown"] and (cheapest is None or sum(cheapest) > at_least):
            cheapest = [at_least]
        if cheapest is None:
            return []
        picks = [cheapest] + [[v] for v in sorted(set(cards)) if v >= at_least and [v] != cheapest]
        # as cheap in smaller cards (1+1 for a 2: the higher card kept for a tie's count), next to it
        smaller = _cheapest([c for c in cards if c < max(cheapest)], at_least)
        if smaller is not None and sum(smaller) == sum(cheapest) and smaller not in picks:
            picks.insert(1, smaller)
        out: list[Offer] = []
        for pick in picks:
            cards_ = "+".join(map(str, pick))
            label = _("hide: discard {cards}", cards=cards_) if kind == "hide" else _("cry: discard {cards}",
                                                                                      cards=cards_)
            offer: Offer = {"label": label, "action": {"action": kind, **me, "discard": pick}}
            if kind == "hide":
                offer["ask"] = ["roll"]
            out.append(offer)
        return out

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        turn = state["turn"]
        p = next(p for p in state["players"] if p["name"] == name)
        if state["over"] or p["out"]:
            return []
        me = {"player": name}
        out: list[Offer] = []
        if name in state["to_deal"]:
            # «Baraja las cartas del tesoro y distribuye 4 a cada jugador»: each player may enter their own
            # hand (a main at the first value: not entered); the first move of the game deals the rest unseen.
            out.append({"label": word("label", "enter your cards"), "action": {"action": "deal", **me},
                        "ask": ["values"]})
        if turn["phase"] == "count":
            return self._count_offers(state, p, me)
        if name in (state.get("to_draw") or {}):
            # the card a room made this player draw, first on their pod whoever's turn it is (a tester searched the
            # active player's 44 lines for a «Sala del eco»), by its value: one press for a 0, two for another (a
            # seventh rulebook reader's echo rooms were 11 presses, each card opened, stepped to and entered); then
            # any value asked, or "–" for a card drawn unseen
            drawn: list[Offer] = [{"label": _("card drawn: {value}", value=v),
                                   "action": {"action": "draw", **me, "value": v}} for v in DRAWN_VALUES]
            drawn.append({"label": word("label", "draw the room's card"), "action": {"action": "draw", **me},
                          "ask": ["value"]})
            out[0:0] = drawn
        if name in (state.get("to_discard") or {}):
            out[0:0] = _owed_discards(p, me)
        if name in (state.get("to_pass") or {}):
            out[0:0] = _owed_passes(p, me)
        if turn["player"] != name:
            if turn["phase"] == "deal":
                return out
            # «Solo la poción de anulación se puede jugar durante el turno de otro jugador (para cancelar una
            # poción)»: offered only right after another player's potion.
            if (not p["cards"] and not p["unknown"]) or not _potion_to_cancel(state, name):
                return out
            return out + [{"label": word("label", "cancel potion"),
                     "action": {"action": "play", **me, "value": _cheapest_held(p), "cancel": True},
                     "ask": ["value"]}]
        if name in state["to_deal"]:  # the first move deals this hand unseen: offer as for 4 unknown cards
            p = {**p, "unknown": p["unknown"] + HAND_SIZE}
        return _grouped(out + self._turn_offers(state, p, me))

    @staticmethod
    def _count_offers(state: dict[str, Any], p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """«Los jugadores cuentan las monedas de oro en sus cartas del tesoro»: the hand's total, from what
        the device knows of it; for a tie it cannot settle, the highest card, from the least it can be."""
        if p["name"] not in state["to_count"]:
            return []
        if p["unknown_worth"] is None:
            return [{"label": word("label", "count your hand"),
                     "action": {"action": "count", **me, "total": sum(p["cards"])}, "ask": ["total"]}]
        return [{"label": word("label", "your highest card"),
                 "action": {"action": "count", **me, "highest": _highest_range(p)[0]}, "ask": ["highest"]}]

    def _turn_offers(self, state: dict[str, Any], p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
        """The active player's offers in the turn's phase (the deal's first move: as at a turn's start)."""
        phase = state["turn"]["phase"]
        charge = self._charges(state, p, me)
        rooms = self._treasure_rooms(state, me)
        if charge and state["discard"]["other"] < other_rooms(self.options):
            # a room whose card says "draw again or stop" (both rulebook readers' corridors), going on: the
            # charge without its icon, the next charge offered at once; after the rooms that give a card,
            # so that the hides and the treasure hall stay where they were
            rooms = rooms + [{"label": word("label", "other room: go on"),
                              "action": {"action": "charge", **me, "location": "other"}}]
        effects = _with_wounding_potions(self._room_effect_offers(state, p, me), state, p, me)
        cards = self._cards_in_turn(p, me)
        pass_: Offer = {"label": word("label", "pass"), "action": {"action": "pass", **me}}
        again: Offer = {"label": word("label", "another turn"), "action": {"action": "again", **me}}
        # «no roll can escape» with 9 or 10 location cards left: hiding then only costs treasure.
        can_hide = state["table"]["dungeon"] < DIE_FACES - 1
        if phase == "must_charge":
            return charge + rooms + effects + cards
        if phase == "escaped":
            return [pass_] + charge + rooms + effects + cards
        if phase == "after_location":
            # a room whose card says "draw again" (`other room: go on`, the one routine charge without its
            # icon): the next charge first, as a play-tester expected; then pass and another turn (the
            # treasure hall's choice when it came from the menu), pass where a turn's start has its first hide
            # and another turn after the rooms, so that the rooms are where they were (a play-tester's held
            # press for "room + treasure: pass…" landed on a pass that had not been there); with no hide at a turn's
            # start (9 or 10 location cards left), pass after the rooms (two play-testers' held presses stopped on a
            # pass where their room had been)
            if can_hide:
                return charge + [pass_] + rooms + [again] + effects + cards
            return charge + rooms + [pass_, again] + effects + cards
        hides = self._discards("hide", p, 1, me) if can_hide else []
        cries = self._discards("cry", p, 2, me)
        # the dragon with a talisman that takes its breath after the hides: a line of its own while one is in play
        # shifted every line below the dragon (a play-tester's held press for the hide stopped on a room, charged; the
        # stories' dragons: 20 without such a talisman, 2 with)
        saves = [o for o in charge if o["action"].get("talisman") is not None]
        charge = [o for o in charge if o["action"].get("talisman") is None]
        out = charge + hides[:1] + rooms + hides[1:]
        if hides:
            # Other cards, or a physical die: the cards start from the cheapest, the die at "–" (the device rolls).
            out.append({"label": word("label", "hide"), "action": {"action": "hide", "discard": hides[0]["action"][
                "discard"], **me}, "ask": ["discard", "roll"]})
        out += saves
        out += effects  # a room whose card moves treasure cards, after the hides
        near, far = self._power_offers(state, p, me) if p["power"] == "ready" else ([], [])
        out += far  # the power's other effects, before the cards: reached up past them
        # From here on, reached with up (the list wraps): the last offers are the first ones up. The potions
        # first up past the power (the rulebook stories played 17 potions, 11 talismans; a play-tester's potion
        # was 31st of 46, behind five talisman lines and four cries), then the talismans (one line per value
        # held, the 0 first up) before the cries: a play-tester's "talisman: 0" sat past every cry line, as many
        # as the hand made, and a held press could not be aimed at it.
        talismans = [o for o in cards if o["action"]["action"] == "talisman"]
        if cries:
            out.append({"label": word("label", "cry"), "action": {"action": "cry", "discard": cries[0]["action"][
                "discard"], **me}, "ask": ["discard"]})
            out += cries[::-1]
        out += talismans
        out += [o for o in cards if o["action"]["action"] != "talisman"]
        # «Al comienzo de cada turno, ANTES de elegir su acción obligatoria»: the power last, one press up
        # (the effect this character used before, when there was one; the plain power next to it).
        out += near[::-1]
        return out

    @staticmethod
    def _power_offers(state: dict[str, Any], p: dict[str, Any], me: dict[str, str]
                      ) -> tuple[list[Offer], list[Offer]]:
        """The power with each effect a character card may have (a card taken from another hand, a card
        drawn, a heal) and plain (an effect that moves no card: a look at the dungeon): (the nearest
        offers, the other effects). «Cada personaje tiene un poder único»: once a player used theirs, its
        effect is the only one offered; before (the device is not told the characters' powers) every
        effect, the plain power farthest, so that the nearest offer is never a power spent for nothing."""
        # a hand the first move deals unseen holds its 4 cards already (a play-tester's Rogue found no
        # steal before the game's first move)
        # the hands from your left on, as the docs say (a play-tester's Ben and Cai found Ana's first)
        others = [q for q in players_from_left(state, p["name"])
                  if q["cards"] or q["unknown"] or q["name"] in state["to_deal"]]
        take = [offer(_("power: a card from {name}", name=q["name"]),
                      {"action": "power", **me, "take_from": q["name"],
                       "value": 0 if q["name"] in state["to_deal"] else _cheapest_held(q)}, ask=["value"])
                for q in others]
        draw = [offer(_("power: draw a card"), {"action": "power", **me, "draw": True, "value": 1}, ask=["value"])]
        if state["treasure_deck"]["discard"]:  # the treasure discard's top card (a ninth reader's Mago, three times)
            draw.append(offer(_("power: discard's top card"),
                              {"action": "power", **me, "draw": True, "value": 0, "from_discard": True}, ask=["value"]))
        swap = [offer(_("power: discard, draw"), {"action": "power", **me, "draw": True, "value": 1,
                                                  "discard": _cheapest_held(p)}, ask=["discard", "value"])
                ] if p["cards"] or p["unknown"] else []
        # oneself first (a play-tester's Cleric, injured beside Ana, met "heal Ana" first up)
        healable = sorted((q for q in state["players"] if not q["out"] and q["counters"]["wounds"] == 1),
                          key=lambda q: q["name"] != p["name"])
        heal = [offer(_("power: heal {name}", name=q["name"]), {"action": "power", **me, "heal": q["name"]})
                for q in healable]
        plain: list[Offer] = [{"label": word("label", "power"), "action": {"action": "power", **me}}]
        kinds = {"take": take, "draw": draw, "swap": swap, "heal": heal, "plain": plain}
        known = p.get("power_kind")
        if known == "swap" and p["cards"]:
            # once the card showed it swaps: a line per value held to discard, the cheapest nearest, only the card
            # drawn asked (a play-tester's Mercader took 5 presses a turn, the dearest routine event of the round);
            # the line asking both while some cards are not known
            kinds["swap"] = [offer(_("power: discard {value}, draw", value=v),
                                   {"action": "power", **me, "draw": True, "value": 1, "discard": v}, ask=["value"])
                             for v in sorted(set(p["cards"]))] + (swap if p["unknown"] else [])
        if known in kinds:
            return kinds[known], []
        order = ["take", "draw", "swap", "heal", "plain"]
        guessed = guessed_power(p.get("character"))
        order = [k for k in guessed if k in order] + [k for k in order if k not in guessed]
        return [o for k in order for o in kinds[k]], []

    def pod_value_words(self, state: dict[str, Any], name: str, action: str, field: str, value: Any,
                        entered: dict[str, Any] | None = None) -> Msg | None:
        """A power that swaps a card: which number is which ("discard: the card's value", "value: the
        card drawn"; a play-tester could not tell a count from a value, nor whose value the second was); a
        hide's roll with a talisman in play: the total ("die + a card's bonus")."""
        if action == "power" and entered is not None and entered.get("discard") is not None:
            if field == "discard":
                return _("the card's value")
            if field == "value":
                return _("the card drawn")
        if action == "hide" and field == "roll" and value is not None:
            # with a talisman in play the escape test's number is the die and what a card adds (a play-tester
            # entered the talisman's +2 only because the manual said so: the step said nothing)
            p = next(p for p in state["players"] if p["name"] == name)
            if p["talismans"]:
                return _("die + a card's bonus")
        return None

    def pod_actions(self, state: dict[str, Any], name: str) -> list[str]:
        """The cards played during a turn first (a potion, a talisman, a card drawn), then the rest; only
        what this seat may do now: the turn's actions on the active player's pod, a potion (the cancel
        potion) on the others', nothing of the game's own for the dead, the deal while hands are missing."""
        rest = super().pod_actions(state, name)
        p = next(p for p in state["players"] if p["name"] == name)
        turn = state["turn"]
        drop = set()
        if p["out"]:
            drop |= set(self.actions) - GENERIC
        elif turn["player"] != name or state["over"]:
            drop |= TURN_ONLY
            if not _potion_to_cancel(state, name):
                drop.add("play")  # a cancel potion with no potion to cancel: not on this pod now
        if not state["to_deal"]:
            drop.add("deal")
        if turn["phase"] == "count":  # the final count waits for nothing else
            drop |= set(self.actions) - {"count"}
        own = [n for n in POD_ORDER if n in rest and n not in drop]
        out = own + [n for n in rest if n not in own and n not in drop and n != "count"]
        return out + ["count"] if "count" in rest and "count" not in drop else out  # the end's, last

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field,
                  given: dict[str, Any] | None = None) -> Field | None:
        """A potion's or talisman's value steps through the values in hand; the room's icon ("then") is
        given by the routine items (asked in the generic charge it would come after the treasure hall's
        value, which is all a treasure hall needs before its own pass or another turn)."""
        if action == "charge" and field.name in ("then", "talisman"):
            return None  # the talisman that takes the dragon's breath: its own offer, while one is in play
        if action == "room" and field.name == "then":
            # the icon, asked last: pass first, then another turn, then go on, a card whose icon sends its player
            # on to the next charge (a rulebook reader's pit: a card lost, then charge again: 24 and 40 presses through
            # "other room: go on" and the menu's discard, when the step had only pass and another turn)
            return Str("then", choices=ROOM_ICONS, doc=field.doc)
        if action == "play" and field.name in ("draw", "second", "heal", "wound") and state["turn"]["player"] != name:
            return None  # the cancel potion, the only one on another player's turn, makes nobody draw, heal or wound
        # a card of a hand the device knows whole goes through the values that hand holds: your own potion's or
        # talisman's, and a card taken from another hand (a play-tester's steal of Ben's 5 went 1, 2, 3, 4, 5
        # through values Ben did not hold)
        whose = name if (action, field.name) in HELD_VALUES else (
            (given or {}).get("take_from") if (action, field.name) == ("power", "value") else None)
        if whose is not None:
            p = next(p for p in state["players"] if p["name"] == whose)
            if p["cards"] and not p["unknown"]:
                held = tuple(sorted(set(p["cards"])))
                return Field(field.name, "int", True, None, held, held[0], held[-1], doc=field.doc)
        return super().pod_field(state, name, action, field, given)


def _with_wounding_potions(effects: list[Offer], state: dict[str, Any], p: dict[str, Any], me: dict[str, str]
                           ) -> list[Offer]:
    """A potion that wounds another, unhurt, adventurer (a rulebook reader's «Poción de fuego»: 12 presses as a
    potion and a correction), one line each from the left, only the potion's value asked: with the rooms that act on
    the other players (their select stop's first lines), not among the potions, where three lines more stood
    between the power and every talisman and cry of every table (the eighth set's stories played it twice)."""
    if not p["cards"] and not p["unknown"]:
        return effects
    hurts = [offer(_("potion: wound {name}", name=q["name"]),
                   {"action": "play", **me, "value": _cheapest_held(p), "wound": q["name"]}, ask=["value"])
             for q in players_from_left(state, me["player"]) if q["counters"]["wounds"] == 0]
    for item in hurts:
        item["group"] = "others"
    i = next((k for k, o in enumerate(effects) if o.get("group") == "others"), len(effects))
    return effects[:i] + hurts + effects[i:]


def _left_of(state: dict[str, Any], name: str) -> str | None:
    """The next adventurer still in on ``name``'s left, None when nobody else is."""
    left = players_from_left(state, name)
    return str(left[0]["name"]) if left else None


def _owed_passes(p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
    """The card of their choice a room made this player pass to the left, first on their pod whoever's turn it is:
    each value held, the least worth first (a ninth rulebook reader's «Cripta»: a potion or a talisman, worth 0,
    in five passes of six, else a 2), then, while some cards are not known, the card asked."""
    out: list[Offer] = [{"label": _("card passed left: {value}", value=v),
                         "action": {"action": "give_left", **me, "value": v}} for v in sorted(set(p["cards"]))]
    if p["unknown"]:
        out.append({"label": word("label", "pass the room's card"),
                    "action": {"action": "give_left", **me, "value": _cheapest_held(p)}, "ask": ["value"]})
    return out


def _owed_discards(p: dict[str, Any], me: dict[str, str]) -> list[Offer]:
    """The card of their choice another's room made this player discard, first on their pod whoever's turn it
    is: each value held, the cheapest worth something first (the rulebook reader's bats took a 1, a 1, a 2 and
    a 4), a potion's or talisman's 0 last; then, while some cards are not known, the card asked."""
    held = sorted(set(p["cards"]), key=lambda v: (v == 0, v))
    out: list[Offer] = [{"label": _("card discarded: {value}", value=v),
                         "action": {"action": "discard", **me, "values": [v]}} for v in held]
    if p["unknown"]:
        out.append({"label": word("label", "discard the room's card"),
                    "action": {"action": "discard", **me, "values": [_cheapest_held(p)]}, "ask": ["values"]})
    return out


def _potion_to_cancel(state: dict[str, Any], name: str) -> bool:
    """Whether another player's potion was just played (the last move), so ``name`` may cancel it."""
    played = state["turn"].get("potion")
    return played is not None and played != name


def _cheapest_held(p: dict[str, Any]) -> int:
    """The cheapest card the hand may hold: its least known value, 0 when some values are unknown."""
    return 0 if p["unknown"] else min(p["cards"])
