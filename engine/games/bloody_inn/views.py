"""What The Bloody Inn shows: the public view's own keys, each seat's pod and its routine actions."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...fields import Bool, Field, Int, Str
from ...messages import N_, Msg, _, word
from .annexes import (
    DEFAULT_AMOUNT,
    built,
    card_names,
    card_power,
    own_cards,
)
from .offers import BloodyInnOffers
from .rules import wages_due
from .words import annex_word

#: The order select visits a night turn's kinds of offer in (``Game.offer_kinds``), the list's own order (a
#: play-tester found select skipping the bank next to "pass" irregular): the burials paid the usual way, the
#: other ways to pay them, passing with laundering («5. Pasar (y lavar dinero)»: one action; a play-tester's kill
#: was a select more away behind "cash a check"), peasants from the bistro, the kills and bribes per rank, their
#: other ways with the full entries, the bribes' other ways, the builds (a play-tester's bribe was 13th of 18
#: behind five burials, his burial with a card back to the hand 7th of 32: twelve presses of searching each), the
#: smaller amounts to bank a stop of their own before the builds (select went from the bribes' other ways to the
#: builds past a tester's "bank 20F", and he came back up).
OFFER_KINDS = ("bury", "bury…", "pass", "bistro", "kill", "bribe", "kill…", "bribe…", "bank", "build")
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


class BloodyInnViews(BloodyInnOffers):
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
        elif phase in ("night", "morning") and self._one_more(state, p, kills=True):
            # an annex's one more action, offered out of turn (a ninth story's play-tester scrolled 15 lines past
            # the burials under another player's morning status, not told a third action was open)
            status = word("status", "one more action?")
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
