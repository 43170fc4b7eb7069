"""The turn-cost benchmark's robots (bench/bench_turns.py): they must find the fewest presses, say
when an event cannot be done on a pod, and refuse a story whose final state is wrong."""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_turns as bt  # noqa: E402
import stories as st  # noqa: E402

FIXTURE = Path(__file__).with_name("fixtures") / "counters.json"


def story(tmp_path=None, change=None):
    s = st.load(FIXTURE)
    if change is None:
        return s
    raw = json.loads(FIXTURE.read_text())
    change(raw)
    path = tmp_path / "counters.json"
    path.write_text(json.dumps(raw))
    return st.load(path)


def robot_for(s, who="Ana"):
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = st.rules_of(s)
    seat = s.players.index(who) + 1
    controls = SeatControls(seat, who)
    state = rules.setup_state()
    controls.view(rules, state)
    return rules, bt.PodRobot(rules, seat), controls, state


def target(rules, state, *actions):
    for a in actions:
        state = rules.apply(state, a)[0]
    return state


def adjust(who, counter, delta):
    return {"action": "adjust", "player": who, "counter": counter, "delta": delta}


def test_plus_one_on_the_focused_counter_is_one_click():
    rules, robot, controls, state = robot_for(story())
    result = robot.play(controls, state, target(rules, state, adjust("Ana", "life", 1)))
    assert [str(p) for p in result.presses] == ["+"]


def test_plus_three_on_the_focused_counter_is_one_held_press_with_one_repeat():
    # press +1, hold +1, one repeat +1: one finger down (three clicks would be three presses)
    rules, robot, controls, state = robot_for(story())
    result = robot.play(controls, state, target(rules, state, adjust("Ana", "life", 3)))
    assert result.presses == [bt.Press("up", "held", 1)]
    assert result.count == 1
    assert result.seconds == pytest.approx(0.6 + 0.15 + bt.CLICK_S / 2)


def test_a_counter_not_focused_needs_the_select_click_first():
    rules, robot, controls, state = robot_for(story())
    result = robot.play(controls, state, target(rules, state, adjust("Ana", "poison", 1)))
    assert [(p.button, p.kind) for p in result.presses] == [("select", "click"), ("up", "click")]
    assert result.controls.focus == "poison"
    assert controls.focus is None  # the search worked on copies


def test_each_action_of_an_event_is_paired_with_the_presses_that_did_it():
    # life +1 (focused: one click), then poison +1 (a select to reach it, then a click): the split says
    # which presses did which action, so a buy after a technique is measured on its own
    rules, robot, controls, state = robot_for(story())
    goal = target(rules, state, adjust("Ana", "life", 1), adjust("Ana", "poison", 1))
    result = robot.play(controls, state, goal)
    split = robot.split(controls, state, result.presses, [])
    assert [str(p) for p in result.presses] == ["+", "sel", "+"]
    assert split == [("adjust", 1), ("adjust", 2)]
    assert controls.focus is None  # replayed on a copy


def test_a_start_from_a_convenient_focus_would_be_cheaper_so_the_story_carries_each_pods_focus():
    s = story()
    results = bt.play_pod(s)
    assert [r.count for r in results] == [1, 2, 1, 1, 1, 3]
    # event 6 starts on poison, where event 2 left Ana's pod: poison first, then a select to life
    assert [str(p) for p in results[5].presses] == ["-~", "sel", "+"]


@pytest.fixture
def corrections_off_the_pod(monkeypatch):
    """A game that keeps the generic corrections off its pods: then Ana's pod has no way to change
    Ben's counters (her own still change with + and −)."""
    from tablekeeper.engine.games.counters import Counters

    monkeypatch.setattr(Counters, "off_pod", frozenset({"adjust", "transfer"}))


def test_an_event_the_pod_cannot_do_is_reported_impossible(corrections_off_the_pod):
    rules, robot, controls, state = robot_for(story())
    robot.max_nodes = robot.guided_nodes = 1000
    wound = adjust("Ben", "life", -1)
    result = robot.play(controls, state, target(rules, state, wound), [wound])
    assert result.presses is None and result.count is None
    assert robot.guided(controls, state, [wound]).presses is None


def test_a_card_played_on_another_player_is_entered_on_the_players_own_pod():
    """Ana plays a card that costs Ben 1 life: her pod's menu asks whose counter (herself first)."""
    rules, robot, controls, state = robot_for(story())
    wound = adjust("Ben", "life", -1)
    found = robot.guided(controls, state, [wound])
    assert found.presses is not None and found.state == target(rules, state, wound)


def test_an_impossible_event_is_counted_apart_and_the_story_goes_on(tmp_path, corrections_off_the_pod):
    def change(raw):
        raw["events"].insert(1, {"say": "Ana wounds Ben", "who": "Ana",
                                 "actions": [adjust("Ben", "life", -1)]})
        raw["expect"]["players"]["Ben"]["life"] = 18

    s = story(tmp_path, change)
    cost = bt.measure(s, touch=False, max_nodes=1000, guided_nodes=1000)
    assert [e.pod for e in cost.events] == [1, None, 2, 1, 1, 1, 3]
    fig = bt.figures(cost)
    assert fig["turns_counters_events_not_possible_on_pod"]["value"] == 1
    assert fig["turns_counters_pod_max_presses_per_event"]["value"] == 3
    assert fig["turns_counters_pod_presses_per_round"]["value"] == 9 / 2


def test_an_event_marked_not_routine_is_left_out_of_the_goals_but_not_of_the_round(tmp_path):
    """The goals are per routine event (a setup done once a game, a correction, is reported apart);
    its presses still count in the presses per round."""
    def change(raw):
        raw["events"][5]["routine"] = False  # Ana loses 2 poison and gains 1 life: 3 presses

    cost = bt.measure(story(tmp_path, change), touch=False)
    assert [e.pod for e in cost.events] == [1, 2, 1, 1, 1, 3]
    fig = bt.figures(cost)
    assert fig["turns_counters_pod_max_presses_per_event"]["value"] == 2
    assert fig["turns_counters_pod_not_routine_presses"]["value"] == [3]
    assert fig["turns_counters_pod_not_routine_presses"]["events"] == ["Ana loses 2 poison and gains 1 life"]
    assert fig["turns_counters_pod_presses_per_round"]["value"] == 9 / 2


def test_the_final_state_check_fails_on_a_wrong_story(tmp_path):
    def change(raw):
        raw["expect"]["players"]["Ana"]["life"] = 25

    s = story(tmp_path, change)
    with pytest.raises(st.StoryError, match="pod's final state.*Ana.life is 24, expected 25"):
        bt.play_pod(s, st.play(s, check=False))


def test_the_pod_must_reach_the_storys_whole_state(tmp_path):
    # a story state the robot's path does not match (a refused action left out) is caught per event
    s = story()
    played = st.play(s)
    bad = copy.deepcopy(played)
    bad[2] = (bad[2][0], dict(bad[2][1], over=True), bad[2][2])
    with pytest.raises(st.StoryError, match="event 3"):
        bt.play_pod(s, bad)


def test_figures_paper_and_rounds():
    s = story()
    cost = bt.measure(s, touch=False)
    assert [e.paper for e in cost.events] == [3, 1, 0, 1, 0, 3]
    fig = bt.figures(cost)
    assert fig["turns_counters_pod_median_presses_per_event"]["value"] == 1
    assert fig["turns_counters_paper_moves_per_round"]["value"] == 4
    played = st.play(s)
    states = [played[0][1]] + [after for _e, _b, after in played]
    assert bt.count_rounds(states) == 2  # Ana's turn starts twice


def test_rounds_are_optional_in_a_story(tmp_path):
    s = story(tmp_path, lambda raw: raw.pop("rounds"))
    assert s.rounds is None
    assert bt.measure(s, touch=False).rounds == 2
    with pytest.raises(st.StoryError, match="rounds"):
        story(tmp_path, lambda raw: raw.update(rounds=0))


def test_table_marks_the_goals():
    results = {
        "turns_red_dragon_inn_pod_median_presses_per_event": {"value": 1},
        "turns_red_dragon_inn_pod_max_presses_per_event": {"value": 7},
        "turns_red_dragon_inn_events_not_possible_on_pod": {"value": 0},
        "turns_red_dragon_inn_pod_presses_per_round": {"value": 20},
        "turns_red_dragon_inn_paper_moves_per_round": {"value": 30},
        "turns_red_dragon_inn_touch_median_touches_per_event": {"value": 1},
    }
    text = bt.table(results)
    row = next(line for line in text.splitlines() if line.startswith("| Red Dragon Inn"))
    assert row == "| Red Dragon Inn | 1 ✓ | 7 ✗ | 0 ✓ | 20 | 30 | yes ✓ | 1 |"
    assert "Bloody Inn" not in text  # no story, no row


@pytest.mark.slow
def test_the_touch_robot_plays_the_story_in_the_real_app():
    # a child process with the app offscreen; +3 on the card is three taps, "end turn" one
    result = bt.run_touch(FIXTURE, timeout=300)
    assert "error" not in result, result.get("error")
    assert [e["touches"] for e in result["events"]] == [3, 1, 1, 1, 1, 3]
    assert result["events"][2]["how"] == "card button: table.Ana.do.0"


@pytest.mark.slow
def test_the_touch_robot_refuses_a_wrong_story(tmp_path):
    s = story(tmp_path, lambda raw: raw["expect"]["players"]["Ben"].update(life=3))
    result = bt.run_touch(s.path, timeout=300)
    assert "the app's final state: Ben.life is 19, expected 3" in result.get("error", "")


def test_an_event_beyond_the_blind_searchs_bounds_is_found_by_the_guided_search():
    """A long entry (a transfer: the menu, whom, which counter, how much, the preview) is beyond a
    short blind search; the guided search, told the action, finds it and says it is an upper bound."""
    give = {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "life", "amount": 7}
    rules, robot, controls, state = robot_for(story())
    goal = target(rules, state, give)
    robot.max_presses = 3
    assert robot.play(controls, state, goal, [give]).presses is None
    found = robot.guided(controls, state, [give])
    assert found.presses is not None and found.state == goal
    assert len(found.presses) > 3
    assert controls.key() == robot_for(story())[2].key()  # the search moved copies, never the pod itself


def test_the_guided_search_drops_an_entry_that_disagrees_with_the_action():
    """It never pays for a wrong entry: every press on its path keeps the entry consistent with the action."""
    give = {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "life", "amount": 2}
    rules, robot, controls, state = robot_for(story())
    found = robot.guided(controls, state, [give])
    c = copy.deepcopy(controls)
    for press in found.presses[:-1]:
        for kind in press.events():
            robot.feed(c, press.button, kind, state, [give])
        assert robot._consistent(c, state, give)
    # at the end of the entry the counter chosen is life: an action on poison would be dropped here
    assert not robot._consistent(c, state, dict(give, counter="poison"))
    assert not robot._consistent(c, state, dict(give, action="adjust"))


def test_a_roll_the_device_makes_takes_the_storys_die_only_for_the_same_action():
    """The table's die is the story's, but a hide that discards a 1 on the pod is not the story's hide
    that discards a 2: the robot must not count it as the same event."""
    from tablekeeper.engine.errors import RuleError
    from tablekeeper.engine.registry import make_rules

    rules = make_rules({"game": "dragon-run", "players": ["Ana", "Ben"], "options": {}})
    state = rules.setup_state()
    for who, values in (("Ana", [3, 2, 1, 0]), ("Ben", [4, 2, 1, 1])):
        state = rules.apply(state, {"action": "deal", "player": who, "values": values})[0]
    robot = bt.PodRobot(rules, 1)
    story = [{"action": "hide", "discard": [2], "roll": 9}]
    wanted = rules.apply(state, story[0])[0]
    same = robot._take(state, {"action": "hide", "player": "Ana", "discard": [2]}, story)
    assert same == wanted
    try:  # not the story's roll: the device's own, or none (refused)
        other = robot._take(state, {"action": "hide", "player": "Ana", "discard": [1]}, story)
    except RuleError:
        other = state
    assert other != wanted


def test_the_guided_search_may_change_an_offers_asked_value():
    """An offer's value for a field it asks is where the step starts, not a promise: the guided search
    keeps an entry whose room was changed from the offer's first room."""
    from tablekeeper.engine.registry import make_rules
    from tablekeeper.ui.pod import grammar as g
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"], "options": {}})
    state = rules.apply(rules.setup_state(), {"action": "welcome"})[0]
    offer = next(i for i in g.menu(rules, state, "Ana") if str(i.label) == "kill a rank-0 guest")
    assert "room" in offer.ask and offer.action["room"] != 4
    controls = SeatControls(1, "Ana")
    controls.screen, controls._item, controls._values = "entry", offer, {"room": 4}
    robot = bt.PodRobot(rules, 1)
    assert robot._consistent(controls, state, {"action": "kill", "player": "Ana", "room": 4, "rank": 0})
    assert not robot._consistent(controls, state, {"action": "kill", "player": "Ana", "room": 4, "rank": 1})


def dale_at_first_turn():
    from tablekeeper.engine import make_rules
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = make_rules({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                        "options": {"decks": ["macaws", "pandas", "raccoons"]}})
    state = rules.apply(rules.setup_state(), {"action": "set_market", "values": [3, 4, 2, 5, 2]})[0]
    controls = SeatControls(1, "Ana")
    controls.view(rules, state)
    return rules, state, controls


def test_the_offer_walk_finds_one_offer_standing_for_several_story_actions():
    """The story enters a technique, its move and the end of the turn as three actions; the pod has one
    offer for all three (the turn's last action, its clean-up in the line): the walk finds held up, main
    (2 presses), and those presses, fed again to a copy of the pod, reach the story's state."""
    rules, state, controls = dale_at_first_turn()
    story_actions = [{"action": "technique"},
                     {"action": "move", "player": "Ana", "from_player": "Ben", "from": "deck", "to": "hand", "count": 1},
                     {"action": "end_turn"}]
    assert walked(rules, state, controls, story_actions) == 2


def walked(rules, state, controls, story_actions) -> int:
    """The offer walk's presses to the story actions' state, checked by feeding them again to a copy of
    the pod: they must reach that state."""
    goal = target(rules, state, *story_actions)
    robot = bt.PodRobot(rules, 1)
    found = robot.offer_walk(controls, state, goal, story_actions)
    assert found.presses is not None and found.state == goal
    c, s = copy.deepcopy(controls), state
    for press in found.presses:
        for kind in press.events():
            s = robot.feed(c, press.button, kind, s, story_actions)
    assert s == goal
    return len(found.presses)


def test_a_place_the_story_passes_through_is_on_the_way_though_it_ends_as_it_was():
    """Rummage: a hand of 5 (after the technique, 4) discarded, then 5 drawn, ends with 5 cards in hand;
    the search must still allow the state with the hand emptied on the way; a press that changes a
    place the story never touches (a stall stack) is a wrong turn."""
    rules, state, _controls = dale_at_first_turn()
    rummage = [{"action": "technique", "bonus": True},
               {"action": "move", "player": "Ana", "from": "hand", "to": "discard", "count": 4},
               {"action": "draw", "player": "Ana", "count": 5}]
    goal = target(rules, state, *rummage)
    assert goal["players"][0]["counters"]["hand"] == state["players"][0]["counters"]["hand"] == 5
    hand = ("players", 0, "counters", "hand")
    assert hand not in bt.touched(state, goal)
    places = bt.on_the_way(rules, state, goal, rummage)
    halfway = target(rules, state, *rummage[:2])
    assert hand in bt.touched(state, halfway) and bt.touched(state, halfway) <= places
    elsewhere = target(rules, state, {"action": "stall", "player": "Ana", "set": "macaws", "values": [1]})
    assert not bt.touched(state, elsewhere) <= places


def test_one_players_events_of_one_kind_in_a_row_are_also_measured_as_one_entry(tmp_path):
    """A first player who lodges eight travellers card by card enters them once, when the pod takes
    them as one: the per-event figures stay each event's own, and a second figure per round counts
    such a run as one entry where that is fewer presses (here three single wounds, one held press)."""
    def change(raw):
        raw["events"][3:4] = [{"say": f"Ben loses 1 life ({n})", "who": "Ben",
                               "actions": [adjust("Ben", "life", -1)]} for n in (1, 2, 3)]
        raw["expect"]["players"]["Ben"]["life"] = 17

    s = story(tmp_path, change)
    assert bt.runs_of(st.play(s)) == [(0, 1), (3, 5)]  # Ana's first two: no fewer presses as one
    cost = bt.measure(s, touch=False)
    assert [e.pod for e in cost.events] == [1, 2, 1, 1, 1, 1, 1, 3]
    assert cost.runs == [(3, 5, 1, pytest.approx(cost.runs[0][3]))]
    fig = bt.figures(cost)
    assert fig["turns_counters_pod_presses_per_round"]["value"] == 11 / 2
    assert fig["turns_counters_pod_presses_per_round_runs_as_one"]["value"] == (11 - 3 + 1) / 2


def test_the_offer_walk_finds_one_offer_whose_steps_enter_two_story_actions():
    """A rulebook reader's potion of fortune is a potion and then a draw in the story; the pod's `potion: draw
    2` asks the potion's value and both cards' (7 presses by hand). The guided search follows the story's
    two actions (11); the walk opens each offer of one of their names that asks values and searches its
    steps, and finds the one offer's 7 presses, which reach the story's state when fed again."""
    from tablekeeper.engine import make_rules
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = make_rules({"game": "dragon-run", "players": ["Ana", "Ben"],
                        "options": {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}}})
    state = rules.setup_state()
    controls = SeatControls(1, "Ana")
    controls.view(rules, state)
    story_actions = [{"action": "play", "value": 0, "draw": 3}, {"action": "draw", "value": 1}]
    assert walked(rules, state, controls, story_actions) == 7


def test_the_offer_walk_finds_one_offer_of_another_action_that_does_the_same():
    """A reader's hidden stash (a room that gives two treasure cards) is, in the story, a charge with a
    treasure worth 4 and a draw of a card worth 0; the pod's `2 treasures: pass` (a `room` action, neither
    of the story's names) asks both values and does the same to the game. The walk opens every offer that
    asks something, whatever its action's name: 6 presses (the offer held to and opened, 4 held up to,
    main, 0 one click down, main), which reach the story's state when fed again."""
    from tablekeeper.engine import make_rules
    from tablekeeper.ui.pod.inputs import SeatControls

    rules = make_rules({"game": "dragon-run", "players": ["Ana", "Ben"],
                        "options": {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}}})
    state = rules.setup_state()
    controls = SeatControls(1, "Ana")
    controls.view(rules, state)
    story_actions = [{"action": "charge", "location": "other", "value": 4, "then": "pass"},
                     {"action": "draw", "player": "Ana", "value": 0}]
    one = {"action": "room", "player": "Ana", "draws": 2, "value": 4, "second": 0, "then": "pass"}
    assert target(rules, state, *story_actions) == target(rules, state, one)
    assert walked(rules, state, controls, story_actions) <= 6


@pytest.mark.slow
def test_the_guided_search_reaches_a_full_entry_at_the_menus_end():
    """Dale of Merchants' «Fase de limpieza» comes after the turn's actions; a buy that leaves the turn
    open (the second rulebook story's Ana asks the referee before the clean-up) is the menu's full entry
    `buy…`, near the menu's end, with the new card's value left at "–" (8 presses). The guided search
    reaches it: the home offer the menu was opened from is not part of where it stands (a pod keeps it
    to go back to), else each of the menu's lines is searched again for every home offer and the
    entry is beyond the search's bounds."""
    rules, state, controls = dale_at_first_turn()
    state = rules.apply(state, {"action": "technique", "player": "Ana", "bonus": True})[0]
    buy = {"action": "buy", "player": "Ana", "paid": [2], "position": 5, "value": 2}
    goal = rules.apply(state, buy)[0]
    assert goal["turn"]["player"] == "Ana" and goal["table"]["actions"] == 0  # no clean-up: the turn stays open
    found = bt.PodRobot(rules, 1, guided_nodes=bt.FAST_GUIDED_NODES).guided(controls, state, [buy])
    assert found.presses is not None and found.state == goal
    assert [p.button for p in found.presses][:1] == ["select"]  # through the menu: no offer leaves the turn open


def test_the_guided_search_takes_an_offer_that_pays_in_another_order_for_the_same_effect():
    """The third rulebook story's Ben pays 1+1+3+1 for a card (an ocelot raised to 3); the pod's offer
    says 3+1+1+1 — the same cards, the same game. Told the story's action, the guided search compared the
    fields and dropped the offer (14 presses through the menu); it now asks whether the offer does what
    the action does: the offer, its new card's value, 4 presses."""
    s = st.load(ROOT / "bench" / "stories" / "rulebook-3-actions" / "dale-of-merchants.json")
    event, before, after = st.play(s)[15]
    assert event.actions[0]["paid"] == [1, 1, 3, 1]
    from tablekeeper.ui.pod.inputs import SeatControls

    seat = s.players.index(event.who) + 1
    robot = bt.PodRobot(st.rules_of(s), seat, guided_nodes=bt.FAST_GUIDED_NODES)
    found = robot.guided(SeatControls(seat, event.who), before, event.actions)
    assert found.state == after and len(found.presses) == 4


def test_the_guided_search_enters_two_new_market_cards_one_at_a_time():
    """The third rulebook story's clean-up turns up two market cards, written as one ``set_market`` with
    the five values (null: as it is); the pod enters new cards one by one ("new card 1", "new card 2").
    Told the story's action as written, the quick run's guided search found no way ("not possible"); it
    now follows it card by card, and the pod reaches the story's state."""
    s = st.load(ROOT / "bench" / "stories" / "rulebook-3-actions" / "dale-of-merchants.json")
    event, before, after = st.play(s)[120]
    assert event.actions == [{"action": "set_market", "values": [4, 4, None, None, None]}]
    assert bt.in_parts(before, event.actions[0]) == [{"action": "set_market", "position": 1, "value": 4},
                                                     {"action": "set_market", "position": 2, "value": 4}]
    from tablekeeper.ui.pod.inputs import SeatControls

    seat = s.players.index(event.who) + 1
    robot = bt.PodRobot(st.rules_of(s), seat, guided_nodes=bt.FAST_GUIDED_NODES)
    found = robot.guided(SeatControls(seat, event.who), before, event.actions)
    assert found.state == after and found.presses
    opening = {"action": "set_market", "values": [3, 4, 5, 2, 3]}
    assert bt.in_parts(st.rules_of(s).setup_state(), opening) == [opening]  # the opening deal: one entry


OWN_STORIES = sorted((ROOT / "bench" / "stories").glob("*.json"))


@pytest.mark.slow
@pytest.mark.parametrize("path", OWN_STORIES, ids=lambda p: p.stem)
def test_every_event_of_the_devices_own_table_stories_is_possible_on_the_pods(path, monkeypatch):
    """The robot's quick run (``--fast``, as ``make bench``) on each of the four table stories: every event
    reaches the story's state on a pod. A change to the rules that makes a story's action one no pod
    offers (a power-less annex named like a card of the list) fails here, not months later in a benchmark."""
    monkeypatch.setattr(bt, "FAST", True)
    s = st.load(path)
    cost = bt.measure(s, touch=False, max_nodes=bt.FAST_NODES, guided_nodes=bt.FAST_GUIDED_NODES)
    impossible = [e.say for e in cost.events if e.pod is None]
    assert impossible == []
