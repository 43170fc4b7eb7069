"""The games' messages on a Spanish screen (ui/i18n.py ``engine_text``, the merged catalogs).

Every scripted replay in tests/engine/scripts/ is played through the engine; its history lines
(``Session.history``) and events (``Outcome.events``), and a list of refusals a player meets in
routine play, must come out in Spanish: free of English template words. Each is a message
rendered from its template and parameters; nothing is parsed back from English.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, RuleError, Session, available
from tablekeeper.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "engine" / "scripts"
#: every game of the registry with rules of its own (the generic counters say little)
GAMES = tuple(sorted(game_id for game_id, cls in available().items() if not cls.generic))

#: The share of distinct history lines and events (per game and kind, and all together) that must
#: come out translated: every one, now that each is a message with its Spanish in the game's .po.
THRESHOLD = 1.0

#: English words of the engine's templates that must not survive a translation. Game words
#: kept as they are in Spanish ("alcohol", "pandas"), names and words Spanish shares ("a", "no")
#: are not in the list; a sentence with none of these words ("Ana: alcohol +17") has nothing to
#: translate and counts as done.
ENGLISH = re.compile(
    r"\b(the|and|of|to|into|from|with|is|has|have|only|not|in|an|their|its|each|every|for|"
    r"drinks?|buys?|passes|plays?|charges|hides|rolls|cries|baby|dealt|takes?|another|turn|"
    r"room|rooms|guest|guests|traveller|travellers|corpses?|annex|bribes|kills|builds|buries|"
    r"checks?|wages|morning|police|exit|entrance|stack|stacks|slot|market|deck|cards?|"
    r"gold|pot|gambling|round|phase|chasers?|next|out|wins|won|treasure|dragon|escaped|"
    r"technique|draws|discards?|shuffles|junk|stall|price|pays|exactly|left|must|cannot|"
    r"already|first|there|nobody|player|players|hand|bonus|action|actions)\b")


def _session(tmp_path: Path, setup: dict, name: str) -> tuple[Journal, Session]:
    journal = Journal(tmp_path / name, durable=False)
    session = Session.new(journal, setup["game"], setup["players"], setup.get("options"), rng=random.Random(7))
    return journal, session


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, dict[str, list[str]]]:
    """Per game: the history lines and the events of every script of that game."""
    out = {g: {"history": [], "events": []} for g in GAMES}
    tmp = tmp_path_factory.mktemp("scripts")
    for path in sorted(SCRIPTS.glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        journal, session = _session(tmp, lines[0], path.stem)
        try:
            for entry in lines[1:]:
                out[lines[0]["game"]]["events"] += session.apply(entry).events
            out[lines[0]["game"]]["history"] += [h["text"] for h in session.history()]
        finally:
            journal.close()
    return out


# -- refusals met in routine play: (setup, actions that play, refused actions) ---------------
RDI = {"game": "red-dragon-inn", "players": ["Ana", "Ben", "Cai"]}
BLOODY = {"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"], "options": {"length": "short"}}
DRAGON = {"game": "dragon-run", "players": ["Ana", "Ben", "Cai"],
          "options": {"first": "Ana", "hands": {"Ana": [3, 3, 2, 0], "Ben": [4, 2, 1, 1], "Cai": [1, 1, 1, 0]}}}
DALE = {"game": "dale-of-merchants", "players": ["Ana", "Ben"]}

REFUSALS = [
    (RDI, [], [{"action": "next", "player": "Ben"}, {"action": "drink"},
               {"action": "pass"}, {"action": "play", "card": "cheat"}]),
    (RDI, [{"action": "next"}], [{"action": "drink"}, {"action": "buy", "to": "Ana"}]),
    (RDI, [{"action": "next"}, {"action": "next"}],
     [{"action": "next"}, {"action": "buy", "to": "Ana"}, {"action": "gamble"}, {"action": "drink"}]),
    (RDI, [{"action": "next"}, {"action": "next"}, {"action": "buy", "to": "Ben"}],
     [{"action": "next"}, {"action": "drink", "alcohol": 2, "chasers": 1}, {"action": "buy", "to": "Ben"}]),
    (RDI, [{"action": "next"}, {"action": "gamble"}],
     [{"action": "next"}, {"action": "pass", "player": "Cai"}]),
    (RDI, [{"action": "next"}, {"action": "gamble"}, {"action": "play", "card": "winning_hand"}],
     [{"action": "play", "card": "gambling"}]),
    (RDI, [{"action": "next"}, {"action": "gamble"}, {"action": "leave", "player": "Ben"}],
     [{"action": "leave", "player": "Ben"}]),
    (BLOODY, [], [{"action": "pass", "player": "Ana"}, {"action": "kill", "player": "Ana", "room": 1, "rank": 1}]),
    (BLOODY, [{"action": "welcome"}],
     [{"action": "welcome"}, {"action": "pass", "player": "Ben"}, {"action": "bury", "player": "Ana"},
      {"action": "bribe", "player": "Ana", "room": 9, "rank": 1},
      {"action": "kill", "player": "Ana", "room": 1, "rank": 1, "money": 12, "peasants": 3},
      {"action": "build", "player": "Ana", "name": "chapel", "rank": 1},
      {"action": "pass", "player": "Ana", "checks": 1}, {"action": "pass", "player": "Ana", "checks": -9}]),
    (BLOODY, [{"action": "welcome"}, {"action": "pass", "player": "Ana"}, {"action": "pass", "player": "Ben"},
              {"action": "pass", "player": "Cai"}, {"action": "pass", "player": "Ana"},
              {"action": "pass", "player": "Ben"}, {"action": "pass", "player": "Cai"}],
     [{"action": "pass", "player": "Ana"}, {"action": "welcome"}]),
    (BLOODY, [{"action": "welcome"}, {"action": "kill", "player": "Ana", "room": 1, "rank": 1, "money": 12,
                                      "peasants": 1}],
     [{"action": "bribe", "player": "Ben", "room": 1, "rank": 1},
      {"action": "bury", "player": "Ben"}]),
    (DRAGON, [], [{"action": "pass", "player": "Ana"}, {"action": "charge", "player": "Ben", "location": "other"},
                  {"action": "hide", "player": "Ana", "discard": [0], "roll": 5},
                  {"action": "cry", "player": "Ana", "discard": [0]},
                  {"action": "hide", "player": "Ana", "discard": [4], "roll": 5}]),
    (DRAGON, [{"action": "charge", "player": "Ana", "location": "other"}],
     [{"action": "hide", "player": "Ana", "discard": [2], "roll": 5}]),
    (DRAGON, [{"action": "hide", "player": "Ana", "discard": [2], "roll": 3}],
     [{"action": "pass", "player": "Ana"}]),
    (DRAGON, [{"action": "power", "player": "Ana"}], [{"action": "power", "player": "Ana"}]),
    (DALE, [], [{"action": "set_market", "values": [3, 2, 5, 4, 2]}]),
    (DALE, [{"action": "draw_decks", "decks": ["macaws", "pandas", "raccoons"]},
            {"action": "set_market", "values": [3, 2, 5, 4, 2]}],
     [{"action": "end_turn"}, {"action": "end_turn", "player": "Ben"},
      {"action": "stall", "set": "macaws", "values": [2]}, {"action": "stall", "set": "macaws", "values": [1, 1]},
      {"action": "stall", "set": ["macaws", "pandas"], "values": [1, 0]},
      {"action": "stall", "set": "macaws", "values": [1], "stack": 2},
      {"action": "buy", "slot": 0, "paid": [1]}, {"action": "buy", "slot": 0, "paid": [2, 1, 1]},
      {"action": "buy", "slot": 4, "paid": [1, 1, 1, 1, 1, 1, 1, 1]}]),
    (DALE, [{"action": "draw_decks", "decks": ["macaws", "pandas", "raccoons"]},
            {"action": "set_market", "values": [3, 2, 5, 4, 2]},
            {"action": "stall", "set": "macaws", "values": [1]}],
     [{"action": "stall", "set": "macaws", "values": [2], "stack": 1},
      {"action": "technique"}]),
]


@pytest.fixture(scope="module")
def refused(tmp_path_factory) -> dict[str, list[str]]:
    """Per game: the refusals (RuleError messages) of REFUSALS, each one checked to be refused."""
    out = {g: [] for g in GAMES}
    tmp = tmp_path_factory.mktemp("refusals")
    for i, (setup, plays, tries) in enumerate(REFUSALS):
        journal, session = _session(tmp, setup, f"r{i}")
        try:
            for entry in plays:
                session.apply(entry)
            for entry in tries:
                with pytest.raises(RuleError) as e:
                    session.apply(entry)
                out[setup["game"]].append(e.value.args[0])
        finally:
            journal.close()
    return out


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def _check(texts: list[str], threshold: float) -> tuple[float, list[tuple[str, str]]]:
    distinct = sorted(set(texts))
    bad = []
    for text in distinct:
        es = i18n.engine_text(text)
        leftover = ENGLISH.findall(re.sub(r'"[^"]*"', "", es))  # a quoted JSON key is not English prose
        if leftover or (es == text and ENGLISH.search(text)):
            bad.append((text, es))
    share = 1 - len(bad) / len(distinct)
    return share, bad


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["history", "events"])
def test_the_scripts_sentences_come_out_in_spanish(played, spanish, game, kind):
    texts = played[game][kind]
    assert len(set(texts)) >= 8, f"the scripts of {game} tell too little to measure"
    share, bad = _check(texts, THRESHOLD)
    assert share >= THRESHOLD, f"{game} {kind}: {share:.0%} translated; still English:\n" + "\n".join(
        f"  {t!r} -> {es!r}" for t, es in bad)


@pytest.mark.parametrize("game", GAMES)
def test_routine_refusals_come_out_in_spanish(refused, spanish, game):
    texts = refused[game]
    assert len(set(texts)) >= 6, refused[game]
    share, bad = _check(texts, 1.0)
    assert bad == [], f"{game} refusals still English:\n" + "\n".join(f"  {t!r} -> {es!r}" for t, es in bad)


def test_all_games_together_reach_the_threshold(played, refused, spanish):
    texts = [t for g in GAMES for k in ("history", "events") for t in played[g][k]]
    texts += [t for g in GAMES for t in refused[g]]
    share, bad = _check(texts, THRESHOLD)
    assert share >= THRESHOLD, bad


@pytest.fixture(scope="module")
def by_english(played, refused) -> dict:
    """Every message the scripts and the refusals produced, by its English rendering."""
    out = {}
    for g in GAMES:
        for t in played[g]["history"] + played[g]["events"] + refused[g]:
            out.setdefault(str(t), t)
    return out


@pytest.mark.parametrize("english,spanish_text", [
    ("Ben drinks with 1 chaser: alcohol +3, fortitude -1", "Ben bebe con 1 chupito: alcohol +3, fortaleza \u22121"),
    ("Ana passes out: 4 of 8 gold to the Inn, 2 to each of Ben, Cai",
     "Ana se desmaya: 4 de 8 de oro a la posada, 2 a cada uno de Ben, Cai"),
    ('Ben plays "Winning Hand!" and takes control', "Ben juega «¡Mano ganadora!» y toma el control"),
    ("Ana buries a corpse under their barn and takes its 12F",
     "Ana entierra un cadáver bajo su granero y se queda sus 12F"),
    ("Ana passes and launders 10F into 1 check", "Ana pasa y blanquea 10F en 1 cheque"),
    ("Ana passes and launders 20F into 2 checks", "Ana pasa y blanquea 20F en 2 cheques"),
    ("Ana is out: burnt to ashes by the dragon", "Ana queda fuera: reducido a cenizas por el dragón"),
    ("Cai hides (discards 1) and rolls 0: 0 always fails; Cai must charge",
     "Cai se esconde (descarta 1) y saca un 0: el 0 siempre falla; ¡debe cargar!"),
    ("the dragon! Ben is injured", "¡el dragón! Ben queda herido"),
    ("Ana: build a stack: raccoons 1+2 = 3", "Ana: construye una pila: mapaches 1+2 = 3"),
    ("Ana won: the 8th stack completes the stall", "ganó Ana: la pila 8 completa el puesto"),
])
def test_exact_translations(by_english, spanish, english, spanish_text):
    assert english in by_english, f"no script produces {english!r}"
    assert i18n.engine_text(by_english[english]) == spanish_text


def test_english_stays_english(by_english):
    text = "Ben drinks with 1 chaser: alcohol +3, fortitude -1"  # the replay's English: a hyphen for scripts
    shown = "Ben drinks with 1 chaser: alcohol +3, fortitude \u22121"  # on a screen: the minus sign
    assert i18n.language() == "en" and i18n.engine_text(by_english[text]) == shown
