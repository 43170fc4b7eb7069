"""The owner computes each seat's view once per situation, not on every loop tick."""
from __future__ import annotations

from tablekeeper.engine import Journal, Session
from tablekeeper.hardware.pod import MAIN, PRESS, RELEASE, UP, InputEvent
from tests.owner import Owner


def test_each_seats_view_is_computed_once_per_commit_and_reused_between(tmp_path, monkeypatch):
    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben", "Cai"])
        calls = {"seat_view": 0, "seat_actions": 0}
        for name in calls:
            real = getattr(s.rules, name)

            def counting(*a, _real=real, _name=name, **kw):
                calls[_name] += 1
                return _real(*a, **kw)

            monkeypatch.setattr(s.rules, name, counting)
        now = [0.0]
        hub = Owner(s, clock=lambda: now[0])
        for seat in (1, 2, 3):
            hub.view(seat)
        first = dict(calls)
        assert first["seat_view"] == 3 and first["seat_actions"] == 3  # one of each per seat, not two
        for _tick in range(10):  # the loop ticks; nothing changed
            now[0] += 1
            for seat in (1, 2, 3):
                hub.view(seat)
        assert calls == first
        hub.press(InputEvent(1, UP, PRESS))
        pressed = calls["seat_view"]
        # reading the press looks at Ana's counters as her view already did (remembered per state); the
        # commit's snapshot computes every seat's view again, once each
        assert pressed == first["seat_view"] + 3
        for seat in (1, 2, 3):  # and showing them costs nothing more
            hub.view(seat)
            hub.view(seat)
        assert calls["seat_view"] == pressed
        assert hub.view(1).counters[0][1] == 1
        before = calls["seat_view"]
        hub.press(InputEvent(2, MAIN, PRESS))  # refused: only Ben's message changes a view
        for seat in (1, 2, 3):
            hub.view(seat)
        # Ben's view is drawn again with the message; the game's seat view of this state is remembered
        assert hub.view(2).message and calls["seat_view"] == before


def test_an_action_on_another_player_shows_on_that_players_own_pod(tmp_path, monkeypatch):
    """Actions that concern another player are confirmed on the acting pod; the other player's
    pod shows what happened to them, in the table's words, for a few seconds."""
    from tablekeeper.ui.pod.inputs import Intent

    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben", "Cai"], {"counters": [{"name": "gold", "start": 5}]})
        now = [0.0]
        hub = Owner(s, clock=lambda: now[0])
        give = {"action": "transfer", "from": "Ana", "to": "Ben", "counter": "gold", "amount": 2}
        monkeypatch.setattr(hub.seats.controls[1], "handle", lambda *a: Intent(action=dict(give)))
        hub.press(InputEvent(1, MAIN, PRESS))
        assert s.state["players"][1]["counters"]["gold"] == 7
        assert hub.view(2).message == "from Ana: gold +2"
        assert "says: from Ana: gold +2" in hub.view(2).as_text()  # `serve --show text`: not a refusal
        assert "refused" not in hub.view(2).as_text()
        assert hub.view(1).message == ""  # the actor saw it in the preview; Cai was not touched
        assert hub.view(3).message == ""
        now[0] += hub.seats.message_seconds + 0.1
        assert hub.view(2).message == ""


def test_the_contests_payout_tells_each_player_who_won_not_whose_drink_came_last(tmp_path):
    """«siga las instrucciones de la carta»: the last contestant's drink settles the contest; the others'
    pods said "Cai drinks from the deck: ale: gold −1" (a play-tester read it as Cai's ale costing them
    gold). They say who won, from the rules' own line."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "red-dragon-inn", ["Ana", "Ben", "Cai"], {})
        for a in ({"action": "buy", "player": "Ana", "to": "Ben"},
                  {"action": "drink_event", "player": "Ana", "kind": "contest"},
                  {"action": "drink", "player": "Ana", "extra": True, "from": "deck", "drink": "ale"},
                  {"action": "drink", "player": "Ben", "extra": True, "from": "deck", "drink": "wine"}):
            s.apply(a)
        hub = Owner(s, clock=lambda: 0.0)
        assert hub.view(3).action == "ale +1"
        hub.press(InputEvent(3, MAIN, PRESS))
        hub.press(InputEvent(3, MAIN, RELEASE))  # Cai's ale: Ben's wine is the strongest
        assert [p["counters"]["gold"] for p in s.state["players"]] == [9, 12, 9]
        assert hub.view(1).message == "Ben wins the drinking contest: Ana, Cai pay 1 gold each: gold −1"
        assert hub.view(2).message == "Ben wins the drinking contest: Ana, Cai pay 1 gold each: gold +2"


def test_a_contest_loser_whose_turn_comes_next_reads_the_contest_not_the_turn():
    """The contest's payout ended Cai's turn, and Ana, the next player, read "Ana's turn: discard & draw: gold −1"
    on her pod (a play-tester took it for her turn costing a coin): of the rules' lines naming her, the one that says
    what changed is the cause, not the one she is the subject of."""
    import copy

    from tablekeeper.engine.match import Match
    from tablekeeper.engine.registry import make_rules
    from tablekeeper.ui.pod import grammar

    rules = make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"], "options": {}})
    before = Match(rules).state
    after = copy.deepcopy(before)
    for p in after["players"]:
        p["counters"]["gold"] += 2 if p["name"] == "Cai" else -1
    events = ["Cai drinks: dragon breath ale: alcohol +4", "Cai wins the drinking contest: Ana, Ben pay 1 gold each",
              "Ana's turn: discard & draw"]
    action = {"action": "drink", "player": "Cai", "extra": True, "from": "deck", "drink": "dragon_breath_ale"}
    told = {k: str(v) for k, v in grammar.affected(rules, before, after, "Cai", action, events).items()}
    assert told["Ana"] == "Cai wins the drinking contest: Ana, Ben pay 1 gold each: gold −1"
    assert told["Ben"] == told["Ana"]


def test_the_pots_winner_reads_that_they_won_not_who_passed_last(tmp_path):
    """A gambling round's last pass gives the pot to the player in control; their pod said "Cai passes:
    gold +3" (a play-tester read it as Cai doing something that paid them). It says who won."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "red-dragon-inn", ["Ana", "Ben", "Cai"], {})
        s.apply({"action": "gamble", "player": "Ana"})
        s.apply({"action": "pass", "player": "Ben"})
        hub = Owner(s, clock=lambda: 0.0)
        assert hub.view(3).action == "pass"
        hub.press(InputEvent(3, MAIN, PRESS))
        hub.press(InputEvent(3, MAIN, RELEASE))
        assert s.state["gambling"] is None
        assert hub.view(1).message.startswith("Ana wins the gambling round") and "gold +3" in hub.view(1).message


def test_a_press_that_starts_its_players_last_chance_shows_the_alert_not_its_tick(tmp_path):
    """«tienes una última oportunidad»: Cai's pass in a gambling round took his last gold; his pod said
    "✓ pass" where the status goes, hiding "OUT OF GOLD" (a play-tester's). The alert stays in view."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "red-dragon-inn", ["Ana", "Ben", "Cai"], {})
        s.apply({"action": "adjust", "player": "Cai", "counter": "gold", "delta": -9})
        s.apply({"action": "gamble", "player": "Ana"})
        s.apply({"action": "pass", "player": "Ben"})
        assert [p["counters"]["gold"] for p in s.state["players"]] == [9, 9, 0]
        hub = Owner(s, clock=lambda: 0.0)
        hub.press(InputEvent(3, UP, PRESS))
        hub.press(InputEvent(3, UP, RELEASE))
        assert hub.view(3).action == "leave the round"
        hub.press(InputEvent(3, MAIN, PRESS))
        hub.press(InputEvent(3, MAIN, RELEASE))
        assert s.state["pending"] and hub.view(3).alert
        assert hub.view(3).status == "OUT OF GOLD"


def test_a_hides_outcome_shows_on_the_pod_that_hid(tmp_path, monkeypatch):
    """Esconderse: the roll against the location cards left decides; a play-tester who entered a 4 saw
    only "MUST CHARGE" and could not show the table why. The hider's pod says what the rules said."""
    from tablekeeper.ui.pod.inputs import Intent

    with Journal(tmp_path) as j:
        s = Session.new(j, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [3, 2, 1, 0], "Ben": [4, 2, 1, 1]}})
        hub = Owner(s, clock=lambda: 0.0)
        hide = {"action": "hide", "player": "Ana", "discard": [1], "roll": 4}
        monkeypatch.setattr(hub.seats.controls[1], "handle", lambda *a: Intent(action=dict(hide)))
        hub.press(InputEvent(1, MAIN, PRESS))
        assert s.state["players"][0]["counters"]["treasure"] == 5
        assert "10 location cards left: Ana cannot escape" in hub.view(1).message
        assert hub.view(2).message == ""


def test_a_build_that_opens_a_room_says_which_on_the_builders_pod(tmp_path, monkeypatch):
    """«Ahora determinará qué salas están abiertas»: an annex that opens a closed room; the device takes the
    next number, and a play-tester's pod said only "✓ open room". The builder's pod says the room."""
    from tablekeeper.ui.pod.inputs import Intent

    with Journal(tmp_path) as j:
        s = Session.new(j, "bloody-inn", ["Ana", "Ben"], {})
        s.apply({"action": "welcome"})
        s.apply({"action": "correct", "player": "Ana", "hand": 3})
        hub = Owner(s, clock=lambda: 0.0)
        build = {"action": "build", "player": "Ana", "rank": 0, "effect": "open_room"}
        monkeypatch.setattr(hub.seats.controls[1], "handle", lambda *a: Intent(action=dict(build)))
        hub.press(InputEvent(1, MAIN, PRESS))
        assert len(s.state["inn"]["rooms"]) == 6
        pages = [page for page, _until in hub.seats.messages[1][0]]
        assert "Ana's key opens room 6" in pages[0], pages


def test_a_changed_value_lights_up_on_its_pod_for_a_moment(tmp_path):
    """As the touchscreen lights a changed value, the pod draws it inverted for FLASH_SECONDS; then the
    view changes back (next_due says when), and the same view is not recomputed in between."""
    from tablekeeper.hardware.render import render
    from tablekeeper.ui.pod.seats import FLASH_SECONDS

    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        now = [0.0]
        hub = Owner(s, clock=lambda: now[0])
        assert hub.view(1).changed == () and hub.view(2).changed == ()  # first shown: nothing lit
        hub.press(InputEvent(1, UP, PRESS))  # Ana +1
        lit = hub.view(1)
        assert lit.changed == ("score",) and lit.focus_value == 1
        assert hub.view(2).changed == ()  # Ben's values did not change
        assert hub.view(1) is lit  # the same situation: the cached view
        assert hub.seats.next_due(now[0]) == FLASH_SECONDS
        now[0] += FLASH_SECONDS + 0.01
        after = hub.view(1)
        assert after.changed == () and after.focus_value == 1
        assert render(lit).tobytes() != render(after).tobytes()  # drawn inverted while lit


def test_the_seats_answer_in_the_state_the_owner_hands_them_without_a_session():
    """The pods' interface holds the game's rules and the state it is handed, never the session: an
    event is read in the state given with it, and the views show the state given with them."""
    from tablekeeper.engine.match import Match
    from tablekeeper.engine.registry import make_rules
    from tablekeeper.ui.pod.seats import Seats

    rules = make_rules({"game": "counters", "players": ["Ana", "Ben"], "options": {}})
    match = Match(rules)
    seats = Seats(rules, match.state, 0, clock=lambda: 0.0)
    intent = seats.answer(InputEvent(1, UP, PRESS), match.state)
    assert intent is not None and intent.action is not None and intent.action["player"] == "Ana"
    before = match.state
    match.apply(intent.action)
    seats.took(1, before, match.state, 0.0, intent.action, [])
    views = seats.views(match.state, 1)
    focus = views[1].counters[0]
    assert focus[1] == 1 and seats.view(2).counters[0][1] == 0  # Ana's +1, on her pod; Ben's stays
    # handed an older state (an undo's), the views show it
    assert seats.views(before, 2)[1].counters[0][1] == 0


def test_an_annex_whose_power_the_device_does_not_apply_is_recalled_on_its_owners_pod_each_morning(tmp_path):
    """An annex built with a power of the table's own (`other`): the device applies nothing, and its owner adds its
    francs by hand. The morning's reminder named the owner after "remember", so it never reached the owner's pod: a
    play-tester's pod named her distillery's income and not her coach house's, and the table would have lost those
    francs. It starts with the owner's name now, a line of theirs."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "bloody-inn", ["Ana", "Ben"], {})
        for a in ({"action": "welcome"}, {"action": "pass"}, {"action": "correct", "player": "Ben", "hand": 3},
                  {"action": "build", "player": "Ben", "rank": 0, "effect": "other"}, {"action": "pass"},
                  {"action": "pass"}):
            s.apply(a)
        hub = Owner(s, clock=lambda: 0.0)
        assert s.state["phase"] == "morning" and hub.view(1).action == "morning"
        hub.press(InputEvent(1, MAIN, PRESS))
        hub.press(InputEvent(1, MAIN, RELEASE))  # Ana, the first player: the morning
        assert s.state["phase"] == "welcome"
        assert "Ben's annex 1: its power is on the card" in hub.view(2).message
        assert "annex" not in hub.view(1).message  # not on Ana's: not hers
