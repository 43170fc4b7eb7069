"""History: every action in words, newest first, with undo and redo."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recycleview import RecycleView

from ..i18n import _, engine_text
from ..widgets import MUTED, TEXT, Btn, FitLabel
from .base import BaseScreen

ROW = dp(34)


class HistoryRow(FitLabel):
    """One entry; the RecycleView reuses a screenful of these for any length of game."""

    def __init__(self, **kw):
        super().__init__("", base_font=dp(18), min_font=dp(10), halign="left", size_hint_y=None, height=ROW, **kw)


class HistoryScreen(BaseScreen):
    def build(self):
        self.undo = Btn(_("Undo"), size_hint_x=None, width=dp(130), tid="history.undo",
                        on_press=lambda: self.app.submit({"action": "undo"}))
        self.redo = Btn(_("Redo"), size_hint_x=None, width=dp(130), tid="history.redo",
                        on_press=lambda: self.app.submit({"action": "redo"}))
        self.header(_("History"), left=[Btn(_("Back"), size_hint_x=None, width=dp(110), tid="history.back",
                                            on_press=self._back)], right=[self.undo, self.redo])
        # A RecycleView: widgets only for the rows on screen (a 1 000-action game costs
        # the same memory and time as a 10-action one).
        self.list = RecycleView(do_scroll_x=False, bar_width=dp(6), scroll_type=["bars", "content"])
        layout = RecycleBoxLayout(orientation="vertical", default_size=(None, ROW), default_size_hint=(1, None),
                                  size_hint_y=None, spacing=dp(2))
        layout.bind(minimum_height=layout.setter("height"))
        self.list.add_widget(layout)
        self.list.viewclass = HistoryRow  # after the layout: the property lives on it
        self.box.add_widget(self.list)
        self._shown = None

    def _back(self):
        table = self.app.snapshot.table
        self.app.go("end" if table is not None and table.over else "table")

    def update(self, snap, **kw):
        table = snap.table
        if table is None:
            return
        self.undo.disabled = not table.can_undo
        self.redo.disabled = not table.can_redo
        key = (table.game_id, len(table.history), table.history[-1].seq if table.history else None)
        if key == self._shown:
            return
        self._shown = key
        items = list(reversed(table.history))
        colours = self.colours(table)

        def colour(item):
            # an action by or on one player is in that player's colour; undo, redo and the table's own, muted
            if item.kind != "action":
                return MUTED
            who = item.entry.get("player") or item.entry.get("from")
            return colours.get(who, TEXT) if isinstance(who, str) else TEXT

        rows = [{"text": f"{item.seq + 1}.  {engine_text(item.text)}", "tid": f"history.row.{i}",
                 "color": colour(item)} for i, item in enumerate(items)]
        if not rows:
            rows = [{"text": _("Nothing has happened yet."), "tid": "history.empty", "color": MUTED}]
        self.list.data = rows
        self.list.scroll_y = 1
