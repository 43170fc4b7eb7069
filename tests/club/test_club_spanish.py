"""The league in Spanish: the page (``[league] lang``, else the command's language) and `tablekeeper club
serve` / `club standings` (``--lang``, else the system locale) say every sentence and label in the
configured language, game titles and counter names in the games' own words; every message of these
modules has its Spanish, no sentence there is an unmarked English string, and what machines read (the
paths, the event data's field names, ``--json``) stays English."""
from __future__ import annotations

import ast
import html
import http.client
import json
import re
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tablekeeper.engine import available
from tablekeeper.hardware.errors import ConfigError
from tablekeeper.ui.cli import main
from tablekeeper.ui.club import config, contract
from tablekeeper.ui.club import web as web_module
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League
from tablekeeper.ui.club.web import Page, render_front, render_game, render_table_card
from tablekeeper.ui.i18n import humanise, load_catalog

from ..ui.test_records_spanish import ENGLISH, _literal_text, _messages, spanish_problems
from .conftest import USERS, listening_league, one_broker
from .fake_table import FakeTable, wait_for

ROOT = Path(__file__).resolve().parents[2]
#: The modules whose sentences reach the league's page and its commands.
FILES = ("ui/club/web.py", "ui/club/cli.py", "ui/club/league.py")
#: The page's and the commands' own English words, beside the play records' (ENGLISH): none may survive
#: a Spanish rendering once names, titles and the journal's entries are taken out.
LEAGUE_ENGLISH = re.compile(
    r"\b(online|offline|draws?|points|rating|standings|tables|history|league|connected|broker|being|"
    r"received|actions?|none|yet|spoken|readable|live|state|winner|stopped|stopping|waiting|copies|ignored|"
    r"bad|messages?|dropped|new|overall|found|readers|page|read|only|listen|retrying|reach|at)\b")


@pytest.fixture(scope="module")
def es():
    return load_catalog("es")


def english_in(text: str, *kept: str) -> list[str]:
    """The English words left in ``text`` (HTML: tags out, entities decoded) once ``kept`` is taken out."""
    text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    for word in sorted(kept, key=len, reverse=True):
        text = text.replace(word, " ")
    return sorted(set(ENGLISH.findall(text)) | set(LEAGUE_ENGLISH.findall(text)))


# -- every message has its Spanish --------------------------------------------------------------
@pytest.mark.parametrize("name", FILES)
def test_every_message_of_the_league_has_its_spanish_with_the_same_placeholders(es, name):
    """A sentence or label added without its Spanish (or whose Spanish lost a placeholder, which falls
    back to English) fails here; plural forms need both Spanish forms."""
    found = _messages(ROOT / name)
    assert len(found) >= {"ui/club/web.py": 25, "ui/club/cli.py": 15, "ui/club/league.py": 3}[name]
    problems = spanish_problems(es, name, found)
    assert not problems, "\n".join(problems)


#: What the commands print, notify or raise.
_SAYING = {"print", "_err", "_said", "say", "notify", "TablekeeperError"}
#: Words a literal there may hold: the program's name, the systemd protocol's words.
_CODES = {"tablekeeper", "club", "READY", "WATCHDOG", "STOPPING", "STATUS"}


def test_no_sentence_the_league_commands_print_is_an_unmarked_english_string():
    tree = ast.parse((ROOT / "ui/club/cli.py").read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if callee not in _SAYING:
            continue
        for arg in list(node.args) + [k.value for k in node.keywords]:
            found += [f"cli.py:{node.lineno}: {text!r}" for text in _literal_text(arg)
                      if set(re.findall(r"[A-Za-z]{2,}", text)) - _CODES]
    assert not found, "\n".join(found)


def _page_literals(tree: ast.Module) -> list[tuple[int, str]]:
    """The page's HTML in web.py's literals: every string (an f-string's text too) outside the docstrings,
    the style sheet, the script, the security policy, the messages and the log lines."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in ("CSS", "JS", "CSP")
                                                for t in node.targets):
            skipped.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Call):
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if callee in ("_", "N_", "word", "compile") or (isinstance(func, ast.Attribute)
                                                            and isinstance(func.value, ast.Name)
                                                            and func.value.id == "log"):
                skipped.update(id(n) for n in ast.walk(node))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped]


def test_no_text_of_the_page_is_an_unmarked_english_string():
    """Text between the page's tags and in its tooltips comes from messages: an English word written
    into web.py's HTML would never be translated."""
    found = []
    for line, literal in _page_literals(ast.parse((ROOT / "ui/club/web.py").read_text(encoding="utf-8"))):
        if "<" not in literal and ">" not in literal:
            continue
        words = re.sub(r"<[^>]*(>|$)|^[^<]*>", " ", literal)  # the tags, and pieces of tags cut by a {value}
        words += " ".join(re.findall(r'title="([^"{]*)', literal))
        if re.search(r"[A-Za-z]{2,}", words):
            found.append(f"web.py:{line}: {literal!r}")
    assert not found, "\n".join(found)
    # the check sees the page's markup: the literals that hold its headings' tags are among those read
    assert sum("<h2>" in literal for _line, literal in _page_literals(
        ast.parse((ROOT / "ui/club/web.py").read_text(encoding="utf-8")))) >= 3


# -- the page's own renderings, every state --------------------------------------------------------
def _spanish_game(es):
    """A game of the registry whose Spanish title differs from its English one, with a counter whose
    name has an underscore (the app shows it humanised, then translated)."""
    for game_id, cls in available().items():
        probe = cls._probe()
        counters = [c for c in probe.player_counters if "_" in c and es.pgettext("counter", humanise(c)) != c]
        if es.pgettext("game", cls.title) != cls.title and counters and cls.main_counter:
            return game_id, cls, counters[0], list(probe.table_counters)
    raise AssertionError("no game with a Spanish title and a translated counter with an underscore")


class _League:
    """What the page reads of a league, in the shapes League gives them."""

    def __init__(self, tables, plays, standings, games=None, connected=True):
        self._tables, self._plays, self._standings, self._games = tables, plays, standings, games or {}
        self.connected = connected

    def tables(self):
        return self._tables

    def recent_plays(self, n, season=None):
        return len(self._plays), self._plays[-n:]

    def standings(self, season=None):
        return self._standings

    def game(self, game_id):
        return self._games.get(game_id)


def test_every_state_of_the_page_renders_in_spanish_with_the_games_own_words(es):
    game_id, cls, odd, table_counters = _spanish_game(es)
    title = es.pgettext("game", cls.title)
    main = cls.main_counter
    live = {"game": game_id, "game_no": 4, "over": True, "winners": ["Ana"], "turn": "Ben",
            "players": [{"name": "Ana", "counters": {odd: 2, main: 9}}, {"name": "Ben", "counters": {main: 1}}],
            "table_counters": {table_counters[0]: 3} if table_counters else {}}
    tables = [{"name": "mesa-1", "online": True, "game_id": 7, "live": live},
              {"name": "mesa-2", "online": False, "live": {}},
              {"name": "mesa-3", "online": True, "live": {"game": game_id, "players": 5}}]  # a live state of another shape
    row = {"player": "Ana", "plays": 2, "wins": 1, "shared": 0, "draws": 1, "points": 4, "rating": 1508.0}
    plays = [{"id": 7, "table": "mesa-1", "game": game_id, "game_no": 4, "winners": [], "draw": True,
              "finished": 1.7e9},
             {"id": 8, "table": "mesa-2", "game": game_id, "game_no": 5, "winners": [], "finished": 1.7e9}]
    other = next(g for g in available() if g != game_id)
    lg = _League(tables, plays, {"overall": [row], "games": {game_id: [row], other: []}})
    front = render_front(lg, es)  # type: ignore[arg-type]
    for heading in ("Mesas en juego", "Clasificación", "Partidas (2)"):
        assert f"<h2>{heading}</h2>" in front
    assert ">conectada</span>" in front and ">desconectada</span>" in front and "sin partida" in front
    assert "no se puede leer su estado en directo" in front  # the table still shown, the page not failed
    assert f"<p>{html.escape(title)} · <a href=\"/plays/7\">partida 4</a> · ganó Ana</p>" in front
    spanish_odd, spanish_main = es.pgettext("counter", humanise(odd)), es.pgettext("counter", humanise(main))
    assert f"<span>{html.escape(spanish_main)} 9 · {html.escape(spanish_odd)} 2</span>" in front  # main counter first
    assert "<th>jugador</th><th>partidas</th><th>victorias</th><th>empates</th><th title=\"puntos\">pts</th>" \
           "<th title=\"índice Elo\">Elo</th>" in front
    assert "(1 jugador)" in front and "(0 jugadores)" in front and "todavía no hay partidas" in front
    assert f"mesa-1 · {html.escape(title)}, partida 4</a> — un empate" in front and "— sin ganador" in front
    assert english_in(front, title, es.pgettext("game", available()[other].title), "mesa-1", "mesa-2",
                      "mesa-3", "Ana", "Ben") == []
    assert english_in(render_front(_League([], [], {"overall": [], "games": {}}), es)) == []  # an empty league
    assert "todavía no se ha conectado ninguna mesa" in render_front(_League([], [], {"overall": [], "games": {}}), es)

    finished = {"table": "mesa-1", "game": game_id, "game_no": 4, "actions": [
        {"seq": 1, "entry": {"action": "adjust", "player": "Ana", "counter": main, "delta": 1}, "at": 1.7e9}],
        "play": {"game": game_id, "started": 1.7e9 - 600, "finished": 1.7e9, "winners": ["Ana"],
                 "players": [{"name": "Ana", "counters": {main: 9}}, {"name": "Ben", "counters": {main: 1}}]}}
    being = {"table": "mesa-2", "game": game_id, "game_no": 5, "actions": [], "play": None}
    lg = _League([], [], {}, {7: finished, 8: being})
    page = render_game(lg, 7, es)  # type: ignore[arg-type]
    assert page is not None and f"<h2>mesa-1 · {html.escape(title)} · partida 4</h2>" in page
    assert "<p>ganó Ana</p>" in page and re.search(r"de \d{4}-\d\d-\d\d \d\d:\d\d a \d{4}-", page)
    assert "<h3>Historial</h3>" in page and "<th>acción</th><th>hora</th>" in page and "← la liga" in page
    assert f'<li class="won"><span>Ana</span><span>{html.escape(spanish_main)} 9</span>' in page
    journalled = web_module.entry_text(finished["actions"][0]["entry"])  # the journal's own line, as sent
    assert html.escape(journalled) in page
    assert english_in(page, title, journalled, "mesa-1", "Ana", "Ben") == []
    waiting = render_game(lg, 8, es)  # type: ignore[arg-type]
    assert waiting is not None and "en juego" in waiting and "no ha llegado ninguna acción" in waiting
    assert english_in(waiting, title, "mesa-2") == []
    # English stays as it was where no catalog is given
    english = render_front(_League(tables, plays, {"overall": [row], "games": {}}))
    assert "<h2>Tables</h2>" in english and ">offline</span>" in english and "— a draw" in english


def test_a_league_that_lost_its_broker_does_not_show_tables_online_in_green(es):
    """A table's last word may be stale while the league hears nothing: said so, not in green."""
    tables = [{"name": "mesa-1", "online": True, "live": None}, {"name": "mesa-2", "online": False, "live": None}]
    heard = render_front(_League(tables, [], {"overall": [], "games": {}}))
    assert '<span class="on">online</span>' in heard
    lost = render_front(_League(tables, [], {"overall": [], "games": {}}, connected=False))
    assert 'class="on"' not in lost
    assert '<span class="dim">online when last heard</span>' in lost and "offline when last heard" in lost
    spanish = render_front(_League(tables, [], {"overall": [], "games": {}}, connected=False), es)
    assert "conectada según lo último que se supo" in spanish


def test_every_name_stays_escaped_in_spanish(es):
    evil = '<img src=x onerror="alert(1)">'
    card = render_table_card({"name": evil, "online": True, "live": {
        "game": evil, "game_no": 1, "over": True, "winners": [evil],
        "players": [{"name": evil, "counters": {evil: evil}}]}}, es)
    assert "<img" not in card and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in card
    assert "ganó &lt;img" in card and "partida 1" in card


# -- a real league, its page served in Spanish ----------------------------------------------------------
@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    yield from one_broker(tmp_path_factory.mktemp("broker"))


@pytest.fixture
def league(broker, tmp_path):
    lg = listening_league(tmp_path / "league.db", broker)
    yield lg
    lg.close()


def heard(league: League, table: FakeTable) -> None:
    """Wait until the league hears the table: its subscription is in place (a table's status, again)."""
    def status_stored() -> bool:
        table.send(contract.STATUS, online=True, at=1.0)
        return any(t["name"] == table.name for t in league.tables())

    wait_for(status_stored, what="the league to hear the table")


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_served_page_in_spanish_says_so_and_keeps_the_event_data_english(es, league, broker):
    game_id, cls, odd, _table_counters = _spanish_game(es)
    title = es.pgettext("game", cls.title)
    table = FakeTable(broker, "mesa-1")
    page = Page(league, "127.0.0.1", 0, lang="es").start()
    try:
        heard(league, table)
        table.send(contract.LIVE, at=1001.0, journal="j-1", game_no=2, game=game_id, title=cls.title,
                   players=[{"name": "Ana", "counters": {odd: 3}, "out": False},
                            {"name": "Ben", "counters": {odd: 1}, "out": False}],
                   main_counter=cls.main_counter, turn="Ana", table_counters={}, over=False, winners=[], draw=False,
                   actions=1)
        table.action("j-1", 1, 1, game=game_id, entry={"action": "adjust", "player": "Ana", "counter": odd,
                                                      "delta": 3})
        table.play("j-1", 1, ["Ana", "Ben"], ["Ana"], finished=1700000000.0, game=game_id)
        wait_for(lambda: league.plays() and league.game(league.plays()[0]["id"])["actions"]
                 and (league.tables()[0].get("live") or {}).get("game"), what="the table's messages")
        status, body = get(page.url)
        assert status == 200 and body.startswith('<!doctype html><html lang="es">')
        assert "<title>Liga</title>" in body and "<h1>Liga</h1>" in body and "conectada al bróker" in body
        assert "<h2>Mesas en juego</h2>" in body and "<h2>Clasificación</h2>" in body
        assert "<h2>Partidas (1)</h2>" in body and f"{html.escape(title)}, partida 1</a> — ganó Ana" in body
        assert f"<span>Ana</span><span>{html.escape(es.pgettext('counter', humanise(odd)))} 3</span>" in body
        assert english_in(body, title, "mesa-1", "Ana", "Ben") == []
        number = league.plays()[0]["id"]
        status, history = get(f"{page.url}plays/{number}")
        journalled = f"adjust counter={odd} delta=3 player=Ana"
        assert status == 200 and journalled in history and "<h3>Historial</h3>" in history
        assert english_in(history, title, journalled, "mesa-1", "Ana", "Ben") == []
        assert get(page.url + "plays/999") == (404, "esta página no existe\n")

        host, port = page.server.server_address[:2]
        conn = http.client.HTTPConnection(host, port, timeout=5)
        conn.request("GET", "/events/")
        r = conn.getresponse()
        while not (line := r.fp.readline().decode()).startswith("data: "):
            pass
        data = json.loads(line[6:])
        conn.close()
        assert set(data) == {"version", "main"} and "<h2>Clasificación</h2>" in data["main"]  # the contract's names
    finally:
        page.stop()
        table.close()


def test_the_page_says_in_spanish_why_the_league_is_not_connected(tmp_path):
    lg = League(tmp_path / "n.db", BrokerSettings("127.0.0.1", 9, "league", "x", client_id="league-es-nowhere"))
    lg._on_connect_fail(None, None)  # what paho calls when the broker cannot be reached
    page = Page(lg, port=0, lang="es").start()
    try:
        body = get(page.url)[1]
        assert "sin conexión: no se puede contactar con el bróker league@127.0.0.1:9; se vuelve a intentar" in body
        assert str(lg.problem) == "cannot reach the broker at league@127.0.0.1:9; retrying"  # the log's English
    finally:
        page.stop()
        lg.close()


def test_a_page_in_a_language_there_is_not_is_refused(tmp_path):
    lg = League(tmp_path / "n.db", BrokerSettings("127.0.0.1", 9, "league", "x", client_id="league-xx"))
    try:
        with pytest.raises(ValueError, match="no such language 'xx'"):
            Page(lg, port=0, lang="xx")
    finally:
        lg.close()


# -- the config's [league] lang, and the commands -----------------------------------------------------
def test_league_lang_in_the_config_is_checked_and_named():
    assert config.league_language({"league": {"lang": "es"}}) == "es"
    assert config.league_language({"league": {}}) is None and config.league_language({}) is None
    assert config.league_settings({"league": {"lang": "es"}}, state_dir="/tmp").http_port == config.DEFAULT_HTTP_PORT
    for bad in ("fr", 3, "ES", ["es"]):
        with pytest.raises(ConfigError, match=r"^t\.toml: league\.lang: must be one of 'en', 'es', not "):
            config.league_settings({"league": {"lang": bad}}, source="t.toml", state_dir="/tmp")
        with pytest.raises(ConfigError, match=r"league\.lang: "):
            config.league_language({"league": {"lang": bad}}, source="t.toml")


def _config(tmp_path, broker, **extra) -> Path:
    (tmp_path / "league.password").write_text(USERS["league"] + "\n")
    keys = {"host": f'"{broker.host}"', "port": broker.port, "password_file": '"league.password"',
            "db": '"data/league.db"', "http_port": 0, "client_id": f'"league-es-{uuid.uuid4().hex[:8]}"', **extra}
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text("\n".join(["[league]"] + [f"{k} = {v}" for k, v in keys.items()]) + "\n")
    return cfg


@pytest.fixture
def english_system(monkeypatch):
    for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)


@pytest.fixture
def served(monkeypatch):
    """What `club serve` served: each page's language and front page, read while it ran."""
    seen: list[tuple[str, str]] = []

    class Recorded(Page):
        def start(self):
            super().start()
            seen.append((self.lang, get(self.url)[1]))
            return self

    monkeypatch.setattr(web_module, "Page", Recorded)
    return seen


def test_club_serve_shows_the_page_in_the_configs_language_and_says_the_rest_in_the_commands(
        broker, tmp_path, capsys, english_system, served, es):
    cfg = _config(tmp_path, broker, lang='"es"')
    assert main(["--state-dir", str(tmp_path / "s"), "club", "serve", "--config", str(cfg), "--run-for", "0.3"]) == 0
    lang, body = served[-1]
    assert lang == "es" and '<html lang="es">' in body and "<h2>Clasificación</h2>" in body
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper club: page at http://127.0.0.1:")  # the command: the system's English
    assert "tablekeeper club: stopped: 0 plays and 0 actions stored, 0 copies ignored, 0 bad messages dropped" in err

    cfg = _config(tmp_path, broker)  # no lang: the command's
    assert main(["--lang", "es", "club", "serve", "--config", str(cfg), "--run-for", "0.3"]) == 0
    lang, body = served[-1]
    assert lang == "es" and "<h2>Mesas en juego</h2>" in body
    err = capsys.readouterr().err
    assert re.match(r"tablekeeper club: página en http://127\.0\.0\.1:\d+/ \(solo lectura\); base de datos \S+"
                    r"league\.db; bróker league@127\.0\.0\.1:\d+\n", err), err
    assert ("tablekeeper club: detenida: 0 partidas y 0 acciones guardadas, 0 copias ignoradas, "
            "0 mensajes incorrectos descartados\n") in err
    assert english_in(err, str(tmp_path), "tablekeeper club", "league@", "league.db") == []

    assert main(["club", "serve", "--config", str(cfg), "--run-for", "0.3"]) == 0  # nothing says: the system's
    assert served[-1][0] == "en" and '<html lang="en">' in served[-1][1] and "<h2>Standings</h2>" in served[-1][1]
    capsys.readouterr()

    cfg = _config(tmp_path, broker, lang='"fr"')
    assert main(["club", "serve", "--config", str(cfg), "--run-for", "0.3"]) == 1
    assert "league.lang: must be one of 'en', 'es', not 'fr'" in capsys.readouterr().err
    assert len(served) == 3  # refused before anything connected


def test_club_standings_in_spanish_and_json_stays_english(broker, tmp_path, capsys, english_system, es):
    game_id, cls, _odd, _table = _spanish_game(es)
    title = es.pgettext("game", cls.title)
    cfg = _config(tmp_path, broker)
    assert main(["--lang", "es", "club", "standings", "--config", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper club: no hay base de datos de la liga en ") and "(¿se ha ejecutado " in err
    settings = config.league_settings(cfg)
    lg = League(settings.db, settings.broker).start()
    table = FakeTable(broker, "mesa-1")
    try:
        heard(lg, table)
        table.play("j-1", 1, ["Ana", "Ben"], ["Ana"], finished=1700000000.0, game=game_id)
        table.play("j-1", 2, ["Ana", "Ben"], ["Ana", "Ben"], draw=True, finished=1700000100.0, game=game_id)
        wait_for(lambda: len(lg.plays()) == 2, what="the plays")
    finally:
        table.close()
        lg.close()
    assert main(["--lang", "es", "club", "standings", "--config", str(cfg), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"overall", "games"} and set(data["overall"][0]) >= {"player", "plays", "wins", "points",
                                                                             "rating"}
    ana = data["overall"][0]
    assert (ana["player"], ana["plays"], ana["wins"], ana["draws"], ana["points"]) == ("Ana", 2, 1, 1, 4)
    assert main(["--lang", "es", "club", "standings", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "general" and lines[3] == title
    assert lines[1] == f"    1. Ana               2 partidas    1 victorias   1 empates     4 puntos  Elo {ana['rating']:.0f}"
    assert lines[4] == lines[1]
    assert english_in(out, title, "Ana", "Ben") == []
    assert main(["--lang", "es", "club", "standings", "--config", str(cfg), "--game", "nada"]) == 0
    assert capsys.readouterr().out == "nada\n  ninguna partida\n"
    assert main(["club", "standings", "--config", str(cfg)]) == 0  # the system's English
    assert capsys.readouterr().out.splitlines()[:2] == [
        "overall", f"    1. Ana               2 plays    1 wins   1 draws     4 points  rating {ana['rating']:.0f}"]
