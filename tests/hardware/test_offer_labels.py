"""Every offer a pod can show is readable whole: in both languages, on one line of the offer bar or on
two, cut only between words, so the part that tells two offers apart is never the part cut off.

The offers are every one a game gives any player at any moment of the table stories written from the
rulebooks (bench/stories/rulebook-actions/, the second set, rulebook-2-actions/, and the third,
rulebook-3-actions/, the fourth, rulebook-4-actions/, and the fifth, rulebook-5-actions/), played through: what a real table meets. (The second set found three cut: a Bloody Inn morning paying a corpse with a check, one
letting travellers go for wages, and Dale's Spanish "new card, buy" lines.)
"""
from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from tablekeeper.engine.messages import translated
from tablekeeper.hardware.pod import PodView
from tablekeeper.hardware.render import offer_lines, offer_text
from tablekeeper.ui.i18n import load_catalog

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import stories as st  # noqa: E402

STORIES = [path for folder in ("rulebook-actions", "rulebook-2-actions", "rulebook-3-actions", "rulebook-4-actions",
                                 "rulebook-5-actions")
           for path in sorted((ROOT / "bench" / "stories" / folder).glob("*.json"))]


@cache
def spanish():
    return load_catalog("es")


def offers(path: Path) -> set[tuple[str, int]]:
    """Every (label as the pod shows it, number of offers beside it) of a story's states."""
    story = st.load(path)
    rules = st.rules_of(story)
    played = st.play(story)
    states = [played[0][1]] + [after for _e, _b, after in played]
    out = set()
    for state in states:
        for p in state["players"]:
            offered = rules.seat_actions(state, p["name"])
            for o in offered:
                out.add((o["label"], bool(o.get("ask")), len(offered)))
    return out


def test_a_long_offer_takes_two_lines_cut_between_words():
    view = PodView(seat=1, player="Ana", counters=(("gold", 10),), choosing=True, pick=3, choices=19,
                   action="bienvenida: policía en hab. 1")
    assert offer_lines(view) == 2
    assert offer_text(view) == ["bienvenida:", "policía en hab. 1"]
    short = PodView(seat=1, player="Ana", counters=(("gold", 10),), choosing=True, pick=0, choices=3, action="ale")
    assert offer_lines(short) == 1 and offer_text(short) == ["ale"]


def cut_offers(offered) -> set[str]:
    """Of (label, asks something, offers beside it), each one the offer bar cuts, in either language."""
    cut = set()
    for label, asks, n in offered:
        for catalog in (None, spanish()):
            text = str(translated(label, catalog)) + ("…" if asks else "")
            view = PodView(seat=1, player="Ana", counters=(("gold", 10),), choosing=True, pick=n - 1, choices=n,
                           action=text)
            if " ".join(x for x in offer_text(view) if x) != text:
                cut.add(text)
    return cut


@pytest.mark.slow
@pytest.mark.parametrize("path", STORIES, ids=lambda p: p.stem)
def test_every_offer_of_a_rulebook_story_reads_whole_in_both_languages(path):
    cut = cut_offers(offers(path))
    assert not cut, f"{len(cut)} offers cut:\n" + "\n".join(sorted(cut))


def _burials_of_ben(names: list[str]) -> list[tuple]:
    """Ben's burial offers, a corpse of his to bury, Ana's annexes named ``names`` (one or two) by a script."""
    from tablekeeper.engine import Match, make_rules

    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben", "Cai"]}))
    m.apply({"action": "welcome"})
    m.apply({"action": "correct", "player": "Ana", "hand": 3 * len(names)})
    m.apply({"action": "build", "rank": 2, "name": names[0], "peasants": 2})  # Ana's first action
    m.apply({"action": "kill", "room": 2, "rank": 0})  # Ben: a corpse to bury
    m.apply({"action": "pass"})  # Cai
    if names[1:]:  # Ana's second action
        m.apply({"action": "build", "rank": 2, "name": names[1], "peasants": 0})
    else:
        m.apply({"action": "pass"})
    offered = m.rules.seat_actions(m.state, "Ben")  # Ben's second action
    return [(o["label"], bool(o.get("ask")), len(offered)) for o in offered if o["action"]["action"] == "bury"
            and o["action"].get("owner") == "Ana" and o["action"].get("annex") not in (0, "barn")]


def test_an_annex_named_in_full_by_a_script_reads_whole_in_a_burials_offer():
    """The fourth Bloody Inn story's table named its own annexes in full ("Dormitorio de servicio"); a pod
    names an annex from the card list (short names), but a script may give any name: a burial's offer
    names it by the first word that tells it apart, whole, in both languages."""
    burials = _burials_of_ben(["Dormitorio de servicio"])
    assert [str(translated(label, None)) for label, _asks, _n in burials] == ["bury: Ana's Dormitorio"]
    assert [str(translated(label, spanish())) for label, _asks, _n in burials] == ["enterrar: Dormitorio de Ana"]
    assert not cut_offers(burials)


def test_two_annexes_named_alike_by_a_script_are_told_apart_in_the_burials_offers():
    """Two long names that start alike keep as many words as tell them apart («Casa de postas», «Casa de
    campo»): the part that tells two offers apart is the part shown."""
    burials = _burials_of_ben(["Casa de postas", "Casa de campo"])
    labels = sorted(str(translated(label, None)) for label, _asks, _n in burials)
    assert labels == ["bury: Ana's Casa de campo", "bury: Ana's Casa de postas"]


def test_an_annex_known_only_by_its_number_shows_its_corpses_and_its_room_in_a_burials_offer():
    """«Entierro … bajo uno de sus anexos»: one's own annexes built without a card's name ("annex 1", "annex 2")
    are told apart by what the table sees on them, the corpses under each and its room (its rank); a
    play-tester's story buried under «its Notaría (now 2/2)» and "bury: annex 1" / "bury: annex 2" did not say
    which was which."""
    from tablekeeper.engine import Match, make_rules

    m = Match(make_rules({"game": "bloody-inn", "players": ["Ana", "Ben"]}))
    m.apply({"action": "welcome"})
    m.apply({"action": "correct", "player": "Ana", "hand": 9})
    m.apply({"action": "build", "rank": 2, "peasants": 2})  # Ana: "annex 1", room for 2
    m.apply({"action": "pass"})  # Ben
    m.apply({"action": "build", "rank": 3, "peasants": 0})  # Ana: "annex 2", room for 3
    m.apply({"action": "pass"})  # Ben
    m.apply({"action": "morning"})
    m.apply({"action": "welcome"})  # Ben's: the first-player card passed to him
    m.apply({"action": "pass"})  # Ben
    m.apply({"action": "kill", "room": 3, "rank": 0})  # Ana: a corpse to bury
    m.apply({"action": "pass"})  # Ben
    bury = [o for o in m.rules.seat_actions(m.state, "Ana") if o["action"]["action"] == "bury"]
    assert [str(translated(o["label"], None)) for o in bury][:2] == ["bury: annex 1 0/2", "bury: annex 2 0/3"]
    assert [str(translated(o["label"], spanish())) for o in bury][:2] == ["enterrar: anexo 1 0/2",
                                                                          "enterrar: anexo 2 0/3"]
    assert not cut_offers([(o["label"], bool(o.get("ask")), len(bury)) for o in bury])
