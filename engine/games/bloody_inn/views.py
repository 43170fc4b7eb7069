"""What The Bloody Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...fields import Bool, Field, Int, Str
from ...game import Game, Offer, offer
from ...messages import N_, Msg, _, word
from . import payments
from .annexes import (
    DEFAULT_AMOUNT,
    built,
    card_names,
    card_power,
    discount,
    grants_extra,
    here_discount,
    own_cards,
    powers,
    unknown_power,
)
from .rules import CASH_MAX, CHECK, MAX_RANK, wages_due
from .table import seat_order
from .words import annex_number, annex_word, short_name

#: The order select visits a night turn's kinds of offer in (``Game.offer_kinds``), the list's own order (a
#: play-tester found select skipping the bank next to "pass" irregular): the burials paid the usual way, the
#: other ways to pay them, passing with laundering («5. Pasar (y lavar dinero)»: one action; a play-tester's kill
#: was a select more away behind "cash a check"), peasants from the bistro, the kills and bribes per rank, their
#: other ways with the full entries, the bribes' other ways, the builds (a play-tester's bribe was 13th of 18
#: behind five burials, his burial with a card back to the hand 7th of 32: twelve presses of searching each), the
#: smaller amounts to bank a stop of their own before the builds (select went from the bribes' other ways to the
#: builds past a tester's "bank 20F", and he came back up).
OFFER_KINDS = ("bury", "bury…", "pass", "bistro", "kill", "bribe", "kill…", "bribe…", "bank", "build")
#: The ranks a verb's usual ways come in, the likeliest first, where that is not the rank's own order: the
#: rulebook stories' bribes of a room's guest were of rank 1 33 times, rank 2 19, rank 0 6, rank 3 once (a play-tester's
#: select landed on "bribe a rank-0 guest" and went down to rank 1 or 2 every time); their kills 19, 21, 8 and 1,
#: in the rank's order.
RANKS_BY_LIKELIHOOD: dict[str, tuple[int, ...]] = {"bribe": (1, 2, 0, 3)}
#: A card's power in a few words, its amount in them ("morning +2F"): the card step's line beside the name.
_SHORT_POWERS: dict[str, Callable[[int], Msg]] = {
    "morning_bonus": lambda n: _("morning +{n}F", n=n), "wages_waived": lambda n: _("wages −{n}", n=n),
    "bribe_discount": lambda n: _("bribe −{n}", n=n), "build_discount": lambda n: _("build −{n}", n=n),
    "gain_now": lambda n: _("now +{n}F", n=n), "gain_checks": lambda n: N_("now +{n} check", "now +{n} checks", n)}
#: A build's powers as a pod steps through them, up from "–": the most built in the rulebook readers' stories first
#: (none 8, the end of the game 5, per other annex 4, wages waived 3; the table's own annexes), down from "–"
#: the least (another power, a room opened).
POD_EFFECTS = ("none", "end_game", "per_annex_bonus", "wages_waived", "morning_bonus", "gain_now", "gain_checks", "extra_kill",
               "extra_action", "build_discount", "bribe_discount", "kill_discount", "bury_discount",
               "bury_here_discount", "open_room", "other")


def _filled(annex: dict[str, Any], names: list[str]) -> Msg:
    """One's own annex where a burial offer names it: by its name, and one known only by its number with its
    corpses and its room ("annex 1 1/2"): a play-tester's story buried under «its Notaría (now 2/2)», and "bury: annex 1"
    and "bury: annex 2" did not say which of the two it was, nor which had room for one more."""
    shown = annex_word(short_name(annex["name"], names))
    if annex_number(annex["name"]) is not None:
        return _("{annex} {buried}/{room}", annex=shown, buried=len(annex["buried"]), room=annex["rank"])
    return shown


class BloodyInnViews(Game):
    """What the game shows: the public view's own keys and each seat's pod."""

    main_counter = "cash"
    off_pod = frozenset({"correct"})  # what the device keeps, set right on the touchscreen
    offer_kinds = OFFER_KINDS

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "phase": state["phase"],
            "turn": dict(state["turn"]),
            "first_player": state["first_player"],
            "last_round": state["last_round"],
            "inn": {**state["inn"], "rooms": [dict(r) for r in state["inn"]["rooms"]]},
            "ledger": dict(state["ledger"]),
            "final_count": None if state["final_count"] is None else
            {k: dict(v) for k, v in state["final_count"].items()},
            "solo": None if state["solo"] is None else dict(state["solo"]),
        }

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        p = next(p for p in state["players"] if p["name"] == name)
        phase = state["phase"]
        turn = state["turn"]
        mine = phase == "night" and turn["player"] == name
        due = wages_due(p, self.options["peasant_wages"])
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            solo = state["solo"]
            if solo is not None:
                status = word("status", "LOST") if solo["lost"] else (
                    _("{band} innkeeper", band=word("innkeeper", solo["band"])) if solo["band"]
                    else word("status", "game over"))
            else:
                status = word("status", "winner") if name in state["winners"] else word("status", "game over")
        elif mine and turn["action"] == 2 and due > p["counters"]["cash"]:
            status = _("wages {due}F > cash {cash}F", due=due, cash=p["counters"]["cash"])
        elif mine and p["corpses"] and any(r["guest"] and r["police"] for r in state["inn"]["rooms"]):
            # the alert in words: on the player's turn the offers take the bottom bar, and the header's
            # corner shows this status (an alert without its reason was never seen there)
            # «paga 10F por cada cadáver sin enterrar»: the alert says how many (its words fit the bar)
            status = N_("police! {n} corpse", "police! {n} corpses", len(p["corpses"]))
        elif mine:
            status = _("your action {number}", number=turn["action"])
        elif phase in ("night", "morning") and self._extra_kills(state, p):
            # the moment an annex's extra kill is offered, out of turn (a play-tester's status was blank
            # and she could not tell what the offers were for); also for an annex whose power the device was
            # not told, whose owner is offered the kill all the same (an eighth story's play-tester met the
            # "+kill" lines under a blank status): a question, the device cannot tell there is a kill to make
            status = word("status", "extra kill?")
        elif phase == "welcome" and state["first_player"] == name:
            status = word("status", "welcome guests")
        elif phase == "morning" and self._killing_on(state):
            # the night's last kill may kill again: the table waits for its killer (a play-tester feared the
            # first player's morning press would take that kill away; it asks for one more press now)
            status = _("{name}: +kill?", name=self._killing_on(state))
        elif phase == "morning" and state["first_player"] == name:
            status = word("status", "morning: press")
        elif phase in ("welcome", "morning"):
            # the other pods say whose press the table waits for («El primer jugador es responsable de dar
            # la bienvenida»): a blank status left a rulebook reader's Cai looking for the morning on his pod
            status = (_("{name} welcomes", name=state["first_player"]) if phase == "welcome"
                      else _("{name}: morning", name=state["first_player"]))
        elif phase == "count":
            status = word("status", "final count")
        elif phase == "night" and due > p["counters"]["cash"]:
            # between the player's own actions too: the wages the hand makes pass the cash (a play-tester's last
            # bribe took two peasants on 2F and nothing said 4F of wages were coming)
            status = _("wages {due}F > cash {cash}F", due=due, cash=p["counters"]["cash"])
        else:
            status = ""
        # the bistro's peasants too (a play-tester could follow them on no pod): the corner shows the round, the
        # menu's "table counters" every row
        table = [[word("counter", "round"), state["table"]["round"]],
                 [word("label", "entrance"), state["inn"]["entrance"]],
                 [word("label", "bistro"), state["inn"]["bistro"]]]
        if state["last_round"] and not state["over"]:
            table[0] = [word("label", "LAST round"), state["table"]["round"]]
        return {
            "counters": [[word("counter", "cash"), p["counters"]["cash"]],
                         [word("counter", "checks"), p["counters"]["checks"]],
                         [word("label", "hand"), p["hand"]], [word("label", "corpses"), len(p["corpses"])]],
            "status": status,
            "alert": mine and (bool(p["corpses"]) and any(r["guest"] and r["police"] for r in state["inn"]["rooms"])
                               or turn["action"] == 2 and due > p["counters"]["cash"]),
            "table": table,
        }

    def moved_by_hand(self, state: dict[str, Any], name: str, counter: str) -> bool:
        """Cash by hand only for the owner of an annex whose income the device does not work out (a power
        of the table's own, one paid at the end, or one it was not told): the rules move every other
        franc (wages, departures, burials, the annexes it knows) and every check (laundering, the
        police), so a stray up or down on any other pod changes nothing. Such an income comes when a
        guest checks in (the welcome, until the night's first action), in the morning, at the end, or on
        its owner's own action: during another player's night action their pod's up and down change
        nothing either."""
        if counter != "cash":
            return super().moved_by_hand(state, name, counter)
        turn = state["turn"]
        just_welcomed = turn["player"] == state["first_player"] and turn["action"] == 1
        if state["phase"] == "night" and turn["player"] != name and not just_welcomed:
            return False
        p = next(p for p in state["players"] if p["name"] == name)
        return any(x.get("effect") in (None, "other", "end_game") for x in built(p))

    def pod_value_words(self, state: dict[str, Any], name: str, action: str, field: str, value: Any,
                        entered: dict[str, Any] | None = None) -> Msg | None:
        """A corpse to bury by what tells it apart on the table, its rank and pocket ("rank 1, 12F"); a build's
        card by its power ("wages −1"), its power left at "–" the card's ("the card's: other"), or with no card
        "not told" (a play-tester could not tell what "–" meant for a table's own annex), and its amount left
        at "–", the power's usual (a play-tester could not tell whether "–" would do, nor, from "usually 1",
        what "–" gave: "– gives 1"); a kill's money as the card's pocket in francs ("money: pocket (F)" above
        the number: a play-tester read a bare "4" as anything but the guest's money, and another read "pocket
        8F" above an "8" as two amounts). A room is said by ``pod_value_shown``."""
        if action == "kill" and field == "money" and isinstance(value, int):
            return _("pocket (F)")
        if action == "build" and field == "card" and value is None:
            # a play-tester went through the whole list to be sure "–" was his table's own card
            return _("none of these")
        power = card_power(self.options, value) if action == "build" and field == "card" else None
        if power is not None:
            # the card's power beside its name (a play-tester could not tell whether his table's «Dormitorio de
            # servicio» was the list's "room service", and its preview did not say what it does)
            power_of, amount = power
            if power_of is None:  # a table's own card listed without its power
                return _("power not told")
            if power_of == "none":  # "card: none" read as no card
                return _("no power")
            if power_of == "other":  # a power the device does not apply: said so, not a bare "other"
                return _("other power")
            short = _SHORT_POWERS.get(power_of)
            return short(amount) if short and amount else word("choice", power_of)
        if action == "build" and value is None and entered is not None:
            card = entered.get("card")
            power = card_power(self.options, card)
            if field == "effect" and power is not None and power[0] is not None:
                return _("the card's: {power}", power=word("choice", power[0]))
            if field == "effect" and (card is None or power is not None):  # no power told: nothing applied
                return _("not told")
            effect = entered.get("effect")
            if field == "amount" and effect is not None and DEFAULT_AMOUNT.get(effect) is not None:
                return _("– gives {n}", n=DEFAULT_AMOUNT[effect])
        if action != "bury" or field != "corpse" or not isinstance(value, int):
            return None
        corpses = next(p for p in state["players"] if p["name"] == name)["corpses"]
        return self.corpse_words(corpses[value - 1]) if 1 <= value <= len(corpses) else None

    def tells(self, entry: Any) -> bool:
        """A build that opens a room says which on the builder's pod (a play-tester's "✓ open room" did
        not: the room is the device's choice, the next number)."""
        if isinstance(entry, dict) and entry.get("action") == "build" and entry.get("effect") == "open_room":
            return True
        return super().tells(entry)

    def pod_value_shown(self, state: dict[str, Any], name: str, action: str, field: str, value: Any) -> Msg | None:
        """A room being entered by its key, as the board shows it ("Ben's", "neutral 2, police"), not the
        device's number: four play-testers looked for a story's "N1" or "white-key room 1" among rooms the
        pod numbered 5–8, and the keys are what the board has."""
        rooms = state["inn"]["rooms"]
        if (action in ("kill", "bribe", "welcome") and field == "room"
                or action == "welcome" and field in ("police_rooms", "first")) and isinstance(value, int):
            room = next((r for r in rooms if r["room"] == value), None)
            if room is None:
                return None
            where = self.room_word(room, rooms)
            return _("{where}, police", where=where) if room["police"] and field == "room" else where
        return None

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

    def pod_step_wanted(self, state: dict[str, Any], name: str, action: dict[str, Any], field: str) -> bool:
        """A build's "amount" is asked only once a power of the table's own with an amount was chosen
        (a chapel whose card waives 3 wages); the card's own power brings its card's amount. A card
        action's "peasants" and "kept" are asked only while the cost, once its rank is known (a burial's
        corpse chosen), leaves the hand a choice (a play-tester's burial under another's chapel that cost
        no card still asked "kept", whose only answer was 0). A card of the table's own copy listed with its
        power (option ``annexes``) is not asked its power again."""
        verb = action.get("action")
        if verb == "build" and field == "amount":
            effect = action.get("effect")
            return effect is not None and DEFAULT_AMOUNT.get(effect) is not None
        if verb == "build" and field == "effect":  # the table's own card brings the power its table listed
            return own_cards(self.options).get(action.get("card") or "", {}).get("effect") is None
        if verb in ("kill", "bribe", "bury", "build") and field in ("peasants", "kept"):
            return self._cost_open(state, name, action, field)
        return True

    def _cost_open(self, state: dict[str, Any], name: str, action: dict[str, Any], field: str) -> bool:
        """Whether the cost of ``action`` (entered so far) leaves ``field`` ("peasants" or "kept") a choice;
        True while the rank is not known yet."""
        p = next((q for q in state["players"] if q["name"] == name), None)
        if p is None or action.get("bistro"):
            return True
        verb = action["action"]
        here = None
        if verb == "bury":
            number = action.get("corpse")
            if not isinstance(number, int) or not 1 <= number <= len(p["corpses"]):
                return True
            rank = p["corpses"][number - 1]["rank"]
            here = self._annex_of(state, name, action)
        else:
            rank = action.get("rank")
        if not isinstance(rank, int):
            return True
        played, peasants = action.get("played"), action.get("peasants")
        return field in self._cost(p, rank, verb, here, played=played if isinstance(played, int) else None,
                                   peasants=peasants if isinstance(peasants, int) else None)[1]

    @staticmethod
    def _annex_of(state: dict[str, Any], name: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """The annex a burial being entered goes under (its owner's, by name or number), or None."""
        owner = action.get("owner") or name
        q = next((x for x in state["players"] if x["name"] == owner), None)
        annex = action.get("annex")
        if q is None or annex is None:
            return None
        if isinstance(annex, int) and not isinstance(annex, bool):
            return q["annexes"][annex] if 0 <= annex < len(q["annexes"]) else None
        named = [x for x in q["annexes"] if x["name"] == str(annex)]
        return next((x for x in named if len(x["buried"]) < x["rank"]), named[0] if named else None)

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field,
                  given: dict[str, Any] | None = None) -> Field | None:
        """A pod asks "bistro" as a number of peasants (bribe: 1–2) or a yes (kill: one peasant), an
        annex's "name" from the base game's annexes, and the "annex" of a burial from the annexes built."""
        if field.name == "bistro" and action == "bribe":
            return Int("bistro", required=False, lo=1, hi=2, doc=field.doc)
        if field.name == "bistro" and action == "kill":
            return Bool("bistro", doc=field.doc)
        if field.name == "name" and action == "build":  # the base game's cards are asked as "card"
            return None
        if field.name == "card" and action == "build":  # the table's own copy's cards, those of the rank first
            rank = (given or {}).get("rank")
            cards = card_names(self.options, rank if isinstance(rank, int) else None)
            if own_cards(self.options):  # each card of the copy is on the table once: those built are passed over
                on_table = {x["name"] for q in state["players"] for x in built(q)}
                cards = tuple(n for n in cards if n not in on_table)
            return Str("card", required=False, choices=cards, doc=field.doc)
        if field.name == "effect" and action == "build":
            # the likeliest first up from "–" (a table's own annex: a play-tester went up ten powers to "end game")
            return Str("effect", required=False, choices=POD_EFFECTS, doc=field.doc)
        if field.name == "amount" and action == "build":  # a power of nothing is no power: from 1
            return Int("amount", required=False, lo=1, hi=field.hi, doc=field.doc)
        if field.name == "room" and action in ("kill", "bribe"):  # a guest's room: the rooms with a guest only
            rooms = [r["room"] for r in state["inn"]["rooms"] if r["guest"]]
            if rooms:
                return Field("room", "int", True, None, tuple(rooms), min(rooms), max(rooms), doc=field.doc)
        if field.name == "room" and action == "welcome":  # a traveller lodged card by card: the empty rooms only
            rooms = [r["room"] for r in state["inn"]["rooms"] if not r["guest"]]
            if rooms:
                return Field("room", "int", False, None, tuple(rooms), min(rooms), max(rooms), doc=field.doc)
        if field.name in ("police_rooms", "first") and action == "welcome":
            # the rooms the welcome fills, each by its key (a play-tester's held up went on to a room 11 the inn does
            # not have, and down from "–" did nothing)
            rooms = [r["room"] for r in state["inn"]["rooms"] if not r["guest"]]
            if rooms:
                return Field(field.name, "ints", False, [], tuple(rooms), min(rooms), max(rooms), doc=field.doc)
        if field.name == "corpse" and action == "bury":  # one of the burier's own corpses, no further
            mine = next(p for p in state["players"] if p["name"] == name)
            return Int("corpse", required=False, lo=1, hi=max(1, len(mine["corpses"])), doc=field.doc)
        if field.name == "annex" and action == "bury":
            # each name as the game says it ("annex 2" → "anexo 2"): a word whose value is the name
            names: list[Msg] = []
            mine = next(p for p in state["players"] if p["name"] == name)
            for p in [mine] + [p for p in state["players"] if p is not mine]:
                names += [annex_word(x["name"]) for x in p["annexes"] if x["name"] not in names]
            return Str("annex", required=False, choices=list(names), doc=field.doc)
        return super().pod_field(state, name, action, field, given)

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

    def pod_actions(self, state: dict[str, Any], name: str) -> list[str]:
        """The menu's other actions: the phase's own first (the night's card actions at night, the
        welcome in the welcome) on the pod of the player whose they are, then those of no phase
        (corrections); another phase's own actions are left out (no "welcome…" at night:
        the engine would refuse it), and so is the phase's own on another player's pod (the welcome
        has no player: from Ben's menu it would do Ana's welcome)."""
        phases = {"welcome": ("welcome",), "night": ("kill", "bribe", "bury", "pass", "build"),
                  "morning": ("morning",), "count": ("resolve",)}
        own: tuple[str, ...] = phases.get(state["phase"], ())
        # the phase's own actions are its player's: the welcome and the morning the first player's, the
        # night's the player whose action it is (and a kill for the butcher's owner right after theirs)
        if state["phase"] in ("welcome", "morning") and state["first_player"] != name:
            own = ()
        elif state["phase"] == "night" and state["turn"]["player"] != name:
            p = next(p for p in state["players"] if p["name"] == name)
            own = ("kill",) if self._extra_kills(state, p) else ()
        if state["phase"] == "morning":  # the night's last kill's extra kill, until the morning
            p = next(p for p in state["players"] if p["name"] == name)
            own = (("kill",) if self._extra_kills(state, p) else ()) + own
        elsewhere = {n for names in phases.values() for n in names} - set(own)
        every = super().pod_actions(state, name)
        return [n for n in own if n in every] + [n for n in every if n not in own and n not in elsewhere]

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
        # every player's actions done, the morning not begun: an owner who took none this night (an eighth rulebook
        # reader's «Capilla», «después de las segundas acciones de todos»: not possible on the pods, the engine
        # refused it after another's action)
        night_end = (state["phase"] == "morning" and turn.get("last") is not None
                     and name not in turn.get("night_extras", ()))
        if not powers(p, "extra_action") or not (right_after or night_end):
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
                                    ask=["room", "rank"] + self._cost_asks(p, None, "kill")), "group": "+"})
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
        unknown = unknown_power(p) and not grants_extra(p, "kill", in_room=True)
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
        out += [{"label": _("welcome: police, {where}", where=BloodyInnViews.room_word(r, inn["rooms"])),
                 "action": {"action": "welcome", "police_rooms": [r["room"]]}} for r in rooms]
        # two officers or more (one has its own offers, above): main adds the room shown and goes on to the next
        # empty room until two are in the list (a play-tester's main on the first room ended the list)
        out.append({"label": word("label", "welcome: police"), "action": {"action": "welcome"},
                    "ask": ["police_rooms"], "least": 2})
        one_police: list[Offer] = []
        if empty:  # one police officer into one room, for a table that follows the order card by card
            one_police.append({"label": word("label", "welcome one: police"),
                               "action": {"action": "welcome", "room": empty[0], "police": True}, "ask": ["room"]})
        ones: list[Offer] = [{"label": _("welcome one: {where}", where=BloodyInnViews.room_word(r, inn["rooms"])),
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
                             ask=["room", "rank"] + self._cost_asks(p, None, "kill")), "group": "kill…"},
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
