"""End of game: the winners, the final table, and a chart of the main counter over the game."""
from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ..controller import main_counter, series
from ..i18n import _, counter_label, engine_text
from ..widgets import AMBER, CARD, GAP, LINE, MUTED, Btn, FitLabel, Panel, tag
from .base import BaseScreen

#: Line colours of the chart's players (readable on the dark card).
PALETTE = [(0.96, 0.73, 0.26, 1), (0.36, 0.67, 0.96, 1), (0.45, 0.85, 0.5, 1), (0.95, 0.45, 0.45, 1),
           (0.8, 0.6, 0.95, 1), (0.4, 0.88, 0.88, 1), (0.95, 0.6, 0.3, 1), (0.85, 0.85, 0.85, 1)]


class Chart(Widget):
    """Each player's value of one counter after every action, as lines (drawn with Kivy)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.data: dict[str, list[int]] = {}
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
                Color(*PALETTE[i % len(PALETTE)])
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
        left = BoxLayout(orientation="vertical", spacing=GAP, size_hint_x=0.5)
        self.winners = tag(FitLabel("", base_font=dp(30), min_font=dp(12), bold=True, color=AMBER,
                                    size_hint_y=None, height=dp(56)), "end.winners")
        left.add_widget(self.winners)
        self.final = GridLayout(spacing=dp(2))
        left.add_widget(self.final)
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
        """The same table again, as the rules say who starts it (Dale: a loser); each player keeps their pod."""
        table = self.app.snapshot.table
        if table is None or not table.state["over"]:
            return
        setup = table.rules.rematch(table.state)
        pods = self.app.settings.seats(table.game_id, [p["name"] for p in table.state["players"]])

        def started(game_id):
            self.app.settings.set_seats(game_id, pods)
            self.app.settings.save()

        self.app.keeper.new_game(setup["game"], setup["players"], setup["options"], then=started)
        # the new game's snapshot takes the app to its table (kivyapp._route)

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
        counters = list(rules.player_counters)[:4]
        self.final.clear_widgets()
        self.final.cols = 1 + len(counters)
        self.final.rows = 1 + len(state["players"])
        self.final.add_widget(FitLabel(""))
        for c in counters:
            self.final.add_widget(FitLabel(counter_label(c), base_font=dp(16), min_font=dp(8), color=MUTED))
        for p in state["players"]:
            won = p["name"] in state.get("winners", [])
            self.final.add_widget(tag(FitLabel(p["name"], base_font=dp(19), min_font=dp(9), bold=won,
                                               color=AMBER if won else (MUTED if p["out"] else (1, 1, 1, 1))),
                                      f"end.final.{p['name']}"))
            for c in counters:
                self.final.add_widget(tag(FitLabel(str(p["counters"].get(c, "")), base_font=dp(22), min_font=dp(9)),
                                          f"end.final.{p['name']}.{c}"))
        main = main_counter(rules)
        if main is None:
            return
        setup_state = rules.setup_state()
        data = series(rules, setup_state, table.done, [main])
        self.chart_title.text = _("{counter} over the game").format(counter=counter_label(main))
        self.chart.set({name: d[main] for name, d in data.items()})
        self.legend.clear_widgets()
        for i, name in enumerate(data):
            self.legend.add_widget(FitLabel(f"— {name}", base_font=dp(15), min_font=dp(8),
                                            color=PALETTE[i % len(PALETTE)]))
