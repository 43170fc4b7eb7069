"""Dale of Merchants' card effects the device follows: cards drawn, cards moved between piles (another
player's too)."""
from __future__ import annotations

from ...errors import RuleError
from ...fields import Int, Player, Str
from ...game import action
from ...messages import N_, _, listing, word
from ...state import Args, Txn
from .piles import JUNK, PILES, PLAYER_PILES, TABLE_PILES
from .table import DaleOfMerchantsTable


class DaleOfMerchantsEffects(DaleOfMerchantsTable):
    """The draw and move actions."""

    @action("draw", fields=(Player("player"), Int("count", lo=1)))
    def _draw_action(self, t: Txn, a: Args) -> None:
        """A card effect makes "player" draw "count" cards (the discard pile is reshuffled when the
        deck runs out; with both empty, as many as there were)."""
        who = a.player("player")
        count = a.int("count")
        t.state["turn"]["alone"] = False  # the technique's effect is entered (as if in one line with it)
        drawn, _junk = self._draw(t, who, count, junk=self.options["effect_draws_junk"])
        t.event(_("{who} draws {drawn}", who=who, drawn=drawn))

    @action("move", fields=(
        Player("player"),
        Str("from", choices=PILES),
        Str("to", choices=PILES),
        Int("count", lo=1),
        Player("from_player", required=False),
    ))
    def _move(self, t: Txn, a: Args) -> None:
        """A card effect moves "count" cards of "player" "from" one pile "to" another: hand, deck,
        discard (the player's), market_deck, market_discard, junk (the junk pile, unlimited).
        "from_player": the "from" pile is that player's (taking another player's card). Cards taken
        from an empty deck come from the reshuffled discard pile; when both run out, as many as
        there were."""
        who = a.player("player")
        src = a.str("from")
        dst = a.str("to")
        count = a.int("count")
        t.state["turn"]["alone"] = False  # the technique's effect is entered (as if in one line with it)
        giver = a.player("from_player", who)
        if giver != who:
            if src not in PLAYER_PILES:
                raise RuleError(_('{action}: "{field}" names whose {piles} the cards come from, not the {pile}',
                                  action=word("action", "move"), field=word("field", "from_player"), piles=listing(word("pile", p) for p in PLAYER_PILES), pile=word("pile", src)))
            self._move_between(t, giver, src, who, dst, count)
            return
        if src == dst:
            raise RuleError(_("move: cards from {pile} to {pile} go nowhere", pile=word("pile", src)))
        if JUNK in (src, dst) and (src in TABLE_PILES or dst in TABLE_PILES):
            raise RuleError(_("junk never goes to or comes from the market: thrown-away junk goes to the junk pile"))
        moved = count
        if src == "deck":
            moved = self._take_from_deck(t, who, count)
        elif src != JUNK:
            owner = None if src in TABLE_PILES else who
            have = t.get(owner, src)
            if count > have:
                if owner is None:
                    raise RuleError(N_("the table has only {n} card in {pile}, not {count}",
                                       "the table has only {n} cards in {pile}, not {count}", have,
                                       pile=word("pile", src), count=count))
                raise RuleError(N_("{who} has only {n} card in {pile}, not {count}",
                                   "{who} has only {n} cards in {pile}, not {count}", have, who=who,
                                   pile=word("pile", src), count=count))
            t.add(owner, src, -count)
        if dst != JUNK:
            t.add(None if dst in TABLE_PILES else who, dst, moved)
        t.event(N_("{who}: {n} card from {source} to {target}", "{who}: {n} cards from {source} to {target}", moved,
                   who=who, source=word("pile", src), target=word("pile", dst)))

