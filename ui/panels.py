"""Guided panels: one game's routine of the moment, step by step, with a preview.

Each game gets a few buttons in the table's footer (:func:`panels_for`); each
opens a dialog that builds one engine action from touches, shows what it
would do before it is done (a dry run of the pure engine on a copy of the
state: no journal, no clock, instant), and sends it. The engine still
decides: a refusal's reason is shown where the player looks.

* Red Dragon Inn: the drink (common drinks, chasers, the Drink Me! pile and
  the drink deck), the gambling round.
* Bloody Inn: the night's actions, the morning (police, departure, wages) as
  one reviewed step.
* Dragon Run: the escape test with the d10 shown large (rolled here, or the
  face of a physical die), the charge.
* Dale of Merchants: the market's prices and the payment check, the stall's
  next stack checked before it is built.

A game without a panel here still has every action through "More actions".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from .dialogs import ActionDialog, Dialog, NumberList, Preview, dry_run
from .i18n import N_, _, counter_label, ngettext, word
from .widgets import AMBER, GAP, GREEN, MUTED, RED, TOUCH, Btn, Chips, FitLabel, Scroller, Stepper, tag


@dataclass(frozen=True)
class PanelSpec:
    """A footer button: ``id`` (test id ``table.panel.<id>``), its label, what it opens."""

    id: str
    text: str
    open: Callable

    def label(self) -> str:
        return _(self.text)


class GuidedDialog(Dialog):
    """A panel: a body built from the latest snapshot, a preview, one confirm button."""

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

    def labelled_row(self, text, widget, *, width, base_font=dp(17)):
        """A touch-high row added to the content: a muted label ``width`` wide, then ``widget``."""
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
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


# -- The Red Dragon Inn ----------------------------------------------------------------------
#: The base box's common drinks (RULES.md): name → (alcohol, fortitude).
DRINKS = (
    (N_("Ale"), 1, 0), (N_("Wine"), 2, 0), (N_("Elven Wine"), 3, 0), (N_("Dragon Breath Ale"), 4, 0),
    (N_("Water"), -1, 0), (N_("Holy Water"), 0, 2), (N_("Dirty Dishwater"), 0, -1), (N_("Orcish Rotgut"), 0, -2),
)


class DrinkDialog(GuidedDialog):
    """Who drinks, the cards revealed (the first plus its chasers, as ONE drink), their totals."""

    tid = "drink"
    confirm_text = N_("Drink")

    def __init__(self, app):
        super().__init__(app, _("Drink"))
        table = app.snapshot.table
        state = table.state
        turn = state.get("turn") or {}
        players = self.players(table)
        self.cards: list[tuple[str, int, int]] = []
        self.who = Chips(players, selected=[turn.get("player")] if turn.get("player") in players else players[:1],
                         tid="drink.who", base_font=dp(17))
        self.who.size_hint_y = 1
        self.labelled_row(_("Who drinks"), self.who, width=dp(130))
        grid = GridLayout(cols=4, spacing=dp(4), size_hint_y=None, height=2 * TOUCH + dp(4))
        for i, (name, alc, fort) in enumerate(DRINKS):
            grid.add_widget(Btn(_(name), base_font=dp(16), min_font=dp(9), tid=f"drink.card.{i}",
                                on_press=lambda n=name, a=alc, f=fort: self._reveal(n, a, f)))
        self.content.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.revealed = tag(FitLabel("", base_font=dp(17), min_font=dp(9), halign="left"), "drink.revealed")
        row.add_widget(self.revealed)
        row.add_widget(Btn(_("Clear"), size_hint_x=None, width=dp(100), tid="drink.clear", on_press=self._clear))
        self.content.add_widget(row)
        totals = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        self.alcohol = Stepper(0, lo=-20, hi=20, tid="drink.alcohol",
                               fmt=lambda v: f"{counter_label('alcohol')} {v:+d}")
        self.fortitude = Stepper(0, lo=-20, hi=20, tid="drink.fortitude",
                                 fmt=lambda v: f"{counter_label('fortitude')} {v:+d}")
        self.gold = Stepper(0, lo=-20, hi=20, tid="drink.gold", fmt=lambda v: f"{counter_label('gold')} {v:+d}")
        for w in (self.alcohol, self.fortitude, self.gold):
            w.label.base_font = dp(16)
            totals.add_widget(w)
        self.content.add_widget(totals)
        src = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.piles = tag(FitLabel("", base_font=dp(15), min_font=dp(8), halign="left", color=MUTED), "drink.piles")
        src.add_widget(self.piles)
        self.source = Chips(["drink_me", "deck"], [counter_label("drink_me"), _("drink deck")],
                            selected=["drink_me"], tid="drink.from", base_font=dp(15))
        self.source.size_hint = (None, 1)
        self.source.width = dp(300)
        src.add_widget(self.source)
        self.content.add_widget(src)
        self._clear()

    def _reveal(self, name, alc, fort):
        self.cards.append((name, alc, fort))
        self.alcohol.value = max(-20, min(20, sum(c[1] for c in self.cards)))
        self.fortitude.value = max(-20, min(20, sum(c[2] for c in self.cards)))
        self._show_cards()

    def _clear(self):
        self.cards = []
        self.alcohol.value = self.fortitude.value = self.gold.value = 0
        self._show_cards()

    def _show_cards(self):
        if not self.cards:
            self.revealed.text = _("Tap the drink revealed, then each chaser.")
            return
        names = " + ".join(_(c[0]) for c in self.cards)
        chasers = len(self.cards) - 1
        self.revealed.text = names + (" " + ngettext("({n} chaser, one drink)", "({n} chasers, one drink)",
                                                     chasers).format(n=chasers) if chasers else "")

    def update(self, snap):
        self._preview_trigger()
        table = snap.table
        if table is None:
            self.dismiss()
            return
        drinks = table.state.get("drinks") or {}
        who = self.who.value
        p = next((p for p in table.state["players"] if p["name"] == who), None)
        pile = p["counters"].get("drink_me", 0) if p else 0
        self.piles.text = _("{name}'s Drink Me! pile: {n} · drink deck {deck}, discard {discard}").format(
            name=who, n=pile, deck=drinks.get("deck", "?"), discard=drinks.get("discard", "?"))

    def action(self):
        table = self.app.snapshot.table
        state = table.state
        who = self.who.value
        if who is None:
            return None
        turn = state.get("turn") or {}
        extra = not (turn.get("player") == who and turn.get("phase") == "drink") or self.source.value == "deck"
        act = {"action": "drink", "player": who}
        for key, stepper in (("alcohol", self.alcohol), ("fortitude", self.fortitude), ("gold", self.gold)):
            if stepper.value:
                act[key] = stepper.value
        if len(self.cards) > 1:
            act["chasers"] = len(self.cards) - 1
        if extra:
            act["extra"] = True
            if self.source.value == "deck":
                act["from"] = "deck"
        return act


class GamblingDialog(GuidedDialog):
    """The gambling round: start it, then each go (pass / a card), leaving, forcing out, the pot."""

    tid = "gambling"
    confirm_text = N_("Gambling? I'm in!")

    def __init__(self, app):
        super().__init__(app, _("Gambling round"))
        self.state_label = tag(FitLabel("", base_font=dp(20), min_font=dp(10), wrap=True, size_hint_y=None,
                                        height=dp(64), halign="left"), "gambling.state")
        self.content.add_widget(self.state_label)
        self.go_row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.content.add_widget(self.go_row)
        self.others = BoxLayout(orientation="vertical", spacing=dp(4))
        self.content.add_widget(self.others)
        self._key = None

    def update(self, snap):
        self._preview_trigger()
        table = snap.table
        if table is None:
            self.dismiss()
            return
        g = table.state.get("gambling")
        turn = table.state.get("turn") or {}
        if g is None:
            self.state_label.text = _("No gambling round is running. {name} can start one in the action phase.").format(
                name=turn.get("player", ""))
        else:
            control = g.get("control") or _("nobody")
            self.state_label.text = _("Pot {pot} · in control: {control} · {name}'s go").format(
                pot=table.state["table"].get("pot", 0), control=control, name=g.get("to_act") or "—")
        key = repr(g)
        if key == self._key:
            return
        self._key = key
        self.go_row.clear_widgets()
        self.others.clear_widgets()
        if g is None:
            return
        who = g.get("to_act")
        if who:
            self.go_row.add_widget(FitLabel(_("{name}:").format(name=who), size_hint_x=None, width=dp(90),
                                            base_font=dp(18)))
            self.go_row.add_widget(Btn(_("Pass"), role="primary", tid="gambling.pass",
                                       on_press=lambda: self.submit({"action": "pass", "player": who})))
            for card in ("gambling", "cheat", "winning_hand"):
                allowed = g.get("last") != "winning_hand" or card == "cheat"
                self.go_row.add_widget(Btn(word(card.replace("_", " ")), tid=f"gambling.play.{card}", base_font=dp(16),
                                           disabled=not allowed,
                                           on_press=lambda c=card: self.submit(
                                               {"action": "play", "player": who, "card": c})))
        in_round = list(g.get("players") or [])
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        row.add_widget(FitLabel(_("Leaves:"), size_hint_x=None, width=dp(90), color=MUTED, base_font=dp(16)))
        for name in in_round:
            row.add_widget(Btn(name, base_font=dp(16), tid=f"gambling.leave.{name}",
                               on_press=lambda n=name: self.submit({"action": "leave", "player": n})))
        self.others.add_widget(row)
        end = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        end.add_widget(FitLabel(_("Pot to:"), size_hint_x=None, width=dp(90), color=MUTED, base_font=dp(16)))
        for name in in_round:
            end.add_widget(Btn(name, base_font=dp(16), tid=f"gambling.end.{name}",
                               on_press=lambda n=name: self.submit({"action": "end_round", "winner": n})))
        end.add_widget(Btn(counter_label("inn"), base_font=dp(16), tid="gambling.end.inn",
                           on_press=lambda: self.submit({"action": "end_round", "winner": None})))
        self.others.add_widget(end)
        self.others.add_widget(BoxLayout())

    def action(self):
        table = self.app.snapshot.table
        if table.state.get("gambling") is not None:
            return None
        turn = table.state.get("turn") or {}
        return {"action": "gamble", "player": turn.get("player")}

    def hint(self):
        return _("The round runs: tap the go of the player whose turn it is.")

    def done(self, ok):
        pass  # stay: the round goes on here


# -- The Bloody Inn -----------------------------------------------------------------------
NIGHT_ACTIONS = ("bribe", "build", "kill", "bury", "pass")


class NightDialog(ActionDialog):
    """The night: the acting innkeeper's action (bribe, build, kill, bury, or pass and launder)."""

    def __init__(self, app):
        table = app.snapshot.table
        names = [n for n in NIGHT_ACTIONS if n in table.rules.actions]
        super().__init__(app, names=names, preview=True)
        self.title_label.text = _("The night")


class MorningDialog(GuidedDialog):
    """The morning as one reviewed step: police, departure, wages — see it, then confirm."""

    tid = "morning"
    confirm_text = N_("Confirm the morning")

    def __init__(self, app):
        super().__init__(app, _("The morning"), big_preview=True)
        self.police = Chips(["auto", True, False], [_("as recorded"), _("yes"), _("no")], selected=["auto"],
                            tid="morning.police", base_font=dp(17))
        self.police.size_hint_y = 1
        self.labelled_row(_("Police in a room?"), self.police, width=dp(220), base_font=dp(18))
        self.content.add_widget(FitLabel(_("What the morning does (police, departure, wages):"), size_hint_y=None,
                                         height=dp(28), color=MUTED, halign="left", base_font=dp(16)))
        self.content.add_widget(self.preview_area())

    def action(self):
        act = {"action": "morning"}
        if self.police.value != "auto" and self.police.value is not None:
            act["police"] = self.police.value
        return act


# -- Dragon Run ---------------------------------------------------------------------------------
class EscapeDialog(GuidedDialog):
    """Hide: discard treasure (≥ 1), then the d10 — rolled here or a physical die's face — shown large."""

    tid = "escape"
    confirm_text = N_("Hide and roll")

    def __init__(self, app):
        super().__init__(app, _("Escape test"))
        table = app.snapshot.table
        turn = table.state.get("turn") or {}
        self.who = turn.get("player")
        p = next((p for p in table.state["players"] if p["name"] == self.who), {"cards": []})
        cards = list(p.get("cards", []))
        self.cards = Chips(list(range(len(cards))), [str(v) for v in cards], multi=True, tid="escape.card",
                           cols=max(1, len(cards)), base_font=dp(18))
        self.cards.size_hint_y = 1
        self.card_values = cards
        self.labelled_row(_("{name} discards:").format(name=self.who),
                          self.cards if cards else FitLabel(_("no treasure cards"), color=RED, base_font=dp(17)),
                          width=dp(170))
        die = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        die.add_widget(FitLabel(_("Die:"), size_hint_x=None, width=dp(60), color=MUTED, base_font=dp(17)))
        self.face = Chips(["roll"] + list(range(10)), [_("roll it")] + [str(i) for i in range(10)],
                          selected=["roll"], tid="escape.face", base_font=dp(17), cols=11)
        self.face.size_hint_y = 1
        die.add_widget(self.face)
        self.content.add_widget(die)
        self.big = tag(FitLabel("", base_font=dp(96), min_font=dp(20), bold=True, color=AMBER), "escape.roll")
        self.content.add_widget(self.big)
        self.result = tag(FitLabel("", base_font=dp(18), min_font=dp(9), wrap=True, size_hint_y=None,
                                   height=dp(50)), "escape.result")
        self.content.add_widget(self.result)
        self.after = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.content.add_widget(self.after)
        self._rolled = False

    def action(self):
        if self._rolled:
            return None
        discard = [self.card_values[i] for i in self.cards.value] if self.card_values else []
        act = {"action": "hide", "player": self.who, "discard": discard}
        if self.face.value != "roll":
            act["roll"] = self.face.value
        return act

    def hint(self):
        return _("Done: pass, or charge.")

    def done(self, ok):
        if not ok:
            return
        self._rolled = True
        self.go.disabled = True
        table = self.app.snapshot.table
        last = table.state.get("last_roll") or {}
        self.show_roll(last)

    def show_roll(self, last):
        if not last:
            return
        self.big.text = str(last.get("roll"))
        if last.get("escaped"):
            self.result.color = GREEN
            self.result.text = _("{roll} is above the {left} location cards left: escaped! "
                                 "The dragon loses 1 temper.").format(roll=last.get("roll"), left=last.get("dungeon"))
        else:
            self.result.color = RED
            self.result.text = _("{roll} is not above the {left} location cards left (0 always fails): "
                                 "charge!").format(roll=last.get("roll"), left=last.get("dungeon"))
        self.after.clear_widgets()
        table = self.app.snapshot.table
        for i, a in enumerate(table.rules.seat_actions(table.state, self.who)):
            self.after.add_widget(Btn(word(a.get("label", "")), tid=f"escape.next.{i}", base_font=dp(17),
                                      on_press=lambda act=a["action"]: (self.submit(dict(act)), self.dismiss())))

    def update(self, snap):
        self._preview_trigger()
        if snap.table is None:
            self.dismiss()
            return
        if self._rolled:
            self.show_roll(snap.table.state.get("last_roll") or {})


class ChargeDialog(GuidedDialog):
    """Charge: the location card drawn (the dragon, the treasure hall with its treasure, another room)."""

    tid = "charge"
    confirm_text = N_("Charge")

    def __init__(self, app):
        super().__init__(app, _("Charge"))
        table = app.snapshot.table
        self.who = (table.state.get("turn") or {}).get("player")
        self.where = Chips(["dragon", "treasure_hall", "other"], [word("dragon"), word("treasure hall"),
                                                                  word("other")],
                           selected=["other"], tid="charge.location", base_font=dp(17))
        self.where.size_hint_y = 1
        self.labelled_row(_("{name} drew:").format(name=self.who), self.where, width=dp(150))
        self.value = Stepper(1, lo=0, hi=10, tid="charge.value")
        self.labelled_row(_("Treasure drawn (hall):"), self.value, width=dp(220))
        self.content.add_widget(BoxLayout())

    def action(self):
        act = {"action": "charge", "player": self.who, "location": self.where.value}
        if self.where.value == "treasure_hall":
            act["value"] = self.value.value
        return act


# -- Dale of Merchants ------------------------------------------------------------------------
class MarketDialog(GuidedDialog):
    """The market: each card's value and price, and a purchase checked before it is made."""

    tid = "market"
    confirm_text = N_("Buy")

    def __init__(self, app):
        super().__init__(app, _("Market"))
        self.slots = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=2 * TOUCH + dp(26))
        self.content.add_widget(self.slots)
        pay = BoxLayout(spacing=GAP)
        left = BoxLayout(orientation="vertical", size_hint_x=0.45, spacing=dp(4))
        left.add_widget(FitLabel(_("Buy the card in slot:"), size_hint_y=None, height=dp(26), color=MUTED,
                                 base_font=dp(16)))
        self.slot = Chips([4, 3, 2, 1, 0], ["+4", "+3", "+2", "+1", "+0"], selected=[0], tid="market.slot",
                          base_font=dp(16))
        left.add_widget(self.slot)
        left.add_widget(BoxLayout())
        pay.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=dp(4))
        right.add_widget(FitLabel(_("Paid with cards of value:"), size_hint_y=None, height=dp(26), color=MUTED,
                                  base_font=dp(16)))
        self.paid = NumberList(hi=6, tid="market.paid")
        right.add_widget(self.paid)
        pay.add_widget(right)
        self.content.add_widget(pay)
        self._key = None

    def update(self, snap):
        self._preview_trigger()
        table = snap.table
        if table is None:
            self.dismiss()
            return
        market = table.view.get("market") or []  # the public view: slots numbered, prices computed
        key = repr(market)
        if key == self._key:
            return
        self._key = key
        self.slots.clear_widgets()
        for cell in market:  # left to right: slot 4 first
            slot = cell.get("slot")
            value = cell.get("value")
            price = cell.get("price")
            head = _("slot +{n}").format(n=slot) + ": " + (
                _("price {p}").format(p=price) if price is not None else ("—" if cell.get("card") else _("empty")))
            self.slots.add_widget(tag(FitLabel(head, base_font=dp(14), min_font=dp(8), size_hint_y=None,
                                               height=dp(26)), f"market.price.{slot}"))
        for cell in market:
            self.slots.add_widget(self._value_cell(cell))

    def _value_cell(self, cell):
        """A market card's value: the number, and − / + under it (48 px each)."""
        slot, value = cell.get("slot"), cell.get("value")
        box = BoxLayout(orientation="vertical", spacing=dp(2))
        box.add_widget(tag(FitLabel("—" if value is None else str(value), base_font=dp(24)), f"market.value.{slot}"))
        buttons = BoxLayout(spacing=dp(2), size_hint_y=None, height=TOUCH)
        for sign, delta in (("−", -1), ("+", 1)):
            # A card not valued yet: + makes it 1, − makes it 0.
            new = max(0, value + delta) if value is not None else (1 if delta > 0 else 0)
            buttons.add_widget(Btn(sign, base_font=dp(22), disabled=not cell.get("card"),
                                   tid=f"market.value.{slot}.{'minus' if delta < 0 else 'plus'}",
                                   on_press=lambda v=new: self.submit({"action": "set_market", "slot": slot,
                                                                       "value": v})))
        box.add_widget(buttons)
        return box

    def action(self):
        if not self.paid.values or self.slot.value is None:
            return None
        return {"action": "buy", "slot": self.slot.value, "paid": list(self.paid.values)}

    def hint(self):
        return _("Set the cards' values, then the cards you pay with: the payment is checked here.")


class StallDialog(GuidedDialog):
    """The stall's next stack: its cards' values and animal set, checked before it is built."""

    tid = "stall"
    confirm_text = N_("Build the stack")

    def __init__(self, app):
        super().__init__(app, _("Stall"))
        table = app.snapshot.table
        turn = table.state.get("turn") or {}
        self.who = turn.get("player")
        p = next((p for p in table.state["players"] if p["name"] == self.who), {"counters": {}})
        n = p["counters"].get("stall", 0) + 1
        need = _("{name}'s stack {n}: cards of one animal set totalling exactly {n}").format(name=self.who, n=n)
        self.content.add_widget(tag(FitLabel(need, size_hint_y=None, height=dp(30), color=MUTED, base_font=dp(17)),
                                    "stall.need"))
        decks = list(table.state.get("decks") or [])
        self.set = Chips(decks, [word(d) for d in decks], selected=decks[:1], tid="stall.set", base_font=dp(15))
        self.set.size_hint_y = 1
        self.labelled_row(_("Set:"), self.set, width=dp(60))
        self.values = NumberList(hi=6, tid="stall.values")
        self.content.add_widget(self.values)
        self.content.add_widget(BoxLayout())

    def action(self):
        if not self.values.values or self.set.value is None:
            return None
        return {"action": "stall", "player": self.who, "values": list(self.values.values), "set": self.set.value}

    def hint(self):
        return _("Tap the values of the stack's cards.")


# -- which panels each game has ------------------------------------------------------------------
def _open(cls):
    return lambda app: cls(app).open()


def _actions(names, title):
    return lambda app: _open_actions(app, names, title)


def _open_actions(app, names, title):
    dialog = ActionDialog(app, names=[n for n in names if n in app.snapshot.table.rules.actions], preview=True)
    dialog.title_label.text = _(title)
    dialog.open()


PANELS: dict[str, tuple[PanelSpec, ...]] = {
    "red-dragon-inn": (PanelSpec("drink", N_("Drink"), _open(DrinkDialog)),
                       PanelSpec("gambling", N_("Gambling"), _open(GamblingDialog))),
    "bloody-inn": (PanelSpec("night", N_("Night action"), _open(NightDialog)),
                   PanelSpec("morning", N_("Morning"), _open(MorningDialog))),
    "dragon-run": (PanelSpec("escape", N_("Escape test"), _open(EscapeDialog)),
                   PanelSpec("charge", N_("Charge"), _open(ChargeDialog)),
                   PanelSpec("cards", N_("Cards"), _actions(("deal", "draw", "discard", "talisman"), N_("Cards")))),
    "dale-of-merchants": (PanelSpec("market", N_("Market"), _open(MarketDialog)),
                          PanelSpec("stall", N_("Stall"), _open(StallDialog))),
}


def panels_for(game_id: str) -> tuple[PanelSpec, ...]:
    return PANELS.get(game_id, ())
