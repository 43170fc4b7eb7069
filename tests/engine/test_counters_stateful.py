"""Random games of `counters`: bounds hold, replaying
the journal equals the live state, undo then redo is the identity, and every
rejected action leaves the state byte-identical."""
from __future__ import annotations

import tempfile

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tablekeeper.engine import Journal, RuleError, Session, canonical

from ..conftest import examples, steps

PLAYERS = ["Ana", "Ben", "Cai"]
OPTIONS = {
    "counters": [{"name": "life", "start": 6, "min": 0, "max": 9, "out_at": 0},
                 {"name": "coins", "start": 2, "min": 0, "max": 4}],
    "table": [{"name": "round", "start": 1, "min": 1, "max": 5}],
}
BOUNDS = {"life": (0, 9), "coins": (0, 4)}

names = st.sampled_from(PLAYERS + ["Zed"])
counters = st.sampled_from(["life", "coins", "gold"])
actions = st.one_of(
    st.builds(lambda p, c, d: {"action": "adjust", "player": p, "counter": c, "delta": d},
              names, counters, st.integers(-12, 12)),
    st.builds(lambda d: {"action": "adjust", "counter": "round", "delta": d}, st.integers(-6, 6)),
    st.builds(lambda a, b, n: {"action": "transfer", "from": a, "to": b, "counter": "coins", "amount": n},
              names, names, st.integers(-1, 5)),
    st.just({"action": "next"}),
    st.just({"action": "resolve"}),
    st.just({"action": "undo"}),
    st.just({"action": "redo"}),
)


class CountersGame(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.journal = Journal(self.dir.name, durable=False)
        self.session = Session.new(self.journal, "counters", PLAYERS, OPTIONS)

    def teardown(self):
        self.journal.close()
        self.dir.cleanup()

    @rule(entry=actions)
    def act(self, entry):
        before = canonical(self.session.state)
        try:
            self.session.apply(entry)
        except RuleError:
            assert canonical(self.session.state) == before, "a refused action changed the state"

    @precondition(lambda self: self.session.match.done)
    @rule()
    def undo_then_redo_is_identity(self):
        before = canonical(self.session.state)
        self.session.apply({"action": "undo"})
        self.session.apply({"action": "redo"})
        assert canonical(self.session.state) == before

    @invariant()
    def bounds_hold(self):
        state = self.session.state
        for p in state["players"]:
            for name, (lo, hi) in BOUNDS.items():
                assert lo <= p["counters"][name] <= hi
            assert p["out"] == (p["counters"]["life"] == 0)
        assert 1 <= state["table"]["round"] <= 5
        if state["over"]:
            assert state["winners"]

    @invariant()
    def replay_of_the_journal_equals_the_live_state(self):
        reloaded = Session.load(self.journal, self.session.game_id)
        assert reloaded.warnings == []
        assert canonical(reloaded.state) == canonical(self.session.state)
        assert reloaded.match.undone == self.session.match.undone


CountersGame.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=steps(40), deadline=None)
TestCounters = CountersGame.TestCase
