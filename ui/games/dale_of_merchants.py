"""Dale of Merchants' guided dialogs: the market's prices and the payment check, the stall's next stack."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ..dialogs import NumberList
from ..guided import DialogButton, GuidedDialog, caption, opens, player_record, turn_player
from ..i18n import N_, _, word
from ..legibility import MIN_TEXT
from ..widgets import MUTED, TOUCH, Btn, Chips, FitLabel, tag
from . import register

#: The highest card value the number keys offer.
TOP_VALUE = 6


class MarketDialog(GuidedDialog):
    """The market, left to right as on the board: each card's price, the card itself (tap it to buy it)
    with − / + under it for its value, then the cards paid; the purchase is checked before it is made."""

    tid = "market"
    confirm_text = N_("Buy")

    def __init__(self, app):
        super().__init__(app, _("Market"))
        self.heads = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=dp(26))
        self.content.add_widget(self.heads)
        # The cards: a row of buttons showing their values; the one tapped is the one bought.
        self.cards = BoxLayout(size_hint_y=None, height=TOUCH)
        self.content.add_widget(self.cards)
        self.steps = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=TOUCH)
        self.content.add_widget(self.steps)
        self.slot = None
        self.content.add_widget(caption(_("Paid with cards of value:")))
        self.paid = NumberList(hi=TOP_VALUE, tid="market.paid")
        self.content.add_widget(self.paid)
        self._key = None

    def refresh(self, table):
        market = table.view.get("market") or []  # the public view: slots numbered, prices computed
        key = repr(market)
        if key == self._key:
            return
        self._key = key
        chosen = self.slot.value if self.slot is not None else None
        self.heads.clear_widgets()
        self.steps.clear_widgets()
        self.cards.clear_widgets()
        for cell in market:  # left to right: slot 4 first
            slot = cell.get("slot")
            price = cell.get("price")
            head = f"+{slot} · " + (
                _("price {p}").format(p=price) if price is not None else ("—" if cell.get("card") else _("empty")))
            self.heads.add_widget(tag(FitLabel(head, base_font=dp(14), min_font=MIN_TEXT, size_hint_y=None,
                                               height=dp(26)), f"market.price.{slot}"))
            self.steps.add_widget(self._steps(cell))
        slots = [cell.get("slot") for cell in market]
        shown = ["—" if cell.get("value") is None else str(cell.get("value")) if cell.get("card") else ""
                 for cell in market]
        self.slot = Chips(slots, shown, selected=[chosen] if chosen in slots else [], tid="market.slot",
                          base_font=dp(24), spacing=dp(4))
        self.slot.size_hint_y = None
        self.slot.height = TOUCH
        self.cards.add_widget(self.slot)

    def _steps(self, cell):
        """A market card's value: − / + (48 px each) under the card."""
        slot, value = cell.get("slot"), cell.get("value")
        buttons = BoxLayout(spacing=dp(2), size_hint_y=None, height=TOUCH)
        for sign, delta in (("−", -1), ("+", 1)):
            # A card not valued yet: + makes it 1, − makes it 0.
            new = max(0, value + delta) if value is not None else (1 if delta > 0 else 0)
            buttons.add_widget(Btn(sign, base_font=dp(22), disabled=not cell.get("card"),
                                   tid=f"market.value.{slot}.{'minus' if delta < 0 else 'plus'}",
                                   on_press=lambda v=new: self.submit({"action": "set_market", "slot": slot,
                                                                       "value": v})))
        return buttons

    def action(self):
        if not self.paid.values or self.slot is None or self.slot.value is None:
            return None
        return {"action": "buy", "slot": self.slot.value, "paid": list(self.paid.values), **then_clean_up(self.app)}

    def hint(self):
        return _("Set the cards' values, then the cards you pay with: the payment is checked here.")


def then_clean_up(app) -> dict:
    """``{"clean_up": true}`` when this is the turn's last action and the table lets the device clean
    up by itself (the option ``say_clean_up`` off): the clean-up follows at once, as on the pods."""
    table = app.snapshot.table
    if table is None or table.rules.options.get("say_clean_up"):
        return {}
    return {"clean_up": True} if (table.state.get("table") or {}).get("actions") == 1 else {}


class StallDialog(GuidedDialog):
    """The stall's next stack: its cards' values and animal set, checked before it is built."""

    tid = "stall"
    confirm_text = N_("Build the stack")

    def __init__(self, app):
        super().__init__(app, _("Stall"))
        table = app.snapshot.table
        self.who = turn_player(table)
        p = player_record(table, self.who)
        n = (p["counters"].get("stall", 0) if p else 0) + 1
        need = _("{name}'s stack {n}: cards of one animal set totalling exactly {n}").format(name=self.who, n=n)
        self.content.add_widget(tag(FitLabel(need, size_hint_y=None, height=dp(30), color=MUTED, base_font=dp(17)),
                                    "stall.need"))
        decks = list(table.state.get("decks") or [])
        self.set = Chips(decks, [word(d) for d in decks], selected=decks[:1], tid="stall.set", base_font=dp(15))
        self.set.size_hint_y = 1
        self.labelled_row(_("Set:"), self.set, width=dp(60))
        self.values = NumberList(hi=TOP_VALUE, tid="stall.values")
        self.content.add_widget(self.values)
        self.content.add_widget(BoxLayout())

    def action(self):
        if not self.values.values or self.set.value is None:
            return None
        return {"action": "stall", "player": self.who, "values": list(self.values.values), "set": self.set.value,
                **then_clean_up(self.app)}

    def hint(self):
        return _("Tap the values of the stack's cards.")


register("dale-of-merchants",
         DialogButton("market", N_("Market"), opens(MarketDialog)),
         DialogButton("stall", N_("Stall"), opens(StallDialog)))
