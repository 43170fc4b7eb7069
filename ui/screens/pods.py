"""The virtual pods: every seat's pod image and its four buttons, live."""
from __future__ import annotations

import math
from dataclasses import dataclass

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image

from ..i18n import N_, _
from ..widgets import GAP, MUTED, TOUCH, Btn, FitLabel, Panel, tag
from .base import HEADER, BaseScreen

#: A held button: first "hold" after this many seconds, then a "repeat" every REPEAT.
HOLD_AFTER = 0.6
REPEAT = 0.2
LABELS = {"up": "+", "down": "−", "select": N_("select"), "main": N_("OK")}
#: OLED colours (a lit pixel at full brightness, and the dark panel).
LIT = (0.55, 0.85, 1.0)
DARK = (0.02, 0.03, 0.05)


def pod_texture(img, brightness: int, texture=None, colour=LIT):
    """A Kivy texture of a mode "1" 128x64 image, lit pixels in ``colour`` scaled by brightness (1–10)."""
    from PIL import Image as PILImage

    k = 0.35 + 0.65 * (brightness / 10)
    lit = [int(255 * c * k) for c in colour[:3]]
    dark = [int(255 * c) for c in DARK]
    grey = img.convert("L")  # 0 or 255
    bands = [grey.point([dark[i]] + [lit[i]] * 255) for i in range(3)]
    rgb = PILImage.merge("RGB", bands).transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)  # Kivy: bottom row first
    if texture is None:
        texture = Texture.create(size=img.size, colorfmt="rgb")
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


def scale_for(width: float, height: float) -> int:
    """The largest whole-number scale of a 128x64 pod image in a width x height box (at least 1)."""
    return max(1, int(min(width / 128, height / 64)))


#: A pod's title line, the space between its parts and around it (PodWidget).
TITLE_H = dp(22)
SPACE = dp(4)


@dataclass(frozen=True)
class PodLayout:
    """How the pods share the screen: ``cols`` x ``rows`` of them; in each, its four buttons ``below``
    the image or beside it, in ``button_cols`` columns; ``scale`` the image's whole-number scale."""

    cols: int
    rows: int
    below: bool
    button_cols: int
    scale: int


def pod_layout(n: int, width: float, height: float) -> PodLayout:
    """The layout of ``n`` pods in ``width`` x ``height`` that draws each pod's 128x64 image at the largest
    whole-number scale, every button at least 48 px each way: each grid of pods, each pod with its buttons
    in a row below the image, two rows below, a column beside it or two columns beside. Of those with the
    same scale, the first of that order (a row of buttons below, as on the hardware; fewer columns of pods)."""
    best: PodLayout | None = None
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        if cols > 1 and (cols - 1) * rows >= n:
            continue  # a whole column of pods left empty: the same as one column fewer
        cell_w = (width - (cols - 1) * GAP) / cols - 2 * SPACE
        cell_h = (height - (rows - 1) * GAP) / rows - 2 * SPACE - TITLE_H - SPACE
        for below, button_cols in ((True, 4), (True, 2), (False, 1), (False, 2)):
            button_rows = 4 // button_cols
            bw = button_cols * TOUCH + (button_cols - 1) * SPACE
            bh = button_rows * TOUCH + (button_rows - 1) * SPACE
            if bw > cell_w or bh > cell_h:
                continue
            image_w, image_h = (cell_w, cell_h - bh - SPACE) if below else (cell_w - bw - SPACE, cell_h)
            if image_w < 128 or image_h < 64:
                continue
            scale = scale_for(image_w, image_h)
            if best is None or scale > best.scale:
                best = PodLayout(cols, rows, below, button_cols, scale)
    if best is None:  # not even one pixel per pixel: the nearest to the old layout, drawn at 1x
        cols = 2 if n <= 4 else (3 if n <= 6 else 4)
        return PodLayout(cols, math.ceil(n / cols), True, 2, 1)
    return best


class PodButton(Btn):
    """A pod's button: press, hold (after HOLD_AFTER), repeat, release, like the hardware's."""

    def __init__(self, on_event, button, **kw):
        super().__init__(_(LABELS.get(button, button)), base_font=dp(20), **kw)
        self._on_event = on_event
        self.button = button
        self._hold = None
        self._repeat = None

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.disabled:
            return False
        touch.grab(self)
        self.state = "down"
        self._on_event(self.button, "press")
        self._hold = Clock.schedule_once(self._held, HOLD_AFTER)
        return True

    def _held(self, dt):
        self._on_event(self.button, "hold")
        self._repeat = Clock.schedule_interval(lambda dt: self._on_event(self.button, "repeat"), REPEAT)

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self.state = "normal"
        for ev in (self._hold, self._repeat):
            if ev is not None:
                ev.cancel()
        self._hold = self._repeat = None
        self._on_event(self.button, "release")
        return True


class PodWidget(Panel):
    """A seat's pod: its title, its image at a whole-number scale, its four buttons below it (in one
    row or two) or beside it (in one column or two), as :func:`pod_layout` chose."""

    def __init__(self, screen, pod_number, player, layout: PodLayout, colour=LIT, **kw):
        super().__init__(orientation="vertical", padding=SPACE, spacing=SPACE, **kw)
        self.seat = pod_number
        self.player = player
        self.colour = colour  # the player's: an on-screen pod can show what a 1-bit OLED cannot
        self.screen = screen
        self.title = FitLabel(_("Pod {n}: {name}").format(n=pod_number, name=player), base_font=dp(16),
                              color=MUTED, size_hint_y=None, height=TITLE_H)
        self.add_widget(self.title)
        # The pod's 128x64 pixels scaled by a whole number (each pixel a sharp square), centred
        self.frame = AnchorLayout()
        self.image = tag(Image(fit_mode="fill", size_hint=(None, None), size=(128, 64)), f"pods.{player}.image")
        self.frame.add_widget(self.image)
        self.frame.bind(size=self._scale)
        # Four 48 px buttons: below the image in one row or two, or beside it in one column or two
        cols = layout.button_cols
        lines = 4 // cols
        if layout.below:
            buttons = GridLayout(cols=cols, size_hint_y=None, height=lines * TOUCH + (lines - 1) * SPACE,
                                 spacing=SPACE)
            self.add_widget(self.frame)
            self.add_widget(buttons)
        else:
            buttons = GridLayout(cols=cols, size_hint_x=None, width=cols * TOUCH + (cols - 1) * SPACE,
                                 spacing=SPACE)
            side = BoxLayout(spacing=SPACE)
            side.add_widget(self.frame)
            side.add_widget(buttons)
            self.add_widget(side)
        for b in screen.app.pods.buttons:
            buttons.add_widget(PodButton(lambda button, kind: screen.event(pod_number, button, kind), b,
                                         tid=f"pods.{player}.{b}"))
        self._texture = None
        self.last_image = None

    def _scale(self, *_):
        k = scale_for(self.frame.width, self.frame.height)
        self.image.size = (128 * k, 64 * k)

    def show(self, img, brightness):
        self.last_image = img
        self._texture = pod_texture(img, brightness, self._texture, self.colour)
        self.image.texture = None
        self.image.texture = self._texture


class PodsScreen(BaseScreen):
    def build(self):
        self.header(_("Virtual pods"), left=[Btn(_("Back"), size_hint_x=None, width=dp(110), tid="pods.back",
                                                on_press=lambda: self.app.go("table"))])
        self.grid_box = BoxLayout()
        self.box.add_widget(self.grid_box)
        self.widgets: dict[str, PodWidget] = {}
        self.layout: PodLayout | None = None
        self._key = None
        self.bind(size=lambda *_: self.update(self.app.snapshot) if getattr(self.app, "snapshot", None) else None)

    def update(self, snap, **kw):
        table = snap.table
        pods = self.app.pods
        if table is None or pods is None:
            return
        seats = pods.seats(table)
        key = (table.game_id, tuple(seats), tuple(int(x) for x in self.size))
        if key != self._key:
            self._key = key
            # the grid's room: the screen less its padding, the header and the space below it
            layout = self.layout = pod_layout(len(seats), self.width - 2 * dp(4), self.height - 2 * dp(4) - HEADER - GAP)
            grid = GridLayout(cols=layout.cols, rows=layout.rows, spacing=GAP)
            self.widgets = {}
            colours = self.colours(table)
            for number, player in seats:
                w = PodWidget(self, number, player, layout, colour=colours.get(player, LIT))
                self.widgets[player] = w
                grid.add_widget(w)
            self.grid_box.clear_widgets()
            self.grid_box.add_widget(grid)
        self.redraw(table)

    def redraw(self, table=None):
        table = table or self.app.snapshot.table
        if table is None:
            return
        for w in self.widgets.values():
            if w.seat in table.pods:
                w.show(self.app.pods.image(table, w.seat), self.app.settings.brightness)

    def event(self, seat, button, kind):
        # To the owner, like a real pod's press; the new picture arrives with its snapshot.
        if self.app.snapshot.table is not None:
            self.app.pods.event(seat, button, kind)
