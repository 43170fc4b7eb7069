"""What the app does to keep its memory down, tested without a window.

The figures are in docs/benchmarks.md (bench/bench_app.py); the rendered app's share (a frame flushed
after each panel) is checked in test_app.py.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: A child that allocates on a second thread, then counts the process's malloc arenas (glibc's
#: ``malloc_info`` writes one ``<heap nr=...>`` per arena).
ARENAS = """
import ctypes, os, sys, tempfile, threading
from tablekeeper.ui.app import one_malloc_arena
if sys.argv[1] == "configure":  # what the app does before its journal worker starts
    from tablekeeper.ui.app import configure_kivy
    configure_kivy()
    set_here = "configured"
else:
    set_here = one_malloc_arena() if sys.argv[1] == "one" else False
keep = []
worker = threading.Thread(target=lambda: keep.extend(bytes(4000 + i) for i in range(2000)))
worker.start()
worker.join()
libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
path = os.path.join(tempfile.mkdtemp(), "info.xml")
stream = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, stream)
libc.fclose(stream)
print(set_here, open(path).read().count("<heap nr="))
"""


def _arenas(mode: str, tmp_path, **env) -> tuple[str, int]:
    child_env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    child_env.update({"KIVY_HOME": str(tmp_path / "kivy"), **env})
    out = subprocess.run([sys.executable, "-c", ARENAS, mode], capture_output=True, text=True, check=True,
                         env=child_env, timeout=60).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc arenas")
def test_the_journal_worker_and_other_threads_allocate_from_the_main_threads_malloc_arena(tmp_path):
    # without the setting, a thread that allocates gets an arena of its own (the test sees a difference)
    assert _arenas("default", tmp_path) == ("False", 2)
    assert _arenas("one", tmp_path) == ("True", 1)
    # the app's start sets it (configure_kivy runs before the journal worker starts)
    assert _arenas("configure", tmp_path) == ("configured", 1)
    # MALLOC_ARENA_MAX, set by whoever runs the app, is left as it is
    assert _arenas("one", tmp_path, MALLOC_ARENA_MAX="4") == ("False", 2)


@pytest.mark.parametrize("renderer, software", [
    (b"llvmpipe (LLVM 15.0.6, 256 bits)", True),
    (b"softpipe", True),
    (b"V3D 4.2", False),  # the Pi 4's GPU
    (b"VC4 V3D 2.1", False),  # the Pi 3's
    (b"Mesa Intel(R) UHD Graphics 620 (KBL GT2)", False),
])
def test_only_software_gl_is_flushed_after_each_panel(monkeypatch, renderer, software):
    from tablekeeper.ui import widgets

    monkeypatch.setattr(widgets, "_software_gl", None)
    monkeypatch.setattr(widgets, "glGetString", lambda name: renderer)
    flushes = []
    monkeypatch.setattr(widgets, "glFlush", lambda: flushes.append(1))
    widgets.flush_software_gl()
    widgets.flush_software_gl()
    assert widgets.software_gl() is software
    assert len(flushes) == (2 if software else 0)


#: A child that configures Kivy as the app does, then says what it loaded, whether the clock still runs
#: (by itself, as the app runs it, and under asyncio) and whether asyncio and TLS still work.
CLOCK = """
import sys
from tablekeeper.ui.app import configure_kivy
configure_kivy()
loaded = [m for m in ("kivy.clock", "asyncio", "ssl") if m in sys.modules]
from kivy.clock import Clock
ran = []
Clock.schedule_once(lambda dt: ran.append("tick"), 0)
Clock.tick()
after_tick = "asyncio" in sys.modules
async def under_asyncio():  # what App.async_run does with the clock
    Clock.schedule_once(lambda dt: ran.append("async"), 0)
    await Clock.async_idle()
    Clock._process_events()
import asyncio
asyncio.run(under_asyncio())
import ssl
ssl.create_default_context()  # the club's publisher connects over TLS: still there when imported
print(" ".join(loaded) or "-", after_tick, " ".join(ran), asyncio.sslproto.ssl is ssl)
"""


def test_kivys_clock_is_loaded_without_asyncio_nor_openssl_which_stay_importable(tmp_path):
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy")}
    out = subprocess.run([sys.executable, "-c", CLOCK], capture_output=True, text=True, check=True, env=env,
                         timeout=60).stdout.split()
    # the clock is loaded, asyncio and OpenSSL are not, nor by the clock's ticks; the clock still runs under
    # asyncio when something runs it so, and asyncio imported then has its TLS
    assert out == ["kivy.clock", "False", "tick", "async", "True"]


def _config(tmp_path, monkeypatch, text: str | bytes | None):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    from tablekeeper.hardware import config as pods_config

    monkeypatch.setattr(pods_config, "SYSTEM_PATH", tmp_path / "etc" / "tablekeeper.toml")
    if text is not None:
        path = tmp_path / "xdg" / "tablekeeper" / "tablekeeper.toml"
        path.parent.mkdir(parents=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())


@pytest.mark.parametrize("text, maybe", [
    (None, False),  # no config file: no club, its modules are not imported
    ("[[seats]]\nbackend = 'mock'\n", False),  # the pods' file without [club]
    ("[club]\ntable = 'mesa-1'\n", True),
    ("[club\n", True),  # not TOML: the club's config check says so
    (b"[club]\ntable = '\xff'\n", True),  # not UTF-8: the same
])
def test_the_club_is_looked_for_only_in_a_config_file_with_a_club_table(tmp_path, monkeypatch, text, maybe):
    from tablekeeper.ui.app import _club_table_maybe

    _config(tmp_path, monkeypatch, text)
    assert _club_table_maybe() is maybe


def test_a_config_file_named_but_missing_leaves_the_club_to_say_so(tmp_path, monkeypatch):
    from tablekeeper.ui.app import _club_table_maybe

    _config(tmp_path, monkeypatch, None)
    monkeypatch.setenv("TABLEKEEPER_CONFIG", str(tmp_path / "nowhere.toml"))
    assert _club_table_maybe() is True


#: A child that asks for one game's dialogs and board, as the table does, then says which games' modules
#: (the app's dialogs, the engine's rules) are imported.
GAME_DIALOGS = """
import sys
from tablekeeper.ui import games
before = [m for m in sys.modules if m.startswith(("tablekeeper.ui.games.", "tablekeeper.engine.games."))]
assert games.dialogs_for(sys.argv[1]) == games.dialogs_for(sys.argv[1])
games.board_for(sys.argv[1])
after = sorted({m.split(".")[3] for m in sys.modules if m.startswith(("tablekeeper.ui.games.", "tablekeeper.engine.games."))})
print(len(before), len(games.dialogs_for(sys.argv[1])), " ".join(after))
"""


@pytest.mark.parametrize("game, loaded", [
    ("red-dragon-inn", "red_dragon_inn"),  # its rules and its dialogs, no other game's
    ("counters", "counters"),  # a game without dialogs of its own: its rules alone
])
def test_a_table_imports_its_own_games_dialogs_alone(tmp_path, game, loaded):
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1"}
    out = subprocess.run([sys.executable, "-c", GAME_DIALOGS, game], capture_output=True, text=True, check=True,
                         env=env, timeout=60).stdout.split()
    assert out[0] == "0"  # importing the package imports no game
    assert (int(out[1]) > 0) is (game != "counters")
    assert out[2:] == [loaded]
