"""The club connection in the app's header: a dot (green online, grey offline) and the table's name.

No words to translate: the table's name is a name. Redrawn once a second from the publisher's
``online`` flag on Kivy's clock (the publisher's threads never touch a widget).
"""
from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ..widgets import GREEN, GREY, MUTED, FitLabel, tag


class ClubStatus(BoxLayout):
    """``publisher``: a :class:`~tablekeeper.ui.club.publisher.Publisher` (its ``online`` and ``table``)."""

    def __init__(self, publisher, **kw):
        kw.setdefault("size_hint_x", None)
        kw.setdefault("width", dp(120))
        kw.setdefault("spacing", dp(4))
        super().__init__(**kw)
        self.publisher = publisher
        self.dot = Widget(size_hint_x=None, width=dp(14))
        with self.dot.canvas:
            self._colour = Color(*GREY)
            self._circle = Ellipse(size=(dp(12), dp(12)))
        self.dot.bind(pos=self._place, size=self._place)
        self.add_widget(self.dot)
        self.label = FitLabel(publisher.table, base_font=dp(16), min_font=dp(10), color=MUTED, halign="left")
        self.add_widget(self.label)
        tag(self, "club.status")
        self.online: bool | None = None
        self.refresh()
        Clock.schedule_interval(lambda dt: self.refresh(), 1.0)

    def _place(self, *_):
        self._circle.pos = (self.dot.x + (self.dot.width - dp(12)) / 2, self.dot.center_y - dp(6))

    def refresh(self) -> None:
        online = self.publisher.online
        if online != self.online:
            self.online = online
            self._colour.rgba = GREEN if online else GREY
