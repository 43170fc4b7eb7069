"""What The Bloody Inn offers on each seat's pod: the welcome, the night's actions by kind (burials, kills and
bribes per rank, the bank, the builds), the extra kills and the one more action an annex grants, the morning."""
from __future__ import annotations

from typing import Any

from ...game import Game, Offer, offer
from ...messages import N_, Msg, _, word
from . import payments
from .annexes import (
    discount,
    grants_extra,
    here_discount,
    night_end_extra,
    powers,
    unknown_power,
)
from .rules import CASH_MAX, CHECK, MAX_RANK
from .table import seat_order
from .words import annex_number, annex_word, short_name

#: The ranks a verb's usual ways come in, the likeliest first, where that is not the rank's own order: the
#: rulebook stories' bribes of a room's guest were of rank 1 33 times, rank 2 19, rank 0 6, rank 3 once (a play-tester's
#: select landed on "bribe a rank-0 guest" and went down to rank 1 or 2 every time); their kills 19, 21, 8 and 1,
#: in the rank's order.
RANKS_BY_LIKELIHOOD: dict[str, tuple[int, ...]] = {"bribe": (1, 2, 0, 3)}


def _filled(annex: dict[str, Any], names: list[str]) -> Msg:
    """One's own annex where a burial offer names it: by its name, and one known only by its number with its
    corpses and its room ("annex 1 1/2"): a play-tester's story buried under «its Notaría (now 2/2)», and "bury: annex 1"
    and "bury: annex 2" did not say which of the two it was, nor which had room for one more."""
    shown = annex_word(short_name(annex["name"], names))
    if annex_number(annex["name"]) is not None:
        return _("{annex} {buried}/{room}", annex=shown, buried=len(annex["buried"]), room=annex["rank"])
    return shown


class BloodyInnOffers(Game):
    """The pods' offers (``seat_actions``) and what they are made of: the costs, pockets and ways to pay."""

    @staticmethod
    def room_word(room: dict[str, Any], rooms: list[dict[str, Any]]) -> Msg:
        """A room as the board shows it, by its key: "Ben's"; the neutral keys' rooms counted apart, "neutral
        1" to "neutral 4", in the inn's order (the stories' "N1" or "white-key room 1"); a player's rooms with
        their numbers once an annex opened a second one ("Cai's 3", "Cai's 9": a play-tester's step said "Cai's" and
        he could not tell which of the two it was)."""
        if room["key"] is not None:
            if any(r["key"] == room["key"] and r.get("opened") for r in rooms):
                return _("{name}'s {room}", name=room["key"], room=room["room"])
            return _("{name}'s", name=room["key"])
        neutral = [r["room"] for r in rooms if r["key"] is None]
        return _("neutral {room}", room=neutral.index(room["room"]) + 1)

    @staticmethod
    def _cost(p: dict[str, Any], rank: int | None, action: str, here: dict[str, Any] | None = None, *,
              played: int | None = None, peasants: int | None = None) -> tuple[dict[str, Any], list[str]]:
        """What the device can put in the cost of a card action and what only the player knows.

        For a known ``rank``: the cards played are the rank less the discounts (or ``played``, entered); the
        peasants among them start at the most the hand allows (peasants are the cards a table plays first, and
        they never come back), asked only when the hand leaves a choice; "kept" (travellers with the aptitude,
        back to hand — a police officer too) is asked only when a traveller is played besides the peasants (or
        ``peasants``, entered). Without a rank (corpses that differ) every choice the hand may leave is asked.
        ``here``: the annex a burial goes under."""
        in_hand = p["peasants"]
        travellers = p["hand"] - in_hand - (1 if action == "build" else 0)
        if rank is None:
            ask = ["peasants"] if in_hand and travellers else []
            return {}, ask + (["kept"] if travellers else [])
        if played is None:
            played = max(0, rank - (here_discount(here) if unknown_power(p) else discount(p, action, here)))
        if played == 0:
            return {}, []
        most = min(played, in_hand)
        least = max(0, played - travellers)
        given: dict[str, Any] = {}
        ask = []
        if least < most:
            given["peasants"] = most
            ask.append("peasants")
        if min(played - (most if peasants is None else peasants), travellers) > 0:
            ask.append("kept")
        return given, ask

    def _cost_asks(self, p: dict[str, Any], rank: int | None, action: str) -> list[str]:
        return self._cost(p, rank, action)[1]

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        if state["over"]:
            return []
        phase = state["phase"]
        if phase == "welcome" and state["first_player"] == name:
            return self._welcomes(state)
        p = next(p for p in state["players"] if p["name"] == name)
        # the night's last action killed: its extra kill «en la misma acción» first, the morning after it; or its
        # player owns an annex that grants one more action: that one
        extra = self._extra_kills(state, p) if phase == "morning" else []
        if phase == "morning":
            extra += self._one_more(state, p, kills=not extra)
        if phase == "morning" and state["first_player"] == name and not self._killing_on(state):
            return extra + self._mornings(state)
        if phase == "morning" and not p["out"]:
            # the morning is the table's, not a player's (two rulebook readers told it on another pod than
            # the first player's): on the others' pods behind a preview, so that a stray main does nothing
            return extra + [{**offer, "confirm": True} for offer in self._mornings(state)]
        if phase == "count":
            return [{"label": word("label", "final count"), "action": {"action": "resolve"}}]
        if phase != "night":
            return []
        if state["turn"]["player"] != name:
            kills = self._extra_kills(state, p)
            return kills + self._one_more(state, p, kills=not kills)
        return self._night(state, p)

    def _one_more(self, state: dict[str, Any], p: dict[str, Any], *, kills: bool) -> list[Offer]:
        """Right after their own action, for the owner of an annex whose power grants one more action
        (``extra_action``, a table's own: two rulebook readers' «Cuadra», «justo después de tu segunda acción,
        haces una tercera»), until the next player acts, or at the night's end (every action done, before the
        morning) for an owner who took none this night: that action, once — a bribe of a guest (room and rank
        asked), a kill per rank paid the usual way (the room asked) and one with every choice asked, a build with
        every choice asked, each burial,
        peasants from the bistro, and no kill when the extra kills are offered already (``kills``). Those that ask nothing are shown before they are done: the pod is idle
        while the next player acts, and a stray main must not bribe."""
        turn = state["turn"]
        name = p["name"]
        right_after = turn.get("last") == name and turn.get("extra_by") != name
        # or at the night's end, for an owner who took none this night (an eighth rulebook reader's «Capilla»: not
        # possible on the pods, the engine refused it after another's action)
        if not powers(p, "extra_action") or not (right_after or night_end_extra(state, name)):
            return []
        out: list[Offer] = []
        rooms = [r for r in state["inn"]["rooms"] if r["guest"]]
        if rooms:
            first = {"player": name, "room": payments.likely_room(state, name), "extra": True}
            out.append({**offer(_("+{offer}", offer=word("label", "bribe a guest")), {"action": "bribe", **first},
                                ask=["room", "rank"] + self._cost_asks(p, None, "bribe")), "group": "+"})
            if kills:
                # a kill per rank paid the usual way, its pocket from the rank's (a play-tester's `+kill a guest…`
                # started the pocket at the rank-0's after he had entered rank 2), then every choice asked
                out += [{**kill, "group": "+"} for kill in self._extra_kill_per_rank(state, p, first["room"])]
                out.append({**offer(_("+{offer}", offer=word("label", "kill a guest")), {"action": "kill", **first},
                                    ask=["room", "rank"] + self._cost_asks(p, None, "kill") + self._pocket_ask()),
                            "group": "+"})
        if p["hand"] - p["peasants"] > 0:  # an annex built from a traveller in hand, everything asked (an eighth rulebook
            # reader's «Capilla» gave a build: no line had it, not possible on the pods)
            out.append({**offer(_("+{offer}", offer=word("label", "build an annex")),
                                {"action": "build", "player": name, "extra": True},
                                ask=["rank", "card", "effect", "amount"] + self._cost_asks(p, None, "build")),
                        "group": "+"})
        for burial in self._burials(state, p):
            out.append({**burial, "label": _("+{offer}", offer=burial["label"]),
                        "action": {**burial["action"], "extra": True}, "confirm": not burial.get("ask"),
                        "group": "+"})
        bistro = state["inn"]["bistro"]
        out += [{"label": _("+{offer}", offer=word("label", "bribe: 2 peasants") if n == 2
                            else word("label", "bribe: 1 peasant")),
                 "action": {"action": "bribe", "player": name, "bistro": n, "extra": True}, "confirm": True,
                 "group": "+"} for n in (2, 1) if bistro >= n]
        return out

    def _killing_on(self, state: dict[str, Any]) -> str | None:
        """In the morning, the player whose kill ended the night and who may still kill again in the same
        action (their pod offers it): the morning waits for them; else None."""
        killer = state["turn"].get("killer") if state["phase"] == "morning" else None
        if killer is None:
            return None
        p = next(p for p in state["players"] if p["name"] == killer)
        return killer if self._extra_kills(state, p) else None

    def _extra_kills(self, state: dict[str, Any], p: dict[str, Any]) -> list[Offer]:
        """Right after their own action when it killed (``turn["killer"]``), for the owner of an annex
        that kills several travellers in one action (the butcher's shop): another kill in a room, per
        rank paid the usual way, asking the room only. At no other moment (after a burial or a bribe,
        during another player's action): a stray press on an idle pod must not kill a guest."""
        rooms = [r for r in state["inn"]["rooms"] if r["guest"]]
        if not p["corpses"] or state["turn"].get("killer") != p["name"]:  # not a kill, or another's
            return []
        # After the extra kill, only the butcher's shop kills again (several in one action); a power of
        # the table's own that grants one more action has granted it (a stray press on its owner's idle
        # pod while the next player acts killed a third time).
        again = bool(state["turn"].get("killed_again"))
        if again and not powers(p, "extra_kill"):
            return []
        # an annex whose power the device was not told may be the table's own butcher's shop (a free second
        # kill): its owner says the kill and what it cost, as the engine allows (a reader's table, the one
        # event of fifteen stories the pods could not enter)
        # (also beside a power that grants one more action: a ninth reader's «Carnicería», its power not told, killed
        # for free right after its owner's kills, whose «Cochera» granted one more action)
        unknown = unknown_power(p) and not powers(p, "extra_kill")
        out: list[Offer] = []
        bistro: list[Offer] = []
        if state["inn"]["bistro"] and (grants_extra(p, "kill", in_room=False) or unknown) and not again:
            # a table's own power that grants another action (not the butcher's shop, rooms only): a
            # peasant in the bistro, as the night's own offer
            # a power the device does not know: shown before it is done (a stray main kills nobody)
            bistro.append(offer(word("label", "+kill: bistro"),
                                {"action": "kill", "player": p["name"], "bistro": True, "extra": True,
                                 **self._pocket("kill", 0, state, bistro=True)}, ask=list(self._pocket("kill", 0, state, bistro=True)), confirm=unknown))
        if not rooms or not (grants_extra(p, "kill", in_room=True) or unknown):
            return bistro
        start = payments.likely_room(state, p["name"])
        if unknown:
            for rank in range(MAX_RANK + 1):  # its price may be less: the cards played are asked
                out.append({"label": _("+kill, rank {rank}", rank=rank),
                            "ask": ["room", "played"] + list(self._pocket("kill", rank, state)),
                            "action": {"action": "kill", "player": p["name"], "room": start, "rank": rank,
                                       "extra": True, "played": min(rank, p["hand"]), **self._pocket("kill", rank, state)}})
            # the rooms' kills first, where a play-tester looked for them (his butcher's shop, its power not told,
            # offered the bistro first); where both are offered the rulebook stories' extra kills were in a room 3
            # times, in the bistro 3
            return out + bistro
        return out + self._extra_kill_per_rank(state, p, start) + bistro

    def _extra_kill_per_rank(self, state: dict[str, Any], p: dict[str, Any], room: int) -> list[Offer]:
        """An extra kill per rank the hand can pay, the usual way: the room asked (from ``room``), and with
        ``ask_pocket`` the pocket from the rank's."""
        out: list[Offer] = []
        for rank in range(MAX_RANK + 1):
            ways = self.ways_to_pay(p, rank, "kill")
            if ways:
                out.append({"label": _("+kill, rank {rank}", rank=rank), "ask": ["room"] + list(self._pocket("kill", rank, state)),
                            "action": {"action": "kill", "player": p["name"], "room": room, "rank": rank,
                                       "extra": True, **ways[0][0], **self._pocket("kill", rank, state)}})
        return out

    @staticmethod
    def _welcomes(state: dict[str, Any]) -> list[Offer]:
        """The whole welcome; the same with the police officer in one room (one offer per room, the
        usual welcome: «Coloque al viajero en una habitación abierta»); with several officers; one
        traveller into one room (for a table that follows the order card by card). When the second
        season's last travellers cannot fill every empty room, first the rooms they go to."""
        inn = state["inn"]
        rooms = [r for r in inn["rooms"] if not r["guest"]]
        empty = [r["room"] for r in rooms]
        out: list[Offer] = [{"label": word("label", "welcome"), "action": {"action": "welcome"}}]
        short = state["table"]["season"] == 2 and 0 < inn["entrance"] < len(empty)
        if short:
            # The last travellers cannot fill every room: which rooms get them is the first player's
            # choice — a player's own room and the neutral ones (no player's key) first, the first
            # player's own first; or the neutral ones only. (The whole welcome fills in room order.)
            neutral = [r["room"] for r in rooms if r["key"] is None]
            keys: dict[str, list[int]] = {}
            for r in rooms:
                if r["key"] is not None:
                    keys.setdefault(r["key"], []).append(r["room"])
            seen = {frozenset(empty[:inn["entrance"]])}  # the rooms that get a traveller: each way once
            ways = [(_("welcome: {name} + neutral rooms", name=who), keys[who] + neutral)
                    for who in seat_order(state) if who in keys]
            ways.append((word("label", "welcome: neutral rooms first"), neutral))
            for label, first in ways:
                filled = frozenset((first + [n for n in empty if n not in first])[:inn["entrance"]])
                if first and filled not in seen:
                    seen.add(filled)
                    out.append({"label": label, "action": {"action": "welcome", "first": first}})
        # each room by its number and its key, as the board shows it (a play-tester had to work out which
        # number the story's "white-key room 3" was)
        out += [{"label": _("welcome: police, {where}", where=BloodyInnOffers.room_word(r, inn["rooms"])),
                 "action": {"action": "welcome", "police_rooms": [r["room"]]}} for r in rooms]
        # two officers or more (one has its own offers, above): main adds the room shown and goes on to the next
        # empty room until two are in the list (a play-tester's main on the first room ended the list)
        out.append({"label": word("label", "welcome: police"), "action": {"action": "welcome"},
                    "ask": ["police_rooms"], "least": 2})
        one_police: list[Offer] = []
        if empty:  # one police officer into one room, for a table that follows the order card by card
            one_police.append({"label": word("label", "welcome one: police"),
                               "action": {"action": "welcome", "room": empty[0], "police": True}, "ask": ["room"]})
        ones: list[Offer] = [{"label": _("welcome one: {where}", where=BloodyInnOffers.room_word(r, inn["rooms"])),
                              "action": {"action": "welcome", "room": r["room"]}} for r in rooms]
        if ones and len(empty) < len(inn["rooms"]) and not short:
            # A welcome card by card under way (a room already took its traveller): the next card is likeliest
            # the next room's, then an officer's; the whole welcome fills the rest (the seventh rulebook story
            # lodged 73 travellers one by one, two presses each when the whole welcome led)
            return ones[:1] + one_police + out + ones[:0:-1]
        return out + one_police + ones[::-1]  # the single rooms from the end of the offers (up): the first first

    def _mornings(self, state: dict[str, Any]) -> list[Offer]:
        """The morning as the device counts it, then each other way the table may pay: a corpse paid
        with a check while there is cash («pagar ... cheques»), travellers let go for unpaid wages
        instead of peasants. Only the ways that change something are offered."""
        out: list[Offer] = [{"label": word("label", "morning"), "action": {"action": "morning"}}]
        try:
            plain = self.apply(state, {"action": "morning"})[0]
        except Exception:  # noqa: BLE001 - the dry run is refused: the pod shows why on the press
            return out
        seen = [plain]
        order = [p for p in state["players"]]
        for p in order:
            k, checks = len(p["corpses"]), p["counters"]["checks"]
            for n in range(1, min(k, checks) + 1):
                action = {"action": "morning", "police_checks": {p["name"]: n}}
                if self._differs(state, action, seen):
                    out.append({"label": N_("morning, {who}: {n} corpse by check",
                                            "morning, {who}: {n} corpses by check", n, who=p["name"]),
                                "action": action})
        for p in order:
            after = next(q for q in plain["players"] if q["name"] == p["name"])
            short = p["hand"] - after["hand"]
            travellers = p["hand"] - p["peasants"]
            for np in range(min(short, p["peasants"]) - 1, max(0, short - travellers) - 1, -1):
                action = {"action": "morning", "wage_peasants": {p["name"]: np}}
                if self._differs(state, action, seen):
                    out.append({"label": N_("morning: {who} fires {n} traveller",
                                            "morning: {who} fires {n} travellers", short - np,
                                            who=p["name"]), "action": action})
        return out

    def _differs(self, state: dict[str, Any], action: dict[str, Any], seen: list[dict[str, Any]]) -> bool:
        try:
            after = self.apply(state, action)[0]
        except Exception:  # noqa: BLE001 - not possible this morning: not offered
            return False
        if any(after == s for s in seen):
            return False
        seen.append(after)
        return True

    def _night(self, state: dict[str, Any], p: dict[str, Any]) -> list[Offer]:
        """A night turn's offers, the likeliest first: a burial when a corpse waits and the hand can
        pay («Enterrar un cadáver»), peasants from the bistro when the hand is empty, else the usual bribe of the
        likeliest rank when a guest is in the inn, then passing;
        then laundering (all it can: the smaller amounts after the bribes), two peasants from the bistro,
        a kill and a bribe per rank paid the usual way (the rank is on the card: only the room is asked),
        one peasant, the other ways the hand could pay a kill (a traveller back to hand, a traveller played
        instead of a peasant), a peasant killed in the bistro, a kill and a bribe with every choice asked,
        the other ways to pay a bribe, the build with a power, and last (up from the first offer: the
        offers wrap) a build per rank, each way to pay it (its name, then a power of its own when the name does not say it). No card
        action asks more than its room, or its name and power."""
        name = p["name"]
        me = {"action": "pass", "player": name}
        passes: list[Offer] = [{"label": word("label", "pass"), "action": dict(me), "group": "pass"}]
        cash, checks = p["counters"]["cash"], p["counters"]["checks"]
        if cash >= CHECK:
            passes.append({"label": _("bank {amount}F", amount=CHECK * (cash // CHECK)),
                           "action": {**me, "checks": cash // CHECK}, "group": "pass"})
        if checks and cash + CHECK <= CASH_MAX:
            passes.append({"label": word("label", "cash a check"), "action": {**me, "checks": -1}, "group": "pass"})
        # the notary takes as many checks as the player likes: the smaller amounts further down (a third
        # rulebook reader's players banked 20F of 39F: 6 presses through the menu)
        banks: list[Offer] = [{"label": _("bank {amount}F", amount=CHECK * n), "action": {**me, "checks": n},
                               "group": "bank"} for n in range(cash // CHECK - 1, 0, -1)]
        burials = self._burials(state, p)
        bistro = state["inn"]["bistro"]
        peasants: list[Offer] = [
            {"label": word("label", "bribe: 2 peasants") if n == 2 else word("label", "bribe: 1 peasant"),
             "action": {"action": "bribe", "player": name, "bistro": n}, "group": "bistro"} for n in (2, 1) if bistro >= n]
        rooms = [r for r in state["inn"]["rooms"] if r["guest"]]
        # per verb and rank: the usual way to pay, and every other way the hand could pay
        firsts: dict[str, list[Offer]] = {"kill": [], "bribe": [], "build": []}
        others: dict[str, list[Offer]] = {"kill": [], "bribe": [], "build": []}
        every: dict[str, list[Offer]] = {"kill": [], "bribe": [], "build": []}
        verbs = (("kill", "bribe") if rooms else ()) + (("build",) if payments.builder(p) else ())
        start = payments.likely_room(state, name) if rooms else None
        for verb in verbs:
            for rank in RANKS_BY_LIKELIHOOD.get(verb, range(MAX_RANK + 1)):
                ways = self.ways_to_pay(p, rank, verb)
                for i, (given, cards) in enumerate(ways):
                    label = payments.way_label(verb, rank, cards if len(ways) > 1 else None)
                    if verb == "build":  # the card says the power; a power of the table's own is asked after
                        way = offer(label, {"action": "build", "player": name, "rank": rank, **given},
                                    ask=["card", "effect", "amount"])
                    else:
                        way = offer(label, {"action": verb, "player": name, "room": start, "rank": rank, **given,
                                            **self._pocket(verb, rank, state)}, ask=["room"] + list(self._pocket(verb, rank, state)))
                    way["group"] = verb if verb == "build" or not i else f"{verb}…"
                    (others if i else firsts)[verb].append(way)
                    every[verb].append(way)
        out: list[Offer] = []
        if burials:
            out += burials + passes
        elif peasants and p["hand"] == 0:
            out += peasants[:1] + passes + peasants[1:]
            peasants = []
        elif firsts["bribe"]:
            # nothing to bury, a hand to play: the likeliest action leads, a bribe of the likeliest rank (its room
            # asked, so a stray main only opens the step), passing right after it — passing led, and the seven
            # rulebook stories' night actions in that case were 4 plain passes in 203 (bribes of a rank-1 guest 35,
            # kills of one 30, builds 37 over every rank and way, two peasants from the bistro 27)
            out += [firsts["bribe"].pop(0)] + passes
        else:
            out += passes
        # Down from the first offer: two peasants from the bistro, the usual kills (a play-tester found a rank-2
        # kill 9th of 13, behind the full entries, its place changing with the hand), a peasant killed in the
        # bistro, the usual bribes, one peasant, the kills' other ways, the full entries, the
        # bribes' other ways, the smaller amounts to bank; up from it (the offers wrap): the builds, each
        # rank's usual way then its others, and the build with a power
        # a peasant killed in the bistro right after the kills in the rooms, one of them (a play-tester looked for it
        # there and found it 10th of 12, behind every bribe; the stories' kills: 49 in rooms, 8 in the bistro)
        in_bistro: list[Offer] = [{**offer(word("label", "kill: bistro"),
                                           {"action": "kill", "player": name, "bistro": True, **self._pocket("kill", 0, state, bistro=True)},
                                           ask=list(self._pocket("kill", 0, state, bistro=True))), "group": "kill"}] if bistro else []
        police = self._police(state, p)
        out += (peasants[:1] + firsts["kill"] + police["kill"] + in_bistro + firsts["bribe"] + police["bribe"]
                + peasants[1:] + others["kill"])
        if rooms:  # the full entry: any rank, every cost choice asked; both with the kills' other ways, so that a
            # select click goes from them to the bribes' other ways (a play-tester's select went from "bribe a guest"
            # on to the builds, past the way he wanted)
            first = {"action": "kill", "player": name, "room": rooms[0]["room"]}
            out += [{**offer(word("label", "kill a guest"), first,
                             ask=["room", "rank"] + self._cost_asks(p, None, "kill") + self._pocket_ask()),
                     "group": "kill…"},
                    {**offer(word("label", "bribe a guest"), {**first, "action": "bribe"},
                             ask=["room", "rank"] + self._cost_asks(p, None, "bribe")), "group": "kill…"}]
        out += others["bribe"] + banks
        if "build" in verbs:  # an annex with a power the device applies: the full entry, its
            # amount too (a power the table reads off its own card: a chapel waiving 3 wages)
            out.append({"label": word("label", "build an annex"), "action": {"action": "build", "player": name},
                        "ask": ["rank", "card", "effect", "amount"] + self._cost_asks(p, None, "build"),
                        "group": "build"})
        return out + every["build"]

    def _police(self, state: dict[str, Any], p: dict[str, Any]) -> dict[str, list[Offer]]:
        """A police officer killed or bribed in the room the device knows him in, once the table's police rank is
        known (the first officer killed or bribed tells it: the cards are alike), paid the usual way, a kill's
        pocket from the last officer's: nothing asked but the pocket where the cards print their own. The seventh
        rulebook reader's table killed four officers to keep them from investigating, 6–7 presses each as a
        rank's kill (the room stepped to, the pocket from another rank-2 guest's); 12 kills and 6 bribes of an
        officer over the seven sets' stories."""
        out: dict[str, list[Offer]] = {"kill": [], "bribe": []}
        pockets = state.get("pockets") or {}
        rank = pockets.get("police rank")
        rooms = state["inn"]["rooms"]
        if rank is None:
            return out
        for verb in out:
            ways = self.ways_to_pay(p, rank, verb)
            if not ways:
                continue
            given = ways[0][0]
            pocket = self._pocket(verb, rank, state)
            if pocket and pockets.get("police") is not None:
                pocket = {"money": int(pockets["police"])}
            for r in rooms:
                if not (r["guest"] and r["police"]):
                    continue
                where = self.room_word(r, rooms)
                line = offer(_("kill: police, {where}", where=where) if verb == "kill"
                             else _("bribe: police, {where}", where=where),
                             {"action": verb, "player": p["name"], "room": r["room"], "rank": rank, **given, **pocket},
                             ask=list(pocket))
                line["group"] = verb
                out[verb].append(line)
        return out

    def _pocket_ask(self) -> list[str]:
        """A full kill entry's pocket, asked after the rank where the table's cards print their own (a ninth rulebook
        reader's «Cochera» kill, a card kept and a 12F pocket, was not possible on the pods: no entry asked it)."""
        return ["money"] if self.options["ask_pocket"] else []

    def _pocket(self, verb: str, rank: int, state: dict[str, Any], *, bistro: bool = False) -> dict[str, int]:
        """A kill's pocket money, asked where the table's cards print their own (option ``ask_pocket``), from
        the pocket last entered for a guest of that rank in this game (the state's ``pockets``), else the
        option's (a tester's copy printed 2–5F on its rank-1 guests: each kill went down from 12F with a held
        press and corrections; a peasant's, ``bistro``, apart); {"money": …}; else nothing (the rank's, as the
        engine fills it in)."""
        if verb != "kill" or not self.options["ask_pocket"]:
            return {}
        last = (state.get("pockets") or {}).get("bistro" if bistro else str(rank))
        return {"money": int(last if last is not None else self.options["pocket"][rank])}

    # the ways to pay and the words for them (payments.py), as the touchscreen's burial and the tests ask them
    ways_to_pay = staticmethod(payments.ways_to_pay)

    corpse_words = staticmethod(payments.corpse_words)

    way_signs = staticmethod(payments.way_signs)

    way_words = staticmethod(payments.way_words)

    #: The touchscreen's burial: its prompts (the game's words, with their Spanish in the game's catalog)
    CORPSE_PROMPT = _("the corpse:")

    CARDS_PROMPT = _("the cards played:")

    def _burials(self, state: dict[str, Any], p: dict[str, Any]) -> list[Offer]:
        """A burial per annex with room left (your own first, your barn after your built annexes), paid
        the usual way; then, when the hand could pay otherwise (a traveller back to hand, «recuperas todas
        las cartas que hayas jugado que tengan aptitud»), each other way per annex ("bury ↩: Ana's
        chapel"). The corpse is asked only when they differ (then the cost choices are asked too)."""
        corpses = p["corpses"]
        if not corpses:
            return []
        alike = all(c == corpses[0] for c in corpses)
        rank = corpses[0]["rank"] if alike else None
        usual: list[Offer] = []
        others: list[Offer] = []
        seats = state["players"]
        players = [seats[(seats.index(p) + k) % len(seats)] for k in range(len(seats))]  # you, then from your left
        names = [x["name"] for q in players for x in q["annexes"]]
        # your own annexes before your barn: the rulebook stories' tables buried under a built annex of their own
        # 17 times, in the barn 4 (a play-tester's first offer was the barn his table never used); then the
        # others' built annexes, then their barns (another's burial list began with three barns his table never
        # used, the annex he wanted behind them)
        places = [(p, i) for i in range(1, len(p["annexes"]))] + [(p, 0)]
        places += [(q, i) for q in players[1:] for i in range(1, len(q["annexes"]))]
        places += [(q, 0) for q in players[1:]]
        for q, i in places:
            x = q["annexes"][i]
            if len(x["buried"]) >= x["rank"]:
                continue
            cheapest = rank if rank is not None else min(c["rank"] for c in corpses)
            if not unknown_power(p) and cheapest - discount(p, "bury", x) > p["hand"]:
                # the hand cannot pay a burial here, of any corpse (a play-tester's one-card hand was offered eight
                # burials of rank-2 and rank-3 corpses, each refused at its last step)
                continue
            # the corpse asked starts at the likeliest: the richest pocket under your own annex (you keep
            # it all), the poorest under another's (you share it), as a rulebook reader's story played it; under
            # an annex that makes a burial there cheaper, the highest rank, which it saves cards on (a play-tester
            # burying under another's «Capilla» started at the rank-0 corpse the discount did nothing for)
            pockets = [c["money"] for c in corpses]
            if here_discount(x) and rank is None:
                ranks = [c["rank"] for c in corpses]
                likely = ranks.index(max(ranks)) + 1
            else:
                likely = pockets.index(max(pockets) if q is p else min(pockets)) + 1
            action: dict[str, Any] = {"action": "bury", "player": p["name"], "corpse": likely}
            if q is p and i == 0:
                action["annex"] = 0  # the barn, as it always was
                place: Msg = word("label", "barn")
                label = word("label", "bury: barn")
            elif q is p:
                action["annex"] = x["name"]
                place = _filled(x, names)
                label = _("bury: {annex}", annex=place)
            else:
                action.update(owner=q["name"], annex=x["name"])
                shown = annex_word(short_name(x["name"], names))  # the fill too would not fit beside the owner
                place = _("{owner}'s {annex}", owner=q["name"], annex=shown)
                label = _("bury: {owner}'s {annex}", owner=q["name"], annex=shown)
            ways = self.ways_to_pay(p, rank, "bury", x) if rank is not None and not unknown_power(p) else []
            if len(ways) > 1:
                for n, (given, cards) in enumerate(ways):
                    way = offer(label if n == 0 else _("bury {cards}: {place}", cards=self.way_signs(cards),
                                                       place=place), {**action, **given})
                    way["group"] = "bury…" if n else "bury"
                    (others if n else usual).append(way)
                continue
            given, cost = self._cost(p, rank, "bury", x)
            ask = ([] if alike else ["corpse"]) + cost
            usual.append({**offer(label, {**action, **given}, ask=ask), "group": "bury"})
        return usual + others
