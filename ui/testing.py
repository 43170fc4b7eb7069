"""Drive the real app by touches, frame by frame, without a screen (tests, benchmarks, docs).

Shipped with the package, like gpiozero's mock pins: a :class:`Robot` starts
the app in this process (Kivy allows one window per process, so run one robot
per process), finds widgets by their test id (:func:`tablekeeper.ui.widgets.tag`),
taps them with synthetic touches dispatched through Kivy's own input path,
waits for the journal worker, and saves real screenshots.

Run headless with ``SDL_VIDEODRIVER=offscreen`` (Mesa's llvmpipe renders the
pixels) or under Xvfb.
"""
from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

from .app import save_screenshot  # noqa: F401 - the tests' name for it

_ids = itertools.count(1000)

#: A name meant for code on screen: words joined by "_" ("set_market"), or a field and its value joined by "="
#: ("slot=0"). (Kivy markup, "[color=...]", is taken out first.)
_RAW = re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b|\b[a-z_]+=\S")


def _touch_class():
    from kivy.base import EventLoop
    from kivy.input.motionevent import MotionEvent

    class RobotTouch(MotionEvent):
        """A finger: down, (move), up — through the event loop like a real touch."""

        def __init__(self, x, y):
            win = EventLoop.window
            super().__init__("robot", next(_ids), {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
                             is_touch=True, type_id="touch")
            self.profile = ["pos"]

        def depack(self, args):
            self.sx, self.sy = args["x"], args["y"]
            super().depack(args)

        def down(self):
            EventLoop.post_dispatch_input("begin", self)

        def up(self):
            EventLoop.post_dispatch_input("end", self)

        def slide(self, x, y):
            win = EventLoop.window
            self.move({"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)})  # MotionEvent's own
            EventLoop.post_dispatch_input("update", self)

    return RobotTouch


class Robot:
    """The running app and a finger.

    ``Robot.start(state_dir, ...)`` builds and starts the app without its
    main loop; every method then advances frames itself.
    """

    def __init__(self, app):
        from kivy.base import EventLoop

        self.app = app
        self.loop = EventLoop
        self.Touch = _touch_class()
        #: the smallest text :meth:`problems` has seen drawn, by kind ("text", "names and numbers"):
        #: (its size in px, where)
        self.smallest: dict[str, tuple[float, str]] = {}
        #: every label :meth:`settle` has seen drawn under its minimum size, on whatever screen or dialog
        #: the taps opened (:meth:`unreadable`), each once
        self.seen_unreadable: dict[str, None] = {}
        #: every text :meth:`settle` has seen on screen holding an identifier (:meth:`raw_words`), each once
        self.seen_raw: dict[str, None] = {}

    @classmethod
    def start(cls, state_dir, *, lang="en", size=(800, 480), pods="virtual", rng=None, fps=0) -> Robot:
        from .app import build_app, configure_kivy

        configure_kivy(size, fps=fps)
        app = build_app(state_dir, lang=lang, pods=pods, rng=rng)
        from kivy.base import runTouchApp

        app._run_prepare()
        runTouchApp(embedded=True)  # start the event loop; we turn it ourselves
        robot = cls(app)
        robot.settle()
        return robot

    def stop(self) -> None:
        self.app.stop()
        self.app.keeper.stop()

    # -- time -------------------------------------------------------------------------------
    def frames(self, n: int = 1) -> None:
        for _ in range(n):
            self.loop.idle()

    def settle(self, timeout: float = 15.0, *, still: int = 2, most: int = 40) -> None:
        """Until the journal worker is idle and the screen stands still.

        Standing still: the same widgets in the same places with the same texts for ``still``
        frames in a row. A dialog's preview comes back from the worker a few frames after the
        worker is idle and grows the dialog; a tap computed before that lands where the key was.
        After ``most`` frames the screen is taken as it is (something may animate for ever).
        """
        deadline = time.monotonic() + timeout
        self.frames(2)
        last, same, frames = None, 0, 0
        while same < still and frames < most:
            if self.app.keeper.busy:
                if time.monotonic() > deadline:
                    raise TimeoutError("the journal worker is still busy")
                time.sleep(0.002)
                self.frames(1)
                last, same = None, 0
                continue
            self.frames(1)
            frames += 1
            now = self._layout()
            same = same + 1 if now == last else 0
            last = now
        self.seen_unreadable.update(dict.fromkeys(self.unreadable()))
        self.seen_raw.update(dict.fromkeys(self.raw_words()))

    def raw_words(self) -> list[str]:
        """The texts on screen now (the screen and any dialog on it) that hold a name meant for code, not
        for players: an identifier ("set_market", "elven_wine") or a field given as ``name=value``."""
        from kivy.uix.label import Label

        out = []
        for w in self.widgets():
            if isinstance(w, Label) and w.text and self.visible(w):
                found = _RAW.search(re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", w.text) if w.markup else w.text)
                if found:
                    out.append(f"{self.app.sm.current}: {_name(w)} says {found.group(0)!r}")
        return out

    def unreadable(self) -> list[str]:
        """The labels on screen now (the screen and any dialog on it) drawn under their minimum size:
        :mod:`tablekeeper.ui.legibility`; no text is measured, so it is cheap enough for every settle."""
        from kivy.uix.label import Label

        from .legibility import too_small

        out = []
        for w in self.widgets():
            if isinstance(w, Label) and w.text and w.width > 0 and self.visible(w):
                small = too_small(w)
                if small:
                    out.append(f"{self.app.sm.current}: {_name(w)} is {small}")
        return out

    def _layout(self) -> tuple:
        """Where every visible tagged widget is and what it says (what a tap depends on)."""
        out = []
        for w in self.widgets():
            tid = getattr(w, "tid", None)
            if tid and self.visible(w):
                out.append((tid, *map(round, w.to_window(w.x, w.y)), round(w.width), round(w.height),
                            getattr(w, "text", None)))
        return tuple(out)

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.frames(1)
            time.sleep(0.01)

    # -- finding -------------------------------------------------------------------------------
    def widgets(self):
        from kivy.core.window import Window

        from .widgets import walk

        for top in list(Window.children):
            yield from walk(top)

    def tids(self) -> list[str]:
        return [w.tid for w in self.widgets() if getattr(w, "tid", None)]

    def find(self, tid: str):
        """The visible widget with test id ``tid`` (topmost dialog first)."""
        for w in self.widgets():
            if getattr(w, "tid", None) == tid and self.visible(w):
                return w
        near = sorted({t for t in self.tids() if t.split(".")[0] == tid.split(".")[0]})
        raise LookupError(f"no visible widget {tid!r} on screen {self.app.sm.current!r}; "
                          f"there are: {', '.join(near[:40])}")

    def exists(self, tid: str) -> bool:
        try:
            self.find(tid)
            return True
        except LookupError:
            return False

    @staticmethod
    def visible(w) -> bool:
        node = w
        while node is not None and node is not node.parent:
            if getattr(node, "opacity", 1) == 0 or getattr(node, "height", 1) <= 0:
                return False
            node = node.parent
        return True

    def text(self, tid: str) -> str:
        return self.find(tid).text

    # -- touching -------------------------------------------------------------------------------
    def tap(self, tid: str, *, settle: bool = True) -> None:
        """Tap the centre of the widget ``tid`` (scrolled into view first)."""
        w = self.find(tid)
        if w.disabled:
            raise AssertionError(f"{tid!r} is disabled")
        scrolled = self._into_view(w)
        x, y = w.to_window(*w.center)
        pressed = []  # the widget went down (a button's state), or said it was pressed
        press = (w.fbind("state", lambda _w, v: pressed.append(v) if v == "down" else None) if hasattr(w, "state")
                 else w.fbind("on_press", lambda *_: pressed.append(1)) if w.is_event_type("on_press") else None)
        touch = self.Touch(x, y)
        touch.down()
        if not scrolled and hasattr(w, "state") and w.state != "down":
            touch.up()
            raise AssertionError(f"a tap on {tid!r} at ({x:.0f}, {y:.0f}) did not reach it "
                                 f"(what is on top there: {self._top_at(x, y)})")
        self.frames(1)
        touch.up()
        if scrolled:
            self.wait(0.25)  # a ScrollView hands a tap's release to its child 0.2 s later
        if press is not None:
            w.unbind_uid("state" if hasattr(w, "state") else "on_press", press)
            if scrolled and not pressed:  # in a ScrollView the tap is handed on late: it must still land
                raise AssertionError(f"a tap on {tid!r} at ({x:.0f}, {y:.0f}) did not press it "
                                     f"(what is on top there: {self._top_at(x, y)}; {self._scroll_of(w)})")
        if settle:
            self.settle()
        else:
            self.frames(2)

    def _scroll_of(self, w) -> str:
        """Where ``w`` is in its scroll area, if it is in one (what a missed tap needs said)."""
        node = self._scroll_area(w)
        if node is None:
            return "not in a scroll area"
        vp = node._viewport
        return (f"scroll area at y {node.to_window(node.x, node.y)[1]:.0f}, {node.height:.0f} high, "
                f"scroll_y {node.scroll_y:.3f}, content {vp.height if vp else 0:.0f} high; "
                f"the widget at y {w.y:.0f} in it, window y {w.to_window(w.x, w.y)[1]:.0f}")

    def _top_at(self, x, y) -> str:
        # The window's children come topmost first (a dialog before the screen under it): the first
        # hits say what is on top, the last ones the deepest widget of the screen.
        hits = [w for w in self.widgets() if self.visible(w) and w.collide_point(*w.to_widget(x, y))]
        names = [getattr(w, "tid", None) or type(w).__name__ for w in hits]
        return ", ".join(names if len(names) <= 6 else names[:2] + ["…"] + names[-4:])

    def drag(self, tid: str, dy: float, steps: int = 6):
        """Put a finger on ``tid`` and slide it ``dy`` pixels up (negative: down), a frame a step; the
        finger stays down: the caller lifts it (``.up()``) after looking."""
        w = self.find(tid)
        x, y = w.to_window(*w.center)
        touch = self.Touch(x, y)
        touch.down()
        self.frames(1)
        for i in range(1, steps + 1):
            touch.slide(x, y + dy * i / steps)
            self.frames(1)
        return touch

    def window_y(self, tid: str) -> float:
        w = self.find(tid)
        return w.to_window(w.x, w.y)[1]

    def press(self, tid: str, seconds: float) -> None:
        """Hold a finger on ``tid`` for ``seconds`` (holds and repeats fire), then lift it."""
        w = self.find(tid)
        self._into_view(w)
        x, y = w.to_window(*w.center)
        touch = self.Touch(x, y)
        touch.down()
        self.wait(seconds)
        touch.up()
        self.settle()

    @staticmethod
    def _ancestor(w, kind):
        """The nearest widget of class ``kind`` that ``w`` is in, or None."""
        node = w.parent
        while node is not None and node is not node.parent:
            if isinstance(node, kind):
                return node
            node = node.parent
        return None

    @classmethod
    def _scroll_area(cls, w):
        """The scroll view ``w`` is in, or None."""
        from kivy.uix.scrollview import ScrollView

        return cls._ancestor(w, ScrollView)

    def _into_view(self, w) -> bool:
        """Scroll ``w`` into view; True if it is inside a ScrollView."""
        node = self._scroll_area(w)
        if node is None:
            return False
        x0, y0 = w.to_window(w.x, w.y)
        x1, y1 = w.to_window(w.right, w.top)
        v0 = node.to_window(node.x, node.y)
        v1 = node.to_window(node.right, node.top)
        if not (v0[0] <= x0 and v0[1] <= y0 and x1 <= v1[0] and y1 <= v1[1]):
            node.scroll_to(w, padding=4, animate=False)
            self.frames(2)
        return True

    def type(self, text: str, kb: str = "kb") -> None:
        """Type ``text`` on the on-screen keyboard whose keys are ``kb.<KEY>`` (accents: ´ then the vowel)."""
        from .widgets import Keyboard

        plain = {v: k for k, v in Keyboard.ACCENTED.items()}
        for ch in text:
            if ch in plain:
                self.tap(f"{kb}.{Keyboard.ACCENT}", settle=False)
                ch = plain[ch]
            self.tap(f"{kb}.{ch.upper()}", settle=False)

    # -- looking ---------------------------------------------------------------------------------
    def screenshot(self, path) -> Path:
        self.frames(1)
        return save_screenshot(path)

    def problems(self) -> list[str]:
        """What does not fit: clipped labels, things off the window, touch targets under 48 px, and
        text too small to read from a seat (on every screen and dialog: see
        :mod:`tablekeeper.ui.legibility`)."""
        from kivy.core.window import Window
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.button import Button
        from kivy.uix.gridlayout import GridLayout
        from kivy.uix.label import Label
        from kivy.uix.modalview import ModalView
        from kivy.uix.scrollview import ScrollView

        from .legibility import MIN_TEXT, drawn_font_size, floor_of, too_small
        from .widgets import TOUCH

        out = []
        W, H = Window.size
        screen = self.app.sm.current

        def in_scroll(w):
            return self._ancestor(w, ScrollView) is not None

        def in_dialog(w):
            return self._ancestor(w, ModalView) is not None

        for w in self.widgets():
            if not self.visible(w):
                continue
            name = getattr(w, "tid", None) or f"{type(w).__name__}({getattr(w, 'text', '')!r})"
            if w.width <= 0:
                if isinstance(w, Label) and w.text and not in_scroll(w):
                    out.append(f"{screen}: {name} has no room: {w.text!r} in {w.width:.0f}x{w.height:.0f}")
                continue
            if isinstance(w, Label) and w.text:
                small = too_small(w)
                if small:
                    out.append(f"{screen}: {name} is {small}")
                kind = "names and numbers" if floor_of(w) > MIN_TEXT else "text"
                size = drawn_font_size(w)
                if size < self.smallest.get(kind, (1e9, ""))[0]:
                    self.smallest[kind] = (round(size, 1), f"{screen}: {name}")
            x0, y0, x1, y1 = self._window_box(w)  # whatever way it is turned
            scrolled = in_scroll(w)
            if not scrolled and (x0 < -1 or y0 < -1 or x1 > W + 1 or y1 > H + 1):
                out.append(f"{screen}: {name} is outside the {W}x{H} window ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f})")
            if isinstance(w, Label) and w.text:
                if hasattr(w, "natural_size"):
                    tw, th = w.natural_size()
                else:
                    w.texture_update()
                    tw, th = w.texture_size
                if tw > w.width + 1.5 or th > w.height + 1.5:
                    out.append(f"{screen}: {name} is cut off: text {tw:.0f}x{th:.0f} in {w.width:.0f}x{w.height:.0f}")
                if hasattr(w, "word_fits") and not w.word_fits(0):  # a word just over its box is broken
                    out.append(f"{screen}: {name} breaks a word: {w.widest_word():.0f} px in {w.width:.0f}")
            if isinstance(w, Button) and (w.width < TOUCH - 0.5 or w.height < TOUCH - 0.5):
                out.append(f"{screen}: {name} is a {w.width:.0f}x{w.height:.0f} touch target (under 48 px)")
            if (screen == "table" or in_dialog(w)) and isinstance(w, (BoxLayout, GridLayout)):
                out.extend(f"{screen}: {p}" for p in self._uneven_buttons(w))
        return out + self.overlaps()

    def _uneven_buttons(self, row) -> list[str]:
        """Buttons side by side in one row (a horizontal box, or a grid's row) drawn at different text
        sizes (icons apart: a glyph is not a word)."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.button import Button

        from ..hardware.icons import FONT as ICON_FONT

        if isinstance(row, BoxLayout) and row.orientation != "horizontal":
            return []
        lines: dict[float, list] = {}
        for b in row.children:
            if isinstance(b, Button) and b.text and self.visible(b) and b.font_name != ICON_FONT:
                lines.setdefault(round(b.y), []).append(b)
        out = []
        for buttons in lines.values():
            sizes = sorted({round(float(b.font_size), 1) for b in buttons})
            if len(sizes) > 1:
                out.append("buttons side by side at different sizes: " + ", ".join(
                    f"{_name(b)} {float(b.font_size):.0f} px" for b in reversed(buttons)))
        return out

    def overlaps(self) -> list[str]:
        """Texts, buttons and images drawn over one another (a price under a button, a notice over a
        table): any two whose boxes share more than 2 px each way, on the same layer (the screen, or
        the dialog on top of it), neither inside the other, each cut to the scroll view it is in.
        The toast (a message over the screen by design) is left out."""
        from kivy.core.window import Window
        from kivy.uix.image import Image
        from kivy.uix.label import Label
        from kivy.uix.scrollview import ScrollView

        from .widgets import walk

        screen = self.app.sm.current
        toasts = self.app.toast.widgets()
        out = []
        for top in list(Window.children):
            boxes = []
            for w in walk(top):
                if any(w is t for t in toasts):
                    continue
                if not self.visible(w) or w.width <= 0 or w.height <= 0 or any(self._inside(w, t) for t in toasts):
                    continue
                if not ((isinstance(w, Label) and w.text) or isinstance(w, Image)):
                    continue
                box = self._window_box(w)
                node = w.parent
                while node is not None and node is not node.parent:
                    if isinstance(node, ScrollView):  # what scrolled out of its view is not drawn
                        box = _cut(box, self._window_box(node))
                    node = node.parent
                if box is not None:
                    boxes.append((w, box))
            for i, (a, ba) in enumerate(boxes):
                for b, bb in boxes[i + 1:]:
                    if self._inside(a, b) or self._inside(b, a):
                        continue
                    cut = _cut(ba, bb)
                    if cut is not None and cut[2] - cut[0] > 2 and cut[3] - cut[1] > 2:
                        out.append(f"{screen}: {_name(a)} overlaps {_name(b)}")
        return out

    @staticmethod
    def _window_box(w) -> tuple[float, float, float, float]:
        """``w``'s box in window coordinates (x0, y0, x1, y1), whatever way it is turned."""
        (xa, ya), (xb, yb) = w.to_window(w.x, w.y), w.to_window(w.right, w.top)
        return min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)

    @staticmethod
    def _inside(w, other) -> bool:
        node = w.parent
        while node is not None and node is not node.parent:
            if node is other:
                return True
            node = node.parent
        return False


def _cut(a, b):
    """The intersection of two boxes (x0, y0, x1, y1), or None."""
    box = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return box if box[0] < box[2] and box[1] < box[3] else None


def _name(w) -> str:
    return getattr(w, "tid", None) or f"{type(w).__name__}({getattr(w, 'text', '')!r})"
