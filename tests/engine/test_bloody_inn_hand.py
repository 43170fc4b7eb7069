"""The Bloody Inn: what the device knows of each hand, the annexes' powers, burials by name and
the wage warning. Rules from the Spanish rulebook ../shared/seeds/bloody-inn.es.txt ("Fase 2"),
RULES.md ("Annexes with effects", "Wages", publisher's rules) and the publisher's card list.
"""
from __future__ import annotations

from tablekeeper.engine import Match, make_rules

from .test_bloody_inn import passes, player, refused

P3 = ("Ana", "Ben", "Cai")


def match(players=P3) -> Match:
    return Match(make_rules({"game": "bloody-inn", "players": list(players), "options": {}}))


def night(police_rooms=()) -> Match:
    m = match()
    m.apply({"action": "welcome", "police_rooms": list(police_rooms)})
    return m


# -- police and peasants are never built ------------------------------------------------------
def test_a_bribed_police_officer_can_never_become_an_annex():
    """«Las cartas de Policía y Campesino no pueden convertirse en anexos … no se pueden elegir
    como objetivo de la acción Construir»: the officer welcomed in room 6 stays one in Ana's hand."""
    m = night(police_rooms=[6])
    m.apply({"action": "bribe", "room": 6, "rank": 0})
    assert player(m, "Ana")["police"] == 1
    passes(m, 2)
    refused(m, {"action": "build", "rank": 0}, "Ana's only traveller in hand is a police officer")
    # Another traveller joins: now one of them can be built, the officer cannot.
    m.apply({"action": "bribe", "room": 1, "rank": 0})
    passes(m, 2)
    m.apply({"action": "morning", "police": False})
    assert player(m, "Ana")["police"] == 1  # paid and kept: wages do not make him another card


def test_a_police_officer_played_comes_back_by_its_icon_like_any_traveller():
    """«devuelva las cartas con el icono a su mano … ponga las otras cartas en la pila de salida»: the rulebook
    keeps police from becoming annexes («no hay un icono de casa en la parte inferior de estas cartas»), not from an
    aptitude icon, and two rulebook readers' copies print one on their officers (a bribed gendarme back to his
    player's hand). An officer played comes back when kept, and stays an officer in the hand; lost, he goes."""
    m = night(police_rooms=[6])
    m.apply({"action": "bribe", "room": 6, "rank": 0})  # Ana: 2 peasants + the officer
    passes(m, 2)
    m.apply({"action": "kill", "room": 1, "rank": 3, "kept": 1, "peasants": 2})
    ana = player(m, "Ana")
    assert (ana["hand"], ana["peasants"], ana["police"]) == (1, 0, 1)  # still one: never an annex
    m = night(police_rooms=[6])
    m.apply({"action": "bribe", "room": 6, "rank": 0})
    passes(m, 2)
    m.apply({"action": "kill", "room": 1, "rank": 3, "peasants": 2})  # lost (kept 0, the default)
    ana = player(m, "Ana")
    assert (ana["hand"], ana["peasants"], ana["police"]) == (0, 0, 0)


# -- the device fills what it knows; a count given is checked ---------------------------------
def test_a_hand_of_peasants_pays_without_saying_so():
    """«Debes jugar una cantidad de cartas definidas por el rango»: with only peasants in hand,
    the peasants played are known (they go back to the bistro)."""
    m = night()
    m.apply({"action": "kill", "room": 2, "rank": 2})
    ana = player(m, "Ana")
    assert (ana["hand"], ana["peasants"], m.state["inn"]["bistro"]) == (0, 0, 2)
    assert ana["corpses"] == [{"rank": 2, "money": 18}]


def test_a_mixed_hand_asks_how_many_peasants_when_it_cannot_know():
    """A hand of 1 traveller and 2 peasants pays a rank 2 with 1 or 2 peasants: the player says."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    refused(m, {"action": "kill", "room": 2, "rank": 2}, r"say how many of the 2 cards played are peasants \(1–2")
    m.apply({"action": "kill", "room": 2, "rank": 2, "peasants": 1})
    assert (player(m, "Ana")["hand"], player(m, "Ana")["peasants"]) == (1, 1)


def test_played_is_the_rank_unless_an_annex_makes_it_cheaper():
    """«tantas cartas … como el rango»; the parlor: "play 1 accomplice fewer to perform the Bribe
    a Guest action" (publisher's card list), and a player may still pay in full."""
    m = night()
    refused(m, {"action": "bury", "played": 0}, "Ana has no corpse")
    refused(m, {"action": "kill", "room": 2, "rank": 2, "played": 0}, "Ana has no annex that makes a kill cheaper")
    refused(m, {"action": "kill", "room": 2, "rank": 1, "played": 2}, "a rank-1 card costs 1 card, not 2")
    m.apply({"action": "correct", "player": "Ana", "hand": 4})  # 2 peasants + 2 travellers
    m.apply({"action": "build", "rank": 1, "name": "parlor", "effect": "bribe_discount", "peasants": 1})
    assert player(m, "Ana")["annexes"][1] == {"name": "parlor", "rank": 1, "buried": [], "effect": "bribe_discount",
                                              "amount": 1}
    passes(m, 2)
    refused(m, {"action": "bribe", "room": 3, "rank": 2, "played": 0}, "at least 1 played")
    p = m.apply({"action": "bribe", "room": 3, "rank": 2, "peasants": 1})
    assert "Ana's annexes make it 1 card cheaper" in p.events
    # 1 peasant played (to the bistro), the guest joins: a traveller and the bribed guest.
    assert (player(m, "Ana")["hand"], player(m, "Ana")["peasants"]) == (2, 0)


def test_an_annex_built_without_its_power_forbids_nothing():
    """Older games name annexes without a power: the device applies none and refuses no discount."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    m.apply({"action": "build", "rank": 0, "name": "workshop"})
    passes(m, 2)
    m.apply({"action": "kill", "room": 2, "rank": 2, "played": 1, "peasants": 1, "extra": True})
    assert player(m, "Ana")["corpses"] == [{"rank": 2, "money": 18}]


# -- burials by the annex's owner and name ----------------------------------------------------
def test_burial_names_the_annex_by_owner_and_name():
    """«Coloque la tarjeta del cadáver debajo de un anexo de su elección, independientemente de
    quién sea el propietario»: the annex is named; the number in build order still works."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    m.apply({"action": "build", "rank": 2, "name": "distillery", "peasants": 2})
    m.apply({"action": "kill", "room": 2, "rank": 0})  # Ben
    m.apply({"action": "kill", "room": 3, "rank": 0})  # Cai
    passes(m, 1)  # Ana
    refused(m, {"action": "bury", "annex": "gardens"}, "Ben has no annex called gardens")
    m.apply({"action": "bury", "annex": "distillery"})  # Ana's, found without "owner"
    assert player(m, "Ana")["annexes"][1]["buried"] == [{"money": 8, "by": "Ben"}]
    refused(m, {"action": "bury", "annex": True}, "the annex's name, or its number")
    m.apply({"action": "bury", "owner": "Ana", "annex": 1})
    assert len(player(m, "Ana")["annexes"][1]["buried"]) == 2



def test_an_annex_that_makes_a_burial_under_it_cheaper_does_so_for_whoever_buries_there():
    """«Coloque la tarjeta del cadáver debajo de un anexo de su elección, independientemente de quién sea el
    propietario»; a rulebook reader's table had a «Capilla»: «quien entierra un cadáver bajo tu Capilla juega una
    carta menos». Ben buries a rank-1 corpse under Ana's chapel for no card; under his own barn it costs one."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    m.apply({"action": "correct", "player": "Ben", "hand": 3})
    m.apply({"action": "build", "rank": 1, "name": "Capilla", "effect": "bury_here_discount"})
    m.apply({"action": "kill", "room": 1, "rank": 1})  # Ben kills a rank-1 guest: one card played
    passes(m, 2)  # Cai, Ana
    assert player(m, "Ben")["hand"] == 2
    refused(m, {"action": "bury", "annex": 0, "played": 0}, "a rank-1 card costs 1 card: Ben has no annex")
    p = m.apply({"action": "bury", "owner": "Ana", "annex": "Capilla"})
    assert "Ana's Capilla makes a burial under it 1 card cheaper" in p.events
    assert player(m, "Ben")["hand"] == 2 and not player(m, "Ben")["corpses"]
    assert player(m, "Ana")["annexes"][1]["buried"][0]["by"] == "Ben"

# -- annex powers every round -------------------------------------------------------------------
def test_annex_powers_apply_every_morning_in_the_history():
    """The gardens: "At the end of each round, earn an additional 2F during the Travelers Leave
    phase"; the distillery: "do not pay the wages for one of the accomplices in your hand"
    (publisher's card list); any other power is reminded."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 5})  # 2 peasants + 3 travellers
    m.apply({"action": "build", "rank": 0, "name": "gardens", "effect": "morning_bonus"})
    m.apply({"action": "correct", "player": "Ben", "hand": 5})
    m.apply({"action": "build", "rank": 0, "name": "distillery", "effect": "wages_waived"})
    m.apply({"action": "correct", "player": "Cai", "hand": 3})
    m.apply({"action": "build", "rank": 0, "name": "chapel", "effect": "other"})
    passes(m, 3)
    p = m.apply({"action": "morning"})
    assert "Ana's gardens: +2F at the departure" in p.events
    assert "Ben's annexes waive 1 wage" in p.events
    assert "Cai's chapel: its power is on the card, not applied: its francs by hand" in p.events
    # Ana 5 + 1 (her room) + 2 (gardens) − 4 wages; Ben 5 + 1 − (4 − 1); Cai 5 + 1 − 2.
    assert [player(m, n)["counters"]["cash"] for n in P3] == [4, 3, 4]
    assert m.state["ledger"]["departure"] == 3 + 2
    # A table that says the wages waived itself overrides the annexes' count.
    m.apply({"action": "welcome"})
    passes(m, 6)
    m.apply({"action": "morning", "wages_waived": {"Ben": 0}})
    assert player(m, "Ben")["counters"]["cash"] == 3 + 1 - 4


def test_an_annex_that_pays_per_other_annex_counts_its_owners_annexes_at_every_departure():
    """Two rulebook readers' tables had an annex that pays for the others («Destilería»: 1F each morning for
    each other annex; «Casa de postas»: 1F at the departure for each other annex): the device knows the
    annexes, so `per_annex_bonus` pays amount × the owner's other annexes (not the barn, nor itself)."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 5})
    m.apply({"action": "build", "rank": 0, "name": "Casa de postas", "effect": "per_annex_bonus"})
    passes(m, 2)  # Ben, Cai
    m.apply({"action": "build", "rank": 0, "name": "Taller"})  # Ana's second action: another annex
    passes(m, 2)
    p = m.apply({"action": "morning"})
    assert "Ana's Casa de postas: +1F at the departure (1 other annex)" in p.events
    # Ana 5 + 1 (her room) + 1 (one other annex) − 3 wages (5 cards, two became annexes)
    assert player(m, "Ana")["counters"]["cash"] == 4
    alone = night()
    alone.apply({"action": "correct", "player": "Ana", "hand": 5})
    alone.apply({"action": "build", "rank": 0, "name": "Casa de postas", "effect": "per_annex_bonus", "amount": 2})
    passes(alone, 5)
    p = alone.apply({"action": "morning"})
    assert not any("Casa de postas: +" in e for e in p.events)  # no other annex: nothing
    assert player(alone, "Ana")["counters"]["cash"] == 5 + 1 - 4


def test_a_gain_now_is_paid_at_the_build():
    """The park: "Immediately earn 4F" (publisher's card list)."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    p = m.apply({"action": "build", "rank": 0, "name": "park", "effect": "gain_now", "amount": 4})
    assert "Ana's park: +4F now" in p.events
    assert player(m, "Ana")["counters"]["cash"] == 9 and m.state["ledger"]["adjust"] == 4
    refused(m, {"action": "build", "rank": 0, "effect": "other", "amount": 2}, '"amount" goes with an effect')


def test_an_annex_that_gives_a_check_gives_it_at_the_build():
    """A rulebook reader's «Casa de empeños»: «Al construirla: toma 1 cheque de 10F del suministro» — the checks
    come with the build (no cash moves), said in its event."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    p = m.apply({"action": "build", "rank": 0, "name": "Casa de empeños", "effect": "gain_checks"})
    assert "Ana's Casa de empeños: +1 check now" in p.events
    assert (player(m, "Ana")["counters"]["checks"], player(m, "Ana")["counters"]["cash"]) == (2, 5)


def test_an_annex_that_opens_a_room_gives_its_builder_a_room_of_their_own():
    """«Ahora determinará qué salas están abiertas»: the setup opens some of the board's rooms (a key on
    each), so an annex can open a closed one with its builder's key (the third reader's «Ala de
    huéspedes»); the room is the builder's like their first: it gets a traveller at every welcome and
    pays them at every departure («1F per occupied room with your key», publisher's rules)."""
    m = night()
    assert len(m.state["inn"]["rooms"]) == 6  # 3 players' keys + 3 neutral doors
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    p = m.apply({"action": "build", "rank": 0, "effect": "open_room"})
    assert "Ana's key opens room 7: a traveller is lodged there from the next welcome" in p.events
    assert m.state["inn"]["rooms"][6] == {"room": 7, "key": "Ana", "guest": False, "police": False, "opened": True}
    passes(m, 5)
    m.apply({"action": "morning"})
    entrance = m.state["inn"]["entrance"]
    m.apply({"action": "welcome"})
    assert m.state["inn"]["entrance"] == entrance - 7 and all(r["guest"] for r in m.state["inn"]["rooms"])
    # Ben (first player now) kills in Ana's new room; her first room keeps its guest.
    m.apply({"action": "kill", "room": 7, "rank": 0})
    assert m.state["inn"]["rooms"][6]["guest"] is False
    passes(m, 5)
    before = player(m, "Ana")["counters"]["cash"]
    wages = player(m, "Ana")["hand"]
    m.apply({"action": "morning"})
    assert player(m, "Ana")["counters"]["cash"] == before + 1 - wages  # room 1 only: room 7 is empty
    m.apply({"action": "welcome"})
    passes(m, 6)
    before = player(m, "Ana")["counters"]["cash"]
    wages = player(m, "Ana")["hand"]
    p = m.apply({"action": "morning"})
    assert "Ana earns 1F: room 7 still has its guest" in p.events
    assert player(m, "Ana")["counters"]["cash"] == before + 2 - wages


def test_a_player_opens_no_more_rooms_than_their_keys():
    """«recibe las 8 fichas de Llave»: a key on every room a player's annexes opened, and one on their own."""
    m = night()
    rooms = m.state["inn"]["rooms"]
    rooms += [{"room": n, "key": "Ana", "guest": True, "police": False, "opened": True} for n in range(7, 14)]
    m.apply({"action": "correct", "player": "Ana", "hand": 3})
    refused(m, {"action": "build", "rank": 0, "effect": "open_room"}, "Ana's 8 keys are all on rooms already")


# -- the warning before the last action of the night ----------------------------------------------
def test_a_warning_before_the_last_action_when_wages_exceed_cash():
    """RULES.md C (publisher's rules): "Who cannot pay pays all their cash, then discards one unpaid
    accomplice per franc short": the player hears it before their last action of the night."""
    m = night()
    m.apply({"action": "correct", "player": "Ben", "hand": 7})
    m.apply({"action": "kill", "room": 1, "rank": 0})
    m.apply({"action": "pass"})
    p = m.apply({"action": "pass"})
    assert not any("Ben's last action" in e for e in p.events)
    p = m.apply({"action": "pass"})  # Ana's second action done: Ben's last comes
    assert any(e.startswith("Ben's last action of the night: 7F of wages are coming and Ben has 5F") for e in p.events)
    view = m.rules.seat_view(m.state, "Ben")
    assert view["alert"] is True and view["status"] == "wages 7F > cash 5F"


def test_wages_past_the_cash_are_said_on_the_players_pod_while_others_play():
    """RULES.md C: "Who cannot pay pays all their cash, then discards one unpaid accomplice per franc short":
    the moment a hand's wages pass the cash (Ben's first action brought him 7 cards on 5F), his pod says so
    through the others' turns — not only before his last action (a play-tester's last bribe left her with 4F
    of wages on 2F and nothing said it) — without the alarm, which stays for his own last action."""
    m = night()
    assert m.rules.seat_view(m.state, "Ben")["status"] == ""
    m.apply({"action": "pass"})  # Ana's first action
    m.apply({"action": "correct", "player": "Ben", "hand": 7})
    m.apply({"action": "pass"})  # Ben's first: another player's turn now
    assert m.state["turn"]["player"] != "Ben"
    view = m.rules.seat_view(m.state, "Ben")
    assert view["status"] == "wages 7F > cash 5F" and view["alert"] is False


def test_the_police_alert_says_its_reason_on_the_players_own_turn():
    """«Si hay al menos una tarjeta de policía en una habitación abierta en la posada, ¡la policía
    investiga! Cada jugador que tenga al menos un cadáver insepulto debe … pagar 10 francos por cada
    cadáver»: on the player's turn the offers take the pod's bottom bar and the header's corner shows the
    status — so the status itself says why the pod alerts."""
    m = night(police_rooms=[6])
    m.apply({"action": "kill", "room": 2, "rank": 2})  # Ana: a corpse, unburied
    assert player(m, "Ana")["corpses"] and m.state["turn"]["player"] != "Ana"
    while m.state["turn"]["player"] != "Ana":
        m.apply({"action": "pass"})
    view = m.rules.seat_view(m.state, "Ana")
    assert view["alert"] is True and view["status"] == "police! 1 corpse"


def test_a_table_whose_copy_pays_nothing_for_an_occupied_room_sets_room_income_to_0():
    """RULES.md, «Travellers' departure (publisher's rules): each player earns 1F for each room holding their key
    that still has a guest»; the Spanish rulebook stops before it, and a reader's table paid nothing there (a tester's
    pods and wealth track then disagreed by 2–3F a player): option ``room_income`` 0 pays nothing, 2 pays 2F."""
    def morning(income):
        m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"room_income": income}}))
        for a in ({"action": "welcome"}, {"action": "pass"}, {"action": "pass"}, {"action": "pass"}, {"action": "pass"}):
            m.apply(a)
        return m.apply({"action": "morning"}), m

    paid, m = morning(0)
    assert not any("still has its guest" in str(e) for e in paid.events)
    assert m.state["ledger"]["departure"] == 0
    paid, m = morning(2)
    assert "Ana earns 2F: room 1 still has its guest" in paid.events and m.state["ledger"]["departure"] == 4
