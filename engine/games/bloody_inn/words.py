"""The Bloody Inn in words: its history sentences, its refusals of an action out of phase, its word
helpers (cards, peasants, checks, annexes) and who starts."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...errors import RuleError
from ...messages import N_, Msg, _, listing, word
from ...state import Txn
from .annexes import ANNEX_NAMES
from .base import BloodyInnBase

COUNT_REASON = _("final count: record end-of-game annex gains with adjust, then resolve")


def _cards(n: int) -> Msg:
    return N_("{n} card", "{n} cards", n)


def _peasants(n: int) -> Msg:
    return N_("{n} peasant", "{n} peasants", n)


def _travellers(n: int) -> Msg:
    return N_("{n} traveller", "{n} travellers", n)


def _checks(n: int) -> Msg:
    return N_("{n} check", "{n} checks", n)


def _unburied(n: int) -> Msg:
    return N_("{n} unburied corpse", "{n} unburied corpses", n)


def power_words(effect: str, amount: int | None) -> Msg:
    """An annex's power in words, as the device applies it."""
    n = amount or 0
    if effect == "morning_bonus":
        return _("+{amount}F at every departure", amount=n)
    if effect == "per_annex_bonus":
        return _("+{amount}F at every departure for each other annex", amount=n)
    if effect == "wages_waived":
        return N_("{n} wage waived every morning", "{n} wages waived every morning", n)
    if effect == "bury_here_discount":
        return N_("a burial under it costs whoever buries there {n} card fewer",
                  "a burial under it costs whoever buries there {n} cards fewer", n)
    if effect.endswith("_discount"):
        return N_("a {action} costs {n} card fewer", "a {action} costs {n} cards fewer", n,
                  action=word("action", effect[:-len("_discount")]))
    if effect == "extra_kill":
        return _("several travellers killed in one action (an extra kill each)")
    if effect == "extra_action":
        return _("an extra action")
    if effect == "gain_now":
        return _("+{amount}F now", amount=n)
    if effect == "gain_checks":
        return N_("+{n} check now", "+{n} checks now", n)
    if effect == "end_game":
        return _("a gain at the final count (reminded)")
    if effect == "open_room":
        return _("opens a closed room with its builder's key")
    if effect == "other":
        return _("a power the device reminds of every morning")
    return _("no power the device applies")


def annex_number(name: str) -> int | None:
    """The number of an annex known only by it (the default name "annex 2"), else None."""
    number = name[len("annex "):] if name.startswith("annex ") else ""
    return int(number) if number.isdigit() and str(int(number)) == number else None


def annex_word(name: str) -> Msg:
    """An annex's name as a game word: the barn, a card's name, or the default "annex 2"."""
    number = annex_number(name)
    if number is not None:
        return _("annex {number}", number=number)
    return word("annex", name)


#: A name a table gave its own annex longer than this is shortened on a pod's offer (the offer bar's two
#: lines hold "bury: Ana's" and about this much more, in either language).
SHORT_NAME = 12


def short_name(name: str, names: Iterable[str]) -> str:
    """A long name a script gave an annex, as few of its first words as tell it apart from the table's
    other annexes ("Dormitorio de servicio" → "Dormitorio"; beside a "Dormitorio real", the whole name):
    an offer then shows the part that tells it apart, not the start of a name cut off. A short name, a
    card list's name (a word of the game's catalog: «Huerto») and the default "annex 2" stay whole."""
    words = name.split()
    if len(name) <= SHORT_NAME or len(words) < 2 or name in ANNEX_NAMES:
        return name
    others = [n for n in names if n != name]
    for k in range(1, len(words)):
        head = " ".join(words[:k])
        if not any(n == head or n.startswith(head + " ") for n in others):
            return head
    return name


def _rooms_list(numbers: Iterable[int]) -> Msg:
    return listing(str(n) for n in numbers)


class BloodyInnWords(BloodyInnBase):
    """The game's sentences: the history, who starts."""

    @classmethod
    def starter_hint(cls, options: dict[str, Any]) -> Msg | None:
        return _("The greediest player takes the first-player card")

    def _phase_refusal(self, t: Txn, wanted: str) -> RuleError:
        st = t.state
        phase = st["phase"]
        first = st["first_player"]
        if phase == "welcome":
            return RuleError(_("the travellers have not been welcomed yet: {first} (first player) welcomes them first",
                               first=first))
        if phase == "night":
            turn = st["turn"]
            if wanted == "welcome":
                if all(r["guest"] for r in self._rooms(t)):
                    return RuleError(_("rooms are all taken: the travellers are welcomed; the night has begun"))
                return RuleError(_("travellers are welcomed only at the start of a round; the night has begun"))
            return RuleError(_("the night is not over: it is {player}'s turn (action {action})", player=turn["player"],
                               action=turn["action"]))
        if phase == "morning":
            return RuleError(_("every player has taken both actions: the morning comes next (action morning)"))
        if phase == "count":
            return RuleError(_("the last round is over: record end-of-game gains with adjust, "
                               "then resolve for the final count"))
        return RuleError(_("the game is over"))

    def describe(self, action: dict[str, Any]) -> str:
        name = action.get("action")
        who = action.get("player")
        if name == "adjust" and action.get("cause"):
            return _("{who}: {counter} {delta:+d} ({cause})", who=who or _("table"),
                     counter=word("counter", str(action.get("counter"))), delta=action.get("delta", 0),
                     cause=action["cause"])
        if name == "welcome":
            if "room" in action:
                if action.get("police"):
                    return _("welcome a traveller into room {room} (police)", room=action["room"])
                return _("welcome a traveller into room {room}", room=action["room"])
            police = action.get("police_rooms") or []
            if police:
                return _("welcome the travellers (police in {rooms})", rooms=_rooms_list(police))
            return _("welcome the travellers")
        actor = who or _("the active player")
        if name in ("bribe", "kill"):
            if "room" in action:
                if name == "bribe":
                    return _("{who} bribes the rank-{rank} guest of room {room}", who=actor, rank=action.get("rank"),
                             room=action["room"])
                return _("{who} kills the rank-{rank} guest of room {room}", who=actor, rank=action.get("rank"),
                         room=action["room"])
            if name == "bribe":
                return _("{who} bribes peasants in the bistro", who=actor)
            return _("{who} kills peasants in the bistro", who=actor)
        if name == "build":
            annex = annex_word(action["name"]) if isinstance(action.get("name"), str) else \
                action["name"] if "name" in action else _("an annex")
            return _("{who} builds {annex} (rank {rank})", who=actor, annex=annex, rank=action.get("rank"))
        if name == "bury":
            owner = action.get("owner")
            corpse = action.get("corpse", 1)
            annex = action.get("annex", "")
            if owner and owner != who:
                if str(annex):
                    return _("{who} buries corpse {corpse} under {owner}'s annex {annex}", who=actor, corpse=corpse,
                             owner=owner, annex=annex)
                return _("{who} buries corpse {corpse} under {owner}'s annex", who=actor, corpse=corpse, owner=owner)
            if str(annex):
                return _("{who} buries corpse {corpse} under their annex {annex}", who=actor, corpse=corpse,
                         annex=annex)
            return _("{who} buries corpse {corpse} under their annex", who=actor, corpse=corpse)
        if name == "pass":
            n = action.get("checks", 0)
            if isinstance(n, int) and n > 0:
                return N_("{who} passes and buys {n} check", "{who} passes and buys {n} checks", n, who=actor)
            if isinstance(n, int) and n < 0:
                return N_("{who} passes and cashes {n} check", "{who} passes and cashes {n} checks", -n, who=actor)
            return _("{who} passes", who=actor)
        if name == "morning":
            return _("the morning: police, departure, wages")
        if name == "resolve":
            return _("the final count")
        return super().describe(action)
