"""End of game: the winners, the final table, and a chart of the main counter over the game."""
from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ...hardware.icons import FONT as ICON_FONT
from ...hardware.icons import GLYPHS
from ..controller import main_counter, series
from ..i18n import _, counter_label, engine_text
from ..widgets import CARD, GAP, GREEN_TEXT, LINE, MUTED, TEXT, Btn, FitLabel, Panel, player_colour, tag
from .base import BaseScreen

#: The final table's rows: at most this tall, closer together when many players must fit.
ROW_H = dp(40)


class Chart(Widget):
    """Each player's value of one counter after every action, as lines (drawn with Kivy)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.data: dict[str, list[int]] = {}
        self.colours: list = []  # each line's colour, in the order of data (else by seat order)
        self._labels: list[Label] = []
        self.bind(pos=self.redraw, size=self.redraw)

    def set(self, data: dict[str, list[int]]):
        self.data = data
        self.redraw()

    def redraw(self, *_):
        self.canvas.clear()
        for lab in self._labels:
            self.remove_widget(lab)
        self._labels = []
        if not self.data or self.width < 40:
            return
        left, bottom = self.x + dp(34), self.y + dp(6)
        w, h = self.width - dp(40), self.height - dp(12)
        values = [v for vs in self.data.values() for v in vs]
        lo, hi = min(values + [0]), max(values + [1])
        n = max(len(vs) for vs in self.data.values())
        sx = w / max(1, n - 1)
        sy = h / max(1, hi - lo)
        with self.canvas:
            Color(*CARD)
            Rectangle(pos=(left, bottom), size=(w, h))
            Color(*LINE)
            Line(points=[left, bottom, left, bottom + h], width=1)
            Line(points=[left, bottom, left + w, bottom], width=1)
            for i, vs in enumerate(self.data.values()):
                Color(*(self.colours[i] if i < len(self.colours) else player_colour(i)))
                pts: list[float] = []  # steps: a value holds until the action that changes it
                for k, v in enumerate(vs):
                    y = bottom + (v - lo) * sy
                    if pts:
                        pts += [left + k * sx, pts[-1]]
                    pts += [left + k * sx, y]
                if len(pts) == 2:
                    pts += [pts[0] + 1, pts[1]]
                Line(points=pts, width=dp(1.6))
        for value, y in ((hi, bottom + h - dp(9)), (lo, bottom)):
            lab = Label(text=str(value), font_size=dp(12), color=MUTED, size=(dp(30), dp(14)),
                        pos=(self.x, y), halign="right")
            self._labels.append(lab)
            self.add_widget(lab)


class EndScreen(BaseScreen):
    def build(self):
        self.title = self.header(_("Game over"), left=[
            Btn(_("Home"), size_hint_x=None, width=dp(100), tid="end.home", on_press=self._home)], right=[
            Btn(_("Undo"), size_hint_x=None, width=dp(110), tid="end.undo",
                on_press=lambda: self.app.submit({"action": "undo"})),
            Btn(_("History"), size_hint_x=None, width=dp(120), tid="end.history",
                on_press=lambda: self.app.go("history")),
            Btn(_("Rematch"), role="ok", size_hint_x=None, width=dp(130), tid="end.rematch",
                on_press=self._rematch),
        ])
        body = BoxLayout(spacing=GAP)
        # The left half from the top: who won, how it ended, the final table (rows at most ROW_H
        # high, so a two-player table is not spread over the whole height), then nothing.
        left = BoxLayout(orientation="vertical", spacing=GAP, size_hint_x=0.5)
        top = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
        self.crown = tag(FitLabel(GLYPHS["crown"], font_name=ICON_FONT, base_font=dp(26), min_font=dp(10), color=GREEN_TEXT,
                                  size_hint_x=None, width=dp(36)), "end.crown")
        top.add_widget(self.crown)
        self.winners = tag(FitLabel("", base_font=dp(30), min_font=dp(12), bold=True, color=GREEN_TEXT, halign="left"),
                           "end.winners")
        top.add_widget(self.winners)
        left.add_widget(top)
        self.reason = tag(FitLabel("", base_font=dp(16), min_font=dp(9), color=MUTED, wrap=True, halign="left",
                                   size_hint_y=None, height=dp(44)), "end.reason")
        left.add_widget(self.reason)
        self.final = GridLayout(spacing=dp(2), size_hint_y=None, row_force_default=True)
        left.add_widget(self.final)
        left.add_widget(Widget())
        left.bind(height=lambda *_: self._size_rows())
        self.left = left
        body.add_widget(left)
        right = Panel(orientation="vertical", size_hint_x=0.5, padding=dp(4), spacing=dp(2))
        self.chart_title = tag(FitLabel("", base_font=dp(17), color=MUTED, size_hint_y=None, height=dp(26)),
                               "end.chart.title")
        right.add_widget(self.chart_title)
        self.chart = Chart()
        right.add_widget(self.chart)
        self.legend = GridLayout(cols=4, size_hint_y=None, height=dp(44), spacing=dp(2))
        right.add_widget(self.legend)
        body.add_widget(right)
        self.box.add_widget(body)
        self._shown = None

    def _rematch(self):
        """The same table again, as the rules say who starts it (Dale: a loser); each player keeps their pod
        and colour."""
        table = self.app.snapshot.table
        if table is None or not table.state["over"]:
            return
        setup = table.rules.rematch(table.state)
        pods = self.app.settings.seats(table.game_id, [p["name"] for p in table.state["players"]])

        colours = self.app.settings.colours(table.game_id, list(table.players))
        self.app.keeper.new_game(setup["game"], setup["players"], setup["options"],
                                 then=lambda game_id: self.app.remember_table(game_id, pods, colours))
        # the new game's snapshot takes the app to its table (kivyapp._route)

    def show_events(self, text: str):
        """How the game ended, in the engine's words ("Ana is out: life reached 0"): shown here, under
        the winners, instead of over the final table in a message."""
        self.reason.text = text

    def _size_rows(self):
        rows = self.final.rows or 1
        free = self.left.height - self.winners.parent.height - self.reason.height - 3 * GAP
        gap = self.final.spacing[1]
        h = max(dp(20), min(ROW_H, (free - (rows - 1) * gap) / rows))
        self.final.row_default_height = h
        self.final.height = rows * h + (rows - 1) * gap

    def _home(self):
        self.app.keeper.close_game()
        self.app.go("home")

    def update(self, snap, **kw):
        table = snap.table
        if table is None:
            return
        key = (table.game_id, len(table.done), table.over)
        if key == self._shown:
            return
        self._shown = key
        state, rules = table.state, table.rules
        self.winners.text = engine_text(rules.result_words(state)) if state["over"] else _("The game goes on")
        self.crown.opacity = 1 if state["over"] and state.get("winners") else 0
        if not state["over"]:
            self.reason.text = ""
        counters = list(rules.player_counters)[:4]
        self.final.clear_widgets()
        self.final.cols = 1 + len(counters)
        self.final.rows = 1 + len(state["players"])
        self.final.add_widget(FitLabel(""))
        for c in counters:
            self.final.add_widget(FitLabel(counter_label(c), base_font=dp(16), min_font=dp(8), color=MUTED))
        colours = self.colours(table)
        for p in state["players"]:
            won = p["name"] in state.get("winners", [])
            self.final.add_widget(tag(FitLabel(p["name"], base_font=dp(19), min_font=dp(9), bold=won,
                                               color=MUTED if p["out"] else colours[p["name"]]),
                                      f"end.final.{p['name']}"))
            for c in counters:
                self.final.add_widget(tag(FitLabel(str(p["counters"].get(c, "")), base_font=dp(22), min_font=dp(9),
                                                   bold=won, color=GREEN_TEXT if won else TEXT),
                                          f"end.final.{p['name']}.{c}"))
        self._size_rows()
        main = main_counter(rules)
        if main is None:
            return
        setup_state = rules.setup_state()
        data = series(rules, setup_state, table.done, [main])
        self.chart_title.text = _("{counter} over the game").format(counter=counter_label(main))
        self.chart.colours = [colours[name] for name in data]
        self.chart.set({name: d[main] for name, d in data.items()})
        self.legend.clear_widgets()
        for name in data:
            self.legend.add_widget(FitLabel(f"— {name}", base_font=dp(15), min_font=dp(8), color=colours[name]))
