"""The Red Dragon Inn at the table: a turn in few actions, a drink by name with its effects, table-wide
effects, and the gambling round's loose ends. Each test quotes the Spanish rulebook it follows
(seeds/red-dragon-inn.es.txt)."""
from __future__ import annotations

from tablekeeper.engine import Match, canonical, make_rules
from tablekeeper.engine.games.red_dragon_inn.drinks import COMMON_DRINKS

from .test_red_dragon_inn import GAME, adj, c, cards, match, money, out, play, refused, to_phase


# -- phases 1 and 2 cost nothing ------------------------------------------------------------------------
def test_buying_in_phase_1_says_nothing_happened_in_phases_1_and_2():
    """«2. Acción: ... Si no puede o no quiere jugar una Carta de Acción, omita esta Fase.» — buying in
    phase 1 (or 2) records phases 1 and 2 as done: one action instead of three."""
    m = match()
    play(m, {"action": "buy", "to": "Ben"})
    assert m.state["turn"] == {"player": "Ana", "phase": "drink", "number": 1}
    assert c(m, "Ben")["drink_me"] == 2
    m2 = play(match(), {"action": "next"}, {"action": "buy", "to": "Cai"})
    assert m2.state["turn"]["phase"] == "drink" and c(m2, "Cai")["drink_me"] == 2


def test_the_compulsory_buy_is_never_skipped():
    """«3. Compre bebidas: Toma la carta superior del Drink Deck y colócala ... encima del Drink Me de
    cualquier otro jugador.» — drinking before buying is refused, in phase 1 as in 3."""
    m = match()
    refused(m, {"action": "drink", "drink": "ale"}, "Ana buys a drink for another player first, then drinks")
    to_phase(m, "buy")
    refused(m, {"action": "drink"}, "Ana buys a drink for another player first")
    refused(m, {"action": "next"}, "buys a drink for another player first")


def test_gambling_card_in_phase_1_moves_the_turn_to_the_action_phase():
    """«2. Acción ... Si juegas un "¿Apuestas? ¡Estoy dentro!" tarjeta, comienza una ronda de juegos de
    azar.» — the action card itself says phase 1 is over; after the round the starter buys."""
    m = play(match(), {"action": "gamble"})
    assert m.state["gambling"]["starter"] == "Ana" and m.state["turn"]["phase"] == "action"
    play(m, {"action": "pass"}, {"action": "pass"})
    assert m.state["turn"]["phase"] == "buy"
    m2 = play(match(), {"action": "buy", "to": "Ben"})
    refused(m2, {"action": "gamble"}, "is an action card: Ana plays it before buying drinks")


def test_next_still_walks_the_phases_one_by_one():
    """«Tu turno consta de cuatro Fases, que deben jugarse en orden» — `next` stays for who wants it."""
    m = play(match(), {"action": "next"}, {"action": "next"})
    assert m.state["turn"]["phase"] == "buy"


# -- a drink by name -----------------------------------------------------------------------------------
def test_the_common_drinks_are_one_list_for_the_engine_and_the_touchscreen():
    """RULES.md "Common drinks" (the publisher's cards): ales +1, wine +2, elven wine +3, dragon breath
    ale +4, water −1 alcohol, holy water +2, dirty dishwater −1, orcish rotgut −2 fortitude."""
    assert COMMON_DRINKS["ale"][1:] == (1, 0) and COMMON_DRINKS["orcish_rotgut"][1:] == (0, -2)
    assert len(COMMON_DRINKS) == 8
    from tablekeeper.ui.games import red_dragon_inn as screen

    assert screen.COMMON_DRINKS is COMMON_DRINKS  # the touchscreen's buttons are the engine's list


def test_a_named_drink_applies_its_effects_and_ends_the_turn():
    """«4. Beber: ¡Revela la carta superior de tu Drink Me! Pila, siga las instrucciones de la carta»"""
    m = play(match(), {"action": "buy", "to": "Ben"}, {"action": "drink", "drink": "holy_water"})
    assert c(m, "Ana")["fortitude"] == 20 and c(m, "Ana")["drink_me"] == 0  # bounded at 20
    m = play(match(), {"action": "buy", "to": "Ben"}, {"action": "drink", "drink": "elven_wine"})
    assert c(m, "Ana")["alcohol"] == 3 and m.state["turn"]["player"] == "Ben"
    assert m.rules.describe({"action": "drink", "player": "Ana", "drink": "elven_wine"}) == \
        "Ana drinks: elven wine"  # the drink by name, never its id


def test_a_named_chaser_is_one_more_card_of_the_same_pile_and_its_effects_add():
    """«Cazadores: Si revelas una carta de bebida que tiene la frase "con un cazador" ..., revela la
    siguiente carta del mismo mazo ... añade sus efectos a la bebida original.»"""
    m = play(match(), {"action": "buy", "to": "Ana", "extra": True},
             {"action": "buy", "to": "Ben"}, {"action": "drink", "drink": "dragon_breath_ale", "chaser": "water"})
    assert c(m, "Ana")["alcohol"] == 3 and c(m, "Ana")["drink_me"] == 0
    assert m.state["drinks"]["discard"] == 2


def test_a_named_drink_and_amounts_add_up():
    """Any other card is entered as amounts: «siga las instrucciones de la carta»."""
    m = play(match(), {"action": "buy", "to": "Ana", "extra": True}, {"action": "buy", "to": "Ben"},
             {"action": "drink", "drink": "wine", "fortitude": -1, "chasers": 1})
    assert (c(m, "Ana")["alcohol"], c(m, "Ana")["fortitude"], c(m, "Ana")["drink_me"]) == (2, 19, 0)


def test_a_chaser_not_on_the_common_list_is_other_and_its_effects_are_the_amounts():
    """«... añade sus efectos a la bebida original»: a chaser of another box (a fifth reader's own card, +1
    alcohol −1 fortitude) is named "other", what it does given as amounts: one more card of the pile."""
    m = play(match(), {"action": "buy", "to": "Ana", "extra": True}, {"action": "buy", "to": "Ben"},
             {"action": "drink", "drink": "ale", "chaser": "other", "alcohol": 1, "fortitude": -1})
    assert (c(m, "Ana")["alcohol"], c(m, "Ana")["fortitude"], c(m, "Ana")["drink_me"]) == (2, 19, 0)
    assert m.state["drinks"]["discard"] == 2


def test_a_chaser_needs_a_card_left_on_the_pile():
    """«Si no quedan cartas en tu Drink Me! Apila ... no hay efecto adicional. No sigas revelando cartas.»"""
    m = play(match(), {"action": "buy", "to": "Ben"})
    refused(m, {"action": "drink", "drink": "ale", "chaser": "ale"},
            "Ana's Drink Me! pile has only 1 card: there is no card left for a chaser")


def test_a_drink_that_makes_the_drinker_pass_out_opens_the_last_chance_at_once():
    """«Si su contenido de alcohol es mayor o igual a su entereza, cae inconsciente ... tienes una última
    oportunidad» — the drink carries its effect, so the loss is pending right after it."""
    m = play(match(), adj("Ana", "alcohol", 17), {"action": "buy", "to": "Ben"},
             {"action": "drink", "drink": "dragon_breath_ale"})
    assert m.state["pending"] == [{"name": "Ana", "reason": "passing out"}]
    seat = m.rules.seat_view(m.state, "Ana")
    assert seat["status"] == "PASSING OUT" and seat["alert"]
    play(m, {"action": "resolve"})
    assert out(m, "Ana") and m.state["turn"]["player"] == "Ben"


# -- table-wide effects --------------------------------------------------------------------------------
def test_each_other_player_pays_the_acting_player():
    """«Si el efecto de una carta no puede surtir efecto por completo debido a estos límites, la carta
    seguirá surtiendo efecto tan completamente como sea posible.» — each pays only what they have."""
    m = play(match(), adj("Cai", "gold", -10))
    play(m, {"action": "everyone", "player": "Ana", "counter": "gold", "delta": -2, "side": "player"})
    assert (c(m, "Ana")["gold"], c(m, "Ben")["gold"], c(m, "Cai")["gold"]) == (12, 8, 0)
    assert money(m.state) == 30


def test_every_player_still_in_drinks_to_the_inn():
    """«Eventos de bebidas: Si revela una tarjeta de evento de bebida, siga las instrucciones de la
    carta.» — a round for everyone: every player still in, one action."""
    m = play(match(players=("Ana", "Ben", "Cai", "Dan")), adj("Dan", "alcohol", 20), {"action": "resolve"})
    play(m, {"action": "everyone", "counter": "alcohol", "delta": 2})
    assert [c(m, n)["alcohol"] for n in ("Ana", "Ben", "Cai")] == [2, 2, 2] and c(m, "Dan")["alcohol"] == 20
    play(m, {"action": "everyone", "counter": "gold", "delta": -1, "others": True})
    # 11 each after Dan's split (10 gold: 5 + the remainder 2 to the Inn, 1 each), then Ben and Cai pay 1
    assert [c(m, n)["gold"] for n in ("Ana", "Ben", "Cai")] == [11, 10, 10]
    assert money(m.state) == 40 and cards(m.state) == 30


def test_a_table_wide_effect_keeps_the_last_chance_open():
    """«Después de que estas cartas se resuelvan, tienes una última oportunidad de jugar cartas» — a
    card played in the last chance (an effect on everyone) leaves the window open."""
    m = play(match(), adj("Ben", "alcohol", 20))
    play(m, {"action": "everyone", "counter": "fortitude", "delta": -1, "others": True, "player": "Ben"})
    assert m.state["pending"] == [{"name": "Ben", "reason": "passing out"}]
    refused(m, {"action": "everyone", "counter": "alcohol", "delta": 1, "side": "player"},
            "only gold is paid to a player")
    refused(m, {"action": "everyone", "counter": "gold", "delta": 0}, "say how much each player gets or pays")


# -- the round's loose ends ----------------------------------------------------------------------------
def test_a_player_who_left_the_round_cannot_win_its_pot():
    """«Dejando una ronda: Si abandona una ronda de juego, no podrá jugar cartas de juego o trampas
    durante el resto de esa ronda»"""
    m = play(match(), {"action": "gamble"}, {"action": "leave", "player": "Ben"})
    refused(m, {"action": "end_round", "winner": "Ben"}, "Ben left this gambling round and cannot win its pot")
    play(m, {"action": "end_round", "winner": "Cai"})
    assert c(m, "Cai")["gold"] == 12


def test_the_last_one_standing_in_the_round_takes_the_pot_when_the_game_ends():
    """«Si expulsar a un jugador hace que solo quede un jugador en la Ronda ... la Ronda de Juego termina y
    el jugador restante gana.» — the game ending leaves one player: the round ends with the game."""
    m = play(match(players=("Ana", "Ben")), {"action": "gamble"})
    assert m.state["table"]["pot"] == 2
    play(m, adj("Ben", "alcohol", 20), {"action": "resolve"})
    assert m.state["over"] and m.state["winners"] == ["Ana"]
    assert m.state["gambling"] is None and m.state["table"]["pot"] == 0
    assert c(m, "Ana")["gold"] == 7 + 3 + 2  # 7 after the ante, 3 of Ben's 7 (4 to the Inn), then the pot
    assert money(m.state) == 16


def test_a_draw_during_a_round_sends_the_pot_to_the_inn():
    """«Si la Ronda termina antes de que cualquier jugador tome el control, todo el Oro hormigonado va a la
    Posada.» — nobody is left in the round to take it."""
    m = play(match(players=("Ana", "Ben")), {"action": "gamble"},
             adj("Ana", "alcohol", 20), adj("Ben", "alcohol", 20), {"action": "resolve"})
    assert m.state["over"] and m.state["draw"]
    assert m.state["gambling"] is None and m.state["table"]["pot"] == 0 and money(m.state) == 16


def test_an_extra_drink_from_an_empty_pile_sobers_up():
    """«Si no tienes ninguna tarjeta en tu Drink Me! Amontonar cuando tengas que beber, empiezas a estar
    sobrio; reduzca su contenido de alcohol en uno.» — "cuando tengas que beber": any drink you must take
    from your empty pile, a card's extra drink too (docs: Interpretations)."""
    m = play(match(), adj("Ben", "alcohol", 3), adj("Ben", "drink_me", -1),
             {"action": "drink", "player": "Ben", "extra": True})
    assert c(m, "Ben")["alcohol"] == 2 and m.state["turn"] == {"player": "Ana", "phase": "discard", "number": 1}


# -- the pod ---------------------------------------------------------------------------------------------
def test_the_pods_offers_the_common_drinks_by_name_each_also_with_a_chaser():
    """«4. Beber: ¡Revela la carta superior de tu Drink Me! Pila, siga las instrucciones de la carta»; «Si revelas
    una carta de bebida que tiene la frase "con un cazador" … revela la siguiente carta» — phase 4 offers each
    common drink by name, each again with its chaser asked, and any other drink with its effects asked."""
    rules = make_rules({"game": GAME, "players": ["Ana", "Ben", "Cai"]})
    m = Match(rules)
    first = rules.seat_actions(m.state, "Ana")[0]
    assert first["action"] == {"action": "buy", "player": "Ana", "to": "Ben"}
    assert "gamble" in [str(a["label"]) for a in rules.seat_actions(m.state, "Ana")]
    m.apply(first["action"])
    offers = rules.seat_actions(m.state, "Ana")
    assert [o["action"].get("drink") for o in offers[:8]] == list(COMMON_DRINKS)
    # a drink and its chaser by the alcohol they add up to (a play-tester's ale and elven wine: +4 worked out,
    # 4 presses by name): 2 cards from the pile, one line per total, nothing asked; +1 too: an ale whose chaser was
    # a drink event card, no effect («si revelas una carta de evento de bebida, no hay efecto adicional»)
    assert [(str(o["label"]), o["action"].get("alcohol"), o["action"].get("chasers"), o.get("ask"))
            for o in offers[8:15]] == [(f"chaser, alcohol +{n}", n, 1, None) for n in range(1, 8)]
    assert [o.get("ask") for o in offers[15:23]] == [["chaser", "alcohol", "fortitude"]] * 8
    # what a chaser does is asked only when it is "other", a card not on the common list (a play-tester's mead)
    chaser = offers[15]["action"]
    assert not rules.pod_step_wanted(m.state, "Ana", chaser, "alcohol")
    assert rules.pod_step_wanted(m.state, "Ana", {**chaser, "chaser": "other"}, "fortitude")
    # and says whose amount it is: the other chaser's alone (the named drink's is added by the device)
    assert rules.pod_value_words(m.state, "Ana", "drink", "alcohol", 1, entered={**chaser, "chaser": "other"}) \
        == "chaser's"
    assert rules.pod_value_words(m.state, "Ana", "drink", "alcohol", 1, entered=chaser) is None
    # a card of another box by what it does: alcohol +1…+4, fortitude −1 or +1
    assert [(o["action"].get("alcohol"), o["action"].get("fortitude")) for o in offers[23:31]] == [
        (a, f) for f in (-1, 1) for a in (1, 2, 3, 4)]
    # a drink revealed and ignored (a card that ignores a drink: the drink and its chasers are one): the card
    # goes, nothing else
    assert [(str(o["label"]), o["action"]) for o in offers[31:35]] == [
        ("fortitude +1", {"action": "drink", "player": "Ana", "alcohol": 0, "fortitude": 1}),
        ("drink ignored", {"action": "drink", "player": "Ana"}),
        ("drink + chaser ignored", {"action": "drink", "player": "Ana", "chasers": 1}),
        ("drink + 2 chasers ignored", {"action": "drink", "player": "Ana", "chasers": 2})]
    # «Si es otra Bebida con un Cazador, agrega sus efectos … y revela la siguiente»: a chaser's own chaser
    assert offers[35]["ask"] == ["drink", "chaser", "second_chaser", "alcohol", "fortitude"]
    assert [o["action"]["action"] for o in offers[36:38]] == ["drink_event", "drink_event"]  # «Eventos de bebidas»
    # each drink by name says what it does, so that a card named otherwise is matched by its effect (a
    # play-tester's «Vino élfico» was +2: the device's elven wine is +3)
    assert [str(o["label"]) for o in offers[:8]] == [
        "ale +1", "wine +2", "elven wine +3", "dragon breath ale +4", "water −1", "holy water fortitude +2",
        "dirty dishwater fortitude −1", "orcish rotgut fortitude −2"]
    assert str(offers[16]["label"]) == "wine + chaser"
    assert offers[-1]["ask"] == ["alcohol", "fortitude", "gold", "chasers"] and "drink" not in offers[-1]["action"]
    before = canonical(m.state)
    two = {**m.state, "players": [{**m.state["players"][0], "counters": {**c(m, "Ana"), "drink_me": 2}},
                                  *m.state["players"][1:]]}  # a drink and its chaser: two cards of the pile
    after = m.rules.apply(two, offers[11]["action"])[0]
    assert after["players"][0]["counters"]["alcohol"] == 4 and after["players"][0]["counters"]["drink_me"] == 0
    m.apply(offers[0]["action"])
    assert canonical(m.state) != before and c(m, "Ana")["alcohol"] == 1


def test_a_chaser_that_is_itself_a_drink_with_a_chaser_is_one_drink_of_three_cards():
    """«Si es otra Bebida con un Cazador, agrega sus efectos a la Bebida original y revela la siguiente Carta
    de Bebida del mismo mazo»: wine with a chaser, ale with a chaser, ale — one drink, alcohol +4, three
    cards off the pile; a second chaser without the first is refused."""
    m = play(match(), adj("Ana", "drink_me", 2))  # three cards on Ana's pile
    to_phase(m, "drink")
    pile, alcohol = c(m, "Ana")["drink_me"], c(m, "Ana")["alcohol"]
    refused(m, {"action": "drink", "player": "Ana", "drink": "wine", "second_chaser": "ale"}, "first chaser")
    m.apply({"action": "drink", "player": "Ana", "drink": "wine", "chaser": "ale", "second_chaser": "ale"})
    assert c(m, "Ana")["alcohol"] == alcohol + 4 and c(m, "Ana")["drink_me"] == pile - 3
    assert m.state["drinks"]["discard"] >= 3




# -- drink events ------------------------------------------------------------------------------------
def _to_event(kind: str, players=("Ana", "Ben", "Cai", "Dee"), **options) -> Match:
    m = match(players, **options)
    to_phase(m, "drink")  # Ana bought Ben a drink; her own pile holds the card she was dealt
    m.apply({"action": "drink_event", "kind": kind})
    return m


def _from_deck(who: str, **effects) -> dict:
    return dict({"action": "drink", "player": who, "extra": True, "from": "deck"}, **effects)


def test_a_drink_event_makes_every_player_drink_one_from_the_deck_then_the_turn_passes():
    """«Algunas cartas del Mazo de Bebidas son Cartas de Evento de Bebidas. Si revela una tarjeta de evento
    de bebida, siga las instrucciones de la carta» — the revealed event is not a drink; everyone then drinks
    one card from the drink deck, and only when the last has drunk does the turn pass."""
    m = _to_event("round")
    assert c(m, "Ana")["drink_me"] == 0 and m.state["drinks"]["discard"] == 1  # the event card, discarded
    assert m.state["drink_event"]["waiting"] == ["Ana", "Ben", "Cai", "Dee"]
    refused(m, {"action": "buy", "to": "Ben"}, "drink event")  # the turn waits for the event
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "ale")):
        m.apply(_from_deck(who, drink=d))
        assert m.state["turn"]["player"] == "Ana"
    m.apply(_from_deck("Dee", alcohol=3))
    assert "drink_event" not in m.state and m.state["turn"] == {"player": "Ben", "phase": "discard", "number": 2}
    assert [c(m, n)["alcohol"] for n in ("Ana", "Ben", "Cai", "Dee")] == [1, 2, 1, 3]


def test_a_drinking_contest_pays_the_strongest_drink_one_gold_from_each_other_player():
    m = _to_event("contest")
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "dragon_breath_ale"), ("Dee", "elven_wine")):
        m.apply(_from_deck(who, drink=d))
    assert c(m, "Cai")["gold"] == gold["Cai"] + 3
    assert all(c(m, n)["gold"] == gold[n] - 1 for n in ("Ana", "Ben", "Dee"))
    tie = _to_event("contest")
    before = {n: c(tie, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who in ("Ana", "Ben", "Cai", "Dee"):
        tie.apply(_from_deck(who, drink="wine"))
    assert {n: c(tie, n)["gold"] for n in before} == before  # a tie: nobody pays, the table reads the card


def test_a_copy_whose_contest_makes_the_weakest_pay_takes_1_gold_from_it_for_each_other_player():
    """«siga las instrucciones de la carta»: a rulebook reader's copy's «¡Concurso de bebida!» makes the weakest
    drink pay 1 gold to each other player (option ``contest``); a tie among the weakest pays nobody, and each tied
    player's first offer is then to pay each other player 1 (main, then main on the loser asked)."""
    m = _to_event("contest", contest="weakest_pays")
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "water"), ("Dee", "elven_wine")):
        m.apply(_from_deck(who, drink=d))
    assert c(m, "Cai")["gold"] == gold["Cai"] - 3
    assert all(c(m, n)["gold"] == gold[n] + 1 for n in ("Ana", "Ben", "Dee"))
    assert "contest_tie" not in m.state
    tie = _to_event("contest", contest="weakest_pays")
    before = {n: c(tie, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who, d in (("Ana", "ale"), ("Ben", "water"), ("Cai", "water"), ("Dee", "wine")):
        tie.apply(_from_deck(who, drink=d))
    assert {n: c(tie, n)["gold"] for n in before} == before and tie.state["contest_tie"] == ["Ben", "Cai"]
    lost = tie.rules.seat_actions(tie.state, "Ben")[0]
    assert str(lost["label"]) == "contest lost: pay each 1" and lost["ask"] == ["player"]
    tie.apply(lost["action"])
    assert c(tie, "Ben")["gold"] == before["Ben"] - 3 and c(tie, "Dee")["gold"] == before["Dee"] + 1


def test_a_tied_drinking_contest_offers_each_tied_player_the_win_until_the_next_action():
    """«Si revela una tarjeta de evento de bebida, siga las instrucciones de la carta»: the device cannot
    tell a tie's winner (the second rulebook story's table compared alcohol tracks), so each tied player's
    first offer is the win — every other player pays 1 gold — main, then main on the winner asked (a stray
    main opens the question only); the others are not offered it, and any other action ends the moment."""
    m = _to_event("contest")
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "wine"), ("Dee", "water")):
        m.apply(_from_deck(who, drink=d))
    assert m.state["contest_tie"] == ["Ben", "Cai"]
    win = {"action": "everyone", "player": "Cai", "counter": "gold", "delta": -1, "side": "player", "others": True}
    assert m.rules.seat_actions(m.state, "Cai")[0]["action"] == win
    assert m.rules.seat_actions(m.state, "Cai")[0]["ask"] == ["player"]  # main, then main on the winner
    assert m.rules.seat_actions(m.state, "Ben")[0]["action"]["player"] == "Ben"
    assert all(o["action"]["action"] != "everyone" for o in m.rules.seat_actions(m.state, "Dee")[:1])
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    after = Match(m.rules)
    for a in m.done:
        after.apply(a)
    after.apply(win)
    assert c(after, "Cai")["gold"] == gold["Cai"] + 3 and c(after, "Ana")["gold"] == gold["Ana"] - 1
    assert "contest_tie" not in after.state
    m.apply({"action": "buy", "to": "Ana"})  # Ben's turn goes on: the moment is over
    assert "contest_tie" not in m.state
    assert all(o["action"]["action"] != "everyone" for o in m.rules.seat_actions(m.state, "Cai")[:1])


def test_a_tied_contests_tie_break_has_the_tied_players_drink_again_and_the_device_pays_the_winner():
    """A reader's copy of «¡Concurso de bebida!» (the ninth rulebook story): «Si hay empate en cabeza, los
    empatados revelan otra carta, la beben y la suman, hasta desempatar». After a tie, a tied player's second
    offer starts the tie-break: only the tied players drink one more from the deck, each on their own pod; the
    strongest of those then takes 1 gold from every other player still in (not only from the tied one), the turn
    that had passed stays, and a new tie is offered again."""
    m = _to_event("contest")
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "wine"), ("Dee", "water")):
        m.apply(_from_deck(who, drink=d))
    turn = dict(m.state["turn"])
    again = m.rules.seat_actions(m.state, "Cai")[1]
    assert str(again["label"]) == "contest tie: drink again"
    assert again["action"] == {"action": "drink_event", "player": "Cai", "kind": "contest", "again": True}
    refused(m, {"action": "drink_event", "player": "Dee", "kind": "contest", "again": True}, "not tied")
    m.apply(again["action"])
    assert m.state["drink_event"]["waiting"] == ["Ben", "Cai"] and "contest_tie" not in m.state
    assert m.state["turn"] == turn  # no Drink Me! card is revealed: the turn that passed waits
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    m.apply(_from_deck("Ben", drink="ale"))
    m.apply(_from_deck("Cai", drink="ale"))  # tied again: offered again
    assert m.state["contest_tie"] == ["Ben", "Cai"] and m.state["turn"] == turn
    assert {n: c(m, n)["gold"] for n in gold} == gold
    m.apply(m.rules.seat_actions(m.state, "Ben")[1]["action"])
    m.apply(_from_deck("Ben", drink="water"))
    m.apply(_from_deck("Cai", drink="ale"))
    assert c(m, "Cai")["gold"] == gold["Cai"] + 3
    assert all(c(m, n)["gold"] == gold[n] - 1 for n in ("Ana", "Ben", "Dee"))
    assert "drink_event" not in m.state and "contest_tie" not in m.state and m.state["turn"] == turn
    refused(m, {"action": "drink_event", "player": "Cai", "kind": "contest", "again": True}, "no drinking contest")


def test_a_copy_whose_contest_tie_is_settled_by_the_card_needs_no_press_for_it():
    """«siga las instrucciones de la carta»: a table whose copy prints the tie's rule says so once (option
    ``contest_tie``). "again" (the ninth rulebook reader's card: «los empatados revelan otra carta … hasta
    desempatar»): the device starts the tie-break itself, the tied players' cards are then asked on their pods.
    "all" (the tenth reader's weakest-pays card: «both lose … Each pays 1 gold to each player who did not lose»):
    each tied player settles with each player not tied, nobody with another tied one."""
    m = _to_event("contest", contest_tie="again")
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "wine"), ("Dee", "water")):
        m.apply(_from_deck(who, drink=d))
    assert m.state["drink_event"]["waiting"] == ["Ben", "Cai"] and "contest_tie" not in m.state
    assert m.state["turn"]["player"] == "Ben"  # the turn passed with the contest; the tie-break holds it up
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    m.apply(_from_deck("Ben", drink="ale"))
    m.apply(_from_deck("Cai", drink="water"))
    assert c(m, "Ben")["gold"] == gold["Ben"] + 3 and "drink_event" not in m.state
    m = _to_event("contest", contest="weakest_pays", contest_tie="all")
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who, d in (("Ana", "ale"), ("Ben", "ale"), ("Cai", "wine"), ("Dee", "elven_wine")):
        m.apply(_from_deck(who, drink=d))
    assert [c(m, n)["gold"] - gold[n] for n in ("Ana", "Ben", "Cai", "Dee")] == [-2, -2, 2, 2]
    assert "contest_tie" not in m.state and "drink_event" not in m.state
    m = _to_event("contest", contest_tie="all")
    gold = {n: c(m, n)["gold"] for n in ("Ana", "Ben", "Cai", "Dee")}
    for who, d in (("Ana", "ale"), ("Ben", "wine"), ("Cai", "wine"), ("Dee", "water")):
        m.apply(_from_deck(who, drink=d))
    assert [c(m, n)["gold"] - gold[n] for n in ("Ana", "Ben", "Cai", "Dee")] == [-2, 2, 2, -2]


def test_a_drink_event_is_offered_on_every_waiting_players_pod_out_of_turn_and_only_there():
    """The device asks each player for the card they drew, on their own pod, whoever's turn it is; a player
    who has drunk, or anyone when no event is on, is offered nothing out of turn."""
    m = _to_event("round")
    rules = m.rules
    for who in ("Ben", "Cai", "Dee"):
        offers = rules.seat_actions(m.state, who)
        assert offers[0]["action"] == _from_deck(who, drink="ale")
        assert rules.seat_view(m.state, who)["status"] == "drink from the deck"
    m.apply(rules.seat_actions(m.state, "Cai")[1]["action"])  # Cai: wine
    assert c(m, "Cai")["alcohol"] == 2 and rules.seat_actions(m.state, "Cai") == []
    m.apply(rules.seat_actions(m.state, "Ana")[0]["action"])  # Ana, whose turn it is: an ale
    assert rules.seat_actions(m.state, "Ana") == []  # her turn's moves wait for the others' cards
    # who has drunk reads whose card the table waits for, not "your turn: drink" (a play-tester's)
    assert rules.seat_view(m.state, "Ana")["status"] == "2 yet to drink"
    m.apply(rules.seat_actions(m.state, "Ben")[0]["action"])
    assert rules.seat_view(m.state, "Cai")["status"] == "Dee yet to drink"
    plain = match(("Ana", "Ben", "Cai", "Dee"))
    assert all(o.get("ask") for o in rules.seat_actions(plain.state, "Ben"))  # the cards «en cualquier momento» only


def test_a_player_who_passes_out_during_a_drink_event_no_longer_holds_it_up():
    m = _to_event("round")
    m.apply(adj("Ben", "fortitude", -19))  # Ben: fortitude 1
    m.apply(_from_deck("Ben", drink="wine"))  # alcohol 2 ≥ fortitude 1: passing out, pending
    for who in ("Ana", "Cai"):
        m.apply(_from_deck(who, drink="ale"))  # extra drinks leave the last-chance window open
    m.apply({"action": "resolve"})  # Ben is out; Dee still waits
    assert out(m, "Ben") and m.state["drink_event"]["waiting"] == ["Dee"]
    m.apply(_from_deck("Dee", drink="ale"))
    assert "drink_event" not in m.state and m.state["turn"]["player"] == "Cai"


def test_a_card_on_another_player_is_offered_for_the_likeliest_target_first():
    """«2. Acción: Juega una Carta de Acción»: the stories played a hit on whoever was nearest to passing out 35
    times of 57 (29 on the player on the left) and took gold from the richest 14 times of 24 (8 from the left);
    a play-tester found each player at another place in each group of offers. The hits go as the drinks,
    nearest to passing out first; the takes, the richest first; the player on the left first among equals."""
    rules = make_rules({"game": GAME, "players": ["Ana", "Ben", "Cai", "Dee"]})
    m = Match(rules)
    m.apply({"action": "adjust", "player": "Dee", "counter": "alcohol", "delta": 10})
    m.apply({"action": "adjust", "player": "Cai", "counter": "gold", "delta": 5})
    labels = [str(o["label"]) for o in rules.seat_actions(m.state, "Ana")]
    hits = [x for x in labels if x.endswith(": fortitude −1")]
    takes = [x for x in labels if x.startswith("gold from ") and x != "gold from the Inn"]
    drinks = [x for x in labels if x.startswith("drink for ")]
    assert hits == ["Dee: fortitude −1", "Ben: fortitude −1", "Cai: fortitude −1"]
    assert drinks == ["drink for Dee", "drink for Ben", "drink for Cai"]  # the same order
    assert takes == ["gold from Cai", "gold from Ben", "gold from Dee"]
