"""Players as people: a name entered once, with its colour and usual seat.

The journal's games keep the names they were played with, forever: a rename
or a merge never rewrites a stored game. The roster maps stored names to
people instead: each person has a name (what is shown now), the stored names
that are theirs (``aliases``, the person's own name among them), a colour (an
index into the app's player colours) and the seat they usually take (1-based,
None when unknown).

The roster lives in the journal itself, as one JSON value under the ``meta``
key :data:`META_KEY`, written in one durable transaction like every action
(``synchronous=FULL``): a pulled plug leaves the old roster or the new one,
never half of it; a backup of the journal carries it along; and the journal's
salvage of a damaged file keeps ``meta`` rows, the roster among them. No table
is added: an older version opens the file as it was.

A journal without a roster (one from before rosters, or whose roster was lost)
gets one built from its stored games' names: :meth:`Roster.built_from`.
"""
from __future__ import annotations

import json
from collections import Counter as Tally
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import SetupError
from .journal import Journal
from .messages import Msg, _
from .text import clean_name

META_KEY = "roster"
FORMAT = 1
#: How many player colours the app has (ui.widgets.PLAYER_COLOURS; ui.settings.COLOURS).
COLOURS = 8


class RosterError(SetupError):
    """A roster change that cannot be made (an unknown name, a name taken); the message says why."""


class NewerRoster(ValueError):
    """The stored roster is of a format newer than this version reads."""


@dataclass
class Person:
    name: str
    aliases: list[str]  # the stored names that are this person's (their own name always among them)
    colour: int = 0
    seat: int | None = None
    bgg_user: str = ""  # their BoardGameGeek user name, for play logs

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "aliases": list(self.aliases), "colour": self.colour, "seat": self.seat,
                "bgg_user": self.bgg_user}


@dataclass
class Roster:
    people: list[Person] = field(default_factory=list)
    #: Why this roster must not be stored (None: it may): the journal holds a roster this version
    #: cannot read (a newer tablekeeper's), which a save would destroy.
    read_only: str | None = None

    # -- reading -------------------------------------------------------------------------
    def find(self, name: str) -> Person | None:
        """The person a name (theirs or one of their stored names) belongs to."""
        for p in self.people:
            if name == p.name or name in p.aliases:
                return p
        return None

    def person_of(self, stored: str) -> str:
        """The person's name for a stored name; a name the roster does not know is its own person."""
        p = self.find(stored)
        return p.name if p is not None else stored

    def names(self) -> list[str]:
        return [p.name for p in self.people]

    # -- changing ------------------------------------------------------------------------
    def _taken(self, name: str, by: Person | None = None) -> None:
        other = self.find(name)
        if other is not None and other is not by:
            raise RosterError(_("{name} is already {person}'s name; to make them one, merge them",
                                 name=repr(name), person=repr(other.name)))

    def add(self, name: str, colour: int | None = None, seat: int | None = None, bgg_user: str = "") -> Person:
        name = clean_name(name)
        self._taken(name)
        if colour is None:
            used = Tally(p.colour for p in self.people)
            colour = min(range(COLOURS), key=lambda c: (used[c], c))
        person = Person(name, [name], _colour(colour), _seat(seat), bgg_user.strip())
        self.people.append(person)
        return person

    def update(self, name: str, *, colour: int | None = None, seat: int | None = None,
               bgg_user: str | None = None) -> Person:
        person = self._get(name)
        if colour is not None:
            person.colour = _colour(colour)
        if seat is not None:
            person.seat = _seat(seat)
        if bgg_user is not None:
            person.bgg_user = bgg_user.strip()
        return person

    def rename(self, old: str, new: str) -> Person:
        """Call the person ``old`` ``new`` from now on; the games stored as ``old`` stay theirs."""
        person = self._get(old)
        new = clean_name(new)
        self._taken(new, person)
        person.name = new
        if new not in person.aliases:
            person.aliases.append(new)
        return person

    def merge(self, keep: str, other: str, together: Iterable[Sequence[str]] = ()) -> Person:
        """Make ``other`` the same person as ``keep``: ``other``'s stored names become ``keep``'s.

        ``together``: the stored games' player lists; two people who sat at one table are two
        people, and the merge is refused.
        """
        a, b = self._get(keep), self._get(other)
        if a is b:
            raise RosterError(_("{keep} and {other} are already one person", keep=repr(keep), other=repr(other)))
        mine, theirs = set(a.aliases), set(b.aliases)
        for players in together:
            names = set(players)
            if names & mine and names & theirs:
                raise RosterError(_("{a} and {b} played in the same game: they are two people", a=a.name, b=b.name))
        a.aliases += [n for n in b.aliases if n not in a.aliases]
        if a.seat is None:
            a.seat = b.seat
        if not a.bgg_user:
            a.bgg_user = b.bgg_user
        self.people.remove(b)
        return a

    def remove(self, name: str) -> None:
        """Forget a person (their stored games keep their names, which count as their own people)."""
        self.people.remove(self._get(name))

    def _get(self, name: str) -> Person:
        p = self.find(name)
        if p is None:
            raise RosterError(_("there is no player {name} in the roster (players: {names})", name=repr(name),
                                names=", ".join(self.names()) or "-"))
        return p

    # -- the stored games -------------------------------------------------------------
    def take_in(self, games: Iterable[Sequence[str]]) -> list[Person]:
        """Add a person for every stored name the roster does not know yet; returns the new people.

        Each new person's seat is the one they took most often (the earliest on a tie); colours
        go round the app's palette in order of first appearance.
        """
        seats: dict[str, Tally[int]] = {}
        order: list[str] = []
        for players in games:
            for i, name in enumerate(players):
                if self.find(name) is None:
                    if name not in seats:
                        seats[name] = Tally()
                        order.append(name)
                    seats[name][i + 1] += 1
        new = []
        for name in order:
            tally = seats[name]
            best = max(tally.values())
            seat = min(s for s, n in tally.items() if n == best)
            person = Person(name, [name], len(self.people) % COLOURS, seat)
            self.people.append(person)
            new.append(person)
        return new

    @classmethod
    def built_from(cls, games: Iterable[Sequence[str]]) -> Roster:
        """A roster of every name in the stored games (each name its own person)."""
        roster = cls()
        roster.take_in(games)
        return roster

    # -- as stored -------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "people": [p.to_dict() for p in self.people]},
                          ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Roster:
        """A stored roster; ValueError when it is not one (or of a newer format)."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("people"), list):
            raise ValueError(_("not a roster"))
        if not isinstance(data.get("format"), int):
            raise ValueError(_("a roster without a format"))
        if data["format"] > FORMAT:
            raise NewerRoster(_("the journal's roster was written by a newer tablekeeper (format {format}; "
                                "this version reads format {reads})", format=data["format"], reads=FORMAT))
        people = []
        for d in data["people"]:
            name = d["name"]
            aliases = [str(a) for a in d.get("aliases", [])]
            if not isinstance(name, str) or not name:
                raise ValueError(_("a person without a name"))
            if name not in aliases:
                aliases.append(name)
            colour, seat = d.get("colour", 0), d.get("seat")
            people.append(Person(name, aliases, _colour(colour if isinstance(colour, int) else 0),
                                 seat if isinstance(seat, int) and seat >= 1 else None, str(d.get("bgg_user") or "")))
        return cls(people)


def _colour(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < COLOURS:
        raise RosterError(_("a colour is a number from 0 to {last}, not {value}", last=COLOURS - 1,
                                value=repr(value)))
    return value


def _seat(value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
        raise RosterError(_("a seat is a number from 1 to 8, not {value}", value=repr(value)))
    return value


# -- in the journal ---------------------------------------------------------------------
def stored_players(journal: Journal) -> list[list[str]]:
    """Every stored game's player list, oldest first (finished or not)."""
    return [[str(n) for n in g.setup.get("players", [])] for g in journal.games()]


def _stored(journal: Journal) -> Roster | None:
    """The stored roster; None when there is none or it does not decode (said as a warning). A newer
    version's comes back empty and read-only, so that nothing overwrites it."""
    raw = journal.meta_get(META_KEY)
    if raw is None:
        return None
    try:
        return Roster.from_json(raw)
    except NewerRoster as e:
        why = _said(e)
        journal.warn(_("{why}; each stored name counts as its own player here, and the roster is left as it is",
                       why=why))
        return Roster(read_only=why)
    except (ValueError, KeyError, TypeError, RosterError) as e:
        journal.warn(_("the stored roster does not decode ({error}); it is built again from the stored games",
                       error=_said(e)))
        return None


def read(journal: Journal) -> Roster:
    """The roster as stored, without looking at the games: enough to map stored names to people (a
    name it does not know is its own person)."""
    return _stored(journal) or Roster()


def load(journal: Journal) -> tuple[Roster, bool]:
    """The journal's roster with everyone in its stored games, and whether it was stored as it is.

    A journal without one (or with one that does not decode) gets one built from its stored games'
    names; every name the stored roster does not know yet is taken in too. The second value is False
    whenever the roster differs from what is stored: :func:`save` it to keep it (a newer version's
    roster is never saved over).
    """
    roster = _stored(journal)
    if roster is None:
        return Roster.built_from(stored_players(journal)), False
    new = roster.take_in(stored_players(journal))
    return roster, roster.read_only is not None or not new


def _said(e: BaseException) -> str:
    """An error's sentence: its message when it carries one, else its text ("not a roster")."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Msg) else str(e)


def save(journal: Journal, roster: Roster) -> None:
    """Store the roster in the journal (one durable transaction); RosterError for a roster that must
    not replace the stored one (:attr:`Roster.read_only`)."""
    if roster.read_only is not None:
        raise RosterError(_("{why}: nothing was changed", why=roster.read_only))
    journal.meta_set(META_KEY, roster.to_json())
