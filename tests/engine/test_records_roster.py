"""The roster: players as people. Renames and merges never touch a stored game, every stored game
follows them, and a journal from before rosters gets one built from its games' names."""
from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from tablekeeper.engine import Journal
from tablekeeper.engine import records as rec
from tablekeeper.engine import roster as people
from tablekeeper.engine.journal import FILENAME

from ..conftest import games

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import playgen  # noqa: E402


def dump(path: Path) -> tuple[list, list, list]:
    """Everything a stored game is: its setup and result, and every action's row."""
    con = sqlite3.connect(path)
    try:
        return (con.execute("SELECT id, game, setup, started, finished, result FROM games ORDER BY id").fetchall(),
                con.execute("SELECT game, seq, body, crc, at FROM entries ORDER BY game, seq").fetchall(),
                con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall())
    finally:
        con.close()


def quick_game(journal, players):
    """A finished Dragon Run among ``players``, played by the robot."""
    return playgen.finished_game(journal, "dragon-run", players, seed=len(journal.games()))


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A journal from before rosters: 40 real games, among them "Bea" and "Beatriz" (never together)."""
    folder = tmp_path_factory.mktemp("roster")
    with Journal(folder, durable=False) as j:
        playgen.generate(j, games(40), seed=3, games=("red-dragon-inn", "dragon-run", "bloody-inn"))
        quick_game(j, ["Bea", "Ana"])
        quick_game(j, ["Beatriz", "Ben"])
        quick_game(j, ["Beatriz", "Cai", "Ana"])
    return folder / FILENAME


@pytest.fixture
def stored(template, tmp_path):
    shutil.copyfile(template, tmp_path / FILENAME)
    return tmp_path


def test_a_journal_without_a_roster_gets_one_built_from_its_games_names(stored):
    with Journal(stored) as j:
        assert j.meta_get(people.META_KEY) is None
        roster, kept = people.load(j)
        games = j.games()
    assert not kept  # built, not stored yet
    names = {n for g in games for n in g.setup["players"]}
    assert set(roster.names()) == names
    for person in roster.people:  # the seat each took most often
        seats = [g.setup["players"].index(person.name) + 1 for g in games if person.name in g.setup["players"]]
        best = max(seats.count(k) for k in set(seats))
        assert person.seat == min(k for k in set(seats) if seats.count(k) == best)
        assert person.aliases == [person.name]
    assert len({p.colour for p in roster.people}) == min(len(roster.people), people.COLOURS)


def test_the_built_roster_is_stored_once_and_read_back_as_it_was(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
        people.save(j, roster)
    with Journal(stored) as j:
        again, kept = people.load(j)
    assert kept and again.to_json() == roster.to_json()


def test_storing_a_roster_changes_no_stored_game_and_no_table(stored):
    before = dump(stored / FILENAME)
    with Journal(stored) as j:
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        roster.merge("Bea", "Beatriz", people.stored_players(j))
        people.save(j, roster)
    assert dump(stored / FILENAME) == before


def test_a_rename_is_followed_by_every_stored_game(stored):
    with Journal(stored) as j:
        plays = rec.stored_plays(j)
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        people.save(j, roster)
    with Journal(stored) as j:
        roster, _ = people.load(j)
    before = rec.player_stats(plays)
    after = rec.player_stats(rec.with_people(plays, roster.person_of))
    assert "Ana" not in after
    assert after["Ana María"] == before["Ana"]
    assert roster.find("Ana").name == "Ana María"


def test_a_game_played_under_the_new_name_is_the_same_person(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
        roster.rename("Ana", "Ana María")
        people.save(j, roster)
        old = rec.player_stats(rec.with_people(rec.stored_plays(j), roster.person_of))["Ana María"]["*"]["plays"]
        quick_game(j, ["Ana María", "Ben"])
        plays = rec.with_people(rec.stored_plays(j), people.load(j)[0].person_of)
    assert rec.player_stats(plays)["Ana María"]["*"]["plays"] == old + 1


def test_a_merge_makes_two_names_one_person_in_every_stored_game(stored):
    with Journal(stored) as j:
        plays = rec.stored_plays(j)
        roster, _ = people.load(j)
        roster.merge("Bea", "Beatriz", people.stored_players(j))
        people.save(j, roster)
        roster, _ = people.load(j)
    before = rec.player_stats(plays)
    after = rec.player_stats(rec.with_people(plays, roster.person_of))
    assert "Beatriz" not in after
    assert after["Bea"]["*"]["plays"] == before["Bea"]["*"]["plays"] + before["Beatriz"]["*"]["plays"] == 3
    assert after["Bea"]["dragon-run"]["wins"] == before["Bea"]["dragon-run"]["wins"] + \
        before["Beatriz"]["dragon-run"]["wins"]
    assert sorted(roster.find("Beatriz").aliases) == ["Bea", "Beatriz"]


def test_two_people_who_played_together_cannot_be_merged(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
        with pytest.raises(people.RosterError, match="played in the same game"):
            roster.merge("Ana", "Beatriz", people.stored_players(j))
    assert roster.find("Beatriz").name == "Beatriz"


def test_a_rename_to_a_name_taken_is_refused_and_says_merge(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
    with pytest.raises(people.RosterError, match="merge"):
        roster.rename("Bea", "Beatriz")
    with pytest.raises(people.RosterError, match="no player 'Zed'"):
        roster.rename("Zed", "Zoe")


def test_names_new_since_the_roster_was_stored_are_taken_in(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
        people.save(j, roster)
        quick_game(j, ["Gus", "Ana"])
        again, kept = people.load(j)
    assert not kept and again.find("Gus") is not None and again.find("Gus").seat == 1


def test_the_roster_survives_a_damaged_journal(stored):
    with Journal(stored) as j:
        roster, _ = people.load(j)
        roster.merge("Bea", "Beatriz", people.stored_players(j))
        people.save(j, roster)
    path = stored / FILENAME
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    leaves = [n for n in range(2, len(data) // size) if data[(n - 1) * size] == 0x0A]  # the actions' pages
    victim = leaves[len(leaves) // 2]
    data[(victim - 1) * size:victim * size] = os.urandom(size)
    path.write_bytes(bytes(data))
    with Journal(stored) as j:
        assert any("was damaged" in w for w in j.warnings)
        again, _ = people.load(j)
    assert sorted(again.find("Bea").aliases) == ["Bea", "Beatriz"]


def test_a_roster_from_a_newer_version_is_left_as_it_is(stored):
    newer = '{"format": 99, "people": []}'
    with Journal(stored) as j:
        j.meta_set(people.META_KEY, newer)
        roster, kept = people.load(j)
        assert kept and roster.read_only and any("newer tablekeeper" in w for w in j.warnings)
        with pytest.raises(people.RosterError, match="newer"):
            people.save(j, roster)
        assert j.meta_get(people.META_KEY) == newer


def test_a_roster_that_does_not_decode_is_built_again(stored):
    with Journal(stored) as j:
        j.meta_set(people.META_KEY, "{not json")
        roster, kept = people.load(j)
        assert not kept and "Ana" in roster.names()
        assert any("does not decode" in w for w in j.warnings)


def test_colours_and_seats_are_checked(stored):
    roster = people.Roster()
    ana = roster.add("  Ana ")
    assert ana.name == "Ana" and ana.colour == 0
    assert roster.add("Ben").colour == 1  # the least used colour
    with pytest.raises(people.RosterError, match="colour"):
        roster.update("Ana", colour=8)
    with pytest.raises(people.RosterError, match="seat"):
        roster.add("Cai", seat=0)
    roster.update("Ana", seat=3, bgg_user="ana_bgg")
    assert people.Roster.from_json(roster.to_json()).find("Ana") == ana
