"""Every message the engine and the pods can say has its Spanish: extracted by pybabel from the code,
looked up in the merged catalog (the app's, the pods', the engine's and each game's .po)."""
from __future__ import annotations

import pytest

from tablekeeper.ui.i18n import load_catalog


@pytest.fixture(scope="module")
def es():
    return load_catalog("es")


def _extracted(package: str) -> set[tuple[str | None, str]]:
    """Every message template marked in a package's code, as pybabel extracts it."""
    from pathlib import Path

    from babel.messages.extract import extract_from_dir

    root = Path(__file__).resolve().parents[2] / package
    keywords = {"_": None, "N_": (1, 2), "word": ((1, "c"), 2)}
    out = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords=keywords):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            out.add((context, msgid))
    return out


@pytest.mark.parametrize("package", ["engine", "hardware", "ui/pod"])
def test_every_message_of_the_engine_and_the_pods_has_its_spanish(es, package):
    entries = es._catalog  # gettext's own table: "context\x04msgid" or msgid (plural: (msgid, 0))

    def has(ctx, msgid):
        key = f"{ctx}\x04{msgid}" if ctx else msgid
        return bool(entries.get(key) or entries.get((key, 0)))

    missing = sorted(f"{ctx + ': ' if ctx else ''}{msgid}" for ctx, msgid in _extracted(package)
                     if not has(ctx, msgid) and _has_words(msgid))
    assert not missing, f"{len(missing)} without Spanish:\n" + "\n".join(missing[:40])


def _has_words(template: str) -> bool:
    """A template with words to translate (not only placeholders, signs and units like "F")."""
    import re

    return re.search(r"[^\W\d_]{2,}", re.sub(r"\{[^}]*\}", "", template)) is not None


def test_every_actions_help_line_has_its_spanish(es):
    """The "more actions" form shows each action's one-line help: in Spanish too (msgctxt "help")."""
    from tablekeeper.engine import available

    missing = sorted(f"{game_id} {name}: {info.help}" for game_id, cls in available().items()
                     for name, info in cls.actions.items()
                     if not (es._catalog.get(f"help\x04{info.help}")))
    assert not missing, "\n".join(missing)


def test_every_declared_field_a_pod_may_ask_has_its_spanish_word(es):
    """A pod's entry step shows the field it asks by its word (``word("field", name)``): every field of
    every declared action has one in Spanish, so no English field name reaches a Spanish pod."""
    from tablekeeper.engine import available

    missing = sorted({f"{game_id}: {f.name}" for game_id, cls in available().items()
                      for info in cls.actions.values() for f in info.fields
                      if not es._catalog.get(f"field\x04{f.name}")})
    assert not missing, "\n".join(missing)
