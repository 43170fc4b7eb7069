"""The Bloody Inn's guided dialogs: the night's actions, a burial by tapping the annex (with the corpse and
the cards played when the hand leaves a choice), the morning as one reviewed step; and its board: the
inn's rooms beside the cards, each player's annexes with their free places on their card."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ...engine.games.bloody_inn.words import annex_word
from ..guided import DialogButton, GuidedDialog, caption, opens, opens_actions, turn_player
from ..i18n import N_, _, word
from ..widgets import Chips
from . import Board, Place, register, register_board

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
    """A burial: whose corpse (the innkeeper whose action it is), which corpse when they differ, the annex
    by tapping it — every annex at the table, each named with its owner ("barn (Ben)") — and, when the
    hand could pay the corpse's rank more than one way, the cards played ("2 peasants", "1 peasant, 1 back
    to hand", "1 peasant, 1 lost"; the usual way, peasants first, is chosen). The rules check the rest."""

    tid = "bury"
    confirm_text = N_("Bury")

    def __init__(self, app):
        super().__init__(app, _("Bury a corpse"))
        table = app.snapshot.table
        self.rules = table.rules
        self.who = turn_player(table) or table.state["players"][0]["name"]
        self.player = next(p for p in table.state["players"] if p["name"] == self.who)
        annexes = [(p["name"], a["name"]) for p in table.state["players"] for a in p["annexes"]]
        # A chip's value is its place in the list: the tap test ids stay short and unique
        self.annexes = annexes
        corpses = self.player["corpses"]
        self.corpse = None
        if corpses and any(c != corpses[0] for c in corpses):
            self.corpse = Chips(list(range(1, len(corpses) + 1)),
                                [word(self.rules.corpse_words(c)) for c in corpses],
                                selected=[1], cols=3, tid="bury.corpse", base_font=dp(16),
                                on_change=lambda _v: self._show_ways())
            self.corpse.height = (len(corpses) + 2) // 3 * dp(52)
            self.content.add_widget(caption(word(self.rules.CORPSE_PROMPT), halign="left"))
            self.content.add_widget(self.corpse)
        self.where = Chips(list(range(len(annexes))),
                           [f"{word(name)} ({owner})" for owner, name in annexes],
                           selected=[], allow_none=True, cols=3, tid="bury.annex", base_font=dp(16))
        self.where.height = (len(annexes) + 2) // 3 * dp(52)
        self.content.add_widget(caption(_("{name} buries a corpse under:").format(name=self.who), halign="left"))
        self.content.add_widget(self.where)
        self.content.add_widget(caption(_("(under another player's annex, the corpse's money is shared with its owner)"), halign="left"))
        self.ways_row = BoxLayout(orientation="vertical", size_hint_y=None, height=0)
        self.content.add_widget(self.ways_row)
        self.ways: list = []
        self.way = None
        self._show_ways()

    def _rank(self) -> int | None:
        corpses = self.player["corpses"]
        if not corpses:
            return None
        chosen = self.corpse.value if self.corpse is not None else 1
        return corpses[(chosen or 1) - 1]["rank"]

    def _show_ways(self) -> None:
        """The cards played, when the hand could pay the corpse's rank more than one way."""
        self.ways_row.clear_widgets()
        rank = self._rank()
        self.ways = self.rules.ways_to_pay(self.player, rank, "bury") if rank is not None else []
        self.way = None
        if len(self.ways) < 2:
            self.ways_row.height = 0
            return
        signs = [word(self.rules.way_words(cards)) for _given, cards in self.ways]
        self.way = Chips(list(range(len(self.ways))), signs, selected=[0], cols=min(len(signs), 3),
                         tid="bury.cards", base_font=dp(16))
        self.way.height = (len(signs) + 2) // 3 * dp(52)
        self.ways_row.add_widget(caption(word(self.rules.CARDS_PROMPT), halign="left"))
        self.ways_row.add_widget(self.way)
        self.ways_row.height = dp(26) + self.way.height

    def action(self):
        chosen = self.where.value
        if chosen is None:
            return None
        owner, name = self.annexes[chosen]
        act = {"action": "bury", "player": self.who, "owner": owner, "annex": name}
        if self.corpse is not None and self.corpse.value is not None:
            act["corpse"] = self.corpse.value
        if self.way is not None and self.way.value is not None:
            act.update(self.ways[self.way.value][0])
        return act

    def hint(self):
        return _("Tap the annex")


#: An annex's places: a buried corpse, a free place (the symbol font has both).
BURIED, FREE = "■", "□"


def rooms(state) -> list[Place]:
    """The inn's rooms, as the rules check them: whose key opens it, a guest in it, police among them."""
    out = []
    for r in state["inn"]["rooms"]:
        if r["guest"] and r["police"]:
            content, look = _("police"), "alert"
        elif r["guest"]:
            content, look = _("guest"), "taken"
        else:
            content, look = _("empty"), "empty"
        out.append(Place(str(r["room"]), _("room {n}").format(n=r["room"]), r["key"] or "", content, look))
    return out


def annexes_line(state, name) -> str:
    """A player's annexes and their places, buried and free: "barn ■□□  chapel □□"."""
    p = next(p for p in state["players"] if p["name"] == name)
    return "   ".join(f"{word(annex_word(a['name']))} "
                      f"{BURIED * len(a['buried'])}{FREE * max(0, a['rank'] - len(a['buried']))}".rstrip()
                      for a in p["annexes"])


register("bloody-inn",
         DialogButton("night", N_("Night action"), opens_actions(NIGHT_ACTIONS, N_("The night"))),
         DialogButton("bury", N_("Bury"), opens(BuryDialog)),
         DialogButton("morning", N_("Morning"), opens(MorningDialog)))
register_board("bloody-inn", Board(rooms, annexes_line))
