"""Dragon Run from the players' own pods: the game's offers (``seat_actions``) at the level of its hooks and
the grammar's :func:`menu` / :func:`asks`, and table moments by button events, presses counted (the ``Table``
helper of test_controller.py).

Rules cited are the Spanish rulebook ../shared/seeds/dragon-run.es.txt (its own words, in «»).
"""
from __future__ import annotations

import pytest

from tablekeeper.engine import Match, RuleError, make_rules
from tablekeeper.engine.messages import translated
from tablekeeper.hardware.pod import DOWN, MAIN, SELECT, UP
from tablekeeper.ui.pod import grammar as g

from .test_controller import Table

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
    assert list(items) == ["other room: pass", "dragon", "other room: again", "treasure hall: pass",
                           "treasure hall: again", "room + treasure: pass", "room + treasure: again", "other room: go on", "room: discard 2, pass", "room: discard 2, again", "room: discard 2, go on", "room: give 2 left, pass",
        "room: give 2 left, again", "2 treasures: pass", "2 treasures: again", "2 treasures, keep 1: pass",
        "2 treasures, keep 1: again", "room: discard",
                           "room: give left", "room: discard 0, pass", "room: discard 0, again", "room: discard 0, go on",
                           "room: discard 3, pass", "room: discard 3, again", "room: discard 3, go on",
                           "room: give 0 left, pass", "room: give 0 left, again", "room: give 3 left, pass",
                           "room: give 3 left, again", "potion: wound Ben", "potion: wound Cai", "room: wound Ben, pass", "room: wound Ben, again", "room: others discard 1, pass",
                           "room: others discard 1, again",
        "room: all give 1 left, pass", "room: all give 1 left, again",
        "2 + others 1: pass", "2 + others 1: again", "room: each draws 1, pass", "room: each draws 1, again", "room: others draw 1, pass", "room: others draw 1, again", "potion: draw 2", "potion", "talisman: 3", "talisman: 2",
                           "talisman: 0"]
    assert items["dragon"].action == {"action": "charge", "player": "Ana", "location": "dragon"}
    assert steps(m, "Ana", items["dragon"]) == {}


def test_the_treasure_hall_asks_only_the_card_drawn_with_the_players_choice_in_the_offer():
    """«Salón del tesoro: Roba una carta de tesoro, luego elige entre: Pasa el turno al siguiente jugador.
    Presiona tu suerte»: one offer for each choice, asking the card drawn."""
    m = game()
    for label, then in (("treasure hall: pass", "pass"), ("treasure hall: again", "again")):
        item = routine(m, "Ana")[label]
        asked = steps(m, "Ana", item)
        assert list(asked) == ["value"] and asked["value"].step == g.NUMBER
        action = g.complete(item, tuple(asked.values()), {"value": 4})
        assert action == {"action": "charge", "player": "Ana", "location": "treasure_hall", "value": 4,
                          "then": then}
        g.dry_run(m.rules, m.state, action)


def test_a_charge_without_its_icon_offers_pass_another_turn_and_the_next_charge():
    """«luego elige entre: Pasa ... Presiona tu suerte»: after a charge without its icon the next charge comes
    first — a room whose card says "draw again" (`other room: go on`, a rulebook reader's corridor) is charged
    again with one offer, as a play-tester expected, not from the menu, whose charge never asks the icon —
    then the choice, then the cards of the turn; the rooms where a turn's start has them, pass in its first
    hide's place and another turn after them (a play-tester's held press for "room + treasure: pass…" after a
    corridor landed on a pass that had not been there at the turn's start); with no hide at a turn's start (9 or 10
    location cards left), pass after the rooms, next to another turn (two more testers' held presses stopped on it
    where their room had been)."""
    m = game({"action": "charge", "location": "treasure_hall", "value": 4})  # 10 location cards left: no hide
    items = routine(m, "Ana")
    assert list(items)[:3] == ["other room: pass", "dragon", "other room: again"]
    assert list(items).index("room + treasure: pass") == 3  # as at a turn's start with no hide
    assert list(items).index("other room: go on") < list(items).index("pass") < list(items).index("another turn")
    assert list(items).index("another turn") == list(items).index("pass") + 1
    start = list(routine(game({"action": "adjust", "counter": "dungeon", "delta": -3}), "Ana"))
    corridor = list(routine(game({"action": "adjust", "counter": "dungeon", "delta": -3},
                                 {"action": "charge", "location": "other"}), "Ana"))
    assert start[start.index("room + treasure: pass") - 1].startswith("hide")
    assert corridor.index("room + treasure: pass") == start.index("room + treasure: pass")
    assert corridor[corridor.index("room + treasure: pass") - 1] == "pass"
    assert list(items)[-6:] == ["potion", "talisman: 4", "talisman: 3", "talisman: 2", "talisman: 1", "talisman: 0"]
    after, _events = g.dry_run(m.rules, m.state, items["other room: pass"].action)
    assert after["turn"]["player"] == "Ben" and after["table"]["dungeon"] == m.state["table"]["dungeon"] - 1


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
    # "–" sits below the first face and down from it goes round to the last: a 9 is one press down, a
    # 7 three, not ten and eight up; up from "–" is the first face
    assert asked["roll"].number(None, -1) == 9 and asked["roll"].number(9, -1) == 8
    assert asked["roll"].number(None, +1) == 0 and asked["roll"].number(0, -1) is None
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


def test_the_menus_hide_asks_a_physical_dies_face_too():
    """«Luego, haz una prueba»: a table that rolls its own die hides from the menu with 10 cards left (no hide is
    offered then) and its face is the one journalled — the die is asked, "–" letting the device roll (a
    play-tester's table rolled 0; the menu's hide asked only the cards and the device rolled a 2)."""
    m = game()
    assert m.state["table"]["dungeon"] == 10
    item = next(i for i in g.menu(m.rules, m.state, "Ana") if i.kind == g.OTHER and i.action["action"] == "hide")
    asked = steps(m, "Ana", item)
    assert "roll" in asked and asked["roll"].unset and asked["roll"].start() is None
    m.apply(g.complete(item, tuple(asked.values()), {**{n: a.start() for n, a in asked.items()},
                                                     "discard": (1,), "roll": 0}))
    assert m.state["last_roll"] == {"player": "Ana", "roll": 0, "dungeon": 10, "escaped": False}


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


def test_a_steal_is_offered_before_the_games_first_move_while_the_hands_are_not_dealt_yet():
    """«Al comienzo de cada turno, ANTES de elegir su acción obligatoria»: the first player's power may take a
    card from a hand the first move deals unseen (a play-tester's Rogue found no such offer at the first turn
    and went through the menu's four steps); the card's value starts at 0, the least it can be."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben", "Cai"], "options": {}}))
    assert m.state["turn"]["phase"] == "deal" and "Cai" in m.state["to_deal"]
    offers = {str(o["label"]): o for o in m.rules.seat_actions(m.state, "Ana")}
    assert {"power: a card from Ben", "power: a card from Cai"} <= set(offers)
    steal = offers["power: a card from Cai"]["action"]
    assert steal["value"] == 0
    m.apply(dict(steal))
    ana, _ben, cai = m.state["players"]
    assert ana["cards"] == [0] and ana["unknown"] == 4 and cai["unknown"] == 3


def test_a_cry_as_cheap_in_two_smaller_cards_is_offered_beside_the_single_card():
    """«Llorar como un bebé: descarta tesoros por valor de al menos 2»: a 2 alone or 1+1 cost the same; the
    single card comes first (fewest cards), the 1+1 right after it (a play-tester's Ana paid 1+1 and had to
    build the list by hand)."""
    m = game(hands={"Ana": [2, 1, 1, 4], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 0]})
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")]
    cries = [x for x in labels if x.startswith("cry: ")]
    assert cries[-2:] == ["cry: discard 1+1", "cry: discard 2"]  # listed up from the first: the 2 nearest
    offer = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "cry: discard 1+1")
    m.apply(dict(offer["action"]))
    assert sorted(m.state["players"][0]["cards"]) == [2, 4]


def test_a_talisman_from_a_hand_the_device_does_not_know_starts_at_0():
    """«Los talismanes permanecen frente a ti»: a talisman is most often worth no gold, so its value starts
    at 0 where the device does not know the hand (a play-tester pressed down for every one of them)."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben", "Cai"], "options": {}}))
    offer = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "talisman")
    assert offer["action"]["value"] == 0 and offer["ask"] == ["value"]


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
    poción)»: on Ben's pod during Ana's turn, play with its cancel switch right after Ana's potion, and
    nothing of Ana's turn; before her potion, and once she has moved on, nothing to cancel is offered."""
    m = game()
    assert routine(m, "Ben") == {} and "play" not in others(m, "Ben")
    m.apply({"action": "play", "player": "Ana", "value": 0})
    assert list(routine(m, "Ben")) == ["cancel potion"]
    cancel = routine(m, "Ben")["cancel potion"]
    assert cancel.action == {"action": "play", "player": "Ben", "value": 1, "cancel": True}
    assert list(steps(m, "Ben", cancel)) == ["value"]
    # the game's own first, the corrections every game has after the routine offers (up from the menu's top)
    assert others(m, "Ben") == ["play", "draw", "discard", "give_left", "count", "adjust", "transfer"]
    item = next(i for i in g.menu(m.rules, m.state, "Ben") if i.kind == g.OTHER and i.action["action"] == "play")
    asked = steps(m, "Ben", item)
    assert list(asked) == ["value", "cancel"] and asked["cancel"].step == g.BOOL
    m.apply(g.complete(item, tuple(asked.values()), {"value": 1, "cancel": True}))
    assert m.state["players"][1]["cards"] == [4, 2, 1]
    assert routine(m, "Ben") == {}  # his own cancel potion is not his to cancel
    m.apply({"action": "charge", "location": "other", "then": "again"})
    assert routine(m, "Cai") == {} and "play" not in others(m, "Cai")  # Ana moved on: no potion to cancel


def test_a_dead_players_pod_lists_only_the_corrections():
    """«Se reduce a cenizas y se elimina del juego»."""
    m = game({"action": "adjust", "player": "Ben", "counter": "wounds", "delta": 2})
    assert routine(m, "Ben") == {} and others(m, "Ben") == ["adjust", "transfer"]


def test_talismans_in_play_show_apart_from_the_hand():
    """«Los talismanes permanecen frente a ti»: the pod shows how many are in play, apart from the treasure in
    hand (their values are on the cards in front of the player, and the final count adds them: a play-tester
    read the sum "talismans 0" of one talisman worth 0 as none in play)."""
    m = game({"action": "talisman", "value": 3})
    counters = [[str(k), v] for k, v in m.rules.seat_view(m.state, "Ana")["counters"]]
    assert counters == [["treasure", 3], ["wounds", 0], ["highest", 2], ["talismans", 1]]
    m.apply({"action": "talisman", "player": "Ana", "value": 0})
    assert [[str(k), v] for k, v in m.rules.seat_view(m.state, "Ana")["counters"]][-1] == ["talismans", 2]
    assert [str(k) for k, _v in m.rules.seat_view(m.state, "Ben")["counters"]] == ["treasure", "wounds", "highest"]


def test_every_routine_item_is_legal_as_given_through_a_game():
    """Each routine item is a whole action the rules accept (what the device knows filled in)."""
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3})
    for item in g.menu(m.rules, m.state, "Ana"):
        if item.kind == g.SEAT:
            g.dry_run(m.rules, m.state, item.action)  # raises if the pod offered an illegal action


def test_the_start_of_a_turn_offers_charges_and_hides_down_and_the_power_and_cries_up():
    """«En su turno, el jugador activo debe elegir realizar una de las siguientes acciones obligatorias: Cargar
    ... Ocultar ... Llora como un bebé» and «Al comienzo de cada turno, ANTES de elegir su acción obligatoria, el
    jugador activo puede optar por usar el poder»: the charges first, then hiding; the power and crying at the
    end of the list, up from the first offer: before the power's first use each effect a character card may
    have, the nearest first, the plain power (nothing moves) after them — never a power spent for nothing one
    press up."""
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3})
    assert list(routine(m, "Ana")) == [
        "other room: pass", "dragon", "other room: again", "treasure hall: pass", "treasure hall: again",
        "hide: discard 1", "room + treasure: pass", "room + treasure: again", "other room: go on", "hide: discard 2", "hide: discard 3",
        "hide", "room: discard 1, pass", "room: discard 1, again", "room: discard 1, go on", "room: give 1 left, pass",
        "room: give 1 left, again", "2 treasures: pass", "2 treasures: again", "2 treasures, keep 1: pass",
        "2 treasures, keep 1: again", "room: discard", "room: give left",
        "room: discard 0, pass", "room: discard 0, again", "room: discard 0, go on", "room: discard 2, pass",
        "room: discard 2, again", "room: discard 2, go on", "room: discard 3, pass", "room: discard 3, again",
        "room: discard 3, go on", "room: give 0 left, pass",
        "room: give 0 left, again", "room: give 2 left, pass", "room: give 2 left, again", "room: give 3 left, pass",
        "room: give 3 left, again", "potion: wound Ben", "potion: wound Cai", "room: wound Ben, pass", "room: wound Ben, again", "room: others discard 1, pass",
        "room: others discard 1, again",
        "room: all give 1 left, pass", "room: all give 1 left, again",
        "2 + others 1: pass", "2 + others 1: again", "room: each draws 1, pass", "room: each draws 1, again", "room: others draw 1, pass", "room: others draw 1, again", "cry", "cry: discard 3", "cry: discard 2", "talisman: 3", "talisman: 2", "talisman: 1", "talisman: 0", "potion: draw 2", "potion", "power", "power: discard, draw", "power: draw a card", "power: a card from Cai", "power: a card from Ben"]
    m = game({"action": "adjust", "counter": "dungeon", "delta": -3}, hands={**HANDS, "Ana": [1, 1, 0, 0]})
    items = routine(m, "Ana")
    assert [k for k in items if k.startswith(("hide", "cry"))] == ["hide: discard 1", "hide", "cry",
                                                                  "cry: discard 1+1"]
    assert items["cry: discard 1+1"].action == {"action": "cry", "player": "Ana", "discard": [1, 1]}


def test_each_player_enters_the_dealt_cards_on_their_own_pod():
    """«Baraja las cartas del tesoro y distribuye 4 a cada jugador»: every pod whose hand is missing offers it at
    once, whoever plays first. Four values in a list: a held up sets each (one press), select adds it, main ends
    the last — 9 presses; the deal is the one moment over the goal of 5 (four numbers the device cannot know)."""
    t = Table("dragon-run", ["Ana", "Ben"])
    assert t.view("Ana").action == "enter your cards…" and t.view("Ben").action == "enter your cards…"
    t.click("Ben", MAIN)
    assert (t.view("Ben").screen, t.view("Ben").prompt, t.view("Ben").value) == ("entry", "values", "–")
    for v in (4, 2, 1):
        t.hold("Ben", UP, repeats=v - 1)  # – → 0 at the press, 1 at the hold, +1 a repeat
        t.click("Ben", SELECT)
    t.click("Ben", UP)  # – → 0
    assert t.view("Ben").lines == ("4 2 1",) and t.view("Ben").value == "0"
    t.click("Ben", MAIN)
    assert t.done == [{"action": "deal", "player": "Ben", "values": [4, 2, 1, 0]}] and t.presses == 9
    assert t.view("Ben").action == "" and t.view("Ana").action == "enter your cards…"
    assert t.state["turn"]["phase"] == "deal"


def test_a_treasure_hall_and_pressing_your_luck_is_four_presses():
    """«Salón del tesoro: Roba una carta de tesoro, luego elige entre: ... Presiona tu suerte»: down to the offer
    (one held press), main, the card drawn (one held press from 1, where every treasure card drawn starts:
    the treasure hall's, a room's, the power's), main."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    t.hold("Ana", DOWN, repeats=2)  # 1 at the press, 2 at the hold, 3 and 4 at the repeats
    assert t.view("Ana").action == "treasure hall: again…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("value", "1")
    t.hold("Ana", UP)  # 2 at the press, 3 at the hold
    t.click("Ana", MAIN)
    assert t.done == [{"action": "charge", "player": "Ana", "location": "treasure_hall", "value": 3,
                       "then": "again"}]
    assert t.presses == 4 and t.state["turn"] == {"player": "Ana", "number": 2, "phase": "start"}
    assert t.view("Ana").action == "other room: pass"  # a new turn: the first offer again


def test_a_room_whose_card_gives_a_treasure_is_one_action_from_the_pod():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta, luego según el pictograma en la
    parte inferior debes: Pasa el turno al siguiente jugador»: the card drawn and the icon in one offer."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    t.hold("Ana", DOWN, repeats=3)  # past the treasure hall: 1, 2, 3, 4, 5
    assert t.view("Ana").action == "room + treasure: pass…"  # no hide with 10 location cards left
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # 1 → 2
    t.click("Ana", MAIN)
    assert t.done == [{"action": "charge", "player": "Ana", "location": "other", "value": 2, "then": "pass"}]
    assert t.presses == 4 and t.state["players"][0]["cards"] == [3, 2, 2, 1, 0]
    assert t.state["turn"]["player"] == "Ben"


def test_a_room_that_gives_two_treasures_is_six_presses_with_its_icon_in_the_offer():
    """A room whose card gives two treasure cards (the story's hidden stash: «Aplicar el efecto indicado en
    la tarjeta, luego según el pictograma …»): the icon is in the offer, so only the two cards are asked —
    down to the offer (one held press), main, the first card, main, the second, main."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("2 treasures: pass") - 2)
    assert t.view("Ana").action == "2 treasures: pass…"
    t.click("Ana", MAIN)
    assert t.view("Ana").value == "1"  # every treasure card drawn starts at 1
    t.hold("Ana", UP, repeats=1)  # 2 at the press, 3 at the hold, 4 at the repeat
    t.click("Ana", MAIN)
    t.click("Ana", DOWN)  # 1 → 0: a talisman, worth nothing
    t.click("Ana", MAIN)
    assert t.done == [{"action": "room", "player": "Ana", "draws": 2, "then": "pass", "value": 4, "second": 0}]
    assert t.presses == 6 and sorted(t.state["players"][0]["cards"]) == [0, 0, 1, 2, 3, 4]
    assert t.state["turn"]["player"] == "Ben"


def test_a_hide_with_the_cheapest_card_asks_the_die_and_after_an_escape_pass_is_first():
    """«2. Ocultar: Primero descarte la (s) Carta (s) del Tesoro con un valor de al menos 1 punto. Luego, haz una
    prueba anticipada» and «A. ... Elija entre: Carga en la siguiente habitación / Pasa el turno»: the hide asks
    the die, "–" first (main: the device rolls); after an escape the pod offers pass first."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}},
              actions=[{"action": "adjust", "counter": "dungeon", "delta": -8}])  # 2 left: the die's 3 escapes
    t.hold("Ana", DOWN, repeats=3)
    assert t.view("Ana").action == "hide: discard 1…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("roll", "–") and not t.done
    t.click("Ana", MAIN)
    assert t.done == [{"action": "hide", "player": "Ana", "discard": [1]}] and t.presses == 3
    assert t.state["last_roll"] == {"player": "Ana", "roll": 3, "dungeon": 2, "escaped": True}
    assert t.view("Ana").action == "pass"
    t.click("Ana", MAIN)
    assert t.state["turn"]["player"] == "Ben" and t.presses == 4


def test_a_hide_enters_the_tables_own_die():
    """«Luego, haz una prueba anticipada»: the table rolls its own d10; the hide's die step takes its face (the
    rulebook readers' 25 hides all rolled it): the first hide, main, the face, main — nothing else asked."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}},
              actions=[{"action": "adjust", "counter": "dungeon", "delta": -6}])
    t.hold("Ana", DOWN, repeats=3)
    assert t.view("Ana").action == "hide: discard 1…"
    t.click("Ana", MAIN)
    t.hold("Ana", UP, repeats=4)  # the die shows 5: – → 0, 1, 2, 3, 4, 5
    assert t.view("Ana").value == "5"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "hide", "player": "Ana", "discard": [1], "roll": 5}] and t.presses == 4
    assert t.state["last_roll"]["escaped"] is True


def test_a_hide_with_another_card_or_a_physical_die():
    """«Primero descarte la (s) Carta (s) del Tesoro con un valor de al menos 1 punto»: another single card is its
    own offer (to keep a potion or a talisman); a physical die's face goes through "hide", which asks."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}},
              actions=[{"action": "adjust", "counter": "dungeon", "delta": -6}])
    t.hold("Ana", DOWN, repeats=7)  # index 9
    assert t.view("Ana").action == "hide: discard 2…"
    t.click("Ana", DOWN, 2)
    assert t.view("Ana").action == "hide…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").lines) == ("discard", ("1",))
    t.click("Ana", MAIN)  # the cheapest card, as it starts
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("roll", "–")
    t.hold("Ana", UP, repeats=4)  # a physical die shows 5: – → 0, 1, 2, 3, 4, 5
    t.click("Ana", MAIN)
    assert t.done == [{"action": "hide", "player": "Ana", "discard": [1], "roll": 5}]
    assert t.state["last_roll"]["escaped"] is True


def test_crying_and_the_power_are_presses_up():
    """«3. Llora como un bebé: ... descartando al menos una Carta del Tesoro con un valor total de al menos 2
    puntos» and «Al comienzo de cada turno, ANTES de elegir su acción obligatoria ... el poder»: the power is the
    last offers (up from the first), the plain power after its effects; the cheapest cry is the last offer once
    the power is used."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    t.click("Ana", UP)  # wraps to the last
    assert t.view("Ana").action == "power: a card from Ben…"
    t.click("Ana", UP)
    assert t.view("Ana").action == "power: draw a card…"
    t.click("Ana", UP)
    assert t.view("Ana").action == "power: discard, draw…"  # a card of the hand for one of the deck
    t.click("Ana", UP)
    assert t.view("Ana").action == "power"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "power", "player": "Ana"}] and t.presses == 5
    assert t.view("Ana").action == "other room: pass"  # the power is used: the offers changed
    t.click("Ana", UP, 7)  # the last, now the potions (2), the talismans (0, 1, 2, 3: the cheapest first), then the cheapest cry
    assert t.view("Ana").action == "cry: discard 2"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "cry", "player": "Ana", "discard": [2]} and t.presses == 13
    assert t.state["turn"]["player"] == "Ben"


def test_a_characters_name_puts_its_likely_power_one_press_up_at_its_first_use():
    """«Cada personaje tiene un poder único, como se indica en su tarjeta de personaje»: the device is not told the
    powers, but a card's name suggests one — the rulebook readers' Rangers and Exploradoras looked at the dungeon,
    their Ladronas took a card, their Sanadores healed; two play-testers went up past every other effect to their
    first look and heal. The suggested effect is the first one up; every effect is still offered."""
    hands = {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}}
    t = Table("dragon-run", ["Ana", "Ben"], {**hands, "characters": {"Ana": "La Exploradora", "Ben": "Ladrón"}})
    t.click("Ana", UP)
    assert t.view("Ana").action == "power"  # the look: nothing moves
    t.click("Ana", MAIN)
    assert t.done == [{"action": "power", "player": "Ana"}] and t.presses == 2
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"],
                          "options": {**hands, "characters": {"Ana": "El Sanador"}}}))
    m.apply({"action": "adjust", "player": "Ben", "counter": "wounds", "delta": 1})
    assert str(m.rules.seat_actions(m.state, "Ana")[-1]["label"]) == "power: heal Ben"  # one press up
    m.apply({"action": "adjust", "player": "Ana", "counter": "wounds", "delta": 1})
    # injured too, the healer herself first (a play-tester's Clérigo met "heal Ana" before his own)
    assert [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")[-1:-3:-1]] == [
        "power: heal Ana", "power: heal Ben"]
    # a name that says nothing keeps the order: a card from a hand first up, the plain power farthest
    plain = Table("dragon-run", ["Ana", "Ben"], {**hands, "characters": {"Ana": "Bertha"}})
    plain.click("Ana", UP)
    assert plain.view("Ana").action == "power: a card from Ben…"


def test_a_potion_that_draws_a_card_and_a_talisman_from_the_turns_offers():
    """«Puedes jugar tantas pociones y talismanes como quieras en cualquier momento durante tu propio turno»: the
    potion's value from the cheapest card held, then the card it makes the player draw ("–": none); a talisman
    by the card's value, one offer each, asking nothing. Up from the first offer past the power, the potions
    first (the rulebook stories played 17 potions, 11 talismans; a play-tester's potion was 31st of 46), then
    the talismans, before the cries (a play-tester could not aim past them)."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels[-7:-4] == ["talisman: 0", "potion: draw 2", "potion"]  # up from the first: the power, the potions
    t.hold("Ana", UP, repeats=7)  # power ×4, potion, potion: draw 2, talisman: 0, 1, 2
    assert t.view("Ana").action == "talisman: 2"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "talisman", "player": "Ana", "value": 2}] and t.presses == 2
    assert t.state["players"][0]["talismans"] == [2] and t.state["players"][0]["cards"] == [3, 1, 0]
    t.presses = 0
    t.hold("Ana", UP, repeats=3)  # power ×4, potion
    assert t.view("Ana").action == "potion…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("value", "0")
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("draw", "–")
    t.hold("Ana", UP, repeats=2)  # 0, 1, 2, 3
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "play", "player": "Ana", "value": 0, "draw": 3} and t.presses == 5
    assert t.state["players"][0]["cards"] == [3, 3, 1]


def test_a_potion_that_draws_two_cards_is_one_offer_asking_both():
    """«Las pociones tienen efectos poderosos como se indica en las cartas»: a rulebook reader's potion of
    fortune draws two treasure cards (3 and 1); it was a potion and then a draw, 11 presses. `potion: draw
    2` asks the potion's value and both cards', one after the other, each from 0."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels.index("potion: draw 2") == labels.index("potion") - 1
    t.hold("Ana", UP, repeats=len(labels) - labels.index("potion: draw 2") - 2)
    assert t.view("Ana").action == "potion: draw 2…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("value", "0")
    t.click("Ana", MAIN)
    assert t.view("Ana").prompt == "draw"
    t.hold("Ana", UP, repeats=1)  # 3
    t.click("Ana", MAIN)
    assert t.view("Ana").prompt == "second"
    t.click("Ana", UP)  # 1
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "play", "player": "Ana", "value": 0, "draw": 3, "second": 1}
    assert t.presses == 7 and sorted(t.state["players"][0]["cards"]) == [1, 1, 2, 3, 3]


def test_a_second_card_drawn_by_a_potion_needs_the_first():
    m = game()
    with pytest.raises(RuleError, match="a second card drawn comes after a first"):
        m.apply({"action": "play", "player": "Ana", "value": 0, "second": 1})


def test_a_room_that_says_draw_again_is_one_offer_and_the_next_charge_another():
    """«Aplicar el efecto indicado en la tarjeta»: a room whose card says "draw again or stop" (both rulebook
    readers' corridors) is `other room: go on`, a charge without its icon; the next card is then charged with
    its own offer at once, in the same turn."""
    m = game()
    item = routine(m, "Ana")["other room: go on"]
    assert item.action == {"action": "charge", "player": "Ana", "location": "other"} and steps(m, "Ana", item) == {}
    m.apply(dict(item.action))
    assert m.state["turn"]["phase"] == "after_location"
    m.apply(dict(routine(m, "Ana")["other room: pass"].action))
    assert m.state["turn"]["player"] == "Ben" and m.state["table"]["dungeon"] == 8


def test_a_room_that_takes_a_card_and_sends_its_player_on_has_go_on_as_its_icon():
    """A rulebook reader's pit («Foso»: a card lost, then charge again at once): its icon step had only pass and
    another turn, and two play-testers went through `other room: go on` and the menu's discard (24 and 40
    presses). Its icon step goes on from pass and another turn to "go on": the card is discarded and the next
    charge follows in the turn."""
    m = game()
    item = routine(m, "Ana")["room: discard"]
    then = steps(m, "Ana", item)["then"]
    assert then.start(None) == "pass" and then.cycle(then.cycle("pass", 1), 1) == "go_on"
    assert translated(g.choice_word("then", "go_on"), None) == "go on"
    action = g.complete(item, tuple(steps(m, "Ana", item).values()), {"discard": [2], "then": "go_on"})
    assert action["then"] == "go_on"
    m.apply(action)
    assert m.state["players"][0]["cards"] == [3, 1, 0] and m.state["turn"] == {"player": "Ana", "number": 1,
                                                                                "phase": "after_location"}
    assert list(routine(m, "Ana"))[0] == "other room: pass"  # the next charge, at once
    # the card lost is the one the player on the left drew blind, of any value held: one offer each, nothing
    # asked (the robot's three pits of a story went through the menu's room…: 11 presses each)
    m = game()
    pit = routine(m, "Ana")["room: discard 3, go on"]
    assert pit.action == {"action": "room", "player": "Ana", "discard": [3], "then": "go_on"} and steps(m, "Ana", pit) == {}
    m.apply(dict(pit.action))
    assert m.state["players"][0]["cards"] == [2, 1, 0] and m.state["turn"]["phase"] == "after_location"


def test_a_room_that_draws_two_and_keeps_one_is_one_offer_asking_the_card_kept():
    """A rulebook reader's library («roba 2 cartas de tesoro, quédate 1 y descarta la otra»): `2 treasures…` asked
    only the two cards and left both in hand, and two play-testers went through the menu's room… (26 and 15
    presses). `2 treasures, keep 1: pass` asks the card kept only: the one put back goes to the discard unseen
    (its value changes nothing the device follows; a play-tester's step for it took a `down` from 1)."""
    m = game()
    labels = list(routine(m, "Ana"))
    assert labels.index("2 treasures, keep 1: pass") == labels.index("2 treasures: again") + 1
    item = routine(m, "Ana")["2 treasures, keep 1: pass"]
    assert list(steps(m, "Ana", item)) == ["value"] and "second" not in item.action
    assert routine(m, "Ana")["2 treasures: pass"].action["second"] == 1  # both kept: both asked, each from 1
    before = m.state["treasure_deck"]
    m.apply(g.complete(item, tuple(steps(m, "Ana", item).values()), {"value": 5}))
    assert m.state["players"][0]["cards"] == [5, 3, 2, 1, 0] and m.state["players"][0]["unknown"] == 0
    assert m.state["turn"]["player"] == "Ben"
    assert (m.state["treasure_deck"]["deck"], m.state["treasure_deck"]["discard"]) == (
        before["deck"] - 2, before["discard"] + 1)


def test_a_hides_die_step_says_the_total_goes_in_while_a_talisman_is_in_play():
    """A play-tester entered the die and a talisman's +2 as one number only because the manual said so: the step
    read "roll". With a talisman in play a face entered reads "roll: die + a card's bonus"; without one, "roll"."""
    dungeon = {"action": "adjust", "counter": "dungeon", "delta": -3}  # 7 location cards left: a hide can escape
    t = Table("dragon-run", ["Ana", "Ben", "Cai"], {"hands": HANDS}, actions=[dungeon])
    t.match.apply({"action": "talisman", "player": "Ana", "value": 0})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("hide: discard 1") - 2)
    assert t.view("Ana").action == "hide: discard 1…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("roll", "–")  # the device rolls: nothing to add
    t.click("Ana", UP, 5)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("roll: die + a card's bonus", "4")
    bare = Table("dragon-run", ["Ana", "Ben", "Cai"], {"hands": HANDS}, actions=[dungeon])
    labels = [str(o["label"]) for o in bare.rules.seat_actions(bare.state, "Ana")]
    bare.hold("Ana", DOWN, repeats=labels.index("hide: discard 1") - 2)
    bare.click("Ana", MAIN)
    bare.click("Ana", UP, 5)
    assert (bare.view("Ana").prompt, bare.view("Ana").value) == ("roll", "4")


def test_an_injured_player_is_offered_a_healing_potion_with_its_effect():
    """«Las pociones tienen efectos poderosos como se indica en las cartas»: a potion that turns its injured
    player's card back to unhurt is one offer for an injured player (before the plain potion), asking only the
    potion's value; an unhurt player has no such offer."""
    m = game({"action": "charge", "location": "dragon"}, {"action": "charge", "location": "other", "then": "pass"},
             {"action": "charge", "location": "other", "then": "pass"})
    assert m.state["players"][0]["counters"]["wounds"] == 1 and m.state["turn"]["player"] == "Ana"
    items = routine(m, "Ana")
    labels = list(items)
    assert labels.index("potion: heal") == labels.index("potion") - 1
    assert list(steps(m, "Ana", items["potion: heal"])) == ["value"]
    action = g.complete(items["potion: heal"], tuple(steps(m, "Ana", items["potion: heal"]).values()), {"value": 0})
    after, _events = g.dry_run(m.rules, m.state, action)
    assert after["players"][0]["counters"]["wounds"] == 0 and after["players"][0]["cards"] == [3, 2, 1]
    assert "potion: heal" not in routine(game(), "Ana")


def test_the_cancel_potion_on_another_players_pod():
    """«Solo la poción de anulación se puede jugar durante el turno de otro jugador (para cancelar una
    poción)»: right after Ana's potion, Ben's only offer during her turn; up/down stay on his counter. Before
    it, two stray mains on his pod change nothing."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
    t.click("Ben", MAIN, 2)
    assert t.done == [] and t.state["players"][1]["cards"] == [4, 2, 1, 1]
    t.match.apply({"action": "play", "player": "Ana", "value": 0})
    t.presses = 0
    view = t.view("Ben")
    assert view.action == "cancel potion…" and not view.choosing
    t.click("Ben", MAIN)
    assert (t.view("Ben").prompt, t.view("Ben").value) == ("value", "1")
    t.click("Ben", MAIN)
    assert t.done == [{"action": "play", "player": "Ben", "value": 1, "cancel": True}] and t.presses == 2
    assert t.state["players"][1]["cards"] == [4, 2, 1]


# -- cards whose values the device does not know -------------------------------------------------------------
def test_the_deal_costs_no_press_the_first_move_starts_the_game():
    """«Baraja las cartas del tesoro y distribuye 4 a cada jugador» and «El jugador más valiente comienza»: the
    values of a dealt card matter only when it leaves the hand or at the end, so nobody has to enter them; the
    bravest player's first move (down to a room, main: 2 presses) deals the hands not entered, unseen."""
    t = Table("dragon-run", ["Ana", "Ben"])
    assert t.view("Ana").action == "enter your cards…"  # still offered first, for those who want to
    t.click("Ana", DOWN)
    assert t.view("Ana").action == "other room: pass"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "charge", "player": "Ana", "location": "other", "then": "pass"}] and t.presses == 2
    assert [p["unknown"] for p in t.state["players"]] == [4, 4] and t.state["to_deal"] == []
    assert t.view("Ben").action == "other room: pass"


def test_entering_no_value_at_the_deal_is_two_presses():
    """A main at the first value (still "–") ends the deal's list empty: the 4 cards are dealt unseen."""
    t = Table("dragon-run", ["Ana", "Ben"])
    t.click("Ben", MAIN)
    t.click("Ben", MAIN)
    assert t.done == [{"action": "deal", "player": "Ben"}] and t.presses == 2
    assert t.state["players"][1]["unknown"] == 4 and t.state["to_deal"] == ["Ana"]


def test_a_hand_the_device_does_not_fully_know_is_shown_honestly():
    """Pod: "5 cards, 3+?" — 3 in the cards it knows, more it does not; the highest card is at least 3."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"]}))
    m.apply({"action": "charge", "location": "treasure_hall", "value": 3, "then": "pass"})
    view = m.rules.seat_view(m.state, "Ana")
    assert view["counters"] == [["treasure", "3+?"], ["cards", 5], ["wounds", 0], ["highest", "3+"]]
    assert m.rules.seat_view(m.state, "Ben")["counters"][:2] == [["treasure", "0+?"], ["cards", 4]]


def test_hide_cry_and_cards_with_unknown_values_offer_the_likeliest_card():
    """«2. Ocultar: Primero descarte la (s) Carta (s) del Tesoro con un valor de al menos 1 punto» and «3. Llora
    como un bebé: descarte cartas del tesoro con un valor total de al menos 2»: with cards the device does not
    know, a hide offers a card worth 1 and a cry one worth 2 (the likeliest, the player's word that the hand holds
    it); a potion starts at 0 and a talisman asks its value."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"]}))
    m.apply({"action": "charge", "location": "treasure_hall", "value": 3, "then": "pass"})
    m.apply({"action": "adjust", "counter": "dungeon", "delta": -3})
    items = routine(m, "Ben")
    assert items["hide: discard 1"].action == {"action": "hide", "player": "Ben", "discard": [1]}
    assert items["cry: discard 2"].action == {"action": "cry", "player": "Ben", "discard": [2]}
    assert items["potion"].action["value"] == 0 and list(steps(m, "Ben", items["talisman"])) == ["value"]
    assert steps(m, "Ben", items["potion"])["value"].field.hi == 10  # not only the values the device knows
    m.apply(items["hide: discard 1"].action | {"roll": 9})
    assert m.state["players"][1]["unknown"] == 3 and m.state["last_roll"]["escaped"]


def test_the_final_count_on_the_survivors_own_pod_is_three_presses():
    """«Los jugadores cuentan las monedas de oro en sus cartas del tesoro»: the pod asks the hand's total from
    what it knows (3 in Ana's known card): main, a held up to 9, main."""
    t = Table("dragon-run", ["Ana", "Ben"], actions=[
        {"action": "charge", "location": "treasure_hall", "value": 3, "then": "pass"},
        {"action": "adjust", "counter": "temper", "delta": -4},
        {"action": "charge", "location": "dragon"}])
    assert t.state["to_count"] == ["Ana", "Ben"] and not t.state["over"]
    assert t.view("Ana").action == "count your hand…" and t.view("Ana").status == "count your hand"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("total", "3")
    t.hold("Ana", UP, repeats=4)  # 4 at the press, 5 at the hold, 6–9 at the repeats
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "count", "player": "Ana", "total": 9} and t.presses == 3
    assert t.view("Ana").status == "the dragon sleeps" and t.view("Ben").action == "count your hand…"
    for button, times in ((MAIN, 1), (UP, 5), (MAIN, 1)):
        t.click("Ben", button, times)
    assert not t.state["over"] and t.view("Ben").screen == "preview"  # the last count ends the game:
    t.click("Ben", MAIN)  # one more press confirms it
    assert t.state["over"] and t.state["winners"] == ["Ana"]


def test_a_list_of_card_values_never_steps_below_0():
    """«Primero descarte la (s) Carta (s) del Tesoro»: a treasure card is worth 0 or more. A play-tester
    stepped the discard list's number from 0 down to −1 and added it, which the rules then refused with
    no way out but cancelling: the number goes 0 → "–" → 10 (the highest card), as a die's step does."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}},
              actions=[{"action": "adjust", "counter": "dungeon", "delta": -3}])
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.click("Ana", DOWN, offers.index("hide"))
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("discard", "–")
    seen = []
    for button in (UP, DOWN, DOWN, DOWN):
        t.click("Ana", button)
        seen.append(t.view("Ana").value)
    assert seen == ["0", "–", "10", "9"]


def test_a_room_that_discards_a_card_of_the_players_choice_is_one_offer_per_value_held():
    """«Aplicar el efecto indicado en la tarjeta, luego según el pictograma»: a room whose card says
    "discard a treasure card of your choice" — a third rulebook reader's player kept her 1 and threw away
    a 2 (11 presses through the steps of `room: discard…`). Each value held is an offer with each icon,
    after the cheapest's: one hold and main; a worthless card (0) may be the one thrown away."""
    m = game()
    items = routine(m, "Ana")
    for value in (0, 2, 3):
        for then in ("pass", "again"):
            item = items[f"room: discard {value}, {then}"]
            assert item.action == {"action": "room", "player": "Ana", "discard": [value], "then": then}
            assert steps(m, "Ana", item) == {}  # nothing to ask
    assert "room: discard 4, pass" not in items  # Ana holds no 4
    labels = list(items)
    assert labels.index("room: discard 2, pass") > labels.index("room: discard 1, again")  # the cheapest first
    m.apply(dict(items["room: discard 2, pass"].action))
    ana = next(p for p in m.state["players"] if p["name"] == "Ana")
    assert sorted(ana["cards"]) == [0, 1, 3] and m.state["turn"]["player"] == "Ben"


def test_the_dragon_tells_each_player_whose_power_is_ready_again():
    """«Vuelve a mezclar … y endereza los personajes»: the dragon makes every power ready again. No counter shows
    a power, and a play-tester's players never learnt theirs had come back: each pod whose power was used is
    told, the others not."""
    m = game({"action": "power", "player": "Ana"}, {"action": "charge", "player": "Ana", "location": "other",
                                                    "then": "pass"})
    before, dragon = m.state, {"action": "charge", "player": "Ben", "location": "dragon"}
    after, events = m.rules.apply(before, dragon)[:2]
    told = {k: v.translated(None) for k, v in
            g.affected(m.rules, before, after, m.rules.actor(before, dragon), dragon, events).items()}
    assert told.get("Ana") == "Ana's power is ready again" and "Cai" not in told


def test_a_card_taken_from_a_hand_the_device_knows_goes_through_the_values_that_hand_holds():
    """«Cada personaje tiene un poder único»: a card taken from another adventurer's hand is one of that hand's
    cards. Where the device knows the hand whole, the value step goes through the values it holds (a
    play-tester's steal of Ben's 5 went 1, 2, 3, 4, 5, through values Ben did not hold), and the hands are
    offered from the player's left on, as the game's page says (Ben's pod offered Ana's hand first)."""
    m = game(hands={"Ana": [3, 2, 1, 0], "Ben": [5, 1, 1, 2], "Cai": [1, 1, 1, 0]})
    asked = steps(m, "Ana", routine(m, "Ana")["power: a card from Ben"])
    assert asked["value"].options == (1, 2, 5) and not asked["value"].unset
    assert [asked["value"].number(v, 1) for v in (1, 2, 5)] == [2, 5, 1]
    m.apply({"action": "charge", "location": "other", "then": "pass"})  # Ben's turn
    takes = [k for k in routine(m, "Ben") if k.startswith("power: a card from")]
    assert takes == ["power: a card from Ana", "power: a card from Cai"]  # the list's end: Cai, on his left, up first


def test_a_steal_tells_the_robbed_player_their_new_highest_card_not_a_difference():
    """«Robar: toma una carta del tesoro al azar de la mano de otro jugador»: Ben's pod says what he lost
    and his highest card now ("highest 2"), not "highest −2", which a play-tester read as a card worth 2."""
    m = game()
    steal = {"action": "power", "player": "Ana", "take_from": "Ben", "value": 4}
    after, events = m.rules.apply(m.state, steal)
    said = {k: str(translated(v, None)) for k, v in g.affected(m.rules, m.state, after, "Ana", steal, events).items()}
    assert "highest 2" in said["Ben"] and "−4" in said["Ben"], said
    assert "highest −" not in said["Ben"]


def test_select_goes_from_one_kind_of_offer_to_the_next_then_to_the_first_again():
    """«Cargar … Ocultar … Llorar»: a turn offers 30–45 lines (a hide per card held, a room per value and icon);
    select goes to the first line of the next kind — the hides, the rooms whose card moves treasure (a
    play-tester's «Cámara de ecos» was the 14th of 39 lines, a held press that had to stop on the 13th step),
    the rooms and potions that act on the other players (a tester's third select landed 22 lines past the rooms
    whose card makes the others draw, on the potions), the potions, the talismans, the cries, the power — and past
    the last back to the first offer (no counter is the player's to change by hand: the treasure and the wounds
    follow the cards, all shown at home). It changes nothing."""
    t = Table("dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}},
              actions=[{"action": "adjust", "counter": "dungeon", "delta": -3}])
    offers = t.rules.seat_actions(t.state, "Ana")
    before = t.state
    landed = []
    for _ in range(12):
        t.click("Ana", SELECT)
        assert not t.view("Ana").tuning
        if t.view("Ana").pick == 0:  # past the last kind: the first offer again
            break
        landed.append(t.view("Ana").pick)
    kinds = [offers[i]["group"] for i in landed]
    assert kinds == ["hide", "room", "others", "potion", "talisman", "cry", "power"], kinds
    assert str(offers[landed[1]]["label"]).startswith("room: discard 1")
    # the kinds up from the first offer: the line up reaches first (a play-tester's select landed on
    # "potion: draw 2…", where up reaches "potion…" first; a talisman's cheapest, 0, first; of the rooms and potions
    # acting on the others, the echo room, the commonest)
    assert [str(offers[i]["label"]) for i in landed[2:5]] == ["room: others draw 1, again", "potion", "talisman: 0"]
    assert all(offers[i + 1]["group"] != offers[i]["group"] for i in landed[3:] if i + 1 < len(offers))
    assert t.view("Ana").pick == 0 and t.view("Ana").choosing and t.state == before


def test_the_menus_table_counters_say_the_treasure_deck_and_its_discard():
    """«si alguna vez te quedas sin cartas en el mazo del tesoro, vuelve a mezclar todas las cartas del tesoro
    descartadas»: the device reshuffles by itself; the menu's "table counters" says the treasure deck and its
    discard beside the temper and the dungeon (a play-tester looked for them when the deck ran out, on no pod)."""
    m = game()
    said = str(translated(g.table_words(m.rules, m.state, "Ana"), None))
    assert "treasure deck 26" in said and "treasure discard 0" in said and said.startswith("temper 6 · dungeon 10")


def test_a_room_that_makes_the_others_draw_asks_each_their_card_on_their_own_pod():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta» — a reader's «Sala del eco»: «Cada
    otro aventurero roba 1 carta de tesoro». One offer on the active pod; then each other pod's first offers, on
    Ana's turn, are its card by value (a seventh rulebook reader's echo rooms cost 11 presses when each card was
    opened and stepped to: a 0 is one press now, another value two), gone once entered; then the card asked, the
    third player's going unseen with "–"."""
    t = Table("dragon-run", ["Ana", "Ben", "Cai"], options={"hands": HANDS})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("room: others draw 1, again") - 2)
    assert t.view("Ana").action == "room: others draw 1, again"
    t.click("Ana", MAIN)
    assert t.state["to_draw"] == {"Ben": 1, "Cai": 1} and t.state["turn"]["player"] == "Ana"
    assert t.view("Ben").action == "card drawn: 0" and t.view("Ben").status == "enter your card"
    assert [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ben")] == [
        "card drawn: 0", "card drawn: 1", "card drawn: 2", "card drawn: 3", "card drawn: 4", "card drawn: 5",
        "draw the room's card"]
    t.presses = 0
    t.hold("Ben", DOWN, repeats=1)  # the press, the hold and a repeat: 1, 2, 3
    assert t.view("Ben").action == "card drawn: 3"
    t.click("Ben", MAIN)
    assert t.presses == 2 and sorted(t.state["players"][1]["cards"]) == [1, 1, 2, 3, 4]
    assert t.done[-1] == {"action": "draw", "player": "Ben", "value": 3}
    assert t.state["to_draw"] == {"Cai": 1} and t.rules.seat_actions(t.state, "Ben") == []
    t.click("Cai", UP)  # up from the first: the card asked
    assert t.view("Cai").action == "draw the room's card…"
    t.click("Cai", MAIN)
    t.click("Cai", MAIN)  # "–": drawn unseen
    cai = t.state["players"][2]
    assert t.state["to_draw"] == {} and cai["unknown"] == 1 and len(cai["cards"]) == 4
    assert t.state["treasure_deck"]["deck"] == 38 - 12 - 2


def test_a_room_that_makes_the_others_draw_is_refused_with_nobody_else_in():
    """«Cada otro aventurero roba 1»: with every other adventurer reduced to ashes there is nobody to draw."""
    other, dragon = {"action": "charge", "location": "other", "then": "pass"}, {"action": "charge", "location": "dragon"}
    m = game(other, dragon, other, other, dragon, dragon, other, dragon)  # Ben, then Cai burned twice
    assert [p["out"] for p in m.state["players"]] == [False, True, True] and m.state["turn"]["player"] == "Ana"
    with pytest.raises(RuleError, match="nobody else is left to draw"):
        m.apply({"action": "room", "others": 1, "then": "pass"})
    assert not any("others draw" in str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana"))


def test_a_player_burnt_before_entering_the_rooms_card_is_asked_it_no_more():
    """«Se reduce a cenizas y se elimina del juego»: Ben, owed a room's card he never entered, is burnt on his own
    turn: his treasure goes to the discard and the device stops waiting for his card (Ana still owes hers)."""
    other, dragon = {"action": "charge", "location": "other", "then": "pass"}, {"action": "charge", "location": "dragon"}
    m = game(other, dragon, {"action": "room", "others": 1, "then": "pass"})  # Ben injured; Cai's room: Ana and Ben owe
    assert m.state["to_draw"] == {"Ana": 1, "Ben": 1}
    m.apply(other)
    m.apply(dragon)  # Ben, injured, burnt
    assert m.state["players"][1]["out"] and m.state["to_draw"] == {"Ana": 1}


def test_a_room_that_makes_the_others_discard_asks_each_their_card_on_their_own_pod():
    """«Aplicar el efecto indicado en la tarjeta» — a rulebook reader's «Nido de murciélagos»: «cada otro jugador
    descarta 1 carta de tesoro a su elección» (15 presses for three discards through the menu). One offer on the
    active pod; each other pod then offers first its card by value, the cheapest worth something first, a 0 last;
    a player whose hand is empty owes nothing."""
    t = Table("dragon-run", ["Ana", "Ben", "Cai"], options={"hands": {**HANDS, "Cai": [0, 0, 0, 0]}},
              actions=[{"action": "discard", "player": "Cai", "values": [0, 0, 0, 0]}])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("room: others discard 1, again") - 2)
    assert t.view("Ana").action == "room: others discard 1, again"
    t.presses = 0
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "room", "player": "Ana", "others_discard": 1, "then": "again"}
    assert t.state["to_discard"] == {"Ben": 1} and t.state["turn"]["player"] == "Ana"  # Cai holds nothing
    assert t.view("Ben").status == "enter your card"
    assert [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ben")] == [
        "card discarded: 1", "card discarded: 2", "card discarded: 4"]
    t.click("Ben", DOWN)
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "discard", "player": "Ben", "values": [2]} and t.presses == 3
    assert sorted(t.state["players"][1]["cards"]) == [1, 1, 4] and t.state["to_discard"] == {}
    assert t.rules.seat_actions(t.state, "Ben") == []  # nothing left to enter off his turn


def test_a_room_that_makes_everyone_pass_a_card_left_asks_each_their_card_on_their_own_pod():
    """«Aplicar el efecto indicado en la tarjeta» — a ninth rulebook reader's «Cripta»: «todos eligen una carta a la
    vez y la pasan boca abajo a la izquierda», six times in one story: impossible for a potion's or a talisman's 0
    (a transfer moves worth at least 1), else 10–31 presses by transfers. One offer on the active pod; then each
    pod, the room's player's too, offers its card by value, the least worth first, a 0 included; a player whose
    hand is empty passes nothing; a pass nobody owes is refused."""
    t = Table("dragon-run", ["Ana", "Ben", "Cai"], options={"hands": {**HANDS, "Cai": [0, 0, 0, 0]}},
              actions=[{"action": "discard", "player": "Cai", "values": [0, 0, 0, 0]}])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("room: all give 1 left, pass") - 2)
    assert t.view("Ana").action == "room: all give 1 left, pass"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "room", "player": "Ana", "pass_left": True, "then": "pass"}
    assert t.state["to_pass"] == {"Ana": 1, "Ben": 1} and t.state["turn"]["player"] == "Ben"  # Cai holds nothing
    assert t.view("Ana").status == "enter your card" and t.view("Ben").status == "enter your card"
    assert [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")][:4] == [
        "card passed left: 0", "card passed left: 1", "card passed left: 2", "card passed left: 3"]
    t.presses = 0
    t.click("Ana", MAIN)  # her 0, a potion, to Ben on her left
    assert t.done[-1] == {"action": "give_left", "player": "Ana", "value": 0} and t.presses == 1
    assert sorted(t.state["players"][0]["cards"]) == [1, 2, 3] and sorted(t.state["players"][1]["cards"]) == [0, 1, 1, 2, 4]
    with pytest.raises(RuleError, match="no card to pass"):
        t.rules.apply(t.state, {"action": "give_left", "player": "Ana", "value": 1})  # once is all she owes
    t.click("Ben", DOWN)
    t.click("Ben", MAIN)  # his 1 to Cai
    assert t.done[-1] == {"action": "give_left", "player": "Ben", "value": 1}
    assert t.state["players"][2]["cards"] == [1] and t.state["to_pass"] == {}
    assert [p["counters"]["treasure"] for p in t.state["players"]] == [6, 7, 1]


def test_a_room_where_everyone_draws_asks_each_their_card_its_own_player_too():
    """A ninth rulebook reader's «Sala de los ecos»: «cada jugador, empezando por el que la reveló, roba 1 carta de
    tesoro», five times: the others' cards were each one's own offers, the room's player's own went through the
    menu's draw (8–10 presses in all). `room: each draws 1, pass` puts everyone's card on their own pod, first."""
    m = game()
    offers = {str(o["label"]): o for o in m.rules.seat_actions(m.state, "Ana")}
    m.apply(offers["room: each draws 1, pass"]["action"])
    assert m.state["to_draw"] == {"Ana": 1, "Ben": 1, "Cai": 1} and m.state["turn"]["player"] == "Ben"
    assert str(m.rules.seat_actions(m.state, "Ana")[0]["label"]) == "card drawn: 0"
    m.apply({"action": "draw", "player": "Ana", "value": 2})
    assert m.state["to_draw"] == {"Ben": 1, "Cai": 1} and sorted(m.state["players"][0]["cards"]) == [0, 1, 2, 2, 3]


def test_a_room_that_wounds_the_player_on_the_left_flips_an_unhurt_card_or_asks_a_discard():
    """A rulebook reader's «Sala de las lanzas»: «el jugador a tu izquierda es herido: voltéalo si está ileso, si
    no descarta 1 carta de tesoro» (9 presses each time, a charge and a correction). One offer naming the player;
    unhurt, he is injured; injured already, his pod asks the card he discards."""
    m = game()
    offers = {str(o["label"]): o for o in m.rules.seat_actions(m.state, "Ana")}
    m.apply(offers["room: wound Ben, pass"]["action"])
    assert [p["counters"]["wounds"] for p in m.state["players"]] == [0, 1, 0] and m.state["to_discard"] == {}
    assert m.state["turn"]["player"] == "Ben"
    m.apply({"action": "charge", "location": "other", "then": "pass"})  # Ben's turn
    m.apply({"action": "charge", "location": "other", "then": "pass"})  # Cai's
    m.apply({"action": "room", "wound_left": True, "then": "pass"})  # Ana's again: Ben is injured already
    assert m.state["players"][1]["counters"]["wounds"] == 1 and m.state["to_discard"] == {"Ben": 1}
    assert str(m.rules.seat_actions(m.state, "Ben")[0]["label"]) == "card discarded: 1"
    with pytest.raises(RuleError, match="worth 3"):
        m.apply({"action": "discard", "player": "Ben", "values": [3]})  # not in his hand: refused, nothing lost
    m.apply({"action": "discard", "player": "Ben", "values": [1]})
    assert m.state["to_discard"] == {} and sorted(m.state["players"][1]["cards"]) == [1, 2, 4]


def test_a_player_burnt_owing_a_discard_is_asked_it_no_more():
    """«Se reduce a cenizas y se elimina del juego»: a discard a room made Ben owe is dropped with his hand."""
    other, dragon = {"action": "charge", "location": "other", "then": "pass"}, {"action": "charge", "location": "dragon"}
    m = game(other, dragon, {"action": "room", "others_discard": 1, "then": "pass"})  # Ben injured; Cai's bats
    assert m.state["to_discard"] == {"Ana": 1, "Ben": 1}
    m.apply(other)
    m.apply(dragon)  # Ben, injured, burnt
    assert m.state["players"][1]["out"] and m.state["to_discard"] == {"Ana": 1}


def test_a_potion_that_wounds_another_is_one_offer_and_a_cancel_potion_undoes_it():
    """«Las pociones tienen efectos poderosos como se indica en las cartas … Solo la poción de anulación se puede
    jugar durante el turno de otro jugador (para cancelar una poción)» — a rulebook reader's «Poción de fuego»:
    «elige a otro jugador ileso: voltea su carta de personaje al lado herido» (12 presses as a potion and a
    correction). One line per unhurt player, the potion's value asked; cancelled right after, the wound is undone."""
    m = game()
    offers = {str(o["label"]): o for o in m.rules.seat_actions(m.state, "Ana")}
    assert offers["potion: wound Ben"]["action"] == {"action": "play", "player": "Ana", "value": 0, "wound": "Ben"}
    assert offers["potion: wound Ben"]["ask"] == ["value"] and "potion: wound Ana" not in offers
    m.apply(offers["potion: wound Cai"]["action"])
    assert [p["counters"]["wounds"] for p in m.state["players"]] == [0, 0, 1]
    assert "potion: wound Cai" not in {str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")}
    with pytest.raises(RuleError, match="injured already"):
        m.apply({"action": "play", "value": 3, "wound": "Cai"})
    with pytest.raises(RuleError, match="another adventurer"):
        m.apply({"action": "play", "value": 3, "wound": "Ana"})
    assert str(m.rules.seat_actions(m.state, "Cai")[0]["label"]) == "cancel potion"
    m.apply({"action": "play", "player": "Cai", "value": 0, "cancel": True})
    assert [p["counters"]["wounds"] for p in m.state["players"]] == [0, 0, 0]
    m.apply({"action": "play", "value": 3, "wound": "Ben"})
    m.apply({"action": "charge", "location": "other", "then": "pass"})  # a move of the turn: too late to cancel
    assert m.state["players"][1]["counters"]["wounds"] == 1 and m.rules.seat_actions(m.state, "Cai") == []


def test_every_pod_says_the_treasure_deck_was_reshuffled_so_the_table_shuffles_then(tmp_path):
    """«si alguna vez te quedas sin cartas en el mazo del tesoro, vuelve a mezclar todas las cartas del tesoro
    descartadas»: the device reshuffles the moment the deck runs out; a tester's table shuffled only when it next
    drew, a potion drunk in between, and its new deck was one card more than the device's — no pod had said so.
    Every pod says it now (the drawer's too), so that the table shuffles then."""
    from tablekeeper.engine import Journal, Session
    from tests.owner import Owner

    with Journal(tmp_path) as j:
        players = ["Ana", "Ben", "Cai", "Dan", "Eva"]
        s = Session.new(j, "dragon-run", players, {"hands": {p: [2, 2, 1, 1] for p in players}})
        hub = Owner(s, clock=lambda: 0.0)
        s.apply({"action": "discard", "player": "Dan", "values": [2, 1]})
        for _ in range(17):
            s.apply({"action": "draw", "player": "Eva", "value": 1})
        before = s.state
        action = {"action": "draw", "player": "Eva", "value": 1}
        after, events = s.rules.apply(before, action)
        assert after["treasure_deck"] == {"deck": 2, "discard": 0}
        hub.seats.took(5, before, after, 0.0, action, events)
        said = "the treasure deck has run out: shuffle the 2 discarded treasure cards into a new deck"
        assert [hub.view(seat).message for seat in range(1, 6)] == [said] * 5
        quiet = s.rules.apply(after, {"action": "draw", "player": "Eva", "value": 1})
        hub.seats.took(5, after, quiet[0], 20.0, action, quiet[1])  # a draw that reshuffles nothing says nothing
        assert [hub.seats.view(seat, 20.0).message for seat in range(1, 5)] == [""] * 4


def test_a_room_where_its_player_draws_two_and_the_others_one_is_one_offer():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta» — a tenth reader's «Almacén olvidado»:
    the room's player draws 2 treasure cards, each other player 1. Through the menu with its draws: 15–22 presses,
    four times in one story. One line among the rooms that act on the others, asking the two cards (from 1); the
    others' cards are then their pods' first offers."""
    t = Table("dragon-run", ["Ana", "Ben", "Cai"], options={"hands": HANDS})
    held = len(t.state["players"][0]["cards"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("2 + others 1: pass") - 2)
    assert t.view("Ana").action == "2 + others 1: pass…"
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # the first card: 2
    t.click("Ana", MAIN)
    t.click("Ana", MAIN)  # the second: 1
    ana = t.state["players"][0]
    assert t.state["to_draw"] == {"Ben": 1, "Cai": 1} and t.presses == 5
    assert len(ana["cards"]) == held + 2 and t.done[-1]["others"] == 1 and t.done[-1]["value"] == 2
    assert t.view("Ben").action == "card drawn: 0"
