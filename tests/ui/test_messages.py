"""The engine speaks in messages; the command line and the pods translate them (Spanish at a Spanish table).

Nothing here parses English back: a message carries its template and parameters,
and the edge renders it with the catalog of the table's language.
"""
from __future__ import annotations

import pickle

import pytest

from tablekeeper.engine import Journal, RuleError, Session
from tablekeeper.engine.messages import N_, Msg, _, listing, word
from tablekeeper.hardware.pod import MAIN, PRESS, UP, InputEvent
from tablekeeper.ui.cli import main
from tablekeeper.ui.i18n import load_catalog
from tests.owner import Owner


@pytest.fixture(scope="module")
def es():
    return load_catalog("es")


def test_a_games_word_named_by_its_id_reads_as_words_in_english_and_stays_its_id_in_code(es):
    """No identifier reaches an English screen: "elven_wine" reads "elven wine", alone or inside a
    sentence; the message itself still equals the id (counters are looked up by it)."""
    wine = word("drink", "elven_wine")
    assert wine == "elven_wine" and wine.translated(None) == "elven wine"
    said = _("{who}: {counter} {delta}", who="Ana", counter=word("counter", "drink_me"), delta="+1")
    assert said.translated(None) == "Ana: drink me +1"
    assert said.translated(es) == "Ana: bébeme +1"
    assert _("{who} passes", who="Ana").translated(None) == "Ana passes"  # sentences as they are


def test_the_history_names_an_actions_fields_and_values_in_words(es):
    """An action a game has no sentence of its own for reads "Ana: drink (drink elven wine, count 2)",
    never "drink=elven_wine"."""
    from tablekeeper.engine.game import Game
    from tablekeeper.engine.registry import make_rules

    rules = make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben"], "options": {}})
    said = Game.describe(rules, {"action": "drink", "player": "Ana", "drink": "elven_wine", "count": 2})
    assert said.translated(None) == "Ana: drink (drink elven wine, count 2)"
    assert "=" not in said.translated(es) and "vino élfico" in said.translated(es)


def test_a_shown_negative_change_has_a_minus_sign_and_the_replay_english_keeps_its_hyphen(es):
    """On a screen "fortitude −1" (U+2212, as the pods' offers write it), in English and Spanish; the
    message's own value, which the replay JSON and the journal carry, stays "-1" for scripts."""
    from tablekeeper.engine.game import Game
    from tablekeeper.engine.registry import make_rules

    rules = make_rules({"game": "red-dragon-inn", "players": ["Ana", "Ben"], "options": {}})
    said = Game.describe(rules, {"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -1})
    assert said == "Ana: fortitude -1"
    assert said.translated(None) == "Ana: fortitude \u22121"
    assert said.translated(es).endswith("\u22121") and "-" not in said.translated(es)
    assert _("{d:+d}", d=2).translated(None) == "+2"  # a gain keeps its plus


def test_a_message_is_its_english_sentence_and_keeps_what_it_is_made_of():
    m = _("{who} is out: {why}", who="Ben", why=_("last one standing"))
    assert m == "Ben is out: last one standing" and isinstance(m, str)
    assert m.template == "{who} is out: {why}" and m.params["who"] == "Ben"
    assert pickle.loads(pickle.dumps(m)).template == m.template  # survives a trip between threads/processes


def test_plurals_come_from_the_count_not_from_string_surgery(es):
    class Plural:  # a catalog with a plural entry of its own
        def ngettext(self, s, p, n):
            return "{n} carta" if n == 1 else "{n} cartas"

    assert N_("{n} card", "{n} cards", 1) == "1 card"
    assert N_("{n} card", "{n} cards", 0) == "0 cards"
    assert N_("{n} card", "{n} cards", 1).translated(Plural()) == "1 carta"
    assert N_("{n} card", "{n} cards", 3).translated(Plural()) == "3 cartas"


def test_words_and_lists_inside_a_sentence_are_translated_with_it(es):
    m = _("{names} won", names=listing(["Ana", "Ben"], _(" and ")))
    assert m == "Ana and Ben won"
    assert m.translated(es) == "ganó Ana y Ben"
    assert isinstance(word("counter", "gold"), Msg) and word("counter", "gold") == "gold"


def test_a_refusal_carries_its_message_and_renders_in_spanish(es, tmp_path):
    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"])
        with pytest.raises(RuleError) as refused:
            s.apply({"action": "undo"})
    msg = refused.value.args[0]
    assert isinstance(msg, Msg) and str(refused.value) == "nothing to undo"
    assert msg.translated(es) == "nada que deshacer"


def test_the_command_line_speaks_the_chosen_language(tmp_path, capsys):
    state = str(tmp_path)
    assert main(["--state-dir", state, "new", "counters", "Ana", "Ben"]) == 0
    capsys.readouterr()
    assert main(["--state-dir", state, "--lang", "es", "act", '{"action": "undo"}']) == 2
    assert capsys.readouterr().err == "tablekeeper act: nada que deshacer\n"
    assert main(["--state-dir", state, "--lang", "en", "act", '{"action": "undo"}']) == 2
    assert capsys.readouterr().err == "tablekeeper act: nothing to undo\n"


def test_replay_stays_english_unless_asked(tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_text('{"game": "counters", "players": ["Ana", "Ben"]}\n{"action": "redo"}\n')
    assert main(["replay", str(script)]) == 2
    assert capsys.readouterr().err == "line 2: nothing to redo\n"
    assert main(["--lang", "es", "replay", str(script)]) == 2
    assert capsys.readouterr().err == "line 2: nada que rehacer\n"


def test_pods_show_refusals_and_their_own_words_in_the_tables_language(es, tmp_path):
    with Journal(tmp_path) as j:
        s = Session.new(j, "counters", ["Ana", "Ben"], {"counters": [{"name": "score", "max": 1}]})
        hub = Owner(s, catalog=es, clock=lambda: 0.0)
        hub.press(InputEvent(2, MAIN, PRESS))  # Ben's main button: not his turn
        assert hub.view(2).message == "nada que hacer ahora"
        hub.press(InputEvent(1, UP, PRESS))
        assert hub.view(1).counters[0][1] == 1
        english = Owner(s, clock=lambda: 0.0)
        english.press(InputEvent(2, MAIN, PRESS))
        assert english.view(2).message == "nothing to do now"



def test_an_action_forms_field_captions_are_the_pods_words_in_the_tables_language():
    """The touchscreen's action form captioned a field by the game's plain word, which a game's catalog has for
    few fields: a Spanish screen said "counter", "delta", "side" and "others" for The Red Dragon Inn's table-wide
    card. It says each field as the pods' steps do, a word every declared field has in Spanish."""
    from tablekeeper.engine import available
    from tablekeeper.ui import i18n

    fields = {f.name: f for f in available()["red-dragon-inn"].actions["everyone"].fields}
    was = i18n.language()
    try:
        i18n.set_language("es")
        captions = [i18n.field_caption(fields[n]) for n in ("counter", "delta", "side", "others", "player")]
        also = i18n.field_caption(next(f for f in available()["red-dragon-inn"].actions["adjust"].fields
                                       if f.name == "also"))
    finally:
        i18n.set_language(was)
    assert captions == ["contador", "cambio", "otra parte (opcional)", "los demás (opcional)", "jugador (opcional)"]
    assert also == "también (opcional)"
