"""What the screens and the command line ask a game about itself (who starts, the counter that
decides it, how it ended), so that they never name a game nor its keys."""
from __future__ import annotations

import pytest

from tablekeeper.engine import Game, available
from tablekeeper.engine.messages import Msg
from tablekeeper.ui.i18n import load_catalog

from ..conftest import new_session

GAMES = available()
BOARD_GAMES = sorted(g for g in GAMES if g != "counters")


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_each_game_says_who_starts_in_english_and_spanish(game_id):
    hint = GAMES[game_id].starter_hint({})
    assert isinstance(hint, Msg) and hint.endswith(("starts", "card"))
    assert hint.translated(load_catalog("es")) != str(hint)


def test_a_game_without_a_rule_for_who_starts_says_nothing():
    assert GAMES["counters"].starter_hint({}) is None


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_main_counter_is_one_of_the_games_player_counters_or_none(game_id):
    cls = GAMES[game_id]
    if cls.main_counter is not None:
        assert cls.main_counter in cls._probe().player_counters
    assert (cls.main_counter is None) == (game_id == "counters")


@pytest.mark.parametrize("result, words", [
    ({"winners": ["Ana"], "draw": False}, "won by Ana"),
    ({"winners": ["Ana", "Ben"], "draw": True}, "draw: Ana, Ben"),
    ({"winners": [], "draw": False}, "no winner"),
    ({}, "no winner"),
])
def test_a_stored_result_in_a_few_words(result, words):
    for cls in (Game, *GAMES.values()):
        assert cls.result_line(result) == words


def test_dragon_run_stores_and_says_that_the_dragon_won(journal):
    s = new_session(journal, "dragon-run", ["Ana", "Ben"], {"hands": {"Ana": [1] * 4, "Ben": [1] * 4}})
    for _ in range(4):
        s.apply({"action": "charge", "location": "dragon"})
    assert s.state["over"]
    result = s.rules.outcome(s.state)
    assert result == {"winners": [], "draw": False, "dragon_won": True}
    assert journal.game(s.game_id).result == result
    assert s.rules.result_words(s.state) == "the dragon won"
    assert GAMES["dragon-run"].result_line(result) == "the dragon won"
    assert GAMES["dragon-run"].result_line(result).translated(load_catalog("es")) == "ganó el dragón"


def test_a_finished_game_stores_its_winners_and_whether_it_was_a_draw(journal):
    s = new_session(journal, "counters", ["Ana", "Ben"],
                    {"counters": [{"name": "life", "start": 1, "out_at": 0}], "last_standing_wins": True})
    s.apply({"action": "adjust", "player": "Ben", "counter": "life", "delta": -1})
    assert journal.game(s.game_id).result == {"winners": ["Ana"], "draw": False}
    assert s.rules.result_words(s.state) == "Ana won"


def test_a_rematch_is_the_same_table_and_a_game_may_say_who_starts_it():
    """The end screen's rematch: the same players, seats and options; Dale of Merchants' rulebook
    names the starter («uno de los perdedores debe ser el jugador inicial del próximo juego»)."""
    from tablekeeper.engine import Match, SetupError, make_rules

    rules = make_rules({"game": "counters", "players": ["Ana", "Ben", "Cai"], "options": {"last_standing_wins": True}})
    m = Match(rules)
    assert rules.rematch(m.state) == {"game": "counters", "players": ["Ana", "Ben", "Cai"],
                                      "options": rules.options}
    assert rules.rematch(m.state, starter="Cai")["players"] == ["Cai", "Ana", "Ben"]
    with pytest.raises(SetupError):
        rules.rematch(m.state, starter="Zoe")
    dale = make_rules({"game": "dale-of-merchants", "players": ["Ana", "Ben"],
                       "options": {"decks": ["macaws", "pandas", "raccoons"]}})
    d = Match(dale)
    d.apply({"action": "adjust", "player": "Ana", "counter": "stall", "delta": 8})
    assert d.state["winners"] == ["Ana"]
    assert dale.rematch(d.state)["players"] == ["Ben", "Ana"]  # the loser starts
