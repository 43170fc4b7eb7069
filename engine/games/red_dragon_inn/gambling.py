"""The Red Dragon Inn's gambling round: "Gambling? I'm in!", the antes and the pot, who is in control, who
has passed or left, and who wins the pot."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Player, Raw, Str
from ...game import action
from ...messages import _, listing
from ...state import Args, Txn
from .table import CARDS, RedDragonInnTable
from .words import CARD_WORDS, PHASE_WORDS


class RedDragonInnGambling(RedDragonInnTable):
    """The gambling round's actions and its end."""

    def _round(self, t: Txn) -> dict[str, Any]:
        g: dict[str, Any] | None = t.state["gambling"]
        if g is None:
            raise RuleError(_("no gambling round is running"))
        return g

    def _next_in_round(self, t: Txn, after: str) -> str | None:
        """The next player on the left of ``after`` still in the round and not in control."""
        g = t.state["gambling"]
        names = [p["name"] for p in t.players]
        i = names.index(after)
        for k in range(1, len(names) + 1):
            n: str = names[(i + k) % len(names)]
            if n in g["players"] and n != g["control"]:
                return n
        return None

    def _ante(self, t: Txn, caller: str | None, players: list[str]) -> list[str]:
        """Everyone listed antes 1 gold into the pot — nobody if the caller cannot."""
        if caller is not None and t.get(caller, "gold") == 0:
            t.event(_("{who} cannot ante, so nobody antes", who=caller))
            return []
        paid = []
        for name in players:
            if t.add(name, "gold", -1):
                t.add(None, "pot", 1)
                paid.append(name)
        return paid

    @action("gamble", fields=(Player("player", required=False),))
    def _gamble(self, t: Txn, a: Args) -> None:
        """"Gambling? I'm in!" as the action: everyone still in antes 1 gold; the starter is in control."""
        who = self._active(t, a, "gamble")
        self._no_round(t, "gamble")
        phase = t.state["turn"]["phase"]
        if phase not in ("discard", "action"):
            raise RuleError(_('"Gambling? I\'m in!" is an action card: {who} plays it before buying drinks, '
                              "not in the {phase} phase", who=who, phase=PHASE_WORDS[phase]))
        t.state["turn"]["phase"] = "action"  # an action card: phase 1 is over
        players = [p["name"] for p in t.in_game()]
        t.state["gambling"] = {"starter": who, "control": who, "last": "gambling", "players": players,
                               "left": [], "passed": [], "to_act": None}
        paid = self._ante(t, who, players)
        g = t.state["gambling"]
        g["to_act"] = self._next_in_round(t, who)
        pot = t.get(None, "pot")
        if paid and len(paid) < len(players):
            t.event(_("{who} starts a gambling round; pot {pot} (no ante from {unpaid})", who=who, pot=pot,
                      unpaid=listing(n for n in players if n not in paid)))
        else:
            t.event(_("{who} starts a gambling round; pot {pot}", who=who, pot=pot))

    def _round_player(self, t: Txn, a: Args, doing: str) -> tuple[dict[str, Any], str]:
        """The player to act in the round; ``doing``: "play" or "pass"."""
        g = self._round(t)
        who = a.player("player", None) or g["to_act"]
        if who in g["left"]:
            if doing == "play":
                raise RuleError(_("{who} left this gambling round and cannot play gambling or cheating cards",
                                  who=who))
            raise RuleError(_("{who} left this gambling round and cannot pass", who=who))
        if who != g["to_act"]:
            raise RuleError(_("it is {active}'s go in the gambling round, not {who}'s", active=g["to_act"], who=who))
        return g, who

    @action("play", fields=(
        Str("card", choices=CARDS),
        Bool("ante"),
        Player("player", required=False),
    ))
    def _play(self, t: Txn, a: Args) -> None:
        """Play a gambling card, a cheating card or "Winning Hand!" in the round: take control.

        "ante": true for a card that makes everyone still in the round ante
        1 more (nobody antes if the player who plays it cannot).
        """
        card = a.str("card")
        ante = a.bool("ante")
        g, who = self._round_player(t, a, "play")
        if g["last"] == "winning_hand" and card != "cheat":
            raise RuleError(_('after "Winning Hand!" only a cheating card can take control, not {card}',
                              card=CARD_WORDS[card]))
        # what the card overrode, for a card that negates it (a sword that detects lies, after a cheat)
        g["before"] = {"control": g["control"], "last": g["last"]}
        g["control"], g["last"], g["passed"] = who, card, []
        t.event(_("{who} plays {card} and takes control", who=who, card=CARD_WORDS[card]))
        if ante:
            self._ante(t, who, list(g["players"]))
        g["to_act"] = self._next_in_round(t, who)
        self._check_round_end(t)

    @action("pass", fields=(Player("player", required=False),))
    def _pass(self, t: Txn, a: Args) -> None:
        """Pass in the gambling round (you may still play later, if the round goes on)."""
        g, who = self._round_player(t, a, "pass")
        g["passed"].append(who)
        g["to_act"] = self._next_in_round(t, who)
        self._check_round_end(t)

    @action("leave", fields=(Player("player"),))
    def _leave(self, t: Txn, a: Args) -> None:
        """A player leaves the gambling round (a card lets them): no more gambling or cheating cards."""
        g = self._round(t)
        who = a.player("player")
        if who in g["left"]:
            raise RuleError(_("{who} already left this gambling round", who=who))
        self._remove_from_round(t, who)
        t.event(_("{who} leaves the gambling round", who=who))
        self._check_round_end(t)

    @action("force_out", fields=(Player("player"), Player("by", required=False, doc=_(
            "who plays the card (left out: the player to act in the round)")), Bool("negates", doc=_(
            "the card also negates the cheating card the player just played: control goes back to whoever "
            "had it before"))))
    def _force_out(self, t: Txn, a: Args) -> None:
        """A card forces a player out of the round; if one player remains, they win it.

        "by": who plays the card, also out of turn (a card played when another player cheats).
        "negates": the card negates the cheating card ``player`` just played (every rulebook reader's
        «¡Mi espada sagrada detecta mentiras!»): control and the card to beat are again what they were
        before it, and the others answer that again (the readers' tables passed again) — without that
        player."""
        g = self._round(t)
        who = a.player("player")
        self._card_player(t, a, who)
        if who in g["left"]:
            raise RuleError(_("{who} already left this gambling round", who=who))
        negates = a.bool("negates")
        if negates:
            before = g.get("before")
            if g["last"] != "cheat" or g["control"] != who or before is None:
                raise RuleError(_("only the cheating card just played can be negated, and {who} did not just "
                                  "play one", who=who))
            back = before["control"] if before["control"] in g["players"] else None
            g["control"], g["last"], g["passed"] = back, before["last"], []
            g["before"] = None
            if back is not None:
                t.event(_("{who}'s cheating card is negated: {back} is in control again", who=who, back=back))
            else:
                t.event(_("{who}'s cheating card is negated", who=who))
        self._remove_from_round(t, who)
        if negates:  # the go passes on from the cheater, past the player in control again
            g["to_act"] = self._next_in_round(t, who)
        t.event(_("{who} is forced out of the gambling round", who=who))
        if len(g["players"]) == 1:
            self._end_round(t, g["players"][0], why=_("the last player in the round"))
        else:
            self._check_round_end(t)

    @staticmethod
    def _card_player(t: Txn, a: Args, target: str | None) -> None:
        """The player named as playing the card ("by"), if any: in the game, and not the card's target."""
        by = a.player("by", None)
        if by is None:
            return
        if t.player(by)["out"]:
            raise RuleError(_("{who} is out of the game", who=by))
        if by == target:
            raise RuleError(_("{who} does not play this card against themselves", who=by))

    @action("end_round", fields=(Raw("winner"), Player("by", required=False, doc=_(
            "who plays the card that ends the round (left out: nobody in particular)")),
            Bool("inn", doc=_("the pot goes to the Inn: the round ends with no winner (as a null winner)"))))
    def _end_round_action(self, t: Txn, a: Args) -> None:
        """End the round now (a card says so): the pot to "winner" (default: the player in control), null = the Inn.

        "inn": the pot to the Inn, as a null "winner" (a switch a pod's menu can ask)."""
        g = self._round(t)
        self._card_player(t, a, None)
        if a.bool("inn"):
            if a.raw("winner", None) is not None:
                raise RuleError(_("end_round: the pot goes either to a winner or to the Inn, not both"))
            winner = None
        elif a.has("winner"):
            winner = a.raw("winner")
            if winner is not None:
                if not isinstance(winner, str):
                    raise RuleError(_("end_round: 'winner' must be a player's name or null, not {winner!r}",
                                      winner=winner))
                if t.player(winner)["out"]:
                    raise RuleError(_("{who} is out of the game", who=winner))
                if winner in g["left"]:
                    # «no podrá jugar cartas de juego o trampas durante el resto de esa ronda»
                    raise RuleError(_("{who} left this gambling round and cannot win its pot", who=winner))
        else:
            winner = g["control"]
        self._end_round(t, winner, why=_("a card ended the round"))

    @action("pay_pot", adjustment=True, fields=(Player("player"), Int("amount", lo=1)))
    def _pay_pot(self, t: Txn, a: Args) -> None:
        """A player puts gold into the pot (a card says so); only as much as they have."""
        self._round(t)
        who = a.player("player")
        amount = a.int("amount")
        paid = -t.add(who, "gold", -amount)
        t.add(None, "pot", paid)

    def _close_round(self, t: Txn, still: list[str]) -> None:
        """The game ends during a gambling round: the last one standing, if still in the round, wins it
        (like the last player left in it after a force-out); otherwise nobody is in control and the
        pot goes to the Inn."""
        g = t.state["gambling"]
        winner = still[0] if len(still) == 1 and still[0] in g["players"] else None
        pot = t.get(None, "pot")
        t.add(None, "pot", -pot)
        if winner is not None:
            t.add(winner, "gold", pot)
            t.event(_("{winner} wins the gambling round (the last one standing) and takes the pot: {pot} gold",
                      winner=winner, pot=pot))
        else:
            t.add(None, "inn", pot)
            t.event(_("the gambling round ends with the game: the pot ({pot} gold) goes to the Inn", pot=pot))
        t.state["gambling"] = None

    def _remove_from_round(self, t: Txn, name: str) -> None:
        g = t.state["gambling"]
        g["players"].remove(name)
        if not t.player(name)["out"]:
            g["left"].append(name)
        if name in g["passed"]:
            g["passed"].remove(name)
        if g["control"] == name:
            g["control"] = None
            t.event(_("nobody is in control of the gambling round now"))
        if g["to_act"] == name or g["to_act"] not in g["players"]:
            g["to_act"] = self._next_in_round(t, name)

    def _check_round_end(self, t: Txn) -> None:
        """The round ends when everyone still in it, but the player in control, has passed since the last play."""
        g = t.state["gambling"]
        waiting = [n for n in g["players"] if n != g["control"] and n not in g["passed"]]
        if not waiting:
            self._end_round(t, g["control"], why=_("everybody else passed"))

    def _end_round(self, t: Txn, winner: str | None, *, why: str) -> None:
        pot = t.get(None, "pot")
        t.add(None, "pot", -pot)
        if winner is not None:
            t.add(winner, "gold", pot)
            t.event(_("{winner} wins the gambling round ({why}) and takes the pot: {pot} gold", winner=winner, why=why,
                      pot=pot))
        else:
            t.add(None, "inn", pot)
            t.event(_("the gambling round ends with nobody in control: the pot ({pot} gold) goes to the Inn", pot=pot))
        t.state["gambling"] = None
        turn = t.state["turn"]
        if t.player(turn["player"])["out"]:
            self._start_next_turn(t)
        else:
            turn["phase"] = "buy"
