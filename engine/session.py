"""A game in play with its journal: every action acknowledged only once durable."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import RuleError, SetupError, WouldEnd
from .game import Game, Rng
from .journal import GameRecord, Journal, StaleJournal
from .match import Match, Proposal
from .messages import _
from .registry import make_rules
from .state import clone
from .text import ACTION_BYTES_MAX, check_value, clean_players


@dataclass
class Outcome:
    """What an acknowledged action did, and the game after it: the owner of a table hands ``state`` to
    whoever shows it, without asking the session again."""

    kind: str  # "action", "undo", "redo", "noop"
    entry: dict[str, Any]
    seq: int | None  # journal sequence number; None for a no-op (not journalled)
    events: list[str]
    state: dict[str, Any]  # the game after it (the match's own: read it, never change it)
    rules: Game
    text: str = ""  # the action in words, naming who did it (empty for undo/redo)
    note: bool = False  # a note: it changes no figure (Game.is_note)
    version: int = 0  # the session's version after it (Session.version)

    @property
    def view(self) -> dict[str, Any]:
        """The game after it as the rules show it (`tablekeeper act` prints it); worked out when asked."""
        return self.rules.view(self.state)


class Image(NamedTuple):
    """The game as it is now, for whoever shows it (the owner's snapshot): copies nothing can change
    under them, taken in one call."""

    game_id: int
    game: str
    rules: Game  # pure, never mutated: shared
    setup: dict[str, Any]
    state: dict[str, Any]
    view: dict[str, Any]
    done: tuple[dict[str, Any], ...]  # journal entries are never changed once done: shared, not copied
    can_undo: bool
    can_redo: bool
    version: int  # Session.version: it changes with every action, undo and redo


class Session:
    """One stored game: apply actions, each committed before it is acknowledged.

    ``rng`` (anything with ``randrange``) rolls the dice for actions that need
    one; the default is the OS's secure source. The rolled value is what the
    journal records.
    """

    def __init__(self, journal: Journal, record: GameRecord, match: Match, *, rng: Rng | None = None):
        self.journal = journal
        self.record = record
        self.match = match
        # random.SystemRandom reads os.urandom, the OS's secure source (as secrets does,
        # without importing hashlib/OpenSSL: ~4 MB less on a pod-only player).
        self.rng: Rng = rng or random.SystemRandom()
        self.warnings: list[str] = []
        self._next_seq = 0

    @property
    def version(self) -> int:
        """How many entries the game's journal holds: it changes with every action, undo and redo."""
        return self._next_seq

    @property
    def game_id(self) -> int:
        return self.record.id

    @property
    def rules(self) -> Game:
        return self.match.rules

    @property
    def state(self) -> dict[str, Any]:
        return self.match.state

    def view(self) -> dict[str, Any]:
        return self.match.view()

    def image(self) -> Image:
        """The whole game now, copied where it could change (:class:`Image`)."""
        match = self.match
        return Image(self.record.id, self.record.game, match.rules, clone(self.record.setup), clone(match.state),
                     match.view(), tuple(match.done), bool(match.done), bool(match.undone), self._next_seq)

    # -- opening ---------------------------------------------------------------
    @classmethod
    def new(cls, journal: Journal, game: str, players: list[str], options: dict[str, Any] | None = None,
            **kw: Any) -> Session:
        check_value(options or {}, _("the options"))
        setup = {"game": game, "players": clean_players(players), "options": options or {}}
        rules = make_rules(setup)  # refuses bad setups before anything is written
        setup["options"] = rules.options
        gid = journal.new_game(setup)
        record = journal.game(gid)
        if record is None:  # just written: only a journal that lost it can get here
            raise AssertionError(f"game {gid} was written but cannot be read back")
        return cls(journal, record, Match(rules), **kw)

    @classmethod
    def load(cls, journal: Journal, game_id: int, **kw: Any) -> Session:
        """Rebuild a stored game from its journal, stopping at the last good entry."""
        record = journal.game(game_id)
        if record is None:
            raise SetupError(_("there is no stored game {game_id}", game_id=game_id))
        match = Match(make_rules(record.setup))
        session = cls(journal, record, match, **kw)
        entries = journal.entries(game_id)
        used = match.load([entry for _seq, entry in entries])
        if used < len(entries):
            seq, entry = entries[used]
            why: str
            try:  # say why, in the rules' own words
                probe = Match(match.rules)
                probe.load([e for _seq, e in entries[:used]])
                probe.propose(entry)
                why = _("it is not a valid action")
            except RuleError as e:
                why = str(e)
            journal.cut(game_id, seq, _("entry {seq} of game {game} does not replay ({why})", seq=seq, game=game_id,
                                          why=why))
        session._next_seq = used
        session.warnings = list(journal.warnings)
        return session

    def refresh(self) -> bool:
        """Catch up with actions another process journalled for this game; True if there were any.

        Called when the journal says it changed elsewhere (a command-line
        ``act`` while ``serve`` or the app holds the game). If the other
        process cut the game short, the whole game is rebuilt.
        """
        stored = self.journal.next_seq(self.game_id)
        if stored == self._next_seq:
            return False
        record = self.journal.game(self.game_id) or self.record
        if stored < self._next_seq:
            fresh = Session.load(self.journal, self.game_id, rng=self.rng)
            self.__dict__.update(fresh.__dict__)
            return True
        for seq, entry in self.journal.entries(self.game_id, since=self._next_seq):
            try:
                self.match.replay(entry)
            except RuleError:
                fresh = Session.load(self.journal, self.game_id, rng=self.rng)
                self.__dict__.update(fresh.__dict__)
                return True
            self._next_seq = seq + 1
        # The replay changed the state in place (quick, for loading): the live state becomes a new
        # object, so that nothing worked out from the old one by its identity (a pod's offers, menus
        # and seat view, remembered per state) is taken for the new one.
        self.match.state = clone(self.match.state)
        self.record = record
        return True

    @classmethod
    def resume(cls, journal: Journal, **kw: Any) -> Session | None:
        """The last unfinished game, exactly where it was (None if there is none)."""
        record = journal.last_unfinished()
        return cls.load(journal, record.id, **kw) if record else None

    # -- playing ---------------------------------------------------------------
    def apply(self, entry: dict[str, Any], *, short_of_end: bool = False) -> Outcome:
        """Validate, journal (commit), then make current; raises RuleError if illegal.

        ``short_of_end``: an action that would end the game is not taken (:class:`WouldEnd`,
        nothing written), so that its player confirms it first (a pod's press).
        If another process journalled an action of this game first, the
        session catches up and proposes ``entry`` again on the new state.
        """
        check_value(entry)
        if len(repr(entry)) > ACTION_BYTES_MAX:
            raise RuleError(_("the action is too long (at most {ACTION_BYTES_MAX} characters)", ACTION_BYTES_MAX=ACTION_BYTES_MAX))
        for _attempt in range(8):
            try:
                return self._apply(entry, short_of_end)
            except StaleJournal:
                self.refresh()
        raise RuleError(_("other writers keep changing this game; try again"))

    def _apply(self, entry: dict[str, Any], short_of_end: bool = False) -> Outcome:
        text = ""
        if isinstance(entry, dict) and entry.get("action") not in ("undo", "redo", None):
            entry = self.rules.prepare(self.match.state, dict(entry), self.rng)
        p: Proposal = self.match.propose(entry)
        if p.kind in ("action", "noop"):
            text = self.rules.words(self.match.state, p.entry)
        if p.kind == "noop":
            return Outcome("noop", p.entry, None, p.events, p.state, self.rules, text, version=self._next_seq)
        was_over = self.match.state["over"]
        now_over = p.state["over"]
        if short_of_end and now_over and not was_over:
            raise WouldEnd(_("this ends the game"))
        result = self.rules.outcome(p.state) if now_over and not was_over else None
        self.journal.append(self.game_id, self._next_seq, p.entry, result=result,
                            reopen=was_over and not now_over)
        seq = self._next_seq
        self._next_seq += 1
        self.match.accept(p)
        return Outcome(p.kind, p.entry, seq, p.events, self.match.state, self.rules, text,
                       note=p.kind == "action" and self.rules.is_note(p.entry), version=self._next_seq)

    def history(self, since: int = 0) -> list[dict[str, Any]]:
        """The journal of this game in words: one item per entry from ``since`` on.

        The game is replayed alongside, so each action is told as done in its
        own state ("Ben drinks", when the entry itself only says "drink").
        """
        out = []
        match = Match(self.rules)
        for seq, entry in self.journal.entries(self.game_id):
            name = entry.get("action")
            if seq >= since:
                text = name if name in ("undo", "redo") else self.rules.words(match.state, entry)
                out.append({"seq": seq, "entry": entry, "text": text})
            try:
                match.replay(entry)
            except RuleError:
                break  # load() has already cut such an entry; nothing after it is told
        return out
