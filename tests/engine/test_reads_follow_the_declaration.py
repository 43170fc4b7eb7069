"""A handler reads an action's fields as the action declares them: an absent field means its declared
default, a number keeps within the declared bounds, a text is one of the declared choices. The handler
says only what differs from the declaration."""
from __future__ import annotations

import pytest

from tablekeeper.engine import RuleError
from tablekeeper.engine.fields import Bool, Int, Ints, Str
from tablekeeper.engine.game import Game, action


class Reader(Game):
    """A game whose actions read their fields without repeating the declaration, and keep what they read."""

    id = "reader"

    @action("count", fields=(Int("n", default=3, lo=1, hi=5),))
    def _count(self, t, a):
        t.state["read"] = a.int("n")

    @action("pick", fields=(Str("side", default="inn", choices=("inn", "player")),))
    def _pick(self, t, a):
        t.state["read"] = a.str("side")

    @action("switch", fields=(Bool("on"),))
    def _switch(self, t, a):
        t.state["read"] = a.bool("on")

    @action("list", fields=(Ints("values", default=[], lo=0),))
    def _list(self, t, a):
        values = a.ints("values")
        t.state["read"] = list(values)
        values.append(99)  # a handler may change what it read: the declaration must not change with it

    @action("need", fields=(Int("n", lo=1),))
    def _need(self, t, a):
        t.state["read"] = a.int("n")

    @action("own", fields=(Int("n", default=3, lo=1, hi=5), Str("side", default="inn", choices=("inn", "player"))))
    def _own(self, t, a):
        """The handler's own default and bounds win over the declaration's."""
        t.state["read"] = [a.int("n", 7, lo=0, hi=9), a.str("side", "moon", choices=("moon", "sun"))]

    @action("unbounded", fields=(Int("n", lo=1, hi=5),))
    def _unbounded(self, t, a):
        """The handler checks the range itself, in its own words."""
        n = a.int("n", bounded=False)
        if not 1 <= n <= 5:
            raise RuleError(f"n counts from 1 to 5, not {n}")
        t.state["read"] = n


def read(action: dict) -> object:
    rules = Reader(["Ana"])
    state, _events = rules.apply(rules.setup_state(), action)
    return state["read"]


def refusal(action: dict) -> str:
    rules = Reader(["Ana"])
    with pytest.raises(RuleError) as caught:
        rules.apply(rules.setup_state(), action)
    return str(caught.value)


def test_an_absent_field_means_its_declared_default():
    assert read({"action": "count"}) == 3
    assert read({"action": "pick"}) == "inn"
    assert read({"action": "switch"}) is False
    assert read({"action": "list"}) == []


def test_a_given_field_is_read_as_given():
    assert read({"action": "count", "n": 4}) == 4
    assert read({"action": "pick", "side": "player"}) == "player"
    assert read({"action": "switch", "on": True}) is True
    assert read({"action": "list", "values": [2, 0]}) == [2, 0]


def test_a_number_outside_the_declared_bounds_is_refused():
    assert refusal({"action": "count", "n": 9}) == "count: 'n' must be at most 5, not 9"
    assert refusal({"action": "count", "n": 0}) == "count: 'n' must be at least 1, not 0"
    assert refusal({"action": "need", "n": 0}) == "need: 'n' must be at least 1, not 0"
    assert refusal({"action": "list", "values": [2, -1]}) == "list: every value in 'values' must be at least 0"


def test_a_text_outside_the_declared_choices_is_refused():
    assert refusal({"action": "pick", "side": "moon"}).startswith("pick: 'side' must be one of inn")


def test_a_field_declared_without_a_default_is_still_refused_when_absent():
    assert refusal({"action": "need"}) == "need: the field 'n' is missing"


def test_a_declared_default_is_a_fresh_value_every_time():
    rules = Reader(["Ana"])
    state = rules.setup_state()
    for _time in range(2):
        state, _events = rules.apply(state, {"action": "list"})
        assert state["read"] == []
    assert rules.actions["list"].field("values").default == []


def test_the_handlers_own_default_bounds_and_choices_win():
    assert read({"action": "own"}) == [7, "moon"]
    assert read({"action": "own", "n": 9, "side": "sun"}) == [9, "sun"]
    assert refusal({"action": "own", "side": "inn"}).startswith("own: 'side' must be one of moon")


def test_a_number_read_unbounded_is_left_to_the_handlers_own_words():
    assert refusal({"action": "unbounded", "n": 9}) == "n counts from 1 to 5, not 9"
    assert read({"action": "unbounded", "n": 5}) == 5
