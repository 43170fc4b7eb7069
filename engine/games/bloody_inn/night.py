"""The Bloody Inn's night: two action turns a player (bribe, build, kill, bury, pass), what each costs in
cards, and the extra actions the annexes grant."""
from __future__ import annotations

from typing import Any

from ...errors import RuleError
from ...fields import Bool, Int, Player, Raw, Str
from ...game import action
from ...messages import N_, _, listing, word
from ...state import Args, Txn
from .annexes import (
    ANNEX_NAMES,
    DEFAULT_AMOUNT,
    EFFECTS,
    card_power,
    discount,
    grants_extra,
    here_discount,
    night_end_extra,
    own_cards,
    powers,
    unknown_power,
)
from .table import CASH_MAX, CHECK, MAX_PLAYED, MAX_RANK, BloodyInnTable, wages_due
from .words import _cards, _checks, _peasants, _travellers, annex_word, power_words


class BloodyInnNight(BloodyInnTable):
    """The night phase: whose action it is, what an action costs, the actions."""

    # -- whose action, and what it costs ---------------------------------------------
    def _actor(self, t: Txn, a: Args, *, allow_extra: bool = True) -> tuple[str, bool]:
        """Who acts in a night action and whether it is an extra (annex-power) action."""
        extra = a.bool("extra") if allow_extra else False
        who = a.player("player", None)
        turn = t.state["turn"]
        if t.state["phase"] != "night" and not (extra and (self._killed_last(t, who) or self._ended_last(t, who))):
            raise self._phase_refusal(t, "night")
        if who is None and extra and t.state["phase"] == "morning":  # no turn's player: the night's last killer
            who = turn.get("killer") or turn["last"]
        if who is None:
            who = turn["player"]
        elif not extra and who != turn["player"]:
            raise RuleError(_("it is {player}'s turn (action {action}), not {who}'s", player=turn["player"],
                              action=turn["action"], who=who))
        if not extra:  # another action: the last one's kill (see _kill) and extra action are over
            turn.pop("killer", None)
            turn.pop("killed_again", None)
            turn.pop("extra_by", None)
        elif not (powers(t.player(who), "extra_action") and self._by_kill_power(t, who, a)):
            turn["extra_by"] = who  # a power that grants one more action grants one
            if powers(t.player(who), "extra_action"):  # the owner of an annex granting one more action used one
                turn["night_extras"] = [*turn.get("night_extras", ()), who]
        return who, extra

    @staticmethod
    def _kills_again(p: dict[str, Any]) -> bool:
        """Whether one of the player's annexes kills again right after a kill (the butcher's shop's, or a power the
        device was not told)."""
        return bool(powers(p, "extra_kill")) or unknown_power(p)

    @staticmethod
    def _by_kill_power(t: Txn, who: str, a: Args) -> bool:
        """Whether an extra kill is the one a killing annex grants «en la misma acción» (right after ``who``'s own
        kill: the butcher's shop's, again and again; an annex whose power the device was not told, once), not
        the one more action another annex grants: a ninth rulebook reader's Ben owned both, a «Carnicería» and a
        «Cochera», and took both in one night — the pods offered no second."""
        if a.name != "kill":
            return False
        turn, p = t.state["turn"], t.player(who)
        if not powers(p, "extra_action"):
            return True  # no other annex grants it
        if turn.get("killer") != who:
            return False
        return bool(powers(p, "extra_kill")) or (unknown_power(p) and not turn.get("killed_again"))

    @staticmethod
    def _killed_last(t: Txn, who: str | None) -> bool:
        """Whether the night's last action was a kill by ``who`` (anyone: None), the morning not yet
        begun: its extra kill «en la misma acción» still belongs to the night."""
        killer = t.state["turn"].get("killer")
        return t.state["phase"] == "morning" and killer is not None and who in (None, killer)

    @staticmethod
    def _ended_last(t: Txn, who: str | None) -> bool:
        """Whether ``who`` (None: the night's last player) owns an annex that grants one more action and may take
        it now, every player's actions done and the morning not yet begun: «justo después de tu segunda acción»
        comes before the morning, and an eighth rulebook reader's «Capilla», «después de las segundas acciones de
        todos», is then, whoever acted last — for an owner who took none this night (``night_extras``)."""
        last = t.state["turn"].get("last")
        return last is not None and night_end_extra(t.state, last if who is None else who)

    def _check_extra(self, t: Txn, who: str, action: str, *, in_room: bool = True) -> None:
        """An extra action needs an annex whose power grants it (or one whose power the device was not told)."""
        p = t.player(who)
        turn = t.state["turn"]
        # right after their own action, or at the night's end («después de las segundas acciones de todos»)
        one_more = bool(powers(p, "extra_action")) and (turn.get("last") == who or self._ended_last(t, who))
        if action == "kill" and who not in (turn.get("killer"), turn.get("player")) and not one_more:
            # an extra kill is one more victim of an action that kills («en la misma acción»): in the
            # player's own action, or right after it killed (also the night's last action, until the
            # morning) — never on another player's turn after an action that killed no one
            raise RuleError(_("{who} did not kill in the action just done: an extra kill comes in the same action "
                              "as a kill", who=who))
        if unknown_power(p) or grants_extra(p, action, in_room=in_room):
            return
        if action == "kill" and powers(p, "extra_kill"):
            raise RuleError(_("the butcher's shop kills several travellers in rooms, not peasants in the bistro"))
        raise RuleError(_("{who} has no annex that grants an extra {action}: an extra action comes from an "
                          "annex's power (the butcher's shop kills several travellers in one action)", who=who,
                          action=word("action", action)))

    def _advance(self, t: Txn) -> None:
        """The next action turn: seat order from the first player, everyone's first action then second."""
        turn = t.state["turn"]
        order = self._seat_order(t)
        # whose action just ended: the moment an annex that grants one more action lets its owner take it
        turn["last"] = turn["player"]
        i = order.index(turn["player"]) + 1
        if i < len(order):
            turn["player"] = order[i]
        elif turn["action"] == 1:
            turn["player"], turn["action"] = order[0], 2
        else:
            t.state["phase"] = "morning"
            t.state["turn"] = {"player": None, "action": 0, "last": turn["player"]}
            if turn.get("night_extras"):
                t.state["turn"]["night_extras"] = list(turn["night_extras"])
            t.event(_("every player has taken both actions: the morning comes"))
            return
        if turn["action"] == 2:
            self._warn_wages(t, turn["player"])

    def _warn_wages(self, t: Txn, who: str) -> None:
        """Before a player's last action of the night: say so when the coming wages exceed their cash."""
        due = wages_due(t.player(who), self.options["peasant_wages"])
        cash = t.get(who, "cash")
        if due > cash:
            t.event(_("{who}'s last action of the night: {due}F of wages are coming and {who} has {cash}F in cash "
                      "(cash a check when passing, or an accomplice is discarded per franc short)", who=who, due=due,
                      cash=cash))

    def _play(self, t: Txn, a: Args, who: str, rank: int, action: str, *, keep_traveller: int = 0,
              here: tuple[str, dict[str, Any]] | None = None) -> None:
        """Play the cards an action costs, checked against what the device knows of the hand.

        "played" (default: the rank, fewer by the discounts of the player's
        annexes), "peasants" (default: as many as the hand forces) and "kept"
        (default 0: travellers with the aptitude who return to the hand) are
        filled by the device when absent and checked when given. Peasants go to
        the bistro, the other played travellers to the exit stack.
        ``keep_traveller``: a traveller that must stay in hand besides (the annex
        being built; never a police officer). ``here``: a burial's annex and its owner (the annex's
        own power may make a burial under it cheaper for whoever buries there).
        """
        p = t.player(who)
        hand = p["hand"] - keep_traveller
        peasants_in_hand = p["peasants"]
        travellers = hand - peasants_in_hand
        police = min(p.get("police", 0), travellers)  # officers the device knows are in hand
        annex = here[1] if here else None
        played = self._cards_played(a, p, who, rank, action, hand, keep_traveller, annex)
        peasants = self._peasants_played(a, who, played, travellers, peasants_in_hand)
        played_travellers = played - peasants
        kept = self._cards_kept(a, who, played, peasants, played_travellers)
        gone = played_travellers - kept
        p["peasants"] -= peasants
        p["hand"] -= peasants + gone
        # the officers the device is sure of: those lost go first (an officer with the action's aptitude icon
        # comes back like any traveller; two rulebook readers' copies print one on their police cards)
        p["police"] = max(0, police - gone)
        t.state["inn"]["bistro"] += peasants
        t.state["inn"]["exit"] += gone
        cheaper = min(rank - played, here_discount(annex))
        if here and cheaper:
            t.event(N_("{owner}'s {annex} makes a burial under it {n} card cheaper",
                       "{owner}'s {annex} makes a burial under it {n} cards cheaper", cheaper, owner=here[0],
                       annex=annex_word(here[1]["name"])))
        if played < rank - cheaper:
            t.event(N_("{who}'s annexes make it {n} card cheaper", "{who}'s annexes make it {n} cards cheaper",
                       rank - cheaper - played, who=who))
        if played:
            t.event(N_("{who} plays {n} card: {kept} back to hand, {peasants} to the bistro, {gone} to the exit stack",
                       "{who} plays {n} cards: {kept} back to hand, {peasants} to the bistro, {gone} to the exit stack",
                       played, who=who, kept=kept, peasants=_peasants(peasants), gone=gone))

    @staticmethod
    def _cards_played(a: Args, p: dict[str, Any], who: str, rank: int, action: str, hand: int,
                      keep_traveller: int, here: dict[str, Any] | None = None) -> int:
        """How many cards the action plays ("played"): the rank less the annexes' discounts unless given,
        never more than the rank or the hand, nor fewer than the discounts allow (a burial's: with what the
        annex ``here`` takes off for whoever buries under it)."""
        cut = discount(p, action, here)
        free = unknown_power(p)  # an annex whose power nobody told the device: it may be a discount
        cheapest = 0 if free else max(0, rank - cut)
        played: int = a.int("played", max(0, rank - cut))
        if played > rank:
            raise RuleError(N_("a rank-{rank} card costs {n} card, not {played}",
                               "a rank-{rank} card costs {n} cards, not {played}", rank, rank=rank, played=played))
        if played < cheapest:
            if cut:
                raise RuleError(N_("{who}'s annexes make a {action} {n} card cheaper: at least {least} played, "
                                   "not {played}",
                                   "{who}'s annexes make a {action} {n} cards cheaper: at least {least} played, "
                                   "not {played}", cut, who=who, action=word("action", action), least=cheapest,
                                   played=played))
            raise RuleError(N_("a rank-{rank} card costs {n} card: {who} has no annex that makes a {action} cheaper",
                               "a rank-{rank} card costs {n} cards: {who} has no annex that makes a {action} cheaper",
                               rank, rank=rank, who=who, action=word("action", action)))
        if played > hand:
            if keep_traveller:
                raise RuleError(N_("{who} has only {n} card in hand besides the annex; this needs {played} played",
                                   "{who} has only {n} cards in hand besides the annex; this needs {played} played",
                                   hand, who=who, played=played))
            raise RuleError(N_("{who} has only {n} card in hand; this needs {played} played",
                               "{who} has only {n} cards in hand; this needs {played} played", hand, who=who,
                               played=played))
        return played

    @staticmethod
    def _peasants_played(a: Args, who: str, played: int, travellers: int, peasants_in_hand: int) -> int:
        """How many of the cards played are peasants ("peasants"): as many as the hand forces unless given
        (asked when the hand leaves a choice)."""
        least = max(0, played - travellers)  # peasants the hand forces
        most = min(played, peasants_in_hand)
        peasants = a.int("peasants", None)
        if peasants is None:
            if least and least < most:
                raise RuleError(_('{who} holds {travellers} and {peasants}: say how many of the {cards} played are '
                                  'peasants ({least}–{most}, in "peasants")', who=who,
                                  travellers=_travellers(travellers), peasants=_peasants(peasants_in_hand),
                                  cards=_cards(played), least=least, most=most))
            peasants = least
        if peasants > peasants_in_hand:
            raise RuleError(N_("{who} has only {n} peasant in hand", "{who} has only {n} peasants in hand",
                               peasants_in_hand, who=who))
        if peasants > played:
            raise RuleError(N_("{who} plays {n} card: {peasants} cannot be among them",
                               "{who} plays {n} cards: {peasants} cannot be among them", played, who=who,
                               peasants=_peasants(peasants)))
        if played - peasants > travellers:
            raise RuleError(_('{who} holds {travellers} and {peasants}: {cards} with only {among} among them '
                              'cannot be played (say how many in "peasants")', who=who,
                              travellers=_travellers(travellers), peasants=_peasants(peasants_in_hand),
                              cards=_cards(played), among=_peasants(peasants)))
        return peasants

    @staticmethod
    def _cards_kept(a: Args, who: str, played: int, peasants: int, played_travellers: int) -> int:
        """How many played travellers return to the hand by their aptitude ("kept"): never a peasant. A police
        officer is a traveller here: the rulebook keeps police from becoming annexes («no hay un icono de casa en
        la parte inferior de estas cartas»), not from an aptitude icon."""
        kept: int = a.int("kept")
        if kept > played_travellers:
            if not played_travellers:
                raise RuleError(_("{who} plays no traveller: peasants always go back to the bistro, so no card "
                                  "returns to the hand", who=who))
            raise RuleError(N_("{who} plays {n} card: the kept cards ({kept}) and the peasants ({peasants}) "
                               "cannot be more than that",
                               "{who} plays {n} cards: the kept cards ({kept}) and the peasants ({peasants}) "
                               "cannot be more than that", played, who=who, kept=kept, peasants=peasants))
        return kept

    def _target(self, t: Txn, a: Args, verb: str) -> tuple[dict[str, Any] | None, int | None]:
        """A guest in a room (``room``) or peasants in the bistro; returns (room, bistro)."""
        room = a.int("room", None)
        bistro = a.raw("bistro", None)
        if (room is None) == (bistro is None or bistro is False):
            raise RuleError(_('{verb}: give either "room" (a guest in the inn) or "bistro" (peasants)',
                              verb=word("action", verb)))
        if room is not None:
            r = self._room(t, room)
            if not r["guest"]:
                raise RuleError(_("room {room} has no guest to {verb}", room=room, verb=word("action", verb)))
            return r, None
        return None, bistro

    @staticmethod
    def _guest_rank(a: Args, verb: str, room: int) -> int:
        """A room guest's rank, which only the card shows: asked in the player's words when missing."""
        if a.raw("rank", None) is None:
            raise RuleError(_("{verb}: say the rank of the guest in room {room} (0–3, printed on the card)",
                              verb=word("action", verb), room=room))
        return a.int("rank")

    # -- the night: actions ----------------------------------------------------------
    @action("bribe", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("room", required=False, lo=1),
        Raw("bistro"),
        Int("rank", required=False, lo=0, hi=MAX_RANK),  # a room guest's must be given; a peasant is rank 0
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _bribe(self, t: Txn, a: Args) -> None:
        """Bribe a guest in a "room" (its "rank"), or 1–2 peasants from the "bistro", into your hand.

        Cost: "played" cards (default: the rank), of which "kept" return to
        hand (aptitude) and "peasants" go to the bistro; the rest to the exit stack.
        """
        who, extra = self._actor(t, a)
        r, bistro = self._target(t, a, "bribe")
        bribed = 0  # how many peasants come from the bistro (without a room)
        if r is not None:
            rank = self._guest_rank(a, "bribe", r["room"])
        else:
            if isinstance(bistro, bool) or not isinstance(bistro, int) or not 1 <= bistro <= 2:
                raise RuleError(_('bribe: "bistro" is how many peasants you take, 1 or 2, not {bistro!r}', bistro=bistro))
            rank = a.int("rank", 0)
            if rank:
                raise RuleError(_("peasants are rank 0"))
            have = t.state["inn"]["bistro"]
            if have == 0:
                raise RuleError(_("the bistro is empty: no peasant to bribe"))
            if bistro > have:
                raise RuleError(N_("the bistro has only {n} peasant", "the bistro has only {n} peasants", have))
            bribed = bistro
        if extra:
            self._check_extra(t, who, "bribe")
        self._play(t, a, who, rank, "bribe")
        p = t.player(who)
        if r is not None:
            if r["police"]:  # a police officer stays one in a hand: never an annex
                p["police"] = p.get("police", 0) + 1
                # the table's police officers' rank (their cards are alike): where a pod's police lines start
                t.state.setdefault("pockets", {})["police rank"] = rank
            r["guest"] = r["police"] = False
            p["hand"] += 1
            t.event(_("{who} bribes the rank-{rank} guest of room {room}: an accomplice in hand", who=who, rank=rank,
                      room=r["room"]))
        else:
            t.state["inn"]["bistro"] -= bribed
            p["hand"] += bribed
            p["peasants"] += bribed
            t.event(N_("{who} bribes {n} peasant from the bistro", "{who} bribes {n} peasants from the bistro",
                       bribed, who=who))
        if not extra:
            self._advance(t)

    @action("build", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("rank", lo=0, hi=MAX_RANK),
        Str("name", required=False),
        Str("card", required=False, choices=ANNEX_NAMES),
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
        Str("effect", required=False, choices=EFFECTS),
        Int("amount", required=False, lo=0, hi=CASH_MAX),
    ))
    def _build(self, t: Txn, a: Args) -> None:
        """Build an annex from a traveller in hand: its "rank" (0–3), optional "name" and "effect".

        "card": one of the table's own annex cards (option annexes) or of the base game's; its name and
        its power (the option's, or the publisher's card list, ``NAME_EFFECT``) are the defaults of "name"
        and "effect"; a "name" of the table's own cards brings its power too. A card of the option given
        a rank is built at that rank only.

        Cost: "played" other cards (default: the rank), "kept", "peasants" as for bribe.
        "effect" (one of the card list's effect types) and its "amount" make the
        device apply the annex's power from now on: morning_bonus (francs at every
        departure), wages_waived (wages every morning), bribe/build/kill/bury_discount
        (cards fewer), extra_kill and extra_action (extra actions it grants),
        gain_now (francs at once), gain_checks (10F checks at once), open_room (the builder's key opens a closed room of the
        board: a new room, theirs, filled at the next welcome), end_game and other (reminded), none.
        """
        who, extra = self._actor(t, a)
        rank = a.int("rank")
        p = t.player(who)
        own = own_cards(self.options)
        card = a.str("card", None, choices=tuple(own) + tuple(n for n in ANNEX_NAMES if n not in own))
        name = a.str("name", card or f"annex {len(p['annexes'])}")
        if card is None and name in own:  # the table's own card named: it brings its power
            card = name
        power = card_power(self.options, card)
        effect = a.str("effect", power[0] if power else None)
        amount = a.int("amount", power[1] if power and effect == power[0] else None)
        card_rank = own.get(card or "", {}).get("rank")
        if card is not None and card_rank is not None and card_rank != rank:
            raise RuleError(_("{annex} is a rank-{card_rank} card, not rank {rank}", annex=annex_word(card),
                              card_rank=card_rank, rank=rank))
        if amount is not None and (effect is None or DEFAULT_AMOUNT[effect] is None):
            raise RuleError(_('{action}: "{field}" goes with an effect that has one (a bonus, waived wages, a discount, '
                              'a gain now)', action=word("action", "build"), field=word("field", "amount")))
        if effect is not None and amount is None:
            amount = DEFAULT_AMOUNT[effect]
        travellers = p["hand"] - p["peasants"]
        if travellers < 1:
            raise RuleError(_("{who} has no traveller in hand to build an annex from "
                              "(peasants and police cannot become annexes)", who=who))
        police = min(p.get("police", 0), travellers)
        if travellers - police < 1:
            raise RuleError(N_("{who}'s only traveller in hand is a police officer: police cannot become annexes",
                               "{who}'s only travellers in hand are {n} police officers: police cannot become "
                               "annexes", travellers, who=who))
        if extra:
            self._check_extra(t, who, "build")
        self._play(t, a, who, rank, "build", keep_traveller=1)
        p["hand"] -= 1
        annex: dict[str, Any] = {"name": name, "rank": rank, "buried": []}
        if effect is not None:
            annex["effect"] = effect
            annex["amount"] = amount
        p["annexes"].append(annex)
        t.event(N_("{who} builds {annex} (rank {rank}: room for {n} corpse)",
                   "{who} builds {annex} (rank {rank}: room for {n} corpses)", rank, who=who, annex=annex_word(name),
                   rank=rank))
        if effect is not None and effect != "open_room":  # (the room it opens says it, below)
            t.event(_("{who}'s {annex}: {power}", who=who, annex=annex_word(name), power=power_words(effect, amount)))
        if effect == "gain_now" and amount:
            self._gain(t, who, amount, "adjust", annex_word(name))
        if effect == "gain_checks" and amount:  # a check from the supply (a rulebook reader's «Casa de empeños»)
            t.add(who, "checks", amount)
        if effect == "open_room":
            self._open_room(t, who)
        if not extra:
            self._advance(t)

    @action("kill", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("room", required=False, lo=1),
        Raw("bistro"),
        Int("money", required=False, lo=0, hi=100),
        Int("rank", required=False, lo=0, hi=MAX_RANK),  # a room guest's must be given; a peasant is rank 0
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _kill(self, t: Txn, a: Args) -> None:
        """Kill a guest in a "room" (its "rank") or a peasant in the "bistro" (true): an unburied corpse.

        "money": the pocket money printed on the card (default: option pocket by rank).
        Cost as for bribe.
        """
        who, extra = self._actor(t, a)
        by_power = extra and self._by_kill_power(t, who, a)  # _actor leaves an extra's killer as it was
        r, bistro = self._target(t, a, "kill")
        if r is not None:
            rank = self._guest_rank(a, "kill", r["room"])
        else:
            if not (bistro is True or (type(bistro) is int and bistro == 1)):
                raise RuleError(_('kill: "bistro" must be true (one peasant), not {bistro!r}', bistro=bistro))
            rank = a.int("rank", 0)
            if rank:
                raise RuleError(_("peasants are rank 0"))
            if extra:
                self._check_extra(t, who, "kill", in_room=False)
            if t.state["inn"]["bistro"] == 0:
                raise RuleError(_("the bistro is empty: no peasant to kill"))
        if extra:
            self._check_extra(t, who, "kill", in_room=r is not None)
        money = a.int("money", self.options["pocket"][rank])
        self._play(t, a, who, rank, "kill")
        # the last pocket of a guest of this rank (a peasant's apart): where a pod's kill starts its pocket next
        pockets = t.state.setdefault("pockets", {})
        pockets["bistro" if r is None else str(rank)] = money
        if r is not None and r["police"]:  # the police officers' cards are alike: their rank and pocket apart
            pockets["police rank"], pockets["police"] = rank, money
        if r is not None:
            r["guest"] = r["police"] = False
            t.event(_("{who} kills the rank-{rank} guest of room {room}: an unburied corpse with {money}F "
                      "in its pockets", who=who, rank=rank, room=r["room"], money=money))
        else:
            t.state["inn"]["bistro"] -= 1
            t.event(_("{who} kills a peasant in the bistro: an unburied corpse with {money}F in its pockets",
                      who=who, money=money))
        t.player(who)["corpses"].append({"rank": rank, "money": money})
        if not extra:
            self._advance(t)
        # who killed in the action just done, until the next action: the moment a butcher's shop's owner
        # kills again «en la misma acción» (the pods offer it then, and at no other moment) — also when
        # that kill was the night's last action, until the morning; and whether they already did (a power
        # that grants one more action grants only one)
        t.state["turn"]["killer"] = who
        if extra and (by_power or not self._kills_again(t.player(who))):
            t.state["turn"]["killed_again"] = True

    @action("bury", fields=(
        Player("player", required=False),
        Bool("extra"),
        Int("corpse", required=False, lo=1),
        Player("owner", required=False),
        Raw("annex"),
        Int("played", required=False, lo=0, hi=MAX_PLAYED),
        Int("kept", default=0, lo=0),
        Int("peasants", required=False, lo=0),
    ))
    def _bury(self, t: Txn, a: Args) -> None:
        """Bury one of your corpses ("corpse", 1-based) under an annex with room ("owner"; "annex": its name, or 0 = barn, 1… in build order).

        The corpse's money: all yours under your own annex; otherwise shared
        with the annex's owner, the odd franc to the burier. Cost: the corpse's
        rank in cards ("played", "kept", "peasants" as for bribe).
        """
        who, extra = self._actor(t, a)
        p = t.player(who)
        corpses = p["corpses"]
        number = a.int("corpse", None)
        owner_given = a.player("owner", None)
        owner = owner_given or who
        annex_no = a.raw("annex", None)
        if isinstance(annex_no, str):
            owner, annex_no = self._annex_by_name(t, who, owner_given, annex_no)
        elif annex_no is not None and (isinstance(annex_no, bool) or not isinstance(annex_no, int) or annex_no < 0):
            raise RuleError(_('bury: "annex" is the annex\'s name, or its number (0 = barn, 1… in build order), '
                              'not {annex!r}', annex=annex_no))
        if not corpses:
            raise RuleError(_("{who} has no corpse to bury", who=who))
        if number is None:
            if any(c != corpses[0] for c in corpses):
                raise RuleError(_("{who} has {n} corpses: say which (corpse 1–{n})", who=who, n=len(corpses)))
            number = 1
        if number > len(corpses):
            raise RuleError(N_("{who} has only {n} corpse", "{who} has only {n} corpses", len(corpses), who=who))
        annexes = t.player(owner)["annexes"]
        if annex_no is None:
            free = [i for i, x in enumerate(annexes) if len(x["buried"]) < x["rank"]]
            if len(free) != 1:
                raise RuleError(_("say under which of {owner}'s annexes (annex: 0 = barn, 1–{last} built)",
                                  owner=owner, last=len(annexes) - 1) if len(annexes) > 1 else
                                _("that annex is full: {owner}'s barn has no room left", owner=owner))
            annex_no = free[0]
        if annex_no >= len(annexes):
            if len(annexes) > 1:
                raise RuleError(_("{owner} has no annex {number} (0 = barn, 1–{last} built)", owner=owner,
                                  number=annex_no, last=len(annexes) - 1))
            raise RuleError(_("{owner} has no annex {number} (0 = barn, none built)", owner=owner, number=annex_no))
        annex = annexes[annex_no]
        if len(annex["buried"]) >= annex["rank"]:
            if annex["rank"] == 0:
                raise RuleError(_("that annex is full: a rank-0 annex holds no corpse"))
            raise RuleError(N_("that annex is full: {owner}'s {annex} (rank {rank}) already holds {n} corpse",
                               "that annex is full: {owner}'s {annex} (rank {rank}) already holds {n} corpses",
                               len(annex["buried"]), owner=owner, annex=annex_word(annex["name"]), rank=annex["rank"]))
        corpse = corpses[number - 1]
        if extra:
            self._check_extra(t, who, "bury")
        self._play(t, a, who, corpse["rank"], "bury", here=(owner, annex))
        del corpses[number - 1]
        annex["buried"].append({"money": corpse["money"], "by": who})
        money = corpse["money"]
        if owner == who:
            t.event(_("{who} buries a corpse under their {annex} and takes its {money}F", who=who,
                      annex=annex_word(annex["name"]), money=money))
            self._gain(t, who, money, "bury", _("burial"))
        else:
            mine, theirs = money - money // 2, money // 2
            t.event(_("{who} buries a corpse under {owner}'s {annex}: {money}F shared, {mine}F to {who}, "
                      "{theirs}F to {owner}", who=who, owner=owner, annex=annex_word(annex["name"]), money=money,
                      mine=mine, theirs=theirs))
            self._gain(t, who, mine, "bury", _("burial"))
            self._gain(t, owner, theirs, "bury", _("burial"))
        if not extra:
            self._advance(t)

    def _annex_by_name(self, t: Txn, who: str, owner: str | None, name: str) -> tuple[str, int]:
        """The annex called ``name`` (the owner's; without an owner, your own first, then the only other):
        the one with room left when the owner has several of that name."""
        owners = [owner] if owner else [who] + [p["name"] for p in t.players if p["name"] != who]
        found: list[tuple[str, int]] = []
        for o in owners:
            mine = [(o, i) for i, x in enumerate(t.player(o)["annexes"]) if x["name"] == name]
            if mine:
                room = [(o2, i) for o2, i in mine if len(t.player(o2)["annexes"][i]["buried"])
                        < t.player(o2)["annexes"][i]["rank"]]
                found.append((room or mine)[0])
                if o == who and not owner:
                    break
        if not found:
            names = listing(annex_word(x["name"]) for x in t.player(owner or who)["annexes"])
            raise RuleError(_("{owner} has no annex called {name} ({owner}'s annexes: {names})", owner=owner or who,
                              name=annex_word(name), names=names))
        if len(found) > 1:
            raise RuleError(_('{owners} each have an annex called {name}: say whose (in "owner")',
                              owners=listing(o for o, _i in found), name=annex_word(name)))
        return found[0]

    @action("pass", fields=(Player("player", required=False), Bool("extra"), Int("checks", default=0)))
    def _pass(self, t: Txn, a: Args) -> None:
        """Pass the action turn, and optionally launder money: "checks" +n buys n checks (10F of cash each),
        −n cashes n checks (+10F each). Refused when it cannot apply in full (see the docs)."""
        who, _extra = self._actor(t, a, allow_extra=False)
        n = a.int("checks")
        cash = t.get(who, "cash")
        if n > 0:
            if cash < CHECK * n:
                raise RuleError(N_("{who} has {cash}F in cash: {n} check costs {cost}F",
                                   "{who} has {cash}F in cash: {n} checks cost {cost}F", n, who=who, cash=cash,
                                   cost=CHECK * n))
            t.add(who, "cash", -CHECK * n)
            t.add(who, "checks", n)
            t.event(N_("{who} passes and launders {amount}F into {n} check",
                       "{who} passes and launders {amount}F into {n} checks", n, who=who, amount=CHECK * n))
        elif n < 0:
            n = -n
            have = t.get(who, "checks")
            if have < n:
                raise RuleError(N_("{who} has only {n} check", "{who} has only {n} checks", have, who=who))
            if cash + CHECK * n > CASH_MAX:
                most = (CASH_MAX - cash) // CHECK
                raise RuleError(N_("cashing {n} check would take {who}'s cash to {total}F; the wealth track stops "
                                   "at {cap}F (at most {most} now)",
                                   "cashing {n} checks would take {who}'s cash to {total}F; the wealth track stops "
                                   "at {cap}F (at most {most} now)", n, who=who, total=cash + CHECK * n,
                                   cap=CASH_MAX, most=_checks(most)))
            t.add(who, "checks", -n)
            t.add(who, "cash", CHECK * n)
            t.event(N_("{who} passes and cashes {n} check (+{amount}F)",
                       "{who} passes and cashes {n} checks (+{amount}F)", n, who=who, amount=CHECK * n))
        else:
            t.event(_("{who} passes", who=who))
        self._advance(t)
