"""Dragon Run in words: sums of card values, how a game ended, the history, who starts."""
from __future__ import annotations

from typing import Any

from ...game import Game
from ...messages import Msg, _


def _sum_words(values: list[int]) -> str:
    """Card values as a sum, "3+2 = 5" (numbers and signs: the same in every language)."""
    return "+".join(map(str, values)) + (f" = {sum(values)}" if len(values) > 1 else "")


class DragonRunWords(Game):
    """The game's sentences: the history, who starts, how a game ended."""

    @classmethod
    def starter_hint(cls, options: dict[str, Any]) -> Msg | None:
        return _("The bravest player starts")

    def result_words(self, state: dict[str, Any]) -> Msg:
        """Who won; when talismans were still in play, the reading the count used (docs: Interpretations),
        so the table sees it on the end screen."""
        if state["dragon_won"]:
            return _("the dragon won")
        words = super().result_words(state)
        if any(p["talismans"] for p in state["players"] if not p["out"]):
            return _("{result} (talismans in play counted with the treasure in hand)", result=words)
        return words

    @classmethod
    def result_line(cls, result: dict[str, Any]) -> Msg:
        return _("the dragon won") if result.get("dragon_won") else super().result_line(result)

    def describe(self, action: dict[str, Any]) -> str:
        name = action.get("action")
        who = action.get("player", _("the active player"))
        if name == "charge":
            where = action.get("location")
            if where == "dragon" and action.get("talisman") is not None:
                return _("{who} charges: the dragon! A talisman ({value}) takes the breath", who=who,
                         value=action.get("talisman"))
            if where == "dragon":
                return _("{who} charges: the dragon!", who=who)
            if where == "treasure_hall" and action.get("value") is None:
                said = _("{who} charges: the treasure hall (+a card)", who=who)
            elif where == "treasure_hall":
                said = _("{who} charges: the treasure hall (+{value})", who=who, value=action.get("value"))
            elif where == "other" and action.get("value") is not None:  # the treasure the room gave
                said = _("{who} charges: another room (+{value})", who=who, value=action.get("value"))
            elif where == "other":
                said = _("{who} charges: another room", who=who)
            else:
                return _("{who} charges: {location}", who=who, location=where)
            then = action.get("then")
            if then == "pass":
                return _("{charge}, then passes", charge=said)
            if then == "again":
                return _("{charge}, then takes another turn", charge=said)
            return said
        if name == "hide":
            return _("{who} hides, discarding {discards}, and rolls {roll}", who=who,
                     discards=str(action.get("discard")), roll=action.get("roll"))
        if name == "cry":
            return _("{who} cries like a baby, discarding {discards}", who=who, discards=str(action.get("discard")))
        if name == "deal":
            if not action.get("values"):
                return _("{who} is dealt 4 treasure cards (values not entered)", who=action.get("player"))
            return _("{who} is dealt {values}", who=action.get("player"), values=str(action.get("values")))
        if name == "count":
            if action.get("total") is None:
                return _("{who}'s highest treasure card in hand: {highest}", who=action.get("player"),
                         highest=action.get("highest"))
            return _("{who} counts {total} in the hand", who=action.get("player"), total=action.get("total"))
        if name == "pass":
            return _("{who} passes", who=who)
        if name == "again":
            return _("{who} takes another turn", who=who)
        if name == "power":  # what it did, so that the history can be checked against the table
            if action.get("take_from") is not None:
                return _("{who} uses the power: a card from {other} (+{value})", who=who,
                         other=action.get("take_from"), value=action.get("value", "?"))
            if action.get("draw"):
                return _("{who} uses the power: draws a card (+{value})", who=who, value=action.get("value", "?"))
            if action.get("heal") is not None:
                return _("{who} uses the power: heals {other}", who=who, other=action.get("heal"))
            return _("{who} uses the power", who=who)
        if name == "play":
            if action.get("cancel"):
                return _("{who} plays the cancel potion ({value})", who=who, value=action.get("value"))
            if action.get("draw") is not None:
                return _("{who} plays a potion ({value}) and draws a card (+{draw})", who=who,
                         value=action.get("value"), draw=action.get("draw"))
            return _("{who} plays a potion ({value})", who=who, value=action.get("value"))
        if name == "talisman":
            return _("{who} puts a talisman in play ({value})", who=who, value=action.get("value"))
        return super().describe(action)
