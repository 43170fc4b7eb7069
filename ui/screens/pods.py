"""The virtual pods: every seat's pod image and its four buttons, live."""
from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image

from ..i18n import N_, _
from ..widgets import GAP, MUTED, TOUCH, Btn, FitLabel, Panel, tag
from .base import BaseScreen

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
    def __init__(self, screen, pod_number, player, narrow=False, colour=LIT, **kw):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(4), **kw)
        self.seat = pod_number
        self.player = player
        self.colour = colour  # the player's: an on-screen pod can show what a 1-bit OLED cannot
        self.screen = screen
        self.title = FitLabel(_("Pod {n}: {name}").format(n=pod_number, name=player), base_font=dp(16),
                              color=MUTED, size_hint_y=None, height=dp(22))
        self.add_widget(self.title)
        # The pod's 128x64 pixels scaled by a whole number (each pixel a sharp square), centred
        self.frame = AnchorLayout()
        self.image = tag(Image(fit_mode="fill", size_hint=(None, None), size=(128, 64)), f"pods.{player}.image")
        self.frame.add_widget(self.image)
        self.frame.bind(size=self._scale)
        self.add_widget(self.frame)
        # Four 48 px buttons in a row, or two rows of two on a narrow pod.
        row = GridLayout(cols=2 if narrow else 4, size_hint_y=None, height=TOUCH * (2 if narrow else 1) + (
            dp(4) if narrow else 0), spacing=dp(4))
        for b in screen.app.pods.buttons:
            row.add_widget(PodButton(lambda button, kind: screen.event(pod_number, button, kind), b,
                                     tid=f"pods.{player}.{b}"))
        self.add_widget(row)
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
        self._key = None

    def update(self, snap, **kw):
        table = snap.table
        pods = self.app.pods
        if table is None or pods is None:
            return
        seats = pods.seats(table)
        key = (table.game_id, tuple(seats))
        if key != self._key:
            self._key = key
            n = len(seats)
            cols = 2 if n <= 4 else (3 if n <= 6 else 4)
            grid = GridLayout(cols=cols, rows=math.ceil(n / cols), spacing=GAP)
            narrow = (self.width - (cols - 1) * GAP) / cols < 4 * TOUCH + 3 * dp(4) + dp(12)
            self.widgets = {}
            colours = self.colours(table)
            for number, player in seats:
                w = PodWidget(self, number, player, narrow=narrow, colour=colours.get(player, LIT))
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
