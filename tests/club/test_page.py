"""The league's page: read-only over HTTP (only known paths, only GET, every name escaped), live by
server-sent events, and in a real headless Chromium: it loads, shows the standings, and updates
when a play finishes without a reload."""
from __future__ import annotations

import http.client
import json
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tablekeeper.ui.club import contract
from tablekeeper.ui.club.config import BrokerSettings
from tablekeeper.ui.club.league import League
from tablekeeper.ui.club.web import Page

from .conftest import listening_league, one_broker
from .fake_table import FakeTable, wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    yield from one_broker(tmp_path_factory.mktemp("broker"))


@pytest.fixture
def league(broker, tmp_path):
    lg = listening_league(tmp_path / "league.db", broker)
    yield lg
    lg.close()


@pytest.fixture
def page(league):
    p = Page(league, "127.0.0.1", 0).start()
    yield p
    p.stop()


@pytest.fixture
def table(broker):
    t = FakeTable(broker, "mesa-1")
    yield t
    t.close()


def get(url: str, method: str = "GET") -> tuple[int, dict, str]:
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def live(table: FakeTable, game_no: int, turn: str = "Ana", score: int = 3) -> None:
    """A live message in the publisher's shape (ui/club/publisher.py, ``live_payload``)."""
    table.send(contract.LIVE, at=1000.0 + game_no + score, journal="j-1", game_no=game_no, game="counters",
               title="Counters", players=[{"name": "Ana", "counters": {"score": score, "coins": 2}, "out": False},
                                          {"name": "Ben", "counters": {"score": 1, "coins": 0}, "out": True}],
               main_counter="coins", turn=turn, table_counters={"round": 4}, over=False, winners=[], draw=False,
               actions=7)


def test_the_front_page_shows_tables_standings_and_plays(page, league, table):
    table.send(contract.STATUS, online=True, at=1.0)
    live(table, 2, turn="Ben")
    table.play("j-1", 1, ["Ana", "Ben"], ["Ana"], finished=1700000000.0)
    wait_for(lambda: league.handled == 3, what="the three messages")
    status, headers, body = get(page.url)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<meta name="viewport"' in body and "default-src 'none'" in headers["Content-Security-Policy"]
    assert "mesa-1" in body and "online" in body and "Counters" in body
    assert '<li class="turn out"><span>Ben</span><span>coins 0 · score 1</span>' in body  # turn, main counter first
    assert "coins 2 · score 3" in body and "round 4" in body  # the counters, the table's
    assert "<td>Ana</td><td>1</td><td>1</td><td>0</td><td>3</td><td>1516</td>" in body  # the standings row
    assert "won by Ana" in body
    game_id = league.plays()[0]["id"]
    status, _, history = get(f"{page.url}plays/{game_id}")
    assert status == 200 and "won by Ana" in history and "History" in history
    assert '<li class="won"><span>Ana</span>' in history and "<li><span>Ben</span>" in history


def test_a_play_history_lists_its_actions(page, league, table):
    for seq in (1, 2):
        table.action("j-2", 4, seq)
    wait_for(lambda: league.handled == 2, what="the actions")
    gid = league.tables() and None or league._reader().execute("SELECT id FROM games").fetchone()[0]
    status, _, body = get(f"{page.url}plays/{gid}")
    assert status == 200 and "being played" in body
    assert "adjust counter=score delta=1 player=Ana" in body and "delta=2" in body


def test_only_known_paths_and_only_reading(page):
    for path in ("nope", "plays/", "plays/0", "plays/999", "plays/1x", "?x=1", "plays/1?x=1", "events/nope",
                 "events/plays/999", "page.css/..", "../etc/passwd", "%2e%2e/"):
        assert get(page.url + path)[0] == 404, path
    for method in ("POST", "PUT", "DELETE"):
        status, headers, _ = get(page.url, method)
        assert status == 405 and headers["Allow"] == "GET, HEAD"
    assert get(page.url, "HEAD")[0] == 200
    assert get(page.url + "page.js")[0] == 200 and get(page.url + "page.css")[0] == 200


def test_every_name_a_table_sends_is_escaped(page, league, table):
    evil = '<img src=x onerror="alert(1)">'
    table.play("j-3", 1, [evil, "Ben"], [evil], finished=1700000000.0)
    table.send(contract.LIVE, at=5.0, journal="<b>j</b>", game_no=1, game="<script>x</script>", turn="<i>Eve</i>",
               players=[{"name": "<i>Eve</i>", "counters": {"<u>c</u>": "<s>1</s>"}}], table_counters={"<u>t": 1})
    wait_for(lambda: league.handled == 2, what="both")
    body = get(page.url)[2]
    gid = league.plays()[0]["id"]
    history = get(f"{page.url}plays/{gid}")[2]
    for text in (body, history):
        assert "<img" not in text and "<i>" not in text and "<script>x" not in text and "<u>" not in text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in body and "&lt;i&gt;Eve&lt;/i&gt;" in body


def test_the_event_stream_sends_the_new_page_when_a_play_finishes(page, league, table):
    host, port = page.server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=5)
    conn.request("GET", "/events/")
    r = conn.getresponse()
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")

    def next_event() -> dict:
        data = None
        while True:
            line = r.fp.readline().decode()
            if line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "\n" and data is not None:
                return data

    first = next_event()
    assert "no plays yet" in first["main"]
    table.play("j-4", 1, ["Ana", "Ben"], ["Ben"], finished=1700000000.0)
    while True:  # the events that follow: the newest state, until the play is in it
        event = next_event()
        assert event["version"] > first["version"]
        if "won by Ben" in event["main"]:
            break
    conn.close()


def test_the_page_says_why_the_league_is_not_connected(tmp_path):
    nowhere = BrokerSettings("127.0.0.1", 9, "league", "x", client_id="league-page-nowhere")
    lg = League(tmp_path / "n.db", nowhere)  # not started: no connection tried, nothing to wait for
    lg._say_problem("cannot reach the broker at league@127.0.0.1:9; retrying")
    p = Page(lg, port=0).start()
    try:
        assert "not connected: cannot reach the broker at league@127.0.0.1:9" in get(p.url)[2]
    finally:
        p.stop()
        lg.close()


def test_the_page_listens_on_the_loopback_by_default(league):
    p = Page(league, port=0)
    try:
        assert p.server.server_address[0] == "127.0.0.1"
    finally:
        p.stop()


# -- real Chromium ---------------------------------------------------------------------------------
def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("chromium and chromium-driver are not installed: run tests/sysdeps.sh as root (make test does)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="tk-chromium-")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=412,915"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    return driver, profile


@pytest.mark.slow
def test_the_page_in_chromium_shows_the_standings_and_updates_when_a_play_finishes(page, league, table, broker):
    table.send(contract.STATUS, online=True, at=1.0)
    live(table, 2)
    table.play("j-5", 1, ["Ana", "Ben"], ["Ana"], finished=1700000000.0)
    wait_for(lambda: league.handled == 3, what="the first play")
    driver, profile = chromium()
    try:
        driver.set_page_load_timeout(15)

        def text_of(element_id: str) -> str:  # read in one script: the element may be replaced meanwhile
            return driver.execute_script(f"return document.getElementById('{element_id}').innerText;")

        driver.get(page.url)
        text = driver.find_element("id", "standings").text
        assert "Ana" in text and "Ben" in text
        first = [r.text for r in driver.find_elements("css selector", "#standings tbody tr")]
        assert first[0].startswith("1 Ana 1 1 0 3")
        wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-live") == "yes",
                 what="the event stream to open")
        driver.execute_script("window.stillTheSamePage = true;")
        other = FakeTable(broker, "mesa-2")
        try:
            other.play("j-6", 1, ["Ben", "Cai"], ["Ben"], finished=1700000100.0)
            other.play("j-6", 2, ["Ben", "Ana"], ["Ben"], finished=1700000200.0)
            wait_for(lambda: "won by Ben" in text_of("plays"), what="the page to update")
            wait_for(lambda: "\n1\tBen\t3\t2\t0\t6\t" in text_of("standings"), what="Ben on top of the standings")
            assert "mesa-2" in text_of("plays")
        finally:
            other.close()
        assert driver.execute_script("return window.stillTheSamePage === true;")  # updated in place
        driver.get(f"{page.url}plays/{league.plays()[0]['id']}")
        assert "won by Ana" in driver.find_element("id", "game").text
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)



def test_the_page_listens_on_an_ipv6_loopback_when_told(league):
    try:
        p = Page(league, "::1", 0).start()
    except OSError as e:  # a machine without IPv6
        pytest.skip(f"no IPv6 loopback here: {e}")
    try:
        assert p.url.startswith("http://[::1]:") and get(p.url)[0] == 200
    finally:
        p.stop()
