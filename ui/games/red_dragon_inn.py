"""The Red Dragon Inn's guided dialogs: the drink (with the base box's drink list), the gambling round."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ...engine.games.red_dragon_inn.drinks import COMMON_DRINKS, drink_effects  # shared with the pods
from ..guided import DialogButton, GuidedDialog, declared, opens, player_record, turn_player, values
from ..i18n import N_, _, counter_label, ngettext, word
from ..legibility import MIN_TEXT
from ..widgets import GAP, MUTED, TOUCH, Btn, Chips, FitLabel, Stepper, same_size, tag
from . import register

#: How far a drink's totals go either way on their steppers.
TOTAL_LIMIT = 20


def _clamped(total: int) -> int:
    return max(-TOTAL_LIMIT, min(TOTAL_LIMIT, total))


class DrinkDialog(GuidedDialog):
    """Who drinks, the cards revealed (the first plus its chasers, as ONE drink), their totals."""

    tid = "drink"
    confirm_text = N_("Drink")

    def __init__(self, app):
        super().__init__(app, _("Drink"))
        table = app.snapshot.table
        players = self.players(table)
        drinker = turn_player(table)
        self.cards: list[str] = []  # the common drinks revealed, by id: the drink, then its chasers
        self.who = Chips(players, selected=[drinker] if drinker in players else players[:1],
                         tid="drink.who", base_font=dp(17))
        self.who.size_hint_y = 1
        self.labelled_row(_("Who drinks"), self.who, width=dp(130))
        grid = GridLayout(cols=4, spacing=dp(4), size_hint_y=None, height=2 * TOUCH + dp(4))
        for i, (drink, (name, _alc, _fort)) in enumerate(COMMON_DRINKS.items()):
            grid.add_widget(Btn(_(name), base_font=dp(16), min_font=MIN_TEXT, tid=f"drink.card.{i}",
                                on_press=lambda d=drink: self._reveal(d)))
        same_size(*grid.children)
        self.content.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.revealed = tag(FitLabel("", base_font=dp(17), min_font=MIN_TEXT, halign="left"), "drink.revealed")
        row.add_widget(self.revealed)
        row.add_widget(Btn(_("Clear"), size_hint_x=None, width=dp(100), tid="drink.clear", on_press=self._clear))
        self.content.add_widget(row)
        totals = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        self.totals = {}
        for counter in ("alcohol", "fortitude", "gold"):
            stepper = Stepper(0, lo=-TOTAL_LIMIT, hi=TOTAL_LIMIT, tid=f"drink.{counter}",
                              fmt=lambda v, c=counter: f"{counter_label(c)} {v:+d}")
            stepper.label.base_font = dp(16)
            totals.add_widget(stepper)
            self.totals[counter] = stepper
        self.content.add_widget(totals)
        src = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.piles = tag(FitLabel("", base_font=dp(15), min_font=MIN_TEXT, halign="left", color=MUTED), "drink.piles")
        src.add_widget(self.piles)
        source = declared(table, "drink", "from")
        shown = {"drink_me": counter_label("drink_me"), "deck": _("drink deck")}
        self.source = Chips(values(source), [shown[s] for s in values(source)],
                            selected=[source.default], tid="drink.from", base_font=dp(15))
        self.source.size_hint = (None, 1)
        self.source.width = dp(300)
        src.add_widget(self.source)
        self.content.add_widget(src)
        self._clear()

    def _reveal(self, drink):
        self.cards.append(drink)
        alcohol, fortitude = drink_effects(*self.cards)
        self.totals["alcohol"].value = _clamped(alcohol)
        self.totals["fortitude"].value = _clamped(fortitude)
        self._show_cards()

    def _clear(self):
        self.cards = []
        for stepper in self.totals.values():
            stepper.value = 0
        self._show_cards()

    def _show_cards(self):
        if not self.cards:
            self.revealed.text = _("Tap the drink revealed, then each chaser.")
            return
        names = " + ".join(_(COMMON_DRINKS[c][0]) for c in self.cards)
        chasers = len(self.cards) - 1
        self.revealed.text = names + (" " + ngettext("({n} chaser, one drink)", "({n} chasers, one drink)",
                                                     chasers).format(n=chasers) if chasers else "")

    def refresh(self, table):
        drinks = table.state.get("drinks") or {}
        who = self.who.value
        p = player_record(table, who)
        pile = p["counters"].get("drink_me", 0) if p else 0
        self.piles.text = _("{name}'s Drink Me! pile: {n} · drink deck {deck}, discard {discard}").format(
            name=who, n=pile, deck=drinks.get("deck", "?"), discard=drinks.get("discard", "?"))

    def action(self):
        state = self.app.snapshot.table.state
        who = self.who.value
        if who is None:
            return None
        turn = state.get("turn") or {}
        extra = not (turn.get("player") == who and turn.get("phase") == "drink") or self.source.value == "deck"
        act = {"action": "drink", "player": who}
        amounts = {counter: stepper.value for counter, stepper in self.totals.items()}
        if 1 <= len(self.cards) <= 3 and (amounts["alcohol"], amounts["fortitude"]) == drink_effects(
                *self.cards) and not amounts["gold"]:
            # common drinks as they are (a chaser's own chaser too): the journal (and the history) names them
            act.update(zip(("drink", "chaser", "second_chaser"), self.cards))
        else:  # another card, or totals changed by hand: the amounts
            for counter, value in amounts.items():
                if value:
                    act[counter] = value
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
        super().__init__(app, _("Gambling round"), big_preview=True)
        self.state_label = tag(FitLabel("", base_font=dp(20), min_font=MIN_TEXT, wrap=True, size_hint_y=None,
                                        height=dp(64), halign="left"), "gambling.state")
        self.content.add_widget(self.state_label)
        self.go_row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.content.add_widget(self.go_row)
        self.others = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None, height=0)
        self.content.add_widget(self.others)
        # what starting the round would do, one line a player: under the rows, scrolled if long
        self.content.add_widget(self.preview_area())
        self._key = None

    def refresh(self, table):
        g = table.state.get("gambling")
        if g is None:
            self.state_label.text = _("No gambling round is running. {name} can start one in the action phase.").format(
                name=turn_player(table) or "")
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
        self.others.height = 0
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
            same_size(*(b for b in self.go_row.children if isinstance(b, Btn)))
        in_round = list(g.get("players") or [])
        leaves = self._names_row(_("Leaves:"), in_round, "gambling.leave", lambda n: {"action": "leave", "player": n})
        same_size(*(b for b in leaves.children if isinstance(b, Btn)))
        self.others.add_widget(leaves)
        end = self._names_row(_("Pot to:"), in_round, "gambling.end",
                              lambda n: {"action": "end_round", "winner": n})
        end.add_widget(Btn(counter_label("inn"), base_font=dp(16), tid="gambling.end.inn",
                           on_press=lambda: self.submit({"action": "end_round", "winner": None})))
        self.others.add_widget(end)
        same_size(*(b for b in end.children if isinstance(b, Btn)))
        self.others.height = 2 * TOUCH + dp(4)

    def _names_row(self, text, names, tid, action_for):
        """A row: ``text``, then a button per name that sends ``action_for(name)``."""
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        row.add_widget(FitLabel(text, size_hint_x=None, width=dp(90), color=MUTED, base_font=dp(16)))
        for name in names:
            row.add_widget(Btn(name, base_font=dp(16), tid=f"{tid}.{name}",
                               on_press=lambda n=name: self.submit(action_for(n))))
        return row

    def action(self):
        table = self.app.snapshot.table
        if table.state.get("gambling") is not None:
            return None
        return {"action": "gamble", "player": turn_player(table)}

    def hint(self):
        return _("The round runs: tap the go of the player whose turn it is.")

    def done(self, ok):
        pass  # stay: the round goes on here


register("red-dragon-inn",
         DialogButton("drink", N_("Drink"), opens(DrinkDialog)),
         DialogButton("gambling", N_("Gambling"), opens(GamblingDialog)))
