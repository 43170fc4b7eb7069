"""Every string a pod shows speaks the table's language: no English on a Spanish pod, no Spanish on an
English one, no identifier ("drink_me") on either, and one name per thing from the offer to its entry.

The strings are what the pods of real games show, press by press (tests/hardware/podwords.py: the
table stories' moments, every seat, home with each offer, the menu, each entry step and the values it
cycles through, the preview, every message). They are checked against every catalog's entries (the
app's, the pods', the engine's, each game's): a Spanish pod's word that is only ever an English source
word of a catalog (never a word of a Spanish translation) was left untranslated.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tablekeeper.ui.i18n import catalog_files

from . import podwords

WORD = re.compile(r"[^\W\d_]+")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: Words too short to tell a language by ("a", "de", "no", "en"...).
SHORT = 3
#: The letters a word is known by in another form of it ("descartar", "descarte").
STEM = 6


@cache
def entries(lang: str = "es") -> tuple[tuple[str | None, str, str], ...]:
    """Every translated entry of every catalog of ``lang``: (context, English source, translation);
    a plural's forms each as one entry."""
    from babel.messages.pofile import read_po

    out = []
    for path in catalog_files(lang):
        with open(path, "rb") as f:
            for m in read_po(f, locale=lang):
                if not m.id or not m.string:
                    continue
                ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
                strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
                for i, s in enumerate(strings):
                    if s:
                        out.append((m.context, ids[min(i, len(ids) - 1)], s))
    return tuple(out)


#: What is not a word of a language in a catalog's text: placeholders, identifiers and what is quoted
#: as code ("from_player", 'values', "clean_up": true), which a translation keeps as it is.
CODE = re.compile(r"\{[^}]*\}|\w*_\w*|\"[^\"\s]*\"|'[^'\s]*'|\b(?:true|false|null)\b")


def _words(text: str, catalog: bool = False) -> set[str]:
    """The words of ``text`` long enough to tell a language by; of a catalog's text, not its code."""
    return {w.lower() for w in WORD.findall(CODE.sub(" ", text) if catalog else text) if len(w) >= SHORT}


@cache
def vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """The words of the English sources and of the Spanish translations (placeholders left out)."""
    english, spanish = set(), set()
    for _ctx, source, text in entries():
        english |= _words(source.replace("_", " ") if _ctx else source, True)  # a word by its id: "drink_me"
        spanish |= _words(text, True)
    return frozenset(english), frozenset(spanish)


def foreign(text: str, lang: str) -> set[str]:
    """The words of ``text`` that belong only to the other language's side of the catalogs."""
    english, spanish = vocabulary()
    mine, theirs = (spanish, english) if lang == "es" else (english, spanish)
    return {w for w in _words(text) if w in theirs and w not in mine}


def _report(bad: dict[str, set[str]], what: str) -> str:
    lines = [f"{where}: {text!r}" for text, wheres in sorted(bad.items()) for where in sorted(wheres)][:60]
    return f"{len(bad)} {what}:\n" + "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", podwords.GAMES)
def test_every_string_a_pod_shows_is_in_the_tables_language(game, lang):
    shown, _pairs = podwords.collect(game, lang)
    assert len({s.where for s in shown}) >= 8, "the pods were not driven through their screens"
    raw: dict[str, set[str]] = {}
    other: dict[str, set[str]] = {}
    for s in shown:
        if IDENTIFIER.search(s.text):
            raw.setdefault(s.text, set()).add(s.where)
        words = foreign(s.text, lang)
        if words:
            other.setdefault(f"{s.text}  [{', '.join(sorted(words))}]", set()).add(s.where)
    assert not raw, _report(raw, "identifiers on a pod")
    assert not other, _report(other, "words of the other language")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", podwords.GAMES)
def test_an_offer_its_entry_and_the_entrys_steps_call_a_thing_by_one_name(game, lang):
    """The offer (or menu line) chosen is the title of the entry it opens; and a title that names the
    field a step asks ("water + chaser", then "chaser") names it with the step's word in every language
    (not "agua + cazador", then "chupito")."""
    _shown, names = podwords.collect(game, lang)
    offers = [n for n in names if n[0] == "offer"]
    assert offers or game == "counters"
    differ = sorted(f"{chosen!r} opens {title!r}" for _k, chosen, title in offers if chosen != title)
    assert not differ, "\n".join(differ)
    fields = [n for n in names if n[0] == "field"]
    assert bool(fields) == (lang != "en")
    twice = sorted({f"{title!r} asks {prompt!r} (English: {en_title!r} asks {en_prompt!r})"
                    for _k, en_title, en_prompt, title, prompt in fields
                    if en_title != en_prompt and re.search(rf"\b{re.escape(en_prompt)}\b", en_title)
                    and not _names(title, prompt)})
    assert not twice, "\n".join(twice)


def _names(title: str, word: str) -> bool:
    """Whether ``title`` says ``word``: each of its words, by its stem (the verb "descartar" names the
    pile "descarte"; "cazador" does not name "chupito")."""
    stems = {w.lower()[:STEM] for w in WORD.findall(title)}
    return all(w.lower()[:STEM] in stems for w in WORD.findall(word) if len(w) >= SHORT)


def test_a_word_left_in_english_on_a_spanish_pod_is_found():
    """The check itself: the reviewer's "tu turno: drink" and "from player" are caught, "tu turno:
    beber" is not; on an English pod "oro" is."""
    assert foreign("tu turno: drink", "es") == {"drink"}
    assert foreign("from Ana: oro +2", "es") >= {"from"}
    assert foreign("tu turno: beber", "es") == set()
    assert foreign("your turn: oro", "en") == {"oro"}
    assert IDENTIFIER.search("end_turn") and not IDENTIFIER.search("fin de turno")
    assert _names("agua + chupito", "chupito") and not _names("agua + cazador", "chupito")


def test_the_catalogs_read_are_the_pods():
    assert {Path(p).name for p in catalog_files("es")} >= {"pod.po", "engine.po", "red-dragon-inn.po"}
