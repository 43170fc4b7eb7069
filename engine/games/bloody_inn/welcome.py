"""The Bloody Inn's welcome: the first player fills the open rooms from the entrance stack; the seasons."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Ints
from ...game import action
from ...messages import N_, _
from ...state import Args, Txn
from .table import BloodyInnTable
from .words import _rooms_list, _travellers


class BloodyInnWelcome(BloodyInnTable):
    """The welcome phase."""

    @action("welcome", fields=(
        Int("room", required=False, lo=1),
        Ints("police_rooms", default=[], lo=1),
        Bool("police"),
        Ints("first", default=[], lo=1),
    ))
    def _welcome(self, t: Txn, a: Args) -> None:
        """The first player fills the open empty rooms from the entrance stack.

        Without "room": every empty room, in room order; "police_rooms" lists the
        rooms whose traveller is police. With "room": one traveller into that room;
        "police": true when that traveller is police. The night starts once every
        open room holds a traveller (or the entrance stack ran out for good).
        "first" (the whole welcome only): the rooms filled first, in this order, then the
        others in room order — which rooms get the last travellers when the entrance stack
        runs short is the first player's choice («coloque al viajero en una habitación
        abierta, desocupada, de su elección»).
        """
        room = a.int("room", None)
        if room is not None:
            police_rooms = [room] if a.bool("police") else []
        else:
            if a.has("police"):
                raise RuleError(_('welcome: "police" goes with "room"; for the whole welcome list the rooms in "police_rooms"'))
            police_rooms = a.ints("police_rooms")
        if t.state["phase"] != "welcome":
            raise self._phase_refusal(t, "welcome")
        rooms = self._rooms(t)
        if room is not None:
            r = self._room(t, room)
            if r["guest"]:
                raise RuleError(_("room {room} already has a guest", room=room))
            fill = [r]
        else:
            fill = [r for r in rooms if not r["guest"]]
            if not fill:
                raise RuleError(_("rooms are all taken"))
            first = a.ints("first")
            if first:
                fill = self._in_order(t, fill, first)
        numbers = [r["room"] for r in fill]
        for number in police_rooms:
            self._room(t, number)
            if number not in numbers:
                raise RuleError(_("room {number} gets no traveller in this welcome", number=number))
        inn = t.state["inn"]
        if inn["entrance"] == 0:
            self._entrance_empty(t)
        arrived = []
        for r in fill:
            if t.state["last_round"] and inn["entrance"] == 0:
                break
            inn["entrance"] -= 1
            r["guest"] = True
            r["police"] = r["room"] in police_rooms
            arrived.append(r["room"])
            if inn["entrance"] == 0:
                self._entrance_empty(t)
        for number in police_rooms:
            if number not in arrived:
                raise RuleError(_("room {number} gets no traveller: the entrance stack ran out first", number=number))
        if arrived:
            police = [n for n in arrived if n in police_rooms]
            first, left = t.state["first_player"], inn["entrance"]
            if police:
                t.event(N_("{who} welcomes {n} traveller into room {rooms} (police in {police}); "
                           "{left} left in the entrance stack",
                           "{who} welcomes {n} travellers into rooms {rooms} (police in {police}); "
                           "{left} left in the entrance stack", len(arrived), who=first,
                           rooms=_rooms_list(arrived), police=_rooms_list(police), left=left))
            else:
                t.event(N_("{who} welcomes {n} traveller into room {rooms}; {left} left in the entrance stack",
                           "{who} welcomes {n} travellers into rooms {rooms}; {left} left in the entrance stack",
                           len(arrived), who=first, rooms=_rooms_list(arrived), left=left))
        if t.state["last_round"] or all(r["guest"] for r in rooms):
            self._welcome_done(t)

    def _in_order(self, t: Txn, fill: list[dict[str, Any]], first: list[int]) -> list[dict[str, Any]]:
        """The empty rooms with ``first`` (empty open rooms, each once) at the front, in its order."""
        by_number = {r["room"]: r for r in fill}
        for number in first:
            self._room(t, number)
            if number not in by_number:
                raise RuleError(_("room {number} is not an empty open room", number=number))
        if len(set(first)) != len(first):
            raise RuleError(_('welcome: "first" names a room twice'))
        return [by_number[n] for n in first] + [r for r in fill if r["room"] not in first]

    def _entrance_empty(self, t: Txn) -> None:
        """The entrance stack just ran out: a new season, or the last round."""
        inn = t.state["inn"]
        if t.state["table"]["season"] == 1:
            inn["entrance"], inn["exit"] = inn["exit"], 0
            t.set(None, "season", 2)
            t.event(N_("the entrance stack is empty: the exit stack ({n} card) is shuffled into a new entrance stack; "
                       "season 2 begins",
                       "the entrance stack is empty: the exit stack ({n} cards) is shuffled into a new entrance stack; "
                       "season 2 begins", inn["entrance"]))
            if inn["entrance"]:
                return
        if not t.state["last_round"]:
            t.state["last_round"] = True
            t.event(_("the entrance stack is empty for the second time: this is the last round"))

    def _welcome_done(self, t: Txn) -> None:
        guests = sum(r["guest"] for r in self._rooms(t))
        n = len(self.players)
        if t.state["last_round"] and guests < n:
            t.event(N_("only {travellers} in the inn for {n} player: the last round is not played",
                       "only {travellers} in the inn for {n} players: the last round is not played", n,
                       travellers=_travellers(guests)))
            self._enter_count(t)
            return
        t.state["phase"] = "night"
        t.state["turn"] = {"player": t.state["first_player"], "action": 1}
