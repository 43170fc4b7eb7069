"""dale-of-merchants — referee and memory for Dale of Merchants (2–4 players).

The cards stay physical: players shuffle, draw, buy and play them. The device
keeps what a table forgets or argues about: whose turn it is and how many
actions are left, what each market card costs, whether a payment or a stall
stack is legal, how far each stall has come, and the sizes of the piles the
rules depend on (each player's hand, deck and discard pile; the market deck and
the market discard pile).

Rules: ``../shared/RULES.md`` (Dale of Merchants) and the Spanish rulebook
``seeds/dale-of-merchants.es.txt``; the actions and the interpretations are in
``docs/games/dale-of-merchants.md``.

Market slots are numbered by their surcharge, as printed on the board: slot 0
is the rightmost (price = value), slot 4 the leftmost (price = value + 4).
Lists of slots given or shown left to right (as the board is seen) therefore
run 4, 3, 2, 1, 0.
"""
from __future__ import annotations

from ..errors import RuleError, SetupError
from ..game import Game, action
from ..spec import Counter, Option
from ..state import Args, Txn

#: The six animal decks of the base box (Componentes).
BASE_DECKS = ("macaws", "pandas", "raccoons", "squirrels", "ocelots", "chameleons")
JUNK = "junk"
MARKET_SLOTS = 5
HAND_SIZE = 5  # Fase de limpieza 1: draw back up to 5
STARTING_DECK = 10  # Preparar 1: one value-1 card per deck plus junk to 10
STALL_STACKS = 8  # Fin del juego: the 8th stack wins
MAX_VALUE = 20  # printed values are 1–5; effects may raise them a little

#: Piles a card effect may move cards between (the ``move`` action).
PLAYER_PILES = ("hand", "deck", "discard")
TABLE_PILES = ("market_deck", "market_discard")
PILES = PLAYER_PILES + TABLE_PILES + (JUNK,)


# -- the rules as pure functions (also used by the UI without a journal) --------
def slot_price(slot: int, value: int) -> int:
    """The price of a card of ``value`` in market ``slot`` (0 = rightmost, +0 … 4 = leftmost, +4)."""
    return value + slot


def _sum_words(values: list[int]) -> str:
    if not values:
        return "nothing"
    if len(values) == 1:
        return str(values[0])
    return "+".join(map(str, values)) + f" = {sum(values)}"


def payment_verdict(price: int, paid: list[int]) -> tuple[bool, str]:
    """Whether the card values ``paid`` may buy a card costing ``price``, and why.

    Acción de mercado, Nota: overpaying is allowed only when you cannot pay
    less with the cards you pay with, i.e. the surplus must be smaller than the
    value of every card used.
    """
    total = sum(paid)
    shown = _sum_words(paid)
    if total < price:
        return False, f"{shown} does not cover the price {price} ({price - total} short)"
    surplus = total - price
    if paid:
        smallest = min(paid)
        if surplus >= smallest:
            return False, (f"{shown} overpays the price {price} by {surplus}, so a {smallest} is not needed: "
                           "the surplus must be smaller than every card used")
        if surplus:
            return True, (f"{shown} pays the price {price}, overpaying by {surplus} "
                          f"(less than the smallest card used, {smallest})")
    return True, f"{shown} pays the price {price} exactly"


def stack_verdict(number: int, sets: list[str], values: list[int], decks: list[str]) -> tuple[bool, str]:
    """Whether cards of these ``sets`` and ``values`` make stall stack ``number``, and why.

    Acción de puesto: stack n totals exactly n, its cards all come from one
    animal set in play, and junk is never part of a stall.
    """
    if not values:
        return False, "a stack needs at least one card"
    if JUNK in sets:
        return False, "junk cannot go into a stall: a stack is made of animal cards only"
    unknown = [s for s in dict.fromkeys(sets) if s not in decks]
    if unknown:
        return False, f"{unknown[0]!r} is not an animal deck in play ({', '.join(decks)})"
    kinds = list(dict.fromkeys(sets))
    if len(kinds) > 1:
        return False, f"a stack is cards of one animal set, not {' and '.join(kinds)}"
    total = sum(values)
    if total != number:
        return False, f"stack {number} must total exactly {number}, not {_sum_words(values)}"
    return True, f"stack {number}: {kinds[0]} {_sum_words(values)}"


def _check_names(value: list) -> None:
    if not all(isinstance(v, str) and v.strip() for v in value):
        raise SetupError(f"animal decks are given by name, not {value!r}")
    if len(set(value)) != len(value):
        raise SetupError("an animal deck is named twice")
    if JUNK in value:
        raise SetupError("junk is not an animal deck")


class DaleOfMerchants(Game):
    id = "dale-of-merchants"
    title = "Dale of Merchants"
    min_players = 2
    max_players = 4
    options_spec = (
        Option("decks", [], "the animal decks in play: players + 1 names from the box; empty (default): "
               "choose or draw them at random with the draw_decks action", kind=list, check=_check_names),
        Option("box", list(BASE_DECKS), "the animal decks you own; draw_decks picks from these",
               kind=list, check=_check_names),
        Option("market_cards_per_deck", 11, "cards each animal deck in play adds to the market deck: "
               "its cards valued 2–5 (15 cards less the four valued 1 in the base box)", lo=1, hi=60),
    )

    def __init__(self, players, options=None):
        super().__init__(players, options)
        need = len(self.players) + 1
        box, decks = self.options["box"], self.options["decks"]
        if len(box) < need:
            raise SetupError(f"{len(self.players)} players need {need} animal decks, but the box lists only {len(box)}")
        if decks:
            missing = [d for d in decks if d not in box]
            if missing:
                raise SetupError(f"{missing[0]!r} is not a deck of the box ({', '.join(box)})")
            if len(decks) != need:
                raise SetupError(f"{len(self.players)} players play with {need} animal decks "
                                 f"(players + 1), not {len(decks)}")

    # -- counters ------------------------------------------------------------
    def player_counter_specs(self):
        return [
            Counter("stall", 0, lo=0, hi=STALL_STACKS, doc="stacks built in the stall; the 8th wins"),
            Counter("hand", HAND_SIZE, doc="cards in hand"),
            Counter("deck", STARTING_DECK - HAND_SIZE, doc="cards in the player's deck"),
            Counter("discard", 0, doc="cards in the player's discard pile"),
        ]

    def table_counter_specs(self):
        return [
            Counter("actions", 1, doc="actions left this turn (a bonus-action technique adds one)"),
            Counter("market_deck", lambda n, o: max(0, self._market_total(n, o) - MARKET_SLOTS),
                    doc="cards in the market deck"),
            Counter("market_discard", 0, doc="cards in the market discard pile"),
        ]

    @staticmethod
    def _market_total(n_players: int, options: dict) -> int:
        # Preparar 2: the decks' cards other than the value-1 ones form the market deck.
        return (n_players + 1) * options["market_cards_per_deck"]

    def setup_extra(self, state: dict) -> None:
        dealt = min(MARKET_SLOTS, self._market_total(len(self.players), self.options))
        state["decks"] = list(self.options["decks"])
        # Index = slot = surcharge; Preparar 3 deals the market right to left.
        state["market"] = [{"card": slot < dealt, "value": None} for slot in range(MARKET_SLOTS)]
        state["turn"] = {"player": self.players[0], "number": 1, "actions_taken": 0}
        state["payment_check"] = None
        for p in state["players"]:
            p["stacks"] = []

    # -- helpers ---------------------------------------------------------------
    @staticmethod
    def _need_decks(t: Txn) -> None:
        if not t.state["decks"]:
            raise RuleError('choose the animal decks first: {"action": "draw_decks"} draws them at random, '
                            'or give them as "decks"')

    def _active(self, t: Txn, a: Args) -> str:
        """The player whose turn it is; a "player" field, if given, must name them."""
        self._need_decks(t)
        active = t.state["turn"]["player"]
        who = a.player("player", active)
        if who != active:
            raise RuleError(f"it is {active}'s turn, not {who}'s")
        return who

    @staticmethod
    def _check_action_left(t: Txn, who: str) -> None:
        if t.get(None, "actions") < 1:
            raise RuleError(f"{who} has no action left this turn: end the turn (end_turn)")

    @staticmethod
    def _spend_action(t: Txn) -> None:
        t.add(None, "actions", -1)
        t.state["turn"]["actions_taken"] += 1

    @staticmethod
    def _need_in_hand(t: Txn, who: str, count: int, why: str) -> None:
        have = t.get(who, "hand")
        if count > have:
            raise RuleError(f"{who} has {have} card{'s' * (have != 1)} in hand, not {count} {why}")

    def _draw(self, t: Txn, who: str, count: int, *, junk: bool) -> tuple[int, int]:
        """Draw ``count`` cards into ``who``'s hand; returns (from the deck, junk).

        An empty deck takes the shuffled discard pile (Fase de limpieza 1). With
        both empty, ``junk`` draws junk from the (unlimited) junk pile; otherwise
        the draw stops there ("realice la acción con la cantidad máxima").
        """
        drawn = junked = 0
        for _ in range(count):
            if t.get(who, "deck") == 0 and t.get(who, "discard") > 0:
                n = t.get(who, "discard")
                t.set(who, "discard", 0)
                t.set(who, "deck", n)
                t.event(f"{who} shuffles the discard pile ({n} cards) into a new deck")
            if t.get(who, "deck") > 0:
                t.add(who, "deck", -1)
                drawn += 1
            elif junk:
                junked += 1
            else:
                t.event(f"{who}'s deck and discard pile are empty: only {drawn} of {count} drawn")
                break
            t.add(who, "hand", 1)
        if junked:
            t.event(f"{who}'s deck and discard pile are empty: {junked} junk from the junk pile")
        return drawn, junked

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
                t.event(f"the market discard pile ({n} cards) is shuffled into a new market deck")
            if t.get(None, "market_deck") > 0:
                t.add(None, "market_deck", -1)
                market[slot] = {"card": True, "value": None}
                new.append(slot)
            else:
                market[slot] = {"card": False, "value": None}
        return new

    @staticmethod
    def _market_cell(t: Txn, slot: int) -> dict:
        cell = t.state["market"][slot]
        if not cell["card"]:
            raise RuleError(f"market slot {slot} (+{slot}) is empty")
        return cell

    @staticmethod
    def _sets(a: Args, n: int) -> list[str]:
        raw = a.raw("set")
        if isinstance(raw, str):
            return [raw] * n
        if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
            if len(raw) != n:
                raise RuleError(f"{a.name}: 'set' lists {len(raw)} sets for {n} cards")
            return list(raw)
        raise RuleError(f"{a.name}: 'set' must be an animal deck's name, or one name per card, not {raw!r}")

    # -- setup -----------------------------------------------------------------
    def prepare(self, state: dict, action: dict, rng) -> dict:
        """``draw_decks``: draw at random the decks not given (all of them when "decks" is left out)."""
        if action.get("action") != "draw_decks" or state.get("decks"):
            return action
        given = action.get("decks", [])
        if not isinstance(given, list) or not all(isinstance(d, str) for d in given):
            return action
        pool = [d for d in self.options["box"] if d not in given]
        need = len(self.players) + 1 - len(given)
        if need <= 0 or need > len(pool):
            return action
        picks = [pool.pop(rng.randrange(len(pool))) for _ in range(need)]
        return {**action, "decks": list(given) + picks}

    @action("draw_decks")
    def _draw_decks(self, t: Txn, a: Args) -> None:
        """Set the animal decks in play (players + 1): "decks" names them; left out (or short),
        the device draws the missing ones at random from the box and the journal records them."""
        decks = a.raw("decks", None)
        if t.state["decks"]:
            raise RuleError(f"the animal decks are already chosen ({', '.join(t.state['decks'])}); "
                            "undo to choose again")
        if decks is None:
            raise RuleError("draw_decks: no decks were given or drawn (the device draws them when the "
                            "action goes through a game session)")
        if not isinstance(decks, list) or not all(isinstance(d, str) for d in decks):
            raise RuleError(f"draw_decks: 'decks' must be a list of animal deck names, not {decks!r}")
        box = self.options["box"]
        for d in decks:
            if d not in box:
                raise RuleError(f"{d!r} is not a deck of the box ({', '.join(box)})")
        if len(set(decks)) != len(decks):
            raise RuleError("draw_decks: an animal deck is named twice")
        need = len(self.players) + 1
        if len(decks) != need:
            raise RuleError(f"{len(self.players)} players play with {need} animal decks (players + 1), "
                            f"not {len(decks)}")
        t.state["decks"] = list(decks)
        t.event(f"animal decks in play: {', '.join(decks)}")

    # -- market ----------------------------------------------------------------
    @action("set_market")
    def _set_market(self, t: Txn, a: Args) -> None:
        """Enter the values of the market cards: {"slot": k, "value": v} for one card, or
        {"values": [...]} for the five slots left to right (slot 4 first; null = leave as it is)."""
        self._need_decks(t)
        if a.has("values"):
            values = a.raw("values")
            if (not isinstance(values, list) or len(values) != MARKET_SLOTS
                    or any(v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in values)):
                raise RuleError(f"set_market: 'values' must list the {MARKET_SLOTS} slots left to right, "
                                f"a whole number or null each, not {values!r}")
            if a.has("slot") or a.has("value"):
                raise RuleError('set_market: give either "values" for all slots, or "slot" and "value"')
            pairs = [(MARKET_SLOTS - 1 - i, v) for i, v in enumerate(values) if v is not None]
        else:
            pairs = [(a.int("slot", lo=0, hi=MARKET_SLOTS - 1), a.int("value", lo=0, hi=MAX_VALUE))]
        for slot, value in pairs:
            if not 0 <= value <= MAX_VALUE:
                raise RuleError(f"set_market: a card's value is 0–{MAX_VALUE}, not {value}")
            self._market_cell(t, slot)["value"] = value
        t.event("market prices: " + ", ".join(
            f"slot {s} {slot_price(s, c['value'])}" for s, c in reversed(list(enumerate(t.state["market"])))
            if c["card"] and c["value"] is not None))

    @action("buy")
    def _buy(self, t: Txn, a: Args) -> None:
        """Market action: buy the card in "slot", paying with cards of the values "paid" from hand.
        "value" enters the card's value if it is not entered yet. Refused by the overpay rule."""
        who = self._active(t, a)
        slot = a.int("slot", lo=0, hi=MARKET_SLOTS - 1)
        paid = a.ints("paid", lo=0)
        value = a.int("value", None, lo=0, hi=MAX_VALUE)
        self._check_action_left(t, who)
        cell = self._market_cell(t, slot)
        if value is None:
            value = cell["value"]
            if value is None:
                raise RuleError(f"enter the value of the card in slot {slot} first (set_market, or \"value\")")
        elif cell["value"] is not None and cell["value"] != value:
            raise RuleError(f"the card in slot {slot} was entered as a {cell['value']}, not a {value}; "
                            "correct it with set_market")
        self._need_in_hand(t, who, len(paid), "to pay with")
        price = slot_price(slot, value)
        ok, why = payment_verdict(price, paid)
        if not ok:
            raise RuleError(f"{who} cannot buy the card in slot {slot}: {why}")
        self._spend_action(t)
        # The cards paid go to the discard pile, the card bought to the hand.
        t.add(who, "hand", 1 - len(paid))
        t.add(who, "discard", len(paid))
        t.state["market"][slot] = {"card": False, "value": None}
        t.event(f"{who} buys the {value} in slot {slot}: {why}")

    @action("check_payment")
    def _check_payment(self, t: Txn, a: Args) -> None:
        """Ask the referee whether cards of the values "paid" may pay "price" (or the price of
        market "slot"); the verdict and its reason are shown as payment_check. Changes nothing else."""
        paid = a.ints("paid", lo=0)
        if a.has("slot"):
            if a.has("price"):
                raise RuleError('check_payment: give either "price" or "slot"')
            slot = a.int("slot", lo=0, hi=MARKET_SLOTS - 1)
            cell = self._market_cell(t, slot)
            if cell["value"] is None:
                raise RuleError(f"enter the value of the card in slot {slot} first (set_market)")
            price = slot_price(slot, cell["value"])
        else:
            price = a.int("price", lo=0)
        ok, why = payment_verdict(price, paid)
        t.state["payment_check"] = {"price": price, "paid": list(paid), "ok": ok, "reason": why}
        t.event(("accepted: " if ok else "refused: ") + why)

    @action("take")
    def _take(self, t: Txn, a: Args) -> None:
        """A card effect takes the card in market "slot" for "player" ("to": hand, discard or deck),
        or throws it away ("to": "market_discard"). The slot stays empty until clean-up."""
        self._need_decks(t)
        who = a.player("player")
        slot = a.int("slot", lo=0, hi=MARKET_SLOTS - 1)
        to = a.str("to", "hand", choices=("hand", "discard", "deck", "market_discard"))
        self._market_cell(t, slot)
        t.state["market"][slot] = {"card": False, "value": None}
        if to == "market_discard":
            t.add(None, "market_discard", 1)
            t.event(f"the card in slot {slot} goes to the market discard pile")
        else:
            t.add(who, to, 1)
            t.event(f"{who} takes the card in slot {slot} ({to})")

    # -- the other actions of a turn ----------------------------------------------
    @action("technique")
    def _technique(self, t: Txn, a: Args) -> None:
        """Technique action: play a technique card from hand. "bonus": true when it shows the
        bonus-action icon (one more action this turn, chaining). "to": "discard" (default) or
        "away" when the card says it goes elsewhere."""
        who = self._active(t, a)
        bonus = a.bool("bonus", False)
        to = a.str("to", "discard", choices=("discard", "away"))
        self._check_action_left(t, who)
        self._need_in_hand(t, who, 1, "to play")
        self._spend_action(t)
        t.add(who, "hand", -1)
        if to == "discard":
            t.add(who, "discard", 1)
        if bonus:
            t.add(None, "actions", 1)
            t.event(f"{who} plays a technique with a bonus action: {t.get(None, 'actions')} action(s) left")
        else:
            t.event(f"{who} plays a technique")

    @action("stall")
    def _stall(self, t: Txn, a: Args) -> None:
        """Stall action: build the next stack from hand: "values" of its cards and "set" (one animal
        deck's name, or one name per card). Optional "stack" confirms its number. Stack n must total
        exactly n, one animal set, no junk; stacks are built in order, each in one action."""
        who = self._active(t, a)
        values = a.ints("values", lo=0)
        sets = self._sets(a, len(values))
        number = t.get(who, "stall") + 1
        claimed = a.int("stack", number, lo=1, hi=STALL_STACKS)
        self._check_action_left(t, who)
        if claimed < number:
            raise RuleError(f"{who}'s stack {claimed} is already built; a stack cannot be added to later")
        if claimed > number:
            raise RuleError(f"stacks are built in order: {who}'s next stack is {number}, not {claimed}")
        ok, why = stack_verdict(number, sets, values, t.state["decks"])
        if not ok:
            raise RuleError(f"{who} cannot build stack {number}: {why}")
        self._need_in_hand(t, who, len(values), "for this stack")
        self._spend_action(t)
        t.add(who, "hand", -len(values))
        t.player(who)["stacks"].append({"set": sets[0], "values": list(values)})
        t.add(who, "stall", 1)
        t.event(f"{who} builds {why}")

    @action("inventory")
    def _inventory(self, t: Txn, a: Args) -> None:
        """Inventory action: discard "count" cards (any number, 0 too) from hand to the discard pile."""
        who = self._active(t, a)
        count = a.int("count", lo=0)
        self._check_action_left(t, who)
        self._need_in_hand(t, who, count, "to discard")
        self._spend_action(t)
        t.add(who, "hand", -count)
        t.add(who, "discard", count)
        t.event(f"{who} discards {count} card{'s' * (count != 1)}")

    @action("end_turn")
    def _end_turn(self, t: Txn, a: Args) -> None:
        """Clean-up after at least one action: draw up to "draw_to" (default 5) cards, refill the
        market, and the next player on the left starts with one action."""
        who = self._active(t, a)
        draw_to = a.int("draw_to", HAND_SIZE, lo=0, hi=MAX_VALUE)
        turn = t.state["turn"]
        if turn["actions_taken"] == 0:
            raise RuleError(f"{who} must take an action first: market (buy), technique, stall or inventory")
        self._draw(t, who, max(0, draw_to - t.get(who, "hand")), junk=True)
        new = self._refill_market(t)
        if new:
            t.event("new market cards in slot " + ", ".join(map(str, sorted(new, reverse=True)))
                    + ": enter their values (set_market)")
        turn["player"] = t.next_in_game(who)
        turn["number"] += 1
        turn["actions_taken"] = 0
        t.set(None, "actions", 1)

    # -- card effects ----------------------------------------------------------
    @action("draw")
    def _draw_action(self, t: Txn, a: Args) -> None:
        """A card effect makes "player" draw "count" cards (the discard pile is reshuffled when the
        deck runs out; with both empty, as many as there were)."""
        who = a.player("player")
        count = a.int("count", lo=1)
        drawn, _ = self._draw(t, who, count, junk=False)
        t.event(f"{who} draws {drawn}")

    @action("move")
    def _move(self, t: Txn, a: Args) -> None:
        """A card effect moves "count" cards of "player" "from" one pile "to" another: hand, deck,
        discard (the player's), market_deck, market_discard, junk (the junk pile, unlimited)."""
        who = a.player("player")
        src = a.str("from", choices=PILES)
        dst = a.str("to", choices=PILES)
        count = a.int("count", lo=1)
        if src == dst:
            raise RuleError(f"move: cards from {src} to {src} go nowhere")
        if JUNK in (src, dst) and (src in TABLE_PILES or dst in TABLE_PILES):
            raise RuleError("junk never goes to or comes from the market: thrown-away junk goes to the junk pile")
        if src != JUNK:
            owner = None if src in TABLE_PILES else who
            have = t.get(owner, src)
            if count > have:
                whose = "the table" if owner is None else who
                raise RuleError(f"{whose} has only {have} card{'s' * (have != 1)} in {src}, not {count}")
            t.add(owner, src, -count)
        if dst != JUNK:
            t.add(None if dst in TABLE_PILES else who, dst, count)
        t.event(f"{who}: {count} card{'s' * (count != 1)} from {src} to {dst}")

    # -- generic corrections ---------------------------------------------------------
    def adjust(self, t: Txn, who, counter, delta):
        applied = super().adjust(t, who, counter, delta)
        if who is not None and counter == "stall":
            # A corrected count keeps the recorded stacks in step: a stack added by
            # hand is recorded without its cards (null); one taken away is dropped.
            p = t.player(who)
            n = p["counters"]["stall"]
            del p["stacks"][n:]
            p["stacks"].extend([None] * (n - len(p["stacks"])))
        return applied

    def transfer(self, t: Txn, giver, taker, counter, amount):
        if counter == "stall":
            raise RuleError("a stall stack cannot change hands; correct a count with adjust")
        return super().transfer(t, giver, taker, counter, amount)

    def consequences(self, t: Txn) -> None:
        # Fin del juego: whoever places the 8th stack wins at once, by any route.
        done = [p["name"] for p in t.players if p["counters"]["stall"] >= STALL_STACKS]
        if done:
            t.finish(done, why=f"the {STALL_STACKS}th stack completes the stall")

    # -- views ---------------------------------------------------------------------
    def view_extra(self, state: dict) -> dict:
        n = len(self.players)
        turn = state["turn"]
        return {
            "turn": {"player": turn["player"], "number": turn["number"],
                     "actions_left": state["table"]["actions"], "actions_taken": turn["actions_taken"]},
            "decks": list(state["decks"]),
            "starting_deck": {"cards": STARTING_DECK, "animal_ones": n + 1, "junk": STARTING_DECK - (n + 1)},
            "market": [
                {"slot": slot, "card": cell["card"], "value": cell["value"],
                 "price": None if cell["value"] is None else slot_price(slot, cell["value"])}
                for slot, cell in reversed(list(enumerate(state["market"])))
            ],
            "payment_check": state["payment_check"],
        }

    def seat_view(self, state: dict, name: str) -> dict:
        p = next(p for p in state["players"] if p["name"] == name)
        actions = state["table"]["actions"]
        if state["over"]:
            status = "winner" if name in state["winners"] else "game over"
        elif not state["decks"]:
            status = "choose decks"
        elif state["turn"]["player"] == name:
            status = f"your turn: {actions} action{'s' * (actions != 1)}" if actions else "your turn: end turn"
        else:
            status = f"{state['turn']['player']}'s turn"
        return {
            "counters": [[k, p["counters"][k]] for k in ("stall", "hand", "deck", "discard")],
            "status": status,
            "alert": False,
            "table": [["actions", actions], ["market deck", state["table"]["market_deck"]]],
        }

    def seat_actions(self, state: dict, name: str) -> list[dict]:
        if state["over"]:
            return []
        if not state["decks"]:
            return [{"label": "draw decks", "action": {"action": "draw_decks"}}]
        if state["turn"]["player"] != name:
            return []
        p = next(p for p in state["players"] if p["name"] == name)
        actions = state["table"]["actions"]
        items = []
        if actions and p["counters"]["hand"]:
            items += [
                {"label": "technique", "action": {"action": "technique", "player": name}},
                {"label": "technique +1", "action": {"action": "technique", "player": name, "bonus": True}},
                {"label": "discard 1", "action": {"action": "inventory", "player": name, "count": 1}},
            ]
        if state["turn"]["actions_taken"]:
            end = {"label": "end turn", "action": {"action": "end_turn", "player": name}}
            items.insert(0 if not actions else len(items), end)
        elif actions and not p["counters"]["hand"]:
            items.append({"label": "pass", "action": {"action": "inventory", "player": name, "count": 0}})
        return items

    def describe(self, action: dict) -> str:
        name = action.get("action")
        who = f"{action['player']}: " if isinstance(action.get("player"), str) else ""
        if name == "buy":
            return f"{who}buy the card in slot {action.get('slot')}, paying {_sum_words(action.get('paid') or [])}"
        if name == "stall":
            return f"{who}build a stack: {action.get('set')} {_sum_words(action.get('values') or [])}"
        if name == "technique":
            return f"{who}play a technique" + (" with a bonus action" if action.get("bonus") else "")
        if name == "inventory":
            return f"{who}discard {action.get('count')} (inventory)"
        if name == "end_turn":
            return f"{who}end the turn (clean-up)"
        if name == "draw_decks":
            return "animal decks: " + ", ".join(action.get("decks") or ["(drawn at random)"])
        if name == "set_market" and isinstance(action.get("values"), list):
            return "market values, left to right: " + " ".join("-" if v is None else str(v) for v in action["values"])
        if name == "check_payment":
            return f"check a payment of {_sum_words(action.get('paid') or [])}"
        return super().describe(action)


GAME = DaleOfMerchants
