"""Dale of Merchants' table: its numbers, the market prices, payments and stall stacks as pure rules, the
setup, and what every action builds on (whose turn and the actions left, the piles, the market's cells,
the clean-up)."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, SetupError
from ...game import Game
from ...messages import N_, Msg, _, listing, word
from ...spec import Counter, Option
from ...state import Args, Txn, players_from_left
from .piles import JUNK, TABLE_PILES
from .piles import MARKET_SLOTS as MARKET_SLOTS  # the market's places: the rules' parts read them here
from .piles import slot_position as slot_position
from .words import _decks, _sum_words

#: The six animal decks of the base box (Componentes).
BASE_DECKS = ("macaws", "pandas", "raccoons", "squirrels", "ocelots", "chameleons")
HAND_SIZE = 5  # Fase de limpieza 1: draw back up to 5
#: The player's piles a clean-up's refill changes (kept to tell it again: see ``refill``).
REFILL_PILES = ("hand", "deck", "discard")
STARTING_DECK = 10  # Preparar 1: one value-1 card per deck plus junk to 10
STALL_STACKS = 8  # Fin del juego: the 8th stack wins
MAX_VALUE = 20  # printed values are 1–5; effects may raise them a little

#: Where a played technique card goes once its effects are resolved (the ``technique`` action's "to"):
#: its owner's discard pile, or thrown away ("away"): an animal card thrown away goes to the market discard.
PLAYED_TO = {"discard": "discard", "away": "market_discard"}


def takeable(counters: dict[str, int], pile: str) -> int:
    """How many cards a card effect can take from a player's ``pile``: their hand's, their discard pile's (its top
    card), their deck's with the discard pile reshuffled into it when it runs out (Fase de limpieza 1)."""
    return counters["hand"] if pile == "hand" else counters["discard"] + (counters["deck"] if pile == "deck" else 0)


def others_from_left(state: dict[str, Any], name: str) -> list[str]:
    """Every other player, from ``name``'s left on: their names."""
    return [q["name"] for q in players_from_left(state, name)]


def position_slot(position: int) -> int:
    """The market slot (surcharge) of the card at ``position`` counted from the left (1 = leftmost = +4)."""
    return MARKET_SLOTS - position


# -- the rules as pure functions (also used by the UI without a journal) --------
def where(slot: int) -> Msg:
    """A market slot as the players see it: its surcharge and its place counted from the left."""
    return _("+{slot} (position {position} from the left)", slot=slot, position=slot_position(slot))


def slot_price(slot: int, value: int) -> int:
    """The price of a card of ``value`` in market ``slot`` (0 = rightmost, +0 … 4 = leftmost, +4)."""
    return value + slot


def refill_piles(state: dict[str, Any], who: str) -> dict[str, int]:
    """``who``'s piles a clean-up's refill changes, as they are now."""
    counters = next(p for p in state["players"] if p["name"] == who)["counters"]
    return {k: counters[k] for k in REFILL_PILES}


def open_refill(state: dict[str, Any], who: str) -> dict[str, Any] | None:
    """The last clean-up's refill if it is ``who``'s and may still be told again (``refill``): that player's
    piles are as it left them."""
    last: dict[str, Any] | None = state.get("refill")
    if not last or last["player"] != who or refill_piles(state, who) != last["after"]:
        return None
    return last


def payment_ok(price: int, paid: list[int] | tuple[int, ...]) -> bool:
    """Whether the card values ``paid`` may buy a card costing ``price``: the rule :func:`payment_verdict`
    words (the pods weigh thousands of payments a press, without the words).

    Acción de mercado, Nota: overpaying is allowed only when you cannot pay
    less with the cards you pay with, i.e. the surplus must be smaller than the
    value of every card used.
    """
    surplus = sum(paid) - price
    return surplus >= 0 and (not paid or surplus < min(paid))


def payment_verdict(price: int, paid: list[int]) -> tuple[bool, str]:
    """Whether the card values ``paid`` may buy a card costing ``price`` (:func:`payment_ok`), and why."""
    ok = payment_ok(price, paid)
    total = sum(paid)
    shown = _sum_words(paid)
    if total < price:
        return False, _("{paid} does not cover the price {price} ({short} short)", paid=shown, price=price,
                        short=price - total)
    surplus = total - price
    if paid:
        smallest = min(paid)
        if not ok:
            return False, _("{paid} overpays the price {price} by {surplus}, so a {smallest} is not needed: "
                            "the surplus must be smaller than every card used", paid=shown, price=price,
                            surplus=surplus, smallest=smallest)
        if surplus:
            return True, _("{paid} pays the price {price}, overpaying by {surplus} "
                           "(less than the smallest card used, {smallest})", paid=shown, price=price,
                           surplus=surplus, smallest=smallest)
    return True, _("{paid} pays the price {price} exactly", paid=shown, price=price)


def stack_verdict(number: int, sets: list[str], values: list[int], decks: list[str], junk: int = 0
                  ) -> tuple[bool, str]:
    """Whether cards of these ``sets`` and ``values`` make stall stack ``number``, and why.

    Acción de puesto: stack n totals exactly n, its cards all come from one
    animal set in play, and junk is never part of a stall — but where an animal's
    power lets ``junk`` cards in, each worth 1 («algunos animales pueden salirse con
    la suya con un poco de basura en su puesto»), beside one animal card at least.
    """
    if not values:
        return False, _("a stack needs at least one card") if not junk else _(
            "a stack needs at least one animal card: junk goes in only beside one")
    if JUNK in sets:
        return False, _("junk cannot go into a stall: a stack is made of animal cards only")
    unknown = [s for s in dict.fromkeys(sets) if s not in decks]
    if unknown:
        return False, _("{deck!r} is not an animal deck in play ({decks})", deck=unknown[0], decks=_decks(decks))
    kinds = list(dict.fromkeys(sets))
    if len(kinds) > 1:
        both = _(" and ")
        return False, _("a stack is cards of one animal set, not {sets}", sets=_decks(kinds, both))
    total = sum(values) + junk
    if total != number:
        return False, _("stack {number} must total exactly {number}, not {values}", number=number,
                        values=_sum_words(values + [1] * junk))
    return True, _("stack {number}: {deck} {values}", number=number, deck=word("deck", kinds[0]),
                   values=_sum_words(values))


def _check_names(value: list[Any]) -> None:
    if not all(isinstance(v, str) and v.strip() for v in value):
        raise SetupError(_("animal decks are given by name, not {value!r}", value=value))
    if len(set(value)) != len(value):
        raise SetupError(_("an animal deck is named twice"))
    if JUNK in value:
        raise SetupError(_("junk is not an animal deck"))


class DaleOfMerchantsTable(Game):
    """The game's numbers and setup, and the helpers its actions share."""

    id = "dale-of-merchants"
    title = "Dale of Merchants"
    #: The game's BoardGameGeek id (play logs; ``[app.bgg]`` in the config file overrides it).
    bgg_id = 176165
    min_players = 2
    max_players = 4
    icons = {"stall": "store", "hand": "hand", "deck": "layer-group", "discard": "trash", "actions": "bolt",
             "market_deck": "box-archive", "market_discard": "recycle"}
    options_spec = (
        Option("decks", [], _("the animal decks in play: players + 1 names from the box; empty (default): "
               "choose or draw them at random with the draw_decks action"), kind=list, check=_check_names,
               pick_from="box"),
        Option("box", list(BASE_DECKS), _("the animal decks you own; draw_decks picks from these"),
               kind=list, check=_check_names),
        Option("say_clean_up", False, _("true: the pods' and the touchscreen's actions never clean up by "
               "themselves; the player says end turn after the turn's last action (for tables that prefer to)")),
        Option("effect_draws_junk", False, _("true: a card effect that draws when the player's deck and discard "
               "pile are both empty draws junk from the junk pile, as the clean-up does (for tables that read "
               "«saca las cartas basura de la pila basura» for every draw); false (default): as many as there are "
               "(«realice la acción con la cantidad máxima»)")),
        Option("market_cards_per_deck", 11, _("cards each animal deck in play adds to the market deck: "
               "its cards valued 2–5 (15 cards less the four valued 1 in the base box)"), lo=1, hi=60),
    )

    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        need = len(self.players) + 1
        box, decks = self.options["box"], self.options["decks"]
        if len(box) < need:
            raise SetupError(_("{players} players need {need} animal decks, but the box lists only {box}",
                               players=len(self.players), need=need, box=len(box)))
        if decks:
            missing = [d for d in decks if d not in box]
            if missing:
                raise SetupError(_("{deck!r} is not a deck of the box ({box})", deck=missing[0], box=_decks(box)))
            if len(decks) != need:
                raise SetupError(_("{players} players play with {need} animal decks (players + 1), not {given}",
                                   players=len(self.players), need=need, given=len(decks)))

    # -- counters ------------------------------------------------------------
    def player_counter_specs(self) -> list[Counter]:
        return [
            Counter("stall", 0, lo=0, hi=STALL_STACKS, free=False, doc=_("stacks built in the stall; the 8th wins")),
            Counter("hand", HAND_SIZE, free=False, doc=_("cards in hand")),
            Counter("deck", STARTING_DECK - HAND_SIZE, free=False, doc=_("cards in the player's deck")),
            Counter("discard", 0, free=False, doc=_("cards in the player's discard pile")),
        ]

    def table_counter_specs(self) -> list[Counter]:
        return [
            Counter("actions", 1, free=False, doc=_("actions left this turn (a bonus-action technique adds one)")),
            Counter("market_deck", lambda n, o: max(0, self._market_total(n, o) - MARKET_SLOTS), free=False,
                    doc=_("cards in the market deck")),
            Counter("market_discard", 0, free=False, doc=_("cards in the market discard pile")),
        ]

    @staticmethod
    def _market_total(n_players: int, options: dict[str, Any]) -> int:
        # Preparar 2: the decks' cards other than the value-1 ones form the market deck.
        per_deck: int = options["market_cards_per_deck"]
        return (n_players + 1) * per_deck

    def setup_extra(self, state: dict[str, Any]) -> None:
        dealt = min(MARKET_SLOTS, self._market_total(len(self.players), self.options))
        state["decks"] = list(self.options["decks"])
        # Index = slot = surcharge; Preparar 3 deals the market right to left.
        state["market"] = [{"card": slot < dealt, "value": None} for slot in range(MARKET_SLOTS)]
        # "taken": the values of the market cards the player took into the hand this turn.
        # "played": where each technique card played this turn goes once its effects are resolved
        # (Acción técnica: "La carta de técnica jugada va a la pila de descartes después de que se
        # hayan resuelto sus efectos"); "techniques"/"bonuses": techniques played, bonus actions granted.
        # "alone": the last action was a technique entered without its effect (they are entered next).
        state["turn"] = {"player": self.players[0], "number": 1, "actions_taken": 0, "played": [],
                         "techniques": 0, "bonuses": 0, "taken": [], "alone": False}
        state["payment_check"] = None
        # The last clean-up's refill of the hand, while it may still be told otherwise (``refill``).
        state["refill"] = None
        for p in state["players"]:
            p["stacks"] = []
            # The values above 1 of the cards the device saw this player gain (bought, taken from the
            # market) and not leave (built into a stack): the pod offers payments made of these and
            # junk. Cards thrown away or taken by a card effect are not followed.
            p["known"] = []

    # -- whose turn, and its actions ------------------------------------------------
    @staticmethod
    def _need_decks(t: Txn) -> None:
        if not t.state["decks"]:
            raise RuleError(_('choose the animal decks first: {example} draws them at random, or give them as "decks"',
                              example='{"action": "draw_decks"}'))

    def _active(self, t: Txn, a: Args) -> str:
        """The player whose turn it is; a "player" field, if given, must name them."""
        self._need_decks(t)
        active = t.state["turn"]["player"]
        who = a.player("player", active)
        if who != active:
            raise RuleError(_("it is {active}'s turn, not {who}'s", active=active, who=who))
        return who

    @staticmethod
    def _check_action_left(t: Txn, who: str) -> None:
        if t.get(None, "actions") < 1:
            turn = t.state["turn"]
            if turn["techniques"] > turn["bonuses"]:
                raise RuleError(_("{who} has no action left this turn: end the turn (end_turn); if the technique "
                                  "played shows the bonus-action icon, add its action first ({example})", who=who,
                                  example='{"action": "adjust", "counter": "actions", "delta": 1}'))
            raise RuleError(_("{who} has no action left this turn: end the turn (end_turn)", who=who))

    def _spend_action(self, t: Txn, who: str) -> None:
        """A turn action begins: the techniques played before it are resolved (their cards go where they
        go), and it spends one action."""
        self._resolve_played(t, who)
        t.add(None, "actions", -1)
        t.state["turn"]["actions_taken"] += 1

    @staticmethod
    def _resolve_played(t: Txn, who: str) -> None:
        """Acción técnica: the technique cards played go to the discard pile once their effects are
        resolved, which is the moment the player takes another action or cleans up. A card thrown
        away ("away") goes to the market discard ("las cartas de animales en la pila de descarte del
        mercado")."""
        played = t.state["turn"]["played"]
        for to in played:
            pile = PLAYED_TO[to]
            t.add(None if pile in TABLE_PILES else who, pile, 1)
        if played:
            piles = listing(word("pile", PLAYED_TO[to]) for to in dict.fromkeys(played))
            t.event(N_("the technique played goes to {piles}", "the {n} techniques played go to {piles}",
                       len(played), piles=piles))
        t.state["turn"]["played"] = []
        t.state["turn"]["alone"] = False

    # -- the piles -------------------------------------------------------------------
    @staticmethod
    def _reshuffle(t: Txn, who: str) -> bool:
        """Fase de limpieza 1: "Cada vez que tu mazo se agote y tú o cualquier otra persona necesite sacar
        nuevas cartas de él, baraja tu pila de descarte": an empty deck takes the discard pile. True if it did."""
        n = t.get(who, "discard")
        if t.get(who, "deck") or not n:
            return False
        t.set(who, "discard", 0)
        t.set(who, "deck", n)
        t.event(N_("{who} shuffles the discard pile ({n} card) into a new deck",
                   "{who} shuffles the discard pile ({n} cards) into a new deck", n, who=who))
        return True

    def _from_deck(self, t: Txn, who: str, count: int) -> int:
        """Take up to ``count`` cards from the top of ``who``'s deck, reshuffling the discard pile when the
        deck runs out; returns how many there were (Acción técnica, Nota: "realice la acción con la
        cantidad máxima de cartas")."""
        taken = 0
        while taken < count:
            self._reshuffle(t, who)
            have = t.get(who, "deck")
            if not have:
                break
            step = min(have, count - taken)
            t.add(who, "deck", -step)
            taken += step
        return taken

    def _move_between(self, t: Txn, owner: str, src: str, who: str, dst: str, count: int) -> None:
        """Acción técnica, Nota («robar, tomar o intercambiar»): ``who`` takes ``count`` cards from
        ``owner``'s ``src`` pile into their own ``dst`` pile (or throws them away), in one action; an
        empty deck takes the owner's reshuffled discard pile first; as many as there are."""
        if src == "deck":
            taken = self._take_from_deck(t, owner, count)
        else:
            have = t.get(owner, src)
            if not have:
                raise RuleError(_("{who} has no card in {pile}", who=owner, pile=word("pile", src)))
            taken = min(have, count)
            if taken < count:
                t.event(_("{who} has only {taken} in {pile}", who=owner, taken=taken, pile=word("pile", src)))
            t.add(owner, src, -taken)
        if dst != JUNK:
            t.add(None if dst in TABLE_PILES else who, dst, taken)
        t.event(N_("{who} takes {n} card from {owner}'s {pile} ({target})",
                   "{who} takes {n} cards from {owner}'s {pile} ({target})", taken, who=who, owner=owner,
                   pile=word("pile", src), target=word("pile", dst)))

    def _take_from_deck(self, t: Txn, who: str, count: int) -> int:
        """``count`` cards off ``who``'s deck for a card effect: reshuffled as needed, as many as there are
        (refused when deck and discard pile are both empty)."""
        if not t.get(who, "deck") and not t.get(who, "discard"):
            raise RuleError(_("{who}'s deck and discard pile are both empty: there is no card to take", who=who))
        taken = self._from_deck(t, who, count)
        if taken < count:
            t.event(_("{who}'s deck and discard pile ran out: only {taken} of {count}", who=who, taken=taken,
                      count=count))
        return taken

    @staticmethod
    def _gain(t: Txn, who: str, value: int | None) -> None:
        """A card of ``value`` joins ``who``'s cards (bought or taken): remembered when above 1."""
        if value is not None and value > 1:
            p = t.player(who)
            p["known"] = sorted(p.get("known", []) + [value], reverse=True)

    @staticmethod
    def _lose(t: Txn, who: str, values: list[int]) -> None:
        """Cards of these ``values`` leave ``who``'s cards (built into a stack)."""
        p = t.player(who)
        known = list(p.get("known", []))
        for v in values:
            if v in known:
                known.remove(v)
        p["known"] = known

    @staticmethod
    def _need_in_hand(t: Txn, who: str, count: int, why: str) -> None:
        have = t.get(who, "hand")
        if count > have:
            if why == "to pay with":
                raise RuleError(N_("{who} has {n} card in hand, not {count} to pay with",
                                   "{who} has {n} cards in hand, not {count} to pay with", have, who=who, count=count))
            if why == "to play":
                raise RuleError(N_("{who} has {n} card in hand, not {count} to play",
                                   "{who} has {n} cards in hand, not {count} to play", have, who=who, count=count))
            if why == "for this stack":
                raise RuleError(N_("{who} has {n} card in hand, not {count} for this stack",
                                   "{who} has {n} cards in hand, not {count} for this stack", have, who=who,
                                   count=count))
            if why == "to give":
                raise RuleError(N_("{who} has {n} card in hand, not {count} to give",
                                   "{who} has {n} cards in hand, not {count} to give", have, who=who, count=count))
            raise RuleError(N_("{who} has {n} card in hand, not {count} to discard",
                               "{who} has {n} cards in hand, not {count} to discard", have, who=who, count=count))

    def _draw(self, t: Txn, who: str, count: int, *, junk: bool) -> tuple[int, int]:
        """Draw ``count`` cards into ``who``'s hand; returns (from the deck, junk).

        An empty deck takes the shuffled discard pile (Fase de limpieza 1). With
        both empty, ``junk`` draws junk from the (unlimited) junk pile; otherwise
        the draw stops there ("realice la acción con la cantidad máxima").
        """
        drawn = junked = 0
        for _step in range(count):
            self._reshuffle(t, who)
            if t.get(who, "deck") > 0:
                t.add(who, "deck", -1)
                drawn += 1
            elif junk:
                junked += 1
            else:
                t.event(_("{who}'s deck and discard pile are empty: only {drawn} of {count} drawn", who=who,
                          drawn=drawn, count=count))
                break
            t.add(who, "hand", 1)
        if junked:
            t.event(_("{who}'s deck and discard pile are empty: {junk} junk from the junk pile", who=who,
                      junk=junked))
        return drawn, junked

    # -- the market and the clean-up ---------------------------------------------------
    def _slot(self, t: Txn, a: Args, *, required: bool = True) -> int | None:
        """The market slot an action names: "slot" (its surcharge: 0 = the rightmost card, +0) or
        "position" (as the players count the board: 1 = the leftmost card, 5 = the rightmost)."""
        slot, position = a.raw("slot", None), a.raw("position", None)
        if slot is not None and position is not None:
            raise RuleError(_('{action}: give either "position" (counted from the left) or "slot" (the surcharge, '
                              'counted from the right), not both', action=a.name))
        if position is not None:
            n = a.int("position", bounded=False)
            if not 1 <= n <= MARKET_SLOTS:
                raise RuleError(_("{action}: positions count the market from the left, 1 (the leftmost card, +4) "
                                  "to 5 (the rightmost, +0), not {n}", action=a.name, n=n))
            return position_slot(n)
        if slot is None:
            if required:
                raise RuleError(_('{action}: which market card? give "position" (1–5 from the left) or "slot" '
                                  '(the surcharge: 0 is the rightmost card)', action=a.name))
            return None
        n = a.int("slot", bounded=False)
        if not 0 <= n < MARKET_SLOTS:
            raise RuleError(_("{action}: slots count the surcharge from the right, 0 (the rightmost card, +0) to "
                              "4 (the leftmost, +4), not {n}; to count from the left give \"position\" 1–5",
                              action=a.name, n=n))
        return n

    @staticmethod
    def _market_cell(t: Txn, slot: int) -> dict[str, Any]:
        cell: dict[str, Any] = t.state["market"][slot]
        if not cell["card"]:
            raise RuleError(_("the market has no card at {where}", where=where(slot)))
        return cell

    def _take_card(self, t: Txn, who: str, slot: int, to: str) -> None:
        """The market card in ``slot`` goes to ``who``'s ``to`` pile (or the market discard)."""
        value = self._market_cell(t, slot)["value"]
        t.state["market"][slot] = {"card": False, "value": None}
        if to != "market_discard":
            self._gain(t, who, value)
        turn = t.state["turn"]
        if to == "hand" and who == turn["player"] and value is not None:
            # The values of the market cards the player took into the hand this turn (the pod offers
            # the stack they most likely go into first).
            turn["taken"] = turn.get("taken", []) + [value]
        if to == "market_discard":
            t.add(None, "market_discard", 1)
            t.event(_("the card at {where} goes to the market discard pile", where=where(slot)))
        else:
            t.add(who, to, 1)
            t.event(_("{who} takes the card at {where} ({pile})", who=who, where=where(slot), pile=word("pile", to)))

    def _refill_market(self, t: Txn) -> list[int]:
        """Fase de limpieza 2: slide the cards right, then fill from the deck right to left.

        An empty market deck takes the shuffled market discard pile; with both
        empty the slot stays empty. Returns the slots given a new (not yet
        entered) card.
        """
        market = t.state["market"]
        cards = [cell for cell in market if cell["card"]]  # right to left, order kept
        new: list[int] = []
        for slot in range(MARKET_SLOTS):
            if slot < len(cards):
                market[slot] = cards[slot]
                continue
            if t.get(None, "market_deck") == 0 and t.get(None, "market_discard") > 0:
                n = t.get(None, "market_discard")
                t.set(None, "market_discard", 0)
                t.set(None, "market_deck", n)
                t.event(N_("the market discard pile ({n} card) is shuffled into a new market deck",
                           "the market discard pile ({n} cards) is shuffled into a new market deck", n))
            if t.get(None, "market_deck") > 0:
                t.add(None, "market_deck", -1)
                market[slot] = {"card": True, "value": None}
                new.append(slot)
            else:
                market[slot] = {"card": False, "value": None}
        return new

    def _clean_up(self, t: Txn, who: str, draw_to: int, new_value: int | None = None) -> None:
        """Fase de limpieza: draw up to ``draw_to``, refill the market; the next player starts with one action.
        ``new_value``: the value of the one market card the refill turns up, read as it is turned up."""
        self._resolve_played(t, who)
        before = refill_piles(t.state, who)
        self._draw(t, who, max(0, draw_to - t.get(who, "hand")), junk=True)
        # The hand's refill, kept until the player's piles change again: a card in hand that changes it
        # (one that discards before the refill, one that fills to 6) is told after it («refill»).
        t.state["refill"] = {"player": who, "draw_to": draw_to, "before": before, "after": refill_piles(t.state, who)}
        new = self._refill_market(t)
        if new_value is not None:
            if len(new) != 1:
                raise RuleError(N_('"new_value": the clean-up turns up {n} market card, not one; enter its value with '
                                   '{action}', '"new_value": the clean-up turns up {n} market cards, not one; enter '
                                   'their values with {action}', len(new), action=word("action", "set_market")))
            t.state["market"][new[0]]["value"] = new_value
            t.event(_("new market card at {where}: a {value}", where=where(new[0]), value=new_value))
        elif new:
            t.event(N_("new market card at {slots}: enter its value ({action})",
                       "new market cards at {slots}: enter their values ({action})", len(new),
                       slots=listing(where(s) for s in sorted(new, reverse=True)), action=word("action", "set_market")))
        # The referee's answer was about this turn's purchase: the market slides and the next player
        # buys from another hand.
        t.state["payment_check"] = None
        turn = t.state["turn"]
        turn["player"] = t.next_in_game(who)
        turn["number"] += 1
        turn["actions_taken"] = 0
        turn["techniques"] = turn["bonuses"] = 0
        turn["taken"] = []
        t.set(None, "actions", 1)

    def _then_clean_up(self, t: Txn, a: Args, who: str) -> None:
        """``"clean_up": true`` on a turn action: the clean-up follows at once (the turn's action is done);
        "new_value" enters the value of the market card it turns up."""
        new_value = a.int("new_value", None)
        if not a.bool("clean_up"):
            if new_value is not None:
                raise RuleError(_('{action}: "{new_value}" is the card the clean-up turns up; give "{clean_up}": true '
                                  'with it', action=word("action", a.name), new_value=word("field", "new_value"),
                                  clean_up=word("field", "clean_up")))
            return
        if any(p["counters"]["stall"] >= STALL_STACKS for p in t.players):
            if new_value is not None:
                raise RuleError(_('{action}: the game ends with the {number}th stack: no clean-up follows, no card '
                                  'is turned up ("new_value")', action=a.name, number=STALL_STACKS))
            return
        self._clean_up(t, who, HAND_SIZE, new_value)
