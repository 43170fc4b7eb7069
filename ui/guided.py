"""Guided dialogs: the building blocks every game's routine-of-the-moment dialog is made of.

A game's module under :mod:`tablekeeper.ui.games` registers a few
:class:`DialogButton` for the table's footer; each opens a dialog that builds
one engine action from touches, shows what it would do before it is done (a
dry run of the pure engine on a copy of the state: no journal, no clock,
instant), and sends it. The engine still decides: a refusal's reason is shown
where the player looks.

A game without guided dialogs still has every action through "More actions".
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ..engine.fields import Field
from .dialogs import ActionDialog, Dialog, Preview, dry_run
from .i18n import N_, _
from .widgets import GAP, MUTED, TOUCH, Btn, FitLabel, Scroller


@dataclass(frozen=True)
class DialogButton:
    """A footer button: ``id`` (test id ``table.guided.<id>``), its label, what it opens (``open(app)``)."""

    id: str
    text: str
    open: Callable

    def label(self) -> str:
        return _(self.text)


def opens(cls) -> Callable:
    """``open`` for a :class:`DialogButton`: a new ``cls(app)``, opened."""
    return lambda app: cls(app).open()


def opens_actions(names, title: str) -> Callable:
    """``open`` for a :class:`DialogButton`: the action form, offering only ``names`` (those the game
    has), with the dry-run preview, titled ``title`` (a marked, untranslated string)."""

    def open_(app):
        rules = app.snapshot.table.rules
        dialog = ActionDialog(app, names=[n for n in names if n in rules.actions], preview=True)
        dialog.title_label.text = _(title)
        dialog.open()

    return open_


def turn_player(table) -> str | None:
    """Whose turn it is (None between turns or in a game without turns)."""
    return (table.state.get("turn") or {}).get("player")


def player_record(table, name) -> dict | None:
    """The state's record of the player called ``name``; None if there is none."""
    return next((p for p in table.state["players"] if p["name"] == name), None)


def declared(table, action: str, name: str) -> Field:
    """The game's declaration of ``action``'s field ``name``: a dialog takes its choices (in their order)
    and its bounds from it, so that what it lets a player tap is what the engine accepts."""
    return next(f for f in table.rules.actions[action].fields if f.name == name)


def values(field: Field) -> list:
    """Every value a declared field takes: its choices, or its whole numbers from ``lo`` to ``hi``."""
    if field.choices is not None:
        return list(field.choices)
    if field.lo is None or field.hi is None:
        raise ValueError(f"{field.name} has no choices and no bounds: a dialog cannot list its values")
    return list(range(field.lo, field.hi + 1))


def caption(text: str, *, height=dp(26), **kw) -> FitLabel:
    """A muted line above what it names."""
    kw.setdefault("base_font", dp(16))
    return FitLabel(text, size_hint_y=None, height=height, color=MUTED, **kw)


class GuidedDialog(Dialog):
    """A guided dialog: a body built from the latest snapshot, a preview, one confirm button.

    Subclasses fill :attr:`content`, say what they would send (:meth:`action`, None while
    something is missing, then :meth:`hint` is shown instead of a preview) and follow the
    game in :meth:`refresh`.
    """

    confirm_text = N_("Do it")

    def __init__(self, app, title, *, big_preview=False):
        """``big_preview``: the subclass places :meth:`preview_area` in its content (a long review)."""
        super().__init__(app, title)
        self.content = BoxLayout(orientation="vertical", spacing=dp(4))
        self.body.add_widget(self.content)
        bottom = BoxLayout(size_hint_y=None, height=TOUCH + (0 if big_preview else dp(20)), spacing=GAP)
        self.preview = Preview(f"{self.tid}.preview")
        bottom.add_widget(BoxLayout() if big_preview else self.preview)
        self.go = Btn(_(self.confirm_text), role="ok", size_hint_x=None, width=dp(240), tid=f"{self.tid}.do",
                      on_press=self._do)
        bottom.add_widget(self.go)
        self.body.add_widget(bottom)
        self._last = None
        # The preview follows every touch in the dialog and every new snapshot.
        self._preview_trigger = Clock.create_trigger(self._refresh_preview, 0)
        self._preview_trigger()

    def on_touch_up(self, touch):
        out = super().on_touch_up(touch)
        self._preview_trigger()
        return out

    def update(self, snap):
        self._preview_trigger()
        if snap.table is None:
            self.dismiss()
            return
        self.refresh(snap.table)

    def refresh(self, table) -> None:
        """Show what changed in ``table`` (a new snapshot's); the preview follows by itself."""

    def labelled_row(self, text, widget, *, width, base_font=dp(17), spacing=GAP):
        """A touch-high row added to the content: a muted label ``width`` wide, then ``widget``."""
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=spacing)
        row.add_widget(FitLabel(text, size_hint_x=None, width=width, color=MUTED, base_font=base_font))
        row.add_widget(widget)
        self.content.add_widget(row)
        return row

    def preview_area(self):
        """The preview in a scroll area that grows with its text."""
        self.preview.size_hint_y = None
        self.preview.base_font = dp(18)
        self.preview.min_font = dp(18)  # scrolls instead of shrinking
        self.preview.bind(texture_size=lambda *_: setattr(self.preview, "height",
                                                          max(TOUCH, self.preview.texture_size[1])))
        return Scroller(self.preview)

    def action(self) -> dict | None:
        return None

    def _refresh_preview(self, *_):
        table = self.app.snapshot.table
        if table is None:
            return
        action = self.action()
        key = (repr(action), self.app.snapshot.serial)
        if key == self._last:
            return
        self._last = key
        if action is None:
            self.preview.show(None, [self.hint()])
            self.go.disabled = True
            return
        ok, lines = dry_run(table, action)
        self.preview.show(ok, lines)
        self.go.disabled = ok is False

    def hint(self) -> str:
        return ""

    def _do(self):
        action = self.action()
        if action is None:
            return
        self.submit(action, self.done)

    def done(self, ok):
        """After the commit (or refusal); default: close when it went through."""
        if ok:
            self.dismiss()

    def players(self, table, *, in_game=True):
        return [p["name"] for p in table.state["players"] if not (in_game and p["out"])]
