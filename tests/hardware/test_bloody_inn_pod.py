"""The Bloody Inn from the pods, at the level of the game's hooks (``seat_actions``, ``pod_field``)
and :func:`tablekeeper.hardware.grammar.menu` / :func:`asks`: routine actions from the acting
player's own pod, every field the device knows filled, only what the player decides asked.
Rules: ../shared/seeds/bloody-inn.es.txt ("Fase 1", "Fase 2") and RULES.md.
"""
from __future__ import annotations

import pytest

from tablekeeper.engine.errors import RuleError
from tablekeeper.engine.match import Match
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware import grammar
from tablekeeper.hardware.pod import DOWN, MAIN, UP

from .test_controller import Table


def table(actions=()) -> Match:
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {}}))
    for a in actions:
        m.apply(a)
    return m


def items(m: Match, who: str) -> dict[str, grammar.Item]:
    return {str(i.label): i for i in grammar.menu(m.rules, m.state, who) if i.kind == grammar.SEAT}


def asked(m: Match, who: str, item: grammar.Item) -> list[str]:
    return [a.field.name for a in grammar.asks(m.rules, m.state, who, item) or ()]


def test_the_welcome_from_the_first_players_pod_asks_only_the_police():
    """«El primer jugador es responsable de dar la bienvenida a los viajeros»: one press, or the
    police rooms when a police officer arrives."""
    m = table()
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["welcome"]) == []
    assert asked(m, "Ana", menu["welcome: police"]) == ["police_rooms"]
    assert items(m, "Ben") == {}


def test_a_first_round_kill_is_offered_per_rank_and_asks_only_the_room():
    """«Selecciona al Viajero que quieras matar … Juegue … tantas cartas … como rango»: the rank is on
    the card, so it is the offer; with a hand of peasants the cards played are known: only the room."""
    m = table([{"action": "welcome"}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["kill a rank-2 guest"]) == ["room"]
    assert asked(m, "Ana", menu["bribe a rank-0 guest"]) == ["room"]
    assert "kill a rank-3 guest" not in menu  # two cards in hand: a rank-3 guest costs 3
    # The room starts at the first guest who is not in your own room (room 1 is Ana's key).
    assert menu["kill a rank-2 guest"].action["room"] == 2
    action = grammar.complete(menu["kill a rank-2 guest"],
                              grammar.asks(m.rules, m.state, "Ana", menu["kill a rank-2 guest"]), {"room": 2})
    after, _events = grammar.dry_run(m.rules, m.state, action)
    assert after["players"][0]["corpses"] == [{"rank": 2, "money": 18}] and after["players"][0]["hand"] == 0


def test_a_mixed_hand_starts_the_peasants_at_the_most_and_asks_kept_only_for_a_traveller_played():
    """«si jugaste con Campesinos, colócalos en el bistró … devuelva las cartas con el icono a su mano»:
    the peasants played start at the most the hand allows; a traveller played besides may come back."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])  # 2 peasants, 1 traveller
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["kill a rank-2 guest"]) == ["room", "peasants"]
    assert menu["kill a rank-2 guest"].action["peasants"] == 2
    assert asked(m, "Ana", menu["kill a rank-3 guest"]) == ["room", "kept"]  # all three cards: the traveller too
    # The one traveller is the annex: the cost is paid in peasants, known.
    assert asked(m, "Ana", menu["build an annex"]) == ["rank", "name", "effect"]


def test_bistro_bribes_and_kills_are_one_press():
    """«puede tomar uno o dos (su elección…)»: the bistro's peasants, rank 0, cost nothing."""
    m = table([{"action": "welcome"}, {"action": "kill", "room": 1, "rank": 2}])  # 2 peasants to the bistro
    menu = items(m, "Ben")
    assert asked(m, "Ben", menu["bribe: 2 peasants"]) == []
    assert menu["bribe: 2 peasants"].action == {"action": "bribe", "player": "Ben", "bistro": 2}
    assert asked(m, "Ben", menu["kill: bistro"]) == []


def test_burials_offer_each_annex_with_room_by_name():
    """«debajo de un anexo de su elección, independientemente de quién sea el propietario»:
    one line per annex with room, yours first; the corpse is filled when there is one kind."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "build", "rank": 2, "name": "distillery", "peasants": 2},
               {"action": "kill", "room": 2, "rank": 0}, {"action": "pass"}])
    menu = items(m, "Ben")
    assert {"bury: barn", "bury: Ana's distillery"} <= set(menu)
    assert menu["bury: Ana's distillery"].action == {"action": "bury", "player": "Ben", "corpse": 1, "owner": "Ana",
                                                    "annex": "distillery"}
    assert asked(m, "Ben", menu["bury: Ana's distillery"]) == []
    after, _events = grammar.dry_run(m.rules, m.state, menu["bury: Ana's distillery"].action)
    assert after["players"][0]["annexes"][1]["buried"] == [{"money": 8, "by": "Ben"}]


def test_free_text_fields_become_short_lists_on_a_pod():
    """An annex's name cannot be typed on four buttons: the base game's annexes, and for a burial
    the annexes built."""
    m = table([{"action": "welcome"}])
    build = m.rules.actions["build"]
    name = m.rules.pod_field(m.state, "Ana", "build", build.field("name"))
    assert name is not None and "distillery" in (name.choices or ())
    effect = m.rules.pod_field(m.state, "Ana", "build", build.field("effect"))
    assert effect is not None and "morning_bonus" in (effect.choices or ())
    annex = m.rules.pod_field(m.state, "Ana", "bury", m.rules.actions["bury"].field("annex"))
    assert annex is not None and annex.choices == ("barn",)


def test_no_build_is_offered_for_a_hand_whose_only_traveller_is_police():
    """«Las cartas de Policía y Campesino no pueden convertirse en anexos»."""
    m = table([{"action": "welcome", "police_rooms": [5]}, {"action": "bribe", "room": 5, "rank": 0},
               {"action": "pass"}])
    assert "build an annex" not in items(m, "Ana")


# -- button by button, presses counted (tests/hardware/test_controller.py's Table) ---------------------


def test_the_welcome_with_a_police_officer_is_two_presses():
    """«Coloque al viajero en una habitación abierta»: the first player holds down to "welcome: police
    in room 5" and presses main; the room's traveller is marked police."""
    t = Table("bloody-inn", ["Ana", "Ben"])
    assert t.view("Ana").action == "welcome"
    t.hold("Ana", DOWN, repeats=3)  # press, hold, 3 repeats: five offers down
    assert t.view("Ana").action == "welcome: police in room 5"
    t.click("Ana", MAIN)
    assert t.done == [{"action": "welcome", "police_rooms": [5]}] and t.presses == 2
    assert [r["room"] for r in t.state["inn"]["rooms"] if r["police"]] == [5]


def test_a_first_round_kill_from_the_pod_is_four_presses():
    """«Mata a un invitado … Juegue en la mesa tantas cartas … como rango»: Ana kills the rank-1
    guest in room 3 with a peasant: the offer, main, the room, main."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}])
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("kill a rank-1 guest") - 2)
    assert t.view("Ana").action == "kill a rank-1 guest…"
    t.click("Ana", MAIN)  # the room, from room 2 (Ben's)
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "kill", "player": "Ana", "room": 3, "rank": 1}] and t.presses == 4
    ana = t.state["players"][0]
    assert ana["corpses"] == [{"rank": 1, "money": 12}] and (ana["hand"], t.state["inn"]["bistro"]) == (1, 1)


def test_a_burial_is_the_first_offer_when_a_corpse_waits():
    """«Enterrar un cadáver»: with a corpse and a card to pay it, main buries it under the barn."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[
        {"action": "welcome"}, {"action": "kill", "room": 2, "rank": 1}, {"action": "bribe", "bistro": 1}])
    t.click("Ana", MAIN)
    assert t.done == [{"action": "bury", "player": "Ana", "corpse": 1, "annex": 0}] and t.presses == 1
    assert t.state["players"][0]["annexes"][0]["buried"] == [{"money": 12, "by": "Ana"}]


def test_an_empty_hand_bribes_two_peasants_with_one_press():
    """«puede tomar uno o dos … Los campesinos tienen rango 0»: with no card in hand the bistro is first."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}, {"action": "kill", "room": 2, "rank": 2}])
    t.click("Ben", MAIN)  # Ben still holds his peasants: passing is first
    assert t.done[-1] == {"action": "pass", "player": "Ben"}
    t.click("Ana", MAIN)  # Ana's hand is empty: the bistro's two peasants
    assert t.done[-1] == {"action": "bribe", "player": "Ana", "bistro": 2} and t.presses == 2


def test_the_morning_offers_the_other_ways_to_pay():
    """«paga 10F por cada cadáver» (RULES.md: cash or checks) and wages («un cómplice por franco»): the
    morning from the first player's pod is one press; paying a corpse with a check while there is cash
    is an offer of its own."""
    m = table([{"action": "welcome", "police_rooms": [5]}, {"action": "kill", "room": 2, "rank": 1},
               {"action": "adjust", "player": "Ana", "counter": "cash", "delta": 10},
               {"action": "pass", "player": "Ben"}, {"action": "pass"}, {"action": "pass"}])
    menu = items(m, "Ana")
    assert list(menu)[:2] == ["morning", "morning: Ana pays 1 corpse with a check"]
    assert menu["morning: Ana pays 1 corpse with a check"].action == {"action": "morning", "police_checks": {"Ana": 1}}
    after, _events = grammar.dry_run(m.rules, m.state, menu["morning: Ana pays 1 corpse with a check"].action)
    assert after["players"][0]["counters"]["checks"] == 0


def test_the_menu_at_night_lists_the_night_first_and_a_missing_rank_is_asked_in_player_words():
    """The welcome is «Fase 1»: at night the menu lists the card actions before it. A guest's rank is
    on the card: a kill without it says so."""
    m = table([{"action": "welcome"}])
    others = [str(i.label) for i in grammar.menu(m.rules, m.state, "Ana") if i.kind == grammar.OTHER]
    assert others.index("welcome") > max(others.index(n) for n in ("kill", "bribe", "bury", "build"))
    with pytest.raises(RuleError, match="say the rank of the guest in room 2"):
        m.apply({"action": "kill", "room": 2})


def test_a_build_is_offered_per_rank_and_asks_the_annexs_name_first():
    """«Construir: … juega tantas cartas como el rango del viajero que quieres convertir en anexo»: the rank
    is on the card, so it is the offer; the pod asks the annex's name from the base game's list, then only
    what the hand leaves open."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["build a rank-1 annex"])[0] == "name"
    assert "effect" not in asked(m, "Ana", menu["build a rank-1 annex"])  # a power: the full entry
    assert asked(m, "Ana", menu["build an annex"])[:3] == ["rank", "name", "effect"]
