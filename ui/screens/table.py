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

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from ...hardware.icons import FONT as ICON_FONT
from ...hardware.icons import GLYPHS, icon_for
from ..forms import touch_actions
from ..i18n import _, counter_label, word
from ..legibility import MIN_KEY_TEXT, MIN_TEXT, key_text
from ..seating import FACING_PLAYERS, facing_sides
from ..widgets import (
    AMBER,
    CARD,
    CARD_OUT,
    CARD_TURN,
    GAP,
    GREEN,
    GREEN_TEXT,
    GREY,
    MUTED,
    RED,
    ROLES,
    SYMBOL_FONT,
    TEXT,
    TOUCH,
    Btn,
    ChoiceLabel,
    FitLabel,
    Panel,
    TurnedBox,
    same_size,
    tag,
)
from .base import HEADER, BaseScreen

NAME_H = dp(32)
#: A counter's name line on its cell (12-14 px text)
NAME_LINE = dp(17)
STATUS_H = dp(24)
#: A card's line for the game's board (its annexes), and the width of the board's column of places.
LINE_H = dp(22)
PLACES_W = dp(84)
#: A changed value's flash: its colour and how long it stays lit.
FLASH = (0.36, 0.4, 0.48, 1)  # a change lights its cell: neutral (amber is player 2's, green the winner's)
FLASH_S = 0.6


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


def table_choices(state: dict, leave_out: str | None = None) -> list[str]:
    """The table's counters as a line, then shorter ones (the first counters and "…"): what a narrow
    header shows instead of shrinking them (a tap opens them all)."""
    items = [f"{counter_label(k)} {v}" for k, v in state.get("table", {}).items() if k != leave_out]
    return ["   ".join(items)] + ["   ".join(items[:k]) + " …" for k in range(len(items) - 1, 0, -1)] + (
        ["…"] if items else [])


def turn_choices(state: dict) -> list[str]:
    """:func:`turn_words`, then shorter (without the turn's number, then without its phase, then the
    player's name alone: their card's frame says the rest)."""
    full = turn_words(state)
    turn = state.get("turn")
    if state.get("over") or not isinstance(turn, dict) or not turn.get("player"):
        return [full]
    short = full.split(" · ")[0]
    return list(dict.fromkeys([full, short, short.split(" — ")[0], turn["player"]]))


def counter_order(rules, state, name) -> list[str]:
    """A player's counters in the game's display order (its seat view first), then what the seat view
    shows that the rules work out (:func:`derived`: a hand, corpses), by id."""
    p = next(p for p in state["players"] if p["name"] == name)
    names = list(p["counters"])
    try:
        # the seat view names its counters as the pods' words: the ids here (a word is looked up by id)
        shown = [str.__str__(c) for c, _v in rules.seat_view(state, name).get("counters", []) if c in p["counters"]]
    except Exception:  # a seat view must never break the table
        shown = []
    return shown + [c for c in names if c not in shown] + list(derived(rules, state, name))


def derived(rules, state, name) -> dict[str, tuple[str, object]]:
    """What a player's seat view shows beside their counters, worked out by the rules from the moves
    (the Bloody Inn's hand and corpses): id → (its word, its value). Shown on the card, never
    adjusted there: a correction goes through the game's own actions."""
    p = next(p for p in state["players"] if p["name"] == name)
    try:
        entries = rules.seat_view(state, name).get("counters", [])
    except Exception:  # a seat view must never break the table
        return {}
    return {str.__str__(c): (word(c), v) for c, v in entries if c not in p["counters"]}



class CounterCell(ButtonBehavior, Panel):
    """A counter's icon and name over its big value; a tap opens the adjust dialog.

    Two labels, each fitted to its own box (a value never runs into the next row), and
    ``text`` is the value as shown. A change flashes the cell (:func:`flash_panel`: lit in the
    frame that shows the new value, put out by one redraw later) and shows by how much ("−3")
    beside the value until the next action of the game.
    """

    text = StringProperty("")

    def __init__(self, tid, counter, icon, compact=False, label=None, **kw):
        super().__init__(orientation="vertical", bg=ROLES["flat"], padding=(dp(2), dp(1)), **kw)
        tag(self, tid)
        self.counter = counter
        # the name's line as high as 12 px text needs, whatever the cell's height (the value takes the rest)
        top = BoxLayout(size_hint_y=None, height=NAME_LINE, spacing=dp(3))
        self.icon = tag(FitLabel(icon, font_name=ICON_FONT, base_font=dp(13), min_font=MIN_TEXT, color=MUTED,
                                 size_hint_x=None, width=dp(17)), tid.rsplit(".", 1)[0] + ".icon")
        self.name = FitLabel(label or counter_label(counter), base_font=dp(14), min_font=MIN_TEXT, color=MUTED,
                             halign="left")
        self.name.droppable = True  # too narrow for the name: the icon alone says which counter
        top.add_widget(Widget(size_hint_x=0.001))
        top.add_widget(self.icon)
        top.add_widget(self.name)
        self.add_widget(top)
        below = BoxLayout(spacing=dp(2))
        self.number = key_text(FitLabel("", base_font=dp(30 if compact else 34), min_font=MIN_KEY_TEXT, bold=True))
        below.add_widget(self.number)
        self.delta = tag(FitLabel("", base_font=dp(18), min_font=MIN_TEXT, bold=True, color=TEXT, size_hint_x=None,
                                  width=0), tid.rsplit(".", 1)[0] + ".delta")
        below.add_widget(self.delta)
        self.add_widget(below)
        self._shown = None
        self._since = None  # the game's moment the delta shown belongs to

    def show(self, value, flash=True, moment=None):
        """The value; ``moment`` names the game's last action (a new one puts an old delta away)."""
        text = str(value)
        if text == self._shown:
            if self._since is not None and moment != self._since:
                self._delta("", None)
            return
        before, self._shown = self._shown, text
        self.text = self.number.text = text
        try:
            step = int(text) - int(before) if before is not None else None
        except ValueError:
            step = None
        self._delta(f"{step:+d}".replace("-", "−") if step else "", moment if step else None)
        if before is not None and flash:
            flash_panel(self, ROLES["flat"])

    def _delta(self, text: str, moment) -> None:
        self.delta.text, self._since = text, moment
        self.delta.width = dp(14) * len(text) if text else 0


def flash_panel(panel, rest, colour=FLASH, seconds=FLASH_S):
    """Light ``panel`` up in ``colour``, back to ``rest`` after ``seconds``.

    Two steps, not a fade: the light comes in the very frame that shows the change, and one
    redraw puts it out (restarted by a new change, so a burst of changes costs one). A fade
    would redraw the whole window every frame while it runs, and a touch's frame would wait
    for those (4x the touch-to-frame time with software GL, measured in bench/bench_app.py).
    """
    unflash = getattr(panel, "_unflash", None)
    if unflash is None:
        unflash = panel._unflash = Clock.create_trigger(lambda dt: setattr(panel, "bg", panel._flash_rest), seconds)
    panel._flash_rest = rest
    panel.bg = colour
    unflash.cancel()
    unflash.timeout = seconds
    unflash()


class CounterRow(BoxLayout):
    """[−] icon, counter name and big value [+]; a tap on the value opens the adjust dialog."""

    def __init__(self, screen, player, counter, icon, compact=False, label=None, **kw):
        super().__init__(spacing=dp(3), **kw)
        self.player, self.counter = player, counter
        base = f"table.{player}.{counter}"
        if label is not None:  # worked out by the rules: shown, not adjusted (a tap says so)
            self.value = CounterCell(f"{base}.value", counter, icon, compact=True, label=label,
                                     on_release=lambda *_: screen.app.toast.show(
                                         _("{what}: the device counts it from the moves").format(what=label), "info",
                                         screen.angles.get(player, 0)))
            self.add_widget(self.value)
            return
        self.value = CounterCell(f"{base}.value", counter, icon, compact=compact,
                                 on_release=lambda *_: screen.open_adjust(player, counter))
        if compact:
            self.add_widget(self.value)
            return
        self.add_widget(Btn("−", base_font=dp(28), size_hint_x=None, width=TOUCH, tid=f"{base}.minus",
                            on_press=lambda: screen.adjust(player, counter, -1)))
        self.add_widget(self.value)
        self.add_widget(Btn("+", base_font=dp(28), size_hint_x=None, width=TOUCH, tid=f"{base}.plus",
                            on_press=lambda: screen.adjust(player, counter, +1)))

    def show(self, value, flash=True, moment=None):
        self.value.show(value, flash, moment)


class PlayerCard(Panel):
    """One player: name and badge, status line, counters (rows with ± or tiles), routine actions.

    ``compact``: counters as tiles (a tap opens the adjust dialog; ``wide_tiles``: with − and + too)
    when rows with ± buttons would be under 48 px. ``status_row``: the status gets a line of its
    own; without it the badge shows it. ``line``: a line under the counters for the game's board
    (the Bloody Inn's annexes, :class:`~tablekeeper.ui.games.Board`).
    """

    def __init__(self, screen, name, counters, compact, tile_cols, status_row=True, icons=None, colour=TEXT,
                 wide_tiles=False, labels=None, line=False, **kw):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(3), border_width=2, **kw)
        self.name = name
        self.colour = colour
        top = BoxLayout(size_hint_y=None, height=NAME_H, spacing=dp(4))
        self.stripe = tag(Panel(bg=colour, size_hint_x=None, width=dp(6)), f"table.{name}.colour")
        top.add_widget(self.stripe)
        self.title = tag(key_text(FitLabel(name, base_font=dp(22), min_font=MIN_KEY_TEXT, bold=True, halign="left",
                                           color=colour)), f"table.{name}.name")
        top.add_widget(self.title)
        self.badge = tag(FitLabel("", base_font=dp(15), min_font=MIN_TEXT, size_hint_x=1.3, halign="right",
                                  color=TEXT, wrap=True, **({"font_name": SYMBOL_FONT} if SYMBOL_FONT else {})),
                         f"table.{name}.badge")
        top.add_widget(self.badge)
        self.mark = tag(FitLabel("", font_name=ICON_FONT, base_font=dp(18), min_font=MIN_TEXT, size_hint_x=None,
                                 width=0, color=GREEN_TEXT), f"table.{name}.mark")
        top.add_widget(self.mark)
        self.add_widget(top)
        self.status = tag(FitLabel("", base_font=dp(15), min_font=MIN_TEXT, size_hint_y=None, height=STATUS_H,
                                   halign="left", color=MUTED), f"table.{name}.status")
        self.status_row = status_row and not compact
        if self.status_row:
            self.add_widget(self.status)
        self.rows = {}
        if compact:
            grid = GridLayout(cols=tile_cols, spacing=dp(3))
            for c in counters:
                row = CounterRow(screen, name, c, icon_for(icons, c), compact=not wide_tiles,
                                 label=(labels or {}).get(c))
                self.rows[c] = row
                grid.add_widget(row)
            self.add_widget(grid)
        else:
            for c in counters:
                row = CounterRow(screen, name, c, icon_for(icons, c), label=(labels or {}).get(c))
                self.rows[c] = row
                self.add_widget(row)
        self.line = None
        if line:
            self.line = tag(FitLabel("", base_font=dp(16), min_font=dp(8), size_hint_y=None, height=LINE_H,
                                     halign="left", color=TEXT, wrap=True,
                                     **({"font_name": SYMBOL_FONT} if SYMBOL_FONT else {})),
                            f"table.{name}.board")
            self.add_widget(self.line)
        self.actions = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(3))
        self.add_widget(self.actions)
        self._actions_key = None
        self._screen = screen
        self._fate = None  # "out" / "winner" last shown: a change of it gets its moment
        self._seen = False
        self._rest = None  # the background the card's look wants (a flash fades back to it)

    def show(self, state, player, sv, actions, turn_player, flash=True, moment=None):
        worked_out = {str.__str__(c): v for c, v in sv.get("counters", []) if c not in player["counters"]}
        for c, row in self.rows.items():
            row.show(player["counters"][c] if c in player["counters"] else worked_out.get(c, ""), flash, moment)
        status = sv.get("status", "") or ""
        winner = state["over"] and name_in(self.name, state.get("winners", []))
        if player["out"]:
            bg, self.border = CARD_OUT, (0.25, 0.25, 0.27, 1)
            badge = _("out")
        elif winner:
            bg, self.border = CARD_TURN, GREEN
            badge = _("winner")
        elif sv.get("alert"):
            bg, self.border = (0.3, 0.12, 0.11, 1), RED
            badge = _("last chance")
        elif turn_player == self.name and not state["over"]:
            bg, self.border = CARD_TURN, TEXT
            badge = "▶ " + _("turn") if SYMBOL_FONT else _("turn")
        else:
            bg, self.border = CARD, (0.3, 0.33, 0.38, 1)
            badge = ""
        # whose turn is a shape (a thick light frame and "▶"), not a colour; the badge's colour says
        # the same as the card's: green the winner, red the last chance, light the turn
        self.border_width = 4 if turn_player == self.name and not state["over"] and not player["out"] else 2
        self.badge.color = GREEN_TEXT if winner else RED if sv.get("alert") else TEXT if badge else MUTED
        if not self.status_row and status and not player["out"] and not winner:
            badge = word(status)  # no line of its own: the badge says it
        if bg != self._rest:  # a new look (a turn, a last chance): a flash must not end at the old one
            self.bg = self._rest = self._flash_rest = bg
        fate = "winner" if winner else ("out" if player["out"] else None)
        if fate != self._fate:
            # an elimination or a win gets its moment: the skull or the crown, and the card lit briefly
            self.mark.text = GLYPHS["crown"] if fate == "winner" else (GLYPHS["skull"] if fate == "out" else "")
            self.mark.color = GREEN_TEXT if fate == "winner" else MUTED
            self.mark.width = dp(24) if fate else 0
            if flash and self._seen:
                flash_panel(self, bg, colour=GREEN if fate == "winner" else RED, seconds=1.2)
            self._fate = fate
        self._seen = True
        self.badge.text = badge
        self.badge.size_hint_x = 1.3 if badge else 0.05  # no badge: the name has the whole bar
        self.status.text = word(status)
        self.status.color = RED if sv.get("alert") else MUTED
        self.title.color = MUTED if player["out"] else self.colour
        key = tuple((a.get("label"), repr(a.get("action"))) for a in actions)
        if key != self._actions_key:
            self._actions_key = key
            self.actions.clear_widgets()
            # Two buttons: the likeliest two, or, when the moment offers more, the likeliest and
            # "more" — every offer of the moment in a list that faces this player.
            shown = actions[:2] if len(actions) <= 2 else actions[:1]
            for i, a in enumerate(shown):
                btn = Btn(word(a.get("label", "")), role="primary" if i == 0 else "normal",
                          base_font=dp(17), min_font=MIN_TEXT, tid=f"table.{self.name}.do.{i}",
                          on_press=lambda act=a["action"]: self._screen.app.submit(dict(act)))
                btn.wrap = True  # a label with a name in it ("drink for Christopher") may take two lines
                self.actions.add_widget(btn)
            if len(actions) > 2:
                more = Btn(_("more ({n})").format(n=len(actions) - 1), base_font=dp(17), min_font=MIN_TEXT,
                           tid=f"table.{self.name}.do.more",
                           on_press=lambda acts=list(actions): self._screen.open_offers(self.name, acts))
                self.actions.add_widget(more)
            same_size(*self.actions.children)


class MainNumber(BoxLayout):
    """The game's one central table number (Dragon Run's dragon's temper): its icon and name over the
    number, large and in amber, at the head of whose-turn."""

    def __init__(self, tid, **kw):
        super().__init__(orientation="vertical", size_hint_x=None, width=0, **kw)
        tag(self, tid)
        top = BoxLayout(size_hint_y=None, height=NAME_LINE, spacing=dp(3))
        self.icon = FitLabel("", font_name=ICON_FONT, base_font=dp(13), min_font=MIN_TEXT, color=AMBER,
                             size_hint_x=None, width=dp(17))
        self.name = FitLabel("", base_font=dp(14), min_font=MIN_TEXT, color=AMBER, halign="left")
        self.name.droppable = True  # the icon alone, if the name has no room
        top.add_widget(self.icon)
        top.add_widget(self.name)
        self.add_widget(top)
        self.number = tag(key_text(FitLabel("", base_font=dp(34), min_font=MIN_KEY_TEXT, bold=True, color=AMBER)),
                          f"{tid}.value")
        self.add_widget(self.number)

    #: Narrow (between the columns of seats at the ends of the table): the icon alone names the number.
    compact = False

    def show(self, counter: str | None, icon: str, value) -> None:
        self.icon.text = icon if counter else ""
        self.name._dropped = ""  # said again below (a dropped name is tried again at the new width)
        self.name.text = counter_label(counter) if counter and not self.compact else ""
        self.icon.size_hint_x, self.icon.width = (1, dp(17)) if self.compact else (None, dp(17))
        self.name.size_hint_x = 0.001 if self.compact else 1
        self.number.text = "" if counter is None else str(value)
        self.width = (dp(46) if self.compact else dp(104)) if counter else 0
        self.opacity = 1 if counter else 0


class InfoButton(ButtonBehavior, Panel):
    """The game's central table number (if it has one), then whose turn and which phase over the
    other table counters; a tap adjusts the table's counters."""

    def __init__(self, tid="table.info", **kw):
        super().__init__(orientation="horizontal", padding=(dp(6), dp(2)), spacing=dp(6), bg=ROLES["flat"], **kw)
        tag(self, tid)
        near = tid.endswith(".near")
        self.main = MainNumber("table.main.near" if near else "table.main")
        self.add_widget(self.main)
        words = BoxLayout(orientation="vertical")
        # wrapped when narrow (between the columns of seats at the ends of the table); saying less
        # (no turn number, no phase; the first counters and "…") before shrinking under the floor
        self.turn = tag(ChoiceLabel(base_font=dp(19), min_font=MIN_TEXT, bold=True, halign="left", wrap=True),
                        "table.turn.near" if near else "table.turn")
        self.table = tag(ChoiceLabel(base_font=dp(15), min_font=MIN_TEXT, halign="left", color=MUTED, wrap=True),
                         "table.counters.near" if near else "table.counters")
        words.add_widget(self.turn)
        words.add_widget(self.table)
        self.add_widget(words)
        self._main: tuple[str | None, str, object] = (None, "", "")
        self.bind(width=lambda *_: self._narrow())

    def _narrow(self):
        if (self.width < dp(280)) != self.main.compact:
            self.main.compact = not self.main.compact
            self.main.show(*self._main)

    def show(self, turn: list[str], table: list[str], main: tuple[str | None, str, object] = (None, "", "")):
        self._main = main
        self.main.compact = self.width < dp(280)
        self.main.show(*main)
        self.turn.show(turn)
        self.table.show(table)
        self.table.size_hint_y = 0.8 if table and table[0] else 0.001


def name_in(name, names) -> bool:
    return name in (names or [])


class PlaceTile(Panel):
    """One place of the board (a room): its title, whose it is (in their colour), what is in it."""

    LOOKS = {"empty": CARD, "taken": GREY, "alert": (0.45, 0.12, 0.1, 1)}

    def __init__(self, pid: str, prefix: str = "table.place", **kw):
        super().__init__(orientation="vertical", padding=(dp(3), dp(1)), bg=CARD, **kw)
        tag(self, f"{prefix}.{pid}")
        self.title = tag(FitLabel("", base_font=dp(14), min_font=dp(8), color=MUTED), f"{prefix}.{pid}.title")
        self.holder = tag(FitLabel("", base_font=dp(14), min_font=dp(8), bold=True), f"{prefix}.{pid}.holder")
        self.content = tag(FitLabel("", base_font=dp(15), min_font=dp(8), bold=True), f"{prefix}.{pid}.content")
        for w in (self.title, self.holder, self.content):
            self.add_widget(w)

    def show(self, place, colour) -> None:
        self.title.text = place.title
        self.holder.text = place.holder
        self.holder.color = colour
        self.content.text = place.content
        self.content.color = TEXT if place.look != "empty" else MUTED
        self.bg = self.LOOKS.get(place.look, CARD)


class PlacesColumn(BoxLayout):
    """The board's places (the inn's rooms), a tile each, top to bottom, beside the cards; test ids
    ``{prefix}.{place}`` (the far side's copy has its own)."""

    def __init__(self, prefix: str = "table.place", **kw):
        super().__init__(orientation="vertical", spacing=dp(3), size_hint_x=None, width=PLACES_W, **kw)
        self.prefix = prefix
        self.tiles: dict[str, PlaceTile] = {}

    def show(self, places, colours) -> None:
        if [p.id for p in places] != list(self.tiles):
            self.clear_widgets()
            self.tiles = {p.id: PlaceTile(p.id, self.prefix) for p in places}
            for tile in self.tiles.values():
                self.add_widget(tile)
        for p in places:
            self.tiles[p.id].show(p, colours.get(p.holder, MUTED))


class TableScreen(BaseScreen):
    def build(self):
        bar = BoxLayout(size_hint_y=None, height=HEADER, spacing=GAP, padding=(0, dp(2)))
        self.home = Btn(_("Home"), size_hint_x=None, width=dp(96), tid="table.home",
                        on_press=lambda: self.app.go("home"))
        bar.add_widget(self.home)
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
        self.bar = bar
        self.bar_slot = BoxLayout(size_hint_y=None, height=HEADER)
        self.bar_slot.add_widget(bar)
        # everything but the game's board (the Bloody Inn's rooms), which takes a column beside it
        self.main = BoxLayout(orientation="vertical", spacing=GAP)
        self.row = BoxLayout(spacing=GAP)
        self.row.add_widget(self.main)
        self.box.add_widget(self.row)
        self.places = PlacesColumn()
        # ... and, when players sit on the far side, the same places at the left, turned toward them
        self.far_places = PlacesColumn("table.farplace")
        self.far_places_box = TurnedBox(self.far_places, 180, size_hint_x=None, width=PLACES_W)
        self.main.add_widget(self.bar_slot)
        self.cards_box = BoxLayout()
        self.main.add_widget(self.cards_box)
        # Seat-facing: the far side's cards above the header, turned toward their seats
        self.far_box = BoxLayout(spacing=GAP)
        # ... and, for the near side, whose turn in the footer's first place (the header faces the far side)
        self.near_info = InfoButton(tid="table.info.near", size_hint_x=1.6,
                                    on_release=lambda *_: self.open_table_counters())
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
        self.main.add_widget(self.bottom)
        self.middle = BoxLayout(orientation="vertical", spacing=GAP)  # between the ends' columns
        self.facing = False
        self.angles: dict[str, float] = {}
        self.cards: dict[str, PlayerCard] = {}
        self.board = None  # the game's board (ui/games), if it has one
        self._key = None
        self.bind(size=lambda *_: self._relayout())

    # -- building for a game --------------------------------------------------------------
    def _relayout(self):
        # update() rebuilds the cards only if the size really changed (its key has the size).
        if getattr(self.app, "snapshot", None) is not None and self.app.snapshot.table is not None:
            self.update(self.app.snapshot)

    def _build_cards(self, table):
        from ..games import board_for, dialogs_for

        state, rules = table.state, table.rules
        board = board_for(table.game)
        self.board = board
        names = table.players
        n = len(names)
        facing = self.app.settings.seat_facing and FACING_PLAYERS[0] <= n <= FACING_PLAYERS[1]
        near, far, left, right = facing_sides(self.pod_order(table), self.app.settings.table_ends)
        # the board's places: a column at the right of everything (the cards are narrower, not lower);
        # with players on the far side, its copy at the left, turned toward them
        for column in (self.places, self.far_places_box):
            if column.parent is not None:
                self.row.remove_widget(column)
        columns = 0
        if board is not None:
            self.row.add_widget(self.places)
            columns = 1
            if facing and far and not left:  # (between the ends' columns the footer has no room to give)
                self.row.add_widget(self.far_places_box, index=len(self.row.children))
                columns = 2
        width = self.width - columns * (PLACES_W + GAP)
        cols = n if n <= 4 else math.ceil(n / 2)
        rows = 1 if n <= 4 and not facing else 2
        avail_h = self.height - HEADER - TOUCH - (3 if facing else 2) * GAP - dp(8)
        card_h = (avail_h - (rows - 1) * GAP) / rows
        orders = {name: counter_order(rules, state, name) for name in names}
        most = max((len(v) for v in orders.values()), default=1) or 1
        inner = card_h - dp(8) - NAME_H - TOUCH - 2 * dp(3) - (LINE_H + dp(3) if board is not None else 0)
        row = TOUCH + dp(3)
        status_row = (inner - STATUS_H - dp(3)) >= most * row
        compact = not status_row and inner < most * row
        tile_rows = max(1, int((inner + dp(3)) // row))
        tile_cols = max(1, math.ceil(most / tile_rows))
        # A tile wide enough for − value + keeps its buttons (a card alone on its side of the table)
        end_w = card_h if left else 0  # an end's column: as wide as a long side's card is high
        per_row = {name: len(side) for side in (near, far) for name in side} if facing else {}

        def wide(name):
            if name in left or name in right:  # turned a quarter: as wide as the column is high
                card_w = self.height - dp(8)
            else:
                k = per_row.get(name, cols)
                card_w = (width - dp(8) - 2 * (end_w + GAP if end_w else 0) - (k - 1) * GAP) / k
            return (card_w - dp(8) - (tile_cols - 1) * dp(3)) / tile_cols >= 2 * TOUCH + dp(52)
        self.cards = {}
        colours = self.colours(table)
        for name in names:
            labels = {c: text for c, (text, _v) in derived(rules, state, name).items()}
            self.cards[name] = PlayerCard(self, name, orders[name], compact, tile_cols, status_row,
                                          icons=rules.icons, colour=colours[name], wide_tiles=wide(name),
                                          labels=labels, line=board is not None)
        self.cards_box.clear_widgets()
        self.far_box.clear_widgets()
        self.bar_slot.clear_widgets()
        self.main.clear_widgets()
        if self.bar.parent is not None:  # inside the Turned of the last layout
            self.bar.parent.remove_widget(self.bar)
        if self.middle.parent is not None:
            self.middle.parent.remove_widget(self.middle)
        self.middle.clear_widgets()
        if facing:
            for name in far:  # turned toward the far side of the table
                self.far_box.add_widget(TurnedBox(self.cards[name], 180))
            row = BoxLayout(spacing=GAP)
            for name in near:
                row.add_widget(self.cards[name])
            self.cards_box.add_widget(row)
            self.bar_slot.add_widget(TurnedBox(self.bar, 180))
            parts = (self.far_box, self.bar_slot, self.bottom, self.cards_box)
            if left:  # a seat at each end: their cards in the side columns, turned a quarter toward them
                around = BoxLayout(spacing=GAP)
                around.add_widget(TurnedBox(self.cards[left[0]], 270, size_hint_x=None, width=end_w))
                for w in parts:
                    self.middle.add_widget(w)
                around.add_widget(self.middle)
                around.add_widget(TurnedBox(self.cards[right[0]], 90, size_hint_x=None, width=end_w))
                self.main.add_widget(around)
            else:
                for w in parts:
                    self.main.add_widget(w)
        else:
            grid = GridLayout(cols=cols, rows=rows, spacing=GAP)
            for name in names:
                grid.add_widget(self.cards[name])
            self.cards_box.add_widget(grid)
            self.bar_slot.add_widget(self.bar)
            for w in (self.bar_slot, self.cards_box, self.bottom):
                self.main.add_widget(w)
        self.facing = facing
        #: each card's turn, toward its seat: what the player opens from it faces them the same way
        self.angles = {name: 0 for name in names}
        if facing:
            self.angles.update({name: 180 for name in far})
            self.angles.update({name: 270 for name in left})
            self.angles.update({name: 90 for name in right})
        self._header_icons(bool(left))
        self.footer.clear_widgets()
        narrow = bool(left)  # between the ends' columns: words take two lines, "Pods" is an icon
        if facing and not (narrow and board is not None):
            # the central number beside whose turn: more of the narrow footer (not beside a board's column
            # between the ends' cards: the cards' frames say whose turn it is, the footer keeps its buttons)
            self.near_info.size_hint_x = 2.0 if narrow and rules.main_table_counter else 1.6
            self.footer.add_widget(self.near_info)
        for button in dialogs_for(table.game):
            b = Btn(button.label(), role="primary", base_font=dp(18), min_font=MIN_TEXT,
                    tid=f"table.guided.{button.id}", on_press=lambda b=button: b.open(self.app))
            b.wrap = narrow or columns > 1  # two board columns: the footer is narrower too
            self.footer.add_widget(b)
        more = Btn(_("More actions"), base_font=dp(18), tid="table.more", on_press=self.open_actions)
        more.wrap = narrow or columns > 1
        if narrow and board is not None:  # the board's column takes the room its words would need
            more.font_name, more.text = ICON_FONT, GLYPHS["ellipsis"]
        self.footer.add_widget(more)
        if self.app.pods is not None:
            pods = Btn(_("Pods"), base_font=dp(18), size_hint_x=0.6, tid="table.pods",
                       on_press=lambda: self.app.go("pods"))
            if narrow:
                pods.font_name, pods.text = ICON_FONT, GLYPHS["tablet-screen-button"]
            self.footer.add_widget(pods)
        same_size(*(b for b in self.footer.children if isinstance(b, Btn) and b.font_name != ICON_FONT))

    def _header_icons(self, icons: bool) -> None:
        """The header's buttons as icons (between the ends' columns their words leave no room for
        whose turn it is) or as words."""
        for b, word_, glyph, width in ((self.home, _("Home"), "house", 96), (self.undo, _("Undo"), "rotate-left", 104),
                                       (self.redo, _("Redo"), "rotate-right", 104),
                                       (self.history, _("History"), "clock-rotate-left", 116)):
            b.font_name = ICON_FONT if icons else "Roboto"
            b.text = GLYPHS[glyph] if icons else word_
            b.width = TOUCH + dp(8) if icons else dp(width)

    def update(self, snap, **kw):
        table = snap.table
        if table is None:
            return
        key = (table.game_id, tuple(table.players), tuple(int(x) for x in self.size), self.app.settings.seat_facing,
               self.app.settings.table_ends,
               tuple(sorted(self.colours(table).items())), tuple(self.pod_order(table)))
        if key != self._key:
            if self.get_root_window() is None or (self.parent is not None and tuple(self.size) != tuple(self.parent.size)):
                # Not on the window yet, or on it but not laid out yet (the app's first screen is built
                # before the window holds it, at Kivy's default 100 x 100, and keeps that size until the
                # screen manager's next layout pass; the worker's first snapshot comes before or after
                # that pass, by chance): the cards are built once it is there and sized (its size changes
                # then). Built here they were thrown away at once, and about 250 widgets in reference
                # cycles stayed in memory until the garbage collector ran (4-7 MB of the peak).
                return
            self._key = key
            self._build_cards(table)
        state, rules = table.state, table.rules
        turn = state.get("turn") if isinstance(state.get("turn"), dict) else {}
        turn_player = turn.get("player")
        moment = (table.game_id, len(table.history))  # each action, undo and redo is a new moment
        for p in state["players"]:
            card = self.cards.get(p["name"])
            if card is None:
                continue
            try:
                sv = rules.seat_view(state, p["name"])
                actions = [] if state["over"] else touch_actions(rules, state, p["name"])
            except Exception:
                sv, actions = {}, []
            card.show(state, p, sv, actions, turn_player, flash=self.app.settings.motion, moment=moment)
            if card.line is not None and self.board is not None:
                card.line.text = self._board_text(lambda b, n=p["name"]: b.card_line(state, n))
        if self.board is not None:
            places = self._board_text(lambda b: b.places(state)) or []
            self.places.show(places, self.colours(table))
            if self.far_places_box.parent is not None:
                self.far_places.show(places, self.colours(table))
        central = rules.main_table_counter if rules.main_table_counter in state.get("table", {}) else None
        main = (central, icon_for(rules.icons, central) if central else "", state["table"].get(central, ""))
        turn, counters = turn_choices(state), table_choices(state, leave_out=central)
        self.info.show(turn, counters, main)
        if self.facing:
            self.near_info.show(turn, counters, main)
        self.undo.disabled = not table.can_undo
        self.redo.disabled = not table.can_redo
        pending = state.get("pending") or []
        if pending:
            texts = [f"{item.get('name', '')}: {word(item.get('reason', ''))}" for item in pending]
            self.pending_label.text = _("Last chance — {what}").format(what="; ".join(texts))
            # the banner faces the player whose last chance it is (the far side: turned, as the header)
            angle = 180 if self.facing and self.angles.get(pending[0].get("name")) == 180 else 0
            holder = self._pending_holder(angle)
            if holder.parent is None:
                self.bottom.clear_widgets()
                self.bottom.add_widget(holder)
        elif self.footer.parent is None:
            self.bottom.clear_widgets()
            self.bottom.add_widget(self.footer)

    def _board_text(self, read):
        """What the board shows, read from the state; nothing when it cannot (never a broken table)."""
        try:
            return read(self.board)
        except Exception:  # a board must never break the table
            return ""

    def _pending_holder(self, angle: int):
        """The last-chance banner as shown: upright, or inside a box turned by ``angle``."""
        turned = getattr(self, "_pending_turned", None)
        if angle == 0:
            if turned is not None and self.pending.parent is not None and self.pending.parent is not self.bottom:
                self.pending.parent.remove_widget(self.pending)
                if turned.parent is not None:
                    turned.parent.remove_widget(turned)
                self._pending_turned = None
            return self.pending
        if turned is None:
            if self.pending.parent is not None:
                self.pending.parent.remove_widget(self.pending)
            turned = self._pending_turned = TurnedBox(self.pending, angle)
        return turned

    # -- touches ---------------------------------------------------------------------------
    def adjust(self, player, counter, delta):
        self.app.submit({"action": "adjust", "player": player, "counter": counter, "delta": delta})

    def open_adjust(self, player, counter):
        from ..dialogs import AdjustDialog

        AdjustDialog(self.app, player, counter, angle=self.angles.get(player, 0)).open()

    def open_offers(self, player, actions):
        from ..dialogs import OffersDialog

        OffersDialog(self.app, player, actions, angle=self.angles.get(player, 0)).open()

    def open_table_counters(self):
        table = self.app.snapshot.table
        if table is None or not table.state.get("table"):
            return
        from ..dialogs import AdjustDialog

        AdjustDialog(self.app, None, None).open()

    def open_actions(self):
        from ..dialogs import ActionDialog

        ActionDialog(self.app).open()
