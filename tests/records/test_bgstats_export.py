"""`tablekeeper export --bgstats`: a page with a link per play in BG Stats' documented format for plays
pushed from another app (docs/records.md), each link's data checked field by field against the fields
BG Stats documents and against the plays as the records read them; hostile names escaped."""
from __future__ import annotations

import json
import time
import urllib.parse
from html.parser import HTMLParser

from tablekeeper.engine import Journal, Session
from tablekeeper.engine import records as rec
from tablekeeper.engine import roster as people
from tablekeeper.ui import playlog
from tablekeeper.ui.playlog.exports import BGSTATS_FIELDS, BGSTATS_URL

from ..ui.test_playlog import expected, state, template, tk  # noqa: F401  (fixtures)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs)["href"])

    def handle_data(self, data):
        self.text.append(data)


def _page(path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _data(link: str) -> dict:
    base, _sep, query = link.partition("?")
    assert base == BGSTATS_URL
    (data,) = urllib.parse.parse_qs(query, strict_parsing=True)["data"]
    return json.loads(data)


def test_each_play_is_a_link_in_bg_stats_fields_and_nothing_else(state, tmp_path):  # noqa: F811
    out = tmp_path / "plays.html"
    assert tk(state, "--lang", "en", "export", "--bgstats", str(out), "--location", "Casa de Ana") == 0
    page = _page(out)
    want = expected(state)
    assert len(page.links) == len(want) == 30
    ids = playlog.bgg_ids()
    for link, p in zip(page.links, want, strict=True):
        data = _data(link)
        assert set(data) <= set(BGSTATS_FIELDS["play"])  # no field BG Stats does not document
        assert set(data["game"]) <= set(BGSTATS_FIELDS["game"])
        assert all(set(x) <= set(BGSTATS_FIELDS["player"]) for x in data["players"])
        assert data["playDate"] == time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(p.started))
        assert data["durationMin"] == round(p.minutes) and data["location"] == "Casa de Ana"
        title = p.title or playlog.exports.available()[p.game].title
        assert data["game"]["name"] == title and data["game"]["sourceGameId"] == p.game
        assert data["game"].get("bggId") == ids.get(p.game)  # absent where none is known (Dragon Run)
        assert [(x["name"], x["sourcePlayerId"], x["startPlayer"], x["winner"], x.get("score"), x["role"])
                for x in data["players"]] == [(s.name, s.name, s.seat == 1, s.win, s.figure, s.character or "")
                                              for s in p.seats]
    assert "Ana María" in {x["name"] for link in page.links for x in _data(link)["players"]}  # the person's name


def test_hostile_names_are_escaped_and_a_counters_game_goes_as_the_game_it_stands_for(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    folder = tmp_path / "state"
    odd = "<b>A</b>&\"B'"  # 12 characters: a pod's screen holds no more
    with Journal(folder) as j:
        s = Session.new(j, "counters", [odd, "Ben"], {"counters": [{"name": "points", "target": 1}],
                                                     "title": "Catan", "bgg_id": 13})
        s.apply({"action": "adjust", "player": odd, "counter": "points", "delta": 1})
        (play,) = rec.with_people(rec.stored_plays(j), people.load(j)[0].person_of)
    out = tmp_path / "plays.html"
    assert tk(folder, "--lang", "es", "export", "--bgstats", str(out)) == 0
    text = out.read_text(encoding="utf-8")
    assert "<b>A</b>" not in text and "&lt;b&gt;A&lt;/b&gt;&amp;&quot;B&#x27;" in text
    assert '<html lang="es">' in text and "añadir a BG Stats" in text  # the page's words in Spanish
    page = _page(out)
    (data,) = [_data(link) for link in page.links]
    assert data["game"] == {"name": "Catan", "bggId": 13, "sourceGameId": "Catan", "noPoints": False}
    assert [(x["name"], x["winner"], x["score"]) for x in data["players"]] == [(odd, True, 1), ("Ben", False, 0)]
    assert play.winners == [odd]
