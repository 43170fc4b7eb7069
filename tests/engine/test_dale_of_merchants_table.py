"""Dale of Merchants at the table: cards counted where the rulebook puts them, the market counted
from the left, clean-up in the same step, a forgotten bonus action, the rematch.

Rules cited by the section of the Spanish rulebook (seeds/dale-of-merchants.es.txt).
"""
from __future__ import annotations

import pytest

from tablekeeper.engine import Match, RuleError, SetupError, canonical, make_rules

from .test_dale_of_merchants import GAME, match, play, refused
from .test_dale_of_merchants import counters as piles


def events(m: Match, entry: dict) -> list[str]:
    return [str(e) for e in m.apply(entry).events]


# -- the technique card after its effects (Acción técnica) ------------------------------------------
def test_the_technique_card_reaches_the_discard_only_after_its_effects():
    """«La carta de técnica jugada va a la pila de descartes después de que se hayan resuelto sus
    efectos»: an effect that draws and reshuffles does not pull the played card back into the deck."""
    m = play(match(), {"action": "move", "player": "Ana", "from": "deck", "to": "discard", "count": 5},
             {"action": "move", "player": "Ana", "from": "discard", "to": "hand", "count": 2},  # hand 7, discard 3
             {"action": "technique", "bonus": True})
    assert piles(m, "Ana") == {"stall": 0, "hand": 6, "deck": 0, "discard": 3} and m.view()["in_play"] == 1
    play(m, {"action": "draw", "player": "Ana", "count": 2})  # the effect: the discard (3) becomes the deck
    assert piles(m, "Ana") == {"stall": 0, "hand": 8, "deck": 1, "discard": 0}
    play(m, {"action": "inventory", "count": 0})  # the bonus action: the effects are resolved
    assert piles(m, "Ana")["discard"] == 1 and m.view()["in_play"] == 0


def test_the_technique_card_goes_to_the_discard_at_clean_up_before_the_hand_is_filled():
    """«La limpieza ocurre después de que el jugador haya realizado la acción elegida»: the played
    card is in the discard pile when clean-up reshuffles it into the new deck."""
    m = play(match(), {"action": "move", "player": "Ana", "from": "deck", "to": "hand", "count": 5},  # hand 10
             {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 6},  # hand 4
             {"action": "technique"})  # hand 3, in play 1
    p = m.apply({"action": "end_turn"})
    assert piles(m, "Ana") == {"stall": 0, "hand": 5, "deck": 5, "discard": 0}  # 6 + the played card, 2 drawn
    assert any("shuffles the discard pile (7 cards)" in e for e in p.events)


# -- a reshuffle whenever anyone takes a card from an empty deck (Fase de limpieza 1) ----------------
def empty_deck(m: Match, who: str = "Ana", discard: int = 3) -> Match:
    return play(m, {"action": "move", "player": who, "from": "deck", "to": "junk", "count": 5},
                {"action": "move", "player": who, "from": "hand", "to": "discard", "count": discard})


def test_moving_the_top_card_of_an_empty_deck_reshuffles_the_discard_pile():
    """«Cada vez que tu mazo se agote y tú o cualquier otra persona necesite sacar nuevas cartas de él,
    baraja tu pila de descarte y úsala para formar un nuevo mazo»: by any action, not only a draw."""
    m = empty_deck(match())
    said = events(m, {"action": "move", "player": "Ana", "from": "deck", "to": "hand", "count": 1})
    assert piles(m, "Ana") == {"stall": 0, "hand": 3, "deck": 2, "discard": 0}
    assert any("shuffles the discard pile (3 cards)" in e for e in said)


def test_moving_more_than_deck_and_discard_hold_moves_as_many_as_there_are():
    """Acción técnica, Nota: «si no puede robar, tomar o intercambiar la cantidad definida ... realice la
    acción con la cantidad máxima de cartas»; with nothing at all the move is refused, never silent."""
    m = empty_deck(match())
    said = events(m, {"action": "move", "player": "Ana", "from": "deck", "to": "market_discard", "count": 5})
    assert piles(m, "Ana")["deck"] == 0 and m.state["table"]["market_discard"] == 3
    assert any("only 3 of 5" in e for e in said)
    refused(m, {"action": "move", "player": "Ana", "from": "deck", "to": "hand", "count": 1}, "both empty")


def test_transfer_of_deck_cards_from_an_empty_deck_reshuffles_and_is_never_a_silent_no_op():
    """«tú o cualquier otra persona necesite sacar nuevas cartas de él»: another player takes from it too."""
    m = empty_deck(match())
    play(m, {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "deck", "amount": 1})
    assert piles(m, "Ana")["deck"] == 2 and piles(m, "Ana")["discard"] == 0 and piles(m, "Ben")["deck"] == 6
    play(m, {"action": "move", "player": "Ana", "from": "deck", "to": "junk", "count": 2})
    refused(m, {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "deck", "amount": 1}, "both empty")


def test_taking_another_players_card_into_your_hand_is_one_action_with_the_reshuffle():
    """Acción técnica, Nota («robar, tomar o intercambiar») and Fase de limpieza 1 («tú o cualquier
    otra persona»): Ana takes the top card of Ben's empty deck; his discard pile is reshuffled first."""
    m = empty_deck(match(), "Ben", discard=2)
    said = events(m, {"action": "move", "player": "Ana", "from_player": "Ben", "from": "deck", "to": "hand",
                      "count": 1})
    assert piles(m, "Ana")["hand"] == 6
    assert piles(m, "Ben") == {"stall": 0, "hand": 3, "deck": 1, "discard": 0}
    assert any("Ben shuffles the discard pile (2 cards)" in e for e in said)
    assert any("Ana takes 1 card from Ben's deck (hand)" in e for e in said)
    play(m, {"action": "move", "player": "Ana", "from_player": "Ben", "from": "hand", "to": "discard", "count": 1})
    assert piles(m, "Ana")["discard"] == 1 and piles(m, "Ben")["hand"] == 2
    # As many as there are («realice la acción con la cantidad máxima de cartas»); none: refused.
    said = events(m, {"action": "move", "player": "Ana", "from_player": "Ben", "from": "hand", "to": "hand",
                      "count": 5})
    assert piles(m, "Ben")["hand"] == 0 and piles(m, "Ana")["hand"] == 8 and any("only 2" in e for e in said)
    refused(m, {"action": "move", "player": "Ana", "from_player": "Ben", "from": "hand", "to": "hand", "count": 1},
            "Ben has no card in hand")
    refused(m, {"action": "move", "player": "Ana", "from_player": "Ben", "from": "market_deck", "to": "hand",
                "count": 1}, "from_player")


def test_a_technique_that_throws_away_a_random_card_of_every_other_hand_counts_junk_and_animals_apart():
    """A ninth rulebook reader's «Ocelote Afortunado»: «Cada otro jugador tira 1 carta al azar de su mano.» —
    «las cartas basura se colocan en la pila de basura y las cartas de animales en la pila de descarte del
    mercado»: one technique line; the table tells how many of the cards were junk, the rest go to the market
    discard. A player with an empty hand throws nothing; more junk than cards thrown is refused."""
    four = ("Ana", "Ben", "Cai", "Dee")
    m = match(four)
    play(m, {"action": "move", "player": "Cai", "from": "hand", "to": "discard", "count": 5})  # Cai holds nothing
    market = m.state["table"]["market_discard"]
    refused(m, {"action": "technique", "others_throw": True, "others_junk": 3}, "at most 2 junk")
    refused(m, {"action": "technique", "others_junk": 1}, "others_throw")
    said = events(m, {"action": "technique", "others_throw": True, "others_junk": 1})
    assert [piles(m, q)["hand"] for q in four] == [4, 4, 0, 4]
    assert m.state["table"]["market_discard"] == market + 1
    assert any("Ben, Dee each throw away a card from the hand: 1 junk, 1 to the market discard" in e
               for e in said)


def test_a_technique_on_every_other_player_takes_gives_or_makes_them_draw_in_one_line():
    """Acción técnica: «Muestre la tarjeta y realice la acción descrita en la tarjeta» — an eighth rulebook reader's
    cards act on every other player at
    once: «Saqueo», a card at random from each other hand; «Banquete», draw 3 then a card to each other player;
    «Bambú compartido», every other player draws 1 (a deck that runs out reshuffles: Fase de limpieza 1, «tú o
    cualquier otra persona»), then you 2. Each is one technique line, as the separate moves and draws would be."""
    three = ("Ana", "Ben", "Cai")
    m = match(three)
    said = events(m, {"action": "technique", "from_each": "hand"})
    assert [piles(m, q)["hand"] for q in three] == [5 - 1 + 2, 4, 4]  # the card played, one from each
    assert sum("takes 1 card from" in e for e in said) == 2
    m = match(three)
    play(m, {"action": "technique", "bonus": True, "give_each": True, "draw": 3})
    assert [piles(m, q)["hand"] for q in three] == [5 - 1 + 3 - 2, 6, 6] and m.state["players"][0]["gift_draw"] == 3
    m = empty_deck(match(three), "Ben", discard=2)
    said = events(m, {"action": "technique", "others_draw": 1, "draw": 2})
    assert piles(m, "Ben")["hand"] == 3 + 1 and piles(m, "Ben")["deck"] == 1 and piles(m, "Cai")["hand"] == 6
    assert piles(m, "Ana")["hand"] == 5 - 1 + 2 and any("Ben shuffles the discard pile" in e for e in said)
    # the top of each other discard pile: one whose discard pile is empty (its deck full) gives nothing, and is no
    # refusal of the whole card
    m = match(three)
    play(m, {"action": "move", "player": "Ben", "from": "hand", "to": "discard", "count": 1})
    play(m, {"action": "technique", "from_each": "discard"})
    assert [piles(m, q)["discard"] for q in three] == [0, 0, 0] and piles(m, "Ana")["hand"] == 5 - 1 + 1
    assert piles(m, "Cai")["deck"] == 5
    # a card to each needs as many in hand, once the cards are drawn
    m = match(three)
    play(m, {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 3})
    refused(m, {"action": "technique", "give_each": True}, "not 2 to give")


# -- thrown away (Fase de acción) ---------------------------------------------------------------------
def test_a_technique_thrown_away_goes_to_the_market_discard_and_comes_back_to_the_market():
    """«las cartas de animales en la pila de descarte del mercado» and Fase de limpieza 2: «Si el mazo de
    mercado se acaba ... baraja la pila de descarte de mercado»: the card is not lost from the count."""
    m = play(match(), {"action": "adjust", "counter": "market_deck", "delta": -100},
             {"action": "take", "player": "Ben", "position": 1},
             {"action": "technique", "to": "away"})
    assert m.state["table"]["market_discard"] == 0  # still resolving
    play(m, {"action": "end_turn"})
    assert m.state["table"]["market_discard"] == 0 and m.state["market"][4]["card"]  # reshuffled and dealt


# -- the market counted from the left ---------------------------------------------------------------------
def test_position_counts_the_board_from_the_left_and_slot_keeps_its_surcharge():
    """Acción de mercado: «El precio de la tarjeta más a la derecha en el mercado es igual a su valor.
    Moviéndose hacia la izquierda, los precios aumentan uno por uno: +1, +2, +3 y +4»."""
    m = play(match(), {"action": "set_market", "values": [3, 2, 5, 4, 2]},
             {"action": "set_market", "position": 1, "value": 4})
    assert [c["value"] for c in m.view()["market"]] == [4, 2, 5, 4, 2]
    play(m, {"action": "buy", "position": 2, "paid": [1, 1, 1, 1, 1]})  # the 2 at +3 costs 5
    assert not m.state["market"][3]["card"] and m.state["market"][0]["card"]
    m2 = play(match(), {"action": "set_market", "values": [4, 2, 5, 4, 2]},
              {"action": "buy", "slot": 3, "paid": [1, 1, 1, 1, 1]})
    assert canonical(m2.state) == canonical(m.state)


@pytest.mark.parametrize("entry, words", [
    ({"action": "buy", "slot": 5, "paid": [1]}, r"slots count the surcharge from the right, 0 \(the rightmost"),
    ({"action": "buy", "position": 0, "paid": [1]}, r"positions count the market from the left, 1 \(the leftmost"),
    ({"action": "take", "player": "Ana", "position": 6}, "from the left"),
    ({"action": "set_market", "slot": 7, "value": 2}, "to count from the left give \"position\""),
    ({"action": "buy", "slot": 0, "position": 5, "paid": [1]}, "not both"),
    ({"action": "buy", "paid": [1]}, "which market card"),
])
def test_an_out_of_range_slot_says_which_way_it_is_counted(entry, words):
    refused(play(match(), {"action": "set_market", "values": [2, 2, 2, 2, 2]}), entry, words)


# -- clean-up in the same step (Fase de limpieza) -----------------------------------------------------------
def test_clean_up_follows_the_turns_last_action_in_the_same_step():
    """«La limpieza ocurre después de que el jugador haya realizado la acción elegida y las posibles
    acciones de bonificación»: buy with clean_up is exactly buy, then end_turn."""
    setup = {"action": "set_market", "values": [3, 4, 2, 5, 2]}
    one = play(match(), setup, {"action": "buy", "position": 5, "paid": [1, 1], "clean_up": True})
    two = play(match(), setup, {"action": "buy", "slot": 0, "paid": [1, 1]}, {"action": "end_turn"})
    assert canonical(one.state) == canonical(two.state) and one.state["turn"]["player"] == "Ben"
    for action in ({"action": "stall", "set": "pandas", "values": [1], "clean_up": True},
                   {"action": "inventory", "count": 2, "clean_up": True}):
        plain = {k: v for k, v in action.items() if k != "clean_up"}
        a = play(match(), setup, action)
        b = play(match(), setup, plain, {"action": "end_turn"})
        assert canonical(a.state) == canonical(b.state)


def test_the_eighth_stack_ends_the_game_without_a_clean_up():
    """Fin del juego: «serás inmediatamente celebrado como el ganador del juego»."""
    m = play(match(), {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 7},
             {"action": "adjust", "player": "Ana", "counter": "hand", "delta": 3})
    play(m, {"action": "stall", "set": "pandas", "values": [5, 3], "clean_up": True})
    assert m.state["over"] and m.state["winners"] == ["Ana"] and m.state["turn"]["player"] == "Ana"


# -- a card in hand that changes the refill, told after the clean-up (Fase de limpieza 1) ------------------------
def test_a_discard_before_the_refill_told_after_the_clean_up_is_the_clean_up_with_the_discard_first():
    """«Roba cartas de tu mazo hasta que tengas 5 cartas en la mano»: a card that lets its player discard
    before filling the hand, told after the action's own clean-up, leaves the piles as the discard then the
    clean-up would have; the market's refill stands."""
    setup = {"action": "set_market", "values": [3, 4, 2, 5, 2]}
    grown = {"action": "move", "player": "Ana", "from": "deck", "to": "hand", "count": 1}  # hand 6, deck 4
    told = play(match(), setup, grown, {"action": "inventory", "count": 0, "clean_up": True},
                {"action": "refill", "discard": 2})
    first = play(match(), setup, grown, {"action": "inventory", "count": 0},
                 {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 2},
                 {"action": "end_turn"})
    assert piles(told, "Ana") == piles(first, "Ana") == {"stall": 0, "hand": 5, "deck": 3, "discard": 2}
    assert told.state["market"] == first.state["market"] and told.state["turn"] == first.state["turn"]
    # told again (one card, not two): from the piles as they were before the refill, not after the first telling
    play(told, {"action": "refill", "discard": 1})
    assert piles(told, "Ana") == {"stall": 0, "hand": 5, "deck": 4, "discard": 1}


def test_a_hand_filled_to_six_is_told_after_the_clean_up():
    """A card that fills the hand to 6 instead of 5 (a reader's «Royal Plumage»): one card more drawn."""
    m = play(match(), {"action": "inventory", "count": 0, "clean_up": True})
    assert piles(m, "Ana")["hand"] == 5
    said = events(m, {"action": "refill", "draw_to": 6})
    assert piles(m, "Ana") == {"stall": 0, "hand": 6, "deck": 4, "discard": 0}
    assert "Ana fills the hand to 6: 1 card drawn" in said


def test_a_refill_is_refused_once_the_players_cards_changed_or_for_another_player():
    m = play(match(), {"action": "inventory", "count": 0, "clean_up": True})
    refused(m, {"action": "refill", "player": "Ben", "discard": 1}, "the last clean-up was Ana's, not Ben's")
    refused(m, {"action": "refill", "discard": 6}, "Ana has 5 cards in hand, not 6 to discard")
    play(m, {"action": "move", "player": "Ben", "from": "deck", "to": "hand", "count": 1})  # Ben's: Ana's stand
    play(m, {"action": "refill", "discard": 1})
    play(m, {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 1})
    refused(m, {"action": "refill", "discard": 2}, "Ana's cards changed since the clean-up")
    refused(match(), {"action": "refill", "discard": 1}, "no clean-up to tell again")


# -- a forgotten bonus action (Acción técnica) ----------------------------------------------------------------
def test_a_forgotten_bonus_icon_is_added_afterwards_and_the_refusal_says_how():
    """«Si la carta tiene un icono de acción adicional, puedes realizar otra acción después de resolver
    todos los efectos de esa carta»: entered without "bonus", it is added with the bonus action."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]}, {"action": "technique"})
    fix = {"action": "adjust", "counter": "actions", "delta": 1}
    refused(m, {"action": "buy", "slot": 0, "paid": [1, 1]},
            r'add its action first \({"action": "adjust", "counter": "actions", "delta": 1}\)')
    play(m, fix, {"action": "buy", "slot": 0, "paid": [1, 1]})
    assert m.state["turn"]["actions_taken"] == 2 and m.state["table"]["actions"] == 0
    # Its bonus given, the refusal no longer suggests it.
    with pytest.raises(RuleError) as e:
        m.apply({"action": "inventory", "count": 0})
    assert "bonus-action icon" not in str(e.value) and "end the turn (end_turn)" in str(e.value)


# -- the rematch (Preparar) -------------------------------------------------------------------------------------
def test_a_rematch_starts_with_one_of_the_losers():
    """Preparar: «Al jugar juegos consecutivos, uno de los perdedores debe ser el jugador inicial del
    próximo juego»."""
    m = match(("Ana", "Ben", "Cai"))
    with pytest.raises(SetupError, match="finished game"):
        m.rules.rematch(m.state)
    play(m, {"action": "adjust", "player": "Ana", "counter": "stall", "delta": 8})
    setup = m.rules.rematch(m.state)
    assert setup == {"game": GAME, "players": ["Ben", "Cai", "Ana"], "options": m.rules.options}
    assert m.rules.rematch(m.state, "Cai")["players"] == ["Cai", "Ana", "Ben"]
    with pytest.raises(SetupError, match="one of the losers"):
        m.rules.rematch(m.state, "Ana")
    again = make_rules(setup)
    assert list(again.players) == ["Ben", "Cai", "Ana"] and again.setup_state()["turn"]["player"] == "Ben"
    assert "a loser of the last game" in type(m.rules).starter_hint({})


# -- the public contract stays ------------------------------------------------------------------------------
def test_scripts_with_end_turn_and_set_market_by_slot_work_as_before():
    """Every form accepted before is accepted with the same effect."""
    m = play(match(), {"action": "set_market", "values": [3, 4, 2, 5, 2]},
             {"action": "buy", "slot": 0, "paid": [1, 1]}, {"action": "end_turn"},
             {"action": "set_market", "slot": 4, "value": 3},
             {"action": "check_payment", "slot": 1, "paid": [1, 1, 1]})
    assert [c["value"] for c in m.view()["market"]] == [3, 3, 4, 2, 5]
    assert m.view()["payment_check"]["ok"] is True and m.state["turn"]["player"] == "Ben"


def test_a_technique_that_looks_at_the_top_of_another_deck_keeps_one_and_discards_the_others_on_that_player():
    """A ninth rulebook reader's «Hurgar»: «Mira las 2 cartas superiores del mazo de otro jugador. Pon 1 en tu mano
    y la otra en la pila de descarte de ese jugador.» One technique line (`look`: 2); a deck of one card reshuffles
    that player's discard pile for the second («tú o cualquier otra persona necesite sacar nuevas cartas de él»)."""
    m = match()
    refused(m, {"action": "technique", "from_player": "Ben", "pile": "discard", "look": 2}, "look")
    play(m, {"action": "technique", "from_player": "Ben", "pile": "deck", "look": 2})
    assert piles(m, "Ana")["hand"] == 5 - 1 + 1
    assert piles(m, "Ben") == {"stall": 0, "hand": 5, "deck": 3, "discard": 1}
    m = empty_deck(match(), "Ben", discard=2)  # Ben: deck 0, discard 2 → a deck of 1 after one card is taken
    play(m, {"action": "move", "player": "Ben", "from": "discard", "to": "hand", "count": 1})
    play(m, {"action": "move", "player": "Ben", "from": "hand", "to": "discard", "count": 3})  # discard 4, deck 0
    said = events(m, {"action": "technique", "from_player": "Ben", "pile": "deck", "look": 2})
    assert piles(m, "Ben")["deck"] + piles(m, "Ben")["discard"] == 4 - 1 and piles(m, "Ben")["discard"] == 1
    assert any("Ben shuffles the discard pile" in e for e in said)
