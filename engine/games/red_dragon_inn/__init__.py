"""The Red Dragon Inn: gold, fortitude, alcohol, Drink Me! piles, turns and gambling.

The cards stay physical; this module keeps the numbers and applies every
consequence the rulebook (``seeds/red-dragon-inn.es.txt``) draws from them:

* the Inn is the bank. ``table.inn`` is the Inn's net take since setup (0 at
  the start, + what players pay it, − what it pays out), so players' gold +
  ``inn`` + ``pot`` never changes;
* the drink deck and its discard are counted (``drinks``): buying and drinking
  move cards between the deck, the Drink Me! piles and the discard; when the
  deck runs out every player still in pays 1 gold to the Inn and the discard
  becomes the new deck;
* a loss (passing out, out of gold) first waits in ``pending`` — the last
  chance window. Adjustments, transfers and card-driven extra drinks leave it
  open and may save the player; ``resolve`` or the next other action applies
  it: pass-out splits first, then the zero-gold checks, then a draw or the last
  one standing;
* a gambling round (``gambling``) follows the round's turn order, control and
  "Winning Hand!" rules, and ends by itself when everyone but the player in
  control has passed.

``docs/games/red-dragon-inn.md`` documents every action, option and
interpretation.
"""
from __future__ import annotations

from .rules import RedDragonInnRules
from .views import RedDragonInnViews
from .words import RedDragonInnWords


class RedDragonInn(RedDragonInnViews, RedDragonInnWords, RedDragonInnRules):
    """The Red Dragon Inn: its rules (rules.py), what a seat sees (views.py), its sentences (words.py)."""


GAME = RedDragonInn
