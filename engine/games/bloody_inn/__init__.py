"""bloody-inn — The Bloody Inn: wealth, checks, corpses, annexes, the night, the morning, the final count.

The cards stay physical; the device keeps the money and the structure of the game:

* per player ``cash`` (the wealth track, 0–40F: a gain beyond 40 is lost and an
  event says how much) and ``checks`` (10F each, unbounded); the hand size
  (``hand``, of which ``peasants``), the annexes built (``annexes``: index 0 is
  the barn, the player-aid card; each with its rank = how many corpses it can
  hold and the money of each corpse buried under it), the unburied corpses
  (``corpses``: rank and pocket money) and the francs lost to the 40F cap
  (``lost``);
* table ``round`` and ``season`` (1, then 2 once the exit stack has been
  shuffled into a new entrance stack); the inn (``inn``): the open rooms (whose
  key, whether a traveller sleeps there, whether that traveller is police),
  the entrance and exit stack sizes, the peasants in the bistro and the
  corpses the police made disappear (``discarded``);
* the structure of a round (``phase``): ``welcome`` (the first player fills the
  open rooms from the entrance stack), ``night`` (two action turns per player
  in seat order from the first player; ``turn`` says whose), ``morning`` (one
  action does the police, the departure, the wages and passes the first-player
  card on), ``count`` (after the last round: end-of-game annex gains are
  recorded with ``adjust``, then ``resolve`` makes the final count), ``over``;
* the ledger (``ledger``): the net francs that entered or left the players'
  wealth (cash + 10 × checks) by cause. Laundering and transfers move francs
  between places and never appear there; so the players' total wealth is
  always the starting wealth plus the ledger's sum ("francs never appear from
  nowhere").

Rules: ../shared/RULES.md (The Bloody Inn) and ../shared/seeds/bloody-inn.es.txt;
the choices where the rules are unclear are in docs/games/bloody-inn.md.
"""
from __future__ import annotations

from .rules import BloodyInnRules
from .views import BloodyInnViews
from .words import BloodyInnWords


class BloodyInn(BloodyInnViews, BloodyInnWords, BloodyInnRules):
    """The Bloody Inn: its rules (rules.py), what a seat sees (views.py), its sentences (words.py)."""


GAME = BloodyInn
