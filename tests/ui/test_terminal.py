"""ui/terminal.py: the one way every command says things (standard output, standard error, JSON)."""
from __future__ import annotations

import argparse
import json

from tablekeeper.engine.errors import RuleError
from tablekeeper.engine.messages import _
from tablekeeper.ui import terminal


def _args(command: str, lang: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(command=command, lang=lang)


def test_a_result_is_said_in_the_commands_language_each_line_safe_for_a_terminal(capsys):
    terminal.out(_args("stats", "es"), _("no finished plays yet"))
    terminal.out(_args("stats", "en"), "Ana\x1b[2J\nBen")
    out, err = capsys.readouterr()
    assert out == "aún no hay partidas terminadas\nAna\\x1b[2J\nBen\n" and err == ""


def test_a_refusal_goes_to_standard_error_after_the_commands_name(capsys):
    terminal.err(_args("export", "es"), RuleError(_("nothing to undo")))
    terminal.err(_args("replay"), "not valid JSON", who="line 3")
    terminal.err(None, "an event alone", who="")
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["tablekeeper export: nada que deshacer", "line 3: not valid JSON", "an event alone"]


def test_a_warning_says_so_in_the_commands_language(capsys):
    terminal.warn(_args("history", "es"), _("nothing to undo"))
    terminal.warn(None, "entry 3 is damaged")
    assert capsys.readouterr().err.splitlines() == ["aviso: nada que deshacer", "warning: entry 3 is damaged"]


def test_json_output_keeps_text_as_it_is(capsys):
    terminal.json_out({"name": "Ana María"}, 2)
    out = capsys.readouterr().out
    assert "Ana María" in out and json.loads(out) == {"name": "Ana María"}
