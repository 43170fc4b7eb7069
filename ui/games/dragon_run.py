"""Dragon Run's guided dialogs: the escape test with the d10 shown large, the charge, the cards."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ...engine.messages import word as game_word
from ..guided import DialogButton, GuidedDialog, declared, opens, opens_actions, player_record, turn_player, values
from ..i18n import N_, _, word
from ..legibility import MIN_TEXT
from ..widgets import AMBER, GAP, GREEN, RED, TOUCH, Btn, Chips, FitLabel, Stepper, tag
from . import register


class EscapeDialog(GuidedDialog):
    """Hide: discard treasure (≥ 1), then the d10 — rolled here or a physical die's face — shown large.

    Cards whose values were never entered (a deal or a draw without them) are discarded by value: one of
    them, worth the value tapped."""

    tid = "escape"
    confirm_text = N_("Hide and roll")

    def __init__(self, app):
        super().__init__(app, _("Escape test"))
        table = app.snapshot.table
        self.who = turn_player(table)
        record = player_record(table, self.who) or {}
        cards = list(record.get("cards", []))
        unseen = int(record.get("unknown", 0) or 0)
        self.cards = Chips(list(range(len(cards))), [str(v) for v in cards], multi=True, tid="escape.card",
                           cols=max(1, len(cards)), base_font=dp(18))
        self.cards.size_hint_y = 1
        self.card_values = cards
        self.labelled_row(_("{name} discards:").format(name=self.who),
                          self.cards if cards else FitLabel(_("no treasure cards") if not unseen else "",
                                                            color=RED, base_font=dp(17)),
                          width=dp(170))
        self.unseen = None
        if unseen:  # a card the device has not seen: its value, tapped
            worth = values(declared(table, "hide", "discard"))
            self.unseen = Chips(worth, [str(v) for v in worth], allow_none=True,
                                selected=[] if cards else [1], tid="escape.unseen", cols=len(worth), base_font=dp(15))
            self.unseen.size_hint_y = 1
            self.labelled_row(word(game_word("label", "a card not entered, worth")), self.unseen, width=dp(170))
        faces = values(declared(table, "hide", "roll"))
        self.face = Chips(["roll", *faces], [_("roll it")] + [str(i) for i in faces],
                          selected=["roll"], tid="escape.face", base_font=dp(17), cols=1 + len(faces))
        self.face.size_hint_y = 1
        self.labelled_row(_("Die:"), self.face, width=dp(60), spacing=dp(4))
        self.big = tag(FitLabel("", base_font=dp(96), min_font=dp(20), bold=True, color=AMBER), "escape.roll")
        self.content.add_widget(self.big)
        self.result = tag(FitLabel("", base_font=dp(18), min_font=MIN_TEXT, wrap=True, size_hint_y=None,
                                   height=dp(50)), "escape.result")
        self.content.add_widget(self.result)
        self.after = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.content.add_widget(self.after)
        self._rolled = False

    def action(self):
        if self._rolled:
            return None
        discard = [self.card_values[i] for i in self.cards.value] if self.card_values else []
        if self.unseen is not None and self.unseen.value is not None:
            discard.append(self.unseen.value)
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
        self.refresh(self.app.snapshot.table)

    def refresh(self, table):
        last = table.state.get("last_roll") or {}
        if not self._rolled or not last:
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
        # What follows the escape test and asks nothing: pass, a charge with its icon, the dragon.
        offers = [a for a in table.rules.seat_actions(table.state, self.who)
                  if not a.get("ask") and a["action"]["action"] in ("pass", "charge")]
        for i, a in enumerate(offers):
            self.after.add_widget(Btn(word(a.get("label", "")), tid=f"escape.next.{i}", base_font=dp(17),
                                      on_press=lambda act=a["action"]: (self.submit(dict(act)), self.dismiss())))


class ChargeDialog(GuidedDialog):
    """Charge: the location card drawn (the dragon, the treasure hall with its treasure, another room — with the
    treasure its card gives, if it gives one) and the room's icon (pass or another turn), in one action."""

    tid = "charge"
    confirm_text = N_("Charge")

    def __init__(self, app):
        super().__init__(app, _("Charge"), big_preview=True)
        table = app.snapshot.table
        self.who = turn_player(table)
        where = values(declared(table, "charge", "location"))
        self.where = Chips(where, [word(w.replace("_", " ")) for w in where],
                           selected=["other"], tid="charge.location", base_font=dp(17))
        self.where.size_hint_y = 1
        self.labelled_row(_("{name} drew:").format(name=self.who), self.where, width=dp(150))
        value = declared(table, "charge", "value")
        self.value = Stepper(1, lo=value.lo, hi=value.hi, tid="charge.value")
        self.gives = Chips(["room"], [word(game_word("label", "room + treasure"))], allow_none=True,
                           tid="charge.gives", base_font=dp(15))
        row = BoxLayout(spacing=GAP)
        row.add_widget(self.value)
        row.add_widget(self.gives)
        self.labelled_row(_("Treasure drawn (hall):"), row, width=dp(220))
        # The room's icon (the treasure hall: the player's choice); none: pass or another turn comes after.
        then = values(declared(table, "charge", "then"))
        self.then = Chips(then, [word(game_word("choice", c)) for c in then],
                          allow_none=True, tid="charge.then", base_font=dp(17))
        self.then.size_hint_y = 1
        self.labelled_row(word(game_word("field", "then")), self.then, width=dp(150))
        self.content.add_widget(self.preview_area())  # the draw's outcome, scrolled if long

    def action(self):
        where = self.where.value
        act = {"action": "charge", "player": self.who, "location": where}
        if where == "treasure_hall" or (where == "other" and self.gives.value):
            act["value"] = self.value.value
        if where != "dragon" and self.then.value:
            act["then"] = self.then.value
        return act


register("dragon-run",
         DialogButton("escape", N_("Escape test"), opens(EscapeDialog)),
         DialogButton("charge", N_("Charge"), opens(ChargeDialog)),
         DialogButton("cards", N_("Cards"), opens_actions(("deal", "draw", "discard", "talisman", "count"),
                                                          N_("Cards"))))
