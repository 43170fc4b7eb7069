"""Dragon Run at the table: a room in one action, the treasure deck counted, potions, powers and talismans
kept as the rulebook says, and the messages a player reads.

Rules cited are the Spanish rulebook ../shared/seeds/dragon-run.es.txt (its own words, in «»).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper.engine import Match, RuleError, SetupError, canonical, make_rules
from tablekeeper.ui.i18n import load_catalog

from ..conftest import replay

SCRIPTS = Path(__file__).with_name("scripts")
HANDS3 = {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 0]}


def game(players=("Ana", "Ben", "Cai"), **options) -> Match:
    if "hands" not in options:
        options["hands"] = {p: HANDS3.get(p, [2, 2, 1, 1]) for p in players}
    return Match(make_rules({"game": "dragon-run", "players": list(players), "options": options}))


def act(name, **fields):
    return {"action": name, **fields}


def do(m: Match, *entries) -> list[str]:
    events: list[str] = []
    for e in entries:
        events += m.apply(dict(e)).events
    return events


def refused(m: Match, entry: dict, words: str) -> RuleError:
    before = canonical(m.state)
    with pytest.raises(RuleError, match=words) as e:
        m.apply(entry)
    assert canonical(m.state) == before
    return e.value


def P(m: Match, name: str) -> dict:
    return next(p for p in m.state["players"] if p["name"] == name)


def turn(m: Match) -> dict:
    return m.state["turn"]


def pile(m: Match) -> dict:
    return m.view()["treasure_deck"]


# -- a room card in one action -----------------------------------------------------------------------
def test_a_room_whose_icon_says_pass_is_one_action():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta, luego según el pictograma en la
    parte inferior debes: Pasa el turno al siguiente jugador»."""
    m = game()
    events = do(m, act("charge", location="other", then="pass"))
    assert m.state["table"]["dungeon"] == 9 and m.view()["dungeon_discard"]["other"] == 1
    assert turn(m) == {"player": "Ben", "number": 2, "phase": "start"}
    assert events == ["Ana charges into another room", "Ana passes"]


def test_a_room_whose_icon_says_take_another_turn_is_one_action():
    """«... Toma otro turno inmediatamente»: the same player, a new turn (a power may be used again)."""
    m = game()
    do(m, act("power"), act("charge", location="other", then="again"))
    assert turn(m) == {"player": "Ana", "number": 2, "phase": "start"}
    refused(m, act("power"), "Ana's power is used")  # a new turn, but the card is still turned


def test_the_treasure_hall_takes_the_players_choice_with_the_charge():
    """«Salón del tesoro: Roba una carta de tesoro, luego elige entre: Pasa el turno al siguiente jugador.
    Presiona tu suerte. Continúe su exploración y tome otro turno.»"""
    m = game()
    do(m, act("charge", location="treasure_hall", value=5, then="again"))
    assert P(m, "Ana")["cards"] == [5, 3, 2, 1, 0] and turn(m) == {"player": "Ana", "number": 2, "phase": "start"}
    do(m, act("charge", location="other", then="pass"))
    assert turn(m)["player"] == "Ben"


def test_the_one_action_room_and_the_two_step_room_leave_the_same_state():
    """Every script valid before stays valid, and means the same: charge then pass/again as two actions."""
    one = game()
    do(one, act("charge", location="treasure_hall", value=2, then="again"), act("charge", location="other",
                                                                               then="pass"))
    two = game()
    do(two, act("charge", location="treasure_hall", value=2), act("again"), act("charge", location="other"),
       act("pass"))
    assert canonical(one.view()) == canonical(two.view())


def test_the_scripts_written_before_the_icon_still_replay():
    """The public contract: the scripts of tests/engine/scripts (charge, then pass/again) are unchanged."""
    for path in sorted(SCRIPTS.glob("dragon-run-*.jsonl")):
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        assert replay(lines)["over"] is True, path.name


def test_the_dragon_ends_the_turn_by_itself():
    """«Continuar: ... ¡Ahora es el turno del siguiente jugador para probar su suerte!»: no icon to give."""
    m = game()
    refused(m, act("charge", location="dragon", then="again"), "the dragon ends the turn by itself")
    refused(m, act("charge", location="dragon", then="pass"), "the dragon ends the turn by itself")
    refused(m, act("charge", location="other", then="stay"), "must be one of pass, again")


def test_again_follows_only_a_room_whose_icon_says_so_when_the_device_knows_the_icon():
    """«según el pictograma ... debes»: a room given with its icon "pass" has passed the turn; another turn
    cannot follow it. Without the icon the device does not know it and accepts either, as before."""
    m = game()
    do(m, act("charge", location="other", then="pass"))
    refused(m, act("again", player="Ana"), "it is Ben's turn, not Ana's")
    refused(m, act("again"), "Ben must first charge, hide or cry like a baby")
    do(m, act("charge", location="other"))
    assert turn(m)["phase"] == "after_location"
    do(m, act("again"))
    assert turn(m) == {"player": "Ben", "number": 3, "phase": "start"}


def test_a_room_with_its_icon_after_a_failed_escape_or_an_escape():
    """«B. ... El jugador activo DEBE cargar» and «A. ... Elija entre: Carga en la siguiente habitación»."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=-4), act("hide", discard=[1], roll=3))
    assert turn(m)["phase"] == "must_charge"
    do(m, act("charge", location="other", then="pass"))
    assert turn(m)["player"] == "Ben"
    do(m, act("adjust", counter="dungeon", delta=-5), act("hide", discard=[1], roll=9))
    assert turn(m)["phase"] == "escaped"
    do(m, act("charge", location="other", then="again"))
    assert turn(m) == {"player": "Ben", "number": 3, "phase": "start"}


def test_a_room_whose_card_gives_a_treasure_card_takes_its_value_with_the_charge():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta, luego según el pictograma en la
    parte inferior debes: Pasa el turno al siguiente jugador»: the card's effect (a treasure card drawn) and the
    icon in one action, the card drawn from the treasure deck before the turn passes."""
    m = game()
    events = do(m, act("charge", location="other", value=2, then="pass"))
    assert P(m, "Ana")["cards"] == [3, 2, 2, 1, 0] and P(m, "Ana")["counters"]["treasure"] == 8
    assert pile(m) == {"deck": 38 - 12 - 1, "discard": 0}
    assert m.view()["dungeon_discard"] == {"treasure_hall": False, "other": 1}
    assert turn(m)["player"] == "Ben"
    assert events == ["Ana charges into another room, whose card gives a treasure worth 2", "Ana passes"]
    spanish = m.apply(act("charge", location="other", value=1)).events[0].translated(load_catalog("es"))
    assert spanish == "Ben carga hacia otra sala, cuya carta le da un tesoro de 1"


def test_the_room_with_its_treasure_card_and_the_charge_then_draw_leave_the_same_state():
    """Every script valid before stays valid and means the same: the charge, then the draw it gives (named
    after the pass), as two actions."""
    one = game()
    do(one, act("charge", location="other", value=2, then="pass"))
    two = game()
    do(two, act("charge", location="other", then="pass"), act("draw", player="Ana", value=2))
    assert canonical(one.state) == canonical(two.state)


def test_the_dragon_gives_no_treasure_card():
    """«Continuar: ¡El jugador activo es herido por el Aliento de Dragón!»: no treasure card with it."""
    m = game()
    refused(m, act("charge", location="dragon", value=1), "the dragon gives no treasure card")
    refused(m, act("charge", location="other", value=11), "must be at most 10")


# -- the treasure deck -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_treasure_deck_starts_at_38_less_the_dealt_hands(n):
    """«38 cartas de tesoro» and «Baraja las cartas del tesoro y distribuye 4 a cada jugador. Coloca las cartas
    restantes boca abajo sobre la loseta del dragón para formar la baraja del tesoro.»"""
    names = ["Ana", "Ben", "Cai", "Dan", "Eva"][:n]
    assert pile(game(names)) == {"deck": 38 - 4 * n, "discard": 0}
    # dealt at once, whether the values are entered now or later
    undealt = Match(make_rules({"game": "dragon-run", "players": names}))
    assert pile(undealt) == {"deck": 38 - 4 * n, "discard": 0}


def test_draws_discards_and_talismans_move_cards_between_the_piles():
    """A card drawn leaves the deck; «descarte» puts cards on the discard; a talisman stays «frente a ti hasta
    que se baraja el mazo de mazmorras (momento en el que se descartan los talismanes en juego)»."""
    m = game()  # 26 in the deck
    do(m, act("charge", location="treasure_hall", value=2, then="pass"))  # Ana
    assert pile(m) == {"deck": 25, "discard": 0}
    do(m, act("talisman", value=4), act("cry", discard=[2]))  # Ben: a talisman in play, then cries
    assert pile(m) == {"deck": 25, "discard": 1}
    do(m, act("draw", value=3), act("discard", values=[1]), act("play", value=0))  # Cai
    assert pile(m) == {"deck": 24, "discard": 3}
    do(m, act("charge", location="dragon"))  # Cai: the reshuffle discards Ben's talisman
    assert pile(m) == {"deck": 24, "discard": 4} and P(m, "Ben")["talismans"] == []
    do(m, act("adjust", counter="dungeon", delta=-5), act("hide", discard=[3], roll=9))  # Ana
    assert pile(m) == {"deck": 24, "discard": 5}


def test_the_dead_adventurers_cards_and_talismans_go_to_the_discard():
    """«Si ya estaba herido, se acabó para él. ... Coloque todos sus tesoros en la pila de descarte»."""
    m = game()
    do(m, act("talisman", value=3), act("charge", location="dragon"))  # Ana injured
    do(m, act("cry", discard=[2]), act("cry", discard=[1, 1]))  # Ben, Cai
    do(m, act("talisman", value=2))  # Ana's second talisman: 1 + 0 left in hand
    before = pile(m)["discard"]
    do(m, act("charge", location="dragon"))  # Ana burnt: 2 cards in hand and 1 talisman
    assert pile(m)["discard"] == before + 3


def test_a_player_killed_before_entering_the_deal_discards_four_unseen_cards():
    """«distribuye 4 a cada jugador»: the cards were dealt even though their values were never entered."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben", "Cai"]}))
    do(m, act("adjust", player="Ben", counter="wounds", delta=2))
    assert pile(m) == {"deck": 26, "discard": 4}


def test_the_treasure_deck_is_reshuffled_the_moment_it_runs_out_and_the_device_says_so():
    """«Nota: si alguna vez te quedas sin cartas en el mazo del tesoro, vuelve a mezclar todas las cartas del
    tesoro descartadas y colócalas boca abajo para formar una nueva pila para robar.»"""
    m = game(players=("Ana", "Ben", "Cai", "Dan", "Eva"))  # 18 in the deck
    do(m, act("discard", player="Dan", values=[2, 1]))
    for _ in range(17):
        do(m, act("draw", player="Eva", value=1))
    assert pile(m) == {"deck": 1, "discard": 2}
    events = do(m, act("draw", player="Eva", value=1))
    assert pile(m) == {"deck": 2, "discard": 0}
    assert "the treasure deck has run out: shuffle the 2 discarded treasure cards into a new deck" in events
    spanish = [e.translated(load_catalog("es")) for e in events if "treasure deck" in e]
    assert spanish == ["se acabó el mazo del tesoro: barajad las 2 cartas de tesoro descartadas para formar un "
                       "mazo nuevo"]


def test_a_deck_run_out_with_an_empty_discard_is_reshuffled_when_a_card_is_discarded():
    """«si alguna vez te quedas sin cartas ... vuelve a mezclar todas las cartas del tesoro descartadas»: with
    none discarded yet, the first discard makes the new deck; a draw the count cannot allow is warned."""
    m = game(players=("Ana", "Ben", "Cai", "Dan", "Eva"))
    for _ in range(18):
        do(m, act("draw", player="Eva", value=1))
    assert pile(m) == {"deck": 0, "discard": 0}
    events = do(m, act("draw", player="Eva", value=1))
    assert pile(m) == {"deck": 0, "discard": 0} and any("check the treasure deck" in e for e in events)
    events = do(m, act("discard", player="Eva", values=[1]))
    assert pile(m) == {"deck": 1, "discard": 0} and any("has run out" in e for e in events)


# -- powers and potions -------------------------------------------------------------------------------------
@pytest.mark.parametrize("setup, first_words", [
    ([act("charge", location="other")], "Ana has charged this turn"),
    ([act("adjust", counter="dungeon", delta=-4), act("hide", discard=[1], roll=3)], "Ana must charge"),
    ([act("adjust", counter="dungeon", delta=-4), act("hide", discard=[1], roll=9)], "Ana escaped the dragon"),
])
def test_a_power_after_the_compulsory_action_is_refused_saying_when_powers_are_used(setup, first_words):
    """«Al comienzo de cada turno, ANTES de elegir su acción obligatoria, el jugador activo puede optar por usar
    el poder especial de su personaje.»"""
    m = game()
    do(m, *setup)
    e = refused(m, act("power"), first_words)
    assert "a power is used only at the start of a turn, before charging, hiding or crying" in str(e)
    assert "el poder solo se usa al comienzo del turno" in e.args[0].translated(load_catalog("es"))


def test_a_potion_is_played_on_the_own_turn_and_discarded():
    """«Puedes jugar tantas pociones y talismanes como quieras en cualquier momento durante tu propio turno»
    and «Una vez jugados, se descartan.» — even while a charge is compulsory."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=-4), act("hide", discard=[1], roll=3))
    events = do(m, act("play", value=0), act("play", value=2))
    assert P(m, "Ana")["cards"] == [3] and pile(m)["discard"] == 3
    assert events == ["Ana plays a potion (0)", "Ana plays a potion (2)"]


def test_only_the_cancel_potion_on_another_players_turn():
    """«Solo la poción de anulación se puede jugar durante el turno de otro jugador (para cancelar una
    poción).»"""
    m = game()
    do(m, act("play", value=2))  # Ana, her own turn
    refused(m, act("play", player="Ben", value=1),
            "it is Ana's turn: on another player's turn only the cancel potion may be played")
    events = do(m, act("play", player="Ben", value=1, cancel=True))
    assert events == ["Ben plays the cancel potion (1)"] and P(m, "Ben")["cards"] == [4, 2, 1]
    refused(m, act("play", player="Cai", value=9, cancel=True), "holds no more treasure cards worth 9")


def test_a_potion_that_makes_its_player_draw_is_one_action():
    """«Pociones: Las pociones tienen efectos poderosos como se indica en las cartas. Una vez jugados, se
    descartan.»: a potion whose card says to draw a treasure card is entered with the card drawn; the same
    state as the potion, then the draw."""
    one = game()
    events = do(one, act("play", value=0, draw=3))
    assert P(one, "Ana")["cards"] == [3, 3, 2, 1] and pile(one) == {"deck": 38 - 12 - 1, "discard": 1}
    assert events == ["Ana plays a potion (0)", "Ana draws a treasure worth 3"]
    two = game()
    do(two, act("play", value=0), act("draw", value=3))
    assert canonical(one.state) == canonical(two.state)


def test_a_healing_potion_turns_its_injured_player_back_to_unhurt_in_one_action():
    """«Las pociones tienen efectos poderosos como se indica en las cartas. Una vez jugados, se descartan.»: a
    potion whose card heals its player is entered with its effect; an unhurt player has nothing to heal, and the
    cancel potion only cancels."""
    m = game()
    do(m, act("charge", location="dragon"), act("charge", player="Ben", location="other", then="pass"),
       act("charge", player="Cai", location="other", then="pass"))
    assert P(m, "Ana")["counters"]["wounds"] == 1
    refused(m, act("play", player="Ben", value=1, cancel=True, heal=True), "it heals nobody")
    events = do(m, act("play", value=0, heal=True))
    assert P(m, "Ana")["counters"]["wounds"] == 0 and pile(m)["discard"] == 1
    assert events == ["Ana plays a potion (0)", "Ana is healed: unhurt again"]
    refused(m, act("play", value=1, heal=True), "Ana is not injured")


def test_the_cancel_potion_makes_nobody_draw():
    """«Solo la poción de anulación se puede jugar durante el turno de otro jugador (para cancelar una
    poción)»: it only cancels."""
    m = game()
    refused(m, act("play", player="Ben", value=1, cancel=True, draw=2), "the cancel potion only cancels")


def test_a_potion_starts_the_game_when_the_hands_are_not_entered():
    """«Preparar» comes first, but the dealt values are not needed to play: a potion played as the first move
    deals the hands not entered (their values unknown) and takes the card from them."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"], "options": {"hands": {"Ana": [1] * 4}}}))
    do(m, act("play", player="Ana", value=1))
    assert P(m, "Ben")["unknown"] == 4 and P(m, "Ana")["cards"] == [1, 1, 1]
    refused(m, act("play", player="Ana", value=2), "holds no more treasure cards worth 2")


@pytest.mark.parametrize("characters", [{"Ana": "Knight", "Ben": "Knight"}, {"Ana": "Knight", "Cai": " knight "}])
def test_two_players_cannot_take_the_same_character(characters):
    """«7 cartas de personaje» and «Distribuya una tarjeta de personaje a cada jugador»: one card each."""
    with pytest.raises(SetupError, match="cannot both play Knight: there is one card of each character"):
        game(characters=characters)
    assert game(characters={"Ana": "Knight", "Ben": "Thief"}).state["players"][1]["character"] == "Thief"


# -- talismans and the final count ---------------------------------------------------------------------------
def test_talismans_in_play_count_at_the_end():
    """«El Dragón pierde I Temper Point ... (Nota: si el dragón pierde su último punto de temperamento, el juego
    termina) Vuelve a mezclar ...»: the game ends before the reshuffle that discards the talismans, and «Los
    jugadores cuentan las monedas de oro en sus cartas del tesoro»."""
    m = game(players=("Ana", "Ben"), hands={"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]})
    do(m, act("talisman", value=3))  # Ana: 3 in hand + 3 in play; Ben: 8 in hand
    assert P(m, "Ana")["counters"]["treasure"] == 3 and P(m, "Ana")["talismans"] == [3]
    do(m, act("adjust", counter="temper", delta=-4))
    events = do(m, act("charge", location="dragon"))  # Ana injured, temper 0
    v = m.view()
    assert v["over"] and v["winners"] == ["Ben"]  # 8 against 6
    assert P(m, "Ana")["talismans"] == [3]  # not discarded: no reshuffle at the end
    assert ("Ana's talismans in play count with the treasure in hand (3): the game ends before the reshuffle "
            "that would discard them") in events
    # and the end screen's line says which reading the count used
    assert str(m.rules.result_words(m.state)) == "Ben won (talismans in play counted with the treasure in hand)"


def test_a_talisman_in_play_can_decide_the_winner_and_the_tie_break():
    """«El superviviente con el tesoro más valioso gana el juego. En caso de empate, el juego pasa al jugador
    con la Carta del Tesoro más alta.» — a talisman in play is one of the player's treasure cards, here both
    the points that tie and the highest card that breaks the tie (the last point lost to an escape)."""
    m = game(players=("Ana", "Ben"), hands={"Ana": [3, 2, 1, 1], "Ben": [2, 2, 1, 1]})
    do(m, act("talisman", value=3), act("adjust", counter="temper", delta=-4))
    do(m, act("adjust", counter="dungeon", delta=-5), act("hide", discard=[1], roll=9))  # escaped: temper 0
    # Ana: 2 + 1 in hand and 3 in play = 6, highest 3; Ben: 6 in hand, highest 2.
    assert P(m, "Ana")["counters"]["treasure"] == 3 and P(m, "Ana")["talismans"] == [3]
    assert m.view()["over"] and m.view()["winners"] == ["Ana"]


def test_the_last_temper_point_does_not_reshuffle_the_dungeon_deck():
    """«si el dragón pierde su último punto de temperamento, el juego termina»: no «Vuelve a mezclar» after it."""
    m = game()
    do(m, act("adjust", counter="temper", delta=-5), act("charge", location="other", then="pass"))
    do(m, act("charge", location="dragon"))  # Ben: temper 0
    assert m.state["over"] and m.state["table"]["dungeon"] == 8


# -- hiding that cannot escape ------------------------------------------------------------------------------
@pytest.mark.parametrize("left, warned", [(10, True), (9, True), (8, False)])
def test_a_hide_that_cannot_escape_is_warned_not_refused(left, warned):
    """«Si el resultado es mayor que el número de Cartas de Ubicación que quedan»: the d10's highest face is 9
    («El lado 0 del dado indica una falla automática»), so with 9 or 10 left no roll escapes."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=left - 10))
    events = do(m, act("hide", discard=[1], roll=9))
    warning = (f"no face of the die beats {left} location cards left: Ana cannot escape and will have to charge")
    assert (warning in events) is warned
    assert turn(m)["phase"] == ("must_charge" if warned else "escaped")


# -- messages for players -------------------------------------------------------------------------------------
def test_a_treasure_hall_without_its_card_draws_one_the_device_asks_for_later():
    """«Salón del tesoro: Roba una carta de tesoro»: the card is drawn; its value matters only when it leaves
    the hand or at the final count, so it may be left out (it was refused before)."""
    m = game()
    do(m, act("charge", location="treasure_hall", then="pass"))
    assert P(m, "Ana")["unknown"] == 1 and P(m, "Ana")["counters"]["treasure"] == 6
    assert pile(m)["deck"] == 38 - 12 - 1 and m.rules.describe(
        act("charge", player="Ana", location="treasure_hall")) == "Ana charges: the treasure hall (+a card)"


def test_a_die_face_marked_10_is_entered_as_0():
    """«Nota: ¡ El lado 0 del dado indica una falla automática!»: the faces are 0–9."""
    e = refused(game(), act("hide", discard=[1], roll=10), "a face marked 10 is entered as 0")
    assert e.args[0].translated(load_catalog("es")) == (
        "las caras del d10 son 0–9, no 10: una cara marcada 10 se anota como 0 (y el 0 siempre falla)")


def test_a_dead_player_is_refused_with_one_wording():
    """«Se reduce a cenizas y se elimina del juego»: the same sentence whatever the dead player tries."""
    m = game()
    do(m, act("adjust", player="Ben", counter="wounds", delta=2))
    words = r"Ben is out of the game \(burnt to ashes by the dragon\): the dead do not act"
    for entry in (act("charge", player="Ben", location="other"), act("power", player="Ben"),
                  act("draw", player="Ben", value=3), act("discard", player="Ben", values=[1]),
                  act("play", player="Ben", value=1, cancel=True)):
        refused(m, entry, words)


def test_the_history_says_the_treasure_a_room_a_power_or_a_potion_gave():
    """The history can be checked against the table: a room's treasure card, a steal's card and a potion's
    draw are in its line (a play-tester could not find the 2 a room gave, nor the 3 a potion drew)."""
    m = game()
    es = load_catalog("es")
    said = m.rules.describe(act("charge", player="Ana", location="other", value=2, then="pass"))
    assert said == "Ana charges: another room (+2), then passes"
    assert said.translated(es).startswith("Ana carga: otra sala (+2)")
    assert m.rules.describe(act("power", player="Ana", take_from="Cai", value=0)) == \
        "Ana uses the power: a card from Cai (+0)"
    assert m.rules.describe(act("power", player="Ben", heal="Ben")) == "Ben uses the power: heals Ben"
    assert m.rules.describe(act("play", player="Ben", value=0, draw=3)) == \
        "Ben plays a potion (0) and draws a card (+3)"


def test_the_ordinary_room_has_one_name():
    """«Otras tarjetas de ubicación»: the script's `other` is "another room" in the history and the events,
    "otra sala" in Spanish, as on the pod's buttons."""
    m = game()
    es = load_catalog("es")
    assert m.rules.describe(act("charge", player="Ana", location="other")) == "Ana charges: another room"
    said = m.rules.describe(act("charge", player="Ana", location="other", then="again"))
    assert said == "Ana charges: another room, then takes another turn"
    assert said.translated(es) == "Ana carga: otra sala y juega otro turno"
    events = do(m, act("charge", location="other", then="pass"))
    assert [e.translated(es) for e in events] == ["Ana carga hacia otra sala", "Ana pasa"]


# -- cards whose values the device does not know, and the final count that asks for them -------------------
END_RULE = ("«Fin del juego: El dragón pierde su último punto de temperamento (la ficha del dragón llega a 0). ... "
            "Los jugadores cuentan las monedas de oro en sus cartas del tesoro. El superviviente con el tesoro más "
            "valioso gana el juego. En caso de empate, el juego pasa al jugador con la Carta del Tesoro más alta.»")


def unseen(*actions, players=("Ana", "Ben"), hands=None) -> Match:
    """A game whose hands are not entered (or only ``hands``)."""
    m = Match(make_rules({"game": "dragon-run", "players": list(players), "options": {"hands": hands or {}}}))
    do(m, *actions)
    return m


def to_the_end(m: Match) -> list[str]:
    """The dragon's last temper point: down to 1, then the active player charges into the dragon."""
    do(m, act("adjust", counter="temper", delta=1 - m.state["table"]["temper"]))
    return [str(e) for e in m.apply(act("charge", location="dragon")).events]


def test_a_card_leaving_the_hand_by_value_is_one_the_device_did_not_know():
    """«Llora como un bebé: descarte cartas del tesoro con un valor total de al menos 2» — the player discards
    real cards: a value the device does not see among the known ones is one of the cards it did not know, and
    the deck count stays exact."""
    m = unseen(act("charge", location="treasure_hall", value=3, then="again"))
    ana = P(m, "Ana")
    assert (ana["cards"], ana["unknown"], ana["counters"]["treasure"]) == ([3], 4, 3)
    do(m, act("cry", discard=[2]))  # not the known 3: one of the 4 dealt cards
    assert (P(m, "Ana")["cards"], P(m, "Ana")["unknown"]) == ([3], 3) and pile(m) == {"deck": 38 - 8 - 1,
                                                                                       "discard": 1}
    do(m, act("play", player="Ben", value=0, cancel=True))  # Ben's cancel potion, from his unseen hand
    do(m, act("cry", discard=[3]))  # Ben: a known 3? none: unseen again
    assert P(m, "Ben")["unknown"] == 2 and pile(m)["discard"] == 3
    do(m, act("talisman", value=3))  # Ana's known 3 goes down as a talisman
    assert (P(m, "Ana")["cards"], P(m, "Ana")["talismans"], P(m, "Ana")["counters"]["treasure"]) == ([], [3], 0)
    do(m, act("discard", values=[1, 1, 1]))  # 3 cards, the hand holds 3 unknown ones
    refused(m, act("discard", values=[1]), r"Ana holds no more treasure cards worth 1 \(cards: none\)")


def test_a_draw_without_its_value_and_a_dead_hand_of_unknown_cards():
    """«Coloque todos sus tesoros en la pila de descarte»: a dead player's unknown cards go to the discard too."""
    m = unseen(act("charge", location="other", then="pass"), act("draw", player="Ben"))
    assert P(m, "Ben")["unknown"] == 5 and pile(m)["deck"] == 38 - 8 - 1
    do(m, act("adjust", player="Ben", counter="wounds", delta=1))
    events = [str(e) for e in m.apply(act("charge", location="dragon")).events]
    assert "Ben's treasure goes to the discard (?+?+?+?+?)" in events
    assert P(m, "Ben")["unknown"] == 0 and pile(m)["discard"] == 5


def test_the_end_asks_each_survivor_for_the_total_the_device_does_not_know():
    """RB Fin del juego: """ + END_RULE + """ The device asks only the survivors whose hands hold cards it
    does not know, and nothing else is done until they have counted."""
    m = unseen(act("deal", player="Ben", values=[4, 2, 1, 1]), act("charge", location="treasure_hall", value=3,
                                                                   then="pass"))
    events = to_the_end(m)  # Ben is burnt (injured) as the dragon falls asleep
    assert "the dragon sleeps: Ana, add up the treasure cards in your hand (the device does not know every card)" \
        in events
    assert not m.state["over"] and m.state["turn"]["phase"] == "count" and m.view()["to_count"] == ["Ana"]
    refused(m, act("charge", location="other"), r"the dragon sleeps: the game ends when Ana have counted")
    refused(m, act("count", player="Ben", total=8), "the device knows Ben's treasure: Ana must count")
    refused(m, act("count", player="Ana", total=2), r"Ana's hand holds 3 in the cards the device knows and 4 cards "
                                                    r"more, worth 0–10 each: its total is 3–43, not 2")
    do(m, act("count", player="Ana", total=9))
    assert m.state["over"] and m.state["winners"] == ["Ana"] and P(m, "Ana")["counters"]["treasure"] == 9
    assert m.state["turn"]["phase"] == "over" and m.view()["to_count"] == []


def test_a_tie_the_device_cannot_settle_asks_the_tied_players_highest_card():
    """RB Fin del juego: «En caso de empate, el juego pasa al jugador con la Carta del Tesoro más alta.» Ana's
    hand is known (highest 3); Ben's total ties hers but his cards are not known: only Ben is asked."""
    m = unseen(hands={"Ana": [3, 2, 1, 0]})
    to_the_end(m)  # Ana is injured
    events = [str(e) for e in m.apply(act("count", player="Ben", total=6)).events]
    assert not m.state["over"] and m.view()["to_count"] == ["Ben"]
    assert "tied at 6: Ben, say the highest treasure card in your hand" in events
    refused(m, act("count", player="Ben", highest=1), r"Ben's highest treasure card in hand is 2–6, not 1")
    do(m, act("count", player="Ben", highest=2))  # 2+2+1+1: Ana's 3 is higher
    assert m.state["over"] and m.state["winners"] == ["Ana"]


@pytest.mark.parametrize("highest, winners", [(3, ["Ana", "Ben"]), (4, ["Ben"])])
def test_a_tied_highest_card_is_a_shared_win_and_a_higher_one_wins(highest, winners):
    """RB Fin del juego: «el juego pasa al jugador con la Carta del Tesoro más alta»; the same highest card:
    a shared win (docs: Interpretations)."""
    m = unseen(hands={"Ana": [3, 2, 1, 0]})
    to_the_end(m)
    do(m, act("count", player="Ben", total=6, highest=highest))
    assert m.state["over"] and m.state["winners"] == winners


def test_a_hand_with_one_unknown_card_needs_no_highest_card_for_a_tie():
    """RB Fin del juego: one card not known and the total told: the device knows that card, so a tie is
    settled without asking more."""
    m = unseen(hands={"Ana": [3, 2, 1, 0], "Ben": [2, 1, 1, 0]})
    do(m, act("charge", location="treasure_hall", then="pass"))  # Ana draws a card she does not enter
    to_the_end(m)  # Ben is injured; Ana must count
    do(m, act("count", player="Ana", total=8))  # 6 known + a 2... and Ben holds 4: no tie, Ana wins
    assert m.state["winners"] == ["Ana"] and P(m, "Ana")["highest"] == 3


# -- a room card's printed effect with its charge ---------------------------------------------------
def test_a_room_that_makes_its_player_discard_gives_the_cards_to_the_treasure_discard():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta, luego según el pictograma…»"""
    m = game()
    do(m, act("room", discard=[0, 1], then="again"))
    assert P(m, "Ana")["cards"] == [3, 2] and pile(m)["discard"] == 2
    assert turn(m)["player"] == "Ana"  # the icon said take another turn
    refused(m, act("room", discard=[4]), "no more treasure cards worth 4")


def test_a_room_that_makes_its_player_give_a_card_left_moves_it_to_the_next_player():
    m = game()
    do(m, act("room", give=3, then="pass"))
    assert P(m, "Ana")["cards"] == [2, 1, 0] and P(m, "Ben")["cards"] == [4, 3, 2, 1, 1]
    assert P(m, "Ben")["counters"]["treasure"] == 11 and turn(m)["player"] == "Ben"


def test_a_room_that_gives_two_treasure_cards_takes_both_known_or_not():
    m = game()
    deck = pile(m)["deck"]
    do(m, act("room", draws=2, value=4, then="pass"))
    assert P(m, "Ana")["cards"] == [4, 3, 2, 1, 0] and P(m, "Ana")["unknown"] == 1 and pile(m)["deck"] == deck - 2
    do(m, act("room", value=5, second=0, then="pass"))  # draws: 2 by the two values
    assert P(m, "Ben")["cards"] == [5, 4, 2, 1, 1, 0]
    refused(m, act("room", draws=1, value=2, second=3), "too many")


def test_a_room_is_a_charge_into_another_room_and_the_plain_charge_keeps_its_three_fields():
    """The generic charge asks only what every location needs; a room's printed effect is its own action
    (the talisman that takes the dragon's breath, the one field added since, is never asked on a pod: it
    is an offer of its own while a talisman is in play)."""
    m = game()
    fields = [f.name for f in m.rules.actions["charge"].fields]
    assert fields == ["player", "location", "value", "then", "talisman"]
    before = m.state["discard"]["other"]
    do(m, act("room", then="pass"))
    assert m.state["discard"]["other"] == before + 1 and turn(m)["player"] == "Ben"


def test_a_copy_with_two_treasure_halls_lets_both_come_up_before_the_reshuffle():
    """«Mezcla las 10 cartas de ubicación»: the rulebook counts the locations, not the halls among them; the
    publisher's copy has one, a reader's had two (option ``treasure_halls``): both come up before a reshuffle, a
    third is refused, and the copy has 7 other rooms."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"],
                          "options": {"treasure_halls": 2, "hands": {"Ana": [1, 1, 1, 1], "Ben": [1, 1, 1, 1]}}}))
    hall = {"action": "charge", "location": "treasure_hall", "value": 2, "then": "again"}
    m.apply(hall)
    assert m.view()["dungeon_discard"] == {"treasure_hall": False, "other": 0}
    m.apply(hall)
    assert m.view()["dungeon_discard"] == {"treasure_hall": True, "other": 0}
    with pytest.raises(RuleError, match="the 2 treasure halls are already in the dungeon discard"):
        m.apply(hall)
    for _ in range(7):
        m.apply({"action": "charge", "location": "other", "then": "again"})
    with pytest.raises(RuleError, match="all 7 other rooms are in the dungeon discard"):
        m.apply({"action": "charge", "location": "other", "then": "again"})
    assert not any(o["action"].get("location") in ("other", "treasure_hall")
                   for o in m.rules.seat_actions(m.state, "Ana") if o["action"]["action"] == "charge")
