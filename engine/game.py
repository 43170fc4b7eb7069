"""The game-definition base class and the actions every game accepts.

A game is a subclass of :class:`Game` that declares its id, player range,
counters, options and actions (methods marked with :func:`action`), and the
consequences checked after every action. An instance is one set of rules bound
to a table: the players' names and the chosen options.

Everything here is pure: an action turns one state into the next or raises
:class:`RuleError`, and the same inputs always give the same output.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Required, TypedDict, TypeVar

from .errors import RuleError, SetupError
from .fields import Field, Int, Player, Str
from .messages import Msg, _, listing, word
from .preview import Preview, preview
from .spec import Counter, Option
from .state import Args, Txn, clone


class Rng(Protocol):
    """What :meth:`Game.prepare` needs of a random source (``random.Random`` has it)."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...


#: An action's handler: a method ``(self, t: Txn, a: Args) -> None`` of a game class.
Handler = Callable[..., None]
_H = TypeVar("_H", bound=Handler)


@dataclass(frozen=True)
class ActionInfo:
    name: str
    fn: Handler
    when_over: bool
    adjustment: bool
    doc: str
    fields: tuple[Field, ...] = ()
    note: bool = False
    tells: bool = False

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def help(self) -> Msg:
        """The action's one-line help (its docstring's first sentence), a message a screen translates."""
        return Msg(first_sentence(self.doc), context="help")

    def describe(self) -> dict[str, Any]:
        """The action as ``tablekeeper games --json`` shows it: its help and its fields."""
        return {"name": self.name, "doc": self.doc.split("\n\n")[0].replace("\n", " "),
                "fields": [f.describe() for f in self.fields]}


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring, its lines joined ("e.g." and "i.e." do not end it)."""
    text = " ".join((doc or "").split())
    match = re.search(r"(?<!e\.g)(?<!i\.e)\. ", text)
    return text[:match.start() + 1] if match else text


def action(name: str | None = None, *, when_over: bool = False, adjustment: bool = False,
           fields: tuple[Field, ...] = (), note: bool = False, tells: bool = False) -> Callable[[_H], _H]:
    """Mark a method ``(self, t: Txn, a: Args)`` as the action ``name`` taking ``fields``.

    ``fields`` (engine/fields.py) is the one statement of what the action
    takes: any other field is refused, and the handler may read no other;
    its reads take each field's default, bounds and choices from it.
    ``when_over``: still allowed after the game ended. ``adjustment``: a
    correction that a pending "last chance" window does not close (see
    :meth:`Game.before_action`). ``note``: a question to the referee that
    changes no counter (Dale's payment check): journalled and shown like any
    action, but not an undo step of its own — undo takes back the last other
    action together with the notes after it (engine/match.py). ``tells``: its outcome is not in what the
    player entered (a roll against the cards left: escaped or caught), so the pod that did it shows what
    the rules said of it.
    """

    def deco(fn: _H) -> _H:
        vars(fn)["_tk_action"] = (name or fn.__name__, when_over, adjustment, tuple(fields), note, tells)
        return fn

    return deco


def _value_words(value: Any) -> Any:
    """A field's value as the history says it: a name of the game's as its word ("elven_wine" → the
    drink's word), a list item by item, anything else as it is."""
    if isinstance(value, str) and value.replace("_", "").isalpha():
        return word("choice", value)
    if isinstance(value, list):
        return listing((_value_words(v) for v in value), " ")
    return value


class Offer(TypedDict, total=False):
    """One routine action a seat's pod offers now (:meth:`Game.seat_actions`, most likely first)."""

    #: what the pod's bottom line says ("drink", "kill a rank-2 guest"): a word or sentence of the game
    label: Required[Msg | str]
    #: a complete, legal-looking action for this player; the engine still validates it
    action: Required[dict[str, Any]]
    #: optional fields the pod asks before doing it, in this order, each starting at the action's value
    #: or the field's default
    ask: list[str]
    #: done again while main is held (a card's point a press), and shown again after a click
    repeat: bool
    #: on the first offer: after a card held on, the pod stays on that card rather than come back to this
    #: one by itself (a last chance's "resolve")
    guarded: bool
    #: shown (its preview) before it is done: one more press (an action a stray press must not do)
    confirm: bool
    #: a list step's fewest numbers: main adds the number shown and starts the next, from the option after it,
    #: until the list holds that many (a welcome with two police officers: a play-tester's main on the first
    #: room ended the list)
    least: int
    #: the kind of line ("buy", "stack", "tech +1 draw"), in a game whose moments offer long lists: a select
    #: click on the pod goes to the first line of the next kind (in the game's ``offer_kinds`` order)
    group: str


def offer(label: Msg | str, action: dict[str, Any], *, ask: list[str] | None = None, confirm: bool = False) -> Offer:
    """An :class:`Offer` that asks ``ask`` (when there is anything to ask) and is ``confirm``-ed (when it is)."""
    out: Offer = {"label": label, "action": action}
    if ask:
        out["ask"] = ask
    if confirm:
        out["confirm"] = True
    return out


class Game:
    """Base of every game definition.

    Subclasses set the class attributes and override the hooks they need:
    :meth:`player_counter_specs`, :meth:`table_counter_specs`,
    :meth:`setup_extra`, :meth:`before_action`, :meth:`consequences`,
    :meth:`resolve_pending`, :meth:`prepare`, :meth:`view_extra`,
    :meth:`describe`; and, for what the screens and the command line say
    about it without naming it, :attr:`main_counter`,
    :attr:`main_table_counter`, :meth:`starter_hint`,
    :meth:`outcome`, :meth:`result_words`, :meth:`result_line`.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: A game for anything (listed after the named games).
    generic: ClassVar[bool] = False
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    options_spec: ClassVar[tuple[Option, ...]] = ()
    actions: ClassVar[dict[str, ActionInfo]] = {}
    #: The player counter that decides the game (the end screen's chart follows it); None: no
    #: preference (the screens take the first player counter).
    main_counter: ClassVar[str | None] = None
    #: The table counter the whole table watches (the tension of the game: Dragon Run's dragon's temper),
    #: shown large on the table screen; None: the table counters are equals.
    main_table_counter: ClassVar[str | None] = None
    #: Actions a seat's pod never lists in its menu: corrections that belong on the touchscreen
    #: (the pod still does whatever the game's ``seat_actions`` offer).
    off_pod: ClassVar[frozenset[str]] = frozenset()
    #: Each counter's icon (player and table counters): a name of ``tablekeeper.hardware.icons.GLYPHS``
    #: ("coins", "heart", "fire"); the screens and pods draw it beside the counter's name.
    icons: ClassVar[Mapping[str, str]] = {}
    #: A pod's up/down change a counter by hand only once its player chose it with select, for the
    #: turn (a stray press changes nothing); False for a game whose counters are its whole input.
    select_chooses_counter: ClassVar[bool] = True
    #: The order a pod's select visits the kinds of offer in (each :class:`Offer`'s ``group``), in a game whose
    #: moments offer long lists; kinds not named follow in the list's order.
    offer_kinds: ClassVar[tuple[str, ...]] = ()
    #: The kinds reached with up from the first offer (the list wraps): select lands on the line up reaches
    #: first, each kind's last in the list.
    offer_kinds_up: ClassVar[tuple[str, ...]] = ()
    #: Counters a pod tells by their new value, not by how much they moved: a figure the device works out
    #: whose difference means nothing ("highest 5", the hand's highest card, not "highest −1").
    told_by_value: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        found: dict[str, ActionInfo] = {}
        for klass in reversed(cls.__mro__):
            for fn in vars(klass).values():
                meta = getattr(fn, "_tk_action", None)
                if meta:
                    name, when_over, adjustment, fields, note, tells = meta
                    found[name] = ActionInfo(name, fn, when_over, adjustment, (fn.__doc__ or "").strip(), fields,
                                             note, tells)
        cls.actions = found

    # -- construction --------------------------------------------------------
    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise SetupError(_("players must be a list of names"))
        if len(set(players)) != len(players):
            raise SetupError(_("two players have the same name; names must be different"))
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                _("{game} is for {lo}–{hi} players, not {n}", game=self.title or self.id, lo=self.min_players,
                  hi=self.max_players, n=n)
            )
        self.players = tuple(players)
        self.options = self._resolve_options(options or {})
        self.player_counters: dict[str, Counter] = {c.name: c for c in self.player_counter_specs()}
        self.table_counters: dict[str, Counter] = {c.name: c for c in self.table_counter_specs()}

    def _resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(given, dict):
            raise SetupError(_("options must be an object"))
        known = {o.name: o for o in self.options_spec}
        for key in given:
            if key not in known:
                names = listing(word("option", k) for k in known) if known else _("none")
                raise SetupError(_("{game} has no option {key!r} (options: {names})", game=self.id, key=key,
                                   names=names))
        return {name: (o.validate(given[name]) if name in given else clone(o.default)) for name, o in known.items()}

    @classmethod
    def describe_game(cls) -> dict[str, Any]:
        """What ``tablekeeper games`` shows: ids, player range, counters, options."""
        probe = cls._probe()
        return {
            "id": cls.id,
            "title": cls.title,
            "players": [cls.min_players, cls.max_players],
            "counters": {
                "player": [c.describe() for c in probe.player_counters.values()],
                "table": [c.describe() for c in probe.table_counters.values()],
            },
            "options": [o.describe() for o in cls.options_spec],
            "actions": sorted(cls.actions),
            "action_fields": [info.describe() for info in cls.actions.values()],
        }

    @classmethod
    def _probe(cls) -> Game:
        n = max(cls.min_players, min(4, cls.max_players))
        return cls([f"P{i + 1}" for i in range(n)], {})

    # -- what the screens and the command line say about the game ------------
    @classmethod
    def starter_hint(cls, options: dict[str, Any]) -> Msg | None:
        """Who starts, in the rulebook's words ("The bravest player starts"); None: the rules say nothing.

        ``options`` are the options chosen so far (possibly incomplete: the new-game screen asks before
        the game is set up).
        """
        return None

    def rematch(self, state: dict[str, Any], starter: str | None = None) -> dict[str, Any]:
        """The setup of the next game after the finished game ``state``: ``{"game", "players",
        "options"}``, the same players in the same seats with the same options.

        A game whose rulebook says who starts the next game overrides it (Dale of Merchants: one of
        the losers). ``starter``: who the table wants to start (None: as the rules say); a game
        without a rule for it turns the seat order so that ``starter`` comes first. Raises
        SetupError for an unknown name.
        """
        names = [p["name"] for p in state["players"]]
        if starter is not None and starter not in names:
            raise SetupError(_("{who} did not play the last game", who=starter))
        i = names.index(starter) if starter is not None else 0
        return {"game": self.id, "players": names[i:] + names[:i], "options": dict(self.options)}

    def outcome(self, state: dict[str, Any]) -> dict[str, Any]:
        """What a finished game stores as its result (the journal's games table): JSON, kept short.

        Default: ``{"winners": [...], "draw": bool}``; a game adds its own keys
        (and says them in :meth:`result_line`).
        """
        return {"winners": list(state["winners"]), "draw": state["draw"]}

    def result_words(self, state: dict[str, Any]) -> Msg:
        """How a finished game ended, in a few words ("Ana won", "a draw", "no winner")."""
        if state.get("draw"):
            return _("a draw")
        if state["winners"]:
            return _("{names} won", names=listing(state["winners"], _(" and ")))
        return _("no winner")

    @classmethod
    def result_line(cls, result: dict[str, Any]) -> Msg:
        """A stored result (what :meth:`outcome` returned) in a few words, for a list of past games
        ("won by Ana", "draw: Ana, Ben", "no winner")."""
        winners = [str(w) for w in result.get("winners") or []]
        if result.get("draw"):
            return _("draw: {names}", names=listing(winners))
        if winners:
            return _("won by {names}", names=listing(winners))
        return _("no winner")

    # -- hooks ---------------------------------------------------------------
    def player_counter_specs(self) -> list[Counter]:
        return []

    def table_counter_specs(self) -> list[Counter]:
        return []

    def setup_extra(self, state: dict[str, Any]) -> None:
        """Add the game's own keys to a fresh state (turn, piles, ...)."""

    def before_action(self, t: Txn, info: ActionInfo, a: Args) -> None:
        """Called before every action's handler (e.g. to close a last-chance window)."""

    def consequences(self, t: Txn) -> None:
        """Apply what follows from the numbers: caps, eliminations, end, winners."""

    def resolve_pending(self, t: Txn) -> None:
        """Apply what waits in ``state["pending"]``; default: nothing waits."""

    def prepare(self, state: dict[str, Any], action: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Fill in random values (dice) before an action is journalled.

        ``rng`` has ``randrange``. The returned action is what the journal
        records, so replay never draws again. Default: unchanged.
        """
        return action

    def preview(self, state: dict[str, Any], action: dict[str, Any]) -> Preview:
        """What ``action`` would do now, for the pods' and the dialogs' previews alike: its changes,
        what the device would draw, what depends on that draw (engine/preview.py). Raises the
        RuleError that would refuse it; ``state`` is not touched."""
        return preview(self, state, action)

    def view_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        """Game-specific top-level keys for the public JSON view."""
        return {}

    def seat_view(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        """What one seat's pod shows, in game words (no pixels).

        Returns ``{"counters": [[counter, value], ...]`` (display order, the
        first is the default focus), ``"status"``: a short line (aim for ≤ 20
        characters: "your turn: drink", "PASSING OUT", "out", "winner"),
        ``"alert"``: true when the player must act now (a last chance),
        ``"table"``: ``[[label, value], ...]`` the one or two table figures
        that matter now (pot, temper, actions left)}``.
        """
        p = next(p for p in state["players"] if p["name"] == name)
        last_chance = False
        status: str  # a word of the game, or "" (nothing to say)
        if state["over"]:
            status = word("status", "draw") if state["draw"] and name in state["winners"] else (
                word("status", "winner") if name in state["winners"] else word("status", "game over"))
        elif p["out"]:
            status = word("status", "out")
        elif any(item.get("name") == name for item in state["pending"]):
            status, last_chance = word("status", "LAST CHANCE"), True
        elif state.get("turn", {}).get("player") == name:
            status = word("status", "your turn")
        else:
            status = ""
        return {
            "counters": [[k, v] for k, v in p["counters"].items()],
            "status": status,
            "alert": last_chance,
            "table": [[k, v] for k, v in state["table"].items()][:2],
        }

    def seat_actions(self, state: dict[str, Any], name: str) -> list[Offer]:
        """The routine actions a seat's pod offers now, most likely first (each an :class:`Offer`:
        ``{"label": "drink", "action": {...}}``, and what the pod asks or guards). The pod's main button
        does the first. Default: none.
        """
        return []

    def seats(self, state: dict[str, Any], names: list[str]) -> dict[str, tuple[dict[str, Any], list[Offer]]]:
        """Every one of ``names``' :meth:`seat_view` and :meth:`seat_actions` in ``state``, in one answer:
        what the pods' interface asks of a new state for all the seats it shows."""
        return {name: (self.seat_view(state, name), self.seat_actions(state, name)) for name in names}

    def is_note(self, entry: Any) -> bool:
        """Whether a journal entry is a note (an action declared ``note=True``): not an undo step of its own."""
        name = entry.get("action") if isinstance(entry, dict) else None
        info = self.actions.get(name) if isinstance(name, str) else None
        return bool(info and info.note)

    def table_news(self, before: dict[str, Any], after: dict[str, Any], events: Sequence[Any]) -> list[Msg]:
        """What every pod says of an action's effect on the table itself, which nobody's figures show and the
        players must do with their cards (Dragon Run: the treasure deck reshuffled). Default: nothing."""
        return []

    def tells(self, entry: Any) -> bool:
        """Whether the pod that did a journal entry shows what the rules said of it (an action declared
        ``tells=True``: its outcome is not in what its player entered)."""
        name = entry.get("action") if isinstance(entry, dict) else None
        info = self.actions.get(name) if isinstance(name, str) else None
        return bool(info and info.tells)

    def pod_actions(self, state: dict[str, Any], name: str) -> list[str]:
        """The actions a seat's pod menu lists for ``name`` after its ``seat_actions``, most likely first.

        The pod asks their fields one by one (:meth:`pod_field`) and dry-runs
        the result, so a game only narrows the list when it knows better.
        Default: every declared action but the :attr:`off_pod` ones, the game's
        own before the generic corrections every game has.
        """
        every_game = {vars(fn)["_tk_action"][0] for fn in vars(Game).values() if hasattr(fn, "_tk_action")}
        generic = [n for n in self.actions if n in every_game]
        own = [n for n in self.actions if n not in every_game]
        return [n for n in own + generic if n not in self.off_pod]

    def moved_by_hand(self, state: dict[str, Any], name: str, counter: str) -> bool:
        """Whether ``name`` may move their ``counter`` by hand now: a pod's up/down on it is an
        ``adjust``. Default: the counter is ``free`` (engine/spec.py); a game narrows it to the moments
        its rules allow (a stray press on a pod must change nothing the rules do not let its owner
        change). The touchscreen's and the menu's corrections are not this."""
        spec = self.player_counters.get(counter)
        return spec is not None and spec.free

    def pod_value_words(self, state: dict[str, Any], name: str, action: str, field: str, value: Any,
                        entered: dict[str, Any] | None = None) -> Msg | None:
        """What a value being entered on ``name``'s pod stands for, when its number alone does not say
        it (a corpse's number: "rank 1, 12F"; "–" left out: what it then is), shown beside the field's
        name; ``entered``: the action as the steps so far make it. None: nothing to add."""
        return None

    def pod_value_shown(self, state: dict[str, Any], name: str, action: str, field: str, value: Any) -> Msg | None:
        """What a pod shows in place of a number being entered, when the number is the device's own and the
        table has none to read (a room of the inn by its key: "neutral 2", not "6"). None: the number."""
        return None

    def pod_step_wanted(self, state: dict[str, Any], name: str, action: dict[str, Any], field: str) -> bool:
        """Whether a seat's pod asks ``field`` once ``action`` holds what the earlier steps entered: a
        step that matters only for some answers to an earlier one is passed over for the others (a
        power's amount only when a power with an amount was chosen). Default: every step is asked."""
        return True

    def pod_field(self, state: dict[str, Any], name: str, action: str, field: Field,
                  given: dict[str, Any] | None = None) -> Field | None:
        """How a seat's pod asks ``field`` of ``action`` for ``name``: a field (the declared one, or a
        stand-in a pod can enter with four buttons), or None: the pod leaves it out. ``given``: what the
        offer being entered already holds (a card taken from another hand: whose), None from the menu.

        Default: the declared field; a counter's name is a choice among the
        player counters; free text and ``raw`` values are left out (a game that
        knows how to ask one returns a stand-in, e.g. a choice among the decks
        in play). A required field left out keeps the action off the pod.
        """
        if field.kind == "raw":
            return None
        if field.kind == "str" and not field.choices:
            if field.name == "counter" and action in ("adjust", "transfer"):
                return Field(field.name, "str", field.required, field.default, tuple(self.player_counters),
                             doc=field.doc)
            return None
        return field

    def describe(self, action: dict[str, Any]) -> str:
        """One action in words, for the history (see :meth:`words` for naming who acted)."""
        name = action.get("action")
        if name == "adjust":
            who = action.get("player", _("table"))
            return _("{who}: {counter} {delta:+d}", who=who, counter=word("counter", str(action.get("counter"))),
                     delta=action.get("delta", 0))
        if name == "transfer":
            return _("{giver} gives {taker} {amount} {counter}", giver=action.get("from"), taker=action.get("to"),
                     amount=action.get("amount"), counter=word("counter", str(action.get("counter"))))
        who = action.get("player")
        fields = listing(_("{field} {value}", field=word("field", k), value=_value_words(v))
                         for k, v in action.items() if k not in ("action", "player"))
        what = word("action", str(name))
        if isinstance(who, str):
            return _("{who}: {action} ({fields})", who=who, action=what, fields=fields) if fields else \
                _("{who}: {action}", who=who, action=what)
        return _("{action} ({fields})", action=what, fields=fields) if fields else what

    def actor(self, state: dict[str, Any], action: dict[str, Any]) -> str | None:
        """Who does ``action``: its "player", else whose turn it is; None for the generic corrections."""
        if action.get("action") in ("adjust", "transfer", "resolve"):
            return None
        player = action.get("player")
        if isinstance(player, str):
            return player
        turn = state.get("turn")
        who = turn.get("player") if isinstance(turn, dict) else None
        return who if isinstance(who, str) else None

    def words(self, state: dict[str, Any], action: dict[str, Any]) -> str:
        """``action`` in words as done in ``state`` (the state before it): names the actor when the
        action leaves them implicit ("Ben drinks", not "the active player drinks")."""
        who = self.actor(state, action)
        if who and "player" not in action:
            action = dict(action, player=who)
        return self.describe(action)

    # -- state ---------------------------------------------------------------
    def setup_state(self) -> dict[str, Any]:
        n = len(self.players)
        state = {
            "players": [
                {
                    "name": name,
                    "counters": {c.name: c.start_value(n, self.options) for c in self.player_counters.values()},
                    "out": False,
                }
                for name in self.players
            ],
            "table": {c.name: c.start_value(n, self.options) for c in self.table_counters.values()},
            "pending": [],
            "over": False,
            "winners": [],
            "draw": False,
        }
        self.setup_extra(state)
        return state

    def apply(self, state: dict[str, Any], action: Any, *, in_place: bool = False) -> tuple[dict[str, Any], list[str]]:
        """Apply one action; returns (new state, events) or raises RuleError.

        Unless ``in_place`` (used when replaying a journal that was valid when
        written), ``state`` is not touched: a refused action changes nothing.
        """
        if not isinstance(action, dict):
            raise RuleError(_("an action must be a JSON object, not {action!r}", action=action))
        name = action.get("action")
        if not isinstance(name, str):
            raise RuleError(_('an action needs a field "action" naming it'))
        info = self.actions.get(name)
        if info is None:
            if name in ("undo", "redo"):
                raise RuleError(_("{name} is handled by the match, not by a game", name=name))
            known = listing(sorted(self.actions) + ["undo", "redo"])
            raise RuleError(_("{game} has no action {name!r} (actions: {known})", game=self.title or self.id,
                              name=name, known=known))
        if state["over"] and not info.when_over:
            raise RuleError(_("the game is over ({result}); only undo is possible", result=self.result_words(state)))
        declared = {f.name: f for f in info.fields}
        extra = sorted(k for k in action if k != "action" and k not in declared)
        if extra:  # before anything else: a typo must not hide behind another refusal
            raise RuleError(_("{action}: unexpected field {field!r}", action=name, field=extra[0]))
        t = Txn(self, state if in_place else clone(state))
        a = Args(t, action, declared)
        self.before_action(t, info, a)
        info.fn(self, t, a)
        a.finish()
        if not t.state["over"]:
            self.consequences(t)
        return t.state, t.events

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The public JSON view (the ``tablekeeper replay`` contract)."""
        out = {
            "game": self.id,
            "players": clone(state["players"]),
            "table": clone(state["table"]),
            "pending": clone(state["pending"]),
            "over": state["over"],
            "winners": list(state["winners"]),
            "draw": state["draw"],
        }
        out.update(self.view_extra(state))
        return out

    # -- actions every game accepts ----------------------------------------
    @action("adjust", adjustment=True, fields=(
        Player("player", required=False, doc=_("whose counter (none: a table counter)")),
        Str("counter", doc=_("which counter")), Int("delta", doc=_("how much to add (negative: take away)"))))
    def _adjust(self, t: Txn, a: Args) -> None:
        """Change a player's counter (or, without "player", a table counter) by "delta".

        Bounds clamp: an effect that cannot fully apply applies as far as it
        can. Where the counter has a bank, the bank is the other side.
        """
        who = a.player("player", None)
        counter = a.str("counter")
        delta = a.int("delta")
        self.adjust(t, who, counter, delta)

    def adjust(self, t: Txn, who: str | None, counter: str, delta: int) -> int:
        """The generic adjustment; games may override to add their rules."""
        applied = t.add(who, counter, delta)
        spec = t.spec(counter, who)
        if spec.bank and applied:
            t.add(None, spec.bank, -applied)
        return applied

    @action("transfer", adjustment=True, fields=(
        Player("from", doc=_("who gives")), Player("to", doc=_("who receives")),
        Str("counter", doc=_("which counter")), Int("amount", lo=1, doc=_("how much"))))
    def _transfer(self, t: Txn, a: Args) -> None:
        """Move "amount" of "counter" from one player to another (only as much as the giver has)."""
        giver = a.player("from")
        taker = a.player("to")
        counter = a.str("counter")
        amount = a.int("amount")
        if giver == taker:
            raise RuleError(_("{giver} cannot give {counter} to themselves", giver=giver, counter=word("counter", counter)))
        self.transfer(t, giver, taker, counter, amount)

    def transfer(self, t: Txn, giver: str, taker: str, counter: str, amount: int) -> int:
        """Generic transfer: the giver pays ``amount``, only as much as they have.

        The taker's bounds clamp like any adjustment: what does not fit is lost,
        and an event says so. Returns what the giver paid.
        """
        spec = t.spec(counter, giver)
        have = t.get(giver, counter)
        paid = max(0, min(amount, have - spec.lo)) if spec.lo is not None else amount
        if paid < amount:
            t.event(_("{giver} had only {paid} {counter} to give", giver=giver, paid=paid, counter=word("counter", counter)))
        if paid:
            t.add(giver, counter, -paid)
            t.add(taker, counter, paid)
        return paid

    @action("resolve", adjustment=False)
    def _resolve(self, t: Txn, a: Args) -> None:
        """Close a pending "last chance" window and apply what is pending (no-op when nothing is)."""
        if t.state["pending"]:
            self.resolve_pending(t)
