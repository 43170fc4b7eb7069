"""Dragon Run from the acting player's own pod, at the level of the game's pod hooks (``seat_actions``,
``pod_actions``, ``pod_field``) and the grammar's :func:`menu` / :func:`asks` — not button presses, whose
counts belong to the grammar.

Rules cited are the Spanish rulebook ../shared/seeds/dragon-run.es.txt (its own words, in «»).
"""
from __future__ import annotations

from tablekeeper.engine import Match, make_rules
from tablekeeper.hardware import grammar as g

HANDS = {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 0]}


def game(*actions, hands=HANDS) -> Match:
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben", "Cai"], "options": {"hands": hands}}))
    for a in actions:
        m.apply(dict(a))
    return m


def routine(m: Match, who: str) -> dict[str, g.Item]:
    return {str(i.label): i for i in g.menu(m.rules, m.state, who) if i.kind == g.SEAT}


def others(m: Match, who: str) -> list[str]:
    return [i.action["action"] for i in g.menu(m.rules, m.state, who) if i.kind == g.OTHER]


def steps(m: Match, who: str, item: g.Item) -> dict[str, g.Ask]:
    found = g.asks(m.rules, m.state, who, item)
    assert found is not None
    return {a.field.name: a for a in found}


def test_a_room_is_one_step_with_its_icon():
    """«según el pictograma en la parte inferior debes: Pasa el turno al siguiente jugador / Toma otro turno
    inmediatamente»: each icon is its own routine item, complete, asking nothing; the main button passes."""
    m = game()
    items = routine(m, "Ana")
    assert list(items)[:3] == ["other room: pass", "dragon", "other room: again"]
    for label, then in (("other room: pass", "pass"), ("other room: again", "again")):
        item = items[label]
        assert item.action == {"action": "charge", "player": "Ana", "location": "other", "then": then}
        assert steps(m, "Ana", item) == {}
    after, _events = g.dry_run(m.rules, m.state, items["other room: pass"].action)
    assert after["turn"]["player"] == "Ben"
    after, _events = g.dry_run(m.rules, m.state, items["other room: again"].action)
    assert after["turn"] == {"player": "Ana", "number": 2, "phase": "start"}


def test_the_dragon_is_one_step_and_second_when_a_charge_is_compulsory():
    """«B. ... El jugador activo DEBE cargar en la siguiente habitación»: the pod offers only charges then."""
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3}, {"action": "hide", "discard": [1], "roll": 2})
    items = routine(m, "Ana")
    assert list(items) == ["other room: pass", "dragon", "other room: again", "treasure hall"]
    assert items["dragon"].action == {"action": "charge", "player": "Ana", "location": "dragon"}
    assert steps(m, "Ana", items["dragon"]) == {}


def test_the_treasure_hall_asks_only_the_card_drawn():
    """«Salón del tesoro: Roba una carta de tesoro, luego elige entre: Pasa ... Presiona tu suerte»."""
    m = game()
    item = routine(m, "Ana")["treasure hall"]
    asked = steps(m, "Ana", item)
    assert list(asked) == ["value"] and asked["value"].step == g.NUMBER
    action = g.complete(item, tuple(asked.values()), {"value": 4})
    assert action == {"action": "charge", "player": "Ana", "location": "treasure_hall", "value": 4}
    m.apply(action)
    assert [str(i.label) for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.SEAT] == ["pass", "another turn"]


def test_the_generic_charge_never_asks_the_icon():
    """The menu's charge asks the location and the treasure hall's card; the icon comes with the routine items
    (so a room that says "draw again" is entered there and charged again)."""
    m = game()
    charge = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action["action"] == "charge")
    assert list(steps(m, "Ana", charge)) == ["location", "value"]


def test_hide_asks_the_cards_from_the_cheapest_and_the_die():
    """«2. Ocultar: Primero descarte la (s) Carta (s) del Tesoro con un valor de al menos 1 punto. Luego, haz una
    prueba»: the player may keep a potion or a talisman and name other cards; the die is the device's ("–")
    or a physical die's face."""
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3})
    item = routine(m, "Ana")["hide"]
    asked = steps(m, "Ana", item)
    assert list(asked) == ["discard", "roll"]
    assert asked["discard"].start(item.action["discard"]) == (1,)  # the cheapest worth ≥ 1
    assert asked["roll"].unset and asked["roll"].start() is None  # "–": the device rolls
    assert (asked["roll"].field.lo, asked["roll"].field.hi) == (0, 9)
    kept = g.complete(item, tuple(asked.values()), {"discard": (2,), "roll": None})
    assert kept == {"action": "hide", "player": "Ana", "discard": [2]}  # the device will roll
    face = g.complete(item, tuple(asked.values()), {"discard": (1,), "roll": 7})
    m.apply(face)
    assert m.state["last_roll"] == {"player": "Ana", "roll": 7, "dungeon": 7, "escaped": False}


def test_hide_is_not_offered_when_no_roll_can_escape():
    """«Si el resultado es mayor que el número de Cartas de Ubicación que quedan» with the die's highest face 9:
    with 10 cards left (right after a reshuffle) or 9, hiding only costs treasure. The menu still has it."""
    for left, offered in ((10, False), (9, False), (8, True)):
        m = game({"action": "adjust", "counter": "dungeon", "delta": left - 10})
        assert ("hide" in routine(m, "Ana")) is offered
        assert "hide" in others(m, "Ana")


def test_cry_asks_the_cards_from_the_cheapest():
    """«3. Llora como un bebé: ... descartando al menos una Carta del Tesoro con un valor total de al menos 2»."""
    m = game()
    item = routine(m, "Ana")["cry"]
    asked = steps(m, "Ana", item)
    assert list(asked) == ["discard"] and asked["discard"].start(item.action["discard"]) == (2,)


def test_power_is_routine_only_at_the_start_of_a_turn_while_ready():
    """«Al comienzo de cada turno, ANTES de elegir su acción obligatoria ... Una vez que se resuelve el poder, la
    tarjeta de personaje se gira»."""
    m = game()
    assert routine(m, "Ana")["power"].action == {"action": "power", "player": "Ana"}
    m.apply({"action": "power"})
    assert "power" not in routine(m, "Ana")
    m = game({"action": "charge", "location": "other"})
    assert "power" not in routine(m, "Ana")


def test_the_menu_puts_potions_and_talismans_first_with_the_values_in_hand():
    """«Puedes jugar tantas pociones y talismanes como quieras en cualquier momento durante tu propio turno»."""
    m = game()
    assert others(m, "Ana")[:4] == ["play", "talisman", "draw", "discard"]
    for name in ("play", "talisman"):
        item = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action["action"] == name)
        value = steps(m, "Ana", item)["value"]
        assert (value.field.lo, value.field.hi) == (0, 3)  # Ana holds 3, 2, 1, 0


def test_another_players_pod_offers_no_turn_action_but_the_cancel_potion():
    """«Solo la poción de anulación se puede jugar durante el turno de otro jugador (para cancelar una
    poción)»: on Ben's pod during Ana's turn, play with its cancel switch; nothing of Ana's turn."""
    m = game()
    assert routine(m, "Ben") == {}
    assert others(m, "Ben") == ["play", "draw", "discard", "adjust", "transfer"]
    item = next(i for i in g.menu(m.rules, m.state, "Ben") if i.action["action"] == "play")
    asked = steps(m, "Ben", item)
    assert list(asked) == ["value", "cancel"] and asked["cancel"].step == g.BOOL
    m.apply(g.complete(item, tuple(asked.values()), {"value": 1, "cancel": True}))
    assert m.state["players"][1]["cards"] == [4, 2, 1]


def test_a_dead_players_pod_lists_only_the_corrections():
    """«Se reduce a cenizas y se elimina del juego»."""
    m = game({"action": "adjust", "player": "Ben", "counter": "wounds", "delta": 2})
    assert routine(m, "Ben") == {} and others(m, "Ben") == ["adjust", "transfer"]


def test_talismans_in_play_show_apart_from_the_hand():
    """«Los talismanes permanecen frente a ti»: the pod shows them apart from the treasure in hand."""
    m = game({"action": "talisman", "value": 3})
    counters = [[str(k), v] for k, v in m.rules.seat_view(m.state, "Ana")["counters"]]
    assert counters == [["treasure", 3], ["wounds", 0], ["highest", 2], ["talismans", 3]]
    assert [str(k) for k, _v in m.rules.seat_view(m.state, "Ben")["counters"]] == ["treasure", "wounds", "highest"]


def test_every_routine_item_is_legal_as_given_through_a_game():
    """Each routine item is a whole action the rules accept (what the device knows filled in)."""
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3})
    for item in g.menu(m.rules, m.state, "Ana"):
        if item.kind == g.SEAT:
            g.dry_run(m.rules, m.state, item.action)  # raises if the pod offered an illegal action
