"""Each action declares its fields once; validation, `tablekeeper games --json`, the app's forms and
the action tables of docs/games/*.md all follow that declaration."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, RuleError, Session, available
from tablekeeper.engine.fields import Field, Int
from tablekeeper.engine.game import Game, action
from tablekeeper.ui import actiondocs
from tablekeeper.ui.cli import main
from tablekeeper.ui.forms import action_fields

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def test_an_unknown_field_is_refused_before_any_rule_speaks(tmp_path):
    """A typo'd field is named, even where the rules would have refused the action for another reason."""
    with Journal(tmp_path) as j:
        s = Session.new(j, "dale-of-merchants", ["Ana", "Ben"])
        with pytest.raises(RuleError, match="buy: unexpected field 'slott'"):
            s.apply({"action": "buy", "slott": 0, "paid": [1]})


def test_a_handler_cannot_read_a_field_it_did_not_declare():
    class Sloppy(Game):
        id = "sloppy"

        @action("poke", fields=(Int("x"),))
        def _poke(self, t, a):
            a.int("y", 0)

    rules = Sloppy(["Ana"])
    with pytest.raises(AssertionError, match="reads the field 'y' it does not declare"):
        rules.apply(rules.setup_state(), {"action": "poke", "x": 1})


def test_the_forms_and_games_json_read_the_declaration(capsys):
    assert main(["games", "--json"]) == 0
    described = {g["id"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    for game_id, cls in available().items():
        for name, info in cls.actions.items():
            assert action_fields(cls, name) == list(info.fields)
            shown = {a["name"]: a for a in described[game_id]["action_fields"]}[name]
            assert shown["fields"] == [f.describe() for f in info.fields]
    drink = {a["name"]: a for a in described["red-dragon-inn"]["action_fields"]}["drink"]
    assert {"name": "from", "kind": "str", "required": False, "default": "drink_me",
            "choices": ["drink_me", "deck"]} in [{k: v for k, v in f.items() if k != "doc"} for f in drink["fields"]]


@pytest.mark.parametrize("game_id", sorted(g for g in available() if (DOCS / f"{g}.md").exists()))
def test_the_docs_field_tables_are_the_declarations(game_id):
    """docs/games/<game>.md carries the table written from the declarations; regenerate with
    `python -m tablekeeper.ui.actiondocs` after changing an action's fields."""
    page = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    assert actiondocs.block(available()[game_id]) in page, f"docs/games/{game_id}.md drifts from the declarations"


def test_every_field_kind_is_one_the_forms_know():
    for cls in available().values():
        for info in cls.actions.values():
            for f in info.fields:
                assert isinstance(f, Field) and f.kind in ("int", "str", "bool", "ints", "player", "raw")
