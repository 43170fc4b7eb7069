"""A new game in a few touches: the game, the players, its options, seats and who starts."""
from __future__ import annotations

import random

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ...engine import SetupError, available
from ..i18n import _, engine_text, option_label, word
from ..settings import COLOURS
from ..widgets import (
    GAP,
    MUTED,
    TOUCH,
    Btn,
    Chips,
    FitLabel,
    Keyboard,
    Panel,
    Scroller,
    Stepper,
    SwatchBtn,
    player_colour,
    tag,
)
from .base import BaseScreen
from .home import game_title

STEPS = ("game", "players", "options", "seats")


def _starter_option(game_cls) -> str | None:
    """The option that names who starts (asked on the seats step, not with the options)."""
    return next((o.name for o in game_cls.options_spec if o.role == "starter"), None)


def _recent_names(snap, limit=10) -> list[str]:
    names: list[str] = []
    for g in reversed(snap.games):
        for n in g.players:
            if n not in names:
                names.append(n)
    return names[:limit]


class NewGameScreen(BaseScreen):
    def build(self):
        self.title = self.header(_("New game"), left=[
            Btn(_("Cancel"), size_hint_x=None, width=dp(120), tid="new.cancel", on_press=self._cancel)])
        self.body = BoxLayout(orientation="vertical", spacing=GAP)
        self.box.add_widget(self.body)
        foot = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.back = Btn(_("Back"), size_hint_x=None, width=dp(140), tid="new.back", on_press=self._back)
        self.hint = FitLabel("", color=MUTED, base_font=dp(17))
        tag(self.hint, "new.hint")
        self.next = Btn(_("Next"), role="primary", size_hint_x=None, width=dp(180), tid="new.next",
                        on_press=self._next)
        for w in (self.back, self.hint, self.next):
            foot.add_widget(w)
        self.box.add_widget(foot)
        self.reset()

    # -- state of the form -------------------------------------------------------------
    def reset(self):
        self.step = 0
        self.game_id: str | None = None
        self.players: list[str] = []
        self.options: dict = {}
        self.pods: dict[str, int] = {}
        self.colour_of: dict[str, int] = {}  # a player's colour: an index of PLAYER_COLOURS
        self.starter = None  # a name, "random", or None (as listed)
        self.typing = ""
        if not hasattr(self, "people"):
            self.people: dict[str, tuple[int, int | None]] = {}  # the roster: name → (colour, usual seat)
        self._read_people()
        self._show()

    def _read_people(self):
        """The roster's people (each name they are stored under too), read on the journal worker: a
        person picked at setup comes with their colour and the pod they usually take."""
        from kivy.clock import Clock

        def read(keeper) -> dict[str, tuple[int, int | None]]:
            from .. import playlog

            if keeper.journal is None:
                return {}
            roster, _stored = playlog.load_roster(keeper.journal, keeper.state_dir)
            return {name: (p.colour, p.seat) for p in roster.people for name in [p.name, *p.aliases]}

        def done(people):
            Clock.schedule_once(lambda dt: setattr(self, "people", people), 0)

        self.app.keeper.call(read, done, quiet=True)

    def update(self, snap, **kw):
        self.snap = snap

    def _cancel(self):
        self.reset()
        self.app.go("home")

    @property
    def game_cls(self):
        return available().get(self.game_id) if self.game_id else None

    def _title(self) -> str:
        """The chosen game's title (every step after the first has a game)."""
        assert self.game_id is not None, "no game chosen yet"
        return game_title(self.game_id)

    def _back(self):
        if self.step == 0:
            self._cancel()
            return
        self.step -= 1
        self._show()

    def _next(self):
        problem = self._problem()
        if problem:
            self.app.toast.show(problem, "refused")
            return
        if self.step == len(STEPS) - 1:
            self._start()
            return
        self.step += 1
        self._show()

    def _problem(self) -> str | None:
        step = STEPS[self.step]
        if step == "game" and self.game_cls is None:
            return _("Choose a game.")
        if step == "players":
            cls = self.game_cls
            n = len(self.players)
            if not cls.min_players <= n <= cls.max_players:
                return _("{game} is for {lo}–{hi} players.").format(
                    game=self._title(), lo=cls.min_players, hi=cls.max_players)
        if step == "options":
            try:  # the game itself says what is wrong with the options (e.g. how many decks)
                self.game_cls(list(self.players), dict(self.options))
            except SetupError as e:
                return engine_text(e)
        return None

    # -- the steps ----------------------------------------------------------------------
    def _show(self):
        self.body.clear_widgets()
        step = STEPS[self.step]
        getattr(self, f"_step_{step}")()
        self.back.text = _("Back") if self.step else _("Cancel")
        self.next.text = _("Start") if self.step == len(STEPS) - 1 else _("Next")
        self.next.role = "ok" if self.step == len(STEPS) - 1 else "primary"
        self.hint.text = _("Step {n} of {total}").format(n=self.step + 1, total=len(STEPS))

    def _step_game(self):
        self.title.text = _("New game: which game?")
        games = available()
        grid = GridLayout(cols=2, spacing=GAP, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for gid, cls in games.items():
            text = _("{game}, {lo}–{hi} players").format(game=game_title(gid), lo=cls.min_players,
                                                        hi=cls.max_players)
            b = Btn(text, role="on" if gid == self.game_id else "normal", size_hint_y=None,
                    height=TOUCH + dp(20), tid=f"new.game.{gid}")
            b.bind(on_release=lambda _b, g=gid: self._pick_game(g))
            grid.add_widget(b)
        self.body.add_widget(Scroller(grid))

    def _pick_game(self, gid):
        if gid != self.game_id:
            self.options = {}
            self.starter = None
        self.game_id = gid
        self.step = 1
        self._show()

    def _step_players(self):
        cls = self.game_cls
        self.title.text = _("{game}: who plays?").format(game=self._title())
        row = GridLayout(cols=max(4, cls.max_players if cls.max_players <= 8 else 8), spacing=GAP,
                         size_hint_y=None, height=TOUCH)
        for name in self.players:
            b = Btn(f"{name} ×", role="flat", tid=f"new.player.{name}", base_font=dp(18))
            b.bind(on_release=lambda _b, n=name: self._remove(n))
            row.add_widget(b)
        if not self.players:
            row.add_widget(FitLabel(_("Type a name, or tap a recent one."), color=MUTED, base_font=dp(18)))
        self.body.add_widget(row)
        entry = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.typed = Panel(padding=(dp(8), 0), bg=(0.08, 0.09, 0.1, 1))
        self.typed_label = FitLabel(self.typing or "", base_font=dp(22), halign="left")
        tag(self.typed_label, "new.typed")
        self.typed.add_widget(self.typed_label)
        entry.add_widget(self.typed)
        entry.add_widget(Btn(_("Add player"), role="ok", size_hint_x=None, width=dp(200), tid="new.add",
                             on_press=self._add_typed))
        self.body.add_widget(entry)
        kb = Keyboard(on_text=self._typed)
        kb.text = self.typing
        self.body.add_widget(kb)
        recent = [n for n in _recent_names(self.app.snapshot) if n not in self.players]
        recent += [n for n in sorted(self.people) if n not in recent and n not in self.players]  # the roster too
        rrow = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        rrow.add_widget(FitLabel(_("Recent:"), size_hint_x=None, width=dp(90), color=MUTED, base_font=dp(17)))
        for name in recent[:6]:
            b = Btn(name, role="flat", tid=f"new.recent.{name}", base_font=dp(18))
            b.bind(on_release=lambda _b, n=name: self._add(n))
            rrow.add_widget(b)
        for _i in range(6 - len(recent[:6])):
            rrow.add_widget(BoxLayout())
        self.body.add_widget(rrow)
        self.body.add_widget(BoxLayout())  # takes the slack

    def _typed(self, text):
        self.typing = text
        self.typed_label.text = text

    def _add_typed(self):
        name = self.typing.strip()
        if name:
            self.typing = ""
            self._add(name)

    def _add(self, name):
        if name in self.players:
            self.app.toast.show(_("{name} is already playing.").format(name=name), "refused")
            return
        if len(self.players) >= self.game_cls.max_players:
            self.app.toast.show(_("{game} is for {lo}–{hi} players.").format(
                game=self._title(), lo=self.game_cls.min_players, hi=self.game_cls.max_players), "refused")
            return
        self.players.append(name)
        self._show()

    def _remove(self, name):
        self.players.remove(name)
        self.pods.pop(name, None)
        self._show()

    def _step_options(self):
        self.title.text = _("{game}: options").format(game=self._title())
        rows = BoxLayout(orientation="vertical", spacing=GAP)
        shown = 0
        for opt in self.game_cls.options_spec:
            editor = self._option_editor(opt)
            if editor is None:
                continue
            shown += 1
            label = FitLabel(option_label(opt.name), base_font=dp(19), halign="left",
                             size_hint=(None, None), width=dp(210), height=editor.height)
            row = BoxLayout(size_hint_y=None, height=editor.height, spacing=GAP)
            row.add_widget(label)
            row.add_widget(editor)
            rows.add_widget(row)
        if not shown:
            rows.add_widget(FitLabel(_("This game has no options to choose."), size_hint_y=None, height=TOUCH,
                                     color=MUTED))
        self.body.add_widget(Scroller(rows))

    def _set_option(self, name, value, default):
        if value == default:
            self.options.pop(name, None)
        else:
            self.options[name] = value

    def _option_editor(self, opt):
        name, default = opt.name, opt.default
        current = self.options.get(name, default)
        tid = f"new.opt.{name}"
        if opt.role in ("starter", "record"):  # who starts: with the seats; what the play is recorded as: typed
            return None                          # where there is a keyboard (the terminal table, `new`, a script)
        if opt.choices:
            return Chips(list(opt.choices), [word(c) for c in opt.choices], selected=[current], tid=tid,
                         on_change=lambda v: self._set_option(name, v, default))
        if isinstance(default, bool):
            return Chips([True, False], [_("yes"), _("no")], selected=[current], tid=tid,
                         on_change=lambda v: self._set_option(name, v, default))
        if isinstance(default, int):
            return Stepper(current, lo=opt.lo, hi=opt.hi, tid=tid,
                           on_change=lambda v: self._set_option(name, v, default))
        if opt.presets:
            labels = [str(label) for label, _value in opt.presets]
            values = {str(label): value for label, value in opt.presets}
            chosen = next((k for k, v in values.items() if v == current), labels[0])
            return Chips(labels, [engine_text(label) for label, _value in opt.presets], selected=[chosen], cols=2,
                         tid=tid, on_change=lambda v: self._set_option(name, values[v], default))
        if opt.pick_from and isinstance(default, list):
            box: list[str] = self.options.get(opt.pick_from) or next(
                (o.default for o in self.game_cls.options_spec if o.name == opt.pick_from), [])
            return Chips(list(box), [word(d) for d in box], selected=list(current), multi=True, cols=3, tid=tid,
                         on_change=lambda v: self._set_option(name, list(v), default))
        if opt.per_player and isinstance(default, dict):
            names = list(opt.per_player)
            grid = BoxLayout(orientation="vertical", spacing=GAP, size_hint_y=None)
            for player in self.players:
                line = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
                line.add_widget(FitLabel(player, size_hint_x=None, width=dp(100), base_font=dp(18)))
                chips = Chips([""] + names, ["—"] + names, selected=[current.get(player, "")],
                              tid=f"{tid}.{player}",
                              on_change=lambda v, p=player: self._set_per_player(name, p, v))
                line.add_widget(chips)
                grid.add_widget(line)
            grid.height = len(self.players) * (TOUCH + GAP)
            return grid
        return None  # lists and objects without an editor keep their default

    def _set_per_player(self, option, player, value):
        chosen = dict(self.options.get(option, {}))
        if value:
            chosen[player] = value
        else:
            chosen.pop(player, None)
        self._set_option(option, chosen, {})

    def _step_seats(self):
        self.title.text = _("{game}: seats and who starts").format(game=self._title())
        # Each player at their usual pod (the roster's), where it is free; the others in the order entered
        n = len(self.players)
        taken = {self.pods[p] for p in self.players if p in self.pods}
        for name in self.players:
            seat = self.people.get(name, (0, None))[1]
            if name not in self.pods and seat is not None and 1 <= seat <= n and seat not in taken:
                self.pods[name] = seat
                taken.add(seat)
        for name in self.players:
            if name not in self.pods:
                self.pods[name] = min(k for k in range(1, n + 1) if k not in taken)
                taken.add(self.pods[name])
        self.body.add_widget(FitLabel(_("Which pod each player sits at (tap two to swap):"), size_hint_y=None,
                                      height=dp(30), halign="left", color=MUTED, base_font=dp(17)))
        grid = GridLayout(cols=4, spacing=GAP, size_hint_y=None)
        grid.height = ((len(self.players) + 3) // 4) * (TOUCH + GAP)
        self._swap_from = None
        self._pod_buttons = {}
        for name in sorted(self.players, key=lambda n: self.pods[n]):
            b = Btn("", role="flat", tid=f"new.pod.{name}", base_font=dp(18))
            b.bind(on_release=lambda _b, n=name: self._tap_pod(n))
            self._pod_buttons[name] = b
            grid.add_widget(b)
        self._paint_pods()
        self.body.add_widget(grid)
        # Each player's colour (their card, chart line and on-screen pod), the player's whatever pod they
        # take: by the order entered, a tap takes the next colour nobody has
        order = list(self.players)
        used: set[int] = set()
        for name in order:
            k = self.colour_of.get(name)
            if k is None and name in self.people:  # the roster's colour for this person
                k = self.people[name][0]
            if k is None or k in used:  # the first colour nobody has
                k = next(i for i in range(COLOURS) if i not in used)
            self.colour_of[name] = k
            used.add(k)
        self.body.add_widget(FitLabel(_("Colours (tap to change):"), size_hint_y=None, height=dp(30), halign="left",
                                      color=MUTED, base_font=dp(17)))
        row = GridLayout(cols=max(1, len(order)), spacing=GAP, size_hint_y=None, height=TOUCH)
        self._colour_buttons = {}
        for name in order:
            b = SwatchBtn(name, swatch=player_colour(self.colour_of[name]), tid=f"new.colour.{name}",
                          base_font=dp(17))
            b.bind(on_release=lambda _b, n=name: self._next_colour(n))
            self._colour_buttons[name] = b
            row.add_widget(b)
        self.body.add_widget(row)
        hint = self.game_cls.starter_hint(self.options)  # the rulebook's words, if it has some
        who_starts = engine_text(hint) if hint is not None else _("Who starts?")
        self.body.add_widget(FitLabel(who_starts + ":", size_hint_y=None, height=dp(30), halign="left", color=MUTED,
                                      base_font=dp(17)))
        values = self.players + ["random"]
        labels = self.players + [_("random")]
        chips = Chips(values, labels, selected=[self.starter or self.players[0]], cols=min(5, len(values)),
                      tid="new.starter", on_change=self._set_starter)
        self.body.add_widget(chips)
        self.body.add_widget(BoxLayout())

    def _paint_pods(self):
        for name, b in self._pod_buttons.items():
            b.text = _("Pod {n}: {name}").format(n=self.pods[name], name=name)
            b.role = "on" if name == self._swap_from else "flat"

    def _tap_pod(self, name):
        if self._swap_from is None:
            self._swap_from = name
        elif self._swap_from == name:
            self._swap_from = None
        else:
            a, b = self._swap_from, name
            self.pods[a], self.pods[b] = self.pods[b], self.pods[a]
            self._swap_from = None
        self._paint_pods()

    def _next_colour(self, name):
        taken = {v for n, v in self.colour_of.items() if n != name and n in self.players}
        k = self.colour_of[name]
        for _step in range(COLOURS):
            k = (k + 1) % COLOURS
            if k not in taken:
                break
        self.colour_of[name] = k
        self._colour_buttons[name].swatch = player_colour(k)

    def _set_starter(self, value):
        self.starter = value

    # -- start ----------------------------------------------------------------------------
    def _start(self):
        # Players in pod order: the pods sit clockwise around the table, so this is
        # the seating (and the turn order); pod n is then the n-th player's, as the
        # hardware pods number them.
        players = sorted(self.players, key=lambda n: self.pods.get(n, 99))
        starter = self.starter or self.players[0]
        if starter == "random":
            starter = random.SystemRandom().choice(players)
        options = dict(self.options)
        starter_option = _starter_option(self.game_cls)
        if starter_option:
            if starter != players[0]:
                options[starter_option] = starter
        else:
            i = players.index(starter)  # no option for it: the list starts with the starter, clockwise
            players = players[i:] + players[:i]
        pods = dict(self.pods)
        colours = {name: self.colour_of[name] for name in players}
        try:
            self.game_cls(players, options)  # refuse a bad setup here, with its reason
        except SetupError as e:
            self.app.toast.show(engine_text(e), "refused")
            return

        self.app.keeper.new_game(self.game_id, players, options,
                                 then=lambda game_id: self.app.remember_table(game_id, pods, colours))
        self.reset()
