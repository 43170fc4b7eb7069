"""Notes: actions that ask the referee and change no counter (Dale's payment check) are journalled and
shown, but are not undo steps of their own — one undo takes back the last other action with the notes
after it, live, when a journal is loaded, and in the app's history."""
from __future__ import annotations

from tablekeeper.engine import Journal, Match, RuleError, Session, canonical, make_rules

SETUP = {"game": "dale-of-merchants", "players": ["Ana", "Ben"],
         "options": {"decks": ["macaws", "pandas", "raccoons"]}}
MARKET = {"action": "set_market", "values": [3, 2, 2, 4, 5]}
CHECK = {"action": "check_payment", "slot": 0, "paid": [1]}


def test_one_undo_takes_back_an_action_and_the_payment_checks_after_it():
    m = Match(make_rules(SETUP))
    m.apply(MARKET)
    before = canonical(m.state)
    m.apply({"action": "adjust", "player": "Ana", "counter": "hand", "delta": -1})
    m.apply(CHECK)
    m.apply(dict(CHECK, paid=[1, 1]))
    assert m.state["payment_check"]["paid"] == [1, 1]
    p = m.apply({"action": "undo"})
    assert canonical(m.state) == before  # the adjust and both checks: one press
    assert str(p.events[0]) == "undone: Ana: hand -1" and len(m.done) == 1
    m.apply({"action": "redo"})  # the action comes back; the notes were questions, not steps
    assert m.state["players"][0]["counters"]["hand"] == 4 and m.state.get("payment_check") is None


def test_a_check_alone_is_not_an_undo_step_and_loading_agrees_with_playing():
    rules = make_rules(SETUP)
    m = Match(rules)
    m.apply({"action": "check_payment", "price": 2, "paid": [1]})  # nothing but a note: nothing to undo
    try:
        m.apply({"action": "undo"})
        raise AssertionError("undo of a lone note was accepted")
    except RuleError as e:
        assert "nothing to undo" in str(e)
    entries = [MARKET, {"action": "adjust", "player": "Ben", "counter": "hand", "delta": 1}, CHECK,
               {"action": "undo"}, CHECK, {"action": "undo"}]
    live = Match(rules)
    for e in entries:
        live.apply(e)
    loaded = Match(rules)
    assert loaded.load(entries) == len(entries)
    assert canonical(loaded.state) == canonical(live.state) == canonical(Match(rules).state)


def test_the_apps_history_names_the_action_an_undo_took_back_not_the_check(tmp_path):
    from tablekeeper.ui.controller import Keeper

    journal = Journal(tmp_path / "j.sqlite")
    session = Session.new(journal, SETUP["game"], SETUP["players"], dict(SETUP["options"]))
    for e in (MARKET, {"action": "adjust", "player": "Ana", "counter": "hand", "delta": -1}, CHECK):
        session.apply(e)
    session.apply({"action": "undo"})
    keeper = Keeper(pods=False)
    keeper._set_session(session)  # the keeper's reading of a stored game's history
    texts = [str(h.text) for h in keeper._history]
    assert texts[-1].startswith("undone:") and "hand" in texts[-1] and "check" not in texts[-1]
    journal.close()
