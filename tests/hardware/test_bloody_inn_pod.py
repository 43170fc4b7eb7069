"""The Bloody Inn from the pods, at the level of the game's hooks (``seat_actions``, ``pod_field``)
and :func:`tablekeeper.ui.pod.grammar.menu` / :func:`asks`: routine actions from the acting
player's own pod, every field the device knows filled, only what the player decides asked.
Rules: ../shared/seeds/bloody-inn.es.txt ("Fase 1", "Fase 2") and RULES.md.
"""
from __future__ import annotations

import pytest

from tablekeeper.engine.errors import RuleError
from tablekeeper.engine.match import Match
from tablekeeper.engine.messages import translated
from tablekeeper.engine.registry import make_rules
from tablekeeper.hardware.pod import DOWN, MAIN, SELECT, UP
from tablekeeper.ui.pod import grammar

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


def test_a_police_officer_welcomed_card_by_card_is_one_offer_asking_the_room():
    """«Coloque al viajero en una habitación abierta» one card at a time, as a rulebook reader's table did: a
    police officer is lodged alone with one offer that asks its room, from the first empty one."""
    m = table()
    menu = items(m, "Ana")
    item = menu["welcome one: police"]
    assert asked(m, "Ana", item) == ["room"] and item.action == {"action": "welcome", "room": 1, "police": True}
    after = m.rules.apply(m.state, {**item.action, "room": 3})[0]
    assert [(r["room"], r["guest"], r["police"]) for r in after["inn"]["rooms"] if r["guest"]] == [(3, True, True)]
    # the room by its key, as the kill and the bribe say it (a play-tester had to look up that room 3 is Cai's),
    # and only the empty rooms: room 3 taken, the next one lodged alone skips it
    assert str(m.rules.pod_value_shown(m.state, "Ana", "welcome", "room", 2)) == "Ben's"
    m.apply({**item.action, "room": 3})
    ask = next(a for a in grammar.asks(m.rules, m.state, "Ana", items(m, "Ana")["welcome one: police"])
               if a.field.name == "room")
    assert 3 not in ask.options and ask.number(2, 1) == 4


def test_a_welcome_card_by_card_under_way_offers_the_next_room_first():
    """«Coloque al viajero en una habitación abierta» one card at a time: once the first player has lodged a
    traveller alone, the next card is one press into the next empty room; an officer is the next offer, and
    the whole welcome fills the rest (a rulebook reader's table lodged 73 travellers one by one)."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome", "room": 1}])
    assert t.view("Ana").action == "welcome one: Ben's"
    t.presses = 0
    t.click("Ana", MAIN)
    assert t.presses == 1 and [r["room"] for r in t.state["inn"]["rooms"] if r["guest"]] == [1, 2]
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    assert labels[:3] == ["welcome one: neutral 1", "welcome one: police", "welcome"]
    t.click("Ana", DOWN, 2)
    t.click("Ana", MAIN)
    assert t.state["phase"] == "night" and all(r["guest"] for r in t.state["inn"]["rooms"])


def test_an_extra_action_annex_is_offered_an_extra_kill_in_the_bistro():
    """A table's own annex power that grants another action (``extra_action``; the butcher's shop of the
    publisher's card list kills in rooms only): right after its owner's kill, an extra kill of a peasant in
    the bistro, one offer; the butcher's shop is offered none."""
    def night(effect):
        return table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
                      {"action": "build", "rank": 1, "effect": effect}, {"action": "pass"},
                      {"action": "kill", "room": 2, "rank": 0}])

    m = night("extra_action")
    assert m.state["inn"]["bistro"] > 0
    menu = items(m, "Ana")
    # after the rooms' kills (where both are offered, the rulebook stories' extra kills: in a room 3 times, the
    # bistro 3; a play-tester looked for the rooms' first)
    kills = [label for label in menu if label.startswith("+kill")]
    assert kills[-1] == "+kill: bistro" and list(menu)[0] == "+kill, rank 0" == kills[0]
    bistro = m.state["inn"]["bistro"]
    after = m.rules.apply(m.state, menu["+kill: bistro"].action)[0]
    assert len(after["players"][0]["corpses"]) == 2 and after["inn"]["bistro"] == bistro - 1
    assert "+kill: bistro" not in items(night("extra_kill"), "Ana")
    # one more action is one: after it, while the next player acts, Ana's pod offers no kill at all (a stray
    # main on it killed a third time, the second rulebook story's stray sweep found); the butcher's shop
    # still kills again in rooms
    m.apply(menu["+kill: bistro"].action)
    assert not any(i.action.get("action") == "kill" and i.action.get("extra") for i in grammar.menu(m.rules, m.state, "Ana"))
    butcher = night("extra_kill")
    butcher.apply(next(i for i in grammar.menu(butcher.rules, butcher.state, "Ana") if i.action.get("extra")).action
                  | {"room": 3})
    assert any(i.action.get("extra") for i in grammar.menu(butcher.rules, butcher.state, "Ana"))


def test_an_annex_of_unknown_power_may_be_the_tables_own_butcher_and_kill_again_for_free():
    """A table's own annex the device knows no power of (built without one: a card not in the publisher's list)
    may grant what the rules let annexes grant: a fourth rulebook reader's Matadero gives «una segunda muerte
    (rango 0-1) gratis». Right after its owner's kill the pod offers the extra kill by rank, asking the room and
    the cards played (the rank's at first), and a free one is taken; the bistro's, which asks nothing, is
    previewed first, and comes after the rooms' (a play-tester's such Matadero offered it first; the rulebook
    stories' extra kills where both are offered were in a room 3 times, in the bistro 3); the status asks, as for a
    butcher's shop, while they are offered (an eighth story's play-tester met them under a blank status)."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "build", "rank": 1}, {"action": "pass"},
               {"action": "kill", "room": 2, "rank": 0}])
    assert "effect" not in m.state["players"][0]["annexes"][-1] and m.state["turn"]["player"] == "Ben"
    menu = items(m, "Ana")
    assert list(menu) == ["+kill, rank 0", "+kill, rank 1", "+kill, rank 2", "+kill, rank 3", "+kill: bistro"]
    assert m.rules.seat_view(m.state, "Ana")["status"] == "extra kill?"
    assert m.rules.seat_actions(m.state, "Ana")[-1]["confirm"]  # shown before it is done: a stray main kills nobody
    assert asked(m, "Ana", menu["+kill, rank 1"]) == ["room", "played"]
    assert menu["+kill, rank 1"].action["played"] == 1
    room = next(r for r in m.state["inn"]["rooms"] if r["guest"])["room"]
    hand = m.state["players"][0]["hand"]
    m.apply({**menu["+kill, rank 1"].action, "room": room, "played": 0})
    ana = m.state["players"][0]
    assert len(ana["corpses"]) == 2 and ana["hand"] == hand and m.state["turn"]["player"] == "Ben"
    assert m.rules.seat_view(m.state, "Ana")["status"] != "extra kill?"
    assert items(m, "Ana") == {}  # one extra kill: no third one offered


def test_an_owner_of_an_unknown_killer_and_one_more_action_is_offered_both_in_either_order():
    """A ninth rulebook reader's Ben owned a «Carnicería» whose power his table had not told the device (a free
    second kill «justo después de esa muerte») and a «Cochera» (one more action): he killed and killed again for
    free, then took his one more action; another night his one more action was a kill, and the Carnicería killed
    again after it. The pods offered neither second one (two events not possible): the extra kill right after a
    kill is the killer's, the one more action is the other annex's, once each."""
    built = [{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 6},
             {"action": "build", "rank": 1}, {"action": "pass"},  # the Carnicería, its power not told
             {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},  # the Cochera
             {"action": "morning"}, {"action": "welcome"}, {"action": "pass"}]  # the next night: Ben first
    m = table(built + [{"action": "kill", "room": 2, "rank": 0, "played": 0}])
    menu = items(m, "Ana")
    assert "+kill, rank 1" in menu and "+bribe a guest" in menu  # the killer's, and the one more action
    room = next(r for r in m.state["inn"]["rooms"] if r["guest"])["room"]
    m.apply({**menu["+kill, rank 1"].action, "room": room, "played": 0})  # free, as the table's card says
    menu = items(m, "Ana")
    assert "+bribe a guest" in menu  # the one more action is still there (before: nothing, it was "taken")
    assert m.rules.seat_view(m.state, "Ana")["status"] == "one more action?"  # and the status says so
    m.apply({**menu["+bribe a guest"].action, "room": next(r for r in m.state["inn"]["rooms"] if r["guest"])["room"],
             "rank": 0})
    assert not any(i.action.get("extra") for i in grammar.menu(m.rules, m.state, "Ana"))  # one of each is all
    assert m.rules.seat_view(m.state, "Ana")["status"] != "one more action?"
    # the other order: a bribe, the one more action a kill, then the Carnicería's kill right after it
    m = table(built + [{"action": "bribe", "room": 2, "rank": 0}])
    kill = items(m, "Ana")["+kill a guest"]
    assert asked(m, "Ana", kill)[:2] == ["room", "rank"]
    m.apply({**kill.action, "room": next(r for r in m.state["inn"]["rooms"] if r["guest"])["room"], "rank": 0})
    menu = items(m, "Ana")
    assert "+kill, rank 0" in menu and asked(m, "Ana", menu["+kill, rank 0"]) == ["room", "played"]
    assert not any(label.startswith("+bribe") for label in menu)  # the one more action is taken


def test_a_full_kill_entry_asks_the_pocket_where_the_tables_cards_print_their_own():
    """With ``ask_pocket`` every kill's pocket is asked: the per-rank offers did, the full entries (a card kept, any
    rank) did not, and a ninth rulebook reader's kill with a card kept and a 12F pocket could not be entered."""
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"ask_pocket": True}}))
    m.apply({"action": "welcome"})
    assert asked(m, "Ana", items(m, "Ana")["kill a guest"])[-1] == "money"
    m = table([{"action": "welcome"}])
    assert "money" not in asked(m, "Ana", items(m, "Ana")["kill a guest"])  # the rank's pocket, as the engine's


def test_a_first_round_kill_is_offered_per_rank_and_asks_only_the_room():
    """«Selecciona al Viajero que quieras matar … Juegue … tantas cartas … como rango»: the rank is on
    the card, so it is the offer; with a hand of peasants the cards played are known: only the room."""
    m = table([{"action": "welcome"}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["kill a rank-2 guest"]) == ["room"]
    assert asked(m, "Ana", menu["bribe a rank-0 guest"]) == ["room"]
    assert "kill a rank-3 guest" not in menu  # two cards in hand: a rank-3 guest costs 3
    assert not any(label.startswith("kill 2:") for label in menu)  # two peasants: one way to pay
    # The room starts at the guest in your own room (room 1 is Ana's key): where the rulebook stories'
    # players killed or bribed in about half their card actions.
    assert menu["kill a rank-2 guest"].action["room"] == 1
    action = grammar.complete(menu["kill a rank-2 guest"],
                              grammar.asks(m.rules, m.state, "Ana", menu["kill a rank-2 guest"]), {"room": 2})
    after, _events = grammar.dry_run(m.rules, m.state, action)
    assert after["players"][0]["corpses"] == [{"rank": 2, "money": 18}] and after["players"][0]["hand"] == 0


def test_the_nights_usual_kills_and_bribes_come_before_the_full_entries():
    """A play-tester looked for a rank-2 kill 9th of 13 offers, behind "kill a guest" and "bribe a guest"
    (every choice asked), its place changing with the hand: down from the first offer come the bistro's
    two peasants, then the kills and the bribes per rank, and the full entries only after them."""
    m = table([{"action": "welcome"}])
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")]
    usual = [i for i, label in enumerate(labels) if label.startswith(("kill a rank-", "bribe a rank-"))]
    assert usual and max(usual) < labels.index("kill a guest") < labels.index("bribe a guest"), labels
    assert usual[0] <= 3  # after the passes (pass, cash a check): a held press of a step or two


def test_a_mixed_hand_has_an_offer_per_way_to_pay_and_each_asks_only_the_room():
    """«Debes jugar una cantidad de cartas definidas por el rango de la carta elegida. Luego, recuperas
    todas las cartas que hayas jugado que tengan aptitud para la acción elegida; pierde las otras cartas.»
    «si jugaste con Campesinos, colócalos en el bistró»: with 2 peasants and a traveller, a rank-2 guest
    can be paid with both peasants, or a peasant and the traveller, who is lost or comes back. Each way
    is an offer ("p" a peasant, "↩" back, "×" lost), the usual one (peasants first) with the others; the
    device knows the rest: only the room is asked."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])  # 2 peasants, 1 traveller
    menu = items(m, "Ana")
    ways = [label for label in menu if label.startswith("kill 2:")]
    assert ways == ["kill 2: pp", "kill 2: p×", "kill 2: p↩"]
    assert all(asked(m, "Ana", menu[w]) == ["room"] for w in ways)
    # The usual ways first (down from the first offer), then the kills' and the bribes' other ways;
    # the builds at the end (up from the first offer: the offers wrap)
    labels = list(menu)
    assert labels.index("kill 2: pp") < labels.index("bribe 2: pp") < labels.index("kill 2: p↩")
    assert labels.index("kill 2: p↩") < labels.index("bribe 2: p↩") < labels.index("build an annex")
    assert labels[-3:] == ["build a rank-0 annex", "build a rank-1 annex", "build a rank-2 annex"]
    assert [menu[w].action["peasants"] for w in ways] == [2, 1, 1]
    assert [menu[w].action["kept"] for w in ways] == [0, 0, 1]
    after, _events = grammar.dry_run(m.rules, m.state, {**menu["kill 2: p↩"].action, "room": 2})
    ana = after["players"][0]
    assert (ana["hand"], ana["peasants"], after["inn"]["bistro"], after["inn"]["exit"]) == (2, 1, 1, 0)
    after, _events = grammar.dry_run(m.rules, m.state, {**menu["kill 2: p×"].action, "room": 2})
    assert (after["players"][0]["hand"], after["inn"]["bistro"], after["inn"]["exit"]) == (1, 1, 1)
    assert [label for label in menu if label.startswith("kill 3:")] == ["kill 3: pp×", "kill 3: pp↩"]
    # The one traveller is the annex: a build's cost is peasants, known; only its card (and a power of
    # the table's own) is asked.
    assert "build a rank-2 annex" in menu
    assert asked(m, "Ana", menu["build a rank-2 annex"]) == ["card", "effect", "amount"]
    assert asked(m, "Ana", menu["build an annex"]) == ["rank", "card", "effect", "amount"]


def test_a_police_officer_in_hand_may_come_back_by_its_icon():
    """An officer is a traveller when paying («Las cartas de Policía y Campesino no pueden convertirse en anexos»
    says only that he is never an annex): a hand of a peasant and a bribed officer pays a rank-2 guest with both,
    the officer lost or back to hand by his icon, each a way of its own."""
    m = table([{"action": "welcome", "police_rooms": [5]}, {"action": "bribe", "room": 5, "rank": 0},
               {"action": "pass"}])
    m.apply({"action": "correct", "player": "Ana", "peasants": 1, "hand": 2})  # a peasant and the officer
    menu = items(m, "Ana")
    assert m.state["players"][0]["police"] == 1
    assert [label for label in menu if label.startswith(("kill 2", "kill a rank-2 guest"))] == ["kill 2: p×", "kill 2: p↩"]
    assert [label for label in menu if label.startswith("kill 1")] == ["kill 1: p", "kill 1: ×", "kill 1: ↩"]
    back = menu["kill 2: p↩"]
    assert (back.action["peasants"], back.action["kept"]) == (1, 1)
    m.apply({**back.action, "room": 1})
    assert (m.state["players"][0]["hand"], m.state["players"][0]["police"]) == (1, 1)


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


def test_a_burial_of_one_of_several_corpses_starts_at_the_richest_under_your_own_annex_the_poorest_under_anothers():
    """«Usted y el propietario del anexo comparten el dinero … (si entierra el cadáver debajo de uno de
    sus propios anexos, por supuesto, se lleva todo el dinero para usted)»: the corpse a burial asks
    starts where a player who can count would put it — the fullest pocket where it all stays theirs, the
    emptiest where it is halved."""
    import copy

    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "build", "rank": 2, "name": "distillery", "peasants": 2},
               {"action": "kill", "room": 2, "rank": 0}, {"action": "pass"}])
    state = copy.deepcopy(m.state)
    state["players"][1]["corpses"] = [{"rank": 1, "money": 12}, {"rank": 0, "money": 8}, {"rank": 2, "money": 18}]
    offers = {str(o["label"]): o for o in m.rules.seat_actions(state, "Ben")}
    assert offers["bury: barn"]["action"]["corpse"] == 3  # the 18F pocket, all Ben's
    assert offers["bury: Ana's distillery"]["action"]["corpse"] == 2  # the 8F pocket, shared with Ana
    assert "corpse" in offers["bury: barn"]["ask"]  # still asked: the pocket is the player's call


def test_a_burial_offers_your_built_annexes_before_your_barn():
    """«Enterrar un cadáver … debajo de uno de sus propios anexos … se lleva todo el dinero»: the rulebook
    stories' tables buried under an annex they had built 17 times, in their barn 4; a play-tester's first
    offer was the barn his table never used. A built annex with room comes first, the barn after it."""
    import copy

    m = table([{"action": "welcome"}, {"action": "pass"},
               {"action": "correct", "player": "Ben", "hand": 4, "peasants": 3},
               {"action": "build", "player": "Ben", "rank": 2, "name": "distillery", "peasants": 2},
               {"action": "pass"}])
    state = copy.deepcopy(m.state)
    state["players"][1]["corpses"] = [{"rank": 0, "money": 8}]
    labels = [str(o["label"]) for o in m.rules.seat_actions(state, "Ben") if str(o["label"]).startswith("bury")]
    assert labels[:2] == ["bury: distillery", "bury: barn"], labels


def test_a_burial_offers_the_other_players_built_annexes_before_their_barns():
    """«debajo de un anexo de su elección, independientemente de quién sea el propietario»: a play-tester's
    burial list began with the other players' barns, which his table never used, the annex he wanted
    behind them. After your own annexes and your barn, the others' built annexes (from your left), then
    their barns."""
    import copy

    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"], "options": {"first": "Ana"}}))
    for a in ({"action": "welcome"}, {"action": "pass"}, {"action": "pass"},
              {"action": "correct", "player": "Cai", "hand": 4, "peasants": 3},
              {"action": "build", "player": "Cai", "rank": 2, "name": "distillery", "peasants": 2}):
        m.apply(a)
    state = copy.deepcopy(m.state)
    state["players"][0]["corpses"] = [{"rank": 0, "money": 8}]
    labels = [str(o["label"]) for o in m.rules.seat_actions(state, "Ana") if str(o["label"]).startswith("bury")]
    assert labels == ["bury: barn", "bury: Cai's distillery", "bury: Ben's barn", "bury: Cai's barn"], labels


def test_a_burial_paid_with_a_traveller_who_comes_back_is_its_own_offer():
    """«Luego, recuperas todas las cartas que hayas jugado que tengan aptitud para la acción elegida»: with
    a peasant and a traveller in hand a rank-1 corpse is buried with the peasant (the usual way, first),
    or with the traveller, lost or back to the hand: each way is an offer per annex, asking nothing, and
    the one with the traveller back keeps the hand."""
    m = table([{"action": "welcome"}, {"action": "kill", "room": 2, "rank": 1}, {"action": "pass"},
               {"action": "correct", "player": "Ana", "hand": 2, "peasants": 1}])
    menu = items(m, "Ana")
    assert [label for label in menu if label.startswith("bury")] == [
        "bury: barn", "bury: Ben's barn", "bury ×: barn", "bury ↩: barn", "bury ×: Ben's barn", "bury ↩: Ben's barn"]
    assert all(asked(m, "Ana", menu[label]) == [] for label in menu if label.startswith("bury"))
    after = m.rules.apply(m.state, menu["bury ↩: Ben's barn"].action)[0]
    ana = after["players"][0]
    assert (ana["hand"], ana["peasants"], len(ana["corpses"])) == (2, 1, 0)


def test_free_text_fields_become_short_lists_on_a_pod():
    """An annex's name cannot be typed on four buttons: the base game's annexes, and for a burial
    the annexes built."""
    m = table([{"action": "welcome"}])
    build = m.rules.actions["build"]
    card = m.rules.pod_field(m.state, "Ana", "build", build.field("card"))
    assert card is not None and "distillery" in (card.choices or ())
    assert m.rules.pod_field(m.state, "Ana", "build", build.field("name")) is None  # the card names it
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
    in room 5 (neutral)" and presses main; the room's traveller is marked police."""
    t = Table("bloody-inn", ["Ana", "Ben"])
    assert t.view("Ana").action == "welcome"
    t.hold("Ana", DOWN, repeats=3)  # press, hold, 3 repeats: five offers down
    assert t.view("Ana").action == "welcome: police, neutral 3"  # room 5: the third neutral key's
    t.click("Ana", MAIN)
    assert t.done == [{"action": "welcome", "police_rooms": [5]}] and t.presses == 2
    assert [r["room"] for r in t.state["inn"]["rooms"] if r["police"]] == [5]


def test_the_last_travellers_go_to_a_players_room_and_the_neutral_rooms_in_two_presses():
    """«… en una habitación abierta, desocupada, de su elección»: with fewer travellers than empty rooms
    in the second season, Ana fills her own room and the neutral ones — a press down and main, not
    one traveller at a time."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "correct", "entrance": 1, "exit": 3},
                                                     {"action": "welcome", "room": 3}])
    assert t.state["table"]["season"] == 2 and t.state["inn"]["entrance"] == 3
    t.presses = 0
    t.click("Ana", DOWN)
    assert t.view("Ana").action == "welcome: Ana + neutral rooms"
    t.click("Ana", MAIN)
    assert t.presses == 2 and [r["room"] for r in t.state["inn"]["rooms"] if not r["guest"]] == [2]  # Ben's


def test_a_first_round_kill_from_the_pod_is_four_presses():
    """«Mata a un invitado … Juegue en la mesa tantas cartas … como rango»: Ana kills the rank-1
    guest in room 2 (Ben's) with a peasant: the offer, main, the room (one up from her own), main."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}])
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("kill a rank-1 guest") - 2)
    assert t.view("Ana").action == "kill a rank-1 guest…"
    t.click("Ana", MAIN)  # the room, from room 1 (Ana's)
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "kill", "player": "Ana", "room": 2, "rank": 1}] and t.presses == 4
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
    t.click("Ben", DOWN)  # Ben still holds his peasants: passing is right after the bribe that leads
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "pass", "player": "Ben"}
    t.click("Ana", MAIN)  # Ana's hand is empty: the bistro's two peasants
    assert t.done[-1] == {"action": "bribe", "player": "Ana", "bistro": 2} and t.presses == 3


def test_a_night_turn_with_a_hand_and_nothing_to_bury_leads_with_a_bribe_not_with_passing():
    """«En tu turno, debes elegir una de las siguientes acciones … 5. Pasar»: passing is one action of five, and
    in the seven rulebook stories' night turns with a hand to play and no corpse to bury it was 4 of 203 (a
    rank-1 guest bribed 35 times, killed 30, two peasants from the bistro 27, builds 37 over every rank and way).
    The turn leads with the likeliest single offer, the usual bribe of a rank-1 guest, whose room is asked (a
    stray main opens its step and does nothing); passing and laundering come right after it."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}])
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert offers[:2] == ["bribe a rank-1 guest", "pass"], offers
    t.click("Ana", MAIN)
    view = t.view("Ana")
    assert t.done == [] and view.screen == "entry" and view.prompt.startswith("room"), view
    t.click("Ana", MAIN)  # the room it starts at: done
    assert t.done == [{"action": "bribe", "player": "Ana", "room": 1, "rank": 1}], t.done


def test_the_morning_offers_the_other_ways_to_pay():
    """«paga 10F por cada cadáver» (RULES.md: cash or checks) and wages («un cómplice por franco»): the
    morning from the first player's pod is one press; paying a corpse with a check while there is cash
    is an offer of its own."""
    m = table([{"action": "welcome", "police_rooms": [5]}, {"action": "kill", "room": 2, "rank": 1},
               {"action": "adjust", "player": "Ana", "counter": "cash", "delta": 10},
               {"action": "pass", "player": "Ben"}, {"action": "pass"}, {"action": "pass"}])
    menu = items(m, "Ana")
    assert list(menu)[:2] == ["morning", "morning, Ana: 1 corpse by check"]
    assert menu["morning, Ana: 1 corpse by check"].action == {"action": "morning", "police_checks": {"Ana": 1}}
    after, _events = grammar.dry_run(m.rules, m.state, menu["morning, Ana: 1 corpse by check"].action)
    assert after["players"][0]["counters"]["checks"] == 0


def test_the_morning_is_the_tables_and_on_another_pod_takes_a_confirming_press():
    """The rulebook names the first player for the welcome only («El primer jugador es responsable de dar la
    bienvenida a los viajeros»); two rulebook readers told the morning on another player's pod. The first
    player's pod does it with one press; another's shows its preview first, a second main does it — so a
    stray main on an idle pod changes nothing."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}, {"action": "pass"},
                                                     {"action": "pass"}, {"action": "pass"}, {"action": "pass"}])
    assert t.state["phase"] == "morning" and t.state["first_player"] == "Ana"
    assert t.view("Ben").action == "morning"
    done = len(t.done)
    t.click("Ben", MAIN)
    assert len(t.done) == done and t.state["phase"] == "morning"  # the preview only
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "morning"} and t.state["phase"] == "welcome"


def test_the_menu_at_night_lists_the_night_only_and_a_missing_rank_is_asked_in_player_words():
    """The welcome is «Fase 1» and the morning «Fase 3»: at night the menu lists the card actions first
    and neither of them (the engine would refuse both); laundering stays. A guest's rank is on the
    card: a kill without it says so."""
    m = table([{"action": "welcome"}])
    others = [str(i.label) for i in grammar.menu(m.rules, m.state, "Ana") if i.kind == grammar.OTHER]
    assert others[:5] == ["kill", "bribe", "bury", "pass", "build"]
    assert "welcome" not in others and "morning" not in others
    first = [str(i.label) for i in grammar.menu(m.rules, m.rules.setup_state(), "Ana") if i.kind == grammar.OTHER]
    assert "kill" not in first and "bribe" not in first  # the welcome: its own offers, no night
    with pytest.raises(RuleError, match="say the rank of the guest in room 2"):
        m.apply({"action": "kill", "room": 2})


def test_a_phases_own_actions_are_on_the_menu_of_the_player_whose_they_are_only():
    """«El primer jugador es responsable de dar la bienvenida a los viajeros» and «Cada jugador, por turno,
    realiza una acción»: the welcome (which names no player: from Ben's menu it would be Ana's) and the
    morning are on the first player's menu only, the night's card actions on the acting player's only,
    and a kill on the butcher's owner's right after their action; the corrections are on everyone's."""
    def others(m, who):
        return [str(i.label) for i in grammar.menu(m.rules, m.state, who) if i.kind == grammar.OTHER]

    m = table()
    assert "welcome" in items(m, "Ana") and others(m, "Ben") == ["adjust", "transfer"]
    m.apply({"action": "welcome"})
    assert m.state["turn"]["player"] == "Ana"
    assert others(m, "Ana")[:5] == ["kill", "bribe", "bury", "pass", "build"]
    ben = others(m, "Ben")
    assert not {"kill", "bribe", "bury", "pass", "build", "welcome", "morning"} & set(ben)
    assert ben == ["adjust", "transfer"] and others(m, "Ana")[-2:] == ben  # the corrections: everyone's
    butcher = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
                     {"action": "build", "rank": 1, "card": "butcher's shop"}, {"action": "pass"},
                     {"action": "kill", "room": 2, "rank": 0}])
    assert butcher.state["turn"]["player"] == "Ben"
    assert "kill" in others(butcher, "Ana") and "bribe" not in others(butcher, "Ana")


def test_a_build_is_offered_per_rank_and_asks_the_annexs_card_first():
    """«Construir: … juega tantas cartas como el rango del viajero que quieres convertir en anexo»: the rank
    is on the card, so it is the offer; the pod asks which of the base game's annexes it is, then a
    power of the table's own (left out: the card's), then only what the hand leaves open."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])
    menu = items(m, "Ana")
    assert asked(m, "Ana", menu["build a rank-1 annex"]) == ["card", "effect", "amount"]
    assert asked(m, "Ana", menu["build an annex"])[:4] == ["rank", "card", "effect", "amount"]


def test_a_builds_card_step_says_each_cards_power_beside_its_name():
    """«A partir de ahora, puede beneficiarse de su efecto»: the card step names the power the card brings, so a
    table whose own annex only looks like one of the list's sees it is not (a play-tester's «Dormitorio de
    servicio», which waived 2 wages, against the list's "room service")."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])

    def said(card):
        return str(translated(m.rules.pod_value_words(m.state, "Ana", "build", "card", card, entered={"action": "build"}),
                              None))

    assert said("distillery") == "wages −1"
    assert said("park") == "now +4F"
    assert said("gardens") == "morning +2F"
    assert said("butcher's shop") == "extra kill"
    assert said("room service") == "other power"
    assert said(None) == "none of these"


def test_an_annex_built_from_its_card_has_the_cards_power():
    """«Coloque la carta de Viajero elegida frente a usted … A partir de ahora, puede beneficiarse de su
    efecto»: a gardens chosen on the pod pays 2F at every departure (the publisher's card list) without
    its power being chosen again; a power the table gives instead is kept; a bare name has none."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])
    built = m.rules.apply(m.state, {**items(m, "Ana")["build a rank-1 annex"].action, "card": "gardens"})[0]
    annex = built["players"][0]["annexes"][-1]
    assert (annex["name"], annex["effect"], annex["amount"]) == ("gardens", "morning_bonus", 2)
    park = m.rules.apply(m.state, {"action": "build", "rank": 1, "card": "park"})[0]["players"][0]["annexes"][-1]
    assert (park["effect"], park["amount"]) == ("gain_now", 4)
    own = m.rules.apply(m.state, {"action": "build", "rank": 1, "card": "gardens", "effect": "other"})[0]
    assert own["players"][0]["annexes"][-1]["effect"] == "other"
    bare = m.rules.apply(m.state, {"action": "build", "rank": 1, "name": "gardens"})[0]
    assert "effect" not in bare["players"][0]["annexes"][-1]  # scripts that name an annex keep their meaning


def test_a_powers_amount_is_asked_only_when_the_table_gives_the_annex_a_power():
    """«A partir de ahora, puede beneficiarse de su efecto»: a card of the base game brings its power and
    its amount, so a build from its card is the card and two mains, no amount asked; a table whose
    chapel reads "your peasants cost no wages" gives it that power, and then (only then) the pod asks
    the amount printed on the card, one step more — every entry of the full build asks it the same way."""
    def build(power: bool) -> Table:
        t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"},
                                                          {"action": "correct", "player": "Ana", "hand": 3}])
        labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
        t.hold("Ana", DOWN, repeats=labels.index("build a rank-1 annex") - 2)
        assert t.view("Ana").action == "build a rank-1 annex…"
        t.presses = 0
        t.click("Ana", MAIN)  # the offer: its card is asked first
        t.click("Ana", DOWN)  # the base game's annexes go round: the chapel is the last
        t.click("Ana", MAIN)
        assert (t.view("Ana").prompt, t.view("Ana").value) == ("effect: the card's: other", "–")  # "–" says what it is
        if power:
            t.click("Ana", UP, 4)  # a power of the table's own: waived wages (after none, end game, per annex)
            t.click("Ana", MAIN)
            assert (t.view("Ana").prompt, t.view("Ana").value) == ("amount: – gives 1", "–")  # its amount, asked now: "–" is the usual
            t.click("Ana", UP, 3)
        t.click("Ana", MAIN)
        return t

    plain = build(power=False)
    assert plain.done[-1]["card"] == "chapel" and "amount" not in plain.done[-1] and plain.presses == 4
    assert plain.state["players"][0]["annexes"][-1]["effect"] == "other"
    waived = build(power=True)
    annex = waived.state["players"][0]["annexes"][-1]
    assert (annex["name"], annex["effect"], annex["amount"]) == ("chapel", "wages_waived", 3)
    assert waived.presses == 4 + 5 + 3  # the power (four ups, main), the amount (three ups)


def test_the_butchers_owner_is_offered_the_extra_kill_out_of_turn():
    """A butcher's shop kills several travellers in rooms in one action (the publisher's card list):
    after its owner's kill the turn has passed, and their pod offers the extra kill by rank, asking the
    room only — right after that action and at no other moment (a stray press on an idle pod must not
    kill during another's action); the owner of another annex is offered nothing out of turn."""
    def night(card):
        return table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
                      {"action": "build", "rank": 1, "card": card}, {"action": "pass"},
                      {"action": "kill", "room": 2, "rank": 0}])

    m = night("butcher's shop")
    assert m.state["turn"]["player"] == "Ben"
    menu = items(m, "Ana")
    assert list(menu)[:2] == ["+kill, rank 0", "+kill, rank 1"]
    assert asked(m, "Ana", menu["+kill, rank 0"]) == ["room"]
    room = next(r["room"] for r in m.state["inn"]["rooms"] if r["guest"])
    after = m.rules.apply(m.state, {**menu["+kill, rank 0"].action, "room": room})[0]
    assert len(after["players"][0]["corpses"]) == 2 and after["turn"]["player"] == "Ben"
    assert items(night("gardens"), "Ana") == {}
    three = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"], "options": {}}))
    for a in [{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
              {"action": "build", "rank": 1, "card": "butcher's shop"}, {"action": "pass"}, {"action": "pass"},
              {"action": "kill", "room": 2, "rank": 0}]:
        three.apply(a)
    assert three.state["turn"]["player"] == "Ben" and "+kill, rank 0" in items(three, "Ana")
    # the moment says itself: a play-tester's status was blank and she could not tell what the offers were for
    assert three.rules.seat_view(three.state, "Ana")["status"] == "extra kill?"
    assert three.rules.seat_view(three.state, "Cai")["status"] == ""
    three.apply({"action": "pass"})  # Ben's action: Ana's moment is over
    assert three.state["turn"]["player"] == "Cai" and items(three, "Ana") == {}
    assert three.rules.seat_view(three.state, "Ana")["status"] == ""
    # a burial is no kill: a butcher's owner who holds a corpse is offered no extra kill after it
    # (a play-tester's stray main then killed a guest during the next player's action)
    four = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"], "options": {}}))
    for a in [{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
              {"action": "build", "rank": 1, "card": "butcher's shop"}, {"action": "pass"}, {"action": "pass"},
              {"action": "kill", "room": 2, "rank": 0}]:
        four.apply(a)
    other = next(r["room"] for r in four.state["inn"]["rooms"] if r["guest"])
    four.apply({"action": "kill", "player": "Ana", "room": other, "rank": 0, "extra": True})
    for a in [{"action": "pass"}, {"action": "pass"}, {"action": "morning"}, {"action": "welcome"},
              {"action": "pass"}, {"action": "pass"}, {"action": "bury", "annex": 0, "corpse": 1}]:
        four.apply(a)  # the next night: Ben and Cai pass, Ana buries one of her two corpses
    assert four.state["turn"]["player"] == "Ben" and len(four.state["players"][0]["corpses"]) == 1
    assert items(four, "Ana") == {}


def test_the_touchscreens_burial_gets_the_ways_to_pay_from_the_game():
    """«Juega en la mesa tantos cómplices como el rango de la carta»: the burial dialog shows the ways
    the hand could pay the corpse's rank (the same as a pod's offers), the usual first, and each
    way's fields make the burial the rules accept; a corpse is told apart by its rank and money."""
    m = table([{"action": "welcome"}, {"action": "kill", "room": 2, "rank": 2},
               {"action": "pass"}, {"action": "correct", "player": "Ana", "hand": 3, "peasants": 2}])
    ana = m.state["players"][0]
    ways = m.rules.ways_to_pay(ana, 2, "bury")
    assert [cards for _given, cards in ways] == ["pp", "p×", "p↩"]
    assert [str(m.rules.way_signs(cards)) for _given, cards in ways] == ["pp", "p×", "p↩"]
    assert [str(m.rules.way_words(cards)) for _given, cards in ways] == [
        "2 peasants", "1 peasant, 1 lost", "1 peasant, 1 back to hand"]  # the touchscreen's words
    assert str(m.rules.corpse_words(ana["corpses"][0])) == "rank 2, 18F"
    from tablekeeper.ui.i18n import load_catalog

    es = load_catalog("es")  # the peasant's letter in the table's language: c (campesino)
    assert m.rules.way_signs("p↩").translated(es) == "c↩"
    assert m.rules.corpse_words(ana["corpses"][0]).translated(es) == "rango 2, 18F"
    assert m.rules.way_words("p↩").translated(es) == "1 campesino, 1 vuelve a la mano"
    after, _events = grammar.dry_run(m.rules, m.state, {"action": "bury", "player": "Ana", "annex": "barn",
                                                        **ways[2][0]})
    ana = after["players"][0]
    assert (ana["hand"], ana["peasants"], ana["corpses"], after["inn"]["bistro"]) == (2, 1, [], 3)
    assert m.rules.ways_to_pay(ana, 0, "bury") == [({}, "")]  # a rank-0 corpse costs nothing


def test_a_bribe_with_a_traveller_back_is_four_presses():
    """«recuperas todas las cartas que hayas jugado que tengan aptitud para la acción elegida» and «si
    jugaste con Campesinos, colócalos en el bistró»: Ana (2 peasants, a traveller with the bribe
    aptitude) bribes the rank-2 guest in room 2: up held to "bribe 2: p↩" (the bribes' other ways are
    at the end of the offers), main, the room, main — the peasant goes to the bistro, the traveller
    comes back."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"},
                                                     {"action": "correct", "player": "Ana", "hand": 3}])
    t.hold("Ana", UP, repeats=5)  # press, hold, 5 repeats: seven offers up from the first
    assert t.view("Ana").action == "bribe 2: p↩…"
    t.click("Ana", MAIN)  # the room, from room 1 (Ana's)
    t.click("Ana", UP)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "bribe", "player": "Ana", "room": 2, "rank": 2, "peasants": 1, "kept": 1}]
    assert t.presses == 4
    ana = t.state["players"][0]
    assert (ana["hand"], ana["peasants"], t.state["inn"]["bistro"], t.state["inn"]["exit"]) == (3, 1, 1, 0)


def test_a_stray_up_or_down_on_an_idle_pod_moves_no_franc_and_no_check():
    """Every franc and check moves by the rules (wages, departures, burials, laundering: «Fase 1», «Fase
    2»): up and down on Ben's pod during Ana's welcome change nothing, whatever counter has the focus;
    the owner of an annex whose income the device does not work out (a power of the table's own, e.g.
    a stables paying 2F when a traveller checks in) may add it by hand, and only to cash — not during
    another player's night action (such an income comes at a welcome — until the night's first action —,
    a morning, the end, or on its owner's own action)."""
    t = Table("bloody-inn", ["Ana", "Ben"])
    before = t.state
    for _focus in range(3):
        t.click("Ben", UP)
        t.click("Ben", DOWN)
        t.click("Ben", "select")  # the next counter
    assert t.state == before and t.done == []

    u = Table("bloody-inn", ["Ana", "Ben"], actions=[
        {"action": "welcome"}, {"action": "correct", "player": "Ben", "hand": 3}, {"action": "pass"},
        {"action": "build", "rank": 1, "name": "stables", "effect": "other"}])
    cash = u.state["players"][1]["counters"]["cash"]
    assert u.view("Ben").focus_name == "cash"
    assert u.state["turn"]["player"] == "Ana"  # Ana's second action: Ben's pod is idle
    u.click("Ben", UP, 2)
    assert u.state["players"][1]["counters"]["cash"] == cash and u.done == []
    # right after a welcome (the night's first action not taken yet) a check-in income may come: allowed
    welcomed = {**u.state, "turn": {"player": u.state["first_player"], "action": 1}}
    assert welcomed["first_player"] == "Ana" and u.rules.moved_by_hand(welcomed, "Ben", "cash") is True
    u.match.apply({"action": "pass"})  # Ana's: the night goes on with Ben's second action
    assert u.state["turn"]["player"] == "Ben"
    for _kind in range(len(u.rules.offer_kinds) + 1):  # past his offers' kinds to his counters
        if u.view("Ben").tuning:
            break
        u.click("Ben", "select")
    u.click("Ben", UP, 2)
    assert u.state["players"][1]["counters"]["cash"] == cash + 2
    assert u.rules.moved_by_hand(u.state, "Ben", "checks") is False


def test_a_corpse_to_bury_is_told_by_its_rank_and_pocket_and_only_yours_are_counted():
    """«Enterrar un cadáver»: with two corpses that differ, the pod asks which, and says what each is
    ("corpse: rank 1, 12F") — its number alone tells nothing at the table; up stops at the last one."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[
        {"action": "welcome"}, {"action": "kill", "room": 1, "rank": 0}, {"action": "pass"},
        {"action": "kill", "room": 2, "rank": 1}, {"action": "pass"}, {"action": "morning"},
        {"action": "welcome"}, {"action": "pass"}])
    assert [c["rank"] for c in t.state["players"][0]["corpses"]] == [0, 1]
    assert t.view("Ana").action.startswith("bury")
    t.click("Ana", MAIN)
    view = t.view("Ana")
    assert (view.prompt, view.value) == ("corpse: rank 1, 12F", "2")  # her barn: the richest first
    t.click("Ana", DOWN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("corpse: rank 0, 8F", "1")
    t.click("Ana", UP, 3)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("corpse: rank 1, 12F", "2")


def test_a_guests_room_is_told_by_its_key_and_the_room_step_goes_round_the_guests_only():
    """«Selecciona al Viajero que quieras matar» — a guest in a room: the room step names the room by its
    key token (yours, another player's, a neutral one) and says when a police officer is in it, goes only
    through the rooms with a guest, and round from the last to the first (no "–", no empty room)."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome", "police_rooms": [5]},
                                                     {"action": "kill", "room": 4, "rank": 0}, {"action": "pass"}])
    assert [r["room"] for r in t.state["inn"]["rooms"] if r["guest"]] == [1, 2, 3, 5]
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    t.click("Ana", DOWN, labels.index("kill a rank-0 guest"))
    t.click("Ana", MAIN)
    seen = [(t.view("Ana").value, t.view("Ana").prompt)]
    for _i in range(4):
        t.click("Ana", UP)
        seen.append((t.view("Ana").value, t.view("Ana").prompt))
    # by the keys alone, the neutral ones counted apart: four play-testers looked for a story's "N1" among rooms
    # the pod numbered 5–8
    assert seen == [("Ana's", "room"), ("Ben's", "room"), ("neutral 1", "room"),
                    ("neutral 3, police", "room"), ("Ana's", "room")]
    t.click("Ana", DOWN, 2)  # back round: 5, then 3
    assert t.view("Ana").value == "neutral 1"


def test_a_room_an_annex_opened_is_told_apart_from_its_owners_first_room():
    """An annex that puts its builder's key on a closed room («Ahora determinará qué salas están abiertas»):
    the new room is the builder's too, so the welcome's offers name both her rooms by their numbers ("Ana's 1",
    "Ana's 6": a play-tester's step said "Cai's" beside "Cai's 9" and he could not tell which was meant), and a
    kill's room step shows them so."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[
        {"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
        {"action": "build", "rank": 0, "effect": "open_room"}, {"action": "pass"}, {"action": "pass"},
        {"action": "pass"}, {"action": "morning"}])
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ben")]
    assert "welcome: police, Ana's 6" in labels and "welcome: police, Ana's 1" in labels
    assert "welcome: police, Ana's" not in labels
    t.click("Ben", MAIN)  # the whole welcome: six rooms now
    assert all(r["guest"] for r in t.state["inn"]["rooms"]) and len(t.state["inn"]["rooms"]) == 6
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ben")]
    t.click("Ben", DOWN, labels.index("kill a rank-0 guest"))
    t.click("Ben", MAIN)
    seen = set()
    for _i in range(6):
        seen.add((t.view("Ben").value, t.view("Ben").prompt))
        t.click("Ben", UP)
    assert {("Ana's 1", "room"), ("Ana's 6", "room")} <= seen  # both by their numbers


def test_laundering_any_number_of_checks_is_one_offer_each_the_most_first():
    """«Blanqueo» (the notary: 10F on the wealth track for a check, as many as the player likes): all the
    cash can buy is the offer after passing; each smaller amount is an offer of its own further down,
    after the bribes (a third rulebook reader's players banked 20F of 39F: 6 presses through the menu)."""
    m = table([{"action": "welcome"}, {"action": "adjust", "player": "Ana", "counter": "cash", "delta": 30}])
    before = next(p for p in m.state["players"] if p["name"] == "Ana")["counters"]
    cash, checks_held = before["cash"], before["checks"]
    assert 30 <= cash < 40
    labels = [str(i["label"]) for i in m.rules.seat_actions(m.state, "Ana")]
    assert labels[:3] == ["bribe a rank-1 guest", "pass", "bank 30F"]
    menu = items(m, "Ana")
    for amount, checks in (("20", 2), ("10", 1)):
        item = menu[f"bank {amount}F"]
        assert item.action == {"action": "pass", "player": "Ana", "checks": checks} and asked(m, "Ana", item) == []
    last_bribe = max(i for i, label in enumerate(labels) if label.startswith("bribe"))
    assert labels.index("bank 20F") == last_bribe + 1 and labels.index("bank 10F") == last_bribe + 2
    m.apply(dict(menu["bank 20F"].action))
    ana = next(p for p in m.state["players"] if p["name"] == "Ana")["counters"]
    assert ana["cash"] == cash - 20 and ana["checks"] == checks_held + 2


def test_a_table_annex_with_no_card_says_its_blank_power_is_not_told():
    """An annex not on the card list (a table's own Matadero) is built with `card –`; its power left at "–"
    is an annex the device applies nothing for and forbids nothing to (its owner is offered the extra kills,
    adds its francs by hand). A play-tester could not tell "–" from "none" or "the card's": the step says
    "not told" — and once a card is chosen, the card's power."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"},
                                                      {"action": "correct", "player": "Ana", "hand": 3}])
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("build a rank-1 annex") - 2)
    t.click("Ana", MAIN)
    # "–" is a card none of the list's (a play-tester went through the whole list to be sure)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("card: none of these", "–")
    t.click("Ana", MAIN)  # no card: a table's own annex
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("effect: not told", "–")
    # up from "–", the powers the rulebook readers' tables built most: none, the end of the game, per other annex
    # (a play-tester went up ten powers to "end game")
    seen = []
    for _ in range(3):
        t.click("Ana", UP)
        seen.append(t.view("Ana").value)
    assert seen == ["none", "end game", "per annex bonus"], seen
    t.click("Ana", DOWN, 3)
    t.click("Ana", MAIN)
    annex = t.state["players"][0]["annexes"][-1]
    assert "effect" not in annex and annex["rank"] == 1


def test_the_bistros_peasants_are_said_by_the_pods_table_counters():
    """«coloca a los Campesinos en el bistró»: the bistro fills and empties with every payment and every
    "bribe: 2 peasants"; a play-tester could follow it on no pod. The menu's "table counters" says it beside
    the round and the entrance (the corner keeps the round)."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}])
    before = grammar.table_words(t.rules, t.state, "Ana").translated(None)
    t.match.apply({"action": "kill", "room": 3, "rank": 1, "peasants": 1})  # Ana: a peasant to the bistro
    after = grammar.table_words(t.rules, t.state, "Ben").translated(None)
    assert "bistro 0" in before and "bistro 1" in after, (before, after)
    assert [k for k, _v in t.view("Ana").table][:1] == ["round"]  # the corner's one table row: the round


def test_the_morning_tells_each_pod_its_own_lines_also_when_they_cancel_out():
    """«salida de viajeros» then «pago de salarios»: a play-tester's Ana earned 1F for the guest still in her
    room and paid it back in wages; her cash did not move and her pod said nothing, so she trusted it only
    once checked. A pod whose counters the morning left as they were is told the lines about its player; a
    pod whose player is named twice (the first-player card) is told the line that is about them, not the
    whole morning's kinds ("the morning: police, departure, wages")."""
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"],
                          "options": {"peasant_wages": False}}))
    m.apply({"action": "welcome"})
    m.apply({"action": "bribe", "room": 4, "rank": 1, "peasants": 1})  # Ana: an accomplice, 1F of wages
    for _ in range(5):
        m.apply({"action": "pass"})
    before, morning = m.state, {"action": "morning"}
    after, events = m.rules.apply(before, morning)[:2]
    told = {k: v.translated(None) for k, v in
            grammar.affected(m.rules, before, after, m.rules.actor(before, morning), morning, events).items()}
    assert after["players"][0]["counters"] == before["players"][0]["counters"]  # Ana: +1F, −1F
    assert told["Ana"] == "Ana earns 1F: room 1 still has its guest · Ana pays 1F in wages"
    assert told["Ben"] == "Ben earns 1F: room 2 still has its guest: cash +1"  # not "the morning: …"


def test_the_smaller_amounts_to_bank_are_a_select_stop_before_the_builds():
    """«5. Pasar (y lavar dinero)»: the notary takes as many checks as the player likes; the smaller amounts sit
    after the bribes' other ways, and select went from them to the builds, past a play-tester's "bank 20F". They
    are a stop of their own."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"},
                                                     {"action": "adjust", "player": "Ana", "counter": "cash", "delta": 30},
                                                     {"action": "correct", "player": "Ana", "hand": 3}])
    offers = t.rules.seat_actions(t.state, "Ana")
    labels = [str(o["label"]) for o in offers]
    assert labels[:3] == ["bribe 1: p", "pass", "bank 30F"] and "bank 20F" in labels
    landed = []
    for _ in range(len(t.rules.offer_kinds) + 2):
        t.click("Ana", SELECT)
        if t.view("Ana").pick == 0:
            break
        landed.append(labels[t.view("Ana").pick])
    assert "bank 20F" in landed and landed[landed.index("bank 20F") + 1].startswith("build")


def test_a_peasant_killed_in_the_bistro_comes_right_after_the_kills_in_the_rooms():
    """«Matar a un invitado … o a un campesino del bistró»: a play-tester looked for the bistro's kill among the kills
    and found it 10th of 12, behind every bribe (the stories' kills: 49 in rooms, 8 in the bistro). It is one of the
    kills, right after those in the rooms: select's stop on the kills reaches it with down."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"}, {"action": "kill", "room": 2, "rank": 1},
                                                     {"action": "pass"}])
    assert t.state["inn"]["bistro"] == 1
    offers = t.rules.seat_actions(t.state, "Ana")
    labels = [str(o["label"]) for o in offers]
    here = labels.index("kill: bistro")
    assert offers[here]["group"] == offers[here - 1]["group"] == "kill" and labels[here - 1].startswith("kill a rank-")
    assert offers[here + 1]["group"] == "bribe"


def test_select_goes_from_one_kind_of_night_offer_to_the_next_and_past_the_last_to_the_first_again():
    """A night turn with a corpse waiting and a mixed hand offers 30-odd lines («Enterrar un cadáver», «Matar a
    un invitado», «Sobornar a un viajero», «Construir un anexo», «Pasar (y lavar dinero)»): a play-tester's bribe was 13th
    of 18 behind five burials, his burial with a traveller back to the hand 7th of 32 — twelve presses of
    searching each. A select click goes to the first line of the next kind, in the list's order (the burials,
    their other ways, passing and laundering — one action, «5. Pasar (y lavar dinero)»: a later tester's kill was a
    select more away behind "cash a check" —, the kills and bribes per rank, their other ways, the builds), each
    once — from the first offer not its own kind's next line, which down reaches —, past the last to the
    first offer again (no counter of Ana's is hers to change now: all shown at home, and a play-tester went through
    four at every round). It changes nothing."""
    t = Table("bloody-inn", ["Ana", "Ben"], actions=[{"action": "welcome"},
                                                     {"action": "correct", "player": "Ana", "hand": 4},
                                                     {"action": "kill", "room": 2, "rank": 1}, {"action": "pass"}])
    offers = t.rules.seat_actions(t.state, "Ana")
    assert all(o.get("group") for o in offers)
    before = t.state
    landed = []
    for _ in range(len(t.rules.offer_kinds) + 2):
        t.click("Ana", SELECT)
        assert not t.view("Ana").tuning  # never the counters: none is Ana's to change by hand now
        if t.view("Ana").pick == 0:  # past the last kind: the first offer again
            break
        label = t.view("Ana").action.rstrip("…")
        landed.append(next(o for o in offers[1:] if str(o["label"]).rstrip("…") == label))
    kinds = [o["group"] for o in landed]
    # from the first offer (a burial) the next kind: the other burials are down's way, right after it (a
    # play-tester's first select stayed among the burials he meant to leave)
    assert offers[1]["group"] == offers[0]["group"] == "bury"
    assert kinds == ["bury…", "pass", "kill", "bribe", "kill…", "bribe…", "build"]
    # the bribes from rank 1, the stories' likeliest (33 of 59; a play-tester went down from rank 0 every time)
    assert [str(o["label"]) for o in landed][1:4] == ["pass", "kill a rank-0 guest", "bribe 1: p"]
    assert "cash a check" in [str(o["label"]) for o in offers if o["group"] == "pass"]
    # the bribes' other ways are a stop of their own: the full entries go with the kills' (a play-tester's select
    # went from "bribe a guest" on to the builds, past the way he wanted)
    assert str(landed[kinds.index("bribe…")]["label"]).startswith("bribe 1: "), landed[kinds.index("bribe…")]
    # each landing is its kind's first line past the first offer
    assert all(offers.index(o) == next(i for i, x in enumerate(offers) if i and x["group"] == o["group"])
               for o in landed)
    assert t.view("Ana").action.rstrip("…") == str(offers[0]["label"]) and t.state == before and t.done == []
    t.click("Ana", DOWN)  # the line after the first, as ever
    assert t.view("Ana").action.rstrip("…") == str(offers[1]["label"])


def test_the_welcomes_police_rooms_are_the_empty_rooms_by_their_keys():
    """«Coloque al viajero en una habitación abierta»: two police officers at a welcome are entered as a list of
    rooms. A play-tester's `down` from "–" did nothing and said nothing, and a held `up` went on to a room 11
    the inn does not have, accepted without a word; the step named rooms by number where every other room step
    names the key. The list's numbers are the empty rooms, round and round (down from "–" to the last), a room
    already in the list passed over, each said by its key."""
    t = Table("bloody-inn", ["Ana", "Ben"])
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.click("Ana", DOWN, offers.index("welcome: police"))
    assert t.view("Ana").action == "welcome: police…"
    t.click("Ana", MAIN)  # the step: police rooms, from "–"
    neutral = sum(1 for r in t.state["inn"]["rooms"] if r["key"] is None)
    t.click("Ana", DOWN)  # round to the last room: the last neutral key's
    view = t.view("Ana")
    assert (view.value, view.prompt) == (f"neutral {neutral}", "police rooms"), (view.value, view.prompt)
    names = {"Ana's", "Ben's"} | {f"neutral {n}" for n in range(1, neutral + 1)}
    t.hold("Ana", UP, repeats=12)  # far past the inn's rooms: round and round them
    assert t.view("Ana").value in names
    for _i in range(len(names)):  # down to room 1
        if t.view("Ana").value == "Ana's":
            break
        t.click("Ana", DOWN)
    assert t.view("Ana").value == "Ana's"
    t.click("Ana", SELECT)  # room 1 in the list; the next room, from the room after it
    assert t.view("Ana").value == "Ben's"
    t.click("Ana", UP)  # room 3
    t.click("Ana", DOWN)  # room 2 again
    t.click("Ana", MAIN)  # the list ends with it, and the welcome is done
    assert t.done == [{"action": "welcome", "police_rooms": [1, 2]}], t.done
    assert [r["room"] for r in t.state["inn"]["rooms"] if r["police"]] == [1, 2]


def test_two_police_officers_at_a_welcome_are_main_on_each_room():
    """«Coloque al viajero en una habitación abierta»: the welcome's offer for two police officers or more (one
    has an offer per room). A play-tester's main on the first room ended the list with that room alone, and the
    second officer had to be undone and entered again (11 presses): main adds the room shown and goes on to
    the next empty room until two are in the list, saying so; main on the second does the welcome. A third
    officer is added with select, as in any list."""
    t = Table("bloody-inn", ["Ana", "Ben"])
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.click("Ana", DOWN, offers.index("welcome: police"))
    t.click("Ana", MAIN)  # the step: police rooms, from "–"
    t.click("Ana", UP, 2)  # room 2, Ben's
    assert t.view("Ana").hint == "main: add, next"
    t.click("Ana", MAIN)  # room 2 in the list; the next from room 3
    view = t.view("Ana")
    assert t.done == [] and view.lines == ("Ben's",) and view.value == "neutral 1", (view.lines, view.value)
    assert view.hint == "select: add, main: end"
    t.click("Ana", UP)  # room 4
    t.click("Ana", MAIN)  # the second room: the welcome is done
    assert t.done == [{"action": "welcome", "police_rooms": [2, 4]}], t.done
    assert t.presses == len(offers[:offers.index("welcome: police")]) + 6


def test_a_bribe_paid_with_travellers_keeps_them_first_a_kill_loses_them_first():
    """«recuperas todas las cartas que hayas jugado que tengan aptitud para la acción elegida; pierde las otras
    cartas»: which travellers come back depends on their cards. In the rulebook readers' stories 16 bribes paid
    with travellers had them all back and 3 lost them, while kills lost them 7 times to 1: a bribe's usual line
    (down from the first offer, with the kills') keeps the travellers, a kill's loses them (a play-tester's
    "bribe 1: ↩" was 13th of 15)."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 2},
               {"action": "correct", "player": "Ana", "peasants": 0}])
    assert (m.state["players"][0]["hand"], m.state["players"][0]["peasants"]) == (2, 0)
    labels = [str(o["label"]) for o in m.rules.seat_actions(m.state, "Ana")]
    # the bribe's usual way leads the turn (nothing to bury); the kill's comes down the list before its other way
    assert labels.index("bribe 1: ↩") == 0 and labels.index("kill 1: ×") < labels.index("kill 1: ↩") < labels.index("bribe 1: ×")
    usual = next(o for o in m.rules.seat_actions(m.state, "Ana") if str(o["label"]) == "bribe 1: ↩")
    assert usual["group"] == "bribe" and (usual["action"]["peasants"], usual["action"]["kept"]) == (0, 1)


def test_a_burial_under_an_annex_that_makes_it_cheaper_is_one_press_for_no_card_on_the_buriers_pod():
    """A rulebook reader's «Capilla» («quien entierra un cadáver bajo tu Capilla juega una carta menos»): Ben's
    offer to bury under Ana's chapel costs no card and asks nothing (a play-tester's took 42 presses: the device
    refused the burial for no card and he kept a card back instead); under his own barn a card is played."""
    m = table([{"action": "welcome", "police_rooms": []}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "correct", "player": "Ben", "hand": 3},
               {"action": "build", "rank": 1, "name": "Capilla", "effect": "bury_here_discount"},
               {"action": "kill", "room": 1, "rank": 1}, {"action": "pass"}])
    menu = items(m, "Ben")
    chapel = menu["bury: Ana's Capilla"]
    assert asked(m, "Ben", chapel) == [] and not any(label.endswith(": Ana's Capilla") and label != "bury: Ana's Capilla"
                                                       for label in menu)  # one way to pay: none
    barn, _events = grammar.dry_run(m.rules, m.state, menu["bury: barn"].action)
    assert next(p for p in barn["players"] if p["name"] == "Ben")["hand"] == 1  # the barn costs a card
    m.apply(chapel.action)
    ben = next(p for p in m.state["players"] if p["name"] == "Ben")
    assert ben["hand"] == 2 and not ben["corpses"]


def test_a_burial_under_an_annex_that_makes_it_cheaper_starts_at_the_corpse_it_saves_cards_on():
    """Corpses that differ are asked, starting at the likeliest: the poorest under another's annex (the pocket is
    shared) — but under an annex that makes a burial there cheaper, the highest rank, which the discount saves cards
    on (a play-tester burying the rank-1 Monja under another's «Capilla» started at the rank-0 corpse)."""
    m = table([{"action": "welcome", "police_rooms": []}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "correct", "player": "Ben", "hand": 4},
               {"action": "build", "rank": 1, "name": "Capilla", "effect": "bury_here_discount"},
               {"action": "kill", "room": 1, "rank": 1}, {"action": "pass"}, {"action": "kill", "room": 3, "rank": 0},
               {"action": "morning"}, {"action": "welcome", "police_rooms": []}])
    ben = next(p for p in m.state["players"] if p["name"] == "Ben")
    assert [c["rank"] for c in ben["corpses"]] == [1, 0]
    menu = items(m, "Ben")
    assert menu["bury: Ana's Capilla"].action["corpse"] == 1  # the rank-1 corpse: no card instead of one
    assert menu["bury: Ana's barn"].action["corpse"] == 2  # the poorest pocket, shared


def test_a_burial_that_costs_no_card_once_its_corpse_is_chosen_asks_no_card_kept():
    """«Usted y el propietario del anexo comparten el dinero»: Ben buries under Ana's «Capilla» (a burial under
    it costs a card fewer). His corpses differ, so the corpse is asked; once it is chosen the cost is known, and
    when it is no card (the rank-1 corpse there, or the rank-0 one anywhere) the cards "kept" are not asked:
    their only answer is 0 (a play-tester pressed main on a "kept 0" that could be nothing else). Under his own
    barn the rank-1 corpse costs a card, one of his travellers, and whether it comes back is asked."""
    actions = [{"action": "welcome", "police_rooms": []}, {"action": "correct", "player": "Ana", "hand": 3},
               {"action": "correct", "player": "Ben", "hand": 4},
               {"action": "build", "rank": 1, "name": "Capilla", "effect": "bury_here_discount"},
               {"action": "kill", "room": 1, "rank": 1}, {"action": "pass"}, {"action": "kill", "room": 3, "rank": 0},
               {"action": "morning"}, {"action": "welcome", "police_rooms": []},
               {"action": "correct", "player": "Ben", "peasants": 0}]
    m = table(actions)
    ben = next(p for p in m.state["players"] if p["name"] == "Ben")
    assert [c["rank"] for c in ben["corpses"]] == [1, 0] and ben["peasants"] == 0 and ben["hand"] > 1
    menu = items(m, "Ben")
    chapel, barn = menu["bury: Ana's Capilla"], menu["bury: barn"]
    for item, corpse, kept in ((chapel, 1, False), (chapel, 2, False), (barn, 1, True), (barn, 2, False)):
        steps = grammar.asks(m.rules, m.state, "Ben", item)
        assert [a.field.name for a in steps] == ["corpse", "kept"]
        live = grammar.live(m.rules, m.state, "Ben", item, steps, {"corpse": corpse, "kept": 0})
        assert (1 in live) == kept, (item.label, corpse)

    t = Table("bloody-inn", ["Ana", "Ben"], actions=actions)
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ben")]
    t.click("Ben", DOWN, offers.index("bury: Ana's Capilla"))
    t.click("Ben", MAIN)  # the corpse step, at the rank-1 corpse
    view = t.view("Ben")
    assert view.prompt.startswith("corpse: rank 1") and view.hint.startswith("main: do it"), view
    t.click("Ben", UP, 2)  # the second, the last: up again changes nothing, and says so
    view = t.view("Ben")
    assert view.value == "2" and [str(m) for m in t.said] == ["2 is the highest"], (view, t.said)
    t.click("Ben", DOWN)
    assert t.view("Ben").value == "1" and len(t.said) == 1
    t.click("Ben", MAIN)  # done: nothing more to ask
    assert t.done == [{"action": "bury", "player": "Ben", "corpse": 1, "owner": "Ana", "annex": "Capilla"}], t.done
    after = next(p for p in t.state["players"] if p["name"] == "Ben")
    assert after["hand"] == ben["hand"] and [c["rank"] for c in after["corpses"]] == [0]


def test_an_annex_that_grants_one_more_action_offers_it_right_after_its_owners_action():
    """Two rulebook readers' «Cuadra» («Acción extra: una vez por ronda, justo después de tu segunda acción, haces
    una tercera»), a table's own power (``extra_action``): a seventh reader's Dee bribed two peasants, then killed,
    as her third action — the pod offered only an extra kill after a kill, and the device refused a kill after a
    bribe. Right after the owner's own action, while the next player has not acted, the owner's pod offers one
    more: a bribe or kill of a guest (asked), each burial, peasants from the bistro (shown first: the pod is idle
    while the next player acts); once taken, nothing more; once the next player acts, nothing either."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
               {"action": "bribe", "room": 3, "rank": 1}])  # Ana's second action: a bribe; Ben's turn now
    assert m.state["turn"]["player"] == "Ben"
    menu = items(m, "Ana")
    assert list(menu)[:3] == ["+bribe a guest", "+kill, rank 0", "+kill, rank 1"], list(menu)
    assert menu["+kill, rank 1"].action["rank"] == 1 and asked(m, "Ana", menu["+kill, rank 1"]) == ["room"]
    offers = {str(o["label"]): o for o in m.rules.seat_actions(m.state, "Ana")}
    assert m.state["inn"]["bistro"] == 1 and offers["+bribe: 1 peasant"]["confirm"] is True  # asks nothing
    kill = menu["+kill a guest"]
    assert kill.action["extra"] is True and asked(m, "Ana", kill)[:2] == ["room", "rank"]
    m.apply({**kill.action, "room": 2, "rank": 0})  # the third action, a kill after a bribe: taken
    ana = next(p for p in m.state["players"] if p["name"] == "Ana")
    assert len(ana["corpses"]) == 1 and m.state["turn"]["player"] == "Ben"
    assert not any(i.action.get("extra") for i in grammar.menu(m.rules, m.state, "Ana"))  # one more is one
    # another night: once the next player acts, the moment is gone until the night's end
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"}])
    assert m.state["turn"]["player"] == "Ana" and not any(label.startswith("+") for label in items(m, "Ana"))
    # a player without the power is offered nothing after their action
    m = table([{"action": "welcome"}, {"action": "pass"}])
    assert not any(label.startswith("+") for label in items(m, "Ana"))


def test_one_more_action_may_come_at_the_nights_end_whoever_acted_last():
    """An eighth rulebook reader's «Capilla»: «después de las segundas acciones de todos», one more action — its
    owner bribed a guest once the night's last player had acted, which the device refused (only the player who
    acted last could take it then). Every action done, before the morning, an owner of such an annex who took
    none this night is offered it and the device takes it; one is one; one taken earlier that night is the one."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
               {"action": "pass"}, {"action": "pass"}])  # Ben acted last: the morning comes
    assert m.state["phase"] == "morning" and m.state["turn"]["last"] == "Ben"
    menu = items(m, "Ana")
    assert "+bribe a guest" in menu and not any(label.startswith("+") for label in items(m, "Ben"))
    room = next(r["room"] for r in m.state["inn"]["rooms"] if r["guest"])
    m.apply({**menu["+bribe a guest"].action, "room": room, "rank": 0})
    assert not any(label.startswith("+") for label in items(m, "Ana"))  # one more is one
    with pytest.raises(RuleError):
        m.apply({"action": "bribe", "player": "Ana", "extra": True, "bistro": 1})
    # the same annex's extra taken right after Ana's first action: none more at the night's end
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
               {"action": "pass"}])
    rooms = [r["room"] for r in m.state["inn"]["rooms"] if r["guest"]]
    m.apply({"action": "bribe", "player": "Ana", "extra": True, "room": rooms[0], "rank": 0})
    m.apply({"action": "pass"})  # Ben: the night's last action
    assert m.state["phase"] == "morning" and not any(label.startswith("+") for label in items(m, "Ana"))
    with pytest.raises(RuleError):
        m.apply({"action": "bribe", "player": "Ana", "extra": True, "room": rooms[1], "rank": 0})


def test_one_more_action_may_be_a_build_with_everything_asked():
    """An eighth rulebook reader's «Capilla» («Acción extra») gave its owner a build as the third action: no
    one-more line had a build, and the pods could not enter it. Right after the owner's action, `+build an
    annex…` asks its rank, card and power as the night's full entry does, and the device takes it as the extra."""
    m = table([{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
               {"action": "bribe", "room": 3, "rank": 1}])  # Ana's second action, a bribe: Ben's turn now
    menu = items(m, "Ana")
    build = menu["+build an annex"]
    assert build.action["extra"] is True and asked(m, "Ana", build)[:2] == ["rank", "card"]
    m.apply({**build.action, "rank": 0, "effect": "none"})
    ana = next(p for p in m.state["players"] if p["name"] == "Ana")
    assert [a["name"] for a in ana["annexes"]] == ["barn", "annex 1", "annex 2"] and m.state["turn"]["player"] == "Ben"
    assert not any(label.startswith("+") for label in items(m, "Ana"))  # one more is one


def test_one_more_action_after_the_nights_last_action_comes_before_the_morning():
    """«justo después de tu segunda acción, haces una tercera»: when the owner of that annex took the night's last
    action, the third comes before the morning (a seventh reader's Dee, last in her round, had to take it before
    her second action): the owner's pod offers it until the first player's morning is pressed, and the device
    takes it; the morning is offered as usual."""
    m = table([{"action": "welcome"}, {"action": "pass"}, {"action": "correct", "player": "Ben", "hand": 4},
               {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
               {"action": "bribe", "room": 3, "rank": 1}])  # Ben's second action, the night's last
    assert m.state["phase"] == "morning" and m.state["turn"]["last"] == "Ben"
    menu = items(m, "Ben")
    assert list(menu)[:2] == ["+bribe a guest", "+kill, rank 0"] and "+kill a guest" in menu, list(menu)
    m.apply({**menu["+kill a guest"].action, "room": 2, "rank": 0})
    ben = next(p for p in m.state["players"] if p["name"] == "Ben")
    assert len(ben["corpses"]) == 1 and m.state["phase"] == "morning"
    assert not any(label.startswith("+") for label in items(m, "Ben"))  # one more is one
    assert list(items(m, "Ana"))[0] == "morning"
    refused_state = m.state
    with pytest.raises(RuleError, match="the morning comes next"):
        m.apply({"action": "bribe", "player": "Ana", "bistro": 1, "extra": True})  # Ana has no such annex
    assert m.state == refused_state


def test_no_burial_is_offered_that_the_hand_cannot_pay_for_any_corpse():
    """«Juegue … tantas cartas como el rango del cadáver»: corpses that differ are asked, and a burial was offered
    under every annex with room even when the hand could pay none of them (a play-tester's one-card hand was offered
    eight burials of rank-2 and rank-3 corpses, each refused at its last step). An annex is offered when the hand
    pays its cheapest corpse there."""
    m = table([{"action": "welcome", "police_rooms": []}, {"action": "correct", "player": "Ana", "hand": 6, "peasants": 0},
                {"action": "kill", "room": 1, "rank": 2}, {"action": "pass"}, {"action": "kill", "room": 3, "rank": 3},
                {"action": "pass"}, {"action": "morning"}, {"action": "welcome", "police_rooms": []},
                {"action": "correct", "player": "Ana", "hand": 1, "peasants": 1}, {"action": "pass"}])
    ana = next(p for p in m.state["players"] if p["name"] == "Ana")
    assert [c["rank"] for c in ana["corpses"]] == [2, 3] and ana["hand"] == 1 and m.state["turn"]["player"] == "Ana"
    menu = items(m, "Ana")
    assert menu and not [label for label in menu if label.startswith("bury")], list(menu)
    m.apply({"action": "correct", "player": "Ana", "hand": 2, "peasants": 2})
    assert "bury: barn" in items(m, "Ana")  # two cards pay the rank-2 corpse


def test_one_more_kill_asks_the_pocket_from_its_ranks():
    """A table whose cards print their pockets (``ask_pocket``): the third action's kills come per rank, each pocket
    starting at its rank's (a play-tester's `+kill a guest…` started at the rank-0 pocket after he entered rank 2)."""
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"ask_pocket": True}}))
    for a in ({"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 4},
              {"action": "build", "rank": 1, "effect": "extra_action"}, {"action": "pass"},
              {"action": "bribe", "room": 3, "rank": 1}):
        m.apply(a)
    menu = items(m, "Ana")
    pockets = m.rules.options["pocket"]
    for rank in range(3):
        item = menu[f"+kill, rank {rank}"]
        assert item.action["money"] == pockets[rank] and asked(m, "Ana", item) == ["room", "money"]


def test_a_tables_own_annex_card_is_built_from_the_pod_by_its_name_in_three_presses():
    """«A partir de ahora, puede beneficiarse de su efecto»: a table whose copy's annexes are not the base
    game's lists them once (option ``annexes``); the card step of a rank's build then goes through that
    rank's cards of the list, each with its power, and the card brings its power: no power step (two rulebook
    readers' tables built 17 annexes named after their own cards, none of which a pod could enter)."""
    own = [{"name": "Destilería", "effect": "per_annex_bonus", "amount": 1, "rank": 2},
           {"name": "Tienda", "effect": "morning_bonus", "amount": 2, "rank": 1},
           {"name": "Cuadra", "effect": "extra_action", "rank": 1}, "Ermita"]
    t = Table("bloody-inn", ["Ana", "Ben"], options={"annexes": own},
              actions=[{"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3}])
    card = t.rules.pod_field(t.state, "Ana", "build", t.rules.actions["build"].field("card"), {"rank": 1})
    assert card is not None and card.choices == ("Tienda", "Cuadra", "Ermita")  # rank 1's and the unranked
    labels = [str(a["label"]) for a in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("build a rank-1 annex") - 2)
    assert t.view("Ana").action == "build a rank-1 annex…"
    t.presses = 0
    t.click("Ana", MAIN)
    t.click("Ana", UP)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("card: morning +2F", "Tienda")
    t.click("Ana", MAIN)
    annex = t.state["players"][0]["annexes"][-1]
    assert (annex["name"], annex["effect"], annex["amount"]) == ("Tienda", "morning_bonus", 2)
    assert t.presses == 3
    # each card of the copy is on the table once: the Tienda built, the next rank-1 build passes over it (a tester
    # went through cards already built)
    card = t.rules.pod_field(t.state, "Ben", "build", t.rules.actions["build"].field("card"), {"rank": 1})
    assert card is not None and card.choices == ("Cuadra", "Ermita")


def test_a_kills_pocket_starts_at_the_last_pocket_entered_for_that_rank():
    """«el dinero que aparece en la carta»: a copy whose cards print their own pockets (``ask_pocket``) is asked
    each kill's; the step starts at the pocket last entered for a guest of that rank in this game, else the option's
    (a tester's rank-1 guests printed 3–4F: each kill went down from 12F with a held press and corrections), a
    peasant's apart."""
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"ask_pocket": True}}))
    for a in ({"action": "welcome"}, {"action": "correct", "player": "Ana", "hand": 3},
              {"action": "correct", "player": "Ben", "hand": 4}):
        m.apply(a)

    def pocket(who, label):
        return items(m, who)[label].action["money"]

    assert pocket("Ana", "kill 1: p") == 12
    m.apply({"action": "kill", "room": 2, "rank": 1, "money": 4, "peasants": 1})
    assert m.state["pockets"] == {"1": 4}
    assert pocket("Ben", "kill 1: p") == 4 and pocket("Ben", "kill: bistro") == 8  # a peasant's: apart


def test_a_police_officer_is_killed_or_bribed_in_his_room_once_the_tables_police_rank_is_known():
    """«Si hay al menos una tarjeta de policía en una habitación abierta en la posada, ¡la policía investiga!»: a
    seventh rulebook reader's table killed four officers to keep them from investigating, 6–7 presses each as a
    rank's kill (its room stepped to, its pocket from another guest's). The device knows the officers' rooms; the
    first officer bribed or killed tells the table's police rank (the cards are alike), a kill the pocket: then
    each officer is a line of his own, his room and rank filled in, only the pocket asked."""
    t = Table("bloody-inn", ["Ana", "Ben"], options={"ask_pocket": True},
              actions=[{"action": "welcome", "police_rooms": [2, 4]}, {"action": "correct", "player": "Ana", "hand": 4},
                       {"action": "correct", "player": "Ben", "hand": 4}])
    assert not [o for o in t.rules.seat_actions(t.state, "Ana") if "police" in str(o["label"])]  # rank not known
    t.match.apply({"action": "bribe", "player": "Ana", "room": 2, "rank": 1})  # the first officer: rank 1
    assert t.state["pockets"] == {"police rank": 1}
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ben")]
    assert "kill: police, neutral 2" in labels and "bribe: police, neutral 2" in labels
    assert labels.index("kill: police, neutral 2") < labels.index("kill a guest")  # with the usual kills
    t.presses = 0
    t.hold("Ben", DOWN, repeats=labels.index("kill: police, neutral 2") - 2)
    assert t.view("Ben").action == "kill: police, neutral 2…"
    t.click("Ben", MAIN)  # the pocket asked, from the rank's
    assert (t.view("Ben").prompt, t.view("Ben").value) == ("money: pocket (F)", "12")
    t.click("Ben", DOWN, 2)
    t.click("Ben", MAIN)
    assert t.presses == 5
    assert t.done[-1] == {"action": "kill", "player": "Ben", "room": 4, "rank": 1, "peasants": 1, "kept": 0,
                          "money": 10}
    assert t.state["players"][1]["corpses"] == [{"rank": 1, "money": 10}]
    assert t.state["pockets"] == {"police rank": 1, "police": 10, "1": 10}
    assert not [o for o in t.rules.seat_actions(t.state, "Ana") if "police" in str(o["label"])]  # none left in
