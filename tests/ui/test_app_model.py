"""The app's parts that need no window: the journal worker, action forms, languages, settings.

Fast, in-process; the Kivy app itself is tested in test_app.py.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tablekeeper.engine import available
from tablekeeper.engine.journal import Journal as JournalClass
from tablekeeper.ui import i18n
from tablekeeper.ui.app import no_display_reason, parse_size
from tablekeeper.ui.controller import Keeper, main_counter, series
from tablekeeper.ui.forms import action_fields, first_line, game_actions
from tablekeeper.ui.settings import Settings

UI = Path(i18n.__file__).resolve().parent
PO = UI / "locale" / "es" / "LC_MESSAGES" / "tablekeeper.po"


@pytest.fixture
def keeper(tmp_path):
    k = Keeper(tmp_path / "state").start(resume=False)
    assert k.wait_idle()
    yield k
    k.stop()


def _new(keeper, game="counters", players=("Ana", "Ben"), options=None):
    keeper.new_game(game, list(players), options or {})
    assert keeper.wait_idle()
    return keeper.snapshot.table


# -- the journal worker ---------------------------------------------------------------------------
def test_a_slow_commit_never_blocks_the_caller_and_runs_on_the_worker(keeper, monkeypatch):
    """Never blocks: journal commits stay off the UI thread — submit() returns while the commit is
    still held up (an SD card's slow fsync, here held until the test lets it go), and the commit
    runs on the worker."""
    _new(keeper)
    seen = {}
    real = JournalClass.append
    let_go = threading.Event()

    def slow_append(self, *a, **kw):
        seen["thread"] = threading.current_thread()
        seen["shown_before_commit"] = keeper.snapshot.table.state["players"][0]["counters"]["score"]
        let_go.wait(10)
        seen["committed_after_submit_returned"] = let_go.is_set()
        return real(self, *a, **kw)

    monkeypatch.setattr(JournalClass, "append", slow_append)
    keeper.submit({"action": "adjust", "player": "Ana", "counter": "score", "delta": 2})
    let_go.set()  # reached only because submit returned with the commit still waiting
    assert keeper.wait_idle()
    assert seen["committed_after_submit_returned"]
    assert seen["thread"] is not threading.current_thread()
    assert seen["thread"].name == "tablekeeper-journal"
    # Nothing is shown as done before its commit returned (DESIGN.md, "Acknowledged").
    assert seen["shown_before_commit"] == 0
    assert keeper.snapshot.table.state["players"][0]["counters"]["score"] == 2


def test_a_burst_of_actions_is_published_once_per_idle_moment(keeper):
    """Updates are coalesced — 40 queued adjustments do not produce 40 snapshots, and the
    last snapshot has all of them."""
    _new(keeper)
    published = []
    gate = threading.Event()
    keeper.call(lambda k: gate.wait(5))  # hold the worker while the burst queues up
    keeper.listeners.append(published.append)
    for _ in range(40):
        keeper.submit({"action": "adjust", "player": "Ben", "counter": "score", "delta": 1})
    gate.set()
    assert keeper.wait_idle()
    assert len(published) <= 3, len(published)
    assert published[-1].table.state["players"][1]["counters"]["score"] == 40


def test_a_quiet_job_after_an_action_does_not_swallow_the_actions_snapshot(keeper):
    """A job that changes nothing shown (a screen reading the roster, the pods' care) queued right
    behind an action: the action's snapshot is still published once the queue is empty (a new game
    started just before the new-game screen reads the roster again must reach the table)."""
    _new(keeper)
    published = []
    gate = threading.Event()
    keeper.call(lambda k: gate.wait(5))  # hold the worker while the two queue up
    keeper.listeners.append(published.append)
    keeper.submit({"action": "adjust", "player": "Ben", "counter": "score", "delta": 3})
    keeper.call(lambda k: None, quiet=True)
    gate.set()
    assert keeper.wait_idle()
    assert published and published[-1].table.state["players"][1]["counters"]["score"] == 3


def test_a_refused_action_says_why_and_changes_nothing(keeper):
    """RuleError messages are shown to the player: the engine's reason arrives as a notice, and the
    done-callback gets the error; the state is unchanged."""
    table = _new(keeper)
    results = []
    keeper.notices()
    keeper.submit({"action": "next", "player": "Zoe"}, results.append)
    assert keeper.wait_idle()
    notices = keeper.notices()
    assert [n.kind for n in notices] == ["refused"]
    assert "next: unexpected field 'player'" in notices[0].text
    assert isinstance(results[0], Exception)
    assert keeper.snapshot.table.state == table.state


def test_history_reads_the_same_live_and_after_a_restart(tmp_path):
    """History: every action in words; an undo names what it undid — the same words after
    the journal is reopened as when it happened."""
    with Keeper(tmp_path) as k:
        k.wait_idle()
        _new(k)
        for a in ({"action": "adjust", "player": "Ana", "counter": "score", "delta": 3},
                  {"action": "next"}, {"action": "undo"}, {"action": "redo"}, {"action": "undo"}):
            k.submit(a)
        assert k.wait_idle()
        live = [(h.kind, h.text) for h in k.snapshot.table.history]
    assert live == [("action", "Ana: score +3"), ("action", "Ana: next"), ("undo", "undone: Ana: next"),
                    ("redo", "redone: Ana: next"), ("undo", "undone: Ana: next")]
    with Keeper(tmp_path) as k2:  # resumes the unfinished game
        assert k2.wait_idle()
        assert [(h.kind, h.text) for h in k2.snapshot.table.history] == live
        assert k2.snapshot.table.can_redo and k2.snapshot.table.can_undo


def test_the_chart_series_replays_the_done_actions(keeper):
    """End of game: the chart's points are each player's counter after every action."""
    _new(keeper, options={"counters": [{"name": "life", "start": 5, "out_at": 0}]})
    for d in (-2, -3):
        keeper.submit({"action": "adjust", "player": "Ben", "counter": "life", "delta": d})
    assert keeper.wait_idle()
    table = keeper.snapshot.table
    assert table.over and table.state["winners"] == ["Ana"]
    data = series(table.rules, table.rules.setup_state(), table.done, ["life"])
    assert data == {"Ana": {"life": [5, 5, 5]}, "Ben": {"life": [5, 3, 0]}}
    assert main_counter(table.rules) == "life"


@pytest.mark.parametrize("game,counter", [("red-dragon-inn", "gold"), ("bloody-inn", "cash"),
                                          ("dragon-run", "treasure"), ("dale-of-merchants", "stall")])
def test_the_chart_follows_each_games_main_counter(game, counter):
    """A chart of each player's main counter over the game: gold, cash, treasure or stall."""
    cls = available()[game]
    assert main_counter(cls(["Ana", "Ben"])) == counter


# -- action forms ----------------------------------------------------------------------------------
def test_the_generic_form_asks_for_the_declared_fields():
    """The generic action form asks for the fields each action declares, with their kinds,
    defaults, choices and bounds."""
    cls = available()["counters"]
    names = [(f.name, f.kind, f.required) for f in action_fields(cls, "adjust")]
    assert names == [("player", "player", False), ("counter", "str", True), ("delta", "int", True)]
    assert action_fields(cls, "transfer")[-1].lo == 1
    assert game_actions(cls) == ["next"]
    assert first_line("End the turn: the next player plays. Refused when over.") == \
        "End the turn: the next player plays."
    fields = {f.name: f for f in action_fields(available()["dale-of-merchants"], "move")}
    assert fields["from"].choices and "hand" in fields["from"].choices


# -- languages ----------------------------------------------------------------------------------------
def test_the_catalog_is_compiled_by_babel_with_contexts_and_plurals():
    """Every .po of a language merged and compiled in memory: contexts and plurals included."""
    t = i18n.load_catalog("es")
    assert t.gettext("New game") == "Nueva partida"
    assert t.pgettext("counter", "gold") == "oro"
    assert t.ngettext("({n} chaser, one drink)", "({n} chasers, one drink)", 2) == "({n} chupitos, una sola bebida)"
    assert t.gettext("nothing to undo") == "nada que deshacer"  # the engine's own catalog
    assert t.gettext("not in the catalog") == "not in the catalog"


def _po_entries(path) -> set[str]:
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        catalog = read_po(f)
    out = set()
    for m in catalog:
        if m.id and m.string and (not isinstance(m.string, tuple) or all(m.string)):
            for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
                out.add(f"{m.context}\x04{msgid}" if m.context else msgid)
    return out


#: The game catalogs: each game's and the engine's (the words the games share, the generic counters').
GAME_POS = sorted((UI.parent / "engine").rglob("locale/es/*.po"))
#: The contexts of a game's words on the app's screens (ui/i18n.py ``word``, ``counter_label``, ...).
GAME_CONTEXTS = ("game", "counter", "action", "option", "word")


def test_every_string_on_screen_has_a_spanish_translation():
    """Settings: every string on screen is translated — every marked string of the app in the app's
    catalog, and every counter, action, option and choice of the available games in the games'."""
    entries = _po_entries(PO)
    wanted = i18n.extract()
    missing = sorted(m for c, m in wanted if (f"{c}\x04{m}" if c else m) not in entries)
    assert missing == []
    games = set().union(*(_po_entries(po) for po in GAME_POS))
    words = i18n.game_words(available().values())
    missing = sorted(f"{c}: {m}" for c, m in words if f"{c}\x04{m}" not in games)
    assert missing == [], "add these words to the game's catalog (engine/games/<game>/locale/es/)"
    from tablekeeper.engine.registry import KNOWN

    assert all(f"game\x04{title}" in games for _m, title in KNOWN.values())


def test_the_apps_catalog_holds_the_apps_own_words_and_no_games():
    """A game's words (its title, counters, actions, options, choices) are in its own catalog, where the
    pods find them too; the app's catalog keeps one, Dragon Run's "again", whose Spanish there differs
    ("otro turno") while the app's ("otra vez") is what is said today."""
    from babel.messages.pofile import read_po

    with open(PO, "rb") as f:
        app = read_po(f)
    assert [(m.context, m.id) for m in app if m.context in GAME_CONTEXTS] == [("action", "again")]
    t = i18n.load_catalog("es")
    assert t.pgettext("action", "again") == "otra vez"
    assert (t.pgettext("game", "The Red Dragon Inn"), t.pgettext("word", "macaws")) == \
        ("La Posada del Dragón Rojo", "guacamayos")


def test_engine_messages_and_game_words_in_spanish(tmp_path):
    """What the engine says renders with the catalog; nothing is parsed back from English."""
    from tablekeeper.engine import Journal, RuleError, Session
    from tablekeeper.engine.messages import _ as msg

    with Journal(tmp_path) as j:
        s = Session.new(j, "red-dragon-inn", ["Ana", "Ben"])
        status = s.rules.seat_view(s.state, "Ana")["status"]
        try:
            s.apply({"action": "undo"})
        except RuleError as e:
            refused = e
    try:
        i18n.set_language("es")
        assert i18n.engine_text(refused) == "nada que deshacer"
        assert i18n.engine_text(msg("{who} is out: {why}", who="Ben", why=msg("last one standing"))) == \
            "Ben queda fuera: el último en pie"
        assert i18n.engine_text("a plain string stays as it is") == "a plain string stays as it is"
        assert i18n.word(status) != str(status) and i18n.word(status).startswith("tu turno")
        assert i18n.counter_label("drink_me") == "bébeme"
    finally:
        i18n.set_language("en")
    assert i18n.word(status) == str(status)


@pytest.mark.parametrize("env,lang", [({"LANG": "es_ES.UTF-8"}, "es"), ({"LANG": "en_US.UTF-8"}, "en"),
                                      ({"LANGUAGE": "es:en", "LANG": "C"}, "es"), ({"LANG": "fr_FR.UTF-8"}, "en"),
                                      ({"LC_ALL": "es_MX.UTF-8", "LANG": "en_US"}, "es")])
def test_the_default_language_follows_the_system_locale(monkeypatch, env, lang):
    for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(i18n.locale, "getlocale", lambda: (None, None))
    assert i18n.system_language() == lang


def test_spanish_works_where_nothing_can_be_written(tmp_path, monkeypatch):
    """A hardened service has no writable cache folder: catalogs are compiled in memory, never on disk."""
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    try:
        i18n.set_language("es")
        assert i18n._("New game") == "Nueva partida"
    finally:
        i18n.set_language("en")
    assert not list(i18n.LOCALE_DIR.rglob("*.mo")) and not list(tmp_path.rglob("*.mo"))


# -- settings, display, size ------------------------------------------------------------------------
def test_settings_survive_a_restart_and_a_damaged_file(tmp_path):
    s = Settings(tmp_path)
    assert s.language is None and s.brightness == 8
    s.language, s.brightness = "es", 12
    s.set_seats(3, {"Ana": 2, "Ben": 1})
    s.save()
    again = Settings(tmp_path)
    assert again.language == "es" and again.brightness == 10  # clamped to the 1–10 levels
    assert again.seats(3, ["Ana", "Ben"]) == {"Ana": 2, "Ben": 1}
    assert again.seats(4, ["Ana", "Ben"]) == {"Ana": 1, "Ben": 2}  # by seat order when unset
    (tmp_path / "app-settings.json").write_text("{not json", encoding="utf-8")
    broken = Settings(tmp_path)
    assert broken.problem and "defaults are used" in broken.problem and broken.brightness == 8


def test_no_display_is_detected_from_the_environment_without_kivy():
    """`make run` on a machine with no display: detected before Kivy is imported."""
    assert no_display_reason({}, "linux") is not None
    assert no_display_reason({"DISPLAY": ":0"}, "linux") is None
    assert no_display_reason({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert no_display_reason({"SDL_VIDEODRIVER": "kmsdrm"}, "linux") is None
    assert no_display_reason({}, "darwin") is None
    assert parse_size("1024x600") == (1024, 600) and parse_size(None) == (800, 480)
    with pytest.raises(SystemExit):
        parse_size("big")


def test_importing_the_app_module_does_not_import_kivy():
    """ui/cli.py imports ui/app.py to build its parser: that must not start Kivy."""
    import subprocess
    import sys

    code = "import sys, tablekeeper.ui.app, tablekeeper.ui.cli; print('kivy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


# -- the real pods' hub on the journal worker -----------------------------------------------------
def test_pod_buttons_act_through_the_worker_and_reach_the_history(tmp_path):
    """Never blocks: the pods' hardware I/O and their actions run on the journal worker,
    not the UI thread; a press on a (mock) pod's button is journalled and shows in the history,
    and the settings list each seat's status."""
    pytest.importorskip("tablekeeper.ui.pod.seats")

    from tablekeeper.hardware.config import mock_config
    from tablekeeper.ui.podlink import PodLink

    with Keeper(tmp_path, pods=True) as k:
        k.wait_idle()
        _new(k, options={"counters": [{"name": "gold", "start": 3}]})
        link = PodLink(k, mock_config(2), brightness=5)
        assert k.wait_idle()
        pod = link.rig.pods[1]
        threads = []
        real_show = link.show
        link.show = lambda *a, **kw: (threads.append(threading.current_thread().name), real_show(*a, **kw))[1]
        timing = link.rig.config.timing
        pin = pod.pin("up")
        pin.drive_low()
        time.sleep(0.08)
        pin.drive_high()
        deadline = time.monotonic() + 5
        while k.snapshot.table.state["players"][0]["counters"]["gold"] != 4 and time.monotonic() < deadline:
            time.sleep(max(0.02, timing.debounce))
            k.wait_idle()
        assert k.snapshot.table.state["players"][0]["counters"]["gold"] == 4
        assert k.snapshot.table.history[-1].text == "Ana: gold +1"
        assert threads and set(threads) == {"tablekeeper-journal"}
        # the pod shows the very view the owner published: one view per seat, computed once
        view = k.snapshot.table.pods[1]
        assert view.focus_value == 4
        assert pod.face.view is view
        assert [s[2] for s in link.status()] == ["mock", "mock"]
        link.close()
        assert k.wait_idle()


def test_a_click_publishes_once_the_half_that_changes_nothing_publishes_nothing(tmp_path):
    """A click is two events: on the home screen ▲ steps the counter when pressed, and its release asks
    nothing and shows nothing new — one snapshot per click, not two. Select is the other way round (a
    click is its release), and a release that ends a stuck button's hold is published (its notice goes)."""
    from tablekeeper.hardware.pod import MAIN, PRESS, RELEASE, SELECT, UP, InputEvent

    with Keeper(tmp_path, pods=True) as k:
        k.wait_idle()
        _new(k, options={"counters": [{"name": "gold", "start": 3}, {"name": "wood", "start": 0}]})
        published = []
        k.listeners.append(published.append)
        k.press(InputEvent(1, SELECT, PRESS, 1.0))
        k.press(InputEvent(1, SELECT, RELEASE, 1.1))
        assert k.wait_idle() and published  # the click chose the counter: the frame shows it
        shown, before = len(published), published[-1].table.pods[1]
        k.press(InputEvent(1, UP, PRESS, 2.0))
        assert k.wait_idle() and len(published) == shown + 1
        assert published[-1].table.pods[1].focus_value == before.focus_value + 1
        k.press(InputEvent(1, UP, RELEASE, 2.1))
        k.press(InputEvent(1, MAIN, RELEASE, 2.2))  # a release with no press before it
        k.press(InputEvent(1, SELECT, PRESS, 3.0))  # select does its part when released
        assert k.wait_idle() and len(published) == shown + 1
        k.press(InputEvent(1, SELECT, RELEASE, 3.1))  # to the next counter
        assert k.wait_idle() and len(published) == shown + 2
        assert published[-1].table.pods[1].focus_name != before.focus_name


def test_seats_at_the_ends_of_the_table_go_clockwise_from_the_first():
    """Seat-facing with seats at the ends: clockwise from the first player (the near side's left),
    the left end, the far side (left to right on the screen), the right end, the near side back."""
    from tablekeeper.ui.seating import facing_sides

    six = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]
    assert facing_sides(six, ends=True) == (["Ana", "Fay"], ["Cai", "Dee"], ["Ben"], ["Eli"])
    assert facing_sides(six[:5], ends=True) == (["Ana", "Eli"], ["Cai"], ["Ben"], ["Dee"])
    assert facing_sides(six[:4], ends=True) == (["Ana"], ["Cai"], ["Ben"], ["Dee"])
    # without ends (or too few players for them) the long sides take everyone
    assert facing_sides(six) == (["Ana", "Fay", "Eli"], ["Ben", "Cai", "Dee"], [], [])
    assert facing_sides(six[:3], ends=True) == (["Ana", "Cai"], ["Ben"], [], [])
