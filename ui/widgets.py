"""The app's building blocks: colours, labels that fit, 48 px buttons, steppers, chips.

Every tappable thing is at least :data:`TOUCH` px in both directions (fingers,
not a mouse). Every label shrinks its font, down to a floor, until its text
fits its box, so a longer translation never gets cut off; the UI tests check
that nothing on screen still overflows.

A widget can carry a test id (:func:`tag`): a dotted name such as
``"table.Ana.gold.plus"`` that :mod:`tablekeeper.ui.testing` finds it by.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import kivy
from kivy.clock import Clock
from kivy.graphics import Callback, Color, Line, Rectangle
from kivy.graphics.opengl import GL_RENDERER, glFlush, glGetString
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scatterlayout import ScatterLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .. import hardware
from ..hardware.render import missing_glyphs
from .legibility import MIN_KEY_TEXT, MIN_TEXT, key_text
from .settings import COLOURS

#: Smallest side of anything a finger taps.
TOUCH = dp(48)
GAP = dp(6)

# A dark table theme: readable across a table, no glare at night.
BG = (0.106, 0.118, 0.137, 1)
CARD = (0.165, 0.184, 0.216, 1)
CARD_TURN = (0.2, 0.23, 0.29, 1)  # whose turn: a lighter card, a thick light border and "▶"
CARD_OUT = (0.13, 0.13, 0.14, 1)
LINE = (0.3, 0.33, 0.38, 1)
TEXT = (0.96, 0.96, 0.96, 1)
MUTED = (0.68, 0.7, 0.74, 1)
AMBER = (0.96, 0.73, 0.26, 1)  # warnings only (player 2's colour is its own amber)
SELECTED = (0.86, 0.88, 0.92, 1)  # a chosen button: light, with dark text
RED = (0.78, 0.24, 0.2, 1)
GREEN = (0.2, 0.56, 0.36, 1)
GREEN_TEXT = (0.45, 0.82, 0.57, 1)  # the winner's green as text: readable on the dark cards
BLUE = (0.23, 0.43, 0.65, 1)
GREY = (0.3, 0.33, 0.38, 1)
#: Each player's colour, by seat order: the Okabe–Ito palette (told apart with the common colour
#: blindnesses), its blue and green lightened to read on the dark cards; then two greys.
PLAYER_COLOURS = [(0.34, 0.71, 0.91, 1), (0.90, 0.62, 0.0, 1), (0.0, 0.70, 0.52, 1), (0.80, 0.47, 0.65, 1),
                  (0.94, 0.89, 0.26, 1), (0.84, 0.37, 0.0, 1), (0.35, 0.55, 0.95, 1), (0.85, 0.85, 0.85, 1)]


assert len(PLAYER_COLOURS) == COLOURS  # the settings file stores an index of them


def player_colour(index: int) -> tuple[float, float, float, float]:
    """The colour of the player in seat order ``index`` (0-based)."""
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


#: A font with arrows and symbols (Roboto, Kivy's default, has none): the
#: DejaVu Sans the pods' renderer ships. None if it is not installed.
_DEJAVU = Path(hardware.__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
SYMBOL_FONT = str(_DEJAVU) if _DEJAVU.exists() else None
#: Kivy's default font, as a label names it and as a file.
DEFAULT_FONT = "Roboto"
DEFAULT_FONT_FILE = Path(kivy.__file__).resolve().parent / "data" / "fonts" / "Roboto-Regular.ttf"


def default_font_lacks(text: str) -> bool:
    """Whether Kivy's default font has no glyph for some character of ``text`` (Roboto has no arrows)."""
    return bool(text) and DEFAULT_FONT_FILE.exists() and bool(missing_glyphs(DEFAULT_FONT_FILE, text))


def symbol(text: str, fallback: str) -> tuple[str, dict]:
    """``text`` with the symbol font, or ``fallback`` in the default font if it is missing."""
    if SYMBOL_FONT:
        return text, {"font_name": SYMBOL_FONT}
    return fallback, {}


ROLES = {"normal": GREY, "primary": BLUE, "danger": RED, "ok": GREEN, "warn": (0.7, 0.5, 0.12, 1),
         "flat": (0.2, 0.22, 0.26, 1), "on": SELECTED}


def tag(widget: Widget, tid: str) -> Widget:
    """Give ``widget`` a test id (see :mod:`tablekeeper.ui.testing`); returns it."""
    widget.tid = tid
    return widget


def walk(widget: Widget):
    """``widget`` and every widget under it (children of a ScreenManager's screens too)."""
    yield widget
    for child in list(widget.children):
        yield from walk(child)


_software_gl: bool | None = None


def software_gl() -> bool:
    """Whether GL draws on the CPU: Mesa's llvmpipe or softpipe (a PC without a GPU, the headless tests),
    not the Pi's GPU. Asked of the GL context on the first call, which must come while drawing."""
    global _software_gl
    if _software_gl is None:
        renderer = glGetString(GL_RENDERER) or b""
        name = renderer.decode(errors="replace") if isinstance(renderer, bytes) else str(renderer)
        _software_gl = any(word in name.lower() for word in ("llvmpipe", "softpipe"))
    return _software_gl


def flush_software_gl(_instruction=None) -> None:
    """Drawn after each panel: with software GL, rasterise what the frame has queued so far.

    llvmpipe keeps every draw call of a frame until the frame is flushed: the draw's state (about
    40 KB) and its triangles binned per 64x64 tile. A 4-player table is about 200 draw calls, so each
    frame queued 8 MB, which malloc keeps after the frame; flushed after each panel, a frame queues
    what one panel draws (the app's peak memory 8-13 MB lower, bench/bench_app.py, docs/benchmarks.md).
    The pixels are the same. A GPU is left alone: a tiled GPU's flush (the Pi's) renders the whole
    frame's tiles once more each time.
    """
    if software_gl():
        glFlush()


class Panel(BoxLayout):
    """A box with a background colour and an optional border.

    With software GL it ends its drawing with a flush (:func:`flush_software_gl`).
    """

    bg = ColorProperty(CARD)
    border = ColorProperty((0, 0, 0, 0))
    border_width = NumericProperty(0)

    def __init__(self, **kw):
        super().__init__(**kw)
        with self.canvas.before:
            self._bg_color = Color(rgba=self.bg)
            self._bg_rect = Rectangle(pos=self.pos, size=self.size)
        # The border is drawn only while there is one: most panels (a counter's tile, a message) have
        # none, and every instruction drawn costs a draw call each frame (with software GL, memory too)
        self._line_color: Color | None = None
        self._line: Line | None = None
        self.canvas.after.add(Callback(flush_software_gl))
        self.bind(pos=self._redraw, size=self._redraw, bg=self._redraw, border=self._redraw,
                  border_width=self._redraw)
        self._redraw()

    def _redraw(self, *_):
        self._bg_color.rgba = self.bg
        self._bg_rect.pos = self.pos
        self._bg_rect.size = self.size
        if not self.border_width or not self.border[3]:
            if self._line is not None:
                self.canvas.before.remove(self._line_color)
                self.canvas.before.remove(self._line)
                self._line_color = self._line = None
            return
        if self._line is None:
            self._line_color = Color(rgba=self.border)
            self._line = Line(rectangle=(0, 0, 0, 0), width=1)
            self.canvas.before.add(self._line_color)
            self.canvas.before.add(self._line)
        assert self._line_color is not None
        self._line_color.rgba = self.border
        w = self.border_width
        self._line.width = w
        self._line.rectangle = (self.x + w, self.y + w, max(0, self.width - 2 * w), max(0, self.height - 2 * w))


class Turned(ScatterLayout):
    """``child`` turned by ``angle`` degrees (180: toward the far side of the table), touches included.

    A fixed turn: no dragging, scaling or turning by touch, and a tap never reorders it among
    its siblings (Kivy's scatter would bring it to the front). The child fills it.
    """

    def __init__(self, child: Widget, angle: float, **kw):
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, auto_bring_to_front=False,
                         **kw)
        self.child = child
        child.size_hint = (1, 1)
        # pinned to the content's corner: a widget laid out elsewhere before (the header, upright in
        # the one-side layout) would keep its old position in the scatter's float layout
        child.pos_hint = {"x": 0, "y": 0}
        self.add_widget(child)
        self.rotation = angle


class TurnedBox(Widget):
    """``child`` turned by ``angle`` (a multiple of 90°) and filling this box, touches included.

    180: toward the far side of the table. 90: its top toward the screen's left; 270: toward the
    right — laid out with width and height swapped (a tall column holds a card as wide as the
    column is high). The box itself is a plain widget, so any layout places it as usual; the
    turned scatter inside is put over it once the layout has settled (before the next frame): a
    scatter placed by a layout and then resized moves off its place.
    """

    def __init__(self, child: Widget, angle: float, **kw):
        super().__init__(**kw)
        self.angle = angle % 360
        self.turned = Turned(child, self.angle, size_hint=(None, None))
        self.add_widget(self.turned)
        self._place_trigger = Clock.create_trigger(self._place, -1)
        self.bind(pos=self._place_trigger, size=self._place_trigger)

    def _place(self, *_):
        quarter = self.angle % 180 == 90
        self.turned.size = (self.height, self.width) if quarter else (self.width, self.height)
        self.turned.center = self.center


class FitMixin:
    """Shrink ``font_size`` (from ``base_font`` down to ``min_font``) until the text fits the box.

    A label that does not ``wrap`` must fit on its own lines (no wrapping);
    one that wraps must fit its height at its width. Measured on the text
    laid out without the box's limits, so nothing clipped goes unnoticed.
    """

    wrap = False

    # What the Kivy label it is mixed into provides (its properties and methods): declared
    # here for the type checker only (annotations without values; the label's own stay).
    text: str
    width: float
    height: float
    padding: Sequence[float]  # set as 1, 2 or 4 values; read back as 4 (left, top, right, bottom)
    text_size: tuple[float | None, float | None]
    font_size: float
    font_name: str
    _label: Any  # the label's core text provider (kivy.core.text.Label)
    bind: Callable[..., Any]
    texture_update: Callable[..., None]

    def _init_fit(self, base_font, min_font):
        self.base_font = base_font
        self.min_font = min_font
        self.font_size = base_font
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        self.bind(size=self._fit_trigger, text=self._fit_trigger)
        self._fit_trigger()

    def natural_size(self) -> tuple[float, float]:
        """The text's size laid out without height limit (and, unless wrapping, without width limit)."""
        saved = self.text_size
        self.text_size = (self.width - self.padding[0] - self.padding[2] if self.wrap else None, None)
        # Laid out, not drawn: a texture made only to be measured would replace the label's own, and
        # the label would need a new one for every fitted text (the GL driver keeps their memory)
        self._label.resolve_font_name()
        self._label.render()
        w, h = self._label._internal_size
        self.text_size = saved
        return w, h

    def widest_word(self) -> float:
        """A wrapping label's longest word at the current font size (0 when it does not wrap): a
        word wider than the box would be broken in the middle ("Gamblin/g")."""
        if not self.wrap or not self.text:
            return 0
        self._label.resolve_font_name()  # the core label has the current font size (no texture needed)
        return max(self._label.get_extents(w)[0] for w in self.text.split())

    def _room(self) -> float:
        return self.width - self.padding[0] - self.padding[2]

    def word_fits(self, slack: float = 1) -> bool:
        """Whether no word is wider than the box (one that is would be broken in the middle)."""
        return self.widest_word() <= self._room() + slack

    def fits(self) -> bool:
        if not self.text:
            return True
        w, h = self.natural_size()
        return w <= self.width + 1 and h <= self.height + 1 and self.word_fits()

    #: A label that would be cut off even at ``min_font`` shows nothing rather than a clipped text
    #: (a tile's counter name next to its icon, on a narrow card); it shows again once it fits.
    droppable = False
    _dropped = ""
    _dropped_at: tuple[float, float] = (0, 0)

    def _fit(self, *_):
        if self.droppable and self._dropped and not self.text:
            if self._dropped_at == (self.width, self.height):
                return  # dropped at this very size (the drop itself brought us here): stays dropped
            self.text, self._dropped = self._dropped, ""  # a new size: try again
        if SYMBOL_FONT and self.font_name == DEFAULT_FONT and default_font_lacks(self.text):
            self.font_name = SYMBOL_FONT  # its "→" (a help line, a preview), not Roboto's empty boxes
        if self.width < 4 or self.height < 4 or not self.text:
            return
        size = self.base_font
        self.font_size = size
        for _step in range(8):
            w, h = self.natural_size()
            word = self.widest_word()
            # not one pixel over: Kivy would wrap a text just wider than its box onto two lines
            if w <= self.width + (0.5 if self.wrap else 0) and h <= self.height + 0.5 and word <= self._room():
                break
            scale = min(self.width / max(w, 1), self.height / max(h, 1), self._room() / max(word, 1))
            new = max(self.min_font, min(size - 1, int(size * (scale if not self.wrap else scale ** 0.5))))
            if new >= size:
                if self.droppable:
                    self._dropped_at = (self.width, self.height)
                    self._dropped, self.text = self.text, ""
                    return
                break  # at the floor: the UI test reports it
            size = new
            self.font_size = size
        self.texture_update()
        self._fitted = self.font_size
        for listener in list(getattr(self, "_fit_listeners", ())):
            listener(self)


class FitLabel(FitMixin, Label):
    """A label whose text always fits (on its own lines, or wrapped when ``wrap``)."""

    def __init__(self, text="", base_font=dp(20), min_font=MIN_TEXT, wrap=False, **kw):
        kw.setdefault("color", TEXT)
        kw.setdefault("halign", "center")
        kw.setdefault("valign", "middle")
        super().__init__(text=text, **kw)
        self.wrap = wrap
        # Width only: Kivy centres the texture in the widget, and a text box
        # with a height would clip lines instead of letting the fit see them.
        self.text_size = (self.width, None)
        self.bind(width=lambda *_: setattr(self, "text_size", (self.width, None)))
        self._init_fit(base_font, min_font)


class ChoiceLabel(FitLabel):
    """A label that shows the longest of its ``choices`` that fits at ``min_font``, shrunk to fit as any.

    The choices go from the most to the least said ("actions 1   market deck 50   market discard 0",
    then "actions 1   market deck 50 …", ...): on a narrow box the text says less rather than
    shrinks under the floor. ``text`` is the choice shown; the last choice is shown when none fits
    (and the layout check reports it).
    """

    def __init__(self, choices=(), **kw):
        self.choices: list[str] = list(choices)
        super().__init__(self.choices[0] if self.choices else "", **kw)

    def show(self, choices) -> None:
        self.choices = [c for c in choices if c] or [""]
        self.text = self.choices[0]
        self._fit_trigger()

    def _measure(self, text: str) -> tuple[float, float, float]:
        """``text``'s size at ``min_font`` (laid out as :meth:`natural_size` does) and its widest word."""
        from kivy.core.text import Label as CoreLabel

        room = self._room()
        core = CoreLabel(text=text, font_size=self.min_font, font_name=self.font_name, bold=self.bold,
                         text_size=(room if self.wrap else None, None), halign=self.halign)
        core.refresh()
        w, h = core._internal_size
        word = max((core.get_extents(x)[0] for x in text.split()), default=0) if self.wrap else 0
        return w, h, word

    def _fit(self, *_):
        if len(self.choices) > 1 and self.width >= 4 and self.height >= 4:
            chosen = self.choices[-1]
            for choice in self.choices:
                w, h, word = self._measure(choice)
                if w <= self._room() + (0.5 if self.wrap else 0) and h <= self.height + 0.5 and word <= self._room():
                    chosen = choice
                    break
            if self.text != chosen:
                self.text = chosen  # fitted again by the text's own trigger
                return
        super()._fit()


def same_size(*buttons) -> None:
    """Buttons side by side drawn at one font size: each fits its own text, then all take the
    smallest of their sizes (a row of choices does not read as big and small ones)."""
    group = [b for b in buttons if b is not None]

    def level(_changed=None):
        fitted = [b._fitted for b in group if getattr(b, "_fitted", None) and b.text]
        if fitted:
            size = min(fitted)
            for b in group:
                if b.font_size != size:
                    b.font_size = size

    for b in group:
        b._fit_listeners = [*getattr(b, "_fit_listeners", ()), level]
    level()


class Btn(FitMixin, Button):
    """A flat button, at least 48 px each way, in one of the :data:`ROLES` colours."""

    role = OptionProperty("normal", options=list(ROLES))

    def __init__(self, text="", role="normal", base_font=dp(20), min_font=MIN_TEXT, on_press=None, tid=None, **kw):
        kw.setdefault("size_hint_min", (TOUCH, TOUCH))
        kw.setdefault("halign", "center")
        kw.setdefault("valign", "middle")
        super().__init__(text=text, background_normal="", background_down="",
                         background_disabled_normal="", background_disabled_down="", **kw)
        self.role = role
        self.padding = (dp(4), 0)
        self.text_size = (self.width, None)  # see FitLabel
        self.bind(role=self._colour, state=self._colour, disabled=self._colour,
                  width=lambda *_: setattr(self, "text_size", (self.width, None)))
        self._colour()
        self._init_fit(base_font, min_font)
        if on_press is not None:
            self.bind(on_release=lambda *_: on_press())
        if tid:
            tag(self, tid)

    def _colour(self, *_):
        r, g, b, a = ROLES[self.role]
        if self.disabled:
            self.background_color = (r * 0.6, g * 0.6, b * 0.6, 1)
            self.color = (0.6, 0.6, 0.6, 1)
        elif self.state == "down":
            self.background_color = (min(1, r * 1.35), min(1, g * 1.35), min(1, b * 1.35), 1)
            self.color = TEXT
        else:
            self.background_color = (r, g, b, a)
            self.color = (0.1, 0.1, 0.1, 1) if self.role == "on" else TEXT


class SwatchBtn(Btn):
    """A button whose text is drawn in its ``swatch`` colour (a player's colour, on the dark button)."""

    swatch = ColorProperty(TEXT)

    def __init__(self, text="", swatch=TEXT, **kw):
        super().__init__(text, role="flat", **kw)
        self.swatch = swatch
        self.bind(swatch=self._colour)
        self._colour()

    def _colour(self, *_):
        super()._colour()
        if not self.disabled:
            self.color = self.swatch


class Chips(GridLayout):
    """A row (or grid) of choices as buttons; one or several selected.

    ``values``: the choices (any values); ``labels``: how they read;
    ``selected``: the chosen values (a list; one item when not ``multi``).
    """

    values = ListProperty()
    selected = ListProperty()
    multi = BooleanProperty(False)
    allow_none = BooleanProperty(False)

    def __init__(self, values, labels=None, selected=None, multi=False, allow_none=False, cols=None,
                 tid=None, on_change=None, base_font=dp(18), **kw):
        kw.setdefault("spacing", GAP)
        kw.setdefault("size_hint_y", None)
        n = max(1, len(values))
        self._ncols = cols or n
        super().__init__(cols=self._ncols, **kw)
        self.multi = multi
        self.allow_none = allow_none
        self._labels = list(labels) if labels else [str(v) for v in values]
        self._on_change = on_change
        self._tid = tid
        self._font = base_font
        self.values = list(values)
        self.selected = list(selected or [])
        rows = (n + self._ncols - 1) // self._ncols
        self.height = rows * TOUCH + (rows - 1) * GAP
        self._buttons = []
        for i, value in enumerate(self.values):
            b = Btn(self._labels[i], base_font=base_font, tid=f"{tid}.{value}" if tid else None)
            b.bind(on_release=lambda _b, v=value: self.toggle(v))
            self._buttons.append(b)
            self.add_widget(b)
        same_size(*self._buttons)
        self.bind(selected=self._paint)
        self._paint()

    def toggle(self, value):
        if self.multi:
            sel = list(self.selected)
            if value in sel:
                sel.remove(value)
            else:
                sel.append(value)
            self.selected = sel
        elif self.selected == [value] and self.allow_none:
            self.selected = []
        else:
            self.selected = [value]
        if self._on_change:
            self._on_change(self.value)

    @property
    def value(self):
        if self.multi:
            return list(self.selected)
        return self.selected[0] if self.selected else None

    def _paint(self, *_):
        for value, b in zip(self.values, self._buttons):
            b.role = "on" if value in self.selected else "normal"


class Stepper(BoxLayout):
    """A whole number with − and + buttons (48 px), bounded by ``lo``/``hi``."""

    value = ObjectProperty(0, allownone=True)

    def __init__(self, value=0, lo=None, hi=None, step=1, tid=None, on_change=None, fmt=str, **kw):
        kw.setdefault("size_hint_y", None)
        kw.setdefault("height", TOUCH)
        kw.setdefault("spacing", GAP)
        super().__init__(**kw)
        self.lo, self.hi, self.step = lo, hi, step
        self._on_change = on_change
        self._fmt = fmt
        self.minus = Btn("−", base_font=dp(26), size_hint_x=None, width=TOUCH, tid=f"{tid}.minus" if tid else None)
        self.label = key_text(FitLabel("", base_font=dp(26), min_font=MIN_KEY_TEXT))
        self.plus = Btn("+", base_font=dp(26), size_hint_x=None, width=TOUCH, tid=f"{tid}.plus" if tid else None)
        if tid:
            tag(self.label, f"{tid}.value")
            tag(self, tid)
        self.minus.bind(on_release=lambda *_: self.change(-self.step))
        self.plus.bind(on_release=lambda *_: self.change(self.step))
        for w in (self.minus, self.label, self.plus):
            self.add_widget(w)
        self.bind(value=self._show)
        self.value = value
        self._show()

    def change(self, delta: int):
        base = self.value if self.value is not None else (self.lo if self.lo is not None else 0) - (
            delta if self.lo is not None else 0)
        new = base + delta
        if self.lo is not None:
            new = max(self.lo, new)
        if self.hi is not None:
            new = min(self.hi, new)
        self.value = new
        if self._on_change:
            self._on_change(new)

    def _show(self, *_):
        self.label.text = "—" if self.value is None else self._fmt(self.value)


class Scroller(ScrollView):
    """A vertical scroll area with a bar wide enough to see."""

    def __init__(self, content: Widget, **kw):
        kw.setdefault("do_scroll_x", False)
        kw.setdefault("bar_width", dp(6))
        kw.setdefault("scroll_type", ["bars", "content"])
        # Content that fits does not move: with Kivy's default a tap on a short form (Dragon Run's deal,
        # under load) could fling it thousands of pixels out of sight, the keypad with it.
        kw.setdefault("always_overscroll", False)
        super().__init__(**kw)
        content.size_hint_y = None
        if isinstance(content, (BoxLayout, GridLayout)):
            content.bind(minimum_height=content.setter("height"))
        self.add_widget(content)


class Keyboard(GridLayout):
    """An on-screen keyboard for names (no physical keyboard on the table).

    Types into ``target`` (a Label-like with ``text``); ``accents`` adds a
    row with Spanish letters. Every key is a 48 px target.
    """

    ROWS = ("QWERTYUIOP", "ASDFGHJKLÑ", "ZXCVBNM")
    ACCENT = "´"  # a dead key: the next vowel takes the accent (Fermín, Inés)
    ACCENTED = dict(zip("AEIOUaeiou", "ÁÉÍÓÚáéíóú"))

    def __init__(self, on_text, on_done=None, max_len=12, tid="kb", **kw):
        kw.setdefault("cols", 1)
        kw.setdefault("spacing", dp(4))
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.text = ""
        self.max_len = max_len
        self._on_text = on_text
        self._on_done = on_done
        self._tid = tid
        rows = [list(r) for r in self.ROWS]
        rows[2] += [self.ACCENT, "-", "⌫"]
        self._accent = False
        for keys in rows:
            row = BoxLayout(spacing=dp(4), size_hint_y=None, height=TOUCH)
            for k in keys:
                shown, font = symbol(k, "<") if k == "⌫" else (k, {})
                b = Btn(shown, base_font=dp(20), tid=f"{tid}.{k}", **font)
                b.bind(on_release=lambda _b, key=k: self.press(key))
                row.add_widget(b)
            self.add_widget(row)
        self.height = 3 * TOUCH + 2 * dp(4)

    def press(self, key: str):
        if key == self.ACCENT:
            self._accent = True
            return
        if key == "⌫":
            self.text = self.text[:-1]
        elif len(self.text) < self.max_len:
            # Names read "Ana", not "ANA": capital only at the start of a word.
            start = not self.text or self.text[-1] in " -"
            letter = key if start else key.lower()
            if self._accent:
                letter = self.ACCENTED.get(letter, letter)
            self.text += letter
        self._accent = False
        self._on_text(self.text)
