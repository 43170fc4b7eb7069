"""The play records in Spanish: `tablekeeper stats`, `export`, `players`, `backup` and `restore` (and
`export --stick`) say every sentence in the command's language (``--lang``, else the system locale),
and the touchscreen's USB stick results in the app's; every message of these modules has its Spanish,
no sentence there is an unmarked English string, and the files and ``--json`` stay English."""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import socket
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.engine import Journal
from tablekeeper.engine import backup as bk
from tablekeeper.engine import roster as people
from tablekeeper.engine.journal import FILENAME
from tablekeeper.ui import playlog
from tablekeeper.ui import stick as sticks
from tablekeeper.ui.cli import main
from tablekeeper.ui.i18n import load_catalog

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402

from .test_backup_cli import state_with_a_stick  # noqa: E402

#: The modules whose sentences people read in these commands and on the stick's and statistics' screens.
FILES = ("engine/backup.py", "engine/roster.py", "engine/records.py", "ui/playlog/cache.py",
         "ui/playlog/exports.py", "ui/playlog/text.py", "ui/playlog/plot.py", "ui/playlog/commands.py",
         "ui/terminal.py", "ui/backups.py",
         "ui/stick.py", "ui/screens/stats.py", "ui/screens/settings.py")
#: How they mark messages: the engine's (``_``, ``N_(singular, plural, n)``, ``word(context, text)``) and
#: the app screens' gettext calls (``ngettext``, ``pgettext``).
KEYWORDS = {"_": None, "N_": (1, 2), "word": ((1, "c"), 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

#: Words of these commands' English templates; none may survive a Spanish rendering (game titles,
#: people's names, paths and the system's own error words are taken out first).
ENGLISH = re.compile(
    r"\b(the|and|of|to|in|is|it|its|by|on|not|from|with|made|all|"
    r"plays?|played|games?|wins?|won|player|players|people|person|rate|figure|turns|run|best|average|most|"
    r"nobody|against|together|both|neither|ahead|end|never|same|table|character|seat|colour|also|stored|"
    r"written|backed|backup|restored|brought|already|here|date|nothing|changed?|damaged|checksum|"
    r"match|content|cut|short|file|database|newer|format|reads|update|warning|cannot|give|config|"
    r"finished|unknown|called|which|lists|roster|name|joined|left|out|unfinished)\b")


# -- every message has its Spanish --------------------------------------------------------------
def _messages(path: Path) -> list[tuple[int, str | None, tuple[str, ...]]]:
    from babel.messages.extract import extract_from_file

    return [(line, ctx, msg if isinstance(msg, tuple) else (msg,))
            for line, msg, _comments, ctx in extract_from_file("python", str(path), keywords=KEYWORDS) if msg]


def _fields(template: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


@pytest.fixture(scope="module")
def es():
    return load_catalog("es")


def spanish_problems(es, name: str, found: list[tuple[int, str | None, tuple[str, ...]]]) -> list[str]:
    """Each message of ``found`` (``_messages``) without its Spanish in ``es``, or whose Spanish has
    other placeholders than the English (it would fall back to English); plurals need both forms."""
    entries = es._catalog
    problems = []
    for line, ctx, ids in found:
        key = f"{ctx}\x04{ids[0]}" if ctx else ids[0]
        spanish = [entries.get((key, 0)), entries.get((key, 1))] if len(ids) == 2 else [entries.get(key)]
        if not all(spanish):
            problems.append(f"{name}:{line}: no Spanish for {ids[0]!r}")
        elif any(_fields(t) != _fields(ids[-1]) for t in spanish):
            problems.append(f"{name}:{line}: {ids[0]!r} and its Spanish {spanish} have different placeholders")
    return problems


@pytest.mark.parametrize("name", FILES)
def test_every_message_of_the_play_records_has_its_spanish_with_the_same_placeholders(es, name):
    """A sentence added without its Spanish (or whose Spanish lost a placeholder, which would fall back
    to English) fails here; plural forms need both Spanish forms."""
    problems = spanish_problems(es, name, _messages(ROOT / name))
    assert not problems, "\n".join(problems)


#: Calls whose text reaches a person: printed, warned, refused, or an error's sentence.
_SAYING = {"print", "out", "err", "warn", "SystemExit", "ValueError", "RosterError", "NewerRoster", "BackupError",
           "RestoreRefused", "UnknownName"}
#: Words a literal there may hold: a refusal's kind (``RestoreRefused``'s ``why``), the program's name.
_CODES = {"elsewhere", "newer", "damaged", "unreadable", "tablekeeper"}


def _literal_text(node: ast.AST) -> list[str]:
    """The literal text in an argument: a string, an f-string's text, a concatenation of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left) + _literal_text(node.right)
    return []


@pytest.mark.parametrize("name", FILES)
def test_no_sentence_of_the_play_records_is_an_unmarked_english_string(name):
    """Every sentence printed, warned or raised in these modules goes through a message: an English
    f-string (or string) sentence there would never be translated."""
    tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if callee not in _SAYING and not (callee in ("warn", "append") and isinstance(func, ast.Attribute)):
            continue
        for arg in list(node.args) + [k.value for k in node.keywords]:
            found += [f"{name}:{node.lineno}: {text!r}" for text in _literal_text(arg)
                      if set(re.findall(r"[A-Za-z]{2,}", text)) - _CODES]
    assert not found, "\n".join(found)


# -- the commands in Spanish ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records-es")
    with Journal(folder, durable=False) as j:
        playgen.generate(j, 16, seed=5)
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        roster.update("Ben", bgg_user="ben_plays")
        people.save(j, roster)
    return folder / FILENAME


@pytest.fixture
def state(template, tmp_path, monkeypatch):
    return state_with_a_stick(template, tmp_path, monkeypatch)


@pytest.fixture(scope="module")
def kept_words(es) -> list[str]:
    """What stays as it is in Spanish text: the games' titles as the Spanish catalog gives them (some keep
    their English names), the characters' names, the people's, and the programs' own names."""
    from tablekeeper.engine import available

    titles = [es.pgettext("game", cls.title) for cls in available().values()] + list(available())
    characters = ["Barbarian", "Cleric", "Dwarf", "Knight", "Thief", "Wizard"]
    return sorted(titles + characters, key=len, reverse=True) + [
        socket.gethostname(), "Ana María", "BoardGameGeek", "tablekeeper", "SQLite", "matplotlib", "pip install", "[app.bgg]",
        "[app.stick]", "--to DIR", "--list", "--plot", "No such file or directory"]


def english_left(text: str, kept: list[str], *paths: Path) -> list[str]:
    for p in sorted(map(str, paths), key=len, reverse=True):
        text = text.replace(p, " ")
    text = re.sub(r"tablekeeper-backup-[\w-]+\.db|\S+\.(db|csv|json|xml|png)\b", " ", text)
    text = re.sub(r"\btablekeeper [a-z]+(?: --[a-z]+)?", " ", text)  # a command's name: `tablekeeper restore --list`
    for word in kept:
        text = text.replace(word, " ")
    return sorted(set(ENGLISH.findall(text)))


def tk(state, *args) -> int:
    return main(["--state-dir", str(state), *args])


def test_stats_in_spanish_has_spanish_headings_aligned_and_no_english_left(state, capsys, kept_words):
    assert tk(state, "--lang", "es", "stats") == 0
    text = capsys.readouterr().out
    assert "La Posada del Dragón Rojo: " in text and "turnos de media; más victorias: " in text
    assert "por personaje: " in text and "por posición en el orden de turno: " in text
    assert english_left(text, kept_words, state) == []
    lines = text.splitlines()
    head = next(line for line in lines if line.startswith("  persona "))
    assert head.split() == ["persona", "partidas", "victorias", "%", "cifra", "min", "turnos", "mejor", "racha",
                            "racha"]
    # every number ends in the column its heading ends in, past the accented name ("Ana María")
    ends, at = [], playlog.NAME_WIDTH + 2
    for label in ("partidas", "victorias", "%", "cifra", "min", "turnos", "mejor racha", "racha"):
        at = head.index(label, at) + len(label)
        ends.append(at)
    row = next(line for line in lines[lines.index(head):] if line.startswith("  Ana María "))
    assert [playlog.NAME_WIDTH + 2 + m.end() for m in re.finditer(r"\S+", row[playlog.NAME_WIDTH + 2:])] == ends
    overall = next(line for line in lines if line.startswith("todos los juegos "))
    assert overall.split()[3:] == ["partidas", "victorias", "%", "mejor", "racha", "racha"]


def test_stats_head_to_head_and_refusals_in_spanish(state, capsys, kept_words):
    assert tk(state, "--lang", "es", "stats", "--vs", "Ana", "Ben") == 0
    text = capsys.readouterr().out
    assert text.startswith("Ana María contra Ben\n  todos los juegos: ") and "partidas en común; Ana María ganó " in text
    assert "por delante al final: " in text and english_left(text, kept_words, state) == []
    assert tk(state, "--lang", "es", "stats", "--player", "Nadie") == 2
    assert capsys.readouterr().err == "tablekeeper stats: nadie llamado 'Nadie' ha terminado una partida\n"
    assert tk(state, "--lang", "es", "stats", "--game", "ajedrez") == 2
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper stats: juego desconocido 'ajedrez' (juegos: ")


def test_the_system_locale_chooses_spanish_and_json_stays_english(state, capsys, monkeypatch):
    for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("LANG", "es_MX.UTF-8")
    assert tk(state, "stats", "--game", "red-dragon-inn") == 0
    text = capsys.readouterr().out
    assert text.startswith("La Posada del Dragón Rojo: ") and " turnos de media; más victorias: " in text
    assert "\ntodos los juegos " in text
    assert tk(state, "stats", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"plays", "players", "games"} and "win_rate" in data["players"]["Ben"]["*"]
    assert tk(state, "players", "--json") == 0
    assert "aliases" in json.loads(capsys.readouterr().out)["people"][0]


def test_players_list_in_spanish_names_colours_pods_and_other_names(state, capsys, kept_words):
    assert tk(state, "--lang", "es", "players", "list") == 0
    text = capsys.readouterr().out
    lines = {line.split("  ")[0]: line for line in text.splitlines()}
    assert "también aparece como Ana" in lines["Ana María"]
    assert "BoardGameGeek: ben_plays" in lines["Ben"]
    assert all(re.search(r" color \d \((azul cielo|naranja|verde|morado|amarillo|rojo|azul|gris)\), módulo ", ln)
               for ln in lines.values())
    assert all(ln.index("color") == 21 for ln in lines.values())  # the names' column, accents and all
    assert english_left(text, kept_words, state) == []
    assert tk(state, "--lang", "es", "players", "merge", "Ana", "Ben") == 2
    assert capsys.readouterr().err == ("tablekeeper players: Ana María y Ben jugaron en la misma partida: "
                                       "son dos personas\n")
    assert tk(state, "--lang", "es", "players", "rename", "Nadie", "Otro") == 2
    assert "no hay nadie llamado 'Nadie' en la lista de jugadores" in capsys.readouterr().err


def test_export_in_spanish_says_it_and_the_files_stay_english(state, tmp_path, capsys, kept_words):
    out = tmp_path / "plays.xml"
    assert tk(state, "--lang", "es", "export", "--bgg", str(out)) == 0
    said = capsys.readouterr()
    assert said.out == f"16 partidas escritas en {out}\n"
    assert said.err.startswith("aviso: no hay identificador de BoardGameGeek para dragon-run; indícalo")
    assert english_left(said.out + said.err, kept_words, tmp_path) == []
    assert '<item name="The Red Dragon Inn"' in out.read_text()  # the play log keeps BGG's names
    csv_file = tmp_path / "plays.csv"
    assert tk(state, "--lang", "es", "export", "--csv", str(csv_file)) == 0
    assert csv_file.read_text().splitlines()[0] == ",".join(playlog.CSV_COLUMNS)
    capsys.readouterr()
    assert tk(state, "--lang", "es", "export", "--json", str(tmp_path / "missing" / "p.json")) == 1
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper export: no se puede escribir ") and "ningún archivo a medias" in err


def _newer(path: Path, dest: Path) -> Path:
    shutil.copyfile(path, dest)
    with sqlite3.connect(dest) as conn:
        manifest = json.loads(conn.execute(f"SELECT manifest FROM {bk.MANIFEST_TABLE}").fetchone()[0])
        manifest["version"] = bk.VERSION + 1
        conn.execute(f"UPDATE {bk.MANIFEST_TABLE} SET manifest=?", (json.dumps(manifest),))
    conn.close()
    return dest


def test_backup_and_restore_in_spanish_with_every_refusal(state, tmp_path, capsys, kept_words):
    out = tmp_path / "out"
    assert tk(state, "--lang", "es", "backup", "--to", str(out)) == 0
    made = capsys.readouterr().out
    assert made.startswith("copia hecha: 16 partidas terminadas, ")
    path = bk.backups_in(out)[0]
    fresh = tmp_path / "fresh"
    assert tk(fresh, "--lang", "es", "restore", str(path)) == 0
    first = capsys.readouterr().out
    assert f"copia {path.name} restaurada (de " in first and "partidas incorporadas; 0 puestas al día; " in first
    assert "personas nuevas en la lista de jugadores" in first
    assert tk(fresh, "--lang", "es", "restore", str(path)) == 0
    again = capsys.readouterr().out
    assert "0 partidas incorporadas" in again and again.endswith("; nada que cambiar\n")
    assert tk(state, "--lang", "es", "restore", "--list", str(out)) == 0
    listed = capsys.readouterr().out
    assert "16 partidas terminadas y " in listed and " personas, de " in listed
    said = [made, first, again, listed]

    photo = tmp_path / "photo.db"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    damaged = tmp_path / "damaged.db"
    data = bytearray(path.read_bytes())
    data[data.index(b'"action":"') + 4] ^= 0x01
    damaged.write_bytes(bytes(data))
    cut = tmp_path / "cut.db"
    cut.write_bytes(path.read_bytes()[:3000])
    newer = _newer(path, tmp_path / "newer.db")
    before = (state / FILENAME).read_bytes()
    for file, why in ((photo, "no es una copia de seguridad de tablekeeper (no es una base de datos SQLite)"),
                      (damaged, "está dañada (su suma de comprobación no coincide con su contenido)"),
                      (cut, "está dañada (el archivo está incompleto: 3000 de "),
                      (newer, f"la escribió un tablekeeper más nuevo (formato de copia {bk.VERSION + 1}, ")):
        assert tk(state, "--lang", "es", "restore", str(file)) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tablekeeper restore: {file}: no se ha restaurado y no se ha cambiado nada: {why}"), err
        said.append(err)
    assert (state / FILENAME).read_bytes() == before
    assert tk(state, "--lang", "es", "restore") == 2
    said.append(capsys.readouterr().err)
    assert said[-1].startswith("tablekeeper restore: ¿qué copia? ")
    assert tk(state, "--lang", "es", "backup") == 1  # no stick plugged in
    said.append(capsys.readouterr().err)
    assert said[-1].startswith("tablekeeper backup: no se encuentra ninguna memoria USB (ninguna montada en ")
    left = english_left("\n".join(said), kept_words, tmp_path)
    assert left == [], "\n".join(said)


def test_export_to_the_stick_in_spanish(state, tmp_path, capsys, kept_words, monkeypatch):
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setenv(sticks.ENV_STICK, str(stick))
    assert tk(state, "--lang", "es", "export", "--stick") == 0
    said = capsys.readouterr()
    assert said.out.startswith(f"16 partidas escritas en {stick / 'tablekeeper'}; copia de todo hecha en "
                               "tablekeeper-backup-")
    assert english_left(said.out, kept_words, tmp_path) == []
    assert tk(state, "export", "--stick") == 0  # English where the locale says nothing else
    assert capsys.readouterr().out.startswith(f"16 plays written to {stick / 'tablekeeper'}; everything backed up as ")


def test_roster_and_stick_config_warnings_in_spanish(state, tmp_path, capsys, monkeypatch):
    with Journal(state) as j:
        j.meta_set(people.META_KEY, json.dumps({"format": people.FORMAT + 1, "people": []}))
    assert tk(state, "--lang", "es", "players", "add", "Zoe") == 1
    err = capsys.readouterr().err
    assert "aviso: la lista de jugadores del diario la escribió un tablekeeper más nuevo (formato " in err
    refused = [line for line in err.splitlines() if line.startswith("tablekeeper players: ")]
    assert len(refused) == 1 and refused[0].startswith("tablekeeper players: la lista de jugadores del diario la "
                                                       "escribió un tablekeeper más nuevo")
    assert refused[0].endswith("; no se ha cambiado nada")
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[app.stick]\nfolder = 3\nmedia = "x"\n')
    assert tk(state, "--lang", "es", "backup", "--config", str(cfg)) == 1
    err = capsys.readouterr().err
    assert "aviso: [app.stick] folder = 3 no es la ruta de una carpeta\n" in err
    assert "aviso: [app.stick] media = 'x' no es una lista de carpetas\n" in err


# -- the app's stick results in the app's language ---------------------------------------------------
_STICK_JOBS = r"""
import json, sys
from pathlib import Path
from tablekeeper.engine import Journal
from tablekeeper.ui import i18n
from tablekeeper.ui.screens.settings import stick_job

class Keeper:
    session = None
    def __init__(self, folder):
        self.state_dir = folder
        self.journal = Journal(folder)

state, stick, damaged = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
i18n.set_language("es")
keeper = Keeper(state)
said = [stick_job(keeper, what, stick, True) for what in ("backup", "export", "restore")]
newest = sorted((stick / "tablekeeper").glob("tablekeeper-backup-*.db"))[-1]
newest.write_bytes(damaged.read_bytes())  # the latest backup on the stick, damaged
said.append(stick_job(keeper, "restore", stick, True))
print("RESULT " + json.dumps(said))
"""


def test_the_apps_stick_buttons_say_their_results_in_the_apps_language(state, tmp_path, kept_words):
    stick = tmp_path / "stick"
    stick.mkdir()
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"not a database at all, from elsewhere")
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"))
    proc = subprocess.run([sys.executable, "-c", _STICK_JOBS, str(state), str(stick), str(damaged)],
                          capture_output=True, text=True, timeout=120, env=env)
    results = [line[len("RESULT "):] for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and results, (proc.stdout + proc.stderr)[-3000:]
    (bkind, backup), (ekind, export), (rkind, restore), (fkind, refused) = json.loads(results[-1])
    assert (bkind, ekind, rkind, fkind) == ("info", "info", "info", "refused")
    assert backup.startswith("copia hecha: 16 partidas terminadas, ")
    assert export.startswith("16 partidas escritas en ") and "; copia de todo hecha en " in export
    assert "0 partidas incorporadas; 0 puestas al día; " in restore and restore.endswith("; nada que cambiar")
    assert "no se ha restaurado y no se ha cambiado nada: no es una copia de seguridad de tablekeeper" in refused
    left = english_left("\n".join([backup, export, restore, refused]), kept_words, tmp_path)
    assert left == [], left
