"""Home: resume the unfinished game, start a new one, look at past games."""
from __future__ import annotations

import time

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ...engine import available
from ...engine.game import Game
from ..i18n import _, engine_text
from ..widgets import GAP, MUTED, TOUCH, Btn, FitLabel, Scroller
from .base import BaseScreen


def result_words(summary, games: dict) -> str:
    """A stored game's outcome in a few words, as its game (in ``games``, id → class) says it; a game
    of an unknown id gets the generic words."""
    if summary.finished is None:
        return _("unfinished")
    return engine_text(games.get(summary.game, Game).result_line(summary.result or {}))


def game_title(game_id: str, fallback: str = "") -> str:
    from ...engine.registry import title as registry_title
    from ..i18n import pgettext

    title = registry_title(game_id) or fallback or game_id
    return pgettext("game", title)


#: Past games listed (the newest); older ones are in `tablekeeper list` and `history --game N`.
PAST_SHOWN = 30


class HomeScreen(BaseScreen):
    def build(self):
        club = getattr(self.app, "club", None)  # the club's publisher: its connection beside the title
        if club is not None:
            from ..club.status import ClubStatus
        self.header("tablekeeper", right=([ClubStatus(club)] if club is not None else []) + [
            Btn(_("Statistics"), size_hint_x=None, width=dp(150), tid="home.stats",
                on_press=lambda: self.app.go("stats")),
            Btn(_("Settings"), size_hint_x=None, width=dp(150), tid="home.settings",
                on_press=lambda: self.app.go("settings")),
        ])
        self.resume = Btn("", role="primary", size_hint_y=None, height=TOUCH + dp(16), base_font=dp(22),
                          tid="home.resume", on_press=self._resume)
        self.box.add_widget(self.resume)
        self.new = Btn(_("New game"), role="ok", size_hint_y=None, height=TOUCH + dp(16), base_font=dp(22),
                       tid="home.new", on_press=lambda: self.app.go("new"))
        self.box.add_widget(self.new)
        self.box.add_widget(FitLabel(_("Past games"), size_hint_y=None, height=dp(30), halign="left",
                                     color=MUTED, base_font=dp(18)))
        self.list = BoxLayout(orientation="vertical", spacing=GAP)
        self.box.add_widget(Scroller(self.list))
        self._unfinished = None
        self._shown = None

    def _resume(self):
        if self._unfinished is not None:
            self.app.open_game(self._unfinished.id)

    def update(self, snap, **kw):
        games = snap.games
        unfinished = [g for g in games if g.finished is None]
        self._unfinished = unfinished[-1] if unfinished else None
        if self._unfinished is not None:
            g = self._unfinished
            self.resume.text = _("Resume: {game} with {players}").format(
                game=game_title(g.game), players=", ".join(g.players))
            self.resume.disabled = False
            self.resume.opacity = 1
            self.resume.height = TOUCH + dp(16)
        else:
            self.resume.text = ""
            self.resume.disabled = True
            self.resume.opacity = 0
            self.resume.height = 0
        key = tuple((g.id, g.finished) for g in games)
        if key == self._shown:
            return
        self._shown = key
        self.list.clear_widgets()
        if not games:
            self.list.add_widget(FitLabel(_("No games yet."), size_hint_y=None, height=TOUCH, color=MUTED))
        classes = available()
        for g in list(reversed(games))[:PAST_SHOWN]:
            when = time.strftime("%d/%m %H:%M", time.localtime(g.started))
            text = f"{when}   {game_title(g.game)}   {', '.join(g.players)}   — {result_words(g, classes)}"
            row = Btn(text, role="flat", size_hint_y=None, height=TOUCH, base_font=dp(17), halign="left",
                      tid=f"home.game.{g.id}")
            row.bind(on_release=lambda _b, gid=g.id: self.app.open_game(gid))
            self.list.add_widget(row)
        if len(games) > PAST_SHOWN:  # `tablekeeper list` shows them all
            self.list.add_widget(FitLabel(_("… and {n} earlier").format(n=len(games) - PAST_SHOWN),
                                          size_hint_y=None, height=TOUCH, color=MUTED))
