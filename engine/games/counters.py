"""counters — a generic game: named counters per player and for the table.

Options (all optional):

* ``counters``: the player counters, each a name or an object
  ``{"name": "life", "start": 20, "min": 0, "max": null, "out_at": 0, "target": null}``.
  ``min``/``max`` left out (or null) mean unbounded. Default: one counter
  ``score`` from 0, unbounded.
* ``table``: the table counters, same shape (without ``out_at``/``target``).
* ``last_standing_wins``: when some counter has ``out_at``, the last player
  still in wins (default true).

``out_at``: a player whose counter reaches this value is out ("reaches" means
at or below it when it is below the start, at or above it otherwise).
``target``: a player whose counter reaches it wins; several at once share the
win. If every player still in goes out at once, it is a draw between them.
"""
from __future__ import annotations

from typing import Any

from ..errors import SetupError
from ..game import Game, Offer, action
from ..messages import _, word
from ..spec import Counter, Option
from ..state import Args, Txn

_FIELDS = {"name", "start", "min", "max", "out_at", "target"}


#: The longest title a play may carry (BoardGameGeek's longest game names are under 100 characters).
TITLE_MAX = 100


def _check_title(value: str) -> None:
    if len(value) > TITLE_MAX or any(not ch.isprintable() for ch in value):
        raise SetupError(_("option 'title' must be at most {n} printable characters", n=TITLE_MAX))


def _check_counter_list(value: list[Any], *, per_player: bool) -> None:
    seen = set()
    for item in value:
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            raise SetupError(_('each counter must be a name or an object with a "name", not {item!r}', item=item))
        allowed = _FIELDS if per_player else {"name", "start", "min", "max"}
        extra = sorted(set(item) - allowed)
        if extra:
            raise SetupError(_("counter {name!r}: unknown field {field!r} (fields: {fields})", name=item["name"],
                               field=extra[0], fields=", ".join(sorted(allowed))))
        for key in allowed - {"name"}:
            v = item.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise SetupError(_("counter {name!r}: {key!r} must be a whole number or null", name=item['name'], key=key))
        lo, hi = item.get("min"), item.get("max")
        if lo is not None and hi is not None and lo > hi:
            raise SetupError(_("counter {name!r}: min {lo} is above max {hi}", name=item['name'], lo=lo, hi=hi))
        start = item.get("start", 0) or 0
        if (lo is not None and start < lo) or (hi is not None and start > hi):
            raise SetupError(_("counter {name!r}: start {start} is outside its bounds", name=item['name'], start=start))
        if item["name"] in seen:
            raise SetupError(_("two counters are called {name!r}", name=item['name']))
        seen.add(item["name"])


def _normalise(items: list[str | dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": i} if isinstance(i, str) else dict(i) for i in items]


class Counters(Game):
    id = "counters"
    title = "Counters"
    generic = True
    #: The counters are what the table enters: up/down change the one shown, no select first.
    select_chooses_counter = False
    min_players = 1
    max_players = 8
    #: The presets' counters and the names tables give theirs most often; any other counter shows
    #: the generic icon (the counters are the table's own).
    icons = {"score": "star", "points": "star", "life": "heart", "poison": "skull", "gold": "coins",
             "coins": "coins", "wounds": "bandage", "victory": "trophy"}
    options_spec = (
        Option("counters", [{"name": "score"}], _("player counters: names or objects "
                                                "{name, start, min, max, out_at, target}"), kind=list,
               check=lambda v: _check_counter_list(v, per_player=True),
               presets=((_("score"), [{"name": "score"}]),
                        (_("life 20, out at 0"), [{"name": "life", "start": 20, "out_at": 0}]),
                        (_("life 40, out at 0"), [{"name": "life", "start": 40, "out_at": 0}]),
                        (_("points to 10"), [{"name": "points", "target": 10}]))),
        Option("table", [], _("table counters: names or objects {name, start, min, max}"), kind=list,
               check=lambda v: _check_counter_list(v, per_player=False)),
        Option("last_standing_wins", True, _("with an out_at counter, the last player still in wins")),
        # What the counters stand for, for the records: a play of "Catan" kept on counters is a play of Catan.
        Option("title", "", _("the title of the game these counters are kept for: the play records and their "
                               "exports name it (empty: Counters)"), kind=str, check=_check_title, role="record"),
        Option("bgg_id", 0, _("that game's BoardGameGeek id, for the exports (0: none)"), lo=0, role="record"),
    )

    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if not self.options["counters"]:
            raise SetupError(_("counters needs at least one player counter"))
        # (counter, mark, True when reached at or below the mark) for out_at and target, worked
        # out once: consequences run after every action.
        self._marks = {key: [(c["name"], c[key], c[key] < (c.get("start", 0) or 0))
                             for c in _normalise(self.options["counters"]) if c.get(key) is not None]
                       for key in ("out_at", "target")}

    def player_counter_specs(self) -> list[Counter]:
        return [self._spec(c) for c in _normalise(self.options["counters"])]

    def table_counter_specs(self) -> list[Counter]:
        return [self._spec(c) for c in _normalise(self.options["table"])]

    @staticmethod
    def _spec(c: dict[str, Any]) -> Counter:
        # Bounded only where the options say so: a plain score may go below 0.
        return Counter(c["name"], start=c.get("start", 0) or 0, lo=c.get("min"), hi=c.get("max"))

    def setup_extra(self, state: dict[str, Any]) -> None:
        state["turn"] = {"player": self.players[0], "number": 1}

    def _reached(self, key: str, counters: dict[str, Any]) -> tuple[str, int] | None:
        """The first (counter, mark) of kind ``key`` ("out_at", "target") these counters reach."""
        for name, mark, downwards in self._marks[key]:
            value = counters[name]
            if (value <= mark) if downwards else (value >= mark):
                return name, mark
        return None

    def consequences(self, t: Txn) -> None:
        before_in = [p["name"] for p in t.in_game()]
        for p in t.in_game():
            hit = self._reached("out_at", p["counters"])
            if hit:
                t.eliminate(p["name"], _("{counter} reached {mark}", counter=word("counter", hit[0]), mark=hit[1]))
        reached = [p["name"] for p in t.in_game() if self._reached("target", p["counters"])]
        still = [p["name"] for p in t.in_game()]
        if reached:
            t.finish(reached, why=_("target reached"))
        elif before_in and not still:
            t.finish(before_in, draw=True, why=_("everybody still in went out at once"))
        elif (len(still) == 1 and len(self.players) > 1 and self.options["last_standing_wins"]
              and self._marks["out_at"]):
            t.finish(still, why=_("last one standing"))
        turn = t.state["turn"]
        if t.player(turn["player"])["out"] and t.in_game():
            turn["player"] = t.next_in_game(turn["player"])

    @action("next")
    def _next(self, t: Txn, a: Args) -> None:
        """End the active player's turn: the next player still in, on the left, plays."""
        turn = t.state["turn"]
        turn["player"] = t.next_in_game(turn["player"])
        turn["number"] += 1

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        if not state["over"] and state["turn"]["player"] == name:
            return [{"label": word("label", "end turn"), "action": {"action": "next"}}]
        return []

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"turn": dict(state["turn"])}


GAME = Counters
