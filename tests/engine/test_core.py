"""The engine core through the generic `counters` game."""
from __future__ import annotations

import pytest

from tablekeeper.engine import Match, RuleError, SetupError, available, canonical, game_class, make_rules
from tablekeeper.engine.registry import KNOWN

LIFE = {"counters": [{"name": "life", "start": 10, "out_at": 0}, {"name": "coins", "start": 3, "min": 0, "max": 5}],
        "table": [{"name": "round", "start": 1, "min": 1}]}


def match(players=("Ana", "Ben", "Cai"), options=LIFE) -> Match:
    return Match(make_rules({"game": "counters", "players": list(players), "options": options}))


def test_setup_uses_declared_start_values():
    m = match()
    assert [p["counters"] for p in m.state["players"]] == [{"life": 10, "coins": 3}] * 3
    assert m.state["table"] == {"round": 1}
    assert m.view()["over"] is False and m.view()["pending"] == []


@pytest.mark.parametrize("entry, words", [
    ({"action": "fly"}, "has no action 'fly'"),
    ({"action": "adjust", "player": "Dan", "counter": "life", "delta": 1}, "no player called 'Dan'"),
    ({"action": "adjust", "player": "Ana", "counter": "gold", "delta": 1}, "'gold' is not a player counter"),
    ({"action": "adjust", "counter": "life", "delta": 1}, "life is a player's counter: say whose"),
    ({"action": "adjust", "player": "Ana", "counter": "round", "delta": 1}, "round is the table's counter"),
    ({"action": "adjust", "player": "Ana", "counter": "life", "delta": "2"}, "must be a whole number"),
    ({"action": "adjust", "player": "Ana", "counter": "life", "delta": True}, "must be a whole number"),
    ({"action": "adjust", "player": "Ana", "counter": "life"}, "'delta' is missing"),
    ({"action": "adjust", "player": "Ana", "counter": "life", "delta": 1, "dleta": 2}, "unexpected field 'dleta'"),
    ({"action": "transfer", "from": "Ana", "to": "Ana", "counter": "coins", "amount": 1}, "to themselves"),
    ({"action": "transfer", "from": "Ana", "to": "Ben", "counter": "coins", "amount": 0}, "at least 1"),
    ({"action": "undo"}, "nothing to undo"),
    ({"action": "redo"}, "nothing to redo"),
    ({"action": "undo", "steps": 2}, "unexpected field 'steps'"),
    (["adjust"], "must be a JSON object"),
    ({"delta": 1}, 'needs a field "action"'),
])
def test_illegal_action_is_refused_with_words_and_changes_nothing(entry, words):
    m = match()
    if words != "nothing to undo":
        m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    before = canonical(m.state), list(m.done), list(m.undone)
    with pytest.raises(RuleError, match=words):
        m.apply(entry)
    assert (canonical(m.state), m.done, m.undone) == before


def test_bounds_clamp_and_say_what_could_not_apply():
    m = match()
    p = m.apply({"action": "adjust", "player": "Ana", "counter": "coins", "delta": 4})
    assert m.state["players"][0]["counters"]["coins"] == 5
    assert any("stops at 5" in e and "+2 could not apply" in e for e in p.events)


def test_transfer_pays_only_what_the_giver_has_and_the_takers_bound_clamps():
    m = match()
    p = m.apply({"action": "transfer", "from": "Ana", "to": "Ben", "counter": "coins", "amount": 5})
    # Ana has 3: she pays 3. Ben had 3 of max 5: he ends at 5, the last coin is lost, and said so.
    assert [p["counters"]["coins"] for p in m.state["players"]] == [0, 5, 3]
    assert "Ana had only 3 coins to give" in p.events
    assert any("Ben's coins stops at 5" in e for e in p.events)


def test_counters_are_unbounded_unless_the_options_bound_them():
    m = match(options={"counters": ["score"]})
    m.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": -3})
    assert m.state["players"][0]["counters"]["score"] == -3


def test_out_value_eliminates_and_last_standing_wins():
    m = match()
    m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -10})
    assert m.state["players"][0]["out"] is True
    with pytest.raises(RuleError, match="Ana is out of the game"):
        m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": 1})
    m.apply({"action": "adjust", "player": "Ben", "counter": "life", "delta": -99})
    assert m.state["over"] and m.state["winners"] == ["Cai"] and m.state["draw"] is False
    with pytest.raises(RuleError, match="the game is over .*Cai won.*only undo"):
        m.apply({"action": "next"})


def test_target_wins():
    m = match(options={"counters": [{"name": "points", "target": 10}]})
    m.apply({"action": "adjust", "player": "Ben", "counter": "points", "delta": 12})
    assert m.state["over"] and m.state["winners"] == ["Ben"]


def test_undo_reverts_everything_an_action_caused_and_redo_reapplies_it():
    m = match(players=("Ana", "Ben"))
    start = canonical(m.state)
    m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -10})  # out + Ben wins
    end = canonical(m.state)
    m.apply({"action": "undo"})
    assert canonical(m.state) == start and not m.state["over"]
    m.apply({"action": "redo"})
    assert canonical(m.state) == end


def test_a_new_action_after_undo_clears_redo():
    m = match()
    m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    m.apply({"action": "undo"})
    m.apply({"action": "adjust", "player": "Ben", "counter": "life", "delta": -1})
    with pytest.raises(RuleError, match="nothing to redo"):
        m.apply({"action": "redo"})


def test_undo_far_back_crosses_checkpoints():
    from tablekeeper.engine.match import CHECKPOINT_EVERY

    m = match(options={"counters": [{"name": "score"}]})
    states = [canonical(m.state)]
    for i in range(CHECKPOINT_EVERY * 2 + 5):
        m.apply({"action": "adjust", "player": "Ana", "counter": "score", "delta": 1 + i % 3})
        states.append(canonical(m.state))
    for k in range(len(states) - 1, 0, -1):
        m.apply({"action": "undo"})
        assert canonical(m.state) == states[k - 1]


def test_undo_of_the_action_just_done_matches_a_replay_whatever_was_replayed_in_place():
    """Undo of the last action takes the kept state from before it; replays in place must not spoil it."""
    adjust = [{"action": "adjust", "player": "Ana", "counter": "life", "delta": d} for d in (-1, -2, -3, 2)]
    m = match()
    m.apply(adjust[0])
    m.apply(adjust[1])           # keeps the state after adjust[0]
    m.replay(adjust[2])          # changes the current state in place
    m.apply({"action": "undo"})  # undoes adjust[2]
    m.apply({"action": "undo"})  # undoes adjust[1]
    m.apply(adjust[3])
    m.state["players"][0]["counters"]["life"] = 99  # a caller spoiling the current state
    m.apply({"action": "undo"})
    fresh = match()
    fresh.load([adjust[0]])
    assert canonical(m.state) == canonical(fresh.state)
    assert m.state["players"][0]["counters"]["life"] == 9


def test_an_action_that_changes_nothing_is_not_an_undo_step():
    m = match()
    m.apply({"action": "adjust", "player": "Ana", "counter": "life", "delta": -1})
    p = m.apply({"action": "resolve"})  # nothing pending
    assert p.kind == "noop" and len(m.done) == 1
    m.apply({"action": "undo"})
    assert m.state["players"][0]["counters"]["life"] == 10


@pytest.mark.parametrize("setup, words", [
    ({"game": "chess", "players": ["A", "B"]}, "unknown game 'chess'"),
    ({"game": "counters", "players": ["A", "A"]}, "same name"),
    ({"game": "counters", "players": []}, "1–8 players, not 0"),
    ({"game": "counters", "players": ["A"] * 0 + [f"P{i}" for i in range(9)]}, "not 9"),
    ({"game": "counters", "players": ["A"], "options": {"colour": 1}}, "no option 'colour'"),
    ({"game": "counters", "players": ["A"], "options": {"counters": [{"name": "x", "min": 5, "max": 1}]}}, "above max"),
    ({"game": "counters", "players": ["A"], "options": {"counters": [{"name": "x", "start": 9, "max": 5}]}}, "outside its bounds"),
    ({"game": "counters", "players": ["A"], "options": {"counters": ["x", "x"]}}, "two counters"),
    ({"game": "counters", "players": ["A"], "options": {"counters": [{"name": "x", "colour": 1}]}}, "unknown field"),
    ({"game": "counters", "players": ["A"], "options": {"last_standing_wins": "yes"}}, "true or false"),
    ({"game": "counters", "players": ["A"], "speed": 3}, "unexpected field 'speed'"),
])
def test_bad_setups_are_refused_with_the_reason(setup, words):
    with pytest.raises(SetupError, match=words):
        make_rules(setup)


def test_every_known_game_is_available():
    assert set(available()) == set(KNOWN)
    assert all(game_class(g) is cls for g, cls in available().items())


def test_engine_imports_only_the_standard_library():
    """engine/ imports nothing outside the standard library."""
    import ast
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engine"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


def test_seat_view_says_whose_turn_and_who_won():
    m = match(players=("Ana", "Ben"))
    rules = m.rules
    assert rules.seat_view(m.state, "Ana")["status"] == "your turn"
    assert rules.seat_actions(m.state, "Ana")[0]["action"] == {"action": "next"}
    assert rules.seat_actions(m.state, "Ben") == []
    m.apply({"action": "adjust", "player": "Ben", "counter": "life", "delta": -10})
    assert rules.seat_view(m.state, "Ana")["status"] == "winner"
    assert rules.seat_view(m.state, "Ben")["status"] == "game over"
