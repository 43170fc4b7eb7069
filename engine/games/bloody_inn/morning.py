"""The Bloody Inn's morning in one action: the police, the travellers' departure, the wages; then the
first-player card passes on, or the game ends."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Raw
from ...game import action
from ...messages import N_, _
from ...state import Args, Txn
from .annexes import built, powers, waived
from .table import CHECK, POLICE_FINE, BloodyInnTable, free_wages
from .words import _checks, _peasants, _travellers, _unburied, annex_word


class BloodyInnMorning(BloodyInnTable):
    """The morning phase."""

    def _name_map(self, t: Txn, a: Args, key: str) -> dict[str, int]:
        value = a.raw(key, {})
        if not isinstance(value, dict):
            raise RuleError(_('morning: "{key}" must be an object like {example}, not {value!r}', key=key,
                              example='{"Ana": 1}', value=value))
        for name, n in value.items():
            t.player(name)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RuleError(_('morning: "{key}" for {name} must be a whole number ≥ 0, not {value!r}', key=key,
                                  name=name, value=n))
        return value

    @action("morning", fields=(Raw("police"), Raw("police_checks"), Raw("wage_peasants"), Raw("wages_waived")))
    def _morning(self, t: Txn, a: Args) -> None:
        """The end of the round in one step: police, departure, wages; the first-player card passes on.

        Optional: "police" (true/false) overrides whether a police card is in an
        open room; "police_checks" {name: n} pays n corpses with checks first (default:
        cash while it has 10F, then checks, then what cash remains);
        "wage_peasants" {name: n} how many of the accomplices discarded for unpaid
        wages are peasants (default: peasants first); "wages_waived" {name: n}
        accomplices whose wage an annex waives.
        """
        police = a.raw("police", None)
        if police is not None and not isinstance(police, bool):
            raise RuleError(_('morning: "police" must be true or false, not {police!r}', police=police))
        police_checks = self._name_map(t, a, "police_checks")
        wage_peasants = self._name_map(t, a, "wage_peasants")
        waived_given = self._name_map(t, a, "wages_waived")
        if t.state["phase"] != "morning":
            raise self._phase_refusal(t, "morning")
        rooms = self._rooms(t)
        order = self._seat_order(t)
        # A. Police investigation.
        if police is None:
            police = any(r["guest"] and r["police"] for r in rooms)
        if police:
            t.event(_("the police investigate"))
            for name in order:
                if self._investigate(t, name, police_checks.get(name, 0)):
                    return  # a solo innkeeper caught with a corpse has lost
        else:
            t.event(_("no police in the inn"))
        # B. Travellers' departure.
        self._departure(t, order)
        # C. Wages.
        for name in order:
            self._pay_wages(t, name, wage_peasants, waived_given)
        for name in order:  # powers the device does not apply: a reminder every morning, on its owner's pod too (it
            # starts with the owner's name: a play-tester's pod named her distillery's income, not her coach house's,
            # and the table would have lost those francs)
            for x in powers(t.player(name), "other"):
                t.event(_("{who}'s {annex}: its power is on the card, not applied: its francs by hand", who=name,
                          annex=annex_word(x["name"])))
        # Then the first-player card passes on, or the game ends.
        if t.state["last_round"]:
            self._enter_count(t)
            return
        names = [p["name"] for p in t.players]
        nxt = names[(names.index(t.state["first_player"]) + 1) % len(names)]
        t.state["first_player"] = nxt
        t.add(None, "round", 1)
        t.state["phase"] = "welcome"
        t.event(_("round {round}: {who} takes the first-player card", round=t.state["table"]["round"], who=nxt))

    def _investigate(self, t: Txn, name: str, by_check: int) -> bool:
        """The police find ``name``'s unburied corpses: the gravedigger is paid for each (``by_check`` of them
        with checks first, then as :meth:`_morning` says), and they are gone. True: the solo game is lost."""
        p = t.player(name)
        k = len(p["corpses"])
        if by_check > min(k, p["counters"]["checks"]):
            raise RuleError(N_("{who} cannot pay {n} corpse with checks ({corpses}, {checks})",
                               "{who} cannot pay {n} corpses with checks ({corpses}, {checks})",
                               by_check, who=name, corpses=_unburied(k),
                               checks=_checks(p["counters"]["checks"])))
        if not k:
            return False
        if self.solo:
            why = N_("{who} had {n} unburied corpse at a police investigation",
                     "{who} had {n} unburied corpses at a police investigation", k, who=name)
            t.state["solo"].update({"lost": True, "why": why})
            t.state["phase"] = "over"
            t.finish([], why=why)
            return True
        paid_checks = by_check
        paid_cash = 0
        for i in range(k):
            if i < paid_checks:
                continue
            if t.get(name, "cash") >= POLICE_FINE:
                paid_cash += self._pay_cash(t, name, POLICE_FINE, "police")
            elif t.get(name, "checks") > paid_checks:
                paid_checks += 1
            else:
                paid_cash += self._pay_cash(t, name, POLICE_FINE, "police")
        if paid_checks:
            t.add(name, "checks", -paid_checks)
            t.state["ledger"]["police"] -= CHECK * paid_checks
        paid = paid_cash + CHECK * paid_checks
        short = POLICE_FINE * k - paid
        p["corpses"] = []
        t.state["inn"]["discarded"] += k
        self._say_gravedigger_paid(t, name, k, paid, paid_checks, short)
        return False

    @staticmethod
    def _say_gravedigger_paid(t: Txn, name: str, k: int, paid: int, paid_checks: int, short: int) -> None:
        """The investigation's line for ``name``: what the gravedigger got for the ``k`` corpses, and how."""
        if paid_checks and short:
            t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse ({checks}), {short}F short; "
                       "the corpses are gone",
                       "{who} pays the gravedigger {paid}F for {n} unburied corpses ({checks}), {short}F short; "
                       "the corpses are gone", k, who=name, paid=paid, checks=_checks(paid_checks),
                       short=short))
        elif paid_checks:
            t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse ({checks}); "
                       "the corpses are gone",
                       "{who} pays the gravedigger {paid}F for {n} unburied corpses ({checks}); "
                       "the corpses are gone", k, who=name, paid=paid, checks=_checks(paid_checks)))
        elif short:
            t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse, {short}F short; "
                       "the corpses are gone",
                       "{who} pays the gravedigger {paid}F for {n} unburied corpses, {short}F short; "
                       "the corpses are gone", k, who=name, paid=paid, short=short))
        else:
            t.event(N_("{who} pays the gravedigger {paid}F for {n} unburied corpse; the corpses are gone",
                       "{who} pays the gravedigger {paid}F for {n} unburied corpses; the corpses are gone",
                       k, who=name, paid=paid))

    def _departure(self, t: Txn, order: list[str]) -> None:
        """The guests still in the rooms leave for the exit stack: each room's key holder earns 1F (option
        ``room_income``: a table whose copy pays nothing there, 0); the annexes that pay at the departure pay."""
        inn = t.state["inn"]
        income = self.options["room_income"]
        guests = 0
        for r in self._rooms(t):
            if not r["guest"]:
                continue
            guests += 1
            if r["key"] is not None and income:
                self._gain(t, r["key"], income, "departure", _("room {room}", room=r["room"]))
                t.event(_("{who} earns {n}F: room {room} still has its guest", who=r["key"], n=income, room=r["room"]))
            r["guest"] = r["police"] = False
        inn["exit"] += guests
        if guests:
            t.event(N_("{n} guest leaves for the exit stack ({exit} there)",
                       "{n} guests leave for the exit stack ({exit} there)", guests, exit=inn["exit"]))
        for name in order:  # annexes that pay at the departure (the gardens)
            for x in powers(t.player(name), "morning_bonus"):
                if x["amount"]:
                    t.event(_("{who}'s {annex}: +{amount}F at the departure", who=name, annex=annex_word(x["name"]),
                              amount=x["amount"]))
                    self._gain(t, name, x["amount"], "departure", annex_word(x["name"]))
            others = len(built(t.player(name))) - 1  # the owner's other annexes (the barn is no annex built)
            for x in powers(t.player(name), "per_annex_bonus"):
                gain = x["amount"] * others
                if gain:
                    t.event(N_("{who}'s {annex}: +{gain}F at the departure ({n} other annex)",
                               "{who}'s {annex}: +{gain}F at the departure ({n} other annexes)", others,
                               who=name, annex=annex_word(x["name"]), gain=gain))
                    self._gain(t, name, gain, "departure", annex_word(x["name"]))

    def _pay_wages(self, t: Txn, name: str, wage_peasants: dict[str, int], waived_given: dict[str, int]) -> None:
        """``name`` pays a franc a card in hand (less the wages waived: as ``waived_given`` says, or the
        annexes'); an accomplice is discarded per franc short, peasants first unless ``wage_peasants`` says."""
        inn = t.state["inn"]
        p = t.player(name)
        if name in waived_given:
            w = waived_given[name]
        else:  # the annexes' own (the distillery), and the peasants where they cost nothing: never more than the hand
            w = min(waived(p), p["hand"])
            if w:
                t.event(N_("{who}'s annexes waive {n} wage", "{who}'s annexes waive {n} wages", w, who=name))
            w = min(free_wages(p, self.options["peasant_wages"]), p["hand"])
        if w > p["hand"]:
            raise RuleError(N_("{who} has only {n} card in hand: {waived} wages cannot be waived",
                               "{who} has only {n} cards in hand: {waived} wages cannot be waived", p["hand"],
                               who=name, waived=w))
        due = p["hand"] - w
        paid = self._pay_cash(t, name, due, "wages")
        short = due - paid
        travellers = p["hand"] - p["peasants"]
        # the unpaid cards go: peasants first (the publisher's), or at a table whose peasants cost nothing the
        # travellers, whose wages were due
        usual = min(short, p["peasants"]) if self.options["peasant_wages"] else max(0, short - travellers)
        np = wage_peasants.get(name, usual)
        if name in wage_peasants and (np > short or np > p["peasants"] or short - np > travellers):
            accomplices = N_("{n} accomplice", "{n} accomplices", short)
            if np == 0:  # none as peasants: only travellers, and there are not enough of them
                raise RuleError(_("{who} discards {accomplices} for unpaid wages: they cannot all be travellers "
                                  "(has {peasants}, {travellers})", who=name, accomplices=accomplices,
                                  peasants=_peasants(p["peasants"]), travellers=_travellers(travellers)))
            raise RuleError(N_("{who} discards {accomplices} for unpaid wages: {n} of them cannot be a peasant "
                               "(has {peasants}, {travellers})",
                               "{who} discards {accomplices} for unpaid wages: {n} of them cannot be peasants "
                               "(has {peasants}, {travellers})", np, who=name, accomplices=accomplices,
                               peasants=_peasants(p["peasants"]), travellers=_travellers(travellers)))
        nt = short - np
        p["police"] = max(0, min(p.get("police", 0), travellers) - nt)
        p["hand"] -= short
        p["peasants"] -= np
        inn["bistro"] += np
        inn["exit"] += nt
        if short:
            t.event(N_("{who} pays {paid}F in wages, {short}F short: discards {n} accomplice "
                       "({peasants} to the bistro, {travellers} to the exit stack)",
                       "{who} pays {paid}F in wages, {short}F short: discards {n} accomplices "
                       "({peasants} to the bistro, {travellers} to the exit stack)", short, who=name, paid=paid,
                       short=short, peasants=np, travellers=nt))
        elif due:
            t.event(_("{who} pays {paid}F in wages", who=name, paid=paid))
