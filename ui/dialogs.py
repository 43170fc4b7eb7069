"""Dialogs over the table: adjust a counter, the table's counters, any action by form.

A dialog stays open while the game changes under it: the app calls
:meth:`Dialog.update` with every new snapshot, so numbers shown are always the
committed ones.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from ..engine import RuleError
from ..engine.messages import word as field_word
from .forms import Field, action_fields, game_actions
from .i18n import _, action_label, counter_label, engine_text, field_caption, word
from .legibility import MIN_TEXT, key_text
from .widgets import (
    BG,
    CARD,
    GAP,
    GREEN,
    MUTED,
    RED,
    SYMBOL_FONT,
    TOUCH,
    Btn,
    Chips,
    FitLabel,
    Keyboard,
    Panel,
    Scroller,
    Stepper,
    TurnedBox,
    symbol,
    tag,
)


class Dialog(ModalView):
    """A modal window over most of the screen with a title bar and a Close button."""

    tid = "dialog"

    def __init__(self, app, title: str, angle: float = 0, **kw):
        kw.setdefault("size_hint", (0.98, 0.98))
        super().__init__(auto_dismiss=False, overlay_color=(0, 0, 0, 0.6), background="",
                         background_color=BG, **kw)
        self.app = app
        #: how the dialog is turned: toward the seat of the player who opened it (the card's own turn)
        self.angle = angle % 360
        self.outer = Panel(orientation="vertical", padding=dp(6), spacing=dp(4), bg=CARD,
                           border=(0.4, 0.44, 0.5, 1), border_width=1)
        bar = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.title_label = tag(FitLabel(title, base_font=dp(22), min_font=dp(12), bold=True, halign="left"),
                               f"{self.tid}.title")
        bar.add_widget(self.title_label)
        bar.add_widget(Btn(_("Close"), size_hint_x=None, width=dp(120), tid=f"{self.tid}.close",
                           on_press=self.dismiss))
        self.outer.add_widget(bar)
        self.body = BoxLayout(orientation="vertical", spacing=dp(4))
        self.outer.add_widget(self.body)
        self.add_widget(TurnedBox(self.outer, self.angle) if self.angle else self.outer)

    def open(self, *a, **kw):
        # No fade: a finger's next tap must land on what is shown.
        kw.setdefault("animation", False)
        self.app.dialogs.append(self)
        super().open(*a, **kw)
        self.update(self.app.snapshot)

    def dismiss(self, *a, **kw):
        kw.setdefault("animation", False)
        super().dismiss(*a, **kw)

    def on_dismiss(self):
        if self in self.app.dialogs:
            self.app.dialogs.remove(self)

    def update(self, snap):
        pass

    def submit(self, action: dict, then=None):
        """Send ``action``; ``then(ok)`` runs on the UI thread once it is committed or refused."""
        if then is None:
            self.app.submit(action)
            return

        def done(result):
            ok = not isinstance(result, Exception)
            Clock.schedule_once(lambda dt: then(ok), 0)

        self.app.submit(action, done)


# -- adjusting a counter ------------------------------------------------------------------
class AdjustDialog(Dialog):
    """One player's counter (or, with ``player=None``, every table counter): ±1, ±5, give."""

    tid = "adjust"

    def __init__(self, app, player: str | None, counter: str | None, angle: float = 0):
        self.player, self.counter = player, counter
        if player is None:
            title = _("The table's counters")
        else:
            assert counter is not None, "a player's counter is named"
            title = f"{player} — {counter_label(counter)}"
        super().__init__(app, title, angle)
        #: the value labels, by (player, or None for a table counter; counter)
        self.values: dict[tuple[str | None, str], FitLabel] = {}
        table = app.snapshot.table
        if player is None:
            rows = BoxLayout(orientation="vertical", spacing=GAP)
            for name in table.state["table"]:
                rows.add_widget(self._row(None, name, compact=True))
            self.body.add_widget(Scroller(rows))
            return
        self.body.add_widget(self._row(player, counter, compact=False))
        others = [p["name"] for p in table.state["players"] if p["name"] != player and not p["out"]]
        if others:
            give = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
            give.add_widget(FitLabel(_("Give to"), size_hint_x=None, width=dp(110), color=MUTED, base_font=dp(18)))
            self.to = Chips(others, selected=[others[0]], tid="adjust.to", base_font=dp(17))
            self.to.size_hint_y = 1
            give.add_widget(self.to)
            self.body.add_widget(give)
            amount = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
            self.amount = Stepper(1, lo=1, tid="adjust.amount", size_hint_x=0.6)
            amount.add_widget(FitLabel(_("Amount"), size_hint_x=None, width=dp(110), color=MUTED, base_font=dp(18)))
            amount.add_widget(self.amount)
            amount.add_widget(Btn(_("Give"), role="primary", tid="adjust.give", on_press=self._give))
            self.body.add_widget(amount)
        self.body.add_widget(BoxLayout())

    def _row(self, who, counter, compact):
        h = TOUCH if compact else TOUCH + dp(40)
        row = BoxLayout(size_hint_y=None, height=h, spacing=GAP)
        base = f"adjust.{counter}" if who is None else "adjust"
        if compact:
            row.add_widget(FitLabel(counter_label(counter), size_hint_x=None, width=dp(170), base_font=dp(20),
                                    halign="left"))
        for delta in (-5, -1):
            row.add_widget(Btn(f"{delta:+d}".replace("-", "−"), base_font=dp(26), tid=f"{base}.{delta:+d}",
                               on_press=lambda d=delta: self._adjust(who, counter, d)))
        value = tag(key_text(FitLabel("", base_font=dp(48 if not compact else 30), bold=True)), f"{base}.value")
        self.values[(who, counter)] = value
        row.add_widget(value)
        for delta in (1, 5):
            row.add_widget(Btn(f"{delta:+d}", base_font=dp(26), tid=f"{base}.{delta:+d}",
                               on_press=lambda d=delta: self._adjust(who, counter, d)))
        return row

    def _adjust(self, who, counter, delta):
        action = {"action": "adjust", "counter": counter, "delta": delta}
        if who is not None:
            action["player"] = who
        self.submit(action)

    def _give(self):
        self.submit({"action": "transfer", "from": self.player, "to": self.to.value, "counter": self.counter,
                     "amount": self.amount.value})

    def update(self, snap):
        table = snap.table
        if table is None:
            self.dismiss()
            return
        for (who, counter), label in self.values.items():
            if who is None:
                label.text = str(table.state["table"].get(counter, ""))
            else:
                p = next((p for p in table.state["players"] if p["name"] == who), None)
                label.text = str(p["counters"].get(counter, "")) if p else ""


# -- a field editor (shared by the generic form and the guided dialogs) ----------------------
class FieldEditor(BoxLayout):
    """Asks for one action field; :attr:`value` is what goes in the action (``None`` = leave out)."""

    def __init__(self, field: Field, players: list[str], default=None, tid="form", label=None, **kw):
        kw.setdefault("size_hint_y", None)
        kw.setdefault("spacing", GAP)
        super().__init__(**kw)
        self.field = field
        self.tid = f"{tid}.{field.name}"
        caption = field_caption(field, label)
        self.add_widget(FitLabel(caption, size_hint_x=None, width=dp(170), base_font=dp(18), halign="left",
                                 color=MUTED, wrap=True))  # a long name takes two lines
        kind = field.kind
        if kind == "raw" and field.name in ("player", "winner"):
            kind = "player"
        start = default if default is not None else field.default
        self._get: Callable[[], Any]  # the editor's value (set by each kind below)
        if kind == "player":
            self.editor = Chips(players, selected=[start] if start in players else [], allow_none=not field.required,
                                cols=min(len(players), 4), tid=self.tid, base_font=dp(17))
            self._get = lambda: self.editor.value
        elif kind == "bool":
            self.editor = Chips([True, False], [_("yes"), _("no")], selected=[bool(start)], tid=self.tid)
            self._get = lambda: self.editor.value
        elif kind == "str" and field.choices:
            self.editor = Chips(list(field.choices), [word(c) for c in field.choices],
                                selected=[start] if start in field.choices else [], allow_none=not field.required,
                                cols=min(len(field.choices), 4), tid=self.tid, base_font=dp(17))
            self._get = lambda: self.editor.value
        elif kind == "int":
            self.editor = Stepper(start if isinstance(start, int) else (None if not field.required else
                                                                          (field.lo or 0)),
                                  lo=field.lo, hi=field.hi, tid=self.tid)
            self._get = lambda: self.editor.value
        elif kind == "ints":
            self.editor = NumberList(start if isinstance(start, list) else [], hi=field.hi, tid=self.tid)
            self._get = lambda: list(self.editor.values) if (self.editor.values or field.required) else None
        else:  # str / raw: typed on the on-screen keyboard
            self.editor = TextField(str(start) if start not in (None, "") else "", tid=self.tid,
                                    raw=kind == "raw")
            self._get = self.editor.get
        self.add_widget(self.editor)
        self.height = max(TOUCH, self.editor.height)

    @property
    def value(self):
        """The field's value, or None to leave it out (an optional field at its default)."""
        value = self._get()
        f = self.field
        if not f.required and f.default is not None and value == f.default:
            return None
        return value


class NumberList(BoxLayout):
    """A list of whole numbers typed on digit keys (card values: "3, 2, 2")."""

    def __init__(self, values=(), hi=None, tid="numbers", **kw):
        super().__init__(orientation="vertical", size_hint_y=None, spacing=dp(4), **kw)
        self.values = list(values)
        top = max(9, min(hi if hi is not None else 10, 10))
        self.shown = tag(FitLabel("", base_font=dp(22), size_hint_y=None, height=TOUCH, halign="left"),
                         f"{tid}.value")
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        row.add_widget(self.shown)
        shown, font = symbol("⌫", "<")
        row.add_widget(Btn(shown, size_hint_x=None, width=TOUCH, tid=f"{tid}.back", on_press=self._back, **font))
        self.add_widget(row)
        keys = GridLayout(cols=6, spacing=dp(4), size_hint_y=None)
        for v in range(0, top + 1):
            keys.add_widget(Btn(str(v), tid=f"{tid}.{v}", on_press=lambda v=v: self._add(v)))
        rows = (top + 1 + 5) // 6
        keys.height = rows * TOUCH + (rows - 1) * dp(4)
        self.add_widget(keys)
        self.height = TOUCH + dp(4) + keys.height
        self._show()

    def _add(self, v):
        self.values.append(v)
        self._show()

    def _back(self):
        if self.values:
            self.values.pop()
        self._show()

    def set(self, values):
        self.values = list(values)
        self._show()

    def _show(self):
        self.shown.text = ", ".join(map(str, self.values)) if self.values else "—"


class TextField(Btn):
    """Text typed on the on-screen keyboard (a tap opens it)."""

    def __init__(self, text="", tid="text", raw=False, **kw):
        super().__init__(text or "…", role="flat", tid=tid, size_hint_y=None, height=TOUCH, **kw)
        self.typed = text
        self.raw = raw
        self.bind(on_release=lambda *_: self._open())

    def _open(self):
        from kivy.app import App

        app = App.get_running_app()
        opener = next((d for d in reversed(app.dialogs) if self in d.walk()), None)  # typed where it is read
        TextDialog(app, self.typed, self._set, angle=opener.angle if opener else 0).open()

    def _set(self, text):
        self.typed = text
        self.text = text or "…"

    def get(self):
        if not self.typed:
            return None
        if self.raw:
            try:
                return json.loads(self.typed)
            except ValueError:
                return self.typed
        return self.typed


class OffersDialog(Dialog):
    """Every routine action a player's card offers at this moment (the card shows two): a tap does
    one and closes the list. Opened from the card, it faces its player."""

    tid = "offers"

    def __init__(self, app, player: str, actions: list[dict], angle: float = 0):
        super().__init__(app, _("{name}: what now?").format(name=player), angle)
        rows = GridLayout(cols=2, spacing=GAP, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        for i, a in enumerate(actions):
            b = Btn(word(a.get("label", "")), role="primary" if i == 0 else "normal", size_hint_y=None,
                    height=TOUCH, base_font=dp(18), min_font=dp(12), tid=f"offers.{i}",
                    on_press=lambda act=a["action"]: self._do(act))
            b.wrap = True
            rows.add_widget(b)
        self.body.add_widget(Scroller(rows))

    def _do(self, action: dict):
        self.app.submit(dict(action))
        self.dismiss()


class TextDialog(Dialog):
    tid = "text"

    def __init__(self, app, text, on_done, angle: float = 0):
        super().__init__(app, _("Type"), angle)
        self._on_done = on_done
        self.shown = tag(FitLabel(text, base_font=dp(26), size_hint_y=None, height=TOUCH), "text.value")
        self.body.add_widget(self.shown)
        kb = Keyboard(on_text=lambda t: setattr(self.shown, "text", t), tid="text.kb", max_len=24)
        kb.text = text
        self.body.add_widget(kb)
        self.body.add_widget(Btn(_("OK"), role="ok", size_hint_y=None, height=TOUCH, tid="text.ok",
                                 on_press=self._ok))

    def _ok(self):
        self._on_done(self.shown.text)
        self.dismiss()


# -- a dry run --------------------------------------------------------------------------------
def dry_run(table, action: dict) -> tuple[bool | None, list[str]]:
    """What ``action`` would do now: (ok, lines) — the engine's one preview (``Game.preview``), the
    pods' too. ``ok`` False: refused, with the reason. What the device draws when it is applied (a
    die, a card) is named, and only what every draw gives is shown as a change.

    Pure: nothing is journalled.
    """
    rules, state = table.rules, table.state
    try:
        pv = rules.preview(state, dict(action))
    except RuleError as e:
        return False, [engine_text(e)]
    lines = [] if pv.decided else [engine_text(e) for e in pv.events]
    by_player: dict = {}
    for c in pv.changes:
        by_player.setdefault(c.player, []).append(f"{counter_label(c.counter)} {c.before} → {c.after}")
    for who, changes in by_player.items():
        if who is not None:
            lines.append(f"{who}: " + ", ".join(changes))
    if None in by_player:
        lines.append(_("table") + ": " + ", ".join(by_player[None]))
    if pv.decided:
        lines.append(_("The device draws {fields} when you confirm.").format(
            fields=", ".join(word(field_word("field", f)) for f in pv.decided)))
    return True, lines or [_("No change to the numbers.")]


class Preview(FitLabel):
    """The dry run's verdict, green when it would go through, red with the reason if not."""

    def __init__(self, tid, **kw):
        kw.setdefault("base_font", dp(17))
        kw.setdefault("min_font", MIN_TEXT)
        if SYMBOL_FONT:
            kw.setdefault("font_name", SYMBOL_FONT)  # its "→" (Roboto has no arrows)
        super().__init__("", wrap=True, halign="left", **kw)
        tag(self, tid)

    def show(self, ok, lines):
        self.color = GREEN if ok else (RED if ok is False else MUTED)
        self.text = "\n".join(lines)


# -- any action, by form ----------------------------------------------------------------------
class ActionDialog(Dialog):
    """Actions of the game: pick one, fill its fields, see what it would do, do it.

    ``names``: the actions offered (default: every action of the game but the
    generic ones). The fields come from :mod:`tablekeeper.ui.forms` (read
    from the game's handler); the engine still validates everything, and the
    preview (a dry run) shows its verdict before anything is sent.
    """

    tid = "actions"

    def __init__(self, app, names=None, defaults: dict | None = None, preview: bool = True):
        super().__init__(app, _("Actions"))
        table = app.snapshot.table
        self.rules = table.rules
        self.defaults = defaults or {}
        cols = BoxLayout(spacing=GAP)
        names = list(names) if names is not None else game_actions(self.rules)
        left = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
        left.bind(minimum_height=left.setter("height"))
        self.pickers = {}
        for name in names:
            b = Btn(action_label(name), size_hint_y=None, height=TOUCH, tid=f"actions.pick.{name}",
                    on_press=lambda n=name: self.pick(n))
            self.pickers[name] = b
            left.add_widget(b)
        cols.add_widget(Scroller(left, size_hint_x=None, width=dp(190)))
        right = BoxLayout(orientation="vertical", spacing=GAP)
        self.help = tag(FitLabel("", base_font=dp(17), min_font=MIN_TEXT, wrap=True, color=MUTED, size_hint_y=None,
                                 height=dp(44), halign="left"), "actions.help")
        right.add_widget(self.help)
        self.form = BoxLayout(orientation="vertical", spacing=GAP)
        right.add_widget(Scroller(self.form))
        bottom = BoxLayout(size_hint_y=None, height=TOUCH + dp(20), spacing=GAP)
        self.preview = Preview("actions.preview")
        bottom.add_widget(self.preview if preview else BoxLayout())
        self.go = Btn(_("Do it"), role="ok", size_hint_x=None, width=dp(170), tid="actions.do", on_press=self._do)
        bottom.add_widget(self.go)
        right.add_widget(bottom)
        cols.add_widget(right)
        self.body.add_widget(cols)
        self.editors: list[FieldEditor] = []
        self.name: str | None = None
        self._last: tuple[str, int] | None = None  # the previewed (action, snapshot serial)
        self._preview_trigger = Clock.create_trigger(self._refresh_preview, 0) if preview else (lambda *a: None)
        if names:
            self.pick(names[0])
        self._preview_trigger()

    def on_touch_up(self, touch):
        out = super().on_touch_up(touch)
        self._preview_trigger()  # the preview follows every touch
        return out

    def pick(self, name: str):
        self.name = name
        for n, b in self.pickers.items():
            b.role = "on" if n == name else "normal"
        self.title_label.text = _("Action: {name}").format(name=action_label(name))
        info = self.rules.actions[name]
        self.help.text = engine_text(info.help)
        self.form.clear_widgets()
        table = self.app.snapshot.table
        players = [p["name"] for p in table.state["players"] if not p["out"]]
        turn = table.state.get("turn") or {}
        self.editors = []
        for field in action_fields(self.rules, name):
            default = self.defaults.get(field.name)
            if default is None and field.name == "player":  # who would do it: the player to act in a round
                default = self.rules.actor(table.state, {"action": name}) or turn.get("player")
            ed = FieldEditor(field, players, default=default, tid="actions.field")
            self.editors.append(ed)
            self.form.add_widget(ed)

    def action(self) -> dict:
        out = {"action": self.name}
        for ed in self.editors:
            value = ed.value
            if value is not None:
                out[ed.field.name] = value
        return out

    def _refresh_preview(self, *_):
        table = self.app.snapshot.table
        if table is None or self.name is None:
            return
        action = self.action()
        key = (repr(action), self.app.snapshot.serial)
        if key != self._last:
            self._last = key
            ok, lines = dry_run(table, action)
            self.preview.show(ok, lines)

    def _do(self):
        def then(ok):
            if ok:
                self.dismiss()

        self.submit(self.action(), then)

    def update(self, snap):
        self._preview_trigger()
        if snap.table is None:
            self.dismiss()

