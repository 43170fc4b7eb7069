"""Dale of Merchants: setup, turns, market, payments, stall, piles.

Rules cited as "RULES.md" (the Dale of Merchants section of /work/shared/RULES.md)
or by the section of the Spanish rulebook (seeds/dale-of-merchants.es.txt):
Preparar, Acción de mercado, Acción técnica, Acción de puesto, Acción de
inventario, Fase de limpieza, Fin del juego.
"""
from __future__ import annotations

import itertools
import json
import random
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tablekeeper.engine import Journal, Match, RuleError, Session, SetupError, canonical, make_rules
from tablekeeper.engine.games.dale_of_merchants.rules import BASE_DECKS, payment_verdict, stack_verdict
from tablekeeper.engine.games.dale_of_merchants.table import payment_ok

from ..conftest import ROOT, examples, new_session, replay, replay_cli, steps

GAME = "dale-of-merchants"
DECKS3 = ["macaws", "pandas", "raccoons"]
SCRIPT = ROOT / "tests" / "engine" / "scripts" / "dale-of-merchants-two-player-game.jsonl"


def match(players=("Ana", "Ben"), decks=None, **options) -> Match:
    if decks is None:
        decks = DECKS3 + ["squirrels", "ocelots"][: len(players) - 2]
    return Match(make_rules({"game": GAME, "players": list(players), "options": {"decks": decks, **options}}))


def play(m: Match, *entries) -> Match:
    for e in entries:
        m.apply(e)
    return m


def counters(m: Match, name: str) -> dict:
    return next(p for p in m.state["players"] if p["name"] == name)["counters"]


def refused(m: Match, entry: dict, words: str) -> None:
    """The action is refused with ``words`` in its message and changes nothing."""
    before = canonical(m.state), list(m.done)
    with pytest.raises(RuleError, match=words):
        m.apply(entry)
    assert (canonical(m.state), m.done) == before


def market(m: Match) -> list[dict]:
    """The market as shown, left to right."""
    return m.view()["market"]


def brute_force_legal(price: int, paid: list[int]) -> bool:
    """Independent oracle of Acción de mercado, Nota: you may overpay only if you
    cannot pay less with the cards you use — no proper part of the payment covers the price."""
    if sum(paid) < price:
        return False
    for k in range(len(paid)):
        for part in itertools.combinations(paid, k):
            if sum(part) >= price:
                return False
    return True


# -- setup (Preparar; RULES.md "Players 2–4 ... Decks of 10 per player") ------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_preparar_starting_deck_is_one_value_1_card_per_deck_plus_junk_to_10(n):
    m = match([f"P{i}" for i in range(n)])
    v = m.view()
    assert v["starting_deck"] == {"cards": 10, "animal_ones": n + 1, "junk": 10 - (n + 1)}
    # Preparar 4: each player draws a hand of 5 from the shuffled 10.
    assert all(p["counters"] == {"stall": 0, "hand": 5, "deck": 5, "discard": 0} for p in v["players"])


@pytest.mark.parametrize("n, per_deck, expected", [(2, 11, 28), (3, 11, 39), (4, 11, 50), (2, 13, 34)])
def test_preparar_market_deck_is_the_decks_cards_above_1_less_the_five_dealt(n, per_deck, expected):
    """Preparar 2–3: the decks' remaining cards form the market deck; 5 go onto the board."""
    m = match([f"P{i}" for i in range(n)], market_cards_per_deck=per_deck)
    assert m.state["table"]["market_deck"] == expected
    assert [s["card"] for s in market(m)] == [True] * 5
    assert [s["slot"] for s in market(m)] == [4, 3, 2, 1, 0]
    assert all(s["value"] is None and s["price"] is None for s in market(m))


@pytest.mark.parametrize("players", [["Ana"], ["A", "B", "C", "D", "E"]])
def test_players_2_to_4_only(players):
    with pytest.raises(SetupError, match="2–4 players"):
        make_rules({"game": GAME, "players": players})


@pytest.mark.parametrize("options, words", [
    ({"decks": ["macaws", "pandas"]}, "players \\+ 1"),
    ({"decks": ["macaws", "pandas", "wombats"]}, "not a deck of the box"),
    ({"decks": ["macaws", "macaws", "pandas"]}, "named twice"),
    ({"decks": ["junk", "macaws", "pandas"]}, "junk is not an animal deck"),
    ({"box": ["macaws", "pandas"]}, "need 3 animal decks"),
    ({"market_cards_per_deck": 0}, "at least 1"),
    ({"colour": "red"}, "no option"),
])
def test_preparar_deck_choice_is_players_plus_one_validated_before_anything(options, words):
    """Preparar: as many animal decks as players, plus one."""
    with pytest.raises(SetupError, match=words):
        make_rules({"game": GAME, "players": ["Ana", "Ben"], "options": options})


def test_preparar_decks_drawn_at_random_are_recorded_in_the_journal(journal):
    """Preparar: the device may draw the decks; the drawn names are journalled, so replay never redraws."""
    s = new_session(journal, GAME, ["Ana", "Ben", "Cai"], rng=random.Random(7))
    out = s.apply({"action": "draw_decks"})
    decks = out.view["decks"]
    assert len(decks) == 4 and len(set(decks)) == 4 and set(decks) <= set(BASE_DECKS)
    assert journal.entries(s.game_id)[-1][1] == {"action": "draw_decks", "decks": decks}
    again = Session.load(journal, s.game_id, rng=random.Random(99))
    assert again.view()["decks"] == decks


def test_preparar_some_decks_chosen_the_rest_drawn(journal):
    s = new_session(journal, GAME, ["Ana", "Ben"], rng=random.Random(3))
    decks = s.apply({"action": "draw_decks", "decks": ["ocelots"]}).view["decks"]
    assert decks[0] == "ocelots" and len(set(decks)) == 3 and set(decks) <= set(BASE_DECKS)


def test_preparar_random_draw_through_replay_cli():
    r = replay_cli([{"game": GAME, "players": ["Ana", "Ben"]}, {"action": "draw_decks"}])
    assert r.returncode == 0, r.stderr
    decks = json.loads(r.stdout)["decks"]
    assert len(set(decks)) == 3 and set(decks) <= set(BASE_DECKS)


def test_turn_actions_wait_for_the_decks_and_decks_are_chosen_once():
    m = Match(make_rules({"game": GAME, "players": ["Ana", "Ben"]}))
    refused(m, {"action": "inventory", "count": 0}, "choose the animal decks first")
    refused(m, {"action": "draw_decks", "decks": ["macaws", "pandas"]}, "3 animal decks")
    refused(m, {"action": "draw_decks", "decks": ["macaws", "pandas", "dodos"]}, "not a deck of the box")
    play(m, {"action": "draw_decks", "decks": DECKS3})
    refused(m, {"action": "draw_decks", "decks": DECKS3}, "already chosen")
    play(m, {"action": "inventory", "count": 0})


# -- turns (RULES.md "Turn: one action ..."; Acción técnica; Fase de limpieza) --------
def test_one_action_per_turn():
    m = play(match(), {"action": "inventory", "count": 1})
    assert m.view()["turn"]["actions_left"] == 0
    refused(m, {"action": "technique"}, "no action left")
    refused(m, {"action": "buy", "slot": 0, "paid": [1], "value": 1}, "no action left")


def test_technique_with_bonus_icon_grants_another_action_and_chains():
    """Acción técnica: a bonus technique used as the bonus action gives another, and so on."""
    m = match()
    assert m.rules.seat_view(m.state, "Ana")["status"] == "your last action"  # the turn's one action
    for _ in range(3):
        play(m, {"action": "technique", "bonus": True})
        assert m.view()["turn"]["actions_left"] == 1
        # the action left is a bonus one, which the player may skip ("end turn" is offered beside it): said
        assert m.rules.seat_view(m.state, "Ana")["status"] == "your bonus action"
    play(m, {"action": "technique"})
    assert m.view()["turn"] == {"player": "Ana", "number": 1, "actions_left": 0, "actions_taken": 4}
    # «La carta de técnica jugada va a la pila de descartes después de que se hayan resuelto sus
    # efectos»: each technique reached the discard when the next action began; the last one is
    # still being resolved.
    assert counters(m, "Ana")["hand"] == 1 and counters(m, "Ana")["discard"] == 3
    assert m.view()["in_play"] == 1
    refused(m, {"action": "technique", "bonus": True}, "no action left")


def test_technique_thrown_away_goes_to_the_market_discard_not_the_players():
    """Fase de acción: «Cuando una carta te dice que tires algo, no va a tu propia pila de descarte.
    En su lugar, las cartas basura se colocan en la pila de basura y las cartas de animales en la pila
    de descarte del mercado» (a technique card is an animal card)."""
    m = play(match(), {"action": "technique", "to": "away"}, {"action": "end_turn"})
    assert counters(m, "Ana")["discard"] == 0 and m.state["table"]["market_discard"] == 1


def test_end_turn_needs_one_action_then_the_next_player_starts_with_one():
    """Fase de acción: one of the four actions is taken before clean-up; bonus actions are optional."""
    m = match(["Ana", "Ben", "Cai"])
    refused(m, {"action": "end_turn"}, "must take an action first")
    play(m, {"action": "technique", "bonus": True}, {"action": "end_turn"})
    assert m.view()["turn"] == {"player": "Ben", "number": 2, "actions_left": 1, "actions_taken": 0}
    refused(m, {"action": "inventory", "count": 0, "player": "Ana"}, "it is Ben's turn, not Ana's")
    play(m, {"action": "inventory", "count": 0}, {"action": "end_turn"},
         {"action": "inventory", "count": 0}, {"action": "end_turn"})
    assert m.view()["turn"]["player"] == "Ana" and m.view()["turn"]["number"] == 4


def test_clean_up_draws_back_to_5_without_a_hand_limit():
    """Fase de limpieza 1: draw until 5 in hand; no maximum hand size."""
    m = play(match(), {"action": "inventory", "count": 3}, {"action": "end_turn"})
    assert counters(m, "Ana") == {"stall": 0, "hand": 5, "deck": 2, "discard": 3}
    m = play(match(), {"action": "adjust", "player": "Ana", "counter": "hand", "delta": 2},
             {"action": "technique"}, {"action": "end_turn"})
    assert counters(m, "Ana")["hand"] == 6  # 7 − 1 played; nothing drawn, nothing discarded
    m = play(match(), {"action": "technique"}, {"action": "end_turn", "draw_to": 6})
    assert counters(m, "Ana")["hand"] == 6  # a card effect raising the hand size


def test_empty_deck_reshuffles_the_discard_and_both_empty_draws_junk():
    """Fase de limpieza 1: an exhausted deck takes the shuffled discard; deck and discard both
    empty: junk from the junk pile fills the hand to 5."""
    m = play(match(), {"action": "inventory", "count": 5}, {"action": "end_turn"})  # deck 0, discard 5
    assert counters(m, "Ana") == {"stall": 0, "hand": 5, "deck": 0, "discard": 5}
    play(m, {"action": "inventory", "count": 0}, {"action": "end_turn"},  # Ben
         {"action": "inventory", "count": 2})
    p = m.apply({"action": "end_turn"})
    assert counters(m, "Ana") == {"stall": 0, "hand": 5, "deck": 5, "discard": 0}
    assert any("shuffles the discard pile (7 cards)" in e for e in p.events)
    # Ben: deck and discard both empty, one card short of 5 at clean-up.
    play(m, {"action": "adjust", "player": "Ben", "counter": "deck", "delta": -5},
         {"action": "technique", "to": "away"})
    assert counters(m, "Ben") == {"stall": 0, "hand": 4, "deck": 0, "discard": 0}
    p = m.apply({"action": "end_turn"})
    assert counters(m, "Ben") == {"stall": 0, "hand": 5, "deck": 0, "discard": 0}
    assert any("1 junk from the junk pile" in e for e in p.events)


def test_effect_draw_reshuffles_but_stops_when_deck_and_discard_are_empty():
    """Acción técnica, Nota: when fewer cards can be drawn, draw as many as possible."""
    m = play(match(), {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 2})
    p = m.apply({"action": "draw", "player": "Ana", "count": 9})
    assert counters(m, "Ana") == {"stall": 0, "hand": 10, "deck": 0, "discard": 0}
    assert any("only 7 of 9 drawn" in e for e in p.events)


def test_a_table_that_reads_junk_for_every_draw_gets_junk_for_an_effect_draw_too():
    """«Si tu mazo y las pilas de descarte alguna vez se agotan al mismo tiempo cuando necesitas sacar
    nuevas cartas, saca las cartas basura de la pila basura»: a third rulebook reader applied it to a
    technique's draw as well; the option ``effect_draws_junk`` lets such a table say so, and the
    technique's and the ``draw`` action's missing cards come from the junk pile (the default stops)."""
    m = play(match(effect_draws_junk=True),
             {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 2})
    p = m.apply({"action": "draw", "player": "Ana", "count": 9})
    assert counters(m, "Ana") == {"stall": 0, "hand": 12, "deck": 0, "discard": 0}
    assert any("2 junk from the junk pile" in e for e in p.events)
    # a technique that gives a card away and draws 2 with deck and discard empty: 2 junk
    p = m.apply({"action": "technique", "give_to": "Ben", "draw": 2})
    assert counters(m, "Ana") == {"stall": 0, "hand": 12, "deck": 0, "discard": 0}  # −1 played −1 given +2
    assert counters(m, "Ben")["hand"] == 6
    assert any("2 junk from the junk pile" in e for e in p.events)
    default = play(match(), {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 2},
                   {"action": "draw", "player": "Ana", "count": 9})
    assert counters(default, "Ana")["hand"] == 10  # the default: as many as there are


# -- market (Acción de mercado; Fase de limpieza 2) -------------------------------
def test_slot_prices_are_value_plus_0_at_the_right_up_to_plus_4_at_the_left():
    m = play(match(), {"action": "set_market", "values": [3, 3, 3, 3, 3]})
    assert [(s["slot"], s["price"]) for s in market(m)] == [(4, 7), (3, 6), (2, 5), (1, 4), (0, 3)]
    play(m, {"action": "set_market", "slot": 0, "value": 5})
    assert market(m)[-1] == {"slot": 0, "card": True, "value": 5, "price": 5}


def test_refill_slides_right_and_fills_from_the_deck_right_to_left():
    m = play(match(), {"action": "set_market", "values": [1, 2, 3, 4, 5]},
             {"action": "buy", "slot": 1, "paid": [1, 1, 1, 1, 1]})  # the 4 in slot 1 costs 5
    assert [s["value"] for s in market(m)] == [1, 2, 3, None, 5] and not market(m)[3]["card"]
    deck = m.state["table"]["market_deck"]
    play(m, {"action": "end_turn"})
    # 1, 2, 3 slide one slot right (each costs 1 less); a new, not yet entered card at the left.
    assert [(s["value"], s["price"]) for s in market(m)] == [(None, None), (1, 4), (2, 4), (3, 4), (5, 5)]
    assert market(m)[0]["card"] and m.state["table"]["market_deck"] == deck - 1


def test_market_deck_empty_reshuffles_the_discard_and_both_empty_leave_slots_empty():
    """Fase de limpieza 2: reshuffle the market discard; if both are empty, nothing happens."""
    m = play(match(), {"action": "adjust", "counter": "market_deck", "delta": -100},
             {"action": "adjust", "counter": "market_discard", "delta": 1},
             {"action": "take", "player": "Ana", "slot": 4}, {"action": "take", "player": "Ana", "slot": 3},
             {"action": "inventory", "count": 0})
    p = m.apply({"action": "end_turn"})
    assert any("market discard pile (1 card) is shuffled" in e for e in p.events)
    assert [s["card"] for s in market(m)] == [False, True, True, True, True]
    assert m.state["table"]["market_deck"] == 0 and m.state["table"]["market_discard"] == 0


def test_buying_moves_payment_to_discard_and_the_card_to_hand():
    m = play(match(), {"action": "set_market", "slot": 2, "value": 3})
    play(m, {"action": "buy", "slot": 2, "paid": [4, 1]})
    assert counters(m, "Ana") == {"stall": 0, "hand": 4, "deck": 5, "discard": 2}
    assert not market(m)[2]["card"]


def test_a_passive_card_that_lowers_the_price_takes_its_discount_off_and_the_card_keeps_its_value():
    """«Las cartas pasivas tienen efectos que se aplican cuando tienes la carta en la mano … Muestre la carta a otros
    jugadores cuando use su efecto»: a rulebook reader's «Regateo» lowers the price of a card bought by 1. The
    rightmost 5 then costs 4 and is paid 3+1; the card bought is still a 5 in its buyer's hand."""
    m = play(match(), {"action": "set_market", "values": [3, 3, 3, 3, 5]})
    refused(m, {"action": "buy", "slot": 0, "paid": [3, 1]}, "does not cover the price 5")
    refused(m, {"action": "buy", "slot": 0, "paid": [3, 1, 1], "discount": 1}, "overpays the price 4")
    p = m.apply({"action": "buy", "slot": 0, "paid": [3, 1], "discount": 1})
    assert "Ana's card lowers the price by 1: 5 → 4" in p.events
    ana = m.state["players"][0]
    assert ana["known"] == [5] and ana["counters"]["hand"] == 4 and ana["counters"]["discard"] == 2
    assert m.state["market"][0] == {"card": False, "value": None}


def test_buying_needs_the_card_value_a_card_in_the_slot_and_the_cards_in_hand():
    m = match()
    refused(m, {"action": "buy", "slot": 0, "paid": [2]}, "enter the value of the card at \\+0 \\(position 5 from the left\\)")
    play(m, {"action": "set_market", "slot": 0, "value": 2})
    refused(m, {"action": "buy", "slot": 0, "paid": [3], "value": 3}, "entered as a 2, not a 3")
    refused(m, {"action": "buy", "slot": 0, "paid": [1, 1, 1, 1, 1, 1]}, "5 cards in hand, not 6")
    play(m, {"action": "take", "player": "Ben", "slot": 1})
    refused(m, {"action": "buy", "slot": 1, "paid": [2], "value": 2}, "no card at \\+1 \\(position 4 from the left\\)")
    play(m, {"action": "buy", "slot": 3, "paid": [4, 2], "value": 3})  # value given inline
    assert counters(m, "Ana")["hand"] == 4


# -- payments (Acción de mercado, Nota; RULES.md "Overpaying ...") --------------------
def test_rulebook_example_5_paid_with_two_4s_is_fine_even_with_a_5_in_hand():
    """'puede comprar una tarjeta que cuesta 5 con dos cuatros incluso con una tarjeta de cinco en la mano'."""
    ok, why = payment_verdict(5, [4, 4])
    assert ok and "overpaying by 3" in why
    m = play(match(), {"action": "set_market", "slot": 0, "value": 5})  # Ana's hand may hold a 5: irrelevant
    play(m, {"action": "buy", "slot": 0, "paid": [4, 4]})
    assert counters(m, "Ana")["discard"] == 2


@pytest.mark.parametrize("extra", [1, 2, 3, 4, 5])
def test_rulebook_example_5_paid_with_a_5_plus_anything_is_refused(extra):
    """'no puede usar tarjetas adicionales al comprar la misma tarjeta con un cinco'."""
    ok, why = payment_verdict(5, [5, extra])
    assert not ok and f"a {extra} is not needed" in why and "smaller than every card" in why
    m = play(match(), {"action": "set_market", "slot": 0, "value": 5})
    refused(m, {"action": "buy", "slot": 0, "paid": [5, extra]}, r"Ana cannot buy the card at \+0 \(position 5 from the left\): .*not needed")


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_rulebook_example_5_paid_with_3_plus_2_plus_extra_is_refused(extra):
    """'... o un tres más dos' (no extra card on top of 3+2)."""
    assert payment_verdict(5, [3, 2]) == (True, "3+2 = 5 pays the price 5 exactly")
    ok, why = payment_verdict(5, [3, 2, extra])
    assert not ok and "not needed" in why


@pytest.mark.parametrize("price, paid, ok, words", [
    (5, [4], False, "1 short"),
    (5, [], False, "nothing does not cover the price 5"),
    (0, [], True, "exactly"),
    (6, [4, 4], True, "overpaying by 2"),
    (7, [4, 4], True, "overpaying by 1"),
    (5, [3, 3], True, "overpaying by 1"),
    (4, [3, 3], True, "overpaying by 2"),
    (3, [3, 3], False, "overpays the price 3 by 3, so a 3 is not needed"),
    (2, [5], True, "overpaying by 3"),
    (1, [2, 2], False, "a 2 is not needed"),
])
def test_overpay_rule_surplus_smaller_than_every_card(price, paid, ok, words):
    verdict = payment_verdict(price, paid)
    assert verdict[0] is ok and words in verdict[1]
    assert brute_force_legal(price, paid) is ok


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 15), st.lists(st.integers(0, 6), max_size=5))
def test_overpay_rule_agrees_with_the_brute_force_oracle(price, paid):
    """Acción de mercado, Nota: 'la cantidad que pague en exceso debe ser menor que el valor de cada tarjeta'."""
    assert payment_verdict(price, paid)[0] is brute_force_legal(price, paid)
    assert payment_ok(price, paid) is brute_force_legal(price, paid)  # the pods' quick check, the same rule


def test_check_payment_answers_with_the_reason_and_refuses_nothing():
    m = play(match(), {"action": "check_payment", "price": 5, "paid": [5, 1]})
    assert m.view()["payment_check"] == {
        "price": 5, "paid": [5, 1], "ok": False,
        "reason": "5+1 = 6 overpays the price 5 by 1, so a 1 is not needed: "
                  "the surplus must be smaller than every card used"}
    play(m, {"action": "set_market", "slot": 3, "value": 2},
         {"action": "check_payment", "slot": 3, "paid": [4, 4]})
    assert m.view()["payment_check"]["price"] == 5 and m.view()["payment_check"]["ok"] is True
    assert m.view()["turn"]["actions_left"] == 1  # asking is not an action


# -- stall (Acción de puesto; Fin del juego) ------------------------------------------
def test_stall_stack_records_its_cards_and_leaves_the_hand():
    m = play(match(), {"action": "stall", "set": "pandas", "values": [1]})
    ana = m.view()["players"][0]
    assert ana["counters"]["stall"] == 1 and ana["counters"]["hand"] == 4
    assert ana["stacks"] == [{"set": "pandas", "values": [1]}]


@pytest.mark.parametrize("entry, words", [
    ({"set": "pandas", "values": [2]}, "stack 1 must total exactly 1, not 2"),
    ({"set": "pandas", "values": []}, "at least one card"),
    ({"set": "junk", "values": [1]}, "junk cannot go into a stall"),
    ({"set": ["pandas", "junk"], "values": [0, 1]}, "junk cannot go into a stall"),
    ({"set": "ocelots", "values": [1]}, "'ocelots' is not an animal deck in play"),
    ({"set": ["pandas", "macaws"], "values": [0, 1]}, "one animal set, not pandas and macaws"),
    ({"set": ["pandas"], "values": [0, 1]}, "lists 1 set for 2 cards"),
    ({"set": "pandas", "values": [1], "stack": 2}, "built in order: Ana's next stack is 1, not 2"),
    ({"set": "pandas", "values": [1, 0, 0, 0, 0, 0]}, "5 cards in hand, not 6"),
])
def test_stall_stack_is_exactly_its_number_one_animal_set_no_junk_in_order(entry, words):
    """Acción de puesto: stack n totals exactly n, any number of cards of one animal set, in order."""
    refused(match(), {"action": "stall", **entry}, words)


def test_a_stack_with_junk_an_animals_power_lets_in_counts_each_junk_card_as_1_beside_an_animal_card():
    """«Quizás se pregunte por qué no puede poner a la venta chatarra en su puesto … Aunque algunos animales pueden
    salirse con la suya con un poco de basura en su puesto»: a rulebook reader's squirrel (Escondite, 3) built stack 4
    with a junk card. ``junk`` says how many: each is worth 1, they leave the hand, the stack records them; junk
    alone is still no stack, and the total is still exact."""
    m = play(match(), {"action": "stall", "set": "pandas", "values": [1]}, {"action": "end_turn"},
             {"action": "inventory", "count": 0}, {"action": "end_turn"})
    refused(m, {"action": "stall", "set": "pandas", "values": [], "junk": 2}, "at least one animal card")
    refused(m, {"action": "stall", "set": "pandas", "values": [1], "junk": 2}, "must total exactly 2, not 1\\+1\\+1")
    p = m.apply({"action": "stall", "set": "pandas", "values": [1], "junk": 1})
    ana = m.view()["players"][0]
    assert ana["stacks"][1] == {"set": "pandas", "values": [1], "junk": 1}
    assert ana["counters"]["stall"] == 2 and ana["counters"]["hand"] == 3  # 5 less the 1 and the junk
    assert "Ana builds stack 2: pandas 1 and 1 junk" in p.events


def test_stall_stacks_are_built_in_one_action_and_cannot_be_added_to():
    m = play(match(), {"action": "stall", "set": "pandas", "values": [1]}, {"action": "end_turn"},
             {"action": "inventory", "count": 0}, {"action": "end_turn"})
    refused(m, {"action": "stall", "set": "pandas", "values": [1], "stack": 1}, "already built")
    play(m, {"action": "stall", "set": ["macaws", "macaws"], "values": [1, 1], "stack": 2})
    assert m.view()["players"][0]["stacks"][1] == {"set": "macaws", "values": [1, 1]}
    assert stack_verdict(3, ["pandas"] * 2, [1, 2], DECKS3) == (True, "stack 3: pandas 1+2 = 3")


def test_a_stack_is_its_cards_in_no_order_kept_high_first():
    """Acción de puesto: a stack is «cualquier número de cartas» of one set totalling its number; which
    card was named first is not part of it: 1+2 and 2+1 are the same stack, told as the pods offer it."""
    entered = [play(match(), {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 2},
                    {"action": "stall", "set": "pandas", "values": order}) for order in ([1, 2], [2, 1])]
    assert entered[0].view() == entered[1].view()
    assert entered[0].view()["players"][0]["stacks"][-1] == {"set": "pandas", "values": [2, 1]}


def test_eighth_stack_wins_at_once_and_ends_the_game():
    """Fin del juego: placing the 8th stack wins immediately (no clean-up, nothing after)."""
    m = play(match(), {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 7})
    assert not m.state["over"]
    p = m.apply({"action": "stall", "set": "raccoons", "values": [3, 5]})
    v = m.view()
    assert v["over"] and v["winners"] == ["Ana"] and not v["draw"]
    assert any("Ana won" in e for e in p.events)
    refused(m, {"action": "end_turn"}, "the game is over \\(Ana won\\)")
    play(m, {"action": "undo"})
    assert not m.state["over"] and m.state["winners"] == []


def test_contract_adjust_stall_twice_and_reaching_8_by_any_route_wins():
    """Contract case dom-two-stacks: adjust is a quick correction of the count."""
    m = Match(make_rules({"game": GAME, "players": ["Ana", "Ben"]}))
    play(m, *[{"action": "adjust", "player": "Ana", "counter": "stall", "delta": 1}] * 2)
    assert counters(m, "Ana")["stall"] == 2 and not m.state["over"]
    assert m.view()["players"][0]["stacks"] == [None, None]
    play(m, {"action": "adjust", "player": "Ana", "counter": "stall", "delta": -1})
    assert m.view()["players"][0]["stacks"] == [None]
    play(m, {"action": "adjust", "player": "Ben", "counter": "stall", "delta": 12})  # clamps at 8
    assert counters(m, "Ben")["stall"] == 8 and m.state["over"] and m.state["winners"] == ["Ben"]


def test_stall_stacks_cannot_change_hands():
    refused(match(), {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "stall", "amount": 1},
            "cannot change hands")


# -- card effects moving cards -------------------------------------------------------
def test_move_between_piles_checks_what_is_there_and_junk_is_unlimited():
    """Fase de acción: thrown-away animal cards go to the market discard, junk to the junk pile."""
    m = play(match(), {"action": "move", "player": "Ana", "from": "hand", "to": "market_discard", "count": 2},
             {"action": "move", "player": "Ben", "from": "junk", "to": "discard", "count": 30})
    assert m.state["table"]["market_discard"] == 2 and counters(m, "Ana")["hand"] == 3
    assert counters(m, "Ben")["discard"] == 30
    refused(m, {"action": "move", "player": "Ana", "from": "hand", "to": "deck", "count": 4}, "only 3 cards in hand")
    refused(m, {"action": "move", "player": "Ana", "from": "junk", "to": "market_deck", "count": 1}, "junk never")
    refused(m, {"action": "move", "player": "Ana", "from": "deck", "to": "deck", "count": 1}, "go nowhere")


def test_inventory_discards_any_number_from_hand():
    """Acción de inventario: any number of cards from hand to the discard pile."""
    refused(match(), {"action": "inventory", "count": 6}, "5 cards in hand, not 6")
    m = play(match(), {"action": "inventory", "count": 5})
    assert counters(m, "Ana") == {"stall": 0, "hand": 0, "deck": 5, "discard": 5}


# -- pods -----------------------------------------------------------------------------
def test_seat_view_and_main_button_follow_the_turn():
    m = Match(make_rules({"game": GAME, "players": ["Ana", "Ben"]}))
    rules = m.rules
    assert rules.seat_view(m.state, "Ana")["status"] == "choose decks"
    # the decks are drawn once for the table, from the first player's pod: another pod's stray press
    # draws nothing (a stray press changes nothing)
    assert rules.seat_actions(m.state, "Ana")[0]["action"] == {"action": "draw_decks"}
    assert rules.seat_actions(m.state, "Ben") == []
    assert rules.seat_view(m.state, "Ben")["status"] == "Ana: choose decks"  # whose pod draws them
    play(m, {"action": "draw_decks", "decks": DECKS3})
    view = rules.seat_view(m.state, "Ana")
    assert view["status"] == "your last action" and view["counters"][0] == ["stall", 0]
    assert rules.seat_view(m.state, "Ben")["status"] == "Ana's turn"
    assert [i["label"] for i in rules.seat_actions(m.state, "Ben")] == ["market values"]  # only the cards

    def offered(label):
        return next(i["action"] for i in rules.seat_actions(m.state, "Ana") if i["label"] == label)

    # Preparar: the market is dealt before the first turn, so its values are all Ana is offered.
    assert [i["label"] for i in rules.seat_actions(m.state, "Ana")] == ["market values"]
    play(m, {"action": "set_market", "values": [2, 3, 4, 5, 2]})
    play(m, offered("technique +1"))
    assert rules.seat_view(m.state, "Ana")["table"][0] == ["actions", 1]
    play(m, offered("technique"))
    assert rules.seat_actions(m.state, "Ana")[0]["label"] == "end turn"
    play(m, rules.seat_actions(m.state, "Ana")[0]["action"])
    assert m.view()["turn"]["player"] == "Ben"


def test_history_tells_the_actions_in_words(journal):
    s = new_session(journal, GAME, ["Ana", "Ben"], {"decks": DECKS3})
    for e in ({"action": "set_market", "values": [1, None, 3, 4, 5]}, {"action": "technique", "bonus": True},
              {"action": "buy", "slot": 0, "paid": [4, 1]}, {"action": "end_turn"},
              {"action": "stall", "player": "Ben", "set": "pandas", "values": [1]},
              {"action": "set_market", "slot": 3, "value": 2}):
        s.apply(e)
    assert [h["text"] for h in s.history()] == [
        "market values, left to right: 1 - 3 4 5", "Ana: play a technique with a bonus action",
        "Ana: buy the card at position 5 from the left, paying 4+1 = 5", "Ana: end the turn (clean-up)",
        "Ben: build a stack: pandas 1", "Ben: market card at position 2 from the left: 2"]  # words, no "set_market (slot=…)"


# -- replay ------------------------------------------------------------------------------
def test_scripted_two_player_game_ends_on_the_8th_stack_through_tablekeeper_replay():
    """Fin del juego, played through the public `tablekeeper replay` contract."""
    r = replay_cli(SCRIPT)
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    ana = v["players"][0]
    assert v["over"] is True and v["winners"] == ["Ana"] and v["draw"] is False
    assert ana["counters"]["stall"] == 8
    assert [sum(s["values"]) for s in ana["stacks"]] == list(range(1, 9))
    assert all(len({s["set"]}) == 1 and s["set"] in v["decks"] for s in ana["stacks"])
    # The in-process replay of the same script agrees with the CLI.
    lines = [json.loads(line) for line in SCRIPT.read_text().splitlines() if line.strip()]
    assert replay(lines) == v
    # Nothing may follow the winning stack.
    r = replay_cli(lines + [{"action": "end_turn"}])
    assert r.returncode == 2 and f"line {len(lines) + 1}: the game is over" in r.stderr


def test_replay_names_the_refused_line_with_the_overpay_reason():
    r = replay_cli([{"game": GAME, "players": ["Ana", "Ben"], "options": {"decks": DECKS3}},
                    {"action": "set_market", "slot": 0, "value": 5},
                    {"action": "buy", "slot": 0, "paid": [3, 2, 1]}])
    assert r.returncode == 2 and r.stdout == ""
    assert "line 3: Ana cannot buy the card at +0 (position 5 from the left): 3+2+1 = 6 overpays" in r.stderr


# -- Hypothesis: random play with undo/redo -----------------------------------------------
@st.composite
def _near(draw, total: int, lo: int = 1):
    """Card values that often sum to ``total`` exactly, or miss it by a card or a little."""
    values = []
    left = total
    while left > 0:
        v = draw(st.integers(1, min(left, 6)))
        values.append(v)
        left -= v
    how = draw(st.sampled_from(["exact", "exact", "extra", "drop", "bump", "random"]))
    if how == "extra":
        values.append(draw(st.integers(lo, 6)))
    elif how == "drop" and values:
        values.pop(draw(st.integers(0, len(values) - 1)))
    elif how == "bump" and values:
        i = draw(st.integers(0, len(values) - 1))
        values[i] = max(lo, values[i] + draw(st.sampled_from([-1, 1, 2])))
    elif how == "random":
        values = draw(st.lists(st.integers(0, 6), max_size=5))
    return draw(st.permutations(values))


SETS = st.sampled_from(["macaws", "pandas", "raccoons", "squirrels", "ocelots", "chameleons", "junk"])


class DaleMachine(RuleBasedStateMachine):
    """Random sequences of every action, legal or not, with undo/redo and journal reloads."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="tk-dom-")
        self.journal = Journal(self.dir, durable=False)
        self.session = None

    def teardown(self):
        if self.session is not None:
            self.check_replay()
        self.journal.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @initialize(n=st.integers(2, 4), seed=st.integers(0, 2**16), random_decks=st.booleans())
    def start(self, n, seed, random_decks):
        self.players = ["Ana", "Ben", "Cai", "Dan"][:n]
        options = {} if random_decks else {"decks": list(BASE_DECKS[: n + 1])}
        self.session = Session.new(self.journal, GAME, self.players, options, rng=random.Random(seed))
        if random_decks:
            self.draw_decks()

    # -- helpers
    @property
    def state(self):
        return self.session.state

    def counters(self, name):
        return next(p for p in self.state["players"] if p["name"] == name)["counters"]

    def attempt(self, entry, expect_ok=None):
        """Apply; a refusal must leave the state byte-identical; ``expect_ok`` (if known) must hold."""
        before = canonical(self.state)
        try:
            self.session.apply(entry)
        except RuleError as e:
            assert canonical(self.state) == before
            assert expect_ok is not True, f"{entry} refused: {e}"
            return False
        assert expect_ok is not False, f"{entry} accepted"
        return True

    def turn_open(self):
        """A turn action may be taken now by the active player."""
        st_ = self.state
        return bool(st_["decks"]) and not st_["over"] and st_["table"]["actions"] >= 1

    def check_replay(self):
        again = Session.load(self.journal, self.session.game_id)
        assert canonical(again.state) == canonical(self.state)

    # -- rules
    @precondition(lambda self: self.session is not None and not self.state["decks"])
    @rule()
    def draw_decks(self):
        ok = self.attempt({"action": "draw_decks"}, expect_ok=not self.state["decks"] and not self.state["over"])
        if ok:
            assert len(set(self.state["decks"])) == len(self.players) + 1

    @rule(slot=st.integers(0, 4), value=st.integers(0, 6))
    def set_market(self, slot, value):
        self.attempt({"action": "set_market", "slot": slot, "value": value})

    @precondition(lambda self: self.turn_open())
    @rule(slot=st.integers(0, 4), data=st.data())
    def buy(self, slot, data):
        cell = self.state["market"][slot]
        active = self.state["turn"]["player"]
        entry = {"action": "buy", "slot": slot}
        value = cell["value"]
        if value is None:  # not entered yet: the buyer enters it with the purchase
            value = entry["value"] = data.draw(st.integers(0, 6))
        entry["paid"] = paid = data.draw(_near(slot + value))
        # The turn is open (precondition): the card, the hand and the overpay rule decide.
        expect = (cell["card"] and len(paid) <= self.counters(active)["hand"]
                  and brute_force_legal(slot + value, paid))
        self.attempt(entry, expect_ok=expect)

    @rule(price=st.integers(0, 12), data=st.data())
    def check_payment(self, price, data):
        paid = data.draw(_near(price))
        if self.attempt({"action": "check_payment", "price": price, "paid": paid}):
            assert self.state["payment_check"]["ok"] is brute_force_legal(price, paid)

    @precondition(lambda self: self.turn_open())
    @rule(data=st.data(), animal=SETS, mixed=st.booleans())
    def stall(self, data, animal, mixed):
        active = self.state["turn"]["player"]
        before = self.counters(active)["stall"]
        values = data.draw(_near(before + 1, lo=0))
        if self.state["decks"] and data.draw(st.booleans()):
            animal = data.draw(st.sampled_from(self.state["decks"]))
        sets = [animal] * len(values)
        if mixed and len(values) > 1:
            sets[-1] = "pandas" if animal != "pandas" else "macaws"
        # The turn is open (precondition): RULES.md "stack n must total exactly n, one animal set, no junk".
        expect = (bool(values) and sum(values) == before + 1 and len(set(sets)) == 1
                  and sets[0] in self.state["decks"] and len(values) <= self.counters(active)["hand"])
        ok = self.attempt({"action": "stall", "set": sets, "values": values}, expect_ok=expect)
        if ok:
            assert self.counters(active)["stall"] == before + 1  # only the next stack, in order

    @precondition(lambda self: self.turn_open())
    @rule(stack=st.integers(1, 8), data=st.data())
    def stall_claiming_a_number(self, stack, data):
        """Stacks are built in order: only the next number is accepted."""
        active = self.state["turn"]["player"]
        nxt = self.counters(active)["stall"] + 1
        values = data.draw(st.permutations(([1] * stack)[:5] if stack <= 5 else [stack]))
        expect = stack == nxt and len(values) <= self.counters(active)["hand"]
        self.attempt({"action": "stall", "set": self.state["decks"][0], "values": values, "stack": stack},
                     expect_ok=expect)

    @precondition(lambda self: self.session is not None and self.state["decks"] and not self.state["over"]
                  and self.state["table"]["actions"] == 0)
    @rule(which=st.sampled_from([{"action": "technique"}, {"action": "inventory", "count": 0},
                                 {"action": "stall", "set": "macaws", "values": [1]}]))
    def no_action_left(self, which):
        """RULES.md "Turn: one action": nothing more once the actions are spent."""
        self.attempt(dict(which), expect_ok=False)

    @precondition(lambda self: self.turn_open())
    @rule(bonus=st.booleans())
    def technique(self, bonus):
        self.attempt({"action": "technique", "bonus": bonus})

    @precondition(lambda self: self.turn_open())
    @rule(count=st.integers(0, 3))
    def inventory(self, count):
        self.attempt({"action": "inventory", "count": count})

    @rule(draw_to=st.sampled_from([5, 5, 5, 6]))
    def end_turn(self, draw_to):
        taken = self.state["turn"]["actions_taken"]
        active = self.state["turn"]["player"]
        ok = self.attempt({"action": "end_turn", "draw_to": draw_to},
                          expect_ok=False if (taken == 0 or self.state["over"]) else None)
        if ok:
            assert self.counters(active)["hand"] >= draw_to
            assert self.state["table"]["actions"] == 1

    @rule(who=st.integers(0, 3), count=st.integers(1, 8))
    def draw(self, who, count):
        self.attempt({"action": "draw", "player": self.players[who % len(self.players)], "count": count})

    @rule(who=st.integers(0, 3), src=st.sampled_from(["hand", "deck", "discard", "market_discard", "junk"]),
          dst=st.sampled_from(["hand", "deck", "discard", "market_discard", "junk"]), count=st.integers(1, 4))
    def move(self, who, src, dst, count):
        self.attempt({"action": "move", "player": self.players[who % len(self.players)],
                      "from": src, "to": dst, "count": count})

    @rule(who=st.integers(0, 3), slot=st.integers(0, 4))
    def take(self, who, slot):
        self.attempt({"action": "take", "player": self.players[who % len(self.players)], "slot": slot})

    @rule(who=st.integers(0, 3), delta=st.integers(-2, 4))
    def adjust_stall(self, who, delta):
        self.attempt({"action": "adjust", "player": self.players[who % len(self.players)],
                      "counter": "stall", "delta": delta})

    @precondition(lambda self: self.turn_open())
    @rule()
    def near_the_end(self):
        """A correction puts the active player one stack from the end, so games often reach the 8th."""
        active = self.state["turn"]["player"]
        self.attempt({"action": "adjust", "player": active, "counter": "stall",
                      "delta": 7 - self.counters(active)["stall"]})

    def undoable(self) -> bool:
        """Anything but notes done: a payment check is not an undo step of its own."""
        return any(not self.session.rules.is_note(e) for e in self.session.match.done)

    @precondition(lambda self: self.session.match.done)
    @rule()
    def undo(self):
        self.attempt({"action": "undo"}, expect_ok=self.undoable())

    @precondition(lambda self: self.session.match.undone)
    @rule()
    def redo(self):
        self.attempt({"action": "redo"}, expect_ok=bool(self.session.match.undone))

    @precondition(lambda self: self.session is not None and self.session.match.done
                  and not self.session.rules.is_note(self.session.match.done[-1]))  # notes are not redone
    @rule()
    def undo_then_redo_is_identity(self):
        before = canonical(self.state)
        self.session.apply({"action": "undo"})
        self.session.apply({"action": "redo"})
        assert canonical(self.state) == before

    @rule()
    def reload_equals_live(self):
        self.check_replay()

    # -- invariants
    @invariant()
    def stall_is_0_to_8_and_built_in_order(self):
        if self.session is None:
            return
        eight = []
        for p in self.state["players"]:
            n = p["counters"]["stall"]
            assert 0 <= n <= 8 and len(p["stacks"]) == n
            for i, stack in enumerate(p["stacks"], start=1):
                if stack is not None:
                    assert sum(stack["values"]) == i and stack["set"] in self.state["decks"]
            assert all(v >= 0 for v in p["counters"].values())
            if n == 8:
                eight.append(p["name"])
        assert self.state["over"] is bool(eight)
        assert self.state["winners"] == eight
        assert all(v >= 0 for v in self.state["table"].values())
        assert sum(cell["card"] for cell in self.state["market"]) <= 5


DaleMachine.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=steps(40), deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_dale_stateful = DaleMachine.TestCase


def test_the_card_turned_up_by_the_clean_up_is_entered_with_the_last_action():
    """Fase de limpieza 2: «Saca nuevas cartas del mazo del mercado y llena los espacios con ellas de
    derecha a izquierda»: "new_value" is the value of the one card the clean-up turns up."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]})
    refused(m, {"action": "buy", "slot": 0, "paid": [1, 1], "new_value": 3}, "clean_up")
    play(m, {"action": "buy", "position": 5, "paid": [1, 1], "clean_up": True, "new_value": 3})
    assert m.state["market"][4] == {"card": True, "value": 3} and m.state["turn"]["player"] == "Ben"
    # Two cards turned up (one taken by an effect, one bought): each is entered with set_market.
    play(m, {"action": "technique", "bonus": True}, {"action": "take", "player": "Ben", "position": 2})
    refused(m, {"action": "buy", "slot": 1, "paid": [1, 1, 1], "clean_up": True, "new_value": 2},
            "turns up 2 market cards")
    # end_turn too: the one card an effect took.
    m2 = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]}, {"action": "technique"},
              {"action": "take", "player": "Ana", "position": 1}, {"action": "end_turn", "new_value": 4})
    assert m2.state["market"][4] == {"card": True, "value": 4}


def test_no_card_is_turned_up_after_the_eighth_stack():
    """Fin del juego: «serás inmediatamente celebrado como el ganador»: no clean-up, no new card."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]},
             {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 7},
             {"action": "buy", "slot": 0, "paid": [1, 1], "clean_up": True})
    play(m, {"action": "inventory", "count": 0, "clean_up": True})
    refused(m, {"action": "stall", "set": "pandas", "values": [5, 3], "clean_up": True, "new_value": 2},
            "no clean-up follows")


def test_a_technique_takes_its_market_card_in_the_same_line_as_a_take_after_it():
    """Acción técnica: «Coloque la carta en su pila de descarte después de que se hayan resuelto los
    efectos» and «Los efectos siempre ocurren en el orden en que están escritos en la tarjeta»: the
    technique with "take" (a market card into the hand, by its place from the left) leaves the table as
    the technique then the take would; the card played stays in play until the next action."""
    opening = [{"action": "set_market", "values": [3, 4, 2, 5, 2]}]
    one = play(match(), *opening, {"action": "technique", "bonus": True, "take": 4})
    two = play(match(), *opening, {"action": "technique", "bonus": True},
               {"action": "take", "player": "Ana", "position": 4})
    assert one.state == two.state
    assert one.state["market"][1] == {"card": False, "value": None}  # the 5 at +1 (position 4)
    assert counters(one, "Ana")["hand"] == 5 and counters(one, "Ana")["discard"] == 0
    assert one.view()["in_play"] == 1
    refused(play(match(), *opening, {"action": "take", "player": "Ana", "position": 2}),
            {"action": "technique", "take": 2}, "no card at")  # an empty place: nothing is played


def test_a_technique_draws_in_the_same_line_and_reshuffles_as_a_draw_after_it():
    """Acción técnica (the card's text: draw) and Fase de limpieza 1: «Cada vez que tu mazo se agote y
    tú o cualquier otra persona necesite sacar nuevas cartas de él, baraja tu pila de descarte»: the
    played card is not in the discard pile yet, so it is not shuffled back."""
    setup = [{"action": "set_market", "values": [3, 4, 2, 5, 2]},
             {"action": "move", "player": "Ana", "from": "deck", "to": "discard", "count": 4}]
    one = play(match(), *setup, {"action": "technique", "bonus": True, "draw": 3})
    two = play(match(), *setup, {"action": "technique", "bonus": True}, {"action": "draw", "player": "Ana", "count": 3})
    assert one.state == two.state
    assert counters(one, "Ana") == {"stall": 0, "hand": 7, "deck": 2, "discard": 0}


def test_the_device_remembers_the_values_a_player_gains_and_builds_into_stacks():
    """Acción de mercado («compra una tarjeta en el mercado»), the take of a technique and Acción de
    puesto: the values above 1 of the cards a player bought or took stay known (paid cards go to the
    discard pile: still the player's) until built into a stack; the pod offers payments made of them."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]},
             {"action": "technique", "bonus": True, "take": 4},  # the 5
             {"action": "buy", "position": 3, "paid": [1, 1, 1, 1], "clean_up": True})  # the 2 at +2
    ana = m.state["players"][0]
    assert ana["known"] == [5, 2]
    play(m, {"action": "inventory", "count": 0, "clean_up": True},
         {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 4},
         {"action": "stall", "values": [5], "set": "pandas", "clean_up": True})
    assert m.state["players"][0]["known"] == [2]


def test_a_payment_check_answers_for_the_turn_it_was_asked_in():
    """Acción de mercado, Nota («se le permite pagar más de lo necesario por una tarjeta, si no puede
    pagar menos con las tarjetas que está realizando la compra»): the verdict is about this turn's
    purchase; at the clean-up the market slides (Fase de limpieza 2) and the next player buys from
    another hand, so it is no longer shown."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]},
             {"action": "check_payment", "slot": 1, "paid": [5, 1, 1]})  # the 5 at +1: price 6
    assert m.view()["payment_check"]["ok"] is False
    play(m, {"action": "buy", "slot": 0, "paid": [1, 1]})
    assert m.view()["payment_check"]["ok"] is False  # the turn goes on
    play(m, {"action": "end_turn"})
    assert m.view()["payment_check"] is None
