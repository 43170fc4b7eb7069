"""Mock pods end to end, for every registered game: MockPin presses in, engine state and dummy-device pixels out.

Each test is named by the behaviour it proves.
"""
from __future__ import annotations

import errno

import pytest
from PIL import ImageChops

from tablekeeper.engine import RuleError, canonical
from tablekeeper.engine.messages import translated
from tablekeeper.hardware.face import SHIFTS, Care, shifted
from tablekeeper.hardware.render import render
from tablekeeper.ui.i18n import load_catalog
from tablekeeper.ui.pod import grammar
from tablekeeper.ui.pod.seats import KEPT_SECONDS

from .conftest import GAMES, TIMING


def same_pixels(a, b) -> bool:
    return ImageChops.difference(a.convert("1"), b.convert("1")).getbbox() is None


def assert_pods_show_views(t) -> None:
    """Every mock pod's dummy device shows exactly the rendered view of its seat's current state."""
    for seat, pod in t.rig.pods.items():
        view = t.seats.view(seat)
        assert pod.face.view == view
        assert same_pixels(pod.screen_image, render(view)), f"seat {seat} shows something else than its view"


def expected_after(rules, state, action):
    """The state ``action`` leads to, or the same state if the rules refuse it."""
    try:
        return rules.apply(state, action)[0]
    except RuleError:
        return state


def focused(t, seat: int):
    view = t.seats.view(seat)
    return view.focus_name, view.focus_value


def free(t, name: str, counter: str) -> bool:
    """Whether a pod's up/down on ``name``'s ``counter`` adjust it now (False: a count the game's own
    actions keep, or one the rules do not let that player move by hand at this moment)."""
    return bool(t.rules.moved_by_hand(t.state, name, counter))


def counter_seat(t) -> tuple[int, str]:
    """The first seat whose up/down change its focused counter (not one choosing among the game's offers)."""
    for i, p in enumerate(t.state["players"]):
        if not t.seats.view(i + 1).choosing:
            return i + 1, p["name"]
    # the Red Dragon Inn offers its cards «en cualquier momento» on every idle pod: its counters by hand are
    # select, then up or down, from the offers (tests/hardware/test_red_dragon_inn_pod.py)
    pytest.skip("every pod goes through its offers now: none has up/down on its counters")


def choose(t, seat: int) -> None:
    """Choose the counter a pod shows with select, as a player who means to change it does (a game whose
    counters are its whole input has it chosen already)."""
    if t.rules.select_chooses_counter:
        assert not t.seats.view(seat).tuning
        t.press(seat, "select")
        assert t.seats.view(seat).tuning


@pytest.mark.parametrize("game_id", GAMES)
def test_up_or_down_on_a_counter_not_chosen_changes_nothing(table_factory, game_id):
    """A stray up or down (a finger resting on the pod, a press meant for another) changes no counter: a
    counter is changed by hand only once its player chose it with select, and only in that turn. The
    generic counters game, whose counters are all a table enters, changes the one shown at once."""
    t = table_factory(game_id)
    seat, name = counter_seat(t)
    counter, _ = focused(t, seat)
    before = canonical(t.state)
    if not free(t, name, counter):  # a count the game's own actions keep: chosen or not, never by hand
        for _press in range(2):
            t.press(seat, "up")
            assert canonical(t.state) == before and "kept by the game's actions" in t.seats.view(seat).message
            t.press(seat, "select")
        return
    t.press(seat, "up")
    t.press(seat, "down")
    t.press(seat, "up")
    if not t.rules.select_chooses_counter:  # nothing to choose: no frame either
        assert canonical(t.state) != before and not t.seats.view(seat).tuning
        return
    assert canonical(t.state) == before and not t.seats.view(seat).tuning
    assert "select, then ▲▼" in t.seats.view(seat).message
    choose(t, seat)
    assert focused(t, seat)[0] == counter  # the counter shown is the one chosen, not the next
    t.press(seat, "down")
    if canonical(t.state) == before:  # at its lowest
        t.press(seat, "up")
    assert canonical(t.state) != before


def toward_room(t, name: str, counter: str) -> tuple[str, int]:
    """up (+1), or down (−1) for a counter at its highest (a press at a bound changes nothing and is not sent)."""
    spec = t.rules.player_counters.get(counter)
    value = next(p for p in t.state["players"] if p["name"] == name)["counters"].get(counter)
    if spec is not None and value is not None and spec.clamp(value + 1) == value:
        return "down", -1
    return "up", 1


@pytest.mark.parametrize("game_id", GAMES)
def test_chattering_press_adjusts_focused_counter_once(table_factory, game_id):
    """A chattering contact gives exactly one press; up = focused counter +1 (button map; down −1 for a
    counter at its highest)."""
    t = table_factory(game_id)
    seat, name = counter_seat(t)
    counter, _ = focused(t, seat)
    if free(t, name, counter):
        choose(t, seat)
    before = t.state
    attempts = t.seats.applied + t.seats.refused
    button, delta = toward_room(t, name, counter)
    t.press(seat, button, chatter=6)
    if not free(t, name, counter):  # a count the game's actions keep: a press is no adjustment
        assert t.seats.applied + t.seats.refused == attempts and canonical(t.state) == canonical(before)
        return
    assert t.seats.applied + t.seats.refused == attempts + 1
    action = {"action": "adjust", "player": name, "counter": counter, "delta": delta}
    assert canonical(t.state) == canonical(expected_after(t.rules, before, action))
    assert_pods_show_views(t)


@pytest.mark.parametrize("game_id", GAMES)
def test_down_then_up_returns_and_pixels_follow(table_factory, game_id):
    """Button map: down = -1, up = +1, the pod shows the engine's number after each."""
    t = table_factory(game_id)
    name = t.state["players"][1]["name"]
    counter, _ = focused(t, 2)
    if free(t, name, counter):
        choose(t, 2)
    for button, delta in (("down", -1), ("up", 1)):
        before = t.state
        t.press(2, button, chatter=3)
        action = {"action": "adjust", "player": name, "counter": counter, "delta": delta}
        if not free(t, name, counter):  # a count the game's actions keep: unchanged, and shown so
            assert canonical(t.state) == canonical(before)
        else:
            assert canonical(t.state) == canonical(expected_after(t.rules, before, action))
        assert focused(t, 2)[1] == dict(t.rules.seat_view(t.state, name)["counters"])[counter]
        assert_pods_show_views(t)


@pytest.mark.parametrize("game_id", GAMES)
def test_hold_repeats(table_factory, game_id):
    """Hold repeats: press, hold after hold_time, then one step per repeat interval."""
    t = table_factory(game_id)
    seat, name = counter_seat(t)
    if free(t, name, focused(t, seat)[0]):
        choose(t, seat)
    attempts = t.seats.applied + t.seats.refused
    # The press is accepted after the debounce time, the hold hold_time later, then the repeats;
    # repeats stop as soon as the contact opens.
    held = TIMING.debounce + TIMING.hold_time + 3 * TIMING.repeat_interval + 0.01
    button, _delta = toward_room(t, name, focused(t, seat)[0])
    t.press(seat, button, hold=held)
    if not free(t, name, focused(t, seat)[0]):  # a count the game's actions keep: a held press changes nothing
        assert t.seats.applied + t.seats.refused == attempts
        return
    assert t.seats.applied + t.seats.refused - attempts == 1 + 1 + 3  # press, hold, 3 repeats
    attempts = t.seats.applied + t.seats.refused
    t.press(seat, button, hold=TIMING.debounce + TIMING.hold_time - 0.05)  # released before the hold
    assert t.seats.applied + t.seats.refused - attempts == 1
    assert_pods_show_views(t)


@pytest.mark.parametrize("game_id", GAMES)
def test_select_moves_focus_on_the_screen(table_factory, game_id):
    """Change focus with one press (once the counter shown is chosen); the focused counter is the large one."""
    t = table_factory(game_id)
    seat, _name = counter_seat(t)
    view = t.seats.view(seat)
    if t.rules.select_chooses_counter:
        t.press(seat, "select")  # chooses the counter shown
        assert t.seats.view(seat).focus == view.focus and t.seats.view(seat).tuning
    t.press(seat, "select")
    after = t.seats.view(seat)
    if len(view.counters) >= 2:
        assert after.focus == 1 and after.focus_name == view.counters[1][0]
    else:
        assert after.focus == 0
    assert t.seats.applied == 0  # focus is the pod's own business, not an engine action
    assert_pods_show_views(t)


@pytest.mark.parametrize("game_id", GAMES)
def test_main_button_does_the_games_routine_action(table_factory, game_id):
    """The game's main action of the moment = first of seat_actions, one press."""
    t = table_factory(game_id)
    seats = [(i + 1, p["name"]) for i, p in enumerate(t.state["players"])]
    with_action = [(s, n) for s, n in seats if t.rules.seat_actions(t.state, n)]
    if not with_action:
        t.press(1, "main")
        assert t.seats.view(1).message == "nothing to do now"
        assert_pods_show_views(t)
        return
    seat, name = with_action[0]
    offered = t.rules.seat_actions(t.state, name)[0]
    asks = bool(offered.get("ask"))
    assert t.seats.view(seat).action == str(offered["label"]) + ("…" if asks else "")
    entries = len(t.session.journal.entries(t.session.game_id))
    t.press(seat, "main")
    if asks:  # an offer that asks something starts its first step; nothing is recorded yet
        view = t.seats.view(seat)
        assert view.screen == "entry" and view.prompt == offered["ask"][0]
        assert len(t.session.journal.entries(t.session.game_id)) == entries
    elif t.seats.refused:
        assert t.seats.view(seat).message  # the refusal is shown on the pod
    else:
        journal = t.session.journal.entries(t.session.game_id)
        assert len(journal) == entries + 1
        recorded = journal[-1][1]
        assert {k: recorded.get(k) for k in offered["action"]} == offered["action"]
    assert_pods_show_views(t)


@pytest.mark.parametrize("game_id", GAMES)
def test_select_hold_opens_the_menu_of_every_action_what_home_does_not_offer_first(table_factory, game_id):
    """The grammar: a select hold opens the menu (it used to cycle the offered action); the game's
    other actions lead it (what home does not offer is what a player opens it for), the routine ones
    follow, undo ends it, and a select click goes back home. (The hub caches views by the controls'
    key(); these read the seat's own view.)"""
    t = table_factory(game_id)
    seat, ctl = 1, t.seats.controls[1]
    routine = [str(a["label"]) for a in t.rules.seat_actions(t.state, ctl.player)]
    t.press(seat, "select", hold=TIMING.hold_time + 0.05)
    menu = ctl.view(t.rules, t.state)
    assert menu.screen == "menu" and menu.cursor == 0
    lines = [line.rstrip("…") for line in menu.lines]
    first = lines.index(routine[0])
    assert lines[first:first + len(routine)] == routine
    # the game's own others (if any) before the routine ones, the corrections every game has after them
    place = {grammar.SEAT: 1, grammar.TABLE: 3, grammar.UNDO: 4}
    ranks = [place.get(i.kind, 2 if i.action.get("action") in grammar.CORRECTIONS else 0)
             for i in grammar.menu(t.rules, t.state, ctl.player)]
    assert ranks == sorted(ranks) and ranks.count(1) == len(routine) and 2 in ranks
    assert menu.lines[-1] == "undo"
    assert t.seats.applied == 0 and ctl.view(t.rules, t.state).focus == 0  # a hold does not also move the focus
    t.press(seat, "select")
    assert ctl.view(t.rules, t.state).screen == "home"
    assert_pods_show_views(t)


def test_undo_from_a_pods_menu_takes_back_its_own_players_action_and_says_what(table_factory):
    """An undo done on a pod names the action it took back there, as the touchscreen's history does. A pod
    takes back only its own player's last action: another player (one out of the game, one looking
    through the menu) cannot undo Ben's move behind his back; the pod says whose it is."""
    t = table_factory("counters")
    t.press(2, "up")  # Ben's score +1
    assert t.state["players"][1]["counters"]["score"] == 1
    t.clock.advance(t.seats.message_seconds + 0.1)
    t.settle()
    for seat in (1, 2):
        t.press(seat, "select", hold=TIMING.hold_time + 0.05)  # the menu
        t.press(seat, "up")  # up from the top wraps to its last line: undo
        t.press(seat, "main")
        if seat == 1:  # Ana's pod: not hers to undo
            assert t.state["players"][1]["counters"]["score"] == 1
            assert t.seats.view(1).message == "the last action is Ben's: undo it on Ben's pod or the touchscreen"
            assert t.seats.view(1).screen == "home"
    assert t.state["players"][1]["counters"]["score"] == 0
    message = t.seats.view(2).message
    assert message.startswith("undone: ") and "Ben" in message, message
    assert_pods_show_views(t)
    t.clock.advance(t.seats.message_seconds * 3)
    t.settle()
    assert t.seats.view(2).message == ""


def test_a_pod_undoes_the_action_it_pressed_whoever_that_action_names(table_factory, monkeypatch):
    """A pod takes back its own player's last action — and the action its own press made, whoever it names: a
    play-tester's Cai hit Ben from his pod ("Ben: fortitude −2") and his undo there was refused as "Ben's". A third
    pod still may not undo it."""
    from tablekeeper.ui.pod.inputs import Intent

    t = table_factory("counters", players=["Ana", "Ben", "Cai"])
    ana = t.seats.controls[1]
    real = ana.handle
    hit = {"action": "adjust", "player": "Ben", "counter": "score", "delta": -1}
    sent = []

    def once(*a):  # the press makes the action once (its release: the pod's own handling)
        if sent:
            return real(*a)
        sent.append(hit)
        return Intent(action=dict(hit))

    monkeypatch.setattr(ana, "handle", once)
    t.press(1, "main")  # Ana's pod: Ben's score −1
    assert t.state["players"][1]["counters"]["score"] == -1
    t.clock.advance(t.seats.message_seconds + 0.1)
    t.settle()
    for seat in (3, 1):
        t.press(seat, "select", hold=TIMING.hold_time + 0.05)  # the menu
        t.press(seat, "up")  # undo
        t.press(seat, "main")
        if seat == 3:  # Cai's pod: neither his nor his press
            assert t.state["players"][1]["counters"]["score"] == -1
            assert t.seats.view(3).message == "the last action is Ben's: undo it on Ben's pod or the touchscreen"
    assert t.state["players"][1]["counters"]["score"] == 0  # Ana's pod took back what it did


def test_a_pod_undoes_each_of_its_own_presses_in_turn(table_factory, monkeypatch):
    """A held main made two hits on Dee from Ana's pod (two actions); a play-tester's first undo there took back
    one, and the second was refused as "Dee's" though Ana's pod had pressed it too. Each action a pod pressed
    stays its own to undo until another action takes its place."""
    from tablekeeper.ui.pod.inputs import Intent

    t = table_factory("counters", players=["Ana", "Ben", "Cai"])
    ana = t.seats.controls[1]
    real = ana.handle
    hit = {"action": "adjust", "player": "Ben", "counter": "score", "delta": -1}
    presses = iter([True, False, True, False])  # a press makes the hit, its release is the pod's own

    def hits(*a):
        if next(presses, False):
            return Intent(action=dict(hit))
        return real(*a)

    monkeypatch.setattr(ana, "handle", hits)
    t.press(1, "main")
    t.press(1, "main")
    assert t.state["players"][1]["counters"]["score"] == -2
    monkeypatch.setattr(ana, "handle", real)
    t.clock.advance(t.seats.message_seconds + 0.1)
    t.settle()
    for _ in range(2):
        t.press(1, "select", hold=TIMING.hold_time + 0.05)  # the menu
        t.press(1, "up")  # undo
        t.press(1, "main")
        t.clock.advance(t.seats.message_seconds + 0.1)
        t.settle()
    assert t.state["players"][1]["counters"]["score"] == 0  # both hits taken back on Ana's pod


def test_a_player_paying_for_another_players_press_is_told_what_happened(table_factory):
    """Through the owner, as a table plays: Ana's morning makes Ben pay his wages, and Ben's pod says what
    happened (his guest's departure and his wages: cash −1), not "from Ana" as if Ana had taken his money."""
    t = table_factory("bloody-inn", players=["Ana", "Ben"])
    t.press(1, "main")  # Ana's welcome
    for seat in (1, 2, 1, 2):  # both players pass twice: passing is right after the bribe that leads a night turn
        t.press(seat, "down")
        t.press(seat, "main")
    assert t.state["phase"] == "morning"
    t.press(1, "main")  # Ana, the first player: the morning
    message = t.seats.view(2).message
    assert message.startswith("Ben earns 1F") and "Ben pays" in message and "cash −" in message, message
    assert "from Ana" not in message


def test_the_first_player_who_pressed_the_morning_is_told_what_it_did_to_them(table_factory):
    """«salida de viajeros»: the morning is the table's, pressed on the first player's pod; a play-tester's first
    player saw "✓ morning" while her cash went 5 → 6, where the other pods said what it did to theirs. The
    pod that pressed it says its player's own lines too."""
    t = table_factory("bloody-inn", players=["Ana", "Ben"])
    t.press(1, "main")  # Ana's welcome
    for seat in (1, 2, 1, 2):  # both players pass twice: passing is right after the bribe that leads a night turn
        t.press(seat, "down")
        t.press(seat, "main")
    cash = t.state["players"][0]["counters"]["cash"]
    t.press(1, "main")  # Ana, the first player: the morning
    assert t.state["players"][0]["counters"]["cash"] == cash - 1  # her room's guest left: 1F; 2 peasants' wages
    message = t.seats.view(1).message
    assert message.startswith("Ana earns 1F") and "cash −1" in message and "Ben" not in message, message
    assert t.seats.view(1).status == "✓ morning"


def test_the_pod_that_pressed_says_what_its_press_did_for_a_moment_where_the_status_goes(table_factory):
    """Play-testers saw only their figures change after a press (the others' pods say what it did to
    them): the acting pod shows "✓" and the offer it did, in the table's language, where its status goes,
    for a few seconds; it covers no offer, and the next press works as ever."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben", "Cai"])
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.press(1, "main")
    assert t.seats.view(1).status == f"✓ {offers[0]}"
    assert not t.seats.view(2).status.startswith("✓") and not t.seats.view(3).status.startswith("✓")
    assert t.seats.view(1).choosing and t.seats.view(1).action  # the next offer shows as it did
    t.settle(t.seats.message_seconds + 0.1)
    assert not t.seats.view(1).status.startswith("✓")
    t.seats.catalog = load_catalog("es")
    offers = [str(translated(o["label"], t.seats.catalog)) for o in t.rules.seat_actions(t.state, "Ana")]
    t.press(1, "main")
    assert t.seats.view(1).status == f"✓ {offers[0]}"


def test_a_counter_changed_by_hand_is_ticked_with_a_minus_sign(table_factory):
    """A play-tester's own pod read "✓ fortitude -1" (a hyphen) where every other line writes "−1"."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben", "Cai"])
    choose(t, 1)
    assert focused(t, 1)[0] == "fortitude"
    t.press(1, "down")
    assert t.seats.view(1).status == "✓ fortitude \u22121"


def test_a_counter_changed_by_hand_is_done_with_when_its_tick_goes(table_factory):
    """A play-tester's pod stayed on his fortitude after «Poción de vigor» (select, up ×3): the next offer he
    wanted needed a select first, and a down meant for it would have lowered his fortitude again. Once the
    counter's tick goes, up and down go through the offers again; while it shows, the counter still moves."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben", "Cai"])
    t.session.apply({"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -3})
    t.settle()
    choose(t, 1)
    t.press(1, "up")
    t.press(1, "up")  # within the tick: the counter still moves
    assert t.state["players"][0]["counters"]["fortitude"] == 19 and t.seats.view(1).tuning
    t.settle(t.seats.message_seconds + 0.1)
    view = t.seats.view(1)
    assert view.choosing and not view.tuning and view.pick == 0
    before = canonical(t.state)
    t.press(1, "down")  # the next offer, not fortitude −1
    assert canonical(t.state) == before and t.seats.view(1).pick == 1


def test_a_card_clicked_once_gives_way_to_the_most_likely_offer_when_its_tick_goes(table_factory):
    """A card clicked once stays under the finger, so that a second click plays it again (two extra drinks). A
    play-tester's bar then stayed on "extra drink for Cai 15/21" into his turn's later events, where a held
    main had brought back the first offer, and he counted his steps from the wrong one: once the card's tick
    goes — a while after the usual tick: another play-tester's second click came 4 s after the first — the pod
    shows the most likely offer again; while it shows, a second click does the card again."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben", "Cai"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(labels.index("Cai: fortitude −1")):
        t.press(1, "down")
    t.press(1, "main")
    t.settle(t.seats.message_seconds + 1)  # past the usual tick: still there
    assert t.seats.view(1).action == "Cai: fortitude −1"
    t.press(1, "main")  # the card again
    assert t.state["players"][2]["counters"]["fortitude"] == 18
    assert t.seats.view(1).action == "Cai: fortitude −1" and t.seats.view(1).status == "✓ Cai: fortitude −1 ×2"
    t.settle(t.seats.message_seconds + 0.1)
    t.settle(KEPT_SECONDS + 0.1)
    first = str(t.rules.seat_actions(t.state, "Ana")[0]["label"])
    assert t.seats.view(1).pick == 0 and t.seats.view(1).action == first
    t.press(1, "main")  # the most likely offer, not the card a third time
    assert t.state["players"][2]["counters"]["fortitude"] == 18


def test_a_player_who_moves_on_from_a_card_clicked_once_stays_where_they_went(table_factory):
    """A card clicked once gives way to the most likely offer when its tick goes — unless the player has moved on
    from it (down to the next offer): the pod stays where they went."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben", "Cai"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(labels.index("Cai: fortitude −1")):
        t.press(1, "down")
    t.press(1, "main")
    t.press(1, "down")
    moved = t.seats.view(1).pick
    t.settle(t.seats.message_seconds + KEPT_SECONDS + 1)
    assert t.seats.view(1).pick == moved != 0


def test_the_pods_check_names_what_its_steps_asked(table_factory):
    """A play-tester built a chapel with a power of the table's own and read "✓ build 2: p×": nothing said
    the chapel or its power was kept. The "✓" names the choices the steps asked, as entered, first (the
    header's corner cuts what does not fit)."""
    t = table_factory("bloody-inn", players=["Ana", "Ben"])
    t.press(1, "main")  # Ana's welcome
    t.session.apply({"action": "correct", "player": "Ana", "hand": 3})
    t.settle()
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(len(labels) - labels.index("build a rank-1 annex")):
        t.press(1, "up")  # the offers wrap: up from the first, the builds
    assert t.seats.view(1).action == "build a rank-1 annex…"
    t.press(1, "main")
    t.press(1, "down")  # the chapel, the last of the base game's annexes
    t.press(1, "main")
    for _ in range(4):  # a power of the table's own: none, end game, per annex bonus, then waived wages
        t.press(1, "up")
    t.press(1, "main")
    t.press(1, "main")  # its amount left at its usual
    assert t.state["players"][0]["annexes"][-1]["effect"] == "wages_waived"
    assert t.seats.view(1).status == "✓ chapel, wages waived · build a rank-1 annex"


def test_the_pods_check_names_a_number_its_steps_asked(table_factory):
    """A play-tester entered a treasure's value and read only "✓ room + treasure: again": a wrong value
    would not have shown. A number asked is named too, as entered, in the words its step showed it in
    ("Ben's · kill a rank-0 guest": a play-tester's step said "neutral 2" and its ✓ "room 6")."""
    t = table_factory("bloody-inn", players=["Ana", "Ben"])
    t.press(1, "main")  # Ana's welcome
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(labels.index("kill a rank-0 guest")):
        t.press(1, "down")
    t.press(1, "main")  # its one step: the room, from Ana's own
    t.press(1, "up")  # Ben's, room 2
    t.press(1, "main")
    assert t.state["inn"]["rooms"][1]["guest"] is False and t.state["inn"]["rooms"][0]["guest"] is True
    assert t.seats.view(1).status == "✓ Ben's · kill a rank-0 guest"


def test_a_card_held_on_for_several_points_is_told_to_its_target_as_one_total(table_factory):
    """Through the owner: Ana holds main on "Ben: fortitude −1" (a card that costs 2 or 3: one point a
    press, repeated while held); Ben's pod says the whole of it, "from Ana: fortitude −3", not the last −1
    (a play-tester's victim read −1 for a hit of 2)."""
    t = table_factory("red-dragon-inn", players=["Ana", "Ben"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(labels.index("Ben: fortitude −1")):
        t.press(1, "down")
    assert t.seats.view(1).action == "Ben: fortitude −1"
    start = t.state["players"][1]["counters"]["fortitude"]
    t.press(1, "main", hold=TIMING.hold_time + TIMING.repeat_interval * 1.5)  # the press, the hold, a repeat
    lost = start - t.state["players"][1]["counters"]["fortitude"]
    assert lost == 3
    assert t.seats.view(2).message == "from Ana: fortitude \u22123"
    # Ana's own pod counts it too (a play-tester read "✓ Dee: alcohol +1" for a potion of +2)
    assert t.seats.view(1).status == "✓ Ben: fortitude \u22121 ×3"
    t.clock.advance(t.seats.message_seconds * 3)  # once the message is gone, a new hit is told alone
    t.settle()
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(labels.index("Ben: fortitude −1")):
        t.press(1, "down")
    t.press(1, "main")
    assert t.seats.view(2).message == "from Ana: fortitude \u22121"


def test_a_player_whose_figures_an_undo_gives_back_is_told_it_was_undone(table_factory):
    """Through the owner: Ana undoes her morning, which had made Ben pay his wages; Ben's pod says "Ana
    undid: cash +…", not "from Ana: cash +…" as if Ana had given him money (a play-tester read "from Cai:
    gold −4" after Cai's undo as Cai taking her gold)."""
    t = table_factory("bloody-inn", players=["Ana", "Ben"])
    t.press(1, "main")  # Ana's welcome
    for seat in (1, 2, 1, 2):  # both players pass twice: passing is right after the bribe that leads a night turn
        t.press(seat, "down")
        t.press(seat, "main")
    t.press(1, "main")  # the morning
    paid = t.state["players"][1]["counters"]["cash"]
    t.clock.advance(t.seats.message_seconds * 3)
    t.settle()
    t.press(1, "select", hold=TIMING.hold_time + 0.05)  # the menu
    t.press(1, "up")  # its last line: undo
    t.press(1, "main")
    assert t.state["players"][1]["counters"]["cash"] > paid
    message = t.seats.view(2).message
    assert message.startswith("Ana undid: ") and "cash +" in message, message


def test_a_referees_verdict_asked_on_a_pod_is_shown_on_that_pod(table_factory):
    """Dale of Merchants, «no puede usar tarjetas adicionales …»: a payment check is a note — it changes no
    figure, so the verdict is the whole answer; the pod that asked shows it (a play-tester's check came back
    to the home screen saying nothing, the verdict only in `tablekeeper state`)."""
    t = table_factory("dale-of-merchants", players=["Ana", "Ben"], options={"decks": ["macaws", "pandas", "raccoons"]})
    for action in ({"action": "set_market", "values": [2, 4, 2, 5, 3]},  # prices 6 7 4 6 3
                   {"action": "technique", "player": "Ana", "bonus": True, "take": 2}):  # a 4 into Ana's hand
        t.session.apply(action)
    t.refresh()
    offers = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    for _ in range(len(offers) - offers.index("pay #3: 4+1?")):
        t.press(1, "up")  # up from the first offer wraps to the last ones
    assert t.seats.view(1).action == "pay #3: 4+1?"
    t.press(1, "main")
    assert t.state["payment_check"]["ok"] is False
    message = t.seats.view(1).message
    assert message.startswith("refused: 4+1 = 5 overpays"), message
    assert t.seats.view(2).message == ""  # nobody else's business


def test_counters_values_and_refusal_message(table_factory):
    """With the counters game: numbers on the pod; DESIGN.md step 4: a refusal shows its reason."""
    t = table_factory("counters", options={"counters": [{"name": "life", "start": 2, "out_at": 0}, "coins"]})
    t.press(1, "down")
    t.press(1, "down")
    assert t.state["players"][0]["out"] is True
    assert t.state["players"][0]["counters"]["life"] == 0
    t.press(1, "up")  # Ana is out: the engine refuses
    assert t.state["players"][0]["counters"]["life"] == 0
    view = t.seats.view(1)
    assert "out of the game" in view.message
    assert_pods_show_views(t)
    t.clock.advance(t.seats.message_seconds + 0.1)
    t.settle()
    assert t.seats.view(1).message == ""
    assert_pods_show_views(t)


def test_glitch_is_not_a_press(table_factory):
    """Debounce: a contact low for less than the noise threshold (a spike, not a finger) is no press."""
    t = table_factory("counters")
    pin = t.pod(1).pin("up")
    pin.drive_low()
    t.clock.advance(TIMING.noise / 2)
    pin.drive_high()
    t.settle(0.2)
    assert t.seats.applied == 0 and t.state["players"][0]["counters"]["score"] == 0


def test_unchanged_view_sends_nothing_and_a_plus_one_sends_little(table_factory):
    """Nothing is sent for an unchanged view; one counter +1 at most a quarter frame (aim an eighth)."""
    t = table_factory("counters")
    face = t.pod(1).face
    model = face.link.model
    model.reset_counts()
    t.refresh()
    t.refresh()
    assert model.bytes_sent == 0 and model.transfers == 0
    for _ in range(12):  # through 9 -> 10, the widest change
        model.reset_counts()
        t.press(1, "up")
        assert 0 < model.data_bytes <= 1024 // 4
    assert t.state["players"][0]["counters"]["score"] == 12


def test_a_failing_pod_is_reported_and_retried_while_the_game_goes_on(table_factory):
    """A pod that fails is reported and retried; the game goes on for everyone else; nothing is lost."""
    t = table_factory("counters")
    broken = t.pod(2).face.link.model
    broken.fail = errno.EREMOTEIO
    t.press(2, "up")  # the press still counts: the buttons are fine, only the display is gone
    t.press(1, "up")
    assert [p["counters"]["score"] for p in t.state["players"]] == [1, 1, 0]
    assert not t.pod(2).face.online
    assert sum("seat 2" in r for r in t.reports) == 1  # reported once, not once per attempt
    assert same_pixels(t.pod(1).screen_image, render(t.seats.view(1)))
    t.press(2, "up")
    t.clock.advance(5)
    t.settle()
    assert sum("seat 2" in r for r in t.reports) == 1  # still failing: no new report
    broken.fail = None
    t.clock.advance(31)
    t.settle()
    assert t.pod(2).face.online
    assert any("seat 2" in r and "back" in r for r in t.reports)
    assert t.state["players"][1]["counters"]["score"] == 2
    assert_pods_show_views(t)


def test_dim_after_idle_and_wake_on_press(table_factory):
    """OLED care: contrast setting, dim after idle, full contrast again on a press."""
    care = Care(contrast=200, dim_contrast=9, dim_after=60, shift_every=0)
    t = table_factory("counters", care=care)
    model = t.pod(1).face.link.model
    assert model.contrast == 200
    t.clock.advance(59)
    t.settle()
    assert model.contrast == 200
    t.clock.advance(2)
    t.settle()
    assert model.contrast == 9
    t.press(1, "select")
    assert model.contrast == 200


def test_burn_in_shift_moves_the_image_by_one_pixel(table_factory):
    """OLED care: 'a slight pixel shift against burn-in' — the whole screen, one pixel, in turn."""
    care = Care(dim_after=0, shift_every=300)
    t = table_factory("counters", care=care)
    seen = set()
    for _ in range(4):
        t.clock.advance(300)
        t.settle()
        face = t.pod(1).face
        seen.add(face.shift)
        assert same_pixels(t.pod(1).screen_image, shifted(render(t.seats.view(1)), *face.shift))
    assert seen == set(SHIFTS)


def test_displays_blank_on_exit(table_factory):
    """OLED care: 'displays blanked on exit' — off, and the RAM cleared."""
    t = table_factory("counters")
    models = [p.face.link.model for p in t.rig.pods.values()]
    assert all(m.on and any(m.ram) for m in models)
    t.rig.close()
    t.rig.close()  # idempotent
    assert all(not m.on and not any(m.ram) for m in models)
    assert all(p.screen_image.getbbox() is None for p in t.rig.pods.values())


def test_events_reach_the_owner_through_its_one_queue_and_the_engine_is_untouched_until_handled(table_factory):
    """DESIGN.md data flow: an input is a small value handed to the owner through a plain callable,
    the one thread hand-off; no engine call on the callback's thread."""
    t = table_factory("counters")
    keeper = t.owner.keeper
    pin = t.pod(3).pin("up")
    pin.drive_low()
    t.clock.advance(0.05)
    t.rig.scanner.tick()  # the button's thread: the press goes to the owner's queue
    assert keeper.backlog() == 1  # waiting there, the owner's real backlog
    assert t.state["players"][2]["counters"]["score"] == 0  # nothing applied yet
    keeper.pump()  # the owner's thread
    assert keeper.backlog() == 0
    assert t.state["players"][2]["counters"]["score"] == 1
    pin.drive_high()


def test_free_seat_and_missing_pod_are_reported(table_factory):
    """Config seats and players need not match; both cases are said, not hidden."""
    t = table_factory("counters", seats=4)
    assert "seat 4 has a pod but no player" in t.reports
    assert t.seats.view(4).status == "no player at this seat"
    t.press(4, "up")  # a press on a free seat does nothing
    assert t.seats.applied == 0


def test_virtual_pods_get_the_same_pixels(tmp_path):
    """DESIGN.md: 'on a PC the app draws the virtual pods' — same renderer, an image per changed view only."""
    from tablekeeper.engine import Journal, Session
    from tablekeeper.hardware.pod import InputEvent
    from tablekeeper.hardware.rig import ImagePod
    from tests.owner import Owner

    journal = Journal(tmp_path / "s", durable=False)
    session = Session.new(journal, "counters", ["Ana", "Ben"])
    got = []
    owner = Owner(session, {n: ImagePod(n, lambda *a: got.append(a)) for n in (1, 2)})
    owner.refresh()
    assert [g[0] for g in got] == [1, 2]  # once each: showing them again changed nothing
    owner.keeper.press(InputEvent(2, "up", "press"))
    owner.keeper.press(InputEvent(2, "up", "release"))
    owner.refresh()
    assert session.state["players"][1]["counters"]["score"] == 1
    seat, image, view = got[-1]
    assert seat == 2 and view.focus_value == 1 and same_pixels(image, render(view))
    journal.close()
