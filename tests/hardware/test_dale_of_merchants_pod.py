"""Dale of Merchants from the acting player's own pod: what each routine action asks (``seat_actions``
with their "ask" lists, ``pod_field``), what the pod's grammar makes of it (``grammar.menu``/
``grammar.asks``), and the table's usual moves button by button (the ``Table`` of
tests/hardware/test_controller.py), with the presses they cost.
"""
from __future__ import annotations

import copy

import pytest

from tablekeeper.engine import Match, make_rules
from tablekeeper.engine.errors import RuleError
from tablekeeper.engine.messages import translated
from tablekeeper.hardware.pod import DOWN, MAIN, SELECT, UP, PodView
from tablekeeper.hardware.render import offer_text
from tablekeeper.ui.i18n import load_catalog
from tablekeeper.ui.pod import grammar as g

from .test_controller import Table

GAME = "dale-of-merchants"
DECKS = ["macaws", "pandas", "raccoons"]


def table(players=("Ana", "Ben"), actions=(), **options) -> Match:
    m = Match(make_rules({"game": GAME, "players": list(players), "options": {"decks": DECKS, **options}}))
    for a in actions:
        m.apply(a)
    return m


def offered(m: Match, who: str) -> list[g.Item]:
    """The menu's routine lines: the offers home goes through, most likely first."""
    return [i for i in g.menu(m.rules, m.state, who) if i.kind == g.SEAT]


def seat_item(m: Match, who: str, label: str) -> g.Item:
    item = next(i for i in g.menu(m.rules, m.state, who) if i.kind == g.SEAT and str(i.label) == label)
    return item


def steps(m: Match, who: str, item: g.Item) -> tuple[g.Ask, ...]:
    found = g.asks(m.rules, m.state, who, item)
    assert found is not None, f"{item.label}: the pod cannot ask it"
    return found


def as_started(m: Match, who: str, item: g.Item, **entered) -> dict:
    """The action the pod sends when every step is left where it starts, but those ``entered``."""
    s = steps(m, who, item)
    values = {a.field.name: a.start(item.action.get(a.field.name)) for a in s}
    values.update(entered)
    return g.complete(item, s, values)


OPENING = [{"action": "set_market", "values": [3, 4, 2, 5, 2]}]
#: The opening with a second action this turn: a technique line is then not the turn's last action, and
#: no clean-up follows it (the tests of a line's own effect)
TWO_ACTIONS = OPENING + [{"action": "adjust", "counter": "actions", "delta": 1}]


def test_the_opening_deal_is_one_list_of_five_values_on_any_pod():
    """Preparar 3: «Roba 5 cartas del mazo de mercado y colócalas en el tablero»: the five values,
    left to right, in one step (the "values" list a pod could not enter before)."""
    m = table()
    for who in ("Ana", "Ben"):
        item = offered(m, who)[0]
        (ask,) = steps(m, who, item)
        assert (str(item.label), ask.field.name, ask.step) == ("market values", "values", g.LIST)
    action = as_started(m, "Ben", offered(m, "Ben")[0], values=(3, 4, 2, 5, 2))
    assert action == OPENING[0]
    g.dry_run(m.rules, m.state, action)


def test_a_market_never_entered_holds_back_only_the_first_turn():
    """Preparar 3 deals the market before the first turn, so the first player's pod asks its values
    first; a table that never enters them still plays on: from the next turn every pod offers the
    turn's actions (a stack needs no market), the market's values first."""
    m = table()
    assert [str(i.label) for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT] == ["market values"]
    m.apply({"action": "stall", "set": "macaws", "values": [1], "clean_up": True})
    labels = [str(i.label) for i in g.menu(m.rules, m.state, "Ben") if i.kind == g.SEAT]
    assert labels[0] == "market values" and "stack 1: 1 macaws" in labels


def test_the_decks_are_drawn_from_a_pod_with_nothing_to_ask():
    """Preparar: «Elige tantos mazos de animales como jugadores, más un mazo»: the device draws them."""
    m = Match(make_rules({"game": GAME, "players": ["Ana", "Ben"]}))
    item = g.menu(m.rules, m.state, "Ben")[0]  # no offers before the decks: the menu's first line
    assert item.action == {"action": "draw_decks"} and steps(m, "Ben", item) == ()
    after, _events = g.dry_run(m.rules, m.state, item.action)
    assert len(after["decks"]) == 3


def test_a_buy_is_one_item_per_market_card_and_payment_counted_from_the_left_asking_only_the_new_card():
    """Acción de mercado: «El precio de la tarjeta más a la derecha en el mercado es igual a su valor.
    Moviéndose hacia la izquierda, los precios aumentan»: each card is offered by its place from the
    left, its price and the values paid, cheapest first, paid with junk as far as the hand goes; «La
    limpieza ocurre después de que el jugador haya realizado la acción elegida»: the clean-up follows.
    Any other buy (a card the device did not see, a die-raised ocelot) is one offer right after the
    likeliest, asking the card (from the cheapest) and the values paid, from none."""
    m = table(actions=OPENING)  # left to right 3 4 2 5 2: prices 7 7 4 6 2
    buys = [i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT and i.action["action"] == "buy"]
    assert [str(i.label) for i in buys] == [
        "new 2, buy #5: 1+1", "buy, other payment", "buy −1, other payment", "buy #3: 4×1",
        "new 5, buy #5: 1+1", "new 4, buy #5: 1+1", "new 3, buy #5: 1+1"]  # a tie: the rightmost first
    first = offered(m, "Ana")[0]
    assert first == buys[0] and steps(m, "Ana", first) == ()  # the first buy: one line per new card's value
    second = seat_item(m, "Ana", "buy #3: 4×1")
    (new,) = steps(m, "Ana", second)
    assert (new.field.name, new.step, new.start(second.action["new_value"])) == ("new_value", g.NUMBER, 2)
    action = as_started(m, "Ana", second, new_value=None)  # the new card left out: entered later
    assert action == {"action": "buy", "player": "Ana", "slot": 2, "paid": [1, 1, 1, 1], "clean_up": True}
    g.dry_run(m.rules, m.state, action)  # checked before it is made
    m.apply(action)
    assert m.state["turn"]["player"] == "Ben"  # cleaned up in the same step
    # A card the known cards cannot pay: the values paid are entered (a card the device did not see).
    m2 = table(actions=OPENING)
    item = seat_item(m2, "Ana", "buy, other payment")
    position, paid, _new = steps(m2, "Ana", item)
    assert [a.field.name for a in steps(m2, "Ana", item)] == ["position", "paid", "new_value"]
    assert position.start(item.action["position"]) == 5  # the cheapest card first
    assert paid.start(item.action["paid"]) == () and paid.field.lo == 1  # from none; a card is worth 1 or more
    m2.apply(as_started(m2, "Ana", item, position=4, paid=(4, 2), new_value=None))
    assert m2.state["players"][0]["counters"]["discard"] == 2 and m2.state["players"][0]["known"] == [5]


def test_the_payments_offered_are_those_of_the_cards_the_player_is_known_to_own():
    """Acción de mercado, Nota: «se le permite pagar más de lo necesario por una tarjeta, si no puede
    pagar menos con las tarjetas que está realizando la compra ... puede comprar una tarjeta que cuesta 5
    con dos cuatros incluso con una tarjeta de cinco en la mano». The device follows the values of the
    cards a player buys or takes and builds into stacks; the payments offered are made of those and
    junk, the overpay rule checked, the lowest cards first."""
    m = table(actions=OPENING)  # left to right 3 4 2 5 2: prices 7 7 4 6 2
    m.apply({"action": "technique", "bonus": True, "take": 4})  # the 5 at +1 into Ana's hand
    assert m.state["players"][0]["known"] == [5]
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert [x for x in labels if x.startswith("buy #5:")] == ["buy #5: 1+1", "buy #5: 5"]
    # 7 with a 5: 5+1+1 exactly, never 5+1+1+1 (the surplus 1 is not smaller than a 1).
    assert [x for x in labels if x.startswith("buy #1:")] == ["buy #1: 5+1+1"]
    assert [x for x in labels if x.endswith("?")] == []  # one card above the price needs no asking
    buy = seat_item(m, "Ana", "buy #1: 5+1+1").action
    m.apply({k: v for k, v in buy.items() if k not in ("clean_up", "new_value")})
    assert m.state["players"][0]["known"] == [5, 3]  # the 5 paid is still hers (in her discard pile)
    m.apply({"action": "end_turn", "player": "Ana"})
    m.apply({"action": "inventory", "count": 0, "clean_up": True})  # Ben
    m.apply({"action": "adjust", "player": "Ana", "counter": "stall", "delta": 4})
    m.apply({"action": "stall", "values": [5], "set": "pandas"})  # built: no longer hers
    assert m.state["players"][0]["known"] == [3]


def test_the_new_market_card_is_asked_first_on_every_pod_the_moment_it_is_turned_up():
    """Fase de limpieza 2: «Saca nuevas cartas del mazo del mercado y llena los espacios con ellas de
    derecha a izquierda»: its value is the next thing to enter, by whoever reads it."""
    m = table(actions=OPENING + [{"action": "buy", "slot": 0, "paid": [1, 1], "clean_up": True}])
    for who in ("Ana", "Ben"):
        item = offered(m, who)[0]
        (ask,) = steps(m, who, item)
        assert str(item.label) == "new card 1" and item.action["slot"] == 4 and ask.field.name == "value"
    m.apply(as_started(m, "Ana", offered(m, "Ana")[0], value=3))
    assert m.state["market"][4]["value"] == 3
    assert str(offered(m, "Ben")[0].label).startswith("new 2, buy ")


def test_any_other_stall_stack_asks_its_values_from_none_and_its_set():
    """Acción de puesto: «El valor total de su primera pila debe ser exactamente 1, el siguiente 2»: the
    likely stacks are offers of their own, so the stack entered by hand starts with no value to undo."""
    m = table(actions=OPENING + [{"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
                                 {"action": "inventory", "count": 0, "clean_up": True}])
    item = seat_item(m, "Ana", "stack 2")
    values, deck = steps(m, "Ana", item)
    assert (values.field.name, values.step, values.start(item.action["values"])) == ("values", g.LIST, ())
    assert seat_item(m, "Ana", "stack 2: 2 pandas")  # the likely one is an offer of its own
    assert (deck.field.name, deck.step, deck.start(item.action["set"])) == ("set", g.CHOICE, "pandas")
    assert deck.options == tuple(DECKS)
    m.apply(as_started(m, "Ana", item, values=(2,)))
    assert m.state["players"][0]["counters"]["stall"] == 2 and m.state["turn"]["player"] == "Ben"


def test_routine_items_ask_at_most_three_steps_and_never_the_clean_up_or_the_surcharge():
    """The pod asks the player's choices only: the card is the item (or, in the menu, its place from
    the left), the clean-up is the item's."""
    m = table(actions=OPENING)
    for item in g.menu(m.rules, m.state, "Ana"):
        asked = [a.field.name for a in g.asks(m.rules, m.state, "Ana", item) or ()]
        assert "clean_up" not in asked
        assert "slot" not in asked
        if item.kind == g.SEAT:
            assert len(asked) <= 3


def test_while_a_market_card_waits_for_its_value_it_comes_first_and_the_known_cards_can_be_bought():
    """Fase de limpieza 2 turns a card up; a buy of a card whose value is known does not wait for it."""
    m = table(actions=[{"action": "set_market", "values": [3, 2, None, None, None]}])
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert labels[:3] == ["new card 3", "new 2, buy #2: 5×1", "stack 1: 1 macaws"]
    assert "buy, other payment" in labels  # 7 is more than five 1s: the values paid are entered
    assert "new card 3" in [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ben")]


def test_inventory_discards_any_number_from_the_pod():
    """Acción de inventario: «descarta cualquier cantidad de cartas de tu mano»."""
    m = table(actions=OPENING)
    item = seat_item(m, "Ana", "discard")
    (count,) = steps(m, "Ana", item)
    assert count.field.name == "count" and count.start(item.action["count"]) == 1
    m.apply(as_started(m, "Ana", item, count=3))
    assert m.state["players"][0]["counters"]["discard"] == 3 and m.state["turn"]["player"] == "Ben"


def test_a_technique_leaves_the_turn_open_for_its_effects_and_offers_the_forgotten_bonus():
    """Acción técnica: the effects are entered after the technique (no clean-up yet); «Si la carta tiene
    un icono de acción adicional, puedes realizar otra acción»: a forgotten icon is one item away."""
    m = table(actions=OPENING)
    m.apply(seat_item(m, "Ana", "technique").action)
    labels = [str(i.label) for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT]
    assert labels == ["end turn", "take card 1", "take card 2", "take card 3", "take card 4", "take card 5",
                      "draw cards", "take card 1 to discard", "take card 2 to discard", "take card 3 to discard",
                      "take card 4 to discard", "take card 5 to discard", "throw card 1 away", "throw card 2 away", "throw card 3 away",
                      "throw card 4 away", "throw card 5 away", "throw a hand card away", "discard a hand card",
                      "a hand card on the deck", "a deck card to discard", "bonus action"]
    move = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action.get("action") == "move")
    taker = next(a for a in steps(m, "Ana", move) if a.field.name == "from_player")
    assert taker.options[0] == "Ben" and taker.unset  # another player first; left out: your own piles
    m.apply(seat_item(m, "Ana", "bonus action").action)
    assert [str(i.label) for i in offered(m, "Ana")[:2]] == ["new 2, buy #5: 1+1", "stack 1: 1 macaws"]


def test_a_technique_that_takes_a_market_card_into_the_players_discard_pile_is_one_offer_after_it():
    """A rulebook reader's «Ojo avizor» took a market card into its player's own discard pile, four times in one
    story: a play-tester went through the menu's take… (27, 13 and 10 presses). After the technique it is one
    line per market card: the card leaves the market, the player's discard grows, the hand does not."""
    m = table(actions=OPENING)
    m.apply(seat_item(m, "Ana", "technique").action)
    before = copy.deepcopy(m.state)
    item = seat_item(m, "Ana", "take card 5 to discard")
    assert steps(m, "Ana", item) == ()
    m.apply(item.action)
    ana, was = m.state["players"][0]["counters"], before["players"][0]["counters"]
    assert (ana["hand"], ana["discard"]) == (was["hand"], was["discard"] + 1)
    assert not m.state["market"][0]["card"] and before["market"][0]["card"]
    assert m.state["table"]["market_discard"] == before["table"]["market_discard"]


def test_a_technique_that_throws_a_card_away_is_one_offer_after_it():
    """«Tira 1 carta de tu mano» and a card that sweeps the market (a fourth rulebook reader's table: three
    sweeps and an animal card thrown, 10-13 presses each through the menu): after the technique, a market
    card thrown to the market discard pile by its place, and a card of the hand, one a press; a card of the
    hand discarded to the player's own pile too."""
    m = table(actions=OPENING)
    m.apply(seat_item(m, "Ana", "technique").action)
    before = copy.deepcopy(m.state)
    m.apply(seat_item(m, "Ana", "throw card 2 away").action)
    assert m.state["table"]["market_discard"] == before["table"]["market_discard"] + 1
    assert not m.state["market"][3]["card"] and m.state["players"][0]["counters"] == before["players"][0]["counters"]
    item = seat_item(m, "Ana", "throw a hand card away")
    offered = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "throw a hand card away")
    assert steps(m, "Ana", item) == () and offered.get("repeat")  # held: one more a repeat
    m.apply(item.action)
    assert m.state["players"][0]["counters"]["hand"] == before["players"][0]["counters"]["hand"] - 1
    assert m.state["table"]["market_discard"] == before["table"]["market_discard"] + 2
    m.apply(seat_item(m, "Ana", "discard a hand card").action)  # an ocelot rolled low: «descarta 1 carta»
    ana = m.state["players"][0]["counters"]
    assert (ana["hand"], ana["discard"]) == (before["players"][0]["counters"]["hand"] - 2,
                                            before["players"][0]["counters"]["discard"] + 1)
    # a card of the hand put back on the deck (a seventh rulebook reader's «Glide»: «then put 1 card from your
    # hand on top of your deck»)
    m.apply(seat_item(m, "Ana", "a hand card on the deck").action)
    ana = m.state["players"][0]["counters"]
    assert (ana["hand"], ana["deck"]) == (before["players"][0]["counters"]["hand"] - 3,
                                         before["players"][0]["counters"]["deck"] + 1)


def test_a_bonus_action_keeps_the_clean_up_for_the_last_action():
    """«La limpieza ocurre después de ... las posibles acciones de bonificación»."""
    m = table(actions=OPENING + [{"action": "technique", "bonus": True}, {"action": "technique", "bonus": True}])
    assert m.state["table"]["actions"] == 1
    assert seat_item(m, "Ana", "new 2, buy #5: 1+1").action.get("clean_up") is True
    m = table(actions=OPENING)
    m.apply({"action": "adjust", "counter": "actions", "delta": 1})
    assert "clean_up" not in seat_item(m, "Ana", "buy #5: 1+1").action


# -- button by button -------------------------------------------------------------------------------
def test_a_junk_buy_and_the_card_turned_up_are_one_action_of_two_presses():
    """Acción de mercado and Fase de limpieza 2: «Saca nuevas cartas del mazo del mercado y llena los
    espacios con ellas de derecha a izquierda»: the card turned up is read with the buy, one line per
    value it can have (Preparar 2: «Vuelva a colocar las 1 cartas ... en la caja»: the market deck's
    cards are valued 2 to 5); up from the first line raises it. The payment starts with junk, as far
    as the hand goes."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    assert t.view("Ana").action == "new 2, buy #5: 1+1"
    t.click("Ana", UP)
    assert t.view("Ana").action == "new 3, buy #5: 1+1"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "buy", "player": "Ana", "slot": 0, "paid": [1, 1], "clean_up": True,
                       "new_value": 3}]
    assert t.presses == 2
    assert t.state["market"][4] == {"card": True, "value": 3} and t.state["turn"]["player"] == "Ben"
    assert not [i for i in t.rules.seat_actions(t.state, "Ben") if str(i["label"]).startswith("new card")]


def test_each_value_of_the_card_turned_up_is_one_press_and_main_from_the_first_buy():
    """Fase de limpieza 2 (the card turned up) and Preparar 2 (the market deck holds the cards valued 2
    to 5): a 2 is main alone; a 3, 4 or 5 is one press up (a click, a long press, a held press with one
    repeat) and main. Before, the value was its own step: main, up/down, main."""
    for value, press in ((2, None), (3, "click"), (4, "long"), (5, "held")):
        t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
        if press == "click":
            t.click("Ana", UP)
        elif press == "long":
            t.hold("Ana", UP, repeats=0)
        elif press == "held":
            t.hold("Ana", UP, repeats=1)
        assert t.view("Ana").action == f"new {value}, buy #5: 1+1"
        t.click("Ana", MAIN)
        assert t.presses == (1 if press is None else 2)
        assert t.done == [{"action": "buy", "player": "Ana", "slot": 0, "paid": [1, 1], "clean_up": True,
                           "new_value": value}]
        assert t.state["market"][4] == {"card": True, "value": value}


def test_a_buy_whose_clean_up_turns_up_no_card_is_not_made_once_per_value():
    """Fase de limpieza 2: «Si el mazo de mercado y la pila de descartes se agotan al mismo tiempo, no
    sucede nada»: no card is turned up, so there is no value to read and the buy is one line."""
    m = table(actions=OPENING + [{"action": "buy", "slot": 0, "paid": [1, 1], "clean_up": True, "new_value": 3}],
              market_cards_per_deck=2)  # six market cards: the buy turned up the last one
    assert m.state["table"]["market_deck"] == 0 and m.state["table"]["market_discard"] == 0
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ben")]
    assert labels[0] == "buy #4: 1+1+1" and not [x for x in labels if x.startswith("new ")]
    m.apply(m.rules.seat_actions(m.state, "Ben")[0]["action"])
    assert m.state["market"][4] == {"card": False, "value": None} and m.state["turn"]["player"] == "Ana"


def test_a_stack_offered_by_its_value_and_set_is_two_presses():
    """Acción de puesto: «El valor total de su primera pila debe ser exactamente 1, el siguiente 2 ...
    elija cualquier número de cartas de un conjunto de animales de su mano»."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    t.click("Ana", DOWN)  # the cheapest buy first, the stack next, of the set of the last stack
    assert t.view("Ana").action == "stack 2: 2 pandas"  # the market is full: nothing is turned up
    t.click("Ana", MAIN)
    assert t.done == [{"action": "stall", "player": "Ana", "values": [2], "set": "pandas", "clean_up": True}]
    assert t.presses == 2 and t.state["players"][0]["stacks"][-1] == {"set": "pandas", "values": [2]}


def test_a_stack_of_two_cards_is_its_own_offer():
    """«elija cualquier número de cartas de un conjunto de animales»: stack 4 as 3+1, one held down."""
    m = table(actions=OPENING + [{"action": "adjust", "player": "Ana", "counter": "stall", "delta": 3}])
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert [x for x in labels if x.startswith("stack")] == ["stack 4: 4 macaws", "stack 4: 4 pandas", "stack 4: 4 raccoons",
                                                        "stack 4: 3+1", "stack 4: 2+2", "stack 4: 2+1+1", "stack 4",
                                                        "stack 4: 3+junk", "stack 4: cards+junk"]
    item = seat_item(m, "Ana", "stack 4: 3+1")
    m.apply(as_started(m, "Ana", item, set="macaws"))
    assert m.state["players"][0]["stacks"][-1] == {"set": "macaws", "values": [3, 1]}


def test_a_stack_of_two_ones_of_one_set_is_an_offer_asking_only_the_set():
    """«elija cualquier número de cartas de un conjunto de animales de su mano»: a player's deck holds
    one 1 of each set, but a card's effect can take another player's (the second rulebook story's Dee
    stacked her Panda 1 with Ben's): stack 2 as 1+1 is an offer, its set one step, 4 presses."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "macaws", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert [x for x in labels if x.startswith("stack")][-3:] == ["stack 2: 1+1", "stack 2", "stack 2: 1+junk"]
    t.hold("Ana", DOWN, repeats=labels.index("stack 2: 1+1") - 2)  # the press, the hold, each repeat
    assert t.view("Ana").action == "stack 2: 1+1…"
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # the set starts at the last stack's (macaws): pandas one up
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "stall", "player": "Ana", "values": [1, 1], "set": "pandas", "clean_up": True}
    assert t.presses == 4 and t.state["players"][0]["stacks"][-1] == {"set": "pandas", "values": [1, 1]}


def test_a_stack_the_known_cards_make_is_offered_first_with_each_set_and_fits_the_pod():
    """«elija cualquier número de cartas de un conjunto de animales»: the 8th stack of four cards. The
    device knows Ana owns a 3 and two 2s (bought), and every deck gives her one 1: 3+2+2+1 is offered
    ahead of any guess (5+3), with each set, asking nothing, its number left out so the values and the
    set fit the pod's two lines."""
    m = table(actions=OPENING + [{"action": "adjust", "player": "Ana", "counter": "stall", "delta": 7}])
    state = copy.deepcopy(m.state)
    state["players"][0]["known"] = [3, 2, 2]  # as after buying them (see the payments test above)
    offers = [o for o in m.rules.seat_actions(state, "Ana") if o["action"]["action"] == "stall"]
    labels = [str(o["label"]) for o in offers]
    assert labels[:3] == ["stack 3+2+2+1 macaws", "stack 3+2+2+1 pandas", "stack 3+2+2+1 raccoons"]
    assert labels.index("stack 3+2+2+1 macaws") < labels.index("stack 8: 5+3")
    assert "ask" not in offers[0] and offers[1]["action"]["values"] == [3, 2, 2, 1]
    after, _events = g.dry_run(m.rules, state, offers[1]["action"])
    assert after["over"] and after["winners"] == ["Ana"]  # «inmediatamente celebrado como el ganador»
    view = PodView(seat=1, player="Ana", counters=(("stall", 7),), choosing=True, pick=20, choices=99,
                   action=str(translated(offers[0]["label"], load_catalog("es"))))
    assert offer_text(view) == ["pila 3+2+2+1", "guacamayos"]


def test_after_a_technique_its_take_is_offered_and_the_stack_then_asks_the_card_turned_up():
    """Acción técnica: the card's effect (a market card taken) is entered after it; the clean-up of
    the bonus action's stack turns one card up into the emptied slot: its value is the last step."""
    m = table(actions=OPENING + [{"action": "technique", "bonus": True}])
    take = seat_item(m, "Ana", "take card 4")
    assert take.action == {"action": "take", "player": "Ana", "slot": 1} and steps(m, "Ana", take) == ()
    m.apply(take.action)
    item = seat_item(m, "Ana", "new 2, stack 1: 1 macaws")
    assert offered(m, "Ana")[0] == item  # after a technique: the stack first
    assert steps(m, "Ana", item) == ()  # the card turned up: one line per value
    seat = [str(i.label) for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT]
    assert seat[-3:] == ["new 5, stack 1: 1 macaws", "new 4, stack 1: 1 macaws", "new 3, stack 1: 1 macaws"]
    m.apply(seat_item(m, "Ana", "new 5, stack 1: 1 macaws").action)
    assert m.state["market"][4] == {"card": True, "value": 5} and m.state["players"][0]["counters"]["stall"] == 1


def test_the_payment_the_referee_accepted_is_where_the_buy_starts():
    """Acción de mercado, Nota: a payment asked about and accepted is the one the player then makes."""
    m = table(actions=OPENING + [{"action": "check_payment", "position": 4, "paid": [4, 2]}])
    item = offered(m, "Ana")[0]  # the card asked about first, with the payment accepted
    assert str(item.label) == "new 2, buy #4: 4+2" and item.action["paid"] == [4, 2] and item.action["slot"] == 1


def test_a_technique_with_its_bonus_and_its_take_is_one_offer_then_the_stack_four_presses_in_all():
    """Acción técnica: «Si la carta tiene un icono de acción adicional, puedes realizar otra acción
    después de que se hayan resuelto los efectos»: the technique, its effect (a market card taken into
    the hand) and the bonus action are one line, near the last offer (one held press up); the stack
    that follows is the first offer, one line per value of the card the clean-up turns up."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "stall", "set": "pandas", "values": [2], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    back = len(labels) - labels.index("tech +1: take 4")
    t.hold("Ana", UP, repeats=back - 2)  # a held press steps at the press, the hold and each repeat
    assert t.view("Ana").action == "tech +1: take 4"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "bonus": True, "take": 4}
    assert t.state["market"][1] == {"card": False, "value": None} and t.state["table"]["actions"] == 1
    assert t.view("Ana").action == "new 2, stack 3: 3 pandas"
    t.hold("Ana", UP, repeats=1)  # new 3, 4, 5: the press, the hold, one repeat
    assert t.view("Ana").action == "new 5, stack 3: 3 pandas"
    t.click("Ana", MAIN)
    assert t.presses == 4
    assert t.done[-1] == {"action": "stall", "player": "Ana", "values": [3], "set": "pandas", "clean_up": True,
                          "new_value": 5}
    assert t.state["players"][0]["counters"]["stall"] == 3 and t.state["market"][4]["value"] == 5
    assert t.state["players"][0]["counters"]["discard"] == 1  # the technique card, once its effects were resolved


def test_a_technique_that_moves_cards_as_the_turns_last_action_is_one_offer_that_ends_the_turn():
    """Acción técnica, Nota: «robar, tomar o intercambiar»: a technique that takes the top card of
    another player's deck, or throws cards away and draws as many, is one line with its effect (up
    from the first offer, a held press); as the turn's only action its clean-up follows, as a buy's
    does — two presses for what was a technique, a move, a draw and the end of the turn."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert {"tech: 1 junk away, draw 1", "tech: 2 junk away, draw 2", "tech: Ben's deck"} <= set(labels)
    back = len(labels) - labels.index("tech: Ben's deck")
    t.hold("Ana", UP, repeats=back - 2)
    assert t.view("Ana").action == "tech: Ben's deck"
    ben = dict(t.state["players"][1]["counters"])
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "from_player": "Ben", "pile": "deck",
                          "clean_up": True}
    assert t.state["players"][1]["counters"]["deck"] == ben["deck"] - 1
    ana = t.state["players"][0]["counters"]
    assert ana["hand"] == 5 and ana["discard"] == 1  # one played (discarded at the clean-up), one taken
    assert t.presses == 2 and t.state["turn"]["player"] == "Ben"
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ben")]
    back = len(labels) - labels.index("tech: 2 junk away, draw 2")
    cards = sum(t.state["players"][1]["counters"][k] for k in ("hand", "deck", "discard"))
    t.hold("Ben", UP, repeats=back - 2)
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ben", "throw": 2, "draw": 2, "clean_up": True}
    ben = t.state["players"][1]["counters"]
    assert ben["hand"] == 5 and sum(ben[k] for k in ("hand", "deck", "discard")) == cards - 2  # 2 thrown away
    assert t.state["turn"]["player"] == "Ana"


def test_a_card_that_throws_a_junk_and_an_animal_card_away_then_draws_is_one_line():
    """«Las cartas basura se colocan en la pila de basura y las cartas de animales en la pila de descarte del
    mercado»: an eighth rulebook reader's «Ruleta» («Tira hasta 2 cartas de tu mano. Luego lanza el dado y roba
    tantas cartas como el resultado») threw a junk card and an animal card (13 presses, a move through the menu).
    One line, only the draws asked (from 2): the junk to the junk pile, the animal to the market discard."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    offers = {str(o["label"]): o for o in t.rules.seat_actions(t.state, "Ana")}
    line = offers["tech: junk+animal, draw"]
    assert line["action"] == {"action": "technique", "player": "Ana", "throw": 1, "throw_animals": 1, "draw": 2,
                              "clean_up": True} and line["ask"] == ["draw"]
    before = copy.deepcopy(t.state)
    t.match.apply({**line["action"], "draw": 3, "clean_up": False})
    ana, was = t.state["players"][0]["counters"], before["players"][0]["counters"]
    assert ana["hand"] == was["hand"] - 3 + 3  # the technique, a junk and an animal card out; 3 drawn
    assert t.state["table"]["market_discard"] == before["table"]["market_discard"] + 1
    # two cards gone for good, and the technique card on the table until the turn's next action
    assert sum(ana[k] for k in ("hand", "deck", "discard")) == sum(was[k] for k in ("hand", "deck", "discard")) - 3


def test_a_technique_line_leaves_the_clean_up_to_the_next_offer_when_an_earlier_take_emptied_a_slot():
    """A bonus take emptied a market slot; the turn's last technique (one that takes nothing) then keeps its
    line whole (no "…" and a value step on a line whose card did not empty it) and the end of the turn with
    that card's value is the first offer after it."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "bonus": True, "take": 4}])
    offers = {str(o["label"]): o for o in t.rules.seat_actions(t.state, "Ana")}
    assert offers["tech: 1 junk away, draw 1"]["action"] == {"action": "technique", "player": "Ana", "throw": 1,
                                                            "draw": 1}
    assert "ask" not in offers["tech: 1 junk away, draw 1"]
    t.match.apply(offers["tech: 1 junk away, draw 1"]["action"])
    assert str(t.rules.seat_actions(t.state, "Ana")[0]["label"]) == "new 2, end turn"


def test_a_technique_alone_or_with_its_bonus_action_leaves_the_turn_open():
    """A technique entered without its effect (the effects come after it) and one with the bonus-action icon
    do not end the turn: no clean-up in their lines."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    offers = {str(o["label"]): o["action"] for o in t.rules.seat_actions(t.state, "Ana")}
    assert offers["technique"] == {"action": "technique", "player": "Ana"}
    assert "clean_up" not in offers["tech +1: Ben's deck"] and "clean_up" in offers["tech: Ben's deck"]
    t.match.apply(offers["technique"])
    assert t.state["turn"]["player"] == "Ana"


def test_a_technique_that_only_throws_junk_away_is_one_offer():
    """«Tira 1 o 2 cartas de tu mano» (a rulebook reader's card): junk thrown away with nothing drawn is one
    line of its own, beside the ones that draw as many (a robot had gone through the menu: 8 presses)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    offers = {str(i["label"]): i["action"] for i in t.rules.seat_actions(t.state, "Ana")}
    assert offers["tech: 2 junk away"] == {"action": "technique", "player": "Ana", "throw": 2}
    before = dict(t.state["players"][0]["counters"])
    t.match.apply(offers["tech: 2 junk away"])
    after = t.state["players"][0]["counters"]
    assert after["hand"] == before["hand"] - 3  # the technique played and 2 thrown away, none drawn
    assert (after["deck"], after["discard"]) == (before["deck"], before["discard"])  # gone: not discarded


def test_a_technique_that_throws_junk_away_with_the_bonus_action_is_one_offer():
    """The same with the bonus-action icon (a third rulebook reader's squirrel, «Tira hasta 2 cartas de tu
    mano», bonus icon: 7 presses and more through the menu): one line, the bonus action left after it."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    offers = {str(i["label"]): i["action"] for i in t.rules.seat_actions(t.state, "Ana")}
    assert offers["tech +1: 2 junk away"] == {"action": "technique", "player": "Ana", "throw": 2, "bonus": True}
    assert offers["tech +1: 1 junk away"] == {"action": "technique", "player": "Ana", "throw": 1, "bonus": True}
    t.match.apply(offers["tech +1: 2 junk away"])
    assert t.state["players"][0]["counters"]["hand"] == 2 and t.state["table"]["actions"] == 1


def test_a_technique_that_redraws_as_many_as_it_discards_is_one_offer():
    """«Descarta tu mano y roba tantas cartas como descartaste» (a third rulebook reader's macaw): the hand
    but the technique card discarded and as many drawn — 4 of a hand of 5 — is a line of its own beside
    the new hand of 5 (14 presses through the steps before), with and without the bonus action."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    offers = {str(i["label"]): i["action"] for i in t.rules.seat_actions(t.state, "Ana")}
    assert t.state["players"][0]["counters"]["hand"] == 5
    assert offers["tech: discard 4, draw 4"] == {"action": "technique", "player": "Ana", "discard_hand": True,
                                                "draw": 4}
    assert offers["tech +1: discard 4, draw 4"] == {**offers["tech: discard 4, draw 4"], "bonus": True}
    t.match.apply(offers["tech: discard 4, draw 4"])
    assert t.state["players"][0]["counters"]["hand"] == 4  # the four discarded, four drawn


def test_a_technique_that_discards_some_of_the_hand_and_draws_as_many_is_one_offer():
    """«Descarta … y roba otras tantas» for some of the hand (a fifth rulebook reader's macaw discarded its
    three junk and kept its good cards: 8 presses through the steps): one line per count below the whole
    hand, with and without the bonus action; the cards go to the discard pile, as many are drawn."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    offers = {str(i["label"]): i["action"] for i in t.rules.seat_actions(t.state, "Ana")}
    assert offers["tech: discard 3, draw 3"] == {"action": "technique", "player": "Ana", "discard": 3, "draw": 3}
    assert {"tech: discard 2, draw 2", "tech: discard 1, draw 1", "tech +1: discard 3, draw 3"} <= set(offers)
    before = dict(t.state["players"][0]["counters"])
    t.match.apply(offers["tech: discard 3, draw 3"])
    ana = t.state["players"][0]["counters"]
    assert ana["hand"] == 4  # the technique card played, three discarded, three drawn
    assert (ana["discard"], ana["deck"]) == (before["discard"] + 3, before["deck"] - 3)
    with pytest.raises(RuleError, match="not both"):
        t.match.apply({"action": "technique", "player": "Ana", "discard": 1, "discard_hand": True, "draw": 1})


def test_a_technique_that_discards_the_hand_and_draws_anew_is_one_offer_and_keeps_the_cards_in_the_deck():
    """Acción técnica: a card that discards the rest of the hand and draws a new one (a macaw's, in a
    play-tester's table) is one line, with and without the bonus action: the rest of the hand goes to
    the discard pile — not to the junk pile, where a play-tester's "junk away" sent it, out of the deck
    for good — and five are drawn."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert {"tech: discard 4, draw 5", "tech +1: discard 4, draw 5"} <= set(labels)
    before = dict(t.state["players"][0]["counters"])
    back = len(labels) - labels.index("tech +1: discard 4, draw 5")
    t.hold("Ana", UP, repeats=back - 2)
    assert t.view("Ana").action == "tech +1: discard 4, draw 5"
    t.click("Ana", MAIN)
    assert t.presses == 2
    assert t.done[-1] == {"action": "technique", "player": "Ana", "discard_hand": True, "draw": 5, "bonus": True}
    ana = t.state["players"][0]["counters"]
    assert ana["hand"] == 5 and t.state["table"]["actions"] == 1  # a new hand of five, the bonus action left
    # the four other cards to the discard pile, five drawn from the deck (refilled from the pile if short):
    # every card is still the player's (the technique itself waits to be discarded at the clean-up)
    assert ana["deck"] + ana["discard"] + ana["hand"] == before["deck"] + before["discard"] + before["hand"] - 1
    assert t.state["turn"]["played"] == ["discard"]


def test_a_technique_that_takes_a_card_from_another_players_hand_is_one_offer():
    """Acción técnica, Nota: «robar, tomar o intercambiar»: a card that takes a card from another
    player's hand (a play-tester's story had one, at random) is one line per player, beside their
    deck and discard pile: one card leaves Ben's hand for Ana's."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert {"tech: Ben's hand", "tech +1: Ben's hand"} <= set(labels) and "tech: Ana's hand" not in labels
    ben = dict(t.state["players"][1]["counters"])
    back = len(labels) - labels.index("tech: Ben's hand")
    t.hold("Ana", UP, repeats=back - 2)
    assert t.view("Ana").action == "tech: Ben's hand"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "from_player": "Ben", "pile": "hand"}
    assert t.state["players"][1]["counters"]["hand"] == ben["hand"] - 1
    assert t.state["players"][1]["counters"]["deck"] == ben["deck"]  # from the hand, not the deck
    assert t.state["players"][0]["counters"]["hand"] == 5  # one played, one taken


def test_a_technique_takes_a_market_card_or_throws_junk_with_and_without_the_bonus_action():
    """Acción técnica: «si la tarjeta tiene el icono de acción adicional…» — a take and a junk-away each
    have a line with the icon's action and one without (a play-tester's take without the icon had only
    the line that gives the action; a junk-away with it, only the line that does not)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    offers = {str(o["label"]): o["action"] for o in t.rules.seat_actions(t.state, "Ana")}
    assert offers["tech: take 4"] == {"action": "technique", "player": "Ana", "take": 4}
    assert offers["tech +1: take 4"] == {"action": "technique", "player": "Ana", "bonus": True, "take": 4}
    assert offers["tech +1: 2 junk away, draw 2"] == {"action": "technique", "player": "Ana", "throw": 2,
                                                      "draw": 2, "bonus": True}
    t.match.apply(dict(offers["tech: take 4"]))
    assert t.state["table"]["actions"] == 1 and t.state["players"][0]["counters"]["hand"] == 5


def test_after_a_technique_took_a_market_card_the_turn_ends_with_the_new_cards_value_in_one_press():
    """Fase de limpieza: «Si hay ranuras vacías en el mercado, mueva todas las cartas … y llene las ranuras
    vacías con cartas del mazo de mercado» — a technique without the bonus action took a market card: no
    action is left and the clean-up turns up one card, so the first offer is the end of the turn with that
    card's value, one line per value (the second rulebook story's Ana: "end turn" and the new card took 6)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "take": 4}])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels[0] == "new 2, end turn" and labels[-3:] == ["new 5, end turn", "new 4, end turn", "new 3, end turn"]
    t.hold("Ana", UP, repeats=0)  # the press and the hold: up from the first, past the 5 to the 4
    assert t.view("Ana").action == "new 4, end turn"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "end_turn", "player": "Ana", "new_value": 4} and t.presses == 2
    assert t.state["turn"]["player"] == "Ben" and [c["value"] for c in t.state["market"]][-1] == 4


def test_a_buy_from_the_menu_leaves_the_turn_open_for_a_question_before_the_clean_up():
    """«Fase de limpieza» comes after the turn's actions; a table that asks the referee about a payment
    (the second rulebook story's Ana, after her bonus buy) keeps the turn open: the menu's full entry
    `buy…` with the new card's value left at "–" buys without the clean-up (10 presses), and the turn's
    end is then the first offer."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "bonus": True}])
    t.hold("Ana", SELECT)  # the menu
    lines = t.view("Ana").lines
    t.hold("Ana", UP, repeats=len(lines) - lines.index("buy…") - 2)  # up from the top: the full entries last
    assert t.view("Ana").lines[t.view("Ana").cursor] == "buy…"
    t.click("Ana", MAIN)
    t.hold("Ana", UP, repeats=0)  # paid: – 1 2
    t.click("Ana", MAIN)
    t.hold("Ana", UP, repeats=2)  # position: 1 2 3 4 5, the rightmost card (a 2, price 2)
    t.click("Ana", MAIN)
    t.hold("Ana", UP, repeats=1)  # its value: – 0 1 2
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("new value", "–")
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "buy", "player": "Ana", "paid": [2], "position": 5, "value": 2}
    assert t.presses == 10 and t.state["turn"]["player"] == "Ana" and t.state["table"]["actions"] == 0
    assert str(t.rules.seat_actions(t.state, "Ana")[0]["label"]).endswith("end turn")


def test_a_technique_that_gives_a_card_is_one_offer_asking_only_the_cards_drawn_and_ends_the_turn():
    """Acción técnica, Nota: «robar, tomar o intercambiar»: a technique that gives a card from the hand
    to another player and draws (a panda's "share") is one line per player with the draw asked from 2;
    the hands move by one card each way and the giver draws. As the turn's only action its clean-up
    follows (a play-tester's panda left the turn open, and "end turn" was 41 lines up)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert {"tech: a card to Ben", "tech +1: a card to Ben"} <= set(labels)
    assert "tech: a card to Ana" not in labels
    back = len(labels) - labels.index("tech: a card to Ben")
    t.hold("Ana", UP, repeats=back - 2)
    assert t.view("Ana").action == "tech: a card to Ben…"  # more to ask
    t.click("Ana", MAIN)  # the draw, asked from 2
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "give_to": "Ben", "draw": 2, "clean_up": True}
    ana, ben = (p["counters"] for p in t.state["players"])
    assert ben["hand"] == 6  # his five and the card given
    assert ana["hand"] == 5 and ana["discard"] == 1  # 5 − the technique − the card given + 2 drawn; the panda
    assert t.presses == 3 and t.state["turn"]["player"] == "Ben"


def test_a_players_next_gift_draws_as_many_as_the_last_one_did():
    """«Acción técnica: … resuelva sus efectos»: a gift's draw is its card's own number (a fourth rulebook reader's
    panda drew 1, eleven times; a play-tester stepped it down from 2 at every gift). The first gift's draw is asked
    from 2; the player's next gift starts where the last one was."""
    m = table(actions=OPENING + [{"action": "adjust", "counter": "actions", "delta": 1}])
    give = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "tech: a card to Ben")
    assert give["action"]["draw"] == 2 and give["ask"] == ["draw"]
    m.apply({**give["action"], "draw": 1})
    again = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "tech: a card to Ben")
    assert again["action"]["draw"] == 1
    assert next(o for o in m.rules.seat_actions(m.state, "Ana")
                if str(o["label"]) == "tech +1: a card to Ben")["action"]["draw"] == 1


def test_the_gifts_to_each_player_come_together_before_the_cards_taken_from_them():
    """Acción técnica, Nota: «robar, tomar o intercambiar»: the stories' cards between players were gifts 30 times
    of 38 (with the bonus); a play-tester's gift to his second player was 7 lines past the first, behind the first
    player's hand, discard and deck. Going down, a card to each other player from the left, then their piles."""
    m = table(players=("Ana", "Ben", "Cai", "Dee"), actions=OPENING,
              decks=["macaws", "pandas", "raccoons", "squirrels", "ocelots"])
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")]
    gifts = [labels.index(f"tech +1: a card to {who}") for who in ("Ben", "Cai", "Dee")]
    assert gifts == list(range(gifts[0], gifts[0] + 3))  # together, from the left
    assert labels[gifts[-1] + 1] == "tech +1: Ben's hand"  # then the piles, from the left
    assert [labels.index(f"tech: a card to {who}") for who in ("Ben", "Cai", "Dee")] == list(
        range(labels.index("tech: a card to Ben"), labels.index("tech: a card to Ben") + 3))


def test_a_technique_that_takes_a_market_card_as_the_last_action_asks_the_new_cards_value():
    """Fase de limpieza: the take empties a market slot, the clean-up that follows turns up one card: the
    line asks its value (from 2), as a buy's does."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    offer = next(o for o in t.rules.seat_actions(t.state, "Ana") if str(o["label"]) == "tech: take 4")
    assert offer["action"] == {"action": "technique", "player": "Ana", "take": 4, "clean_up": True,
                               "new_value": 2} and offer["ask"] == ["new_value"]
    t.match.apply({**offer["action"], "new_value": 3})
    assert t.state["turn"]["player"] == "Ben" and t.state["market"][4]["value"] == 3


def test_a_technique_takes_only_from_another_players_named_pile():
    m = table(actions=OPENING)
    for bad, why in (({"from_player": "Ben"}, "go together"), ({"pile": "deck"}, "go together"),
                     ({"from_player": "Ana", "pile": "deck"}, "not from their own"),
                     ({"give_to": "Ana"}, "not to themselves")):
        with pytest.raises(RuleError, match=why):
            m.rules.apply(m.state, {"action": "technique", "player": "Ana", **bad})


def test_with_the_lucky_ocelots_a_buy_paid_with_a_die_raised_card_is_an_offer():
    """«1 ocelote muere»: a lucky ocelot pays with its die's value, which the device cannot know; with
    the ocelots in play every card is also offered paid by one die-raised card and 1s («Compre 1 carta
    del mercado pagando su precio en una combinación de cualquier carta de su mano»), asking nothing but
    the card the clean-up turns up; without them, no such offer."""
    m = table(actions=OPENING, decks=["macaws", "pandas", "ocelots"])
    labels = [str(i.label) for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT]
    market = m.rules.view(m.state)["market"]  # from the left: position 1 first
    assert (market[0]["price"], market[-1]["price"]) == (7, 2)
    # a 2 alone; a 6 or a 3 and 1s — the raised card marked with a die (a play-tester read "4×1" as a 1 raised to
    # 4, the next could not tell the die-raised lines from the guesses)
    assert {"buy #5: ⚄2", "buy #1: ⚄6+1", "buy #1: ⚄3+4×1"} <= set(labels)
    assert "buy #1: ⚄2+5×1" not in labels  # six cards: the hand holds five
    plain = table(actions=OPENING)
    assert not any(str(i.label).startswith("buy #1: 6") for i in g.menu(plain.rules, plain.state, "Ana"))
    # a select stop of their own, right after the buys (a tester's was line 42 of 162, among every card's other
    # payments: 49 presses of searching)
    offers = m.rules.seat_actions(m.state, "Ana")
    die = [str(o["label"]) for o in offers if o["group"] == "buy die"]
    assert {"buy #5: ⚄2", "buy #1: ⚄6+1"} <= set(die) and offers[0]["group"] == "buy"
    # a card whose likeliest payment is die-raised stays among the likeliest buys (select's "buy" stop); the
    # others with a die-raised card are one block after every other payment, select's "buy die" stop its first
    likeliest = next(o for o in offers if str(o["label"]) == "buy #1: ⚄3+4×1")
    assert likeliest["group"] == "buy"
    groups = [o["group"] for o in offers]
    first_die = groups.index("buy die")
    assert "buy die" not in groups[:first_die] and set(groups[first_die:first_die + len(die)]) == {"buy die"}
    assert "buy other" not in groups[first_die:]
    # card by card from the left, each card's by the die's value, the fewest cards first (a play-tester's two-card
    # "buy #1: ⚄6+2" was line 49 of 139, the block going round the five cards per value)
    from tablekeeper.engine.games.dale_of_merchants.views import die_raised

    known = m.state["players"][0].get("known", [])
    keys = [(o["action"]["slot"], die_raised(o["action"]["paid"], known), len(o["action"]["paid"]))
            for o in offers if o["group"] == "buy die"]
    positions = [5 - slot for slot, _v, _n in keys]
    assert keys and [(p, v, n) for p, (_s, v, n) in zip(positions, keys)] == sorted(
        (p, v, n) for p, (_s, v, n) in zip(positions, keys))
    # select goes down the list: the die-raised block after the other payments and the techniques (a play-tester's
    # techniques were 7–9 stops away behind it), before a technique's effects and the takes with the bonus action
    techs = [i for i, k in enumerate(groups) if k.startswith("tech") and k not in ("tech +1 take", "tech ", "tech +1 ")]
    assert techs and max(techs) < first_die
    assert all(i < first_die for i, k in enumerate(groups) if k == "buy other")


def test_select_goes_from_the_likeliest_buys_to_each_cards_other_payments():
    """«Compre 1 carta del mercado pagando su precio en una combinación de cualquier carta de su mano»: each
    card's other payments are a select stop of their own, right after the likeliest buys (a play-tester's
    select went from "buy, other payment…" to the die-raised payments, past his "buy #5: 2+1", line 14)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": ["macaws", "pandas", "ocelots"]},
              actions=TWO_ACTIONS + [{"action": "technique", "take": 2}])  # a 4 into Ana's hand, known
    offers = t.rules.seat_actions(t.state, "Ana")
    first_other = next(i for i, o in enumerate(offers) if o["group"] == "buy other")
    assert offers[first_other]["action"]["action"] == "buy"
    assert all(o["group"] != "buy" for o in offers[first_other:])  # past the likeliest ones
    landed = []
    while len(landed) < 10:
        t.click("Ana", SELECT)
        landed.append(t.view("Ana").pick)
        if landed[-1] == first_other:
            break
    kinds = [offers[i]["group"] for i in landed]
    assert "buy" in kinds and landed[-1] == first_other and landed == sorted(landed)  # down the list
    assert "buy die" not in kinds  # reached before the die-raised ones


def test_each_cards_other_payments_are_together_in_the_likeliest_buys_order():
    """«Compre 1 carta del mercado pagando su precio en una combinación de cualquier carta de su mano»: the other
    payments went round the cards (each card's second likeliest, then each card's third…), and three play-testers
    could not tell where their card's were: one card's lines five apart, a buy 16–30 lines down. They go card by
    card, in the order of the likeliest buys."""
    acts = OPENING + [{"action": "adjust", "counter": "actions", "delta": 2}, {"action": "technique", "take": 2},
                      {"action": "technique", "take": 1}]  # a 4 and a 3 into Ana's hand, known
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=acts)
    offers = t.rules.seat_actions(t.state, "Ana")
    likeliest = [o["action"]["slot"] for o in offers if o["group"] == "buy" and "slot" in o["action"]]
    others = [o["action"]["slot"] for o in offers if o["group"] == "buy other"]
    assert len(others) > len(set(others)) >= 3  # several cards, some with more than one other payment
    runs = [slot for i, slot in enumerate(others) if i == 0 or others[i - 1] != slot]
    assert runs == [slot for slot in dict.fromkeys(likeliest) if slot in others]  # each card's once, in order


def test_a_die_raised_card_is_offered_beside_another_known_card_not_only_with_junk():
    """«pagando su precio en una combinación de cualquier carta de su mano»: an ocelot rolled 4 with a
    2 the device knows is in the hand pays a price of 6 as one offer ("buy …: 4+2"), as well as the 4
    with junk — the three likeliest payments per die value, not the likeliest only."""
    from tablekeeper.engine.games.dale_of_merchants.views import die_payments

    assert die_payments(6, 5, []) == [[2, 1, 1, 1, 1], [3, 1, 1, 1], [4, 1, 1], [5, 1], [6]]  # each value's likeliest
    with_a_two = die_payments(6, 5, [2])
    assert with_a_two[1:5] == [[3, 1, 1, 1], [4, 1, 1], [5, 1], [6]] and [4, 2] in with_a_two[5:]
    assert all(len([p for p in die_payments(6, 5, [2, 2]) if max(p) == d]) <= 3 for d in range(2, 7))


def test_a_known_card_a_die_raised_above_six_pays_alone():
    """A card above 1 the device knows the player owns, raised by the die («roll the ocelot die and add the
    result to its value», a seventh rulebook reader's «Lucky Streak», a 4 that rolled 3): a price of 7 paid
    with that card alone is an offer (it took 9 presses through `buy, other payment`); the card no longer
    pays beside itself, and a raised value above the price is not offered (an overpay no table makes)."""
    from tablekeeper.engine.games.dale_of_merchants.views import die_payments, die_words

    paid = die_payments(7, 5, [4, 2])
    assert [7] in paid and die_words([7], [4, 2]) == "⚄7"
    assert [7, 4] not in die_payments(11, 5, [4, 2])  # the 4 raised to 7 is gone from beside it
    assert not [p for p in paid if max(p) > 7]
    assert not [p for p in die_payments(7, 5, []) if max(p) > 6]  # no card known: a lucky 1 raised, as before
    assert [12] in die_payments(12, 5, [9]) and [7] not in die_payments(7, 5, [9])  # a card entered above 5


def test_the_menus_payment_check_enters_its_values_from_1_as_a_buy_does():
    """Every card is worth at least 1: the values of a payment to check start where a buy's do, so the same
    held press enters the same value (a play-tester's check list started at 0 and came out one short)."""
    m = table(actions=OPENING)
    item = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action["action"] == "check_payment")
    paid = {a.field.name: a for a in steps(m, "Ana", item)}["paid"]
    buy = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action["action"] == "buy")
    assert paid.field.lo == 1 == {a.field.name: a for a in steps(m, "Ana", buy)}["paid"].field.lo


def test_a_payment_check_is_an_offer_asking_nothing():
    """Acción de mercado, Nota: «no puede usar tarjetas adicionales al comprar la misma tarjeta con un
    cinco»: the player asks the referee with one offer; the verdict is a note, not an undo step."""
    m = table(actions=[{"action": "set_market", "values": [2, 4, 2, 5, 3]}])  # prices 6 7 4 6 3
    m.apply({"action": "technique", "bonus": True, "take": 2})  # a 4 into Ana's hand
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert [x for x in labels if x.endswith("?")] == ["pay #3: 4+1?"]  # the 4 pays the 4 exactly: a 1 more?
    item = seat_item(m, "Ana", "pay #3: 4+1?")
    assert steps(m, "Ana", item) == ()
    m.apply(item.action)
    assert m.state["payment_check"]["ok"] is False and m.state["payment_check"]["paid"] == [4, 1]
    # The player is about to buy that card: its payments come first.
    assert [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")][:3] == [
        "buy #3: 4×1", "buy #3: 4", "stack 1: 1 macaws"]
    assert m.state["turn"]["actions_taken"] == 1 and m.state["table"]["actions"] == 1  # nothing else changed


def test_a_payment_with_a_die_raised_card_can_be_asked_about_too():
    """«los ocelotes de la suerte traen un caos total»: a fourth rulebook reader's Dee laid a lucky ocelot rolled
    to 5 and a junk on a price of 5, and the table asked whether the junk could go too. With the ocelots in
    play the referee's questions include payments with one card the die raised (the roll is never known to
    the device): each die value's doubtful payments, the known cards' first; without ocelots, none."""
    from tablekeeper.engine.games.dale_of_merchants.views import die_doubtful_payments, doubtful_payments

    assert [5, 1] in die_doubtful_payments(5, 3, []) and [5, 1] not in doubtful_payments(5, 3, [])
    assert all(max(paid) >= 2 for paid in die_doubtful_payments(5, 3, []))  # each has its raised card
    decks = {"decks": ["macaws", "pandas", "ocelots"]}
    for options, asked in (({}, False), (decks, True)):
        m = table(actions=[{"action": "set_market", "values": [2, 4, 2, 5, 3]}], **options)  # prices 6 7 4 6 3
        labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
        assert ("pay #4: ⚄6+1?" in labels) is asked, labels  # a 6 from the die pays the 6 exactly: a 1 more?


def test_a_table_that_says_its_clean_up_gets_offers_without_it_and_ends_the_turn_itself():
    """Fase de limpieza: «La limpieza ocurre después de que el jugador haya realizado la acción elegida
    y las posibles acciones de bonificación»: with "say_clean_up" the table says it (end turn), and
    the card it turns up is entered as it is read."""
    m = table(actions=OPENING, say_clean_up=True)
    offers = m.rules.seat_actions(m.state, "Ana")
    assert all("clean_up" not in o["action"] and "new_value" not in o["action"] for o in offers)
    m.apply(offers[0]["action"])  # buy #5: 1+1
    assert m.state["turn"]["player"] == "Ana"
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")]
    assert labels[0] == "end turn"
    m.apply(m.rules.seat_actions(m.state, "Ana")[0]["action"])
    assert m.state["turn"]["player"] == "Ben"
    assert str(m.rules.seat_actions(m.state, "Ben")[0]["label"]) == "new card 1"


def test_a_discard_is_one_held_press_up_four_presses():
    """Acción de inventario: «descarta cualquier cantidad de cartas de tu mano»: up (past the first
    buy's other values of the card turned up, one held press), main, the count, main; the market is
    full, so the clean-up turns no card up and asks nothing more."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    t.hold("Ana", UP, repeats=2)
    assert t.view("Ana").action == "discard…"
    t.click("Ana", MAIN)
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "inventory", "player": "Ana", "count": 2, "clean_up": True}]
    assert t.presses == 4 and t.state["turn"]["player"] == "Ben"


def test_after_a_technique_took_a_card_its_stacks_come_first_of_every_set():
    """Acción técnica (the card's text: take a market card) and Acción de puesto: «elija cualquier número
    de cartas de un conjunto de animales de su mano»: the card just taken most likely goes into the
    next stack, so the stack made with it comes first, one offer per set (the last stack's first)."""
    m = table(actions=OPENING + [{"action": "adjust", "player": "Ana", "counter": "stall", "delta": 4}])
    m.apply({"action": "technique", "bonus": True, "take": 2})  # the 4 at +3 (position 2)
    assert m.state["turn"]["taken"] == [4]
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert labels[:3] == ["new 2, stack 5: 4+1 macaws", "stack 5: 4+1 pandas", "stack 5: 4+1 raccoons"]
    m.apply(seat_item(m, "Ana", "stack 5: 4+1 raccoons").action | {"new_value": 3})
    assert m.state["players"][0]["stacks"][-1] == {"set": "raccoons", "values": [4, 1]}
    assert m.state["turn"]["taken"] == [] and m.state["turn"]["player"] == "Ben"


def test_the_next_stack_is_offered_first_in_the_set_the_player_has_built_most():
    """Acción de puesto: «elija cualquier número de cartas de un conjunto de animales de su mano»: a
    player collects a set; one stack of another set does not change which set comes first."""
    m = table(actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "stall", "set": "pandas", "values": [2], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "stall", "set": "macaws", "values": [3], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert labels[1] == "stack 4: 4 pandas"


def test_the_first_stack_of_any_set_is_one_press_down_and_main():
    """Preparar 1: «dándole a cada jugador una carta valorada de cada uno de los mazos de animales
    elegidos» — a player holds a 1 of every set — and Acción de puesto: «elija cualquier número de
    cartas de un conjunto de animales de su mano»: the next stack of every set follows the cheapest
    buy side by side, so the set furthest down is one held press away."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels[1:4] == ["stack 1: 1 macaws", "stack 1: 1 pandas", "stack 1: 1 raccoons"]
    t.hold("Ana", DOWN, repeats=1)  # the press, the hold, one repeat: three offers down
    assert t.view("Ana").action == "stack 1: 1 raccoons"
    t.click("Ana", MAIN)
    assert t.presses == 2
    assert t.done == [{"action": "stall", "player": "Ana", "values": [1], "set": "raccoons", "clean_up": True}]
    assert t.state["players"][0]["stacks"] == [{"set": "raccoons", "values": [1]}]


def test_after_a_take_the_stacks_other_shapes_in_the_players_set_follow_the_stacks_made_with_it():
    """Acción técnica (a market card taken), then the bonus action: «puedes realizar otra acción después
    de resolver todos los efectos de esa carta», most often a stack; Acción de puesto: «El valor total
    de su primera pila debe ser exactamente 1, el siguiente 2 ... elija cualquier número de cartas de un
    conjunto de animales»: the stack without the card taken (3 as 2+1 after a 5 is taken) is in the
    set the player collects, asking only the card the clean-up turns up — five presses in all, the
    set not asked."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "stall", "set": "pandas", "values": [2], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", UP, repeats=len(labels) - labels.index("tech +1: take 4") - 2)
    t.click("Ana", MAIN)  # the 5 (fourth from the left) into the hand
    assert t.state["turn"]["taken"] == [5]
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    assert labels[:4] == ["new 2, stack 3: 3 pandas", "stack 3: 3 macaws", "stack 3: 3 raccoons", "stack 3: 2+1 pandas"]
    t.hold("Ana", DOWN, repeats=1)
    assert t.view("Ana").action == "stack 3: 2+1 pandas…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("new value", "2")
    t.click("Ana", MAIN)
    assert t.presses == 5
    assert t.done[-1] == {"action": "stall", "player": "Ana", "values": [2, 1], "set": "pandas", "clean_up": True,
                          "new_value": 2}
    assert t.state["players"][0]["stacks"][-1] == {"set": "pandas", "values": [2, 1]}


def test_after_a_take_the_stacks_next_shape_is_offered_in_every_set_asking_only_the_new_card():
    """«elija cualquier número de cartas de un conjunto de animales de su mano»: an eighth rulebook reader's bonus
    stack after a take was an Ocelote 1 and a Camuflaje read as an ocelot, 1+1 in a set the player had not
    collected (6 presses, the set asked). The next shape is a line in each set, after the collected set's."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "stall", "set": "pandas", "values": [2], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True},
        {"action": "technique", "player": "Ana", "bonus": True, "take": 4}])
    labels = [str(i["label"]) for i in t.rules.seat_actions(t.state, "Ana")]
    i = labels.index("stack 3: 2+1 pandas")
    assert labels[i + 1:i + 3] == ["stack 3: 2+1 macaws", "stack 3: 2+1 raccoons"]
    t.hold("Ana", DOWN, repeats=i + 1 - 2)
    assert t.view("Ana").action == "stack 3: 2+1 macaws…"
    t.click("Ana", MAIN)
    t.click("Ana", MAIN)  # the card the clean-up turns up: the set is not asked
    assert t.done[-1] == {"action": "stall", "player": "Ana", "values": [2, 1], "set": "macaws", "clean_up": True,
                          "new_value": 2}


def test_after_a_technique_its_bonus_actions_buys_and_stacks_come_before_the_effect_lines():
    """A play-tester's bonus buy after «Guardar nueces» (a technique with its draw in one line) sat 21st,
    behind the 13 effect lines (take card N, throw card N away, …) of a card already done: the buys and the
    stacks come first now; the effect lines follow them, before the other payments."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "bonus": True, "draw": 1}])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    buys = [i for i, label in enumerate(labels) if label.startswith(("buy #", "new 2, buy #"))]
    effects = [labels.index(label) for label in ("take card 1", "draw cards", "throw a hand card away")]
    assert len(buys) >= 2 and max(buys) < min(effects), labels  # every buy the hand can pay
    assert any(label.startswith("stack 1") for label in labels[:min(effects)])


def test_the_market_left_to_right_is_said_by_the_pods_table_counters():
    """Preparar 3: the five market cards «en el tablero», from left to right as the board is seen. A
    play-tester could not tell from any pod whether the market had slid after a buy: the menu's "table
    counters" says the values the device believes, "-" for a card it was not told."""
    m = table()
    assert "market - - - - -" in g.table_words(m.rules, m.state, "Ana").translated(None)
    m.apply({"action": "set_market", "values": [3, 4, 2, 5, 2]})
    assert "market 3 4 2 5 2" in g.table_words(m.rules, m.state, "Ben").translated(None)


def test_select_goes_from_one_kind_of_offer_to_the_next_and_past_the_last_to_the_first_again():
    """A Dale turn offers 95–151 lines (every buy by every payment, every stack, every technique by its effect);
    play-testers scrolled them one line at a time to learn where each kind begins (a panda's gift 111th of
    151). Dale's counters are the rules' (no ± by hand), so select has nothing else to do on the offers: a
    click goes to the first line of the next kind — the stacks, the buys, the techniques with the bonus
    action by what they do (the most told first: two play-testers' bonus techniques were 11 and 13 selects
    away behind the plain half, and the stacks and buys came round twice), those without it —, past the
    last kind to the counters, and from them back to the first offer. It changes nothing. Select goes down the
    list: its stops went 2, 12, 7, 14, 26, 111, 93, … (the kinds by likeliness, not by place), and two play-testers
    could not learn where a line would be; one, on the buys, pressed select 40 times for a stack above him."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    offers = t.rules.seat_actions(t.state, "Ana")
    before = copy.deepcopy(t.state)
    landed = []
    for _ in range(40):
        t.click("Ana", SELECT)
        assert not t.view("Ana").tuning  # never the counters: the rules' own, all shown at home
        if t.view("Ana").pick == 0:  # past the last kind: the first offer again
            break
        label = t.view("Ana").action.rstrip("…")
        landed.append(next(o for o in offers[1:] if str(o["label"]).rstrip("…") == label))
    kinds = [o["group"] for o in landed]
    present = list(dict.fromkeys(o["group"] for o in offers[1:]))  # each kind by its first line past the first
    assert kinds == present and len(kinds) >= 8  # each kind once, down the list
    assert [offers.index(o) for o in landed] == sorted(offers.index(o) for o in landed)
    assert kinds[:3] == ["stack", "buy", "stack…"]
    # the techniques the rulebook stories told most first, whether with the bonus or not: a card from or to another
    # player with it (46 in seven sets, 33 of them gifts: a tester's four gifts cost 46 presses eight selects away),
    # drawing with it (30, 15 in the seventh story), a card from or to another player without it (28: two
    # play-testers' steals were eight selects away, behind all four kinds with the bonus), junk away with it (17)
    techs = [k for k in kinds if k.startswith("tech")]
    assert techs[:4] == ["tech +1 players", "tech +1 draw", "tech players", "tech +1 junk"], techs
    # drawing lands on the plain draws, the stories' usual (1 eight times, 2 six, a new hand twice: two play-testers
    # landed on "tech +1: discard 4, draw 4"), not on part of the hand discarded (a kind of its own, last: a
    # play-tester's select landed on "tech +1: discard 3, draw 3", his Rummage 13 lines further)
    assert str(landed[kinds.index("tech +1 draw")]["label"]) == "tech +1: draw 1"
    assert kinds.index("tech +1 draw part") > kinds.index("tech +1 junk")
    # each landing is its kind's first line past the first offer
    assert all(offers.index(o) == next(i for i, x in enumerate(offers) if i and x["group"] == o["group"])
               for o in landed)
    # past the last kind straight back to the first offer (a play-tester went through stall, hand, deck and discard,
    # which no press changes, at every round)
    assert t.view("Ana").action.rstrip("…") == str(offers[0]["label"]).rstrip("…") and t.state == before
    t.click("Ana", DOWN)  # the line after the first, as ever
    assert t.view("Ana").action.rstrip("…") == str(offers[1]["label"]).rstrip("…")


def test_going_down_a_techniques_lines_the_other_players_come_from_your_left():
    """«robar, tomar o intercambiar» cards with another player: a play-tester's gift went "a card to Ana", Dee, Cai
    from Ben's pod (from his right) and his held press overshot the player he wanted. Going down the list, in
    both halves (with the bonus action and without), the players come from your left on: Ben, Cai, Dee for Ana."""
    t = Table(GAME, ["Ana", "Ben", "Cai", "Dee"], {"decks": DECKS + ["ocelots", "squirrels"]}, actions=OPENING)
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for half in ("tech: ", "tech +1: "):
        gifts = [x for x in labels if x.startswith(half + "a card to ") and not x.endswith(" each")]
        assert gifts == [f"{half}a card to {who}" for who in ("Ben", "Cai", "Dee")], gifts
        decks = [x for x in labels if x.startswith(half) and x.endswith("'s deck")]
        assert decks == [f"{half}{who}'s deck" for who in ("Ben", "Cai", "Dee")], decks


def test_right_after_a_technique_entered_alone_select_goes_to_its_effects_first():
    """«Acción técnica: … resuelva sus efectos»: a technique entered alone ("technique +1", its effect to
    follow) makes its effects the next entry — a play-tester's "discard a hand card" after a Wager was the 21st
    select stop, past every kind of buy, stack and technique. Once another action is taken, the effect lines
    go back to the last stop."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "bonus": True}])
    assert t.state["turn"]["alone"] is True
    t.click("Ana", SELECT)
    landed = t.view("Ana").action.rstrip("…")
    offers = t.rules.seat_actions(t.state, "Ana")
    effect = next(o for o in offers if str(o["label"]).rstrip("…") == landed)
    assert effect["group"] == "effect now" and effect["action"]["action"] in ("take", "draw", "move"), landed
    # entered with its effect in one line, the technique's effect lines are the last stop again
    done = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "technique", "player": "Ana", "bonus": True, "draw": 1}])
    assert done.state["turn"]["alone"] is False
    groups = [o["group"] for o in done.rules.seat_actions(done.state, "Ana")]
    assert "effect" in groups and "effect now" not in groups


def test_a_stack_with_a_junk_card_an_animals_power_lets_in_is_one_offer_asking_its_set():
    """«Aunque algunos animales pueden salirse con la suya con un poco de basura en su puesto»: a rulebook reader's
    squirrel built stack 4 as 3 and a junk card; a play-tester took 28 presses (the offer "stack 4: 3+1" then undo,
    two adjusts and a discard). `stack N: N−1+junk…` asks the set only, last of the stacks."""
    m = table(actions=OPENING + [{"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
                                 {"action": "inventory", "count": 0, "clean_up": True}])
    item = seat_item(m, "Ana", "stack 2: 1+junk")
    assert [a.field.name for a in steps(m, "Ana", item)] == ["set"]
    labels = [str(i.label) for i in offered(m, "Ana")]
    assert labels.index("stack 2: 1+junk") == labels.index("stack 2") + 1  # right after any other stack
    m.apply(as_started(m, "Ana", item))
    ana = m.state["players"][0]
    assert ana["stacks"][1] == {"set": "pandas", "values": [1], "junk": 1} and ana["counters"]["stall"] == 2


def test_a_stack_of_several_cards_and_a_junk_card_is_one_offer_asking_the_values():
    """A ninth rulebook reader's «Encanto del Panda» let a junk card into stack 7 beside two animal cards (5 + 1 +
    junk): not possible on the pods, `stack N: N−1+junk` has one card and the full entry asks no junk. `stack N:
    cards+junk…` asks the values and the set, right after it."""
    m = table(actions=OPENING + [{"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
                                 {"action": "inventory", "count": 0, "clean_up": True},
                                 {"action": "stall", "set": "pandas", "values": [2], "clean_up": True},
                                 {"action": "inventory", "count": 0, "clean_up": True}])
    labels = [str(i.label) for i in offered(m, "Ana")]
    item = seat_item(m, "Ana", "stack 3: cards+junk")
    assert labels.index("stack 3: cards+junk") == labels.index("stack 3: 2+junk") + 1
    assert [a.field.name for a in steps(m, "Ana", item)] == ["values", "set"] and item.action["junk"] == 1


def test_a_technique_that_draws_without_its_bonus_action_is_one_offer_asking_how_many():
    """A ninth rulebook reader's «Apuesta Felina»: the ocelot die said 5, so 3 cards drawn, and the card has no
    bonus-action icon: the pods offered draws with the bonus action only (not possible). `tech: draw…` asks how many,
    after them."""
    m = table(actions=OPENING)
    labels = [str(i.label) for i in offered(m, "Ana")]
    assert labels.index("tech: draw") > labels.index("tech +1: draw 2")
    item = seat_item(m, "Ana", "tech: draw")
    assert [a.field.name for a in steps(m, "Ana", item)] == ["draw"] and "bonus" not in item.action


def test_a_buy_whose_price_a_passive_card_lowers_is_one_offer_beside_any_other_payment():
    """«Las cartas pasivas tienen efectos que se aplican cuando tienes la carta en la mano»: a rulebook reader's
    «Regateo» lowers a price by 1 (a play-tester searched 106 presses, and the story lowered the card's value with
    set market instead). `buy −1, other payment…` follows `buy, other payment…`: the card and the values paid."""
    m = table(actions=OPENING)
    labels = [str(i.label) for i in offered(m, "Ana")]
    assert labels.index("buy −1, other payment") == labels.index("buy, other payment") + 1
    item = seat_item(m, "Ana", "buy −1, other payment")
    assert [a.field.name for a in steps(m, "Ana", item)][:2] == ["position", "paid"]
    assert item.action["discount"] == 1
    m.apply({**item.action, "position": 5, "paid": [1]})  # the rightmost 2 for 1
    assert m.state["players"][0]["known"] == [2]


def test_a_discard_before_the_refill_is_told_on_the_players_pod_after_the_clean_up_and_a_stray_press_only_opens_it():
    """Fase de limpieza 1, «Roba cartas de tu mazo hasta que tengas 5 cartas en la mano», and a card in hand
    that changes it (a rulebook reader's Hoarder's Nest discards first, Royal Plumage fills to 6): the
    pods' last action cleans up at once, so the player's pod then offers the refill told again, asking its
    number: main opens it (a stray press changes nothing), main again does it, up first discards one more.
    Once the player's cards change or the next player acts it is gone; no other pod offers it."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "move", "player": "Ana", "from": "deck", "to": "hand", "count": 1},  # hand 6
        {"action": "inventory", "count": 0, "clean_up": True}])
    assert [str(i.label) for i in offered(t.match, "Ana")] == ["discard 1, then refill", "refill to 6"]
    assert not [i for i in offered(t.match, "Ben") if i.action.get("action") == "refill"]
    before = copy.deepcopy(t.state)
    t.click("Ana", MAIN)
    assert t.state == before and t.done == []
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "refill", "player": "Ana", "discard": 2}]
    assert t.presses == 3
    ana = next(p for p in t.state["players"] if p["name"] == "Ana")["counters"]
    assert (ana["hand"], ana["discard"]) == (5, 2)
    t.match.apply({"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 1})
    assert not [i for i in offered(t.match, "Ana") if i.action.get("action") == "refill"]
    # told between the turns: once the next player has acted, it is gone from the pod
    m = table(actions=OPENING + [{"action": "inventory", "count": 0, "clean_up": True}])
    assert [i for i in offered(m, "Ana") if i.action.get("action") == "refill"]
    m.apply({"action": "inventory", "player": "Ben", "count": 0})
    assert not [i for i in offered(m, "Ana") if i.action.get("action") == "refill"]


def test_a_technique_that_throws_away_a_card_of_every_other_hand_is_one_line_asking_the_junk_among_them():
    """A ninth rulebook reader's «Ocelote Afortunado»: «Cada otro jugador tira 1 carta al azar de su mano.» Its three
    moves through the menu took 27 presses; it is one line among the cards that act on every other player, asking
    only how many of the thrown cards were junk (from 0): the rest go to the market discard."""
    t = Table(GAME, ["Ana", "Ben", "Cai"], {"decks": DECKS + ["squirrels"]}, actions=OPENING)
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("tech: others throw 1") - 2)
    assert t.view("Ana").action == "tech: others throw 1…"
    market = t.state["table"]["market_discard"]
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("others junk", "0")
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "others_throw": True, "others_junk": 1,
                          "clean_up": True}  # the turn's last action: its clean-up follows, as a buy's does
    assert [p["counters"]["hand"] for p in t.state["players"][1:]] == [4, 4]
    assert t.state["table"]["market_discard"] == market + 1 and t.presses == 4


def test_a_technique_that_looks_at_the_top_of_another_deck_is_one_line_per_player():
    """A ninth rulebook reader's «Hurgar»: «Mira las 2 cartas superiores del mazo de otro jugador. Pon 1 en tu mano y
    la otra en la pila de descarte de ese jugador.» A take and a move through the menu: 22 presses. One line per other
    player, from the left going down, after the cards taken from their piles."""
    t = Table(GAME, ["Ana", "Ben", "Cai"], {"decks": DECKS + ["squirrels"]}, actions=OPENING)
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    piles_taken = max(i for i, x in enumerate(labels) if x in ("tech: Ben's deck", "tech: Cai's deck"))
    assert labels[piles_taken + 1:piles_taken + 3] == ["tech: Ben's deck top 2", "tech: Cai's deck top 2"]
    t.hold("Ana", DOWN, repeats=labels.index("tech: Cai's deck top 2") - 2)
    assert t.view("Ana").action == "tech: Cai's deck top 2"
    t.click("Ana", MAIN)
    assert t.done[-1]["from_player"] == "Cai" and t.done[-1]["look"] == 2
    cai = t.state["players"][2]["counters"]
    assert (cai["deck"], cai["discard"]) == (3, 1) and t.presses == 2


def test_a_technique_that_throws_a_card_away_then_takes_a_market_card_is_one_line_asking_its_place():
    """A tenth rulebook reader's «Molt»: a card of the hand thrown away (junk to the junk pile, an animal card to the
    market discard), then a market card taken. No line had both: the robot's search through the menu's technique
    entry did not end. One line for each kind of card thrown, the last of the takes, asking the place (from the
    leftmost card)."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=TWO_ACTIONS)
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    # up from the first offer: discard, the technique alone, the takes by place, then these two
    at = labels.index("tech +1: take 1")
    assert labels[at - 2:at] == ["tech +1: junk away, take", "tech +1: animal away, take"]
    assert labels[-3:] == ["technique", "technique +1", "discard"] and labels[-8:-3] == [
        f"tech +1: take {n}" for n in range(1, 6)]
    market = t.state["table"]["market_discard"]
    t.hold("Ana", UP, repeats=len(labels) - (at - 1) - 2)  # the press, the hold, the repeats
    assert t.view("Ana").action == "tech +1: animal away, take…"
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # the place: 1 → 2
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "technique", "player": "Ana", "throw_animals": 1, "take": 2, "bonus": True}
    assert t.state["table"]["market_discard"] == market + 1 and t.state["players"][0]["counters"]["hand"] == 5 - 2 + 1
