"""The Bloody Inn from the pods, at the level of the game's hooks (``seat_actions``, ``pod_field``)
and :func:`tablekeeper.hardware.grammar.menu` / :func:`asks`: routine actions from the acting
player's own pod, every field the device knows filled, only what the player decides asked.
Rules: ../shared/seeds/bloody-inn.es.txt ("Fase 1", "Fase 2") and RULES.md.
"""
from __future__ import annotations

from tablekeeper.engine.match import Match
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware import grammar


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


def test_a_first_round_kill_asks_the_room_and_the_rank_only():
    """«Selecciona al Viajero que quieras matar … Juegue … tantas cartas … como rango»: with a hand
    of peasants, the cards played are known; only the room's guest and its rank are asked."""
    m = table([{"action": "welcome"}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["kill a guest"]) == ["room", "rank"]
    assert asked(m, "Ana", menu["bribe a guest"]) == ["room", "rank"]
    action = grammar.complete(menu["kill a guest"], grammar.asks(m.rules, m.state, "Ana", menu["kill a guest"]),
                              {"room": 2, "rank": 2})
    after, _events = grammar.dry_run(m.rules, m.state, action)
    assert after["players"][0]["corpses"] == [{"rank": 2, "money": 18}] and after["players"][0]["hand"] == 0


def test_a_mixed_hand_asks_the_peasants_and_the_kept_cards():
    """«devuelva las cartas con el icono a su mano»: with travellers in hand, only the player knows
    which cards return and how many peasants were played."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["kill a guest"]) == ["room", "rank", "peasants", "kept"]  # in the order the offer lists them
    # The one traveller is the annex: the cost is paid in peasants, known.
    assert asked(m, "Ana", menu["build an annex"]) == ["rank", "effect", "name"]


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
