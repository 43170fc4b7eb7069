"""The Kivy application: screens, routing, and the hand-over from the worker thread.

Imported only once Kivy may be imported (see :mod:`tablekeeper.ui.app`).
The :class:`~tablekeeper.ui.controller.Keeper` worker calls
:meth:`TablekeeperApp._on_snapshot` on its own thread; that only fires one
clock trigger, so any number of updates between two frames cost one refresh,
on the UI thread, with the latest snapshot.
"""
from __future__ import annotations

import time

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, ScreenManager

from . import i18n
from .legibility import MIN_TEXT
from .widgets import AMBER, BG, BLUE, RED, FitLabel, Panel, TurnedBox, tag

#: How long a message stays on screen, seconds.
TOAST_SECONDS = 4.0


class Toast(Panel):
    """A one- or two-line message over the bottom of the screen; a tap on it hides it."""

    def __init__(self, **kw):
        super().__init__(size_hint=(0.96, None), height=dp(56), pos_hint={"center_x": 0.5, "y": 0.015},
                         padding=(dp(10), dp(4)), **kw)
        self.label = tag(FitLabel("", base_font=dp(19), min_font=MIN_TEXT, wrap=True), "toast")
        self.add_widget(self.label)
        self.opacity = 0
        self._hide = Clock.create_trigger(lambda dt: self.hide(), TOAST_SECONDS)

    def show(self, text: str, kind: str):
        self.bg = {"refused": RED, "error": RED, "warning": AMBER}.get(kind, BLUE)
        self.label.color = (0.08, 0.08, 0.08, 1) if kind == "warning" else (1, 1, 1, 1)
        self.label.text = text
        self.opacity = 1
        self.disabled = False
        self._hide.cancel()
        self._hide()

    def hide(self):
        self.opacity = 0
        self.disabled = True
        self.label.text = ""

    def on_touch_down(self, touch):
        # Never swallow a tap: the message is read-only, what is under it still works.
        if self.opacity and self.collide_point(*touch.pos):
            self.hide()
        return False


class Toasts:
    """The message toasts, one per way a seat faces (0: the near side, at the bottom; 180: the far
    side, at the top, turned; 90 and 270: the ends, turned a quarter): a message about what a player
    did is shown toward that player. ``label`` and ``opacity`` are the last shown one's."""

    def __init__(self, root):
        # Their own layer over the whole window: a message shown while a dialog is open is raised
        # above it (a refusal inside the adjust dialog was drawn under it, unseen until it closed).
        self.layer = FloatLayout()
        root.add_widget(self.layer)
        root = self.layer
        self.toasts = {0: Toast()}
        root.add_widget(self.toasts[0])
        places = {180: ({"center_x": 0.5, "top": 0.985}, (0.96, None)),
                  90: ({"right": 0.985, "center_y": 0.5}, (None, 0.96)),
                  270: ({"x": 0.015, "center_y": 0.5}, (None, 0.96))}
        for angle, (pos_hint, size_hint) in places.items():
            toast = Toast()
            tag(toast.label, f"toast.{angle}")
            box = TurnedBox(toast, angle, size_hint=size_hint, pos_hint=pos_hint)
            if size_hint[1] is None:
                box.height = toast.height
            else:
                box.width = toast.height
            self.toasts[angle] = toast
            root.add_widget(box)
        self.shown = self.toasts[0]

    @property
    def label(self):
        return self.shown.label

    @property
    def opacity(self) -> float:
        return max(t.opacity for t in self.toasts.values())

    def widgets(self) -> list:
        return list(self.toasts.values())

    def show(self, text: str, kind: str, angle: float = 0):
        for a, toast in self.toasts.items():
            if a != int(angle) % 360:
                toast.hide()
        self.shown = self.toasts.get(int(angle) % 360, self.toasts[0])
        self._raise()
        self.shown.show(text, kind)

    def _raise(self) -> None:
        """Above whatever is open: the dialogs are the window's own children, on top of the screens."""
        win = self.layer.get_root_window()
        if win is None or (win.children and win.children[0] is self.layer):
            return
        if any(isinstance(c, ModalView) for c in win.children):
            self.layer.parent.remove_widget(self.layer)
            win.add_widget(self.layer)  # the window lays it out over all of it, like a dialog

    def hide(self):
        for toast in self.toasts.values():
            toast.hide()


class TablekeeperApp(App):
    """The touchscreen app.

    ``keeper``: the started worker. ``settings``: :class:`~tablekeeper.ui.settings.Settings`.
    ``pods``: a :class:`~tablekeeper.ui.virtual_pods.VirtualPods` (mock mode) or None.
    ``hardware``: real pods (an object with ``status()`` and ``brightness(level)``) or None.
    """

    def __init__(self, keeper, settings, *, pods=None, hardware=None, **kw):
        super().__init__(**kw)
        self.keeper = keeper
        self.settings = settings
        self.pods = pods
        self.hardware = hardware
        self.title = "tablekeeper"
        self.snapshot = keeper.snapshot
        self._shown_table = None  # (game_id, over) last routed
        self._shown_before = None
        self._screens = {}
        self.dialogs = []  # open dialogs, updated with every snapshot
        self.first_frame_at: float | None = None
        self.table_frame_at: float | None = None
        #: Life under systemd (tablekeeper.ui.service): set by ``main``; None in tests.
        self.lifecycle = None

    # -- building ----------------------------------------------------------------------
    def build(self):
        Window.clearcolor = BG
        self.root_box = FloatLayout()
        self.sm = ScreenManager(transition=NoTransition())
        self.root_box.add_widget(self.sm)
        self.toast = Toasts(self.root_box)
        self._refresh_trigger = Clock.create_trigger(self._refresh, 0)
        self.keeper.listeners.append(self._on_snapshot)
        # The journal opens (and the last unfinished game resumes) on the worker
        # while the window was being made; wait for it briefly so a restart
        # shows the table at once, without building the home screen first.
        self.keeper.wait_idle(timeout=1.0)
        self.snapshot = self.keeper.snapshot
        self._route(self.snapshot)
        if not self.sm.current:
            self.go("home")
        else:
            self.current.update(self.snapshot)
        self._refresh_trigger()
        Window.bind(on_flip=self._on_flip)
        if self.hardware is not None:
            Clock.schedule_interval(lambda dt: self.hardware.tick(), 1.0)
        return self.root_box

    def _on_flip(self, *_):
        now = time.perf_counter()
        if self.first_frame_at is None:
            self.first_frame_at = now
            if self.lifecycle is not None:
                table = self.snapshot.table
                self.lifecycle.ready(f"game {table.game_id} ({table.game})" if table else "home screen")
                # The watchdog is petted from this clock: a hung UI stops petting.
                Clock.schedule_interval(lambda dt: self.lifecycle.tick(), self.lifecycle.tick_every(1.0))
        if self.table_frame_at is None and self.sm.current == "table" and self.snapshot.table is not None:
            self.table_frame_at = now

    def screen(self, name: str):
        """The screen ``name``, built the first time it is needed."""
        scr = self._screens.get(name)
        if scr is None:
            from . import screens

            cls = screens.screen_class(name)
            scr = cls(self, name=name)
            self._screens[name] = scr
            self.sm.add_widget(scr)
        return scr

    def go(self, name: str, **kw):
        scr = self.screen(name)
        self.sm.current = name
        scr.update(self.snapshot, **kw)

    @property
    def current(self):
        return self._screens.get(self.sm.current)

    def rebuild(self):
        """Drop every screen (after a language change) and show the current one again."""
        current = self.sm.current
        for scr in list(self._screens.values()):
            self.sm.remove_widget(scr)
        self._screens.clear()
        self.go(current)

    def set_language(self, code: str | None):
        self.settings.language = code
        i18n.set_language(code or i18n.system_language())
        self.keeper.set_catalog(i18n.catalog())  # the pods speak it too
        self.save_settings()
        self.rebuild()

    def save_settings(self):
        # Off the UI thread: the file is fsynced.
        self.keeper.call(lambda keeper: self.settings.save())

    # -- updates from the worker ---------------------------------------------------------
    def remember_table(self, game_id: int, pods: dict[str, int], colours: dict[str, int]) -> None:
        """Store a new game's seats and colours (the journal worker calls this once the game exists),
        then show the table again: it may have been drawn before they were stored."""
        self.settings.set_seats(game_id, pods)
        self.settings.set_colours(game_id, colours)
        self.settings.save()
        self._refresh_trigger()  # thread-safe

    def _on_snapshot(self, snap):
        self._refresh_trigger()  # thread-safe; many calls before a frame = one refresh

    def _refresh(self, *_):
        snap = self.keeper.snapshot
        self.snapshot = snap
        self._route(snap)
        scr = self.current
        if scr is not None:
            scr.update(snap)
        for dialog in list(self.dialogs):
            dialog.update(snap)
        notices = self.keeper.notices()
        if notices:
            last = notices[-1]
            text = i18n.engine_text(last.text) if last.text else ""
            if last.lines:
                lines = [i18n.engine_text(x) for x in last.lines]
                text = "; ".join(lines) if last.kind == "events" and last.text != "nothing changed" else (
                    text + ": " + "; ".join(lines))
            if last.kind == "events" and self.sm.current == "end" and hasattr(scr, "show_events"):
                scr.show_events(text)  # how the game ended: under the winners, not over the final table
            else:
                angles = getattr(scr, "angles", {}) if self.sm.current == "table" else {}
                self.toast.show(text, last.kind, angles.get(last.who, 0))  # toward who did it

    def _route(self, snap):
        table = snap.table
        key = (table.game_id, table.over) if table is not None else None
        if key == self._shown_table:
            return
        self._shown_before, self._shown_table = self._shown_table, key
        for dialog in list(self.dialogs):  # they were about the table that just changed
            dialog.dismiss()
        name = self.sm.current
        if table is None:
            if not name or name in ("table", "end", "history", "pods"):
                self.screen("home")
                self.sm.current = "home"
            return
        if table.over:
            self.toast.hide()  # a message from the last moves would cover the final table
            self.screen("end")
            self.sm.current = "end"
            if self.lifecycle is not None and self._shown_before == (table.game_id, False):
                # A game just ended: back the journal up, on the worker (file I/O).
                self.keeper.call(lambda keeper: self.lifecycle.game_finished())
        elif not name or name in ("home", "new", "end"):
            self.screen("table")
            self.sm.current = "table"

    # -- actions -------------------------------------------------------------------------
    def submit(self, action: dict, done=None):
        """Queue an action for the journal worker; ``done(outcome or error)`` runs on the worker."""
        self.keeper.submit(action, done)

    def open_game(self, game_id: int):
        """Show a stored game: the table if it goes on, the end screen if it is over."""
        table = self.snapshot.table
        if table is not None and table.game_id == game_id:
            self.go("end" if table.over else "table")
            return
        self.keeper.open_game(game_id)

    def apply_brightness(self):
        scr = self._screens.get("pods")
        if scr is not None and self.sm.current == "pods":
            scr.redraw()
        if self.hardware is not None:
            self.hardware.brightness(self.settings.brightness)

    def hardware_status(self):
        """Per pod: (number, player, "connected" | "virtual" | "mock" | "missing" | "error" | "stuck", detail)."""
        table = self.snapshot.table
        if self.hardware is not None:
            return self.hardware.status()
        if self.pods is not None and table is not None:
            from .podlink import stuck_detail

            return [(n, player, "stuck", stuck_detail(table.pods[n].stuck)) if table.pods[n].stuck
                    else (n, player, "virtual", "") for n, player in self.pods.seats(table)]
        return []

    def on_stop(self):
        if self.hardware is not None:
            self.hardware.close()  # blank the displays (queued before the worker stops)
        if getattr(self, "club", None) is not None:
            self.club.stop()  # the club hears "offline"; the journal keeps what it has not acknowledged
        self.keeper.stop()
        if self.lifecycle is not None:
            self.lifecycle.stopping("stopped")
