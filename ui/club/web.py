"""The league's read-only page: standings, the tables live, each play's history; live by server-sent events.

Server-rendered HTML (Python's ``http.server``, one thread per connection), readable on a phone.
Read-only: the only input is the path, and only these paths exist::

    /                 the tables live, the standings (overall and per game; of the current season
                      when the league has seasons), the plays
    /seasons/NAME     the same for one season (NAME percent-encoded), with seasons
    /all              the same for every play (all time), with seasons
    /plays/N          one game's history (N: the league's number of the game), finished or not, and
                      what the organiser did to its play (voided it, fixed its result)
    /events/          server-sent events for / : each event's data is {"version", "main"} (the new HTML)
    /events/plays/N   the same for /plays/N (and /events/seasons/NAME, /events/all)
    /page.css, /page.js

Anything else is 404 (a query string too), any method but GET and HEAD is 405. Every text a table
sent is HTML-escaped; the Content-Security-Policy allows nothing but this server's own script and
style. It listens on 127.0.0.1 unless told otherwise (``[league] http_host``).

Every sentence and label is a message (engine/messages.py) shown in the page's language (:class:`Page`'s
``lang``, which ``<html lang>`` says), game titles and counter names in the games' own words; the
paths, the event data's field names and what the tables sent (names, the journal's entries) are not
translated.

Each page's HTML is rendered once per version of the league (shared by every reader), and an
event stream sends at most one event per :data:`MIN_GAP` seconds, or per twice the last render's
time when that is longer (always the newest state), a comment
every :data:`KEEPALIVE` seconds, and serves at most :data:`MAX_STREAMS` readers at once.
"""
from __future__ import annotations

import html
import json
import logging
import re
import socket
import threading
import time
import urllib.parse
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ...engine import registry
from ...engine.messages import N_, Catalog, Msg, _, translated, word
from ..i18n import DEFAULT, LANGUAGES, humanise, load_catalog
from .league import League
from .standings import Season, current_season

log = logging.getLogger("tablekeeper.club.web")

MIN_GAP = 0.1
KEEPALIVE = 15.0
MAX_STREAMS = 64
#: Plays listed on the front page (newest first); every play has its own page.
RECENT_PLAYS = 50

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

CSS = """\
:root { color-scheme: light dark; --line: #8884; --dim: #888; --accent: #2a7; }
* { box-sizing: border-box; }
body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 0.5rem 0.75rem 2rem; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; }
h1 { font-size: 1.4rem; margin: 0.4rem 0; }
h2 { font-size: 1.15rem; margin: 1.2rem 0 0.4rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 0.8rem 0 0.3rem; }
.dim, .status { color: var(--dim); font-size: 0.9rem; }
.on { color: var(--accent); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 0.6rem; }
.card { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.5rem 0.7rem; }
.card h3 { margin: 0 0 0.2rem; }
.card ul { list-style: none; padding: 0; margin: 0.3rem 0 0; }
.card li { display: flex; justify-content: space-between; gap: 0.5rem; }
.card li span:first-child { white-space: nowrap; }
.card li span:last-child { text-align: right; }
.turn { font-weight: 600; }
.turn span:first-child::before { content: "\\25B6\\FE0E  "; color: var(--accent); }
.won { font-weight: 600; }
.won span:first-child::after { content: "  \\2605"; color: var(--accent); }
details { margin: 0.3rem 0; }
summary { cursor: pointer; font-weight: 600; padding: 0.2rem 0; }
.out { text-decoration: line-through; color: var(--dim); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25rem 0.3rem; border-bottom: 1px solid var(--line); text-align: right; }
th { font-size: 0.85rem; font-weight: 600; }
th:nth-child(2), td:nth-child(2) { text-align: left; }
.scroll { overflow-x: auto; }
ol.plays { padding-left: 1.5rem; }
.void, .void a { text-decoration: line-through; }
.organiser { border-left: 3px solid var(--accent); padding-left: 0.5rem; }
nav.seasons a, nav.seasons strong { margin-right: 0.8rem; white-space: nowrap; }
a { color: inherit; }
"""

JS = """\
"use strict";
(function () {
  var path = document.body.getAttribute("data-events");
  if (!path || !window.EventSource) { return; }
  var main = document.getElementById("main");
  var source = new EventSource(path);
  source.addEventListener("update", function (e) {
    var data = JSON.parse(e.data);
    if (String(data.version) !== main.getAttribute("data-version")) {
      main.innerHTML = data.main;
      main.setAttribute("data-version", String(data.version));
    }
    document.body.setAttribute("data-live", "yes");
  });
  source.onerror = function () { document.body.setAttribute("data-live", "no"); };
}());
"""

_PLAY = re.compile(r"/plays/([1-9][0-9]{0,17})")
_SEASON = re.compile(r"/seasons/([^/?#]{1,400})")
ALL_TIME = "/all"


def season_path(season: Season | None) -> str:
    """The page of a season (None: of every play, all time)."""
    return ALL_TIME if season is None else "/seasons/" + urllib.parse.quote(season.name, safe="")


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def text(value: Any, catalog: Catalog | None) -> str:
    """A message in ``catalog``'s language (None: English), HTML-escaped; anything else escaped as it is."""
    return esc(translated(value, catalog))


def game_title(game_id: str) -> Msg | str:
    """The game's title from the registry, in the game's own words (a game this league does not know: its id)."""
    title = registry.title(game_id)
    return word("game", title) if title else game_id


def counter_word(name: Any) -> Msg:
    """A counter's name as the game says it ("gold" → "oro"), as the app shows it ("drink_me" → "drink me")."""
    return word("counter", humanise(str(name)))


def main_counter(game_id: str) -> str | None:
    try:
        return registry.game_class(game_id).main_counter
    except Exception:  # a game this league does not know
        return None


def when(seconds: Any) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(seconds)))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def _name(player: Any) -> str:
    return str(player.get("name", "?")) if isinstance(player, dict) else str(player)


def result_text(play: dict[str, Any]) -> Msg:
    """How a play ended, as a message ("won by Ana")."""
    winners = ", ".join(_name(w) for w in play.get("winners") or [])
    if play.get("draw"):
        return _("draw: {names}", names=winners) if winners else _("a draw")
    if winners:
        return _("won by {names}", names=winners)
    return _("no winner")


def entry_text(entry: Any) -> str:
    """A journal entry in one line, as the table journalled it: the action, then its fields
    (``adjust player=Ana counter=score delta=3``; the journal's own words, in no language)."""
    if not isinstance(entry, dict):
        return str(entry)
    parts = [str(entry.get("action", "?"))]
    for key, value in entry.items():
        if key != "action":
            parts.append(f"{key}={json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value}")
    return " ".join(parts)


def _counters(counters: dict[str, Any], keys: list[str], catalog: Catalog | None) -> str:
    return " · ".join(f"{text(counter_word(k), catalog)} {esc(counters[k])}" for k in keys)


def _out_for(seconds: float, catalog: Catalog | None) -> str:
    """A time out of touch as a table's card says it: "2 min", "3 h 5 min", "2 days"."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return text(_("{n} min", n=minutes), catalog)
    if minutes < 48 * 60:
        return text(_("{h} h {m} min", h=minutes // 60, m=minutes % 60), catalog)
    return text(_("{n} days", n=minutes // (24 * 60)), catalog)


# -- rendering (each in ``catalog``'s language; None: English) --------------------------------------
def render_table_card(t: dict[str, Any], catalog: Catalog | None = None, *, heard: bool = True) -> str:
    """A table's card. ``heard``: the league is connected to the broker now; when it is not, what a
    table last said of itself may be stale (it may have gone meanwhile), and is said so, not in green."""
    live = t.get("live") or {}
    online = t.get("online")
    state = text(_("online"), catalog) if online else (text(_("offline"), catalog) if online is False else "")
    since = t.get("since")
    if online is False and isinstance(since, (int, float)) and heard:  # how long it has been out of touch
        state = text(_("offline for {duration}", duration=_out_for(time.time() - since, catalog)), catalog)
    if state and not heard:
        state = text(_("{state} when last heard", state=_("online") if online else _("offline")), catalog)
    head = f'<h3>{esc(t["name"])} <span class="{"on" if online and heard else "dim"}">{state}</span></h3>'
    if not isinstance(live, dict) or not live.get("game"):
        return f'<div class="card">{head}<p class="dim">{text(_("no game"), catalog)}</p></div>'
    try:
        game = str(live["game"])
        line = text(game_title(game), catalog)
        if isinstance(live.get("game_no"), int):
            number = text(_("game {number}", number=live["game_no"]), catalog)
            line += " · " + (f'<a href="/plays/{t["game_id"]}">{number}</a>' if t.get("game_id") else number)
        if live.get("over"):
            line += " · " + text(result_text(live), catalog)
        turn = live.get("turn")
        turn_name = turn.get("player") if isinstance(turn, dict) else turn  # the publisher sends the name
        main = live.get("main_counter") if isinstance(live.get("main_counter"), str) else main_counter(game)
        rows = []
        for p in live.get("players") or []:
            name = _name(p)
            found = p.get("counters") if isinstance(p, dict) else None
            counters: dict[str, Any] = found if isinstance(found, dict) else {}
            keys = list(counters)
            if main in counters:
                keys = [main] + [k for k in keys if k != main]
            shown = _counters(counters, keys[:4], catalog)
            cls = " ".join(c for c in ("turn" if name == turn_name else "",
                                       "out" if isinstance(p, dict) and p.get("out") else "") if c)
            rows.append(f'<li class="{cls}"><span>{esc(name)}</span><span>{shown}</span></li>')
        table = live.get("table_counters")
        extra = ""
        if isinstance(table, dict) and table:
            extra = f'<p class="dim">{_counters(table, list(table)[:4], catalog)}</p>'
        return f'<div class="card">{head}<p>{line}</p><ul>{"".join(rows)}</ul>{extra}</div>'
    except Exception as e:  # a live state of another shape: show the table, say so, never fail the page
        log.debug("cannot show %s's live state: %s", t["name"], e)
        return f'<div class="card">{head}<p class="dim">{text(_("live state not readable"), catalog)}</p></div>'


#: The standings' columns after "#": (heading, its longer name in a tooltip or None).
STANDINGS_COLUMNS = ((word("league", "player"), None), (word("league", "plays"), None),
                     (word("league", "wins"), None), (word("league", "draws"), None),
                     (word("league", "pts"), word("league", "points")),
                     (word("league", "rating"), word("league", "Elo rating")))


def _standings_table(rows: list[dict[str, Any]], catalog: Catalog | None) -> str:
    body = "".join(
        f"<tr><td>{'–' if r.get('rank', i) is None else r.get('rank', i)}</td><td>{esc(r['player'])}</td>"
        f"<td>{r['plays']}</td><td>{r['wins']}</td><td>{r['draws']}</td><td>{r['points']}</td>"
        f"<td>{r['rating']:.0f}</td></tr>"
        for i, r in enumerate(rows, 1))
    heads = "".join(f'<th title="{text(longer, catalog)}">{text(label, catalog)}</th>' if longer
                    else f"<th>{text(label, catalog)}</th>" for label, longer in STANDINGS_COLUMNS)
    return (f'<div class="scroll"><table><thead><tr><th>#</th>{heads}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def render_standings(rows: list[dict[str, Any]], catalog: Catalog | None = None, min_plays: int = 0) -> str:
    """The ranked players' table, then those with fewer than ``min_plays`` plays apart, unranked."""
    if not rows:
        return f'<p class="dim">{text(_("no plays yet"), catalog)}</p>'
    ranked = [r for r in rows if r.get("rank", 1) is not None]
    unranked = [r for r in rows if r.get("rank", 1) is None]
    parts = [_standings_table(ranked, catalog)] if ranked else []
    if unranked:
        apart = N_("not ranked yet: fewer than {n} play", "not ranked yet: fewer than {n} plays", min_plays)
        parts.append(f'<p class="dim unranked">{text(apart, catalog)}</p>' + _standings_table(unranked, catalog))
    return "".join(parts)


def render_seasons(seasons: Sequence[Season], shown: Season | None, catalog: Catalog | None = None) -> str:
    """Links to every season's standings and to all time's (the one shown is not a link)."""
    if not seasons:
        return ""
    links = []
    for season, label in [(s, esc(s.name)) for s in reversed(seasons)] + [(None, text(_("all time"), catalog))]:
        links.append(f"<strong>{label}</strong>" if season == shown
                     else f'<a href="{esc(season_path(season))}">{label}</a>')
    return f'<nav class="seasons">{"".join(links)}</nav>'


def render_front(league: League, catalog: Catalog | None = None, *, season: Season | None = None,
                 seasons: Sequence[Season] = (), min_plays: int = 0) -> str:
    """The front page: the tables, the standings of ``season`` (None: all time) with links to the other
    ``seasons``, and the plays of that season."""
    tables = league.tables()
    count, plays = league.recent_plays(RECENT_PLAYS, season)
    st = league.standings(season)
    cards = "".join(render_table_card(t, catalog, heard=league.connected) for t in tables) \
        or f'<p class="dim">{text(_("no table has spoken yet"), catalog)}</p>'
    heading = text(_("Standings"), catalog)
    if seasons:
        heading = text(_("Standings · {season}", season=season.name) if season is not None
                       else _("Standings · all time"), catalog)
    parts = [f'<section id="tables"><h2>{text(_("Tables"), catalog)}</h2><div class="cards">{cards}</div></section>',
             f'<section id="standings"><h2>{heading}</h2>', render_seasons(seasons, season, catalog)]
    if season is not None:
        span = _("{start} to {end}", start=season.start.isoformat(), end=season.end.isoformat())
        parts.append(f'<p class="dim">{text(span, catalog)}</p>')
    parts.append(render_standings(st["overall"], catalog, min_plays))
    if len(st["games"]) > 1:
        for game, rows in st["games"].items():
            players = text(N_("({n} player)", "({n} players)", len(rows)), catalog)
            parts.append(f'<details id="game-{esc(game)}"><summary>{text(game_title(game), catalog)} '
                         f'<span class="dim">{players}</span></summary>'
                         f"{render_standings(rows, catalog, min_plays)}</details>")
    parts.append("</section>")
    items = "".join(
        f'<li{_play_class(p)}><a href="/plays/{p["id"]}">'
        + text(_("{table} · {game} game {number}", table=str(p.get("table", "?")),
                 game=game_title(str(p.get("game"))), number=str(p.get("game_no"))), catalog)
        + f'</a> — {text(result_text(p), catalog)}{_play_note(p, catalog)} '
          f'<span class="dim">{esc(when(p.get("finished")))}</span></li>'
        for p in reversed(plays))
    parts.append(f'<section id="plays"><h2>{text(_("Plays ({count})", count=count), catalog)}</h2>'
                 + (f'<ol class="plays" reversed>{items}</ol>' if items
                    else f'<p class="dim">{text(_("none yet"), catalog)}</p>')
                 + "</section>")
    return "".join(parts)


def _play_class(play: dict[str, Any]) -> str:
    correction = play.get("correction")
    return ' class="void"' if correction and correction["void"] else ""


def _play_note(play: dict[str, Any], catalog: Catalog | None) -> str:
    """After a play's result in the list: whether the organiser voided it or fixed its result."""
    correction = play.get("correction")
    if not correction:
        return ""
    if not correction["void"] and correction["fix"] is None:
        return ""
    note = _("(void)") if correction["void"] else _("(fixed by the organiser)")
    return f' <span class="dim">{text(note, catalog)}</span>'


def correction_text(correction: dict[str, Any] | None, play: dict[str, Any]) -> tuple[list[Msg], list[Msg]]:
    """What the organiser did to a play, as sentences: how it counts now ("voided by the organiser: a
    practice game"; "result fixed by the organiser: won by Ben; ..."), and each row of the journal."""
    said: list[Msg] = []
    steps: list[Msg] = []
    if not correction:
        return said, steps
    if correction["void"]:
        reason = correction.get("reason")
        said.append(_("voided by the organiser: {reason}", reason=reason) if reason
                     else _("voided by the organiser: it does not count"))
    fix = correction.get("fix")
    if fix is not None:
        fixed = result_text({**play, "winners": fix.get("winners") or [], "draw": fix.get("draw")})
        said.append(_("result fixed by the organiser: {result}; the table sent: {sent}", result=fixed,
                      sent=result_text(play)))
    for row in correction["log"]:
        at, who, reason = when(row["at"]), str(row["who"]), row.get("reason")
        if row["what"] == "void":
            step = _("{at}, {who}: voided", at=at, who=who)
        elif row["what"] == "unvoid":
            step = _("{at}, {who}: counted again", at=at, who=who)
        else:
            step = _("{at}, {who}: result fixed: {result}", at=at, who=who,
                     result=result_text({"winners": row.get("winners") or [], "draw": row.get("draw")}))
        steps.append(_("{step} ({reason})", step=step, reason=reason) if reason else step)
    return said, steps


def render_final(play: dict[str, Any], catalog: Catalog | None = None) -> str:
    """The players of a finished play in seat order, each with their final counters (winners bold)."""
    main = main_counter(str(play.get("game")))
    winners = {_name(w) for w in play.get("winners") or []}
    rows = []
    for p in play.get("players") or []:
        name = _name(p)
        found = p.get("counters") if isinstance(p, dict) else None
        counters: dict[str, Any] = found if isinstance(found, dict) else {}
        keys = [main] + [k for k in counters if k != main] if main in counters else list(counters)
        shown = _counters(counters, keys[:6], catalog)
        cls = ' class="won"' if name in winners else ""
        rows.append(f"<li{cls}><span>{esc(name)}</span><span>{shown}</span></li>")
    return f'<div class="card"><ul>{"".join(rows)}</ul></div>' if rows else ""


def render_game(league: League, game_id: int, catalog: Catalog | None = None) -> str | None:
    g = league.game(game_id)
    if g is None:
        return None
    play = g["play"]
    head = text(_("{table} · {game} · game {number}", table=str(g["table"]), game=game_title(g["game"]),
                  number=str(g["game_no"])), catalog)
    if play:
        span = text(_("{start} to {end}", start=when(play.get("started")), end=when(play.get("finished"))), catalog)
        number = text(_("league play {id}", id=game_id), catalog)
        about = f'<p>{text(result_text(play), catalog)}</p><p class="dim">{span} · {number}</p>'
        now, steps = correction_text(g.get("correction"), play)
        if steps:
            lines = "".join(f"<p><strong>{text(line, catalog)}</strong></p>" for line in now)
            items = "".join(f"<li>{text(line, catalog)}</li>" for line in steps)
            about += f'<div class="organiser">{lines}<ul class="dim">{items}</ul></div>'
        fix = (g.get("correction") or {}).get("fix")
        counted = {**play, "winners": fix.get("winners") or [], "draw": fix.get("draw")} if fix else play
        about += render_final(counted, catalog)  # the winners as the organiser fixed them
    else:
        about = f'<p class="dim">{text(_("being played"), catalog)}</p>'
    rows = "".join(f"<tr><td>{a['seq']}</td><td>{esc(entry_text(a['entry']))}</td>"
                   f"<td>{esc(when(a['at']))}</td></tr>" for a in g["actions"])
    actions = (f'<div class="scroll"><table><thead><tr><th>#</th><th>{text(word("league", "action"), catalog)}</th>'
               f'<th>{text(word("league", "at"), catalog)}</th></tr></thead>'
               f"<tbody>{rows}</tbody></table></div>") if rows \
        else f'<p class="dim">{text(_("no actions received"), catalog)}</p>'
    return (f'<section id="game"><h2>{head}</h2>{about}<h3>{text(_("History"), catalog)}</h3>{actions}</section>'
            f'<p><a href="/">{text(_("← the league"), catalog)}</a></p>')


def document(main: str, version: int, events: str, title: str = "League", lang: str = DEFAULT) -> str:
    """The whole page around ``main``; ``title`` is already in the page's language ``lang`` (its code)."""
    return (f"<!doctype html><html lang=\"{esc(lang)}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><link rel=\"stylesheet\" href=\"/page.css\">"
            "<script src=\"/page.js\" defer></script></head>"
            f"<body data-events=\"{esc(events)}\"><header><h1>{esc(title)}</h1></header>"
            f"<main id=\"main\" data-version=\"{version}\">{main}</main></body></html>")


# -- the server ------------------------------------------------------------------------------------
class Page:
    """The page's HTTP server for one :class:`League`. ``port`` 0: any free port (see :attr:`url`).

    ``lang``: the page's language, a code of ``ui/i18n.py``'s LANGUAGES (None: English; ``club serve``
    gives ``[league] lang``, else the command's language). Only what people read is translated: the
    paths, the event streams' field names and what the tables sent stay as they are. ``name``: the
    league's name, the page's title; ``seasons``: the league's seasons (``/`` shows the current one).
    """

    def __init__(self, league: League, host: str = "127.0.0.1", port: int = 8080, lang: str | None = None, *,
                 name: str | None = None, seasons: Sequence[Season] = ()):
        lang = DEFAULT if lang is None else lang
        self.name = name  # the league's name: the page's title (None: "League" in the page's language)
        self.seasons = tuple(seasons)
        if lang not in LANGUAGES:
            raise ValueError(f"no such language {lang!r} (languages: {', '.join(LANGUAGES)})")
        self.lang = lang
        self.catalog: Catalog | None = None if lang == DEFAULT else load_catalog(lang)
        self.league = league
        self._cache: dict[str, tuple[int, Any, str | None]] = {}
        self._lock = threading.Lock()
        self._streams = threading.BoundedSemaphore(MAX_STREAMS)
        self._stopping = threading.Event()
        self.render_seconds = 0.0  # the last render's duration: events are spaced by at least twice it
        page = self

        class Handler(_Handler):
            owner = page

        server_class = _Server6 if ":" in host else ThreadingHTTPServer  # "::1", "::": IPv6
        self.server = server_class((host, port), Handler)
        self.server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        address = self.server.server_address
        host, port = str(address[0]), int(address[1])
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    def start(self) -> Page:
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="league-page", daemon=True)
        self._thread.start()
        return self

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self.server.shutdown()
            self._thread.join(5)
            self._thread = None
        self.server.server_close()

    def render(self, path: str) -> tuple[int, str | None]:
        """``(version, main HTML)`` of a page path (None: no such page), rendered once per version."""
        version = self.league.version
        today = current_season(self.seasons)  # the front page changes with the season
        with self._lock:
            cached = self._cache.get(path)
            if cached is not None and cached[0] == version and cached[1] == today:
                return version, cached[2]
            started = time.perf_counter()
            seasons, least = self.seasons, self.league.rules.min_plays
            m = _PLAY.fullmatch(path)
            main: str | None = None
            if path == "/":
                main = render_front(self.league, self.catalog, season=today, seasons=seasons, min_plays=least)
            elif path == ALL_TIME and seasons:
                main = render_front(self.league, self.catalog, season=None, seasons=seasons, min_plays=least)
            elif m:
                main = render_game(self.league, int(m.group(1)), self.catalog)
            elif (found := self.season_of(path)) is not None:
                main = render_front(self.league, self.catalog, season=found, seasons=seasons, min_plays=least)
            self.render_seconds = time.perf_counter() - started
            if main is not None:
                problem = self.league.problem
                status = (_("connected to the broker") if self.league.connected
                          else _("not connected: {problem}", problem=problem) if problem
                          else _("not connected to the broker"))
                main = f'<p class="status">{text(status, self.catalog)}</p>{main}'
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[path] = (version, today, main)
            return version, main

    def season_of(self, path: str) -> Season | None:
        """The season a ``/seasons/NAME`` path names, or None."""
        m = _SEASON.fullmatch(path)
        if m is None:
            return None
        name = urllib.parse.unquote(m.group(1), errors="replace")
        return next((s for s in self.seasons if s.name == name), None)

    @property
    def title(self) -> str:
        """The page's title: the league's name, else "League" in the page's language."""
        return self.name or self.said(_("League"))

    def said(self, message: Msg) -> str:
        """A message in the page's language (not escaped)."""
        return str(translated(message, self.catalog))


class _Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def page_path(path: str) -> str | None:
    """The page a path may name ("/", "/plays/N", "/all", "/seasons/NAME"), or None (rendering it says
    whether there is such a season)."""
    return path if path in ("/", ALL_TIME) or _PLAY.fullmatch(path) or _SEASON.fullmatch(path) else None


class _Handler(BaseHTTPRequestHandler):
    owner: Page
    timeout = 30  # seconds a reader may take to send its request or to take what is sent
    server_version = "tablekeeper-league"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        log.debug("%s %s", self.address_string(), format % args)

    def _send(self, status: int, body: bytes, ctype: str, *, cache: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "max-age=300" if cache else "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found(self) -> None:
        self._send(HTTPStatus.NOT_FOUND, (self.owner.said(_("not found")) + "\n").encode(), "text/plain; charset=utf-8")

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's names)
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        path = self.path
        if "?" in path or "#" in path:
            return self._not_found()
        if path == "/page.css":
            return self._send(HTTPStatus.OK, CSS.encode(), "text/css; charset=utf-8", cache=True)
        if path == "/page.js":
            return self._send(HTTPStatus.OK, JS.encode(), "text/javascript; charset=utf-8", cache=True)
        if path.startswith("/events/"):
            target = page_path(path.removeprefix("/events"))
            if target is None or self.owner.render(target)[1] is None:
                return self._not_found()
            return self._events(target)
        if page_path(path) is None:
            return self._not_found()
        version, main = self.owner.render(path)
        if main is None:
            return self._not_found()
        body = document(main, version, "/events" + path, self.owner.title, self.owner.lang)
        self._send(HTTPStatus.OK, body.encode("utf-8"), "text/html; charset=utf-8")

    def _refuse(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    def _events(self, target: str) -> None:
        owner = self.owner
        if not owner._streams.acquire(blocking=False):
            return self._send(HTTPStatus.SERVICE_UNAVAILABLE, (owner.said(_("too many readers")) + "\n").encode(),
                              "text/plain; charset=utf-8")
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Connection", "close")
            self.send_header("X-Accel-Buffering", "no")  # a reverse proxy passes each event on at once
            self.end_headers()
            self.close_connection = True
            if self.command == "HEAD":
                return
            self.wfile.write(b"retry: 2000\n\n")
            sent = -1
            last_sent = last_write = 0.0
            while not owner._stopping.is_set():
                version = owner.league.wait_change(sent, timeout=1.0)
                now = time.monotonic()
                if version == sent:
                    if now - last_write >= KEEPALIVE:
                        self.wfile.write(b": keepalive\n\n")
                        self.wfile.flush()
                        last_write = now
                    continue
                gap = max(MIN_GAP, 2 * owner.render_seconds)  # a busy league: fewer, newer pages
                if now - last_sent < gap:
                    time.sleep(gap - (now - last_sent))
                version, main = owner.render(target)
                data = json.dumps({"version": version, "main": main or ""}, ensure_ascii=False)
                self.wfile.write(f"event: update\ndata: {data}\n\n".encode())
                self.wfile.flush()
                sent, last_sent = version, time.monotonic()
                last_write = last_sent
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the reader went away
        finally:
            owner._streams.release()
