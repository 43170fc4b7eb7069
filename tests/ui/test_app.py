"""The touchscreen app, for real: Kivy rendering headless, driven by touches.

Each test runs the app in a child process (Kivy allows one window per
process) with ``SDL_VIDEODRIVER=offscreen`` (Mesa llvmpipe draws real
pixels). The child runs one scenario of this file (``python test_app.py
SCENARIO STATE_DIR SHOTS_DIR LANG``): it taps widgets through Kivy's own input
path (:class:`tablekeeper.ui.testing.Robot`), saves screenshots and prints a
``RESULT`` line. The parent then opens the journal the app wrote and checks
the engine state there — so every check also proves the action was
committed durably.

Screenshots go to a temporary folder; with ``TABLEKEEPER_SCREENSHOTS=DIR``
they go to DIR (``docs/screenshots`` is refreshed that way, see docs/app.md).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]

try:  # the child process runs this file as a script
    from tablekeeper.engine import Journal, Session, available
except ImportError:  # pragma: no cover
    raise


def _hardware_renderer_missing() -> str | None:
    try:
        import tablekeeper.hardware.render  # noqa: F401
        import tablekeeper.ui.pod.inputs  # noqa: F401
    except ModuleNotFoundError as e:
        return f"virtual pods need the pods renderer (hardware/render.py, ui/pod/inputs.py): {e.name} missing"
    return None


# ---------------------------------------------------------------------------------------------
# The parent side
# ---------------------------------------------------------------------------------------------
def child_env(tmp: Path, **extra) -> dict:
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(k, None)
    env.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp / "kivy"), "XDG_CACHE_HOME": str(tmp / "cache"),
                "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""})
    (tmp / "kivy").mkdir(exist_ok=True)
    env.update(extra)
    return env


def run_scenario(tmp_path: Path, scenario: str, *, lang: str = "en", state: Path | None = None, env=None,
                 timeout: float = 600) -> dict:
    # ``timeout`` only stops a scenario that hangs: far above any run, however loaded the machine (the
    # screen-fit scenario took 110 s alone and more than 300 s beside other jobs on both cores).
    state = state or tmp_path / "state"
    shots = Path(os.environ.get("TABLEKEEPER_SCREENSHOTS") or tmp_path / "shots")
    proc = subprocess.run([sys.executable, str(HERE), scenario, str(state), str(shots), lang],
                          capture_output=True, text=True, timeout=timeout, env=env or child_env(tmp_path))
    results = [line[len("RESULT "):] for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not results:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        pytest.fail(f"scenario {scenario} ({lang}) failed with status {proc.returncode}:\n{tail}")
    out = json.loads(results[-1])
    out["shots"] = str(shots)
    # Whatever screen or dialog the scenario's taps opened, in either language: no text drawn under its
    # minimum size (tablekeeper.ui.legibility; the robot looks after every tap)
    assert out["unreadable"] == [], f"scenario {scenario} ({lang}): " + "\n".join(out["unreadable"])
    # ... and no name meant for code ("(set_market)" in a preview, "slot=0"): words for players only
    assert out["raw"] == [], f"scenario {scenario} ({lang}): " + "\n".join(out["raw"])
    if not os.environ.get("TABLEKEEPER_SCREENSHOTS"):  # the docs' pictures this scenario took: still true
        stale = [why for name, shot in out["doc_shots"].items() for why in stale_picture(shot["path"], name, shot["masks"])]
        assert not stale, ("\n".join(stale) + "\nregenerate them: TABLEKEEPER_SCREENSHOTS=$PWD/docs/screenshots "
                           ".venv/bin/python -m pytest -q tests/ui/test_app.py")
    return out


DOCS_SHOTS = ROOT / "docs" / "screenshots"
#: How far a pixel may be from the docs' before it counts as changed (0-255, grey): font antialiasing
#: and blending may differ a little between Mesa builds; a changed text or colour is far more.
PIXEL_TOLERANCE = 48
#: How many changed pixels a screenshot may have (a digit that changed is about 100).
CHANGED_PIXELS = 40


def changed_pixels(new, old, masks=()) -> int:
    """How many pixels of the image ``new`` differ from ``old`` by more than :data:`PIXEL_TOLERANCE`,
    the ``masks`` boxes (left, top, right, bottom) left out; a different size: every pixel."""
    from PIL import Image, ImageChops

    with Image.open(new) as a, Image.open(old) as b:
        if a.size != b.size:
            return a.size[0] * a.size[1]
        diff = ImageChops.difference(a.convert("L"), b.convert("L"))
    for box in masks:
        diff.paste(0, tuple(box))
    return diff.point(lambda v: 255 if v > PIXEL_TOLERANCE else 0).histogram()[255]


def stale_picture(path: str, name: str, masks=()) -> list[str]:
    """Why the docs' picture ``name`` is not what the app draws now (``path``): [] when it is."""
    committed = DOCS_SHOTS / f"{name}.png"
    if not committed.exists():
        return [f"docs/screenshots/{name}.png is missing"]
    n = changed_pixels(path, committed, masks)
    return [f"docs/screenshots/{name}.png is out of date: {n} pixels changed"] if n > CHANGED_PIXELS else []


def stored(state: Path, game_id: int | None = None):
    """The game the app stored, reopened from its journal in this process."""
    with Journal(state) as journal:
        if game_id is None:
            game_id = journal.games()[-1].id
        session = Session.load(journal, game_id)
        return session.state, [h["entry"] for h in session.history()]


def dig(state, path):
    """``state`` at ``path``; a name in a list picks the item with that "name"."""
    for key in path:
        if isinstance(state, list) and isinstance(key, str):
            state = next(x for x in state if x.get("name") == key)
        else:
            state = state[key]
    return state


def all_games() -> list[str]:
    return sorted(available())


#: Every game (the parent's list; a child asks all_games() when its scenario needs them, so that what
#: its start imports is the app's doing: the registry imports a game when it is asked for).
GAMES = all_games() if __name__ != "__main__" else []


@pytest.mark.parametrize("game", GAMES)
def test_a_short_game_by_touches(tmp_path, game):
    """A short game of each game, set up and played by touches (new game
    wizard, counters ± on the table, the game's guided dialogs, undo and redo on screen), checked
    in the journal the app wrote."""
    out = run_scenario(tmp_path, f"play:{game}")
    state, entries = stored(tmp_path / "state")
    assert out["game"] == game
    # The table showed what the journal holds, counter by counter.
    shown = out["shown"]
    for p in state["players"]:
        for counter, value in p["counters"].items():
            if f"{p['name']}.{counter}" in shown:
                assert shown[f"{p['name']}.{counter}"] == value, (p["name"], counter)
    # The ± touch went in as an adjustment, then undo and redo as journal entries.
    names = [e["action"] for e in entries]
    assert "adjust" in names and "undo" in names and "redo" in names
    if game == "bloody-inn":  # the cards show what the rules check, worked out from the moves
        for p in state["players"]:
            assert shown[f"{p['name']}.hand"] == p["hand"] and shown[f"{p['name']}.corpses"] == len(p["corpses"])
    if game == "red-dragon-inn":  # a common drink tapped on the touchscreen is recorded by its name
        assert {"action": "drink", "player": "Ana", "drink": "elven_wine"} in entries
    for why, path, expected in out["checks"]:
        assert dig(state, path) == expected, f"{why}: {path} is {dig(state, path)!r}, expected {expected!r}"
    # Real screenshots: PNGs of the whole window, with something drawn in them.
    from PIL import Image

    if not os.environ.get("TABLEKEEPER_SCREENSHOTS"):  # refreshing the docs keeps only their shots
        assert out["written"]
    for path in out["written"]:
        with Image.open(path) as img:
            assert img.size == (800, 480)
            assert len(img.getcolors(100000) or range(100001)) > 20  # more than a blank screen


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_screen_fits_800x480(tmp_path, lang):
    """Nothing cut off at 800x480, touch targets at least 48 px, in both languages:
    every screen and dialog, for every game, at 800x480 (the tables at 2 and 4 players, facing their
    seats, and at 8; the end screen at 2 and 8); no label cut off, nothing off screen, nothing drawn
    over something else; on the table screen and in its dialogs no text drawn under 12 px, no number
    or player's name under 14 px, and buttons side by side at one text size."""
    out = run_scenario(tmp_path, f"fit:{lang}", lang=lang, timeout=1800)
    assert out["visited"] >= 8 + 3 * len(GAMES), out["visited"]
    assert out["problems"] == [], "\n".join(out["problems"])
    assert any("cut off" in p for p in out["selftest"]) and any("under 48 px" in p for p in out["selftest"])
    # text shrunk under the minimum is seen, as drawn: words under 12 px, numbers and names under 14
    assert any("FitLabel('discard pile') is drawn at" in p and "under 12 px" in p for p in out["selftest"]), \
        out["selftest"]
    assert any("FitLabel('1234567') is drawn at" in p and "under 14 px" in p for p in out["selftest"]), out["selftest"]
    assert any("buttons side by side at different sizes" in p for p in out["selftest"]), out["selftest"]
    assert out["smallest"]["text"][0] >= 12 and out["smallest"]["names and numbers"][0] >= 14, out["smallest"]
    assert any("FitLabel('under') overlaps FitLabel('over')" in p or "FitLabel('over') overlaps FitLabel('under')" in p
               for p in out["selftest"]), out["selftest"]


def test_a_docs_picture_counts_as_changed_when_a_screen_changed_not_for_antialiasing(tmp_path):
    """The check that keeps docs/screenshots true (every scenario compares the docs' pictures it takes):
    the same picture with its grey levels nudged (antialiasing of another Mesa) is not stale; one digit
    drawn differently, or the picture of another screen, is; a masked box (a path of this machine) is
    left out."""
    from PIL import Image, ImageDraw

    docs = DOCS_SHOTS / "end-screen.png"
    with Image.open(docs) as img:
        base = img.convert("RGB")
    nudged = base.point(lambda v: min(255, v + PIXEL_TOLERANCE // 2))
    nudged.save(tmp_path / "nudged.png")
    assert changed_pixels(tmp_path / "nudged.png", docs) == 0 and not stale_picture(tmp_path / "nudged.png", "end-screen")
    digit = base.copy()
    ImageDraw.Draw(digit).text((400, 240), "7", fill=(255, 255, 255), font_size=22)
    digit.save(tmp_path / "digit.png")
    assert stale_picture(tmp_path / "digit.png", "end-screen")
    assert not stale_picture(tmp_path / "digit.png", "end-screen", [[390, 230, 440, 280]])
    assert stale_picture(DOCS_SHOTS / "history-screen.png", "end-screen")
    assert stale_picture(tmp_path / "digit.png", "no-such-screen") == ["docs/screenshots/no-such-screen.png is missing"]


def test_spanish_by_default_from_the_system_locale(tmp_path):
    """Settings: "default from the system locale" — LANG=es_ES.UTF-8 shows Spanish."""
    out = run_scenario(tmp_path, "locale", lang="", env=child_env(tmp_path, LANG="es_ES.UTF-8"))
    assert out["new"] == "Nueva partida"
    out = run_scenario(tmp_path, "locale", lang="", env=child_env(tmp_path, LANG="en_GB.UTF-8"))
    assert out["new"] == "New game"


def test_resumes_the_unfinished_game_after_a_restart(tmp_path):
    """Home: "resume the unfinished game (automatic after a restart)" — a second start of
    the app opens straight on the table of the game the first one left, with its numbers."""
    first = run_scenario(tmp_path, "resume:1")
    second = run_scenario(tmp_path, "resume:2")
    assert second["screen"] == "table"
    assert second["shown"] == first["shown"]
    # what a restart on the table does not show is not loaded (each module stays in memory for the
    # session): the other screens' modules are imported when they are first shown, the charts' never;
    # nor asyncio (Kivy's clock imports it for App.async_run) and the OpenSSL it loads, nor, without a config
    # file, the club's modules
    assert second["modules"] == ["tablekeeper.ui.screens.base", "tablekeeper.ui.screens.table"]
    # nor the other games' rules and dialogs: the registry imports the game it is asked for
    assert second["games"] == ["counters"]
    # software GL (llvmpipe here) is flushed after each panel it draws: a frame's queue of draw calls,
    # which llvmpipe keeps in memory until a flush, holds one panel's, not the whole table's
    assert second["software_gl"] is True
    assert second["panels"] >= 4 and second["flushes"] == second["panels"], second
    # the cards are built once the screen is laid out, not also at Kivy's default size before (the start's
    # race between the worker's first snapshot and the first layout pass built the table twice at times)
    assert (second["cards_unsized"], second["cards_laid_out"]) == (0, second["players"]), second
    state, _ = stored(tmp_path / "state")
    assert state["players"][0]["counters"]["score"] == first["shown"]["Ana.score"] == 3


def test_a_game_started_elsewhere_opens_on_the_touchscreen(tmp_path):
    """`tablekeeper new` from another terminal (or the league's organiser at the table) while the app
    shows a game: the app takes the new one to its table, as `serve` and the terminal table do, and the
    game it showed stays in the journal as it was."""
    out = run_scenario(tmp_path, "elsewhere")
    assert out["players"] == ["Cai", "Dee", "Eva"] and out["screen"] == "table"
    assert out["shown"]["Cai.score"] == 0 and "Ana.score" not in out["shown"]
    with Journal(tmp_path / "state") as journal:
        first = [g for g in journal.games() if g.setup["players"] == ["Ana", "Ben"]]
    assert len(first) == 1 and first[0].finished is None
    assert stored(tmp_path / "state", first[0].id)[0]["players"][0]["counters"]["score"] == 1


def test_end_of_game_winners_table_and_chart(tmp_path):
    """End of game: winners, the final table and a chart of the main counter over the game
    (its points are the journal's values after every action); undo from there reopens the game;
    a rematch starts the same table again."""
    out = run_scenario(tmp_path, "end")
    assert out["winners_text"] == "Ben won"
    # How it ended is said under the winners (no message over the final table), the crown shown,
    # and the final table's rows sit together under them, not spread down the screen
    layout = out["layout"]
    # a changed value flashes and fades back; the others stay; the counter shows its icon (a heart)
    assert out["flash"] == {"lit": True, "after": True, "untouched": True, "icon": "\uf004"}
    assert "Ana is out" in layout["reason"] and layout["toast"] == 0 and layout["crown"] == 1
    ana, ben = layout["rows"]["Ana"], layout["rows"]["Ben"]
    assert ana[1] > ben[1] and ana[1] - ben[1] <= 44  # Ben's row right under Ana's (y grows upwards)
    assert ben[1] > 0 and ana[3] < layout["winners"][1]
    with Journal(tmp_path / "state") as journal:
        record = min(journal.games(), key=lambda g: g.id)  # the game played (the rematch came after it)
        session = Session.load(journal, record.id)
        rules = session.rules
        values = {p: [] for p in session.record.setup["players"]}
        state = rules.setup_state()
        for p in state["players"]:
            values[p["name"]].append(p["counters"]["life"])
        done = list(out["done"])
        for entry in done:
            state, _ = rules.apply(state, entry)
            for p in state["players"]:
                values[p["name"]].append(p["counters"]["life"])
    assert out["chart"] == values
    assert out["after_undo_screen"] == "table" and out["reopened"] is True
    # Rematch: the same table, options and all, starts at once on its table screen
    assert out["rematch"] == {"players": ["Ana", "Ben"], "over": False, "screen": "table",
                              "options": session.rules.options}


def test_statistics_screen_shows_wins_bars_and_a_head_to_head(tmp_path):
    """Home → Statistics after three finished games: a row per person with wins/plays and a win-rate
    bar in the person's roster colour, the length of each play as a chart, and two taps on players'
    rows give their head-to-head (engine/records.py computes; this checks what the screen shows)."""
    out = run_scenario(tmp_path, "stats", timeout=900)
    assert out["rows"] == ["Ana", "Ben", "Cai"]
    assert out["wins"]["Ben"] == "2/3" and out["wins"]["Ana"] == "1/3" and out["wins"]["Cai"].endswith("/1")
    assert abs(out["bars"]["Ben"][0] - 2 / 3) < 1e-9 and abs(out["bars"]["Ana"][0] - 1 / 3) < 1e-9
    assert out["bars"]["Ana"][1] == out["roster_colours"]["Ana"] != out["roster_colours"]["Ben"]
    assert out["summary"].startswith("3 plays") and len(out["chart"]["minutes"]) == 3
    assert out["vs"] == "Ana 1 – 2 Ben in 3 plays together"
    assert out["problems"] == []


def test_the_usb_stick_takes_a_backup_and_the_plays_and_a_restore_adds_no_play_twice(tmp_path):
    """Settings with a stick (TABLEKEEPER_STICK: a folder, as on a PC): "Back up everything" writes a
    backup into its tablekeeper/ folder, "Export plays" the CSV, JSON and BoardGameGeek files, and
    "Restore the latest backup" merges it back without doubling the one play; pulled out, the buttons
    go off."""
    stick = tmp_path / "stick"
    stick.mkdir()
    env = child_env(tmp_path, TABLEKEEPER_STICK=str(stick))
    proc = subprocess.run([sys.executable, str(HERE), "stick", str(tmp_path / "state"), str(tmp_path / "shots"),
                           "en"], capture_output=True, text=True, timeout=240, env=env)
    results = [line[len("RESULT "):] for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and results, (proc.stdout + proc.stderr)[-3000:]
    out = json.loads(results[-1])
    assert str(stick / "tablekeeper") in out["label"] and out["problems"] == [] and out["unreadable"] == []
    backup, export, restore = out["said"]
    assert "tablekeeper-backup-" in backup and "1 finished play," in backup
    assert export.startswith("1 play written to") and "everything backed up" in export
    assert "1 already here" in restore and "0 games brought in" in restore
    assert out["games"] == 1  # the restore added no game
    assert out["pulled"] == {"label": "No USB stick: plug one in to export or back up", "disabled": True}


def test_a_person_of_the_roster_is_one_tap_at_setup_with_their_colour_and_pod(tmp_path):
    """The roster (players as people): a name entered once, then chosen with one tap at setup; the
    person's colour and usual pod are taken (Ana usually sits at pod 2, Ben at pod 1)."""
    out = run_scenario(tmp_path, "roster")
    assert "new.recent.Ana" in out["recent"] and "new.recent.Ben" in out["recent"]
    assert out["pods"] == {"Ana": 2, "Ben": 1}
    assert out["colours"] == {"Ana": 5, "Ben": 6}


def test_cards_face_their_seats_and_turned_cards_take_touches(tmp_path):
    """Seat-facing layout (on by default for 2–6 players): players sit clockwise in pod order; the
    first at the near side's left end, then the far side left to right as the screen shows it (its
    cards turned 180°), then the near side from its right end. A tap on a turned card reaches the
    widget under the finger; the header faces the far side and the footer says whose turn to the near
    side. Settings → Layout → one side puts every card upright again."""
    out = run_scenario(tmp_path, "facing", timeout=900)
    four = out["four"]
    assert four["turned"] == {"Ana": 0, "Ben": 180, "Cai": 180, "Dee": 0}
    x = {n: four["names"][n][0] for n in four["names"]}
    y = {n: four["names"][n][1] for n in four["names"]}
    assert y["Ben"] > y["Ana"] and y["Cai"] > y["Dee"]  # far side above, near side below
    assert x["Ana"] < x["Dee"] and x["Ben"] < x["Cai"]  # clockwise: Ana, Ben, Cai, Dee
    assert four["ben_gold"] == 11  # the tile tapped on the turned card was Ben's gold
    # what a player opens from their own card faces them: Ben's dialog is turned toward the far side
    # (its title under its buttons on the screen), Ana's is upright, and a tap on the turned "+1" counts
    assert four["dialog_turned"] == 180 and four["dialog_title_below_body"]
    assert four["ana_dialog_turned"] == 0
    # the message about what a player did faces them too: Ben's at the top, turned; Ana's at the bottom
    assert four["toast_for_ben"][:2] == [1, 0] and "gold" in four["toast_for_ben"][2]
    assert four["toast_above_dialog"]  # the refusal is read over the dialog it came from, not under it
    assert four["toast_for_ana"] == [0, 1]
    # a change shows by how much until the next action: Ben's +1, then Ana's −5 (Ben's put away)
    assert four["ben_delta"] == "+1" and four["deltas_after"] == {"Ana": "−5", "Ben": ""}
    # whose turn is a shape (Ana's thick frame), never the amber of player 2's colour
    assert four["turn_frame"] == {"Ana": [4, False], "Ben": [2, False]}
    more = four["more"]  # the card shows two buttons; "more" reaches the rest
    assert more["n"] > 2 and more["button"] == f"more ({more['n'] - 1})"
    assert more["listed"] == more["labels"]  # every offer of the moment, in the game's order
    assert more["done"] == more["expected"] and more["closed"]
    assert four["banner"] == {"first": ["Ana", 0], "cai": ["Cai", 180], "resolved": []}
    assert four["status"] and four["badge"] == four["status"]
    assert four["raw"] == []  # no identifier on screen: "drink me", never "drink_me"
    three = out["three"]
    assert three["turned"] == {"Ana": 0, "Ben": 180, "Cai": 0}
    assert three["plus"][0] < three["minus"][0]  # turned: + on the screen's left
    assert three["ben_gold"] == 11
    assert three["header_turned"] == 180 and three["near_turn"].startswith("Ana's turn")
    six = out["six"]  # Settings → Layout → seats at the ends too: one player at each short end
    assert six["turned"] == {"Ana": 0, "Ben": 270, "Cai": 180, "Dee": 180, "Eli": 90, "Fay": 0}
    x = {n: six["names"][n][0] for n in six["names"]}
    y = {n: six["names"][n][1] for n in six["names"]}
    assert x["Ben"] < min(x["Ana"], x["Cai"], x["Fay"]) and x["Eli"] > max(x["Dee"], x["Fay"])  # the ends
    # clockwise: Ana at the near side's left, Ben at the left end, the far side left to right (Cai, Dee),
    # Eli at the right end, then the near side from its right end (Fay)
    assert y["Cai"] > y["Ana"] and y["Dee"] > y["Fay"] and x["Cai"] < x["Dee"] and x["Ana"] < x["Fay"]
    assert six["header_icons"] is True  # between the ends' columns the header's words give way to icons
    assert six["problems"] == []
    assert six["ben_gold"] == 11
    assert six["dialog_turned"] == 270 and six["dialog_problems"] == []  # the end seat's dialog faces it too
    assert out["one_side"] == {"turned": {"Ana": 0, "Ben": 0, "Cai": 0}}


def test_a_burial_on_the_touchscreen_taps_the_annex_by_its_owner_and_name(tmp_path):
    """«Enterrar un cadáver en un anexo»: the dialog lists every annex at the table with its owner; a tap
    chooses it, the preview follows, and the corpse is buried there (shared with its owner)."""
    out = run_scenario(tmp_path, "bury")
    assert out["labels"] == ["barn (Ana)", "barn (Ben)"]
    assert out["disabled_before"] is True  # nothing tapped: nothing to do yet
    assert out["ana"]["corpses"] == 0 and out["ben_barn"] == [1]
    _state, entries = stored(tmp_path / "state")
    assert {"action": "bury", "player": "Ana", "owner": "Ben", "annex": "barn"} in entries


def test_the_inns_rooms_and_each_players_annexes_are_on_the_table(tmp_path):
    """What the rules check besides the money is on screen: each room of the inn with whose key opens
    it, a guest in it and the police among the guests (after the welcome: every room taken, the police
    officer's room marked); each player's annexes on their card with their places, buried and free (a
    corpse in Ben's barn, his new gardens empty), as the game goes on; the rooms read from both long
    sides of the table."""
    out = run_scenario(tmp_path, "bury")
    welcomed = out["rooms_welcomed"]
    assert welcomed == {"1": ["room 1", "Ana", "guest"], "2": ["room 2", "Ben", "guest"],
                        "3": ["room 3", "", "police"], "4": ["room 4", "", "guest"], "5": ["room 5", "", "guest"]}
    assert out["lines_welcomed"] == {"Ana": "barn □□□", "Ben": "barn □□□"}
    # Ana killed room 1's guest, Ben bribed room 2's, a corpse under Ben's barn, Ben built the gardens
    assert out["rooms_built"] == {**welcomed, "1": ["room 1", "Ana", "empty"], "2": ["room 2", "Ben", "empty"]}
    assert out["lines_built"] == {"Ana": "barn □□□", "Ben": "barn ■□□   gardens □□"}
    assert out["looks_built"]["3"] != out["looks_built"]["4"] != out["looks_built"]["1"]  # police, guest, empty
    # Ben sits on the far side: the rooms are also at the left of the table, turned toward him, the same
    far = out["far"]
    assert far["rooms"] == out["rooms_built"] and far["looks"] == out["looks_built"]
    assert far["turned"] == 180 and far["near_turned"] == 0 and far["left_of_cards"]
    assert out["problems"] == []


def test_history_in_words_and_undo_redo_from_it(tmp_path):
    """History: every action in words (in the colour of the player it concerns), undo and redo from
    the screen."""
    out = run_scenario(tmp_path, "history")
    assert out["rows"][:3] == ["3.  undone: Ben: score +1", "2.  Ben: score +1", "1.  Ana: score +1"]
    assert out["colours"] == ["muted", 1, 0]  # each player's actions in their colour; the undo muted
    state, entries = stored(tmp_path / "state")
    assert [e["action"] for e in entries] == ["adjust", "adjust", "undo", "redo"]
    assert state["players"][0]["counters"]["score"] == 1


def test_seats_pods_and_who_starts_from_the_new_game_screen(tmp_path):
    """New game: "seat-to-pod assignment, who starts" — two pods swapped by two taps, Ben
    chosen to start: the stored game seats players in pod order from the starter, and each player's
    virtual pod is the one chosen. Each player has a colour (a tap changes it); the cards face their
    seats in pod order."""
    out = run_scenario(tmp_path, "seats")
    with Journal(tmp_path / "state") as journal:
        setup = journal.games()[-1].setup
    assert setup["players"] == ["Ben", "Ana", "Cai"]  # pods: Cai 1, Ben 2, Ana 3; Ben starts
    assert out["pods"] == ["Pod 1: Cai", "Pod 2: Ben", "Pod 3: Ana"]
    assert out["turn"] == "Ben"
    # colours in the order the players were entered (Ana 0, Ben 1, Cai 2), Ana's changed by a tap to
    # the next nobody has
    assert out["stripes"] == {"Ana": 3, "Ben": 1, "Cai": 2}
    assert out["near_left"] == "Cai"  # pod 1 at the near side's left end, whoever starts


@pytest.mark.skipif(_hardware_renderer_missing() is not None, reason=str(_hardware_renderer_missing()))
def test_virtual_pods_show_the_hardware_pixels_and_their_buttons_act(tmp_path):
    """Virtual pods: each seat's pod image is the hardware renderer's, its buttons are
    clickable and act through the seat's input map (up = +1 on the focused counter, main = the
    routine action), and the image updates live."""
    out = run_scenario(tmp_path, "pods")
    assert out["pixels_match"] is True
    assert out["changed_after_press"] is True
    # drawn at a whole-number scale (every pod pixel a sharp square), as large as its frame allows
    (w, h), (fw, fh) = out["image_size"], out["frame"]
    k = w / 128
    assert k == int(k) and h == 64 * k and k >= 2 and (128 * (k + 1) > fw or 64 * (k + 1) > fh)
    state, entries = stored(tmp_path / "state")
    assert {"action": "adjust", "player": "Ben", "counter": "score", "delta": 1} in entries
    assert {"action": "next"} in entries  # Ana's main button: end turn (counters' routine action)


@pytest.mark.skipif(_hardware_renderer_missing() is not None, reason=str(_hardware_renderer_missing()))
def test_virtual_pods_are_drawn_at_the_largest_whole_scale_their_share_of_the_screen_allows(tmp_path):
    """Virtual pods as large as the screen allows: each 128x64 image at the largest whole-number scale (every
    pod pixel a sharp square) that leaves every pod its title and its four buttons of at least 48 px — 3x with
    2 pods, 2x with 4 (the buttons beside the image), 1x with 8 (2x would need more than the screen: eight
    256x128 images and their buttons) — nothing cut off or drawn over anything."""
    out = run_scenario(tmp_path, "pod-scales")
    assert out["scales"] == {"2": 3, "4": 2, "8": 1}
    for n, seen in out["seen"].items():
        k = out["scales"][n]
        assert seen["images"] == [[128 * k, 64 * k]] * int(n), (n, seen["images"])
        (fw, fh) = seen["frame"]
        assert 128 * k <= fw and 64 * k <= fh and (128 * (k + 1) > fw or 64 * (k + 1) > fh), (n, seen["frame"])
        assert seen["smallest_button"] >= 48, (n, seen)
        assert seen["problems"] == [], (n, seen["problems"])
    # 8 pods at 2x need more than the whole grid: 8 images of 256x128 and 8 x 4 buttons of 48x48
    w, h = out["grid"]
    assert 8 * (256 * 128 + 4 * 48 * 48) > w * h


@pytest.mark.skipif(_hardware_renderer_missing() is not None, reason=str(_hardware_renderer_missing()))
def test_virtual_pods_speak_the_tables_language(tmp_path):
    """Spanish selected: every pod speaks Spanish — the virtual pods show the owner's views, made
    with the table's catalog (its status line and the main button's label)."""
    from tablekeeper.engine.messages import translated, word
    from tablekeeper.ui.i18n import load_catalog

    out = run_scenario(tmp_path, "pods", lang="es")
    es = load_catalog("es")
    assert out["ana_action"] == str(translated(word("label", "end turn"), es)) != "end turn"
    assert out["ana_status"] == str(translated(word("status", "your turn"), es)) != "your turn"
    state, entries = stored(tmp_path / "state")
    assert {"action": "next"} in entries


def test_make_run_without_a_display_says_so_and_starts_the_headless_player(tmp_path):
    """`make run` on a machine with no display says so in one line and starts the headless
    player instead (pods as text), rather than a stack trace."""
    env = child_env(tmp_path)
    env.pop("SDL_VIDEODRIVER")
    exe = Path(sys.executable).with_name("tablekeeper")
    proc = subprocess.Popen([str(exe), "--state-dir", str(tmp_path / "state"), "run"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        # a first run has no game: the headless player starts one and shows the pods as text
        pods = [proc.stdout.readline() for _ in range(2)]
    finally:
        proc.terminate()
        rest_out, rest_err = proc.communicate(timeout=20)
    assert first.startswith("tablekeeper run: no display"), first
    assert "headless" in first
    assert pods[0].startswith("[1] Ana") and "life 20" in "".join(pods) + rest_out, (pods, rest_out)
    assert "Traceback" not in rest_err and "Traceback" not in first
    assert "kivy" not in (first + rest_err).lower()


def test_the_headless_demo_plays_in_a_scratch_folder_not_in_the_users_state_folder(tmp_path):
    """The demo game written into the user's real state folder made the app resume the demo later."""
    env = child_env(tmp_path)
    env.pop("SDL_VIDEODRIVER")
    env["XDG_STATE_HOME"] = str(tmp_path / "xdg")
    exe = Path(sys.executable).with_name("tablekeeper")
    proc = subprocess.Popen([str(exe), "run"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = proc.stdout.readline()
        pods = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    assert "scratch folder" in said and pods.startswith("[1] Ana"), (said, pods)
    scratch = Path(said.split("folder, ", 1)[1].split(" (", 1)[0])
    from tablekeeper.engine import Journal

    with Journal(scratch) as j:
        assert [g.setup["players"] for g in j.games()] == [["Ana", "Ben"]]
    with Journal(tmp_path / "xdg" / "tablekeeper") as j:
        assert j.games() == []  # the user's own folder holds no demo
    shutil.rmtree(scratch, ignore_errors=True)


def test_make_run_without_a_display_or_a_terminal_plays_the_piped_presses_and_stops_at_their_end(tmp_path):
    """Piped standard input used to give no hint and run forever: its lines are the pods' presses
    (``serve --keys``), one sentence says so, and the run ends by itself once they are applied."""
    env = child_env(tmp_path)
    env.pop("SDL_VIDEODRIVER")
    exe = Path(sys.executable).with_name("tablekeeper")
    state = tmp_path / "state"
    done = subprocess.run([str(exe), "--state-dir", str(state), "run"], env=env, input="1 up\n1 up\n2 down\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "standard input is not a terminal" in done.stderr and "stops at its end" in done.stderr
    assert "end of standard input: stopping" in done.stderr
    _state, entries = stored(state)
    adjusts = [(e["player"], e["delta"]) for e in entries if e.get("action") == "adjust"]
    assert adjusts == [("Ana", 1), ("Ana", 1), ("Ben", -1)], entries


# ---------------------------------------------------------------------------------------------
# The child side: scenarios run inside the app's process
# ---------------------------------------------------------------------------------------------
SCENARIOS = {}


def scenario(name):
    def deco(fn):
        SCENARIOS[name] = fn
        return fn
    return deco


NAMES = ["Ana", "Ben", "Cai"]


def new_game(r, game, players=NAMES, options=(), shot=None):
    """The new-game wizard, by touches: game, names on the on-screen keyboard, options, start."""
    r.tap("home.new")
    r.tap(f"new.game.{game}")
    for name in players:
        r.type(name)
        r.tap("new.add")
    if shot:
        shot("new-players")
    r.tap("new.next")
    for tid in options:
        r.tap(tid)
    if shot:
        shot("new-options")
    r.tap("new.next")
    if shot:
        shot("new-seats")
    r.tap("new.next")
    assert r.app.sm.current == "table", (r.app.sm.current, r.app.toast.label.text)


def shown_counters(r) -> dict:
    """What the table's cards show: "Ana.gold" → 10."""
    out = {}
    table = r.app.snapshot.table
    for p in table.state["players"]:
        worked_out = [str.__str__(c) for c, _v in table.rules.seat_view(table.state, p["name"])["counters"]
                      if c not in p["counters"]]  # what the rules work out (a hand, corpses)
        for c in list(p["counters"]) + worked_out:
            tid = f"table.{p['name']}.{c}.value"
            if r.exists(tid):
                text = r.text(tid)
                out[f"{p['name']}.{c}"] = int(text)
    return out


def first_counter(r, name="Ana"):
    table = r.app.snapshot.table
    p = next(p for p in table.state["players"] if p["name"] == name)
    return next(iter(p["counters"]))


def generic_steps(r, shot):
    """± on a card, then undo, redo and undo again from the header (every game has these; the
    game's own steps then start from its setup)."""
    c = first_counter(r)
    before = r.app.snapshot.table.state["players"][0]["counters"][c]
    plus = f"table.Ana.{c}.plus"
    if r.exists(plus):
        r.tap(plus)
    else:  # compact tiles: the tap opens the adjust dialog
        r.tap(f"table.Ana.{c}.value")
        r.tap("adjust.+1")
        r.tap("adjust.close")
    after = r.app.snapshot.table.state["players"][0]["counters"][c]
    r.tap("table.undo")
    assert r.app.snapshot.table.state["players"][0]["counters"][c] == before
    r.tap("table.redo")
    assert r.app.snapshot.table.state["players"][0]["counters"][c] == after
    r.tap("table.undo")
    return c


def play_red_dragon_inn(r, shot, checks):
    # phases 1 and 2 cost nothing: the action card is played straight from the start of the turn
    r.tap("table.guided.gambling")
    r.tap("gambling.do")  # Gambling? I'm in! — everyone antes 1
    shot("gambling")
    r.tap("gambling.pass")  # Ben
    r.tap("gambling.play.cheat")  # Cai takes control
    r.tap("gambling.pass")  # Ana
    r.tap("gambling.pass")  # Ben: Cai takes the pot
    r.tap("gambling.close")
    r.tap("table.Ana.do.0")  # buy a drink for Ben
    r.tap("table.guided.drink")
    r.tap("drink.card.2")  # Elven Wine: alcohol +3
    shot("drink")
    r.tap("drink.do")
    checks += [("Cai won the pot", ["players", "Cai", "counters", "gold"], 12),
               ("Ana anted 1", ["players", "Ana", "counters", "gold"], 9),
               ("Ana drank Elven Wine", ["players", "Ana", "counters", "alcohol"], 3),
               ("Ben's turn", ["turn", "player"], "Ben"),
               ("Ben's Drink Me! pile", ["players", "Ben", "counters", "drink_me"], 2)]


def play_bloody_inn(r, shot, checks):
    r.tap("table.Ana.do.0")  # welcome the travellers
    r.tap("table.guided.night")
    r.tap("actions.pick.pass")
    r.tap("actions.field.checks.minus")  # launder: cash a check
    shot("night")
    r.tap("actions.do")
    for name in ("Ben", "Cai", "Ana", "Ben", "Cai"):
        r.tap(f"table.{name}.do.0")  # pass
    r.tap("table.guided.morning")
    shot("morning")
    r.tap("morning.do")
    # Ana: 5F, +10 (her check), then the morning: +1 for her room's guest (departure), −2 wages
    # for her 2 peasants. Ben: 5 + 1 − 2.
    checks += [("the morning ended round 1", ["table", "round"], 2),
               ("Ana cashed her check", ["players", "Ana", "counters", "checks"], 0),
               ("Ana's cash after the morning", ["players", "Ana", "counters", "cash"], 14),
               ("Ben's cash after the morning", ["players", "Ben", "counters", "cash"], 4)]


def play_dragon_run(r, shot, checks):
    r.tap("table.guided.cards")
    for name, values in (("Ana", (3, 2, 1, 0)), ("Ben", (4, 2, 1, 1)), ("Cai", (1, 1, 1, 0))):
        r.tap(f"actions.field.player.{name}")
        if name == "Cai":
            # A form that fits stays put under a finger: it once flew thousands of pixels away under
            # load, the keypad with it, and the deal went in with one value ("not 1").
            before = r.window_y("actions.field.values.1")
            finger = r.drag("actions.field.values.1", 120)
            moved = r.window_y("actions.field.values.1") - before
            finger.up()
            r.settle()
            assert moved == 0 and r.window_y("actions.field.values.1") == before, moved
        for v in values:
            r.tap(f"actions.field.values.{v}")
        r.tap("actions.do")
        if name != "Cai":
            r.tap("table.guided.cards")
    r.tap("table.guided.escape")
    r.tap("escape.card.3")  # Ana's cards, highest first: 3 2 1 0 — discard the 0...
    r.tap("escape.card.2")  # ... and the 1
    r.tap("escape.face.7")  # a physical die shows 7: not above the 10 location cards left
    r.tap("escape.do")
    shot("escape")
    assert r.text("escape.roll") == "7"
    r.tap("escape.next.1")  # she must charge: the dragon!
    r.tap("table.guided.charge")  # Ben charges into the treasure hall and finds a 3
    # what the dialog lets a player tap is what the charge declares: its locations and icons, its bounds
    charge = {f.name: f for f in r.app.snapshot.table.rules.actions["charge"].fields}
    for name in ("location", "then"):
        assert sorted(t for t in r.tids() if t.startswith(f"charge.{name}.")) == sorted(
            f"charge.{name}.{c}" for c in charge[name].choices)
    assert (r.find("charge.value").lo, r.find("charge.value").hi) == (charge["value"].lo, charge["value"].hi) == (0, 10)
    r.tap("charge.location.treasure_hall")
    r.tap("charge.value.plus")
    r.tap("charge.value.plus")
    r.tap("charge.do")
    r.tap("table.Ben.do.0")  # pass
    checks += [("the escape die as entered", ["last_roll", "roll"], 7),
               ("the dragon burnt Ana", ["players", "Ana", "counters", "wounds"], 1),
               ("Ana discarded 0 and 1", ["players", "Ana", "counters", "treasure"], 5),
               ("the dragon's temper", ["table", "temper"], 5),
               ("Ben's treasure hall", ["players", "Ben", "counters", "treasure"], 11),
               ("Cai's turn", ["turn", "player"], "Cai")]


def play_dale_of_merchants(r, shot, checks):
    r.tap("table.Ana.do.0")  # draw the animal decks at random
    r.tap("table.guided.market")
    r.tap("market.value.0.plus")  # the rightmost card is worth 1
    r.tap("market.slot.0")
    r.tap("market.paid.1")  # pay with a 1
    shot("market")
    r.tap("market.do")  # the turn's one action: the clean-up follows by itself (draws, refills the market)
    r.tap("table.guided.stall")
    r.tap("stall.values.1")  # stack 1: one card worth 1 of the first deck in play
    shot("stall")
    r.tap("stall.do")
    checks += [("Ana paid with one card: to her discard", ["players", "Ana", "counters", "discard"], 1),
               ("... and took the card she bought", ["players", "Ana", "counters", "hand"], 5),
               ("Ben built stack 1", ["players", "Ben", "counters", "stall"], 1),
               ("... and his turn ended by itself: Cai's turn", ["turn", "player"], "Cai")]


GAME_STEPS = {"red-dragon-inn": play_red_dragon_inn, "bloody-inn": play_bloody_inn,
              "dragon-run": play_dragon_run, "dale-of-merchants": play_dale_of_merchants}


#: The screenshots docs/app.md shows; with TABLEKEEPER_SCREENSHOTS set only these are written there.
DOC_SHOTS = {
    "play-red-dragon-inn-new-players", "play-red-dragon-inn-new-options", "play-red-dragon-inn-new-seats",
    "play-red-dragon-inn-table", "play-red-dragon-inn-gambling", "play-red-dragon-inn-drink",
    "play-bloody-inn-night", "play-bloody-inn-morning", "play-bloody-inn-board", "play-dragon-run-escape", "play-dale-of-merchants-market",
    "play-dale-of-merchants-stall", "history-screen", "end-screen", "pods-screen", "fit-en-home",
    "fit-en-settings", "fit-es-table-red-dragon-inn", "fit-es-adjust", "fit-en-table-8-players", "facing-table-4", "facing-table-6-ends",
    "facing-adjust-far-seat", "stats-screen",
    "fit-es-end", "fit-en-table-2-dragon-run",
}


WRITTEN: list[str] = []
MASKS: dict[str, list[list[int]]] = {}
#: Longer than any light that marks a change for a moment (a card's, 0.6 s; a pod's, 0.6 s; a player out,
#: 1.2 s)
SETTLED_S = 1.4


def volatile_boxes(r) -> list[list[int]]:
    """Where the screen shows this machine and this moment rather than the app (the state folder's
    path, when a past game was started): boxes in image pixels (left, top, right, bottom), left out
    when a screenshot is compared with the docs'."""
    from kivy.core.window import Window

    boxes = []
    for w in r.widgets():
        tid = getattr(w, "tid", None) or ""
        if not (tid == "settings.where" or tid.startswith("home.game.")) or not r.visible(w):
            continue
        # a past game's row starts with its date and time, whose width moves the rest of the row
        x0, y0, x1, y1 = r._window_box(w)
        boxes.append([int(x0), int(Window.height - y1), int(x1) + 1, int(Window.height - y0) + 1])
    return boxes


def _shooter(r, shots: Path, prefix: str):
    docs = bool(os.environ.get("TABLEKEEPER_SCREENSHOTS"))

    def shot(name):
        if not docs or f"{prefix}-{name}" in DOC_SHOTS:
            if f"{prefix}-{name}" in DOC_SHOTS:  # the docs' picture the same on every run, however fast the
                r.wait(SETTLED_S)  # machine: a changed value's light (a pod's, a card's) out, no message over it
                for toast in r.app.toast.widgets():
                    toast.hide()
                r.settle()
            WRITTEN.append(str(r.screenshot(shots / f"{prefix}-{name}.png")))
            MASKS[f"{prefix}-{name}"] = volatile_boxes(r)
    return shot


@scenario("play")
def sc_play(r, shots, game):
    shot = _shooter(r, shots, f"play-{game}")
    options = ("new.opt.characters.Ana.Serena",) if game == "red-dragon-inn" else ()
    new_game(r, game, options=options, shot=shot if game == "red-dragon-inn" else None)
    shot("table")
    generic_steps(r, shot)
    checks = []
    steps = GAME_STEPS.get(game)
    if steps:
        steps(r, shot, checks)
    shot("after")
    return {"game": game, "shown": shown_counters(r), "checks": checks, "written": WRITTEN}


@scenario("bury")
def sc_bury(r, shots, arg):
    """The Bloody Inn's burial dialog: the annex is tapped, named with its owner; the rooms and the
    annexes on the table after the welcome and after a build."""
    new_game(r, "bloody-inn", players=["Ana", "Ben"])

    def board(prefix="table.place"):
        table = r.app.snapshot.table
        rooms = {str(x["room"]): [r.text(f"{prefix}.{x['room']}.{part}") for part in ("title", "holder", "content")]
                 for x in table.state["inn"]["rooms"]}
        looks = {str(x["room"]): list(r.find(f"table.place.{x['room']}").bg) for x in table.state["inn"]["rooms"]}
        return rooms, {n: r.text(f"table.{n}.board") for n in table.players}, looks

    r.app.submit({"action": "welcome", "police_rooms": [3]})  # as the pods would send it
    r.settle()
    rooms_welcomed, lines_welcomed, _looks = board()
    for action in ({"action": "kill", "player": "Ana", "room": 1, "rank": 0},
                   {"action": "bribe", "player": "Ben", "room": 2, "rank": 0}):
        r.app.submit(action)  # the night so far
        r.settle()
    r.tap("table.guided.bury")
    labels = [r.text(f"bury.annex.{i}") for i in range(2)]
    disabled_before = r.find("bury.do").disabled
    r.tap("bury.annex.1")  # Ben's barn
    shot = _shooter(r, shots, "play-bloody-inn")
    shot("bury")
    r.tap("bury.do")
    state = r.app.snapshot.table.state
    result = {"labels": labels, "disabled_before": disabled_before,
              "ana": {"corpses": len(state["players"][0]["corpses"])},
              "ben_barn": [len(a["buried"]) for a in state["players"][1]["annexes"]]}
    r.app.submit({"action": "build", "player": "Ben", "rank": 2, "card": "gardens"})
    r.settle()
    rooms_built, lines_built, looks_built = board()
    # Ben, on the far side, reads the rooms from his seat: the same column at the left, turned toward him
    far_rooms, _lines, far_looks = board("table.farplace")
    from tablekeeper.ui.widgets import TurnedBox

    def turn_of(tid):
        box = r._ancestor(r.find(tid), TurnedBox)
        return box.angle if box is not None else 0

    def left(tid):
        return r.find(tid).to_window(r.find(tid).x, 0)[0]

    far = {"rooms": far_rooms, "looks": far_looks, "turned": turn_of("table.farplace.1"),
           "near_turned": turn_of("table.place.1"),
           "left_of_cards": left("table.farplace.1") < left("table.Ben.name") < left("table.place.1")}
    shot("board")  # (the table, not the message about what Ben just did: see _shooter)
    return {**result, "rooms_welcomed": rooms_welcomed, "lines_welcomed": lines_welcomed,
            "rooms_built": rooms_built, "lines_built": lines_built, "looks_built": looks_built, "far": far,
            "problems": r.problems()}


@scenario("locale")
def sc_locale(r, shots, arg):
    return {"new": r.text("home.new")}


@scenario("resume")
def sc_resume(r, shots, arg):
    if arg == "1":
        new_game(r, "counters", players=["Ana", "Ben"])
        for _ in range(3):
            r.tap("table.Ana.score.plus")
    return {"screen": r.app.sm.current, "shown": shown_counters(r),
            "modules": sorted(m for m in sys.modules if m.startswith(("tablekeeper.ui.screens.", "tablekeeper.ui.club")) or
                              m.split(".")[0] in ("matplotlib", "numpy", "ssl", "asyncio")),
            "games": sorted({m.split(".")[3] for m in sys.modules
                             if m.startswith(("tablekeeper.engine.games.", "tablekeeper.ui.games."))}),
            **drawn_flushes(r), **cards_built_once_laid_out(r)}


def cards_built_once_laid_out(r) -> dict:
    """How many player cards the table builds while on the window but not laid out yet (as at start, when the
    worker's first snapshot may come before the screen manager's first layout pass), then once laid out."""
    from tablekeeper.ui.screens import table as table_module

    built = []
    real = table_module.PlayerCard.__init__

    def counting(card, *args, **kw):
        built.append(card)
        real(card, *args, **kw)

    screen = r.app.screen("table")
    laid_out = tuple(screen.size)
    table_module.PlayerCard.__init__ = counting
    try:
        screen._key = None  # the next update builds the cards anew
        screen.size = (100, 100)  # Kivy's default size: the screen manager has not sized it yet
        unsized = len(built)
        screen.size = laid_out  # its layout pass
        sized = len(built) - unsized
    finally:
        table_module.PlayerCard.__init__ = real
    return {"cards_unsized": unsized, "cards_laid_out": sized, "players": len(r.app.snapshot.table.players)}


def drawn_flushes(r) -> dict:
    """One frame of the screen drawn: how many GL flushes it made, and how many panels it drew (every one
    on the window, those shown and those at opacity 0 alike: Kivy draws them all)."""
    from kivy.core.window import Window

    from tablekeeper.ui import widgets

    flushes = []
    real = widgets.glFlush
    widgets.glFlush = lambda: (flushes.append(1), real())
    try:
        Window.dispatch("on_draw")
    finally:
        widgets.glFlush = real
    panels = [w for w in r.widgets() if isinstance(w, widgets.Panel)]
    return {"software_gl": widgets.software_gl(), "flushes": len(flushes), "panels": len(panels)}


@scenario("elsewhere")
def sc_elsewhere(r, shots, arg):
    new_game(r, "counters", players=["Ana", "Ben"])
    r.tap("table.Ana.score.plus")
    subprocess.run([sys.executable, "-m", "tablekeeper.ui.cli", "--state-dir", str(r.app.keeper.state_dir), "new",
                    "counters", "Cai", "Dee", "Eva"], check=True, capture_output=True)
    deadline = time.monotonic() + 30
    while r.app.snapshot.table.players != ["Cai", "Dee", "Eva"] and time.monotonic() < deadline:
        r.wait(0.2)
    r.settle()
    return {"players": r.app.snapshot.table.players, "screen": r.app.sm.current, "shown": shown_counters(r)}


@scenario("end")
def sc_end(r, shots, arg):
    shot = _shooter(r, shots, "end")
    new_game(r, "counters", players=["Ana", "Ben"], options=("new.opt.counters.life 20, out at 0",))
    cell = r.find("table.Ben.life.value")
    rest = list(cell.bg)
    before = r.text("table.Ben.life.value")
    r.tap("table.Ben.life.minus", settle=False)
    deadline = time.monotonic() + 20
    while r.text("table.Ben.life.value") == before and time.monotonic() < deadline:
        r.frames(1)  # the light comes in the very frame that shows the new value (however slow the machine)
    flash = {"lit": list(cell.bg) != rest, "icon": r.text("table.Ben.life.icon")}
    r.wait(1.0)
    flash["after"] = list(cell.bg) == rest
    flash["untouched"] = list(r.find("table.Ana.life.value").bg) == rest
    r.tap("table.Ana.life.value")
    for _ in range(4):
        r.tap("adjust.-5")
    assert r.app.sm.current == "end"
    deadline = time.monotonic() + 20
    while not r.text("end.reason") and time.monotonic() < deadline:
        r.frames(1)  # the reason comes with the end screen's next frames: however slow the machine
    shot("screen")
    table = r.app.snapshot.table
    chart = r.app.screen("end").chart.data
    winners = r.text("end.winners")

    def box(tid):
        w = r.find(tid)
        (x0, y0), (x1, y1) = w.to_window(w.x, w.y), w.to_window(w.right, w.top)
        return [x0, y0, x1, y1]

    layout = {"reason": r.text("end.reason"), "toast": r.app.toast.opacity,
              "rows": {name: box(f"end.final.{name}") for name in ("Ana", "Ben")},
              "winners": box("end.winners"), "crown": r.find("end.crown").opacity}
    done = list(table.done)
    r.tap("end.undo")
    reopened = not r.app.snapshot.table.over
    after_undo = r.app.sm.current
    r.tap("table.Ana.life.value")
    r.tap("adjust.-5")  # over again
    old = r.app.snapshot.table.game_id
    r.tap("end.rematch")
    r.settle()  # the tap queued the new game on the worker
    new = r.app.snapshot.table
    assert new.game_id != old
    return {"winners_text": winners, "layout": layout, "flash": flash, "chart": chart, "done": done, "after_undo_screen": after_undo,
            "reopened": reopened, "rematch": {"players": [p["name"] for p in new.state["players"]],
                                              "over": new.state["over"], "screen": r.app.sm.current,
                                              "options": new.rules.options}}


@scenario("facing")
def sc_facing(r, shots, arg):
    """Four players facing their seats: who is turned, where, and a tap on a turned card."""
    shot = _shooter(r, shots, "facing")
    new_game(r, "red-dragon-inn", players=["Ana", "Ben", "Cai", "Dee"])
    shot("table-4")

    def turned(name, tid=None):
        """The turn of the card ``name`` (or of the widget ``tid``) on the screen, in degrees."""
        node = r.find(tid or f"table.{name}.name")
        while node is not None and node is not node.parent:
            if hasattr(node, "rotation"):
                return round(node.rotation)
            node = node.parent
        return 0

    def centre(tid):
        w = r.find(tid)
        return list(w.to_window(*w.center))

    four = {"turned": {n: turned(n) for n in ("Ana", "Ben", "Cai", "Dee")},
            "names": {n: centre(f"table.{n}.name") for n in ("Ana", "Ben", "Cai", "Dee")},
            "tiles": r.exists("table.Ben.gold.plus")}
    from tablekeeper.ui.i18n import word

    table = r.app.snapshot.table
    four["status"] = word(table.rules.seat_view(table.state, "Ana").get("status", ""))
    four["badge"] = r.text("table.Ana.badge")  # tiles leave no status line: the badge says it
    four["raw"] = sorted({w.text for w in r.widgets()
                          if r.visible(w) and re.search(r"[a-z]_[a-z]", str(getattr(w, "text", "")))})
    r.tap("table.Ben.gold.value")  # a turned tile: the adjust dialog opens for Ben's gold, facing Ben
    four["dialog_turned"] = turned(None, "adjust.+1")
    shot("adjust-far-seat")
    four["dialog_title_below_body"] = centre("adjust.title")[1] < centre("adjust.+1")[1]  # upside down
    r.tap("adjust.+1")
    four["ben_delta"] = r.text("table.Ben.gold.delta")  # the change stays shown beside the value...
    four["ben_gold"] = r.app.snapshot.table.state["players"][1]["counters"]["gold"]
    for _i in range(3):  # 11 → 6 → 1 → refused: gold does not go below 0
        r.tap("adjust.-5")
    toasts = r.app.toast.toasts
    four["toast_for_ben"] = [toasts[180].opacity, toasts[0].opacity, toasts[180].label.text]
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    on_top = list(Window.children)  # the topmost first
    dialog = next(c for c in on_top if isinstance(c, ModalView))
    toast = toasts[180]
    while toast.parent is not Window:  # up to the window's child that holds it
        toast = toast.parent
    four["toast_above_dialog"] = on_top.index(toast) < on_top.index(dialog)
    r.tap("adjust.close")
    r.tap("table.Ana.gold.value")  # Ana's card is upright: so is her dialog
    four["ana_dialog_turned"] = turned(None, "adjust.+1")
    for _i in range(3):  # 10 → 5 → 0 → refused, this time toward Ana
        r.tap("adjust.-5")
    four["toast_for_ana"] = [toasts[180].opacity, toasts[0].opacity]
    r.tap("adjust.close")
    four["deltas_after"] = {n: r.text(f"table.{n}.gold.delta") for n in ("Ana", "Ben")}  # ... until the next action
    from tablekeeper.ui.widgets import AMBER

    cards = {n: r.find(f"table.{n}.name").parent.parent for n in ("Ana", "Ben")}
    four["turn_frame"] = {n: (cards[n].border_width, tuple(cards[n].border) == tuple(AMBER)) for n in cards}
    # every routine action of the moment from the card: the likeliest, then "more" lists them all
    table = r.app.snapshot.table
    from tablekeeper.ui.forms import touch_actions

    offers = touch_actions(table.rules, table.state, "Ana")
    button = r.text("table.Ana.do.more")
    r.tap("table.Ana.do.more")
    listed = [r.text(f"offers.{i}") for i in range(len(offers))]
    from tablekeeper.ui.i18n import word

    # the furthest hit, beyond the card's two buttons (gold taken, further still, would end her last chance, which
    # the banner below needs open)
    last = max(i for i, o in enumerate(offers) if o["action"]["action"] == "adjust")
    r.tap(f"offers.{last}")
    four["more"] = {"n": len(offers), "button": button, "listed": listed,
                    "labels": [word(o["label"]) for o in offers], "expected": offers[last]["action"],
                    "done": r.app.snapshot.table.done[-1], "closed": not r.exists("offers.0")}
    # the last-chance banner faces the player whose chance it is: Ana's (out of gold) upright...
    pending = r.app.snapshot.table.state["pending"]
    banner = {"first": (pending[0]["name"], turned(None, "table.pending"))}
    r.tap("table.resolve")
    r.tap("table.Cai.fortitude.value")  # ... Cai's (fortitude 0: passing out) turned toward him
    for _i in range(4):
        r.tap("adjust.-5")
    r.tap("adjust.close")
    banner["cai"] = (r.app.snapshot.table.state["pending"][0]["name"], turned(None, "table.pending"))
    r.tap("table.resolve")  # through the turned banner
    banner["resolved"] = r.app.snapshot.table.state["pending"]
    four["banner"] = banner
    r.tap("end.home" if r.app.sm.current == "end" else "table.home")  # Dee, last one standing, may have won
    new_game(r, "red-dragon-inn", players=["Ana", "Ben", "Cai"])
    shot("table-3")
    three = {"turned": {n: turned(n) for n in ("Ana", "Ben", "Cai")},
             "plus": centre("table.Ben.gold.plus"), "minus": centre("table.Ben.gold.minus")}
    r.tap("table.Ben.gold.plus")  # Ben alone on the far side: his tiles keep − and +
    three["ben_gold"] = r.app.snapshot.table.state["players"][1]["counters"]["gold"]
    three["header_turned"] = turned(None, "table.undo")
    three["near_turn"] = r.text("table.turn.near")
    r.tap("table.home")
    r.tap("home.settings")
    r.tap("settings.layout.ends")
    r.tap("settings.back")  # back to the game going on
    r.tap("table.home")
    from tablekeeper.hardware.icons import GLYPHS

    six_names = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]
    new_game(r, "red-dragon-inn", players=six_names)
    shot("table-6-ends")
    six = {"turned": {n: turned(n) for n in six_names},
           "names": {n: centre(f"table.{n}.name") for n in six_names},
           "problems": r.problems(),
           "header_icons": r.find("table.undo").text == GLYPHS["rotate-left"]}
    r.tap("table.Ben.gold.value")  # a quarter-turned card: the adjust dialog opens for Ben's gold
    six["dialog_turned"] = turned(None, "adjust.+1")
    six["dialog_problems"] = r.problems()
    r.tap("adjust.+1")
    r.tap("adjust.close")
    six["ben_gold"] = r.app.snapshot.table.state["players"][1]["counters"]["gold"]
    r.tap("table.home")
    r.tap("home.settings")
    r.tap("settings.layout.one-side")
    r.tap("settings.back")  # back to the game going on
    one_side = {"turned": {n: turned(n) for n in ("Ana", "Ben", "Cai")}} if r.app.sm.current == "table" else {}
    return {"four": four, "three": three, "six": six, "one_side": one_side, "screen": r.app.sm.current}


@scenario("stats")
def sc_stats(r, shots, arg):
    """Three games of counters to the end (Ben wins two, Ana one; Cai plays the last), then the
    statistics screen: rows, bars, the game filter and a head-to-head by two taps."""
    shot = _shooter(r, shots, "stats")

    def play(players, losers):
        new_game(r, "counters", players=players, options=("new.opt.counters.life 20, out at 0",))
        for loser in losers:  # out at 0: the game goes on until one is left
            r.tap(f"table.{loser}.life.value")
            for _ in range(4):
                r.tap("adjust.-5")
            if r.exists("adjust.close"):
                r.tap("adjust.close")
        assert r.app.sm.current == "end"
        r.tap("end.home")

    play(["Ana", "Ben"], ["Ana"])
    play(["Ana", "Ben"], ["Ben"])
    play(["Ana", "Ben", "Cai"], ["Ana", "Cai"])
    r.tap("home.stats")
    deadline = time.monotonic() + 60
    while not r.exists("stats.row.Ben") and time.monotonic() < deadline:
        r.wait(0.1)  # read and summarised on the journal worker
    shot("screen")
    from tablekeeper.ui.widgets import player_colour

    screen = r.app.screen("stats")
    colours = screen.data["colours"]
    out = {"rows": sorted(n for n in ("Ana", "Ben", "Cai") if r.exists(f"stats.row.{n}")),
           "wins": {n: r.text(f"stats.wins.{n}") for n in ("Ana", "Ben", "Cai")},
           "bars": {n: [r.find(f"stats.bar.{n}").rate, list(r.find(f"stats.bar.{n}").colour)]
                    for n in ("Ana", "Ben")},
           "roster_colours": {n: list(player_colour(colours[n])) for n in ("Ana", "Ben")},
           "summary": r.text("stats.summary"), "chart": r.find("stats.chart").data,
           "problems": r.problems()}
    r.tap("stats.player.Ana")
    r.tap("stats.player.Ben")
    out["vs"] = r.text("stats.vs")
    return out


@scenario("stick")
def sc_stick(r, shots, arg):
    """A finished game, then Settings with a USB stick (a folder, as on a PC): back up, export the
    plays, restore the latest backup (nothing new: no play twice); the stick pulled: buttons off."""
    new_game(r, "counters", players=["Ana", "Ben"], options=("new.opt.counters.life 20, out at 0",))
    r.tap("table.Ana.life.value")
    for _ in range(4):
        r.tap("adjust.-5")
    r.tap("end.home")
    r.tap("home.settings")
    out = {"label": r.text("settings.stick"), "problems": r.problems()}
    _shooter(r, shots, "stick")("settings")
    said = []
    for what in ("backup", "export", "restore"):
        r.tap(f"settings.{what}")
        deadline = time.monotonic() + 30
        while r.app.toast.opacity == 0 and time.monotonic() < deadline:
            r.wait(0.05)
        said.append(r.app.toast.label.text)
        r.app.toast.hide()
        r.wait(2.5)  # the next poll gives the buttons back
    out["said"] = said
    out["games"] = len(r.app.snapshot.games)
    import shutil

    shutil.rmtree(os.environ["TABLEKEEPER_STICK"])  # the stick pulled out
    r.wait(2.5)
    out["pulled"] = {"label": r.text("settings.stick"), "disabled": r.find("settings.backup").disabled}
    return out


@scenario("roster")
def sc_roster(r, shots, arg):
    """People in the roster (as `tablekeeper players add` leaves them): one tap each at setup, and
    each comes with their colour and the pod they usually take."""
    from tablekeeper.engine import roster as people

    def add(keeper):
        roster = people.read(keeper.journal)
        roster.add("Ana", colour=5, seat=2)
        roster.add("Ben", colour=6, seat=1)
        people.save(keeper.journal, roster)

    r.app.keeper.call(add)
    r.settle()
    r.tap("home.new")  # the screen reads the roster when it opens
    r.wait(0.3)
    r.tap("new.game.counters")
    recent = [t for t in r.tids() if t.startswith("new.recent.")]
    r.tap("new.recent.Ana")
    r.tap("new.recent.Ben")
    r.tap("new.next")  # options
    r.tap("new.next")  # seats and colours
    screen = r.app.screen("new")
    return {"recent": recent, "pods": dict(screen.pods), "colours": dict(screen.colour_of)}


@scenario("history")
def sc_history(r, shots, arg):
    new_game(r, "counters", players=["Ana", "Ben"])
    r.tap("table.Ana.score.plus")
    r.tap("table.Ben.score.plus")
    r.tap("table.history")
    r.tap("history.undo")
    _shooter(r, shots, "history")("screen")
    rows = [r.text(f"history.row.{i}") for i in range(3)]
    from tablekeeper.ui.widgets import MUTED, PLAYER_COLOURS

    def colour(c):
        c = tuple(c)
        return PLAYER_COLOURS.index(c) if c in PLAYER_COLOURS else ("muted" if c == tuple(MUTED) else c)

    colours = [colour(r.find(f"history.row.{i}").color) for i in range(3)]
    r.tap("history.redo")
    r.tap("history.back")
    assert r.app.sm.current == "table"
    return {"rows": rows, "colours": colours}


@scenario("pods")
def sc_pods(r, shots, arg):
    from tablekeeper.hardware.render import render
    from tablekeeper.ui import i18n
    from tablekeeper.ui.pod.views import pod_view

    # one picture per language: the Spanish run must not overwrite the English README's
    shot = _shooter(r, shots, "pods" if i18n.language() == "en" else f"pods-{i18n.language()}")
    new_game(r, "counters", players=["Ana", "Ben"])
    r.tap("table.pods")
    screen = r.app.screen("pods")
    table = r.app.snapshot.table
    expected = render(pod_view(table.rules, table.state, "Ben", 0))
    got = screen.widgets["Ben"].last_image
    match = got.tobytes() == expected.tobytes()
    before = got.tobytes()
    r.tap("pods.Ben.up")
    changed = screen.widgets["Ben"].last_image.tobytes() != before
    ana = table.pods[1]  # the owner's view of Ana's pod, before her main button was pressed
    r.tap("pods.Ana.main")
    shot("screen")
    image = r.find("pods.Ben.image")
    return {"pixels_match": match, "changed_after_press": changed, "ana_status": ana.status,
            "ana_action": ana.action, "image_size": list(image.size), "frame": list(image.parent.size)}


@scenario("pod-scales")
def sc_pod_scales(r, shots, arg):
    """The pods screen with 2, 4 and 8 pods: the scale of each image, its frame, the buttons."""
    shot = _shooter(r, shots, "pods")
    scales, seen = {}, {}
    names = ["Ana", "Bernardo", "Cai", "Dolores", "Eva", "Fermín", "Gus", "Hortensia"]
    for n in (2, 4, 8):
        new_game(r, "counters", players=names[:n])
        r.tap("table.pods")
        images = [r.find(f"pods.{name}.image") for name in names[:n]]
        buttons = [r.find(f"pods.{name}.{b}") for name in names[:n] for b in r.app.pods.buttons]
        scales[str(n)] = r.app.screen("pods").layout.scale
        seen[str(n)] = {"images": [list(i.size) for i in images], "frame": list(images[0].parent.size),
                        "smallest_button": min(min(b.size) for b in buttons), "problems": r.problems()}
        shot(f"{n}")
        r.tap("pods.back")
        r.tap("table.home")
    return {"scales": scales, "seen": seen, "grid": list(r.app.screen("pods").grid_box.size)}


@scenario("seats")
def sc_seats(r, shots, arg):
    r.tap("home.new")
    r.tap("new.game.counters")
    for name in NAMES:
        r.type(name)
        r.tap("new.add")
    r.tap("new.next")
    r.tap("new.next")
    r.tap("new.pod.Ana")
    r.tap("new.pod.Cai")  # swap: Cai takes pod 1, Ana pod 3 (the colours stay the players')
    r.tap("new.colour.Ana")  # Ana's colour: the next nobody has
    r.tap("new.starter.Ben")
    r.tap("new.next")
    from tablekeeper.ui.widgets import PLAYER_COLOURS

    stripes = {n: PLAYER_COLOURS.index(tuple(r.find(f"table.{n}.colour").bg)) for n in ("Ana", "Ben", "Cai")}
    names = {n: r.find(f"table.{n}.name") for n in ("Ana", "Ben", "Cai")}
    x = {n: w.to_window(*w.center)[0] for n, w in names.items()}
    near_left = min(("Ana", "Cai"), key=lambda n: x[n])
    pods = []
    if r.exists("table.pods"):
        r.tap("table.pods")
        screen = r.app.screen("pods")
        pods = [w.title.text for _n, w in sorted(screen.widgets.items(), key=lambda kv: kv[1].title.text)]
        r.tap("pods.back")
    return {"pods": pods, "turn": r.app.snapshot.table.state["turn"]["player"], "stripes": stripes,
            "near_left": near_left}


def knock_out(r, names) -> None:
    """Each of ``names`` down from 20 life to 0 on the adjust dialog (out at 0: the last one left wins)."""
    for name in names:
        r.tap(f"table.{name}.life.value")
        for _ in range(4):
            r.tap("adjust.-5")
        if r.app.sm.current == "table":
            r.tap("adjust.close")


@scenario("fit")
def sc_fit(r, shots, arg):
    """Visit every screen and dialog of every game and collect what does not fit."""
    problems: list[str] = []
    visited = 0
    shot = _shooter(r, shots, f"fit-{arg or 'en'}")

    def check(where):
        nonlocal visited
        visited += 1
        problems.extend(f"{where}: {p}" for p in r.problems())

    check("home (empty)")
    r.tap("home.settings")
    check("settings")
    r.tap("settings.back")
    r.tap("home.new")
    check("new: games")
    r.tap("new.cancel")
    for game in all_games():
        r.tap("home.new")
        r.tap(f"new.game.{game}")
        for name in ("Ana", "Bernardo", "Cai", "Dolores")[:available()[game].max_players]:
            r.type(name)
            r.tap("new.add")
        check(f"new: players ({game})")
        r.tap("new.next")
        check(f"new: options ({game})")
        r.tap("new.next")
        check(f"new: seats ({game})")
        r.tap("new.next")
        check(f"table ({game})")
        shot(f"table-{game}")
        tids = r.tids()
        for tid in sorted(t for t in tids if t.startswith("table.guided.")):
            r.tap(tid)
            check(f"{tid} ({game})")
            r.tap(tid.split(".")[-1] + ".close" if r.exists(tid.split(".")[-1] + ".close") else "actions.close")
        r.tap("table.more")
        check(f"more actions ({game})")
        r.tap("actions.close")
        c = first_counter(r)
        r.tap(f"table.Ana.{c}.value")
        check(f"adjust ({game})")
        if game == "red-dragon-inn":
            shot("adjust")
        r.tap("adjust.close")
        if r.exists("table.info") and r.app.snapshot.table.state.get("table"):
            r.tap("table.info")
            check(f"table counters ({game})")
            r.tap("adjust.close")
        r.tap("table.history")
        check(f"history ({game})")
        r.tap("history.back")
        if r.exists("table.pods"):
            r.tap("table.pods")
            check(f"pods ({game})")
            r.tap("pods.back")
        r.tap("table.home")
    for game in all_games():  # two players: each alone on a side of the table, facing it
        new_game(r, game, players=["Ana", "Bernardo"][:max(2, min(2, available()[game].max_players))])
        check(f"table, 2 players ({game})")
        shot(f"table-2-{game}")
        r.tap("table.home")
    new_game(r, "counters", players=["Ana", "Bernardo"], options=("new.opt.counters.life 20, out at 0",))
    r.tap("table.Bernardo.life.value")
    for _ in range(4):
        r.tap("adjust.-5")
    check("end (2 players)")
    shot("end-2")
    r.tap("end.home")
    new_game(r, "counters", players=["Ana", "Bernardo", "Cai", "Dolores"], options=("new.opt.counters.life 20, out at 0",))
    knock_out(r, ["Bernardo", "Cai", "Dolores"])
    check("end (4 players)")
    r.tap("end.history")
    check("history (4 players, ended)")
    r.tap("history.back")  # back to the end screen
    r.tap("end.home")
    check("home (games)")
    shot("home")
    r.tap("home.settings")  # with a game open: its pods listed
    check("settings (pods)")
    shot("settings")
    r.tap("settings.back")
    if r.app.sm.current == "table":
        r.tap("table.home")
    # Eight players on one table, and the end of a game.
    new_game(r, "counters", players=["Ana", "Bernardo", "Cai", "Dolores", "Eva", "Fermín", "Gus", "Hortensia"],
             options=("new.opt.counters.life 20, out at 0",))
    check("table (8 players)")
    shot("table-8-players")
    r.tap("table.pods")
    check("pods (8 players)")
    r.tap("pods.back")
    knock_out(r, ["Bernardo", "Cai", "Dolores", "Eva", "Fermín", "Gus", "Hortensia"])
    check("end")
    if r.app.toast.opacity:  # a message over the final table hides its last rows
        problems.append(f"end: a message covers the final table ({r.app.toast.label.text!r})")
    shot("end")
    r.tap("end.home")
    r.tap("home.stats")  # ten people in the stored games, two of them finished
    deadline = time.monotonic() + 60
    while not r.exists("stats.row.Ana") and time.monotonic() < deadline:
        r.wait(0.1)
    check("statistics")
    r.tap("stats.player.Ana")
    r.tap("stats.player.Bernardo")
    check("statistics, head-to-head")
    r.tap("stats.game.counters")
    check("statistics of one game")
    r.tap("stats.back")
    r.tap("home.settings")
    r.tap("settings.layout.ends")
    r.tap("settings.back")
    for game in all_games():  # six (or the most the game takes): one player at each end of the table
        most = min(6, available()[game].max_players)
        new_game(r, game, players=["Ana", "Bernardo", "Cai", "Dolores", "Eva", "Fermín"][:most])
        check(f"table, seats at the ends, {most} players ({game})")
        shot(f"table-ends-{game}")
        r.tap("table.home")
    r.tap("home.settings")
    r.tap("settings.layout.facing")
    r.tap("settings.back")
    smallest = dict(r.smallest)
    if r.app.sm.current != "table":  # the last game's table: where text has a minimum size
        r.app.go("table")
        r.settle()
    box = r.app.screen("table").box  # the checker's self-test
    # The checker itself must see a clipped label, a small button, text shrunk under its minimum size
    # and buttons side by side at two sizes (else this test proves nothing).
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.floatlayout import FloatLayout

    from tablekeeper.ui.legibility import key_text
    from tablekeeper.ui.widgets import Btn, FitLabel

    stacked = FloatLayout(size_hint=(None, None), size=(120, 40))  # two labels on the same pixels
    for text in ("under", "over"):
        stacked.add_widget(FitLabel(text, size_hint=(None, None), size=(100, 30), pos_hint={"x": 0, "y": 0}))
    # shrunk to fit a narrow box, below the floors (its own lower limit lets it): a word, a number
    tiny = FitLabel("discard pile", min_font=7, size_hint=(None, None), size=(50, 30))
    number = key_text(FitLabel("1234567", min_font=7, size_hint=(None, None), size=(40, 30)))
    uneven = BoxLayout(size_hint=(None, None), size=(300, 50))
    for text, font in (("Home", 20), ("History", 14)):
        uneven.add_widget(Btn(text, base_font=font))
    bad = [FitLabel("a label far too long for its box " * 3, size_hint=(None, None), size=(60, 20)),
           Btn("ok", size_hint=(None, None), size=(30, 30), size_hint_min=(None, None)), stacked, tiny, number,
           uneven]
    for w in bad:
        box.add_widget(w)
    r.frames(3)
    selftest = r.problems()
    return {"problems": problems, "visited": visited, "selftest": selftest, "smallest": smallest}


def _child(argv: list[str]) -> int:
    import random

    from tablekeeper.ui.testing import Robot

    name, state, shots, lang = argv
    kind, _, arg = name.partition(":")
    robot = Robot.start(state, lang=lang or None, rng=random.Random(8))
    try:
        result = SCENARIOS[kind](robot, Path(shots), arg)
        result["unreadable"] = list(robot.seen_unreadable)
        result["raw"] = list(robot.seen_raw)
        result["doc_shots"] = {Path(p).stem: {"path": p, "masks": MASKS.get(Path(p).stem, [])} for p in WRITTEN
                               if Path(p).stem in DOC_SHOTS}
    finally:
        robot.stop()
    print("RESULT " + json.dumps(result, default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
