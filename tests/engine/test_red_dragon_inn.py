"""The Red Dragon Inn.

Rules cited as "RB <section>" are from the Spanish rulebook
``../shared/seeds/red-dragon-inn.es.txt`` (section titles as printed there);
"RULES" points at the Red Dragon Inn part of ``../shared/RULES.md``.
"""
from __future__ import annotations

import json
import re
import tempfile

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tablekeeper.engine import Journal, Match, RuleError, Session, SetupError, canonical, make_rules

from ..conftest import ROOT, examples, replay, replay_cli, steps

GAME = "red-dragon-inn"
SCRIPTS = ROOT / "tests" / "engine" / "scripts"


# -- helpers -----------------------------------------------------------------------------------
def match(players=("Ana", "Ben", "Cai"), **options) -> Match:
    return Match(make_rules({"game": GAME, "players": list(players), "options": options}))


def play(m: Match, *entries: dict) -> Match:
    for e in entries:
        m.apply(e)
    return m


def adj(player, counter, delta):
    return {"action": "adjust", "player": player, "counter": counter, "delta": delta}


def c(m: Match, name: str) -> dict:
    return next(p for p in m.state["players"] if p["name"] == name)["counters"]


def out(m: Match, name: str) -> bool:
    return next(p for p in m.state["players"] if p["name"] == name)["out"]


def refused(m: Match, entry: dict, words: str) -> None:
    """The action is refused with ``words`` in its message and nothing changes."""
    before = canonical(m.state), list(m.done)
    with pytest.raises(RuleError, match=words):
        m.apply(entry)
    assert (canonical(m.state), m.done) == before


def money(state: dict) -> int:
    return sum(p["counters"]["gold"] for p in state["players"]) + state["table"]["inn"] + state["table"]["pot"]


def cards(state: dict) -> int:
    return state["drinks"]["deck"] + state["drinks"]["discard"] + sum(
        p["counters"]["drink_me"] for p in state["players"])


def to_phase(m: Match, phase: str) -> Match:
    order = ["discard", "action", "buy", "drink"]
    while m.state["turn"]["phase"] != phase:
        if m.state["turn"]["phase"] == "buy":
            names = [p["name"] for p in m.state["players"] if not p["out"]]
            me = m.state["turn"]["player"]
            m.apply({"action": "buy", "to": next(n for n in names if n != me)})
        else:
            assert order.index(m.state["turn"]["phase"]) < order.index(phase)
            m.apply({"action": "next"})
    return m


def subset(expect, got) -> bool:
    if isinstance(expect, dict):
        return isinstance(got, dict) and all(k in got and subset(v, got[k]) for k, v in expect.items())
    if isinstance(expect, list) and expect and isinstance(expect[0], dict) and "name" in expect[0]:
        by = {p["name"]: p for p in got}
        return all(e["name"] in by and subset(e, by[e["name"]]) for e in expect)
    return expect == got


# -- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, gold", [(2, 8), (3, 10), (4, 10), (5, 10), (6, 10), (7, 12), (8, 12)])
def test_rb_preparar_start_values_by_player_count(n, gold):
    """RB "Preparar": 10 gold (8 with 2 players, 12 with 7+), fortitude 20, alcohol 0, one Drink Me! card."""
    m = match([f"P{i}" for i in range(n)])
    for p in m.state["players"]:
        assert p["counters"] == {"gold": gold, "fortitude": 20, "alcohol": 0, "drink_me": 1}
        assert p["out"] is False
    assert m.state["table"] == {"inn": 0, "pot": 0}
    # One card was dealt from the drink deck to each pile.
    assert m.state["drinks"] == {"deck": 30 - n, "discard": 0}
    assert m.state["turn"] == {"player": "P0", "phase": "discard", "number": 1}


@pytest.mark.parametrize("n", [1, 9])
def test_rules_players_2_to_8(n):
    """RULES "Players 2–8"."""
    with pytest.raises(SetupError, match="2–8 players"):
        match([f"P{i}" for i in range(n)])


def test_rules_serena_piety_from_8_and_free_counters_for_deck_characters():
    """RULES "character extras": Serena's piety marker starts at 8; gear/potion/Wulfric decks get a counter."""
    m = match(["Ana", "Ben", "Cai", "Dan", "Eve"],
              characters={"Ana": "Serena", "Ben": "Wizgille", "Cai": "phrenk", "Dan": "Kaylin",
                          "Eve": {"name": "Gog", "counter": "rage", "start": 2}})
    assert c(m, "Ana")["piety"] == 8
    assert c(m, "Ben")["gear"] == 0 and c(m, "Cai")["potions"] == 0 and c(m, "Dan")["wulfric"] == 0
    assert c(m, "Eve")["rage"] == 2
    assert [p.get("character") for p in m.state["players"]] == ["Serena", "Wizgille", "Phrenk", "Kaylin", "Gog"]
    assert "piety" not in c(m, "Ben")
    play(m, adj("Ana", "piety", -3), adj("Ben", "gear", 4))
    assert c(m, "Ana")["piety"] == 5 and c(m, "Ben")["gear"] == 4
    refused(m, adj("Ben", "piety", 1), "Ben has no piety counter")
    refused(m, {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "piety", "amount": 1},
            "Ben has no piety counter")


def test_rules_character_without_extra_material_and_bad_character_setups():
    """RULES "character extras" are optional and per player; a bad setup is refused with words."""
    m = match(characters={"Ana": "Deirdre"})
    assert c(m, "Ana") == {"gold": 10, "fortitude": 20, "alcohol": 0, "drink_me": 1}
    with pytest.raises(SetupError, match="'Zed' is not one of the players"):
        match(characters={"Zed": "Serena"})
    with pytest.raises(SetupError, match="already one of every player's counters"):
        match(characters={"Ana": {"name": "X", "counter": "gold"}})
    with pytest.raises(SetupError, match="must be a name or an object"):
        match(characters={"Ana": 3})


def test_drink_deck_option_sets_the_deck_and_must_cover_the_deal():
    """The drink deck size is an option (default: the base box's 30 cards)."""
    assert match(drink_deck=12).state["drinks"] == {"deck": 9, "discard": 0}
    with pytest.raises(SetupError, match="needs more than 3 cards"):
        match(drink_deck=3)
    assert make_rules({"game": GAME, "players": ["A", "B"]}).options["drink_deck"] == 30


def test_rb_preparar_choose_someone_to_go_first():
    """RB "Preparar": "Elija a alguien para que vaya primero"."""
    assert match(first_player="Cai").state["turn"]["player"] == "Cai"
    with pytest.raises(SetupError, match="first_player 'Zed'"):
        match(first_player="Zed")


# -- bank and bounds ---------------------------------------------------------------------------
def test_contract_inn_is_the_other_side_of_gold():
    """Contract rdi-bank-and-transfer: Ana −2 gold, Ben→Cai 1, Cai alcohol +7: inn 2, no pending."""
    m = play(match(), adj("Ana", "gold", -2),
             {"action": "transfer", "from": "Ben", "to": "Cai", "counter": "gold", "amount": 1},
             adj("Cai", "alcohol", 7))
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai")] == [8, 9, 11]
    assert m.state["table"] == {"inn": 2, "pot": 0}
    assert m.state["pending"] == [] and not m.state["over"]


def test_rb_otras_reglas_bounds_clamp_and_the_inn_only_gets_what_was_paid():
    """RB "Fortaleza mínima y máxima...": 0–20, gold ≥ 0 without maximum, effects apply as far as they can."""
    m = play(match(), adj("Ana", "alcohol", 25), adj("Ben", "fortitude", 3), adj("Cai", "fortitude", -30),
             adj("Ben", "gold", -15))
    assert c(m, "Ana")["alcohol"] == 20 and c(m, "Ben")["fortitude"] == 20 and c(m, "Cai")["fortitude"] == 0
    assert c(m, "Ben")["gold"] == 0 and m.state["table"]["inn"] == 10
    m2 = play(match(), adj("Ana", "gold", 40))
    assert c(m2, "Ana")["gold"] == 50 and m2.state["table"]["inn"] == -40  # the Inn never runs dry


def test_inn_and_pot_cannot_be_adjusted_directly():
    """Contract: players' gold + inn + pot never changes, so the table counters move only with gold."""
    m = match()
    refused(m, {"action": "adjust", "counter": "inn", "delta": 3}, "adjust a player's gold")
    refused(m, {"action": "adjust", "counter": "pot", "delta": 3}, "the pot changes by antes")


# -- turn and phases -------------------------------------------------------------------------------
def test_rb_como_se_juega_four_phases_in_order_then_the_left():
    """RB "Como se Juega": discard & draw, action, buy drinks, drink; then the player on the left."""
    m = match()
    seen = [m.state["turn"]["phase"]]
    play(m, {"action": "next"})
    seen.append(m.state["turn"]["phase"])
    play(m, {"action": "next"})
    seen.append(m.state["turn"]["phase"])
    play(m, {"action": "buy", "to": "Ben"})
    seen.append(m.state["turn"]["phase"])
    assert seen == ["discard", "action", "buy", "drink"]
    play(m, {"action": "drink", "alcohol": 1})
    assert m.state["turn"] == {"player": "Ben", "phase": "discard", "number": 2}


def test_phase_refusals_name_the_rule():
    """RB "Como se Juega": phases in order, only the active player; buying and drinking are compulsory."""
    m = match()
    refused(m, {"action": "next", "player": "Ben"}, "it is Ana's turn, not Ben's")
    refused(m, {"action": "drink"}, "Ana buys a drink for another player first, then drinks")
    refused(m, {"action": "next", "skip": True}, '"skip" is only for')
    to_phase(m, "buy")
    refused(m, {"action": "next"}, "buys a drink for another player first")
    refused(m, {"action": "buy", "to": "Ana"}, "not for themselves")
    play(m, {"action": "buy", "to": "Ben"})
    refused(m, {"action": "buy", "to": "Cai"}, "Ana has already bought this turn's drink: now Ana drinks")
    refused(m, {"action": "next"}, "drinks to end the turn")
    play(m, {"action": "next", "skip": True})
    assert m.state["turn"]["player"] == "Ben" and c(m, "Ana")["drink_me"] == 1


def test_advancing_skips_players_who_are_out():
    """Advancing skips players who are out; RB "Terminando tu turno"."""
    m = play(match(["Ana", "Ben", "Cai", "Dan"]), adj("Ben", "alcohol", 20), {"action": "resolve"})
    assert out(m, "Ben")
    to_phase(m, "drink")
    play(m, {"action": "drink"})
    assert m.state["turn"]["player"] == "Cai"


def test_active_player_out_hands_the_turn_on():
    """RB "Perdiendo el juego": a player who is out takes no more turns."""
    m = play(match(), {"action": "next"}, adj("Ana", "gold", -10), {"action": "resolve"})
    assert m.state["turn"] == {"player": "Ben", "phase": "discard", "number": 2}


# -- drinks -------------------------------------------------------------------------------------
def test_rb_compre_bebidas_buy_moves_the_top_drink_onto_anothers_pile():
    """RB "3. Compre bebidas": top card of the Drink Deck onto any other player's pile, no payment."""
    m = to_phase(match(), "buy")
    play(m, {"action": "buy", "to": "Cai"})
    assert c(m, "Cai")["drink_me"] == 2 and m.state["drinks"]["deck"] == 26
    assert c(m, "Ana")["gold"] == 10 and m.state["table"]["inn"] == 0


def test_extra_drinks_from_cards_any_time_without_changing_phase():
    """RB "Comprar bebidas e ignorar efectos": cards may give additional drinks."""
    m = match()
    play(m, {"action": "buy", "to": "Ana", "extra": True, "count": 2})
    assert c(m, "Ana")["drink_me"] == 3 and m.state["drinks"]["deck"] == 25
    assert m.state["turn"]["phase"] == "discard"
    refused(m, {"action": "buy", "to": "Ben", "count": 2}, "buys one drink")


def test_rb_a_card_on_two_players_changes_both_and_its_extra_drinks_split_between_two():
    """RB "Comprar bebidas e ignorar efectos", the worked example: «Wizgille … revela la tarjeta de equipo
    "¡Demasiado vapor!" y elige a Kaylin y Phrenk para que cada uno pierda 1 entereza … Wizgille aún puede darle
    una o ambas Bebidas adicionales»: one adjust with "also", one extra buy with "also"."""
    m = match(("Ana", "Ben", "Cai", "Dee"))
    play(m, dict(adj("Ben", "fortitude", -1), also="Cai"))
    assert [c(m, n)["fortitude"] for n in ("Ana", "Ben", "Cai", "Dee")] == [20, 19, 19, 20]
    play(m, {"action": "buy", "player": "Ana", "to": "Cai", "also": "Dee", "extra": True})
    assert [c(m, n)["drink_me"] for n in ("Ana", "Ben", "Cai", "Dee")] == [1, 1, 2, 2]
    assert m.state["drinks"]["deck"] == 30 - 4 - 2 and m.state["turn"] == {"player": "Ana", "phase": "discard",
                                                                           "number": 1}
    play(m, {"action": "buy", "player": "Ana", "to": "Ben", "also": "Dee", "extra": True, "count": 2})
    assert [c(m, n)["drink_me"] for n in ("Ben", "Dee")] == [3, 4] and m.state["drinks"]["deck"] == 20
    # the second player is another one, and a phase-3 buy is one drink for one player
    refused(m, dict(adj("Ben", "fortitude", -1), also="Ben"), "a second player")
    refused(m, {"action": "adjust", "counter": "inn", "delta": 1, "also": "Ben"}, "the second of two players")
    refused(m, {"action": "buy", "player": "Ana", "to": "Cai", "also": "Cai", "extra": True}, "not Cai again")
    refused(m, {"action": "buy", "to": "Cai", "also": "Dee"}, "buys one drink")


def test_rb_beber_drink_applies_the_card_and_discards_it():
    """RB "4. Beber": reveal the top of your Drink Me! pile, apply it, put it on the drink discard."""
    m = to_phase(match(), "drink")
    play(m, {"action": "drink", "alcohol": 3, "fortitude": -1, "gold": -1})
    a = c(m, "Ana")
    assert (a["alcohol"], a["fortitude"], a["gold"], a["drink_me"]) == (3, 19, 9, 0)
    assert m.state["table"]["inn"] == 1  # a drink's gold goes to the Inn
    assert m.state["drinks"]["discard"] == 1


def test_rb_beber_empty_pile_sobers_up():
    """RB "4. Beber": with no card on your Drink Me! pile you sober up: alcohol −1."""
    m = play(match(), adj("Ana", "alcohol", 4), adj("Ana", "drink_me", -1))
    to_phase(m, "drink")
    refused(m, {"action": "drink", "alcohol": 2}, "Ana's Drink Me! pile is empty: there is no drink to reveal")
    play(m, {"action": "drink"})
    assert c(m, "Ana")["alcohol"] == 3 and m.state["turn"]["player"] == "Ben"


def test_rb_cazadores_chasers_are_one_drink_from_the_same_pile():
    """RB "Cazadores": each chaser is the next card of the same pile; the whole is ONE drink.

    At alcohol 19 a +2 ale chased by −1 water is +1 → 20 as one drink; applied
    card by card it would stop at 20 and end at 19.
    """
    m = play(match(), adj("Ana", "alcohol", 18), {"action": "buy", "to": "Ana", "extra": True, "count": 2})
    to_phase(m, "drink")
    refused(m, {"action": "drink", "alcohol": 1, "chasers": 3}, "Ana's Drink Me! pile has only 3 cards: the drink and at most 2 chasers")
    play(m, {"action": "drink", "alcohol": 1, "chasers": 2})
    assert c(m, "Ana")["drink_me"] == 0 and m.state["drinks"]["discard"] == 3
    assert c(m, "Ana")["alcohol"] == 19


def test_rb_cazadores_empty_pile_while_revealing_chasers_does_not_sober_up():
    """RB "Cazadores": "¡No te quedes sobrio si tu Drink Me! La pila se agota mientras revela a los Cazadores"."""
    m = play(match(), adj("Ana", "alcohol", 5), adj("Ana", "drink_me", 1))
    to_phase(m, "drink")
    play(m, {"action": "drink", "alcohol": 2, "chasers": 1})
    assert c(m, "Ana")["alcohol"] == 7 and c(m, "Ana")["drink_me"] == 0


def test_rb_quedarse_sin_bebidas_everyone_pays_and_discards_become_the_deck():
    """RB "Quedarse sin bebidas": every player still in pays 1 gold to the Inn; discards become the deck."""
    m = play(match(["Ana", "Ben", "Cai", "Dan"], drink_deck=7), adj("Dan", "alcohol", 20), {"action": "resolve"},
             adj("Cai", "gold", -10))
    # Dan is out (his card went to the discard); Cai has 1 gold left and is still in.
    assert m.state["drinks"] == {"deck": 3, "discard": 1}
    inn = m.state["table"]["inn"]
    play(m, {"action": "buy", "to": "Ben", "extra": True, "count": 3})
    assert m.state["drinks"] == {"deck": 1, "discard": 0}
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dan")] == [10, 10, 0, 0]
    assert m.state["table"]["inn"] == inn + 3
    assert m.state["pending"] == [{"name": "Cai", "reason": "out of gold"}]


def test_rb_cazadores_running_out_while_revealing_chasers_from_the_deck_continues():
    """RB "Cazadores": out of drink-deck cards while revealing chasers: run out, then keep revealing."""
    m = play(match(drink_deck=5), adj("Ana", "drink_me", -1), adj("Ben", "drink_me", -1))
    assert m.state["drinks"] == {"deck": 2, "discard": 2}
    play(m, {"action": "drink", "player": "Cai", "extra": True, "from": "deck", "alcohol": 4, "chasers": 2})
    # Two cards emptied the deck (everyone paid 1), the 2 discards became the deck, the third came from it.
    assert m.state["drinks"] == {"deck": 1, "discard": 3}
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai")] == [9, 9, 9]
    assert c(m, "Cai")["alcohol"] == 4


def test_drink_me_adjustments_take_from_the_deck_and_go_to_the_discard():
    """RB "Eventos de bebidas" are recorded as adjustments; the cards still come from the deck."""
    m = play(match(), adj("Ana", "drink_me", 2), adj("Ben", "drink_me", -5))
    assert c(m, "Ana")["drink_me"] == 3 and c(m, "Ben")["drink_me"] == 0
    assert m.state["drinks"] == {"deck": 25, "discard": 1}
    assert cards(m.state) == 30


def test_empty_deck_and_discard_refuse_a_drink_purchase():
    """RB "Quedarse sin bebidas": with nothing to shuffle there is no card to give."""
    m = play(match(drink_deck=4), {"action": "buy", "to": "Ben", "extra": True})
    assert m.state["drinks"] == {"deck": 0, "discard": 0}
    refused(m, {"action": "buy", "to": "Cai", "extra": True}, "the drink deck is empty")


def test_drink_piles_correction_and_a_deck_counted_empty_runs_out():
    """RB "Quedarse sin bebidas": the physical deck ran out: record it and everyone pays."""
    m = play(match(), {"action": "drink_piles", "deck": 0, "discard": 4})
    assert m.state["drinks"] == {"deck": 4, "discard": 0}
    assert m.state["table"]["inn"] == 3


# -- gambling -----------------------------------------------------------------------------------
def gambling(players=("Ana", "Ben", "Cai"), **opts) -> Match:
    return play(match(players, **opts), {"action": "next"}, {"action": "gamble"})


def test_rb_juego_start_antes_and_starter_in_control():
    """RB "Juego": everyone antes 1 gold into the pot (not the Inn's); the starter is in control."""
    m = gambling()
    assert m.state["table"] == {"inn": 0, "pot": 3}
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai")] == [9, 9, 9]
    g = m.state["gambling"]
    assert (g["starter"], g["control"], g["to_act"]) == ("Ana", "Ana", "Ben")


def test_rb_terminando_la_ronda_everyone_else_passes_controller_takes_the_pot():
    """RB "Terminando la Ronda": play and everyone else passes: you win the pot; starter goes to Buy Drinks."""
    m = gambling()
    play(m, {"action": "play", "card": "gambling"})  # Ben takes control
    play(m, {"action": "pass"}, {"action": "pass"})  # Cai, Ana
    assert m.state["gambling"] is None
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai")] == [9, 12, 9]
    assert m.state["turn"] == {"player": "Ana", "phase": "buy", "number": 1}


def test_rb_juego_passing_players_may_play_later_in_turn_order():
    """RB "Juego": clockwise from the starter; a player who passed may still play later."""
    m = gambling(["Ana", "Ben", "Cai", "Dan"])
    play(m, {"action": "pass", "player": "Ben"}, {"action": "play", "player": "Cai", "card": "cheat"},
         {"action": "pass", "player": "Dan"}, {"action": "pass", "player": "Ana"})
    refused(m, {"action": "pass", "player": "Cai"}, "it is Ben's go in the gambling round, not Cai's")
    play(m, {"action": "play", "player": "Ben", "card": "gambling"})
    assert m.state["gambling"]["control"] == "Ben"
    play(m, {"action": "pass"}, {"action": "pass"}, {"action": "pass"})
    assert m.state["gambling"] is None and c(m, "Ben")["gold"] == 9 + 4


def test_rb_mano_ganadora_only_a_cheat_follows_then_anything():
    """RB "¿Mano ganadora?": after "Winning Hand!" only a cheating card takes control; after a cheat, anything."""
    m = gambling(["Ana", "Ben", "Cai", "Dan"])
    play(m, {"action": "play", "card": "winning_hand"})  # Ben
    refused(m, {"action": "play", "card": "gambling"}, 'after "Winning Hand!" only a cheating card')
    refused(m, {"action": "play", "card": "winning_hand"}, "only a cheating card")
    play(m, {"action": "play", "card": "cheat"})  # Cai
    play(m, {"action": "play", "card": "gambling"})  # Dan
    assert m.state["gambling"]["control"] == "Dan"


def test_gambling_refusals():
    """RB "Juego": rounds start with the action card; only players in the round play, in turn."""
    m = match()
    refused(m, {"action": "pass"}, "no gambling round is running")
    play(m, {"action": "next"}, {"action": "gamble"})
    refused(m, {"action": "gamble"}, "a gambling round is running")
    refused(m, {"action": "next"}, "a gambling round is running")
    refused(m, {"action": "play", "player": "Cai", "card": "cheat"}, "it is Ben's go")
    refused(m, {"action": "play", "card": "bluff"}, "'card' must be one of gambling, cheat, winning_hand")
    play(m, {"action": "leave", "player": "Cai"})
    refused(m, {"action": "leave", "player": "Cai"}, "Cai already left")


def test_rb_dejando_una_ronda_starter_leaves_at_once_pot_to_the_inn():
    """RB "Dejando una ronda": starter leaves at once and nobody takes control: the pot goes to the Inn."""
    m = gambling()
    play(m, {"action": "leave", "player": "Ana"})
    assert m.state["gambling"]["control"] is None
    refused(m, {"action": "play", "player": "Ana", "card": "cheat"}, "Ana left this gambling round")
    play(m, {"action": "pass"}, {"action": "pass"})
    assert m.state["gambling"] is None
    assert m.state["table"] == {"inn": 3, "pot": 0}


def test_rb_obligar_force_out_leaving_one_player_wins_the_round():
    """RB "Obligar a un jugador a dejar": if one player remains in the round, that player wins."""
    m = gambling()
    play(m, {"action": "play", "card": "cheat"})  # Ben in control
    play(m, {"action": "force_out", "player": "Ben"})  # caught cheating
    assert m.state["gambling"]["control"] is None
    play(m, {"action": "force_out", "player": "Ana"})
    assert m.state["gambling"] is None and c(m, "Cai")["gold"] == 12


def test_a_force_out_is_undone_by_whoever_played_it_not_by_the_player_it_threw_out():
    """RB "Obligar a un jugador a dejar": the card is the player's to act; the player thrown out is only its
    target — undo is not theirs (a play-tester's thrown-out player could take the card back on his pod)."""
    m = gambling()
    play(m, {"action": "play", "card": "cheat"})  # Ben in control
    to_act = m.state["gambling"]["to_act"]
    assert to_act != "Ben"
    play(m, {"action": "force_out", "player": "Ben"})
    assert m.last_move_by() == to_act


def test_end_round_card_sends_the_pot_where_it_says():
    """RB "Terminando la Ronda" (the Wench's tip card): a card may end the round; pot to the Inn."""
    m = gambling()
    play(m, {"action": "end_round", "winner": None})
    assert m.state["table"] == {"inn": 3, "pot": 0} and m.state["turn"]["phase"] == "buy"


def test_a_round_ended_with_the_pot_to_the_inn_is_said_so_by_its_switch_too():
    """The menu's "end round…" sends the pot to the Inn with its switch (`inn`); its history line and a pod's undo
    said "pot to the player in control" (a play-tester's Wench's tip), though the Inn had it."""
    m = gambling()
    action = {"action": "end_round", "inn": True, "by": "Cai"}
    play(m, action)
    assert m.state["table"] == {"inn": 3, "pot": 0}
    assert str(m.rules.describe(action)) == "the gambling round ends: pot to the Inn"
    assert str(m.rules.describe({"action": "end_round"})) == "the gambling round ends: pot to the player in control"


def test_rb_sin_oro_durante_el_juego_zero_gold_stays_until_the_round_ends():
    """RB "Quedarse sin oro durante el juego": stay in until the round ends; out then unless you win."""
    m = gambling()
    play(m, adj("Cai", "gold", -9))
    assert c(m, "Cai")["gold"] == 0 and m.state["pending"] == []
    play(m, {"action": "play", "player": "Ben", "card": "gambling"}, {"action": "pass", "player": "Cai"},
         {"action": "pass", "player": "Ana"})
    assert m.state["pending"] == [{"name": "Cai", "reason": "out of gold"}]
    play(m, {"action": "resolve"})
    assert out(m, "Cai")


def test_rb_sin_oro_durante_el_juego_winning_the_pot_saves():
    """RB "Quedarse sin oro durante el juego": a player at 0 gold who wins the pot stays in."""
    out_script = [json.loads(x) for x in (SCRIPTS / "red-dragon-inn-broke-gambler.jsonl").read_text().splitlines()]
    view = replay(out_script)
    assert subset({"players": [{"name": "Cai", "counters": {"gold": 3}, "out": False}],
                   "pending": [], "gambling": None, "table": {"inn": 9, "pot": 0}}, view)


def test_rb_sin_oro_starter_who_cannot_ante_means_nobody_antes():
    """RB "Quedarse sin oro durante el juego": if the player whose card calls an ante cannot, nobody antes."""
    m = gambling()
    play(m, adj("Ben", "gold", -9), {"action": "play", "card": "gambling", "ante": True})
    assert m.state["table"]["pot"] == 3
    play(m, {"action": "play", "card": "gambling", "ante": True})  # Cai can: Ana and Cai ante, Ben cannot
    assert m.state["table"]["pot"] == 5 and c(m, "Ben")["gold"] == 0


def test_pay_pot_moves_only_what_the_player_has():
    """Every gold that leaves a player goes to the Inn, the pot or another player."""
    m = gambling()
    play(m, {"action": "pay_pot", "player": "Ben", "amount": 20})
    assert c(m, "Ben")["gold"] == 0 and m.state["table"]["pot"] == 12


# -- losing ----------------------------------------------------------------------------------------
def test_rb_desmayarse_loss_is_pending_adjustments_may_save():
    """RB "Desmayarse": you don't lose at once; you have a last chance to save yourself."""
    m = play(match(), adj("Ben", "alcohol", 12), adj("Ben", "fortitude", -8))
    assert m.state["pending"] == [{"name": "Ben", "reason": "passing out"}] and not out(m, "Ben")
    play(m, adj("Cai", "gold", -1), {"action": "transfer", "from": "Ana", "to": "Cai", "counter": "gold",
                                     "amount": 1})
    assert m.state["pending"] == [{"name": "Ben", "reason": "passing out"}]  # the window stays open
    play(m, adj("Ben", "alcohol", -1))
    assert m.state["pending"] == [] and not out(m, "Ben")


def test_rb_desmayarse_the_next_other_action_applies_the_loss():
    """A pending loss is applied by `resolve` or by the next non-adjustment action."""
    m = play(match(), adj("Ben", "gold", -10))
    assert m.state["pending"] == [{"name": "Ben", "reason": "out of gold"}]
    play(m, {"action": "next"})
    assert out(m, "Ben") and m.state["pending"] == [] and m.state["turn"]["phase"] == "action"


def test_extra_drink_in_the_last_chance_window_keeps_it_open():
    """RB "Desmayarse": the last chance may "atacar a otros" — a card making someone drink is part of it."""
    m = play(match(), adj("Ben", "alcohol", 20),
             {"action": "drink", "player": "Ana", "extra": True, "alcohol": 20})
    assert m.state["pending"] == [{"name": "Ana", "reason": "passing out"}, {"name": "Ben", "reason": "passing out"}]


def test_rb_desmayarse_worked_example_seven_gold_three_others():
    """RB "Desmayarse" / RULES example: 7 gold, 3 other players: the Inn gets 4, each of the 3 gets 1."""
    m = play(match(["Ana", "Ben", "Cai", "Dan"]), adj("Ana", "gold", -3))
    inn = m.state["table"]["inn"]
    play(m, adj("Ana", "alcohol", 20), {"action": "resolve"})
    assert m.state["table"]["inn"] - inn == 4
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dan")] == [0, 11, 11, 11]
    assert out(m, "Ana") and c(m, "Ana")["drink_me"] == 0 and m.state["drinks"]["discard"] == 1


@pytest.mark.parametrize("gold, others, to_inn, each", [(10, 3, 7, 1), (9, 2, 5, 2), (1, 2, 1, 0), (8, 4, 4, 1),
                                                        (12, 5, 7, 1), (0, 2, 0, 0)])
def test_rb_desmayarse_split_half_and_odd_coin_to_the_inn_remainder_to_the_inn(gold, others, to_inn, each):
    """RB "Desmayarse": half and the odd coin to the Inn; the rest splits evenly; what does not split to the Inn."""
    names = [f"P{i}" for i in range(others + 1)]
    m = match(names)
    start = c(m, "P1")["gold"]
    play(m, adj("P0", "gold", gold - c(m, "P0")["gold"]))
    inn = m.state["table"]["inn"]
    play(m, adj("P0", "fortitude", -20), {"action": "resolve"})
    assert m.state["table"]["inn"] - inn == to_inn
    assert all(c(m, n)["gold"] == start + each for n in names[1:])


def test_rb_varios_pierden_share_saves_a_zero_gold_player():
    """RB "Es posible que varios jugadores pierdan": splits first; a share can save a player at 0 gold."""
    m = play(match(), {"action": "transfer", "from": "Ben", "to": "Cai", "counter": "gold", "amount": 10},
             adj("Ana", "fortitude", -20))
    assert m.state["pending"] == [{"name": "Ana", "reason": "passing out"},
                                  {"name": "Ben", "reason": "out of gold"}]
    play(m, {"action": "resolve"})
    assert out(m, "Ana") and not out(m, "Ben") and c(m, "Ben")["gold"] == 2 and c(m, "Cai")["gold"] == 22


def test_rb_varios_pierden_no_share_no_rescue():
    """RB "Es posible que varios jugadores pierdan": after the splits, anyone at 0 gold is out too."""
    m = play(match(["Ana", "Ben", "Cai", "Dan"]), adj("Ana", "gold", -9), adj("Ana", "alcohol", 20),
             adj("Ben", "gold", -10))
    play(m, {"action": "resolve"})  # Ana's 1 gold goes all to the Inn: nothing for Ben
    assert out(m, "Ana") and out(m, "Ben") and not m.state["over"]


def test_rb_varios_pierden_passing_out_players_do_not_share_with_each_other():
    """RB "Es posible que varios jugadores pierdan": the splits go to the players who remain."""
    m = play(match(["Ana", "Ben", "Cai", "Dan"]), adj("Ana", "alcohol", 20), adj("Ben", "alcohol", 20))
    play(m, {"action": "resolve"})
    # Each 10: 5 to the Inn, 5 split between Cai and Dan (2 each), 1 to the Inn.
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dan")] == [0, 0, 14, 14]
    assert m.state["table"]["inn"] == 12


def test_rb_todos_pierden_a_la_vez_is_a_draw_between_them():
    """RB "Si todos los jugadores restantes pierden ... simultáneamente": a draw between those players."""
    view = replay([json.loads(x) for x in (SCRIPTS / "red-dragon-inn-draw.jsonl").read_text().splitlines()])
    assert view["over"] is True and view["draw"] is True and sorted(view["winners"]) == ["Ana", "Ben"]
    assert all(p["out"] for p in view["players"])


def test_rules_last_one_standing_wins_and_the_game_is_over():
    """RULES "the last player standing wins"."""
    m = play(match(["Ana", "Ben"]), adj("Ben", "gold", -8), {"action": "resolve"})
    assert m.state["over"] and m.state["winners"] == ["Ana"] and m.state["draw"] is False
    refused(m, adj("Ana", "gold", 1), "the game is over")


def test_pending_loss_that_ends_the_game_refuses_other_actions_until_resolved():
    """The next action applies the pending loss; an action after the game's end is refused."""
    m = play(match(["Ana", "Ben"]), adj("Ben", "alcohol", 20))
    refused(m, {"action": "next"}, r"the pending losses of Ben \(passing out\) end the game \(Ana won\)")
    play(m, {"action": "resolve"})
    assert m.state["winners"] == ["Ana"]


def test_pending_loss_of_the_active_player_is_not_pressed_on_by_the_next_player():
    """The next action applies the pending loss, but never acts for someone it was not meant for."""
    m = play(match(), {"action": "next"}, adj("Ana", "gold", -10))
    refused(m, {"action": "next"}, r"Ana \(out of gold\) must be settled first, and that changes whose turn it is: "
                                   "press resolve, then go on")
    refused(m, {"action": "next", "player": "Ana"}, "Ana is out of the game")
    play(m, {"action": "resolve"})
    assert m.state["turn"] == {"player": "Ben", "phase": "discard", "number": 2}
    play(m, {"action": "next"})
    assert m.state["turn"]["phase"] == "action"


def test_resolve_after_the_end_is_a_harmless_no_op():
    """Foundation contract: resolve is a no-op when nothing is pending (also once the game is over)."""
    m = play(match(["Ana", "Ben"]), adj("Ben", "alcohol", 20), {"action": "resolve"})
    done = len(m.done)
    assert m.apply({"action": "resolve"}).kind == "noop" and len(m.done) == done


def test_rb_desmayarse_during_gambling_leaves_the_round():
    """RB "Juego" + "Desmayarse": a player out of the game is out of the round; controller out = no control."""
    m = gambling(["Ana", "Ben", "Cai", "Dan"])
    play(m, {"action": "play", "card": "cheat"}, adj("Ben", "alcohol", 20), {"action": "pass"})  # Cai passes
    assert out(m, "Ben") and "Ben" not in m.state["gambling"]["players"]
    assert m.state["gambling"]["control"] is None
    play(m, {"action": "pass"}, {"action": "pass"})  # Dan, Ana: everybody passed, nobody in control
    assert m.state["gambling"] is None and m.state["table"]["pot"] == 0


def test_undo_reverts_a_resolution_with_its_split():
    """Undo reverts an action with everything it caused (an elimination, a gold split)."""
    m = play(match(), adj("Ana", "alcohol", 20))
    before = canonical(m.state)
    play(m, {"action": "resolve"})
    m.apply({"action": "undo"})
    assert canonical(m.state) == before


# -- pods ------------------------------------------------------------------------------------------
def test_pod_main_button_does_the_routine_action_of_the_moment():
    """DESIGN data flow: a seat's main button is the routine action; here a whole turn by main buttons."""
    rules = make_rules({"game": GAME, "players": ["Ana", "Ben", "Cai"]})
    m = Match(rules)
    labels = []
    for _ in range(2):
        first = rules.seat_actions(m.state, "Ana")[0]
        labels.append(first["label"])
        m.apply(first["action"])
    assert labels == ["drink for Ben", "ale +1"]  # phase 4 offers the common drinks by name
    # another's turn: only the cards «en cualquier momento», each asking its player or drink (one main does nothing)
    assert m.state["turn"]["player"] == "Ben" and all(o.get("ask") for o in rules.seat_actions(m.state, "Ana"))
    view = rules.seat_view(m.state, "Ben")
    assert view["status"] == "your turn: discard" and view["counters"][0] == ["fortitude", 20]
    play(m, adj("Cai", "alcohol", 20))
    assert rules.seat_view(m.state, "Cai")["status"] == "PASSING OUT" and rules.seat_view(m.state, "Cai")["alert"]
    # the last chance: on the passing-out player's pod resolve first (their chance is over when they say
    # so), then «cartas de A veces o En cualquier momento para … atacar a otros»; on the others' a card
    # on a player, who is asked (from the one passing out): a stray main on Ana's pod must neither end
    # Cai's last chance nor hit anyone (it opens the question)
    offers = rules.seat_actions(m.state, "Cai")
    assert offers[0] == {"label": "resolve", "action": {"action": "resolve"}, "guarded": True, "confirm": True}
    assert [o["action"] for o in offers[1:3]] == [
        {"action": "adjust", "player": q, "counter": "fortitude", "delta": -1} for q in ("Ana", "Ben")]
    assert [o["action"]["action"] for o in offers[3:]] == ["transfer", "transfer"]  # then gold taken: «atacar a otros»
    assert [(o["action"], o["ask"]) for o in rules.seat_actions(m.state, "Ana")] == [
        ({"action": "adjust", "player": "Cai", "counter": "fortitude", "delta": -1}, ["player"])]


def test_pod_gambling_main_button_is_pass_for_the_player_to_act():
    """RB "Juego": on your go you play or pass; the pod's main button passes."""
    m = gambling()
    rules = m.rules
    # not Cai's go: only a card played out of turn, asking who plays it (a stray main alone opens the step)
    assert [(o["action"], o["ask"]) for o in rules.seat_actions(m.state, "Cai")] == [
        ({"action": "end_round", "winner": None, "by": "Cai"}, ["by"]),
        ({"action": "leave", "player": "Cai"}, ["player"])]
    acts = rules.seat_actions(m.state, "Ben")
    assert acts[0]["label"] == "pass" and [str(a["label"]) for a in acts] == [
        # the cards the stories played most first: a cheat (19), a raise, «¡Subo la apuesta!» (16), a winning hand
        # (14), a plain gambling card (6)
        "pass", "cheat", "raise: everyone antes 1", "winning hand", "gambling", "cheat: everyone antes 1",
        "pot to the Inn", "Cai out of the round", "Ana out of the round", "leave the round"]  # Ana, in control: next to leaving
    m.apply(acts[0]["action"])
    assert m.state["gambling"]["to_act"] == "Cai"
    assert rules.seat_view(m.state, "Ana")["table"] == [["pot", 3], ["control", "Ana"]]


def test_a_card_that_makes_each_other_player_pay_you_1_gold_is_one_offer():
    """A card such as «Diezmo para el templo» (each other player gives you 1 gold) is one offer in the action
    phase, complete: every other player still in pays 1 gold to the player, nothing to the Inn."""
    m = Match(make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"], "options": {}}))
    offer = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "each pays you 1 gold")
    assert "ask" not in offer
    gold = {p["name"]: p["counters"]["gold"] for p in m.state["players"]}
    m.apply(offer["action"])
    after = {p["name"]: p["counters"]["gold"] for p in m.state["players"]}
    assert after == {"Ana": gold["Ana"] + 2, "Ben": gold["Ben"] - 1, "Cai": gold["Cai"] - 1}
    assert m.state["table"]["inn"] == 0


def test_a_card_played_out_of_turn_in_the_gambling_round_is_on_its_players_pod():
    """Cards played out of turn in a round, on the pod of a player in it, two presses each (main, main on the
    player asked): right after a cheat, the cheater thrown out (a sword that detects lies), undone by whoever
    played it, not by the player to act; the round ended with the pot to the Inn (the Wench's tip; also an end
    of round with "inn", a switch the menu asks). A player who left the round has no card of it."""
    m = gambling()
    m.apply({"action": "play", "player": "Ben", "card": "cheat"})
    assert m.state["gambling"]["control"] == "Ben" and m.state["gambling"]["to_act"] == "Cai"
    offers = [o["action"] for o in m.rules.seat_actions(m.state, "Ana")]
    assert offers == [{"action": "force_out", "player": "Ben", "by": "Ana", "negates": True},
                      {"action": "end_round", "winner": None, "by": "Ana"},
                      {"action": "leave", "player": "Ana"}]
    assert all(o["ask"] for o in m.rules.seat_actions(m.state, "Ana"))  # two presses each: stray-safe
    assert m.rules.actor(m.state, offers[0]) == "Ana"
    m.apply(offers[0])
    assert "Ben" in m.state["gambling"]["left"]
    assert m.rules.seat_actions(m.state, "Ben") == []  # out of the round: no card of the round
    # no cheat to answer any more: only the card that ends the round and leaving it
    assert [o["action"]["action"] for o in m.rules.seat_actions(m.state, "Ana")] == ["end_round", "leave"]
    with pytest.raises(RuleError, match="against themselves"):
        m.rules.apply(m.state, {"action": "force_out", "player": "Cai", "by": "Cai"})
    with pytest.raises(RuleError, match="either to a winner or to the Inn"):
        m.rules.apply(m.state, {"action": "end_round", "winner": "Ana", "inn": True})
    pot, inn = m.state["table"]["pot"], m.state["table"]["inn"]
    m.apply({"action": "end_round", "inn": True, "by": "Ana"})
    assert m.state["gambling"] is None and m.state["table"]["inn"] == inn + pot


def test_a_card_that_negates_a_cheat_gives_control_back_to_whoever_had_it():
    """«Mi espada sagrada detecta mentiras!» is the rulebook's anti-cheat card; all four rulebook readers'
    tables played it as "negate the cheat; its player leaves the round", control going back to whoever had
    it before. With "negates", the round goes on as before the cheat, without the cheater: here Ana (the
    starter, in control) wins when Cai passes; without it, nobody is in control."""
    m = gambling()
    m.apply({"action": "play", "player": "Ben", "card": "cheat"})
    # the player to act (Cai) has it among the round's offers too, for the cheater only
    cai = [o["action"] for o in m.rules.seat_actions(m.state, "Cai") if o["action"]["action"] == "force_out"]
    assert cai == [{"action": "force_out", "player": "Ana"}, {"action": "force_out", "player": "Ben", "negates": True}]
    negated = m.rules.apply(m.state, {"action": "force_out", "player": "Ben", "by": "Ana", "negates": True})[0]
    g = negated["gambling"]
    assert (g["control"], g["last"], g["to_act"], g["left"]) == ("Ana", "gambling", "Cai", ["Ben"])
    plain = m.rules.apply(m.state, {"action": "force_out", "player": "Ben", "by": "Ana"})[0]
    assert plain["gambling"]["control"] is None
    m.apply({"action": "force_out", "player": "Ben", "by": "Ana", "negates": True})
    gold = c(m, "Ana")["gold"]
    pot = m.state["table"]["pot"]
    m.apply({"action": "pass", "player": "Cai"})
    assert m.state["gambling"] is None and c(m, "Ana")["gold"] == gold + pot
    # only the cheat just played is negated
    m = gambling()
    m.apply({"action": "play", "player": "Ben", "card": "gambling"})
    with pytest.raises(RuleError, match="only the cheating card just played"):
        m.apply({"action": "force_out", "player": "Ben", "by": "Ana", "negates": True})
    m.apply({"action": "play", "player": "Cai", "card": "cheat"})
    with pytest.raises(RuleError, match="did not just play one"):
        m.apply({"action": "force_out", "player": "Ben", "by": "Ana", "negates": True})


# -- replay scripts ------------------------------------------------------------------------------------
EXPECTED = {
    "red-dragon-inn-pass-out-split.jsonl": {
        "players": [{"name": "Ana", "out": True, "counters": {"gold": 0}}, {"name": "Ben", "counters": {"gold": 11}},
                    {"name": "Cai", "counters": {"gold": 11}}, {"name": "Dan", "counters": {"gold": 11}}],
        "table": {"inn": 7, "pot": 0}, "pending": [], "over": False},
    "red-dragon-inn-share-saves.jsonl": {
        "players": [{"name": "Ana", "out": True}, {"name": "Ben", "out": False, "counters": {"gold": 2}},
                    {"name": "Cai", "counters": {"gold": 22}}],
        "table": {"inn": 6, "pot": 0}, "over": False},
    "red-dragon-inn-draw.jsonl": {"over": True, "draw": True, "winners": ["Ana", "Ben"], "table": {"inn": 30}},
    "red-dragon-inn-broke-gambler.jsonl": {
        "players": [{"name": "Cai", "out": False, "counters": {"gold": 3}}], "table": {"inn": 9, "pot": 0},
        "turn": {"player": "Ana", "phase": "buy"}},
    "red-dragon-inn-worked-example.jsonl": {
        "players": [{"name": "Ana", "out": True, "counters": {"piety": 9}}, {"name": "Ben", "counters": {"gold": 23}},
                    {"name": "Cai", "out": True}],
        "table": {"inn": 7, "pot": 0}, "over": True, "winners": ["Ben"], "draw": False,
        "drinks": {"deck": 2, "discard": 4}},
}


def test_every_script_has_an_expectation():
    assert sorted(p.name for p in SCRIPTS.glob("red-dragon-inn-*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_scripts(name):
    """The rules through `tablekeeper replay` scripts kept in tests/."""
    lines = [json.loads(x) for x in (SCRIPTS / name).read_text().splitlines() if x.strip()]
    view = replay(lines)
    assert subset(EXPECTED[name], view), json.dumps(view)
    assert money(view) == (8 if len(view["players"]) == 2 else 10 if len(view["players"]) < 7 else 12) * len(
        view["players"])


def test_replay_cli_worked_example_and_refusal_line_number():
    """Foundation contract: `tablekeeper replay` prints the view; a refused line exits 2 with "line N:"."""
    r = replay_cli(SCRIPTS / "red-dragon-inn-worked-example.jsonl")
    assert r.returncode == 0, r.stderr
    assert subset(EXPECTED["red-dragon-inn-worked-example.jsonl"], json.loads(r.stdout))
    bad = replay_cli([{"game": GAME, "players": ["Ana", "Ben"]}, {"action": "pass"}])
    assert bad.returncode == 2 and bad.stderr.strip() == "line 2: no gambling round is running" and bad.stdout == ""


def test_docs_worked_example_matches_the_engine():
    """docs/games/red-dragon-inn.md shows the worked example script and its real output."""
    text = (ROOT / "docs" / "games" / "red-dragon-inn.md").read_text()
    script = (SCRIPTS / "red-dragon-inn-worked-example.jsonl").read_text().strip()
    assert script in text
    shown = re.search(r"```json\n(\{\n.*?\n\})\n```", text, re.S)
    assert shown, "the docs show the output as a ```json block"
    assert json.loads(shown.group(1)) == replay([json.loads(x) for x in script.splitlines()])


# -- property test ----------------------------------------------------------------------------------
NAMES = ["Ana", "Ben", "Cai", "Dan"]


def candidate_actions(rules, state: dict) -> list[dict]:
    """A weighted menu: the pods' routine actions, gambling plays, card effects, and things to refuse."""
    players = [p["name"] for p in state["players"]]
    routine = [a["action"] for n in players for a in rules.seat_actions(state, n)]
    routine += [{"action": "next"}, {"action": "gamble"}, {"action": "drink", "alcohol": 3, "chasers": 1},
                {"action": "drink", "alcohol": 2, "fortitude": -1, "gold": 1}, {"action": "resolve"}]
    plays = [{"action": "play", "card": k} for k in ("gambling", "cheat", "winning_hand")]
    plays += [{"action": "play", "card": "gambling", "ante": True}, {"action": "pass"}, {"action": "pass"},
              {"action": "end_round"}, {"action": "end_round", "winner": None}]
    effects, losing = [], []
    for n in players:
        losing += [adj(n, "alcohol", 9), adj(n, "fortitude", -6), adj(n, "gold", -3)]
        effects += [adj(n, "gold", 2), adj(n, "alcohol", -2), adj(n, "drink_me", 2), adj(n, "drink_me", -1),
                    {"action": "buy", "to": n, "extra": True, "count": 2},
                    {"action": "drink", "player": n, "extra": True, "alcohol": 4, "chasers": 1},
                    {"action": "drink", "player": n, "extra": True, "from": "deck", "alcohol": 1, "gold": -2},
                    {"action": "leave", "player": n}, {"action": "force_out", "player": n},
                    {"action": "pay_pot", "player": n, "amount": 2}]
        effects += [{"action": "transfer", "from": n, "to": m, "counter": "gold", "amount": 4}
                    for m in players if m != n]
    odd = [{"action": "next", "skip": True}, {"action": "drink_piles", "deck": 0, "discard": 3},
           {"action": "adjust", "counter": "inn", "delta": 1}, {"action": "buy", "to": players[0]},
           {"action": "play", "player": players[-1], "card": "cheat"}, {"action": "drink", "chasers": 5}]
    return routine * 8 + plays * 4 + losing * 4 + effects + odd * 2


def test_the_turns_player_out_of_gold_in_a_drinking_contest_they_revealed_lets_the_others_drink():
    """«Si te quedas sin oro, quedas fuera del juego» in the middle of a drink event: Ana reveals a drinking
    contest, and the drinks from a deck that keeps running out (every player pays the Inn 1 gold each time)
    leave her out of gold. She is out; Dan still drinks his, the contest is settled among the others, and
    the turn passes to Ben once the last has drunk (found by the random games: the turn's player was out
    for those moments)."""
    m = Match(make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai", "Dan"],
                          "options": {"drink_deck": 9}}))
    for a in [{"action": "buy", "player": "Ana", "to": "Ben", "extra": True}] * 3 + [
            {"action": "gamble", "player": "Ana"}, {"action": "end_round", "winner": None, "by": "Ana"},
            {"action": "buy", "player": "Ana", "to": "Ben"}, {"action": "drink", "player": "Ana", "drink": "ale"},
            {"action": "buy", "player": "Ben", "to": "Ana"}, {"action": "drink", "player": "Ben", "drink": "ale"},
            {"action": "buy", "player": "Cai", "to": "Ana"}, {"action": "drink", "player": "Cai", "drink": "ale"},
            {"action": "transfer", "from": "Ana", "to": "Dan", "counter": "gold", "amount": 2},
            {"action": "buy", "player": "Dan", "to": "Ana"}, {"action": "drink", "player": "Dan", "drink": "ale"},
            {"action": "buy", "player": "Ana", "to": "Ben"},
            {"action": "drink_event", "player": "Ana", "kind": "contest"}] + [
            {"action": "drink", "player": who, "extra": True, "from": "deck", "drink": "ale"}
            for who in ("Ana", "Ben", "Cai")]:
        m.apply(a)
    assert [e["name"] for e in m.state["pending"]] == ["Ana"] and m.state["players"][0]["counters"]["gold"] == 0
    m.apply({"action": "resolve"})
    assert m.state["players"][0]["out"] and m.state["drink_event"]["waiting"] == ["Dan"]
    assert m.state["turn"]["player"] == "Ana"  # her turn, until the event she revealed is over
    m.apply({"action": "drink", "player": "Dan", "extra": True, "from": "deck", "drink": "ale"})
    assert m.state.get("drink_event") is None and m.state["turn"]["player"] == "Ben" and not m.state["over"]


class RedDragonInnMachine(RuleBasedStateMachine):
    """Random games: the money and card invariants, bounds, replay equality, undo/redo identity."""

    def __init__(self):
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.journal = Journal(self.tmp.name, durable=False)
        self.session = None

    @initialize(n=st.integers(2, 4), deck=st.sampled_from([6, 9, 30]))
    def setup(self, n, deck):
        self.session = Session.new(self.journal, GAME, NAMES[:n], {"drink_deck": deck})
        self.total_gold = money(self.session.state)
        self.total_cards = cards(self.session.state)

    @rule(data=st.data())
    def act(self, data):
        """A few actions in a row (a rule is one step; undo/redo/replay get their share of steps too)."""
        for _ in range(data.draw(st.integers(1, 12))):
            menu = candidate_actions(self.session.rules, self.session.state)
            entry = data.draw(st.sampled_from(menu))
            before = canonical(self.session.state)
            done = len(self.session.match.done)
            try:
                self.session.apply(entry)
            except RuleError:
                assert canonical(self.session.state) == before
                assert len(self.session.match.done) == done
            self.check()

    @precondition(lambda self: self.session.match.done)
    @rule()
    def undo_then_redo_is_identity(self):
        before = canonical(self.session.state)
        self.session.apply({"action": "undo"})
        self.session.apply({"action": "redo"})
        assert canonical(self.session.state) == before

    @precondition(lambda self: self.session.match.done)
    @rule()
    def undo(self):
        self.session.apply({"action": "undo"})

    @precondition(lambda self: self.session.match.undone)
    @rule()
    def redo(self):
        self.session.apply({"action": "redo"})

    @rule()
    def replay_equals_live(self):
        loaded = Session.load(self.journal, self.session.game_id)
        assert canonical(loaded.state) == canonical(self.session.state)

    @invariant()
    def invariants(self):
        self.check()

    def check(self):
        s = self.session.state
        assert money(s) == self.total_gold
        if not any(e.get("action") == "drink_piles" for e in self.session.match.done):
            assert cards(s) == self.total_cards  # a recount is the only way cards appear or vanish
        for p in s["players"]:
            k = p["counters"]
            assert k["gold"] >= 0 and 0 <= k["fortitude"] <= 20 and 0 <= k["alcohol"] <= 20 and k["drink_me"] >= 0
            if p["out"]:
                assert k["drink_me"] == 0
        assert s["table"]["pot"] >= 0 and s["drinks"]["deck"] >= 0 and s["drinks"]["discard"] >= 0
        if s["gambling"] is None:
            assert s["table"]["pot"] == 0 or s["over"]
        if not s["over"]:
            live = [p for p in s["players"] if not p["out"]]
            assert len(live) >= 2
            # the turn's player may be out while a round of gambling or a drink event they started goes on
            # (out of gold in the drinking contest, the others still drink theirs: the turn passes when the
            # last has drunk)
            assert (not next(p for p in s["players"] if p["name"] == s["turn"]["player"])["out"] or s["gambling"]
                    or s.get("drink_event"))
            losing = {p["name"] for p in live if p["counters"]["alcohol"] >= p["counters"]["fortitude"]
                      or (p["counters"]["gold"] == 0 and s["gambling"] is None)}
            assert {e["name"] for e in s["pending"]} == losing
        else:
            assert s["winners"] and (s["draw"] or len(s["winners"]) == 1)

    def teardown(self):
        self.journal.close()
        self.tmp.cleanup()


TestRedDragonInnProperties = RedDragonInnMachine.TestCase
TestRedDragonInnProperties.settings = settings(max_examples=examples(60), stateful_step_count=steps(40), deadline=None,
                                               suppress_health_check=[HealthCheck.too_slow])
