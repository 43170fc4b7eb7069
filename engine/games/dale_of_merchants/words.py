"""Dale of Merchants in words: sums of card values, animal decks, the history, who starts."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...game import Game
from ...messages import Msg, _, listing, word
from .piles import PILES, slot_position


def _sum_words(values: list[int]) -> str:
    if not values:
        return _("nothing")
    if len(values) == 1:
        return str(values[0])
    return "+".join(map(str, values)) + f" = {sum(values)}"


def _decks(names: Iterable[str], sep: str = ", ") -> Msg:
    """Animal decks' names, each a game word, in one list."""
    return listing((word("deck", d) for d in names), sep)


class DaleOfMerchantsWords(Game):
    """The game's sentences: the history, who starts."""

    @classmethod
    def starter_hint(cls, options: dict[str, Any]) -> Msg | None:
        # Preparar: «El jugador que se despertó más temprano hoy debería comenzar el juego. Al jugar
        # juegos consecutivos, uno de los perdedores debe ser el jugador inicial del próximo juego.»
        return _("Whoever woke up earliest today starts; in a rematch, a loser of the last game starts")

    def rematch(self, state: dict[str, Any], starter: str | None = None) -> dict[str, Any]:
        """The setup of the next game after the finished game ``state``: the same players in the same
        seats and the same options, with a loser first (Preparar: «uno de los perdedores debe ser el
        jugador inicial del próximo juego»).

        ``starter``: the loser the table chooses; None: the first loser on the winner's left. The
        players' order is kept, turned so that the starter comes first (play goes on to the left as
        before). Refused (SetupError) before the game is over, for a winner or an unknown name. The
        app's end screen may offer it as "rematch"; the result is an ordinary setup
        (``{"game", "players", "options"}``).
        """
        from ...errors import SetupError

        if not state["over"]:
            raise SetupError(_("a rematch follows a finished game"))
        names = [p["name"] for p in state["players"]]
        winners = set(state["winners"])
        if starter is None:
            first_winner = next((i for i, n in enumerate(names) if n in winners), 0)
            starter = next((names[(first_winner + k) % len(names)] for k in range(1, len(names) + 1)
                            if names[(first_winner + k) % len(names)] not in winners), names[0])
        if starter not in names:
            raise SetupError(_("{who} did not play the last game", who=starter))
        if starter in winners and len(winners) < len(names):
            raise SetupError(_("one of the losers starts the next game, not {who}", who=starter))
        i = names.index(starter)
        return {"game": self.id, "players": names[i:] + names[:i], "options": dict(self.options)}

    def describe(self, action: dict[str, Any]) -> str:
        name = action.get("action")
        who = action.get("player")

        def by(what: str) -> str:
            return _("{who}: {action}", who=who, action=what) if isinstance(who, str) else what

        def then(text: str) -> str:
            if action.get("clean_up") is not True:
                return text
            if isinstance(action.get("new_value"), int):
                return _("{action}, then clean-up; the new market card: {value}", action=text,
                         value=action["new_value"])
            return _("{action}, then clean-up", action=text)

        if name == "buy" and ("position" in action or isinstance(action.get("slot"), int)):
            # the card by its place from the left, as the pods count it, whichever way the action names it (an
            # undo said "slot 0" for a play-tester's "buy #5")
            position = action["position"] if "position" in action else slot_position(action["slot"])
            if isinstance(action.get("discount"), int) and action["discount"]:
                return by(then(_("buy the card at position {position} from the left for {n} less, paying {paid}",
                                 position=position, n=action["discount"], paid=_sum_words(action.get("paid") or []))))
            return by(then(_("buy the card at position {position} from the left, paying {paid}",
                             position=position, paid=_sum_words(action.get("paid") or []))))
        if name == "stall":
            deck = action.get("set")
            if isinstance(deck, str):
                deck = word("deck", deck)
            elif isinstance(deck, list) and all(isinstance(d, str) for d in deck):  # one name per card: ['a', 'b']
                quoted = [_("'{deck}'", deck=word("deck", d)) for d in deck]
                deck = _("[{decks}]", decks=listing(quoted))
            return by(then(_("build a stack: {deck} {values}", deck=deck,
                             values=_sum_words(action.get("values") or []))))
        if name == "technique":
            return by(_("play a technique with a bonus action") if action.get("bonus") else _("play a technique"))
        if name == "inventory":
            return by(then(_("discard {count} (inventory)", count=action.get("count"))))
        if name == "end_turn" and isinstance(action.get("new_value"), int):
            return by(_("end the turn (clean-up); the new market card: {value}", value=action["new_value"]))
        if name == "end_turn":
            return by(_("end the turn (clean-up)"))
        if name == "draw_decks":
            decks = action.get("decks")
            return _("animal decks: {decks}", decks=_decks(decks) if decks else _("(drawn at random)"))
        if name == "set_market" and isinstance(action.get("values"), list):
            return _("market values, left to right: {values}",
                     values=" ".join("-" if v is None else str(v) for v in action["values"]))
        if name == "check_payment":
            return _("check a payment of {paid}", paid=_sum_words(action.get("paid") or []))
        # The card effects and the single market entry read as the generic "action (field=value, ...)";
        # in the usual field order they are whole templates, so that they translate.
        fields = [k for k in action if k not in ("action", "player")]
        if name == "set_market" and sorted(fields) == ["position", "value"]:
            return _("market card at position {position} from the left: {value}", position=action["position"],
                     value=action["value"])
        if name == "take" and fields[:1] == ["position"] and action.get("to", "hand") in PILES:
            return by(_("take the market card at position {position} from the left ({pile})",
                        position=action["position"], pile=word("pile", action.get("to", "hand"))))
        if name == "move" and isinstance(action.get("from_player"), str) and all(
                action.get(k) in PILES for k in ("from", "to")):
            return by(_("take {count} from {owner}'s {source} ({target})", count=action.get("count"),
                        owner=action["from_player"], source=word("pile", action["from"]),
                        target=word("pile", action["to"])))
        if name == "set_market" and fields == ["slot", "value"] and isinstance(action["slot"], int):
            return by(_("market card at position {position} from the left: {value}",
                        position=slot_position(action["slot"]), value=action["value"]))
        if name == "draw" and fields == ["count"]:
            return by(_("draw (count={count})", count=action["count"]))
        if name == "move" and fields == ["count", "from", "to"] and all(
                action[k] in PILES for k in ("from", "to")):
            return by(_("move (count={count}, from={source}, to={target})", count=action["count"],
                        source=word("pile", action["from"]), target=word("pile", action["to"])))
        if name == "take" and fields == ["slot", "to"] and action["to"] in PILES:
            return by(_("take (slot={slot}, to={pile})", slot=action["slot"], pile=word("pile", action["to"])))
        return super().describe(action)
