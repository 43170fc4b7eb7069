"""What every screen shares: a header bar with a title and 48 px buttons."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ..widgets import BG, GAP, TOUCH, FitLabel, Panel, player_colour, tag

HEADER = TOUCH + dp(8)


class BaseScreen(Screen):
    """A screen of the app: ``build()`` once, ``update(snapshot)`` whenever it changes."""

    def __init__(self, app, **kw):
        super().__init__(**kw)
        self.app = app
        self.box = Panel(orientation="vertical", bg=BG, padding=dp(4), spacing=GAP)
        self.add_widget(self.box)
        self.build()

    def build(self):
        pass

    def update(self, snap, **kw):
        pass

    def colours(self, table) -> dict[str, tuple[float, float, float, float]]:
        """Each player's colour at ``table`` (chosen at setup, else by pod order)."""
        chosen = self.app.settings.colours(table.game_id, list(table.players))
        return {name: player_colour(i) for name, i in chosen.items()}

    def pod_order(self, table) -> list[str]:
        """The players by pod number: clockwise around the table from pod 1."""
        seats = self.app.settings.seats(table.game_id, list(table.players))
        return sorted(table.players, key=lambda n: seats[n])

    def header(self, title: str, left=(), right=(), tid: str = "") -> FitLabel:
        bar = BoxLayout(size_hint_y=None, height=HEADER, spacing=GAP, padding=(0, dp(4)))
        for b in left:
            bar.add_widget(b)
        label = FitLabel(title, base_font=dp(24), min_font=dp(12), bold=True, halign="left")
        tag(label, f"{tid or self.name}.title")
        bar.add_widget(label)
        for b in right:
            bar.add_widget(b)
        self.box.add_widget(bar)
        return label
