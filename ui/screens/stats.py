"""Statistics: who wins, how often, how long a game takes — over every finished stored game.

The plays are read and summarised on the journal worker (``ui.playlog.people_plays``: the roster
maps stored names to people; the summaries are cached in the state folder) and the numbers come
from :mod:`tablekeeper.engine.records`, as ``tablekeeper stats`` prints them. Each person has
their roster colour: a win-rate bar per player, and the length of each play over time as a
chart. A tap on two players' rows shows their head-to-head.
"""
from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ...engine import records as rec
from ..i18n import _, ngettext
from ..widgets import CARD, GAP, LINE, MUTED, TEXT, TOUCH, Btn, Chips, FitLabel, Panel, Scroller, player_colour, tag
from .base import BaseScreen
from .end import Chart
from .home import game_title

ROW_H = TOUCH + dp(6)
#: The most players listed (the most plays first); `tablekeeper stats` lists them all.
PLAYERS_SHOWN = 12


def read_stats(keeper) -> dict:
    """On the journal worker: the people's plays and their colours (the roster's)."""
    from ...engine import roster as people
    from .. import playlog

    # the roster, with everyone of the stored games taken in (and the colours the app gave them)
    roster, stored = playlog.load_roster(keeper.journal, keeper.state_dir)
    if not stored and roster.read_only is None:
        people.save(keeper.journal, roster)
    plays = rec.with_people(playlog.load_plays(keeper.journal, keeper.state_dir), roster.person_of)
    return {"plays": plays, "colours": {p.name: p.colour for p in roster.people}}


class RateBar(Widget):
    """A win rate as a bar in the player's colour over a dim track."""

    def __init__(self, rate: float, colour, **kw):
        super().__init__(**kw)
        self.rate, self.colour = rate, colour
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_):
        self.canvas.clear()
        h = min(self.height, dp(14))
        y = self.center_y - h / 2
        with self.canvas:
            Color(*LINE)
            Rectangle(pos=(self.x, y), size=(self.width, h))
            Color(*self.colour)
            Rectangle(pos=(self.x, y), size=(self.width * max(0.0, min(1.0, self.rate)), h))


class StatsScreen(BaseScreen):
    def build(self):
        self.header(_("Statistics"), left=[
            Btn(_("Back"), size_hint_x=None, width=dp(110), tid="stats.back", on_press=lambda: self.app.go("home")),
        ])
        self.games_slot = BoxLayout(size_hint_y=None, height=TOUCH)
        self.box.add_widget(self.games_slot)
        body = BoxLayout(spacing=GAP)
        self.rows = BoxLayout(orientation="vertical", spacing=dp(2))
        body.add_widget(Scroller(self.rows, size_hint_x=0.58))
        right = Panel(orientation="vertical", bg=CARD, padding=dp(6), spacing=dp(4), size_hint_x=0.42)
        self.summary = tag(FitLabel("", base_font=dp(16), min_font=dp(9), halign="left", wrap=True,
                                    size_hint_y=0.34), "stats.summary")
        right.add_widget(self.summary)
        right.add_widget(FitLabel(_("Length of each play (minutes)"), base_font=dp(14), min_font=dp(8),
                                  color=MUTED, halign="left", size_hint_y=None, height=dp(22)))
        self.chart = tag(Chart(), "stats.chart")
        right.add_widget(self.chart)
        self.vs = tag(FitLabel(_("Tap two players for their head-to-head"), base_font=dp(15), min_font=dp(8),
                               halign="left", wrap=True, color=MUTED, size_hint_y=0.22), "stats.vs")
        right.add_widget(self.vs)
        body.add_widget(right)
        self.box.add_widget(body)
        self.data: dict | None = None
        self.game: str | None = None
        self.picked: list[str] = []
        self._read_for: tuple | None = None

    # -- data ---------------------------------------------------------------------------
    def update(self, snap, **kw):
        key = tuple((g.id, g.finished) for g in snap.games)  # read again only when a game ended (or undid)
        if key == self._read_for and self.data is not None:
            return
        self._read_for = key
        self.summary.text = _("Reading the stored games…")
        self.app.keeper.call(read_stats, lambda data: self._arrived(data))

    def _arrived(self, data):
        from kivy.clock import Clock

        Clock.schedule_once(lambda dt: self._show(data), 0)  # the worker's answer, on the UI thread

    def _show(self, data):
        self.data = data
        games = sorted({p.game for p in data["plays"]})
        if self.game not in games:
            self.game = None
        self.games_slot.clear_widgets()
        self.games_slot.add_widget(Chips([""] + games, [_("All games")] + [game_title(g) for g in games],
                                         selected=[self.game or ""], tid="stats.game", base_font=dp(15),
                                         on_change=self._pick_game))
        self.picked = []
        self._fill()

    def _pick_game(self, value):
        self.game = value or None
        self.picked = []
        self._fill()

    def _colour(self, name, i):
        colours = (self.data or {}).get("colours", {})
        return player_colour(colours[name] if name in colours else i)

    def _fill(self):
        plays = [p for p in (self.data or {}).get("plays", []) if self.game is None or p.game == self.game]
        self.rows.clear_widgets()
        if not plays:
            self.summary.text = _("No finished games yet: statistics come with the first one.")
            self.chart.set({})
            self.vs.text = ""
            return
        stats = rec.statistics(plays)
        key = self.game or "*"
        players = sorted(((name, per[key]) for name, per in stats["players"].items() if key in per),
                         key=lambda item: (-item[1]["plays"], -item[1]["win_rate"], item[0]))[:PLAYERS_SHOWN]
        for i, (name, s) in enumerate(players):
            self.rows.add_widget(self._row(name, s, i))
        minutes = sum(p.minutes for p in plays) / len(plays)
        if self.game is None:
            n_games = len({p.game for p in plays})
            self.summary.text = _("{plays} of {games}, {minutes} minutes on average").format(
                plays=ngettext("{n} play", "{n} plays", len(plays)).format(n=len(plays)),
                games=ngettext("{n} game", "{n} games", n_games).format(n=n_games), minutes=round(minutes))
        else:
            g = stats["games"][self.game]
            best = g["most_wins"]
            line = _("{plays}, {minutes} minutes on average").format(
                plays=ngettext("{n} play", "{n} plays", len(plays)).format(n=len(plays)), minutes=round(minutes))
            if best:
                line += "\n" + _("Most wins: {names} ({wins})").format(names=", ".join(best["names"]),
                                                                       wins=best["wins"])
            self.summary.text = line
        ordered = sorted(plays, key=lambda p: p.finished)
        self.chart.colours = [TEXT]
        self.chart.set({"minutes": [round(p.minutes) for p in ordered]})
        self._show_vs(plays)

    def _row(self, name, s, i):
        row = Panel(bg=CARD, padding=(dp(4), dp(3)), spacing=dp(6), size_hint_y=None, height=ROW_H,
                    border=(0.3, 0.33, 0.38, 1), border_width=1)
        tag(row, f"stats.row.{name}")
        colour = self._colour(name, i)
        row.add_widget(Panel(bg=colour, size_hint_x=None, width=dp(6)))
        pick = Btn(name, base_font=dp(17), min_font=dp(9), halign="left", size_hint_x=0.34,
                   tid=f"stats.player.{name}", on_press=lambda n=name: self._pick_player(n))
        pick.color = colour
        row.add_widget(pick)
        row.add_widget(tag(FitLabel(_("{wins}/{plays}").format(wins=s["wins"], plays=s["plays"]), base_font=dp(16),
                                    min_font=dp(9), size_hint_x=0.16), f"stats.wins.{name}"))
        row.add_widget(tag(RateBar(s["win_rate"], colour, size_hint_x=0.3), f"stats.bar.{name}"))
        row.add_widget(FitLabel(f"{round(100 * s['win_rate'])}%", base_font=dp(16), min_font=dp(9),
                                size_hint_x=0.14))
        return row

    def _pick_player(self, name):
        self.picked = [n for n in self.picked if n != name][-1:] + [name]  # the last two tapped
        plays = [p for p in (self.data or {}).get("plays", []) if self.game is None or p.game == self.game]
        self._show_vs(plays)

    def _show_vs(self, plays):
        if len(self.picked) < 2:
            self.vs.text = _("Tap two players for their head-to-head") if not self.picked else \
                _("{name} against… (tap another player)").format(name=self.picked[0])
            return
        a, b = self.picked
        row = rec.head_to_head(plays, a, b)["games"].get(self.game or "*")
        if not row:
            self.vs.text = _("{a} and {b} have not played together").format(a=a, b=b)
            return
        self.vs.text = _("{a} {aw} – {bw} {b} in {together}").format(
            a=a, b=b, aw=row["a_wins"], bw=row["b_wins"],
            together=ngettext("{n} play together", "{n} plays together", row["plays"]).format(n=row["plays"]))
