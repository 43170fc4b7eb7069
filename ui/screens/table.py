"""The table: every player's counters, whose turn, the table's counters, last chances.

Built once per game and window size, then only its numbers and colours change
(an adjustment costs a few label updates, not a rebuild).

Layout at 800x480: a header (home, turn and table counters, undo, redo,
history), one card per player (one row of cards up to four players, two rows
above), a red banner while a "last chance" is pending, and a footer with the
game's guided dialogs.
"""
from __future__ import annotations

import math

from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ..forms import touch_actions
from ..i18n import _, counter_label, word
from ..widgets import (
    AMBER,
    CARD,
    CARD_OUT,
    CARD_TURN,
    GAP,
    GREEN,
    MUTED,
    RED,
    ROLES,
    SYMBOL_FONT,
    TEXT,
    TOUCH,
    Btn,
    FitLabel,
    Panel,
    tag,
)
from .base import HEADER, BaseScreen

NAME_H = dp(32)
STATUS_H = dp(24)


def turn_words(state: dict) -> str:
    """'Ana's turn — drink · turn 3' from the state's ``turn`` (any game)."""
    turn = state.get("turn")
    if state.get("over"):
        return _("Game over")
    if not isinstance(turn, dict) or not turn.get("player"):
        phase = state.get("phase")
        return word(phase) if isinstance(phase, str) else ""
    text = _("{name}'s turn").format(name=turn["player"])
    phase = turn.get("phase") or state.get("phase")
    if isinstance(phase, str) and phase:
        text += " — " + word(phase)
    if isinstance(turn.get("number"), int):
        text += " · " + _("turn {n}").format(n=turn["number"])
    return text


def table_words(state: dict) -> str:
    return "   ".join(f"{counter_label(k)} {v}" for k, v in state.get("table", {}).items())


def counter_order(rules, state, name) -> list[str]:
    """A player's counters in the game's display order (its seat view first)."""
    p = next(p for p in state["players"] if p["name"] == name)
    names = list(p["counters"])
    try:
        shown = [c for c, _v in rules.seat_view(state, name).get("counters", []) if c in p["counters"]]
    except Exception:  # a seat view must never break the table
        shown = []
    return shown + [c for c in names if c not in shown]



class CounterRow(BoxLayout):
    """[−] counter name + big value [+]; a tap on the value opens the adjust dialog."""

    def __init__(self, screen, player, counter, compact=False, **kw):
        super().__init__(spacing=dp(3), **kw)
        self.player, self.counter = player, counter
        base = f"table.{player}.{counter}"
        if compact:
            self.value = Btn("", role="flat", markup=True, base_font=dp(30), min_font=dp(10), tid=f"{base}.value",
                             on_press=lambda: screen.open_adjust(player, counter))
            self.add_widget(self.value)
            return
        self.add_widget(Btn("−", base_font=dp(28), size_hint_x=None, width=TOUCH, tid=f"{base}.minus",
                            on_press=lambda: screen.adjust(player, counter, -1)))
        self.value = Btn("", role="flat", markup=True, base_font=dp(36), min_font=dp(10), tid=f"{base}.value",
                         on_press=lambda: screen.open_adjust(player, counter))
        self.add_widget(self.value)
        self.add_widget(Btn("+", base_font=dp(28), size_hint_x=None, width=TOUCH, tid=f"{base}.plus",
                            on_press=lambda: screen.adjust(player, counter, +1)))

    def show(self, value):
        label = counter_label(self.counter)
        self.value.text = f"[size={int(dp(13))}]{label}[/size]\n[b]{value}[/b]"


class PlayerCard(Panel):
    """One player: name and badge, status line, counters (rows with ± or tiles), routine actions.

    ``compact``: counters as tiles (a tap opens the adjust dialog) when rows
    with ± buttons would be under 48 px. ``status_row``: the status gets a
    line of its own; without it the badge shows it.
    """

    def __init__(self, screen, name, counters, compact, tile_cols, status_row=True, **kw):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(3), border_width=2, **kw)
        self.name = name
        top = BoxLayout(size_hint_y=None, height=NAME_H, spacing=dp(4))
        self.title = tag(FitLabel(name, base_font=dp(22), min_font=dp(11), bold=True, halign="left"),
                         f"table.{name}.name")
        top.add_widget(self.title)
        self.badge = tag(FitLabel("", base_font=dp(15), min_font=dp(8), size_hint_x=1.3, halign="right",
                                  color=AMBER, wrap=True, **({"font_name": SYMBOL_FONT} if SYMBOL_FONT else {})),
                         f"table.{name}.badge")
        top.add_widget(self.badge)
        self.add_widget(top)
        self.status = tag(FitLabel("", base_font=dp(15), min_font=dp(9), size_hint_y=None, height=STATUS_H,
                                   halign="left", color=MUTED), f"table.{name}.status")
        self.status_row = status_row and not compact
        if self.status_row:
            self.add_widget(self.status)
        self.rows = {}
        if compact:
            grid = GridLayout(cols=tile_cols, spacing=dp(3))
            for c in counters:
                row = CounterRow(screen, name, c, compact=True)
                self.rows[c] = row
                grid.add_widget(row)
            self.add_widget(grid)
        else:
            for c in counters:
                row = CounterRow(screen, name, c)
                self.rows[c] = row
                self.add_widget(row)
        self.actions = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(3))
        self.add_widget(self.actions)
        self._actions_key = None
        self._screen = screen

    def show(self, state, player, sv, actions, turn_player):
        for c, row in self.rows.items():
            row.show(player["counters"].get(c, ""))
        status = sv.get("status", "") or ""
        winner = state["over"] and name_in(self.name, state.get("winners", []))
        if player["out"]:
            self.bg, self.border = CARD_OUT, (0.25, 0.25, 0.27, 1)
            badge = _("out")
        elif winner:
            self.bg, self.border = CARD_TURN, GREEN
            badge = _("winner")
        elif sv.get("alert"):
            self.bg, self.border = (0.3, 0.12, 0.11, 1), RED
            badge = _("last chance")
        elif turn_player == self.name and not state["over"]:
            self.bg, self.border = CARD_TURN, AMBER
            badge = "▶ " + _("turn") if SYMBOL_FONT else _("turn")
        else:
            self.bg, self.border = CARD, (0.3, 0.33, 0.38, 1)
            badge = ""
        if not self.status_row and status and not player["out"] and not winner:
            badge = word(status)  # no line of its own: the badge says it
        self.badge.text = badge
        self.status.text = word(status)
        self.status.color = RED if sv.get("alert") else MUTED
        self.title.color = MUTED if player["out"] else TEXT
        key = tuple((a.get("label"), repr(a.get("action"))) for a in actions[:2])
        if key != self._actions_key:
            self._actions_key = key
            self.actions.clear_widgets()
            for i, a in enumerate(actions[:2]):
                btn = Btn(word(a.get("label", "")), role="primary" if i == 0 else "normal",
                          base_font=dp(17), min_font=dp(9), tid=f"table.{self.name}.do.{i}",
                          on_press=lambda act=a["action"]: self._screen.app.submit(dict(act)))
                btn.wrap = True  # a label with a name in it ("drink for Christopher") may take two lines
                self.actions.add_widget(btn)


class InfoButton(ButtonBehavior, Panel):
    """Whose turn and which phase, over the table's counters; a tap adjusts the table's counters."""

    def __init__(self, **kw):
        super().__init__(orientation="vertical", padding=(dp(6), dp(2)), bg=ROLES["flat"], **kw)
        tag(self, "table.info")
        self.turn = tag(FitLabel("", base_font=dp(19), min_font=dp(9), bold=True, halign="left"), "table.turn")
        self.table = tag(FitLabel("", base_font=dp(15), min_font=dp(8), halign="left", color=MUTED),
                         "table.counters")
        self.add_widget(self.turn)
        self.add_widget(self.table)

    def show(self, turn: str, table: str):
        self.turn.text = turn
        self.table.text = table
        self.table.size_hint_y = 0.8 if table else 0.001


def name_in(name, names) -> bool:
    return name in (names or [])


class TableScreen(BaseScreen):
    def build(self):
        bar = BoxLayout(size_hint_y=None, height=HEADER, spacing=GAP, padding=(0, dp(2)))
        bar.add_widget(Btn(_("Home"), size_hint_x=None, width=dp(96), tid="table.home",
                           on_press=lambda: self.app.go("home")))
        self.info = InfoButton(on_release=lambda *_: self.open_table_counters())
        bar.add_widget(self.info)
        self.undo = Btn(_("Undo"), size_hint_x=None, width=dp(104), tid="table.undo",
                        on_press=lambda: self.app.submit({"action": "undo"}))
        self.redo = Btn(_("Redo"), size_hint_x=None, width=dp(104), tid="table.redo",
                        on_press=lambda: self.app.submit({"action": "redo"}))
        self.history = Btn(_("History"), size_hint_x=None, width=dp(116), tid="table.history",
                           on_press=lambda: self.app.go("history"))
        for w in (self.undo, self.redo, self.history):
            bar.add_widget(w)
        self.box.add_widget(bar)
        self.cards_box = BoxLayout()
        self.box.add_widget(self.cards_box)
        self.pending = Panel(bg=(0.45, 0.12, 0.1, 1), padding=(dp(8), 0), spacing=GAP)
        self.pending_label = tag(FitLabel("", base_font=dp(18), min_font=dp(9), wrap=True, halign="left"),
                                 "table.pending")
        self.pending.add_widget(self.pending_label)
        self.resolve = Btn(_("Resolve"), role="danger", size_hint_x=None, width=dp(150), tid="table.resolve",
                           on_press=lambda: self.app.submit({"action": "resolve"}))
        self.pending.add_widget(self.resolve)
        self.footer = BoxLayout(spacing=GAP)
        # The footer and the last-chance banner share one slot: while a loss is
        # pending, resolving it is what matters (adjustments stay on the cards).
        self.bottom = BoxLayout(size_hint_y=None, height=TOUCH)
        self.bottom.add_widget(self.footer)
        self.box.add_widget(self.bottom)
        self.cards: dict[str, PlayerCard] = {}
        self._key = None
        self.bind(size=lambda *_: self._relayout())

    # -- building for a game --------------------------------------------------------------
    def _relayout(self):
        # update() rebuilds the cards only if the size really changed (its key has the size).
        if getattr(self.app, "snapshot", None) is not None and self.app.snapshot.table is not None:
            self.update(self.app.snapshot)

    def _build_cards(self, table):
        from ..games import dialogs_for

        state, rules = table.state, table.rules
        names = table.players
        n = len(names)
        cols = n if n <= 4 else math.ceil(n / 2)
        rows = 1 if n <= 4 else 2
        avail_h = self.height - HEADER - TOUCH - 2 * GAP - dp(8)
        card_h = (avail_h - (rows - 1) * GAP) / rows
        orders = {name: counter_order(rules, state, name) for name in names}
        most = max((len(v) for v in orders.values()), default=1) or 1
        inner = card_h - dp(8) - NAME_H - TOUCH - 2 * dp(3)
        row = TOUCH + dp(3)
        status_row = (inner - STATUS_H - dp(3)) >= most * row
        compact = not status_row and inner < most * row
        tile_rows = max(1, int((inner + dp(3)) // row))
        tile_cols = max(1, math.ceil(most / tile_rows))
        grid = GridLayout(cols=cols, rows=rows, spacing=GAP)
        self.cards = {}
        for name in names:
            card = PlayerCard(self, name, orders[name], compact, tile_cols, status_row)
            self.cards[name] = card
            grid.add_widget(card)
        self.cards_box.clear_widgets()
        self.cards_box.add_widget(grid)
        self.footer.clear_widgets()
        for button in dialogs_for(table.game):
            self.footer.add_widget(Btn(button.label(), role="primary", base_font=dp(18), min_font=dp(10),
                                       tid=f"table.guided.{button.id}",
                                       on_press=lambda b=button: b.open(self.app)))
        self.footer.add_widget(Btn(_("More actions"), base_font=dp(18), tid="table.more",
                                   on_press=self.open_actions))
        if self.app.pods is not None:
            self.footer.add_widget(Btn(_("Pods"), base_font=dp(18), size_hint_x=0.6, tid="table.pods",
                                       on_press=lambda: self.app.go("pods")))

    def update(self, snap, **kw):
        table = snap.table
        if table is None:
            return
        key = (table.game_id, tuple(table.players), tuple(int(x) for x in self.size))
        if key != self._key:
            self._key = key
            self._build_cards(table)
        state, rules = table.state, table.rules
        turn = state.get("turn") if isinstance(state.get("turn"), dict) else {}
        turn_player = turn.get("player")
        for p in state["players"]:
            card = self.cards.get(p["name"])
            if card is None:
                continue
            try:
                sv = rules.seat_view(state, p["name"])
                actions = [] if state["over"] else touch_actions(rules, state, p["name"])
            except Exception:
                sv, actions = {}, []
            card.show(state, p, sv, actions, turn_player)
        self.info.show(turn_words(state), table_words(state))
        self.undo.disabled = not table.can_undo
        self.redo.disabled = not table.can_redo
        pending = state.get("pending") or []
        if pending:
            texts = [f"{item.get('name', '')}: {word(item.get('reason', ''))}" for item in pending]
            self.pending_label.text = _("Last chance — {what}").format(what="; ".join(texts))
            if self.pending.parent is None:
                self.bottom.clear_widgets()
                self.bottom.add_widget(self.pending)
        elif self.footer.parent is None:
            self.bottom.clear_widgets()
            self.bottom.add_widget(self.footer)

    # -- touches ---------------------------------------------------------------------------
    def adjust(self, player, counter, delta):
        self.app.submit({"action": "adjust", "player": player, "counter": counter, "delta": delta})

    def open_adjust(self, player, counter):
        from ..dialogs import AdjustDialog

        AdjustDialog(self.app, player, counter).open()

    def open_table_counters(self):
        table = self.app.snapshot.table
        if table is None or not table.state.get("table"):
            return
        from ..dialogs import AdjustDialog

        AdjustDialog(self.app, None, None).open()

    def open_actions(self):
        from ..dialogs import ActionDialog

        ActionDialog(self.app).open()
