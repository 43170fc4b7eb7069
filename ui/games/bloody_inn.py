"""The Bloody Inn's guided dialogs: the night's actions, a burial by tapping the annex, the morning as one
reviewed step."""
from __future__ import annotations

from kivy.metrics import dp

from ..guided import DialogButton, GuidedDialog, caption, opens, opens_actions, turn_player
from ..i18n import N_, _, word
from ..widgets import Chips
from . import register

#: The night's actions, offered to the innkeeper whose action it is.
NIGHT_ACTIONS = ("bribe", "build", "kill", "bury", "pass")


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
        self.content.add_widget(caption(_("What the morning does (police, departure, wages):"), height=dp(28), halign="left"))
        self.content.add_widget(self.preview_area())

    def action(self):
        act = {"action": "morning"}
        if self.police.value != "auto" and self.police.value is not None:
            act["police"] = self.police.value
        return act


class BuryDialog(GuidedDialog):
    """A burial: whose corpse (the innkeeper whose action it is), and the annex, by tapping it — every
    annex at the table, each named with its owner ("barn (Ben)"); the rules check its room and the cost."""

    tid = "bury"
    confirm_text = N_("Bury")

    def __init__(self, app):
        super().__init__(app, _("Bury a corpse"))
        table = app.snapshot.table
        self.who = turn_player(table) or table.state["players"][0]["name"]
        annexes = [(p["name"], a["name"]) for p in table.state["players"] for a in p["annexes"]]
        # A chip's value is its place in the list: the tap test ids stay short and unique
        self.annexes = annexes
        self.where = Chips(list(range(len(annexes))),
                           [f"{word(name)} ({owner})" for owner, name in annexes],
                           selected=[], allow_none=True, cols=3, tid="bury.annex", base_font=dp(16))
        self.where.height = (len(annexes) + 2) // 3 * dp(52)
        self.content.add_widget(caption(_("{name} buries a corpse under:").format(name=self.who), halign="left"))
        self.content.add_widget(self.where)
        self.content.add_widget(caption(_("(under another player's annex, the corpse's money is shared with its owner)"), halign="left"))

    def action(self):
        chosen = self.where.value
        if chosen is None:
            return None
        owner, name = self.annexes[chosen]
        return {"action": "bury", "player": self.who, "owner": owner, "annex": name}

    def hint(self):
        return _("Tap the annex")


register("bloody-inn",
         DialogButton("night", N_("Night action"), opens_actions(NIGHT_ACTIONS, N_("The night"))),
         DialogButton("bury", N_("Bury"), opens(BuryDialog)),
         DialogButton("morning", N_("Morning"), opens(MorningDialog)))
