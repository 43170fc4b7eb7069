"""What Dale of Merchants shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...fields import Field, Int, Ints, Str
from ...game import Game, Offer, offer
from ...messages import N_, _, word
from .rules import MARKET_SLOTS, STARTING_DECK, slot_position, slot_price
from .table import HAND_SIZE, open_refill, others_from_left, payment_ok, takeable

#: The highest value printed on a base-box card.
TOP_PRINTED = 5
#: Where a new market card's value starts on a pod: the market deck holds the cards valued 2–5.
NEW_CARD_START = 2
#: The values a card turned up from the market deck can have: the printed 2–5 (Preparar 2: the
#: value-1 cards go back in the box). The first offer is made once per value.
NEW_CARD_VALUES = tuple(range(NEW_CARD_START, TOP_PRINTED + 1))
#: The most cards a stack is offered with by its values; other stacks are entered value by value.
SHAPE_CARDS = 3
#: The most cards a technique's "draw" is offered with in one line.
TECHNIQUE_DRAWS = 2
#: A technique's effect fields: a line that gives one enters the card's effect (not a technique alone).
EFFECT_FIELDS = frozenset({"throw", "take", "from_player", "give_to", "discard_hand", "discard", "draw", "from_each",
                           "give_each", "others_draw", "others_throw", "throw_animals", "look"})


def hand_payments(price: int, hand: int, known: list[int]) -> list[list[int]]:
    """The payments of ``price`` a hand of ``hand`` cards can make, as far as the device knows the
    player's cards: junk and 1s (as many as the hand holds) and the ``known`` values above 1; only
    those the overpay rule accepts (Acción de mercado, Nota). The lowest cards first: junk before
    a 2, a 2 before a 3 (a player keeps the high cards), so all junk leads when the hand can."""
    return [list(paid) for paid in _hand_payments(price, hand, tuple(sorted(known)))]


@lru_cache(maxsize=4096)
def _hand_payments(price: int, hand: int, known: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    # A pod weighs every card's payments at every press (a robot's search, many thousand times a
    # story): the same hand and price give the same payments, so they are worked out once.
    valid = [paid for paid in _combos(known, hand) if payment_ok(price, paid)]
    return tuple(map(tuple, sorted(valid, key=lambda paid: (sum(1 for v in paid if v > 1), sum(paid) - price,
                                                             paid))))


#: The values a die-raised card may be worth when it pays (the lucky ocelots: «1 ocelote muere», a
#: six-sided die): offered as payments while the ocelots are in play.
DIE_VALUES = tuple(range(2, 7))


#: How many payments with each die value are offered (the likeliest first).
DIE_PAYMENTS_PER_VALUE = 3


def die_payments(price: int, hand: int, known: list[int]) -> list[list[int]]:
    """The payments of ``price`` with one card a die has raised, with 1s and the cards the device
    knows the player owns (``hand_payments``): the device cannot know the roll, so each value is its
    own payment: per value the likeliest (``hand_payments``' order) first, then for each value its
    next likeliest ones (junk, or another known card beside the raised one)."""
    per_value = [[paid for paid in hand_payments(price, hand, base + [d]) if paid.count(d) > base.count(d)]
                 [:DIE_PAYMENTS_PER_VALUE] for d, base in _raised(known) if d in DIE_VALUES or d <= price]
    out: list[list[int]] = []
    for rank in range(DIE_PAYMENTS_PER_VALUE):
        for payments in per_value:
            if rank < len(payments) and payments[rank] not in out:
                out.append(payments[rank])
    return out


def _raised(known: list[int]) -> list[tuple[int, list[int]]]:
    """Each value a die-raised card may pay with, and the cards the player is known to own beside it: a
    lucky 1 raised (``DIE_VALUES``, the known cards all beside it), then above those a known card raised (a
    rulebook reader's «Lucky Streak», a 4 that rolled 3, paid a 7 alone: 9 presses through `buy, other
    payment`), the highest known card the die can raise that far, no longer beside it."""
    out = [(d, list(known)) for d in DIE_VALUES]
    most = DIE_VALUES[-1] - 1  # the most a die adds
    for d in range(DIE_VALUES[-1] + 1, max(known, default=0) + most + 1):
        v = max((v for v in known if d - most <= v < d), default=None)
        if v is None:
            continue  # no known card the die raises that far (a card entered above the printed values)
        base = list(known)
        base.remove(v)
        out.append((d, base))
    return out


def doubtful_payments(price: int, hand: int, known: list[int]) -> list[list[int]]:
    """The payments of ``price`` a player may ask the referee about: the overpays the rule accepts
    with cards each below the price (a surplus smaller than every card used, "dos cuatros ... con una
    tarjeta de cinco en la mano"; one card above the price needs no asking)
    and a payment of cards above 1 the rule accepts, exact or over, with one more junk (refused: "no
    puede usar tarjetas adicionales"; a rulebook reader's table asked about 5+4 and a junk for a price
    of 8: the junk makes the surplus 2, more than it)."""
    return [list(paid) for paid in _doubtful_payments(price, hand, tuple(sorted(known)))]


@lru_cache(maxsize=4096)
def _doubtful_payments(price: int, hand: int, known: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    # weighed for every market card at every press, as the payments are (a robot's search: a million times a
    # story, a third of its time): the same hand and price give the same answer, worked out once
    over = [list(paid) for paid in _combos(known, hand)
            if sum(paid) > price and max(paid) < price and payment_ok(price, paid)]
    extra = [list(paid) + [1] for paid in _combos(known, hand - 1)
             if min(paid) > 1 and max(paid) <= price and payment_ok(price, paid)]
    return tuple(map(tuple, sorted(over + extra)))


def _market_cards(state: dict[str, Any]) -> list[int]:
    """The market's slots that hold a card, by their place from the left (slot 0 is the rightmost)."""
    return [slot for slot in reversed(range(MARKET_SLOTS)) if state["market"][slot]["card"]]


def die_doubtful_payments(price: int, hand: int, known: list[int]) -> list[list[int]]:
    """:func:`doubtful_payments` with one card a die has raised (a lucky ocelot): each value the die may
    give, the payments with that card the referee may be asked about (a fourth rulebook reader's Dee laid a
    rolled 5 and a junk on a price of 5, and the table asked)."""
    out: list[list[int]] = []
    for d in DIE_VALUES:
        out += [paid for paid in doubtful_payments(price, hand, known + [d])
                if paid.count(d) > known.count(d) and paid not in out]
    return out


@lru_cache(maxsize=1024)
def _combos(known: tuple[int, ...], most: int) -> tuple[tuple[int, ...], ...]:
    """Every set of at most ``most`` cards from 1s (``most`` of them) and the ``known`` values,
    each highest first; in order, the lowest cards first. (Kept once per hand: tuples, not to be
    changed.)"""
    pool = sorted(set(known) | {1}, reverse=True)
    have = {v: known.count(v) for v in pool}
    have[1] = most + known.count(1)
    out: list[list[int]] = []

    def grow(i: int, cards: list[int]) -> None:
        if cards:
            out.append(cards)
        if len(cards) == most:
            return
        for j in range(i, len(pool)):
            v = pool[j]
            if cards.count(v) < have[v]:
                grow(j, cards + [v])

    grow(0, [])
    return tuple(map(tuple, sorted(out)))


def known_shapes(number: int, hand: int, known: list[int]) -> list[list[int]]:
    """The stacks of ``number`` the cards the device knows the player owns make, with at most one 1
    (one value-1 card per animal deck) and at most ``hand`` cards: two cards or more (one card is
    ``stack_shapes``' first), those using the most known cards first (3+2+2+1 before 4+3+1)."""
    shapes = [list(cards) for cards in _combos(tuple(sorted(known)), hand)
              if len(cards) > 1 and sum(cards) == number and cards.count(1) <= 1
              and all(cards.count(v) <= known.count(v) for v in set(cards) if v > 1)]
    return sorted(shapes, key=lambda cards: (-sum(1 for v in cards if v > 1), cards))


def stack_shapes(number: int, ones: int = 1) -> list[list[int]]:
    """The likely ways to build stack ``number``: printed values 1–5, at most ``ones`` 1s (a player's deck
    holds one value-1 card of each animal deck, the market deck none: a second one is another player's,
    taken by a card's effect), at most SHAPE_CARDS cards, fewest cards first, high cards first."""
    shapes: list[list[int]] = []

    def grow(rest: int, most: int, values: list[int]) -> None:
        if rest == 0:
            shapes.append(values)
            return
        if len(values) == SHAPE_CARDS:
            return
        for v in range(min(most, rest), 0, -1):
            if v == 1 and values.count(1) >= ones:
                continue
            grow(rest - v, v, values + [v])

    grow(number, TOP_PRINTED, [])
    return sorted(shapes, key=len)




def sum_words(values: list[int], run: int = 4) -> str:
    """Card values as a pod says them: "3+2", and ``run`` or more equal ones as "5×1" ("2+4×1")."""
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j < len(values) and values[j] == values[i]:
            j += 1
        n = j - i
        parts += [f"{n}×{values[i]}"] if n >= run else [str(values[i])] * n
        i = j
    return "+".join(parts)


def die_raised(paid: list[int], known: list[int]) -> int:
    """The value of the card a die raised in a payment: one card more of it than the player is known to own."""
    return max(v for v in paid if v > 1 and paid.count(v) > known.count(v))


def die_words(paid: list[int], known: list[int]) -> str:
    """A payment with one card a die raised, that card first and marked with a die: "⚄3+3×1" (a play-tester
    read "4×1" as a 1 raised to 4, the next could not tell the die-raised lines from the guesses); three equal
    cards or more as "3×1", so that the die's room is taken from the line."""
    raised = die_raised(paid, known)
    rest = list(paid)
    rest.remove(raised)
    return f"⚄{raised}" + (f"+{sum_words(rest, run=3)}" if rest else "")


def stack_label(number: int, values: list[int], deck: str | None = None) -> Any:
    """A stall stack's offer: "stack 4: 3+1 pandas"; of four cards or more the number is left out (it is
    their sum) so that the values and the deck, which tell the offers apart, fit the pod's two lines:
    "stack 3+2+2+1 macaws"."""
    shown = "+".join(map(str, values))
    if len(values) >= 4:
        if deck is None:
            return _("stack {values}", values=shown)
        return _("stack {values} {deck}", values=shown, deck=word("deck", deck))
    if deck is None:
        return _("stack {number}: {values}", number=number, values=shown)
    return _("stack {number}: {values} {deck}", number=number, values=shown, deck=word("deck", deck))


#: The kinds of offer select visits first (``Game.offer_kinds``); the others it visits in the list's own order, each
#: kind once, from the first line of its block: select goes down the list, section by section (the stacks, the buys,
#: the stacks by their values, the two techniques told most, the other payments, the other techniques by what they
#: do, the payments asked about, those
#: with a card a die raised, a technique's effects, the takes with the bonus action, a technique alone, a discard). The order
#: used to be the kinds' likeliness, not the list's, and the stops went 2, 12, 7, 14, 26, 111, 93, …: two
#: play-testers could not learn where a line would be, and one, on the buys, pressed select 40 times for the stacks by
#: their values, which were above him. First of all, right after a technique entered alone, its effects (a card
#: taken, given, thrown away, drawn: "effect now"): what the turn needs next (a play-tester's select reached them
#: 21st); after a technique entered with its effect, the effect lines are where the list has them (most techniques
#: are: 111 of 125).
OFFER_KINDS = ("effect now",)


class DaleOfMerchantsViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "stall"
    offer_kinds = OFFER_KINDS

    # -- views ---------------------------------------------------------------------
    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
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
            # Technique cards played whose effects are being resolved: in no pile until the next action
            # or the clean-up (Acción técnica).
            "in_play": len(turn["played"]),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        actions = state["table"]["actions"]
        if state["over"]:
            status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif not state["decks"] and state["turn"]["player"] != name:  # drawn from the first player's pod
            status = _("{who}: choose decks", who=state["turn"]["player"])
        elif not state["decks"]:
            status = word("status", "choose decks")
        elif state["turn"]["player"] == name and actions == 1:
            # the one action left ends the turn (its clean-up follows): said so, a bonus action's too (a
            # play-tester on a bonus action could not tell whether her stack would end her turn); a bonus
            # action (one left after an action taken: a technique's ⚡) says so (another read "your last
            # action" beside "end turn" and could not tell the action left was one he may skip)
            status = (word("status", "your bonus action") if state["turn"]["actions_taken"]
                      else word("status", "your last action"))
        elif state["turn"]["player"] == name:
            status = N_("your turn: {n} action", "your turn: {n} actions", actions) if actions else \
                word("status", "your turn: end turn")
        else:
            status = _("{who}'s turn", who=state["turn"]["player"])
        return {
            "counters": [[word("counter", k), p["counters"][k]] for k in ("stall", "hand", "deck", "discard")],
            "status": status,
            "alert": False,
            # the market's values left to right, as the board is seen (a play-tester could not tell from any
            # pod whether the market had slid): the menu's "table counters" says it, the corner the actions
            "table": [[word("counter", "actions"), actions],
                      [word("label", "market deck"), state["table"]["market_deck"]],
                      [word("label", "market"), " ".join("-" if c["value"] is None else str(c["value"])
                                                          for c in reversed(state["market"]))]],
        }

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field,
                  given: dict[str, Any] | None = None) -> Field | None:
        """How a pod asks this game's fields: the opening deal's five values as one list, a stall's "set"
        among the decks in play, a market card by its place counted from the left ("position"; the
        surcharge "slot" is the same card counted the other way, never asked). "clean_up" is never
        asked: the routine items decide it; nor a buy's "discount" and a stack's "junk" (the menu's buy… and
        stall… are the plain ones: `buy −1, other payment…` and `stack 4: 3+junk…` are offers of their own)."""
        if field.name in ("slot", "clean_up") or (action, field.name) in (("buy", "discount"), ("stall", "junk")):
            return None
        if action == "set_market":
            # The opening deal (Preparar 3): five cards turned up at once, their values entered left to
            # right in one list. Later, cards are entered one by one ("position" and "value").
            opening = bool(state["decks"]) and all(c["card"] and c["value"] is None for c in state["market"])
            if field.name == "values":
                # Printed values only (1–5): no card effect has changed a value yet.
                return Ints("values", lo=1, hi=TOP_PRINTED, doc=field.doc) if opening else None
            if opening:
                return None
        if field.name == "position" and action in ("buy", "take", "set_market"):
            # The card to buy, take or enter: asked from the leftmost (1), as the players count the board.
            return Int("position", required=True, lo=1, hi=MARKET_SLOTS, doc=field.doc)
        if (action, field.name) in (("stall", "values"), ("buy", "paid"), ("check_payment", "paid")):
            # Every card is worth at least 1 (printed values 1–5, junk 1, an ocelot's die 1–6): the
            # first up enters a 1 (a payment to check too: a play-tester's started at 0 there, and a held
            # up landed one short).
            return Ints(field.name, lo=1, hi=field.hi, doc=field.doc)
        if action == "stall" and field.name == "set" and state["decks"]:
            return Str("set", choices=tuple(state["decks"]), doc=field.doc)
        return super().pod_field(state, name, action, field, given)

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        """The routine actions of the moment, each with what the device knows filled in and only the
        player's own choices to "ask".

        Before the first turn, the first player only: draw the decks (a stray press on another pod
        draws nothing). Every seat: a market card's value the moment it is turned up (the opening
        deal's five as one list). The player whose turn it is, most likely first: the cheapest card's buy paid with junk
        as far as the hand goes (after a technique: the next stack first), the next stall stack as
        one card of its number of the last stack's set, the technique's usual effects (take a market
        card, draw), each other card's likeliest buy, the stack of the other sets and by its other
        likely values ("stack 4: 3+1"; "ask": its set), every other payment the hand can make as far
        as the device knows the player's cards ("buy #4: 4+2"; ``hand_payments``), each card
        with the values paid to enter ("ask": paid), the payments a player may ask the referee about
        ("pay 4: 5+1?", a note), technique, technique +1, a technique with its bonus action and its
        effect in one line ("tech +1: take 4"; up from the first offer, the takes come right after
        discard), and discard ("ask": how many; last: one press up from the first offer, past the first
        offer's other new-card values); end turn once an action is taken,
        and the bonus action of a technique entered without it. The turn's last action cleans up by
        itself ("clean_up"), as "end turn" would, and when the clean-up turns up one market card its
        value is the action's last step ("new_value"): the card is read as it is turned up. The first
        offer, when that value is all it asks, is one line per value the card can have ("new 2, buy #5:
        1+1" first; "new 3", "new 4", "new 5" one press up, as up raises a value): the player reads
        the card and picks its line, one press fewer than the value's own step.
        """
        if state["over"]:
            return []
        if not state["decks"]:  # drawn once, for the table: on the first player's pod only
            if state["turn"]["player"] != name:
                return []
            return [{"label": word("label", "draw decks"), "action": {"action": "draw_decks"}}]
        items = self._market_entries(state)
        turn = state["turn"]
        opening = (all(c["card"] and c["value"] is None for c in state["market"])
                   and turn["number"] == 1 and not turn["actions_taken"])
        if turn["player"] != name or opening:  # Preparar: the market is dealt before the first turn
            return items + self._refills(state, name)
        waiting = len(items)
        p = next(p for p in state["players"] if p["name"] == name)
        hand = p["counters"]["hand"]
        actions = state["table"]["actions"]
        last = actions == 1
        empty = sum(1 for c in state["market"] if not c["card"])

        def then(emptied: int) -> tuple[dict[str, Any], list[str]]:
            """The last action's clean-up, and the new card's value when it turns up exactly one."""
            if not last or self.options["say_clean_up"]:
                return {}, []
            if self._turned_up(state, empty + emptied) == 1:
                return {"clean_up": True, "new_value": NEW_CARD_START}, ["new_value"]
            return {"clean_up": True}, []

        if actions and hand:
            asked_about, primary, others, by_die, generic, checks = self._buys(state, p, hand, then(1))
            sets, likely, shapes = self._stacks(state, p, hand, then(0))
            effects = self._effects(state, name) if turn["played"] else []
            done, asked = then(0)
            # After a card taken from the market (a technique's effect), the bonus action most likely
            # builds a stack: the stacks made with it (one per set) first, then the stack's other
            # shapes in the set the player collects. Otherwise the cheapest buy, then the next stack
            # in every set, side by side (the set of the player's stacks first).
            took = bool(turn["played"] and turn.get("taken"))
            first = sets + likely + primary[:1] if took else primary[:1] + sets
            # After a technique, its effects past the buys, the stacks and the techniques: most techniques are
            # entered with their effect in one line now (111 of 125 in the rulebook stories), and a play-tester's
            # bonus buy sat behind the 13 effect lines of a card already done (right after a technique entered
            # alone they are select's first stop). Up from the first offer: discard, a technique alone (its
            # effects entered after: a card whose text no offer has, which a play-tester met often and found
            # 33–72 lines down), then the market cards taken with the bonus action.
            # The techniques by what they do, the most told first (select goes down the list: each kind's first
            # line is a stop), the two told most (a card from or to another player, drawing, with the bonus
            # action: ``LEADING_TECHNIQUES``) before each card's other payments, the others right after them (the
            # stories' techniques 125, their buys paid otherwise than the likeliest way about 45: a play-tester's
            # techniques were 7–9 stops away, behind the die-raised payments and those asked about); then the
            # payments asked about and those with
            # a card a die raised, a technique's effects, the market cards taken with the bonus action, right
            # above a technique alone and the discard (one held press up from the first offer; a play-tester going
            # up met 30–60 payments asked about when they came right above the takes).
            techniques = [self._ending(o, then) for o in self._techniques(state, name, hand)]
            kinds = [technique_kind(o["action"]) for o in techniques]  # once each: worked out at every new state
            takes = [o for o, kind in zip(techniques, kinds) if kind == "tech +1 take"]
            lead = [o for o, kind in zip(techniques, kinds) if kind in LEADING_TECHNIQUES]
            rest = [o for o, kind in zip(techniques, kinds) if kind not in LEADING_TECHNIQUES + ("tech +1 take",)]
            items += asked_about + first + generic + primary[1:] + shapes + lead + others + rest + checks + \
                by_die + effects + takes + [
                    {"label": word("label", "technique"), "action": {"action": "technique", "player": name}},
                    {"label": word("label", "technique +1"),
                     "action": {"action": "technique", "player": name, "bonus": True}},
                    {"label": word("label", "discard"), "ask": ["count"] + asked,
                     "action": {"action": "inventory", "player": name, "count": 1, **done}},
                ]
        elif actions:
            done, asked = then(0)
            items.append(offer(word("label", "pass"), {"action": "inventory", "player": name, "count": 0, **done},
                               ask=asked))
        elif turn["played"]:
            items += self._effects(state, name)
        if turn["actions_taken"]:
            # Asks nothing, so that the touchscreen's player card shows it as a button; a card the
            # clean-up turns up is then offered as "new card N". With no action left and one card to
            # turn up (a technique took one from the market), the first offer, one line per value
            # of that card ("new 2, end turn"): one press, where "end turn" and the new card took 3–4.
            ending: dict[str, Any] = {"action": "end_turn", "player": name}
            end: Offer = {"label": word("label", "end turn"), "action": ending}
            if not actions and not self.options["say_clean_up"] and self._turned_up(state, empty) == 1:
                end.update({"ask": ["new_value"], "action": {**ending, "new_value": NEW_CARD_START}})
            items.insert(len(items) if actions else waiting, end)
            if not actions and turn["techniques"] > turn["bonuses"]:
                items.append({"label": word("label", "bonus action"),
                              "action": {"action": "adjust", "counter": "actions", "delta": 1}})
        return _grouped(self._each_new_value(items, waiting), effects_now=bool(turn.get("alone")))

    @staticmethod
    def _refills(state: dict[str, Any], name: str) -> list[Offer]:
        """Right after a player's clean-up, on that player's pod until the next player's first action and while
        the cards are as it left them: the
        refill told again as a card in hand changes it — cards discarded first (a card that lets its player
        discard before filling the hand; up enters more), the hand filled to one more (a card that fills it
        to 6). Each asks its number, so that a stray press only shows it: the pods' actions clean up at
        once, and a card that changes the refill was told with four presses of the menu at least, twice
        (the action without its clean-up, then the discard; a rulebook reader's «Hoarder's Nest» four times
        in one story)."""
        last = open_refill(state, name)
        if last is None or state["over"] or state["turn"]["actions_taken"]:
            return []  # told between the turns: once the next player acts, the moment is gone from the pods
        out: list[Offer] = []
        if last["before"]["hand"]:
            out.append({"label": _("discard 1, then refill"), "ask": ["discard"],
                        "action": {"action": "refill", "player": name, "discard": 1}})
        out.append({"label": _("refill to {n}", n=last["draw_to"] + 1), "ask": ["draw_to"],
                    "action": {"action": "refill", "player": name, "draw_to": last["draw_to"] + 1}})
        return out

    @staticmethod
    def _ending(item: Offer, then: Any) -> Offer:
        """A technique line that enters its card's effect and gives no bonus action, as the turn's last
        action: its clean-up follows, as a buy's does (a play-tester's panda, «roba 2» and a card given,
        left the turn open: «end turn» was 41 lines away). A technique alone, or one with the bonus
        action, leaves the turn to what comes after it."""
        action = item["action"]
        if action.get("bonus") or not EFFECT_FIELDS & set(action):
            return item
        take = "take" in action
        done, asked = then(1 if take else 0)
        if not done or (asked and not take):
            # a card to turn up that the technique did not empty (an earlier take's): the line stays
            # whole, and the first offer after it is that card's value with the end of the turn
            return item
        out: Offer = {**item, "action": {**action, **done}}
        if asked:
            out["ask"] = [*item.get("ask", ()), *asked]
        return out

    @staticmethod
    def _each_new_value(items: list[Offer], first: int) -> list[Offer]:
        """The first offer, when all it asks is the value of the card its clean-up turns up, made once
        per value that card can have: the player reads the card and picks its line. The 2 stays first;
        the 3, 4 and 5 are the last offers, in the order up reaches them from the first (up raises
        the value, as in the value's own step); the other offers keep their places."""
        if len(items) <= first or tuple(items[first].get("ask", ())) != ("new_value",):
            return items
        action = items[first]["action"]
        if action["action"] == "buy":
            paid = sum_words(action["paid"])
            position = slot_position(action["slot"])

            def label(value: int) -> Any:
                return _("new {value}, buy #{position}: {paid}", position=position, value=value, paid=paid)
        elif action["action"] == "stall":
            values, deck = "+".join(map(str, action["values"])), word("deck", action["set"])
            number = sum(action["values"])

            def label(value: int) -> Any:
                return _("new {value}, stack {number}: {values} {deck}", number=number, value=value,
                         values=values, deck=deck)
        elif action["action"] == "inventory" and not action.get("count"):
            def label(value: int) -> Any:
                return _("new {value}, pass", value=value)
        elif action["action"] == "end_turn":
            def label(value: int) -> Any:
                return _("new {value}, end turn", value=value)
        else:
            return items
        each: list[Offer] = [{"label": label(v), "action": {**action, "new_value": v}} for v in NEW_CARD_VALUES]
        return items[:first] + each[:1] + items[first + 1:] + each[:0:-1]

    @staticmethod
    def _turned_up(state: dict[str, Any], empty: int) -> int:
        """How many market cards a clean-up turns up into ``empty`` empty slots (Fase de limpieza 2: from
        the market deck, then its reshuffled discard pile)."""
        table = state["table"]
        left: int = table["market_deck"] + table["market_discard"]
        return min(empty, left)

    @staticmethod
    def _market_entries(state: dict[str, Any]) -> list[Offer]:
        """The market cards turned up but not entered: the opening deal's five as one list, later each
        new card on its own, leftmost first (any seat may enter them)."""
        market = state["market"]
        unknown = [slot for slot in reversed(range(MARKET_SLOTS)) if market[slot]["card"] and market[slot]["value"] is None]
        if not unknown:
            return []
        if len(unknown) == MARKET_SLOTS:
            return [{"label": word("label", "market values"), "ask": ["values"], "action": {"action": "set_market"}}]
        # Market cards are valued 2–5 in the base box (the 1s stay out of the market deck): start at 2.
        return [{"label": _("new card {position}", position=slot_position(unknown[0])), "ask": ["value"],
                 "action": {"action": "set_market", "slot": unknown[0], "value": 2}}]

    @staticmethod
    def _buys(state: dict[str, Any], p: dict[str, Any], hand: int, then: tuple[dict[str, Any], list[str]]
              ) -> tuple[list[Offer], list[Offer], list[Offer], list[Offer], list[Offer], list[Offer]]:
        """The buys, cheapest card first (the rightmost on a tie), each named by its place from the left,
        its price and the values paid (asking nothing but the card the clean-up turns up): each card's
        likeliest payment (junk as far as the hand goes, else the lowest cards the device knows the
        player owns, or the payment the referee just accepted for that price), the card's other
        payments (those with a card a die raised apart, together), then each card with the values paid to enter
        ("ask": paid), and the payment checks a player may ask about (check_payment, a note). After a payment check, the cards of the price
        asked about come first, with all their payments: the player is about to buy one of them."""
        done, asked = then
        name, known = p["name"], list(p.get("known", []))
        check = state["payment_check"]
        cards = sorted((slot_price(slot, c["value"]), slot) for slot, c in enumerate(state["market"])
                       if c["card"] and c["value"] is not None)
        primary: list[Offer] = []
        ranked: list[list[Offer]] = []  # each card's other payments, in order
        asked_about: list[Offer] = []
        generic: list[Offer] = []
        checks: list[Offer] = []
        for price, slot in cards:
            position = slot_position(slot)
            payments = hand_payments(price, hand, known)
            die: list[list[int]] = []
            if "ocelots" in state["decks"]:  # a lucky ocelot paid with its die's value
                die = [paid for paid in die_payments(price, hand, known) if paid not in payments]
                payments += die
            if check and check["ok"] and check["price"] == price and len(check["paid"]) <= hand:
                accepted = list(check["paid"])
                payments = [accepted] + [x for x in payments if x != accepted]
            offers: list[Offer] = []
            for paid in payments:
                words = die_words(paid, known) if paid in die else sum_words(paid)
                offers.append(offer(_("buy #{position}: {paid}", position=position, paid=words),
                                    {"action": "buy", "player": name, "slot": slot, "paid": paid, **done}, ask=asked))
                if paid in die:  # a select stop of its own (a tester's die-raised payment was line 42 of 162)
                    offers[-1]["group"] = "buy die"
            if check and check["price"] == price:
                asked_about += offers  # the card the player just asked the referee about: all its payments first
            else:
                if offers:  # the likeliest buys one select stop, whichever way each is paid
                    offers[0]["group"] = "buy"
                primary += offers[:1]
                for other in offers[1:]:
                    # the other payments a select stop of their own, right after the likeliest (a play-tester's
                    # select went from "buy, other payment…" to the die-raised ones past his "buy #5: 2+1")
                    other.setdefault("group", "buy other")
                ranked.append(offers[1:])
            doubtful = doubtful_payments(price, hand, known)
            raised: list[list[int]] = []
            if "ocelots" in state["decks"]:
                raised = [paid for paid in die_doubtful_payments(price, hand, known) if paid not in doubtful]
            checks += [offer(_("pay #{position}: {paid}?", position=position,
                               paid=die_words(paid, known) if paid in raised else sum_words(paid)),
                             {"action": "check_payment", "slot": slot, "paid": paid}) for paid in doubtful + raised]
        if cards:
            # Any other buy (a die-raised ocelot, cards the device did not see): one offer asking the card
            # (from the cheapest) and the values paid from none, so no offered payment is taken apart.
            generic.append({"label": word("label", "buy, other payment"), "ask": ["position", "paid"] + asked,
                            "action": {"action": "buy", "player": name, "position": slot_position(cards[0][1]),
                                       "paid": [], **done}})
            # the same with the price lowered by a passive card the player shows (a rulebook reader's «Regateo»,
            # −1: a play-tester searched 106 presses, and the story lowered the card's value with set market)
            generic.append({"label": _("buy −1, other payment"), "ask": ["position", "paid"] + asked,
                            "action": {"action": "buy", "player": name, "position": slot_position(cards[0][1]),
                                       "paid": [], "discount": 1, **done}})
        # The other payments card by card, in the likeliest buys' order (cheapest card first): they went round the
        # cards, each card's second likeliest, then each card's third…, and three play-testers could not tell
        # where their card's were (one card's lines five apart, a buy 16–30 lines down; on the robot card by card
        # had cost clicks, 52 → 58 a round on the rulebook story, the likelier payments being further)
        others = [o for card in ranked for o in card]
        # the payments with a die-raised card after the others, together: select's stop lands on the first of them
        # and they go on from there (a play-tester's were spread over lines 33–73 among the other payments, and
        # the stop landed on one among the likeliest buys, line 11)
        # and among them card by card from the left, each card's by the die's value, the fewest cards first (a
        # play-tester's two-card "buy #1: ⚄6+2" was line 49 of 139, the block going round the five cards per value)
        by_die = sorted((o for o in others if o.get("group") == "buy die"),
                        key=lambda o: (slot_position(o["action"]["slot"]), die_raised(o["action"]["paid"], known),
                                       len(o["action"]["paid"])))
        others = [o for o in others if o.get("group") != "buy die"]
        return asked_about, primary, others, by_die, generic, checks

    def _stacks(self, state: dict[str, Any], p: dict[str, Any], hand: int, then: tuple[dict[str, Any], list[str]]
                ) -> tuple[list[Offer], list[Offer], list[Offer]]:
        """The next stall stack: as a single card of its number (a 5 and the rest above 5) of each set
        in play, the set of the player's last stack first ("stack 4: 4 pandas", asking nothing but
        the card the clean-up turns up); its other likely values in that set ("stack 4: 3+1 pandas",
        offered after a technique took a card); then by its other likely values ("stack 4: 3+1";
        "ask": its set, starting at the last stack's), then of other cards ("ask": its values and set)."""
        done, asked = then
        number = p["counters"]["stall"] + 1
        likely = self._likely_stack(state, p)
        decks = [likely["set"]] + [d for d in state["decks"] if d != likely["set"]]
        # One card of the number first (up to 5); then what the cards the device knows the player owns
        # make (a 3+2+2+1 of known cards beats any guess); then the other shapes.
        generic = [values for values in stack_shapes(number) if len(values) <= hand]
        single = [values for values in generic[:1] if len(values) == 1]
        shapes = single + known_shapes(number, hand, list(p.get("known", [])))
        shapes += [values for values in generic if values not in shapes]
        # Two 1s of one set: the player's own and another player's, taken by a card's effect (the
        # second rulebook story's Dee stacked her Panda 1 and Ben's): last, as rare as that is.
        shapes += [values for values in stack_shapes(number, ones=2) if len(values) <= hand and values not in shapes]
        # A card taken from the market this turn most likely goes into the stack: its shapes first.
        taken = state["turn"].get("taken", [])
        shapes.sort(key=lambda values: not any(v in values for v in taken))
        sets = [offer(stack_label(number, first, deck),
                      {"action": "stall", "player": p["name"], "values": first, "set": deck, **done}, ask=asked)
                for first in shapes[:1] for deck in decks]
        likely_set = [offer(stack_label(number, values, likely["set"]),
                            {"action": "stall", "player": p["name"], "values": values, "set": likely["set"], **done},
                            ask=asked)
                      for values in shapes[1:]]
        # the next likeliest shape in each other set too (an eighth rulebook reader's Ocelote 1 and a Camuflaje read
        # as an ocelot: 6 presses, the set asked), after the likely set's shapes
        likely_set += [offer(stack_label(number, values, deck),
                             {"action": "stall", "player": p["name"], "values": values, "set": deck, **done}, ask=asked)
                       for values in shapes[1:2] for deck in decks[1:]]
        out = [offer(stack_label(number, values),
                     {"action": "stall", "player": p["name"], "values": values, "set": likely["set"], **done},
                     ask=["set"] + asked)
               for values in shapes[1:]]
        # Any other stack: its cards' values entered from none (the likely shapes are offers of their own).
        out.append({"label": _("stack {number}", number=number), "ask": ["values", "set"] + asked,
                    "action": {"action": "stall", "player": p["name"], "values": [], "set": likely["set"], **done}})
        # A card of the number less one and a junk card, where an animal's power lets junk in («algunos animales
        # pueden salirse con la suya con un poco de basura en su puesto»: a rulebook reader's squirrel did, and a
        # play-tester's stack went through two adjusts and a discard, 28 presses), last: the rarest
        if 2 <= number <= TOP_PRINTED + 1 and hand >= 2:
            out.append({"label": _("stack {number}: {value}+junk", number=number, value=number - 1), "ask": ["set"] + asked,
                        "action": {"action": "stall", "player": p["name"], "values": [number - 1], "junk": 1,
                                   "set": likely["set"], **done}})
        # the same junk card beside several animal cards, their values entered (a ninth rulebook reader's 5 + 1 + junk:
        # not possible on the pods, the full entry asks no junk)
        if number >= 3 and hand >= 3:
            out.append({"label": _("stack {number}: cards+junk", number=number), "ask": ["values", "set"] + asked,
                        "action": {"action": "stall", "player": p["name"], "values": [], "junk": 1,
                                   "set": likely["set"], **done}})
        return sets, likely_set, out

    @staticmethod
    def _techniques(state: dict[str, Any], name: str, hand: int) -> list[Offer]:
        """A technique with its usual effect in one line (Acción técnica: the effects, then the bonus
        action, if the card has its icon): with the bonus action, a market card taken into the hand,
        by its place from the left, or cards drawn; without, junk thrown away and as many drawn,
        the top card of another player's deck or discard pile (or a card from their hand) taken into the hand, or a card given
        to another player and cards drawn (asked, from 2)."""
        if hand < 1:
            return []
        # a market card taken, with the bonus-action icon and (further) without it: a play-tester's card
        # took one without the icon, and the only line gave an action the card does not give
        takes = [offer(_("tech +1: take {position}", position=slot_position(slot)),
                       {"action": "technique", "player": name, "bonus": True, "take": slot_position(slot)})
                 for slot in _market_cards(state)]
        plain_takes = [offer(_("tech: take {position}", position=slot_position(slot)),
                             {"action": "technique", "player": name, "take": slot_position(slot)})
                       for slot in _market_cards(state)]
        cards = _market_cards(state)
        if hand >= 2 and cards:
            # a card of the hand thrown away, then a market card taken (a tenth rulebook reader's «Molt», three
            # times: junk or an animal card; its place asked, from the leftmost card): the first of the takes, so
            # that up from the first offer reaches the takes by place before them
            first = slot_position(cards[0])
            for kind, label, plain in (("throw_animals", _("tech +1: animal away, take"), _("tech: animal away, take")),
                                       ("throw", _("tech +1: junk away, take"), _("tech: junk away, take"))):
                swap = {"action": "technique", "player": name, kind: 1, "take": first}
                takes.insert(0, offer(label, {**swap, "bonus": True}, ask=["take"]))
                plain_takes.insert(0, offer(plain, swap, ask=["take"]))
        draws = [offer(_("tech +1: draw {n}", n=n), {"action": "technique", "player": name, "bonus": True, "draw": n})
                 for n in range(1, TECHNIQUE_DRAWS + 1)]
        # Techniques that move cards (Acción técnica, Nota: «robar, tomar o intercambiar»): throw cards
        # junk away and draw as many (animal cards thrown away go to the market discard: ``move``); the
        # top card of another player's deck or discard pile into the hand
        junk = [n for n in range(1, TECHNIQUE_DRAWS + 1) if hand >= 1 + n]  # the technique card and n more
        moves = [offer(_("tech: {n} junk away, draw {n}", n=n),
                       {"action": "technique", "player": name, "throw": n, "draw": n}) for n in junk]
        # junk thrown away and nothing drawn («Tira 1 o 2 cartas de tu mano», a rulebook reader's card),
        # after them (their bonus offers come after those that draw)
        thrown = [offer(_("tech: {n} junk away", n=n), {"action": "technique", "player": name, "throw": n})
                  for n in junk]
        # the rest of the hand to the discard pile and a new hand drawn (a play-tester found no offer
        # for it and threw the cards away instead: away is the junk pile, gone from the deck)
        # (the cards discarded said with the count drawn: a play-tester read "redraw hand of 4" as the hand's size)
        anew = {"action": "technique", "player": name, "discard_hand": True, "draw": HAND_SIZE}
        kept = max(hand - 1, 0)  # the hand but the technique card
        moves.insert(0, {"label": _("tech: discard {discarded}, draw {n}", discarded=kept, n=HAND_SIZE),
                         "action": anew})
        bonus: list[Offer] = [{"label": _("tech +1: discard {discarded}, draw {n}", discarded=kept, n=HAND_SIZE),
                               "action": {**anew, "bonus": True}}]  # the same with the bonus-action icon
        bonus += [{"label": _("tech +1: {n} junk away, draw {n}", n=n), "action": {**draw["action"], "bonus": True}}
                  for n, draw in enumerate(moves[1:], 1)]
        # «discard your hand and draw as many as you discarded» (a third rulebook reader's macaw): the
        # hand but the technique card, after the new hand of 5 (14 presses through the steps before)
        if 0 < kept != HAND_SIZE:
            same = {**anew, "draw": kept}
            moves.insert(1, {"label": _("tech: discard {discarded}, draw {n}", discarded=kept, n=kept), "action": same})
            bonus.insert(1, {"label": _("tech +1: discard {discarded}, draw {n}", discarded=kept, n=kept),
                             "action": {**same, "bonus": True}})
        # junk thrown away, then one card drawn however many went (a seventh rulebook reader's «Trash Run»:
        # «Throw away up to 2 cards from your hand. Then draw 1 card»; its two throws of 2 were a long scroll)
        moves += thrown + [offer(_("tech: {n} junk away, draw 1", n=n),
                                 {"action": "technique", "player": name, "throw": n, "draw": 1}) for n in junk if n > 1]
        # junk thrown away and a number drawn that the card leaves open (an eighth rulebook reader's «Ruleta»: a die
        # says how many; no line had it, and the pods could not enter it): the draws asked, from one more than thrown;
        # the last of their kind (the list is built reversed)
        moves[:0] = [offer(_("tech: {n} junk away, draw", n=n),
                        {"action": "technique", "player": name, "throw": n, "draw": n + 1}, ask=["draw"]) for n in junk]
        # the same card throwing a junk card and an animal card, the animal to the market discard (the same reader's
        # second «Ruleta»: 13 presses, a move through the menu); the draws asked, from 2
        if hand >= 3:
            moves[:0] = [offer(_("tech: junk+animal, draw"),
                               {"action": "technique", "player": name, "throw": 1, "throw_animals": 1, "draw": 2},
                               ask=["draw"])]
        # the same with the bonus-action icon (a third rulebook reader's squirrel: 7+ presses through
        # the menu), after the bonus offers that draw
        bonus += [{"label": _("tech +1: {n} junk away", n=n),
                   "action": {"action": "technique", "player": name, "throw": n, "bonus": True}} for n in junk]
        gift_draw = next(p for p in state["players"] if p["name"] == name).get("gift_draw") or 2
        # built from the right, as the list's halves are reversed below: going down the list, the players from your
        # left on (a play-tester's gift went Ana, Dee, Cai from Ben's pod and overshot the player he wanted); the
        # gifts to each player first, together, then the piles taken from each (the stories' cards between
        # players were gifts 30 times of 38 with the bonus: a play-tester's gift to his second player was 7 lines
        # past the first, behind the first player's piles)
        gifts: list[Offer] = []
        bonus_gifts: list[Offer] = []
        # the top 2 cards of another player's deck looked at, one kept, the other on their discard pile (a ninth
        # rulebook reader's «Hurgar»: a take and a move, 22 presses): the last of the kind, from the left going down
        for other in others_from_left(state, name):
            if takeable(next(q for q in state["players"] if q["name"] == other)["counters"], "deck"):
                look = {"action": "technique", "player": name, "from_player": other, "pile": "deck", "look": 2}
                moves.insert(0, offer(_("tech: {who}'s deck top 2", who=other), look))
                bonus.insert(0, offer(_("tech +1: {who}'s deck top 2", who=other), {**look, "bonus": True}))
        for other in reversed(others_from_left(state, name)):
            q = next(p for p in state["players"] if p["name"] == other)
            for pile in ("deck", "discard", "hand"):  # a card from the hand: drawn at random from it
                if takeable(q["counters"], pile):
                    steal = {"action": "technique", "player": name, "from_player": other, "pile": pile}
                    moves.append({"label": _("tech: {who}'s {pile}", who=other, pile=word("pile", pile)),
                                  "action": steal})
                    bonus.append({"label": _("tech +1: {who}'s {pile}", who=other, pile=word("pile", pile)),
                                  "action": {**steal, "bonus": True}})
            if hand >= 2:  # a card from the hand to this player, then (asked) cards drawn: 2, or as the player's
                # last gift drew (the card's own number: a fourth rulebook reader's panda drew 1, eleven times)
                give = {"action": "technique", "player": name, "give_to": other, "draw": gift_draw}
                gifts.append({"label": _("tech: a card to {who}", who=other), "action": give, "ask": ["draw"]})
                bonus_gifts.append({"label": _("tech +1: a card to {who}", who=other),
                                    "action": {**give, "bonus": True}, "ask": ["draw"]})
        moves += gifts
        bonus += bonus_gifts
        # cards between this player and every other at once (an eighth rulebook reader's «Saqueo», a card from each
        # other hand, 31 presses; «Banquete», draw 3 then a card to each, 22; «Bambú compartido», every other player
        # draws 1 and then you 2, 26): a kind of their own, the rarest (three cards in eight sets of stories)
        each: list[tuple[Any, Any, dict[str, Any], list[str]]] = [
            (_("tech: from each {pile}", pile=word("pile", pile)), _("tech +1: from each {pile}", pile=word("pile", pile)),
             {"action": "technique", "player": name, "from_each": pile}, [])
            for pile in ("hand", "discard", "deck")
            if any(takeable(q["counters"], pile) for q in state["players"] if q["name"] != name)]
        if hand >= 2:
            each.append((_("tech: a card to each"), _("tech +1: a card to each"),
                         {"action": "technique", "player": name, "give_each": True, "draw": gift_draw}, ["draw"]))
        if any(q["counters"]["hand"] for q in state["players"] if q["name"] != name):
            # a card at random from every other hand thrown away, how many of them junk asked (a ninth rulebook
            # reader's «Ocelote Afortunado»: three moves, 27 presses)
            each.append((_("tech: others throw 1"), _("tech +1: others throw 1"),
                         {"action": "technique", "player": name, "others_throw": True, "others_junk": 0},
                         ["others_junk"]))
        each.append((_("tech: others draw 1"), _("tech +1: others draw 1"),
                     {"action": "technique", "player": name, "others_draw": 1}, []))
        each.append((_("tech: others 1, draw"), _("tech +1: others 1, draw"),
                     {"action": "technique", "player": name, "others_draw": 1, "draw": 2}, ["draw"]))
        moves[:0] = [offer(plain, action, ask=ask) for plain, _b, action, ask in reversed(each)]
        bonus[:0] = [offer(with_bonus, {**action, "bonus": True}, ask=ask) for _p, with_bonus, action, ask in reversed(each)]
        # some of the hand discarded and as many drawn («descarta … y roba otras tantas», a fifth rulebook
        # reader's macaw kept its good cards: 8 presses through the steps): the furthest of their half, past
        # the other players' piles (the rarer lines: a held press to a steal does not go through them)
        for n in range(kept - 1, 0, -1):
            some = {"action": "technique", "player": name, "discard": n, "draw": n}
            moves.append({"label": _("tech: discard {discarded}, draw {n}", discarded=n, n=n), "action": some})
            bonus.append({"label": _("tech +1: discard {discarded}, draw {n}", discarded=n, n=n),
                          "action": {**some, "bonus": True}})
        # by kind, the most told first (stable: each kind's lines as built), the takes with the bonus action last,
        # the leftmost card furthest (up from the first offer reaches them first); among the draws with the bonus
        # the plain ones first (the stories drew 1 eight times, 2 six, a new hand twice: two play-testers' select
        # landed on "tech +1: discard 4, draw 4", their "draw 2" further)
        # cards drawn without the bonus action, how many asked (a ninth rulebook reader's «Apuesta Felina»: a die
        # said 3; no line had it, not possible on the pods), after those with it
        draws.append(offer(_("tech: draw"), {"action": "technique", "player": name, "draw": TECHNIQUE_DRAWS},
                           ask=["draw"]))
        lines = plain_takes + moves[::-1] + draws + bonus[::-1] + takes
        return sorted(lines, key=lambda o: TECHNIQUE_KINDS.index(technique_kind(o["action"])))

    @staticmethod
    def _effects(state: dict[str, Any], name: str) -> list[Offer]:
        """A technique's usual effects, entered after it (Acción técnica), together near the top of the offers
        (a play-tester found the throws 100 lines down, past the payments, when they sat apart): a market card
        taken into the hand, by its place from the left; cards drawn ("ask": how many); a market card taken into
        the player's discard pile; what throws cards
        away («Tira»): a market card to the market discard, by its place, and a card of the hand, one a press
        (a fourth rulebook reader's table swept the market three times and threw an animal card away: 10-13
        presses each through the menu), a card of the hand discarded, and one put on the deck. Junk thrown away is the
        technique's own line ("tech: 1 junk away")."""
        takes = [offer(_("take card {position}", position=slot_position(slot)),
                       {"action": "take", "player": name, "slot": slot}) for slot in _market_cards(state)]
        draw = offer(word("label", "draw cards"), {"action": "draw", "player": name, "count": 1}, ask=["count"])
        # a market card taken into the player's own discard pile (a rulebook reader's «Ojo avizor», four times:
        # a play-tester's went through the menu's take… in 27, 13 and 10 presses)
        kept = [offer(_("take card {position} to discard", position=slot_position(slot)),
                      {"action": "take", "player": name, "slot": slot, "to": "discard"})
                for slot in _market_cards(state)]
        away = [offer(_("throw card {position} away", position=slot_position(slot)),
                      {"action": "take", "player": name, "slot": slot, "to": "market_discard"})
                for slot in _market_cards(state)]
        hand: Offer = {"label": word("label", "throw a hand card away"), "repeat": True,
                       "action": {"action": "move", "player": name, "from": "hand", "to": "market_discard", "count": 1}}
        # a card of the hand discarded, to the player's own pile (the same reader's ocelot rolled low: «descarta
        # 1 carta», 10 presses through the menu)
        discard: Offer = {"label": word("label", "discard a hand card"), "repeat": True,
                          "action": {"action": "move", "player": name, "from": "hand", "to": "discard", "count": 1}}
        # a card of the hand put on top of the player's deck (a seventh rulebook reader's «Glide»: «Draw 2 cards,
        # then put 1 card from your hand on top of your deck», three times: 9 presses each through the menu)
        on_deck: Offer = {"label": word("label", "a hand card on the deck"), "repeat": True,
                          "action": {"action": "move", "player": name, "from": "hand", "to": "deck", "count": 1}}
        # the top card of the player's deck to their discard pile (an eighth rulebook reader's «Ojo giratorio»: look at
        # the top 3, keep 1, the other 2 to the discard pile, three times: 14 presses each through the menu)
        deck_down: Offer = {"label": word("label", "a deck card to discard"), "repeat": True,
                            "action": {"action": "move", "player": name, "from": "deck", "to": "discard", "count": 1}}
        return [*takes, draw, *kept, *away, hand, discard, on_deck, deck_down]

    @staticmethod
    def _likely_stack(state: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
        """The next stack as one card of its number (a 5 and the rest above 5), of the set the player
        has built most stacks of (on a tie the latest; else the first deck in play): a player collects
        one animal set."""
        number = p["counters"]["stall"] + 1
        built = [s["set"] for s in p["stacks"] if s is not None and s["set"] in state["decks"]]
        likely = max(reversed(built), key=built.count) if built else state["decks"][0]
        values = [number] if number <= TOP_PRINTED else [TOP_PRINTED, number - TOP_PRINTED]
        return {"values": values, "set": likely}


#: The kind of each offer by its action (a technique by whether it gives the bonus action; a card effect
#: entered after it, whatever it moves, is an "effect"): a turn offers 95–151 lines, and play-testers
#: scrolled through the kinds one line at a time to learn where each begins (Dale's counters are the
#: rules', so select has nothing else to do there).
_KINDS = {"buy": "buy", "check_payment": "pay?", "stall": "stack", "inventory": "discard", "end_turn": "end turn",
          "refill": "refill", "take": "effect", "draw": "effect", "move": "effect", "set_market": "market",
          "adjust": "bonus"}


#: The techniques' kinds in the list's order, which select goes down: the most told in the seven sets of rulebook
#: stories first (a card from or to another player with the bonus 46 times — 33 of them a gift —, drawing with it 30
#: — 15 in the seventh story alone, where it sat behind 22 lines —, a card from or to another player without it 28,
#: junk away with the bonus 17; a tester's four gifts cost 46 presses eight selects away), part of the hand
#: discarded and redrawn (the rarest: a play-tester's select landed on "tech +1: discard 3, draw 3", his Rummage 13
#: lines further), a market card taken with the bonus last (8: one held press up from the first offer).
TECHNIQUE_KINDS = ("tech +1 players", "tech +1 draw", "tech players", "tech +1 junk", "tech draw", "tech junk",
                   "tech take", "tech +1 draw part", "tech draw part", "tech +1 each", "tech each", "tech +1 take")


#: The technique kinds told most in the rulebook stories (107 of about 200 techniques in the eight sets): ahead of
#: the buys' other payments (45 of 174 buys), which a held press went through to reach them (40–70 lines).
LEADING_TECHNIQUES = ("tech +1 players", "tech +1 draw")


def technique_kind(action: dict[str, Any]) -> str:
    """A technique's kind of line: what the card does (take from the market; draw, with a discard or not; a card
    from or to another player, or every other at once; junk away), with the bonus action or without."""
    each = ("from_each", "give_each", "others_draw", "others_throw")
    does = ("take" if "take" in action else "each" if any(k in action for k in each)
            else "players" if "from_player" in action or "give_to" in action
            else "junk" if "throw" in action else "draw part" if "discard" in action
            else "draw" if "draw" in action else "")
    return f"tech +1 {does}" if action.get("bonus") else f"tech {does}"


def _grouped(items: list[Offer], effects_now: bool = False) -> list[Offer]:
    """Each offer with its ``group`` (the kind of line): a select click on the pod jumps to the next kind. A
    technique's lines by what the card does (take from the market; draw, with a discard or not; a card from
    or to another player; junk away), with the bonus action or without; a payment asked about ("pay #4:
    3+2?") apart from the buys; right after a technique entered alone (``effects_now``), its effects first."""
    for item in items:
        action = item["action"]
        name = str(action.get("action", ""))
        if name == "technique":
            item["group"] = technique_kind(action)
        elif name == "stall" and {"set", "values"} & set(item.get("ask", ())):
            item["group"] = "stack…"  # by its values, its set asked ("stack 2: 1+1…"), or any other stack
        else:  # by the action, but where the offer says its kind (a payment with a die-raised card)
            item.setdefault("group", _KINDS.get(name, name))
            if effects_now and item["group"] == "effect":
                item["group"] = "effect now"
    return items
