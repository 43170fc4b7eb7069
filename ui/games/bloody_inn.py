"""The Bloody Inn's guided dialogs: the night's actions, the morning as one reviewed step."""
from __future__ import annotations

from kivy.metrics import dp

from ..guided import DialogButton, GuidedDialog, caption, opens, opens_actions
from ..i18n import N_, _
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


register("bloody-inn",
         DialogButton("night", N_("Night action"), opens_actions(NIGHT_ACTIONS, N_("The night"))),
         DialogButton("morning", N_("Morning"), opens(MorningDialog)))
