"""The Bloody Inn: rules from ../shared/RULES.md ("The Bloody Inn") and the
Spanish rulebook ../shared/seeds/bloody-inn.es.txt ("Preparar", "Fase 1/2/3"); parts
marked *publisher's rules* in RULES.md fill the end of the cut-off rulebook copy.
"""
from __future__ import annotations

import json
import tempfile

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tablekeeper.engine import Journal, Match, RuleError, Session, SetupError, canonical, make_rules
from tablekeeper.engine.games.bloody_inn.rules import LEDGER_CAUSES, solo_band

from ..conftest import ROOT, examples, replay, replay_cli, steps

GAME = "bloody-inn"
SCRIPTS = ROOT / "tests" / "engine" / "scripts"
P3 = ("Ana", "Ben", "Cai")


# -- helpers ------------------------------------------------------------------------------
def match(players=P3, **options) -> Match:
    return Match(make_rules({"game": GAME, "players": list(players), "options": options}))


def play(m: Match, *entries) -> Match:
    for e in entries:
        m.apply(e)
    return m


def player(m: Match, name: str) -> dict:
    return next(p for p in m.state["players"] if p["name"] == name)


def cash(m: Match, name: str) -> int:
    return player(m, name)["counters"]["cash"]


def checks(m: Match, name: str) -> int:
    return player(m, name)["counters"]["checks"]


def refused(m: Match, entry: dict, words: str) -> None:
    """The action is refused with ``words`` in its message and changes nothing."""
    before = canonical(m.state), list(m.done)
    with pytest.raises(RuleError, match=words):
        m.apply(entry)
    assert (canonical(m.state), m.done) == before


def passes(m: Match, n: int) -> Match:
    for _ in range(n):
        m.apply({"action": "pass"})
    return m


def set_cash(m: Match, name: str, value: int) -> None:
    m.apply({"action": "adjust", "player": name, "counter": "cash", "delta": value - cash(m, name)})


def wealth(state: dict) -> int:
    return sum(p["counters"]["cash"] + 10 * p["counters"]["checks"] for p in state["players"])


def night(players=P3, **options) -> Match:
    """A game whose first night has begun (every room holds a traveller)."""
    return play(match(players, **options), {"action": "welcome"})


# -- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n, length, entrance, rooms", [
    (1, "short", 70 - 34, 1 + 3), (1, "long", 70 - 26, 1 + 3),
    (2, "short", 70 - 35, 2 + 3), (2, "long", 70 - 25, 2 + 3),
    (3, "short", 70 - 28, 3 + 3), (3, "long", 70 - 16, 3 + 3),
    (4, "short", 70 - 22, 4 + 4), (4, "long", 70 - 6, 4 + 4),
])
def test_setup_removal_table_keys_cash_check_and_peasants(n, length, entrance, rooms):
    """Rulebook "Preparar" (removal table; a key per player + 3 neutral keys, 4 with 4
    players; 5F on the wealth track; one 10F check; two peasants in hand) and the
    publisher's solo rules (remove 34/26; 1 own + 3 neutral keys; 2 peasants in the bistro)."""
    names = ["Ana", "Ben", "Cai", "Dan"][:n]
    m = match(names, length=length)
    inn = m.state["inn"]
    assert inn["entrance"] == entrance and inn["exit"] == 0
    assert len(inn["rooms"]) == rooms
    assert [r["key"] for r in inn["rooms"]] == names + [None] * (rooms - n)
    assert inn["bistro"] == (2 if n == 1 else 0)
    for p in m.state["players"]:
        assert p["counters"] == {"cash": 5, "checks": 1}
        assert (p["hand"], p["peasants"], p["corpses"]) == (2, 2, [])
        assert p["annexes"][0]["name"] == "barn"
    assert m.state["table"] == {"round": 1, "season": 1}
    assert m.state["first_player"] == "Ana" and m.state["phase"] == "welcome"


def test_setup_first_player_option_and_refusals():
    """Rulebook "Preparar": the greediest player takes the first-player card."""
    assert match(first="Cai").state["first_player"] == "Cai"
    with pytest.raises(SetupError, match="no player called 'Zed'"):
        match(first="Zed")
    with pytest.raises(SetupError, match="1–4 players, not 5"):
        match(["A", "B", "C", "D", "E"])
    with pytest.raises(SetupError, match="'length' must be one of"):
        match(length="medium")


# -- the wealth track and laundering -------------------------------------------------------
def test_wealth_track_gain_beyond_40_is_lost_and_said():
    """Rulebook "Importante": no more than 40 francs on the wealth track; the excess is lost."""
    m = match()
    p = m.apply({"action": "adjust", "player": "Ana", "counter": "cash", "delta": 40})
    assert cash(m, "Ana") == 40
    assert player(m, "Ana")["lost"] == 5
    assert any("stops at 40F: 5F lost" in e for e in p.events)
    assert m.state["ledger"]["adjust"] == 35  # only what was kept entered


def test_adjust_keeps_working_on_cash_and_checks_and_undo_restores():
    """Contract case bi-undo: the generic adjust, with undo."""
    m = match(["Ana", "Ben"])
    m.apply({"action": "adjust", "player": "Ben", "counter": "cash", "delta": 7})
    m.apply({"action": "adjust", "player": "Ben", "counter": "checks", "delta": 2, "cause": "annex"})
    assert (cash(m, "Ben"), checks(m, "Ben")) == (12, 3)
    assert m.state["ledger"]["adjust"] == 27
    m.apply({"action": "undo"})
    m.apply({"action": "undo"})
    assert (cash(m, "Ben"), checks(m, "Ben"), m.state["over"]) == (5, 1, False)
    m.apply({"action": "adjust", "player": "Ben", "counter": "cash", "delta": -9})
    assert cash(m, "Ben") == 0  # never below 0


def test_laundering_cash_to_checks_and_back_on_a_pass():
    """Rulebook "5. Pasar (y lavar dinero)": cash → 10F checks, checks → +10F cash."""
    m = night()
    set_cash(m, "Ana", 27)
    m.apply({"action": "pass", "player": "Ana", "checks": 2})
    assert (cash(m, "Ana"), checks(m, "Ana")) == (7, 3)
    m.apply({"action": "pass", "player": "Ben", "checks": -1})
    assert (cash(m, "Ben"), checks(m, "Ben")) == (15, 0)
    assert all(v == 0 for k, v in m.state["ledger"].items() if k != "adjust")


def test_laundering_is_refused_when_it_cannot_apply_in_full():
    """Rulebook "Importante" (40F cap) with "lavar dinero": refused with the reason, never partial."""
    m = night()
    refused(m, {"action": "pass", "checks": 1}, "Ana has 5F in cash: 1 check costs 10F")
    refused(m, {"action": "pass", "checks": -2}, "Ana has only 1 check")
    set_cash(m, "Ana", 35)
    refused(m, {"action": "pass", "checks": -1}, "would take Ana's cash to 45F; the wealth track stops at 40F")
    set_cash(m, "Ana", 30)
    m.apply({"action": "pass", "checks": -1})
    assert cash(m, "Ana") == 40


# -- the welcome and the turn order -------------------------------------------------------
def test_welcome_fills_every_open_room_from_the_entrance_stack():
    """Rulebook "Fase 1": the first player fills every open empty room from the entrance stack."""
    m = play(match(), {"action": "welcome", "police_rooms": [5]})
    rooms = m.state["inn"]["rooms"]
    assert all(r["guest"] for r in rooms)
    assert [r["room"] for r in rooms if r["police"]] == [5]
    assert m.state["inn"]["entrance"] == 42 - 6
    assert m.state["phase"] == "night" and m.state["turn"] == {"player": "Ana", "action": 1}
    refused(m, {"action": "welcome"}, "rooms are all taken")


def test_welcome_one_room_at_a_time_and_its_refusals():
    """Rulebook "Fase 1": one traveller at a time into an open, unoccupied room of the first player's choice."""
    m = match()
    m.apply({"action": "welcome", "room": 3, "police": True})
    assert m.state["phase"] == "welcome" and m.state["inn"]["entrance"] == 41
    refused(m, {"action": "welcome", "room": 3}, "room 3 already has a guest")
    refused(m, {"action": "welcome", "room": 7}, "there is no room 7")
    refused(m, {"action": "welcome", "police_rooms": [3]}, "room 3 gets no traveller in this welcome")
    refused(m, {"action": "pass"}, "travellers have not been welcomed yet: Ana")
    m.apply({"action": "welcome"})
    assert m.state["phase"] == "night" and m.state["inn"]["rooms"][2]["police"]


def last_travellers() -> Match:
    """Three players in the second season's welcome with 4 travellers left for the 5 empty rooms
    (Ana's room 1 took the first season's last one)."""
    m = play(match(), {"action": "correct", "entrance": 1, "exit": 4}, {"action": "welcome", "room": 1})
    assert (m.state["table"]["season"], m.state["inn"]["entrance"], m.state["phase"]) == (2, 4, "welcome")
    return m


def test_welcome_fills_the_rooms_named_first_when_the_last_travellers_run_short():
    """«Coloque al viajero en una habitación abierta, desocupada, de su elección»: with fewer travellers
    than empty rooms, which rooms get them is the first player's choice — "first" names them."""
    m = last_travellers()
    refused(m, {"action": "welcome", "first": [1, 3]}, "room 1 is not an empty open room")
    refused(m, {"action": "welcome", "first": [3, 3]}, "names a room twice")
    plain = play(last_travellers(), {"action": "welcome"})
    assert [r["room"] for r in plain.state["inn"]["rooms"] if not r["guest"]] == [6]  # room order
    m.apply({"action": "welcome", "first": [3, 4, 5, 6]})
    assert [r["room"] for r in m.state["inn"]["rooms"] if not r["guest"]] == [2]  # Ben's room stays empty
    assert m.state["last_round"] and m.state["phase"] == "night" and m.state["inn"]["entrance"] == 0


def test_the_last_travellers_welcome_is_offered_by_whose_room_and_the_neutral_rooms_get_them():
    """The pod's offers for a welcome that cannot fill every room: a player's own room with the neutral
    ones (no player's key), each set of rooms once, the first player's own first; none in a welcome
    that fills every room."""
    first_season = match()
    assert [str(o["label"]) for o in first_season.rules.seat_actions(first_season.state, "Ana")][:2] == [
        "welcome", "welcome: police, Ana's"]
    m = last_travellers()
    offers = m.rules.seat_actions(m.state, "Ana")
    assert [(str(o["label"]), o["action"].get("first")) for o in offers[:3]] == [
        ("welcome", None), ("welcome: Ben + neutral rooms", [2, 4, 5, 6]),
        ("welcome: Cai + neutral rooms", [3, 4, 5, 6])]  # Ana's room is taken; "neutral first" = Ben's
    assert str(offers[3]["label"]).startswith("welcome: police")


def test_two_action_turns_each_in_seat_order_from_the_first_player():
    """Rulebook "Fase 2": from the first player clockwise a first action each, then a second."""
    m = play(match(first="Ben"), {"action": "welcome"})
    seen = []
    while m.state["phase"] == "night":
        t = m.state["turn"]
        seen.append((t["player"], t["action"]))
        m.apply({"action": "pass"})
    assert seen == [("Ben", 1), ("Cai", 1), ("Ana", 1), ("Ben", 2), ("Cai", 2), ("Ana", 2)]
    assert m.state["phase"] == "morning"
    refused(m, {"action": "pass"}, "every player has taken both actions: the morning comes next")


def test_an_action_out_of_turn_is_refused():
    """Rulebook "Fase 2": each player acts on their turn."""
    m = night()
    refused(m, {"action": "pass", "player": "Ben"}, "it is Ana's turn \\(action 1\\), not Ben's")
    refused(m, {"action": "morning"}, "the night is not over: it is Ana's turn")


# -- the four card actions ------------------------------------------------------------------
def test_bribe_a_guest_pays_the_rank_in_cards_with_aptitude_back_and_peasants_to_the_bistro():
    """Rulebook "1. Sobornar": play rank cards, aptitude cards return, peasants go to the
    bistro, others to the exit stack; the bribed guest joins the hand."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 4})  # 2 peasants and 2 travellers
    m.apply({"action": "bribe", "room": 2, "rank": 3, "peasants": 1, "kept": 1})
    ana = player(m, "Ana")
    # 3 played: 1 peasant → bistro, 1 kept, 1 traveller → exit; + the bribed guest.
    assert (ana["hand"], ana["peasants"]) == (4 - 2 + 1, 1)
    assert (m.state["inn"]["bistro"], m.state["inn"]["exit"]) == (1, 1)
    assert not m.state["inn"]["rooms"][1]["guest"]
    assert m.state["turn"]["player"] == "Ben"


def test_bribe_peasants_from_the_bistro_one_or_two_for_free():
    """Rulebook "1. Sobornar": peasants in the bistro are rank 0; take one or two."""
    m = match(["Ana"])  # solo: 2 peasants start in the bistro
    m.apply({"action": "welcome"})
    refused(m, {"action": "bribe", "bistro": 3}, '"bistro" is how many peasants you take, 1 or 2')
    m.apply({"action": "bribe", "bistro": 2})
    assert (player(m, "Ana")["hand"], player(m, "Ana")["peasants"], m.state["inn"]["bistro"]) == (4, 4, 0)
    refused(m, {"action": "bribe", "bistro": 1}, "the bistro is empty")


def test_card_actions_refuse_what_the_hand_cannot_pay():
    """Rulebook, the four actions: as many cards as the chosen card's rank."""
    m = night()
    refused(m, {"action": "kill", "room": 1, "rank": 3}, "Ana has only 2 cards in hand; this needs 3 played")
    # A count the player gives is checked against the hand the device knows.
    refused(m, {"action": "kill", "room": 1, "rank": 2, "peasants": 0},
            "Ana holds 0 travellers and 2 peasants: 2 cards with only 0 peasants")
    # «si jugaste con Campesinos, colócalos en el bistró»: a peasant never returns to the hand.
    refused(m, {"action": "kill", "room": 1, "rank": 2, "peasants": 2, "kept": 1}, "Ana plays no traveller")
    refused(m, {"action": "bribe", "room": 9, "rank": 0}, "there is no room 9")
    m.apply({"action": "kill", "room": 1, "rank": 0})
    refused(m, {"action": "bribe", "room": 1, "rank": 0}, "room 1 has no guest to bribe")


def test_build_an_annex_from_a_traveller_with_its_rank():
    """Rulebook "2. Construya un anexo": a traveller from hand becomes an annex; play its rank
    in other cards; peasants (and police) cannot become annexes."""
    m = night()
    refused(m, {"action": "build", "rank": 1}, "no traveller in hand to build an annex from")
    m.apply({"action": "correct", "player": "Ana", "hand": 3})  # a traveller joins the two peasants
    refused(m, {"action": "build", "rank": 3, "peasants": 2}, "only 2 cards in hand besides the annex")
    m.apply({"action": "build", "rank": 2, "name": "distillery", "peasants": 2})
    ana = player(m, "Ana")
    assert ana["annexes"][1] == {"name": "distillery", "rank": 2, "buried": []}
    assert (ana["hand"], ana["peasants"], m.state["inn"]["bistro"]) == (0, 0, 2)


def test_kill_makes_an_unburied_corpse_with_its_pocket_money():
    """Rulebook "3. Mata a un invitado" and RULES.md guest pockets (rank 2 = 18F, rank 3 = 26F)."""
    m = night()
    m.apply({"action": "kill", "room": 2, "rank": 2, "peasants": 2})
    assert player(m, "Ana")["corpses"] == [{"rank": 2, "money": 18}]
    assert not m.state["inn"]["rooms"][1]["guest"]
    m.apply({"action": "kill", "player": "Ben", "room": 3, "rank": 0, "money": 7})
    assert player(m, "Ben")["corpses"] == [{"rank": 0, "money": 7}]


def test_kill_a_peasant_in_the_bistro():
    """Rulebook "3. Mata": a guest in a room or in the bistro; peasants may be killed."""
    m = night()
    refused(m, {"action": "kill", "bistro": True}, "the bistro is empty")
    m.apply({"action": "kill", "room": 1, "rank": 1, "peasants": 1})  # a peasant goes to the bistro
    m.apply({"action": "kill", "player": "Ben", "bistro": True, "money": 3})
    assert player(m, "Ben")["corpses"] == [{"rank": 0, "money": 3}]
    assert m.state["inn"]["bistro"] == 0


def test_bury_under_your_own_annex_takes_all_the_money():
    """Rulebook "4. Enterrar": under your own annex you take all the money; the barn counts."""
    m = night()
    refused(m, {"action": "bury", "annex": 0}, "Ana has no corpse to bury")
    m.apply({"action": "kill", "room": 1, "rank": 1, "money": 12, "peasants": 1})
    m.apply({"action": "pass"})
    m.apply({"action": "pass"})
    p = m.apply({"action": "bury", "annex": 0, "peasants": 1})
    ana = player(m, "Ana")
    assert cash(m, "Ana") == 17 and ana["corpses"] == []
    assert ana["annexes"][0]["buried"] == [{"money": 12, "by": "Ana"}]
    assert m.state["ledger"]["bury"] == 12
    assert any("takes its 12F" in e for e in p.events)


def test_bury_under_another_players_annex_shares_the_money_odd_franc_to_the_burier():
    """Rulebook "4. Enterrar": you and the annex's owner share the corpse's money (odd franc:
    see docs/games/bloody-inn.md — to the burier)."""
    m = night()
    m.apply({"action": "kill", "room": 1, "rank": 0, "money": 13})
    passes(m, 2)
    m.apply({"action": "bury", "owner": "Cai", "annex": 0})
    assert (cash(m, "Ana"), cash(m, "Cai")) == (5 + 7, 5 + 6)
    assert player(m, "Cai")["annexes"][0]["buried"] == [{"money": 13, "by": "Ana"}]


def test_each_share_of_a_burial_is_capped_at_40_on_its_own():
    """Rulebook "Importante": 40F at most on the wealth track, for the owner's share too."""
    m = night()
    set_cash(m, "Cai", 38)
    m.apply({"action": "kill", "room": 1, "rank": 0, "money": 26})
    passes(m, 2)
    p = m.apply({"action": "bury", "owner": "Cai", "annex": 0})
    assert (cash(m, "Ana"), cash(m, "Cai"), player(m, "Cai")["lost"]) == (18, 40, 11)
    assert any("Cai's wealth track stops at 40F: 11F lost" in e for e in p.events)


def test_an_annex_holds_as_many_corpses_as_its_rank():
    """Rulebook "4. Enterrar": an annex holds as many corpses as its rank; rank 0 holds none."""
    m = night(barn=1)
    m.apply({"action": "correct", "player": "Cai", "hand": 3})
    m.apply({"action": "kill", "room": 1, "rank": 0})  # Ana
    m.apply({"action": "kill", "room": 2, "rank": 0})  # Ben
    m.apply({"action": "build", "rank": 0, "name": "garden"})  # Cai's rank-0 annex
    m.apply({"action": "bury", "annex": 0})  # Ana fills her rank-1 barn
    refused(m, {"action": "bury", "owner": "Ana", "annex": 0}, "that annex is full: Ana's barn \\(rank 1\\)")
    refused(m, {"action": "bury", "owner": "Cai", "annex": 1}, "that annex is full: a rank-0 annex holds no corpse")
    refused(m, {"action": "bury", "owner": "Cai", "annex": 2}, "Cai has no annex 2")
    m.apply({"action": "bury", "owner": "Cai", "annex": 0})
    assert [len(p["corpses"]) for p in m.state["players"]] == [0, 0, 0]
    assert player(m, "Cai")["annexes"][0]["buried"] == [{"money": 8, "by": "Ben"}]


def test_bury_asks_which_corpse_when_they_differ():
    """Rulebook "4. Enterrar": select the corpse to bury among yours."""
    m = night()
    m.apply({"action": "kill", "room": 1, "rank": 0, "money": 8})
    passes(m, 2)
    m.apply({"action": "kill", "room": 2, "rank": 0, "money": 5})
    passes(m, 2)
    m.apply({"action": "morning", "police": False})
    m.apply({"action": "welcome"})
    passes(m, 1)  # Ben is first player now: order Ben, Cai, Ana
    passes(m, 1)
    refused(m, {"action": "bury", "annex": 0}, "Ana has 2 corpses: say which")
    m.apply({"action": "bury", "corpse": 2, "annex": 0})
    assert player(m, "Ana")["corpses"] == [{"rank": 0, "money": 8}]


def test_extra_action_for_an_annex_power_does_not_use_a_turn():
    """RULES.md "Annexes with effects": e.g. the butcher's shop kills several travellers in
    one action; the extra kill is recorded with "extra": true and leaves the turn where it is.
    Only an annex that grants it allows one; the butcher's shop "only applies to Travelers in
    rooms, not to Peasants" (the publisher's card list)."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 5})
    refused(m, {"action": "kill", "room": 5, "rank": 1, "peasants": 1, "extra": True},
            "Ana has no annex that grants an extra kill")
    m.apply({"action": "build", "rank": 0, "name": "butcher's shop", "effect": "extra_kill"})
    passes(m, 2)
    refused(m, {"action": "kill", "bistro": True, "extra": True}, "not peasants in the bistro")
    m.apply({"action": "kill", "player": "Ana", "room": 5, "rank": 1, "peasants": 1, "extra": True})
    assert m.state["turn"] == {"player": "Ana", "action": 2, "killer": "Ana", "killed_again": True,
                               "extra_by": "Ana", "last": "Cai"}  # Cai's action ended last; Ana's extra taken
    m.apply({"action": "kill", "room": 6, "rank": 1, "peasants": 1})
    assert m.state["turn"] == {"player": "Ben", "action": 2, "killer": "Ana", "last": "Ana"}  # until Ben acts
    m.apply({"action": "pass"})
    assert m.state["turn"] == {"player": "Cai", "action": 2, "last": "Ben"}
    assert [c["money"] for c in player(m, "Ana")["corpses"]] == [12, 12]
    refused(m, {"action": "pass", "extra": True}, "unexpected field 'extra'")


def test_an_extra_kill_after_the_nights_last_kill_comes_before_the_morning():
    """The butcher's shop kills several travellers «en la misma acción»: when that kill is the night's last
    action, its extra kill is still the night's — the morning waits for it (a fifth rulebook reader's table
    had to enter it before the kill). The pod of the killer offers it first; then the morning."""
    m = night()
    m.apply({"action": "correct", "player": "Cai", "hand": 5})
    passes(m, 2)  # Ana, Ben
    m.apply({"action": "build", "rank": 0, "name": "butcher's shop", "effect": "extra_kill"})  # Cai
    passes(m, 2)  # Ana, Ben: their second actions
    m.apply({"action": "kill", "room": 5, "rank": 1, "peasants": 1})  # Cai: the night's last action
    assert m.state["phase"] == "morning"
    first = m.rules.seat_actions(m.state, "Cai")[0]
    assert first["action"]["extra"] is True and first["action"]["action"] == "kill"
    assert m.rules.seat_view(m.state, "Cai")["status"] == "extra kill?"
    # the table waits for Cai: the first player's morning is behind a preview, her pod says why
    assert m.rules.seat_view(m.state, "Ana")["status"] == "Cai: +kill?"
    assert all(o.get("confirm") for o in m.rules.seat_actions(m.state, "Ana"))
    # the money step says what the number is, once: "money: pocket (F)" above the 12 (a play-tester read
    # "pocket 12F" above a "12" as two amounts)
    assert m.rules.pod_value_words(m.state, "Cai", "kill", "money", 12) == "pocket (F)"
    refused(m, {"action": "kill", "player": "Ben", "room": 6, "rank": 1, "extra": True}, "the morning comes next")
    m.apply({"action": "kill", "room": 6, "rank": 1, "peasants": 1, "extra": True})  # no turn's player: Cai's
    assert [c["money"] for c in player(m, "Cai")["corpses"]] == [12, 12]
    assert m.state["phase"] == "morning"
    assert m.rules.seat_view(m.state, "Ana")["status"] == "Cai: +kill?"  # the butcher's shop kills several
    m.apply({"action": "morning"})
    assert m.state["phase"] == "welcome"
    refused(m, {"action": "kill", "player": "Cai", "room": 7, "rank": 1, "extra": True}, "not been welcomed yet")


def test_an_extra_kill_on_another_players_turn_needs_a_kill_just_done():
    """An extra kill is one more victim of an action that kills: an annex owner's stray extra kill while
    another player acts, after an action of theirs that killed no one, changes nothing."""
    m = night()
    m.apply({"action": "correct", "player": "Ana", "hand": 5})
    m.apply({"action": "build", "rank": 0, "name": "butcher's shop", "effect": "extra_kill"})  # Ana
    refused(m, {"action": "kill", "player": "Ana", "room": 5, "rank": 1, "peasants": 1, "extra": True},
            "Ana did not kill in the action just done")
    assert m.rules.seat_actions(m.state, "Ana") == []


def test_correct_sets_what_the_table_shows_but_never_money():
    """DESIGN.md "the device keeps the piles' sizes": a correction for slips; money only by adjust."""
    m = match()
    m.apply({"action": "correct", "entrance": 9, "exit": 3, "bistro": 1})
    assert {k: m.state["inn"][k] for k in ("entrance", "exit", "bistro")} == {"entrance": 9, "exit": 3, "bistro": 1}
    m.apply({"action": "correct", "room": 2, "guest": True, "police": True})
    assert m.state["inn"]["rooms"][1] == {"room": 2, "key": "Ben", "guest": True, "police": True}
    refused(m, {"action": "correct", "player": "Ana", "peasants": 3}, "cannot hold 3 peasants in a hand of 2")
    refused(m, {"action": "correct", "hand": 3}, '"hand" and "peasants" need "player"')
    refused(m, {"action": "correct"}, "nothing to correct")
    refused(m, {"action": "correct", "player": "Ana", "cash": 3}, "unexpected field 'cash'")


def test_history_tells_the_actions_in_words(journal):
    """`tablekeeper history` shows the journal readable, naming who acted."""
    s = Session.new(journal, GAME, list(P3))
    for e in ({"action": "welcome", "police_rooms": [4]}, {"action": "kill", "room": 1, "rank": 0},
              {"action": "pass", "checks": -1}, {"action": "adjust", "player": "Cai", "counter": "cash",
                                                 "delta": 4, "cause": "Park"}):
        s.apply(e)
    assert [h["text"] for h in s.history()] == [
        "welcome the travellers (police in 4)", "Ana kills the rank-0 guest of room 1",
        "Ben passes and cashes 1 check", "Cai: cash +4 (Park)"]


# -- the morning ---------------------------------------------------------------------------------
def test_police_investigation_costs_10_per_unburied_corpse_checks_count_pay_what_you_can():
    """Rulebook "A. Investigación policial": 10F per unburied corpse, checks count; who
    cannot pay pays what they can; the corpses are discarded."""
    m = play(match(), {"action": "welcome", "police_rooms": [6]})
    m.apply({"action": "kill", "room": 1, "rank": 0})
    m.apply({"action": "kill", "room": 2, "rank": 0})
    m.apply({"action": "kill", "room": 3, "rank": 0})
    m.apply({"action": "kill", "room": 4, "rank": 0})
    m.apply({"action": "kill", "room": 5, "rank": 0})
    set_cash(m, "Ben", 23)
    passes(m, 1)
    # Ana 2 corpses, 5F + 1 check: the check pays one, 5F of the other (5F short).
    # Ben 2 corpses, 23F: 20F cash.  Cai 1 corpse, 5F + 1 check: the check.
    # Then no departure money (rooms 1–5 emptied, room 6 neutral) and 2F wages each:
    # Ana cannot pay (discards 2 peasants), Ben 3 → 1, Cai 5 → 3.
    m.apply({"action": "morning"})
    assert [(cash(m, n), checks(m, n)) for n in P3] == [(0, 0), (1, 1), (3, 0)]
    assert player(m, "Ana")["hand"] == 0
    assert all(p["corpses"] == [] for p in m.state["players"])
    assert m.state["inn"]["discarded"] == 5
    assert m.state["ledger"]["police"] == -(5 + 10 + 20 + 10)


def test_police_only_when_a_police_card_is_in_an_open_room():
    """Rulebook "A.": the police investigate only if a police card is in an open room;
    killing or bribing the officer first avoids it."""
    m = play(match(), {"action": "welcome", "police_rooms": [6]})
    m.apply({"action": "kill", "room": 6, "rank": 0})  # the officer himself
    passes(m, 5)
    p = m.apply({"action": "morning"})
    assert "no police in the inn" in p.events
    assert player(m, "Ana")["corpses"] != []
    # The override when the table forgot to say a police card arrived:
    m.apply({"action": "welcome"})
    passes(m, 6)
    m.apply({"action": "morning", "police": True, "police_checks": {"Ana": 1}})
    assert player(m, "Ana")["corpses"] == [] and checks(m, "Ana") == 0


def test_departure_pays_1_per_own_key_room_still_holding_a_guest():
    """RULES.md B (publisher's rules): 1F per room with your key that still has a guest;
    then every guest goes to the exit stack."""
    m = night()
    m.apply({"action": "kill", "room": 2, "rank": 0})  # Ben's room is emptied
    m.apply({"action": "bribe", "room": 4, "rank": 0})  # a neutral room
    passes(m, 4)
    for name in P3:  # no wages to blur the count
        m.apply({"action": "correct", "player": name, "hand": 0, "peasants": 0})
    m.apply({"action": "morning"})
    assert [cash(m, n) for n in P3] == [6, 5, 6]
    assert m.state["inn"]["exit"] == 4  # rooms 1, 3, 5, 6
    assert not any(r["guest"] for r in m.state["inn"]["rooms"])
    assert m.state["ledger"]["departure"] == 2


def test_wages_1_per_card_and_an_accomplice_lost_per_franc_short():
    """RULES.md C (publisher's rules): 1F per card in hand; who cannot pay pays all their
    cash and discards one accomplice per franc short (peasants to the bistro)."""
    m = night()
    m.apply({"action": "correct", "player": "Ben", "hand": 5})  # 2 peasants + 3 travellers
    set_cash(m, "Ben", 2)
    passes(m, 6)
    m.apply({"action": "morning", "wage_peasants": {"Ben": 1}})
    ben = player(m, "Ben")
    # Ben: +1 departure → 3F; 5 due, 3 paid, 2 short → 1 peasant (bistro) + 1 traveller (exit).
    assert (cash(m, "Ben"), ben["hand"], ben["peasants"]) == (0, 3, 1)
    assert m.state["inn"]["bistro"] == 1
    assert (cash(m, "Ana"), player(m, "Ana")["hand"]) == (5 + 1 - 2, 2)
    assert m.state["ledger"]["wages"] == -(3 + 2 + 2)


def test_wages_default_discards_peasants_first_and_waived_wages():
    """RULES.md C: unpaid accomplices are discarded; some annexes waive a wage."""
    m = night()
    set_cash(m, "Ana", 0)
    passes(m, 6)
    m.apply({"action": "morning", "wages_waived": {"Cai": 2}})
    # Ana: +1 departure, 2 due, 1 paid → discards 1 peasant.
    assert (cash(m, "Ana"), player(m, "Ana")["hand"], player(m, "Ana")["peasants"]) == (0, 1, 1)
    assert cash(m, "Cai") == 6  # nothing due


def test_a_table_whose_peasants_cost_no_wages_says_so_once_at_setup():
    """The rulebook copy ends before the wages (a fifth reader's table had its own player-aid card: a
    franc per accomplice, peasants free). Option peasant_wages false: the morning waives the peasants by
    itself — no waiver to enter every morning; the status's warning counts the same."""
    m = night(peasant_wages=False)
    m.apply({"action": "correct", "player": "Ben", "hand": 5})  # 2 peasants + 3 travellers
    set_cash(m, "Ben", 1)
    passes(m, 4)  # to Ben's second action
    assert m.rules.seat_view(m.state, "Ben")["status"] == "wages 3F > cash 1F"
    passes(m, 2)
    m.apply({"action": "morning"})
    ben = player(m, "Ben")
    # Ben: +1 departure → 2F; 3 due (the travellers), 2 paid, 1 short → 1 traveller to the exit stack
    assert (cash(m, "Ben"), ben["hand"], ben["peasants"]) == (0, 4, 2)
    assert (cash(m, "Ana"), player(m, "Ana")["hand"]) == (5 + 1, 2)  # two peasants: nothing due
    publisher = night()
    passes(publisher, 6)
    publisher.apply({"action": "morning"})
    assert cash(publisher, "Ana") == 5 + 1 - 2


def test_a_table_whose_cards_print_their_own_pockets_is_asked_each_kills_money():
    """RULES.md "Guest pockets (check against your own cards)": with option ask_pocket the pods' kills
    ask the money, starting at the rank's; without it, they do not (the rank's is the card's)."""
    m = night(ask_pocket=True)
    kill = next(o for o in m.rules.seat_actions(m.state, "Ana") if o["label"] == "kill a rank-1 guest")
    assert kill["ask"] == ["room", "money"] and kill["action"]["money"] == 12
    m.apply({**kill["action"], "room": 5, "money": 4, "peasants": 1})
    assert player(m, "Ana")["corpses"] == [{"rank": 1, "money": 4}]
    plain = night()
    kill = next(o for o in plain.rules.seat_actions(plain.state, "Ana") if o["label"] == "kill a rank-1 guest")
    assert kill["ask"] == ["room"] and "money" not in kill["action"]


def test_morning_passes_the_first_player_card_and_starts_a_round():
    """RULES.md "Then the first-player card passes to the next player clockwise"."""
    m = night()
    passes(m, 6)
    refused(m, {"action": "morning", "police_checks": {"Zed": 1}}, "no player called 'Zed'")
    m.apply({"action": "morning"})
    assert (m.state["first_player"], m.state["table"]["round"], m.state["phase"]) == ("Ben", 2, "welcome")


# -- seasons and the end ---------------------------------------------------------------------------
def test_first_exhaustion_shuffles_the_exit_stack_into_a_new_season():
    """Rulebook "Fase 1, Nota": the first time the entrance stack empties, the exit stack
    becomes the new entrance stack."""
    m = match()
    m.apply({"action": "correct", "entrance": 4, "exit": 20})
    p = m.apply({"action": "welcome"})
    inn = m.state["inn"]
    assert m.state["table"]["season"] == 2
    assert (inn["entrance"], inn["exit"]) == (20 - 2, 0)
    assert all(r["guest"] for r in inn["rooms"]) and not m.state["last_round"]
    assert any("season 2 begins" in e for e in p.events)


def test_second_exhaustion_plays_a_last_round_even_if_the_inn_is_not_full():
    """Rulebook "Fase 1, Nota": the second time, one last normal round, inn full or not."""
    m = match()
    m.apply({"action": "adjust", "counter": "season", "delta": 1})
    m.apply({"action": "correct", "entrance": 4})
    m.apply({"action": "welcome"})
    assert m.state["last_round"] and m.state["phase"] == "night"
    assert sum(r["guest"] for r in m.state["inn"]["rooms"]) == 4
    passes(m, 6)
    m.apply({"action": "morning"})
    assert m.state["phase"] == "count" and not m.state["over"]
    assert [x["name"] for x in m.state["pending"]] == list(P3)


def test_last_round_skipped_when_fewer_travellers_than_players():
    """Rulebook "Fase 1, Nota, Excepción": no last round with fewer travellers than players."""
    m = match()
    m.apply({"action": "adjust", "counter": "season", "delta": 1})
    m.apply({"action": "correct", "entrance": 2})
    p = m.apply({"action": "welcome"})
    assert m.state["phase"] == "count"
    assert any("the last round is not played" in e for e in p.events)
    m.apply({"action": "resolve"})
    assert m.state["over"] and m.state["winners"] == list(P3)  # all at 15F: shared


def test_final_count_cash_plus_checks_minus_unburied_corpses():
    """RULES.md "End and scoring": cash + 10F per check; the unburied-corpse penalty option
    (default 10F each)."""
    def finish(**options):
        m = match(**options)
        m.apply({"action": "adjust", "counter": "season", "delta": 1})
        m.apply({"action": "correct", "entrance": 3})
        m.apply({"action": "welcome"})
        m.apply({"action": "kill", "room": 1, "rank": 0})  # Ana keeps a corpse
        passes(m, 5)
        m.apply({"action": "morning"})  # Ana 5+1 departure? room 1 emptied: 5 − 2 wages = 3
        m.apply({"action": "adjust", "player": "Cai", "counter": "cash", "delta": 4, "cause": "Park"})
        m.apply({"action": "resolve"})
        return m
    m = finish()
    fc = m.state["final_count"]
    # Ana 3 + 10 − 10; Ben 5 + 1 − 2 + 10 = 14; Cai 5 + 1 − 2 + 4 + 10 = 18.
    assert [fc[n]["total"] for n in P3] == [3, 14, 18]
    assert m.state["winners"] == ["Cai"] and m.view()["draw"] is False
    assert finish(corpse_penalty=0).state["final_count"]["Ana"]["total"] == 13
    refused(m, {"action": "adjust", "player": "Ana", "counter": "cash", "delta": 1}, "the game is over")


@pytest.mark.parametrize("tie, winners", [("shared", ["Ana", "Ben"]), ("most_cash", ["Ben"]),
                                          ("most_checks", ["Ana"])])
def test_tie_option_shared_victory_by_default(tie, winners):
    """RULES.md "End and scoring": the tie-break is a documented option, shared victory by default."""
    m = match(["Ana", "Ben"], tie=tie)
    m.apply({"action": "adjust", "player": "Ana", "counter": "checks", "delta": 1})
    m.apply({"action": "adjust", "player": "Ben", "counter": "cash", "delta": 10})
    m.apply({"action": "adjust", "counter": "season", "delta": 1})
    m.apply({"action": "correct", "entrance": 1})
    m.apply({"action": "welcome"})  # 1 traveller < 2 players: straight to the count
    m.apply({"action": "resolve"})
    assert m.state["winners"] == winners


# -- solo ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("score, band", [(0, None), (109, None), (110, "worrying"), (129, "worrying"),
                                         (130, "hazardous"), (150, "evil"), (169, "evil"),
                                         (170, "demonic"), (300, "demonic")])
def test_solo_score_bands(score, band):
    """Publisher's solitaire rules: 110–129 worrying, 130–149 hazardous, 150–169 evil,
    170+ demonic (source in docs/games/bloody-inn.md)."""
    assert solo_band(score) == band


def test_solo_loses_with_an_unburied_corpse_at_a_police_investigation():
    """RULES.md solo variant: any unburied corpse at a police investigation loses the game."""
    m = play(match(["Ana"]), {"action": "welcome", "police_rooms": [3]})
    m.apply({"action": "kill", "room": 1, "rank": 0})
    m.apply({"action": "pass"})
    m.apply({"action": "morning"})
    assert m.state["over"] and m.state["winners"] == [] and m.state["solo"]["lost"]
    assert "police investigation" in m.state["solo"]["why"]


def test_solo_loses_with_an_unburied_corpse_at_the_end_and_gets_a_band_otherwise():
    """RULES.md solo variant: an unburied corpse at the end loses; otherwise the score's band."""
    def last_round(*night):
        m = match(["Ana"])
        m.apply({"action": "adjust", "counter": "season", "delta": 1})
        m.apply({"action": "correct", "entrance": 1})
        m.apply({"action": "welcome"})  # 1 traveller for 1 player: the last round is played
        play(m, *night, {"action": "morning"})
        return m
    m = last_round({"action": "kill", "room": 1, "rank": 0}, {"action": "pass"})
    m.apply({"action": "resolve"})
    assert m.state["solo"]["lost"] and m.state["winners"] == []
    assert "unburied corpse at the end" in m.state["solo"]["why"]
    m = last_round({"action": "pass"}, {"action": "pass"})
    m.apply({"action": "adjust", "player": "Ana", "counter": "checks", "delta": 10})
    m.apply({"action": "resolve"})
    # 5F + 1F departure − 2F wages = 4F, and 11 checks.
    assert m.state["solo"] == {"lost": False, "why": None, "score": 4 + 110, "band": "worrying"}
    assert m.state["winners"] == ["Ana"]


# -- pods ------------------------------------------------------------------------------------------
def test_pod_view_and_main_button_follow_the_phase():
    """DESIGN.md pods: the main button does the routine action of the moment."""
    rules = make_rules({"game": GAME, "players": list(P3)})
    m = Match(rules)
    assert rules.seat_actions(m.state, "Ana")[0]["action"] == {"action": "welcome"}
    assert rules.seat_actions(m.state, "Ben") == []
    # «El primer jugador es responsable de dar la bienvenida»: the others' pods say whose press it is
    assert (rules.seat_view(m.state, "Ana")["status"], rules.seat_view(m.state, "Ben")["status"]) == (
        "welcome guests", "Ana welcomes")
    m.apply({"action": "welcome"})
    view = rules.seat_view(m.state, "Ana")
    assert view["status"] == "your action 1"
    assert view["counters"][:2] == [["cash", 5], ["checks", 1]]
    main = rules.seat_actions(m.state, "Ana")[0]  # a hand of peasants and guests in the rooms: a bribe leads
    assert main["label"] == "bribe a rank-1 guest" and main["ask"] == ["room"]
    m.apply({"action": "pass", "player": "Ana"})
    assert m.state["turn"]["player"] == "Ben"
    passes(m, 5)
    assert rules.seat_actions(m.state, "Ana")[0]["action"] == {"action": "morning"}
    assert (rules.seat_view(m.state, "Ana")["status"], rules.seat_view(m.state, "Cai")["status"]) == (
        "morning: press", "Ana: morning")


# -- scripted games through `tablekeeper replay` ----------------------------------------------------
def test_full_three_player_short_game_through_replay_checked_by_hand():
    """A whole 3-player short game (tests/engine/scripts/bloody-inn-3p-short.jsonl) through
    the real `tablekeeper replay` command. Final count checked by hand below.

    Rooms: 1 Ana, 2 Ben, 3 Cai, 4–6 neutral. Entrance 70 − 28 = 42. "dep" = departure
    (1F per own room still holding its guest), "wag" = wages (1F per card in hand).

    R1 (first Ana) entrance 36. Ana kills r4 (12F, a peasant played), Ben bribes r5,
    Cai passes, Ana buries the corpse under her barn +12 → 17, Ben and Cai pass.
    dep Ana/Ben/Cai +1 → 18/6/6;
    wag 0/3/2 → Ana 18, Ben 3, Cai 4. exit 4.
    R2 (Ben) entrance 30, police in r6. Ben cashes a check → 13 (0 checks); Cai kills r1
    (18F); Ana bribes 2 peasants; Ben builds the distillery (rank 2); Cai passes; Ana buys
    a check → 8 (2 checks). Police: Cai pays his corpse with his check → 4F, 0 checks.
    dep Ben, Cai +1 → Ben 14, Cai 5; wag Ana 2 → 6. exit 9.
    R3 (Cai) entrance 24. Cai bribes r3; Ana kills r4 (12F); Ben bribes 2 peasants; Cai
    kills r5 (8F); Ana buries under Ben's distillery: 6F each → Ana 12, Ben 20. dep Ana, Ben
    +1 → 13, 21; wag Cai 1 → 4, Ben 2 → 19. exit 12.
    R4 (Ana) entrance 18, police in r3. Ana bribes 2; Ben kills r1 (18F); Cai buries his
    8F corpse under his barn → 12; Cai buys a check → 2 (1 check). Police: Ben pays 10 → 9.
    dep Ben, Cai +1 → 10, 3; wag Ana 2 → 11, Cai 1 → 2. exit 17.
    R5 (Ben) entrance 12. Ben bribes 2; Ana kills r6 (18F); Ben bribes r4. dep all +1 →
    Ana 12, Ben 11, Cai 3; wag Ben 2 → 9, Cai 1 → 2. exit 21.
    R6 (Cai) entrance 6. Cai bribes 2, Ana bribes 2, Ben builds the parlor (rank 1), Cai
    kills r2 (26F, keeps 1 card), Ana buries in her barn +18 → 30. dep Ana, Cai +1 → 31, 3;
    wag Cai 1 → 2. exit 26.
    R7 (Ana) the entrance stack runs out: the 26 exit cards are season 2. Bribes; Ana kills
    r3 (12F); Cai buries 26F under Ben's distillery: 13 each → Cai 15, Ben 22. dep Ana, Ben
    +1 → 32, 23; wag Ana 1 → 31, Ben 2 → 21. exit 6, entrance 26.
    R8 (Ben) entrance 20, police in r4. Ben buys 2 checks → 1; Ana buries 12F in her barn:
    31 + 12 = 43 → 40, 3F lost; Ana buys 3 checks → 10 (5 checks). Police: no corpses.
    dep all +1 → Ana 11, Ben 2, Cai 16; wag Ben 2 → 0, Cai 2 → 14.
    R9 (Cai) entrance 14. Cai kills r1 (18F); Ana bribes 2; Ben bribes r5. dep Ben, Cai
    +1 → 1, 15; wag Ana 2 → 9; Ben owes 3, pays 1, discards 2 peasants → 0F, 1 card.
    R10 (Ana) entrance 8. Ben cashes a check → 10 (1 check); Cai buries 18F under Ben's
    parlor: 9 each → Cai 24, Ben 19. dep all +1 → Ana 10, Ben 20, Cai 25; wag Ana 2 → 8,
    Ben 1 → 19.
    R11 (Ben) entrance 2. Ben buys a check → 9 (2 checks); Cai buys 2 → 5 (3 checks); Ana
    kills r2 (12F) and leaves the corpse unburied. dep Ana, Cai +1 → 9, 6; wag Ben 1 → 8,
    Ana 1 → 8.
    R12 (Cai): the last 2 travellers arrive, the entrance stack empties for the second
    time; 2 travellers < 3 players: the last round is not played. Final count:
      Ana  8 + 5 × 10 − 1 corpse × 10 = 48   ← winner
      Ben  8 + 2 × 10                = 28
      Cai  6 + 3 × 10                = 36
    """
    out = replay_cli(SCRIPTS / "bloody-inn-3p-short.jsonl")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    by = {p["name"]: p for p in view["players"]}
    assert {n: by[n]["counters"] for n in P3} == {
        "Ana": {"cash": 8, "checks": 5}, "Ben": {"cash": 8, "checks": 2}, "Cai": {"cash": 6, "checks": 3}}
    assert {n: view["final_count"][n]["total"] for n in P3} == {"Ana": 48, "Ben": 28, "Cai": 36}
    assert view["final_count"]["Ana"]["penalty"] == 10
    assert view["winners"] == ["Ana"] and view["over"] and not view["draw"]
    assert view["table"] == {"round": 12, "season": 2}
    assert by["Ana"]["lost"] == 3
    assert [len(a["buried"]) for a in by["Ben"]["annexes"]] == [0, 2, 1]
    # 45F at the start + the ledger = what the players hold (8+50 + 8+20 + 6+30 = 122).
    assert 45 + sum(view["ledger"].values()) == 122


def test_solo_short_game_through_replay():
    """A whole solo short game (tests/engine/scripts/bloody-inn-solo-short.jsonl): 36
    travellers, 4 rooms (room 1 Ana's), 2 peasants in the bistro.

    Burials: 18 + 18 (barn), 18 (butcher's shop), 12 (barn), 18 (butcher's shop),
    18 (chapel, in the last round) = 102F. Departures: 1F in every round but the 7th
    (Ana killed her own room's guest) = 15F. Wages: 2+2+2+3+1+2 = 12F (rounds 1, 2, 3, 5,
    9, 13). 5 + 10 + 102 + 15 − 12 = 120F = 30F cash + 9 checks: a worrying innkeeper.
    Round 16 is the last (the entrance stack empties a second time with 4 travellers in).
    """
    out = replay_cli(SCRIPTS / "bloody-inn-solo-short.jsonl")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["players"][0]["counters"] == {"cash": 30, "checks": 9}
    assert view["solo"] == {"lost": False, "why": None, "score": 120, "band": "worrying"}
    assert view["winners"] == ["Ana"] and view["table"] == {"round": 16, "season": 2}
    assert view["ledger"] == {"bury": 102, "departure": 15, "police": 0, "wages": -12, "adjust": 0, "transfer": 0}


def test_replay_refusal_names_the_line():
    """docs/scripting.md: an illegal line exits 2 with `line N:` and the rule's message."""
    lines = [{"game": GAME, "players": ["Ana", "Ben"]}, {"action": "welcome"},
             {"action": "bury", "annex": 0}]
    out = replay_cli(lines)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "line 3: Ana has no corpse to bury"
    assert replay(lines[:2])["phase"] == "night"


# -- Hypothesis: random sequences with undo/redo and journal reloads ----------------------------------
ALLOWED = {"bury": {"bury"}, "morning": {"police", "departure", "wages"}, "adjust": {"adjust"}, "transfer": {"transfer"}}


def cards(state: dict) -> int:
    """Every card the device accounts for (conserved by all actions but `correct`)."""
    inn = state["inn"]
    total = inn["entrance"] + inn["exit"] + inn["bistro"] + inn["discarded"]
    total += sum(r["guest"] for r in inn["rooms"])
    for p in state["players"]:
        total += p["hand"] + len(p["annexes"]) - 1 + len(p["corpses"])
        total += sum(len(a["buried"]) for a in p["annexes"])
    return total


class BloodyInnMachine(RuleBasedStateMachine):
    """Random games: mostly plausible actions for the phase, some nonsense, undo and redo."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory(prefix="tk-bi-")
        self.journal = Journal(self.dir.name, durable=False)
        self.session = None

    def teardown(self):
        self.journal.close()
        self.dir.cleanup()

    @initialize(n=st.integers(1, 4), length=st.sampled_from(["short", "long"]), entrance=st.integers(0, 14))
    def start(self, n, length, entrance):
        self.names = ["Ana", "Ben", "Cai", "Dan"][:n]
        self.session = Session.new(self.journal, GAME, self.names, {"length": length})
        self.start_wealth = 15 * n
        # A short entrance stack so random games reach season 2 and the end.
        self.session.apply({"action": "correct", "entrance": entrance, "exit": 6})
        self.cards = cards(self.session.state)

    def _apply(self, entry):
        state = self.session.state
        before = canonical(state)
        ledger, total, ncards = dict(state["ledger"]), wealth(state), cards(state)
        try:
            self.session.apply(entry)
        except RuleError:
            assert canonical(self.session.state) == before, f"refused {entry} changed the state"
            return
        after = self.session.state
        changed = {k for k in LEDGER_CAUSES if after["ledger"][k] != ledger[k]}
        assert changed <= ALLOWED.get(entry["action"], set()), (entry, changed)
        assert wealth(after) - total == sum(after["ledger"].values()) - sum(ledger.values())
        assert cards(after) == ncards, entry

    @rule(data=st.data(), steps=st.integers(1, 4))
    def plausible(self, data, steps):
        """A few actions that fit the phase (many legal, some refused)."""
        for _ in range(steps):
            self._plausible(data)

    def _plausible(self, data):
        state = self.session.state
        phase = state["phase"]
        rooms = len(state["inn"]["rooms"])
        room = st.integers(1, rooms + 1)
        small = st.integers(0, 2)
        if phase == "welcome":
            entry = data.draw(st.one_of(
                st.builds(lambda p: {"action": "welcome", "police_rooms": p},
                          st.lists(st.integers(1, rooms), max_size=2, unique=True)),
                st.builds(lambda r, p: {"action": "welcome", "room": r, "police": p}, room, st.booleans())))
        elif phase == "night":
            entry = self._night_action(data, state)
        elif phase == "morning":
            entry = data.draw(st.builds(
                lambda p, w: {"action": "morning", **({} if p is None else {"police": p}),
                              "wage_peasants": w},
                st.one_of(st.none(), st.booleans()),
                st.dictionaries(st.sampled_from(self.names), small, max_size=1)))
        else:
            entry = {"action": "resolve"}
        self._apply(entry)

    def _cost(self, data, p: dict, rank: int, *, besides: int = 0) -> dict:
        """Cards paid for a rank: mostly what the hand can pay, sometimes not."""
        travellers = p["hand"] - p["peasants"] - besides
        hi = max(0, min(rank, p["peasants"]))
        peasants = data.draw(st.integers(min(hi, max(0, rank - travellers)), hi))
        kept = data.draw(st.integers(0, max(0, rank - peasants)))
        return {"peasants": peasants, "kept": kept}

    def _night_action(self, data, state) -> dict:
        p = next(x for x in state["players"] if x["name"] == state["turn"]["player"])
        occupied = [r["room"] for r in state["inn"]["rooms"] if r["guest"]] or [1]
        room = data.draw(st.sampled_from(occupied))
        kinds = ["pass", "bribe", "bribe_bistro", "build", "kill", "kill_bistro", "bury"]
        kind = data.draw(st.sampled_from(kinds + ["bury"] * 4 * bool(p["corpses"])))
        if kind == "pass":
            return {"action": "pass", "checks": data.draw(st.integers(-1, 2))}
        if kind == "bribe_bistro":
            return {"action": "bribe", "bistro": data.draw(st.integers(1, 2))}
        if kind == "kill_bistro":
            return {"action": "kill", "bistro": True}
        if kind == "bury":
            owner = data.draw(st.sampled_from(self.names))
            annexes = next(x for x in state["players"] if x["name"] == owner)["annexes"]
            rank = p["corpses"][0]["rank"] if p["corpses"] else 0
            return {"action": "bury", "corpse": 1, "owner": owner,
                    "annex": data.draw(st.integers(0, len(annexes) - 1) | st.just(len(annexes))),
                    **self._cost(data, p, rank)}
        if kind == "build":
            rank = data.draw(st.integers(0, min(3, max(0, p["hand"] - 1))))
            return {"action": "build", "rank": rank, **self._cost(data, p, rank, besides=1)}
        rank = data.draw(st.integers(0, min(3, p["hand"])))
        entry = {"action": kind, "room": room, "rank": rank, **self._cost(data, p, rank)}
        if kind == "kill":
            entry["money"] = data.draw(st.sampled_from([8, 12, 13, 18, 26]))
        return entry

    @rule(data=st.data(), steps=st.integers(1, 4))
    def plausible_again(self, data, steps):
        self.plausible(data, steps)

    @rule(entry=st.one_of(
        st.builds(lambda who, counter, delta: {"action": "adjust", "player": who, "counter": counter, "delta": delta},
                  st.sampled_from(["Ana", "Ben", "Zed"]), st.sampled_from(["cash", "checks", "gold"]),
                  st.integers(-15, 45)),
        st.builds(lambda a, b, n: {"action": "transfer", "from": a, "to": b, "counter": "cash", "amount": n},
                  st.sampled_from(["Ana", "Ben"]), st.sampled_from(["Ana", "Ben"]), st.integers(1, 30)),
        st.sampled_from([{"action": "bury"}, {"action": "welcome", "police": True},
                         {"action": "pass", "player": "Ben"}, {"action": "morning"},
                         {"action": "kill", "room": 1}, {"action": "pass", "chekcs": 1},
                         {"action": "resolve"}])))
    def adjustment_or_nonsense(self, entry):
        self._apply(entry)

    @precondition(lambda self: self.session is not None and self.session.match.done)
    @rule()
    def undo_then_redo_is_identity(self):
        before = canonical(self.session.state)
        self.session.apply({"action": "undo"})
        self.session.apply({"action": "redo"})
        assert canonical(self.session.state) == before

    @precondition(lambda self: self.session is not None and len(self.session.match.done) > 1)
    @rule()
    def undo(self):
        self.session.apply({"action": "undo"})

    @invariant()
    def numbers_hold(self):
        if self.session is None:
            return
        state = self.session.state
        for p in state["players"]:
            assert 0 <= p["counters"]["cash"] <= 40
            assert p["counters"]["checks"] >= 0
            assert 0 <= p["peasants"] <= p["hand"]
        assert wealth(state) == self.start_wealth + sum(state["ledger"].values())
        assert cards(state) == self.cards
        assert state["over"] == (state["phase"] == "over")

    @invariant()
    def replay_of_the_journal_equals_the_live_state(self):
        if self.session is None:
            return
        reloaded = Session.load(self.journal, self.session.game_id)
        assert canonical(reloaded.state) == canonical(self.session.state)


TestBloodyInnMachine = BloodyInnMachine.TestCase
TestBloodyInnMachine.settings = settings(max_examples=examples(40), stateful_step_count=steps(40), deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])


OWN_ANNEXES = [{"name": "Destilería", "effect": "per_annex_bonus", "amount": 1, "rank": 2},
               {"name": "Cuadra", "effect": "extra_action", "rank": 1}, "Ermita"]


@pytest.mark.parametrize("bad, said", [
    ([{"name": ""}], "each card is a name or an object"),
    ([7], "each card is a name or an object"),
    (["Cuadra", "Cuadra"], "'Cuadra' is listed twice"),
    ([{"name": "Cuadra", "effect": "sleep"}], "the effect 'sleep', which is none of"),
    ([{"name": "Cuadra", "effect": "extra_kill", "amount": 2}], "an amount but no effect that takes one"),
    ([{"name": "Cuadra", "effect": "morning_bonus", "amount": -1}], "a whole number from 0"),
    ([{"name": "Cuadra", "rank": 4}], "the rank 4: 0, 1, 2 or 3"),
    ([{"name": "Cuadra", "power": "extra"}], "has power: a card has only name, effect, amount and rank"),
])
def test_a_malformed_list_of_the_tables_own_annex_cards_is_refused_with_what_is_wrong(bad, said):
    """«A partir de ahora, puede beneficiarse de su efecto»: a table's own copy lists its annexes once (option
    ``annexes``); a list the device could misread is refused at setup, saying which card and why."""
    with pytest.raises(SetupError, match=said):
        make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"annexes": bad}})


def test_an_annex_of_the_tables_own_copy_brings_the_power_its_table_listed():
    """«Coloque la carta de Viajero elegida frente a usted … A partir de ahora, puede beneficiarse de su efecto»:
    built by its card (or its name), a card of the table's own list carries its power and amount; one listed
    by name only carries none (applied: nothing); a card listed with a rank is built at that rank only; the
    base game's cards stay valid."""
    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {"annexes": OWN_ANNEXES}}))
    m.apply({"action": "welcome"})
    m.apply({"action": "correct", "player": "Ana", "hand": 4})

    def annex(a):
        return m.rules.apply(m.state, {"action": "build", **a})[0]["players"][0]["annexes"][-1]

    assert annex({"rank": 2, "card": "Destilería", "peasants": 2}) == {
        "name": "Destilería", "rank": 2, "buried": [], "effect": "per_annex_bonus", "amount": 1}
    assert annex({"rank": 1, "name": "Cuadra"})["effect"] == "extra_action"
    assert "effect" not in annex({"rank": 1, "card": "Ermita"})
    assert annex({"rank": 1, "card": "gardens"})["effect"] == "morning_bonus"
    with pytest.raises(RuleError, match="Destilería is a rank-2 card, not rank 1"):
        m.rules.apply(m.state, {"action": "build", "rank": 1, "card": "Destilería"})
    with pytest.raises(RuleError, match="'card' must be one of"):
        m.rules.apply(m.state, {"action": "build", "rank": 1, "card": "Molino"})
