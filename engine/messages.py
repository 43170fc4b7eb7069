"""What the engine says, as messages: a template with named parameters, translated at the edges.

Every sentence the engine produces — an event, a history line, a refusal, a
pending reason, a setup error — is a :class:`Msg`: an English template marked
for extraction (``_("{who} drinks")``), its parameters, and for a count its
plural form (``N_("{n} card", "{n} cards", n)``). A ``Msg`` *is* a ``str``:
its value is the English rendering, so the replay JSON, the journal and every
test that reads English are unchanged. The app, the pods and the command line
call :meth:`Msg.translated` with a gettext catalog; nothing ever parses a
sentence back.

Parameters that are words of a game (a counter, a phase, a card) are
messages too (:func:`word`, with a gettext context), so they translate with
the sentence; names of people stay as they are. ``pybabel extract -k _
-k N_:1,2 -k word:1c,2`` finds every template (``babel.cfg``).
"""
from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol


class Catalog(Protocol):
    """What a translation needs of a catalog (``gettext.GNUTranslations`` has it)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class _English:
    """The identity catalog: the templates are English."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message


ENGLISH = _English()


class _ReadableEnglish(_English):
    """English for people: a game's word named by its id reads as words ("elven_wine" → "elven wine")."""

    def pgettext(self, context: str, message: str) -> str:
        return message.replace("_", " ")


READABLE = _ReadableEnglish()


class Msg(str):
    """A message: its ``str`` value is the English sentence; :meth:`translated` gives any other."""

    __slots__ = ("template", "params", "plural", "number", "context")
    template: str
    params: dict[str, Any]
    plural: str | None
    number: int | None  # the count a plural form is chosen by (not `count`: str.count is a method)
    context: str | None

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None, *, plural: str | None = None,
                count: int | None = None, context: str | None = None) -> Msg:
        params = dict(params or {})
        obj = super().__new__(cls, _render(template, params, plural, count, context, ENGLISH))
        obj.template, obj.params, obj.plural, obj.number, obj.context = template, params, plural, count, context
        return obj

    def translated(self, catalog: Catalog | None) -> str:
        """This message in ``catalog``'s language (English when ``catalog`` is None). A game's word
        named by its id reads as words in English ("elven_wine" → "elven wine"); its ``str`` stays
        the id, which is what code compares."""
        if catalog is None:
            if self.context is None and not self.params:
                return str.__str__(self)
            catalog = READABLE  # the words in it (and in its parameters) as words
        return _render(self.template, self.params, self.plural, self.number, self.context, catalog)

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[Any, ...]]:
        return (_rebuild, (self.template, self.params, self.plural, self.number, self.context))

    def __repr__(self) -> str:
        return f"Msg({str.__repr__(self)})"


def _rebuild(template: str, params: dict[str, Any], plural: str | None, count: int | None,
             context: str | None) -> Msg:
    return Msg(template, params, plural=plural, count=count, context=context)


class _Listing(Msg):
    """Items joined with ", " (each item translated on its own)."""

    __slots__ = ("items", "sep")
    items: tuple[Any, ...]
    sep: str

    def __new__(cls, items: Iterable[Any], sep: str = ", ") -> _Listing:
        items = tuple(items)
        obj = str.__new__(cls, sep.join(str(i) for i in items))
        obj.template, obj.params, obj.plural, obj.number, obj.context = "", {}, None, None, None
        obj.items, obj.sep = items, sep
        return obj

    def translated(self, catalog: Catalog | None) -> str:
        sep: str = translated(self.sep, catalog)
        return sep.join(str(translated(i, catalog)) for i in self.items)

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[Any, ...]]:
        return (_Listing, (self.items, self.sep))


class _Shown(string.Formatter):
    """Formatting for people: a signed number (``{delta:+d}``) with the minus sign, not a hyphen
    ("fortitude −1"). The ``str`` value of a message (its English for the replay JSON and the
    journal) keeps the hyphen scripts read."""

    def format_field(self, value: Any, format_spec: str) -> str:
        out: str = super().format_field(value, format_spec)
        if "+" in format_spec and isinstance(value, int):
            out = out.replace("-", "\u2212")
        return out


_SHOWN = _Shown()


def _render(template: str, params: dict[str, Any], plural: str | None, count: int | None, context: str | None,
            catalog: Catalog) -> str:
    if plural is not None:
        text = catalog.ngettext(template, plural, count if count is not None else 0)
    elif context is not None:
        text = catalog.pgettext(context, template)
    else:
        text = catalog.gettext(template)
    if not params:
        return text
    values = {k: translated(v, catalog) for k, v in params.items()}
    try:
        return text.format(**values) if catalog is ENGLISH else _SHOWN.vformat(text, (), values)
    except (KeyError, IndexError, ValueError):  # a broken translation must never hide the message
        return template.format(**{k: translated(v, ENGLISH) for k, v in params.items()})


def translated(value: Any, catalog: Catalog | None) -> Any:
    """``value`` translated if it is a message; anything else (a name, a number) as it is."""
    return value.translated(catalog) if isinstance(value, Msg) else value


def _(template: str, **params: Any) -> Msg:
    """A sentence: ``_("{who} drinks", who=name)``."""
    return Msg(template, params)


def N_(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """A sentence with a count, in the plural form ``n`` needs; ``{n}`` is the count."""
    return Msg(singular, dict(params, n=n), plural=plural, count=n)


def word(context: str, text: str) -> Msg:
    """One word of a game in its context: ``word("counter", "gold")``, ``word("phase", "drink")``."""
    return Msg(text, context=context)


def listing(items: Iterable[Any], sep: str = ", ") -> Msg:
    """``items`` joined with ``sep``, each translated on its own ("Ana, Ben", "oro, vida").

    ``sep`` may itself be a message: ``listing(names, _(" and "))``.
    """
    return _Listing(items, sep)
