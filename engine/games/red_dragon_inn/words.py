"""The Red Dragon Inn in words: phases, cards and losses in sentences, the history, who starts."""
from __future__ import annotations

from typing import Any

from ...game import Game
from ...messages import N_, Msg, _, listing, word
from .drinks import DRINK_WORDS

#: The phases in sentences ("now is buy drinks"); a pod shows the bare phase (``word("phase", ...)``).
PHASE_WORDS = {"discard": _("discard & draw"), "action": _("action"), "buy": _("buy drinks"), "drink": _("drink")}
CARD_WORDS = {"gambling": _("a gambling card"), "cheat": _("a cheating card"), "winning_hand": _('"Winning Hand!"')}
#: A pending loss's reason (rules.py's PASSING_OUT, OUT_OF_GOLD) in words.
LOSS_WORDS = {"passing out": _("passing out"), "out of gold": _("out of gold")}
#: A drink event's kind (rules.py's DRINK_EVENTS) in words.
EVENT_WORDS = {"round": _("everyone drinks"), "contest": _("drinking contest")}


def _effect(counter: str, delta: int) -> Msg:
    """One effect of a drink: "alcohol +2"."""
    return _("{counter} {delta:+d}", counter=word("counter", counter), delta=delta)


class RedDragonInnWords(Game):
    """The game's sentences: the history, who starts."""

    @classmethod
    def starter_hint(cls, options: dict[str, Any]) -> Msg | None:
        return _("The thirstiest adventurer starts")

    def words(self, state: dict[str, Any], action: dict[str, Any]) -> str:
        """As :meth:`Game.words`; the end of a last chance says who passes out: the others' pods read
        "Ben passes out: gold +2" for their share (a play-tester's read "resolve: gold +2")."""
        pending = [e["name"] for e in state.get("pending") or () if isinstance(e, dict) and "name" in e]
        if action.get("action") == "resolve" and pending:
            return N_("{names} passes out", "{names} pass out", len(pending), names=listing(pending))
        return super().words(state, action)

    def describe(self, action: dict[str, Any]) -> str:
        name = action.get("action")
        who = action.get("player", "")
        if name == "buy":
            n = action.get("count", 1)
            buyer, to = who or _("the active player"), action.get("to")
            if action.get("extra"):
                return N_("{buyer} buys {to} {n} drink (extra)", "{buyer} buys {to} {n} drinks (extra)", n,
                          buyer=buyer, to=to)
            return N_("{buyer} buys {to} {n} drink", "{buyer} buys {to} {n} drinks", n, buyer=buyer, to=to)
        if name == "drink":
            return self._describe_drink(action, who or _("the active player"))
        if name == "next":
            if action.get("skip"):
                return _("{who}: next phase (skipped)", who=who or _("the active player"))
            return _("{who}: next phase", who=who or _("the active player"))
        if name == "gamble":
            return _("{who}: Gambling? I'm in!", who=who or _("the active player"))
        if name == "play":
            card = action.get("card")
            return _("{who} plays {card}", who=who or _("the next player"), card=CARD_WORDS.get(card, card) if isinstance(card, str) else card)
        if name == "pass":
            return _("{who} passes", who=who or _("the next player"))
        if name == "leave":
            return _("{who} leaves the gambling round", who=who)
        if name == "force_out":
            if action.get("negates"):
                return _("{who}'s cheat is negated and {who} is forced out of the gambling round", who=who)
            return _("{who} is forced out of the gambling round", who=who)
        if name == "end_round":
            # "inn": the pot to the Inn, as a null winner (a tester's undo said "pot to the player in control")
            w = None if action.get("inn") else action.get("winner", _("the player in control"))
            return _("the gambling round ends: pot to {winner}", winner=w or _("the Inn"))
        if name == "pay_pot":
            return _("{who} pays {amount} gold into the pot", who=who, amount=action.get("amount"))
        if name == "everyone":
            return self._describe_everyone(action)
        if name == "drink_piles":
            return _("drink deck counted: {deck} in the deck, {discard} discarded", deck=action.get("deck"),
                     discard=action.get("discard"))
        return super().describe(action)

    @staticmethod
    def _describe_everyone(action: dict[str, Any]) -> str:
        """A table-wide effect: "everyone: gold −1 (to Ana)"."""
        counter = word("counter", str(action.get("counter")))
        delta = action.get("delta", 0)
        who = action.get("player") or _("the active player")
        if action.get("side") == "player":
            if isinstance(delta, int) and delta < 0:
                return _("each other player pays {who} {n} {counter}", who=who, n=-delta, counter=counter)
            return _("{who} pays each other player {n} {counter}", who=who, n=delta, counter=counter)
        if action.get("others"):
            return _("every player but {who}: {counter} {delta}", who=who, counter=counter, delta=delta)
        return _("every player still in: {counter} {delta}", counter=counter, delta=delta)

    @staticmethod
    def _describe_drink(action: dict[str, Any], who: str) -> str:
        """A drink in the history: where from, its chasers and its effects, one template per shape."""
        parts: list[Any] = [DRINK_WORDS[d] for d in (action.get("drink"), action.get("chaser"),
                                                     action.get("second_chaser"))
                            if isinstance(d, str) and d in DRINK_WORDS]
        parts += [_effect(k, action[k]) for k in ("alcohol", "fortitude", "gold")
                  if isinstance(action.get(k), int) and action.get(k)]
        effects = listing(parts)
        ch = action.get("chasers", 0)
        if action.get("chaser") in DRINK_WORDS and not ch:
            ch = 2 if action.get("second_chaser") in DRINK_WORDS else 1
        if action.get("from") == "deck":
            if ch and parts:
                return N_("{who} drinks from the deck with {n} chaser: {effects}",
                          "{who} drinks from the deck with {n} chasers: {effects}", ch, who=who, effects=effects)
            if ch:
                return N_("{who} drinks from the deck with {n} chaser", "{who} drinks from the deck with {n} chasers",
                          ch, who=who)
            if parts:
                return _("{who} drinks from the deck: {effects}", who=who, effects=effects)
            return _("{who} drinks from the deck", who=who)
        if ch and parts:
            return N_("{who} drinks with {n} chaser: {effects}", "{who} drinks with {n} chasers: {effects}", ch,
                      who=who, effects=effects)
        if ch:
            return N_("{who} drinks with {n} chaser", "{who} drinks with {n} chasers", ch, who=who)
        if parts:
            return _("{who} drinks: {effects}", who=who, effects=effects)
        return _("{who} drinks", who=who)
