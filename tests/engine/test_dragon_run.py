"""Dragon Run: temper, dungeon deck, escape die, wounds, treasure.

Rules cited as "RB <section>" are the Spanish rulebook
../shared/seeds/dragon-run.es.txt (Preparar, Como se Juega, Carga, Ocultar,
Prueba de fuga, Llora como un bebé, Tarjetas de ubicación, Pociones y
talismanes, Tarjetas de personaje, Fin del juego); "RULES" is the Dragon Run
digest in ../shared/RULES.md.
"""
from __future__ import annotations

import importlib.util
import json
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tablekeeper.engine import Journal, Match, RuleError, Session, SetupError, canonical, make_rules
from tablekeeper.engine.games.dragon_run.rules import _cheapest

from ..conftest import ROOT, ScriptError, examples, new_session, replay, replay_cli, steps

SCRIPTS = Path(__file__).with_name("scripts")
HANDS3 = {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 0]}


def _bench_dice():
    spec = importlib.util.spec_from_file_location("bench_dice", ROOT / "bench" / "bench_dice.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dice = _bench_dice()


def game(players=("Ana", "Ben", "Cai"), **options) -> Match:
    if "hands" not in options:
        options["hands"] = {p: HANDS3.get(p, [2, 2, 1, 1]) for p in players}
    return Match(make_rules({"game": "dragon-run", "players": list(players), "options": options}))


def do(m: Match, *entries) -> Match:
    for e in entries:
        m.apply(dict(e))
    return m


def act(name, **fields):
    return {"action": name, **fields}


def refused(m: Match, entry: dict, words: str) -> None:
    before = canonical(m.state)
    with pytest.raises(RuleError, match=words):
        m.apply(entry)
    assert canonical(m.state) == before


def P(m: Match, name: str) -> dict:
    return next(p for p in m.state["players"] if p["name"] == name)


def table(m: Match) -> dict:
    return m.state["table"]


def turn(m: Match) -> dict:
    return m.state["turn"]


CHARGE_OTHER = act("charge", location="other")
CHARGE_DRAGON = act("charge", location="dragon")


# -- setup ----------------------------------------------------------------------------
@pytest.mark.parametrize("n, temper", [(2, 5), (3, 6), (4, 7), (5, 8)])
def test_rb_preparar_temper_by_player_count_dungeon_10_unhurt_powers_ready(n, temper):
    """RB Preparar: dragon on square 8/7/6/5 for 5/4/3/2 players; 10 location cards; unhurt side up."""
    names = ["Ana", "Ben", "Cai", "Dan", "Eva"][:n]
    m = game(names)
    assert table(m) == {"temper": temper, "dungeon": 10}
    for p in m.state["players"]:
        assert p["counters"]["wounds"] == 0 and p["power"] == "ready" and not p["out"]
    assert m.view()["dragon_won"] is False


@pytest.mark.parametrize("n", [1, 6])
def test_rules_players_2_to_5(n):
    """RULES: Players 2–5."""
    with pytest.raises(SetupError, match="2–5 players"):
        game([f"P{i}" for i in range(n)])


def test_rb_preparar_four_treasure_cards_each_from_the_hands_option():
    """RB Preparar: 4 treasure cards dealt to each player; totals and highest card kept."""
    m = game()
    assert [P(m, n)["counters"]["treasure"] for n in ("Ana", "Ben", "Cai")] == [6, 8, 3]
    assert [P(m, n)["highest"] for n in ("Ana", "Ben", "Cai")] == [3, 4, 1]
    assert turn(m)["phase"] == "start"


@pytest.mark.parametrize("hands, words", [
    ({"Ana": [1, 2, 3]}, "needs the values of the 4"),
    ({"Ana": [1, 2, 3, 11]}, "0–10"),
    ({"Dan": [1, 1, 1, 1]}, "no player called 'Dan'"),
])
def test_rb_preparar_hands_option_is_checked(hands, words):
    """RB Preparar: exactly 4 cards are dealt to each player."""
    with pytest.raises(SetupError, match=words):
        make_rules({"game": "dragon-run", "players": ["Ana", "Ben"], "options": {"hands": hands}})


def test_rb_preparar_deal_action_enters_the_hands_or_leaves_them_to_be_asked():
    """RB Preparar: «distribuye 4 a cada jugador». The 4 dealt cards may be entered with deal (as before), or
    not: a deal without values records 4 cards whose values the device asks only when it needs them. (This
    used to refuse every move before each hand was entered; the device now asks only what it needs.)"""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben"]}))
    assert turn(m)["phase"] == "deal" and m.view()["to_deal"] == ["Ana", "Ben"]
    refused(m, act("deal", player="Ana", values=[1, 2, 3]), "dealt 4 treasure cards, not 3")
    do(m, act("deal", player="Ana", values=[0, 3, 1, 2]))
    assert P(m, "Ana")["cards"] == [3, 2, 1, 0] and P(m, "Ana")["counters"]["treasure"] == 6
    refused(m, act("deal", player="Ana", values=[1, 1, 1, 1]), "already entered")
    events = m.apply(act("deal", player="Ben")).events
    assert "Ben is dealt 4 treasure cards, values not entered" in events[0]
    assert P(m, "Ben")["cards"] == [] and P(m, "Ben")["unknown"] == 4 and P(m, "Ben")["counters"]["treasure"] == 0
    assert turn(m)["phase"] == "start" and m.view()["treasure_deck"]["deck"] == 38 - 8
    refused(m, act("deal", player="Ben", values=[1, 1, 1, 1]), "dealt at the start")


def test_rb_preparar_the_first_move_deals_the_hands_not_entered():
    """RB Preparar «distribuye 4 a cada jugador» then RB Como se juega «El jugador más valiente comienza»:
    the bravest player's first move starts the game; the hands not entered were dealt all the same."""
    m = Match(make_rules({"game": "dragon-run", "players": ["Ana", "Ben", "Cai"]}))
    do(m, act("deal", player="Cai", values=[2, 2, 1, 0]))
    events = m.apply(dict(CHARGE_OTHER)).events
    assert "the treasure cards dealt to Ana, Ben were not entered" in events[0]
    assert [P(m, n)["unknown"] for n in ("Ana", "Ben", "Cai")] == [4, 4, 0]
    assert m.view()["to_deal"] == [] and turn(m)["phase"] == "after_location"
    assert m.view()["treasure_deck"]["deck"] == 38 - 12


def test_rb_como_se_juega_the_bravest_starts():
    """RB Como se Juega: the bravest player starts (option first)."""
    assert turn(game(first="Cai"))["player"] == "Cai"
    assert turn(game())["player"] == "Ana"
    with pytest.raises(SetupError, match="no player called 'Zed'"):
        game(first="Zed")


# -- turn order ---------------------------------------------------------------------------
def test_rb_como_se_juega_clockwise_and_the_dead_are_skipped():
    """RB Como se Juega: play goes clockwise; RB Continuar: a dead adventurer is removed from play."""
    m = game()
    do(m, act("cry", discard=[2, 1]))  # Ana
    assert turn(m)["player"] == "Ben"
    do(m, act("adjust", player="Ben", counter="wounds", delta=1))
    do(m, CHARGE_DRAGON)  # Ben dies
    assert P(m, "Ben")["out"] and turn(m)["player"] == "Cai"
    do(m, act("cry", discard=[1, 1]))  # Cai
    assert turn(m)["player"] == "Ana"
    do(m, act("cry", discard=[3]))  # Ana: Ben is skipped
    assert turn(m)["player"] == "Cai"


def test_rb_salon_del_tesoro_press_your_luck_keeps_the_same_player():
    """RB Salón del tesoro: draw a treasure, then pass or press your luck and take another turn."""
    m = game()
    do(m, act("charge", location="treasure_hall", value=5))
    assert P(m, "Ana")["cards"] == [5, 3, 2, 1, 0] and P(m, "Ana")["highest"] == 5
    number = turn(m)["number"]
    do(m, act("again"))
    assert turn(m) == {"player": "Ana", "number": number + 1, "phase": "start"}
    do(m, CHARGE_OTHER, act("pass"))
    assert turn(m)["player"] == "Ben" and turn(m)["phase"] == "start"


def test_rb_otras_ubicaciones_a_card_that_draws_two_and_keeps_one_needs_only_the_kept_cards_value():
    """«Aplicar el efecto indicado en la tarjeta», a reader's library: «roba 2 cartas de tesoro, quédate 1 y
    descarta la otra». The card put back goes to the treasure discard: its value is taken when given (checked
    against nothing, it never was in the hand) and not needed when left out; the kept card joins the hand."""
    for put_back in ({"second": 0}, {}):
        m = game()
        deck, discard = m.state["treasure_deck"]["deck"], m.state["treasure_deck"]["discard"]
        hand = list(P(m, "Ana")["cards"])
        do(m, act("room", draws=2, value=4, keep=1, then="pass", **put_back))
        assert sorted(P(m, "Ana")["cards"], reverse=True) == sorted(hand + [4], reverse=True)
        assert P(m, "Ana")["unknown"] == 0
        assert (m.state["treasure_deck"]["deck"], m.state["treasure_deck"]["discard"]) == (deck - 2, discard + 1)
        assert turn(m)["player"] == "Ben"
    m = game()
    do(m, act("room", draws=2, keep=1, then="pass"))  # nothing said: the kept card is in the hand unseen
    assert P(m, "Ana")["unknown"] == 1 and m.state["treasure_deck"]["discard"] == 1
    refused(game(), act("room", draws=2, value=4, keep=3), "cannot be kept")


def test_rb_otras_ubicaciones_take_another_turn_or_pass():
    """RB Otras tarjetas de ubicación: the icon says pass or take another turn; a charge cannot be followed by hide."""
    m = game()
    do(m, CHARGE_OTHER)
    refused(m, act("hide", discard=[1], roll=5), "has charged this turn")
    refused(m, act("cry", discard=[2]), "has charged this turn")
    do(m, act("again"), CHARGE_OTHER, CHARGE_OTHER)  # a location saying "draw again"
    assert table(m)["dungeon"] == 7 and turn(m)["player"] == "Ana"


def test_rb_como_se_juega_only_the_active_player_acts_and_the_dead_never():
    """RB Como se Juega: the active player takes the turn; a dead adventurer is out of the game."""
    m = game()
    refused(m, act("charge", player="Ben", location="other"), "it is Ana's turn, not Ben's")
    do(m, act("adjust", player="Ben", counter="wounds", delta=2))
    assert P(m, "Ben")["out"] and P(m, "Ben")["counters"]["treasure"] == 0
    for entry in (act("charge", player="Ben", location="other"), act("power", player="Ben")):
        refused(m, entry, "the dead do not act")
    refused(m, act("draw", player="Ben", value=3), "Ben is out of the game")
    refused(m, act("adjust", player="Ben", counter="wounds", delta=-1), "Ben is out of the game")


def test_rb_como_se_juega_a_compulsory_action_first():
    """RB Como se Juega: the active player must charge, hide or cry; passing is not one of them."""
    m = game()
    refused(m, act("pass"), "must first charge, hide or cry")
    refused(m, act("again"), "must first charge, hide or cry")


# -- charge and the locations ----------------------------------------------------------------
def test_rb_carga_each_charge_takes_one_card_and_records_the_location():
    """RB Carga: the top location card goes face up to the discard; the deck has one card fewer."""
    m = game()
    do(m, CHARGE_OTHER)
    assert table(m)["dungeon"] == 9 and m.view()["dungeon_discard"] == {"treasure_hall": False, "other": 1}
    do(m, act("again"), act("charge", location="treasure_hall", value=1))
    assert table(m)["dungeon"] == 8 and m.view()["dungeon_discard"] == {"treasure_hall": True, "other": 1}
    do(m, act("again"))
    refused(m, act("charge", location="treasure_hall", value=1), "already in the dungeon discard")
    refused(m, act("charge", location="dragon", value=2), "the dragon gives no treasure card")
    refused(m, act("charge", location="crypt"), "must be one of dragon, treasure_hall, other")


def test_rules_ten_locations_the_last_card_is_the_dragon():
    """RULES: the 10 locations are 1 dragon, 1 treasure hall and 8 others: after 9 draws only the dragon is left."""
    m = game()
    do(m, act("charge", location="treasure_hall", value=1))
    for _ in range(8):
        do(m, act("again"), CHARGE_OTHER)
    assert table(m)["dungeon"] == 1
    do(m, act("again"))
    refused(m, CHARGE_OTHER, "all 8 other rooms are in the dungeon discard")
    refused(m, act("charge", location="treasure_hall", value=1), "already in the dungeon discard")
    do(m, CHARGE_DRAGON)
    assert table(m)["dungeon"] == 10 and m.view()["dungeon_discard"] == {"treasure_hall": False, "other": 0}


def test_rb_continuar_the_dragon_injures_calms_reshuffles_discards_talismans_readies_powers():
    """RB Continuar + Pociones y talismanes + Tarjetas de personaje: injured, temper −1, reshuffle,
    talismans in play discarded, every power ready again, next player."""
    m = game()
    do(m, act("power"), act("talisman", value=0), CHARGE_OTHER, act("pass"))  # Ana
    do(m, act("power"), act("talisman", value=4))  # Ben, not yet charged
    assert P(m, "Ben")["talismans"] == [4] and P(m, "Ben")["counters"]["treasure"] == 4
    assert P(m, "Ana")["power"] == P(m, "Ben")["power"] == "used"
    do(m, CHARGE_DRAGON)
    assert P(m, "Ben")["counters"]["wounds"] == 1 and not P(m, "Ben")["out"]
    assert table(m) == {"temper": 5, "dungeon": 10}
    assert P(m, "Ana")["talismans"] == [] and P(m, "Ben")["talismans"] == []
    assert all(p["power"] == "ready" for p in m.state["players"])
    assert turn(m)["player"] == "Cai" and turn(m)["phase"] == "start"


def test_a_talisman_that_takes_the_dragons_breath_spares_its_player_and_is_discarded():
    """«Los talismanes permanecen frente a ti hasta que se baraja el mazo de mazmorras»; the rulebook prints
    no talisman's text, and two tables' readers gave one the power to take the dragon's breath: the charge
    into the dragon names the talisman in play that does it (an injured player is not killed, the talisman
    is discarded), the rest of «Continuar» as ever (temper −1, reshuffle, powers ready, next player)."""
    m = game()
    do(m, CHARGE_DRAGON, act("cry", discard=[2]), act("cry", discard=[1, 1]))  # Ana injured; Ben, Cai cry
    do(m, act("talisman", value=0))
    refused(m, act("charge", location="other", talisman=0), "goes with the dragon")
    refused(m, act("charge", location="dragon", talisman=3), "no talisman worth 3 in play")
    do(m, act("charge", location="dragon", talisman=0))
    ana = P(m, "Ana")
    assert ana["counters"]["wounds"] == 1 and not ana["out"] and ana["talismans"] == []  # injured, not killed
    assert table(m)["temper"] == 4 and table(m)["dungeon"] == 10
    assert turn(m)["player"] == "Ben"
    offers = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ben")]
    assert not any("talisman" in label and "dragon" in label for label in offers)  # Ben has none in play
    do(m, act("talisman", value=1))
    offers = [o for o in m.rules.seat_actions(m.state, "Ben")]
    labels = [str(o["label"]) for o in offers]
    # after the hides, not beside the dragon: there it shifted every line below it while a talisman was in play (a
    # play-tester's held press for the hide stopped on a room, and charged it); the stories' dragons: 20 without, 2 with
    assert labels[:3] == ["other room: pass", "dragon", "other room: again"]
    assert labels.index("dragon: talisman 1 saves") > labels.index("other room: go on")  # past the charges and rooms
    assert offers[labels.index("dragon: talisman 1 saves")]["action"] == {
        "action": "charge", "player": "Ben", "location": "dragon", "talisman": 1}


def test_rb_continuar_an_injured_adventurer_is_killed_and_the_treasure_discarded():
    """RB Continuar: already injured → burnt to ashes, out of the game, all treasure to the discard."""
    m = game()
    do(m, CHARGE_DRAGON)  # Ana injured
    do(m, act("cry", discard=[2]), act("cry", discard=[1, 1]))  # Ben, Cai
    do(m, CHARGE_DRAGON)  # Ana killed
    ana = P(m, "Ana")
    assert ana["out"] and ana["counters"] == {"wounds": 2, "treasure": 0} and ana["cards"] == []
    assert table(m)["temper"] == 4 and turn(m)["player"] == "Ben"


def test_contract_wounds_adjust_to_two_kills():
    """Contract: wounds 2 = dead = out; dr-injured-not-out: 1 wound is not out."""
    m = game()
    do(m, act("adjust", player="Ben", counter="wounds", delta=1))
    assert not P(m, "Ben")["out"]
    do(m, act("adjust", player="Ben", counter="wounds", delta=1))
    assert P(m, "Ben")["out"] and P(m, "Ben")["counters"]["treasure"] == 0


# -- hide and the escape test -----------------------------------------------------------------
def test_rb_ocultar_discard_at_least_1_from_the_cards_held():
    """RB Ocultar: first discard treasure cards worth at least 1."""
    m = game()
    refused(m, act("hide", discard=[0], roll=9), "at least 1")
    refused(m, act("hide", discard=[], roll=9), "at least 1")
    refused(m, act("hide", discard=[4], roll=9), "holds no more treasure cards worth 4")
    # «Nota: ¡ El lado 0 del dado indica una falla automática!»: the faces are 0–9; a die marked 10 shows the 0.
    refused(m, act("hide", discard=[1], roll=10), "faces are 0–9, not 10: a face marked 10 is entered as 0")
    refused(m, act("hide", discard=[1]), "enter the face of the die")  # the device rolls only through a Session


def test_rb_prueba_de_fuga_a_roll_above_the_deck_escapes():
    """RB Prueba de fuga A: roll > location cards left → temper −1, reshuffle, then charge or pass."""
    m = game()
    do(m, CHARGE_OTHER, act("again"), CHARGE_OTHER, act("again"), CHARGE_OTHER, act("pass"))  # dungeon 7
    do(m, act("talisman", value=4))  # Ben's talisman
    do(m, act("hide", discard=[1], roll=8))
    assert table(m) == {"temper": 5, "dungeon": 10}
    assert P(m, "Ben")["cards"] == [2, 1] and P(m, "Ben")["talismans"] == []
    assert m.view()["last_roll"] == {"player": "Ben", "roll": 8, "dungeon": 7, "escaped": True}
    assert turn(m)["phase"] == "escaped"
    refused(m, act("hide", discard=[1], roll=9), "escaped the dragon this turn: charge into the next room, or pass")
    refused(m, act("cry", discard=[2]), "escaped the dragon")
    refused(m, act("again"), "escaped the dragon")
    do(m, act("pass"))
    assert turn(m)["player"] == "Cai"


def test_rb_prueba_de_fuga_escape_then_charge():
    """RB Prueba de fuga A: after escaping the player may charge into the next room."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=-6), act("hide", discard=[3], roll=5), CHARGE_OTHER)
    assert table(m) == {"temper": 5, "dungeon": 9} and turn(m)["phase"] == "after_location"


def test_tarjetas_de_personaje_an_escape_reshuffle_does_not_ready_powers():
    """RB Tarjetas de personaje: powers are readied only when the dragon location is drawn."""
    m = game()
    do(m, act("power"), act("adjust", counter="dungeon", delta=-6), act("hide", discard=[3], roll=5))
    assert table(m)["dungeon"] == 10 and P(m, "Ana")["power"] == "used"


@pytest.mark.parametrize("roll", [1, 5, 7])
def test_rb_prueba_de_fuga_a_roll_not_above_the_deck_must_charge(roll):
    """RB Prueba de fuga B: roll ≤ cards left → the player MUST charge; anything else is refused."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=-3))  # 7 left
    do(m, act("hide", discard=[1], roll=roll))
    assert turn(m)["phase"] == "must_charge" and table(m) == {"temper": 6, "dungeon": 7}
    words = f"Ana must charge: the escape test failed \\(rolled {roll} with 7 location cards left\\)"
    for entry in (act("pass"), act("again"), act("hide", discard=[2], roll=9), act("cry", discard=[3]),
                  act("power")):
        refused(m, entry, words)
    do(m, CHARGE_OTHER)
    assert turn(m)["phase"] == "after_location"


@pytest.mark.parametrize("left", range(0, 11))
def test_rb_prueba_de_fuga_zero_always_fails_whatever_the_deck_holds(left):
    """RB Prueba de fuga, Nota: the 0 face is an automatic failure (even with 0 cards left)."""
    m = game()
    do(m, act("adjust", counter="dungeon", delta=left - 10))
    do(m, act("hide", discard=[1], roll=0))
    assert turn(m)["phase"] == "must_charge" and table(m)["temper"] == 6
    assert m.view()["last_roll"]["escaped"] is False


def test_rb_prueba_de_fuga_the_device_rolls_and_the_journal_keeps_the_face(journal):
    """The d10 is rolled by the device when no roll is given; the journal records the face,
    so replay never rolls again; a face from a physical die is kept as given."""
    class Loaded:
        def __init__(self):
            self.calls = 0

        def randrange(self, n):
            assert n == 10
            self.calls += 1
            return 9

    die = Loaded()
    s = new_session(journal, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [1, 1, 1, 1], "Ben": [2, 2, 2, 2]}},
                    rng=die)
    s.apply(act("adjust", counter="dungeon", delta=-2))
    out = s.apply(act("hide", discard=[1]))
    assert die.calls == 1 and out.entry["roll"] == 9 and s.state["table"]["temper"] == 4
    s.apply(act("pass"))
    s.apply(act("hide", discard=[2], roll=3))  # a physical die
    assert die.calls == 1 and s.state["last_roll"]["roll"] == 3
    rolls = [e["roll"] for _, e in journal.entries(s.game_id) if e["action"] == "hide"]
    assert rolls == [9, 3]

    class NoDice:
        def randrange(self, n):
            raise AssertionError("replay must not roll")

    again = Session.load(journal, s.game_id, rng=NoDice())
    assert canonical(again.state) == canonical(s.state)


def test_d10_is_uniform_over_100000_production_rolls():
    """Dice statistics: chi-square over 100 000 rolls of the Session's default rng through
    prepare; rejected only at p < 1e-6, so a fair die fails about once in a million runs."""
    rolls = dice.production_rolls(100_000)
    assert len(rolls) == 100_000 and set(rolls) <= set(range(10))
    result = dice.uniformity(rolls, alpha=1e-6)
    assert result["dof"] == 9
    assert result["p_value"] >= 1e-6, result


def test_the_uniformity_test_rejects_a_biased_die():
    """The uniformity test can fail: a modulo-biased die is rejected at the same level."""
    result = dice.uniformity(dice.biased_rolls(100_000), alpha=1e-6)
    assert result["p_value"] < 1e-6 and not result["uniform"]
    # A die that never shows one face is rejected too.
    assert not dice.uniformity([r for r in range(9) for _ in range(11_111)])["uniform"]


def test_chi_square_tail_matches_known_values():
    """The hand-made chi-square tail agrees with published tables (dof 9: 16.919 → 0.05, 21.666 → 0.01)."""
    assert dice.chi2_sf(16.919, 9) == pytest.approx(0.05, rel=1e-3)
    assert dice.chi2_sf(21.666, 9) == pytest.approx(0.01, rel=1e-3)
    assert dice.chi2_sf(27.877, 9) == pytest.approx(0.001, rel=1e-3)
    assert dice.chi2_critical(1e-6, 9) == pytest.approx(44.81, abs=0.01)


# -- cry like a baby -----------------------------------------------------------------------
def test_rb_llora_como_un_bebe_at_least_2_surplus_lost_turn_passes():
    """RB Llora como un bebé: discard cards worth at least 2; no change is given; the turn passes."""
    m = game()
    refused(m, act("cry", discard=[1]), "at least 2, not 1")
    refused(m, act("cry", discard=[1, 0]), "at least 2, not 1")
    refused(m, act("cry", discard=[1, 1]), "holds no more treasure cards worth 1")
    do(m, act("cry", discard=[3]))  # worth 3: the surplus 1 is lost
    assert P(m, "Ana")["cards"] == [2, 1, 0] and P(m, "Ana")["counters"]["treasure"] == 3
    assert turn(m)["player"] == "Ben" and table(m) == {"temper": 6, "dungeon": 10}


# -- powers --------------------------------------------------------------------------------
def test_rb_tarjetas_de_personaje_power_before_the_action_once_until_the_dragon():
    """RB Tarjetas de personaje: the power is used at the start of the turn, before the compulsory
    action; then it is turned until the dragon location is drawn."""
    m = game()
    do(m, act("power"))
    refused(m, act("power"), "power is used: it is ready again when the dragon comes up")
    do(m, act("charge", location="treasure_hall", value=2))
    refused(m, act("power"), "has charged this turn")
    do(m, act("again"))
    refused(m, act("power"), "Ana's power is used")
    do(m, CHARGE_DRAGON)
    assert P(m, "Ana")["power"] == "ready"


# -- treasure -------------------------------------------------------------------------------
def test_treasure_total_and_highest_follow_the_cards():
    """RB Fin del juego: each player's total and highest card follow draws and discards."""
    m = game()
    do(m, act("draw", player="Cai", value=7))
    assert P(m, "Cai")["counters"]["treasure"] == 10 and P(m, "Cai")["highest"] == 7
    do(m, act("discard", player="Cai", values=[7, 1]))
    assert P(m, "Cai")["cards"] == [1, 1, 0] and P(m, "Cai")["highest"] == 1
    refused(m, act("discard", player="Cai", values=[5]), "holds no more treasure cards worth 5")
    refused(m, act("discard", player="Cai", values=[]), "name the values")
    do(m, act("adjust", player="Ben", counter="treasure", delta=3))
    assert P(m, "Ben")["cards"] == [4, 3, 2, 1, 1]
    do(m, act("adjust", player="Ben", counter="treasure", delta=-4))
    assert P(m, "Ben")["cards"] == [3, 2, 1, 1] and P(m, "Ben")["highest"] == 3
    # a correction with no matching card: the largest cards cover it (3 + 2)
    do(m, act("adjust", player="Ben", counter="treasure", delta=-5))
    assert P(m, "Ben")["cards"] == [1, 1] and P(m, "Ben")["counters"]["treasure"] == 2
    # ... or the smallest bigger card, with the change given back as one card
    do(m, act("adjust", player="Ben", counter="treasure", delta=6))
    do(m, act("adjust", player="Ben", counter="treasure", delta=-4))
    assert sorted(P(m, "Ben")["cards"]) == [1, 1, 2] and P(m, "Ben")["highest"] == 2
    # a transfer moves value, only as much as the giver has (contract: transfer)
    do(m, act("transfer", **{"from": "Ben", "to": "Ana", "counter": "treasure", "amount": 3}))
    assert P(m, "Ana")["highest"] == 3 and P(m, "Ana")["counters"]["treasure"] == 9
    assert P(m, "Ben")["counters"]["treasure"] == 1
    do(m, act("transfer", **{"from": "Ben", "to": "Ana", "counter": "treasure", "amount": 5}))
    assert P(m, "Ben")["cards"] == [] and P(m, "Ana")["counters"]["treasure"] == 10
    do(m, act("adjust", player="Cai", counter="treasure", delta=23))  # more than one card can be worth
    assert sorted(P(m, "Cai")["cards"])[-3:] == [3, 10, 10]
    do(m, act("adjust", player="Ana", counter="treasure", delta=-50))  # bounds clamp: the whole hand
    assert P(m, "Ana")["cards"] == [] and P(m, "Ana")["counters"]["treasure"] == 0


def test_rb_talismanes_only_on_the_own_turn_and_from_hand():
    """RB Pociones y talismanes: played during one's own turn; a talisman stays in front of the player."""
    m = game()
    refused(m, act("talisman", player="Ben", value=4), "it is Ana's turn, not Ben's")
    refused(m, act("talisman", value=9), "holds no more treasure cards worth 9")
    do(m, act("talisman", value=3))
    assert P(m, "Ana")["talismans"] == [3] and P(m, "Ana")["counters"]["treasure"] == 3


def test_temper_never_rises():
    """RB Prueba de fuga: the dragon only loses temper; a raise is refused (undo corrects)."""
    m = game()
    do(m, act("adjust", counter="temper", delta=-1))
    refused(m, act("adjust", counter="temper", delta=1), "never rises")


# -- the end ----------------------------------------------------------------------------------
def test_rb_fin_del_juego_temper_0_richest_survivor_wins():
    """RB Fin del juego: temper 0 → the survivor with the most valuable treasure wins."""
    m = game()
    do(m, act("adjust", counter="temper", delta=-5))
    do(m, CHARGE_DRAGON)  # Ana injured, temper 0
    v = m.view()
    assert v["over"] and v["winners"] == ["Ben"] and not v["draw"] and v["dragon_won"] is False
    assert turn(m)["phase"] == "over"


def test_rb_fin_del_juego_tie_goes_to_the_highest_card():
    """RB Fin del juego: a tie on treasure goes to the player with the highest treasure card."""
    m = game(hands={"Ana": [3, 3, 2, 0], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 1]})
    do(m, act("adjust", counter="temper", delta=-5), CHARGE_DRAGON)  # Ana injured → temper 0
    v = m.view()
    # Ana 8 (highest 3), Ben 8 (highest 4), Cai 4.
    assert v["over"] and v["winners"] == ["Ben"] and v["draw"] is False and v["dragon_won"] is False
    # Without Ben's 4 the order flips: the highest card decides, not the seat.
    m = game(hands={"Ana": [3, 3, 2, 0], "Ben": [2, 2, 2, 2], "Cai": [1, 1, 1, 1]})
    do(m, act("adjust", counter="temper", delta=-5), CHARGE_DRAGON)
    assert m.view()["winners"] == ["Ana"]


def test_rb_fin_del_juego_only_survivors_count():
    """RB Fin del juego: the surviving adventurers count their treasure; the dead had theirs discarded."""
    m = game(hands={"Ana": [1, 1, 1, 0], "Ben": [2, 2, 1, 1], "Cai": [9, 9, 9, 9]})
    do(m, act("adjust", player="Cai", counter="wounds", delta=2))
    do(m, act("adjust", counter="temper", delta=-5), CHARGE_DRAGON)
    assert m.view()["winners"] == ["Ben"]


def test_rb_fin_del_juego_a_full_tie_is_shared():
    """RB Fin del juego (interpretation): equal treasure and equal highest card → a shared win, not a draw."""
    m = game(players=("Ana", "Ben"), hands={"Ana": [3, 2, 1, 0], "Ben": [3, 1, 1, 1]})
    do(m, act("adjust", counter="temper", delta=-4), CHARGE_DRAGON)
    v = m.view()
    assert v["over"] and sorted(v["winners"]) == ["Ana", "Ben"] and v["draw"] is False


def test_rb_fin_del_juego_all_dead_the_dragon_wins():
    """RB Fin del juego: all adventurers killed → the dragon wins (dragon_won, no winners)."""
    m = game(players=("Ana", "Ben"))
    do(m, CHARGE_DRAGON, CHARGE_DRAGON, CHARGE_DRAGON)  # Ana, Ben injured; Ana dies
    assert not m.state["over"]
    do(m, CHARGE_DRAGON)  # Ben dies
    v = m.view()
    assert v["over"] and v["dragon_won"] is True and v["winners"] == [] and not v["draw"]
    assert m.state["dragon_won"] is True


def test_after_the_end_only_undo(journal):
    """After the end every action but undo is refused with the reason."""
    s = new_session(journal, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [1] * 4, "Ben": [1] * 4}})
    for _ in range(4):
        s.apply(CHARGE_DRAGON)
    assert s.state["over"]
    for entry in (CHARGE_OTHER, act("pass"), act("adjust", counter="dungeon", delta=-1), act("resolve"),
                  act("hide", discard=[1]), act("draw", player="Ana", value=1)):
        before = canonical(s.state)
        with pytest.raises(RuleError, match=r"the game is over \(the dragon won\); only undo is possible"):
            s.apply(entry)
        assert canonical(s.state) == before
    s.apply({"action": "undo"})
    assert not s.state["over"] and s.view()["dragon_won"] is False


# -- scripted games through `tablekeeper replay` ------------------------------------------------
def test_script_dragon_wins_through_tablekeeper_replay():
    """RB Fin del juego (all dead → dragon wins), scripted with recorded rolls, run as a user would."""
    r = replay_cli(SCRIPTS / "dragon-run-dragon-wins.jsonl")
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    assert v["over"] and v["dragon_won"] is True and v["winners"] == [] and v["draw"] is False
    assert v["table"] == {"temper": 1, "dungeon": 10}
    assert {p["name"]: (p["counters"], p["out"]) for p in v["players"]} == {
        "Ana": ({"wounds": 2, "treasure": 0}, True), "Ben": ({"wounds": 2, "treasure": 0}, True)}
    assert v["last_roll"] == {"player": "Ana", "roll": 3, "dungeon": 10, "escaped": False}


def test_script_survivors_tie_broken_by_the_highest_card_through_tablekeeper_replay():
    """RB Fin del juego: temper 0, survivors tied at 6, Ben's 4 beats Ana's 3 (a dead Cai does not count)."""
    r = replay_cli(SCRIPTS / "dragon-run-tie-break.jsonl")
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    assert v["over"] and v["winners"] == ["Ben"] and v["draw"] is False and v["dragon_won"] is False
    assert v["table"]["temper"] == 0
    players = {p["name"]: p for p in v["players"]}
    assert players["Ana"]["counters"] == {"wounds": 1, "treasure": 6} and players["Ana"]["highest"] == 3
    assert players["Ben"]["counters"] == {"wounds": 1, "treasure": 6} and players["Ben"]["highest"] == 4
    assert players["Cai"]["out"] and players["Cai"]["counters"]["wounds"] == 2


def test_script_a_line_after_the_end_is_refused_with_its_number():
    """The contract: after the end, the next line is refused (exit 2, line N)."""
    lines = (SCRIPTS / "dragon-run-dragon-wins.jsonl").read_text().splitlines()
    r = replay_cli("\n".join(lines + ['{"action": "charge", "location": "other"}']) + "\n")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"line {len(lines) + 1}: the game is over (the dragon won)")
    with pytest.raises(ScriptError, match="must charge"):
        replay([json.loads(lines[0]), *map(json.loads, lines[1:7]), {"action": "pass"}])


def test_docs_worked_example_matches_replay():
    """docs/games/dragon-run.md: the worked example's output is what replay prints."""
    text = (ROOT / "docs" / "games" / "dragon-run.md").read_text(encoding="utf-8")
    example = text.split("## Worked example", 1)[1]
    blocks = example.split("```")
    script = [json.loads(line) for line in blocks[1].strip().splitlines()]
    shown = json.loads(blocks[3].removeprefix("json"))
    assert replay(script) == shown


# -- pods ----------------------------------------------------------------------------------------
def test_pod_shows_temper_and_offers_legal_routine_actions():
    """Pod hooks: the seat sees its treasure and wounds, the temper and dungeon; the main button is legal."""
    m = game()
    view = m.rules.seat_view(m.state, "Ana")
    assert view["counters"][0] == ["treasure", 6] and view["table"][:2] == [["temper", 6], ["dungeon", 10]]
    offered = m.rules.seat_actions(m.state, "Ana")
    # 10 location cards left: no hide offered (no face of the d10 beats 10)
    assert [o["label"] for o in offered] == ["other room: pass", "dragon", "other room: again",
                                             "treasure hall: pass", "treasure hall: again", "room + treasure: pass",
                                             "room + treasure: again", "other room: go on", "room: discard 1, pass", "room: discard 1, again", "room: discard 1, go on",
        "room: give 1 left, pass", "room: give 1 left, again",
        # two treasures drawn, right after the usual discard and gift (two play-testers found them behind the other
        # values' lines)
        "2 treasures: pass", "2 treasures: again", "2 treasures, keep 1: pass", "2 treasures, keep 1: again",
        "room: discard", "room: give left",
        # a card of the player's choice, each other value held (a 0 too: a worthless card is thrown away)
        "room: discard 0, pass", "room: discard 0, again", "room: discard 0, go on", "room: discard 2, pass",
        "room: discard 2, again", "room: discard 2, go on", "room: discard 3, pass", "room: discard 3, again",
        "room: discard 3, go on",
        # and given to the left, last of the rooms (a play-tester's trap room took a potion worth 0)
        "room: give 0 left, pass", "room: give 0 left, again", "room: give 2 left, pass", "room: give 2 left, again",
        "room: give 3 left, pass", "room: give 3 left, again", "potion: wound Ben", "potion: wound Cai", "room: wound Ben, pass", "room: wound Ben, again", "room: others discard 1, pass",
                                             "room: others discard 1, again",
        "room: all give 1 left, pass", "room: all give 1 left, again", "2 + others 1: pass", "2 + others 1: again",
        "room: each draws 1, pass", "room: each draws 1, again", "room: others draw 1, pass", "room: others draw 1, again", "cry", "cry: discard 3", "cry: discard 2",
                                             "talisman: 3", "talisman: 2", "talisman: 1", "talisman: 0", "potion: draw 2", "potion", "power", "power: discard, draw", "power: draw a card",
                                             "power: a card from Cai", "power: a card from Ben"]
    assert offered[-12]["action"]["discard"] == [2]  # the cheapest cry, before the talismans, potions and the power's five
    assert m.rules.seat_actions(m.state, "Ben") == []  # no potion played: nothing to cancel
    do(m, act("adjust", counter="dungeon", delta=-2))
    offered = m.rules.seat_actions(m.state, "Ana")
    assert offered[5]["label"] == "hide: discard 1" and offered[5]["action"]["discard"] == [1]
    do(m, act("hide", discard=[1], roll=2))
    assert m.rules.seat_view(m.state, "Ana")["alert"] is True
    assert [o["label"] for o in m.rules.seat_actions(m.state, "Ana")] == [
        "other room: pass", "dragon", "other room: again", "treasure hall: pass", "treasure hall: again",
        "room + treasure: pass", "room + treasure: again", "other room: go on", "room: discard 2, pass", "room: discard 2, again",
        "room: discard 2, go on", "room: give 2 left, pass", "room: give 2 left, again", "2 treasures: pass", "2 treasures: again", "2 treasures, keep 1: pass", "2 treasures, keep 1: again",
        "room: discard", "room: give left",
        "room: discard 0, pass", "room: discard 0, again", "room: discard 0, go on", "room: discard 3, pass",
        "room: discard 3, again", "room: discard 3, go on", "room: give 0 left, pass", "room: give 0 left, again",
        "room: give 3 left, pass",
        "room: give 3 left, again", "potion: wound Ben", "potion: wound Cai", "room: wound Ben, pass", "room: wound Ben, again", "room: others discard 1, pass", "room: others discard 1, again",
        "room: all give 1 left, pass", "room: all give 1 left, again", "2 + others 1: pass", "2 + others 1: again",
        "room: each draws 1, pass", "room: each draws 1, again", "room: others draw 1, pass", "room: others draw 1, again", "potion: draw 2", "potion",
        "talisman: 3", "talisman: 2", "talisman: 0"]


def test_cheapest_discard_for_the_pod():
    """Pod hooks + RB Ocultar / Llora como un bebé: the pod's hide/cry discard the cheapest cards worth ≥ 1 / ≥ 2."""
    assert _cheapest([3, 1, 1, 0], 2) == [1, 1]
    assert _cheapest([2, 1, 1, 1], 2) == [2]
    assert _cheapest([0, 1], 2) is None
    assert _cheapest([5, 4], 1) == [4]


# -- Hypothesis: random play with undo/redo ----------------------------------------------------------
NAMES = ["Ana", "Ben", "Cai", "Dan", "Eva"]


def cards_counted(state: dict) -> int:
    """Every treasure card the device knows of: deck, discard, hands, talismans in play, hands still to enter."""
    pile = state["treasure_deck"]
    return (pile["deck"] + pile["discard"] + 4 * len(state["to_deal"])
            + sum(len(p["cards"]) + p["unknown"] + len(p["talismans"]) for p in state["players"]))
card = st.integers(0, 6)


class DragonRunMachine(RuleBasedStateMachine):
    """Random sequences of every action (legal or not), undo and redo, checked after each step."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="dragon-run-")
        self.journal = Journal(self.dir, durable=False)
        self.session: Session | None = None

    @initialize(n=st.integers(2, 5), dealt=st.sampled_from([True, True, True, False]), seed=st.integers(0, 2**32),
                hands=st.lists(st.lists(card, min_size=4, max_size=4), min_size=5, max_size=5),
                first=st.integers(0, 4))
    def setup(self, n, dealt, seed, hands, first):
        self.players = NAMES[:n]
        options = {"first": self.players[first % n]}
        if dealt:
            options["hands"] = dict(zip(self.players, hands))
        self.hands = dict(zip(self.players, hands))
        self.session = Session.new(self.journal, "dragon-run", self.players, options, rng=random.Random(seed))

    def teardown(self):
        self.journal.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- applying ------------------------------------------------------------------------
    def attempt(self, entry: dict) -> None:
        s = self.session
        before_state = canonical(s.state)
        before = json.loads(before_state)
        dead = {p["name"] for p in before["players"] if p["out"]}
        try:
            out = s.apply(entry)
        except RuleError:
            assert canonical(s.state) == before_state
            event(f"refused {entry['action']}")
            return
        event(f"accepted {entry['action']}" + (" (game over)" if s.state["over"] else ""))
        if out.kind in ("undo", "redo"):
            return
        # The dead never act.
        assert entry.get("player") not in dead or entry["action"] in ("undo", "redo")
        assert entry.get("from") not in dead and entry.get("to") not in dead
        if entry["action"] == "hide":  # RB Prueba de fuga: escape iff the roll beats the deck; 0 never does
            roll = s.state["last_roll"]
            assert roll["escaped"] == (roll["roll"] != 0 and roll["roll"] > before["table"]["dungeon"])
        # RB Nota (mazo del tesoro): the treasure cards are only moved between the deck, its discard, the hands
        # and the talismans in play (corrections of values and a draw the count cannot allow aside).
        if entry["action"] not in ("adjust", "transfer") and not any("check the treasure deck" in e
                                                                      for e in out.events):
            assert cards_counted(s.state) == cards_counted(before)
        if entry["action"] == "play" and not entry["cancel"]:  # RB Pociones: only the cancel potion off-turn
            assert entry["player"] == before["turn"]["player"]
        # Temper never rises; the dead stay dead.
        assert s.state["table"]["temper"] <= before["table"]["temper"]
        assert dead <= {p["name"] for p in s.state["players"] if p["out"]}

    def held(self, data, who: str) -> list[int]:
        cards = next(p for p in self.session.state["players"] if p["name"] == who)["cards"]
        if cards and data.draw(st.booleans()):
            return data.draw(st.lists(st.sampled_from(cards), min_size=1, max_size=3))
        return data.draw(st.lists(card, max_size=3))

    def active(self) -> str:
        return self.session.state["turn"]["player"]

    # -- rules ------------------------------------------------------------------------------
    @rule(location=st.sampled_from(["dragon", "dragon", "treasure_hall", "other", "other"]), value=card,
          then=st.sampled_from([None, None, "pass", "again"]))
    def charge(self, location, value, then):
        entry = act("charge", location=location)
        if location == "treasure_hall" and value < 5:  # else the card's value is not entered (asked when needed)
            entry["value"] = value
        if then is not None:
            entry["then"] = then
        self.attempt(entry)

    @rule(who=st.sampled_from([None, "Ana"]))
    def the_dragon(self, who):
        """The dragon comes up often enough for games to end inside a run."""
        entry = act("charge", location="dragon")
        if who in self.players:
            entry["player"] = who
        self.attempt(entry)

    @rule(data=st.data(), roll=st.one_of(st.none(), st.integers(0, 9), st.just(9)))
    def hide(self, data, roll):
        entry = act("hide", discard=self.held(data, self.active()))
        if roll is not None:
            entry["roll"] = roll
        self.attempt(entry)

    @rule(data=st.data())
    def cry(self, data):
        self.attempt(act("cry", discard=self.held(data, self.active())))

    @rule(name=st.sampled_from(["pass", "again", "power", "pass"]), who=st.sampled_from(NAMES + [None]))
    def simple(self, name, who):
        entry = act(name)
        if who is not None and who in self.players:
            entry["player"] = who
        self.attempt(entry)

    @rule(data=st.data(), kind=st.sampled_from(["draw", "discard", "talisman", "play"]), who=st.sampled_from(NAMES))
    def cards(self, data, kind, who):
        who = who if who in self.players else self.active()
        if kind == "play":
            self.attempt(act("play", player=who, value=data.draw(card), cancel=data.draw(st.booleans())))
        elif kind == "draw":
            value = data.draw(st.one_of(st.none(), card))
            self.attempt(act("draw", player=who) if value is None else act("draw", player=who, value=value))
        elif kind == "discard":
            self.attempt(act("discard", player=who, values=self.held(data, who)))
        else:
            self.attempt(act("talisman", player=who, value=data.draw(card)))

    @rule(who=st.sampled_from(NAMES))
    def deal(self, who):
        if who in self.players:
            # Either the 4 values, or none: the values are asked when the cards leave the hand.
            values = self.hands[who] if self.hands[who][0] % 2 == 0 else []
            self.attempt(act("deal", player=who, values=values))

    @rule(who=st.sampled_from(NAMES), extra=st.integers(-1, 12), highest=st.one_of(st.none(), st.integers(0, 10)))
    def count(self, who, extra, highest):
        """RB Fin del juego: «Los jugadores cuentan las monedas de oro en sus cartas del tesoro»."""
        known = sum(next((p["cards"] for p in self.session.state["players"] if p["name"] == who), []))
        total = max(0, known + extra)
        entry = act("count", player=who, total=total)
        if highest is not None:
            entry = act("count", player=who, highest=highest) if total % 2 else dict(entry, highest=highest)
        self.attempt(entry)

    @rule(counter=st.sampled_from(["wounds", "treasure", "temper", "dungeon", "dungeon"]), delta=st.integers(-9, 3),
          who=st.sampled_from(NAMES))
    def adjust(self, counter, delta, who):
        entry = act("adjust", counter=counter, delta=delta)
        if counter in ("wounds", "treasure"):
            entry["player"] = who if who in self.players else self.active()
        self.attempt(entry)

    @rule()
    def undo(self):
        self.attempt({"action": "undo"})

    @rule()
    def redo(self):
        self.attempt({"action": "redo"})

    @rule()
    def undo_then_redo_is_identity(self):
        s = self.session
        if not s.match.done:
            return
        before = canonical(s.state)
        s.apply({"action": "undo"})
        s.apply({"action": "redo"})
        assert canonical(s.state) == before

    # -- invariants ------------------------------------------------------------------------------
    @invariant()
    def counters_and_cards_agree(self):
        if self.session is None:
            return
        st_ = self.session.state
        assert 0 <= st_["table"]["dungeon"] <= 10 and 0 <= st_["table"]["temper"] <= 8
        for p in st_["players"]:
            c = p["counters"]
            assert 0 <= c["wounds"] <= 2
            assert p["out"] == (c["wounds"] == 2)
            assert c["treasure"] == sum(p["cards"]) + (p["unknown_worth"] or 0)
            assert p["highest"] >= max(p["cards"], default=0)
            if not p["unknown"]:
                assert p["highest"] == max(p["cards"], default=0) and p["unknown_worth"] is None
            if p["out"]:
                assert p["cards"] == [] and p["talismans"] == [] and p["unknown"] == 0
        alive = [p["name"] for p in st_["players"] if not p["out"]]
        if st_["over"]:
            assert st_["turn"]["phase"] == "over"
            assert st_["dragon_won"] == (not alive)
            assert set(st_["winners"]) <= set(alive)
            assert st_["dragon_won"] or st_["winners"]
            assert st_["dragon_won"] or st_["table"]["temper"] == 0
        elif st_["turn"]["phase"] == "count":
            # «Los jugadores cuentan las monedas de oro en sus cartas del tesoro»: the device waits only for
            # the survivors whose hands hold cards it does not know (or, for a tie, their highest card).
            assert st_["table"]["temper"] == 0 and st_["to_count"] and set(st_["to_count"]) <= set(alive)
            assert all(next(p for p in st_["players"] if p["name"] == n)["unknown"] for n in st_["to_count"])
        else:
            assert st_["turn"]["player"] in alive and st_["table"]["temper"] > 0
            assert st_["dragon_won"] is False and st_["turn"]["phase"] != "over" and not st_["to_count"]

    @invariant()
    def the_treasure_deck_is_reshuffled_when_it_runs_out(self):
        """RB Nota: «si alguna vez te quedas sin cartas en el mazo del tesoro, vuelve a mezclar»."""
        if self.session is None:
            return
        pile = self.session.state["treasure_deck"]
        assert pile["deck"] >= 0 and pile["discard"] >= 0
        assert pile["deck"] > 0 or pile["discard"] == 0

    @invariant()
    def replay_of_the_journal_is_equal(self):
        if self.session is None:
            return
        again = Session.load(self.journal, self.session.game_id)
        assert canonical(again.state) == canonical(self.session.state)

    @invariant()
    def offered_pod_actions_are_legal(self):
        if self.session is None:
            return
        rules, state = self.session.rules, self.session.state
        for name in self.players:
            for item in rules.seat_actions(state, name):
                action = dict(item["action"])
                if action["action"] == "deal":  # the offer asks the 4 values: any 4 will do here
                    action["values"] = [0] * 4
                entry = rules.prepare(state, action, random.Random(0))
                rules.apply(state, entry)  # raises if the pod offered an illegal action


DragonRunMachine.TestCase.settings = settings(
    max_examples=examples(60), stateful_step_count=steps(60), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_hypothesis_random_play_keeps_the_rules = DragonRunMachine.TestCase


# -- a character's power and what its card does ---------------------------------------------------
POWER = "«Cada personaje tiene un poder único, como se indica en su tarjeta de personaje»"


def test_a_room_that_heals_its_player_is_one_entry_for_an_injured_player():
    """«Otras tarjetas de ubicación: Aplicar el efecto indicado en la tarjeta»: a room whose card heals (a
    fifth reader's chapel) turns an injured player's card back, with its charge and icon, one offer while
    the player is injured; refused for an unhurt one."""
    m = game()
    offered = [o["label"] for o in m.rules.seat_actions(m.state, "Ana")]
    assert "room: healed, again" not in offered
    refused(m, act("room", heal=True, then="again"), "Ana is not injured")
    m.state["players"][0]["counters"]["wounds"] = 1  # Ana injured
    healed = next(o for o in m.rules.seat_actions(m.state, "Ana") if o["label"] == "room: healed, again")
    dungeon = m.state["table"]["dungeon"]
    do(m, healed["action"])
    ana = m.state["players"][0]
    assert ana["counters"]["wounds"] == 0 and m.state["table"]["dungeon"] == dungeon - 1
    assert m.state["turn"]["player"] == "Ana"  # another turn, as its icon says


def test_a_power_that_swaps_a_card_of_the_hand_for_one_of_the_deck_is_one_entry():
    """«Cada personaje tiene un poder único»: a table's own character (a fifth rulebook reader's Mercader)
    discards a treasure card, then draws one — one power, its two cards; the pod offers it with the
    cheapest card held as the one discarded, and once used it is the only effect offered."""
    m = game()
    swap = next(o for o in m.rules.seat_actions(m.state, "Ana") if o["label"] == "power: discard, draw")
    assert swap["ask"] == ["discard", "value"] and swap["action"]["discard"] == 0  # the cheapest: a potion
    # which number is which, on the pod (a play-tester took "discard 0" for a count)
    assert m.rules.pod_value_words(m.state, "Ana", "power", "discard", 0, entered=swap["action"]) == "the card's value"
    assert m.rules.pod_value_words(m.state, "Ana", "power", "value", 1, entered=swap["action"]) == "the card drawn"
    refused(m, act("power", discard=1), "a card discarded goes with a card drawn")
    deck, discard = m.state["treasure_deck"]["deck"], m.state["treasure_deck"]["discard"]
    do(m, {**swap["action"], "discard": 1, "value": 4})
    ana = m.state["players"][0]
    assert sorted(ana["cards"]) == [0, 2, 3, 4] and ana["counters"]["treasure"] == 9
    assert (m.state["treasure_deck"]["deck"], m.state["treasure_deck"]["discard"]) == (deck - 1, discard + 1)
    assert cards_counted(m.state) == cards_counted(game().state)
    m.state["players"][0]["power"] = "ready"  # as after the dragon came up
    # once used, a line per value held, the cheapest one press up from the first offer: only the card drawn
    # asked (a play-tester's Mercader took 5 presses a turn)
    offers = m.rules.seat_actions(m.state, "Ana")
    powers = [o for o in offers if o["action"]["action"] == "power"]
    assert [o["label"] for o in powers] == ["power: discard 4, draw", "power: discard 3, draw", "power: discard 2, draw",
                                            "power: discard 0, draw"]
    assert offers[-1] is powers[-1] and offers[-1]["ask"] == ["value"] and offers[-1]["action"]["discard"] == 0
    after = m.rules.apply(m.state, {**powers[-2]["action"], "value": 1})[0]
    assert sorted(after["players"][0]["cards"]) == [0, 1, 3, 4]


def test_a_power_that_takes_a_card_from_another_hand_takes_one_worth_zero_too():
    """A card taken by a power moves between the hands: a potion or a talisman (worth 0) as well, which the
    generic transfer of treasure cannot move."""
    m = game()
    cai_before = sorted(m.state["players"][2]["cards"])
    assert cai_before == [0, 1, 1, 1]
    do(m, {"action": "power", "take_from": "Cai", "value": 0})
    ana, cai = m.state["players"][0], m.state["players"][2]
    assert ana["power"] == "used" and sorted(ana["cards"]) == [0, 0, 1, 2, 3] and ana["power_kind"] == "take"
    assert sorted(cai["cards"]) == [1, 1, 1]


def test_a_power_that_draws_or_heals():
    m = game()
    deck = m.state["treasure_deck"]["deck"]
    do(m, {"action": "power", "draw": True, "value": 4})
    assert 4 in m.state["players"][0]["cards"] and m.state["treasure_deck"]["deck"] == deck - 1
    m = game()
    m.state["players"][1]["counters"]["wounds"] = 1  # Ben injured
    do(m, {"action": "power", "heal": "Ben"})
    assert m.state["players"][1]["counters"]["wounds"] == 0 and m.state["players"][0]["power_kind"] == "heal"


def test_a_power_that_takes_the_top_of_the_treasure_discard():
    """A ninth rulebook reader's Mago «toma la carta de arriba del descarte de tesoro», three times: entered as a draw,
    the device took the card from the deck (deck −1 where the table's discard was −1). ``from_discard``: the
    discard gives it, the deck is as it was; with an empty discard it is refused."""
    m = game()
    with pytest.raises(RuleError, match="discard pile is empty"):
        m.apply({"action": "power", "draw": True, "value": 0, "from_discard": True})
    m.apply({"action": "discard", "player": "Ana", "values": [1]})
    deck = dict(m.state["treasure_deck"])
    do(m, {"action": "power", "draw": True, "value": 1, "from_discard": True})
    assert m.state["treasure_deck"] == {"deck": deck["deck"], "discard": deck["discard"] - 1}
    assert 1 in m.state["players"][0]["cards"]
    m = game()
    m.apply({"action": "discard", "player": "Ana", "values": [1]})  # the pod's line, while the discard holds a card
    line = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "power: discard's top card")
    assert line["action"]["from_discard"] is True and line["ask"] == ["value"]


@pytest.mark.parametrize("power, says", [
    ({"from_discard": True}, "goes with a card drawn"),
    ({"take_from": "Ben", "draw": True, "value": 1}, "one effect at a time"),
    ({"take_from": "Ben"}, "give the value"),
    ({"value": 2}, "a value goes with a card taken or drawn"),
    ({"take_from": "Ana", "value": 2}, "another adventurer's hand"),
    ({"heal": "Ben"}, "Ben is not injured"),
])
def test_a_power_with_an_effect_that_cannot_be_is_refused_and_changes_nothing(power, says):
    m = game()
    before = json.dumps(m.state, sort_keys=True)
    with pytest.raises(RuleError, match=says):
        m.apply({"action": "power", **power})
    assert json.dumps(m.state, sort_keys=True) == before


def test_the_power_used_before_is_the_only_one_offered_the_next_time():
    """«Cada personaje tiene un poder único»: before its first use every effect a character card may have
    is offered, up from the first offer, the plain power (nothing moves) farthest — a play-tester's Rogue
    spent her power for nothing on the plain power one press up. Once the card showed what it does (a
    card taken from another hand), that effect is the only one offered the next time it is ready."""
    m = game()
    offers = m.rules.seat_actions(m.state, "Ana")
    powers = [o for o in offers if o["action"]["action"] == "power"]
    assert offers[-1]["action"] == {"action": "power", "player": "Ana", "take_from": "Ben", "value": 1}
    assert powers[0]["label"] == "power" and len(powers) > 3  # the plain power: the farthest up
    do(m, {"action": "power", "take_from": "Cai", "value": 0})
    m.state["players"][0]["power"] = "ready"  # as after the dragon came up
    offers = m.rules.seat_actions(m.state, "Ana")
    last = offers[-1]
    # a card from each other hand, from the left (the value starts at the least that hand may hold)
    assert last["action"] == {"action": "power", "player": "Ana", "take_from": "Ben", "value": 1}
    assert offers[-2]["action"]["take_from"] == "Cai"
    assert [o["action"].get("take_from") for o in offers if o["action"]["action"] == "power"] == ["Cai", "Ben"]
    assert last["ask"] == ["value"]
    # a power that moved no card (the Ranger's look): the plain power alone, one press up
    m = game()
    do(m, {"action": "power"})
    m.state["players"][0]["power"] = "ready"
    assert [o["label"] for o in m.rules.seat_actions(m.state, "Ana") if o["action"]["action"] == "power"] == ["power"]
