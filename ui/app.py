"""``tablekeeper run``: the touchscreen app (Kivy), or the headless player without a display.

This module must stay importable without Kivy (the command line imports it to
build its parser): Kivy is imported inside the functions that need it.

On Linux with no ``DISPLAY``, no ``WAYLAND_DISPLAY`` and no
``SDL_VIDEODRIVER`` there is nowhere to draw: ``run`` says so in one line and
starts the headless player (``tablekeeper serve`` when the hardware package
provides it, else the scripted demo). On the Pi's bare console set
``SDL_VIDEODRIVER=kmsdrm``; headless tests use ``SDL_VIDEODRIVER=offscreen``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

DEFAULT_SIZE = (800, 480)  # the Raspberry Pi 7" touchscreen


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``tablekeeper run``."""
    parser.add_argument("--size", default=None, metavar="WxH",
                        help="window size in pixels (default 800x480, the Pi touchscreen)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (the appliance)")
    parser.add_argument("--lang", choices=("es", "en"), default=argparse.SUPPRESS,
                        help="language on screen (default: the saved setting, else the system locale)")
    parser.add_argument("--pods", choices=("auto", "hardware", "virtual", "none"), default="auto",
                        help="hardware: the pods of the config file (tablekeeper.toml, see docs/hardware.md); "
                             "virtual: the seats' pods on screen with clickable buttons (mock mode); "
                             "auto (default): hardware when a config file exists, else virtual; none: no pods")
    parser.add_argument("--headless", action="store_true",
                        help="do not open a window: run the headless player (pods as text)")
    parser.add_argument("--screenshot", default=None, metavar="PNG",
                        help="save a screenshot of the first screen to PNG and quit")


def no_display_reason(environ=None, platform: str | None = None) -> str | None:
    """Why no window can open here, or None. Only Linux can tell from the environment."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if not platform.startswith("linux"):
        return None
    if any(env.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")):
        return None
    return "no display (DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER are unset)"


def parse_size(text: str | None) -> tuple[int, int]:
    if not text:
        return DEFAULT_SIZE
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"tablekeeper run: --size must look like 800x480, not {text!r}") from None
    if w < 320 or h < 240:
        raise SystemExit(f"tablekeeper run: --size {text} is too small (at least 320x240)")
    return w, h


def one_malloc_arena() -> bool:
    """Every thread allocates from the main thread's malloc arena (glibc; elsewhere nothing changes).

    glibc gives each new thread an arena of its own (up to 8 per core), whose freed memory stays with
    it: the journal worker's and Mesa's shader-cache writer's cost the app 4-5 MB of its peak
    (bench/bench_app.py, docs/benchmarks.md). Threads that allocate seldom, like these, lose nothing
    by sharing. Takes effect for the arenas made after the call: call it before any thread starts.
    ``MALLOC_ARENA_MAX`` in the environment wins. True when set here.
    """
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # a C library without mallopt
        return False
    M_ARENA_MAX = -8
    return bool(mallopt(M_ARENA_MAX, 1))


def configure_kivy(size=DEFAULT_SIZE, *, fullscreen=False, fps: int = 60) -> None:
    """Set Kivy up before its window exists: size, quiet logs, no Kivy argv parsing, Mesa.

    Kivy keeps its own config and logs in ``KIVY_HOME`` (default here: the
    user's cache folder, not ``~/.kivy``).
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    one_malloc_arena()
    # Mesa's software renderer (llvmpipe: a PC without a GPU, the headless tests)
    # leaks ~20 KB per textured widget put on screen when it rasterises on
    # threads: +2 MB per screen switch, measured (docs/app.md). One thread does
    # not leak, and draws this UI fast enough. GPU drivers ignore the variable.
    os.environ.setdefault("LP_NUM_THREADS", "0")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # warnings and errors only, through logging
    # A snapshot from the journal worker wakes the sleeping frame at once instead of at
    # the next 60 Hz tick (touch-to-frame −7 ms median, bench_app).
    os.environ.setdefault("KIVY_CLOCK", "interrupt")
    if "KIVY_HOME" not in os.environ:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        os.environ["KIVY_HOME"] = os.path.join(cache, "tablekeeper", "kivy")
        os.makedirs(os.environ["KIVY_HOME"], exist_ok=True)  # Kivy makes only the last folder
    from kivy.config import Config

    w, h = size
    Config.set("graphics", "width", str(w))
    Config.set("graphics", "height", str(h))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "maxfps", str(fps))
    # No multisampling (Kivy's default asks for 2 samples a pixel): the table is text and upright
    # rectangles, which it does not smooth, and the multisampled window's buffers cost 12-13 MB of the
    # app's peak memory with Mesa (27 MB of an empty window's), bench/bench_app.py (docs/benchmarks.md).
    Config.set("graphics", "multisamples", "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "")
    Config.set("input", "mouse", "mouse,disable_multitouch")  # a right click is not a second finger
    kivy_clock_without_asyncio()


class _EventWhenWaited:
    """An ``asyncio.Event`` that is a flag until something waits on it (the interrupting clock sets it at
    every schedule, and waits on it only when run by asyncio): the real event is made at the first wait."""

    def __init__(self) -> None:
        self._flag = False
        self._real: Any = None  # the asyncio.Event, once waited on

    def _event(self):
        if self._real is None:
            import asyncio

            self._real = asyncio.Event()
            if self._flag:
                self._real.set()
        return self._real

    def set(self) -> None:
        if self._real is None:
            self._flag = True
        else:
            self._real.set()

    def clear(self) -> None:
        if self._real is None:
            self._flag = False
        else:
            self._real.clear()

    def is_set(self) -> bool:
        return self._flag if self._real is None else self._real.is_set()

    def wait(self):
        return self._event().wait()


class _AsyncioWhenUsed(types.ModuleType):
    """What Kivy's clock takes for asyncio: the real module is imported the first time the clock uses it
    (``app.async_run``, which this app does not call). ``wait_for`` and ``Event``, which the clock reads
    as it is made, import it only when called or waited on."""

    def __init__(self) -> None:
        super().__init__("asyncio")

        def wait_for(awaitable, timeout):
            import asyncio

            return asyncio.wait_for(awaitable, timeout)

        self.wait_for = wait_for
        self.Event = _EventWhenWaited

    def __getattr__(self, name: str):
        if sys.modules.get("asyncio") is self or name.startswith("__"):  # the clock is still being imported
            raise AttributeError(name)
        import asyncio  # the real one: this stand-in is in sys.modules only while the clock is imported

        return getattr(asyncio, name)


def kivy_clock_without_asyncio() -> None:
    """Import Kivy's clock (after its config: it reads it) without loading asyncio.

    The clock imports asyncio as it is made, for ``App.async_run``, which this app does not use: asyncio
    (29 modules) and the OpenSSL it imports when it can (``ssl``, libcrypto) are about 2.5 and 4.6 MB of
    the app's peak memory (bench/bench_app.py, docs/benchmarks.md). The clock gets a stand-in that imports
    asyncio the first time it is used. Everything else imports the real asyncio (and ``ssl``, as the
    club's MQTT publisher does, over TLS) as usual. Nothing is done if the clock or asyncio is loaded.
    """
    if any(name in sys.modules for name in ("kivy.clock", "asyncio")):
        return
    stand_in = _AsyncioWhenUsed()
    sys.modules["asyncio"] = stand_in
    try:
        import kivy.clock  # noqa: F401
    finally:
        if sys.modules.get("asyncio") is stand_in:
            del sys.modules["asyncio"]


def build_app(state_dir=None, *, lang: str | None = None, pods: str = "virtual", rng=None, durable=True):
    """The app, its journal worker started (the last unfinished game resuming).

    Call :func:`configure_kivy` first. Used by :func:`main`, the UI tests and
    the benchmark.
    """
    from ..engine import default_state_dir
    from . import i18n
    from .controller import Keeper
    from .settings import Settings

    folder = Path(state_dir) if state_dir is not None else default_state_dir()
    settings = Settings(folder)
    i18n.set_language(lang or settings.language or i18n.system_language())
    # The one owner: the journal, the open game and every seat's pod (virtual or real) on its worker. It
    # follows the journal: a game started elsewhere (`tablekeeper new`) opens here, as on `serve`.
    keeper = Keeper(folder, rng=rng, durable=durable, pods=pods != "none", catalog=i18n.catalog(),
                    numbering=settings.seats, follow=True).start(resume=True)
    virtual = hardware = None
    if pods in ("auto", "hardware"):
        from . import podlink

        try:
            cfg = podlink.configured()
        except Exception as e:  # a bad config file: say which key, keep the touchscreen going
            cfg = None
            keeper._notice("error", f"the pods' config: {e}")
            print(f"tablekeeper run: the pods' config: {e}", file=sys.stderr)
        if cfg is not None:
            hardware = podlink.PodLink(keeper, cfg, brightness=settings.brightness)
        elif pods == "hardware":
            print("tablekeeper run: --pods hardware: no pods config file found (see docs/hardware.md)",
                  file=sys.stderr)
        else:
            pods = "virtual"
    if pods == "virtual":
        from . import virtual_pods as pods_mod

        reason = pods_mod.available()
        if reason is None:
            virtual = pods_mod.VirtualPods(keeper)
        else:
            print(f"tablekeeper run: no virtual pods: {reason}", file=sys.stderr)
    club = _club(folder, keeper)
    from .kivyapp import TablekeeperApp

    app = TablekeeperApp(keeper, settings, pods=virtual, hardware=hardware)
    app.club = club  # the club's publisher (its ``online`` for the status), or None: club mode off
    if settings.problem:
        keeper._notice("warning", settings.problem)
    return app


def _club(folder: Path, keeper):
    """With a ``[club]`` table in the config file: the club's publisher, following the keeper; else None."""
    if not _club_table_maybe():
        return None
    from .club.config import club_settings

    try:
        club = club_settings(None)
    except Exception as e:  # a bad [club] table: say which key, keep the touchscreen going
        keeper._notice("error", f"the club's config: {e}")
        print(f"tablekeeper run: the club's config: {e}", file=sys.stderr)
        return None
    if club is None:
        return None
    from .club.publisher import Publisher

    return Publisher(club, folder).attach(keeper).start()


def _club_table_maybe() -> bool:
    """False when the config file surely has no ``[club]`` table (there is no file, or its TOML has none):
    the club's modules (1.2 MB of the app's memory) are then not imported. Any doubt (a file that cannot
    be read, bad TOML) is True: the club's own config check says what is wrong."""
    import tomllib

    from ..hardware import config as pods_config
    from ..hardware.errors import ConfigError

    try:
        found = pods_config.find(None)
        if found is None:
            return False
        return "club" in tomllib.loads(found.read_text(encoding="utf-8"))
    except (OSError, ValueError, ConfigError):  # ValueError: not UTF-8, not TOML
        return True


def main(args) -> int:
    """Run the app; returns the exit status."""
    from . import service  # life under systemd: boot check, READY, watchdog, backups (no-ops elsewhere)

    state_dir = getattr(args, "state_dir", None)
    report = service.start(state_dir)  # the boot check, before the game is opened
    for line in report.lines():
        print(f"tablekeeper run: {line}", file=sys.stderr)
    configure_kivy(parse_size(getattr(args, "size", None)), fullscreen=getattr(args, "fullscreen", False))
    app = build_app(state_dir, lang=getattr(args, "lang", None), pods=getattr(args, "pods", "auto"))
    app.lifecycle = service
    for line in ([] if report.ok else report.lines()):
        app.keeper._notice("warning", line)
    import signal

    from kivy.clock import Clock

    # systemd stops the app with SIGTERM: leave through App.stop (pods blanked, STOPPING=1).
    signal.signal(signal.SIGTERM, lambda signum, frame: Clock.schedule_once(lambda dt: app.stop(), 0))
    shot = getattr(args, "screenshot", None)
    if shot:
        def take(dt):
            if app.keeper.busy or app.first_frame_at is None:
                return  # wait for the resumed game and the first frame
            Clock.schedule_once(lambda dt: (save_screenshot(shot), app.stop()), 0.3)  # laid out, drawn
            return False

        Clock.schedule_interval(take, 0.1)
    app.run()
    return 0


def save_screenshot(path) -> Path:
    """Draw the current frame and save the window's pixels as a PNG (atomically)."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
    from PIL import Image

    Window.dispatch("on_draw")
    w, h = Window.system_size
    data = glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
    img = Image.frombytes("RGBA", (w, h), data).transpose(Image.Transpose.FLIP_TOP_BOTTOM).convert("RGB")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".shot-", suffix=".png", dir=path.parent)
    os.close(fd)
    try:
        img.save(tmp, "PNG", optimize=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
