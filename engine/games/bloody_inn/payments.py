"""The Bloody Inn's ways to pay a card action with the hand («Juegue en la mesa tantas cartas de Invitado de su
mano como el rango del Viajero»), and the words a pod and the touchscreen say them in."""
from __future__ import annotations

from typing import Any

from ...messages import N_, Msg, _, listing, word
from .annexes import discount
from .words import _peasants


def _back(n: int) -> Msg:
    return N_("{n} back to hand", "{n} back to hand", n)


def _lost(n: int) -> Msg:
    return N_("{n} lost", "{n} lost", n)


def builder(p: dict[str, Any]) -> bool:
    """Whether the hand holds a traveller who may become an annex (not a peasant, not police)."""
    travellers: int = p["hand"] - p["peasants"]
    police: int = p.get("police", 0)
    return travellers - min(police, travellers) > 0


def ways_to_pay(p: dict[str, Any], rank: int, action: str, here: dict[str, Any] | None = None
                ) -> list[tuple[dict[str, Any], str]]:
    """Each way the hand can pay a rank-``rank`` card action, the usual first: the cards played
    (the rank less the discounts) split into peasants (to the bistro), travellers back to hand
    (the aptitude) and travellers lost («recuperas todas las cartas que hayas jugado que tengan
    aptitud …; pierde las otras cartas»). The usual way spends peasants first, the most the
    hand holds, and a traveller played besides is lost (what the rules say of a card without
    the action's aptitude, and the engine's default: kept 0) — for a bribe, back to hand. A police officer
    comes back like any traveller with the icon; a build's annex is a traveller of its own. Each way is the action's
    ``peasants`` and ``kept`` (none when the hand pays one way only: the engine fills them) and
    its cards in a few signs: "p" a peasant, "↩" a traveller back, "×" one lost. ``here``: the annex a
    burial goes under (its own power may make it cheaper for whoever buries there)."""
    peasants = p["peasants"]
    travellers = p["hand"] - peasants - (1 if action == "build" else 0)
    free = travellers  # travellers who may come back (police too: an aptitude icon of their own)
    played = max(0, rank - discount(p, action, here))  # the engine's default (the menu's entry says fewer)
    if played > peasants + travellers:
        return []
    if played == 0:
        return [({}, "")]
    ways: list[tuple[dict[str, Any], str]] = []
    for np in range(min(played, peasants), max(0, played - travellers) - 1, -1):
        backs = range(0, min(played - np, max(free, 0)) + 1)
        # a bribe's travellers most often come back (the rulebook stories: 16 bribes paid with travellers all back,
        # 3 with them lost; a play-tester's "bribe 1: ↩" was 13th of 15): the bribe's usual way keeps them
        for back in reversed(backs) if action == "bribe" else backs:
            cards = "p" * np + "↩" * back + "×" * (played - np - back)
            ways.append(({"peasants": np, "kept": back}, cards))
    if len(ways) == 1:
        return [({}, ways[0][1])]
    return ways


def corpse_words(corpse: dict[str, Any]) -> Msg:
    """A corpse as a player tells it apart: "rank 2, 18F"."""
    return _("rank {rank}, {money}F", rank=corpse["rank"], money=corpse["money"])


def way_signs(cards: str) -> Msg:
    """A way to pay in its signs, the peasant's letter in the table's language ("p↩", "c↩")."""
    return listing([word("card", "p") if c == "p" else c for c in cards], "")


def way_words(cards: str) -> Msg:
    """A way to pay in words, for the touchscreen: "1 peasant, 1 back to hand"."""
    parts: list[Msg] = []
    for sign, say in (("p", _peasants), ("↩", _back), ("×", _lost)):
        if cards.count(sign):
            parts.append(say(cards.count(sign)))
    return listing(parts) if parts else _("no card")


def way_label(verb: str, rank: int, cards: str | None) -> Msg:
    """"kill a rank-2 guest" when the hand pays one way; "kill 2: p↩" (a peasant, a traveller back)
    when it could pay several: short enough for the pod's bar to show every sign."""
    if cards is None:
        return {"kill": _("kill a rank-{rank} guest", rank=rank), "bribe": _("bribe a rank-{rank} guest", rank=rank),
                "build": _("build a rank-{rank} annex", rank=rank)}[verb]
    signs = way_signs(cards)
    return {"kill": _("kill {rank}: {cards}", rank=rank, cards=signs),
            "bribe": _("bribe {rank}: {cards}", rank=rank, cards=signs),
            "build": _("build {rank}: {cards}", rank=rank, cards=signs)}[verb]


def likely_room(state: dict[str, Any], name: str) -> int:
    """Where a kill's or a bribe's room starts: the guest in your own room (the one tables take
    most: the rulebook stories' players killed or bribed there in about half their card actions),
    then the first guest who is not police, else the first guest."""
    rooms = [r for r in state["inn"]["rooms"] if r["guest"]]
    own = [r for r in rooms if not r["police"] and r["key"] == name]
    good = [r for r in rooms if not r["police"]]
    return int((own or good or rooms)[0]["room"])
