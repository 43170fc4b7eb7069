"""Dale of Merchants from the acting player's own pod: what each routine action asks (``seat_actions``
with their "ask" lists, ``pod_field``), what the pod's grammar makes of it (``grammar.menu``/
``grammar.asks``), and the table's usual moves button by button (the ``Table`` of
tests/hardware/test_controller.py), with the presses they cost.
"""
from __future__ import annotations

from tablekeeper.engine import Match, make_rules
from tablekeeper.hardware import grammar as g
from tablekeeper.hardware.pod import DOWN, MAIN, UP

from .test_controller import Table

GAME = "dale-of-merchants"
DECKS = ["macaws", "pandas", "raccoons"]


def table(players=("Ana", "Ben"), actions=(), **options) -> Match:
    m = Match(make_rules({"game": GAME, "players": list(players), "options": {"decks": DECKS, **options}}))
    for a in actions:
        m.apply(a)
    return m


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


def test_the_opening_deal_is_one_list_of_five_values_on_any_pod():
    """Preparar 3: «Roba 5 cartas del mazo de mercado y colócalas en el tablero»: the five values,
    left to right, in one step (the "values" list a pod could not enter before)."""
    m = table()
    for who in ("Ana", "Ben"):
        item = g.menu(m.rules, m.state, who)[0]
        (ask,) = steps(m, who, item)
        assert (str(item.label), ask.field.name, ask.step) == ("market values", "values", g.LIST)
    action = as_started(m, "Ben", g.menu(m.rules, m.state, "Ben")[0], values=(3, 4, 2, 5, 2))
    assert action == OPENING[0]
    g.dry_run(m.rules, m.state, action)


def test_the_decks_are_drawn_from_a_pod_with_nothing_to_ask():
    """Preparar: «Elige tantos mazos de animales como jugadores, más un mazo»: the device draws them."""
    m = Match(make_rules({"game": GAME, "players": ["Ana", "Ben"]}))
    item = g.menu(m.rules, m.state, "Ben")[0]
    assert item.action == {"action": "draw_decks"} and steps(m, "Ben", item) == ()
    after, _events = g.dry_run(m.rules, m.state, item.action)
    assert len(after["decks"]) == 3


def test_a_buy_is_one_item_per_market_card_counted_from_the_left_asking_only_the_values_paid():
    """Acción de mercado: «El precio de la tarjeta más a la derecha en el mercado es igual a su valor.
    Moviéndose hacia la izquierda, los precios aumentan»: each card is offered by its place from the
    left and its price, cheapest first, paid with junk as far as the hand goes; «La limpieza ocurre
    después de que el jugador haya realizado la acción elegida»: the clean-up follows."""
    m = table(actions=OPENING)  # left to right 3 4 2 5 2: prices 7 7 4 6 2
    buys = [i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT and i.action["action"] == "buy"]
    assert [str(i.label) for i in buys] == ["buy card 5: 2", "buy card 3: 4", "buy card 4: 6", "buy card 2: 7",
                                           "buy card 1: 7"]  # a tie: the rightmost first
    first = g.menu(m.rules, m.state, "Ana")[0]
    assert first == buys[0]
    paid, new = steps(m, "Ana", first)
    assert (paid.field.name, paid.step, paid.start(first.action["paid"])) == ("paid", g.LIST, (1, 1))
    assert (new.field.name, new.step, new.start(first.action["new_value"])) == ("new_value", g.NUMBER, 2)
    action = as_started(m, "Ana", first, new_value=None)  # the new card left out: entered later
    assert action == {"action": "buy", "player": "Ana", "slot": 0, "paid": [1, 1], "clean_up": True}
    g.dry_run(m.rules, m.state, action)  # checked before it is made
    m.apply(action)
    assert m.state["turn"]["player"] == "Ben"  # cleaned up in the same step
    # Another card: its own item; the player enters the values paid.
    m2 = table(actions=OPENING)
    third = as_started(m2, "Ana", seat_item(m2, "Ana", "buy card 3: 4"), paid=(3, 1), new_value=None)
    m2.apply(third)
    assert m2.state["market"][2]["value"] == 4 and m2.state["players"][0]["counters"]["discard"] == 2


def test_the_new_market_card_is_asked_first_on_every_pod_the_moment_it_is_turned_up():
    """Fase de limpieza 2: «Saca nuevas cartas del mazo del mercado y llena los espacios con ellas de
    derecha a izquierda»: its value is the next thing to enter, by whoever reads it."""
    m = table(actions=OPENING + [{"action": "buy", "slot": 0, "paid": [1, 1], "clean_up": True}])
    for who in ("Ana", "Ben"):
        item = g.menu(m.rules, m.state, who)[0]
        (ask,) = steps(m, who, item)
        assert str(item.label) == "new card 1" and item.action["slot"] == 4 and ask.field.name == "value"
    m.apply(as_started(m, "Ana", g.menu(m.rules, m.state, "Ana")[0], value=3))
    assert m.state["market"][4]["value"] == 3
    assert str(g.menu(m.rules, m.state, "Ben")[0].label).startswith("buy card")


def test_a_stall_stack_asks_its_values_and_set_starting_at_the_stack_number():
    """Acción de puesto: «El valor total de su primera pila debe ser exactamente 1, el siguiente 2»."""
    m = table(actions=OPENING + [{"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
                                 {"action": "inventory", "count": 0, "clean_up": True}])
    item = seat_item(m, "Ana", "stack 2")
    values, deck = steps(m, "Ana", item)
    assert (values.field.name, values.step, values.start(item.action["values"])) == ("values", g.LIST, (2,))
    assert (deck.field.name, deck.step, deck.start(item.action["set"])) == ("set", g.CHOICE, "pandas")
    assert deck.options == tuple(DECKS)
    m.apply(as_started(m, "Ana", item))
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
    assert labels[:4] == ["new card 3", "buy card 2: 5", "stack 1: 1", "buy card 1: 7"]
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
                      "draw cards", "bonus action"]
    move = next(i for i in g.menu(m.rules, m.state, "Ana") if i.action.get("action") == "move")
    taker = next(a for a in steps(m, "Ana", move) if a.field.name == "from_player")
    assert taker.options[0] == "Ben" and taker.unset  # another player first; left out: your own piles
    m.apply(seat_item(m, "Ana", "bonus action").action)
    assert str(g.menu(m.rules, m.state, "Ana")[0].label).startswith("buy card")


def test_a_bonus_action_keeps_the_clean_up_for_the_last_action():
    """«La limpieza ocurre después de ... las posibles acciones de bonificación»."""
    m = table(actions=OPENING + [{"action": "technique", "bonus": True}, {"action": "technique", "bonus": True}])
    assert m.state["table"]["actions"] == 1
    assert seat_item(m, "Ana", "buy card 5: 2").action.get("clean_up") is True
    m = table(actions=OPENING)
    m.apply({"action": "adjust", "counter": "actions", "delta": 1})
    assert "clean_up" not in seat_item(m, "Ana", "buy card 5: 2").action


# -- button by button -------------------------------------------------------------------------------
def test_a_junk_buy_and_the_card_turned_up_are_one_action_of_four_presses():
    """Acción de mercado and Fase de limpieza 2: «Saca nuevas cartas del mazo del mercado y llena los
    espacios con ellas de derecha a izquierda»: the buy's last step is the new card's value, read as
    it is turned up; the payment starts with junk, as far as the hand goes."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING)
    assert t.view("Ana").action == "buy card 5: 2…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").lines) == ("paid", ("1 1",))
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("new value", "2")
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "buy", "player": "Ana", "slot": 0, "paid": [1, 1], "clean_up": True,
                       "new_value": 3}]
    assert t.presses == 4
    assert t.state["market"][4] == {"card": True, "value": 3} and t.state["turn"]["player"] == "Ben"
    assert not [i for i in t.rules.seat_actions(t.state, "Ben") if str(i["label"]).startswith("new card")]


def test_a_stack_offered_by_its_values_asks_only_its_set_three_presses():
    """Acción de puesto: «El valor total de su primera pila debe ser exactamente 1, el siguiente 2 ...
    elija cualquier número de cartas de un conjunto de animales de su mano»."""
    t = Table(GAME, ["Ana", "Ben"], {"decks": DECKS}, actions=OPENING + [
        {"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
        {"action": "inventory", "count": 0, "clean_up": True}])
    t.click("Ana", DOWN)  # the cheapest buy first, the stack next
    assert t.view("Ana").action == "stack 2: 2…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("set", "pandas")  # the set of the last stack
    t.click("Ana", MAIN)
    assert t.done == [{"action": "stall", "player": "Ana", "values": [2], "set": "pandas", "clean_up": True}]
    assert t.presses == 3 and t.state["players"][0]["stacks"][-1] == {"set": "pandas", "values": [2]}


def test_a_stack_of_two_cards_is_its_own_offer():
    """«elija cualquier número de cartas de un conjunto de animales»: stack 4 as 3+1, one held down."""
    m = table(actions=OPENING + [{"action": "adjust", "player": "Ana", "counter": "stall", "delta": 3}])
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert [x for x in labels if x.startswith("stack")] == ["stack 4: 4", "stack 4: 3+1", "stack 4: 2+2", "stack 4"]
    item = seat_item(m, "Ana", "stack 4: 3+1")
    m.apply(as_started(m, "Ana", item, set="macaws"))
    assert m.state["players"][0]["stacks"][-1] == {"set": "macaws", "values": [3, 1]}


def test_after_a_technique_its_take_is_offered_and_the_stack_then_asks_the_card_turned_up():
    """Acción técnica: the card's effect (a market card taken) is entered after it; the clean-up of
    the bonus action's stack turns one card up into the emptied slot: its value is the last step."""
    m = table(actions=OPENING + [{"action": "technique", "bonus": True}])
    take = seat_item(m, "Ana", "take card 4")
    assert take.action == {"action": "take", "player": "Ana", "slot": 1} and steps(m, "Ana", take) == ()
    m.apply(take.action)
    item = seat_item(m, "Ana", "stack 1: 1")
    assert [a.field.name for a in steps(m, "Ana", item)] == ["set", "new_value"]
    m.apply(as_started(m, "Ana", item, new_value=5))
    assert m.state["market"][4] == {"card": True, "value": 5} and m.state["players"][0]["counters"]["stall"] == 1


def test_the_payment_the_referee_accepted_is_where_the_buy_starts():
    """Acción de mercado, Nota: a payment asked about and accepted is the one the player then makes."""
    m = table(actions=OPENING + [{"action": "check_payment", "position": 4, "paid": [4, 2]}])
    item = seat_item(m, "Ana", "buy card 4: 6")
    assert item.action["paid"] == [4, 2]
