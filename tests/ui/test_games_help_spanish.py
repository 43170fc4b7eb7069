"""`tablekeeper games` in Spanish: the help of every option, counter and action field is a message
translated from the games' catalogs, and the listing's own words are Spanish — while the English
listing and ``--json`` stay exactly what scripts have always read."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from tablekeeper.engine import available
from tablekeeper.engine.messages import Msg
from tablekeeper.ui import cli
from tablekeeper.ui.i18n import load_catalog
from tests.conftest import TABLEKEEPER

#: One option of each game with its help as a Spanish player reads it.
SPANISH_OPTION = {
    "bloody-inn": '  opción barn (por defecto 3): cadáveres que caben en el granero (la carta de ayuda al jugador)',
    "dale-of-merchants": "  opción market_cards_per_deck (por defecto 11): cartas que cada mazo de animales en juego "
                         "aporta al mazo del mercado: sus cartas de valor 2–5 (las 15 menos las cuatro de valor 1 "
                         "en la caja básica)",
    "dragon-run": '  opción first (por defecto ""): el jugador más valiente, que empieza (por defecto: el primero '
                  'de la lista)',
    "red-dragon-inn": "  opción drink_deck (por defecto 30): cartas del mazo de bebidas antes de repartir "
                      "(por defecto 30: el mazo de bebidas de la caja básica)",
    "counters": "  opción last_standing_wins (por defecto true): si algún contador tiene out_at, gana el último "
                "jugador que quede en la partida",
}


def _listing(capsys, *argv: str) -> str:
    assert cli.main([*argv, "games"]) == 0
    return capsys.readouterr().out


def _by_game(text: str) -> dict[str, list[str]]:
    games: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.startswith(" "):
            games[line.split(":")[0]] = []
        games[next(reversed(games))].append(line)
    return games


def _english_listing() -> str:
    """The listing as `tablekeeper games` has always printed it (docs/scripting.md)."""
    lines = []
    for cls in available().values():
        d = cls.describe_game()
        lo, hi = d["players"]
        lines.append(f"{d['id']}: {d['title']}, {lo}–{hi} players")
        lines.append(f"  player counters: {', '.join(c['name'] for c in d['counters']['player']) or '-'}")
        lines.append(f"  table counters:  {', '.join(c['name'] for c in d['counters']['table']) or '-'}")
        lines.append(f"  actions: {', '.join(d['actions'] + ['undo', 'redo'])}")
        lines += [f"  option {o['name']} (default {json.dumps(o['default'])}): {o['doc']}" for o in d["options"]]
    return "\n".join(lines) + "\n"


def test_games_in_spanish_shows_each_games_option_help_in_spanish(capsys):
    games = _by_game(_listing(capsys, "--lang", "es"))
    assert set(games) == set(available()) == set(SPANISH_OPTION)
    for game_id, line in SPANISH_OPTION.items():
        assert line in games[game_id], f"{game_id}: {line!r} not in\n" + "\n".join(games[game_id])


def test_games_in_spanish_translates_every_option_help_and_its_own_words(capsys):
    text = _listing(capsys, "--lang", "es")
    for cls in available().values():
        for option in cls.options_spec:
            assert f": {option.doc}\n" not in text, f"{cls.id} option {option.name} is still in English"
    for english in ("player counters", "table counters", "actions:", "  option ", "(default ", " players\n"):
        assert english not in text
    assert "red-dragon-inn: La Posada del Dragón Rojo, 2–8 jugadores\n" in text
    assert "\n  contadores de jugador: gold, fortitude, alcohol, drink_me\n" in text
    assert "\n  contadores de la mesa: inn, pot\n" in text  # the two lists still start in one column


def test_games_in_english_prints_what_it_always_printed(capsys):
    assert _listing(capsys, "--lang", "en") == _english_listing()


def test_games_without_lang_under_the_c_locale_and_json_stay_english():
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LC_ALL="C", LANG="C")
    plain = subprocess.run([str(TABLEKEEPER), "games"], capture_output=True, text=True, env=env, timeout=60)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == _english_listing()
    for lang in ((), ("--lang", "es")):
        r = subprocess.run([str(TABLEKEEPER), *lang, "games", "--json"], capture_output=True, text=True, env=env,
                           timeout=60)
        data = json.loads(r.stdout)
        bloody = next(g for g in data["games"] if g["id"] == "bloody-inn")
        barn = next(o for o in bloody["options"] if o["name"] == "barn")
        assert barn["doc"] == "corpses the barn (player-aid card) can hold"
        cash = next(c for c in bloody["counters"]["player"] if c["name"] == "cash")
        assert cash["doc"] == "francs on the wealth track (0–40; a gain beyond 40 is lost)"


@pytest.fixture(scope="module")
def es():
    return load_catalog("es")


def test_every_help_of_an_option_counter_and_field_is_a_message_with_its_spanish(es):
    """A help text written as a plain string (never translated) or left without Spanish fails here."""
    helps = []
    for game_id, cls in available().items():
        probe = cls._probe()
        helps += [(f"{game_id} option {o.name}", o.doc) for o in cls.options_spec]
        helps += [(f"{game_id} counter {c.name}", c.doc)
                  for c in [*probe.player_counters.values(), *probe.table_counters.values()]]
        helps += [(f"{game_id} {a}.{f.name}", f.doc) for a, info in cls.actions.items() for f in info.fields]
    helps = [(where, doc) for where, doc in helps if doc]
    assert len(helps) > 40
    plain = [where for where, doc in helps if not isinstance(doc, Msg)]
    assert plain == [], "mark these help texts with _(...): " + ", ".join(plain)
    untranslated = sorted({f"{where}: {doc}" for where, doc in helps if doc.translated(es) == str(doc)})
    assert untranslated == [], "\n".join(untranslated)
