"""dragon-run — Dragon Run: the dragon's temper, the dungeon deck, the escape die, wounds, treasure.

The cards stay physical. The device keeps:

* table ``temper`` (8/7/6/5 for 5/4/3/2 players; 0 ends the game) and
  ``dungeon`` (location cards left in the dungeon deck, 10 after a reshuffle),
  plus which locations are in the dungeon discard since the last reshuffle;
* per player ``wounds`` (0 unhurt, 1 injured, 2 dead = out) and ``treasure``
  (the total value of the treasure cards in hand whose values it knows), the
  values of those cards (``cards``, highest first; ``highest`` for the
  tie-break), how many cards it does not know (``unknown``: dealt or drawn
  without their values, asked only when a card leaves the hand or at the
  final count: ``unknown_worth``, ``said_highest``), the talismans in play,
  the character power (``ready``/``used``) and an optional character name;
* the turn: whose it is and where it stands (``phase``);
* the escape test's d10 (faces 0–9): rolled by :meth:`DragonRun.prepare` from
  the Session's random source unless the action brings a ``roll`` read from a
  physical die; the journal records the face, so replay never re-rolls.

Turn phases (``state["turn"]["phase"]``):

``deal``            before the first move: the players may enter the values of their 4 dealt
                    treasure cards; the first move deals the hands not entered, unseen
``start``           the active player may use the power, then charges, hides or cries
``must_charge``     the escape test failed: only ``charge``
``escaped``         the escape test succeeded: ``charge`` or ``pass``
``after_location``  after the treasure hall or another location: ``pass``,
                    ``again`` (press your luck / take another turn) or ``charge``
                    (a location that says "draw again")
``count``           temper 0: the survivors holding cards the device does not know give their
                    hand's total (and, for a tie it cannot settle, their highest card)
``over``            the game has ended

Rules: ../shared/RULES.md (Dragon Run) and ../shared/seeds/dragon-run.es.txt;
the choices where the rules are unclear are in docs/games/dragon-run.md.
"""
from __future__ import annotations

from .rules import DragonRunRules
from .views import DragonRunViews
from .words import DragonRunWords


class DragonRun(DragonRunViews, DragonRunWords, DragonRunRules):
    """Dragon Run: its rules (rules.py), what a seat sees (views.py), its sentences (words.py)."""


GAME = DragonRun
